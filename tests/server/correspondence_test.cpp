// SPDX-License-Identifier: AGPL-3.0-or-later
// Correspondence tables (docs/protocol.md, "Correspondence tables"): a time
// per move of minutes to days, stored deadlines that survive a restart (and an
// expiry that fell while the server was down applies when it starts), the
// disconnect policy applied when an away player's time runs out (the robot
// takes the seat over, or the game is forfeited), tables never closed for
// being empty; and "Your games" (my_tables, GET /api/my-tables): the player's
// unfinished tables, those waiting for them first. Test servers run with
// --testing, so the clocks here are a few seconds long.
#include <doctest/doctest.h>

#include <functional>
#include <thread>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

json wait_for(WsClient& c, const std::function<bool(const json&)>& pred, std::chrono::milliseconds timeout = 5s) {
  auto m = c.find(pred, timeout, [](const json& skipped) { return skipped["type"] == "request"; });
  return m ? *m : json();
}

json corr_table(int seconds, const std::string& takeover) {
  return {{"game", "fake-trick"},
          {"players", 2},
          {"options", {{"hand", 2}}},
          {"correspondence", true},
          {"move_timeout_seconds", seconds},
          {"disconnect_policy", {{"takeover", takeover}}}};
}

// Ann creates `fields`, Bob joins; both have their bid request.
std::string start_two(WsClient& ann, WsClient& bob, const json& fields, json* ann_request = nullptr) {
  const json created = create(ann, fields);
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const std::string table = created["table"];
  REQUIRE(bob.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  const json request = wait_for(ann, [&](const json& m) { return m["type"] == "request" && m["table"] == table; });
  REQUIRE(request.is_object());
  REQUIRE(wait_for(bob, [&](const json& m) { return m["type"] == "request" && m["table"] == table; }).is_object());
  if (ann_request) *ann_request = request;
  return table;
}

void answer(WsClient& c, const json& request) {
  const json r = c.call({{"type", "action"}, {"table", request["table"]}, {"seq", request["seq"]},
                         {"action", request["legal"][0]}});
  REQUIRE_MESSAGE(r["type"] == "accepted", r.dump());
}

json my_tables(WsClient& c) {
  const json r = c.call({{"type", "my_tables"}});
  REQUIRE_MESSAGE(r["type"] == "my_tables", r.dump());
  return r["tables"];
}

const json* entry_of(const json& list, const std::string& table) {
  for (const auto& e : list) {
    if (e["table"] == table) return &e;
  }
  return nullptr;
}

std::function<bool(const json&)> seat_played_by(const std::string& table, int seat, const std::string& bot) {
  return [=](const json& m) {
    if ((m["type"] != "table_update" && m["type"] != "table_state") || m["table"] != table) return false;
    return m["seats"][static_cast<std::size_t>(seat)].value("played_by", "") == bot;
  };
}

}  // namespace

TEST_CASE("correspondence: the time per move runs from minutes to days, seconds only on test servers") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("ann");
  json fields = corr_table(3 * 24 * 3600, "robot");
  const json created = create(a, fields);
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const json state = a.expect("table_state");
  CHECK(state["correspondence"] == true);
  CHECK(state["move_timeout_seconds"] == 3 * 24 * 3600);
  const json listed = a.call({{"type", "list_tables"}})["tables"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["correspondence"] == true);

  // Bad times are refused, and nothing is created.
  fields["move_timeout_seconds"] = 0;
  CHECK(create(a, fields)["code"] == "bad_option");
  fields["move_timeout_seconds"] = 15 * 24 * 3600;
  CHECK(create(a, fields)["code"] == "bad_field");  // beyond the schema's 14 days
  CHECK(create(a, {{"game", "fake-trick"}, {"players", 2}, {"move_timeout_seconds", 7200}})["code"] == "bad_option");
  CHECK(a.call({{"type", "list_tables"}})["tables"].size() == 1);
  check_schemas(a);

  // A server run without --testing refuses a clock of seconds.
  TestServer live([](casa::server::Config& c) { c.testing = false; });
  WsClient b(live.port());
  b.hello("bob");
  const json refused = create(b, corr_table(5, "robot"));
  CHECK(refused["code"] == "bad_option");
  CHECK(create(b, corr_table(3600, "robot"))["type"] == "table_created");
}

