// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/cluster_rows.h"

#include <algorithm>

namespace casa::server::cluster_rows {
namespace {

void read_seats(Db& db, TableRow& t) {
  t.seats.assign(static_cast<std::size_t>(std::max(0, t.players)), {});
  auto& s = db.prepare("SELECT seat, player_id, bot FROM seats WHERE table_id = ?");
  s.bind_text(1, t.id);
  while (s.step()) {
    const auto i = s.int_at(0);
    if (i >= 0 && i < t.players) t.seats[static_cast<std::size_t>(i)] = {s.text_at(1), s.text_at(2), false};
  }
  s.run();
}

}  // namespace

std::optional<std::string> open_table_by_invite(Db& db, const std::string& invite) {
  auto& q = db.prepare("SELECT id FROM tables WHERE invite = ? AND status IN ('waiting', 'playing')");
  q.bind_text(1, invite);
  std::optional<std::string> id;
  if (q.step()) id = q.text_at(0);
  q.run();
  return id;
}

std::vector<std::string> tables_of(Db& db, const std::string& player_id, std::int64_t finished_after) {
  auto& q = db.prepare(
      "SELECT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id "
      "WHERE s.player_id = ? AND (t.status IN ('waiting', 'playing') OR (t.status = 'over' AND t.finished_at > ?))");
  q.bind_text(1, player_id).bind(2, finished_after);
  std::vector<std::string> tables;
  while (q.step()) tables.push_back(q.text_at(0));
  q.run();
  return tables;
}

std::vector<TableRow> open_public_tables(Db& db, const std::string& game) {
  auto& q = db.prepare(
      "SELECT id, game, players, options, move_timeout_seconds, grace_seconds, takeover FROM tables "
      "WHERE status = 'waiting' AND private = 0 AND (? = '' OR game = ?) ORDER BY created_at DESC");
  q.bind_text(1, game).bind_text(2, game);
  std::vector<TableRow> rows;
  while (q.step()) {
    TableRow r;
    r.id = q.text_at(0);
    r.game = q.text_at(1);
    r.players = static_cast<int>(q.int_at(2));
    r.options = q.text_at(3);
    r.move_timeout_seconds = static_cast<int>(q.int_at(4));
    r.grace_seconds = static_cast<int>(q.int_at(5));
    r.takeover = q.text_at(6);
    r.status = "waiting";
    rows.push_back(std::move(r));
  }
  q.run();
  for (auto& r : rows) read_seats(db, r);
  return rows;
}

std::vector<TableRow> unfinished_tables(Db& db) {
  auto& q = db.prepare(
      "SELECT t.id, t.game, t.players, t.private, t.status, t.invite, t.creator, t.options, "
      "t.move_timeout_seconds, t.grace_seconds, t.takeover, l.node_id, "
      "CASE WHEN l.expires_at > clock_timestamp() THEN 1 ELSE 0 END "
      "FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id "
      "WHERE t.status IN ('waiting', 'playing') ORDER BY t.created_at, t.id");
  std::vector<TableRow> rows;
  while (q.step()) {
    TableRow r;
    r.id = q.text_at(0);
    r.game = q.text_at(1);
    r.players = static_cast<int>(q.int_at(2));
    r.is_private = q.int_at(3) != 0;
    r.status = q.text_at(4);
    r.invite = q.text_at(5);
    r.creator = q.text_at(6);
    r.options = q.text_at(7);
    r.move_timeout_seconds = static_cast<int>(q.int_at(8));
    r.grace_seconds = static_cast<int>(q.int_at(9));
    r.takeover = q.text_at(10);
    if (!q.null_at(11)) r.node = q.text_at(11);
    r.lease_live = q.int_at(12) != 0;
    rows.push_back(std::move(r));
  }
  q.run();
  for (auto& r : rows) read_seats(db, r);
  return rows;
}

}  // namespace casa::server::cluster_rows
