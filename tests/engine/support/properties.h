// SPDX-License-Identifier: AGPL-3.0-or-later
// Property checks shared by every game's tests: random seeded games are played
// through the public Game interface and each step is checked against the
// interface's invariants (see engine/game.h). casa_engine_tests runs a few games
// per option set; casa_property_tests (tests/properties/) runs thousands.
//
// The hidden-card scan covers everything the server sends from a game: every
// event to every audience it names, every seat's view and the spectators' view,
// and the legal-action list each acting seat receives in its request.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"

namespace casa::testing {

// Every string anywhere inside a Value (card ids appear as strings).
inline void collect_strings(const Value& v, std::set<std::string>& out) {
  if (v.is_string()) {
    out.insert(v.as_string());
  } else if (v.is_array()) {
    for (const auto& item : v.as_array()) collect_strings(item, out);
  } else if (v.is_object()) {
    for (const auto& [key, item] : v.as_object()) collect_strings(item, out);
  }
}

// a == b, quicker when both list their object members in the same order, as two
// states or views built by the same code do; Value's own == (blind to member
// order) decides wherever the orders differ.
inline bool same_value(const Value& a, const Value& b) {
  if (a.is_object() && b.is_object()) {
    const auto& ao = a.as_object();
    const auto& bo = b.as_object();
    if (ao.size() != bo.size()) return false;
    for (std::size_t i = 0; i < ao.size(); ++i) {
      if (ao[i].first != bo[i].first) return a == b;
      if (!same_value(ao[i].second, bo[i].second)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    const auto& aa = a.as_array();
    const auto& ba = b.as_array();
    if (aa.size() != ba.size()) return false;
    for (std::size_t i = 0; i < aa.size(); ++i)
      if (!same_value(aa[i], ba[i])) return false;
    return true;
  }
  return a == b;
}

// The card ids one audience (a seat, or kSpectator) may not see in one state,
// indexed once so that every message of that state is scanned in one walk. Card
// ids are short: an id of up to 7 bytes is packed with its length into one
// integer and looked up in a small open-addressing table (this scan runs over
// every message of thousands of games); longer ids go to a plain set.
class Secrets {
 public:
  void assign(const Game& game, Seat seat) {
    const std::vector<std::string> ids = game.secret_cards(seat);
    count_ = ids.size();
    long_ids_.clear();
    lengths_ = 0;
    std::size_t capacity = 16;
    while (capacity < 2 * ids.size()) capacity *= 2;
    slots_.assign(capacity, 0);
    for (const auto& id : ids) {
      lengths_ |= length_bit(id);
      if (const std::uint64_t key = pack(id)) {
        insert(key);
      } else if (!id.empty()) {
        long_ids_.insert(id);
      }
    }
  }
  bool empty() const { return count_ == 0; }
  bool contains(std::string_view s) const {
    if (!(lengths_ & length_bit(s))) return false;  // most strings are no card's length
    if (const std::uint64_t key = pack(s)) {
      for (std::size_t i = slot(key);; i = (i + 1) & (slots_.size() - 1)) {
        if (slots_[i] == key) return true;
        if (slots_[i] == 0) return false;
      }
    }
    return !long_ids_.empty() && long_ids_.count(std::string(s));
  }
  // The first secret card id found in `v` (a string value or an object key), or
  // nullptr if `v` holds none.
  const std::string* find_in(const Value& v) const { return empty() ? nullptr : walk(v); }

 private:
  static std::uint64_t length_bit(std::string_view s) {
    return std::uint64_t{1} << std::min<std::size_t>(s.size(), 63);
  }
  // Bytes and length in one non-zero integer; 0 for "" and for ids over 7 bytes.
  static std::uint64_t pack(std::string_view s) {
    if (s.empty() || s.size() > 7) return 0;
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, s.data(), s.size());
    return (bytes << 8) | s.size();
  }
  std::size_t slot(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32) & (slots_.size() - 1);
  }
  void insert(std::uint64_t key) {
    for (std::size_t i = slot(key);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == key) return;
      if (slots_[i] == 0) {
        slots_[i] = key;
        return;
      }
    }
  }
  const std::string* walk(const Value& v) const {
    if (v.is_string()) return contains(v.as_string()) ? &v.as_string() : nullptr;
    if (v.is_array()) {
      for (const auto& item : v.as_array())
        if (const std::string* leak = walk(item)) return leak;
    } else if (v.is_object()) {
      for (const auto& [key, item] : v.as_object()) {
        if (contains(key)) return &key;
        if (const std::string* leak = walk(item)) return leak;
      }
    }
    return nullptr;
  }

