// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/cluster/cluster.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <spdlog/spdlog.h>

#include <chrono>

#include "server/lobby/lobby.h"
#include "server/store/cluster_rows.h"
#include "server/store/store.h"
#include "server/ops/log.h"
#include "server/table/table.h"

namespace casa::server {

namespace asio = boost::asio;
using nlohmann::json;

namespace {
// How often a node looks for expired leases to claim: the takeover of a dead
// node's tables comes at most this long after its leases expire.
constexpr auto kClaimPeriod = std::chrono::seconds(1);
// How many expired leases one round claims (the rest wait for the next round,
// or for another node).
constexpr int kClaimBatch = 16;
// A message forwarded more often than this (an owner that moved while it
// travelled) is dropped; its client recovers with the resync a takeover sends.
constexpr int kMaxHops = 3;
// A node cut off from the database drops its tables this long before its
// leases run out by its own count (which starts before the database renewed
// them, so never ends later): room for a timer that fires late on a busy
// machine, and for clocks that run at slightly different rates.
constexpr auto kSelfFenceMargin = std::chrono::milliseconds(500);
// How long a cached owner is believed before the lease row is read again.
constexpr auto kOwnerCacheTtl = std::chrono::seconds(1);

// The hop count of the bus message being handled on this thread.
thread_local int current_hops = 0;

std::string resync_text(const std::string& table) {
  return json{{"type", "resync"}, {"table", table}}.dump();
}
}  // namespace

// ---- RemoteClient ----------------------------------------------------------------

RemoteClient::RemoteClient(Bus& bus, std::string node, std::uint64_t conn, std::string player)
    : bus_(bus), node_(std::move(node)), conn_(conn) {
  player_id = std::move(player);
}

void RemoteClient::send(Frame frame) {
  bus_.send(node_, json{{"k", "out"}, {"conn", conn_}, {"frame", *frame}}.dump());
}

void RemoteClient::close() { bus_.send(node_, json{{"k", "close"}, {"conn", conn_}}.dump()); }

std::string RemoteClient::address() const { return "node " + node_ + " #" + std::to_string(conn_); }

// ---- Cluster ---------------------------------------------------------------------

Cluster::Cluster(asio::io_context& io, Store& store, Lobby& lobby, const Config& config)
    : io_(io),
      store_(store),
      lobby_(lobby),
      conninfo_(config.db),
      node_(config.node_id == "auto" ? auto_node_id() : config.node_id),
      lease_seconds_(config.lease_seconds) {
  // Before the first write: every table write is fenced from now on.
  store_.set_fence(node_, [this](Db& db, const std::string& table) { return fence(db, table); });
}

Cluster::~Cluster() { stop(); }

void Cluster::start() {
  leases_ = std::make_unique<Leases>(conninfo_, node_, lease_seconds_);
  // A former run of this node id held these; their tables are claimed again
  // (by any node) under new epochs, and loaded from the store.
  leases_->release_all();
  bus_ = std::make_unique<Bus>(
      io_, conninfo_, node_, [this](std::string payload) { on_message(std::move(payload)); },
      [this] {
        // Messages may have been missed: every connection waiting on a table
        // run elsewhere is resynced there.
        std::vector<std::string> tables;
        {
          std::lock_guard lock(mutex_);
          for (const auto& [t, who] : interest_) tables.push_back(t);
          owners_.clear();
        }
        for (const auto& t : tables) resync_interested(t);
      });
  bus_->start();
  spdlog::info("cluster node {}: leases of {} s", node_, lease_seconds_);
  lease_round(true);
  fence_thread_ = std::thread([this] { fence_loop(); });
  thread_ = std::thread([this] { lease_loop(); });
}

void Cluster::stop() {
  {
    std::lock_guard lock(stop_mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  stop_cv_.notify_all();
  {
    std::lock_guard lock(mutex_);
    fence_stopping_ = true;
  }
  renewed_cv_.notify_all();
  if (fence_thread_.joinable()) fence_thread_.join();
  if (thread_.joinable()) thread_.join();
  if (bus_) bus_->stop();
  // Admin requests still waiting for another node: nobody answers them now.
  std::map<std::uint64_t, Asked> asked;
  {
    std::lock_guard lock(mutex_);
    asked.swap(asked_);
  }
  for (auto& [id, a] : asked) a.timer->cancel();
}

// ---- leases ----------------------------------------------------------------------

void Cluster::lease_loop() {
  const auto renew_every = std::chrono::milliseconds(lease_seconds_ * 1000 / 3);
  auto next_renew = std::chrono::steady_clock::now() + renew_every;
  for (;;) {
    {
      // A round that waited long on the database (a reconnect) must not put
      // the next renewal off by another claim period.
      const auto wait = std::chrono::steady_clock::now() >= next_renew ? std::chrono::seconds(0) : kClaimPeriod;
      std::unique_lock lock(stop_mutex_);
      if (stop_cv_.wait_for(lock, wait, [this] { return stopping_; })) return;
    }
    const bool renew = std::chrono::steady_clock::now() >= next_renew;
    if (renew) next_renew = std::chrono::steady_clock::now() + renew_every;
    lease_round(renew);
  }
}

void Cluster::lease_round(bool renew) {
  std::vector<Lease> claimed;
  std::vector<std::pair<std::string, std::int64_t>> lost;
  std::vector<std::shared_ptr<RemoteClient>> orphans;
  try {
    std::lock_guard lease_lock(lease_mutex_);
    if (renew) {
      // When the renewal was sent (after any reconnect): the database renews
      // the leases later than this, so a lease counted from here never
      // outlives the real one.
      auto began = Clock::now();
      const auto still = leases_->renew(&began);
      {
        std::lock_guard lock(mutex_);
        renewed_until_ = std::max(renewed_until_, began + std::chrono::seconds(lease_seconds_) - kSelfFenceMargin);
      }
      renewed_cv_.notify_all();
      if (cut_off_.exchange(false)) {
        spdlog::warn("cluster node {}: the database answers again; leases renewed", node_);
      }
      auto live = leases_->live_nodes();
      std::vector<Lease> unrun;
      {
        std::lock_guard lock(mutex_);
        for (const auto& [table, epoch] : held_) {
          bool kept = false;
          for (const auto& l : still) kept = kept || (l.table == table && l.epoch == epoch);
          if (!kept) lost.emplace_back(table, epoch);
        }
        // A lease this node still holds for a table it no longer runs (it let
        // the table go after a refused write whose cause was not the lease: a
        // deadlock, a dropped connection): renewing it would keep every other
        // node away and leave the table's clients unanswered. It expires now,
        // so a node claims it (this one too), loads the table and resyncs them.
        for (const auto& l : still) {
          auto it = held_.find(l.table);
          if (it == held_.end() || it->second != l.epoch) unrun.push_back(l);
        }
      }
      for (const auto& l : unrun) {
        const LogAbout about(l.table);
        spdlog::warn("cluster node {}: table {} (epoch {}) is not run here; its lease is given up", node_, l.table,
                     l.epoch);
        leases_->release(l.table, l.epoch);
      }
      std::lock_guard lock(mutex_);
      live_ = std::move(live);
      // Connections of nodes that stopped beating are gone.
      for (auto it = remotes_.begin(); it != remotes_.end();) {
        if (std::find(live_.begin(), live_.end(), it->first.node) == live_.end()) {
          orphans.push_back(it->second);
          it = remotes_.erase(it);
        } else {
          ++it;
        }
      }
    }
    if (!draining_) claimed = leases_->claim_expired(kClaimBatch);
  } catch (const std::exception& e) {
    if (renew) renew_failures_.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("cluster node {}: lease round failed: {}", node_, e.what());
    return;
  }
  for (auto& [table, epoch] : lost) {
    leases_lost_.fetch_add(1, std::memory_order_relaxed);
    const LogAbout about(table);
    spdlog::warn("cluster node {}: lost the lease of table {} (epoch {})", node_, table, epoch);
    asio::post(io_, [this, table = table, epoch = epoch] { drop(table, epoch); });
  }
  for (auto& proxy : orphans) {
    asio::post(io_, [this, proxy] { lobby_.disconnected(proxy); });
  }
  if (!claimed.empty()) takeover(claimed);
}

void Cluster::fence_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // Until the count of the last renewal runs out (a later renewal moves it on).
    const auto until = renewed_until_;
    if (renewed_cv_.wait_until(lock, until, [&] { return fence_stopping_ || renewed_until_ != until; })) {
      if (fence_stopping_) return;
      continue;
    }
    if (Clock::now() < renewed_until_) continue;
    lock.unlock();
    self_fence();
    lock.lock();
    // Nothing more to do until a renewal succeeds again.
    const auto fenced_at = renewed_until_;
    renewed_cv_.wait(lock, [&] { return fence_stopping_ || renewed_until_ != fenced_at; });
    if (fence_stopping_) return;
  }
}

void Cluster::self_fence() {
  std::vector<std::pair<std::string, std::int64_t>> tables;
  bool was_cut_off = false;
  {
    std::lock_guard lock(mutex_);
    if (Clock::now() < renewed_until_) return;  // renewed meanwhile
    // Out of held_ now: the fence refuses their writes from this moment, and
    // /metrics counts no table run here, whatever the event loops are doing.
    tables.assign(held_.begin(), held_.end());
    for (const auto& [table, epoch] : tables) owners_.erase(table);
    held_.clear();
    was_cut_off = cut_off_.exchange(true);
  }
  if (!was_cut_off || !tables.empty()) {
    spdlog::warn("cluster node {}: no lease renewed for {} s (the database is out of reach): "
                 "the {} tables run here are dropped",
                 node_, lease_seconds_, tables.size());
  }
  // Their leases are about to expire in the database: a node that reaches it
  // claims them and resyncs their players. Nobody is resynced from here: the
  // owner cannot be asked (the bus's reconnect resyncs them once the database
  // answers again, and /healthz sends them elsewhere meanwhile). The copies
  // in memory stop on the io_context.
  leases_lost_.fetch_add(tables.size(), std::memory_order_relaxed);
  for (const auto& [table, epoch] : tables) {
    asio::post(io_, [this, table = table] {
      {
        std::lock_guard lock(mutex_);
        if (held_.count(table)) return;  // claimed back meanwhile: the takeover replaced the copy
      }
      abandon_local(table, [] {});
    });
  }
}

void Cluster::takeover(const std::vector<Lease>& claimed) {
  const std::int64_t now = Store::now();
  for (const auto& lease : claimed) {
    std::optional<StoredTable> stored;
    try {
      stored = store_.load_table(lease.table);
    } catch (const std::exception& e) {
      const LogAbout about(lease.table);
      spdlog::error("cluster node {}: cannot load table {}: {}", node_, lease.table, e.what());
    }
    const bool finished_long_ago =
        stored && stored->status == "over" && stored->finished_at + lobby_.config().finished_table_ttl_seconds < now;
    if (!stored || stored->status == "closed" || finished_long_ago) {
      // Nothing left to run: the lease goes.
      try {
        std::lock_guard lease_lock(lease_mutex_);
        leases_->remove(lease.table, lease.epoch);
      } catch (const std::exception&) {
      }
      continue;
    }
    {
      std::lock_guard lock(mutex_);
      held_[lease.table] = lease.epoch;
      owners_[lease.table] = {node_, std::chrono::steady_clock::now()};
    }
    const LogAbout about(lease.table);
    spdlog::info("cluster node {}: took over table {} (epoch {}, {} actions)", node_, lease.table, lease.epoch,
                 stored->actions.size());
    asio::post(io_, [this, stored = std::move(*stored), epoch = lease.epoch] {
      {
        std::lock_guard lock(mutex_);
        auto it = held_.find(stored.id);
        if (it == held_.end() || it->second != epoch) return;  // lost again meanwhile
      }
      auto adopt = [this, stored, epoch] {
        if (!lobby_.adopt_table(stored)) return;
        std::vector<std::string> nodes;
        {
          std::lock_guard lock(mutex_);
          nodes = live_;
        }
        const std::string note = json{{"k", "moved"}, {"table", stored.id}, {"node", node_}}.dump();
        for (const auto& n : nodes) {
          if (n != node_) bus_->send(n, note);
        }
        moved(stored.id, node_);
      };
      // A copy still in memory (this node claimed its own expired lease back)
      // is stale: it goes first, and its clients are resynced by the new one.
      if (lobby_.table(stored.id)) {
        abandon_local(stored.id, adopt);
      } else {
        adopt();
      }
    });
  }
}

void Cluster::drop(const std::string& table, std::int64_t epoch, bool resync) {
  {
    std::lock_guard lock(mutex_);
    auto it = held_.find(table);
    if (it == held_.end() || it->second != epoch) return;
    held_.erase(it);
    owners_.erase(table);
  }
  abandon_local(table, [this, table, resync] {
    if (resync && !cut_off_) resync_interested(table);
  });
}

void Cluster::abandon_local(const std::string& id, std::function<void()> then) {
  auto table = lobby_.table(id);
  if (!table) {
    if (then) then();
    return;
  }
  lobby_.drop_table(id);
  table->abandon([this, id, then = std::move(then)](std::vector<std::shared_ptr<Client>> clients) {
    {
      std::lock_guard lock(mutex_);
      for (const auto& c : clients) interest_[id].insert(who_of_locked(c));
    }
    asio::post(io_, then);
  });
}

void Cluster::moved(const std::string& table, const std::string& owner) {
  bool stale = false;
  {
    std::lock_guard lock(mutex_);
    owners_[table] = {owner, std::chrono::steady_clock::now()};
    if (owner != node_) {
      // A newer epoch runs elsewhere: this node's copy (if any) is stale.
      stale = held_.erase(table) > 0;
    }
  }
  // A copy in memory whose lease this node had already let go is stale too.
  if (owner != node_ && lobby_.table(table)) stale = true;
  if (stale) {
    const LogAbout about(table);
    spdlog::warn("cluster node {}: table {} moved to {}", node_, table, owner);
    abandon_local(table, [this, table] { resync_interested(table); });
  } else {
    resync_interested(table);
  }
}

void Cluster::resync_interested(const std::string& table) {
  // The lease row is read fresh, on the pool; the resyncs go out from the io_context.
  const bool queued = offload([this, table] {
    const auto owner = owner_of(table);
    if (!owner || !owner->live) return;  // a takeover will tell
    asio::post(io_, [this, table, owner = *owner] {
      if (owner.node == node_ && !lobby_.table(table)) return;  // loading here: adopt() tells
      std::vector<Who> who;
      {
        std::lock_guard lock(mutex_);
        auto it = interest_.find(table);
        if (it == interest_.end()) return;
        who.assign(it->second.begin(), it->second.end());
      }
      for (const auto& w : who) send_in(owner.node, w, resync_text(table), 0);
    });
  });
  if (!queued) {
    // Its connections stay interested: the next takeover or reconnect resyncs them.
    const LogAbout about(table);
    spdlog::warn("cluster node {}: too many database calls waiting; the resync of {} waits for the next move",
                 node_, table);
  }
}

bool Cluster::offload(std::function<void()> job) {
  return pool_.try_submit([job = std::move(job)] {
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::warn("cluster: a database call failed: {}", e.what());
    }
  });
}

