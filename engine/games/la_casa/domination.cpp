// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/domination.h"

#include <memory>
#include <string>

#include "engine/games/la_casa/domination_game.h"
#include "engine/games/la_casa/options.h"

namespace casa::la_casa {

CreateResult create_domination(int players, const Value& options, std::uint64_t seed) {
  if (players != 2) {
    return {nullptr, Error{"bad_players", "Domination is played by exactly two players."}};
  }
  DominationSetup setup;
  setup.seed = seed;
  if (auto err = read_domination_options(options, setup)) return {nullptr, std::move(err)};
  return {std::make_unique<DominationGame>(setup), std::nullopt};
}

}  // namespace casa::la_casa
