// SPDX-License-Identifier: AGPL-3.0-or-later
// The view_patch feature (docs/protocol.md, "Features"): a connection that asks
// for it in hello gets requests whose view is a JSON merge patch against the
// last view it got; every other connection keeps the whole view (protocol v1
// unchanged). Applying the patches in order gives exactly the seat's view at
// every seq, a reconnected player starts again from a whole view, and no patch
// carries a card its seat may not see.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "protocol/value_json.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

json hello_with(WsClient& c, const std::string& name, const json& features, const std::string& token = "") {
  json m = {{"type", "hello"}, {"version", 1}};
  if (!name.empty()) m["name"] = name;
  if (!token.empty()) m["token"] = token;
  if (!features.is_null()) m["features"] = features;
  json w = c.call(m);
  REQUIRE_MESSAGE(w["type"] == "welcome", w.dump());
  c.player_id = w["player_id"];
  return w;
}

// What a client following the protocol holds as its view of `table` after
// each request of `log`: (the table's seq then, view). A request carries the
// seq of the decision, which a request sent again (after a reconnect) keeps
// while its view is the table's now: the table's seq is the latest seq the
// connection has heard of. Counts the requests with a patch.
std::vector<std::pair<std::int64_t, json>> views_seen(const std::vector<json>& log, const std::string& table,
                                                      int& patched) {
  std::vector<std::pair<std::int64_t, json>> out;
  json view;
  std::int64_t latest = 0;
  for (const auto& m : log) {
    if (m.value("table", "") != table) continue;
    if (m.contains("seq") && m["seq"].is_number_integer()) latest = std::max(latest, m["seq"].get<std::int64_t>());
    if (m["type"] == "table_state") view = m["view"];
    if (m["type"] != "request") continue;
    if (m.contains("view")) {
      view = m["view"];
    } else {
      REQUIRE_MESSAGE(view.is_object(), "a view_patch before any whole view: " << m.dump());
      view.merge_patch(m["view_patch"]);
      ++patched;
    }
    out.emplace_back(latest, view);
  }
  return out;
}

}  // namespace

TEST_CASE("view_patch: negotiated in hello, exact views from patches, whole views after a reconnect, no leak") {
  TestServer ts{[](casa::server::Config& c) {
    c.rate_burst = 1e9;
    c.rate_per_second = 1e9;
  }};
  // Seats 0 and 2 ask for patches (seat 2 also for a name no server knows);
  // seats 1 and 3 are protocol v1 clients that never name a feature.
  std::vector<std::unique_ptr<WsClient>> seats;
  const std::vector<json> features = {json::array({"view_patch"}), nullptr, json::array({"no_such_feature", "view_patch"}),
                                      nullptr};
  std::string token0;
  for (int s = 0; s < 4; ++s) {
    seats.push_back(std::make_unique<WsClient>(ts.port()));
    const json w = hello_with(*seats.back(), "seat" + std::to_string(s), features[s]);
    if (s == 0) token0 = w["token"];
    if (features[s].is_null()) {
      CHECK_FALSE(w.contains("features"));
    } else {
      CHECK(w["features"] == json::array({"view_patch"}));
    }
  }
  const json created = seats[0]->call(
      {{"type", "create_table"}, {"game", "la-casa"}, {"players", 4}, {"options", {{"rounds", 1}}}, {"seed", 7}});
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const std::string table = created["table"];
  for (int s = 1; s < 4; ++s) {
    REQUIRE(seats[s]->call({{"type", "join"}, {"table", table}, {"seat", s}})["type"] == "joined");
  }

  // Play at random; seat 0's player reconnects (a new connection, resumed by
  // token, also asking for patches) once the game is under way.
  std::mt19937 rng(3);
  std::vector<std::unique_ptr<WsClient>> retired;
  bool reconnected = false;
  int over = 0;
  std::vector<bool> done(4, false);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (over < 4 && std::chrono::steady_clock::now() < deadline) {
    for (int s = 0; s < 4; ++s) {
      auto m = seats[s]->recv(std::chrono::milliseconds(2));
      if (!m || (*m).value("table", "") != table) continue;
      if ((*m)["type"] == "game_over" && !done[s]) {
        done[s] = true;
        ++over;
      } else if ((*m)["type"] == "request") {
        if (s == 0 && !reconnected && (*m)["seq"].get<int>() >= 12) {
          reconnected = true;
          retired.push_back(std::move(seats[0]));
          seats[0] = std::make_unique<WsClient>(ts.port());
          const json w = hello_with(*seats[0], "", json::array({"view_patch"}), token0);
          CHECK(w["resumed"] == true);
          continue;  // the new connection gets the table_state and this request again
        }
        const auto& legal = (*m)["legal"];
        seats[s]->send({{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", legal[rng() % legal.size()]}});
      }
    }
  }
  REQUIRE_MESSAGE(over == 4, "the game did not finish in time");
  REQUIRE(reconnected);

  // The mirror: the seat's true view at every seq.
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  auto mirror = create_test_game("la-casa", 4, casa::protocol::json_to_value(replay["options"]),
                                 std::stoull(replay["seed"].get<std::string>()));
  REQUIRE(mirror.game);
  std::vector<std::vector<json>> truth(4);  // [seat][seq]
  auto note = [&] {
    for (int s = 0; s < 4; ++s) truth[s].push_back(casa::to_json(mirror.game->view(s)));
  };
  note();
  for (const auto& entry : replay["log"]) {
    casa::Action a;
    REQUIRE_FALSE(mirror.game->decode_action(casa::protocol::json_to_value(entry["action"]), a));
    REQUIRE_FALSE(mirror.game->apply(entry["seat"].get<int>(), a, nullptr));
    note();
  }

  struct Connection {
    int seat;
    const WsClient* client;
    bool patches;
  };
  const std::vector<Connection> connections = {{0, retired[0].get(), true}, {0, seats[0].get(), true},
                                               {1, seats[1].get(), false}, {2, seats[2].get(), true},
                                               {3, seats[3].get(), false}};
  for (const auto& c : connections) {
    int patched = 0;
    const auto views = views_seen(c.client->log, table, patched);
    CHECK(views.size() > 3);
    for (const auto& [seq, view] : views) {
      REQUIRE(seq < static_cast<std::int64_t>(truth[c.seat].size()));
      CHECK_MESSAGE(view == truth[c.seat][seq], "seat " << c.seat << " at seq " << seq);
    }
    if (c.patches) {
      CHECK(patched > 0);
    } else {
      CHECK(patched == 0);
    }
    // The first request on each connection carries the whole view.
    for (const auto& m : c.client->log) {
      if (m["type"] == "request") {
        CHECK(m.contains("view"));
        break;
      }
    }
    CHECK(check_no_leak(*c.client, c.seat, replay) > 0);
    check_schemas(*c.client);
  }
}

TEST_CASE("view_patch: a bad features list is refused like any bad field") {
  TestServer ts;
  WsClient c(ts.port());
  const json r = c.call({{"type", "hello"}, {"version", 1}, {"name", "x"}, {"features", "view_patch"}});
  CHECK(r["type"] == "error");
  CHECK(r["code"] == "bad_field");
  const json w = c.call({{"type", "hello"}, {"version", 1}, {"name", "x"}, {"features", json::array()}});
  CHECK(w["type"] == "welcome");
  CHECK(w["features"] == json::array());
}
