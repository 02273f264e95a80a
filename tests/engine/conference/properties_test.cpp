// SPDX-License-Identifier: AGPL-3.0-or-later
// Random games through the public interface for each option set (see
// tests/engine/support/properties.h), with card conservation checked after
// every action: every card of the deck is in exactly one place.
#include <doctest/doctest.h>

#include "tests/engine/conference/helpers.h"
#include "tests/engine/conference/invariants.h"
#include "tests/engine/support/properties.h"

using namespace conference_test;

namespace {

void run(Value options, int games, std::uint64_t seed) {
  casa::testing::PropertyOptions p;
  p.game = "conference";
  p.players = 4;
  options.set("hands", 2);
  p.options = options;
  p.games = games;
  p.seed = seed;
  p.state_invariant = check_conservation;
  p.determinize_every = 23;
  const long actions = casa::testing::check_random_games(p);
  CHECK(actions >= games * 2 * 78);
}

}  // namespace

TEST_CASE("CO-10 properties: plain game (good_evil off)") {
  run(Value::object(), 12, 1);
}

TEST_CASE("CO-10 properties: Good & Evil as trumps") {
  run(Value::obj({{"good_evil", "trumps"}}), 12, 2);
}

TEST_CASE("CO-10 properties: Allegiance") {
  run(Value::obj({{"good_evil", "allegiance"}}), 20, 3);
}

TEST_CASE("CO-10 properties: Attack & Defence with Gallowglass") {
  run(Value::obj({{"attack_defence", true}, {"gallowglass", true}}), 12, 4);
}

TEST_CASE("CO-10 properties: Allegiance, Attack & Defence and Gallowglass together") {
  run(Value::obj({{"good_evil", "allegiance"}, {"attack_defence", true}, {"gallowglass", true}}),
      20, 5);
}

TEST_CASE("CO-10 properties: Good & Evil as trumps with Gallowglass") {
  run(Value::obj({{"good_evil", "trumps"}, {"gallowglass", true}}), 12, 6);
}
