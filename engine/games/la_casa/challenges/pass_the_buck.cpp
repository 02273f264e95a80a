// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.14 Pass the Buck (four players): right after playing a card to a trick, a
// player with two or more cards left passes one to the left (LC-11.9), in a
// passing phase of its own.
#include <span>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain_card;

template <>
struct ChallengeRules<kPassTheBuck> {
  // LC-7.14 / LC-11.9 Pass the Buck: with two or more cards left, pass one left.
  static bool after_play(LaCasaGame& g, Seat s, std::vector<Event>*) {
    const std::uint64_t b = g.hand_[s].bits();
    if ((b & (b - 1)) == 0) return false;  // fewer than two cards
    g.phase_ = Phase::kPassCard;
    g.actor_ = s;
    return true;
  }

  static void legal(const LaCasaGame& g, Seat seat, ActionSink& out) {
    for (int c : g.hand_[seat]) out.push(kActPassCard, c);
  }

  static std::optional<Error> check(const LaCasaGame& g, Seat seat, const Action& a) {
    if (a.kind != kActPassCard || !plain_card(a)) return g.wrong_decision();
    if (!g.hand_[seat].has(a.card)) return illegal("Pass a card from your hand.");
    return std::nullopt;
  }

  // LC-7.14 the card goes to the left neighbour's hand: only the two of them see it.
  static void apply(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    const Seat to = g.left_of(seat);
    g.hand_[seat].remove(a.card);
    g.hand_[to].add(a.card);
    g.seen_[to].add(a.card);
    if (events) {
      const SeatMask pair = seat_bit(seat) | seat_bit(to);
      g.emit_to(events, pair, Value::obj({{"type", "pass_card"}, {"seat", seat}, {"to", to},
                                          {"card", card_id(a.card)}}));
      g.emit_to(events, ((SeatMask{1} << g.players_) - 1) & ~pair,
                Value::obj({{"type", "pass_card"}, {"seat", seat}, {"to", to}}));
      events->back().spectators = true;
    }
    g.next_player(events);
  }

  // The robot passes its lowest card.
  static Action bot(const LaCasaGame& g, Seat seat, std::span<const Action>) {
    return card_action(kActPassCard, lowest_card(g.hand(seat)));
  }
};

namespace {
constexpr ExtraPhase kPassTheBuckPhases[] = {
    {.phase = Phase::kPassCard,
     .name = "pass_card",
     .legal = &ChallengeRules<kPassTheBuck>::legal,
     .check = &ChallengeRules<kPassTheBuck>::check,
     .apply = &ChallengeRules<kPassTheBuck>::apply,
     .bot = &ChallengeRules<kPassTheBuck>::bot},
};
}  // namespace

extern const Challenge kPassTheBuckChallenge;
const Challenge kPassTheBuckChallenge{
    .id = kPassTheBuck,
    .name = "pass_the_buck",
    .four_players = true,
    .after_play = &ChallengeRules<kPassTheBuck>::after_play,
    .phases = kPassTheBuckPhases,
};

}  // namespace casa::la_casa
