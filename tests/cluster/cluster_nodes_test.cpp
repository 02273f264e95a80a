// SPDX-License-Identifier: AGPL-3.0-or-later
// Several casa_test_server processes on one PostgreSQL database (docs/cluster.md):
// one lobby, tables played from any node, a dead owner taken over, a paused
// owner fenced off. CASA_TEST_PG names the fixture's database; each test case
// makes a database of its own in it.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <map>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "server/cluster/cluster.h"
#include "server/store/lease.h"
#include "server/store/pg.h"
#include "tests/server/child_server.h"
#include "tests/server/support.h"

using namespace casa::testing;
using casa::server::PgConn;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr int kLease = 2;  // seconds: short, so that the takeovers of these tests are quick

// A fresh database beside the fixture's; its URI.
std::string fresh_database() {
  const char* base = std::getenv("CASA_TEST_PG");
  REQUIRE_MESSAGE(base != nullptr, "CASA_TEST_PG must name the test database");
  static std::random_device rd;
  const std::string name = "casa_nodes_" + std::to_string(rd() % 1000000000u);
  PgConn admin(base);
  admin.exec("CREATE DATABASE " + name);
  std::string uri = base;
  return uri.substr(0, uri.rfind('/') + 1) + name;
}

struct Node : ChildServer {
  std::string id;
};

Node spawn_node(const std::string& db, const std::string& id, std::vector<std::string> extra = {}) {
  std::vector<std::string> flags = {"--node-id", id, "--lease-seconds", std::to_string(kLease),
                                    "--players-per-address-per-hour", "1000000"};
  flags.insert(flags.end(), extra.begin(), extra.end());
  Node n{spawn_server(db, flags), id};
  return n;
}

void kill_node(Node& n, int sig = SIGKILL) {
  if (n.pid < 0) return;
  kill(n.pid, SIGCONT);  // a paused node must be able to die
  kill(n.pid, sig);
  int status = 0;
  waitpid(n.pid, &status, 0);
  std::fclose(n.out);
  n.pid = -1;
}

struct Nodes {
  std::string db;
  std::vector<Node> nodes;
  // `extra`: flags every node gets.
  explicit Nodes(int n, const std::vector<std::string>& extra = {}) : db(fresh_database()) {
    for (int i = 0; i < n; ++i) nodes.push_back(spawn_node(db, std::string(1, static_cast<char>('a' + i)), extra));
  }
  ~Nodes() {
    for (auto& n : nodes) kill_node(n);
  }
  Node& operator[](std::size_t i) { return nodes[i]; }
};

// The node whose lease holds `table`, and its epoch.
std::pair<std::string, std::int64_t> owner(const std::string& db, const std::string& table) {
  PgConn c(db);
  const auto rows = c.exec("SELECT node_id, epoch FROM table_leases WHERE table_id = $1", {table});
  REQUIRE(rows.size() == 1);
  return {rows[0][0].value_or(""), std::stoll(rows[0][1].value_or("0"))};
}

