// SPDX-License-Identifier: AGPL-3.0-or-later
// casa_cluster_play: plays many games at once through one address (HAProxy in
// front of several nodes, or one node) while the operator's script kills,
// drains and pauses nodes; then checks what the clients lived through:
//
//  * every game finishes (each client reconnects and resumes by token when its
//    connection drops or the server says `reconnect`);
//  * every move a client saw `accepted` is in the stored log (GET
//    /api/games/{table}) at its seq, with its seat and action: in order, none lost;
//  * no seat and no spectator ever received a card hidden from it at that seq
//    (the engine replays the stored log and names each seat's secret cards, as
//    check_no_leak in support.h does).
//
//   casa_cluster_play --port P [--games N] [--parallel K] [--game G] [--players N]
//                     [--options JSON] [--minutes M] [--acked FILE]
//
// Prints one JSON line of figures; exit 0 when every check passed, 1 otherwise
// (each failure on stderr).
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cmdline/cmdline.h"
#include "engine/game.h"
#include "protocol/protocol.h"
#include "tests/server/ws_client.h"

using casa::testing::WsClient;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Settings {
  unsigned short port = 0;
  int games = 200;
  int parallel = 16;
  std::string game = "casino";
  int players = 2;
  json options = json::object();
  double minutes = 4;
  std::string acked_path;
};

struct Totals {
  std::atomic<int> finished{0}, failed{0}, acked{0}, reconnects{0}, reconnect_messages{0}, draining_errors{0},
      frames_checked{0}, leaks{0}, lost{0};
  std::mutex mutex;  // failures and the acked file
  std::vector<std::string> failures;
  std::ofstream acked_file;
  void fail(const std::string& why) {
    std::lock_guard lock(mutex);
    failures.push_back(why);
  }
};

// A player (or the spectator) of one game: its connections come and go, its
// token and everything it received stay.
struct Member {
  std::string name;
  int seat = -1;  // -1: the spectator
  std::string token;
  std::unique_ptr<WsClient> ws;
  std::vector<json> frames;  // from every connection, in order
  std::vector<json> acked;   // {seq, seat, action}
  std::map<std::string, json> sent;  // request id -> action
  bool done = false;
  Clock::time_point last_progress = Clock::now();
  int next_id = 0;

  void keep_frames() {
    if (!ws) return;
    for (auto& m : ws->log) frames.push_back(std::move(m));
    ws->log.clear();
  }
};

class Game {
 public:
  Game(const Settings& s, Totals& totals, int index)
      : s_(s), totals_(totals), index_(index), rng_(static_cast<std::uint32_t>(index) * 7919u + 17u) {}

