// SPDX-License-Identifier: AGPL-3.0-or-later
// The CLI's protocol logic driven by hand-written server transcripts (docs/protocol.md).
#include "clients/cli/client.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>
#include <string>

#include "clients/cli/event.h"

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
    h.feed(R"({"type":"table_created","table":"t1","invite":"XYZ","seat":0})");
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
  CHECK(h.out.str().find("Seats: 0 ann \u00b7 1 robot (bot) \u00b7 2 bob (you)\n") !=
        std::string::npos);

  CHECK(h.feed(kRequest).empty());
  const std::string prompt = h.out.str();
  CHECK(prompt.find("1) trail A\u2660") != std::string::npos);
  CHECK(prompt.find("3) capture K\u2666 sets [[K\u2665]]") != std::string::npos);
  // The other commands are named at the first decision only.
  CHECK(prompt.find("say TEXT, team TEXT, view, leave, quit, help") != std::string::npos);

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

namespace {

// A token with unfinished tables: the server sends their state after the welcome.
const char* kResumed =
    R"({"type":"welcome","player_id":"p1","token":"abc","name":"ann","version":1,"resumed":true,"games":["casino"],"bots":["robot"]})";

std::string state_of(const std::string& table, const std::string& invite, int to_act) {
  return R"({"type":"table_state","table":")" + table +
         R"(","game":"casino","players":2,"status":"playing","seq":4,"seat":0,"seats":[{"seat":0,"kind":"player","name":"ann","connected":true,"away":false},{"seat":1,"kind":"bot","bot":"robot"}],"teams":[[0],[1]],"options":{"target":5},"private":false,"move_timeout_seconds":0,"invite":")" +
         invite + R"(","view":{"game":"casino","seat":0,"to_act":[)" + std::to_string(to_act) +
         R"(],"phase":"play","players":2,"scores":[3,1],"hand":["AS","KD"],"table":{"loose":["KH"],"builds":[]}}})";
}

std::string request_of(const std::string& table, int seq) {
  return R"({"type":"request","table":")" + table + R"(","seq":)" + std::to_string(seq) +
         R"(,"seat":0,"view":{"game":"casino","seat":0,"to_act":[0],"phase":"play","players":2,"scores":[3,1],"hand":["AS","KD"],"table":{"loose":["KH"],"builds":[]}},"legal":[{"type":"trail","card":"AS"},{"type":"capture","card":"KD","loose":["KH"]}]})";
}

std::string event_of(const std::string& table, const std::string& extra = "") {
  return R"({"type":"event","table":")" + table +
         R"(","seq":5,"event":{"type":"trail","seat":1,"card":"QC"})" + extra + "}";
}

ClientOptions person(Command command) {
  ClientOptions o;
  o.command = command;
  o.game = "casino";
  o.players = 2;
  o.fill = "robot";
  o.token = "abc";
  return o;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    lines.push_back(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    pos = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

}  // namespace

TEST_CASE("play follows only the table it created, even when the token resumes others") {
  Harness h(person(Command::kPlay));
  h.client.hello();
  auto sent = h.feed(kResumed);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["type"] == "create_table");
  // The older table's state, request and events arrive first: kept aside.
  CHECK(h.feed(state_of("t_old", "OLD", 0)).empty());
  CHECK(h.feed(request_of("t_old", 4)).empty());
  CHECK(h.feed(event_of("t_old")).empty());
  h.feed(R"({"type":"table_created","table":"t_new","invite":"NEW","seat":0})");
  h.feed(state_of("t_new", "NEW", 1));
  sent = h.feed(request_of("t_new", 7));
  CHECK(sent.empty());  // a person answers
  h.feed(event_of("t_old"));
  h.feed(request_of("t_old", 9));
  const std::string out = h.out.str();
  CHECK(out.find("t_old") == std::string::npos);
  CHECK(out.find("OLD") == std::string::npos);
  CHECK(out.find("Table t_new") != std::string::npos);
  // The other table is named once, on the log, with the way back to it.
  const std::string log = h.log.str();
  CHECK(log.find("Your table t_old (casino) is also unfinished; `casa resume t_old` plays it.") !=
        std::string::npos);
  int naming = 0;
  for (const auto& line : lines_of(log)) naming += line.find("t_old") != std::string::npos;
  CHECK(naming == 1);
  // A number answers the followed table's request, never the other one.
  h.client.on_line("1");
  sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_new");
  CHECK(sent[0]["seq"] == 7);
  h.client.on_line("1");
  CHECK(h.client.take_outgoing().empty());
}

