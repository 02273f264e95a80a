// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa Domination (LC-9, LC-11.13, LC-4.8 Domination, the Election of
// LC-6.3-6.6 as LC-9.2 changes it, LC-5.5): stacked scenarios, a scoring oracle
// over random games, and the shared property checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "engine/games/la_casa/cards.h"
#include "engine/rng.h"
#include "tests/engine/la_casa_modes/modes_support.h"
#include "tests/engine/support/properties.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::modes_test;

namespace {

Value domination_options() { return Value::obj({{"format", "domination"}}); }

// LC-4.8 Domination: hands alternately from the non-dealer, the Casa (top first),
// the face-up card, then the stock's top cards; the rest in id order.
Value domination_deck(const std::vector<std::string>& non_dealer,
                      const std::vector<std::string>& dealer, const std::vector<std::string>& casa,
                      const std::string& face_up, const std::vector<std::string>& stock_top = {}) {
  REQUIRE(non_dealer.size() == 5);
  REQUIRE(dealer.size() == 5);
  REQUIRE(casa.size() == 5);
  std::vector<std::string> front;
  for (int i = 0; i < 5; ++i) {
    front.push_back(non_dealer[i]);
    front.push_back(dealer[i]);
  }
  front.insert(front.end(), casa.begin(), casa.end());
  front.push_back(face_up);
  front.insert(front.end(), stock_top.begin(), stock_top.end());
  return deck_of(front);
}

Value stacked(const Value& deck, int dealer = 0, int rounds = 1) {
  Value o = domination_options();
  o.set("deck", deck);
  o.set("dealer", dealer);
  o.set("rounds", rounds);
  return o;
}

const Value kPass = Value::obj({{"type", "pass"}});
Value elect(const char* family) { return Value::obj({{"type", "elect"}, {"family", family}}); }
Value take(const char* pile) { return Value::obj({{"type", "take_pile"}, {"pile", pile}}); }

Seat acting(const Game& g) {
  const auto list = g.view(kSpectator).find("to_act")->as_array();
  REQUIRE(list.size() == 1);
  return static_cast<Seat>(list[0].as_int());
}

std::vector<std::string> hand_of(const Game& g, Seat s) { return strings(*g.view(s).find("hand")); }

bool holds(const Game& g, Seat s, const std::string& card) {
  const auto hand = hand_of(g, s);
  return std::find(hand.begin(), hand.end(), card) != hand.end();
}

// A strong player holds G2-G9, the Mangia-Cake and the top Knives, Masks and
// Fists; the Casa is G1 K1 M1 F1 K2; the weak player holds the rest. The strong
// player's cards come from its hand (G9-G5) and, as long as it keeps taking the
// face-up card, from the face-up pile.
Value strong_weak_deck(bool strong_is_non_dealer) {
  const std::vector<std::string> strong_hand{"G9", "G8", "G7", "G6", "G5"};
  const std::vector<std::string> weak_hand{"K3", "K4", "K5", "K6", "M2"};
  const std::vector<std::string> strong_draws{"G4", "G3", "G2", "MC", "K9", "K8",
                                              "K7", "M9", "M8", "F9", "F8"};
  const std::vector<std::string> weak_draws{"M3", "M4", "M5", "M6", "M7", "F2",
                                            "F3", "F4", "F5", "F6", "F7"};
  std::vector<std::string> stock;
  for (int i = 1; i < 11; ++i) {
    stock.push_back(weak_draws[i - 1]);
    stock.push_back(strong_draws[i]);
  }
  stock.push_back(weak_draws[10]);
  return domination_deck(strong_is_non_dealer ? strong_hand : weak_hand,
                         strong_is_non_dealer ? weak_hand : strong_hand,
                         {"G1", "K1", "M1", "F1", "K2"}, strong_draws[0], stock);
}

// Each seat plays its highest legal card; a trick winner takes the face-up card.
std::vector<Event> play_round_highest(Game& game) {
  std::vector<Event> all;
  int guard = 0;
  const std::string start_phase = "play";
  while (!game.is_over() && game.view(kSpectator).get_string("phase", "") != "round_over") {
    REQUIRE(++guard < 200);
    const Seat s = acting(game);
    const std::string phase = game.view(kSpectator).get_string("phase", "");
    Value action;
    if (phase == "take_pile") {
      action = take("face_up");
    } else {
      REQUIRE(phase == "play");
      int best = -1;
      for (const auto& id : legal_cards(game, s)) {
        const int v = card_value(*parse_card(id));
        if (v > best) {
          best = v;
          action = play_action(id);
        }
      }
    }
    auto events = act(game, s, action);
    check_conservation(game, kDominationPlaces);
    all.insert(all.end(), events.begin(), events.end());
  }
  return all;
}

}  // namespace

