// SPDX-License-Identifier: AGPL-3.0-or-later
// Conference scenarios for cards and ids (CO-1), seats and hands (CO-2), the
// deal and discard (CO-3), play (CO-4), options (CO-10) and views (CO-11).
#include <doctest/doctest.h>

#include "tests/engine/conference/helpers.h"
#include "engine/bots.h"
#include "tests/engine/support/properties.h"

using namespace conference_test;

namespace {

// Dealer 3, eldest 0. Seat 0 holds E1 E3-EQ, A1 A2, T1-4 and the Fool; seat 1
// E2 EK, Air, T5-9; seat 2 Fire and T10-14; seat 3 Water and T15-21.
Deal suits_deal() {
  Deal d;
  d.dealer = 3;
  d.hands[0] = cards("E1 E3-10 EJ EC EQ A1 A2 T1-4 FOOL");
  d.hands[1] = cards("E2 EK A3-10 AJ AC AQ AK T5-9");
  d.hands[2] = cards("F1-10 FJ FC FQ FK T10-14");
  d.hands[3] = cards("W1-10 WJ WC WQ WK T15-21");
  return d;
}

Value trick(const Table& t, int index) { return t.view().find("tricks")->as_array().at(index); }

}  // namespace

TEST_CASE("CO-10 options: defaults, accepted values and refusals") {
  Table t(Value::object(), 5);
  CHECK(*t.view().find("options") == Value::obj({{"good_evil", "off"},
                                                 {"attack_defence", false},
                                                 {"gallowglass", false},
                                                 {"hands", 4}}));
  Table on(Value::obj({{"good_evil", "allegiance"}, {"attack_defence", "on"},
                       {"gallowglass", true}, {"hands", 2}}),
           5);
  CHECK(*on.view().find("options") == Value::obj({{"good_evil", "allegiance"},
                                                  {"attack_defence", true},
                                                  {"gallowglass", true},
                                                  {"hands", 2}}));
  auto refused = [](Value options, int players = 4) {
    auto created = casa::create_game("conference", players, options, 1);
    CHECK_FALSE(created.game);
    REQUIRE(created.error);
    return created.error->code;
  };
  CHECK(refused(Value::obj({{"good_evil", "maybe"}})) == "bad_option");
  CHECK(refused(Value::obj({{"attack_defence", 3}})) == "bad_option");
  CHECK(refused(Value::obj({{"hands", 0}})) == "bad_option");
  CHECK(refused(Value::obj({{"dealer", 4}})) == "bad_option");
  CHECK(refused(Value::obj({{"trumps", true}})) == "bad_option");
  CHECK(refused(Value::obj({{"deck", ids_value(all_ids(true))}})) == "bad_option");
  auto twice = all_ids(false);
  twice[1] = twice[0];
  CHECK(refused(Value::obj({{"deck", ids_value(twice)}})) == "bad_option");
  CHECK(refused(Value::object(), 3) == "bad_players");
  CHECK(refused(Value::object(), 5) == "bad_players");
}

TEST_CASE("CO-1.1 CO-1.2 card ids: suits with K Q C J 10..1, trumps T1..T21, GOOD, EVIL, FOOL") {
  Table t(Value::obj({{"good_evil", "trumps"}}), 2);
  std::set<std::string> dealt;
  for (Seat s = 0; s < 4; ++s)
    for (const auto& id : id_set(*t.view(s).find("hand"))) dealt.insert(id);
  const auto ids = all_ids(true);
  CHECK(dealt == std::set<std::string>(ids.begin(), ids.end()));
  Action a;
  for (const char* bad : {"E0", "E11", "T0", "T22", "X5", "ek", "T01"}) {
    CAPTURE(bad);
    CHECK(t.game->decode_action(play(bad), a)->code == "malformed_action");
  }
  for (const auto& id : ids) {
    REQUIRE_FALSE(t.game->decode_action(play(id), a));
    CHECK(t.game->encode_action(a) == play(id));
  }
}

