// SPDX-License-Identifier: AGPL-3.0-or-later
// In-process server tests: real WebSocket clients against a server on an
// ephemeral port with a temporary database, playing the test game fake-trick.
#include <doctest/doctest.h>


#include <fstream>
#include <iterator>
#include <set>
#include <thread>

#include "server/lobby/lobby.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

TEST_CASE("two players play a whole game; messages fit the schemas and leak no hidden card") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  CHECK(a.token().size() == 64);

  const json created = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 4}}}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  CHECK(created["seat"] == 0);
  const json waiting = a.expect("table_state");
  CHECK(waiting["status"] == "waiting");
  CHECK(waiting["view"].is_null());

  const json list = b.call({{"type", "list_tables"}, {"game", "fake-trick"}});
  REQUIRE(list["tables"].size() == 1);
  CHECK(list["tables"][0]["table"] == table);

  const json joined = b.call({{"type", "join"}, {"table", table}});
  CHECK(joined["type"] == "joined");
  CHECK(joined["seat"] == 1);
  // Started: no longer listed.
  CHECK(b.call({{"type", "list_tables"}})["tables"].empty());

  // HTTP replay refuses a running game.
  get_json(ts.port(), "/api/games/" + table, 403);

  auto over = play_out({&a, &b}, table);
  CHECK(over[0] == over[1]);
  CHECK(over[0]["scores"].size() == 2);
  CHECK(over[0]["seq"] == 2 + 8);  // two bids and eight cards

  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(replay["log"].size() == 10);
  CHECK(replay["final_state"]["hands"].size() == 2);
  // Each log entry carries the full state after its action: a viewer steps through
  // the game with every hand visible. The last one is the final state.
  REQUIRE(replay["initial_state"].is_object());
  CHECK(replay["initial_state"]["hands"].size() == 2);
  for (const auto& entry : replay["log"]) CHECK(entry["state"].is_object());
  CHECK(replay["log"][0]["state"] != replay["initial_state"]);
  CHECK(replay["log"].back()["state"] == replay["final_state"]);
  CHECK(check_no_leak(a, 0, replay) > 10);
  CHECK(check_no_leak(b, 1, replay) > 10);
  check_schemas(a);
  check_schemas(b);

  // Bids are simultaneous: each seat got its request at seq 0.
  int bid_requests = 0;
  for (const auto& m : a.log) bid_requests += m["type"] == "request" && m["seq"] == 0;
  CHECK(bid_requests == 1);
}

TEST_CASE("four seats: bots, team chat only to partners, spectators see no hand") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), c(ts.port());
  a.hello("ann");
  b.hello("bea");
  c.hello("cy");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 4}})["table"];
  CHECK(a.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "random"}})["type"] == "bot_added");
  CHECK(b.call({{"type", "add_bot"}, {"table", table}, {"seat", 3}, {"bot", "robot"}})["code"] == "not_creator");
  CHECK(a.call({{"type", "add_bot"}, {"table", table}, {"seat", 3}, {"bot", "robot"}})["type"] == "bot_added");
  CHECK(c.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  const json state = c.expect("table_state");
  CHECK(state["seat"] == -1);
  CHECK(state["teams"] == json::parse("[[0,2],[1,3]]"));
  CHECK_FALSE(state.contains("invite"));
  CHECK(b.call({{"type", "join"}, {"table", table}, {"seat", 1}})["code"] == "seat_taken");
  CHECK(b.call({{"type", "join"}, {"table", table}, {"seat", 2}})["type"] == "joined");

  a.send({{"type", "chat"}, {"table", table}, {"text", "partner only"}, {"team", true}});
  a.send({{"type", "chat"}, {"table", table}, {"text", "hello all"}});
  CHECK(c.call({{"type", "chat"}, {"table", table}, {"text", "x"}, {"team", true}})["code"] == "not_seated");

  auto over = play_out({&a, &b}, table);
  // The spectator saw the game end too.
  c.expect("game_over");

  auto said = [](const WsClient& who, const std::string& text) {
    for (const auto& m : who.log) {
      if (m["type"] == "chat" && m["text"] == text) return true;
    }
    return false;
  };
  CHECK(said(a, "partner only"));
  CHECK(said(b, "partner only"));
  CHECK_FALSE(said(c, "partner only"));
  CHECK(said(c, "hello all"));

  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(check_no_leak(a, 0, replay) > 0);
  CHECK(check_no_leak(b, 2, replay) > 0);
  CHECK(check_no_leak(c, -1, replay) > 0);
  // A spectator never learns a bid before all are in.
  for (const auto& m : c.log) CHECK(!(m["type"] == "event" && m["event"]["type"] == "bid"));
  check_schemas(a);
  check_schemas(b);
  check_schemas(c);
}

