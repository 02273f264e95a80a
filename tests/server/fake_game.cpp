// SPDX-License-Identifier: AGPL-3.0-or-later
#include "tests/server/fake_game.h"

#include <algorithm>

#include "engine/rng.h"

namespace casa::testing {

namespace {

constexpr std::uint16_t kBid = 1;
constexpr std::uint16_t kPlay = 2;

// Appended rather than `"X" + std::to_string(c)`: GCC 12 at -O3 warns a false
// -Wrestrict on operator+(const char*, std::string&&), which -Werror makes fatal.
std::string card_id(int c) {
  std::string id(1, 'X');
  id += std::to_string(c);
  return id;
}

class FakeTrick final : public Game {
 public:
  FakeTrick(int players, int hand, std::vector<int> deck) : n_(players), hand_size_(hand) {
    hands_.resize(static_cast<std::size_t>(n_));
    for (int s = 0; s < n_; ++s) {
      for (int i = 0; i < hand; ++i) hands_[static_cast<std::size_t>(s)].push_back(deck[static_cast<std::size_t>(s * hand + i)]);
      std::sort(hands_[static_cast<std::size_t>(s)].begin(), hands_[static_cast<std::size_t>(s)].end());
    }
    bids_.assign(static_cast<std::size_t>(n_), -1);
    tricks_.assign(static_cast<std::size_t>(n_), 0);
  }

  std::string_view name() const override { return "fake-trick"; }
  int players() const override { return n_; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<FakeTrick>(*this); }

  SeatMask to_act() const override {
    if (is_over()) return 0;
    if (bidding()) {
      SeatMask m = 0;
      for (int s = 0; s < n_; ++s) {
        if (bids_[static_cast<std::size_t>(s)] < 0) m |= seat_bit(s);
      }
      return m;
    }
    return seat_bit(turn_);
  }

  void legal_actions(Seat seat, std::vector<Action>& out) const override {
    out.clear();
    if (!(to_act() & seat_bit(seat))) return;
    if (bidding()) {
      for (int b = 0; b <= hand_size_; ++b) out.push_back(Action{kBid, 0, b, 0, 0});
    } else {
      for (int c : hands_[static_cast<std::size_t>(seat)]) out.push_back(Action{kPlay, static_cast<std::uint16_t>(c), 0, 0, 0});
    }
  }

  Error not_your_turn(Seat) const override { return Error{"not_your_turn", "Wait for your turn."}; }
  std::optional<Error> step(Seat seat, const Action& a, std::vector<Event>* events) override {
    if (bidding()) {
      if (a.kind != kBid) return Error{"illegal_action", "Bid first."};
      if (a.arg < 0 || a.arg > hand_size_) return Error{"illegal_action", "Bid between 0 and the hand size."};
      bids_[static_cast<std::size_t>(seat)] = a.arg;
      if (events) {
        events->push_back({seat_bit(seat), false, Value::obj({{"type", "bid"}, {"seat", seat}, {"bid", a.arg}})});
        events->push_back({all_seats() & ~seat_bit(seat), true, Value::obj({{"type", "bid_made"}, {"seat", seat}})});
      }
      if (!bidding() && events) {
        Value all = Value::array();
        for (int b : bids_) all.push(b);
        events->push_back({all_seats(), true, Value::obj({{"type", "bids"}, {"bids", all}})});
      }
      return std::nullopt;
    }
    auto& hand = hands_[static_cast<std::size_t>(seat)];
    auto it = std::find(hand.begin(), hand.end(), static_cast<int>(a.card));
    if (a.kind != kPlay || it == hand.end()) return Error{"illegal_action", "Play a card from your hand."};
    hand.erase(it);
    trick_.push_back({seat, static_cast<int>(a.card)});
    if (events) {
      events->push_back({all_seats(), true, Value::obj({{"type", "play"}, {"seat", seat}, {"card", card_id(a.card)}})});
    }
    if (static_cast<int>(trick_.size()) == n_) {
      auto best = std::max_element(trick_.begin(), trick_.end(), [](auto x, auto y) { return x.second < y.second; });
      const int winner = best->first;
      ++tricks_[static_cast<std::size_t>(winner)];
      trick_.clear();
      turn_ = winner;
      if (events) events->push_back({all_seats(), true, Value::obj({{"type", "trick"}, {"winner", winner}})});
    } else {
      turn_ = (turn_ + 1) % n_;
    }
    return std::nullopt;
  }

  bool is_over() const override {
    for (const auto& h : hands_) {
      if (!h.empty()) return false;
    }
    return trick_.empty();
  }

  std::vector<int> scores() const override {
    std::vector<int> out;
    for (int s = 0; s < n_; ++s) {
      const auto i = static_cast<std::size_t>(s);
      out.push_back(tricks_[i] + (is_over() && tricks_[i] == bids_[i] ? 10 : 0));
    }
    return out;
  }

  std::vector<Seat> winners() const override {
    if (!is_over()) return {};
    auto sc = scores();
    const int best = *std::max_element(sc.begin(), sc.end());
    std::vector<Seat> out;
    for (int s = 0; s < n_; ++s) {
      if (sc[static_cast<std::size_t>(s)] == best) out.push_back(s);
    }
    return out;
  }

