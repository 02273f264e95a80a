// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.15 Revenge: two more cards each; Selection; the side that captured fewer
// 4s (Zii) scores 1. Solo plays it the same way (LC-8.5).
#include "engine/games/la_casa/challenges/challenge.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kRevenge> {
  // LC-7.15 the 4s.
  static constexpr CardSet kZii = value_cards(4);

  static int count(CardSet captured, int) { return (captured & kZii).size(); }
};

extern const Challenge kRevengeChallenge;
const Challenge kRevengeChallenge{
    .id = kRevenge,
    .name = "revenge",
    .four_players = true,
    .two_players = true,
    .solo = true,
    // LC-4.3 two more cards each.
    .deals_two_more = true,
    // LC-7.15 fewest 4s captured scores 1.
    .tally = &ChallengeRules<kRevenge>::count,
    .tally_most = false,
};

}  // namespace casa::la_casa
