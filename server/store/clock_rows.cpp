// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/clock_rows.h"

#include <nlohmann/json.hpp>

namespace casa::server::clock_rows {

namespace {
std::vector<int> seats_of(const std::string& text) {
  std::vector<int> out;
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_array()) return out;
  for (const auto& s : parsed) {
    if (s.is_number_integer()) out.push_back(s.get<int>());
  }
  return out;
}
}  // namespace

void save(Db& db, const std::string& table, const StoredClock& clock) {
  db.prepare(
        "INSERT INTO move_clocks (table_id, seq, seats, deadline_ms, timed_out) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, seats = excluded.seats, "
        "deadline_ms = excluded.deadline_ms, timed_out = excluded.timed_out")
      .bind(1, table)
      .bind(2, clock.seq)
      .bind_text(3, nlohmann::json(clock.seats).dump())
      .bind(4, clock.deadline_ms)
      .bind_text(5, nlohmann::json(clock.timed_out).dump())
      .run();
}

std::optional<StoredClock> load(Db& db, const std::string& table) {
  auto& q = db.prepare("SELECT seq, seats, deadline_ms, timed_out FROM move_clocks WHERE table_id = ?");
  q.bind(1, table);
  std::optional<StoredClock> clock;
  if (q.step()) clock = StoredClock{q.int_at(0), seats_of(q.text_at(1)), q.int_at(2), seats_of(q.text_at(3))};
  q.run();
  return clock;
}

std::vector<PlayerTable> player_tables(Db& db, const std::string& player_id) {
  auto& q = db.prepare(
      "SELECT t.id, t.game, t.players, s.seat, t.status, t.correspondence, t.move_timeout_seconds, "
      "c.seq, c.seats, c.deadline_ms, c.timed_out FROM seats s JOIN tables t ON t.id = s.table_id "
      "LEFT JOIN move_clocks c ON c.table_id = t.id "
      "WHERE s.player_id = ? AND t.status IN ('waiting', 'playing') ORDER BY t.rowid");
  q.bind(1, player_id);
  std::vector<PlayerTable> out;
  while (q.step()) {
    PlayerTable row;
    row.table = q.text_at(0);
    row.game = q.text_at(1);
    row.players = static_cast<int>(q.int_at(2));
    row.seat = static_cast<int>(q.int_at(3));
    row.status = q.text_at(4);
    row.correspondence = q.int_at(5) != 0;
    row.move_timeout_seconds = static_cast<int>(q.int_at(6));
    if (!q.null_at(7)) {
      row.clock = StoredClock{q.int_at(7), seats_of(q.text_at(8)), q.int_at(9), seats_of(q.text_at(10))};
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace casa::server::clock_rows
