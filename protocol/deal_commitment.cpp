#include "protocol/deal_commitment.h"

#include "protocol/sha256.h"

namespace casa {

std::string deal_commitment_text(std::string_view salt_hex, std::uint64_t seed) {
  std::string text(salt_hex);
  text += ':';
  text += std::to_string(seed);
  return text;
}

std::string deal_commitment_hash(std::string_view salt_hex, std::uint64_t seed) {
  return sha256_hex_portable(deal_commitment_text(salt_hex, seed));
}

bool is_deal_salt(std::string_view salt_hex) {
  if (salt_hex.size() != kDealSaltBytes * 2) return false;
  for (char c : salt_hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace casa
