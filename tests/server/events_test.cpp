// SPDX-License-Identifier: AGPL-3.0-or-later
// Duplicate events (docs/events.md): the rotation of the sides, scoring against
// the field recomputed by hand from each table's stored result (its replay),
// the deals withheld from a table that has not played them, and an event that
// goes on across a restart.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

json create_event(WsClient& c, const json& fields) {
  json m = {{"type", "create_event"}};
  for (auto& [k, v] : fields.items()) m[k] = v;
  return c.call(m);
}

json get_event(const TestServer& ts, const std::string& event) {
  return get_json(ts.port(), "/api/events/" + event, 200);
}

// Polls GET /api/events/{id} until `done` holds (or fails after `limit`).
json wait_event(const TestServer& ts, const std::string& event,
                const std::function<bool(const json&)>& done, std::chrono::seconds limit = 60s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  json e;
  while (std::chrono::steady_clock::now() < deadline) {
    e = get_event(ts, event);
    if (done(e)) return e;
    std::this_thread::sleep_for(50ms);
  }
  FAIL("the event did not get there in time: " << e.dump());
  return e;
}

json table_of(const json& event, int board, int rotation) {
  for (const auto& t : event["tables"]) {
    if (t["board"] == board && t["rotation"] == rotation) return t;
  }
  return nullptr;
}

// Who sits in a seat of a replay: the bot's name or the player id.
std::string occupant(const json& seat) {
  return seat.contains("bot") ? seat["bot"].get<std::string>()
                              : seat["player_id"].get<std::string>();
}

// The standings of a finished event recomputed by hand from the replays of its
// tables, checked against GET /api/events/{id}: side s sits at rotation k in
// seat group (s+k) mod U, scores its group's first seat's final score, and on
// each board gains, against each other rotation, its score minus the score
// made in the same group there. `occupants[s]` names side s's members per rotation.
void check_standings(const TestServer& ts, const json& event) {
  const int boards = event["boards"];
  const std::size_t rotations = event["rotations"];
  const json& groups = event["groups"];
  REQUIRE(groups.size() == rotations);
  std::vector<long long> totals(rotations, 0), points(rotations, 0);
  long long sum = 0;
  for (int b = 1; b <= boards; ++b) {
    std::vector<json> replays;
    for (std::size_t k = 0; k < rotations; ++k) {
      const json t = table_of(event, b, static_cast<int>(k));
      REQUIRE(t.is_object());
      REQUIRE(t["status"] == "over");
      replays.push_back(
          get_json(ts.port(), "/api/tables/" + t["table"].get<std::string>() + "/replay", 200));
    }
    // The same deal everywhere: the same seed, the same starting state.
    for (std::size_t k = 1; k < rotations; ++k) {
      CHECK(replays[k]["seed"] == replays[0]["seed"]);
      CHECK(replays[k]["initial_state"] == replays[0]["initial_state"]);
    }
    CHECK(event["results"][b - 1]["seed"] == replays[0]["seed"]);
    for (std::size_t s = 0; s < rotations; ++s) {
      for (std::size_t k = 0; k < rotations; ++k) {
        const std::size_t g = (s + k) % rotations;
        // The replay's seats agree with the seating the event reports.
        const json& sides = event["sides"];
        const json& group = groups[g];
        for (std::size_t i = 0; i < group.size(); ++i) {
          const json& member = sides[s]["tables"][k][i];
          const json& seat = replays[k]["seats"][group[i].get<std::size_t>()];
          CHECK(occupant(seat) ==
                (member.contains("bot") ? member["bot"] : member["player_id"]).get<std::string>());
        }
        const long long own = replays[k]["scores"][group[0].get<std::size_t>()].get<long long>();
        long long diff = 0;
        for (std::size_t other = 0; other < rotations; ++other) {
          if (other != k)
            diff += own - replays[other]["scores"][group[0].get<std::size_t>()].get<long long>();
        }
        totals[s] += diff;
        points[s] += own;
        sum += diff;
      }
    }
  }
  CHECK(sum == 0);  // scoring against the field is zero-sum
  REQUIRE(event["standings"].size() == rotations);
  for (const auto& row : event["standings"]) {
    const std::size_t s = row["side"];
    CHECK(row["total"] == totals[s]);
    CHECK(row["points"] == points[s]);
    CHECK(row["hands"] == boards * static_cast<int>(rotations));
  }
  for (std::size_t i = 1; i < event["standings"].size(); ++i) {
    CHECK(event["standings"][i - 1]["total"] >= event["standings"][i]["total"]);
  }
}

