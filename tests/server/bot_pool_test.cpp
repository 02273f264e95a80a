// SPDX-License-Identifier: AGPL-3.0-or-later
// The bot worker pool (server/table/bot_pool.h) and searching bots at tables: a search
// never runs on a table's strand or a network thread, so another table's moves
// go on while a strong bot thinks; a saturated pool makes the bot play robot.
#include "server/table/bot_pool.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/support.h"

using namespace casa;
using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// A gate jobs wait at until it opens.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  void wait() {
    std::unique_lock lock(m);
    cv.wait(lock, [this] { return open; });
  }
  void release() {
    {
      std::lock_guard lock(m);
      open = true;
    }
    cv.notify_all();
  }
};

// The number of actions `table` has accepted, as its table_state says (asked
// through `client`, seated there). The table answers on its strand: a search
// running on that strand would make this wait, then show the bot's move.
std::int64_t table_seq(WsClient& client, const std::string& table) {
  while (client.recv(100ms)) {
  }  // older table_states, from the start
  client.send({{"type", "resync"}, {"table", table}});
  for (;;) {
    const json m = client.expect("table_state");
    if (m["table"] == table) return m["seq"].get<std::int64_t>();
  }
}

// The first message satisfying `pred` within `timeout` (null if none).
json find_message(WsClient& c, const std::function<bool(const json&)>& pred,
                  std::chrono::milliseconds timeout) {
  auto m = c.find(pred, timeout);
  return m ? *m : json();
}

std::function<bool(const json&)> event_by(const std::string& table, const std::string& by) {
  return [=](const json& m) {
    return m["type"] == "event" && m["table"] == table && m.value("auto", "") == by;
  };
}

// Waits until the bot pool has a job (a search running or queued); false if
// none came within `timeout`.
bool pool_gets_work(server::BotPool& pool, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (pool.load() == 0) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}


}  // namespace

TEST_CASE("BotPool: a fixed number of threads; a full queue refuses the job") {
  server::BotPool pool(1, 1);
  CHECK(pool.threads() == 1);
  Gate gate;
  std::atomic<int> ran{0};
  std::atomic<bool> started{false};
  CHECK(pool.try_submit([&] {
    started = true;
    gate.wait();
    ++ran;
  }));
  // The one thread is busy: one job may wait, the next is refused.
  while (!started) std::this_thread::yield();
  CHECK(pool.try_submit([&] { ++ran; }));
  CHECK_FALSE(pool.try_submit([&] { ++ran; }));
  CHECK(pool.load() == 2);
  gate.release();
  while (pool.load() != 0) std::this_thread::yield();
  CHECK(ran == 2);

  server::BotPool none(0, 4);
  CHECK_FALSE(none.try_submit([] {}));
}

