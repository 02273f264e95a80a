// SPDX-License-Identifier: AGPL-3.0-or-later
// What the lobby asks of the other nodes of a cluster (docs/cluster.md): the
// leases of the tables it opens and forgets, the messages for tables run
// elsewhere, and the database calls it must not make on an event loop. The
// cluster (server/cluster/cluster.h) implements it; lobby/ does not depend on
// cluster/. Without a cluster the lobby has no port and does all of it alone.
//
// Invariants: the methods may be called from any event loop and never block
// on the database, except acquire() (for the lease thread and the pool).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "server/net/client.h"

namespace casa::server {

class ClusterPort {
 public:
  virtual ~ClusterPort() = default;

  // A new table: takes its lease. False when the lease cannot be had (its
  // writes are then refused by the fence). Blocks on the database.
  virtual bool acquire(const std::string& table) = 0;
  // The same on the pool; `done(ok)` on the io_context. False (and `done`
  // never called) when the pool's queue is full.
  virtual bool acquire_async(const std::string& table, std::function<void(bool)> done) = 0;
  // The table left this node's memory: its lease goes.
  virtual void forgotten(const std::string& table) = 0;
  // A table message (`text`, whose body is `body`) for a table not in this
  // node's memory: forwarded to its owner, or held until a takeover names one.
  // `done` says which: `none` when no node runs such a table, `busy` when the
  // pool's queue was full (nothing was sent).
  enum class Forwarded { sent, none, busy };
  virtual void forward(const std::shared_ptr<Client>& client, const nlohmann::json& body, std::string_view text,
                       std::function<void(Forwarded)> done) = 0;
  // A player resumed here / their connection went.
  virtual void resumed(const std::shared_ptr<Client>& client) = 0;
  virtual void disconnected(const std::shared_ptr<Client>& client) = 0;
  // Open public tables run by other nodes, as list_tables summaries: `done` on
  // the io_context. False (and `done` never called) when the pool is full.
  virtual bool remote_listing(const std::string& game, std::size_t limit,
                              std::function<void(nlohmann::json)> done) = 0;
  // Gives every lease of this node up at once (a draining node).
  virtual void release_all() = 0;
  // Runs `job` on the pool of database calls; false when its queue is full.
  virtual bool offload(std::function<void()> job) = 0;
};

}  // namespace casa::server
