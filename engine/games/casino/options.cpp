// SPDX-License-Identifier: AGPL-3.0-or-later
// Casino's options (CA-2, CA-5.3, CA-6, CA-7 and the testing options), declared
// once (engine/options.h), and create(), which reads them.
#include <array>
#include <memory>
#include <string>
#include <utility>

#include "engine/games/casino/casino.h"
#include "engine/games/casino/casino_game.h"
#include "engine/registry.h"

namespace casa::casino {

namespace {

struct Setup {
  Options o;
  std::array<std::uint8_t, kDeckSize> deck{};
  bool has_deck = false;
  int dealer = -1;
};

std::optional<Error> store_questions(const Value& v, Setup& s, int) {
  Options& o = s.o;
  if (v.is_null() || (v.is_bool() && !v.as_bool()) || (v.is_string() && v.as_string() == "off")) {
    o.questions = nullptr;
    return std::nullopt;
  }
  if ((v.is_bool() && v.as_bool()) || (v.is_string() && v.as_string() == "default")) {
    // Aliasing constructor: shares nothing, points at the static set.
    o.questions = std::shared_ptr<const QuestionSet>(std::shared_ptr<void>(), &default_questions());
    return std::nullopt;
  }
  if (!v.is_object()) {
    return bad_option("questions must be false, \"off\", \"default\" or an object of 52 texts.");
  }
  auto set = std::make_shared<QuestionSet>();
  std::uint64_t seen = 0;
  for (const auto& [id, text] : v.as_object()) {
    const int card = parse_card(id);
    if (card < 0) return bad_option("questions: '" + id + "' is not a card id.");
    if (!text.is_string() || text.as_string().empty())
      return bad_option("questions: the text for " + id + " must be a non-empty string.");
    if (seen & bit(card)) return bad_option("questions: " + id + " appears twice.");
    seen |= bit(card);
    (*set)[card] = text.as_string();
  }
  if (seen != kAllCards) return bad_option("questions must give a text for each of the 52 cards.");
  o.questions = std::move(set);
  o.custom_questions = true;
  return std::nullopt;
}

std::optional<Error> store_deck(const Value& v, Setup& s, int) {
  if (!v.is_array() || v.size() != kDeckSize) return bad_option("deck must list all 52 card ids.");
  std::uint64_t seen = 0;
  for (int i = 0; i < kDeckSize; ++i) {
    const Value& item = v.as_array()[i];
    const int card = item.is_string() ? parse_card(item.as_string()) : -1;
    if (card < 0 || (seen & bit(card))) return bad_option("deck must list each of the 52 card ids once.");
    seen |= bit(card);
    s.deck[i] = static_cast<std::uint8_t>(card);
  }
  s.has_deck = true;
  return std::nullopt;
}

constexpr int kPartnersPlayers[] = {4};

constexpr Option<Setup> kOptions[] = {
    {.spec = {.name = "target",
              .title = "Target",
              .description = "The game ends after the round in which a side reaches this total (CA-5.3); a "
                             "tie at the top plays on.",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 1000000,
              .default_json = "21",
              .invalid = "target must be a positive integer."},
     .store = store_integer<&Setup::o, &Options::target>},
    {.spec = {.name = "partners",
              .title = "Partners",
              .description = "4 players only (with fewer it may only be false): two sides, seats 0+2 against "
                             "1+3, sharing captures and score (CA-2.1).",
              .type = OptionType::kBoolean,
              .default_json = "false",
              .players = kPartnersPlayers,
              .invalid = "partners must be true or false."},
     .store = store_boolean<&Setup::o, &Options::partners>},
    {.spec = {.name = "questions",
              .title = "Question cards",
              .description = "Adds the ask step after a capture (CA-6): the capturer pairs a captured card "
                             "with another seat, who answers the card's question in chat. false, \"off\" or "
                             "null: off; true or \"default\": the built-in set; or an object giving a "
                             "non-empty text for each of the 52 card ids.",
              .type = OptionType::kOther,
              .default_json = "false",
              .schema_json = R"({
                "oneOf": [
                  {"type": "boolean"},
                  {"type": "null"},
                  {"type": "string", "enum": ["off", "default"]},
                  {"type": "object", "minProperties": 52, "maxProperties": 52,
                   "additionalProperties": {"type": "string", "minLength": 1}}
                ],
                "x-form-enum": [false, "default"]})"},
     .store = store_questions},
    {.spec = {.name = "sweeps",
              .title = "Sweeps",
              .description = "A capture that clears the table scores a sweep point (CA-7).",
              .type = OptionType::kBoolean,
              .default_json = "false",
              .invalid = "sweeps must be true or false."},
     .store = store_boolean<&Setup::o, &Options::sweeps>},
    {.spec = {.name = "dealer",
              .title = "First dealer",
              .description = "Testing: the first dealer's seat (CA-2.2); drawn from the seed when absent.",
              .type = OptionType::kInteger,
              .min = 0,
              .max = 3,
              .max_seat = true,
              .testing = true,
              .invalid = "dealer must be a seat of this table."},
     .store = store_integer<&Setup::dealer>},
    {.spec = {.name = "rounds",
              .title = "Rounds",
              .description = "Testing: end after this many rounds; the top total wins (ties: all).",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 1000000,
              .testing = true,
              .invalid = "rounds must be a positive integer."},
     .store = store_integer<&Setup::o, &Options::rounds>},
    {.spec = {.name = "deck",
              .title = "Stacked deck",
              .description = "Testing: the first round's order, the 52 card ids (rank A 2..9 T J Q K then "
                             "suit C D H S, e.g. \"TD\") each once: positions 4s..4s+3 to seat s, then 4 to "
                             "the table. Refused unless the server runs with --testing.",
              .type = OptionType::kCards,
              .min = kDeckSize,
              .max = kDeckSize,
              .testing = true},
     .store = store_deck},
};

}  // namespace

CreateResult create(int players, const Value& options, std::uint64_t seed) {
  if (players < kMinPlayers || players > kMaxPlayers) {
    return {nullptr, Error{"bad_players", "Casino is for 2 to 4 players (CA-2.1)."}};
  }
  Setup s;
  if (auto err = read_options<Setup>(kOptions, "Casino has no option '{}'.", players, options, s)) {
    return {nullptr, std::move(err)};
  }
  if (s.o.partners && players != 4) {
    return {nullptr, bad_option("partners needs exactly 4 players (CA-2.1).")};
  }
  Rng rng(seed);
  const std::uint64_t shuffle_seed = rng.next();
  if (s.dealer < 0) s.dealer = static_cast<int>(rng.below(static_cast<std::uint32_t>(players)));  // CA-2.2
  return {std::make_unique<CasinoGame>(players, std::move(s.o), shuffle_seed, s.dealer,
                                       s.has_deck ? &s.deck : nullptr),
          std::nullopt};
}

GameInfo game_info() {
  return GameInfo{
      .name = "casino",
      .title = "Casino",
      .description = "The fishing game with a standard 52-card deck: capture cards from the table by value "
                     "or with builds; cards, spades, Big and Little Casino and aces score. Optional question "
                     "cards and sweeps.",
      .teams = "Each player for themselves; with partners (4 players only) two sides, seats 0+2 against 1+3.",
      .players = {2, 3, 4},
      .create = create,
      .rule_bot = rule_bot_action,
      .option_modes = {OptionMode{{}, specs_of<Setup>(kOptions)}},
  };
}

}  // namespace casa::casino
