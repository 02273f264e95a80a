// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa Solo (LC-8, LC-11.14, LC-11.15, LC-4.8 Solo): stacked scenarios played
// through the public interface, an independent scoring oracle over random
// rounds, and the shared property checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "engine/games/la_casa/cards.h"
#include "engine/rng.h"
#include "tests/engine/la_casa_modes/modes_support.h"
#include "tests/engine/support/properties.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::modes_test;

namespace {

Value solo_options(bool challenges = true) {
  return Value::obj({{"format", "solo"}, {"challenges", challenges}});
}

Value one_round(const Value& deck, const char* challenge = nullptr) {
  Value o = challenge ? solo_options(true) : solo_options(false);
  o.set("deck", deck);
  o.set("rounds", 1);
  if (challenge) o.set("challenge", challenge);
  return o;
}

// The human plays the legal card of highest value (first listed on ties).
Value highest_legal(const Game& game) {
  Value best;
  int best_value = -1;
  for (const auto& id : legal_cards(game, 0)) {
    const int v = card_value(*parse_card(id));
    if (v > best_value) {
      best_value = v;
      best = play_action(id);
    }
  }
  return best;
}

// Plays the rest of the game with `choose`; returns every event.
template <typename Choose>
std::vector<Event> play_out(Game& game, Choose choose) {
  std::vector<Event> all;
  int guard = 0;
  while (!game.is_over()) {
    REQUIRE(++guard < 1000);
    const bool between_rounds = game.view(0).get_string("phase", "") == "round_over";
    auto events = act(game, 0, between_rounds ? Value::obj({{"type", "deal"}}) : choose(game));
    check_conservation(game, kSoloPlaces);
    all.insert(all.end(), events.begin(), events.end());
  }
  return all;
}

std::vector<std::string> hand_of(const Game& game) { return strings(*game.view(0).find("hand")); }

std::string foot(const Value& view, int column) {
  const Value& c = view.find("robot")->find("columns")->as_array()[column - 1];
  const Value* up = c.find("face_up");
  return up->is_null() ? "-" : up->as_string();
}

// LC-4.8 The "strong" deal: the human holds every card that can win, the Robot
// none: Casa G1 (Guns rule); human G2-G9, K6-K9, M6-M9, F9, MC.
Value strong_human_deck() {
  std::vector<std::string> robot{"K1", "K2", "K3", "K4", "K5", "M1", "M2", "M3", "M4",
                                 "M5", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"};
  std::vector<std::string> human{"G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "K6",
                                 "K7", "K8", "K9", "M6", "M7", "M8", "M9", "F9", "MC"};
  std::vector<std::string> front = robot;
  front.push_back("G1");
  front.insert(front.end(), human.begin(), human.end());
  return deck_of(front);
}

// The same with the sides swapped: the Robot holds every winning card.
Value strong_robot_deck() {
  std::vector<std::string> human{"K1", "K2", "K3", "K4", "K5", "M1", "M2", "M3", "M4",
                                 "M5", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"};
  std::vector<std::string> robot{"G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "K6",
                                 "K7", "K8", "K9", "M6", "M7", "M8", "M9", "F9", "MC"};
  std::vector<std::string> front = robot;
  front.push_back("G1");
  front.insert(front.end(), human.begin(), human.end());
  return deck_of(front);
}

int round_points(const std::vector<Event>& events) {
  auto ends = events_of(events, "round_end");
  REQUIRE(ends.size() == 1);
  return static_cast<int>(ends[0].get_int("points", -1));
}

}  // namespace

TEST_CASE("LC-4.8 Solo deal order: columns top to foot, Casa, hand, pile top first") {
  const Value deck = solo_deck({"G1", "G2", "G3"}, {"G4", "G5", "G6", "G7"},
                               {"G8", "G9", "K1", "K2", "K3"}, {"K4", "K5", "K6", "K7", "K8", "K9"},
                               "M1", {"M2", "M3", "M4"}, {"M5"});
  auto game = make_solo(one_round(deck));
  const Value view = game->view(0);
  CHECK(foot(view, 1) == "G3");
  CHECK(foot(view, 2) == "G7");
  CHECK(foot(view, 3) == "K3");
  CHECK(foot(view, 4) == "K9");
  const auto& columns = view.find("robot")->find("columns")->as_array();
  for (int c = 0; c < 4; ++c) CHECK(columns[c].get_int("face_down", -1) == 2 + c);
  CHECK(view.find("casa")->get_string("card", "") == "M1");
  CHECK(view.get_string("ruling", "") == "masks");
  CHECK(hand_of(*game) == std::vector<std::string>{"M2", "M3", "M4"});
  CHECK(view.get_int("pile", -1) == 15);
  const auto pile = strings(*game->full_state().find("pile"));
  REQUIRE(pile.size() == 15);
  CHECK(pile.front() == "M5");
  CHECK(pile.back() == "MC");

  // LC-8.4 The Robot cannot follow Masks and holds no Mask: its lowest card, G3 and
  // K3 tie and column 1 is nearer the Casa. LC-8.2 then the foot turns up and the
  // human draws the top of the pile.
  auto events = act(*game, 0, play_action("M4"));
  auto plays = events_of(events, "play");
  REQUIRE(plays.size() == 2);
  CHECK(plays[1].get_string("player", "") == "robot");
  CHECK(plays[1].get_string("card", "") == "G3");
  CHECK(plays[1].get_int("column", 0) == 1);
  auto turned = events_of(events, "turn_up");
  REQUIRE(turned.size() == 1);
  CHECK(turned[0].get_string("card", "") == "G2");
  CHECK(events_of(events, "trick")[0].get_string("winner", "") == "human");
  CHECK(hand_of(*game) == std::vector<std::string>{"M2", "M3", "M5"});
  CHECK(game->view(0).get_int("pile", -1) == 14);
  // The drawn card reaches the human only; spectators learn the pile's size.
  for (const auto& e : events) {
    if (e.body.get_string("type", "") != "draw") continue;
    if (e.body.find("card")) {
      CHECK(e.seats == seat_bit(0));
      CHECK_FALSE(e.spectators);
    } else {
      CHECK(e.seats == 0);
      CHECK(e.spectators);
    }
  }
}

TEST_CASE("LC-8.1 Set-up: Selection by the Casa card, only column feet visible") {
  const Value deck = solo_deck({"G1", "G2", "G3"}, {"G4", "G5", "G6", "G7"},
                               {"G8", "G9", "K1", "K2", "K3"}, {"K4", "K5", "K6", "K7", "K8", "K9"},
                               "F6", {"M2", "M3", "M4"});
  auto game = make_solo(one_round(deck));
  const Value view = game->view(0);
  CHECK(view.get_string("ruling", "") == "fists");
  CHECK(view.find("robot")->get_int("cards", 0) == 18);
  CHECK(view.get_string("phase", "") == "play");
  CHECK(view.get_string("leader", "") == "human");  // LC-8.2 the human leads first
  CHECK(view.find("to_act")->as_array() == Value::Array{0});
  const auto secret = game->secret_cards(0);
  const std::set<std::string> hidden(secret.begin(), secret.end());
  CHECK(hidden.count("G1"));   // face-down column card
  CHECK(hidden.count("M5"));   // pile
  CHECK_FALSE(hidden.count("G3"));  // face-up foot
  CHECK_FALSE(hidden.count("F6"));  // Casa card turned up
  CHECK_FALSE(hidden.count("M2"));  // own hand
  CHECK(hidden.size() == 14 + 15);
  const auto spectator = game->secret_cards(kSpectator);
  CHECK(spectator.size() == 14 + 15 + 3);
  CHECK(game->view(kSpectator).find("hand") == nullptr);
  CHECK(game->view(kSpectator).get_int("hand_size", 0) == 3);

  // A Mangia-Cake in the Casa means no Ruling Family.
  const Value mc_deck = solo_deck({"G1", "G2", "G3"}, {"G4", "G5", "G6", "G7"},
                                  {"G8", "G9", "K1", "K2", "K3"},
                                  {"K4", "K5", "K6", "K7", "K8", "K9"}, "MC", {"M2", "M3", "M4"});
  auto none = make_solo(one_round(mc_deck));
  CHECK(none->view(0).find("ruling")->is_null());
  CHECK(none->view(0).find("casa")->get_string("card", "") == "MC");
}

TEST_CASE("LC-8.2 the winner leads: the Robot leads at once; the human must follow") {
  const Value deck = solo_deck({"G2", "K8", "K9"}, {"G3", "G5", "G6", "M9"},
                               {"K1", "K3", "K4", "K5", "G9"}, {"M2", "M3", "M4", "M5", "M6", "F3"},
                               "F1", {"K2", "M1", "G4"}, {"G7", "G8"});
  auto game = make_solo(one_round(deck));
  // K2 led; the Robot's K9 would win, so it plays it (rule 2), then leads its
  // highest card: M9 and G9 tie and column 2 is nearer the Casa (rules 1 and 4).
  auto events = act(*game, 0, play_action("K2"));
  auto plays = events_of(events, "play");
  REQUIRE(plays.size() == 3);
  CHECK(plays[1].get_string("card", "") == "K9");
  CHECK(plays[2].get_string("card", "") == "M9");
  CHECK(plays[2].get_string("player", "") == "robot");
  Value view = game->view(0);
  CHECK(view.get_string("leader", "") == "robot");
  CHECK(view.find("trick")->size() == 1);
  CHECK(view.get_string("lead", "") == "masks");
  CHECK(foot(view, 1) == "K8");
  CHECK(foot(view, 2) == "-");  // G6 turns up only after the trick
  CHECK(view.find("robot")->find("columns")->as_array()[1].get_int("face_down", 0) == 3);
  CHECK(legal_cards(*game, 0) == std::vector<std::string>{"M1"});
  const std::string why = refuse(*game, 0, play_action("G4"), "illegal_action");
  CHECK(why == "You must follow masks.");
  refuse(*game, 0, play_action("G9"), "illegal_action");  // not in hand

  events = act(*game, 0, play_action("M1"));
  CHECK(events_of(events, "trick")[0].get_string("winner", "") == "robot");
  CHECK(events_of(events, "turn_up")[0].get_string("card", "") == "G6");
  // Robot leads again: K8, G6, G9, F3: G9.
  plays = events_of(events, "play");
  REQUIRE(plays.size() == 2);
  CHECK(plays[1].get_string("card", "") == "G9");
  CHECK(legal_cards(*game, 0) == std::vector<std::string>{"G4", "G7", "G8"});
  CHECK(game->view(0).find("tricks")->get_int("robot", 0) == 2);
}

TEST_CASE("LC-8.2 a round is 18 tricks and every card is played") {
  auto game = make_solo(one_round(strong_human_deck()));
  auto events = play_out(*game, highest_legal);
  CHECK(events_of(events, "trick").size() == 18);
  CHECK(events_of(events, "play").size() == 36);
  const Value view = game->view(0);
  CHECK(view.find("robot")->get_int("cards", -1) == 0);
  CHECK(view.find("hand")->size() == 0);
  CHECK(view.get_int("pile", -1) == 0);
}

TEST_CASE("LC-8.3 without a challenge the human scores 1 for 11 or more tricks") {
  auto strong = make_solo(one_round(strong_human_deck()));
  auto events = play_out(*strong, highest_legal);
  CHECK(strong->view(0).find("tricks")->get_int("human", 0) == 18);
  CHECK(round_points(events) == 1);
  CHECK(strong->scores() == std::vector<int>{1});

  auto weak = make_solo(one_round(strong_robot_deck()));
  events = play_out(*weak, highest_legal);
  CHECK(weak->view(0).find("tricks")->get_int("robot", 0) == 18);
  CHECK(round_points(events) == 0);
  CHECK(weak->scores() == std::vector<int>{0});
  // LC-8.3 With rounds cut to one the human cannot reach 4 points: the Robot wins.
  CHECK(weak->winners() == std::vector<Seat>{kRobotWinner});
}

TEST_CASE("LC-8.3 six rounds, one of each Solo challenge in a seeded random order") {
  std::set<std::vector<std::string>> orders;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto game = make_solo(solo_options(true), seed);
    Rng rng(seed);
    std::vector<std::string> order{game->view(0).get_string("challenge", "")};
    auto events = play_out(*game, [&rng](const Game& g) {
      auto cards = legal_cards(g, 0);
      if (cards.empty()) return legal(g, 0)[rng.below(static_cast<std::uint32_t>(legal(g, 0).size()))];
      return play_action(cards[rng.below(static_cast<std::uint32_t>(cards.size()))]);
    });
    auto starts = events_of(events, "round_start");
    REQUIRE(starts.size() == 5);
    for (const auto& s : starts) order.push_back(s.get_string("challenge", ""));
    CHECK(std::set<std::string>(order.begin(), order.end()) ==
          std::set<std::string>{"betrayal", "capitano", "carita", "cousins", "minions", "revenge"});
    CHECK(events_of(events, "round_end").size() == 6);
    orders.insert(order);
    CHECK(game->view(0).get_int("round", 0) == 6);
    CHECK(game->view(0).find("round_points")->size() == 6);
  }
  CHECK(orders.size() > 1);  // the order depends on the seed
  // Without challenges every round has none.
  auto plain = make_solo(solo_options(false));
  CHECK(plain->view(0).find("challenge")->is_null());
}

TEST_CASE("LC-8.3 the human wins with 4 or more points; otherwise the Robot wins") {
  // Search a few seeds with a simple human: both outcomes must occur and
  // winners() must agree with the points every time.
  bool human_won = false;
  bool robot_won = false;
  for (std::uint64_t seed = 1; seed <= 60 && !(human_won && robot_won); ++seed) {
    auto game = make_solo(solo_options(true), seed);
    play_out(*game, [](const Game& g) {
      if (legal_cards(g, 0).empty()) return legal(g, 0).front();
      // Carita and Revenge reward losing tricks: play low there, high elsewhere.
      const std::string c = g.view(0).get_string("challenge", "");
      if (c == "carita" || c == "revenge") return play_action(legal_cards(g, 0).front());
      return highest_legal(g);
    });
    const int points = game->scores()[0];
    if (points >= 4) {
      human_won = true;
      CHECK(game->winners() == std::vector<Seat>{0});
      CHECK(game->view(0).get_string("winner", "") == "human");
    } else {
      robot_won = true;
      CHECK(game->winners() == std::vector<Seat>{kRobotWinner});
      CHECK(game->view(0).get_string("winner", "") == "robot");
    }
  }
  CHECK(human_won);
  CHECK(robot_won);
}

TEST_CASE("LC-8.5 LC-4.8 Solo Betrayal: reference 1s, no Ruling Family, 17 tricks, void tricks") {
  // LC-4.8 Solo Betrayal: the first 1 (G1) is the Casa's reference, the second (K1)
  // the human's; the other 35 are dealt in order: columns, hand [18:21], pile.
  const Value deck = deck_of({"G1", "K1",
                              "F1", "F2", "M1",            // column 1 (foot M1)
                              "F3", "F4", "F5", "G2",      // column 2 (foot G2)
                              "F6", "F7", "K2", "K3", "K8",  // column 3 (foot K8)
                              "G3", "G4", "G5", "G6", "M6", "M7",  // column 4 (foot M7)
                              "M9", "F9", "M8",            // hand
                              "M2"});                      // pile top
  auto game = make_solo(one_round(deck, "betrayal"));
  Value view = game->view(0);
  CHECK(view.get_string("challenge", "") == "betrayal");
  CHECK(view.find("ruling")->is_null());
  CHECK(view.find("references")->get_string("casa", "") == "G1");
  CHECK(view.find("references")->get_string("human", "") == "K1");
  CHECK(view.find("casa")->get_string("card", "") == "G1");
  CHECK(view.get_int("pile", 0) == 14);
  CHECK(hand_of(*game) == std::vector<std::string>{"M8", "M9", "F9"});
  CHECK(foot(view, 1) == "M1");
  CHECK(game->view(kSpectator).find("references")->get_string("human", "") == "K1");

  // M9 led: the Robot follows with its lowest Mask (M1): a valid trick.
  auto events = act(*game, 0, play_action("M9"));
  auto trick = events_of(events, "trick");
  CHECK(trick[0].get_string("winner", "") == "human");
  CHECK(trick[0].get_bool("valid", false));
  // F9 led: column 1 now shows F2, the Robot's only Fist, which it must play.
  CHECK(foot(game->view(0), 1) == "F2");
  events = act(*game, 0, play_action("F9"));
  CHECK(events_of(events, "play")[1].get_string("card", "") == "F2");
  CHECK(events_of(events, "trick")[0].get_bool("valid", false));
  // M8 led: Robot's face-up F1, G2, K8, M7: follows M7 (lowest Mask; M7 loses).
  events = act(*game, 0, play_action("M8"));
  CHECK(events_of(events, "play")[1].get_string("card", "") == "M7");
  view = game->view(0);
  CHECK(view.find("valid_tricks")->get_int("human", 0) == 3);

  // Play out: 17 tricks, the Robot keeps one card, validity follows the references.
  events = play_out(*game, [](const Game& g) { return play_action(legal_cards(g, 0).front()); });
  const auto tricks = events_of(events, "trick");
  CHECK(tricks.size() == 14);
  for (const auto& t : tricks) {
    bool has_reference_family = false;
    for (const auto& id : strings(*t.find("cards"))) {
      has_reference_family |= id[0] == 'G' || id[0] == 'K';
    }
    CHECK(t.get_bool("valid", true) == !has_reference_family);
  }
  view = game->view(0);
  CHECK(view.get_int("tricks_played", 0) == 17);
  CHECK(view.find("robot")->get_int("cards", 0) == 1);
  check_conservation(*game, kSoloPlaces);
}

TEST_CASE("LC-8.5 Capitano: Casa face down, a 5 sets the Ruling Family, which lasts") {
  const Value deck = solo_deck({"G1", "K1", "MC"}, {"G3", "G4", "G6", "G9"},
                               {"K2", "K3", "K4", "K6", "M3"}, {"M4", "M6", "M7", "M8", "M9", "F4"},
                               "F1", {"K5", "G2", "F2"}, {"F3"});
  auto game = make_solo(one_round(deck, "capitano"));
  Value view = game->view(0);
  CHECK(view.find("ruling")->is_null());
  CHECK(view.find("casa")->find("card")->is_null());
  CHECK(view.find("casa")->get_int("face_down", 0) == 1);
  auto secret = game->secret_cards(0);
  CHECK(std::count(secret.begin(), secret.end(), "F1") == 1);
  // K5 makes Knives rule at once; the Mangia-Cake is then a Knife and must follow.
  auto events = act(*game, 0, play_action("K5"));
  auto plays = events_of(events, "play");
  CHECK(plays[0].get_string("ruling", "") == "knives");
  CHECK(plays[1].get_string("card", "") == "MC");
  CHECK(events_of(events, "trick")[0].get_string("winner", "") == "human");
  // LC-11.2 Knives still rule in the next trick.
  CHECK(game->view(0).get_string("ruling", "") == "knives");
  // G2 led: the Robot's G9 wins (rule 2), then it leads its highest card, G6.
  events = act(*game, 0, play_action("G2"));
  CHECK(events_of(events, "play")[1].get_string("card", "") == "G9");
  CHECK(events_of(events, "play")[2].get_string("card", "") == "G6");
  CHECK(game->view(0).get_string("ruling", "") == "knives");
}

TEST_CASE("LC-11.15 Capitano: a led familyless Mangia-Cake meets the Robot's lowest card") {
  const Value deck = solo_deck({"G1", "G3", "F4"}, {"G6", "K6", "K7", "K2"},
                               {"K8", "K9", "M1", "M5", "M2"}, {"M6", "M7", "M8", "M9", "F8", "G9"},
                               "F1", {"MC", "K5", "G2"}, {"K1"});
  auto game = make_solo(one_round(deck, "capitano"));
  auto events = act(*game, 0, play_action("MC"));
  auto plays = events_of(events, "play");
  REQUIRE(plays.size() >= 2);
  CHECK(plays[1].get_string("card", "") == "K2");  // K2 and M2 tie: column 2 is nearer
  CHECK(events_of(events, "trick")[0].get_string("winner", "") == "robot");
  // The Robot leads its highest card, G9; the human must follow with G2.
  CHECK(plays[2].get_string("card", "") == "G9");
  CHECK(legal_cards(*game, 0) == std::vector<std::string>{"G2"});
}

TEST_CASE("LC-8.5 Carita: the human scores with fewer tricks than the Robot") {
  auto strong = make_solo(one_round(strong_human_deck(), "carita"));
  CHECK(round_points(play_out(*strong, highest_legal)) == 0);
  auto weak = make_solo(one_round(strong_robot_deck(), "carita"));
  CHECK(round_points(play_out(*weak, highest_legal)) == 1);
  CHECK(weak->view(0).find("ruling")->as_string() == "guns");  // the Robot's Selection
}

TEST_CASE("LC-8.5 Cousins: the human names them; they outrank the other families") {
  const Value deck = solo_deck({"G4", "F2", "M1"}, {"G5", "G6", "G7", "F9"},
                               {"G8", "G9", "K1", "K2", "F3"}, {"K3", "K4", "K5", "K6", "K7", "F4"},
                               "G1", {"K9", "M2", "K8"}, {"M3"});
  auto game = make_solo(one_round(deck, "cousins"));
  Value view = game->view(0);
  CHECK(view.get_string("phase", "") == "name_cousins");
  const auto choices = legal(*game, 0);
  REQUIRE(choices.size() == 3);
  for (const auto& c : choices) CHECK(c.get_string("family", "") != "guns");
  CHECK(refuse(*game, 0, play_action("K9"), "illegal_action") == "Name the Cousins first.");
  refuse(*game, 0, Value::obj({{"type", "name_family"}, {"family", "guns"}}), "illegal_action");
  auto events = act(*game, 0, Value::obj({{"type", "name_family"}, {"family", "masks"}}));
  CHECK(events_of(events, "cousins")[0].get_string("family", "") == "masks");
  CHECK(game->view(0).get_string("cousins", "") == "masks");
  CHECK(game->view(kSpectator).get_string("cousins", "") == "masks");
  // K9 led; no Knife and no Gun face up: the Robot's lowest card M1 is a Cousin and wins.
  events = act(*game, 0, play_action("K9"));
  auto plays = events_of(events, "play");
  CHECK(plays[1].get_string("card", "") == "M1");
  CHECK(events_of(events, "trick")[0].get_string("winner", "") == "robot");
  // It leads F9; the human has no Fist and trumps it with the Cousin M2.
  CHECK(plays[2].get_string("card", "") == "F9");
  events = act(*game, 0, play_action("M2"));
  CHECK(events_of(events, "trick")[0].get_string("winner", "") == "human");
  refuse(*game, 0, Value::obj({{"type", "name_family"}, {"family", "fists"}}), "illegal_action");
}

TEST_CASE("LC-8.5 Cousins with no Ruling Family: any family may be named (LC-11.11)") {
  const Value deck = solo_deck({"G4", "F2", "M1"}, {"G5", "G6", "G7", "F9"},
                               {"G8", "G9", "K1", "K2", "F3"}, {"K3", "K4", "K5", "K6", "K7", "F4"},
                               "MC", {"K9", "M2", "K8"});
  auto game = make_solo(one_round(deck, "cousins"));
  CHECK(legal(*game, 0).size() == 4);
}

TEST_CASE("LC-8.5 Minions: a Mangia-Cake in the Casa is re-dealt (LC-4.9)") {
  const Value deck = solo_deck({"G4", "F2", "M1"}, {"G5", "G6", "G7", "F9"},
                               {"G8", "G9", "K1", "K2", "F3"}, {"K3", "K4", "K5", "K6", "K7", "F4"},
                               "MC", {"K9", "M2", "K8"});
  auto game = make_solo(one_round(deck, "minions"));
  const Value state = game->full_state();
  CHECK(state.get_int("redeals", 0) >= 1);
  CHECK(state.get_string("casa", "") != "MC");
  CHECK(game->view(0).find("ruling")->is_string());
  CHECK(game->view(0).get_int("round", 0) == 1);  // a re-deal is not a round
  // Any other Casa card stands.
  const Value kept = solo_deck({"G4", "F2", "M1"}, {"G5", "G6", "G7", "F9"},
                               {"G8", "G9", "K1", "K2", "F3"}, {"K3", "K4", "K5", "K6", "K7", "F4"},
                               "M5", {"K9", "M2", "K8"});
  auto normal = make_solo(one_round(kept, "minions"));
  CHECK(normal->full_state().get_int("redeals", -1) == 0);
  CHECK(normal->view(0).get_string("ruling", "") == "masks");
  // Scoring: the human who captures every 0, 1 and 2 scores.
  auto strong = make_solo(one_round(strong_human_deck(), "minions"));
  CHECK(round_points(play_out(*strong, highest_legal)) == 1);
  CHECK(strong->view(0).find("minions")->get_int("human", 0) == 8);
  auto weak = make_solo(one_round(strong_robot_deck(), "minions"));
  CHECK(round_points(play_out(*weak, highest_legal)) == 0);
}

TEST_CASE("LC-8.5 Revenge: the human scores with fewer captured 4s") {
  auto weak = make_solo(one_round(strong_robot_deck(), "revenge"));
  CHECK(round_points(play_out(*weak, highest_legal)) == 1);
  CHECK(weak->view(0).find("zii")->get_int("robot", 0) == 4);
  auto strong = make_solo(one_round(strong_human_deck(), "revenge"));
  CHECK(round_points(play_out(*strong, highest_legal)) == 0);
}

TEST_CASE("LC-11.14 the Robot never scores; no Election in Solo; options are checked") {
  auto game = make_solo(solo_options(true));
  CHECK(game->players() == 1);
  CHECK(game->scores().size() == 1);
  auto bad = [](const Value& options, int players = 1) {
    auto created = create_solo(players, options, 1);
    CHECK_FALSE(created.game);
    return created.error ? created.error->code : std::string();
  };
  CHECK(bad(with(solo_options(), "election", true)) == "bad_option");
  CHECK(bad(with(solo_options(), "colour", "red")) == "bad_option");
  CHECK(bad(with(solo_options(), "rounds", 7)) == "bad_option");
  CHECK(bad(with(solo_options(), "challenge", "anarchy")) == "bad_option");
  CHECK(bad(with(solo_options(false), "challenge", "carita")) == "bad_option");
  CHECK(bad(with(solo_options(), "deck", Value::Array{"G1"})) == "bad_option");
  CHECK(bad(with(solo_options(), "format", "classic")) == "bad_option");
  CHECK(bad(solo_options(), 2) == "bad_players");
  CHECK(create_solo(1, with(solo_options(), "election", false), 1).game);
  CHECK(create_solo(1, with(solo_options(), "target", 12), 1).game);
  CHECK(create_solo(1, Value::object(), 1).game);
}

// LC-8.3 / LC-8.5 / LC-11.14 / LC-5.2: an oracle recomputes every round's score
// from the public events alone (who won which trick with which cards).
TEST_CASE("LC-8.5 LC-11.14 every Solo round scores as its challenge says (oracle)") {
  std::map<std::string, int> rounds_seen;
  std::map<std::string, int> points_seen;
  for (int challenges = 0; challenges <= 1; ++challenges) {
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
      auto game = make_solo(solo_options(challenges == 1), seed);
      Rng rng(seed * 7 + 3);
      std::string challenge = challenges ? game->view(0).get_string("challenge", "") : "none";
      std::string casa_ref, human_ref;
      if (challenge == "betrayal") {
        casa_ref = game->view(0).find("references")->get_string("casa", "");
        human_ref = game->view(0).find("references")->get_string("human", "");
      }
      std::array<int, 2> tricks{}, valid{};
      std::array<CardSet, 2> captured{};
      int total = 0;
      std::vector<Action> actions;
      while (!game->is_over()) {
        game->legal_actions(0, actions);
        std::vector<Event> events;
        REQUIRE_FALSE(game->apply(0, actions[rng.below(static_cast<std::uint32_t>(actions.size()))],
                                  &events));
        for (const auto& e : events) {
          if (!e.spectators) continue;
          const std::string type = e.body.get_string("type", "");
          if (type == "trick") {
            const int w = e.body.get_string("winner", "") == "human" ? 0 : 1;
            ++tricks[w];
            bool ok = true;
            for (const auto& id : strings(*e.body.find("cards"))) {
              captured[w].add(*parse_card(id));
              if (!casa_ref.empty() && id != "MC" && (id[0] == casa_ref[0] || id[0] == human_ref[0])) {
                ok = false;
              }
            }
            if (ok) ++valid[w];
          } else if (type == "round_end") {
            const bool mc = captured[0].has(kMangiaCake);
            auto decide = [mc](int h, int r, bool more) {
              return h == r ? (mc ? 1 : 0) : ((more ? h > r : h < r) ? 1 : 0);
            };
            const CardSet minions = kBrutos | kMangiaCakeSet;
            const CardSet zii = value_cards(4);
            int expected = 0;
            if (challenge == "none" || challenge == "cousins") expected = tricks[0] >= 11;
            else if (challenge == "betrayal") expected = decide(valid[0], valid[1], true);
            else if (challenge == "capitano") expected = decide(tricks[0], tricks[1], true);
            else if (challenge == "carita") expected = decide(tricks[0], tricks[1], false);
            else if (challenge == "minions")
              expected = decide((captured[0] & minions).size(), (captured[1] & minions).size(), true);
            else if (challenge == "revenge")
              expected = decide((captured[0] & zii).size(), (captured[1] & zii).size(), false);
            INFO("challenge ", challenge, " seed ", seed);
            CHECK(tricks[0] + tricks[1] == (challenge == "betrayal" ? 17 : 18));
            CHECK(e.body.get_int("points", -1) == expected);
            ++rounds_seen[challenge];
            points_seen[challenge] += expected;
            total += expected;
            tricks = {};
            valid = {};
            captured = {};
          } else if (type == "round_start") {
            challenge = challenges ? e.body.get_string("challenge", "") : "none";
            casa_ref = challenge == "betrayal" ? e.body.get_string("casa", "") : "";
            human_ref = challenge == "betrayal" ? e.body.get_string("human_reference", "") : "";
          }
        }
      }
      CHECK(game->scores()[0] == total);
    }
  }
  for (const char* c : {"none", "betrayal", "capitano", "carita", "cousins", "minions", "revenge"}) {
    INFO(c);
    CHECK(rounds_seen[c] >= 100);
  }
  // The oracle is exercised on both outcomes for the challenges random play can win.
  for (const char* c : {"betrayal", "capitano", "carita", "minions", "revenge"}) {
    INFO(c);
    CHECK(points_seen[c] > 0);
    CHECK(points_seen[c] < rounds_seen[c]);
  }
}

