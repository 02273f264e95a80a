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
#include "tests/engine/la_casa/table_support.h"

using namespace casa;

namespace {

struct Setup {
  const char* game;
  int players;
  const char* options;  // as Value built below
};

Value options_of(const std::string& text) {
  if (text == "domination") return Value::obj({{"format", "domination"}});
  if (text == "solo") return Value::obj({{"format", "solo"}});
  if (text == "classic") return Value::obj({{"format", "classic"}});
  if (text == "partners") return Value::obj({{"partners", true}});
  if (text == "sticky") return Value::obj({{"format", "sticky"}, {"election", true}});
  return Value::object();
}

const Setup kSetups[] = {
    {"la-casa", 4, ""},
    {"la-casa", 4, "classic"},
    {"la-casa", 4, "sticky"},
    {"la-casa", 2, ""},
    {"la-casa", 2, "domination"},
    {"la-casa", 1, "solo"},
    {"casino", 2, ""},
    {"casino", 3, ""},
    {"casino", 4, "partners"},
    {"conference", 4, ""},
    {"trophy-case", 3, ""},
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
      "iterations=300,ms=50,search=flat,rollout=random,horizon=game,c=1.5,seed=9", parsed));
  CHECK(parsed.iterations == 300);
  CHECK(parsed.time_us == 50'000);
  CHECK(parsed.search == SearchKind::kFlat);
  CHECK(parsed.rollout == RolloutPolicy::kRandom);
  CHECK(parsed.horizon == Horizon::kGame);
  CHECK(parsed.exploration == doctest::Approx(1.5));
  CHECK(parsed.seed == 9);
  StrongOptions untouched;
  for (const char* bad : {"iterations=-1", "ms=0", "search=deep", "depth=3", "c=x", "iterations"}) {
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
