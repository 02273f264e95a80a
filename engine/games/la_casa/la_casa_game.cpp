// SPDX-License-Identifier: AGPL-3.0-or-later
// The rules of the two- and four-player table game: the round's flow from the
// deal to the score, and apply()/legal_actions(). Views, the full state,
// encoding and determinize are in la_casa_game_view.cpp.
#include "engine/games/la_casa/la_casa_game.h"

#include <algorithm>
#include <string>

#include "engine/games/la_casa/trick.h"
#include "engine/rng.h"

namespace casa::la_casa {

namespace {

constexpr std::uint64_t kDealSalt = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kChallengeSalt = 0xC2B2AE3D27D4EB4FULL;

// The shuffled deck of deal number `n` of a game seeded with `seed`.
void shuffled_deck(std::uint64_t seed, std::uint64_t n, std::int8_t* deck) {
  for (int i = 0; i < kDeckSize; ++i) deck[i] = static_cast<std::int8_t>(i);
  Rng rng(seed ^ ((n + 1) * kDealSalt));
  rng.shuffle(deck, kDeckSize);
}

std::string family_title(int family) {
  std::string name(family_name(family));
  if (!name.empty()) name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name;
}

}  // namespace

using table_action::illegal;
using table_action::plain;
using table_action::plain_arg;
using table_action::plain_card;

// The phase's name in views and messages; a Challenge names the phases it adds.
std::string_view LaCasaGame::phase_name() const {
  if (const ExtraPhase* p = extra_phase()) return p->name;
  switch (phase_) {
    case Phase::kChooseChallenge: return "choose_challenge";
    case Phase::kElection: return "election";
    case Phase::kElectionDiscard: return "election_discard";
    case Phase::kPlay: return "play";
    case Phase::kRoundOver: return "round_over";
    case Phase::kGameOver: return "game_over";
    default: break;
  }
  return "?";
}

LaCasaGame::LaCasaGame(const TableOptions& o, std::uint64_t seed)
    : players_(o.players),
      format_(o.format),
      target_(o.target),
      election_(o.election),
      rounds_limit_(o.rounds),
      first_challenge_(o.challenge),
      has_first_deck_(o.has_deck),
      first_deck_(o.deck),
      seed_(seed) {
  // LC-3.2 the first dealer is drawn from the table's seed.
  dealer_ = o.dealer >= 0 ? o.dealer
                          : static_cast<int>(Rng(seed).below(static_cast<std::uint32_t>(players_)));
  if (format_ != Format::kClassic) {
    const std::uint32_t set = challenges_for(players_);
    for (int c = 0; c < kChallengeCount; ++c)
      if (set & (1u << c)) challenge_deck_[challenge_count_++] = static_cast<std::int8_t>(c);
    Rng rng(seed ^ kChallengeSalt);
    rng.shuffle(challenge_deck_.data(), static_cast<std::size_t>(challenge_count_));
  }
  if (format_ == Format::kSticky && first_challenge_ == kNoChallenge) {
    phase_ = Phase::kChooseChallenge;
    actor_ = dealer_;
    return;
  }
  if (first_challenge_ != kNoChallenge) {
    challenge_ = first_challenge_;
    if (format_ == Format::kSticky) sticky_used_ |= 1u << challenge_;
  } else {
    challenge_ = format_ == Format::kChallenges ? next_challenge() : kNoChallenge;
  }
  start_round(nullptr);
}

// LC-5.4 challenges: the next card of the Challenge deck, reshuffled when used up.
int LaCasaGame::next_challenge() {
  if (challenge_pos_ == challenge_count_) {
    ++challenge_cycle_;
    challenge_pos_ = 0;
    Rng rng(seed_ ^ kChallengeSalt ^ (static_cast<std::uint64_t>(challenge_cycle_) * kDealSalt));
    rng.shuffle(challenge_deck_.data(), static_cast<std::size_t>(challenge_count_));
  }
  return challenge_deck_[challenge_pos_++];
}

int LaCasaGame::cards_per_player() const {
  const bool two_more = rules().deals_two_more;
  if (players_ == 4) return two_more ? 9 : 7;  // LC-4.1, LC-4.3
  return 8 + 2 * (two_more ? 5 : 4);           // LC-4.2, LC-4.3
}

CardSet LaCasaGame::playable(Seat s) const { return hand_[s] | face_up_[s] | tableau_up(s); }

// LC-2.4 following, LC-4.4 (tableau), LC-7.7 (face-up cards), LC-11.1 the
// familyless Mangia-Cake, LC-11.2 the Ruling Family in force now; a Challenge may
// lift the duty to follow (LC-7.1 Anarchy).
CardSet LaCasaGame::legal_plays(Seat s) const {
  const bool free = trick_n_ == 0 || rules().nobody_follows;
  return trick::playable(playable(s), free ? kNoFamily : lead_, ruling_);
}

void LaCasaGame::make_public(CardSet cards) {
  public_ |= cards;
  for (int s = 0; s < players_; ++s) seen_[s] |= cards;
}

void LaCasaGame::emit(std::vector<Event>* events, Value body) const {
  events->push_back(Event{(SeatMask{1} << players_) - 1, true, std::move(body)});
}

void LaCasaGame::emit_to(std::vector<Event>* events, SeatMask seats, Value body) const {
  events->push_back(Event{seats, false, std::move(body)});
}

// ---------------------------------------------------------------------------
// The deal (LC-4)

void LaCasaGame::start_round(std::vector<Event>* events) {
  ++round_;
  std::array<std::int8_t, kDeckSize> deck{};
  if (deals_ == 0 && has_first_deck_) {
    deck = first_deck_;
  } else {
    shuffled_deck(seed_, deals_, deck.data());
  }
  ++deals_;
  int redeals = 0;
  for (;;) {
    deal(deck.data(), events);
    // LC-4.9 the Mangia-Cake as Selection card: re-deal where a Challenge says so.
    if (rules().selection && casa_[0] == kMangiaCake && rules().redeal_on_mangia_cake) {
      ++redeals;
      shuffled_deck(seed_, deals_, deck.data());
      ++deals_;
      continue;
    }
    break;
  }
  if (events) {
    Value deal_event = Value::obj({{"type", "deal"},
                                   {"round", round_},
                                   {"dealer", dealer_},
                                   {"challenge", challenge_ == kNoChallenge
                                                     ? Value()
                                                     : Value(challenge_name(challenge_))},
                                   {"redeals", redeals}});
    emit(events, std::move(deal_event));
    for (int s = 0; s < players_; ++s) {
      Value cards = Value::array();
      for (int c : hand_[s]) cards.push(card_id(c));
      Value body = Value::obj({{"type", "hand"}, {"seat", s}, {"cards", std::move(cards)}});
      if (reference_[s] >= 0) body.set("reference", card_id(reference_[s]));
      emit_to(events, seat_bit(s), std::move(body));
    }
  }
  if (rules().selection) {
    // LC-4.5 Selection / LC-6.2 the nominated card.
    const int top = casa_[0];
    casa_top_up_ = true;
    make_public(top);
    if (events) emit(events, Value::obj({{"type", "selection"}, {"card", card_id(top)}}));
    if (!election_ || top == kMangiaCake) {
      ruling_ = printed_family(top);
      after_ruling(events);
    } else {
      nominated_ = printed_family(top);
      election_round_ = 1;
      passed_ = 0;
      phase_ = Phase::kElection;
      actor_ = left_of(dealer_);
    }
  } else if (rules().open_round) {
    rules().open_round(*this, events);
  } else {
    ruling_ = kNoFamily;  // no Selection: no Ruling Family to start with
    after_ruling(events);
  }
}

// LC-4.8 deck[i] is the i-th card dealt.
void LaCasaGame::deal(const std::int8_t* deck, std::vector<Event>*) {
  hand_ = {};
  set_aside_ = {};
  face_up_ = {};
  reference_ = {{-1, -1, -1, -1}};
  stack_up_ = {};
  stack_down_ = {};
  tableau_up_ = {};
  casa_ = {};
  out_ = CardSet();
  ruling_ = cousins_ = lead_ = nominated_ = kNoFamily;
  election_round_ = 0;
  passed_ = 0;
  elector_ = -1;
  discarded_ = -1;
  bid_ = 0;
  bidder_ = -1;
  club_done_ = 0;
  trick_ = {};
  trick_n_ = 0;
  committed_ = 0;
  bandit_ = stolen_ = trick_winner_ = -1;
  tricks_won_ = {};
  captured_ = {};
  won_families_ = {};
  won_count_ = {};
  tricks_played_ = 0;
  mc_side_ = -1;
  mc_trick_captured_ = false;
  last_trick_ = {};
  last_trick_n_ = 0;
  last_winner_ = -1;
  round_points_ = {};
  round_counts_ = {};
  round_scored_ = false;
  casa_top_up_ = false;
  public_ = CardSet();

  // A Challenge may set cards apart first (LC-7.3 Betrayal).
  std::array<std::int8_t, kDeckSize> rest{};
  int n = 0;
  if (rules().deal) {
    n = rules().deal(*this, deck, rest.data());
  } else {
    for (int i = 0; i < kDeckSize; ++i) rest[n++] = deck[i];
  }

  const Seat first = left_of(dealer_);
  int used = 0;
  if (players_ == 4) {
    const int per = cards_per_player();
    for (int i = 0; i < 4 * per; ++i) hand_[(first + i) % 4].add(rest[i]);
    used = 4 * per;
    stacks_ = 0;
  } else {
    // Two players: p = 0 is the non-dealer, p = 1 the dealer.
    const Seat seat_of[2] = {first, dealer_};
    stacks_ = rules().deals_two_more ? 5 : 4;
    for (int i = 0; i < 16; ++i) hand_[seat_of[i & 1]].add(rest[i]);
    for (int j = 0; j < stacks_; ++j) {
      for (int p = 0; p < 2; ++p) {
        stack_down_[seat_of[p]][j] = rest[16 + 2 * j + p];
        stack_up_[seat_of[p]][j] = rest[16 + 2 * stacks_ + 2 * j + p];
        // LC-7.12 a Mangia-Cake dealt face up swaps with the card under it.
        if (rules().mangia_cake_face_down && stack_up_[seat_of[p]][j] == kMangiaCake)
          std::swap(stack_up_[seat_of[p]][j], stack_down_[seat_of[p]][j]);
        tableau_up_[seat_of[p]].add(stack_up_[seat_of[p]][j]);
      }
    }
    used = 16 + 4 * stacks_;
  }
  casa_size_ = n - used;
  for (int i = 0; i < casa_size_; ++i) casa_[i] = rest[used + i];
  total_tricks_ = cards_per_player();

  for (int s = 0; s < players_; ++s) {
    seen_[s] = hand_[s];
    if (reference_[s] >= 0) seen_[s].add(reference_[s]);
  }
  for (int s = 0; s < players_; ++s) make_public(tableau_up(s));
}

// After the Ruling Family is known: a Challenge's phase before play (LC-7.8 The
// Club's set-aside, LC-7.9 naming the Cousins), then play.
void LaCasaGame::after_ruling(std::vector<Event>* events) {
  if (rules().before_play && rules().before_play(*this)) return;
  start_play(events);
}

void LaCasaGame::start_play(std::vector<Event>*) {
  // LC-4.6 the dealer's left leads unless an Election, a bid or a challenge says otherwise.
  if (rules().leader) {
    leader_ = rules().leader(*this);
  } else if (elector_ >= 0) {
    leader_ = elector_;  // LC-6.4
  } else {
    leader_ = left_of(dealer_);
  }
  trick_n_ = 0;
  lead_ = kNoFamily;
  phase_ = Phase::kPlay;
  actor_ = leader_;
}

// ---------------------------------------------------------------------------
// Tricks (LC-2)

void LaCasaGame::remove_from_play_area(Seat s, int card, std::uint8_t* flags) {
  if (hand_[s].has(card)) {
    hand_[s].remove(card);
    return;
  }
  if (face_up_[s].has(card)) {
    face_up_[s].remove(card);
    return;
  }
  if (!tableau_up_[s].has(card)) return;
  tableau_up_[s].remove(card);
  for (int j = 0; j < stacks_; ++j) {
    if (stack_up_[s][j] == card) {
      stack_up_[s][j] = -1;
      *flags |= kFromTableau;
      return;
    }
  }
}

void LaCasaGame::play_card(Seat s, int card, std::vector<Event>* events) {
  std::uint8_t flags = 0;
  remove_from_play_area(s, card, &flags);
  if (rules().play) {
    rules().play(*this, s, card, flags, events);
    return;
  }

  trick_[trick_n_++] =
      TrickCard{static_cast<std::int8_t>(s), static_cast<std::int8_t>(card), flags};
  make_public(card);
  // LC-2.3 the lead family; a familyless Mangia-Cake leaves it to the next family card.
  if (lead_ == kNoFamily) lead_ = effective_family(card, ruling_);
  if (events) {
    emit(events, Value::obj({{"type", "play"}, {"seat", s}, {"card", card_id(card)},
                             {"from", (flags & kFromTableau) ? "tableau" : "hand"}}));
  }
  // A Challenge may act on the card (LC-7.5 Capitano) or begin a phase (LC-7.4 Bruto).
  if (rules().on_play && rules().on_play(*this, s, card, events)) return;
  after_play(s, events);
}

void LaCasaGame::after_play(Seat s, std::vector<Event>* events) {
  // LC-7.7 Cards on the Table, LC-7.8 The Club, LC-7.14 Pass the Buck.
  if (rules().after_play && rules().after_play(*this, s, events)) return;
  next_player(events);
}

void LaCasaGame::next_player(std::vector<Event>* events) {
  if (trick_n_ == players_) {
    complete_trick(events);
    return;
  }
  phase_ = Phase::kPlay;
  actor_ = left_of(trick_[trick_n_ - 1].seat);
}

// LC-2.5 / LC-11.3 the winner of a trick (by seat) under `ruling`.
int LaCasaGame::resolve_trick(const TrickCard* trick, int n, int ruling) const {
  int best = -1;
  int best_key = -1;
  for (int i = 0; i < n; ++i) {
    if (trick[i].card < 0 || (trick[i].flags & (kEliminated | kFaceDown))) continue;
    const int f = effective_family(trick[i].card, ruling);
    int category = 0;
    if (f == kNoFamily) continue;
    if (f == ruling) {
      category = 3;
    } else if (f == cousins_) {
      category = 2;  // LC-7.9
    } else if (f == lead_) {
      category = 1;
    }
    if (category == 0) continue;
    const int key = category * 16 + card_value(trick[i].card);
    if (key > best_key) {
      best_key = key;
      best = i;
    }
  }
  if (best >= 0) return trick[best].seat;
  // LC-11.3 no surviving Ruling or lead card: the family of the earliest survivor.
  int family = kNoFamily;
  int first = -1;
  for (int i = 0; i < n; ++i) {
    if (trick[i].card < 0 || (trick[i].flags & (kEliminated | kFaceDown))) continue;
    if (first < 0) first = i;
    const int f = effective_family(trick[i].card, ruling);
    if (f == kNoFamily) continue;
    if (family == kNoFamily) {
      family = f;
      best = i;
    } else if (f == family && card_value(trick[i].card) > card_value(trick[best].card)) {
      best = i;
    }
  }
  if (best >= 0) return trick[best].seat;
  return first >= 0 ? trick[first].seat : trick[0].seat;  // LC-2.5 a lone Mangia-Cake
}

bool LaCasaGame::would_win(Seat seat, int card) const {
  std::array<TrickCard, 4> trick = trick_;
  int n = 0;
  for (int i = 0; i < trick_n_; ++i)
    if (!(trick_[i].flags & kHidden)) trick[n++] = trick_[i];
  trick[n++] = TrickCard{static_cast<std::int8_t>(seat), static_cast<std::int8_t>(card), 0};
  const int ruling = rules().ruling_after ? rules().ruling_after(card, ruling_) : ruling_;
  LaCasaGame probe(*this);
  if (probe.lead_ == kNoFamily) probe.lead_ = effective_family(card, ruling_);
  return probe.resolve(trick.data(), n, ruling) == seat;
}

// The winner of a trick by the round's Challenge (LC-7.11 Kin) or LC-2.5.
int LaCasaGame::resolve(const TrickCard* trick, int n, int ruling) const {
  return rules().resolve ? rules().resolve(*this, trick, n, ruling)
                         : resolve_trick(trick, n, ruling);
}

void LaCasaGame::complete_trick(std::vector<Event>* events) {
  trick_winner_ = resolve(trick_.data(), trick_n_, ruling_);
  // A Challenge may act between the winner's fixing and the capture (LC-7.2 Bandits).
  if (rules().after_resolve && rules().after_resolve(*this, events)) return;
  finish_trick(events);
}

void LaCasaGame::finish_trick(std::vector<Event>* events) {
  const Seat w = trick_winner_;
  const int side = side_of(w);
  CardSet cards;
  std::uint8_t families = 0;
  for (int i = 0; i < trick_n_; ++i) {
    if (trick_[i].flags & kEliminated) continue;
    const int c = trick_[i].card;
    cards.add(c);
    if (c != kMangiaCake) families |= static_cast<std::uint8_t>(1u << printed_family(c));
  }
  captured_[side] |= cards;
  ++tricks_won_[side];
  const bool has_mc = cards.has(kMangiaCake);
  if (has_mc) {
    mc_side_ = side;
    mc_trick_captured_ = true;
  }
  // LC-7.3 / LC-11.5 remember each trick's families to judge validity at the end.
  won_families_[w][won_count_[w]++] = families;
  if (events) {
    emit(events, Value::obj({{"type", "trick"}, {"winner", w}, {"number", tricks_played_ + 1}}));
  }
  // LC-4.4 every stack whose top was played turns its face-down card up.
  for (int s = 0; s < players_ && players_ == 2; ++s) {
    for (int j = 0; j < stacks_; ++j) {
      if (stack_up_[s][j] < 0 && stack_down_[s][j] >= 0) {
        stack_up_[s][j] = stack_down_[s][j];
        stack_down_[s][j] = -1;
        tableau_up_[s].add(stack_up_[s][j]);
        make_public(stack_up_[s][j]);
        if (events)
          emit(events, Value::obj({{"type", "turn_up"}, {"seat", s}, {"stack", j},
                                   {"card", card_id(stack_up_[s][j])}}));
      }
    }
  }
  last_trick_ = trick_;
  last_trick_n_ = trick_n_;
  last_winner_ = w;
  trick_ = {};
  trick_n_ = 0;
  lead_ = kNoFamily;
  committed_ = 0;
  trick_winner_ = -1;
  ++tricks_played_;
  // LC-2.7 the round ends with the last card; LC-7.12 or with the Mangia-Cake's capture.
  if (tricks_played_ == total_tricks_ || (rules().ends_on_mangia_cake && has_mc)) {
    end_round(events);
    return;
  }
  leader_ = w;  // LC-2.6
  actor_ = w;
  phase_ = Phase::kPlay;
}

// ---------------------------------------------------------------------------
// Scoring (LC-5, LC-6.7, LC-7)

// The side with more (most = true) or fewer of a count scores; a tie goes to the
// side that captured the Mangia-Cake (LC-5.1 / LC-5.2).
int LaCasaGame::decide(int a, int b, bool most) {
  round_counts_ = {a, b};
  if (a == b) return mc_side_;
  return (most ? a > b : a < b) ? 0 : 1;
}

void LaCasaGame::end_round(std::vector<Event>* events) {
  std::array<int, 2> points{};
  const Challenge& c = rules();
  if (c.score) {
    c.score(*this, points);  // LC-5.3 a Challenge's own scoring
  } else if (c.tally) {
    // LC-5.3 a Challenge's count: more or fewer than the other side scores 1.
    const int side = decide(c.tally(captured_[0], tricks_won_[0]),
                            c.tally(captured_[1], tricks_won_[1]), c.tally_most);
    if (side >= 0) points[side] = 1;
  } else if (elector_ >= 0) {
    // LC-6.7 the electing side needs the majority of the tricks.
    const int side = side_of(elector_);
    round_counts_ = tricks_won_;
    if (2 * tricks_won_[side] > total_tricks_) {
      points[side] = 1;
    } else {
      points[1 - side] = 2;
    }
  } else {
    const int side = decide(tricks_won_[0], tricks_won_[1], true);  // LC-5.1
    if (side >= 0) points[side] = 1;
  }
  scores_[0] += points[0];
  scores_[1] += points[1];
  round_points_ = points;
  round_scored_ = true;
  CardSet refs;
  for (int s = 0; s < players_; ++s)
    if (reference_[s] >= 0) refs.add(reference_[s]);
  make_public(refs);
  // LC-5.5 the game ends after a round in which a side reached the target, unless tied.
  const bool over = (rounds_limit_ > 0 && round_ >= rounds_limit_) ||
                    (std::max(scores_[0], scores_[1]) >= target_ && scores_[0] != scores_[1]);
  if (events) {
    Value refs_value = Value::array();
    for (int s = 0; s < players_; ++s)
      refs_value.push(reference_[s] >= 0 ? Value(card_id(reference_[s])) : Value());
    emit(events, Value::obj({{"type", "round_end"},
                             {"round", round_},
                             {"points", Value::Array{points[0], points[1]}},
                             {"counts", Value::Array{round_counts_[0], round_counts_[1]}},
                             {"tricks", Value::Array{tricks_won_[0], tricks_won_[1]}},
                             {"scores", Value::Array{scores_[0], scores_[1]}},
                             {"references", std::move(refs_value)}}));
  }
  if (over) {
    phase_ = Phase::kGameOver;
    if (events) {
      Value winners_value = Value::array();
      for (Seat s : winners()) winners_value.push(s);
      emit(events, Value::obj({{"type", "game_over"},
                               {"scores", Value::Array{scores_[0], scores_[1]}},
                               {"winners", std::move(winners_value)}}));
    }
    return;
  }
  phase_ = format_ == Format::kSticky ? Phase::kChooseChallenge : Phase::kRoundOver;
  actor_ = left_of(dealer_);  // LC-3.2 the next dealer
}

// ---------------------------------------------------------------------------
// Actions

SeatMask LaCasaGame::to_act() const {
  if (phase_ == Phase::kGameOver) return 0;
  if (const ExtraPhase* p = extra_phase(); p && p->to_act) return p->to_act(*this);
  return seat_bit(actor_);
}

const ExtraPhase* LaCasaGame::extra_phase() const {
  for (const ExtraPhase& p : rules().phases)
    if (p.phase == phase_) return &p;
  return nullptr;
}

void LaCasaGame::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (seat < 0 || seat >= players_ || !(to_act() & seat_bit(seat))) return;
  // Built in a fixed buffer and copied once: no per-action growth checks.
  std::array<Action, 64> buffer;
  ActionSink sink(buffer.data());
  auto push = [&sink](std::uint16_t kind, int card = 0, int arg = 0, std::uint64_t set = 0) {
    sink.push(kind, card, arg, set);
  };
  switch (phase_) {
    case Phase::kChooseChallenge: {
      const std::uint32_t open = challenges_for(players_) & ~sticky_used_;
      for (int c = 0; c < kChallengeCount; ++c)
        if (open & (1u << c)) push(kActChooseChallenge, 0, c);
      break;
    }
    case Phase::kElection:
      if (election_round_ == 1) {
        push(kActElect, 0, nominated_);
      } else {
        for (int f = 0; f < kFamilies; ++f)
          if (f != nominated_) push(kActElect, 0, f);
      }
      if (!(election_round_ == 2 && seat == dealer_)) push(kActPass);
      break;
    case Phase::kElectionDiscard:
      for (int c : hand_[seat]) push(kActDiscard, c);
      break;
    case Phase::kPlay:
      for (int c : legal_plays(seat)) push(kActPlay, c);
      break;
    case Phase::kRoundOver:
      push(kActDeal);
      break;
    case Phase::kGameOver: break;
    default:
      // A Challenge's own phase (challenges/).
      if (const ExtraPhase* p = extra_phase()) p->legal(*this, seat, sink);
      break;
  }
  out.assign(buffer.begin(), buffer.begin() + sink.size());
}

