// SPDX-License-Identifier: AGPL-3.0-or-later
// Trophy Case scenarios: stacked decks played through the public Game interface,
// one or more per rule id of docs trophy-case.md. Every action also runs the leak
// scan over its events and every seat's view (tc_test::Table::apply_ok).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "engine/games/trophy_case/cards.h"
#include "engine/games/trophy_case/trophy_case.h"
#include "engine/games/trophy_case/trophy_case_game.h"
#include "tests/engine/trophy_case/table.h"

using namespace tc_test;
using casa::kSpectator;

namespace {

const std::vector<std::string> kAllTrumps{"T-GRANOLA", "T-DEATH",  "T-LIGHT",
                                          "T-SNAIL",   "T-BEAUTY", "T-TIME",
                                          "T-GRUE",    "T-LOBSTER", "T-JESTER"};

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

std::vector<std::string> slice(const Value& deck, int first, int count) {
  std::vector<std::string> out;
  for (int i = first; i < first + count; ++i) out.push_back(deck.as_array()[i].as_string());
  return out;
}

int trick_count(const Table& t) { return static_cast<int>(t.pub().find("tricks_played")->as_int()); }

// Plays lowest legal cards until the current trick ends.
void play_out_trick(Table& t) {
  const int before = trick_count(t);
  int guard = 0;
  while (trick_count(t) == before && !t.game->is_over()) {
    REQUIRE(++guard < 1000);
    t.play_lowest();
  }
}

const Value& last_trick(const Value& view) { return *view.find("last_trick"); }

}  // namespace

// ---------------------------------------------------------------------------
// TC-1 Cards

TEST_CASE("TC-1.1 TC-1.2 ids: 15 suits of 0-9 and X, 9 trumps, 174 cards") {
  std::set<std::string> ids;
  for (int c = 0; c < tc::kDeckSize; ++c) {
    const std::string& id = tc::card_id(c);
    REQUIRE(tc::parse_card(id) == c);
    ids.insert(id);
  }
  CHECK(ids.size() == 174);
  for (const char* id : {"MAZ0", "MAZ9", "MAZX", "BOO5", "RAIX", "BUG0", "FRO1", "INK2", "SCY3",
                         "PLU4", "FAC5", "TIM6", "LAM7", "HIV8", "EAR9", "ZURX", "TOP0"}) {
    CHECK(ids.count(id) == 1);
  }
  for (const auto& t : kAllTrumps) CHECK(ids.count(t) == 1);
  CHECK_FALSE(tc::parse_card("MAZ10").has_value());
  CHECK_FALSE(tc::parse_card("T-FOO").has_value());
  CHECK(tc::card_of(14, tc::kInfinity) == 164);
  // The 174-card set works across its three words.
  tc::DeckSet set;
  for (int c : {0, 63, 64, 127, 128, 173}) set.add(c);
  std::vector<int> visited;
  for (int c : set) visited.push_back(c);
  CHECK(visited == std::vector<int>{0, 63, 64, 127, 128, 173});
  CHECK(set.size() == 6);
  CHECK(tc::kAllCards.size() == 174);
  CHECK((tc::kAllCards - tc::kSuitedSet) == tc::kTrumpSet);
  CHECK(tc::colour_cards(4).size() == 33);
  CHECK(tc::suit_cards(5).lowest() == 55);
  // Through the interface: a stacked deck must name all 174 ids once.
  Value deck = Stack{}.deck();
  CHECK(casa::create_game("trophy-case", 4, Value::obj({{"deck", deck}}), 1).game);
  deck.as_array()[5] = Value("MAZ10");
  CHECK(casa::create_game("trophy-case", 4, Value::obj({{"deck", deck}}), 1).error->code ==
        "bad_option");
}

TEST_CASE("TC-1.3 colours: red Mazes Books Rain; a red lead is followed by any red suit") {
  Stack s;  // 4 players, dealer 3: seat 0 leads
  s.hands[0][0] = {"MAZ3"};
  s.hands[0][1] = {"BOO5", "RAI2", "BUG1", "SCY9"};
  s.hands[0][2] = {"FAC4", "T-GRANOLA"};
  Table t(4, s.options());
  t.play(0, "MAZ3");
  // Books and Rain are red like Mazes; Bugs (orange) and Scythes (yellow) are not.
  CHECK(t.legal(1) == std::vector<std::string>{"BOO5", "RAI2", "fold"});
  CHECK(t.refuse(1, Value::obj({{"type", "play"}, {"card", "BUG1"}})).code == "illegal_action");
  t.play(1, "RAI2");
  // Yellow Faces and a trump may be played on a red trick by a seat without red.
  const auto legal2 = t.legal(2);
  CHECK(holds(legal2, "FAC4"));
  CHECK(holds(legal2, "T-GRANOLA"));
  CHECK(legal2.size() == 13);  // 12 cards and fold
  // The suit order lists both red suits seen.
  CHECK(strings(*t.pub().find("trick")->find("suit_order")) ==
        std::vector<std::string>{"MAZ", "RAI"});
  CHECK(t.pub().find("trick")->get_string("led_colour", "") == "red");
}

