// SPDX-License-Identifier: AGPL-3.0-or-later
// Random games of Trophy Case through the Game interface, with card conservation
// (every one of the 174 cards in exactly one place) checked after every action.
#include <doctest/doctest.h>

#include "engine/games/trophy_case/trophy_case_game.h"
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

TEST_CASE("TC-3.2 TC-4.3 TC-4.4 TC-8.2 property: samples keep voids, sizes and what the seat sees") {
  // Random play folds and goes off colour often, so seats pile up voids; late in
  // a shuffle (five players) little room is left outside the hands. Every seat's
  // real hand holds none of its known voids, and every sample, by chance or by
  // the placement alone, keeps them, the counts, the seat's view, a suited card
  // for a leader yet to lead, and depends only on what the seat may see.
  namespace tc = casa::trophy_case;
  int samples = 0;
  for (int players = 3; players <= 5; ++players) {
    for (std::uint64_t g = 0; g < 6; ++g) {
      auto created = casa::create_game("trophy-case", players, Value::object(), 900 + g);
      REQUIRE(created.game);
      auto& game = dynamic_cast<tc::TrophyCaseGame&>(*created.game);
      casa::Rng rng(g * 7 + static_cast<std::uint64_t>(players));
      std::vector<casa::Action> legal;
      for (int step = 0; !game.is_over(); ++step) {
        REQUIRE(step < 100000);
        const casa::Seat s = __builtin_ctz(game.to_act());
        for (casa::Seat seat = 0; seat < players; ++seat) {
          for (int c : game.hand(seat)) {
            if (!tc::is_trump(c)) REQUIRE(!((game.void_suits(seat) >> tc::suit_of(c)) & 1u));
          }
        }
        if (step % 17 == 0) {
          const casa::Seat viewer = static_cast<casa::Seat>(step / 17 % players);
          const auto twin = game.determinize(viewer, 77 + static_cast<std::uint64_t>(step));
          for (int attempts : {64, 0}) {
            const auto sample = game.determinize_with(viewer, static_cast<std::uint64_t>(step), attempts);
            CHECK(sample->view(viewer) == game.view(viewer));
            tc_test::check_conservation(*sample);
            CHECK(sample->full_state() ==
                  dynamic_cast<const tc::TrophyCaseGame&>(*twin)
                      .determinize_with(viewer, static_cast<std::uint64_t>(step), attempts)
                      ->full_state());
            for (casa::Seat seat = 0; seat < players; ++seat) {
              CHECK(sample->hand(seat).size() == game.hand(seat).size());
              if (seat == viewer) CHECK(sample->hand(seat) == game.hand(seat));
              for (int c : sample->hand(seat)) {
                if (!tc::is_trump(c)) CHECK(!((game.void_suits(seat) >> tc::suit_of(c)) & 1u));
              }
            }
            if (game.trick().count == 0) {
              CHECK_FALSE((sample->hand(game.trick().leader) & tc::kSuitedSet).empty());
            }
            ++samples;
          }
        }
        game.legal_actions(s, legal);
        REQUIRE(!game.apply(s, legal[rng.below(static_cast<std::uint32_t>(legal.size()))], nullptr));
      }
    }
  }
  CHECK(samples > 500);
}
