// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/trophy_case/trophy_case.h"
#include "engine/options.h"
#include "engine/teams.h"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "engine/action_fields.h"
#include "engine/games/trophy_case/cards.h"
#include "engine/games/trophy_case/trophy_case_game.h"

namespace casa::trophy_case {

// ---------------------------------------------------------------------------
// Card ids (TC-1.1, TC-1.2)

namespace {

std::array<std::string, kDeckSize> make_ids() {
  std::array<std::string, kDeckSize> ids;
  for (int s = 0; s < kSuits; ++s) {
    for (int v = 0; v < kValues; ++v) {
      ids[card_of(s, v)] = std::string(kSuitCodes[s]) + (v == kInfinity ? 'X' : char('0' + v));
    }
  }
  for (int t = 0; t < kTrumps; ++t) ids[kSuitedCards + t] = std::string(kTrumpIds[t]);
  return ids;
}

const std::array<std::string, kDeckSize>& all_ids() {
  static const std::array<std::string, kDeckSize> ids = make_ids();
  return ids;
}

}  // namespace

const std::string& card_id(int card) { return all_ids()[card]; }

std::optional<int> parse_card(std::string_view id) {
  const auto& ids = all_ids();
  for (int c = 0; c < kDeckSize; ++c)
    if (ids[c] == id) return c;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Small helpers for views and events

namespace {

Value card_list(const DeckSet& cards) {
  Value list = Value::array();
  for (int c : cards) list.push(card_id(c));
  return list;
}

Value seat_list(SeatMask mask) {
  Value list = Value::array();
  for (int s = 0; s < kMaxSeats; ++s)
    if (mask & seat_bit(s)) list.push(s);
  return list;
}

const char* reason_name(TrickEnd reason) {
  switch (reason) {
    case TrickEnd::kTrump: return "trump";
    case TrickEnd::kLastIn: return "last_in";
    case TrickEnd::kHighest: return "highest";
    case TrickEnd::kNone: break;
  }
  return "none";
}

std::string colour_name(int colour) { return std::string(kColourNames[colour]); }
std::string suit_name(int suit) { return std::string(kSuitNames[suit]); }

}  // namespace

// ---------------------------------------------------------------------------
// Setup

TrophyCaseGame::TrophyCaseGame(const Config& config, std::uint64_t seed)
    : players_(config.players),
      target_(config.target),
      stop_after_hands_(config.stop_after_hands),
      seed_(seed),
      rng_(seed),
      dealer_(config.dealer) {
  if (config.stacked) {
    stock_ = config.deck;
    stock_top_ = 0;
  } else {
    reshuffle();
  }
  recalled_ = DeckSet();
  deal_hand(nullptr);
  // TC-2.3 The first dealer's left-hand neighbour leads the first trick.
  begin_trick(next_seat(dealer_), nullptr);
}

// TC-2.2 All 174 cards go back into the stock, shuffled. Hands are empty here:
// a hand always ends (or is redealt) before the next one is dealt.
void TrophyCaseGame::reshuffle() {
  recalled_ = set_aside_ | shown_;
  set_aside_ = DeckSet();
  discarded_ = DeckSet();
  shown_ = DeckSet();
  show_count_ = 0;
  last_.cards_visible = false;
  for (int c = 0; c < kDeckSize; ++c) stock_[c] = static_cast<std::uint8_t>(c);
  rng_.shuffle(stock_.data(), stock_.size());
  stock_top_ = 0;
  hands_since_shuffle_ = 0;
  ++shuffles_;
}

// TC-2.2 Deals one hand: blocks of hand_size(players) from the top of the stock,
// the first to the dealer's left, the last to the dealer.
void TrophyCaseGame::deal_hand(std::vector<Event>* events) {
  bool reshuffled = false;
  if (hands_since_shuffle_ == kHandsPerShuffle) {
    reshuffle();
    reshuffled = true;
  }
  ++hand_number_;
  ++hands_since_shuffle_;
  voids_ = {};  // a new hand: nothing is known of it yet
  const int size = hand_size(players_);
  for (int k = 0; k < players_; ++k) {
    const int seat = (dealer_ + 1 + k) % players_;
    for (int i = 0; i < size; ++i) hands_[seat].add(stock_[stock_top_++]);
  }
  if (!events) return;
  Value sizes = Value::array();
  for (int s = 0; s < players_; ++s) sizes.push(hands_[s].size());
  events->push_back({all_seats(), true,
                     Value::obj({{"type", "deal"},
                                 {"hand_number", hand_number_},
                                 {"dealer", dealer_},
                                 {"reshuffled", reshuffled},
                                 {"hand_sizes", std::move(sizes)},
                                 {"stock_size", kDeckSize - stock_top_},
                                 {"hands_left_before_reshuffle",
                                  kHandsPerShuffle - hands_since_shuffle_}})});
  for (int s = 0; s < players_; ++s) {
    events->push_back({seat_bit(s), false,
                       Value::obj({{"type", "hand"}, {"seat", s}, {"cards", card_list(hands_[s])}})});
  }
}

// Starts a trick led by `leader`. TC-3.2: a leader holding only trumps shows
// them; every hand is discarded, a new hand is dealt, and the same player leads.
void TrophyCaseGame::begin_trick(int leader, std::vector<Event>* events) {
  for (;;) {
    trick_.leader = leader;
    trick_.led_suit = -1;
    trick_.suit_order = {-1, -1, -1};
    trick_.suits_seen = 0;
    trick_.in = all_seats();
    trick_.count = 0;
    turn_ = leader;
    if (!(hands_[leader] & kSuitedSet).empty()) return;
    // TC-8.1 The shown hand stays public, under the seat that showed it, until
    // the next reshuffle takes its cards back into the stock.
    shown_ |= hands_[leader];
    shows_[show_count_++] = Show{leader, hands_[leader]};
    if (events) {
      events->push_back({all_seats(), true,
                         Value::obj({{"type", "redeal"},
                                     {"seat", leader},
                                     {"shown", card_list(hands_[leader])}})});
    }
    for (int s = 0; s < players_; ++s) {
      discarded_ |= hands_[s];
      hands_[s] = DeckSet();
    }
    dealer_ = next_seat(dealer_);  // TC-2.1 each new hand is dealt by the next player
    deal_hand(events);
  }
}

// ---------------------------------------------------------------------------
// Legal actions

void TrophyCaseGame::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (over_ || seat != turn_) return;
  const DeckSet& hand = hands_[seat];
  if (trick_.count == 0) {
    // TC-3.1 Any suited card may be led.
    for (int c : hand & kSuitedSet) out.push_back(Action{kPlay, static_cast<std::uint16_t>(c)});
    return;
  }
  // TC-4.3 Follow the led colour when possible; otherwise anything.
  const DeckSet in_colour = hand & colour_cards(trick_.led_colour());
  for (int c : in_colour.empty() ? hand : in_colour)
    out.push_back(Action{kPlay, static_cast<std::uint16_t>(c)});
  // TC-4.4 No folding while holding the led suit.
  if ((hand & suit_cards(trick_.led_suit)).empty()) out.push_back(Action{kFold, 0});
}

std::optional<Error> TrophyCaseGame::check_play(Seat seat, int card) const {
  if (card < 0 || card >= kDeckSize) return Error{"illegal_action", "There is no such card."};
  const DeckSet& hand = hands_[seat];
  if (!hand.has(card)) return Error{"illegal_action", "You do not hold " + card_id(card) + "."};
  if (trick_.count == 0) {
    if (is_trump(card)) return Error{"illegal_action", "A trick must be led with a suited card."};
    return std::nullopt;
  }
  const int colour = trick_.led_colour();
  const DeckSet in_colour = hand & colour_cards(colour);
  if (!in_colour.empty() && !in_colour.has(card)) {
    std::string held;
    for (int c : in_colour) held += (held.empty() ? "" : ", ") + card_id(c);
    return Error{"illegal_action",
                 "You must follow " + colour_name(colour) + ": you hold " + held + "."};
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Applying actions

Error TrophyCaseGame::not_your_turn(Seat) const {
  return Error{"not_your_turn", "It is seat " + std::to_string(turn_) + "'s turn."};
}

// Game::apply refused a finished game and a seat whose turn it is not.
std::optional<Error> TrophyCaseGame::step(Seat seat, const Action& action, std::vector<Event>* events) {
  if (action.kind == kPlay) {
    if (auto err = check_play(seat, action.card)) return err;
    recalled_ = DeckSet();
    play_card(action.card, events);
    return std::nullopt;
  }
  if (action.kind == kFold) {
    if (trick_.count == 0) {
      return Error{"illegal_action", "The leader must lead a card, not fold."};
    }
    if (!(hands_[seat] & suit_cards(trick_.led_suit)).empty()) {
      return Error{"illegal_action", "You may not fold while you hold " +
                                         suit_name(trick_.led_suit) + ", the led suit."};
    }
    recalled_ = DeckSet();
    fold(events);
    return std::nullopt;
  }
  return Error{"illegal_action", "Trophy Case knows only play and fold."};
}

void TrophyCaseGame::play_card(int card, std::vector<Event>* events) {
  const int seat = turn_;
  hands_[seat].remove(card);
  trick_.plays[trick_.count++] = Play{static_cast<std::uint8_t>(seat), static_cast<std::uint8_t>(card)};
  if (trick_.count == 1) {
    // TC-3.1 The lead fixes the led suit and colour.
    trick_.led_suit = suit_of(card);
    trick_.suit_order[0] = trick_.led_suit;
    trick_.suits_seen = 1;
  } else if (is_trump(card) || colour_of_suit(suit_of(card)) != trick_.led_colour()) {
    // TC-4.3 A player holding a card of the led colour must play one: a card off
    // that colour shows, to everyone, that the player holds none of it.
    const int first_suit = trick_.led_colour() * kSuitsPerColour;
    voids_[seat] |= static_cast<std::uint16_t>(((1u << kSuitsPerColour) - 1) << first_suit);
  } else if (trick_.suit_rank(suit_of(card)) < 0) {
    // TC-5.2 / TC-5.4 A new in-colour suit ranks above the earlier ones, whoever played it.
    trick_.suit_order[trick_.suits_seen++] = suit_of(card);
  }
  if (events) {
    events->push_back({all_seats(), true,
                       Value::obj({{"type", "play"},
                                   {"seat", seat},
                                   {"card", card_id(card)},
                                   {"hand_size", hands_[seat].size()}})});
  }
  if (!check_trick_end(card, events)) advance_turn(events);
}

// TC-4.4 A fold puts the player out of this trick; their cards stay in it.
void TrophyCaseGame::fold(std::vector<Event>* events) {
  const int seat = turn_;
  trick_.in &= ~seat_bit(seat);
  // TC-4.4 A player holding a card of the led suit may not fold: a fold shows
  // that the player holds none of it.
  voids_[seat] |= static_cast<std::uint16_t>(1u << trick_.led_suit);
  if (events) {
    events->push_back({all_seats(), true, Value::obj({{"type", "fold"}, {"seat", seat}})});
  }
  if (!check_trick_end(kMud, events)) advance_turn(events);
}

// TC-4.6 The end conditions, in the spec's order.
bool TrophyCaseGame::check_trick_end(int last_card, std::vector<Event>* events) {
  if (is_trump(last_card)) {  // (a)
    finish_trick(turn_, TrickEnd::kTrump, events);
    return true;
  }
  if (std::popcount(trick_.in) == 1) {  // (b)
    finish_trick(std::countr_zero(trick_.in), TrickEnd::kLastIn, events);
    return true;
  }
  for (int s = 0; s < players_; ++s) {
    if ((trick_.in & seat_bit(s)) && !hands_[s].empty()) return false;
  }
  finish_trick(current_best(), TrickEnd::kHighest, events);  // (c)
  return true;
}

// TC-4.1 Turns go clockwise among the players still in; TC-4.5 a player with no
// cards plays Mud without being asked.
void TrophyCaseGame::advance_turn(std::vector<Event>* events) {
  for (;;) {
    int s = next_seat(turn_);
    while (!(trick_.in & seat_bit(s))) s = next_seat(s);
    turn_ = s;
    if (!hands_[s].empty()) return;
    trick_.plays[trick_.count++] = Play{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(kMud)};
    if (events) {
      events->push_back({all_seats(), true, Value::obj({{"type", "mud"}, {"seat", s}})});
    }
    if (check_trick_end(kMud, events)) return;
  }
}

// TC-5 The best card among those played by players still in.
int TrophyCaseGame::current_best(int extra_card, int by) const {
  int best_seat = -1;
  int best_key = -1;
  const int colour = trick_.led_colour();
  int new_suit_rank = trick_.suits_seen;
  auto consider = [&](int seat, int card) {
    if (card == kMud || is_trump(card) || !(trick_.in & seat_bit(seat))) return;
    const int suit = suit_of(card);
    int key = value_of(card);  // TC-5.3 OoC: value alone
    if (colour_of_suit(suit) == colour) {
      int rank = trick_.suit_rank(suit);
      if (rank < 0) rank = new_suit_rank;
      key = 100 + rank * 16 + value_of(card);  // TC-5.1, TC-5.2
    }
    // Strictly greater: on equal OoC values the earlier play stays ahead (TC-5.3).
    if (key > best_key) {
      best_key = key;
      best_seat = seat;
    }
  };
  for (int i = 0; i < trick_.count; ++i) consider(trick_.plays[i].seat, trick_.plays[i].card);
  if (extra_card != kMud && by >= 0) consider(by, extra_card);
  return best_seat;
}

int TrophyCaseGame::trick_points(bool with_trump) const {
  int points = 0;
  for (int i = 0; i < trick_.count; ++i) points += card_points(trick_.plays[i].card, with_trump);
  return points;
}

// TC-6.1 scoring, TC-6.2 set aside, TC-6.3 game end or hand end, TC-2.3 next leader.
void TrophyCaseGame::finish_trick(int winner, TrickEnd reason, std::vector<Event>* events) {
  const int points = trick_points(reason == TrickEnd::kTrump);
  scores_[winner] += points;
  for (int i = 0; i < trick_.count; ++i) {
    if (trick_.plays[i].card != kMud) set_aside_.add(trick_.plays[i].card);
  }
  last_.trick = trick_;
  last_.winner = winner;
  last_.points = points;
  last_.reason = reason;
  last_.cards_visible = true;
  ++tricks_played_;
  // The cards now lie set aside; the current trick stays empty until the next lead.
  trick_.count = 0;
  trick_.led_suit = -1;
  trick_.suit_order = {-1, -1, -1};
  trick_.suits_seen = 0;
  trick_.in = all_seats();
  if (events) {
    // The trick just finished is last_.trick: trick_ is already cleared for the next lead.
    Value cards = Value::array();
    for (int i = 0; i < last_.trick.count; ++i) {
      if (last_.trick.plays[i].card != kMud) cards.push(card_id(last_.trick.plays[i].card));
    }
    Value sc = Value::array();
    for (int s = 0; s < players_; ++s) sc.push(scores_[s]);
    events->push_back({all_seats(), true,
                       Value::obj({{"type", "trick"},
                                   {"winner", winner},
                                   {"points", points},
                                   {"reason", reason_name(reason)},
                                   {"cards", std::move(cards)},
                                   {"scores", std::move(sc)}})});
  }
  if (scores_[winner] >= target_) {
    over_ = true;
    winners_ = seat_bit(winner);
    if (events) {
      events->push_back({all_seats(), true,
                         Value::obj({{"type", "game_over"}, {"winners", seat_list(winners_)}})});
    }
    return;
  }
  bool someone_empty = false;
  for (int s = 0; s < players_; ++s) someone_empty = someone_empty || hands_[s].empty();
  if (someone_empty) {
    for (int s = 0; s < players_; ++s) {
      discarded_ |= hands_[s];
      hands_[s] = DeckSet();
    }
    ++hands_played_;
    if (events) {
      events->push_back({all_seats(), true,
                         Value::obj({{"type", "hand_end"}, {"hands_played", hands_played_}})});
    }
    if (stop_after_hands_ > 0 && hands_played_ >= stop_after_hands_) {
      end_game_by_hands(events);
      return;
    }
    dealer_ = next_seat(dealer_);
    deal_hand(events);
  }
  begin_trick(next_seat(winner), events);
}

// The `hands` testing option: the highest score wins, ties give several winners.
void TrophyCaseGame::end_game_by_hands(std::vector<Event>* events) {
  over_ = true;
  const int best = *std::max_element(scores_.begin(), scores_.begin() + players_);
  winners_ = 0;
  for (int s = 0; s < players_; ++s)
    if (scores_[s] == best) winners_ |= seat_bit(s);
  if (events) {
    events->push_back({all_seats(), true,
                       Value::obj({{"type", "game_over"}, {"winners", seat_list(winners_)}})});
  }
}

// ---------------------------------------------------------------------------
// Results, views and state

std::vector<int> TrophyCaseGame::scores() const {
  return std::vector<int>(scores_.begin(), scores_.begin() + players_);
}

std::vector<Seat> TrophyCaseGame::winners() const {
  std::vector<Seat> out;
  for (int s = 0; s < players_; ++s)
    if (winners_ & seat_bit(s)) out.push_back(s);
  return out;
}

Value TrophyCaseGame::trick_value(const Trick& trick) const {
  Value plays = Value::array();
  for (int i = 0; i < trick.count; ++i) {
    const Play& p = trick.plays[i];
    if (p.card == kMud) {
      plays.push(Value::obj({{"seat", int(p.seat)}, {"mud", true}}));
    } else {
      plays.push(Value::obj({{"seat", int(p.seat)}, {"card", card_id(p.card)}}));
    }
  }
  Value order = Value::array();
  for (int i = 0; i < trick.suits_seen; ++i) order.push(std::string(kSuitCodes[trick.suit_order[i]]));
  Value t = Value::obj({{"leader", trick.leader}});
  t.set("led_suit", trick.led_suit < 0 ? Value() : Value(std::string(kSuitCodes[trick.led_suit])));
  t.set("led_colour", trick.led_suit < 0 ? Value() : Value(colour_name(trick.led_colour())));
  t.set("suit_order", std::move(order));
  t.set("in", seat_list(trick.in));
  t.set("folded", seat_list(all_seats() & ~trick.in));
  t.set("plays", std::move(plays));
  return t;
}

Value TrophyCaseGame::shows_value() const {
  Value shows = Value::array();
  for (int i = 0; i < show_count_; ++i) {
    shows.push(Value::obj({{"seat", shows_[i].seat}, {"cards", card_list(shows_[i].cards)}}));
  }
  return shows;
}

Value TrophyCaseGame::view(Seat seat) const {
  Value v = Value::obj({{"game", "trophy-case"}, {"seat", seat}});
  // Every player plays for themselves.
  v.set("teams", teams_value(players_, players_, [](Seat s) { return s; }));
  v.set("to_act", seat_list(to_act()));
  v.set("phase", over_ ? "over" : "play");
  Value sc = Value::array();
  Value sizes = Value::array();
  for (int s = 0; s < players_; ++s) {
    sc.push(scores_[s]);
    sizes.push(hands_[s].size());
  }
  v.set("scores", std::move(sc));
  v.set("target", target_);
  v.set("dealer", dealer_);
  v.set("hand_number", hand_number_);
  v.set("hands_left_before_reshuffle", kHandsPerShuffle - hands_since_shuffle_);
  v.set("stock_size", kDeckSize - stock_top_);
  v.set("hand_sizes", std::move(sizes));
  v.set("turn", over_ ? Value() : Value(turn_));
  v.set("tricks_played", tricks_played_);
  v.set("set_aside", card_list(set_aside_));
  v.set("discarded_count", discarded_.size());
  v.set("shown", shows_value());
  v.set("trick", trick_value(trick_));
  if (last_.winner < 0) {
    v.set("last_trick", Value());
  } else {
    Value last = Value::obj({{"winner", last_.winner},
                             {"points", last_.points},
                             {"reason", reason_name(last_.reason)}});
    // After a reshuffle its cards are back in the stock: only the result remains.
    if (last_.cards_visible) last.set("trick", trick_value(last_.trick));
    v.set("last_trick", std::move(last));
  }
  v.set("winners", seat_list(winners_));
  if (seat >= 0 && seat < players_) v.set("hand", card_list(hands_[seat]));
  return v;
}

Value TrophyCaseGame::full_state() const {
  Value v = Value::obj({{"game", "trophy-case"}, {"players", players_}});
  v.set("target", target_);
  v.set("stop_after_hands", stop_after_hands_);
  v.set("seed", std::to_string(seed_));
  v.set("shuffles", shuffles_);
  v.set("dealer", dealer_);
  v.set("hand_number", hand_number_);
  v.set("hands_since_shuffle", hands_since_shuffle_);
  v.set("hands_played", hands_played_);
  Value stock = Value::array();
  for (int i = stock_top_; i < kDeckSize; ++i) stock.push(card_id(stock_[i]));
  v.set("stock", std::move(stock));
  Value hands = Value::array();
  for (int s = 0; s < players_; ++s) hands.push(card_list(hands_[s]));
  v.set("hands", std::move(hands));
  v.set("set_aside", card_list(set_aside_));
  v.set("discarded", card_list(discarded_));
  v.set("shown", card_list(shown_));
  v.set("shows", shows_value());
  v.set("recalled", card_list(recalled_));
  v.set("trick", trick_value(trick_));
  v.set("last_trick", Value::obj({{"winner", last_.winner},
                                  {"points", last_.points},
                                  {"reason", reason_name(last_.reason)},
                                  {"cards_visible", last_.cards_visible},
                                  {"trick", trick_value(last_.trick)}}));
  v.set("tricks_played", tricks_played_);
  v.set("turn", turn_);
  Value sc = Value::array();
  for (int s = 0; s < players_; ++s) sc.push(scores_[s]);
  v.set("scores", std::move(sc));
  v.set("over", over_);
  v.set("winners", seat_list(winners_));
  return v;
}

// TC-8.2 Hidden: other hands, discarded hands except a shown one, the stock.
std::vector<std::string> TrophyCaseGame::secret_cards(Seat seat) const {
  DeckSet secret = discarded_ - shown_;
  for (int i = stock_top_; i < kDeckSize; ++i) secret.add(stock_[i]);
  for (int s = 0; s < players_; ++s)
    if (s != seat) secret |= hands_[s];
  secret -= recalled_;
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(secret.size()));
  for (int c : secret) out.push_back(card_id(c));
  return out;
}

Value TrophyCaseGame::encode_action(const Action& action) const {
  if (action.kind == kFold) return Value::obj({{"type", "fold"}});
  if (action.kind == kPlay && action.card < kDeckSize) {
    return Value::obj({{"type", "play"}, {"card", card_id(action.card)}});
  }
  return Value::obj({{"type", "unknown"}});
}

std::optional<Error> TrophyCaseGame::decode_action(const Value& value, Action& out) const {
  const Value* type = value.find("type");
  if (!type || !type->is_string()) {
    return Error{"malformed_action", "An action is an object with a \"type\"."};
  }
  if (auto err = check_action_fields(value, {{"play", "card"}, {"fold", ""}})) return err;
  if (type->as_string() == "fold") {
    out = Action{kFold, 0};
    return std::nullopt;
  }
  if (type->as_string() == "play") {
    const Value* card = value.find("card");
    if (!card || !card->is_string()) {
      return Error{"malformed_action", "A play names its \"card\"."};
    }
    const auto index = parse_card(card->as_string());
    if (!index) return Error{"malformed_action", "There is no card '" + card->as_string() + "'."};
    out = Action{kPlay, static_cast<std::uint16_t>(*index)};
    return std::nullopt;
  }
  return Error{"malformed_action", "Trophy Case actions are play and fold."};
}

// ---------------------------------------------------------------------------
// Determinization (TC-8.2): the cards `seat` cannot see (other hands, unshown
// discards, the stock) are dealt again at random into the same places, in the
// same numbers, keeping what every seat has seen in play:
//  * TC-4.3 / TC-4.4 a seat gets no card of a suit it is known void in (voids_);
//  * TC-3.2 the leader of a trick not yet led holds a suited card (else the hand
//    would have been shown and redealt).
// The real deal meets both, so a deal that meets them always exists. Everything
// read here (the set of hidden cards, the counts, voids_, the leader) is the same
// in every state `seat` cannot tell apart: the sample depends on the seed and on
// the seat's information only.

namespace {

// Where a hidden card may go: one place per seat's hand, then these.
constexpr int kLeadPlace = kMaxPlayers;       // the leader's one sure suited card
constexpr int kDiscardPlace = kMaxPlayers + 1;
constexpr int kStockPlace = kMaxPlayers + 2;
constexpr int kPlaces = kMaxPlayers + 3;
// A card's class: its suit, or kTrumpClass. Every constraint is on classes.
constexpr int kTrumpClass = kSuits;
constexpr int kClasses = kSuits + 1;

int class_of(int card) { return is_trump(card) ? kTrumpClass : suit_of(card); }

}  // namespace

std::unique_ptr<Game> TrophyCaseGame::determinize(Seat seat, std::uint64_t seed) const {
  return determinize_with(seat, seed, 64);
}

std::unique_ptr<TrophyCaseGame> TrophyCaseGame::determinize_with(Seat seat, std::uint64_t seed,
                                                                 int random_attempts) const {
  auto sample = std::make_unique<TrophyCaseGame>(*this);
  DeckSet unknown = discarded_ - shown_;
  for (int i = stock_top_; i < kDeckSize; ++i) unknown.add(stock_[i]);
  std::array<int, kPlaces> need{};
  for (int s = 0; s < players_; ++s) {
    if (s == seat) continue;
    unknown |= hands_[s];
    need[s] = hands_[s].size();
  }
  need[kDiscardPlace] = (discarded_ - shown_).size();
  need[kStockPlace] = kDeckSize - stock_top_;
  // TC-3.2 Only a hand of at most kTrumps cards could be all trumps.
  const int leader = trick_.leader;
  if (!over_ && trick_.count == 0 && leader != seat && need[leader] > 0 &&
      need[leader] <= kTrumps) {
    --need[leader];
    need[kLeadPlace] = 1;
  }
  // allowed[k]: bit p set when a card of class k may go to place p (with room).
  std::array<std::uint32_t, kClasses> allowed{};
  std::uint32_t open = 0;
  for (int p = 0; p < kPlaces; ++p)
    if (need[p] > 0) open |= 1u << p;
  bool constrained = false;
  for (int k = 0; k < kClasses; ++k) {
    std::uint32_t mask = open;
    for (int s = 0; s < players_; ++s)
      if (k != kTrumpClass && ((voids_[s] >> k) & 1u)) mask &= ~(1u << s);
    if (k == kTrumpClass || (leader >= 0 && ((voids_[leader] >> k) & 1u)))
      mask &= ~(1u << kLeadPlace);
    allowed[static_cast<std::size_t>(k)] = mask;
    constrained = constrained || mask != open;
  }

  std::array<std::uint8_t, kDeckSize> pool{};
  int n = 0;
  for (int c : unknown) pool[n++] = static_cast<std::uint8_t>(c);
  Rng rng(seed);
  std::array<DeckSet, kPlaces> placed{};
  // The stock's order matters (later hands are dealt from it): its cards in the
  // order they are dealt there.
  std::array<std::uint8_t, kDeckSize> stock{};
  int stock_n = 0;
  bool done = false;
  if (!constrained) {
    // Nothing known: deal the shuffled cards in order (the hands, the discard, the stock).
    rng.shuffle(pool.data(), static_cast<std::size_t>(n));
    int next = 0;
    for (int p = 0; p < kPlaces; ++p) {
      for (int i = 0; i < need[p]; ++i) {
        if (p == kStockPlace) stock[stock_n++] = pool[next];
        placed[p].add(pool[next++]);
      }
    }
    done = true;
  }
  // By chance: the cards of the most constrained classes first, each to a place
  // that allows it, with a chance in proportion to the room left there; then the
  // cards free to go anywhere fill the room left in their shuffled order. An
  // attempt fails when a card finds no room it may take; it never places a card
  // where it may not go.
  // rank[k]: where class k's cards come in the order of placement: by the
  // number of places they may go, fewest first; free cards (rank kPlaces) last.
  std::array<int, kClasses> rank{};
  std::array<int, kPlaces + 1> per_rank{};
  if (!done) {
    for (int k = 0; k < kClasses; ++k) {
      const std::uint32_t mask = allowed[static_cast<std::size_t>(k)];
      rank[static_cast<std::size_t>(k)] = mask == open ? kPlaces : std::popcount(mask);
    }
    for (int i = 0; i < n; ++i) ++per_rank[static_cast<std::size_t>(rank[class_of(pool[i])])];
  }
  const int constrained_cards = n - per_rank[kPlaces];
  for (int attempt = 0; attempt < random_attempts && !done; ++attempt) {
    rng.shuffle(pool.data(), static_cast<std::size_t>(n));
    std::array<int, kPlaces + 1> at{};
    for (int r = 1; r <= kPlaces; ++r) at[r] = at[r - 1] + per_rank[r - 1];
    std::array<std::uint8_t, kDeckSize> order{};
    for (int i = 0; i < n; ++i) order[at[rank[class_of(pool[i])]]++] = pool[i];
    std::array<int, kPlaces> left = need;
    placed = {};
    stock_n = 0;
    done = true;
    for (int i = 0; i < constrained_cards && done; ++i) {
      const std::uint32_t mask = allowed[static_cast<std::size_t>(class_of(order[i]))];
      int room = 0;
      for (int p = 0; p < kPlaces; ++p)
        if ((mask >> p) & 1u) room += left[p];
      if (room == 0) {
        done = false;
        break;
      }
      int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(room)));
      for (int p = 0; p < kPlaces; ++p) {
        if (!((mask >> p) & 1u) || left[p] == 0) continue;
        if (pick < left[p]) {
          placed[p].add(order[i]);
          if (p == kStockPlace) stock[stock_n++] = order[i];
          --left[p];
          break;
        }
        pick -= left[p];
      }
    }
    for (int i = constrained_cards, p = 0; i < n && done; ++i) {
      while (left[p] == 0) ++p;  // the free cards are exactly as many as the room left
      placed[p].add(order[i]);
      if (p == kStockPlace) stock[stock_n++] = order[i];
      --left[p];
    }
    if (done) rng.shuffle(stock.data(), static_cast<std::size_t>(stock_n));
  }
  if (!done) {
    // Chance failed: place the cards one by one, and when every place a card may
    // go is full, move earlier cards along a chain of other places they may go
    // (augmenting paths: Kuhn's maximum bipartite matching between cards and the
    // room of each place). A maximum matching places every card when any complete
    // placement exists, and the real deal is one; so every card is placed, each
    // where it may go, and every place gets exactly its count (the counts add up
    // to the cards). It reads only the hidden set, the counts and the public
    // constraints, never where a card really is.
    rng.shuffle(pool.data(), static_cast<std::size_t>(n));
    std::array<int, kDeckSize> place_of;
    place_of.fill(-1);
    std::array<int, kPlaces> filled{};
    std::array<int, kPlaces> places{};
    for (int p = 0; p < kPlaces; ++p) places[p] = p;
    std::array<bool, kPlaces> visited{};
    auto place = [&](auto&& self, int i) -> bool {
      const std::uint32_t mask = allowed[static_cast<std::size_t>(class_of(pool[i]))];
      for (int p : places) {
        if (visited[p] || !((mask >> p) & 1u)) continue;
        visited[p] = true;
        if (filled[p] < need[p]) {
          place_of[i] = p;
          ++filled[p];
          return true;
        }
        for (int j = 0; j < n; ++j) {
          if (j == i || place_of[j] != p) continue;
          if (self(self, j)) {  // j moved on, which freed its room in p
            place_of[i] = p;
            return true;
          }
        }
      }
      return false;
    };
    for (int i = 0; i < n; ++i) {
      rng.shuffle(places.data(), places.size());
      visited = {};
      place(place, i);
    }
    placed = {};
    stock_n = 0;
    for (int i = 0; i < n; ++i) {
      // place_of[i] < 0 cannot happen while the constraints hold for the real deal.
      int p = place_of[i];
      for (int q = 0; p < 0 && q < kPlaces; ++q)
        if (filled[q] < need[q]) p = q, ++filled[q];
      placed[p].add(pool[i]);
      if (p == kStockPlace) stock[stock_n++] = pool[i];
    }
    rng.shuffle(stock.data(), static_cast<std::size_t>(stock_n));
  }
  for (int s = 0; s < players_; ++s)
    if (s != seat) sample->hands_[s] = placed[s];
  if (need[kLeadPlace] > 0) sample->hands_[leader] |= placed[kLeadPlace];
  sample->discarded_ = shown_ | placed[kDiscardPlace];
  for (int i = 0; i < stock_n; ++i) sample->stock_[stock_top_ + i] = stock[i];
  sample->rng_ = Rng(rng.fork());
  return sample;
}

