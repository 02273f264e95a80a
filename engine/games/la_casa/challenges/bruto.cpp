// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.4 Bruto (four players): when a Bruto is played, its player may eliminate
// another card still in the trick (LC-11.3), in an elimination phase of its own.
#include <span>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain;
using table_action::plain_card;

template <>
struct ChallengeRules<kBruto> {
  // LC-7.4 / LC-11.3 Bruto: a Bruto may eliminate another card still in the trick.
  static bool on_play(LaCasaGame& g, Seat s, int card, std::vector<Event>*) {
    if (!kBrutos.has(card)) return false;
    for (int i = 0; i + 1 < g.trick_n_; ++i) {
      if (!(g.trick_[i].flags & LaCasaGame::kEliminated)) {
        g.phase_ = Phase::kEliminate;
        g.actor_ = s;
        return true;
      }
    }
    return false;
  }

  // LC-11.3 elimination is optional: any other card still in the trick.
  static void legal(const LaCasaGame& g, Seat, ActionSink& out) {
    out.push(kActNoElimination);
    for (int i = 0; i + 1 < g.trick_n_; ++i)
      if (!(g.trick_[i].flags & LaCasaGame::kEliminated)) out.push(kActEliminate, g.trick_[i].card);
  }

  static std::optional<Error> check(const LaCasaGame& g, Seat, const Action& a) {
    if (a.kind == kActNoElimination && plain(a)) return std::nullopt;
    if (a.kind != kActEliminate || !plain_card(a)) return g.wrong_decision();
    for (int i = 0; i + 1 < g.trick_n_; ++i)
      if (g.trick_[i].card == a.card && !(g.trick_[i].flags & LaCasaGame::kEliminated))
        return std::nullopt;
    return illegal("That card is not in the trick.");
  }

  // LC-7.4 the eliminated card goes out of play (LC-4.7); then the next player.
  static void apply(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    if (a.kind == kActEliminate) {
      for (int i = 0; i + 1 < g.trick_n_; ++i) {
        if (g.trick_[i].card == a.card) {
          g.trick_[i].flags |= LaCasaGame::kEliminated;
          g.out_.add(a.card);  // LC-4.7
        }
      }
      if (events)
        g.emit(events, Value::obj({{"type", "eliminate"}, {"seat", seat},
                                   {"card", card_id(a.card)}}));
    } else if (events) {
      g.emit(events, Value::obj({{"type", "no_elimination"}, {"seat", seat}}));
    }
    g.after_play(seat, events);
  }

  // The robot eliminates nothing.
  static Action bot(const LaCasaGame&, Seat, std::span<const Action> legal) { return decline(legal); }
};

namespace {
constexpr ExtraPhase kBrutoPhases[] = {
    {.phase = Phase::kEliminate,
     .name = "eliminate",
     .legal = &ChallengeRules<kBruto>::legal,
     .check = &ChallengeRules<kBruto>::check,
     .apply = &ChallengeRules<kBruto>::apply,
     .bot = &ChallengeRules<kBruto>::bot},
};
}  // namespace

extern const Challenge kBrutoChallenge;
const Challenge kBrutoChallenge{
    .id = kBruto,
    .name = "bruto",
    .four_players = true,
    .on_play = &ChallengeRules<kBruto>::on_play,
    .phases = kBrutoPhases,
};

}  // namespace casa::la_casa
