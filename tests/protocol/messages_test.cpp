// SPDX-License-Identifier: AGPL-3.0-or-later
// Client messages read into their typed structs (protocol/messages.h): every
// type round-trips through its JSON form, and bad frames get their codes.
#include <doctest/doctest.h>

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "protocol/schema.h"

namespace p = casa::protocol;
using nlohmann::json;

namespace {

// One message of each type, with every optional member given where the
// type has one (and a second one without them where that differs).
std::vector<p::ClientFrame> samples() {
  p::CreateTable table{"la-casa", 4, json{{"format", "teams"}}, true, false, 2, 30,
                       p::DisconnectPolicy{90, "strong"}, 12345, true};
  p::CreateTable bare;
  bare.game = "casino";
  bare.players = 2;
  p::CreateEvent event;
  event.game = "la-casa";
  event.players = 4;
  event.options = {{"format", "teams"}};
  event.boards = 2;
  event.rated = true;
  event.seeds = std::vector<std::uint64_t>{7, 8};
  event.sides = {p::EventSide{"North", std::vector<p::EventMember>{{"p1", ""}, {"", "robot"}}, std::nullopt},
                 p::EventSide{std::nullopt, std::nullopt,
                              std::vector<std::vector<p::EventMember>>{{{"p2", ""}}, {{"", "strong"}}}}};
  return {
      {p::Hello{1, "ann", std::nullopt, std::vector<std::string>{"view_patch"}}, json("h-1")},
      {p::Hello{1, std::nullopt, "secret-token", std::nullopt}, std::nullopt},
      {p::Ping{}, json(3)},
      {table, json("c")},
      {bare, std::nullopt},
      {p::ListTables{"casino"}, std::nullopt},
      {p::ListTables{}, std::nullopt},
      {p::MyTables{}, json(7)},
      {p::Join{{"t1", ""}, 3}, json(1)},
      {p::Join{{"", "ABCDEFGHJK"}, std::nullopt}, std::nullopt},
      {p::Join{{"t1", "ABCDEFGHJK"}, std::nullopt}, std::nullopt},
      {p::Spectate{{"t1", ""}, true}, std::nullopt},
      {p::Spectate{{"", "ABCDEFGHJK"}, false}, std::nullopt},
      {p::Leave{{"t1", ""}}, std::nullopt},
      {p::AddBot{{"t1", ""}, 2, "strong"}, json("b")},
      {p::ActionMessage{{"t1", ""}, 41, casa::Value::obj({{"type", "play"}, {"card", "G5"}})}, json("r-9")},
      {p::Chat{{"t1", ""}, "hello all", true}, std::nullopt},
      {p::Rematch{{"t1", ""}}, std::nullopt},
      {p::Resync{{"t1", ""}, true}, json(-4)},
      {event, json("e")},
      {p::AnswerInvitation{"i123", true}, std::nullopt},
      {p::AnswerInvitation{"i123", false}, json(5)},
      {p::InviteFriend{{"t1", ""}, "Anna"}, json(6)},
      {p::DeclineTableInvitation{"f0123456789abcdef"}, std::nullopt},
  };
}

p::ClientFrame parsed(const std::string& text) {
  p::ClientFrame frame;
  const auto refusal = p::parse_client(text, frame);
  INFO(text);
  REQUIRE_FALSE(refusal);
  return frame;
}

}  // namespace

TEST_CASE("every client message type reads back as the struct it was written from") {
  std::set<std::string> types;
  for (const auto& frame : samples()) {
    const json written = p::to_json(frame);
    INFO(written.dump());
    // What a client writes is what the schema documents.
    CHECK_FALSE(p::protocol_schemas().validate("client/" + written["type"].get<std::string>() + ".json", written));
    const auto back = parsed(written.dump());
    CHECK(back.message == frame.message);
    CHECK(back.id == frame.id);
    CHECK(p::type_of(back.message) == written["type"].get<std::string>());
    // The tree reader agrees (the action also takes the plain shortcut).
    p::ClientFrame tree;
    REQUIRE_FALSE(p::parse_client_tree(written.dump(), tree));
    CHECK(tree.message == frame.message);
    types.insert(std::string(p::type_of(back.message)));
  }
  // Every type of protocol/schemas/client/ has its sample.
  for (const char* type : {"hello", "ping", "create_table", "list_tables", "join", "spectate", "leave", "add_bot",
                           "action", "chat", "rematch", "resync", "create_event", "accept_invitation",
                           "decline_invitation", "invite_friend", "decline_table_invitation"}) {
    CHECK_MESSAGE(types.count(type) == 1, type);
    CHECK(p::is_client_type(type));
  }
}

