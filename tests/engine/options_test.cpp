// SPDX-License-Identifier: AGPL-3.0-or-later
// Every game's options as its declaration reads them (engine/options.h): valid
// values create the game; each kind of bad value (wrong type, out of range, not
// a choice, unknown name, a rule of the game's own) is refused with bad_option
// and the game's own sentence.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.h"
#include "engine/games/casino/cards.h"
#include "engine/games/la_casa/cards.h"
#include "engine/registry.h"
#include "protocol/value_json.h"

using nlohmann::json;

namespace {

struct Refusal {
  const char* game;
  int players;
  json options;
  const char* message;
};

casa::CreateResult make(const std::string& game, int players, const json& options) {
  return casa::create_game(game, players, casa::from_json(options), 3);
}

json la_casa_deck() {
  json d = json::array();
  for (int c = 0; c < casa::la_casa::kDeckSize; ++c) d.push_back(casa::la_casa::card_id(c));
  return d;
}

json casino_deck() {
  json d = json::array();
  for (int c = 0; c < casa::casino::kDeckSize; ++c) d.push_back(std::string(casa::casino::card_id(c)));
  return d;
}

}  // namespace

TEST_CASE("valid options create each game") {
  const std::vector<std::tuple<const char*, int, json>> valid = {
      {"casino", 4, {{"target", 11}, {"partners", true}, {"sweeps", true}, {"questions", "default"}, {"dealer", 3}, {"rounds", 2}}},
      {"casino", 2, {{"partners", false}, {"questions", nullptr}, {"deck", casino_deck()}}},
      {"conference", 4, {{"good_evil", "allegiance"}, {"attack_defence", "on"}, {"gallowglass", true}, {"hands", 2}, {"dealer", 1}}},
      {"trophy-case", 5, {{"target", 10}, {"rounds", 3}, {"dealer", 4}}},
      {"la-casa", 4, {{"format", "sticky"}, {"target", 5}, {"election", true}, {"challenge", "bruto"}, {"rounds", 2}, {"dealer", 3}, {"deck", la_casa_deck()}}},
      {"la-casa", 2, {{"format", "domination"}, {"target", 5}, {"election", true}, {"dealer", 1}, {"rounds", 1000}, {"deck", la_casa_deck()}}},
      {"la-casa", 1, {{"format", "solo"}, {"challenges", true}, {"challenge", "revenge"}, {"rounds", 6}, {"target", 3}, {"election", false}}},
      {"la-casa", 1, json::object()},
      {"casino", 3, nullptr},
  };
  for (const auto& [game, players, options] : valid) {
    CAPTURE(game);
    CAPTURE(options.dump());
    const auto r = make(game, players, options);
    CHECK_MESSAGE(r.game, (r.error ? r.error->message : ""));
  }
}

