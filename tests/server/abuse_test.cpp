// SPDX-License-Identifier: AGPL-3.0-or-later
// What one player may make the server do, and what they may not make it say
// (docs/security.md, Players and tables): every table they open counted against
// one limit, events bounded in cost, nobody seated in a rated game without
// their consent, new players and invite guesses throttled per address, private
// tables hidden from those without the code, no seed in the log of a running
// game, database files for the server's user alone, and names that cannot
// pass for someone or something else.
#include <doctest/doctest.h>

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

#include "server/lobby/lobby.h"
#include "server/ops/names.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

json create_event(WsClient& c, const json& fields) {
  json m = {{"type", "create_event"}};
  for (auto& [k, v] : fields.items()) m[k] = v;
  return c.call(m);
}

// A two-player event where `c` holds one side at both tables (so they wait for
// their moves) and the robot the other.
json waiting_event(WsClient& c, int boards = 1) {
  return {{"game", "fake-trick"},
          {"players", 2},
          {"boards", boards},
          {"sides", {{{"members", {{{"player_id", c.player_id}}}}}, {{"members", {{{"bot", "robot"}}}}}}}};
}

}  // namespace

TEST_CASE("abuse: create_event counts against --max-tables-per-player, and costs at most what is set") {
  TestServer ts([](casa::server::Config& c) {
    c.max_tables_per_player = 3;
    c.max_event_games_per_player = 6;
    c.max_event_boards = 4;
  });
  WsClient a(ts.port());
  a.hello("ann");
  // Two tables of three; an event opens two more at once: refused.
  REQUIRE(create(a, {{"game", "fake-trick"}, {"players", 2}})["type"] == "table_created");
  REQUIRE(create(a, {{"game", "fake-trick"}, {"players", 2}})["type"] == "table_created");
  json refused = create_event(a, waiting_event(a));
  CHECK(refused["code"] == "too_many_tables");
  CHECK(ts.server->lobby().table_count() == 2);

  // On a fresh player: events sent at once, without waiting for the first to
  // be stored, count as well (one fits in three tables, a second does not).
  WsClient b(ts.port());
  b.hello("bea");
  for (int i = 1; i <= 3; ++i) {
    json m = waiting_event(b);
    m["type"] = "create_event";
    m["id"] = 100 + i;
    b.send(m);
  }
  int created = 0, too_many = 0;
  for (int i = 0; i < 3; ++i) {
    const json r = b.find([](const json& m) { return m.contains("id"); }, 5s).value_or(json());
    created += r["type"] == "event_created";
    too_many += r["type"] == "error" && r["code"] == "too_many_tables";
  }
  CHECK(created == 1);
  CHECK(too_many == 2);

  // The cost: boards x tables of unfinished events, and boards per event.
  WsClient c(ts.port());
  c.hello("cid");
  CHECK(create_event(c, waiting_event(c, 5))["code"] == "bad_field");  // over 4 boards
  REQUIRE(create_event(c, waiting_event(c, 2))["type"] == "event_created");  // 4 games
  CHECK(create_event(c, waiting_event(c, 2))["code"] == "too_many_event_games");  // 8 > 6
  check_schemas(a);
  check_schemas(b);
  check_schemas(c);
}

TEST_CASE("abuse: a rematch is a new table of the one who asks, counted against the limit") {
  TestServer ts([](casa::server::Config& c) { c.max_tables_per_player = 1; });
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const json created = create(a, {{"game", "fake-trick"}, {"players", 2}});
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  play_out({&a, &b}, table, random_legal(5));
  // Bob opens one table of his own: his limit is reached.
  REQUIRE(create(b, {{"game", "fake-trick"}, {"players", 2}})["type"] == "table_created");
  const json r = b.call({{"type", "rematch"}, {"table", table}});
  CHECK(r["type"] == "error");
  CHECK(r["code"] == "too_many_tables");
  // Ann has none open: hers is made.
  CHECK(a.call({{"type", "rematch"}, {"table", table}})["type"] == "rematch_created");
  check_schemas(a);
  check_schemas(b);
}

