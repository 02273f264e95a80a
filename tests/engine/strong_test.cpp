// SPDX-License-Identifier: AGPL-3.0-or-later
// The "strong" bot (engine/strong.h): it plays legally in every game and mode,
// it repeats itself for a seed and an iteration count, it never reads a card its
// seat cannot see, and it finds the one good move of a stacked position.
#include "engine/strong.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/bots.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "tests/engine/casino/support.h"
#include "engine/games/conference/state.h"
#include "tests/engine/conference/helpers.h"
#include "tests/engine/la_casa/table_support.h"
#include "tests/engine/trophy_case/table.h"

using namespace casa;

namespace {

struct Setup {
  const char* game;
  int players;
  const char* options;  // as Value built below
};

Value options_of(const std::string& text) {
  if (text.empty()) return Value::object();
  return casino_test::J(text);
}

// Every game, and every mode and option that changes what a seat may know or
// what its determinisation must respect.
const Setup kSetups[] = {
    {"la-casa", 4, ""},
    {"la-casa", 4, R"({"format":"classic"})"},
    {"la-casa", 4, R"({"format":"sticky","election":true})"},
    {"la-casa", 4, R"({"challenge":"betrayal"})"},
    {"la-casa", 4, R"({"challenge":"slap_down"})"},
    {"la-casa", 4, R"({"challenge":"bandits"})"},
    {"la-casa", 2, ""},
    {"la-casa", 2, R"({"challenge":"betrayal"})"},
    {"la-casa", 2, R"({"format":"domination"})"},
    {"la-casa", 1, R"({"format":"solo"})"},
    {"casino", 2, ""},
    {"casino", 2, R"({"questions":"default"})"},
    {"casino", 3, ""},
    {"casino", 4, R"({"partners":true})"},
    {"conference", 4, ""},
    {"conference", 4, R"({"good_evil":"trumps"})"},
    {"conference", 4, R"({"good_evil":"allegiance","attack_defence":true,"gallowglass":true})"},
    {"trophy-case", 3, ""},
    {"trophy-case", 4, ""},
    {"trophy-case", 5, ""},
};

std::unique_ptr<Game> make(const Setup& s, std::uint64_t seed) {
  auto created = create_game(s.game, s.players, options_of(s.options), seed);
  REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
  return std::move(created.game);
}

Seat first_to_act(const Game& g) {
  const SeatMask mask = g.to_act();
  Seat s = 0;
  while (!(mask & seat_bit(s))) ++s;
  return s;
}

// Plays `moves` random legal actions (fewer if the game ends).
void advance(Game& g, int moves, Rng& rng) {
  std::vector<Action> legal;
  for (int i = 0; i < moves && !g.is_over(); ++i) {
    const Seat s = first_to_act(g);
    g.legal_actions(s, legal);
    REQUIRE_FALSE(g.apply(s, legal[rng.below(static_cast<std::uint32_t>(legal.size()))], nullptr));
  }
}

StrongOptions quick(int iterations) {
  StrongOptions o;
  o.iterations = iterations;
  return o;
}

}  // namespace

TEST_CASE("strong: every game and mode, a whole game of legal choices against the robot") {
  for (const Setup& s : kSetups) {
    INFO(s.game, " ", s.players, " ", s.options);
    auto g = make(s, 7);
    Rng rng(3);
    std::vector<Action> legal;
    int decisions = 0;
    while (!g->is_over() && decisions < 20000) {
      const Seat seat = first_to_act(*g);
      // Seat 0 searches; the others play the robot's rules.
      const Action a = seat == 0 ? strong_action(*g, seat, quick(24))
                                 : choose_bot_action(*g, seat, "robot", rng);
      g->legal_actions(seat, legal);
      REQUIRE(std::find(legal.begin(), legal.end(), a) != legal.end());
      REQUIRE_FALSE(g->apply(seat, a, nullptr));
      ++decisions;
    }
    CHECK(g->is_over());
  }
}

TEST_CASE("strong: the same seed and iteration count give the same choice") {
  for (const Setup& s : kSetups) {
    INFO(s.game, " ", s.players, " ", s.options);
    auto g = make(s, 11);
    Rng rng(5);
    for (int step = 0; step < 6 && !g->is_over(); ++step) {
      advance(*g, 7, rng);
      if (g->is_over()) break;
      const Seat seat = first_to_act(*g);
      StrongOptions o = quick(80);
      o.seed = 1234 + static_cast<std::uint64_t>(step);
      StrongStats first_stats, again_stats;
      const Action first = strong_action(*g, seat, o, {}, &first_stats);
      const Action again = strong_action(*g->clone(), seat, o, {}, &again_stats);
      CHECK(first == again);
      CHECK(first_stats.nodes == again_stats.nodes);
      if (first_stats.choices > 1) CHECK(first_stats.iterations == 80);
    }
  }
}