  void run() {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(s_.minutes * 60));
    members_.resize(static_cast<std::size_t>(s_.players) + 1);
    for (int i = 0; i < s_.players; ++i) {
      members_[static_cast<std::size_t>(i)].name = "p" + std::to_string(index_) + "-" + std::to_string(i);
      members_[static_cast<std::size_t>(i)].seat = i;
    }
    members_.back().name = "w" + std::to_string(index_);
    if (!open_table(deadline)) return;
    while (Clock::now() < deadline) {
      bool all_done = true;
      for (auto& m : members_) {
        if (m.done) continue;
        all_done = false;
        step(m, deadline);
      }
      if (all_done) break;
    }
    for (auto& m : members_) m.keep_frames();
    for (const auto& m : members_) {
      if (!m.done) {
        totals_.fail(table_ + ": " + m.name + " did not see the game end");
        totals_.failed++;
        return;
      }
    }
    check();
  }

 private:
  // Connects (again) and says hello with the member's token; retries while
  // nodes come and go. The resumed welcome is followed by the table's state.
  bool connect(Member& m, Clock::time_point deadline) {
    m.keep_frames();
    m.ws.reset();
    while (Clock::now() < deadline) {
      try {
        auto ws = std::make_unique<WsClient>(s_.port);
        const json w = ws->hello(m.token.empty() ? m.name : "", m.token);
        if (w.value("type", "") == "welcome") {
          m.token = w["token"];
          m.ws = std::move(ws);
          m.last_progress = Clock::now();
          return true;
        }
      } catch (const std::exception&) {
        // refused (draining: 503), reset, or no reply in time: try again
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng_() % 200));
    }
    return false;
  }

  json call(Member& m, json message, Clock::time_point deadline) {
    for (;;) {
      if (!m.ws && !connect(m, deadline)) return json();
      try {
        const json r = m.ws->call(message, std::chrono::seconds(10));
        if (r.value("code", "") != "draining") return r;
      } catch (const std::exception&) {
      }
      totals_.reconnects++;
      if (!connect(m, deadline)) return json();
    }
  }

  bool open_table(Clock::time_point deadline) {
    Member& creator = members_[0];
    if (!connect(creator, deadline)) return give_up("the creator could not connect");
    json options = s_.options;
    const json created = call(creator, {{"type", "create_table"}, {"game", s_.game}, {"players", s_.players},
                                        {"options", options}}, deadline);
    if (created.value("type", "") != "table_created") return give_up("create_table: " + created.dump());
    table_ = created["table"];
    for (int i = 1; i < s_.players; ++i) {
      Member& p = members_[static_cast<std::size_t>(i)];
      if (!connect(p, deadline)) return give_up("a player could not connect");
      json joined = call(p, {{"type", "join"}, {"table", table_}, {"seat", i}}, deadline);
      // A seat the store refused (the node lost the table's lease meanwhile:
      // paused past it) was not taken: asked again, the table's new owner
      // answers.
      for (int again = 0; again < 20 && joined.value("code", "") == "storage_unavailable"; ++again) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        joined = call(p, {{"type", "join"}, {"table", table_}, {"seat", i}}, deadline);
      }
      // A join whose reply was lost to a drop: the resume said where we sit.
      // Sent again, it is refused as already_seated, or as already_started
      // when that join filled the table (the server checks the start first).
      // Only this member joins this seat: had the first join not happened,
      // the table could not have started, and a seat this member does not
      // hold would leave the game unfinished, which is reported.
      const std::string code = joined.value("code", "");
      if (joined.value("type", "") != "joined" && code != "already_seated" && code != "already_started")
        return give_up("join: " + joined.dump());
    }
    Member& watcher = members_.back();
    if (!connect(watcher, deadline)) return give_up("the spectator could not connect");
    spectate(watcher);
    return true;
  }

  void spectate(Member& w) {
    json m = {{"type", "spectate"}, {"table", table_}, {"id", "spectate"}};
    try {
      w.ws->send(m);
    } catch (const std::exception&) {
    }
  }

  bool give_up(const std::string& why) {
    totals_.fail("game " + std::to_string(index_) + (table_.empty() ? "" : " (" + table_ + ")") + ": " + why);
    totals_.failed++;
    return false;
  }

  void reconnect(Member& m, Clock::time_point deadline, int after_ms) {
    totals_.reconnects++;
    if (after_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(after_ms));
    if (connect(m, deadline) && m.seat < 0) spectate(m);
  }

  void step(Member& m, Clock::time_point deadline) {
    if (!m.ws) return reconnect(m, deadline, 0);
    auto msg = m.ws->recv(std::chrono::milliseconds(2));
    if (!msg) {
      if (m.ws->closed()) return reconnect(m, deadline, 0);
      if (Clock::now() - m.last_progress > std::chrono::seconds(15)) {
        // A node paused mid-game keeps its socket open: give up on the
        // connection and come back through the proxy.
        m.last_progress = Clock::now();
        return reconnect(m, deadline, 0);
      }
      return;
    }
    const json& in = *msg;
    const std::string type = in.value("type", "");
    if (type == "reconnect") {
      totals_.reconnect_messages++;
      m.ws->wait_closed(std::chrono::seconds(5));
      return reconnect(m, deadline, in.value("after_ms", 0));
    }
    if (in.value("table", "") != table_ && type != "error") return;
    m.last_progress = Clock::now();
    if (type == "request" && m.seat >= 0 && in.value("seat", -1) == m.seat) {
      const json& legal = in["legal"];
      if (legal.empty()) return;
      const json action = legal[rng_() % legal.size()];
      const std::string id = "m" + std::to_string(++m.next_id);
      m.sent[id] = action;
      try {
        m.ws->send({{"type", "action"}, {"id", id}, {"table", table_}, {"seq", in["seq"]}, {"action", action}});
      } catch (const std::exception&) {
      }
    } else if (type == "accepted" && in.contains("id") && in["id"].is_string()) {
      auto it = m.sent.find(in["id"].get<std::string>());
      if (it == m.sent.end()) return;
      m.acked.push_back({{"seq", in["seq"]}, {"seat", m.seat}, {"action", it->second}});
      totals_.acked++;
      std::lock_guard lock(totals_.mutex);
      if (totals_.acked_file.is_open())
        totals_.acked_file << json{{"table", table_}, {"seq", in["seq"]}, {"seat", m.seat}, {"action", it->second}}.dump()
                      << "\n";
    } else if (type == "error") {
      const std::string code = in.value("code", "");
      if (code == "draining") {
        totals_.draining_errors++;
      } else if (code == "storage_unavailable" || code == "illegal_action") {
        try {
          m.ws->send({{"type", "resync"}, {"table", table_}});
        } catch (const std::exception&) {
        }
      }
    } else if (type == "game_over" || (type == "table_state" && in.value("status", "") == "over")) {
      m.done = true;
    }
  }

  void check() {
    // A node may be restarting or cut off: HAProxy then answers 503 or closes the
    // connection before any response (end of stream), and the request is tried again.
    const auto fetch = [&]() -> std::pair<int, std::string> {
      try {
        return casa::testing::http_get(s_.port, "/api/games/" + table_);
      } catch (const std::exception& e) {
        return {0, e.what()};
      }
    };
    auto [status, body] = fetch();
    for (int attempt = 0; status != 200 && attempt < 50; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::tie(status, body) = fetch();
    }
    if (status != 200) {
      totals_.fail(table_ + ": replay answered " + std::to_string(status) + (status == 0 ? " (" + body + ")" : ""));
      totals_.failed++;
      return;
    }
    const json replay = json::parse(body, nullptr, false);
    const json& log = replay["log"];
    bool ok = true;
    for (const auto& m : members_) {
      for (const auto& a : m.acked) {
        const auto seq = a["seq"].get<std::size_t>();
        if (seq < 1 || seq > log.size() || log[seq - 1]["seat"] != a["seat"] || log[seq - 1]["action"] != a["action"]) {
          totals_.fail(table_ + ": acknowledged seq " + std::to_string(seq) + " of seat " + a["seat"].dump() +
                       " is not in the stored log as " + a["action"].dump());
          totals_.lost++;
          ok = false;
        }
      }
    }
    ok = scan_leaks(replay) && ok;
    if (ok) {
      totals_.finished++;
    } else {
      totals_.failed++;
    }
  }

  static void strings_of(const json& v, std::vector<std::string>& out) {
    if (v.is_string()) out.push_back(v.get<std::string>());
    if (v.is_array() || v.is_object())
      for (const auto& item : v) strings_of(item, out);
  }

  // The secret cards of every member at every seq, from the stored log.
  bool scan_leaks(const json& replay) {
    auto created = casa::create_game(replay["game"].get<std::string>(), replay["players"].get<int>(),
                                     casa::protocol::json_to_value(replay["options"]),
                                     std::stoull(replay["seed"].get<std::string>()));
    if (!created.game) {
      totals_.fail(table_ + ": the stored game cannot be rebuilt");
      return false;
    }
    std::vector<std::vector<std::set<std::string>>> secrets(members_.size());  // by member, by seq
    auto note = [&] {
      for (std::size_t i = 0; i < members_.size(); ++i) {
        const auto cards = created.game->secret_cards(members_[i].seat < 0 ? casa::kSpectator : members_[i].seat);
        secrets[i].emplace_back(cards.begin(), cards.end());
      }
    };
    note();
    for (const auto& entry : replay["log"]) {
      casa::Action a;
      if (created.game->decode_action(casa::protocol::json_to_value(entry["action"]), a) ||
          created.game->apply(entry["seat"].get<int>(), a, nullptr)) {
        totals_.fail(table_ + ": the stored log does not replay");
        return false;
      }
      note();
    }
    bool ok = true;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      for (const auto& m : members_[i].frames) {
        if (!m.is_object() || m.value("table", "") != table_ || !m.contains("seq")) continue;
        const auto seq = m["seq"].get<std::size_t>();
        if (seq >= secrets[i].size()) continue;
        std::vector<std::string> strings;
        strings_of(m, strings);
        for (const auto& s : strings) {
          if (secrets[i][seq].count(s)) {
            totals_.fail(table_ + ": " + members_[i].name + " saw hidden " + s + " in " + m.dump());
            totals_.leaks++;
            ok = false;
          }
        }
        totals_.frames_checked++;
      }
    }
    return ok;
  }

  const Settings& s_;
  Totals& totals_;
  int index_;
  std::mt19937 rng_;
  std::string table_;
  std::vector<Member> members_;  // the seats, then the spectator
};

