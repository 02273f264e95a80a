// SPDX-License-Identifier: AGPL-3.0-or-later
// The SQLite store: numbered migrations, players, tables, seats, the action log
// and results. It owns these invariants:
//
//  * Writes run on one store thread, in the order submitted. Whatever is queued
//    when the thread wakes is committed in one transaction (group commit). One
//    failing job spoils only itself: the transaction is then rolled back and
//    run again with each job in its own savepoint. So a job may run twice (the
//    first run undone); it writes only through its Db.
//  * A job's `done(true)` runs only after its COMMIT returned: callers tell
//    nobody about an action before that.
//  * Outcomes go back in the order the jobs were queued. A job queued with a
//    strand has its `done` run on that strand; the outcomes of one group
//    commit bound for strands of one io_context are handed over in one post
//    (one wake-up of that loop per batch, not one per job), run there in
//    commit order. They enter the strand when the loop runs that post, so
//    what others post to the strand meanwhile runs first: an owner of a
//    strand that needs its outcomes in order queues all its jobs with it (a
//    table does), rather than posting some outcomes itself. A job queued
//    without a strand has its `done` run on the store thread itself, which
//    never waits for an io_context: a caller may block an I/O thread on such
//    a job (admin.cpp, write_and_wait).
//  * SQLite: the process holds the database file for itself (SQLite's
//    unix-excl VFS: one exclusive lock taken at the first access, the WAL
//    index in memory, no lock taken or released per transaction; a second
//    server on the same file is refused). Two connections use it: the
//    writer's, and the checkpointer's (below). Reads run on the writer's,
//    between two group commits, from any thread: they see exactly what was
//    committed, and a full disk or a read-only file stops moves but never
//    replays and stats. An online backup (backup(), and `casa-server backup`
//    through the socket beside the file, server/store/backup.h) copies through it
//    as well.
//    PostgreSQL: reads use a second connection, beside the writer's.
//
//  * Durability::full (the default): WAL with synchronous=FULL. COMMIT returns
//    only after the WAL was fsync'd, so a done(true) job survives a power cut
//    or a kernel crash. One fsync per group commit, however many jobs it holds.
//    Durability::normal: synchronous=NORMAL, no fsync on COMMIT: a commit
//    survives the death of the process (kill -9), but every commit since the
//    last checkpoint may be lost on a power cut.
//  * SQLite: checkpoints (copying the WAL's pages into the database file,
//    which fsyncs that file in either setting) never run inside a COMMIT, so
//    they hold up no job of the batch being committed. Once the WAL holds
//    WalLimits::checkpoint_pages, the checkpoint thread copies it at the lowest
//    CPU priority while group commits go on beside it. The WAL starts over at
//    a commit that finds all of it copied, so the few pages committed during
//    that copy (at most catch_up_pages) are copied by the store thread between
//    two commits: a short hold instead of a whole checkpoint's. When the
//    checkpoint thread falls behind and the WAL reaches force_pages,
//    the store thread copies it all between two commits, so the WAL stays
//    below about that size (each page 4 KB), whatever the load.
//  * A COMMIT that failed after writing to the WAL (a failed fsync) leaves its
//    outcome in doubt: a restart may find it on disk. Until a later commit
//    lands, which overwrites those WAL frames for good, the store refuses
//    every job and retries that commit by itself; so once a refused job's
//    done(false) ran, the jobs the store accepts next never sit on top of a
//    transaction the server believes did not happen.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

struct sqlite3;

namespace casa::server {

// One database connection with a cache of prepared statements: SQLite (a file
// path) or PostgreSQL (a postgres:// or postgresql:// URL, server/store/store_pg.cpp).
// The same SQL runs on both: `?` and `?N` placeholders, ON CONFLICT upserts,
// no dialect-only functions. Errors throw std::runtime_error (carrying the
// database's message).
class Db {
 public:
  // Opens `where`: a PostgreSQL URL, else a SQLite file path (through the
  // SQLite VFS named `sqlite_vfs`, null for the default one).
  Db(const std::string& where, bool read_only, const char* sqlite_vfs = nullptr);
  static std::unique_ptr<Db> open(const std::string& where, bool read_only) {
    return std::make_unique<Db>(where, read_only);
  }
  static bool is_postgres_url(const std::string& where);
  // `where` fit for a log line: a URL's password replaced by ***.
  static std::string redacted(const std::string& where);

  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql);

