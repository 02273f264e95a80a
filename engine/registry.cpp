// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/registry.h"

#include <algorithm>

#include "engine/games/casino/casino.h"
#include "engine/games/conference/conference.h"
#include "engine/games/la_casa/la_casa.h"
#include "engine/games/trophy_case/trophy_case.h"

namespace casa {

// The one place that lists the games: each game's folder describes the game
// (its game_info()), and a new game adds one line here. The games do not add
// themselves from static initialisers: the engine is a static library, and the
// linker keeps an object file only when something refers to it, so a game
// whose file nothing names would silently vanish from the server.
const std::vector<GameInfo>& all_games() {
  static const std::vector<GameInfo> games = {
      la_casa::game_info(),
      casino::game_info(),
      conference::game_info(),
      trophy_case::game_info(),
  };
  return games;
}

const GameInfo* find_game(std::string_view name) {
  for (const GameInfo& g : all_games()) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::vector<std::string> testing_options(std::string_view game) {
  std::vector<std::string> names;
  const GameInfo* g = find_game(game);
  if (!g) return names;
  for (const OptionMode& mode : g->option_modes) {
    for (const OptionSpec* o : mode.options) {
      if (o->testing && std::find(names.begin(), names.end(), o->name) == names.end()) {
        names.emplace_back(o->name);
      }
    }
  }
  return names;
}

std::vector<std::string> game_names() {
  std::vector<std::string> names;
  for (const GameInfo& g : all_games()) names.emplace_back(g.name);
  return names;
}

CreateResult create_game(std::string_view name, int players, const Value& options,
                         std::uint64_t seed) {
  if (!options.is_null() && !options.is_object()) {
    return {nullptr, Error{"bad_option", "Options must be an object."}};
  }
  const GameInfo* game = find_game(name);
  if (!game) {
    return {nullptr, Error{"unknown_game", "There is no game called '" + std::string(name) + "'."}};
  }
  return game->create(players, options.is_null() ? Value::object() : options, seed);
}

}  // namespace casa