TEST_CASE("strong: hidden cards the seat cannot see never change its choice") {
  // The same position with every card hidden from the seat dealt again (a
  // determinisation from that seat: its view is identical, the truth is not).
  for (const Setup& s : kSetups) {
    INFO(s.game, " ", s.players, " ", s.options);
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      auto g = make(s, seed);
      Rng rng(seed * 31);
      for (int step = 0; step < 5 && !g->is_over(); ++step) {
        advance(*g, 5 + static_cast<int>(rng.below(9)), rng);
        if (g->is_over()) break;
        const Seat seat = first_to_act(*g);
        auto other = g->determinize(seat, 0xC0FFEE + seed * 100 + static_cast<std::uint64_t>(step));
        REQUIRE(other->view(seat) == g->view(seat));
        if (other->full_state() == g->full_state()) continue;  // nothing hidden here
        CHECK_MESSAGE(
            g->determinize(seat, 99)->full_state() == other->determinize(seat, 99)->full_state(),
            g->determinize(seat, 99)->full_state().debug_string(), "\n",
            other->determinize(seat, 99)->full_state().debug_string());
        StrongOptions o = quick(60);
        o.seed = seed;
        const Action mine = strong_action(*g, seat, o);
        const Action theirs = strong_action(*other, seat, o);
        CHECK_MESSAGE(mine == theirs, g->encode_action(mine).debug_string(), " vs ",
                      other->encode_action(theirs).debug_string());
        ++compared;
      }
    }
    CHECK(compared > 0);
  }
}

TEST_CASE("strong_evaluate: every legal action valued, even shares, repeatable, blind to hidden cards") {
  for (const Setup& s : kSetups) {
    INFO(s.game, " ", s.players, " ", s.options);
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      auto g = make(s, seed);
      Rng rng(seed * 17);
      for (int step = 0; step < 4 && !g->is_over(); ++step) {
        advance(*g, 4 + static_cast<int>(rng.below(9)), rng);
        if (g->is_over()) break;
        const Seat seat = first_to_act(*g);
        StrongOptions o = quick(45);
        o.root = RootShare::kEven;
        o.seed = seed * 7 + static_cast<std::uint64_t>(step);
        std::vector<Action> legal;
        g->legal_actions(seat, legal);
        const std::vector<ActionValue> values = strong_evaluate(*g, seat, o);
        REQUIRE(values.size() == legal.size());
        const int share = std::max(45, static_cast<int>(legal.size())) / static_cast<int>(legal.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
          CHECK(values[i].action == legal[i]);
          CHECK(values[i].value >= 0.0);
          CHECK(values[i].value <= 1.0);
          CHECK(values[i].visits >= share);  // each its equal share, the rest one more
          CHECK(values[i].visits <= share + 1);
          CHECK_FALSE(values[i].sides.empty());
        }
        auto same = [](const std::vector<ActionValue>& a, const std::vector<ActionValue>& b) {
          if (a.size() != b.size()) return false;
          for (std::size_t i = 0; i < a.size(); ++i)
            if (!(a[i].action == b[i].action) || a[i].value != b[i].value ||
                a[i].visits != b[i].visits || a[i].sides != b[i].sides)
              return false;
          return true;
        };
        CHECK(same(values, strong_evaluate(*g->clone(), seat, o)));
        // A deal the seat cannot tell from this one gives the very same numbers.
        auto other = g->determinize(seat, 0xBEEF + seed * 10 + static_cast<std::uint64_t>(step));
        REQUIRE(other->view(seat) == g->view(seat));
        if (other->full_state() == g->full_state()) continue;
        CHECK(same(values, strong_evaluate(*other, seat, o)));
        ++compared;
      }
    }
    CHECK(compared > 0);
  }
}