  std::size_t count_ = 0;
  std::uint64_t lengths_ = 0;                 // bit n: some id is n bytes long (63: longer)
  std::vector<std::uint64_t> slots_;          // packed ids; 0 marks a free slot
  std::unordered_set<std::string> long_ids_;  // ids over 7 bytes (rare)
};

// The secrets of every audience of one state: index seat + 1, kSpectator first.
class AudienceSecrets {
 public:
  void assign(const Game& game) {
    by_audience_.resize(static_cast<std::size_t>(game.players()) + 1);
    for (Seat s = kSpectator; s < game.players(); ++s) by_audience_[index(s)].assign(game, s);
  }
  const Secrets& of(Seat seat) const { return by_audience_[index(seat)]; }

 private:
  static std::size_t index(Seat seat) { return static_cast<std::size_t>(seat + 1); }
  std::vector<Secrets> by_audience_;
};

// The first card id in `v` that `seat` may not see in `game`, or "" if none.
inline std::string leaked_card(const Game& game, Seat seat, const Value& v) {
  Secrets secrets;
  secrets.assign(game, seat);
  const std::string* leak = secrets.find_in(v);
  return leak ? *leak : "";
}

// Tallies card ids against a game's whole deck, for the card-conservation
// invariants: each id counted must be a card of the deck, and counted once.
class DeckTally {
 public:
  explicit DeckTally(std::vector<std::string> deck) : deck_(std::move(deck)) {
    for (std::size_t i = 0; i < deck_.size(); ++i) index_.emplace(deck_[i], i);
    counts_.assign(deck_.size(), 0);
  }
  // index_ holds views into deck_, which a copy would not own.
  DeckTally(const DeckTally&) = delete;
  DeckTally& operator=(const DeckTally&) = delete;

  void clear() {
    std::fill(counts_.begin(), counts_.end(), 0);
    counted_ = 0;
  }
  // False (and `id` recorded as the problem) when id is no card or already counted.
  bool add(std::string_view id) {
    const auto it = index_.find(id);
    if (it == index_.end() || counts_[it->second]++ > 0) {
      problem_ = std::string(id);
      return false;
    }
    ++counted_;
    return true;
  }
  // Every card of the deck counted exactly once.
  bool complete() const { return counted_ == deck_.size(); }
  const std::string& problem() const { return problem_; }

 private:
  std::vector<std::string> deck_;
  std::unordered_map<std::string_view, std::size_t> index_;  // views into deck_
  std::vector<std::uint8_t> counts_;
  std::size_t counted_ = 0;
  std::string problem_;
};

struct PropertyOptions {
  std::string game;
  int players = 4;
  Value options = Value::object();
  int games = 200;
  std::uint64_t seed = 1;
  int max_actions = 100000;  // per game: a game that runs longer does not terminate
  // Game-specific invariant checked after every action (e.g. card conservation).
  std::function<void(const Game&)> invariant;
  // The same, given game.full_state() as well: the state is then built once per
  // action for this and for the illegal-action check (cheaper in large runs).
  std::function<void(const Game&, const Value& state)> state_invariant;
  bool check_views = true;        // scan every event to each of its audiences at every step,
                                  // and every view (seats and spectators) as view_every says
  int view_every = 1;             // scan the views after every N-th action (and at the end)
  bool check_legal_lists = true;  // scan each acting seat's encoded legal actions
  bool check_replay = true;       // replay the log and compare the final state
  bool check_illegal = true;      // try an illegal action and expect no change
  int determinize_every = 50;     // check determinize() every N actions (0: never)
};

struct LoggedAction {
  Seat seat;
  Action action;
};

