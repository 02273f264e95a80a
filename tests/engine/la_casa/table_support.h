// SPDX-License-Identifier: AGPL-3.0-or-later
// Helpers for La Casa scenario tests: stacked decks laid out per LC-4.8 and a
// table driven through the public Game interface.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa::testing {

using Cards = std::vector<std::string>;

// Fills the empty positions of `slots` with the unused card ids, in id order.
inline Value fill_deck(std::array<std::string, kDeckSize> slots) {
  std::vector<std::string> unused;
  for (int c = 0; c < kDeckSize; ++c) {
    const std::string id = card_id(c);
    if (std::find(slots.begin(), slots.end(), id) == slots.end()) unused.push_back(id);
  }
  std::size_t next = 0;
  Value deck = Value::array();
  for (auto& s : slots) {
    if (s.empty()) s = unused.at(next++);
    deck.push(s);
  }
  REQUIRE(next == unused.size());
  return deck;
}

// Four players: hands by seat (cards not given are filled in), then the Casa top
// first. `prefix` cards come first in the deck (Betrayal's 1s).
inline Value deck4(int dealer, const std::array<Cards, 4>& hands, const Cards& casa,
                   int per = 7, const Cards& prefix = {}) {
  std::array<std::string, kDeckSize> slots{};
  const int base = static_cast<int>(prefix.size());
  for (int i = 0; i < base; ++i) slots[i] = prefix[i];
  for (int s = 0; s < 4; ++s) {
    const int offset = (s - dealer - 1 + 8) % 4;
    for (std::size_t k = 0; k < hands[s].size(); ++k)
      slots[base + 4 * static_cast<int>(k) + offset] = hands[s][k];
  }
  for (std::size_t m = 0; m < casa.size(); ++m) slots[base + 4 * per + static_cast<int>(m)] = casa[m];
  return fill_deck(slots);
}

// Two players: by seat, hand (8), face-down stack cards, face-up stack cards; Casa.
inline Value deck2(int dealer, const std::array<Cards, 2>& hands, const std::array<Cards, 2>& down,
                   const std::array<Cards, 2>& up, const Cards& casa, int stacks = 4,
                   const Cards& prefix = {}) {
  std::array<std::string, kDeckSize> slots{};
  const int base = static_cast<int>(prefix.size());
  for (int i = 0; i < base; ++i) slots[i] = prefix[i];
  for (int s = 0; s < 2; ++s) {
    const int p = s == dealer ? 1 : 0;
    for (std::size_t k = 0; k < hands[s].size(); ++k) slots[base + 2 * k + p] = hands[s][k];
    for (std::size_t j = 0; j < down[s].size(); ++j) slots[base + 16 + 2 * j + p] = down[s][j];
    for (std::size_t j = 0; j < up[s].size(); ++j)
      slots[base + 16 + 2 * stacks + 2 * j + p] = up[s][j];
  }
  for (std::size_t m = 0; m < casa.size(); ++m) slots[base + 16 + 4 * stacks + m] = casa[m];
  return fill_deck(slots);
}

struct Table {
  std::unique_ptr<Game> game;

  Table(int players, Value options, std::uint64_t seed = 1) {
    auto created = create_game("la-casa", players, options, seed);
    REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
    game = std::move(created.game);
  }
  const LaCasaGame& t() const { return dynamic_cast<const LaCasaGame&>(*game); }

  std::vector<Event> act(Seat seat, const Value& action) {
    Action a;
    auto err = game->decode_action(action, a);
    REQUIRE_MESSAGE(!err, action.debug_string());
    std::vector<Event> events;
    auto refused = game->apply(seat, a, &events);
    INFO("seat ", seat, " ", action.debug_string());
    REQUIRE_MESSAGE(!refused, (refused ? refused->message : ""));
    return events;
  }
  // The error code of a refused action (the state must not change).
  std::string refuse(Seat seat, const Value& action, std::string* message = nullptr) {
    Action a;
    if (auto err = game->decode_action(action, a)) return err->code;
    const Value before = game->full_state();
    auto refused = game->apply(seat, a, nullptr);
    REQUIRE_MESSAGE(refused, "accepted: ", action.debug_string());
    CHECK(game->full_state() == before);
    if (message) *message = refused->message;
    return refused->code;
  }
  std::vector<Event> play(Seat seat, const std::string& card) {
    return act(seat, Value::obj({{"type", "play"}, {"card", card}}));
  }
  Value view(Seat seat) const { return game->view(seat); }
  std::string phase() const { return view(0).get_string("phase", ""); }
  bool secret_to(Seat seat, const std::string& card) const {
    auto s = game->secret_cards(seat);
    return std::find(s.begin(), s.end(), card) != s.end();
  }
  std::vector<std::string> legal_types(Seat seat) const {
    std::vector<Action> legal;
    game->legal_actions(seat, legal);
    std::vector<std::string> out;
    for (const auto& a : legal) out.push_back(game->encode_action(a).debug_string());
    return out;
  }
  Cards hand(Seat seat) const {
    Cards out;
    const Value v = view(seat);
    for (const auto& c : v.find("hand")->as_array()) out.push_back(c.as_string());
    return out;
  }
};

