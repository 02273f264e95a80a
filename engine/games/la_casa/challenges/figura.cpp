// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.10 Figura: no Selection; the players bid for the number of tricks their
// side will take (LC-11.17), the highest bidder names the Ruling Family and leads;
// the bidding side scores 1 if it takes at least its bid. The bidding and the
// naming are phases of their own.
#include <span>
#include <string>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"
#include "engine/view_writer.h"

namespace casa::la_casa {

using table_action::illegal;
using table_action::plain;
using table_action::plain_arg;

template <>
struct ChallengeRules<kFigura> {
  // LC-7.10 the dealer opens the bidding.
  static void open_round(LaCasaGame& g, std::vector<Event>*) {
    g.bid_ = 0;
    g.bidder_ = -1;
    g.passed_ = 0;
    g.phase_ = Phase::kBidding;
    g.actor_ = g.dealer_;
  }

  // LC-7.10 a bid is higher than the last, up to every trick; the dealer must open.
  static void bid_legal(const LaCasaGame& g, Seat, ActionSink& out) {
    if (g.bid_ > 0) out.push(kActPass);
    for (int b = g.bid_ + 1; b <= g.total_tricks_; ++b) out.push(kActBid, 0, b);
  }

  static std::optional<Error> bid_check(const LaCasaGame& g, Seat, const Action& a) {
    if (a.kind == kActPass && plain(a)) {
      if (g.bid_ == 0) return illegal("The dealer must open the bidding.");
      return std::nullopt;
    }
    if (a.kind != kActBid || !plain_arg(a)) return g.wrong_decision();
    if (a.arg <= g.bid_)
      return illegal("A bid must be higher than " + std::to_string(g.bid_) + ".");
    if (a.arg > g.total_tricks_)
      return illegal("There are only " + std::to_string(g.total_tricks_) + " tricks.");
    return std::nullopt;
  }

  static void bid(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    if (a.kind == kActPass) {
      g.passed_ |= seat_bit(seat);
    } else {
      g.bid_ = a.arg;
      g.bidder_ = seat;
    }
    if (events) {
      g.emit(events, a.kind == kActPass
                         ? Value::obj({{"type", "pass"}, {"seat", seat}})
                         : Value::obj({{"type", "bid"}, {"seat", seat}, {"tricks", a.arg}}));
    }
    // LC-7.10 / LC-11.17 the next player clockwise who has not passed and is
    // not the highest bidder; when none is left, the highest bidder has won.
    Seat next = -1;
    for (Seat s = g.left_of(seat); s != seat; s = g.left_of(s)) {
      if (!(g.passed_ & seat_bit(s)) && s != g.bidder_) {
        next = s;
        break;
      }
    }
    if (next < 0) {
      g.phase_ = Phase::kNameRuling;
      g.actor_ = g.bidder_;
    } else {
      g.actor_ = next;
    }
  }

  // LC-7.10 the highest bidder names the Ruling Family: any family.
  static void name_legal(const LaCasaGame&, Seat, ActionSink& out) {
    for (int f = 0; f < kFamilies; ++f) out.push(kActNameFamily, 0, f);
  }

  static std::optional<Error> name_check(const LaCasaGame& g, Seat, const Action& a) {
    if (a.kind != kActNameFamily || !plain_arg(a) || a.arg < 0 || a.arg >= kFamilies)
      return g.wrong_decision();
    return std::nullopt;
  }

  static void name(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    g.ruling_ = a.arg;
    if (events)
      g.emit(events, Value::obj({{"type", "ruling_family"}, {"seat", seat},
                                 {"family", family_name(a.arg)}}));
    g.after_ruling(events);
  }

  // LC-7.10 the highest bidder leads.
  static int leader(const LaCasaGame& g) { return g.bidder_; }

  // LC-7.10 the bidding side scores 1 with at least its bid.
  static void score(LaCasaGame& g, std::array<int, 2>& points) {
    g.round_counts_ = g.tricks_won_;
    if (g.tricks_won_[g.side_of(g.bidder_)] >= g.bid_) points[g.side_of(g.bidder_)] = 1;
  }

  // The bidding, for everyone.
  static void view(const LaCasaGame& g, Seat, bool, ViewWriter& v) {
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

  // The robot passes (bids nothing), and as highest bidder names the family it
  // holds most cards of.
  static Action bid_bot(const LaCasaGame&, Seat, std::span<const Action> legal) { return decline(legal); }
  static Action name_bot(const LaCasaGame& g, Seat seat, std::span<const Action> legal) {
    return family_held_most(legal, g.hand(seat));
  }
};

namespace {
constexpr ExtraPhase kFiguraPhases[] = {
    {.phase = Phase::kBidding,
     .name = "bidding",
     .legal = &ChallengeRules<kFigura>::bid_legal,
     .check = &ChallengeRules<kFigura>::bid_check,
     .apply = &ChallengeRules<kFigura>::bid,
     .bot = &ChallengeRules<kFigura>::bid_bot},
    {.phase = Phase::kNameRuling,
     .name = "name_ruling_family",
     .legal = &ChallengeRules<kFigura>::name_legal,
     .check = &ChallengeRules<kFigura>::name_check,
     .apply = &ChallengeRules<kFigura>::name,
     .bot = &ChallengeRules<kFigura>::name_bot},
};
}  // namespace

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
    .phases = kFiguraPhases,
    .view_after_casa = &ChallengeRules<kFigura>::view,
};

}  // namespace casa::la_casa