// Answers requests (first legal action) and records every `accepted`, until
// `stop` says so or the time runs out.
struct Player {
  WsClient* client;
  int seat;
};
void play_until(std::vector<Player> players, const std::string& table, std::vector<json>& acknowledged,
                const std::function<bool()>& stop, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::map<WsClient*, json> sent;  // the action awaiting its accepted
  while (!stop() && std::chrono::steady_clock::now() < deadline) {
    for (auto& p : players) {
      auto m = p.client->recv(5ms);
      if (!m) continue;
      const std::string type = (*m)["type"];
      if (type == "request" && (*m)["table"] == table) {
        json action = (*m)["legal"][0];
        p.client->send({{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", action}, {"id", 1}});
        sent[p.client] = {{"seat", p.seat}, {"action", action}};
      } else if (type == "accepted" && sent.count(p.client)) {
        json ack = sent[p.client];
        ack["seq"] = (*m)["seq"];
        acknowledged.push_back(ack);
        sent.erase(p.client);
      } else if (type == "game_over") {
        p.client->log.push_back(*m);
      }
    }
  }
}

bool over_for(const WsClient& c, const std::string& table) {
  for (const auto& m : c.log) {
    if (m["type"] == "game_over" && m["table"] == table) return true;
  }
  return false;
}

// Every acknowledged action is in the stored log, at its seq, in order.
void check_acknowledged(const json& replay, const std::vector<json>& acknowledged) {
  for (const auto& ack : acknowledged) {
    const auto seq = ack["seq"].get<std::size_t>();
    REQUIRE(seq >= 1);
    REQUIRE(seq <= replay["log"].size());
    const json& logged = replay["log"][seq - 1];
    CHECK(logged["seat"] == ack["seat"]);
    CHECK(logged["action"] == ack["action"]);
  }
}

// A logged action's writer (migration 0010): the node and its lease epoch.
struct ActionRow {
  std::int64_t seq = 0;
  std::string node;
  std::int64_t epoch = 0;
};
std::vector<ActionRow> action_rows(const std::string& db, const std::string& table) {
  PgConn c(db);
  std::vector<ActionRow> out;
  const auto rows =
      c.exec("SELECT seq, node_id, lease_epoch FROM actions WHERE table_id = $1 ORDER BY seq", {table});
  for (const auto& r : rows) {
    REQUIRE_MESSAGE(r[1].has_value(), "an action without its writer");
    REQUIRE_MESSAGE(r[2].has_value(), "an action without its epoch");
    out.push_back({std::stoll(r[0].value_or("0")), *r[1], std::stoll(*r[2])});
  }
  return out;
}

// Along seq the epochs never go down, and each epoch is one node's.
void check_writers(const std::vector<ActionRow>& rows) {
  std::map<std::int64_t, std::string> node_of;
  std::int64_t last = 0;
  for (const auto& r : rows) {
    INFO("seq " << r.seq << " by " << r.node << " under epoch " << r.epoch);
    CHECK(r.epoch >= last);
    last = r.epoch;
    auto [it, fresh] = node_of.emplace(r.epoch, r.node);
    if (!fresh) CHECK(it->second == r.node);
  }
}

}  // namespace

TEST_CASE("one lobby: a table run by node b is listed and played from node a; an invite made on a is joined on b") {
  Nodes n(2);
  WsClient ann(n[1].port), bob(n[0].port);  // ann on b, bob on a
  ann.hello("ann");
  bob.hello("bob");
  const json created = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 3}}}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  CHECK(owner(n.db, table).first == "b");

  // The lobby of node a lists the table node b runs.
  const json list = bob.call({{"type", "list_tables"}});
  bool listed = false;
  for (const auto& t : list["tables"]) listed = listed || t["table"] == table;
  CHECK(listed);

  // bob plays it from node a: every frame he gets crossed the bus.
  const json joined = bob.call({{"type", "join"}, {"table", table}});
  REQUIRE(joined["type"] == "joined");
  play_out({&ann, &bob}, table);
  const json replay = get_json(n[0].port, "/api/games/" + table, 200);
  CHECK(check_no_leak(bob, 1, replay) > 0);
  check_no_leak(ann, 0, replay);
  check_schemas(bob);

  // A private table made on node a, joined by its invite on node b.
  const json secret = create(bob, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"private", true}, {"options", {{"hand", 3}}}});
  REQUIRE(secret["type"] == "table_created");
  CHECK(owner(n.db, secret["table"]).first == "a");
  const json by_invite = ann.call({{"type", "join"}, {"invite", secret["invite"]}});
  CHECK(by_invite["type"] == "joined");
  CHECK(by_invite["table"] == secret["table"]);

  // A resume token from node b works on node a.
  WsClient again(n[0].port);
  CHECK(again.hello("", ann.token())["resumed"] == true);
  CHECK(again.player_id == ann.player_id);
}

TEST_CASE("a private table run by node a: by its id alone refused from node b, with the answer back over the bus") {
  Nodes n(2);
  WsClient ann(n[0].port), bob(n[1].port), eve(n[1].port);  // ann on a; bob and eve on b
  ann.hello("ann");
  bob.hello("bob");
  eve.hello("eve");
  const json secret =
      create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"private", true}, {"options", {{"hand", 3}}}});
  REQUIRE(secret["type"] == "table_created");
  const std::string table = secret["table"];
  CHECK(owner(n.db, table).first == "a");
  // Node b forwards to node a, which refuses; the refusal comes back (a call
  // with no answer would throw after 5 s).
  CHECK(eve.call({{"type", "spectate"}, {"table", table}})["code"] == "private_table");
  CHECK(eve.call({{"type", "join"}, {"table", table}})["code"] == "private_table");
  CHECK(eve.call({{"type", "resync"}, {"table", table}})["code"] == "private_table");
  // With the code, from node b: joined.
  REQUIRE(bob.call({{"type", "join"}, {"invite", secret["invite"]}})["type"] == "joined");
  // A spectator from node b with the code beside the id.
  CHECK(eve.call({{"type", "spectate"}, {"table", table}, {"invite", secret["invite"]}})["type"] == "spectating");
  CHECK(eve.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  play_out({&ann, &bob}, table);
  // Then by its id alone too (a seat). Asked once the game is over: a resync
  // while bob must act would send his pending request again, and play_out
  // would answer it twice.
  bob.send({{"type", "resync"}, {"table", table}, {"id", 99}});
  CHECK(bob.find([&](const json& m) { return m["type"] == "table_state" && m["table"] == table; }, 5s).has_value());
  // Its replay, from either node: the code or a seated player's token.
  CHECK(get_json(n[1].port, "/api/tables/" + table + "/replay", 403)["error"] == "private_table");
  CHECK(http_call(n[1].port, boost::beast::http::verb::get, "/api/tables/" + table + "/replay", bob.token()).first == 200);
  CHECK(http_call(n[0].port, boost::beast::http::verb::get, "/api/tables/" + table + "/replay", eve.token()).first == 403);
  check_schemas(eve);
  check_schemas(bob);
}

