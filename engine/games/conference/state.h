// SPDX-License-Identifier: AGPL-3.0-or-later
// The Conference game state behind engine/game.h. Internal to this folder: the
// bot reads it (only what its seat may see), nothing else does.
//
// Invariants: every card of the deck is in exactly one place (a hand, the
// discard, the current trick, a finished trick, or beside its owner as the
// Fool); the state holds only fixed arrays and masks, so applying an action
// allocates nothing unless events are asked for (or a hand ends).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/game.h"
#include "engine/games/conference/cards.h"

namespace casa::conference {

inline constexpr int kPlayers = 4;
inline constexpr int kTricksPerHand = 19;
inline constexpr int kMaxHands = 1000;

enum class GoodEvil : std::uint8_t { kOff, kTrumps, kAllegiance };
enum class Phase : std::uint8_t { kDiscard, kGallowglass, kPlay, kDeal, kOver };
enum ActionKind : std::uint16_t { kDiscardAction = 1, kPlayAction, kNameGallowglass, kDealAction };
// Bits of Action::arg for a play.
inline constexpr std::int32_t kCallOurs = 1;
inline constexpr std::int32_t kCallYours = 2;
inline constexpr std::int32_t kCallMask = 3;
inline constexpr std::int32_t kAsGallowglass = 4;
inline constexpr std::int32_t kNoGallowglass = 4;  // name_gallowglass arg for "none"

constexpr int side_of(int seat) { return seat / 2; }
constexpr int partner_of(int seat) { return seat ^ 1; }

struct Options {
  GoodEvil good_evil = GoodEvil::kOff;
  bool attack_defence = false;
  bool gallowglass = false;
  int hands = 4;
};

struct Play {
  std::int8_t seat = -1;
  std::uint8_t card = 0;
  bool as_gallowglass = false;
  bool no_effect = false;  // CO-6.3(b): the partner's card that goes in with no effect
};

struct Trick {
  std::array<Play, kPlayers> plays{};  // in playing order
  std::int8_t count = 0;
  std::int8_t leader = -1;
  std::int8_t led = -1;      // suit 0..3, kTrumpSuit, or -1 while no card has set it
  std::int8_t led_pos = -1;  // the position whose card set the led suit
  std::int8_t winner = -1;   // seat, once complete
  bool by_gallowglass = false;
  std::int8_t good_side = -1;  // side scoring Earth and Air under the call in force at the end
  std::int8_t replaced_seat = -1;  // CO-6.3(b): whose card went back to their hand
  std::uint8_t replaced_card = 0;
};

struct Call {
  std::int8_t seat = -1;
  std::uint8_t card = 0;
  std::int8_t call = 0;  // kCallOurs or kCallYours
  std::int8_t trick = 0;
  std::int8_t good_side = -1;  // the side that scores Earth and Air under it
};

// The summary of a finished hand; the card part stays visible until the next deal.
struct HandResult {
  int dealer = 0;
  std::array<int, 2> hand_points{};
  std::array<int, 2> card_points{};
  std::array<int, 2> tricks{};
  std::array<int, 2> awarded{};  // game points won by each side this hand
  int fool_owner = -1;
  int fool_payment = -1;  // the card paid (kFool when the Fool itself was given), -1 none
  int fool_paid_to = -1;  // side
};

class ConferenceGame final : public Game {
 public:
  ConferenceGame(const Options& options, std::uint64_t seed, int first_dealer,
                 const std::array<std::uint8_t, kCardCount>* deck, int deck_size);

  std::string_view name() const override { return "conference"; }
  int players() const override { return kPlayers; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<ConferenceGame>(*this); }
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
  // determinize() with a chosen number of tries at dealing by chance before the
  // constraint-respecting placement (0: that placement alone; tests use it).
  std::unique_ptr<ConferenceGame> determinize_with(Seat seat, std::uint64_t seed,
                                                   int random_attempts) const;

  // Read access for the bot (it uses only what its own seat may see).
  const Options& options() const { return options_; }
  Phase phase() const { return phase_; }
  Cards hand(Seat seat) const { return hands_[seat]; }
  const Trick& current_trick() const { return trick_; }
  int gallowglass_suit() const { return gallowglass_suit_; }
  int good_side() const { return good_side_; }
  // CO-4.4 / CO-6.2 / CO-8.2: the position in `trick` of the winning play.
  static int judge(const Trick& trick);

  // The cards `seat` may play now: `normal` as ordinary plays, `as_gallowglass`
  // played as gallowglass (CO-8.2).
  struct PlayChoices {
    Cards normal;
    Cards as_gallowglass;
  };
  PlayChoices play_choices(Seat seat) const;
  // Whether playing `card` now carries a call (CO-6.3(a), (c)).
  bool needs_call(Seat seat, int card) const;
  Cards discard_choices() const;

 private:
  void deal(const std::array<std::uint8_t, kCardCount>& order);
  std::array<std::uint8_t, kCardCount> shuffled_deck() const;
  int next_seat(int seat) const { return (seat + direction_ + kPlayers) % kPlayers; }
  int contract() const { return deck_size_ == 80 ? 84 : 83; }
  void play_card(Seat seat, const Action& action, std::vector<Event>* events);
  void finish_trick(std::vector<Event>* events);
  void finish_hand(std::vector<Event>* events);
  int value_in(int card, int winner_side, int good_side) const;
  void start_play();
  void note_voids(const Play& play);
  Value play_value(const Play& play) const;
  Value trick_value(const Trick& trick) const;
  Value result_value(const HandResult& r, bool with_cards) const;
  Value public_table() const;
  bool hand_open() const { return phase_ == Phase::kDeal || phase_ == Phase::kOver; }

  Options options_;
  std::uint64_t seed_;
  int deck_size_;
  int hand_number_ = 0;  // hands dealt so far, this one included
  Phase phase_ = Phase::kDiscard;
  std::array<int, 2> game_points_{};
  int winning_side_ = -1;
  std::vector<HandResult> results_;  // one per finished hand

  // The hand being played.
  int dealer_ = 0;
  int direction_ = 1;  // +1: to the left (clockwise); -1 to the right (CO-7.3)
  int to_play_ = 0;
  std::array<Cards, kPlayers> hands_{};
  Cards discard_;
  int discard_target_ = 2;
  Cards revealed_;  // cards in hands that everyone knows the place of (CO-7.1, CO-6.3(b))
  int gallowglass_suit_ = -1;  // -1: none (or not named yet)
  Trick trick_;
  std::array<Trick, kTricksPerHand> tricks_{};
  int trick_count_ = 0;
  std::array<Call, 2> calls_{};
  int call_count_ = 0;
  int good_side_ = -1;     // side scoring Earth and Air under the call in force
  int ge_played_ = 0;      // GOOD/EVIL cards played this hand
  int ge_first_seat_ = -1;  // who played the first of them
  int forced_seat_ = -1;   // CO-6.3(b): the partner who must play forced_card_
  int forced_card_ = -1;
  int fool_owner_ = -1;
  int fool_trick_ = -1;
  std::array<std::uint8_t, kPlayers> voids_{};  // bit s: publicly void in suit s (4 = trumps)
  bool hand_done_ = false;  // the last result belongs to the hand still on the table
};

}  // namespace casa::conference
