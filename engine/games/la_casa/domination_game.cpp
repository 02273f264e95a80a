// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/domination_game.h"

#include <string>
#include <utility>

#include "engine/action_fields.h"
#include "engine/rng.h"

namespace casa::la_casa {

namespace {

Value family_or_null(int family) {
  return family == kNoFamily ? Value() : Value(family_name(family));
}
Value card_or_null(int card) { return card < 0 ? Value() : Value(card_id(card)); }

Value card_list(CardSet cards) {
  Value list = Value::array();
  for (int card : cards) list.push(card_id(card));
  return list;
}

const char* pile_name(int pile) {
  return pile == DominationGame::kFaceUpPile ? "face_up" : "stock";
}

std::array<int, kDeckSize> shuffled_deck(std::uint64_t deal_seed, int round) {
  std::array<int, kDeckSize> deck{};
  for (int i = 0; i < kDeckSize; ++i) deck[i] = i;
  Rng rng(deal_seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(round + 1));
  rng.shuffle(deck.data(), deck.size());
  return deck;
}

void emit(std::vector<Event>* events, SeatMask seats, bool spectators, Value body) {
  events->push_back(Event{seats, spectators, std::move(body)});
}
constexpr SeatMask kBoth = 0b11;

}  // namespace

DominationGame::DominationGame(const DominationSetup& setup) : setup_(setup) {
  Rng rng(setup.seed);
  // LC-3.2 The first dealer is drawn from the table's seed.
  dealer_ = static_cast<int>(rng.below(2));
  if (setup_.dealer) dealer_ = *setup_.dealer;
  deal_seed_ = rng.next();
  start_round(nullptr);
}

// ---------------------------------------------------------------------------
// Dealing and the Election

// LC-9.1 / LC-4.8 Domination deal order.
void DominationGame::start_round(std::vector<Event>* events) {
  const std::array<int, kDeckSize> deck =
      round_ == 0 && setup_.deck ? *setup_.deck : shuffled_deck(deal_seed_, round_);
  hands_ = {};
  for (int i = 0; i < 2 * kHandDeal; ++i) hands_[i % 2 == 0 ? non_dealer() : dealer_].add(deck[i]);
  for (int i = 0; i < kCasaSize; ++i) casa_[i] = static_cast<std::int8_t>(deck[2 * kHandDeal + i]);
  face_up_ = deck[2 * kHandDeal + kCasaSize];
  for (int i = 0; i < kStockSize; ++i) {
    stock_[i] = static_cast<std::int8_t>(deck[2 * kHandDeal + kCasaSize + 1 + i]);
  }
  stock_next_ = 0;
  known_ = CardSet();
  trick_.clear();
  elector_ = -1;
  election_round_ = 1;

  // LC-9.2 The top Casa card is turned up and nominates its family.
  casa_top_up_ = true;
  nominated_ = printed_family(casa_[0]);
  if (nominated_ == kNoFamily) {
    // LC-9.2 / LC-11.13 A Mangia-Cake: no Ruling Family, no Election; the
    // non-dealer leads.
    ruling_ = kNoFamily;
    trick_.leader = non_dealer();
    phase_ = kPlay;
  } else {
    ruling_ = kNoFamily;
    to_elect_ = non_dealer();  // LC-6.6 the non-dealer speaks first
    phase_ = kElect;
  }

  if (events) {
    emit(events, kBoth, true,
         Value::obj({{"type", "round_start"},
                     {"round", round_ + 1},
                     {"dealer", dealer_},
                     {"casa_top", card_id(casa_[0])},
                     {"nominated", family_or_null(nominated_)},
                     {"face_up", card_id(face_up_)}}));
    for (Seat s = 0; s < 2; ++s) {
      emit(events, seat_bit(s), false,
           Value::obj({{"type", "hand"}, {"seat", s}, {"cards", card_list(hands_[s])}}));
    }
  }
}

std::optional<Error> DominationGame::elect(Seat seat, const Action& action,
                                           std::vector<Event>* events) {
  if (action.kind == kPass) {
    // LC-6.5 In the second round the dealer may not pass.
    if (election_round_ == 2 && seat == dealer_) {
      return Error{"illegal_action", "The dealer must elect a family now."};
    }
    if (events) emit(events, kBoth, true, Value::obj({{"type", "pass"}, {"seat", seat}}));
    if (seat == non_dealer()) {
      to_elect_ = dealer_;
    } else {
      // LC-6.5 Both passed: the card is turned face down and round two begins.
      casa_top_up_ = false;
      known_.add(casa_[0]);
      election_round_ = 2;
      to_elect_ = non_dealer();
      if (events) {
        emit(events, kBoth, true,
             Value::obj({{"type", "election_round"}, {"round", 2},
                         {"excluded", family_name(nominated_)}}));
      }
    }
    return std::nullopt;
  }
  const int family = action.arg;
  if (family < 0 || family >= kFamilies) return Error{"illegal_action", "That is not a family."};
  if (election_round_ == 1 && family != nominated_) {
    return Error{"illegal_action", "In the first round only " +
                                       std::string(family_name(nominated_)) + " may be elected."};
  }
  if (election_round_ == 2 && family == nominated_) {
    return Error{"illegal_action", std::string(family_name(nominated_)) +
                                       " was turned down: elect another family."};
  }
  // LC-9.2 / LC-11.13 The elector takes no card and discards nothing, and leads.
  elector_ = seat;
  ruling_ = family;
  trick_.leader = seat;
  phase_ = kPlay;
  if (events) {
    emit(events, kBoth, true,
         Value::obj({{"type", "elect"}, {"seat", seat}, {"family", family_name(family)}}));
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Play

Seat DominationGame::actor() const {
  switch (phase_) {
    case kElect: return to_elect_;
    case kPlay: return (trick_.leader + trick_.len) % 2;
    case kChoosePile: return trick_.last_winner;
    case kRoundOver: return non_dealer();  // the next round's dealer deals
    case kOver: return -1;
  }
  return -1;
}

SeatMask DominationGame::to_act() const {
  const Seat s = actor();
  return s < 0 ? 0 : seat_bit(s);
}

CardSet DominationGame::legal_cards(Seat seat) const {
  return trick_.playable(hands_[seat], ruling_);
}

RobotSituation DominationGame::robot_situation(Seat seat) const {
  RobotSituation s;
  s.playable = hands_[seat];
  s.trick = trick_.cards.data();
  s.trick_len = trick_.len;
  s.lead = trick_.lead_now();
  s.ruling = ruling_;
  return s;
}

void DominationGame::play_card(Seat seat, int card, std::vector<Event>* events) {
  hands_[seat].remove(card);
  trick_.play(seat, card, ruling_);
  if (events) {
    emit(events, kBoth, true,
         Value::obj({{"type", "play"}, {"seat", seat}, {"card", card_id(card)}}));
  }
  if (trick_.len == 2) finish_trick(events);
}

void DominationGame::finish_trick(std::vector<Event>* events) {
  const int winner = trick_.take(ruling_, kNoFamily);  // LC-9: no Cousins
  if (events) {
    emit(events, kBoth, true,
         Value::obj({{"type", "trick"},
                     {"winner", winner},
                     {"cards", Value::Array{card_id(trick_.last[0]), card_id(trick_.last[1])}},
                     {"number", trick_.played}}));
  }
  trick_.leader = winner;
  if (face_up_ >= 0) {
    phase_ = kChoosePile;  // LC-9.3 the winner chooses a pile
  } else if (hands_[0].empty() && hands_[1].empty()) {
    finish_round(events);
  } else {
    phase_ = kPlay;
  }
}

// LC-9.3 / LC-11.13 The winner takes the chosen pile's card, the other player the
// other's; then a new card is turned up while the stock lasts.
void DominationGame::take_pile(int pile, std::vector<Event>* events) {
  const int winner = trick_.last_winner;
  const int other = 1 - winner;
  const int shown = face_up_;
  const int top = stock_[stock_next_++];
  const int to_winner = pile == kFaceUpPile ? shown : top;
  const int to_other = pile == kFaceUpPile ? top : shown;
  hands_[winner].add(to_winner);
  hands_[other].add(to_other);
  known_.add(shown);
  face_up_ = stock_next_ < kStockSize ? stock_[stock_next_++] : -1;
  phase_ = kPlay;
  if (events) {
    emit(events, kBoth, true,
         Value::obj({{"type", "take_pile"}, {"seat", winner}, {"pile", pile_name(pile)}}));
    emit(events, seat_bit(winner), false,
         Value::obj({{"type", "draw"}, {"seat", winner}, {"pile", pile_name(pile)},
                     {"card", card_id(to_winner)}}));
    emit(events, seat_bit(other), false,
         Value::obj({{"type", "draw"}, {"seat", other}, {"pile", pile_name(1 - pile)},
                     {"card", card_id(to_other)}}));
    if (face_up_ >= 0) {
      emit(events, kBoth, true,
           Value::obj({{"type", "turn_up"}, {"card", card_id(face_up_)},
                       {"stock", kStockSize - stock_next_}}));
    }
  }
}

void DominationGame::finish_round(std::vector<Event>* events) {
  round_points_ = {};
  if (elector_ >= 0) {
    // LC-9.4 The elector needs 9 of the 16 tricks; otherwise the other scores 2.
    if (trick_.won[elector_] >= kElectorGoal) {
      round_points_[elector_] = 1;
    } else {
      round_points_[1 - elector_] = 2;
    }
  } else if (trick_.won[0] != trick_.won[1]) {
    // LC-9.2 / LC-5.1 Most tricks scores 1; a tie would go to the Mangia-Cake's
    // captor, but it lies in the Casa: nobody scores.
    round_points_[trick_.won[0] > trick_.won[1] ? 0 : 1] = 1;
  }
  scores_[0] += round_points_[0];
  scores_[1] += round_points_[1];
  const bool limit = setup_.rounds > 0 && round_ + 1 >= setup_.rounds;
  // LC-5.5 Over once someone has reached the target with the higher score.
  const bool decided = scores_[0] != scores_[1] &&
                       (scores_[0] >= setup_.target || scores_[1] >= setup_.target);
  phase_ = limit || decided ? kOver : kRoundOver;
  if (events) {
    emit(events, kBoth, true,
         Value::obj({{"type", "round_end"},
                     {"round", round_ + 1},
                     {"elector", elector_ < 0 ? Value() : Value(elector_)},
                     {"tricks", Value::Array{trick_.won[0], trick_.won[1]}},
                     {"points", Value::Array{round_points_[0], round_points_[1]}},
                     {"scores", Value::Array{scores_[0], scores_[1]}}}));
    if (phase_ == kOver) {
      Value winners = Value::array();
      for (Seat s : this->winners()) winners.push(s);
      emit(events, kBoth, true,
           Value::obj({{"type", "game_over"},
                       {"scores", Value::Array{scores_[0], scores_[1]}},
                       {"winners", std::move(winners)}}));
    }
  }
}

// ---------------------------------------------------------------------------
// The Game interface

void DominationGame::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (seat != actor()) return;
  switch (phase_) {
    case kElect:
      if (election_round_ == 1) {
        out.push_back(Action{kElectFamily, 0, nominated_, 0, 0});
      } else {
        for (int f = 0; f < kFamilies; ++f) {
          if (f != nominated_) out.push_back(Action{kElectFamily, 0, f, 0, 0});
        }
      }
      if (!(election_round_ == 2 && seat == dealer_)) out.push_back(Action{kPass, 0, 0, 0, 0});
      return;
    case kPlay:
      for (int card : legal_cards(seat)) {
        out.push_back(Action{kPlayCard, static_cast<std::uint16_t>(card), 0, 0, 0});
      }
      return;
    case kChoosePile:
      out.push_back(Action{kTakePile, 0, kFaceUpPile, 0, 0});
      out.push_back(Action{kTakePile, 0, kStockPile, 0, 0});
      return;
    case kRoundOver:
      out.push_back(Action{kDeal, 0, 0, 0, 0});
      return;
    case kOver:
      return;
  }
}

Error DominationGame::not_your_turn(Seat) const {
  return Error{"not_your_turn", "It is seat " + std::to_string(actor()) + "'s turn."};
}

// Game::apply refused a finished game and a seat that does not act.
std::optional<Error> DominationGame::step(Seat seat, const Action& action, std::vector<Event>* events) {
  switch (phase_) {
    case kElect:
      if (action.kind != kElectFamily && action.kind != kPass) {
        return Error{"illegal_action", "Elect a family or pass."};
      }
      return elect(seat, action, events);
    case kPlay: {
      if (action.kind != kPlayCard) return Error{"illegal_action", "Play a card."};
      const int card = action.card;
      if (card >= kDeckSize || !hands_[seat].has(card)) {
        return Error{"illegal_action", "That card is not in your hand."};
      }
      if (!legal_cards(seat).has(card)) {
        return Error{"illegal_action",
                     "You must follow " + std::string(family_name(trick_.lead)) + "."};
      }
      play_card(seat, card, events);
      return std::nullopt;
    }
    case kChoosePile:
      if (action.kind != kTakePile || (action.arg != kFaceUpPile && action.arg != kStockPile)) {
        return Error{"illegal_action", "Take the face-up card or the top of the stock."};
      }
      take_pile(action.arg, events);
      return std::nullopt;
    case kRoundOver:
      if (action.kind != kDeal) return Error{"illegal_action", "Deal the next round."};
      dealer_ = non_dealer();  // LC-3.2 the deal passes to the left
      ++round_;
      start_round(events);
      return std::nullopt;
    case kOver:
      break;
  }
  return Error{"game_over", "The game is over."};
}

std::vector<Seat> DominationGame::winners() const {
  if (phase_ != kOver) return {};
  if (scores_[0] == scores_[1]) return {0, 1};
  return {scores_[0] > scores_[1] ? 0 : 1};
}

// Cards that exist but `seat` cannot see: the other hand (both for spectators),
// the face-down stock and the Casa below its face-up card.
CardSet DominationGame::hidden_cards(Seat seat) const {
  CardSet hidden;
  for (Seat s = 0; s < 2; ++s) {
    if (s != seat) hidden |= hands_[s];
  }
  for (int i = stock_next_; i < kStockSize; ++i) hidden.add(stock_[i]);
  for (int i = casa_top_up_ ? 1 : 0; i < kCasaSize; ++i) hidden.add(casa_[i]);
  return hidden;
}

std::vector<std::string> DominationGame::secret_cards(Seat seat) const {
  std::vector<std::string> out;
  for (int card : hidden_cards(seat)) out.push_back(card_id(card));
  return out;
}

Value DominationGame::view(Seat seat) const {
  static constexpr std::array<const char*, 5> kPhaseNames{"elect", "play", "take_pile",
                                                          "round_over", "over"};
  const bool player = seat == 0 || seat == 1;
  const Seat acting = actor();
  Value v = Value::obj({{"game", "la-casa"},
                        {"mode", "domination"},
                        {"seat", player ? seat : -1},
                        {"teams", Value(Value::Array{Value(Value::Array{0}), Value(Value::Array{1})})},
                        {"phase", kPhaseNames[phase_]},
                        {"to_act", acting < 0 ? Value::array() : Value(Value::Array{acting})},
                        {"round", round_ + 1},
                        {"dealer", dealer_},
                        {"target", setup_.target}});
  v.set("election", Value::obj({{"round", election_round_},
                                {"nominated", family_or_null(nominated_)},
                                {"elector", elector_ < 0 ? Value() : Value(elector_)}}));
  v.set("ruling", family_or_null(ruling_));
  v.set("casa", Value::obj({{"top", casa_top_up_ ? Value(card_id(casa_[0])) : Value()},
                            {"count", kCasaSize}}));
  v.set("face_up", card_or_null(face_up_));
  v.set("stock", kStockSize - stock_next_);
  if (player) v.set("hand", card_list(hands_[seat]));
  v.set("hand_sizes", Value::Array{hands_[0].size(), hands_[1].size()});
  v.set("leader", trick_.leader);
  v.set("trick", trick_.trick_state("seat"));
  v.set("lead", family_or_null(trick_.lead));
  if (trick_.last_winner >= 0) {
    v.set("last_trick",
          Value::obj({{"cards", Value::Array{card_id(trick_.last[0]), card_id(trick_.last[1])}},
                      {"seats", Value::Array{trick_.last_players[0], trick_.last_players[1]}},
                      {"winner", trick_.last_winner}}));
  } else {
    v.set("last_trick", Value());
  }
  v.set("tricks_played", trick_.played);
  v.set("tricks", Value::Array{trick_.won[0], trick_.won[1]});
  v.set("round_points", Value::Array{round_points_[0], round_points_[1]});
  v.set("scores", Value::Array{scores_[0], scores_[1]});
  if (phase_ == kOver) {
    Value winners = Value::array();
    for (Seat s : this->winners()) winners.push(s);
    v.set("winners", std::move(winners));
  }
  return v;
}

Value DominationGame::full_state() const {
  Value casa = Value::array();
  for (auto c : casa_) casa.push(card_id(c));
  Value stock = Value::array();
  for (int i = stock_next_; i < kStockSize; ++i) stock.push(card_id(stock_[i]));
  return Value::obj({
      {"phase", static_cast<int>(phase_)},
      {"target", setup_.target},
      {"rounds", setup_.rounds},
      {"deal_seed", static_cast<long long>(deal_seed_)},
      {"dealer", dealer_},
      {"round", round_},
      {"scores", Value::Array{scores_[0], scores_[1]}},
      {"round_points", Value::Array{round_points_[0], round_points_[1]}},
      {"hands", Value::Array{card_list(hands_[0]), card_list(hands_[1])}},
      {"casa", std::move(casa)},
      {"casa_top_up", casa_top_up_},
      {"nominated", nominated_},
      {"election_round", election_round_},
      {"to_elect", to_elect_},
      {"elector", elector_},
      {"ruling", ruling_},
      {"stock", std::move(stock)},
      {"face_up", card_or_null(face_up_)},
      {"known", Value(static_cast<long long>(known_.bits()))},
      {"trick", trick_.trick_state("seat")},
      {"lead", trick_.lead},
      {"leader", trick_.leader},
      {"tricks_played", trick_.played},
      {"tricks", Value::Array{trick_.won[0], trick_.won[1]}},
      {"captured", trick_.captured_state()},
      {"last_trick", trick_.last_state()},
      {"last_trick_seats", trick_.last_players_state()},
      {"last_winner", trick_.last_winner},
  });
}

Value DominationGame::encode_action(const Action& action) const {
  switch (action.kind) {
    case kPlayCard:
      if (action.card < kDeckSize) {
        return Value::obj({{"type", "play"}, {"card", card_id(action.card)}});
      }
      break;
    case kElectFamily:
      if (action.arg >= 0 && action.arg < kFamilies) {
        return Value::obj({{"type", "elect"}, {"family", family_name(action.arg)}});
      }
      break;
    case kPass:
      return Value::obj({{"type", "pass"}});
    case kTakePile:
      if (action.arg == kFaceUpPile || action.arg == kStockPile) {
        return Value::obj({{"type", "take_pile"}, {"pile", pile_name(action.arg)}});
      }
      break;
    case kDeal:
      return Value::obj({{"type", "deal"}});
    default:
      break;
  }
  return Value::obj({{"type", "unknown"}});
}

std::optional<Error> DominationGame::decode_action(const Value& value, Action& out) const {
  if (auto err = check_action_fields(value, {{"play", "card"},
                                             {"elect", "family"},
                                             {"pass", ""},
                                             {"take_pile", "pile"},
                                             {"deal", ""}}))
    return err;
  const std::string type = value.get_string("type", "");
  if (type == "play") {
    const auto card = parse_card(value.get_string("card", ""));
    if (!card) return Error{"malformed_action", "A play needs a card id such as \"G5\"."};
    out = Action{kPlayCard, static_cast<std::uint16_t>(*card), 0, 0, 0};
    return std::nullopt;
  }
  if (type == "elect") {
    const auto family = parse_family(value.get_string("family", ""));
    if (!family) return Error{"malformed_action", "Elect one of guns, knives, masks or fists."};
    out = Action{kElectFamily, 0, *family, 0, 0};
    return std::nullopt;
  }
  if (type == "pass") {
    out = Action{kPass, 0, 0, 0, 0};
    return std::nullopt;
  }
  if (type == "take_pile") {
    const std::string pile = value.get_string("pile", "");
    if (pile != "face_up" && pile != "stock") {
      return Error{"malformed_action", "Take the pile \"face_up\" or \"stock\"."};
    }
    out = Action{kTakePile, 0, pile == "face_up" ? kFaceUpPile : kStockPile, 0, 0};
    return std::nullopt;
  }
  if (type == "deal") {
    out = Action{kDeal, 0, 0, 0, 0};
    return std::nullopt;
  }
  return Error{"malformed_action",
               "La Casa Domination knows the actions elect, pass, play, take_pile and deal."};
}

std::unique_ptr<Game> DominationGame::determinize(Seat seat, std::uint64_t seed) const {
  auto sample = std::make_unique<DominationGame>(*this);
  DominationGame& g = *sample;
  Rng rng(seed);
  // Hidden cards that nobody at the table knows trade places at random; cards
  // known to both players (known_) stay where they are.
  const CardSet pool = hidden_cards(seat) - known_;
  std::array<int, kDeckSize> cards{};
  int n = 0;
  for (int card : pool) cards[n++] = card;
  rng.shuffle(cards.data(), static_cast<std::size_t>(n));
  int next = 0;
  for (Seat s = 0; s < 2; ++s) {
    if (s == seat) continue;
    const CardSet kept = hands_[s] & known_;
    const int refill = (hands_[s] - known_).size();
    g.hands_[s] = kept;
    for (int i = 0; i < refill; ++i) g.hands_[s].add(cards[next++]);
  }
  for (int i = stock_next_; i < kStockSize; ++i) g.stock_[i] = static_cast<std::int8_t>(cards[next++]);
  for (int i = casa_top_up_ ? 1 : 0; i < kCasaSize; ++i) {
    if (!known_.has(casa_[i])) g.casa_[i] = static_cast<std::int8_t>(cards[next++]);
  }
  g.deal_seed_ = rng.next();
  return sample;
}

}  // namespace casa::la_casa
