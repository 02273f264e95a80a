// SPDX-License-Identifier: AGPL-3.0-or-later
// The option schemas of GET /api/games (protocol/schemas/options/<game>.json)
// against the engine: every option a schema lists is accepted with each valid
// value it describes (defaults, enum values, both ends of a range), values just
// outside a range or of the wrong type are refused, and so is any option the
// schema does not list for that player count and format. The catalogue cannot
// drift from the engine without this test failing.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/registry.h"
#include "engine/games/casino/cards.h"
#include "engine/games/conference/cards.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/trophy_case/cards.h"
#include "protocol/options_schema.h"
#include "protocol/schema_documents.h"
#include "protocol/protocol.h"
#include "server/http/http.h"

using nlohmann::json;

namespace {

const json& schema_of(const std::string& game) {
  const json* s = casa::protocol::schema_document("options/" + game + ".json");
  REQUIRE_MESSAGE(s, "no options schema for " << game);
  return *s;
}

// Every card id of a game, in the engine's order: a valid stacked deck.
json full_deck(const std::string& game, const json& options) {
  json deck = json::array();
  if (game == "la-casa") {
    for (int c = 0; c < casa::la_casa::kDeckSize; ++c) deck.push_back(casa::la_casa::card_id(c));
  } else if (game == "casino") {
    for (int c = 0; c < casa::casino::kDeckSize; ++c) deck.push_back(std::string(casa::casino::card_id(c)));
  } else if (game == "conference") {
    const bool good_evil = options.value("good_evil", "off") != "off";
    for (int c = 0; c < casa::conference::kCardCount; ++c) {
      if (!good_evil && casa::conference::is_good_evil(c)) continue;
      deck.push_back(casa::conference::card_id(c));
    }
  } else if (game == "trophy-case") {
    for (int c = 0; c < casa::trophy_case::kDeckSize; ++c) deck.push_back(casa::trophy_case::card_id(c));
  }
  return deck;
}

bool create(const std::string& game, int players, const json& options, std::string* why = nullptr) {
  auto r = casa::create_game(game, players, casa::protocol::json_to_value(options), 7);
  if (!r.game && why && r.error) *why = r.error->code + ": " + r.error->message;
  return r.game != nullptr;
}

bool contains(const json& list, const json& v) {
  return list.is_array() && std::find(list.begin(), list.end(), v) != list.end();
}

// The schema of `key` once the allOf/if-then clauses for `format` are applied
// (the only conditions the option schemas use are on "format").
json property_for(const json& schema, const std::string& key, const std::string& format) {
  json p = schema["properties"][key];
  if (!schema.contains("allOf")) return p;
  for (const auto& clause : schema["allOf"]) {
    const json& cond = clause["if"]["properties"]["format"];
    const bool applies = (cond.contains("const") && cond["const"] == format) ||
                         (cond.contains("enum") && contains(cond["enum"], format));
    if (!applies || !clause["then"]["properties"].contains(key)) continue;
    const json& extra = clause["then"]["properties"][key];
    if (extra.is_boolean()) return extra;  // false: the option is not allowed
    for (const auto& [k, v] : extra.items()) p[k] = v;
  }
  return p;
}

struct Values {
  std::vector<json> good;
  std::vector<json> bad;
};

Values values_for(const std::string& game, const json& p, int players, const json& base) {
  Values out;
  if (p.contains("default")) out.good.push_back(p["default"]);
  const std::string key_players = std::to_string(players);
  if (p.contains("x-enum-by-players") && p["x-enum-by-players"].contains(key_players)) {
    const json& allowed = p["x-enum-by-players"][key_players];
    for (const auto& v : p["enum"]) (contains(allowed, v) ? out.good : out.bad).push_back(v);
    if (p.contains("const")) out.good = {p["const"]};
    out.bad.push_back("no-such-value");
    return out;
  }
  if (p.contains("const")) {
    out.good = {p["const"]};
    if (p["const"].is_boolean()) out.bad.push_back(!p["const"].get<bool>());
    return out;
  }
  if (p.contains("enum")) {
    for (const auto& v : p["enum"]) out.good.push_back(v);
    out.bad.push_back("no-such-value");
    out.bad.push_back(12345);
  }
  std::vector<json> branches;
  if (p.contains("oneOf")) {
    for (const auto& b : p["oneOf"]) branches.push_back(b);
  } else if (p.contains("type")) {
    branches.push_back(p);
  }
  bool integer = false;
  for (const auto& b : branches) {
    const std::string type = b.value("type", "");
    if (type == "boolean") {
      out.good.push_back(true);
      out.good.push_back(false);
    } else if (type == "null") {
      out.good.push_back(nullptr);
    } else if (type == "string" && b.contains("enum")) {
      for (const auto& v : b["enum"]) out.good.push_back(v);
      out.bad.push_back("no-such-value");
    } else if (type == "integer") {
      integer = true;
      int high = b["maximum"].get<int>();
      if (b.value("x-max-seat", false)) high = std::min(high, players - 1);
      const int low = b["minimum"].get<int>();
      out.good.push_back(low);
      out.good.push_back(high);
      out.bad.push_back(low - 1);
      out.bad.push_back(high + 1);
      out.bad.push_back(std::to_string(low));
    } else if (type == "array") {
      out.good.push_back(full_deck(game, base));
      out.bad.push_back(json::array());
      json one_short = full_deck(game, base);
      one_short.erase(one_short.size() - 1);
      out.bad.push_back(one_short);
    } else if (type == "object") {
      // Casino's own question texts: one for every card.
      json texts = json::object();
      for (const auto& id : full_deck(game, base)) texts[id.get<std::string>()] = "Question about " + id.get<std::string>();
      out.good.push_back(texts);
      texts.erase(texts.begin());
      out.bad.push_back(texts);
    }
  }
  if (!integer && !p.contains("enum")) out.bad.push_back(12345);
  return out;
}

// The formats to try for a game at a player count ("" when it has none).
std::vector<std::string> formats_for(const json& schema, int players) {
  if (!schema["properties"].contains("format")) return {""};
  const json& f = schema["properties"]["format"];
  std::vector<std::string> out;
  for (const auto& v : f["x-enum-by-players"][std::to_string(players)]) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("every game the engine runs publishes an options schema, and only those") {
  for (const auto& game : casa::game_names()) {
    CAPTURE(game);
    const json& s = schema_of(game);
    CHECK(s["$id"] == "options/" + game + ".json");
    CHECK(s["type"] == "object");
    CHECK(s["additionalProperties"] == false);
    CHECK(s["title"].is_string());
    CHECK(s["description"].is_string());
    for (const auto& [key, p] : s["properties"].items()) {
      CAPTURE(key);
      CHECK(p["description"].is_string());
      CHECK(p["title"].is_string());
    }
    // x-players is exactly the set of player counts the engine accepts.
    for (int players = 0; players <= casa::kMaxSeats; ++players) {
      CAPTURE(players);
      CHECK(create(game, players, json::object()) == contains(s["x-players"], players));
    }
  }
}

TEST_CASE("every option of every schema is accepted with its valid values and refused outside them") {
  int accepted = 0;
  int refused = 0;
  for (const auto& game : casa::game_names()) {
    const json& schema = schema_of(game);
    for (const int players : schema["x-players"].get<std::vector<int>>()) {
      for (const auto& format : formats_for(schema, players)) {
        json base = json::object();
        if (!format.empty()) base["format"] = format;
        CAPTURE(game);
        CAPTURE(players);
        CAPTURE(format);
        std::string why;
        REQUIRE_MESSAGE(create(game, players, base, &why), why);
        // An option no schema lists is refused.
        json unknown = base;
        unknown["no_such_option"] = 1;
        CHECK_FALSE(create(game, players, unknown));
        for (const auto& [key, raw] : schema["properties"].items()) {
          if (key == "format") continue;  // tried through formats_for
          CAPTURE(key);
          const json p = property_for(schema, key, format);
          const bool listed = !p.is_boolean() &&
                              (!p.contains("x-formats") || format.empty() || contains(p["x-formats"], format)) &&
                              (!p.contains("x-players") || contains(p["x-players"], players));
          const Values v = values_for(game, listed ? p : raw, players, base);
          REQUIRE_FALSE(v.good.empty());
          // An option listed only for some player counts ("x-players") keeps
          // its default at the others.
          const bool by_players = !listed && !p.is_boolean() && p.contains("x-players") &&
                                  !contains(p["x-players"], players);
          for (const auto& value : v.good) {
            if (by_players && p.contains("default") && value == p["default"]) continue;
            json options = base;
            options[key] = value;
            CAPTURE(value.dump().substr(0, 80));
            why.clear();
            if (listed) {
              CHECK_MESSAGE(create(game, players, options, &why), why);
              ++accepted;
            } else {
              // Not listed for this player count or format: the engine refuses it.
              CHECK_FALSE(create(game, players, options));
              ++refused;
            }
          }
          if (!listed) continue;
          for (const auto& value : v.bad) {
            json options = base;
            options[key] = value;
            CAPTURE(value.dump().substr(0, 80));
            CHECK_FALSE(create(game, players, options));
            ++refused;
          }
        }
      }
    }
  }
  MESSAGE("options accepted: " << accepted << ", refused: " << refused);
  CHECK(accepted > 100);
}

TEST_CASE("the catalogue hides testing options unless the server runs with --testing") {
  const json open = casa::server::game_catalogue(casa::game_names(), false);
  const json test = casa::server::game_catalogue(casa::game_names(), true);
  REQUIRE(open["games"].size() == casa::game_names().size());
  CHECK(open["protocol"] == 1);
  for (std::size_t i = 0; i < open["games"].size(); ++i) {
    const json& g = open["games"][i];
    const json& t = test["games"][i];
    CAPTURE(g["name"]);
    CHECK(g["players"] == schema_of(g["name"])["x-players"]);
    CHECK(g["title"].is_string());
    CHECK(g["options"]["$schema"] == "http://json-schema.org/draft-07/schema#");
    int testing = 0;
    for (const auto& [key, p] : t["options"]["properties"].items()) {
      if (p.value("x-testing", false)) {
        ++testing;
        CHECK_FALSE(g["options"]["properties"].contains(key));
        CHECK(g["options"].dump().find("\"" + key + "\"") == std::string::npos);
      } else {
        CHECK(g["options"]["properties"].contains(key));
      }
    }
    CHECK(testing > 0);  // every game has a stacked deck at least
    CHECK(t["options"]["properties"].contains("deck"));
  }
  for (const char* field : {"private", "rated", "move_timeout_seconds", "disconnect_policy", "seat"}) {
    CHECK(open["table"]["properties"].contains(field));
  }
  CHECK_FALSE(open["table"]["properties"].contains("seed"));
  CHECK(test["table"]["properties"].contains("seed"));
}

TEST_CASE("the catalogue is each game's declaration, and so are the schema files") {
  const json test = casa::server::game_catalogue(casa::game_names(), true);
  const json open = casa::server::game_catalogue(casa::game_names(), false);
  REQUIRE(test["games"].size() == casa::all_games().size());
  for (std::size_t i = 0; i < casa::all_games().size(); ++i) {
    const casa::GameInfo& game = casa::all_games()[i];
    const json& entry = test["games"][i];
    CAPTURE(game.name);
    CHECK(entry["name"] == std::string(game.name));
    CHECK(entry["title"] == std::string(game.title));
    CHECK(entry["description"] == std::string(game.description));
    CHECK(entry["teams"] == std::string(game.teams));
    CHECK(entry["players"] == json(game.players));
    const json declared = json::parse(casa::protocol::options_schema(game).dump());
    CHECK(entry["options"] == declared);
    // protocol/schemas/options/<game>.json (compiled in): the same document.
    CHECK(schema_of(std::string(game.name)) == declared);
    // Without --testing, exactly the options the declaration marks for test servers are left out.
    const auto testing = casa::testing_options(game.name);
    for (const auto& [key, p] : declared["properties"].items()) {
      CAPTURE(key);
      const bool marked = std::find(testing.begin(), testing.end(), key) != testing.end();
      CHECK(p.value("x-testing", false) == marked);
      CHECK(open["games"][i]["options"]["properties"].contains(key) == !marked);
    }
  }
}
