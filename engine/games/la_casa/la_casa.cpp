// SPDX-License-Identifier: AGPL-3.0-or-later
// la_casa::create: builds the right La Casa game for the format (the options
// themselves are declared and read in options.cpp).
#include "engine/games/la_casa/la_casa.h"

#include <string>

#include "engine/games/la_casa/domination.h"
#include "engine/games/la_casa/options.h"
#include "engine/games/la_casa/solo.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

CreateResult create(int players, const Value& options, std::uint64_t seed) {
  if (!options.is_object()) return {nullptr, bad_option("Options must be an object.")};
  const std::string format = options.get_string("format", "challenges");
  if (players == 1 || format == "solo") return create_solo(players, options, seed);
  if (format == "domination") {
    if (players != 2) return {nullptr, Error{"bad_players", "Domination is for two players."}};
    return create_domination(players, options, seed);
  }
  if (players != 2 && players != 4)
    return {nullptr, Error{"bad_players", "La Casa is played by 1, 2 or 4 players."}};
  TableOptions o;
  if (auto err = read_table_options(players, options, o)) return {nullptr, *err};
  return {std::make_unique<LaCasaGame>(o, seed), std::nullopt};
}

}  // namespace casa::la_casa