bool over(const json& e) { return e["status"] == "over"; }

}  // namespace

TEST_CASE(
    "events: robot against random, two boards of two-player La Casa, scored against the field") {
  TestServer ts;
  WsClient director(ts.port());
  director.hello("director");
  const json created = create_event(
      director,
      {{"game", "la-casa"},
       {"players", 2},
       {"options", {{"rounds", 1}}},
       {"boards", 2},
       {"seeds", {11, 12}},
       {"sides", {{{"members", {{{"bot", "robot"}}}}}, {{"members", {{{"bot", "random"}}}}}}}});
  REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
  CHECK(created["rotations"] == 2);
  CHECK(created["tables"].size() == 2);
  const std::string event = created["event"];
  const json e = wait_event(ts, event, over);
  CHECK(e["game"] == "la-casa");
  CHECK(e["sides"][0]["name"] == "robot");
  CHECK(e["seeds"] == json({"11", "12"}));
  // The rotation: robot holds seat 0 at rotation 0 and seat 1 at rotation 1.
  CHECK(table_of(e, 1, 0)["seating"] == json({0, 1}));
  CHECK(table_of(e, 1, 1)["seating"] == json({1, 0}));
  CHECK(table_of(e, 2, 1)["seating"] == json({1, 0}));
  for (const auto& board : e["results"]) CHECK(board["revealed"] == true);
  check_standings(ts, e);
  check_schemas(director);
  // CASA_EVENT_JSON=path writes this event's page, the web client's test fixture
  // (clients/web/test/fixtures/event-over.json).
  if (const char* out = std::getenv("CASA_EVENT_JSON")) std::ofstream(out) << e.dump(2) << "\n";
}

TEST_CASE("events: every side holds every seat group once (4-player partners, 3-player Casino)") {
  TestServer ts;
  WsClient director(ts.port());
  director.hello("director");
  SUBCASE("La Casa, four players: two partnerships, two tables") {
    const json created = create_event(
        director,
        {{"game", "la-casa"},
         {"players", 4},
         {"options", {{"rounds", 1}}},
         {"seeds", {5}},
         {"sides",
          {{{"name", "robots"}, {"members", {{{"bot", "robot"}}, {{"bot", "robot"}}}}},
           {{"name", "randoms"}, {"members", {{{"bot", "random"}}, {{"bot", "random"}}}}}}}});
    REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
    const json e = wait_event(ts, created["event"], over);
    CHECK(e["groups"] == json({{0, 2}, {1, 3}}));
    CHECK(table_of(e, 1, 0)["seating"] == json({0, 1, 0, 1}));
    CHECK(table_of(e, 1, 1)["seating"] == json({1, 0, 1, 0}));
    check_standings(ts, e);
  }
  SUBCASE("Casino, three players: each seat alone, three tables") {
    const json created =
        create_event(director, {{"game", "casino"},
                                {"players", 3},
                                {"options", {{"rounds", 1}}},
                                {"seeds", {8}},
                                {"sides",
                                 {{{"members", {{{"bot", "robot"}}}}},
                                  {{"members", {{{"bot", "random"}}}}},
                                  {{"name", "third"}, {"members", {{{"bot", "random"}}}}}}}});
    REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
    CHECK(created["rotations"] == 3);
    const json e = wait_event(ts, created["event"], over);
    // Side s sits in seat (s + k) mod 3: over the three tables each side holds each seat once.
    std::map<int, std::set<int>> seats_of;
    for (int k = 0; k < 3; ++k) {
      const json seating = table_of(e, 1, k)["seating"];
      for (int seat = 0; seat < 3; ++seat)
        seats_of[seating[static_cast<std::size_t>(seat)].get<int>()].insert(seat);
    }
    for (int s = 0; s < 3; ++s) CHECK(seats_of[s] == std::set<int>({0, 1, 2}));
    for (const auto& d : e["results"][0]["differences"]) CHECK(d["compared"] == 2);
    check_standings(ts, e);
  }
  check_schemas(director);
}

