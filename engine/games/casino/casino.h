// SPDX-License-Identifier: AGPL-3.0-or-later
// Casino (rules: shared/rules/casino.md, ids CA-…): entry point for the registry.
//
// Options (CA-8), an object; unknown keys or bad values are "bad_option":
//   target    integer >= 1, default 21: game end score (CA-5.3)
//   partners  bool, default false; 4 players only: seats 0+2 and 1+3 (CA-2.1)
//   questions false/"off"/null (default), "default" or true (the built-in set of
//             52 questions), or an object mapping every one of the 52 card ids to
//             a non-empty text (CA-6.1)
//   sweeps    bool, default false (CA-7)
// Testing options, to stack a scenario from outside:
//   deck      the 52 card ids in the shuffled order of the FIRST round. With n
//             players, positions 4s..4s+3 go to seat s (s = 0..n-1), positions
//             4n..4n+3 to the table; each later deal takes the next 4n positions,
//             again 4 consecutive cards per seat in seat order 0..n-1. Later
//             rounds are shuffled from the seed.
//   dealer    the first dealer's seat (default: drawn from the seed, CA-2.2)
//   rounds    integer >= 1: the game ends after this many rounds whatever the
//             scores; the sides with the top total then all win.
//
// Actions (Action fields; the public form in brackets). Card lists print in card
// index order (cards.h), build lists by id; decode accepts any order.
//   kind 1 capture  card = played card, set = loose cards taken, set2 = builds
//                   taken (bit n-1 = build "Bn")
//                   {"type":"capture","card":"5H","loose":["2C","3D"],"builds":["B1"]}
//   kind 2 build    card, set = loose cards {"type":"build","card":"3S","loose":["4H"]}
//   kind 3 increase card, arg = build number n {"type":"increase","card":"2D","build":"B1"}
//   kind 4 trail    card                       {"type":"trail","card":"KC"}
//   kind 5 ask      card = captured card, arg = target seat
//                   {"type":"ask","card":"7S","target":2}
//   kind 6 done_asking                         {"type":"done_asking"}
//   kind 7 deal     the next dealer shuffles and deals the next round {"type":"deal"};
//                   until then the finished round (capture piles, scoring) stays
//                   in the views, and no card of the new round is in any event of
//                   the play that ended the old one.
// Build ids count from B1 in each round; a round makes at most 48 builds (each
// is made by a card from hand), so they fit the 64-bit set2.
//
// Choices where casino.md leaves room (see docs/rules-casino.md):
//   * The ask step of a capture (CA-6.2) comes before anything else that
//     follows the play: the next deal, or the end of the round.
//   * After a capture that empties the table the next player may only trail
//     (CA-7.2), with or without the sweeps option: the table is empty anyway.
#pragma once

#include <cstdint>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/rng.h"

namespace casa::casino {

CreateResult create(int players, const Value& options, std::uint64_t seed);
// The game as the registry lists it (engine/registry.h): name, player counts, options.
GameInfo game_info();

// The rule-following server bot for this game ("robot" in engine/bots.h); `game`
// must be a game created by create() and `seat` one of its seats to act.
Action rule_bot_action(const Game& game, Seat seat, Rng& rng);

}  // namespace casa::casino
