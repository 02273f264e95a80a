// SPDX-License-Identifier: AGPL-3.0-or-later
// WebAuthn verification (server/accounts/webauthn.h) against authenticators
// made here: keys from OpenSSL, authenticator data and attestation objects built
// byte by byte and with libcbor, signed as an authenticator signs. Each refusal
// the ceremonies owe is provoked once, and malformed input of every kind gives a
// refusal, never a crash.
#include <cbor.h>
#include <doctest/doctest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "server/accounts/webauthn.h"

namespace wa = casa::server::webauthn;

namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

const unsigned char* u8(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

std::string sha256(const std::string& s) {
  std::string out(32, '\0');
  SHA256(u8(s), s.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

Pkey new_key(int alg, int rsa_bits = 2048) {
  switch (alg) {
    case wa::kEs256: return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    case wa::kEdDsa: return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
    default: return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(rsa_bits)));
  }
}

std::string bn_param(EVP_PKEY* key, const char* name, int pad) {
  BIGNUM* bn = nullptr;
  REQUIRE(EVP_PKEY_get_bn_param(key, name, &bn) == 1);
  int size = pad ? pad : BN_num_bytes(bn);
  std::string out(static_cast<std::size_t>(size), '\0');
  BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), size);
  BN_free(bn);
  return out;
}

// CBOR, built with libcbor.
cbor_item_t* cbor_int(long long v) {
  return v >= 0 ? cbor_build_uint64(static_cast<uint64_t>(v)) : cbor_build_negint64(static_cast<uint64_t>(-1 - v));
}
cbor_item_t* cbor_bytes(const std::string& s) { return cbor_build_bytestring(u8(s), s.size()); }
void put(cbor_item_t* map, cbor_item_t* key, cbor_item_t* value) {
  REQUIRE(cbor_map_add(map, cbor_pair{cbor_move(key), cbor_move(value)}));
}
std::string serialize(cbor_item_t* item) {
  unsigned char* buffer = nullptr;
  size_t capacity = 0;
  size_t length = cbor_serialize_alloc(item, &buffer, &capacity);
  std::string out(reinterpret_cast<char*>(buffer), length);
  free(buffer);
  cbor_decref(&item);
  return out;
}

std::string cose_key(EVP_PKEY* key, int alg) {
  cbor_item_t* map = cbor_new_definite_map(5);
  if (alg == wa::kEs256) {
    put(map, cbor_int(1), cbor_int(2));
    put(map, cbor_int(3), cbor_int(alg));
    put(map, cbor_int(-1), cbor_int(1));
    put(map, cbor_int(-2), cbor_bytes(bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, 32)));
    put(map, cbor_int(-3), cbor_bytes(bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, 32)));
  } else if (alg == wa::kEdDsa) {
    std::string raw(32, '\0');
    size_t len = raw.size();
    REQUIRE(EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char*>(raw.data()), &len) == 1);
    put(map, cbor_int(1), cbor_int(1));
    put(map, cbor_int(3), cbor_int(alg));
    put(map, cbor_int(-1), cbor_int(6));
    put(map, cbor_int(-2), cbor_bytes(raw));
  } else {
    put(map, cbor_int(1), cbor_int(3));
    put(map, cbor_int(3), cbor_int(alg));
    put(map, cbor_int(-1), cbor_bytes(bn_param(key, OSSL_PKEY_PARAM_RSA_N, 0)));
    put(map, cbor_int(-2), cbor_bytes(bn_param(key, OSSL_PKEY_PARAM_RSA_E, 0)));
  }
  return serialize(map);
}

std::string sign(EVP_PKEY* key, int alg, const std::string& data) {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  REQUIRE(EVP_DigestSignInit(md, nullptr, alg == wa::kEdDsa ? nullptr : EVP_sha256(), nullptr, key) == 1);
  size_t length = 0;
  REQUIRE(EVP_DigestSign(md, nullptr, &length, u8(data), data.size()) == 1);
  std::string out(length, '\0');
  REQUIRE(EVP_DigestSign(md, reinterpret_cast<unsigned char*>(out.data()), &length, u8(data), data.size()) == 1);
  out.resize(length);
  EVP_MD_CTX_free(md);
  return out;
}

