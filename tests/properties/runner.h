// SPDX-License-Identifier: AGPL-3.0-or-later
// One large property run per game, player count and option set: thousands of
// random seeded games through casa::testing::check_random_games, every check on,
// and one summary line per run so that the test's output records the figures.
//
// CASA_PROPERTY_GAMES=<n> replaces the default of 1,000 games per option set (for
// quick local runs, or longer soak runs).
//
// Time: building views is much of the cost, so the long games scan the views
// (every seat's and the spectators') after every k-th action only, k set per run
// and printed in its summary line. The stride is offset by the game's number, so
// across a run's games every step of a game is scanned. Events and the legal-action
// lists are scanned after every action, as are all the other checks. The whole
// binary takes about 3 minutes on two cores.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "tests/engine/support/properties.h"

namespace casa::property_runs {

inline constexpr int kDefaultGames = 1000;

// Games per option set: CASA_PROPERTY_GAMES when set to a positive number.
inline int games_per_option_set() {
  const char* text = std::getenv("CASA_PROPERTY_GAMES");
  if (!text || !*text) return kDefaultGames;
  const long n = std::strtol(text, nullptr, 10);
  return n > 0 ? static_cast<int>(n) : kDefaultGames;
}

// What one run covers; `opts.games` is set from games_per_option_set() times
// `scale` (cheap option sets run more games).
struct Run {
  casa::testing::PropertyOptions opts;
  int scale = 1;
  // Optional: names the options in the summary line (default: the options).
  std::string label;
};

// Plays the run, prints its summary line and returns the actions applied.
inline long play(Run run) {
  auto& opts = run.opts;
  opts.games = games_per_option_set() * run.scale;
  INFO(opts.game, " players ", opts.players, " options ", opts.options.debug_string());
  const auto start = std::chrono::steady_clock::now();
  const long actions = casa::testing::check_random_games(opts);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  const std::string label = run.label.empty() ? opts.options.debug_string() : run.label;
  std::printf(
      "properties: %-11s players %d options %-68s games %5d actions %8ld views every %d seconds "
      "%6.2f\n",
      opts.game.c_str(), opts.players, label.c_str(), opts.games, actions, opts.view_every,
      seconds.count());
  std::fflush(stdout);
  CHECK(actions >= opts.games);  // every game needs at least one decision
  return actions;
}

// A run of create_game(game, players, options) with `invariant` after each action
// (given the game and its full_state()).
inline Run make_run(const char* game, int players, Value options, std::uint64_t seed,
                    std::function<void(const Game&, const Value&)> invariant) {
  Run run;
  run.opts.game = game;
  run.opts.players = players;
  run.opts.options = std::move(options);
  run.opts.seed = seed;
  run.opts.state_invariant = std::move(invariant);
  return run;
}

}  // namespace casa::property_runs
