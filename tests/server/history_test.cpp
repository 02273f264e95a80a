// SPDX-License-Identifier: AGPL-3.0-or-later
// The history (docs/protocol.md, "History"): a `resync` or a `spectate` with
// "history": true is answered after its table_state by the events of the game
// so far that reached the asker live, exactly as they were sent then, and the
// round summaries among them. A seat's history is its own view of every event,
// a spectator's the public one; no history holds a card its reader could not
// see, and a client that does not ask never gets one.
#include <doctest/doctest.h>

#include <random>

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

// The events `log` received live for `table` up to `seq`, as history items.
json live_events(const std::vector<json>& log, const std::string& table, std::int64_t seq) {
  json out = json::array();
  for (const auto& m : log) {
    if (m["type"] != "event" || m.value("table", "") != table || m["seq"].get<std::int64_t>() > seq) continue;
    json item = {{"seq", m["seq"]}, {"event", m["event"]}};
    if (m.contains("auto")) item["auto"] = m["auto"];
    out.push_back(std::move(item));
  }
  return out;
}

json round_ends(const json& items) {
  json out = json::array();
  for (const auto& item : items) {
    const auto type = item["event"].value("type", "");
    if (type == "round_end" || type == "hand_end") out.push_back(item);
  }
  return out;
}

std::vector<json> of_type(const WsClient& c, const std::string& type, const std::string& table) {
  std::vector<json> out;
  for (const auto& m : c.log) {
    if (m["type"] == type && m.value("table", "") == table) out.push_back(m);
  }
  return out;
}

// check_no_leak for the messages of a history: each event against the cards
// `seat` could not see at the event's own seq (a card may be hidden later,
// face down in a pile, that was in plain view when it was played). Returns how
// many events it checked.
int check_history_no_leak(const WsClient& client, int seat, const json& replay) {
  auto created = create_test_game(replay["game"].get<std::string>(), replay["players"].get<int>(),
                                  casa::protocol::json_to_value(replay["options"]),
                                  std::stoull(replay["seed"].get<std::string>()));
  REQUIRE(created.game);
  std::vector<std::set<std::string>> secrets;  // by seq
  auto note = [&] {
    auto s = created.game->secret_cards(seat);
    secrets.emplace_back(s.begin(), s.end());
  };
  note();
  for (const auto& entry : replay["log"]) {
    casa::Action a;
    REQUIRE_FALSE(created.game->decode_action(casa::protocol::json_to_value(entry["action"]), a));
    REQUIRE_FALSE(created.game->apply(entry["seat"].get<int>(), a, nullptr));
    note();
  }
  int checked = 0;
  for (const auto& m : client.log) {
    if (m["type"] != "history" || m["table"] != replay["table"]) continue;
    for (const char* list : {"events", "rounds"}) {
      for (const auto& item : m[list]) {
        const auto at = item["seq"].get<std::size_t>();
        REQUIRE(at < secrets.size());
        std::vector<std::string> strings;
        collect_strings(item, strings);
        for (const auto& s : strings) {
          CHECK_MESSAGE(!secrets[at].count(s), "seat " << seat << " saw hidden " << s << " in history " << item.dump());
        }
        ++checked;
      }
    }
  }
  return checked;
}

// Every other message as check_no_leak reads it (a history's own seq is not
// that of its events: check_history_no_leak reads those).
int check_live_no_leak(WsClient& client, int seat, const json& replay) {
  std::vector<json> all = client.log;
  std::erase_if(client.log, [](const json& m) { return m["type"] == "history"; });
  const int checked = check_no_leak(client, seat, replay);
  client.log = std::move(all);
  return checked;
}

// The history must be exactly what `live` got up to its seq.
void check_history(const json& history, const std::vector<json>& live, const std::string& table, int seat) {
  CHECK(history["seat"] == seat);
  CHECK(history["omitted"] == 0);
  const json expected = live_events(live, table, history["seq"].get<std::int64_t>());
  CHECK(expected.size() > 10);
  CHECK_MESSAGE(history["events"] == expected, "seat " << seat << " at seq " << history["seq"]);
  CHECK(history["rounds"] == round_ends(expected));
}

}  // namespace