TEST_CASE("LC-4.8 LC-9.1 Domination deal: hands of 5 alternately from the non-dealer, Casa 5, stock 21 and one face up") {
  const Value deck = domination_deck({"G1", "G2", "G3", "G4", "G5"}, {"K1", "K2", "K3", "K4", "K5"},
                                     {"M1", "M2", "M3", "M4", "M5"}, "F1", {"F2", "F3"});
  auto game = make_domination(stacked(deck, 0));
  // Dealer 0: seat 1 is the non-dealer.
  CHECK(hand_of(*game, 1) == std::vector<std::string>{"G1", "G2", "G3", "G4", "G5"});
  CHECK(hand_of(*game, 0) == std::vector<std::string>{"K1", "K2", "K3", "K4", "K5"});
  const Value view = game->view(0);
  CHECK(view.find("casa")->get_string("top", "") == "M1");
  CHECK(view.find("casa")->get_int("count", 0) == 5);
  CHECK(view.get_string("face_up", "") == "F1");
  CHECK(view.get_int("stock", 0) == 21);
  CHECK(view.find("hand_sizes")->as_array() == Value::Array{5, 5});
  const auto stock = strings(*game->full_state().find("stock"));
  REQUIRE(stock.size() == 21);
  CHECK(stock[0] == "F2");
  CHECK(stock[1] == "F3");
  CHECK(strings(*game->full_state().find("casa")) ==
        std::vector<std::string>{"M1", "M2", "M3", "M4", "M5"});
  // LC-10 Own hand only; the Casa below its top and the stock are hidden.
  const auto secret0 = game->secret_cards(0);
  const std::set<std::string> hidden(secret0.begin(), secret0.end());
  CHECK(hidden.count("G1"));
  CHECK(hidden.count("M2"));
  CHECK(hidden.count("F2"));
  CHECK_FALSE(hidden.count("M1"));
  CHECK_FALSE(hidden.count("F1"));
  CHECK_FALSE(hidden.count("K1"));
  CHECK(hidden.size() == 5 + 4 + 21);
  CHECK(game->secret_cards(kSpectator).size() == 10 + 4 + 21);
  CHECK(game->view(kSpectator).find("hand") == nullptr);
  // Another deal with dealer 1: seat 0 is now the non-dealer.
  auto other = make_domination(stacked(deck, 1));
  CHECK(hand_of(*other, 0) == std::vector<std::string>{"G1", "G2", "G3", "G4", "G5"});
}

TEST_CASE("LC-9.2 LC-6.3 LC-6.6 LC-11.13 the shown family may be elected; the card stays") {
  const Value deck = domination_deck({"G1", "G2", "G3", "G4", "G5"}, {"K1", "K2", "K3", "K4", "K5"},
                                     {"M9", "M2", "M3", "M4", "M5"}, "F1");
  auto game = make_domination(stacked(deck, 0));
  Value view = game->view(kSpectator);
  CHECK(view.get_string("phase", "") == "elect");
  CHECK(view.find("election")->get_string("nominated", "") == "masks");
  CHECK(acting(*game) == 1);  // the non-dealer speaks first
  CHECK(legal(*game, 1) == std::vector<Value>{elect("masks"), kPass});
  CHECK(legal(*game, 0).empty());
  refuse(*game, 0, elect("masks"), "not_your_turn");
  CHECK(refuse(*game, 1, elect("guns"), "illegal_action") ==
        "In the first round only masks may be elected.");
  // The non-dealer passes; the dealer elects Masks and leads, taking no card.
  act(*game, 1, kPass);
  CHECK(acting(*game) == 0);
  act(*game, 0, elect("masks"));
  view = game->view(0);
  CHECK(view.get_string("ruling", "") == "masks");
  CHECK(view.find("election")->get_int("elector", -1) == 0);
  CHECK(view.get_string("phase", "") == "play");
  CHECK(acting(*game) == 0);
  CHECK(view.find("hand")->size() == 5);  // nothing taken, nothing discarded
  CHECK(view.find("casa")->get_string("top", "") == "M9");
  CHECK(view.find("casa")->get_int("count", 0) == 5);
  check_conservation(*game, kDominationPlaces);
}

