// SPDX-License-Identifier: AGPL-3.0-or-later
// Conference's invariant, checked after every action of the random-game property
// tests: the small ones in casa_engine_tests and the large ones in
// casa_property_tests (tests/properties/), which share this code.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/game.h"
#include "tests/engine/conference/helpers.h"
#include "tests/engine/support/properties.h"

namespace conference_test {

// Card conservation: every card of the deck (78, or 80 with Good & Evil) is in
// exactly one place: a hand, the discard, the trick in play or a taken trick.
// `state` is game.full_state().
inline void check_conservation(const Game&, const Value& state) {
  static casa::testing::DeckTally deck78(all_ids(false)), deck80(all_ids(true));
  auto& tally = state.get_int("deck_size", 0) == 80 ? deck80 : deck78;
  tally.clear();
  bool once = true;
  for (const auto& hand : state.find("hands")->as_array())
    for (const auto& c : hand.as_array()) once = tally.add(c.as_string()) && once;
  for (const auto& c : state.find("discard")->as_array()) once = tally.add(c.as_string()) && once;
  auto count_trick = [&](const Value& trick) {
    for (const auto& p : trick.find("plays")->as_array()) {
      const Value* card = p.find("card");
      once = tally.add(card && card->is_string() ? card->as_string() : "") && once;
    }
  };
  if (!state.find("trick")->is_null()) count_trick(*state.find("trick"));
  for (const auto& t : state.find("tricks")->as_array()) count_trick(t);
  REQUIRE_MESSAGE(once, "card unknown or in two places: ", tally.problem(), " in ",
                  state.debug_string());
  REQUIRE_MESSAGE(tally.complete(), "a card is missing in ", state.debug_string());
}

}  // namespace conference_test
