// SPDX-License-Identifier: AGPL-3.0-or-later
// The Conference robot: follows legally, wins a trick as cheaply as it can when
// its partner is not already winning it, otherwise throws its cheapest card;
// discards low cards; calls the suits it holds more points in. It reads only its
// own hand and the table (what its seat's view shows).
#include <vector>

#include "engine/games/conference/conference.h"
#include "engine/games/conference/state.h"

namespace casa::conference {

namespace {

// Lower is cheaper to give away: points first, then rank, trumps dearer than suits.
int cost(int card) {
  if (card == kFool) return 1000;
  return card_points(card) * 100 + (is_trump(card) ? 50 : 0) + rank_of(card);
}

}  // namespace

Action rule_bot_action(const Game& game, Seat seat, Rng& rng) {
  thread_local std::vector<Action> legal;  // no allocation per call (search rollouts)
  game.legal_actions(seat, legal);
  const auto* state = dynamic_cast<const ConferenceGame*>(&game);
  if (!state || legal.empty()) return legal.at(rng.below(static_cast<std::uint32_t>(legal.size())));

  switch (state->phase()) {
    case Phase::kDiscard: {
      const Action* best = &legal[0];
      for (const auto& a : legal)
        if (cost(a.card) < cost(best->card)) best = &a;
      return *best;
    }
    case Phase::kGallowglass:
      for (const auto& a : legal)
        if (a.arg == kNoGallowglass) return a;
      return legal[0];
    case Phase::kPlay: break;
    default: return legal[0];
  }

  const Trick& trick = state->current_trick();
  const Cards hand = state->hand(seat);
  // Call the suits where the hand is worth more (CO-6.3(a)).
  auto with_call = [&](Action a) {
    if ((a.arg & kCallMask) == 0) return a;
    int good_points = 0, evil_points = 0;
    for (int c : hand) {
      if (!is_suit_card(c)) continue;
      (suit_of(c) <= 1 ? good_points : evil_points) += card_points(c);
    }
    const bool want_good = good_points >= evil_points;
    // "ours" keeps the played card's suits; GOOD's are Earth and Air.
    const bool ours = want_good == (a.card == kGood);
    a.arg = (a.arg & ~kCallMask) | (ours ? kCallOurs : kCallYours);
    return a;
  };

  // Leading: the cheapest card that is not the Fool.
  if (trick.count == 0) {
    const Action* best = nullptr;
    for (const auto& a : legal)
      if (!best || cost(a.card) < cost(best->card)) best = &a;
    return with_call(*best);
  }

  const int winning_pos = ConferenceGame::judge(trick);
  const bool partner_winning = side_of(trick.plays[winning_pos].seat) == side_of(seat) &&
                               trick.plays[winning_pos].card != kFool;
  const Action* cheapest_win = nullptr;
  const Action* cheapest = nullptr;
  for (const auto& a : legal) {
    if (a.card == kFool) continue;
    if (!cheapest || cost(a.card) < cost(cheapest->card)) cheapest = &a;
    if (partner_winning) continue;
    Trick trial = trick;
    Play& p = trial.plays[trial.count++];
    p.seat = static_cast<std::int8_t>(seat);
    p.card = static_cast<std::uint8_t>(a.card);
    p.as_gallowglass = a.arg & kAsGallowglass;
    if (trial.led < 0) {
      trial.led = static_cast<std::int8_t>(suit_of(a.card));
      trial.led_pos = static_cast<std::int8_t>(trial.count - 1);
    }
    if (ConferenceGame::judge(trial) == trial.count - 1 &&
        (!cheapest_win || cost(a.card) < cost(cheapest_win->card))) {
      cheapest_win = &a;
    }
  }
  if (cheapest_win) return with_call(*cheapest_win);
  // Losing anyway: keep a valuable card back by playing the Fool, if held.
  if (cheapest && cost(cheapest->card) >= 400) {
    for (const auto& a : legal)
      if (a.card == kFool) return a;
  }
  if (cheapest) return with_call(*cheapest);
  return with_call(legal[0]);
}

}  // namespace casa::conference