TEST_CASE("abuse: an event that seats another player does not move their rating") {
  TestServer ts;
  WsClient attacker(ts.port()), victim(ts.port());
  attacker.hello("mallory");
  victim.hello("victor");
  // The victim is seated by their public id; they (or the robot for them) play.
  const json created = create_event(
      attacker, {{"game", "fake-trick"},
                 {"players", 2},
                 {"sides",
                  {{{"members", {{{"player_id", attacker.player_id}}}}},
                   {{"members", {{{"player_id", victim.player_id}}}}}}}});
  REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
  // Both tables at once: every request of either answered, until both ended for both.
  std::set<std::pair<WsClient*, std::string>> ended;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (ended.size() < 4 && std::chrono::steady_clock::now() < deadline) {
    for (WsClient* c : {&attacker, &victim}) {
      auto m = c->recv(20ms);
      if (!m) continue;
      if ((*m)["type"] == "request") {
        c->send({{"type", "action"}, {"table", (*m)["table"]}, {"seq", (*m)["seq"]}, {"action", (*m)["legal"][0]}});
      } else if ((*m)["type"] == "game_over") {
        ended.insert({c, (*m)["table"].get<std::string>()});
      }
    }
  }
  REQUIRE(ended.size() == 4);
  // Each table is stored unrated, and nobody got a rating from them.
  for (const auto& t : created["tables"]) {
    auto stored = ts.server->lobby().store().load_table(t.get<std::string>());
    REQUIRE(stored);
    REQUIRE(stored->status == "over");
    CHECK(stored->rated == std::optional<bool>(false));
  }
  // Ratings are written with the result; a moment for the store thread.
  std::this_thread::sleep_for(200ms);
  const json profile = get_json(ts.port(), "/api/players/" + victim.player_id, 200);
  CHECK_MESSAGE(profile["ratings"].empty(), profile.dump());
  const json board = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  CHECK(board["ratings"].empty());
  check_schemas(attacker);
  check_schemas(victim);
}

namespace {

// Answers every request of `clients` (first legal action) until `games`
// game_over messages arrived in all; returns the tables they were about.
// Tables in `ignore` (ended before: their game_over may come again) are not counted.
std::set<std::string> play_games(const std::vector<WsClient*>& clients, std::size_t games,
                                 const std::set<std::string>& ignore = {}) {
  std::set<std::pair<WsClient*, std::string>> ended;
  std::set<std::string> tables;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (ended.size() < games && std::chrono::steady_clock::now() < deadline) {
    for (WsClient* c : clients) {
      auto m = c->recv(20ms);
      if (!m) continue;
      if ((*m)["type"] == "request") {
        c->send({{"type", "action"}, {"table", (*m)["table"]}, {"seq", (*m)["seq"]}, {"action", (*m)["legal"][0]}});
      } else if ((*m)["type"] == "game_over" && !ignore.count((*m)["table"].get<std::string>())) {
        ended.insert({c, (*m)["table"].get<std::string>()});
        tables.insert((*m)["table"].get<std::string>());
      }
    }
  }
  REQUIRE(ended.size() == games);
  return tables;
}

json rated_event(WsClient& creator, WsClient& other) {
  return create_event(creator, {{"game", "fake-trick"},
                                {"players", 2},
                                {"rated", true},
                                {"sides",
                                 {{{"members", {{{"player_id", creator.player_id}}}}},
                                  {{"members", {{{"player_id", other.player_id}}}}}}}});
}

bool is_invitation(const json& m) { return m["type"] == "invitation"; }

}  // namespace

