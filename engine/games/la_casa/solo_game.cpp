// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/solo_game.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/action_fields.h"
#include "engine/games/la_casa/robot.h"
#include "engine/games/la_casa/solo.h"
#include "engine/rng.h"

namespace casa::la_casa {

namespace {

// LC-8.1 Column lengths, column 1 (nearest the Casa) first.
constexpr std::array<int, SoloGame::kColumns> kColumnLength{3, 4, 5, 6};
constexpr int kRobotCards = 18;
static_assert(kColumnLength[0] + kColumnLength[1] + kColumnLength[2] + kColumnLength[3] == kRobotCards,
              "the Robot's columns hold its cards");

Value card_value_or_null(int card) { return card < 0 ? Value() : Value(card_id(card)); }
Value family_or_null(int family) {
  return family == kNoFamily ? Value() : Value(family_name(family));
}
const char* player_name(int player) { return player == 0 ? "human" : "robot"; }

Value card_list(CardSet cards) {
  Value list = Value::array();
  for (int card : cards) list.push(card_id(card));
  return list;
}

// Each deal after the fixed first one comes from its own generator, so a deal
// depends only on the game's deal seed, the round and the re-deal count.
std::array<int, kDeckSize> shuffled_deck(std::uint64_t deal_seed, int round, int redeal) {
  std::array<int, kDeckSize> deck{};
  for (int i = 0; i < kDeckSize; ++i) deck[i] = i;
  Rng rng(deal_seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(round * 64 + redeal + 1));
  rng.shuffle(deck.data(), deck.size());
  return deck;
}

void emit(std::vector<Event>* events, Value body, bool to_human = true, bool to_spectators = true) {
  if (!events) return;
  events->push_back(Event{to_human ? seat_bit(0) : SeatMask{0}, to_spectators, std::move(body)});
}

}  // namespace

SoloGame::SoloGame(const SoloSetup& setup) : setup_(setup) {
  Rng rng(setup.seed);
  deal_seed_ = rng.next();
  if (setup_.challenges) {
    // LC-8.3 One of each Solo challenge, in random order (the first may be fixed).
    int n = 0;
    if (setup_.first_challenge) order_[n++] = static_cast<std::int8_t>(*setup_.first_challenge);
    for (const Challenge* c : all_challenges()) {
      if (c->solo && (!setup_.first_challenge || c->id != *setup_.first_challenge))
        order_[n++] = static_cast<std::int8_t>(c->id);
    }
    const int fixed = setup_.first_challenge ? 1 : 0;
    rng.shuffle(order_.data() + fixed, static_cast<std::size_t>(kSoloChallenges - fixed));
  } else {
    order_.fill(static_cast<std::int8_t>(kNoChallenge));
  }
  start_round(nullptr);
}

// ---------------------------------------------------------------------------
// Dealing

void SoloGame::start_round(std::vector<Event>* events) {
  challenge_ = order_[round_];
  redeals_ = 0;
  std::array<int, kDeckSize> deck =
      round_ == 0 && setup_.deck ? *setup_.deck : shuffled_deck(deal_seed_, round_, 0);
  // LC-8.5 Minions / LC-4.9: a Mangia-Cake in the Casa means a re-deal, not a round.
  while (!deal(deck)) {
    ++redeals_;
    deck = shuffled_deck(deal_seed_, round_, redeals_);
  }
  cousins_ = kNoFamily;
  trick_.clear();
  trick_.leader = 0;  // LC-8.2 the human leads the first trick
  valid_tricks_ = {};
  // LC-8.5 / LC-7.9 the human names the Cousins first.
  phase_ = rules().solo_names_cousins ? kNameCousins : kPlay;

  if (events) {
    Value start = Value::obj({{"type", "round_start"},
                              {"round", round_ + 1},
                              {"challenge", challenge_name(challenge_)},
                              {"redeals", redeals_},
                              {"ruling", family_or_null(ruling_)}});
    start.set("casa", casa_up_ ? Value(card_id(casa_)) : Value());
    if (human_reference_ >= 0) start.set("human_reference", card_id(human_reference_));
    Value feet = Value::array();
    for (int c = 0; c < kColumns; ++c) feet.push(card_id(column_[c][column_len_[c] - 1]));
    start.set("robot_face_up", std::move(feet));
    emit(events, std::move(start));
    emit(events, Value::obj({{"type", "hand"}, {"cards", card_list(hand_)}}), true, false);
  }
}

// LC-4.8 Solo deal order. Returns false when LC-8.5 Minions calls for a re-deal.
bool SoloGame::deal(const std::array<int, kDeckSize>& deck) {
  std::array<int, kDeckSize> rest{};
  int n = 0;
  human_reference_ = -1;
  casa_ = -1;
  // A Challenge may set cards apart first (LC-8.5 Betrayal).
  if (rules().solo_deal) {
    n = rules().solo_deal(*this, deck, rest);
  } else {
    for (int card : deck) rest[n++] = card;
  }
  int next = 0;
  for (int c = 0; c < kColumns; ++c) {
    column_len_[c] = static_cast<std::int8_t>(kColumnLength[c]);
    foot_up_[c] = true;  // LC-8.1 only the foot is face up
    for (int i = 0; i < kColumnLength[c]; ++i) {
      const int card = rest[next++];
      column_[c][i] = static_cast<std::int8_t>(card);
      nearness_[card] = static_cast<std::int8_t>(c);
    }
  }
  if (!rules().solo_deal) casa_ = rest[next++];
  hand_ = CardSet();
  for (int i = 0; i < kHandSize; ++i) hand_.add(rest[next++]);
  pile_len_ = n - next;
  pile_next_ = 0;
  for (int i = 0; i < pile_len_; ++i) pile_[i] = static_cast<std::int8_t>(rest[next + i]);

  if (!rules().selection) {
    // LC-8.5 No Selection: no Ruling Family; the Casa card stays face down unless
    // the Challenge shows it (Betrayal's reference).
    casa_up_ = rules().solo_casa_shown;
    ruling_ = kNoFamily;
    return true;
  }
  // LC-8.5 Minions / LC-4.9: a Mangia-Cake in the Casa means a re-deal.
  if (rules().redeal_on_mangia_cake && casa_ == kMangiaCake) return false;
  // LC-8.1 / LC-4.5 Selection: the Casa card's family rules (none for the Mangia-Cake).
  casa_up_ = true;
  ruling_ = printed_family(casa_);
  return true;
}

// ---------------------------------------------------------------------------
// Play

CardSet SoloGame::robot_face_up() const {
  CardSet up;
  for (int c = 0; c < kColumns; ++c) {
    if (column_len_[c] > 0 && foot_up_[c]) up.add(column_[c][column_len_[c] - 1]);
  }
  return up;
}

CardSet SoloGame::legal_cards() const {
  return trick_.playable(hand_, ruling_);
}

void SoloGame::play_card(int player, int card, std::vector<Event>* events) {
  int column = -1;
  if (player == 0) {
    hand_.remove(card);
  } else {
    column = nearness_[card];
    --column_len_[column];
    foot_up_[column] = false;  // the card beneath turns up after the trick (LC-8.2)
  }
  const int ruling_before = ruling_;
  if (rules().ruling_after) ruling_ = rules().ruling_after(card, ruling_);
  trick_.play(player, card, ruling_);
  if (events) {
    Value body = Value::obj({{"type", "play"}, {"player", player_name(player)}});
    if (player == 0) body.set("seat", 0);
    body.set("card", card_id(card));
    if (column >= 0) body.set("column", column + 1);
    if (ruling_ != ruling_before) body.set("ruling", family_or_null(ruling_));
    emit(events, std::move(body));
  }
}

void SoloGame::robot_plays(std::vector<Event>* events) {
  RobotSituation s;
  s.playable = robot_face_up();
  s.trick = trick_.cards.data();
  s.trick_len = trick_.len;
  s.lead = trick_.lead;
  s.ruling = ruling_;
  s.cousins = cousins_;
  s.capitano = ruling_can_change();
  s.nearness = nearness_.data();
  play_card(kRobot, robot_choose(s), events);
}

RobotSituation SoloGame::robot_situation() const {
  RobotSituation s;
  s.playable = hand_;
  s.trick = trick_.cards.data();
  s.trick_len = trick_.len;
  s.lead = trick_.lead_now();
  s.ruling = ruling_;
  s.cousins = cousins_;
  s.capitano = ruling_can_change();
  return s;
}

void SoloGame::finish_trick(std::vector<Event>* events) {
  // Both cards are in (the human's play makes the Robot answer).
  const int winner = trick_.take(ruling_, cousins_);
  const CardSet cards = CardSet::of(trick_.last[0]) | CardSet::of(trick_.last[1]);
  // A Challenge may judge the trick (LC-8.5 Betrayal).
  const bool judged = rules().solo_trick_valid != nullptr;
  const bool valid = judged ? rules().solo_trick_valid(*this, cards, winner) : true;
  if (events) {
    Value played = Value::array();
    for (int card : trick_.last) played.push(card_id(card));
    Value body = Value::obj({{"type", "trick"},
                             {"winner", player_name(winner)},
                             {"cards", std::move(played)},
                             {"number", trick_.played}});
    if (judged) body.set("valid", valid);
    emit(events, std::move(body));
  }

  // LC-8.2 Face-down feet turn up, then the human draws while the pile lasts.
  for (int c = 0; c < kColumns; ++c) {
    if (column_len_[c] == 0 || foot_up_[c]) continue;
    foot_up_[c] = true;
    if (events) {
      emit(events, Value::obj({{"type", "turn_up"},
                               {"column", c + 1},
                               {"card", card_id(column_[c][column_len_[c] - 1])}}));
    }
  }
  if (pile_next_ < pile_len_) {
    const int card = pile_[pile_next_++];
    hand_.add(card);
    if (events) {
      emit(events, Value::obj({{"type", "draw"}, {"seat", 0}, {"card", card_id(card)}}), true,
           false);
      emit(events, Value::obj({{"type", "draw"}, {"seat", 0}, {"pile", pile_len_ - pile_next_}}),
           false, true);
    }
  }

  // LC-8.2 / LC-8.5 The round ends when the human has played every card (17 in
  // Betrayal, when the Robot keeps its last card).
  if (hand_.empty()) {
    finish_round(events);
    return;
  }
  trick_.leader = winner;
  if (trick_.leader == kRobot) robot_plays(events);
}

// LC-8.3, LC-8.5, LC-11.14 What the human scores this round (the Robot never scores).
int SoloGame::decide(int human, int robot, bool more_wins) const {
  // LC-5.2 A tie goes to whoever captured the Mangia-Cake.
  if (human == robot) return trick_.captured[0].has(kMangiaCake) ? 1 : 0;
  return (more_wins ? human > robot : human < robot) ? 1 : 0;
}

int SoloGame::round_points() const {
  const Challenge& c = rules();
  if (c.solo_score) return c.solo_score(*this);
  // LC-8.5 a Challenge's count: more or fewer than the Robot scores 1.
  if (c.tally) {
    return decide(c.tally(trick_.captured[0], trick_.won[0]),
                  c.tally(trick_.captured[1], trick_.won[1]), c.tally_most);
  }
  // LC-8.3 without a Challenge (and in Cousins), the goal is eleven tricks.
  return trick_.won[0] >= kGoalTricks ? 1 : 0;
}

void SoloGame::finish_round(std::vector<Event>* events) {
  const int points = round_points();
  points_ += points;
  round_points_[round_] = static_cast<std::int8_t>(points);
  if (events) {
    Value body = Value::obj({{"type", "round_end"},
                             {"round", round_ + 1},
                             {"challenge", challenge_name(challenge_)},
                             {"points", points},
                             {"total", points_},
                             {"tricks", Value::obj({{"human", trick_.won[0]},
                                                    {"robot", trick_.won[1]}})}});
    if (rules().solo_round_end) rules().solo_round_end(*this, body);
    emit(events, std::move(body));
  }
  if (round_ + 1 >= setup_.rounds) {
    phase_ = kOver;
    if (events) {
      emit(events, Value::obj({{"type", "game_over"},
                               {"points", points_},
                               {"winner", points_ >= kWinningPoints ? "human" : "robot"}}));
    }
    return;
  }
  // The finished round stays on the table until the human asks for the next deal.
  phase_ = kRoundOver;
}

// ---------------------------------------------------------------------------
// The Game interface

void SoloGame::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (seat != 0 || phase_ == kOver) return;
  if (phase_ == kRoundOver) {
    out.push_back(Action{kDeal, 0, 0, 0, 0});
    return;
  }
  if (phase_ == kNameCousins) {
    // LC-8.5 / LC-11.11 Any non-ruling family (any of the four with none ruling).
    for (int f = 0; f < kFamilies; ++f) {
      if (f != ruling_) out.push_back(Action{kNameFamily, 0, f, 0, 0});
    }
    return;
  }
  for (int card : legal_cards()) {
    out.push_back(Action{kPlayCard, static_cast<std::uint16_t>(card), 0, 0, 0});
  }
}

