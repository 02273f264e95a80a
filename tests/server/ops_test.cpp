// SPDX-License-Identifier: AGPL-3.0-or-later
// Operations (docs/operations.md): GET /metrics after real play, the admin API
// behind its token, the online backup beside a playing server, the
// configuration file with its precedence, the version a build reports and the
// JSON log format.
#include <doctest/doctest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "protocol/protocol.h"
#include "server/store/backup.h"
#include "server/store/store.h"
#include "server/ops/config.h"
#include "server/ops/log.h"
#include "server/ops/metrics.h"
#include "server/ops/names.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

namespace beast = boost::beast;
namespace http = beast::http;

struct Reply {
  int status = 0;
  std::string body;
  std::string www_authenticate;
  json json_body() const { return json::parse(body, nullptr, false); }
};

Reply request(unsigned short port, http::verb verb, const std::string& target,
              const std::string& token = "", const std::string& body = "") {
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  stream.expires_after(std::chrono::seconds(10));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  Reply r{static_cast<int>(res.result_int()), res.body(), {}};
  if (auto f = res.find(http::field::www_authenticate); f != res.end())
    r.www_authenticate = std::string(f->value());
  return r;
}

// ---- a small parser of the Prometheus text exposition format (0.0.4) ----------

struct Exposition {
  std::map<std::string, std::string> types;  // family -> counter | gauge | histogram | ...
  std::map<std::string, double> samples;  // "name{a=\"b\",...}" as written (labels sorted) -> value
  double at(const std::string& key) const {
    auto it = samples.find(key);
    REQUIRE_MESSAGE(it != samples.end(), "no sample " << key);
    return it->second;
  }
};

// Parses the text, failing the test on any line that is not a comment, a
// blank or a well-formed sample; checks that every sample belongs to a family
// with a TYPE and that each histogram's buckets are cumulative and end in +Inf
// equal to its _count.
Exposition parse_exposition(const std::string& text) {
  Exposition e;
  static const std::regex type_line(
      R"re(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$)re");
  static const std::regex help_line(R"re(^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*$)re");
  static const std::regex sample_line(
      R"re(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?[0-9]+)?$)re");
  static const std::regex label_pair(R"re(^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"$)re");
  std::istringstream in(text);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    if (line.empty()) continue;
    std::smatch m;
    if (line[0] == '#') {
      if (std::regex_match(line, m, type_line)) {
        CHECK_MESSAGE(!e.types.count(m[1]), "two TYPE lines for " << m[1]);
        e.types[m[1]] = m[2];
      } else {
        CHECK_MESSAGE(std::regex_match(line, help_line), "bad comment line: " << line);
      }
      continue;
    }
    REQUIRE_MESSAGE(std::regex_match(line, m, sample_line), "bad sample line: " << line);
    const std::string name = m[1];
    std::vector<std::string> labels;
    if (m[3].matched && !m[3].str().empty()) {
      // Split on commas outside quotes.
      std::string cur;
      bool quoted = false;
      const std::string all = m[3];
      for (std::size_t i = 0; i < all.size(); ++i) {
        const char c = all[i];
        if (c == '\\' && quoted && i + 1 < all.size()) {
          cur += c;
          cur += all[++i];
          continue;
        }
        if (c == '"') quoted = !quoted;
        if (c == ',' && !quoted) {
          labels.push_back(cur);
          cur.clear();
        } else {
          cur += c;
        }
      }
      if (!cur.empty()) labels.push_back(cur);
      for (const auto& l : labels)
        CHECK_MESSAGE(std::regex_match(l, label_pair), "bad label " << l << " in " << line);
    }
    std::sort(labels.begin(), labels.end());
    std::string key = name;
    if (!labels.empty()) {
      key += "{";
      for (std::size_t i = 0; i < labels.size(); ++i) key += (i ? "," : "") + labels[i];
      key += "}";
    }
    const std::string v = m[4];
    double value = 0;
    if (v == "+Inf") {
      value = std::numeric_limits<double>::infinity();
    } else {
      std::size_t used = 0;
      value = std::stod(v, &used);
      REQUIRE_MESSAGE(used == v.size(), "bad value in " << line);
    }
    CHECK_MESSAGE(!e.samples.count(key), "sample twice: " << key);
    e.samples[key] = value;
    // The family: the name, or the name less a histogram's suffix.
    std::string family = name;
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s = suffix;
      if (family.size() > s.size() && family.compare(family.size() - s.size(), s.size(), s) == 0 &&
          e.types.count(family.substr(0, family.size() - s.size()))) {
        family = family.substr(0, family.size() - s.size());
      }
    }
    CHECK_MESSAGE(e.types.count(family), "sample without a TYPE: " << line);
  }
  REQUIRE(lines > 10);
  for (const auto& [family, type] : e.types) {
    if (type != "histogram") continue;
    double last = 0;
    bool inf = false;
    // std::map orders the samples by text, not by bound: collect and sort.
    std::vector<std::pair<double, double>> buckets;  // (le, count)
    static const std::regex le(R"re(le="([^"]+)")re");
    for (const auto& [key, value] : e.samples) {
      if (key.rfind(family + "_bucket{", 0) != 0) continue;
      std::smatch lm;
      REQUIRE(std::regex_search(key, lm, le));
      const double bound =
          lm[1] == "+Inf" ? std::numeric_limits<double>::infinity() : std::stod(lm[1]);
      buckets.emplace_back(bound, value);
    }
    std::sort(buckets.begin(), buckets.end());
    REQUIRE_MESSAGE(!buckets.empty(), "histogram " << family << " has no buckets");
    for (const auto& [bound, count] : buckets) {
      CHECK_MESSAGE(count >= last, family << " buckets are not cumulative");
      last = count;
      inf = std::isinf(bound);
    }
    CHECK_MESSAGE(inf, family << " has no +Inf bucket");
    CHECK(e.at(family + "_count") == last);
  }
  return e;
}

Exposition scrape(unsigned short port, const std::string& token = "") {
  const Reply r = request(port, http::verb::get, "/metrics", token);
  REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
  return parse_exposition(r.body);
}

// Two players at a fresh fake-trick table, started; returns the table id.
std::string start_table(WsClient& a, WsClient& b) {
  const json created =
      create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 4}}}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  return table;
}

