// SPDX-License-Identifier: AGPL-3.0-or-later
// Random games through the public interface (tests/engine/support/properties.h)
// for every player count and option, with Casino's own invariants.
#include <doctest/doctest.h>

#include "engine/bots.h"
#include "tests/engine/casino/invariants.h"
#include "tests/engine/casino/support.h"
#include "tests/engine/support/properties.h"

namespace {

using namespace casino_test;

casa::testing::PropertyOptions base(int players, const char* options, int games) {
  casa::testing::PropertyOptions o;
  o.game = "casino";
  o.players = players;
  o.options = J(options);
  o.games = games;
  o.state_invariant = casino_invariant;
  return o;
}

}  // namespace

TEST_CASE("CA-4.4 CA-1.1 random 2-player games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(2, "{}", 40)) > 0);
}

TEST_CASE("CA-4.4 CA-1.1 random 3-player games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(3, "{}", 30)) > 0);
}

TEST_CASE("CA-4.4 CA-1.1 random 4-player games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(4, "{}", 25)) > 0);
}

TEST_CASE("CA-2.1 random partner games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(4, R"({"partners":true})", 25)) > 0);
}

TEST_CASE("CA-7 random games with sweeps keep every invariant") {
  CHECK(casa::testing::check_random_games(base(2, R"({"sweeps":true})", 25)) > 0);
  CHECK(casa::testing::check_random_games(base(3, R"({"sweeps":true,"target":11})", 15)) > 0);
}

TEST_CASE("CA-6 random games with questions keep every invariant") {
  CHECK(casa::testing::check_random_games(base(3, R"({"questions":"default","target":11})", 15)) > 0);
  CHECK(casa::testing::check_random_games(
            base(4, R"({"questions":"default","partners":true,"sweeps":true,"target":11})", 10)) > 0);
}

TEST_CASE("CA-4.4 the robot finishes games against itself") {
  for (int players = 2; players <= 4; ++players) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      auto g = make(players, J(R"({"questions":"default","sweeps":true})"), seed);
      casa::Rng rng(seed);
      int steps = 0;
      while (!g->is_over()) {
        REQUIRE(++steps < 5000);
        const Seat seat = turn(*g);
        const Action a = casa::choose_bot_action(*g, seat, "robot", rng);
        REQUIRE_FALSE(g->apply(seat, a, nullptr));
      }
      CHECK_FALSE(g->winners().empty());
    }
  }
}