TEST_CASE("table_state names the creator under the cleaned name, to an invited friend too") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), c(ts.port());
  // The name as cleaned at hello (names.h): spaces around it trimmed, an "e" with a
  // combining acute accent composed to NFC "\u00e9".
  const json welcome = a.hello("  Anne\xcc\x81  ");
  b.hello("bea");
  c.hello("cy");
  const json created = create(a, {{"game", "fake-trick"}, {"players", 4}, {"private", true}});
  const std::string table = created["table"];
  const json mine = a.expect("table_state");
  REQUIRE(mine.contains("creator"));
  CHECK(mine["creator"]["name"] == "Ann\xc3\xa9");
  CHECK(mine["creator"]["player_id"] == welcome["player_id"]);
  // The page an invite link opens: spectate by invite, before sitting.
  CHECK(b.call({{"type", "spectate"}, {"invite", created["invite"]}})["type"] == "spectating");
  const json seen = b.expect("table_state");
  CHECK(seen["seat"] == -1);
  CHECK(seen["creator"] == mine["creator"]);
  CHECK(b.call({{"type", "join"}, {"invite", created["invite"]}, {"seat", 2}})["type"] == "joined");
  CHECK(b.expect("table_state")["creator"]["name"] == "Ann\xc3\xa9");
  // A creator who does not sit is still named.
  const json other = create(c, {{"game", "fake-trick"}, {"players", 2}, {"seat", -1}});
  CHECK(a.call({{"type", "spectate"}, {"table", other["table"]}})["type"] == "spectating");
  CHECK(a.expect("table_state")["creator"]["name"] == "cy");
  check_schemas(a);
  check_schemas(b);
  check_schemas(c);
}

TEST_CASE("a solo table starts with its one seat") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("solo");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 1}})["table"];
  auto over = play_out({&a}, table);
  CHECK(over[0]["winners"] == json::array({0}));
  check_schemas(a);
}

