// SPDX-License-Identifier: AGPL-3.0-or-later
// Conference: creation, dealing, the legal actions and their effects, scoring.
// Rule ids refer to shared/rules/conference.md.
#include "engine/games/conference/conference.h"
#include "engine/teams.h"

#include <algorithm>
#include <string>

#include "engine/action_fields.h"
#include "engine/options.h"
#include "engine/games/conference/state.h"

namespace casa::conference {

namespace {

constexpr std::uint64_t kHandSeedStep = 0x632BE59BD9B4E019ULL;

Cards all_cards(int deck_size) {
  Cards all = Cards::range(0, kCardCount);
  if (deck_size == 78) {
    all.remove(kGood);
    all.remove(kEvil);
  }
  return all;
}

Cards kings() {
  Cards k;
  for (int s = 0; s < kSuits; ++s) k.add(s * kSuitLength + kKingRank);
  return k;
}

Cards honours() { return Cards::of(trump(1)) | Cards::of(trump(21)) | Cards::of(kFool); }

Cards courts_of(int suit) {
  return Cards::range(suit * kSuitLength + kJackRank, (suit + 1) * kSuitLength);
}

Value seats_value(SeatMask mask) {
  Value list = Value::array();
  for (int s = 0; s < kPlayers; ++s)
    if (mask & seat_bit(s)) list.push(s);
  return list;
}

Value cards_value(Cards cards) {
  Value list = Value::array();
  for (int c : cards) list.push(card_id(c));
  return list;
}

SeatMask all_seats() { return (SeatMask{1} << kPlayers) - 1; }

Event public_event(Value body) { return Event{all_seats(), true, std::move(body)}; }

std::string suit_word(int suit) {
  if (suit == kTrumpSuit) return "trump";
  return std::string(kSuitNames[suit]);
}

std::string capital(std::string word) {
  if (!word.empty()) word[0] = static_cast<char>(word[0] - 'a' + 'A');
  return word;
}

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::kDiscard: return "discard";
    case Phase::kGallowglass: return "gallowglass";
    case Phase::kPlay: return "play";
    case Phase::kDeal: return "deal";
    case Phase::kOver: return "over";
  }
  return "?";
}

const char* good_evil_name(GoodEvil g) {
  switch (g) {
    case GoodEvil::kOff: return "off";
    case GoodEvil::kTrumps: return "trumps";
    case GoodEvil::kAllegiance: return "allegiance";
  }
  return "?";
}

Error illegal(std::string why) { return Error{"illegal_action", std::move(why)}; }

std::optional<bool> read_switch(const Value& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_string() && v.as_string() == "on") return true;
  if (v.is_string() && v.as_string() == "off") return false;
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------
// Creation and dealing

ConferenceGame::ConferenceGame(const Options& options, std::uint64_t seed, int first_dealer,
                               const std::array<std::uint8_t, kCardCount>* deck, int deck_size)
    : options_(options), seed_(seed), deck_size_(deck_size), dealer_(first_dealer) {
  hand_number_ = 1;
  deal(deck ? *deck : shuffled_deck());
}

// CO-2.3: the server shuffles before every hand; hand n's order derives from the seed.
std::array<std::uint8_t, kCardCount> ConferenceGame::shuffled_deck() const {
  std::array<std::uint8_t, kCardCount> order{};
  int n = 0;
  for (int c : all_cards(deck_size_)) order[n++] = static_cast<std::uint8_t>(c);
  Rng rng(seed_ + kHandSeedStep * static_cast<std::uint64_t>(hand_number_));
  rng.shuffle(order.data(), static_cast<std::size_t>(n));
  return order;
}

// CO-3.1 packets of 4, 5, 5, 5 from eldest round to the dealer, the rest to the
// dealer; CO-7.1 with Attack & Defence T21/T20 first and 3-card first packets.
void ConferenceGame::deal(const std::array<std::uint8_t, kCardCount>& order) {
  hands_ = {};
  discard_ = Cards();
  revealed_ = Cards();
  gallowglass_suit_ = -1;
  trick_ = Trick();
  tricks_ = {};
  trick_count_ = 0;
  calls_ = {};
  call_count_ = 0;
  good_side_ = -1;
  ge_played_ = 0;
  ge_first_seat_ = -1;
  forced_seat_ = -1;
  forced_card_ = -1;
  fool_owner_ = -1;
  fool_trick_ = -1;
  voids_ = {};
  discard_target_ = deck_size_ - kPlayers * kTricksPerHand;

  const int partner = partner_of(dealer_);
  direction_ = 1;
  std::array<std::uint8_t, kCardCount> rest{};
  int n = 0;
  for (int i = 0; i < deck_size_; ++i) {
    const int c = order[i];
    if (options_.attack_defence && (c == trump(21) || c == trump(20))) continue;
    rest[n++] = static_cast<std::uint8_t>(c);
  }
  if (options_.attack_defence) {
    hands_[dealer_].add(trump(21));
    hands_[partner].add(trump(20));
    revealed_ = Cards::of(trump(21)) | Cards::of(trump(20));
    // CO-7.3: play goes away from the partner.
    direction_ = (dealer_ % 2 == 0) ? -1 : 1;
  }
  int pos = 0;
  for (int round = 0; round < 4; ++round) {
    for (int k = 1; k <= kPlayers; ++k) {
      const int seat = (dealer_ + k) % kPlayers;
      int count = round == 0 ? 4 : 5;
      if (round == 0 && options_.attack_defence && (seat == dealer_ || seat == partner)) --count;
      for (int i = 0; i < count; ++i) hands_[seat].add(rest[pos++]);
    }
  }
  while (pos < n) hands_[dealer_].add(rest[pos++]);
  phase_ = Phase::kDiscard;
  to_play_ = dealer_;
}

void ConferenceGame::start_play() {
  phase_ = Phase::kPlay;
  // CO-4.1 eldest leads; CO-7.3 with Attack & Defence the dealer does.
  const int leader = options_.attack_defence ? dealer_ : (dealer_ + 1) % kPlayers;
  trick_ = Trick();
  trick_.leader = static_cast<std::int8_t>(leader);
  to_play_ = leader;
}

// ---------------------------------------------------------------------------
// Who acts and what they may do

