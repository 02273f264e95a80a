// SPDX-License-Identifier: AGPL-3.0-or-later
// The store's durability, counted through the power-cut VFS: how many fsyncs a
// group commit costs in each durability setting, and what happens to a COMMIT
// whose fsync failed (it may be on disk; the store settles that before it
// accepts anything else).
#include <doctest/doctest.h>
#include <sched.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <future>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "server/ops/config.h"
#include "server/store/store.h"
#include "tests/powercut/powercut_vfs.h"

namespace fs = std::filesystem;
using casa::powercut::FileKind;
using casa::server::Durability;
using casa::server::Store;
using casa::server::StoredAction;
using casa::server::StoredTable;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("casa-powercut-" + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Runs a store write and waits for its outcome.
bool wait_for(const std::function<void(Store::Done)>& write) {
  std::promise<bool> outcome;
  auto result = outcome.get_future();
  write([&outcome](bool ok) { outcome.set_value(ok); });
  return result.get();
}

StoredTable a_table(const std::string& id) {
  StoredTable t;
  t.id = id;
  t.game = "fake-trick";
  t.players = 2;
  t.seed = 7;
  t.invite = "invite-" + id;
  t.creator = "p1";
  return t;
}

// Strings built with append, not "literal" + string: GCC 12 at -O3 warns
// (-Wrestrict, a false positive) on the operator+ form.
std::string card_id(int seq) {
  std::string id = "c";
  id += std::to_string(seq);
  return id;
}

StoredAction a_move(std::int64_t seq, const std::string& card) {
  std::string action = "{\"card\":\"";
  action += card;
  action += "\"}";
  return {seq, static_cast<int>(seq % 2), std::move(action), ""};
}

bool append(Store& store, const std::string& table, const StoredAction& a) {
  return wait_for(
      [&](Store::Done done) { store.append_action(table, a, {}, std::nullopt, std::move(done)); });
}

// Holds the store thread in one job while the test queues more, so that they
// all wait for the same group commit.
struct Gate {
  std::promise<void> entered, release;
  std::shared_future<void> released{release.get_future().share()};
  void block(Store& store) {
    store.write(
        [this](casa::server::Db&) {
          entered.set_value();
          released.wait();
        },
        nullptr);
    entered.get_future().wait();
  }
};

// The action log of `table` as a fresh process would find it in a copy of
// the files on disk now (the copy has no -shm: SQLite recovers from the WAL).
// A connection to a copy (in `copy`) of the files on disk now.
sqlite3* open_copy(const fs::path& db, const TempDir& copy) {
  const fs::path to = copy.path / "copy.db";
  fs::copy_file(db, to);
  if (fs::exists(db.string() + "-wal")) fs::copy_file(db.string() + "-wal", to.string() + "-wal");
  sqlite3* conn = nullptr;
  REQUIRE(sqlite3_open_v2(to.c_str(), &conn, SQLITE_OPEN_READWRITE, "unix") == SQLITE_OK);
  return conn;
}

std::vector<std::string> log_on_disk(const fs::path& db, const std::string& table) {
  TempDir copy;
  sqlite3* conn = open_copy(db, copy);
  sqlite3_stmt* st = nullptr;
  std::vector<std::string> out;
  // No actions table at all: even the schema was lost.
  if (sqlite3_prepare_v2(conn, "SELECT action FROM actions WHERE table_id = ? ORDER BY seq", -1,
                         &st, nullptr) != SQLITE_OK) {
    sqlite3_close(conn);
    return out;
  }
  sqlite3_bind_text(st, 1, table.c_str(), -1, SQLITE_TRANSIENT);
  while (sqlite3_step(st) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(conn);
  return out;
}

std::vector<std::string> log_in_store(Store& store, const std::string& table) {
  std::vector<std::string> out;
  if (auto t = store.load_table(table)) {
    for (const auto& a : t->actions) out.push_back(a.action);
  }
  return out;
}

}  // namespace

// One number a query finds in a copy of the files on disk now.
std::int64_t number_on_disk(const fs::path& db, const char* sql) {
  TempDir copy;
  sqlite3* conn = open_copy(db, copy);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(conn, sql, -1, &st, nullptr) == SQLITE_OK);
  const std::int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(conn);
  return n;
}

std::vector<std::string> moves(int from, int to) {
  std::vector<std::string> out;
  for (int seq = from; seq <= to; ++seq) out.push_back(a_move(seq, card_id(seq)).action);
  return out;
}

