// SPDX-License-Identifier: AGPL-3.0-or-later
// Scenario tests of the base game: cards, tricks, seats, the deal, scoring, the
// formats and what each seat may see (LC-1 .. LC-5, LC-10).
#include <doctest/doctest.h>

#include <functional>
#include <set>

#include "engine/bots.h"
#include "engine/rng.h"
#include "tests/engine/la_casa/table_support.h"

using namespace casa;
using namespace casa::la_casa;
using namespace casa::la_casa::testing;

namespace {

Value identity_deck() {
  Value deck = Value::array();
  for (int c = 0; c < kDeckSize; ++c) deck.push(card_id(c));
  return deck;
}

// Plays with the rule bot until the phase leaves "play"-like phases of this round.
void bot_until(Table& table, const std::function<bool()>& stop, int limit = 2000) {
  Rng rng(5);
  for (int i = 0; i < limit && !table.game->is_over() && !stop(); ++i) {
    const SeatMask mask = table.game->to_act();
    Seat seat = 0;
    while (!(mask & seat_bit(seat))) ++seat;
    const Action a = choose_bot_action(*table.game, seat, "robot", rng);
    REQUIRE_FALSE(table.game->apply(seat, a, nullptr));
  }
}

}  // namespace

TEST_CASE("LC-1.1 LC-1.2 LC-1.3 LC-1.4 37 cards: four families of 1-9 and the Mangia-Cake") {
  std::set<std::string> ids;
  for (int c = 0; c < kDeckSize; ++c) {
    ids.insert(card_id(c));
    CHECK(parse_card(card_id(c)) == c);
  }
  CHECK(ids.size() == 37);
  CHECK(card_value(*parse_card("G9")) == 9);
  CHECK(printed_family(*parse_card("K3")) == kKnives);
  CHECK(card_value(kMangiaCake) == 0);
  CHECK(printed_family(kMangiaCake) == kNoFamily);
  CHECK(card_title(*parse_card("F1")) == "Bruto");
  CHECK(card_title(*parse_card("M5")) == "Capitano");
  CHECK(card_title(*parse_card("G4")) == "Zio/Zia");
  // A dealt table holds every card exactly once (hands + Casa).
  Table table(4, Value::obj({{"format", "classic"}, {"dealer", 0}}));
  const Value v = table.view(-1);
  int total = static_cast<int>(v.find("casa")->get_int("count", 0));
  for (const auto& n : v.find("hand_sizes")->as_array()) total += static_cast<int>(n.as_int());
  CHECK(total == 37);
}

TEST_CASE("LC-4.1 LC-4.5 LC-4.6 LC-4.8 LC-3.1 LC-10.1 LC-10.2 four-player deal positions and views") {
  Table table(4, Value::obj({{"format", "classic"}, {"dealer", 0}, {"deck", identity_deck()}}));
  // deck[i], i < 28, goes to seat (dealer + 1 + i) mod 4; deck[28] tops the Casa.
  for (Seat s = 0; s < 4; ++s) {
    Cards expected;
    for (int i = 0; i < 28; ++i)
      if ((1 + i) % 4 == s) expected.push_back(card_id(i));
    std::sort(expected.begin(), expected.end(), [](const std::string& a, const std::string& b) {
      return *parse_card(a) < *parse_card(b);
    });
    CHECK(table.hand(s) == expected);
    // Nobody else sees these cards; the spectator neither.
    for (Seat o = -1; o < 4; ++o) {
      if (o == s) continue;
      for (const auto& card : expected) {
        CHECK(table.secret_to(o, card));
        CHECK_FALSE(contains_string(table.view(o), card));
      }
    }
  }
  const Value v = table.view(2);
  CHECK(v.find("casa")->get_int("count", 0) == 9);
  CHECK(v.find("casa")->get_string("top", "") == card_id(28));  // F2: the Selection card
  CHECK(v.get_string("ruling_family", "") == "fists");
  CHECK(v.get_int("leader", -1) == 1);  // the dealer's left leads
  CHECK(v.find("to_act")->as_array() == Value::Array{1});
  CHECK(table.t().total_tricks() == 7);
  // The Casa below its top is secret to everyone.
  CHECK(table.secret_to(0, card_id(29)));
  CHECK_FALSE(table.secret_to(0, card_id(28)));
  // Partners sit opposite: seats 0 and 2 share a score.
  CHECK(v.find("seat_scores")->as_array().size() == 4);
}