SeatMask ConferenceGame::to_act() const {
  switch (phase_) {
    case Phase::kDiscard:
    case Phase::kGallowglass: return seat_bit(dealer_);
    case Phase::kPlay: return seat_bit(to_play_);
    case Phase::kDeal: return seat_bit((dealer_ + 1) % kPlayers);
    case Phase::kOver: return 0;
  }
  return 0;
}

// CO-3.2: never a King or an Honour; a trump only while nothing else may go.
Cards ConferenceGame::discard_choices() const {
  const Cards allowed = hands_[dealer_] - kings() - honours();
  const Cards plain = allowed - kAllTrumps;
  return plain.empty() ? allowed : plain;
}

// CO-4.2, CO-4.3, CO-6.3(b), CO-8.2.
ConferenceGame::PlayChoices ConferenceGame::play_choices(Seat seat) const {
  PlayChoices out;
  const Cards hand = hands_[seat];
  if (forced_seat_ == seat) {  // CO-6.3(b): the only legal card, not even the Fool
    out.normal = Cards::of(forced_card_);
    return out;
  }
  const Cards fool = hand & Cards::of(kFool);
  if (trick_.led < 0) {
    out.normal = hand;
    return out;
  }
  const Cards trumps = hand & kAllTrumps;
  if (trick_.led == kTrumpSuit) {
    out.normal = trumps.empty() ? hand : trumps | fool;
    return out;
  }
  const Cards followers = hand & suit_cards(trick_.led);
  if (!followers.empty()) {
    out.normal = followers | fool;
    if (gallowglass_suit_ >= 0 && gallowglass_suit_ != trick_.led &&
        (followers - courts_of(trick_.led)).empty()) {
      out.as_gallowglass = hand & suit_cards(gallowglass_suit_);
    }
    return out;
  }
  out.normal = trumps.empty() ? hand : trumps | fool;
  return out;
}

bool ConferenceGame::needs_call(Seat seat, int card) const {
  if (options_.good_evil != GoodEvil::kAllegiance || !is_good_evil(card)) return false;
  if (forced_seat_ == seat) return false;
  // CO-6.3(a) the first one calls; (c) an opponent's second one calls; (d) not the caller's.
  return ge_played_ == 0 || side_of(ge_first_seat_) != side_of(seat);
}

void ConferenceGame::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (seat < 0 || seat >= kPlayers || !(to_act() & seat_bit(seat))) return;
  switch (phase_) {
    case Phase::kDiscard:
      for (int c : discard_choices())
        out.push_back(Action{kDiscardAction, static_cast<std::uint16_t>(c), 0, 0, 0});
      break;
    case Phase::kGallowglass:
      for (int s = 0; s <= kNoGallowglass; ++s) out.push_back(Action{kNameGallowglass, 0, s, 0, 0});
      break;
    case Phase::kPlay: {
      const PlayChoices choices = play_choices(seat);
      for (int c : choices.normal) {
        const auto card = static_cast<std::uint16_t>(c);
        if (needs_call(seat, c)) {
          out.push_back(Action{kPlayAction, card, kCallOurs, 0, 0});
          out.push_back(Action{kPlayAction, card, kCallYours, 0, 0});
        } else {
          out.push_back(Action{kPlayAction, card, 0, 0, 0});
        }
      }
      for (int c : choices.as_gallowglass)
        out.push_back(Action{kPlayAction, static_cast<std::uint16_t>(c), kAsGallowglass, 0, 0});
      break;
    }
    case Phase::kDeal: out.push_back(Action{kDealAction, 0, 0, 0, 0}); break;
    case Phase::kOver: break;
  }
}

// ---------------------------------------------------------------------------
// Applying actions

// Game::apply refused a finished game and a seat that does not act.
std::optional<Error> ConferenceGame::step(Seat seat, const Action& action, std::vector<Event>* events) {
  if (action.kind < kDiscardAction || action.kind > kDealAction) {
    return Error{"malformed_action", "Conference has no such action."};
  }
  const int card = action.card;
  switch (phase_) {
    case Phase::kDiscard: {
      if (action.kind != kDiscardAction) return illegal("You must discard a card first.");
      if (card >= kCardCount || !hands_[seat].has(card)) return illegal("You do not hold that card.");
      if (!discard_choices().has(card)) {
        if (is_king(card) || is_honour(card)) return illegal("Kings and Honours may not be discarded.");
        return illegal("A trump may be discarded only when no other card may go.");
      }
      hands_[seat].remove(card);
      discard_.add(card);
      if (events) {
        Value priv = Value::obj({{"type", "discard"}, {"seat", seat}, {"card", card_id(card)}});
        Value pub = Value::obj({{"type", "discard"}, {"seat", seat}});
        events->push_back(Event{seat_bit(seat), false, std::move(priv)});
        events->push_back(Event{all_seats() & ~seat_bit(seat), true, std::move(pub)});
      }
      if (discard_.size() == discard_target_) {
        if (options_.gallowglass) phase_ = Phase::kGallowglass;
        else start_play();
      }
      return std::nullopt;
    }
    case Phase::kGallowglass: {
      if (action.kind != kNameGallowglass) return illegal("You must name the gallowglass suit or none.");
      if (action.arg < 0 || action.arg > kNoGallowglass) return illegal("There is no such suit.");
      gallowglass_suit_ = action.arg == kNoGallowglass ? -1 : action.arg;
      if (events) {
        events->push_back(public_event(Value::obj(
            {{"type", "gallowglass"},
             {"seat", seat},
             {"suit", gallowglass_suit_ < 0 ? std::string("none") : suit_word(gallowglass_suit_)}})));
      }
      start_play();
      return std::nullopt;
    }
    case Phase::kPlay: {
      if (action.kind != kPlayAction) return illegal("You must play a card.");
      if (card >= kCardCount || !hands_[seat].has(card)) return illegal("You do not hold that card.");
      if (action.arg & ~(kCallMask | kAsGallowglass)) return illegal("Unknown play flags.");
      const PlayChoices choices = play_choices(seat);
      const bool as_gg = action.arg & kAsGallowglass;
      if (as_gg && !choices.as_gallowglass.has(card)) {
        return illegal("That card may not be played as gallowglass now.");
      }
      if (!as_gg && !choices.normal.has(card)) {
        if (forced_seat_ == seat) return illegal("You must play " + card_id(forced_card_) + " to this trick.");
        if (choices.as_gallowglass.has(card)) return illegal("That card may only go as gallowglass.");
        if (trick_.led == kTrumpSuit || (hands_[seat] & suit_cards(trick_.led)).empty()) {
          return illegal("You must play a trump.");
        }
        return illegal("You must follow " + capital(suit_word(trick_.led)) + ".");
      }
      const int call = action.arg & kCallMask;
      const bool wants_call = !as_gg && needs_call(seat, card);
      if (wants_call && call != kCallOurs && call != kCallYours) {
        return illegal("Playing " + card_id(card) + " now carries a call: ours or yours.");
      }
      if (!wants_call && call != 0) return illegal("This play carries no call.");
      play_card(seat, action, events);
      return std::nullopt;
    }
    case Phase::kDeal: {
      if (action.kind != kDealAction) return illegal("The next hand must be dealt.");
      dealer_ = (dealer_ + 1) % kPlayers;
      ++hand_number_;
      hand_done_ = false;
      deal(shuffled_deck());
      if (events) {
        for (int s = 0; s < kPlayers; ++s) {
          events->push_back(Event{seat_bit(s), false,
                                  Value::obj({{"type", "deal"},
                                              {"dealer", dealer_},
                                              {"hand_number", hand_number_},
                                              {"hand", cards_value(hands_[s])}})});
        }
        events->push_back(Event{0, true,
                                Value::obj({{"type", "deal"},
                                            {"dealer", dealer_},
                                            {"hand_number", hand_number_}})});
      }
      return std::nullopt;
    }
    case Phase::kOver: break;
  }
  return Error{"game_over", "The game is over."};
}

