// SPDX-License-Identifier: AGPL-3.0-or-later
// The bytes of protocol version 1, recorded: one whole game of each game (La
// Casa with 4 players, once more with a Slap-Down round, and with 2;
// Domination; Solo against the Robot; Casino; Conference; Trophy Case) through
// a real server, every frame each seat's connection and a spectator's received
// (up to its game_over) and sent, compared byte for byte with
// tests/server/golden/v1/<game>.jsonl. A v1 client must see exactly these
// frames whatever the server looks like inside.
//
// Deterministic by construction, with no timing assumption:
//  * a fixed deal seed (`seed` on create_table, a --testing server), options
//    that keep the games short, and the engine's own Robot in Solo;
//  * every seat is a client of this test; nobody else acts (no server bots);
//  * the test plays in lockstep from a mirror of the game (the engine, same
//    seed and options): it knows which seat acts next and which `request` the
//    server owes that seat (a new one only when its legal actions changed,
//    docs/protocol.md "Sequence numbers"), waits for that request, answers with
//    its first legal action and waits for `accepted` before anything else
//    happens. Simultaneous decisions are answered lowest seat first.
//  * frames are kept per connection and per direction: on one connection the
//    order of what the server sends is fixed, but how it interleaves with what
//    the client sends is not (the socket carries both ways at once).
//
// A golden line is {"conn":…,"dir":"recv"|"sent","n":…,"frame":<the frame>}
// with the frame's text inserted verbatim (after normalising, below).
//
// To record the files again on purpose (a deliberate change to v1's bytes,
// which docs/protocol.md must then describe):
//   CASA_GOLDEN_UPDATE=1 build/tests/server/casa_golden_tests
// and review the diff. Without it the test compares and names the first frame
// that differs: the game, the connection, the direction and the index.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/game.h"
#include "protocol/protocol.h"
#include "server/net/server.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

// A server as `casa-server --testing` runs it: the engine's games only (no
// test game in `welcome.games`), SQLite in a temporary folder.
struct GoldenServer {
  std::filesystem::path dir = temp_dir("golden");
  casa::server::Config config;
  std::unique_ptr<casa::server::Server> server;

  GoldenServer() {
    config.port = 0;
    config.address = "127.0.0.1";
    config.db = (dir / "casa.db").string();
    config.testing = true;
    config.log_level = "warn";
    config.web_dir = "off";
    // The per-connection rate limit answers by the clock: lifted, so that a
    // fast or slow run never meets it.
    config.rate_burst = 1e9;
    config.rate_per_second = 1e9;
    server = std::make_unique<casa::server::Server>(config);
    server->start();
  }
  ~GoldenServer() {
    server.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

struct GoldenGame {
  std::string file;  // tests/server/golden/v1/<file>.jsonl
  std::string game;
  int players;
  json options;
  std::uint64_t seed;
};

struct Connection {
  std::string name;  // seat0 … or spectator
  std::unique_ptr<WsClient> ws;
};

// The values the server draws at random, learnt from the fields that carry
// them and replaced wherever they appear (as whole JSON strings) by a
// placeholder. Each is random by design, so no run could repeat it:
//  * player_id, token (welcome): a new player's id and secret are random;
//  * table, invite (table_created): table ids and invite codes are random, so
//    they cannot be guessed;
//  * deal_commitment.hash (table_state) and game_over's deal.salt: the
//    commitment hashes the seed with a random salt (docs/fair-play.md).
// Nothing else is normalised: a field that changes from run to run and is not
// in this list makes the test fail, as it should.
class Normaliser {
 public:
  void learn(const std::string& who, const json& m) {
    const std::string type = m.value("type", "");
    if (type == "welcome") {
      add(m["player_id"], "<player:" + who + ">");
      add(m["token"], "<token:" + who + ">");
    } else if (type == "table_created") {
      add(m["table"], "<table>");
      if (m.contains("invite")) add(m["invite"], "<invite>");
    } else if (type == "table_state" && m.contains("deal_commitment")) {
      add(m["deal_commitment"].value("hash", ""), "<commitment hash>");
    } else if (type == "game_over" && m.contains("deal") && m["deal"].contains("salt")) {
      add(m["deal"]["salt"], "<salt>");
    }
  }
  std::string apply(std::string frame) const {
    for (const auto& [from, to] : replace_) {
      for (std::size_t at = frame.find(from); at != std::string::npos;
           at = frame.find(from, at + to.size())) {
        frame.replace(at, from.size(), to);
      }
    }
    return frame;
  }

 private:
  void add(const json& value, const std::string& placeholder) {
    if (!value.is_string() || value.get<std::string>().empty()) return;
    replace_[json(value).dump()] = json(placeholder).dump();
  }
  std::map<std::string, std::string> replace_;  // quoted value -> quoted placeholder
};

// The engine beside the server: who acts next, and which request the server
// owes each seat (Table::issue_requests: a seat gets a new request when it is
// to act and its legal actions changed, or it had none).
struct Mirror {
  std::unique_ptr<casa::Game> game;
  std::int64_t seq = 0;
  std::vector<std::int64_t> pending_seq;
  std::vector<json> pending_legal;

  explicit Mirror(const GoldenGame& g) {
    auto created =
        casa::create_game(g.game, g.players, casa::protocol::json_to_value(g.options), g.seed);
    REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : std::string()));
    game = std::move(created.game);
    pending_seq.assign(static_cast<std::size_t>(g.players), -1);
    pending_legal.assign(static_cast<std::size_t>(g.players), json::array());
    issue();
  }
  void issue() {
    std::vector<casa::Action> legal;
    for (int s = 0; s < game->players(); ++s) {
      const auto i = static_cast<std::size_t>(s);
      if (!(game->to_act() & casa::seat_bit(s))) {
        pending_seq[i] = -1;
        pending_legal[i] = json::array();
        continue;
      }
      game->legal_actions(s, legal);
      json encoded = json::array();
      for (const auto& a : legal)
        encoded.push_back(casa::protocol::value_to_json(game->encode_action(a)));
      if (pending_seq[i] >= 0 && encoded == pending_legal[i]) continue;
      pending_seq[i] = seq;
      pending_legal[i] = std::move(encoded);
    }
  }
  int next_seat() const {
    for (int s = 0; s < game->players(); ++s) {
      if (game->to_act() & casa::seat_bit(s)) return s;
    }
    return -1;
  }
  void apply(int seat, const json& action) {
    casa::Action a;
    REQUIRE_FALSE(game->decode_action(casa::protocol::json_to_value(action), a));
    REQUIRE_FALSE(game->apply(seat, a, nullptr));
    ++seq;
    if (!game->is_over()) issue();
  }
};

