// SPDX-License-Identifier: AGPL-3.0-or-later
// The server's "robot" bot in Domination (LC-9) and at the human's seat of Solo
// (LC-8): it plays by the Robot's rules (LC-8.4, LC-11.15) with its hand, and
// makes simple fixed choices for the Election, the piles and the Cousins.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/bots.h"
#include "engine/games/la_casa/domination_game.h"
#include "engine/games/la_casa/robot.h"
#include "engine/games/la_casa/solo_game.h"
#include "engine/rng.h"
#include "tests/engine/la_casa_modes/modes_support.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::modes_test;

namespace {

std::string robot(const Game& game, Seat seat) {
  Rng rng(1);
  return game.encode_action(choose_bot_action(game, seat, "robot", rng)).debug_string();
}

std::vector<std::string> hand_of(const Game& game, Seat seat) {
  return strings(*game.view(seat).find("hand"));
}

std::string play(const char* card) { return play_action(card).debug_string(); }

// Dealer 0, so seat 1 is the non-dealer. LC-4.8 Domination: the hands
// alternately, the Casa (top first: the shown card), the face-up card, the stock.
Value domination(const std::vector<std::string>& non_dealer, const std::vector<std::string>& dealer,
                 const std::string& face_up) {
  const std::vector<std::string> casa{"G9", "K9", "K8", "M7", "F9"};
  std::vector<std::string> front;
  for (std::size_t i = 0; i < 5; ++i) {
    front.push_back(non_dealer.at(i));
    front.push_back(dealer.at(i));
  }
  front.insert(front.end(), casa.begin(), casa.end());
  front.push_back(face_up);
  return Value::obj(
      {{"format", "domination"}, {"deck", deck_of(front)}, {"dealer", 0}, {"rounds", 1}});
}

// Plays whole games with the robot in every seat; each choice must be listed.
long robot_games(const Value& options, int players, int games, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Action> legal;
  long actions = 0;
  for (int g = 0; g < games; ++g) {
    auto created =
        create_game("la-casa", players, options, seed * 100 + static_cast<std::uint64_t>(g));
    REQUIRE(created.game);
    Game& game = *created.game;
    int guard = 0;
    while (!game.is_over()) {
      REQUIRE(++guard < 5000);
      Seat seat = 0;
      while (!(game.to_act() & seat_bit(seat))) ++seat;
      game.legal_actions(seat, legal);
      const Action a = choose_bot_action(game, seat, "robot", rng);
      REQUIRE_MESSAGE(std::find(legal.begin(), legal.end(), a) != legal.end(),
                      game.encode_action(a).debug_string());
      REQUIRE_FALSE(game.apply(seat, a, nullptr));
      ++actions;
    }
    CHECK_FALSE(game.winners().empty());
  }
  return actions;
}

}  // namespace

TEST_CASE("LC-8.4 the robot plays whole Domination and Solo games legally") {
  // Domination: 16 tricks and 11 pile choices a round, at least one round.
  CHECK(robot_games(Value::obj({{"format", "domination"}, {"target", 3}}), 2, 10, 3) >= 10 * 43);
  // Solo: six rounds of 17 or 18 tricks, with and without the challenges.
  CHECK(robot_games(Value::obj({{"format", "solo"}}), 1, 6, 4) >= 6 * 6 * 17);
  CHECK(robot_games(Value::obj({{"format", "solo"}, {"challenges", false}}), 1, 6, 5) >=
        6 * 6 * 18);
}

TEST_CASE("LC-9.2 LC-6.3 the robot elects the shown family with three or more of it") {
  // Guns shown; seat 1 (non-dealer) holds G2 G3 G4: it elects.
  auto game = make_domination(
      domination({"G4", "G3", "G2", "M8", "F2"}, {"M9", "M1", "K5", "F1", "F3"}, "G7"));
  CHECK(robot(*game, 1) == R"({"type":"elect","family":"guns"})");
  // Seat 1 holds two Guns: it passes; the dealer, with three, elects.
  auto other = make_domination(
      domination({"G4", "G3", "K2", "M8", "F2"}, {"G2", "G1", "G5", "F1", "F3"}, "G7"));
  CHECK(robot(*other, 1) == R"({"type":"pass"})");
  act(*other, 1, Value::obj({{"type", "pass"}}));
  CHECK(robot(*other, 0) == R"({"type":"elect","family":"guns"})");
}

TEST_CASE("LC-6.5 the robot passes with a weak hand but, as dealer in round two, must elect") {
  // Guns shown and refused by both; in round two seat 1 holds at most two of a
  // family and passes; the dealer may not pass and elects the family it holds
  // most of (Masks: two).
  auto game = make_domination(
      domination({"G1", "K1", "K2", "M1", "F1"}, {"G2", "G3", "K3", "M2", "M3"}, "G7"));
  CHECK(robot(*game, 1) == R"({"type":"pass"})");
  act(*game, 1, Value::obj({{"type", "pass"}}));
  CHECK(robot(*game, 0) == R"({"type":"pass"})");
  act(*game, 0, Value::obj({{"type", "pass"}}));
  CHECK(robot(*game, 1) == R"({"type":"pass"})");
  act(*game, 1, Value::obj({{"type", "pass"}}));
  CHECK(robot(*game, 0) == R"({"type":"elect","family":"masks"})");
}

