// SPDX-License-Identifier: AGPL-3.0-or-later
// Casino: the flow of rounds (CA-2, CA-5, CA-6, CA-7), views (CA-9),
// the public form of actions, and determinization. The plays themselves are in
// plays.cpp, the options and create() in options.cpp.
#include "engine/games/casino/casino.h"
#include "engine/teams.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/action_fields.h"
#include "engine/cardset.h"
#include "engine/games/casino/casino_game.h"

namespace casa::casino {
namespace {


Value card_list(std::uint64_t cards) {
  Value list = Value::array();
  for (int c : CardSet(cards)) list.push(card_id(c));
  return list;
}

std::string build_id(int number) {
  // Written by hand: GCC 12 at -O3 warns falsely (-Wrestrict) on "B" + to_string.
  std::string id = "B";
  if (number >= 10) id += static_cast<char>('0' + number / 10);
  id += static_cast<char>('0' + number % 10);
  return id;
}

// "B12" -> 12; 0 when the text names no possible build.
int parse_build(std::string_view id) {
  if (id.size() < 2 || id.size() > 3 || id[0] != 'B') return 0;
  int n = 0;
  for (char ch : id.substr(1)) {
    if (ch < '0' || ch > '9') return 0;
    n = n * 10 + (ch - '0');
  }
  if (id[1] == '0' || n < 1 || n > kMaxBuilds) return 0;
  return n;
}

Value seat_list(SeatMask mask, int players) {
  Value list = Value::array();
  for (Seat s = 0; s < players; ++s) {
    if (mask & seat_bit(s)) list.push(s);
  }
  return list;
}

Event public_event(int players, Value body) {
  return Event{(SeatMask{1} << players) - 1, true, std::move(body)};
}

}  // namespace

CasinoGame::CasinoGame(int players, Options options, std::uint64_t seed, int dealer,
                       const std::array<std::uint8_t, kDeckSize>* first_deck)
    : players_(players), options_(std::move(options)), shuffle_seed_(seed), dealer_(dealer) {
  start_round(first_deck, nullptr);
}

// CA-2.3 A fresh shuffle, four cards to each player and four to the table.
void CasinoGame::start_round(const std::array<std::uint8_t, kDeckSize>* deck,
                             std::vector<Event>* events) {
  ++round_;
  if (deck) {
    deck_ = *deck;
  } else {
    for (int i = 0; i < kDeckSize; ++i) deck_[i] = static_cast<std::uint8_t>(i);
    Rng(shuffle_seed_ + static_cast<std::uint64_t>(round_)).shuffle(deck_.data(), deck_.size());
  }
  dealt_ = 0;
  hands_ = {};
  piles_ = {};
  loose_ = 0;
  live_builds_ = 0;
  builds_made_ = 0;
  last_capturer_ = -1;
  only_trail_ = false;
  sweeps_ = {};
  ask_cards_ = 0;
  ask_targets_ = 0;
  questions_asked_ = 0;
  phase_ = Phase::kPlay;
  for (Seat s = 0; s < players_; ++s) {
    for (int k = 0; k < kHandSize; ++k) hands_[s] |= bit(deck_[dealt_++]);
  }
  for (int k = 0; k < kTableDeal; ++k) loose_ |= bit(deck_[dealt_++]);
  turn_ = (dealer_ + 1) % players_;  // CA-2.4
  if (events) {
    events->push_back(public_event(players_, Value::obj({{"type", "round_start"},
                                                          {"round", round_},
                                                          {"dealer", dealer_},
                                                          {"table", card_list(loose_)},
                                                          {"deck", kDeckSize - dealt_}})));
    for (Seat s = 0; s < players_; ++s) {
      events->push_back(Event{seat_bit(s), false,
                              Value::obj({{"type", "hand"}, {"seat", s}, {"hand", card_list(hands_[s])}})});
    }
  }
}

// CA-2.5 Four more cards to every player, none to the table.
void CasinoGame::deal_hands(std::vector<Event>* events) {
  for (Seat s = 0; s < players_; ++s) {
    for (int k = 0; k < kHandSize; ++k) hands_[s] |= bit(deck_[dealt_++]);
  }
  turn_ = (dealer_ + 1) % players_;
  if (events) {
    events->push_back(public_event(players_, Value::obj({{"type", "deal"}, {"deck", kDeckSize - dealt_}})));
    for (Seat s = 0; s < players_; ++s) {
      events->push_back(Event{seat_bit(s), false,
                              Value::obj({{"type", "hand"}, {"seat", s}, {"hand", card_list(hands_[s])}})});
    }
  }
}

bool CasinoGame::round_over_after(Seat seat, int played) const {
  if (dealt_ < kDeckSize) return false;
  for (Seat s = 0; s < players_; ++s) {
    const std::uint64_t h = s == seat ? hands_[s] & ~bit(played) : hands_[s];
    if (h) return false;
  }
  return true;
}

SeatMask CasinoGame::to_act() const {
  return phase_ == Phase::kOver ? 0 : seat_bit(turn_);
}

// After a play (and its ask step): the next player, the next deal, or the end of
// the round (CA-2.4, CA-2.5).
void CasinoGame::after_play(std::vector<Event>* events) {
  phase_ = Phase::kPlay;
  bool hands_empty = true;
  for (Seat s = 0; s < players_; ++s) hands_empty = hands_empty && hands_[s] == 0;
  if (!hands_empty) {
    turn_ = (turn_ + 1) % players_;
  } else if (dealt_ < kDeckSize) {
    deal_hands(events);
  } else {
    end_round(events);
  }
}

void CasinoGame::play_capture(Seat seat, const Action& a, std::vector<Event>* events) {
  const int c = a.card;
  const bool last_card = round_over_after(seat, c);
  std::uint64_t taken = a.set;
  for (std::uint64_t b = a.set2; b; b &= b - 1) taken |= builds_[std::countr_zero(b)].cards;
  hands_[seat] &= ~bit(c);
  loose_ &= ~a.set;
  live_builds_ &= ~a.set2;
  piles_[seat] |= taken | bit(c);
  last_capturer_ = seat;
  // CA-7.1 / CA-7.2 a capture that empties the table, unless with the round's last card.
  const bool swept = loose_ == 0 && live_builds_ == 0 && !last_card;
  only_trail_ = swept;
  if (swept && options_.sweeps) ++sweeps_[side_of(seat)];
  if (events) {
    Value builds = Value::array();
    for (std::uint64_t b = a.set2; b; b &= b - 1) {
      const int i = std::countr_zero(b);
      builds.push(Value::obj({{"id", build_id(i + 1)}, {"cards", card_list(builds_[i].cards)}}));
    }
    events->push_back(public_event(players_, Value::obj({{"type", "capture"},
                                                          {"seat", seat},
                                                          {"card", card_id(c)},
                                                          {"loose", card_list(a.set)},
                                                          {"builds", std::move(builds)},
                                                          {"taken", card_list(taken)},
                                                          {"sweep", swept && options_.sweeps}})));
  }
  if (options_.questions) {
    // CA-6.2 the capturer's ask step, before anything else happens.
    phase_ = Phase::kAsk;
    ask_cards_ = taken;
    ask_targets_ = ((SeatMask{1} << players_) - 1) & ~seat_bit(seat);
  } else {
    after_play(events);
  }
}

// Game::apply refused a finished game and a seat that does not act.
std::optional<Error> CasinoGame::step(Seat seat, const Action& a, std::vector<Event>* events) {
  if (auto why = why_illegal(seat, a)) return Error{"illegal_action", std::move(*why)};

  const int c = a.card;
  switch (a.kind) {
    case kCapture:
      play_capture(seat, a, events);
      return std::nullopt;
    case kBuild: {
      hands_[seat] &= ~bit(c);
      loose_ &= ~a.set;
      const int i = builds_made_++;
      builds_[i] = Build{a.set | bit(c), static_cast<std::int8_t>(value_of(c) + sum_of(a.set)),
                         static_cast<std::int8_t>(seat)};
      live_builds_ |= bit(i);
      only_trail_ = false;
      if (events) {
        events->push_back(public_event(players_, Value::obj({{"type", "build"},
                                                              {"seat", seat},
                                                              {"card", card_id(c)},
                                                              {"loose", card_list(a.set)},
                                                              {"build", build_value(i + 1)}})));
      }
      after_play(events);
      return std::nullopt;
    }
    case kIncrease: {
      hands_[seat] &= ~bit(c);
      Build& b = builds_[a.arg - 1];
      b.cards |= bit(c);
      b.value = static_cast<std::int8_t>(b.value + value_of(c));
      b.owner = static_cast<std::int8_t>(seat);  // CA-4.3
      only_trail_ = false;
      if (events) {
        events->push_back(public_event(players_, Value::obj({{"type", "increase"},
                                                              {"seat", seat},
                                                              {"card", card_id(c)},
                                                              {"build", build_value(a.arg)}})));
      }
      after_play(events);
      return std::nullopt;
    }
    case kTrail:
      hands_[seat] &= ~bit(c);
      loose_ |= bit(c);
      only_trail_ = false;
      if (events) {
        events->push_back(public_event(
            players_, Value::obj({{"type", "trail"}, {"seat", seat}, {"card", card_id(c)}})));
      }
      after_play(events);
      return std::nullopt;
    case kAsk: {
      // CA-6.3 a public question; play does not wait for the answer.
      ask_cards_ &= ~bit(c);
      ask_targets_ &= ~seat_bit(a.arg);
      questions_[questions_asked_++] =
          Question{static_cast<std::int8_t>(seat), static_cast<std::int8_t>(a.arg),
                   static_cast<std::int8_t>(c)};
      if (events) {
        events->push_back(public_event(players_, Value::obj({{"type", "question"},
                                                              {"asker", seat},
                                                              {"target", a.arg},
                                                              {"card", card_id(c)},
                                                              {"text", (*options_.questions)[c]}})));
      }
      if (ask_cards_ == 0 || ask_targets_ == 0) after_play(events);
      return std::nullopt;
    }
    case kDeal:
      start_round(nullptr, events);
      return std::nullopt;
    case kDoneAsking:
      if (events) {
        events->push_back(public_event(players_, Value::obj({{"type", "done_asking"}, {"seat", seat}})));
      }
      after_play(events);
      return std::nullopt;
    default:
      return Error{"illegal_action", "There is no such play."};
  }
}

// CA-5.1 the last cards, CA-5.2 scoring, CA-5.3 the end of the game.
void CasinoGame::end_round(std::vector<Event>* events) {
  std::uint64_t leftover = loose_;
  for (std::uint64_t b = live_builds_; b; b &= b - 1) leftover |= builds_[std::countr_zero(b)].cards;
  const Seat receiver = last_capturer_ >= 0 ? last_capturer_ : dealer_;
  piles_[receiver] |= leftover;
  loose_ = 0;
  live_builds_ = 0;
  ask_cards_ = 0;
  ask_targets_ = 0;

  const int n = sides();
  std::array<std::uint64_t, kMaxPlayers> side_piles{};
  for (Seat s = 0; s < players_; ++s) side_piles[side_of(s)] |= piles_[s];
  std::array<SideTally, kMaxPlayers> tally{};
  int most_cards = -1, most_spades = -1, cards_shared = 0, spades_shared = 0;
  for (int i = 0; i < n; ++i) {
    SideTally& t = tally[i];
    const std::uint64_t pile = side_piles[i];
    t.cards = std::popcount(pile);
    t.spades = std::popcount(pile & kSpadeCards);
    t.aces = std::popcount(pile & kAceCards);
    t.big_casino = (pile & bit(kBigCasino)) != 0;
    t.little_casino = (pile & bit(kLittleCasino)) != 0;
    t.sweeps = sweeps_[i];
    if (t.cards > most_cards) most_cards = t.cards, cards_shared = 0;
    if (t.cards == most_cards) ++cards_shared;
    if (t.spades > most_spades) most_spades = t.spades, spades_shared = 0;
    if (t.spades == most_spades) ++spades_shared;
  }
  for (int i = 0; i < n; ++i) {
    SideTally& t = tally[i];
    // "Most" is strictly more than every other side; a tie scores nobody.
    t.most_cards = (cards_shared == 1 && t.cards == most_cards) ? 3 : 0;
    t.most_spades = (spades_shared == 1 && t.spades == most_spades) ? 1 : 0;
    t.points = t.most_cards + t.most_spades + (t.big_casino ? 2 : 0) + (t.little_casino ? 1 : 0) +
               t.aces + t.sweeps;
    totals_[i] += t.points;
  }
  last_round_ = tally;
  ++rounds_played_;

  int best = totals_[0], best_count = 0;
  for (int i = 0; i < n; ++i) best = std::max(best, totals_[i]);
  for (int i = 0; i < n; ++i) best_count += totals_[i] == best;
  const bool target_reached = best >= options_.target && best_count == 1;
  const bool rounds_done = options_.rounds > 0 && rounds_played_ >= options_.rounds;
  if (target_reached || rounds_done) {
    phase_ = Phase::kOver;
    winners_ = 0;
    for (Seat s = 0; s < players_; ++s) {
      if (totals_[side_of(s)] == best) winners_ |= seat_bit(s);
    }
  }

  if (events) {
    Value sides_value = Value::array();
    for (int i = 0; i < n; ++i) {
      const SideTally& t = tally[i];
      SeatMask seats = 0;
      for (Seat s = 0; s < players_; ++s) {
        if (side_of(s) == i) seats |= seat_bit(s);
      }
      sides_value.push(Value::obj({{"seats", seat_list(seats, players_)},
                                   {"cards", t.cards},
                                   {"spades", t.spades},
                                   {"big_casino", t.big_casino},
                                   {"little_casino", t.little_casino},
                                   {"aces", t.aces},
                                   {"sweeps", t.sweeps},
                                   {"most_cards", t.most_cards},
                                   {"most_spades", t.most_spades},
                                   {"points", t.points},
                                   {"total", totals_[i]}}));
    }
    Value scores_value = Value::array();
    for (int s : scores()) scores_value.push(s);
    events->push_back(public_event(
        players_, Value::obj({{"type", "round_end"},
                              {"round", round_},
                              {"leftover", Value::obj({{"seat", receiver}, {"cards", card_list(leftover)}})},
                              {"sides", std::move(sides_value)},
                              {"scores", scores_value}})));
    if (phase_ == Phase::kOver) {
      events->push_back(public_event(
          players_, Value::obj({{"type", "game_over"}, {"winners", seat_list(winners_, players_)},
                                {"scores", scores_value}})));
    }
  }
  if (phase_ != Phase::kOver) {
    // CA-2.2 the deal passes clockwise; the new dealer deals when ready.
    phase_ = Phase::kRoundOver;
    dealer_ = (dealer_ + 1) % players_;
    turn_ = dealer_;
  }
}

std::vector<int> CasinoGame::scores() const {
  std::vector<int> out(static_cast<std::size_t>(players_));
  for (Seat s = 0; s < players_; ++s) out[s] = totals_[side_of(s)];
  return out;
}

std::vector<Seat> CasinoGame::winners() const {
  std::vector<Seat> out;
  for (Seat s = 0; s < players_; ++s) {
    if (winners_ & seat_bit(s)) out.push_back(s);
  }
  return out;
}

Value CasinoGame::build_value(int number) const {
  const Build& b = builds_[number - 1];
  return Value::obj({{"id", build_id(number)},
                     {"cards", card_list(b.cards)},
                     {"value", static_cast<int>(b.value)},
                     {"owner", static_cast<int>(b.owner)}});
}

Value CasinoGame::table_value() const {
  Value builds = Value::array();
  for (std::uint64_t b = live_builds_; b; b &= b - 1) builds.push(build_value(std::countr_zero(b) + 1));
  return Value::obj({{"loose", card_list(loose_)}, {"builds", std::move(builds)}});
}

// CA-9.1 everything public.
Value CasinoGame::common_view() const {
  static constexpr const char* kPhaseNames[] = {"play", "ask", "round_over", "over"};
  Value v = Value::obj({{"game", "casino"}});
  v.set("phase", kPhaseNames[static_cast<int>(phase_)]);
  v.set("to_act", seat_list(to_act(), players_));
  Value options = Value::obj({{"target", options_.target},
                              {"partners", options_.partners},
                              {"sweeps", options_.sweeps}});
  options.set("questions", !options_.questions ? Value(false)
                           : options_.custom_questions ? Value("custom")
                                                       : Value("default"));
  if (options_.rounds) options.set("rounds", options_.rounds);
  v.set("options", std::move(options));
  v.set("round", round_);
  v.set("rounds_played", rounds_played_);
  v.set("dealer", dealer_);
  v.set("turn", turn_);
  v.set("deck", kDeckSize - dealt_);
  v.set("table", table_value());
  Value hand_sizes = Value::array();
  Value captures = Value::array();
  Value scores_value = Value::array();
  for (Seat s = 0; s < players_; ++s) {
    hand_sizes.push(std::popcount(hands_[s]));
    captures.push(card_list(piles_[s]));
    scores_value.push(totals_[side_of(s)]);
  }
  v.set("hand_sizes", std::move(hand_sizes));
  v.set("captures", std::move(captures));
  v.set("scores", std::move(scores_value));
  if (options_.partners) {
    Value sides = Value::array();
    sides.push(Value::array());
    sides.push(Value::array());
    for (Seat s = 0; s < players_; ++s) sides.as_array()[side_of(s)].push(s);
    v.set("sides", std::move(sides));
  }
  if (options_.sweeps) {
    Value sweeps = Value::array();
    for (int i = 0; i < sides(); ++i) sweeps.push(sweeps_[i]);
    v.set("sweeps", std::move(sweeps));
  }
  v.set("last_capturer", last_capturer_);
  v.set("only_trail", only_trail_);
  if (options_.questions) {
    Value asked = Value::array();
    for (int i = 0; i < questions_asked_; ++i) {
      const Question& q = questions_[i];
      asked.push(Value::obj({{"asker", static_cast<int>(q.asker)},
                             {"target", static_cast<int>(q.target)},
                             {"card", card_id(q.card)},
                             {"text", (*options_.questions)[q.card]}}));
    }
    v.set("questions", std::move(asked));
  }
  if (phase_ == Phase::kAsk) {
    v.set("asking", Value::obj({{"asker", turn_},
                                {"cards", card_list(ask_cards_)},
                                {"targets", seat_list(ask_targets_, players_)}}));
  }
  if (rounds_played_ > 0) {
    Value last = Value::array();
    for (int i = 0; i < sides(); ++i) {
      const SideTally& t = last_round_[i];
      last.push(Value::obj({{"cards", t.cards},
                            {"spades", t.spades},
                            {"big_casino", t.big_casino},
                            {"little_casino", t.little_casino},
                            {"aces", t.aces},
                            {"sweeps", t.sweeps},
                            {"points", t.points}}));
    }
    v.set("last_round", std::move(last));
  }
  if (phase_ == Phase::kOver) v.set("winners", seat_list(winners_, players_));
  return v;
}

Value CasinoGame::view(Seat seat) const {
  Value v = common_view();
  v.set("seat", seat);
  v.set("teams", teams_value(players_, options_.partners ? 2 : players_,
                             [this](Seat s) { return side_of(s); }));
  // CA-9.2 a player sees only their own hand, never a partner's.
  if (seat >= 0 && seat < players_) v.set("hand", card_list(hands_[seat]));
  return v;
}

Value CasinoGame::full_state() const {
  Value v = common_view();
  Value hands = Value::array();
  for (Seat s = 0; s < players_; ++s) hands.push(card_list(hands_[s]));
  v.set("hands", std::move(hands));
  Value deck = Value::array();
  for (int i = dealt_; i < kDeckSize; ++i) deck.push(card_id(deck_[i]));
  v.set("deck_order", std::move(deck));
  v.set("builds_made", builds_made_);
  v.set("shuffle_seed", static_cast<unsigned long long>(shuffle_seed_));
  return v;
}

std::vector<std::string> CasinoGame::secret_cards(Seat seat) const {
  std::uint64_t hidden = 0;
  for (Seat s = 0; s < players_; ++s) {
    if (s != seat) hidden |= hands_[s];
  }
  for (int i = dealt_; i < kDeckSize; ++i) hidden |= bit(deck_[i]);
  std::vector<std::string> out;
  for (int c : CardSet(hidden)) out.emplace_back(card_id(c));
  return out;
}

Value CasinoGame::encode_action(const Action& a) const {
  switch (a.kind) {
    case kCapture: {
      Value builds = Value::array();
      for (std::uint64_t b = a.set2; b; b &= b - 1) builds.push(build_id(std::countr_zero(b) + 1));
      return Value::obj({{"type", "capture"},
                         {"card", card_id(a.card % kDeckSize)},
                         {"loose", card_list(a.set)},
                         {"builds", std::move(builds)}});
    }
    case kBuild:
      return Value::obj({{"type", "build"}, {"card", card_id(a.card % kDeckSize)}, {"loose", card_list(a.set)}});
    case kIncrease:
      return Value::obj({{"type", "increase"}, {"card", card_id(a.card % kDeckSize)}, {"build", build_id(a.arg)}});
    case kTrail:
      return Value::obj({{"type", "trail"}, {"card", card_id(a.card % kDeckSize)}});
    case kAsk:
      return Value::obj({{"type", "ask"}, {"card", card_id(a.card % kDeckSize)}, {"target", a.arg}});
    case kDoneAsking:
      return Value::obj({{"type", "done_asking"}});
    case kDeal:
      return Value::obj({{"type", "deal"}});
    default:
      return Value::obj({{"type", "unknown"}});
  }
}

std::optional<Error> CasinoGame::decode_action(const Value& value, Action& out) const {
  const auto malformed = [](std::string why) { return Error{"malformed_action", std::move(why)}; };
  if (!value.is_object()) return malformed("An action is an object.");
  const Value* type = value.find("type");
  if (!type || !type->is_string()) return malformed("An action needs a \"type\".");
  const std::string& t = type->as_string();
  Action a;
  const auto read_card = [&](int& card) -> std::optional<Error> {
    const Value* v = value.find("card");
    if (!v || !v->is_string() || (card = parse_card(v->as_string())) < 0)
      return malformed("\"card\" must be a card id such as \"7S\".");
    return std::nullopt;
  };
  // A list of card ids in any order, each once.
  const auto read_cards = [&](const char* key, std::uint64_t& cards) -> std::optional<Error> {
    cards = 0;
    const Value* v = value.find(key);
    if (!v) return std::nullopt;
    if (!v->is_array()) return malformed(std::string("\"") + key + "\" must be a list of card ids.");
    for (const Value& item : v->as_array()) {
      const int card = item.is_string() ? parse_card(item.as_string()) : -1;
      if (card < 0) return malformed(std::string("\"") + key + "\" must be a list of card ids.");
      if (cards & bit(card)) return malformed(std::string("\"") + key + "\" names a card twice.");
      cards |= bit(card);
    }
    return std::nullopt;
  };
  // Only the keys of the action's own type: e.g. an increase that names loose
  // cards is not an increase (a build never absorbs loose cards, CA-3.6).
  if (auto e = check_action_fields(value, {{"capture", "card loose builds"},
                                           {"build", "card loose"},
                                           {"increase", "card build"},
                                           {"trail", "card"},
                                           {"ask", "card target"},
                                           {"done_asking", ""},
                                           {"deal", ""}}))
    return e;
  int card = 0;
  if (t == "capture") {
    a.kind = kCapture;
    if (auto e = read_card(card)) return e;
    if (auto e = read_cards("loose", a.set)) return e;
    if (const Value* builds = value.find("builds")) {
      if (!builds->is_array()) return malformed("\"builds\" must be a list of build ids.");
      for (const Value& item : builds->as_array()) {
        const int n = item.is_string() ? parse_build(item.as_string()) : 0;
        if (n == 0) return malformed("\"builds\" must be a list of build ids such as \"B1\".");
        if (a.set2 & bit(n - 1)) return malformed("\"builds\" names a build twice.");
        a.set2 |= bit(n - 1);
      }
    }
  } else if (t == "build") {
    a.kind = kBuild;
    if (auto e = read_card(card)) return e;
    if (auto e = read_cards("loose", a.set)) return e;
  } else if (t == "increase") {
    a.kind = kIncrease;
    if (auto e = read_card(card)) return e;
    const Value* b = value.find("build");
    if (!b || !b->is_string() || (a.arg = parse_build(b->as_string())) == 0)
      return malformed("\"build\" must be a build id such as \"B1\".");
  } else if (t == "trail") {
    a.kind = kTrail;
    if (auto e = read_card(card)) return e;
  } else if (t == "ask") {
    a.kind = kAsk;
    if (auto e = read_card(card)) return e;
    const Value* target = value.find("target");
    if (!target || !target->is_int() || target->as_int() < 0 || target->as_int() >= players_)
      return malformed("\"target\" must be a seat number.");
    a.arg = static_cast<int>(target->as_int());
  } else if (t == "done_asking") {
    a.kind = kDoneAsking;
  } else if (t == "deal") {
    a.kind = kDeal;
  } else {
    return malformed("Casino has no action \"" + t + "\".");
  }
  a.card = static_cast<std::uint16_t>(card);
  out = a;
  return std::nullopt;
}

// A state consistent with what `seat` knows: the other hands and the deck are
// redealt from the cards `seat` cannot see, and future shuffles are reseeded.
// Every other owner still holds a card of each of its builds' values (CA-4.1),
// as everybody knows they must.
std::unique_ptr<Game> CasinoGame::determinize(Seat seat, std::uint64_t seed) const {
  auto sample = std::make_unique<CasinoGame>(*this);
  Rng rng(seed);
  std::array<std::uint8_t, kDeckSize> unknown{};
  int count = 0;
  for (Seat s = 0; s < players_; ++s) {
    if (s == seat) continue;
    for (int c : CardSet(hands_[s])) unknown[count++] = static_cast<std::uint8_t>(c);
  }
  for (int i = dealt_; i < kDeckSize; ++i) unknown[count++] = deck_[i];
  // In card order first, so that the sample depends only on what `seat` knows,
  // not on where the unseen cards really are.
  std::sort(unknown.begin(), unknown.begin() + count);
  rng.shuffle(unknown.data(), static_cast<std::size_t>(count));
  std::uint64_t pool = 0;
  for (int i = 0; i < count; ++i) pool |= bit(unknown[i]);
  // First the cards the owners must hold, one of each owned value, taken in
  // shuffled order; then the rest of each hand; then the deck.
  for (Seat s = 0; s < players_; ++s) {
    if (s == seat) continue;
    sample->hands_[s] = 0;
    const std::uint32_t need = owned_values(s, 0);
    for (int i = 0; i < count; ++i) {
      const int c = unknown[i];
      if ((pool & bit(c)) && !is_face(c) && (need & (std::uint32_t{1} << value_of(c))) &&
          !(values_held(sample->hands_[s]) & (std::uint32_t{1} << value_of(c)))) {
        sample->hands_[s] |= bit(c);
        pool &= ~bit(c);
      }
    }
  }
  int next = 0;
  const auto take = [&] {
    while (!(pool & bit(unknown[next]))) ++next;
    pool &= ~bit(unknown[next]);
    return unknown[next++];
  };
  for (Seat s = 0; s < players_; ++s) {
    if (s == seat) continue;
    while (std::popcount(sample->hands_[s]) < std::popcount(hands_[s])) sample->hands_[s] |= bit(take());
  }
  for (int i = dealt_; i < kDeckSize; ++i) sample->deck_[i] = take();
  sample->shuffle_seed_ = rng.next();
  return sample;
}

}  // namespace casa::casino