TEST_CASE("strong: a clock bounds the search; options parse or are refused") {
  auto g = make(kSetups[0], 3);
  const Seat seat = first_to_act(*g);
  // A clock that advances 1 ms per reading: a 20 ms budget stops after ~19
  // iterations, whatever the machine's speed.
  std::int64_t now = 0;
  const SearchClock clock = [&now] { return now += 1000; };
  StrongOptions o;
  o.time_us = 20'000;
  StrongStats stats;
  strong_action(*g, seat, o, clock, &stats);
  if (stats.choices > 1) {
    CHECK(stats.iterations >= 1);
    CHECK(stats.iterations <= 20);
  }

  StrongOptions parsed;
  CHECK_FALSE(parse_strong_options(
      "iterations=300,ms=50,search=flat,rollout=random,horizon=game,c=1.5,seed=9,root=even", parsed));
  CHECK(parsed.root == RootShare::kEven);
  CHECK(parsed.iterations == 300);
  CHECK(parsed.time_us == 50'000);
  CHECK(parsed.search == SearchKind::kFlat);
  CHECK(parsed.rollout == RolloutPolicy::kRandom);
  CHECK(parsed.horizon == Horizon::kGame);
  CHECK(parsed.exploration == doctest::Approx(1.5));
  CHECK(parsed.seed == 9);
  StrongOptions untouched;
  for (const char* bad : {"iterations=-1", "ms=0", "search=deep", "depth=3", "c=x", "iterations", "root=all"}) {
    INFO(bad);
    const auto err = parse_strong_options(bad, untouched);
    REQUIRE(err);
    CHECK(err->code == "bad_option");
    CHECK(untouched.iterations == StrongOptions{}.iterations);
  }
}

TEST_CASE("LC-2.4 LC-2.5 LC-5.1 strong: ruff low and keep the top trump for the last trick") {
  using namespace casa::la_casa::testing;
  // Classic, Fists rule (F1 turned up from the Casa, LC-4.5), dealer 0: seat 1 leads.
  // After five tricks seats 0+2 hold 2 tricks, seats 1+3 hold 3. In trick six seat
  // 1 leads K5, seat 2 follows K6, seat 3 wins for now with K8; seat 0, void in
  // Knives, holds F2 and F9. Either trump takes this trick (LC-2.5); only ruffing
  // with F2 keeps F9, which wins the last trick whatever is left: 4 tricks to 3
  // and the point (LC-5.1). Ruffing with F9 leaves F2 to lead, and seat 1's F8
  // follows (LC-2.4) and wins it. The robot's rule (highest trump) takes F9.
  const Value deck = deck4(0,
                           {Cards{"G4", "M4", "M7", "G6", "K4", "F2", "F9"},
                            Cards{"G9", "M9", "M5", "G7", "K9", "K5", "F8"},
                            Cards{"G2", "M2", "M8", "G8", "K2", "K6", "G1"},
                            Cards{"G3", "M3", "M6", "G5", "K3", "K8", "K7"}},
                           Cards{"F1"});
  Table t(4, Value::obj({{"format", "classic"}, {"dealer", 0}, {"target", 1}, {"deck", deck}}), 5);
  REQUIRE(t.phase() == "play");
  const char* tricks[5][4] = {{"G9", "G2", "G3", "G4"},
                              {"M9", "M2", "M3", "M4"},
                              {"M5", "M8", "M6", "M7"},
                              {"G8", "G5", "G6", "G7"},
                              {"K2", "K3", "K4", "K9"}};
  const Seat leaders[5] = {1, 1, 1, 2, 2};
  for (int k = 0; k < 5; ++k)
    for (int i = 0; i < 4; ++i) t.play((leaders[k] + i) % 4, tricks[k][i]);
  t.play(1, "K5");
  t.play(2, "K6");
  t.play(3, "K8");
  REQUIRE(t.game->to_act() == seat_bit(0));

  Rng rng(1);
  CHECK(t.game->encode_action(choose_bot_action(*t.game, 0, "robot", rng)).get_string("card", "") ==
        "F9");
  for (std::uint64_t seed : {1, 2, 3}) {
    StrongOptions o = quick(400);
    o.seed = seed;
    const Action a = strong_action(*t.game, 0, o);
    CHECK(t.game->encode_action(a).get_string("card", "") == "F2");
  }
  // Both search kinds find it.
  StrongOptions flat = quick(400);
  flat.search = SearchKind::kFlat;
  CHECK(t.game->encode_action(strong_action(*t.game, 0, flat)).get_string("card", "") == "F2");
  // The evaluation values F2 above F9, with every root share and search kind.
  for (const SearchKind kind : {SearchKind::kIsmcts, SearchKind::kFlat}) {
    StrongOptions even = quick(400);
    even.search = kind;
    even.root = RootShare::kEven;
    double f2 = -1, f9 = -1;
    for (const ActionValue& v : strong_evaluate(*t.game, 0, even)) {
      const std::string card = t.game->encode_action(v.action).get_string("card", "");
      if (card == "F2") f2 = v.value;
      if (card == "F9") f9 = v.value;
    }
    CHECK(f2 > f9 + 0.2);
  }
}

TEST_CASE(
    "CA-3.1 CA-3.6 CA-5.2 strong: the ten of spades takes the Big Casino and the fives that make "
    "ten") {
  // Two players, dealer 1: seat 0 plays first and holds TS KH QH JH; the table
  // holds TD 5D 5H 2S. Face cards build nothing (CA-3.6) and no loose card pairs
  // with them, so the choice is what TS captures, or a trail: TS may take TD (a
  // pair) and 5D+5H (a sum of ten) at once (CA-3.1), the Big Casino's 2 points, a
  // spade and three cards (CA-5.2). (With a card that could build ten with 2S the
  // bot rightly prefers the build and takes all of it next turn.)
  auto g = casino_test::make(
      2, casino_test::with_deck(R"({"dealer":1})", {"TS", "KH", "QH", "JH", "7C", "8C", "9C", "JC",
                                                    "TD", "5D", "5H", "2S"}));
  REQUIRE(g->to_act() == seat_bit(0));
  const Action best = casino_test::decode(
      *g, R"({"type":"capture","card":"TS","loose":["TD","5D","5H"],"builds":[]})");
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    StrongOptions o = quick(3000);
    o.seed = seed;
    const Action a = strong_action(*g, 0, o);
    CHECK_MESSAGE(a == best, g->encode_action(a).debug_string());
  }
}

