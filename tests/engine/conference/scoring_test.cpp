// SPDX-License-Identifier: AGPL-3.0-or-later
// Conference scenarios for the Fool (CO-5), the discard (CO-3.3), card points
// (CO-1.4), scoring (CO-9) and the arithmetic of CO-A.
#include <doctest/doctest.h>

#include "tests/engine/conference/helpers.h"

using namespace conference_test;

namespace {

// Seat 0 holds T1..T19 and trumps every trick, so side 0 (seats 0+1) wins all
// 19 tricks. The Fool is with `fool_seat`. Dealer 3 (side 1) discards W1 (an
// Ace, 5) and W2 (1).
Deal dominate(int fool_seat) {
  Deal d;
  d.dealer = 3;
  d.hands[0] = cards("T1-19");
  d.hands[1] = cards("T20 T21");
  d.hands[fool_seat].push_back("FOOL");
  d.hands[3] = cards("W1 W2 W3 W4 W5 W6 W7 W8 W9 W10 WJ WC WQ WK");
  return d;
}

Value result_of(const Table& t) {
  const Value view = t.view();
  const Value* last = view.find("last_hand");
  REQUIRE(last);
  REQUIRE_FALSE(last->is_null());
  return *last;
}

std::vector<std::int64_t> ints(const Value& v) {
  std::vector<std::int64_t> out;
  for (const auto& x : v.as_array()) out.push_back(x.as_int());
  return out;
}

}  // namespace

TEST_CASE("CO-1.4 CO-3.3 CO-9.1 CO-9.2 the discard counts for the dealer's side, Aces are worth 5") {
  Deal d = dominate(1);
  Table t(d, Value::obj({{"hands", 1}}));
  t.discards({"W1", "W2"});
  t.run_first_legal("play");
  REQUIRE(t.game->is_over());
  const Value r = result_of(t);
  // Side 0 wins every trick and keeps its Fool: 146 - 6 card points and 19 tricks.
  CHECK(ints(*r.find("tricks")) == std::vector<std::int64_t>{19, 0});
  CHECK(ints(*r.find("card_points")) == std::vector<std::int64_t>{140, 6});
  CHECK(ints(*r.find("hand_points")) == std::vector<std::int64_t>{159, 6});
  // CO-9.2: the side that makes 83 scores the difference.
  CHECK(ints(*r.find("awarded")) == std::vector<std::int64_t>{153, 0});
  CHECK(t.game->scores() == std::vector<int>{153, 153, 0, 0});
  CHECK(t.game->winners() == std::vector<Seat>{0, 1});
  CHECK(id_set(*r.find("discard")) == std::set<std::string>{"W1", "W2"});
  // CO-5.2: the owner's side won the Fool's trick, so nothing is paid.
  CHECK(r.find("fool")->get_int("owner", -1) == 1);
  CHECK(r.find("fool")->find("paid") == nullptr);
}

TEST_CASE("CO-5.1 CO-5.2 CO-5.3 the Fool's side pays its cheapest won card to the trick's winners") {
  Deal d = dominate(1);
  d.hands[0] = cards("T1-19");
  d.hands[1] = cards("FOOL T21");
  d.hands[2] = cards("T20");
  Table t(d, Value::obj({{"hands", 1}}));
  t.discards({"W1", "W2"});
  // Trick 1: T1, the Fool, T20 wins for side 1; seat 3 has no trump.
  t.play_as(0, "T1");
  t.play_as(1, "FOOL");
  // CO-5.1: the Fool lies beside its owner at once, in every view.
  for (Seat s = -1; s < 4; ++s) {
    const Value view = t.view(s);
    const Value* fool = view.find("fool");
    REQUIRE_FALSE(fool->is_null());
    CHECK(fool->get_int("owner", -1) == 1);
  }
  t.play_as(2, "T20");
  const std::string seat3_card = t.legal(3).front().get_string("card", "");
  t.play_as(3, seat3_card);
  CHECK(t.view().find("tricks")->as_array()[0].get_int("winner", -1) == 2);
  t.run_first_legal("play");
  const Value r = result_of(t);
  CHECK(ints(*r.find("tricks")) == std::vector<std::int64_t>{18, 1});
  // The cheapest card of side 0's tricks: 1 point, first in id order: E2 (E1 is an Ace).
  CHECK(r.find("fool")->get_string("paid", "") == "E2");
  CHECK(r.find("fool")->get_int("paid_to_side", -1) == 1);
  // CO-5.3: side 1 has trick 1 (T1 5, T20 1, seat 3's card) plus E2, plus the discard 6.
  const int side1 = 5 + 1 + points(seat3_card) + 1 + 6;
  CHECK(ints(*r.find("card_points")) == std::vector<std::int64_t>{146 - side1, side1});
  CHECK(ints(*r.find("hand_points")) == std::vector<std::int64_t>{146 - side1 + 18, side1 + 1});
}

