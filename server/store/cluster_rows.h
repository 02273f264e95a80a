// SPDX-License-Identifier: AGPL-3.0-or-later
// What a node of a cluster reads about the tables other nodes run
// (docs/cluster.md): found by invite, a player's unfinished tables, the open
// public tables, and every unfinished table with its lease for the admin API.
// Runs inside Store::read (it is given the Db); PostgreSQL only (the leases'
// table exists only there).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::cluster_rows {

// The table waiting or playing with this invite code.
std::optional<std::string> open_table_by_invite(Db& db, const std::string& invite);
// The tables where `player_id` sits that are waiting or playing, or ended
// after `finished_after` (seconds since the epoch).
std::vector<std::string> tables_of(Db& db, const std::string& player_id, std::int64_t finished_after);

struct TableRow {
  std::string id;
  std::string game;
  int players = 0;
  bool is_private = false;
  std::string status;
  std::string invite;
  std::string creator;
  std::string options;  // JSON object
  int move_timeout_seconds = 0;
  int grace_seconds = 0;
  std::string takeover;
  std::optional<std::string> node;  // the lease's holder (none: no lease)
  bool lease_live = false;
  std::vector<StoredSeat> seats;  // players entries, in seat order
};

// The public tables waiting for players (of `game`; every game when empty),
// newest first. `node` and `lease_live` are not read.
std::vector<TableRow> open_public_tables(Db& db, const std::string& game);
// Every waiting or playing table with its lease, oldest first.
std::vector<TableRow> unfinished_tables(Db& db);

}  // namespace casa::server::cluster_rows
