// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/solo.h"

#include <memory>
#include <string>

#include "engine/games/la_casa/options.h"
#include "engine/games/la_casa/solo_game.h"

namespace casa::la_casa {

CreateResult create_solo(int players, const Value& options, std::uint64_t seed) {
  if (players != 1) {
    return {nullptr, Error{"bad_players", "La Casa Solo is played by exactly one player."}};
  }
  SoloSetup setup;
  setup.seed = seed;
  if (auto err = read_solo_options(options, setup)) return {nullptr, std::move(err)};
  return {std::make_unique<SoloGame>(setup), std::nullopt};
}

}  // namespace casa::la_casa
