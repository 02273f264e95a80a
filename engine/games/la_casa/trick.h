// SPDX-License-Identifier: AGPL-3.0-or-later
// Trick mechanics of LC-2 as plain functions over card indices, shared by the Solo
// and Domination modes and by the Robot (robot.h). No state: the caller passes
// the lead family, the Ruling Family in force and the Cousins.
//
// Conventions: kNoFamily stands for "none" everywhere (no lead family yet, no
// Ruling Family, no Cousins). The Mangia-Cake counts as a Ruling Family card
// whenever a Ruling Family exists (LC-2.2).
#pragma once

#include "engine/games/la_casa/cards.h"

namespace casa::la_casa::trick {

// LC-2.4 / LC-11.1 The cards of `holding` that may be played to a trick whose lead
// family is `lead` (kNoFamily when leading, or when only a familyless Mangia-Cake
// has been played), judged with `ruling` in force when the card is played.
constexpr CardSet playable(CardSet holding, int lead, int ruling) {
  if (lead == kNoFamily) return holding;
  CardSet follow = holding & counted_family_cards(lead, ruling);
  if (follow.empty()) return holding;
  // LC-11.1 A Mangia-Cake with no family may always be played.
  if (ruling == kNoFamily && holding.has(kMangiaCake)) follow.add(kMangiaCake);
  return follow;
}

// LC-7.5 / LC-11.2 The Ruling Family in force once `card` has been played: under
// Capitano a 5 makes its own family rule at once; otherwise nothing changes.
constexpr bool capitano_sets_ruling(int card) { return card_value(card) == 5; }
constexpr int ruling_after(int card, int ruling, bool capitano) {
  return capitano && capitano_sets_ruling(card) ? printed_family(card) : ruling;
}

// LC-2.3 The lead family once `card` has been played to a trick whose lead family
// was `lead`: it never changes once set; a familyless Mangia-Cake leaves it unset.
constexpr int lead_after(int card, int lead, int ruling) {
  return lead != kNoFamily ? lead : effective_family(card, ruling);
}

// LC-2.5 How strongly a card stands at the trick's completion: Ruling Family, then
// Cousins, then the lead family, each by value. Any other card (a familyless
// Mangia-Cake included) scores -1 and cannot beat the card that led.
constexpr int strength(int card, int lead, int ruling, int cousins) {
  const int family = effective_family(card, ruling);
  if (family == kNoFamily) return -1;
  int tier = 0;
  if (family == ruling) tier = 3;
  else if (family == cousins) tier = 2;
  else if (family == lead) tier = 1;
  if (tier == 0) return -1;
  return tier * 16 + card_value(card);
}

// LC-2.5 The position (0-based, in play order) of the card that wins the trick
// `cards[0..count)`, with `ruling` the Ruling Family in force when it completes.
constexpr int winner(const int* cards, int count, int lead, int ruling, int cousins) {
  int best = 0;
  int best_strength = strength(cards[0], lead, ruling, cousins);
  for (int i = 1; i < count; ++i) {
    const int s = strength(cards[i], lead, ruling, cousins);
    if (s > best_strength) {
      best = i;
      best_strength = s;
    }
  }
  return best;
}

}  // namespace casa::la_casa::trick
