// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-chaos: kills casa-server with SIGKILL while games are being played and
// checks that nothing a client was told survives only in the client's memory.
//
//   casa-chaos --server PATH [--tables N] [--players P] [--game G] [--options JSON]
//              [--kills K] [--seed S] [--time-limit SECONDS] [--keep]
//              [--power-cut [--expect-loss] [--game-end-cuts N]] [--chat-every N]
//              [--server-arg ARG]... [--mix GAME:JSON]...
//
// Each --mix adds a game with its options; with any, the tables take them in
// turn instead of --game and --options.
//
// It starts the server on an ephemeral port with a fresh database, seats P
// players at each of N tables (one WebSocket connection per player), answers
// every request with a random legal action after a short random pause, and K
// times, at a random moment, kills the server with SIGKILL and restarts it on
// the same database. The players reconnect with their tokens and play on until
// every game is over. Then, reading the database with the SQLite C API:
//
//   * every move a player saw acknowledged (`accepted`), and every `event` seq
//     any player saw, is in the table's action log, with the same action;
//   * every chat line a player saw acknowledged (its own line echoed back) is
//     in the table's chat, under the number it was given, unchanged; and no
//     team line ever reached a seat of another team (live or in the history
//     of a table_state);
//   * each log is gapless (seq 1, 2, ... n) and every table is over, with the
//     scores and winners that every one of its players received in game_over
//     (every player must receive one, also for a game that ended just before
//     a kill);
//   * replaying the log through the engine from the stored seed and options
//     accepts every action and ends with those same scores and winners.
//
// With --power-cut the server must be casa_powercut_server (its SQLite writes
// go through the power-cut VFS, tests/powercut/powercut_vfs.h), and each kill
// is a power cut: it comes right after a player received `accepted`, then every
// database and WAL write that no fsync covered is undone and the -shm file
// dropped, and the server starts again on what is left. What it starts on
// (a copy of the files, read as a fresh process would) must hold every table whose
// creation was acknowledged and every move and chat line acknowledged or
// announced so far, and every returning player's table_state must carry the
// table's chat lines it may see. Besides the K cuts, --game-end-cuts N (1 by
// default) cuts power right after the first N games end (the moment their
// last move was stored): after the restart each player of such a game must
// get its game_over again on resync.
// With --expect-loss (for --server-arg --durability=normal) the run stops
// after the cuts and succeeds only if they lost something acknowledged: that
// proves the test detects a loss.
//
// Exit status 0 when every check holds; the failures are printed otherwise.
#include <signal.h>
#include <sqlite3.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cmdline/cmdline.h"
#include "engine/game.h"
#include "protocol/value_json.h"
#include "tests/powercut/powercut_vfs.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Config {
  std::string server;
  int tables = 4;
  int players = 4;
  std::string game = "conference";
  std::string options = "{}";
  int kills = 3;
  std::uint64_t seed = 1;
  double time_limit = 50;
  int think_ms = 3;  // a player pauses 0..think_ms before answering
  bool keep = false;
  bool power_cut = false;
  bool expect_loss = false;
  int game_end_cuts = 1;  // with --power-cut
  int chat_every = 6;     // a player chats before about one action in this many (0: never)
  std::vector<std::string> server_args;
  std::vector<std::pair<std::string, std::string>> mix;  // (game, options JSON)

  // The game and options of table `t`.
  std::pair<std::string, std::string> kind(int t) const {
    if (mix.empty()) return {game, options};
    return mix[static_cast<std::size_t>(t) % mix.size()];
  }
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "casa-chaos: " << why << "\n"
            << "Run 'casa-chaos --help' for its usage.\n";
  std::exit(2);
}

