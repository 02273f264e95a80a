// SPDX-License-Identifier: AGPL-3.0-or-later
// Scenario tests for seats and rounds (CA-2), the end of a round and scoring
// (CA-5, CA-A), sweeps (CA-7) and the end of the game.
#include <doctest/doctest.h>

#include <set>

#include "tests/engine/casino/support.h"

using namespace casino_test;

namespace {

// Seat 0 takes every spade and heart pair, seat 1 every diamond and club pair.
std::unique_ptr<Game> split_round(const std::string& options, std::vector<Play>& plays) {
  std::vector<std::string> table;
  plays = two_sided_round(pairs("A23456789TJQK", 'S', 'H'), pairs("A23456789TJQK", 'D', 'C'), table);
  return make(2, with_deck(options, scripted_deck(2, 1, table, plays)));
}

const Value& round_end(const std::vector<Event>& events) {
  static Value found;
  const auto all = of_type(events, "round_end");
  REQUIRE(all.size() == 1);
  found = all[0];
  return found;
}

std::vector<int> scores_of(const Game& g) { return g.scores(); }

}  // namespace

TEST_CASE("CA-2.1 Casino is for 2 to 4 players; partners need exactly 4") {
  for (int n : {1, 5, 0}) {
    auto r = casa::create_game("casino", n, Value::object(), 1);
    REQUIRE(r.error);
    CHECK(r.error->code == "bad_players");
  }
  for (int n : {2, 3, 4}) CHECK(casa::create_game("casino", n, Value::object(), 1).game);
  for (int n : {2, 3}) {
    auto r = casa::create_game("casino", n, J(R"({"partners":true})"), 1);
    REQUIRE(r.error);
    CHECK(r.error->code == "bad_option");
  }
  CHECK(casa::create_game("casino", 4, J(R"({"partners":true})"), 1).game);
}

TEST_CASE("CA-2.2 the first dealer comes from the seed; turns and the deal go clockwise") {
  std::set<std::int64_t> dealers;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    auto g = make(3, Value::object(), seed);
    const std::int64_t dealer = at(g->view(casa::kSpectator), "dealer").as_int();
    CHECK(dealer >= 0);
    CHECK(dealer < 3);
    dealers.insert(dealer);
    CHECK(make(3, Value::object(), seed)->full_state() == g->full_state());
  }
  CHECK(dealers.size() == 3);

  auto g = make(3, J(R"({"dealer":1})"));
  CHECK(turn(*g) == 2);  // CA-2.4 the dealer's left
  must(*g, 2, R"({"type":"trail","card":")" + hand(*g, 2)[0] + R"("})");
  CHECK(turn(*g) == 0);
  trail_out(*g);
  // The round is over; the deal passes to seat 2, who deals the next round.
  CHECK(phase(*g) == "round_over");
  CHECK(at(g->view(casa::kSpectator), "dealer").as_int() == 2);
  CHECK(g->to_act() == casa::seat_bit(2));
  CHECK(legal_text(*g, 2) == std::vector<std::string>{R"({"type":"deal"})"});
  refused(*g, 0, R"({"type":"deal"})", "not_your_turn");
  const auto events = must(*g, 2, R"({"type":"deal"})");
  CHECK(of_type(events, "round_start").size() == 1);
  CHECK(turn(*g) == 0);
  CHECK(at(g->view(casa::kSpectator), "round").as_int() == 2);
}

TEST_CASE("CA-2.3 CA-2.4 CA-2.5 CA-A deals: four each, four to the table once, until the deck is out") {
  for (int n = 2; n <= 4; ++n) {
    auto g = make(n, J(R"({"dealer":0})"));
    Value view = g->view(casa::kSpectator);
    CHECK(at(view, "deck").as_int() == 52 - 4 * n - 4);
    CHECK(at(at(view, "table"), "loose").size() == 4);
    for (const auto& size : at(view, "hand_sizes").as_array()) CHECK(size.as_int() == 4);
    CHECK(turn(*g) == 1 % n);
    int deals = 1;
    std::vector<std::string> table_before;
    while (phase(*g) == "play") {
      const Seat seat = turn(*g);
      const bool last_of_deal = at(g->view(casa::kSpectator), "hand_sizes").as_array()[seat].as_int() == 1 &&
                                seat == 0;
      if (last_of_deal) table_before = loose(*g);
      const auto events = must(*g, seat, R"({"type":"trail","card":")" + hand(*g, seat)[0] + R"("})");
      if (!of_type(events, "deal").empty()) {
        ++deals;
        // CA-2.5 four more cards to each player, none to the table; the dealer's left plays.
        view = g->view(casa::kSpectator);
        for (const auto& size : at(view, "hand_sizes").as_array()) CHECK(size.as_int() == 4);
        CHECK(loose(*g).size() == table_before.size() + 1);
        CHECK(turn(*g) == 1 % n);
        for (Seat s = 0; s < n; ++s) {
          // Each player learns only its own new cards.
          const auto own = of_type(events, "hand");
          CHECK(own.size() == static_cast<std::size_t>(n));
        }
      }
    }
    // CA-A: 6 deals for 2 players, 4 for 3, 3 for 4; the deck runs out exactly.
    CHECK(deals == 48 / (4 * n));
    CHECK(at(g->view(casa::kSpectator), "deck").as_int() == 0);
  }
}