Error SoloGame::not_your_turn(Seat) const { return Error{"not_your_turn", "Only seat 0 plays La Casa Solo."}; }

// Game::apply refused a finished game and any seat but 0.
std::optional<Error> SoloGame::step(Seat /*seat*/, const Action& action, std::vector<Event>* events) {
  switch (action.kind) {
    case kNameFamily: {
      if (phase_ != kNameCousins) {
        return Error{"illegal_action", "The Cousins are named only before the first trick of a "
                                       "Cousins round."};
      }
      const int family = action.arg;
      if (family < 0 || family >= kFamilies) {
        return Error{"illegal_action", "That is not a family."};
      }
      if (family == ruling_) {
        return Error{"illegal_action", "The Cousins cannot be the Ruling Family."};
      }
      cousins_ = family;
      phase_ = kPlay;
      if (events) {
        emit(events,
             Value::obj({{"type", "cousins"}, {"seat", 0}, {"family", family_name(family)}}));
      }
      return std::nullopt;
    }
    case kDeal:
      if (phase_ != kRoundOver) {
        return Error{"illegal_action", "The next round is dealt only once this one is over."};
      }
      ++round_;
      start_round(events);
      return std::nullopt;
    case kPlayCard: {
      if (phase_ == kRoundOver) return Error{"illegal_action", "Deal the next round first."};
      if (phase_ != kPlay) return Error{"illegal_action", "Name the Cousins first."};
      const int card = action.card;
      if (card >= kDeckSize || !hand_.has(card)) {
        return Error{"illegal_action", "That card is not in your hand."};
      }
      if (!legal_cards().has(card)) {
        return Error{"illegal_action",
                     "You must follow " + std::string(family_name(trick_.lead)) + "."};
      }
      play_card(0, card, events);
      if (trick_.len == 1) robot_plays(events);
      finish_trick(events);
      return std::nullopt;
    }
    default:
      return Error{"illegal_action", "La Casa Solo has no such action."};
  }
}