TEST_CASE("CO-2.1 CO-2.2 partners sit side by side: seats 0+1 against 2+3, shown in every view") {
  Table t(Value::obj({{"hands", 1}}), 4);
  for (Seat s = 0; s < 4; ++s) {
    const Value v = t.view(s);
    CHECK(v.get_int("side", -1) == s / 2);
    CHECK(v.get_int("partner", -1) == (s ^ 1));
    CHECK(*v.find("side_of") == Value(Value::Array{0, 0, 1, 1}));
  }
  CHECK(t.view(-1).find("side") == nullptr);
  t.run_first_legal("discard");
  t.run_first_legal("play");
  const auto scores = t.game->scores();
  CHECK(scores[0] == scores[1]);
  CHECK(scores[2] == scores[3]);
}

TEST_CASE("CO-2.3 the first dealer comes from the seed; the deal passes left; every hand is shuffled") {
  std::set<std::int64_t> dealers;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Table a(Value::object(), seed), b(Value::object(), seed);
    CHECK(a.view().get_int("dealer", -1) == b.view().get_int("dealer", -1));
    CHECK(a.game->full_state() == b.game->full_state());
    dealers.insert(a.view().get_int("dealer", -1));
  }
  CHECK(dealers.size() == 4);

  Deal d = suits_deal();
  Table t(d, Value::obj({{"hands", 2}}));
  const Value first_hands = *t.game->full_state().find("hands");
  t.run_first_legal("discard");
  t.run_first_legal("play");
  CHECK(t.phase() == "deal");
  CHECK(t.actor() == 0);
  t.act(0, Value::obj({{"type", "deal"}}));
  CHECK(t.view().get_int("dealer", -1) == 0);
  CHECK(t.view().get_int("hand_number", 0) == 2);
  CHECK(t.view().get_int("discard_target", 0) == 2);
  CHECK(*t.game->full_state().find("hands") != first_hands);
  CHECK(t.view(0).find("hand")->size() == 21);
}

TEST_CASE("CO-3.1 packets of 4, 5, 5, 5 from eldest round to the dealer, the rest to the dealer") {
  for (int dealer = 0; dealer < 4; ++dealer) {
    for (bool eighty : {false, true}) {
      CAPTURE(dealer);
      CAPTURE(eighty);
      Deal d;
      d.dealer = dealer;
      d.eighty = eighty;
      // Named cards spread over seats so that a wrong layout would show.
      d.hands[(dealer + 1) % 4] = cards("T1 T2 T3 T4 T5");
      d.hands[dealer] = cards("T21 T20");
      d.extra = cards("T19");
      Table t(d, Value::object());
      for (Seat s = 0; s < 4; ++s) {
        std::set<std::string> expected(d.full[s].begin(), d.full[s].end());
        if (s == dealer) expected.insert(d.full_extra.begin(), d.full_extra.end());
        CHECK(id_set(*t.view(s).find("hand")) == expected);
      }
      CHECK(t.view().find("hand_sizes")->as_array()[dealer].as_int() == (eighty ? 23 : 21));
      CHECK(t.view().get_int("discard_target", 0) == (eighty ? 4 : 2));
    }
  }
}