// Public knowledge of voids, for determinize(): a player who did not follow (and
// was not forced) holds none of the led suit, and none of the trumps if the card
// was not a trump either.
void ConferenceGame::note_voids(const Play& play) {
  if (trick_.led < 0 || play.card == kFool || play.no_effect || play.as_gallowglass) return;
  const int suit = suit_of(play.card);
  if (suit == trick_.led) return;
  voids_[play.seat] |= static_cast<std::uint8_t>(1u << trick_.led);
  if (suit != kTrumpSuit) voids_[play.seat] |= static_cast<std::uint8_t>(1u << kTrumpSuit);
}

void ConferenceGame::play_card(Seat seat, const Action& action, std::vector<Event>* events) {
  const int card = action.card;
  const int call = action.arg & kCallMask;
  const bool forced = forced_seat_ == seat;
  hands_[seat].remove(card);
  revealed_.remove(card);
  Play play;
  play.seat = static_cast<std::int8_t>(seat);
  play.card = static_cast<std::uint8_t>(card);
  play.as_gallowglass = action.arg & kAsGallowglass;
  play.no_effect = forced;
  note_voids(play);
  const int pos = trick_.count;
  trick_.plays[pos] = play;
  ++trick_.count;
  // CO-5.1: the Fool leaves the trick and lies beside its owner.
  if (card == kFool) {
    fool_owner_ = seat;
    fool_trick_ = trick_count_;
  }
  // CO-4.3: the first card that is not the Fool sets the led suit.
  if (trick_.led < 0 && card != kFool) {
    trick_.led = static_cast<std::int8_t>(suit_of(card));
    trick_.led_pos = static_cast<std::int8_t>(pos);
  }
  if (events) {
    Value body = play_value(play);
    body.set("type", "play");
    if (call) body.set("call", call == kCallOurs ? "ours" : "yours");
    events->push_back(public_event(std::move(body)));
  }

  if (forced) {
    forced_seat_ = -1;
    forced_card_ = -1;
    ++ge_played_;
  } else if (is_good_evil(card) && options_.good_evil != GoodEvil::kOff) {
    if (call) {
      // CO-6.3(a): GOOD's suits are Earth and Air; "ours" gives the caller's side
      // its card's suits. (c) a later call replaces the one in force.
      const int caller_side = side_of(seat);
      const bool good = card == kGood;
      good_side_ = (good == (call == kCallOurs)) ? caller_side : 1 - caller_side;
      Call& c = calls_[call_count_++];
      c.seat = static_cast<std::int8_t>(seat);
      c.card = static_cast<std::uint8_t>(card);
      c.call = static_cast<std::int8_t>(call);
      c.trick = static_cast<std::int8_t>(trick_count_);
      c.good_side = static_cast<std::int8_t>(good_side_);
    }
    if (ge_played_ == 0) ge_first_seat_ = seat;
    ++ge_played_;
    // CO-6.3(b): the caller's partner's other card goes to this trick.
    if (options_.good_evil == GoodEvil::kAllegiance && ge_played_ == 1) {
      const int partner = partner_of(seat);
      const int other = card == kGood ? kEvil : kGood;
      if (hands_[partner].has(other)) {
        int already = -1;
        for (int i = 0; i < trick_.count; ++i)
          if (trick_.plays[i].seat == partner) already = i;
        if (already < 0) {
          forced_seat_ = partner;
          forced_card_ = other;
        } else {
          Play& old = trick_.plays[already];
          const int returned = old.card;
          hands_[partner].add(returned);
          hands_[partner].remove(other);
          revealed_.add(returned);
          if (returned == kFool) {
            fool_owner_ = -1;
            fool_trick_ = -1;
          }
          old.card = static_cast<std::uint8_t>(other);
          old.as_gallowglass = false;
          old.no_effect = true;
          trick_.replaced_seat = static_cast<std::int8_t>(partner);
          trick_.replaced_card = static_cast<std::uint8_t>(returned);
          ++ge_played_;
          if (events) {
            events->push_back(public_event(Value::obj({{"type", "replace"},
                                                       {"seat", partner},
                                                       {"returned", card_id(returned)},
                                                       {"card", card_id(other)}})));
          }
        }
      }
    }
  }

  if (trick_.count == kPlayers) {
    finish_trick(events);
  } else {
    to_play_ = next_seat(seat);
  }
}