std::optional<Cluster::Owner> Cluster::cached_owner(const std::string& table) {
  std::lock_guard lock(mutex_);
  if (held_.count(table)) return Owner{node_, true};
  auto it = owners_.find(table);
  if (it != owners_.end() && std::chrono::steady_clock::now() - it->second.second < kOwnerCacheTtl) {
    return Owner{it->second.first, true};
  }
  return std::nullopt;
}

std::optional<Cluster::Owner> Cluster::owner_of(const std::string& table) {
  {
    std::lock_guard lock(mutex_);
    if (held_.count(table)) return Owner{node_, true};
  }
  std::optional<Leases::Owner> row;
  try {
    std::lock_guard lease_lock(lease_mutex_);
    row = leases_->owner(table);
  } catch (const std::exception& e) {
    const LogAbout about(table);
    spdlog::warn("cluster node {}: owner of {} unknown: {}", node_, table, e.what());
    return std::nullopt;
  }
  if (!row) return std::nullopt;
  if (row->live) {
    std::lock_guard lock(mutex_);
    owners_[table] = {row->node, std::chrono::steady_clock::now()};
  }
  return Owner{row->node, row->live};
}

bool Cluster::acquire_async(const std::string& table, std::function<void(bool)> done) {
  return offload([this, table, done = std::move(done)] {
    const bool ok = acquire(table);
    asio::post(io_, [done, ok] { done(ok); });
  });
}