TEST_CASE("a group commit of many moves appends them to the log; they are read in order and folded") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  {
    Store store(db.string(), Durability::full);
    for (const char* t : {"t1", "t2"}) {
      REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table(t), std::move(d)); }));
    }
    // 20 moves in one commit (kLogBatch is 16): two tables' moves interleaved,
    // and a seq that t1 already has, which is refused there as in the table.
    static_assert(Store::kLogBatch <= 20);
    Gate gate;
    gate.block(store);
    std::vector<std::promise<bool>> outcomes(20);
    auto queue = [&](int i, const std::string& table, std::int64_t seq, const std::string& card) {
      store.append_action(table, a_move(seq, card), {}, std::nullopt,
                          [&outcomes, i](bool ok) { outcomes[static_cast<std::size_t>(i)].set_value(ok); });
    };
    int i = 0;
    for (int seq = 1; seq <= 9; ++seq) {
      queue(i++, "t1", seq, card_id(seq));
      queue(i++, "t2", seq, card_id(seq));
    }
    queue(i++, "t1", 5, "again");  // refused: t1 has a seq 5 in this very commit
    queue(i++, "t1", 10, card_id(10));
    gate.release.set_value();
    for (int k = 0; k < 20; ++k) CHECK(outcomes[static_cast<std::size_t>(k)].get_future().get() == (k != 18));
    CHECK(number_on_disk(db, "SELECT COUNT(*) FROM action_log") == 19);
    CHECK(number_on_disk(db, "SELECT COUNT(*) FROM actions_by_table") == 0);
    CHECK(log_on_disk(db, "t1") == moves(1, 10));
    CHECK(log_on_disk(db, "t2") == moves(1, 9));
    CHECK(log_in_store(store, "t1") == moves(1, 10));

    // A commit of one move writes it in its table's place; the seq is still
    // checked against the log.
    CHECK_FALSE(append(store, "t1", a_move(10, "again")));
    CHECK_FALSE(append(store, "t2", a_move(11, "gap")));
    REQUIRE(append(store, "t1", a_move(11, card_id(11))));
    CHECK(number_on_disk(db, "SELECT COUNT(*) FROM actions_by_table") == 1);
    CHECK(log_in_store(store, "t1") == moves(1, 11));
    CHECK(store.folds() == 0);
  }
  // A restart folds what is left in the log before it reads any table.
  {
    Store store(db.string(), Durability::full);
    CHECK(store.folds() == 1);
    CHECK(number_on_disk(db, "SELECT COUNT(*) FROM action_log") == 0);
    CHECK(number_on_disk(db, "SELECT COUNT(*) FROM actions_by_table") == 20);
    CHECK(log_in_store(store, "t1") == moves(1, 11));
    CHECK(log_on_disk(db, "t2") == moves(1, 9));
    // A table this process did not store moves for goes on at its next seq.
    CHECK_FALSE(append(store, "t2", a_move(9, "again")));
    REQUIRE(append(store, "t2", a_move(10, card_id(10))));
    CHECK(log_on_disk(db, "t2") == moves(1, 10));
  }
}

TEST_CASE("moves left in the log are folded once the store has been idle a second") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  Store store(db.string(), Durability::full);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
  Gate gate;
  gate.block(store);
  std::vector<std::promise<bool>> outcomes(Store::kLogBatch);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    store.append_action("t1", a_move(static_cast<std::int64_t>(i) + 1, card_id(static_cast<int>(i) + 1)), {},
                        std::nullopt, [&outcomes, i](bool ok) { outcomes[i].set_value(ok); });
  }
  gate.release.set_value();
  for (auto& o : outcomes) REQUIRE(o.get_future().get());
  CHECK(number_on_disk(db, "SELECT COUNT(*) FROM action_log") == static_cast<std::int64_t>(Store::kLogBatch));
  for (int i = 0; i < 100 && store.folds() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(store.folds() == 1);
  CHECK(number_on_disk(db, "SELECT COUNT(*) FROM action_log") == 0);
  CHECK(log_on_disk(db, "t1") == moves(1, static_cast<int>(Store::kLogBatch)));
  CHECK(log_in_store(store, "t1") == moves(1, static_cast<int>(Store::kLogBatch)));
}

// How many of this process's threads run at nice `nice` under the normal
// policy, and how many under SCHED_IDLE (/proc/self/task/*/stat, fields 19
// and 41).
struct ThreadPriorities {
  int at_nice = 0;
  int idle = 0;
};
ThreadPriorities thread_priorities(long nice) {
  ThreadPriorities found;
  for (const auto& task : fs::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream fields(stat.substr(paren + 1));
    std::vector<std::string> f{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    if (f.size() < 39) continue;  // f[0] is field 3 (state)
    const long policy = std::stol(f[38]);
    if (policy == SCHED_IDLE) {
      ++found.idle;
    } else if (std::stol(f[16]) == nice) {
      ++found.at_nice;
    }
  }
  return found;
}

TEST_CASE("the store thread gives way to the network threads; checkpoints run on an idle core") {
  // On a core shared with the network threads, a group commit waits while
  // moves are still being answered, then takes them all (docs/server.md).
  const auto before = thread_priorities(Store::kStoreNice);
  TempDir dir;
  {
    Store store((dir.path / "casa.db").string(), Durability::full);
    REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
    const auto during = thread_priorities(Store::kStoreNice);
    CHECK(during.at_nice == before.at_nice + 1);  // the store thread
    CHECK(during.idle == before.idle + 1);        // the checkpoint thread
  }
  const auto after = thread_priorities(Store::kStoreNice);
  CHECK(after.at_nice == before.at_nice);
  CHECK(after.idle == before.idle);
}

TEST_CASE("durability full: one WAL fsync per group commit, however many moves it holds") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::full);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));

  // One move per commit: one fsync each.
  const auto syncs_before = casa::powercut::sync_count(FileKind::wal);
  const auto commits_before = store.commits();
  for (int seq = 1; seq <= 10; ++seq)
    REQUIRE(append(store, "t1", a_move(seq, card_id(seq))));
  CHECK(store.commits() - commits_before == 10);
  CHECK(casa::powercut::sync_count(FileKind::wal) - syncs_before == 10);

  // 100 moves queued behind one job: the store commits them together, with
  // one fsync (the job that held the gate wrote nothing: its commit has none).
  Gate gate;
  gate.block(store);
  std::atomic<int> acknowledged{0};
  std::promise<void> all_done;
  const auto syncs_mid = casa::powercut::sync_count(FileKind::wal);
  const auto commits_mid = store.commits();
  for (int seq = 11; seq <= 110; ++seq) {
    store.append_action("t1", a_move(seq, card_id(seq)), {}, std::nullopt,
                        [&](bool ok) {
                          CHECK(ok);
                          if (++acknowledged == 100) all_done.set_value();
                        });
  }
  gate.release.set_value();
  all_done.get_future().wait();
  CHECK(store.commits() - commits_mid == 2);
  CHECK(casa::powercut::sync_count(FileKind::wal) - syncs_mid == 1);
  MESSAGE("100 moves in one group commit: " << casa::powercut::sync_count(FileKind::wal) - syncs_mid
                                            << " WAL fsync");
  CHECK(log_in_store(store, "t1").size() == 110);
}

