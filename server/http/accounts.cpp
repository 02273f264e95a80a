// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/http/accounts.h"
#include "server/http/api_json.h"
#include "server/http/passkeys.h"

#include <boost/asio/post.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <future>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "protocol/crypto.h"
#include "server/lobby/lobby.h"
#include "server/ops/handles.h"
#include "server/ops/log.h"
#include "server/ops/names.h"
#include "server/store/account_rows.h"
#include "server/store/store.h"
#include "server/store/write_and_wait.h"

namespace casa::server {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using json = nlohmann::json;

namespace {

// Device link codes: 8 characters that cannot be mistaken for each other
// (no 0/O, no 1/I/L), about 39 bits; shown as ABCD-EFGH.
constexpr std::string_view kCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
constexpr std::size_t kCodeLength = 8;
constexpr std::size_t kMinPassword = 8;
constexpr std::size_t kMaxPassword = 1024;
// A session's last_used_at is written at most this often by HTTP requests.
constexpr std::int64_t kTouchSeconds = 60;

using api::body_of;
using api::error;
using api::reply;
using api::string_field;

Accounts::Response unauthorized(const Accounts::Request& req) {
  auto res = error(req, 401, "unauthorized", "Send Authorization: Bearer <session token>.");
  res.set(http::field::www_authenticate, "Bearer realm=\"casa-account\"");
  return res;
}

Accounts::Response rate_limited(const Accounts::Request& req, int wait) {
  auto res = error(req, 429, "rate_limited", "Too many attempts; try again in " + std::to_string(wait) + " s.");
  res.set(http::field::retry_after, std::to_string(wait));
  return res;
}

std::string random_code() {
  std::string out;
  // Rejection sampling: every character equally likely.
  const unsigned limit = 256 - 256 % kCodeAlphabet.size();
  while (out.size() < kCodeLength) {
    unsigned char bytes[16];
    random_bytes(bytes, sizeof bytes);
    for (unsigned char b : bytes) {
      if (b < limit && out.size() < kCodeLength) out += kCodeAlphabet[b % kCodeAlphabet.size()];
    }
  }
  return out;
}

// The code as typed (any case, spaces and dashes) in its stored form, or "".
std::string normal_code(const std::string& typed) {
  std::string out;
  for (char c : typed) {
    if (c == '-' || c == ' ') continue;
    const char up = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    if (kCodeAlphabet.find(up) == std::string_view::npos) return {};
    out += up;
  }
  return out.size() == kCodeLength ? out : std::string();
}

// The device's name as the player will see it in their sessions: the label
// they gave, else the browser's User-Agent (api::clean_label).
std::string label_of(const Accounts::Request& req, const json& body) {
  std::string raw = string_field(body, "label").value_or("");
  if (raw.empty()) raw = std::string(req[http::field::user_agent]);
  return api::clean_label(raw, "device");
}

json account_json(const std::string& player_id, const std::string& name,
                  const std::optional<account_rows::Account>& account, std::int64_t created_at) {
  json out = {{"player_id", player_id},
              {"name", name},
              {"handle", account ? json(account->handle) : json(nullptr)},
              {"is_bot", account && account->is_bot},
              {"guest", !account},
              {"has_password", account && !account->password_hash.empty()},
              {"created_at", account ? account->created_at : created_at}};
  return out;
}

bool good_password(const std::string& password) {
  return password.size() >= kMinPassword && password.size() <= kMaxPassword;
}

}  // namespace

std::string hash_password(const std::string& password) {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
    return {};
  }
  return out;
}

bool check_password(const std::string& stored, const std::string& password) {
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

Accounts::Accounts(Lobby& lobby, Store& store, const Config& config)
    : lobby_(lobby),
      store_(store),
      config_(config),
      signin_by_address_(10, 1.0 / 60),
      signin_by_handle_(10, 1.0 / 60),
      redeem_by_address_(10, 1.0 / 60),
      codes_by_player_(10, 1.0 / 60),
      passkeys_(std::make_unique<Passkeys>(store, *this, config)) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
}

