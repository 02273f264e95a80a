// SPDX-License-Identifier: AGPL-3.0-or-later
// Verifiable deals (docs/fair-play.md): every table commits to its seed with a
// fresh salt before play, reveals seed and salt at game over and in the replay,
// and a replay checks out through casa verify's checks (verify/verify.h)
// when honest, and fails them when a move, the seed, the salt, the deal or the
// commitment was changed.
#include <doctest/doctest.h>

#include <optional>

#include "protocol/crypto.h"
#include "protocol/deal_commitment.h"
#include "verify/verify.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

// The deal_commitment of the first table_state `c` received for `table`.
json first_commitment(const WsClient& c, const std::string& table) {
  for (const auto& m : c.log) {
    if (m["type"] == "table_state" && m["table"] == table) return m.value("deal_commitment", json());
  }
  return nullptr;
}

// Waits for the table_state that follows table_created (it comes right after the reply).
json state_after_create(WsClient& c, const std::string& table) {
  for (;;) {
    const json m = c.expect("table_state");
    if (m["table"] == table) return m;
  }
}

// A finished two-player La Casa game (one round, random seed) and its replay.
struct Finished {
  std::string table;
  json commitment;  // as ann's first table_state showed it
  json replay;
};

Finished play_la_casa(TestServer& ts, WsClient& a, WsClient& b, std::uint32_t choices,
                      std::optional<std::uint64_t> seed = std::nullopt) {
  json body = {{"game", "la-casa"}, {"players", 2}, {"options", {{"rounds", 1}}}};
  if (seed) body["seed"] = *seed;
  const json created = create(a, body);
  REQUIRE(created["type"] == "table_created");
  Finished f;
  f.table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", f.table}})["type"] == "joined");
  const auto over = play_out({&a, &b}, f.table, random_legal(choices));
  f.commitment = first_commitment(a, f.table);
  f.replay = get_json(ts.port(), "/api/tables/" + f.table + "/replay", 200);
  CHECK(over[0]["deal"] == f.replay["deal"]);
  return f;
}