TEST_CASE("durability normal: commits are not fsync'd (a power cut can lose them)") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::normal);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
  const auto syncs_before = casa::powercut::sync_count(FileKind::wal);
  for (int seq = 1; seq <= 10; ++seq) REQUIRE(append(store, "t1", a_move(seq, "c")));
  // Far below the autocheckpoint: nothing is fsync'd.
  CHECK(casa::powercut::sync_count(FileKind::wal) - syncs_before == 0);
  // And a power cut now loses all ten (here even the schema, never synced
  // since the database was created): only the synced image is left.
  CHECK(log_in_store(store, "t1").size() == 10);
  TempDir copy;
  const fs::path db = dir.path / "casa.db";
  fs::copy_file(db, copy.path / "casa.db");
  fs::copy_file(db.string() + "-wal", copy.path / "casa.db-wal");
  fs::copy_file(db.string() + "-wal-undo", copy.path / "casa.db-wal-undo");
  if (fs::exists(db.string() + "-undo"))
    fs::copy_file(db.string() + "-undo", copy.path / "casa.db-undo");
  CHECK(casa::powercut::power_cut((copy.path / "casa.db").string()) > 0);
  CHECK(log_on_disk(copy.path / "casa.db", "t1").empty());
}

TEST_CASE("a COMMIT whose fsync failed stays in doubt until a later commit settles it") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  Store store(db.string(), Durability::full);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
  REQUIRE(append(store, "t1", a_move(1, "first")));

  // The disk takes the move but reports an error: the move is refused. To
  // look at the files while the doubt lasts, the store is made read-only
  // before it can settle it.
  casa::powercut::fail_next_syncs(FileKind::wal, 1);
  const bool ok = wait_for([&](Store::Done done) {
    store.append_action("t1", a_move(2, "doubtful"), {}, std::nullopt, [&store, done](bool ok) {
      store.set_query_only(true);
      done(ok);
    });
  });
  CHECK_FALSE(ok);
  CHECK(store.in_doubt());
  CHECK_FALSE(store.healthy());
  // The server believes the move did not happen...
  CHECK(log_in_store(store, "t1") == std::vector<std::string>{"{\"card\":\"first\"}"});
  // ...but a restart now would find it: that is the doubt.
  CHECK(log_on_disk(db, "t1") ==
        std::vector<std::string>{"{\"card\":\"first\"}", "{\"card\":\"doubtful\"}"});
  // While in doubt, every write is refused, even one that could be stored.
  CHECK_FALSE(append(store, "t1", a_move(2, "refused")));
  CHECK(store.in_doubt());

  // The disk works again: the store settles the doubt by itself, with nothing
  // queued, and from then on the disk agrees with what the server believes.
  store.set_query_only(false);
  for (int i = 0; i < 100 && store.in_doubt(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(store.in_doubt());
  CHECK(store.healthy());
  CHECK(log_on_disk(db, "t1") == std::vector<std::string>{"{\"card\":\"first\"}"});
  CHECK(log_in_store(store, "t1") == std::vector<std::string>{"{\"card\":\"first\"}"});

  // Play goes on at the same seq.
  REQUIRE(append(store, "t1", a_move(2, "second")));
  CHECK(log_on_disk(db, "t1") ==
        std::vector<std::string>{"{\"card\":\"first\"}", "{\"card\":\"second\"}"});
}

TEST_CASE("a COMMIT whose fsync failed, settled by the next batch of moves itself") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  Store store(db.string(), Durability::full);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
  REQUIRE(append(store, "t1", a_move(1, "first")));
  casa::powercut::fail_next_syncs(FileKind::wal, 1);
  CHECK_FALSE(append(store, "t1", a_move(2, "doubtful")));
  // The next move commits together with what settles the doubt (or after it).
  REQUIRE(append(store, "t1", a_move(2, "second")));
  CHECK_FALSE(store.in_doubt());
  CHECK(store.healthy());
  CHECK(log_on_disk(db, "t1") ==
        std::vector<std::string>{"{\"card\":\"first\"}", "{\"card\":\"second\"}"});
}