TEST_CASE("reconnect: the token gives back the seat, the full view and the pending request") {
  TestServer ts;
  auto a = std::make_unique<WsClient>(ts.port());
  WsClient b(ts.port());
  a->hello("ann");
  b.hello("bob");
  const std::string pid = a->player_id, token = a->token();
  const std::string table = create(*a, {{"game", "fake-trick"}, {"players", 2}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  const json req = a->expect("request");
  CHECK(req["seq"] == 0);
  a.reset();  // ann drops without answering

  // Bob sees ann go; he bids; the game waits for her.
  const json breq = b.expect("request");
  bool gone = false;
  for (int i = 0; i < 10 && !gone; ++i) gone = b.expect("table_update")["seats"][0]["connected"] == false;
  CHECK(gone);
  b.send({{"type", "action"}, {"table", table}, {"seq", breq["seq"]}, {"action", breq["legal"][1]}});
  CHECK(b.expect("accepted")["seq"] == 1);

  WsClient a2(ts.port());
  const json w = a2.hello("ignored", token);
  CHECK(w["resumed"] == true);
  CHECK(w["player_id"] == pid);
  const json state = a2.expect("table_state");
  CHECK(state["seq"] == 1);
  CHECK(state["view"]["hand"].size() == 3);
  const json again = a2.expect("request");
  CHECK(again["seq"] == 0);  // the same request, still valid
  CHECK(again["legal"] == req["legal"]);
  a2.send({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", again["legal"][0]}});
  play_out({&a2, &b}, table);
  check_schemas(a2);
  check_schemas(b);

  WsClient bad(ts.port());
  CHECK(bad.hello("x", std::string(64, 'f'))["code"] == "bad_token");
}

// The table holds each seat's connection itself (server/table/table.h): a
// resume must hand it the new connection, and the one replaced must hear
// nothing of the table after "replaced".
TEST_CASE("reconnect mid-game over a live connection: the moves go to the new connection, never to the old") {
  TestServer ts;
  WsClient a(ts.port());
  WsClient b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  CHECK(a.expect("request")["seq"] == 0);

  // Ann comes back on a second connection while the first is still open.
  WsClient a2(ts.port());
  CHECK(a2.hello("", a.token())["resumed"] == true);
  CHECK(a.expect("error")["code"] == "replaced");
  const std::size_t replaced_at = a.log.size();
  const json state = a2.expect("table_state");
  const std::int64_t resumed_seq = state["seq"];

  play_out({&a2, &b}, table);
  a.wait_closed(std::chrono::seconds(5));

  // Every event of the table that bob saw after the resume, ann saw on her new connection.
  std::set<std::pair<std::int64_t, std::string>> seen_by_a2;
  for (const auto& m : a2.log) {
    if (m["type"] == "event") seen_by_a2.insert({m["seq"].get<std::int64_t>(), m["event"].dump()});
  }
  int shared = 0;
  for (const auto& m : b.log) {
    if (m["type"] != "event" || m["seq"].get<std::int64_t>() <= resumed_seq) continue;
    // A bid is shown to its bidder alone, and bid_made to everyone else.
    if (m["event"]["type"] == "bid" || m["event"]["type"] == "bid_made") continue;
    CHECK_MESSAGE(seen_by_a2.count({m["seq"].get<std::int64_t>(), m["event"].dump()}) == 1, m.dump());
    ++shared;
  }
  CHECK(shared > 0);
  // The old connection got nothing of the table after it was replaced.
  for (std::size_t i = replaced_at; i < a.log.size(); ++i) CHECK_MESSAGE(!a.log[i].contains("table"), a.log[i].dump());
  check_schemas(a2);
}

TEST_CASE("refused input: the right error code, and nothing changes") {
  TestServer ts([](casa::server::Config& c) { c.max_tables_per_player = 2; });
  WsClient a(ts.port()), b(ts.port());

  a.send_text("{not json");
  CHECK(a.expect("error")["code"] == "malformed_json");
  a.send_text("[1,2]");
  CHECK(a.expect("error")["code"] == "malformed_json");
  CHECK(a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2}})["code"] == "hello_required");
  CHECK(a.call({{"type", "hello"}, {"version", 2}})["code"] == "bad_version");
  a.hello("ann");
  b.hello("bob");
  CHECK(a.call({{"type", "hello"}, {"version", 1}})["code"] == "already_welcomed");
  CHECK(a.call({{"type", "dance"}})["code"] == "unknown_type");
  CHECK(a.call({{"type", "join"}, {"table", 42}})["code"] == "bad_field");
  CHECK(a.call({{"type", "join"}, {"table", "t1"}, {"colour", "red"}})["code"] == "bad_field");
  CHECK(a.call({{"type", "join"}, {"table", "nosuch"}})["code"] == "no_such_table");
  CHECK(a.call({{"type", "join"}, {"invite", "NOSUCH"}})["code"] == "no_such_table");
  CHECK(create(a, {{"game", "chess"}, {"players", 2}})["code"] == "no_such_game");
  CHECK(create(a, {{"game", "fake-trick"}, {"players", 7}})["code"] == "bad_players");
  CHECK(create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"colour", 1}}}})["code"] == "bad_option");
  CHECK(create(a, {{"game", "fake-trick"}, {"players", 2}, {"seat", 5}})["code"] == "bad_seat");

  const json created = create(a, {{"game", "fake-trick"}, {"players", 2}, {"private", true}});
  const std::string table = created["table"];
  CHECK(b.call({{"type", "list_tables"}})["tables"].empty());  // private
  CHECK(b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "bid"}, {"bid", 1}}}})["code"] ==
        "not_seated");
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "bid"}, {"bid", 1}}}})["code"] ==
        "not_started");
  CHECK(b.call({{"type", "join"}, {"invite", created["invite"]}})["seat"] == 1);
  CHECK(a.call({{"type", "join"}, {"table", table}})["code"] == "already_started");

  a.expect("request");
  b.expect("request");
  // Bids first: a card play is illegal; a bad card name is malformed; an old seq is stale.
  json r = a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "play"}, {"card", "X0"}}}});
  CHECK(r["code"] == "illegal_action");
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "play"}, {"card", "Q"}}}})["code"] ==
        "malformed_action");
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "bid"}, {"bid", 9}}}})["code"] ==
        "illegal_action");
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", "bid"}})["code"] == "bad_field");
  r = a.call({{"type", "action"}, {"table", table}, {"seq", 3}, {"action", {{"type", "bid"}, {"bid", 1}}}});
  CHECK(r["code"] == "stale_seq");
  CHECK(r["seq"] == 0);
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "bid"}, {"bid", 1}}}})["type"] ==
        "accepted");
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 1}, {"action", {{"type", "bid"}, {"bid", 1}}}})["code"] ==
        "not_your_turn");
  // Nothing of the refused moves happened: seq is 1.
  a.send({{"type", "resync"}, {"table", table}});
  CHECK(a.expect("table_state")["seq"] == 1);
  CHECK(a.call({{"type", "rematch"}, {"table", table}})["code"] == "not_over");

  create(a, {{"game", "fake-trick"}, {"players", 2}});
  CHECK(create(a, {{"game", "fake-trick"}, {"players", 2}})["code"] == "too_many_tables");
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("abuse: oversized frames, floods and slow readers are cut off; other tables play on") {
  TestServer ts([](casa::server::Config& c) {
    c.max_frame_bytes = 4096;
    c.rate_burst = 20;
    c.rate_per_second = 10;
    c.max_write_queue = 256;
  });
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 5}}}})["table"];
  b.call({{"type", "join"}, {"table", table}});

  // Too large: closed.
  WsClient big(ts.port());
  big.hello("big");
  big.send({{"type", "ping"}, {"pad", std::string(10000, 'x')}});
  CHECK(big.wait_closed(3s));

  // Flood: rate_limited, then closed.
  WsClient flood(ts.port());
  flood.hello("flood");
  for (int i = 0; i < 60; ++i) flood.send({{"type", "ping"}});
  int pongs = 0, limited = 0;
  for (int i = 0; i < 60; ++i) {
    auto m = flood.recv(2s);
    REQUIRE_MESSAGE(m, "after " << pongs << " pongs and " << limited << " refusals");
    pongs += (*m)["type"] == "pong";
    limited += (*m)["code"] == "rate_limited";
  }
  CHECK(pongs >= 15);
  CHECK(limited >= 30);
  // Keeping it up gets the connection closed.
  for (int i = 0; i < 400 && !flood.closed(); ++i) flood.send({{"type", "ping"}});
  CHECK(flood.wait_closed(3s));

  // Garbage of every sort on another connection: answered, never a crash.
  WsClient junk(ts.port());
  junk.hello("junk");
  for (const char* text : {"", "null", "{}", "{\"type\":null}", "{\"type\":\"action\",\"table\":\"x\",\"seq\":-1}",
                           "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
                           "{\"type\":\"chat\",\"table\":\"x\",\"text\":\"\\u0000\"}"}) {
    junk.send_text(text);
    CHECK(junk.expect("error")["type"] == "error");
  }

  // Slow reader: a raw connection that stops reading and keeps asking for
  // big replies. The server must drop it rather than queue forever.
  TestServer loose([](casa::server::Config& c) {
    c.rate_burst = 1e9;
    c.rate_per_second = 1e9;
    c.max_write_queue = 8;
  });
  {
    namespace asio = boost::asio;
    namespace websocket = boost::beast::websocket;
    asio::io_context io;
    websocket::stream<asio::ip::tcp::socket> raw(io);
    raw.next_layer().open(asio::ip::tcp::v4());
    raw.next_layer().set_option(asio::socket_base::receive_buffer_size(4096));
    raw.next_layer().connect({asio::ip::make_address("127.0.0.1"), loose.port()});
    raw.handshake("127.0.0.1", "/ws");
    raw.text(true);
    raw.write(asio::buffer(json{{"type", "hello"}, {"version", 1}}.dump()));
    boost::beast::flat_buffer buffer;
    raw.read(buffer);
    raw.write(asio::buffer(json{{"type", "create_table"}, {"game", "fake-trick"}, {"players", 4}}.dump()));
    buffer.consume(buffer.size());
    raw.read(buffer);
    const std::string t2 = json::parse(boost::beast::buffers_to_string(buffer.data()))["table"];
    const std::string ask = json{{"type", "resync"}, {"table", t2}}.dump();
    boost::system::error_code ec;
    int sent = 0;
    for (; sent < 100000 && !ec; ++sent) raw.write(asio::buffer(ask), ec);
    CHECK(ec);  // the server hung up
    MESSAGE("slow reader dropped after " << sent << " requests");
  }

  // The first table was never disturbed.
  play_out({&a, &b}, table);
  check_schemas(a);
  check_schemas(b);
  check_schemas(junk);
}

