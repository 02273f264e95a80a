// Random games through the public interface (tests/engine/support/properties.h)
// for every player count and option, with Casino's own invariants.
#include <doctest/doctest.h>

#include "engine/bots.h"
#include "tests/engine/casino/support.h"
#include "tests/engine/support/properties.h"

namespace {

using namespace casino_test;

// Card conservation (CA-1.1): the deck, the hands, the table and the capture
// piles hold the 52 cards exactly once. CA-4.1: every build's owner holds a card
// of its value. CA-4.4: no build is left when a deal's last card has been played.
void casino_invariant(const Game& g) {
  const Value state = g.full_state();
  std::uint64_t seen = 0;
  int count = 0;
  const auto add = [&](const Value& list) {
    for (const auto& id : list.as_array()) {
      const int c = casa::casino::parse_card(id.as_string());
      REQUIRE(c >= 0);
      REQUIRE_MESSAGE(!(seen & casa::casino::bit(c)), "card twice: ", id.as_string());
      seen |= casa::casino::bit(c);
      ++count;
    }
  };
  add(at(state, "deck_order"));
  for (const auto& h : at(state, "hands").as_array()) add(h);
  for (const auto& p : at(state, "captures").as_array()) add(p);
  const Value& table = at(state, "table");
  add(at(table, "loose"));
  const auto& hands = at(state, "hands").as_array();
  bool all_full = true, all_empty = true;
  for (const auto& h : hands) {
    all_full = all_full && h.size() == 4;
    all_empty = all_empty && h.size() == 0;
  }
  for (const auto& b : at(table, "builds").as_array()) {
    add(at(b, "cards"));
    const int owner = static_cast<int>(at(b, "owner").as_int());
    const int value = static_cast<int>(at(b, "value").as_int());
    bool holds = false;
    for (const auto& id : hands[owner].as_array()) {
      holds = holds || casa::casino::value_of(casa::casino::parse_card(id.as_string())) == value;
    }
    REQUIRE_MESSAGE(holds, "CA-4.1 owner ", owner, " lacks a ", value);
  }
  REQUIRE(count == 52);
  if (!g.is_over()) {
    const bool deal_boundary = all_full || all_empty;
    const bool no_builds = at(table, "builds").size() == 0;
    REQUIRE_MESSAGE((!deal_boundary || no_builds), "CA-4.4 a build outlived its deal: ",
                    state.debug_string());
  }
}

casa::testing::PropertyOptions base(int players, const char* options, int games) {
  casa::testing::PropertyOptions o;
  o.game = "casino";
  o.players = players;
  o.options = J(options);
  o.games = games;
  o.invariant = casino_invariant;
  return o;
}

}  // namespace

TEST_CASE("CA-4.4 CA-1.1 random 2-player games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(2, "{}", 40)) > 0);
}

TEST_CASE("CA-4.4 CA-1.1 random 3-player games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(3, "{}", 30)) > 0);
}

TEST_CASE("CA-4.4 CA-1.1 random 4-player games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(4, "{}", 25)) > 0);
}

TEST_CASE("CA-2.1 random partner games keep every invariant") {
  CHECK(casa::testing::check_random_games(base(4, R"({"partners":true})", 25)) > 0);
}

TEST_CASE("CA-7 random games with sweeps keep every invariant") {
  CHECK(casa::testing::check_random_games(base(2, R"({"sweeps":true})", 25)) > 0);
  CHECK(casa::testing::check_random_games(base(3, R"({"sweeps":true,"target":11})", 15)) > 0);
}

TEST_CASE("CA-6 random games with questions keep every invariant") {
  CHECK(casa::testing::check_random_games(base(3, R"({"questions":"default","target":11})", 15)) > 0);
  CHECK(casa::testing::check_random_games(
            base(4, R"({"questions":"default","partners":true,"sweeps":true,"target":11})", 10)) > 0);
}

TEST_CASE("CA-4.4 the robot finishes games against itself") {
  for (int players = 2; players <= 4; ++players) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      auto g = make(players, J(R"({"questions":"default","sweeps":true})"), seed);
      casa::Rng rng(seed);
      int steps = 0;
      while (!g->is_over()) {
        REQUIRE(++steps < 5000);
        const Seat seat = turn(*g);
        const Action a = casa::choose_bot_action(*g, seat, "robot", rng);
        REQUIRE_FALSE(g->apply(seat, a, nullptr));
      }
      CHECK_FALSE(g->winners().empty());
    }
  }
}
