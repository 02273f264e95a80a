// SPDX-License-Identifier: AGPL-3.0-or-later
// WebAuthn verification (server/accounts/webauthn.h) against authenticators
// made here: keys from OpenSSL, authenticator data and attestation objects built
// byte by byte and with libcbor, signed as an authenticator signs. Each refusal
// the ceremonies owe is provoked once, and malformed input of every kind gives a
// refusal, never a crash.
#include <doctest/doctest.h>

#include <string>

#include "tests/server/webauthn_authenticator.h"

namespace {

using namespace casa::testing::webauthn;

const std::string kChallenge = "0123456789abcdef0123456789abcdef";

wa::StoredCredential stored(const wa::NewCredential& c) { return {c.public_key, c.sign_count}; }

}  // namespace

TEST_CASE("WebAuthn: a passkey registers and then signs in, for ES256, EdDSA and RS256") {
  for (int alg : wa::kAlgorithms) {
    CAPTURE(alg);
    Authenticator authenticator(alg);
    authenticator.counter = 3;
    auto reg = authenticator.create(kChallenge);
    auto created = wa::verify_registration(expectation(kChallenge), reg.client, reg.object);
    REQUIRE_MESSAGE(created.ok(), created.refusal.message);
    CHECK(created.value->credential_id == authenticator.credential_id);
    CHECK(created.value->algorithm == alg);
    CHECK(created.value->sign_count == 3);
    CHECK(created.value->format == "none");
    CHECK(created.value->user_verified);
    CHECK(wa::check_public_key(created.value->public_key).value == alg);

    authenticator.counter = 4;
    const std::string challenge2 = "another challenge, 32 bytes long";
    auto a = authenticator.get(challenge2, "https://play.casa.example");
    auto signed_in = wa::verify_assertion(expectation(challenge2), stored(*created.value), a.client, a.auth, a.signature);
    REQUIRE_MESSAGE(signed_in.ok(), signed_in.refusal.message);
    CHECK(signed_in.value->sign_count == 4);
  }
}

TEST_CASE("WebAuthn: packed attestation, self-signed by the credential or by a certificate's key") {
  for (int alg : wa::kAlgorithms) {
    CAPTURE(alg);
    Authenticator authenticator(alg);
    auto reg = authenticator.create(kChallenge, "packed");
    auto created = wa::verify_registration(expectation(kChallenge), reg.client, reg.object);
    REQUIRE_MESSAGE(created.ok(), created.refusal.message);
    CHECK(created.value->format == "packed");
  }

  Authenticator authenticator(wa::kEs256);
  Pkey attestation_key = new_key(wa::kEs256);
  std::string certificate = self_signed_certificate(attestation_key.get());
  std::string client = client_data("webauthn.create", kChallenge);
  std::string auth = authenticator.auth_data(true);
  auto object = authenticator.attestation_object("packed", auth, client, attestation_key.get(), certificate);
  auto created = wa::verify_registration(expectation(kChallenge), client, object);
  REQUIRE_MESSAGE(created.ok(), created.refusal.message);

  // The certificate names one key, another key signed.
  Pkey other = new_key(wa::kEs256);
  object = authenticator.attestation_object("packed", auth, client, other.get(), certificate);
  CHECK(wa::verify_registration(expectation(kChallenge), client, object).refusal.code == "bad_signature");
  // Not a certificate.
  object = authenticator.attestation_object("packed", auth, client, attestation_key.get(), "not DER");
  CHECK(wa::verify_registration(expectation(kChallenge), client, object).refusal.code == "bad_attestation");
  // A self attestation whose signature is over other client data.
  std::string other_client = client_data("webauthn.create", "a different challenge");
  object = authenticator.attestation_object("packed", auth, other_client);
  CHECK(wa::verify_registration(expectation(kChallenge), client, object).refusal.code == "bad_signature");
}

