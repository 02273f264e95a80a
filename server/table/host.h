// SPDX-License-Identifier: AGPL-3.0-or-later
// What a table sees of the server around it: the players' connections, the
// registry that lists a player's tables, the store, the settings, the bot
// pool, and the duplicate events that hold a deal's reveal back. The lobby
// implements it (server/lobby/lobby.h); a table knows nothing else of the
// lobby, so table/ does not depend on lobby/ or tournaments/.
//
// Invariants:
//  * Every method may be called from any table's strand, concurrently: an
//    implementation locks what it shares (the lobby: one lock for every
//    table). So a table calls none of them on the move path: a move's
//    commit, events and requests go through the seats' connections the table
//    holds itself.
//  * After a player is listed at a table (seat_changed(..., true)), every
//    change of the player's connections is told to that table
//    (Table::player_connection, Table::refresh_connections); the table reads
//    connections_of then, and when the player sits down.
//  * The host outlives every table it hosts.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "protocol/protocol.h"
#include "server/net/client.h"
#include "server/ops/config.h"
#include "server/store/store.h"
#include "server/table/bot_pool.h"

namespace casa::server {

class Table;
struct TableSetup;

class TableHost {
 public:
  virtual ~TableHost() = default;

  // ---- players ----
  // To every open connection of the player (one per device).
  virtual void send_to_player(const std::string& player_id, const Frame& frame) = 0;
  // The player's open connections now (none while away). Read when they
  // changed, never per move (see the invariants).
  virtual std::vector<std::shared_ptr<Client>> connections_of(const std::string& player_id) = 0;
  // When the player's last connection went (the server's start for players not
  // seen since); nullopt while connected.
  virtual std::optional<std::chrono::steady_clock::time_point> away_since(const std::string& player_id) = 0;
  virtual std::string name_of(const std::string& player_id) = 0;
  // The player sits at (seated) or left (!seated) `table`.
  virtual void seat_changed(const std::string& player_id, const std::string& table, bool seated) = 0;

  // ---- the table's life ----
  // The table ended (over or closed): it is forgotten after
  // --finished-table-ttl-seconds. `owed`: players still owed its game_over.
  virtual void table_finished(const std::shared_ptr<Table>& table, std::vector<std::string> owed) = 0;
  virtual void forget_table(const std::string& table) = 0;
  // A rematch: a new table like `old`, with `seats` pre-filled. Calls `done`
  // with the new table (null on failure) once stored. Refused at once (and
  // `done` not called) when `by` has too many unfinished tables.
  virtual std::optional<protocol::Refusal> create_rematch(const TableSetup& old, const std::string& by,
                                                          std::vector<StoredSeat> seats,
                                                          std::function<void(std::shared_ptr<Table>)> done) = 0;
  // A new game for `setup` (the engine's registry, with the server's games).
  virtual CreateResult make_game(const TableSetup& setup) const = 0;
  // Whether the seed of `table` must stay secret after its game (a duplicate
  // event's deal that other tables may not have played yet).
  virtual bool deal_withheld(const std::string& table) = 0;

  // ---- services ----
  virtual Store& store() = 0;
  virtual const Config& config() const = 0;
  // Where searching bots think (null when --bot-threads is 0).
  virtual BotPool* bot_pool() = 0;
};

}  // namespace casa::server
