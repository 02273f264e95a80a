#include "engine/games/la_casa/la_casa.h"

namespace casa::la_casa {

CreateResult create(int, const Value&, std::uint64_t) {
  return {nullptr, Error{"unknown_game", "The la-casa game is not available yet."}};
}

}  // namespace casa::la_casa
