// SPDX-License-Identifier: AGPL-3.0-or-later
// The state and rules of La Casa Domination (LC-9; options and actions in
// domination.h).
//
// Invariants between actions:
//  * Every card is in exactly one place: a hand, the Casa, the stock (face down),
//    the face-up card, the trick, or a player's captured cards.
//  * While the stock lasts the face-up card exists; the stock then holds an odd
//    number of cards (21, 19, ... 1) and there is one draw left per pair.
//  * `known_` holds cards that are face down or in a hand yet known to both
//    players (a face-up card taken into hand, the nominated card turned down);
//    determinize() keeps them where they are.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/la_casa/robot.h"
#include "engine/games/la_casa/two_seat_trick.h"

namespace casa::la_casa {

struct DominationSetup {
  int target = 12;
  int rounds = 0;  // 0: no limit
  std::optional<int> dealer;
  std::optional<std::array<int, kDeckSize>> deck;
  std::uint64_t seed = 0;
};

class DominationGame final : public Game {
 public:
  static constexpr int kHandDeal = 5;   // LC-9.1
  static constexpr int kCasaSize = 5;
  static constexpr int kStockSize = 21;  // face down, besides the face-up card
  static constexpr int kElectorGoal = 9;  // LC-9.4
  static constexpr int kFaceUpPile = 0;
  static constexpr int kStockPile = 1;

  enum Phase : std::int8_t { kElect, kPlay, kChoosePile, kRoundOver, kOver };
  enum Kind : std::uint16_t { kPlayCard = 1, kElectFamily = 2, kPass = 3, kTakePile = 5, kDeal = 6 };

  explicit DominationGame(const DominationSetup& setup);

  std::string_view name() const override { return "la-casa"; }
  int players() const override { return 2; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<DominationGame>(*this); }
  SeatMask to_act() const override;
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::optional<Error> step(Seat seat, const Action& action, std::vector<Event>* events) override;
  Error not_your_turn(Seat seat) const override;
  bool is_over() const override { return phase_ == kOver; }
  std::vector<int> scores() const override { return {scores_[0], scores_[1]}; }
  std::vector<Seat> winners() const override;
  Value view(Seat seat) const override;
  Value full_state() const override;
  std::vector<std::string> secret_cards(Seat seat) const override;
  Value encode_action(const Action& action) const override;
  std::optional<Error> decode_action(const Value& value, Action& out) const override;
  std::unique_ptr<Game> determinize(Seat seat, std::uint64_t seed) const override;

  // For the rule-following bot and tests: what a seat may know.
  Phase phase() const { return phase_; }
  CardSet hand(Seat seat) const { return hands_[seat]; }
  int ruling_family() const { return ruling_; }
  int nominated_family() const { return nominated_; }
  int face_up_card() const { return face_up_; }  // -1 once the stock is used up
  // The trick as robot_choose() judges it, with `seat`'s hand as the cards it
  // may choose from (valid while this game lives and does not change).
  RobotSituation robot_situation(Seat seat) const;

 private:
  Seat actor() const;  // the one seat to act, -1 when over
  int non_dealer() const { return 1 - dealer_; }
  void start_round(std::vector<Event>* events);
  std::optional<Error> elect(Seat seat, const Action& action, std::vector<Event>* events);
  void play_card(Seat seat, int card, std::vector<Event>* events);
  void finish_trick(std::vector<Event>* events);
  void take_pile(int pile, std::vector<Event>* events);
  void finish_round(std::vector<Event>* events);
  CardSet hidden_cards(Seat seat) const;
  CardSet legal_cards(Seat seat) const;

  // The game.
  DominationSetup setup_;
  std::uint64_t deal_seed_ = 0;
  int dealer_ = 0;
  int round_ = 0;  // 0-based
  std::array<int, 2> scores_{};
  std::array<int, 2> round_points_{};  // the last finished round
  Phase phase_ = kElect;

  // The round.
  std::array<CardSet, 2> hands_{};
  std::array<std::int8_t, kCasaSize> casa_{};
  bool casa_top_up_ = true;
  int nominated_ = kNoFamily;  // kNoFamily: the Mangia-Cake was shown
  int election_round_ = 1;
  int to_elect_ = 0;
  int elector_ = -1;
  int ruling_ = kNoFamily;
  std::array<std::int8_t, kStockSize> stock_{};
  int stock_next_ = 0;
  int face_up_ = -1;
  CardSet known_;
  TwoSeatTrick trick_;  // the players are the seats
};

}  // namespace casa::la_casa