const std::string kRpId = "casa.example";
const std::string kOrigin = "https://casa.example";

wa::Expectation expectation(const std::string& challenge) {
  return wa::Expectation{kRpId, {kOrigin, "https://play.casa.example"}, challenge, false};
}

std::string client_data(const std::string& type, const std::string& challenge, const std::string& origin = kOrigin,
                        bool cross_origin = false) {
  return nlohmann::json{{"type", type},
                        {"challenge", wa::base64url_encode(challenge)},
                        {"origin", origin},
                        {"crossOrigin", cross_origin}}
      .dump();
}

std::string big_endian(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

// One authenticator holding one credential.
struct Authenticator {
  int alg;
  Pkey key;
  std::string credential_id;
  std::uint32_t counter = 0;
  std::string rp_id = kRpId;
  std::uint8_t flags = wa::kFlagUserPresent | wa::kFlagUserVerified;

  explicit Authenticator(int a) : alg(a), key(new_key(a)), credential_id("cred-" + std::to_string(a)) {}

  std::string auth_data(bool attested) const {
    std::string out = sha256(rp_id);
    out += static_cast<char>(flags | (attested ? wa::kFlagAttestedCredential : 0));
    out += big_endian(counter);
    if (attested) {
      out += std::string(16, '\x11');  // AAGUID
      out += static_cast<char>(credential_id.size() >> 8);
      out += static_cast<char>(credential_id.size() & 0xff);
      out += credential_id;
      out += cose_key(key.get(), alg);
    }
    return out;
  }

  // attStmt: "none" (empty), or "packed" signed by this credential (self
  // attestation) or by `attestation_key` with `certificate` in x5c.
  std::string attestation_object(const std::string& fmt, const std::string& auth, const std::string& client,
                                 EVP_PKEY* attestation_key = nullptr, const std::string& certificate = {}) const {
    cbor_item_t* statement = cbor_new_definite_map(3);
    if (fmt == "packed") {
      std::string signed_data = auth + sha256(client);
      if (attestation_key) {
        put(statement, cbor_build_string("alg"), cbor_int(wa::kEs256));
        put(statement, cbor_build_string("sig"), cbor_bytes(sign(attestation_key, wa::kEs256, signed_data)));
        cbor_item_t* x5c = cbor_new_definite_array(1);
        REQUIRE(cbor_array_push(x5c, cbor_move(cbor_bytes(certificate))));
        put(statement, cbor_build_string("x5c"), x5c);
      } else {
        put(statement, cbor_build_string("alg"), cbor_int(alg));
        put(statement, cbor_build_string("sig"), cbor_bytes(sign(key.get(), alg, signed_data)));
      }
    }
    cbor_item_t* map = cbor_new_definite_map(3);
    put(map, cbor_build_string("fmt"), cbor_build_string(fmt.c_str()));
    put(map, cbor_build_string("attStmt"), statement);
    put(map, cbor_build_string("authData"), cbor_bytes(auth));
    return serialize(map);
  }

  struct Registration {
    std::string client;
    std::string object;
  };
  Registration create(const std::string& challenge, const std::string& fmt = "none",
                      const std::string& origin = kOrigin) const {
    std::string client = client_data("webauthn.create", challenge, origin);
    return {client, attestation_object(fmt, auth_data(true), client)};
  }

  struct Assertion {
    std::string client;
    std::string auth;
    std::string signature;
  };
  Assertion get(const std::string& challenge, const std::string& origin = kOrigin) const {
    Assertion a{client_data("webauthn.get", challenge, origin), auth_data(false), {}};
    a.signature = sign(key.get(), alg, a.auth + sha256(a.client));
    return a;
  }
};

std::string self_signed_certificate(EVP_PKEY* key) {
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("Test Authenticator"),
                             -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509_set_pubkey(cert, key);
  REQUIRE(X509_sign(cert, key, EVP_sha256()) > 0);
  unsigned char* der = nullptr;
  int length = i2d_X509(cert, &der);
  REQUIRE(length > 0);
  std::string out(reinterpret_cast<char*>(der), static_cast<std::size_t>(length));
  OPENSSL_free(der);
  X509_free(cert);
  return out;
}

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