TEST_CASE("a line that comes while the prompt waits goes below it, and the prompt is shown again") {
  Harness h(person(Command::kPlay));
  h.client.hello();
  h.feed(kResumed);
  h.feed(R"({"type":"table_created","table":"t_new","invite":"NEW","seat":0})");
  h.feed(state_of("t_new", "NEW", 0));
  h.feed(request_of("t_new", 7));
  const std::string before = h.out.str();
  REQUIRE(before.size() >= 2);
  CHECK(before.substr(before.size() - 2) == "> ");  // the prompt waits, at the end of its line
  // Another seat acts while the person thinks (phases where several seats act
  // at once): its line must not be glued to the prompt.
  h.feed(event_of("t_new"));
  const std::string after = h.out.str().substr(before.size());
  CHECK(after.rfind("\n* ", 0) == 0);
  CHECK(after.find("Your move (") != std::string::npos);
  CHECK(after.substr(after.size() - 2) == "> ");
  // Once the person pressed Enter the prompt's line has ended: nothing is added to it.
  h.client.on_line("1");
  REQUIRE(h.client.take_outgoing().size() == 1);
  const std::string shown = h.out.str();
  h.feed(event_of("t_new"));
  const std::string last = h.out.str().substr(shown.size());
  CHECK(last.rfind("* ", 0) == 0);
  CHECK(last.find("Your move") == std::string::npos);
}

TEST_CASE("join of a table the player already sits at takes it up again") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "OLD";
  Harness h(o);
  h.client.hello();
  h.feed(kResumed);
  h.feed(state_of("t_old", "OLD", 0));
  h.feed(request_of("t_old", 4));
  h.feed(state_of("t_other", "OTH", 0));
  h.feed(request_of("t_other", 2));
  CHECK(h.out.str().empty());
  h.feed(R"({"type":"error","code":"already_seated","message":"You sit here.","table":"t_old"})");
  CHECK_FALSE(h.client.done());
  CHECK(h.out.str().find("Your move") != std::string::npos);
  h.client.on_line("2");
  const auto sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_old");
  CHECK(h.out.str().find("t_other") == std::string::npos);
}

TEST_CASE("resume lists the token's unfinished tables and follows the one picked") {
  Harness h(person(Command::kResume));
  h.client.hello();
  CHECK(h.feed(kResumed).empty());
  CHECK(h.client.wants_settle());
  h.feed(state_of("t_a", "AAA", 1));
  h.feed(state_of("t_b", "BBB", 0));
  h.feed(request_of("t_b", 4));
  CHECK(h.out.str().empty());  // nothing before the list
  h.client.on_settled();
  const std::string list = h.out.str();
  CHECK(list.find("Your unfinished tables:\n") != std::string::npos);
  CHECK(list.find("  1) t_a \u00b7 casino \u00b7 playing \u00b7 you are seat 0 \u00b7 waiting for "
                  "seat 1\n") != std::string::npos);
  CHECK(
      list.find("  2) t_b \u00b7 casino \u00b7 playing \u00b7 you are seat 0 \u00b7 your turn\n") !=
      std::string::npos);
  CHECK(list.find("Pick a table (1-2), 'all' to follow them all, or 'quit'> ") !=
        std::string::npos);
  h.client.on_line("3");
  CHECK(h.out.str().find("Please type a number from 1 to 2") != std::string::npos);
  h.client.on_line("2");
  const std::string after = h.out.str().substr(list.size());
  CHECK(after.find("Table t_b") != std::string::npos);
  CHECK(after.find("Your move") != std::string::npos);
  CHECK(after.find("t_a") == std::string::npos);
  h.feed(event_of("t_a"));
  h.client.on_line("2");
  auto sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_b");
  CHECK(sent[0]["action"]["type"] == "capture");
  CHECK(h.out.str().find("t_a", list.size()) == std::string::npos);
  // Its end ends the run, with its own JSON line.
  h.feed(R"({"type":"game_over","table":"t_b","seq":9,"scores":[6,2],"winners":[0]})");
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == 0);
}

