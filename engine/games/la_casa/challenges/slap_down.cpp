// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.16 Slap-Down (four players): the leader commits a card face down and
// announces its family (LC-11.10); the others then commit at once, and all cards
// are revealed together. The followers commit in a phase of their own
// (slap_down), with the plays' legality.
//
// Rule choice: to_act() holds the followers that have not committed yet (a
// committed seat has nothing left to decide). Views never tell who has committed:
// every view lists all three followers as acting, except that a seat's own view
// leaves itself out once it has committed.
#include <span>
#include <utility>

#include "engine/games/la_casa/bot_moves.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/la_casa_game.h"
#include "engine/view_writer.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kSlapDown> {
  static void play(LaCasaGame& g, Seat s, int card, std::uint8_t flags, std::vector<Event>* events) {
    // LC-7.16 commits sit in seat order from the leader, hidden until all are in.
    const int pos = (s - g.leader_ + g.players_) % g.players_;
    g.trick_[pos] = TrickCard{static_cast<std::int8_t>(s), static_cast<std::int8_t>(card),
                              static_cast<std::uint8_t>(flags | LaCasaGame::kHidden)};
    ++g.trick_n_;
    g.committed_ |= seat_bit(s);
    if (s == g.leader_) {
      g.lead_ = effective_family(card, g.ruling_);  // LC-11.10 a led Mangia-Cake: the Ruling Family
      g.phase_ = Phase::kSlapFollow;
      if (events) {
        g.emit(events,
               Value::obj(
                   {{"type", "commit"}, {"count", 1}, {"announced_family", family_name(g.lead_)}}));
        g.emit_to(events, seat_bit(s),
                  Value::obj({{"type", "my_commit"}, {"seat", s}, {"card", card_id(card)}}));
      }
      return;
    }
    if (events) {
      g.emit(events, Value::obj({{"type", "commit"}, {"count", g.trick_n_}}));
      g.emit_to(events, seat_bit(s),
                Value::obj({{"type", "my_commit"}, {"seat", s}, {"card", card_id(card)}}));
    }
    if (g.trick_n_ < g.players_) return;
    CardSet revealed;
    for (int i = 0; i < g.trick_n_; ++i) {
      g.trick_[i].flags &= static_cast<std::uint8_t>(~LaCasaGame::kHidden);
      revealed.add(g.trick_[i].card);
    }
    g.make_public(revealed);
    if (events) {
      Value cards = Value::array();
      for (int i = 0; i < g.trick_n_; ++i)
        cards.push(Value::obj({{"seat", g.trick_[i].seat}, {"card", card_id(g.trick_[i].card)}}));
      g.emit(events, Value::obj({{"type", "slap_reveal"}, {"cards", std::move(cards)}}));
    }
    g.complete_trick(events);
  }

  // LC-7.16 the followers commit at once: all who have not yet.
  static SeatMask to_act(const LaCasaGame& g) {
    return ((SeatMask{1} << g.players_) - 1) & ~g.committed_;
  }

  static std::optional<Error> not_acting(const LaCasaGame& g, Seat seat) {
    if (g.committed_ & seat_bit(seat))
      return Error{"not_your_turn", "You have already committed a card to this trick."};
    return std::nullopt;
  }

  // A commit is a play (LC-2.4: following the announced family).
  static void legal(const LaCasaGame& g, Seat seat, ActionSink& out) {
    for (int c : g.legal_plays(seat)) out.push(kActPlay, c);
  }

  static std::optional<Error> check(const LaCasaGame& g, Seat seat, const Action& a) {
    return g.check_play(seat, a);
  }

  static void apply(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) {
    g.play_card(seat, a.card, events);
  }

  // LC-7.16 nobody learns who has committed: every follower is shown as acting,
  // except that a seat knows its own commit.
  static SeatMask view_to_act(const LaCasaGame& g, Seat seat, bool player) {
    SeatMask acting = ((SeatMask{1} << g.players_) - 1) & ~seat_bit(g.leader_);
    if (player && (g.committed_ & seat_bit(seat))) acting &= ~seat_bit(seat);
    return acting;
  }

  // LC-7.16 a follower's commit still counts in its hand for everyone else
  // until the reveal: a shrinking hand would tell who has committed.
  static int view_hand_size(const LaCasaGame& g, Seat s, Seat seat, bool player) {
    const bool hidden_commit =
        s != g.leader_ && (g.committed_ & seat_bit(s)) && !(player && s == seat);
    return g.hand_[s].size() + (hidden_commit ? 1 : 0);
  }

  // LC-7.16 / LC-11.10 the leader's hidden commit (first in the trick) is of the
  // family the server announced: it is dealt first, from the cards of that family.
  static int determinize(LaCasaGame& g, std::int8_t* pool, int n) {
    if (g.trick_[0].card != LaCasaGame::kEmptied) return 0;
    for (int i = 0; i < n; ++i) {
      if (effective_family(pool[i], g.ruling_) == g.lead_) {
        std::swap(pool[0], pool[i]);
        break;
      }
    }
    g.trick_[0].card = pool[0];
    return 1;
  }

  // LC-7.16 how many have committed, and a seat's own commit.
  static void view(const LaCasaGame& g, Seat seat, bool player, ViewWriter& v) {
    v.member("commits", g.phase_ == Phase::kSlapFollow ? g.trick_n_ : 0);
    if (player && (g.committed_ & seat_bit(seat))) {
      const std::string id = card_id(g.trick_[(seat - g.leader_ + g.players_) % g.players_].card);
      v.member("my_commit", std::string_view(id));
    }
  }

  // The robot commits the card it would play to the trick (LC-8.4 rules 1-3).
  static Action bot(const LaCasaGame& g, Seat seat, std::span<const Action>) {
    return card_action(kActPlay, robot_trick_card(g, seat));
  }
};

namespace {
constexpr ExtraPhase kSlapDownPhases[] = {
    {.phase = Phase::kSlapFollow,
     .name = "slap_down",
     .to_act = &ChallengeRules<kSlapDown>::to_act,
     .not_acting = &ChallengeRules<kSlapDown>::not_acting,
     .legal = &ChallengeRules<kSlapDown>::legal,
     .check = &ChallengeRules<kSlapDown>::check,
     .apply = &ChallengeRules<kSlapDown>::apply,
     .view_to_act = &ChallengeRules<kSlapDown>::view_to_act,
     .view_hand_size = &ChallengeRules<kSlapDown>::view_hand_size,
     .determinize = &ChallengeRules<kSlapDown>::determinize,
     .bot = &ChallengeRules<kSlapDown>::bot},
};
}  // namespace

extern const Challenge kSlapDownChallenge;
const Challenge kSlapDownChallenge{
    .id = kSlapDown,
    .name = "slap_down",
    .four_players = true,
    .play = &ChallengeRules<kSlapDown>::play,
    .phases = kSlapDownPhases,
    .view_after_trick = &ChallengeRules<kSlapDown>::view,
};

}  // namespace casa::la_casa