TEST_CASE("LC-4.2 LC-4.4 LC-4.6 LC-4.8 LC-2.6 two-player deal, tableau play and turning up") {
  Table table(2, Value::obj({{"format", "classic"}, {"dealer", 1}, {"deck", identity_deck()}}));
  // Even i < 16 to the non-dealer (seat 0), odd to the dealer.
  CHECK(table.hand(0) == Cards{"G1", "G3", "G5", "G7", "G9", "K2", "K4", "K6"});
  CHECK(table.hand(1) == Cards{"G2", "G4", "G6", "G8", "K1", "K3", "K5", "K7"});
  const Value v = table.view(0);
  const auto& tab = v.find("tableaux")->as_array();
  // deck[24 + 2j + p] face up, deck[16 + 2j + p] face down.
  CHECK(tab[0].as_array()[0].get_string("up", "") == card_id(24));
  CHECK(tab[1].as_array()[0].get_string("up", "") == card_id(25));
  CHECK(tab[1].as_array()[3].get_string("up", "") == card_id(31));
  CHECK(tab[0].as_array()[0].get_int("down", 0) == 1);
  // Face-down tableau cards are hidden from both players, the owner included.
  CHECK(table.secret_to(0, card_id(16)));
  CHECK(table.secret_to(1, card_id(16)));
  CHECK_FALSE(table.secret_to(1, card_id(24)));
  CHECK(v.find("casa")->get_int("count", 0) == 5);
  CHECK(v.find("casa")->get_string("top", "") == card_id(32));
  CHECK(v.get_int("leader", -1) == 0);  // the non-dealer leads
  CHECK(table.t().total_tricks() == 16);

  table.play(0, card_id(24));  // M7 from the tableau
  std::string why;
  CHECK(table.refuse(1, action("play", "card", "G2"), &why) == "illegal_action");
  CHECK(why == "You must follow Masks.");
  table.play(1, card_id(25));  // M8, its only Mask, is on the tableau
  // M8 wins; both emptied stacks turn their face-down card up.
  const Value after = table.view(0);
  CHECK(after.get_int("leader", -1) == 1);
  CHECK(after.find("tricks_won")->as_array() == Value::Array{0, 1});
  CHECK(after.find("tableaux")->as_array()[0].as_array()[0].get_string("up", "") == card_id(16));
  CHECK(after.find("tableaux")->as_array()[1].as_array()[0].get_string("up", "") == card_id(17));
  CHECK_FALSE(table.secret_to(0, card_id(16)));
}

TEST_CASE("LC-4.3 two more cards: nine each and a Casa of one; a fifth stack for two") {
  Table four(4, Value::obj({{"challenge", "revenge"}, {"dealer", 0}}));
  CHECK(four.view(0).find("hand_sizes")->as_array() == Value::Array{9, 9, 9, 9});
  CHECK(four.view(0).find("casa")->get_int("count", 0) == 1);
  Table two(2, Value::obj({{"challenge", "capitano"}, {"dealer", 0}}));
  CHECK(two.view(0).find("tableaux")->as_array()[0].as_array().size() == 5);
  CHECK(two.view(0).find("casa")->get_int("count", 0) == 1);
  CHECK(two.t().total_tricks() == 18);
}

TEST_CASE("LC-2.1 LC-2.2 LC-2.4 LC-2.5 following, the Ruling Family and the Mangia-Cake") {
  const Value deck = deck4(3,
                           {Cards{"K9", "K1", "M1", "M2", "M3", "F1", "F2"},
                            Cards{"K2", "MC", "G1", "M4", "F3", "F4", "F5"},
                            Cards{"G2", "M5", "M6", "F6", "F7", "F8", "F9"},
                            Cards{"K5", "K3", "K4", "M7", "M8", "M9", "G3"}},
                           Cards{"G4"});
  Table table(4, Value::obj({{"format", "classic"}, {"dealer", 3}, {"deck", deck}}));
  CHECK(table.view(0).get_string("ruling_family", "") == "guns");
  table.play(0, "K9");
  // The Mangia-Cake is a Gun now, so it does not follow Knives.
  CHECK(table.refuse(1, action("play", "card", "MC")) == "illegal_action");
  table.play(1, "K2");
  table.play(2, "G2");  // no Knives: a Ruling Family card
  table.play(3, "K5");
  CHECK(table.view(0).find("last_trick")->get_int("winner", -1) == 2);
  CHECK(table.view(0).get_int("leader", -1) == 2);
  table.play(2, "M5");
  table.play(3, "M7");
  table.play(0, "M1");
  table.play(1, "M4");
  CHECK(table.view(0).find("last_trick")->get_int("winner", -1) == 3);  // highest of the lead
  table.play(3, "G3");
  table.play(0, "F1");
  // Following Guns: G1 and the Mangia-Cake both count.
  auto legal = table.legal_types(1);
  CHECK(legal == std::vector<std::string>{R"({"type":"play","card":"G1"})",
                                          R"({"type":"play","card":"MC"})"});
  table.play(1, "MC");
  table.play(2, "F6");
  CHECK(table.view(0).find("last_trick")->get_int("winner", -1) == 3);  // G3 beats MC (0)
}