  class Stmt {
   public:
    virtual ~Stmt() = default;
    virtual Stmt& bind(int index, std::int64_t v) = 0;
    virtual Stmt& bind(int index, const std::string& v) = 0;  // empty string binds NULL
    virtual Stmt& bind_text(int index, const std::string& v) = 0;  // always text
    virtual Stmt& bind_real(int index, double v) = 0;  // stored as the exact 8-byte double
    virtual bool step() = 0;  // true while a row is ready
    virtual void run() = 0;   // steps to the end
    virtual std::int64_t int_at(int col) const = 0;  // booleans read as 0 / 1
    virtual std::string text_at(int col) const = 0;  // "" for NULL
    virtual double real_at(int col) const = 0;
    virtual bool null_at(int col) const = 0;
    // Ready for new bindings (all NULL); Db::prepare calls it.
    virtual void reset() = 0;

   protected:
    Stmt() = default;
  };
  // A prepared statement, reset and ready to bind. Cached by SQL text.
  Stmt& prepare(const std::string& sql);
  // The same for a string literal (or any text in static storage that never
  // changes), found again by its address: no string built or compared.
  Stmt& prepare(const char* sql);

  // True for PostgreSQL: the few places that differ (opening, the migrations'
  // dialect, transactions) ask.
  bool postgres() const { return backend_->postgres(); }
  // The SQLite handle, null on PostgreSQL.
  sqlite3* handle() { return backend_->handle(); }
  // True once the connection to the database server was lost (PostgreSQL).
  bool broken() const { return backend_->broken(); }
  // Outside a transaction: connects again when broken(). False while the
  // database server cannot be reached. Statements prepared before stay valid.
  bool recover() { return backend_->recover(); }

  // One kind of connection (server/store/store.cpp: SQLite; server/store/store_pg.cpp:
  // PostgreSQL).
  class Backend {
   public:
    virtual ~Backend() = default;
    virtual void exec(const std::string& sql) = 0;
    virtual std::unique_ptr<Stmt> compile(const std::string& sql) = 0;
    virtual bool postgres() const { return false; }
    virtual sqlite3* handle() { return nullptr; }
    virtual bool broken() const { return false; }
    virtual bool recover() { return true; }
  };

 private:
  struct Cached {
    std::string text;
    const char* literal;  // the address it was last asked for by, if a literal
    std::unique_ptr<Stmt> stmt;
  };
  Cached* cache_by_text(const std::string& sql);
  Stmt& ready(Cached& entry);

  std::unique_ptr<Backend> backend_;
  std::vector<Cached> cache_;  // after backend_: its statements go first
};

// The connections behind Db for a file path and for a URL (server/store/store_pg.cpp).
std::unique_ptr<Db::Backend> open_sqlite(const std::string& path, bool read_only, const char* vfs = nullptr);
std::unique_ptr<Db::Backend> open_postgres(const std::string& url, bool read_only);

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

// One chat line of a table (migrations/0004_chat.sql).
struct StoredChat {
  std::int64_t line = 0;  // 1, 2, ... per table; set by the store
  std::string player_id;
  int seat = -1;      // the speaker's seat, -1 for a spectator
  bool team = false;  // only to the team holding `seat`
  std::string text;
};

