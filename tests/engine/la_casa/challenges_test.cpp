// SPDX-License-Identifier: AGPL-3.0-or-later
// Scenario tests of the Election (LC-6), the Challenge cards (LC-7) and the fine
// points (LC-11), each on a stacked deck through the public interface.
#include <doctest/doctest.h>

#include "engine/bots.h"
#include "engine/rng.h"
#include "tests/engine/la_casa/table_support.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::testing;

namespace {

int last_winner(const Table& t) {
  return static_cast<int>(t.view(0).find("last_trick")->get_int("winner", -1));
}

Value four_hands() {
  return deck4(3,
                               {Cards{"K9", "K1", "M1", "M2", "M3", "F1", "F2"},
                                Cards{"K2", "MC", "G1", "M4", "F3", "F4", "F5"},
                                Cards{"G2", "M5", "M6", "F6", "F7", "F8", "F9"},
                                Cards{"K5", "K3", "K4", "M7", "M8", "M9", "G3"}},
                               Cards{"G4"});
}

}  // namespace

TEST_CASE("LC-6.1 LC-6.2 LC-6.3 LC-6.4 LC-10.2 Election round one: elect, take, discard face down") {
  Table t(4, Value::obj({{"format", "classic"}, {"election", true}, {"dealer", 3},
                         {"deck", four_hands()}}));
  CHECK(t.phase() == "election");
  CHECK(t.view(0).find("election_state")->get_string("nominated", "") == "guns");
  CHECK(t.view(0).find("ruling_family")->is_null());
  CHECK(t.legal_types(0) ==
        std::vector<std::string>{R"({"type":"elect","family":"guns"})", R"({"type":"pass"})"});
  CHECK(t.refuse(0, action("elect", "family", "masks")) == "illegal_action");
  t.act(0, action("pass"));
  t.act(1, action("elect", "family", "guns"));
  CHECK(t.phase() == "election_discard");
  CHECK(t.view(1).find("hand_sizes")->as_array()[1].as_int() == 8);
  CHECK(t.hand(1).size() == 8);  // G4 taken into hand
  t.act(1, action("discard", "card", "F5"));
  const Value v = t.view(0);
  CHECK(v.get_string("ruling_family", "") == "guns");
  CHECK(v.get_int("leader", -1) == 1);  // the elector leads
  CHECK(v.find("casa")->find("top")->is_null());
  CHECK(v.find("casa")->get_int("count", 0) == 9);
  CHECK(t.view(1).find("election_state")->get_string("discard", "") == "F5");
  CHECK(t.secret_to(0, "F5"));
  CHECK_FALSE(t.secret_to(1, "F5"));
  CHECK_FALSE(contains_string(t.view(2), "F5"));
  CHECK(t.phase() == "play");
}

TEST_CASE("LC-6.5 LC-6.7 Election round two: another family; the dealer must elect") {
  Table t(4, Value::obj({{"format", "classic"}, {"election", true}, {"dealer", 3},
                         {"deck", four_hands()}, {"rounds", 1}}));
  for (Seat s : {0, 1, 2, 3}) t.act(s, action("pass"));
  CHECK(t.view(0).find("election_state")->get_int("round", 0) == 2);
  CHECK(t.view(0).find("casa")->find("top")->is_null());  // turned face down
  CHECK(t.refuse(0, action("elect", "family", "guns")) == "illegal_action");
  for (Seat s : {0, 1, 2}) t.act(s, action("pass"));
  std::string why;
  CHECK(t.refuse(3, action("pass"), &why) == "illegal_action");
  CHECK(why == "The dealer must elect a family.");
  t.act(3, action("elect", "family", "masks"));
  CHECK(t.view(0).get_string("ruling_family", "") == "masks");
  CHECK(t.view(0).get_int("leader", -1) == 3);
  CHECK(t.hand(3).size() == 7);  // round two takes no card
  CHECK(t.phase() == "play");
}