bool Cluster::acquire(const std::string& table) {
  try {
    std::lock_guard lease_lock(lease_mutex_);
    const auto epoch = leases_->acquire(table);
    if (!epoch) return false;
    std::lock_guard lock(mutex_);
    held_[table] = *epoch;
    owners_[table] = {node_, std::chrono::steady_clock::now()};
    return true;
  } catch (const std::exception& e) {
    const LogAbout about(table);
    spdlog::error("cluster node {}: no lease for new table {}: {}", node_, table, e.what());
    return false;
  }
}

void Cluster::forgotten(const std::string& table) {
  std::int64_t epoch = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = held_.find(table);
    if (it == held_.end()) return;
    epoch = it->second;
    held_.erase(it);
    interest_.erase(table);
  }
  // On the pool. A lease not removed (an error, a full queue) expires by
  // itself; whoever claims it finds a finished table and lets it go.
  const bool queued = offload([this, table, epoch] {
    try {
      std::lock_guard lease_lock(lease_mutex_);
      leases_->remove(table, epoch);
    } catch (const std::exception& e) {
      const LogAbout about(table);
      spdlog::warn("cluster node {}: lease of {} not removed: {}", node_, table, e.what());
    }
  });
  if (!queued) {
    const LogAbout about(table);
    spdlog::warn("cluster node {}: lease of {} left to expire (too many database calls waiting)", node_, table);
  }
}

