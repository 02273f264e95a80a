// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-loadgen: drives casa-server (or casa-echo-server) over loopback and
// reports throughput and the move -> acknowledgement latency distribution.
//
// Everything runs on one io_context thread so that, pinned with taskset, the
// generator uses exactly one core and the figures say what the server does.
// The generator plays through the real protocol: each player says hello, one
// player per table creates it, the others join, and every `request` is
// answered with an action picked at random from the request's own list. So
// the generator knows no rule of any game.
//
// Load is either open loop at a fixed offered rate (--rate N moves/s: a pacer
// releases moves at their scheduled times to whichever players are waiting to
// act, and counts the moves it could not release because nobody was waiting)
// or saturation (--rate 0: every player answers as soon as it is asked).
//
// Limits: loopback only (the URL host must be 127.x, ::1 or localhost), at most
// kMaxConnections connections and kMaxDuration seconds.
//
// Output: a readable table on stderr and one JSON object on stdout.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <sstream>
#include <iterator>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cmdline/cmdline.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kMaxConnections = 40000;
constexpr double kMaxDuration = 600;
constexpr std::size_t kMaxLatencySamples = 20'000'000;
// A connection attempt that fails (refused, reset, timed out) is tried again
// this many times, after kRetryPause times the attempt's number.
constexpr int kConnectAttempts = 5;
constexpr auto kRetryPause = std::chrono::milliseconds(100);

// ---------------------------------------------------------------------------
// Command line

struct Config {
  std::string url = "ws://127.0.0.1:8080/ws";
  int tables = 10;
  int players_per_table = 4;
  int tables_per_player = 1;  // each connection sits at this many tables
  std::string game = "la-casa";
  std::string options = "{}";
  double duration = 10;
  double warmup = 1;
  long max_moves = 0;
  double rate = 0;
  int connections_only = 0;
  bool echo = false;
  int fanout = 1;        // echo: connections that each message goes to
  int message_size = 0;  // echo payload; 0 = the size of a typical action message
  int server_pid = 0;
  int connect_parallel = 512;
  double setup_seconds = 180;  // connecting and seating every table, at most
  std::uint64_t seed = 1;
  bool quiet = false;
  bool metrics = false;  // read the server's GET /metrics when measuring starts and stops
  std::vector<std::string> features;  // asked for in hello (docs/protocol.md, Features)
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "casa-loadgen: " << why << "\n"
            << "Run 'casa-loadgen --help' for its usage.\n";
  std::exit(2);
}

Config parse_args(int argc, char** argv) {
  Config c;
  casa::cmdline::App app{"Drives a casa-server (or casa-echo-server) on loopback and measures it.",
                         "casa-loadgen"};
  app.add_option("--url", c.url, "ws://127.0.0.1:PORT/PATH: the server to drive (loopback only)");
  app.add_option("--tables", c.tables, "tables to play at once (10)");
  app.add_option("--players-per-table", c.players_per_table, "seats per table (4)");
  app.add_option("--tables-per-player", c.tables_per_player,
                 "each connection sits at K tables, so M tables take M*P/K connections (1; M must "
                 "be a multiple of K): more live tables than file descriptors allow");
  app.add_option("--game", c.game, "la-casa | casino | conference | trophy-case");
  app.add_option("--options", c.options, "table options ({})");
  app.add_option("--rate", c.rate, "offered moves/s, open loop; 0 = saturation (0)");
  app.add_option("--duration", c.duration, "measured seconds (10, at most 600)");
  app.add_option("--warmup", c.warmup, "seconds run before measuring (1)");
  app.add_option("--max-moves", c.max_moves, "stop after N acknowledged moves (echo: round trips)");
  app.add_option("--connections-only", c.connections_only,
                 "open N idle connections, hold them for --duration");
  app.add_option(
      "--server-pid", c.server_pid,
      "report the server's CPU share; with --connections-only also its VmRSS before/after");
  app.add_flag("--echo", c.echo, "drive casa-echo-server with action-sized messages");
  app.add_option("--message-size", c.message_size, "echo payload size (a typical action message)");
  app.add_option("--fanout", c.fanout,
                 "echo: connections in groups of N (casa-echo-server --fanout): each message goes "
                 "to all N, and a round trip ends when all N have it; the members send in turn");
  app.add_option("--connect-parallel", c.connect_parallel,
                 "handshakes in flight while connecting (512); a failed connect is tried again, up "
                 "to 5 times");
  app.add_option("--setup-seconds", c.setup_seconds, "longest wait for every table to start (180)");
  app.add_option("--seed", c.seed, "seed of the random action choice (1)");
  std::string features;
  app.add_option("--features", features,
                 "protocol features to ask for in hello, comma-separated (e.g. view_patch; none: a "
                 "protocol v1 client)");
  app.add_flag("--metrics", c.metrics,
               "read the server's GET /metrics (same host and port) as the measurement starts and "
               "stops, and report what its own histograms saw in between (move -> event, commit)");
  app.add_flag("--quiet", c.quiet, "no readable table, only the JSON object");
  casa::cmdline::parse(app, argc, argv, 2);
  for (std::size_t at = 0; at <= features.size();) {
    const auto comma = std::min(features.find(',', at), features.size());
    if (comma > at) c.features.push_back(features.substr(at, comma - at));
    at = comma + 1;
  }
  if (c.tables < 1 || c.players_per_table < 1 || c.tables_per_player < 1)
    usage("--tables, --players-per-table and --tables-per-player must be >= 1");
  if (c.tables % c.tables_per_player != 0) usage("--tables must be a multiple of --tables-per-player");
  const long connections = c.connections_only > 0
                               ? c.connections_only
                               : static_cast<long>(c.tables) / c.tables_per_player * c.players_per_table;
  if (connections > kMaxConnections) usage("at most 40000 connections");
  if (c.setup_seconds <= 0 || c.setup_seconds > kMaxDuration) usage("--setup-seconds must be in (0, 600]");
  if (c.duration <= 0 || c.duration > kMaxDuration) usage("--duration must be in (0, 600]");
  if (c.warmup < 0 || c.warmup > 60) usage("--warmup must be in [0, 60]");
  if (c.rate < 0) usage("--rate must be >= 0");
  if (c.connect_parallel < 1) usage("--connect-parallel must be >= 1");
  if (c.fanout < 1 || (c.fanout > 1 && (!c.echo || connections % c.fanout != 0)))
    usage("--fanout goes with --echo, and must divide the number of connections");
  if (!json::accept(c.options)) usage("--options must be JSON");
  return c;
}