// TC-1.4 / TC-4.5: Mud, played for seats without cards, scores nothing and never wins.
TEST_CASE("TC-1.4 TC-4.5 TC-4.6 seats out of cards play Mud automatically and stay in") {
  Stack s;
  s.players = 3;
  s.dealer = 2;  // seat 0 leads
  s.hands[0][0] = {"FAC1", "FAC3", "TIMX"};
  s.hands[0][1] = {"SCY2", "MAZ1", "EAR8"};
  s.hands[0][2] = {"BOO0"};
  const Value deck = s.deck();
  Table t(3, s.options());
  // Trick 1: everyone else folds.
  t.play(0, "FAC1");
  t.fold(1);
  t.fold(2);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 0);
  // Trick 2, led by seat 1 (the winner's left).
  t.play(1, "SCY2");
  t.fold(2);
  CHECK(t.legal(0) == std::vector<std::string>{"FAC3", "fold"});
  t.play(0, "FAC3");
  t.fold(1);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 0);
  CHECK(ints(*t.pub().find("hand_sizes")) == std::vector<int>{12, 13, 14});
  // Trick 3: seat 1 leads red; seat 2 must follow with its Books 0, a second red suit.
  t.play(1, "MAZ1");
  CHECK(t.legal(2) == std::vector<std::string>{"BOO0", "fold"});
  t.play(2, "BOO0");
  int mud_events = 0;
  std::vector<int> mud_seats;
  int guard = 0;
  while (trick_count(t) == 2) {
    REQUIRE(++guard < 200);
    // A seat without cards is never asked to act.
    CHECK_FALSE(t.hand(t.turn()).empty());
    t.play_lowest();
    for (const auto& m : t.last_of("mud")) {
      ++mud_events;
      mud_seats.push_back(static_cast<int>(m.get_int("seat", -1)));
    }
  }
  // Seat 0 ran out first, then seat 1; both played Mud (in that order) while seat 2
  // still held a card; they stayed in and could not fold.
  CHECK(mud_seats == std::vector<int>{0, 1});
  const auto trick = t.last_of("trick");
  REQUIRE(trick.size() == 1);
  // TC-4.6(c): nobody in has a card; Books 0 (second red suit) beats everything.
  CHECK(trick[0].get_int("winner", -1) == 2);
  CHECK(trick[0].get_string("reason", "") == "highest");
  CHECK(trick[0].get_int("points", -1) == 3);  // TIMX 2 + EAR8 1; Mud and a 0 without trump: 0
  const Value after = t.pub();
  const Value& plays = *last_trick(after).find("trick")->find("plays");
  int mud_in_record = 0;
  for (const auto& p : plays.as_array())
    if (p.get_bool("mud", false)) ++mud_in_record;
  CHECK(mud_in_record == 2);
  CHECK(ints(*t.pub().find("scores")) == std::vector<int>{0, 0, 3});
  // TC-6.3: every hand is empty, so the hand ends and hand 2 is dealt by seat 0.
  CHECK(t.last_of("hand_end").size() == 1);
  const Value pub = t.pub();
  CHECK(pub.get_int("hand_number", 0) == 2);
  CHECK(pub.get_int("dealer", -1) == 0);
  CHECK(pub.get_int("stock_size", 0) == 174 - 2 * 42);
  CHECK(pub.get_int("hands_left_before_reshuffle", -1) == 1);
  // TC-2.2: hand 2 continues the stock: dealer 0, so seat 1 gets positions 42..55.
  CHECK(as_set(t.hand(1)) == as_set(slice(deck, 42, 14)));
  CHECK(as_set(t.hand(2)) == as_set(slice(deck, 56, 14)));
  CHECK(as_set(t.hand(0)) == as_set(slice(deck, 70, 14)));
  // TC-8.2: each new hand goes privately to its seat only.
  int private_hands = 0;
  for (const auto& e : t.last) {
    if (e.body.get_string("type", "") != "hand") continue;
    ++private_hands;
    const int seat = static_cast<int>(e.body.get_int("seat", -1));
    CHECK(e.seats == casa::seat_bit(seat));
    CHECK_FALSE(e.spectators);
    CHECK(as_set(strings(*e.body.find("cards"))) == as_set(t.hand(seat)));
  }
  CHECK(private_hands == 3);
  // TC-2.3: the winner's left leads, although new hands were dealt (the new dealer's
  // left would be seat 1).
  CHECK(t.turn() == 0);
}

// ---------------------------------------------------------------------------
// TC-2 Seats and deals

TEST_CASE("TC-2.1 TC-2.3 the first dealer comes from the seed; the dealer's left leads") {
  std::set<int> dealers;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Table t(5, Value::object(), seed);
    const Value pub = t.pub();
    const int dealer = static_cast<int>(pub.get_int("dealer", -1));
    REQUIRE(dealer >= 0);
    REQUIRE(dealer < 5);
    dealers.insert(dealer);
    CHECK(t.turn() == (dealer + 1) % 5);
    Table again(5, Value::object(), seed);
    CHECK(again.game->full_state() == t.game->full_state());
  }
  CHECK(dealers.size() >= 3);
  Table fixed(5, Value::obj({{"dealer", 2}}), 9);
  CHECK(fixed.turn() == 3);
}

TEST_CASE("TC-2.2 hands of 14, 12, 11 from the stacked stock; reshuffle before hand 4") {
  for (int players = 3; players <= 5; ++players) {
    CAPTURE(players);
    Stack s;
    s.players = players;
    s.dealer = 1;
    const Value deck = s.deck();
    Table t(players, s.options(Value::obj({{"target", 1000}})));
    const int size = hand_size(players);
    // Block k of the stock goes to seat dealer + 1 + k.
    for (int k = 0; k < players; ++k) {
      const int seat = (1 + 1 + k) % players;
      CHECK(as_set(t.hand(seat)) == as_set(slice(deck, k * size, size)));
    }
    CHECK(t.pub().get_int("stock_size", 0) == 174 - players * size);
    CHECK(t.pub().get_int("hands_left_before_reshuffle", -1) == 2);
    // TC-A: three hands always fit in one stock.
    CHECK(3 * players * size <= 174);

    casa::Rng rng(players);
    std::vector<casa::Action> legal;
    for (int hand = 2; hand <= 4; ++hand) {
      int guard = 0;
      while (t.pub().get_int("hand_number", 0) < hand) {
        REQUIRE(++guard < 5000);
        const int seat = t.turn();
        t.game->legal_actions(seat, legal);
        t.apply_ok(seat, t.game->encode_action(legal[rng.below(legal.size())]));
        check_conservation(*t.game);
      }
      const Value pub = t.pub();
      CHECK(pub.get_int("dealer", -1) == (1 + hand - 1) % players);  // TC-2.1
      const auto deal = t.last_of("deal");
      REQUIRE(deal.size() == 1);
      if (hand < 4) {
        CHECK(pub.get_int("stock_size", 0) == 174 - hand * players * size);
        CHECK(pub.get_int("hands_left_before_reshuffle", -1) == 3 - hand);
        CHECK_FALSE(deal[0].get_bool("reshuffled", true));
      } else {
        // All 174 cards went back into the stock before hand 4.
        CHECK(pub.get_int("stock_size", 0) == 174 - players * size);
        CHECK(pub.get_int("hands_left_before_reshuffle", -1) == 2);
        CHECK(deal[0].get_bool("reshuffled", false));
        CHECK(pub.find("set_aside")->size() == 0);
        CHECK(pub.get_int("discarded_count", -1) == 0);
        // The last trick's result stays public, its cards do not (they are in the stock).
        CHECK(last_trick(pub).find("trick") == nullptr);
      }
    }
  }
}

