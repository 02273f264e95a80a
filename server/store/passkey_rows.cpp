// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/passkey_rows.h"

namespace casa::server::passkey_rows {
namespace {

constexpr const char* kColumns =
    "SELECT credential_id, player_id, public_key, algorithm, sign_count, label, created_at, last_used_at "
    "FROM passkeys ";

Passkey row(Db::Stmt& q) {
  return {q.text_at(0), q.text_at(1), q.text_at(2), q.int_at(3),
          q.int_at(4),  q.text_at(5), q.int_at(6),  q.int_at(7)};
}

}  // namespace

bool add(Db& db, const Passkey& p) {
  auto& q = db.prepare(
      "INSERT INTO passkeys (credential_id, player_id, public_key, algorithm, sign_count, label, created_at, "
      "last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (credential_id) DO NOTHING RETURNING 1");
  q.bind_text(1, p.credential_id)
      .bind_text(2, p.player_id)
      .bind_text(3, p.public_key)
      .bind(4, p.algorithm)
      .bind(5, p.sign_count)
      .bind_text(6, p.label)
      .bind(7, p.created_at)
      .bind(8, p.last_used_at);
  const bool added = q.step();
  q.run();
  return added;
}

std::optional<Passkey> by_credential(Db& db, const std::string& credential_id) {
  static const std::string sql = std::string(kColumns) + "WHERE credential_id = ?";
  auto& q = db.prepare(sql);
  q.bind_text(1, credential_id);
  std::optional<Passkey> found;
  if (q.step()) found = row(q);
  q.run();
  return found;
}

std::vector<Passkey> of_player(Db& db, const std::string& player_id) {
  static const std::string sql = std::string(kColumns) + "WHERE player_id = ? ORDER BY created_at, credential_id";
  auto& q = db.prepare(sql);
  q.bind_text(1, player_id);
  std::vector<Passkey> out;
  while (q.step()) out.push_back(row(q));
  return out;
}

bool record_use(Db& db, const std::string& credential_id, std::int64_t old_count, std::int64_t new_count,
                std::int64_t at) {
  auto& q = db.prepare(
      "UPDATE passkeys SET sign_count = ?, last_used_at = ? WHERE credential_id = ? AND sign_count = ? RETURNING 1");
  q.bind(1, new_count).bind(2, at).bind_text(3, credential_id).bind(4, old_count);
  const bool updated = q.step();
  q.run();
  return updated;
}

bool remove(Db& db, const std::string& player_id, const std::string& credential_id) {
  auto& q = db.prepare("DELETE FROM passkeys WHERE player_id = ? AND credential_id = ? RETURNING 1");
  q.bind_text(1, player_id).bind_text(2, credential_id);
  const bool removed = q.step();
  q.run();
  return removed;
}

void add_challenge(Db& db, const std::string& challenge_hash, const Challenge& c, std::int64_t now) {
  db.prepare("DELETE FROM passkey_challenges WHERE expires_at <= ?").bind(1, now).run();
  db.prepare("INSERT INTO passkey_challenges (challenge_hash, purpose, player_id, expires_at) VALUES (?, ?, ?, ?)")
      .bind_text(1, challenge_hash)
      .bind_text(2, c.purpose)
      .bind_text(3, c.player_id)
      .bind(4, c.expires_at)
      .run();
}

std::optional<Challenge> take_challenge(Db& db, const std::string& challenge_hash) {
  auto& q = db.prepare(
      "DELETE FROM passkey_challenges WHERE challenge_hash = ? RETURNING purpose, player_id, expires_at");
  q.bind_text(1, challenge_hash);
  std::optional<Challenge> taken;
  if (q.step()) taken = Challenge{q.text_at(0), q.text_at(1), q.int_at(2)};
  q.run();
  return taken;
}

std::int64_t challenge_count(Db& db) {
  auto& q = db.prepare("SELECT COUNT(*) FROM passkey_challenges");
  std::int64_t n = q.step() ? q.int_at(0) : 0;
  q.run();
  return n;
}

}  // namespace casa::server::passkey_rows
