// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.6 Carita: Selection as usual; the fewest tricks scores 1 (tie: LC-5.2).
#include "engine/games/la_casa/challenges/challenge.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kCarita> {
  // LC-7.6 fewest tricks scores 1.
  static int tricks(CardSet, int tricks) { return tricks; }
};

extern const Challenge kCaritaChallenge;
const Challenge kCaritaChallenge{
    .id = kCarita,
    .name = "carita",
    .four_players = true,
    .two_players = true,
    .solo = true,
    .tally = &ChallengeRules<kCarita>::tricks,
    .tally_most = false,
};

}  // namespace casa::la_casa