TEST_CASE("TC-2.3 each later trick is led by the last winner's left-hand neighbour") {
  Stack s;
  s.dealer = 1;  // seat 2 leads the first trick
  s.hands[0][2] = {"MAZ1"};
  s.hands[0][0] = {"RAI4"};
  s.hands[0][1] = {"BOO7"};
  Table t(4, s.options());
  CHECK(t.turn() == 2);
  t.play(2, "MAZ1");
  t.fold(3);
  t.play(0, "RAI4");
  t.fold(1);
  t.fold(2);  // only seat 0 is still in
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 0);
  CHECK(t.turn() == 1);
  t.play(1, "BOO7");
  t.fold(2);
  t.fold(3);
  t.fold(0);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 1);
  CHECK(t.turn() == 2);
}

// ---------------------------------------------------------------------------
// TC-3 Leading

TEST_CASE("TC-3.1 the leader plays any suited card, never a trump, and cannot fold") {
  Stack s;
  s.hands[0][0] = {"MAZ1", "T-DEATH", "SCY8"};
  Table t(4, s.options());
  const auto legal = t.legal(0);
  CHECK(legal.size() == 11);  // the 11 suited cards
  CHECK_FALSE(holds(legal, "T-DEATH"));
  CHECK_FALSE(holds(legal, "fold"));
  CHECK(holds(legal, "SCY8"));
  CHECK(t.refuse(0, Value::obj({{"type", "play"}, {"card", "T-DEATH"}})).code == "illegal_action");
  CHECK(t.refuse(0, Value::obj({{"type", "fold"}})).code == "illegal_action");
  CHECK(t.refuse(0, Value::obj({{"type", "play"}, {"card", "MAZ2"}})).code == "illegal_action");
  t.play(0, "MAZ1");
  const Value trick = *t.pub().find("trick");
  CHECK(trick.get_string("led_suit", "") == "MAZ");
  CHECK(trick.get_string("led_colour", "") == "red");
  CHECK(strings(*trick.find("suit_order")) == std::vector<std::string>{"MAZ"});
}

TEST_CASE("TC-3.2 a leader holding only trumps shows them; all hands are redealt; same leader") {
  Stack s;
  s.players = 5;
  s.dealer = 4;  // seat 0 leads
  std::vector<std::string> seat0{"MAZ1", "MAZ2"};
  seat0.insert(seat0.end(), kAllTrumps.begin(), kAllTrumps.end());
  s.hands[0][0] = seat0;
  s.hands[0][1] = {"FAC1"};
  s.hands[0][4] = {"SCY5"};
  s.hands[1][0] = {"RAI5"};  // seat 0's second hand
  const Value deck = s.deck();
  Table t(5, s.options(Value::obj({{"hands", 1}})));
  t.play(0, "MAZ1");
  for (int seat = 1; seat <= 4; ++seat) t.fold(seat);
  // Trick 2, led by seat 1: seat 4 wins it, so seat 0 leads next with only trumps.
  t.play(1, "FAC1");
  t.fold(2);
  t.fold(3);
  CHECK(t.legal(4) == std::vector<std::string>{"SCY5", "fold"});
  t.play(4, "SCY5");
  t.play(0, "MAZ2");
  t.fold(1);
  t.play_lowest();  // seat 4, out of yellow now
  CHECK(as_set(t.hand(0)) == as_set(kAllTrumps));
  const std::vector<std::string> seat2_before = t.hand(2);
  t.fold(0);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 4);
  // The redeal happened inside that action, publicly.
  const auto redeal = t.last_of("redeal");
  REQUIRE(redeal.size() == 1);
  CHECK(redeal[0].get_int("seat", -1) == 0);
  CHECK(as_set(strings(*redeal[0].find("shown"))) == as_set(kAllTrumps));
  for (const auto& e : t.last) {
    if (e.body.get_string("type", "") == "redeal") {
      CHECK(e.spectators);
      CHECK(e.seats == 0x1Fu);
    }
  }
  CHECK(t.last_of("deal").size() == 1);
  CHECK(t.last_of("hand_end").empty());
  const Value pub = t.pub();
  REQUIRE(pub.find("shown")->size() == 1);
  CHECK(pub.find("shown")->as_array()[0].get_int("seat", -1) == 0);
  CHECK(as_set(strings(*pub.find("shown")->as_array()[0].find("cards"))) == as_set(kAllTrumps));
  CHECK(pub.get_int("hand_number", 0) == 2);
  CHECK(pub.get_int("dealer", -1) == 0);  // TC-2.1: the next player deals
  CHECK(pub.get_int("hands_left_before_reshuffle", -1) == 1);  // redeals count (TC-2.2)
  CHECK(pub.get_int("stock_size", 0) == 174 - 2 * 55);
  CHECK(pub.get_int("discarded_count", 0) == 9 + 10 + 11 + 11 + 9);
  CHECK(ints(*pub.find("hand_sizes")) == std::vector<int>{11, 11, 11, 11, 11});
  // New hands from the stock: dealer 0, so seat 1 takes positions 55..65, seat 0 the last block.
  CHECK(as_set(t.hand(1)) == as_set(slice(deck, 55, 11)));
  CHECK(as_set(t.hand(0)) == as_set(slice(deck, 99, 11)));
  CHECK(holds(t.hand(0), "RAI5"));
  // The same player leads; a redeal does not count as a hand played ("hands": 1).
  CHECK(t.turn() == 0);
  CHECK_FALSE(t.game->is_over());
  // TC-8.2: the shown trumps are public; the other discarded hands are not.
  for (Seat seat = kSpectator; seat < 5; ++seat) {
    const auto secret = as_set(t.game->secret_cards(seat));
    for (const auto& trump : kAllTrumps) CHECK(secret.count(trump) == 0);
    for (const auto& card : seat2_before) CHECK(secret.count(card) == 1);
  }
}

// ---------------------------------------------------------------------------
// TC-4 Turns on a trick

namespace {

// The `shown` list every seat and the spectator must see.
Value shows(std::initializer_list<std::pair<int, std::vector<std::string>>> list) {
  Value out = Value::array();
  for (const auto& [seat, cards] : list) {
    Value ids = Value::array();
    for (const auto& c : cards) ids.push(c);
    out.push(Value::obj({{"seat", seat}, {"cards", std::move(ids)}}));
  }
  return out;
}

void check_shown_everywhere(const Table& t, const Value& expected) {
  for (Seat seat = kSpectator; seat < t.game->players(); ++seat) {
    CAPTURE(seat);
    const Value v = t.view(seat);
    // Card order inside a shown hand is the hand's sorted order; compare as sets.
    const Value& shown = *v.find("shown");
    REQUIRE(shown.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(shown.as_array()[i].get_int("seat", -2) == expected.as_array()[i].get_int("seat", -3));
      CHECK(as_set(strings(*shown.as_array()[i].find("cards"))) ==
            as_set(strings(*expected.as_array()[i].find("cards"))));
    }
  }
}

}  // namespace