TEST_CASE("LC-6.2 LC-6.8 LC-11.11 Mangia-Cake nominated: no Election; dealer's left names Cousins") {
  const Value deck = deck4(3, {Cards{}, Cards{}, Cards{}, Cards{}}, Cards{"MC"});
  Table t(4, Value::obj({{"challenge", "cousins"}, {"election", true}, {"dealer", 3},
                         {"deck", deck}}));
  CHECK(t.view(0).find("ruling_family")->is_null());
  CHECK(t.view(0).find("election_state") == nullptr);
  CHECK(t.phase() == "name_cousins");
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{0});
  CHECK(t.legal_types(0).size() == 4);  // any of the four families
  t.act(0, action("name_family", "family", "fists"));
  CHECK(t.view(0).get_string("cousins", "") == "fists");
  CHECK(t.view(0).get_int("leader", -1) == 0);
}

TEST_CASE("LC-6.6 LC-6.8 two players: the non-dealer speaks first; discard from the hand only") {
  Value deck = Value::array();
  for (int c = 0; c < kDeckSize; ++c) deck.push(card_id(c));
  Table t(2, Value::obj({{"format", "classic"}, {"election", true}, {"dealer", 1}, {"deck", deck}}));
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{0});
  t.act(0, action("elect", "family", "fists"));  // F6 is nominated
  CHECK(t.hand(0).size() == 9);
  CHECK(t.refuse(0, action("discard", "card", card_id(24))) == "illegal_action");  // tableau
  t.act(0, action("discard", "card", "F6"));  // the card just taken may go
  CHECK(t.hand(0).size() == 8);
  CHECK(t.view(0).get_int("leader", -1) == 0);
}

TEST_CASE("LC-6.1 challenges that select the Ruling Family hold an Election; others do not") {
  CHECK(Table(4, Value::obj({{"challenge", "carita"}, {"election", true}})).phase() ==
        "election");
  CHECK(Table(4, Value::obj({{"challenge", "figura"}, {"election", true}})).phase() == "bidding");
  CHECK(Table(4, Value::obj({{"challenge", "capitano"}, {"election", true}})).phase() == "play");
  CHECK(Table(4, Value::obj({{"challenge", "betrayal"}, {"election", true}})).phase() == "play");
}

TEST_CASE("LC-7.1 Anarchy: nobody has to follow") {
  Table t(4, Value::obj({{"challenge", "anarchy"}, {"dealer", 3}, {"deck", four_hands()}}));
  t.play(0, "K9");
  t.play(1, "M4");  // holds K2
  t.play(2, "F6");
  t.play(3, "M7");
  CHECK(last_winner(t) == 0);
}

TEST_CASE("LC-7.2 LC-11.4 Bandits: Bruto players take a card and put one face down") {
  const Value deck = deck4(3,
                           {Cards{"K9", "G1", "M1", "M2", "M3", "F1", "F2"},
                            Cards{"K1", "G2", "G3", "M4", "F3", "F4", "F5"},
                            Cards{"K8", "M5", "M6", "F6", "F7", "F8", "G4"},
                            Cards{"K2", "K3", "K4", "M7", "M8", "M9", "G5"}},
                           Cards{"F9"});
  Table t(4, Value::obj({{"challenge", "bandits"}, {"dealer", 3}, {"deck", deck}}));
  t.play(0, "K9");
  t.play(1, "K1");
  t.play(2, "K8");
  t.play(3, "K2");
  // Reverse order of play: seat 3's K2 first; Brutos cannot be taken.
  CHECK(t.phase() == "steal");
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{3});
  CHECK(t.legal_types(3) == std::vector<std::string>{R"({"type":"no_steal"})",
                                                     R"({"type":"steal","card":"K9"})",
                                                     R"({"type":"steal","card":"K8"})"});
  t.act(3, action("steal", "card", "K9"));
  CHECK(t.phase() == "give");
  t.act(3, action("give", "card", "M7"));
  // Seat 1's K1: the face-down M7 cannot be taken.
  CHECK(t.legal_types(1) == std::vector<std::string>{R"({"type":"no_steal"})",
                                                     R"({"type":"steal","card":"K8"})"});
  t.act(1, action("no_steal"));
  // The winner was fixed before the exchanges: seat 0 captures the changed trick.
  CHECK(last_winner(t) == 0);
  CHECK(t.view(0).get_int("leader", -1) == 0);
  const Value state = t.game->full_state();
  CHECK(contains_string(state.find("captured")->as_array()[0], "M7"));
  CHECK_FALSE(contains_string(state.find("captured")->as_array()[0], "K9"));
  CHECK(contains_string(t.view(3).find("hand")->as_array(), "K9"));
  // Only the placer knows the face-down card.
  CHECK(contains_string(t.view(3).find("last_trick")->as_object()[0].second, "M7"));
  CHECK_FALSE(contains_string(t.view(0), "M7"));
  CHECK(t.secret_to(0, "M7"));
  CHECK_FALSE(t.secret_to(3, "M7"));
}

