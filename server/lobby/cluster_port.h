// SPDX-License-Identifier: AGPL-3.0-or-later
// What the lobby asks of the other nodes of a cluster (docs/cluster.md): the
// leases of the tables it opens and forgets, the messages for tables run
// elsewhere, the admin requests that span nodes, and the database calls it
// must not make on an event loop. The
// cluster (server/cluster/cluster.h) implements it; lobby/ does not depend on
// cluster/. Without a cluster the lobby has no port and does all of it alone.
//
// Invariants: the methods may be called from any event loop and never block
// on the database, except acquire() (for the lease thread and the pool).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

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
  // A table message (`text`, naming the table by id `table` or, when that is
  // empty, by its `invite` code) for a table not in this node's memory:
  // forwarded to its owner, or held until a takeover names one.
  // `done` says which: `none` when no node runs such a table, `busy` when the
  // pool's queue was full (nothing was sent).
  enum class Forwarded { sent, none, busy };
  virtual void forward(const std::shared_ptr<Client>& client, const std::string& table, const std::string& invite,
                       std::string_view text,
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
  // What a request refused because that queue is full is told (HTTP 503, `busy`).
  static constexpr const char* kPoolFull = "Too many database calls are waiting; try again.";
  // True while this node's leases ran out unrenewed: it serves no table.
  virtual bool cut_off() const = 0;

  // ---- the admin API across nodes (docs/operations.md#admin-api) ----
  // This node's name.
  virtual const std::string& node() const = 0;
  // The answer of an admin request: an HTTP status and its JSON body.
  using AdminAnswer = std::function<void(int status, nlohmann::json body)>;
  // Sends `request` ({"op": close | disconnect | ban, ...}) to `node`, which
  // carries it out (Lobby::admin_here) and answers; `done` gets that answer on
  // the io_context, or 504 node_timeout when none came in time.
  virtual void ask(const std::string& node, nlohmann::json request, AdminAnswer done) = 0;
  // Sends `request` to every other live node and gathers the answers: `done`
  // gets (node, status, body) of each (504 for a node that did not answer).
  virtual void ask_all(nlohmann::json request,
                       std::function<void(std::vector<std::tuple<std::string, int, nlohmann::json>>)> done) = 0;
  // Tells every other live node, without waiting for an answer.
  virtual void tell_all(const nlohmann::json& request) = 0;
  // The node that runs `table` now (nullopt: no lease), and whether its lease
  // is unexpired. Reads the database: on the pool only.
  struct TableOwner {
    std::string node;
    bool live = false;
  };
  virtual std::optional<TableOwner> owner(const std::string& table) = 0;
  // Every open table not in this node's memory, from the store (on the pool
  // only), as admin listing rows.
  virtual nlohmann::json remote_admin_tables() = 0;
};

}  // namespace casa::server