void Cluster::release_all() {
  std::lock_guard lease_lock(lease_mutex_);
  draining_ = true;
  leases_->release_all();
  std::lock_guard lock(mutex_);
  held_.clear();
}

std::int64_t Cluster::fence(Db& db, const std::string& table) {
  std::int64_t epoch = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = held_.find(table);
    if (it == held_.end()) throw std::runtime_error("table " + table + " is not run by node " + node_);
    epoch = it->second;
  }
  try {
    fence_lease(db, table, node_, epoch);
  } catch (const std::exception&) {
    asio::post(io_, [this, table, epoch] { drop(table, epoch); });
    throw;
  }
  return epoch;
}

std::optional<std::int64_t> Cluster::epoch_of(const std::string& table) {
  std::lock_guard lock(mutex_);
  auto it = held_.find(table);
  if (it == held_.end()) return std::nullopt;
  return it->second;
}

// ---- forwarding ------------------------------------------------------------------

Cluster::Who Cluster::who_of_locked(const std::shared_ptr<Client>& client) {
  if (auto* remote = dynamic_cast<RemoteClient*>(client.get())) {
    return {remote->node(), remote->conn(), remote->player_id};
  }
  auto [it, inserted] = local_ids_.emplace(client.get(), next_conn_);
  if (inserted) locals_[next_conn_++] = client;
  return {node_, it->second, client->player_id};
}

