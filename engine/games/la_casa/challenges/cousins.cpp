// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.9 Cousins: after the Selection a player names a second family, the Cousins,
// that beats every family but the Ruling one (LC-2.5, LC-11.11). The naming phase
// is checked and applied by the table game and by Solo.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kCousins> {
  static bool before_play(TableGame& g) {
    if (g.cousins_ != kNoFamily) return false;
    // LC-7.9 the dealer's left (the elector's left after an Election) names the Cousins.
    g.phase_ = Phase::kNameCousins;
    g.actor_ = g.left_of(g.elector_ >= 0 ? g.elector_ : g.dealer_);
    return true;
  }
};

extern const Challenge kCousinsChallenge;
const Challenge kCousinsChallenge{
    .id = kCousins,
    .name = "cousins",
    .four_players = true,
    .two_players = true,
    .solo = true,
    .before_play = &ChallengeRules<kCousins>::before_play,
    // LC-8.5 / LC-11.11 in Solo the human names the Cousins.
    .solo_names_cousins = true,
};

}  // namespace casa::la_casa
