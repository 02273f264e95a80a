// The rule-following "robot" of the La Casa table game: the Robot's rules of
// LC-8.4 extended to a hand, and simple fixed choices for every other decision.
// Solo and Domination games are other classes; for them it plays the first legal
// action.
#include <vector>

#include "engine/games/la_casa/la_casa.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

namespace {

// The highest-valued card of `cards` (equal values: the lowest card index).
int highest(CardSet cards) {
  int best = -1;
  for (int c : cards)
    if (best < 0 || card_value(c) > card_value(best)) best = c;
  return best;
}

int lowest(CardSet cards) {
  int best = -1;
  for (int c : cards)
    if (best < 0 || card_value(c) < card_value(best)) best = c;
  return best;
}

Action with_card(std::uint16_t kind, int card) {
  Action a;
  a.kind = kind;
  a.card = static_cast<std::uint16_t>(card);
  return a;
}

// LC-8.4 rules 1-3 for a hand.
int choose_play(const TableGame& g, Seat seat) {
  const CardSet legal = g.legal_plays(seat);
  const int lead = g.lead_family();
  if (g.trick_size() == 0 || lead == kNoFamily) return highest(legal);  // rule 1
  const CardSet follow = legal & counted_family_cards(lead, g.ruling_family());
  if (!follow.empty()) {
    const int top = highest(follow);  // rule 2
    return g.would_win(seat, top) ? top : lowest(follow);
  }
  const CardSet ruling = legal & counted_family_cards(g.ruling_family(), g.ruling_family());
  if (!ruling.empty()) return highest(ruling);  // rule 3
  return lowest(legal);
}

}  // namespace

Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  const auto* table = dynamic_cast<const TableGame*>(&game);
  if (!table || legal.empty()) return legal.at(0);
  const TableGame& g = *table;
  switch (g.phase()) {
    case Phase::kPlay:
    case Phase::kSlapFollow: return with_card(kActPlay, choose_play(g, seat));
    case Phase::kElectionDiscard: return with_card(kActDiscard, lowest(g.hand(seat)));
    case Phase::kReveal: return with_card(kActReveal, lowest(g.hand(seat)));
    case Phase::kPassCard: return with_card(kActPassCard, lowest(g.hand(seat)));
    case Phase::kGive: return with_card(kActGive, lowest(g.hand(seat).empty() ? g.playable(seat)
                                                                               : g.hand(seat)));
    case Phase::kNameCousins:
    case Phase::kNameRuling: {
      // The family it holds most of (ties: the first).
      int best = legal[0].arg, best_count = -1;
      for (const Action& a : legal) {
        const int count = (g.hand(seat) & family_cards(a.arg)).size();
        if (count > best_count) best = a.arg, best_count = count;
      }
      Action a = legal[0];
      a.arg = best;
      return a;
    }
    default: break;
  }
  // Elsewhere: pass, keep everything, eliminate or steal nothing, bid the minimum.
  for (const Action& a : legal) {
    if (a.kind == kActPass || a.kind == kActNoElimination || a.kind == kActNoSteal) return a;
  }
  return legal[0];
}

}  // namespace casa::la_casa
