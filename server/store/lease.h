// SPDX-License-Identifier: AGPL-3.0-or-later
// Table leases (docs/cluster.md): a table is run by exactly one node, the one
// holding its row in table_leases; every change of owner increments the epoch.
// Times are the database's (clock_timestamp()), never a node's.
//
// Leases runs on its own libpq connection; callers serialise its use (the
// cluster's timer does).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/store/pg.h"

namespace casa::server {

class Db;

struct Lease {
  std::string table;
  std::int64_t epoch = 0;
};

// Run inside a store job before any write of `table`: throws unless this node
// still holds the lease under `epoch`, unexpired by the database's clock. The
// row stays locked (FOR KEY SHARE) until the job's transaction ends, so a
// takeover (FOR UPDATE) waits for that commit (its replay then contains the
// write) or skips the row; renewals and releases never wait for it.
void fence_lease(Db& db, const std::string& table, const std::string& node, std::int64_t epoch);
// The SQL fence_lease runs (PostgreSQL).
extern const char* const kFenceLeaseSql;

class Leases {
 public:
  Leases(const std::string& conninfo, std::string node_id, int lease_seconds);

  const std::string& node() const { return node_; }
  int lease_seconds() const { return lease_seconds_; }

  // A new table: its lease, epoch 1; or, when a lease row is there and expired,
  // the next epoch. nullopt when another node holds it.
  std::optional<std::int64_t> acquire(const std::string& table);
  // Heartbeat, then renewal of every unexpired lease of this node: what it
  // still holds. A table it runs that is missing (or under another epoch) is lost.
  // `sent`: when the renewal's statement was sent, once connected (the
  // database renews the leases later than that).
  std::vector<Lease> renew(std::chrono::steady_clock::time_point* sent = nullptr);
  // Takes over up to `limit` expired leases (of any node, this one included):
  // the tables to load and replay, with their new epochs.
  std::vector<Lease> claim_expired(int limit);
  // Gives a table up at once (another node may claim it on its next round).
  void release(const std::string& table, std::int64_t epoch);
  // Deletes the lease row (a finished table nobody needs to run again).
  void remove(const std::string& table, std::int64_t epoch);
  // Every lease of this node (a drained node, after its last commit).
  void release_all();
  // The table's holder and epoch, and whether the lease is unexpired.
  struct Owner {
    std::string node;
    std::int64_t epoch = 0;
    bool live = false;
  };
  std::optional<Owner> owner(const std::string& table);
  // Nodes whose heartbeat is younger than a lease period.
  std::vector<std::string> live_nodes();

 private:
  std::unique_ptr<PgConn> conn_;
  std::string conninfo_;
  std::string node_;
  int lease_seconds_;
  PgConn& conn();
};

// A node id: 1-40 of [A-Za-z0-9_-]. "auto": hostname-pid-xxxx.
bool valid_node_id(const std::string& id);
std::string auto_node_id();

}  // namespace casa::server
