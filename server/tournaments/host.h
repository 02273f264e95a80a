// SPDX-License-Identifier: AGPL-3.0-or-later
// What a duplicate event sees of the server around it: what a table sees
// (server/table/host.h), and the registry's way to count, reserve and open the
// event's tables. The lobby implements it; tournaments/ does not depend on
// lobby/.
//
// Invariants: as TableHost (any thread; the host outlives the events).
#pragma once

#include <boost/asio/io_context.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "protocol/protocol.h"
#include "server/store/store.h"
#include "server/table/host.h"
#include "server/table/table.h"

namespace casa::server {

class TournamentHost : public TableHost {
 public:
  // Whether `player_id` is a player this server knows.
  virtual bool known_player(const std::string& player_id) = 0;
  // A fresh table id (not yet registered).
  virtual std::string reserve_table_id() = 0;
  // Registers and opens a table whose seats are all given (it starts at once).
  // `counted`: reserve_tables already counted it against its creator.
  virtual void open_event_table(const TableSetup& setup, std::vector<StoredSeat> seats, bool counted = false) = 0;
  // Why a table of setup.game with setup.options may not be created, or nullopt.
  virtual std::optional<protocol::Refusal> check_options(const TableSetup& setup) const = 0;
  // Refused (too_many_tables) when `player_id` would have more than
  // --max-tables-per-player unfinished tables with `count` new ones; on
  // success they are counted against the player at once.
  virtual std::optional<protocol::Refusal> reserve_tables(const std::string& player_id, int count) = 0;
  virtual void release_tables(const std::string& player_id, int count) = 0;
  // The event loop of the registry's own work (timers, store completions).
  virtual boost::asio::io_context& io() = 0;
  // Runs `f(ok)` on io() after a store write.
  virtual Store::Done on_io(std::function<void(bool)> f) = 0;
  // Whether several nodes share the store (docs/cluster.md).
  virtual bool clustered() const = 0;
};

}  // namespace casa::server