TEST_CASE(
    "--durability: full by default, normal on request, anything else refused; CASA_DURABILITY "
    "too") {
  auto parse = [](std::vector<std::string> args, casa::server::Config& config) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    bool help = false;
    return casa::server::parse_config(static_cast<int>(argv.size()), argv.data(), config, help);
  };
  {
    casa::server::Config c;
    CHECK_FALSE(parse({"casa-server"}, c));
    CHECK(c.durability == "full");
  }
  {
    casa::server::Config c;
    CHECK_FALSE(parse({"casa-server", "--durability", "normal"}, c));
    CHECK(c.durability == "normal");
  }
  {
    casa::server::Config c;
    const auto err = parse({"casa-server", "--durability=off"}, c);
    REQUIRE(err);
    CHECK(err->find("--durability") != std::string::npos);
    CHECK(c.durability == "full");
  }
  {
    ::setenv("CASA_DURABILITY", "normal", 1);
    casa::server::Config c;
    CHECK_FALSE(parse({"casa-server"}, c));
    CHECK(c.durability == "normal");
    casa::server::Config flag_wins;
    CHECK_FALSE(parse({"casa-server", "--durability", "full"}, flag_wins));
    CHECK(flag_wins.durability == "full");
    ::setenv("CASA_DURABILITY", "sometimes", 1);
    casa::server::Config bad;
    CHECK(parse({"casa-server"}, bad));
    ::unsetenv("CASA_DURABILITY");
  }
}

TEST_CASE("a failing job in a group commit spoils only itself; the others commit once, together") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::full);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
  REQUIRE(append(store, "t1", a_move(1, "c1")));

  // The gate holds the store thread (in a commit of its own) while the others
  // queue behind it, so that they all share the next transaction.
  Gate gate;
  const auto commits_before = store.commits();
  gate.block(store);
  std::atomic<int> runs{0};  // a job that only counts how often it ran
  store.write([&](casa::server::Db&) { ++runs; }, nullptr);
  std::vector<std::promise<bool>> outcomes(3);
  auto queue = [&](int i, const StoredAction& a) {
    store.append_action("t1", a, {}, std::nullopt, [&outcomes, i](bool ok) { outcomes[static_cast<std::size_t>(i)].set_value(ok); });
  };
  queue(0, a_move(2, "c2"));
  queue(1, a_move(2, "duplicate"));  // seq 2 again: the log refuses it
  queue(2, a_move(3, "c3"));
  gate.release.set_value();
  CHECK(outcomes[0].get_future().get());
  CHECK_FALSE(outcomes[1].get_future().get());
  CHECK(outcomes[2].get_future().get());
  CHECK(store.commits() - commits_before == 2);  // the gate's, then the batch's
  CHECK(runs.load() == 2);  // the batch ran again, each job in its savepoint
  CHECK(log_in_store(store, "t1") == std::vector<std::string>{a_move(1, "c1").action, a_move(2, "c2").action,
                                                              a_move(3, "c3").action});
  CHECK(store.healthy() == false);  // a job failed in the last batch
}

TEST_CASE("durability full: a group commit writes the WAL once, whatever pages it changes") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::full);
  for (int t = 0; t < 20; ++t) {
    REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t" + std::to_string(t)), std::move(d)); }));
  }
  // One move on each of 20 tables in one group commit: it changes several
  // pages (each a WAL frame: a header and the page), all written at once
  // before the fsync.
  Gate gate;
  gate.block(store);
  std::atomic<int> acknowledged{0};
  std::promise<void> all_done;
  const auto writes_before = casa::powercut::write_count(FileKind::wal);
  const auto syncs_before = casa::powercut::sync_count(FileKind::wal);
  for (int t = 0; t < 20; ++t) {
    store.append_action("t" + std::to_string(t), a_move(1, "c1"), {}, std::nullopt, [&](bool ok) {
      CHECK(ok);
      if (++acknowledged == 20) all_done.set_value();
    });
  }
  gate.release.set_value();
  all_done.get_future().wait();
  CHECK(casa::powercut::sync_count(FileKind::wal) - syncs_before == 1);
  CHECK(casa::powercut::write_count(FileKind::wal) - writes_before == 1);
  for (int t = 0; t < 20; ++t) CHECK(log_in_store(store, "t" + std::to_string(t)).size() == 1);
  // And in the files, as a fresh process would find them.
  CHECK(log_on_disk(dir.path / "casa.db", "t19").size() == 1);
}