TEST_CASE("LC-7.3 strong: a Betrayal determinisation puts 1s, and only 1s, where the 1s are") {
  // The four 1s are the references and (two players) out of play, and everybody
  // knows it: a sample never holds another card there, nor a 1 anywhere else.
  auto is_one = [](const std::string& id) { return id != "MC" && id.size() == 2 && id[1] == '1'; };
  for (int players : {2, 4}) {
    INFO(players, " players");
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      auto g = make(Setup{"la-casa", players, R"({"challenge":"betrayal"})"}, seed);
      Rng rng(seed);
      for (int step = 0; step < 4 && !g->is_over(); ++step) {
        advance(*g, 1 + static_cast<int>(rng.below(6)), rng);
        if (g->is_over() || g->full_state().get_int("challenge", -1) != 2) continue;
        const Seat seat = first_to_act(*g);
        for (std::uint64_t k = 0; k < 8; ++k) {
          const Value sample = g->determinize(seat, k * 7 + 1)->full_state();
          int ones = 0;
          for (const auto& r : sample.find("references")->as_array()) {
            if (r.is_null()) continue;
            CHECK_MESSAGE(is_one(r.as_string()), r.as_string());
            ++ones;
          }
          for (const auto& c : sample.find("out")->as_array()) ones += is_one(c.as_string());
          CHECK(ones == 4);
          ++checked;
        }
      }
    }
    CHECK(checked > 0);
  }
}