TEST_CASE("LC-2.3 LC-11.1 LC-7.3 Betrayal: references, dealer leads, a familyless Mangia-Cake") {
  // The four 1s come out first; the k-th goes to the k-th seat from the dealer's left.
  const Value deck = deck4(0,
                           {Cards{"MC", "K2", "M3", "M4", "F2", "F3", "G2"},
                            Cards{"G5", "K3", "M5", "F4", "F5", "F6", "G3"},
                            Cards{"G7", "K4", "K5", "M6", "M7", "F7", "G4"},
                            Cards{"K9", "K8", "K7", "K6", "M8", "M9", "F8"}},
                           {}, 7, Cards{"K1", "G1", "F1", "M1"});
  Table table(4, Value::obj({{"challenge", "betrayal"}, {"dealer", 0}, {"deck", deck}}));
  CHECK(table.view(1).get_string("reference", "") == "K1");
  CHECK(table.view(2).get_string("reference", "") == "G1");
  CHECK(table.view(3).get_string("reference", "") == "F1");
  CHECK(table.view(0).get_string("reference", "") == "M1");
  CHECK(table.secret_to(2, "K1"));
  CHECK_FALSE(contains_string(table.view(2), "K1"));
  CHECK(table.view(0).find("ruling_family")->is_null());
  CHECK(table.view(0).find("casa")->get_int("count", 0) == 5);
  CHECK(table.view(0).get_int("leader", -1) == 0);  // the dealer leads
  table.play(0, "MC");
  CHECK(table.view(0).find("lead_family")->is_null());
  table.play(1, "G5");  // the first family card sets the lead family
  CHECK(table.view(0).get_string("lead_family", "") == "guns");
  CHECK(table.refuse(2, action("play", "card", "K4")) == "illegal_action");
  table.play(2, "G7");
  table.play(3, "K9");
  CHECK(table.view(0).find("last_trick")->get_int("winner", -1) == 2);
  // LC-11.1: a familyless Mangia-Cake may be played by a player able to follow.
  const Value deck2_ = deck4(0,
                             {Cards{"K2", "M3", "M4", "F2", "F3", "G2", "G6"},
                              Cards{"MC", "K3", "M5", "F4", "F5", "F6", "G3"},
                              Cards{"G7", "K4", "K5", "M6", "M7", "F7", "G4"},
                              Cards{"K9", "K8", "K7", "K6", "M8", "M9", "F8"}},
                             {}, 7, Cards{"K1", "G1", "F1", "M1"});
  Table other(4, Value::obj({{"challenge", "betrayal"}, {"dealer", 0}, {"deck", deck2_}}));
  other.play(0, "K2");
  other.play(1, "MC");
  other.play(2, "K5");
  other.play(3, "K6");
  CHECK(other.view(0).find("last_trick")->get_int("winner", -1) == 3);
}

TEST_CASE("LC-3.2 LC-2.7 the first dealer comes from the seed; the dealer rotates each round") {
  std::set<int> dealers;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    Table a(4, Value::obj({{"format", "classic"}}), seed);
    Table b(4, Value::obj({{"format", "classic"}}), seed);
    CHECK(a.t().dealer() == b.t().dealer());
    dealers.insert(a.t().dealer());
  }
  CHECK(dealers.size() > 1);
  Table table(4, Value::obj({{"format", "classic"}, {"dealer", 2}}));
  bot_until(table, [&] { return table.phase() == "round_over"; });
  // A round ends when every card has been played.
  CHECK(table.view(0).find("hand_sizes")->as_array() == Value::Array{0, 0, 0, 0});
  CHECK(table.view(0).get_int("tricks_played", 0) == 7);
  CHECK(table.view(0).find("to_act")->as_array() == Value::Array{3});
  CHECK(table.legal_types(3) == std::vector<std::string>{R"({"type":"deal"})"});
  table.act(3, action("deal"));
  CHECK(table.t().dealer() == 3);
  CHECK(table.view(0).get_int("round", 0) == 2);
  CHECK(table.view(0).get_int("leader", -1) == 0);
}

