#include "engine/games/la_casa/solo.h"

namespace casa::la_casa {

CreateResult create_solo(int, const Value&, std::uint64_t) {
  return {nullptr, Error{"bad_option", "La Casa solo mode is not available yet."}};
}

}  // namespace casa::la_casa
