// SPDX-License-Identifier: AGPL-3.0-or-later
// The server's counters for GET /metrics (docs/operations.md#metrics).
//
// Everything counted on the move path is a relaxed atomic add: no lock, no
// allocation, no map lookup. The counters belong to the process (one
// casa-server process serves one node); the gauges (connections, tables by
// state, store queue, bot pool) are read from the running server when
// /metrics is asked for, so they cost nothing between scrapes.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace casa::server {

// A histogram of durations with fixed bucket bounds (seconds). observe() is a
// few relaxed atomic adds.
class LatencyHistogram {
 public:
  static constexpr std::array<double, 14> kBounds = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5};
  void observe(std::chrono::steady_clock::duration d) {
    const double s = std::chrono::duration<double>(d).count();
    std::size_t i = 0;
    while (i < kBounds.size() && s > kBounds[i]) ++i;
    counts_[i].fetch_add(1, std::memory_order_relaxed);
    sum_ns_.fetch_add(
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()),
        std::memory_order_relaxed);
  }
  struct Snapshot {
    std::array<std::uint64_t, kBounds.size() + 1> counts{};  // per bucket, the last is +Inf
    double sum_seconds = 0;
    std::uint64_t count = 0;
  };
  Snapshot snapshot() const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> counts_{};
  std::atomic<std::uint64_t> sum_ns_{0};
};

struct Metrics {
  std::atomic<std::uint64_t> moves{0};  // actions committed (players', bots', timers')
  std::atomic<std::int64_t> websocket_connections{0};
  std::atomic<std::int64_t> http_connections{0};
  std::atomic<std::uint64_t> bot_fallbacks{0};  // a searching bot's move played by the robot
  std::atomic<std::uint64_t> lobby_lock_waits{0};  // the lobby's lock found held by another thread
  std::atomic<std::uint64_t> lobby_locks{0};       // the lobby's lock taken (a move takes none)
  // WebSocket connections the server closed for what they did (docs/security.md#network).
  std::atomic<std::uint64_t> dropped_write_budget{0};   // queued more than --max-write-bytes for it
  std::atomic<std::uint64_t> dropped_write_timeout{0};  // read nothing of ours for --write-timeout-seconds
  std::atomic<std::uint64_t> dropped_flood{0};          // over the message rate limit (pings included)
  LatencyHistogram commit_latency;  // a store batch: its first job queued -> COMMIT returned
  LatencyHistogram checkpoint_latency;  // a SQLite checkpoint run by the store thread, between two batches
  LatencyHistogram background_checkpoint_latency;  // one run by the checkpoint thread, beside the batches
  LatencyHistogram move_latency;    // an action received -> its event frames queued
};

// The process's metrics.
Metrics& metrics();

// Bumps the counter of one `error` code (every error frame the server sends).
void count_error(const std::string& code);
// (code, count) for every code sent at least once, and every documented code.
std::vector<std::pair<std::string, std::uint64_t>> error_counts();

// What /metrics reads from the running server at scrape time.
struct MetricsGauges {
  std::vector<std::pair<std::string, std::int64_t>>
      tables_by_state;  // waiting, playing, over, closed
  std::int64_t players_connected = 0;
  std::int64_t store_queue = 0;
  std::int64_t store_wal_copy_bytes = 0;
  std::int64_t bot_threads = 0, bot_busy = 0, bot_queued = 0;
  // Cluster mode only (docs/cluster.md): this node's id, and its share of the cluster.
  std::string node;  // empty: a single node, and none of the below is written
  std::int64_t tables_owned = 0;
  bool cut_off = false;
  std::uint64_t lease_renew_failures = 0, leases_lost = 0, bus_in = 0, bus_out = 0;
};

// The Prometheus text exposition (version 0.0.4) of metrics() and `gauges`.
std::string metrics_text(const MetricsGauges& gauges);

}  // namespace casa::server
