// SPDX-License-Identifier: AGPL-3.0-or-later
// WebAuthn (passkeys): the relying party's checks of a registration and of an
// assertion, as W3C Web Authentication Level 2, sections 7.1 and 7.2, lay them
// out. Owns the parsing of what a browser hands back (clientDataJSON, the
// authenticator data, the CBOR attestation object, the COSE public key) and the
// signature checks. Knows nothing of players, sessions, storage or HTTP: the
// caller keeps the challenges and the credentials.
//
// Invariants:
// - Every function takes bytes from the network and never throws on them, never
//   reads past them, never crashes: a malformed input is a Refusal (a
//   machine-readable code, a sentence for people).
// - CBOR is decoded by libcbor, keys are built and signatures verified by
//   OpenSSL's libcrypto; nothing cryptographic is written here.
// - Algorithms: ES256 (ECDSA P-256 with SHA-256, COSE -7), EdDSA (Ed25519,
//   COSE -8) and RS256 (RSASSA-PKCS1-v1_5 with SHA-256, COSE -257, keys of at
//   least 2048 bits). Nothing else is accepted.
// - Attestation formats: "none", and "packed" (self attestation, or a
//   certificate whose key must have made the signature). The certificate is not
//   checked against any maker's root: a passkey here is a key, not a promise
//   about the device that holds it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace casa::server::webauthn {

// COSE algorithm identifiers (IANA "COSE Algorithms").
inline constexpr int kEs256 = -7;
inline constexpr int kEdDsa = -8;
inline constexpr int kRs256 = -257;
// What the server offers in pubKeyCredParams, most preferred first.
inline constexpr int kAlgorithms[] = {kEs256, kEdDsa, kRs256};

// Longest credential id the specification allows (section 5.8.3).
inline constexpr std::size_t kMaxCredentialIdBytes = 1023;
// Longest input taken at all (clientDataJSON, attestation object, signature):
// far above what any authenticator sends, far below what could hurt.
inline constexpr std::size_t kMaxInputBytes = 64 * 1024;

// Flags of the authenticator data (section 6.1).
inline constexpr std::uint8_t kFlagUserPresent = 0x01;
inline constexpr std::uint8_t kFlagUserVerified = 0x04;
inline constexpr std::uint8_t kFlagBackupEligible = 0x08;
inline constexpr std::uint8_t kFlagBackedUp = 0x10;
inline constexpr std::uint8_t kFlagAttestedCredential = 0x40;
inline constexpr std::uint8_t kFlagExtensions = 0x80;

// Why a ceremony was refused. Codes: "bad_client_data", "wrong_type",
// "wrong_challenge", "wrong_origin", "cross_origin", "bad_authenticator_data",
// "wrong_rp_id", "user_not_present", "user_not_verified", "bad_attestation",
// "unsupported_attestation", "bad_public_key", "unsupported_algorithm",
// "bad_signature", "counter_went_back".
struct Refusal {
  std::string code;
  std::string message;
};

// A value, or why there is none.
template <class T>
struct Checked {
  std::optional<T> value;
  Refusal refusal;
  bool ok() const { return value.has_value(); }
  static Checked refuse(std::string code, std::string message) {
    return Checked{std::nullopt, Refusal{std::move(code), std::move(message)}};
  }
};

// What the server expects of one ceremony: its relying party (the rpId, a
// registrable domain such as "example.org", and the exact origins the pages
// are served from, such as "https://play.example.org"), and the challenge it
// issued (raw bytes).
struct Expectation {
  std::string rp_id;
  std::vector<std::string> origins;
  std::string challenge;
  bool require_user_verification = false;
};

// clientDataJSON, read (section 5.8.1).
struct ClientData {
  std::string type;       // "webauthn.create" or "webauthn.get"
  std::string challenge;  // raw bytes (decoded from base64url)
  std::string origin;
  bool cross_origin = false;
};
Checked<ClientData> parse_client_data(std::string_view json);

// The authenticator data, read (section 6.1). For a registration it carries
// the new credential (attested credential data).
struct AuthenticatorData {
  std::string rp_id_hash;  // 32 bytes
  std::uint8_t flags = 0;
  std::uint32_t sign_count = 0;
  std::string aaguid;         // 16 bytes, when the credential is attested
  std::string credential_id;  // raw bytes, when attested
  std::string public_key;     // the COSE_Key's CBOR bytes, when attested
};
Checked<AuthenticatorData> parse_authenticator_data(std::string_view bytes);

// A COSE_Key (RFC 9052 section 7, RFC 9053): its algorithm, once it has been
// turned into an OpenSSL key and checked (a point on the curve, a large enough
// modulus). The key itself stays inside webauthn.cpp.
Checked<int> check_public_key(std::string_view cose_key);

// The attestation object (section 6.5): format, statement and authenticator
// data. Exposed for the fuzzer and the tests; verify_registration uses it.
struct AttestationObject {
  std::string format;
  std::string authenticator_data;  // raw bytes
  std::optional<int> packed_alg;   // "packed": the statement's alg
  std::string packed_signature;    // "packed": the statement's sig
  std::string packed_certificate;  // "packed": x5c[0] (DER), empty for self attestation
};
Checked<AttestationObject> parse_attestation_object(std::string_view cbor);

// A credential the server may keep after a registration.
struct NewCredential {
  std::string credential_id;  // raw bytes
  std::string public_key;     // COSE_Key CBOR bytes, as given
  int algorithm = 0;
  std::uint32_t sign_count = 0;
  std::string format;  // the attestation format ("none", "packed")
  bool user_verified = false;
  bool backup_eligible = false;
};

// Registration (section 7.1): clientDataJSON and attestationObject as the
// browser's AuthenticatorAttestationResponse gives them.
Checked<NewCredential> verify_registration(const Expectation& expected, std::string_view client_data_json,
                                           std::string_view attestation_object);

// A credential as the server kept it.
struct StoredCredential {
  std::string public_key;  // COSE_Key CBOR bytes
  std::uint32_t sign_count = 0;
};

// What an accepted assertion tells: the counter to keep from now on.
struct Assertion {
  std::uint32_t sign_count = 0;
  bool user_verified = false;
};

// Authentication (section 7.2): the browser's AuthenticatorAssertionResponse.
// The counter must go up unless the authenticator keeps none (both zero):
// a counter that does not go up means a cloned authenticator (section 6.1.1).
Checked<Assertion> verify_assertion(const Expectation& expected, const StoredCredential& credential,
                                    std::string_view client_data_json, std::string_view authenticator_data,
                                    std::string_view signature);

// base64url without padding (RFC 4648 section 5), as WebAuthn's JSON uses it.
std::string base64url_encode(std::string_view bytes);
// nullopt on any character outside the alphabet, on padding, or on an
// impossible length.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace casa::server::webauthn
