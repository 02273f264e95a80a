// SHA-256 (FIPS 180-4) in portable C++, with no library under it: the deal
// commitment's hash (deal_commitment.h) is computed by this same code in the
// server, in `casa verify` and in the browser's WebAssembly build of the replay
// checks (verify/), where OpenSSL is not available. It owns one invariant: the
// digest is the standard SHA-256 of the bytes given (tests/protocol checks it
// against the FIPS examples and against OpenSSL on every length up to a few blocks).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace casa {

std::array<std::uint8_t, 32> sha256(std::string_view bytes);

// 64 lowercase hex digits.
std::string sha256_hex_portable(std::string_view bytes);

}  // namespace casa