Accounts::~Accounts() { worker_.join(); }

void Accounts::handle(const Request& request, const std::string& path, const std::string& address,
                      std::function<void(Response)> answer) {
  if (queued_.fetch_add(1) >= kMaxQueued) {
    queued_.fetch_sub(1);
    answer(error(request, 503, "busy", "The server is busy; send it again in a moment."));
    return;
  }
  auto copy = std::make_shared<Request>(request);
  asio::post(worker_, [this, copy, path, address, answer = std::move(answer)] {
    Response res;
    try {
      res = this->answer(*copy, path, address);
    } catch (const std::exception& e) {
      spdlog::warn("account API: {} failed: {}", path, e.what());
      res = error(*copy, 503, "storage_unavailable", "The accounts cannot be read now.");
    }
    queued_.fetch_sub(1);
    answer(std::move(res));
  });
}

std::optional<Accounts::Caller> Accounts::authenticate(const Request& request) {
  const auto field = request.find(http::field::authorization);
  if (field == request.end()) return std::nullopt;
  const std::string_view value = field->value();
  constexpr std::string_view kScheme = "Bearer ";
  if (value.size() <= kScheme.size() || !boost::beast::iequals(value.substr(0, kScheme.size()), kScheme)) {
    return std::nullopt;
  }
  const std::string hash = sha256_hex(value.substr(kScheme.size()));
  std::optional<account_rows::Session> session;
  store_.read([&](Db& db) { session = account_rows::session(db, hash); });
  if (!session) return std::nullopt;
  const std::int64_t now = Store::now();
  if (now - session->last_used_at >= kTouchSeconds) {
    store_.write([hash, now](Db& db) { account_rows::touch_session(db, hash, now); }, [](bool) {});
  }
  return Caller{session->player_id, hash, hash.substr(0, 16), lobby_.is_banned(session->player_id)};
}

std::string Accounts::issue_session(const std::string& player_id, const std::string& label) {
  const std::string token = random_token();
  const std::string hash = sha256_hex(token);
  const std::int64_t now = Store::now();
  const bool ok = write_and_wait(store_, [s = account_rows::Session{hash, player_id, label, now, now}](Db& db) {
    account_rows::add_session(db, s);
  });
  if (!ok) return {};
  lobby_.session_added(hash, player_id);
  return token;
}

Accounts::Response Accounts::answer(const Request& req, const std::string& path, const std::string& address) {
  const auto method = req.method();
  auto wrong_method = [&](const char* allow) {
    auto res = error(req, 405, "method_not_allowed", std::string("This resource takes ") + allow + ".");
    res.set(http::field::allow, allow);
    return res;
  };
  // Passkeys: their sign-in needs no session, the rest checks the caller's.
  if (Passkeys::owns(path)) {
    const auto caller = authenticate(req);
    return passkeys_->answer(req, path, address, caller);
  }
  // Without a session first.
  if (path == "/api/account/signin") {
    if (method != http::verb::post) return wrong_method("POST");
    return sign_in(req, address);
  }
  if (path == "/api/account/device-codes/redeem") {
    if (method != http::verb::post) return wrong_method("POST");
    return redeem_code(req, address);
  }
  const auto caller = authenticate(req);
  if (!caller) return unauthorized(req);
  if (caller->banned) return error(req, 403, "banned", "This player is banned from this server.");
  const bool get = method == http::verb::get || method == http::verb::head;
  if (path == "/api/account" || path == "/api/account/") {
    if (!get) return wrong_method("GET, HEAD");
    return account_of(req, *caller);
  }
  if (path == "/api/account/claim") {
    if (method != http::verb::post) return wrong_method("POST");
    return claim(req, *caller);
  }
  if (path == "/api/account/password") {
    if (method != http::verb::post) return wrong_method("POST");
    return set_password(req, *caller);
  }
  if (path == "/api/account/device-codes") {
    if (method != http::verb::post) return wrong_method("POST");
    return create_code(req, *caller);
  }
  if (path == "/api/account/sessions") {
    if (!get) return wrong_method("GET, HEAD");
    return list_sessions(req, *caller);
  }
  constexpr std::string_view kSessions = "/api/account/sessions/";
  if (path.rfind(kSessions, 0) == 0 && path.size() > kSessions.size()) {
    if (method != http::verb::delete_) return wrong_method("DELETE");
    return revoke(req, *caller, path.substr(kSessions.size()));
  }
  if (path == "/api/account/signout") {
    if (method != http::verb::post) return wrong_method("POST");
    return revoke(req, *caller, caller->session_id);
  }
  return error(req, 404, "not_found", "No such account resource.");
}

