// SPDX-License-Identifier: AGPL-3.0-or-later
// A WebAuthn authenticator made in the tests: keys from OpenSSL (ES256, EdDSA,
// RS256), authenticator data built byte by byte, attestation objects and COSE
// keys built with libcbor, signatures made as an authenticator makes them.
// Used by the verification's unit tests and by the HTTP ceremonies' tests.
#pragma once

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

namespace casa::testing::webauthn {

namespace wa = casa::server::webauthn;

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

inline const unsigned char* u8(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

inline std::string sha256(const std::string& s) {
  std::string out(32, '\0');
  SHA256(u8(s), s.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

inline Pkey new_key(int alg, int rsa_bits = 2048) {
  switch (alg) {
    case wa::kEs256: return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    case wa::kEdDsa: return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
    default: return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(rsa_bits)));
  }
}

inline std::string bn_param(EVP_PKEY* key, const char* name, int pad) {
  BIGNUM* bn = nullptr;
  REQUIRE(EVP_PKEY_get_bn_param(key, name, &bn) == 1);
  int size = pad ? pad : BN_num_bytes(bn);
  std::string out(static_cast<std::size_t>(size), '\0');
  BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), size);
  BN_free(bn);
  return out;
}

// CBOR, built with libcbor.
inline cbor_item_t* cbor_int(long long v) {
  return v >= 0 ? cbor_build_uint64(static_cast<uint64_t>(v)) : cbor_build_negint64(static_cast<uint64_t>(-1 - v));
}
inline cbor_item_t* cbor_bytes(const std::string& s) { return cbor_build_bytestring(u8(s), s.size()); }
inline void put(cbor_item_t* map, cbor_item_t* key, cbor_item_t* value) {
  REQUIRE(cbor_map_add(map, cbor_pair{cbor_move(key), cbor_move(value)}));
}
inline std::string serialize(cbor_item_t* item) {
  unsigned char* buffer = nullptr;
  size_t capacity = 0;
  size_t length = cbor_serialize_alloc(item, &buffer, &capacity);
  std::string out(reinterpret_cast<char*>(buffer), length);
  free(buffer);
  cbor_decref(&item);
  return out;
}

inline std::string cose_key(EVP_PKEY* key, int alg) {
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

inline std::string sign(EVP_PKEY* key, int alg, const std::string& data) {
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

inline const std::string kRpId = "casa.example";
inline const std::string kOrigin = "https://casa.example";

inline wa::Expectation expectation(const std::string& challenge) {
  return wa::Expectation{kRpId, {kOrigin, "https://play.casa.example"}, challenge, false};
}

inline std::string client_data(const std::string& type, const std::string& challenge, const std::string& origin = kOrigin,
                        bool cross_origin = false) {
  return nlohmann::json{{"type", type},
                        {"challenge", wa::base64url_encode(challenge)},
                        {"origin", origin},
                        {"crossOrigin", cross_origin}}
      .dump();
}

inline std::string big_endian(std::uint32_t v) {
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

  explicit Authenticator(int a, std::string id = {})
      : alg(a), key(new_key(a)), credential_id(id.empty() ? "cred-" + std::to_string(a) : std::move(id)) {}

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

inline std::string self_signed_certificate(EVP_PKEY* key) {
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

}  // namespace casa::testing::webauthn