TEST_CASE("resume by table id or invite code, and resume with nothing to resume") {
  ClientOptions o = person(Command::kResume);
  o.resume_table = "BBB";
  Harness h(o);
  h.client.hello();
  h.feed(kResumed);
  h.feed(state_of("t_a", "AAA", 0));
  h.feed(request_of("t_a", 3));
  h.feed(state_of("t_b", "BBB", 0));
  h.feed(request_of("t_b", 4));
  h.client.on_line("1");
  const auto sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_b");

  Harness none(person(Command::kResume));
  none.client.hello();
  none.feed(kResumed);
  none.client.on_settled();
  CHECK(none.client.done());
  CHECK(none.client.exit_code() == 0);
  CHECK(none.out.str() == "No unfinished tables.\n");

  ClientOptions missing = person(Command::kResume);
  missing.resume_table = "t_zzz";
  Harness m(missing);
  m.client.hello();
  m.feed(kResumed);
  m.feed(state_of("t_a", "AAA", 0));
  m.client.on_settled();
  CHECK(m.client.done());
  CHECK(m.client.exit_code() == casa::cli::kExitServerError);
  CHECK(m.log.str().find("no unfinished table t_zzz") != std::string::npos);
}

TEST_CASE("resume shows the table's chat history once, then live lines") {
  ClientOptions o = person(Command::kResume);
  o.resume_table = "t_a";
  Harness h(o);
  h.client.hello();
  h.feed(kResumed);
  std::string st = state_of("t_a", "AAA", 1);
  st.insert(st.size() - 1,
            R"(,"chat":[{"line":1,"from":"p2","name":"bob","seat":1,"team":false,"text":"gg so far"},)"
            R"({"line":2,"from":"p1","name":"ann","seat":0,"team":true,"text":"plan b"}])");
  h.feed(st);
  // A resync brings the same history again, then a live line.
  h.feed(st);
  h.feed(R"({"type":"chat","table":"t_a","line":2,"from":"p1","name":"ann","seat":0,"team":true,"text":"plan b"})");
  h.feed(R"({"type":"chat","table":"t_a","line":3,"from":"p2","name":"bob","seat":1,"team":false,"text":"hi"})");
  const std::string out = h.out.str();
  auto count = [&](const std::string& needle) {
    int n = 0;
    for (std::size_t at = out.find(needle); at != std::string::npos; at = out.find(needle, at + 1)) ++n;
    return n;
  };
  CHECK(count("[bob] gg so far") == 1);
  CHECK(count("[team ann] plan b") == 1);
  CHECK(count("[bob] hi") == 1);
  CHECK(out.find("gg so far") < out.find("plan b"));
  CHECK(out.find("plan b") < out.find("[bob] hi"));
}

TEST_CASE("resume --all follows every table and every line names its table") {
  ClientOptions o = person(Command::kResume);
  o.follow_all = true;
  Harness h(o);
  h.client.hello();
  h.feed(kResumed);
  h.feed(state_of("t_a", "AAA", 1));
  h.feed(state_of("t_b", "BBB", 0));
  h.feed(request_of("t_b", 4));
  h.feed(event_of("t_a"));
  h.feed(request_of("t_a", 5));
  h.client.on_line("1");  // answers the oldest: t_b
  auto sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_b");
  h.feed(event_of("t_b", R"(,"auto":"timer")"));
  h.feed(
      R"({"type":"chat","table":"t_a","from":"p2","name":"bob","seat":1,"team":false,"text":"hi"})");
  h.client.on_line("2");
  sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_a");
  h.feed(R"({"type":"game_over","table":"t_b","seq":9,"scores":[6,2],"winners":[0]})");
  CHECK_FALSE(h.client.done());
  h.feed(R"({"type":"game_over","table":"t_a","seq":9,"scores":[1,6],"winners":[1]})");
  CHECK(h.client.done());
  const std::string out = h.out.str();
  CHECK(out.find("[t_a] * seat 1: trail Q\u2663") != std::string::npos);
  CHECK(out.find("[t_b] * seat 1: trail Q\u2663 [auto: time ran out, robot chose]") !=
        std::string::npos);
  CHECK(out.find("[t_a] [bob] hi") != std::string::npos);
  // Every line names its table, but for the JSON lines scripts read.
  int json_lines = 0;
  for (const auto& line : lines_of(out)) {
    if (line.empty()) continue;
    if (line.front() == '{') {
      ++json_lines;
      continue;
    }
    CHECK_MESSAGE(line.rfind("[t_", 0) == 0, "a line without its table: " << line);
  }
  CHECK(json_lines == 2);
}

