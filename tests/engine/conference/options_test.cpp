// SPDX-License-Identifier: AGPL-3.0-or-later
// Conference scenarios for Good & Evil (CO-6), Attack & Defence (CO-7) and
// Gallowglass (CO-8).
#include <doctest/doctest.h>

#include "tests/engine/conference/helpers.h"

using namespace conference_test;

namespace {

std::vector<std::int64_t> ints(const Value& v) {
  std::vector<std::int64_t> out;
  for (const auto& x : v.as_array()) out.push_back(x.as_int());
  return out;
}

Value last_hand(const Table& t) {
  const Value view = t.view();
  REQUIRE_FALSE(view.find("last_hand")->is_null());
  return *view.find("last_hand");
}

Value trick(const Table& t, int index) { return t.view().find("tricks")->as_array().at(index); }

Deal eighty(int dealer = 3) {
  Deal d;
  d.dealer = dealer;
  d.eighty = true;
  return d;
}

}  // namespace

TEST_CASE("CO-6.1 without Good & Evil the deck has 78 cards and no GOOD or EVIL") {
  Table t(Value::object(), 3);
  const Value state = t.game->full_state();
  int cards = 0;
  for (const auto& hand : state.find("hands")->as_array()) {
    cards += static_cast<int>(hand.size());
    CHECK_FALSE(id_set(hand).count("GOOD"));
    CHECK_FALSE(id_set(hand).count("EVIL"));
  }
  CHECK(cards == 78);
  Action a;
  CHECK(t.game->decode_action(play("GOOD"), a)->code == "malformed_action");
  Table e(Value::obj({{"good_evil", "trumps"}}), 3);
  cards = 0;
  const Value full = e.game->full_state();
  for (const auto& hand : full.find("hands")->as_array())
    cards += static_cast<int>(hand.size());
  CHECK(cards == 80);
}

TEST_CASE("CO-6.2 GOOD and EVIL played by partners beat everything; the first one's player leads") {
  Deal d = eighty();
  d.hands[0] = cards("GOOD E1-10 T1-8");
  d.hands[1] = cards("EVIL EJ EC EQ EK A1-10 AJ AC AQ AK");
  d.hands[2] = cards("T9-21 F1-6");
  Table t(d, Value::obj({{"good_evil", "trumps"}}));
  t.discards({"F7", "F8", "F9", "F10"});
  t.play_as(0, "GOOD");
  // A trump was led: seat 1's only trump is EVIL.
  CHECK(t.legal_cards(1) == std::set<std::string>{"EVIL"});
  t.play_as(1, "EVIL");
  t.play_as(2, "T21");
  t.play_as(3, "W1");
  CHECK(trick(t, 0).get_int("winner", -1) == 0);
  CHECK(t.actor() == 0);
}

TEST_CASE("CO-6.2 GOOD and EVIL played by opponents cannot win; the first other card sets the suit") {
  Deal d = eighty();
  d.hands[0] = cards("GOOD T1-18");
  d.hands[1] = cards("E1-10 EJ EC EQ EK FOOL A1-4");
  d.hands[2] = cards("EVIL T19 T20 T21 A5-10 AJ AC AQ AK F1-5");
  SUBCASE("a suit card") {
    Table t(d, Value::obj({{"good_evil", "trumps"}}));
    t.discards({"F6", "F7", "F8", "F9"});
    t.play_as(0, "GOOD");
    t.play_as(1, "E5");
    t.play_as(2, "EVIL");
    t.play_as(3, "W9");
    // Earth, set by E5, decides: E5 beats the off-suit W9.
    CHECK(trick(t, 0).get_int("winner", -1) == 1);
  }
  SUBCASE("after the Fool") {
    Table t(d, Value::obj({{"good_evil", "trumps"}}));
    t.discards({"F6", "F7", "F8", "F9"});
    t.play_as(0, "GOOD");
    t.play_as(1, "FOOL");
    t.play_as(2, "EVIL");
    t.play_as(3, "W9");
    CHECK(trick(t, 0).get_int("winner", -1) == 3);
  }
  SUBCASE("alone, each is the lowest trump") {
    Table t(d, Value::obj({{"good_evil", "trumps"}}));
    t.discards({"F6", "F7", "F8", "F9"});
    t.play_as(0, "T1");
    t.play_as(1, "E5");
    t.play_as(2, "EVIL");
    t.play_as(3, "W1");
    CHECK(trick(t, 0).get_int("winner", -1) == 0);
    t.play_as(0, "GOOD");
    t.play_as(1, "E6");
    t.play_as(2, "T19");
    t.play_as(3, "W2");
    CHECK(trick(t, 1).get_int("winner", -1) == 2);
  }
}

