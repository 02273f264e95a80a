// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/lease.h"

#include <unistd.h>

#include <stdexcept>

#include "protocol/crypto.h"
#include "server/store/store.h"

namespace casa::server {

// FOR KEY SHARE, the weakest row lock, conflicts only with FOR UPDATE (and
// DELETE): every statement that changes a lease's owner takes FOR UPDATE, so it
// waits for this commit or skips the row, while a renewal or a release (which
// change expires_at alone, FOR NO KEY UPDATE) neither waits for a commit nor
// makes one wait. That is what keeps the lease round and the group commit
// free of deadlocks (docs/cluster.md, "Locks").
const char* const kFenceLeaseSql =
    "SELECT epoch FROM table_leases WHERE table_id = ? AND node_id = ? AND epoch = ? "
    "AND expires_at > clock_timestamp() FOR KEY SHARE";

void fence_lease(Db& db, const std::string& table, const std::string& node, std::int64_t epoch) {
  auto& q = db.prepare(kFenceLeaseSql);
  q.bind_text(1, table).bind_text(2, node).bind(3, epoch);
  const bool held = q.step();
  q.run();
  if (!held) throw std::runtime_error("lease lost: table " + table + " epoch " + std::to_string(epoch));
}

Leases::Leases(const std::string& conninfo, std::string node_id, int lease_seconds)
    : conninfo_(conninfo), node_(std::move(node_id)), lease_seconds_(lease_seconds) {
  conn_ = std::make_unique<PgConn>(conninfo_);
}

// A broken connection is opened again on the next call (the caller's round
// failed with the exception; its next round retries).
PgConn& Leases::conn() {
  if (!conn_ || !conn_->ok()) conn_ = std::make_unique<PgConn>(conninfo_);
  return *conn_;
}

namespace {
std::vector<Lease> leases_of(const std::vector<PgRow>& rows) {
  std::vector<Lease> out;
  for (const auto& r : rows) out.push_back({r.at(0).value_or(""), std::stoll(r.at(1).value_or("0"))});
  return out;
}
}  // namespace

std::optional<std::int64_t> Leases::acquire(const std::string& table) {
  const std::string secs = std::to_string(lease_seconds_);
  auto rows = conn().exec(
      "INSERT INTO table_leases (table_id, node_id, epoch, expires_at) "
      "VALUES ($1, $2, 1, clock_timestamp() + make_interval(secs => $3::float8)) "
      "ON CONFLICT (table_id) DO NOTHING RETURNING epoch",
      {table, node_, secs});
  if (rows.empty()) {
    // An expired row: taken as a claim takes one, under FOR UPDATE (ON CONFLICT
    // DO UPDATE would lock it FOR NO KEY UPDATE only and pass a fenced write in
    // flight, see kFenceLeaseSql). A row locked by such a write is left alone.
    rows = conn().exec(
        "UPDATE table_leases SET node_id = $2, epoch = epoch + 1, "
        "expires_at = clock_timestamp() + make_interval(secs => $3::float8) "
        "WHERE table_id IN (SELECT table_id FROM table_leases WHERE table_id = $1 "
        "AND expires_at < clock_timestamp() FOR UPDATE SKIP LOCKED) RETURNING epoch",
        {table, node_, secs});
  }
  if (rows.empty()) return std::nullopt;
  return std::stoll(rows[0].at(0).value_or("0"));
}

std::vector<Lease> Leases::renew(std::chrono::steady_clock::time_point* sent) {
  conn().exec(
      "INSERT INTO nodes (node_id, started_at, seen_at) VALUES ($1, clock_timestamp(), clock_timestamp()) "
      "ON CONFLICT (node_id) DO UPDATE SET seen_at = excluded.seen_at",
      {node_});
  if (sent) *sent = std::chrono::steady_clock::now();
  return leases_of(conn().exec(
      "UPDATE table_leases SET expires_at = clock_timestamp() + make_interval(secs => $2::float8) "
      "WHERE node_id = $1 AND expires_at > clock_timestamp() RETURNING table_id, epoch",
      {node_, std::to_string(lease_seconds_)}));
}

std::vector<Lease> Leases::claim_expired(int limit) {
  // FOR UPDATE, as every change of owner (kFenceLeaseSql). SKIP LOCKED: a row
  // locked by a write in flight (fence_lease) is left for a later round
  // instead of waiting for that commit; a claim never waits for anything.
  return leases_of(conn().exec(
      "UPDATE table_leases SET node_id = $1, epoch = epoch + 1, "
      "expires_at = clock_timestamp() + make_interval(secs => $2::float8) "
      "WHERE table_id IN (SELECT table_id FROM table_leases WHERE expires_at < clock_timestamp() "
      "ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING table_id, epoch",
      {node_, std::to_string(lease_seconds_), std::to_string(limit)}));
}

void Leases::release(const std::string& table, std::int64_t epoch) {
  conn().exec("UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' "
              "WHERE table_id = $1 AND node_id = $2 AND epoch = $3",
              {table, node_, std::to_string(epoch)});
}

void Leases::remove(const std::string& table, std::int64_t epoch) {
  conn().exec("DELETE FROM table_leases WHERE table_id = $1 AND node_id = $2 AND epoch = $3",
              {table, node_, std::to_string(epoch)});
}

void Leases::release_all() {
  conn().exec("UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE node_id = $1",
              {node_});
}

std::optional<Leases::Owner> Leases::owner(const std::string& table) {
  const auto rows = conn().exec(
      "SELECT node_id, epoch, expires_at > clock_timestamp() FROM table_leases WHERE table_id = $1", {table});
  if (rows.empty()) return std::nullopt;
  return Owner{rows[0].at(0).value_or(""), std::stoll(rows[0].at(1).value_or("0")),
               rows[0].at(2).value_or("f") == "t"};
}

std::vector<std::string> Leases::live_nodes() {
  std::vector<std::string> out;
  for (const auto& r : conn().exec(
           "SELECT node_id FROM nodes WHERE seen_at > clock_timestamp() - make_interval(secs => $1::float8) "
           "ORDER BY node_id",
           {std::to_string(lease_seconds_)})) {
    out.push_back(r.at(0).value_or(""));
  }
  return out;
}

bool valid_node_id(const std::string& id) {
  if (id.empty() || id.size() > 40) return false;
  for (char ch : id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '-' || ch == '_';
    if (!ok) return false;
  }
  return true;
}

std::string auto_node_id() {
  char host[64] = {};
  gethostname(host, sizeof host - 1);
  std::string h;
  for (char ch : std::string(host)) {
    if (h.size() >= 24) break;
    h += ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) ? ch : '-';
  }
  if (h.empty()) h = "node";
  unsigned char r[2];
  casa::random_bytes(r, sizeof r);
  return h + "-" + std::to_string(getpid()) + "-" + casa::to_hex(r, sizeof r);
}

}  // namespace casa::server