// ---------------------------------------------------------------------------
// Options (TC-7 and the testing options)

namespace {

struct Setup {
  TrophyCaseGame::Config config;
  bool have_stop = false;
};

// `hands` and `rounds` (one of them): also end after this many hands.
template <char const* Name>
std::optional<Error> store_stop(const Value& value, Setup& s, int) {
  if (s.have_stop) return bad_option("Give \"hands\" or \"rounds\", not both.");
  s.have_stop = true;
  if (!value.is_int() || value.as_int() < 1 || value.as_int() > 100000) {
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, wrongly) on
    // "literal" + std::string(Name) here.
    std::string why = "\"";
    why.append(Name).append("\" must be a whole number of at least 1.");
    return bad_option(why);
  }
  s.config.stop_after_hands = static_cast<int>(value.as_int());
  return std::nullopt;
}
constexpr char kHands[] = "hands";
constexpr char kRounds[] = "rounds";

constexpr Option<Setup> kOptions[] = {
    {.spec = {.name = "target",
              .title = "Target",
              .description = "A trick that brings its winner to this score ends the game (TC-7).",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 10000,
              .default_json = "30",
              .invalid = "\"target\" must be a whole number from 1 to 10000."},
     .store = store_integer<&Setup::config, &TrophyCaseGame::Config::target>},
    {.spec = {.name = "hands",
              .title = "Hands",
              .description = "Testing: also end after this many hands; every seat with the top score wins. "
                             "Give hands or rounds, not both.",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 100000,
              .testing = true},
     .store = store_stop<kHands>},
    {.spec = {.name = "rounds",
              .title = "Rounds",
              .description = "Testing: another name for hands. Give hands or rounds, not both.",
              .type = OptionType::kInteger,
              .min = 1,
              .max = 100000,
              .testing = true},
     .store = store_stop<kRounds>},
    {.spec = {.name = "dealer",
              .title = "First dealer",
              .description = "Testing: the first dealer's seat (TC-2.1); drawn from the seed when absent.",
              .type = OptionType::kInteger,
              .min = 0,
              .max = kMaxPlayers - 1,
              .max_seat = true,
              .testing = true,
              .invalid = "\"dealer\" must be a seat number."},
     .store = store_integer<&Setup::config, &TrophyCaseGame::Config::dealer>},
    {.spec = {.name = "deck",
              .title = "Stacked deck",
              .description = "Testing: the stock order of the first shuffle, all 174 card ids each once, "
                             "position 0 dealt first: blocks of a hand size to dealer + 1, dealer + 2, ..., the "
                             "dealer last. Refused unless the server runs with --testing.",
              .type = OptionType::kCards,
              .min = kDeckSize,
              .max = kDeckSize,
              .testing = true},
     .store = [](const Value& value, Setup& s, int) -> std::optional<Error> {
       if (!value.is_array() || value.size() != kDeckSize) {
         return bad_option("\"deck\" must list all 174 card ids.");
       }
       DeckSet seen;
       int i = 0;
       for (const auto& item : value.as_array()) {
         const auto card = item.is_string() ? parse_card(item.as_string()) : std::nullopt;
         if (!card) return bad_option("\"deck\" holds something that is not a card id.");
         if (seen.has(*card)) return bad_option("\"deck\" names " + card_id(*card) + " twice.");
         seen.add(*card);
         s.config.deck[i++] = static_cast<std::uint8_t>(*card);
       }
       s.config.stacked = true;
       return std::nullopt;
     }},
};

}  // namespace

