// SPDX-License-Identifier: AGPL-3.0-or-later
// The rows of correspondence tables (migrations/0013_correspondence.sql): the
// stored move clock of each, and a player's unfinished tables for "Your games"
// (docs/protocol.md, "Your games"). Every function runs inside Store::read or
// Store::write (it is given the Db).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::clock_rows {

// Replaces the table's stored clock.
void save(Db& db, const std::string& table, const StoredClock& clock);
std::optional<StoredClock> load(Db& db, const std::string& table);

// One unfinished table where a player sits, as the store knows it.
struct PlayerTable {
  std::string table, game;
  int players = 0;
  int seat = 0;  // the player's
  std::string status;  // "waiting" or "playing"
  bool correspondence = false;
  int move_timeout_seconds = 0;
  std::optional<StoredClock> clock;  // correspondence tables only
};
// Every table, neither over nor closed, where `player_id` sits; oldest first.
std::vector<PlayerTable> player_tables(Db& db, const std::string& player_id);

}  // namespace casa::server::clock_rows