TEST_CASE("kill -9 of the owner: another node takes the table over, clients resume, nothing acknowledged is lost") {
  Nodes n(3);
  std::string table, token_ann;
  std::vector<json> acknowledged;
  WsClient bob(n[0].port);  // on a, which lives
  bob.hello("bob");
  {
    WsClient ann(n[1].port);  // on b, which dies
    ann.hello("ann");
    token_ann = ann.token();
    const json made = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 5}}}});
    REQUIRE_MESSAGE(made["type"] == "table_created", made.dump());
    table = made["table"];
    REQUIRE(bob.call({{"type", "join"}, {"table", table}})["type"] == "joined");
    play_until({{&ann, 0}, {&bob, 1}}, table, acknowledged, [&] { return acknowledged.size() >= 6; }, 20s);
    REQUIRE(acknowledged.size() >= 6);
    REQUIRE(owner(n.db, table).first == "b");
    kill_node(n[1]);
  }
  const auto killed = std::chrono::steady_clock::now();
  // ann reconnects to node c, as a proxy would send her, and resumes.
  WsClient ann(n[2].port);
  CHECK(ann.hello("", token_ann)["resumed"] == true);
  // Both get the table's state from its new owner once it is taken over.
  const auto state = ann.find([&](const json& m) { return m["type"] == "table_state" && m["table"] == table; },
                              std::chrono::seconds(4 * kLease + 5));
  REQUIRE(state);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
  std::printf("cluster takeover after kill -9: table_state after %.1f s (lease %d s)\n", took, kLease);
  CHECK((*state)["seq"].get<std::size_t>() >= acknowledged.size());
  const auto [node, epoch] = owner(n.db, table);
  CHECK(node != "b");
  CHECK(epoch >= 2);

  play_until({{&ann, 0}, {&bob, 1}}, table, acknowledged, [&] { return over_for(ann, table) && over_for(bob, table); },
             30s);
  REQUIRE(over_for(ann, table));
  REQUIRE(over_for(bob, table));
  const json replay = get_json(n[0].port, "/api/games/" + table, 200);
  check_acknowledged(replay, acknowledged);
  check_no_leak(bob, 1, replay);
  check_no_leak(ann, 0, replay);
  const auto rows = action_rows(n.db, table);
  CHECK(rows.size() == replay["log"].size());
  check_writers(rows);
  CHECK(rows.front().node == "b");
  CHECK(rows.back().node == node);
}

TEST_CASE("SIGSTOP past the lease: the paused owner writes nothing more, and its player plays on at the new owner") {
  Nodes n(2);
  std::vector<json> acknowledged;
  WsClient ann(n[1].port), bob(n[0].port);  // ann on b (paused), bob on a
  ann.hello("ann");
  bob.hello("bob");
  const json made = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 5}}}});
  REQUIRE_MESSAGE(made["type"] == "table_created", made.dump());
  const std::string table = made["table"];
  REQUIRE(bob.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  play_until({{&ann, 0}, {&bob, 1}}, table, acknowledged, [&] { return acknowledged.size() >= 4; }, 20s);
  // On to ann's turn: her request stays unanswered until b is paused.
  std::optional<json> held;
  play_until({{&bob, 1}}, table, acknowledged, [&] {
    if (!held) held = ann.find([&](const json& m) { return m["type"] == "request" && m["table"] == table; }, 5ms);
    return held.has_value();
  }, 20s);
  REQUIRE(held);
  REQUIRE(owner(n.db, table) == std::make_pair(std::string("b"), std::int64_t{1}));

  kill(n[1].pid, SIGSTOP);
  // Node a takes the table over and resyncs bob there.
  const auto state = bob.find([&](const json& m) { return m["type"] == "table_state" && m["table"] == table; },
                              std::chrono::seconds(4 * kLease + 5));
  REQUIRE(state);
  const auto [node, epoch] = owner(n.db, table);
  REQUIRE(node == "a");
  CHECK(epoch >= 2);
  const auto taken_at = static_cast<std::int64_t>(action_rows(n.db, table).size());
  // Every acknowledged move, and maybe one whose accepted was not read yet.
  CHECK(taken_at >= static_cast<std::int64_t>(acknowledged.size()));

  // b wakes up under its old epoch with ann's move (for the request it sent
  // before the pause) and a chat line of hers waiting on its socket: its copy
  // of the table would take the move at once. The fence refuses that write.
  ann.send({{"type", "action"}, {"table", table}, {"seq", (*held)["seq"]}, {"action", (*held)["legal"][0]}, {"id", 1}});
  ann.send({{"type", "chat"}, {"table", table}, {"text", "woke up"}});
  kill(n[1].pid, SIGCONT);
  // ann is resynced at a, the owner now, and the game goes on there.
  const auto again = ann.find([&](const json& m) { return m["type"] == "table_state" && m["table"] == table; },
                              std::chrono::seconds(3 * kLease + 5));
  REQUIRE(again);
  CHECK(owner(n.db, table) == std::make_pair(std::string("a"), epoch));  // b never took it back
  // Nothing of b's after the takeover: ann's move was refused there (or, had
  // b already let the table go, passed on to a and written by a).
  for (const auto& r : action_rows(n.db, table)) {
    INFO("seq " << r.seq << " by " << r.node << " under epoch " << r.epoch);
    if (r.seq > taken_at) CHECK(r.node == "a");
  }

  play_until({{&ann, 0}, {&bob, 1}}, table, acknowledged, [&] { return over_for(ann, table) && over_for(bob, table); },
             40s);
  REQUIRE(over_for(ann, table));
  REQUIRE(over_for(bob, table));
  const json replay = get_json(n[0].port, "/api/games/" + table, 200);
  check_acknowledged(replay, acknowledged);
  check_no_leak(ann, 0, replay);
  check_no_leak(bob, 1, replay);
  CHECK(owner(n.db, table).second == epoch);

  // The rows themselves: b wrote every action up to the takeover under epoch
  // 1, and a every one after it under the epoch it claimed; nothing by b after.
  const auto rows = action_rows(n.db, table);
  REQUIRE(rows.size() == replay["log"].size());
  check_writers(rows);
  for (const auto& r : rows) {
    INFO("seq " << r.seq << " by " << r.node << " under epoch " << r.epoch);
    if (r.seq <= taken_at) {
      CHECK(r.node == "b");
      CHECK(r.epoch == 1);
    } else {
      CHECK(r.node == "a");
      CHECK(r.epoch == epoch);
    }
  }
}

