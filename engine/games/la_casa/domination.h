// La Casa domination mode, created by la_casa::create when the format asks for it.
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace casa::la_casa {

CreateResult create_domination(int players, const Value& options, std::uint64_t seed);

}  // namespace casa::la_casa