struct Url {
  std::string host;
  unsigned short port = 80;
  std::string target = "/";
};

// Accepts ws://HOST[:PORT][/PATH] where HOST is a loopback address.
Url parse_url(const std::string& url) {
  const std::string scheme = "ws://";
  if (url.rfind(scheme, 0) != 0) usage("--url must start with ws://");
  std::string rest = url.substr(scheme.size());
  Url u;
  const auto slash = rest.find('/');
  if (slash != std::string::npos) {
    u.target = rest.substr(slash);
    rest.resize(slash);
  }
  std::string host = rest;
  if (!rest.empty() && rest[0] == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) usage("bad IPv6 host in --url");
    host = rest.substr(1, close - 1);
    if (close + 1 < rest.size() && rest[close + 1] == ':') u.port = static_cast<unsigned short>(std::stoi(rest.substr(close + 2)));
  } else if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    host = rest.substr(0, colon);
    u.port = static_cast<unsigned short>(std::stoi(rest.substr(colon + 1)));
  }
  if (host == "localhost") host = "127.0.0.1";
  beast::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (ec || !address.is_loopback()) usage("refusing non-loopback host '" + host + "'");
  u.host = host;
  return u;
}

// ---------------------------------------------------------------------------
// Figures

struct Stats {
  bool measuring = false;
  Clock::time_point started;
  Clock::time_point stopped;
  std::uint64_t messages_in = 0, messages_out = 0, bytes_in = 0, bytes_out = 0;
  std::uint64_t moves = 0;           // acknowledged actions
  std::uint64_t action_bytes = 0;    // bytes of the action messages sent
  std::uint64_t games_finished = 0;
  std::uint64_t pacing_misses = 0;   // scheduled moves with no player waiting to act
  std::uint64_t disconnects = 0;
  std::map<std::string, std::uint64_t> errors;  // by server error code
  std::vector<std::uint32_t> latency_ns;        // saturates at ~4.29 s
  std::uint64_t latency_max_ns = 0;
  // CPU seconds used during the measurement, by this process and by the server.
  double own_cpu_at_start = 0, own_cpu = 0;
  double server_cpu_at_start = 0, server_cpu = -1;

  void record_latency(Clock::duration d) {
    const auto ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
    latency_max_ns = std::max(latency_max_ns, ns);
    if (latency_ns.size() < kMaxLatencySamples) latency_ns.push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(ns, UINT32_MAX)));
  }
};

// ---------------------------------------------------------------------------
// One WebSocket client connection. The driver sees opened / message / closed.

class Connection;

class Driver {
 public:
  virtual ~Driver() = default;
  virtual void opened(Connection& c) = 0;
  virtual void message(Connection& c, std::string_view text) = 0;
  virtual void closed(Connection& c) = 0;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // settled(ok) is called once: true when the handshake is done, false when
  // the connection could not be opened.
  Connection(asio::io_context& io, Driver& driver, Stats& stats, int index,
             std::function<void(bool)> settled)
      : ws_(io), driver_(driver), stats_(stats), index_(index), settled_(std::move(settled)) {}

  int index() const { return index_; }
  bool open() const { return open_; }

  void connect(const tcp::endpoint& endpoint, const Url& url) {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(ws_).async_connect(
        endpoint, [self = shared_from_this(), url](beast::error_code ec) {
          if (ec) return self->fail();
          beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
          beast::get_lowest_layer(self->ws_).expires_never();
          websocket::stream_base::timeout t{};
          t.handshake_timeout = std::chrono::seconds(30);
          t.idle_timeout = websocket::stream_base::none();
          t.keep_alive_pings = false;
          self->ws_.set_option(t);
          self->ws_.read_message_max(1 << 20);
          self->ws_.async_handshake(
              url.host + ":" + std::to_string(url.port), url.target,
              [self](beast::error_code ec2) {
                if (ec2) return self->fail();
                self->open_ = true;
                self->settle(true);
                self->driver_.opened(*self);
                self->read();
              });
        });
  }

  void send(std::string text) {
    if (!open_) return;
    if (stats_.measuring) {
      ++stats_.messages_out;
      stats_.bytes_out += text.size();
    }
    outbox_.push_back(std::move(text));
    if (!writing_) write_next();
  }

  void close() {
    if (!open_) return;
    open_ = false;
    beast::error_code ignored;
    // Reset rather than close: tens of thousands of sockets in TIME_WAIT
    // would hold the loopback's ephemeral ports for a minute, and the next
    // run could not connect.
    beast::get_lowest_layer(ws_).socket().set_option(asio::socket_base::linger(true, 0), ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void read() {
    ws_.async_read(inbox_, [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      if (ec) return self->fail();
      if (self->stats_.measuring) {
        ++self->stats_.messages_in;
        self->stats_.bytes_in += n;
      }
      const auto data = self->inbox_.cdata();
      self->driver_.message(*self, std::string_view(static_cast<const char*>(data.data()), data.size()));
      self->inbox_.consume(self->inbox_.size());
      if (self->open_) self->read();
    });
  }

  void write_next() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(outbox_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail();
      self->outbox_.pop_front();
      if (!self->outbox_.empty()) {
        self->write_next();
      } else {
        self->writing_ = false;
      }
    });
  }

  void settle(bool ok) {
    if (!settled_) return;
    auto settled = std::move(settled_);
    settled_ = nullptr;
    settled(ok);
  }