TEST_CASE("TC-3.2 TC-8.1 two hands shown before a reshuffle: each under its own seat, until the reshuffle") {
  const std::vector<std::string> first_show{"T-GRANOLA", "T-DEATH", "T-LIGHT", "T-SNAIL", "T-BEAUTY"};
  const std::vector<std::string> second_show{"T-TIME", "T-GRUE", "T-LOBSTER", "T-JESTER"};
  Stack s;
  s.players = 5;
  s.dealer = 4;  // seat 0 leads the first trick (TC-2.3)
  // Hand 1: seat 0 holds six Mazes and five trumps; the others hold fillers
  // (no red), so they may fold and seat 4 may play any of its cards.
  std::vector<std::string> seat0{"MAZ1", "MAZ2", "MAZ3", "MAZ4", "MAZ5", "MAZ6"};
  seat0.insert(seat0.end(), first_show.begin(), first_show.end());
  s.hands[0][0] = seat0;
  // Hand 2 (the redeal, dealer 0): seat 0 holds only red cards, seat 1 seven
  // yellow cards and the four other trumps.
  s.hands[1][0] = {"MAZ7", "MAZ8", "MAZ9", "MAZX", "MAZ0", "BOO1", "BOO2", "BOO3", "BOO4", "BOO5", "BOO6"};
  std::vector<std::string> seat1{"SCY1", "SCY2", "SCY3", "SCY4", "SCY5", "SCY6", "SCY7"};
  seat1.insert(seat1.end(), second_show.begin(), second_show.end());
  s.hands[1][1] = seat1;
  Table t(5, s.options(Value::obj({{"target", 10000}})));
  check_shown_everywhere(t, Value::array());

  // Hand 1: seats 1-3 fold; seat 0 plays out its Mazes against seat 4, then folds
  // holding only trumps: seat 4 wins and seat 0 leads with nothing but trumps.
  t.play(0, "MAZ1");
  t.fold(1);
  t.fold(2);
  t.fold(3);
  for (const char* card : {"MAZ2", "MAZ3", "MAZ4", "MAZ5", "MAZ6"}) {
    t.play_lowest();  // seat 4
    t.play(0, card);
  }
  t.play_lowest();  // seat 4
  CHECK(as_set(t.hand(0)) == as_set(first_show));
  t.fold(0);
  auto redeal = t.last_of("redeal");
  REQUIRE(redeal.size() == 1);
  CHECK(redeal[0].get_int("seat", -1) == 0);
  CHECK(as_set(strings(*redeal[0].find("shown"))) == as_set(first_show));
  CHECK(t.pub().get_int("hand_number", 0) == 2);
  check_shown_everywhere(t, shows({{0, first_show}}));

  // Hand 2: seat 0 leads again (TC-3.2). Seat 1 plays its seven yellow cards out
  // of colour, then folds: seat 0 wins, and seat 1 leads holding only trumps.
  CHECK(t.turn() == 0);
  t.play(0, "MAZ7");
  t.play(1, "SCY1");
  t.fold(2);
  t.fold(3);
  t.fold(4);
  const char* reds[] = {"MAZ8", "MAZ9", "MAZX", "MAZ0", "BOO1", "BOO2", "BOO3"};
  const char* yellows[] = {"SCY2", "SCY3", "SCY4", "SCY5", "SCY6", "SCY7"};
  for (int i = 0; i < 6; ++i) {
    t.play(0, reds[i]);
    t.play(1, yellows[i]);
  }
  t.play(0, reds[6]);
  CHECK(as_set(t.hand(1)) == as_set(second_show));
  t.fold(1);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 0);
  redeal = t.last_of("redeal");
  REQUIRE(redeal.size() == 1);
  CHECK(redeal[0].get_int("seat", -1) == 1);
  CHECK(as_set(strings(*redeal[0].find("shown"))) == as_set(second_show));
  // Both shows stay in every view, each under the seat that showed it.
  CHECK(t.pub().get_int("hand_number", 0) == 3);
  CHECK(t.pub().get_int("hands_left_before_reshuffle", -1) == 0);
  const Value both = shows({{0, first_show}, {1, second_show}});
  check_shown_everywhere(t, both);
  for (Seat seat = kSpectator; seat < 5; ++seat) {
    const auto secret = as_set(t.game->secret_cards(seat));
    for (const auto& trump : kAllTrumps) CHECK(secret.count(trump) == 0);
  }

  // Hand 3 is played out: both shows stay public through it; the reshuffle
  // before hand 4 takes their cards back into the stock and empties the list.
  int guard = 0;
  while (t.pub().get_int("hand_number", 0) == 3) {
    REQUIRE(++guard < 2000);
    REQUIRE_FALSE(t.game->is_over());
    check_shown_everywhere(t, both);
    std::vector<Action> legal;
    t.game->legal_actions(t.turn(), legal);
    REQUIRE(!legal.empty());
    t.apply_ok(t.turn(), t.game->encode_action(legal.front()));
  }
  REQUIRE(t.last_of("deal").size() == 1);
  CHECK(t.last_of("deal")[0].get_bool("reshuffled", false));
  CHECK(t.pub().get_int("hand_number", 0) == 4);
  check_shown_everywhere(t, Value::array());
}

TEST_CASE("TC-4.1 TC-4.2 turns go clockwise among players still in, leader included") {
  Stack s;
  s.hands[0][0] = {"MAZ1", "MAZ2"};
  Table t(4, s.options());
  t.play(0, "MAZ1");
  CHECK(t.turn() == 1);
  t.fold(1);
  CHECK(t.turn() == 2);
  // TC-4.2: play one card or fold.
  const auto legal2 = t.legal(2);
  CHECK(legal2.size() == 13);
  CHECK(legal2.back() == "fold");
  t.play_lowest();
  CHECK(t.turn() == 3);
  t.play_lowest();
  CHECK(t.turn() == 0);  // the leader again
  t.play(0, "MAZ2");
  CHECK(t.turn() == 2);  // seat 1 folded: skipped for the rest of the trick
  t.fold(2);
  CHECK(t.turn() == 3);
  CHECK(t.refuse(1, Value::obj({{"type", "fold"}})).code == "not_your_turn");
  t.fold(3);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 0);
  CHECK(last_trick(t.pub()).get_string("reason", "") == "last_in");
  CHECK(t.turn() == 1);
}