Config parse_args(int argc, char** argv) {
  Config c;
  casa::cmdline::App app{
      "Kills casa-server (SIGKILL, or a power cut) during games and checks "
      "the action log.",
      "casa-chaos"};
  app.add_option("--server", c.server, "the casa-server to run (required)");
  app.add_option("--tables", c.tables, "tables played at once, 1 to 2000");
  app.add_option("--players", c.players, "players per table, 1 to 8");
  app.add_option("--game", c.game, "the game");
  app.add_option("--options", c.options, "the table options, JSON");
  app.add_option("--kills", c.kills, "times the server is killed");
  app.add_option("--seed", c.seed, "the seed of the players' choices");
  app.add_option("--think-ms", c.think_ms, "each player's pause before a move, ms");
  app.add_option("--time-limit", c.time_limit, "seconds the whole run may take");
  app.add_flag("--keep", c.keep, "keep the working directory");
  app.add_flag("--power-cut", c.power_cut,
               "cut the power (lose what was not synced) instead of SIGKILL");
  app.add_flag("--expect-loss", c.expect_loss,
               "with --power-cut: pass only if acknowledged moves were lost");
  app.add_option("--game-end-cuts", c.game_end_cuts, "power cuts just after a game ends");
  app.add_option("--chat-every", c.chat_every, "a chat message every N moves");
  app.add_option("--server-arg", c.server_args, "one more argument for the server (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  std::vector<std::string> mix;
  app.add_option("--mix", mix, "GAME:JSON, a kind of table the tables take in turn (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  casa::cmdline::parse(app, argc, argv, 2);
  for (const std::string& v : mix) {
    const auto colon = v.find(':');
    if (colon == std::string::npos || !json::accept(v.substr(colon + 1)))
      usage("--mix wants GAME:JSON");
    c.mix.emplace_back(v.substr(0, colon), v.substr(colon + 1));
  }
  if (c.server.empty()) usage("--server is required");
  if (c.tables < 1 || c.tables > 2000 || c.players < 1 || c.players > 8) usage("tables 1..2000, players 1..8");
  if (!json::accept(c.options)) usage("--options must be JSON");
  if (c.expect_loss && !c.power_cut) usage("--expect-loss needs --power-cut");
  return c;
}

std::vector<std::string> failures;
void fail(const std::string& what) {
  if (failures.size() < 50) std::cerr << "FAIL: " << what << "\n";
  failures.push_back(what);
}

// ---------------------------------------------------------------------------
// The server process

class ServerProcess {
 public:
  ServerProcess(const Config& cfg, fs::path dir) : cfg_(cfg), dir_(std::move(dir)) {}
  ~ServerProcess() { kill_now(); }

  fs::path db() const { return dir_ / "chaos.db"; }
  fs::path log() const { return dir_ / "server.log"; }
  unsigned short port() const { return port_; }

  // Starts the server and waits until it says which port it listens on.
  // Returns the seconds that took, or -1.
  double start() {
    const auto began = Clock::now();
    const auto offset = fs::exists(log()) ? fs::file_size(log()) : 0;
    pid_ = fork();
    if (pid_ == 0) {
      const std::string logfile = log().string();
      std::FILE* out = std::fopen(logfile.c_str(), "a");
      if (out) {
        dup2(fileno(out), 1);
        dup2(fileno(out), 2);
      }
      const std::string dbfile = db().string();
      std::vector<std::string> args = {cfg_.server, "--address", "127.0.0.1", "--port", "0", "--db", dbfile,
                                       "--threads", "1", "--rate-per-second", "100000", "--rate-burst", "100000",
                                       "--max-connections-per-address", "100000", "--players-per-address-per-hour", "1000000",
                                       "--log-level", "info"};
      args.insert(args.end(), cfg_.server_args.begin(), cfg_.server_args.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(cfg_.server.c_str(), argv.data());
      std::perror("exec casa-server");
      _exit(127);
    }
    const std::regex listening(R"(listening on port (\d+))");
    while (Clock::now() - began < std::chrono::seconds(20)) {
      std::ifstream in(log());
      in.seekg(static_cast<std::streamoff>(offset));
      std::string line;
      while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, listening)) {
          port_ = static_cast<unsigned short>(std::stoi(m[1]));
          return std::chrono::duration<double>(Clock::now() - began).count();
        }
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
  }

  void kill_now(int signal = SIGKILL) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  const Config& cfg_;
  fs::path dir_;
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

// ---------------------------------------------------------------------------
// Players

// What the players learned, to be checked against the database.
struct Seen {
  // (table, seq) -> (seat, action) for every `accepted`.
  std::map<std::pair<std::string, std::int64_t>, std::pair<int, json>> accepted;
  // (table, seq) of every event received.
  std::set<std::pair<std::string, std::int64_t>> events;
  // table -> every game_over body received for it.
  std::map<std::string, std::vector<json>> game_overs;
  // (table, line) -> {seat, team, text} of every chat line echoed to its sender.
  std::map<std::pair<std::string, std::int64_t>, json> chat;
  // The acknowledged chat lines at the last power cut: what a returning
  // player's table_state must show.
  std::map<std::pair<std::string, std::int64_t>, json> chat_at_cut;
  // Runs after every `accepted` (the power cut waits for one).
  std::function<void()> after_accepted;
  // Runs on the first game_over of a table (a game-end cut waits for one).
  std::function<void(const std::string& table)> after_game_end;
};

class Player;

// One WebSocket connection of a player; replaced on every reconnect.
class Link : public std::enable_shared_from_this<Link> {
 public:
  Link(asio::io_context& io, std::function<void(std::string_view)> on_message, std::function<void()> on_close)
      : ws_(io), on_message_(std::move(on_message)), on_close_(std::move(on_close)) {}

  void open(unsigned short port, std::function<void()> on_open) {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
        [self = shared_from_this(), port, on_open](beast::error_code ec) {
          if (ec) return self->closed();
          beast::get_lowest_layer(self->ws_).expires_never();
          self->ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
          self->ws_.async_handshake("127.0.0.1:" + std::to_string(port), "/ws",
                                    [self, on_open](beast::error_code ec2) {
                                      if (ec2) return self->closed();
                                      self->open_ = true;
                                      on_open();
                                      self->read();
                                    });
        });
  }

  void send(std::string text) {
    if (!open_) return;
    outbox_.push_back(std::move(text));
    if (outbox_.size() == 1) write();
  }

  void drop() {
    open_ = false;
    dead_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void read() {
    ws_.async_read(inbox_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->closed();
      const auto data = self->inbox_.cdata();
      if (!self->dead_) self->on_message_(std::string_view(static_cast<const char*>(data.data()), data.size()));
      self->inbox_.consume(self->inbox_.size());
      self->read();
    });
  }
  void write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(outbox_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->closed();
      self->outbox_.pop_front();
      if (!self->outbox_.empty()) self->write();
    });
  }
  void closed() {
    open_ = false;
    outbox_.clear();
    if (dead_) return;
    dead_ = true;
    on_close_();
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::function<void(std::string_view)> on_message_;
  std::function<void()> on_close_;
  beast::flat_buffer inbox_;
  std::deque<std::string> outbox_;
  bool open_ = false;
  bool dead_ = false;
};

struct Table {
  std::string id;
  int joined = 0;
  bool started = false;
  int over_seen = 0;  // players that received game_over
  bool ended = false;  // some player received game_over
};

class Player {
 public:
  Player(asio::io_context& io, const Config& cfg, Seen& seen, std::vector<Table>& tables, int index,
         std::mt19937_64& rng, std::vector<std::unique_ptr<Player>>& all)
      : io_(io), cfg_(cfg), seen_(seen), tables_(tables), index_(index), rng_(rng), all_(all), think_(io) {}

  int table() const { return index_ / cfg_.players; }
  int seat() const { return index_ % cfg_.players; }
  bool connected() const { return link_ != nullptr; }
  bool over() const { return over_; }
  bool awaiting_game_over() const { return await_over_; }
  // The game ended just before a power cut: the player must be told again.
  void expect_game_over_again() { await_over_ = true; }
  // After a cut: check the next table_state's chat history.
  void check_history_next() { check_history_ = true; }

  void connect(unsigned short port) {
    const int generation = ++generation_;
    link_ = std::make_shared<Link>(
        io_, [this](std::string_view text) { message(text); },
        [this, generation] {
          if (generation != generation_) return;
          link_.reset();
          in_flight_.clear();
        });
    auto link = link_;
    link->open(port, [this, link] {
      json hello{{"type", "hello"}, {"version", 1}, {"name", "chaos" + std::to_string(index_)}};
      if (!token_.empty()) hello["token"] = token_;
      link->send(hello.dump());
    });
  }

  void disconnect() {
    think_.cancel();
    in_flight_.clear();
    if (link_) link_->drop();
    link_.reset();
  }

  // The tables are private: joined by their invite code.
  void join(const std::string& invite) {
    if (link_) link_->send(json{{"type", "join"}, {"invite", invite}, {"seat", seat()}}.dump());
  }

 private:
  bool same_team(int a, int b) const {
    for (const auto& team : teams_) {
      if (std::find(team.begin(), team.end(), a) != team.end())
        return std::find(team.begin(), team.end(), b) != team.end();
    }
    return false;
  }

  // A team line (live or in a table_state's history) must come from this seat's team.
  void check_team_line(const json& line, const std::string& where) {
    if (!line.value("team", false)) return;
    if (teams_.empty())
      return fail("player " + std::to_string(index_) +
                  " got a team line before its teams: " + where);
    if (!same_team(seat(), line.value("seat", -2))) {
      fail("player " + std::to_string(index_) + " (seat " + std::to_string(seat()) +
           ") got another team's line " + line.dump() + " in " + where);
    }
  }

  void message(std::string_view text) {
    const json m = json::parse(text, nullptr, false);
    if (m.is_discarded() || !m.contains("type")) return fail("unparsable message: " + std::string(text));
    const std::string type = m["type"];
    auto& t = tables_[static_cast<std::size_t>(table())];
    if (type == "welcome") {
      token_ = m.value("token", token_);
      player_id_ = m.value("player_id", player_id_);
      if (welcomed_ && (!over_ || await_over_) && !t.id.empty()) {
        // Back after a restart: ask for the table (a game that ended just
        // before the kill must answer with its game_over).
        link_->send(json{{"type", "resync"}, {"table", t.id}}.dump());
      }
      if (!welcomed_ && seat() == 0) {
        const auto [game, options] = cfg_.kind(table());
        link_->send(json{{"type", "create_table"}, {"game", game}, {"players", cfg_.players},
                         {"options", json::parse(options)}, {"private", true}, {"seat", 0}}
                        .dump());
      }
      welcomed_ = true;
    } else if (type == "table_created") {
      t.id = m["table"];
      t.joined = 1;
      if (cfg_.players == 1) t.started = true;
      for (int s = 1; s < cfg_.players; ++s) all_[static_cast<std::size_t>(index_ + s)]->join(m["invite"]);
    } else if (type == "joined") {
      if (++t.joined == cfg_.players) t.started = true;
    } else if (type == "request") {
      answer(m);
    } else if (type == "accepted") {
      // The server answers each action with exactly one `accepted` or
      // `error`, in order, so the oldest action in flight is the one meant.
      if (!in_flight_.empty()) {
        const std::int64_t seq = m["seq"];
        seen_.accepted[{m["table"].get<std::string>(), seq}] = {seat(), in_flight_.front().at("action")};
        in_flight_.pop_front();
        if (seen_.after_accepted) seen_.after_accepted();
      }
    } else if (type == "event") {
      seen_.events.insert({m["table"].get<std::string>(), m["seq"].get<std::int64_t>()});
    } else if (type == "game_over") {
      // Every one is checked against the database; a game that ended just
      // before a kill is told again after the restart.
      seen_.game_overs[m["table"]].push_back(
          json{{"scores", m["scores"]}, {"winners", m["winners"]}});
      await_over_ = false;
      if (!over_) {
        over_ = true;
        ++t.over_seen;
        in_flight_.clear();
      }
      if (!t.ended) {
        t.ended = true;
        if (seen_.after_game_end) seen_.after_game_end(t.id);
      }
    } else if (type == "table_state") {
      if (m.contains("teams")) teams_ = m["teams"].get<std::vector<std::vector<int>>>();
      for (const auto& line : m.value("chat", json::array()))
        check_team_line(line, "a table_state");
      if (check_history_) {
        // The chat lines acknowledged before the cut that this seat may see
        // (at most the last 100 of the table are kept in table_state).
        check_history_ = false;
        std::set<std::int64_t> shown;
        for (const auto& line : m.value("chat", json::array()))
          shown.insert(line.value("line", std::int64_t{0}));
        std::int64_t last = 0;
        for (const auto& [key, line] : seen_.chat_at_cut) {
          if (key.first == t.id) last = std::max(last, key.second);
        }
        for (const auto& [key, line] : seen_.chat_at_cut) {
          if (key.first != t.id || key.second <= last - 100) continue;
          if (line["team"].get<bool>() && !same_team(seat(), line["seat"].get<int>())) continue;
          if (!shown.count(key.second)) {
            fail("player " + std::to_string(index_) +
                 ": the table_state after a restart lacks chat line " + std::to_string(key.second) +
                 " of " + t.id);
          }
        }
      }
    } else if (type == "chat") {
      check_team_line(m, "a chat message");
      if (m.value("from", "") == player_id_ && m.contains("line")) {
        seen_.chat[{m["table"].get<std::string>(), m["line"].get<std::int64_t>()}] =
            json{{"seat", m["seat"]}, {"team", m["team"]}, {"text", m["text"]}};
      }
    } else if (type == "error") {
      const std::string code = m.value("code", "");
      // An answer to a request the restart made obsolete is refused, harmlessly.
      if (code != "stale_seq" && code != "not_your_turn" && code != "game_over") fail("player " + std::to_string(index_) + " got error " + m.dump());
      if (!in_flight_.empty() && m.contains("code") && code != "rate_limited") in_flight_.pop_front();
    }
  }

  void answer(const json& request) {
    const auto& legal = request["legal"];
    if (!legal.is_array() || legal.empty()) return fail("request without legal actions");
    std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
    json action{{"type", "action"}, {"table", request["table"]}, {"seq", request["seq"]}, {"action", legal[pick(rng_)]}};
    std::uniform_int_distribution<int> pause(0, std::max(0, cfg_.think_ms));
    think_.expires_after(std::chrono::milliseconds(pause(rng_)));
    auto link = link_;
    const bool chat =
        cfg_.chat_every > 0 && std::uniform_int_distribution<int>(1, cfg_.chat_every)(rng_) == 1;
    const bool team = std::uniform_int_distribution<int>(0, 1)(rng_) == 1;
    think_.async_wait([this, link, action, chat, team](beast::error_code ec) {
      if (ec || !link || link != link_) return;
      if (chat) {
        // A line nobody else could say: acknowledged when it comes back.
        link->send(
            json{{"type", "chat"},
                 {"table", action["table"]},
                 {"team", team},
                 {"text", "p" + std::to_string(index_) + " line " + std::to_string(++chats_)}}
                .dump());
      }
      in_flight_.push_back(action);
      link->send(action.dump());
    });
  }

  asio::io_context& io_;
  const Config& cfg_;
  Seen& seen_;
  std::vector<Table>& tables_;
  int index_;
  std::mt19937_64& rng_;
  std::vector<std::unique_ptr<Player>>& all_;
  asio::steady_timer think_;
  std::shared_ptr<Link> link_;
  std::string token_;
  int generation_ = 0;
  bool welcomed_ = false;
  bool over_ = false;
  bool await_over_ = false;
  bool check_history_ = false;
  std::string player_id_;
  std::vector<std::vector<int>> teams_;
  int chats_ = 0;
  std::deque<json> in_flight_;  // actions sent, not yet answered
};

// ---------------------------------------------------------------------------
// The database checks

struct Db {
  // Read-only, with the server stopped (a running server holds its file).
  // `copy`: opens a copy of the database and its WAL as they are on disk now,
  // as a fresh process would (recovering the WAL), and removes it afterwards.
  explicit Db(const fs::path& path, bool copy = false) {
    fs::path open = path;
    if (copy) {
      copy_ = path.string() + "-check";
      remove_copy();
      std::error_code ec;
      fs::copy_file(path, copy_, ec);
      if (fs::exists(path.string() + "-wal")) fs::copy_file(path.string() + "-wal", copy_.string() + "-wal", ec);
      if (ec) fail("cannot copy " + path.string() + ": " + ec.message());
      open = copy_;
    }
    const int flags = copy ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(open.c_str(), &db, flags, nullptr) != SQLITE_OK) {
      fail("cannot open " + open.string());
    }
  }
  ~Db() {
    sqlite3_close(db);
    if (!copy_.empty()) remove_copy();
  }
  void remove_copy() {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(copy_.string() + suffix, ec);
  }
  fs::path copy_;
  // Runs a query with text parameters; calls row() with the statement per row.
  void query(const std::string& sql, const std::vector<std::string>& params,
             const std::function<void(sqlite3_stmt*)>& row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      fail(std::string("sql: ") + sqlite3_errmsg(db));
      return;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      sqlite3_bind_text(st, static_cast<int>(i + 1), params[i].c_str(), -1, SQLITE_TRANSIENT);
    }
    while (sqlite3_step(st) == SQLITE_ROW) row(st);
    sqlite3_finalize(st);
  }
  sqlite3* db = nullptr;
};

