// SPDX-License-Identifier: AGPL-3.0-or-later
// Large property runs of Casino for every player count and option set of its
// engine property test: every message scanned for hidden cards (CA-9.1, CA-9.2),
// the 52 cards conserved and the build rules kept (CA-1.1, CA-4.1, CA-4.4).
#include <doctest/doctest.h>

#include "tests/engine/casino/invariants.h"
#include "tests/properties/runner.h"

using casa::Value;
using casa::property_runs::make_run;
using casa::property_runs::play;

namespace {

// Games run 120-300 actions: views are scanned after every 3rd action (see
// runner.h); events and legal lists after every action.
void casino_run(int players, Value options, std::uint64_t seed) {
  auto run = make_run("casino", players, std::move(options), seed, casino_test::casino_invariant);
  run.opts.view_every = 3;
  play(std::move(run));
}

}  // namespace

TEST_CASE("CA-9.2 CA-1.1 properties: two players") { casino_run(2, Value::object(), 201); }
TEST_CASE("CA-9.2 CA-1.1 properties: three players") { casino_run(3, Value::object(), 202); }
TEST_CASE("CA-9.2 CA-1.1 properties: four players") { casino_run(4, Value::object(), 203); }
TEST_CASE("CA-9.2 CA-2.1 properties: four players as partners") {
  casino_run(4, Value::obj({{"partners", true}}), 204);
}
TEST_CASE("CA-9.2 CA-7 properties: two players with sweeps") {
  casino_run(2, Value::obj({{"sweeps", true}}), 205);
}
TEST_CASE("CA-9.2 CA-7 properties: three players with sweeps to 11") {
  casino_run(3, Value::obj({{"sweeps", true}, {"target", 11}}), 206);
}
TEST_CASE("CA-9.2 CA-6 properties: three players with questions to 11") {
  casino_run(3, Value::obj({{"questions", "default"}, {"target", 11}}), 207);
}
TEST_CASE("CA-9.2 CA-6 CA-2.1 CA-7 properties: partners with questions and sweeps to 11") {
  casino_run(
      4,
      Value::obj({{"questions", "default"}, {"partners", true}, {"sweeps", true}, {"target", 11}}),
      208);
}