TEST_CASE("history: a seat back mid-round and a late spectator get what was sent live, and nothing hidden") {
  TestServer ts{[](casa::server::Config& c) {
    c.rate_burst = 1e9;
    c.rate_per_second = 1e9;
  }};
  std::vector<std::unique_ptr<WsClient>> seats;
  std::vector<std::string> tokens;
  for (int s = 0; s < 4; ++s) {
    seats.push_back(std::make_unique<WsClient>(ts.port()));
    // Seat 0 takes view patches: the history does not depend on them.
    const json w = hello_with(*seats.back(), "seat" + std::to_string(s), s == 0 ? json::array({"view_patch"}) : json());
    tokens.push_back(w["token"]);
  }
  const json created = seats[0]->call(
      {{"type", "create_table"}, {"game", "la-casa"}, {"players", 4}, {"options", {{"rounds", 2}}}, {"seed", 5}});
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const std::string table = created["table"];
  // A spectator from the start: what every spectator was sent live. Its
  // history, asked for before the start, is not sent: there is none yet.
  WsClient early(ts.port());
  hello_with(early, "early", json());
  REQUIRE(early.call({{"type", "spectate"}, {"table", table}, {"history", true}})["type"] == "spectating");
  for (int s = 1; s < 4; ++s) {
    REQUIRE(seats[s]->call({{"type", "join"}, {"table", table}, {"seat", s}})["type"] == "joined");
  }

  std::mt19937 rng(9);
  std::unique_ptr<WsClient> retired;  // seat 0's first connection
  WsClient late(ts.port());
  hello_with(late, "late", json());
  int turns_after_round = 0;
  bool seat0_back = false, resynced = false, round_ended = false;
  int over = 0;
  std::vector<bool> done(4, false);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (over < 4 && std::chrono::steady_clock::now() < deadline) {
    for (int s = 0; s < 4; ++s) {
      auto m = seats[s]->recv(std::chrono::milliseconds(2));
      if (!m || (*m).value("table", "") != table) continue;
      if ((*m)["type"] == "event" && (*m)["event"]["type"] == "round_end") round_ended = true;
      if (s == 0 && round_ended && (*m)["type"] == "request") ++turns_after_round;
      if ((*m)["type"] == "game_over" && !done[s]) {
        done[s] = true;
        ++over;
      } else if ((*m)["type"] == "request") {
        const auto seq = (*m)["seq"].get<int>();
        if (s == 0 && !seat0_back && turns_after_round >= 3) {
          // Mid-way through the second round: a reload. The new connection
          // resumes and asks for the history; a late spectator comes in.
          seat0_back = true;
          retired = std::move(seats[0]);
          seats[0] = std::make_unique<WsClient>(ts.port());
          CHECK(hello_with(*seats[0], "", json::array({"view_patch"}), tokens[0])["resumed"] == true);
          seats[0]->send({{"type", "resync"}, {"table", table}, {"history", true}});
          REQUIRE(late.call({{"type", "spectate"}, {"table", table}, {"history", true}})["type"] == "spectating");
          continue;  // the new connection gets this request again
        }
        if (s == 1 && seq >= 5 && !resynced) {
          resynced = true;
          seats[1]->send({{"type", "resync"}, {"table", table}, {"history", true}});
        }
        const auto& legal = (*m)["legal"];
        seats[s]->send({{"type", "action"}, {"table", table}, {"seq", seq}, {"action", legal[rng() % legal.size()]}});
      }
    }
  }
  REQUIRE_MESSAGE(over == 4, "the game did not finish in time");
  REQUIRE(seat0_back);
  REQUIRE(resynced);
  early.find([](const json& m) { return m["type"] == "game_over"; }, std::chrono::seconds(5));
  late.find([](const json& m) { return m["type"] == "game_over"; }, std::chrono::seconds(5));

  // Seat 0: the history follows the resync's table_state, at its seq, and is
  // what the seat got live: on the old connection, then on the new one.
  {
    const auto& log = seats[0]->log;
    std::size_t at = 0;
    while (at < log.size() && log[at]["type"] != "history") ++at;
    REQUIRE(at < log.size());
    REQUIRE(at > 0);
    CHECK(log[at - 1]["type"] == "table_state");
    CHECK(log[at - 1]["seq"] == log[at]["seq"]);
    std::vector<json> live = retired->log;
    live.insert(live.end(), log.begin(), log.begin() + static_cast<std::ptrdiff_t>(at));
    check_history(log[at], live, table, 0);
    CHECK(!log[at]["rounds"].empty());
    CHECK(of_type(*seats[0], "history", table).size() == 1);
  }
  // The late spectator: the public events, as the early spectator got them.
  {
    const auto h = of_type(late, "history", table);
    REQUIRE(h.size() == 1);
    check_history(h[0], early.log, table, -1);
    // Not a seat's history: seat 0 was told its own cards.
    CHECK(live_events(retired->log, table, h[0]["seq"]) != h[0]["events"]);
  }
  // Seat 1, which asked with resync.
  {
    const auto h = of_type(*seats[1], "history", table);
    REQUIRE(h.size() == 1);
    check_history(h[0], seats[1]->log, table, 1);
  }
  // Nobody who did not ask got one (the early spectator asked before the start).
  for (const WsClient* c : {&early, seats[2].get(), seats[3].get(), retired.get()}) {
    for (const auto& m : c->log) CHECK(m["type"] != "history");
  }

  // After the end: the whole game.
  seats[2]->send({{"type", "resync"}, {"table", table}, {"history", true}});
  const json final_history = seats[2]->expect("history");
  CHECK(final_history["events"] == live_events(seats[2]->log, table, final_history["seq"]));
  CHECK(final_history["rounds"].size() == 2);

  const json replay = get_json(ts.port(), "/api/tables/" + table + "/replay", 200);
  struct Reader {
    int seat;
    WsClient* client;
  };
  int history_events = 0;
  for (const Reader& r : {Reader{0, retired.get()}, Reader{0, seats[0].get()}, Reader{1, seats[1].get()},
                          Reader{2, seats[2].get()}, Reader{3, seats[3].get()}, Reader{-1, &early},
                          Reader{-1, &late}}) {
    CHECK(check_live_no_leak(*r.client, r.seat, replay) > 0);
    history_events += check_history_no_leak(*r.client, r.seat, replay);
    check_schemas(*r.client);
  }
  CHECK(history_events > 100);
}

TEST_CASE("history: resync's history field is checked like any field") {
  TestServer ts;
  WsClient c(ts.port());
  hello_with(c, "x", json());
  c.send({{"type", "resync"}, {"table", "tnone"}, {"history", "yes"}});
  const json r = c.expect("error");
  CHECK(r["type"] == "error");
  CHECK(r["code"] == "bad_field");
}