std::string text(sqlite3_stmt* st, int col) {
  const auto* p = sqlite3_column_text(st, col);
  return p ? reinterpret_cast<const char*>(p) : "";
}

// Every acknowledged chat line is stored under its number, unchanged. Returns
// how many are not; `report` says which.
std::size_t check_chat(Db& db, const Seen& seen,
                       const std::function<void(const std::string&)>& report) {
  std::size_t missing = 0;
  for (const auto& [key, line] : seen.chat) {
    json stored;
    db.query("SELECT seat, team, text FROM chat WHERE table_id = ? AND line = ?",
             {key.first, std::to_string(key.second)}, [&](sqlite3_stmt* st) {
               stored = json{{"seat", sqlite3_column_int(st, 0)},
                             {"team", sqlite3_column_int(st, 1) != 0},
                             {"text", text(st, 2)}};
             });
    if (stored != line) {
      ++missing;
      report(key.first + " chat line " + std::to_string(key.second) + " " + line.dump() +
             " (acknowledged) is " + (stored.is_null() ? std::string("missing") : stored.dump()));
    }
  }
  return missing;
}

// What a restart finds (the files as they are just before it): every table
// whose creation was acknowledged exists, and every move acknowledged (or
// announced in an event) is in its log, unchanged. Returns what is missing;
// prints each loss.
std::size_t check_acknowledged(const fs::path& path, const std::vector<Table>& tables, const Seen& seen,
                               const std::string& when) {
  Db db(path, true);
  std::size_t lost = 0;
  auto report = [&](const std::string& what) {
    if (++lost <= 10) std::fprintf(stderr, "lost after %s: %s\n", when.c_str(), what.c_str());
  };
  std::map<std::string, std::map<std::int64_t, std::pair<int, json>>> logs;
  for (const auto& t : tables) {
    if (t.id.empty()) continue;
    bool exists = false;
    db.query("SELECT 1 FROM tables WHERE id = ?", {t.id}, [&](sqlite3_stmt*) { exists = true; });
    if (!exists) report("table " + t.id + " (its creation was acknowledged)");
    auto& log = logs[t.id];
    db.query("SELECT seq, seat, action FROM actions WHERE table_id = ?", {t.id}, [&](sqlite3_stmt* st) {
      log[sqlite3_column_int64(st, 0)] = {sqlite3_column_int(st, 1), json::parse(text(st, 2), nullptr, false)};
    });
  }
  for (const auto& [key, entry] : seen.accepted) {
    const auto& log = logs[key.first];
    const auto it = log.find(key.second);
    if (it == log.end()) {
      report(key.first + " seq " + std::to_string(key.second) + " (acknowledged)");
    } else if (it->second != entry) {
      report(key.first + " seq " + std::to_string(key.second) + " is " + it->second.second.dump() +
             ", acknowledged as " + entry.second.dump());
    }
  }
  for (const auto& key : seen.events) {
    if (key.second > 0 && !logs[key.first].count(key.second)) {
      report(key.first + " seq " + std::to_string(key.second) + " (announced in an event)");
    }
  }
  lost += check_chat(db, seen, [&](const std::string& what) {
    if (lost < 10) std::fprintf(stderr, "lost after %s: %s\n", when.c_str(), what.c_str());
  });
  return lost;
}

