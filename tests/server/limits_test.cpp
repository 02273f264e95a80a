// SPDX-License-Identifier: AGPL-3.0-or-later
// What docs/protocol.md promises at the edges: oversized and binary frames,
// floods (closed with a policy close frame), testing-only options refused on a
// normal server, server settings kept out of engine options, the replay seed as
// a string, what a rematch carries over, and the per-address connection limit
// behind a trusted reverse proxy.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;
namespace websocket = boost::beast::websocket;

namespace {

json wait_for_state(WsClient& c, const std::string& table) {
  for (;;) {
    const json m = c.expect("table_state");
    if (m["table"] == table) return m;
  }
}

}  // namespace

TEST_CASE("a frame over the limit gets frame_too_large, then a close frame 1009") {
  TestServer ts([](casa::server::Config& c) { c.max_frame_bytes = 4096; });
  WsClient big(ts.port());
  big.hello("big");
  big.send({{"type", "ping"}, {"pad", std::string(70 * 1024, 'x')}});
  const json error = big.expect("error");
  CHECK(error["code"] == "frame_too_large");
  CHECK(big.wait_closed(3s));
  CHECK(big.close_reason().code == websocket::close_code::too_big);
  check_schemas(big);
}

TEST_CASE("a binary frame gets malformed_json and the connection stays open") {
  TestServer ts;
  WsClient c(ts.port());
  c.hello("bin");
  c.send_binary(std::string("\x01\x02{}", 4));
  const json error = c.expect("error");
  CHECK(error["code"] == "malformed_json");
  CHECK(c.call({{"type", "ping"}})["type"] == "pong");
  CHECK_FALSE(c.closed());
}

TEST_CASE("a flooding connection is closed with a policy close frame (1008) and a reason") {
  TestServer ts([](casa::server::Config& c) {
    c.rate_burst = 5;
    c.rate_per_second = 1;
  });
  WsClient flood(ts.port());
  flood.hello("flood");
  for (int i = 0; i < 200 && !flood.closed(); ++i) flood.send({{"type", "ping"}});
  CHECK(flood.wait_closed(3s));
  CHECK(flood.close_reason().code == websocket::close_code::policy_error);
  CHECK_FALSE(std::string(flood.close_reason().reason.c_str()).empty());
}

TEST_CASE("testing-only options and a fixed seed are refused with bad_option on a normal server") {
  TestServer ts([](casa::server::Config& c) { c.testing = false; });
  WsClient c(ts.port());
  c.hello("ann");
  for (const json& options : {json{{"rounds", 1}}, json{{"dealer", 0}}, json{{"challenge", "bonus_round"}},
                              json{{"deck", json::array()}}}) {
    const json r = create(c, {{"game", "la-casa"}, {"players", 2}, {"options", options}});
    CHECK_MESSAGE(r["code"] == "bad_option", options.dump() << " -> " << r.dump());
  }
  CHECK(create(c, {{"game", "la-casa"}, {"players", 2}, {"seed", 7}})["code"] == "bad_option");
  // Each game's declaration marks its testing options (engine/games/*/).
  for (const auto& [game, players, option] : std::vector<std::tuple<std::string, int, std::string>>{
           {"trophy-case", 3, "hands"}, {"trophy-case", 3, "rounds"}, {"casino", 2, "rounds"},
           {"casino", 2, "dealer"}, {"conference", 4, "dealer"}}) {
    const json r = create(c, {{"game", game}, {"players", players}, {"options", {{option, 1}}}});
    CHECK_MESSAGE(r["code"] == "bad_option", game << " " << option << " -> " << r.dump());
    CHECK(r["message"] == "The option '" + option + "' is for test servers only.");
  }
  // Conference's `hands` is an ordinary option.
  CHECK(create(c, {{"game", "conference"}, {"players", 4}, {"options", {{"hands", 1}}}})["type"] == "table_created");
  // Refusals change nothing: the player may still create their tables.
  CHECK(create(c, {{"game", "la-casa"}, {"players", 2}})["type"] == "table_created");
}