TEST_CASE("each kind of bad option is refused with the game's own sentence") {
  json short_deck = la_casa_deck();
  short_deck.erase(short_deck.size() - 1);
  json twice = la_casa_deck();
  twice[1] = twice[0];
  const std::vector<Refusal> refusals = {
      // Not an object at all.
      {"casino", 2, json::array(), "Options must be an object."},
      {"la-casa", 4, 5, "Options must be an object."},
      // Casino
      {"casino", 2, {{"target", 0}}, "target must be a positive integer."},
      {"casino", 2, {{"target", "21"}}, "target must be a positive integer."},
      {"casino", 2, {{"partners", 1}}, "partners must be true or false."},
      {"casino", 2, {{"partners", true}}, "partners needs exactly 4 players (CA-2.1)."},
      {"casino", 2, {{"sweeps", "yes"}}, "sweeps must be true or false."},
      {"casino", 2, {{"questions", 3}}, "questions must be false, \"off\", \"default\" or an object of 52 texts."},
      {"casino", 2, {{"questions", {{"ZZ", "?"}}}}, "questions: 'ZZ' is not a card id."},
      {"casino", 2, {{"questions", {{"TD", ""}}}}, "questions: the text for TD must be a non-empty string."},
      {"casino", 2, {{"questions", {{"TD", "Why?"}}}}, "questions must give a text for each of the 52 cards."},
      {"casino", 2, {{"deck", json::array()}}, "deck must list all 52 card ids."},
      {"casino", 3, {{"dealer", 3}}, "dealer must be a seat of this table."},
      {"casino", 2, {{"rounds", 0}}, "rounds must be a positive integer."},
      {"casino", 2, {{"hands", 1}}, "Casino has no option 'hands'."},
      // Conference
      {"conference", 4, {{"good_evil", "both"}}, "good_evil is \"off\", \"trumps\" or \"allegiance\"."},
      {"conference", 4, {{"good_evil", true}}, "good_evil is \"off\", \"trumps\" or \"allegiance\"."},
      {"conference", 4, {{"attack_defence", "yes"}}, "attack_defence is true or false."},
      {"conference", 4, {{"gallowglass", 1}}, "gallowglass is true or false."},
      {"conference", 4, {{"hands", 1001}}, "hands is a whole number from 1 to 1000."},
      {"conference", 4, {{"dealer", 4}}, "dealer is a seat from 0 to 3."},
      {"conference", 4, {{"deck", json::array()}}, "deck lists all 78 cards."},
      {"conference", 4, {{"deck", json::array()}, {"good_evil", "trumps"}}, "deck lists all 80 cards."},
      {"conference", 4, {{"rounds", 1}}, "Conference has no option 'rounds'."},
      // Trophy Case
      {"trophy-case", 3, {{"target", 10001}}, "\"target\" must be a whole number from 1 to 10000."},
      {"trophy-case", 3, {{"hands", 0}}, "\"hands\" must be a whole number of at least 1."},
      {"trophy-case", 3, {{"rounds", "2"}}, "\"rounds\" must be a whole number of at least 1."},
      {"trophy-case", 3, {{"hands", 2}, {"rounds", 2}}, "Give \"hands\" or \"rounds\", not both."},
      {"trophy-case", 3, {{"dealer", 3}}, "\"dealer\" must be a seat number."},
      {"trophy-case", 3, {{"deck", {"X"}}}, "\"deck\" must list all 174 card ids."},
      {"trophy-case", 3, {{"partners", true}}, "Trophy Case has no option \"partners\"."},
      // La Casa, the table game
      {"la-casa", 4, {{"format", 4}}, "format must be a string."},
      {"la-casa", 4, {{"format", "poker"}}, "format must be classic, challenges, sticky, domination or solo."},
      {"la-casa", 2, {{"format", "sticky"}}, "The sticky format is for four players."},
      {"la-casa", 4, {{"target", 1001}}, "target must be a whole number from 1 to 1000."},
      {"la-casa", 4, {{"election", "no"}}, "election must be true or false."},
      {"la-casa", 4, {{"rounds", 0}}, "rounds must be a positive whole number."},
      {"la-casa", 2, {{"dealer", 2}}, "dealer must be a seat number."},
      {"la-casa", 4, {{"challenge", 1}}, "challenge must be a challenge name."},
      {"la-casa", 4, {{"challenge", "poker"}}, "There is no challenge called 'poker'."},
      {"la-casa", 4, {{"challenge", "mangia_cake"}}, "The mangia_cake challenge is not used with 4 players."},
      {"la-casa", 4, {{"deck", short_deck}}, "deck must list all 37 card ids."},
      {"la-casa", 4, {{"deck", twice}}, "deck must list each of the 37 card ids once."},
      {"la-casa", 4, {{"challenges", true}}, "Unknown option 'challenges'."},
      // La Casa Domination
      {"la-casa", 2, {{"format", "domination"}, {"target", 0}}, "Option 'target' must be a whole number from 1 to 1000."},
      {"la-casa", 2, {{"format", "domination"}, {"election", 1}}, "Option 'election' must be true or false."},
      {"la-casa", 2, {{"format", "domination"}, {"dealer", 2}}, "Option 'dealer' must be a whole number from 0 to 1."},
      {"la-casa", 2, {{"format", "domination"}, {"rounds", 1001}}, "Option 'rounds' must be a whole number from 1 to 1000."},
      {"la-casa", 2, {{"format", "domination"}, {"deck", short_deck}}, "Option 'deck' must list all 37 card ids."},
      {"la-casa", 2, {{"format", "domination"}, {"deck", twice}}, "Option 'deck' lists G1 twice."},
      {"la-casa", 2, {{"format", "domination"}, {"challenge", "figura"}}, "La Casa Domination has no option 'challenge'."},
      // La Casa Solo
      {"la-casa", 1, {{"format", "classic"}}, "La Casa for one player is played in format 'solo'."},
      {"la-casa", 1, {{"challenges", "yes"}}, "Option 'challenges' must be true or false."},
      {"la-casa", 1, {{"election", true}}, "LC-11.14: there is no Election in La Casa Solo."},
      {"la-casa", 1, {{"challenge", "bruto"}}, "Option 'challenge' must be one of betrayal, capitano, carita, cousins, minions, revenge."},
      {"la-casa", 1, {{"challenge", "revenge"}, {"challenges", false}}, "Option 'challenge' needs 'challenges' to be true."},
      {"la-casa", 1, {{"rounds", 7}}, "Option 'rounds' must be a whole number from 1 to 6."},
      {"la-casa", 1, {{"target", 0}}, "Option 'target' must be a whole number from 1 to 1000."},
      {"la-casa", 1, {{"deck", {1}}}, "Option 'deck' must list all 37 card ids."},
      {"la-casa", 1, {{"dealer", 0}}, "La Casa Solo has no option 'dealer'."},
  };
  for (const Refusal& r : refusals) {
    CAPTURE(r.game);
    CAPTURE(r.options.dump().substr(0, 80));
    const auto created = make(r.game, r.players, r.options);
    CHECK_FALSE(created.game);
    REQUIRE(created.error);
    CHECK(created.error->code == "bad_option");
    CHECK(created.error->message == r.message);
  }
}

TEST_CASE("the options only test servers accept are those each declaration marks") {
  using V = std::vector<std::string>;
  CHECK(casa::testing_options("casino") == V{"dealer", "rounds", "deck"});
  CHECK(casa::testing_options("conference") == V{"dealer", "deck"});
  CHECK(casa::testing_options("trophy-case") == V{"hands", "rounds", "dealer", "deck"});
  CHECK(casa::testing_options("la-casa") == V{"challenge", "rounds", "dealer", "deck"});
  CHECK(casa::testing_options("no-such-game").empty());
}

TEST_CASE("the registry lists each game once, with what create() accepts") {
  std::vector<std::string> names;
  for (const casa::GameInfo& g : casa::all_games()) {
    CAPTURE(g.name);
    names.emplace_back(g.name);
    REQUIRE(static_cast<bool>(g.create));
    CHECK(static_cast<bool>(g.rule_bot));
    CHECK(casa::find_game(g.name) == &g);
    for (int players = 0; players <= casa::kMaxSeats; ++players) {
      const bool listed = std::find(g.players.begin(), g.players.end(), players) != g.players.end();
      CHECK(static_cast<bool>(casa::create_game(g.name, players, casa::Value::object(), 1).game) == listed);
    }
  }
  CHECK(names == casa::game_names());
  CHECK(names == std::vector<std::string>{"la-casa", "casino", "conference", "trophy-case"});
  CHECK(casa::create_game("go", 2, casa::Value::object(), 1).error->code == "unknown_game");
}