TEST_CASE("abuse: a rated event is rated only when everyone it seats accepted its invitation") {
  TestServer ts;
  WsClient ann(ts.port()), bob(ts.port()), eve(ts.port());
  ann.hello("ann");
  bob.hello("bob");
  eve.hello("eve");
  const json created = rated_event(ann, bob);
  REQUIRE_MESSAGE(created["type"] == "event_created", created.dump());
  CHECK(created["tables"].empty());  // nothing opens before the answers
  REQUIRE(created["invitations"].size() == 1);
  const std::string invitation = created["invitations"][0]["invitation"];
  CHECK(created["invitations"][0]["player_id"] == bob.player_id);
  const auto got = bob.find(is_invitation, 5s);
  REQUIRE(got.has_value());
  CHECK((*got)["invitation"] == invitation);
  CHECK((*got)["from"]["player_id"] == ann.player_id);
  CHECK((*got)["event"] == created["event"]);

  // Nobody answers for someone else, and the creator neither: it is "no such
  // invitation" to them, and it still waits.
  CHECK(eve.call({{"type", "accept_invitation"}, {"invitation", invitation}})["code"] == "no_such_invitation");
  CHECK(ann.call({{"type", "accept_invitation"}, {"invitation", invitation}})["code"] == "no_such_invitation");
  CHECK(eve.call({{"type", "decline_invitation"}, {"invitation", invitation}})["code"] == "no_such_invitation");
  // Unknown and malformed ids: a clear error, nothing changes.
  CHECK(bob.call({{"type", "accept_invitation"}, {"invitation", "i0000000000"}})["code"] == "no_such_invitation");
  CHECK(bob.call({{"type", "accept_invitation"}, {"invitation", 42}})["code"] == "bad_field");
  CHECK(bob.call({{"type", "accept_invitation"}, {"invitation", std::string(40, 'i')}})["code"] == "bad_field");
  CHECK(bob.call({{"type", "accept_invitation"}})["code"] == "bad_field");
  CHECK(ts.server->lobby().table_count() == 0);

  // Coming back on a new connection, bob gets the invitation again.
  WsClient bob2(ts.port());
  REQUIRE(bob2.hello("", bob.token())["resumed"] == true);
  const auto again = bob2.find(is_invitation, 5s);
  REQUIRE(again.has_value());
  CHECK((*again)["invitation"] == invitation);
  CHECK((*again)["expires_in_seconds"].get<int>() <= 600);

  const json answered = bob2.call({{"type", "accept_invitation"}, {"invitation", invitation}});
  REQUIRE_MESSAGE(answered["type"] == "invitation_answered", answered.dump());
  CHECK(answered["answer"] == "accepted");
  CHECK(answered["rated"] == true);
  const auto told = ann.find([](const json& m) { return m["type"] == "invitation_answered"; }, 5s);
  REQUIRE(told.has_value());
  CHECK((*told)["player_id"] == bob.player_id);
  // Answered once.
  CHECK(bob2.call({{"type", "decline_invitation"}, {"invitation", invitation}})["code"] == "no_such_invitation");

  // Both tables open now, rated; the results move both ratings.
  const auto tables = play_games({&ann, &bob2}, 4);
  REQUIRE(tables.size() == 2);
  for (const auto& t : tables) {
    auto stored = ts.server->lobby().store().load_table(t);
    REQUIRE(stored);
    CHECK(stored->rated == std::optional<bool>(true));
  }
  json profile;
  for (int i = 0; i < 100; ++i) {  // ratings are written by the store thread after the result
    profile = get_json(ts.port(), "/api/players/" + bob.player_id, 200);
    if (!profile["ratings"].empty() && profile["ratings"][0]["games"] == 2) break;
    std::this_thread::sleep_for(50ms);
  }
  REQUIRE_MESSAGE(profile["ratings"].size() == 1, profile.dump());
  CHECK(profile["ratings"][0]["games"] == 2);
  CHECK(get_json(ts.port(), "/api/players/" + ann.player_id, 200)["ratings"].size() == 1);
  check_schemas(ann);
  check_schemas(bob);
  check_schemas(bob2);
  check_schemas(eve);
}

namespace {

// Nobody's rating moved.
void check_unrated(TestServer& ts, const std::vector<WsClient*>& clients) {
  std::this_thread::sleep_for(200ms);  // the store thread writes ratings after results
  for (WsClient* c : clients) {
    const json profile = get_json(ts.port(), "/api/players/" + c->player_id, 200);
    CHECK_MESSAGE(profile["ratings"].empty(), profile.dump());
    check_schemas(*c);
  }
}

}  // namespace

TEST_CASE("abuse: a declined invitation leaves the event unrated for everyone") {
  TestServer ts;
  WsClient ann(ts.port()), bob(ts.port());
  ann.hello("ann");
  bob.hello("bob");
  const json created = rated_event(ann, bob);
  REQUIRE(created["type"] == "event_created");
  const std::string invitation = created["invitations"][0]["invitation"];
  const json answered = bob.call({{"type", "decline_invitation"}, {"invitation", invitation}});
  CHECK(answered["answer"] == "declined");
  CHECK(answered["rated"] == false);
  for (const auto& t : play_games({&ann, &bob}, 4)) {
    CHECK(ts.server->lobby().store().load_table(t)->rated == std::optional<bool>(false));
  }
  check_unrated(ts, {&ann, &bob});
}

