// SPDX-License-Identifier: AGPL-3.0-or-later
// Glicko-2 against the worked example of Glickman's paper, and the way games
// of partners and of three or more sides become matches (docs/ratings.md).
#include "server/store/ratings.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace casa::server::ratings;

namespace {
// True when x, printed to `places` decimals, reads `printed`.
bool prints_as(double x, double printed, int places) {
  return std::fabs(x - printed) <= 0.5 * std::pow(10.0, -places) + 1e-12;
}
constexpr double kScale = 173.7178;
}  // namespace

TEST_CASE("Glicko-2: the worked example of Glickman's paper") {
  const Rating player{1500, 200, 0.06};
  const Rating after = update(player, {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}}, 0.5);
  // The paper prints the result on the Glicko-2 scale to four places
  // (mu' = -0.2069, phi' = 0.8722) and converts those rounded figures to
  // r' = 1464.06 and RD' = 151.52; sigma' = 0.05999.
  CHECK(prints_as((after.rating - 1500) / kScale, -0.2069, 4));
  CHECK(prints_as(after.deviation / kScale, 0.8722, 4));
  // sigma' is 0.0599960: the paper prints its first five decimals, 0.05999.
  CHECK(after.volatility >= 0.05999);
  CHECK(after.volatility < 0.06000);
  CHECK(prints_as(after.deviation, 151.52, 2));
  // Unrounded, r' is 1464.0507: the paper's 1464.06 is -0.2069 * 173.7178 + 1500.
  CHECK(prints_as(-0.2069 * kScale + 1500, 1464.06, 2));
  CHECK(std::fabs(after.rating - 1464.06) < 0.01);
}

TEST_CASE("Glicko-2: a period without games only widens the deviation") {
  const Rating after = update({1500, 200, 0.06}, {});
  CHECK(after.rating == 1500);
  CHECK(after.volatility == 0.06);
  // phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
  CHECK(after.deviation ==
        doctest::Approx(std::sqrt(std::pow(200 / kScale, 2) + 0.06 * 0.06) * kScale));
}

TEST_CASE("Ratings: one against one is plain Glicko-2") {
  const std::vector<Rating> players{{1500, 200, 0.06}, {1400, 30, 0.06}};
  const auto out = rate_game(players, {{{0}, 1}, {{1}, 0}});
  const Rating a = update(players[0], {{1400, 30, 1}});
  const Rating b = update(players[1], {{1500, 200, 0}});
  CHECK(out[0].rating == a.rating);
  CHECK(out[0].deviation == a.deviation);
  CHECK(out[1].rating == b.rating);
  CHECK(out[1].volatility == b.volatility);
}

// Hand computation, fresh players: every composite opponent is 1500 + (1500 -
// 1500) = 1500 with deviation sqrt((350^2 + 350^2) / 2) = 350, so each winner
// moves as a fresh player beating a fresh player: g = 0.6690, E = 0.5,
// v = 1 / (g^2 / 4) = 8.937, phi' = 1.6712, mu' = mu + phi'^2 g / 2 = 0.934:
// 1662.31 and RD 290.32; each loser mirrors it at 1337.69.
TEST_CASE("Ratings: partners (La Casa 4p, Conference, Casino partners), fresh players") {
  const std::vector<Rating> players(4);
  const auto out = rate_game(players, {{{0, 2}, 1}, {{1, 3}, 0}});
  for (int s : {0, 2}) {
    CHECK(prints_as(out[static_cast<std::size_t>(s)].rating, 1662.31, 2));
    CHECK(prints_as(out[static_cast<std::size_t>(s)].deviation, 290.32, 2));
  }
  for (int s : {1, 3}) {
    CHECK(prints_as(out[static_cast<std::size_t>(s)].rating, 1337.69, 2));
    CHECK(prints_as(out[static_cast<std::size_t>(s)].deviation, 290.32, 2));
  }
}

// A strong partner makes a win count for less. Team A = {1700/100, 1500/350}
// (mean 1700 + 1500 / 2 = 1600, RMS deviation sqrt((100^2 + 350^2) / 2) =
// 257.39) beats team B = {1600/150, 1600/150} (mean 1600, RMS 150).
//  * Seat 0 (1700/100) meets 1700 + (1600 - 1600) = 1700 / 150 and wins: 1724.59 / 97.28.
//  * Seat 2 (1500/350) meets 1500 + 0 = 1500 / 150 and wins: 1674.30 / 258.98.
//  * Seats 1 and 3 (1600/150) meet 1600 + 0 = 1600 / 257.39 and lose: 1554.69 / 142.57.
TEST_CASE("Ratings: partners, weighted by partners' and opponents' ratings") {
  const std::vector<Rating> players{
      {1700, 100, 0.06}, {1600, 150, 0.06}, {1500, 350, 0.06}, {1600, 150, 0.06}};
  const auto out = rate_game(players, {{{0, 2}, 1}, {{1, 3}, 0}});
  CHECK(prints_as(out[0].rating, 1724.59, 2));
  CHECK(prints_as(out[0].deviation, 97.28, 2));
  CHECK(prints_as(out[2].rating, 1674.30, 2));
  CHECK(prints_as(out[2].deviation, 258.98, 2));
  for (int s : {1, 3}) {
    CHECK(prints_as(out[static_cast<std::size_t>(s)].rating, 1554.69, 2));
    CHECK(prints_as(out[static_cast<std::size_t>(s)].deviation, 142.57, 2));
  }
  // The same win with a 1500 partner instead would have raised seat 0 more.
  const std::vector<Rating> weaker{
      {1700, 100, 0.06}, {1600, 150, 0.06}, {1500, 100, 0.06}, {1600, 150, 0.06}};
  CHECK(rate_game(weaker, {{{0, 2}, 1}, {{1, 3}, 0}})[0].rating > out[0].rating - 1e-9);
  const std::vector<Rating> stronger{
      {1700, 100, 0.06}, {1600, 150, 0.06}, {1900, 100, 0.06}, {1600, 150, 0.06}};
  CHECK(rate_game(stronger, {{{0, 2}, 1}, {{1, 3}, 0}})[0].rating < out[0].rating);
}

// Trophy Case: three sides, pairwise by final placing. Scores 10, 7, 7: seat 0
// beats both, seats 1 and 2 draw with each other.
//  * Seat 0 (1500/350) beats 1600/200 and 1400/100: 1742.28 / 219.73.
//  * Seat 1 (1600/200) loses to 1500/350, draws 1400/100: 1492.77 / 171.11.
//  * Seat 2 (1400/100) loses to 1500/350, draws 1600/200: 1395.68 / 96.58.
TEST_CASE("Ratings: three or more sides rate pairwise by placing (Trophy Case)") {
  const std::vector<Rating> players{{1500, 350, 0.06}, {1600, 200, 0.06}, {1400, 100, 0.06}};
  const auto out = rate_game(players, {{{0}, 10}, {{1}, 7}, {{2}, 7}});
  CHECK(prints_as(out[0].rating, 1742.28, 2));
  CHECK(prints_as(out[0].deviation, 219.73, 2));
  CHECK(prints_as(out[1].rating, 1492.77, 2));
  CHECK(prints_as(out[1].deviation, 171.11, 2));
  CHECK(prints_as(out[2].rating, 1395.68, 2));
  CHECK(prints_as(out[2].deviation, 96.58, 2));
}
