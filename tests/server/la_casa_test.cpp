// SPDX-License-Identifier: AGPL-3.0-or-later
// Real La Casa games through the server (2 and 4 players, Domination and Solo):
// every message fits the schemas and leaks no hidden card. With
// CASA_TRANSCRIPT_DIR set, the seat-0 client's frames are written there
// (docs/transcripts/); with CASA_MESSAGE_LOG, every client's (record_messages).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

void write_transcript(const WsClient& c, const std::string& name) {
  const char* dir = std::getenv("CASA_TRANSCRIPT_DIR");
  if (!dir) return;
  std::ofstream out(std::string(dir) + "/" + name);
  for (const auto& [way, frame] : c.transcript) out << way << " " << frame << "\n";
}

}  // namespace

TEST_CASE("La Casa, two players, one round: schemas hold, nothing hidden leaks") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const json created = a.call({{"type", "create_table"}, {"game", "la-casa"}, {"players", 2},
                               {"options", {{"rounds", 1}}}, {"seed", 7}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  auto over = play_out({&a, &b}, table);
  CHECK(over[0]["scores"].size() == 2);
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(check_no_leak(a, 0, replay) > 0);
  CHECK(check_no_leak(b, 1, replay) > 0);
  check_schemas(a);
  check_schemas(b);
  record_messages(a, "la-casa/2p");
  record_messages(b, "la-casa/2p");
  write_transcript(a, "la-casa-2p.txt");
}

TEST_CASE("La Casa, four players with two robots, one round: schemas hold, nothing hidden leaks") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), watcher(ts.port());
  a.hello("ann");
  b.hello("bea");
  watcher.hello("wes");
  const json created = a.call({{"type", "create_table"}, {"game", "la-casa"}, {"players", 4},
                               {"options", {{"rounds", 1}}}, {"seed", 11}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  a.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "robot"}});
  a.call({{"type", "add_bot"}, {"table", table}, {"seat", 3}, {"bot", "robot"}});
  watcher.call({{"type", "spectate"}, {"table", table}});
  REQUIRE(b.call({{"type", "join"}, {"table", table}, {"seat", 2}})["type"] == "joined");
  auto over = play_out({&a, &b}, table);
  CHECK(over[0]["scores"].size() == 4);
  watcher.expect("game_over");
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(check_no_leak(a, 0, replay) > 0);
  CHECK(check_no_leak(b, 2, replay) > 0);
  CHECK(check_no_leak(watcher, -1, replay) > 0);
  // One round was played: the score sheet holds it, and its running totals are
  // the final scores.
  REQUIRE(check_round_sheet(watcher, replay) == 1);
  CHECK(replay["rounds"][0]["scores"] == replay["scores"]);
  CHECK(replay["rounds"][0]["summary"]["round"] == 1);
  check_schemas(a);
  check_schemas(b);
  check_schemas(watcher);
  for (const auto* c : {&a, &b, &watcher}) record_messages(*c, "la-casa/4p");
  write_transcript(a, "la-casa-4p.txt");
}

TEST_CASE("La Casa Domination, two players and a spectator: schemas hold, nothing hidden leaks") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), watcher(ts.port());
  a.hello("ann");
  b.hello("bob");
  watcher.hello("wes");
  const json created = a.call({{"type", "create_table"},
                               {"game", "la-casa"},
                               {"players", 2},
                               {"options", {{"format", "domination"}, {"rounds", 1}}},
                               {"seed", 13}});
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const std::string table = created["table"];
  REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  auto over = play_out({&a, &b}, table);
  CHECK(over[0]["scores"].size() == 2);
  watcher.expect("game_over");
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(replay["options"]["format"] == "domination");
  CHECK(check_no_leak(a, 0, replay) > 0);
  CHECK(check_no_leak(b, 1, replay) > 0);
  CHECK(check_no_leak(watcher, -1, replay) > 0);
  for (const auto* c : {&a, &b, &watcher}) {
    check_schemas(*c);
    record_messages(*c, "la-casa/domination");
  }
}

TEST_CASE("La Casa Solo: one seat, the Robot inside the engine") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("sol");
  const json created =
      a.call({{"type", "create_table"}, {"game", "la-casa"}, {"players", 1}, {"options", {{"rounds", 1}}}});
  REQUIRE(created["type"] == "table_created");
  play_out({&a}, created["table"]);
  const json replay = get_json(ts.port(), "/api/games/" + created["table"].get<std::string>(), 200);
  CHECK(check_no_leak(a, 0, replay) > 0);
  check_schemas(a);
  record_messages(a, "la-casa/solo");
}

TEST_CASE("figures: bot-only La Casa tables in parallel, every action committed before it is told") {
  // One client sets up every table as fast as the server answers: lift the
  // per-connection rate limit, which is not what this test is about.
  TestServer ts([](casa::server::Config& c) {
    c.rate_burst = 1e9;
    c.rate_per_second = 1e9;
  });
  WsClient a(ts.port());
  a.hello("host");
  constexpr int kTables = 8;
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < kTables; ++t) {
    const json created = a.call({{"type", "create_table"}, {"game", "la-casa"}, {"players", 4}, {"seat", -1},
                                 {"options", {{"rounds", 1}}}});
    REQUIRE(created["type"] == "table_created");
    const std::string table = created["table"];
    a.call({{"type", "spectate"}, {"table", table}});
    for (int s = 0; s < 4; ++s) a.call({{"type", "add_bot"}, {"table", table}, {"seat", s}, {"bot", "robot"}});
  }
  std::int64_t actions = 0;
  for (int over = 0; over < kTables;) {
    const json m = a.expect("game_over", std::chrono::seconds(30));
    actions += m["seq"].get<std::int64_t>();
    ++over;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto commits = ts.server->store().commits();
  MESSAGE(kTables << " tables, " << actions << " actions in " << seconds << " s: " << actions / seconds
                  << " actions/s; " << commits << " transactions (group commit)");
  CHECK(actions > 0);
  check_schemas(a);
}