// SQLite's unix VFS writes at most 128 KB - 1 bytes per pwrite and reports a
// write it could not finish as a full disk, so a gathered WAL write must
// reach it in pieces it takes whole. Sizes around and past the 128 KB
// boundary: every move must be acknowledged, none refused.
TEST_CASE("durability full: a group commit larger than 128 KB of WAL is written whole") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::full);
  constexpr int kTables = 40;
  for (int t = 0; t < kTables; ++t) {
    REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t" + std::to_string(t)), std::move(d)); }));
  }
  std::int64_t seq = 1;
  // 40 moves of 5 KB make a WAL write of roughly 50-70 pages (210-290 KB);
  // the other sizes move it across and along the boundary.
  for (const std::size_t payload : {3000u, 3300u, 5000u, 7000u}) {
    Gate gate;
    gate.block(store);
    std::atomic<int> acknowledged{0}, refused{0};
    std::promise<void> all_done;
    const auto writes_before = casa::powercut::write_count(FileKind::wal);
    for (int t = 0; t < kTables; ++t) {
      store.append_action("t" + std::to_string(t), a_move(seq, std::string(payload, 'x')), {}, std::nullopt,
                          [&](bool ok) {
                            if (!ok) ++refused;
                            if (++acknowledged == kTables) all_done.set_value();
                          });
    }
    gate.release.set_value();
    all_done.get_future().wait();
    CAPTURE(payload);
    CHECK(refused.load() == 0);
    CHECK(casa::powercut::write_count(FileKind::wal) - writes_before >= 1);
    ++seq;
  }
  for (int t = 0; t < kTables; ++t) CHECK(log_in_store(store, "t" + std::to_string(t)).size() == 4);
  CHECK(log_on_disk(dir.path / "casa.db", "t39").size() == 4);
}

TEST_CASE("the store holds its database file: no lock taken or released per commit, no second writer") {
  TempDir dir;
  const std::string path = (dir.path / "casa.db").string();
  Store store(path, Durability::full);
  REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t1"), std::move(d)); }));
  REQUIRE(append(store, "t1", a_move(1, "c1")));
  const auto locks_before = casa::powercut::lock_count();
  for (int seq = 2; seq <= 11; ++seq) REQUIRE(append(store, "t1", a_move(seq, card_id(seq))));
  CHECK(store.load_table("t1")->actions.size() == 11);  // reads use the same connection
  CHECK(casa::powercut::lock_count() - locks_before == 0);

  // Another program can neither read nor write the file while the store has it
  // (here Python's sqlite3 module, on the same SQLite library).
  const std::string out = (dir.path / "other.txt").string();
  const std::string command = "python3 -c 'import sqlite3, sys\n"
                              "try:\n"
                              "  sqlite3.connect(sys.argv[1], timeout=0).execute(\"SELECT COUNT(*) FROM actions\").fetchall()\n"
                              "  print(\"read\")\n"
                              "except sqlite3.OperationalError as e:\n"
                              "  print(e)' " +
                              path + " > " + out + " 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream said(out);
  std::string line;
  std::getline(said, line);
  CHECK(line == "database is locked");
}

TEST_CASE("a group commit's outcomes reach each event loop in one post, in commit order, on their strands") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::normal);
  for (int t = 0; t < 4; ++t) {
    REQUIRE(wait_for([&](Store::Done d) { store.save_table(a_table("t" + std::to_string(t)), std::move(d)); }));
  }
  // Two loops that nobody runs yet, two tables' strands on each.
  boost::asio::io_context loop_a, loop_b;
  std::vector<Store::Strand> strands = {boost::asio::make_strand(loop_a), boost::asio::make_strand(loop_a),
                                        boost::asio::make_strand(loop_b), boost::asio::make_strand(loop_b)};
  struct Heard {
    int table;
    std::int64_t seq;
    bool ok;
    bool on_strand;
  };
  std::vector<Heard> heard_a, heard_b;
  Gate gate;
  gate.block(store);
  // Three moves per table, interleaved; table 1's second move repeats seq 1
  // and is refused, alone.
  for (std::int64_t seq = 1; seq <= 3; ++seq) {
    for (int t = 0; t < 4; ++t) {
      const std::int64_t stored_seq = (t == 1 && seq >= 2) ? seq - 1 : seq;
      auto& heard = t < 2 ? heard_a : heard_b;
      auto& strand = strands[static_cast<std::size_t>(t)];
      store.append_action(
          "t" + std::to_string(t), a_move(stored_seq, card_id(static_cast<int>(seq))), {}, std::nullopt,
          [&heard, &strand, t, seq](bool ok) { heard.push_back({t, seq, ok, strand.running_in_this_thread()}); },
          strand);
    }
  }
  auto busy_a = boost::asio::make_work_guard(loop_a);
  auto busy_b = boost::asio::make_work_guard(loop_b);
  gate.release.set_value();

  // One handler per loop carries all six outcomes of that loop (none ran on
  // the store thread: the loops had not run yet).
  CHECK(loop_a.run_one_for(std::chrono::seconds(10)) == 1);
  REQUIRE(heard_a.size() == 6);
  CHECK(loop_a.poll() == 0);
  CHECK(loop_b.run_one_for(std::chrono::seconds(10)) == 1);
  REQUIRE(heard_b.size() == 6);
  CHECK(loop_b.poll() == 0);
  for (std::size_t i = 0; i < 6; ++i) {
    // Commit order: seq by seq, the loop's two tables in turn.
    CHECK(heard_a[i].table == static_cast<int>(i % 2));
    CHECK(heard_a[i].seq == static_cast<std::int64_t>(i / 2 + 1));
    CHECK(heard_a[i].on_strand);
    CHECK(heard_a[i].ok == !(heard_a[i].table == 1 && heard_a[i].seq == 2));
    CHECK(heard_b[i].table == static_cast<int>(2 + i % 2));
    CHECK(heard_b[i].seq == static_cast<std::int64_t>(i / 2 + 1));
    CHECK(heard_b[i].on_strand);
    CHECK(heard_b[i].ok);
  }
  CHECK(log_in_store(store, "t1").size() == 2);
  CHECK(log_in_store(store, "t2").size() == 3);
}

