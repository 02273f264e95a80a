// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.2 Bandits: after a trick is resolved, each Bruto's player may take a card
// from the trick and put one of their own face down in its place (LC-11.4), in a
// steal phase and a give phase of their own.
//
// Rule choice: a face-down card put into a trick is known to its placer only (if
// it came from a face-up tableau it was public already).
#include <span>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain;
using table_action::plain_card;

template <>
struct ChallengeRules<kBandits> {
  // LC-7.2 / LC-11.4 Bandits, in reverse order of play: each Bruto's player may steal.
  static void next_bandit(LaCasaGame& g, int from, std::vector<Event>* events) {
    for (int i = from; i >= 0; --i) {
      const TrickCard& e = g.trick_[i];
      if ((e.flags & LaCasaGame::kFaceDown) || !kBrutos.has(e.card)) continue;
      for (int j = 0; j < g.trick_n_; ++j) {
        if (j == i || (g.trick_[j].flags & LaCasaGame::kFaceDown) || kBrutos.has(g.trick_[j].card))
          continue;
        g.bandit_ = i;
        g.phase_ = Phase::kSteal;
        g.actor_ = e.seat;
        return;
      }
    }
    g.bandit_ = -1;
    g.finish_trick(events);
  }

  // The winner is fixed (LC-11.4): the bandits act from the last card played.
  static bool after_resolve(LaCasaGame& g, std::vector<Event>* events) {
    next_bandit(g, g.trick_n_ - 1, events);
    return true;
  }

  // A bandit has stolen and given, or declined: the next one before them.
  static void resume(LaCasaGame& g, std::vector<Event>* events) {
    next_bandit(g, g.bandit_ - 1, events);
  }

  // LC-11.4 a bandit may take only a face-up card still in the trick, not a Bruto.
  static void steal_legal(const LaCasaGame& g, Seat, ActionSink& out) {
    out.push(kActNoSteal);
    for (int j = 0; j < g.trick_n_; ++j) {
      if (j == g.bandit_ || (g.trick_[j].flags & LaCasaGame::kFaceDown) ||
          kBrutos.has(g.trick_[j].card))
        continue;
      out.push(kActSteal, g.trick_[j].card);
    }
  }

  static std::optional<Error> steal_check(const LaCasaGame& g, Seat, const Action& a) {
    if (a.kind == kActNoSteal && plain(a)) return std::nullopt;
    if (a.kind != kActSteal || !plain_card(a)) return g.wrong_decision();
    for (int j = 0; j < g.trick_n_; ++j) {
      if (j == g.bandit_ || g.trick_[j].card != a.card) continue;
      if (g.trick_[j].flags & LaCasaGame::kFaceDown) break;
      if (kBrutos.has(a.card)) return illegal("A bandit cannot take a Bruto.");
      return std::nullopt;
    }
    return illegal("That card cannot be taken from the trick.");
  }

  // LC-7.2 the stolen card goes to the bandit's hand; then they give one.
  static void steal(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    if (a.kind == kActNoSteal) {
      if (events) g.emit(events, Value::obj({{"type", "no_steal"}, {"seat", seat}}));
      resume(g, events);
      return;
    }
    for (int j = 0; j < g.trick_n_; ++j) {
      if (j != g.bandit_ && g.trick_[j].card == a.card) {
        g.stolen_ = j;
        g.trick_[j].card = -1;
        g.trick_[j].flags = 0;
      }
    }
    g.hand_[seat].add(a.card);
    if (events)
      g.emit(events, Value::obj({{"type", "steal"}, {"seat", seat}, {"card", card_id(a.card)}}));
    g.phase_ = Phase::kGive;
  }

  // LC-7.2 a card from the hand or the face-up tableau goes face down in its place.
  static void give_legal(const LaCasaGame& g, Seat seat, ActionSink& out) {
    for (int c : g.hand_[seat] | g.tableau_up(seat)) out.push(kActGive, c);
  }

  static std::optional<Error> give_check(const LaCasaGame& g, Seat seat, const Action& a) {
    if (a.kind != kActGive || !plain_card(a)) return g.wrong_decision();
    if (!(g.hand_[seat] | g.tableau_up(seat)).has(a.card))
      return illegal("Put a card from your hand or face-up tableau into the trick.");
    return std::nullopt;
  }

  static void give(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    std::uint8_t flags = LaCasaGame::kFaceDown;
    g.remove_from_play_area(seat, a.card, &flags);
    g.trick_[g.stolen_] = TrickCard{static_cast<std::int8_t>(seat),
                                    static_cast<std::int8_t>(a.card), flags};
    g.stolen_ = -1;
    if (events) {
      g.emit_to(events, seat_bit(seat),
                Value::obj({{"type", "give"}, {"seat", seat}, {"card", card_id(a.card)}}));
      g.emit_to(events, ((SeatMask{1} << g.players_) - 1) & ~seat_bit(seat),
                Value::obj({{"type", "give"}, {"seat", seat},
                            {"from", (flags & LaCasaGame::kFromTableau) ? "tableau" : "hand"}}));
      events->back().spectators = true;
    }
    resume(g, events);
  }

  // The robot steals nothing, and puts down its lowest card (from the cards it
  // may play once its hand is empty).
  static Action steal_bot(const LaCasaGame&, Seat, std::span<const Action> legal) {
    return decline(legal);
  }
  static Action give_bot(const LaCasaGame& g, Seat seat, std::span<const Action>) {
    return card_action(kActGive, lowest_card(g.hand(seat).empty() ? g.playable(seat) : g.hand(seat)));
  }
};

namespace {
constexpr ExtraPhase kBanditsPhases[] = {
    {.phase = Phase::kSteal,
     .name = "steal",
     .legal = &ChallengeRules<kBandits>::steal_legal,
     .check = &ChallengeRules<kBandits>::steal_check,
     .apply = &ChallengeRules<kBandits>::steal,
     .bot = &ChallengeRules<kBandits>::steal_bot},
    {.phase = Phase::kGive,
     .name = "give",
     .legal = &ChallengeRules<kBandits>::give_legal,
     .check = &ChallengeRules<kBandits>::give_check,
     .apply = &ChallengeRules<kBandits>::give,
     .bot = &ChallengeRules<kBandits>::give_bot},
};
}  // namespace

extern const Challenge kBanditsChallenge;
const Challenge kBanditsChallenge{
    .id = kBandits,
    .name = "bandits",
    .four_players = true,
    .two_players = true,
    .after_resolve = &ChallengeRules<kBandits>::after_resolve,
    .phases = kBanditsPhases,
};

}  // namespace casa::la_casa