TEST_CASE("CO-5.2 a side that won no trick gives the Fool itself; the discard is no trick") {
  Deal d = dominate(2);
  Table t(d, Value::obj({{"hands", 1}}));
  t.discards({"W1", "W2"});
  t.run_first_legal("play");
  const Value r = result_of(t);
  CHECK(ints(*r.find("tricks")) == std::vector<std::int64_t>{19, 0});
  CHECK(r.find("fool")->get_int("owner", -1) == 2);
  CHECK(r.find("fool")->get_string("paid", "") == "FOOL");
  CHECK(r.find("fool")->get_int("paid_to_side", -1) == 0);
  CHECK(ints(*r.find("card_points")) == std::vector<std::int64_t>{140, 6});
}

TEST_CASE("CO-A CO-9.1 CO-9.2 CO-9.3 every hand adds up, and game points follow the contract") {
  struct Case {
    Value options;
    int total;  // hand points of both sides; 0: varies
    int contract;
  };
  const Case cases[] = {
      {Value::object(), 165, 83},
      {Value::obj({{"good_evil", "trumps"}}), 167, 84},
      {Value::obj({{"good_evil", "allegiance"}}), 0, 0},
      {Value::obj({{"gallowglass", true}}), 0, 83},
  };
  for (const auto& c : cases) {
    CAPTURE(c.options.debug_string());
    int nobody_scored = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      Value options = c.options;
      options.set("hands", 2);
      Table t(options, seed);
      CHECK(t.view().find("contract")->is_null() == (c.contract == 0));
      if (c.contract) CHECK(t.view().get_int("contract", 0) == c.contract);
      std::vector<int> game(2, 0);
      while (!t.game->is_over()) {
        t.run_first_legal("discard");
        t.run_first_legal("gallowglass");
        // Random but legal play keeps the splits varied.
        casa::Rng rng(seed);
        while (!t.game->is_over() && t.phase() == "play") {
          const Seat s = t.actor();
          std::vector<Action> actions;
          t.game->legal_actions(s, actions);
          REQUIRE_FALSE(t.game->apply(s, actions[rng.below(static_cast<std::uint32_t>(actions.size()))], nullptr));
        }
        const Value r = result_of(t);
        const auto hp = ints(*r.find("hand_points"));
        const auto cp = ints(*r.find("card_points"));
        const auto tr = ints(*r.find("tricks"));
        const auto aw = ints(*r.find("awarded"));
        CHECK(tr[0] + tr[1] == 19);
        CHECK(hp[0] == cp[0] + tr[0]);
        CHECK(hp[1] == cp[1] + tr[1]);
        if (c.total) CHECK(hp[0] + hp[1] == c.total);
        for (int s = 0; s < 2; ++s) {
          const int margin = static_cast<int>(hp[s] - hp[1 - s]);
          const bool scores = c.contract ? hp[s] >= c.contract : margin > 0;
          CHECK(aw[s] == (scores ? margin : 0));
          game[s] += static_cast<int>(aw[s]);
        }
        if (aw[0] == 0 && aw[1] == 0) ++nobody_scored;
        CHECK(ints(*t.view().find("game_points")) == std::vector<std::int64_t>{game[0], game[1]});
        if (!t.game->is_over()) t.act(t.actor(), Value::obj({{"type", "deal"}}));
      }
    }
    // CO-9.2: with Gallowglass both sides can miss the contract.
    if (c.options.find("gallowglass")) CHECK(nobody_scored > 0);
  }
}

TEST_CASE("CO-9.4 a tie after the set hands plays on, one hand at a time, until it breaks") {
  int ties_seen = 0;
  for (std::uint64_t seed = 1; seed <= 60 && ties_seen < 2; ++seed) {
    Table t(Value::obj({{"gallowglass", true}, {"hands", 1}}), seed);
    int hands = 0;
    while (!t.game->is_over()) {
      t.run_first_legal("discard");
      t.run_first_legal("gallowglass");
      t.run_first_legal("play");
      ++hands;
      const auto gp = ints(*t.view().find("game_points"));
      if (gp[0] == gp[1]) {
        CHECK_FALSE(t.game->is_over());
        CHECK(t.phase() == "deal");
        CHECK(t.game->winners().empty());
        t.act(t.actor(), Value::obj({{"type", "deal"}}));
        CHECK(t.view().get_int("hand_number", 0) == hands + 1);
      } else {
        CHECK(t.game->is_over());
      }
    }
    if (hands > 1) ++ties_seen;
    const auto gp = ints(*t.view().find("game_points"));
    CHECK(gp[0] != gp[1]);
    const int winner_side = gp[0] > gp[1] ? 0 : 1;
    CHECK(t.game->winners() == std::vector<Seat>{2 * winner_side, 2 * winner_side + 1});
  }
  CHECK(ties_seen > 0);
}
