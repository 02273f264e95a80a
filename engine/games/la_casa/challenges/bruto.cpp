// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.4 Bruto (four players): when a Bruto is played, its player may eliminate
// another card still in the trick (LC-11.3). The elimination phase is checked and
// applied by the table game.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kBruto> {
  // LC-7.4 / LC-11.3 Bruto: a Bruto may eliminate another card still in the trick.
  static bool on_play(TableGame& g, Seat s, int card, std::vector<Event>*) {
    if (!kBrutos.has(card)) return false;
    for (int i = 0; i + 1 < g.trick_n_; ++i) {
      if (!(g.trick_[i].flags & TableGame::kEliminated)) {
        g.phase_ = Phase::kEliminate;
        g.actor_ = s;
        return true;
      }
    }
    return false;
  }
};

extern const Challenge kBrutoChallenge;
const Challenge kBrutoChallenge{
    .id = kBruto,
    .name = "bruto",
    .four_players = true,
    .on_play = &ChallengeRules<kBruto>::on_play,
};

}  // namespace casa::la_casa
