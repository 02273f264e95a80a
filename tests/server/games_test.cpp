// SPDX-License-Identifier: AGPL-3.0-or-later
// Whole games of Casino, Conference and Trophy Case through a real server over
// WebSocket: test clients playing random legal actions beside server bots, and
// a spectator. Every message any of them received must fit the schemas and name
// no card its receiver could not see at that seq (replayed on a mirror). Every
// frame also goes to CASA_MESSAGE_LOG when set (record_messages, support.h).
#include <doctest/doctest.h>

#include <memory>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

// One table: seat kinds are "human" (a test client) or a bot name.
struct Party {
  std::string table;
  std::vector<std::unique_ptr<WsClient>> humans;
  std::vector<int> human_seats;
  std::unique_ptr<WsClient> watcher;
  json replay;

  WsClient& at(int seat) {
    for (std::size_t i = 0; i < humans.size(); ++i) {
      if (human_seats[i] == seat) return *humans[i];
    }
    throw std::runtime_error("no test client at seat " + std::to_string(seat));
  }
};

void unlimited(casa::server::Config& c) {
  c.rate_burst = 1e9;
  c.rate_per_second = 1e9;
}

// Seats everyone (the first human creates the table and adds the bots; the
// spectator comes before the start), runs `on_start`, plays the game out with
// random legal actions, then runs the scans over every client.
Party play_game(TestServer& ts, const std::string& game, json options, std::uint64_t seed,
                const std::vector<std::string>& seats, const std::function<void(Party&)>& on_start = {}) {
  Party p;
  for (std::size_t s = 0; s < seats.size(); ++s) {
    if (seats[s] != "human") continue;
    p.humans.push_back(std::make_unique<WsClient>(ts.port()));
    p.humans.back()->hello("seat" + std::to_string(s));
    p.human_seats.push_back(static_cast<int>(s));
  }
  REQUIRE_FALSE(p.humans.empty());
  p.watcher = std::make_unique<WsClient>(ts.port());
  p.watcher->hello("watcher");
  WsClient& creator = *p.humans[0];
  const json created = creator.call({{"type", "create_table"}, {"game", game},
                                     {"players", static_cast<int>(seats.size())}, {"options", options},
                                     {"seed", seed}, {"seat", p.human_seats[0]}});
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  p.table = created["table"];
  for (std::size_t s = 0; s < seats.size(); ++s) {
    if (seats[s] == "human") continue;
    const json added = creator.call({{"type", "add_bot"}, {"table", p.table}, {"seat", s}, {"bot", seats[s]}});
    REQUIRE_MESSAGE(added["type"] == "bot_added", added.dump());
  }
  REQUIRE(p.watcher->call({{"type", "spectate"}, {"table", p.table}})["type"] == "spectating");
  for (std::size_t i = 1; i < p.humans.size(); ++i) {
    const json joined = p.humans[i]->call({{"type", "join"}, {"table", p.table}, {"seat", p.human_seats[i]}});
    REQUIRE_MESSAGE(joined["type"] == "joined", joined.dump());
  }
  if (on_start) on_start(p);
  std::vector<WsClient*> clients;
  for (auto& h : p.humans) clients.push_back(h.get());
  const auto over = play_out(clients, p.table, random_legal(static_cast<std::uint32_t>(seed)), std::chrono::seconds(60));
  CHECK(over[0]["scores"].size() == seats.size());
  const json watched = p.watcher->expect("game_over", std::chrono::seconds(10));
  CHECK(watched["scores"] == over[0]["scores"]);
  p.replay = get_json(ts.port(), "/api/games/" + p.table, 200);
  REQUIRE(p.replay["log"].size() == over[0]["seq"].get<std::size_t>());
  for (std::size_t i = 0; i < p.humans.size(); ++i) {
    CHECK(check_no_leak(*p.humans[i], p.human_seats[i], p.replay) > 0);
    check_schemas(*p.humans[i]);
    record_messages(*p.humans[i], game);
  }
  CHECK(check_no_leak(*p.watcher, -1, p.replay) > 0);
  check_schemas(*p.watcher);
  record_messages(*p.watcher, game);
  // Trophy Case can end inside a hand, so a sheet may be empty; it must still
  // match the events exactly.
  check_round_sheet(*p.watcher, p.replay);
  return p;
}

