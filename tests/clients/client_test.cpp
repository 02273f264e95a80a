// The CLI's protocol logic driven by hand-written server transcripts (docs/protocol.md).
#include "clients/cli/client.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>
#include <string>

namespace {

using casa::cli::Client;
using casa::cli::ClientOptions;
using casa::cli::Command;
using casa::cli::Json;

struct Harness {
  explicit Harness(ClientOptions options) : client(std::move(options), out, log) {}

  // Feeds one server message and returns what the client sent in answer.
  std::deque<Json> feed(const std::string& text) {
    client.on_message(Json::parse(text));
    return client.take_outgoing();
  }

  std::ostringstream out;
  std::ostringstream log;
  Client client;
};

ClientOptions play_options() {
  ClientOptions o;
  o.command = Command::kPlay;
  o.game = "casino";
  o.players = 3;
  o.options = Json::parse(R"({"sweeps":true})");
  o.fill = "robot";
  o.bot = "first";
  return o;
}

const char* kWelcome =
    R"({"type":"welcome","player_id":"p1","token":"abc","name":"ann","version":1,"resumed":false,"games":["casino"],"bots":["random","robot"]})";

const char* kRequest =
    R"({"type":"request","table":"t1","seq":4,"seat":0,"view":{"game":"casino","seat":0,"to_act":[0]},"legal":[{"type":"trail","card":"AS"},{"type":"trail","card":"KD"},{"type":"capture","card":"KD","sets":[["KH"]]}]})";

}  // namespace

TEST_CASE(
    "play: hello, create the table, fill it with server bots, answer requests, print the scores") {
  ClientOptions options = play_options();
  options.token = "old";
  Harness h(options);
  const Json hello = h.client.hello();
  CHECK(hello["type"] == "hello");
  CHECK(hello["version"] == 1);
  CHECK(hello["token"] == "old");

  auto sent = h.feed(kWelcome);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["type"] == "create_table");
  CHECK(sent[0]["game"] == "casino");
  CHECK(sent[0]["players"] == 3);
  CHECK(sent[0]["options"] == Json::parse(R"({"sweeps":true})"));
  CHECK(h.client.take_new_token() == std::optional<std::string>("abc"));

  sent = h.feed(R"({"type":"table_created","table":"t1","invite":"XYZ","seat":0})");
  REQUIRE(sent.size() == 2);
  for (int seat = 1; seat <= 2; ++seat) {
    CHECK(sent[seat - 1]["type"] == "add_bot");
    CHECK(sent[seat - 1]["table"] == "t1");
    CHECK(sent[seat - 1]["seat"] == seat);
    CHECK(sent[seat - 1]["bot"] == "robot");
  }
  CHECK(h.log.str().find("XYZ") != std::string::npos);

  CHECK(h.feed(R"({"type":"bot_added","table":"t1","seat":1,"bot":"robot"})").empty());
  sent = h.feed(kRequest);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["type"] == "action");
  CHECK(sent[0]["table"] == "t1");
  CHECK(sent[0]["seq"] == 4);
  CHECK(sent[0]["action"] == Json::parse(R"({"type":"trail","card":"AS"})"));

  CHECK(h.feed(R"({"type":"accepted","table":"t1","seq":5})").empty());
  CHECK(
      h.feed(
           R"({"type":"event","table":"t1","seq":5,"event":{"type":"trail","seat":0,"card":"AS"}})")
          .empty());
  CHECK_FALSE(h.client.done());
  h.feed(R"({"type":"game_over","table":"t1","seq":40,"scores":[7,3,1],"winners":[0]})");
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == 0);
  // Exactly one line on stdout, and it is JSON.
  const std::string out = h.out.str();
  CHECK(out.find('\n') == out.size() - 1);
  const Json result = Json::parse(out);
  CHECK(result["scores"] == Json::parse("[7,3,1]"));
  CHECK(result["winners"] == Json::parse("[0]"));
  CHECK(result["game"] == "casino");
  CHECK(result["table"] == "t1");
}

TEST_CASE("the random bot picks among the offered actions only, and not always the same") {
  std::set<std::string> picked;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    ClientOptions options = play_options();
    options.bot = "random";
    options.seed = seed;
    Harness h(options);
    h.feed(kWelcome);
    const auto sent = h.feed(kRequest);
    REQUIRE(sent.size() == 1);
    const Json legal = Json::parse(kRequest)["legal"];
    CHECK(std::find(legal.begin(), legal.end(), sent[0]["action"]) != legal.end());
    picked.insert(sent[0]["action"].dump());
  }
  CHECK(picked.size() == 3);
}

TEST_CASE("a reconnect says hello again and does not create a second table") {
  Harness h(play_options());
  h.feed(kWelcome);
  h.feed(R"({"type":"table_created","table":"t1","invite":"XYZ","seat":0})");
  const Json hello = h.client.hello();
  CHECK(hello["token"] == "abc");
  auto sent = h.feed(
      R"({"type":"welcome","player_id":"p1","token":"abc","name":"ann","version":1,"resumed":true,"games":[],"bots":[]})");
  CHECK(sent.empty());
  sent = h.feed(kRequest);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["type"] == "action");
}