// Validates `a` for `seat` without changing anything (apply() must leave the state
// unchanged on failure).
Error LaCasaGame::not_your_turn(Seat seat) const {
  if (seat < 0 || seat >= players_) return Error{"not_your_turn", "There is no such seat."};
  const ExtraPhase* extra = extra_phase();
  if (extra && extra->not_acting)
    if (auto err = extra->not_acting(*this, seat)) return *err;
  return Error{"not_your_turn", "It is not your turn."};
}

// Game::apply refused a finished game and a seat that does not act (not_your_turn).
std::optional<Error> LaCasaGame::check(Seat seat, const Action& a) const {
  const ExtraPhase* extra = extra_phase();
  auto wrong = [this]() { return wrong_decision(); };
  switch (phase_) {
    case Phase::kChooseChallenge:
      if (a.kind != kActChooseChallenge || !plain_arg(a)) return wrong();
      if (a.arg < 0 || a.arg >= kChallengeCount || !(challenges_for(players_) & (1u << a.arg)))
        return illegal("That challenge is not used at this table.");
      if (sticky_used_ & (1u << a.arg))
        return illegal("That challenge was already chosen in this cycle.");
      return std::nullopt;
    case Phase::kElection:
      if (a.kind == kActPass && plain(a)) {
        if (election_round_ == 2 && seat == dealer_)
          return illegal("The dealer must elect a family.");
        return std::nullopt;
      }
      if (a.kind != kActElect || !plain_arg(a) || a.arg < 0 || a.arg >= kFamilies) return wrong();
      if (election_round_ == 1 && a.arg != nominated_)
        return illegal("Only the nominated family may be elected now.");
      if (election_round_ == 2 && a.arg == nominated_)
        return illegal("The nominated family was refused; elect another.");
      return std::nullopt;
    case Phase::kElectionDiscard:
      if (a.kind != kActDiscard || !plain_card(a)) return wrong();
      if (!hand_[seat].has(a.card)) return illegal("You can only discard a card from your hand.");
      return std::nullopt;
    case Phase::kPlay:
      return check_play(seat, a);
    case Phase::kRoundOver:
      if (a.kind != kActDeal || !plain(a)) return wrong();
      return std::nullopt;
    case Phase::kGameOver: break;
    default:
      // A Challenge's own phase (challenges/).
      if (extra) return extra->check(*this, seat, a);
      break;
  }
  return wrong();
}

