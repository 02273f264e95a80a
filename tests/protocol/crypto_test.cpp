// SPDX-License-Identifier: AGPL-3.0-or-later
// The SHA-256 behind the deal commitment is OpenSSL's, through protocol/crypto.h's
// sha256_hex (the server publishes with it, casa verify checks with it): the FIPS
// 180-4 examples come out as 64 lowercase hex digits, and the commitment example of
// docs/fair-play.md is what `sha256sum` gives.
#include "protocol/crypto.h"

#include <doctest/doctest.h>

#include <string>

#include "protocol/deal_commitment.h"

TEST_CASE("SHA-256: the FIPS 180-4 examples, as lowercase hex") {
  CHECK(casa::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(casa::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(casa::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(casa::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("the deal commitment of docs/fair-play.md") {
  CHECK(casa::deal_commitment_text("00112233445566778899aabbccddeeff", 42) ==
        "00112233445566778899aabbccddeeff:42");
  CHECK(casa::deal_commitment_hash("00112233445566778899aabbccddeeff", 42) ==
        "7b3b098f58012e7d32d1b88bb5c8c546db559a7456e83c682c425606378d844d");
  CHECK(casa::deal_commitment_hash("00112233445566778899aabbccddeeff", 42) ==
        casa::sha256_hex(casa::deal_commitment_text("00112233445566778899aabbccddeeff", 42)));
}