TEST_CASE("a message's absent members read as their documented defaults") {
  const auto table = std::get<p::CreateTable>(parsed(R"({"type":"create_table","game":"g","players":2})").message);
  CHECK(table.options == json::object());
  CHECK_FALSE(table.is_private);
  CHECK_FALSE(table.rated.has_value());
  CHECK(table.seat == 0);
  CHECK(table.move_timeout_seconds == 0);
  CHECK_FALSE(table.disconnect_policy.has_value());
  CHECK_FALSE(table.seed.has_value());
  const auto policy = std::get<p::CreateTable>(
      parsed(R"({"type":"create_table","game":"g","players":2,"disconnect_policy":{}})").message);
  REQUIRE(policy.disconnect_policy.has_value());
  CHECK(*policy.disconnect_policy == p::DisconnectPolicy{});
  CHECK(std::get<p::Join>(parsed(R"({"type":"join","invite":"abc"})").message) == p::Join{{"", "abc"}, std::nullopt});
  CHECK(std::get<p::Spectate>(parsed(R"({"type":"spectate","table":"t"})").message).history == false);
  CHECK(std::get<p::Chat>(parsed(R"({"type":"chat","table":"t","text":"x"})").message).team == false);
  const auto event = std::get<p::CreateEvent>(
      parsed(R"({"type":"create_event","game":"g","players":2,"sides":[{"members":[{"bot":"robot"}]},{}]})").message);
  CHECK(event.boards == 1);
  CHECK_FALSE(event.rated);
  CHECK_FALSE(event.seeds.has_value());
  REQUIRE(event.sides.size() == 2);
  CHECK(event.sides[0].members == std::vector<p::EventMember>{{"", "robot"}});
  CHECK(event.sides[1] == p::EventSide{});
  CHECK(std::get<p::AnswerInvitation>(parsed(R"({"type":"decline_invitation","invitation":"i"})").message) ==
        p::AnswerInvitation{"i", false});
}

TEST_CASE("integral numbers beyond the member's range read as its nearest bound") {
  // The schema's "integer" takes any integral number (2^64, 1e20, -3e30): the
  // read is clamped, never an undefined conversion, and the value is then
  // refused where it is used (no such version, seat or player count).
  CHECK(std::get<p::Hello>(parsed(R"({"type":"hello","version":18446744073709551616})").message).version ==
        std::numeric_limits<int>::max());
  CHECK(std::get<p::Hello>(parsed(R"({"type":"hello","version":1e20})").message).version ==
        std::numeric_limits<int>::max());
  CHECK(std::get<p::Hello>(parsed(R"({"type":"hello","version":4294967297})").message).version ==
        std::numeric_limits<int>::max());
  CHECK(std::get<p::Hello>(parsed(R"({"type":"hello","version":3.0})").message).version == 3);
  // Where the schema bounds a member (players, seat), it refuses such numbers itself.
  p::ClientFrame frame;
  CHECK(p::parse_client(R"({"type":"create_table","game":"g","players":1e20})", frame));
}

TEST_CASE("bad frames get the protocol's codes and sentences, and no message") {
  struct Case {
    std::string text, code, message;
  };
  const std::vector<Case> cases = {
      {R"({"type":"teleport","id":"x"})", "unknown_type", "There is no message type 'teleport'."},
      {R"({"id":4})", "bad_field", "Every message needs a string field \"type\"."},
      {R"({"type":7})", "bad_field", "Every message needs a string field \"type\"."},
      {"[1]", "malformed_json", "A message must be one JSON object."},
      {R"({"type":"ping")", "malformed_json", "A message must be one JSON object."},
  };
  for (const auto& c : cases) {
    p::ClientFrame frame;
    const auto refusal = p::parse_client(c.text, frame);
    INFO(c.text);
    REQUIRE(refusal);
    CHECK(refusal->code == c.code);
    CHECK(refusal->message == c.message);
  }
  // A missing member and a member of the wrong type, for every kind of member.
  for (const std::string text : {
           R"({"type":"hello"})",                                           // no version
           R"({"type":"hello","version":"1"})",                             // a string for an integer
           R"({"type":"create_table","game":"g"})",                         // no players
           R"({"type":"create_table","game":"g","players":2,"private":1})",  // not a boolean
           R"({"type":"create_table","game":"g","players":2,"options":[]})",  // not an object
           R"({"type":"join","table":3})",
           R"({"type":"add_bot","table":"t","seat":1})",                    // no bot
           R"({"type":"action","table":"t","seq":"1","action":{"type":"x"}})",
           R"({"type":"action","table":"t","action":{"type":"x"}})",        // no seq
           R"({"type":"chat","table":"t"})",                                // no text
           R"({"type":"resync"})",                                          // no table
           R"({"type":"create_event","game":"g","players":2,"sides":[{"members":[{"bot":"robot","x":1}]},{}]})",
           R"({"type":"accept_invitation"})",
           R"({"type":"invite_friend","table":"t"})",  // no handle
           R"({"type":"decline_table_invitation"})",
       }) {
    p::ClientFrame frame;
    const auto refusal = p::parse_client(text, frame);
    INFO(text);
    REQUIRE(refusal);
    CHECK(refusal->code == "bad_field");
    const json body = json::parse(text);
    CHECK(refusal->message.rfind("Bad " + body["type"].get<std::string>() + " message: ", 0) == 0);
  }
}
