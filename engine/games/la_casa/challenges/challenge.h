// SPDX-License-Identifier: AGPL-3.0-or-later
// A La Casa Challenge card (LC-7) as one record: the facts and hooks by which it
// departs from the plain round. The table game (two and four players, la_casa_game.h)
// and Solo (solo_game.h) read the same records from one registry, so a
// Challenge's whole rule is in its own file here (anarchy.cpp ... slap_down.cpp).
//
// A hook left empty (nullptr, false) means "as in a round without a challenge".
// Hooks take the game itself: each file's hooks live in ChallengeRules<Id>, which
// both games befriend, so a Challenge reads and changes the state it needs without
// the games growing accessors for every rule.
//
// The hooks are the moments where the Challenges differ in the code today:
//   the deal           deals_two_more, deal (cards set apart), mangia_cake_face_down
//   the Ruling Family  selection, redeal_on_mangia_cake, open_round, before_play
//   the play           leader, nobody_follows, play, on_play, ruling_after, after_play
//   the trick          resolve, after_resolve, ends_on_mangia_cake
//   the score          tally, tally_most, score
//   the extra phases   phases (who acts, legal actions, check, apply, view, the robot's choice)
//   the view           view_after_casa, view_after_trick, set_apart
//   Solo               solo_* (Solo deals, scores and shows some Challenges its own way,
//                      and the robot names the Cousins at the human's seat)
// The extra phases (Bruto's elimination, the bandits' steal and give, ...) are
// entered from these hooks and declared with their actions in the Challenge's
// file (ExtraPhase): the table game asks the round's Challenge for them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"

namespace casa {
class ViewWriter;
}

namespace casa::la_casa {

class LaCasaGame;
class SoloGame;
struct TrickCard;
enum class Phase : int;  // la_casa_game.h

// LC-7 The Challenge cards, in the order of their ids.
enum ChallengeId : int {
  kNoChallenge = -1,
  kAnarchy = 0,
  kBandits,
  kBetrayal,
  kBruto,
  kCapitano,
  kCarita,
  kCardsOnTheTable,
  kTheClub,
  kCousins,
  kFigura,
  kKin,
  kMangiaCakeChallenge,
  kMinions,
  kPassTheBuck,
  kRevenge,
  kSlapDown,
};
inline constexpr int kChallengeCount = 16;

// The hooks of one Challenge; see each file in this folder.
template <int Id>
struct ChallengeRules;

// The legal actions of a phase, gathered in the caller's fixed buffer (no
// allocation; the table game's largest phase has 46 actions).
class ActionSink {
 public:
  explicit ActionSink(Action* buffer) : buffer_(buffer) {}
  void push(std::uint16_t kind, int card = 0, int arg = 0, std::uint64_t set = 0) {
    buffer_[n_++] = Action{kind, static_cast<std::uint16_t>(card), arg, set, 0};
  }
  int size() const { return n_; }

 private:
  Action* buffer_;
  int n_ = 0;
};

// A phase of the table game that only one Challenge begins (from its hooks):
// who acts in it, what they may do and what it does, and what the view shows of
// it. The table game asks the round's Challenge for the phase it is in.
struct ExtraPhase {
  Phase phase;
  // Its name in views and messages ("phase").
  std::string_view name;
  // The seats to act. Empty: the one seat whose turn it is.
  SeatMask (*to_act)(const LaCasaGame& g) = nullptr;
  // Why `seat`, which is not to act, may not act. Empty: it is not their turn.
  std::optional<Error> (*not_acting)(const LaCasaGame& g, Seat seat) = nullptr;
  // The legal actions of `seat` (one to act).
  void (*legal)(const LaCasaGame& g, Seat seat, ActionSink& out) = nullptr;
  // Validates an action of `seat` (one to act) without changing anything.
  std::optional<Error> (*check)(const LaCasaGame& g, Seat seat, const Action& a) = nullptr;
  // Applies an action that check() accepted.
  void (*apply)(LaCasaGame& g, Seat seat, const Action& a, std::vector<Event>* events) = nullptr;
  // What the view of `seat` (a player or not) shows: the seats acting, and the
  // hand size of `s`. Empty: to_act(), and the real size.
  SeatMask (*view_to_act)(const LaCasaGame& g, Seat seat, bool player) = nullptr;
  int (*view_hand_size)(const LaCasaGame& g, Seat s, Seat seat, bool player) = nullptr;
  // determinize(): deals hidden cards of this phase first from `pool[0..n)`
  // (shuffled), returns how many it took from the front. Empty: none.
  int (*determinize)(LaCasaGame& world, std::int8_t* pool, int n) = nullptr;
  // The rule-following robot's choice for `seat` (one to act) among `legal`, its
  // legal actions (engine/bots.h "robot"; moves from bot_moves.h).
  Action (*bot)(const LaCasaGame& g, Seat seat, std::span<const Action> legal) = nullptr;
};

struct Challenge {
  int id = kNoChallenge;
  std::string_view name = "none";

  // LC-7.0 Who plays it: four players, two players (table game), Solo (LC-8.3).
  bool four_players = false;
  bool two_players = false;
  bool solo = false;

  // --- The deal (LC-4) ---
  // LC-4.3 Two more cards each (four players) or a fifth stack (two players).
  bool deals_two_more = false;
  // Sets cards apart before the deal: copies the rest of `deck` to `rest` in
  // order and returns how many. Empty: every card is dealt.
  int (*deal)(LaCasaGame& g, const std::int8_t* deck, std::int8_t* rest) = nullptr;
  // A face-up tableau card that is the Mangia-Cake swaps with the card under it.
  bool mangia_cake_face_down = false;

