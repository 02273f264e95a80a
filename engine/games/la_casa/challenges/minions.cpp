// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.13 Minions: two more cards each; Selection (the Mangia-Cake in the Casa
// means a re-deal); the side that captured more Minions (the Brutos and the
// Mangia-Cake) scores 1. Solo plays it the same way (LC-8.5).
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/solo_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kMinions> {
  // LC-7.13 the Minions: the 1s, the 2s and the Mangia-Cake.
  static constexpr CardSet kMinionCards = kBrutos | kMangiaCakeSet;

  static int count(CardSet captured, int) { return (captured & kMinionCards).size(); }

  // The Solo view shows both counts (captured cards were all seen played).
  static void solo_view(const SoloGame& g, Value& v) {
    v.set("minions", Value::obj({{"human", count(g.trick_.captured[0], 0)},
                                 {"robot", count(g.trick_.captured[1], 0)}}));
  }
};

extern const Challenge kMinionsChallenge;
const Challenge kMinionsChallenge{
    .id = kMinions,
    .name = "minions",
    .four_players = true,
    .two_players = true,
    .solo = true,
    // LC-4.3 two more cards each.
    .deals_two_more = true,
    // LC-4.9 / LC-7.13 the Mangia-Cake as Selection card: re-deal.
    .redeal_on_mangia_cake = true,
    // LC-7.13 most Minions captured scores 1.
    .tally = &ChallengeRules<kMinions>::count,
    .tally_most = true,
    .solo_view_after_tricks = &ChallengeRules<kMinions>::solo_view,
};

}  // namespace casa::la_casa