  Value view(Seat seat) const override {
    Value v = Value::obj({{"game", "fake-trick"}, {"seat", seat}});
    Value acting = Value::array();
    for (int s = 0; s < n_; ++s) {
      if (to_act() & seat_bit(s)) acting.push(s);
    }
    v.set("to_act", acting);
    v.set("phase", is_over() ? "over" : (bidding() ? "bid" : "play"));
    Value sc = Value::array();
    for (int x : scores()) sc.push(x);
    v.set("scores", sc);
    Value sizes = Value::array();
    for (const auto& h : hands_) sizes.push(static_cast<int>(h.size()));
    v.set("hand_sizes", sizes);
    if (seat >= 0) v.set("hand", cards(hands_[static_cast<std::size_t>(seat)]));
    Value bids = Value::array();
    for (int s = 0; s < n_; ++s) {
      const int b = bids_[static_cast<std::size_t>(s)];
      bids.push(b >= 0 && (!bidding() || s == seat) ? Value(b) : Value());
    }
    v.set("bids", bids);
    Value trick = Value::array();
    for (auto [s, c] : trick_) trick.push(Value::obj({{"seat", s}, {"card", card_id(c)}}));
    v.set("trick", trick);
    if (n_ == 4) v.set("teams", Value(Value::Array{Value(Value::Array{0, 2}), Value(Value::Array{1, 3})}));
    return v;
  }

  Value full_state() const override {
    Value v = view(kSpectator);
    Value hands = Value::array();
    for (const auto& h : hands_) hands.push(cards(h));
    v.set("hands", hands);
    Value bids = Value::array();
    for (int b : bids_) bids.push(b);
    v.set("all_bids", bids);
    v.set("turn", turn_);
    return v;
  }

  std::vector<std::string> secret_cards(Seat seat) const override {
    std::vector<std::string> out;
    for (int s = 0; s < n_; ++s) {
      if (s == seat) continue;
      for (int c : hands_[static_cast<std::size_t>(s)]) out.push_back(card_id(c));
    }
    return out;
  }

  Value encode_action(const Action& a) const override {
    if (a.kind == kBid) return Value::obj({{"type", "bid"}, {"bid", a.arg}});
    return Value::obj({{"type", "play"}, {"card", card_id(a.card)}});
  }

  std::optional<Error> decode_action(const Value& v, Action& out) const override {
    const std::string type = v.get_string("type", "");
    if (type == "bid" && v.find("bid") && v.find("bid")->is_int()) {
      out = Action{kBid, 0, static_cast<std::int32_t>(v.get_int("bid", 0)), 0, 0};
      return std::nullopt;
    }
    if (type == "play") {
      const std::string card = v.get_string("card", "");
      if (card.size() >= 2 && card[0] == 'X' && card.size() <= 3 &&
          std::all_of(card.begin() + 1, card.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const int c = std::stoi(card.substr(1));
        if (c < n_ * hand_size_) {
          out = Action{kPlay, static_cast<std::uint16_t>(c), 0, 0, 0};
          return std::nullopt;
        }
      }
    }
    return Error{"malformed_action", "Not a fake-trick action."};
  }

  std::unique_ptr<Game> determinize(Seat, std::uint64_t) const override { return clone(); }

 private:
  bool bidding() const {
    return std::any_of(bids_.begin(), bids_.end(), [](int b) { return b < 0; });
  }
  SeatMask all_seats() const { return (SeatMask{1} << n_) - 1; }
  static Value cards(const std::vector<int>& h) {
    Value out = Value::array();
    for (int c : h) out.push(card_id(c));
    return out;
  }

  int n_;
  int hand_size_;
  std::vector<std::vector<int>> hands_;
  std::vector<int> bids_;
  std::vector<int> tricks_;
  std::vector<std::pair<int, int>> trick_;
  int turn_ = 0;
};

}  // namespace

CreateResult create_fake_trick(int players, const Value& options, std::uint64_t seed) {
  if (players < 1 || players > 4) return {nullptr, Error{"bad_players", "fake-trick seats 1 to 4."}};
  int hand = 3;
  std::vector<int> deck;
  if (options.is_object()) {
    for (const auto& [key, value] : options.as_object()) {
      if (key == "hand" && value.is_int() && value.as_int() >= 1 && value.as_int() <= 5) {
        hand = static_cast<int>(value.as_int());
      } else if (key == "deck" && value.is_array()) {
        for (const auto& c : value.as_array()) {
          if (!c.is_string() || c.as_string().size() < 2) return {nullptr, Error{"bad_option", "deck: card ids"}};
          deck.push_back(std::stoi(c.as_string().substr(1)));
        }
      } else {
        return {nullptr, Error{"bad_option", "Unknown or bad option '" + key + "'."}};
      }
    }
  }
  const int total = players * hand;
  if (deck.empty()) {
    for (int c = 0; c < total; ++c) deck.push_back(c);
    Rng rng(seed);
    for (int i = total - 1; i > 0; --i) std::swap(deck[static_cast<std::size_t>(i)], deck[rng.below(static_cast<std::uint32_t>(i + 1))]);
  } else if (static_cast<int>(deck.size()) != total) {
    return {nullptr, Error{"bad_option", "deck: wrong size"}};
  }
  return {std::make_unique<FakeTrick>(players, hand, deck), std::nullopt};
}

CreateResult create_test_game(std::string_view name, int players, const Value& options, std::uint64_t seed) {
  if (name == "fake-trick") return create_fake_trick(players, options, seed);
  return create_game(name, players, options, seed);
}

std::vector<std::string> test_game_names() {
  auto names = game_names();
  names.push_back("fake-trick");
  return names;
}

}  // namespace casa::testing