// Plays one whole game and returns its golden lines, normalised.
std::vector<std::string> record(const GoldenGame& g) {
  GoldenServer server;
  const unsigned short port = server.server->port();
  static const char* const kNames[] = {"ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal"};
  std::vector<Connection> seats;
  for (int s = 0; s < g.players; ++s) {
    seats.push_back({"seat" + std::to_string(s), std::make_unique<WsClient>(port)});
    REQUIRE(seats.back().ws->hello(kNames[s])["type"] == "welcome");
  }
  Connection spectator{"spectator", std::make_unique<WsClient>(port)};
  REQUIRE(spectator.ws->hello("wes")["type"] == "welcome");

  const json created = seats[0].ws->call({{"type", "create_table"},
                                          {"game", g.game},
                                          {"players", g.players},
                                          {"options", g.options},
                                          {"seed", g.seed},
                                          {"seat", 0}});
  REQUIRE_MESSAGE(created["type"] == "table_created", created.dump());
  const std::string table = created["table"];
  // The spectator comes before the start, except in Solo, which starts as soon
  // as its one seat is taken.
  REQUIRE(spectator.ws->call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  for (int s = 1; s < g.players; ++s) {
    const json joined = seats[static_cast<std::size_t>(s)].ws->call(
        {{"type", "join"}, {"table", table}, {"seat", s}});
    REQUIRE_MESSAGE(joined["type"] == "joined", joined.dump());
  }

  Mirror mirror(g);
  int moves = 0;
  while (!mirror.game->is_over()) {
    REQUIRE_MESSAGE(moves < 5000, "the game does not end");
    const int seat = mirror.next_seat();
    REQUIRE(seat >= 0);
    const auto i = static_cast<std::size_t>(seat);
    WsClient& ws = *seats[i].ws;
    // The request the server owes this seat (sent at pending_seq; an earlier
    // one, still unanswered, is skipped).
    json request;
    for (;;) {
      auto m = ws.recv(std::chrono::seconds(20));
      REQUIRE_MESSAGE(m, "seat " << seat << " got no request for seq " << mirror.pending_seq[i]);
      REQUIRE_MESSAGE((*m)["type"] != "error", m->dump());
      if ((*m)["type"] == "request" && (*m)["seq"] == mirror.pending_seq[i]) {
        request = *m;
        break;
      }
    }
    REQUIRE_MESSAGE(request["legal"] == mirror.pending_legal[i],
                    "the server's legal actions are not the engine's");
    const json action = request["legal"][0];
    const json reply =
        ws.call({{"type", "action"}, {"table", table}, {"seq", request["seq"]}, {"action", action}},
                std::chrono::seconds(20));
    REQUIRE_MESSAGE(reply["type"] == "accepted", reply.dump());
    mirror.apply(seat, action);
    REQUIRE(reply["seq"] == mirror.seq);
    ++moves;
  }
  // Everyone's last frame of the game.
  std::vector<Connection*> all;
  for (auto& c : seats) all.push_back(&c);
  all.push_back(&spectator);
  for (auto* c : all) c->ws->expect("game_over", std::chrono::seconds(20));
  Normaliser normaliser;
  for (auto* c : all) {
    for (const auto& [way, text] : c->ws->transcript) {
      if (way == "<<") normaliser.learn(c->name, json::parse(text));
    }
  }
  std::vector<std::string> lines;
  for (auto* c : all) {
    for (const char* dir : {"recv", "sent"}) {
      const std::string way = std::string(dir) == "recv" ? "<<" : ">>";
      int n = 0;
      for (const auto& [w, text] : c->ws->transcript) {
        if (w != way) continue;
        // The frame as sent, inserted as it is: the line stays one JSON value.
        lines.push_back(std::string("{\"conn\":\"") + c->name + "\",\"dir\":\"" + dir +
                        "\",\"n\":" + std::to_string(n++) + ",\"frame\":" + normaliser.apply(text) +
                        "}");
        // What the client read after its game_over depends on when it stopped
        // reading: the record ends there (nothing follows it in v1 today).
        if (way == "<<" && json::parse(text).value("type", "") == "game_over") break;
      }
    }
  }
  return lines;
}

std::filesystem::path golden_path(const GoldenGame& g) {
  return std::filesystem::path(CASA_SOURCE_DIR) / "tests/server/golden/v1" / (g.file + ".jsonl");
}

// Where two lines first differ, with the text around it.
std::string first_difference(const std::string& want, const std::string& got) {
  std::size_t at = 0;
  while (at < want.size() && at < got.size() && want[at] == got[at]) ++at;
  const std::size_t from = at > 60 ? at - 60 : 0;
  std::ostringstream out;
  out << "first difference at byte " << at << ":\n  golden: …" << want.substr(from, 140)
      << "\n  server: …" << got.substr(from, 140);
  return out.str();
}

void check_golden(const GoldenGame& g) {
  const auto lines = record(g);
  const auto path = golden_path(g);
  const char* update = std::getenv("CASA_GOLDEN_UPDATE");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    for (const auto& l : lines) out << l << '\n';
    MESSAGE("recorded " << lines.size() << " frames in " << path.string());
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in,
                  "no golden file " << path.string() << " (record it with CASA_GOLDEN_UPDATE=1)");
  std::vector<std::string> golden;
  for (std::string l; std::getline(in, l);) golden.push_back(l);
  for (std::size_t i = 0; i < std::min(golden.size(), lines.size()); ++i) {
    if (golden[i] == lines[i]) continue;
    const json where = json::parse(golden[i], nullptr, false);
    FAIL(g.file << ".jsonl line " << i + 1 << ": connection " << where.value("conn", "?") << ", "
                << where.value("dir", "?") << " frame " << where.value("n", -1) << " differs; "
                << first_difference(golden[i], lines[i]));
  }
  if (golden.size() != lines.size()) {
    const bool fewer = lines.size() < golden.size();
    FAIL(g.file << ".jsonl: the server's run has " << lines.size() << " frames, the golden file "
                << golden.size() << "; the first " << (fewer ? "missing" : "extra") << " one:\n  "
                << (fewer ? golden[lines.size()] : lines[golden.size()]));
  }
}

}  // namespace

