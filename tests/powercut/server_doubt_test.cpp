// SPDX-License-Identifier: AGPL-3.0-or-later
// A move refused because its fsync failed, seen from the players and from
// the disk: the server must not show the move, must refuse writes until a
// restart could no longer find it, and must then go on as if it never came.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "tests/powercut/powercut_vfs.h"
#include "tests/server/support.h"

using namespace casa::testing;
using casa::powercut::FileKind;
using nlohmann::json;

namespace {

// (an integer, a text) per row that `sql`, whose one parameter is the table
// id, finds as a restart after a power cut would: in a copy of the database and
// its WAL, without -shm.
std::vector<std::pair<int, std::string>> rows_on_disk(const std::filesystem::path& db,
                                                      const char* sql, const std::string& table) {
  const auto dir = temp_dir("disk");
  const auto copy = dir / "copy.db";
  std::filesystem::copy_file(db, copy);
  if (std::filesystem::exists(db.string() + "-wal"))
    std::filesystem::copy_file(db.string() + "-wal", copy.string() + "-wal");
  sqlite3* conn = nullptr;
  REQUIRE(sqlite3_open_v2(copy.c_str(), &conn, SQLITE_OPEN_READWRITE, "unix") == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(conn, sql, -1, &st, nullptr) == SQLITE_OK);
  sqlite3_bind_text(st, 1, table.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<std::pair<int, std::string>> out;
  while (sqlite3_step(st) == SQLITE_ROW) {
    out.emplace_back(sqlite3_column_int(st, 0),
                     reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
  }
  sqlite3_finalize(st);
  sqlite3_close(conn);
  std::filesystem::remove_all(dir);
  return out;
}

// (seat, action) of every logged move of `table` on disk (rows_on_disk).
std::vector<json> log_on_disk(const std::filesystem::path& db, const std::string& table) {
  std::vector<json> out;
  for (const auto& [seat, action] :
       rows_on_disk(db, "SELECT seat, action FROM actions WHERE table_id = ? ORDER BY seq", table))
    out.push_back({seat, json::parse(action)});
  return out;
}

}  // namespace

TEST_CASE(
    "a failed fsync: storage_unavailable, the server settles the doubt, and a restart agrees with "
    "it") {
  TestServer ts;
  const std::filesystem::path db = ts.config.db;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const json created = a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");
  const json ra = a.expect("request");
  const json rb = b.expect("request");
  REQUIRE(rb["legal"].size() >= 2);
  const json first = ra["legal"][0];
  CHECK(a.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", first}})["type"] ==
        "accepted");

  // The disk stores bob's move but reports an error.
  casa::powercut::fail_next_syncs(FileKind::wal, 1);
  const json refused = rb["legal"][0];
  const json r = b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", refused}});
  CHECK(r["code"] == "storage_unavailable");
  b.send({{"type", "resync"}, {"table", table}});
  CHECK(b.expect("table_state")["seq"] == 1);  // the server does not show the refused move
  for (const auto& m : a.log) CHECK(!(m["type"] == "event" && m["seq"] == 2));

  // The server settles the doubt by itself; from then on the disk holds what
  // the server shows.
  for (int i = 0; i < 100 && ts.server->store().in_doubt(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE_FALSE(ts.server->store().in_doubt());
  CHECK(get_json(ts.port(), "/healthz", 200)["storage"] == "ok");
  CHECK(log_on_disk(db, table) == std::vector<json>{{0, first}});

  // Bob plays another card at the same seq: that one is on disk.
  const json played = rb["legal"][1];
  CHECK(b.call({{"type", "action"}, {"table", table}, {"seq", 0}, {"action", played}})["type"] ==
        "accepted");
  CHECK(log_on_disk(db, table) == std::vector<json>{{0, first}, {1, played}});

  // A restart finds the same game, and it can be finished.
  ts.restart();
  WsClient a2(ts.port()), b2(ts.port());
  CHECK(a2.hello("", a.token())["resumed"] == true);
  CHECK(b2.hello("", b.token())["resumed"] == true);
  CHECK(a2.expect("table_state")["seq"] == 2);
  play_out({&a2, &b2}, table);
  const json replay = get_json(ts.port(), "/api/games/" + table, 200);
  CHECK(replay["log"][1]["action"] == played);
}

namespace {

// (line, text) of every chat line of `table` on disk (rows_on_disk).
std::vector<json> chat_on_disk(const std::filesystem::path& db, const std::string& table) {
  std::vector<json> out;
  for (const auto& [line, text] :
       rows_on_disk(db, "SELECT line, text FROM chat WHERE table_id = ? ORDER BY line", table))
    out.push_back({line, text});
  return out;
}

}  // namespace

TEST_CASE(
    "a chat line whose fsync failed: storage_unavailable, nobody sees it, and a restart agrees") {
  TestServer ts;
  const std::filesystem::path db = ts.config.db;
  WsClient a(ts.port()), b(ts.port());
  a.hello("ann");
  b.hello("bob");
  const json created = a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  REQUIRE(b.call({{"type", "join"}, {"table", table}})["type"] == "joined");

  // The disk stores the line but reports an error.
  casa::powercut::fail_next_syncs(FileKind::wal, 1);
  const json r = a.call({{"type", "chat"}, {"table", table}, {"text", "in doubt"}});
  CHECK(r["code"] == "storage_unavailable");
  for (int i = 0; i < 100 && ts.server->store().in_doubt(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE_FALSE(ts.server->store().in_doubt());
  // Neither the server nor the disk has it.
  CHECK(chat_on_disk(db, table).empty());
  b.send({{"type", "resync"}, {"table", table}});
  CHECK_FALSE(b.expect("table_state").contains("chat"));
  for (const auto& m : a.log) CHECK(m["type"] != "chat");
  for (const auto& m : b.log) CHECK(m["type"] != "chat");

  // The next line is number 1, on disk before it is shown.
  a.send({{"type", "chat"}, {"table", table}, {"text", "stored"}});
  const json echo = a.expect("chat");
  CHECK(echo["line"] == 1);
  CHECK(chat_on_disk(db, table) == std::vector<json>{{1, "stored"}});

  ts.restart();
  WsClient b2(ts.port());
  b2.hello("", b.token());
  const json state = b2.expect("table_state");
  REQUIRE(state.contains("chat"));
  CHECK(state["chat"].size() == 1);
  CHECK(state["chat"][0]["text"] == "stored");
}
