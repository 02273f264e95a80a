// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.15 Revenge: two more cards each; Selection; the side that captured fewer
// 4s (Zii) scores 1. Solo plays it the same way (LC-8.5).
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/solo_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kRevenge> {
  // LC-7.15 the 4s.
  static constexpr CardSet kZii = value_cards(4);

  static int count(CardSet captured, int) { return (captured & kZii).size(); }

  // The Solo view shows both counts (captured cards were all seen played).
  static void solo_view(const SoloGame& g, Value& v) {
    v.set("zii", Value::obj({{"human", count(g.trick_.captured[0], 0)},
                             {"robot", count(g.trick_.captured[1], 0)}}));
  }
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
    .solo_view_after_tricks = &ChallengeRules<kRevenge>::solo_view,
};

}  // namespace casa::la_casa
