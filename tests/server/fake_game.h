// SPDX-License-Identifier: AGPL-3.0-or-later
// "fake-trick": a tiny trick game that exists only in the server tests, so the
// server can be exercised without any real game. 1–4 seats, `hand` cards each
// (option, default 3), cards "X0".."Xn" ranked by number.
//
//  1. Bids: every seat at once (simultaneous) bids 0..hand tricks. A seat's bid
//     is private until all have bid: others see only {"type":"bid_made"}.
//  2. Play: seat 0 leads; each seat plays any card; the highest card wins the
//     trick and leads the next. Score: tricks won, +10 for making the bid.
//  4 seats: teams [[0,2],[1,3]] in the view (for team chat).
// Options: hand (1..5), deck (list of card ids: seat s gets positions
// s*hand .. s*hand+hand-1).
#pragma once

#include "engine/game.h"

namespace casa::testing {

CreateResult create_fake_trick(int players, const Value& options, std::uint64_t seed);

// The engine's registry plus fake-trick, and the game list to match.
CreateResult create_test_game(std::string_view name, int players, const Value& options, std::uint64_t seed);
std::vector<std::string> test_game_names();

}  // namespace casa::testing
