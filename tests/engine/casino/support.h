// SPDX-License-Identifier: AGPL-3.0-or-later
// Helpers for the Casino scenario tests: stacked decks, actions written as JSON
// text, and short checks on views. Everything goes through the public Game API.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/casino/cards.h"
#include "protocol/value_json.h"

// Value comparison that prints both sides when it fails.
#define CHECK_VALUE(actual, expected)                                              \
  do {                                                                             \
    const ::casa::Value check_value_a = (actual);                                  \
    const ::casa::Value check_value_b = (expected);                                \
    CHECK_MESSAGE(check_value_a == check_value_b, check_value_a.debug_string(), \
                  " != ", check_value_b.debug_string());                           \
  } while (false)

namespace casino_test {

using casa::Action;
using casa::Error;
using casa::Event;
using casa::Game;
using casa::Seat;
using casa::Value;

inline Value J(const std::string& text) { return casa::from_json(nlohmann::json::parse(text)); }

// All 52 ids: `front` at positions 0.. (see casino.h for who gets which position),
// then every other card in card index order.
inline Value deck(const std::vector<std::string>& front) {
  Value out = Value::array();
  std::uint64_t used = 0;
  for (const auto& id : front) {
    const int c = casa::casino::parse_card(id);
    REQUIRE_MESSAGE(c >= 0, id);
    REQUIRE_MESSAGE(!(used & casa::casino::bit(c)), "twice in deck: ", id);
    used |= casa::casino::bit(c);
    out.push(id);
  }
  for (int c = 0; c < casa::casino::kDeckSize; ++c) {
    if (!(used & casa::casino::bit(c))) out.push(casa::casino::card_id(c));
  }
  return out;
}

// Options from JSON text plus a stacked deck.
inline Value with_deck(const std::string& options, const std::vector<std::string>& front) {
  Value o = J(options);
  o.set("deck", deck(front));
  return o;
}

inline std::unique_ptr<Game> make(int players, const Value& options, std::uint64_t seed = 7) {
  auto created = casa::create_game("casino", players, options, seed);
  REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
  return std::move(created.game);
}

inline Action decode(const Game& g, const std::string& action) {
  Action a;
  auto err = g.decode_action(J(action), a);
  REQUIRE_MESSAGE(!err, action, ": ", (err ? err->message : ""));
  return a;
}

// Applies an action that must be accepted; returns its events.
inline std::vector<Event> must(Game& g, Seat seat, const std::string& action) {
  std::vector<Event> events;
  auto err = g.apply(seat, decode(g, action), &events);
  REQUIRE_MESSAGE(!err, "seat ", seat, " ", action, ": ", (err ? err->message : ""));
  return events;
}

// Applies an action that must be refused with `code`, and checks nothing changed.
// Returns the human sentence.
inline std::string refused(Game& g, Seat seat, const std::string& action,
                           const std::string& code = "illegal_action") {
  const Value before = g.full_state();
  auto err = g.apply(seat, decode(g, action), nullptr);
  REQUIRE_MESSAGE(err, "accepted: seat ", seat, " ", action);
  CHECK(err->code == code);
  CHECK(g.full_state() == before);
  return err->message;
}

inline std::vector<Action> legal(const Game& g, Seat seat) {
  std::vector<Action> out;
  g.legal_actions(seat, out);
  return out;
}

inline bool listed(const Game& g, Seat seat, const std::string& action) {
  const auto all = legal(g, seat);
  return std::find(all.begin(), all.end(), decode(g, action)) != all.end();
}

// The public form of every legal action, as compact text.
inline std::vector<std::string> legal_text(const Game& g, Seat seat) {
  std::vector<std::string> out;
  for (const auto& a : legal(g, seat)) out.push_back(g.encode_action(a).debug_string());
  return out;
}

inline std::vector<std::string> strings(const Value& list) {
  std::vector<std::string> out;
  for (const auto& v : list.as_array()) out.push_back(v.as_string());
  return out;
}

inline std::vector<std::string> ids(std::initializer_list<const char*> list) {
  return std::vector<std::string>(list.begin(), list.end());
}

inline const Value& at(const Value& v, const char* key) {
  const Value* found = v.find(key);
  REQUIRE_MESSAGE(found, "no ", key, " in ", v.debug_string());
  return *found;
}

inline std::vector<std::string> loose(const Game& g) {
  return strings(at(at(g.view(casa::kSpectator), "table"), "loose"));
}
inline std::vector<std::string> hand(const Game& g, Seat seat) { return strings(at(g.view(seat), "hand")); }
inline std::vector<std::string> pile(const Game& g, Seat seat) {
  return strings(at(g.view(casa::kSpectator), "captures").as_array()[seat]);
}
inline const Value::Array& builds(const Game& g) {
  static thread_local Value view;
  view = g.view(casa::kSpectator);
  return at(at(view, "table"), "builds").as_array();
}
inline int turn(const Game& g) { return static_cast<int>(at(g.view(casa::kSpectator), "turn").as_int()); }

// Events of one type.
inline std::vector<Value> of_type(const std::vector<Event>& events, const std::string& type) {
  std::vector<Value> out;
  for (const auto& e : events) {
    if (e.body.get_string("type", "") == type) out.push_back(e.body);
  }
  return out;
}

inline std::string phase(const Game& g) { return at(g.view(casa::kSpectator), "phase").as_string(); }

// Plays on until the round ends: every seat trails its first card (in card index
// order) when it may, and otherwise plays its first legal action. Returns all events.
inline std::vector<Event> trail_out(Game& g) {
  std::vector<Event> all;
  while (phase(g) == "play" || phase(g) == "ask") {
    const Seat seat = turn(g);
    const auto actions = legal(g, seat);
    REQUIRE_FALSE(actions.empty());
    Action pick = actions.front();
    for (const auto& a : actions) {
      if (a.kind == 4) {
        pick = a;
        break;
      }
    }
    std::vector<Event> events;
    REQUIRE_FALSE(g.apply(seat, pick, &events));
    all.insert(all.end(), events.begin(), events.end());
  }
  return all;
}

}  // namespace casino_test