TEST_CASE("LC-7.4 LC-11.3 LC-4.7 Bruto: eliminations; the lead family stays; earliest survivor") {
  const Value deck_ok = deck4(3,
                              {Cards{"K5", "K1", "G3", "M1", "M3", "F1", "F4"},
                               Cards{"M2", "G1", "M4", "F5", "F6", "F7", "G2"},
                               Cards{"M7", "G5", "M5", "M6", "F8", "F9", "F2"},
                               Cards{"F3", "G4", "G6", "G7", "G8", "M8", "M9"}},
                              Cards{"G9"});
  Table t(4, Value::obj({{"challenge", "bruto"}, {"dealer", 3}, {"deck", deck_ok}}));
  t.play(0, "K5");
  t.play(1, "M2");  // a Bruto: may eliminate
  CHECK(t.phase() == "eliminate");
  CHECK(t.legal_types(1) == std::vector<std::string>{R"({"type":"no_elimination"})",
                                                     R"({"type":"eliminate","card":"K5"})"});
  t.act(1, action("eliminate", "card", "K5"));
  CHECK(t.view(0).get_string("lead_family", "") == "knives");
  t.play(2, "M7");
  t.play(3, "F3");
  // No Knife or Gun survives: the Masks of the earliest survivor (M2) decide; M7 wins.
  CHECK(last_winner(t) == 2);
  CHECK(t.view(0).get_int("leader", -1) == 2);
  const Value state = t.game->full_state();
  CHECK(contains_string(*state.find("out"), "K5"));
  CHECK_FALSE(contains_string(state.find("captured")->as_array()[0], "K5"));
  // A led Bruto eliminates nothing.
  t.play(2, "F2");
  CHECK(t.phase() == "play");
}

TEST_CASE("LC-7.5 LC-11.2 Capitano: a 5 sets the Ruling Family at once, across tricks") {
  const Value deck = deck4(3,
                           {Cards{"K3", "K1", "M1", "M2", "M3", "F1", "F2", "F3", "F4"},
                            Cards{"G5", "G1", "G2", "M4", "F5", "F6", "F7", "F8", "F9"},
                            Cards{"K9", "K2", "M6", "G3", "G4", "G6", "G7", "G8", "G9"},
                            Cards{"M5", "K4", "K6", "K7", "K8", "M7", "M8", "M9", "MC"}},
                           Cards{"K5"}, 9);
  Table t(4, Value::obj({{"challenge", "capitano"}, {"dealer", 3}, {"deck", deck}}));
  CHECK(t.view(0).find("ruling_family")->is_null());
  CHECK(t.view(0).find("casa")->find("top")->is_null());  // no Selection
  t.play(0, "K3");
  t.play(1, "G5");
  CHECK(t.view(0).get_string("ruling_family", "") == "guns");
  t.play(2, "K9");
  CHECK(t.refuse(3, action("play", "card", "M5")) == "illegal_action");  // holds Knives
  t.play(3, "K4");
  CHECK(last_winner(t) == 1);  // G5 rules
  t.play(1, "F6");
  t.play(2, "G3");  // no Fists: a Gun, ruling when played
  t.play(3, "M5");  // no Fists: Masks rule now
  t.play(0, "F1");
  CHECK(t.view(0).get_string("ruling_family", "") == "masks");
  CHECK(last_winner(t) == 3);  // judged with the Ruling Family in force at the end
}