TEST_CASE("WebAuthn: a registration is refused for the wrong challenge, origin, type, relying party or flags") {
  Authenticator authenticator(wa::kEs256);
  auto refused = [&](const Authenticator& a, const wa::Expectation& e, const std::string& origin = kOrigin) {
    auto reg = a.create(kChallenge, "none", origin);
    auto result = wa::verify_registration(e, reg.client, reg.object);
    CHECK(result.ok() == result.refusal.code.empty());
    CHECK(result.ok() == result.refusal.message.empty());
    return result.refusal.code;
  };
  CHECK(refused(authenticator, expectation("the challenge of another ceremony")) == "wrong_challenge");
  CHECK(refused(authenticator, expectation(kChallenge), "https://evil.example") == "wrong_origin");
  CHECK(refused(authenticator, expectation(kChallenge), "http://casa.example") == "wrong_origin");

  Authenticator elsewhere(wa::kEs256);
  elsewhere.rp_id = "evil.example";
  CHECK(refused(elsewhere, expectation(kChallenge)) == "wrong_rp_id");

  Authenticator absent(wa::kEs256);
  absent.flags = wa::kFlagUserVerified;  // UP missing
  CHECK(refused(absent, expectation(kChallenge)) == "user_not_present");

  Authenticator unverified(wa::kEs256);
  unverified.flags = wa::kFlagUserPresent;
  auto must_verify = expectation(kChallenge);
  must_verify.require_user_verification = true;
  CHECK(refused(unverified, must_verify) == "user_not_verified");
  CHECK(refused(unverified, expectation(kChallenge)) == "");  // accepted when UV is not asked for

  Authenticator backed_up(wa::kEs256);
  backed_up.flags = wa::kFlagUserPresent | wa::kFlagBackedUp;  // BS without BE
  CHECK(refused(backed_up, expectation(kChallenge)) == "bad_authenticator_data");

  // A sign-in's client data offered to registration.
  auto a = authenticator.get(kChallenge);
  auto object = authenticator.attestation_object("none", authenticator.auth_data(true), a.client);
  CHECK(wa::verify_registration(expectation(kChallenge), a.client, object).refusal.code == "wrong_type");

  // A frame of another origin.
  std::string framed = client_data("webauthn.create", kChallenge, kOrigin, true);
  object = authenticator.attestation_object("none", authenticator.auth_data(true), framed);
  CHECK(wa::verify_registration(expectation(kChallenge), framed, object).refusal.code == "cross_origin");

  // Authenticator data without the new credential.
  auto reg = authenticator.create(kChallenge);
  object = authenticator.attestation_object("none", authenticator.auth_data(false), reg.client);
  CHECK(wa::verify_registration(expectation(kChallenge), reg.client, object).refusal.code == "bad_authenticator_data");

  // Formats not supported.
  object = authenticator.attestation_object("fido-u2f", authenticator.auth_data(true), reg.client);
  CHECK(wa::verify_registration(expectation(kChallenge), reg.client, object).refusal.code ==
        "unsupported_attestation");
}