std::vector<Seat> SoloGame::winners() const {
  if (phase_ != kOver) return {};
  return {points_ >= kWinningPoints ? Seat{0} : kRobotWinner};
}

// Cards that exist but are face down to the human (and, for spectators, the hand).
CardSet SoloGame::hidden_cards(bool include_hand) const {
  CardSet hidden;
  for (int c = 0; c < kColumns; ++c) {
    const int visible_from = foot_up_[c] ? column_len_[c] - 1 : column_len_[c];
    for (int i = 0; i < visible_from; ++i) hidden.add(column_[c][i]);
  }
  if (!casa_up_ && casa_ >= 0) hidden.add(casa_);
  for (int i = pile_next_; i < pile_len_; ++i) hidden.add(pile_[i]);
  if (include_hand) hidden |= hand_;
  return hidden;
}

std::vector<std::string> SoloGame::secret_cards(Seat seat) const {
  std::vector<std::string> out;
  for (int card : hidden_cards(seat != 0)) out.push_back(card_id(card));
  return out;
}

Value SoloGame::table_view(bool with_hand) const {
  static constexpr std::array<const char*, 4> kPhaseNames{"name_cousins", "play", "round_over",
                                                          "over"};
  Value v = Value::obj({{"game", "la-casa"},
                        {"mode", "solo"},
                        {"seat", with_hand ? 0 : -1},
                        {"teams", Value(Value::Array{Value(Value::Array{0})})},
                        {"phase", kPhaseNames[phase_]},
                        {"to_act", phase_ == kOver ? Value::array() : Value(Value::Array{0})},
                        {"round", round_ + 1},
                        {"rounds", setup_.rounds},
                        {"challenge", challenge_ == kNoChallenge ? Value() : Value(challenge_name(challenge_))},
                        {"ruling", family_or_null(ruling_)},
                        {"cousins", family_or_null(cousins_)}});
  Value columns = Value::array();
  int robot_cards = 0;
  for (int c = 0; c < kColumns; ++c) {
    const int len = column_len_[c];
    const bool up = len > 0 && foot_up_[c];
    robot_cards += len;
    columns.push(Value::obj({{"column", c + 1},
                             {"face_up", up ? Value(card_id(column_[c][len - 1])) : Value()},
                             {"face_down", up ? len - 1 : len}}));
  }
  v.set("robot", Value::obj({{"columns", std::move(columns)}, {"cards", robot_cards}}));
  if (casa_up_) {
    v.set("casa", Value::obj({{"card", card_id(casa_)}, {"face_down", 0}}));
  } else {
    v.set("casa", Value::obj({{"card", Value()}, {"face_down", 1}}));
  }
  if (rules().solo_view_after_casa) rules().solo_view_after_casa(*this, v);
  if (with_hand) v.set("hand", card_list(hand_));
  v.set("hand_size", hand_.size());
  v.set("pile", pile_len_ - pile_next_);
  v.set("leader", player_name(trick_.leader));
  Value trick = Value::array();
  for (int i = 0; i < trick_.len; ++i) {
    trick.push(Value::obj(
        {{"player", player_name(trick_.players[i])}, {"card", card_id(trick_.cards[i])}}));
  }
  v.set("trick", std::move(trick));
  v.set("lead", family_or_null(trick_.lead));
  if (trick_.last_winner >= 0) {
    v.set("last_trick",
          Value::obj({{"cards", Value::Array{card_id(trick_.last[0]), card_id(trick_.last[1])}},
                      {"winner", player_name(trick_.last_winner)}}));
  } else {
    v.set("last_trick", Value());
  }
  v.set("tricks_played", trick_.played);
  v.set("tricks", Value::obj({{"human", trick_.won[0]}, {"robot", trick_.won[1]}}));
  // Betrayal's valid tricks, Minions' and Revenge's counts (captured cards were
  // all seen played, so these counts are public).
  if (rules().solo_view_after_tricks) rules().solo_view_after_tricks(*this, v);
  const int mc_owner = trick_.captured[0].has(kMangiaCake)   ? 0
                       : trick_.captured[1].has(kMangiaCake) ? 1
                                                             : -1;
  v.set("mangia_cake_captured_by", mc_owner < 0 ? Value() : Value(player_name(mc_owner)));
  Value history = Value::array();
  const int finished = phase_ == kOver || phase_ == kRoundOver ? round_ + 1 : round_;
  for (int r = 0; r < finished; ++r) history.push(round_points_[r]);
  v.set("round_points", std::move(history));
  v.set("points", points_);
  v.set("scores", Value::Array{points_});
  if (phase_ == kOver) {
    v.set("winner", points_ >= kWinningPoints ? "human" : "robot");
  }
  return v;
}

