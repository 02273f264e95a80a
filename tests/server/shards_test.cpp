// SPDX-License-Identifier: AGPL-3.0-or-later
// --threads N: N event loops, connections and tables dealt over them; a
// player's action crosses to its table's loop and the frames come back.
#include <set>

#include "server/table/table.h"
#include "tests/server/support.h"

using namespace casa::testing;
using casa::server::Config;

TEST_CASE(
    "network threads: tables are dealt over the event loops, and games across them play through") {
  TestServer ts([](Config& c) { c.threads = 3; });
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < 6; ++i) {
    clients.push_back(std::make_unique<WsClient>(ts.port()));
    REQUIRE(clients.back()->hello("p" + std::to_string(i))["type"] == "welcome");
  }
  // Table k: clients k and k + 3. Their connections were dealt over the
  // loops in turn too, so actions and frames cross between loops.
  std::vector<std::string> tables;
  std::set<const void*> loops;
  for (int k = 0; k < 3; ++k) {
    WsClient& first = *clients[static_cast<std::size_t>(k)];
    WsClient& second = *clients[static_cast<std::size_t>(k + 3)];
    const json created =
        create(first, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 4}}}});
    REQUIRE(created["type"] == "table_created");
    tables.push_back(created["table"]);
    REQUIRE(second.call({{"type", "join"}, {"table", tables.back()}})["type"] == "joined");
    auto table = ts.server->lobby().table(tables.back());
    REQUIRE(table);
    loops.insert(&table->io());
  }
  CHECK(loops.size() == 3);

  for (int k = 0; k < 3; ++k) {
    WsClient& first = *clients[static_cast<std::size_t>(k)];
    WsClient& second = *clients[static_cast<std::size_t>(k + 3)];
    const auto over =
        play_out({&first, &second}, tables[static_cast<std::size_t>(k)], random_legal(7 + k));
    CHECK(over[0] == over[1]);
    CHECK(over[0]["seq"] == 2 + 8);  // two bids and eight cards
    const json replay =
        get_json(ts.port(), "/api/games/" + tables[static_cast<std::size_t>(k)], 200);
    CHECK(replay["log"].size() == 10);
    CHECK(check_no_leak(first, 0, replay) > 10);
    CHECK(check_no_leak(second, 1, replay) > 10);
    check_schemas(first);
    check_schemas(second);
  }
}

TEST_CASE("network threads: one thread serves everything") {
  TestServer ts([](Config& c) { c.threads = 1; });
  WsClient a(ts.port()), b(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  REQUIRE(b.hello("bob")["type"] == "welcome");
  const json created =
      create(a, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 4}}}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  const auto over = play_out({&a, &b}, table);
  CHECK(over[0]["seq"] == 2 + 8);
}
