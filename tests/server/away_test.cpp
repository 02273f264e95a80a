// SPDX-License-Identifier: AGPL-3.0-or-later
// Tables that never freeze: the disconnect policy (away seats, the grace
// countdown, the robot playing for an absent player, the seat given back on
// return), moves marked `auto` in the event stream and the replay, the move
// timer's `clock`, and dead tables closed with `table_closed`. Grace periods
// and limits are 0–1 s here, so waits stay short.
#include <doctest/doctest.h>

#include <functional>
#include <thread>
#include <vector>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// The first message satisfying `pred` within `timeout` (null if none). Requests
// passed over stay queued, so play_out still answers them; the rest is dropped.
json wait_for(WsClient& c, const std::function<bool(const json&)>& pred, std::chrono::milliseconds timeout = 4s) {
  auto m = c.find(pred, timeout, [](const json& skipped) { return skipped["type"] == "request"; });
  return m ? *m : json();
}

std::function<bool(const json&)> update_where(const std::string& table, int seat,
                                              const std::function<bool(const json&)>& info) {
  return [=](const json& m) {
    return m["type"] == "table_update" && m["table"] == table && info(m["seats"][static_cast<std::size_t>(seat)]);
  };
}

std::function<bool(const json&)> event_where(const std::string& table, const std::string& by) {
  return [=](const json& m) { return m["type"] == "event" && m["table"] == table && m.value("auto", "") == by; };
}

json replay_of(unsigned short port, const std::string& table) { return get_json(port, "/api/games/" + table, 200); }

json reconnect(WsClient& c, const std::string& token) { return c.hello("", token); }

}  // namespace

TEST_CASE("disconnect policy: away with a countdown, then the robot plays the seat until its player returns") {
  TestServer ts;
  WsClient a(ts.port());
  auto b = std::make_unique<WsClient>(ts.port());
  a.hello("ann");
  b->hello("bob");
  const json policy = {{"grace_seconds", 1}, {"takeover", "robot"}};
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 3}}},
                                       {"disconnect_policy", policy}})["table"];
  CHECK(a.expect("table_state")["disconnect_policy"] == policy);
  const json listed = a.call({{"type", "list_tables"}})["tables"][0];
  CHECK(listed["disconnect_policy"] == policy);
  b->call({{"type", "join"}, {"table", table}});
  const json bid_request = a.expect("request");
  b->expect("request");
  const std::string token_b = b->token();

  b.reset();  // Bob's connection drops without a `leave`.
  const json away = wait_for(a, update_where(table, 1, [](const json& s) { return s.value("away", false); }));
  REQUIRE(away.is_object());
  CHECK(away["seats"][1]["connected"] == false);
  CHECK_FALSE(away["seats"][1].contains("played_by"));
  REQUIRE(away["seats"][1].contains("takeover_in_ms"));
  CHECK(away["seats"][1]["takeover_in_ms"].get<int>() > 0);
  CHECK(away["seats"][1]["takeover_in_ms"].get<int>() <= 1000);
  CHECK(away["seats"][0]["away"] == false);

  // After the grace period everyone is told the robot plays for Bob, and it bids.
  const json taken = wait_for(a, update_where(table, 1, [](const json& s) { return s.contains("played_by"); }));
  REQUIRE(taken.is_object());
  CHECK(taken["seats"][1]["played_by"] == "robot");
  CHECK(taken["seats"][1]["away"] == true);
  CHECK_FALSE(taken["seats"][1].contains("takeover_in_ms"));
  const json robot_bid = wait_for(a, event_where(table, "away"));
  REQUIRE(robot_bid.is_object());
  CHECK(robot_bid["event"]["seat"] == 1);

  // Ann bids and leads; the robot answers for Bob.
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", bid_request["seq"]}, {"action", bid_request["legal"][0]}})["type"] ==
        "accepted");
  const json lead = wait_for(a, [&](const json& m) { return m["type"] == "request" && m["table"] == table; });
  REQUIRE(lead.is_object());
  a.call({{"type", "action"}, {"table", table}, {"seq", lead["seq"]}, {"action", lead["legal"][0]}});
  const json robot_play = wait_for(a, [&](const json& m) {
    return m["type"] == "event" && m["event"]["type"] == "play" && m["event"]["seat"] == 1;
  });
  REQUIRE(robot_play.is_object());
  CHECK(robot_play["auto"] == "away");

  // Bob comes back: his seat is his again, for everyone to see.
  WsClient b2(ts.port());
  CHECK(reconnect(b2, token_b)["resumed"] == true);
  const json state = b2.expect("table_state");
  CHECK(state["seat"] == 1);
  CHECK(state["seats"][1]["away"] == false);
  CHECK_FALSE(state["seats"][1].contains("played_by"));
  const std::int64_t back_at = state["seq"];
  const json back = wait_for(a, update_where(table, 1, [](const json& s) { return s["away"] == false; }));
  REQUIRE(back.is_object());
  CHECK_FALSE(back["seats"][1].contains("played_by"));
  CHECK_FALSE(back["seats"][1].contains("takeover_in_ms"));

  play_out({&a, &b2}, table);
  // The replay marks exactly the robot's moves for Bob, all made while he was away.
  const json replay = replay_of(ts.port(), table);
  int marked = 0;
  for (const auto& entry : replay["log"]) {
    if (!entry.contains("auto")) continue;
    ++marked;
    CHECK(entry["auto"] == "away");
    CHECK(entry["seat"] == 1);
    CHECK(entry["seq"].get<std::int64_t>() <= back_at);
  }
  CHECK(marked >= 2);
  check_schemas(a);
  check_schemas(b2);
}

