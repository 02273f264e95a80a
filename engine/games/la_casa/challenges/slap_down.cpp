// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.16 Slap-Down (four players): the leader commits a card face down and
// announces its family (LC-11.10); the others then commit at once, and all cards
// are revealed together. The followers' commits are checked and applied by the
// table game as plays (phase slap_down); what each seat may see of them is below
// and in table_view.cpp (the view's to_act, determinize()).
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/table_game.h"
#include "engine/view_writer.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kSlapDown> {
  static void play(TableGame& g, Seat s, int card, std::uint8_t flags, std::vector<Event>* events) {
    // LC-7.16 commits sit in seat order from the leader, hidden until all are in.
    const int pos = (s - g.leader_ + g.players_) % g.players_;
    g.trick_[pos] = TrickCard{static_cast<std::int8_t>(s), static_cast<std::int8_t>(card),
                              static_cast<std::uint8_t>(flags | TableGame::kHidden)};
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
      g.trick_[i].flags &= static_cast<std::uint8_t>(~TableGame::kHidden);
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

  // LC-7.16 how many have committed, and a seat's own commit.
  static void view(const TableGame& g, Seat seat, bool player, ViewWriter& v) {
    v.member("commits", g.phase_ == Phase::kSlapFollow ? g.trick_n_ : 0);
    if (player && (g.committed_ & seat_bit(seat))) {
      const std::string id = card_id(g.trick_[(seat - g.leader_ + g.players_) % g.players_].card);
      v.member("my_commit", std::string_view(id));
    }
  }
};

extern const Challenge kSlapDownChallenge;
const Challenge kSlapDownChallenge{
    .id = kSlapDown,
    .name = "slap_down",
    .four_players = true,
    .play = &ChallengeRules<kSlapDown>::play,
    .view_after_trick = &ChallengeRules<kSlapDown>::view,
};

}  // namespace casa::la_casa