// The running move deadline of a correspondence table (move_clocks).
struct StoredClock {
  std::int64_t seq = 0;            // the decision: the table's seq when it was asked
  std::vector<int> seats;          // whose decision
  std::int64_t deadline_ms = 0;    // unix milliseconds
  std::vector<int> timed_out;      // seats the policy's bot plays since their time ran out
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
  std::string takeover = "robot";     // "robot" | "strong" | "none" | "forfeit"
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
  std::optional<bool> rated;  // unset: rated when every seat holds a person
  std::vector<StoredChat> chat;     // the last kChatKept lines, oldest first
  std::int64_t finished_at = 0;     // unix seconds, once over or closed
  // A correspondence table (migrations/0013_correspondence.sql) and its stored
  // move clock, if one was running.
  bool correspondence = false;
  std::optional<StoredClock> clock;
};

// How many of a table's latest chat lines are loaded with it.
constexpr std::size_t kChatKept = 100;

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
  // The sides as the engine's view tells them ([[0,2],[1,3]]); ratings need them.
  std::vector<std::vector<int>> teams;
};

// A player's standing in one game (docs/ratings.md).
struct StoredRating {
  std::string player;  // a player id, or bot:<kind>
  std::string name;    // the display name (with #k when the name was taken before)
  std::string game;
  double rating = 0, deviation = 0, volatility = 0;
  int games = 0;
};

// La Casa Solo against the Robot, per player.
struct SoloRecord {
  std::string player, name;  // set on the solo board, empty in a profile
  std::string game;
  int games = 0, wins = 0, best_score = 0;
};

// A finished game in a player's history: public facts only.
struct PlayedGame {
  std::string table_id, game;
  int players = 0, seat = 0, score = 0;
  bool winner = false, rated = false;
  double rating_before = 0, rating_after = 0;  // when rated
  std::int64_t finished_at = 0;
};

struct PlayerProfile {
  std::string id, name;
  std::vector<StoredRating> ratings;
  std::vector<SoloRecord> solo;
  std::vector<PlayedGame> recent;
};

// Inside the transaction that stored a finished game's result (and its row in
// finished_games): updates the ratings of its players when the game is rated
// (server/store/store_ratings.cpp). The rebuild calls it for every game in order.
void rate_finished_game(Db& db, const std::string& table);

// SQL expression for a player's display name (players aliased p): the name,
// with "#k" when k - 1 players chose the same name before, so that two "ann"
// never merge on a leaderboard.
extern const char* const kPlayerDisplayName;

enum class Durability { full, normal };

// SQLite: when the WAL is copied into the database file (see the invariants
// above). A larger WAL means fewer checkpoints: each copies a page once
// however many commits changed it, and holds the commits less often. It
// costs disk (4 KB a page), memory (with Durability::full the WAL's bytes are
// kept for the checkpoints to read, up to 64 MiB) and a longer read of the
// WAL when the server starts after a crash. WalLimits{pages} sets
// checkpoint_pages; the others follow from it.
struct WalLimits {
  // The checkpoint thread copies the WAL from this size on.
  int checkpoint_pages = 1000;
  // At most this many pages are copied by the store thread, commits held.
  int catch_up_pages = std::max(1, checkpoint_pages / 5);
  // The store thread copies the whole WAL from this size on.
  int force_pages = checkpoint_pages * 4;
  // SQLite writes a WAL that started over from the start of its file, which
  // then keeps its largest size (an fsync costs less in a file that does not
  // grow). A WAL that grew past this size (one very large commit, or
  // checkpoints that failed while the disk was full) has its file cut back to
  // it when it starts over, and the memory kept for it is given back.
  int keep_pages = force_pages * 2;
};

class Store {
 public:
  // Opens (creating if needed) the database and applies pending migrations.
  // Throws std::runtime_error when that fails.
  explicit Store(const std::string& path, Durability durability = Durability::full, WalLimits wal = {});
  ~Store();

  using Done = std::function<void(bool ok)>;
  using Job = std::function<void(Db&)>;  // throws on failure
  // Where a write's outcome is delivered (see the invariants above).
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

  // Queues a write; `done` runs after the commit: on the store thread, or on
  // `on` when given.
  void write(Job job, Done done, std::optional<Strand> on = std::nullopt);