// CO-4.4, CO-6.2, CO-6.3(b), CO-8.2.
int ConferenceGame::judge(const Trick& trick) {
  std::array<bool, kPlayers> counts{};
  int ge[2] = {-1, -1};
  int ge_n = 0;
  for (int i = 0; i < trick.count; ++i) {
    const Play& p = trick.plays[i];
    counts[i] = p.card != kFool && !p.no_effect;  // the Fool never wins; (b) no effect
    if (counts[i] && is_good_evil(p.card)) ge[ge_n++] = i;
  }
  int led = trick.led;
  if (ge_n == 2) {
    // Partners: together they beat everything, the first of them wins.
    if (side_of(trick.plays[ge[0]].seat) == side_of(trick.plays[ge[1]].seat)) return ge[0];
    // Opponents: neither can win; if one set the led suit, the first other card does.
    counts[ge[0]] = counts[ge[1]] = false;
    if (trick.led_pos == ge[0] || trick.led_pos == ge[1]) {
      led = -1;
      for (int i = 0; i < trick.count && led < 0; ++i)
        if (counts[i]) led = suit_of(trick.plays[i].card);
    }
  }
  int best = -1;
  int best_rank = -1;
  bool best_trump = false;
  for (int i = 0; i < trick.count; ++i) {
    if (!counts[i]) continue;
    const Play& p = trick.plays[i];
    const bool trump_card = is_trump(p.card);
    const int rank = rank_of(p.card);
    if (trump_card) {
      if (!best_trump || rank > best_rank) {
        best = i;
        best_rank = rank;
        best_trump = true;
      }
    } else if (!best_trump && (suit_of(p.card) == led || p.as_gallowglass)) {
      // CO-8.2: on equal rank the later card ranks higher.
      if (rank >= best_rank) {
        best = i;
        best_rank = rank;
      }
    }
  }
  if (best >= 0) return best;
  for (int i = 0; i < trick.count; ++i)
    if (counts[i]) return i;
  return 0;
}

void ConferenceGame::finish_trick(std::vector<Event>* events) {
  const int pos = judge(trick_);
  trick_.winner = trick_.plays[pos].seat;
  trick_.by_gallowglass = trick_.plays[pos].as_gallowglass;
  trick_.good_side = static_cast<std::int8_t>(good_side_);
  const int winner = trick_.winner;
  tricks_[trick_count_++] = trick_;
  if (events) {
    Value body = trick_value(trick_);
    body.set("type", "trick");
    body.set("number", trick_count_);
    events->push_back(public_event(std::move(body)));
  }
  trick_ = Trick();
  trick_.leader = static_cast<std::int8_t>(winner);
  to_play_ = winner;
  if (trick_count_ == kTricksPerHand) finish_hand(events);
}

// CO-6.3(e) and CO-8.3: what `card` is worth to the side that won it.
int ConferenceGame::value_in(int card, int winner_side, int good_side) const {
  if (gallowglass_suit_ >= 0 && suit_of(card) == gallowglass_suit_) return 0;
  if (is_suit_card(card) && good_side >= 0) {
    const int owner = suit_of(card) <= 1 ? good_side : 1 - good_side;
    if (owner != winner_side) return 0;
  }
  return card_points(card);
}

// CO-5.2, CO-5.3, CO-9.
void ConferenceGame::finish_hand(std::vector<Event>* events) {
  std::array<Cards, kTricksPerHand> taken{};
  for (int t = 0; t < kTricksPerHand; ++t)
    for (int i = 0; i < tricks_[t].count; ++i)
      if (tricks_[t].plays[i].card != kFool) taken[t].add(tricks_[t].plays[i].card);

  HandResult r;
  r.dealer = dealer_;
  r.fool_owner = fool_owner_;
  bool fool_kept = fool_owner_ >= 0;
  if (fool_owner_ >= 0) {
    const int owner_side = side_of(fool_owner_);
    const int fool_winner_side = side_of(tricks_[fool_trick_].winner);
    if (fool_winner_side != owner_side) {
      int best = -1;
      int from = -1;
      for (int t = 0; t < kTricksPerHand; ++t) {
        if (side_of(tricks_[t].winner) != owner_side) continue;
        for (int c : taken[t]) {
          if (best < 0 || card_points(c) < card_points(best) ||
              (card_points(c) == card_points(best) && c < best)) {
            best = c;
            from = t;
          }
        }
      }
      if (best >= 0) {
        taken[from].remove(best);
        taken[fool_trick_].add(best);
        r.fool_payment = best;
      } else {
        taken[fool_trick_].add(kFool);
        r.fool_payment = kFool;
        fool_kept = false;
      }
      r.fool_paid_to = fool_winner_side;
    }
  }

  const int first_good = call_count_ > 0 ? calls_[0].good_side : -1;
  for (int t = 0; t < kTricksPerHand; ++t) {
    const Trick& trick = tricks_[t];
    const int side = side_of(trick.winner);
    ++r.tricks[side];
    if (trick.by_gallowglass) continue;
    const int good = trick.good_side >= 0 ? trick.good_side : first_good;
    for (int c : taken[t]) r.card_points[side] += value_in(c, side, good);
  }
  const int dealer_side = side_of(dealer_);
  for (int c : discard_) r.card_points[dealer_side] += value_in(c, dealer_side, first_good);
  if (fool_kept) r.card_points[side_of(fool_owner_)] += card_points(kFool);
  for (int s = 0; s < 2; ++s) r.hand_points[s] = r.card_points[s] + r.tricks[s];

  const int diff = r.hand_points[0] - r.hand_points[1];
  if (options_.good_evil == GoodEvil::kAllegiance) {
    // CO-9.3: no contract, the higher side scores the difference.
    if (diff > 0) r.awarded[0] = diff;
    if (diff < 0) r.awarded[1] = -diff;
  } else {
    // CO-9.2: the side that makes the contract scores the difference.
    for (int s = 0; s < 2; ++s) {
      const int margin = r.hand_points[s] - r.hand_points[1 - s];
      if (r.hand_points[s] >= contract() && margin > 0) r.awarded[s] = margin;
    }
  }
  for (int s = 0; s < 2; ++s) game_points_[s] += r.awarded[s];
  results_.push_back(r);
  hand_done_ = true;

  // CO-9.4: after the set number of hands, more game points wins; a tie plays on.
  if (hand_number_ >= options_.hands && game_points_[0] != game_points_[1]) {
    phase_ = Phase::kOver;
    winning_side_ = game_points_[0] > game_points_[1] ? 0 : 1;
  } else {
    phase_ = Phase::kDeal;
  }
  if (events) {
    Value body = result_value(r, true);
    body.set("type", "hand_end");
    body.set("discard", cards_value(discard_));
    body.set("game_points", Value(Value::Array{game_points_[0], game_points_[1]}));
    events->push_back(public_event(std::move(body)));
    if (phase_ == Phase::kOver) {
      events->push_back(public_event(Value::obj({{"type", "game_over"},
                                                 {"winners", seats_value(0b11u << (2 * winning_side_))},
                                                 {"game_points", Value(Value::Array{
                                                                     game_points_[0],
                                                                     game_points_[1]})}})));
    }
  }
}

