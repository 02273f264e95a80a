// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/crypto.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <climits>
#include <stdexcept>

namespace casa {

void random_bytes(unsigned char* out, std::size_t n) {
  if (n > INT_MAX || RAND_bytes(out, static_cast<int>(n)) != 1) {
    throw std::runtime_error("no randomness available");
  }
}

std::string to_hex(const unsigned char* bytes, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 is not available");
  }
  return to_hex(digest, length);
}

std::uint64_t random_seed() {
  unsigned char b[8];
  random_bytes(b, 8);
  std::uint64_t seed = 0;
  for (unsigned char c : b) seed = (seed << 8) | c;
  return seed;
}

std::string random_token() {
  unsigned char b[32];
  random_bytes(b, 32);
  return to_hex(b, 32);
}

}  // namespace casa