// ---- operations across nodes (docs/operations.md) ------------------------------

namespace {

const std::string kAdmin = "cluster-admin-token-0123456789abcdef";

json admin(unsigned short port, boost::beast::http::verb verb, const std::string& target, int& status,
           const std::string& body = "") {
  auto [code, text] = http_call(port, verb, target, kAdmin, body);
  status = code;
  return json::parse(text, nullptr, false);
}

// The value of a sample of a /metrics text ("name" or "name{labels}" as written), or -1.
double sample(const std::string& text, const std::string& key) {
  const std::string at = "\n" + key + " ";
  const auto i = text.find(at);
  if (i == std::string::npos) return -1;
  return std::stod(text.substr(i + at.size()));
}

}  // namespace

TEST_CASE("admin API on any node: lists every node's tables, closes a table another node runs, disconnects and bans everywhere") {
  Nodes n(2, {"--admin-token", kAdmin});
  WsClient ann(n[1].port), bob(n[1].port), cy(n[0].port);  // ann and bob on b, cy on a
  ann.hello("ann");
  bob.hello("bob");
  cy.hello("cy");
  const json made = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 5}}}});
  REQUIRE(made["type"] == "table_created");
  const std::string table = made["table"];
  REQUIRE(bob.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  const json waiting = create(cy, {{"game", "fake-trick"}, {"players", 2}, {"private", true}, {"rated", false},
                                   {"options", {{"hand", 3}}}});
  REQUIRE(waiting["type"] == "table_created");
  REQUIRE(owner(n.db, table).first == "b");

  // Listed on a: a's own table, and b's with its node and seats.
  int status = 0;
  std::map<std::string, json> listed;
  const json all = admin(n[0].port, boost::beast::http::verb::get, "/api/admin/tables", status);
  REQUIRE_MESSAGE(status == 200, all.dump());
  for (const auto& t : all["tables"]) listed[t["table"].get<std::string>()] = t;
  CAPTURE(all.dump());
  REQUIRE(listed.count(table));
  REQUIRE(listed.count(waiting["table"]));
  CHECK(listed[table]["node"] == "b");
  CHECK(listed[table]["local"] == false);
  CHECK(listed[table]["status"] == "playing");
  CHECK(listed[table]["seats"][0]["player_id"] == ann.player_id);
  CHECK(listed[table]["seats"][1]["player_id"] == bob.player_id);
  CHECK(listed[waiting["table"]]["node"] == "a");
  CHECK(listed[waiting["table"]]["local"] == true);
  CHECK(listed[waiting["table"]]["private"] == true);

  // Closed from a: b closes it, and its players on b hear why.
  const std::string reason = "Closed by the operators: node b is being retired.";
  const json closed = admin(n[0].port, boost::beast::http::verb::post, "/api/admin/tables/" + table + "/close",
                            status, json{{"reason", reason}}.dump());
  CHECK(status == 202);
  CHECK(closed["node"] == "b");
  CHECK(closed["closing"] == true);
  for (WsClient* c : {&ann, &bob}) {
    const auto m = c->find([&](const json& x) { return x["type"] == "table_closed" && x["table"] == table; }, 5s);
    REQUIRE(m);
    CHECK((*m)["reason"] == "admin");
    CHECK((*m)["message"] == reason);
  }
  {
    PgConn c(n.db);
    std::vector<std::vector<std::optional<std::string>>> rows;
    for (int i = 0; i < 100; ++i) {
      rows = c.exec("SELECT status, closed_reason FROM tables WHERE id = $1", {table});
      if (!rows.empty() && rows[0][1]) break;
      std::this_thread::sleep_for(20ms);
    }
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0].value_or("") == "closed");
    CHECK(rows[0][1].value_or("") == reason);
  }
  // Closed already: b says so. No such table anywhere: 404.
  admin(n[0].port, boost::beast::http::verb::post, "/api/admin/tables/" + table + "/close", status, R"({"reason":"x"})");
  CHECK(status == 409);
  admin(n[0].port, boost::beast::http::verb::post, "/api/admin/tables/tnosuchone/close", status, R"({"reason":"x"})");
  CHECK(status == 404);

  // Disconnect from a: dan is connected to b only.
  WsClient dan(n[1].port);
  dan.hello("dan");
  const json dropped =
      admin(n[0].port, boost::beast::http::verb::post, "/api/admin/players/" + dan.player_id + "/disconnect", status);
  CHECK(status == 200);
  CHECK(dropped["disconnected"] == true);
  CHECK(dropped["nodes"] == json::array({"b"}));
  CHECK(dan.wait_closed(5s));
  admin(n[0].port, boost::beast::http::verb::post, "/api/admin/players/pnosuchone/disconnect", status);
  CHECK(status == 404);

  // A ban made on a: eve, connected to b, is dropped there, and no node lets her in.
  WsClient eve(n[1].port);
  eve.hello("eve");
  const std::string eve_token = eve.token();
  admin(n[0].port, boost::beast::http::verb::post, "/api/admin/players/" + eve.player_id + "/ban", status,
        R"({"reason":"cheating"})");
  CHECK(status == 200);
  const auto told = eve.find([](const json& m) { return m["type"] == "error"; }, 5s);
  REQUIRE(told);
  CHECK((*told)["code"] == "banned");
  CHECK(eve.wait_closed(5s));
  for (std::size_t i = 0; i < 2; ++i) {
    WsClient again(n[i].port);
    CHECK(again.hello("", eve_token)["code"] == "banned");
  }
  const json bans = admin(n[1].port, boost::beast::http::verb::get, "/api/admin/bans", status);
  REQUIRE(bans["bans"].size() == 1);
  CHECK(bans["bans"][0]["player_id"] == eve.player_id);
  // Lifted on b: a lets her in again.
  admin(n[1].port, boost::beast::http::verb::delete_, "/api/admin/players/" + eve.player_id + "/ban", status);
  CHECK(status == 200);
  WsClient back(n[0].port);
  CHECK(back.hello("", eve_token)["type"] == "welcome");

  // Each node's /metrics names it and counts its share.
  const std::string a = http_get(n[0].port, "/metrics").second;
  const std::string b = http_get(n[1].port, "/metrics").second;
  CHECK(sample(a, "casa_node_info{node=\"a\"}") == 1);
  CHECK(sample(b, "casa_node_info{node=\"b\"}") == 1);
  CHECK(sample(a, "casa_cluster_tables_owned") == 1);  // cy's waiting table
  CHECK(sample(b, "casa_cluster_tables_owned") == 1);  // the closed one, kept for a while
  CHECK(sample(a, "casa_cluster_bus_messages_total{direction=\"out\"}") >= 3);  // close, disconnect, ban asked of b
  CHECK(sample(b, "casa_cluster_bus_messages_total{direction=\"in\"}") >= 3);
  CHECK(sample(a, "casa_cluster_lease_renew_failures_total") == 0);
  CHECK(sample(a, "casa_cluster_leases_lost_total") == 0);
}

