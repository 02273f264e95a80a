// SPDX-License-Identifier: AGPL-3.0-or-later
// fuzz_engine: arbitrary bytes drive every game through the public Game
// interface, looking for crashes and broken promises of engine/game.h.
//
// The bytes choose a game, a player count, options (mostly plausible ones, so
// that games really start, sometimes nonsense, to fuzz option checking) and a
// seed; then a sequence of steps, each one of:
//   * a legal move: an index into legal_actions() of a seat to act; it must be
//     accepted, and its encoding must decode back to the same action, while
//     the same encoding with a key added ("extra") must be refused as
//     malformed_action (engine/action_fields.h);
//   * a raw Action built from the bytes for any seat: if refused, full_state()
//     must be unchanged; if accepted, it must have been in legal_actions();
//   * decode_action() of an arbitrary Value, then the same check as above;
//   * the read-only calls (views, secret cards, clone, determinize) which must
//     not crash and must not change the state.
// Any broken promise aborts, which libFuzzer reports as a crash.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/game.h"

namespace {

using casa::Action;
using casa::Game;
using casa::Seat;
using casa::Value;

// What the current input set up, printed with a broken promise.
std::string g_setup;
std::string g_detail;

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_engine: broken promise: %s\n  setup: %s\n%s\n", what, g_setup.c_str(),
                 g_detail.c_str());
    std::abort();
  }
}

// Option names of all four games (see each game's header) plus a few that no
// game knows, so both acceptance and refusal are reached.
const char* const kOptionNames[] = {
    "rounds",      "hands",       "dealer",     "deck",        "challenge",   "good_evil",
    "attack_defence", "gallowglass", "target",   "mode",        "variant",     "election",
    "teams",       "points",      "sweeps",     "builds",      "mud",         "redeal",
    "robot",       "games",       "bogus",      "",
};
const char* const kStrings[] = {"off", "on", "trumps", "allegiance", "none", "domination",
                                "solo", "classic", "G5", "T21", "EQ", "\xff\xfe", ""};

Value fuzz_value(FuzzedDataProvider& in, int depth) {
  switch (in.ConsumeIntegralInRange<int>(0, depth > 2 ? 4 : 6)) {
    case 0: return Value(nullptr);
    case 1: return Value(in.ConsumeBool());
    case 2: return Value(in.ConsumeIntegralInRange<std::int64_t>(-3, 1100));
    case 3: return Value(in.ConsumeIntegral<std::int64_t>());
    case 4:
      if (in.ConsumeBool()) return Value(in.PickValueInArray(kStrings));
      return Value(in.ConsumeRandomLengthString(12));
    case 5: {
      Value a = Value::array();
      const int n = in.ConsumeIntegralInRange<int>(0, 6);
      for (int i = 0; i < n; ++i) a.push(fuzz_value(in, depth + 1));
      return a;
    }
    default: {
      Value o = Value::object();
      const int n = in.ConsumeIntegralInRange<int>(0, 4);
      for (int i = 0; i < n; ++i) {
        std::string key = in.ConsumeBool() ? std::string(in.PickValueInArray(kOptionNames))
                                           : in.ConsumeRandomLengthString(8);
        o.set(std::move(key), fuzz_value(in, depth + 1));
      }
      return o;
    }
  }
}

Value fuzz_options(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return Value::object();  // every default
    case 1: {
      // Short games, so the fuzzer reaches the end of a game often.
      Value o = Value::object();
      o.set(in.ConsumeBool() ? "rounds" : "hands", 1);
      return o;
    }
    default: {
      Value o = Value::object();
      const int n = in.ConsumeIntegralInRange<int>(0, 3);
      for (int i = 0; i < n; ++i) o.set(in.PickValueInArray(kOptionNames), fuzz_value(in, 1));
      return o;
    }
  }
}

// Applies an action that may or may not be legal and checks the contract. An
// accepted action need not be bit-identical to a listed one (a game may ignore
// fields its kind does not use), but it must do what some listed action does.
void try_any_action(Game& game, Seat seat, const Action& action, std::vector<Action>& legal) {
  const Value before = game.full_state();
  const auto original = game.clone();
  game.legal_actions(seat, legal);
  std::vector<casa::Event> events;
  const auto error = game.apply(seat, action, &events);
  if (error) {
    require(!error->code.empty(), "an Error has a code");
    require(game.full_state() == before, "a refused action changes nothing");
    require(events.empty(), "a refused action emits no event");
    require(std::find(legal.begin(), legal.end(), action) == legal.end(),
            "an action listed in legal_actions() is accepted");
    return;
  }
  const Value after = game.full_state();
  for (const Action& listed : legal) {
    auto copy = original->clone();
    if (!copy->apply(seat, listed, nullptr) && copy->full_state() == after) return;
  }
  require(false, "an accepted action does what some action of legal_actions() does");
}

