// SPDX-License-Identifier: AGPL-3.0-or-later
// Crash recovery of the real games (kill_test.cpp does it with fake-trick): a
// casa_test_server process
// is killed with SIGKILL mid-game, restarted on the same database, the players
// resume with their tokens and finish against the same bots. Every action the
// server acknowledged before the kill must be in the finished game's log, and
// every message before and after must fit the schemas and leak no hidden card.
#include <doctest/doctest.h>

#include <memory>

#include "tests/server/child_server.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

// seats: "human" or a bot name. The humans play random legal actions until
// `acks` of them are acknowledged, then the server dies.
void kill_and_recover(const std::string& game, const json& options, std::uint64_t seed,
                      const std::vector<std::string>& seats, int acks) {
  const auto dir = temp_dir("recover");
  const std::string db = test_db(dir);
  ChildServer server = spawn_server(db);
  std::vector<int> human_seats;
  for (std::size_t s = 0; s < seats.size(); ++s) {
    if (seats[s] == "human") human_seats.push_back(static_cast<int>(s));
  }
  std::vector<std::unique_ptr<WsClient>> before;
  for (int s : human_seats) {
    before.push_back(std::make_unique<WsClient>(server.port));
    before.back()->hello("seat" + std::to_string(s));
  }
  const json created = before[0]->call({{"type", "create_table"}, {"game", game},
                                        {"players", static_cast<int>(seats.size())}, {"options", options},
                                        {"seed", seed}, {"seat", human_seats[0]}});
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const std::string table = created["table"];
  for (std::size_t s = 0; s < seats.size(); ++s) {
    if (seats[s] != "human") {
      REQUIRE(before[0]->call({{"type", "add_bot"}, {"table", table}, {"seat", s}, {"bot", seats[s]}})["type"] ==
              "bot_added");
    }
  }
  for (std::size_t i = 1; i < before.size(); ++i) {
    REQUIRE(before[i]->call({{"type", "join"}, {"table", table}, {"seat", human_seats[i]}})["type"] == "joined");
  }

  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  std::vector<json> acknowledged;  // {seq, seat, action} of every `accepted`
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (static_cast<int>(acknowledged.size()) < acks && std::chrono::steady_clock::now() < deadline) {
    for (std::size_t i = 0; i < before.size() && static_cast<int>(acknowledged.size()) < acks; ++i) {
      auto m = before[i]->recv(std::chrono::milliseconds(5));
      if (!m) continue;
      REQUIRE_MESSAGE((*m)["type"] != "game_over", "the game ended before the kill");
      if ((*m)["type"] != "request") continue;
      const json action = (*m)["legal"][rng() % (*m)["legal"].size()];
      const json r = before[i]->call({{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", action}});
      if (r["type"] == "error" && r["code"] == "stale_seq") continue;  // a newer request is on its way
      REQUIRE_MESSAGE(r["type"] == "accepted", r.dump());
      acknowledged.push_back({{"seq", r["seq"]}, {"seat", human_seats[i]}, {"action", action}});
    }
  }
  REQUIRE(static_cast<int>(acknowledged.size()) == acks);
  kill9(server);

  server = spawn_server(db);
  std::vector<std::unique_ptr<WsClient>> after;
  std::vector<WsClient*> players;
  for (const auto& old : before) {
    after.push_back(std::make_unique<WsClient>(server.port));
    CHECK(after.back()->hello("", old->token())["resumed"] == true);
    players.push_back(after.back().get());
  }
  for (auto& c : after) {
    const json state = c->expect("table_state");
    CHECK(state["table"] == table);
    CHECK(state["seq"].get<int>() >= acknowledged.back()["seq"].get<int>());
  }
  const auto over = play_out(players, table, random_legal(static_cast<std::uint32_t>(seed) + 1),
                             std::chrono::seconds(60));
  const json replay = get_json(server.port, "/api/games/" + table, 200);
  REQUIRE(replay["log"].size() == over[0]["seq"].get<std::size_t>());
  check_logged(replay, acknowledged);
  for (std::size_t i = 0; i < before.size(); ++i) {
    CHECK(check_no_leak(*before[i], human_seats[i], replay) > 0);
    CHECK(check_no_leak(*after[i], human_seats[i], replay) > 0);
    check_schemas(*before[i]);
    check_schemas(*after[i]);
  }
  kill9(server);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace

TEST_CASE("kill -9 mid-game of Casino: restart, resume with tokens, finish, nothing acknowledged lost") {
  kill_and_recover("casino", {{"target", 5}, {"sweeps", true}}, 101, {"human", "human"}, 10);
}

TEST_CASE("kill -9 mid-game of Conference: restart, resume with tokens, finish beside the bots") {
  kill_and_recover("conference", {{"hands", 1}, {"good_evil", "allegiance"}, {"gallowglass", true}}, 102,
                   {"human", "robot", "human", "random"}, 10);
}

TEST_CASE("kill -9 mid-game of Trophy Case: restart, resume with tokens, finish beside a bot") {
  kill_and_recover("trophy-case", {{"target", 8}}, 103, {"human", "human", "robot"}, 10);
}

TEST_CASE("kill -9 mid-game of La Casa: restart, resume with tokens, finish beside the robots") {
  kill_and_recover("la-casa", {{"rounds", 1}}, 104, {"human", "robot", "human", "robot"}, 8);
}
