// SPDX-License-Identifier: AGPL-3.0-or-later
// Cluster mode (docs/cluster.md): several casa-server nodes on one PostgreSQL
// database act as one server. This node runs the tables whose leases it holds;
// a table message for a table run elsewhere is forwarded to its owner over the
// bus, and the owner's frames for that connection come back the same way
// (RemoteClient). Every write of a table is fenced by this node's lease epoch.
//
// Threads: bus messages and drops run on the io_context, which never waits on
// the database: lease renewals and claims run on the cluster's lease thread,
// the self-fence on a thread of its own, and every other database call of the
// cluster (an owner's lookup, the store reads of a forwarded message or a
// listing) on a small pool of its own with a bounded queue; each posts its
// outcome to the io_context. The maps below have one mutex.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <tuple>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/table/bot_pool.h"
#include "server/net/client.h"
#include "server/cluster/bus.h"
#include "server/store/lease.h"
#include "server/ops/config.h"
#include "server/lobby/cluster_port.h"

namespace casa::server {

class Db;
class Lobby;
class Store;

// On the table's owner: a connection held by another node.
class RemoteClient : public Client {
 public:
  RemoteClient(Bus& bus, std::string node, std::uint64_t conn, std::string player);
  void send(Frame frame) override;
  void close() override;
  std::string address() const override;
  bool remote() const override { return true; }
  const std::string& node() const { return node_; }
  std::uint64_t conn() const { return conn_; }

 private:
  Bus& bus_;
  std::string node_;
  std::uint64_t conn_;
};

class Cluster : public ClusterPort {
 public:
  Cluster(boost::asio::io_context& io, Store& store, Lobby& lobby, const Config& config);
  ~Cluster();

  // Gives up the leases a former run of this node id held, listens, and starts
  // renewing and claiming. Throws when the database cannot be reached.
  void start();
  void stop();
  const std::string& node() const override { return node_; }
  int lease_seconds() const { return lease_seconds_; }

  // ---- for the lobby ----
  // How many database calls may wait for the cluster's pool (beyond those
  // running): past that, a message that needs one is answered `busy`.
  static constexpr std::size_t kMaxQueuedCalls = 256;
  static constexpr int kPoolThreads = 2;
  // A new table: takes its lease. False when the lease cannot be had (its
  // writes are then refused by the fence). Blocks on the database: for the
  // lease thread and the pool; from an event loop, acquire_async.
  bool acquire(const std::string& table) override;
  // The same on the pool; `done(ok)` on the io_context. False (and `done`
  // never called) when the pool's queue is full.
  bool acquire_async(const std::string& table, std::function<void(bool)> done) override;
  // The table left this node's memory (finished and forgotten, or deleted): its
  // lease goes, so that no node claims and loads it again.
  void forgotten(const std::string& table) override;
  // A table message (`text`, naming the table by id `table` or, when that is
  // empty, by its `invite` code) for a table not in this node's memory:
  // forwarded to its owner, or held until a takeover names one.
  // `done` says which, on the io_context or at once: `none` when no node runs
  // such a table, `busy` when the owner had to be read from the database and
  // the pool's queue was full (nothing was sent).
  using Forwarded = ClusterPort::Forwarded;
  void forward(const std::shared_ptr<Client>& client, const std::string& table, const std::string& invite,
               std::string_view text, std::function<void(Forwarded)> done) override;
  // A player resumed here: their unfinished tables run elsewhere send them
  // their table_state (as a resync would). The store is read on the pool.
  void resumed(const std::shared_ptr<Client>& client) override;
  void disconnected(const std::shared_ptr<Client>& client) override;
  // Open public tables run by other nodes, as list_tables summaries (from the
  // store, read on the pool): `done` on the io_context. False (and `done`
  // never called) when the pool's queue is full.
  bool remote_listing(const std::string& game, std::size_t limit, std::function<void(nlohmann::json)> done) override;
  // Gives every lease of this node up at once (a draining node, once its last
  // commit is done): other nodes claim its tables on their next round.
  void release_all() override;

  // ---- the admin API across nodes (docs/operations.md#admin-api) ----
  // Sends `request` ({"op": close | disconnect | ban, ...}) to `node`, which
  // carries it out (Lobby::admin_here) and answers; `done` gets that answer on
  // the io_context, or 504 node_timeout when none came within kAskTimeout.
  void ask(const std::string& node, nlohmann::json request, AdminAnswer done) override;
  // Sends `request` to every other live node and gathers the answers: `done`
  // gets (node, status, body) of each (504 for a node that did not answer).
  void ask_all(nlohmann::json request,
               std::function<void(std::vector<std::tuple<std::string, int, nlohmann::json>>)> done) override;
  // Tells every other live node, without waiting for an answer.
  void tell_all(const nlohmann::json& request) override;
  // Runs `job` on the cluster's pool of database calls (which posts what it
  // found back to an event loop); false when its queue is full: the job never
  // runs, and the request is refused as busy.
  bool offload(std::function<void()> job) override;
  // The node that runs `table` now (nullopt: no lease), and whether its lease
  // is unexpired. Reads the lease row: on the pool only.
  std::optional<TableOwner> owner(const std::string& table) override;
  // Every open table (waiting or playing) not in this node's memory, from the
  // store (on the pool only), as admin listing rows: the table's row (its stored status: `waiting`
  // until its first move is stored), its seats, its lease's node and whether
  // that lease is live, and `stored: true`.
  nlohmann::json remote_admin_tables() override;

  // ---- /metrics ----
  struct Stats {
    std::int64_t tables_owned = 0;          // leases this node holds and runs
    std::uint64_t lease_renew_failures = 0;  // renewal rounds the database refused
    std::uint64_t leases_lost = 0;          // tables dropped because their lease went elsewhere
    std::uint64_t bus_in = 0, bus_out = 0;  // bus messages received and sent
    bool cut_off = false;                   // its leases ran out unrenewed (see cut_off())
  };
  Stats stats();
  static constexpr std::chrono::seconds kAskTimeout{5};