TEST_CASE("events: bad create_event requests are refused and create nothing") {
  TestServer ts;
  WsClient c(ts.port());
  c.hello("ann");
  const json robot = {{"members", {{{"bot", "robot"}}}}};
  auto code = [&](const json& fields) {
    const json r = create_event(c, fields);
    CHECK(r["type"] == "error");
    return r.value("code", "");
  };
  CHECK(code({{"game", "la-casa"}, {"players", 2}, {"sides", {robot}}}) ==
        "bad_field");  // one side of two
  CHECK(code({{"game", "la-casa"},
              {"players", 2},
              {"sides", {robot, {{"members", {{{"bot", "nobody"}}}}}}}}) == "bad_field");
  CHECK(code({{"game", "la-casa"},
              {"players", 2},
              {"sides", {robot, {{"members", {{{"player_id", "pnobody"}}}}}}}}) ==
        "no_such_player");
  CHECK(code({{"game", "la-casa"},
              {"players", 2},
              {"sides", {robot, {{"members", {{{"bot", "robot"}}, {{"bot", "robot"}}}}}}}}) ==
        "bad_field");  // two members for a one-seat side
  CHECK(code({{"game", "la-casa"}, {"players", 2}, {"seeds", {1, 2}}, {"sides", {robot, robot}}}) ==
        "bad_field");
  CHECK(code({{"game", "nothing"}, {"players", 2}, {"sides", {robot, robot}}}) == "no_such_game");
  CHECK(code({{"game", "la-casa"},
              {"players", 2},
              {"options", {{"format", "nope"}}},
              {"sides", {robot, robot}}}) == "bad_option");
  const json me = {{"members", {{{"player_id", c.player_id}}}}};
  CHECK(code({{"game", "la-casa"}, {"players", 2}, {"sides", {me, me}}}) ==
        "bad_field");  // twice at one table
  CHECK(ts.server->lobby().table_count() == 0);
  check_schemas(c);
}