int count_type(const WsClient& c, const std::string& type) {
  int n = 0;
  for (const auto& m : c.log) n += m.value("type", "") == type;
  return n;
}

const std::string kAdminToken = "admin-token-for-the-tests-0123456789";

}  // namespace

TEST_CASE("GET /metrics: parses, and the numbers move with play") {
  TestServer ts;
  const Exposition before = scrape(ts.port());
  CHECK(before.types.at("casa_moves_total") == "counter");
  CHECK(before.types.at("casa_store_commit_seconds") == "histogram");
  CHECK(before.types.at("casa_move_event_seconds") == "histogram");
  CHECK(before.types.at("casa_connections") == "gauge");
  CHECK(before.types.at("casa_tables") == "gauge");
  CHECK(before.types.at("casa_store_queue") == "gauge");
  CHECK(before.types.at("casa_store_wal_copy_bytes") == "gauge");
  CHECK(before.types.at("casa_bot_busy") == "gauge");
  CHECK(before.types.at("casa_bot_fallbacks_total") == "counter");
  CHECK(before.types.at("casa_lobby_lock_waits_total") == "counter");
  CHECK(before.at("casa_tables{state=\"playing\"}") == 0);
  const std::uint64_t commits_before = ts.server->store().commits();

  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  const std::string table = start_table(a, b);
  // A move with a stale seq: refused with stale_seq, counted under that code.
  WsClient* mover = nullptr;
  json req;
  for (int i = 0; i < 200 && !mover; ++i) {
    for (WsClient* c : {&a, &b}) {
      if (auto m = c->find([](const json& m) { return m.value("type", "") == "request"; },
                           std::chrono::milliseconds(10))) {
        mover = c;
        req = *m;
        break;
      }
    }
  }
  REQUIRE(mover);
  const json refused = mover->call(
      {{"type", "action"}, {"table", table}, {"seq", 999}, {"action", req["legal"][0]}});
  CHECK(refused["code"] == "stale_seq");
  mover->send(
      {{"type", "action"}, {"table", table}, {"seq", req["seq"]}, {"action", req["legal"][0]}});

  {
    const Exposition mid = scrape(ts.port());
    CHECK(mid.at("casa_tables{state=\"playing\"}") == 1);
    CHECK(mid.at("casa_connections{kind=\"websocket\"}") >= 2);
    CHECK(mid.at("casa_players_connected") >= 2);
  }
  play_out({&a, &b}, table);
  const int accepted = count_type(a, "accepted") + count_type(b, "accepted");
  CHECK(accepted == 10);  // two bids and eight cards, every one a player's

  const Exposition after = scrape(ts.port());
  CHECK(after.at("casa_moves_total") - before.at("casa_moves_total") == accepted);
  CHECK(after.at("casa_errors_total{code=\"stale_seq\"}") -
            before.at("casa_errors_total{code=\"stale_seq\"}") ==
        1);
  CHECK(after.at("casa_errors_total{code=\"illegal_action\"}") ==
        before.at("casa_errors_total{code=\"illegal_action\"}"));
  // Every player's move is timed from its arrival to its events.
  CHECK(after.at("casa_move_event_seconds_count") - before.at("casa_move_event_seconds_count") ==
        accepted);
  CHECK(after.at("casa_move_event_seconds_sum") > before.at("casa_move_event_seconds_sum"));
  // Every group commit is timed: as many as the store counted.
  const double commits = static_cast<double>(ts.server->store().commits() - commits_before);
  CHECK(commits >= accepted / 2.0);  // at most two moves (the two seats') share a commit here
  CHECK(after.at("casa_store_commit_seconds_count") -
            before.at("casa_store_commit_seconds_count") ==
        commits);
  CHECK(after.at("casa_tables{state=\"playing\"}") == 0);
  CHECK(after.at("casa_tables{state=\"over\"}") == 1);
  CHECK(after.at("casa_store_queue") == 0);
  // SQLite with durability full: the commits' WAL bytes are kept for the
  // checkpoints. PostgreSQL has no such copy.
  if (test_pg_url().empty()) {
    CHECK(after.at("casa_store_wal_copy_bytes") > 0);
  } else {
    CHECK(after.at("casa_store_wal_copy_bytes") == 0);
  }

  // An unknown table is an error code of its own.
  CHECK(a.call({{"type", "spectate"}, {"table", "tnosuchone"}})["code"] == "no_such_table");
  const Exposition last = scrape(ts.port());
  CHECK(last.at("casa_errors_total{code=\"no_such_table\"}") -
            after.at("casa_errors_total{code=\"no_such_table\"}") ==
        1);
}

TEST_CASE("GET /metrics behind --metrics-token") {
  TestServer ts([](casa::server::Config& c) { c.metrics_token = "metrics-secret"; });
  CHECK(request(ts.port(), http::verb::get, "/metrics").status == 401);
  const Reply wrong = request(ts.port(), http::verb::get, "/metrics", "metrics-secreT");
  CHECK(wrong.status == 401);
  CHECK(wrong.www_authenticate.find("Bearer") == 0);
  scrape(ts.port(), "metrics-secret");
  CHECK(request(ts.port(), http::verb::post, "/metrics", "metrics-secret").status == 405);
}

