// SPDX-License-Identifier: AGPL-3.0-or-later
#include "verify/verify.h"

#include <vector>

#include "protocol/deal_commitment.h"
#include "protocol/value_json.h"

namespace casa {

using nlohmann::json;

namespace {

// Typed reads that never throw: a replay is untrusted input, and the WebAssembly
// build turns every exception into an abort.
std::string text_or_empty(const json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it != object.end() ? *it : kNull;
}

std::optional<std::int64_t> integer_at(const json& object, const char* key) {
  const json& v = member(object, key);
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return std::nullopt;
}

// The seed as the server writes it: decimal, no sign, no leading zeros, 64 bits.
std::optional<std::uint64_t> parse_seed(const std::string& text) {
  if (text.size() > 1 && text[0] == '0') return std::nullopt;
  return parse_decimal(text);
}

// A short description of where two states differ, for the verdict.
std::string first_difference(const json& expected, const json& got, const std::string& path = "") {
  if (expected.type() != got.type()) return (path.empty() ? "/" : path);
  if (expected.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      if (!got.contains(key)) return path + "/" + key;
      if (value != got[key]) return first_difference(value, got[key], path + "/" + key);
    }
    for (const auto& [key, value] : got.items()) {
      if (!expected.contains(key)) return path + "/" + key;
    }
  } else if (expected.is_array()) {
    if (expected.size() != got.size()) return path + " (length)";
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (expected[i] != got[i])
        return first_difference(expected[i], got[i], path + "/" + std::to_string(i));
    }
  }
  return path.empty() ? "/" : path;
}

}  // namespace

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

std::optional<std::string> commitment_input(const json& replay) {
  const json& deal = member(replay, "deal");
  const std::string salt = text_or_empty(deal, "salt");
  const auto seed = parse_seed(text_or_empty(deal, "seed"));
  if (!is_deal_salt(salt) || !seed) return std::nullopt;
  return deal_commitment_text(salt, *seed);
}

Verdict walk_replay(const json& replay, const GameMaker& make, const ReplayVisitor& visit) {
  Verdict v;
  auto fail = [&](const char* check, std::string why, int action = 0) {
    v.honest = false;
    v.failed_check = check;
    v.failed_action = action;
    v.mismatch = std::move(why);
    return v;
  };
  if (!replay.is_object()) return fail("replay", "the replay is not a JSON object");
  v.game = text_or_empty(replay, "game");
  v.seed = text_or_empty(replay, "seed");
  const auto seed = parse_seed(v.seed);
  if (!seed) return fail("deal", "the replay's seed '" + v.seed + "' is not a decimal 64-bit number");

  // 2. The deal.
  const auto players_read = integer_at(replay, "players");
  if (!players_read || *players_read < 1 || *players_read > kMaxSeats) {
    return fail("deal", "the replay has no player count");
  }
  const int players = static_cast<int>(*players_read);
  const json& options_read = member(replay, "options");
  const json options = options_read.is_null() ? json::object() : options_read;
  CreateResult created = make ? make(v.game, players, from_json(options), *seed)
                              : create_game(v.game, players, from_json(options), *seed);
  if (!created.game) {
    return fail("deal",
                "the engine cannot create " + v.game + " for " + std::to_string(players) +
                    " with these options: " + (created.error ? created.error->message : "?"));
  }
  Game& game = *created.game;
  const json dealt = to_json(game.full_state());
  if (dealt != member(replay, "initial_state")) {
    return fail("deal", "the deal differs from the seed's: initial state at " +
                            first_difference(dealt, member(replay, "initial_state")));
  }

  // 3. Every action.
  const json& log = member(replay, "log");
  if (!log.is_array()) return fail("action", "the replay's log is not a list");
  std::vector<Action> legal;
  int expected_seq = 1;
  for (const auto& entry : log) {
    const std::string at = "action " + std::to_string(expected_seq);
    if (integer_at(entry, "seq") != std::optional<std::int64_t>(expected_seq)) {
      return fail("action", at + ": the log skips or repeats a step", expected_seq);
    }
    const auto seat_read = integer_at(entry, "seat");
    if (!seat_read) return fail("action", at + ": no seat", expected_seq);
    const std::int64_t seat = *seat_read;
    if (seat < 0 || seat >= game.players() ||
        !(game.to_act() & seat_bit(static_cast<Seat>(seat)))) {
      return fail("action", at + ": seat " + std::to_string(seat) + " was not to act",
                  expected_seq);
    }
    const json& logged = member(entry, "action");
    Action action;
    if (auto err = game.decode_action(from_json(logged), action)) {
      return fail("action", at + ": unreadable action " + logged.dump() + " (" + err->message + ")",
                  expected_seq);
    }
    game.legal_actions(static_cast<Seat>(seat), legal);
    bool is_legal = false;
    for (const auto& a : legal) is_legal = is_legal || a == action;
    if (!is_legal) {
      return fail("action",
                  at + ": " + logged.dump() + " by seat " + std::to_string(seat) + " is not legal",
                  expected_seq);
    }
    if (visit) visit(game, ReplayStep{expected_seq, static_cast<Seat>(seat), action, entry});
    if (auto err = game.apply(static_cast<Seat>(seat), action, nullptr)) {
      return fail("action",
                  at + ": the engine refused " + logged.dump() + " (" + err->message + ")",
                  expected_seq);
    }
    const json state = to_json(game.full_state());
    if (member(entry, "state") != state) {
      return fail("action",
                  at + ": the logged state differs from the engine's at " +
                      first_difference(state, member(entry, "state")),
                  expected_seq);
    }
    ++v.actions_checked;
    ++expected_seq;
  }

  // 4. The end.
  v.game_over = game.is_over();
  if (!v.game_over) return fail("end", "the log ends before the game is over");
  if (to_json(game.full_state()) != member(replay, "final_state")) {
    return fail("end", "the final state differs from the engine's");
  }
  const json scores = game.scores();
  if (scores != member(replay, "scores")) {
    return fail("end", "the scores " + member(replay, "scores").dump() + " are not the engine's " +
                           scores.dump());
  }
  const json winners = game.winners();
  if (winners != member(replay, "winners")) {
    return fail("end", "the winners " + member(replay, "winners").dump() +
                           " are not the engine's " + winners.dump());
  }
  v.honest = true;
  return v;
}

