// SPDX-License-Identifier: AGPL-3.0-or-later
// The La Casa robot's choices, pinned: whole seeded games in every format, the
// robot in every seat, hashed action by action. The fingerprints below were taken
// from the robot before its per-phase choices moved into the Challenges' files
// (challenges/*.cpp, ExtraPhase::bot); a change to any choice changes them.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa.h"
#include "engine/rng.h"

using namespace casa;

namespace {

struct Fingerprint {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over every action played
  long actions = 0;
  void add(std::uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      hash ^= (x >> (8 * i)) & 0xff;
      hash *= 1099511628211ull;
    }
  }
};

Fingerprint robot_games(int players, const char* format, int games) {
  Fingerprint f;
  std::vector<Action> legal;
  for (int g = 0; g < games; ++g) {
    auto created = create_game("la-casa", players, Value::obj({{"format", format}}),
                               1000 + static_cast<std::uint64_t>(g));
    REQUIRE(created.game);
    Game& game = *created.game;
    Rng rng(static_cast<std::uint64_t>(g) + 1);
    for (int step = 0; step < 20000 && !game.is_over(); ++step) {
      const SeatMask acting = game.to_act();
      Seat seat = 0;
      while (!(acting & seat_bit(seat))) ++seat;
      const Action a = la_casa::rule_bot_action(game, seat, rng);
      f.add(static_cast<std::uint64_t>(seat));
      f.add(a.kind);
      f.add(a.card);
      f.add(static_cast<std::uint32_t>(a.arg));
      f.add(a.set);
      f.add(a.set2);
      ++f.actions;
      REQUIRE_FALSE(game.apply(seat, a, nullptr));
    }
    REQUIRE(game.is_over());
  }
  return f;
}

}  // namespace

TEST_CASE("the La Casa robot plays the same games as before, action for action") {
  struct Case {
    int players;
    const char* format;
    std::uint64_t hash;
    long actions;
  };
  const Case cases[] = {
      {4, "challenges", 16127620627023752655ull, 105921},
      {4, "sticky", 11905958310099606489ull, 103022},
      {4, "classic", 17809067487865942997ull, 86183},
      {2, "challenges", 5024234606317698813ull, 105469},
      {2, "classic", 10062783126340541949ull, 103140},
      {2, "domination", 4217602990573000758ull, 101566},
      {1, "solo", 12848485568318982439ull, 16950},
  };
  for (const Case& c : cases) {
    CAPTURE(c.players);
    CAPTURE(c.format);
    const Fingerprint f = robot_games(c.players, c.format, 150);
        CHECK(f.hash == c.hash);
    CHECK(f.actions == c.actions);
  }
}

TEST_CASE("every Challenge that begins a phase of its own says how the robot plays it") {
  for (const la_casa::Challenge* c : la_casa::all_challenges()) {
    CAPTURE(c->name);
    for (const la_casa::ExtraPhase& p : c->phases) {
      CAPTURE(p.name);
      CHECK(static_cast<bool>(p.bot));
    }
    CHECK(static_cast<bool>(c->solo_bot) == c->solo_names_cousins);
  }
}