TEST_CASE("a table taken over by another node no longer counts against its creator's limit on the node that lost it") {
  Nodes n(2, {"--max-tables-per-player", "1"});
  WsClient ann(n[1].port);  // on b, which is paused
  ann.hello("ann");
  const json made = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 3}}}});
  REQUIRE(made["type"] == "table_created");
  const std::string table = made["table"];
  // The limit holds on b.
  CHECK(create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}})["code"] == "too_many_tables");

  kill(n[1].pid, SIGSTOP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4 * kLease + 5);
  while (owner(n.db, table).first != "a" && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(100ms);
  REQUIRE(owner(n.db, table).first == "a");
  kill(n[1].pid, SIGCONT);

  // b lets the table go; from then on ann may create one there again.
  json again;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3 * kLease + 5);
  do {
    again = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 3}}}});
    if (again["type"] == "table_created") break;
    CHECK(again["code"] == "too_many_tables");
    std::this_thread::sleep_for(200ms);
  } while (std::chrono::steady_clock::now() < until);
  REQUIRE_MESSAGE(again["type"] == "table_created", again.dump());
  CHECK(owner(n.db, again["table"]).first == "b");
  // And the limit still holds for the one it runs now.
  CHECK(create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}})["code"] == "too_many_tables");
}

TEST_CASE("a node restarted in cluster mode reloads the running duplicate events, as a single node does") {
  Nodes n(1);
  std::string token, event, bots_table, hugo_table;
  {
    WsClient hugo(n[0].port);
    hugo.hello("hugo");
    token = hugo.token();
    // Rotation 0: two bots play the board at once; rotation 1: hugo, the same deal, later.
    const json created = hugo.call(
        {{"type", "create_event"},
         {"game", "la-casa"},
         {"players", 2},
         {"options", {{"rounds", 1}}},
         {"seeds", {4242424242ULL}},
         {"sides",
          {{{"name", "hugo's side"}, {"tables", {{{{"bot", "robot"}}}, {{{"player_id", hugo.player_id}}}}}},
           {{"members", {{{"bot", "random"}}}}}}}});
    REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
    event = created["event"];
    bots_table = created["tables"][0];
    hugo_table = created["tables"][1];
  }
  auto event_page = [&] { return get_json(n[0].port, "/api/events/" + event, 200); };
  auto bots_over = [&] {
    const json page = event_page();
    for (const auto& t : page["tables"]) {
      if (t["table"] == bots_table) return t["status"] == "over";
    }
    return false;
  };
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!bots_over() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(50ms);
  REQUIRE_MESSAGE(bots_over(), event_page().dump());

  kill_node(n[0]);
  n.nodes[0] = spawn_node(n.db, "a");
  // Its tables are claimed again (new epochs) and loaded.
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4 * kLease + 5);
  while ((owner(n.db, hugo_table).second < 2 || owner(n.db, bots_table).second < 2) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(100ms);
  }
  REQUIRE(owner(n.db, hugo_table).second >= 2);
  REQUIRE(owner(n.db, bots_table).second >= 2);

  // The event runs on: its finished board is still withheld from hugo, who has
  // that deal to play.
  WsClient hugo(n[0].port);
  REQUIRE(hugo.hello("", token)["resumed"] == true);
  CHECK(hugo.call({{"type", "spectate"}, {"table", bots_table}})["code"] == "event_table");
  get_json(n[0].port, "/api/games/" + bots_table, 403);
  CHECK(event_page()["status"] == "running");
  // hugo plays his board; the restarted node ends the event, and reveals.
  play_out({&hugo}, hugo_table, first_legal, 60s);
  deadline = std::chrono::steady_clock::now() + 10s;
  while (event_page()["status"] != "over" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
  }
  CHECK(event_page()["status"] == "over");
  get_json(n[0].port, "/api/games/" + bots_table, 200);
}

