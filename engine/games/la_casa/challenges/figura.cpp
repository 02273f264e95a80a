// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.10 Figura: no Selection; the players bid for the number of tricks their
// side will take (LC-11.17), the highest bidder names the Ruling Family and leads;
// the bidding side scores 1 if it takes at least its bid. The bidding and naming
// phases are checked and applied by the table game.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"
#include "engine/view_writer.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kFigura> {
  // LC-7.10 the dealer opens the bidding.
  static void open_round(TableGame& g, std::vector<Event>*) {
    g.bid_ = 0;
    g.bidder_ = -1;
    g.passed_ = 0;
    g.phase_ = Phase::kBidding;
    g.actor_ = g.dealer_;
  }

  // LC-7.10 the highest bidder leads.
  static int leader(const TableGame& g) { return g.bidder_; }

  // LC-7.10 the bidding side scores 1 with at least its bid.
  static void score(TableGame& g, std::array<int, 2>& points) {
    g.round_counts_ = g.tricks_won_;
    if (g.tricks_won_[g.side_of(g.bidder_)] >= g.bid_) points[g.side_of(g.bidder_)] = 1;
  }

  // The bidding, for everyone.
  static void view(const TableGame& g, Seat, bool, ViewWriter& v) {
    v.key("bidding");
    v.begin_object(3);
    v.member("bid", g.bid_);
    v.member("bidder", g.bidder_);
    v.key("passed");
    v.begin_array(static_cast<std::size_t>(g.players_));
    for (int s = 0; s < g.players_; ++s)
      if (g.passed_ & seat_bit(s)) v.integer(s);
    v.end_array();
    v.end_object();
  }
};

extern const Challenge kFiguraChallenge;
const Challenge kFiguraChallenge{
    .id = kFigura,
    .name = "figura",
    .four_players = true,
    .two_players = true,
    // LC-7.10 no Selection: the bidding names the Ruling Family.
    .selection = false,
    .open_round = &ChallengeRules<kFigura>::open_round,
    .leader = &ChallengeRules<kFigura>::leader,
    .score = &ChallengeRules<kFigura>::score,
    .view_after_casa = &ChallengeRules<kFigura>::view,
};

}  // namespace casa::la_casa
