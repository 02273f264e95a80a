// SPDX-License-Identifier: AGPL-3.0-or-later
// Entry point of the la-casa game for the engine registry.
#pragma once

#include <cstdint>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/rng.h"

namespace casa::la_casa {

CreateResult create(int players, const Value& options, std::uint64_t seed);
// The game as the registry lists it (engine/registry.h): name, player counts, options.
GameInfo game_info();

// The rule-following server bot for this game ("robot" in engine/bots.h); `game`
// must be a game created by create() and `seat` one of its seats to act.
Action rule_bot_action(const Game& game, Seat seat, Rng& rng);

}  // namespace casa::la_casa