TEST_CASE(
    "a node that takes over a table of an event created on another node since it started runs that "
    "event") {
  Nodes n(2);  // a starts first: it never loaded the event
  std::string token, event, hugo_table;
  {
    WsClient hugo(n[1].port);
    hugo.hello("hugo");
    token = hugo.token();
    // Rotation 0: hugo against a bot, two boards; rotation 1: two bots.
    const json created =
        hugo.call({{"type", "create_event"},
                   {"game", "la-casa"},
                   {"players", 2},
                   {"options", {{"rounds", 1}}},
                   {"boards", 2},
                   {"seeds", {4242424242ULL, 77ULL}},
                   {"sides",
                    {{{"name", "hugo's side"},
                      {"tables", {{{{"player_id", hugo.player_id}}}, {{{"bot", "robot"}}}}}},
                     {{"members", {{{"bot", "random"}}}}}}}});
    REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
    event = created["event"];
    hugo_table = created["tables"][0];
  }
  auto node_of = [&](const std::string& table) {
    PgConn c(n.db);
    const auto rows = c.exec("SELECT node_id FROM table_leases WHERE table_id = $1", {table});
    return rows.empty() ? std::string() : rows[0][0].value_or("");
  };
  auto stored = [&](const std::string& table) {
    PgConn c(n.db);
    return !c.exec("SELECT 1 FROM tables WHERE id = $1", {table}).empty();
  };
  // b holds the table and has stored it.
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while ((node_of(hugo_table).empty() || !stored(hugo_table)) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
  }
  REQUIRE(node_of(hugo_table) == "b");
  REQUIRE(stored(hugo_table));
  kill_node(n[1]);
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4 * kLease + 5);
  while (node_of(hugo_table) != "a" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(100ms);
  }
  REQUIRE(node_of(hugo_table) == "a");

  // hugo comes back on a; once his table runs there (its state reaches him), a
  // spectator is refused: while the event runs, its deals stay with its players.
  WsClient hugo(n[0].port);
  REQUIRE(hugo.hello("", token)["resumed"] == true);
  bool loaded = false;
  deadline = std::chrono::steady_clock::now() + 15s;
  while (!loaded && std::chrono::steady_clock::now() < deadline) {
    auto m = hugo.recv(50ms);
    if (!m || !m->contains("table") || (*m)["table"] != hugo_table) continue;
    if ((*m)["type"] == "request") {
      hugo.send({{"type", "action"},
                 {"table", hugo_table},
                 {"seq", (*m)["seq"]},
                 {"action", first_legal(*m)}});
    }
    loaded = (*m)["type"] == "table_state" || (*m)["type"] == "request";
  }
  REQUIRE(loaded);
  WsClient sam(n[0].port);
  sam.hello("sam");
  CHECK(sam.call({{"type", "spectate"}, {"table", hugo_table}})["code"] == "event_table");

  // hugo plays board 1 out: a opens board 2 of his rotation, as b would have.
  play_out({&hugo}, hugo_table, first_legal, 60s);
  auto next_board = [&] {
    PgConn c(n.db);
    const auto rows = c.exec(
        "SELECT table_id FROM event_tables WHERE event_id = $1 AND board = 2 AND rotation = 0",
        {event});
    return rows.empty() ? std::string() : rows[0][0].value_or("");
  };
  deadline = std::chrono::steady_clock::now() + 15s;
  while (next_board().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(100ms);
  const std::string board2 = next_board();
  REQUIRE_FALSE(board2.empty());
  CHECK(node_of(board2) == "a");
  CHECK(sam.call({{"type", "spectate"}, {"table", board2}})["code"] == "event_table");
  // hugo is seated there: he plays it to the end on a.
  CHECK_FALSE(play_out({&hugo}, board2, first_legal, 60s)[0].is_null());
}

