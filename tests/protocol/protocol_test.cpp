// The schema validator, the schemas themselves, and client frame parsing.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "protocol/protocol.h"
#include "protocol/schema.h"
#include "protocol/value_json.h"

using casa::protocol::protocol_schemas;
using casa::protocol::SchemaSet;
using nlohmann::json;

TEST_CASE("the validator covers the keywords the schemas use") {
  SchemaSet set;
  set.add("a.json", json::parse(R"({
    "type": "object", "required": ["n"], "additionalProperties": false,
    "properties": {
      "n": {"type": "integer", "minimum": 1, "maximum": 3},
      "s": {"type": "string", "minLength": 2, "maxLength": 3},
      "e": {"enum": ["x", "y"]},
      "c": {"const": 7},
      "l": {"type": "array", "items": {"$ref": "b.json#/definitions/small"}, "maxItems": 2},
      "o": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
      "u": {"type": ["string", "null"]}
    }})"));
  set.add("b.json", json::parse(R"({"definitions": {"small": {"type": "integer", "maximum": 9}}})"));
  auto ok = [&](const char* text) { return !set.validate("a.json", json::parse(text)); };
  CHECK(ok(R"({"n": 2})"));
  CHECK_FALSE(ok(R"({})"));
  CHECK_FALSE(ok(R"({"n": 0})"));
  CHECK_FALSE(ok(R"({"n": 4})"));
  CHECK_FALSE(ok(R"({"n": 2.5})"));
  CHECK_FALSE(ok(R"({"n": "2"})"));
  CHECK_FALSE(ok(R"({"n": 2, "z": 1})"));
  CHECK(ok(R"({"n": 2, "s": "ab"})"));
  CHECK_FALSE(ok(R"({"n": 2, "s": "a"})"));
  CHECK_FALSE(ok(R"({"n": 2, "s": "abcd"})"));
  CHECK(ok(R"({"n": 2, "s": "\u00e9\u00e9\u00e9"})"));  // code points, not bytes
  CHECK_FALSE(ok(R"({"n": 2, "e": "z"})"));
  CHECK_FALSE(ok(R"({"n": 2, "c": 8})"));
  CHECK(ok(R"({"n": 2, "l": [1, 9]})"));
  CHECK_FALSE(ok(R"({"n": 2, "l": [10]})"));
  CHECK_FALSE(ok(R"({"n": 2, "l": [1, 2, 3]})"));
  CHECK(ok(R"({"n": 2, "o": 5})"));
  CHECK_FALSE(ok(R"({"n": 2, "o": true})"));
  CHECK(ok(R"({"n": 2, "u": null})"));
  CHECK_FALSE(ok(R"({"n": 2, "u": 1})"));
}

TEST_CASE("every schema resolves, and the envelopes pick exactly one message") {
  const auto& s = protocol_schemas();
  CHECK(s.has("client.json"));
  CHECK(s.has("server.json"));
  CHECK(s.has("common.json"));
  CHECK_FALSE(s.validate("client.json", json::parse(R"({"type":"hello","version":1,"name":"ann"})")));
  CHECK(s.validate("client.json", json::parse(R"({"type":"hello"})")));
  CHECK_FALSE(s.validate("server.json", json::parse(
      R"({"type":"request","table":"t1","seq":3,"seat":1,"legal":[{"type":"play","card":"G5"}],"view":{}})")));
  CHECK(s.validate("server.json", json::parse(R"({"type":"request","table":"t1","seq":3,"seat":1,"legal":[],"view":{}})")));
  CHECK_FALSE(s.validate("server.json", json::parse(R"({"type":"error","code":"stale_seq","message":"m","seq":4})")));
  CHECK(s.validate("server.json", json::parse(R"({"type":"error","code":"whatever","message":"m"})")));
  CHECK(s.validate("server.json", json::parse(R"({"type":"nonsense"})")));
}

