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