TEST_CASE("admin API: off without a token; a bad or missing token gets 401 and changes nothing") {
  {
    TestServer off;
    const Reply r = request(off.port(), http::verb::get, "/api/admin/tables", kAdminToken);
    CHECK(r.status == 404);
    CHECK(r.json_body()["error"] == "admin_disabled");
  }
  TestServer ts([](casa::server::Config& c) { c.admin_token = kAdminToken; });
  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  const std::string table = start_table(a, b);
  const std::string bad_tokens[] = {"", "wrong", kAdminToken + "x", kAdminToken.substr(1)};
  for (const auto& token : bad_tokens) {
    CAPTURE(token);
    CHECK(request(ts.port(), http::verb::get, "/api/admin/tables", token).status == 401);
    CHECK(request(ts.port(), http::verb::get, "/api/admin/bans", token).status == 401);
    CHECK(request(ts.port(), http::verb::post, "/api/admin/tables/" + table + "/close", token,
                  R"({"reason":"x"})")
              .status == 401);
    CHECK(request(ts.port(), http::verb::post, "/api/admin/players/" + b.player_id + "/disconnect",
                  token)
              .status == 401);
    CHECK(request(ts.port(), http::verb::post, "/api/admin/players/" + b.player_id + "/ban", token,
                  R"({"reason":"x"})")
              .status == 401);
    CHECK(
        request(ts.port(), http::verb::delete_, "/api/admin/players/" + b.player_id + "/ban", token)
            .status == 401);
  }
  // Another scheme is no bearer token.
  {
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), ts.port()));
    http::request<http::string_body> req{http::verb::get, "/api/admin/tables", 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::authorization, "Basic " + kAdminToken);
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    CHECK(res.result_int() == 401);
  }
  // Nothing changed: the game goes on, nobody was dropped or banned.
  CHECK_FALSE(a.closed());
  CHECK_FALSE(b.closed());
  CHECK(a.call({{"type", "ping"}})["type"] == "pong");
  CHECK(b.call({{"type", "ping"}})["type"] == "pong");
  CHECK(count_type(a, "table_closed") == 0);
  CHECK(count_type(b, "table_closed") == 0);
  CHECK(request(ts.port(), http::verb::get, "/api/admin/bans", kAdminToken)
            .json_body()["bans"]
            .empty());
  play_out({&a, &b}, table);
}