// LC-2.4 a card to the trick: one the seat has, following where it must.
std::optional<Error> LaCasaGame::check_play(Seat seat, const Action& a) const {
  if (a.kind != kActPlay || !plain_card(a)) return wrong_decision();
  if (!playable(seat).has(a.card)) return illegal("You do not have that card to play.");
  if (!legal_plays(seat).has(a.card))
    return illegal("You must follow " + family_title(lead_) + ".");
  return std::nullopt;
}

Error LaCasaGame::wrong_decision() const {
  return illegal("That is not a decision of this moment (" + std::string(phase_name()) +
                 ").");
}

std::optional<Error> LaCasaGame::step(Seat seat, const Action& a, std::vector<Event>* events) {
  if (auto err = check(seat, a)) return err;
  switch (phase_) {
    case Phase::kChooseChallenge:
      // LC-5.4 sticky / LC-11.16 the dealer chooses; the record clears after a full cycle.
      if (round_ > 0) dealer_ = left_of(dealer_);
      challenge_ = a.arg;
      sticky_used_ |= 1u << a.arg;
      if (sticky_used_ == challenges_for(players_)) sticky_used_ = 0;
      if (events)
        emit(events, Value::obj({{"type", "choose_challenge"}, {"seat", seat},
                                 {"challenge", challenge_name(a.arg)}}));
      start_round(events);
      break;
    case Phase::kRoundOver:
      dealer_ = left_of(dealer_);
      challenge_ = format_ == Format::kChallenges ? next_challenge() : kNoChallenge;
      start_round(events);
      break;
    case Phase::kElection: {
      const Seat last = dealer_;
      if (a.kind == kActPass) {
        passed_ |= seat_bit(seat);
        if (events)
          emit(events, Value::obj({{"type", "pass"}, {"seat", seat}, {"round", election_round_}}));
        if (seat == last) {
          // LC-6.5 all passed: the card is turned face down and round two begins.
          election_round_ = 2;
          casa_top_up_ = false;
          passed_ = 0;
          if (events) emit(events, Value::obj({{"type", "election_round"}, {"round", 2}}));
        }
        actor_ = left_of(seat);
        break;
      }
      elector_ = seat;
      ruling_ = a.arg;
      if (events)
        emit(events, Value::obj({{"type", "elect"}, {"seat", seat}, {"family", family_name(a.arg)},
                                 {"round", election_round_}}));
      if (election_round_ == 1) {
        // LC-6.4 the elector takes the nominated card, then discards.
        hand_[seat].add(casa_[0]);
        seen_[seat].add(casa_[0]);
        casa_[0] = -1;
        casa_top_up_ = false;
        phase_ = Phase::kElectionDiscard;
        actor_ = seat;
      } else {
        after_ruling(events);
      }
      break;
    }
    case Phase::kElectionDiscard:
      hand_[seat].remove(a.card);
      casa_[0] = static_cast<std::int8_t>(a.card);  // face down onto the Casa (LC-6.4)
      discarded_ = a.card;
      if (events) {
        emit_to(events, seat_bit(seat),
                Value::obj({{"type", "discard"}, {"seat", seat}, {"card", card_id(a.card)}}));
        emit_to(events, ((SeatMask{1} << players_) - 1) & ~seat_bit(seat),
                Value::obj({{"type", "discard"}, {"seat", seat}}));
        events->back().spectators = true;
      }
      after_ruling(events);
      break;
    case Phase::kPlay:
      play_card(seat, a.card, events);
      break;
    case Phase::kGameOver: break;
    default:
      // A Challenge's own phase (challenges/); check() found it.
      extra_phase()->apply(*this, seat, a, events);
      break;
  }
  return std::nullopt;
}

std::vector<int> LaCasaGame::scores() const {
  std::vector<int> out(static_cast<std::size_t>(players_));
  for (int s = 0; s < players_; ++s) out[static_cast<std::size_t>(s)] = scores_[side_of(s)];
  return out;
}

std::vector<Seat> LaCasaGame::winners() const {
  std::vector<Seat> out;
  if (phase_ != Phase::kGameOver) return out;
  const int best = std::max(scores_[0], scores_[1]);
  for (int s = 0; s < players_; ++s)
    if (scores_[side_of(s)] == best) out.push_back(s);
  return out;
}

}  // namespace casa::la_casa
