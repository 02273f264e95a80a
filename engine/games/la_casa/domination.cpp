#include "engine/games/la_casa/domination.h"

namespace casa::la_casa {

CreateResult create_domination(int, const Value&, std::uint64_t) {
  return {nullptr, Error{"bad_option", "La Casa domination mode is not available yet."}};
}

}  // namespace casa::la_casa
