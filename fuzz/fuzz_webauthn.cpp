// SPDX-License-Identifier: AGPL-3.0-or-later
// The WebAuthn parsers and checks (server/accounts/webauthn.h) on any bytes: no
// crash, no read past the input, no allocation the input did not pay for, and
// what is accepted is consistent.
//
// Input: the first byte picks the entry point, the rest is its input:
//   0 an attestation object (and, when it parses, its authenticator data and
//     key), 1 authenticator data, 2 a COSE key, 3 clientDataJSON, 4 base64url,
//   5 a registration and 6 an assertion whose inputs are the rest cut in three
//     at the two bytes after the selector.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "server/accounts/webauthn.h"

namespace wa = casa::server::webauthn;

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

wa::Expectation expectation() { return wa::Expectation{"casa.example", {"https://casa.example"}, "challenge", false}; }

void attestation(std::string_view in) {
  auto object = wa::parse_attestation_object(in);
  check(object.ok() == object.refusal.code.empty());
  if (!object.ok()) return;
  check(object.value->format == "none" || object.value->format == "packed");
  auto auth = wa::parse_authenticator_data(object.value->authenticator_data);
  if (auth.ok() && !auth.value->public_key.empty()) (void)wa::check_public_key(auth.value->public_key);
}

void authenticator_data(std::string_view in) {
  auto auth = wa::parse_authenticator_data(in);
  check(auth.ok() == auth.refusal.code.empty());
  if (!auth.ok()) return;
  const auto& a = *auth.value;
  check(a.rp_id_hash.size() == 32);
  // Every byte is accounted for: the fixed part, the credential, the key.
  if (a.flags & wa::kFlagAttestedCredential) {
    check(a.credential_id.size() >= 1 && a.credential_id.size() <= wa::kMaxCredentialIdBytes);
    check(37 + 18 + a.credential_id.size() + a.public_key.size() <= in.size());
    (void)wa::check_public_key(a.public_key);
  } else {
    check(a.credential_id.empty() && a.public_key.empty());
  }
  if (!(a.flags & (wa::kFlagAttestedCredential | wa::kFlagExtensions))) check(in.size() == 37);
}

void base64url(std::string_view in) {
  auto bytes = wa::base64url_decode(in);
  if (bytes) check(wa::base64url_encode(*bytes) == in);
  check(wa::base64url_decode(wa::base64url_encode(in)) == std::string(in));
}

// Three pieces: lengths from the first two bytes.
struct Pieces {
  std::string_view a, b, c;
};
Pieces cut(std::string_view in) {
  if (in.size() < 2) return {in, {}, {}};
  std::size_t la = static_cast<unsigned char>(in[0]) * 4, lb = static_cast<unsigned char>(in[1]) * 4;
  in.remove_prefix(2);
  std::string_view a = in.substr(0, la);
  in.remove_prefix(a.size());
  std::string_view b = in.substr(0, lb);
  in.remove_prefix(b.size());
  return {a, b, in};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 7) {
    case 0: attestation(in); break;
    case 1: authenticator_data(in); break;
    case 2: (void)wa::check_public_key(in); break;
    case 3: (void)wa::parse_client_data(in); break;
    case 4: base64url(in); break;
    case 5: {
      auto p = cut(in);
      auto r = wa::verify_registration(expectation(), p.a, p.b);
      check(r.ok() == r.refusal.code.empty());
      break;
    }
    case 6: {
      auto p = cut(in);
      // The stored key is the input's own third piece: any bytes.
      auto r = wa::verify_assertion(expectation(), wa::StoredCredential{std::string(p.c), 0}, p.a, p.b, p.c);
      check(r.ok() == r.refusal.code.empty());
      break;
    }
  }
  return 0;
}