  // --- The Ruling Family ---
  // LC-4.5 The top Casa card is turned up and its family rules (or is nominated).
  bool selection = true;
  // LC-4.9 A Mangia-Cake turned up by the Selection means a re-deal.
  bool redeal_on_mangia_cake = false;
  // Without Selection: how the round opens. Empty: no Ruling Family, then play.
  void (*open_round)(LaCasaGame& g, std::vector<Event>* events) = nullptr;
  // Once the Ruling Family is known and before the first lead: enters an extra
  // phase and returns true, or returns false when there is none (left).
  bool (*before_play)(LaCasaGame& g) = nullptr;

  // --- The play ---
  // Who leads the first trick. Empty: LC-4.6 / LC-6.4.
  int (*leader)(const LaCasaGame& g) = nullptr;
  // LC-2.4 is lifted: any card may be played to any trick.
  bool nobody_follows = false;
  // Replaces the play of a card to the trick entirely.
  void (*play)(LaCasaGame& g, Seat s, int card, std::uint8_t flags,
               std::vector<Event>* events) = nullptr;
  // Right after a card joins the trick (and its play event). Returns true when an
  // extra phase begins, false to go on.
  bool (*on_play)(LaCasaGame& g, Seat s, int card, std::vector<Event>* events) = nullptr;
  // The Ruling Family in force once `card` is played under `ruling`.
  int (*ruling_after)(int card, int ruling) = nullptr;
  // After the play and any on_play phase, before the next player: true when an
  // extra phase begins.
  bool (*after_play)(LaCasaGame& g, Seat s, std::vector<Event>* events) = nullptr;

  // --- The trick ---
  // The winning seat of `trick[0..n)` under `ruling`. Empty: LC-2.5 / LC-11.3.
  int (*resolve)(const LaCasaGame& g, const TrickCard* trick, int n, int ruling) = nullptr;
  // After the winner is fixed, before the trick is taken: true when it has taken
  // over (and will finish the trick itself).
  bool (*after_resolve)(LaCasaGame& g, std::vector<Event>* events) = nullptr;
  // The round ends as soon as a trick with the Mangia-Cake is captured.
  bool ends_on_mangia_cake = false;

  // --- The score (LC-5.3) ---
  // The side (or Solo player) with more (tally_most) or fewer of tally() scores 1; a tie
  // goes to whoever captured the Mangia-Cake (LC-5.2).
  int (*tally)(CardSet captured, int tricks) = nullptr;
  bool tally_most = true;
  // Any other scoring of the table game: sets the round's points (and counts).
  void (*score)(LaCasaGame& g, std::array<int, 2>& points) = nullptr;

  // --- The extra phases it begins ---
  std::span<const ExtraPhase> phases{};

  // --- What a seat sees (table game) ---
  // The cards deal() sets apart are exactly these (and everybody knows it):
  // determinize() deals the unseen ones back to where deal() put them.
  CardSet set_apart{};
  void (*view_after_casa)(const LaCasaGame& g, Seat seat, bool player, ViewWriter& v) = nullptr;
  void (*view_after_trick)(const LaCasaGame& g, Seat seat, bool player, ViewWriter& v) = nullptr;

  // --- Solo (LC-8.5) ---
  // Cards set apart before the Solo deal (Betrayal's references); returns how
  // many cards of `deck` were copied to `rest`.
  int (*solo_deal)(SoloGame& g, const std::array<int, kDeckSize>& deck,
                   std::array<int, kDeckSize>& rest) = nullptr;
  // Without Selection: whether the Casa card is shown anyway.
  bool solo_casa_shown = false;
  // The human names the Cousins before the first trick.
  bool solo_names_cousins = false;
  // Judges a finished Solo trick valid or not (and counts it); its event says so.
  bool (*solo_trick_valid)(SoloGame& g, CardSet cards, int winner) = nullptr;
  // The Solo round's points. Empty: the tally, or LC-8.3's goal without one.
  int (*solo_score)(const SoloGame& g) = nullptr;
  // Extra members of the Solo view: after the Casa, after the tricks won.
  void (*solo_view_after_casa)(const SoloGame& g, Value& v) = nullptr;
  void (*solo_view_after_tricks)(const SoloGame& g, Value& v) = nullptr;
  // Extra members of the Solo round's end event.
  void (*solo_round_end)(const SoloGame& g, Value& body) = nullptr;
  // The robot's choice at the human's seat when solo_names_cousins asks it to
  // name the Cousins, among `legal`.
  Action (*solo_bot)(const SoloGame& g, std::span<const Action> legal) = nullptr;
};

// The registry: every Challenge, indexed by id. challenge(kNoChallenge) is the
// plain round (no hooks).
const Challenge& challenge(int id);
const std::array<const Challenge*, kChallengeCount>& all_challenges();

// LC-7.0 The challenges a player count uses, as a bit mask over ChallengeId.
std::uint32_t challenges_for(int players);
// The Solo challenges (LC-8.3), as a bit mask over ChallengeId.
std::uint32_t solo_challenges();
std::string_view challenge_name(int challenge);
int parse_challenge(std::string_view name);  // kNoChallenge when unknown

}  // namespace casa::la_casa
