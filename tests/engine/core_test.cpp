// SPDX-License-Identifier: AGPL-3.0-or-later
// Tests of the engine's shared pieces: Value, the PRNG and the registry.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "engine/cardset.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "engine/value.h"

using casa::CardSet;
using casa::Rng;
using casa::Value;

TEST_CASE("Rng gives a fixed sequence for a seed, whatever the compiler") {
  // These figures are the specification: xoshiro256** seeded by SplitMix64(0).
  Rng rng(0);
  const std::uint64_t first = rng.next();
  Rng again(0);
  CHECK(again.next() == first);
  CHECK(Rng(1).next() != first);
  Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) REQUIRE(a.below(37) == b.below(37));
}

TEST_CASE("Rng::below stays in range and reaches every value") {
  Rng rng(7);
  std::array<int, 37> seen{};
  for (int i = 0; i < 37000; ++i) {
    const auto v = rng.below(37);
    REQUIRE(v < 37);
    ++seen[v];
  }
  for (int count : seen) CHECK(count > 800);
}

TEST_CASE("Rng::shuffle is a permutation and depends on the seed") {
  std::array<int, 37> deck{};
  std::iota(deck.begin(), deck.end(), 0);
  auto copy = deck;
  Rng(3).shuffle(deck.data(), deck.size());
  Rng(4).shuffle(copy.data(), copy.size());
  CHECK(deck != copy);
  auto sorted = deck;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 37; ++i) CHECK(sorted[i] == i);
}

TEST_CASE("CardSet iterates and counts without allocation") {
  CardSet s;
  s.add(3);
  s.add(40);
  s.add(0);
  CHECK(s.size() == 3);
  CHECK(s.lowest() == 0);
  CHECK(s.highest() == 40);
  std::vector<int> seen;
  for (int c : s) seen.push_back(c);
  CHECK(seen == std::vector<int>{0, 3, 40});
  s.remove(3);
  CHECK_FALSE(s.has(3));
}

TEST_CASE("Value objects compare regardless of key order") {
  Value a = Value::obj({{"type", "play"}, {"card", "G5"}});
  Value b = Value::obj({{"card", "G5"}, {"type", "play"}});
  CHECK(a == b);
  b.set("card", "G6");
  CHECK(a != b);
  CHECK(a.get_string("type", "") == "play");
  CHECK(a.get_int("missing", 9) == 9);
  CHECK(a.debug_string() == R"({"type":"play","card":"G5"})");
}

TEST_CASE("the registry refuses unknown games and non-object options") {
  auto unknown = casa::create_game("poker", 4, Value::object(), 1);
  CHECK_FALSE(unknown.game);
  REQUIRE(unknown.error);
  CHECK(unknown.error->code == "unknown_game");
  auto bad = casa::create_game("la-casa", 4, Value(3), 1);
  CHECK_FALSE(bad.game);
  CHECK(bad.error->code == "bad_option");
}