TEST_CASE("admin API: list tables, close one with a reason (told and stored)") {
  TestServer ts([](casa::server::Config& c) { c.admin_token = kAdminToken; });
  WsClient a(ts.port()), b(ts.port()), watcher(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  REQUIRE(watcher.hello("wes")["type"] == "welcome");
  const std::string table = start_table(a, b);
  const json waiting =
      create(watcher, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 4}}}});
  REQUIRE(waiting["type"] == "table_created");

  const Reply list = request(ts.port(), http::verb::get, "/api/admin/tables", kAdminToken);
  REQUIRE(list.status == 200);
  std::map<std::string, json> by_id;
  const json listed = list.json_body();
  for (const auto& t : listed["tables"]) by_id[t["table"].get<std::string>()] = t;
  REQUIRE(by_id.count(table));
  REQUIRE(by_id.count(waiting["table"]));
  CHECK(by_id[table]["status"] == "playing");
  CHECK(by_id[table]["local"] == true);
  CHECK(by_id[table]["seats"][0]["player_id"] == a.player_id);
  CHECK(by_id[table]["seats"][1]["player_id"] == b.player_id);
  CHECK(by_id[waiting["table"]]["status"] == "waiting");

  // A bad body changes nothing.
  CHECK(request(ts.port(), http::verb::post, "/api/admin/tables/" + table + "/close", kAdminToken,
                "{}")
            .status == 400);
  CHECK(request(ts.port(), http::verb::post, "/api/admin/tables/" + table + "/close", kAdminToken,
                "not json")
            .status == 400);
  CHECK(request(ts.port(), http::verb::get, "/api/admin/tables/" + table + "/close", kAdminToken)
            .status == 405);
  CHECK(request(ts.port(), http::verb::post, "/api/admin/tables/tnosuchone/close", kAdminToken,
                R"({"reason":"x"})")
            .status == 404);

  const std::string reason = "Closed by the operators: the server restarts for an upgrade.";
  const Reply closed = request(ts.port(), http::verb::post, "/api/admin/tables/" + table + "/close",
                               kAdminToken, json{{"reason", reason}}.dump());
  CHECK(closed.status == 202);
  for (WsClient* c : {&a, &b}) {
    const json m = c->expect("table_closed");
    CHECK(m["table"] == table);
    CHECK(m["reason"] == "admin");
    CHECK(m["message"] == reason);
  }
  // Stored with the table.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::string stored_status, stored_reason;
  while (std::chrono::steady_clock::now() < deadline && stored_reason.empty()) {
    ts.server->store().read([&](casa::server::Db& db) {
      auto& q = db.prepare("SELECT status, closed_reason FROM tables WHERE id = ?");
      q.bind(1, table);
      if (q.step()) {
        stored_status = q.text_at(0);
        stored_reason = q.text_at(1);
      }
    });
    if (stored_reason.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(stored_status == "closed");
  CHECK(stored_reason == reason);
  // A move after it is refused; a second close is a conflict.
  CHECK(request(ts.port(), http::verb::post, "/api/admin/tables/" + table + "/close", kAdminToken,
                R"({"reason":"again"})")
            .status == 409);
  check_schemas(a);
  check_schemas(b);
  // After a restart the table stays closed (not resumed).
  ts.restart();
  const Reply again = request(ts.port(), http::verb::get, "/api/admin/tables", kAdminToken);
  const json relisted = again.json_body();
  REQUIRE(relisted["tables"].is_array());
  for (const auto& t : relisted["tables"]) CHECK(t["table"] != table);
}

TEST_CASE("admin API: disconnect a player; ban (stored, hello refused) and unban") {
  TestServer ts([](casa::server::Config& c) { c.admin_token = kAdminToken; });
  auto a = std::make_unique<WsClient>(ts.port());
  REQUIRE(a->hello("ann")["type"] == "welcome");
  const std::string id = a->player_id;
  const std::string token = a->token();

  CHECK(
      request(ts.port(), http::verb::post, "/api/admin/players/pnosuchone/disconnect", kAdminToken)
          .status == 404);
  const Reply dropped =
      request(ts.port(), http::verb::post, "/api/admin/players/" + id + "/disconnect", kAdminToken);
  CHECK(dropped.status == 200);
  CHECK(dropped.json_body()["disconnected"] == true);
  CHECK(a->wait_closed(std::chrono::seconds(5)));
  // Disconnected, not banned: the token still works.
  a = std::make_unique<WsClient>(ts.port());
  REQUIRE(a->hello("", token)["type"] == "welcome");

  CHECK(request(ts.port(), http::verb::post, "/api/admin/players/pnosuchone/ban", kAdminToken,
                R"({"reason":"x"})")
            .status == 404);
  CHECK(request(ts.port(), http::verb::post, "/api/admin/players/" + id + "/ban", kAdminToken, "{}")
            .status == 400);
  const Reply banned = request(ts.port(), http::verb::post, "/api/admin/players/" + id + "/ban",
                               kAdminToken, R"({"reason":"cheating"})");
  CHECK(banned.status == 200);
  // The open connection is told, then closed.
  const json told = a->expect("error");
  CHECK(told["code"] == "banned");
  CHECK(a->wait_closed(std::chrono::seconds(5)));
  check_schemas(*a);
  auto refused = [&] {
    WsClient again(ts.port());
    const json w = again.hello("", token);
    CHECK(w["type"] == "error");
    CHECK(w["code"] == "banned");
    CHECK(again.wait_closed(std::chrono::seconds(5)));
    check_schemas(again);
  };
  refused();
  const json bans = request(ts.port(), http::verb::get, "/api/admin/bans", kAdminToken).json_body();
  REQUIRE(bans["bans"].size() == 1);
  CHECK(bans["bans"][0]["player_id"] == id);
  CHECK(bans["bans"][0]["reason"] == "cheating");
  // Stored: still banned after a restart.
  ts.restart();
  refused();
  // Lifted: the token works again; a second unban finds nothing.
  CHECK(request(ts.port(), http::verb::delete_, "/api/admin/players/" + id + "/ban", kAdminToken)
            .status == 200);
  CHECK(request(ts.port(), http::verb::delete_, "/api/admin/players/" + id + "/ban", kAdminToken)
            .status == 404);
  WsClient back(ts.port());
  CHECK(back.hello("", token)["type"] == "welcome");
  ts.restart();
  WsClient after_restart(ts.port());
  CHECK(after_restart.hello("", token)["type"] == "welcome");
}

TEST_CASE("online backup while games are played: every acknowledged move is in the copy") {
  // SQLite's backup API copies a SQLite file; PostgreSQL is backed up with its
  // own tools (the next test checks that the command says so).
  if (testing_postgres()) return;
  TestServer ts([](casa::server::Config& c) { c.threads = 2; });
  const fs::path out_dir = temp_dir("backup");
  const fs::path copy = out_dir / "casa.db";

  std::mutex mutex;
  std::map<std::string, std::int64_t> acked;  // table -> highest seq acknowledged
  std::atomic<int> acks{0};
  std::atomic<bool> stop{false};
  std::atomic<int> games{0};
  // The players play on their own thread, with no doctest assertion there
  // (a failure is noted and checked on the test's thread).
  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  std::string player_failure;
  std::thread players([&] {
    try {
      while (!stop) {
        const json created = a.call({{"type", "create_table"},
                                     {"game", "fake-trick"},
                                     {"players", 2},
                                     {"options", {{"hand", 4}}}});
        if (created["type"] != "table_created")
          throw std::runtime_error("create: " + created.dump());
        const std::string table = created["table"];
        const json joined = b.call({{"type", "join"}, {"table", table}});
        if (joined["type"] != "joined") throw std::runtime_error("join: " + joined.dump());
        std::vector<WsClient*> both = {&a, &b};
        int over = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (over < 2 && std::chrono::steady_clock::now() < deadline) {
          for (WsClient* c : both) {
            auto m = c->recv(std::chrono::milliseconds(5));
            if (!m) continue;
            const std::string type = m->value("type", "");
            if (type == "request" && (*m)["table"] == table) {
              c->send({{"type", "action"},
                       {"table", table},
                       {"seq", (*m)["seq"]},
                       {"action", (*m)["legal"][0]}});
            } else if (type == "accepted") {
              std::lock_guard lock(mutex);
              auto& seq = acked[(*m)["table"].get<std::string>()];
              seq = std::max(seq, (*m)["seq"].get<std::int64_t>());
              ++acks;
            } else if (type == "game_over" && (*m)["table"] == table) {
              ++over;
            } else if (type == "error") {
              throw std::runtime_error("error while playing: " + m->dump());
            }
          }
        }
        if (over < 2) throw std::runtime_error("a game did not finish");
        ++games;
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      player_failure = e.what();
      stop = true;
    }
  });
  // Some games in, while moves keep coming: take the backup.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (acks < 25 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::map<std::string, std::int64_t> before;
  {
    std::lock_guard lock(mutex);
    before = acked;
  }
  const int acks_before = acks;
  const auto err = casa::server::backup_database(ts.config.db, copy.string());
  const int acks_during = acks - acks_before;
  // Play went on after it.
  const int acks_after_backup = acks;
  while (acks < acks_after_backup + 10 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  players.join();
  REQUIRE_MESSAGE(player_failure.empty(), player_failure);
  REQUIRE_MESSAGE(!err, *err);
  MESSAGE("backup taken after " << acks_before << " acknowledged moves in " << before.size()
                                << " tables; " << acks_during << " acknowledged while it ran");
  CHECK(acks > acks_after_backup);  // the server was not stopped by it
  REQUIRE(before.size() >= 2);
  CHECK_FALSE(fs::exists(copy.string() + ".partial"));
  // A second backup to the same file is refused and leaves it alone.
  CHECK(casa::server::backup_database(ts.config.db, copy.string()).has_value());

  // integrity_check on the copy, and every move acknowledged before the backup.
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) == "ok");
    sqlite3_finalize(s);
    sqlite3_close(db);
  }
  // A server on the copy has every one of those moves, in order.
  TestServer restored({}, out_dir);
  for (const auto& [table, seq] : before) {
    std::vector<std::int64_t> seqs;
    restored.server->store().read([&](casa::server::Db& db) {
      auto& q = db.prepare("SELECT seq FROM actions WHERE table_id = ? ORDER BY seq");
      q.bind(1, table);
      while (q.step()) seqs.push_back(q.int_at(0));
    });
    CAPTURE(table);
    REQUIRE(static_cast<std::int64_t>(seqs.size()) >= seq);
    for (std::size_t i = 0; i < seqs.size(); ++i)
      CHECK(seqs[i] == static_cast<std::int64_t>(i) + 1);
  }
  // The restored server answers: a finished game's replay from the copy.
  for (const auto& [table, seq] : before) {
    if (seq == 10) {
      const json replay = get_json(restored.port(), "/api/tables/" + table + "/replay", 200);
      CHECK(replay["log"].size() == 10);
      break;
    }
  }
}

