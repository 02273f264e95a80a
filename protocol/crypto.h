// SPDX-License-Identifier: AGPL-3.0-or-later
// The few cryptographic pieces the server and the CLI share, all from OpenSSL's
// libcrypto: the operating system's random bytes, lowercase hex, and SHA-256.
// Used for deal commitments (deal_commitment.h), resume tokens, table ids,
// invite codes and seeds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace casa {

// Fills `out` with `n` bytes from the system's cryptographic generator. Throws
// std::runtime_error when it has none to give.
void random_bytes(unsigned char* out, std::size_t n);

// 64 hex characters from the system's cryptographic generator.
std::string random_token();
// 64 bits from the same generator (a table's seed).
std::uint64_t random_seed();

// Two lowercase hex digits a byte.
std::string to_hex(const unsigned char* bytes, std::size_t n);

// The lowercase hex SHA-256 of `text`. Throws std::runtime_error when SHA-256
// is not available.
std::string sha256_hex(std::string_view text);

}  // namespace casa