namespace {
// A WAL frame: a 4 KB page and its 24-byte header. (The file begins with a
// 32-byte header.)
constexpr std::uintmax_t kWalFrame = 4096 + 24;

// One job's worth of filler: `rows` rows of 4,000 bytes (about a page each).
void fill(casa::server::Db& db, int rows) {
  const std::string blob(4000, 'x');
  for (int i = 0; i < rows; ++i) db.prepare("INSERT INTO filler (body) VALUES (?)").bind_text(1, blob).run();
}

void create_filler(Store& store) {
  REQUIRE(wait_for([&](Store::Done d) {
    store.write([](casa::server::Db& conn) { conn.exec("CREATE TABLE filler (body TEXT)"); }, std::move(d));
  }));
}

// One commit of `rows` filler rows, waited for.
void commit_fill(Store& store, int rows) {
  REQUIRE(wait_for([&](Store::Done d) { store.write([rows](casa::server::Db& conn) { fill(conn, rows); }, std::move(d)); }));
}

std::int64_t filler_rows(Store& store) {
  std::int64_t rows = 0;
  store.read([&](casa::server::Db& conn) {
    auto& q = conn.prepare("SELECT COUNT(*) FROM filler");
    rows = q.step() ? q.int_at(0) : -1;
    q.run();
  });
  return rows;
}
}  // namespace

TEST_CASE("durability full: a checkpoint runs after the commit that filled the WAL is acknowledged, not inside it") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  Store store(db.string(), Durability::full);
  create_filler(store);
  // Commits of 20 pages, one after the other, past kCheckpointPages. At each
  // one's acknowledgement: the database file's fsyncs and the checkpoints so
  // far. A commit that ran a checkpoint inside it would fsync the database
  // file before its acknowledgement, with no checkpoint of the writer's
  // counted since the previous one.
  // The WAL's length too: it never started over yet, so its file holds it
  // (a 32-byte header, then frames of a 4 KB page and a 24-byte header).
  struct AtAck {
    std::uint64_t db_syncs, checkpoints;
    std::uintmax_t wal_pages;
  };
  const auto wal_pages = [&] { return (fs::file_size(db.string() + "-wal") - 32) / kWalFrame; };
  std::vector<AtAck> acks;
  acks.push_back({casa::powercut::sync_count(FileKind::main_db), store.checkpoints(), wal_pages()});
  constexpr int kCommits = Store::kCheckpointPages / 20 + 10;
  for (int i = 0; i < kCommits; ++i) {
    REQUIRE(wait_for([&](Store::Done d) {
      store.write([](casa::server::Db& conn) { fill(conn, 20); },
                  [&acks, &store, &wal_pages, d = std::move(d)](bool ok) {
                    acks.push_back({casa::powercut::sync_count(FileKind::main_db), store.checkpoints(), wal_pages()});
                    d(ok);
                  });
    }));
  }
  // Until the WAL reached kCheckpointPages nothing fsyncs the database file:
  // a checkpoint starts after the acknowledgement of the commit that filled
  // the WAL, so it can show at the next one's at the earliest.
  int quiet = 0;
  for (std::size_t i = 1; i < acks.size(); ++i) {
    CAPTURE(i);
    CAPTURE(acks[i - 1].wal_pages);
    if (acks[i - 1].wal_pages >= static_cast<std::uintmax_t>(Store::kCheckpointPages)) break;
    CHECK(acks[i].db_syncs == acks.front().db_syncs);
    ++quiet;
  }
  // (The schema fills about 120 pages, and each commit 20 and a few above.)
  CHECK(quiet >= (Store::kCheckpointPages - 200) / 25);
  // Then checkpoints run (here at the latest once the loop above stopped
  // queueing), and every fsync of the database file is one of theirs: each
  // fsyncs the file once or twice (the checkpoint thread's own, and SQLite's
  // when no commit came meanwhile), and no COMMIT ever checkpointed by itself.
  for (int i = 0; i < 6000 && store.checkpoints() == acks.front().checkpoints; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto checkpoints = store.checkpoints() - acks.front().checkpoints;
  const auto db_syncs = casa::powercut::sync_count(FileKind::main_db) - acks.front().db_syncs;
  CHECK(checkpoints >= 1);
  CHECK(db_syncs >= checkpoints);
  CHECK(db_syncs <= 2 * checkpoints);
  // The first one ran beside the commits, on the checkpoint thread.
  CHECK(store.checkpoints_in_background() >= 1);
  // Soon a commit starts the WAL over (once the pages committed during the
  // checkpoint were copied too): from then on it stays at its high-water mark.
  // On a loaded machine the checkpoint thread (SCHED_IDLE) may get no core for
  // a while; then the store thread copies the WAL itself once it holds
  // kCheckpointForcePages pages, and each commit here adds at least 10: the
  // WAL starts over within that many commits in any case.
  int more = 0;
  for (auto wal_size = fs::file_size(db.string() + "-wal");; ++more) {
    REQUIRE(more < Store::kCheckpointForcePages / 10 + 10);
    commit_fill(store, 10);
    const auto now = fs::file_size(db.string() + "-wal");
    if (now == wal_size) break;
    wal_size = now;
  }
  const std::int64_t rows = filler_rows(store);
  CHECK(rows == kCommits * 20 + (more + 1) * 10);
}