  void fail() {
    settle(false);
    const bool was_open = open_;
    open_ = false;
    writing_ = false;
    outbox_.clear();
    if (!closed_reported_) {
      closed_reported_ = true;
      if (was_open && stats_.measuring) ++stats_.disconnects;
      driver_.closed(*this);
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  Driver& driver_;
  Stats& stats_;
  int index_;
  beast::flat_buffer inbox_;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  bool open_ = false;
  bool closed_reported_ = false;
  std::function<void(bool)> settled_;
};

// Opens `count` connections with at most `parallel` handshakes in flight, then
// calls done(). A connection that fails to open is tried again (a server's
// accept queue overflows under a burst of connects) up to kConnectAttempts
// times; those that never open are counted.
class Connector {
 public:
  Connector(asio::io_context& io, Driver& driver, Stats& stats, const Url& url, int count, int parallel)
      : io_(io), driver_(driver), stats_(stats), url_(url), count_(count), parallel_(parallel),
        endpoint_(asio::ip::make_address(url.host), url.port) {}

  // By index; null until its first attempt.
  std::vector<std::shared_ptr<Connection>> connections;
  int group_size = 1;  // > 1: connection i opens the URL with ?group=i/group_size
  int failed = 0;
  int retries = 0;

  void start(std::function<void()> done) {
    done_ = std::move(done);
    connections.resize(static_cast<std::size_t>(count_));
    for (int i = 0; i < parallel_ && next_ < count_; ++i) launch(next_++, 1);
    if (count_ == 0) done_();
  }

 private:
  void settled(int index, int attempt, bool ok) {
    if (!ok && attempt < kConnectAttempts) {
      ++retries;
      auto pause = std::make_shared<asio::steady_timer>(io_, kRetryPause * attempt);
      pause->async_wait([this, pause, index, attempt](beast::error_code) { launch(index, attempt + 1); });
      return;
    }
    if (!ok) ++failed;
    ++settled_;
    if (next_ < count_) launch(next_++, 1);
    if (settled_ == count_) done_();
  }

  void launch(int index, int attempt) {
    auto c = std::make_shared<Connection>(io_, driver_, stats_, index,
                                          [this, index, attempt](bool ok) { settled(index, attempt, ok); });
    connections[static_cast<std::size_t>(index)] = c;
    if (group_size > 1) {
      Url grouped = url_;
      grouped.target += (grouped.target.find('?') == std::string::npos ? "?group=" : "&group=") +
                        std::to_string(index / group_size);
      c->connect(endpoint_, grouped);
      return;
    }
    c->connect(endpoint_, url_);
  }

  asio::io_context& io_;
  Driver& driver_;
  Stats& stats_;
  Url url_;
  int count_;
  int parallel_;
  tcp::endpoint endpoint_;
  int next_ = 0;
  int settled_ = 0;
  std::function<void()> done_;
};

// Reads the top-level "type" of a compact JSON message without building it:
// most messages a player receives only need their type looked at. Nested
// objects (legal actions, events) have "type" keys too, so depth is tracked.
std::string_view message_type(std::string_view text) {
  constexpr std::string_view key = "\"type\":\"";
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '"') {
      if (depth == 1 && text.compare(i, key.size(), key) == 0) {
        const auto begin = i + key.size();
        const auto end = text.find('"', begin);
        if (end == std::string_view::npos) return {};
        return text.substr(begin, end - begin);
      }
      // Skip the string.
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
    } else if (ch == '{' || ch == '[') {
      ++depth;
    } else if (ch == '}' || ch == ']') {
      --depth;
    }
  }
  return {};
}

// The end (one past) of the JSON value starting at text[begin], for arrays and
// objects; npos when unbalanced. Strings are skipped so brackets inside them
// do not count.
std::size_t value_end(std::string_view text, std::size_t begin) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = begin; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ']' || ch == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// The parts of a `request` the generator needs. A request carries the seat's
// whole view (or, with the view_patch feature, a patch of it), which is most of
// its bytes; parsing only the legal list keeps the generator cheaper than the
// server. The fast path relies on the top-level "legal", "seq" and "table" keys
// preceding "view" / "view_patch" (the server writes them first); otherwise the
// whole message is parsed.
struct RequestParts {
  json legal;
  json seq;
  json table;
};

bool parse_request(std::string_view text, RequestParts& out) {
  const auto view_at = text.find("\"view");
  const auto legal_at = text.find("\"legal\":[");
  const auto seq_at = text.find("\"seq\":");
  const auto table_at = text.find("\"table\":\"");
  if (view_at != std::string_view::npos && legal_at < view_at && seq_at < view_at && table_at < view_at) {
    const auto begin = legal_at + 8;
    const auto end = value_end(text, begin);
    const auto seq_end = text.find_first_of(",}", seq_at + 6);
    const auto table_end = text.find('"', table_at + 9);
    if (end != std::string_view::npos && seq_end != std::string_view::npos && table_end != std::string_view::npos) {
      out.legal = json::parse(text.substr(begin, end - begin), nullptr, false);
      out.seq = json::parse(text.substr(seq_at + 6, seq_end - seq_at - 6), nullptr, false);
      out.table = std::string(text.substr(table_at + 9, table_end - table_at - 9));
      if (!out.legal.is_discarded() && !out.seq.is_discarded()) return true;
    }
  }
  const json m = json::parse(text, nullptr, false);
  if (m.is_discarded() || !m.contains("legal") || !m.contains("seq") || !m.contains("table")) return false;
  out.legal = m["legal"];
  out.seq = m["seq"];
  out.table = m["table"];
  return true;
}

// ---------------------------------------------------------------------------
// Pacing: open loop at a fixed rate, or as fast as players are asked.

// Players (or echo connections) waiting to send their next move, and a pacer
// that releases them at the offered rate.
class Pacer {
 public:
  Pacer(asio::io_context& io, Stats& stats, double rate) : timer_(io), stats_(stats), rate_(rate) {}

  bool saturating() const { return rate_ <= 0; }

  void start(std::function<void(int)> release) {
    release_ = std::move(release);
    if (saturating()) return;
    begin_ = Clock::now();
    tick();
  }
  void stop() {
    stopped_ = true;
    timer_.cancel();
  }

  void ready(int who) { waiting_.push_back(who); }
  std::size_t waiting() const { return waiting_.size(); }

 private:
  void tick() {
    if (stopped_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - begin_).count();
    const auto due = static_cast<std::uint64_t>(elapsed * rate_);
    while (issued_ < due) {
      ++issued_;
      if (waiting_.empty()) {
        if (stats_.measuring) ++stats_.pacing_misses;
        continue;
      }
      const int who = waiting_.front();
      waiting_.pop_front();
      release_(who);
    }
    // Wake at the next scheduled move, but at least every millisecond so a
    // burst of ready players is not held back for long.
    const double next = static_cast<double>(issued_ + 1) / rate_;
    auto wake = begin_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(next));
    wake = std::min(wake, Clock::now() + std::chrono::milliseconds(1));
    timer_.expires_at(wake);
    timer_.async_wait([this](beast::error_code ec) {
      if (!ec) tick();
    });
  }

  asio::steady_timer timer_;
  Stats& stats_;
  double rate_;
  Clock::time_point begin_;
  std::uint64_t issued_ = 0;
  std::deque<int> waiting_;
  std::function<void(int)> release_;
  bool stopped_ = false;
};