  // ---- writes (`on`: where `done` runs, as for write()) ----
  void save_player(const StoredPlayer& player, Done done);
  void save_table(const StoredTable& table, Done done, std::optional<Strand> on = std::nullopt);  // row + seats
  void save_seat(const std::string& table, int seat, const StoredSeat& who, Done done,
                 std::optional<Strand> on = std::nullopt);
  void delete_table(const std::string& table, Done done);
  // A correspondence table's move clock (replaces the one stored before).
  void save_clock(const std::string& table, const StoredClock& clock, Done done,
                  std::optional<Strand> on = std::nullopt);
  // A dead table the server gave up on: status 'closed', never resumed.
  void close_table(const std::string& table, Done done);
  // The action row, the rounds it ended (numbered after those stored) and,
  // when it ended the game, the result: all in one transaction.
  void append_action(const std::string& table, const StoredAction& action,
                     std::vector<StoredRound> rounds, std::optional<StoredResult> result,
                     Done done, std::optional<Strand> on = std::nullopt);
  // A chat line, numbered after the table's last one. `done(ok, line)` gets
  // the number it was stored under.
  void append_chat(const std::string& table, const StoredChat& chat,
                   std::function<void(bool ok, std::int64_t line)> done,
                   std::optional<Strand> on = std::nullopt);

  // ---- reads (callable from any thread; see the invariants above) ----
  std::vector<StoredPlayer> load_players();
  // Every table neither over nor closed, and every game that ended (over, not
  // closed) at or after `finished_since` (unix seconds), with seats, log and
  // recent chat.
  std::vector<StoredTable> load_live_tables(std::int64_t finished_since);
  std::optional<StoredTable> load_table(const std::string& id);
  // Rows of (player_id, name, games, wins), best first; game empty: all games.
  struct Standing {
    std::string player_id, name;
    int games = 0, wins = 0;
  };
  std::vector<Standing> leaderboard(const std::string& game, int limit);
  // Runs `query` on the connection reads use (for stores of other features,
  // such as duplicate events, that keep their SQL beside their logic). It
  // must only read.
  void read(const std::function<void(Db&)>& query);

  // SQLite: copies the database, as of the end of the copy, into the new file
  // `out` (server/store/backup.h: checked, then renamed), through the store's own
  // connection, a few pages at a time between group commits. Returns an
  // error sentence, or nullopt.
  std::optional<std::string> backup(const std::string& out);

  // ---- ratings (server/store/store_ratings.cpp, docs/ratings.md) ----
  // Ratings in one game, best first, with bots' ratings too.
  std::vector<StoredRating> rating_board(const std::string& game, int limit);
  // Solo records in one game (La Casa Solo), most wins first.
  std::vector<SoloRecord> solo_board(const std::string& game, int limit);
  // Null when no such player (a person's id, or bot:<kind>).
  std::optional<PlayerProfile> player_profile(const std::string& id, int recent);
  // Every rating recomputed from the stored results, in the order the games
  // ended, in one transaction. Returns the number of rated games, or -1 when
  // the store refused the write.
  int rebuild_ratings();

  // Cluster mode (docs/cluster.md): `fence(db, table)` runs first in every job
  // that writes a table's rows (the table, its seats, actions, chat, status) and
  // throws when this node may no longer write that table, which refuses the job
  // alone; else it returns the lease epoch it checked. Every action row records
  // `node` and that epoch (actions.node_id, actions.lease_epoch); without a
  // fence both stay NULL. Set once, before the first write.
  using Fence = std::function<std::int64_t(Db&, const std::string& table)>;
  void set_fence(std::string node, Fence fence) {
    fence_node_ = std::move(node);
    fence_ = std::move(fence);
  }