TEST_CASE("TC-4.3 holding the led colour forces it (any of its suits); otherwise anything") {
  Stack s;
  s.hands[0][0] = {"SCY4"};
  s.hands[0][1] = {"PLU9", "FAC0", "MAZ5"};
  s.hands[0][2] = {"T-LIGHT", "RAI8"};
  Table t(4, s.options());
  t.play(0, "SCY4");
  CHECK(t.legal(1) == std::vector<std::string>{"PLU9", "FAC0", "fold"});
  const auto err = t.refuse(1, Value::obj({{"type", "play"}, {"card", "MAZ5"}}));
  CHECK(err.code == "illegal_action");
  CHECK(err.message.find("You must follow yellow") != std::string::npos);
  t.play(1, "FAC0");
  // No yellow: any suited card out of colour, or a trump.
  const auto legal2 = t.legal(2);
  CHECK(holds(legal2, "T-LIGHT"));
  CHECK(holds(legal2, "RAI8"));
  CHECK(legal2.size() == 13);
  t.play(2, "RAI8");
  CHECK(strings(*t.pub().find("trick")->find("suit_order")) ==
        std::vector<std::string>{"SCY", "FAC"});  // an OoC card joins no suit order
}

TEST_CASE("TC-4.4 a fold is for good, its cards stay; no fold while holding the led suit") {
  Stack s;
  s.hands[0][0] = {"MAZ1", "MAZ2"};
  s.hands[0][1] = {"MAZ5"};
  s.hands[0][2] = {"BOO5", "BOO6"};
  Table t(4, s.options());
  t.play(0, "MAZ1");
  // Seat 1 holds a Maze: no fold.
  CHECK(t.legal(1) == std::vector<std::string>{"MAZ5"});
  const auto err = t.refuse(1, Value::obj({{"type", "fold"}}));
  CHECK(err.code == "illegal_action");
  CHECK(err.message.find("Mazes") != std::string::npos);
  t.play(1, "MAZ5");
  // Seat 2 holds red but not the led suit: it must play red or may fold.
  CHECK(t.legal(2) == std::vector<std::string>{"BOO5", "BOO6", "fold"});
  t.play(2, "BOO5");
  t.fold(3);
  t.play(0, "MAZ2");
  t.fold(1);  // no Maze left now
  t.fold(2);
  // Seat 0 is the only one left in; the folded seats' cards stayed in the trick.
  const Value last = last_trick(t.pub());
  CHECK(last.get_int("winner", -1) == 0);
  std::vector<std::string> cards;
  for (const auto& p : last.find("trick")->find("plays")->as_array())
    cards.push_back(p.get_string("card", ""));
  CHECK(cards == std::vector<std::string>{"MAZ1", "MAZ5", "BOO5", "MAZ2"});
  CHECK(ints(*last.find("trick")->find("folded")) == std::vector<int>{1, 2, 3});
  CHECK(t.all_of("fold").size() == 3);
}

TEST_CASE("TC-4.6 TC-6.1 a trump ends the trick at once; its 0s score; trumps score nothing") {
  Stack s;
  s.hands[0][0] = {"MAZ0"};
  s.hands[0][1] = {"BOO8"};
  s.hands[0][2] = {"RAIX"};
  s.hands[0][3] = {"T-DEATH", "RAI9"};
  Table t(4, s.options());
  t.play(0, "MAZ0");
  t.play(1, "BOO8");
  t.play(2, "RAIX");
  // Seat 3 holds red (RAI9) so may not trump yet.
  CHECK(t.legal(3) == std::vector<std::string>{"RAI9", "fold"});
  t.play(3, "RAI9");
  // Second round: seat 0 plays out of colour, seat 1 folds; seat 2 plays.
  t.play_lowest();
  t.fold(1);
  t.play_lowest();
  CHECK(holds(t.legal(3), "T-DEATH"));
  t.play(3, "T-DEATH");
  const auto trick = t.last_of("trick");
  REQUIRE(trick.size() == 1);
  CHECK(trick[0].get_int("winner", -1) == 3);
  CHECK(trick[0].get_string("reason", "") == "trump");
  // MAZ0 1 (a trump is in the trick) + BOO8 1 + RAIX 2 + RAI9 1; fillers (1-7) and the trump 0.
  CHECK(trick[0].get_int("points", -1) == 5);
  CHECK(ints(*t.pub().find("scores")) == std::vector<int>{0, 0, 0, 5});
  CHECK(t.turn() == 0);  // seat 3's left
}

TEST_CASE("TC-4.6 TC-5.4 TC-6.1 the last player in wins over a folded higher card; 0s without trump score nothing") {
  Stack s;
  s.hands[0][0] = {"MAZ9", "MAZ0"};
  s.hands[0][1] = {"FAC2"};
  Table t(4, s.options());
  t.play(0, "MAZ0");
  t.fold(1);
  t.fold(2);
  t.fold(3);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 0);
  CHECK(last_trick(t.pub()).get_int("points", -1) == 0);
  CHECK(t.turn() == 1);
  t.play(1, "FAC2");
  t.fold(2);
  t.fold(3);
  t.play(0, "MAZ9");  // out of colour: lower than FAC2
  t.fold(1);          // FAC2 is folded: it cannot win
  const Value last = last_trick(t.pub());
  CHECK(last.get_int("winner", -1) == 0);
  CHECK(last.get_string("reason", "") == "last_in");
  CHECK(last.get_int("points", -1) == 1);
  CHECK(ints(*t.pub().find("scores")) == std::vector<int>{1, 0, 0, 0});
  CHECK(t.turn() == 1);
}

// ---------------------------------------------------------------------------
// TC-5 The highest card (tricks played out until nobody in holds a card)

TEST_CASE("TC-5.1 TC-5.2 TC-4.6 in-colour suits rank by first appearance; every in-colour card beats OoC") {
  Stack s;
  s.players = 3;
  s.dealer = 2;
  s.hands[0][0] = {"MAZ9"};
  s.hands[0][1] = {"BOO0"};
  s.hands[0][2] = {"RAI0"};
  Table t(3, s.options(Value::obj({{"hands", 1}})));
  t.play(0, "MAZ9");
  t.play(1, "BOO0");
  t.play(2, "RAI0");
  CHECK(strings(*t.pub().find("trick")->find("suit_order")) ==
        std::vector<std::string>{"MAZ", "BOO", "RAI"});
  play_out_trick(t);
  // Everyone played all 14 cards: the third red suit wins, its 0 over the led 9 and
  // over every out-of-colour 7.
  const auto trick = t.last_of("trick");
  REQUIRE(trick.size() == 1);
  CHECK(trick[0].get_int("winner", -1) == 2);
  CHECK(trick[0].get_string("reason", "") == "highest");
  CHECK(trick[0].get_int("points", -1) == 1);  // MAZ9
  // The `hands` option ends the game after this hand; the best score wins.
  CHECK(t.game->is_over());
  CHECK(t.game->winners() == std::vector<Seat>{2});
  CHECK(t.game->to_act() == 0u);
  CHECK(t.pub().get_string("phase", "") == "over");
}

