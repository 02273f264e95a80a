// SPDX-License-Identifier: AGPL-3.0-or-later
// Chat is stored like moves, and finished games outlive a restart: a chat line
// is shown only after its commit, comes back in table_state after a restart
// (team lines only to the team), and a game that ended just before a restart
// still gives its players the final table_state and game_over.
#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <set>
#include <thread>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

// Texts of the chat messages `who` received for `table`.
std::set<std::string> heard(const WsClient& who, const std::string& table) {
  std::set<std::string> out;
  for (const auto& m : who.log) {
    if (m["type"] == "chat" && m["table"] == table) out.insert(m["text"].get<std::string>());
  }
  return out;
}

// Texts of a table_state's chat history.
std::set<std::string> history(const json& state) {
  std::set<std::string> out;
  if (!state.contains("chat")) return out;
  for (const auto& line : state["chat"]) out.insert(line["text"].get<std::string>());
  return out;
}

// Sends a chat line and waits for its echo (the acknowledgement); returns it.
json say(WsClient& who, const std::string& table, const std::string& text, bool team = false) {
  json m = {{"type", "chat"}, {"table", table}, {"text", text}};
  if (team) m["team"] = true;
  who.send(m);
  for (;;) {
    const json echo = who.expect("chat");
    if (echo["text"] == text) return echo;
  }
}

// Waits for `who` to receive the chat line `text` of `table`; other messages
// stay queued. A ping is no barrier for it: the pong comes from the
// connection's own session, the line from the table, and the server promises
// no order between the two. A table sends its lines to each connection in the
// order they were stored, so once a line is here every earlier line meant for
// `who` is here too.
void hears(WsClient& who, const std::string& table, const std::string& text) {
  const auto line = who.find(
      [&](const json& m) {
        return m["type"] == "chat" && m["table"] == table && m["text"] == text;
      },
      std::chrono::seconds(5));
  REQUIRE_MESSAGE(line.has_value(), who.player_id << " never received the chat line: " << text);
}

}  // namespace

TEST_CASE(
    "chat lines come back after a restart: team lines only to the team, never to a spectator") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port()), c(ts.port()), d(ts.port());
  a.hello("ann");
  b.hello("bea");
  c.hello("cy");
  d.hello("dee");
  // fake-trick for four: teams [[0,2],[1,3]]. Ann and Bea are partners, Cy
  // the other side, Dee a spectator.
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 4}})["table"];
  CHECK(a.call({{"type", "add_bot"}, {"table", table}, {"seat", 3}, {"bot", "robot"}})["type"] ==
        "bot_added");
  CHECK(d.call({{"type", "spectate"}, {"table", table}})["type"] == "spectating");
  CHECK(b.call({{"type", "join"}, {"table", table}, {"seat", 2}})["type"] == "joined");
  CHECK(c.call({{"type", "join"}, {"table", table}, {"seat", 1}})["type"] == "joined");

  const json first = say(a, table, "ann to her partner", true);
  CHECK(first["line"] == 1);
  CHECK(first["seat"] == 0);
  CHECK(say(c, table, "cy to his side", true)["line"] == 2);
  CHECK(say(a, table, "ann to all")["line"] == 3);
  CHECK(say(d, table, "dee from the rail")["seat"] == -1);
  // The last line went to everyone (its speaker already has it): once each has
  // it, each has every earlier line it was meant to see.
  for (WsClient* w : {&a, &b, &c}) hears(*w, table, "dee from the rail");

  // Live: the team lines reached their team only.
  CHECK(heard(b, table).count("ann to her partner"));
  CHECK_FALSE(heard(c, table).count("ann to her partner"));
  CHECK_FALSE(heard(d, table).count("ann to her partner"));
  CHECK_FALSE(heard(a, table).count("cy to his side"));
  CHECK_FALSE(heard(b, table).count("cy to his side"));
  CHECK_FALSE(heard(d, table).count("cy to his side"));
  CHECK(heard(d, table).count("ann to all"));
  check_schemas(a);
  check_schemas(d);

  ts.restart();
  WsClient a2(ts.port()), b2(ts.port()), c2(ts.port()), d2(ts.port());
  a2.hello("", a.token());
  b2.hello("", b.token());
  c2.hello("", c.token());
  d2.hello("", d.token());
  const std::set<std::string> everyone = {"ann to all", "dee from the rail"};
  std::set<std::string> ours = everyone, theirs = everyone;
  ours.insert("ann to her partner");
  theirs.insert("cy to his side");
  const json sa = a2.expect("table_state");
  CHECK(history(sa) == ours);
  CHECK(history(b2.expect("table_state")) == ours);
  CHECK(history(c2.expect("table_state")) == theirs);
  d2.send({{"type", "resync"}, {"table", table}});
  CHECK(history(d2.expect("table_state")) == everyone);
  // In the order they were stored, numbered as they were sent.
  REQUIRE(sa["chat"].size() == 3);
  CHECK(sa["chat"][0]["line"] == 1);
  CHECK(sa["chat"][0]["name"] == "ann");
  CHECK(sa["chat"][0]["team"] == true);
  CHECK(sa["chat"][2]["text"] == "dee from the rail");
  CHECK(sa["chat"][2]["seat"] == -1);
  // Numbering goes on after the restart.
  CHECK(say(b2, table, "back again")["line"] == 5);
  for (WsClient* w : {&a2, &b2, &c2, &d2}) check_schemas(*w);
}