// ---------------------------------------------------------------------------
// Echo mode: each connection sends one action-sized message and waits for it
// to come back; the echo counts as the acknowledgement.

class EchoDriver : public Driver {
 public:
  EchoDriver(Stats& stats, Pacer& pacer, int size, long max_moves, int fanout)
      : stats_(stats), pacer_(pacer), max_moves_(max_moves), fanout_(fanout) {
    // Shaped like an action message so the server frames the same bytes.
    payload_ = R"({"type":"action","table":"t3kq9x2m","seq":17,"action":{"type":"play","card":"G5"}})";
    if (size > 0) payload_.resize(static_cast<std::size_t>(size), ' ');
  }
  void set_connector(Connector* c) { connector_ = c; }
  std::size_t payload_size() const { return payload_.size(); }

  void begin() {
    running_ = true;
    sent_at_.resize(connector_->connections.size());
    const std::size_t groups = connector_->connections.size() / static_cast<std::size_t>(fanout_);
    received_.assign(groups, 0);
    sender_.assign(groups, 0);
    pacer_.start([this](int who) { send(who); });
    for (auto& c : connector_->connections) {
      if (!c || !c->open() || c->index() % fanout_ != 0) continue;
      if (pacer_.saturating()) send(c->index());
      else pacer_.ready(c->index());
    }
  }
  void end() { running_ = false; }
  std::function<void()> on_max_moves = [] {};

  void opened(Connection&) override {}
  void closed(Connection&) override {}
  void message(Connection& c, std::string_view) override {
    // With groups, the round trip ends when the last member has the message;
    // the next member sends next.
    int who = c.index();
    if (fanout_ > 1) {
      const auto group = static_cast<std::size_t>(who / fanout_);
      if (++received_[group] < fanout_) return;
      received_[group] = 0;
      who = sender_[group];
      const int first = static_cast<int>(group) * fanout_;
      sender_[group] = first + (who - first + 1) % fanout_;
    }
    if (stats_.measuring) {
      ++stats_.moves;
      stats_.record_latency(Clock::now() - sent_at_[static_cast<std::size_t>(who)]);
      if (max_moves_ > 0 && stats_.moves >= static_cast<std::uint64_t>(max_moves_)) on_max_moves();
    }
    if (!running_) return;
    const int next = fanout_ > 1 ? sender_[static_cast<std::size_t>(who / fanout_)] : who;
    if (pacer_.saturating()) send(next);
    else pacer_.ready(next);
  }

 private:
  void send(int who) {
    if (!running_) return;
    sent_at_[static_cast<std::size_t>(who)] = Clock::now();
    if (fanout_ > 1) sender_[static_cast<std::size_t>(who / fanout_)] = who;
    connector_->connections[static_cast<std::size_t>(who)]->send(payload_);
  }

  Stats& stats_;
  Pacer& pacer_;
  Connector* connector_ = nullptr;
  std::string payload_;
  std::vector<Clock::time_point> sent_at_;
  long max_moves_ = 0;
  int fanout_ = 1;
  std::vector<int> received_;  // per group: members that have the message in flight
  std::vector<int> sender_;    // per group: who sent it (or sends next)
  bool running_ = false;
};

// ---------------------------------------------------------------------------
// Game mode: protocol version 1 (docs/protocol.md). Every protocol detail the
// generator depends on lives in this class.
//
// Tables come in groups of K (--tables-per-player), each group played by P
// connections: connection c sits at seat c % P of every table of group c / P.
// (K = 1: connection i plays table i / P, seat i % P.) Seat 0 creates the
// group's tables and the others join them; a table starts when full. The
// messages about a table carry its id, and the replies to create_table and
// join carry the table's index as their `id`. A move is acknowledged by the
// `accepted` reply, which the server sends once the action is stored. When a
// game ends, seat 0 creates a fresh table in its place and its partners join.

class GameDriver : public Driver {
 public:
  GameDriver(const Config& cfg, Stats& stats, Pacer& pacer)
      : cfg_(cfg), stats_(stats), pacer_(pacer), rng_(cfg.seed), options_(json::parse(cfg.options)) {
    const auto n = static_cast<std::size_t>(cfg.tables) * static_cast<std::size_t>(cfg.players_per_table);
    seats_.resize(n);
    tables_.resize(static_cast<std::size_t>(cfg.tables));
    welcomed_.resize(static_cast<std::size_t>(cfg.tables / cfg.tables_per_player * cfg.players_per_table));
  }
  void set_connector(Connector* c) { connector_ = c; }

  // Connections-only mode: say hello and then stay idle.
  bool idle = false;

  // Tables whose seats have all been taken, since the start.
  int tables_started() const { return tables_started_; }
  // Tables being played now (started, game not over).
  int tables_live() const { return tables_live_; }
  std::uint64_t setup_errors = 0;
  std::map<std::string, std::uint64_t> setup_error_codes;
  std::function<void()> on_max_moves = [] {};

  void begin() {
    running_ = true;
    pacer_.start([this](int slot) { send_action(slot); });
  }
  void end() { running_ = false; }

  void opened(Connection& c) override {
    json hello{{"type", "hello"}, {"version", 1}, {"name", "lg" + std::to_string(c.index())}};
    if (!cfg_.features.empty()) hello["features"] = cfg_.features;
    c.send(hello.dump());
  }

  void closed(Connection& c) override {
    if (idle) return;
    for (int t : tables_of(c)) seat(t, seat_of(c)).awaiting_ack = false;
  }

