// SPDX-License-Identifier: AGPL-3.0-or-later
// Leases, fencing and the bus against a real PostgreSQL (scripts/pg-test-cluster.sh
// starts one; CASA_TEST_PG names its URL). docs/cluster.md.
#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/cluster/bus.h"
#include "server/store/lease.h"
#include "server/store/pg.h"
#include "server/store/store.h"

using namespace casa::server;
using namespace std::chrono_literals;

namespace {

// A database of these tests' own (casa_cluster_pg), made afresh on the server
// CASA_TEST_PG names: that server is shared with other suites.
std::string conninfo() {
  static const std::string url = [] {
    const char* v = std::getenv("CASA_TEST_PG");
    REQUIRE_MESSAGE(v != nullptr, "CASA_TEST_PG must name the test database");
    PgConn admin(v);
    admin.exec("DROP DATABASE IF EXISTS casa_cluster_pg");
    admin.exec("CREATE DATABASE casa_cluster_pg");
    const std::string base = v;
    return base.substr(0, base.rfind('/') + 1) + "casa_cluster_pg";
  }();
  return url;
}

// A fresh schema for one test case: the cluster tables of migration 0008.
void fresh_schema() {
  PgConn c(conninfo());
  c.exec("DROP TABLE IF EXISTS table_leases, nodes, cluster_relay");
  std::ifstream in(std::string(CASA_SOURCE_DIR) + "/migrations/postgres/0008_cluster.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  // Statement by statement (PQexecParams runs one at a time).
  std::string all = sql.str(), stmt;
  std::istringstream lines(all);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("--", 0) == 0) continue;
    stmt += line + "\n";
    if (line.find(';') != std::string::npos) {
      c.exec(stmt);
      stmt.clear();
    }
  }
}

// kFenceLeaseSql with $n placeholders, for a bare libpq connection.
std::string fence_sql() {
  std::string out;
  int n = 0;
  for (const char* p = kFenceLeaseSql; *p; ++p) {
    if (*p == '?') out += "$" + std::to_string(++n);
    else out += *p;
  }
  return out;
}

