// SPDX-License-Identifier: AGPL-3.0-or-later
// Crash recovery with a real process: kill -9 the server mid-game, restart it on
// the same database, resume with tokens, finish; no acknowledged action is lost.
#include <doctest/doctest.h>

#include "tests/server/child_server.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

TEST_CASE("kill -9 mid-game: restart on the same database, resume with tokens, nothing acknowledged lost") {
  const auto dir = temp_dir("kill");
  const std::string db = test_db(dir);
  ChildServer server = spawn_server(db);
  std::string table, token_a, token_b;
  std::vector<json> acknowledged;  // (seq, seat, action) of every `accepted`
  {
    WsClient a(server.port), b(server.port);
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    token_b = b.token();
    table = a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 5}}}})["table"];
    b.call({{"type", "join"}, {"table", table}});
    // Play six actions, each acknowledged, then die without warning.
    play_acknowledged({&a, &b}, table, 6, acknowledged);
    kill9(server);
  }
  server = spawn_server(db);
  {
    WsClient a(server.port), b(server.port);
    CHECK(a.hello("", token_a)["resumed"] == true);
    CHECK(b.hello("", token_b)["resumed"] == true);
    CHECK(a.expect("table_state")["seq"] == 6);
    play_out({&a, &b}, table);
    const json replay = get_json(server.port, "/api/games/" + table, 200);
    REQUIRE(replay["log"].size() == 12);
    check_logged(replay, acknowledged);
    check_schemas(a);
    check_schemas(b);
  }
  kill9(server);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