  void message(Connection& c, std::string_view text) override {
    if (trace_) std::fprintf(stderr, "<%d %.*s\n", c.index(), static_cast<int>(std::min<std::size_t>(text.size(), 300)), text.data());
    const std::string_view type = message_type(text);
    if (type == "event") return;  // the common case: nothing to do
    if (type == "request") return on_request(c, text);
    if (type == "accepted") return on_accepted(c, text);
    if (type == "welcome") return on_welcome(c);
    if (type == "table_created") return on_table_created(text);
    if (type == "joined") return on_joined(text);
    if (type == "game_over") return on_game_over(c, text);
    if (type == "error") return on_error(c, text);
  }

 private:
  // One seat at one table: slot t * P + s.
  struct Seat {
    bool awaiting_ack = false;
    Clock::time_point sent_at;
    std::string pending;  // the action message chosen for the current request
    bool join_sent = false;
  };
  struct Table {
    std::string id;
    std::string invite;  // the private table's code: its other seats join by it
    int joined = 0;
  };

  int players() const { return cfg_.players_per_table; }
  int group_size() const { return cfg_.tables_per_player; }
  int seat_of(const Connection& c) const { return c.index() % players(); }
  // The tables connection c sits at.
  std::vector<int> tables_of(const Connection& c) const {
    std::vector<int> out;
    const int first = c.index() / players() * group_size();
    for (int k = 0; k < group_size(); ++k) out.push_back(first + k);
    return out;
  }
  int slot(int table, int s) const { return table * players() + s; }
  Seat& seat(int table, int s) { return seats_[static_cast<std::size_t>(slot(table, s))]; }
  Connection& connection_of_slot(int slot) {
    const int table = slot / players();
    const int conn = table / group_size() * players() + slot % players();
    return *connector_->connections[static_cast<std::size_t>(conn)];
  }
  // The table index a message is about (its "table" id), or -1.
  int table_index(std::string_view text) const {
    constexpr std::string_view key = "\"table\":\"";
    const auto at = text.find(key);
    if (at == std::string_view::npos) return -1;
    const auto end = text.find('"', at + key.size());
    if (end == std::string_view::npos) return -1;
    const auto it = by_id_.find(std::string(text.substr(at + key.size(), end - at - key.size())));
    return it == by_id_.end() ? -1 : it->second;
  }
  // The integer `id` a reply copies from our request, or -1.
  static int reply_id(const json& m) {
    const auto it = m.find("id");
    return it != m.end() && it->is_number_integer() ? it->get<int>() : -1;
  }

  void on_welcome(Connection& c) {
    if (idle) return;
    welcomed_[static_cast<std::size_t>(c.index())] = 1;
    for (int t : tables_of(c)) {
      if (seat_of(c) == 0) create_table(c, t);
      else join_when_ready(t, seat_of(c));
    }
  }

  // Seat s joins table t once both the table exists and its connection said
  // hello, whichever comes last (connections open in any order).
  void join_when_ready(int t, int s) {
    auto& table = tables_[static_cast<std::size_t>(t)];
    auto& p = seat(t, s);
    const auto conn = static_cast<std::size_t>(t / group_size() * players() + s);
    if (table.id.empty() || p.join_sent || !welcomed_[conn]) return;
    const auto& partner = connector_->connections[conn];
    if (!partner || !partner->open()) return;
    p.join_sent = true;
    // By the invite code: a private table refuses a join by its id alone.
    partner->send(json{{"type", "join"}, {"id", t}, {"invite", table.invite}, {"seat", s}}.dump());
  }

  void create_table(Connection& c, int table) {
    c.send(json{{"type", "create_table"},
                {"id", table},
                {"game", cfg_.game},
                {"players", players()},
                {"options", options_},
                {"private", true},
                {"seat", 0}}
               .dump());
  }

  void on_table_created(std::string_view text) {
    const json m = json::parse(text, nullptr, false);
    if (m.is_discarded() || !m.contains("table")) return;
    const int t = reply_id(m);
    if (t < 0 || t >= cfg_.tables) return;
    auto& table = tables_[static_cast<std::size_t>(t)];
    table.id = m["table"].get<std::string>();
    table.invite = m.value("invite", "");
    table.joined = 1;
    by_id_[table.id] = t;
    if (players() == 1) started();
    for (int s = 1; s < players(); ++s) join_when_ready(t, s);
  }

  void on_joined(std::string_view text) {
    const json m = json::parse(text, nullptr, false);
    if (m.is_discarded()) return;
    const int t = reply_id(m);
    if (t < 0 || t >= cfg_.tables) return;
    if (++tables_[static_cast<std::size_t>(t)].joined == players()) started();
  }

  void started() {
    ++tables_started_;
    ++tables_live_;
  }

  void on_request(Connection& c, std::string_view text) {
    if (!running_) return;
    RequestParts r;
    if (!parse_request(text, r) || !r.legal.is_array() || r.legal.empty() || !r.table.is_string()) {
      if (stats_.measuring) ++stats_.errors["bad_request_message"];
      return;
    }
    const auto it = by_id_.find(r.table.get<std::string>());
    if (it == by_id_.end()) return;
    const int who = slot(it->second, seat_of(c));
    std::uniform_int_distribution<std::size_t> pick(0, r.legal.size() - 1);
    seats_[static_cast<std::size_t>(who)].pending =
        json{{"type", "action"}, {"table", r.table}, {"seq", r.seq}, {"action", r.legal[pick(rng_)]}}.dump();
    if (pacer_.saturating()) send_action(who);
    else pacer_.ready(who);
  }

  void send_action(int who) {
    auto& p = seats_[static_cast<std::size_t>(who)];
    if (!running_ || p.pending.empty()) return;
    p.awaiting_ack = true;
    p.sent_at = Clock::now();
    if (stats_.measuring) stats_.action_bytes += p.pending.size();
    connection_of_slot(who).send(std::move(p.pending));
    p.pending.clear();
  }

  void on_accepted(Connection& c, std::string_view text) {
    const int t = table_index(text);
    if (t < 0) return;
    auto& p = seat(t, seat_of(c));
    if (!p.awaiting_ack) return;
    p.awaiting_ack = false;
    if (!stats_.measuring) return;
    ++stats_.moves;
    stats_.record_latency(Clock::now() - p.sent_at);
    if (cfg_.max_moves > 0 && stats_.moves >= static_cast<std::uint64_t>(cfg_.max_moves)) on_max_moves();
  }