TEST_CASE("a read-only database: moves are refused with storage_unavailable, reads go on") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  const json ra = a.expect("request");
  const json rb = b.expect("request");
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", ra["legal"][0]}})["type"] == "accepted");

  ts.server->store().set_query_only(true);
  const json r = b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", rb["legal"][0]}});
  CHECK(r["code"] == "storage_unavailable");
  CHECK(get_json(ts.port(), "/healthz", 200)["storage"] == "unavailable");
  CHECK(b.call({{"type", "list_tables"}})["type"] == "tables");
  b.send({{"type", "resync"}, {"table", table}});
  CHECK(b.expect("table_state")["seq"] == 1);  // the refused bid did not happen
  CHECK(b.expect("request")["seq"] == 0);       // and its request still stands
  // Ann heard nothing of it either.
  for (const auto& m : a.log) CHECK(!(m["type"] == "event" && m["seq"] == 2));

  ts.server->store().set_query_only(false);
  CHECK(b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", rb["legal"][0]}})["type"] == "accepted");
  play_out({&a, &b}, table);
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(replay["log"].size() == 8);
  CHECK(get_json(ts.port(), "/healthz", 200)["storage"] == "ok");
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("HTTP: health, replays only of finished games, leaderboard, nothing else") {
  TestServer ts;
  CHECK(get_json(ts.port(), "/healthz", 200)["status"] == "ok");
  get_json(ts.port(), "/api/games/nosuch", 404);
  get_json(ts.port(), "/index.html", 404);
  get_json(ts.port(), "/ws", 404);
  WsClient a(ts.port());
  a.hello("ann");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 1}})["table"];
  play_out({&a}, table);
  const json board = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  REQUIRE(board["players"].size() == 1);
  CHECK(board["players"][0]["name"] == "ann");
  CHECK(board["players"][0]["wins"] == 1);
  CHECK(get_json(ts.port(), "/api/leaderboard?game=casino", 200)["players"].empty());
}

