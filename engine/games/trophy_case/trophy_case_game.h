// SPDX-License-Identifier: AGPL-3.0-or-later
// The Trophy Case game state behind the Game interface.
//
// Invariants (checked by the property tests through full_state()):
//  * Every one of the 174 cards is in exactly one place: a hand, the current
//    trick, the cards set aside from finished tricks (TC-6.2), the discarded hands
//    (TC-3.2, TC-6.3) or the stock (TC-2.2).
//  * While the game goes on, exactly one seat acts: the seat whose turn it is on
//    the current trick; it always holds at least one card (a seat without cards
//    plays Mud without being asked, TC-4.5).
//  * A trick being led has no plays yet, and its leader holds a suited card (else
//    the hand was redealt, TC-3.2).
//
// Public information lives in the trick records, scores and counters; private
// information in hands_, discarded_ (minus shown_) and the stock.
//  * voids_ holds, for the hand being played, the suits each seat has shown it
//    holds none of (TC-4.3, TC-4.4); the seat's real hand never holds one of them
//    (hands only lose cards until the next deal, which clears voids_).
//
// View (TC-8): "game", "seat", "to_act", "phase" ("play"/"over"), "scores",
// "target", "dealer", "hand_number", "hands_left_before_reshuffle", "stock_size",
// "hand_sizes", "turn", "tricks_played", "set_aside" (cards of finished tricks since
// the reshuffle), "discarded_count", "shown" ([{seat, cards}]: every TC-3.2 hand
// shown since the last reshuffle, oldest first), "trick" ({leader, led_suit, led_colour, suit_order, in, folded, plays:
// [{seat, card} | {seat, mud: true}]}), "last_trick" ({winner, points, reason,
// trick}), "winners", and for a seat its "hand".
// Events, all public except "hand": "deal", "hand" (a seat's new cards, to that
// seat only), "play", "mud", "fold", "trick" (winner, points, reason, cards,
// scores), "redeal" (the shown hand), "hand_end", "game_over".
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/trophy_case/cards.h"
#include "engine/games/trophy_case/trophy_case.h"
#include "engine/rng.h"

namespace casa::trophy_case {

inline constexpr int kMinPlayers = 3;
inline constexpr int kMaxPlayers = 5;
inline constexpr int kHandsPerShuffle = 3;  // TC-2.2
inline constexpr int kDefaultTarget = 30;   // TC-7

// TC-2.2 Cards per hand for 3, 4 and 5 players.
constexpr int hand_size(int players) {
  return players == 3 ? 14 : players == 4 ? 12 : 11;
}

// TC-A: every turn but a Mud turn uses a card or removes a player, and at most
// players - 1 Mud turns separate two such turns, so a trick holds at most
// (cards in hands + players) * players plays: (55 + 5) * 5 = 300 with five.
inline constexpr int kMaxPlays = 304;

struct Play {
  std::uint8_t seat = 0;
  std::uint8_t card = 0;  // card index, or kMud
};

enum class TrickEnd : std::uint8_t { kNone, kTrump, kLastIn, kHighest };

struct Trick {
  int leader = 0;
  int led_suit = -1;  // -1 until the lead
  // TC-5.2 In-colour suits in order of first appearance (index 0: the led suit).
  std::array<int, kSuitsPerColour> suit_order{-1, -1, -1};
  int suits_seen = 0;
  SeatMask in = 0;  // players not folded (TC-4.4)
  int count = 0;
  std::array<Play, kMaxPlays> plays{};

  int led_colour() const { return led_suit < 0 ? -1 : colour_of_suit(led_suit); }
  // TC-5.2 Rank of an in-colour suit in this trick (0 lowest), -1 if not in colour.
  int suit_rank(int suit) const {
    for (int i = 0; i < suits_seen; ++i)
      if (suit_order[i] == suit) return i;
    return -1;
  }
};

struct FinishedTrick {
  Trick trick;
  int winner = -1;
  int points = 0;
  TrickEnd reason = TrickEnd::kNone;
  bool cards_visible = false;  // false once a reshuffle took its cards back
};

class TrophyCaseGame final : public Game {
 public:
  struct Config {
    int players = 4;
    int target = kDefaultTarget;
    int stop_after_hands = 0;  // 0: play to the target only
    int dealer = 0;
    bool stacked = false;
    std::array<std::uint8_t, kDeckSize> deck{};
  };

  TrophyCaseGame(const Config& config, std::uint64_t seed);