void check_database(const fs::path& path, const std::vector<Table>& tables, const Seen& seen) {
  Db db(path);
  std::size_t actions_total = 0;
  for (const auto& t : tables) {
    if (t.id.empty()) {
      fail("a table was never created");
      continue;
    }
    std::map<std::int64_t, std::pair<int, json>> log;
    db.query("SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq", {t.id}, [&](sqlite3_stmt* st) {
      log[sqlite3_column_int64(st, 0)] = {sqlite3_column_int(st, 1), json::parse(text(st, 2), nullptr, false)};
    });
    actions_total += log.size();
    std::int64_t expect = 1;
    for (const auto& [seq, entry] : log) {
      if (seq != expect++) {
        fail(t.id + ": the log has a gap before seq " + std::to_string(seq));
        break;
      }
    }

    std::string game, options, status, scores, winners;
    std::int64_t seed = 0;
    int players = 0;
    db.query("SELECT game, players, options, seed, status, scores, winners FROM tables WHERE id = ?", {t.id},
             [&](sqlite3_stmt* st) {
               game = text(st, 0);
               players = sqlite3_column_int(st, 1);
               options = text(st, 2);
               seed = sqlite3_column_int64(st, 3);
               status = text(st, 4);
               scores = text(st, 5);
               winners = text(st, 6);
             });
    if (game.empty()) {
      fail(t.id + ": not in the tables table");
      continue;
    }
    if (status != "over") fail(t.id + ": status is '" + status + "', not over");

    // What the players saw acknowledged must be in the log, unchanged.
    for (const auto& [key, entry] : seen.accepted) {
      if (key.first != t.id) continue;
      const auto it = log.find(key.second);
      if (it == log.end()) {
        fail(t.id + ": accepted seq " + std::to_string(key.second) + " is not in the log");
      } else if (it->second.first != entry.first || it->second.second != entry.second) {
        fail(t.id + ": seq " + std::to_string(key.second) + " logged as " + it->second.second.dump() + " by seat " +
             std::to_string(it->second.first) + ", acknowledged as " + entry.second.dump() + " by seat " +
             std::to_string(entry.first));
      }
    }
    for (const auto& key : seen.events) {
      if (key.first == t.id && key.second > 0 && !log.count(key.second)) {
        fail(t.id + ": an event with seq " + std::to_string(key.second) + " was sent but the log ends at " +
             std::to_string(log.size()));
      }
    }

    // Every player who received game_over got the stored result.
    const json stored{{"scores", json::parse(scores.empty() ? "null" : scores, nullptr, false)},
                      {"winners", json::parse(winners.empty() ? "null" : winners, nullptr, false)}};
    if (const auto it = seen.game_overs.find(t.id); it != seen.game_overs.end()) {
      for (const auto& g : it->second) {
        if (g != stored) fail(t.id + ": game_over said " + g.dump() + ", the database " + stored.dump());
      }
    } else {
      // Possible only when the last action was stored just before a kill; the
      // replay below still checks the stored result.
      std::fprintf(stderr, "note: %s: no player received game_over\n", t.id.c_str());
    }

    // Replaying the log through the engine gives the same result.
    const auto opts = casa::from_json(json::parse(options, nullptr, false));
    auto created = casa::create_game(game, players, opts, static_cast<std::uint64_t>(seed));
    if (!created.game) {
      fail(t.id + ": the engine refuses the stored setup: " + created.error->message);
      continue;
    }
    auto& g = *created.game;
    bool replayed = true;
    for (const auto& [seq, entry] : log) {
      casa::Action a;
      if (auto e = g.decode_action(casa::from_json(entry.second), a)) {
        fail(t.id + ": seq " + std::to_string(seq) + " does not decode: " + e->message);
        replayed = false;
        break;
      }
      if (auto e = g.apply(entry.first, a, nullptr)) {
        fail(t.id + ": seq " + std::to_string(seq) + " is refused on replay: " + e->message);
        replayed = false;
        break;
      }
    }
    if (replayed) {
      if (!g.is_over()) fail(t.id + ": the replayed game is not over");
      const json replay_result{{"scores", g.scores()}, {"winners", g.winners()}};
      if (replay_result != stored) fail(t.id + ": replay gives " + replay_result.dump() + ", stored " + stored.dump());
    }
  }
  check_chat(db, seen, [](const std::string& what) { fail(what); });
  std::fprintf(
      stderr,
      "checked %zu tables, %zu logged actions, %zu acknowledged, %zu event seqs, %zu chat lines\n",
      tables.size(), actions_total, seen.accepted.size(), seen.events.size(), seen.chat.size());
}

}  // namespace

