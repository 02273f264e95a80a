// Entry point of the conference game for the engine registry.
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::conference {

CreateResult create(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::conference