  // False after a write failed, true again after one succeeds.
  bool healthy() const { return healthy_.load(); }
  // Makes the writer refuse every write (SQLite's query_only), as a read-only
  // or full disk would: tests use it to stage storage failures.
  void set_query_only(bool on);
  // The clock the store stamps rows with (unix seconds).
  static std::int64_t now();
  // Number of transactions committed (tests and figures).
  std::uint64_t commits() const { return commits_.load(); }
  // Number of checkpoints that copied the whole WAL into the database file
  // (SQLite; tests and figures).
  std::uint64_t checkpoints() const { return checkpoints_.load(); }
  // Checkpoints copied by the store thread between two commits (commits
  // held meanwhile) and by the checkpoint thread beside the commits.
  std::uint64_t checkpoints_on_store_thread() const { return checkpoints_on_store_thread_.load(); }
  std::uint64_t checkpoints_in_background() const { return checkpoints_in_background_.load(); }
  // SQLite with Durability::full: the memory held by the copy of the WAL that
  // checkpoints read (at most the WAL's file, or 64 MiB); 0 otherwise.
  std::size_t wal_copy_bytes() const;
  // SQLite: the default WalLimits: the WAL size (in pages) at which the
  // checkpoint thread copies it; the most pages committed meanwhile that the
  // store thread then copies itself; and the size at which the store thread
  // copies the whole WAL.
  static constexpr int kCheckpointPages = WalLimits{}.checkpoint_pages;
  static constexpr int kCatchUpPages = WalLimits{}.catch_up_pages;
  static constexpr int kCheckpointForcePages = WalLimits{}.force_pages;
  // SQLite: moves are appended to action_log and folded into
  // actions_by_table, a table's moves together, once the log holds this many
  // (migrations/0016_action_log.sql); the view `actions` reads both.
  static constexpr std::int64_t kFoldRows = 8192;
  // SQLite: a group commit of at least this many jobs appends its moves to
  // action_log; a smaller one writes them to actions_by_table. Moves left in
  // the log are folded once the store has been idle for kFoldIdle (a failed
  // fold is not tried again when idle before kFoldRetry).
  static constexpr std::size_t kLogBatch = 16;
  static constexpr std::chrono::milliseconds kFoldIdle{1000};
  static constexpr std::chrono::seconds kFoldRetry{30};
  // SQLite: the store thread's nice value (see run()).
  static constexpr int kStoreNice = 10;
  // Number of folds done (tests and figures).
  std::uint64_t folds() const { return folds_.load(); }
  // True while a failed COMMIT may still be found on disk by a restart.
  bool in_doubt() const { return in_doubt_.load(); }
  // Writes waiting for the next group commit (/metrics).
  std::size_t queue_depth();

 private:
  // A queued write.
  struct Pending {
    Job job;
    Done done;
    std::optional<Strand> on;
  };
  using Batch = std::deque<Pending>;
  void run();
  bool commit_batch(Batch& batch, std::vector<bool>& ok);
  // Runs or hands over the outcome of every job of `batch` (ok[i] for job i),
  // in order: see the invariants above.
  void deliver(Batch& batch, const std::vector<bool>& ok);
  void settle_doubt();  // inside a transaction: see in_doubt()
  // SQLite, between group commits: starts, or runs, a checkpoint when the WAL
  // is long enough (see the invariants above).
  void maybe_checkpoint();
  // The checkpoint thread's loop.
  void run_checkpoints();
  // One PASSIVE checkpoint on checkpointer_; the WAL pages it copied, 0 when
  // it failed.
  int checkpoint(bool on_store_thread);
  void checkpoint_here();  // one on the store thread, counted
  void migrate();
  void begin();  // BEGIN, and what each backend does first in a transaction
  // PostgreSQL: waits until the server tells whether transaction `xid`, whose
  // COMMIT lost its connection, committed.
  bool resolve_commit(std::int64_t xid);
  void fill_table(Db& db, StoredTable& t);
  // SQLite, in a job: refuses (throws) an action whose seq is not the one
  // after its table's last, and notes it for when the transaction commits.
  void expect_next_seq(Db& db, const std::string& table, std::int64_t seq);
  // SQLite, in a job: the table's moves are over (finished or deleted).
  void forget_seq(const std::string& table);
  // SQLite, on the store thread outside a transaction: moves action_log into
  // actions_by_table in one transaction. False when it failed (nothing moved).
  bool fold_action_log();

