// SPDX-License-Identifier: AGPL-3.0-or-later
// Casino's invariants, checked after every action of the random-game property
// tests: the small ones in casa_engine_tests and the large ones in
// casa_property_tests (tests/properties/), which share this code.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "engine/game.h"
#include "engine/games/casino/cards.h"

namespace casino_test {

namespace invariant_detail {
inline const casa::Value& member(const casa::Value& v, const char* key) {
  const casa::Value* found = v.find(key);
  REQUIRE_MESSAGE(found, "no ", key, " in ", v.debug_string());
  return *found;
}
}  // namespace invariant_detail

// Card conservation (CA-1.1): the deck, the hands, the table and the capture
// piles hold the 52 cards exactly once. CA-4.1: every build's owner holds a card
// of its value. CA-4.4: no build is left when a deal's last card has been played.
// `state` is g.full_state().
inline void casino_invariant(const casa::Game& g, const casa::Value& state) {
  using invariant_detail::member;
  namespace casino = casa::casino;
  std::uint64_t seen = 0;
  int count = 0;
  std::string problem;  // the first id that is no card or is seen twice
  const auto add = [&](const casa::Value& list) {
    for (const auto& id : list.as_array()) {
      const int c = casino::parse_card(id.as_string());
      if ((c < 0 || (seen & casino::bit(c))) && problem.empty()) problem = id.as_string();
      if (c >= 0) seen |= casino::bit(c);
      ++count;
    }
  };
  add(member(state, "deck_order"));
  for (const auto& h : member(state, "hands").as_array()) add(h);
  for (const auto& p : member(state, "captures").as_array()) add(p);
  const casa::Value& table = member(state, "table");
  add(member(table, "loose"));
  const auto& hands = member(state, "hands").as_array();
  bool all_full = true, all_empty = true;
  for (const auto& h : hands) {
    all_full = all_full && h.size() == 4;
    all_empty = all_empty && h.size() == 0;
  }
  for (const auto& b : member(table, "builds").as_array()) add(member(b, "cards"));
  REQUIRE_MESSAGE(problem.empty(), "card unknown or twice: ", problem);
  REQUIRE(count == 52);
  for (const auto& b : member(table, "builds").as_array()) {
    const int owner = static_cast<int>(member(b, "owner").as_int());
    const int value = static_cast<int>(member(b, "value").as_int());
    bool holds = false;
    for (const auto& id : hands[owner].as_array()) {
      holds = holds || casino::value_of(casino::parse_card(id.as_string())) == value;
    }
    REQUIRE_MESSAGE(holds, "CA-4.1 owner ", owner, " lacks a ", value);
  }
  if (!g.is_over()) {
    const bool deal_boundary = all_full || all_empty;
    const bool no_builds = member(table, "builds").size() == 0;
    REQUIRE_MESSAGE((!deal_boundary || no_builds),
                    "CA-4.4 a build outlived its deal: ", state.debug_string());
  }
}

}  // namespace casino_test
