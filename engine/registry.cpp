// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/casino/casino.h"
#include "engine/games/conference/conference.h"
#include "engine/games/la_casa/la_casa.h"
#include "engine/games/trophy_case/trophy_case.h"
#include "engine/game.h"

namespace casa {

std::vector<std::string> game_names() {
  return {"la-casa", "casino", "conference", "trophy-case"};
}

CreateResult create_game(std::string_view name, int players, const Value& options,
                         std::uint64_t seed) {
  if (!options.is_null() && !options.is_object()) {
    return {nullptr, Error{"bad_option", "Options must be an object."}};
  }
  const Value opts = options.is_null() ? Value::object() : options;
  if (name == "la-casa") return la_casa::create(players, opts, seed);
  if (name == "casino") return casino::create(players, opts, seed);
  if (name == "conference") return conference::create(players, opts, seed);
  if (name == "trophy-case") return trophy_case::create(players, opts, seed);
  return {nullptr, Error{"unknown_game", "There is no game called '" + std::string(name) + "'."}};
}

}  // namespace casa
