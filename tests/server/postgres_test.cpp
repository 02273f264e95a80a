// SPDX-License-Identifier: AGPL-3.0-or-later
// PostgreSQL faults: the store's connection killed mid-game, the database
// server stopped and started again, a COMMIT cut off on its way. Moves are
// refused with storage_unavailable while the database is gone, nothing
// acknowledged is lost, and play resumes by itself once it is back. These run
// only against PostgreSQL (ctest server_postgres); on SQLite the fault tests of
// tests/powercut and the read-only test of server_test.cpp stage the same.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// Read before doctest runs (by the skip decorators), so without an assertion.
bool on_postgres() {
  const char* url = std::getenv("CASA_TEST_DB");
  const char* file = std::getenv("CASA_TEST_PG_URL_FILE");
  return (url && *url) || (file && *file);
}
const bool kOnPostgres = on_postgres();

// The application_name test_db gave the server's connections.
std::string app_name(const std::string& url) {
  const auto at = url.rfind("application_name=");
  REQUIRE(at != std::string::npos);
  return url.substr(at + 17);
}

// Ends every connection of the test server `url` from the database's side.
int terminate_connections(const std::string& url) {
  casa::server::Db admin(test_pg_url(), false);
  auto& q = admin.prepare(
      "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?");
  q.bind_text(1, app_name(url));
  const int n = q.step() ? static_cast<int>(q.int_at(0)) : 0;
  q.run();
  return n;
}

// The stored action log of `table`: seq, seat and action of every row, in seq order.
std::vector<json> stored_log(const std::string& url, const std::string& table) {
  casa::server::Db db(url, true);
  auto& q = db.prepare("SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq");
  q.bind(1, table);
  std::vector<json> out;
  while (q.step()) out.push_back({{"seq", q.int_at(0)}, {"seat", q.int_at(1)}, {"action", json::parse(q.text_at(2))}});
  return out;
}

// The script that stops and starts the fixture's database server, if any.
std::string ctl_script() {
  const char* file = std::getenv("CASA_TEST_PG_URL_FILE");
  if (!file || !*file) return {};
  const auto ctl = std::filesystem::path(file).parent_path() / "ctl";
  return std::filesystem::exists(ctl) ? ctl.string() : std::string();
}

struct Game {
  WsClient a, b;
  std::string table;
  std::vector<json> acknowledged;  // seq, seat, action of every `accepted`
  explicit Game(unsigned short port) : a(port), b(port) {
    a.hello("ann");
    b.hello("bob");
    table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 5}}}})["table"];
    b.call({{"type", "join"}, {"table", table}});
  }
  // The seat whose request is pending and that request.
  std::pair<int, json> pending() {
    WsClient* seats[2] = {&a, &b};
    for (int round = 0; round < 400; ++round) {
      for (int s = 0; s < 2; ++s) {
        auto m = seats[s]->recv(5ms);
        if (m && (*m)["type"] == "request" && (*m)["table"] == table) return {s, *m};
      }
    }
    FAIL("no request arrived");
    return {};
  }
  // Sends seat `s`'s first legal action for `request`; the reply.
  json act(int s, const json& request) {
    WsClient& c = s == 0 ? a : b;
    const json action = request["legal"][0];
    const json r = c.call({{"type", "action"}, {"table", table}, {"seq", request["seq"]}, {"action", action}});
    if (r["type"] == "accepted") acknowledged.push_back({{"seq", r["seq"]}, {"seat", s}, {"action", action}});
    return r;
  }
  WsClient& seat(int s) { return s == 0 ? a : b; }
};

}  // namespace

TEST_CASE("PostgreSQL: the store's connections killed mid-game: play goes on, nothing acknowledged lost" *
          doctest::skip(!kOnPostgres)) {
  TestServer ts;
  Game g(ts.port());
  auto [s1, r1] = g.pending();
  REQUIRE(g.act(s1, r1)["type"] == "accepted");
  auto [s2, r2] = g.pending();

  REQUIRE(terminate_connections(ts.config.db) >= 1);
  std::this_thread::sleep_for(100ms);
  // The store sees the connection gone before its next transaction and
  // connects again; were the move caught in the cut, it is refused, never lost.
  json reply = g.act(s2, r2);
  if (reply["type"] != "accepted") {
    CHECK(reply["code"] == "storage_unavailable");
    g.seat(s2).send({{"type", "resync"}, {"table", g.table}});
    CHECK(g.seat(s2).expect("table_state")["seq"] == 1);  // the refused move did not happen
    reply = g.act(s2, g.seat(s2).expect("request"));
  }
  CHECK(reply["type"] == "accepted");
  // Reads connect again too.
  CHECK(get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200).is_object());
  play_out({&g.a, &g.b}, g.table);
  CHECK(get_json(ts.port(), "/healthz", 200)["storage"] == "ok");
  const json replay = get_json(ts.port(), "/api/games/" + g.table, 200);
  const auto log = stored_log(ts.config.db, g.table);
  CHECK(replay["log"].size() == log.size());
  for (const auto& ack : g.acknowledged) {
    const auto seq = ack["seq"].get<std::size_t>();
    REQUIRE(seq >= 1);
    REQUIRE(seq <= log.size());
    CHECK(log[seq - 1] == ack);
  }
  check_schemas(g.a);
  check_schemas(g.b);
}