TEST_CASE("away, takeover, return and auto moves are told as they happen") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  h.feed(state_of("t_a", "AAA", 1));
  const std::string seats_away =
      R"({"type":"table_update","table":"t_a","status":"playing","seats":[{"seat":0,"kind":"player","name":"ann","connected":true,"away":false},{"seat":1,"kind":"player","name":"bob","player_id":"p2","connected":false,"away":true,"takeover_in_ms":60000}]})";
  const std::string seats_before =
      R"({"type":"table_update","table":"t_a","status":"playing","seats":[{"seat":0,"kind":"player","name":"ann","connected":true,"away":false},{"seat":1,"kind":"player","name":"bob","player_id":"p2","connected":true,"away":false}]})";
  h.feed(seats_before);
  CHECK(h.out.str().find("seat 1: bob\n") != std::string::npos);
  h.feed(seats_away);
  CHECK(h.out.str().find("seat 1: bob is away; robot takes over in 1:00\n") != std::string::npos);
  h.feed(
      R"({"type":"table_update","table":"t_a","status":"playing","seats":[{"seat":0,"kind":"player","name":"ann","connected":true,"away":false},{"seat":1,"kind":"player","name":"bob","player_id":"p2","connected":false,"away":true,"played_by":"robot"}]})");
  CHECK(h.out.str().find("seat 1: robot now plays for bob (away)\n") != std::string::npos);
  h.feed(event_of("t_a", R"(,"auto":"away")"));
  CHECK(h.out.str().find("* seat 1: trail Q\u2663 [auto: player away, played by robot]\n") !=
        std::string::npos);
  // The decision screen shows the seat played by the robot.
  h.feed(request_of("t_a", 6));
  CHECK(h.out.str().find("1 bob (away, played by robot)") != std::string::npos);
  h.feed(seats_before);
  CHECK(h.out.str().find("seat 1: bob is back\n") != std::string::npos);
  h.feed(event_of("t_a", R"(,"auto":"left")"));
  CHECK(h.out.str().find("[auto: player left, played by robot]") != std::string::npos);
}

TEST_CASE("the move timer shows on the decision screen, from the request or the clock") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  std::int64_t now = 1000;
  h.client.set_clock([&now] { return now; });
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  h.feed(state_of("t_a", "AAA", 1));
  std::string timed = request_of("t_a", 6);
  timed.insert(timed.size() - 1, R"(,"deadline_ms":30000)");
  h.feed(timed);
  CHECK(h.out.str().find(" | 0:30 left | ") != std::string::npos);
  // A clock that comes after the screen: said once.
  now += 2000;
  h.client.on_line("");  // the screen again
  CHECK(h.out.str().find(" | 0:28 left | ") != std::string::npos);
  h.client.on_line("1");
  h.client.take_outgoing();
  h.feed(request_of("t_a", 8));
  h.feed(R"({"type":"clock","table":"t_a","seq":8,"seats":[0],"remaining_ms":15000})");
  CHECK(h.out.str().find("You have 0:15 to choose.\n") != std::string::npos);
  now += 5000;
  h.client.on_line("");
  CHECK(h.out.str().find(" | 0:10 left | ") != std::string::npos);
}

TEST_CASE("a closed table is told with its reason and ends the run") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  h.feed(
      R"({"type":"table_closed","table":"t_other","reason":"abandoned","message":"Nobody came back."})");
  CHECK_FALSE(h.client.done());
  h.feed(
      R"({"type":"table_closed","table":"t_a","reason":"creator_gone","message":"The creator left before the start."})");
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == casa::cli::kExitServerError);
  CHECK(h.out.str().find(
            "Table t_a was closed (its creator is gone): The creator left before the start.\n") !=
        std::string::npos);
  CHECK(h.out.str().find("t_other") == std::string::npos);
}