TEST_CASE("CA-5.1 CA-A when nobody captured, the dealer takes the table: 11 points at most") {
  auto g = make(2, J(R"({"dealer":1,"sweeps":true,"questions":"default"})"));
  const auto events = trail_out(*g);
  CHECK(of_type(events, "capture").empty());
  CHECK(of_type(events, "question").empty());  // CA-5.1 not a capture: no questions
  const Value& end = round_end(events);
  CHECK(at(end, "leftover").get_int("seat", -1) == 1);
  CHECK(at(at(end, "leftover"), "cards").size() == 52);
  CHECK_VALUE(at(end, "sides").as_array()[1],
              J(R"({"seats":[1],"cards":52,"spades":13,"big_casino":true,"little_casino":true,"aces":4,
                   "sweeps":0,"most_cards":3,"most_spades":1,"points":11,"total":11})"));
  CHECK(scores_of(*g) == std::vector<int>{0, 11});
  CHECK(pile(*g, 1).size() == 52);
}

TEST_CASE("CA-5.1 the table's last cards go to the last player who captured") {
  // Seat 0 pairs 5D at once; afterwards everybody trails.
  auto g = make(2, with_deck(R"({"dealer":1})", ids({"5H", "AC", "2C", "3C", "4C", "6C", "7C", "8C", "5D",
                                                     "9S", "9H", "9D"})));
  must(*g, 0, R"({"type":"capture","card":"5H","loose":["5D"]})");
  const auto events = trail_out(*g);
  const Value& end = round_end(events);
  CHECK(at(end, "leftover").get_int("seat", -1) == 0);
  CHECK(at(at(end, "leftover"), "cards").size() == 50);
  CHECK(scores_of(*g) == std::vector<int>{11, 0});
}

TEST_CASE("CA-5.2 CA-A 26-26 cards score nobody; spades, casinos and aces score their holders") {
  std::vector<Play> plays;
  auto g = split_round(R"({"dealer":1})", plays);
  const auto events = run_script(*g, plays);
  const Value& end = round_end(events);
  CHECK(at(end, "leftover").get_int("seat", -1) == 1);
  CHECK(at(at(end, "leftover"), "cards").size() == 0);
  CHECK_VALUE(at(end, "sides"),
              J(R"([{"seats":[0],"cards":26,"spades":13,"big_casino":false,"little_casino":true,"aces":2,
                     "sweeps":0,"most_cards":0,"most_spades":1,"points":4,"total":4},
                    {"seats":[1],"cards":26,"spades":0,"big_casino":true,"little_casino":false,"aces":2,
                     "sweeps":0,"most_cards":0,"most_spades":0,"points":4,"total":4}])"));
  CHECK(scores_of(*g) == std::vector<int>{4, 4});
  CHECK(at(g->view(0), "last_round").size() == 2);
}

TEST_CASE("CA-5.2 with three sides a shared top count scores nobody") {
  // Seat 0: 9 pairs, 5 spades, AS AH. Seat 1: 8 pairs, 3 spades with 2S, AD AC.
  // Seat 2: 9 pairs, 5 spades, TD. Cards 18/16/18 and spades 5/3/5 are shared tops.
  const auto pairs_for = alternating_pairs(
      3, {pairs("A3456", 'S', 'H') + pairs("789J", 'D', 'C'), pairs("278", 'S', 'H') + pairs("A2345", 'D', 'C'),
          pairs("9TJQK", 'S', 'H') + pairs("6TQK", 'D', 'C')});
  std::vector<std::string> table;
  const auto plays = alternating_round(pairs_for, table);
  auto g = make(3, with_deck(R"({"dealer":2})", scripted_deck(3, 2, table, plays)));
  const Value& end = round_end(run_script(*g, plays));
  std::vector<std::int64_t> cards, spades, points;
  for (const auto& side : at(end, "sides").as_array()) {
    cards.push_back(side.get_int("cards", -1));
    spades.push_back(side.get_int("spades", -1));
    points.push_back(side.get_int("points", -1));
    CHECK(side.get_int("most_cards", -1) == 0);
    CHECK(side.get_int("most_spades", -1) == 0);
  }
  CHECK(cards == std::vector<std::int64_t>{18, 16, 18});
  CHECK(spades == std::vector<std::int64_t>{5, 3, 5});
  CHECK(points == std::vector<std::int64_t>{2, 3, 2});
  CHECK(scores_of(*g) == std::vector<int>{2, 3, 2});
}

