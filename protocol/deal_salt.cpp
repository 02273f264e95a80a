// The salt of a new table's deal commitment, from the system's CSPRNG (OpenSSL):
// apart from deal_commitment.cpp so that the checks, which never draw a salt, build
// without OpenSSL (for WebAssembly).
#include "protocol/crypto.h"
#include "protocol/deal_commitment.h"

namespace casa {

std::string new_deal_salt() {
  unsigned char bytes[kDealSaltBytes];
  random_bytes(bytes, kDealSaltBytes);
  return to_hex(bytes, kDealSaltBytes);
}

}  // namespace casa
