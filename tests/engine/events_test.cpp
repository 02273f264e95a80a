// SPDX-License-Identifier: AGPL-3.0-or-later
// Events carry what they announce: checks over whole random games of the
// events that summarise a trick or a game, for the games that emit them.
#include <doctest/doctest.h>

#include <vector>

#include "engine/game.h"
#include "engine/rng.h"

using namespace casa;

namespace {

// Plays one random game and hands every event to `check`.
template <typename Check>
void play_random(const char* name, int players, const Value& options, std::uint64_t seed,
                 Check check) {
  auto created = create_game(name, players, options, seed);
  REQUIRE(created.game);
  Game& game = *created.game;
  Rng rng(seed);
  std::vector<Action> legal;
  std::vector<Event> events;
  while (!game.is_over()) {
    Seat seat = 0;
    while (!(game.to_act() & seat_bit(seat))) ++seat;
    game.legal_actions(seat, legal);
    events.clear();
    REQUIRE_FALSE(game.apply(seat, legal[rng.below(static_cast<std::uint32_t>(legal.size()))], &events));
    for (const auto& e : events) check(game, e.body);
  }
}

}  // namespace

TEST_CASE("CA-5.3 the game_over event carries the final scores of every seat") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    int seen = 0;
    play_random("casino", 3, Value::obj({{"target", 5}}), seed, [&](const Game& game, const Value& e) {
      if (e.get_string("type", "") != "game_over") return;
      ++seen;
      const Value* scores = e.find("scores");
      REQUIRE(scores);
      REQUIRE(scores->size() == 3);
      for (int s = 0; s < 3; ++s) CHECK(scores->as_array()[s].as_int() == game.scores()[s]);
    });
    CHECK(seen == 1);
  }
}

TEST_CASE("TC-8.1 every trick event names the cards played to the trick") {
  int tricks = 0;
  play_random("trophy-case", 4, Value::obj({{"target", 8}}), 5, [&](const Game&, const Value& e) {
    if (e.get_string("type", "") != "trick") return;
    ++tricks;
    const Value* cards = e.find("cards");
    REQUIRE(cards);
    CHECK(cards->size() >= 1);  // at least the lead, a suited card (TC-3.1)
  });
  CHECK(tricks > 0);
}