std::optional<std::string> Cluster::table_by_invite(const std::string& invite) {
  std::optional<std::string> id;
  store_.read([&](Db& db) { id = cluster_rows::open_table_by_invite(db, invite); });
  return id;
}

void Cluster::forward(const std::shared_ptr<Client>& client, const std::string& table, const std::string& given_invite,
                      std::string_view text, std::function<void(Forwarded)> done) {
  // By its id when given, else by its code.
  const std::string invite = table.empty() ? given_invite : std::string();
  if (table.empty() && invite.empty()) return done(Forwarded::none);
  const int hops = current_hops + 1;
  if (!table.empty()) {
    if (auto owner = cached_owner(table)) {
      route(client, table, *owner, std::string(text), hops);
      return done(Forwarded::sent);
    }
  }
  // The database knows: the invite's table, its lease's owner. Read on the
  // pool, routed back on the io_context.
  const bool queued = offload([this, client, table, invite, text = std::string(text), hops, done] {
    std::string id = table;
    if (id.empty()) {
      auto found = table_by_invite(invite);
      if (!found) {
        asio::post(io_, [done] { done(Forwarded::none); });
        return;
      }
      id = *found;
    }
    auto owner = owner_of(id);
    asio::post(io_, [this, client, id, owner, text, hops, done] {
      if (!owner) return done(Forwarded::none);  // no node has ever run such a table
      route(client, id, *owner, text, hops);
      done(Forwarded::sent);
    });
  });
  if (!queued) done(Forwarded::busy);
}

void Cluster::route(const std::shared_ptr<Client>& client, const std::string& table, const Owner& owner,
                    const std::string& text, int hops) {
  Who who;
  {
    std::lock_guard lock(mutex_);
    who = who_of_locked(client);
    // Resynced wherever the table goes next.
    interest_[table].insert(who);
  }
  if (!owner.live || (owner.node == node_ && !lobby_.table(table))) {
    // Its node is dead or it is being loaded here: the takeover resyncs this
    // connection at the new owner, and the message itself is dropped.
    return;
  }
  send_in(owner.node, who, text, hops);
}

void Cluster::send_in(const std::string& owner, const Who& who, const std::string& text, int hops) {
  if (hops > kMaxHops) {
    const LogAbout about({}, who.player);
    spdlog::warn("cluster node {}: message of {} dropped after {} hops", node_, who.player, hops);
    return;
  }
  if (owner == node_) {
    asio::post(io_, [this, who, text, hops] { handle_in(who, text, hops); });
    return;
  }
  bus_->send(owner, json{{"k", "in"}, {"node", who.node}, {"conn", who.conn}, {"player", who.player},
                         {"text", text}, {"hops", hops}}
                        .dump());
}

