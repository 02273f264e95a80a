// SPDX-License-Identifier: AGPL-3.0-or-later
// Large property runs of Conference (two hands a game) for each option
// combination of its engine property test: every message scanned for hidden cards
// (CO-11.1, CO-11.2) and every card in exactly one place after every action.
#include <doctest/doctest.h>

#include "tests/engine/conference/invariants.h"
#include "tests/properties/runner.h"

using casa::Value;
using casa::property_runs::make_run;
using casa::property_runs::play;

namespace {

void conference_run(Value options, std::uint64_t seed) {
  options.set("hands", 2);
  auto run =
      make_run("conference", 4, std::move(options), seed, conference_test::check_conservation);
  // A hand is 78 plays and each view lists its tricks so far: views are scanned
  // after every 6th action (see runner.h); events and legal lists after every
  // action.
  run.opts.view_every = 6;
  play(std::move(run));
}

}  // namespace

TEST_CASE("CO-11.2 CO-10 properties: plain game (good_evil off)") {
  conference_run(Value::object(), 301);
}
TEST_CASE("CO-11.2 CO-10 properties: Good & Evil as trumps") {
  conference_run(Value::obj({{"good_evil", "trumps"}}), 302);
}
TEST_CASE("CO-11.2 CO-10 properties: Allegiance") {
  conference_run(Value::obj({{"good_evil", "allegiance"}}), 303);
}
TEST_CASE("CO-11.1 CO-11.2 properties: Attack & Defence with Gallowglass") {
  conference_run(Value::obj({{"attack_defence", true}, {"gallowglass", true}}), 304);
}
TEST_CASE("CO-11.1 CO-11.2 properties: Allegiance, Attack & Defence and Gallowglass") {
  conference_run(
      Value::obj({{"good_evil", "allegiance"}, {"attack_defence", true}, {"gallowglass", true}}),
      305);
}
TEST_CASE("CO-11.2 CO-10 properties: Good & Evil as trumps with Gallowglass") {
  conference_run(Value::obj({{"good_evil", "trumps"}, {"gallowglass", true}}), 306);
}
