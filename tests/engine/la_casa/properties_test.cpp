// SPDX-License-Identifier: AGPL-3.0-or-later
// Random-game property checks of the two- and four-player La Casa table game, for
// every format, with and without the Election, and for each challenge fixed.
#include <doctest/doctest.h>

#include <string>

#include "engine/games/la_casa/la_casa_game.h"
#include "tests/engine/la_casa/table_support.h"
#include "tests/engine/support/properties.h"

using casa::Game;
using casa::Value;
using casa::testing::PropertyOptions;

namespace {

void run(int players, Value options, int games, std::uint64_t seed = 1) {
  PropertyOptions p;
  p.game = "la-casa";
  p.players = players;
  p.options = std::move(options);
  p.games = games;
  p.seed = seed;
  p.state_invariant = casa::la_casa::testing::check_table_invariants;
  INFO("players ", players, " options ", p.options.debug_string());
  const long actions = casa::testing::check_random_games(p);
  CHECK(actions > games * 10);
}

Value opts(std::initializer_list<Value::Member> members) { return Value::obj(members); }

}  // namespace

TEST_CASE("LC properties: two players, every format, Election on and off") {
  for (bool election : {false, true}) {
    run(2, opts({{"format", "classic"}, {"election", election}, {"target", 3}}), 6);
    run(2, opts({{"format", "challenges"}, {"election", election}, {"target", 3}}), 8);
  }
}

TEST_CASE("LC properties: four players, every format, Election on and off") {
  for (bool election : {false, true}) {
    run(4, opts({{"format", "classic"}, {"election", election}, {"target", 3}}), 6);
    run(4, opts({{"format", "challenges"}, {"election", election}, {"target", 3}}), 8);
    run(4, opts({{"format", "sticky"}, {"election", election}, {"target", 3}}), 8);
  }
}

TEST_CASE("LC properties: each challenge fixed for one round") {
  for (int players : {2, 4}) {
    const std::uint32_t set = casa::la_casa::challenges_for(players);
    for (int c = 0; c < casa::la_casa::kChallengeCount; ++c) {
      if (!(set & (1u << c))) continue;
      for (bool election : {false, true}) {
        run(players,
            opts({{"challenge", casa::la_casa::challenge_name(c)}, {"rounds", 1},
                  {"election", election}}),
            12, static_cast<std::uint64_t>(c + 7));
      }
    }
  }
}