  // The lease epoch the write runs under; nullopt without a fence.
  std::optional<std::int64_t> fence(Db& db, const std::string& table) const {
    if (!fence_) return std::nullopt;
    return fence_(db, table);
  }
  Fence fence_;
  std::string fence_node_;  // this node's id in the cluster, with fence_

  std::unique_ptr<Db> writer_;
  bool postgres_ = false;
  bool query_only_ = false;  // the writer refuses writes (set_query_only)
  std::int64_t xid_ = 0;     // PostgreSQL: the id of the open transaction
  // SQLite: held while the store thread uses writer_ (a group commit) and by
  // every read and backup step, which use writer_ too.
  std::mutex conn_mutex_;
  std::unique_ptr<Db> reader_;  // PostgreSQL only
  std::mutex read_mutex_;
  // A read's connection, held until the Reading goes.
  struct Reading {
    std::unique_lock<std::mutex> lock;
    Db& db;
  };
  Reading reading();
  // SQLite: answers `casa-server backup` on the socket beside the database
  // (server/store/backup.h); -1 when not listening.
  void serve_backups();
  std::string backup_socket_;
  int backup_listener_ = -1;
  std::thread backup_thread_;

  std::mutex mutex_;
  std::condition_variable wake_;
  Batch queue_;
  // When the first job of queue_ was queued: a batch's commit latency (/metrics).
  std::chrono::steady_clock::time_point first_queued_{};
  bool stopping_ = false;
  int query_only_change_ = -1;  // 0 or 1 when a change is asked for
  std::atomic<bool> healthy_{true};
  std::atomic<bool> in_doubt_{false};
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<std::uint64_t> checkpoints_{0};
  // SQLite: pages in the WAL after the last commit (its wal hook), counted
  // up each time the WAL starts over, and the length at which the next
  // checkpoint is tried (pushed further after one that failed, so a failing
  // disk is not retried after every batch).
  std::atomic<int> wal_pages_{0};
  std::atomic<int> wal_generation_{0};
  std::atomic<int> checkpoint_retry_at_{0};
  const WalLimits wal_limits_;
  std::atomic<std::uint64_t> checkpoints_on_store_thread_{0};
  std::atomic<std::uint64_t> checkpoints_in_background_{0};
  // SQLite, store thread only: each table's last stored seq, as far as this
  // process knows (a table not here is looked up), what the open transaction
  // changes in it (-1: forget the table), the rows in action_log, and the
  // count at which the next fold is tried.
  std::unordered_map<std::string, std::int64_t> last_seq_;
  std::unordered_map<std::string, std::int64_t> seq_changes_;
  std::int64_t log_rows_ = 0;
  std::int64_t log_rows_pending_ = 0;
  std::int64_t fold_at_ = kFoldRows;
  bool append_to_log_ = false;  // the batch being committed appends to the log
  std::chrono::steady_clock::time_point next_idle_fold_{};
  std::atomic<std::uint64_t> folds_{0};
  const char* synchronous_ = "";  // the writer's PRAGMA, for the checkpointer
  std::string wal_file_;          // SQLite: the WAL's path, as the VFS is given it
  std::thread thread_;

  // SQLite: the checkpointer's connection, used by one checkpoint at a time
  // (checkpoint_mutex_), and the checkpoint thread with what it was asked.
  std::unique_ptr<Db> checkpointer_;
  std::mutex checkpoint_mutex_;
  std::mutex checkpoint_wake_mutex_;
  std::condition_variable checkpoint_wake_;
  bool checkpoint_wanted_ = false;
  bool checkpoint_running_ = false;
  bool checkpoint_stopping_ = false;
  int background_copied_ = 0;      // pages the last background checkpoint copied,
  int background_generation_ = -1; // of the WAL of this generation
  std::thread checkpoint_thread_;
};

}  // namespace casa::server