TEST_CASE("CO-6.3(a) CO-6.3(b) the caller's partner must add the other card; it has no effect") {
  Deal d = eighty();
  d.hands[0] = cards("GOOD T1-18");
  d.hands[1] = cards("EVIL FOOL T19 T20 E1-10 EJ EC EQ EK A1");
  d.hands[2] = cards("T21 A2-10 AJ AC AQ AK F1-5");
  Table t(d, Value::obj({{"good_evil", "allegiance"}}));
  t.discards({"F6", "F7", "F8", "F9"});
  // (a) the first one carries a call, both offered.
  CHECK(t.is_legal(0, play_call("GOOD", "ours")));
  CHECK(t.is_legal(0, play_call("GOOD", "yours")));
  CHECK_FALSE(t.is_legal(0, play("GOOD")));
  CHECK(t.refuse(0, play("GOOD"))->code == "illegal_action");
  CHECK(t.is_legal(0, play("T1")));
  t.act(0, play_call("GOOD", "ours"));
  // GOOD "ours": seat 0's side scores Earth and Air.
  const Value view = t.view(2);
  CHECK(view.find("allegiance")->get_int("earth_air", -1) == 0);
  REQUIRE(view.find("calls")->size() == 1);
  CHECK(view.find("calls")->as_array()[0] ==
        Value::obj({{"seat", 0}, {"card", "GOOD"}, {"call", "ours"}, {"trick", 1},
                    {"earth_air_side", 0}}));
  // (b) not yet played: EVIL is seat 1's only legal card, not even the Fool.
  CHECK(t.legal(1) == std::vector<Value>{play("EVIL")});
  CHECK(t.refuse(1, play("FOOL"))->message.find("EVIL") != std::string::npos);
  t.act(1, play("EVIL"));
  t.play_as(2, "T21");
  t.play_as(3, "W1");
  const Value first = trick(t, 0);
  CHECK(first.find("plays")->as_array()[1] ==
        Value::obj({{"seat", 1}, {"card", "EVIL"}, {"no_effect", true}}));
  // No pairing: GOOD is judged alone, so T21 wins.
  CHECK(first.get_int("winner", -1) == 2);
  CHECK(t.view().find("calls")->size() == 1);
}

TEST_CASE("CO-6.3(b) a partner who already played takes the card back; the led suit stays") {
  Deal d = eighty();
  d.hands[0] = cards("EVIL E1-10 T1-8");
  d.hands[1] = cards("GOOD FOOL T9-15 A1-10");
  d.hands[2] = cards("EJ EC EQ EK T16-21 AJ AC AQ AK F1-5");
  Table t(d, Value::obj({{"good_evil", "allegiance"}}));
  t.discards({"F6", "F7", "F8", "F9"});
  t.play_as(0, "E5");
  t.act(1, play_call("GOOD", "yours"));
  // E5 went back to seat 0; EVIL took its place with no effect.
  Value view0 = t.view(0);
  CHECK(id_set(*view0.find("hand")).count("E5"));
  CHECK_FALSE(id_set(*view0.find("hand")).count("EVIL"));
  const Value current = *t.view().find("trick");
  CHECK(current.get_string("led", "") == "earth");
  CHECK(current.find("plays")->as_array()[0] ==
        Value::obj({{"seat", 0}, {"card", "EVIL"}, {"no_effect", true}}));
  CHECK(*current.find("replaced") == Value::obj({{"seat", 0}, {"card", "E5"}}));
  // Everyone saw E5 go back: it is no longer secret.
  for (Seat s = -1; s < 4; ++s) {
    const auto secret = t.game->secret_cards(s);
    CHECK(std::find(secret.begin(), secret.end(), "E5") == secret.end());
  }
  // GOOD "yours" from side 0: side 1 scores Earth and Air.
  CHECK(t.view().find("allegiance")->get_int("earth_air", -1) == 1);
  CHECK(t.legal_cards(2) == std::set<std::string>{"EJ", "EC", "EQ", "EK"});
  t.play_as(2, "EK");
  t.play_as(3, "W1");
  CHECK(trick(t, 0).get_int("winner", -1) == 1);  // the lone GOOD trumps
  CHECK(t.view().find("hand_sizes")->as_array()[0].as_int() == 18);
}

