// SPDX-License-Identifier: AGPL-3.0-or-later
// Test helpers for Trophy Case: stacked decks and a table that plays scripted
// actions through the public Game interface, keeping every event it produced.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/trophy_case/cards.h"
#include "engine/games/trophy_case/trophy_case.h"
#include "tests/engine/support/properties.h"

namespace tc_test {

using casa::Action;
using casa::Event;
using casa::Game;
using casa::Seat;
using casa::Value;
namespace tc = casa::trophy_case;

inline int hand_size(int players) { return players == 3 ? 14 : players == 4 ? 12 : 11; }

// Cards given to seats when a test does not name them: orange, green and blue
// cards, values 1-7 first (no points), then their 0s, then 8, 9, ∞; then red and
// yellow, then the trumps. Tests use red and yellow (and trumps) for the cards
// that matter, so fillers are out of colour and never block a fold.
inline std::vector<std::string> filler_order() {
  std::vector<std::string> out;
  const int filler_suits[] = {3, 4, 5, 9, 10, 11, 12, 13, 14};
  for (int v = 1; v <= 7; ++v)
    for (int s : filler_suits) out.push_back(tc::card_id(tc::card_of(s, v)));
  for (int s : filler_suits) out.push_back(tc::card_id(tc::card_of(s, 0)));
  for (int v = 8; v <= tc::kInfinity; ++v)
    for (int s : filler_suits) out.push_back(tc::card_id(tc::card_of(s, v)));
  for (int s : {0, 1, 2, 6, 7, 8})
    for (int v = 0; v < tc::kValues; ++v) out.push_back(tc::card_id(tc::card_of(s, v)));
  for (int t = 0; t < tc::kTrumps; ++t) out.push_back(tc::card_id(tc::kSuitedCards + t));
  return out;
}

// A stacked first stock: hands[h][seat] are the cards a test wants in that seat's
// h-th hand (h = 0, 1, 2 before the first reshuffle); the rest is filler.
struct Stack {
  int players = 4;
  int dealer = 3;
  std::map<int, std::map<int, std::vector<std::string>>> hands;

  // The deck option, laid out as the game header documents: per hand, blocks of
  // hand_size cards to dealer + 1, dealer + 2, ..., dealer; hand h has dealer + h.
  Value deck() const {
    std::set<std::string> named;
    for (const auto& [h, seats] : hands)
      for (const auto& [seat, cards] : seats)
        for (const auto& c : cards) {
          REQUIRE_MESSAGE(named.insert(c).second, "card named twice: ", c);
        }
    std::vector<std::string> pool;
    for (const auto& c : filler_order())
      if (!named.count(c)) pool.push_back(c);
    std::size_t next = 0;
    Value out = Value::array();
    for (int h = 0; h < 3; ++h) {
      const int d = (dealer + h) % players;
      for (int k = 0; k < players; ++k) {
        const int seat = (d + 1 + k) % players;
        std::vector<std::string> cards;
        auto hit = hands.find(h);
        if (hit != hands.end()) {
          auto sit = hit->second.find(seat);
          if (sit != hit->second.end()) cards = sit->second;
        }
        REQUIRE(static_cast<int>(cards.size()) <= hand_size(players));
        while (static_cast<int>(cards.size()) < hand_size(players)) cards.push_back(pool.at(next++));
        for (const auto& c : cards) out.push(c);
      }
    }
    while (next < pool.size()) out.push(pool[next++]);
    REQUIRE(out.size() == static_cast<std::size_t>(tc::kDeckSize));
    return out;
  }

  Value options(Value extra = Value::object()) const {
    Value o = extra;
    o.set("deck", deck());
    o.set("dealer", dealer);
    return o;
  }
};

inline std::vector<std::string> strings(const Value& list) {
  std::vector<std::string> out;
  for (const auto& v : list.as_array()) out.push_back(v.as_string());
  return out;
}

inline std::vector<int> ints(const Value& list) {
  std::vector<int> out;
  for (const auto& v : list.as_array()) out.push_back(static_cast<int>(v.as_int()));
  return out;
}

inline bool holds(const std::vector<std::string>& list, const std::string& id) {
  return std::find(list.begin(), list.end(), id) != list.end();
}

// A game plus the events of every action applied through it.
struct Table {
  std::unique_ptr<Game> game;
  std::vector<Event> events;  // every event since creation
  std::vector<Event> last;    // events of the last action