TEST_CASE("TC-5.3 TC-5.4 out-of-colour cards rank by value, the earlier first; folded cards cannot win") {
  Stack s;
  s.players = 3;
  s.dealer = 2;
  s.hands[0][0] = {"MAZ1"};
  s.hands[0][1] = {"TOP7"};
  s.hands[0][2] = {"EAR7"};
  Table t(3, s.options(Value::obj({{"hands", 1}})));
  t.play(0, "MAZ1");
  t.play(1, "TOP7");
  t.play(2, "EAR7");
  t.fold(0);  // MAZ1, the only in-colour card, can no longer win
  play_out_trick(t);
  const auto trick = t.last_of("trick");
  REQUIRE(trick.size() == 1);
  // All other cards are fillers of value 1-6; the two 7s tie and the earlier wins.
  CHECK(trick[0].get_int("winner", -1) == 1);
  CHECK(trick[0].get_int("points", -1) == 0);
  // Nobody scored in the single hand: under the `hands` option all tie and all win.
  CHECK(t.game->is_over());
  CHECK(t.game->winners() == std::vector<Seat>{0, 1, 2});
}

TEST_CASE("TC-5.4 TC-5.2 a folded player's card still fixes the suit order") {
  Stack s;
  s.players = 3;
  s.dealer = 2;
  s.hands[0][0] = {"MAZ5", "RAI9"};
  s.hands[0][1] = {"RAI2"};
  s.hands[0][2] = {"BOO3"};
  Table t(3, s.options());
  t.play(0, "MAZ5");
  t.play(1, "RAI2");  // Rain becomes the second red suit
  t.play(2, "BOO3");  // Books the third
  t.play(0, "RAI9");
  t.fold(1);
  CHECK(strings(*t.pub().find("trick")->find("suit_order")) ==
        std::vector<std::string>{"MAZ", "RAI", "BOO"});
  play_out_trick(t);
  const auto trick = t.last_of("trick");
  REQUIRE(trick.size() == 1);
  // BOO3 (third suit) beats RAI9 (second suit, placed there by the folded seat 1).
  CHECK(trick[0].get_int("winner", -1) == 2);
  CHECK(trick[0].get_int("points", -1) == 1);
}

// ---------------------------------------------------------------------------
// TC-6 Scoring and the end

TEST_CASE("TC-6.2 cards of a finished trick are set aside, publicly") {
  Stack s;
  s.hands[0][0] = {"MAZ8"};
  s.hands[0][1] = {"BOO2"};
  Table t(4, s.options());
  t.play(0, "MAZ8");
  t.play(1, "BOO2");
  t.fold(2);
  t.fold(3);
  t.fold(0);
  const Value pub = t.pub();
  CHECK(strings(*pub.find("set_aside")) == std::vector<std::string>{"MAZ8", "BOO2"});
  CHECK(pub.find("trick")->find("plays")->size() == 0);
  CHECK(ints(*pub.find("hand_sizes")) == std::vector<int>{11, 11, 12, 12});
  CHECK(ints(*pub.find("scores")) == std::vector<int>{0, 1, 0, 0});
  for (Seat seat = kSpectator; seat < 4; ++seat) {
    const auto secret = as_set(t.game->secret_cards(seat));
    CHECK(secret.count("MAZ8") == 0);
    CHECK(secret.count("BOO2") == 0);
  }
}

TEST_CASE("TC-6.3 reaching the target ends the game at once; no more actions") {
  Stack s;
  s.hands[0][0] = {"MAZX"};
  Table t(4, s.options(Value::obj({{"target", 2}})));
  CHECK(t.pub().get_int("target", 0) == 2);
  t.play(0, "MAZX");
  t.fold(1);
  t.fold(2);
  t.fold(3);
  CHECK(t.game->is_over());
  CHECK(t.game->winners() == std::vector<Seat>{0});
  CHECK(t.game->scores() == std::vector<int>{2, 0, 0, 0});
  CHECK(t.game->to_act() == 0u);
  CHECK(t.last_of("game_over").size() == 1);
  std::vector<casa::Action> legal;
  for (Seat seat = 0; seat < 4; ++seat) {
    t.game->legal_actions(seat, legal);
    CHECK(legal.empty());
  }
  CHECK(t.refuse(1, Value::obj({{"type", "fold"}})).code == "game_over");
  CHECK(ints(*t.view(2).find("winners")) == std::vector<int>{0});
}

TEST_CASE("TC-6.3 a hand ends when a player has no cards: other hands are discarded unseen") {
  // Three players; seat 0 wins two quick tricks, then a long trick empties seat 0.
  Stack s;
  s.players = 3;
  s.dealer = 2;
  s.hands[0][0] = {"MAZ1"};
  s.hands[0][1] = {"FAC5"};
  Table t(3, s.options());
  t.play(0, "MAZ1");
  t.fold(1);
  t.fold(2);
  // Seat 1 leads yellow; seats 2 and 0 hold none and play on, seat 1 folds after a while.
  t.play(1, "FAC5");
  int guard = 0;
  while (t.pub().get_int("hand_number", 0) == 1) {
    REQUIRE(++guard < 200);
    if (t.turn() == 1) {
      t.fold(1);
    } else {
      t.play_lowest();
    }
  }
  // Seat 0 started the trick with 13 cards, seat 2 with 14: seat 0 ran out, then
  // seat 2 played its last card and won by TC-4.6(c): its fillers go up to 5, seat
  // 0's only to 2 (all out of colour).
  CHECK(t.all_of("hand_end").size() == 1);
  CHECK(last_trick(t.pub()).get_int("winner", -1) == 2);
  CHECK(t.turn() == 0);
  const Value pub = t.pub();
  CHECK(pub.get_int("hand_number", 0) == 2);
  CHECK(ints(*pub.find("hand_sizes")) == std::vector<int>{14, 14, 14});
  // Seat 1 folded with 13 cards: discarded unseen, secret to everyone.
  CHECK(pub.get_int("discarded_count", 0) == 13);
  const auto discarded = strings(*t.game->full_state().find("discarded"));
  REQUIRE(discarded.size() == 13);
  for (Seat seat = kSpectator; seat < 3; ++seat) {
    const auto secret = as_set(t.game->secret_cards(seat));
    for (const auto& c : discarded) CHECK(secret.count(c) == 1);
  }
  for (const auto& e : t.all_of("hand_end")) CHECK(e.body.find("cards") == nullptr);
  check_conservation(*t.game);
}

