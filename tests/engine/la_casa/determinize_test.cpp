// SPDX-License-Identifier: AGPL-3.0-or-later
// determinize() of the table game where hidden cards sit in unusual places: a
// Bandits trick holding face-down cards (LC-7.2, LC-11.4), The Club's set-aside
// cards (LC-7.8), cards passed between two players (LC-7.14), Slap-Down commits
// (LC-7.16) and Cards on the Table (LC-7.7). A sample must keep every card, show
// the seat exactly its own view and accept every action the seat may take.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/rng.h"
#include "tests/engine/la_casa/table_support.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::testing;

namespace {

// Samples `game` from every seat's side and checks each sample.
void check_samples(const Game& game, std::uint64_t seed) {
  std::vector<Action> legal;
  std::vector<Action> sample_legal;
  for (Seat s = 0; s < game.players(); ++s) {
    auto sample = game.determinize(s, seed + static_cast<std::uint64_t>(s));
    REQUIRE(sample);
    INFO("determinize from seat ", s, ", seed ", seed + static_cast<std::uint64_t>(s));
    check_card_conservation(*sample);
    // The last trick's cards, face-down ones included, are among its winner's captures.
    const Value state = sample->full_state();
    const std::int64_t winner = state.get_int("last_winner", -1);
    if (winner >= 0) {
      const Value& captured =
          state.find("captured")->as_array()[static_cast<std::size_t>(winner & 1)];
      for (const Value& e : state.find("last_trick")->as_array()) {
        if (e.get_bool("eliminated", false)) continue;
        CHECK_MESSAGE(contains_string(captured, e.get_string("card", "")), e.debug_string());
      }
    }
    CHECK(sample->view(s) == game.view(s));
    CHECK(sample->to_act() == game.to_act());
    game.legal_actions(s, legal);
    sample->legal_actions(s, sample_legal);
    CHECK(sample_legal == legal);
    for (const Action& a : legal) {
      auto copy = sample->clone();
      const auto err = copy->apply(s, a, nullptr);
      CHECK_MESSAGE(!err, game.encode_action(a).debug_string(), ": ",
                    (err ? err->message : std::string()));
      if (!err) check_card_conservation(*copy);
    }
  }
}

}  // namespace

TEST_CASE("LC-7.2 LC-11.4 determinize keeps a bandit's face-down card in the trick") {
  // Dealer 2: seat 3 leads. Seat 3 leads a Bruto, seat 0 plays a Bruto; seat 0
  // (the later bandit) takes K9 and puts M7 face down, then seat 3 may still take
  // K8 while seat 0's face-down card sits in the trick.
  const Value deck = deck4(2,
                           {Cards{"K2", "G1", "M1", "M2", "M3", "M7", "F2"},
                            Cards{"K9", "G2", "G3", "M4", "F3", "F4", "F5"},
                            Cards{"K8", "M5", "M6", "F6", "F7", "F8", "G4"},
                            Cards{"K1", "K3", "K4", "F1", "M8", "M9", "G5"}},
                           Cards{"F9"});
  Table t(4, Value::obj({{"challenge", "bandits"}, {"dealer", 2}, {"deck", deck}}), 4);
  t.play(3, "K1");
  t.play(0, "K2");
  t.play(1, "K9");
  t.play(2, "K8");
  REQUIRE(t.phase() == "steal");
  check_samples(*t.game, 11);
  t.act(0, action("steal", "card", "K9"));
  REQUIRE(t.phase() == "give");
  check_samples(*t.game, 12);
  t.act(0, action("give", "card", "M7"));
  REQUIRE(t.phase() == "steal");
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{3});
  // Only seat 0 knows what it put face down.
  CHECK(t.secret_to(1, "M7"));
  CHECK(t.secret_to(3, "M7"));
  check_samples(*t.game, 13);
  t.act(3, action("steal", "card", "K8"));
  REQUIRE(t.phase() == "give");
  check_samples(*t.game, 14);
  t.act(3, action("give", "card", "M8"));
  // The trick, with two face-down cards, went to its winner (seat 1's K9 was
  // fixed as the winner before the exchanges).
  CHECK(t.phase() == "play");
  check_samples(*t.game, 15);
  t.play(1, "G2");
  check_samples(*t.game, 16);
}