TEST_CASE("LC-6.5 after two passes the card turns down; the dealer must elect another family") {
  const Value deck = domination_deck({"G1", "G2", "G3", "G4", "G5"}, {"K1", "K2", "K3", "K4", "K5"},
                                     {"M9", "M2", "M3", "M4", "M5"}, "F1");
  auto game = make_domination(stacked(deck, 0));
  act(*game, 1, kPass);
  auto events = act(*game, 0, kPass);
  CHECK(events_of(events, "election_round").size() == 1);
  Value view = game->view(1);
  CHECK(view.find("casa")->find("top")->is_null());
  CHECK(view.find("election")->get_int("round", 0) == 2);
  CHECK(view.find("election")->get_string("nominated", "") == "masks");
  const auto secret = game->secret_cards(1);
  CHECK(std::set<std::string>(secret.begin(), secret.end()).count("M9"));
  CHECK(acting(*game) == 1);
  CHECK(legal(*game, 1) == std::vector<Value>{elect("guns"), elect("knives"), elect("fists"), kPass});
  refuse(*game, 1, elect("masks"), "illegal_action");
  act(*game, 1, kPass);
  // It comes back to the dealer, who must elect.
  CHECK(legal(*game, 0) == std::vector<Value>{elect("guns"), elect("knives"), elect("fists")});
  CHECK(refuse(*game, 0, kPass, "illegal_action") == "The dealer must elect a family now.");
  act(*game, 0, elect("fists"));
  CHECK(game->view(0).get_string("ruling", "") == "fists");
  CHECK(acting(*game) == 0);
}

TEST_CASE("LC-6.5 in round two the non-dealer may elect another family") {
  const Value deck = domination_deck({"G1", "G2", "G3", "G4", "G5"}, {"K1", "K2", "K3", "K4", "K5"},
                                     {"M9", "M2", "M3", "M4", "M5"}, "F1");
  auto game = make_domination(stacked(deck, 1));  // dealer 1: seat 0 speaks first
  CHECK(acting(*game) == 0);
  act(*game, 0, kPass);
  act(*game, 1, kPass);
  act(*game, 0, elect("guns"));
  CHECK(game->view(1).get_string("ruling", "") == "guns");
  CHECK(game->view(1).find("election")->get_int("elector", -1) == 0);
  CHECK(acting(*game) == 0);
}

TEST_CASE("LC-9.2 LC-11.13 a Mangia-Cake turned up: no Election, the non-dealer leads") {
  const Value deck = domination_deck({"G1", "G2", "G3", "G4", "G5"}, {"K1", "K2", "K3", "K4", "K5"},
                                     {"MC", "M2", "M3", "M4", "M5"}, "F1");
  auto game = make_domination(stacked(deck, 0));
  const Value view = game->view(0);
  CHECK(view.get_string("phase", "") == "play");
  CHECK(view.find("ruling")->is_null());
  CHECK(view.find("election")->find("nominated")->is_null());
  CHECK(acting(*game) == 1);
  CHECK(legal(*game, 1).size() == 5);
  // LC-5.1 scores the round: most tricks 1; play it out and check against the counts.
  auto events = play_round_highest(*game);
  auto end = events_of(events, "round_end");
  REQUIRE(end.size() == 1);
  const auto tricks = end[0].find("tricks")->as_array();
  const auto points = end[0].find("points")->as_array();
  const int t0 = static_cast<int>(tricks[0].as_int());
  const int t1 = static_cast<int>(tricks[1].as_int());
  CHECK(t0 + t1 == 16);
  CHECK(points[0].as_int() == (t0 > t1 ? 1 : 0));
  CHECK(points[1].as_int() == (t1 > t0 ? 1 : 0));
  CHECK(end[0].find("elector")->is_null());
}

