// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/ops/metrics.h"

#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "versioninfo/version.h"

namespace casa::server {

namespace {

// The codes of protocol/schemas/server/error.json: each has its own counter,
// found by a short scan (errors are not the move path's common case).
constexpr std::array<const char*, 47> kErrorCodes = {
    "malformed_json",      "unknown_type",   "bad_field",          "hello_required",
    "already_welcomed",    "bad_version",    "bad_token",          "banned",
    "frame_too_large",     "rate_limited",   "replaced",           "no_such_table",
    "no_such_game",        "no_such_player", "event_table",        "bad_option",
    "bad_players",         "seat_taken",     "bad_seat",           "table_full",
    "already_seated",      "not_seated",     "not_creator",        "already_started",
    "not_started",         "not_over",       "too_many_tables",    "too_many_event_games",
    "private_table",       "bad_invite",     "no_such_invitation", "bad_name",
    "stale_seq",           "not_your_turn",  "illegal_action",     "malformed_action",
    "game_over",           "draining",       "busy",               "storage_unavailable",
    "internal",            "name_taken",     "session_revoked",    "not_claimed",
    "no_such_friend",      "table_started",  "too_many_invitations"};

std::array<std::atomic<std::uint64_t>, kErrorCodes.size()> known_errors{};
std::mutex other_errors_mutex;
std::map<std::string, std::uint64_t> other_errors;  // a code missing from the list (a new one)

prometheus::ClientMetric::Label label(std::string name, std::string value) {
  return {std::move(name), std::move(value)};
}

prometheus::MetricFamily family(std::string name, std::string help, prometheus::MetricType type) {
  prometheus::MetricFamily f;
  f.name = std::move(name);
  f.help = std::move(help);
  f.type = type;
  return f;
}

prometheus::ClientMetric gauge(double v, std::vector<prometheus::ClientMetric::Label> labels = {}) {
  prometheus::ClientMetric m;
  m.label = std::move(labels);
  m.gauge.value = v;
  return m;
}

prometheus::ClientMetric counter(double v,
                                 std::vector<prometheus::ClientMetric::Label> labels = {}) {
  prometheus::ClientMetric m;
  m.label = std::move(labels);
  m.counter.value = v;
  return m;
}

prometheus::ClientMetric histogram(const LatencyHistogram& h) {
  const auto snap = h.snapshot();
  prometheus::ClientMetric m;
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < LatencyHistogram::kBounds.size(); ++i) {
    cumulative += snap.counts[i];
    m.histogram.bucket.push_back({cumulative, LatencyHistogram::kBounds[i]});
  }
  cumulative += snap.counts.back();
  m.histogram.bucket.push_back({cumulative, std::numeric_limits<double>::infinity()});
  m.histogram.sample_count = cumulative;
  m.histogram.sample_sum = snap.sum_seconds;
  return m;
}

// The standard process metrics of Prometheus's client libraries, read from
// /proc at scrape time (Linux; nothing is written where /proc is missing).
struct ProcessStats {
  double cpu_seconds = 0;         // user + system
  double resident_bytes = 0;
  double virtual_bytes = 0;
  double start_time_seconds = 0;  // since the Unix epoch
  double open_fds = 0;
  double max_fds = 0;             // the soft limit of open files
};

std::optional<ProcessStats> process_stats() {
  // /proc/self/stat: "pid (comm) state ppid ...": comm may hold spaces and
  // parentheses, so the fields are counted from the last ')'. After it come
  // field 3 (state) onwards: utime 14, stime 15, starttime 22, vsize 23, rss 24.
  std::ifstream stat_file("/proc/self/stat");
  std::string stat;
  if (!std::getline(stat_file, stat)) return std::nullopt;
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(close + 1));
  std::vector<std::string> f;  // f[0] is field 3
  for (std::string field; fields >> field;) f.push_back(field);
  if (f.size() < 22) return std::nullopt;
  auto field = [&](int number) { return std::stod(f[static_cast<std::size_t>(number - 3)]); };
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  if (ticks <= 0 || page <= 0) return std::nullopt;
  // The boot time (btime in /proc/stat, seconds since the epoch): starttime
  // counts clock ticks since boot.
  double boot = -1;
  std::ifstream proc_stat("/proc/stat");
  for (std::string line; std::getline(proc_stat, line);) {
    if (line.rfind("btime ", 0) == 0) {
      boot = std::stod(line.substr(6));
      break;
    }
  }
  if (boot < 0) return std::nullopt;
  ProcessStats s;
  try {
    s.cpu_seconds = (field(14) + field(15)) / ticks;
    s.start_time_seconds = boot + field(22) / ticks;
    s.virtual_bytes = field(23);
    s.resident_bytes = field(24) * page;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (DIR* dir = opendir("/proc/self/fd")) {
    int n = 0;
    while (const dirent* entry = readdir(dir)) n += entry->d_name[0] != '.';
    closedir(dir);
    s.open_fds = n - 1;  // less the one opendir holds
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    s.max_fds = limit.rlim_cur == RLIM_INFINITY ? std::numeric_limits<double>::infinity()
                                                : static_cast<double>(limit.rlim_cur);
  }
  return s;
}

}  // namespace