// A legal action of the seat of log entry `k` other than the one logged.
json other_legal_action(const json& replay, std::size_t k) {
  auto created = casa::create_game(replay["game"].get<std::string>(), replay["players"].get<int>(),
                                   casa::protocol::json_to_value(replay["options"]),
                                   std::stoull(replay["seed"].get<std::string>()));
  REQUIRE(created.game);
  for (std::size_t i = 0; i < k; ++i) {
    casa::Action a;
    REQUIRE_FALSE(created.game->decode_action(casa::protocol::json_to_value(replay["log"][i]["action"]), a));
    REQUIRE_FALSE(created.game->apply(replay["log"][i]["seat"].get<int>(), a, nullptr));
  }
  std::vector<casa::Action> legal;
  created.game->legal_actions(replay["log"][k]["seat"].get<int>(), legal);
  for (const auto& a : legal) {
    json encoded = casa::protocol::value_to_json(created.game->encode_action(a));
    if (encoded != replay["log"][k]["action"]) return encoded;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("deals: the committed bytes are '<salt>:<seed>', hashed with SHA-256") {
  // The worked example of docs/fair-play.md (printf '%s' '…:42' | sha256sum),
  // also checked by the web client's tests.
  const std::string salt = "00112233445566778899aabbccddeeff";
  CHECK(casa::deal_commitment_text(salt, 42) == salt + ":42");
  CHECK(casa::deal_commitment_hash(salt, 42) == "7b3b098f58012e7d32d1b88bb5c8c546db559a7456e83c682c425606378d844d");
  CHECK(casa::deal_commitment_text(salt, 18446744073709551615ULL) == salt + ":18446744073709551615");
  // Salts are fresh and in the one accepted form.
  const std::string s1 = casa::new_deal_salt(), s2 = casa::new_deal_salt();
  CHECK(s1 != s2);
  CHECK(casa::is_deal_salt(s1));
  CHECK_FALSE(casa::is_deal_salt("00112233445566778899AABBCCDDEEFF"));
  CHECK_FALSE(casa::is_deal_salt(salt + "00"));
}

TEST_CASE("deals: the commitment goes to every seat and spectator; seed and salt only at game over") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), watcher(ts.port());
  a.hello("ann");
  b.hello("bob");
  watcher.hello("wes");
  const json created = create(a, {{"game", "la-casa"}, {"players", 2}, {"options", {{"rounds", 1}}}});
  const std::string table = created["table"];
  watcher.call({{"type", "spectate"}, {"table", table}});
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  play_out({&a, &b}, table, random_legal(5));
  watcher.expect("game_over");
  const json replay = get_json(ts.port(), "/api/tables/" + table + "/replay", 200);

  // The same commitment for everyone, and it is SHA-256 of "<salt>:<seed>".
  const json commitment = first_commitment(a, table);
  REQUIRE(commitment.is_object());
  CHECK(commitment["algorithm"] == "sha256");
  CHECK(first_commitment(b, table) == commitment);
  CHECK(first_commitment(watcher, table) == commitment);
  CHECK(replay["deal_commitment"] == commitment);
  const std::string salt = replay["deal"]["salt"];
  CHECK(casa::is_deal_salt(salt));
  CHECK(replay["deal"]["seed"] == replay["seed"]);
  CHECK(commitment["hash"] == casa::deal_commitment_hash(salt, std::stoull(replay["seed"].get<std::string>())));

  // Nothing before game_over carried the seed or salt; game_over reveals both.
  CHECK(check_deal_secrets(a, replay) > 3);
  CHECK(check_deal_secrets(b, replay) > 3);
  CHECK(check_deal_secrets(watcher, replay) > 3);
  CHECK(check_no_leak(watcher, -1, replay) > 0);
  // The scan finds the secrets wherever a message would carry them.
  for (const json& leak : {json{{"type", "chat"}, {"table", table}, {"text", "salt " + salt}},
                           json{{"type", "table_update"}, {"table", "other"}, {"seed", replay["seed"]}},
                           json{{"type", "table_state"}, {"table", table}, {"deal", replay["deal"]}}}) {
    std::vector<json> log = a.log;
    log.insert(log.begin() + 2, leak);
    CHECK(deal_secret_leaks(log, replay).size() >= 1);
  }
  std::vector<json> no_reveal = a.log;
  for (auto& m : no_reveal) {
    if (m["type"] == "game_over") m.erase("deal");
  }
  CHECK(deal_secret_leaks(no_reveal, replay).size() == 1);
  // A late resync after the end shows the reveal too (a spectator who missed game_over).
  a.send({{"type", "resync"}, {"table", table}});
  CHECK(a.expect("table_state")["deal"] == replay["deal"]);
  check_schemas(a);
  check_schemas(b);
  check_schemas(watcher);

  // Before the end, the replay (and with it the seed) is refused.
  const json other = create(a, {{"game", "la-casa"}, {"players", 2}});
  get_json(ts.port(), "/api/tables/" + other["table"].get<std::string>() + "/replay", 403);
}

TEST_CASE("deals: every table draws its own salt, also a rematch and tables sharing a seed") {
  // Two whole games from the same two connections in a second or two: a long
  // random game would otherwise run into the per-connection rate limit.
  TestServer ts([](casa::server::Config& c) { c.rate_burst = 1000; });
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  // Two tables with the same fixed seed (a test server allows it): the commitments
  // differ, so they tell nobody that the deals are the same.
  const std::string t1 = create(a, {{"game", "la-casa"}, {"players", 2}, {"seed", 99}})["table"];
  const json c1 = state_after_create(a, t1).value("deal_commitment", json());
  const std::string t2 = create(a, {{"game", "la-casa"}, {"players", 2}, {"seed", 99}})["table"];
  const json c2 = state_after_create(a, t2).value("deal_commitment", json());
  REQUIRE(c1.is_object());
  REQUIRE(c2.is_object());
  CHECK(c1["hash"] != c2["hash"]);

  // A rematch has a new seed and a new salt.
  const Finished f = play_la_casa(ts, a, b, 3);
  const json r = b.call({{"type", "rematch"}, {"table", f.table}});
  REQUIRE(r["type"] == "rematch_created");
  const std::string rematch = r["new_table"];
  const json offer = a.expect("rematch_offer");
  REQUIRE(a.call({{"type", "join"}, {"invite", offer["invite"]}})["type"] == "joined");
  play_out({&a, &b}, rematch, random_legal(4));
  const json again = get_json(ts.port(), "/api/tables/" + rematch + "/replay", 200);
  CHECK(again["deal"]["salt"] != f.replay["deal"]["salt"]);
  CHECK(again["deal_commitment"]["hash"] != f.replay["deal_commitment"]["hash"]);
  CHECK(first_commitment(a, rematch) == again["deal_commitment"]);
  CHECK(casa::verify_replay(again, casa::sha256_hex).honest);
}