TEST_CASE("leave hands the seat to the robot and ends the run; quit says how to come back") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  h.feed(state_of("t_a", "AAA", 0));
  h.feed(request_of("t_a", 4));
  h.client.on_line("leave");
  auto sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"leave","table":"t_a"})"));
  h.feed(R"({"type":"left","table":"t_a"})");
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == 0);
  CHECK(h.out.str().find("You left table t_a; the robot plays your seat from now on.") !=
        std::string::npos);

  Harness q(o);
  q.client.hello();
  q.feed(kWelcome);
  q.feed(R"({"type":"joined","table":"t_a","seat":0})");
  q.feed(state_of("t_a", "AAA", 0));
  q.client.on_line("quit");
  CHECK(q.client.done());
  CHECK(q.log.str().find("`casa resume t_a`") != std::string::npos);
  CHECK(q.log.str().find("takes it back") != std::string::npos);
}

TEST_CASE("the deal commitment is shown with the table, and how to check it at the end") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  std::string state = state_of("t_a", "AAA", 1);
  const std::string hash(64, 'c');
  state.insert(state.size() - 1, R"(,"deal_commitment":{"algorithm":"sha256","hash":")" + hash + R"("})");
  h.feed(state);
  CHECK(h.out.str().find("Deal commitment (SHA-256), to compare after the game:\n  " + hash + "\n") != std::string::npos);
  h.feed(R"({"type":"game_over","table":"t_a","seq":9,"scores":[6,2],"winners":[0],"deal":{"seed":"42","salt":"00112233445566778899aabbccddeeff"}})");
  CHECK(h.out.str().find("Check the deal: casa verify t_a\n") != std::string::npos);
}

TEST_CASE("the end of a game reads in words before the one JSON line") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  h.feed(state_of("t_a", "AAA", 1));
  h.feed(
      R"({"type":"event","table":"t_a","seq":9,"event":{"type":"round_end","round":3,"scores":[6,2],"points":[3,1]}})");
  h.feed(R"({"type":"game_over","table":"t_a","seq":9,"scores":[6,2],"winners":[0]})");
  CHECK(h.client.done());
  const std::string out = h.out.str();
  CHECK(out.find("* Round 3 is over.\n  Scores: seat 0 (you): 6 \u00b7 seat 1: 2\n"
                 "  Points: seat 0 (you): 3 \u00b7 seat 1: 1\n") != std::string::npos);
  CHECK(
      out.find("Game over at table t_a (casino).\nFinal scores: seat 0 (you): 6 \u00b7 seat 1: 2\n"
               "Winner: seat 0 (you).\nYou won.\nPlay again: casa rematch t_a\n") !=
      std::string::npos);
  // The last line is the JSON one scripts read.
  const auto lines = lines_of(out);
  REQUIRE_FALSE(lines.empty());
  const Json result = Json::parse(lines.back());
  CHECK(result["winners"] == Json::parse("[0]"));
  CHECK(h.client.finished_table() == "t_a");
}

TEST_CASE("a client bot's stdout is only the JSON line; the readable end goes to the log") {
  Harness h(play_options());
  h.feed(kWelcome);
  h.feed(R"({"type":"table_created","table":"t1","invite":"XYZ","seat":0})");
  h.feed(R"({"type":"game_over","table":"t1","seq":40,"scores":[7,3,1],"winners":[0]})");
  CHECK(lines_of(h.out.str()).size() == 1);
  CHECK(h.log.str().find("Final scores: seat 0: 7") != std::string::npos);
}

TEST_CASE("rematch: asks for it, then sits at the new table (joining when another asked first)") {
  ClientOptions o = person(Command::kRematch);
  o.rematch_table = "t_old";
  o.bot = "first";
  Harness h(o);
  h.client.hello();
  auto sent = h.feed(kWelcome);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"rematch","table":"t_old"})"));
  sent = h.feed(R"({"type":"rematch_created","table":"t_old","new_table":"t_new","invite":"NEW"})");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"resync","table":"t_new"})"));
  std::string waiting = state_of("t_new", "NEW", 0);
  waiting.replace(waiting.find("\"status\":\"playing\""), 18, "\"status\":\"waiting\"");
  waiting.replace(waiting.find("\"seat\":0,\"seats\""), 16, "\"seat\":-1,\"seats\"");
  sent = h.feed(waiting);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == Json::parse(R"({"type":"join","table":"t_new"})"));
  h.feed(R"({"type":"joined","table":"t_new","seat":0})");
  sent = h.feed(request_of("t_new", 1));
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t_new");
}