TEST_CASE(
    "a chat line the store refuses: storage_unavailable to the sender, nobody sees it, a restart "
    "has none") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}})["table"];
  CHECK(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");

  ts.server->store().set_query_only(true);
  const json refused = a.call({{"type", "chat"}, {"table", table}, {"text", "never seen"}});
  CHECK(refused["type"] == "error");
  CHECK(refused["code"] == "storage_unavailable");
  CHECK(refused["table"] == table);
  ts.server->store().set_query_only(false);
  CHECK(say(a, table, "seen by both")["line"] == 1);
  // The refused line was handled by the table before this one: had it gone
  // to bob, it would have reached him first.
  hears(b, table, "seen by both");
  CHECK(heard(a, table) == std::set<std::string>{"seen by both"});
  CHECK(heard(b, table) == std::set<std::string>{"seen by both"});
  // The table_state the resync answers (earlier ones carry no chat).
  b.send({{"type", "resync"}, {"table", table}});
  json state;
  do state = b.expect("table_state");
  while (!state.contains("chat"));
  CHECK(history(state) == std::set<std::string>{"seen by both"});

  ts.restart();
  WsClient b2(ts.port());
  b2.hello("", b.token());
  CHECK(history(b2.expect("table_state")) == std::set<std::string>{"seen by both"});
  check_schemas(a);
  check_schemas(b2);
}

TEST_CASE(
    "a game that ended just before a restart: resume and resync give the final state and "
    "game_over") {
  TestServer ts;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 2}})["table"];
  CHECK(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  const auto over = play_out({&a, &b}, table);

  // As after a power cut right after the last commit: nobody may have been told.
  ts.restart();
  WsClient a2(ts.port()), b2(ts.port());
  CHECK(a2.hello("", a.token())["resumed"] == true);
  const json state = a2.expect("table_state");
  CHECK(state["status"] == "over");
  CHECK(state["seq"] == over[0]["seq"]);
  const json again = a2.expect("game_over");
  CHECK(again == over[0]);
  // Told once: a later reconnect brings nothing more, a resync does.
  CHECK(b2.hello("", b.token())["resumed"] == true);
  b2.expect("game_over");
  b2.send({{"type", "resync"}, {"table", table}});
  CHECK(b2.expect("table_state")["status"] == "over");
  CHECK(b2.expect("game_over") == over[1]);
  WsClient a3(ts.port());
  a3.hello("", a.token());
  CHECK(a3.call({{"type", "ping"}})["type"] == "pong");
  for (const auto& m : a3.log) CHECK(m["type"] != "game_over");
  // Rematch and the replay work on it.
  CHECK(a3.call({{"type", "rematch"}, {"table", table}})["type"] == "rematch_created");
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(replay["scores"] == over[0]["scores"]);
  check_schemas(a2);
  check_schemas(b2);
}

