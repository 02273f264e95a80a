// SPDX-License-Identifier: AGPL-3.0-or-later
// The rule-following "robot" of La Casa: the Robot's rules of LC-8.4 extended
// to a hand, and simple fixed choices for every other decision, for the table
// game, Domination (LC-9) and the human's seat of Solo (LC-8). The choices in a
// Challenge's own phases are made in that Challenge's file (challenges/*.cpp:
// ExtraPhase::bot, Challenge::solo_bot) from the moves of bot_moves.h.
#include <span>
#include <vector>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/domination_game.h"
#include "engine/games/la_casa/la_casa.h"
#include "engine/games/la_casa/robot.h"
#include "engine/games/la_casa/solo_game.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

namespace {

// The highest-valued card of `cards` (equal values: the lowest card index).
int highest(CardSet cards) {
  int best = -1;
  for (int c : cards)
    if (best < 0 || card_value(c) > card_value(best)) best = c;
  return best;
}

}  // namespace

int lowest_card(CardSet cards) {
  int best = -1;
  for (int c : cards)
    if (best < 0 || card_value(c) < card_value(best)) best = c;
  return best;
}

Action card_action(std::uint16_t kind, int card) {
  Action a;
  a.kind = kind;
  a.card = static_cast<std::uint16_t>(card);
  return a;
}

// LC-8.4 rules 1-3 for a hand.
int robot_trick_card(const LaCasaGame& g, Seat seat) {
  const CardSet legal = g.legal_plays(seat);
  const int lead = g.lead_family();
  if (g.trick_size() == 0 || lead == kNoFamily) return highest(legal);  // rule 1
  const CardSet follow = legal & counted_family_cards(lead, g.ruling_family());
  if (!follow.empty()) {
    const int top = highest(follow);  // rule 2
    return g.would_win(seat, top) ? top : lowest_card(follow);
  }
  const CardSet ruling = legal & counted_family_cards(g.ruling_family(), g.ruling_family());
  if (!ruling.empty()) return highest(ruling);  // rule 3
  return lowest_card(legal);
}

Action decline(std::span<const Action> legal) {
  for (const Action& a : legal) {
    if (a.kind == kActPass || a.kind == kActNoElimination || a.kind == kActNoSteal) return a;
  }
  return legal[0];
}

Action family_held_most(std::span<const Action> legal, CardSet hand) {
  int best = legal[0].arg, best_count = -1;
  for (const Action& a : legal) {
    const int count = (hand & family_cards(a.arg)).size();
    if (count > best_count) best = a.arg, best_count = count;
  }
  Action a = legal[0];
  a.arg = best;
  return a;
}

