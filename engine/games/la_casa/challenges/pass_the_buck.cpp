// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.14 Pass the Buck (four players): right after playing a card to a trick, a
// player with two or more cards left passes one to the left (LC-11.9). The
// passing phase is checked and applied by the table game.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kPassTheBuck> {
  // LC-7.14 / LC-11.9 Pass the Buck: with two or more cards left, pass one left.
  static bool after_play(TableGame& g, Seat s, std::vector<Event>*) {
    const std::uint64_t b = g.hand_[s].bits();
    if ((b & (b - 1)) == 0) return false;  // fewer than two cards
    g.phase_ = Phase::kPassCard;
    g.actor_ = s;
    return true;
  }
};

extern const Challenge kPassTheBuckChallenge;
const Challenge kPassTheBuckChallenge{
    .id = kPassTheBuck,
    .name = "pass_the_buck",
    .four_players = true,
    .after_play = &ChallengeRules<kPassTheBuck>::after_play,
};

}  // namespace casa::la_casa