TEST_CASE("LC-8 Solo random games keep every interface invariant (challenges on and off)") {
  for (bool challenges : {true, false}) {
    testing::PropertyOptions opts;
    opts.games = 150;
    opts.seed = challenges ? 11 : 12;
    opts.invariant = [](const Game& g) { check_conservation(g, kSoloPlaces); };
    const Value options = solo_options(challenges);
    const long actions = testing::check_random_games(
        opts, [&options](std::uint64_t seed) { return create_solo(1, options, seed); });
    CHECK(actions > 150 * 6 * 17);
  }
}

TEST_CASE("LC-8.3 a finished round stays on the table until the human deals the next") {
  Value options = solo_options(false);
  options.set("deck", strong_human_deck());
  options.set("rounds", 2);
  auto game = make_solo(options);
  int guard = 0;
  while (game->view(0).get_string("phase", "") == "play") {
    REQUIRE(++guard < 40);
    act(*game, 0, highest_legal(*game));
  }
  Value view = game->view(0);
  CHECK(view.get_string("phase", "") == "round_over");
  CHECK(view.find("round_points")->as_array() == Value::Array{1});
  CHECK(view.find("last_trick")->is_object());
  CHECK(legal(*game, 0) == std::vector<Value>{Value::obj({{"type", "deal"}})});
  CHECK(refuse(*game, 0, play_action("G2"), "illegal_action") == "Deal the next round first.");
  CHECK_FALSE(game->is_over());
  auto events = act(*game, 0, Value::obj({{"type", "deal"}}));
  CHECK(events_of(events, "round_start").size() == 1);
  CHECK(game->view(0).get_int("round", 0) == 2);
  CHECK(game->view(0).get_int("tricks_played", -1) == 0);
  CHECK(game->view(0).find("hand")->size() == 3);
  refuse(*game, 0, Value::obj({{"type", "deal"}}), "illegal_action");
}