TEST_CASE("LC-7.7 LC-11.7 Cards on the Table: a hand card goes face up after each play") {
  Table t(4, Value::obj({{"challenge", "cards_on_the_table"}, {"dealer", 3},
                         {"deck", four_hands()}}));
  t.play(0, "K9");
  CHECK(t.phase() == "reveal");
  CHECK(t.view(1).find("to_act")->as_array() == Value::Array{0});
  t.act(0, action("reveal", "card", "K1"));
  CHECK(t.view(2).find("face_up")->as_array()[0] == Value(Value::Array{"K1"}));
  t.play(1, "K2");
  t.act(1, action("reveal", "card", "M4"));
  t.play(2, "F6");
  t.act(2, action("reveal", "card", "M5"));
  t.play(3, "K5");
  t.act(3, action("reveal", "card", "K3"));
  CHECK(last_winner(t) == 0);
  // The face-up cards may be played and count for following.
  t.play(0, "M1");
  t.act(0, action("reveal", "card", "M2"));
  CHECK(t.refuse(1, action("play", "card", "F3")) == "illegal_action");
  t.play(1, "M4");  // its only Mask is face up
  CHECK(t.view(0).find("face_up")->as_array()[1].as_array().empty());
}

TEST_CASE("LC-7.8 LC-11.8 The Club: up to two cards set aside, ignored, then taken back") {
  Table t(4, Value::obj({{"challenge", "the_club"}, {"dealer", 3}, {"deck", four_hands()}}));
  CHECK(t.phase() == "set_aside");
  CHECK(t.legal_types(0).size() == 1 + 7 + 21);
  t.act(0, Value::obj({{"type", "set_aside"}, {"cards", Value::Array{"K9", "K1"}}}));
  CHECK(t.view(0).find("set_aside")->as_array() == Value::Array{"K1", "K9"});
  CHECK(t.view(1).find("set_aside_counts")->as_array()[0].as_int() == 2);
  CHECK(t.secret_to(1, "K1"));
  CHECK(t.refuse(1, Value::obj({{"type", "set_aside"}, {"cards", Value::Array{"K2", "G1", "M4"}}})) ==
        "illegal_action");
  t.act(1, Value::obj({{"type", "set_aside"}, {"cards", Value::Array{}}}));
  t.act(2, Value::obj({{"type", "set_aside"}, {"cards", Value::Array{"F9"}}}));
  t.act(3, Value::obj({{"type", "set_aside"}, {"cards", Value::Array{}}}));
  CHECK(t.phase() == "play");
  t.play(0, "M1");
  t.play(1, "M4");
  t.play(2, "M5");
  t.play(3, "M7");  // seat 3 leads
  t.play(3, "K5");
  t.play(0, "F1");  // its Knives are set aside: it need not follow
  t.play(1, "K2");
  t.play(2, "F6");
  // Seat 0 empties its hand: the set-aside cards come back at once.
  int guard = 0;
  while (t.hand(0).size() > 0 && ++guard < 40) {
    const Seat s = static_cast<Seat>(t.view(0).find("to_act")->as_array()[0].as_int());
    std::vector<Action> legal;
    t.game->legal_actions(s, legal);
    REQUIRE_FALSE(t.game->apply(s, legal[0], nullptr));
    if (s == 0 && t.view(0).find("set_aside")->as_array().empty()) break;
  }
  CHECK(t.view(0).find("set_aside")->as_array().empty());
  CHECK(t.hand(0) == Cards{"K1", "K9"});
}