TEST_CASE("a player away when the game ended gets game_over on coming back") {
  TestServer ts;
  auto a = std::make_unique<WsClient>(ts.port());
  WsClient b(ts.port());
  a->hello("ann");
  b.hello("bob");
  const std::string token = a->token();
  // The robot takes ann's seat at once when she is away.
  const std::string table =
      create(*a, {{"game", "fake-trick"},
                  {"players", 2},
                  {"disconnect_policy", {{"grace_seconds", 0}, {"takeover", "robot"}}}})["table"];
  CHECK(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  a.reset();
  const auto over = play_out({&b}, table);

  WsClient a2(ts.port());
  CHECK(a2.hello("", token)["resumed"] == true);
  CHECK(a2.expect("table_state")["status"] == "over");
  CHECK(a2.expect("game_over") == over[0]);
  check_schemas(a2);
}

TEST_CASE(
    "a player who resumes while the last move is being stored gets the final state, then game_over") {
  TestServer ts;
  auto a = std::make_unique<WsClient>(ts.port());
  WsClient b(ts.port());
  a->hello("ann");
  b.hello("bob");
  const std::string token = a->token();
  // One card each: bob bids, then plays the last card of the game (ann's seat
  // 0 leads the only trick); the robot takes ann's seat at once.
  const std::string table =
      create(*a, {{"game", "fake-trick"},
                  {"players", 2},
                  {"options", {{"hand", 1}}},
                  {"disconnect_policy", {{"grace_seconds", 0}, {"takeover", "robot"}}}})["table"];
  CHECK(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  a.reset();
  const json bid = b.expect("request");
  b.send(
      {{"type", "action"}, {"table", table}, {"seq", bid["seq"]}, {"action", first_legal(bid)}});
  json last = b.expect("request");
  while (last["legal"][0]["type"] != "play") last = b.expect("request");

  // The commit of the last move is held while ann comes back: on PostgreSQL
  // by a lock taken from outside; on SQLite, which the server holds for
  // itself, by a read on the store's own connection that waits for the test.
  std::unique_ptr<casa::server::Db> holder;
  std::promise<void> release, holding;
  std::thread reader;
  // Lets the read go however the test ends, so the server can stop.
  struct Join {
    std::thread& t;
    std::promise<void>& release;
    ~Join() {
      if (!t.joinable()) return;
      try {
        release.set_value();
      } catch (const std::future_error&) {
      }
      t.join();
    }
  } join{reader, release};
  if (casa::server::Db::is_postgres_url(ts.config.db)) {
    holder = casa::server::Db::open(ts.config.db, false);
    holder->exec("BEGIN");
    holder->exec("LOCK TABLE actions IN EXCLUSIVE MODE");
  } else {
    reader = std::thread([&] {
      ts.server->store().read([&](casa::server::Db&) {
        holding.set_value();
        release.get_future().wait();
      });
    });
    holding.get_future().wait();
  }
  b.send({{"type", "action"},
          {"table", table},
          {"seq", last["seq"]},
          {"action", first_legal(last)}});
  // Messages of one connection are handled in order: once the pong is back,
  // the table has the action ahead of ann's resume.
  CHECK(b.call({{"type", "ping"}})["type"] == "pong");
  WsClient a2(ts.port());
  CHECK(a2.hello("", token)["resumed"] == true);
  if (holder) {
    holder->exec("ROLLBACK");
  } else {
    release.set_value();
    reader.join();
  }

  const json over = b.expect("game_over");
  CHECK(a2.expect("table_state")["status"] == "over");
  CHECK(a2.expect("game_over") == over);
  // Told once, and only after the state.
  CHECK(a2.call({{"type", "ping"}})["type"] == "pong");
  std::vector<std::string> told;
  for (const auto& m : a2.log) {
    if (m["type"] == "table_state" || m["type"] == "game_over") told.push_back(m["type"]);
  }
  CHECK(told == std::vector<std::string>{"table_state", "game_over"});
  check_schemas(a2);
}

TEST_CASE(
    "a table that ended longer ago than --finished-table-ttl-seconds is not loaded by a restart") {
  TestServer ts([](casa::server::Config& c) { c.finished_table_ttl_seconds = 0; });
  WsClient a(ts.port());
  a.hello("ann");
  const std::string table = create(a, {{"game", "fake-trick"}, {"players", 1}})["table"];
  play_out({&a}, table);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // finished_at is in whole seconds
  ts.restart();
  WsClient a2(ts.port());
  a2.hello("", a.token());
  CHECK(a2.call({{"type", "resync"}, {"table", table}})["code"] == "no_such_table");
  get_json(ts.port(), "/api/games/" + table, 200);  // the replay stays
}
