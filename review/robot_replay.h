// SPDX-License-Identifier: AGPL-3.0-or-later
// A game the engine's robots play from the deal to the end, written as the
// server's replay (GET /api/tables/{table}/replay): what the review's benchmark
// (`casa review --bench`) and tests review when no table is at hand.
#pragma once

#include <climits>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "engine/game.h"

namespace casa {

// An action played as written, before the robots take over.
struct ScriptedAction {
  Seat seat = 0;
  nlohmann::json action;
};

// `script` first, then the robot ("robot" bot, engine/bots.h) of whichever seat
// must act, seeded with `robot_seed`, until the game is over or `max_actions`
// actions are logged. {"error": "...", "why": "..."} when the game cannot be
// created or a scripted action is refused.
nlohmann::json robot_replay(std::string_view game, int players, const nlohmann::json& options,
                            std::uint64_t seed, const std::vector<ScriptedAction>& script = {},
                            std::uint64_t robot_seed = 1, int max_actions = INT_MAX);

}  // namespace casa
