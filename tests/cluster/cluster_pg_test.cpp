// Leases, fencing and the bus against a real PostgreSQL (tests/cluster/
// pg_fixture.sh starts one; CASA_TEST_PG names its URI). docs/cluster.md.
#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/cluster_bus.h"
#include "server/cluster_lease.h"
#include "server/cluster_pg.h"

using namespace casa::server;
using namespace std::chrono_literals;

namespace {

std::string conninfo() {
  const char* v = std::getenv("CASA_TEST_PG");
  REQUIRE_MESSAGE(v != nullptr, "CASA_TEST_PG must name the test database");
  return v;
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