Seat pick_seat_to_act(FuzzedDataProvider& in, const Game& game) {
  std::vector<Seat> seats;
  for (Seat s = 0; s < game.players(); ++s) {
    if (game.to_act() & casa::seat_bit(s)) seats.push_back(s);
  }
  if (seats.empty()) return -1;
  return seats[in.ConsumeIntegralInRange<std::size_t>(0, seats.size() - 1)];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  static const auto names = [] {
    // FUZZ_ENGINE_GAMES=casino,conference limits the run to some games (to keep
    // fuzzing the others while one has a known, unfixed finding).
    auto all = casa::game_names();
    const char* only = std::getenv("FUZZ_ENGINE_GAMES");
    if (!only) return all;
    std::vector<std::string> chosen;
    const std::string list = std::string(",") + only + ",";
    for (const auto& n : all) {
      if (list.find("," + n + ",") != std::string::npos) chosen.push_back(n);
    }
    return chosen.empty() ? all : chosen;
  }();
  const std::string name = names[in.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)];
  const int players = in.ConsumeIntegralInRange<int>(0, casa::kMaxSeats + 1);
  const Value options = fuzz_options(in);
  const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();

  g_setup = name + ", " + std::to_string(players) + " players, options " + options.debug_string() +
            ", seed " + std::to_string(seed);
  g_detail.clear();
  auto created = casa::create_game(name, players, options, seed);
  if (!created.game) {
    require(created.error.has_value() && !created.error->code.empty(), "create fails with an Error");
    return 0;
  }
  Game& game = *created.game;
  require(game.players() == players, "players() is the count asked for");

  std::vector<Action> legal;
  std::vector<casa::Event> events;
  for (int step = 0; step < 4000 && in.remaining_bytes() > 0; ++step) {
    if (game.is_over()) {
      require(game.to_act() == 0, "nobody acts once the game is over");
      (void)game.winners();
      (void)game.scores();
      break;
    }
    require(game.to_act() != 0, "somebody acts while the game goes on");
    const int op = in.ConsumeIntegralInRange<int>(0, 15);
    if (op <= 10) {
      // A legal move, the common case.
      const Seat seat = pick_seat_to_act(in, game);
      require(seat >= 0, "to_act names a seat of the table");
      game.legal_actions(seat, legal);
      require(!legal.empty(), "a seat to act has a legal action");
      const Action action = legal[in.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)];
      Action decoded;
      require(!game.decode_action(game.encode_action(action), decoded), "an encoded action decodes");
      require(decoded == action, "encode/decode round trip");
      Value padded = game.encode_action(action);
      padded.set("extra", 1);
      const auto refusal = game.decode_action(padded, decoded);
      require(refusal && refusal->code == "malformed_action", "an action with an unknown key is refused");
      events.clear();
      require(!game.apply(seat, action, &events), "a legal action is accepted");
    } else if (op == 11) {
      Action action;
      action.kind = in.ConsumeIntegral<std::uint16_t>() % 16;
      action.card = in.ConsumeIntegral<std::uint16_t>() % 200;
      action.arg = in.ConsumeIntegralInRange<std::int32_t>(-2, 40);
      action.set = in.ConsumeIntegral<std::uint64_t>();
      action.set2 = in.ConsumeBool() ? 0 : in.ConsumeIntegral<std::uint64_t>();
      const Seat seat = in.ConsumeIntegralInRange<Seat>(0, game.players() - 1);
      try_any_action(game, seat, action, legal);
    } else if (op == 12) {
      const Value value = fuzz_value(in, 0);
      Action action;
      if (!game.decode_action(value, action)) {
        const Seat seat = in.ConsumeIntegralInRange<Seat>(0, game.players() - 1);
        try_any_action(game, seat, action, legal);
      }
    } else if (op == 13) {
      // A legal action of one seat offered by another seat.
      const Seat actor = pick_seat_to_act(in, game);
      game.legal_actions(actor, legal);
      const Action action = legal[in.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)];
      const Seat seat = in.ConsumeIntegralInRange<Seat>(0, game.players() - 1);
      try_any_action(game, seat, action, legal);
    } else {
      const Value before = game.full_state();
      const Seat seat = in.ConsumeIntegralInRange<Seat>(-1, game.players() - 1);
      (void)game.view(seat);
      (void)game.secret_cards(seat);
      (void)game.scores();
      if (op == 15) {
        require(game.clone()->full_state() == before, "a clone has the same state");
        if (seat >= 0) {
          const std::uint64_t sample_seed = in.ConsumeIntegral<std::uint64_t>();
          auto sample = game.determinize(seat, sample_seed);
          if (sample->view(seat) != game.view(seat)) {
            g_detail = "  seat " + std::to_string(seat) + ", determinize seed " + std::to_string(sample_seed) +
                       " after " + std::to_string(step) + " steps\n  view:       " + game.view(seat).debug_string() +
                       "\n  determinized: " + sample->view(seat).debug_string();
          }
          require(sample->view(seat) == game.view(seat), "determinize keeps the seat's view");
        }
      }
      require(game.full_state() == before, "read-only calls change nothing");
    }
  }
  return 0;
}