TEST_CASE("abuse: an unanswered invitation expires and leaves the event unrated for everyone") {
  TestServer ts([](casa::server::Config& c) { c.invitation_seconds = 1; });
  WsClient ann(ts.port()), cy(ts.port());
  ann.hello("ann");
  cy.hello("cy");
  const json created = rated_event(ann, cy);
  REQUIRE(created["type"] == "event_created");
  const auto expired = cy.find([](const json& m) { return m["type"] == "invitation_answered"; }, 10s);
  REQUIRE(expired.has_value());
  CHECK((*expired)["answer"] == "expired");
  CHECK((*expired)["rated"] == false);
  CHECK(cy.call({{"type", "accept_invitation"}, {"invitation", created["invitations"][0]["invitation"]}})["code"] ==
        "no_such_invitation");
  for (const auto& t : play_games({&ann, &cy}, 4)) {
    CHECK(ts.server->lobby().store().load_table(t)->rated == std::optional<bool>(false));
  }
  check_unrated(ts, {&ann, &cy});
}

TEST_CASE("abuse: a rated event's consent outlives a restart: its later boards stay rated") {
  TestServer ts;
  WsClient ann(ts.port()), bob(ts.port());
  ann.hello("ann");
  bob.hello("bob");
  json m = {{"game", "fake-trick"},
            {"players", 2},
            {"rated", true},
            {"boards", 3},
            {"sides", {{{"members", {{{"player_id", ann.player_id}}}}}, {{"members", {{{"player_id", bob.player_id}}}}}}}};
  const json created = create_event(ann, m);
  REQUIRE(created["type"] == "event_created");
  const std::string event = created["event"];
  REQUIRE(bob.call({{"type", "accept_invitation"}, {"invitation", created["invitations"][0]["invitation"]}})["rated"] ==
          true);
  const auto board1 = play_games({&ann, &bob}, 4);  // board 1 at both tables
  // Board 2 opens as board 1 ends; then the server restarts.
  json described;
  for (int i = 0; i < 100; ++i) {
    described = get_json(ts.port(), "/api/events/" + event, 200);
    int opened = 0;
    for (const auto& t : described["tables"]) opened += t["board"] == 2 && !t["table"].is_null();
    if (opened == 2) break;
    std::this_thread::sleep_for(50ms);
  }
  const std::string ann_token = ann.token(), bob_token = bob.token();
  ts.restart();
  WsClient ann2(ts.port()), bob2(ts.port());
  REQUIRE(ann2.hello("", ann_token)["resumed"] == true);
  REQUIRE(bob2.hello("", bob_token)["resumed"] == true);
  play_games({&ann2, &bob2}, 8, board1);  // boards 2 and 3
  described = get_json(ts.port(), "/api/events/" + event, 200);
  int rated = 0;
  for (const auto& t : described["tables"]) {
    REQUIRE(t["table"].is_string());
    auto stored = ts.server->lobby().store().load_table(t["table"].get<std::string>());
    REQUIRE(stored);
    CHECK_MESSAGE(stored->rated == std::optional<bool>(true), "board " << t["board"]);
    rated += stored->rated == std::optional<bool>(true);
  }
  CHECK(rated == 6);
  check_schemas(ann2);
  check_schemas(bob2);
}

TEST_CASE("abuse: new players per address are limited; returning ones are not") {
  TestServer ts([](casa::server::Config& c) { c.players_per_address_per_hour = 3; });
  std::string token;
  for (int i = 0; i < 3; ++i) {
    WsClient c(ts.port());
    const json w = c.hello("p" + std::to_string(i));
    REQUIRE(w["type"] == "welcome");
    token = w["token"];
  }
  WsClient fourth(ts.port());
  const json refused = fourth.hello("p3");
  CHECK(refused["type"] == "error");
  CHECK(refused["code"] == "rate_limited");
  // A player who has a token comes back whatever the count.
  CHECK(fourth.hello("", token)["resumed"] == true);
  check_schemas(fourth);
}

