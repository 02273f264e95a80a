// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.8 The Club (four players): once the Ruling Family is known, each player in
// turn sets aside up to two hand cards, which return once the hand is empty
// (LC-11.8). The set-aside is a phase of its own.
#include <span>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain;

template <>
struct ChallengeRules<kTheClub> {
  static bool before_play(LaCasaGame& g) {
    const SeatMask all = (SeatMask{1} << g.players_) - 1;
    if (g.club_done_ == all) return false;
    // LC-7.8 / LC-11.8 from the dealer's left, after any election discard.
    g.phase_ = Phase::kClubSetAside;
    g.actor_ = g.left_of(g.dealer_);
    for (int i = 0; i < g.players_ && (g.club_done_ & seat_bit(g.actor_)); ++i)
      g.actor_ = g.left_of(g.actor_);
    return true;
  }

  // LC-7.8 up to two hand cards: none, one, or any two.
  static void legal(const LaCasaGame& g, Seat seat, ActionSink& out) {
    out.push(kActSetAside);
    const CardSet h = g.hand_[seat];
    for (int a : h) out.push(kActSetAside, 0, 0, CardSet::of(a).bits());
    for (int a : h)
      for (int b : h)
        if (a < b) out.push(kActSetAside, 0, 0, (CardSet::of(a) | CardSet::of(b)).bits());
  }

  static std::optional<Error> check(const LaCasaGame& g, Seat seat, const Action& a) {
    if (a.kind != kActSetAside || !plain(Action{0, 0, 0, 0, a.set2}) || a.card != 0 || a.arg != 0)
      return g.wrong_decision();
    const CardSet s(a.set);
    if (s.size() > 2) return illegal("You may set aside at most two cards.");
    if (!(s - g.hand_[seat]).empty())
      return illegal("You can only set aside cards from your hand.");
    return std::nullopt;
  }

  // LC-7.8 the cards set aside are seen by their player only; the others learn how many.
  static void apply(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    const CardSet s(a.set);
    g.hand_[seat] -= s;
    g.set_aside_[seat] |= s;
    g.club_done_ |= seat_bit(seat);
    if (events) {
      Value cards = Value::array();
      for (int c : s) cards.push(card_id(c));
      g.emit_to(events, seat_bit(seat),
                Value::obj({{"type", "set_aside"}, {"seat", seat}, {"cards", std::move(cards)}}));
      g.emit_to(events, ((SeatMask{1} << g.players_) - 1) & ~seat_bit(seat),
                Value::obj({{"type", "set_aside"}, {"seat", seat}, {"count", s.size()}}));
      events->back().spectators = true;
    }
    g.after_ruling(events);
  }

  // LC-7.8 / LC-11.8 The Club: set-aside cards return once the hand is empty.
  static bool after_play(LaCasaGame& g, Seat s, std::vector<Event>* events) {
    if (g.hand_[s].empty() && !g.set_aside_[s].empty()) {
      g.hand_[s] = g.set_aside_[s];
      if (events)
        g.emit(events,
               Value::obj({{"type", "take_back"}, {"seat", s}, {"count", g.set_aside_[s].size()}}));
      g.set_aside_[s] = CardSet();
    }
    return false;
  }

  // The robot makes the first listed choice.
  static Action bot(const LaCasaGame&, Seat, std::span<const Action> legal) { return decline(legal); }
};

namespace {
constexpr ExtraPhase kTheClubPhases[] = {
    {.phase = Phase::kClubSetAside,
     .name = "set_aside",
     .legal = &ChallengeRules<kTheClub>::legal,
     .check = &ChallengeRules<kTheClub>::check,
     .apply = &ChallengeRules<kTheClub>::apply,
     .bot = &ChallengeRules<kTheClub>::bot},
};
}  // namespace

extern const Challenge kTheClubChallenge;
const Challenge kTheClubChallenge{
    .id = kTheClub,
    .name = "the_club",
    .four_players = true,
    .before_play = &ChallengeRules<kTheClub>::before_play,
    .after_play = &ChallengeRules<kTheClub>::after_play,
    .phases = kTheClubPhases,
};

}  // namespace casa::la_casa