Value SoloGame::view(Seat seat) const { return table_view(seat == 0); }

Value SoloGame::full_state() const {
  Value order = Value::array();
  for (auto c : order_) order.push(challenge_name(c));
  Value columns = Value::array();
  for (int c = 0; c < kColumns; ++c) {
    Value cards = Value::array();
    for (int i = 0; i < column_len_[c]; ++i) cards.push(card_id(column_[c][i]));
    columns.push(Value::obj({{"cards", std::move(cards)}, {"foot_up", foot_up_[c]}}));
  }
  Value pile = Value::array();
  for (int i = pile_next_; i < pile_len_; ++i) pile.push(card_id(pile_[i]));
  Value round_points = Value::array();
  for (auto p : round_points_) round_points.push(p);
  return Value::obj({
      {"phase", static_cast<int>(phase_)},
      {"challenges", setup_.challenges},
      {"rounds", setup_.rounds},
      {"order", std::move(order)},
      {"deal_seed", static_cast<long long>(deal_seed_)},
      {"round", round_},
      {"points", points_},
      {"round_points", std::move(round_points)},
      {"challenge", challenge_name(challenge_)},
      {"redeals", redeals_},
      {"columns", std::move(columns)},
      {"casa", card_value_or_null(casa_)},
      {"casa_up", casa_up_},
      {"human_reference", card_value_or_null(human_reference_)},
      {"hand", card_list(hand_)},
      {"pile", std::move(pile)},
      {"ruling", ruling_},
      {"cousins", cousins_},
      {"trick", trick_.trick_state("player")},
      {"lead", trick_.lead},
      {"leader", trick_.leader},
      {"tricks_played", trick_.played},
      {"tricks_won", Value::Array{trick_.won[0], trick_.won[1]}},
      {"valid_tricks", Value::Array{valid_tricks_[0], valid_tricks_[1]}},
      {"captured", trick_.captured_state()},
      {"last_trick", trick_.last_state()},
      {"last_trick_players", trick_.last_players_state()},
      {"last_winner", trick_.last_winner},
  });
}

