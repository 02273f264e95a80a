// fuzz_protocol: arbitrary bytes as a client frame, through the JSON <-> Value
// bridge (protocol/value_json.h). The bridge must never crash, and a Value that
// came from JSON must survive a round trip unchanged.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "protocol/value_json.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_protocol: broken promise: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto frame = nlohmann::json::parse(data, data + size, nullptr, false);
  if (frame.is_discarded()) return 0;
  const casa::Value value = casa::from_json(frame);
  const casa::Value again = casa::from_json(casa::to_json(value));
  require(value == again, "Value -> JSON -> Value is the identity");
  (void)value.debug_string();
  return 0;
}
