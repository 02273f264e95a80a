// SPDX-License-Identifier: AGPL-3.0-or-later
// The state and rules of La Casa Solo (LC-8; see solo.h for options and actions).
//
// Invariants between actions:
//  * Every one of the 37 cards is in exactly one place: a Robot column, the Casa,
//    a reference card (Betrayal), the human's hand, the pile, the trick, or a
//    side's captured cards.
//  * Only the foot of a column can be face up; after each trick every non-empty
//    column's foot is face up.
//  * The human (seat 0) is the only one to act; the Robot has already played
//    whenever its turn came.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/robot.h"
#include "engine/games/la_casa/two_seat_trick.h"

namespace casa::la_casa {

// LC-8.3 / LC-8.5 The Solo challenges: the Challenges of challenges/ marked solo.
inline constexpr int kSoloChallenges = 6;

struct SoloSetup {
  bool challenges = true;
  int rounds = 6;
  std::optional<int> first_challenge;  // a ChallengeId with Challenge::solo
  std::optional<std::array<int, kDeckSize>> deck;
  std::uint64_t seed = 0;
};

class SoloGame final : public Game {
 public:
  static constexpr int kColumns = 4;
  static constexpr int kMaxColumn = 6;  // LC-8.1 columns of 3, 4, 5 and 6
  static constexpr int kMaxPile = 15;
  static constexpr int kHandSize = 3;
  static constexpr int kRobot = 1;  // the trick slot owner that is not seat 0
  static constexpr int kGoalTricks = 11;  // LC-8.3
  static constexpr int kWinningPoints = 4;

  enum Phase : std::int8_t { kNameCousins, kPlay, kRoundOver, kOver };
  enum Kind : std::uint16_t { kPlayCard = 1, kNameFamily = 4, kDeal = 6 };

  explicit SoloGame(const SoloSetup& setup);

  std::string_view name() const override { return "la-casa"; }
  int players() const override { return 1; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<SoloGame>(*this); }
  SeatMask to_act() const override { return phase_ == kOver ? 0 : seat_bit(0); }
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::optional<Error> step(Seat seat, const Action& action, std::vector<Event>* events) override;
  Error not_your_turn(Seat seat) const override;
  bool is_over() const override { return phase_ == kOver; }
  std::vector<int> scores() const override { return {points_}; }
  std::vector<Seat> winners() const override;
  Value view(Seat seat) const override;
  Value full_state() const override;
  std::vector<std::string> secret_cards(Seat seat) const override;
  Value encode_action(const Action& action) const override;
  std::optional<Error> decode_action(const Value& value, Action& out) const override;
  std::unique_ptr<Game> determinize(Seat seat, std::uint64_t seed) const override;

  // For the rule-following bot and tests: what the human may know.
  Phase phase() const { return phase_; }
  CardSet hand() const { return hand_; }
  int ruling_family() const { return ruling_; }
  int round_challenge() const { return challenge_; }  // a ChallengeId
  // The trick as robot_choose() judges it, with the human's hand as the cards it
  // may choose from (valid while this game lives and does not change).
  RobotSituation robot_situation() const;

 private:
  // Each Challenge's hooks (challenges/) work on the state directly.
  template <int>
  friend struct ChallengeRules;

  // The hooks of the round's Challenge (the plain round's without one).
  const Challenge& rules() const { return challenge(challenge_); }
  // LC-5.2 1 when the human has more (more_wins) or fewer; a tie goes to whoever
  // captured the Mangia-Cake.
  int decide(int human, int robot, bool more_wins) const;
  void start_round(std::vector<Event>* events);
  bool deal(const std::array<int, kDeckSize>& deck);
  void play_card(int player, int card, std::vector<Event>* events);
  void robot_plays(std::vector<Event>* events);
  void finish_trick(std::vector<Event>* events);
  void finish_round(std::vector<Event>* events);
  int round_points() const;
  // LC-7.5 whether a played card may change the Ruling Family (Capitano).
  bool ruling_can_change() const { return rules().ruling_after != nullptr; }
  CardSet robot_face_up() const;
  CardSet hidden_cards(bool include_hand) const;
  CardSet legal_cards() const;
  Value table_view(bool with_hand) const;

  // The game.
  SoloSetup setup_;
  std::array<std::int8_t, kSoloChallenges> order_{};  // ChallengeIds
  std::uint64_t deal_seed_ = 0;  // every deal after the fixed one derives from it
  int round_ = 0;                // 0-based index of the current round
  int points_ = 0;
  std::array<std::int8_t, kSoloChallenges> round_points_{};  // points per finished round
  Phase phase_ = kPlay;

  // The round.
  int challenge_ = kNoChallenge;
  int redeals_ = 0;  // LC-4.9 re-deals made this round
  std::array<std::array<std::int8_t, kMaxColumn>, kColumns> column_{};
  std::array<std::int8_t, kColumns> column_len_{};
  std::array<bool, kColumns> foot_up_{};
  std::array<std::int8_t, kDeckSize> nearness_{};  // column of each Robot card
  int casa_ = -1;  // the Casa card (Betrayal: the Casa's reference 1)
  bool casa_up_ = false;
  int human_reference_ = -1;  // Betrayal only
  CardSet hand_;
  std::array<std::int8_t, kMaxPile> pile_{};
  int pile_len_ = 0;
  int pile_next_ = 0;
  int ruling_ = kNoFamily;
  int cousins_ = kNoFamily;
  // The tricks: player 0 is the human, kRobot the Robot.
  TwoSeatTrick trick_;
  std::array<int, 2> valid_tricks_{};  // Betrayal
};

}  // namespace casa::la_casa
