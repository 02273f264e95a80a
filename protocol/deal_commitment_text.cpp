// SPDX-License-Identifier: AGPL-3.0-or-later
// The bytes a deal commitment hashes and the form of a salt (deal_commitment.h),
// with no library under them: built natively and for WebAssembly (verify/).
#include "protocol/deal_commitment.h"

namespace casa {

std::string deal_commitment_text(std::string_view salt_hex, std::uint64_t seed) {
  std::string text(salt_hex);
  text += ':';
  text += std::to_string(seed);
  return text;
}

bool is_deal_salt(std::string_view salt_hex) {
  if (salt_hex.size() != kDealSaltBytes * 2) return false;
  for (char c : salt_hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace casa
