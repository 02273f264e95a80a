// SPDX-License-Identifier: AGPL-3.0-or-later
// Passkeys under /api/account/passkeys (docs/accounts.md#passkeys): the two
// WebAuthn ceremonies over HTTP (registration by a signed-in player with a
// claimed handle; sign-in by anyone, which makes a new session), and the
// player's list of passkeys. The checks themselves are server/accounts/webauthn.h;
// this file keeps the challenges and the credentials in the store.
//
// Invariants:
//  * Runs on the accounts' worker thread (Accounts::handle hands the request
//    over), so the store is read and written synchronously here.
//  * A challenge is 32 random bytes, kept only as its SHA-256, for
//    kChallengeSeconds, and used at most once: the finishing request deletes it
//    as it reads it, whether the ceremony then succeeds or not.
//  * A sign-in's counter is stored before its session is issued; a credential
//    whose counter does not go up signs no one in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "server/http/accounts.h"
#include "server/ops/buckets.h"
#include "server/ops/config.h"

namespace casa::server {

class Store;

class Passkeys {
 public:
  using Request = Accounts::Request;
  using Response = Accounts::Response;

  static constexpr std::int64_t kChallengeSeconds = 300;
  // Challenges kept at once (all purposes); past it, new ceremonies wait.
  static constexpr std::int64_t kMaxChallenges = 10000;
  // Passkeys one player may hold.
  static constexpr std::size_t kMaxPerPlayer = 20;

  Passkeys(Store& store, Accounts& accounts, const Config& config);

  // True for a path this class answers (under /api/account/passkeys).
  static bool owns(const std::string& path);
  // Answers one request; `caller` is the player its bearer token names, if any.
  Response answer(const Request& request, const std::string& path, const std::string& address,
                  const std::optional<Accounts::Caller>& caller);

 private:
  Response register_options(const Request& request, const Accounts::Caller& caller);
  Response register_finish(const Request& request, const Accounts::Caller& caller);
  Response signin_options(const Request& request, const std::string& address);
  Response signin_finish(const Request& request, const std::string& address);
  Response list(const Request& request, const Accounts::Caller& caller);
  Response remove(const Request& request, const Accounts::Caller& caller, const std::string& id);

  Store& store_;
  Accounts& accounts_;
  Config config_;
  Buckets options_by_address_;
  Buckets signin_by_address_;
};

}  // namespace casa::server