  // True from the moment this node's leases ran out without a renewal (the
  // database out of reach: a partition, its server down) until a renewal
  // succeeds again. The node then runs no table: /healthz answers 503, so that a
  // load balancer sends its clients to a node that can serve them.
  bool cut_off() const override { return cut_off_.load(); }

  // The store's fence (Store::set_fence): throws unless this node still holds
  // `table` under the epoch it runs it with; returns that epoch.
  std::int64_t fence(Db& db, const std::string& table);
  // The epoch this node runs `table` under, if it runs it (tests).
  std::optional<std::int64_t> epoch_of(const std::string& table);

 private:
  struct Who {  // a connection somewhere in the cluster
    std::string node;
    std::uint64_t conn = 0;
    std::string player;
    bool operator<(const Who& o) const { return std::tie(node, conn) < std::tie(o.node, o.conn); }
  };
  struct Owner {
    std::string node;
    bool live = false;  // its lease is unexpired
  };
  using Clock = std::chrono::steady_clock;

  void on_message(std::string payload);
  void handle_in(const Who& who, const std::string& text, int hops);
  void lease_loop();
  void lease_round(bool renew);
  // Self-fencing: when no renewal succeeded for a whole lease (counted from the
  // moment the last successful one was sent, so never later than the database
  // expires the leases), every table is dropped. Its own thread decides it and
  // takes the tables out of held_ at once (the fence then refuses their writes
  // and nothing here runs them any longer), whatever the lease thread or an
  // event loop is waiting for; their copies in memory go on the io_context.
  void fence_loop();
  void self_fence();
  // Loads and serves tables whose leases this node just claimed.
  void takeover(const std::vector<Lease>& claimed);
  // This node lost `table` under `epoch`: it stops running it, and its
  // connections there are resynced at the new owner (unless `resync` is false
  // or this node is cut off: the bus's reconnect resyncs them then).
  void drop(const std::string& table, std::int64_t epoch, bool resync = true);
  // Stops the table in memory and notes its connections as interested in it;
  // then `then` on the io_context.
  void abandon_local(const std::string& table, std::function<void()> then);
  // `table` now runs on `owner`.
  void moved(const std::string& table, const std::string& owner);
  // Every connection interested in `table` gets its table_state from the owner.
  void resync_interested(const std::string& table);
  void send_in(const std::string& owner, const Who& who, const std::string& text, int hops);
  Who who_of_locked(const std::shared_ptr<Client>& client);  // under mutex_
  // The owner from held_ or the cache, without the database (nullopt: ask it).
  std::optional<Owner> cached_owner(const std::string& table);
  // Reads the lease row: blocks, on the pool only. nullopt: no lease (or unknown).
  std::optional<Owner> owner_of(const std::string& table);
  std::optional<std::string> table_by_invite(const std::string& invite);  // the pool only
  // `client`'s message for `table`, whose owner is `owner`.
  void route(const std::shared_ptr<Client>& client, const std::string& table, const Owner& owner,
             const std::string& text, int hops);

  boost::asio::io_context& io_;
  Store& store_;
  Lobby& lobby_;
  std::string conninfo_;
  std::string node_;
  int lease_seconds_;
  std::unique_ptr<Leases> leases_;  // used under lease_mutex_
  std::mutex lease_mutex_;
  bool draining_ = false;  // under lease_mutex_: no more claims
  std::unique_ptr<Bus> bus_;

  std::mutex mutex_;
  std::map<std::string, std::int64_t> held_;  // tables run here -> epoch
  std::map<std::string, std::pair<std::string, Clock::time_point>> owners_;  // cache: table -> owner
  // Connections that sent something about a table run elsewhere (or lost by
  // this node): resynced at its new owner after a takeover.
  std::map<std::string, std::set<Who>> interest_;
  std::map<std::uint64_t, std::weak_ptr<Client>> locals_;  // this node's connections by number
  std::map<const Client*, std::uint64_t> local_ids_;
  std::uint64_t next_conn_ = 1;
  std::map<Who, std::shared_ptr<RemoteClient>> remotes_;  // other nodes' connections
  std::vector<std::string> live_;                         // from the last renewal

  // Admin requests sent to other nodes, by number, awaiting their answer.
  struct Asked {
    AdminAnswer done;
    std::shared_ptr<boost::asio::steady_timer> timer;
  };
  std::map<std::uint64_t, Asked> asked_;
  std::uint64_t next_ask_ = 1;
  AdminAnswer take_asked(std::uint64_t id);
  std::vector<std::string> other_live_nodes();  // under no lock; empty when answered or timed out
  // The other live nodes, fresh from the database (read on the pool; those of
  // the last renewal when it cannot be read or its queue is full): `then` on the io_context.
  void with_live_nodes(std::function<void(std::vector<std::string>)> then);
  Clock::time_point renewed_until_;  // under mutex_: the last successful renewal's start + a lease
  std::condition_variable renewed_cv_;  // with mutex_: renewed_until_ moved, or stopping
  bool fence_stopping_ = false;         // under mutex_
  std::thread fence_thread_;
  // The database calls of the event loops' requests. Last: it goes first, and
  // its threads finish the calls they run before anything they use goes.
  BotPool pool_{kPoolThreads, kMaxQueuedCalls};
  std::atomic<bool> cut_off_{false};
  std::atomic<std::uint64_t> renew_failures_{0};
  std::atomic<std::uint64_t> leases_lost_{0};

  std::thread thread_;
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
};

}  // namespace casa::server