TEST_CASE("the WAL limits the store is given set when it checkpoints and how large the WAL grows") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  // A quarter of the defaults' force size: the store thread copies the whole
  // WAL at 400 pages, where the defaults would not even have started (1000).
  const auto limits = casa::server::WalLimits{100};
  REQUIRE(limits.force_pages < Store::kCheckpointPages);
  Store store(db.string(), Durability::full, limits);
  create_filler(store);
  // The schema alone fills about 120 WAL pages, more than checkpoint_pages:
  // its checkpoint runs first, and the next commit starts the WAL over, so
  // that the count below begins with a WAL of a page or two.
  for (int i = 0; i < 6000 && store.checkpoints() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(store.checkpoints() == 1);
  REQUIRE(wait_for([&](Store::Done d) {
    store.write([](casa::server::Db& conn) { conn.exec("INSERT INTO filler (body) VALUES ('')"); }, std::move(d));
  }));
  const auto syncs_before = casa::powercut::sync_count(FileKind::main_db);
  const auto checkpoints_before = store.checkpoints();
  // Commits of 20 pages, one after the other, to about three times the
  // force size: at each acknowledgement, whether the database file was
  // fsync'd yet (only a checkpoint does that) and the WAL's size.
  int first_checkpointed = -1;
  std::uintmax_t largest_wal = 0;
  for (int i = 1; i <= 60; ++i) {
    commit_fill(store, 20);
    largest_wal = std::max(largest_wal, fs::file_size(db.string() + "-wal"));
    if (first_checkpointed < 0 && casa::powercut::sync_count(FileKind::main_db) > syncs_before) first_checkpointed = i;
  }
  // A checkpoint came once the WAL held checkpoint_pages pages (not before
  // the fourth commit: each adds 20 pages and the few b-tree pages above
  // them, fewer than 25), and at the latest at force_pages (a WAL page is
  // 4 KB and a 24-byte header).
  CAPTURE(first_checkpointed);
  CHECK(first_checkpointed >= limits.checkpoint_pages / 25);
  CHECK(first_checkpointed <= limits.force_pages / 20 + 1);
  CHECK(store.checkpoints() - checkpoints_before >= 2);
  // The WAL never grew past force_pages by more than a few commits, while
  // three times that was written.
  CAPTURE(largest_wal);
  CHECK(largest_wal <= kWalFrame * (limits.force_pages + 3 * 25));
  const std::int64_t rows = filler_rows(store);
  CHECK(rows == 60 * 20 + 1);
}