TEST_CASE("CA-5.2 with three sides the strict top count scores") {
  // Same shape, but seat 2 holds 6 spades and seat 0 only 4.
  const auto pairs_for = alternating_pairs(
      3, {pairs("A345", 'S', 'H') + pairs("6789J", 'D', 'C'), pairs("278", 'S', 'H') + pairs("A2345", 'D', 'C'),
          pairs("69TJQK", 'S', 'H') + pairs("TQK", 'D', 'C')});
  std::vector<std::string> table;
  const auto plays = alternating_round(pairs_for, table);
  auto g = make(3, with_deck(R"({"dealer":2})", scripted_deck(3, 2, table, plays)));
  const Value& end = round_end(run_script(*g, plays));
  const auto& sides = at(end, "sides").as_array();
  CHECK(sides[2].get_int("spades", -1) == 6);
  CHECK(sides[2].get_int("most_spades", -1) == 1);
  CHECK(sides[0].get_int("most_spades", -1) == 0);
  CHECK(scores_of(*g) == std::vector<int>{2, 3, 3});
}

TEST_CASE("CA-2.1 CA-5.2 partners pool their captures and share one score") {
  // Four players, dealer 3: seats 0 and 2 take one pair each (TD, 2S); seats 1
  // and 3 take everything else.
  std::vector<std::vector<Pair>> per_seat = {pairs("T", 'D', 'C'), {}, pairs("2", 'S', 'H'), {}};
  const auto rest = pairs("A3456789JQK", 'S', 'H') + pairs("A23456789JQK", 'D', 'C') + pairs("T", 'S', 'H');
  // Seats 1 and 3 alternate after the first four captures.
  for (std::size_t i = 0; i < 26; ++i) {
    const int seat = alternating_capturer(4, i);
    if (seat == 1 || seat == 3) per_seat[seat].push_back(rest[per_seat[1].size() + per_seat[3].size()]);
  }
  std::vector<std::string> table;
  const auto plays = alternating_round(alternating_pairs(4, per_seat), table);
  auto partners = make(4, with_deck(R"({"dealer":3,"partners":true})", scripted_deck(4, 3, table, plays)));
  const Value& end = round_end(run_script(*partners, plays));
  CHECK(at(end, "sides").size() == 2);
  CHECK_VALUE(at(at(end, "sides").as_array()[0], "seats"), J("[0,2]"));
  CHECK(at(end, "sides").as_array()[0].get_int("cards", -1) == 4);
  CHECK(at(end, "sides").as_array()[0].get_int("points", -1) == 3);  // TD 2 + 2S 1
  CHECK(at(end, "sides").as_array()[1].get_int("cards", -1) == 48);
  CHECK(at(end, "sides").as_array()[1].get_int("points", -1) == 3 + 1 + 4);
  CHECK(scores_of(*partners) == std::vector<int>{3, 8, 3, 8});
  CHECK_VALUE(at(partners->view(0), "sides"), J("[[0,2],[1,3]]"));

  // The same round without partners: four sides, scored apart.
  auto alone = make(4, with_deck(R"({"dealer":3})", scripted_deck(4, 3, table, plays)));
  run_script(*alone, plays);
  const auto s = scores_of(*alone);
  CHECK(s[0] == 2);
  CHECK(s[2] == 1);
  // 24 cards each: a shared top, so only the aces score for seats 1 and 3.
  CHECK(s[1] + s[3] == 4);
}