Accounts::Response Accounts::account_of(const Request& req, const Caller& caller) {
  std::optional<account_rows::Account> account;
  std::int64_t created_at = 0;
  store_.read([&](Db& db) {
    account = account_rows::by_player(db, caller.player_id);
    created_at = account_rows::player_created_at(db, caller.player_id);
  });
  return reply(req, 200, account_json(caller.player_id, lobby_.name_of(caller.player_id), account, created_at));
}

Accounts::Response Accounts::claim(const Request& req, const Caller& caller) {
  const auto body = body_of(req);
  if (!body) return error(req, 400, "bad_request", "Send a JSON object.");
  const auto handle = string_field(*body, "handle");
  if (!handle) return error(req, 400, "bad_handle", "Send the handle to claim as \"handle\".");
  const HandleForm form = normalize_handle(*handle);
  if (form.refusal) return error(req, 400, form.refusal->code, form.refusal->message);
  std::string password_hash;
  if (body->contains("password")) {
    const auto password = string_field(*body, "password");
    if (!password || !good_password(*password)) {
      return error(req, 400, "bad_password", "A password is 8 to 1024 bytes long.");
    }
    password_hash = hash_password(*password);
    if (password_hash.empty()) return error(req, 503, "busy", "The password cannot be stored now.");
  }
  bool bot = false;
  if (body->contains("bot")) {
    if (!(*body)["bot"].is_boolean()) return error(req, 400, "bad_request", "\"bot\" is true or false.");
    bot = (*body)["bot"].get<bool>();
  }
  std::optional<account_rows::Account> mine, same, alike;
  store_.read([&](Db& db) {
    mine = account_rows::by_player(db, caller.player_id);
    same = account_rows::by_key(db, form.key);
    alike = account_rows::by_skeleton(db, form.skeleton);
  });
  auto taken = [&] { return error(req, 409, "handle_taken", "This handle belongs to another player."); };
  auto confusable = [&] {
    return error(req, 409, "handle_confusable", "This handle looks like another player's; choose another.");
  };
  if (mine) return error(req, 409, "already_claimed", "This player has claimed the handle " + mine->handle + ".");
  if (same) return taken();
  if (alike) return confusable();
  // A banned player's name (or a look-alike) is nobody's to claim.
  if (lobby_.name_reserved(form.skeleton) && name_skeleton(lobby_.name_of(caller.player_id)) != form.skeleton) {
    return taken();
  }
  const account_rows::Account account{caller.player_id, form.display, form.key, form.skeleton,
                                      password_hash,    bot,          Store::now()};
  if (!write_and_wait(store_, [account](Db& db) { account_rows::claim(db, account); })) {
    // Most likely another claim of the same (or a look-alike) handle came first.
    store_.read([&](Db& db) {
      same = account_rows::by_key(db, form.key);
      alike = account_rows::by_skeleton(db, form.skeleton);
    });
    if (same) return taken();
    if (alike) return confusable();
    return error(req, 503, "storage_unavailable", "The claim could not be stored.");
  }
  lobby_.account_claimed(caller.player_id, form.display, form.skeleton);
  const LogAbout about({}, caller.player_id);
  spdlog::info("player {} claimed the handle {}{}", caller.player_id, log_quote(form.display), bot ? " (a bot)" : "");
  return reply(req, 200, account_json(caller.player_id, form.display, account, account.created_at));
}

