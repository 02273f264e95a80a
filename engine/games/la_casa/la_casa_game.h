// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa at the table: the two- and four-player game (LC-1..LC-7, LC-10, LC-11)
// with the classic, challenges and sticky formats and the Election variant.
// Solo (LC-8) and Domination (LC-9) live in solo.* and domination.*.
//
// Representation: every card set is a CardSet bitmask, every ordered pile a fixed
// array; the whole state is plain data, so clone() is a copy and apply(...,
// nullptr) and legal_actions() allocate nothing.
//
// Rule choices that the rules file leaves to the implementation:
//  * A round ends in phase "round_over"; the next dealer starts the next round with
//    {"type":"deal"} (in sticky, with {"type":"choose_challenge",...}). The pause
//    lets everyone see the last trick and the result before the new cards arrive.
//  * Election round two (LC-6.5): no card is taken, so the elector discards nothing.
//  * The Challenges' own choices are in their files (challenges/).
//
// Action encoding (Action fields): kind = ActionKind; card = card index for play,
// discard, eliminate, steal, give, pass_card, reveal; arg = family (elect,
// name_family), tricks (bid) or challenge (choose_challenge); set = the cards of a
// set_aside. Unused fields are zero.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/la_casa/challenges/challenge.h"

namespace casa::la_casa {

// LC-5.4 The formats of the table game.
enum class Format : int { kClassic, kChallenges, kSticky };

// The phases of a round. Those a Challenge begins (from kClubSetAside to kGive
// but kPlay) are declared, with their names and actions, in that Challenge's
// file (ExtraPhase in challenges/challenge.h).
enum class Phase : int {
  kChooseChallenge,  // sticky: the dealer picks the next challenge (LC-5.4)
  kElection,         // LC-6.3 / LC-6.5
  kElectionDiscard,  // LC-6.4
  kClubSetAside,     // LC-7.8
  kNameCousins,      // LC-7.9
  kBidding,          // LC-7.10
  kNameRuling,       // LC-7.10 the highest bidder names the Ruling Family
  kPlay,             // a card to the trick (Slap-Down: the leader's commit)
  kEliminate,        // LC-7.4 a Bruto's optional elimination
  kReveal,           // LC-7.7 a card goes face up in front of its player
  kPassCard,         // LC-7.14 a card passed to the left
  kSlapFollow,       // LC-7.16 the followers' simultaneous commits
  kSteal,            // LC-7.2 a bandit may take a card
  kGive,             // LC-7.2 ... and then puts one face down
  kRoundOver,        // waiting for the next dealer to deal
  kGameOver,
};

enum ActionKind : std::uint16_t {
  kActPlay = 1,
  kActElect,
  kActPass,
  kActBid,
  kActNameFamily,
  kActDiscard,
  kActSetAside,
  kActEliminate,
  kActNoElimination,
  kActSteal,
  kActNoSteal,
  kActGive,
  kActPassCard,
  kActReveal,
  kActChooseChallenge,
  kActDeal,
};

// The shapes of an action's fields (unused fields are zero), and the refusal of
// an illegal one: for the table game's checks and its Challenges'.
namespace table_action {
inline bool plain(const Action& a) {
  return a.card == 0 && a.arg == 0 && a.set == 0 && a.set2 == 0;
}
inline bool plain_card(const Action& a) {
  return a.card < kDeckSize && a.arg == 0 && a.set == 0 && a.set2 == 0;
}
inline bool plain_arg(const Action& a) { return a.card == 0 && a.set == 0 && a.set2 == 0; }
inline Error illegal(std::string why) { return Error{"illegal_action", std::move(why)}; }
}  // namespace table_action

// The table options, validated (see la_casa.cpp for parsing and defaults).
struct TableOptions {
  int players = 4;
  Format format = Format::kChallenges;
  int target = 12;
  bool election = false;
  int rounds = 0;  // 0: no limit
  int dealer = -1;  // -1: drawn from the seed (LC-3.2)
  int challenge = kNoChallenge;  // first round's challenge, if fixed
  bool has_deck = false;
  std::array<std::int8_t, kDeckSize> deck{};
};

// A card in a trick, with how it got there.
struct TrickCard {
  std::int8_t seat = -1;
  std::int8_t card = -1;
  std::uint8_t flags = 0;
  friend bool operator==(const TrickCard&, const TrickCard&) = default;
};

// La Casa as the rules describe it for two and four players (the "table game"
// mode of docs/games/la-casa.md: classic, challenges or sticky); SoloGame and
// DominationGame are the other two modes.
class LaCasaGame final : public Game {
 public:
  LaCasaGame(const TableOptions& options, std::uint64_t seed);

