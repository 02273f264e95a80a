// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.11 Kin (four players): when both partners play cards of the same family to
// a trick, they count as one card of their summed value (LC-11.6).
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kKin> {
  // LC-7.11 / LC-11.6 Kin: partners' cards of one family count as one card.
  static int resolve(const LaCasaGame& game, const TrickCard* trick, int n, int ruling) {
    struct Group {
      int side, family, sum, first, count;
      int idx[2];
    };
    Group groups[4];
    int g = 0;
    for (int i = 0; i < n; ++i) {
      if (trick[i].card < 0 || (trick[i].flags & (LaCasaGame::kEliminated | LaCasaGame::kFaceDown)))
        continue;
      const int f = effective_family(trick[i].card, ruling);
      if (f == kNoFamily) continue;
      const int side = game.side_of(trick[i].seat);
      int k = 0;
      while (k < g && !(groups[k].side == side && groups[k].family == f)) ++k;
      if (k == g) groups[g++] = Group{side, f, 0, i, 0, {i, i}};
      groups[k].sum += card_value(trick[i].card);
      groups[k].idx[groups[k].count++] = i;
    }
    int best = -1;
    int best_key = -1;
    for (int k = 0; k < g; ++k) {
      const int f = groups[k].family;
      const int category = f == ruling ? 3 : f == game.cousins_ ? 2 : f == game.lead_ ? 1 : 0;
      if (category == 0) continue;
      const int key = category * 64 + groups[k].sum;
      // Equal totals: the group whose first card was played earlier wins.
      if (key > best_key || (key == best_key && groups[k].first < groups[best].first)) {
        best_key = key;
        best = k;
      }
    }
    if (best < 0) return game.resolve_trick(trick, n, ruling);
    const Group& w = groups[best];
    if (w.count == 1) return trick[w.idx[0]].seat;
    const int a = w.idx[0], b = w.idx[1];
    // The higher of the two partners' cards takes the trick; equal: the earlier.
    return card_value(trick[b].card) > card_value(trick[a].card) ? trick[b].seat : trick[a].seat;
  }
};

extern const Challenge kKinChallenge;
const Challenge kKinChallenge{
    .id = kKin,
    .name = "kin",
    .four_players = true,
    .resolve = &ChallengeRules<kKin>::resolve,
};

}  // namespace casa::la_casa
