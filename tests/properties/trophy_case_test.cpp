// SPDX-License-Identifier: AGPL-3.0-or-later
// Large property runs of Trophy Case for three, four and five players and the
// option sets of its engine property test: every message scanned for hidden cards
// (TC-8.1, TC-8.2) and the 174 cards conserved after every action (TC-2.2).
#include <doctest/doctest.h>

#include "tests/engine/trophy_case/table.h"
#include "tests/properties/runner.h"

using casa::Value;
using casa::property_runs::make_run;
using casa::property_runs::play;

namespace {

casa::property_runs::Run tc_run(int players, Value options, std::uint64_t seed) {
  return make_run(
      "trophy-case", players, std::move(options), seed,
      [](const casa::Game&, const Value& state) { tc_test::check_conservation(state); });
}

// Full-length games run 200-300 actions: views are scanned after every 6th action
// (see runner.h); events and legal lists after every action.
casa::property_runs::Run full_game_run(int players, std::uint64_t seed) {
  auto run = tc_run(players, Value::object(), seed);
  run.opts.view_every = 6;
  return run;
}

}  // namespace

TEST_CASE("TC-8.2 TC-2.2 properties: three players to 8 points") {
  play(tc_run(3, Value::obj({{"target", 8}}), 401));
}
TEST_CASE("TC-8.2 TC-2.2 properties: four players to 8 points") {
  play(tc_run(4, Value::obj({{"target", 8}}), 402));
}
TEST_CASE("TC-8.2 TC-2.2 properties: five players to 8 points") {
  play(tc_run(5, Value::obj({{"target", 8}}), 403));
}
TEST_CASE("TC-8.2 TC-A properties: three players, full games to 30") {
  play(full_game_run(3, 404));
}
TEST_CASE("TC-8.2 TC-A properties: four players, full games to 30") { play(full_game_run(4, 405)); }
TEST_CASE("TC-8.2 TC-A properties: five players, full games to 30") { play(full_game_run(5, 406)); }
TEST_CASE("TC-8.2 TC-A properties: four players, one hand") {
  play(tc_run(4, Value::obj({{"hands", 1}}), 407));
}
TEST_CASE("TC-8.2 TC-A properties: four players to 10 from a stacked first deck") {
  tc_test::Stack stack;
  stack.players = 4;
  stack.dealer = 1;
  auto run = tc_run(4, stack.options(Value::obj({{"target", 10}})), 408);
  run.label = R"({"target":10,"deck":"stacked","dealer":1})";
  play(std::move(run));
}
