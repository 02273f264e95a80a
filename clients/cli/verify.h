// casa verify: checks a finished game's replay (GET /api/tables/{table}/replay)
// without trusting the server (docs/fair-play.md). It owns these checks, in order,
// and stops at the first that fails:
//
//  1. The revealed salt and seed hash to the commitment the table published (the
//     replay's, and the one the player noted, when given).
//  2. The engine, created from the replay's game, players, options and seed, deals
//     exactly the replay's initial state (every hand).
//  3. Every logged action, in order, comes from a seat that had to act and is one
//     of that seat's legal actions; the state after it is the logged state.
//  4. The game is then over, with the replay's final state, scores and winners.
//
// The engine runs locally: nothing but the replay's JSON comes from the server.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/game.h"

namespace casa::cli {

struct Verdict {
  bool honest = false;
  std::string mismatch;  // the first check that failed, in words (empty when honest)
  int actions_checked = 0;
  std::string commitment;  // the hash that was checked
};

// How to create a game (engine's create_game by default; tests add their own games).
using GameMaker = std::function<CreateResult(std::string_view, int, const Value&, std::uint64_t)>;

// `published`: the commitment the player saw in table_state, if they noted it.
Verdict verify_replay(const nlohmann::json& replay, const std::optional<std::string>& published = std::nullopt,
                      const GameMaker& make = {});

}  // namespace casa::cli