TEST_CASE(
    "LC-7.16 LC-11.10 determinize deals the leader's hidden commit from the announced family") {
  // Seat 0 leads: K9 is announced as a Knife; a led Mangia-Cake as the Ruling Family.
  const Value deck = deck4(3,
                           {Cards{"K9", "MC", "M1", "M2", "M3", "F1", "F2"},
                            Cards{"K2", "G5", "G1", "M4", "F3", "F4", "F5"},
                            Cards{"G2", "M5", "M6", "F6", "F7", "F8", "F9"},
                            Cards{"K5", "K3", "K4", "M7", "M8", "M9", "G3"}},
                           Cards{"G4"});
  for (const char* led : {"K9", "MC"}) {
    Table t(4, Value::obj({{"challenge", "slap_down"}, {"dealer", 3}, {"deck", deck}}));
    if (std::string(led) == "MC") {
      t.play(0, "K9");
      t.play(1, "K2");
      t.play(2, "F9");
      t.play(3, "K5");
      REQUIRE(t.view(0).find("last_trick")->get_int("winner", -1) == 0);
    }
    t.play(0, led);
    t.play(2, std::string(led) == "MC" ? "G2" : "F6");  // must follow Guns to a led MC
    const LaCasaGame& real = t.t();
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      for (Seat s = 1; s < 4; ++s) {
        auto sample = t.game->determinize(s, seed);
        const auto& g = dynamic_cast<const LaCasaGame&>(*sample);
        const Value trick = *sample->full_state().find("trick");
        const std::optional<int> card = parse_card(trick.as_array()[0].get_string("card", ""));
        REQUIRE(card.has_value());
        INFO("led ", std::string(led), ", seat ", s, ", seed ", seed, ": ", card_id(*card));
        CHECK(effective_family(*card, g.ruling_family()) == real.lead_family());
        check_card_conservation(*sample);
        CHECK(sample->view(s) == t.game->view(s));
      }
    }
  }
}

namespace {

// Random rounds of `challenge`, sampled from every seat after every action.
long sample_every_action(int players, const char* challenge, int games, std::uint64_t seed) {
  INFO(players, " players, ", challenge);
  Rng rng(seed);
  std::vector<Action> legal;
  long actions = 0;
  for (int g = 0; g < games; ++g) {
    const std::uint64_t game_seed = seed * 1000 + static_cast<std::uint64_t>(g);
    Table t(players, Value::obj({{"challenge", challenge}, {"rounds", 1}}), game_seed);
    Game& game = *t.game;
    check_samples(game, game_seed);
    while (!game.is_over()) {
      Seat seat = 0;
      while (!(game.to_act() & seat_bit(seat))) ++seat;
      game.legal_actions(seat, legal);
      REQUIRE_FALSE(legal.empty());
      const Action a = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      INFO("game seed ", game_seed, ", action ", actions, ": seat ", seat, " ",
           game.encode_action(a).debug_string());
      REQUIRE_FALSE(game.apply(seat, a, nullptr));
      ++actions;
      check_card_conservation(game);
      if (!game.is_over())
        check_samples(game, game_seed * 131 + static_cast<std::uint64_t>(actions));
    }
  }
  return actions;
}

}  // namespace

TEST_CASE("LC-7.2 LC-7.7 LC-7.8 LC-7.14 LC-7.16 LC-10.2 determinize after every action") {
  for (const char* challenge :
       {"bandits", "the_club", "pass_the_buck", "slap_down", "cards_on_the_table"}) {
    CHECK(sample_every_action(4, challenge, 12, 5) >= 12 * 28);
  }
  CHECK(sample_every_action(2, "bandits", 12, 6) >= 12 * 32);
}