  void on_game_over(Connection& c, std::string_view text) {
    const int t = table_index(text);
    if (t < 0) return;
    seat(t, seat_of(c)).pending.clear();
    if (seat_of(c) != 0) return;
    --tables_live_;
    if (stats_.measuring) ++stats_.games_finished;
    // Play on: the creator opens a fresh table and its partners join it.
    by_id_.erase(tables_[static_cast<std::size_t>(t)].id);
    tables_[static_cast<std::size_t>(t)].id.clear();
    for (int s = 0; s < players(); ++s) seat(t, s).join_sent = false;
    if (running_) create_table(c, t);
  }

  void on_error(Connection& c, std::string_view text) {
    const json m = json::parse(text, nullptr, false);
    const std::string code = m.is_discarded() ? "unparsable" : m.value("code", "unknown");
    if (stats_.measuring) {
      ++stats_.errors[code];
    } else {
      ++setup_errors;
      ++setup_error_codes[code];
    }
    // An action refused: which of the connection's tables is not said, so
    // with one table per connection that one stops waiting.
    // Idle connections (--connections-only) have no seat: their count is not
    // the tables' (an error to one of them used to write past the seats).
    if (!idle && group_size() == 1) seat(c.index() / players(), seat_of(c)).awaiting_ack = false;
  }

  const Config& cfg_;
  Stats& stats_;
  Pacer& pacer_;
  std::mt19937_64 rng_;
  json options_;
  Connector* connector_ = nullptr;
  std::vector<Seat> seats_;
  std::vector<Table> tables_;
  std::unordered_map<std::string, int> by_id_;  // table id -> index
  std::vector<char> welcomed_;                  // by connection
  int tables_started_ = 0;
  int tables_live_ = 0;
  bool running_ = false;
  // LOADGEN_TRACE=1 prints every message received (debugging a protocol change).
  bool trace_ = std::getenv("LOADGEN_TRACE") != nullptr;
};

// ---------------------------------------------------------------------------
// Report

// The numbers of a Prometheus text exposition, by series ("name{labels}").
using Exposition = std::map<std::string, double>;

// GET /metrics from the server, synchronously (a millisecond or so, twice a
// run: at the start and the end of the measurement). Empty on failure.
Exposition scrape_metrics(const Url& url) {
  Exposition out;
  try {
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(5));
    stream.connect(tcp::endpoint(asio::ip::make_address(url.host), url.port));
    beast::http::request<beast::http::empty_body> req{beast::http::verb::get, "/metrics", 11};
    req.set(beast::http::field::host, url.host);
    beast::http::write(stream, req);
    beast::flat_buffer buffer;
    beast::http::response<beast::http::string_body> res;
    beast::http::read(stream, buffer, res);
    beast::error_code ignored;
    stream.socket().set_option(asio::socket_base::linger(true, 0), ignored);
    stream.socket().close(ignored);
    std::istringstream lines(res.body());
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto space = line.rfind(' ');
      if (space == std::string::npos) continue;
      try {
        out[line.substr(0, space)] = std::stod(line.substr(space + 1));
      } catch (const std::logic_error&) {
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "casa-loadgen: GET /metrics failed: %s\n", e.what());
  }
  return out;
}

// What one histogram of the server saw between two scrapes: its count and,
// per quantile, the upper bound of the bucket that holds it (the server's
// buckets are coarse: 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25 ms, ...).
json histogram_between(const Exposition& before, const Exposition& after, const std::string& name) {
  std::vector<std::pair<double, double>> buckets;  // (le seconds, count in the window), cumulative
  const std::string prefix = name + "_bucket{le=\"";
  for (const auto& [series, value] : after) {
    if (series.rfind(prefix, 0) != 0) continue;
    const std::string le = series.substr(prefix.size(), series.size() - prefix.size() - 2);
    const double bound = le == "+Inf" ? INFINITY : std::stod(le);
    const auto b = before.find(series);
    buckets.emplace_back(bound, value - (b == before.end() ? 0 : b->second));
  }
  std::sort(buckets.begin(), buckets.end());
  const double count = buckets.empty() ? 0 : buckets.back().second;
  auto sum_of = [&](const Exposition& e) {
    const auto it = e.find(name + "_sum");
    return it == e.end() ? 0.0 : it->second;
  };
  json out{{"count", count}};
  out["mean_us"] = count > 0 ? (sum_of(after) - sum_of(before)) / count * 1e6 : 0.0;
  for (const auto& [key, q] : std::vector<std::pair<const char*, double>>{
           {"p50_le_us", 0.5}, {"p90_le_us", 0.9}, {"p99_le_us", 0.99}, {"p99.9_le_us", 0.999}}) {
    double bound = 0;
    for (const auto& [le, n] : buckets) {
      bound = le;
      if (n >= q * count) break;
    }
    out[key] = count > 0 && std::isfinite(bound) ? json(bound * 1e6) : json(nullptr);
  }
  // The slowest: the bound of the highest bucket that gained a sample.
  double top = 0, below = 0;
  for (const auto& [le, n] : buckets) {
    if (n > below) top = le;
    below = n;
  }
  out["max_le_us"] = count > 0 && std::isfinite(top) ? json(top * 1e6) : json(nullptr);
  return out;
}

json server_metrics_between(const Exposition& before, const Exposition& after) {
  auto diff = [&](const std::string& series) {
    const auto a = after.find(series);
    const auto b = before.find(series);
    return (a == after.end() ? 0 : a->second) - (b == before.end() ? 0 : b->second);
  };
  const double moves = diff("casa_moves_total");
  const double commits = diff("casa_store_commit_seconds_count");
  return json{{"moves", moves},
              {"commits", commits},
              {"moves_per_commit", commits > 0 ? moves / commits : 0.0},
              {"lobby_lock_waits", diff("casa_lobby_lock_waits_total")},
              {"move_event", histogram_between(before, after, "casa_move_event_seconds")},
              {"commit", histogram_between(before, after, "casa_store_commit_seconds")}};
}

long read_vm_rss_kb(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// CPU seconds (user + system) a process has used so far; -1 if unreadable.
double process_cpu_seconds(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  double ticks = 0;
  // Fields after the command: state(3) ... utime(14) stime(15), counted from 3.
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double percentile(std::vector<std::uint32_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size()))) ;
  return sorted[std::min(sorted.size() - 1, i == 0 ? 0 : i - 1)] / 1000.0;  // microseconds
}

