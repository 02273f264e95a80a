// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/admin_rows.h"

namespace casa::server::admin_rows {

std::set<std::string> banned_players(Db& db) {
  auto& q = db.prepare("SELECT player_id FROM bans");
  std::set<std::string> banned;
  while (q.step()) banned.insert(q.text_at(0));
  return banned;
}

bool is_banned(Db& db, const std::string& player_id) {
  auto& q = db.prepare("SELECT 1 FROM bans WHERE player_id = ?");
  q.bind_text(1, player_id);
  const bool banned = q.step();
  q.run();
  return banned;
}

std::vector<std::string> banned_name_skeletons(Db& db) {
  auto& q = db.prepare("SELECT name_skeleton FROM bans WHERE name_skeleton IS NOT NULL");
  std::vector<std::string> out;
  while (q.step()) out.push_back(q.text_at(0));
  return out;
}

void ban(Db& db, const Ban& ban) {
  db.prepare(
        "INSERT INTO bans (player_id, reason, banned_at, name_skeleton) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (player_id) DO UPDATE SET reason = excluded.reason, banned_at = "
        "excluded.banned_at, name_skeleton = excluded.name_skeleton")
      .bind_text(1, ban.player_id)
      .bind_text(2, ban.reason)
      .bind(3, ban.banned_at)
      .bind(4, ban.name_skeleton)
      .run();
}

void unban(Db& db, const std::string& player_id) {
  db.prepare("DELETE FROM bans WHERE player_id = ?").bind_text(1, player_id).run();
}

std::vector<Ban> bans(Db& db) {
  auto& q = db.prepare("SELECT player_id, reason, banned_at FROM bans ORDER BY banned_at, player_id");
  std::vector<Ban> out;
  while (q.step()) out.push_back({q.text_at(0), q.text_at(1), q.int_at(2), {}});
  return out;
}

void set_closed_reason(Db& db, const std::string& table, const std::string& reason) {
  db.prepare("UPDATE tables SET closed_reason = ? WHERE id = ?").bind_text(1, reason).bind(2, table).run();
}

std::optional<std::string> table_status(Db& db, const std::string& table) {
  auto& q = db.prepare("SELECT status FROM tables WHERE id = ?");
  q.bind_text(1, table);
  std::optional<std::string> status;
  if (q.step()) status = q.text_at(0);
  q.run();
  return status;
}

}  // namespace casa::server::admin_rows