TEST_CASE("CO-1.3 CO-3.2 the dealer discards one card at a time: no King, no Honour, trumps last") {
  SUBCASE("plain cards only while there are any") {
    Deal d = suits_deal();
    Table t(d, Value::object());
    CHECK(t.phase() == "discard");
    CHECK(t.actor() == 3);
    CHECK(t.legal_cards(3) == id_set(ids_value(cards("W1-10 WJ WC WQ"))));
    CHECK(t.refuse(3, discard("WK"))->code == "illegal_action");
    CHECK(t.refuse(3, discard("T21"))->code == "illegal_action");
    CHECK(t.refuse(3, discard("T15"))->message.find("trump") != std::string::npos);
    CHECK(t.refuse(0, discard("E1"))->code == "not_your_turn");
    auto events = t.act(3, discard("W2"));
    // The card goes only to the dealer; the others learn that a card went.
    for (const auto& e : events) {
      if (e.seats & casa::seat_bit(3)) CHECK(e.body.get_string("card", "") == "W2");
      else CHECK(e.body.find("card") == nullptr);
    }
    CHECK(t.phase() == "discard");
    CHECK(t.view().get_int("discard_size", 0) == 1);
    CHECK(id_set(*t.view(3).find("discard")) == std::set<std::string>{"W2"});
    CHECK(t.view(2).find("discard") == nullptr);
    t.act(3, discard("W3"));
    CHECK(t.phase() == "play");
    CHECK(t.view().find("hand_sizes")->as_array()[3].as_int() == 19);
  }
  SUBCASE("trumps make up the shortfall, never T1, T21 or the Fool") {
    Deal d;
    d.dealer = 3;
    d.hands[3] = cards("EK AK FK WK T1 T21 FOOL E5 T2-14");
    Table t(d, Value::object());
    CHECK(t.legal_cards(3) == std::set<std::string>{"E5"});
    t.act(3, discard("E5"));
    CHECK(t.legal_cards(3) == id_set(ids_value(cards("T2-14"))));
    t.act(3, discard("T7"));
    CHECK(t.phase() == "play");
  }
}

TEST_CASE("CO-4.1 CO-4.2 CO-4.4 follow suit, else trump, no duty to beat; the highest trump wins and leads") {
  Deal d = suits_deal();
  Table t(d, Value::object());
  t.discards({"W2", "W3"});
  CHECK(t.actor() == 0);  // eldest leads
  CHECK(t.legal(0).size() == 19);
  t.play_as(0, "E5");
  CHECK(t.actor() == 1);  // clockwise
  // Seat 1 must follow Earth; E2 is legal though EK would beat.
  CHECK(t.legal_cards(1) == std::set<std::string>{"E2", "EK"});
  CHECK(t.refuse(1, play("T5"))->message == "You must follow Earth.");
  t.play_as(1, "E2");
  // Seat 2 is void in Earth: a trump, not Fire.
  CHECK(t.legal_cards(2) == id_set(ids_value(cards("T10-14"))));
  CHECK(t.refuse(2, play("F1"))->message == "You must play a trump.");
  t.play_as(2, "T10");
  t.play_as(3, "T15");
  CHECK(trick(t, 0).get_int("winner", -1) == 3);
  CHECK(t.actor() == 3);  // the winner leads
  CHECK(*t.view().find("tricks_won") == Value(Value::Array{0, 1}));
  // A trump led: trumps if able; seat 0 may also play the Fool (CO-4.3).
  t.play_as(3, "T16");
  CHECK(t.legal_cards(0) == id_set(ids_value(cards("T1 T2 T3 T4 FOOL"))));
  t.play_as(0, "T1");
  t.play_as(1, "T5");
  t.play_as(2, "T11");
  CHECK(trick(t, 1).get_int("winner", -1) == 3);
  // Water led: the highest trump wins.
  t.play_as(3, "W1");
  t.play_as(0, "T2");
  t.play_as(1, "T6");
  t.play_as(2, "T12");
  CHECK(trick(t, 2).get_int("winner", -1) == 2);
}

TEST_CASE("CO-4.2 CO-4.4 void of the suit and of trumps: any card, and it cannot win") {
  Deal d;
  d.dealer = 3;
  d.hands[0] = cards("E1-10 EJ EC EQ EK A1-5");
  d.hands[1] = cards("F1-10 FJ FC FQ FK A6-10");
  Table t(d, Value::object());
  t.run_first_legal("discard");
  t.play_as(0, "E5");
  CHECK(t.legal(1).size() == 19);  // no Earth, no trump
  t.play_as(1, "FK");
  const std::string c2 = t.legal(2).front().get_string("card", "");
  t.act(2, play(c2));
  const std::string c3 = t.legal(3).front().get_string("card", "");
  t.act(3, play(c3));
  const int winner = static_cast<int>(trick(t, 0).get_int("winner", -1));
  CHECK(winner != 1);
}

