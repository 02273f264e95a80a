// SPDX-License-Identifier: AGPL-3.0-or-later
// Test helpers for Conference: stacked decks in the layout documented in
// engine/games/conference/conference.h, and a small driver over the public
// Game interface.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"

namespace conference_test {

using casa::Action;
using casa::Game;
using casa::Seat;
using casa::Value;

inline std::vector<std::string> all_ids(bool eighty) {
  std::vector<std::string> ids;
  const char* ranks[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"};
  for (const char* s : {"E", "A", "F", "W"})
    for (const char* r : ranks) ids.push_back(std::string(s) + r);
  if (eighty) {
    ids.push_back("GOOD");
    ids.push_back("EVIL");
  }
  // Appended, not `"T" + std::to_string(t)`: GCC 12 at -O3 (Release) reports a
  // false -Wrestrict on operator+(const char*, std::string&&).
  for (int t = 1; t <= 21; ++t) ids.push_back(std::string("T").append(std::to_string(t)));
  ids.push_back("FOOL");
  return ids;
}

// A deal described by the cards that matter: each seat's named cards (the rest
// of its 19 filled from the unnamed cards in id order, seat 0 first), and the
// dealer's extra cards (likewise filled last).
struct Deal {
  int dealer = 3;
  bool eighty = false;
  bool attack_defence = false;
  std::array<std::vector<std::string>, 4> hands;
  std::vector<std::string> extra;

  // The full hands after filling (each 19 cards), and the extras.
  std::array<std::vector<std::string>, 4> full;
  std::vector<std::string> full_extra;

  std::vector<std::string> deck() {
    std::set<std::string> named;
    for (auto& h : hands) named.insert(h.begin(), h.end());
    named.insert(extra.begin(), extra.end());
    REQUIRE(named.size() ==
            [&] { size_t n = extra.size(); for (auto& h : hands) n += h.size(); return n; }());
    std::vector<std::string> rest;
    for (const auto& id : all_ids(eighty))
      if (!named.count(id)) rest.push_back(id);
    size_t next = 0;
    full = hands;
    full_extra = extra;
    // The dealer's named cards beyond 19 are its extra cards.
    while (full[dealer].size() > 19) {
      full_extra.push_back(full[dealer].back());
      full[dealer].pop_back();
    }
    for (auto& h : full) {
      REQUIRE(h.size() <= 19);
      while (h.size() < 19) h.push_back(rest.at(next++));
    }
    const size_t extras = eighty ? 4 : 2;
    while (full_extra.size() < extras) full_extra.push_back(rest.at(next++));
    REQUIRE(next == rest.size());

    std::vector<std::string> order;
    std::array<std::vector<std::string>, 4> deal_from = full;
    const int partner = dealer ^ 1;
    if (attack_defence) {
      // T21 and T20 are taken out first; put them on top (any place would do).
      auto take = [&](int seat, const std::string& id) {
        auto& h = deal_from[seat];
        auto it = std::find(h.begin(), h.end(), id);
        REQUIRE_MESSAGE(it != h.end(), id, " must be in seat ", seat, "'s hand");
        h.erase(it);
        order.push_back(id);
      };
      take(dealer, "T21");
      take(partner, "T20");
    }
    std::array<size_t, 4> pos{};
    for (int round = 0; round < 4; ++round) {
      for (int k = 1; k <= 4; ++k) {
        const int seat = (dealer + k) % 4;
        int count = round == 0 ? 4 : 5;
        if (round == 0 && attack_defence && (seat == dealer || seat == partner)) --count;
        for (int i = 0; i < count; ++i) order.push_back(deal_from[seat].at(pos[seat]++));
      }
    }
    for (const auto& id : full_extra) order.push_back(id);
    return order;
  }
};

// CO-1.4 printed card points, written out independently of the engine.
inline int points(const std::string& id) {
  if (id == "T1" || id == "T21" || id == "FOOL") return 5;
  if (id[0] == 'T' || id == "GOOD" || id == "EVIL") return 1;
  const std::string rank = id.substr(1);
  if (rank == "K" || rank == "1") return 5;
  if (rank == "Q") return 4;
  if (rank == "C") return 3;
  if (rank == "J") return 2;
  return 1;
}

// "E9 E5 T1-17 A1-10 AJ": card ids, with numeric ranges written first-last.
inline std::vector<std::string> cards(const std::string& spec) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < spec.size()) {
    while (i < spec.size() && spec[i] == ' ') ++i;
    size_t j = i;
    while (j < spec.size() && spec[j] != ' ') ++j;
    const std::string token = spec.substr(i, j - i);
    i = j;
    if (token.empty()) continue;
    const size_t dash = token.find('-');
    if (dash == std::string::npos) {
      out.push_back(token);
      continue;
    }
    size_t digits = 0;
    while (digits < token.size() && !(token[digits] >= '0' && token[digits] <= '9')) ++digits;
    const std::string prefix = token.substr(0, digits);
    const int first = std::stoi(token.substr(digits, dash - digits));
    const int last = std::stoi(token.substr(dash + 1));
    for (int n = first; n <= last; ++n) out.push_back(prefix + std::to_string(n));
  }
  return out;
}

