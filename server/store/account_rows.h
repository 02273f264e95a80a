// SPDX-License-Identifier: AGPL-3.0-or-later
// The rows of accounts, sessions and device link codes (migration 0011,
// docs/accounts.md). Every function runs inside Store::read or Store::write
// (it is given the Db). Tokens and codes are only ever seen here as their hex
// SHA-256; handles as the forms server/ops/handles.h makes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::account_rows {

struct Account {
  std::string player_id;
  std::string handle;      // as claimed (NFKC)
  std::string handle_key;  // NFKC case-folded
  std::string skeleton;    // UTS #39 skeleton of handle_key
  std::string password_hash;  // crypto_pwhash_str; empty when none
  bool is_bot = false;
  std::int64_t created_at = 0;
};

struct Session {
  std::string token_hash;
  std::string player_id;
  std::string label;
  std::int64_t created_at = 0;
  std::int64_t last_used_at = 0;
};

std::optional<Account> by_player(Db& db, const std::string& player_id);
// Any spelling of the handle (normalised here); nullopt for no account.
std::optional<Account> by_handle(Db& db, const std::string& handle);
std::optional<Account> by_key(Db& db, const std::string& handle_key);
std::optional<Account> by_skeleton(Db& db, const std::string& skeleton);
// Stores the claim and sets the player's display name to the handle. Throws
// when the key or the skeleton is taken (the unique keys hold under races).
void claim(Db& db, const Account& account);
void set_password(Db& db, const std::string& player_id, const std::string& password_hash);
// Every claimed handle's skeleton (guests may not take these names).
std::vector<std::string> skeletons(Db& db);

std::optional<Session> session(Db& db, const std::string& token_hash);
std::vector<Session> sessions_of(Db& db, const std::string& player_id);  // newest first
// Every (token hash, player id): the lobby's map of live tokens.
std::vector<std::pair<std::string, std::string>> all_sessions(Db& db);
void add_session(Db& db, const Session& session);
void touch_session(Db& db, const std::string& token_hash, std::int64_t at);
void delete_session(Db& db, const std::string& token_hash);
// Every session of the player; returns their token hashes.
std::vector<std::string> delete_sessions_of(Db& db, const std::string& player_id);

// A new device code (its hash), valid until expires_at.
void add_device_code(Db& db, const std::string& code_hash, const std::string& player_id, std::int64_t now,
                     std::int64_t expires_at);
// Marks the code used and returns its player, when it exists, is unused and
// has not expired at `now`; nullopt otherwise (it then changes nothing).
std::optional<std::string> use_device_code(Db& db, const std::string& code_hash, std::int64_t now);
// Forgets codes that expired before `before`.
void delete_expired_codes(Db& db, std::int64_t before);

}  // namespace casa::server::account_rows
