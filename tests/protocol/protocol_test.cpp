// SPDX-License-Identifier: AGPL-3.0-or-later
// The schema validator, the schemas themselves, and client frame parsing.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "protocol/messages.h"
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

TEST_CASE(
    "the validator checks pattern, uniqueItems, member counts, dependencies and the combinators") {
  SchemaSet set;
  set.add("k.json", json::parse(R"({
    "type": "object",
    "properties": {
      "hex": {"type": "string", "pattern": "^[0-9a-f]{4}$"},
      "inside": {"type": "string", "pattern": "b+c"},
      "set": {"type": "array", "uniqueItems": true},
      "bag": {"type": "array", "uniqueItems": false},
      "map": {"type": "object", "minProperties": 1, "maxProperties": 2},
      "both": {"allOf": [{"type": "integer"}, {"minimum": 3}]},
      "other": {"not": {"type": "string"}},
      "cond": {"if": {"type": "integer"}, "then": {"minimum": 10}, "else": {"type": "string"}},
      "only_if": {"if": {"type": "integer"}, "then": {"maximum": 0}}
    },
    "dependencies": {"a": ["b"], "c": {"not": {"required": ["d"]}}}
  })"));
  auto why = [&](const char* text) { return set.validate("k.json", json::parse(text)); };
  auto ok = [&](const char* text) { return !why(text); };
  // pattern: an ECMA-262 regex searched anywhere in the string.
  CHECK(ok(R"({"hex": "00af"})"));
  CHECK_FALSE(ok(R"({"hex": "00AF"})"));
  CHECK_FALSE(ok(R"({"hex": "00af0"})"));
  CHECK(ok(R"({"inside": "abbbcd"})"));
  CHECK_FALSE(ok(R"({"inside": "acb"})"));
  CHECK(why(R"({"hex": "x"})") == "/hex: does not match pattern \"^[0-9a-f]{4}$\"");
  // uniqueItems: equal as JSON values, numbers by value, objects by members.
  CHECK(ok(R"({"set": [1, "1", [1], {"a": 1}, {"a": 2}]})"));
  CHECK_FALSE(ok(R"({"set": ["x", "y", "x"]})"));
  CHECK_FALSE(ok(R"({"set": [1, 1.0]})"));
  CHECK_FALSE(ok(R"({"set": [{"a": 1, "b": 2}, {"b": 2, "a": 1}]})"));
  CHECK(why(R"({"set": [0, 5, 5]})") == "/set: items 1 and 2 are equal");
  CHECK(ok(R"({"bag": [1, 1]})"));
  // minProperties and maxProperties.
  CHECK(ok(R"({"map": {"a": 1}})"));
  CHECK(ok(R"({"map": {"a": 1, "b": 2}})"));
  CHECK(why(R"({"map": {}})") == "/map: fewer members than 1");
  CHECK(why(R"({"map": {"a": 1, "b": 2, "c": 3}})") == "/map: more members than 2");
  // allOf: every branch.
  CHECK(ok(R"({"both": 4})"));
  CHECK(why(R"({"both": 2})") == "/both: below minimum 3");
  CHECK_FALSE(ok(R"({"both": 4.5})"));
  // not.
  CHECK(ok(R"({"other": 1})"));
  CHECK(why(R"({"other": "s"})") == "/other: must not match {\"type\":\"string\"}");
  // if / then / else.
  CHECK(ok(R"({"cond": 12})"));
  CHECK(ok(R"({"cond": "s"})"));
  CHECK(why(R"({"cond": 5})") == "/cond: below minimum 10 (when {\"type\":\"integer\"})");
  CHECK(why(R"({"cond": true})") ==
        "/cond: expected \"string\", got boolean (when {\"type\":\"integer\"} fails)");
  CHECK(ok(R"({"only_if": "anything"})"));
  CHECK(ok(R"({"only_if": -1})"));
  CHECK_FALSE(ok(R"({"only_if": 1})"));
  // dependencies: names that must come along, or a schema the whole object must fit.
  CHECK(ok(R"({"a": 1, "b": 2})"));
  CHECK(ok(R"({"b": 2})"));
  CHECK(why(R"({"a": 1})") == "/: a needs b");
  CHECK(ok(R"({"c": 1})"));
  CHECK(ok(R"({"d": 1})"));
  CHECK(why(R"({"c": 1, "d": 2})") == "/: must not match {\"required\":[\"d\"]} (with c)");
}