TEST_CASE("casa-server backup on PostgreSQL: a clear error that names pg_dump, nothing written") {
  // With the suite on SQLite, a URL of a server that is not there: the
  // command refuses it before connecting anywhere.
  const std::string url =
      testing_postgres() ? test_pg_url() : "postgres://casa:secret@127.0.0.1:1/casa";
  const fs::path dir = temp_dir("pgbackup");
  const fs::path out = dir / "copy.db";
  const auto err = casa::server::backup_database(url, out.string());
  REQUIRE(err.has_value());
  CHECK(err->find("PostgreSQL") != std::string::npos);
  CHECK(err->find("pg_dump") != std::string::npos);
  CHECK(err->find("secret") == std::string::npos);  // no password in a message
  // The command line: exit status 1, the same sentence on stderr, no file.
  const fs::path said = dir / "stderr.txt";
  const std::string cmd = std::string(CASA_SERVER_PATH) + " backup " + out.string() + " --db '" + url +
                          "' > /dev/null 2> " + said.string();
  const int rc = std::system(cmd.c_str());
  CHECK(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 1);
  std::ifstream in(said);
  std::stringstream text;
  text << in.rdbuf();
  CHECK_MESSAGE(text.str().find("pg_dump") != std::string::npos, text.str());
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(out.string() + ".partial"));
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("casa-server backup: the command line") {
  if (testing_postgres()) return;  // a SQLite file; PostgreSQL: the test above
  TestServer ts;
  WsClient a(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  const fs::path out = ts.dir / "copy.db";
  const std::string cmd =
      std::string(CASA_SERVER_PATH) + " backup " + out.string() + " --db " + ts.config.db;
  CHECK(std::system((cmd + " > /dev/null").c_str()) == 0);
  CHECK(fs::exists(out));
  // Not over an existing file.
  CHECK(std::system((cmd + " > /dev/null 2>&1").c_str()) != 0);
  const std::string missing = std::string(CASA_SERVER_PATH) + " backup " +
                              (ts.dir / "x.db").string() + " --db " +
                              (ts.dir / "none.db").string() + " > /dev/null 2>&1";
  CHECK(std::system(missing.c_str()) != 0);
  CHECK_FALSE(fs::exists(ts.dir / "none.db"));
}

// ---- the configuration file ----------------------------------------------------

namespace {

struct Env {
  std::vector<std::string> names;
  void set(const std::string& name, const std::string& value) {
    ::setenv(name.c_str(), value.c_str(), 1);
    names.push_back(name);
  }
  ~Env() {
    for (const auto& n : names) ::unsetenv(n.c_str());
  }
};

std::optional<std::string> parse(std::vector<std::string> args, casa::server::Config& config) {
  std::vector<char*> argv;
  static std::string program = "casa-server";
  argv.push_back(program.data());
  for (auto& a : args) argv.push_back(a.data());
  bool help = false;
  return casa::server::parse_config(static_cast<int>(argv.size()), argv.data(), config, help);
}

fs::path write_file(const fs::path& dir, const std::string& name, const std::string& text) {
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST_CASE("--wal-checkpoint-pages: the WAL's checkpoint size, within 100 to 1,000,000 pages") {
  casa::server::Config c;
  CHECK(c.wal_checkpoint_pages == casa::server::Store::kCheckpointPages);
  REQUIRE_FALSE(parse({"--wal-checkpoint-pages", "8000"}, c));
  CHECK(c.wal_checkpoint_pages == 8000);
  const auto limits = casa::server::WalLimits{c.wal_checkpoint_pages};
  CHECK(limits.checkpoint_pages == 8000);
  CHECK(limits.catch_up_pages == 1600);
  CHECK(limits.force_pages == 32000);
  for (const char* bad : {"99", "1000001", "-5"}) {
    casa::server::Config refused;
    const auto error = parse({"--wal-checkpoint-pages", bad}, refused);
    REQUIRE(error);
    CHECK(error->find("--wal-checkpoint-pages must be from 100 to 1000000") != std::string::npos);
  }
}

TEST_CASE("configuration file: flags > environment > file > defaults") {
  const fs::path dir = temp_dir("conf");
  const fs::path file = write_file(dir, "casa.toml",
                                   "# a comment\n"
                                   "port = 1111\n"
                                   "rate-burst = 5.5\n"
                                   "log-level = \"debug\"\n"
                                   "db = \"/from/file.db\"\n"
                                   "trusted-proxies = [\"127.0.0.1\", \"::1\"]\n"
                                   "testing = true\n"
                                   "admin-token = \"file-token\"\n");
  {
    casa::server::Config c;
    REQUIRE_FALSE(parse({"--config", file.string()}, c));
    CHECK(c.port == 1111);
    CHECK(c.rate_burst == 5.5);
    CHECK(c.log_level == "debug");
    CHECK(c.db == "/from/file.db");
    CHECK(c.trusted_proxies == std::vector<std::string>{"127.0.0.1", "::1"});
    CHECK(c.testing);
    CHECK(c.admin_token == "file-token");
    CHECK(c.threads == casa::server::Config{}.threads);  // not in the file: the default
    CHECK(c.config_file == file.string());
  }
  {
    Env env;
    env.set("CASA_PORT", "2222");
    env.set("CASA_LOG_LEVEL", "warn");
    env.set("CASA_CONFIG", file.string());
    casa::server::Config c;
    REQUIRE_FALSE(parse({"--port", "3333"}, c));
    CHECK(c.port == 3333);           // the flag over the environment and the file
    CHECK(c.log_level == "warn");    // the environment over the file
    CHECK(c.db == "/from/file.db");  // the file (found through CASA_CONFIG) over the default
    CHECK(c.rate_burst == 5.5);
    CHECK(c.max_frame_bytes == casa::server::Config{}.max_frame_bytes);
  }
  {
    // --config over CASA_CONFIG.
    const fs::path other = write_file(dir, "other.toml", "port = 4444\n");
    Env env;
    env.set("CASA_CONFIG", file.string());
    casa::server::Config c;
    REQUIRE_FALSE(parse({"--config=" + other.string()}, c));
    CHECK(c.port == 4444);
    CHECK(c.db == casa::server::Config{}.db);
  }
}

TEST_CASE("configuration file: an unknown key or a bad value names the file and line") {
  const fs::path dir = temp_dir("conf");
  auto error_of = [&](const std::string& text) {
    const fs::path f = write_file(dir, "bad.toml", text);
    casa::server::Config c;
    const auto err = parse({"--config", f.string()}, c);
    REQUIRE(err.has_value());
    CHECK_MESSAGE(err->rfind(f.string() + ":", 0) == 0, *err);
    return *err;
  };
  std::string e = error_of("port = 1\n\nprot = 2\n");
  CHECK(e.find(":3:") != std::string::npos);
  CHECK(e.find("unknown setting 'prot'") != std::string::npos);
  e = error_of("port = 1\ndurability = \"sometimes\"\n");
  CHECK(e.find(":2:") != std::string::npos);
  CHECK(e.find("durability") != std::string::npos);
  e = error_of("threads = \"two\"\n");
  CHECK(e.find(":1:") != std::string::npos);
  e = error_of("port = 1\nport = = 2\n");  // not TOML
  CHECK(e.find(":2:") != std::string::npos);
  e = error_of("[server]\nport = 1\n");  // settings are top-level keys
  CHECK(e.find(":1:") != std::string::npos);
  e = error_of("testing = \"yes\"\n");
  CHECK(e.find("true or false") != std::string::npos);
  e = error_of("config = \"other.toml\"\n");
  CHECK(e.find(":1:") != std::string::npos);
  // A missing file.
  casa::server::Config c;
  const auto missing = parse({"--config", (dir / "none.toml").string()}, c);
  REQUIRE(missing.has_value());
  CHECK(missing->find("none.toml") != std::string::npos);
  // Nothing of a refused file is kept as a reason to start: the caller exits.
}

TEST_CASE("configuration file: the shipped example parses, and the docs list every setting") {
  const fs::path root = fs::path(CASA_SOURCE_DIR);
  const fs::path example = root / "docs" / "casa-server.example.toml";
  casa::server::Config c;
  REQUIRE_FALSE(casa::server::apply_config_file(example.string(), c));
  std::ifstream in(example);
  std::stringstream text;
  text << in.rdbuf();
  std::ifstream ops(root / "docs" / "operations.md");
  std::stringstream doc;
  doc << ops.rdbuf();
  for (const auto& name : casa::server::config_names()) {
    CAPTURE(name);
    if (name != "config") {
      CHECK(std::regex_search(text.str(), std::regex("(^|\\n)#? ?" + name + " = ")));
    }
    CHECK(doc.str().find("`" + name + "`") != std::string::npos);
  }
}

TEST_CASE("a move takes the lobby's lock not once: its connection finds the table by itself") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  const std::string table = start_table(a, b);
  // One move by whoever is asked; returns once it was accepted.
  std::map<WsClient*, std::size_t> seen;
  auto one_move = [&] {
    for (int i = 0; i < 500; ++i) {
      for (WsClient* c : {&a, &b}) {
        std::optional<json> req;
        for (std::size_t k = seen[c]; k < c->log.size(); ++k) {
          if (c->log[k].value("type", "") == "request") req = c->log[k];
        }
        if (!req) {
          c->find([](const json& m) { return m.value("type", "") == "request"; }, std::chrono::milliseconds(5));
          continue;
        }
        seen[c] = c->log.size();
        const json reply = c->call(
            {{"type", "action"}, {"table", table}, {"seq", (*req)["seq"]}, {"action", (*req)["legal"][0]}});
        REQUIRE(reply["type"] == "accepted");
        return;
      }
    }
    FAIL("nobody was asked to move");
  };
  // The first move of each player notes the table on their connection.
  one_move();
  one_move();
  // What two scrapes back to back take (the scrape reads the lobby too).
  const double s1 = scrape(ts.port()).at("casa_lobby_locks_total");
  const double s2 = scrape(ts.port()).at("casa_lobby_locks_total");
  constexpr int kMoves = 6;  // of the ten: the game goes on
  for (int i = 0; i < kMoves; ++i) one_move();
  const double s3 = scrape(ts.port()).at("casa_lobby_locks_total");
  CHECK(s2 > s1);  // the counter counts
  CHECK(s3 - s2 == s2 - s1);
}

TEST_CASE("GET /metrics: every error code of the protocol has a counter of its own") {
  // protocol/schemas/server/error.json lists the codes the server sends; a code
  // missing from the metrics' list is counted only once it has happened, and a
  // dashboard cannot show it at zero before.
  std::ifstream in(fs::path(CASA_SOURCE_DIR) / "protocol" / "schemas" / "server" / "error.json");
  const auto schema = nlohmann::json::parse(in);
  const auto& codes = schema.at("properties").at("code").at("enum");
  REQUIRE(codes.size() > 30);
  std::set<std::string> counted;
  for (const auto& [code, n] : casa::server::error_counts()) counted.insert(code);
  for (const auto& code : codes) {
    CAPTURE(code);
    CHECK(counted.count(code.get<std::string>()) == 1);
  }
}

TEST_CASE("admin token file: the first line is the token") {
  const fs::path dir = temp_dir("conf");
  const fs::path f = write_file(dir, "token", "from-the-file\n");
  casa::server::Config c;
  REQUIRE_FALSE(parse({"--admin-token-file", f.string()}, c));
  CHECK(c.admin_token == "from-the-file");
  casa::server::Config d;
  CHECK(parse({"--admin-token-file", (dir / "none").string()}, d).has_value());
}

// ---- the version, the process metrics, the JSON log lines ------------------------

namespace {

// Runs a shell command; its exit status and standard output.
std::pair<int, std::string> run_command(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int rc = pclose(p);
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, out};
}

// A commit as the version header writes it: git's short hash, or "unknown"
// outside a checkout, or what -DCASA_COMMIT= said.
bool commit_like(const std::string& s) {
  return std::regex_match(s, std::regex("[A-Za-z0-9._+-]+")) && s.size() <= 64;
}

}  // namespace

TEST_CASE("casa-server --version: the project's version and the commit, exit 0") {
  const std::string expected = std::string("casa-server ") + CASA_EXPECTED_VERSION + " (";
  for (const char* args : {" --version", " --port 1 --version", " --log-level info --version"}) {
    CAPTURE(args);
    const auto [rc, out] = run_command(std::string(CASA_SERVER_PATH) + args + " 2>&1");
    CHECK(rc == 0);
    REQUIRE_MESSAGE(out.rfind(expected, 0) == 0, out);
    REQUIRE(out.size() > expected.size() + 2);
    CHECK(out.substr(out.size() - 2) == ")\n");
    CHECK(commit_like(out.substr(expected.size(), out.size() - expected.size() - 2)));
  }
  // --help names it.
  const auto [rc, help] = run_command(std::string(CASA_SERVER_PATH) + " --help");
  CHECK(rc == 0);
  CHECK(help.find("--version") != std::string::npos);
  CHECK(help.find("--log-format") != std::string::npos);
}

TEST_CASE("GET /api/version and /healthz name the running build") {
  TestServer ts;
  const json v = get_json(ts.port(), "/api/version", 200);
  CHECK(v["version"] == CASA_EXPECTED_VERSION);
  REQUIRE(v["commit"].is_string());
  CHECK(commit_like(v["commit"]));
  CHECK(v["protocol"] == casa::protocol::kVersion);
  CHECK(v.size() == 3);
  // /healthz keeps what load balancers and the image's HEALTHCHECK read, and
  // adds the version.
  const json h = get_json(ts.port(), "/healthz", 200);
  CHECK(h["status"] == "ok");
  CHECK(h["storage"] == "ok");
  CHECK(h["version"] == CASA_EXPECTED_VERSION);
  CHECK(request(ts.port(), http::verb::post, "/api/version").status == 405);
}

TEST_CASE("GET /metrics: casa_build_info and the process metrics") {
  TestServer ts;
  const json v = get_json(ts.port(), "/api/version", 200);
  const Exposition e = scrape(ts.port());
  CHECK(e.types.at("casa_build_info") == "gauge");
  CHECK(e.at("casa_build_info{commit=\"" + v["commit"].get<std::string>() + "\",version=\"" +
             CASA_EXPECTED_VERSION + "\"}") == 1);

  CHECK(e.types.at("process_cpu_seconds_total") == "counter");
  for (const char* g : {"process_resident_memory_bytes", "process_virtual_memory_bytes", "process_start_time_seconds",
                        "process_open_fds", "process_max_fds"}) {
    CAPTURE(g);
    CHECK(e.types.at(g) == "gauge");
  }
  // This process's own figures (the test server runs in it), so they can be checked.
  const double rss = e.at("process_resident_memory_bytes");
  CHECK(rss > 1024 * 1024);
  CHECK(e.at("process_virtual_memory_bytes") >= rss);
  CHECK(e.at("process_cpu_seconds_total") >= 0);
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const double started = e.at("process_start_time_seconds");
  CHECK(started <= now + 1);
  CHECK(started > now - 3600);
  const double fds = e.at("process_open_fds");
  CHECK(fds > 0);
  CHECK(fds < e.at("process_max_fds"));
  // Three more connections: three more descriptors on each side, in this process.
  {
    WsClient a(ts.port()), b(ts.port()), c(ts.port());
    REQUIRE(a.hello("ann")["type"] == "welcome");
    REQUIRE(b.hello("bob")["type"] == "welcome");
    REQUIRE(c.hello("cy")["type"] == "welcome");
    CHECK(scrape(ts.port()).at("process_open_fds") >= fds + 6);
  }
}

TEST_CASE("--log-format: text by default, json by flag, CASA_LOG_FORMAT or the file; nothing else") {
  CHECK(casa::server::Config{}.log_format == "text");
  const fs::path dir = temp_dir("conf");
  {
    casa::server::Config c;
    REQUIRE_FALSE(parse({"--log-format", "json"}, c));
    CHECK(c.log_format == "json");
  }
  {
    Env env;
    env.set("CASA_LOG_FORMAT", "json");
    casa::server::Config c;
    REQUIRE_FALSE(parse({}, c));
    CHECK(c.log_format == "json");
  }
  {
    casa::server::Config c;
    REQUIRE_FALSE(parse({"--config", write_file(dir, "json.toml", "log-format = \"json\"\n").string()}, c));
    CHECK(c.log_format == "json");
  }
  casa::server::Config c;
  const auto err = parse({"--log-format", "xml"}, c);
  REQUIRE(err.has_value());
  CHECK(err->find("--log-format") != std::string::npos);
  CHECK(c.log_format == "text");
}

TEST_CASE("a JSON log line: time in RFC 3339 UTC with ms, the fields in order, strings escaped") {
  CHECK(casa::server::json_log_line(0, "info", "hello", "", "") ==
        R"({"time":"1970-01-01T00:00:00.000Z","level":"info","message":"hello"})");
  CHECK(casa::server::json_log_line(1700000000123, "warning", "a \"quoted\"\nname\\", "tabc", "pxyz") ==
        R"({"time":"2023-11-14T22:13:20.123Z","level":"warning","message":"a \"quoted\"\nname\\","table":"tabc","player":"pxyz"})");
  // Bytes that are not UTF-8 do not break the line.
  const json bad = json::parse(casa::server::json_log_line(5, "info", "x\xff", "", ""));
  CHECK(bad["message"] == "x\xEF\xBF\xBD");
  CHECK(bad["time"] == "1970-01-01T00:00:00.005Z");
}

