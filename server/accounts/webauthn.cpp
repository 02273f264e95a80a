// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/accounts/webauthn.h"

#include <cbor.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include <array>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

namespace casa::server::webauthn {
namespace {

// ---------------------------------------------------------------------------
// OpenSSL and libcbor handles

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
};
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;
struct MdCtxFree {
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
};
struct BnFree {
  void operator()(BIGNUM* p) const { BN_free(p); }
};
using Bn = std::unique_ptr<BIGNUM, BnFree>;
struct ParamBldFree {
  void operator()(OSSL_PARAM_BLD* p) const { OSSL_PARAM_BLD_free(p); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct CborFree {
  void operator()(cbor_item_t* p) const { cbor_decref(&p); }
};
using Cbor = std::unique_ptr<cbor_item_t, CborFree>;

const unsigned char* bytes_of(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

std::string sha256(std::string_view data) {
  std::string out(SHA256_DIGEST_LENGTH, '\0');
  SHA256(bytes_of(data), data.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

bool same_bytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

// ---------------------------------------------------------------------------
// CBOR: libcbor's tokenizer first measures one item and refuses what cbor_load
// should never be given (indefinite lengths, which CTAP2's canonical encoding
// forbids; nesting deeper than any WebAuthn structure; a collection that
// declares more members than there are bytes left, which would make cbor_load
// allocate for them), then cbor_load builds it.

constexpr std::size_t kMaxCborDepth = 16;

struct Shape {
  std::vector<std::uint64_t> open;  // members still to come in each open collection
  std::size_t remaining = 0;        // bytes after the current token's first byte
  bool bad = false;
  bool done = false;
};

void complete(Shape& s) {
  while (!s.open.empty()) {
    if (--s.open.back() > 0) return;
    s.open.pop_back();
  }
  s.done = true;
}
void open_collection(Shape& s, std::uint64_t members) {
  if (members == 0) return complete(s);
  if (members > s.remaining || s.open.size() >= kMaxCborDepth) {
    s.bad = true;
    return;
  }
  s.open.push_back(members);
}
Shape& shape(void* ctx) { return *static_cast<Shape*>(ctx); }

const cbor_callbacks& shape_callbacks() {
  static const cbor_callbacks callbacks = [] {
    cbor_callbacks c = cbor_empty_callbacks;
    c.uint8 = [](void* ctx, uint8_t) { complete(shape(ctx)); };
    c.uint16 = [](void* ctx, uint16_t) { complete(shape(ctx)); };
    c.uint32 = [](void* ctx, uint32_t) { complete(shape(ctx)); };
    c.uint64 = [](void* ctx, uint64_t) { complete(shape(ctx)); };
    c.negint8 = [](void* ctx, uint8_t) { complete(shape(ctx)); };
    c.negint16 = [](void* ctx, uint16_t) { complete(shape(ctx)); };
    c.negint32 = [](void* ctx, uint32_t) { complete(shape(ctx)); };
    c.negint64 = [](void* ctx, uint64_t) { complete(shape(ctx)); };
    c.byte_string = [](void* ctx, cbor_data, size_t) { complete(shape(ctx)); };
    c.string = [](void* ctx, cbor_data, size_t) { complete(shape(ctx)); };
    c.array_start = [](void* ctx, size_t n) { open_collection(shape(ctx), n); };
    c.map_start = [](void* ctx, size_t n) {
      // Two items a pair; a count that doubles past the bytes left is refused.
      open_collection(shape(ctx), n > SIZE_MAX / 2 ? SIZE_MAX : 2 * static_cast<std::uint64_t>(n));
    };
    c.tag = [](void* ctx, uint64_t) { open_collection(shape(ctx), 1); };
    c.float2 = [](void* ctx, float) { complete(shape(ctx)); };
    c.float4 = [](void* ctx, float) { complete(shape(ctx)); };
    c.float8 = [](void* ctx, double) { complete(shape(ctx)); };
    c.undefined = [](void* ctx) { complete(shape(ctx)); };
    c.null = [](void* ctx) { complete(shape(ctx)); };
    c.boolean = [](void* ctx, bool) { complete(shape(ctx)); };
    c.byte_string_start = [](void* ctx) { shape(ctx).bad = true; };
    c.string_start = [](void* ctx) { shape(ctx).bad = true; };
    c.indef_array_start = [](void* ctx) { shape(ctx).bad = true; };
    c.indef_map_start = [](void* ctx) { shape(ctx).bad = true; };
    c.indef_break = [](void* ctx) { shape(ctx).bad = true; };
    return c;
  }();
  return callbacks;
}

// The length in bytes of the one CBOR item at the start of `bytes`, or nullopt
// when there is no complete, acceptable item there.
std::optional<std::size_t> cbor_item_length(std::string_view bytes) {
  Shape s;
  std::size_t offset = 0;
  while (!s.done) {
    if (offset >= bytes.size()) return std::nullopt;
    s.remaining = bytes.size() - offset - 1;
    cbor_decoder_result r =
        cbor_stream_decode(bytes_of(bytes) + offset, bytes.size() - offset, &shape_callbacks(), &s);
    if (r.status != CBOR_DECODER_FINISHED || r.read == 0 || s.bad) return std::nullopt;
    offset += r.read;
  }
  return offset;
}

// The one CBOR item at the start of `bytes` and its length.
struct Decoded {
  Cbor item;
  std::size_t length = 0;
};
std::optional<Decoded> decode_cbor(std::string_view bytes) {
  auto length = cbor_item_length(bytes);
  if (!length) return std::nullopt;
  cbor_load_result result{};
  Cbor item(cbor_load(bytes_of(bytes), *length, &result));
  if (!item || result.error.code != CBOR_ERR_NONE || result.read != *length) return std::nullopt;
  return Decoded{std::move(item), *length};
}

std::optional<std::int64_t> cbor_integer(const cbor_item_t* item) {
  if (cbor_isa_uint(item)) {
    std::uint64_t v = cbor_get_int(item);
    if (v > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
  if (cbor_isa_negint(item)) {
    std::uint64_t v = cbor_get_int(item);  // the value is -1 - v
    if (v > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return -1 - static_cast<std::int64_t>(v);
  }
  return std::nullopt;
}

std::optional<std::string_view> cbor_text(const cbor_item_t* item) {
  if (!cbor_isa_string(item) || !cbor_string_is_definite(item)) return std::nullopt;
  return std::string_view(reinterpret_cast<const char*>(cbor_string_handle(item)), cbor_string_length(item));
}

std::optional<std::string_view> cbor_bytes(const cbor_item_t* item) {
  if (!cbor_isa_bytestring(item) || !cbor_bytestring_is_definite(item)) return std::nullopt;
  return std::string_view(reinterpret_cast<const char*>(cbor_bytestring_handle(item)),
                          cbor_bytestring_length(item));
}

bool same_key(const cbor_item_t* a, const cbor_item_t* b) {
  if (auto x = cbor_integer(a)) return cbor_integer(b) == x;
  if (auto x = cbor_text(a)) return cbor_text(b) == x;
  return false;
}

// A map whose keys are integers or text, none twice (CTAP2's canonical form
// has each key once; a second "alg" must not sneak past the first).
bool plain_map(const cbor_item_t* item) {
  if (!cbor_isa_map(item) || !cbor_map_is_definite(item)) return false;
  const cbor_pair* pairs = cbor_map_handle(item);
  std::size_t n = cbor_map_size(item);
  for (std::size_t i = 0; i < n; ++i) {
    if (!cbor_integer(pairs[i].key) && !cbor_text(pairs[i].key)) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (same_key(pairs[i].key, pairs[j].key)) return false;
  }
  return true;
}

const cbor_item_t* member(const cbor_item_t* map, std::int64_t key) {
  const cbor_pair* pairs = cbor_map_handle(map);
  for (std::size_t i = 0; i < cbor_map_size(map); ++i)
    if (cbor_integer(pairs[i].key) == key) return pairs[i].value;
  return nullptr;
}
const cbor_item_t* member(const cbor_item_t* map, std::string_view key) {
  const cbor_pair* pairs = cbor_map_handle(map);
  for (std::size_t i = 0; i < cbor_map_size(map); ++i)
    if (cbor_text(pairs[i].key) == key) return pairs[i].value;
  return nullptr;
}

template <class Key>
std::optional<std::int64_t> int_member(const cbor_item_t* map, Key key) {
  const cbor_item_t* item = member(map, key);
  return item ? cbor_integer(item) : std::nullopt;
}
template <class Key>
std::optional<std::string_view> bytes_member(const cbor_item_t* map, Key key) {
  const cbor_item_t* item = member(map, key);
  return item ? cbor_bytes(item) : std::nullopt;
}
template <class Key>
std::optional<std::string_view> text_member(const cbor_item_t* map, Key key) {
  const cbor_item_t* item = member(map, key);
  return item ? cbor_text(item) : std::nullopt;
}

// ---------------------------------------------------------------------------
// COSE keys (RFC 9053): the labels WebAuthn uses.

constexpr std::int64_t kCoseKty = 1;
constexpr std::int64_t kCoseAlg = 3;
constexpr std::int64_t kCoseCrv = -1;  // EC2, OKP
constexpr std::int64_t kCoseX = -2;    // EC2, OKP
constexpr std::int64_t kCoseY = -3;    // EC2
constexpr std::int64_t kCoseN = -1;    // RSA
constexpr std::int64_t kCoseE = -2;    // RSA
constexpr std::int64_t kKtyOkp = 1;
constexpr std::int64_t kKtyEc2 = 2;
constexpr std::int64_t kKtyRsa = 3;
constexpr std::int64_t kCrvP256 = 1;
constexpr std::int64_t kCrvEd25519 = 6;
constexpr int kMinRsaBits = 2048;
constexpr int kMaxRsaBits = 8192;

struct PublicKey {
  Pkey key;
  int algorithm = 0;
};

// OpenSSL's own checks of a public key (on the curve, not the identity; an odd
// modulus and exponent). Leaves the error queue empty.
bool key_passes_checks(EVP_PKEY* key) {
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr));
  bool ok = ctx && EVP_PKEY_public_check(ctx.get()) == 1;
  ERR_clear_error();
  return ok;
}

Pkey key_from_params(const char* type, OSSL_PARAM* params) {
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
  EVP_PKEY* key = nullptr;
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
    ERR_clear_error();
    return nullptr;
  }
  return Pkey(key);
}

Checked<PublicKey> ec2_key(const cbor_item_t* map) {
  auto crv = int_member(map, kCoseCrv);
  auto x = bytes_member(map, kCoseX);
  auto y = bytes_member(map, kCoseY);
  if (crv != kCrvP256) return Checked<PublicKey>::refuse("unsupported_algorithm", "an ES256 key must be on P-256");
  if (!x || !y || x->size() != 32 || y->size() != 32)
    return Checked<PublicKey>::refuse("bad_public_key", "a P-256 key needs x and y of 32 bytes each");
  std::array<unsigned char, 65> point{};
  point[0] = 0x04;  // uncompressed (SEC 1, 2.3.3)
  std::memcpy(point.data() + 1, x->data(), 32);
  std::memcpy(point.data() + 33, y->data(), 32);
  char group[] = "P-256";
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()),
      OSSL_PARAM_construct_end()};
  Pkey key = key_from_params("EC", params);
  if (!key || !key_passes_checks(key.get()))
    return Checked<PublicKey>::refuse("bad_public_key", "the P-256 key is not a point on the curve");
  return {PublicKey{std::move(key), kEs256}, {}};
}

Checked<PublicKey> okp_key(const cbor_item_t* map) {
  auto crv = int_member(map, kCoseCrv);
  auto x = bytes_member(map, kCoseX);
  if (crv != kCrvEd25519) return Checked<PublicKey>::refuse("unsupported_algorithm", "an EdDSA key must be Ed25519");
  if (!x || x->size() != 32) return Checked<PublicKey>::refuse("bad_public_key", "an Ed25519 key is 32 bytes");
  Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytes_of(*x), x->size()));
  ERR_clear_error();
  if (!key) return Checked<PublicKey>::refuse("bad_public_key", "the Ed25519 key was not accepted");
  return {PublicKey{std::move(key), kEdDsa}, {}};
}

Checked<PublicKey> rsa_key(const cbor_item_t* map) {
  auto n = bytes_member(map, kCoseN);
  auto e = bytes_member(map, kCoseE);
  if (!n || !e || n->empty() || e->empty() || e->size() > 8 || n->size() > kMaxRsaBits / 8)
    return Checked<PublicKey>::refuse("bad_public_key", "an RSA key needs a modulus and an exponent");
  Bn bn_n(BN_bin2bn(bytes_of(*n), static_cast<int>(n->size()), nullptr));
  Bn bn_e(BN_bin2bn(bytes_of(*e), static_cast<int>(e->size()), nullptr));
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
  if (!bn_n || !bn_e || !bld || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get()) != 1) {
    ERR_clear_error();
    return Checked<PublicKey>::refuse("bad_public_key", "the RSA key could not be read");
  }
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
  Pkey key = params ? key_from_params("RSA", params.get()) : nullptr;
  if (!key || !key_passes_checks(key.get()))
    return Checked<PublicKey>::refuse("bad_public_key", "the RSA key was not accepted");
  if (EVP_PKEY_get_bits(key.get()) < kMinRsaBits)
    return Checked<PublicKey>::refuse("bad_public_key", "an RSA key must have at least 2048 bits");
  return {PublicKey{std::move(key), kRs256}, {}};
}

Checked<PublicKey> read_public_key(std::string_view cose_key) {
  auto decoded = decode_cbor(cose_key);
  if (!decoded || decoded->length != cose_key.size() || !plain_map(decoded->item.get()))
    return Checked<PublicKey>::refuse("bad_public_key", "the public key is not a COSE_Key map");
  const cbor_item_t* map = decoded->item.get();
  auto kty_member = int_member(map, kCoseKty);
  auto alg_member = int_member(map, kCoseAlg);
  if (!kty_member || !alg_member)
    return Checked<PublicKey>::refuse("bad_public_key", "the public key lacks its kty or alg");
  const std::int64_t kty = kty_member.value_or(0), alg = alg_member.value_or(0);
  if (alg == kEs256 && kty == kKtyEc2) return ec2_key(map);
  if (alg == kEdDsa && kty == kKtyOkp) return okp_key(map);
  if (alg == kRs256 && kty == kKtyRsa) return rsa_key(map);
  return Checked<PublicKey>::refuse("unsupported_algorithm",
                                    "the public key's algorithm is not ES256, EdDSA or RS256 (COSE " +
                                        std::to_string(alg) + ", kty " + std::to_string(kty) + ")");
}

// `signature` by `key` over `data` with COSE algorithm `algorithm`.
bool signature_holds(EVP_PKEY* key, int algorithm, std::string_view data, std::string_view signature) {
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> md(EVP_MD_CTX_new());
  const EVP_MD* digest = algorithm == kEdDsa ? nullptr : EVP_sha256();
  bool ok = md && EVP_DigestVerifyInit(md.get(), nullptr, digest, nullptr, key) == 1 &&
            EVP_DigestVerify(md.get(), bytes_of(signature), signature.size(), bytes_of(data), data.size()) == 1;
  ERR_clear_error();
  return ok;
}

// Whether an OpenSSL key (a certificate's) is of the kind `algorithm` signs with.
bool key_fits_algorithm(EVP_PKEY* key, int algorithm) {
  switch (algorithm) {
    case kEs256: {
      char group[32] = {};
      std::size_t len = 0;
      bool ok = EVP_PKEY_get_base_id(key) == EVP_PKEY_EC &&
                EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &len) == 1 &&
                std::string_view(group, len) == "prime256v1";
      ERR_clear_error();
      return ok;
    }
    case kEdDsa: return EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519;
    case kRs256: return EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA && EVP_PKEY_get_bits(key) >= kMinRsaBits;
    default: return false;
  }
}