TEST_CASE("CO-6.3(b) the Fool too goes back to its owner's hand") {
  Deal d = eighty();
  d.hands[0] = cards("EVIL FOOL E1-9 T1-8");
  d.hands[1] = cards("GOOD T9-15 A1-10 E10");
  d.hands[2] = cards("EJ EC EQ EK T16-21 AJ AC AQ AK F1-5");
  Table t(d, Value::obj({{"good_evil", "allegiance"}}));
  t.discards({"F6", "F7", "F8", "F9"});
  t.play_as(0, "FOOL");
  CHECK(t.view().find("fool")->get_int("owner", -1) == 0);
  t.act(1, play_call("GOOD", "ours"));
  CHECK(t.view().find("fool")->is_null());
  CHECK(id_set(*t.view(0).find("hand")).count("FOOL"));
  CHECK(t.view().find("trick")->get_string("led", "") == "trump");
  t.play_as(2, "T16");
  t.play_as(3, "W1");
  CHECK(trick(t, 0).get_int("winner", -1) == 2);
}

TEST_CASE("CO-6.3(c) CO-6.3(e) an opponent's call re-affirms or changes the allegiance") {
  Deal d = eighty();
  d.hands[0] = cards("GOOD T1-18");
  d.hands[1] = cards("T19 T20 T21 FOOL E2 E5-10 EJ EC EQ EK A1-4");
  d.hands[2] = cards("EVIL A5-10 AJ AC AQ AK F1-8");
  d.hands[3] = cards("E1 E3 E4 F9 F10 FJ FC FQ FK W1-10 WJ WC WQ WK");
  for (const char* call : {"ours", "yours"}) {
    CAPTURE(call);
    Table t(d, Value::obj({{"good_evil", "allegiance"}, {"hands", 1}}));
    t.discards({"E1", "E3", "E4", "W3"});
    t.act(0, play_call("GOOD", "ours"));
    t.play_as(1, "T19");
    // (c) the opponent holding EVIL calls too.
    CHECK(t.legal(2) == std::vector<Value>{play_call("EVIL", "ours"), play_call("EVIL", "yours")});
    t.act(2, play_call("EVIL", call));
    const bool changed = std::string(call) == "yours";
    CHECK(t.view().find("allegiance")->get_int("earth_air", -1) == (changed ? 1 : 0));
    CHECK(t.view().find("calls")->size() == 2);
    t.play_as(3, "W4");
    CHECK(trick(t, 0).get_int("winner", -1) == 1);  // GOOD and EVIL by opponents cancel
    t.run_first_legal("play");
    const Value r = last_hand(t);
    CHECK(ints(*r.find("tricks")) == std::vector<std::int64_t>{19, 0});
    // Trumps 31 and the Fool 5 always count; side 0's suits are EA (49 after the
    // discard) or, after the change, FW (55). The discard uses the first call: W3 for side 1.
    if (changed) {
      CHECK(ints(*r.find("hand_points")) == std::vector<std::int64_t>{110, 1});
      CHECK(ints(*r.find("awarded")) == std::vector<std::int64_t>{109, 0});
    } else {
      CHECK(ints(*r.find("hand_points")) == std::vector<std::int64_t>{104, 1});
      CHECK(ints(*r.find("awarded")) == std::vector<std::int64_t>{103, 0});
    }
  }
}

