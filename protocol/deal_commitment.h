// SPDX-License-Identifier: AGPL-3.0-or-later
// The commitment a table publishes to its deal before play starts, and the one
// place that defines its bytes (docs/fair-play.md). It owns these invariants:
//
//  * The committed text is the lowercase hex of the table's salt, one ':' and
//    the seed in decimal (unsigned 64 bits, no sign, no leading zeros), in ASCII:
//    "3f2a…9c:1234567890". The hash is the lowercase hex SHA-256 of that text.
//  * A salt is kDealSaltBytes bytes from the operating system's CSPRNG, fresh for
//    every table (a rematch or a table sharing its seed with others gets its own),
//    so a commitment tells nothing about a seed, not even that two tables share one.
//  * The hash is OpenSSL's SHA-256 (protocol/crypto.h's sha256_hex), one function
//    for the server that publishes the commitment and for casa verify; the browser
//    hashes the same text with WebCrypto (verify/verify.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace casa {

inline constexpr std::size_t kDealSaltBytes = 16;
inline constexpr std::string_view kDealCommitmentAlgorithm = "sha256";

// A new salt: kDealSaltBytes random bytes as lowercase hex. Throws
// std::runtime_error when the system has no randomness to give. (OpenSSL:
// casa_deal_commitment, deal_commitment.cpp.)
std::string new_deal_salt();

// Lowercase hex SHA-256 of deal_commitment_text(salt_hex, seed), by sha256_hex.
// (OpenSSL: casa_deal_commitment, deal_commitment.cpp.)
std::string deal_commitment_hash(std::string_view salt_hex, std::uint64_t seed);

// The text that is hashed: "<salt>:<seed>". (No library: casa_deal_commitment_text,
// deal_commitment_text.cpp, also built for WebAssembly.)
std::string deal_commitment_text(std::string_view salt_hex, std::uint64_t seed);

// True when `salt_hex` has the form new_deal_salt() gives (lowercase hex, the
// right length): a revealed salt in any other form does not match a commitment.
bool is_deal_salt(std::string_view salt_hex);

}  // namespace casa
