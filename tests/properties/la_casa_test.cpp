// SPDX-License-Identifier: AGPL-3.0-or-later
// Large property runs of La Casa: the table game for two and four players in
// every format with the Election off and on, Solo and Domination. Each run scans
// every message for hidden cards (LC-10.1, LC-10.2, LC-4.4) and checks that the
// 37 cards are conserved after every action.
#include <doctest/doctest.h>

#include "tests/engine/la_casa/table_support.h"
#include "tests/engine/la_casa_modes/modes_support.h"
#include "tests/properties/runner.h"

using casa::Game;
using casa::Value;
using casa::property_runs::make_run;
using casa::property_runs::play;

namespace {

// Target 3: short games of a few rounds each, so that a thousand games cover many
// deals, challenges and Elections rather than a few long games.
// Games run 100-160 actions: views are scanned after every 3rd action (see
// runner.h); events and legal lists after every action.
void table_run(int players, const char* format, bool election, std::uint64_t seed) {
  auto run = make_run("la-casa", players,
                      Value::obj({{"format", format}, {"election", election}, {"target", 3}}), seed,
                      casa::la_casa::testing::check_table_invariants);
  run.opts.view_every = 3;
  play(std::move(run));
}

void solo_conservation(const Game&, const Value& state) {
  casa::la_casa::modes_test::check_conservation(state, casa::la_casa::modes_test::kSoloPlaces);
}

void domination_conservation(const Game&, const Value& state) {
  casa::la_casa::modes_test::check_conservation(state,
                                                casa::la_casa::modes_test::kDominationPlaces);
}

}  // namespace

TEST_CASE("LC-10 LC-4.4 properties: two players, classic, no Election") {
  table_run(2, "classic", false, 101);
}
TEST_CASE("LC-10 LC-6 properties: two players, classic, Election") {
  table_run(2, "classic", true, 102);
}
TEST_CASE("LC-10 LC-7 properties: two players, challenges, no Election") {
  table_run(2, "challenges", false, 103);
}
TEST_CASE("LC-10 LC-7 LC-6 properties: two players, challenges, Election") {
  table_run(2, "challenges", true, 104);
}
TEST_CASE("LC-10 properties: four players, classic, no Election") {
  table_run(4, "classic", false, 105);
}
TEST_CASE("LC-10 LC-6 properties: four players, classic, Election") {
  table_run(4, "classic", true, 106);
}
TEST_CASE("LC-10 LC-7 properties: four players, challenges, no Election") {
  table_run(4, "challenges", false, 107);
}
TEST_CASE("LC-10 LC-7 LC-6 properties: four players, challenges, Election") {
  table_run(4, "challenges", true, 108);
}
TEST_CASE("LC-10 LC-5.4 properties: four players, sticky, no Election") {
  table_run(4, "sticky", false, 109);
}
TEST_CASE("LC-10 LC-5.4 LC-6 properties: four players, sticky, Election") {
  table_run(4, "sticky", true, 110);
}

// Solo is cheap (one seat, no view but the human's and the spectators'): twice the
// games.
TEST_CASE("LC-10 LC-8 properties: Solo with its challenges") {
  auto run = make_run("la-casa", 1, Value::obj({{"format", "solo"}, {"challenges", true}}), 111,
                      solo_conservation);
  run.scale = 2;
  play(std::move(run));
}
TEST_CASE("LC-10 LC-8 properties: Solo without challenges") {
  auto run = make_run("la-casa", 1, Value::obj({{"format", "solo"}, {"challenges", false}}), 112,
                      solo_conservation);
  run.scale = 2;
  play(std::move(run));
}

TEST_CASE("LC-10 LC-9 properties: Domination to 4 points") {
  play(make_run("la-casa", 2, Value::obj({{"format", "domination"}, {"target", 4}}), 113,
                domination_conservation));
}
// Full games run about 600 actions: views are scanned after every 3rd action (see
// runner.h); events and legal lists after every action.
TEST_CASE("LC-10 LC-9 LC-5.5 properties: Domination, full games to 12") {
  auto run =
      make_run("la-casa", 2, Value::obj({{"format", "domination"}}), 114, domination_conservation);
  run.opts.view_every = 3;
  play(std::move(run));
}
