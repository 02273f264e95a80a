#include "protocol/deal_commitment.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace casa {

namespace {
std::string to_hex(const unsigned char* p, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}
}  // namespace

std::string new_deal_salt() {
  unsigned char bytes[kDealSaltBytes];
  if (RAND_bytes(bytes, static_cast<int>(kDealSaltBytes)) != 1) {
    throw std::runtime_error("no randomness available for a deal salt");
  }
  return to_hex(bytes, kDealSaltBytes);
}

std::string deal_commitment_text(std::string_view salt_hex, std::uint64_t seed) {
  std::string text(salt_hex);
  text += ':';
  text += std::to_string(seed);
  return text;
}

std::string deal_commitment_hash(std::string_view salt_hex, std::uint64_t seed) {
  const std::string text = deal_commitment_text(salt_hex, seed);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 is not available");
  }
  return to_hex(digest, length);
}

bool is_deal_salt(std::string_view salt_hex) {
  if (salt_hex.size() != kDealSaltBytes * 2) return false;
  for (char c : salt_hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace casa