TEST_CASE("play asks for the disconnect policy and the move timer only when given") {
  ClientOptions o = play_options();
  {
    Harness h(o);
    const auto sent = h.feed(kWelcome);
    CHECK_FALSE(sent[0].contains("disconnect_policy"));
    CHECK_FALSE(sent[0].contains("move_timeout_seconds"));
  }
  o.disconnect_policy = {{"grace_seconds", 30}, {"takeover", "none"}};
  o.move_timeout_seconds = 20;
  Harness h(o);
  const auto sent = h.feed(kWelcome);
  CHECK(sent[0]["disconnect_policy"] == Json::parse(R"({"grace_seconds":30,"takeover":"none"})"));
  CHECK(sent[0]["move_timeout_seconds"] == 20);
}

TEST_CASE("the table's move timer and disconnect policy are said once, with the roster") {
  ClientOptions o = person(Command::kJoin);
  o.invite = "AAA";
  Harness h(o);
  h.client.hello();
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t_a","seat":0})");
  std::string state = state_of("t_a", "AAA", 1);
  state.replace(
      state.find("\"move_timeout_seconds\":0"), 24,
      R"("move_timeout_seconds":30,"disconnect_policy":{"grace_seconds":90,"takeover":"robot"},"clock":null)");
  h.feed(state);
  h.feed(state);
  const std::string out = h.out.str();
  const std::string said = "Move timer: 0:30. A player away: robot plays their seat after 1:30.\n";
  CHECK(out.find(said) != std::string::npos);
  CHECK(out.find(said) == out.rfind(said));
  CHECK(out.find("Options: target 5\n") == out.rfind("Options: target 5\n"));
}

TEST_CASE("the client asks for view patches and applies them to the view it holds") {
  ClientOptions options;
  options.command = Command::kJoin;
  options.invite = "XYZ";
  options.seat = 2;
  Harness h(options);
  const Json hello = h.client.hello();
  CHECK(hello["features"] == Json::parse(R"(["view_patch"])"));
  h.feed(kWelcome);
  h.feed(R"({"type":"joined","table":"t1","seat":2})");
  h.feed(
      R"({"type":"table_state","table":"t1","game":"casino","players":3,"status":"playing","seq":4,"seat":2,"seats":[{"seat":0,"kind":"player","name":"ann","connected":true},{"seat":1,"kind":"bot","bot":"robot"},{"seat":2,"kind":"player","name":"bob"}],"teams":[[0],[1],[2]],"options":{},"private":false,"move_timeout_seconds":0,"invite":"XYZ","view":null})");
  h.feed(
      R"({"type":"request","table":"t1","seq":4,"seat":2,"view":{"game":"casino","seat":2,"to_act":[2],"hand":["AS","KD"],"round":1},"legal":[{"type":"trail","card":"AS"},{"type":"trail","card":"KD"}]})");
  h.client.on_line("1");
  const auto sent = h.client.take_outgoing();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["action"] == Json::parse(R"({"type":"trail","card":"AS"})"));
  // The next request says only what changed: the hand, and round gone.
  h.feed(R"({"type":"request","table":"t1","seq":7,"seat":2,"view_patch":{"hand":["KD","QC"],"round":null},"legal":[{"type":"trail","card":"QC"}]})");
  h.out.str("");
  h.client.on_line("view");
  const std::string view = h.out.str();
  CHECK(view.find("Q\u2663") != std::string::npos);
  CHECK(view.find("A\u2660") == std::string::npos);
  CHECK(view.find("ound") == std::string::npos);
  h.client.on_line("1");
  const auto answer = h.client.take_outgoing();
  REQUIRE(answer.size() == 1);
  CHECK(answer[0]["seq"] == 7);
}