void parse(int argc, char** argv, Settings& s) {
  casa::cmdline::App app{
      "Plays games through a cluster (or one server) and checks every frame "
      "(scripts/test-cluster.sh).",
      "casa_cluster_play"};
  app.add_option("--port", s.port,
                 "the server's (or load balancer's) port on 127.0.0.1 (required)");
  app.add_option("--games", s.games, "games to play (200)");
  app.add_option("--parallel", s.parallel, "games played at once (16)");
  app.add_option("--game", s.game, "the game (casino)");
  app.add_option("--players", s.players, "players per game (2)");
  std::string options;
  app.add_option("--options", options, "table options, JSON ({})");
  app.add_option("--minutes", s.minutes, "longest run, minutes (4)");
  app.add_option("--acked", s.acked_path, "write each acknowledged move to this file");
  casa::cmdline::parse(app, argc, argv, 2);
  if (!options.empty()) {
    s.options = json::parse(options, nullptr, false);
    if (s.options.is_discarded()) casa::cmdline::fail(app, "--options must be JSON", 2);
  }
  if (s.port == 0 || s.games < 1 || s.parallel < 1)
    casa::cmdline::fail(app, "needs --port, and --games and --parallel of 1 or more", 2);
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  parse(argc, argv, s);
  Totals totals;
  if (!s.acked_path.empty()) totals.acked_file.open(s.acked_path);
  const auto t0 = Clock::now();
  std::atomic<int> next{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < s.parallel; ++w) {
    workers.emplace_back([&] {
      for (int g; (g = next++) < s.games;) Game(s, totals, g).run();
    });
  }
  for (auto& t : workers) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  for (const auto& f : totals.failures) std::cerr << "FAIL " << f << "\n";
  std::cout << json{{"games", s.games},
                    {"finished", totals.finished.load()},
                    {"failed", totals.failed.load()},
                    {"acknowledged_moves", totals.acked.load()},
                    {"lost", totals.lost.load()},
                    {"leaks", totals.leaks.load()},
                    {"frames_checked", totals.frames_checked.load()},
                    {"reconnects", totals.reconnects.load()},
                    {"reconnect_messages", totals.reconnect_messages.load()},
                    {"draining_errors", totals.draining_errors.load()},
                    {"seconds", seconds},
                    {"moves_per_second", totals.acked.load() / seconds}}
                   .dump()
            << std::endl;
  return totals.failed == 0 && totals.finished == s.games ? 0 : 1;
}
