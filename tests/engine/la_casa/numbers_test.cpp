// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-A: the deal sizes that make every number of the rulebooks fit, checked on
// real deals through the public views.
#include <doctest/doctest.h>

#include "tests/engine/la_casa/table_support.h"

using namespace casa;
using namespace casa::la_casa::testing;

namespace {

struct Counts {
  int hand = 0;      // cards in seat 0's hand
  int tableau = 0;   // cards in seat 0's tableau (face down + face up)
  int casa = 0;      // cards in the Casa
  int total = 0;     // every card counted in the spectator's view
  int tricks = 0;    // tricks in the round
};

Counts counts(int players, const char* challenge) {
  Table table(players, Value::obj({{"format", "challenges"}, {"challenge", challenge},
                                   {"dealer", 0}, {"rounds", 1}}));
  const Value v = table.view(-1);
  Counts c;
  c.casa = static_cast<int>(v.find("casa")->get_int("count", -1));
  c.hand = static_cast<int>(v.find("hand_sizes")->as_array()[0].as_int());
  c.total = c.casa;
  for (const auto& n : v.find("hand_sizes")->as_array()) c.total += static_cast<int>(n.as_int());
  const Value* tableaux_value = v.find("tableaux");
  const Value::Array no_tableaux;
  const auto& tableaux =
      tableaux_value && tableaux_value->is_array() ? tableaux_value->as_array() : no_tableaux;
  for (std::size_t p = 0; p < tableaux.size(); ++p) {
    for (const auto& stack : tableaux[p].as_array()) {
      const Value* up = stack.find("up");
      const int cards = static_cast<int>(stack.get_int("down", 0)) + (up && !up->is_null() ? 1 : 0);
      if (p == 0) c.tableau += cards;
      c.total += cards;
    }
  }
  c.tricks = static_cast<int>(v.get_int("total_tricks", -1));
  return c;
}

}  // namespace

TEST_CASE("LC-A four players: 7 cards each and a Casa of 9; two more each leave a Casa of 1") {
  const Counts standard = counts(4, "carita");
  CHECK(standard.hand == 7);
  CHECK(standard.casa == 9);
  CHECK(standard.total == 37);
  CHECK(standard.tricks == 7);
  const Counts extra = counts(4, "capitano");
  CHECK(extra.hand == 9);
  CHECK(extra.casa == 1);
  CHECK(extra.total == 37);
  CHECK(extra.tricks == 9);
}

TEST_CASE("LC-A two players: 16 cards each (hand 8, tableau 8) and a Casa of 5; a fifth stack leaves 1") {
  const Counts standard = counts(2, "carita");
  CHECK(standard.hand == 8);
  CHECK(standard.tableau == 8);
  CHECK(standard.casa == 5);
  CHECK(standard.total == 37);
  CHECK(standard.tricks == 16);
  const Counts extra = counts(2, "revenge");
  CHECK(extra.hand == 8);
  CHECK(extra.tableau == 10);
  CHECK(extra.casa == 1);
  CHECK(extra.total == 37);
  CHECK(extra.tricks == 18);
}