TEST_CASE("LC-9.3 LC-11.13 the trick's winner chooses a pile, the other takes the other") {
  // Seat 1 (non-dealer) elects Guns and leads G5; seat 0 must follow with G1... it
  // has none: K1 loses. Seat 1 then chooses.
  const Value deck = domination_deck({"G5", "G2", "G3", "G4", "M7"}, {"K1", "K2", "K3", "K4", "K5"},
                                     {"G9", "M2", "M3", "M4", "M5"}, "F1", {"F2", "F3", "F4", "F5"});
  auto game = make_domination(stacked(deck, 0));
  act(*game, 1, elect("guns"));
  act(*game, 1, play_action("G5"));
  refuse(*game, 0, play_action("G5"), "illegal_action");
  act(*game, 0, play_action("K1"));
  Value view = game->view(1);
  CHECK(view.get_string("phase", "") == "take_pile");
  CHECK(view.find("last_trick")->get_int("winner", -1) == 1);
  CHECK(acting(*game) == 1);
  CHECK(legal(*game, 1) == std::vector<Value>{take("face_up"), take("stock")});
  CHECK(legal(*game, 0).empty());
  refuse(*game, 0, take("stock"), "not_your_turn");  // only the winner chooses
  auto events = act(*game, 1, take("face_up"));
  CHECK(holds(*game, 1, "F1"));
  CHECK(holds(*game, 0, "F2"));
  view = game->view(0);
  CHECK(view.get_string("face_up", "") == "F3");
  CHECK(view.get_int("stock", 0) == 19);
  CHECK(view.find("hand_sizes")->as_array() == Value::Array{5, 5});
  // The public event names the pile only; each draw goes to its own seat.
  for (const auto& e : events) {
    const std::string type = e.body.get_string("type", "");
    if (type == "take_pile") {
      CHECK(e.body.find("card") == nullptr);
      CHECK(e.spectators);
    }
    if (type == "draw") {
      CHECK(e.seats == seat_bit(static_cast<Seat>(e.body.get_int("seat", -1))));
      CHECK_FALSE(e.spectators);
    }
  }
  // F1 is now in seat 1's hand: hidden from seat 0, yet kept there by determinize.
  const auto secret = game->secret_cards(0);
  CHECK(std::set<std::string>(secret.begin(), secret.end()).count("F1"));
  CHECK(game->view(0).get_string("face_up", "") != "F1");
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto sample = game->determinize(0, seed);
    CHECK(sample->view(0) == game->view(0));
    const auto hand1 = hand_of(*sample, 1);
    CHECK(std::count(hand1.begin(), hand1.end(), "F1") == 1);
  }
  // Seat 1 leads again; after the next trick the stock pile choice: winner takes stock.
  act(*game, 1, play_action("G4"));
  act(*game, 0, play_action("K2"));
  act(*game, 1, take("stock"));
  CHECK(holds(*game, 1, "F4"));
  CHECK(holds(*game, 0, "F3"));
  CHECK(game->view(0).get_string("face_up", "") == "F5");
}

TEST_CASE("LC-9.3 LC-9.4 eleven draws, sixteen tricks; the elector needs 9 tricks") {
  // Strong non-dealer elects Guns, keeps taking the face-up card and wins all 16.
  auto game = make_domination(stacked(strong_weak_deck(true), 0));
  act(*game, 1, elect("guns"));
  auto events = play_round_highest(*game);
  CHECK(events_of(events, "take_pile").size() == 11);
  CHECK(events_of(events, "trick").size() == 16);
  auto end = events_of(events, "round_end");
  REQUIRE(end.size() == 1);
  CHECK(end[0].find("tricks")->as_array() == Value::Array{0, 16});
  CHECK(game->scores() == std::vector<int>{0, 1});
  CHECK(game->view(0).find("face_up")->is_null());
  CHECK(game->view(0).get_int("stock", -1) == 0);
  CHECK(game->winners() == std::vector<Seat>{1});  // rounds: 1

  // The weak non-dealer elects Guns instead: it fails, the other scores 2.
  auto weak = make_domination(stacked(strong_weak_deck(false), 0));
  act(*weak, 1, elect("guns"));
  events = play_round_highest(*weak);
  end = events_of(events, "round_end");
  REQUIRE(end.size() == 1);
  CHECK(end[0].find("tricks")->as_array()[1].as_int() < 9);
  CHECK(weak->scores() == std::vector<int>{2, 0});
}

TEST_CASE("LC-5.5 LC-3.2 target, dealer rotation and the next deal by the next dealer") {
  Value options = domination_options();
  options.set("dealer", 0);
  options.set("target", 3);
  auto game = make_domination(options, 5);
  Rng rng(9);
  std::vector<Action> actions;
  int rounds = 0;
  int expected_dealer = 0;
  while (!game->is_over()) {
    const Seat s = acting(*game);
    const std::string phase = game->view(kSpectator).get_string("phase", "");
    if (phase == "round_over") {
      ++rounds;
      const auto scores = game->scores();
      CHECK((std::max(scores[0], scores[1]) < 3 || scores[0] == scores[1]));
      CHECK(s == 1 - expected_dealer);  // the next dealer deals
      CHECK(legal(*game, s) == std::vector<Value>{Value::obj({{"type", "deal"}})});
      act(*game, s, Value::obj({{"type", "deal"}}));
      expected_dealer = 1 - expected_dealer;
      CHECK(game->view(0).get_int("dealer", -1) == expected_dealer);
      continue;
    }
    game->legal_actions(s, actions);
    REQUIRE_FALSE(game->apply(s, actions[rng.below(static_cast<std::uint32_t>(actions.size()))], nullptr));
  }
  const auto scores = game->scores();
  CHECK(std::max(scores[0], scores[1]) >= 3);
  CHECK(scores[0] != scores[1]);
  CHECK(game->winners() == std::vector<Seat>{scores[0] > scores[1] ? 0 : 1});
  CHECK(rounds >= 1);
}