TEST_CASE("an unknown token: start afresh as a new player") {
  ClientOptions options = play_options();
  options.token = "stale";
  Harness h(options);
  h.client.hello();
  const auto sent = h.feed(R"({"type":"error","code":"bad_token","message":"unknown token"})");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["type"] == "hello");
  CHECK_FALSE(sent[0].contains("token"));
  CHECK_FALSE(h.client.done());
}

TEST_CASE("a refused table is fatal with the server's sentence; a stale move is not") {
  {
    Harness h(play_options());
    h.feed(kWelcome);
    h.feed(R"({"type":"error","code":"bad_option","message":"unknown option 'sweep'"})");
    CHECK(h.client.done());
    CHECK(h.client.exit_code() == casa::cli::kExitServerError);
    CHECK(h.log.str().find("bad_option: unknown option 'sweep'") != std::string::npos);
    CHECK(h.out.str().empty());
  }
  {
    Harness h(play_options());
    h.feed(kWelcome);
    h.feed(R"({"type":"table_created","table":"t1","invite":"XYZ","seat":0})");
    const auto sent =
        h.feed(R"({"type":"error","code":"stale_seq","message":"old","table":"t1","seq":5})");
    CHECK(sent.empty());
    CHECK_FALSE(h.client.done());
    const auto resync =
        h.feed(R"({"type":"error","code":"illegal_action","message":"no","table":"t1"})");
    REQUIRE(resync.size() == 1);
    CHECK(resync[0]["type"] == "resync");
    CHECK_FALSE(h.client.done());
  }
}

TEST_CASE("a person chooses by number among the offered actions") {
  ClientOptions options;
  options.command = Command::kJoin;
  options.invite = "XYZ";
  options.seat = 2;
  Harness h(options);
  h.client.hello();
  auto sent = h.feed(kWelcome);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"join","invite":"XYZ","seat":2})"));
  h.feed(R"({"type":"joined","table":"t1","seat":2})");
  h.feed(
      R"({"type":"table_state","table":"t1","game":"casino","players":3,"status":"playing","seq":4,"seat":2,"seats":[{"seat":0,"kind":"player","name":"ann","connected":true},{"seat":1,"kind":"bot","bot":"robot"},{"seat":2,"kind":"player","name":"bob"}],"teams":[[0],[1],[2]],"options":{},"private":false,"move_timeout_seconds":0,"invite":"XYZ","view":null})");
  CHECK(h.out.str().find("seat 1: bot robot") != std::string::npos);
  CHECK(h.out.str().find("seat 2: bob <- you") != std::string::npos);

  CHECK(h.feed(kRequest).empty());
  const std::string prompt = h.out.str();
  CHECK(prompt.find("1) trail A\u2660") != std::string::npos);
  CHECK(prompt.find("3) capture K\u2666 sets [[K\u2665]]") != std::string::npos);

  h.client.on_line("4");
  CHECK(h.client.take_outgoing().empty());
  CHECK(h.out.str().find("Please type a number from 1 to 3.") != std::string::npos);
  h.client.on_line("say hello all");
  sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"chat","table":"t1","text":"hello all"})"));
  h.client.on_line("3");
  sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["seq"] == 4);
  CHECK(sent[0]["action"] == Json::parse(R"({"type":"capture","card":"KD","sets":[["KH"]]})"));
  // Typed ahead: waits for the next request, then answers it at once.
  h.client.on_line("2");
  CHECK(h.client.take_outgoing().empty());
  std::string next = kRequest;
  next.replace(next.find("\"seq\":4"), 7, "\"seq\":6");
  sent = h.feed(next);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["seq"] == 6);
  CHECK(sent[0]["action"] == Json::parse(R"({"type":"trail","card":"KD"})"));
  // Input that ends while a request waits ends the run, with a reason.
  CHECK(h.feed(kRequest).empty());
  h.client.on_input_closed();
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == casa::cli::kExitServerError);
  CHECK(h.log.str().find("the input ended") != std::string::npos);
}

TEST_CASE("list prints one line per open table and ends") {
  ClientOptions options;
  options.command = Command::kList;
  options.list_game = "casino";
  Harness h(options);
  h.client.hello();
  const auto sent = h.feed(kWelcome);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"list_tables","game":"casino"})"));
  h.feed(
      R"({"type":"tables","tables":[{"table":"t9","game":"casino","players":2,"private":false,"status":"waiting","seats":[{"seat":0,"kind":"player"},{"seat":1,"kind":"empty"}],"options":{"sweeps":true},"move_timeout_seconds":0}]})");
  CHECK(h.client.done());
  CHECK(h.out.str() == "t9  casino  1/2 seated  waiting  options {\"sweeps\":true}\n");
}
