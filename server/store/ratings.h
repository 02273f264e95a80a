// SPDX-License-Identifier: AGPL-3.0-or-later
// Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013) and the
// way a finished game of any shape (one against one, partners, three or more
// sides) becomes Glicko-2 matches. Pure: no storage, no JSON, no clock.
//
// Invariants:
//  * The same ratings and the same game give the same numbers, bit for bit, on
//    every run: rebuilding ratings from the stored results replays these
//    functions in the stored order (docs/ratings.md).
//  * Each finished rated game is one rating period for the players in it.
//    Players who did not play keep their rating, deviation and volatility.
#pragma once

#include <string>
#include <vector>

namespace casa::server::ratings {

// What a player starts with (the paper's suggested defaults).
inline constexpr double kStartRating = 1500.0;
inline constexpr double kStartDeviation = 350.0;
inline constexpr double kStartVolatility = 0.06;
// The system constant tau (constrains volatility change); the paper suggests
// 0.3 to 1.2 and uses 0.5 in its example.
inline constexpr double kTau = 0.5;
// A rating whose deviation is above this is shown as provisional.
inline constexpr double kProvisionalDeviation = 110.0;

struct Rating {
  double rating = kStartRating;
  double deviation = kStartDeviation;
  double volatility = kStartVolatility;
};

// One game of a rating period, from the rated player's side.
struct Match {
  double opponent_rating = kStartRating;
  double opponent_deviation = kStartDeviation;
  double score = 0.5;  // 1 win, 0.5 draw, 0 loss
};

// The paper's steps 1-8: the player's rating after a period with these games
// (no games: only the deviation grows, step 6). The volatility is found with
// the Illinois algorithm (step 5), converged to `epsilon`.
Rating update(const Rating& player, const std::vector<Match>& games, double tau = kTau,
              double epsilon = 0.000001);

// A finished game for the ratings: the sides (each a list of player indexes
// into `players`) and a result per side (higher is better; equal is a draw).
struct Side {
  std::vector<int> members;
  double result = 0;
};

// New ratings for everyone in a game of two or more sides (see docs/ratings.md):
// each player meets every other side as one composite opponent whose rating is
// the player's own plus the difference between that side's mean rating and the
// player's own side's mean, and whose deviation is the root mean square of that
// side's deviations; the score is 1, 0.5 or 0 by the sides' results. With one
// player per side this is plain Glicko-2 between every pair of players.
std::vector<Rating> rate_game(const std::vector<Rating>& players, const std::vector<Side>& sides,
                              double tau = kTau);

}  // namespace casa::server::ratings
