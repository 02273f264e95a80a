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
#include "engine/games/la_casa/table_game.h"

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
  const TableGame& t() const { return dynamic_cast<const TableGame&>(*game); }

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

}  // namespace casa::la_casa::testing
