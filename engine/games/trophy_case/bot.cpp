// SPDX-License-Identifier: AGPL-3.0-or-later
// The "robot" for Trophy Case: a few plain rules, reading only what its seat may
// see (its hand and the public trick).
//
//  * Lead: the card that risks fewest points, preferring a colour in which it also
//    holds high cards of another suit (they may become the top in-colour suit).
//  * Follow: grab a trick worth 2+ points with a trump when allowed; otherwise, if a
//    card can put it ahead and the trick holds points, the cheapest such card; when
//    already ahead, the cheapest card; when behind with no way ahead, fold if
//    allowed, else the cheapest card.
#include <vector>

#include "engine/games/trophy_case/cards.h"
#include "engine/games/trophy_case/trophy_case.h"
#include "engine/games/trophy_case/trophy_case_game.h"

namespace casa::trophy_case {

namespace {

// What a card gives away if it ends up in someone else's trick (a 0 counts a
// little: a trump may still come).
int risk(int card) {
  if (is_trump(card)) return 100;  // a trump is worth keeping
  const int v = value_of(card);
  const int points = v == kInfinity ? 2 : (v == 8 || v == 9) ? 1 : 0;
  return points * 20 + (v == 0 ? 5 : 0) + v;
}

}  // namespace

Action rule_bot_action(const Game& game, Seat seat, Rng& rng) {
  thread_local std::vector<Action> legal;  // no allocation per call (search rollouts)
  game.legal_actions(seat, legal);
  const auto* tc = dynamic_cast<const TrophyCaseGame*>(&game);
  if (!tc || legal.empty()) return legal.at(rng.below(static_cast<std::uint32_t>(legal.size())));
  const Trick& trick = tc->trick();
  const DeckSet& hand = tc->hand(seat);

  if (trick.count == 0) {
    // Lead: lowest risk, minus a bonus for holding high cards of a sister suit.
    const Action* best = nullptr;
    int best_score = 1 << 30;
    for (const auto& a : legal) {
      const int suit = suit_of(a.card);
      int sister_high = 0;
      const DeckSet colour = hand & colour_cards(colour_of_suit(suit));
      for (int c : colour - suit_cards(suit))
        if (value_of(c) >= 7) ++sister_high;
      const int score = risk(a.card) - 4 * sister_high;
      if (score < best_score) {
        best_score = score;
        best = &a;
      }
    }
    return *best;
  }

  const bool ahead = tc->current_best() == seat;
  const int points_now = tc->trick_points(false);
  const Action* fold = nullptr;
  const Action* trump = nullptr;
  const Action* cheapest = nullptr;
  const Action* cheapest_winning = nullptr;
  for (const auto& a : legal) {
    if (a.kind == kFold) {
      fold = &a;
      continue;
    }
    if (is_trump(a.card)) {
      if (!trump) trump = &a;
      continue;
    }
    if (!cheapest || risk(a.card) < risk(cheapest->card)) cheapest = &a;
    if (tc->current_best(a.card, seat) == seat &&
        (!cheapest_winning || risk(a.card) < risk(cheapest_winning->card))) {
      cheapest_winning = &a;
    }
  }
  if (trump && tc->trick_points(true) >= 2) return *trump;
  if (ahead && cheapest) return *cheapest;
  if (cheapest_winning && points_now > 0) return *cheapest_winning;
  if (fold) return *fold;
  if (cheapest) return *cheapest;
  return trump ? *trump : legal.front();
}

}  // namespace casa::trophy_case
