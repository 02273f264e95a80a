// SPDX-License-Identifier: AGPL-3.0-or-later
// Solo and Domination reached through the engine registry, as the server does.
#include <doctest/doctest.h>

#include "engine/game.h"
#include "tests/engine/la_casa_modes/modes_support.h"
#include "tests/engine/support/properties.h"

using namespace casa;

TEST_CASE("LC-5.4 la-casa dispatches one player to Solo and format domination to Domination") {
  auto solo = create_game("la-casa", 1, Value::object(), 3);
  REQUIRE(solo.game);
  CHECK(solo.game->view(0).get_string("mode", "") == "solo");
  auto solo_format = create_game("la-casa", 1, Value::obj({{"format", "solo"}, {"challenges", false}}), 3);
  REQUIRE(solo_format.game);
  CHECK(solo_format.game->view(0).find("challenge")->is_null());
  auto domination = create_game("la-casa", 2, Value::obj({{"format", "domination"}}), 3);
  REQUIRE(domination.game);
  CHECK(domination.game->view(0).get_string("mode", "") == "domination");
  CHECK(create_game("la-casa", 4, Value::obj({{"format", "domination"}}), 3).error->code ==
        "bad_players");
  CHECK(create_game("la-casa", 2, Value::obj({{"format", "solo"}}), 3).error->code == "bad_players");
}

TEST_CASE("LC-8 LC-9 random Solo and Domination games through create_game") {
  testing::PropertyOptions solo;
  solo.game = "la-casa";
  solo.players = 1;
  solo.options = Value::obj({{"format", "solo"}});
  solo.games = 40;
  solo.seed = 31;
  CHECK(testing::check_random_games(solo) > 40 * 100);
  testing::PropertyOptions domination;
  domination.game = "la-casa";
  domination.players = 2;
  domination.options = Value::obj({{"format", "domination"}, {"target", 3}});
  domination.games = 20;
  domination.seed = 32;
  CHECK(testing::check_random_games(domination) > 20 * 40);
}