inline Value ids_value(const std::vector<std::string>& ids) {
  Value v = Value::array();
  for (const auto& id : ids) v.push(id);
  return v;
}

inline std::set<std::string> id_set(const Value& list) {
  std::set<std::string> out;
  for (const auto& v : list.as_array()) out.insert(v.as_string());
  return out;
}

inline Value play(const std::string& card) { return Value::obj({{"type", "play"}, {"card", card}}); }
inline Value play_call(const std::string& card, const std::string& call) {
  return Value::obj({{"type", "play"}, {"card", card}, {"call", call}});
}
inline Value play_gg(const std::string& card) {
  return Value::obj({{"type", "play"}, {"card", card}, {"as_gallowglass", true}});
}
inline Value discard(const std::string& card) {
  return Value::obj({{"type", "discard"}, {"card", card}});
}

struct Table {
  std::unique_ptr<Game> game;

  explicit Table(Value options, std::uint64_t seed = 7) {
    auto created = casa::create_game("conference", 4, options, seed);
    REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
    game = std::move(created.game);
  }
  Table(Deal& deal, Value options) : Table([&] {
      options.set("deck", ids_value(deal.deck()));
      options.set("dealer", deal.dealer);
      if (deal.eighty && !options.find("good_evil")) options.set("good_evil", "trumps");
      if (deal.attack_defence) options.set("attack_defence", true);
      return options;
    }()) {}

  Seat actor() const {
    const auto mask = game->to_act();
    for (Seat s = 0; s < 4; ++s)
      if (mask & casa::seat_bit(s)) return s;
    return -1;
  }
  std::vector<Value> legal(Seat seat) const {
    std::vector<Action> actions;
    game->legal_actions(seat, actions);
    std::vector<Value> out;
    for (const auto& a : actions) out.push_back(game->encode_action(a));
    return out;
  }
  std::set<std::string> legal_cards(Seat seat) const {
    std::set<std::string> out;
    for (const auto& v : legal(seat)) out.insert(v.get_string("card", ""));
    return out;
  }
  bool is_legal(Seat seat, const Value& action) const {
    for (const auto& v : legal(seat))
      if (v == action) return true;
    return false;
  }
  std::vector<casa::Event> act(Seat seat, const Value& action) {
    Action a;
    auto err = game->decode_action(action, a);
    REQUIRE_MESSAGE(!err, action.debug_string());
    std::vector<casa::Event> events;
    err = game->apply(seat, a, &events);
    REQUIRE_MESSAGE(!err, "seat ", seat, " ", action.debug_string(), ": ",
                    (err ? err->message : ""));
    return events;
  }
  // The refusal for an action, or nullopt when it is accepted (state unchanged then).
  std::optional<casa::Error> refuse(Seat seat, const Value& action) {
    Action a;
    if (auto err = game->decode_action(action, a)) return err;
    const Value before = game->full_state();
    auto err = game->apply(seat, a, nullptr);
    if (err) CHECK(game->full_state() == before);
    return err;
  }
  // Plays `card` for whoever is to act, checking who that is.
  void play_as(Seat seat, const std::string& card) {
    REQUIRE(actor() == seat);
    act(seat, play(card));
  }
  // The dealer discards these cards (then names no gallowglass if asked).
  void discards(const std::vector<std::string>& cards) {
    for (const auto& c : cards) act(actor(), discard(c));
  }
  // The first legal action, again and again, while the phase is `phase`.
  void run_first_legal(const std::string& phase) {
    while (!game->is_over() && game->view(-1).get_string("phase", "") == phase) {
      const Seat s = actor();
      std::vector<Action> actions;
      game->legal_actions(s, actions);
      REQUIRE_FALSE(actions.empty());
      REQUIRE_FALSE(game->apply(s, actions[0], nullptr).has_value());
    }
  }
  Value view(Seat seat = -1) const { return game->view(seat); }
  std::string phase() const { return view().get_string("phase", ""); }
};

}  // namespace conference_test