TEST_CASE("casa verify: an honest game verifies; a changed move, seed, salt, deal or commitment does not") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  // A fixed deal (and fixed choices): a random one is sometimes over in four
  // moves, too short for the tampering below. The seed is long, so the leak scan
  // still looks for it.
  const Finished f = play_la_casa(ts, a, b, 11, 31415926535897);
  const json& honest = f.replay;
  REQUIRE(honest["log"].size() > 4);

  const auto ok = casa::verify_replay(honest, casa::sha256_hex, f.commitment["hash"].get<std::string>());
  CHECK_MESSAGE(ok.honest, ok.mismatch);
  CHECK(ok.actions_checked == static_cast<int>(honest["log"].size()));
  // The same verdict as JSON, from the replay's text: what the web client's
  // WebAssembly build of these checks returns (verify/wasm.cpp), given the digest
  // the browser computed of the text the module names.
  const std::string input = casa::commitment_input_text(honest.dump());
  CHECK(input == honest["deal"]["salt"].get<std::string>() + ":" + honest["deal"]["seed"].get<std::string>());
  const json verdict =
      json::parse(casa::verify_replay_text(honest.dump(), casa::sha256_hex(input), f.commitment["hash"].get<std::string>()));
  CHECK(verdict == json{{"verified", true},
                        {"game", "la-casa"},
                        {"seed", honest["seed"]},
                        {"commitment", f.commitment["hash"]},
                        {"actions_checked", honest["log"].size()}});
  CHECK(json::parse(casa::verify_replay_text("{\"log\": [", std::nullopt))["check"] == "replay");
  CHECK(casa::commitment_input_text("{\"log\": [").empty());

  SUBCASE("no SHA-256 to check the commitment with: never verified, and said so") {
    const auto v = casa::verify_replay(honest, casa::Sha256Hex{});
    CHECK_FALSE(v.honest);
    CHECK_FALSE(v.commitment_checked);
    CHECK(v.failed_check == "commitment");
    CHECK(v.mismatch.find("the commitment could not be checked") == 0);
    // The other checks still ran, all of them.
    CHECK(v.actions_checked == static_cast<int>(honest["log"].size()));
    const json j = json::parse(casa::verify_replay_text(honest.dump(), std::nullopt));
    CHECK(j["verified"] == false);
    CHECK(j["check"] == "commitment");
    CHECK(j["commitment_checked"] == false);
    CHECK(j["actions_checked"] == honest["log"].size());
    // A later check that fails is still reported as the failure.
    json tampered = honest;
    tampered["scores"][0] = honest["scores"][0].get<int>() + 1;
    const auto later = casa::verify_replay(tampered, [](std::string_view) { return std::optional<std::string>(); });
    CHECK(later.failed_check == "end");
    CHECK_FALSE(later.commitment_checked);
    // A digest that is not the commitment's fails as a mismatch.
    const json wrong = json::parse(casa::verify_replay_text(honest.dump(), casa::sha256_hex(input + "0")));
    CHECK(wrong["check"] == "commitment");
    CHECK(wrong["why"].get<std::string>().find("commitment mismatch") == 0);
    CHECK_FALSE(wrong.contains("commitment_checked"));
  }

  SUBCASE("a move changed for another legal one") {
    const std::size_t k = honest["log"].size() / 2;
    json tampered = honest;
    const json other = other_legal_action(honest, k);
    REQUIRE_FALSE(other.is_null());
    tampered["log"][k]["action"] = other;
    const auto v = casa::verify_replay(tampered, casa::sha256_hex);
    CHECK_FALSE(v.honest);
    CHECK(v.actions_checked == static_cast<int>(k));
    CHECK(v.mismatch.find("action " + std::to_string(k + 1) + ":") == 0);
    CHECK(v.failed_check == "action");
    CHECK(v.failed_action == static_cast<int>(k + 1));
    const json j = casa::verdict_json(v);
    CHECK(j["verified"] == false);
    CHECK(j["action"] == k + 1);
    CHECK(j["why"] == v.mismatch);
  }
  SUBCASE("a move given to a seat that was not to act") {
    json tampered = honest;
    tampered["log"][0]["seat"] = 1 - honest["log"][0]["seat"].get<int>();
    const auto v = casa::verify_replay(tampered, casa::sha256_hex);
    CHECK_FALSE(v.honest);
    CHECK(v.mismatch.find("was not to act") != std::string::npos);
  }
  SUBCASE("a move dropped from the log") {
    json tampered = honest;
    tampered["log"].erase(tampered["log"].size() - 1);
    CHECK_FALSE(casa::verify_replay(tampered, casa::sha256_hex).honest);
  }
  SUBCASE("another seed") {
    json tampered = honest;
    const std::string seed = std::to_string(std::stoull(honest["seed"].get<std::string>()) + 1);
    tampered["seed"] = seed;
    tampered["deal"]["seed"] = seed;
    const auto v = casa::verify_replay(tampered, casa::sha256_hex);
    CHECK_FALSE(v.honest);
    CHECK(v.mismatch.find("commitment mismatch") == 0);
  }
  SUBCASE("another seed with a commitment made to fit it, against the one the player noted") {
    json tampered = honest;
    const std::uint64_t seed = std::stoull(honest["seed"].get<std::string>()) + 1;
    tampered["seed"] = std::to_string(seed);
    tampered["deal"]["seed"] = std::to_string(seed);
    tampered["deal_commitment"]["hash"] = casa::deal_commitment_hash(honest["deal"]["salt"].get<std::string>(), seed);
    // The noted commitment catches it...
    const auto noted = casa::verify_replay(tampered, casa::sha256_hex, f.commitment["hash"].get<std::string>());
    CHECK_FALSE(noted.honest);
    CHECK(noted.mismatch.find("you noted") != std::string::npos);
    // ...and even without it, the logged deal is not the seed's.
    const auto v = casa::verify_replay(tampered, casa::sha256_hex);
    CHECK_FALSE(v.honest);
    CHECK(v.mismatch.find("the deal differs") == 0);
  }
  SUBCASE("another salt") {
    json tampered = honest;
    std::string salt = honest["deal"]["salt"];
    salt[0] = salt[0] == '0' ? '1' : '0';
    tampered["deal"]["salt"] = salt;
    const auto v = casa::verify_replay(tampered, casa::sha256_hex);
    CHECK_FALSE(v.honest);
    CHECK(v.mismatch.find("commitment mismatch") == 0);
  }
  SUBCASE("a commitment that does not match") {
    json tampered = honest;
    std::string hash = honest["deal_commitment"]["hash"];
    hash[5] = hash[5] == 'a' ? 'b' : 'a';
    tampered["deal_commitment"]["hash"] = hash;
    CHECK(casa::verify_replay(tampered, casa::sha256_hex).mismatch.find("commitment mismatch") == 0);
    // The replay is intact but the player noted another commitment.
    const auto v = casa::verify_replay(honest, casa::sha256_hex, hash);
    CHECK_FALSE(v.honest);
    CHECK(v.mismatch.find("you noted") != std::string::npos);
  }
  SUBCASE("a stacked deck: the logged deal is not the seed's") {
    json tampered = honest;
    // The first cards of the two hands swapped: a deal the seed does not give,
    // caught before the first move.
    json& hands = tampered["initial_state"]["hands"];
    REQUIRE(hands.size() == 2);
    std::swap(hands[0][0], hands[1][0]);
    const auto v = casa::verify_replay(tampered, casa::sha256_hex);
    CHECK_FALSE(v.honest);
    CHECK(v.actions_checked == 0);
    CHECK(v.mismatch.find("the deal differs") == 0);
    CHECK(v.failed_check == "deal");
  }
  SUBCASE("other scores") {
    json tampered = honest;
    tampered["scores"][0] = honest["scores"][0].get<int>() + 1;
    CHECK(casa::verify_replay(tampered, casa::sha256_hex).mismatch.find("the scores") == 0);
  }
  SUBCASE("no commitment at all") {
    json tampered = honest;
    tampered.erase("deal_commitment");
    CHECK_FALSE(casa::verify_replay(tampered, casa::sha256_hex).honest);
  }
}
