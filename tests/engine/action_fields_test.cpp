// SPDX-License-Identifier: AGPL-3.0-or-later
// Every game refuses an action value holding a key its type does not have.
//
// The protocol (docs/protocol.md, "act") asks for one of the request's legal
// values verbatim; engine/action_fields.h checks the keys for every decoder.
// Each game is played from a fixed seed, and at every decision every legal
// action of every acting seat is sent back once verbatim (accepted) and once
// with a key added (refused as malformed_action, naming the key, with every
// seat's view and the full state unchanged).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/game.h"

using casa::Action;
using casa::Game;
using casa::Seat;
using casa::Value;

namespace {

struct Setup {
  const char* game;
  int players;
  Value options;
};

std::vector<Value> all_views(const Game& game) {
  std::vector<Value> out{game.view(casa::kSpectator)};
  for (Seat s = 0; s < game.players(); ++s) out.push_back(game.view(s));
  return out;
}

// Plays `decisions` decisions of the game and returns the action types it met.
std::set<std::string> check_every_legal_action(const Setup& setup, int decisions) {
  auto created = casa::create_game(setup.game, setup.players, setup.options, 11);
  REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
  Game& game = *created.game;
  std::set<std::string> types;
  std::vector<Action> legal;
  for (int step = 0; step < decisions && !game.is_over(); ++step) {
    const std::vector<Value> views = all_views(game);
    const Value state = game.full_state();
    Seat mover = -1;
    for (Seat s = 0; s < game.players(); ++s) {
      if (!(game.to_act() & casa::seat_bit(s))) continue;
      if (mover < 0) mover = s;
      game.legal_actions(s, legal);
      for (const Action& a : legal) {
        const Value verbatim = game.encode_action(a);
        types.insert(verbatim.get_string("type", ""));
        Action decoded;
        REQUIRE_MESSAGE(!game.decode_action(verbatim, decoded), verbatim.debug_string());
        // Keys no action of any game has ("seat" belongs to the message, not
        // the action; "Card" differs from "card" by case).
        for (const char* key : {"extra", "seat", "Card", "type2"}) {
          Value padded = verbatim;
          padded.set(key, 1);
          const auto err = game.decode_action(padded, decoded);
          REQUIRE_MESSAGE(err.has_value(), setup.game, " accepted ", padded.debug_string());
          CHECK(err->code == "malformed_action");
          CHECK(err->message == "A " + verbatim.get_string("type", "") + " action has no \"" +
                                    key + "\".");
        }
      }
    }
    CHECK(all_views(game) == views);
    CHECK(game.full_state() == state);
    REQUIRE(mover >= 0);
    game.legal_actions(mover, legal);
    REQUIRE(!legal.empty());
    REQUIRE(!game.apply(mover, legal[(static_cast<std::size_t>(step) * 7) % legal.size()], nullptr));
  }
  return types;
}

}  // namespace

TEST_CASE("every game refuses an action with a key its type lacks: La Casa, its formats") {
  CHECK(check_every_legal_action({"la-casa", 4, Value::object()}, 300).count("play"));
  CHECK(check_every_legal_action({"la-casa", 4, Value::obj({{"election", true}})}, 120).count("elect"));
  CHECK(check_every_legal_action({"la-casa", 2, Value::object()}, 200).count("play"));
  CHECK(check_every_legal_action({"la-casa", 4, Value::obj({{"format", "sticky"}})}, 120)
            .count("play"));
  CHECK(check_every_legal_action({"la-casa", 2, Value::obj({{"format", "domination"}})}, 200)
            .count("take_pile"));
  CHECK(check_every_legal_action({"la-casa", 1, Value::obj({{"format", "solo"}})}, 200)
            .count("play"));
}

TEST_CASE("every game refuses an action with a key its type lacks: Casino") {
  const auto types =
      check_every_legal_action({"casino", 2, Value::obj({{"questions", "default"}})}, 200);
  CHECK(types.count("trail"));
  CHECK(types.count("capture"));
  check_every_legal_action({"casino", 4, Value::object()}, 100);
}

TEST_CASE("every game refuses an action with a key its type lacks: Conference") {
  const auto types = check_every_legal_action(
      {"conference", 4,
       Value::obj({{"good_evil", "allegiance"}, {"gallowglass", true}, {"hands", 1}})},
      200);
  CHECK(types.count("discard"));
  CHECK(types.count("name_gallowglass"));
  CHECK(types.count("play"));
}

TEST_CASE("every game refuses an action with a key its type lacks: Trophy Case") {
  const auto types = check_every_legal_action({"trophy-case", 3, Value::object()}, 200);
  CHECK(types.count("play"));
  CHECK(types.count("fold"));
}

TEST_CASE("an action's own keys stay accepted: the issue's example in each game") {
  // {"type":"play","card":...,"extra":1} was played as if "extra" were absent.
  struct Case {
    const char* game;
    int players;
    Value options;
  };
  for (const Case& c : {Case{"la-casa", 4, Value::object()}, Case{"conference", 4, Value::object()},
                        Case{"trophy-case", 3, Value::object()},
                        Case{"la-casa", 1, Value::obj({{"format", "solo"}})},
                        Case{"la-casa", 2, Value::obj({{"format", "domination"}})}}) {
    CAPTURE(c.game);
    auto created = casa::create_game(c.game, c.players, c.options, 3);
    REQUIRE(created.game);
    Action a;
    const auto err =
        created.game->decode_action(Value::obj({{"type", "play"}, {"card", "MAZX"}, {"extra", 1}}), a);
    REQUIRE(err.has_value());
    CHECK(err->code == "malformed_action");
  }
  // A key of another action type is refused as well.
  auto created = casa::create_game("trophy-case", 3, Value::object(), 3);
  Action a;
  const auto err = created.game->decode_action(Value::obj({{"type", "fold"}, {"card", "MAZX"}}), a);
  REQUIRE(err.has_value());
  CHECK(err->message == "A fold action has no \"card\".");
  auto domination = casa::create_game("la-casa", 2, Value::obj({{"format", "domination"}}), 3);
  const auto err2 = domination.game->decode_action(
      Value::obj({{"type", "take_pile"}, {"pile", "stock"}, {"card", "G5"}}), a);
  REQUIRE(err2.has_value());
  CHECK(err2->message == "A take_pile action has no \"card\".");
}