TEST_CASE("correspondence: a table whose players are all away is never closed") {
  TestServer ts([](casa::server::Config& c) {
    c.abandoned_table_seconds = 1;
    c.creator_gone_seconds = 1;
  });
  auto a = std::make_unique<WsClient>(ts.port());
  auto b = std::make_unique<WsClient>(ts.port());
  a->hello("ann");
  b->hello("bob");
  const std::string token_a = a->token();
  const std::string corr = start_two(*a, *b, corr_table(3600, "robot"));
  // The same game without correspondence: the control that is closed.
  const std::string plain = start_two(*a, *b, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 2}}}});
  // A correspondence table still waiting for its second player.
  const json waiting = create(*a, corr_table(3600, "robot"));
  REQUIRE(waiting["type"] == "table_created");
  WsClient carol(ts.port());
  carol.hello("carol");
  REQUIRE(carol.call({{"type", "spectate"}, {"table", corr}})["type"] == "spectating");
  REQUIRE(carol.call({{"type", "spectate"}, {"table", plain}})["type"] == "spectating");

  a.reset();
  b.reset();
  const json closed = wait_for(carol, [&](const json& m) { return m["type"] == "table_closed"; }, 8s);
  REQUIRE(closed.is_object());
  CHECK(closed["table"] == plain);
  CHECK(closed["reason"] == "abandoned");
  // Twice the limit later the correspondence table still runs.
  CHECK(wait_for(carol, [&](const json& m) { return m["type"] == "table_closed"; }, 2s).is_null());

  WsClient back(ts.port());
  CHECK(back.hello("", token_a)["resumed"] == true);
  bool saw_corr = false, saw_waiting = false;
  for (int i = 0; i < 2; ++i) {
    const json state = back.expect("table_state");
    if (state["table"] == corr) {
      saw_corr = true;
      CHECK(state["status"] == "playing");
    }
    if (state["table"] == waiting["table"]) {
      saw_waiting = true;
      CHECK(state["status"] == "waiting");
    }
  }
  CHECK(saw_corr);
  CHECK(saw_waiting);
  check_schemas(carol);
}

TEST_CASE("correspondence: the deadline is stored and survives a restart") {
  TestServer ts;
  std::string token_a;
  std::string table;
  std::int64_t deadline = 0;
  {
    WsClient a(ts.port());
    WsClient b(ts.port());
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    table = start_two(a, b, corr_table(600, "robot"));
    const json* mine = nullptr;
    const json list = my_tables(a);
    mine = entry_of(list, table);
    REQUIRE(mine);
    REQUIRE(mine->contains("deadline_ms"));
    deadline = (*mine)["deadline_ms"];
    CHECK((*mine)["remaining_ms"].get<std::int64_t>() <= 600000);
  }
  std::this_thread::sleep_for(1200ms);
  ts.restart();
  WsClient a(ts.port());
  CHECK(a.hello("", token_a)["resumed"] == true);
  const json state = a.expect("table_state");
  REQUIRE(state["clock"].is_object());
  // The clock goes on from the stored deadline: at least the time the restart
  // took is gone (a clock started afresh would show the whole 600 s).
  CHECK(state["clock"]["remaining_ms"].get<std::int64_t>() <= 600000 - 1200);
  const json list = my_tables(a);
  const json* mine = entry_of(list, table);
  REQUIRE(mine);
  CHECK((*mine)["deadline_ms"] == deadline);
  check_schemas(a);
}