// ---------------------------------------------------------------------------
// Scores and views

std::vector<int> ConferenceGame::scores() const {
  std::vector<int> out(kPlayers);
  for (int s = 0; s < kPlayers; ++s) out[s] = game_points_[side_of(s)];
  return out;
}

std::vector<Seat> ConferenceGame::winners() const {
  if (phase_ != Phase::kOver) return {};
  return {2 * winning_side_, 2 * winning_side_ + 1};
}

Value ConferenceGame::play_value(const Play& play) const {
  Value v = Value::obj({{"seat", static_cast<int>(play.seat)}, {"card", card_id(play.card)}});
  if (play.as_gallowglass) v.set("as_gallowglass", true);
  if (play.no_effect) v.set("no_effect", true);
  return v;
}

Value ConferenceGame::trick_value(const Trick& trick) const {
  Value plays = Value::array();
  for (int i = 0; i < trick.count; ++i) plays.push(play_value(trick.plays[i]));
  Value v = Value::obj({{"leader", static_cast<int>(trick.leader)},
                        {"led", trick.led < 0 ? Value() : Value(suit_word(trick.led))},
                        {"plays", std::move(plays)}});
  if (trick.replaced_seat >= 0) {
    v.set("replaced", Value::obj({{"seat", static_cast<int>(trick.replaced_seat)},
                                  {"card", card_id(trick.replaced_card)}}));
  }
  if (trick.winner >= 0) {
    v.set("winner", static_cast<int>(trick.winner));
    if (trick.by_gallowglass) v.set("by_gallowglass", true);
  }
  return v;
}

Value ConferenceGame::result_value(const HandResult& r, bool with_cards) const {
  Value v = Value::obj({{"dealer", r.dealer},
                        {"hand_points", Value(Value::Array{r.hand_points[0], r.hand_points[1]})},
                        {"card_points", Value(Value::Array{r.card_points[0], r.card_points[1]})},
                        {"tricks", Value(Value::Array{r.tricks[0], r.tricks[1]})},
                        {"awarded", Value(Value::Array{r.awarded[0], r.awarded[1]})}});
  if (with_cards) {
    Value fool;
    if (r.fool_owner >= 0) {
      fool = Value::obj({{"owner", r.fool_owner}});
      if (r.fool_payment >= 0) {
        fool.set("paid", card_id(r.fool_payment));
        fool.set("paid_to_side", r.fool_paid_to);
      }
    }
    v.set("fool", std::move(fool));
  }
  return v;
}

Value ConferenceGame::public_table() const {
  Value v = Value::object();
  v.set("game", "conference");
  v.set("phase", phase_name(phase_));
  v.set("to_act", seats_value(to_act()));
  v.set("scores", Value(Value::Array{game_points_[0], game_points_[0], game_points_[1],
                                     game_points_[1]}));
  v.set("game_points", Value(Value::Array{game_points_[0], game_points_[1]}));
  v.set("options", Value::obj({{"good_evil", good_evil_name(options_.good_evil)},
                               {"attack_defence", options_.attack_defence},
                               {"gallowglass", options_.gallowglass},
                               {"hands", options_.hands}}));
  v.set("sides", Value(Value::Array{Value(Value::Array{0, 1}), Value(Value::Array{2, 3})}));
  v.set("side_of", Value(Value::Array{0, 0, 1, 1}));
  v.set("hand_number", hand_number_);
  v.set("dealer", dealer_);
  v.set("direction", direction_ > 0 ? "left" : "right");
  v.set("contract", options_.good_evil == GoodEvil::kAllegiance ? Value() : Value(contract()));
  Value sizes = Value::array();
  for (int s = 0; s < kPlayers; ++s) sizes.push(hands_[s].size());
  v.set("hand_sizes", std::move(sizes));
  v.set("discard_size", discard_.size());
  v.set("discard_target", discard_target_);
  Value gallowglass;
  if (options_.gallowglass && phase_ != Phase::kDiscard && phase_ != Phase::kGallowglass) {
    gallowglass = gallowglass_suit_ < 0 ? Value("none") : Value(suit_word(gallowglass_suit_));
  }
  v.set("gallowglass", std::move(gallowglass));
  Value ad;
  if (options_.attack_defence) {
    ad = Value::obj({{"driver", dealer_},
                     {"catcher", partner_of(dealer_)},
                     {"T21", dealer_},
                     {"T20", partner_of(dealer_)}});
  }
  v.set("attack_defence", std::move(ad));
  Value calls = Value::array();
  for (int i = 0; i < call_count_; ++i) {
    const Call& c = calls_[i];
    calls.push(Value::obj({{"seat", static_cast<int>(c.seat)},
                           {"card", card_id(c.card)},
                           {"call", c.call == kCallOurs ? "ours" : "yours"},
                           {"trick", c.trick + 1},
                           {"earth_air_side", static_cast<int>(c.good_side)}}));
  }
  v.set("calls", std::move(calls));
  Value allegiance;
  if (good_side_ >= 0) {
    allegiance = Value::obj({{"earth_air", good_side_}, {"fire_water", 1 - good_side_}});
  }
  v.set("allegiance", std::move(allegiance));
  Value fool;
  if (fool_owner_ >= 0) fool = Value::obj({{"owner", fool_owner_}, {"trick", fool_trick_ + 1}});
  v.set("fool", std::move(fool));
  std::array<int, 2> won{};
  for (int t = 0; t < trick_count_; ++t) ++won[side_of(tricks_[t].winner)];
  v.set("tricks_won", Value(Value::Array{won[0], won[1]}));
  v.set("trick", phase_ == Phase::kPlay ? trick_value(trick_) : Value());
  Value tricks = Value::array();
  for (int t = 0; t < trick_count_; ++t) tricks.push(trick_value(tricks_[t]));
  v.set("tricks", std::move(tricks));
  if (hand_done_) {
    Value last = result_value(results_.back(), true);
    last.set("discard", cards_value(discard_));
    v.set("last_hand", std::move(last));
  } else {
    v.set("last_hand", Value());
  }
  Value results = Value::array();
  for (const auto& r : results_) results.push(result_value(r, false));
  v.set("results", std::move(results));
  if (phase_ == Phase::kOver) v.set("winners", seats_value(0b11u << (2 * winning_side_)));
  return v;
}

