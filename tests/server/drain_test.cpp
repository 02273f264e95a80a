// SPDX-License-Identifier: AGPL-3.0-or-later
// Draining (SIGTERM): the health check turns 503, new sessions are refused, the
// commits in flight finish and are told, every client gets `reconnect`, the
// process exits 0, and a restart on the same database loses no acknowledged move.
#include <doctest/doctest.h>

#include <thread>

#include "tests/server/child_server.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

// Reads every message until the server closes the connection (or `limit`).
std::vector<json> read_to_close(WsClient& c, std::chrono::seconds limit = std::chrono::seconds(15)) {
  std::vector<json> out;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto m = c.recv(std::chrono::milliseconds(100));
    if (m) {
      out.push_back(*m);
    } else if (c.closed()) {
      break;
    }
  }
  return out;
}

const json* find_type(const std::vector<json>& messages, const std::string& type) {
  for (const auto& m : messages) {
    if (m.value("type", "") == type) return &m;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("drain: /healthz turns 503, new sessions are refused, clients get reconnect, the server stops") {
  TestServer s([](casa::server::Config& c) { c.drain_seconds = 20; });
  get_json(s.port(), "/healthz", 200);
  WsClient a(s.port()), b(s.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 3}}}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  const json request = a.expect("request");
  REQUIRE(a.call({{"type", "action"}, {"table", table}, {"seq", request["seq"]}, {"action", first_legal(request)}})["type"] ==
          "accepted");

  s.server->drain();
  CHECK(s.server->draining());
  const auto after_a = read_to_close(a);
  const auto after_b = read_to_close(b);
  for (const auto* seen : {&after_a, &after_b}) {
    const json* reconnect = find_type(*seen, "reconnect");
    REQUIRE(reconnect != nullptr);
    CHECK((*reconnect)["reason"] == "draining");
    CHECK((*reconnect)["after_ms"].get<int>() >= 0);
    CHECK((*reconnect)["after_ms"].get<int>() < 1000);
    CHECK(seen->back()["type"] == "reconnect");  // the last word before the close
  }
  CHECK(a.close_reason().code == boost::beast::websocket::close_code::going_away);
  check_schemas(a);
  check_schemas(b);

  // Every connection closed: the server stops by itself; until then (or if
  // it still runs) the health check says draining and new sessions are refused.
  // The log stops at the acknowledged move.
  s.server->wait();
  s.restart();
  {
    WsClient again(s.port());
    again.hello("", a.token());
    CHECK(again.expect("table_state")["seq"] == 1);
  }
}

TEST_CASE("drain: while draining, /healthz answers 503 and a WebSocket upgrade 503") {
  TestServer s([](casa::server::Config& c) { c.drain_seconds = 20; });
  // A connection that never says hello keeps the drain waiting: the window in
  // which the health check and new connections can be watched.
  WsClient silent(s.port());
  WsClient player(s.port());
  player.hello("cy");
  s.server->drain();
  const json health = get_json(s.port(), "/healthz", 503);
  CHECK(health["status"] == "draining");
  CHECK_THROWS(WsClient(s.port()));
  // The player hears it should come back, and is let go.
  CHECK(player.expect("reconnect")["reason"] == "draining");
  CHECK(player.wait_closed(std::chrono::seconds(5)));
}

TEST_CASE("SIGTERM during play: exit 0, every client got reconnect, no acknowledged move lost") {
  const auto dir = temp_dir("drain");
  const std::string db = test_db(dir);
  ChildServer server = spawn_server(db);
  std::string table, token_a, token_b;
  std::vector<json> acknowledged;  // (seq, seat, action) of every `accepted`
  {
    WsClient a(server.port), b(server.port);
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    token_b = b.token();
    table = a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 5}}}})["table"];
    b.call({{"type", "join"}, {"table", table}});
    WsClient* seats[2] = {&a, &b};
    play_acknowledged({&a, &b}, table, 4, acknowledged);
    // The fifth is in flight when the signal comes.
    json last_request;
    int last_seat = -1;
    while (last_seat < 0) {
      for (int s = 0; s < 2 && last_seat < 0; ++s) {
        auto m = seats[s]->recv(std::chrono::milliseconds(5));
        if (!m || (*m)["type"] != "request") continue;
        last_request = *m;
        last_seat = s;
      }
    }
    REQUIRE(last_seat >= 0);
    const json action = last_request["legal"][0];
    seats[last_seat]->send_text(
        json{{"type", "action"}, {"id", "inflight"}, {"table", table}, {"seq", last_request["seq"]}, {"action", action}}
            .dump());
    kill(server.pid, SIGTERM);
    const auto seen_last = read_to_close(*seats[last_seat]);
    const auto seen_other = read_to_close(*seats[1 - last_seat]);
    bool answered = false;
    for (const auto& m : seen_last) {
      if (m.value("id", json()) != "inflight") continue;
      answered = true;
      if (m["type"] == "accepted") {
        acknowledged.push_back({{"seq", m["seq"]}, {"seat", last_seat}, {"action", action}});
      } else {
        CHECK(m["type"] == "error");
        CHECK(m["code"] == "draining");
      }
    }
    // Read before the drain began (accepted or refused), or after the
    // connection was told to go (then never answered, and never stored).
    MESSAGE("the move in flight was " << (answered ? "answered" : "not read"));
    CHECK(find_type(seen_last, "reconnect") != nullptr);
    CHECK(find_type(seen_other, "reconnect") != nullptr);
    check_schemas(a);
    check_schemas(b);
    CHECK(wait_exit(server, std::chrono::seconds(15)) == 0);
  }
  server = spawn_server(db);
  {
    WsClient a(server.port), b(server.port);
    CHECK(a.hello("", token_a)["resumed"] == true);
    CHECK(b.hello("", token_b)["resumed"] == true);
    const json state = a.expect("table_state");
    // The log holds exactly what was acknowledged: a move refused or unread
    // during the drain was not stored either.
    CHECK(state["seq"].get<std::size_t>() == acknowledged.size());
    play_out({&a, &b}, table);
    const json replay = get_json(server.port, "/api/games/" + table, 200);
    REQUIRE(replay["log"].size() == 12);
    check_logged(replay, acknowledged);
  }
  kill9(server);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
