// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa Challenge rounds whose secrecy lives in the message flow, through a
// real server with four test clients and a spectator: Slap-Down (LC-7.16: the
// three followers decide at once, commits hidden until the reveal) and Pass the
// Buck (LC-7.14: the passed card is told to the giver and the receiver only).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

struct FourAtTable {
  TestServer ts{[](casa::server::Config& c) {
    c.rate_burst = 1e9;
    c.rate_per_second = 1e9;
  }};
  std::vector<std::unique_ptr<WsClient>> seats;
  WsClient watcher{ts.port()};
  std::string table;
  json replay;

  explicit FourAtTable(const json& options, std::uint64_t seed) {
    for (int s = 0; s < 4; ++s) {
      seats.push_back(std::make_unique<WsClient>(ts.port()));
      seats.back()->hello("seat" + std::to_string(s));
    }
    watcher.hello("watcher");
    const json created = seats[0]->call(
        {{"type", "create_table"}, {"game", "la-casa"}, {"players", 4}, {"options", options}, {"seed", seed}});
    REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
    table = created["table"];
    REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
    for (int s = 1; s < 4; ++s) {
      REQUIRE(seats[s]->call({{"type", "join"}, {"table", table}, {"seat", s}})["type"] == "joined");
    }
  }

  // Every client's messages with their receiving seat (-1: the spectator).
  std::vector<std::pair<int, const WsClient*>> everyone() const {
    std::vector<std::pair<int, const WsClient*>> all;
    for (int s = 0; s < 4; ++s) all.emplace_back(s, seats[s].get());
    all.emplace_back(-1, &watcher);
    return all;
  }

  void finish_and_scan() {
    watcher.expect("game_over", std::chrono::seconds(10));
    replay = get_json(ts.port(), "/api/games/" + table, 200);
    for (const auto& [seat, client] : everyone()) {
      CHECK(check_no_leak(*client, seat, replay) > 0);
      check_schemas(*client);
    }
  }
};

bool contains_string(const json& v, const std::string& s) {
  std::vector<std::string> strings;
  collect_strings(v, strings);
  return std::find(strings.begin(), strings.end(), s) != strings.end();
}

}  // namespace

TEST_CASE("LC-7.16 Slap-Down over WebSocket: the followers are asked at once, commits stay hidden until the reveal") {
  FourAtTable t({{"challenge", "slap_down"}, {"rounds", 1}}, 5);
  std::mt19937 rng(5);
  auto pick = [&](const json& request) { return request["legal"][rng() % request["legal"].size()]; };
  auto answer = [&](int s, const json& request) {
    t.seats[s]->send({{"type", "action"}, {"table", t.table}, {"seq", request["seq"]}, {"action", pick(request)}});
  };
  // A follower's Slap-Down request is held back until all three followers hold
  // one for the same seq; only then do they commit (in a random order). Were
  // the server to ask the followers one after another, the game would stall.
  std::map<int, json> held;  // seat -> slap_down request
  int slap_tricks = 0;
  std::vector<bool> over(4, false);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::count(over.begin(), over.end(), true) < 4 && std::chrono::steady_clock::now() < deadline) {
    for (int s = 0; s < 4; ++s) {
      auto m = t.seats[s]->recv(std::chrono::milliseconds(2));
      if (!m) continue;
      if ((*m)["type"] == "error") FAIL_CHECK("unexpected error: " << m->dump());
      if ((*m)["type"] == "game_over") over[s] = true;
      if ((*m)["type"] != "request") continue;
      if ((*m)["view"]["phase"] == "slap_down") {
        held[s] = *m;
      } else {
        answer(s, *m);
      }
    }
    if (held.size() == 3) {
      const auto seq = held.begin()->second["seq"];
      for (const auto& [s, r] : held) CHECK_MESSAGE(r["seq"] == seq, "followers asked at different seqs");
      std::vector<int> order;
      for (const auto& [s, r] : held) order.push_back(s);
      std::shuffle(order.begin(), order.end(), rng);
      for (int s : order) answer(s, held[s]);
      held.clear();
      ++slap_tricks;
    }
  }
  REQUIRE_MESSAGE(std::count(over.begin(), over.end(), true) == 4,
                  "the game did not finish (" << held.size() << " followers held at the end)");
  CHECK(slap_tricks > 0);
  t.finish_and_scan();

  // Explicitly: a committed card (told to its owner by my_commit) appears in no
  // message to anyone else before the slap_reveal that shows it.
  std::vector<int> reveals;  // seqs of slap_reveal, ascending
  for (const auto& m : t.watcher.log) {
    if (m["type"] == "event" && m["event"]["type"] == "slap_reveal") reveals.push_back(m["seq"]);
  }
  CHECK(reveals.size() == static_cast<std::size_t>(slap_tricks));
  int commits = 0;
  for (int owner = 0; owner < 4; ++owner) {
    for (const auto& m : t.seats[owner]->log) {
      if (m["type"] != "event" || m["event"]["type"] != "my_commit") continue;
      ++commits;
      const std::string card = m["event"]["card"];
      const int committed_at = m["seq"];
      const auto reveal = std::lower_bound(reveals.begin(), reveals.end(), committed_at);
      REQUIRE(reveal != reveals.end());
      for (const auto& [seat, client] : t.everyone()) {
        if (seat == owner) continue;
        for (const auto& other : client->log) {
          if (!other.contains("seq") || other["seq"].get<int>() >= *reveal) continue;
          CHECK_MESSAGE(!contains_string(other, card),
                        "seat " << seat << " learnt " << card << " of seat " << owner << " early: " << other.dump());
        }
      }
    }
  }
  CHECK(commits == 4 * slap_tricks);
}

TEST_CASE("LC-7.14 Pass the Buck over WebSocket: the passed card reaches only the giver and the receiver") {
  FourAtTable t({{"challenge", "pass_the_buck"}, {"rounds", 1}}, 6);
  std::vector<WsClient*> clients;
  for (auto& c : t.seats) clients.push_back(c.get());
  play_out(clients, t.table, random_legal(6), std::chrono::seconds(30));
  t.finish_and_scan();

  int passes = 0;
  for (const auto& m : t.watcher.log) {
    if (m["type"] != "event" || m["event"]["type"] != "pass_card") continue;
    ++passes;
    CHECK_FALSE(m["event"].contains("card"));
    const int seq = m["seq"];
    const int giver = m["event"]["seat"];
    const int receiver = m["event"]["to"];
    CHECK(receiver == (giver + 1) % 4);
    std::string card;
    for (const auto& g : t.seats[giver]->log) {
      if (g["type"] == "event" && g["seq"] == seq && g["event"]["type"] == "pass_card") card = g["event"]["card"];
    }
    REQUIRE_MESSAGE(!card.empty(), "the giver was not told which card it passed");
    for (const auto& [seat, client] : t.everyone()) {
      int told = 0;
      for (const auto& e : client->log) {
        if (!e.contains("seq") || e["seq"] != seq) continue;
        if (e["type"] == "event" && e["event"]["type"] == "pass_card") {
          ++told;
          CHECK(e["event"]["seat"] == giver);
          CHECK(e["event"].contains("card") == (seat == giver || seat == receiver));
        }
        if (seat != giver && seat != receiver) CHECK_MESSAGE(!contains_string(e, card), e.dump());
      }
      CHECK_MESSAGE(told == 1, "seat " << seat << " got " << told << " pass_card events at seq " << seq);
    }
  }
  CHECK(passes > 0);
}
