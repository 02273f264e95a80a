// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/account_rows.h"

#include "server/ops/handles.h"

namespace casa::server::account_rows {
namespace {

constexpr const char* kAccountColumns =
    "SELECT player_id, handle, handle_key, skeleton, password_hash, is_bot, created_at FROM accounts ";

std::optional<Account> one_account(Db::Stmt& q) {
  std::optional<Account> found;
  if (q.step()) {
    found = Account{q.text_at(0), q.text_at(1), q.text_at(2), q.text_at(3), q.text_at(4), q.int_at(5) != 0,
                    q.int_at(6)};
  }
  q.run();
  return found;
}

std::optional<Account> account_where(Db& db, const std::string& where, const std::string& value) {
  auto& q = db.prepare(std::string(kAccountColumns) + where);
  q.bind_text(1, value);
  return one_account(q);
}

}  // namespace

std::optional<Account> by_player(Db& db, const std::string& player_id) {
  return account_where(db, "WHERE player_id = ?", player_id);
}

std::optional<Account> by_handle(Db& db, const std::string& handle) {
  const HandleForm form = normalize_handle(handle);
  if (form.refusal) return std::nullopt;
  return by_key(db, form.key);
}

std::optional<Account> by_key(Db& db, const std::string& handle_key) {
  return account_where(db, "WHERE handle_key = ?", handle_key);
}

std::optional<Account> by_skeleton(Db& db, const std::string& skeleton) {
  return account_where(db, "WHERE skeleton = ?", skeleton);
}

void claim(Db& db, const Account& a) {
  db.prepare("INSERT INTO accounts (player_id, handle, handle_key, skeleton, password_hash, is_bot, created_at) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind_text(1, a.player_id)
      .bind_text(2, a.handle)
      .bind_text(3, a.handle_key)
      .bind_text(4, a.skeleton)
      .bind(5, a.password_hash)
      .bind(6, std::int64_t{a.is_bot ? 1 : 0})
      .bind(7, a.created_at)
      .run();
  db.prepare("UPDATE players SET name = ? WHERE id = ?").bind_text(1, a.handle).bind_text(2, a.player_id).run();
}

void set_password(Db& db, const std::string& player_id, const std::string& password_hash) {
  db.prepare("UPDATE accounts SET password_hash = ? WHERE player_id = ?")
      .bind(1, password_hash)
      .bind_text(2, player_id)
      .run();
}

std::vector<std::string> skeletons(Db& db) {
  auto& q = db.prepare("SELECT skeleton FROM accounts");
  std::vector<std::string> out;
  while (q.step()) out.push_back(q.text_at(0));
  return out;
}

std::optional<Session> session(Db& db, const std::string& token_hash) {
  auto& q = db.prepare("SELECT token_hash, player_id, label, created_at, last_used_at FROM sessions WHERE token_hash = ?");
  q.bind_text(1, token_hash);
  std::optional<Session> found;
  if (q.step()) found = Session{q.text_at(0), q.text_at(1), q.text_at(2), q.int_at(3), q.int_at(4)};
  q.run();
  return found;
}

std::vector<Session> sessions_of(Db& db, const std::string& player_id) {
  auto& q = db.prepare(
      "SELECT token_hash, player_id, label, created_at, last_used_at FROM sessions WHERE player_id = ? "
      "ORDER BY created_at DESC, token_hash");
  q.bind_text(1, player_id);
  std::vector<Session> out;
  while (q.step()) out.push_back({q.text_at(0), q.text_at(1), q.text_at(2), q.int_at(3), q.int_at(4)});
  return out;
}

std::vector<std::pair<std::string, std::string>> all_sessions(Db& db) {
  auto& q = db.prepare("SELECT token_hash, player_id FROM sessions");
  std::vector<std::pair<std::string, std::string>> out;
  while (q.step()) out.emplace_back(q.text_at(0), q.text_at(1));
  return out;
}

void add_session(Db& db, const Session& s) {
  db.prepare("INSERT INTO sessions (token_hash, player_id, label, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)")
      .bind_text(1, s.token_hash)
      .bind_text(2, s.player_id)
      .bind_text(3, s.label)
      .bind(4, s.created_at)
      .bind(5, s.last_used_at)
      .run();
}

void touch_session(Db& db, const std::string& token_hash, std::int64_t at) {
  db.prepare("UPDATE sessions SET last_used_at = ? WHERE token_hash = ?").bind(1, at).bind_text(2, token_hash).run();
}

void delete_session(Db& db, const std::string& token_hash) {
  db.prepare("DELETE FROM sessions WHERE token_hash = ?").bind_text(1, token_hash).run();
}

std::vector<std::string> delete_sessions_of(Db& db, const std::string& player_id) {
  std::vector<std::string> hashes;
  for (const auto& s : sessions_of(db, player_id)) hashes.push_back(s.token_hash);
  db.prepare("DELETE FROM sessions WHERE player_id = ?").bind_text(1, player_id).run();
  return hashes;
}

void add_device_code(Db& db, const std::string& code_hash, const std::string& player_id, std::int64_t now,
                     std::int64_t expires_at) {
  db.prepare("INSERT INTO device_codes (code_hash, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
      .bind_text(1, code_hash)
      .bind_text(2, player_id)
      .bind(3, now)
      .bind(4, expires_at)
      .run();
}

std::optional<std::string> use_device_code(Db& db, const std::string& code_hash, std::int64_t now) {
  // One statement: of two redeems of one code (on two nodes, say), only one
  // finds it unused.
  auto& q = db.prepare(
      "UPDATE device_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? "
      "RETURNING player_id");
  q.bind(1, now).bind_text(2, code_hash).bind(3, now);
  std::optional<std::string> player;
  if (q.step()) player = q.text_at(0);
  q.run();
  return player;
}

void delete_expired_codes(Db& db, std::int64_t before) {
  db.prepare("DELETE FROM device_codes WHERE expires_at < ?").bind(1, before).run();
}

}  // namespace casa::server::account_rows
