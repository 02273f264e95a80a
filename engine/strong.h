// SPDX-License-Identifier: AGPL-3.0-or-later
// The "strong" bot: determinised search over the game-neutral Game interface,
// for every game and mode. See docs/bots-strong.md for the method and the
// measurements behind its defaults.
//
//  * It reads the real game only through determinize(seat, ·) (and its own
//    seat's legal list): every state it searches is a sample of what its seat
//    may know, so hidden cards the seat cannot see never change its choice.
//  * Deterministic: the same state as the seat sees it, the same options (seed
//    included) and the same number of iterations give the same action.
//  * The engine keeps no clock. A caller that wants a time bound passes a clock;
//    without one, the iteration count alone bounds the search.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/game.h"

namespace casa {

// How the search shares statistics between determinisations.
enum class SearchKind : std::uint8_t {
  kIsmcts,  // one tree over the seat's information sets (SO-ISMCTS)
  kFlat,    // statistics for the seat's own choices only (determinised flat UCB)
};

// Who plays the moves after the tree ends.
enum class RolloutPolicy : std::uint8_t { kRobot, kRandom };

// Where a rollout stops: at the first change of the scores (the end of the
// round in every game here) or at the end of the game.
enum class Horizon : std::uint8_t { kRound, kGame };

// How the seat's own choices at the root share the iterations: by the UCB rule
// (the bot's play: the promising choices get most of them) or evenly, each legal
// action in turn (an evaluation: every choice's value is measured as well as the
// others', see docs/review.md).
enum class RootShare : std::uint8_t { kUcb, kEven };

// What a finished play-out is worth: the bot's shaped reward (mostly winning,
// partly the margin) or, for an evaluation in a game where a side either scores
// or not (La Casa Solo's round point, LC-8.3), 1 to each side whose score rose
// since the root and 0 to the others (see docs/review.md).
enum class Reward : std::uint8_t { kShaped, kScored };

struct StrongOptions {
  SearchKind search = SearchKind::kIsmcts;
  RolloutPolicy rollout = RolloutPolicy::kRobot;
  Horizon horizon = Horizon::kRound;
  int iterations = 0;              // 0: no cap (with no clock: kStrongDefaultIterations)
  std::int64_t time_us = 200'000;  // per decision, used only when a clock is given
  double exploration = 0.7;        // the UCB constant; rewards lie in [0, 1]
  std::uint64_t seed = 0x5742'4F4E'4721ULL;
  RootShare root = RootShare::kUcb;
  Reward reward = Reward::kShaped;
  // Where a play-out (the tree walk and the rollout) ends besides the horizon, e.g.
  // at the end of a round that changed no score; empty: only at the horizon. It is
  // not asked at the root.
  std::function<bool(const Game&)> stop;
};

inline constexpr int kStrongDefaultIterations = 1000;

// Microseconds from any fixed origin, never going back. Supplied by the caller.
using SearchClock = std::function<std::int64_t()>;

// What a search did, for tools and tests.
struct StrongStats {
  int iterations = 0;
  int choices = 0;  // legal actions at the root
  std::size_t nodes = 0;
};

// Reads "key=value,key=value": iterations=N, ms=N (time per decision),
// search=ismcts|flat, rollout=robot|random, horizon=round|game, c=X (exploration),
// root=ucb|even, seed=N. An empty spec keeps the defaults. Unknown keys and bad values are an Error.
std::optional<Error> parse_strong_options(std::string_view spec, StrongOptions& out);

// The bot's choice for `seat`, which must be among the seats to act.
Action strong_action(const Game& game, Seat seat, const StrongOptions& options,
                     const SearchClock& clock = {}, StrongStats* stats = nullptr);

// What the search learnt of one legal action of the seat.
struct ActionValue {
  Action action{};
  double value = 0;  // the mean reward of the seat's side after it, in [0, 1]
  int visits = 0;    // iterations that began with it
  // The mean reward of every side after it (sides as the view's "teams" lists
  // them, each seat its own side without teams), in [0, 1].
  std::vector<double> sides;
};

// Every legal action of `seat` (which must be among the seats to act) with its
// value, in the order of legal_actions(): the same search as strong_action, which
// reads the game only through determinize(seat, ·) and the seat's legal list, so
// the values depend only on what the seat may know. Deterministic for a seed and
// an iteration count (options.iterations, or kStrongDefaultIterations when 0; no
// clock). With options.root == RootShare::kEven every action gets an equal share
// (at least one iteration each). One legal action: it alone, searched all the same.
std::vector<ActionValue> strong_evaluate(const Game& game, Seat seat, const StrongOptions& options,
                                         StrongStats* stats = nullptr);

}  // namespace casa
