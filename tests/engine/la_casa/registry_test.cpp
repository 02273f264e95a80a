// SPDX-License-Identifier: AGPL-3.0-or-later
// The Challenge registry (engine/games/la_casa/challenges/): every Challenge card
// of LC-7 is registered once, under its id and name, and the table game and Solo
// both take their Challenges from it (LC-7.0, LC-8.3).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/solo_game.h"

namespace lc = casa::la_casa;
using casa::Value;

TEST_CASE("every Challenge id is registered exactly once, under its own name") {
  const auto& all = lc::all_challenges();
  std::set<std::string> names;
  for (int id = 0; id < lc::kChallengeCount; ++id) {
    const lc::Challenge* c = all[static_cast<std::size_t>(id)];
    REQUIRE(c != nullptr);
    CHECK(c->id == id);
    CHECK(&lc::challenge(id) == c);
    CHECK(lc::parse_challenge(c->name) == id);
    CHECK(lc::challenge_name(id) == c->name);
    names.insert(std::string(c->name));
  }
  CHECK(names.size() == static_cast<std::size_t>(lc::kChallengeCount));
  CHECK(lc::challenge(lc::kNoChallenge).name == "none");
  CHECK(lc::parse_challenge("none") == lc::kNoChallenge);
}

TEST_CASE("LC-7.0 / LC-8.3: which Challenges each player count plays") {
  // Four players: all but Mangia-Cake.
  CHECK(lc::challenges_for(4) ==
        (((1u << lc::kChallengeCount) - 1) & ~(1u << lc::kMangiaCakeChallenge)));
  CHECK(lc::challenges_for(2) ==
        ((1u << lc::kAnarchy) | (1u << lc::kBandits) | (1u << lc::kBetrayal) |
         (1u << lc::kCapitano) | (1u << lc::kCarita) | (1u << lc::kCousins) | (1u << lc::kFigura) |
         (1u << lc::kMangiaCakeChallenge) | (1u << lc::kMinions) | (1u << lc::kRevenge)));
  CHECK(lc::solo_challenges() ==
        ((1u << lc::kBetrayal) | (1u << lc::kCapitano) | (1u << lc::kCarita) |
         (1u << lc::kCousins) | (1u << lc::kMinions) | (1u << lc::kRevenge)));
  CHECK(std::popcount(lc::solo_challenges()) == lc::kSoloChallenges);
}

TEST_CASE("the table game and Solo accept exactly the registry's Challenges") {
  for (const lc::Challenge* c : lc::all_challenges()) {
    CAPTURE(c->name);
    for (int players : {2, 4}) {
      const auto r = casa::create_game("la-casa", players, Value::obj({{"challenge", c->name}}), 7);
      CHECK((r.game != nullptr) == (players == 4 ? c->four_players : c->two_players));
    }
    const auto solo = casa::create_game(
        "la-casa", 1, Value::obj({{"format", "solo"}, {"challenge", c->name}}), 7);
    CHECK((solo.game != nullptr) == c->solo);
    if (solo.game) {
      const Value view = solo.game->view(0);
      CHECK(view.get_string("challenge", "") == c->name);
    }
  }
}

TEST_CASE("a Solo game plays each registered Solo Challenge once") {
  const auto r = casa::create_game("la-casa", 1, Value::obj({{"format", "solo"}}), 11);
  REQUIRE(r.game);
  const Value state = r.game->full_state();
  const Value* order = state.find("order");
  REQUIRE(order);
  std::set<std::string> played;
  for (const Value& name : order->as_array()) played.insert(name.as_string());
  std::set<std::string> registered;
  for (const lc::Challenge* c : lc::all_challenges())
    if (c->solo) registered.insert(std::string(c->name));
  CHECK(played == registered);
}