TEST_CASE("abuse: invite codes — long, typed in any case, guesses limited per address; private tables by id") {
  TestServer ts([](casa::server::Config& c) { c.invite_guesses_per_minute = 3; });
  WsClient a(ts.port()), b(ts.port()), guesser(ts.port()), other(ts.port());
  a.hello("ann");
  b.hello("bob");
  guesser.hello("gus");
  other.hello("ola");
  const json created = create(a, {{"game", "fake-trick"}, {"players", 2}, {"private", true}});
  const std::string table = created["table"];
  const std::string invite = created["invite"];
  CHECK(invite.size() == 10);

  // Without the code, a private table is refused by its id alone: to watch,
  // to join, to resync (the error says why; nothing changes).
  for (const char* type : {"spectate", "join", "resync", "leave", "chat"}) {
    json m = {{"type", type}, {"table", table}};
    if (std::string(type) == "chat") m["text"] = "hi";
    const json r = b.call(m);
    CHECK_MESSAGE(r["code"] == "private_table", type << ": " << r.dump());
  }
  // An action is the table's to refuse (only who sits there acts): not_seated,
  // however the message is written (plain, or with an escape a client may use).
  const std::string plain_action =
      R"({"type":"action","table":")" + table + R"(","seq":0,"action":{"type":"play"},"id":801})";
  const std::string escaped_action =
      R"({"type":"\u0061ction","table":")" + table + R"(","seq":0,"action":{"type":"play"},"id":802})";
  for (const auto& [text, id] : {std::pair{plain_action, 801}, std::pair{escaped_action, 802}}) {
    b.send_text(text);
    const auto r = b.find([id = id](const json& m) { return m.contains("id") && m["id"] == id; }, 5s);
    REQUIRE_MESSAGE(r.has_value(), text);
    CHECK_MESSAGE((*r)["code"] == "not_seated", text << ": " << r->dump());
  }
  // A code that is not the table's, given with its id: refused, counted as a guess.
  CHECK(b.call({{"type", "spectate"}, {"table", table}, {"invite", "ZZZZZZZZZZ"}})["code"] == "bad_invite");
  // Its creator reaches it by id.
  a.send({{"type", "resync"}, {"table", table}});
  CHECK(a.find([&](const json& m) { return m["type"] == "table_state" && m["table"] == table; }, 5s).has_value());

  // The code as a person types it, in lower case.
  std::string lower = invite;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  CHECK(b.call({{"type", "join"}, {"invite", lower}})["type"] == "joined");
  // Known from then on: by id too.
  b.send({{"type", "resync"}, {"table", table}});
  CHECK(b.find([&](const json& m) { return m["type"] == "table_state" && m["table"] == table; }, 5s).has_value());

  // Three wrong codes from one address (three connections, the one given
  // with the table's id above included): then none is looked up for that
  // address, not even a right one.
  CHECK(guesser.call({{"type", "spectate"}, {"invite", "AAAAAAAAAA"}})["code"] == "no_such_table");
  CHECK(other.call({{"type", "spectate"}, {"invite", "CCCCCCCCCC"}})["code"] == "no_such_table");
  CHECK(other.call({{"type", "spectate"}, {"invite", invite}})["code"] == "rate_limited");
  CHECK(guesser.call({{"type", "spectate"}, {"invite", invite}})["code"] == "rate_limited");
  check_schemas(a);
  check_schemas(b);
  check_schemas(guesser);
  check_schemas(other);
}