int main(int argc, char** argv) {
  const Config cfg = parse_args(argc, argv);
  char dir_template[] = "/tmp/casa-chaos-XXXXXX";
  if (!mkdtemp(dir_template)) {
    std::perror("mkdtemp");
    return 2;
  }
  const fs::path dir = dir_template;
  ServerProcess server(cfg, dir);
  if (server.start() < 0) {
    std::cerr << "casa-chaos: the server did not start; log: " << server.log() << "\n";
    return 2;
  }

  asio::io_context io(1);
  std::mt19937_64 rng(cfg.seed);
  Seen seen;
  std::vector<Table> tables(static_cast<std::size_t>(cfg.tables));
  std::vector<std::unique_ptr<Player>> players;
  for (int i = 0; i < cfg.tables * cfg.players; ++i) {
    players.push_back(std::make_unique<Player>(io, cfg, seen, tables, i, rng, players));
  }
  for (auto& p : players) p->connect(server.port());

  const auto began = Clock::now();
  int kills_left = cfg.kills;
  int restarts = 0;
  double slowest_restart = 0;
  asio::steady_timer tick(io);
  Clock::time_point next_kill{};
  std::uniform_int_distribution<int> kill_delay(100, 700);
  bool finished = false;

  // Power cuts: armed by the timer, done right after the next `accepted`, when
  // the commit behind it is as fresh as can be.
  std::size_t lost_total = 0;
  long undone_total = 0;
  int cuts_with_loss = 0;
  bool cut_armed = false;
  bool cut_posted = false;  // a cut is on its way
  int game_end_cuts_left = cfg.power_cut ? cfg.game_end_cuts : 0;
  const auto restart = [&](const std::string& what) {
    const double took = server.start();
    if (took < 0) {
      fail("the server did not restart after " + what + "; log: " + server.log().string());
      finished = true;
      return false;
    }
    ++restarts;
    slowest_restart = std::max(slowest_restart, took);
    return true;
  };
  int cuts_done = 0;
  // `ended`: the table whose game just ended (a game-end cut), or "".
  const auto power_cut = [&](const std::string& ended) {
    cut_posted = false;
    server.kill_now(SIGKILL);
    for (auto& p : players) p->disconnect();
    const std::string when = "power cut " + std::to_string(++cuts_done) +
                             (ended.empty() ? std::string() : " (right after " + ended + " ended)");
    seen.chat_at_cut = seen.chat;
    for (auto& p : players) {
      p->check_history_next();
      if (!ended.empty() && tables[static_cast<std::size_t>(p->table())].id == ended)
        p->expect_game_over_again();
    }
    const long undone = casa::powercut::power_cut(server.db().string());
    if (undone < 0) fail("could not undo the unsynced writes");
    undone_total += std::max(0L, undone);
    const std::size_t lost = check_acknowledged(server.db(), tables, seen, when);
    if (!restart(when)) return;
    std::fprintf(stderr, "%s: %ld unsynced writes undone, %zu acknowledged items lost (of %zu moves)\n",
                 when.c_str(), undone, lost, seen.accepted.size());
    lost_total += lost;
    if (lost > 0) ++cuts_with_loss;
    if (lost > 0 && !cfg.expect_loss)
      fail(when + " lost " + std::to_string(lost) + " acknowledged items");
    for (auto& p : players) p->connect(server.port());
  };
  seen.after_accepted = [&] {
    if (!cut_armed || cut_posted) return;
    cut_armed = false;
    cut_posted = true;
    asio::post(io, [&] { power_cut(""); });
  };
  seen.after_game_end = [&](const std::string& table) {
    if (game_end_cuts_left <= 0 || cut_posted) return;
    --game_end_cuts_left;
    cut_posted = true;
    asio::post(io, [&, table] { power_cut(table); });
  };

  std::function<void()> step = [&] {
    const bool all_started = std::all_of(tables.begin(), tables.end(), [](const Table& t) { return t.started; });
    const bool all_over = std::all_of(tables.begin(), tables.end(),
                                      [&](const Table& t) { return t.over_seen == cfg.players; }) &&
                          std::none_of(players.begin(), players.end(),
                                       [](const auto& p) { return p->awaiting_game_over(); }) &&
                          !cut_posted;
    const bool cuts_done =
        cfg.expect_loss && (lost_total > 0 || (kills_left == 0 && !cut_armed && !cut_posted &&
                                               game_end_cuts_left == 0));
    if (all_over || cuts_done || Clock::now() - began > std::chrono::duration<double>(cfg.time_limit)) {
      if (!all_over && !cfg.expect_loss) fail("time limit reached before every game was over");
      finished = true;
      for (auto& p : players) p->disconnect();
      return;
    }
    if (all_started && kills_left > 0) {
      if (next_kill == Clock::time_point{}) next_kill = Clock::now() + std::chrono::milliseconds(kill_delay(rng));
      if (Clock::now() >= next_kill) {
        --kills_left;
        next_kill = {};
        if (cfg.power_cut) {
          cut_armed = true;
        } else {
          server.kill_now(SIGKILL);
          for (auto& p : players) p->disconnect();
          if (!restart("SIGKILL")) return;
          for (auto& p : players) p->connect(server.port());
        }
      }
    }
    // Reconnect anyone who lost the connection for another reason.
    for (auto& p : players) {
      if (!p->connected() && !p->over()) p->connect(server.port());
    }
    tick.expires_after(std::chrono::milliseconds(10));
    tick.async_wait([&](beast::error_code ec) {
      if (!ec) step();
    });
  };
  step();
  io.run();
  (void)finished;

  server.kill_now(SIGTERM);
  std::fprintf(stderr, "%d tables of %s, %d restarts after %s (slowest start %.3f s), %.1f s\n", cfg.tables,
               cfg.mix.empty() ? cfg.game.c_str() : "several games", restarts, cfg.power_cut ? "a power cut" : "SIGKILL", slowest_restart,
               std::chrono::duration<double>(Clock::now() - began).count());
  if (cfg.power_cut) {
    std::fprintf(stderr, "power cuts: %ld unsynced writes undone, %zu acknowledged items lost in %d of %d cuts\n",
                 undone_total, lost_total, cuts_with_loss, restarts);
  }
  if (cfg.expect_loss) {
    // Only the verdict on loss counts: after a loss the players' view of the
    // tables is wrong, and so are the games they go on playing.
    const bool ok = lost_total > 0;
    std::fprintf(stderr, "%s: %s\n", ok ? "PASS" : "FAIL",
                 ok ? "the power cuts lost acknowledged moves, as this setting allows: the test detects loss"
                    : "expected the power cuts to lose acknowledged moves");
    if (!cfg.keep) fs::remove_all(dir);
    return ok ? 0 : 1;
  }
  const int planned = cfg.kills + (cfg.power_cut ? cfg.game_end_cuts : 0);
  if (restarts < planned)
    fail("only " + std::to_string(restarts) + " of " + std::to_string(planned) + " kills happened");
  for (const auto& p : players) {
    if (p->awaiting_game_over()) {
      fail("a player of " + tables[static_cast<std::size_t>(p->table())].id +
           ", whose game ended just before a power cut, got no game_over after the restart");
    }
  }
  check_database(server.db(), tables, seen);

  if (failures.empty() && !cfg.keep) fs::remove_all(dir);
  else std::fprintf(stderr, "kept %s (database and server log)\n", dir.c_str());
  std::fprintf(stderr, "%s: %zu failures\n", failures.empty() ? "PASS" : "FAIL", failures.size());
  return failures.empty() ? 0 : 1;
}