// ---------------------------------------------------------------------------
// TC-7 Options

TEST_CASE("TC-7 options: target defaults to 30; bad options and player counts are refused") {
  Table t(4, Value::object());
  CHECK(t.pub().get_int("target", 0) == 30);
  auto code = [](int players, Value options) {
    auto r = casa::create_game("trophy-case", players, options, 1);
    return r.error ? r.error->code : std::string("ok");
  };
  CHECK(code(3, Value::object()) == "ok");
  CHECK(code(5, Value::object()) == "ok");
  CHECK(code(2, Value::object()) == "bad_players");
  CHECK(code(6, Value::object()) == "bad_players");
  CHECK(code(4, Value::obj({{"target", 10}})) == "ok");
  CHECK(code(4, Value::obj({{"target", 0}})) == "bad_option");
  CHECK(code(4, Value::obj({{"target", "30"}})) == "bad_option");
  CHECK(code(4, Value::obj({{"colour", 1}})) == "bad_option");
  CHECK(code(4, Value::obj({{"dealer", 4}})) == "bad_option");
  CHECK(code(4, Value::obj({{"dealer", 3}})) == "ok");
  CHECK(code(4, Value::obj({{"hands", 0}})) == "bad_option");
  CHECK(code(4, Value::obj({{"rounds", 2}})) == "ok");
  CHECK(code(4, Value::obj({{"hands", 2}, {"rounds", 2}})) == "bad_option");
  Value deck = Stack{}.deck();
  Value short_deck = deck;
  short_deck.as_array().pop_back();
  CHECK(code(4, Value::obj({{"deck", short_deck}})) == "bad_option");
  Value twice = deck;
  twice.as_array()[1] = twice.as_array()[0];
  CHECK(code(4, Value::obj({{"deck", twice}})) == "bad_option");
  CHECK(code(4, Value::obj({{"deck", "MAZ1"}})) == "bad_option");
}

// ---------------------------------------------------------------------------
// TC-8 What each player may see

TEST_CASE("TC-8.1 the public view: plays by seat, folds, suit order, results, counts") {
  Stack s;
  s.hands[0][0] = {"MAZ1"};
  s.hands[0][1] = {"RAI3"};
  Table t(4, s.options());
  t.play(0, "MAZ1");
  t.play(1, "RAI3");
  t.fold(2);
  Value pub = t.pub();
  CHECK(pub.get_string("game", "") == "trophy-case");
  CHECK(pub.get_int("seat", 0) == -1);
  CHECK(ints(*pub.find("to_act")) == std::vector<int>{3});
  CHECK(pub.get_int("turn", -1) == 3);
  CHECK(pub.get_int("dealer", -1) == 3);
  CHECK(pub.get_string("phase", "") == "play");
  CHECK(pub.get_int("stock_size", 0) == 174 - 48);
  CHECK(pub.get_int("hands_left_before_reshuffle", -1) == 2);
  CHECK(ints(*pub.find("hand_sizes")) == std::vector<int>{11, 11, 12, 12});
  CHECK(pub.find("hand") == nullptr);
  const Value& trick = *pub.find("trick");
  CHECK(trick.get_int("leader", -1) == 0);
  CHECK(strings(*trick.find("suit_order")) == std::vector<std::string>{"MAZ", "RAI"});
  CHECK(ints(*trick.find("folded")) == std::vector<int>{2});
  CHECK(ints(*trick.find("in")) == std::vector<int>{0, 1, 3});
  const auto& plays = trick.find("plays")->as_array();
  REQUIRE(plays.size() == 2);
  CHECK(plays[0].get_int("seat", -1) == 0);
  CHECK(plays[0].get_string("card", "") == "MAZ1");
  CHECK(plays[1].get_int("seat", -1) == 1);
  CHECK(plays[1].get_string("card", "") == "RAI3");
  // Every event so far was public.
  for (const auto& e : t.events) {
    CHECK(e.spectators);
    CHECK(e.seats == 0xFu);
  }
  t.fold(3);
  t.fold(0);
  pub = t.pub();
  CHECK(last_trick(pub).get_int("winner", -1) == 1);
  CHECK(last_trick(pub).get_int("points", -1) == 0);
  CHECK(*pub.find("shown") == Value::array());
  // Every seat sees the same public part.
  for (Seat seat = 0; seat < 4; ++seat) {
    Value v = t.view(seat);
    CHECK(v.get_int("seat", -1) == seat);
    CHECK(*v.find("trick") == *pub.find("trick"));
    CHECK(*v.find("last_trick") == *pub.find("last_trick"));
    CHECK(*v.find("scores") == *pub.find("scores"));
  }
}

TEST_CASE("TC-8.2 a seat sees its own hand only; hidden cards are reported as secret") {
  Stack s;
  s.players = 5;
  s.dealer = 0;
  const Value deck = s.deck();
  Table t(5, s.options());
  for (Seat seat = 0; seat < 5; ++seat) {
    const auto mine = t.hand(seat);
    CHECK(mine.size() == 11);
    const auto secret = as_set(t.game->secret_cards(seat));
    for (const auto& c : mine) CHECK(secret.count(c) == 0);
    for (Seat other = 0; other < 5; ++other) {
      if (other == seat) continue;
      for (const auto& c : t.hand(other)) CHECK(secret.count(c) == 1);
    }
    CHECK(secret.size() == 174 - 11);  // other hands and the stock
  }
  CHECK(t.game->secret_cards(kSpectator).size() == 174);
  // The stock's content is in no view.
  std::set<std::string> seen;
  for (Seat seat = kSpectator; seat < 5; ++seat) casa::testing::collect_strings(t.view(seat), seen);
  for (int i = 55; i < 174; ++i) CHECK(seen.count(deck.as_array()[i].as_string()) == 0);
}