TEST_CASE("LC-7.9 LC-2.5 Cousins: named by the dealer's left; rank between Ruling and lead") {
  Table t(4, Value::obj({{"challenge", "cousins"}, {"dealer", 3}, {"deck", four_hands()}}));
  CHECK(t.phase() == "name_cousins");
  CHECK(t.legal_types(0).size() == 3);  // not the Ruling Family
  CHECK(t.refuse(0, action("name_family", "family", "guns")) == "illegal_action");
  t.act(0, action("name_family", "family", "fists"));
  t.play(0, "K9");
  t.play(1, "K2");
  t.play(2, "F6");  // no Knives: a Cousin beats the lead family
  t.play(3, "K5");
  CHECK(last_winner(t) == 2);
}

TEST_CASE("LC-7.9 with an Election: the elector's left names the Cousins") {
  Table t(4, Value::obj({{"challenge", "cousins"}, {"election", true}, {"dealer", 3},
                         {"deck", four_hands()}}));
  t.act(0, action("pass"));
  t.act(1, action("pass"));
  t.act(2, action("elect", "family", "guns"));
  t.act(2, action("discard", "card", "F9"));
  CHECK(t.phase() == "name_cousins");
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{3});
}

TEST_CASE("LC-7.10 LC-11.17 Figura: the dealer opens, raises must exceed, the winner names") {
  Table t(4, Value::obj({{"challenge", "figura"}, {"dealer", 0}, {"deck", four_hands()}}));
  CHECK(t.phase() == "bidding");
  CHECK(t.refuse(0, action("pass")) == "illegal_action");
  CHECK(t.legal_types(0).size() == 7);  // 1..7
  t.act(0, action("bid", "tricks", 1));
  CHECK(t.refuse(1, action("bid", "tricks", 1)) == "illegal_action");
  t.act(1, action("bid", "tricks", 3));
  t.act(2, action("pass"));
  t.act(3, action("pass"));
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{0});  // the outbid dealer
  t.act(0, action("bid", "tricks", 4));
  t.act(1, action("pass"));
  CHECK(t.phase() == "name_ruling_family");
  CHECK(t.view(0).find("to_act")->as_array() == Value::Array{0});
  t.act(0, action("name_family", "family", "masks"));
  CHECK(t.view(0).get_string("ruling_family", "") == "masks");
  CHECK(t.view(0).get_int("leader", -1) == 0);
  CHECK(t.view(0).find("bidding")->get_int("bid", 0) == 4);
}

TEST_CASE("LC-7.11 LC-11.6 Kin: partners' cards of one family add up") {
  // Seats 1 and 3: K6 + K8 = 14 beats K4 + K5 = 9; the higher partner (K8) takes it.
  const Value a = deck4(3,
                        {Cards{"K4", "M1", "M2", "M3", "F1", "F2", "F3"},
                         Cards{"K6", "M4", "M5", "F4", "F5", "F6", "G1"},
                         Cards{"K5", "M6", "M7", "F7", "F8", "F9", "G2"},
                         Cards{"K8", "M8", "M9", "G3", "G5", "G6", "G7"}},
                        Cards{"G9"});
  Table t(4, Value::obj({{"challenge", "kin"}, {"dealer", 3}, {"deck", a}}));
  t.play(0, "K4");
  t.play(1, "K6");
  t.play(2, "K5");
  t.play(3, "K8");
  CHECK(last_winner(t) == 3);
  // Equal totals (K4 + K5 = 9 against K9): the earlier first card wins; K5 takes it.
  const Value b = deck4(3,
                        {Cards{"K4", "M1", "M2", "M3", "F1", "F2", "F3"},
                         Cards{"K9", "M4", "M5", "F4", "F5", "F6", "G1"},
                         Cards{"K5", "M6", "M7", "F7", "F8", "F9", "G2"},
                         Cards{"M8", "M9", "G3", "G5", "G6", "G7", "G8"}},
                        Cards{"G9"});
  Table u(4, Value::obj({{"challenge", "kin"}, {"dealer", 3}, {"deck", b}}));
  u.play(0, "K4");
  u.play(1, "K9");
  u.play(2, "K5");
  u.play(3, "M8");
  CHECK(last_winner(u) == 2);
}