  std::string_view name() const override { return "la-casa"; }
  int players() const override { return players_; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<LaCasaGame>(*this); }
  SeatMask to_act() const override;
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::optional<Error> step(Seat seat, const Action& action, std::vector<Event>* events) override;
  Error not_your_turn(Seat seat) const override;
  bool is_over() const override { return phase_ == Phase::kGameOver; }
  std::vector<int> scores() const override;
  std::vector<Seat> winners() const override;
  Value view(Seat seat) const override;
  void write_view(Seat seat, ViewWriter& out) const override;
  Value full_state() const override;
  std::vector<std::string> secret_cards(Seat seat) const override;
  Value encode_action(const Action& action) const override;
  std::optional<Error> decode_action(const Value& value, Action& out) const override;
  std::unique_ptr<Game> determinize(Seat seat, std::uint64_t seed) const override;

  // For the rule-following bot and tests.
  Phase phase() const { return phase_; }
  int challenge() const { return challenge_; }
  int ruling_family() const { return ruling_; }
  int lead_family() const { return lead_; }
  int dealer() const { return dealer_; }
  int round() const { return round_; }
  int trick_size() const { return trick_n_; }
  int total_tricks() const { return total_tricks_; }
  CardSet hand(Seat seat) const { return hand_[seat]; }
  // Cards `seat` may play now (hand, face-up tableau, Cards on the Table).
  CardSet playable(Seat seat) const;
  // Cards `seat` may legally play to the current trick.
  CardSet legal_plays(Seat seat) const;
  // Whether `card` played by `seat` now would make it the trick's winner so far.
  bool would_win(Seat seat, int card) const;
  int tricks_won(int side) const { return tricks_won_[side]; }

 private:
  // Each Challenge's hooks (challenges/) work on the state directly.
  template <int>
  friend struct ChallengeRules;

  static constexpr std::uint8_t kFaceDown = 1;   // LC-7.2 put face down by a bandit
  static constexpr std::uint8_t kEliminated = 2; // LC-7.4
  static constexpr std::uint8_t kHidden = 4;     // LC-7.16 committed, not yet revealed
  static constexpr std::uint8_t kFromTableau = 8;
  static constexpr std::int8_t kEmptied = -2;  // determinize(): a slot whose card went to the pool

  int side_of(Seat s) const { return s & 1; }
  Seat left_of(Seat s) const { return s + 1 == players_ ? 0 : s + 1; }
  int cards_per_player() const;
  // The hooks of the round's Challenge (the plain round's without one).
  const Challenge& rules() const { return la_casa::challenge(challenge_); }
  // The round's Challenge's declaration of the phase the game is in, if it is
  // one of its extra phases.
  const ExtraPhase* extra_phase() const;
  // The phase's name in views and messages ("phase").
  std::string_view phase_name() const;
  // LC-5.1 / LC-5.2 The side with more (most) or fewer of a count, a tie to the
  // side that captured the Mangia-Cake; records the counts.
  int decide(int a, int b, bool most);

  // Round flow.
  void start_round(std::vector<Event>* events);
  void deal(const std::int8_t* deck, std::vector<Event>* events);
  void after_ruling(std::vector<Event>* events);
  void start_play(std::vector<Event>* events);
  void play_card(Seat s, int card, std::vector<Event>* events);
  void after_play(Seat s, std::vector<Event>* events);
  void next_player(std::vector<Event>* events);
  void complete_trick(std::vector<Event>* events);
  void finish_trick(std::vector<Event>* events);
  void end_round(std::vector<Event>* events);
  int resolve_trick(const TrickCard* trick, int n, int ruling) const;
  int resolve(const TrickCard* trick, int n, int ruling) const;

