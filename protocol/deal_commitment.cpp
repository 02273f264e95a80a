// SPDX-License-Identifier: AGPL-3.0-or-later
// The parts of the deal commitment that need OpenSSL: a new table's salt from the
// system's CSPRNG and the hash itself (protocol/crypto.h's sha256_hex, the one
// SHA-256 of the server and of casa verify). The text that is hashed and the salt's
// form are in deal_commitment_text.cpp, which needs no library: the replay checks'
// WebAssembly build (verify/) uses them, with a digest computed by the browser.
#include "protocol/deal_commitment.h"

#include "protocol/crypto.h"

namespace casa {

std::string new_deal_salt() {
  unsigned char bytes[kDealSaltBytes];
  random_bytes(bytes, kDealSaltBytes);
  return to_hex(bytes, kDealSaltBytes);
}

std::string deal_commitment_hash(std::string_view salt_hex, std::uint64_t seed) {
  return sha256_hex(deal_commitment_text(salt_hex, seed));
}

}  // namespace casa