TEST_CASE("CO-3.2 CO-4.2 strong: Conference determinisations respect every public constraint") {
  // Many positions with Good & Evil allegiance: each sample keeps the seat's view,
  // and two worlds the seat cannot tell apart give the same sample, also where
  // chance alone fails to meet the constraints (voids, the discard's rules).
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    auto g = make(Setup{"conference", 4, R"({"good_evil":"allegiance"})"}, seed);
    Rng rng(seed * 17);
    for (int step = 0; step < 8 && !g->is_over(); ++step) {
      advance(*g, 3 + static_cast<int>(rng.below(8)), rng);
      if (g->is_over()) break;
      const Seat seat = first_to_act(*g);
      auto other = g->determinize(seat, seed * 1000 + static_cast<std::uint64_t>(step));
      REQUIRE(other->view(seat) == g->view(seat));
      for (std::uint64_t k = 1; k <= 4; ++k) {
        auto mine = g->determinize(seat, k);
        CHECK(mine->view(seat) == g->view(seat));
        CHECK(mine->full_state() == other->determinize(seat, k)->full_state());
        // The placement that never fails, used where chance does, alone.
        const auto& real = dynamic_cast<const casa::conference::ConferenceGame&>(*g);
        const auto& twin = dynamic_cast<const casa::conference::ConferenceGame&>(*other);
        auto placed = real.determinize_with(seat, k, 0);
        CHECK(placed->view(seat) == g->view(seat));
        CHECK(placed->full_state() == twin.determinize_with(seat, k, 0)->full_state());
        const Value state = placed->full_state();
        const Value truth = g->full_state();
        const auto& voids = state.find("voids")->as_array();
        const auto& hands = state.find("hands")->as_array();
        CHECK(state.find("discard")->size() == truth.find("discard")->size());
        for (int s = 0; s < 4; ++s) {
          CHECK(hands[static_cast<std::size_t>(s)].size() ==
                truth.find("hands")->as_array()[static_cast<std::size_t>(s)].size());
          for (const auto& c : hands[static_cast<std::size_t>(s)].as_array()) {
            const std::string id = c.as_string();
            // CO-1.1 E A F W are suits 0-3; trumps (GOOD and EVIL too) are 4.
            const int suit = id == "FOOL"                                   ? -1
                             : id == "GOOD" || id == "EVIL" || id[0] == 'T' ? 4
                                 : static_cast<int>(std::string("EAFW").find(id[0]));
            if (suit >= 0) CHECK_MESSAGE(!((voids[static_cast<std::size_t>(s)].as_int() >> suit) & 1), id, " to a seat void in it");
          }
        }
        ++compared;
      }
    }
  }
  CHECK(compared > 1000);
}

TEST_CASE("CO-4.2 CO-4.4 CO-5.1 strong: ruff the opponents' King and Queen rather than excuse") {
  using namespace conference_test;
  // Dealer 2 (the bot) discards A2 and A3; eldest, seat 3 (its partner), leads E2,
  // seat 0 plays EK and seat 1 EQ (9 card points for seats 0+1). Seat 2 holds no
  // Earth, so it must play a trump (CO-4.2), and any trump wins the trick
  // (CO-4.4) with its 10 points; or it may play the Fool (CO-4.3), which leaves
  // the trick (CO-5.1) and lets EK take the points.
  Deal deal;
  deal.dealer = 2;
  deal.hands[0] = cards("EK");
  deal.hands[1] = cards("EQ");
  deal.hands[2] = cards("T2-19 FOOL A2 A3");
  deal.hands[3] = cards("E2");
  conference_test::Table t(deal, Value::object());
  t.discards({"A2", "A3"});
  t.play_as(3, "E2");
  t.play_as(0, "EK");
  t.play_as(1, "EQ");
  REQUIRE(t.actor() == 2);
  for (std::uint64_t seed : {1, 2, 3}) {
    StrongOptions o = quick(2000);
    o.seed = seed;
    const Value a = t.game->encode_action(strong_action(*t.game, 2, o));
    const std::string card = a.get_string("card", "");
    CHECK_MESSAGE(card != "FOOL", a.debug_string());
    CHECK(card[0] == 'T');
  }
}

TEST_CASE("TC-4.3 TC-4.4 TC-5.1 TC-6.1 TC-6.3 strong: fold rather than hand the game over") {
  // Three players, target 3, dealer 2: seat 0 leads MAZX (red, 2 points). Seat 1
  // holds no red card and no trump, only 8s, 9s and Infinities of other colours:
  // out of colour, none of them can beat a red card (TC-5.1), and each is worth
  // points (TC-6.1). Any card it plays takes the trick to 3 points or more, which
  // wins the game for whoever takes it (TC-6.3); folding (allowed: it holds no
  // Mazes, TC-4.4) keeps the trick at 2.
  tc_test::Stack stack;
  stack.players = 3;
  stack.dealer = 2;
  stack.hands[0][0] = {"MAZX"};
  stack.hands[0][1] = {"BUG8", "BUG9", "BUGX", "FRO8", "FRO9", "FROX", "INK8",
                       "INK9", "INKX", "TIM8", "TIM9", "TIMX", "LAM8", "LAM9"};
  tc_test::Table t(3, stack.options(Value::obj({{"target", 3}})));
  t.play(0, "MAZX");
  REQUIRE(t.turn() == 1);
  for (std::uint64_t seed : {1, 2, 3}) {
    StrongOptions o = quick(2000);
    o.seed = seed;
    const Value a = t.game->encode_action(strong_action(*t.game, 1, o));
    CHECK_MESSAGE(a.get_string("type", "") == "fold", a.debug_string());
  }
}