Value SoloGame::encode_action(const Action& action) const {
  switch (action.kind) {
    case kPlayCard:
      if (action.card < kDeckSize) return Value::obj({{"type", "play"}, {"card", card_id(action.card)}});
      break;
    case kNameFamily:
      if (action.arg >= 0 && action.arg < kFamilies) {
        return Value::obj({{"type", "name_family"}, {"family", family_name(action.arg)}});
      }
      break;
    case kDeal:
      return Value::obj({{"type", "deal"}});
    default:
      break;
  }
  return Value::obj({{"type", "unknown"}});
}

std::optional<Error> SoloGame::decode_action(const Value& value, Action& out) const {
  if (auto err = check_action_fields(
          value, {{"play", "card"}, {"name_family", "family"}, {"deal", ""}}))
    return err;
  const std::string type = value.get_string("type", "");
  if (type == "play") {
    const auto card = parse_card(value.get_string("card", ""));
    if (!card) return Error{"malformed_action", "A play needs a card id such as \"G5\"."};
    out = Action{kPlayCard, static_cast<std::uint16_t>(*card), 0, 0, 0};
    return std::nullopt;
  }
  if (type == "name_family") {
    const auto family = parse_family(value.get_string("family", ""));
    if (!family) {
      return Error{"malformed_action", "Name one of guns, knives, masks or fists."};
    }
    out = Action{kNameFamily, 0, *family, 0, 0};
    return std::nullopt;
  }
  if (type == "deal") {
    out = Action{kDeal, 0, 0, 0, 0};
    return std::nullopt;
  }
  return Error{"malformed_action", "La Casa Solo knows the actions play, name_family and deal."};
}