void Cluster::handle_in(const Who& who, const std::string& text, int hops) {
  std::shared_ptr<Client> client;
  if (who.node == node_) {
    std::lock_guard lock(mutex_);
    auto it = locals_.find(who.conn);
    if (it != locals_.end()) client = it->second.lock();
  } else {
    std::shared_ptr<RemoteClient> proxy;
    {
      std::lock_guard lock(mutex_);
      auto& slot = remotes_[who];
      if (!slot) slot = std::make_shared<RemoteClient>(*bus_, who.node, who.conn, who.player);
      proxy = slot;
    }
    if (!lobby_.attach_remote(proxy)) return;  // no such player
    client = proxy;
  }
  if (!client) return;
  current_hops = hops;
  lobby_.handle(client, text, [] {});
  current_hops = 0;
}

void Cluster::resumed(const std::shared_ptr<Client>& client) {
  const bool queued = offload([this, client] {
  std::vector<std::string> tables;
  // A game that ended while the player was away, within the time an ended
  // table is kept: its owner answers with the final table_state and game_over.
  const std::int64_t finished_after = Store::now() - lobby_.config().finished_table_ttl_seconds;
  store_.read([&](Db& db) { tables = cluster_rows::tables_of(db, client->player_id, finished_after); });
  asio::post(io_, [this, client, tables = std::move(tables)] {
    for (const auto& t : tables) {
      if (lobby_.table(t)) continue;  // run here: the lobby resumed it already
      forward(client, t, {}, resync_text(t), [](Forwarded) {});
    }
  });
  });
  if (!queued) {
    // The client's own resync (or the next takeover) brings its tables.
    const LogAbout about({}, client->player_id);
    spdlog::warn("cluster node {}: too many database calls waiting; {} resumed without their other nodes' tables",
                 node_, client->player_id);
  }
}

void Cluster::disconnected(const std::shared_ptr<Client>& client) {
  if (dynamic_cast<RemoteClient*>(client.get())) return;
  std::uint64_t conn = 0;
  std::vector<std::string> nodes;
  {
    std::lock_guard lock(mutex_);
    auto it = local_ids_.find(client.get());
    if (it == local_ids_.end()) return;  // never forwarded anything
    conn = it->second;
    local_ids_.erase(it);
    locals_.erase(conn);
    for (auto& [t, who] : interest_) who.erase(Who{node_, conn, {}});
    nodes = live_;
  }
  const std::string gone = json{{"k", "gone"}, {"node", node_}, {"conn", conn}}.dump();
  for (const auto& n : nodes) {
    if (n != node_) bus_->send(n, gone);
  }
}

void Cluster::on_message(std::string payload) {
  const json m = json::parse(payload, nullptr, false);
  if (!m.is_object()) return;
  const std::string k = m.value("k", "");
  if (k == "in") {
    handle_in({m.value("node", ""), m.value("conn", std::uint64_t{0}), m.value("player", "")},
              m.value("text", ""), m.value("hops", 0));
  } else if (k == "out" || k == "close") {
    std::shared_ptr<Client> client;
    {
      std::lock_guard lock(mutex_);
      auto it = locals_.find(m.value("conn", std::uint64_t{0}));
      if (it != locals_.end()) client = it->second.lock();
    }
    if (!client) return;
    if (k == "out") {
      client->send(make_frame(m.value("frame", "")));
    } else {
      client->close();
    }
  } else if (k == "gone") {
    std::shared_ptr<RemoteClient> proxy;
    {
      std::lock_guard lock(mutex_);
      auto it = remotes_.find(Who{m.value("node", ""), m.value("conn", std::uint64_t{0}), {}});
      if (it == remotes_.end()) return;
      proxy = it->second;
      remotes_.erase(it);
    }
    lobby_.disconnected(proxy);
  } else if (k == "moved") {
    moved(m.value("table", ""), m.value("node", ""));
  } else if (k == "ask" || k == "tell") {
    // An admin request another node passed on: carried out here, as if asked here.
    int status = 500;
    json body;
    try {
      body = lobby_.admin_here(m.value("req", json::object()), status);
    } catch (const std::exception& e) {
      status = 500;
      body = {{"error", "internal"}, {"message", e.what()}};
    }
    if (k == "tell") return;
    body["node"] = node_;
    bus_->send(m.value("from", ""),
               json{{"k", "answer"}, {"id", m.value("id", std::uint64_t{0})}, {"status", status}, {"body", std::move(body)}}
                   .dump());
  } else if (k == "answer") {
    if (auto done = take_asked(m.value("id", std::uint64_t{0}))) {
      done(m.value("status", 500), m.value("body", json::object()));
    }
  }
}