TEST_CASE("CO-4.3 the Fool may go on any turn; if it leads, the next card sets the suit") {
  Deal d = suits_deal();
  Table t(d, Value::object());
  t.discards({"W2", "W3"});
  t.play_as(0, "FOOL");
  CHECK(t.view().find("trick")->find("led")->is_null());
  CHECK(t.legal(1).size() == 19);  // free
  t.play_as(1, "A5");
  CHECK(t.view().find("trick")->get_string("led", "") == "air");
  CHECK(t.legal_cards(2) == id_set(ids_value(cards("T10-14"))));
  t.play_as(2, "T10");
  t.play_as(3, "T15");
  CHECK(trick(t, 0).get_int("winner", -1) == 3);
}

TEST_CASE("CO-11.1 CO-11.2 each seat sees its own hand, the dealer the discard, everyone the table") {
  Deal d = suits_deal();
  Table t(d, Value::obj({{"hands", 1}}));
  t.discards({"W2", "W3"});
  t.play_as(0, "E5");
  for (Seat s = -1; s < 4; ++s) {
    CAPTURE(s);
    const Value v = t.view(s);
    std::set<std::string> strings;
    casa::testing::collect_strings(v, strings);
    for (Seat other = 0; other < 4; ++other) {
      if (other == s) continue;
      for (const auto& id : d.full[other]) {
        if (id == "E5") continue;  // played, public
        CHECK_MESSAGE(!strings.count(id), "seat ", s, " sees ", id, " of seat ", other);
      }
    }
    CHECK((v.find("hand") != nullptr) == (s >= 0));
    // Only the dealer sees the discard during the hand.
    CHECK(strings.count("W2") == (s == 3 ? 1u : 0u));
    CHECK(*v.find("hand_sizes") == Value(Value::Array{18, 19, 19, 19}));
    CHECK(v.find("trick")->find("plays")->as_array()[0] == Value::obj({{"seat", 0}, {"card", "E5"}}));
    const auto secret = t.game->secret_cards(s);
    const std::set<std::string> secrets(secret.begin(), secret.end());
    CHECK(secrets.count("W2") == (s == 3 ? 0u : 1u));
    CHECK(secrets.count("E5") == 0);
    if (s >= 0) {
      CHECK(id_set(*v.find("hand")) ==
            [&] {
              std::set<std::string> h(d.full[s].begin(), d.full[s].end());
              if (s == 3) h.insert(d.full_extra.begin(), d.full_extra.end());
              h.erase("E5");
              h.erase("W2");
              h.erase("W3");
              return h;
            }());
    }
  }
  t.run_first_legal("play");
  // After the hand: the discard, the Fool's owner and the points are public.
  CHECK(t.game->secret_cards(-1).empty());
  const Value spectator = t.view(-1);
  const Value* last = spectator.find("last_hand");
  CHECK(id_set(*last->find("discard")) == std::set<std::string>{"W2", "W3"});
  CHECK(last->find("fool")->get_int("owner", -1) == 0);
  CHECK(last->find("hand_points")->size() == 2);
  CHECK(spectator.find("tricks")->size() == 19);
}

TEST_CASE("the robot plays whole games legally with every option") {
  for (const Value& options :
       {Value::obj({{"hands", 1}}),
        Value::obj({{"hands", 1}, {"good_evil", "allegiance"}, {"gallowglass", true}}),
        Value::obj({{"hands", 1}, {"good_evil", "trumps"}, {"attack_defence", true}})}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Table t(options, seed);
      casa::Rng rng(seed);
      int steps = 0;
      while (!t.game->is_over() && steps++ < 2000) {
        const Seat s = t.actor();
        const Action a = casa::choose_bot_action(*t.game, s, "robot", rng);
        REQUIRE_FALSE(t.game->apply(s, a, nullptr));
      }
      CHECK(t.game->is_over());
    }
  }
}
