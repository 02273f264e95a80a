// SPDX-License-Identifier: AGPL-3.0-or-later
// Random games of Trophy Case through the Game interface, with card conservation
// (every one of the 174 cards in exactly one place) checked after every action.
#include <doctest/doctest.h>

#include "tests/engine/support/properties.h"
#include "tests/engine/trophy_case/table.h"

using casa::Value;
using casa::testing::PropertyOptions;

namespace {

PropertyOptions base(int players, Value options, int games, std::uint64_t seed) {
  PropertyOptions p;
  p.game = "trophy-case";
  p.players = players;
  p.options = std::move(options);
  p.games = games;
  p.seed = seed;
  p.state_invariant = [](const casa::Game&, const Value& state) {
    tc_test::check_conservation(state);
  };
  return p;
}

// TC-A: when the target ends the game, one player has strictly the most points.
void check_single_winner(int players, int target, int games, std::uint64_t seed) {
  for (int g = 0; g < games; ++g) {
    auto created = casa::create_game("trophy-case", players,
                                     Value::obj({{"target", target}}), seed + g);
    REQUIRE(created.game);
    casa::Game& game = *created.game;
    casa::Rng rng(seed * 31 + g);
    std::vector<casa::Action> legal;
    while (!game.is_over()) {
      const casa::Seat s = __builtin_ctz(game.to_act());
      game.legal_actions(s, legal);
      REQUIRE(!game.apply(s, legal[rng.below(legal.size())], nullptr));
    }
    const auto w = game.winners();
    REQUIRE(w.size() == 1);
    const auto sc = game.scores();
    CHECK(sc[w[0]] >= target);
    for (int s = 0; s < players; ++s)
      if (s != w[0]) CHECK(sc[s] < sc[w[0]]);
  }
}

}  // namespace

TEST_CASE("TC-A TC-2.2 property: 3 players, low target, cards conserved") {
  CHECK(casa::testing::check_random_games(base(3, Value::obj({{"target", 8}}), 40, 11)) > 0);
}

TEST_CASE("TC-A TC-2.2 property: 4 players, low target, cards conserved") {
  CHECK(casa::testing::check_random_games(base(4, Value::obj({{"target", 8}}), 40, 12)) > 0);
}

TEST_CASE("TC-A TC-2.2 property: 5 players, low target, cards conserved") {
  CHECK(casa::testing::check_random_games(base(5, Value::obj({{"target", 8}}), 40, 13)) > 0);
}

TEST_CASE("TC-A property: full-length games to 30 for 3, 4 and 5 players") {
  for (int players = 3; players <= 5; ++players) {
    CAPTURE(players);
    CHECK(casa::testing::check_random_games(base(players, Value::object(), 4, 20 + players)) > 0);
  }
}

TEST_CASE("TC-A property: stop after one hand (ties allowed) and stacked first deck") {
  tc_test::Stack stack;
  stack.players = 4;
  stack.dealer = 1;
  CHECK(casa::testing::check_random_games(base(4, Value::obj({{"hands", 1}}), 40, 31)) > 0);
  CHECK(casa::testing::check_random_games(base(4, stack.options(Value::obj({{"target", 10}})),
                                               20, 32)) > 0);
}

TEST_CASE("TC-A the target ends the game with one winner holding strictly the most points") {
  check_single_winner(3, 12, 100, 41);
  check_single_winner(4, 30, 40, 42);
  check_single_winner(5, 20, 60, 43);
}

TEST_CASE("TC-A the robot finishes games and keeps cards conserved") {
  for (int players = 3; players <= 5; ++players) {
    for (int g = 0; g < 10; ++g) {
      auto created = casa::create_game("trophy-case", players, Value::object(), 500 + g);
      REQUIRE(created.game);
      casa::Game& game = *created.game;
      casa::Rng rng(g);
      int steps = 0;
      while (!game.is_over()) {
        REQUIRE(++steps < 100000);
        const casa::Seat s = __builtin_ctz(game.to_act());
        const casa::Action a = casa::trophy_case::rule_bot_action(game, s, rng);
        REQUIRE(!game.apply(s, a, nullptr));
      }
      tc_test::check_conservation(game);
      CHECK(game.winners().size() == 1);
    }
  }
}
