// Entry point of the la-casa game for the engine registry.
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::la_casa {

CreateResult create(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::la_casa
