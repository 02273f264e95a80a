// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.8 The Club (four players): once the Ruling Family is known, each player in
// turn sets aside up to two hand cards, which return once the hand is empty
// (LC-11.8). The set-aside phase is checked and applied by the table game.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kTheClub> {
  static bool before_play(TableGame& g) {
    const SeatMask all = (SeatMask{1} << g.players_) - 1;
    if (g.club_done_ == all) return false;
    // LC-7.8 / LC-11.8 from the dealer's left, after any election discard.
    g.phase_ = Phase::kClubSetAside;
    g.actor_ = g.left_of(g.dealer_);
    for (int i = 0; i < g.players_ && (g.club_done_ & seat_bit(g.actor_)); ++i)
      g.actor_ = g.left_of(g.actor_);
    return true;
  }

  // LC-7.8 / LC-11.8 The Club: set-aside cards return once the hand is empty.
  static bool after_play(TableGame& g, Seat s, std::vector<Event>* events) {
    if (g.hand_[s].empty() && !g.set_aside_[s].empty()) {
      g.hand_[s] = g.set_aside_[s];
      if (events)
        g.emit(events,
               Value::obj({{"type", "take_back"}, {"seat", s}, {"count", g.set_aside_[s].size()}}));
      g.set_aside_[s] = CardSet();
    }
    return false;
  }
};

extern const Challenge kTheClubChallenge;
const Challenge kTheClubChallenge{
    .id = kTheClub,
    .name = "the_club",
    .four_players = true,
    .before_play = &ChallengeRules<kTheClub>::before_play,
    .after_play = &ChallengeRules<kTheClub>::after_play,
};

}  // namespace casa::la_casa