TEST_CASE("commits are acknowledged while a checkpoint copies the WAL, and the WAL then starts over") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  Store store(db.string(), Durability::full);
  create_filler(store);
  // The first fsync of the database file (a checkpoint's last step) waits at
  // this gate until the test opens it.
  std::promise<void> entered, open_gate;
  std::shared_future<void> opened = open_gate.get_future().share();
  std::atomic<bool> first{true};
  casa::powercut::set_sync_gate(FileKind::main_db, [&] {
    if (!first.exchange(false)) return;
    entered.set_value();
    opened.wait();
  });
  struct Ungate {
    ~Ungate() { casa::powercut::set_sync_gate(FileKind::main_db, nullptr); }
  } ungate;
  auto held = entered.get_future();
  int commits = 0;
  while (held.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
    REQUIRE(commits < 10 * Store::kCheckpointPages / 20);
    commit_fill(store, 20);
    ++commits;
  }
  // The checkpoint began once the WAL held kCheckpointPages pages (each
  // commit writes its 20 rows and the b-tree pages above them, so the count
  // of commits says less than the WAL's size: 4 KB pages, each with a header).
  CHECK(fs::file_size(db.string() + "-wal") >= std::uintmax_t{4096} * Store::kCheckpointPages);
  // A checkpoint is held in its fsync: commits go on and are acknowledged.
  const auto checkpoints = store.checkpoints();
  for (int i = 0; i < 5; ++i) {
    std::promise<bool> outcome;
    auto result = outcome.get_future();
    store.write([](casa::server::Db& conn) { fill(conn, 2); }, [&](bool ok) { outcome.set_value(ok); });
    REQUIRE(result.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    CHECK(result.get());
  }
  CHECK(store.checkpoints() == checkpoints);
  CHECK(store.checkpoints_on_store_thread() == 0);
  open_gate.set_value();
  for (int i = 0; i < 500 && store.checkpoints_in_background() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(store.checkpoints_in_background() >= 1);
  // Commits go on. Each round of the checkpoint thread leaves behind the pages
  // committed during it, until few enough are left for the store thread to
  // copy them itself between two commits; the commit after that starts the
  // WAL over (written from its start: the file does not grow).
  int more = 0;
  while (store.checkpoints_on_store_thread() == 0) {
    REQUIRE(more < 2000);
    commit_fill(store, 2);
    ++more;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(store.checkpoints_on_store_thread() == 1);
  const auto wal_size = fs::file_size(db.string() + "-wal");
  commit_fill(store, 2);
  CHECK(fs::file_size(db.string() + "-wal") == wal_size);
  MESSAGE(commits << " commits to start a checkpoint, " << more << " more until the catch-up, "
                  << store.checkpoints_in_background() << " checkpoints on the checkpoint thread");
  const std::int64_t rows = filler_rows(store);
  CHECK(rows == commits * 20 + 5 * 2 + (more + 1) * 2);

  // A power cut now: every commit acknowledged is in what the disk keeps,
  // though the WAL started over after checkpoints copied it from two threads
  // (the checkpoint thread fsyncing the database file itself).
  TempDir copy;
  for (const char* suffix : {"", "-wal", "-undo", "-wal-undo"}) {
    if (fs::exists(db.string() + suffix)) fs::copy_file(db.string() + suffix, copy.path / (std::string("casa.db") + suffix));
  }
  REQUIRE(casa::powercut::power_cut((copy.path / "casa.db").string()) >= 0);
  sqlite3* conn = nullptr;
  REQUIRE(sqlite3_open_v2((copy.path / "casa.db").c_str(), &conn, SQLITE_OPEN_READWRITE, "unix") == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(conn, "SELECT COUNT(*) FROM filler", -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK(sqlite3_column_int64(st, 0) == rows);
  sqlite3_finalize(st);
  sqlite3_close(conn);
}

TEST_CASE("a queue that never empties: the WAL is checkpointed all the same, and stays bounded") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  Store store(db.string(), Durability::normal);
  create_filler(store);
  // Each job queues the next before it ends, so the writer never finds its
  // queue empty between two commits: only the forced checkpoint can run.
  constexpr int kJobs = 5 * Store::kCheckpointForcePages / 16;
  constexpr int kRowsPerJob = 8;
  std::promise<void> finished;
  std::atomic<int> done{0};
  std::uintmax_t wal_max = 0;
  std::function<void(int)> chain = [&](int n) {
    store.write(
        [&, n](casa::server::Db& conn) {
          fill(conn, kRowsPerJob);
          if (fs::exists(db.string() + "-wal")) wal_max = std::max(wal_max, fs::file_size(db.string() + "-wal"));
          if (n + 1 < kJobs) chain(n + 1);
        },
        [&](bool ok) {
          CHECK(ok);
          if (++done == kJobs) finished.set_value();
        });
  };
  const auto checkpoints_before = store.checkpoints();
  chain(0);
  finished.get_future().wait();
  // About kJobs * kRowsPerJob pages written: two and a half times the bound.
  CHECK(store.checkpoints() - checkpoints_before >= 2);
  // A page is 4,096 bytes plus a 24-byte frame header; one job's frames of slack.
  const std::uintmax_t bound = 32 + static_cast<std::uintmax_t>(Store::kCheckpointForcePages + 4 * kRowsPerJob) * kWalFrame;
  CHECK(wal_max <= bound);
  CHECK(fs::file_size(db.string() + "-wal") <= bound);
  MESSAGE("WAL at most " << wal_max << " bytes over " << kJobs * kRowsPerJob << " pages written, "
                         << store.checkpoints() - checkpoints_before << " checkpoints");
}

TEST_CASE("a WAL that grew past keep_pages has its file cut back when it starts over, and its copy's memory given back") {
  TempDir dir;
  const fs::path db = dir.path / "casa.db";
  const fs::path wal = db.string() + "-wal";
  const auto limits = casa::server::WalLimits{100};  // cut back to 800 pages
  std::int64_t rows_written = 0;
  {
    Store store(db.string(), Durability::full, limits);
    create_filler(store);
    // One commit of 2,000 pages: the WAL's file, and its copy, grow to 8 MB.
    commit_fill(store, 2000);
    rows_written += 2000;
    const auto grown = fs::file_size(wal);
    const auto copy_grown = store.wal_copy_bytes();
    CAPTURE(grown);
    CAPTURE(copy_grown);
    CHECK(grown >= 2000 * kWalFrame);
    CHECK(copy_grown >= 2000 * kWalFrame);
    // That WAL is past force_pages: it is checkpointed whole after that
    // commit, and the next commit starts it over and cuts its file back.
    for (int i = 0; i < 40 && fs::file_size(wal) > limits.keep_pages * kWalFrame; ++i) {
      commit_fill(store, 20);
      rows_written += 20;
    }
    const auto cut = fs::file_size(wal);
    const auto copy_cut = store.wal_copy_bytes();
    CAPTURE(cut);
    CAPTURE(copy_cut);
    CHECK(cut <= limits.keep_pages * kWalFrame);
    CHECK(copy_cut <= limits.keep_pages * kWalFrame);
    CHECK(copy_cut > 0);
    // Commits of a normal size after that keep the file within the bound.
    for (int i = 0; i < 60; ++i) {
      commit_fill(store, 20);
      rows_written += 20;
    }
    CHECK(fs::file_size(wal) <= limits.keep_pages * kWalFrame);
    CHECK(store.wal_copy_bytes() <= limits.keep_pages * kWalFrame);
  }
  // Every row acknowledged is there when the file is opened again.
  Store again(db.string(), Durability::full, limits);
  const std::int64_t rows = filler_rows(again);
  CHECK(rows == rows_written);
}

TEST_CASE("durability normal keeps no copy of the WAL") {
  TempDir dir;
  Store store((dir.path / "casa.db").string(), Durability::normal);
  create_filler(store);
  CHECK(store.wal_copy_bytes() == 0);
}
