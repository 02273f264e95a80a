// SPDX-License-Identifier: AGPL-3.0-or-later
// Game::apply's common checks, the same for every game: a seat that does not
// act now is refused with not_your_turn, a finished game with game_over, and a
// refusal changes nothing (the full state, every seat's view, who acts).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"
#include "engine/value.h"

using casa::Action;
using casa::Seat;
using casa::Value;

namespace {

struct Setup {
  const char* game;
  int players;
  Value options;
};

// Everything a refused action must leave as it was.
struct Snapshot {
  Value full;
  std::vector<Value> views;
  casa::SeatMask to_act;
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

Snapshot snapshot(const casa::Game& g) {
  Snapshot s{g.full_state(), {}, g.to_act()};
  for (Seat seat = casa::kSpectator; seat < g.players(); ++seat) s.views.push_back(g.view(seat));
  return s;
}

// Plays a whole game with random legal actions; at every step tries, for each
// seat that does not act and for two seats that do not exist, an action that
// is legal for a seat that does; at the end tries one more action.
void play_and_probe(const Setup& setup, std::uint64_t seed) {
  const std::string game = setup.game;
  CAPTURE(game);
  CAPTURE(setup.players);
  CAPTURE(seed);
  auto created = casa::create_game(setup.game, setup.players, setup.options, seed);
  REQUIRE(created.game);
  auto& g = *created.game;
  casa::Rng rng(seed);
  std::vector<Action> legal;
  Action last{};
  int probes = 0;
  for (int step = 0; step < 5000 && !g.is_over(); ++step) {
    const casa::SeatMask acting = g.to_act();
    REQUIRE(acting != 0);
    Seat actor = 0;
    while (!(acting & casa::seat_bit(actor))) ++actor;
    g.legal_actions(actor, legal);
    REQUIRE(!legal.empty());
    const Action action = legal[rng.below(legal.size())];
    const Snapshot before = snapshot(g);
    for (Seat other = -2; other <= g.players(); ++other) {
      if (other >= 0 && other < g.players() && (acting & casa::seat_bit(other))) continue;
      std::vector<casa::Event> events;
      const auto refused = g.apply(other, action, &events);
      REQUIRE(refused.has_value());
      CHECK(refused->code == "not_your_turn");
      CHECK(!refused->message.empty());
      CHECK(events.empty());
      ++probes;
    }
    REQUIRE(snapshot(g) == before);
    std::vector<casa::Event> events;
    REQUIRE_FALSE(g.apply(actor, action, &events).has_value());
    last = action;
  }
  REQUIRE(g.is_over());
  CHECK(probes > 0);
  const Snapshot over = snapshot(g);
  for (Seat seat = 0; seat < g.players(); ++seat) {
    std::vector<casa::Event> events;
    const auto refused = g.apply(seat, last, &events);
    REQUIRE(refused.has_value());
    CHECK(refused->code == "game_over");
    CHECK(events.empty());
  }
  CHECK(snapshot(g) == over);
}

}  // namespace

TEST_CASE("every game refuses a seat that does not act, and any action once over, changing nothing") {
  const std::vector<Setup> setups = {
      {"la-casa", 4, Value::object()},
      {"la-casa", 2, Value::object()},
      {"la-casa", 4, Value::obj({{"election", true}})},
      {"la-casa", 2, Value::obj({{"format", "domination"}})},
      {"la-casa", 1, Value::obj({{"format", "solo"}})},
      {"casino", 2, Value::object()},
      {"casino", 4, Value::object()},
      {"conference", 4, Value::object()},
      {"trophy-case", 3, Value::object()},
      {"trophy-case", 5, Value::object()},
  };
  for (const auto& setup : setups) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) play_and_probe(setup, seed);
  }
}