TEST_CASE("LC-7.12 LC-11.12 Mangia-Cake (two players): face-up swap; round ends at its capture") {
  const Value deck = deck2(1,
                           {Cards{"MC", "K1", "K2", "K3", "M1", "M2", "M3", "F1"},
                            Cards{"G8", "K4", "K5", "K6", "M4", "M5", "M6", "F2"}},
                           {Cards{"F3", "F4", "F5", "F6", "F7"}, Cards{"G1", "G2", "G3", "G4", "G5"}},
                           {Cards{"K7", "K8", "K9", "M7", "M8"}, Cards{"M9", "F8", "F9", "G6", "G7"}},
                           Cards{"G9"}, 5);
  Table t(2, Value::obj({{"challenge", "mangia_cake"}, {"dealer", 1}, {"deck", deck},
                         {"rounds", 1}}));
  CHECK(t.view(0).get_string("ruling_family", "") == "guns");
  t.play(0, "MC");  // a Gun now
  CHECK(t.refuse(1, action("play", "card", "K4")) == "illegal_action");
  t.play(1, "G8");
  CHECK(t.game->is_over());
  CHECK(t.game->scores() == std::vector<int>{0, 1});
  CHECK(t.view(0).find("hand_sizes")->as_array()[0].as_int() == 7);  // cards left unplayed
  // A Mangia-Cake dealt face up swaps with the card under it.
  const Value swap = deck2(0, {Cards{}, Cards{}}, {Cards{"G1"}, Cards{}}, {Cards{"MC"}, Cards{}},
                           Cards{"G9"}, 5);
  Table s(2, Value::obj({{"challenge", "mangia_cake"}, {"dealer", 0}, {"deck", swap}}));
  CHECK(s.view(1).find("tableaux")->as_array()[0].as_array()[0].get_string("up", "") == "G1");
  CHECK(s.secret_to(1, "MC"));
}

TEST_CASE("LC-7.13 LC-4.9 Minions: the Mangia-Cake as Selection card forces a re-deal") {
  const Value deck = deck4(0, {Cards{}, Cards{}, Cards{}, Cards{}}, Cards{"MC"}, 9);
  Table t(4, Value::obj({{"challenge", "minions"}, {"dealer", 0}, {"deck", deck}}));
  const Value v = t.view(0);
  CHECK(v.get_int("round", 0) == 1);
  CHECK(v.get_string("challenge", "") == "minions");
  CHECK(v.get_int("dealer", -1) == 0);
  CHECK(v.find("casa")->get_string("top", "MC") != "MC");
  CHECK(t.game->full_state().get_int("deals", 0) >= 2);
  // Without the re-deal rule (Carita), the same deck keeps the Mangia-Cake on top.
  const Value plain = deck4(0, {Cards{}, Cards{}, Cards{}, Cards{}}, Cards{"MC"}, 7);
  Table c(4, Value::obj({{"challenge", "carita"}, {"dealer", 0}, {"deck", plain}}));
  CHECK(c.view(0).find("casa")->get_string("top", "") == "MC");
  CHECK(c.view(0).find("ruling_family")->is_null());
}

