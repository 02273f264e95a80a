// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/robot.h"

#include "engine/games/la_casa/trick.h"

namespace casa::la_casa {

namespace {

constexpr int kMaxTrick = 8;

// The highest (or lowest) value in `cards`; LC-8.4 rule 4 breaks ties by
// nearness to the Casa, then by card index so the choice is always defined.
int pick(CardSet cards, bool highest, const std::int8_t* nearness) {
  int best = -1;
  for (int card : cards) {
    if (best < 0) {
      best = card;
      continue;
    }
    const int v = card_value(card);
    const int bv = card_value(best);
    if (v != bv) {
      if (highest ? v > bv : v < bv) best = card;
      continue;
    }
    if (nearness && nearness[card] < nearness[best]) best = card;
  }
  return best;
}

// LC-11.15 "Would win" with the card's own Capitano effect and the Ruling Family
// in force when it is played.
bool would_win(const RobotSituation& s, int card) {
  int cards[kMaxTrick];
  int n = 0;
  for (; n < s.trick_len && n < kMaxTrick - 1; ++n) cards[n] = s.trick[n];
  cards[n++] = card;
  const int ruling = trick::ruling_after(card, s.ruling, s.capitano);
  const int lead = trick::lead_after(card, s.lead, ruling);
  return trick::winner(cards, n, lead, ruling, s.cousins) == n - 1;
}

}  // namespace

int robot_choose(const RobotSituation& s) {
  // Rule 1: leading.
  if (s.trick_len == 0) return pick(s.playable, true, s.nearness);
  // Rule 2: able to follow.
  if (s.lead != kNoFamily) {
    const CardSet follow = s.playable & counted_family_cards(s.lead, s.ruling);
    if (!follow.empty()) {
      const int top = pick(follow, true, s.nearness);
      return would_win(s, top) ? top : pick(follow, false, s.nearness);
    }
  }
  // Rule 3: unable to follow (LC-11.15: also against a familyless Mangia-Cake).
  if (s.ruling != kNoFamily) {
    const CardSet ruling_cards = s.playable & counted_family_cards(s.ruling, s.ruling);
    if (!ruling_cards.empty()) return pick(ruling_cards, true, s.nearness);
  }
  return pick(s.playable, false, s.nearness);
}

}  // namespace casa::la_casa