TEST_CASE("client frames: malformed_json, unknown_type, bad_field, and the id survives") {
  casa::protocol::Incoming in;
  CHECK(casa::protocol::parse_client("{", in)->code == "malformed_json");
  CHECK(casa::protocol::parse_client("3", in)->code == "malformed_json");
  CHECK(casa::protocol::parse_client(std::string(100, '[') + std::string(100, ']'), in)->code == "malformed_json");
  CHECK(casa::protocol::parse_client(R"({"id":7})", in)->code == "bad_field");
  CHECK(in.id == json(7));
  CHECK(casa::protocol::parse_client(R"({"type":"fly","id":"x"})", in)->code == "unknown_type");
  CHECK(in.id == json("x"));
  CHECK(casa::protocol::parse_client(R"({"type":"join","table":3})", in)->code == "bad_field");
  CHECK(casa::protocol::parse_client(R"({"type":"action","table":"t","seq":-1,"action":{"type":"x"}})", in)->code ==
        "bad_field");
  CHECK_FALSE(casa::protocol::parse_client(R"({"type":"action","table":"t","seq":0,"action":{"type":"x"},"id":1})", in));
  CHECK(in.type == "action");
  CHECK(in.body["seq"] == 0);
}

TEST_CASE("builders produce messages that fit their schemas") {
  using casa::Value;
  const auto& s = protocol_schemas();
  const std::string req = casa::protocol::request("t1", 2, 0, {Value::obj({{"type", "pass"}})},
                                                  Value::obj({{"hand", Value::array()}}), 1500);
  CHECK_FALSE(s.validate("server.json", json::parse(req)));
  CHECK_FALSE(s.validate("server.json", json::parse(casa::protocol::event("t1", 2, Value::obj({{"type", "x"}})))));
  CHECK_FALSE(s.validate("server.json", json::parse(casa::protocol::game_over("t1", 9, {3, 4}, {1}))));
  // game_over reveals the deal (docs/fair-play.md): seed as decimal text, a 32-digit salt.
  const json deal = {{"seed", "18446744073709551615"}, {"salt", "00112233445566778899aabbccddeeff"}};
  const json revealed = json::parse(casa::protocol::game_over("t1", 9, {3, 4}, {1}, deal));
  CHECK(revealed["deal"] == deal);
  CHECK_FALSE(s.validate("server.json", revealed));
  CHECK(s.validate("server.json", json::parse(casa::protocol::game_over("t1", 9, {3, 4}, {1},
                                                                         {{"seed", "1"}, {"salt", "00"}}))));
  CHECK(s.validate("server.json", json::parse(casa::protocol::game_over("t1", 9, {3, 4}, {1},
                                                                         {{"seed", 1}, {"salt", deal["salt"]}}))));
  CHECK_FALSE(s.validate("server.json", json::parse(casa::protocol::error({"stale_seq", "m"}, json("q"), "t1", 3))));
  CHECK_FALSE(s.validate("server.json", json::parse(casa::protocol::reply("pong", json::object(), json(1)))));
  // A move the server made for a seat carries `auto`; an unknown reason is refused.
  const json by_timer = json::parse(casa::protocol::event("t1", 2, Value::obj({{"type", "x"}}), "timer"));
  CHECK(by_timer["auto"] == "timer");
  CHECK_FALSE(s.validate("server.json", by_timer));
  CHECK(s.validate("server.json", json::parse(casa::protocol::event("t1", 2, Value::obj({{"type", "x"}}), "bored"))));
  CHECK_FALSE(json::parse(casa::protocol::event("t1", 2, Value::obj({{"type", "x"}}))).contains("auto"));
}

TEST_CASE("the disconnect policy, clock and table_closed messages have schemas") {
  const auto& s = protocol_schemas();
  CHECK_FALSE(s.validate("server.json", json::parse(
      R"({"type":"clock","table":"t1","seq":4,"seats":[0,2],"remaining_ms":29000})")));
  CHECK(s.validate("server.json", json::parse(R"({"type":"clock","table":"t1","seq":4,"seats":[0]})")));
  CHECK_FALSE(s.validate("server.json", json::parse(
      R"({"type":"table_closed","table":"t1","reason":"abandoned","message":"Everyone left."})")));
  CHECK(s.validate("server.json", json::parse(
      R"({"type":"table_closed","table":"t1","reason":"bored","message":"m"})")));
  CHECK_FALSE(s.validate("server.json", json::parse(
      R"({"type":"table_update","table":"t1","status":"playing","seats":[)"
      R"({"seat":0,"kind":"player","player_id":"p1","connected":false,"away":true,"takeover_in_ms":5000},)"
      R"({"seat":1,"kind":"player","player_id":"p2","connected":false,"away":true,"played_by":"robot"}]})")));
  CHECK_FALSE(s.validate("client.json", json::parse(
      R"({"type":"create_table","game":"la-casa","players":2,"disconnect_policy":{"grace_seconds":0,"takeover":"none"}})")));
  CHECK(s.validate("client.json", json::parse(
      R"({"type":"create_table","game":"la-casa","players":2,"disconnect_policy":{"grace_seconds":-1}})")));
  CHECK(s.validate("client.json", json::parse(
      R"({"type":"create_table","game":"la-casa","players":2,"disconnect_policy":{"takeover":"random"}})")));
}

