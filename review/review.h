// SPDX-License-Identifier: AGPL-3.0-or-later
// The review of a finished game (docs/review.md): for each decision of the seats
// reviewed, the strong bot's value of every legal action, judged only from what
// that seat could know then (engine/strong.h's strong_evaluate, which reads the
// game through determinize(seat, ·)), the action played, the best one, the loss
// and a verdict; per seat an accuracy; per side the expected reward along the game.
//
// It runs where the replay is read: `casa review` on the player's machine and the
// web client's replay page (compiled to WebAssembly), never on the server. It
// throws nothing and needs no threads, files or clock (the WebAssembly build has
// none of them). The same replay, options and engine give the same JSON, byte for
// byte, on every machine.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "verify/verify.h"

namespace casa {

// The search iterations per decision when none are asked for: a whole 4-player
// La Casa game is reviewed in well under a minute on one core (BENCHMARKS.md).
inline constexpr int kReviewDefaultIterations = 2000;
inline constexpr int kReviewMaxIterations = 1'000'000;
inline constexpr std::uint64_t kReviewDefaultSeed = 20261128;

struct ReviewOptions {
  // Search iterations per decision, shared evenly among its legal actions (each
  // gets at least one).
  int iterations = kReviewDefaultIterations;
  // The review's seed; the decision at log seq k searches with review_seed(seed, k).
  std::uint64_t seed = kReviewDefaultSeed;
  // Seats to review; empty = every seat the replay shows no bot in.
  std::vector<int> seats;
};

// The loss (in the game's measure) from which a decision is good, an
// inaccuracy, a mistake or a blunder; below `good` it counts as best.
struct ReviewThresholds {
  const char* measure;  // "score" or "win" (Solo: the chance of the round's point)
  double good, inaccuracy, mistake, blunder;
};
// The thresholds of a game (by its engine name and number of seats: La Casa with one
// seat is Solo, measured in its own way; documented in docs/review.md).
ReviewThresholds review_thresholds(std::string_view game, int players = 0);

// The seed the decision at log seq `seq` is searched with.
std::uint64_t review_seed(std::uint64_t seed, int seq);

// The verdict for a loss, under `t`: "best", "good", "inaccuracy", "mistake" or "blunder".
const char* review_verdict(double loss, const ReviewThresholds& t);

// From a finished game's replay JSON (GET /api/tables/{table}/replay). Never throws:
// a bad replay or options give {"error": "replay" | "options", "why": "..."}, a
// game not over {"error": "not_over", "why": "..."}. The JSON is described in
// docs/review.md.
nlohmann::json review_replay(const nlohmann::json& replay, const ReviewOptions& options,
                             const GameMaker& make = {});

// Text in, text out (what the WebAssembly module exports): the options as JSON
// {"iterations": N, "seed": "decimal string", "seats": [..]} (every key optional;
// empty text: the defaults). The answer is review_replay's JSON as text.
std::string review_replay_text(std::string_view replay, std::string_view options);

}  // namespace casa
