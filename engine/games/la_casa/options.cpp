// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa's options, declared once: the table game's (two or four players:
// challenges, classic, sticky), Domination's (LC-9) and Solo's (LC-8), each a
// list read by read_options() (engine/options.h). The published schema lists
// every option once, as the table game describes it, with the formats that
// read it and the narrower limits of the others.
//
// Options (defaults in brackets):
//   format    "challenges" | "classic" | "sticky" (four players) | "domination"
//             (two players) | "solo"                                ["challenges"]
//   target    points to win (LC-5.4)                               [12]
//   election  the Election variant (LC-6)                          [false]
//   challenges  Solo: a round of each Solo Challenge (LC-8.3)      [true]
// Testing options:
//   deck      37 card ids: the first round's shuffled deck, dealt per LC-4.8
//   dealer    the first dealer's seat                              [drawn from the seed]
//   challenge the first round's challenge, by name (LC-7.0 set for the player count)
//   rounds    end the game after this many rounds                  [no limit]
#include "engine/games/la_casa/options.h"

#include <array>
#include <string>
#include <vector>

#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/domination_game.h"
#include "engine/games/la_casa/la_casa.h"
#include "engine/games/la_casa/solo_game.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

namespace {

// LC-5.4 The formats of a player count (0: all of them).
std::vector<std::string_view> formats_for(int players) {
  switch (players) {
    case 0: return {"challenges", "classic", "sticky", "domination", "solo"};
    case 1: return {"solo"};
    case 2: return {"challenges", "classic", "domination"};
    case 4: return {"challenges", "classic", "sticky"};
    default: return {};
  }
}

// LC-7.0 The Challenges a player count plays (0: all of them), by name.
std::vector<std::string_view> challenges_named_for(int players) {
  std::vector<std::string_view> names;
  for (const Challenge* c : all_challenges()) {
    if (players == 0 || (players == 4 && c->four_players) || (players == 2 && c->two_players) ||
        (players == 1 && c->solo)) {
      names.push_back(c->name);
    }
  }
  return names;
}

// LC-8.3 The Solo Challenges, by name.
std::vector<std::string_view> solo_challenges_named(int) { return challenges_named_for(1); }

// LC-4.8 A `deck` option of Solo or Domination: all 37 card ids, each once.
std::optional<Error> read_deck(const Value& v, std::array<int, kDeckSize>& out) {
  if (!v.is_array() || v.size() != kDeckSize) return bad_option("Option 'deck' must list all 37 card ids.");
  CardSet seen;
  for (std::size_t i = 0; i < kDeckSize; ++i) {
    const Value& item = v.as_array()[i];
    const auto card = item.is_string() ? parse_card(item.as_string()) : std::nullopt;
    if (!card) return bad_option("Option 'deck' holds something that is not a card id.");
    if (seen.has(*card)) return bad_option("Option 'deck' lists " + card_id(*card) + " twice.");
    seen.add(*card);
    out[i] = *card;
  }
  return std::nullopt;
}

template <class Setup>
std::optional<Error> store_deck(const Value& v, Setup& s, int) {
  std::array<int, kDeckSize> deck{};
  if (auto err = read_deck(v, deck)) return err;
  s.deck = deck;
  return std::nullopt;
}

template <class Setup>
std::optional<Error> ignore(const Value&, Setup&, int) {
  return std::nullopt;
}

constexpr int kDealerMax = 3;
constexpr std::string_view kDeckDescription =
    "Testing: the first round's deck, all 37 card ids (G1..G9, K1..K9, M1..M9, F1..F9, MC) each once, in "
    "the deal order of LC-4.8 for the mode. Refused unless the server runs with --testing.";

// ---- The table game (two or four players) ---------------------------------------

constexpr Option<TableOptions> kTableOptions[] = {
    {.spec = {.name = "format",
              .title = "Format",
              .description = "Game mode (LC-5.4): challenges (a Challenge every round), classic (no "
                             "Challenges), sticky (4 players: the dealer chooses each Challenge, each once), "
                             "domination (2 players, LC-9), solo (1 player, LC-8). With 1 player the game is "
                             "Solo whatever the format.",
              .type = OptionType::kChoice,
              .choices_for = formats_for,
              .default_json = "\"challenges\""},
     .store = [](const Value& value, TableOptions& o, int players) -> std::optional<Error> {
       if (!value.is_string()) return bad_option("format must be a string.");
       const std::string& f = value.as_string();
       if (f == "classic") {
         o.format = Format::kClassic;
       } else if (f == "challenges") {
         o.format = Format::kChallenges;
       } else if (f == "sticky") {
         if (players != 4) return bad_option("The sticky format is for four players.");
         o.format = Format::kSticky;
       } else {
         return bad_option("format must be classic, challenges, sticky, domination or solo.");
       }
       return std::nullopt;
     }},
    {.spec = {.name = "target",
              .title = "Target",
              .description = "Points to win: the game ends after the round in which a side reaches it with "
                             "the higher score (LC-5.5). Accepted and ignored in Solo, whose goal is fixed "
                             "(LC-8.3).",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 1000,
              .default_json = "12",
              .invalid = "target must be a whole number from 1 to 1000."},
     .store = store_integer<&TableOptions::target>},
    {.spec = {.name = "election",
              .title = "Election",
              .description = "The Election of the Ruling Family (LC-6): after the Selection, players may "
                             "elect the nominated family or, in a second round, another one. Domination always "
                             "holds its own Election (the option is accepted and ignored); Solo has none (true "
                             "is refused, LC-11.14).",
              .type = OptionType::kBoolean,
              .default_json = "false",
              .invalid = "election must be true or false."},
     .store = store_boolean<&TableOptions::election>},
    {.spec = {.name = "challenge",
              .title = "First Challenge",
              .description = "Testing: the first round's Challenge, by engine name, from the set of the "
                             "player count (LC-7.0). In sticky it skips the first choice; in classic the first "
                             "round plays it too. In Solo one of the six Solo Challenges, and only with "
                             "challenges true.",
              .type = OptionType::kChoice,
              .choices_for = challenges_named_for,
              .testing = true},
     .store = [](const Value& value, TableOptions& o, int players) -> std::optional<Error> {
       if (!value.is_string()) return bad_option("challenge must be a challenge name.");
       const int c = parse_challenge(value.as_string());
       if (c == kNoChallenge) return bad_option("There is no challenge called '" + value.as_string() + "'.");
       // LC-7.0 only the challenges of the player count.
       if (!(challenges_for(players) & (1u << c)))
         return bad_option("The " + value.as_string() + " challenge is not used with " +
                           std::to_string(players) + " players.");
       o.challenge = c;
       return std::nullopt;
     }},
    {.spec = {.name = "rounds",
              .title = "Rounds",
              .description = "Testing: end the game after this many rounds (a tie then lists both sides as "
                             "winners). Table game 1 to 100000, Domination 1 to 1000, Solo 1 to 6 (default 6).",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 100000,
              .testing = true,
              .invalid = "rounds must be a positive whole number."},
     .store = store_integer<&TableOptions::rounds>},
    {.spec = {.name = "dealer",
              .title = "First dealer",
              .description = "Testing: the first dealer's seat, 0 to players - 1 (LC-3.2); drawn from the "
                             "seed when absent. Refused in Solo.",
              .type = OptionType::kInteger,
              .min = 0,
              .max = kDealerMax,
              .max_seat = true,
              .testing = true,
              .invalid = "dealer must be a seat number."},
     .store = store_integer<&TableOptions::dealer>},
    {.spec = {.name = "deck",
              .title = "Stacked deck",
              .description = kDeckDescription,
              .type = OptionType::kCards,
              .min = kDeckSize,
              .max = kDeckSize,
              .testing = true},
     .store = [](const Value& value, TableOptions& o, int) -> std::optional<Error> {
       if (!value.is_array() || value.size() != kDeckSize) return bad_option("deck must list all 37 card ids.");
       CardSet seen;
       int i = 0;
       for (const Value& item : value.as_array()) {
         std::optional<int> card;
         if (item.is_string()) card = parse_card(item.as_string());
         if (!card || seen.has(*card)) return bad_option("deck must list each of the 37 card ids once.");
         seen.add(*card);
         o.deck[i++] = static_cast<std::int8_t>(*card);
       }
       o.has_deck = true;
       return std::nullopt;
     }},
};

// ---- Domination (LC-9) ------------------------------------------------------------

constexpr Option<DominationSetup> kDominationOptions[] = {
    {.spec = {.name = "format", .type = OptionType::kOther},
     .store = [](const Value& v, DominationSetup&, int) -> std::optional<Error> {
       if (!v.is_string() || v.as_string() != "domination")
         return bad_option("This mode is created with format 'domination'.");
       return std::nullopt;
     }},
    {.spec = {.name = "target",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 1000,
              .invalid = "Option 'target' must be a whole number from 1 to 1000."},
     .store = store_integer<&DominationSetup::target>},
    // LC-9.2 Domination always holds its own Election: the option is ignored.
    {.spec = {.name = "election", .type = OptionType::kBoolean, .invalid = "Option 'election' must be true or false."},
     .store = ignore<DominationSetup>},
    {.spec = {.name = "deck", .type = OptionType::kCards, .min = kDeckSize, .max = kDeckSize, .testing = true},
     .store = store_deck<DominationSetup>},
    {.spec = {.name = "dealer",
              .type = OptionType::kInteger,
              .min = 0,
              .max = 1,
              .testing = true,
              .invalid = "Option 'dealer' must be a whole number from 0 to 1."},
     .store = store_integer<&DominationSetup::dealer>},
    {.spec = {.name = "rounds",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 1000,
              .testing = true,
              .invalid = "Option 'rounds' must be a whole number from 1 to 1000."},
     .store = store_integer<&DominationSetup::rounds>},
};

// ---- Solo (LC-8) --------------------------------------------------------------------

constexpr Option<SoloSetup> kSoloOptions[] = {
    {.spec = {.name = "format", .type = OptionType::kOther},
     .store = [](const Value& v, SoloSetup&, int) -> std::optional<Error> {
       if (!v.is_string() || v.as_string() != "solo")
         return bad_option("La Casa for one player is played in format 'solo'.");
       return std::nullopt;
     }},
    {.spec = {.name = "challenges",
              .title = "Solo Challenges",
              .description = "Solo only. true: one round of each Solo Challenge, in an order drawn from the "
                             "seed (LC-8.3); false: no Challenges, 11 tricks score 1.",
              .type = OptionType::kBoolean,
              .default_json = "true",
              .invalid = "Option 'challenges' must be true or false."},
     .store = store_boolean<&SoloSetup::challenges>},
    // LC-8.3 The Solo goal is fixed (4 points in 6 rounds); a table target is ignored.
    {.spec = {.name = "target",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 1000,
              .invalid = "Option 'target' must be a whole number from 1 to 1000."},
     .store = ignore<SoloSetup>},
    {.spec = {.name = "election",
              .type = OptionType::kBoolean,
              .invalid = "Option 'election' must be true or false.",
              .schema_json = R"({"const": false})"},
     .store = [](const Value& v, SoloSetup&, int) -> std::optional<Error> {
       if (v.as_bool()) return bad_option("LC-11.14: there is no Election in La Casa Solo.");
       return std::nullopt;
     }},
    {.spec = {.name = "deck", .type = OptionType::kCards, .min = kDeckSize, .max = kDeckSize, .testing = true},
     .store = store_deck<SoloSetup>},
    {.spec = {.name = "challenge", .type = OptionType::kChoice, .choices_for = solo_challenges_named, .testing = true},
     .store = [](const Value& v, SoloSetup& s, int) -> std::optional<Error> {
       const int c = v.is_string() ? parse_challenge(v.as_string()) : kNoChallenge;
       if (c == kNoChallenge || !challenge(c).solo) {
         return bad_option("Option 'challenge' must be one of betrayal, capitano, carita, cousins, "
                           "minions, revenge.");
       }
       s.first_challenge = c;
       return std::nullopt;
     }},
    {.spec = {.name = "rounds",
              .type = OptionType::kInteger,
              .min = 1,
              .max = kSoloChallenges,
              .testing = true,
              .invalid = "Option 'rounds' must be a whole number from 1 to 6."},
     .store = store_integer<&SoloSetup::rounds>},
};

}  // namespace