// ---------------------------------------------------------------------------
// The checks both ceremonies share.

std::optional<Refusal> check_client_data(const ClientData& data, std::string_view type, const Expectation& expected) {
  if (data.type != type)
    return Refusal{"wrong_type", "clientDataJSON's type is \"" + data.type + "\", expected \"" + std::string(type) + "\""};
  if (!same_bytes(data.challenge, expected.challenge))
    return Refusal{"wrong_challenge", "the challenge is not the one this server issued"};
  bool known = false;
  for (const auto& origin : expected.origins) known = known || origin == data.origin;
  if (!known) return Refusal{"wrong_origin", "the page's origin is not one this server serves"};
  if (data.cross_origin) return Refusal{"cross_origin", "the ceremony ran in a frame of another origin"};
  return std::nullopt;
}

std::optional<Refusal> check_authenticator(const AuthenticatorData& data, const Expectation& expected) {
  if (!same_bytes(data.rp_id_hash, sha256(expected.rp_id)))
    return Refusal{"wrong_rp_id", "the credential is scoped to another relying party"};
  if (!(data.flags & kFlagUserPresent))
    return Refusal{"user_not_present", "the authenticator did not test that a user was present"};
  if (expected.require_user_verification && !(data.flags & kFlagUserVerified))
    return Refusal{"user_not_verified", "the authenticator did not verify the user"};
  if ((data.flags & kFlagBackedUp) && !(data.flags & kFlagBackupEligible))
    return Refusal{"bad_authenticator_data", "a credential cannot be backed up without being backup eligible"};
  return std::nullopt;
}