namespace casino_test {

// One play of a scripted round: `card` from the hand of the seat to act, trailed
// (when `capture` is empty) or capturing the single loose card `capture`.
struct Play {
  std::string card;
  std::string capture;
};

// A same-rank pair: `held` is played from a hand to capture `taken`.
struct Pair {
  std::string held;
  std::string taken;
};

// The front of the deck that makes a whole scripted round possible (questions off):
// play k is made by seat (dealer + 1 + k) % n, and a seat's hand in deal d is the
// cards of its plays 4d..4d+3.
inline std::vector<std::string> scripted_deck(int players, int dealer,
                                              const std::vector<std::string>& table,
                                              const std::vector<Play>& plays) {
  REQUIRE(plays.size() == 48);
  std::vector<std::vector<std::string>> by_seat(static_cast<std::size_t>(players));
  for (std::size_t k = 0; k < plays.size(); ++k) {
    by_seat[(static_cast<std::size_t>(dealer) + 1 + k) % static_cast<std::size_t>(players)].push_back(
        plays[k].card);
  }
  std::vector<std::string> front;
  const std::size_t deals = 48 / (4 * static_cast<std::size_t>(players));
  for (std::size_t d = 0; d < deals; ++d) {
    for (const auto& cards : by_seat) front.insert(front.end(), cards.begin() + 4 * d, cards.begin() + 4 * d + 4);
    if (d == 0) front.insert(front.end(), table.begin(), table.end());
  }
  return front;
}

inline std::vector<Event> run_script(Game& g, const std::vector<Play>& plays) {
  std::vector<Event> all;
  for (const auto& p : plays) {
    const std::string action =
        p.capture.empty() ? R"({"type":"trail","card":")" + p.card + R"("})"
                          : R"({"type":"capture","card":")" + p.card + R"(","loose":[")" + p.capture + R"("]})";
    auto events = must(g, turn(g), action);
    all.insert(all.end(), events.begin(), events.end());
  }
  return all;
}

// Two players, dealer 1: seat 0 captures the 13 pairs of `zero`, seat 1 the 13 of
// `one`, 26 cards each. The first four plays take the table (the fourth sweeps it);
// then, over and over: seat 0 trails, seat 1 trails, seat 0 takes the card seat 1
// trailed, seat 1 takes the other and sweeps. The round's last card is seat 1's.
inline std::vector<Play> two_sided_round(const std::vector<Pair>& zero, const std::vector<Pair>& one,
                                         std::vector<std::string>& table) {
  REQUIRE(zero.size() == 13);
  REQUIRE(one.size() == 13);
  table = {zero[0].taken, one[0].taken, zero[1].taken, one[1].taken};
  std::vector<Play> plays = {{zero[0].held, zero[0].taken},
                             {one[0].held, one[0].taken},
                             {zero[1].held, zero[1].taken},
                             {one[1].held, one[1].taken}};
  for (std::size_t i = 2; i < 13; ++i) {
    plays.push_back({one[i].taken, ""});
    plays.push_back({zero[i].taken, ""});
    plays.push_back({zero[i].held, zero[i].taken});
    plays.push_back({one[i].held, one[i].taken});
  }
  return plays;
}

// Any number of players, dealer n-1: the first four plays take the four table
// cards, then each play trails a card that the next player takes (a sweep each
// time). `pairs` are used in the order of the captures; capturer(i) says who takes
// pair i.
inline std::vector<Play> alternating_round(const std::vector<Pair>& pairs, std::vector<std::string>& table) {
  REQUIRE(pairs.size() == 26);
  table = {pairs[0].taken, pairs[1].taken, pairs[2].taken, pairs[3].taken};
  std::vector<Play> plays;
  for (std::size_t i = 0; i < 4; ++i) plays.push_back({pairs[i].held, pairs[i].taken});
  for (std::size_t i = 4; i < 26; ++i) {
    plays.push_back({pairs[i].taken, ""});
    plays.push_back({pairs[i].held, pairs[i].taken});
  }
  return plays;
}
inline int alternating_capturer(int players, std::size_t i) {
  const std::size_t play = i < 4 ? i : 5 + 2 * (i - 4);
  return static_cast<int>(play % static_cast<std::size_t>(players));
}
// Orders per-seat pair lists into the capture order of alternating_round.
inline std::vector<Pair> alternating_pairs(int players, std::vector<std::vector<Pair>> per_seat) {
  std::vector<Pair> out;
  std::vector<std::size_t> next(per_seat.size(), 0);
  for (std::size_t i = 0; i < 26; ++i) {
    const int seat = alternating_capturer(players, i);
    REQUIRE_MESSAGE(next[seat] < per_seat[seat].size(), "seat ", seat, " needs more pairs");
    out.push_back(per_seat[seat][next[seat]++]);
  }
  for (std::size_t s = 0; s < per_seat.size(); ++s) REQUIRE(next[s] == per_seat[s].size());
  return out;
}

// Same-rank pairs: `held` of suit `a`, `taken` of suit `b`, for each rank letter.
inline std::vector<Pair> pairs(const std::string& ranks, char a, char b) {
  std::vector<Pair> out;
  for (char r : ranks) out.push_back({std::string{r, a}, std::string{r, b}});
  return out;
}
inline std::vector<Pair> operator+(std::vector<Pair> x, const std::vector<Pair>& y) {
  x.insert(x.end(), y.begin(), y.end());
  return x;
}

}  // namespace casino_test
