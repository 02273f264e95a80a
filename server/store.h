// The SQLite store: numbered migrations, players, tables, seats, the action log
// and results. It owns these invariants:
//
//  * Writes run on one store thread, in the order submitted. Whatever is queued
//    when the thread wakes is committed in one transaction (group commit), each
//    job in its own savepoint so one failure spoils only its own job.
//  * A job's `done(true)` runs only after its COMMIT returned: callers tell
//    nobody about an action before that.
//  * Reads use a second, read-only connection (WAL lets them run beside writes),
//    so a full disk or read-only file stops moves but never replays and stats.
//
//  * Durability::full (the default): WAL with synchronous=FULL. COMMIT returns
//    only after the WAL was fsync'd, so a done(true) job survives a power cut
//    or a kernel crash. One fsync per group commit, however many jobs it holds.
//    Durability::normal: synchronous=NORMAL, no fsync on COMMIT: a commit
//    survives the death of the process (kill -9), but every commit since the
//    last checkpoint may be lost on a power cut.
//  * A COMMIT that failed after writing to the WAL (a failed fsync) leaves its
//    outcome in doubt: a restart may find it on disk. Until a later commit
//    lands, which overwrites those WAL frames for good, the store refuses
//    every job and retries that commit by itself; so once a refused job's
//    done(false) ran, the jobs the store accepts next never sit on top of a
//    transaction the server believes did not happen.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace casa::server {

// One SQLite connection with a cache of prepared statements. Errors throw
// std::runtime_error (carrying the SQLite message).
class Db {
 public:
  Db(const std::string& path, bool read_only);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql);

  class Stmt {
   public:
    Stmt& bind(int index, std::int64_t v);
    Stmt& bind(int index, const std::string& v);  // empty string binds NULL
    Stmt& bind_text(int index, const std::string& v);  // always text
    bool step();  // true while a row is ready
    void run();   // steps to the end
    std::int64_t int_at(int col) const;
    std::string text_at(int col) const;  // "" for NULL
    bool null_at(int col) const;
    ~Stmt();

   private:
    friend class Db;
    Stmt(sqlite3* db, sqlite3_stmt* s) : db_(db), s_(s) {}
    sqlite3* db_;
    sqlite3_stmt* s_;
  };
  // A prepared statement, reset and ready to bind. Cached by SQL text.
  Stmt& prepare(const std::string& sql);

  sqlite3* handle() { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::vector<std::pair<std::string, std::unique_ptr<Stmt>>> cache_;
};

struct StoredSeat {
  std::string player_id;  // empty unless a human sits
  std::string bot;        // empty unless a bot sits
  bool left_game = false; // the bot holds the seat of a player who left the started game
};

struct StoredAction {
  std::int64_t seq = 0;
  int seat = 0;
  std::string action;  // JSON
  std::string auto_by;  // "" (the seat chose) | "timer" | "away" | "left"
};

// The end of a round (or hand), stored with the action that ended it.
struct StoredRound {
  std::string scores;   // JSON array: every seat's running total after the round
  std::string summary;  // JSON object: the public round_end / hand_end event
};

struct StoredTable {
  std::string id;
  std::string game;
  int players = 0;
  std::string options = "{}";  // JSON
  std::uint64_t seed = 0;
  bool is_private = false;
  std::string invite;
  std::string creator;
  int move_timeout_seconds = 0;
  int grace_seconds = 60;             // the disconnect policy
  std::string takeover = "robot";     // "robot" | "none"
  // The deal commitment (docs/fair-play.md): the salt (lowercase hex) and the
  // published hash; both empty for tables stored before commitments existed.
  std::string deal_salt;
  std::string deal_commitment;
  std::string status = "waiting";     // waiting | playing | over | closed
  std::string scores;   // JSON, once over
  std::string winners;  // JSON, once over
  std::vector<StoredSeat> seats;
  std::vector<StoredAction> actions;
  std::vector<StoredRound> rounds;  // filled by load_table only
};

struct StoredPlayer {
  std::string id;
  std::string name;
  std::string token_hash;
};

// The end of a game, stored with its last action.
struct StoredResult {
  std::vector<int> scores;
  std::vector<int> winners;
  std::vector<StoredSeat> seats;
};

enum class Durability { full, normal };

class Store {
 public:
  // Opens (creating if needed) the database and applies pending migrations.
  // Throws std::runtime_error when that fails.
  explicit Store(const std::string& path, Durability durability = Durability::full);
  ~Store();

  using Done = std::function<void(bool ok)>;
  using Job = std::function<void(Db&)>;  // throws on failure

  // Queues a write; `done` runs on the store thread after the commit.
  void write(Job job, Done done);

  // ---- writes ----
  void save_player(const StoredPlayer& player, Done done);
  void save_table(const StoredTable& table, Done done);  // row + seats
  void save_seat(const std::string& table, int seat, const StoredSeat& who, Done done);
  void delete_table(const std::string& table, Done done);
  // A dead table the server gave up on: status 'closed', never resumed.
  void close_table(const std::string& table, Done done);
  // The action row, the rounds it ended (numbered after those stored) and,
  // when it ended the game, the result: all in one transaction.
  void append_action(const std::string& table, const StoredAction& action,
                     std::vector<StoredRound> rounds, std::optional<StoredResult> result,
                     Done done);

  // ---- reads (read-only connection; callable from any thread) ----
  std::vector<StoredPlayer> load_players();
  // Every table neither over nor closed, with seats and log.
  std::vector<StoredTable> load_unfinished_tables();
  std::optional<StoredTable> load_table(const std::string& id);
  // Rows of (player_id, name, games, wins), best first; game empty: all games.
  struct Standing {
    std::string player_id, name;
    int games = 0, wins = 0;
  };
  std::vector<Standing> leaderboard(const std::string& game, int limit);

  // False after a write failed, true again after one succeeds.
  bool healthy() const { return healthy_.load(); }
  // Makes the writer refuse every write (SQLite's query_only), as a read-only
  // or full disk would: tests use it to stage storage failures.
  void set_query_only(bool on);
  // Number of transactions committed (tests and figures).
  std::uint64_t commits() const { return commits_.load(); }
  // True while a failed COMMIT may still be found on disk by a restart.
  bool in_doubt() const { return in_doubt_.load(); }

 private:
  void run();
  bool commit_batch(std::deque<std::pair<Job, Done>>& batch, std::vector<bool>& ok);
  void fill_table(Db& db, StoredTable& t);

  std::unique_ptr<Db> writer_;
  std::unique_ptr<Db> reader_;
  std::mutex read_mutex_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<Job, Done>> queue_;
  bool stopping_ = false;
  int query_only_change_ = -1;  // 0 or 1 when a change is asked for
  std::atomic<bool> healthy_{true};
  std::atomic<bool> in_doubt_{false};
  std::atomic<std::uint64_t> commits_{0};
  std::thread thread_;
};

}  // namespace casa::server
