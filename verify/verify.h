// SPDX-License-Identifier: AGPL-3.0-or-later
// The checks of a finished game's replay (GET /api/tables/{table}/replay) that a
// player runs without trusting the server (docs/fair-play.md): one implementation
// for `casa verify` (clients/cli) and for the web client's replay page, which runs
// it compiled to WebAssembly (verify/wasm.cpp). It owns these checks, in order,
// and stops at the first that fails:
//
//  1. commitment: the revealed salt and seed hash to the commitment the table
//     published (the replay's, and the one the player noted, when given). The
//     SHA-256 comes from the caller (Sha256Hex): this library hashes nothing
//     itself, so that no hand-written hash exists anywhere.
//  2. deal: the engine, created from the replay's game, players, options and seed,
//     deals exactly the replay's initial state (every hand).
//  3. action: every logged action, in order, comes from a seat that had to act and
//     is one of that seat's legal actions; the state after it is the logged state.
//  4. end: the game is then over, with the replay's final state, scores and winners.
//
// The engine runs locally: nothing but the replay's JSON comes from the server.
// Any JSON is accepted as input: a malformed replay fails the checks ("replay"),
// it never throws (the WebAssembly build has no exceptions).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "engine/game.h"

namespace casa {

struct Verdict {
  bool honest = false;
  // Which check failed: "replay" (not a replay at all), "commitment", "deal",
  // "action" or "end"; empty when honest.
  std::string failed_check;
  int failed_action = 0;  // the log's seq of the action that failed (0: none)
  std::string mismatch;   // the first check that failed, in words (empty when honest)
  int actions_checked = 0;
  std::string commitment;  // the hash that was checked
  // False when the caller had no SHA-256 to give (a browser without WebCrypto):
  // then the other checks still run, but the verdict is never honest, and when
  // they all pass it fails "commitment" saying that it could not be checked.
  bool commitment_checked = true;
  std::string game;
  std::string seed;  // the revealed seed, when it could be read
  bool game_over = false;  // the engine found the game over after the whole log
};

// How to create a game (engine's create_game by default; tests add their own games).
using GameMaker = std::function<CreateResult(std::string_view, int, const Value&, std::uint64_t)>;

// The SHA-256 of `text` as 64 lowercase hex digits, or std::nullopt when the
// caller has none to compute it with. Natively: protocol/crypto.h's sha256_hex
// (OpenSSL), the function the server publishes the commitment with. In the
// browser: the digest WebCrypto computed of commitment_input(replay) beforehand
// (verify/wasm.cpp), since crypto.subtle.digest is asynchronous.
using Sha256Hex = std::function<std::optional<std::string>(std::string_view text)>;

// The exact text the replay's commitment hashes (deal_commitment_text of the
// revealed salt and seed), or std::nullopt when the replay reveals no salt and
// seed of the right form (the commitment check then fails without hashing).
// A decimal number of 1 to 20 digits that fits in 64 bits (leading zeros
// allowed), or std::nullopt. The seeds in a replay are stricter (parse_seed in
// verify.cpp: no leading zero); `casa review` and its module read their --seed
// with this.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

std::optional<std::string> commitment_input(const nlohmann::json& replay);

// `sha256`: see Sha256Hex. `published`: the commitment the player saw in
// table_state, if they noted it.
Verdict verify_replay(const nlohmann::json& replay, const Sha256Hex& sha256,
                      const std::optional<std::string>& published = std::nullopt,
                      const GameMaker& make = {});

// One logged action, as walk_replay meets it.
struct ReplayStep {
  int seq = 0;  // the log's seq
  Seat seat = 0;
  Action action{};
  const nlohmann::json& entry;  // the log's entry ({"seq", "seat", "action", ...})
};
// Called with the state the action was decided in, before it is applied.
using ReplayVisitor = std::function<void(const Game& before, const ReplayStep& step)>;

// Checks 2-4 (deal, action, end) alone, on the engine rebuilt from the replay's
// game, players, options and "seed", calling `visit` (when given) before each
// logged action once it is known to be legal: what verify_replay and the game
// review (review/) walk a replay with. The commitment is not checked; the verdict
// is honest when every other check passed, its game_over false when the log ends
// before the game does (then failed_check is "end").
Verdict walk_replay(const nlohmann::json& replay, const GameMaker& make = {},
                    const ReplayVisitor& visit = {});

// The verdict as JSON (what the browser receives):
//   {"verified": true, "game": "la-casa", "seed": "42", "commitment": "7b3b…",
//    "actions_checked": 58}
//   {"verified": false, "check": "action", "action": 12, "why": "action 12: …",
//    "actions_checked": 11, …}
// with "commitment_checked": false added when there was no SHA-256 to check it.
nlohmann::json verdict_json(const Verdict& verdict);

// What the WebAssembly module exports (verify/wasm.cpp), on the replay's JSON text:
// commitment_input's text ("" when none, or when the text is not JSON), and the
// verdict as JSON text, given the hex SHA-256 of that text (`digest`, std::nullopt
// when the browser could compute none) and the noted commitment (empty: none).
std::string commitment_input_text(std::string_view replay_text);
std::string verify_replay_text(std::string_view replay_text,
                               const std::optional<std::string>& digest,
                               std::string_view published = {});

}  // namespace casa
