// The bot worker pool (server/bot_pool.h) and searching bots at tables: a search
// never runs on a table's strand or a network thread, so another table's moves
// go on while a strong bot thinks; a saturated pool makes the bot play robot.
#include "server/bot_pool.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
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
  const std::vector<double> during = play_moves(6);
  // All six moves of B were served while A's bot was still thinking.
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
