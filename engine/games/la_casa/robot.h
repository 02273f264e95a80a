// SPDX-License-Identifier: AGPL-3.0-or-later
// The Robot of La Casa Solo (LC-8.4, refined by LC-11.15) as one pure function, so
// that any mode or bot can play by the same four rules. It sees only what it is
// given: the cards it may play, the trick so far and the families in force.
//
// Use outside Solo ("the LC-8.4 rules extended to hands"): pass a hand as
// `playable` and nearness == nullptr; ties are then broken by the lower card
// index. Whether a card "would win" is judged on the trick as it stands plus
// that card, as if the trick ended there (with two cards per trick, as in Solo,
// it does).
#pragma once

#include <cstdint>

#include "engine/games/la_casa/cards.h"

namespace casa::la_casa {

struct RobotSituation {
  CardSet playable;          // the cards the Robot may choose from (Solo: its face-up column cards)
  const int* trick = nullptr;  // cards already played to the trick, in play order
  int trick_len = 0;         // 0: the Robot leads
  int lead = kNoFamily;      // the trick's lead family so far (LC-2.3)
  int ruling = kNoFamily;    // the Ruling Family in force now
  int cousins = kNoFamily;   // the Cousins, if any (LC-7.9)
  bool capitano = false;     // LC-7.5: a 5 played makes its family rule
  // LC-8.4 rule 4: per card index, lower means nearer the Casa (Solo: the column
  // number, 0 for column 1). nullptr: every card is equally near.
  const std::int8_t* nearness = nullptr;
};

// The card the Robot plays (an element of s.playable, which must not be empty):
//  1. Leading: the highest-value card.
//  2. Able to follow the lead family (the Mangia-Cake counts when that family
//     rules): its highest such card if that card would win the trick (its own
//     Capitano effect included), otherwise its lowest such card.
//  3. Unable to follow, or following a familyless Mangia-Cake (LC-11.15): its
//     highest Ruling Family card if it has one; otherwise its lowest card of all,
//     a familyless Mangia-Cake (value 0) included.
//  4. Ties in value: the card nearest the Casa.
int robot_choose(const RobotSituation& s);

}  // namespace casa::la_casa