TEST_CASE(
    "events: a table still to play a board learns nothing of that board from the other tables") {
  TestServer ts;
  WsClient h(ts.port());
  h.hello("hugo");
  const std::uint64_t seed = 4242424242424242ULL;
  // Rotation 0: robot (for Hugo's side) against random, played at once by bots.
  // Rotation 1: Hugo holds seat 1, the same deal; he waits before playing.
  const json created =
      create_event(h, {{"game", "la-casa"},
                       {"players", 2},
                       {"options", {{"rounds", 1}}},
                       {"seeds", {seed}},
                       {"sides",
                        {{{"name", "hugo's side"},
                          {"tables", {{{{"bot", "robot"}}}, {{{"player_id", h.player_id}}}}}},
                         {{"members", {{{"bot", "random"}}}}}}}});
  REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
  const std::string event = created["event"];
  const std::string bots_table = created["tables"][0];
  const std::string hugo_table = created["tables"][1];
  json e =
      wait_event(ts, event, [&](const json& ev) { return table_of(ev, 1, 0)["status"] == "over"; });
  CHECK(table_of(e, 1, 1)["status"] == "playing");

  // The event page hides the board: no seed, no scores, no standings moved.
  const std::string seed_text = std::to_string(seed);
  CHECK(e["status"] == "running");
  CHECK(e["results"][0]["revealed"] == false);
  CHECK_FALSE(e["results"][0].contains("results"));
  CHECK_FALSE(e["results"][0].contains("differences"));
  CHECK_FALSE(e.contains("seeds"));
  CHECK(e.dump().find(seed_text) == std::string::npos);
  for (const auto& row : e["standings"]) {
    CHECK(row["total"] == 0);
    CHECK(row["hands"] == 0);
  }
  // The finished table's replay is withheld; it cannot be watched.
  get_json(ts.port(), "/api/tables/" + bots_table + "/replay", 403);
  get_json(ts.port(), "/api/games/" + bots_table, 403);
  CHECK(h.call({{"type", "spectate"}, {"table", bots_table}})["code"] == "event_table");
  CHECK(h.call({{"type", "resync"}, {"table", bots_table}})["code"] == "event_table");
  // Nothing Hugo received comes from the other table (only event_created and
  // the refusals above name it), nor holds the seed.
  auto scan = [&] {
    for (const auto& m : h.log) {
      CHECK_MESSAGE(m.dump().find(seed_text) == std::string::npos, m.dump());
      if (m["type"] == "event_created" || m["type"] == "error") continue;
      std::vector<std::string> strings;
      collect_strings(m, strings);
      for (const auto& s : strings) CHECK_MESSAGE(s != bots_table, m.dump());
    }
  };
  scan();

  // Hugo plays his table out; then everything is revealed.
  play_out({&h}, hugo_table, random_legal(3));
  scan();
  e = wait_event(ts, event, over);
  CHECK(e["results"][0]["revealed"] == true);
  CHECK(e["seeds"] == json({seed_text}));
  check_standings(ts, e);
  const json replay = get_json(ts.port(), "/api/tables/" + hugo_table + "/replay", 200);
  CHECK(check_no_leak(h, 1, replay, /*event_table=*/true) > 0);
  get_json(ts.port(), "/api/tables/" + bots_table + "/replay", 200);
  check_schemas(h);
}

TEST_CASE("events: an event goes on across a restart; standings come from the stored results") {
  TestServer ts;
  std::string token;
  std::string event;
  std::string first_table;
  {
    WsClient h(ts.port());
    h.hello("hanna");
    token = h.token();
    // Rotation 0: Hanna at seat 0 for both boards; rotation 1: bots only.
    const json created =
        create_event(h, {{"game", "la-casa"},
                         {"players", 2},
                         {"options", {{"rounds", 1}}},
                         {"boards", 2},
                         {"seeds", {21, 22}},
                         {"sides",
                          {{{"tables", {{{{"player_id", h.player_id}}}, {{{"bot", "robot"}}}}}},
                           {{"members", {{{"bot", "random"}}}}}}}});
    REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
    event = created["event"];
    first_table = created["tables"][0];
    // The bots' rotation finishes both boards while Hanna has not moved.
    const json e = wait_event(
        ts, event, [](const json& ev) { return table_of(ev, 2, 1)["status"] == "over"; });
    CHECK(table_of(e, 1, 0)["status"] == "playing");
    CHECK(table_of(e, 2, 0)["table"].is_null());  // her second board waits for her first
    CHECK(e["results"][0]["revealed"] == false);
  }
  ts.restart();
  WsClient h(ts.port());
  REQUIRE(h.hello("", token)["resumed"] == true);
  json e = get_event(ts, event);
  CHECK(e["status"] == "running");
  CHECK(table_of(e, 1, 0)["table"] == first_table);
  play_out({&h}, first_table, random_legal(7));
  // Her second board opens after the first, and its state comes to her.
  const auto state = h.find(
      [&](const json& m) { return m["type"] == "table_state" && m["table"] != first_table; }, 10s);
  REQUIRE(state.has_value());
  const std::string second = (*state)["table"];
  play_out({&h}, second, random_legal(8));
  e = wait_event(ts, event, over);
  CHECK(table_of(e, 2, 0)["table"] == second);
  check_standings(ts, e);
  // Once over, a restart serves the same standings from the store.
  const json before = e;
  ts.restart();
  CHECK(get_event(ts, event) == before);
  check_schemas(h);
}
