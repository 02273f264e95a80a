// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.5 Capitano: two more cards each; no Ruling Family at the start; a 5 played
// makes its family the Ruling Family at once (LC-11.2); most tricks scores.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"
#include "engine/games/la_casa/trick.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kCapitano> {
  // LC-7.5 / LC-11.2 the Ruling Family once `card` is played (trick.h says which cards).
  static int ruling_after(int card, int ruling) { return trick::ruling_after(card, ruling, true); }

  // LC-7.5 / LC-11.2 Capitano: a 5 makes its family the Ruling Family at once.
  static bool on_play(LaCasaGame& g, Seat s, int card, std::vector<Event>* events) {
    if (!trick::capitano_sets_ruling(card)) return false;
    g.ruling_ = ruling_after(card, g.ruling_);
    if (events)
      g.emit(
          events,
          Value::obj({{"type", "ruling_family"}, {"seat", s}, {"family", family_name(g.ruling_)}}));
    return false;
  }

  // LC-7.5 most tricks scores 1.
  static int tricks(CardSet, int tricks) { return tricks; }
};

extern const Challenge kCapitanoChallenge;
const Challenge kCapitanoChallenge{
    .id = kCapitano,
    .name = "capitano",
    .four_players = true,
    .two_players = true,
    .solo = true,
    // LC-4.3 two more cards each.
    .deals_two_more = true,
    // LC-7.5 no Selection: no Ruling Family at the start.
    .selection = false,
    .on_play = &ChallengeRules<kCapitano>::on_play,
    .ruling_after = &ChallengeRules<kCapitano>::ruling_after,
    .tally = &ChallengeRules<kCapitano>::tricks,
    .tally_most = true,
};

}  // namespace casa::la_casa
