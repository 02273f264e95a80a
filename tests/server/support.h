// SPDX-License-Identifier: AGPL-3.0-or-later
// Shared pieces of the server tests: an in-process server on an ephemeral port
// with a temporary database, a loop that plays a table out, and the scans every
// test runs over what its clients received (schemas; no hidden card leaked).
#pragma once

#include <doctest/doctest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "protocol/protocol.h"
#include "protocol/schema.h"
#include "server/net/server.h"
#include "server/store/store.h"
#include "tests/server/fake_game.h"
#include "tests/server/ws_client.h"

namespace casa::testing {

inline std::filesystem::path temp_dir(const std::string& tag) {
  static std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() / ("casa-test-" + tag + "-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir;
}

// The PostgreSQL database the tests run against, or "" for SQLite: the URL in
// CASA_TEST_DB, or in the file CASA_TEST_PG_URL_FILE names (written by
// scripts/pg-test-cluster.sh for the CTest fixture).
inline std::string test_pg_url() {
  if (const char* url = std::getenv("CASA_TEST_DB"); url && *url) return url;
  if (const char* file = std::getenv("CASA_TEST_PG_URL_FILE"); file && *file) {
    std::ifstream in(file);
    std::string url;
    std::getline(in, url);
    REQUIRE_MESSAGE(!url.empty(), "no PostgreSQL URL in " << file);
    return url;
  }
  return {};
}
inline bool testing_postgres() { return !test_pg_url().empty(); }

// The database of a server whose files live in `dir`: casa.db there, or, on
// PostgreSQL, a schema of its own named after `dir` (created when missing), so
// that every test starts empty and a restart finds its data again.
inline std::string test_db(const std::filesystem::path& dir) {
  const std::string base = test_pg_url();
  if (base.empty()) return (dir / "casa.db").string();
  std::string schema = "t_";
  for (char c : dir.filename().string()) schema += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  server::Db::open(base, false)->exec("CREATE SCHEMA IF NOT EXISTS " + schema);
  return base + (base.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema +
         "&application_name=" + schema;
}

struct TestServer {
  std::filesystem::path dir;
  server::Config config;
  std::unique_ptr<server::Server> server;

  explicit TestServer(const std::function<void(server::Config&)>& tweak = {},
                      std::filesystem::path reuse = {}) {
    dir = reuse.empty() ? temp_dir("srv") : reuse;
    config.port = 0;
    config.address = "127.0.0.1";
    config.db = test_db(dir);
    config.testing = true;
    config.log_level = "warn";
    // No web client unless a test asks for one: a checkout's clients/web/dist must
    // not change what these servers answer.
    config.web_dir = "off";
    // Every test's players come from 127.0.0.1: the per-address limit on new
    // players is tested where a test sets it (abuse_test.cpp).
    config.players_per_address_per_hour = 1000000;
    if (tweak) tweak(config);
    start();
  }
  void start() {
    server = std::make_unique<server::Server>(config, &create_test_game, test_game_names());
    server->start();
  }
  void restart() {
    server.reset();
    config.port = 0;
    start();
  }
  ~TestServer() {
    server.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  unsigned short port() const { return server->port(); }
};

inline json first_legal(const json& request) { return request["legal"][0]; }

// create_table with these fields; the direct reply (table_created or error).
inline json create(WsClient& c, const json& fields) {
  json m = {{"type", "create_table"}};
  for (auto& [k, v] : fields.items()) m[k] = v;
  return c.call(m);
}

// A chooser for play_out that picks a uniformly random legal action (seeded, so
// a failing run can be repeated as far as the server's timing allows).
inline std::function<json(const json&)> random_legal(std::uint32_t seed) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [rng](const json& request) {
    const auto& legal = request["legal"];
    return legal[(*rng)() % legal.size()];
  };
}

// Answers requests until every client has seen game_over for `table`, or the
// time runs out. `choose` picks the action of a request.
inline std::vector<json> play_out(const std::vector<WsClient*>& clients, const std::string& table,
                                  const std::function<json(const json&)>& choose = first_legal,
                                  std::chrono::seconds limit = std::chrono::seconds(20)) {
  std::vector<json> over(clients.size());
  const auto deadline = std::chrono::steady_clock::now() + limit;
  auto done = [&] {
    for (const auto& o : over) {
      if (o.is_null()) return false;
    }
    return true;
  };
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    for (std::size_t i = 0; i < clients.size(); ++i) {
      auto m = clients[i]->recv(std::chrono::milliseconds(5));
      if (!m) continue;
      if ((*m)["type"] == "request" && (*m)["table"] == table) {
        clients[i]->send({{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", choose(*m)}});
      } else if ((*m)["type"] == "game_over" && (*m)["table"] == table) {
        over[i] = *m;
      } else if ((*m)["type"] == "error") {
        FAIL_CHECK("unexpected error while playing: " << m->dump());
      }
    }
  }
  REQUIRE_MESSAGE(done(), "the game did not finish in time");
  return over;
}

// Answers `count` requests of a table's seats with their first legal action,
// each acknowledged, and records (seq, seat, action) of every `accepted`.
inline void play_acknowledged(const std::vector<WsClient*>& seats, const std::string& table, int count,
                              std::vector<json>& acknowledged) {
  int played = 0;
  while (played < count) {
    for (std::size_t s = 0; s < seats.size() && played < count; ++s) {
      auto m = seats[s]->recv(std::chrono::milliseconds(5));
      if (!m || (*m)["type"] != "request") continue;
      const json action = (*m)["legal"][0];
      const json r = seats[s]->call({{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", action}});
      REQUIRE(r["type"] == "accepted");
      acknowledged.push_back({{"seq", r["seq"]}, {"seat", static_cast<int>(s)}, {"action", action}});
      ++played;
    }
  }
}

// Every acknowledged (seq, seat, action) is in a replay's log under its seq.
inline void check_logged(const json& replay, const std::vector<json>& acknowledged) {
  for (const auto& ack : acknowledged) {
    const json& logged = replay["log"][ack["seq"].get<int>() - 1];
    CHECK(logged["seq"] == ack["seq"]);
    CHECK(logged["seat"] == ack["seat"]);
    CHECK(logged["action"] == ack["action"]);
  }
}

// Every message a client received must satisfy server.json.
inline void check_schemas(const WsClient& client) {
  for (const auto& m : client.log) {
    auto why = protocol::protocol_schemas().validate("server.json", m);
    CHECK_MESSAGE(!why, m.dump() << " -> " << why.value_or(""));
  }
}

// With CASA_MESSAGE_LOG naming a file, writes every frame `client` sent and
// received to it, one JSON line each: {"game": label, "from": "client" or
// "server", "message": the frame}. tests/protocol/check_messages.py validates
// them with a complete JSON Schema validator (ctest protocol_messages_*). The
// first call in a process empties the file; the later ones append.
inline void record_messages(const WsClient& client, const std::string& game) {
  const char* file = std::getenv("CASA_MESSAGE_LOG");
  if (file == nullptr || *file == '\0') return;
  static bool first = true;
  std::ofstream out(file, first ? std::ios::trunc : std::ios::app);
  first = false;
  REQUIRE_MESSAGE(out, "cannot write " << file);
  for (const auto& [way, frame] : client.transcript) {
    const json line = {{"game", game},
                       {"from", way == ">>" ? "client" : "server"},
                       {"message", json::parse(frame)}};
    out << line.dump() << "\n";
  }
}

inline void collect_strings(const json& v, std::vector<std::string>& out) {
  if (v.is_string()) out.push_back(v.get<std::string>());
  if (v.is_array() || v.is_object()) {
    for (const auto& item : v) collect_strings(item, out);
  }
}

// The deal commitment's secrets (docs/fair-play.md): the messages of `log`
// (what one client received) that came before the table's game_over and carry
// its salt or seed, about this table or any other; plus a note for every
// table_state of the table without the commitment the replay serves, and for a
// game_over that does not reveal exactly that seed and salt. The salt is 32
// random hex digits, so any occurrence counts; the seed (once long enough not to
// turn up by chance: 10+ digits, as nearly every random seed is) as a whole
// string or number and inside any text. `checked`: how many messages were read.
// `event_table`: a duplicate event's table, whose game_over reveals nothing
// (the event was still running; the replay reveals the deal once it is over).
inline std::vector<std::string> deal_secret_leaks(const std::vector<json>& log, const json& replay, int* checked = nullptr,
                                                  bool event_table = false) {
  const std::string table = replay["table"];
  REQUIRE_MESSAGE(replay.contains("deal"), "the replay reveals no deal: " << replay.dump().substr(0, 200));
  const std::string salt = replay["deal"]["salt"];
  const std::string seed_text = replay["deal"]["seed"];
  const std::uint64_t seed = std::stoull(seed_text);
  REQUIRE(salt.size() == 32);
  // A small seed fixed by a test (7, 11) is just a number like any seq: only
  // the salt is checked then.
  const bool seed_distinct = seed_text.size() >= 10;
  std::function<bool(const json&)> names_seed = [&](const json& v) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>() == seed;
    if (v.is_number_integer()) return v.get<std::int64_t>() >= 0 && static_cast<std::uint64_t>(v.get<std::int64_t>()) == seed;
    if (v.is_string()) return v.get<std::string>() == seed_text;
    if (!v.is_structured()) return false;
    for (const auto& item : v) {
      if (names_seed(item)) return true;
    }
    return false;
  };
  std::vector<std::string> found;
  int read = 0;
  for (const auto& m : log) {
    const std::string text = m.dump();
    if (m.value("type", "") == "game_over" && m.value("table", "") == table) {
      // The reveal: exactly what the commitment committed to.
      if (event_table) {
        if (m.contains("deal")) found.push_back("an event table's game_over reveals its deal: " + text);
      } else if (m.value("deal", json()) != replay["deal"]) {
        found.push_back("game_over does not reveal the deal: " + text);
      }
      break;
    }
    ++read;
    if (text.find(salt) != std::string::npos) found.push_back("the salt before game_over: " + text);
    if (seed_distinct && (names_seed(m) || text.find(seed_text) != std::string::npos)) {
      found.push_back("the seed before game_over: " + text);
    }
    if (m.value("type", "") == "table_state" && m.value("table", "") == table &&
        m.value("deal_commitment", json()) != replay["deal_commitment"]) {
      found.push_back("a table_state without the published commitment: " + text);
    }
  }
  // (A client that left, or whose connection a restart closed, never saw game_over.)
  if (checked) *checked = read;
  return found;
}

// No message `client` received before game_over carries the table's seed or
// salt (deal_secret_leaks). Returns how many messages it checked.
inline int check_deal_secrets(const WsClient& client, const json& replay, bool event_table = false) {
  int checked = 0;
  for (const auto& leak : deal_secret_leaks(client.log, replay, &checked, event_table)) {
    FAIL_CHECK("table " << replay["table"].get<std::string>() << ": " << leak);
  }
  return checked;
}

// Replays a finished table's log (from GET /api/games/{table}) on a mirror and
// checks that no message of `client`'s log about that table, at its seq, names
// a card that `seat` could not see then; and (check_deal_secrets) that nothing
// before game_over carries the deal's seed or salt. Returns how many messages
// it checked.
inline int check_no_leak(const WsClient& client, int seat, const json& replay, bool event_table = false) {
  check_deal_secrets(client, replay, event_table);
  const std::string table = replay["table"];
  auto created = create_test_game(replay["game"].get<std::string>(), replay["players"].get<int>(),
                                  protocol::json_to_value(replay["options"]), std::stoull(replay["seed"].get<std::string>()));
  REQUIRE(created.game);
  std::vector<std::set<std::string>> secrets;  // by seq
  auto note = [&] {
    auto s = created.game->secret_cards(seat);
    secrets.emplace_back(s.begin(), s.end());
  };
  note();
  for (const auto& entry : replay["log"]) {
    Action a;
    REQUIRE_FALSE(created.game->decode_action(protocol::json_to_value(entry["action"]), a));
    REQUIRE_FALSE(created.game->apply(entry["seat"].get<int>(), a, nullptr));
    note();
  }
  int checked = 0;
  for (const auto& m : client.log) {
    if (!m.contains("table") || m["table"] != table || !m.contains("seq")) continue;
    const auto seq = m["seq"].get<std::size_t>();
    REQUIRE(seq < secrets.size());
    std::vector<std::string> strings;
    collect_strings(m, strings);
    for (const auto& s : strings) {
      CHECK_MESSAGE(!secrets[seq].count(s), "seat " << seat << " saw hidden " << s << " in " << m.dump());
    }
    ++checked;
  }
  return checked;
}

// The stored score sheet (`rounds` of GET /api/games/{table}) must list, in
// order, exactly the round_end / hand_end events a spectator saw, each with a
// running total per seat; returns how many rounds it checked.
inline int check_round_sheet(const WsClient& watcher, const json& replay) {
  std::vector<json> seen;
  for (const auto& m : watcher.log) {
    if (m["type"] != "event" || m["table"] != replay["table"]) continue;
    const json& e = m["event"];
    if (e["type"] == "round_end" || e["type"] == "hand_end") seen.push_back(e);
  }
  const json& rounds = replay["rounds"];
  REQUIRE(rounds.is_array());
  REQUIRE(rounds.size() == seen.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    CHECK(rounds[i]["round"] == i + 1);
    CHECK(rounds[i]["summary"] == seen[i]);
    CHECK(rounds[i]["scores"].size() == replay["scores"].size());
  }
  return static_cast<int>(seen.size());
}

inline json get_json(unsigned short port, const std::string& target, int expect_status) {
  auto [status, body] = http_get(port, target);
  CHECK_MESSAGE(status == expect_status, target << " -> " << status << " " << body);
  return json::parse(body, nullptr, false);
}

}  // namespace casa::testing
