// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.2 Bandits: after a trick is resolved, each Bruto's player may take a card
// from the trick and put one of their own face down in its place (LC-11.4).
// The steal and give phases are checked and applied by the table game.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kBandits> {
  // LC-7.2 / LC-11.4 Bandits, in reverse order of play: each Bruto's player may steal.
  static void next_bandit(TableGame& g, int from, std::vector<Event>* events) {
    for (int i = from; i >= 0; --i) {
      const TrickCard& e = g.trick_[i];
      if ((e.flags & TableGame::kFaceDown) || !kBrutos.has(e.card)) continue;
      for (int j = 0; j < g.trick_n_; ++j) {
        if (j == i || (g.trick_[j].flags & TableGame::kFaceDown) || kBrutos.has(g.trick_[j].card))
          continue;
        g.bandit_ = i;
        g.phase_ = Phase::kSteal;
        g.actor_ = e.seat;
        return;
      }
    }
    g.bandit_ = -1;
    g.finish_trick(events);
  }

  // The winner is fixed (LC-11.4): the bandits act from the last card played.
  static bool after_resolve(TableGame& g, std::vector<Event>* events) {
    next_bandit(g, g.trick_n_ - 1, events);
    return true;
  }

  // A bandit has stolen and given, or declined: the next one before them.
  static void resume(TableGame& g, std::vector<Event>* events) {
    next_bandit(g, g.bandit_ - 1, events);
  }
};

extern const Challenge kBanditsChallenge;
const Challenge kBanditsChallenge{
    .id = kBandits,
    .name = "bandits",
    .four_players = true,
    .two_players = true,
    .after_resolve = &ChallengeRules<kBandits>::after_resolve,
    .resume = &ChallengeRules<kBandits>::resume,
};

}  // namespace casa::la_casa
