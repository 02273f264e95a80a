// SPDX-License-Identifier: AGPL-3.0-or-later
// A seat's view written straight into JSON (Game::write_view through
// JsonViewWriter, what the server's requests carry) against the Value view
// (Game::view, what replays, view patches and tests use): the same bytes, for
// every seat and the spectators, after every move of seeded games of every game.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"
#include "engine/view_writer.h"
#include "protocol/protocol.h"
#include "protocol/value_json.h"

using namespace casa;

namespace {

std::string direct_json(const Game& game, Seat seat) {
  std::string out = "prefix:";  // as in a message, after what precedes the view
  JsonViewWriter writer(out);
  game.write_view(seat, writer);
  writer.finish();
  return out.substr(7);
}

Value direct_value(const Game& game, Seat seat) {
  ValueWriter writer;
  game.write_view(seat, writer);
  return writer.take();
}

// `v` told to `out` call by call: scalars, keys and brackets, never a whole Value.
void walk(ViewWriter& out, const Value& v) {
  if (v.is_null()) {
    out.null();
  } else if (v.is_bool()) {
    out.boolean(v.as_bool());
  } else if (v.is_int()) {
    out.integer(v.as_int());
  } else if (v.is_string()) {
    out.string(v.as_string());
  } else if (v.is_array()) {
    out.begin_array(0);
    for (const Value& item : v.as_array()) walk(out, item);
    out.end_array();
  } else {
    out.begin_object(0);
    for (const auto& [name, item] : v.as_object()) {
      out.key(name);
      walk(out, item);
    }
    out.end_object();
  }
}

struct Setup {
  std::string game;
  int players;
  Value options;
};

// Every game at every player count it takes, La Casa in each of its formats.
std::vector<Setup> setups() {
  std::vector<Setup> out;
  for (const std::string& name : game_names()) {
    std::vector<Value> options{Value::object()};
    if (name == "la-casa") {
      options.clear();
      for (const char* format : {"classic", "challenges", "sticky", "domination", "solo"}) {
        for (const bool election : {false, true}) {
          options.push_back(Value::obj({{"format", format}, {"election", election}, {"target", 21}}));
        }
      }
    }
    for (const Value& o : options) {
      for (int players = 1; players <= kMaxSeats; ++players) {
        if (create_game(name, players, o, 1).game) out.push_back({name, players, o});
      }
    }
  }
  return out;
}

// Both paths at every step of `games` seeded games; the number of views compared.
long compare_games(const Setup& setup, int games, int max_steps) {
  long compared = 0;
  std::vector<Action> legal;
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games); ++seed) {
    auto created = create_game(setup.game, setup.players, setup.options, seed);
    REQUIRE(created.game);
    Game& game = *created.game;
    Rng rng(seed * 7919);
    for (int step = 0; step <= max_steps; ++step) {
      for (Seat seat = kSpectator; seat < setup.players; ++seat) {
        const Value view = game.view(seat);
        std::string expected;
        append_json(expected, view);
        const std::string written = direct_json(game, seat);
        if (written != expected) {
          INFO(setup.game, " ", setup.players, " players, ", setup.options.debug_string(), ", seed ", seed,
               ", step ", step, ", seat ", seat);
          CHECK(written == expected);
          return compared;
        }
        // The ValueWriter gives the very Value, members in the same order.
        std::string rebuilt;
        append_json(rebuilt, direct_value(game, seat));
        REQUIRE(rebuilt == expected);
        // In key order, the bytes of the JSON tree's dump.
        std::string sorted;
        append_json_sorted(sorted, view);
        REQUIRE(sorted == to_json(view).dump());
        ++compared;
      }
      if (game.is_over()) break;
      const SeatMask to_act = game.to_act();
      REQUIRE(to_act != 0);
      Seat actor = 0;
      while (!(to_act & seat_bit(actor))) ++actor;
      game.legal_actions(actor, legal);
      REQUIRE_FALSE(legal.empty());
      // The action log's text of each (Table::submit) is the JSON tree's dump.
      for (const Action& a : legal) {
        const Value encoded = game.encode_action(a);
        std::string sorted;
        append_json_sorted(sorted, encoded);
        REQUIRE(sorted == to_json(encoded).dump());
      }
      REQUIRE_FALSE(game.apply(actor, legal[rng.next() % legal.size()], nullptr));
    }
  }
  return compared;
}

}  // namespace

TEST_CASE("write_view gives the bytes of view() for every seat at every step of every game") {
  const auto all = setups();
  // Each game, and La Casa's table, solo and domination forms, are all there.
  std::vector<std::string> names;
  for (const auto& s : all) names.push_back(s.game);
  for (const std::string& name : game_names()) {
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  }
  CHECK(all.size() > game_names().size());
  long compared = 0;
  for (const Setup& setup : all) compared += compare_games(setup, 4, 4000);
  MESSAGE(compared, " views compared over ", all.size(), " setups");
  CHECK(compared > 50000);
}

TEST_CASE("append_json_sorted writes what the JSON tree's dump writes") {
  Value v = Value::obj({{"type", "play"}, {"card", "c\"7\\"}, {"b", Value::array()}});
  v.as_object().push_back({"a", Value::obj({{"z", 1}, {"\u00e9t\u00e9", "\x01\u00ff"}, {"", Value()}, {"m", true}})});
  Value list = Value::array();
  list.push(Value::obj({{"y", -5}, {"x", Value::array()}}));
  list.push(Value(std::int64_t{9007199254740993}));
  v.as_object().push_back({"list", list});
  std::string out = "keep:";
  append_json_sorted(out, v);
  CHECK(out == "keep:" + to_json(v).dump());
  // A key given twice: the tree keeps the last value.
  Value twice = Value::obj({{"k", 1}});
  twice.as_object().push_back({"k", 2});
  out.clear();
  append_json_sorted(out, twice);
  CHECK(out == to_json(twice).dump());
  CHECK(out == R"({"k":2})");
}

