// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.7 Cards on the Table (four players): after playing to a trick, a player
// puts one hand card face up in front of them (LC-11.7); face-up cards may be
// played like hand cards. The reveal is a phase of its own.
#include <span>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain_card;

template <>
struct ChallengeRules<kCardsOnTheTable> {
  // LC-7.7 / LC-11.7 Cards on the Table: one hand card goes face up.
  static bool after_play(LaCasaGame& g, Seat s, std::vector<Event>*) {
    if (g.hand_[s].empty()) return false;
    g.phase_ = Phase::kReveal;
    g.actor_ = s;
    return true;
  }

  static void legal(const LaCasaGame& g, Seat seat, ActionSink& out) {
    for (int c : g.hand_[seat]) out.push(kActReveal, c);
  }

  static std::optional<Error> check(const LaCasaGame& g, Seat seat, const Action& a) {
    if (a.kind != kActReveal || !plain_card(a)) return g.wrong_decision();
    if (!g.hand_[seat].has(a.card)) return illegal("Put a card from your hand face up.");
    return std::nullopt;
  }

  // LC-7.7 the card goes face up in front of its player, for everyone to see.
  static void apply(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    g.hand_[seat].remove(a.card);
    g.face_up_[seat].add(a.card);
    g.make_public(a.card);
    if (events)
      g.emit(events, Value::obj({{"type", "reveal"}, {"seat", seat}, {"card", card_id(a.card)}}));
    g.next_player(events);
  }

  // The robot shows its lowest card.
  static Action bot(const LaCasaGame& g, Seat seat, std::span<const Action>) {
    return card_action(kActReveal, lowest_card(g.hand(seat)));
  }
};

namespace {
constexpr ExtraPhase kCardsOnTheTablePhases[] = {
    {.phase = Phase::kReveal,
     .name = "reveal",
     .legal = &ChallengeRules<kCardsOnTheTable>::legal,
     .check = &ChallengeRules<kCardsOnTheTable>::check,
     .apply = &ChallengeRules<kCardsOnTheTable>::apply,
     .bot = &ChallengeRules<kCardsOnTheTable>::bot},
};
}  // namespace

extern const Challenge kCardsOnTheTableChallenge;
const Challenge kCardsOnTheTableChallenge{
    .id = kCardsOnTheTable,
    .name = "cards_on_the_table",
    .four_players = true,
    .after_play = &ChallengeRules<kCardsOnTheTable>::after_play,
    .phases = kCardsOnTheTablePhases,
};

}  // namespace casa::la_casa
