// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.1 Anarchy: Selection as usual; nobody has to follow.
#include "engine/games/la_casa/challenges/challenge.h"

namespace casa::la_casa {

extern const Challenge kAnarchyChallenge;
const Challenge kAnarchyChallenge{
    .id = kAnarchy,
    .name = "anarchy",
    .four_players = true,
    .two_players = true,
    // LC-7.1 any card may be played to any trick.
    .nobody_follows = true,
};

}  // namespace casa::la_casa