  std::string_view name() const override { return "trophy-case"; }
  int players() const override { return players_; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<TrophyCaseGame>(*this); }
  SeatMask to_act() const override { return over_ ? 0 : seat_bit(turn_); }
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::optional<Error> step(Seat seat, const Action& action, std::vector<Event>* events) override;
  Error not_your_turn(Seat seat) const override;
  bool is_over() const override { return over_; }
  std::vector<int> scores() const override;
  std::vector<Seat> winners() const override;
  Value view(Seat seat) const override;
  Value full_state() const override;
  std::vector<std::string> secret_cards(Seat seat) const override;
  Value encode_action(const Action& action) const override;
  std::optional<Error> decode_action(const Value& value, Action& out) const override;
  std::unique_ptr<Game> determinize(Seat seat, std::uint64_t seed) const override;
  // determinize() with a chosen number of tries at dealing by chance before the
  // placement that always meets the constraints (0: that placement alone; tests use it).
  std::unique_ptr<TrophyCaseGame> determinize_with(Seat seat, std::uint64_t seed,
                                                   int random_attempts) const;

  // TC-4.3 / TC-4.4 The suits `seat` is known, from the plays of the hand being
  // played, to hold none of: bit s for suit s.
  std::uint16_t void_suits(Seat seat) const { return voids_[seat]; }

  // Read-only access for the rule bot (it reads only what the acting seat may see).
  const Trick& trick() const { return trick_; }
  const DeckSet& hand(Seat seat) const { return hands_[seat]; }
  int turn() const { return turn_; }
  int score(Seat seat) const { return scores_[seat]; }
  // TC-4.6(c) / TC-5: the seat that would win the current trick if it ended now
  // with `extra` (a card of `by`, or kMud for none) added; -1 if nobody in played a card.
  int current_best(int extra_card = kMud, int by = -1) const;
  // TC-6.1 Points of the current trick's cards (`with_trump`: as if a trump ended it).
  int trick_points(bool with_trump) const;

 private:
  void reshuffle();
  void deal_hand(std::vector<Event>* events);
  void begin_trick(int leader, std::vector<Event>* events);
  void play_card(int card, std::vector<Event>* events);
  void fold(std::vector<Event>* events);
  // Checks TC-4.6 after a turn; returns true when the trick ended.
  bool check_trick_end(int last_card, std::vector<Event>* events);
  void advance_turn(std::vector<Event>* events);
  void finish_trick(int winner, TrickEnd reason, std::vector<Event>* events);
  void end_game_by_hands(std::vector<Event>* events);
  std::optional<Error> check_play(Seat seat, int card) const;
  Value trick_value(const Trick& trick) const;
  Value shows_value() const;
  int next_seat(int seat) const { return (seat + 1) % players_; }
  SeatMask all_seats() const { return (SeatMask{1} << players_) - 1; }

  // Setup.
  int players_ = 4;
  int target_ = kDefaultTarget;
  int stop_after_hands_ = 0;
  std::uint64_t seed_ = 0;
  Rng rng_;
  int shuffles_ = 0;  // reshuffles drawn from rng_ (the stacked first one excluded)

  // Deal cycle (TC-2.2).
  std::array<std::uint8_t, kDeckSize> stock_{};
  int stock_top_ = 0;  // stock_[stock_top_ .. kDeckSize) is the stock, top first
  int dealer_ = 0;
  int hand_number_ = 0;       // hands dealt so far, redeals included
  int hands_since_shuffle_ = 0;
  int hands_played_ = 0;      // hands ended under TC-6.3

  // Card places.
  std::array<DeckSet, kMaxPlayers> hands_{};
  DeckSet set_aside_;  // TC-6.2
  DeckSet discarded_;  // TC-3.2 / TC-6.3 discarded hands
  DeckSet shown_;      // TC-3.2 shown hands: discarded but public
  // TC-3.2 / TC-8.1 Each hand shown since the last reshuffle, oldest first, with
  // the seat that showed it. A shuffle serves kHandsPerShuffle hands, so it can
  // see at most that many shows.
  struct Show {
    int seat = -1;
    DeckSet cards;
  };
  std::array<Show, kHandsPerShuffle> shows_{};
  int show_count_ = 0;
  // Cards that were public just before a reshuffle made during the last action:
  // that action's events name them, so they are not reported as secret until the
  // next action.
  DeckSet recalled_;

  // TC-4.3 / TC-4.4 Public knowledge of the hand being played, for determinize():
  // a seat that played off the led colour holds no card of that colour, a seat
  // that folded holds none of the led suit. Bit s: suit s. Cleared at each deal.
  std::array<std::uint16_t, kMaxPlayers> voids_{};

  // Play.
  Trick trick_;
  FinishedTrick last_;
  int tricks_played_ = 0;
  int turn_ = 0;
  std::array<int, kMaxPlayers> scores_{};
  bool over_ = false;
  SeatMask winners_ = 0;
};

}  // namespace casa::trophy_case
