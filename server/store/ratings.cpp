// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/ratings.h"

#include <cmath>
#include <numbers>

namespace casa::server::ratings {

namespace {

// Step 2: the Glicko-2 scale is the Glicko scale divided by 400 / ln(10).
constexpr double kScale = 173.7178;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility, a root of f found by the Illinois algorithm
// (regula falsi that halves the stale end's value).
double new_volatility(double sigma, double phi, double v, double delta, double tau,
                      double epsilon) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B = 0;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    B = a - k * tau;
  }
  double fA = f(A);
  double fB = f(B);
  while (std::fabs(B - A) > epsilon) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2.0;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2.0);
}

}  // namespace

Rating update(const Rating& player, const std::vector<Match>& games, double tau, double epsilon) {
  const double mu = (player.rating - kStartRating) / kScale;
  const double phi = player.deviation / kScale;
  if (games.empty()) {
    // Step 6 alone: uncertainty grows, nothing else moves.
    return {player.rating, std::sqrt(phi * phi + player.volatility * player.volatility) * kScale,
            player.volatility};
  }
  // Steps 3 and 4: the estimated variance v and improvement delta.
  double inv_v = 0;
  double sum = 0;
  for (const auto& m : games) {
    const double mu_j = (m.opponent_rating - kStartRating) / kScale;
    const double phi_j = m.opponent_deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    inv_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
    sum += g(phi_j) * (m.score - e);
  }
  const double v = 1.0 / inv_v;
  const double delta = v * sum;
  const double sigma = new_volatility(player.volatility, phi, v, delta, tau, epsilon);
  // Steps 6 to 8.
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * sum;
  return {mu_new * kScale + kStartRating, phi_new * kScale, sigma};
}

std::vector<Rating> rate_game(const std::vector<Rating>& players, const std::vector<Side>& sides,
                              double tau) {
  std::vector<double> mean(sides.size(), 0.0);
  std::vector<double> rms_deviation(sides.size(), 0.0);
  for (std::size_t s = 0; s < sides.size(); ++s) {
    const auto& members = sides[s].members;
    if (members.empty()) continue;
    for (int p : members) {
      const auto& r = players[static_cast<std::size_t>(p)];
      mean[s] += r.rating;
      rms_deviation[s] += r.deviation * r.deviation;
    }
    mean[s] /= static_cast<double>(members.size());
    rms_deviation[s] = std::sqrt(rms_deviation[s] / static_cast<double>(members.size()));
  }
  std::vector<Rating> out = players;
  for (std::size_t s = 0; s < sides.size(); ++s) {
    for (int p : sides[s].members) {
      const auto& me = players[static_cast<std::size_t>(p)];
      std::vector<Match> games;
      for (std::size_t o = 0; o < sides.size(); ++o) {
        if (o == s || sides[o].members.empty()) continue;
        const double score = sides[s].result > sides[o].result   ? 1.0
                             : sides[s].result < sides[o].result ? 0.0
                                                                 : 0.5;
        games.push_back({me.rating + (mean[o] - mean[s]), rms_deviation[o], score});
      }
      if (!games.empty()) out[static_cast<std::size_t>(p)] = update(me, games, tau);
    }
  }
  return out;
}

}  // namespace casa::server::ratings