Accounts::Response Accounts::set_password(const Request& req, const Caller& caller) {
  const auto body = body_of(req);
  if (!body) return error(req, 400, "bad_request", "Send a JSON object.");
  const auto password = string_field(*body, "password");
  if (!password || !good_password(*password)) {
    return error(req, 400, "bad_password", "A password is 8 to 1024 bytes long.");
  }
  std::optional<account_rows::Account> account;
  store_.read([&](Db& db) { account = account_rows::by_player(db, caller.player_id); });
  if (!account) return error(req, 409, "not_claimed", "Claim a handle first.");
  if (!account->password_hash.empty()) {
    const auto old = string_field(*body, "old_password");
    if (!old || !check_password(account->password_hash, *old)) {
      return error(req, 403, "bad_credentials", "The current password is wrong.");
    }
  }
  const std::string hash = hash_password(*password);
  if (hash.empty()) return error(req, 503, "busy", "The password cannot be stored now.");
  if (!write_and_wait(store_, [pid = caller.player_id, hash](Db& db) { account_rows::set_password(db, pid, hash); })) {
    return error(req, 503, "storage_unavailable", "The password could not be stored.");
  }
  return reply(req, 200, json{{"has_password", true}});
}

Accounts::Response Accounts::sign_in(const Request& req, const std::string& address) {
  const auto body = body_of(req);
  if (!body) return error(req, 400, "bad_request", "Send a JSON object.");
  const auto handle = string_field(*body, "handle");
  const auto password = string_field(*body, "password");
  if (!handle || !password) return error(req, 400, "bad_request", "Send \"handle\" and \"password\".");
  const HandleForm form = normalize_handle(*handle);
  // Not-a-handle text is limited like any handle (by its bytes, lowercased by ASCII).
  std::string key = form.refusal ? *handle : form.key;
  if (key.size() > 256) key.resize(256);
  if (!signin_by_address_.has(address)) return rate_limited(req, signin_by_address_.wait_seconds(address));
  if (!signin_by_handle_.has(key)) return rate_limited(req, signin_by_handle_.wait_seconds(key));
  signin_by_address_.take(address);
  signin_by_handle_.take(key);
  std::optional<account_rows::Account> account;
  if (!form.refusal) store_.read([&](Db& db) { account = account_rows::by_key(db, form.key); });
  bool good = false;
  if (account && !account->password_hash.empty()) {
    good = check_password(account->password_hash, *password);
  } else {
    // The same work as a real check, so the time taken tells nothing.
    if (dummy_hash_.empty()) dummy_hash_ = hash_password(random_token());
    check_password(dummy_hash_, *password);
  }
  if (!good) {
    spdlog::info("sign-in refused from {}", address);
    return error(req, 401, "bad_credentials", "This handle and password do not match.");
  }
  if (lobby_.is_banned(account->player_id)) return error(req, 403, "banned", "This player is banned from this server.");
  if (crypto_pwhash_str_needs_rehash(account->password_hash.c_str(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                     crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
    if (const std::string hash = hash_password(*password); !hash.empty()) {
      write_and_wait(store_, [pid = account->player_id, hash](Db& db) { account_rows::set_password(db, pid, hash); });
    }
  }
  const std::string token = issue_session(account->player_id, label_of(req, *body));
  if (token.empty()) return error(req, 503, "storage_unavailable", "The session could not be stored.");
  const LogAbout about({}, account->player_id);
  spdlog::info("player {} signed in with a password from {}", account->player_id, address);
  return reply(req, 200, json{{"token", token}, {"player_id", account->player_id}, {"name", account->handle}});
}

Accounts::Response Accounts::create_code(const Request& req, const Caller& caller) {
  std::optional<account_rows::Account> account;
  store_.read([&](Db& db) { account = account_rows::by_player(db, caller.player_id); });
  if (!account) return error(req, 409, "not_claimed", "Claim a handle first: a guest has one device.");
  if (!codes_by_player_.take(caller.player_id)) {
    return rate_limited(req, codes_by_player_.wait_seconds(caller.player_id));
  }
  const std::string code = random_code();
  const std::int64_t now = Store::now();
  const std::int64_t expires = now + kCodeSeconds;
  const bool ok = write_and_wait(store_, [hash = sha256_hex(code), pid = caller.player_id, now, expires](Db& db) {
    account_rows::delete_expired_codes(db, now - 24 * 3600);
    account_rows::add_device_code(db, hash, pid, now, expires);
  });
  if (!ok) return error(req, 503, "storage_unavailable", "The code could not be stored.");
  return reply(req, 200,
               json{{"code", code.substr(0, 4) + "-" + code.substr(4)}, {"expires_at", expires}, {"expires_in", kCodeSeconds}});
}

Accounts::Response Accounts::redeem_code(const Request& req, const std::string& address) {
  const auto body = body_of(req);
  if (!body) return error(req, 400, "bad_request", "Send a JSON object.");
  const auto typed = string_field(*body, "code");
  if (!typed) return error(req, 400, "bad_request", "Send the code as \"code\".");
  if (!redeem_by_address_.take(address)) return rate_limited(req, redeem_by_address_.wait_seconds(address));
  const std::string code = normal_code(*typed);
  auto bad = [&] { return error(req, 401, "bad_code", "This code is unknown, used or expired."); };
  if (code.empty()) return bad();
  std::optional<std::string> player;
  const std::int64_t now = Store::now();
  const bool ok = write_and_wait(store_, [&player, hash = sha256_hex(code), now](Db& db) {
    player = account_rows::use_device_code(db, hash, now);
  });
  if (!ok) return error(req, 503, "storage_unavailable", "The code cannot be checked now.");
  if (!player) return bad();
  if (lobby_.is_banned(*player)) return error(req, 403, "banned", "This player is banned from this server.");
  const std::string token = issue_session(*player, label_of(req, *body));
  if (token.empty()) return error(req, 503, "storage_unavailable", "The session could not be stored.");
  const LogAbout about({}, *player);
  spdlog::info("player {} signed in with a device code from {}", *player, address);
  return reply(req, 200, json{{"token", token}, {"player_id", *player}, {"name", lobby_.name_of(*player)}});
}

Accounts::Response Accounts::list_sessions(const Request& req, const Caller& caller) {
  std::vector<account_rows::Session> sessions;
  store_.read([&](Db& db) { sessions = account_rows::sessions_of(db, caller.player_id); });
  json list = json::array();
  for (const auto& s : sessions) {
    list.push_back({{"id", s.token_hash.substr(0, 16)},
                    {"label", s.label},
                    {"created_at", s.created_at},
                    {"last_used_at", s.last_used_at},
                    {"current", s.token_hash == caller.token_hash},
                    {"connected", lobby_.session_connected(s.token_hash)}});
  }
  return reply(req, 200, json{{"sessions", std::move(list)}});
}

Accounts::Response Accounts::revoke(const Request& req, const Caller& caller, const std::string& session_id) {
  std::vector<account_rows::Session> sessions;
  store_.read([&](Db& db) { sessions = account_rows::sessions_of(db, caller.player_id); });
  std::string hash;
  for (const auto& s : sessions) {
    if (session_id.size() == 16 && s.token_hash.compare(0, 16, session_id) == 0) hash = s.token_hash;
  }
  if (hash.empty()) return error(req, 404, "no_such_session", "This player has no such session.");
  if (!write_and_wait(store_, [hash](Db& db) { account_rows::delete_session(db, hash); })) {
    return error(req, 503, "storage_unavailable", "The session could not be revoked now.");
  }
  lobby_.sessions_revoked({hash}, {"session_revoked", "This device was signed out."});
  const LogAbout about({}, caller.player_id);
  spdlog::info("player {} revoked a session", caller.player_id);
  return reply(req, 200, json{{"id", session_id}, {"revoked", true}});
}

}  // namespace casa::server