TEST_CASE("server settings inside `options` are refused, not taken for the table's") {
  TestServer ts;  // even on a test server
  WsClient c(ts.port());
  c.hello("ann");
  for (const char* field : {"move_timeout_seconds", "disconnect_policy", "seed"}) {
    const json r = create(c, {{"game", "fake-trick"}, {"players", 2}, {"options", {{field, 5}}}});
    CHECK_MESSAGE(r["code"] == "bad_option", field << " -> " << r.dump());
  }
  CHECK(create(c, {{"game", "fake-trick"}, {"players", 2}, {"disconnect_policy", {{"grace_seconds", 3601}}}})["code"] ==
        "bad_field");
  CHECK(create(c, {{"game", "fake-trick"}, {"players", 2}, {"disconnect_policy", {{"takeover", "random"}}}})["code"] ==
        "bad_field");
}

TEST_CASE("replay: the 64-bit seed is a decimal string; a rematch keeps the bots, not the players") {
  TestServer ts;
  WsClient a(ts.port());
  a.hello("ann");
  const std::uint64_t seed = 18446744073709551557ULL;  // above 2^53
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 3}, {"options", {{"hand", 1}}},
                                       {"seed", seed}})["table"];
  a.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "random"}});
  a.call({{"type", "add_bot"}, {"table", table}, {"seat", 2}, {"bot", "robot"}});
  play_out({&a}, table);
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  REQUIRE(replay["seed"].is_string());
  CHECK(replay["seed"] == std::to_string(seed));

  const json r = a.call({{"type", "rematch"}, {"table", table}});
  REQUIRE(r["type"] == "rematch_created");
  const json state = wait_for_state(a, r["new_table"]);
  CHECK(state["seats"][0]["player_id"] == a.player_id);
  CHECK(state["seats"][1]["bot"] == "random");
  CHECK(state["seats"][2]["bot"] == "robot");
  CHECK(state["status"] == "playing");  // every seat taken: it starts at once
  CHECK(state["options"] == json{{"hand", 1}});
}

TEST_CASE("connections per address: X-Forwarded-For and Forwarded count only from a trusted proxy") {
  SUBCASE("trusted: each forwarded client has its own allowance") {
    TestServer ts([](casa::server::Config& c) {
      c.max_connections_per_address = 1;
      c.trusted_proxies = {"127.0.0.1"};
    });
    WsClient a(ts.port(), {{"X-Forwarded-For", "198.51.100.7, 203.0.113.1"}});
    WsClient b(ts.port(), {{"X-Forwarded-For", "203.0.113.2"}});
    WsClient c(ts.port(), {{"Forwarded", "for=\"[2001:db8::5]:4711\";proto=https"}});
    CHECK(a.hello("ann")["type"] == "welcome");
    CHECK(b.hello("bob")["type"] == "welcome");
    CHECK(c.hello("cy")["type"] == "welcome");
    // The nearest untrusted hop is the client: 203.0.113.1 again is over its limit.
    CHECK_THROWS(WsClient(ts.port(), {{"X-Forwarded-For", "203.0.113.1"}}));
    CHECK_THROWS(WsClient(ts.port(), {{"Forwarded", "for=\"[2001:db8::5]\""}}));
  }
  SUBCASE("untrusted: the headers are ignored and the peer's own address counts") {
    TestServer ts([](casa::server::Config& c) { c.max_connections_per_address = 1; });
    WsClient a(ts.port(), {{"X-Forwarded-For", "203.0.113.1"}});
    CHECK(a.hello("ann")["type"] == "welcome");
    CHECK_THROWS(WsClient(ts.port(), {{"X-Forwarded-For", "203.0.113.2"}}));
  }
}

TEST_CASE("config: the dead-table limits and trusted proxies come from flags and the environment") {
  casa::server::Config config;
  bool help = false;
  ::setenv("CASA_ABANDONED_TABLE_SECONDS", "90", 1);
  const char* argv[] = {"casa-server", "--creator-gone-seconds", "30", "--trusted-proxies", "10.0.0.1, ::1"};
  const auto error = casa::server::parse_config(5, const_cast<char**>(argv), config, help);
  ::unsetenv("CASA_ABANDONED_TABLE_SECONDS");
  REQUIRE_FALSE(error);
  CHECK(config.creator_gone_seconds == 30);
  CHECK(config.abandoned_table_seconds == 90);
  CHECK(config.trusted_proxies == std::vector<std::string>{"10.0.0.1", "::1"});
}