inline Seat pick_seat(SeatMask mask, Rng& rng) {
  const int n = __builtin_popcount(mask);
  int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  for (Seat s = 0; s < kMaxSeats; ++s) {
    if ((mask & seat_bit(s)) && pick-- == 0) return s;
  }
  return -1;
}

// The scans below return "" when a message is clean, otherwise which audience
// would see which hidden card in which message.

// Each event against the secrets of each audience it goes to (the seats in its
// mask, and the spectators when it goes to them).
inline std::string event_leak(const AudienceSecrets& secrets, int players,
                              const std::vector<Event>& events) {
  for (const auto& e : events) {
    for (Seat s = 0; s < players; ++s) {
      if (!(e.seats & seat_bit(s))) continue;
      if (const std::string* leak = secrets.of(s).find_in(e.body))
        return "seat " + std::to_string(s) + " sees " + *leak + " in event " +
               e.body.debug_string();
    }
    if (e.spectators) {
      if (const std::string* leak = secrets.of(kSpectator).find_in(e.body))
        return "spectators see " + *leak + " in event " + e.body.debug_string();
    }
  }
  return "";
}

// Every seat's view and the spectators' view.
inline std::string view_leak(const Game& game, const AudienceSecrets& secrets) {
  for (Seat s = kSpectator; s < game.players(); ++s) {
    const Value view = game.view(s);
    if (const std::string* leak = secrets.of(s).find_in(view)) {
      return (s == kSpectator ? std::string("spectators see ")
                              : "seat " + std::to_string(s) + " sees ") +
             *leak + " in view " + view.debug_string();
    }
  }
  return "";
}

// The legal actions a seat is sent in its request, in their public form.
inline std::string legal_action_leak(Seat seat, const std::vector<Value>& encoded,
                                     const Secrets& secrets) {
  for (const auto& action : encoded) {
    if (const std::string* leak = secrets.find_in(action))
      return "seat " + std::to_string(seat) + " sees " + *leak + " in legal action " +
             action.debug_string();
  }
  return "";
}

inline void check_no_leak(const AudienceSecrets& secrets, int players,
                          const std::vector<Event>& events) {
  const std::string leak = event_leak(secrets, players, events);
  if (!leak.empty()) FAIL_CHECK("hidden card: ", leak);
}

inline void check_no_leak(const Game& game, const std::vector<Event>& events) {
  AudienceSecrets secrets;
  secrets.assign(game);
  check_no_leak(secrets, game.players(), events);
}

inline void check_views(const Game& game, const AudienceSecrets& secrets) {
  const std::string leak = view_leak(game, secrets);
  if (!leak.empty()) FAIL_CHECK("hidden card: ", leak);
}

inline void check_views(const Game& game) {
  AudienceSecrets secrets;
  secrets.assign(game);
  check_views(game, secrets);
}

// Makes the game for one seed; lets a test drive a mode's own create function.
using GameFactory = std::function<CreateResult(std::uint64_t seed)>;

