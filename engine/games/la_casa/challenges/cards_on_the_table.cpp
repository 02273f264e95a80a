// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.7 Cards on the Table (four players): after playing to a trick, a player
// puts one hand card face up in front of them (LC-11.7); face-up cards may be
// played like hand cards. The reveal phase is checked and applied by the table game.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kCardsOnTheTable> {
  // LC-7.7 / LC-11.7 Cards on the Table: one hand card goes face up.
  static bool after_play(TableGame& g, Seat s, std::vector<Event>*) {
    if (g.hand_[s].empty()) return false;
    g.phase_ = Phase::kReveal;
    g.actor_ = s;
    return true;
  }
};

extern const Challenge kCardsOnTheTableChallenge;
const Challenge kCardsOnTheTableChallenge{
    .id = kCardsOnTheTable,
    .name = "cards_on_the_table",
    .four_players = true,
    .after_play = &ChallengeRules<kCardsOnTheTable>::after_play,
};

}  // namespace casa::la_casa