TEST_CASE("a drain: `draining` is not fatal and `reconnect` asks for a pause before coming back") {
  Harness h(play_options());
  h.feed(kWelcome);
  h.feed(R"({"type":"table_created","table":"t1","invite":"XYZ","seat":0})");
  CHECK_FALSE(h.client.take_reconnect_after_ms());
  auto sent = h.feed(R"({"type":"error","code":"draining","message":"shutting down","table":"t1"})");
  CHECK(sent.empty());
  CHECK_FALSE(h.client.done());
  sent = h.feed(R"({"type":"reconnect","reason":"draining","after_ms":350})");
  CHECK(sent.empty());
  CHECK_FALSE(h.client.done());
  CHECK(h.client.take_reconnect_after_ms() == 350);
  CHECK_FALSE(h.client.take_reconnect_after_ms());  // once
  // The next connection resumes as any reconnect does.
  CHECK(h.client.hello()["token"] == "abc");
}

// ---- casa event (docs/events.md) ----

TEST_CASE("event create: --side specs become create_event sides, `me` the player's id") {
  std::string error;
  const auto ann = casa::cli::parse_side("Ann=me", error);
  REQUIRE(ann);
  CHECK(*ann == Json::parse(R"({"name":"Ann","members":[{"me":true}]})"));
  const auto pair = casa::cli::parse_side("robot,p0123456789", error);
  REQUIRE(pair);
  CHECK(*pair == Json::parse(R"({"members":[{"bot":"robot"},{"player_id":"p0123456789"}]})"));
  const auto rotating = casa::cli::parse_side("Us=me/pabcdef0123", error);
  REQUIRE(rotating);
  CHECK(*rotating ==
        Json::parse(R"({"name":"Us","tables":[[{"me":true}],[{"player_id":"pabcdef0123"}]]})"));
  CHECK_FALSE(casa::cli::parse_side("=me", error));
  CHECK_FALSE(casa::cli::parse_side("Rob Ot", error));
  CHECK(error.find("'Rob Ot'") != std::string::npos);
  CHECK_FALSE(casa::cli::parse_side("me,,robot", error));
  const Json sides = Json::array({*ann, *rotating});
  CHECK(casa::cli::sides_for(sides, "p1")[0]["members"][0] == Json::parse(R"({"player_id":"p1"})"));
  CHECK(casa::cli::sides_for(sides, "p1")[1]["tables"][0][0] ==
        Json::parse(R"({"player_id":"p1"})"));

  ClientOptions o;
  o.command = Command::kEventCreate;
  o.game = "casino";
  o.players = 2;
  o.event_boards = 3;
  o.event_sides = sides;
  Harness h(o);
  h.client.hello();
  const auto sent = h.feed(kWelcome);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["type"] == "create_event");
  CHECK(sent[0]["boards"] == 3);
  CHECK(sent[0]["sides"][0]["members"][0]["player_id"] == "p1");
  h.feed(R"({"type":"event_created","event":"e1","rotations":2,"tables":["ta","tb"]})");
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == 0);
  CHECK(Json::parse(h.out.str()) ==
        Json::parse(R"({"event":"e1","rotations":2,"tables":["ta","tb"]})"));
  CHECK(h.log.str().find("casa event join e1") != std::string::npos);
}

namespace {
// An event of two boards where p1 sits at rotation 1 only (bob's side, then ann's).
Json event_at(const std::string& board2_table, const std::string& status, const std::string& b1r1,
              const std::string& b2r1) {
  Json e = Json::parse(R"({"event":"e1","game":"casino","players":2,"boards":2,"rotations":2,
    "sides":[{"name":"Ann","tables":[[{"player_id":"p2"}],[{"player_id":"p1"}]]},
             {"name":"Bob","tables":[[{"player_id":"p3"}],[{"bot":"robot"}]]}],
    "results":[],"standings":[{"rank":1,"side":1,"name":"Bob","total":4,"points":9,"hands":2},
                              {"rank":2,"side":0,"name":"Ann","total":-4,"points":5,"hands":2}]})");
  e["status"] = status;
  e["tables"] = Json::array();
  e["tables"].push_back({{"board", 1}, {"rotation", 0}, {"table", "t10"}, {"status", "playing"}});
  e["tables"].push_back({{"board", 1}, {"rotation", 1}, {"table", "t11"}, {"status", b1r1}});
  e["tables"].push_back(
      {{"board", 2}, {"rotation", 0}, {"table", Json()}, {"status", "not_started"}});
  e["tables"].push_back({{"board", 2},
                         {"rotation", 1},
                         {"table", board2_table.empty() ? Json() : Json(board2_table)},
                         {"status", b2r1}});
  return e;
}
const char* kStateT11 =
    R"({"type":"table_state","table":"t11","game":"casino","players":2,"status":"playing","seq":1,"seat":1,"seats":[],"teams":[[0],[1]],"options":{},"view":{"game":"casino","seat":1,"to_act":[1]}})";
}  // namespace

