// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.3 Betrayal: the 1s are dealt as reference cards; a trick holding a card of
// its winner's reference family is invalid (LC-11.5); the side with more valid
// tricks scores. No Selection; the dealer leads.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kBetrayal> {
  // LC-7.3 Betrayal: the 1s come out first, in deck order.
  static int deal(TableGame& g, const std::int8_t* deck, std::int8_t* rest) {
    int n = 0;
    int ones = 0;
    for (int i = 0; i < kDeckSize; ++i) {
      const int card = deck[i];
      if (card != kMangiaCake && card_value(card) == 1) {
        if (ones < g.players_) {
          g.reference_[(g.dealer_ + 1 + ones) % g.players_] = static_cast<std::int8_t>(card);
        } else {
          g.out_.add(card);
        }
        ++ones;
        continue;
      }
      rest[n++] = static_cast<std::int8_t>(card);
    }
    return n;
  }

  // LC-7.3 the dealer leads.
  static int leader(const TableGame& g) { return g.dealer_; }

  // LC-7.3 / LC-11.5 the side with more valid tricks scores.
  static void score(TableGame& g, std::array<int, 2>& points) {
    std::array<int, 2> valid{};
    for (int s = 0; s < g.players_; ++s) {
      const int ref_family = printed_family(g.reference_[s]);
      // A reference is always a 1 (LC-7.3); a sampled world of determinize()
      // may hold another card there, and one with no family matches nothing.
      if (ref_family < 0) {
        valid[g.side_of(s)] += g.won_count_[s];
        continue;
      }
      for (int t = 0; t < g.won_count_[s]; ++t)
        if (!(g.won_families_[s][t] & (1u << ref_family))) ++valid[g.side_of(s)];
    }
    const int side = g.decide(valid[0], valid[1], true);
    if (side >= 0) points[side] = 1;
  }
};

extern const Challenge kBetrayalChallenge;
const Challenge kBetrayalChallenge{
    .id = kBetrayal,
    .name = "betrayal",
    .four_players = true,
    .two_players = true,
    .solo = true,
    .deal = &ChallengeRules<kBetrayal>::deal,
    // LC-7.3 no Selection: no Ruling Family.
    .selection = false,
    .leader = &ChallengeRules<kBetrayal>::leader,
    .score = &ChallengeRules<kBetrayal>::score,
};

}  // namespace casa::la_casa
