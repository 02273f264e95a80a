// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa Domination (LC-9, LC-11.13): two players, created by la_casa::create
// when format == "domination".
//
// A round: hands of 5, a Casa of 5 (top card shown: it nominates a family), a
// stock of 21 with one card face up beside it. The Election of LC-6.3-6.6 as
// LC-9.2 modifies it (an elector of the shown card does not take it and
// discards nothing); the elector leads. After each of the first 11 tricks the
// winner chooses a pile and the loser takes the other; then the hands are played
// out: 16 tricks. The elector scores 1 with 9 or more tricks, else the other
// player scores 2 (LC-9.4). A Mangia-Cake shown: no Ruling Family, no Election,
// the non-dealer leads and LC-5.1 scores (most tricks 1; a tie scores nothing, the
// Mangia-Cake being in the Casa).
//
// Options (an object; unknown keys or bad values are "bad_option"):
//   format    "domination".
//   target    default 12: the game ends after the round in which a player reaches
//             it with the higher score; while tied, play goes on (LC-5.5).
//   election  accepted and ignored: Domination always holds its Election.
// Testing options:
//   deck      the 37 card ids of the first round (LC-4.8 Domination): deck[0:10]
//             the hands alternately, non-dealer first; [10:15] the Casa, deck[10]
//             on top (the nominated card); deck[15] the face-up card; [16:] the
//             stock, top first.
//   dealer    0 or 1: the first dealer (default: drawn from the seed). The dealer
//             alternates every round.
//   rounds    stop after that many rounds; winners() then lists the leader(s),
//             both seats on a tie.
//
// Actions: {"type":"elect","family":"guns"}, {"type":"pass"},
// {"type":"play","card":"G5"}, {"type":"take_pile","pile":"face_up"|"stock"} (the
// trick's winner only), {"type":"deal"} (the next dealer, after a round that did
// not end the game: the finished round stays on the table until then).
//
// Visibility: a card taken from the face-up pile joins a hand and is no longer
// shown (events name only the pile); the nominated card, once turned down after
// two passes, is no longer shown (its family stays public).
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::la_casa {

CreateResult create_domination(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::la_casa
