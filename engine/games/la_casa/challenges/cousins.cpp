// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.9 Cousins: after the Selection a player names a second family, the Cousins,
// that beats every family but the Ruling one (LC-2.5, LC-11.11), in a naming
// phase of its own (Solo names them its own way, solo_game.cpp).
#include <span>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/solo_game.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain_arg;

template <>
struct ChallengeRules<kCousins> {
  static bool before_play(LaCasaGame& g) {
    if (g.cousins_ != kNoFamily) return false;
    // LC-7.9 the dealer's left (the elector's left after an Election) names the Cousins.
    g.phase_ = Phase::kNameCousins;
    g.actor_ = g.left_of(g.elector_ >= 0 ? g.elector_ : g.dealer_);
    return true;
  }

  // LC-7.9 any family but the Ruling one.
  static void legal(const LaCasaGame& g, Seat, ActionSink& out) {
    for (int f = 0; f < kFamilies; ++f)
      if (f != g.ruling_) out.push(kActNameFamily, 0, f);
  }

  static std::optional<Error> check(const LaCasaGame& g, Seat, const Action& a) {
    if (a.kind != kActNameFamily || !plain_arg(a) || a.arg < 0 || a.arg >= kFamilies)
      return g.wrong_decision();
    if (a.arg == g.ruling_) return illegal("The Cousins cannot be the Ruling Family.");
    return std::nullopt;
  }

  static void apply(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    g.cousins_ = a.arg;
    if (events)
      g.emit(events, Value::obj({{"type", "cousins"}, {"seat", seat},
                                 {"family", family_name(a.arg)}}));
    g.after_ruling(events);
  }

  // The robot names the family it holds most cards of; in Solo, counting the
  // Mangia-Cake as it would be once that family rules.
  static Action bot(const LaCasaGame& g, Seat seat, std::span<const Action> legal) {
    return family_held_most(legal, g.hand(seat));
  }
  static Action solo_bot(const SoloGame& g, std::span<const Action> legal) {
    return strongest_family(legal, SoloGame::kNameFamily, g.hand());
  }
};

namespace {
constexpr ExtraPhase kCousinsPhases[] = {
    {.phase = Phase::kNameCousins,
     .name = "name_cousins",
     .legal = &ChallengeRules<kCousins>::legal,
     .check = &ChallengeRules<kCousins>::check,
     .apply = &ChallengeRules<kCousins>::apply,
     .bot = &ChallengeRules<kCousins>::bot},
};
}  // namespace

extern const Challenge kCousinsChallenge;
const Challenge kCousinsChallenge{
    .id = kCousins,
    .name = "cousins",
    .four_players = true,
    .two_players = true,
    .solo = true,
    .before_play = &ChallengeRules<kCousins>::before_play,
    .phases = kCousinsPhases,
    // LC-8.5 / LC-11.11 in Solo the human names the Cousins.
    .solo_names_cousins = true,
    .solo_bot = &ChallengeRules<kCousins>::solo_bot,
};

}  // namespace casa::la_casa
