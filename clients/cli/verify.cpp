#include "clients/cli/verify.h"

#include <vector>

#include "protocol/deal_commitment.h"
#include "protocol/value_json.h"

namespace casa::cli {

using nlohmann::json;

namespace {

std::string text_or_empty(const json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The seed as the server writes it: decimal, no sign, no leading zeros, 64 bits.
std::optional<std::uint64_t> parse_seed(const std::string& text) {
  if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  try {
    const unsigned long long v = std::stoull(text);
    if (std::to_string(v) != text) return std::nullopt;
    return static_cast<std::uint64_t>(v);
  } catch (const std::exception&) {
    return std::nullopt;
  }
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
      if (expected[i] != got[i]) return first_difference(expected[i], got[i], path + "/" + std::to_string(i));
    }
  }
  return path.empty() ? "/" : path;
}

}  // namespace

Verdict verify_replay(const json& replay, const std::optional<std::string>& published, const GameMaker& make) {
  Verdict v;
  auto fail = [&](std::string why) {
    v.honest = false;
    v.mismatch = std::move(why);
    return v;
  };
  if (!replay.is_object()) return fail("the replay is not a JSON object");

  // 1. The commitment.
  const json commitment = replay.value("deal_commitment", json());
  const json deal = replay.value("deal", json());
  if (!commitment.is_object() || !deal.is_object()) {
    return fail("the replay carries no deal commitment (a table from before commitments existed?)");
  }
  if (text_or_empty(commitment, "algorithm") != kDealCommitmentAlgorithm) {
    return fail("unknown commitment algorithm '" + text_or_empty(commitment, "algorithm") + "'");
  }
  v.commitment = text_or_empty(commitment, "hash");
  const std::string salt = text_or_empty(deal, "salt");
  const std::string seed_text = text_or_empty(deal, "seed");
  if (!is_deal_salt(salt)) return fail("the revealed salt '" + salt + "' is not 32 lowercase hex digits");
  const auto seed = parse_seed(seed_text);
  if (!seed) return fail("the revealed seed '" + seed_text + "' is not a decimal 64-bit number");
  if (text_or_empty(replay, "seed") != seed_text) {
    return fail("the replay's seed " + text_or_empty(replay, "seed") + " is not the revealed seed " + seed_text);
  }
  const std::string recomputed = deal_commitment_hash(salt, *seed);
  if (recomputed != v.commitment) {
    return fail("commitment mismatch: SHA-256(\"" + deal_commitment_text(salt, *seed) + "\") is " + recomputed +
                ", the table published " + v.commitment);
  }
  if (published && *published != v.commitment) {
    return fail("commitment mismatch: you noted " + *published + ", the replay says the table published " +
                v.commitment);
  }

  // 2. The deal.
  const std::string game_name = text_or_empty(replay, "game");
  if (!replay.contains("players") || !replay["players"].is_number_integer()) return fail("the replay has no player count");
  const int players = replay["players"].get<int>();
  const json options = replay.value("options", json::object());
  CreateResult created = make ? make(game_name, players, from_json(options), *seed)
                              : create_game(game_name, players, from_json(options), *seed);
  if (!created.game) {
    return fail("the engine cannot create " + game_name + " for " + std::to_string(players) + " with these options: " +
                (created.error ? created.error->message : "?"));
  }
  Game& game = *created.game;
  const json dealt = to_json(game.full_state());
  if (dealt != replay.value("initial_state", json())) {
    return fail("the deal differs from the seed's: initial state at " +
                first_difference(dealt, replay.value("initial_state", json())));
  }

  // 3. Every action.
  const json log = replay.value("log", json::array());
  if (!log.is_array()) return fail("the replay's log is not a list");
  std::vector<Action> legal;
  std::int64_t expected_seq = 1;
  for (const auto& entry : log) {
    const std::string at = "action " + std::to_string(expected_seq);
    if (!entry.is_object() || entry.value("seq", std::int64_t{-1}) != expected_seq) {
      return fail(at + ": the log skips or repeats a step");
    }
    if (!entry.contains("seat") || !entry["seat"].is_number_integer()) return fail(at + ": no seat");
    const int seat = entry["seat"].get<int>();
    if (seat < 0 || seat >= game.players() || !(game.to_act() & seat_bit(seat))) {
      return fail(at + ": seat " + std::to_string(seat) + " was not to act");
    }
    Action action;
    if (auto err = game.decode_action(from_json(entry.value("action", json())), action)) {
      return fail(at + ": unreadable action " + entry.value("action", json()).dump() + " (" + err->message + ")");
    }
    game.legal_actions(seat, legal);
    bool is_legal = false;
    for (const auto& a : legal) is_legal = is_legal || a == action;
    if (!is_legal) {
      return fail(at + ": " + entry["action"].dump() + " by seat " + std::to_string(seat) + " is not legal");
    }
    if (auto err = game.apply(seat, action, nullptr)) {
      return fail(at + ": the engine refused " + entry["action"].dump() + " (" + err->message + ")");
    }
    const json state = to_json(game.full_state());
    if (!entry.contains("state") || entry["state"] != state) {
      return fail(at + ": the logged state differs from the engine's at " +
                  first_difference(state, entry.value("state", json())));
    }
    ++v.actions_checked;
    ++expected_seq;
  }

  // 4. The end.
  if (!game.is_over()) return fail("the log ends before the game is over");
  if (to_json(game.full_state()) != replay.value("final_state", json())) {
    return fail("the final state differs from the engine's");
  }
  const std::vector<int> scores = game.scores();
  if (json(scores) != replay.value("scores", json())) {
    return fail("the scores " + replay.value("scores", json()).dump() + " are not the engine's " + json(scores).dump());
  }
  const std::vector<Seat> winners = game.winners();
  if (json(winners) != replay.value("winners", json())) {
    return fail("the winners " + replay.value("winners", json()).dump() + " are not the engine's " +
                json(winners).dump());
  }
  v.honest = true;
  return v;
}

}  // namespace casa::cli
