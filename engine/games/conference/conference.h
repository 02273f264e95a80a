// SPDX-License-Identifier: AGPL-3.0-or-later
// Conference (rules: shared/rules/conference.md, ids CO-…): a four-player
// partnership trick game for the Tarot of Loka, with the options Good & Evil
// (as trumps or Allegiance), Attack & Defence and Gallowglass.
//
// Seats and sides (CO-2.1): seats 0+1 are side 0, seats 2+3 side 1; a seat's
// partner is seat ^ 1; seat n+1 is on seat n's left.
//
// Options (CO-10), with their defaults:
//   good_evil       "off" | "trumps" | "allegiance"   ("off": 78 cards, else 80)
//   attack_defence  bool (also "on"/"off")              false
//   gallowglass     bool (also "on"/"off")              false
//   hands           hands per game, 1..1000             4
// Testing options:
//   dealer          first dealer seat 0..3 (default: drawn from the seed)
//   deck            the shuffled order of the FIRST hand: all 78 (or 80) ids once.
//                   With attack_defence, T21 and T20 are first taken out of it (the
//                   dealer gets T21, the partner T20) and the rest keeps its order.
//                   The cards are then dealt from position 0 in four rounds of
//                   packets, 4, 5, 5, 5 cards (3 instead of 4 in the first round for
//                   the dealer and partner with attack_defence); in each round the
//                   packets go to eldest (dealer + 1), dealer + 2, dealer + 3, then
//                   the dealer. The remaining 2 (4 with Good & Evil) cards go to the
//                   dealer. Plain game, dealer d: positions 0-3 to d+1, 4-7 d+2,
//                   8-11 d+3, 12-15 d, 16-20 d+1, 21-25 d+2, 26-30 d+3, 31-35 d,
//                   36-55 and 56-75 likewise in packets of 5, 76-77 (76-79) to d.
//                   Later hands are shuffled from the seed.
//
// Actions (Action fields: kind, card = card index of cards.h, arg):
//   {"type":"discard","card":"E3"}                      CO-3.2, one card per action
//   {"type":"name_gallowglass","suit":"fire"|"none"}    CO-8.1 (arg: suit 0..3, 4 none)
//   {"type":"play","card":"T5"}                         CO-4
//   {"type":"play","card":"GOOD","call":"ours"|"yours"} CO-6.3(a)/(c): a play that
//                   carries a call lists both calls (arg bits 0-1: 1 ours, 2 yours)
//   {"type":"play","card":"EQ","as_gallowglass":true}   CO-8.2 (arg bit 2): a
//                   gallowglass card played in place of the led suit; the flag is
//                   present exactly when the play counts as gallowglass
//   {"type":"deal"}  the next dealer deals the next hand; the finished hand stays on
//                   the table (tricks, discard, the Fool's payment, points) until then
//
// Reading choices (see also docs/rules-conference.md):
//  * The deal always goes clockwise, even when Attack & Defence reverses play.
//  * Scores are game points per seat, both partners showing their side's total.
#pragma once

#include <cstdint>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/rng.h"

namespace casa::conference {

CreateResult create(int players, const Value& options, std::uint64_t seed);
// The game as the registry lists it (engine/registry.h): name, player counts, options.
GameInfo game_info();

// The rule-following server bot for this game ("robot" in engine/bots.h); `game`
// must be a game created by create() and `seat` one of its seats to act.
Action rule_bot_action(const Game& game, Seat seat, Rng& rng);

}  // namespace casa::conference
