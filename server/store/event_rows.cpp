// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/event_rows.h"

namespace casa::server::event_rows {
namespace {

constexpr const char* kEventColumns = "id, game, players, options, boards, seeds, sides, creator, status";

EventRow event_from(const Db::Stmt& q) {
  EventRow e;
  e.id = q.text_at(0);
  e.game = q.text_at(1);
  e.players = q.int_at(2);
  e.options = q.text_at(3);
  e.boards = q.int_at(4);
  e.seeds = q.text_at(5);
  e.sides = q.text_at(6);
  e.creator = q.text_at(7);
  e.status = q.text_at(8);
  return e;
}

std::vector<BoardRow> boards_from(Db::Stmt& q) {
  std::vector<BoardRow> rows;
  while (q.step()) {
    rows.push_back({q.text_at(0), static_cast<int>(q.int_at(1)) - 1, static_cast<int>(q.int_at(2)), q.text_at(3)});
  }
  return rows;
}

}  // namespace

void insert_event(Db& db, const EventRow& e, std::int64_t created_at) {
  db.prepare(
        "INSERT INTO events (id, game, players, options, boards, seeds, sides, creator, "
        "status, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)")
      .bind(1, e.id)
      .bind(2, e.game)
      .bind(3, e.players)
      .bind_text(4, e.options)
      .bind(5, e.boards)
      .bind_text(6, e.seeds)
      .bind_text(7, e.sides)
      .bind(8, e.creator)
      .bind(9, created_at)
      .run();
}

void insert_board(Db& db, const BoardRow& r) {
  db.prepare("INSERT INTO event_tables (event_id, board, rotation, table_id) VALUES (?, ?, ?, ?)")
      .bind(1, r.event)
      .bind(2, std::int64_t{r.board + 1})
      .bind(3, std::int64_t{r.rotation})
      .bind(4, r.table)
      .run();
}

void finish_event(Db& db, const std::string& event, std::int64_t finished_at) {
  db.prepare("UPDATE events SET status = 'over', finished_at = ? WHERE id = ?")
      .bind(1, finished_at)
      .bind(2, event)
      .run();
}

std::optional<EventRow> event(Db& db, const std::string& event) {
  auto& q = db.prepare(std::string("SELECT ") + kEventColumns + " FROM events WHERE id = ?");
  q.bind_text(1, event);
  std::optional<EventRow> out;
  if (q.step()) out = event_from(q);
  q.run();
  return out;
}

std::vector<EventRow> running_events(Db& db) {
  auto& q = db.prepare(std::string("SELECT ") + kEventColumns + " FROM events WHERE status = 'running'");
  std::vector<EventRow> out;
  while (q.step()) out.push_back(event_from(q));
  return out;
}

std::vector<BoardRow> boards_of(Db& db, const std::string& event) {
  auto& q = db.prepare(
      "SELECT event_id, board, rotation, table_id FROM event_tables WHERE event_id = ? ORDER BY board");
  q.bind_text(1, event);
  return boards_from(q);
}

std::vector<BoardRow> running_boards(Db& db) {
  auto& q = db.prepare(
      "SELECT et.event_id, et.board, et.rotation, et.table_id FROM event_tables et "
      "JOIN events e ON e.id = et.event_id WHERE e.status = 'running' ORDER BY et.board");
  return boards_from(q);
}

std::optional<std::string> running_event_of(Db& db, const std::string& table) {
  auto& q = db.prepare(
      "SELECT et.event_id FROM event_tables et JOIN events e ON e.id = et.event_id "
      "WHERE et.table_id = ? AND e.status = 'running'");
  q.bind_text(1, table);
  std::optional<std::string> out;
  if (q.step()) out = q.text_at(0);
  q.run();
  return out;
}

bool is_event_table(Db& db, const std::string& table) {
  auto& q = db.prepare("SELECT 1 FROM event_tables WHERE table_id = ?");
  q.bind_text(1, table);
  const bool found = q.step();
  q.run();
  return found;
}

bool table_rated(Db& db, const std::string& table) {
  auto& q = db.prepare("SELECT rated FROM tables WHERE id = ?");
  q.bind_text(1, table);
  bool rated = false;
  if (q.step()) rated = !q.null_at(0) && q.int_at(0) != 0;
  q.run();
  return rated;
}

}  // namespace casa::server::event_rows