TEST_CASE("disconnect policy `none`: the away seat waits for its player") {
  TestServer ts;
  WsClient a(ts.port());
  auto b = std::make_unique<WsClient>(ts.port());
  a.hello("ann");
  b->hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 1}}},
                                       {"disconnect_policy", {{"grace_seconds", 0}, {"takeover", "none"}}}})["table"];
  b->call({{"type", "join"}, {"table", table}});
  const std::string token_b = b->token();
  b.reset();
  const json away = wait_for(a, update_where(table, 1, [](const json& s) { return s.value("away", false); }));
  REQUIRE(away.is_object());
  CHECK_FALSE(away["seats"][1].contains("takeover_in_ms"));
  CHECK_FALSE(away["seats"][1].contains("played_by"));
  // Nobody bids for Bob.
  CHECK(wait_for(a, [](const json& m) { return m["type"] == "event" && m["event"]["seat"] == 1; }, 1200ms).is_null());
  WsClient b2(ts.port());
  reconnect(b2, token_b);
  play_out({&a, &b2}, table);
  for (const auto& entry : replay_of(ts.port(), table)["log"]) CHECK_FALSE(entry.contains("auto"));
  check_schemas(a);
}

TEST_CASE("move timer: a clock goes out when it starts, and the timer's moves are marked `timer`") {
  TestServer ts;
  WsClient a(ts.port()), watcher(ts.port());
  a.hello("ann");
  watcher.hello("wes");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 1}}},
                                       {"move_timeout_seconds", 1}})["table"];
  CHECK(a.expect("table_state")["clock"].is_null());
  watcher.call({{"type", "spectate"}, {"table", table}});
  a.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "random"}});
  const json clock = watcher.expect("clock");
  CHECK(clock["table"] == table);
  CHECK(clock["seats"] == json::array({0}));
  CHECK(clock["remaining_ms"].get<int>() > 0);
  CHECK(clock["remaining_ms"].get<int>() <= 1000);
  a.send({{"type", "resync"}, {"table", table}});
  const json state = wait_for(a, [](const json& m) { return m["type"] == "table_state" && m["clock"].is_object(); });
  REQUIRE(state.is_object());
  CHECK(state["clock"]["seats"] == json::array({0}));
  CHECK(state["clock"]["seq"] == state["seq"]);

  // Ann never answers: the timer plays her whole game.
  a.expect("game_over", 6s);
  watcher.expect("game_over");  // reads what the watcher was sent meanwhile
  int timer_events = 0;
  for (const auto& m : watcher.log) timer_events += m["type"] == "event" && m.value("auto", "") == "timer";
  CHECK(timer_events >= 2);
  for (const auto& entry : replay_of(ts.port(), table)["log"]) {
    if (entry["seat"] == 0) {
      CHECK(entry["auto"] == "timer");
    } else {
      CHECK_FALSE(entry.contains("auto"));  // a bot seat plays for itself
    }
  }
  check_schemas(a);
  check_schemas(watcher);
}

TEST_CASE("leave after the start: the robot's moves for the seat are marked `left`") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 2}}}})["table"];
  b.call({{"type", "join"}, {"table", table}});
  a.expect("request");
  CHECK(a.call({{"type", "leave"}, {"table", table}})["type"] == "left");
  play_out({&b}, table);
  int left_events = 0;
  for (const auto& m : b.log) {
    if (m["type"] == "event" && m.contains("auto")) {
      CHECK(m["auto"] == "left");
      ++left_events;
    }
  }
  CHECK(left_events >= 2);
  for (const auto& entry : replay_of(ts.port(), table)["log"]) {
    CHECK((entry["seat"] == 0) == (entry.value("auto", "") == "left"));
  }
  check_schemas(b);
}

