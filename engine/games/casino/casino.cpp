#include "engine/games/casino/casino.h"

namespace casa::casino {

CreateResult create(int, const Value&, std::uint64_t) {
  return {nullptr, Error{"unknown_game", "The casino game is not available yet."}};
}

}  // namespace casa::casino