TEST_CASE("LC-5.4 LC-5.5 play to the target; the game ends only when the scores differ") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Table table(4, Value::obj({{"format", "classic"}, {"target", 2}}), seed);
    int rounds = 0;
    while (!table.game->is_over()) {
      bot_until(table, [&] { return table.phase() == "round_over"; });
      const auto s = table.game->scores();
      if (!table.game->is_over()) {
        // Not over: nobody has reached the target, or the sides are tied.
        CHECK((std::max(s[0], s[1]) < 2 || s[0] == s[1]));
        table.act(table.view(0).find("to_act")->as_array()[0].as_int(), action("deal"));
      }
      REQUIRE(++rounds < 100);
    }
    const auto s = table.game->scores();
    CHECK(std::max(s[0], s[1]) >= 2);
    CHECK(s[0] != s[1]);
    CHECK(s[0] == s[2]);
    const Seat winner = s[0] > s[1] ? 0 : 1;
    CHECK(table.game->winners() == std::vector<Seat>{winner, winner + 2});
  }
}

TEST_CASE("LC-5.4 challenges format: the deck of 15 (4p) or 10 (2p) is revealed, then reshuffled") {
  for (int players : {2, 4}) {
    Table table(players, Value::obj({{"target", 1000}}), 3);
    std::vector<std::string> seen;
    for (int round = 0; round < 2 * (players == 4 ? 15 : 10); ++round) {
      seen.push_back(table.view(0).get_string("challenge", ""));
      bot_until(table, [&] { return table.phase() == "round_over"; });
      table.act(table.view(0).find("to_act")->as_array()[0].as_int(), action("deal"));
    }
    const std::size_t n = players == 4 ? 15 : 10;
    std::set<std::string> first(seen.begin(), seen.begin() + n);
    std::set<std::string> second(seen.begin() + n, seen.end());
    CHECK(first.size() == n);
    CHECK(second.size() == n);
    CHECK(first == second);
    CHECK((players == 4) == (first.count("mangia_cake") == 0));
  }
}

TEST_CASE("LC-5.4 LC-11.16 sticky: the dealer chooses each deal; the record clears after 15") {
  Table table(4, Value::obj({{"format", "sticky"}, {"dealer", 1}, {"target", 1000}}));
  CHECK(table.phase() == "choose_challenge");
  CHECK(table.view(0).find("to_act")->as_array() == Value::Array{1});
  CHECK(table.legal_types(1).size() == 15);
  CHECK(table.refuse(1, action("choose_challenge", "challenge", "mangia_cake")) ==
        "illegal_action");
  table.act(1, action("choose_challenge", "challenge", "kin"));
  CHECK(table.view(0).get_string("challenge", "") == "kin");
  CHECK(table.t().dealer() == 1);
  for (int round = 2; round <= 16; ++round) {
    bot_until(table, [&] { return table.phase() == "choose_challenge"; });
    const Seat dealer = static_cast<Seat>(table.view(0).find("to_act")->as_array()[0].as_int());
    const auto legal = table.legal_types(dealer);
    if (round <= 15) {
      CHECK(legal.size() == static_cast<std::size_t>(16 - round));
      CHECK(table.refuse(dealer, action("choose_challenge", "challenge", "kin")) ==
            "illegal_action");
    } else {
      CHECK(legal.size() == 15);  // a new cycle
    }
    std::vector<Action> actions;
    table.game->legal_actions(dealer, actions);
    REQUIRE_FALSE(table.game->apply(dealer, actions[0], nullptr));
    CHECK(table.t().dealer() == dealer);
  }
}

TEST_CASE("LC-7.0 option checks: challenges by player count, formats and testing options") {
  auto error = [](int players, Value options) {
    auto created = create_game("la-casa", players, options, 1);
    return created.error ? created.error->code : std::string();
  };
  CHECK(error(4, Value::obj({{"challenge", "mangia_cake"}})) == "bad_option");
  for (const char* c : {"bruto", "cards_on_the_table", "the_club", "kin", "pass_the_buck",
                        "slap_down"})
    CHECK(error(2, Value::obj({{"challenge", c}})) == "bad_option");
  CHECK(error(2, Value::obj({{"challenge", "mangia_cake"}})).empty());
  CHECK(error(2, Value::obj({{"format", "sticky"}})) == "bad_option");
  CHECK(error(3, Value::object()) == "bad_players");
  CHECK(error(4, Value::obj({{"colour", "red"}})) == "bad_option");
  CHECK(error(4, Value::obj({{"target", 0}})) == "bad_option");
  CHECK(error(4, Value::obj({{"dealer", 4}})) == "bad_option");
  CHECK(error(4, Value::obj({{"deck", Value::Array{"G1"}}})) == "bad_option");
  CHECK(error(4, Value::obj({{"format", "domination"}})) == "bad_players");
  // Defaults: challenges, target 12, no Election.
  Table table(4, Value::object());
  CHECK(table.view(0).get_string("format", "") == "challenges");
  CHECK(table.view(0).get_int("target", 0) == 12);
  CHECK(table.view(0).get_bool("election", true) == false);
  CHECK_FALSE(table.view(0).find("challenge")->is_null());
}
