// SPDX-License-Identifier: AGPL-3.0-or-later
// The Casino game state behind engine/game.h. Everything lives in fixed arrays
// and 64-bit card masks so that legal_actions() and apply(..., nullptr) do not
// allocate in steady state.
//
// Invariants between actions:
//   * the 52 cards are split exactly between the undealt deck, the hands, the
//     loose table cards, the live builds and the capture piles;
//   * every live build's owner holds a number card of its value (CA-4.1), so no
//     build is left once a deal's last card is played (CA-4.4);
//   * phase kAsk only right after a capture with questions on (CA-6.2).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/games/casino/cards.h"

namespace casa::casino {

inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 4;
inline constexpr int kMaxBuilds = 48;  // builds made in one round, at most one per hand card

enum ActionKind : std::uint16_t {
  kCapture = 1,
  kBuild = 2,
  kIncrease = 3,
  kTrail = 4,
  kAsk = 5,
  kDoneAsking = 6,
  kDeal = 7,
};

enum class Phase : std::uint8_t { kPlay, kAsk, kRoundOver, kOver };

// CA-6.1 one question text per card index.
using QuestionSet = std::array<std::string, kDeckSize>;
const QuestionSet& default_questions();

struct Options {
  int target = 21;                                 // CA-5.3
  bool partners = false;                           // CA-2.1
  std::shared_ptr<const QuestionSet> questions;    // CA-6; null: off
  bool custom_questions = false;                   // questions came from an object
  bool sweeps = false;                             // CA-7
  int rounds = 0;                                  // testing: stop after N rounds (0: never)
};

// CA-3 A pile of number cards with a value and an owner; its id is "B<number>".
struct Build {
  std::uint64_t cards = 0;
  std::int8_t value = 0;
  std::int8_t owner = -1;
  friend bool operator==(const Build&, const Build&) = default;
};

// CA-6.3 One question asked this round.
struct Question {
  std::int8_t asker = 0;
  std::int8_t target = 0;
  std::int8_t card = 0;
};

// One side's figures for a finished round (CA-5.2, CA-7.1).
struct SideTally {
  int cards = 0, spades = 0, aces = 0, sweeps = 0;
  bool big_casino = false, little_casino = false;
  int most_cards = 0, most_spades = 0, points = 0;
};

class CasinoGame final : public Game {
 public:
  CasinoGame(int players, Options options, std::uint64_t seed, int dealer,
             const std::array<std::uint8_t, kDeckSize>* first_deck);

  std::string_view name() const override { return "casino"; }
  int players() const override { return players_; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<CasinoGame>(*this); }
  SeatMask to_act() const override;
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::optional<Error> step(Seat seat, const Action& action, std::vector<Event>* events) override;
  bool is_over() const override { return phase_ == Phase::kOver; }
  std::vector<int> scores() const override;
  std::vector<Seat> winners() const override;
  Value view(Seat seat) const override;
  Value full_state() const override;
  std::vector<std::string> secret_cards(Seat seat) const override;
  Value encode_action(const Action& action) const override;
  std::optional<Error> decode_action(const Value& value, Action& out) const override;
  std::unique_ptr<Game> determinize(Seat seat, std::uint64_t seed) const override;

  // Read-only accessors for the bot.
  std::uint64_t hand(Seat seat) const { return hands_[seat]; }
  std::uint64_t loose() const { return loose_; }
  const Build& build(int number) const { return builds_[number - 1]; }
  Phase phase() const { return phase_; }

 private:
  int side_of(Seat seat) const { return options_.partners ? seat % 2 : seat; }
  int sides() const { return options_.partners ? 2 : players_; }
  bool owns_build(Seat seat) const;
  // Values of the builds `seat` owns, leaving out the builds in `except` (bit n-1 = Bn).
  std::uint32_t owned_values(Seat seat, std::uint64_t except) const;
  bool round_over_after(Seat seat, int played) const;

  // plays.cpp: CA-3 / CA-4 / CA-7.2 enumeration and validation.
  void play_actions(Seat seat, std::vector<Action>& out) const;
  void ask_actions(std::vector<Action>& out) const;
  // nullopt when legal; otherwise the sentence saying why not.
  std::optional<std::string> why_illegal(Seat seat, const Action& action) const;

  // casino.cpp: the flow of a round.
  void start_round(const std::array<std::uint8_t, kDeckSize>* deck, std::vector<Event>* events);
  void deal_hands(std::vector<Event>* events);
  void after_play(std::vector<Event>* events);
  void end_round(std::vector<Event>* events);
  void play_capture(Seat seat, const Action& a, std::vector<Event>* events);
  Value table_value() const;
  Value build_value(int number) const;
  Value common_view() const;

  int players_;
  Options options_;
  std::uint64_t shuffle_seed_;  // round r's deck is shuffled by Rng(shuffle_seed_ + r)
  int round_ = 0;               // current round, from 1
  int rounds_played_ = 0;
  int dealer_ = 0;
  int turn_ = 0;
  Phase phase_ = Phase::kPlay;

  std::array<std::uint8_t, kDeckSize> deck_{};  // this round's order
  int dealt_ = 0;                               // deck_[dealt_..] not dealt yet
  std::array<std::uint64_t, kMaxPlayers> hands_{};
  std::array<std::uint64_t, kMaxPlayers> piles_{};  // this round's captures, per seat
  std::uint64_t loose_ = 0;
  std::array<Build, kMaxBuilds> builds_{};  // index n-1 holds Bn
  std::uint64_t live_builds_ = 0;           // bit n-1: Bn is on the table
  int builds_made_ = 0;

  int last_capturer_ = -1;  // CA-5.1
  bool only_trail_ = false;  // CA-7.2
  std::array<int, kMaxPlayers> sweeps_{};  // per side, this round (CA-7.1)
  std::array<int, kMaxPlayers> totals_{};  // per side, the game score

  // CA-6.2 the ask step.
  std::uint64_t ask_cards_ = 0;
  SeatMask ask_targets_ = 0;
  std::array<Question, kDeckSize> questions_{};
  int questions_asked_ = 0;  // this round

  std::array<SideTally, kMaxPlayers> last_round_{};
  SeatMask winners_ = 0;
};

}  // namespace casa::casino
