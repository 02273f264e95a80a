// SPDX-License-Identifier: AGPL-3.0-or-later
// Entry point of the trophy-case game for the engine registry.
//
// Rules: /work/shared/rules/trophy-case.md (ids TC-…). Readings this engine makes
// where the spec leaves room (see also docs/rules-trophy-case.md):
//
//  * Actions: {"type":"play","card":"MAZ7"} (Action.kind = kPlay, Action.card = card
//    index, see cards.h) and {"type":"fold"} (kind = kFold). Mud plays (TC-4.5) and
//    redeals (TC-3.2) are never asked for: apply() does them and reports them as
//    public events ("mud", "redeal").
//  * Dealing (TC-2.2): the stock is an ordered list, position 0 dealt first. A hand
//    takes the next players × hand-size cards in blocks of hand-size: the first block
//    to the dealer's left-hand neighbour (dealer + 1), the next to dealer + 2, …, the
//    last block to the dealer. The next hands before a reshuffle continue from where
//    the previous hand stopped, with their own dealer (one seat further clockwise).
//    Hands 1, 4, 7, … (redeals count) start from a freshly shuffled stock of all 174
//    cards.
//  * A redeal (TC-3.2) is a new hand: the dealer moves on and it counts towards the
//    reshuffle cycle; it does not count as a hand played for the `hands` option.
//
// Options (an object; unknown keys are "bad_option"):
//  * "target"  int >= 1, default 30 (TC-7): the score that ends the game.
//  * Testing options:
//    - "deck":   list of the 174 card ids, each once: the stock order of the first
//                shuffle (position 0 is dealt first, as above). Later reshuffles use
//                the seed.
//    - "dealer": the first dealer's seat (default: drawn from the seed, TC-2.1).
//    - "hands" (or its synonym "rounds"): int >= 1; the game also ends when that many
//                hands have ended under TC-6.3 (the target still ends it earlier).
//                Then every seat with the highest score wins: a tie gives several
//                winners.
//
// Views: {"game","seat","to_act","phase","scores","target","dealer","hand_number",
// "hands_left_before_reshuffle","stock_size","hand_sizes","set_aside","shown",
// "trick","last_trick","winners"} plus "hand" (own cards) for a seat. See
// trophy_case_game.h for the details.
#pragma once

#include <cstdint>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/rng.h"

namespace casa::trophy_case {

inline constexpr std::uint16_t kPlay = 1;
inline constexpr std::uint16_t kFold = 2;

CreateResult create(int players, const Value& options, std::uint64_t seed);
// The game as the registry lists it (engine/registry.h): name, player counts, options.
GameInfo game_info();

// The rule-following server bot for this game ("robot" in engine/bots.h); `game`
// must be a game created by create() and `seat` one of its seats to act.
Action rule_bot_action(const Game& game, Seat seat, Rng& rng);

}  // namespace casa::trophy_case