std::uint32_t big_endian32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

// ---------------------------------------------------------------------------

std::string base64url_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t v = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(v >> shift) & 63];
  }
  std::size_t rest = bytes.size() - i;
  if (rest == 1) {
    std::uint32_t v = at(i) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    std::uint32_t v = (at(i) << 16) | (at(i + 1) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '-') v = 62;
    else if (c == '_') v = 63;
    else return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  // Bits left over must be zero: one text per byte string.
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

Checked<ClientData> parse_client_data(std::string_view json) {
  using R = Checked<ClientData>;
  if (json.size() > kMaxInputBytes) return R::refuse("bad_client_data", "clientDataJSON is too long");
  auto doc = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::refuse("bad_client_data", "clientDataJSON is not a JSON object");
  auto text = [&](const char* key) -> const std::string* {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
  };
  const std::string* type = text("type");
  const std::string* challenge = text("challenge");
  const std::string* origin = text("origin");
  if (!type || !challenge || !origin)
    return R::refuse("bad_client_data", "clientDataJSON needs the strings type, challenge and origin");
  auto raw = base64url_decode(*challenge);
  if (!raw) return R::refuse("bad_client_data", "clientDataJSON's challenge is not base64url");
  ClientData data{*type, std::move(*raw), *origin, false};
  if (auto it = doc.find("crossOrigin"); it != doc.end()) {
    if (!it->is_boolean()) return R::refuse("bad_client_data", "clientDataJSON's crossOrigin is not a boolean");
    data.cross_origin = it->get<bool>();
  }
  return {std::move(data), {}};
}

Checked<AuthenticatorData> parse_authenticator_data(std::string_view bytes) {
  using R = Checked<AuthenticatorData>;
  constexpr std::size_t kFixed = 32 + 1 + 4;
  if (bytes.size() > kMaxInputBytes) return R::refuse("bad_authenticator_data", "the authenticator data is too long");
  if (bytes.size() < kFixed)
    return R::refuse("bad_authenticator_data", "the authenticator data is shorter than 37 bytes");
  const auto* p = bytes_of(bytes);
  AuthenticatorData data;
  data.rp_id_hash.assign(bytes.data(), 32);
  data.flags = p[32];
  data.sign_count = big_endian32(p + 33);
  std::size_t at = kFixed;
  if (data.flags & kFlagAttestedCredential) {
    if (bytes.size() < at + 16 + 2)
      return R::refuse("bad_authenticator_data", "the attested credential data is cut short");
    data.aaguid.assign(bytes.data() + at, 16);
    std::size_t id_length = (std::size_t{p[at + 16]} << 8) | p[at + 17];
    at += 18;
    if (id_length == 0 || id_length > kMaxCredentialIdBytes)
      return R::refuse("bad_authenticator_data", "the credential id must have 1 to 1023 bytes");
    if (bytes.size() < at + id_length) return R::refuse("bad_authenticator_data", "the credential id is cut short");
    data.credential_id.assign(bytes.data() + at, id_length);
    at += id_length;
    auto key_length = cbor_item_length(bytes.substr(at));
    if (!key_length) return R::refuse("bad_authenticator_data", "the credential public key is not one CBOR item");
    data.public_key.assign(bytes.data() + at, *key_length);
    at += *key_length;
  }
  if (data.flags & kFlagExtensions) {
    auto extensions = decode_cbor(bytes.substr(at));
    if (!extensions || !plain_map(extensions->item.get()))
      return R::refuse("bad_authenticator_data", "the extensions are not a CBOR map");
    at += extensions->length;
  }
  if (at != bytes.size())
    return R::refuse("bad_authenticator_data", "the authenticator data has bytes its flags do not account for");
  return {std::move(data), {}};
}

Checked<int> check_public_key(std::string_view cose_key) {
  auto key = read_public_key(cose_key);
  if (!key.ok()) return Checked<int>::refuse(key.refusal.code, key.refusal.message);
  return {key.value->algorithm, {}};
}

Checked<AttestationObject> parse_attestation_object(std::string_view cbor) {
  using R = Checked<AttestationObject>;
  if (cbor.size() > kMaxInputBytes) return R::refuse("bad_attestation", "the attestation object is too long");
  auto decoded = decode_cbor(cbor);
  if (!decoded || decoded->length != cbor.size() || !plain_map(decoded->item.get()))
    return R::refuse("bad_attestation", "the attestation object is not one CBOR map");
  const cbor_item_t* map = decoded->item.get();
  auto fmt = text_member(map, "fmt");
  auto auth_data = bytes_member(map, "authData");
  const cbor_item_t* statement = member(map, "attStmt");
  if (!fmt || !auth_data || !statement || !plain_map(statement))
    return R::refuse("bad_attestation", "the attestation object needs fmt, attStmt and authData");
  AttestationObject object;
  object.format = std::string(*fmt);
  object.authenticator_data = std::string(*auth_data);
  if (object.format == "none") {
    if (cbor_map_size(statement) != 0)
      return R::refuse("bad_attestation", "a \"none\" attestation has an empty statement");
  } else if (object.format == "packed") {
    auto alg = int_member(statement, "alg");
    auto sig = bytes_member(statement, "sig");
    const std::int64_t alg_value = alg.value_or(0);
    if (!alg || !sig || alg_value < INT32_MIN || alg_value > INT32_MAX)
      return R::refuse("bad_attestation", "a \"packed\" statement needs alg and sig");
    object.packed_alg = static_cast<int>(alg_value);
    object.packed_signature = std::string(sig.value_or(std::string_view{}));
    if (member(statement, "ecdaaKeyId"))
      return R::refuse("unsupported_attestation", "ECDAA attestation is not supported");
    if (const cbor_item_t* x5c = member(statement, "x5c")) {
      if (!cbor_isa_array(x5c) || cbor_array_size(x5c) == 0)
        return R::refuse("bad_attestation", "x5c is not an array of certificates");
      for (std::size_t i = 0; i < cbor_array_size(x5c); ++i)
        if (!cbor_bytes(cbor_array_handle(x5c)[i]))
          return R::refuse("bad_attestation", "x5c holds something other than a certificate");
      object.packed_certificate = std::string(*cbor_bytes(cbor_array_handle(x5c)[0]));
    }
  } else {
    return R::refuse("unsupported_attestation",
                     "attestation format \"" + object.format + "\" is not supported (only \"none\" and \"packed\")");
  }
  return {std::move(object), {}};
}

Checked<NewCredential> verify_registration(const Expectation& expected, std::string_view client_data_json,
                                           std::string_view attestation_object) {
  using R = Checked<NewCredential>;
  auto client = parse_client_data(client_data_json);
  if (!client.ok()) return R::refuse(client.refusal.code, client.refusal.message);
  if (auto refusal = check_client_data(*client.value, "webauthn.create", expected))
    return R::refuse(refusal->code, refusal->message);

  auto object = parse_attestation_object(attestation_object);
  if (!object.ok()) return R::refuse(object.refusal.code, object.refusal.message);
  auto auth = parse_authenticator_data(object.value->authenticator_data);
  if (!auth.ok()) return R::refuse(auth.refusal.code, auth.refusal.message);
  if (auto refusal = check_authenticator(*auth.value, expected)) return R::refuse(refusal->code, refusal->message);
  if (!(auth.value->flags & kFlagAttestedCredential))
    return R::refuse("bad_authenticator_data", "a registration must carry the new credential");

  auto key = read_public_key(auth.value->public_key);
  if (!key.ok()) return R::refuse(key.refusal.code, key.refusal.message);

  if (object.value->format == "packed") {
    std::string signed_data = object.value->authenticator_data + sha256(client_data_json);
    int alg = *object.value->packed_alg;
    if (object.value->packed_certificate.empty()) {
      // Self attestation: the credential's own key signs.
      if (alg != key.value->algorithm)
        return R::refuse("bad_attestation", "a self attestation's alg must be the credential's algorithm");
      if (!signature_holds(key.value->key.get(), alg, signed_data, object.value->packed_signature))
        return R::refuse("bad_signature", "the self attestation's signature does not hold");
    } else {
      const auto& der = object.value->packed_certificate;
      const unsigned char* in = bytes_of(der);
      std::unique_ptr<X509, X509Free> cert(d2i_X509(nullptr, &in, static_cast<long>(der.size())));
      ERR_clear_error();
      if (!cert || in != bytes_of(der) + der.size())
        return R::refuse("bad_attestation", "the attestation certificate is not one DER certificate");
      EVP_PKEY* cert_key = X509_get0_pubkey(cert.get());
      ERR_clear_error();
      if (!cert_key || !key_fits_algorithm(cert_key, alg))
        return R::refuse("unsupported_algorithm", "the attestation certificate's key does not fit its alg");
      if (!signature_holds(cert_key, alg, signed_data, object.value->packed_signature))
        return R::refuse("bad_signature", "the attestation signature does not hold");
    }
  }

  NewCredential credential;
  credential.credential_id = std::move(auth.value->credential_id);
  credential.public_key = std::move(auth.value->public_key);
  credential.algorithm = key.value->algorithm;
  credential.sign_count = auth.value->sign_count;
  credential.format = object.value->format;
  credential.user_verified = (auth.value->flags & kFlagUserVerified) != 0;
  credential.backup_eligible = (auth.value->flags & kFlagBackupEligible) != 0;
  return {std::move(credential), {}};
}

Checked<Assertion> verify_assertion(const Expectation& expected, const StoredCredential& credential,
                                    std::string_view client_data_json, std::string_view authenticator_data,
                                    std::string_view signature) {
  using R = Checked<Assertion>;
  if (signature.size() > kMaxInputBytes) return R::refuse("bad_signature", "the signature is too long");
  auto client = parse_client_data(client_data_json);
  if (!client.ok()) return R::refuse(client.refusal.code, client.refusal.message);
  if (auto refusal = check_client_data(*client.value, "webauthn.get", expected))
    return R::refuse(refusal->code, refusal->message);
  auto auth = parse_authenticator_data(authenticator_data);
  if (!auth.ok()) return R::refuse(auth.refusal.code, auth.refusal.message);
  if (auto refusal = check_authenticator(*auth.value, expected)) return R::refuse(refusal->code, refusal->message);

  auto key = read_public_key(credential.public_key);
  if (!key.ok()) return R::refuse(key.refusal.code, key.refusal.message);
  std::string signed_data = std::string(authenticator_data) + sha256(client_data_json);
  if (!signature_holds(key.value->key.get(), key.value->algorithm, signed_data, signature))
    return R::refuse("bad_signature", "the assertion's signature does not hold");

  std::uint32_t count = auth.value->sign_count;
  if ((count != 0 || credential.sign_count != 0) && count <= credential.sign_count)
    return R::refuse("counter_went_back",
                     "the authenticator's counter did not go up (" + std::to_string(count) + " after " +
                         std::to_string(credential.sign_count) + "): the credential may have been copied");
  return {Assertion{count, (auth.value->flags & kFlagUserVerified) != 0}, {}};
}

}  // namespace casa::server::webauthn
