// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa Solo (LC-8): one human (seat 0) against the Robot, created by
// la_casa::create when players == 1 or format == "solo".
//
// The Robot is not a seat. It plays inside apply(): whenever it must play, its
// card (chosen by robot_choose, LC-8.4) is played at once and announced with a
// public event {"type":"play","player":"robot","card":...,"column":c}.
// to_act() is seat 0 until the game is over.
//
// Options (an object; unknown keys or bad values are "bad_option"):
//   format      "solo" (optional here).
//   challenges  bool, default true: the six Solo challenges (LC-8.3) one per round,
//               in an order shuffled from the seed; false: no challenge, the human
//               scores 1 for 11 or more tricks.
//   target      accepted and ignored: the human wins with 4 or more points (LC-8.3).
//   election    only false is accepted: LC-11.14, no Election in Solo.
// Testing options:
//   deck        the 37 card ids in the first round's dealing order (LC-4.8 Solo):
//               deck[0:3], [3:7], [7:12], [12:18] columns 1-4 listed top to foot,
//               deck[18] the Casa, [19:22] the hand, [22:] the pile, top first.
//               Betrayal: the first 1 in deck order is the Casa reference, the
//               second the human's; the other 35 keep their order (hand [18:21],
//               pile [21:35]). A Minions re-deal (LC-4.9) reshuffles from the seed.
//   challenge   the first round's challenge: betrayal, capitano, carita, cousins,
//               minions or revenge (needs challenges == true); the other five
//               follow in an order shuffled from the seed.
//   rounds      1..6: stop after that many rounds (default 6).
//
// Actions: {"type":"play","card":"G5"}; in Cousins {"type":"name_family",
// "family":"masks"} before the first trick; {"type":"deal"} after a round that is
// not the last: the finished round (phase "round_over") stays on the table, its
// last trick and result visible, until the human asks for the next deal.
//
// scores(): {the human's points}. winners() once over: {0} when the human has 4 or
// more points, otherwise {-1} (kSpectator), which here means "the Robot".
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::la_casa {

// winners() entry that stands for the Robot in a finished Solo game.
inline constexpr Seat kRobotWinner = kSpectator;

CreateResult create_solo(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::la_casa
