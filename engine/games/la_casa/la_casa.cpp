// SPDX-License-Identifier: AGPL-3.0-or-later
// la_casa::create: reads the table options and builds the right La Casa game.
//
// Options (defaults in brackets):
//   format    "challenges" | "classic" | "sticky" (four players) | "domination"
//             (two players) | "solo"                                ["challenges"]
//   target    points to win (LC-5.4)                               [12]
//   election  the Election variant (LC-6)                          [false]
// Testing options:
//   deck      37 card ids: the first round's shuffled deck, dealt per LC-4.8
//   dealer    the first dealer's seat                              [drawn from the seed]
//   challenge the first round's challenge, by name (LC-7.0 set for the player count)
//   rounds    end the game after this many rounds                  [no limit]
#include "engine/games/la_casa/la_casa.h"

#include <string>

#include "engine/games/la_casa/domination.h"
#include "engine/games/la_casa/solo.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

namespace {

Error bad(std::string why) { return Error{"bad_option", std::move(why)}; }

std::optional<Error> parse_table_options(int players, const Value& options, TableOptions& o) {
  o.players = players;
  for (const auto& [key, value] : options.as_object()) {
    if (key == "format") {
      if (!value.is_string()) return bad("format must be a string.");
      const std::string& f = value.as_string();
      if (f == "classic") {
        o.format = Format::kClassic;
      } else if (f == "challenges") {
        o.format = Format::kChallenges;
      } else if (f == "sticky") {
        if (players != 4) return bad("The sticky format is for four players.");
        o.format = Format::kSticky;
      } else {
        return bad("format must be classic, challenges, sticky, domination or solo.");
      }
    } else if (key == "target") {
      if (!value.is_int() || value.as_int() < 1 || value.as_int() > 1000)
        return bad("target must be a whole number from 1 to 1000.");
      o.target = static_cast<int>(value.as_int());
    } else if (key == "election") {
      if (!value.is_bool()) return bad("election must be true or false.");
      o.election = value.as_bool();
    } else if (key == "rounds") {
      if (!value.is_int() || value.as_int() < 1 || value.as_int() > 100000)
        return bad("rounds must be a positive whole number.");
      o.rounds = static_cast<int>(value.as_int());
    } else if (key == "dealer") {
      if (!value.is_int() || value.as_int() < 0 || value.as_int() >= players)
        return bad("dealer must be a seat number.");
      o.dealer = static_cast<int>(value.as_int());
    } else if (key == "challenge") {
      if (!value.is_string()) return bad("challenge must be a challenge name.");
      const int c = parse_challenge(value.as_string());
      if (c == kNoChallenge) return bad("There is no challenge called '" + value.as_string() + "'.");
      // LC-7.0 only the challenges of the player count.
      if (!(challenges_for(players) & (1u << c)))
        return bad("The " + value.as_string() + " challenge is not used with " +
                   std::to_string(players) + " players.");
      o.challenge = c;
    } else if (key == "deck") {
      if (!value.is_array() || value.size() != kDeckSize)
        return bad("deck must list all 37 card ids.");
      CardSet seen;
      int i = 0;
      for (const Value& item : value.as_array()) {
        std::optional<int> card;
        if (item.is_string()) card = parse_card(item.as_string());
        if (!card || seen.has(*card)) return bad("deck must list each of the 37 card ids once.");
        seen.add(*card);
        o.deck[i++] = static_cast<std::int8_t>(*card);
      }
      o.has_deck = true;
    } else {
      return bad("Unknown option '" + key + "'.");
    }
  }
  return std::nullopt;
}

}  // namespace

CreateResult create(int players, const Value& options, std::uint64_t seed) {
  if (!options.is_object()) return {nullptr, bad("Options must be an object.")};
  const std::string format = options.get_string("format", "challenges");
  if (players == 1 || format == "solo") return create_solo(players, options, seed);
  if (format == "domination") {
    if (players != 2) return {nullptr, Error{"bad_players", "Domination is for two players."}};
    return create_domination(players, options, seed);
  }
  if (players != 2 && players != 4)
    return {nullptr, Error{"bad_players", "La Casa is played by 1, 2 or 4 players."}};
  TableOptions o;
  if (auto err = parse_table_options(players, options, o)) return {nullptr, *err};
  return {std::make_unique<LaCasaGame>(o, seed), std::nullopt};
}

}  // namespace casa::la_casa
