// SPDX-License-Identifier: AGPL-3.0-or-later
// What each seat sees of the table game (LC-10), the god view, the public form of
// actions, and determinize().
#include <algorithm>
#include <array>
#include <string>

#include "engine/action_fields.h"
#include "engine/games/la_casa/la_casa_game.h"
#include "engine/teams.h"
#include "engine/rng.h"

namespace casa::la_casa {

namespace {

Value cards_value(CardSet cards) {
  Value out = Value::array(static_cast<std::size_t>(cards.size()));
  for (int c : cards) out.push(card_id(c));
  return out;
}

Value card_or_null(int card) { return card < 0 ? Value() : Value(card_id(card)); }

// card_id() without building a string: the ids of the deck, by index.
constexpr auto kCardNames = [] {
  std::array<std::array<char, 2>, kDeckSize> names{};
  for (int c = 0; c < kDeckSize; ++c) {
    if (c == kMangiaCake) {
      names[static_cast<std::size_t>(c)] = {'M', 'C'};
    } else {
      names[static_cast<std::size_t>(c)] = {kFamilyLetters[static_cast<std::size_t>(c / kValuesPerFamily)],
                                            static_cast<char>('0' + card_value(c))};
    }
  }
  return names;
}();

std::string_view card_name(int card) { return {kCardNames[static_cast<std::size_t>(card)].data(), 2}; }

}  // namespace

// A trick as `viewer` sees it (kSpectator: public only; -2: everything).
Value LaCasaGame::trick_value(const TrickCard* trick, int n, Seat viewer) const {
  ValueWriter out;
  write_trick(out, trick, n, viewer);
  return out.take();
}

void LaCasaGame::write_trick(ViewWriter& out, const TrickCard* trick, int n, Seat viewer) const {
  out.begin_array(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const TrickCard& e = trick[i];
    if (e.card < 0) continue;
    if ((e.flags & kHidden) && viewer != -2) continue;
    out.begin_object(4);
    out.member("seat", e.seat);
    const bool face_down = e.flags & kFaceDown;
    if (!face_down || viewer == -2 || viewer == e.seat) out.member("card", card_name(e.card));
    if (face_down) out.member("face_down", true);
    if (e.flags & kEliminated) out.member("eliminated", true);
    if ((e.flags & kHidden) && viewer == -2) out.member("hidden", true);
    out.end_object();
  }
  out.end_array();
}

Value LaCasaGame::view(Seat seat) const {
  ValueWriter out;
  write_view(seat, out);
  return out.take();
}

// The one description of what `seat` sees: view() builds it as a Value, the
// server writes it straight into a request's JSON.
void LaCasaGame::write_view(Seat seat, ViewWriter& v) const {
  const bool player = seat >= 0 && seat < players_;
  const auto family = [&v](std::string_view name, int f) {
    if (f == kNoFamily) {
      v.null_member(name);
    } else {
      v.member(name, family_name(f));
    }
  };
  const auto card_or_null = [&v](int card) {
    if (card < 0) {
      v.null();
    } else {
      v.string(card_name(card));
    }
  };
  const auto cards = [&v](CardSet set) {
    v.begin_array(static_cast<std::size_t>(set.size()));
    for (int c : set) v.string(card_name(c));
    v.end_array();
  };
  const auto seats = [&v, this](SeatMask mask) {
    v.begin_array(static_cast<std::size_t>(players_));
    for (int s = 0; s < players_; ++s)
      if (mask & seat_bit(s)) v.integer(s);
    v.end_array();
  };
  const auto pair = [&v](std::string_view name, int a, int b) {
    v.key(name);
    v.begin_array(2);
    v.integer(a);
    v.integer(b);
    v.end_array();
  };
  v.begin_object(40);
  v.member("game", "la-casa");
  v.member("seat", player ? seat : -1);
  v.member("players", players_);
  // LC-3.1 partners sit opposite: seats 0+2 against 1+3; two players are a side each.
  v.key("teams");
  write_teams(v, players_, 2, [this](Seat s) { return side_of(s); });
  v.member("format", format_ == Format::kClassic      ? "classic"
                     : format_ == Format::kChallenges ? "challenges"
                                                      : "sticky");
  v.member("target", target_);
  v.member("election", election_);
  v.member("phase", phase_name());
  // A Challenge's phase may show other seats acting than to_act() (LC-7.16).
  const ExtraPhase* extra = extra_phase();
  const SeatMask acting =
      extra && extra->view_to_act ? extra->view_to_act(*this, seat, player) : to_act();
  v.key("to_act");
  seats(acting);
  v.member("dealer", dealer_);
  v.member("leader", leader_);
  v.member("round", round_);
  if (challenge_ == kNoChallenge) {
    v.null_member("challenge");
  } else {
    v.member("challenge", challenge_name(challenge_));
  }
  family("ruling_family", ruling_);
  family("lead_family", lead_);
  family("cousins", cousins_);
  pair("scores", scores_[0], scores_[1]);
  v.key("seat_scores");
  v.begin_array(static_cast<std::size_t>(players_));
  for (int s = 0; s < players_; ++s) v.integer(scores_[side_of(s)]);
  v.end_array();
  pair("tricks_won", tricks_won_[0], tricks_won_[1]);
  v.member("tricks_played", tricks_played_);
  v.member("total_tricks", total_tricks_);
  v.key("hand_sizes");
  v.begin_array(static_cast<std::size_t>(players_));
  for (int s = 0; s < players_; ++s) {
    // A Challenge's phase may show another size (LC-7.16).
    v.integer(extra && extra->view_hand_size ? extra->view_hand_size(*this, s, seat, player)
                                             : hand_[s].size());
  }
  v.end_array();
  if (player) {
    v.key("hand");
    cards(hand_[seat]);
    v.key("reference");
    card_or_null(reference_[seat]);
    v.key("set_aside");
    cards(set_aside_[seat]);
  }
  if (round_scored_) {
    // LC-7.3 the reference cards are shown once the round is scored.
    v.key("references");
    v.begin_array(static_cast<std::size_t>(players_));
    for (int s = 0; s < players_; ++s) card_or_null(reference_[s]);
    v.end_array();
  }
  v.key("set_aside_counts");
  v.begin_array(static_cast<std::size_t>(players_));
  for (int s = 0; s < players_; ++s) v.integer(set_aside_[s].size());
  v.end_array();
  v.key("face_up");
  v.begin_array(static_cast<std::size_t>(players_));
  for (int s = 0; s < players_; ++s) cards(face_up_[s]);
  v.end_array();
  if (players_ == 2) {
    // LC-4.4 face-up tableau cards are public; face-down ones are only counted.
    v.key("tableaux");
    v.begin_array(static_cast<std::size_t>(players_));
    for (int s = 0; s < players_; ++s) {
      v.begin_array(static_cast<std::size_t>(stacks_));
      for (int j = 0; j < stacks_; ++j) {
        v.begin_object(2);
        v.key("up");
        card_or_null(stack_up_[s][j]);
        v.member("down", stack_down_[s][j] >= 0 ? 1 : 0);
        v.end_object();
      }
      v.end_array();
    }
    v.end_array();
  }
  int casa_count = 0;
  for (int i = 0; i < casa_size_; ++i) casa_count += casa_[i] >= 0;
  v.key("casa");
  v.begin_object(2);
  v.member("count", casa_count);
  v.key("top");
  card_or_null(casa_top_up_ ? casa_[0] : -1);
  v.end_object();
  if (election_round_ > 0) {
    v.key("election_state");
    v.begin_object(5);
    family("nominated", nominated_);
    v.member("round", election_round_);
    v.key("passed");
    seats(passed_);
    v.member("elector", elector_);
    if (player && seat == elector_ && discarded_ >= 0) v.member("discard", card_name(discarded_));
    v.end_object();
  }
  if (rules().view_after_casa) rules().view_after_casa(*this, seat, player, v);  // LC-7.10
  if (format_ == Format::kSticky) {
    v.key("challenges_chosen");
    v.begin_array(0);
    for (int c = 0; c < kChallengeCount; ++c)
      if (sticky_used_ & (1u << c)) v.string(challenge_name(c));
    v.end_array();
  }
  v.key("trick");
  write_trick(v, trick_.data(), trick_n_, player ? seat : kSpectator);
  if (rules().view_after_trick) rules().view_after_trick(*this, seat, player, v);  // LC-7.16
  if (last_trick_n_ > 0) {
    v.key("last_trick");
    v.begin_object(2);
    v.key("cards");
    write_trick(v, last_trick_.data(), last_trick_n_, player ? seat : kSpectator);
    v.member("winner", last_winner_);
    v.end_object();
  }
  if (round_scored_) {
    v.key("round_result");
    v.begin_object(3);
    pair("points", round_points_[0], round_points_[1]);
    pair("counts", round_counts_[0], round_counts_[1]);
    pair("tricks", tricks_won_[0], tricks_won_[1]);
    v.end_object();
  }
  if (phase_ == Phase::kGameOver) {
    v.key("winners");
    v.begin_array(0);
    for (Seat s : winners()) v.integer(s);
    v.end_array();
  }
  v.end_object();
}

Value LaCasaGame::full_state() const {
  Value v = Value::object();
  v.set("players", players_);
  v.set("format", static_cast<int>(format_));
  v.set("target", target_);
  v.set("election", election_);
  v.set("rounds_limit", rounds_limit_);
  v.set("seed", std::to_string(seed_));
  v.set("deals", static_cast<long long>(deals_));
  Value deck = Value::array();
  for (int i = 0; i < challenge_count_; ++i) deck.push(challenge_name(challenge_deck_[i]));
  v.set("challenge_deck", std::move(deck));
  v.set("challenge_pos", challenge_pos_);
  v.set("challenge_cycle", challenge_cycle_);
  v.set("sticky_used", static_cast<long long>(sticky_used_));
  v.set("round", round_);
  v.set("dealer", dealer_);
  v.set("scores", Value::Array{scores_[0], scores_[1]});
  v.set("phase", phase_name());
  v.set("actor", actor_);
  v.set("challenge", challenge_);
  Value hands = Value::array(), aside = Value::array(), up = Value::array(), seen = Value::array();
  for (int s = 0; s < players_; ++s) {
    hands.push(cards_value(hand_[s]));
    aside.push(cards_value(set_aside_[s]));
    up.push(cards_value(face_up_[s]));
    seen.push(cards_value(seen_[s]));
  }
  v.set("hands", std::move(hands));
  v.set("set_aside", std::move(aside));
  v.set("face_up", std::move(up));
  v.set("seen", std::move(seen));
  v.set("public", cards_value(public_));
  Value refs = Value::array();
  for (int s = 0; s < players_; ++s) refs.push(card_or_null(reference_[s]));
  v.set("references", std::move(refs));
  Value tableaux = Value::array();
  for (int s = 0; s < players_ && players_ == 2; ++s) {
    Value stacks = Value::array();
    for (int j = 0; j < stacks_; ++j)
      stacks.push(Value::obj({{"up", card_or_null(stack_up_[s][j])},
                              {"down", card_or_null(stack_down_[s][j])}}));
    tableaux.push(std::move(stacks));
  }
  v.set("tableaux", std::move(tableaux));
  Value casa = Value::array();
  for (int i = 0; i < casa_size_; ++i) casa.push(card_or_null(casa_[i]));
  v.set("casa", std::move(casa));
  v.set("casa_top_up", casa_top_up_);
  v.set("out", cards_value(out_));
  v.set("ruling", ruling_);
  v.set("cousins", cousins_);
  v.set("lead", lead_);
  v.set("nominated", nominated_);
  v.set("election_round", election_round_);
  v.set("passed", static_cast<long long>(passed_));
  v.set("elector", elector_);
  v.set("discarded", card_or_null(discarded_));
  v.set("bid", bid_);
  v.set("bidder", bidder_);
  v.set("club_done", static_cast<long long>(club_done_));
  v.set("leader", leader_);
  v.set("trick", trick_value(trick_.data(), 4, -2));
  v.set("trick_n", trick_n_);
  v.set("committed", static_cast<long long>(committed_));
  v.set("bandit", bandit_);
  v.set("stolen", stolen_);
  v.set("trick_winner", trick_winner_);
  v.set("tricks_won", Value::Array{tricks_won_[0], tricks_won_[1]});
  v.set("captured", Value::Array{cards_value(captured_[0]), cards_value(captured_[1])});
  Value won = Value::array();
  for (int s = 0; s < players_; ++s) {
    Value list = Value::array();
    for (int t = 0; t < won_count_[s]; ++t) list.push(won_families_[s][t]);
    won.push(std::move(list));
  }
  v.set("won_families", std::move(won));
  v.set("tricks_played", tricks_played_);
  v.set("total_tricks", total_tricks_);
  v.set("mc_side", mc_side_);
  v.set("mc_trick_captured", mc_trick_captured_);
  v.set("last_trick", trick_value(last_trick_.data(), last_trick_n_, -2));
  v.set("last_winner", last_winner_);
  v.set("round_points", Value::Array{round_points_[0], round_points_[1]});
  v.set("round_counts", Value::Array{round_counts_[0], round_counts_[1]});
  v.set("round_scored", round_scored_);
  return v;
}

// LC-10.2 every card this seat has not seen this round (spectators: not public).
std::vector<std::string> LaCasaGame::secret_cards(Seat seat) const {
  const CardSet known = (seat >= 0 && seat < players_) ? seen_[seat] : public_;
  std::vector<std::string> out;
  for (int c : kAllCards - known) out.push_back(card_id(c));
  return out;
}

// ---------------------------------------------------------------------------
// Public form of actions

namespace {
std::string_view kind_name(std::uint16_t kind) {
  switch (kind) {
    case kActPlay: return "play";
    case kActElect: return "elect";
    case kActPass: return "pass";
    case kActBid: return "bid";
    case kActNameFamily: return "name_family";
    case kActDiscard: return "discard";
    case kActSetAside: return "set_aside";
    case kActEliminate: return "eliminate";
    case kActNoElimination: return "no_elimination";
    case kActSteal: return "steal";
    case kActNoSteal: return "no_steal";
    case kActGive: return "give";
    case kActPassCard: return "pass_card";
    case kActReveal: return "reveal";
    case kActChooseChallenge: return "choose_challenge";
    case kActDeal: return "deal";
    default: return "";
  }
}
}  // namespace

Value LaCasaGame::encode_action(const Action& a) const {
  Value v = Value::obj({{"type", kind_name(a.kind)}});
  switch (a.kind) {
    case kActPlay:
    case kActDiscard:
    case kActEliminate:
    case kActSteal:
    case kActGive:
    case kActPassCard:
    case kActReveal: v.set("card", a.card < kDeckSize ? card_id(a.card) : "?"); break;
    case kActElect:
    case kActNameFamily: v.set("family", a.arg >= 0 && a.arg < kFamilies ? family_name(a.arg) : "?"); break;
    case kActBid: v.set("tricks", a.arg); break;
    case kActSetAside: v.set("cards", cards_value(CardSet(a.set))); break;
    case kActChooseChallenge: v.set("challenge", challenge_name(a.arg)); break;
    default: break;
  }
  return v;
}

std::optional<Error> LaCasaGame::decode_action(const Value& value, Action& out) const {
  auto bad = [](std::string why) { return Error{"malformed_action", std::move(why)}; };
  if (!value.is_object()) return bad("An action must be an object.");
  const Value* type = value.find("type");
  if (!type || !type->is_string()) return bad("An action needs a \"type\".");
  Action a;
  for (std::uint16_t k = kActPlay; k <= kActDeal; ++k)
    if (kind_name(k) == type->as_string()) a.kind = k;
  if (a.kind == 0) return bad("Unknown action type \"" + type->as_string() + "\".");
  // The keys encode_action gives each kind, and no other.
  if (auto err = check_action_fields(value, {{"play", "card"},
                                             {"elect", "family"},
                                             {"pass", ""},
                                             {"bid", "tricks"},
                                             {"name_family", "family"},
                                             {"discard", "card"},
                                             {"set_aside", "cards"},
                                             {"eliminate", "card"},
                                             {"no_elimination", ""},
                                             {"steal", "card"},
                                             {"no_steal", ""},
                                             {"give", "card"},
                                             {"pass_card", "card"},
                                             {"reveal", "card"},
                                             {"choose_challenge", "challenge"},
                                             {"deal", ""}}))
    return err;
  auto read_card = [&](std::optional<Error>& err) {
    const Value* c = value.find("card");
    std::optional<int> card;
    if (c && c->is_string()) card = parse_card(c->as_string());
    if (!card) err = bad("This action needs a \"card\" such as \"G5\".");
    return card.value_or(0);
  };
  std::optional<Error> err;
  switch (a.kind) {
    case kActPlay:
    case kActDiscard:
    case kActEliminate:
    case kActSteal:
    case kActGive:
    case kActPassCard:
    case kActReveal: a.card = static_cast<std::uint16_t>(read_card(err)); break;
    case kActElect:
    case kActNameFamily: {
      const Value* f = value.find("family");
      std::optional<int> family;
      if (f && f->is_string()) family = parse_family(f->as_string());
      if (!family) return bad("This action needs a \"family\": guns, knives, masks or fists.");
      a.arg = *family;
      break;
    }
    case kActBid: {
      const Value* t = value.find("tricks");
      if (!t || !t->is_int() || t->as_int() < 0 || t->as_int() > 64)
        return bad("A bid needs a number of \"tricks\".");
      a.arg = static_cast<int>(t->as_int());
      break;
    }
    case kActSetAside: {
      const Value* cards = value.find("cards");
      if (!cards || !cards->is_array()) return bad("set_aside needs a list of \"cards\".");
      CardSet set;
      for (const Value& c : cards->as_array()) {
        std::optional<int> card;
        if (c.is_string()) card = parse_card(c.as_string());
        if (!card || set.has(*card)) return bad("set_aside needs distinct card ids.");
        set.add(*card);
      }
      a.set = set.bits();
      break;
    }
    case kActChooseChallenge: {
      const Value* c = value.find("challenge");
      const int id = c && c->is_string() ? parse_challenge(c->as_string()) : kNoChallenge;
      if (id == kNoChallenge) return bad("choose_challenge needs a \"challenge\" name.");
      a.arg = id;
      break;
    }
    default: break;
  }
  if (err) return err;
  out = a;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// determinize: every card `seat` has not seen is dealt again at random among the
// places that hold unseen cards, each place keeping its count.

std::unique_ptr<Game> LaCasaGame::determinize(Seat seat, std::uint64_t seed) const {
  auto copy = std::make_unique<LaCasaGame>(*this);
  LaCasaGame& g = *copy;
  const bool player = seat >= 0 && seat < players_;
  const CardSet known = player ? seen_[seat] : public_;
  std::array<std::int8_t, kDeckSize> pool{};
  int pool_n = 0;
  std::array<int, 32> counts{};

  // LC-7.2 the face-down cards of the last trick are also in its winner's
  // captured cards: they are dealt as slots and put back into that set after.
  const int last_side = last_winner_ >= 0 ? side_of(last_winner_) : -1;
  for (int i = 0; i < last_trick_n_; ++i) {
    const TrickCard& e = last_trick_[i];
    if ((e.flags & kFaceDown) && e.card >= 0 && !known.has(e.card) && last_side >= 0)
      g.captured_[last_side].remove(e.card);
  }

  // Visits every place that may hold a card hidden from `seat`, in a fixed order.
  // Which places are visited must not depend on the cards in them: the second
  // visit meets the slots the first one emptied.
  auto visit = [&](auto&& on_set, auto&& on_slot) {
    int k = 0;
    for (int s = 0; s < players_; ++s) {
      if (player && s == seat) continue;
      on_set(g.hand_[s], k++);
      on_set(g.set_aside_[s], k++);
      on_slot(g.reference_[s]);
    }
    for (int s = 0; s < players_ && players_ == 2; ++s)
      for (int j = 0; j < stacks_; ++j) on_slot(g.stack_down_[s][j]);
    for (int i = 0; i < casa_size_; ++i)
      if (!(i == 0 && casa_top_up_)) on_slot(g.casa_[i]);
    on_set(g.out_, k++);
    // LC-7.2 face-down cards put into the trick, LC-7.16 commits not yet revealed.
    for (auto& e : g.trick_)
      if (e.flags & (kHidden | kFaceDown)) on_slot(e.card);
    for (int i = 0; i < last_trick_n_; ++i)
      if (g.last_trick_[i].flags & kFaceDown) on_slot(g.last_trick_[i].card);
    on_set(g.captured_[0], k++);
    on_set(g.captured_[1], k++);
  };
  visit(
      [&](CardSet& place, int k) {
        const CardSet hidden = place - known;
        counts[k] = hidden.size();
        for (int c : hidden) pool[pool_n++] = static_cast<std::int8_t>(c);
        place -= hidden;
      },
      [&](std::int8_t& slot) {
        if (slot >= 0 && !known.has(slot)) {
          pool[pool_n++] = slot;
          slot = kEmptied;
        }
      });
  // In card order first, so that the sample depends only on what `seat` knows,
  // not on where the unseen cards really are.
  std::sort(pool.begin(), pool.begin() + pool_n);
  Rng rng(seed);
  rng.shuffle(pool.data(), static_cast<std::size_t>(pool_n));
  // A Challenge's phase may deal some hidden cards first (LC-7.16).
  const ExtraPhase* extra = extra_phase();
  int next = extra && extra->determinize ? extra->determinize(g, pool.data(), pool_n) : 0;
  // The cards a Challenge sets apart at the deal (LC-7.3: the four 1s as the
  // references and, two players, out of play) are there and nowhere else;
  // everybody knows that. The unseen ones go to the hidden references first, then
  // to the cards out of play; every other place is dealt from the other unseen
  // cards. Both keep the shuffled order.
  const CardSet apart = rules().set_apart;
  const bool sets_apart = !apart.empty();
  std::array<std::int8_t, kDeckSize> ones{};
  int ones_n = 0;
  int next_one = 0;
  if (sets_apart) {
    int rest = next;
    for (int i = next; i < pool_n; ++i) {
      if (apart.has(pool[i])) ones[ones_n++] = pool[i];
      else pool[rest++] = pool[i];
    }
    pool_n = rest;
  }
  auto draw = [&](bool one) {
    if ((one || next >= pool_n) && next_one < ones_n) return ones[next_one++];
    return pool[next++];
  };
  visit(
      [&](CardSet& place, int k) {
        const bool out = sets_apart && &place == &g.out_;
        for (int i = 0; i < counts[k]; ++i) place.add(draw(out));
      },
      [&](std::int8_t& slot) {
        if (slot != kEmptied) return;
        bool reference = false;
        for (int s = 0; s < players_; ++s) reference |= &slot == &g.reference_[s];
        slot = draw(sets_apart && reference);
      });
  if (last_side >= 0) {
    for (int i = 0; i < last_trick_n_; ++i) {
      const TrickCard& e = g.last_trick_[i];
      if ((e.flags & kFaceDown) && e.card >= 0) g.captured_[last_side].add(e.card);
    }
  }
  if (g.discarded_ >= 0) g.discarded_ = g.casa_[0];
  g.mc_side_ = g.captured_[0].has(kMangiaCake) ? 0 : g.captured_[1].has(kMangiaCake) ? 1 : -1;
  // What the other seats have seen: what `seat` knows they saw, and their own cards.
  for (int s = 0; s < players_; ++s) {
    if (player && s == seat) continue;
    CardSet own = g.hand_[s] | g.set_aside_[s];
    if (g.reference_[s] >= 0) own.add(g.reference_[s]);
    if (s == g.elector_ && g.discarded_ >= 0) own.add(g.discarded_);
    for (const auto& e : g.trick_)
      if (e.card >= 0 && e.seat == s) own.add(e.card);
    for (int i = 0; i < last_trick_n_; ++i)
      if (g.last_trick_[i].card >= 0 && g.last_trick_[i].seat == s) own.add(g.last_trick_[i].card);
    g.seen_[s] = (g.seen_[s] & known) | own | g.public_;
  }
  // Future deals and the order of the Challenge deck are unknown too.
  g.seed_ = seed;
  if (g.challenge_pos_ < g.challenge_count_) {
    std::sort(g.challenge_deck_.begin() + g.challenge_pos_, g.challenge_deck_.begin() + g.challenge_count_);
    rng.shuffle(g.challenge_deck_.data() + g.challenge_pos_,
                static_cast<std::size_t>(g.challenge_count_ - g.challenge_pos_));
  }
  return copy;
}

}  // namespace casa::la_casa