TEST_CASE("a strong bot thinks on the bot pool: another table's moves are not held up") {
  // One network thread: a search on it (or on a strand it runs) would stop
  // every other table until the bot's move.
  TestServer ts([](server::Config& c) {
    c.threads = 1;
    c.bot_threads = 1;
    c.strong_ms = 4000;
  });
  WsClient ann(ts.port()), bea(ts.port()), cy(ts.port());
  ann.hello("ann");
  bea.hello("bea");
  cy.hello("cy");

  // Table B: two people play; each move's round trip (action sent, the other
  // player's request received) is timed.
  const std::string b =
      create(bea, {{"game", "casino"}, {"players", 2}, {"options", {{"dealer", 0}}}})["table"];
  CHECK(cy.call({{"type", "join"}, {"table", b}, {"seat", 1}})["type"] == "joined");
  WsClient* players[2] = {&bea, &cy};
  json request = cy.expect("request");
  int turn = 1;
  auto play_moves = [&](int moves) {
    std::vector<double> ms;
    for (int move = 0; move < moves; ++move) {
      const auto start = std::chrono::steady_clock::now();
      players[turn]->send({{"type", "action"},
                           {"table", b},
                           {"seq", request["seq"]},
                           {"action", request["legal"][0]}});
      turn = 1 - turn;
      request = players[turn]->expect("request");
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    return ms;
  };
  const std::vector<double> before = play_moves(6);

  // Table A: Casino, dealer 0, so the strong bot at seat 1 plays first and
  // starts thinking as soon as it sits down.
  const std::string a =
      create(ann, {{"game", "casino"}, {"players", 2}, {"options", {{"dealer", 0}}}})["table"];
  CHECK(ann.call({{"type", "add_bot"}, {"table", a}, {"seat", 1}, {"bot", "strong"}})["type"] ==
        "bot_added");
  server::BotPool* pool = ts.server->lobby().bot_pool();
  REQUIRE(pool);
  const bool busy_from = pool_gets_work(*pool, 5s);
  const std::vector<double> during = play_moves(6);
  // All six moves of B were served while A's bot was still thinking, on the
  // only bot thread, busy from before B's first move to after its last.
  CHECK(busy_from);
  CHECK(pool->load() == 1);
  CHECK_MESSAGE(table_seq(ann, a) == 0, "the strong bot moved before table B's moves were done");

  auto mean = [](const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / static_cast<double>(v.size());
  };
  auto worst = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  std::printf(
      "bot pool isolation, table B move round trips: before %.2f ms mean (worst %.2f); while a "
      "strong "
      "bot thinks 4000 ms at table A: %.2f ms mean (worst %.2f)\n",
      mean(before), worst(before), mean(during), worst(during));
  // Then the bot's move arrives: the search did finish and came back.
  const json next = ann.expect("request", 15s);
  CHECK(next["table"] == a);
}

TEST_CASE("a saturated bot pool: the strong bot plays the robot's move at once") {
  TestServer ts([](server::Config& c) {
    c.bot_threads = 1;
    c.bot_queue = 0;
    c.strong_ms = 4000;
  });
  WsClient ann(ts.port()), bea(ts.port());
  ann.hello("ann");
  bea.hello("bea");
  const std::string a =
      create(ann, {{"game", "casino"}, {"players", 2}, {"options", {{"dealer", 0}}}})["table"];
  CHECK(ann.call({{"type", "add_bot"}, {"table", a}, {"seat", 1}, {"bot", "strong"}})["type"] ==
        "bot_added");
  // The only bot thread now thinks for table A; table C's strong bot finds no room.
  const std::string c =
      create(bea, {{"game", "casino"}, {"players", 2}, {"options", {{"dealer", 0}}}})["table"];
  CHECK(bea.call({{"type", "add_bot"}, {"table", c}, {"seat", 1}, {"bot", "strong"}})["type"] ==
        "bot_added");
  const json request = bea.expect("request", 3s);  // after C's bot moved
  CHECK(request["table"] == c);
  CHECK(table_seq(ann, a) == 0);  // A's search still runs
  CHECK(ann.expect("request", 15s)["table"] == a);
}

TEST_CASE("takeover strong: the strong bot plays a move the timer runs out on") {
  TestServer ts([](server::Config& c) {
    c.bot_threads = 1;
    c.strong_ms = 1500;
  });
  server::BotPool* pool = ts.server->lobby().bot_pool();
  REQUIRE(pool);
  WsClient ann(ts.port()), bea(ts.port());
  ann.hello("ann");
  bea.hello("bea");

  // The move timer: Bea (seat 1, first to play) lets her 1 s run out. Nothing
  // searches before; then the strong bot thinks on the pool for her, and its move
  // is marked "timer".
  const json policy = {{"grace_seconds", 60}, {"takeover", "strong"}};
  const std::string t = create(ann, {{"game", "casino"},
                                     {"players", 2},
                                     {"options", {{"dealer", 0}}},
                                     {"move_timeout_seconds", 1},
                                     {"disconnect_policy", policy}})["table"];
  CHECK(ann.expect("table_state")["disconnect_policy"] == policy);
  CHECK(bea.call({{"type", "join"}, {"table", t}, {"seat", 1}})["type"] == "joined");
  CHECK(bea.expect("request")["table"] == t);
  CHECK(pool->load() == 0);
  CHECK_MESSAGE(pool_gets_work(*pool, 5s), "the timer's move did not go to the bot pool");
  const json timed = find_message(ann, event_by(t, "timer"), 15s);
  REQUIRE(timed.is_object());
  CHECK(timed["event"]["seat"] == 1);
}

TEST_CASE("takeover strong: the strong bot plays for an away player") {
  // No move timer: after a grace of 0 s the strong bot plays the seat
  // ("played_by": "strong"), searching on the pool; its moves are marked "away".
  TestServer ts([](server::Config& c) {
    c.bot_threads = 1;
    c.strong_ms = 1500;
  });
  server::BotPool* pool = ts.server->lobby().bot_pool();
  REQUIRE(pool);
  WsClient ann(ts.port());
  ann.hello("ann");
  auto cy = std::make_unique<WsClient>(ts.port());
  cy->hello("cy");
  const json away_policy = {{"grace_seconds", 0}, {"takeover", "strong"}};
  const std::string u = create(ann, {{"game", "casino"},
                                     {"players", 2},
                                     {"options", {{"dealer", 1}}},
                                     {"disconnect_policy", away_policy}})["table"];
  CHECK(cy->call({{"type", "join"}, {"table", u}, {"seat", 1}})["type"] == "joined");
  // Seat 0 (Ann) plays first; then Cy's seat is to act, and Cy is gone.
  json request = find_message(
      ann, [&](const json& m) { return m["type"] == "request" && m["table"] == u; }, 5s);
  REQUIRE(request.is_object());
  cy.reset();
  const json taken = find_message(
      ann,
      [&](const json& m) {
        return m["type"] == "table_update" && m["table"] == u &&
               m["seats"][1].contains("played_by");
      },
      5s);
  REQUIRE(taken.is_object());
  CHECK(taken["seats"][1]["played_by"] == "strong");
  CHECK(pool->load() == 0);
  ann.send({{"type", "action"}, {"table", u}, {"seq", request["seq"]}, {"action", request["legal"][0]}});
  CHECK_MESSAGE(pool_gets_work(*pool, 5s), "the away seat's move did not go to the bot pool");
  const json played = find_message(ann, event_by(u, "away"), 15s);
  REQUIRE(played.is_object());
  CHECK(played["event"]["seat"] == 1);
}

TEST_CASE("takeover strong: with every bot thread busy, the timer's move is the robot's at once") {
  TestServer ts([](server::Config& c) {
    c.bot_threads = 1;
    c.bot_queue = 0;
    c.strong_ms = 4000;
  });
  server::BotPool* pool = ts.server->lobby().bot_pool();
  REQUIRE(pool);
  WsClient ann(ts.port()), bea(ts.port()), cy(ts.port());
  ann.hello("ann");
  bea.hello("bea");
  cy.hello("cy");
  // Table A: a strong bot thinks for 4 s on the only bot thread.
  const std::string a =
      create(ann, {{"game", "casino"}, {"players", 2}, {"options", {{"dealer", 0}}}})["table"];
  CHECK(ann.call({{"type", "add_bot"}, {"table", a}, {"seat", 1}, {"bot", "strong"}})["type"] ==
        "bot_added");
  REQUIRE(pool_gets_work(*pool, 5s));
  // Table B: Cy lets the 1 s timer run out; the pool has no room, so the robot
  // answers, before A's search is done.
  const std::string b = create(bea, {{"game", "casino"},
                                     {"players", 2},
                                     {"options", {{"dealer", 0}}},
                                     {"move_timeout_seconds", 1},
                                     {"disconnect_policy", {{"takeover", "strong"}}}})["table"];
  CHECK(cy.call({{"type", "join"}, {"table", b}, {"seat", 1}})["type"] == "joined");
  const json timed = find_message(bea, event_by(b, "timer"), 3500ms);
  REQUIRE(timed.is_object());
  CHECK(timed["event"]["seat"] == 1);
  CHECK(table_seq(ann, a) == 0);  // A's search still runs
  CHECK(ann.expect("request", 15s)["table"] == a);
}
