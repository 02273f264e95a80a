// SPDX-License-Identifier: AGPL-3.0-or-later
// The account API under /api/account/ (docs/accounts.md): claiming a handle,
// passwords (Argon2id through libsodium), signing in, device link codes, the
// list of a player's sessions and their revocation; and the bearer-token
// check other HTTP handlers use.
//
// Invariants:
//  * Every request of the API runs on the accounts' one worker thread, never
//    on a network thread: a password check costs tens of milliseconds and
//    64 MiB, and the store is read and written there synchronously. At most
//    kMaxQueued requests wait; more are answered 503 busy at once.
//  * The store is written first, the lobby told afterwards: a session token is
//    given to no one before its row is committed, and a revoked session's
//    connection is closed only once its row is gone.
//  * Sign-in and redeem attempts spend their rate-limit tokens before any
//    password or code is checked; an unknown handle costs the same Argon2id
//    verification as a wrong password and gets the same answer.
#pragma once

#include <boost/asio/thread_pool.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "server/ops/buckets.h"
#include "server/ops/config.h"

namespace casa::server {

class Lobby;
class Store;

class Accounts {
 public:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  using Response = boost::beast::http::response<boost::beast::http::string_body>;

  // How long a device link code lives, and how many requests may wait.
  static constexpr std::int64_t kCodeSeconds = 300;
  static constexpr int kMaxQueued = 16;

  Accounts(Lobby& lobby, Store& store, const Config& config);
  ~Accounts();  // waits for the request being answered

  // A request under /api/account (`path` without the query). Its answer goes
  // to `answer`, from the worker thread (or at once for 503 busy).
  // `address`: the client's, as --trusted-proxies allow (server/net).
  void handle(const Request& request, const std::string& path, const std::string& address,
              std::function<void(Response)> answer);

  // The player a request's "Authorization: Bearer <session token>" names, or
  // nullopt (no header, an unknown or revoked token). Reads the store: call
  // it off the network threads when it can wait (in cluster mode, always).
  struct Caller {
    std::string player_id;
    std::string token_hash;
    std::string session_id;  // the first 16 hex digits of token_hash
    bool banned = false;
  };
  std::optional<Caller> authenticate(const Request& request);

  // A new session of `player_id` (stored before this returns) and its token;
  // empty when the store refused it. `label`: the device, as the player knows it.
  std::string issue_session(const std::string& player_id, const std::string& label);

 private:
  Response answer(const Request& request, const std::string& path, const std::string& address);
  Response account_of(const Request& request, const Caller& caller);
  Response claim(const Request& request, const Caller& caller);
  Response set_password(const Request& request, const Caller& caller);
  Response sign_in(const Request& request, const std::string& address);
  Response create_code(const Request& request, const Caller& caller);
  Response redeem_code(const Request& request, const std::string& address);
  Response list_sessions(const Request& request, const Caller& caller);
  Response revoke(const Request& request, const Caller& caller, const std::string& session_id);

  Lobby& lobby_;
  Store& store_;
  Config config_;
  Buckets signin_by_address_;
  Buckets signin_by_handle_;
  Buckets redeem_by_address_;
  Buckets codes_by_player_;
  std::string dummy_hash_;  // checked against for unknown handles (worker thread only)
  std::atomic<int> queued_{0};
  boost::asio::thread_pool worker_{1};
};

// The Argon2id string of `password` with the parameters docs/accounts.md
// names (libsodium's interactive limits); empty when libsodium refuses.
std::string hash_password(const std::string& password);
// Whether `password` matches a crypto_pwhash_str string.
bool check_password(const std::string& stored, const std::string& password);

}  // namespace casa::server
