// SPDX-License-Identifier: AGPL-3.0-or-later
// The rows of passkeys (WebAuthn credentials) and of the challenges handed out
// for their ceremonies (migration 0012, docs/accounts.md#passkeys). Every
// function runs inside Store::read or Store::write (it is given the Db).
//
// Invariants: a credential id belongs to one player; a challenge is taken at
// most once (take_challenge deletes the row it reads, in one statement, so two
// requests racing with the same challenge cannot both get it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::passkey_rows {

struct Passkey {
  std::string credential_id;  // base64url
  std::string player_id;
  std::string public_key;  // base64url of the COSE_Key
  std::int64_t algorithm = 0;
  std::int64_t sign_count = 0;
  std::string label;
  std::int64_t created_at = 0;
  std::int64_t last_used_at = 0;  // 0: never used to sign in
};

// False when the credential id is already stored (for anyone).
bool add(Db& db, const Passkey& passkey);
std::optional<Passkey> by_credential(Db& db, const std::string& credential_id);
// The player's passkeys, oldest first.
std::vector<Passkey> of_player(Db& db, const std::string& player_id);
// After an accepted sign-in: the new counter and time, only if the stored
// counter is still `old_count` (false otherwise: another sign-in came first).
bool record_use(Db& db, const std::string& credential_id, std::int64_t old_count, std::int64_t new_count,
                std::int64_t at);
// False when the player has no such passkey.
bool remove(Db& db, const std::string& player_id, const std::string& credential_id);

struct Challenge {
  std::string purpose;    // "register" or "signin"
  std::string player_id;  // who registers; empty for a sign-in
  std::int64_t expires_at = 0;
};
// Keeps a challenge (by the hex SHA-256 of its bytes) and forgets those that
// expired at or before `now`.
void add_challenge(Db& db, const std::string& challenge_hash, const Challenge& challenge, std::int64_t now);
// The challenge, deleted as it is read (whether or not it has expired).
std::optional<Challenge> take_challenge(Db& db, const std::string& challenge_hash);
// How many challenges are kept (expired ones included until the next add).
std::int64_t challenge_count(Db& db);

}  // namespace casa::server::passkey_rows