// ---- the admin API across nodes ----------------------------------------------------

Cluster::AdminAnswer Cluster::take_asked(std::uint64_t id) {
  Asked a;
  {
    std::lock_guard lock(mutex_);
    auto it = asked_.find(id);
    if (it == asked_.end()) return {};
    a = std::move(it->second);
    asked_.erase(it);
  }
  a.timer->cancel();
  return std::move(a.done);
}

void Cluster::ask(const std::string& node, json request, AdminAnswer done) {
  auto timer = std::make_shared<asio::steady_timer>(io_, kAskTimeout);
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_ask_++;
    asked_[id] = {std::move(done), timer};
  }
  timer->async_wait([this, id, node](const boost::system::error_code& ec) {
    if (ec) return;  // answered (or stopping)
    if (auto late = take_asked(id)) {
      late(504, {{"error", "node_timeout"},
                 {"node", node},
                 {"message", "Node " + node + " did not answer within " + std::to_string(kAskTimeout.count()) +
                                 " s; it may have done it or not: look again."}});
    }
  });
  bus_->send(node, json{{"k", "ask"}, {"from", node_}, {"id", id}, {"req", std::move(request)}}.dump());
}

std::vector<std::string> Cluster::other_live_nodes() {
  // Those of the last renewal (at most a third of a lease old).
  std::vector<std::string> live;
  {
    std::lock_guard lock(mutex_);
    live = live_;
  }
  live.erase(std::remove(live.begin(), live.end(), node_), live.end());
  return live;
}

void Cluster::with_live_nodes(std::function<void(std::vector<std::string>)> then) {
  auto next = std::make_shared<std::function<void(std::vector<std::string>)>>(std::move(then));
  // Fresh from the heartbeats, read on the pool: a node that started since the
  // last renewal counts (an admin request right after it joined reaches it).
  const bool queued = offload([this, next] {
    std::vector<std::string> live;
    try {
      std::lock_guard lease_lock(lease_mutex_);
      live = leases_->live_nodes();
      live.erase(std::remove(live.begin(), live.end(), node_), live.end());
    } catch (const std::exception& e) {
      spdlog::warn("cluster node {}: live nodes unknown ({}); those of the last renewal", node_, e.what());
      live = other_live_nodes();
    }
    asio::post(io_, [next, live = std::move(live)]() mutable { (*next)(std::move(live)); });
  });
  // Too many database calls waiting: those of the last renewal.
  if (!queued) asio::post(io_, [this, next] { (*next)(other_live_nodes()); });
}

void Cluster::ask_all(json request, std::function<void(std::vector<std::tuple<std::string, int, json>>)> done) {
  with_live_nodes([this, request = std::move(request), done = std::move(done)](std::vector<std::string> nodes) {
    if (nodes.empty()) {
      done({});
      return;
    }
    struct Gather {
      std::mutex mutex;
      std::vector<std::tuple<std::string, int, json>> answers;
      std::size_t left = 0;
      std::function<void(std::vector<std::tuple<std::string, int, json>>)> done;
    };
    auto g = std::make_shared<Gather>();
    g->left = nodes.size();
    g->done = done;
    for (const auto& n : nodes) {
      ask(n, request, [g, n](int status, json body) {
        std::vector<std::tuple<std::string, int, json>> all;
        {
          std::lock_guard lock(g->mutex);
          g->answers.emplace_back(n, status, std::move(body));
          if (--g->left > 0) return;
          all = std::move(g->answers);
        }
        g->done(std::move(all));
      });
    }
  });
}

void Cluster::tell_all(const json& request) {
  std::string note = json{{"k", "tell"}, {"from", node_}, {"req", request}}.dump();
  with_live_nodes([this, note = std::move(note)](std::vector<std::string> nodes) {
    for (const auto& n : nodes) bus_->send(n, note);
  });
}