TEST_CASE(
    "event join: plays the event's tables where the player sits, board after board, then the "
    "standings") {
  ClientOptions o;
  o.command = Command::kEventJoin;
  o.event = "e1";
  o.bot = "first";
  o.token = "abc";
  o.event_info = event_at("", "running", "playing", "not_started");
  std::deque<Json> answers;  // what the server says when asked again
  o.fetch_event = [&answers] {
    if (answers.empty()) return Json();
    Json a = answers.front();
    answers.pop_front();
    return a;
  };
  Harness h(o);
  h.client.hello();
  answers.push_back(event_at("", "running", "playing", "not_started"));
  CHECK(h.feed(kWelcome).empty());
  // Another table of the token (not this event's, at a rotation we do not sit at):
  // named, not played.
  answers.push_back(event_at("", "running", "playing", "not_started"));
  h.feed(
      R"({"type":"table_state","table":"t10","game":"casino","players":2,"status":"playing","seq":1,"seat":0,"seats":[],"teams":[[0],[1]],"options":{},"view":null})");
  CHECK(h.log.str().find("casa resume t10") != std::string::npos);
  h.feed(kStateT11);
  auto sent = h.feed(
      R"({"type":"request","table":"t11","seq":2,"seat":1,"view":{"game":"casino","seat":1,"to_act":[1]},"legal":[{"type":"trail","card":"AS"}]})");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t11");
  CHECK(sent[0]["seq"] == 2);
  // Board 1 ends here; board 2 is not open yet: the run waits for it.
  answers.push_back(event_at("", "running", "playing", "not_started"));
  h.feed(R"({"type":"game_over","table":"t11","seq":3,"scores":[3,5],"winners":[1]})");
  CHECK_FALSE(h.client.done());
  CHECK(h.log.str().find("waiting for your next board") != std::string::npos);
  // Its table_state comes when it starts: a table the event did not have when
  // last asked, so it asks again.
  answers.push_back(event_at("t21", "running", "over", "playing"));
  h.feed(
      R"({"type":"table_state","table":"t21","game":"casino","players":2,"status":"playing","seq":1,"seat":1,"seats":[],"teams":[[0],[1]],"options":{},"view":{"game":"casino","seat":1,"to_act":[0]}})");
  sent = h.feed(
      R"({"type":"request","table":"t21","seq":2,"seat":1,"view":{"game":"casino","seat":1,"to_act":[1]},"legal":[{"type":"trail","card":"KD"}]})");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["table"] == "t21");
  // The last board over (the server still says "playing": what this run saw counts).
  answers.push_back(event_at("t21", "running", "over", "playing"));
  h.feed(R"({"type":"game_over","table":"t21","seq":3,"scores":[2,6],"winners":[1]})");
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == 0);
  const std::string screen = h.log.str();
  CHECK(screen.find("Your tables of event e1 are all played; others still play.") !=
        std::string::npos);
  CHECK(screen.find("  1  Bob       +4       9      2") != std::string::npos);
  CHECK(screen.find("  2  Ann       -4       5      2") != std::string::npos);
  CHECK(h.out.str().find(R"({"table":"t21")") != std::string::npos);
}

TEST_CASE("event join: a player the event does not name is told so, with their id") {
  ClientOptions o;
  o.command = Command::kEventJoin;
  o.event = "e1";
  o.bot = "first";
  o.event_info = event_at("", "running", "playing", "not_started");
  Harness h(o);
  h.client.hello();
  CHECK(
      h.feed(
           R"({"type":"welcome","player_id":"p9","token":"t","name":"carol","version":1,"resumed":false})")
          .empty());
  CHECK(h.client.done());
  CHECK(h.client.exit_code() == 1);
  CHECK(h.log.str().find("you (carol, player id p9) do not sit in event e1") != std::string::npos);
}
