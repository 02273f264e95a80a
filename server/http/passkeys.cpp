// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/http/passkeys.h"

#include <boost/beast/http.hpp>

#include <future>
#include <memory>

#include <nlohmann/json.hpp>

#include "protocol/crypto.h"
#include "server/accounts/webauthn.h"
#include "server/http/api_json.h"
#include "server/store/account_rows.h"
#include "server/store/admin_rows.h"
#include "server/store/passkey_rows.h"
#include "server/store/player_rows.h"
#include "server/store/store.h"
#include "server/store/write_and_wait.h"

namespace casa::server {

namespace http = boost::beast::http;
namespace wa = webauthn;
using json = nlohmann::json;

namespace {

constexpr std::string_view kPrefix = "/api/account/passkeys";
constexpr std::size_t kChallengeBytes = 32;
// The name browsers show for this server in their passkey dialogs.
constexpr const char* kRelyingPartyName = "La Casa";

using api::body_of;
using api::clean_label;
using api::error;
using api::reply;

// A ceremony the WebAuthn checks refused: `reason` is their code.
Passkeys::Response refused(const Passkeys::Request& req, int status, const wa::Refusal& why) {
  return reply(req, status, json{{"error", "passkey_refused"}, {"reason", why.code}, {"message", why.message}});
}

Passkeys::Response bad_challenge(const Passkeys::Request& req) {
  return error(req, 400, "bad_challenge", "The challenge is unknown, used or expired: ask for new options.");
}

// A base64url field of `object`, decoded; nullopt when absent or not base64url.
std::optional<std::string> bytes_field(const json& object, const char* name) {
  auto it = object.find(name);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return wa::base64url_decode(it->get_ref<const std::string&>());
}

std::string label_field(const json& body) { return api::string_field(body, "label").value_or(""); }

std::string random_challenge() {
  std::string bytes(kChallengeBytes, '\0');
  random_bytes(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size());
  return bytes;
}

json passkey_json(const passkey_rows::Passkey& p) {
  return json{{"id", p.credential_id},
              {"label", p.label},
              {"algorithm", p.algorithm},
              {"created_at", p.created_at},
              {"last_used_at", p.last_used_at}};
}

}  // namespace

Passkeys::Passkeys(Store& store, Accounts& accounts, const Config& config)
    : store_(store),
      accounts_(accounts),
      config_(config),
      // The same pace as password sign-ins (docs/accounts.md, Rate limits).
      options_by_address_(10, 1.0 / 30),
      signin_by_address_(10, 1.0 / 30) {}

bool Passkeys::owns(const std::string& path) {
  return path.compare(0, kPrefix.size(), kPrefix) == 0 &&
         (path.size() == kPrefix.size() || path[kPrefix.size()] == '/');
}

// The relying party a request speaks to: the configured one, else the host
// the browser asked for (a page can only run a ceremony for its own domain, so
// a forged Host header gains nothing: the authenticator signs the page's).
static wa::Expectation expectation_for(const Config& config, const Passkeys::Request& req, std::string challenge) {
  wa::Expectation e;
  e.challenge = std::move(challenge);
  std::string host(req[http::field::host]);
  std::string name = host;
  if (!name.empty() && name.front() == '[') {
    name = name.substr(0, name.find(']') + 1);
  } else if (auto colon = name.rfind(':'); colon != std::string::npos) {
    name.resize(colon);
  }
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  e.rp_id = config.passkey_rp_id.empty() ? name : config.passkey_rp_id;
  if (!config.passkey_origins.empty()) {
    e.origins = config.passkey_origins;
  } else if (!host.empty()) {
    e.origins.push_back("https://" + host);
    // Browsers allow passkeys on plain http only for localhost.
    const bool local = name == "localhost" || (name.size() > 10 && name.ends_with(".localhost"));
    if (local) e.origins.push_back("http://" + host);
  }
  return e;
}

Passkeys::Response Passkeys::answer(const Request& req, const std::string& path, const std::string& address,
                                    const std::optional<Accounts::Caller>& caller) {
  const std::string rest = path.substr(kPrefix.size());
  const auto method = req.method();
  auto needs = [&](http::verb verb) { return method == verb; };
  auto unauthorized = [&] {
    auto res = error(req, 401, "unauthorized", "Send Authorization: Bearer <session token>.");
    res.set(http::field::www_authenticate, "Bearer realm=\"casa-account\"");
    return res;
  };
  auto not_allowed = [&] { return error(req, 405, "method_not_allowed", "Not allowed on " + path + "."); };
  auto signed_in = [&](auto&& then) -> Response {
    if (!caller) return unauthorized();
    if (caller->banned) return error(req, 403, "banned", "This player is banned.");
    return then(*caller);
  };

  if (rest == "/signin/options") return needs(http::verb::post) ? signin_options(req, address) : not_allowed();
  if (rest == "/signin") return needs(http::verb::post) ? signin_finish(req, address) : not_allowed();
  if (rest == "/register/options") {
    if (!needs(http::verb::post)) return not_allowed();
    return signed_in([&](const Accounts::Caller& c) { return register_options(req, c); });
  }
  if (rest == "/register") {
    if (!needs(http::verb::post)) return not_allowed();
    return signed_in([&](const Accounts::Caller& c) { return register_finish(req, c); });
  }
  if (rest.empty() || rest == "/") {
    if (!needs(http::verb::get)) return not_allowed();
    return signed_in([&](const Accounts::Caller& c) { return list(req, c); });
  }
  if (rest.size() > 1 && rest.find('/', 1) == std::string::npos) {
    if (!needs(http::verb::delete_)) return not_allowed();
    return signed_in([&](const Accounts::Caller& c) { return remove(req, c, rest.substr(1)); });
  }
  return error(req, 404, "not_found", "No such passkey request.");
}

Passkeys::Response Passkeys::register_options(const Request& req, const Accounts::Caller& caller) {
  std::optional<std::string> handle;
  std::vector<passkey_rows::Passkey> existing;
  std::int64_t challenges = 0;
  store_.read([&](Db& db) {
    if (auto account = account_rows::by_player(db, caller.player_id)) handle = account->handle;
    existing = passkey_rows::of_player(db, caller.player_id);
    challenges = passkey_rows::challenge_count(db);
  });
  if (!handle) return error(req, 409, "not_claimed", "Claim a handle before adding a passkey.");
  if (existing.size() >= kMaxPerPlayer)
    return error(req, 409, "too_many_passkeys", "Remove a passkey before adding another.");
  if (challenges >= kMaxChallenges) return error(req, 503, "busy", "Too many passkey ceremonies at once; try again.");

  const std::string challenge = random_challenge();
  const std::int64_t now = Store::now();
  const passkey_rows::Challenge row{"register", caller.player_id, now + kChallengeSeconds};
  if (!write_and_wait(store_, [&](Db& db) { passkey_rows::add_challenge(db, sha256_hex(challenge), row, now); }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");

  const auto e = expectation_for(config_, req, challenge);
  json params = json::array();
  for (int alg : wa::kAlgorithms) params.push_back({{"type", "public-key"}, {"alg", alg}});
  json exclude = json::array();
  for (const auto& p : existing) exclude.push_back({{"type", "public-key"}, {"id", p.credential_id}});
  return reply(req, 200,
               json{{"publicKey",
                     {{"challenge", wa::base64url_encode(challenge)},
                      {"rp", {{"id", e.rp_id}, {"name", kRelyingPartyName}}},
                      {"user",
                       {{"id", wa::base64url_encode(caller.player_id)}, {"name", *handle}, {"displayName", *handle}}},
                      {"pubKeyCredParams", params},
                      {"timeout", kChallengeSeconds * 1000},
                      {"attestation", "none"},
                      {"authenticatorSelection",
                       {{"residentKey", "required"}, {"requireResidentKey", true}, {"userVerification", "preferred"}}},
                      {"excludeCredentials", exclude}}}});
}

Passkeys::Response Passkeys::register_finish(const Request& req, const Accounts::Caller& caller) {
  auto body = body_of(req);
  if (!body) return error(req, 400, "bad_request", "The body must be a JSON object.");
  auto response = body->find("response");
  auto id = bytes_field(*body, "id");
  if (response == body->end() || !response->is_object() || !id)
    return error(req, 400, "bad_request", "Send the credential's id and response, base64url.");
  auto client_json = bytes_field(*response, "clientDataJSON");
  auto attestation = bytes_field(*response, "attestationObject");
  if (!client_json || !attestation)
    return error(req, 400, "bad_request", "The response needs clientDataJSON and attestationObject, base64url.");
  auto client = wa::parse_client_data(*client_json);
  if (!client.ok()) return refused(req, 400, client.refusal);

  // The challenge is used up here, whatever follows.
  std::optional<passkey_rows::Challenge> issued;
  const std::string challenge_hash = sha256_hex(client.value->challenge);
  if (!write_and_wait(store_, [&](Db& db) { issued = passkey_rows::take_challenge(db, challenge_hash); }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  const std::int64_t now = Store::now();
  if (!issued || issued->purpose != "register" || issued->player_id != caller.player_id || issued->expires_at <= now)
    return bad_challenge(req);

  auto created = wa::verify_registration(expectation_for(config_, req, client.value->challenge), *client_json,
                                         *attestation);
  if (!created.ok()) return refused(req, 400, created.refusal);
  if (created.value->credential_id != *id)
    return refused(req, 400, {"id_mismatch", "The credential's id is not the one its authenticator data names."});

  passkey_rows::Passkey passkey{wa::base64url_encode(created.value->credential_id),
                                caller.player_id,
                                wa::base64url_encode(created.value->public_key),
                                created.value->algorithm,
                                created.value->sign_count,
                                clean_label(label_field(*body), "passkey"),
                                now,
                                0};
  bool added = false;
  if (!write_and_wait(store_, [&](Db& db) { added = passkey_rows::add(db, passkey); }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  if (!added) return error(req, 409, "passkey_exists", "This passkey is already registered.");
  return reply(req, 200, json{{"passkey", passkey_json(passkey)}});
}

Passkeys::Response Passkeys::signin_options(const Request& req, const std::string& address) {
  if (!options_by_address_.take(address)) {
    const int wait = options_by_address_.wait_seconds(address);
    auto res = error(req, 429, "rate_limited", "Too many attempts; try again in " + std::to_string(wait) + " s.");
    res.set(http::field::retry_after, std::to_string(wait));
    return res;
  }
  std::int64_t challenges = 0;
  store_.read([&](Db& db) { challenges = passkey_rows::challenge_count(db); });
  if (challenges >= kMaxChallenges) return error(req, 503, "busy", "Too many passkey ceremonies at once; try again.");
  const std::string challenge = random_challenge();
  const std::int64_t now = Store::now();
  const passkey_rows::Challenge row{"signin", "", now + kChallengeSeconds};
  if (!write_and_wait(store_, [&](Db& db) { passkey_rows::add_challenge(db, sha256_hex(challenge), row, now); }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  const auto e = expectation_for(config_, req, challenge);
  // No allowCredentials: the browser offers the passkeys it holds for this
  // domain (discoverable credentials), so no handle is asked for or revealed.
  return reply(req, 200,
               json{{"publicKey",
                     {{"challenge", wa::base64url_encode(challenge)},
                      {"rpId", e.rp_id},
                      {"timeout", kChallengeSeconds * 1000},
                      {"userVerification", "preferred"},
                      {"allowCredentials", json::array()}}}});
}

Passkeys::Response Passkeys::signin_finish(const Request& req, const std::string& address) {
  if (!signin_by_address_.take(address)) {
    const int wait = signin_by_address_.wait_seconds(address);
    auto res = error(req, 429, "rate_limited", "Too many attempts; try again in " + std::to_string(wait) + " s.");
    res.set(http::field::retry_after, std::to_string(wait));
    return res;
  }
  auto body = body_of(req);
  if (!body) return error(req, 400, "bad_request", "The body must be a JSON object.");
  auto response = body->find("response");
  auto id = bytes_field(*body, "id");
  if (response == body->end() || !response->is_object() || !id || id->empty())
    return error(req, 400, "bad_request", "Send the credential's id and response, base64url.");
  auto client_json = bytes_field(*response, "clientDataJSON");
  auto auth_data = bytes_field(*response, "authenticatorData");
  auto signature = bytes_field(*response, "signature");
  if (!client_json || !auth_data || !signature)
    return error(req, 400, "bad_request",
                 "The response needs clientDataJSON, authenticatorData and signature, base64url.");
  std::optional<std::string> user_handle;
  if (auto it = response->find("userHandle"); it != response->end() && !it->is_null()) {
    user_handle = bytes_field(*response, "userHandle");
    if (!user_handle) return error(req, 400, "bad_request", "userHandle must be base64url or null.");
  }
  auto client = wa::parse_client_data(*client_json);
  if (!client.ok()) return refused(req, 401, client.refusal);

  std::optional<passkey_rows::Challenge> issued;
  std::optional<passkey_rows::Passkey> passkey;
  const std::string challenge_hash = sha256_hex(client.value->challenge);
  const std::string credential_id = wa::base64url_encode(*id);
  if (!write_and_wait(store_, [&](Db& db) {
        issued = passkey_rows::take_challenge(db, challenge_hash);
        passkey = passkey_rows::by_credential(db, credential_id);
      }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  const std::int64_t now = Store::now();
  if (!issued || issued->purpose != "signin" || issued->expires_at <= now) return bad_challenge(req);
  if (!passkey) return refused(req, 401, {"unknown_passkey", "This passkey is not registered here."});
  if (user_handle && !user_handle->empty() && *user_handle != passkey->player_id)
    return refused(req, 401, {"wrong_user", "The passkey's user handle is not its player's."});
  auto public_key = wa::base64url_decode(passkey->public_key);
  if (!public_key) return error(req, 500, "internal", "A stored passkey could not be read.");

  auto assertion = wa::verify_assertion(
      expectation_for(config_, req, client.value->challenge),
      wa::StoredCredential{*public_key, static_cast<std::uint32_t>(passkey->sign_count)}, *client_json, *auth_data,
      *signature);
  if (!assertion.ok()) return refused(req, 401, assertion.refusal);

  bool banned = false, recorded = false;
  std::string name;
  if (!write_and_wait(store_, [&](Db& db) {
        banned = admin_rows::is_banned(db, passkey->player_id);
        if (banned) return;
        // Compare-and-set: of two sign-ins with the same counter, one wins.
        recorded = passkey_rows::record_use(db, credential_id, passkey->sign_count, assertion.value->sign_count, now);
        if (auto player = player_rows::find(db, player_rows::Key::id, passkey->player_id)) name = player->name;
      }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  if (banned) return error(req, 403, "banned", "This player is banned.");
  if (!recorded) return refused(req, 401, {"counter_went_back", "This passkey was used again at the same time."});

  const std::string label = clean_label(label_field(*body), clean_label(std::string(req[http::field::user_agent]), "device"));
  const std::string token = accounts_.issue_session(passkey->player_id, label);
  if (token.empty()) return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  return reply(req, 200, json{{"token", token}, {"player_id", passkey->player_id}, {"name", name}});
}

Passkeys::Response Passkeys::list(const Request& req, const Accounts::Caller& caller) {
  std::vector<passkey_rows::Passkey> rows;
  store_.read([&](Db& db) { rows = passkey_rows::of_player(db, caller.player_id); });
  json out = json::array();
  for (const auto& p : rows) out.push_back(passkey_json(p));
  return reply(req, 200, json{{"passkeys", out}});
}

Passkeys::Response Passkeys::remove(const Request& req, const Accounts::Caller& caller, const std::string& id) {
  bool removed = false;
  if (!write_and_wait(store_, [&](Db& db) { removed = passkey_rows::remove(db, caller.player_id, id); }))
    return error(req, 503, "storage_unavailable", "The database is unavailable; try again.");
  if (!removed) return error(req, 404, "no_such_passkey", "You have no such passkey.");
  return reply(req, 200, json{{"id", id}, {"removed", true}});
}

}  // namespace casa::server