  void make_public(CardSet cards);
  void make_public(int card) { make_public(CardSet::of(card)); }
  CardSet tableau_up(Seat s) const { return tableau_up_[s]; }
  void remove_from_play_area(Seat s, int card, std::uint8_t* flags);
  std::optional<Error> check(Seat seat, const Action& a) const;
  std::optional<Error> check_play(Seat seat, const Action& a) const;
  // The refusal of an action that is not one of this phase's.
  Error wrong_decision() const;
  int next_challenge();

  void emit(std::vector<Event>* events, Value body) const;
  void emit_to(std::vector<Event>* events, SeatMask seats, Value body) const;
  Value trick_value(const TrickCard* trick, int n, Seat viewer) const;
  void write_trick(ViewWriter& out, const TrickCard* trick, int n, Seat viewer) const;

  // Fixed for the game.
  int players_ = 4;
  Format format_ = Format::kChallenges;
  int target_ = 12;
  bool election_ = false;
  int rounds_limit_ = 0;
  int first_challenge_ = kNoChallenge;
  bool has_first_deck_ = false;
  std::array<std::int8_t, kDeckSize> first_deck_{};
  std::uint64_t seed_ = 0;

  // Across rounds.
  std::array<std::int8_t, kChallengeCount> challenge_deck_{};
  int challenge_count_ = 0;
  int challenge_pos_ = 0;
  int challenge_cycle_ = 0;
  std::uint32_t sticky_used_ = 0;
  std::uint64_t deals_ = 0;  // deals so far (re-deals included): seeds each shuffle
  int round_ = 0;
  int dealer_ = 0;
  std::array<int, 2> scores_{};
  Phase phase_ = Phase::kPlay;
  Seat actor_ = 0;  // the seat to act in single-actor phases

  // The round.
  int challenge_ = kNoChallenge;
  std::array<CardSet, 4> hand_{};
  std::array<CardSet, 4> set_aside_{};  // LC-7.8
  std::array<CardSet, 4> face_up_{};    // LC-7.7
  std::array<std::int8_t, 4> reference_{{-1, -1, -1, -1}};  // LC-7.3
  int stacks_ = 0;                                           // LC-4.2 per player
  std::array<std::array<std::int8_t, 5>, 2> stack_up_{};
  std::array<std::array<std::int8_t, 5>, 2> stack_down_{};
  // LC-4.4 the face-up tableau cards of each seat: the stack_up_ cards >= 0, kept
  // as a mask so that legal plays need not walk the stacks.
  std::array<CardSet, 4> tableau_up_{};
  std::array<std::int8_t, 9> casa_{};  // casa_[0] is the top
  int casa_size_ = 0;
  bool casa_top_up_ = false;
  CardSet out_;  // LC-4.7 out of play (discards, eliminations, unused 1s)
  int ruling_ = kNoFamily;
  int cousins_ = kNoFamily;
  int lead_ = kNoFamily;
  int nominated_ = kNoFamily;  // LC-6.2
  int election_round_ = 0;
  std::uint32_t passed_ = 0;  // election or bidding passes (seat bits)
  int elector_ = -1;
  int discarded_ = -1;  // LC-6.4 the elector's face-down discard
  int bid_ = 0;         // LC-7.10
  int bidder_ = -1;
  std::uint32_t club_done_ = 0;
  int leader_ = 0;
  std::array<TrickCard, 4> trick_{};
  int trick_n_ = 0;
  std::uint32_t committed_ = 0;  // LC-7.16
  int bandit_ = -1;              // LC-7.2 trick index of the bandit acting
  int stolen_ = -1;
  int trick_winner_ = -1;
  std::array<int, 2> tricks_won_{};
  std::array<CardSet, 2> captured_{};
  std::array<std::array<std::uint8_t, 20>, 4> won_families_{};  // LC-7.3 per trick won
  std::array<int, 4> won_count_{};
  int tricks_played_ = 0;
  int total_tricks_ = 0;
  int mc_side_ = -1;  // LC-5.1 the side that captured the Mangia-Cake
  bool mc_trick_captured_ = false;
  std::array<TrickCard, 4> last_trick_{};
  int last_trick_n_ = 0;
  int last_winner_ = -1;
  std::array<int, 2> round_points_{};
  std::array<int, 2> round_counts_{};  // what the round was scored on
  bool round_scored_ = false;

  // Knowledge (LC-10): every card each seat has seen this round, and the public ones.
  std::array<CardSet, 4> seen_{};
  CardSet public_;
};

}  // namespace casa::la_casa
