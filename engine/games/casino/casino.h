// Entry point of the casino game for the engine registry.
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::casino {

CreateResult create(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::casino