TEST_CASE("abuse: a private table is watched with its code or a seat, also after a restart; its replay likewise") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), watcher(ts.port()), outsider(ts.port());
  a.hello("ann");
  b.hello("bob");
  watcher.hello("wes");
  outsider.hello("oli");
  const json created = create(a, {{"game", "fake-trick"}, {"players", 2}, {"private", true}});
  const std::string table = created["table"];
  const std::string invite = created["invite"];
  REQUIRE(b.call({{"type", "join"}, {"invite", invite}})["type"] == "joined");

  // By id alone: refused. With the code (alone or beside the id): watched,
  // and by the id from then on.
  CHECK(watcher.call({{"type", "spectate"}, {"table", table}})["code"] == "private_table");
  CHECK(watcher.call({{"type", "spectate"}, {"table", table}, {"invite", invite}})["type"] == "spectating");
  CHECK(watcher.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  CHECK(outsider.call({{"type", "spectate"}, {"table", table}})["code"] == "private_table");

  // Played halfway, then the server restarts: the table comes back from the
  // store and still knows who sits there and that it is private.
  const std::string a_token = a.token(), b_token = b.token(), outsider_token = outsider.token();
  int answered = 0;
  for (int round = 0; round < 400 && answered < 2; ++round) {
    for (WsClient* c : {&a, &b}) {
      auto m = c->recv(10ms);
      if (m && (*m)["type"] == "request" && (*m)["table"] == table && answered < 2) {
        // Acknowledged before the restart: the store has it. The second
        // action is written with an escape, as a client may: read the long
        // way, it is the same action and gets the same answer.
        json action = {{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", (*m)["legal"][0]},
                       {"id", 700 + answered}};
        std::string text = action.dump();
        if (answered == 1) text.replace(text.find("\"action\""), 8, "\"\\u0061ction\"");
        c->send_text(text);
        const auto reply = c->find([&](const json& r) { return r.contains("id") && r["id"] == 700 + answered; }, 5s);
        REQUIRE(reply.has_value());
        REQUIRE((*reply)["type"] == "accepted");
        ++answered;
      }
    }
  }
  REQUIRE(answered == 2);
  ts.restart();
  WsClient a2(ts.port()), b2(ts.port()), outsider2(ts.port());
  REQUIRE(a2.hello("", a_token)["resumed"] == true);
  REQUIRE(b2.hello("", b_token)["resumed"] == true);
  REQUIRE(outsider2.hello("", outsider_token)["resumed"] == true);
  auto state_of = [&](const json& m) { return m["type"] == "table_state" && m["table"] == table; };
  REQUIRE(b2.find(state_of, 5s).has_value());  // sent on resuming
  b2.send({{"type", "resync"}, {"table", table}, {"id", 99}});
  CHECK(b2.find(state_of, 5s).has_value());  // and on asking
  auto refused = [](const json& m) { return m["type"] == "error"; };
  CHECK(std::none_of(b2.log.begin(), b2.log.end(), refused));
  CHECK(outsider2.call({{"type", "spectate"}, {"table", table}})["code"] == "private_table");
  CHECK(outsider2.call({{"type", "resync"}, {"table", table}})["code"] == "private_table");

  // The game ends; the replay of a private table needs its code or a seat.
  play_out({&a2, &b2}, table);
  const std::string replay = "/api/tables/" + table + "/replay";
  CHECK(get_json(ts.port(), replay, 403)["error"] == "private_table");
  CHECK(get_json(ts.port(), "/api/games/" + table, 403)["error"] == "private_table");
  CHECK(http_call(ts.port(), boost::beast::http::verb::get, replay, outsider_token).first == 403);
  CHECK(get_json(ts.port(), replay + "?invite=WRONGCODE2", 403)["error"] == "private_table");
  std::string lower = invite;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  CHECK(get_json(ts.port(), replay + "?invite=" + lower, 200)["table"] == table);
  const auto [status, body] = http_call(ts.port(), boost::beast::http::verb::get, replay, b_token);
  CHECK(status == 200);
  CHECK(json::parse(body)["table"] == table);
  CHECK(http_call(ts.port(), boost::beast::http::verb::get, replay, a_token).first == 200);

  // After the end, and after another restart, the seated player's resync still
  // gets the final state and the result; the outsider still nothing.
  ts.restart();
  WsClient b3(ts.port()), outsider3(ts.port());
  REQUIRE(b3.hello("", b_token)["resumed"] == true);
  REQUIRE(outsider3.hello("", outsider_token)["resumed"] == true);
  auto over_of = [&](const json& m) { return m["type"] == "game_over" && m["table"] == table; };
  REQUIRE(b3.find(over_of, 5s).has_value());  // owed since the restart
  b3.send({{"type", "resync"}, {"table", table}, {"id", 99}});
  CHECK(b3.find(over_of, 5s).has_value());
  CHECK(std::none_of(b3.log.begin(), b3.log.end(), refused));
  CHECK(outsider3.call({{"type", "resync"}, {"table", table}})["code"] == "private_table");
  check_schemas(watcher);
  check_schemas(outsider2);
  check_schemas(b3);
}

TEST_CASE("abuse: no seed in the log before the game is over") {
  auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(10000);
  auto captured = [&] {
    std::string all;
    for (const auto& line : sink->last_formatted()) all += line;
    return all;
  };
  auto logger = spdlog::default_logger();
  logger->sinks().push_back(sink);
  const auto level = logger->level();
  logger->set_level(spdlog::level::trace);
  {
    TestServer ts;
    WsClient a(ts.port()), b(ts.port());
    a.hello("ann");
    b.hello("bob");
    const std::uint64_t seed = 8765432109876543210ULL;
    const json created = create(a, {{"game", "fake-trick"}, {"players", 2}, {"seed", seed}});
    REQUIRE(created["type"] == "table_created");
    REQUIRE(b.call({{"type", "join"}, {"table", created["table"]}})["type"] == "joined");
    // The start is logged on the table's strand: wait for that line.
    std::string log;
    for (int i = 0; i < 100 && log.find("starts") == std::string::npos; ++i) {
      std::this_thread::sleep_for(50ms);
      log = captured();
    }
    CHECK(log.find("starts") != std::string::npos);  // the table did start, and was logged
    CHECK_MESSAGE(log.find(std::to_string(seed)) == std::string::npos, log);
  }
  logger->set_level(level);
  logger->sinks().pop_back();
}

TEST_CASE("abuse: the files of the database are the server's user's alone") {
  if (testing_postgres()) return;  // PostgreSQL keeps its own files
  const auto old_mask = ::umask(022);  // a usual umask: files 0644 unless asked otherwise
  std::filesystem::path dir;
  {
    TestServer ts;
    dir = ts.dir;
    WsClient a(ts.port());
    a.hello("ann");
    REQUIRE(create(a, {{"game", "fake-trick"}, {"players", 2}})["type"] == "table_created");
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      struct stat st {};
      REQUIRE(::stat(entry.path().c_str(), &st) == 0);
      if (!S_ISREG(st.st_mode)) continue;
      ++files;
      CHECK_MESSAGE((st.st_mode & 077) == 0, entry.path() << " has mode " << std::oct << (st.st_mode & 0777));
    }
    CHECK(files >= 2);  // the database and its WAL at least
  }
  ::umask(old_mask);
}

