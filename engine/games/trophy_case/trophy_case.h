// Entry point of the trophy-case game for the engine registry.
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::trophy_case {

CreateResult create(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::trophy_case