TEST_CASE("WebAuthn: a sign-in is refused for a bad signature, a counter that goes back, and the wrong context") {
  Authenticator authenticator(wa::kEs256);
  authenticator.counter = 10;
  auto reg = authenticator.create(kChallenge);
  auto created = wa::verify_registration(expectation(kChallenge), reg.client, reg.object);
  REQUIRE(created.ok());
  auto credential = stored(*created.value);

  authenticator.counter = 11;
  auto good = authenticator.get(kChallenge);
  auto verify = [&](const std::string& client, const std::string& auth, const std::string& signature,
                    const wa::Expectation& e = expectation(kChallenge)) {
    auto result = wa::verify_assertion(e, credential, client, auth, signature);
    CHECK(result.ok() == result.refusal.code.empty());
    return result.refusal.code;
  };
  CHECK(verify(good.client, good.auth, good.signature) == "");

  // Bad signatures: another key, a flipped bit, data changed after signing.
  Authenticator impostor(wa::kEs256);
  impostor.counter = 11;
  auto forged = impostor.get(kChallenge);
  CHECK(verify(forged.client, forged.auth, forged.signature) == "bad_signature");
  std::string flipped = good.signature;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x01);
  CHECK(verify(good.client, good.auth, flipped) == "bad_signature");
  CHECK(verify(good.client, good.auth, "") == "bad_signature");
  std::string raised = good.auth;
  raised[36] = static_cast<char>(raised[36] + 1);  // the counter, after signing
  CHECK(verify(good.client, raised, good.signature) == "bad_signature");

  // The counter: below, or equal to, what was stored.
  authenticator.counter = 5;
  auto behind = authenticator.get(kChallenge);
  CHECK(verify(behind.client, behind.auth, behind.signature) == "counter_went_back");
  authenticator.counter = 10;
  auto same = authenticator.get(kChallenge);
  CHECK(verify(same.client, same.auth, same.signature) == "counter_went_back");

  // Context.
  authenticator.counter = 12;
  auto a = authenticator.get(kChallenge);
  CHECK(verify(a.client, a.auth, a.signature, expectation("a challenge used before")) == "wrong_challenge");
  auto evil = authenticator.get(kChallenge, "https://casa.example.evil.example");
  CHECK(verify(evil.client, evil.auth, evil.signature) == "wrong_origin");
  std::string create_data = client_data("webauthn.create", kChallenge);
  CHECK(verify(create_data, a.auth, sign(authenticator.key.get(), wa::kEs256, a.auth + sha256(create_data))) ==
        "wrong_type");
  authenticator.flags = 0;
  auto absent = authenticator.get(kChallenge);
  CHECK(verify(absent.client, absent.auth, absent.signature) == "user_not_present");
  authenticator.flags = wa::kFlagUserPresent;
  authenticator.rp_id = "other.example";
  auto other_rp = authenticator.get(kChallenge);
  CHECK(verify(other_rp.client, other_rp.auth, other_rp.signature) == "wrong_rp_id");
}

TEST_CASE("WebAuthn: an authenticator without a counter (always zero) is accepted") {
  Authenticator authenticator(wa::kEdDsa);
  auto reg = authenticator.create(kChallenge);
  auto created = wa::verify_registration(expectation(kChallenge), reg.client, reg.object);
  REQUIRE(created.ok());
  for (int i = 0; i < 2; ++i) {
    auto a = authenticator.get(kChallenge);
    auto result = wa::verify_assertion(expectation(kChallenge), stored(*created.value), a.client, a.auth, a.signature);
    REQUIRE_MESSAGE(result.ok(), result.refusal.message);
    CHECK(result.value->sign_count == 0);
  }
}

TEST_CASE("WebAuthn: public keys that are not acceptable") {
  // A P-256 point off the curve.
  Pkey key = new_key(wa::kEs256);
  cbor_item_t* map = cbor_new_definite_map(5);
  put(map, cbor_int(1), cbor_int(2));
  put(map, cbor_int(3), cbor_int(-7));
  put(map, cbor_int(-1), cbor_int(1));
  put(map, cbor_int(-2), cbor_bytes(std::string(32, '\x01')));
  put(map, cbor_int(-3), cbor_bytes(std::string(32, '\x02')));
  CHECK(wa::check_public_key(serialize(map)).refusal.code == "bad_public_key");

  // RSA below 2048 bits.
  Pkey small = new_key(wa::kRs256, 1024);
  CHECK(wa::check_public_key(cose_key(small.get(), wa::kRs256)).refusal.code == "bad_public_key");

  // ES384 (-35): not offered, not accepted.
  map = cbor_new_definite_map(2);
  put(map, cbor_int(1), cbor_int(2));
  put(map, cbor_int(3), cbor_int(-35));
  CHECK(wa::check_public_key(serialize(map)).refusal.code == "unsupported_algorithm");

  // alg given twice (the second would be read by a sloppy parser).
  std::string good = cose_key(key.get(), wa::kEs256);
  CHECK(wa::check_public_key(good).ok());
  map = cbor_new_definite_map(2);
  put(map, cbor_int(3), cbor_int(-7));
  put(map, cbor_int(3), cbor_int(-8));
  CHECK(wa::check_public_key(serialize(map)).refusal.code == "bad_public_key");

  // Bytes after the key, not a map, nothing.
  CHECK(wa::check_public_key(good + "x").refusal.code == "bad_public_key");
  CHECK(wa::check_public_key(std::string("\x01", 1)).refusal.code == "bad_public_key");
  CHECK(wa::check_public_key("").refusal.code == "bad_public_key");
}