TEST_CASE("abuse: names are NFC, trimmed, and refused when they hide, reorder or impersonate") {
  TestServer ts;
  auto name_code = [&](const std::string& name) {
    WsClient c(ts.port());
    const json r = c.hello(name);
    check_schemas(c);
    return r["type"] == "welcome" ? std::string("welcome") : r["code"].get<std::string>();
  };
  for (const std::string& bad : {std::string("ann\nINFO player p0 joined"), std::string("a\0b", 3),
                                std::string("\x1b[31mred"), std::string("\u202Eevil"), std::string("an\u200Bn"),
                                std::string("x\u2066y"), std::string("\xc2\x85z"), std::string("del\x7f"),
                                std::string(" "), std::string("   "), std::string("robot"), std::string("ROBOT"),
                                std::string("Strong"), std::string("random"), std::string("bot:robot"),
                                std::string(" robot ")}) {
    CHECK_MESSAGE(name_code(bad) == "bad_name", casa::server::log_quote(bad));
  }
  WsClient c(ts.port());
  CHECK(c.hello("  ann  ")["name"] == "ann");
  WsClient d(ts.port());
  CHECK(d.hello("e\xcc\x81mile")["name"] == "\xc3\xa9mile");  // e + combining acute -> é
  CHECK(casa::server::log_quote("a\nb\"c") == "\"a\\x0ab\\\"c\"");
}

TEST_CASE("abuse: a spectator's chat line says it comes from a spectator") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), watcher(ts.port());
  a.hello("ann");
  b.hello("bob");
  watcher.hello("ann");  // the same name as a player
  const json created = create(a, {{"game", "fake-trick"}, {"players", 2}});
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  watcher.send({{"type", "chat"}, {"table", table}, {"text", "I resign"}});
  const json line = a.expect("chat");
  CHECK(line["name"] == "ann");
  CHECK(line["seat"] == -1);
  CHECK(line["spectator"] == true);
  a.send({{"type", "chat"}, {"table", table}, {"text", "no I do not"}});
  const json own = b.find([](const json& m) { return m["type"] == "chat" && m["text"] == "no I do not"; }, 5s)
                       .value_or(json());
  CHECK(own["seat"] == 0);
  CHECK_FALSE(own.contains("spectator"));
  // In the state a late comer gets, too.
  b.send({{"type", "resync"}, {"table", table}});
  const json state =
      b.find([&](const json& m) { return m["type"] == "table_state" && m.contains("chat"); }, 5s).value_or(json());
  bool marked = false;
  for (const auto& l : state["chat"]) marked = marked || (l["text"] == "I resign" && l.value("spectator", false));
  CHECK(marked);
  check_schemas(a);
  check_schemas(b);
  check_schemas(watcher);
}