TEST_CASE("casa-server --log-format json: every line one object, about its table and player") {
  const fs::path dir = temp_dir("jsonlog");
  const std::string db = test_db(dir);
  std::vector<std::string> args = {CASA_SERVER_PATH, "--port", "0", "--address", "127.0.0.1", "--db", db,
                                   "--log-format", "json", "--log-level", "info", "--web-dir", "off"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv(CASA_SERVER_PATH, argv.data());
    _exit(127);
  }
  close(fds[1]);
  // A failed REQUIRE below must not leave the server running.
  struct Reap {
    pid_t pid;
    ~Reap() {
      if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } reap{pid};
  FILE* out = fdopen(fds[0], "r");
  std::vector<std::string> lines;
  auto read_line = [&]() -> bool {
    std::string line;
    int ch;
    while ((ch = std::fgetc(out)) != EOF && ch != '\n') line += static_cast<char>(ch);
    if (ch == EOF && line.empty()) return false;
    lines.push_back(line);
    return true;
  };
  // The port, from the line that says the server listens.
  unsigned short port = 0;
  while (port == 0 && read_line()) {
    const json l = json::parse(lines.back(), nullptr, false);
    REQUIRE_MESSAGE(l.is_object(), lines.back());
    std::smatch m;
    const std::string message = l.value("message", "");
    if (std::regex_search(message, m, std::regex("listening on port ([0-9]+)"))) {
      port = static_cast<unsigned short>(std::stoi(m[1]));
      CHECK(message.find(std::string("casa-server ") + CASA_EXPECTED_VERSION) == 0);
    }
  }
  REQUIRE(port != 0);

  // A display name with a quote and a backslash (a newline is refused as a
  // name: docs/protocol.md, "Names"), logged as it is.
  const std::string odd_name = "ann \"the\" \\ second";
  std::string ann_id, bob_id, table;
  {
    WsClient a(port), b(port);
    const json wa = a.hello(odd_name);
    REQUIRE(wa["type"] == "welcome");
    ann_id = wa["player_id"];
    const json wb = b.hello("bob");
    REQUIRE(wb["type"] == "welcome");
    bob_id = wb["player_id"];
    const json created = create(a, {{"game", "casino"}, {"players", 2}});
    REQUIRE(created["type"] == "table_created");
    table = created["table"];
    REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
    // The table has started once a seat is asked to move.
    bool asked = false;
    for (int i = 0; i < 500 && !asked; ++i) {
      for (WsClient* c : {&a, &b}) {
        asked = asked || c->find([](const json& m) { return m.value("type", "") == "request"; },
                                 std::chrono::milliseconds(10));
      }
    }
    REQUIRE(asked);
  }
  kill(pid, SIGTERM);
  while (read_line()) {
  }
  std::fclose(out);
  int status = 0;
  waitpid(pid, &status, 0);
  reap.pid = -1;
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  static const std::regex rfc3339(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  const std::set<std::string> levels = {"trace", "debug", "info", "warning", "error", "critical"};
  bool joined = false, created = false, started = false, closed_bob = false, stopped = false;
  for (const auto& text : lines) {
    CAPTURE(text);
    const json l = json::parse(text, nullptr, false);
    REQUIRE(l.is_object());
    REQUIRE(l["time"].is_string());
    CHECK(std::regex_match(l["time"].get<std::string>(), rfc3339));
    CHECK(levels.count(l.value("level", "")));
    REQUIRE(l["message"].is_string());
    const std::string message = l["message"];
    for (const char* key : {"table", "player"}) {
      if (l.contains(key)) CHECK((l[key].is_string() && !l[key].get<std::string>().empty()));
    }
    if (message.find("joined from") != std::string::npos && l.value("player", "") == ann_id) {
      joined = true;
      // Quoted as every name in a log line is (names.h), inside the escaped JSON.
      CHECK(message.find(casa::server::log_quote(odd_name)) != std::string::npos);
    }
    if (message.find("created by") != std::string::npos) {
      created = true;
      CHECK(l.value("table", "") == table);
      CHECK(l.value("player", "") == ann_id);
    }
    if (message.find("table " + table + " starts") == 0) {
      started = true;
      CHECK(l.value("table", "") == table);
    }
    if (message.find("closed (player " + bob_id) != std::string::npos) {
      closed_bob = true;
      CHECK(l.value("player", "") == bob_id);
      CHECK_FALSE(l.contains("table"));
    }
    if (message == "casa-server stopped") stopped = true;
  }
  CHECK(joined);
  CHECK(created);
  CHECK(started);
  CHECK(closed_bob);
  CHECK(stopped);
  std::error_code ec;
  fs::remove_all(dir, ec);
}