std::optional<Cluster::TableOwner> Cluster::owner(const std::string& table) {
  const auto o = owner_of(table);
  if (!o) return std::nullopt;
  return TableOwner{o->node, o->live};
}

json Cluster::remote_admin_tables() {
  std::vector<cluster_rows::TableRow> rows;
  store_.read([&](Db& db) { rows = cluster_rows::unfinished_tables(db); });
  json out = json::array();
  for (const auto& r : rows) {
    json options = json::parse(r.options, nullptr, false);
    if (options.is_discarded()) options = json::object();
    json seats = json::array();
    for (std::size_t i = 0; i < r.seats.size(); ++i) {
      json seat = {{"seat", i}, {"kind", "empty"}};
      if (!r.seats[i].player_id.empty()) {
        seat["kind"] = "player";
        seat["player_id"] = r.seats[i].player_id;
      } else if (!r.seats[i].bot.empty()) {
        seat["kind"] = "bot";
        seat["bot"] = r.seats[i].bot;
      }
      seats.push_back(std::move(seat));
    }
    out.push_back({{"table", r.id},
                   {"game", r.game},
                   {"players", r.players},
                   {"private", r.is_private},
                   {"status", r.status},
                   {"invite", r.invite},
                   {"creator", r.creator},
                   {"options", std::move(options)},
                   {"move_timeout_seconds", r.move_timeout_seconds},
                   {"disconnect_policy", {{"grace_seconds", r.grace_seconds}, {"takeover", r.takeover}}},
                   {"node", r.node ? json(*r.node) : json()},
                   {"lease_live", r.lease_live},
                   {"local", false},
                   {"stored", true},
                   {"seats", std::move(seats)}});
  }
  // Run here: the lobby lists those from memory.
  json others = json::array();
  for (auto& row : out) {
    if (!lobby_.table(row["table"].get<std::string>())) others.push_back(std::move(row));
  }
  for (auto& row : others) {
    for (auto& seat : row["seats"]) {
      if (seat.contains("player_id")) seat["name"] = lobby_.name_of(seat["player_id"].get<std::string>());
    }
  }
  return others;
}

Cluster::Stats Cluster::stats() {
  Stats s;
  {
    std::lock_guard lock(mutex_);
    s.tables_owned = static_cast<std::int64_t>(held_.size());
  }
  s.lease_renew_failures = renew_failures_.load(std::memory_order_relaxed);
  s.leases_lost = leases_lost_.load(std::memory_order_relaxed);
  s.cut_off = cut_off_.load();
  if (bus_) {
    s.bus_in = bus_->received();
    s.bus_out = bus_->sent();
  }
  return s;
}

// ---- the lobby across nodes -------------------------------------------------------

bool Cluster::remote_listing(const std::string& game, std::size_t limit, std::function<void(json)> done) {
  return offload([this, game, limit, done = std::move(done)] {
  std::vector<cluster_rows::TableRow> rows;
  store_.read([&](Db& db) { rows = cluster_rows::open_public_tables(db, game); });
  asio::post(io_, [this, rows = std::move(rows), limit, done] {
  json out = json::array();
  for (const auto& r : rows) {
    if (out.size() >= limit) break;
    if (lobby_.table(r.id)) continue;  // run here: listed by the lobby itself
    bool open = false;
    json seats = json::array();
    for (std::size_t s = 0; s < r.seats.size(); ++s) {
      json info = {{"seat", s}};
      if (!r.seats[s].player_id.empty()) {
        info["kind"] = "player";
        info["player_id"] = r.seats[s].player_id;
        info["name"] = lobby_.name_of(r.seats[s].player_id);
      } else if (!r.seats[s].bot.empty()) {
        info["kind"] = "bot";
        info["bot"] = r.seats[s].bot;
        info["name"] = r.seats[s].bot;
      } else {
        info["kind"] = "empty";
        open = true;
      }
      seats.push_back(std::move(info));
    }
    if (!open) continue;
    json options = json::parse(r.options, nullptr, false);
    if (options.is_discarded()) options = json::object();
    out.push_back({{"table", r.id},
                   {"game", r.game},
                   {"players", r.players},
                   {"private", false},
                   {"status", "waiting"},
                   {"seats", std::move(seats)},
                   {"options", std::move(options)},
                   {"move_timeout_seconds", r.move_timeout_seconds},
                   {"disconnect_policy", {{"grace_seconds", r.grace_seconds}, {"takeover", r.takeover}}}});
  }
  done(std::move(out));
  });
  });
}

}  // namespace casa::server