json report(const Config& cfg, const std::string& mode, Stats& s, int connected, int failed) {
  const double secs = std::chrono::duration<double>(s.stopped - s.started).count();
  std::sort(s.latency_ns.begin(), s.latency_ns.end());
  auto per_sec = [&](std::uint64_t n) { return secs > 0 ? static_cast<double>(n) / secs : 0.0; };
  json errors = json::object();
  for (const auto& [code, n] : s.errors) errors[code] = n;
  return json{
      {"mode", mode},
      {"url", cfg.url},
      {"game", cfg.game},
      {"tables", cfg.tables},
      {"players_per_table", cfg.players_per_table},
      {"connections", connected},
      {"connect_failures", failed},
      {"offered_rate", cfg.rate},
      {"seconds", secs},
      {"moves", s.moves},
      {"moves_per_s", per_sec(s.moves)},
      {"messages_in", s.messages_in},
      {"messages_out", s.messages_out},
      {"messages_per_s", per_sec(s.messages_in + s.messages_out)},
      {"messages_in_per_s", per_sec(s.messages_in)},
      {"messages_out_per_s", per_sec(s.messages_out)},
      {"bytes_in", s.bytes_in},
      {"bytes_out", s.bytes_out},
      {"games_finished", s.games_finished},
      {"pacing_misses", s.pacing_misses},
      {"disconnects", s.disconnects},
      {"errors", errors},
      {"generator_cpu_share", secs > 0 ? s.own_cpu / secs : 0.0},
      {"server_cpu_share", s.server_cpu >= 0 && secs > 0 ? s.server_cpu / secs : -1.0},
      {"latency_us",
       {{"samples", s.latency_ns.size()},
        {"p50", percentile(s.latency_ns, 0.50)},
        {"p90", percentile(s.latency_ns, 0.90)},
        {"p99", percentile(s.latency_ns, 0.99)},
        {"p99.9", percentile(s.latency_ns, 0.999)},
        {"max", static_cast<double>(s.latency_max_ns) / 1000.0}}},
  };
}

void print_table(const json& r) {
  auto num = [](const json& v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", v.get<double>());
    return std::string(buf);
  };
  std::fprintf(stderr, "\n%-22s %s\n", "mode", r["mode"].get<std::string>().c_str());
  std::fprintf(stderr, "%-22s %d (%d failed)\n", "connections", r["connections"].get<int>(), r["connect_failures"].get<int>());
  if (r.contains("rss_kb_before")) {
    std::fprintf(stderr, "%-22s %ld kB -> %ld kB\n", "server VmRSS", r["rss_kb_before"].get<long>(), r["rss_kb_after"].get<long>());
    std::fprintf(stderr, "%-22s %.0f bytes\n", "per connection", r["rss_bytes_per_connection"].get<double>());
    return;
  }
  std::fprintf(stderr, "%-22s %s s\n", "measured", num(r["seconds"]).c_str());
  std::fprintf(stderr, "%-22s %s (offered %s, %llu not released)\n", "moves/s", num(r["moves_per_s"]).c_str(),
               r["offered_rate"].get<double>() > 0 ? num(r["offered_rate"]).c_str() : "saturation",
               static_cast<unsigned long long>(r["pacing_misses"].get<std::uint64_t>()));
  std::fprintf(stderr, "%-22s %s in + %s out = %s\n", "messages/s", num(r["messages_in_per_s"]).c_str(),
               num(r["messages_out_per_s"]).c_str(), num(r["messages_per_s"]).c_str());
  std::fprintf(stderr, "%-22s %llu in, %llu out\n", "bytes",
               static_cast<unsigned long long>(r["bytes_in"].get<std::uint64_t>()),
               static_cast<unsigned long long>(r["bytes_out"].get<std::uint64_t>()));
  if (r["mode"] == "game") {
    std::fprintf(stderr, "%-22s %llu finished; %d started, %d live at the end\n", "games",
                 static_cast<unsigned long long>(r["games_finished"].get<std::uint64_t>()),
                 r["tables_started"].get<int>(), r["tables_live_at_end"].get<int>());
    std::fprintf(stderr, "%-22s %.1f bytes\n", "mean action message", r["mean_action_bytes"].get<double>());
    if (!r["setup_errors"].empty()) std::fprintf(stderr, "%-22s %s\n", "setup errors", r["setup_errors"].dump().c_str());
  }
  const auto& l = r["latency_us"];
  std::fprintf(stderr, "%-22s p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (%llu samples)\n", "latency us",
               num(l["p50"]).c_str(), num(l["p90"]).c_str(), num(l["p99"]).c_str(), num(l["p99.9"]).c_str(),
               num(l["max"]).c_str(), static_cast<unsigned long long>(l["samples"].get<std::uint64_t>()));
  std::fprintf(stderr, "%-22s generator %.0f%%, server %s\n", "cpu during run",
               100 * r["generator_cpu_share"].get<double>(),
               r["server_cpu_share"].get<double>() < 0
                   ? "unknown (pass --server-pid)"
                   : (std::to_string(static_cast<int>(100 * r["server_cpu_share"].get<double>())) + "%").c_str());
  if (!r["errors"].empty()) std::fprintf(stderr, "%-22s %s\n", "errors", r["errors"].dump().c_str());
  if (r["disconnects"].get<std::uint64_t>() > 0) {
    std::fprintf(stderr, "%-22s %llu\n", "disconnects", static_cast<unsigned long long>(r["disconnects"].get<std::uint64_t>()));
  }
}