TEST_CASE("TC-8.2 determinize keeps a seat's view and redistributes only hidden cards") {
  Table t(4, Value::obj({{"dealer", 0}}), 99);
  t.play_lowest();
  t.play_lowest();
  for (Seat seat = 0; seat < 4; ++seat) {
    auto a = t.game->determinize(seat, 5);
    auto b = t.game->determinize(seat, 5);
    auto c = t.game->determinize(seat, 6);
    CHECK(a->view(seat) == t.view(seat));
    CHECK(a->full_state() == b->full_state());
    CHECK(a->full_state() != c->full_state());
    check_conservation(*a);
    const Seat other = (seat + 1) % 4;
    CHECK(a->view(other) != t.view(other));
  }
}

namespace {

// Seat 0 leads MAZ5 (red); seat 1, holding no red, plays BUG2 off colour
// (TC-4.3: so it holds no red at all); seat 2, holding no Mazes, folds (TC-4.4:
// so it holds no Mazes); seat 3 follows with BOO3. The trick goes on. Seat 2's
// and seat 3's other hidden cards are `two` and `three`.
Table void_position(const std::string& two, const std::string& three) {
  Stack s;
  s.hands[0][0] = {"MAZ5"};
  s.hands[0][1] = {"BUG2"};
  s.hands[0][2] = {two};
  s.hands[0][3] = {"BOO3", three};
  Table t(4, s.options());
  t.play(0, "MAZ5");
  t.play(1, "BUG2");
  t.fold(2);
  t.play(3, "BOO3");
  REQUIRE(t.turn() == 0);
  return t;
}

bool red(const std::string& id) {
  return id.rfind("MAZ", 0) == 0 || id.rfind("BOO", 0) == 0 || id.rfind("RAI", 0) == 0;
}

// One sample seen from `viewer`: the same view, every hand its size, the
// viewer's own hand kept, and no card a seat has shown it lacks.
void check_void_sample(const Table& t, Seat viewer, const casa::Game& sample) {
  CHECK(sample.view(viewer) == t.view(viewer));
  check_conservation(sample);
  const Value truth = t.game->full_state();
  const Value state = sample.full_state();
  for (Seat s = 0; s < 4; ++s) {
    const auto hand = strings(state.find("hands")->as_array()[static_cast<std::size_t>(s)]);
    const auto real = strings(truth.find("hands")->as_array()[static_cast<std::size_t>(s)]);
    CHECK(hand.size() == real.size());
    if (s == viewer) CHECK(hand == real);
    for (const auto& c : hand) {
      if (s == 1) CHECK_MESSAGE(!red(c), "seat 1 is void in red, yet given ", c);
      if (s == 2) CHECK_MESSAGE(c.rfind("MAZ", 0) != 0, "seat 2 is void in Mazes, yet given ", c);
    }
  }
  CHECK(strings(*state.find("discarded")).size() == strings(*truth.find("discarded")).size());
  CHECK(strings(*state.find("stock")).size() == strings(*truth.find("stock")).size());
}

}  // namespace

TEST_CASE("TC-4.3 TC-4.4 TC-8.2 determinize gives no seat a suit it has shown it lacks") {
  Table t = void_position("TIM1", "LAM1");
  for (Seat viewer = 0; viewer < 4; ++viewer) {
    INFO("viewer ", viewer);
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      INFO("seed ", seed);
      check_void_sample(t, viewer, *t.game->determinize(viewer, seed));
    }
  }
}

TEST_CASE("TC-4.3 TC-4.4 TC-8.2 the placement that never fails meets the voids alone too") {
  Table t = void_position("TIM1", "LAM1");
  const auto& game = dynamic_cast<const tc::TrophyCaseGame&>(*t.game);
  CHECK(game.void_suits(0) == 0);
  CHECK(game.void_suits(1) == 0b111);  // Mazes, Books, Rain: the red suits (TC-1.3)
  CHECK(game.void_suits(2) == 0b001);  // Mazes
  CHECK(game.void_suits(3) == 0);
  for (Seat viewer = 0; viewer < 4; ++viewer) {
    INFO("viewer ", viewer);
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
      INFO("seed ", seed);
      auto sample = game.determinize_with(viewer, seed, 0);
      check_void_sample(t, viewer, *sample);
      CHECK(sample->full_state() == game.determinize_with(viewer, seed, 0)->full_state());
    }
  }
}

TEST_CASE("TC-4.4 TC-8.2 determinize with voids never peeks: hidden cards swapped, same samples") {
  // Seats 0 and 1 cannot tell these two tables apart: TIM1 and LAM1 (neither
  // played) are in seat 2's and seat 3's hands one way or the other.
  Table a = void_position("TIM1", "LAM1");
  Table b = void_position("LAM1", "TIM1");
  REQUIRE(a.game->full_state() != b.game->full_state());
  const auto& ga = dynamic_cast<const tc::TrophyCaseGame&>(*a.game);
  const auto& gb = dynamic_cast<const tc::TrophyCaseGame&>(*b.game);
  for (Seat viewer : {0, 1}) {
    INFO("viewer ", viewer);
    REQUIRE(a.view(viewer) == b.view(viewer));
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      INFO("seed ", seed);
      CHECK(ga.determinize(viewer, seed)->full_state() ==
            gb.determinize(viewer, seed)->full_state());
      CHECK(ga.determinize_with(viewer, seed, 0)->full_state() ==
            gb.determinize_with(viewer, seed, 0)->full_state());
    }
    CHECK(ga.determinize(viewer, 1)->full_state() != ga.determinize(viewer, 2)->full_state());
  }
}

// ---------------------------------------------------------------------------
// The robot

TEST_CASE("robot: grabs a rich trick with a trump, folds a lost one, keeps a won one") {
  Stack s;
  s.hands[0][0] = {"MAZX", "MAZ9"};
  s.hands[0][1] = {"T-GRUE"};
  Table t(4, s.options());
  casa::Rng rng(1);
  t.play(0, "MAZX");
  // Seat 1 holds no red and a trump; the trick is worth 2.
  const casa::Action a = tc::rule_bot_action(*t.game, 1, rng);
  CHECK(t.game->encode_action(a) == Value::obj({{"type", "play"}, {"card", "T-GRUE"}}));
  t.fold(1);
  // Seat 2 cannot beat MAZX with out-of-colour cards: it folds.
  const casa::Action b = tc::rule_bot_action(*t.game, 2, rng);
  CHECK(b.kind == tc::kFold);
  t.fold(2);
  t.fold(3);
  // Leading: the robot never leads a point card when a pointless one is at hand.
  const casa::Action lead = tc::rule_bot_action(*t.game, 1, rng);
  CHECK(lead.kind == tc::kPlay);
  CHECK(tc::card_points(lead.card, true) == 0);
}
