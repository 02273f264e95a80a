#include "engine/games/conference/conference.h"

namespace casa::conference {

CreateResult create(int, const Value&, std::uint64_t) {
  return {nullptr, Error{"unknown_game", "The conference game is not available yet."}};
}

}  // namespace casa::conference
