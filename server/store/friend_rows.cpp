// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/friend_rows.h"

namespace casa::server::friend_rows {

void add(Db& db, const std::string& player_id, const std::string& friend_id, std::int64_t now) {
  db.prepare(
        "INSERT INTO friends (player_id, friend_id, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (player_id, friend_id) DO NOTHING")
      .bind_text(1, player_id)
      .bind_text(2, friend_id)
      .bind(3, now)
      .run();
}

bool remove(Db& db, const std::string& player_id, const std::string& friend_id) {
  auto& q = db.prepare("SELECT 1 FROM friends WHERE player_id = ? AND friend_id = ?");
  q.bind_text(1, player_id).bind_text(2, friend_id);
  const bool found = q.step();
  q.run();
  if (!found) return false;
  db.prepare("DELETE FROM friends WHERE player_id = ? AND friend_id = ?")
      .bind_text(1, player_id)
      .bind_text(2, friend_id)
      .run();
  return true;
}

std::vector<Entry> added_by(Db& db, const std::string& player_id) {
  auto& q = db.prepare(
      "SELECT f.friend_id, a.handle, p.name, f.created_at, "
      "CASE WHEN EXISTS (SELECT 1 FROM friends r WHERE r.player_id = f.friend_id AND r.friend_id = f.player_id) "
      "THEN 1 ELSE 0 END "
      "FROM friends f JOIN players p ON p.id = f.friend_id LEFT JOIN accounts a ON a.player_id = f.friend_id "
      "WHERE f.player_id = ? ORDER BY f.created_at, f.friend_id");
  q.bind_text(1, player_id);
  std::vector<Entry> out;
  while (q.step()) out.push_back({q.text_at(0), q.text_at(1), q.text_at(2), q.int_at(4) != 0, q.int_at(3)});
  return out;
}

std::vector<Entry> requests_to(Db& db, const std::string& player_id) {
  auto& q = db.prepare(
      "SELECT f.player_id, a.handle, p.name, f.created_at "
      "FROM friends f JOIN players p ON p.id = f.player_id LEFT JOIN accounts a ON a.player_id = f.player_id "
      "WHERE f.friend_id = ? AND NOT EXISTS "
      "(SELECT 1 FROM friends r WHERE r.player_id = f.friend_id AND r.friend_id = f.player_id) "
      "ORDER BY f.created_at, f.player_id");
  q.bind_text(1, player_id);
  std::vector<Entry> out;
  while (q.step()) out.push_back({q.text_at(0), q.text_at(1), q.text_at(2), false, q.int_at(3)});
  return out;
}

std::int64_t count(Db& db, const std::string& player_id) {
  auto& q = db.prepare("SELECT COUNT(*) FROM friends WHERE player_id = ?");
  q.bind_text(1, player_id);
  std::int64_t n = 0;
  if (q.step()) n = q.int_at(0);
  q.run();
  return n;
}

bool mutual(Db& db, const std::string& a, const std::string& b) {
  auto& q = db.prepare(
      "SELECT COUNT(*) FROM friends WHERE (player_id = ? AND friend_id = ?) OR (player_id = ? AND friend_id = ?)");
  q.bind_text(1, a).bind_text(2, b).bind_text(3, b).bind_text(4, a);
  std::int64_t n = 0;
  if (q.step()) n = q.int_at(0);
  q.run();
  return n == 2;
}

}  // namespace casa::server::friend_rows