TEST_CASE("move timer: the robot answers for a silent seat") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("ann");
  const std::string table =
      create(a, {{"game", "fake-trick"}, {"players", 2}, {"move_timeout_seconds", 1}})["table"];
  a.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "random"}});
  const json req = a.expect("request");
  CHECK(req["deadline_ms"].get<int>() > 0);
  CHECK(req["deadline_ms"].get<int>() <= 1000);
  // Ann says nothing; within ~1 s her bid is made for her.
  const json mine = a.expect("event", 3s);
  CHECK(mine["seq"].get<int>() >= 1);
  check_schemas(a);
}

TEST_CASE("rematch: a new table with the same seats and options") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 1}}}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  play_out({&a, &b}, table);
  const json r = b.call({{"type", "rematch"}, {"table", table}});
  REQUIRE(r["type"] == "rematch_created");
  const json offer = a.expect("rematch_offer");
  CHECK(offer["new_table"] == r["new_table"]);
  CHECK(a.call({{"type", "rematch"}, {"table", table}})["new_table"] == r["new_table"]);
  CHECK(a.call({{"type", "join"}, {"invite", offer["invite"]}})["seat"] == 0);
  play_out({&a, &b}, r["new_table"]);
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("restart: unfinished tables come back from the log; players resume with tokens") {
  auto dir = temp_dir("restart");
  auto ts = std::make_unique<TestServer>(std::function<void(casa::server::Config&)>{}, dir);
  std::string table, token_a, token_b;
  {
    WsClient a(ts->port()), b(ts->port());
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    token_b = b.token();
    table = create(a, {{"game", "fake-trick"}, {"players", 2}})["table"];
    b.call({{"type", "join"}, {"table", table}});
    const json ra = a.expect("request");
    const json rb = b.expect("request");
    a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", ra["legal"][0]}});
    b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", rb["legal"][0]}});
  }
  ts->restart();
  WsClient a(ts->port()), b(ts->port());
  CHECK(a.hello("", token_a)["resumed"] == true);
  CHECK(b.hello("", token_b)["resumed"] == true);
  CHECK(a.expect("table_state")["seq"] == 2);
  play_out({&a, &b}, table);
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("connections per address are capped, and a closed one frees its place") {
  TestServer ts([](casa::server::Config& c) { c.max_connections_per_address = 2; });
  WsClient a(ts.port());
  auto b = std::make_unique<WsClient>(ts.port());
  CHECK_THROWS(WsClient(ts.port()));  // refused at once: the handshake fails
  CHECK(a.hello("ann")["type"] == "welcome");
  b.reset();
  // The server frees the place when it sees the close; allow it a moment.
  std::unique_ptr<WsClient> c;
  for (int attempt = 0; attempt < 100 && !c; ++attempt) {
    try {
      c = std::make_unique<WsClient>(ts.port());
    } catch (const std::exception&) {
      std::this_thread::sleep_for(50ms);
    }
  }
  REQUIRE(c);
  CHECK(c->hello("cy")["type"] == "welcome");
}

TEST_CASE("resume tokens: 256 random bits each, and the database keeps only their SHA-256") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string token = a.token();
  CHECK(token.size() == 64);  // 32 bytes from OpenSSL's RAND_bytes, in hex
  CHECK(token.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(token != b.token());
  // Wait for the players' rows, then read them as stored (through the store:
  // a running server holds its SQLite file for itself).
  std::vector<std::string> stored;
  for (int attempt = 0; attempt < 50 && stored.size() < 2; ++attempt) {
    std::this_thread::sleep_for(20ms);
    stored.clear();
    ts.server->store().read([&](casa::server::Db& db) {
      auto& q = db.prepare("SELECT token_hash FROM players ORDER BY name");
      while (q.step()) stored.push_back(q.text_at(0));
    });
  }
  REQUIRE(stored.size() == 2);
  CHECK(stored[0] == casa::server::sha256_hex(token));
  CHECK(stored[1] == casa::server::sha256_hex(b.token()));
  CHECK(stored[0] != token);
  // The token itself appears nowhere in the database files.
  for (const auto& entry : std::filesystem::directory_iterator(ts.dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_MESSAGE(bytes.find(token) == std::string::npos, entry.path());
  }
}