// ---- a node whose database falls silent (docs/cluster.md, "Partitions") ----------

namespace {

// A TCP relay to PostgreSQL that can hold its bytes: while held it reads
// nothing from either side, so each side's kernel still acknowledges what was
// sent (no error, no reset, keepalives answered) and every call across it
// waits, as across a network that lost its packets and whose timeouts have not
// fired yet: the worst case for a node that must stop serving within its lease.
class HoldingRelay {
 public:
  HoldingRelay(std::string host, unsigned short port) : host_(std::move(host)), port_(port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener_ >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(listener_, 16) == 0);
    socklen_t len = sizeof a;
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    listening_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~HoldingRelay() {
    stop_ = true;
    acceptor_.join();  // first: it adds to threads_
    for (auto& t : threads_) t.join();
    ::close(listener_);
  }
  unsigned short port() const { return listening_; }
  void hold(bool on) { held_ = on; }

 private:
  void accept_loop() {
    while (!stop_) {
      pollfd p{listener_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int in = ::accept(listener_, nullptr, nullptr);
      if (in < 0) continue;
      const int out = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_port = htons(port_);
      ::inet_pton(AF_INET, host_.c_str(), &a.sin_addr);
      if (::connect(out, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(in);
        ::close(out);
        continue;
      }
      std::lock_guard lock(mutex_);
      threads_.emplace_back([this, in, out] { relay(in, out); });
    }
  }
  void relay(int a, int b) {
    char buf[65536];
    while (!stop_) {
      if (held_) {
        std::this_thread::sleep_for(10ms);
        continue;
      }
      pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
      if (::poll(p, 2, 20) <= 0) continue;
      bool closed = false;
      for (int i = 0; i < 2 && !closed; ++i) {
        if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = ::read(p[i].fd, buf, sizeof buf);
        if (n <= 0) {
          closed = true;
          break;
        }
        for (ssize_t sent = 0; sent < n;) {
          const ssize_t w = ::write(p[1 - i].fd, buf + sent, static_cast<std::size_t>(n - sent));
          if (w <= 0) {
            closed = true;
            break;
          }
          sent += w;
        }
      }
      if (closed) break;
    }
    ::close(a);
    ::close(b);
  }

  std::string host_;
  unsigned short port_;
  int listener_ = -1;
  unsigned short listening_ = 0;
  std::atomic<bool> held_{false}, stop_{false};
  std::mutex mutex_;
  std::thread acceptor_;
  std::vector<std::thread> threads_;  // one per relayed connection, added by the acceptor
};

// `uri` (postgres://user@host:port/db) through 127.0.0.1:`port` instead.
std::string via(const std::string& uri, unsigned short port, std::string& host, unsigned short& db_port) {
  const auto at = uri.find('@') + 1;
  const auto colon = uri.find(':', at);
  const auto slash = uri.find('/', colon);
  host = uri.substr(at, colon - at);
  db_port = static_cast<unsigned short>(std::stoi(uri.substr(colon + 1, slash - colon - 1)));
  return uri.substr(0, at) + "127.0.0.1:" + std::to_string(port) + uri.substr(slash);
}

}  // namespace

TEST_CASE("a node whose database falls silent stops serving its tables within its lease, and serves again once "
          "it answers") {
  Nodes n(1);  // a, straight to the database
  std::string host;
  unsigned short db_port = 0;
  std::unique_ptr<HoldingRelay> relay;
  {
    // The relay needs the database's address before b starts on it.
    std::string probe_host;
    unsigned short probe_port = 0;
    via(n.db, 1, probe_host, probe_port);
    relay = std::make_unique<HoldingRelay>(probe_host, probe_port);
  }
  n.nodes.push_back(spawn_node(via(n.db, relay->port(), host, db_port), "b"));
  WsClient ann(n[1].port), bob(n[0].port);  // ann on b, bob on a
  ann.hello("ann");
  bob.hello("bob");
  const json made = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", false}, {"options", {{"hand", 5}}}});
  REQUIRE_MESSAGE(made["type"] == "table_created", made.dump());
  const std::string table = made["table"];
  REQUIRE(bob.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  REQUIRE(owner(n.db, table) == std::make_pair(std::string("b"), std::int64_t{1}));
  auto metrics_of_b = [&] { return http_get(n[1].port, "/metrics").second; };
  REQUIRE(sample(metrics_of_b(), "casa_cluster_tables_owned") == 1);
  REQUIRE(sample(metrics_of_b(), "casa_cluster_cut_off") == 0);
  REQUIRE(http_get(n[1].port, "/healthz").first == 200);

  // Every call of b to the database now waits; its lease thread is stuck in
  // one. b must still give its table up by its own clock, before the database
  // expires the lease it last renewed.
  relay->hold(true);
  PgConn db(n.db);
  const auto expiry = std::stod(db.exec("SELECT extract(epoch FROM expires_at) FROM table_leases "
                                        "WHERE table_id = $1 AND node_id = 'b'",
                                        {table})
                                    .at(0)
                                    .at(0)
                                    .value_or("0"));
  int health = 200;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10 * kLease);
  while ((health = http_get(n[1].port, "/healthz").first) == 200 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
  }
  // Seen by the database's clock: b had let the table go before its lease ran out.
  const auto seen =
      std::stod(db.exec("SELECT extract(epoch FROM clock_timestamp())").at(0).at(0).value_or("0"));
  REQUIRE(health == 503);
  const std::string cut = metrics_of_b();
  CHECK(sample(cut, "casa_cluster_tables_owned") == 0);
  CHECK(sample(cut, "casa_cluster_cut_off") == 1);
  // b drops its tables half a second before its lease runs out by its own
  // count (server/cluster/cluster.cpp, kSelfFenceMargin); the poll adds milliseconds.
  INFO("b was seen cut off " << (expiry - seen) << " s before its lease expired");
  CHECK(seen < expiry);
  // a claims the table once the lease expired, and bob plays on there.
  auto taken = std::chrono::steady_clock::now() + std::chrono::seconds(4 * kLease + 5);
  while (owner(n.db, table).first != "a" && std::chrono::steady_clock::now() < taken) {
    std::this_thread::sleep_for(100ms);
  }
  CHECK(owner(n.db, table).first == "a");

  // The database answers again: b renews, says so, and serves.
  relay->hold(false);
  const auto back = std::chrono::steady_clock::now() + std::chrono::seconds(10 * kLease);
  while ((health = http_get(n[1].port, "/healthz").first) != 200 && std::chrono::steady_clock::now() < back) {
    std::this_thread::sleep_for(50ms);
  }
  CHECK(health == 200);
  CHECK(sample(metrics_of_b(), "casa_cluster_cut_off") == 0);
  CHECK(owner(n.db, table).first == "a");  // b never took it back
}

TEST_CASE("the cluster's pool of database calls is bounded: past it a client is told busy, nothing waits, and "
          "everything queued is answered once the database moves again") {
  // docs/security.md: at most kPoolThreads calls run and kMaxQueuedCalls wait;
  // a message needing one more is answered `busy` at once. The database is
  // held still by a lock on the tables the listing reads (list_tables reads the
  // other nodes' open tables on the pool).
  constexpr std::size_t kBound = casa::server::Cluster::kPoolThreads + casa::server::Cluster::kMaxQueuedCalls;
  constexpr std::size_t kClients = kBound + 40;
  Nodes n(1, {"--max-connections-per-address", "1000"});
  std::vector<std::unique_ptr<WsClient>> clients;
  for (std::size_t i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<WsClient>(n[0].port));
    REQUIRE(clients.back()->hello("p" + std::to_string(i))["type"] == "welcome");
  }
  PgConn locker(n.db);
  locker.exec("SET idle_in_transaction_session_timeout = 0");
  locker.exec("BEGIN");
  locker.exec("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE");