TEST_CASE("CA-5.3 scores count at the end of a round; a shared top over the target plays another round") {
  std::vector<Play> plays;
  auto g = split_round(R"({"dealer":1,"target":4})", plays);
  const std::vector<Play> first_half(plays.begin(), plays.begin() + 24);
  run_script(*g, first_half);
  CHECK(pile(*g, 0).size() > 0);
  CHECK(scores_of(*g) == std::vector<int>{0, 0});  // aces taken, but nothing counts yet
  run_script(*g, std::vector<Play>(plays.begin() + 24, plays.end()));
  CHECK(scores_of(*g) == std::vector<int>{4, 4});
  CHECK_FALSE(g->is_over());  // both reached 4: the top is shared
  CHECK(g->winners().empty());
  must(*g, 0, R"({"type":"deal"})");
  // Round 2 (dealer 0): everybody trails, the dealer takes all 52 cards.
  const auto events = trail_out(*g);
  CHECK(g->is_over());
  CHECK(scores_of(*g) == std::vector<int>{15, 4});
  CHECK(g->winners() == std::vector<Seat>{0});
  const auto over = of_type(events, "game_over");
  REQUIRE(over.size() == 1);
  CHECK_VALUE(at(over[0], "winners"), J("[0]"));
  CHECK(g->to_act() == 0);
  CHECK(legal(*g, 0).empty());
  refused(*g, 0, R"({"type":"deal"})", "game_over");
}

TEST_CASE("CA-5.3 the side with the top total over the target wins") {
  auto g = make(2, J(R"({"dealer":0,"target":11})"));
  trail_out(*g);
  CHECK(g->is_over());
  CHECK(g->winners() == std::vector<Seat>{0});
  CHECK(at(g->view(1), "phase").as_string() == "over");
  CHECK_VALUE(at(g->view(1), "winners"), J("[0]"));
}

TEST_CASE("CA-8 the rounds testing option ends the game; a shared top then shares the win") {
  std::vector<Play> plays;
  auto g = split_round(R"({"dealer":1,"rounds":1})", plays);
  run_script(*g, plays);
  CHECK(g->is_over());
  CHECK(g->winners() == std::vector<Seat>{0, 1});
}

TEST_CASE("CA-7.1 a capture that empties the table scores a sweep, except with the round's last card") {
  std::vector<Play> plays;
  auto g = split_round(R"({"dealer":1,"sweeps":true})", plays);
  // After the first four plays seat 1 has swept the table.
  std::vector<Event> events = run_script(*g, std::vector<Play>(plays.begin(), plays.begin() + 4));
  const auto captures = of_type(events, "capture");
  REQUIRE(captures.size() == 4);
  CHECK_FALSE(captures[2].get_bool("sweep", true));
  CHECK(captures[3].get_bool("sweep", false));
  CHECK_VALUE(at(g->view(casa::kSpectator), "sweeps"), J("[0,1]"));
  events = run_script(*g, std::vector<Play>(plays.begin() + 4, plays.end()));
  CHECK_FALSE(of_type(events, "capture").back().get_bool("sweep", true));  // the round's last card
  const Value& end = round_end(events);
  // Seat 1 swept at play 4 and at the end of each of the 11 cycles but the last.
  CHECK(at(end, "sides").as_array()[1].get_int("sweeps", -1) == 11);
  CHECK(at(end, "sides").as_array()[0].get_int("sweeps", -1) == 0);
  CHECK(scores_of(*g) == std::vector<int>{4, 4 + 11});

  // Without the option the same captures score no sweep.
  auto plain = split_round(R"({"dealer":1})", plays);
  run_script(*plain, plays);
  CHECK(scores_of(*plain) == std::vector<int>{4, 4});
}

TEST_CASE("CA-7.1 CA-5.1 the dealer taking the last cards is never a sweep") {
  auto g = make(2, J(R"({"dealer":1,"sweeps":true})"));
  const Value& end = round_end(trail_out(*g));
  CHECK(at(end, "sides").as_array()[1].get_int("sweeps", -1) == 0);
  CHECK(at(end, "sides").as_array()[1].get_int("points", -1) == 11);
}

TEST_CASE("CA-7.2 after a sweep the next player can only trail") {
  std::vector<Play> plays;
  auto g = split_round(R"({"dealer":1,"sweeps":true})", plays);
  run_script(*g, std::vector<Play>(plays.begin(), plays.begin() + 4));
  CHECK(at(g->view(0), "only_trail").as_bool());
  const auto actions = legal(*g, 0);
  CHECK(actions.size() == 2);  // seat 0's two cards left in this deal
  for (const auto& a : actions) CHECK(g->encode_action(a).get_string("type", "") == "trail");
  run_script(*g, std::vector<Play>(plays.begin() + 4, plays.begin() + 5));
  CHECK_FALSE(at(g->view(0), "only_trail").as_bool());
  // Seat 1 may now capture what seat 0 trailed.
  bool can_capture = false;
  for (const auto& a : legal(*g, 1)) can_capture = can_capture || g->encode_action(a).get_string("type", "") == "capture";
  CHECK(can_capture);
}
