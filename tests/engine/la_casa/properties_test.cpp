// Random-game property checks of the two- and four-player La Casa table game, for
// every format, with and without the Election, and for each challenge fixed.
#include <doctest/doctest.h>

#include <string>

#include "engine/games/la_casa/table_game.h"
#include "tests/engine/la_casa/table_support.h"
#include "tests/engine/support/properties.h"

using casa::Game;
using casa::Value;
using casa::testing::PropertyOptions;

namespace {

// LC-4.4 / LC-7.7 A seat may play its hand, its face-up cards and the face-up
// cards of its tableau, and nothing else (playable() keeps the tableau as a mask).
void check_playable(const Game& game) {
  const auto& table = dynamic_cast<const casa::la_casa::TableGame&>(game);
  const Value state = game.full_state();
  for (casa::Seat s = 0; s < game.players(); ++s) {
    casa::CardSet expected = table.hand(s);
    for (const Value& c : state.find("face_up")->as_array()[static_cast<std::size_t>(s)].as_array())
      expected.add(*casa::la_casa::parse_card(c.as_string()));
    const auto& tableaux = state.find("tableaux")->as_array();
    if (static_cast<std::size_t>(s) < tableaux.size()) {
      for (const Value& stack : tableaux[static_cast<std::size_t>(s)].as_array()) {
        const Value* up = stack.find("up");
        if (up && up->is_string()) expected.add(*casa::la_casa::parse_card(up->as_string()));
      }
    }
    REQUIRE(table.playable(s) == expected);
  }
}

void run(int players, Value options, int games, std::uint64_t seed = 1) {
  PropertyOptions p;
  p.game = "la-casa";
  p.players = players;
  p.options = std::move(options);
  p.games = games;
  p.seed = seed;
  p.invariant = [](const Game& game) {
    casa::la_casa::testing::check_card_conservation(game);
    check_playable(game);
  };
  INFO("players ", players, " options ", p.options.debug_string());
  const long actions = casa::testing::check_random_games(p);
  CHECK(actions > games * 10);
}

Value opts(std::initializer_list<Value::Member> members) { return Value::obj(members); }

}  // namespace

TEST_CASE("LC properties: two players, every format, Election on and off") {
  for (bool election : {false, true}) {
    run(2, opts({{"format", "classic"}, {"election", election}, {"target", 3}}), 6);
    run(2, opts({{"format", "challenges"}, {"election", election}, {"target", 3}}), 8);
  }
}

TEST_CASE("LC properties: four players, every format, Election on and off") {
  for (bool election : {false, true}) {
    run(4, opts({{"format", "classic"}, {"election", election}, {"target", 3}}), 6);
    run(4, opts({{"format", "challenges"}, {"election", election}, {"target", 3}}), 8);
    run(4, opts({{"format", "sticky"}, {"election", election}, {"target", 3}}), 8);
  }
}

TEST_CASE("LC properties: each challenge fixed for one round") {
  for (int players : {2, 4}) {
    const std::uint32_t set = casa::la_casa::challenges_for(players);
    for (int c = 0; c < casa::la_casa::kChallengeCount; ++c) {
      if (!(set & (1u << c))) continue;
      for (bool election : {false, true}) {
        run(players,
            opts({{"challenge", casa::la_casa::challenge_name(c)}, {"rounds", 1},
                  {"election", election}}),
            12, static_cast<std::uint64_t>(c + 7));
      }
    }
  }
}