Value ConferenceGame::view(Seat seat) const {
  Value v = public_table();
  v.set("seat", seat);
  v.set("teams", teams_value(kPlayers, 2, [](Seat s) { return side_of(s); }));
  if (seat >= 0 && seat < kPlayers) {
    v.set("side", side_of(seat));
    v.set("partner", partner_of(seat));
    v.set("hand", cards_value(hands_[seat]));
    // CO-11.2: the dealer sees the discard during the hand.
    if (seat == dealer_ && !hand_done_) v.set("discard", cards_value(discard_));
  }
  return v;
}

Value ConferenceGame::full_state() const {
  Value v = public_table();
  v.set("seed", std::to_string(seed_));
  v.set("deck_size", deck_size_);
  Value hands = Value::array();
  for (int s = 0; s < kPlayers; ++s) hands.push(cards_value(hands_[s]));
  v.set("hands", std::move(hands));
  v.set("discard", cards_value(discard_));
  v.set("revealed", cards_value(revealed_));
  v.set("to_play", to_play_);
  v.set("good_side", good_side_);
  v.set("ge_played", ge_played_);
  v.set("ge_first_seat", ge_first_seat_);
  v.set("forced", Value::obj({{"seat", forced_seat_},
                              {"card", forced_card_ < 0 ? Value() : Value(card_id(forced_card_))}}));
  Value voids = Value::array();
  for (int s = 0; s < kPlayers; ++s) voids.push(static_cast<int>(voids_[s]));
  v.set("voids", std::move(voids));
  v.set("hand_done", hand_done_);
  Value results = Value::array();
  for (const auto& r : results_) {
    Value rv = result_value(r, true);
    rv.set("fool_payment", r.fool_payment);
    results.push(std::move(rv));
  }
  v.set("results_full", std::move(results));
  return v;
}

std::vector<std::string> ConferenceGame::secret_cards(Seat seat) const {
  std::vector<std::string> out;
  if (hand_done_) return out;  // CO-11.1: after the hand everything on the table is public
  Cards secret;
  for (int s = 0; s < kPlayers; ++s)
    if (s != seat) secret |= hands_[s] - revealed_;
  if (seat != dealer_) secret |= discard_;
  for (int c : secret) out.push_back(card_id(c));
  return out;
}

// ---------------------------------------------------------------------------
// Public form of actions

Value ConferenceGame::encode_action(const Action& action) const {
  switch (action.kind) {
    case kDiscardAction:
      return Value::obj({{"type", "discard"}, {"card", card_id(action.card % kCardCount)}});
    case kNameGallowglass:
      return Value::obj({{"type", "name_gallowglass"},
                         {"suit", action.arg >= 0 && action.arg < kSuits
                                      ? suit_word(action.arg)
                                      : std::string("none")}});
    case kPlayAction: {
      Value v = Value::obj({{"type", "play"}, {"card", card_id(action.card % kCardCount)}});
      const int call = action.arg & kCallMask;
      if (call == kCallOurs) v.set("call", "ours");
      if (call == kCallYours) v.set("call", "yours");
      if (action.arg & kAsGallowglass) v.set("as_gallowglass", true);
      return v;
    }
    case kDealAction: return Value::obj({{"type", "deal"}});
    default: return Value::obj({{"type", "unknown"}});
  }
}