CreateResult create(int players, const Value& options, std::uint64_t seed) {
  if (players < kMinPlayers || players > kMaxPlayers) {
    return {nullptr, Error{"bad_players", "Trophy Case is for 3, 4 or 5 players."}};
  }
  Setup s;
  s.config.players = players;
  Rng dealer_draw(seed ^ 0x7C0FFEEULL);
  s.config.dealer = static_cast<int>(dealer_draw.below(static_cast<std::uint32_t>(players)));
  if (!options.is_object()) return {nullptr, bad_option("Options must be an object.")};
  if (auto err = read_options<Setup>(kOptions, "Trophy Case has no option \"{}\".", players, options, s)) {
    return {nullptr, std::move(err)};
  }
  return {std::make_unique<TrophyCaseGame>(s.config, seed), std::nullopt};
}

GameInfo game_info() {
  return GameInfo{
      .name = "trophy-case",
      .title = "Trophy Case",
      .description = "A trick-taking game for 3 to 5 with 174 cards: 15 suits in five colours, values 0 to 9 "
                     "and infinity, and nine trumps. Follow the led colour or fold; the first to the target "
                     "wins.",
      .teams = "Each player for themselves.",
      .players = {3, 4, 5},
      .create = create,
      .rule_bot = rule_bot_action,
      .option_modes = {OptionMode{{}, specs_of<Setup>(kOptions)}},
      .schema_json = R"({"dependencies": {"hands": {"not": {"required": ["rounds"]}}}})",
  };
}

}  // namespace casa::trophy_case