bool holds(const std::vector<Lease>& leases, const std::string& table, std::int64_t epoch) {
  for (const auto& l : leases) {
    if (l.table == table && l.epoch == epoch) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a table's lease belongs to one node; an expired one is claimed under the next epoch") {
  fresh_schema();
  Leases a(conninfo(), "node-a", 1);
  Leases b(conninfo(), "node-b", 1);

  REQUIRE(a.acquire("t1") == std::optional<std::int64_t>(1));
  CHECK_FALSE(b.acquire("t1").has_value());  // held by a
  CHECK(holds(a.renew(), "t1", 1));
  CHECK(b.claim_expired(10).empty());         // not expired yet
  auto owner = b.owner("t1");
  REQUIRE(owner);
  CHECK(owner->node == "node-a");
  CHECK(owner->live);

  std::this_thread::sleep_for(1300ms);  // a stops renewing: paused or dead
  const auto claimed = b.claim_expired(10);
  REQUIRE(claimed.size() == 1);
  CHECK(claimed[0].table == "t1");
  CHECK(claimed[0].epoch == 2);
  CHECK(b.owner("t1")->node == "node-b");

  // a comes back: its renewal no longer returns the table, so it drops it.
  CHECK_FALSE(holds(a.renew(), "t1", 1));
  CHECK(a.renew().empty());
  CHECK(holds(b.renew(), "t1", 2));
  CHECK(a.live_nodes() == std::vector<std::string>{"node-a", "node-b"});
}

TEST_CASE("fencing: a write under a lost epoch finds no lease, one under the live epoch does") {
  fresh_schema();
  Leases a(conninfo(), "node-a", 1);
  Leases b(conninfo(), "node-b", 1);
  REQUIRE(a.acquire("t1") == std::optional<std::int64_t>(1));

  PgConn writer(conninfo());
  CHECK(writer.exec(fence_sql(), {"t1", "node-a", "1"}).size() == 1);
  CHECK(writer.exec(fence_sql(), {"t1", "node-b", "1"}).empty());  // not its lease

  // Expired but not yet claimed: the holder may not write either.
  std::this_thread::sleep_for(1300ms);
  CHECK(writer.exec(fence_sql(), {"t1", "node-a", "1"}).empty());
  REQUIRE(b.claim_expired(10).size() == 1);
  CHECK(writer.exec(fence_sql(), {"t1", "node-a", "1"}).empty());
  CHECK(writer.exec(fence_sql(), {"t1", "node-b", "2"}).size() == 1);
}

TEST_CASE("fencing: a claim waits out the transaction that passed the fence") {
  fresh_schema();
  Leases a(conninfo(), "node-a", 1);
  Leases b(conninfo(), "node-b", 1);
  REQUIRE(a.acquire("t1") == std::optional<std::int64_t>(1));

  PgConn writer(conninfo());
  writer.exec("CREATE TABLE IF NOT EXISTS fenced_writes (table_id TEXT, epoch BIGINT)");
  writer.exec("BEGIN");
  REQUIRE(writer.exec(fence_sql(), {"t1", "node-a", "1"}).size() == 1);
  std::this_thread::sleep_for(1300ms);  // the lease expires while the row is share-locked
  // The claim skips the locked row instead of taking the table under a write
  // in flight.
  CHECK(b.claim_expired(10).empty());
  writer.exec("INSERT INTO fenced_writes VALUES ('t1', 1)");
  writer.exec("COMMIT");
  // Now it is claimed, after the write: the new owner's replay contains it.
  const auto claimed = b.claim_expired(10);
  REQUIRE(claimed.size() == 1);
  CHECK(claimed[0].epoch == 2);
  CHECK(writer.exec("SELECT count(*) FROM fenced_writes").at(0).at(0) == std::optional<std::string>("1"));
  writer.exec("DROP TABLE fenced_writes");
}

TEST_CASE("fencing: a new table's acquire does not take a lease under a write in flight either") {
  fresh_schema();
  Leases a(conninfo(), "node-a", 1);
  Leases b(conninfo(), "node-b", 1);
  REQUIRE(a.acquire("t1") == std::optional<std::int64_t>(1));

  PgConn writer(conninfo());
  writer.exec("BEGIN");
  REQUIRE(writer.exec(fence_sql(), {"t1", "node-a", "1"}).size() == 1);
  std::this_thread::sleep_for(1300ms);  // expired, and locked by the write
  CHECK_FALSE(b.acquire("t1").has_value());
  writer.exec("COMMIT");
  CHECK(b.acquire("t1") == std::optional<std::int64_t>(2));
  CHECK(b.owner("t1")->node == "node-b");
}

// The lease round updates many rows of a node in one statement while the same
// node's group commit locks the rows of the tables it writes, one job after the
// other, in no particular order. Were the two to lock each other's rows (the
// fence taking FOR SHARE, which a renewal's FOR NO KEY UPDATE waits for), the
// renewal could hold t1 and wait for t2 while the commit holds t2 and waits for
// t1: a deadlock, which PostgreSQL breaks by failing one of them.
TEST_CASE("locks: a renewal neither waits for a fenced commit nor makes it wait, so the two cannot deadlock") {
  fresh_schema();
  Leases a(conninfo(), "node-a", 30);
  Leases renewer(conninfo(), "node-a", 30);  // the lease round's own connection
  REQUIRE(a.acquire("t1"));
  REQUIRE(a.acquire("t2"));

  PgConn writer(conninfo());  // the store's group commit
  writer.exec("BEGIN");
  REQUIRE(writer.exec(fence_sql(), {"t2", "node-a", "1"}).size() == 1);
  std::atomic<bool> renewed{false};
  std::vector<Lease> still;
  std::string renew_error;
  std::thread round([&] {
    try {
      still = renewer.renew();
    } catch (const std::exception& e) {
      renew_error = e.what();
    }
    renewed = true;
  });
  // The renewal passes the row the commit holds...
  for (int i = 0; i < 100 && !renewed; ++i) std::this_thread::sleep_for(20ms);
  CHECK(renewed.load());
  // ...and the commit locks the next row the renewal updated, then commits.
  std::string write_error;
  try {
    CHECK(writer.exec(fence_sql(), {"t1", "node-a", "1"}).size() == 1);
    writer.exec("COMMIT");
  } catch (const std::exception& e) {
    write_error = e.what();
    writer.exec("ROLLBACK");
  }
  round.join();
  CHECK_MESSAGE(write_error.empty(), write_error);
  CHECK_MESSAGE(renew_error.empty(), renew_error);
  CHECK(holds(still, "t1", 1));
  CHECK(holds(still, "t2", 1));

  // A release of the same node passes a fenced commit too, and a claim still
  // skips the row that commit holds.
  Leases b(conninfo(), "node-b", 30);
  writer.exec("BEGIN");
  REQUIRE(writer.exec(fence_sql(), {"t1", "node-a", "1"}).size() == 1);
  renewer.release_all();
  const auto claimed = b.claim_expired(10);
  REQUIRE(claimed.size() == 1);
  CHECK(claimed[0].table == "t2");
  writer.exec("COMMIT");
  CHECK(b.claim_expired(10).size() == 1);
}

TEST_CASE("released leases are claimed at once") {
  fresh_schema();
  Leases a(conninfo(), "node-a", 30);
  Leases b(conninfo(), "node-b", 30);
  REQUIRE(a.acquire("t1"));
  REQUIRE(a.acquire("t2"));
  CHECK(b.claim_expired(10).empty());
  a.release_all();
  CHECK(b.claim_expired(10).size() == 2);
  CHECK(a.renew().empty());
}

TEST_CASE("node ids") {
  CHECK(valid_node_id("node-a_1"));
  CHECK_FALSE(valid_node_id(""));
  CHECK_FALSE(valid_node_id("a b"));
  CHECK_FALSE(valid_node_id("a\"b"));
  CHECK_FALSE(valid_node_id(std::string(41, 'a')));
  const auto id = auto_node_id();
  CHECK(valid_node_id(id));
  CHECK(id != auto_node_id());
}

TEST_CASE("the bus carries messages between nodes in order, big ones through the relay") {
  fresh_schema();
  boost::asio::io_context io;
  std::vector<std::string> got_b, got_a;
  Bus a(io, conninfo(), "node-a", [&](std::string m) { got_a.push_back(std::move(m)); });
  Bus b(io, conninfo(), "node-b", [&](std::string m) { got_b.push_back(std::move(m)); });
  a.start();
  b.start();

  const std::string big(20000, 'x');
  a.send("node-b", "one");
  a.send("node-b", big);
  a.send("node-b", "three");
  b.send("node-a", "back");

  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while ((got_b.size() < 3 || got_a.empty()) && std::chrono::steady_clock::now() < deadline) {
    io.run_for(50ms);
  }
  REQUIRE(got_b.size() == 3);
  CHECK(got_b[0] == "one");
  CHECK(got_b[1] == big);
  CHECK(got_b[2] == "three");
  REQUIRE(got_a.size() == 1);
  CHECK(got_a[0] == "back");
  CHECK(a.relayed() == 1);  // sent through the relay
  CHECK(b.relayed() == 1);  // received through it
  // The relay keeps nothing once read.
  PgConn c(conninfo());
  CHECK(c.exec("SELECT count(*) FROM cluster_relay").at(0).at(0) == std::optional<std::string>("0"));
  a.stop();
  b.stop();
  io.run_for(50ms);
}

namespace {
// Waits for a store callback's outcome.
struct Outcome {
  std::mutex m;
  std::condition_variable cv;
  std::map<std::string, bool> ok;
  Store::Done done(const std::string& name) {
    return [this, name](bool v) {
      std::lock_guard lock(m);
      ok[name] = v;
      cv.notify_all();
    };
  }
  void wait(std::size_t n) {
    std::unique_lock lock(m);
    REQUIRE(cv.wait_for(lock, 10s, [&] { return ok.size() >= n; }));
  }
};
}  // namespace

TEST_CASE("the store's fence refuses only the writes of the table it fails for, in the same group commit") {
  const auto dir = std::filesystem::temp_directory_path() / ("casa-fence-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    Store store((dir / "casa.db").string());
    std::atomic<bool> lost{false};
    store.set_fence("node-a", [&](Db&, const std::string& table) -> std::int64_t {
      if (table == "t-lost" && lost) throw std::runtime_error("lease lost");
      return 7;
    });
    Outcome first;
    // Rows the fenced writes refer to: a refusal must come from the fence alone.
    store.save_player({"p1", "ann", "h1"}, first.done("p1"));
    store.save_player({"p2", "bob", "h2"}, first.done("p2"));
    for (const char* id : {"t-kept", "t-lost"}) {
      StoredTable t;
      t.id = id;
      t.game = "fake";
      t.players = 2;
      t.creator = "p1";
      t.invite = std::string("INV-") + id;
      t.seats.resize(2);
      store.save_table(t, first.done(id));
    }
    first.wait(4);
    CHECK(first.ok["p1"]);
    CHECK(first.ok["t-kept"]);
    CHECK(first.ok["t-lost"]);

    lost = true;
    Outcome second;
    // Queued together: one group commit, retried job by job.
    store.append_action("t-kept", {1, 0, "{\"a\":1}", ""}, {}, std::nullopt, second.done("kept action"));
    store.append_action("t-lost", {1, 0, "{\"a\":1}", ""}, {}, std::nullopt, second.done("lost action"));
    store.append_chat("t-lost", {0, "p1", 0, false, "hello"},
                      [&](bool ok, std::int64_t) { second.done("lost chat")(ok); });
    store.save_seat("t-lost", 1, {"p2", "", false}, second.done("lost seat"));
    store.close_table("t-lost", second.done("lost close"));
    store.save_seat("t-kept", 1, {"p2", "", false}, second.done("kept seat"));
    second.wait(6);
    CHECK(second.ok["kept seat"]);
    CHECK(second.ok["kept action"]);
    CHECK_FALSE(second.ok["lost action"]);
    CHECK_FALSE(second.ok["lost chat"]);
    CHECK_FALSE(second.ok["lost seat"]);
    CHECK_FALSE(second.ok["lost close"]);

    const auto kept = store.load_table("t-kept");
    REQUIRE(kept);
    CHECK(kept->actions.size() == 1);
    // The row names its writer and the epoch the fence checked.
    store.read([](Db& db) {
      auto& q = db.prepare("SELECT node_id, lease_epoch FROM actions WHERE table_id = 't-kept' AND seq = 1");
      REQUIRE(q.step());
      CHECK(q.text_at(0) == "node-a");
      CHECK(q.int_at(1) == 7);
      q.run();
    });
    const auto fenced = store.load_table("t-lost");
    REQUIRE(fenced);
    CHECK(fenced->actions.empty());
    CHECK(fenced->chat.empty());
    CHECK(fenced->seats[1].player_id.empty());
    CHECK(fenced->status == "waiting");
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("a one-node store, without a lease, logs actions with no writer and no epoch") {
  const auto dir = std::filesystem::temp_directory_path() / ("casa-nofence-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    Store store((dir / "casa.db").string());
    Outcome o;
    store.save_player({"p1", "ann", "h1"}, o.done("p1"));
    StoredTable t;
    t.id = "t1";
    t.game = "fake";
    t.players = 2;
    t.creator = "p1";
    t.invite = "INV-t1";
    t.seats.resize(2);
    store.save_table(t, o.done("t1"));
    store.append_action("t1", {1, 0, "{\"a\":1}", ""}, {}, std::nullopt, o.done("action"));
    o.wait(3);
    REQUIRE(o.ok["action"]);
    store.read([](Db& db) {
      auto& q = db.prepare("SELECT node_id IS NULL, lease_epoch IS NULL FROM actions WHERE table_id = 't1'");
      REQUIRE(q.step());
      CHECK(q.int_at(0) == 1);
      CHECK(q.int_at(1) == 1);
      q.run();
    });
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