TEST_CASE("dead tables: a started table whose every player is away is closed; robots wait meanwhile") {
  auto dir = temp_dir("abandoned");
  auto ts = std::make_unique<TestServer>([](casa::server::Config& c) { c.abandoned_table_seconds = 1; }, dir);
  WsClient watcher(ts->port());
  watcher.hello("wes");
  auto a = std::make_unique<WsClient>(ts->port());
  auto b = std::make_unique<WsClient>(ts->port());
  a->hello("ann");
  b->hello("bob");
  const std::string token_a = a->token();
  const std::string table = create(*a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 3}}},
                                        {"disconnect_policy", {{"grace_seconds", 0}, {"takeover", "robot"}}}})["table"];
  watcher.call({{"type", "spectate"}, {"table", table}});
  b->call({{"type", "join"}, {"table", table}});
  a->expect("request");

  a.reset();  // Bob is still here: the robot bids for Ann at once.
  REQUIRE(wait_for(watcher, event_where(table, "away")).is_object());
  const auto gone = std::chrono::steady_clock::now();
  b.reset();  // Now nobody is left: the robots wait, then the table is closed.
  const json closed = wait_for(watcher, [&](const json& m) { return m["type"] == "table_closed"; });
  REQUIRE(closed.is_object());
  CHECK(std::chrono::steady_clock::now() - gone >= 900ms);
  CHECK(closed["table"] == table);
  CHECK(closed["reason"] == "abandoned");
  CHECK_FALSE(closed["message"].get<std::string>().empty());
  int away_events = 0;
  for (const auto& m : watcher.log) away_events += m["type"] == "event" && m.value("auto", "") == "away";
  CHECK(away_events == 1);  // Ann's bid only: nobody bid for Bob once all were gone
  check_schemas(watcher);

  // Closed for good: not resumed after a restart, nothing sent to its players.
  ts->restart();
  WsClient a2(ts->port());
  CHECK(reconnect(a2, token_a)["resumed"] == true);
  CHECK(wait_for(a2, [](const json& m) { return m["type"] == "table_state"; }, 500ms).is_null());
  CHECK(a2.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", {{"type", "bid"}}}})["code"] ==
        "no_such_table");
}

TEST_CASE("dead tables: a waiting table is closed when its creator leaves or stays away") {
  TestServer ts([](casa::server::Config& c) { c.creator_gone_seconds = 1; });
  WsClient b(ts.port());
  b.hello("bob");
  {
    WsClient a(ts.port());
    a.hello("ann");
    const std::string table = create(a, {{"game", "fake-trick"}, {"players", 3}})["table"];
    b.call({{"type", "join"}, {"table", table}});
    a.call({{"type", "leave"}, {"table", table}});
    const json closed = wait_for(b, [](const json& m) { return m["type"] == "table_closed"; });
    REQUIRE(closed.is_object());
    CHECK(closed["table"] == table);
    CHECK(closed["reason"] == "creator_gone");
    CHECK(b.call({{"type", "list_tables"}})["tables"].empty());
    CHECK(b.call({{"type", "join"}, {"table", table}, {"seat", 0}})["type"] == "error");
  }
  std::string table;
  {
    WsClient a(ts.port());
    a.hello("ann");
    table = create(a, {{"game", "fake-trick"}, {"players", 3}})["table"];
    b.call({{"type", "join"}, {"table", table}});
  }  // Ann's connection drops
  const json away = wait_for(b, update_where(table, 0, [](const json& s) { return s.value("away", false); }));
  REQUIRE(away.is_object());
  CHECK(away["status"] == "waiting");
  CHECK_FALSE(away["seats"][0].contains("takeover_in_ms"));  // no game to play yet
  const json closed = wait_for(b, [](const json& m) { return m["type"] == "table_closed"; });
  REQUIRE(closed.is_object());
  CHECK(closed["table"] == table);
  CHECK(closed["reason"] == "creator_gone");
  check_schemas(b);
}

TEST_CASE("restart: away seats are rebuilt, their grace counts from the restart, and the robot plays on") {
  auto dir = temp_dir("away-restart");
  auto ts = std::make_unique<TestServer>(std::function<void(casa::server::Config&)>{}, dir);
  std::string table, token_a;
  {
    WsClient a(ts->port()), b(ts->port());
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    table = create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 2}}},
                       {"disconnect_policy", {{"grace_seconds", 1}, {"takeover", "robot"}}}})["table"];
    b.call({{"type", "join"}, {"table", table}});
    const json ra = a.expect("request");
    const json rb = b.expect("request");
    a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", ra["legal"][0]}});
    b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", rb["legal"][0]}});
    const json lead = wait_for(a, [](const json& m) { return m["type"] == "request"; });
    REQUIRE(lead.is_object());
    a.call({{"type", "action"}, {"table", table}, {"seq", lead["seq"]}, {"action", lead["legal"][0]}});
  }  // Bob must answer Ann's lead; both are gone.
  ts->restart();
  WsClient a(ts->port());
  reconnect(a, token_a);
  const json state = a.expect("table_state");
  CHECK(state["table"] == table);
  CHECK(state["disconnect_policy"]["grace_seconds"] == 1);
  CHECK(state["seats"][0]["away"] == false);
  CHECK(state["seats"][1]["away"] == true);
  CHECK((state["seats"][1].contains("takeover_in_ms") || state["seats"][1].contains("played_by")));
  const json robot_play = wait_for(a, event_where(table, "away"));
  REQUIRE(robot_play.is_object());
  CHECK(robot_play["event"]["seat"] == 1);
  play_out({&a}, table);
  check_schemas(a);
}
