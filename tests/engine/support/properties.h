// Property checks shared by every game's tests: random seeded games are played
// through the public Game interface and each step is checked against the
// interface's invariants (see engine/game.h).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"

namespace casa::testing {

// Every string anywhere inside a Value (card ids appear as strings).
inline void collect_strings(const Value& v, std::set<std::string>& out) {
  if (v.is_string()) {
    out.insert(v.as_string());
  } else if (v.is_array()) {
    for (const auto& item : v.as_array()) collect_strings(item, out);
  } else if (v.is_object()) {
    for (const auto& [key, item] : v.as_object()) collect_strings(item, out);
  }
}

// The first card id in `v` that `seat` may not see in `game`, or "" if none.
inline std::string leaked_card(const Game& game, Seat seat, const Value& v) {
  std::set<std::string> strings;
  collect_strings(v, strings);
  for (const auto& secret : game.secret_cards(seat)) {
    if (strings.count(secret)) return secret;
  }
  return "";
}

struct PropertyOptions {
  std::string game;
  int players = 4;
  Value options = Value::object();
  int games = 200;
  std::uint64_t seed = 1;
  int max_actions = 100000;  // per game: a game that runs longer does not terminate
  // Game-specific invariant checked after every action (e.g. card conservation).
  std::function<void(const Game&)> invariant;
  bool check_views = true;     // scan every view for secret cards at every step
  bool check_replay = true;    // replay the log and compare the final state
  bool check_illegal = true;   // try an illegal action and expect no change
  int determinize_every = 50;  // check determinize() every N actions (0: never)
};

struct LoggedAction {
  Seat seat;
  Action action;
};

inline Seat pick_seat(SeatMask mask, Rng& rng) {
  const int n = __builtin_popcount(mask);
  int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  for (Seat s = 0; s < kMaxSeats; ++s) {
    if ((mask & seat_bit(s)) && pick-- == 0) return s;
  }
  return -1;
}

inline void check_no_leak(const Game& game, const std::vector<Event>& events) {
  for (const auto& e : events) {
    for (Seat s = 0; s < game.players(); ++s) {
      if (!(e.seats & seat_bit(s))) continue;
      const std::string leak = leaked_card(game, s, e.body);
      INFO("event to seat ", s, ": ", e.body.debug_string());
      CHECK_MESSAGE(leak.empty(), "hidden card in event: ", leak);
    }
    if (e.spectators) {
      const std::string leak = leaked_card(game, kSpectator, e.body);
      INFO("event to spectators: ", e.body.debug_string());
      CHECK_MESSAGE(leak.empty(), "hidden card in spectator event: ", leak);
    }
  }
}

inline void check_views(const Game& game) {
  for (Seat s = kSpectator; s < game.players(); ++s) {
    const Value view = game.view(s);
    const std::string leak = leaked_card(game, s, view);
    if (!leak.empty()) {
      INFO("view of seat ", s, ": ", view.debug_string());
      FAIL_CHECK("hidden card in view: ", leak);
    }
  }
}

// Makes the game for one seed; lets a test drive a mode's own create function.
using GameFactory = std::function<CreateResult(std::uint64_t seed)>;

// Plays opts.games random games made by `factory` (opts.game, opts.players and
// opts.options are then unused) and checks every invariant on the way.
// Returns the number of actions applied, so callers can assert coverage.
inline long check_random_games(const PropertyOptions& opts, const GameFactory& factory) {
  long total = 0;
  Rng rng(opts.seed);
  std::vector<Action> legal;
  std::vector<Event> events;
  for (int g = 0; g < opts.games; ++g) {
    const std::uint64_t seed = opts.seed * 1000003ULL + static_cast<std::uint64_t>(g);
    auto created = factory(seed);
    REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
    Game& game = *created.game;
    std::vector<LoggedAction> log;
    int steps = 0;
    while (!game.is_over()) {
      REQUIRE_MESSAGE(steps < opts.max_actions, "game ", seed, " does not terminate");
      const SeatMask mask = game.to_act();
      REQUIRE_MESSAGE(mask != 0, "game ", seed, " is not over but nobody acts");
      for (Seat s = 0; s < game.players(); ++s) {
        game.legal_actions(s, legal);
        REQUIRE_MESSAGE(legal.empty() != bool(mask & seat_bit(s)),
                        "seat ", s, " legal list disagrees with to_act");
      }
      const Seat seat = pick_seat(mask, rng);
      game.legal_actions(seat, legal);
      const Action chosen = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];

      // The public form of every legal action decodes back to the same action.
      for (const auto& a : legal) {
        Action back;
        const Value encoded = game.encode_action(a);
        REQUIRE_MESSAGE(!game.decode_action(encoded, back), encoded.debug_string());
        REQUIRE_MESSAGE(back == a, "round trip changed ", encoded.debug_string());
      }

      if (opts.check_illegal) {
        // An out-of-turn action is refused and changes nothing.
        const Value before = game.full_state();
        for (Seat other = 0; other < game.players(); ++other) {
          if (mask & seat_bit(other)) continue;
          REQUIRE(game.apply(other, chosen, nullptr).has_value());
          break;
        }
        Action bogus = chosen;
        bogus.kind = 0xFFFF;
        REQUIRE(game.apply(seat, bogus, nullptr).has_value());
        REQUIRE(game.full_state() == before);
      }

      events.clear();
      auto err = game.apply(seat, chosen, &events);
      REQUIRE_MESSAGE(!err, "legal action refused: ", (err ? err->message : ""));
      log.push_back({seat, chosen});
      ++steps;
      if (opts.check_views) {
        check_no_leak(game, events);
        check_views(game);
      }
      if (opts.invariant) opts.invariant(game);
      if (opts.determinize_every > 0 && steps % opts.determinize_every == 0 && !game.is_over()) {
        for (Seat s = 0; s < game.players(); ++s) {
          auto sample = game.determinize(s, seed + static_cast<std::uint64_t>(steps));
          REQUIRE(sample);
          CHECK_MESSAGE(sample->view(s) == game.view(s), "determinize changed seat ", s,
                        "'s view");
          CHECK(sample->to_act() == game.to_act());
        }
      }
    }
    CHECK(game.to_act() == 0);
    CHECK_FALSE(game.winners().empty());
    CHECK(static_cast<int>(game.scores().size()) == game.players());
    total += steps;

    if (opts.check_replay) {
      auto again = factory(seed);
      REQUIRE(again.game);
      for (const auto& entry : log) {
        REQUIRE_FALSE(again.game->apply(entry.seat, entry.action, nullptr).has_value());
      }
      CHECK(again.game->full_state() == game.full_state());
      CHECK(again.game->scores() == game.scores());
    }
  }
  return total;
}

// Plays opts.games random games of opts.game and checks every invariant on the way.
// Returns the number of actions applied, so callers can assert coverage.
inline long check_random_games(const PropertyOptions& opts) {
  return check_random_games(opts, [&opts](std::uint64_t seed) {
    return create_game(opts.game, opts.players, opts.options, seed);
  });
}

}  // namespace casa::testing