TEST_CASE("CO-6.3(d) CO-6.3(e) one player with both: the second has no call; earlier tricks use the first call") {
  Deal d = eighty();
  d.hands[0] = cards("GOOD EVIL T1-17");
  d.hands[1] = cards("T18 T19 T20 T21 FOOL E1-10 EJ EC EQ EK");
  d.hands[2] = cards("A1-10 AJ AC AQ AK F1-4 FK");
  Table t(d, Value::obj({{"good_evil", "allegiance"}, {"hands", 1}}));
  t.discards({"F5", "F6", "F7", "F8"});
  t.play_as(0, "T1");
  t.play_as(1, "FOOL");
  t.play_as(2, "FK");
  t.play_as(3, "WK");
  CHECK(t.view().find("calls")->size() == 0);
  t.act(0, play_call("GOOD", "ours"));
  t.play_as(1, "T18");
  t.play_as(2, "A5");
  t.play_as(3, "W1");
  t.play_as(1, "E2");
  t.play_as(2, "A6");
  t.play_as(3, "W2");
  CHECK(t.is_legal(0, play("EVIL")));
  CHECK_FALSE(t.is_legal(0, play_call("EVIL", "ours")));
  t.play_as(0, "EVIL");
  CHECK(trick(t, 2).get_int("winner", -1) == 0);  // a lone EVIL still trumps
  t.run_first_legal("play");
  const Value r = last_hand(t);
  CHECK(ints(*r.find("tricks")) == std::vector<std::int64_t>{19, 0});
  // Trick 1's FK and WK are scored under the first call: nothing for side 0.
  CHECK(ints(*r.find("hand_points")) == std::vector<std::int64_t>{31 + 5 + 56 + 19, 4});
}

TEST_CASE("CO-6.3(e) with no call at all every card counts") {
  Deal d = eighty();
  d.hands[3] = cards("EK AK FK WK T1 T21 FOOL GOOD EVIL T2-15");
  d.extra = {};
  Table t(d, Value::obj({{"good_evil", "allegiance"}, {"hands", 1}}));
  CHECK(t.legal_cards(3) == id_set(ids_value(cards("GOOD EVIL T2-15"))));
  t.discards({"GOOD", "EVIL", "T2", "T3"});
  t.run_first_legal("play");
  const Value r = last_hand(t);
  CHECK(t.view().find("calls")->size() == 0);
  const auto hp = ints(*r.find("hand_points"));
  CHECK(hp[0] + hp[1] == 167);
}

TEST_CASE("CO-7.1 CO-7.2 CO-7.3 Attack & Defence: T21 and T20, 3-card packets, the dealer leads away from the partner") {
  for (int dealer : {0, 3}) {
    CAPTURE(dealer);
    Deal d;
    d.dealer = dealer;
    d.attack_defence = true;
    d.hands[dealer] = cards("T21");
    d.hands[dealer ^ 1] = cards("T20");
    Table t(d, Value::object());
    for (Seat s = 0; s < 4; ++s) {
      std::set<std::string> expected(d.full[s].begin(), d.full[s].end());
      if (s == dealer) expected.insert(d.full_extra.begin(), d.full_extra.end());
      CHECK(id_set(*t.view(s).find("hand")) == expected);
    }
    const Value ad = *t.view().find("attack_defence");
    CHECK(ad == Value::obj({{"driver", dealer}, {"catcher", dealer ^ 1}, {"T21", dealer},
                            {"T20", dealer ^ 1}}));
    // Who holds T21 and T20 is public.
    for (Seat s = -1; s < 4; ++s) {
      const auto secret = t.game->secret_cards(s);
      CHECK(std::find(secret.begin(), secret.end(), "T21") == secret.end());
      CHECK(std::find(secret.begin(), secret.end(), "T20") == secret.end());
    }
    CHECK(t.view().get_int("contract", 0) == 83);
    t.run_first_legal("discard");
    CHECK(t.actor() == dealer);
    const int step = dealer % 2 == 0 ? 3 : 1;
    CHECK(t.view().get_string("direction", "") == (step == 3 ? "right" : "left"));
    std::vector<Seat> order;
    for (int i = 0; i < 4; ++i) {
      order.push_back(t.actor());
      std::vector<Action> actions;
      t.game->legal_actions(t.actor(), actions);
      REQUIRE_FALSE(t.game->apply(t.actor(), actions[0], nullptr));
    }
    CHECK(order == std::vector<Seat>{dealer, (dealer + step) % 4, (dealer + 2 * step) % 4,
                                     (dealer + 3 * step) % 4});
  }
}

namespace {

// Gallowglass Fire: seats 1 and 2 hold only Earth courts (EJ, EQ); seat 2 holds
// all of Fire; seat 3 holds low Earth cards. Seat 0 has E9 E5 and 17 trumps.
Deal gallowglass_deal() {
  Deal d;
  d.dealer = 3;
  d.hands[0] = cards("E9 E5 T1-17");
  d.hands[1] = cards("EJ T18 T19 T20 T21 FOOL A1-10 AJ AC AQ");
  d.hands[2] = cards("EQ F1-10 FJ FC FQ FK AK W1 W2 W3");
  d.hands[3] = cards("E1 E2 E3 E4 E6 E7 E8 E10 EC EK W4-10 WJ WC");
  return d;
}

}  // namespace