TEST_CASE("v1 bytes: La Casa, four players") {
  check_golden({"la-casa-4p", "la-casa", 4, {{"rounds", 1}}, 11});
}

// LC-7.16 the followers commit at once: simultaneous requests, and the
// redacted events the others get for a hidden commit.
TEST_CASE("v1 bytes: La Casa, four players, Slap-Down") {
  check_golden(
      {"la-casa-4p-slap-down", "la-casa", 4, {{"rounds", 1}, {"challenge", "slap_down"}}, 12});
}

TEST_CASE("v1 bytes: La Casa, two players") {
  check_golden({"la-casa-2p", "la-casa", 2, {{"rounds", 1}}, 7});
}

TEST_CASE("v1 bytes: La Casa Domination") {
  check_golden({"la-casa-domination", "la-casa", 2, {{"format", "domination"}, {"rounds", 1}}, 5});
}

TEST_CASE("v1 bytes: La Casa Solo against the Robot") {
  check_golden({"la-casa-solo", "la-casa", 1, {{"rounds", 1}}, 3});
}

TEST_CASE("v1 bytes: Casino") {
  check_golden({"casino", "casino", 2, {{"target", 5}, {"sweeps", true}, {"questions", true}}, 21});
}

TEST_CASE("v1 bytes: Conference") {
  check_golden({"conference",
                "conference",
                4,
                {{"hands", 1}, {"good_evil", "allegiance"}, {"gallowglass", true}},
                31});
}

TEST_CASE("v1 bytes: Trophy Case") {
  check_golden({"trophy-case", "trophy-case", 3, {{"hands", 1}}, 41});
}
