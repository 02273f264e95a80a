// SPDX-License-Identifier: AGPL-3.0-or-later
// Helpers for the La Casa Solo and Domination tests: stacked decks, acting
// through the public interface, and the card-conservation invariant.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/la_casa/domination.h"
#include "engine/games/la_casa/solo.h"

namespace casa::la_casa::modes_test {

// A full 37-card deck: `front` in order, then every other card in id order.
inline Value deck_of(const std::vector<std::string>& front) {
  Value deck = Value::array();
  CardSet used;
  for (const auto& id : front) {
    const auto card = parse_card(id);
    REQUIRE_MESSAGE(card, "bad card id ", id);
    REQUIRE_MESSAGE(!used.has(*card), "card listed twice: ", id);
    used.add(*card);
    deck.push(id);
  }
  for (int card = 0; card < kDeckSize; ++card) {
    if (!used.has(card)) deck.push(card_id(card));
  }
  return deck;
}

// LC-4.8 Solo order: columns 1-4 (top to foot), the Casa, the hand, the pile's top.
inline Value solo_deck(const std::vector<std::string>& col1, const std::vector<std::string>& col2,
                       const std::vector<std::string>& col3, const std::vector<std::string>& col4,
                       const std::string& casa, const std::vector<std::string>& hand,
                       const std::vector<std::string>& pile_top = {}) {
  REQUIRE(col1.size() == 3);
  REQUIRE(col2.size() == 4);
  REQUIRE(col3.size() == 5);
  REQUIRE(col4.size() == 6);
  REQUIRE(hand.size() == 3);
  std::vector<std::string> front;
  for (const auto* part : {&col1, &col2, &col3, &col4}) front.insert(front.end(), part->begin(), part->end());
  front.push_back(casa);
  front.insert(front.end(), hand.begin(), hand.end());
  front.insert(front.end(), pile_top.begin(), pile_top.end());
  return deck_of(front);
}

inline Value with(Value options, const std::string& key, Value v) {
  options.set(key, std::move(v));
  return options;
}

inline std::unique_ptr<Game> make_solo(const Value& options, std::uint64_t seed = 1) {
  auto created = create_solo(1, options, seed);
  REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
  return std::move(created.game);
}

inline std::unique_ptr<Game> make_domination(const Value& options, std::uint64_t seed = 1) {
  auto created = create_domination(2, options, seed);
  REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
  return std::move(created.game);
}

inline Value play_action(const std::string& card) { return Value::obj({{"type", "play"}, {"card", card}}); }

// Applies a public action; REQUIREs success and returns the events.
inline std::vector<Event> act(Game& game, Seat seat, const Value& action) {
  Action a;
  auto err = game.decode_action(action, a);
  REQUIRE_MESSAGE(!err, action.debug_string());
  std::vector<Event> events;
  err = game.apply(seat, a, &events);
  REQUIRE_MESSAGE(!err, action.debug_string(), ": ", (err ? err->message : ""));
  return events;
}

// Tries a public action that must be refused with `code`; the state must not change.
inline std::string refuse(Game& game, Seat seat, const Value& action, const std::string& code) {
  Action a;
  if (auto err = game.decode_action(action, a)) {
    CHECK(err->code == code);
    return err->message;
  }
  const Value before = game.full_state();
  auto err = game.apply(seat, a, nullptr);
  REQUIRE_MESSAGE(err, "accepted: ", action.debug_string());
  CHECK(err->code == code);
  CHECK(game.full_state() == before);
  return err->message;
}

inline std::vector<std::string> strings(const Value& list) {
  std::vector<std::string> out;
  for (const auto& v : list.as_array()) out.push_back(v.is_null() ? "null" : v.as_string());
  return out;
}

inline std::vector<Value> events_of(const std::vector<Event>& events, const std::string& type) {
  std::vector<Value> out;
  for (const auto& e : events) {
    if (e.body.get_string("type", "") == type) out.push_back(e.body);
  }
  return out;
}

// The public forms of seat's legal actions.
inline std::vector<Value> legal(const Game& game, Seat seat) {
  std::vector<Action> actions;
  game.legal_actions(seat, actions);
  std::vector<Value> out;
  for (const auto& a : actions) out.push_back(game.encode_action(a));
  return out;
}

inline std::vector<std::string> legal_cards(const Game& game, Seat seat) {
  std::vector<std::string> out;
  for (const auto& v : legal(game, seat)) {
    if (v.get_string("type", "") == "play") out.push_back(v.get_string("card", ""));
  }
  return out;
}

// Adds every card id found under `v` (strings that are card ids) to `cards`,
// failing on any card found twice.
inline void count_cards(const Value& v, CardSet& cards, int& total) {
  if (v.is_string()) {
    if (auto card = parse_card(v.as_string())) {
      if (cards.has(*card)) FAIL_CHECK("card in two places: ", v.as_string());
      cards.add(*card);
      ++total;
    }
  } else if (v.is_array()) {
    for (const auto& item : v.as_array()) count_cards(item, cards, total);
  } else if (v.is_object()) {
    for (const auto& [key, item] : v.as_object()) count_cards(item, cards, total);
  }
}

// Where the cards of a Solo and of a Domination game may be (full_state members).
inline const std::vector<std::string> kSoloPlaces{"columns", "casa",  "human_reference", "hand",
                                                  "pile",    "trick", "captured"};
inline const std::vector<std::string> kDominationPlaces{"hands",   "casa",  "stock",
                                                        "face_up", "trick", "captured"};

// Every card is in exactly one of the listed members of `state` (a full_state()).
inline void check_conservation(const Value& state, const std::vector<std::string>& places) {
  CardSet cards;
  int total = 0;
  for (const auto& key : places) {
    const Value* place = state.find(key);
    REQUIRE_MESSAGE(place, "full_state lacks ", key);
    count_cards(*place, cards, total);
  }
  CHECK_MESSAGE(total == kDeckSize, "cards accounted for: ", total, " in ", state.debug_string());
  CHECK(cards == kAllCards);
}

inline void check_conservation(const Game& game, const std::vector<std::string>& places) {
  check_conservation(game.full_state(), places);
}

}  // namespace casa::la_casa::modes_test