Verdict verify_replay(const json& replay, const Sha256Hex& sha256,
                      const std::optional<std::string>& published, const GameMaker& make) {
  Verdict v;
  auto fail = [&](const char* check, std::string why, int action = 0) {
    v.honest = false;
    v.failed_check = check;
    v.failed_action = action;
    v.mismatch = std::move(why);
    return v;
  };
  if (!replay.is_object()) return fail("replay", "the replay is not a JSON object");
  v.game = text_or_empty(replay, "game");

  // 1. The commitment.
  const json& commitment = member(replay, "deal_commitment");
  const json& deal = member(replay, "deal");
  if (!commitment.is_object() || !deal.is_object()) {
    return fail("commitment",
                "the replay carries no deal commitment (a table from before commitments existed?)");
  }
  if (text_or_empty(commitment, "algorithm") != kDealCommitmentAlgorithm) {
    return fail("commitment",
                "unknown commitment algorithm '" + text_or_empty(commitment, "algorithm") + "'");
  }
  v.commitment = text_or_empty(commitment, "hash");
  const std::string salt = text_or_empty(deal, "salt");
  const std::string seed_text = text_or_empty(deal, "seed");
  if (!is_deal_salt(salt))
    return fail("commitment", "the revealed salt '" + salt + "' is not 32 lowercase hex digits");
  const auto seed = parse_seed(seed_text);
  if (!seed)
    return fail("commitment",
                "the revealed seed '" + seed_text + "' is not a decimal 64-bit number");
  v.seed = seed_text;
  if (text_or_empty(replay, "seed") != seed_text) {
    return fail("commitment", "the replay's seed " + text_or_empty(replay, "seed") +
                                  " is not the revealed seed " + seed_text);
  }
  const std::string hashed = deal_commitment_text(salt, *seed);
  const std::optional<std::string> recomputed = sha256 ? sha256(hashed) : std::nullopt;
  if (!recomputed) {
    v.commitment_checked = false;  // said in the verdict, after the other checks
  } else if (*recomputed != v.commitment) {
    return fail("commitment", "commitment mismatch: SHA-256(\"" + hashed + "\") is " + *recomputed +
                                  ", the table published " + v.commitment);
  }
  if (published && *published != v.commitment) {
    return fail("commitment", "commitment mismatch: you noted " + *published +
                                  ", the replay says the table published " + v.commitment);
  }

  // 2-4. The deal, every action and the end.
  const Verdict walked = walk_replay(replay, make, {});
  v.actions_checked = walked.actions_checked;
  v.game_over = walked.game_over;
  if (!walked.honest) return fail(walked.failed_check.c_str(), walked.mismatch, walked.failed_action);
  if (!v.commitment_checked) {
    return fail("commitment",
                "the commitment could not be checked: no SHA-256 was available to hash \"" +
                    hashed + "\" with (it must give " + v.commitment + ")");
  }
  v.honest = true;
  return v;
}

json verdict_json(const Verdict& verdict) {
  json out = {{"verified", verdict.honest},
              {"game", verdict.game},
              {"seed", verdict.seed},
              {"commitment", verdict.commitment},
              {"actions_checked", verdict.actions_checked}};
  if (!verdict.honest) {
    out["check"] = verdict.failed_check;
    if (verdict.failed_action > 0) out["action"] = verdict.failed_action;
    out["why"] = verdict.mismatch;
  }
  if (!verdict.commitment_checked) out["commitment_checked"] = false;
  return out;
}

namespace {
json parse_or_discarded(std::string_view text) {
  return json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}
}  // namespace

std::string commitment_input_text(std::string_view replay_text) {
  const json replay = parse_or_discarded(replay_text);
  if (replay.is_discarded()) return {};
  return commitment_input(replay).value_or(std::string());
}

std::string verify_replay_text(std::string_view replay_text,
                               const std::optional<std::string>& digest,
                               std::string_view published) {
  const json replay = parse_or_discarded(replay_text);
  if (replay.is_discarded()) {
    Verdict v;
    v.failed_check = "replay";
    v.mismatch = "the replay is not JSON";
    return verdict_json(v).dump();
  }
  const std::optional<std::string> noted =
      published.empty() ? std::nullopt : std::optional<std::string>(std::string(published));
  // The digest was computed by the caller of commitment_input_text on this same
  // replay text, so it is the digest of the text verify_replay asks about.
  const Sha256Hex given = [&](std::string_view) { return digest; };
  return verdict_json(verify_replay(replay, given, noted)).dump();
}

}  // namespace casa
