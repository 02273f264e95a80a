// SPDX-License-Identifier: AGPL-3.0-or-later
// The games this engine runs. Each game describes itself in its own folder (a
// GameInfo: its name, player counts, options, create() and robot) and is listed
// once, in registry.cpp. create_game() and game_names() (engine/game.h) read
// this list; so do the server's catalogue and its checks of table options.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/game.h"
#include "engine/options.h"
#include "engine/rng.h"

namespace casa {

struct GameInfo {
  std::string_view name;         // "la-casa", "casino", ...
  std::string_view title;        // for people: "La Casa"
  std::string_view description;  // a sentence or two for the game list
  std::string_view teams;        // who plays with whom, for people
  std::vector<int> players;      // the player counts it accepts
  // Creates a game from options (an object, already checked to be one).
  CreateResult (*create)(int players, const Value& options, std::uint64_t seed) = nullptr;
  // The rule-following "robot" (engine/bots.h); nullptr if the game has none.
  Action (*rule_bot)(const Game& game, Seat seat, Rng& rng) = nullptr;
  // The options, one mode per way of reading them (engine/options.h).
  std::vector<OptionMode> option_modes;
  // Schema members of the whole options object that the options' own
  // declarations cannot say (conditions between options), JSON text; or empty.
  std::string_view schema_json{};
};

// Every game, in the order the catalogue lists them.
const std::vector<GameInfo>& all_games();
// The game called `name`, or nullptr.
const GameInfo* find_game(std::string_view name);
// The names of the options of `game` that only test servers accept (every mode's);
// empty for a game the engine does not know.
std::vector<std::string> testing_options(std::string_view game);

}  // namespace casa