// How many actions of the finished game's log have this type.
int logged(const json& replay, const std::string& type) {
  int n = 0;
  for (const auto& entry : replay["log"]) n += entry["action"]["type"] == type;
  return n;
}

// Every chat message of `client`'s log with this text.
std::vector<json> chats_with(const WsClient& client, const std::string& text) {
  std::vector<json> found;
  for (const auto& m : client.log) {
    if (m["type"] == "chat" && m["text"] == text) found.push_back(m);
  }
  return found;
}

}  // namespace

TEST_CASE("Casino over WebSocket, two players: schemas hold, nothing hidden leaks") {
  TestServer ts(unlimited);
  const auto p = play_game(ts, "casino", {{"target", 5}, {"sweeps", true}, {"questions", true}}, 21,
                           {"human", "human"});
  CHECK(p.replay["game"] == "casino");
  CHECK(logged(p.replay, "ask") > 0);  // CA-6 the questions were on
}

TEST_CASE("Casino over WebSocket, four players with partners, sweeps and questions, two bots") {
  TestServer ts(unlimited);
  const auto p = play_game(ts, "casino",
                           {{"target", 5}, {"partners", true}, {"sweeps", true}, {"questions", true}}, 22,
                           {"human", "random", "human", "robot"});
  CHECK(p.replay["players"] == 4);
  CHECK(logged(p.replay, "ask") > 0);
}

TEST_CASE("Conference over WebSocket, Allegiance and Gallowglass: team chat reaches only the team") {
  TestServer ts(unlimited);
  const std::string secret = "lead the fire, partner";
  const std::string open = "good luck all";
  auto p = play_game(ts, "conference", {{"hands", 1}, {"good_evil", "allegiance"}, {"gallowglass", true}}, 31,
                     {"human", "human", "human", "robot"}, [&](Party& party) {
                       // CO-2.1 seats 0+1 are partners, 2+3 their opponents.
                       party.at(0).send({{"type", "chat"}, {"table", party.table}, {"text", secret}, {"team", true}});
                       party.at(2).send({{"type", "chat"}, {"table", party.table}, {"text", open}});
                     });
  CHECK(logged(p.replay, "name_gallowglass") == 1);  // CO-8.1
  // The game has run to its end since, so both chats were delivered long ago.
  const auto to_partner = chats_with(p.at(1), secret);
  REQUIRE(to_partner.size() == 1);
  CHECK(to_partner[0]["team"] == true);
  CHECK(to_partner[0]["seat"] == 0);
  CHECK(chats_with(p.at(0), secret).size() == 1);  // the echo
  CHECK(chats_with(p.at(2), secret).empty());
  CHECK(chats_with(*p.watcher, secret).empty());
  for (const auto* c : {&p.at(0), &p.at(1), &p.at(2), p.watcher.get()}) {
    CHECK(chats_with(*c, open).size() == 1);
    for (const auto& [way, frame] : c->transcript) {
      if (c == &p.at(2) || c == p.watcher.get()) CHECK(frame.find(secret) == std::string::npos);
    }
  }
}

TEST_CASE("Trophy Case over WebSocket, three players with a random bot") {
  TestServer ts(unlimited);
  const auto p = play_game(ts, "trophy-case", {{"target", 8}}, 41, {"human", "random", "human"});
  CHECK(p.replay["players"] == 3);
}

TEST_CASE("Trophy Case over WebSocket, five players with two robots") {
  TestServer ts(unlimited);
  const auto p = play_game(ts, "trophy-case", {{"target", 8}}, 42, {"robot", "human", "human", "robot", "human"});
  CHECK(p.replay["players"] == 5);
}
