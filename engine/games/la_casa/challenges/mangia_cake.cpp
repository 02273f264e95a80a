// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.12 Mangia-Cake (two players only): a fifth tableau stack; the round ends
// as soon as the Mangia-Cake is captured, and its captor scores 1 (LC-11.12).
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kMangiaCakeChallenge> {
  // LC-7.12 the side that captured the Mangia-Cake scores 1.
  static void score(LaCasaGame& g, std::array<int, 2>& points) {
    g.round_counts_ = g.tricks_won_;
    // LC-11.12 a discarded Mangia-Cake is never captured: nobody scores.
    if (g.mc_trick_captured_) points[g.mc_side_] = 1;
  }
};

extern const Challenge kMangiaCakeChallengeRules;
const Challenge kMangiaCakeChallengeRules{
    .id = kMangiaCakeChallenge,
    .name = "mangia_cake",
    .two_players = true,
    // LC-4.3 / LC-7.12 a fifth stack each.
    .deals_two_more = true,
    // LC-7.12 a Mangia-Cake dealt face up swaps with the card under it.
    .mangia_cake_face_down = true,
    // LC-4.9 / LC-7.12 the Mangia-Cake as Selection card: re-deal.
    .redeal_on_mangia_cake = true,
    // LC-7.12 the round ends with the Mangia-Cake's capture.
    .ends_on_mangia_cake = true,
    .score = &ChallengeRules<kMangiaCakeChallenge>::score,
};

}  // namespace casa::la_casa