TEST_CASE("LC-8.4 LC-9.3 the robot's Domination play follows robot_choose; it takes good piles") {
  auto game = make_domination(
      domination({"G4", "G3", "G2", "M8", "F2"}, {"M9", "M1", "K5", "F1", "F3"}, "G7"));
  act(*game, 1, Value::obj({{"type", "elect"}, {"family", "guns"}}));
  // Rule 1: leading, the highest card (M8, not a Gun).
  CHECK(robot(*game, 1) == play("M8"));
  act(*game, 1, play_action("M8"));
  // Rule 2: M9 would win the trick: the highest Mask, not the first listed (M1).
  CHECK(legal_cards(*game, 0) == std::vector<std::string>{"M1", "M9"});
  CHECK(robot(*game, 0) == play("M9"));
  const auto& d = dynamic_cast<const DominationGame&>(*game);
  CHECK(card_id(robot_choose(d.robot_situation(0))) == "M9");
  act(*game, 0, play_action("M9"));
  // The face-up G7 is of the Ruling Family: take it.
  CHECK(robot(*game, 0) == R"({"type":"take_pile","pile":"face_up"})");
  act(*game, 0, Value::obj({{"type", "take_pile"}, {"pile", "face_up"}}));
  // Rule 1 again (G7 is the highest card); then rule 2: seat 1's highest Gun, G4,
  // would not beat G7, so it plays its lowest (G1, drawn from the stock).
  CHECK(robot(*game, 0) == play("G7"));
  act(*game, 0, play_action("G7"));
  CHECK(hand_of(*game, 1) == std::vector<std::string>{"G1", "G2", "G3", "G4", "F2"});
  CHECK(robot(*game, 1) == play("G1"));
  act(*game, 1, play_action("G1"));
  // After this trick the face-up card is low and not a Gun: the stock.
  const std::string shown = game->view(0).get_string("face_up", "");
  REQUIRE(!shown.empty());
  const int card = *parse_card(shown);
  const bool good = counted_family_cards(kGuns, kGuns).has(card) || card_value(card) >= 7;
  const Seat winner = static_cast<Seat>(game->view(0).find("last_trick")->get_int("winner", -1));
  CHECK(robot(*game, winner) == (good ? R"({"type":"take_pile","pile":"face_up"})"
                                      : R"({"type":"take_pile","pile":"stock"})"));
}

TEST_CASE("LC-8.4 LC-8.2 the robot at the human's Solo seat plays by robot_choose") {
  // Fists rule (Casa F1). The human leads K7 (rule 1); the Robot's K9 wins and it
  // leads M4; the human, having drawn M8, follows with M8 since it would win
  // (rule 2), not with M2, the first listed.
  const Value deck =
      solo_deck({"G7", "M4", "K9"}, {"G3", "G5", "G6", "M3"}, {"K1", "K2", "K4", "K5", "K3"},
                {"F3", "F4", "F5", "F6", "F7", "F2"}, "F1", {"K7", "M2", "G1"}, {"M8"});
  auto game = make_solo(
      Value::obj({{"format", "solo"}, {"challenges", false}, {"deck", deck}, {"rounds", 1}}));
  CHECK(legal_cards(*game, 0) == std::vector<std::string>{"G1", "K7", "M2"});
  CHECK(robot(*game, 0) == play("K7"));
  act(*game, 0, play_action("K7"));
  REQUIRE(game->view(0).find("trick")->size() == 1);  // the Robot led again
  CHECK(legal_cards(*game, 0) == std::vector<std::string>{"M2", "M8"});
  CHECK(robot(*game, 0) == play("M8"));
  const auto& s = dynamic_cast<const SoloGame&>(*game);
  CHECK(card_id(robot_choose(s.robot_situation())) == "M8");
}

TEST_CASE("LC-8.5 LC-7.9 the robot names as Cousins the family it holds most of") {
  const Value deck =
      solo_deck({"G7", "M4", "K9"}, {"G3", "G5", "G6", "M3"}, {"K1", "K2", "K4", "K5", "K3"},
                {"F3", "F4", "F5", "F6", "F7", "F2"}, "F1", {"K7", "M2", "M8"});
  auto game = make_solo(
      Value::obj({{"format", "solo"}, {"challenge", "cousins"}, {"deck", deck}, {"rounds", 1}}));
  REQUIRE(game->view(0).get_string("phase", "") == "name_cousins");
  CHECK(robot(*game, 0) == R"({"type":"name_family","family":"masks"})");
}