TEST_CASE("correspondence: a deadline that fell while the server was down applies when it starts") {
  TestServer ts;
  std::string token_a, token_b, table;
  std::int64_t seq_before = 0;
  {
    WsClient a(ts.port());
    WsClient b(ts.port());
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    token_b = b.token();
    json request;
    table = start_two(a, b, corr_table(3, "robot"), &request);
    answer(a, request);  // Ann bids; Bob does not.
    seq_before = request["seq"].get<std::int64_t>() + 1;
    ts.server.reset();  // down before Bob's 3 s are over
  }
  std::this_thread::sleep_for(3500ms);
  ts.config.port = 0;
  ts.start();
  WsClient a(ts.port());
  CHECK(a.hello("", token_a)["resumed"] == true);
  // Bob was away when his time ran out: the robot plays his seat.
  const json taken = wait_for(a, seat_played_by(table, 1, "robot"));
  REQUIRE_MESSAGE(taken.is_object(), "the robot did not take Bob's seat over");
  a.send({{"type", "resync"}, {"table", table}});
  const json state = wait_for(a, [&](const json& m) { return m["type"] == "table_state" && m["table"] == table; });
  REQUIRE(state.is_object());
  CHECK(state["seq"].get<std::int64_t>() > seq_before);  // Bob's bid was made for him
  CHECK(state["seats"][1]["played_by"] == "robot");

  // Bob comes back: the seat is his again.
  WsClient b(ts.port());
  CHECK(b.hello("", token_b)["resumed"] == true);
  const json back = wait_for(a, [&](const json& m) {
    return m["type"] == "table_update" && m["table"] == table && m["seats"][1]["away"] == false;
  });
  REQUIRE(back.is_object());
  CHECK_FALSE(back["seats"][1].contains("played_by"));
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("correspondence: an away player whose time runs out is played by the robot until back") {
  TestServer ts;
  WsClient a(ts.port());
  auto b = std::make_unique<WsClient>(ts.port());
  a.hello("ann");
  b->hello("bob");
  const std::string token_b = b->token();
  json request;
  const std::string table = start_two(a, *b, corr_table(2, "robot"), &request);
  b.reset();  // Bob goes away: no grace period, only his clock
  answer(a, request);
  const json taken = wait_for(a, seat_played_by(table, 1, "robot"));
  REQUIRE(taken.is_object());
  const json bid = wait_for(a, [&](const json& m) {
    return m["type"] == "event" && m["table"] == table && m["event"]["seat"] == 1;
  });
  REQUIRE(bid.is_object());
  CHECK(bid["auto"] == "timer");
  check_schemas(a);
}

TEST_CASE("correspondence: with the forfeit policy a player whose time runs out forfeits") {
  TestServer ts;
  WsClient a(ts.port());
  WsClient b(ts.port());
  a.hello("ann");
  b.hello("bob");
  json request;
  const std::string table = start_two(a, b, corr_table(2, "forfeit"), &request);
  answer(a, request);
  const json closed = wait_for(a, [&](const json& m) { return m["type"] == "table_closed"; });
  REQUIRE(closed.is_object());
  CHECK(closed["table"] == table);
  CHECK(closed["reason"] == "forfeit");
  CHECK(closed["seats"] == json::array({1}));
  CHECK(wait_for(b, [&](const json& m) { return m["type"] == "table_closed"; })["reason"] == "forfeit");
  // Gone from both players' games, and refused to act on.
  CHECK(entry_of(my_tables(a), table) == nullptr);
  CHECK(entry_of(my_tables(b), table) == nullptr);
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("your games: the tables waiting for you first, over WebSocket and HTTP, with no hidden card") {
  TestServer ts;
  WsClient a(ts.port());
  WsClient b(ts.port());
  a.hello("ann");
  b.hello("bob");
  json request;
  // t1: Ann bids, then it waits for Bob only. t2: it waits for both.
  const std::string t1 = start_two(a, b, corr_table(3600, "robot"), &request);
  answer(a, request);
  const std::string t2 = start_two(a, b, corr_table(7200, "robot"));
  const json list = my_tables(a);
  REQUIRE(list.size() == 2);
  CHECK(list[0]["table"] == t2);
  CHECK(list[0]["your_turn"] == true);
  CHECK(list[0]["seat"] == 0);
  CHECK(list[1]["table"] == t1);
  CHECK(list[1]["your_turn"] == false);
  CHECK(list[1]["turn"] == json::array({1}));
  CHECK(list[1]["remaining_ms"].get<std::int64_t>() > 0);
  CHECK(list[1]["seats"][1]["name"] == "bob");
  const json bobs = my_tables(b);
  REQUIRE(bobs.size() == 2);
  // Both wait for Bob: the sooner deadline first.
  CHECK(bobs[0]["table"] == t1);
  CHECK(bobs[1]["table"] == t2);
  for (const auto& e : bobs) CHECK(e["your_turn"] == true);

  // The same over HTTP with the token; no token, no list.
  auto [status, body] = http_call(ts.port(), boost::beast::http::verb::get, "/api/my-tables", a.token());
  CHECK(status == 200);
  const json http = json::parse(body);
  REQUIRE(http["tables"].size() == 2);
  CHECK(http["tables"][0]["table"] == t2);
  CHECK(http_call(ts.port(), boost::beast::http::verb::get, "/api/my-tables").first == 401);
  CHECK(http_call(ts.port(), boost::beast::http::verb::get, "/api/my-tables", "not-a-token").first == 401);

  // Public facts only: no view, hand, legal action or card.
  for (const std::string& text : {list.dump(), body, bobs.dump()}) {
    CHECK(text.find("\"view\"") == std::string::npos);
    CHECK(text.find("\"hand\"") == std::string::npos);
    CHECK(text.find("\"legal\"") == std::string::npos);
    CHECK(text.find("\"X0\"") == std::string::npos);
    CHECK(text.find("\"X1\"") == std::string::npos);
  }
  check_schemas(a);
  check_schemas(b);
}
