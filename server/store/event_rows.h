// SPDX-License-Identifier: AGPL-3.0-or-later
// The stored rows of duplicate events (docs/events.md): the tables `events`
// and `event_tables`, and the one column of `tables` an event reads back. The
// only code that writes their SQL. An event's own types live in
// server/tournaments/; here an event is a row of text and numbers, its JSON
// columns kept as text.
//
// Every function runs inside Store::read or Store::write (it is given the Db).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::event_rows {

struct EventRow {
  std::string id;
  std::string game;
  std::int64_t players = 0;
  std::string options;  // JSON object
  std::int64_t boards = 0;
  std::string seeds;  // JSON array of decimal strings, one per board
  std::string sides;  // JSON array of sides
  std::string creator;
  std::string status;  // "running" or "over"
};

// Which table plays a board (0-based here, 1-based in the store) at a rotation.
struct BoardRow {
  std::string event;
  int board = 0;
  int rotation = 0;
  std::string table;
};

// A new event, running, created at `created_at` (seconds since the epoch).
void insert_event(Db& db, const EventRow& e, std::int64_t created_at);
void insert_board(Db& db, const BoardRow& r);
void finish_event(Db& db, const std::string& event, std::int64_t finished_at);

std::optional<EventRow> event(Db& db, const std::string& event);
std::vector<EventRow> running_events(Db& db);
// The tables of one event, or of every running event, by board.
std::vector<BoardRow> boards_of(Db& db, const std::string& event);
std::vector<BoardRow> running_boards(Db& db);
// The running event `table` plays a board of, if any.
std::optional<std::string> running_event_of(Db& db, const std::string& table);
// Whether `table` is (or was) a board of any event.
bool is_event_table(Db& db, const std::string& table);
// Whether the stored table `table` is rated (false when unknown or unset).
bool table_rated(Db& db, const std::string& table);

}  // namespace casa::server::event_rows