TEST_CASE("CO-8.1 after the discard the dealer names a gallowglass suit or none") {
  Deal d = gallowglass_deal();
  Table t(d, Value::obj({{"gallowglass", true}}));
  t.discards({"W4", "W5"});
  CHECK(t.phase() == "gallowglass");
  CHECK(t.view().find("gallowglass")->is_null());
  CHECK(t.legal(3).size() == 5);
  CHECK(t.is_legal(3, Value::obj({{"type", "name_gallowglass"}, {"suit", "none"}})));
  for (Seat s = 0; s < 3; ++s) CHECK(t.legal(s).empty());
  SUBCASE("none") {
    t.act(3, Value::obj({{"type", "name_gallowglass"}, {"suit", "none"}}));
    CHECK(t.view().get_string("gallowglass", "") == "none");
    t.play_as(0, "E9");
    t.play_as(1, "EJ");
    CHECK(t.legal_cards(2) == std::set<std::string>{"EQ"});
  }
  SUBCASE("fire") {
    t.act(3, Value::obj({{"type", "name_gallowglass"}, {"suit", "fire"}}));
    CHECK(t.view().get_string("gallowglass", "") == "fire");
    CHECK(t.actor() == 0);
  }
}

TEST_CASE("CO-8.2 CO-8.3 a gallowglass card stands in for the led suit; its trick scores no card points") {
  Deal d = gallowglass_deal();
  Table t(d, Value::obj({{"gallowglass", true}, {"hands", 1}}));
  t.discards({"W4", "W5"});
  t.act(3, Value::obj({{"type", "name_gallowglass"}, {"suit", "fire"}}));
  SUBCASE("equal rank: the later card ranks higher") {
    t.play_as(0, "E9");
    t.play_as(1, "FOOL");
    t.act(2, play_gg("F9"));
    t.play_as(3, "E8");
    CHECK(trick(t, 0).get_int("winner", -1) == 2);
  }
  SUBCASE("equal rank, the real card later") {
    t.play_as(0, "E5");
    t.play_as(1, "FOOL");
    t.act(2, play_gg("F10"));
    t.play_as(3, "E10");
    CHECK(trick(t, 0).get_int("winner", -1) == 3);
  }
  SUBCASE("a whole hand") {
    t.play_as(0, "E9");
    t.play_as(1, "EJ");
    // Seat 2's Earth is all courts: Fire may go, only as gallowglass.
    CHECK(t.is_legal(2, play_gg("FK")));
    CHECK(t.is_legal(2, play("EQ")));
    CHECK_FALSE(t.is_legal(2, play("FK")));
    CHECK(t.refuse(2, play("FK"))->code == "illegal_action");
    t.act(2, play_gg("FK"));
    // Seat 3 holds plain Earth cards: no gallowglass for it (and it has no Fire).
    for (const auto& a : t.legal(3)) CHECK(a.find("as_gallowglass") == nullptr);
    CHECK(t.refuse(3, play_gg("EK"))->code == "illegal_action");
    t.play_as(3, "EC");
    const Value first = trick(t, 0);
    CHECK(first.get_int("winner", -1) == 2);
    CHECK(first.get_bool("by_gallowglass", false));
    CHECK(first.find("plays")->as_array()[2] ==
          Value::obj({{"seat", 2}, {"card", "FK"}, {"as_gallowglass", true}}));
    t.run_first_legal("play");
    const Value r = last_hand(t);
    CHECK(ints(*r.find("tricks")) == std::vector<std::int64_t>{18, 1});
    // Fire scores nothing anywhere (118 points left); trick 1 (E9, EJ, EC) scores
    // nothing for side 1; the discard W4 W5 counts for side 1.
    CHECK(ints(*r.find("card_points")) == std::vector<std::int64_t>{118 - 2 - 6, 2});
    CHECK(ints(*r.find("hand_points")) == std::vector<std::int64_t>{128, 3});
    CHECK(ints(*r.find("awarded")) == std::vector<std::int64_t>{125, 0});
  }
}