TEST_CASE("LC-9 Domination options and player count") {
  auto bad = [](const Value& options, int players = 2) {
    auto created = create_domination(players, options, 1);
    CHECK_FALSE(created.game);
    return created.error ? created.error->code : std::string();
  };
  CHECK(bad(domination_options(), 4) == "bad_players");
  CHECK(bad(with(domination_options(), "challenge", "carita")) == "bad_option");
  CHECK(bad(with(domination_options(), "dealer", 2)) == "bad_option");
  CHECK(bad(with(domination_options(), "target", 0)) == "bad_option");
  CHECK(bad(with(domination_options(), "format", "solo")) == "bad_option");
  CHECK(bad(with(domination_options(), "deck", Value::Array{"G1", "G1"})) == "bad_option");
  auto game = make_domination(domination_options());
  CHECK(game->view(0).get_int("target", 0) == 12);
  CHECK(game->players() == 2);
  // The first dealer comes from the seed.
  std::set<std::int64_t> dealers;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    dealers.insert(make_domination(domination_options(), seed)->view(0).get_int("dealer", -1));
  }
  CHECK(dealers == std::set<std::int64_t>{0, 1});
}

// LC-9.4 / LC-9.2 / LC-5.1: an oracle recomputes every round's points from the
// public events of random games.
TEST_CASE("LC-9.4 every Domination round scores as the rules say (oracle)") {
  int elected = 0, mangia_cake = 0, elector_made_it = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    Value options = domination_options();
    options.set("target", 4);
    auto game = make_domination(options, seed);
    Rng rng(seed + 77);
    std::array<int, 2> tricks{};
    int elector = -1;
    std::array<int, 2> totals{};
    std::vector<Action> actions;
    while (!game->is_over()) {
      const Seat s = acting(*game);
      game->legal_actions(s, actions);
      std::vector<Event> events;
      REQUIRE_FALSE(game->apply(s, actions[rng.below(static_cast<std::uint32_t>(actions.size()))], &events));
      for (const auto& e : events) {
        if (!e.spectators) continue;
        const std::string type = e.body.get_string("type", "");
        if (type == "elect") elector = static_cast<int>(e.body.get_int("seat", -1));
        if (type == "trick") ++tricks[e.body.get_int("winner", 0)];
        if (type == "round_end") {
          std::array<int, 2> expected{};
          if (elector >= 0) {
            ++elected;
            if (tricks[elector] >= 9) {
              expected[elector] = 1;
              ++elector_made_it;
            } else {
              expected[1 - elector] = 2;
            }
          } else {
            ++mangia_cake;
            if (tricks[0] != tricks[1]) expected[tricks[0] > tricks[1] ? 0 : 1] = 1;
          }
          CHECK(tricks[0] + tricks[1] == 16);
          const auto points = e.body.find("points")->as_array();
          CHECK(points[0].as_int() == expected[0]);
          CHECK(points[1].as_int() == expected[1]);
          totals[0] += expected[0];
          totals[1] += expected[1];
          tricks = {};
          elector = -1;
        }
      }
    }
    CHECK(game->scores() == std::vector<int>{totals[0], totals[1]});
  }
  CHECK(elected > 100);
  CHECK(elector_made_it > 0);
  CHECK(elector_made_it < elected);
  CHECK(mangia_cake > 0);
}

TEST_CASE("LC-9 Domination random games keep every interface invariant") {
  testing::PropertyOptions opts;
  opts.games = 60;
  opts.seed = 21;
  opts.invariant = [](const Game& g) { check_conservation(g, kDominationPlaces); };
  Value options = domination_options();
  options.set("target", 4);
  const long actions = testing::check_random_games(
      opts, [&options](std::uint64_t seed) { return create_domination(2, options, seed); });
  CHECK(actions > 60 * 40);
  // Full-length games to the default target, fewer of them.
  opts.games = 10;
  opts.seed = 22;
  const Value plain = domination_options();
  testing::check_random_games(opts,
                              [&plain](std::uint64_t seed) { return create_domination(2, plain, seed); });
}