TEST_CASE("a schema using a keyword the validator does not implement is refused when added") {
  auto refusal = [](const char* id, const char* text) -> std::string {
    SchemaSet set;
    try {
      set.add(id, json::parse(text));
    } catch (const std::invalid_argument& e) {
      CHECK_FALSE(set.has(id));
      return e.what();
    }
    return "";
  };
  CHECK(refusal("u.json", R"({"type": "string", "format": "email"})") ==
        "schema u.json at /: unsupported keyword 'format'");
  // Wherever it is: under properties, definitions, items, combinators.
  CHECK(refusal("u.json", R"({"properties": {"a/b": {"items": {"multipleOf": 2}}}})") ==
        "schema u.json at /properties/a~1b/items: unsupported keyword 'multipleOf'");
  CHECK(refusal("u.json", R"({"definitions": {"d": {"allOf": [{}, {"contains": {}}]}}})") ==
        "schema u.json at /definitions/d/allOf/1: unsupported keyword 'contains'");
  CHECK(refusal("u.json", R"({"$id": "v.json", "if": {"patternProperties": {}}})") ==
        "schema v.json at /if: unsupported keyword 'patternProperties'");
  CHECK(refusal("u.json", R"({"dependencies": {"a": {"propertyNames": {}}}})") ==
        "schema u.json at /dependencies/a: unsupported keyword 'propertyNames'");
  // Forms the validator does not read the way the standard does.
  CHECK(refusal("u.json", R"({"items": [{"type": "string"}]})").find("tuples") !=
        std::string::npos);
  CHECK(refusal("u.json", R"({"$ref": "#/definitions/x", "maxLength": 3})") ==
        "schema u.json at /: keyword 'maxLength' beside $ref");
  CHECK(refusal("u.json", R"({"pattern": "("})").find("does not compile") != std::string::npos);
  CHECK(refusal("u.json", R"({"minItems": -1})") ==
        "schema u.json at /: minItems must be a non-negative integer");
  CHECK(refusal("u.json", R"({"type": "text"})") ==
        "schema u.json at /: type must name JSON types");
  // Annotations, the project's "x-" members among them, are fine, and their
  // contents are not read as schemas.
  CHECK(refusal("u.json", R"({"$schema": "http://json-schema.org/draft-07/schema#", "$id": "u.json",
      "title": "t", "description": "d", "$comment": "c", "examples": [{"format": 1}],
      "default": {"format": 1}, "x-form": {"format": 1},
      "const": {"format": 1}, "enum": [{"format": 1}]})") == "");
}

TEST_CASE(
    "every file of protocol/schemas loads, and their pattern, uniqueItems and if/then rules hold") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(CASA_SCHEMA_DIR)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const json schema = json::parse(in);
    const std::string id = fs::relative(entry.path(), CASA_SCHEMA_DIR).generic_string();
    INFO(id);
    SchemaSet one;
    CHECK_NOTHROW(one.add(id, schema));
    CHECK(protocol_schemas().has(id));
    ++files;
  }
  CHECK(files >= 40);
  const auto& s = protocol_schemas();
  // common.json: the deal's salt and hash are lowercase hex, the seed decimal.
  const std::string salt = "00112233445566778899aabbccddeeff";
  auto game_over = [](const json& deal) {
    return json::parse(casa::protocol::game_over("t1", 9, {3, 4}, {1}, deal));
  };
  CHECK_FALSE(
      s.validate("server.json", game_over({{"seed", "18446744073709551615"}, {"salt", salt}})));
  CHECK(s.validate("server.json",
                   game_over({{"seed", "123"}, {"salt", "00112233445566778899AABBCCDDEEFF"}})));
  CHECK(s.validate("server.json", game_over({{"seed", "0123"}, {"salt", salt}})));
  CHECK(s.validate("server.json", game_over({{"seed", "12a"}, {"salt", salt}})));
  // options/la-casa.json: Solo has no election and no dealer; Domination no challenges.
  CHECK_FALSE(s.validate("options/la-casa.json", json{{"format", "solo"}, {"rounds", 6}}));
  CHECK(s.validate("options/la-casa.json", json{{"format", "solo"}, {"dealer", 0}}));
  CHECK(s.validate("options/la-casa.json", json{{"format", "solo"}, {"rounds", 7}}));
  CHECK(s.validate("options/la-casa.json", json{{"format", "solo"}, {"challenge", "bruto"}}));
  CHECK_FALSE(s.validate("options/la-casa.json", json{{"format", "domination"}, {"dealer", 1}}));
  CHECK(s.validate("options/la-casa.json", json{{"format", "domination"}, {"dealer", 2}}));
  CHECK(s.validate("options/la-casa.json", json{{"format", "classic"}, {"challenges", true}}));
  // options/trophy-case.json: hands and rounds exclude each other; a stacked deck has no repeats.
  CHECK_FALSE(s.validate("options/trophy-case.json", json{{"hands", 2}}));
  CHECK(s.validate("options/trophy-case.json", json{{"hands", 2}, {"rounds", 1}}));
  json deck = json::array();
  for (int i = 0; i < 52; ++i) deck.push_back("c" + std::to_string(i));
  CHECK_FALSE(s.validate("options/casino.json", json{{"deck", deck}}));
  deck[51] = deck[0];
  CHECK(s.validate("options/casino.json", json{{"deck", deck}}));
  // options/casino.json: a question set names exactly 52 cards.
  json questions = json::object();
  for (int i = 0; i < 51; ++i) questions["c" + std::to_string(i)] = "why?";
  CHECK(s.validate("options/casino.json", json{{"questions", questions}}));
  questions["c51"] = "why?";
  CHECK_FALSE(s.validate("options/casino.json", json{{"questions", questions}}));
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
  casa::protocol::ClientFrame in;
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
  REQUIRE(std::holds_alternative<casa::protocol::ActionMessage>(in.message));
  CHECK(std::get<casa::protocol::ActionMessage>(in.message).seq == 0);
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

namespace {
// parse_action may only take a text that the tree reader accepts as an
// `action`, and must then give the same members (objects in the same key
// order); parse_client, which tries it first, answers as the tree reader.
void check_action_reader_agrees(const std::string& text) {
  INFO(text);
  casa::protocol::ClientFrame tree, both;
  const auto tree_refusal = casa::protocol::parse_client_tree(text, tree);
  const auto refusal = casa::protocol::parse_client(text, both);
  REQUIRE(refusal.has_value() == tree_refusal.has_value());
  if (refusal) CHECK(refusal->message == tree_refusal->message);
  CHECK(both.id == tree.id);
  casa::protocol::ActionMessage fast;
  std::optional<json> fast_id;
  if (!casa::protocol::parse_action(text, fast, fast_id)) return;
  REQUIRE_FALSE(tree_refusal);
  const auto* in = std::get_if<casa::protocol::ActionMessage>(&tree.message);
  REQUIRE(in != nullptr);
  CHECK(in->at == fast.at);
  CHECK(in->seq == fast.seq);
  CHECK(in->action.debug_string() == fast.action.debug_string());
  REQUIRE(tree.id.has_value() == fast_id.has_value());
  if (tree.id) {
    CHECK(*tree.id == *fast_id);
    CHECK(tree.id->type() == fast_id->type());
    CHECK(tree.id->dump() == fast_id->dump());
  }
}
}  // namespace

TEST_CASE("the action reader takes the plain form of `action` and leaves everything else to parse_client") {
  casa::protocol::ActionMessage a;
  std::optional<json> id;
  const std::string plain =
      R"({"type":"action","table":"t12","seq":40,"action":{"type":"play","card":"G5"},"id":"r-1"})";
  REQUIRE(casa::protocol::parse_action(plain, a, id));
  CHECK(a.at.table == "t12");
  CHECK(a.seq == 40);
  CHECK(a.action == casa::Value::obj({{"type", "play"}, {"card", "G5"}}));
  CHECK(a.action.as_object().front().first == "card");  // sorted as nlohmann_json sorts
  CHECK(*id == json("r-1"));
  REQUIRE(casa::protocol::parse_action(
      " {\n\"seq\" : 0 , \"action\":{\"type\":\"bid\",\"n\":-3,\"x\":[true,false,null,[]],\"o\":{}},"
      "\"table\":\"t\",\"type\":\"action\",\"id\":7}\t",
      a, id));
  CHECK(id->is_number_unsigned());  // as nlohmann_json reads 7
  CHECK(casa::protocol::parse_action(R"({"type":"action","table":"t","seq":1,"action":{"type":"x"}})", a, id));
  CHECK_FALSE(id.has_value());  // none left from the text before

  // Not the plain form, or not a valid action: parse_client decides.
  for (const std::string& text : std::vector<std::string>{
           R"({"type":"action","table":"t","seq":-1,"action":{"type":"x"}})",      // seq below its minimum
           R"({"type":"action","table":"","seq":1,"action":{"type":"x"}})",        // empty table
           R"({"type":"action","table":"t","seq":1,"action":{"card":"x"}})",       // action without a type
           R"({"type":"action","table":"t","seq":1,"action":{"type":3}})",         // a type that is no string
           R"({"type":"action","table":"t","seq":1,"action":"x"})",                // action not an object
           R"({"type":"action","table":"t","seq":1,"action":{"type":"x"},"z":1})", // unknown member
           R"({"type":"action","table":"t","seq":1})",                             // no action
           R"({"type":"action","table":"t","seq":1.0,"action":{"type":"x"}})",     // not an integer
           R"({"type":"action","table":"t","seq":01,"action":{"type":"x"}})",      // not JSON
           R"({"type":"action","table":"t","seq":1,"action":{"type":"x","type":"y"}})",  // duplicate
           R"({"type":"action","table":"t\u0031","seq":1,"action":{"type":"x"}})",  // an escape
           "{\"type\":\"action\",\"table\":\"t\xC3\xA9\",\"seq\":1,\"action\":{\"type\":\"x\"}}",  // UTF-8
           R"({"type":"action","table":"t","seq":12345678901234567890,"action":{"type":"x"}})",
           R"({"type":"action","table":"t","seq":1,"action":{"type":"x"},"id":")" + std::string(65, 'i') + R"("})",
           R"({"type":"action","table":"t","seq":1,"action":{"type":"x"}} x)",     // trailing text
           R"({"type":"join","table":"t","seq":1,"action":{"type":"x"}})",
           R"({"type":"action","table":"t","seq":1,"action":{"type":"x"},})",
       }) {
    CHECK_MESSAGE(!casa::protocol::parse_action(text, a, id), text);
    check_action_reader_agrees(text);
  }

  // Every text one byte away from plain ones: whatever the reader takes,
  // parse_client takes the same way.
  const std::string bases[] = {
      plain,
      R"({"type":"action","table":"t1","seq":9,"action":{"type":"bid","n":12,"l":[1,"a",{"b":false}]},"id":-5})",
  };
  const std::string replacements = "{}[]\",:0-19 \\atnulex\x01\x80";
  int taken = 0;
  for (const auto& base : bases) {
    for (std::size_t i = 0; i < base.size(); ++i) {
      check_action_reader_agrees(base.substr(0, i) + base.substr(i + 1));
      for (const char c : replacements) {
        std::string text = base;
        text[i] = c;
        check_action_reader_agrees(text);
        taken += casa::protocol::parse_action(text, a, id) ? 1 : 0;
      }
    }
  }
  CHECK(taken > 100);  // the variations do reach the reader's accepting paths
}