std::unique_ptr<Game> SoloGame::determinize(Seat seat, std::uint64_t seed) const {
  auto sample = std::make_unique<SoloGame>(*this);
  Rng rng(seed);
  // The cards the seat cannot see trade places at random; every visible card stays.
  const CardSet hidden = hidden_cards(seat != 0);
  std::array<int, kDeckSize> cards{};
  int n = 0;
  for (int card : hidden) cards[n++] = card;
  rng.shuffle(cards.data(), static_cast<std::size_t>(n));
  int next = 0;
  SoloGame& g = *sample;
  for (int c = 0; c < kColumns; ++c) {
    const int visible_from = foot_up_[c] ? column_len_[c] - 1 : column_len_[c];
    for (int i = 0; i < visible_from; ++i) {
      g.column_[c][i] = static_cast<std::int8_t>(cards[next++]);
      g.nearness_[g.column_[c][i]] = static_cast<std::int8_t>(c);
    }
  }
  if (!casa_up_ && casa_ >= 0) g.casa_ = cards[next++];
  for (int i = pile_next_; i < pile_len_; ++i) g.pile_[i] = static_cast<std::int8_t>(cards[next++]);
  if (seat != 0) {
    g.hand_ = CardSet();
    for (int i = 0; i < hand_.size(); ++i) g.hand_.add(cards[next++]);
  }
  // Later deals and the order of the challenges still to come are unknown too.
  g.deal_seed_ = rng.next();
  if (setup_.challenges && round_ + 1 < kSoloChallenges) {
    std::sort(g.order_.begin() + round_ + 1, g.order_.begin() + kSoloChallenges);
    rng.shuffle(g.order_.data() + round_ + 1, static_cast<std::size_t>(kSoloChallenges - round_ - 1));
  }
  return sample;
}

}  // namespace casa::la_casa