inline Value action(const char* type) { return Value::obj({{"type", type}}); }
inline Value action(const char* type, const char* key, Value v) {
  return Value::obj({{"type", type}, {key, std::move(v)}});
}

inline bool contains_string(const Value& v, const std::string& s) {
  if (v.is_string()) return v.as_string() == s;
  if (v.is_array()) {
    for (const auto& item : v.as_array())
      if (contains_string(item, s)) return true;
  }
  if (v.is_object()) {
    for (const auto& [k, item] : v.as_object())
      if (contains_string(item, s)) return true;
  }
  return false;
}

namespace detail {
inline void collect_ids(const Value& v, std::vector<std::string>& out) {
  if (v.is_string()) {
    out.push_back(v.as_string());
  } else if (v.is_array()) {
    for (const auto& item : v.as_array()) collect_ids(item, out);
  } else if (v.is_object()) {
    if (v.get_bool("eliminated", false)) return;  // counted in "out"
    for (const auto& [key, item] : v.as_object()) {
      if (key == "card" || key == "up" || key == "down" || key == "hands" || key == "set_aside" ||
          key == "face_up" || key == "references" || key == "tableaux" || key == "casa" ||
          key == "out" || key == "trick" || key == "captured" || key == "cards")
        collect_ids(item, out);
    }
  }
}
}  // namespace detail

// Card conservation: at every step each of the 37 cards is in exactly one place
// (hand, set aside, face up, reference, tableau, Casa, out of play, trick, captured).
inline void check_card_conservation(const Value& state) {
  std::vector<std::string> ids;
  for (const char* key : {"hands", "set_aside", "face_up", "references", "tableaux", "casa", "out",
                          "trick", "captured"}) {
    const Value* v = state.find(key);
    REQUIRE(v != nullptr);
    detail::collect_ids(*v, ids);
  }
  // No card in two places (nor any other string twice).
  CardSet seen;
  std::vector<std::string> others;
  std::string twice;
  for (const auto& id : ids) {
    if (const auto card = parse_card(id)) {
      if (seen.has(*card) && twice.empty()) twice = id;
      seen.add(*card);
    } else {
      others.push_back(id);
    }
  }
  std::sort(others.begin(), others.end());
  const auto repeated = std::adjacent_find(others.begin(), others.end());
  if (repeated != others.end() && twice.empty()) twice = *repeated;
  INFO(state.debug_string());
  REQUIRE_MESSAGE(twice.empty(), twice, " is in two places");
  if (state.get_int("round", 0) > 0) CHECK(ids.size() == 37);
}

inline void check_card_conservation(const Game& game) {
  check_card_conservation(game.full_state());
}

// LC-4.4 / LC-7.7 A seat may play its hand, its face-up cards and the face-up
// cards of its tableau, and nothing else (playable() keeps the tableau as a mask).
// `state` is game.full_state().
inline void check_playable(const Game& game, const Value& state) {
  const auto& table = dynamic_cast<const LaCasaGame&>(game);
  for (Seat s = 0; s < game.players(); ++s) {
    casa::CardSet expected = table.hand(s);
    for (const Value& c : state.find("face_up")->as_array()[static_cast<std::size_t>(s)].as_array())
      expected.add(*parse_card(c.as_string()));
    const auto& tableaux = state.find("tableaux")->as_array();
    if (static_cast<std::size_t>(s) < tableaux.size()) {
      for (const Value& stack : tableaux[static_cast<std::size_t>(s)].as_array()) {
        const Value* up = stack.find("up");
        if (up && up->is_string()) expected.add(*parse_card(up->as_string()));
      }
    }
    REQUIRE(table.playable(s) == expected);
  }
}

// Everything the random-game property tests check after each action of a table
// game (casa_engine_tests and casa_property_tests share it).
// `state` is game.full_state().
inline void check_table_invariants(const Game& game, const Value& state) {
  check_card_conservation(state);
  check_playable(game, state);
}

}  // namespace casa::la_casa::testing