  explicit Table(int players, const Value& options, std::uint64_t seed = 7) {
    auto created = casa::create_game("trophy-case", players, options, seed);
    REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
    game = std::move(created.game);
  }

  Value view(Seat s) const { return game->view(s); }
  Value pub() const { return game->view(casa::kSpectator); }
  Seat turn() const {
    const auto mask = game->to_act();
    REQUIRE(__builtin_popcount(mask) == 1);
    return __builtin_ctz(mask);
  }
  std::vector<std::string> hand(Seat s) const { return strings(*view(s).find("hand")); }

  void apply_ok(Seat seat, const Value& action) {
    Action a;
    REQUIRE_MESSAGE(!game->decode_action(action, a), action.debug_string());
    last.clear();
    auto err = game->apply(seat, a, &last);
    REQUIRE_MESSAGE(!err, "seat ", seat, " ", action.debug_string(), ": ",
                    (err ? err->message : ""));
    casa::testing::check_no_leak(*game, last);
    casa::testing::check_views(*game);
    events.insert(events.end(), last.begin(), last.end());
  }
  void play(Seat seat, const std::string& card) {
    REQUIRE_MESSAGE(turn() == seat, "expected seat ", seat, " to act, not ", turn());
    apply_ok(seat, Value::obj({{"type", "play"}, {"card", card}}));
  }
  void fold(Seat seat) {
    REQUIRE_MESSAGE(turn() == seat, "expected seat ", seat, " to act, not ", turn());
    apply_ok(seat, Value::obj({{"type", "fold"}}));
  }
  // The seat to act plays its lowest legal card (never folds).
  void play_lowest() {
    const Seat s = turn();
    std::vector<Action> legal;
    game->legal_actions(s, legal);
    REQUIRE(!legal.empty());
    REQUIRE(legal.front().kind == tc::kPlay);
    apply_ok(s, game->encode_action(legal.front()));
  }
  // An error the game must give, with the state unchanged.
  casa::Error refuse(Seat seat, const Value& action) {
    Action a;
    REQUIRE(!game->decode_action(action, a));
    const Value before = game->full_state();
    auto err = game->apply(seat, a, nullptr);
    REQUIRE(err.has_value());
    CHECK(game->full_state() == before);
    return *err;
  }
  std::vector<std::string> legal(Seat seat) const {
    std::vector<Action> list;
    game->legal_actions(seat, list);
    std::vector<std::string> out;
    for (const auto& a : list) {
      const Value v = game->encode_action(a);
      out.push_back(v.get_string("type", "") == "fold" ? "fold" : v.get_string("card", ""));
    }
    return out;
  }
  // Events of the last action with this type.
  std::vector<Value> last_of(const std::string& type) const {
    std::vector<Value> out;
    for (const auto& e : last)
      if (e.body.get_string("type", "") == type) out.push_back(e.body);
    return out;
  }
  std::vector<Event> all_of(const std::string& type) const {
    std::vector<Event> out;
    for (const auto& e : events)
      if (e.body.get_string("type", "") == type) out.push_back(e);
    return out;
  }
};

// Every card in exactly one place (hands, trick, set aside, discarded, stock).
// `state` is a full_state().
inline void check_conservation(const Value& state) {
  static casa::testing::DeckTally tally([] {
    std::vector<std::string> deck;
    for (int c = 0; c < tc::kDeckSize; ++c) deck.push_back(tc::card_id(c));
    return deck;
  }());
  tally.clear();
  bool once = true;
  for (const auto& h : state.find("hands")->as_array())
    for (const auto& c : h.as_array()) once = tally.add(c.as_string()) && once;
  for (const auto& p : state.find("trick")->find("plays")->as_array())
    if (p.find("card")) once = tally.add(p.find("card")->as_string()) && once;
  for (const char* place : {"set_aside", "discarded", "stock"})
    for (const auto& c : state.find(place)->as_array()) once = tally.add(c.as_string()) && once;
  REQUIRE_MESSAGE(once, "card unknown or in two places: ", tally.problem());
  REQUIRE_MESSAGE(tally.complete(), "a card is missing");
  // Shown cards are discarded cards.
  const Value& shown = *state.find("shown");
  if (shown.size() > 0) {
    const auto discarded = strings(*state.find("discarded"));
    for (const auto& c : shown.as_array()) REQUIRE(holds(discarded, c.as_string()));
  }
}

inline void check_conservation(const Game& game) { check_conservation(game.full_state()); }

}  // namespace tc_test