void raise_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Config cfg = parse_args(argc, argv);
  const Url url = parse_url(cfg.url);
  raise_fd_limit();

  asio::io_context io(1);
  Stats stats;
  Pacer pacer(io, stats, cfg.rate);
  asio::steady_timer phase(io);
  const std::string mode = cfg.connections_only > 0 ? "connections-only" : cfg.echo ? "echo" : "game";
  const int count = cfg.connections_only > 0 ? cfg.connections_only
                                             : cfg.tables / cfg.tables_per_player * cfg.players_per_table;

  EchoDriver echo(stats, pacer, cfg.message_size, cfg.max_moves, cfg.fanout);
  GameDriver game(cfg, stats, pacer);
  Driver& driver = cfg.echo ? static_cast<Driver&>(echo) : static_cast<Driver&>(game);
  Connector connector(io, driver, stats, url, count, cfg.connect_parallel);
  echo.set_connector(&connector);
  connector.group_size = cfg.fanout;
  game.set_connector(&connector);
  game.idle = cfg.connections_only > 0;

  long rss_before = cfg.server_pid > 0 ? read_vm_rss_kb(cfg.server_pid) : -1;
  long rss_after = -1;
  int connected = 0;
  double connect_seconds = 0;
  int live_at_end = 0;

  Exposition metrics_before, metrics_after;
  auto stop = [&] {
    if (!stats.measuring) return;
    stats.measuring = false;
    stats.stopped = Clock::now();
    if (cfg.metrics) metrics_after = scrape_metrics(url);
    live_at_end = game.tables_live();
    stats.own_cpu = process_cpu_seconds(getpid()) - stats.own_cpu_at_start;
    if (cfg.server_pid > 0) stats.server_cpu = process_cpu_seconds(cfg.server_pid) - stats.server_cpu_at_start;
    pacer.stop();
    echo.end();
    game.end();
    phase.cancel();
    for (auto& c : connector.connections) {
      if (c) c->close();
    }
  };
  game.on_max_moves = stop;
  echo.on_max_moves = stop;

  auto measure = [&] {
    if (cfg.metrics) metrics_before = scrape_metrics(url);
    stats.measuring = true;
    stats.started = Clock::now();
    stats.own_cpu_at_start = process_cpu_seconds(getpid());
    if (cfg.server_pid > 0) stats.server_cpu_at_start = process_cpu_seconds(cfg.server_pid);
    phase.expires_after(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(cfg.duration)));
    phase.async_wait([&](beast::error_code ec) {
      if (!ec) stop();
    });
  };

  const auto setup_began = Clock::now();
  std::function<void()> wait_for_tables;
  // Players answer requests from the first one on: a table that starts while
  // others are still connecting must not be left waiting.
  if (mode == "game") game.begin();
  connector.start([&] {
    connected = count - connector.failed;
    connect_seconds = std::chrono::duration<double>(Clock::now() - setup_began).count();
    if (!cfg.quiet) {
      std::fprintf(stderr, "connected %d of %d in %.2f s (%d attempts tried again)\n", connected, count,
                   std::chrono::duration<double>(Clock::now() - setup_began).count(), connector.retries);
    }
    if (cfg.connections_only > 0) {
      // Let the server settle, read its memory, hold the connections.
      phase.expires_after(std::chrono::seconds(1));
      phase.async_wait([&](beast::error_code) {
        if (cfg.server_pid > 0) rss_after = read_vm_rss_kb(cfg.server_pid);
        measure();
      });
      return;
    }
    auto warm_then_measure = [&] {
      phase.expires_after(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(cfg.warmup)));
      phase.async_wait([&](beast::error_code ec) {
        if (!ec) measure();
      });
    };
    if (cfg.echo) {
      echo.begin();
      warm_then_measure();
      return;
    }
    // Wait until every table has started (or --setup-seconds passed), then warm up.
    wait_for_tables = [&, warm_then_measure] {
      const bool all = game.tables_started() >= cfg.tables;
      if (all || Clock::now() - setup_began > std::chrono::duration<double>(cfg.setup_seconds)) {
        if (!cfg.quiet) {
          std::fprintf(stderr, "%d of %d tables started in %.2f s\n", game.tables_started(), cfg.tables,
                       std::chrono::duration<double>(Clock::now() - setup_began).count());
        }
        warm_then_measure();
        return;
      }
      phase.expires_after(std::chrono::milliseconds(20));
      phase.async_wait([&](beast::error_code ec) {
        if (!ec) wait_for_tables();
      });
    };
    wait_for_tables();
  });

  // Hard bound on the whole run: setup + warmup + duration + slack.
  asio::steady_timer deadline(io);
  deadline.expires_after(std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(cfg.setup_seconds + cfg.duration + cfg.warmup + 60)));
  deadline.async_wait([&](beast::error_code ec) {
    if (ec) return;
    std::fprintf(stderr, "casa-loadgen: deadline reached, stopping\n");
    if (!stats.measuring) {
      stats.started = stats.stopped = Clock::now();
    }
    stop();
    for (auto& c : connector.connections) {
      if (c) c->close();
    }
    io.stop();
  });

  // Run until the measurement has stopped.
  asio::executor_work_guard<asio::io_context::executor_type> keep(io.get_executor());
  asio::steady_timer finished(io);
  std::function<void()> poll = [&] {
    finished.expires_after(std::chrono::milliseconds(50));
    finished.async_wait([&](beast::error_code) {
      if (!stats.measuring && stats.stopped != Clock::time_point{}) {
        deadline.cancel();
        keep.reset();
        io.stop();
        return;
      }
      poll();
    });
  };
  poll();
  io.run();

  json r = report(cfg, mode, stats, connected, connector.failed);
  if (cfg.metrics) r["server_metrics"] = server_metrics_between(metrics_before, metrics_after);
  r["connect_retries"] = connector.retries;
  r["connect_seconds"] = connect_seconds;
  r["tables_per_player"] = cfg.tables_per_player;
  if (mode == "echo") r["message_size"] = echo.payload_size();
  if (mode == "echo" && cfg.fanout > 1) r["fanout"] = cfg.fanout;
  if (!cfg.features.empty()) r["features"] = cfg.features;
  if (mode == "game") {
    r["setup_errors"] = game.setup_error_codes;
    r["tables_started"] = game.tables_started();
    r["tables_live_at_end"] = live_at_end;
    r["mean_action_bytes"] = stats.moves > 0 ? static_cast<double>(stats.action_bytes) / static_cast<double>(stats.moves) : 0.0;
  }
  if (cfg.connections_only > 0 && cfg.server_pid > 0) {
    r["rss_kb_before"] = rss_before;
    r["rss_kb_after"] = rss_after;
    r["rss_bytes_per_connection"] =
        connected > 0 ? static_cast<double>(rss_after - rss_before) * 1024.0 / connected : 0.0;
  }
  if (!cfg.quiet) print_table(r);
  std::cout << r.dump() << std::endl;
  return connected == count ? 0 : 1;
}