  for (std::size_t i = 0; i < kClients; ++i) clients[i]->send({{"type", "list_tables"}, {"id", 7}});
  // The calls past the bound are refused at once; the others wait for the lock.
  std::vector<bool> refused(kClients, false);
  std::size_t busy = 0;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (busy < kClients - kBound && std::chrono::steady_clock::now() < deadline) {
    for (std::size_t i = 0; i < kClients; ++i) {
      if (refused[i]) continue;
      clients[i]->closed();  // runs the reads that are ready, without waiting
      if (auto m = clients[i]->recv(0ms); m && m->value("id", 0) == 7) {
        INFO(m->dump());
        REQUIRE((*m)["type"] == "error");  // no listing can be answered while the lock holds
        CHECK((*m)["code"] == "busy");
        refused[i] = true;
        ++busy;
      }
    }
  }
  CHECK(busy == kClients - kBound);
  // The HTTP reads of the store go through the same pool: refused as well.
  CHECK(get_json(n[0].port, "/api/leaderboard", 503)["error"] == "busy");
  CHECK(get_json(n[0].port, "/api/players/" + clients[0]->player_id, 503)["error"] == "busy");

  // The database moves again: every waiting call is answered with its listing.
  locker.exec("COMMIT");
  std::size_t listed = 0;
  for (std::size_t i = 0; i < kClients; ++i) {
    if (refused[i]) continue;
    auto m = clients[i]->recv(30s);
    while (m && m->value("id", 0) != 7) m = clients[i]->recv(30s);
    REQUIRE(m.has_value());
    CHECK((*m)["type"] == "tables");
    if ((*m)["type"] == "tables") ++listed;
  }
  CHECK(listed == kBound);
  CHECK(get_json(n[0].port, "/api/leaderboard", 200).is_object());
  // A refused client asks again and is answered.
  for (std::size_t i = 0; i < kClients; ++i) {
    if (!refused[i]) continue;
    CHECK(clients[i]->call({{"type", "list_tables"}}, 30s)["type"] == "tables");
    break;
  }
}