LatencyHistogram::Snapshot LatencyHistogram::snapshot() const {
  Snapshot s;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    s.counts[i] = counts_[i].load(std::memory_order_relaxed);
    s.count += s.counts[i];
  }
  s.sum_seconds = static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9;
  return s;
}

Metrics& metrics() {
  static Metrics m;
  return m;
}

void count_error(const std::string& code) {
  for (std::size_t i = 0; i < kErrorCodes.size(); ++i) {
    if (code == kErrorCodes[i]) {
      known_errors[i].fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  std::lock_guard lock(other_errors_mutex);
  ++other_errors[code];
}

std::vector<std::pair<std::string, std::uint64_t>> error_counts() {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (std::size_t i = 0; i < kErrorCodes.size(); ++i) {
    out.emplace_back(kErrorCodes[i], known_errors[i].load(std::memory_order_relaxed));
  }
  std::lock_guard lock(other_errors_mutex);
  for (const auto& [code, n] : other_errors) out.emplace_back(code, n);
  return out;
}

std::string metrics_text(const MetricsGauges& g) {
  using prometheus::MetricType;
  Metrics& m = metrics();
  std::vector<prometheus::MetricFamily> all;

  // Which build this is: join on it to tell the versions of a fleet apart.
  auto build = family("casa_build_info", "The running build: its version and commit (always 1)", MetricType::Gauge);
  build.metric.push_back(gauge(1, {label("version", casa::version()), label("commit", casa::commit())}));
  all.push_back(std::move(build));

  if (const auto p = process_stats()) {
    auto add = [&](const char* name, const char* help, MetricType type, double v) {
      auto f = family(name, help, type);
      f.metric.push_back(type == MetricType::Counter ? counter(v) : gauge(v));
      all.push_back(std::move(f));
    };
    add("process_cpu_seconds_total", "Total user and system CPU time spent in seconds", MetricType::Counter,
        p->cpu_seconds);
    add("process_resident_memory_bytes", "Resident memory size in bytes", MetricType::Gauge, p->resident_bytes);
    add("process_virtual_memory_bytes", "Virtual memory size in bytes", MetricType::Gauge, p->virtual_bytes);
    add("process_start_time_seconds", "Start time of the process since unix epoch in seconds", MetricType::Gauge,
        p->start_time_seconds);
    add("process_open_fds", "Number of open file descriptors", MetricType::Gauge, p->open_fds);
    add("process_max_fds", "Maximum number of open file descriptors", MetricType::Gauge, p->max_fds);
  }

  auto connections = family("casa_connections",
                            "Open connections by kind (websocket: upgraded; http: plain requests)",
                            MetricType::Gauge);
  connections.metric.push_back(
      gauge(static_cast<double>(m.websocket_connections.load(std::memory_order_relaxed)),
            {label("kind", "websocket")}));
  connections.metric.push_back(
      gauge(static_cast<double>(m.http_connections.load(std::memory_order_relaxed)),
            {label("kind", "http")}));
  all.push_back(std::move(connections));

  auto players =
      family("casa_players_connected", "Players with a welcomed connection", MetricType::Gauge);
  players.metric.push_back(gauge(static_cast<double>(g.players_connected)));
  all.push_back(std::move(players));

  auto tables = family("casa_tables", "Tables in this node's memory by state", MetricType::Gauge);
  for (const auto& [state, n] : g.tables_by_state)
    tables.metric.push_back(gauge(static_cast<double>(n), {label("state", state)}));
  all.push_back(std::move(tables));

  auto moves =
      family("casa_moves_total", "Actions committed to the log (players', bots' and timers')",
             MetricType::Counter);
  moves.metric.push_back(counter(static_cast<double>(m.moves.load(std::memory_order_relaxed))));
  all.push_back(std::move(moves));

  auto lobby_waits = family("casa_lobby_lock_waits_total",
                            "Times a network thread found the lobby's lock held by another thread",
                            MetricType::Counter);
  lobby_waits.metric.push_back(counter(static_cast<double>(m.lobby_lock_waits.load(std::memory_order_relaxed))));
  all.push_back(std::move(lobby_waits));

  auto lobby_locks = family("casa_lobby_locks_total",
                            "Times the lobby's lock was taken: players arriving and leaving, tables made, "
                            "found by code or forgotten, listings; not a move",
                            MetricType::Counter);
  lobby_locks.metric.push_back(counter(static_cast<double>(m.lobby_locks.load(std::memory_order_relaxed))));
  all.push_back(std::move(lobby_locks));

  auto dropped = family("casa_connections_dropped_total",
                        "WebSocket connections closed by the server for their behaviour: write_budget (more "
                        "than --max-write-bytes queued for a reader), write_timeout (nothing read for "
                        "--write-timeout-seconds), flood (over the message rate limit, pings included)",
                        MetricType::Counter);
  for (const auto& [reason, n] : {std::pair{"write_budget", &m.dropped_write_budget},
                                  std::pair{"write_timeout", &m.dropped_write_timeout},
                                  std::pair{"flood", &m.dropped_flood}}) {
    dropped.metric.push_back(counter(static_cast<double>(n->load(std::memory_order_relaxed)), {label("reason", reason)}));
  }
  all.push_back(std::move(dropped));

  auto errors =
      family("casa_errors_total", "Error frames sent to clients by code", MetricType::Counter);
  for (const auto& [code, n] : error_counts())
    errors.metric.push_back(counter(static_cast<double>(n), {label("code", code)}));
  all.push_back(std::move(errors));

  auto commit =
      family("casa_store_commit_seconds",
             "Store group commits: from the first write of the batch queued to its COMMIT returned",
             MetricType::Histogram);
  commit.metric.push_back(histogram(m.commit_latency));
  all.push_back(std::move(commit));

  auto checkpoint = family("casa_store_checkpoint_seconds",
                           "Store checkpoints (SQLite) run by the store thread between two group commits, "
                           "which hold the writes queued meanwhile",
                           MetricType::Histogram);
  checkpoint.metric.push_back(histogram(m.checkpoint_latency));
  all.push_back(std::move(checkpoint));
  auto background = family("casa_store_checkpoint_background_seconds",
                           "Store checkpoints (SQLite) run by the checkpoint thread while commits go on",
                           MetricType::Histogram);
  background.metric.push_back(histogram(m.background_checkpoint_latency));
  all.push_back(std::move(background));

  auto move =
      family("casa_move_event_seconds",
             "Player actions: from the action received to its event frames queued for the players",
             MetricType::Histogram);
  move.metric.push_back(histogram(m.move_latency));
  all.push_back(std::move(move));

  auto queue = family("casa_store_queue", "Writes queued for the store's next group commit",
                      MetricType::Gauge);
  queue.metric.push_back(gauge(static_cast<double>(g.store_queue)));
  all.push_back(std::move(queue));

  auto wal_copy = family("casa_store_wal_copy_bytes",
                         "Memory held by the copy of the SQLite WAL that checkpoints read (durability full)",
                         MetricType::Gauge);
  wal_copy.metric.push_back(gauge(static_cast<double>(g.store_wal_copy_bytes)));
  all.push_back(std::move(wal_copy));

  auto bot_threads =
      family("casa_bot_threads", "Threads of the searching bots' pool", MetricType::Gauge);
  bot_threads.metric.push_back(gauge(static_cast<double>(g.bot_threads)));
  all.push_back(std::move(bot_threads));
  auto bot_busy = family("casa_bot_busy", "Bot threads thinking now", MetricType::Gauge);
  bot_busy.metric.push_back(gauge(static_cast<double>(g.bot_busy)));
  all.push_back(std::move(bot_busy));
  auto bot_queued =
      family("casa_bot_queued", "Searches waiting for a bot thread", MetricType::Gauge);
  bot_queued.metric.push_back(gauge(static_cast<double>(g.bot_queued)));
  all.push_back(std::move(bot_queued));
  auto fallbacks =
      family("casa_bot_fallbacks_total",
             "Searching bots' moves played by the robot because every bot thread was busy",
             MetricType::Counter);
  fallbacks.metric.push_back(
      counter(static_cast<double>(m.bot_fallbacks.load(std::memory_order_relaxed))));
  all.push_back(std::move(fallbacks));

  if (!g.node.empty()) {
    // Each node is scraped on its own: its id as an info metric, to join on.
    auto info = family("casa_node_info", "This node's id in the cluster (always 1)", MetricType::Gauge);
    info.metric.push_back(gauge(1, {label("node", g.node)}));
    all.push_back(std::move(info));
    auto owned =
        family("casa_cluster_tables_owned", "Tables whose lease this node holds and runs", MetricType::Gauge);
    owned.metric.push_back(gauge(static_cast<double>(g.tables_owned)));
    all.push_back(std::move(owned));
    auto cut = family("casa_cluster_cut_off",
                      "1 while this node's leases have run out unrenewed (the database out of reach): it runs no table",
                      MetricType::Gauge);
    cut.metric.push_back(gauge(g.cut_off ? 1 : 0));
    all.push_back(std::move(cut));
    auto renew = family("casa_cluster_lease_renew_failures_total",
                        "Lease renewal rounds the database refused or could not be reached for",
                        MetricType::Counter);
    renew.metric.push_back(counter(static_cast<double>(g.lease_renew_failures)));
    all.push_back(std::move(renew));
    auto lost = family("casa_cluster_leases_lost_total",
                       "Tables this node dropped because their lease was no longer its own", MetricType::Counter);
    lost.metric.push_back(counter(static_cast<double>(g.leases_lost)));
    all.push_back(std::move(lost));
    auto bus = family("casa_cluster_bus_messages_total",
                      "Cluster bus notifications by direction: in (received), out (sent)", MetricType::Counter);
    bus.metric.push_back(counter(static_cast<double>(g.bus_in), {label("direction", "in")}));
    bus.metric.push_back(counter(static_cast<double>(g.bus_out), {label("direction", "out")}));
    all.push_back(std::move(bus));
  }

  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, all);
  return std::move(out).str();
}

}  // namespace casa::server