std::optional<Error> read_table_options(int players, const Value& options, TableOptions& out) {
  out.players = players;
  return read_options<TableOptions>(kTableOptions, "Unknown option '{}'.", players, options, out);
}

std::optional<Error> read_domination_options(const Value& options, DominationSetup& out) {
  return read_options<DominationSetup>(kDominationOptions, "La Casa Domination has no option '{}'.", 2, options,
                                       out);
}

std::optional<Error> read_solo_options(const Value& options, SoloSetup& out) {
  if (auto err = read_options<SoloSetup>(kSoloOptions, "La Casa Solo has no option '{}'.", 1, options, out)) {
    return err;
  }
  if (out.first_challenge && !out.challenges) return bad_option("Option 'challenge' needs 'challenges' to be true.");
  return std::nullopt;
}

GameInfo game_info() {
  return GameInfo{
      .name = "la-casa",
      .title = "La Casa",
      .description = "A trick-taking game for the four crime families of the Casa, with a Mangia-Cake, 37 "
                     "cards and 16 Challenges. Four players play as partners, two play head to head (with "
                     "tableau stacks), one plays Solo against the Robot.",
      .teams = "4 players: partners, seats 0+2 against 1+3. 2 players: one side each. 1 player: Solo, the "
               "human against the engine's Robot.",
      .players = {1, 2, 4},
      .create = create,
      .rule_bot = rule_bot_action,
      .option_modes = {OptionMode{{"challenges", "classic", "sticky"}, specs_of<TableOptions>(kTableOptions)},
                       OptionMode{{"domination"}, specs_of<DominationSetup>(kDominationOptions)},
                       OptionMode{{"solo"}, specs_of<SoloSetup>(kSoloOptions)}},
  };
}

}  // namespace casa::la_casa
