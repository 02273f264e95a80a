// The portable SHA-256 (protocol/sha256.h) behind the deal commitment, which the
// server, casa verify and the browser's WebAssembly checks all run: the FIPS 180-4
// examples, OpenSSL's digest for every length across the one- and two-block
// padding boundaries, and the commitment example of docs/fair-play.md.
#include "protocol/sha256.h"

#include <doctest/doctest.h>

#include <string>

#include "protocol/crypto.h"
#include "protocol/deal_commitment.h"

TEST_CASE("SHA-256: the FIPS 180-4 examples") {
  CHECK(casa::sha256_hex_portable("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(casa::sha256_hex_portable("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(casa::sha256_hex_portable("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(casa::sha256_hex_portable(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256: the same digest as OpenSSL for every length up to three blocks") {
  std::string text;
  for (int n = 0; n <= 200; ++n) {
    CAPTURE(n);
    CHECK(casa::sha256_hex_portable(text) == casa::sha256_hex(text));
    text += static_cast<char>((n * 131 + 7) & 0xff);  // every byte value, high bit included
  }
}

TEST_CASE("the deal commitment of docs/fair-play.md") {
  CHECK(casa::deal_commitment_text("00112233445566778899aabbccddeeff", 42) ==
        "00112233445566778899aabbccddeeff:42");
  CHECK(casa::deal_commitment_hash("00112233445566778899aabbccddeeff", 42) ==
        "7b3b098f58012e7d32d1b88bb5c8c546db559a7456e83c682c425606378d844d");
}
