// SPDX-License-Identifier: AGPL-3.0-or-later
// Round scoring checked against an independent reading of the rules: random
// one-round games for each scoring rule, the expected points recomputed from the
// final god view (LC-5.1, LC-5.2, LC-5.3, LC-6.7, LC-7.3, LC-7.5, LC-7.6, LC-7.10,
// LC-7.12, LC-7.13, LC-7.15, LC-11.5).
#include <doctest/doctest.h>

#include <array>
#include <string>

#include "engine/rng.h"
#include "tests/engine/la_casa/table_support.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::testing;

namespace {

int count_in(const Value& cards, const std::string& values) {
  int n = 0;
  for (const auto& c : cards.as_array()) {
    const std::string& id = c.as_string();
    const char v = id == "MC" ? '0' : id[1];
    if (values.find(v) != std::string::npos) ++n;
  }
  return n;
}

bool has(const Value& cards, const std::string& id) { return contains_string(cards, id); }

struct Tally {
  int rounds = 0;
  int ties = 0;
};

// Expected points per side from the final state of a one-round game.
std::array<int, 2> expected_points(const Value& s, const std::string& challenge, Tally& tally) {
  const auto& tricks = s.find("tricks_won")->as_array();
  const int t0 = static_cast<int>(tricks[0].as_int()), t1 = static_cast<int>(tricks[1].as_int());
  const auto& captured = s.find("captured")->as_array();
  const int mc = has(captured[0], "MC") ? 0 : has(captured[1], "MC") ? 1 : -1;
  std::array<int, 2> p{};
  auto decide = [&](int a, int b, bool most) {
    if (a == b) {
      ++tally.ties;
      if (mc >= 0) p[mc] = 1;  // LC-5.2
      return;
    }
    p[(most ? a > b : a < b) ? 0 : 1] = 1;
  };
  const int players = static_cast<int>(s.get_int("players", 4));
  if (challenge == "betrayal") {
    // LC-7.3 / LC-11.5: a trick holding the winner's reference family is invalid.
    std::array<int, 2> valid{};
    const auto& refs = s.find("references")->as_array();
    const auto& won = s.find("won_families")->as_array();
    for (int seat = 0; seat < players; ++seat) {
      const int family = *parse_card(refs[seat].as_string()) / 9;
      for (const auto& fams : won[seat].as_array())
        if (!(fams.as_int() & (1 << family))) ++valid[seat % 2];
    }
    decide(valid[0], valid[1], true);
  } else if (challenge == "capitano") {
    decide(t0, t1, true);
  } else if (challenge == "carita") {
    decide(t0, t1, false);
  } else if (challenge == "figura") {
    const int bidder = static_cast<int>(s.get_int("bidder", -1));
    const int bid = static_cast<int>(s.get_int("bid", 0));
    if ((bidder % 2 == 0 ? t0 : t1) >= bid) p[bidder % 2] = 1;
  } else if (challenge == "mangia_cake") {
    if (mc >= 0) p[mc] = 1;
  } else if (challenge == "minions") {
    decide(count_in(captured[0], "012"), count_in(captured[1], "012"), true);
  } else if (challenge == "revenge") {
    decide(count_in(captured[0], "4"), count_in(captured[1], "4"), false);
  } else if (s.get_int("elector", -1) >= 0) {
    // LC-6.7 majority of the tricks, or two points to the other side.
    const int side = static_cast<int>(s.get_int("elector", 0)) % 2;
    const int total = static_cast<int>(s.get_int("total_tricks", 0));
    if (2 * (side == 0 ? t0 : t1) > total) {
      p[side] = 1;
    } else {
      p[1 - side] = 2;
    }
  } else {
    decide(t0, t1, true);  // LC-5.1
  }
  ++tally.rounds;
  return p;
}

void check_scoring(int players, const std::string& challenge, bool election, int games,
                   Tally& tally) {
  Rng rng(99);
  std::vector<Action> legal;
  for (int g = 0; g < games; ++g) {
    Value options = Value::obj({{"rounds", 1}, {"election", election}});
    if (challenge == "classic") {
      options.set("format", "classic");
    } else {
      options.set("challenge", challenge);
    }
    Table t(players, options, static_cast<std::uint64_t>(g + 1));
    while (!t.game->is_over()) {
      const SeatMask mask = t.game->to_act();
      Seat seat = 0;
      while (!(mask & seat_bit(seat))) ++seat;
      t.game->legal_actions(seat, legal);
      REQUIRE_FALSE(t.game->apply(seat, legal[rng.below(static_cast<std::uint32_t>(legal.size()))],
                                  nullptr));
    }
    const Value state = t.game->full_state();
    INFO(challenge, " election ", election, " ", state.debug_string());
    const auto expected = expected_points(state, challenge, tally);
    const auto scores = t.game->scores();
    CHECK(scores[0] == expected[0]);
    CHECK(scores[1] == expected[1]);
    CHECK(t.view(0).find("round_result") != nullptr);
  }
}

}  // namespace

TEST_CASE("LC-5.1 LC-5.2 LC-5.3 LC-6.7 round scoring, default and with the Election") {
  Tally tally;
  for (int players : {2, 4}) {
    for (bool election : {false, true}) {
      check_scoring(players, "classic", election, 40, tally);
      check_scoring(players, "anarchy", election, 20, tally);
    }
  }
  CHECK(tally.ties > 0);  // the Mangia-Cake tie-break was exercised
}

TEST_CASE("LC-7.3 LC-7.5 LC-7.6 LC-7.10 LC-7.12 LC-7.13 LC-7.15 LC-11.5 LC-11.12 challenge scoring") {
  for (int players : {2, 4}) {
    for (const char* c : {"betrayal", "capitano", "carita", "figura", "minions", "revenge",
                          "mangia_cake"}) {
      if (players == 4 && std::string(c) == "mangia_cake") continue;
      Tally tally;
      for (bool election : {false, true}) check_scoring(players, c, election, 30, tally);
      CHECK(tally.rounds > 0);
    }
  }
}

TEST_CASE("LC-11.5 Betrayal: reference cards are revealed when the round is scored") {
  Table t(4, Value::obj({{"challenge", "betrayal"}, {"rounds", 1}, {"dealer", 0}}));
  CHECK(t.view(0).find("references") == nullptr);
  Rng rng(1);
  std::vector<Action> legal;
  while (!t.game->is_over()) {
    const SeatMask mask = t.game->to_act();
    Seat seat = 0;
    while (!(mask & seat_bit(seat))) ++seat;
    t.game->legal_actions(seat, legal);
    REQUIRE_FALSE(t.game->apply(seat, legal[0], nullptr));
  }
  const Value v = t.view(-1);
  REQUIRE(v.find("references") != nullptr);
  for (const auto& r : v.find("references")->as_array()) {
    CHECK(r.as_string()[1] == '1');
    CHECK_FALSE(t.secret_to(-1, r.as_string()));
  }
}