TEST_CASE("a request with the view written directly is the request with view()") {
  auto created = create_game("la-casa", 4, Value::obj({{"format", "challenges"}}), 42);
  REQUIRE(created.game);
  Game& game = *created.game;
  std::vector<Action> legal;
  Rng rng(3);
  for (int step = 0; step < 60 && !game.is_over(); ++step) {
    const SeatMask to_act = game.to_act();
    for (Seat seat = 0; seat < 4; ++seat) {
      game.legal_actions(seat, legal);
      std::vector<Value> encoded;
      for (const auto& a : legal) encoded.push_back(game.encode_action(a));
      const Value view = game.view(seat);
      for (const std::optional<std::int64_t> deadline : {std::optional<std::int64_t>{}, std::optional<std::int64_t>{1500}}) {
        const std::string expected = protocol::request("t1", step, seat, encoded, view, deadline);
        CHECK(protocol::request("t1", step, seat, encoded, game, deadline) == expected);
      }
    }
    Seat actor = 0;
    while (!(to_act & seat_bit(actor))) ++actor;
    game.legal_actions(actor, legal);
    REQUIRE_FALSE(game.apply(actor, legal[rng.next() % legal.size()], nullptr));
  }
}

TEST_CASE("JsonViewWriter's calls give append_json's bytes, escapes and nesting included") {
  const Value samples[] = {
      Value(),
      Value(true),
      Value(-9007199254740993LL),
      Value("plain"),
      Value(std::string("quote \" backslash \\ tab \t nul \0 end", 34)),
      Value("caf\xC3\xA9 and a lone \xFF byte"),
      Value(std::string(100, 'x')),
      Value(std::string(5000, 'y')),  // longer than the room the writer starts with
      [] {
        Value long_list = Value::array();
        for (int i = -1500; i < 1500; ++i) long_list.push(i * 1000003LL);
        return Value::obj({{"list", long_list}, {std::string(3000, 'k'), "after"}, {"esc\n", "a\nb"}});
      }(),
      Value::array(),
      Value::object(),
      Value(Value::Array{true, false, nullptr, 3, "s", Value::Array{}, Value::object(), nullptr, true}),
      Value::obj({{"a", Value::array()}, {"b", Value::object()}, {"", 1}, {"k\"ey", Value::obj({{"x", nullptr}})},
                  {std::string(80, 'k'), Value(Value::Array{1, "two", Value::Array{}, Value::obj({{"z", false}})})}}),
  };
  for (const Value& v : samples) {
    std::string expected;
    append_json(expected, v);
    std::string walked;  // every scalar, key and bracket through the writer's own calls
    {
      JsonViewWriter writer(walked);
      walk(writer, v);
    }
    CHECK(walked == expected);
    std::string default_walk = "[";  // ViewWriter's own walk of a whole Value, after other text
    JsonViewWriter base(default_walk);
    base.ViewWriter::value(v);
    base.finish();
    CHECK(default_walk == "[" + expected);
    std::string whole;  // a Value handed over whole
    JsonViewWriter(whole).value(v);
    CHECK(whole == expected);
    ValueWriter builder;
    walk(builder, v);
    const Value built = builder.take();
    CHECK(built == v);
    std::string rebuilt;  // members in the same order, too
    append_json(rebuilt, built);
    CHECK(rebuilt == expected);
  }
  // The shorthands and whole Values between members and items, both writers.
  const auto write = [](ViewWriter& w) {
    w.begin_object(0);
    w.member("a", 1);
    w.member("big", std::int64_t{-1234567890123});
    w.member("t", true);
    w.member("s", "text");
    w.member("q\"uote", std::string("line\nbreak"));
    w.null_member("n");
    w.key("b");
    w.value(Value(Value::Array{1, 2}));
    w.key("c");
    w.begin_array(0);
    w.value(Value::obj({{"d", "e"}}));
    w.string("f");
    w.value(Value());
    w.integer(10);
    w.end_array();
    w.end_object();
  };
  std::string out;
  JsonViewWriter writer(out);
  write(writer);
  writer.finish();
  CHECK(out == R"({"a":1,"big":-1234567890123,"t":true,"s":"text","q\"uote":"line\nbreak","n":null,)"
               R"("b":[1,2],"c":[{"d":"e"},"f",null,10]})");
  ValueWriter builder;
  write(builder);
  std::string rebuilt;
  append_json(rebuilt, builder.take());
  CHECK(rebuilt == out);
}

TEST_CASE("JsonViewWriter escapes any byte at any place of a string or key as append_json does") {
  // Every byte value at every position of strings up to 20 bytes long.
  long differing = 0;
  for (std::size_t length = 1; length <= 20; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(byte);
        std::string expected = "[";
        append_json_string(expected, text);
        expected += ",{";
        append_json_string(expected, text);
        expected += ":1}]";
        std::string out;
        {
          JsonViewWriter writer(out);
          writer.begin_array(2);
          writer.string(text);
          writer.begin_object(1);
          writer.member(text, 1);
          writer.end_object();
          writer.end_array();
        }
        if (out != expected) ++differing;
      }
    }
  }
  CHECK(differing == 0);
}
