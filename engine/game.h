// SPDX-License-Identifier: AGPL-3.0-or-later
// The game-neutral interface every game implements and everything else uses:
// the server, casa-sim, the bots and the tests. It owns these invariants:
//
//  * Deterministic: the same (game, players, options, seed) and the same list of
//    (seat, action) pairs always produce the same state, on any compiler.
//  * apply() either succeeds, or returns an Error and leaves the state unchanged.
//  * Every decision a player makes is an Action found in legal_actions(); the
//    engine never decides for a player silently.
//  * view(seat) holds only what that seat may see; view(kSpectator) only what
//    every player sees.
//
// The engine does no I/O: no sockets, files, clocks or logging.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/value.h"
#include "engine/view_writer.h"

namespace casa {

using Seat = int;
inline constexpr Seat kSpectator = -1;
inline constexpr int kMaxSeats = 8;

// Bit s is set when seat s is included.
using SeatMask = std::uint32_t;
inline constexpr SeatMask seat_bit(Seat s) { return SeatMask{1} << s; }

// A player's decision, in a compact form that allocates nothing. Each game gives
// the fields its own meaning (documented in its header) and converts actions to
// and from their public Value form with encode_action() / decode_action().
struct Action {
  std::uint16_t kind = 0;   // what sort of decision (play, bid, pass, ...)
  std::uint16_t card = 0;   // a card index, when the decision names one card
  std::int32_t arg = 0;     // a number, family, seat, call, ...
  std::uint64_t set = 0;    // a set of card indices (e.g. cards captured)
  std::uint64_t set2 = 0;   // a second set (e.g. builds captured)
  friend bool operator==(const Action&, const Action&) = default;
};

// A refused action: a machine-readable code and a sentence for people.
struct Error {
  std::string code;     // e.g. "not_your_turn", "illegal_action", "bad_option"
  std::string message;  // e.g. "You must follow Guns: you hold G3."
};

// Something that happened, and who may learn of it. A game emits a private
// version (to the seats who may know the detail) and a redacted public one when
// the others learn only that something happened (e.g. a card was passed).
struct Event {
  SeatMask seats = 0;       // seats that receive this event
  bool spectators = false;  // whether spectators receive it
  Value body;               // {"type": "...", ...}
};

class Game {
 public:
  virtual ~Game() = default;

  virtual std::string_view name() const = 0;  // "la-casa", "casino", ...
  virtual int players() const = 0;
  virtual std::unique_ptr<Game> clone() const = 0;

  // Seats that must act now; several bits at once for simultaneous decisions.
  // Zero when the game is over.
  virtual SeatMask to_act() const = 0;

  // Replaces `out` with every legal action of `seat` (empty if it need not act).
  // Reuses out's capacity: no allocation once the buffer has grown.
  virtual void legal_actions(Seat seat, std::vector<Action>& out) const = 0;

  // Applies `action` for `seat`. On success appends what happened to *events (when
  // events is not null) and returns nullopt; otherwise returns why and changes nothing.
  // The same checks for every game come first: game_over once the game is over,
  // not_your_turn (not_your_turn()'s error) when `seat` is not among to_act();
  // then the game's own step().
  std::optional<Error> apply(Seat seat, const Action& action, std::vector<Event>* events) {
    if (is_over()) return Error{"game_over", "The game is over."};
    if (seat < 0 || seat >= players() || !(to_act() & seat_bit(seat))) return not_your_turn(seat);
    return step(seat, action, events);
  }

  virtual bool is_over() const = 0;
  // Game points per seat (partners show the same figure).
  virtual std::vector<int> scores() const = 0;
  // Seats that won; empty while the game goes on.
  virtual std::vector<Seat> winners() const = 0;

  // What `seat` may see now (kSpectator: only what every player sees).
  virtual Value view(Seat seat) const = 0;
  // The same view written through `out` (engine/view_writer.h): the server
  // writes a seat's view straight into a message this way. The calls describe
  // exactly the Value view(seat) returns; the default walks that Value, a game
  // whose view is hot writes it directly (and builds view() from the same
  // calls with a ValueWriter).
  virtual void write_view(Seat seat, ViewWriter& out) const { out.value(view(seat)); }
  // The whole state, hidden cards included: for finished-game replays and tests.
  virtual Value full_state() const = 0;
  // Ids of the cards that exist in the state but `seat` may not see now
  // (kSpectator: every card not public). Tests scan messages against this list.
  virtual std::vector<std::string> secret_cards(Seat seat) const = 0;

  // The public form of an action, e.g. {"type":"play","card":"G5"}.
  virtual Value encode_action(const Action& action) const = 0;
  // The reverse; an Error when the value names no action of this game. Whether the
  // action is legal now is apply()'s business.
  virtual std::optional<Error> decode_action(const Value& value, Action& out) const = 0;

  // A complete state consistent with everything `seat` knows, its hidden cards
  // redistributed at random from `seed` (for search bots). Same seed, same sample.
  virtual std::unique_ptr<Game> determinize(Seat seat, std::uint64_t seed) const = 0;

 protected:
  // apply() for a game that goes on and a seat among to_act(): the action's own
  // checks and its effect, with apply()'s contract (an Error changes nothing).
  virtual std::optional<Error> step(Seat seat, const Action& action, std::vector<Event>* events) = 0;
  // Why `seat` may not act now (a seat out of range included).
  virtual Error not_your_turn(Seat /*seat*/) const { return Error{"not_your_turn", "It is not your turn."}; }
};

// The games this engine knows, by name.
std::vector<std::string> game_names();

struct CreateResult {
  std::unique_ptr<Game> game;  // set on success
  std::optional<Error> error;  // set on failure
};

// Creates a game. Options is an object; unknown or invalid options are an Error
// ("bad_option"), as is an unsupported player count ("bad_players").
CreateResult create_game(std::string_view name, int players, const Value& options,
                         std::uint64_t seed);

}  // namespace casa
