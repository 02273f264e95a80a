// SPDX-License-Identifier: AGPL-3.0-or-later
// The "robot" for Casino: a simple, sensible player that reads only its own seat's
// knowledge (the table, its hand) and the legal list.
//   * Ask step: done at once.
//   * Capture if it can: the capture worth most (points first, then cards).
//   * Otherwise build (or increase) towards the biggest haul it can take next turn.
//   * Otherwise trail its lowest card (face cards count as highest).
#include <vector>

#include "engine/games/casino/casino.h"
#include "engine/games/casino/casino_game.h"

namespace casa::casino {
namespace {

// CA-5.2 what a card is worth to its capturer, scaled so points outweigh counts.
int card_worth(int card) {
  int worth = 10;  // every card counts towards "most cards"
  if (suit_of(card) == kSpadeSuit) worth += 5;
  if (card == kBigCasino) worth += 200;
  if (card == kLittleCasino || rank_of(card) == 0) worth += 100;
  return worth;
}

int cards_worth(std::uint64_t cards) {
  int worth = 0;
  for (; cards; cards &= cards - 1) worth += card_worth(std::countr_zero(cards));
  return worth;
}

}  // namespace

Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  thread_local std::vector<Action> legal;
  game.legal_actions(seat, legal);
  const auto* casino = dynamic_cast<const CasinoGame*>(&game);
  if (!casino || legal.size() == 1) return legal.at(0);
  if (casino->phase() == Phase::kAsk) return legal.back();  // done_asking is listed last

  const Action* best = nullptr;
  int best_score = -1;
  const auto consider = [&](const Action& a, int score) {
    if (score > best_score) best = &a, best_score = score;
  };
  for (const Action& a : legal) {
    std::uint64_t taken = a.set;
    for (std::uint64_t b = a.set2; b; b &= b - 1) taken |= casino->build(std::countr_zero(b) + 1).cards;
    switch (a.kind) {
      case kCapture:
        consider(a, 1'000'000 + cards_worth(taken | bit(a.card)));
        break;
      case kBuild:
        consider(a, 10'000 + cards_worth(taken | bit(a.card)));
        break;
      case kIncrease:
        consider(a, 10'000 + cards_worth(casino->build(a.arg).cards | bit(a.card)));
        break;
      case kTrail:
        // Lowest rank first; never trail a scoring card when another will do.
        consider(a, 1'000 - 10 * (is_face(a.card) ? 20 + rank_of(a.card) : rank_of(a.card)) -
                        cards_worth(bit(a.card)));
        break;
      default:
        break;
    }
  }
  return best ? *best : legal.at(0);
}

}  // namespace casa::casino