TEST_CASE("LC-7.14 LC-11.9 Pass the Buck: a card passed left, seen by the two only") {
  Table t(4, Value::obj({{"challenge", "pass_the_buck"}, {"dealer", 3}, {"deck", four_hands()}}));
  t.play(0, "K9");
  CHECK(t.phase() == "pass_card");
  auto events = t.act(0, action("pass_card", "card", "K1"));
  CHECK(contains_string(t.view(1).find("hand")->as_array(), "K1"));
  CHECK_FALSE(t.secret_to(0, "K1"));
  CHECK_FALSE(t.secret_to(1, "K1"));
  CHECK(t.secret_to(2, "K1"));
  for (const auto& e : events) {
    if (e.seats & seat_bit(2)) CHECK_FALSE(contains_string(e.body, "K1"));
    if (e.spectators) CHECK_FALSE(contains_string(e.body, "K1"));
  }
  t.play(1, "K1");  // the received card follows like any other
  t.act(1, action("pass_card", "card", "F3"));
  t.play(2, "F6");
  t.act(2, action("pass_card", "card", "F3"));
  t.play(3, "K5");
  // The last player passes to the leader for later tricks.
  CHECK(t.phase() == "pass_card");
  t.act(3, action("pass_card", "card", "K3"));
  CHECK(contains_string(t.view(0).find("hand")->as_array(), "K3"));
  CHECK(t.view(0).find("hand_sizes")->as_array() == Value::Array{6, 6, 6, 6});
}

TEST_CASE("LC-7.16 LC-11.10 Slap-Down: hidden simultaneous commits, shown only as a count") {
  Table t(4, Value::obj({{"challenge", "slap_down"}, {"dealer", 3}, {"deck", four_hands()}}));
  auto events = t.play(0, "K9");
  CHECK(t.view(1).get_string("lead_family", "") == "knives");
  CHECK(t.game->to_act() == (seat_bit(1) | seat_bit(2) | seat_bit(3)));
  CHECK(t.secret_to(1, "K9"));
  CHECK_FALSE(contains_string(t.view(1), "K9"));
  const Value sizes_before = *t.view(1).find("hand_sizes");
  t.play(2, "F6");
  CHECK(t.view(1).get_int("commits", 0) == 2);
  // Hand sizes do not tell who has committed: seat 2's card still counts in its
  // hand for everybody else until the reveal; seat 2 sees its own hand.
  CHECK(*t.view(1).find("hand_sizes") == sizes_before);
  CHECK(*t.view(3).find("hand_sizes") == sizes_before);
  CHECK(*t.game->view(casa::kSpectator).find("hand_sizes") == sizes_before);
  CHECK(t.view(2).find("hand_sizes")->as_array()[2].as_int() ==
        sizes_before.as_array()[2].as_int() - 1);
  CHECK(t.view(1).find("to_act")->as_array() == Value::Array{1, 2, 3});
  CHECK(t.view(2).find("to_act")->as_array() == Value::Array{1, 3});
  CHECK(t.view(2).get_string("my_commit", "") == "F6");
  CHECK(t.refuse(2, action("play", "card", "F7")) == "not_your_turn");
  CHECK(t.refuse(1, action("play", "card", "F3")) == "illegal_action");  // holds K2
  t.play(3, "K5");
  CHECK(t.secret_to(1, "K5"));
  t.play(1, "K2");
  CHECK(last_winner(t) == 0);
  CHECK_FALSE(t.secret_to(1, "K5"));
  // A led Mangia-Cake is announced as the Ruling Family.
  const Value deck = deck4(3, {Cards{"MC"}, Cards{}, Cards{}, Cards{}}, Cards{"G9"});
  Table u(4, Value::obj({{"challenge", "slap_down"}, {"dealer", 3}, {"deck", deck}}));
  u.play(0, "MC");
  CHECK(u.view(2).get_string("lead_family", "") == "guns");
}

TEST_CASE("the robot plays the Robot's rules of LC-8.4 with a hand") {
  Table t(4, Value::obj({{"format", "classic"}, {"dealer", 3}, {"deck", four_hands()}}));
  Rng rng(1);
  auto robot = [&](Seat s) {
    return t.game->encode_action(choose_bot_action(*t.game, s, "robot", rng)).debug_string();
  };
  CHECK(robot(0) == R"({"type":"play","card":"K9"})");  // leads its highest card
  t.play(0, "K9");
  t.play(1, "K2");
  CHECK(robot(2) == R"({"type":"play","card":"G2"})");  // cannot follow: its highest Gun
  t.play(2, "G2");
  CHECK(robot(3) == R"({"type":"play","card":"K3"})");  // K5 would not win: its lowest Knife
}