std::optional<Error> ConferenceGame::decode_action(const Value& value, Action& out) const {
  auto bad = [](std::string why) { return Error{"malformed_action", std::move(why)}; };
  if (!value.is_object()) return bad("An action is an object with a \"type\".");
  if (auto err = check_action_fields(value, {{"discard", "card"},
                                             {"play", "card call as_gallowglass"},
                                             {"name_gallowglass", "suit"},
                                             {"deal", ""}}))
    return err;
  const std::string type = value.get_string("type", "");
  auto read_card = [&](Action& a) -> std::optional<Error> {
    const Value* card = value.find("card");
    if (!card || !card->is_string()) return bad("The action needs a \"card\" id.");
    const auto index = parse_card(card->as_string());
    if (!index || (deck_size_ == 78 && is_good_evil(*index))) {
      return bad("There is no card '" + card->as_string() + "' in this deck.");
    }
    a.card = static_cast<std::uint16_t>(*index);
    return std::nullopt;
  };
  Action a;
  if (type == "discard") {
    a.kind = kDiscardAction;
    if (auto err = read_card(a)) return err;
  } else if (type == "play") {
    a.kind = kPlayAction;
    if (auto err = read_card(a)) return err;
    if (const Value* call = value.find("call")) {
      if (call->is_string() && call->as_string() == "ours") a.arg |= kCallOurs;
      else if (call->is_string() && call->as_string() == "yours") a.arg |= kCallYours;
      else if (!call->is_null()) return bad("A call is \"ours\" or \"yours\".");
    }
    if (const Value* gg = value.find("as_gallowglass")) {
      if (!gg->is_bool()) return bad("\"as_gallowglass\" is true or false.");
      if (gg->as_bool()) a.arg |= kAsGallowglass;
    }
  } else if (type == "name_gallowglass") {
    a.kind = kNameGallowglass;
    const std::string suit = value.get_string("suit", "");
    a.arg = -1;
    if (suit == "none") a.arg = kNoGallowglass;
    for (int s = 0; s < kSuits; ++s)
      if (suit == kSuitNames[s]) a.arg = s;
    if (a.arg < 0) return bad("The suit is earth, air, fire, water or none.");
  } else if (type == "deal") {
    a.kind = kDealAction;
  } else {
    return bad("Conference has no action '" + type + "'.");
  }
  out = a;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Determinization: the cards `seat` cannot see are dealt again at random into
// the same places (other hands, and the discard unless `seat` is the dealer),
// respecting what is public: cards known to be in a hand stay there, a player
// known to be void gets none of that suit, the discard holds no King or Honour,
// and (CO-6.3(b)) the caller's partner does not hold the other Good/Evil card
// once that has been settled.

std::unique_ptr<Game> ConferenceGame::determinize(Seat seat, std::uint64_t seed) const {
  return determinize_with(seat, seed, 64);
}

std::unique_ptr<ConferenceGame> ConferenceGame::determinize_with(Seat seat, std::uint64_t seed,
                                                                 int random_attempts) const {
  auto copy = std::make_unique<ConferenceGame>(*this);
  copy->seed_ = seed;  // later hands are unknown too
  if (hand_done_ || phase_ == Phase::kOver) return copy;
  constexpr int kDiscardSlot = kPlayers;
  std::array<Cards, kPlayers + 1> fixed{};
  std::array<int, kPlayers + 1> need{};
  Cards pool;
  for (int s = 0; s < kPlayers; ++s) {
    if (s == seat) {
      fixed[s] = hands_[s];
      continue;
    }
    fixed[s] = hands_[s] & revealed_;
    need[s] = (hands_[s] - revealed_).size();
    pool |= hands_[s] - revealed_;
  }
  if (seat == dealer_) {
    fixed[kDiscardSlot] = discard_;
  } else {
    need[kDiscardSlot] = discard_.size();
    pool |= discard_;
  }
  // Which slots each card may go to.
  // CO-6.3(b): once the first Good/Evil card is played with its call, whether the
  // caller's partner holds the other one is public only after the partner has
  // played since the call (the forced card would have come, or replaced theirs).
  // Until then a sample may give it to them, and then they are forced; after,
  // it never does.
  int other_ge = -1;
  int ge_partner = -1;
  bool ge_pending = false;  // the partner's answer is still to come
  if (options_.good_evil == GoodEvil::kAllegiance && ge_played_ == 1) {
    // The first one carried the first call.
    const int other = calls_[0].card == kGood ? kEvil : kGood;
    const int partner = partner_of(ge_first_seat_);
    bool answered = trick_count_ > calls_[0].trick;
    for (int i = 0; i < trick_.count && !answered; ++i) answered = trick_.plays[i].seat == partner;
    if (answered) {
      other_ge = other;
      ge_partner = partner;
    } else if (partner != seat) {
      ge_pending = true;
    }
  }
  auto allowed = [&](int card, int slot) {
    if (slot == kDiscardSlot) return !is_king(card) && !is_honour(card);
    if (card != kFool && (voids_[slot] >> suit_of(card)) & 1u) return false;
    if (card == other_ge && slot == ge_partner) return false;
    return true;
  };
  Rng rng(seed);
  std::array<std::uint8_t, kCardCount> cards{};
  int n = 0;
  for (int c : pool) cards[n++] = static_cast<std::uint8_t>(c);
  bool placed = false;
  std::array<Cards, kPlayers + 1> result{};
  for (int attempt = 0; attempt < random_attempts && !placed; ++attempt) {
    rng.shuffle(cards.data(), static_cast<std::size_t>(n));
    // Most constrained cards first.
    std::stable_sort(cards.begin(), cards.begin() + n, [&](int a, int b) {
      int ca = 0, cb = 0;
      for (int s = 0; s <= kDiscardSlot; ++s) {
        ca += need[s] > 0 && allowed(a, s);
        cb += need[s] > 0 && allowed(b, s);
      }
      return ca < cb;
    });
    std::array<int, kPlayers + 1> left = need;
    result = fixed;
    placed = true;
    for (int i = 0; i < n && placed; ++i) {
      int total = 0;
      for (int s = 0; s <= kDiscardSlot; ++s)
        if (left[s] > 0 && allowed(cards[i], s)) total += left[s];
      if (total == 0) {
        placed = false;
        break;
      }
      int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
      for (int s = 0; s <= kDiscardSlot; ++s) {
        if (left[s] <= 0 || !allowed(cards[i], s)) continue;
        if (pick < left[s]) {
          result[s].add(cards[i]);
          --left[s];
          break;
        }
        pick -= left[s];
      }
    }
  }
  if (!placed) {
    // The constraints could not be met by chance: place the cards one by one,
    // moving earlier ones along a chain of other allowed places when a card finds
    // every place it may go full (augmenting paths of a bipartite matching). The
    // real deal meets every constraint, so this always completes; it reads only
    // the pool, the counts and the public constraints, never where a card is.
    std::array<int, kCardCount> slot_of;
    slot_of.fill(-1);
    std::array<int, kPlayers + 1> filled{};
    std::array<int, kPlayers + 1> order{};
    for (int s = 0; s <= kDiscardSlot; ++s) order[s] = s;
    std::array<bool, kPlayers + 1> visited{};
    // Puts cards[i] somewhere, displacing others if need be; false if it cannot.
    auto place = [&](auto&& self, int i) -> bool {
      for (int s : order) {
        if (visited[s] || need[s] == 0 || !allowed(cards[i], s)) continue;
        visited[s] = true;
        if (filled[s] < need[s]) {
          slot_of[i] = s;
          ++filled[s];
          return true;
        }
        for (int j = 0; j < n; ++j) {
          if (j == i || slot_of[j] != s) continue;
          if (self(self, j)) {  // j moved on, which freed its place in s
            --filled[s];
            slot_of[i] = s;
            ++filled[s];
            return true;
          }
        }
      }
      return false;
    };
    rng.shuffle(cards.data(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      rng.shuffle(order.data(), order.size());
      visited = {};
      place(place, i);
    }
    // Never reached while the public constraints hold for the real deal; should
    // one not, a card goes where there is room rather than anywhere it really is.
    for (int i = 0; i < n; ++i) {
      for (int s = 0; slot_of[i] < 0 && s <= kDiscardSlot; ++s) {
        if (filled[s] < need[s]) {
          slot_of[i] = s;
          ++filled[s];
        }
      }
    }
    result = fixed;
    for (int i = 0; i < n; ++i)
      if (slot_of[i] >= 0) result[slot_of[i]].add(cards[i]);
  }
  for (int s = 0; s < kPlayers; ++s) copy->hands_[s] = result[s];
  copy->discard_ = result[kDiscardSlot];
  // CO-6.3(b): the partner is forced exactly when the sample gives them the card.
  if (ge_pending) {
    const int other = calls_[0].card == kGood ? kEvil : kGood;
    const int partner = partner_of(ge_first_seat_);
    const bool holds = copy->hands_[partner].has(other);
    copy->forced_seat_ = holds ? partner : -1;
    copy->forced_card_ = holds ? other : -1;
  }
  return copy;
}

// ---------------------------------------------------------------------------
// Options

namespace {

struct Setup {
  Options opts;
  int dealer = -1;
  const Value* deck = nullptr;  // checked once good_evil is known
};

constexpr std::string_view kGoodEvilChoices[] = {"off", "trumps", "allegiance"};

template <bool Options::*Member>
std::optional<Error> store_switch(const Value& v, Setup& s, int) {
  s.opts.*Member = *read_switch(v);
  return std::nullopt;
}

constexpr Option<Setup> kOptions[] = {
    {.spec = {.name = "good_evil",
              .title = "Good and Evil",
              .description = "Adds the GOOD and EVIL cards (80 cards) (CO-6): off; trumps (they play as "
                             "trumps); allegiance (their plays carry calls that decide the sides of the hand).",
              .type = OptionType::kChoice,
              .choices = kGoodEvilChoices,
              .default_json = "\"off\"",
              .invalid = "good_evil is \"off\", \"trumps\" or \"allegiance\"."},
     .store = [](const Value& v, Setup& s, int) -> std::optional<Error> {
       const std::string& g = v.as_string();
       s.opts.good_evil = g == "off" ? GoodEvil::kOff : g == "trumps" ? GoodEvil::kTrumps : GoodEvil::kAllegiance;
       return std::nullopt;
     }},
    {.spec = {.name = "attack_defence",
              .title = "Attack and Defence",
              .description = "The dealer is dealt T21 and the partner T20 (CO-7). true or false (\"on\" and "
                             "\"off\" are accepted too).",
              .type = OptionType::kSwitch,
              .default_json = "false",
              .invalid = "attack_defence is true or false."},
     .store = store_switch<&Options::attack_defence>},
    {.spec = {.name = "gallowglass",
              .title = "Gallowglass",
              .description = "After the discard the dealer names a gallowglass suit, whose cards may be "
                             "played in place of the led suit (CO-8). true or false (\"on\" and \"off\" are "
                             "accepted too).",
              .type = OptionType::kSwitch,
              .default_json = "false",
              .invalid = "gallowglass is true or false."},
     .store = store_switch<&Options::gallowglass>},
    {.spec = {.name = "hands",
              .title = "Hands",
              .description = "Hands per game; a tie after the last hand plays on.",
              .type = OptionType::kInteger,
              .min = 1,
              .max = kMaxHands,
              .default_json = "4",
              .invalid = "hands is a whole number from 1 to 1000."},
     .store = store_integer<&Setup::opts, &Options::hands>},
    {.spec = {.name = "dealer",
              .title = "First dealer",
              .description = "Testing: the first dealer, seat 0 to 3; drawn from the seed when absent (CO-2.3).",
              .type = OptionType::kInteger,
              .min = 0,
              .max = kPlayers - 1,
              .testing = true,
              .invalid = "dealer is a seat from 0 to 3."},
     .store = store_integer<&Setup::dealer>},
    {.spec = {.name = "deck",
              .title = "Stacked deck",
              .description = "Testing: the first hand's order, all 78 card ids each once (80 with good_evil, "
                             "adding GOOD and EVIL), dealt in packets 4, 5, 5, 5 to dealer+1, +2, +3, dealer; "
                             "the last 2 (4) to the dealer. Refused unless the server runs with --testing.",
              .type = OptionType::kCards,
              .min = 78,
              .max = 80,
              .testing = true},
     .store = [](const Value& v, Setup& s, int) -> std::optional<Error> {
       s.deck = &v;
       return std::nullopt;
     }},
};

}  // namespace

GameInfo game_info() {
  return GameInfo{
      .name = "conference",
      .title = "Conference",
      .description = "A partnership trick game for four with the Tarot of Loka: suits Earth, Air, Fire and "
                     "Water, 21 trumps and the Fool; the dealer discards and plays for a contract. Variants: "
                     "Good & Evil, Attack & Defence, Gallowglass.",
      .teams = "Two sides of partners: seats 0+1 against 2+3.",
      .players = {kPlayers},
      .create = create,
      .rule_bot = rule_bot_action,
      .option_modes = {OptionMode{{}, specs_of<Setup>(kOptions)}},
  };
}

CreateResult create(int players, const Value& options, std::uint64_t seed) {
  if (players != kPlayers) return {nullptr, Error{"bad_players", "Conference is for four players."}};
  auto bad = [](std::string why) { return CreateResult{nullptr, Error{"bad_option", std::move(why)}}; };
  Setup setup;
  if (auto err = read_options<Setup>(kOptions, "Conference has no option '{}'.", players, options, setup)) {
    return {nullptr, std::move(err)};
  }
  Options& opts = setup.opts;
  int dealer = setup.dealer;
  const Value* deck = setup.deck;
  const int deck_size = opts.good_evil == GoodEvil::kOff ? 78 : 80;
  std::array<std::uint8_t, kCardCount> order{};
  if (deck) {
    if (!deck->is_array() || static_cast<int>(deck->size()) != deck_size) {
      return bad("deck lists all " + std::to_string(deck_size) + " cards.");
    }
    Cards seen;
    int i = 0;
    for (const auto& item : deck->as_array()) {
      const auto c = item.is_string() ? parse_card(item.as_string()) : std::nullopt;
      if (!c || !all_cards(deck_size).has(*c) || seen.has(*c)) {
        return bad("deck has an unknown or repeated card: " + item.debug_string());
      }
      seen.add(*c);
      order[i++] = static_cast<std::uint8_t>(*c);
    }
  }
  // CO-2.3: the first dealer is drawn from the seed.
  if (dealer < 0) {
    Rng rng(seed);
    dealer = static_cast<int>(rng.below(kPlayers));
  }
  return {std::make_unique<ConferenceGame>(opts, seed, dealer, deck ? &order : nullptr, deck_size),
          std::nullopt};
}

}  // namespace casa::conference