namespace {

// The listed action of `kind` with `card` (or with `arg`), if there is one.
const Action* find_card(const std::vector<Action>& legal, std::uint16_t kind, int card) {
  for (const Action& a : legal)
    if (a.kind == kind && a.card == card) return &a;
  return nullptr;
}
const Action* find_arg(const std::vector<Action>& legal, std::uint16_t kind, int arg) {
  for (const Action& a : legal)
    if (a.kind == kind && a.arg == arg) return &a;
  return nullptr;
}

// How many cards of `family` `hand` holds, the Mangia-Cake counted as it would be
// once that family rules (LC-2.2).
int holding(CardSet hand, int family) {
  return (hand & counted_family_cards(family, family)).size();
}

// Among the listed actions of `kind`, the family `hand` holds most of (ties: the
// first listed); nullptr if none is listed.
const Action* strongest_listed(std::span<const Action> legal, std::uint16_t kind, CardSet hand) {
  const Action* best = nullptr;
  for (const Action& a : legal) {
    if (a.kind != kind) continue;
    if (!best || holding(hand, a.arg) > holding(hand, best->arg)) best = &a;
  }
  return best;
}

// An Election (LC-6.3, LC-6.5, LC-9.2): elect the strongest family on offer when
// holding at least three of it; otherwise pass, unless passing is not listed (the
// dealer of round two must elect).
Action election_choice(const std::vector<Action>& legal, std::uint16_t elect, std::uint16_t pass,
                       CardSet hand) {
  constexpr int kEnoughToElect = 3;
  const Action* best = strongest_listed(legal, elect, hand);
  const Action* passing = find_arg(legal, pass, 0);
  if (best && (holding(hand, best->arg) >= kEnoughToElect || !passing)) return *best;
  return passing ? *passing : legal.at(0);
}

// A face-up card worth taking in Domination (LC-9.3): of the Ruling Family (the
// Mangia-Cake included) or a 7 or more.
bool worth_taking(int card, int ruling) {
  constexpr int kHighCard = 7;
  if (card < 0) return false;
  return (ruling != kNoFamily && counted_family_cards(ruling, ruling).has(card)) ||
         card_value(card) >= kHighCard;
}

// LC-8.4 for a hand in Domination or Solo; the first listed play should the
// choice not be listed (it always is: the rules only follow when able).
Action robot_play(const std::vector<Action>& legal, std::uint16_t kind, const RobotSituation& s) {
  if (s.playable.empty()) return legal.at(0);
  const Action* a = find_card(legal, kind, robot_choose(s));
  return a ? *a : legal.at(0);
}

Action domination_action(const DominationGame& g, Seat seat, const std::vector<Action>& legal) {
  using D = DominationGame;
  switch (g.phase()) {
    case D::kElect: return election_choice(legal, D::kElectFamily, D::kPass, g.hand(seat));
    case D::kPlay: return robot_play(legal, D::kPlayCard, g.robot_situation(seat));
    case D::kChoosePile: {
      const int pile = worth_taking(g.face_up_card(), g.ruling_family()) ? D::kFaceUpPile
                                                                          : D::kStockPile;
      const Action* a = find_arg(legal, D::kTakePile, pile);
      return a ? *a : legal.at(0);
    }
    case D::kRoundOver:
    case D::kOver: break;
  }
  return legal.at(0);  // deal
}

Action solo_action(const SoloGame& g, const std::vector<Action>& legal) {
  using S = SoloGame;
  switch (g.phase()) {
    case S::kNameCousins: {
      // Entered only by a Challenge that makes the human name the Cousins.
      const Challenge& c = challenge(g.round_challenge());
      return c.solo_bot ? c.solo_bot(g, legal) : legal.at(0);
    }
    case S::kPlay: return robot_play(legal, S::kPlayCard, g.robot_situation());
    case S::kRoundOver:
    case S::kOver: break;
  }
  return legal.at(0);  // deal
}

}  // namespace

Action strongest_family(std::span<const Action> legal, std::uint16_t kind, CardSet hand) {
  const Action* a = strongest_listed(legal, kind, hand);
  return a ? *a : legal[0];
}

Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  thread_local std::vector<Action> legal;  // no allocation per call (search rollouts)
  game.legal_actions(seat, legal);
  if (legal.empty()) return legal.at(0);
  if (const auto* domination = dynamic_cast<const DominationGame*>(&game))
    return domination_action(*domination, seat, legal);
  if (const auto* solo = dynamic_cast<const SoloGame*>(&game)) return solo_action(*solo, legal);
  const auto* table = dynamic_cast<const LaCasaGame*>(&game);
  if (!table) return legal.at(0);
  const LaCasaGame& g = *table;
  switch (g.phase()) {
    case Phase::kPlay: return card_action(kActPlay, robot_trick_card(g, seat));
    case Phase::kElectionDiscard: return card_action(kActDiscard, lowest_card(g.hand(seat)));
    default: break;
  }
  // A phase of the round's Challenge: its own file chooses.
  for (const ExtraPhase& p : challenge(g.challenge()).phases) {
    if (p.phase == g.phase() && p.bot) return p.bot(g, seat, legal);
  }
  // Elsewhere (the Election, the sticky choice): pass, or the first listed.
  return decline(legal);
}

}  // namespace casa::la_casa