#include "engine/games/trophy_case/trophy_case.h"

namespace casa::trophy_case {

CreateResult create(int, const Value&, std::uint64_t) {
  return {nullptr, Error{"unknown_game", "The trophy-case game is not available yet."}};
}

}  // namespace casa::trophy_case