TEST_CASE("the direct JSON writer says what nlohmann_json says") {
  using casa::Value;
  const std::string tricky = std::string("q\"b\\s/\b\f\n\r\t") + '\x01' + '\x1f' + "\x7f" + "\u00e9\u20ac\U0001F0A1";
  const Value v = Value::obj({{"type", "play"},
                              {"n", -9223372036854775807LL - 1},
                              {"big", 9223372036854775807LL},
                              {"t", true},
                              {"f", false},
                              {"z", nullptr},
                              {tricky, Value(Value::Array{Value(tricky), Value::array(), Value::object(), Value(0)})}});
  std::string text;
  casa::append_json(text, v);
  CHECK(json::parse(text) == casa::to_json(v));
  CHECK(casa::from_json(json::parse(text)) == v);
  // Bytes that are not UTF-8 (a lone continuation byte, a cut sequence, an
  // overlong form, a surrogate) become U+FFFD: the text is still valid JSON.
  for (const std::string bad : {"a\x80z", "a\xE2\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80"}) {
    std::string out;
    casa::append_json_string(out, bad);
    const json parsed = json::parse(out);  // throws on invalid UTF-8
    CHECK(parsed.get<std::string>().find("\xEF\xBF\xBD") != std::string::npos);
  }
}

TEST_CASE("accepted, event and request are written straight and fit their schemas") {
  using casa::Value;
  const auto& s = protocol_schemas();
  const json a = json::parse(casa::protocol::accepted("t1", 5, json("r-1")));
  CHECK(a == json{{"type", "accepted"}, {"table", "t1"}, {"seq", 5}, {"id", "r-1"}});
  CHECK_FALSE(s.validate("server.json", a));
  CHECK(json::parse(casa::protocol::accepted("t1", 5, json(42)))["id"] == 42);
  CHECK_FALSE(json::parse(casa::protocol::accepted("t1", 5, std::nullopt)).contains("id"));
  // The same bytes as a JSON tree would give, once parsed.
  const Value view = Value::obj({{"hand", Value(Value::Array{Value("G5"), Value("R1")})}, {"round", 2}});
  const std::vector<Value> legal = {Value::obj({{"type", "play"}, {"card", "G5"}})};
  const json r = json::parse(casa::protocol::request("t\"1", 7, 2, legal, view, 900));
  CHECK(r == json{{"type", "request"}, {"table", "t\"1"}, {"seq", 7}, {"seat", 2},
                  {"legal", json::array({{{"type", "play"}, {"card", "G5"}}})},
                  {"view", casa::to_json(view)}, {"deadline_ms", 900}});
  const Value patch = Value::obj({{"round", 3}});
  const json p = json::parse(casa::protocol::request("t1", 8, 2, legal, nullptr, &patch, std::nullopt));
  CHECK_FALSE(p.contains("view"));
  CHECK(p["view_patch"] == json{{"round", 3}});
  CHECK_FALSE(s.validate("server.json", p));
}

TEST_CASE("the validator names where a document fails") {
  SchemaSet set;
  set.add("a.json", json::parse(R"({"type": "object", "additionalProperties": false, "properties": {
      "l": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "integer"}}}}}})"));
  CHECK(set.validate("a.json", json::parse(R"({"l": [{"k": 1}, {"k": "x"}]})")) == "/l/1/k: expected \"integer\", got string");
  CHECK(set.validate("a.json", json::parse(R"({"m": 1})")) == "/m: unknown field");
  CHECK(set.validate("a.json", json::parse(R"(3)")) == "/: expected \"object\", got integer");
}