TEST_CASE("WebAuthn: malformed CBOR and truncated data are refused, never a crash") {
  Authenticator authenticator(wa::kEs256);
  auto reg = authenticator.create(kChallenge);
  // Every prefix of an attestation object and of authenticator data.
  for (std::size_t n = 0; n < reg.object.size(); ++n) {
    auto result = wa::verify_registration(expectation(kChallenge), reg.client, reg.object.substr(0, n));
    CHECK_FALSE(result.ok());
  }
  std::string auth = authenticator.auth_data(true);
  for (std::size_t n = 0; n < auth.size(); ++n) CHECK_FALSE(wa::parse_authenticator_data(auth.substr(0, n)).ok());
  CHECK(wa::parse_authenticator_data(auth).ok());
  CHECK(wa::parse_authenticator_data(auth + std::string(1, '\0')).refusal.code == "bad_authenticator_data");

  auto refused = [](std::string bytes) {
    auto result = wa::parse_attestation_object(bytes);
    return result.refusal.code;
  };
  // Collections that declare more members than there are bytes (2^36 items).
  CHECK(refused(std::string("\x9b\x00\x00\x00\x10\x00\x00\x00\x00", 9)) == "bad_attestation");
  CHECK(refused(std::string("\xbb\x00\x00\x00\x10\x00\x00\x00\x00", 9)) == "bad_attestation");
  CHECK(refused(std::string("\x5b\x00\x00\x00\x10\x00\x00\x00\x00", 9)) == "bad_attestation");
  // Indefinite lengths (not canonical CTAP2 CBOR).
  CHECK(refused(std::string("\xbf\x63\x66\x6d\x74\x64\x6e\x6f\x6e\x65\xff", 11)) == "bad_attestation");
  // Nested a thousand arrays deep.
  CHECK(refused(std::string(1000, '\x81') + "\x00") == "bad_attestation");
  // Not CBOR at all, and a valid CBOR item that is not a map.
  CHECK(refused("\xff\xff\xff") == "bad_attestation");
  CHECK(refused(std::string("\x18", 1)) == "bad_attestation");
  CHECK(refused("\x64none") == "bad_attestation");
  // A map without authData.
  cbor_item_t* map = cbor_new_definite_map(2);
  put(map, cbor_build_string("fmt"), cbor_build_string("none"));
  put(map, cbor_build_string("attStmt"), cbor_new_definite_map(0));
  CHECK(refused(serialize(map)) == "bad_attestation");

  // Client data that is not what a browser writes.
  for (std::string bad : {"", "[]", "{", "{\"type\":\"webauthn.create\"}",
                          "{\"type\":\"webauthn.create\",\"challenge\":\"a=\",\"origin\":\"x\"}",
                          "{\"type\":1,\"challenge\":\"AA\",\"origin\":\"x\"}",
                          "{\"type\":\"webauthn.create\",\"challenge\":\"AA\",\"origin\":\"x\",\"crossOrigin\":\"no\"}",
                          "{\"type\":\"webauthn.create\",\"challenge\":\"AA\",\"origin\":\"\xff\"}"}) {
    CAPTURE(bad);
    CHECK(wa::parse_client_data(bad).refusal.code == "bad_client_data");
    CHECK(wa::verify_registration(expectation(kChallenge), bad, reg.object).refusal.code == "bad_client_data");
  }
}

TEST_CASE("WebAuthn: base64url without padding") {
  for (std::string bytes : {"", "f", "fo", "foo", "foob", "fooba", "foobar", "\xff\xfe\xfd"}) {
    CAPTURE(bytes);
    auto text = wa::base64url_encode(bytes);
    CHECK(text.find('=') == std::string::npos);
    CHECK(wa::base64url_decode(text) == bytes);
  }
  CHECK(wa::base64url_encode("\xfb\xff") == "-_8");
  CHECK_FALSE(wa::base64url_decode("Zg==").has_value());  // padding
  CHECK_FALSE(wa::base64url_decode("Z").has_value());     // impossible length
  CHECK_FALSE(wa::base64url_decode("Zh").has_value());    // bits left over
  CHECK_FALSE(wa::base64url_decode("a+b/").has_value());  // the other alphabet
}