TEST_CASE("PostgreSQL stopped mid-game: moves refused with storage_unavailable, nothing acknowledged lost, "
          "play resumes once it is back" *
          doctest::skip(!kOnPostgres || ctl_script().empty())) {
  TestServer ts;
  Game g(ts.port());
  for (int i = 0; i < 3; ++i) {
    auto [s, r] = g.pending();
    REQUIRE(g.act(s, r)["type"] == "accepted");
  }
  auto [s, r] = g.pending();
  REQUIRE(std::system((ctl_script() + " stop").c_str()) == 0);
  // Twice: the first finds the connection gone, the second cannot connect.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const json refused = g.act(s, r);
    CHECK(refused["code"] == "storage_unavailable");
  }
  CHECK(get_json(ts.port(), "/healthz", 200)["storage"] == "unavailable");
  CHECK(g.a.call({{"type", "list_tables"}})["type"] == "tables");  // the lobby goes on
  REQUIRE(std::system((ctl_script() + " start").c_str()) == 0);

  CHECK(g.act(s, r)["type"] == "accepted");
  play_out({&g.a, &g.b}, g.table);
  CHECK(get_json(ts.port(), "/healthz", 200)["storage"] == "ok");
  // Every acknowledged move is stored, in order, and the refused ones are not.
  const auto log = stored_log(ts.config.db, g.table);
  for (const auto& ack : g.acknowledged) {
    const auto seq = ack["seq"].get<std::size_t>();
    REQUIRE(seq >= 1);
    REQUIRE(seq <= log.size());
    CHECK(log[seq - 1] == ack);
  }
  // The server restarted on the same database finds the finished game there.
  ts.restart();
  const json replay = get_json(ts.port(), "/api/games/" + g.table, 200);
  CHECK(replay["log"].size() == log.size());
}

TEST_CASE("PostgreSQL: a COMMIT whose connection is cut on its way is settled by asking the database" *
          doctest::skip(!kOnPostgres)) {
  TestServer ts;
  Game g(ts.port());
  auto [s1, r1] = g.pending();
  REQUIRE(g.act(s1, r1)["type"] == "accepted");
  auto [s2, r2] = g.pending();
  // A deferred trigger holds the next COMMIT for two seconds, long enough to
  // cut its connection while it is under way.
  {
    casa::server::Db db(ts.config.db, false);
    db.exec(
        "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$");
    db.exec(
        "CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON actions DEFERRABLE INITIALLY DEFERRED "
        "FOR EACH ROW EXECUTE FUNCTION slow_commit()");
  }
  WsClient& c = g.seat(s2);
  c.send({{"type", "action"}, {"table", g.table}, {"seq", r2["seq"]}, {"action", r2["legal"][0]}});
  std::this_thread::sleep_for(700ms);  // the COMMIT is waiting on the trigger
  REQUIRE(terminate_connections(ts.config.db) >= 1);
  // The database rolled the transaction back: the move is refused, and only
  // once the store heard so from the database.
  const json reply = c.expect("error");
  CHECK(reply["code"] == "storage_unavailable");
  CHECK(stored_log(ts.config.db, g.table).size() == 1);
  {
    casa::server::Db db(ts.config.db, false);
    db.exec("DROP TRIGGER slow_commit ON actions");
  }
  c.send({{"type", "resync"}, {"table", g.table}});
  c.expect("table_state");
  CHECK(g.act(s2, c.expect("request"))["type"] == "accepted");
  play_out({&g.a, &g.b}, g.table);
  CHECK(get_json(ts.port(), "/api/games/" + g.table, 200)["log"].size() ==
        stored_log(ts.config.db, g.table).size());
}