// Plays opts.games random games made by `factory` (opts.game, opts.players and
// opts.options are then unused) and checks every invariant on the way.
// Returns the number of actions applied, so callers can assert coverage.
inline long check_random_games(const PropertyOptions& opts, const GameFactory& factory) {
  long total = 0;
  Rng rng(opts.seed);
  std::vector<Action> legal;
  std::vector<Action> chosen_legal;
  std::vector<Value> encoded;  // the public form of a seat's legal actions
  std::vector<Event> events;
  AudienceSecrets secrets;  // of the current state
  for (int g = 0; g < opts.games; ++g) {
    const std::uint64_t seed = opts.seed * 1000003ULL + static_cast<std::uint64_t>(g);
    auto created = factory(seed);
    REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
    Game& game = *created.game;
    std::vector<LoggedAction> log;
    int steps = 0;
    const bool scan = opts.check_views || opts.check_legal_lists;
    const bool keep_state = opts.check_illegal || opts.state_invariant;
    Value state;  // game.full_state() of the current state, when keep_state
    const auto after_action = [&] {
      if (scan) secrets.assign(game);
      if (keep_state) state = game.full_state();
      if (opts.invariant) opts.invariant(game);
      if (opts.state_invariant) opts.state_invariant(game, state);
    };
    after_action();
    if (opts.check_views) check_views(game, secrets);
    while (!game.is_over()) {
      REQUIRE_MESSAGE(steps < opts.max_actions, "game ", seed, " does not terminate");
      const SeatMask mask = game.to_act();
      REQUIRE_MESSAGE(mask != 0, "game ", seed, " is not over but nobody acts");
      const Seat seat = pick_seat(mask, rng);
      for (Seat s = 0; s < game.players(); ++s) {
        game.legal_actions(s, legal);
        const bool acts = mask & seat_bit(s);
        REQUIRE_MESSAGE(legal.empty() != acts, "seat ", s, " legal list disagrees with to_act");
        if (!acts) continue;
        // The public form of every legal action decodes back to the same action,
        // and names no card the seat may not see (the server's request lists them).
        encoded.resize(legal.size());
        for (std::size_t i = 0; i < legal.size(); ++i) {
          Action back;
          encoded[i] = game.encode_action(legal[i]);
          if (game.decode_action(encoded[i], back) || !(back == legal[i])) {
            FAIL("round trip of ", encoded[i].debug_string(), " failed");
          }
        }
        if (opts.check_legal_lists) {
          const std::string leak = legal_action_leak(s, encoded, secrets.of(s));
          if (!leak.empty()) FAIL_CHECK("hidden card: ", leak);
        }
        if (s == seat) chosen_legal.swap(legal);
      }
      const Action chosen =
          chosen_legal[rng.below(static_cast<std::uint32_t>(chosen_legal.size()))];

      if (opts.check_illegal) {
        // An out-of-turn action and an action of no known kind are refused and
        // change nothing.
        for (Seat other = 0; other < game.players(); ++other) {
          if (mask & seat_bit(other)) continue;
          REQUIRE(game.apply(other, chosen, nullptr).has_value());
          break;
        }
        Action bogus = chosen;
        bogus.kind = 0xFFFF;
        REQUIRE(game.apply(seat, bogus, nullptr).has_value());
        REQUIRE(same_value(game.full_state(), state));
      }

      events.clear();
      auto err = game.apply(seat, chosen, &events);
      REQUIRE_MESSAGE(!err, "legal action refused: ", (err ? err->message : ""));
      log.push_back({seat, chosen});
      ++steps;
      after_action();
      if (opts.check_views) {
        check_no_leak(secrets, game.players(), events);
        // Offset by the game's number, so that across games every step is seen.
        const bool view_step = (steps + g) % opts.view_every == 0;
        if (view_step || game.is_over()) check_views(game, secrets);
      }
      if (opts.determinize_every > 0 && steps % opts.determinize_every == 0 && !game.is_over()) {
        for (Seat s = 0; s < game.players(); ++s) {
          auto sample = game.determinize(s, seed + static_cast<std::uint64_t>(steps));
          REQUIRE(sample);
          CHECK_MESSAGE(same_value(sample->view(s), game.view(s)), "determinize changed seat ", s,
                        "'s view");
          CHECK(sample->to_act() == game.to_act());
        }
      }
    }
    CHECK(game.to_act() == 0);
    CHECK_FALSE(game.winners().empty());
    CHECK(static_cast<int>(game.scores().size()) == game.players());
    total += steps;

    if (opts.check_replay) {
      auto again = factory(seed);
      REQUIRE(again.game);
      for (const auto& entry : log) {
        REQUIRE_FALSE(again.game->apply(entry.seat, entry.action, nullptr).has_value());
      }
      CHECK(same_value(again.game->full_state(), keep_state ? state : game.full_state()));
      CHECK(again.game->scores() == game.scores());
    }
  }
  return total;
}

// Plays opts.games random games of opts.game and checks every invariant on the way.
// Returns the number of actions applied, so callers can assert coverage.
inline long check_random_games(const PropertyOptions& opts) {
  return check_random_games(opts, [&opts](std::uint64_t seed) {
    return create_game(opts.game, opts.players, opts.options, seed);
  });
}

}  // namespace casa::testing
