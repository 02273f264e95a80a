// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/store.h"

#include "server/store/backup.h"
#include "server/store/clock_rows.h"
#include "server/ops/metrics.h"

#include <sqlite3.h>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace casa::server {

// Generated from migrations/*.sql (see server/CMakeLists.txt).
struct Migration {
  int version;
  const char* name;
  const char* sql;
};
const std::vector<Migration>& embedded_migrations();
const std::vector<Migration>& embedded_postgres_migrations();

namespace {

std::int64_t now_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

// How often a store in doubt retries, with nothing queued, the commit that
// settles the doubt (SQLite), or asks a PostgreSQL server that came back how a
// COMMIT in doubt ended.
constexpr auto kDoubtRetry = std::chrono::milliseconds(200);

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw std::runtime_error(what + ": " + (db ? sqlite3_errmsg(db) : "no database"));
}

}  // namespace

// ---- Db ---------------------------------------------------------------------

bool Db::is_postgres_url(const std::string& where) {
  return where.rfind("postgres://", 0) == 0 || where.rfind("postgresql://", 0) == 0;
}

Db::Db(const std::string& where, bool read_only, const char* sqlite_vfs)
    : backend_(is_postgres_url(where) ? open_postgres(where, read_only) : open_sqlite(where, read_only, sqlite_vfs)) {}

Db::~Db() = default;

void Db::exec(const std::string& sql) { backend_->exec(sql); }

Db::Stmt& Db::prepare(const char* sql) {
  // The statements of the commit path and of the jobs are string literals:
  // found by address, with no string built or compared.
  for (auto& entry : cache_) {
    if (entry.literal == sql) return ready(entry);
  }
  auto& stmt = prepare(std::string(sql));
  cache_by_text(sql)->literal = sql;
  return stmt;
}

Db::Stmt& Db::prepare(const std::string& sql) {
  if (auto* entry = cache_by_text(sql)) return ready(*entry);
  cache_.push_back({sql, nullptr, backend_->compile(sql)});
  return *cache_.back().stmt;
}

Db::Cached* Db::cache_by_text(const std::string& sql) {
  for (auto& entry : cache_) {
    if (entry.text == sql) return &entry;
  }
  return nullptr;
}

Db::Stmt& Db::ready(Cached& entry) {
  entry.stmt->reset();
  return *entry.stmt;
}

namespace {

class SqliteDb final : public Db::Backend {
 public:
  SqliteDb(const std::string& path, bool read_only, const char* vfs) {
    const int flags =
        read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    // A new database is readable by the server's user alone: it holds every
    // running game's seed. SQLite gives its -wal and -shm files the mode of the
    // database file, so they are 0600 too. (An existing file keeps its mode.)
    if (!read_only && path != ":memory:" && path.rfind("file:", 0) != 0) {
      const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd >= 0) ::close(fd);
    }
    if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, vfs) != SQLITE_OK) {
      const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw std::runtime_error("cannot open database " + path + ": " + msg);
    }
    sqlite3_busy_timeout(db_, 5000);
  }
  ~SqliteDb() override { sqlite3_close(db_); }

  void exec(const std::string& sql) override {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "unknown error";
      sqlite3_free(err);
      throw std::runtime_error("sql failed: " + msg);
    }
  }

  sqlite3* handle() override { return db_; }

 private:
  using Stmt = Db::Stmt;
  class SqliteStmt final : public Stmt {
   public:
    SqliteStmt(sqlite3* db, sqlite3_stmt* s) : db_(db), s_(s) {}
    ~SqliteStmt() override { sqlite3_finalize(s_); }

    Stmt& bind(int index, std::int64_t v) override {
      sqlite3_bind_int64(s_, index, v);
      return *this;
    }
    Stmt& bind(int index, const std::string& v) override {
      if (v.empty()) {
        sqlite3_bind_null(s_, index);
      } else {
        sqlite3_bind_text(s_, index, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
      }
      return *this;
    }
    Stmt& bind_text(int index, const std::string& v) override {
      sqlite3_bind_text(s_, index, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
      return *this;
    }
    Stmt& bind_real(int index, double v) override {
      sqlite3_bind_double(s_, index, v);
      return *this;
    }
    bool step() override {
      const int rc = sqlite3_step(s_);
      if (rc == SQLITE_ROW) return true;
      if (rc == SQLITE_DONE) return false;
      const std::string msg = sqlite3_errmsg(db_);
      sqlite3_reset(s_);
      throw std::runtime_error("sql step failed: " + msg);
    }
    void run() override {
      while (step()) {
      }
      sqlite3_reset(s_);
    }
    std::int64_t int_at(int col) const override { return sqlite3_column_int64(s_, col); }
    std::string text_at(int col) const override {
      const auto* p = sqlite3_column_text(s_, col);
      return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
    }
    double real_at(int col) const override { return sqlite3_column_double(s_, col); }
    bool null_at(int col) const override { return sqlite3_column_type(s_, col) == SQLITE_NULL; }

    void reset() override {
      // A statement run to its end must still be reset before it takes
      // bindings; only one with parameters needs them cleared.
      sqlite3_reset(s_);
      if (sqlite3_bind_parameter_count(s_) > 0) sqlite3_clear_bindings(s_);
    }

   private:
    sqlite3* db_;
    sqlite3_stmt* s_;
  };

 public:
  std::unique_ptr<Stmt> compile(const std::string& sql) override {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr) !=
        SQLITE_OK) {
      fail(db_, "prepare " + sql);
    }
    return std::make_unique<SqliteStmt>(db_, s);
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Db::Backend> open_sqlite(const std::string& path, bool read_only, const char* vfs) {
  return std::make_unique<SqliteDb>(path, read_only, vfs);
}

// ---- WAL writes gathered until the commit's fsync ---------------------------
//
// SQLite appends a commit to the WAL one frame at a time, and each frame in
// two writes (its 24-byte header, then the page): a commit of n pages costs 2n
// pwrite calls. A commit's frames are contiguous, and with synchronous=FULL
// every commit ends with an fsync of the WAL. This VFS, stacked on the one
// SQLite would use, keeps the WAL's contiguous writes in memory and hands them
// to the file just before that fsync (or before anything that reads, sizes or
// truncates the WAL, or a write elsewhere in it), so a commit costs one pwrite
// per 124 KiB it writes. Nothing is acknowledged before the fsync returns, which
// comes after the write, so durability is the same. Only for
// synchronous=FULL: with NORMAL a commit ends without an fsync, and gathered
// bytes would be lost with the process.
//
// It also keeps a copy of the bytes it wrote to the WAL since the WAL last
// started over (up to kMirrorMax), shared by every connection of the process
// on that file: a checkpoint reads each page it copies from the WAL, and
// those reads are served from memory instead of a pread each.

namespace {

// What this process wrote to one WAL file: the bytes [at, at + size()) of
// the file, as the last successful writes left them.
struct WalMirror {
  std::mutex mutex;
  std::vector<char> bytes;
  sqlite3_int64 at = 0;
  int users = 0;
};
constexpr std::size_t kMirrorMax = 64 << 20;

std::mutex mirrors_mutex;
std::map<std::string, WalMirror*>& mirrors() {
  static std::map<std::string, WalMirror*> by_path;
  return by_path;
}

WalMirror* open_mirror(const std::string& path) {
  std::lock_guard lock(mirrors_mutex);
  auto& m = mirrors()[path];
  if (!m) m = new WalMirror();
  ++m->users;
  return m;
}

void close_mirror(const std::string& path, WalMirror* m) {
  std::lock_guard lock(mirrors_mutex);
  if (--m->users > 0) return;
  mirrors().erase(path);
  delete m;
}

// After `n` bytes at `off` reached the file.
void mirror_write(WalMirror* m, const char* data, std::size_t n, sqlite3_int64 off) {
  std::lock_guard lock(m->mutex);
  const sqlite3_int64 end = m->at + static_cast<sqlite3_int64>(m->bytes.size());
  if (off < m->at || off > end || static_cast<std::size_t>(off - m->at) + n > kMirrorMax) {
    // Not next to what is kept (the WAL starting over at its header, or a
    // WAL larger than kept): keep from here on.
    m->bytes.clear();
    m->at = off;
    if (n > kMirrorMax) return;
  }
  // Overwrites what it covers of the bytes kept, appends the rest: a WAL
  // grows at its end, and appending copies each byte once (resizing first
  // would zero the new bytes before copying over them).
  const auto from = static_cast<std::size_t>(off - m->at);
  const std::size_t over = std::min(n, m->bytes.size() - from);
  if (over > 0) std::memcpy(m->bytes.data() + from, data, over);
  m->bytes.insert(m->bytes.end(), data + over, data + n);
}

void mirror_forget(WalMirror* m) {
  std::lock_guard lock(m->mutex);
  m->bytes.clear();
  m->at = 0;
}

// The WAL cut back (WalLimits::keep_pages): the memory of the bytes cut off
// is given back, not only their length.
void mirror_truncate(WalMirror* m, sqlite3_int64 size) {
  std::lock_guard lock(m->mutex);
  if (size <= m->at) {
    std::vector<char>().swap(m->bytes);
    m->at = 0;
  } else if (size < m->at + static_cast<sqlite3_int64>(m->bytes.size())) {
    std::vector<char> kept(m->bytes.begin(), m->bytes.begin() + (size - m->at));
    m->bytes.swap(kept);
  }
}

std::size_t mirror_capacity(const std::string& path) {
  std::lock_guard lock(mirrors_mutex);
  const auto found = mirrors().find(path);
  if (found == mirrors().end()) return 0;
  std::lock_guard hold(found->second->mutex);
  return found->second->bytes.capacity();
}

bool mirror_read(WalMirror* m, void* buf, int amt, sqlite3_int64 off) {
  std::lock_guard lock(m->mutex);
  if (off < m->at || off + amt > m->at + static_cast<sqlite3_int64>(m->bytes.size())) return false;
  std::memcpy(buf, m->bytes.data() + (off - m->at), static_cast<std::size_t>(amt));
  return true;
}

struct GatherFile {
  sqlite3_file base;
  sqlite3_file* real;         // the parent VFS's file, right after this struct
  std::string* pending;       // the WAL's gathered bytes; null for other files
  sqlite3_int64 pending_at;   // where they go
  WalMirror* mirror;          // the WAL's copy; null for other files
  std::string* path;          // with mirror
};

constexpr std::size_t kGatherMax = 4 << 20;  // a larger commit is written in pieces

GatherFile* gather_file(sqlite3_file* f) { return reinterpret_cast<GatherFile*>(f); }
const sqlite3_io_methods* real_methods(sqlite3_file* f) { return gather_file(f)->real->pMethods; }

// SQLite's unix VFS hands at most 128 KiB - 1 bytes to one pwrite (it masks the
// length to 17 bits) and takes a write it could not finish for a full disk:
// larger gathered writes reach it in pieces it writes whole.
constexpr std::size_t kWritePiece = (128 << 10) - (4 << 10);

int gather_flush(GatherFile* f) {
  if (!f->pending || f->pending->empty()) return SQLITE_OK;
  int rc = SQLITE_OK;
  for (std::size_t at = 0; at < f->pending->size() && rc == SQLITE_OK; at += kWritePiece) {
    const std::size_t n = std::min(kWritePiece, f->pending->size() - at);
    const sqlite3_int64 off = f->pending_at + static_cast<sqlite3_int64>(at);
    rc = f->real->pMethods->xWrite(f->real, f->pending->data() + at, static_cast<int>(n), off);
    if (rc == SQLITE_OK) mirror_write(f->mirror, f->pending->data() + at, n, off);
  }
  // A failed write leaves the file's bytes unknown: they are read from it.
  if (rc != SQLITE_OK) mirror_forget(f->mirror);
  f->pending->clear();
  return rc;
}

int gather_close(sqlite3_file* pf) {
  auto* f = gather_file(pf);
  int rc = gather_flush(f);
  const int closed = f->real->pMethods->xClose(f->real);
  if (rc == SQLITE_OK) rc = closed;
  delete f->pending;
  f->pending = nullptr;
  if (f->mirror) close_mirror(*f->path, f->mirror);
  delete f->path;
  f->mirror = nullptr;
  f->path = nullptr;
  return rc;
}
int gather_read(sqlite3_file* pf, void* buf, int amt, sqlite3_int64 off) {
  auto* f = gather_file(pf);
  if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  if (f->mirror && mirror_read(f->mirror, buf, amt, off)) return SQLITE_OK;
  return f->real->pMethods->xRead(f->real, buf, amt, off);
}
int gather_write(sqlite3_file* pf, const void* buf, int amt, sqlite3_int64 off) {
  auto* f = gather_file(pf);
  if (!f->pending) return f->real->pMethods->xWrite(f->real, buf, amt, off);
  auto& p = *f->pending;
  if (!p.empty() && (off != f->pending_at + static_cast<sqlite3_int64>(p.size()) || p.size() >= kGatherMax)) {
    if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  }
  if (p.empty()) f->pending_at = off;
  p.append(static_cast<const char*>(buf), static_cast<std::size_t>(amt));
  return SQLITE_OK;
}
int gather_truncate(sqlite3_file* pf, sqlite3_int64 size) {
  auto* f = gather_file(pf);
  if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  if (f->mirror) mirror_truncate(f->mirror, size);
  return f->real->pMethods->xTruncate(f->real, size);
}
int gather_sync(sqlite3_file* pf, int flags) {
  auto* f = gather_file(pf);
  if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xSync(f->real, flags);
}
int gather_file_size(sqlite3_file* pf, sqlite3_int64* size) {
  auto* f = gather_file(pf);
  if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFileSize(f->real, size);
}
int gather_lock(sqlite3_file* pf, int lock) { return real_methods(pf)->xLock(gather_file(pf)->real, lock); }
int gather_unlock(sqlite3_file* pf, int lock) { return real_methods(pf)->xUnlock(gather_file(pf)->real, lock); }
int gather_check_reserved(sqlite3_file* pf, int* out) {
  return real_methods(pf)->xCheckReservedLock(gather_file(pf)->real, out);
}
int gather_file_control(sqlite3_file* pf, int op, void* arg) {
  auto* f = gather_file(pf);
  if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFileControl(f->real, op, arg);
}
int gather_sector_size(sqlite3_file* pf) { return real_methods(pf)->xSectorSize(gather_file(pf)->real); }
int gather_device(sqlite3_file* pf) { return real_methods(pf)->xDeviceCharacteristics(gather_file(pf)->real); }
int gather_shm_map(sqlite3_file* pf, int page, int size, int extend, void volatile** out) {
  return real_methods(pf)->xShmMap(gather_file(pf)->real, page, size, extend, out);
}
int gather_shm_lock(sqlite3_file* pf, int offset, int n, int flags) {
  return real_methods(pf)->xShmLock(gather_file(pf)->real, offset, n, flags);
}
void gather_shm_barrier(sqlite3_file* pf) { real_methods(pf)->xShmBarrier(gather_file(pf)->real); }
int gather_shm_unmap(sqlite3_file* pf, int del) { return real_methods(pf)->xShmUnmap(gather_file(pf)->real, del); }
int gather_fetch(sqlite3_file* pf, sqlite3_int64 off, int amt, void** out) {
  auto* f = gather_file(pf);
  if (f->real->pMethods->iVersion < 3 || !f->real->pMethods->xFetch) {
    *out = nullptr;
    return SQLITE_OK;
  }
  if (const int rc = gather_flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFetch(f->real, off, amt, out);
}
int gather_unfetch(sqlite3_file* pf, sqlite3_int64 off, void* p) {
  auto* f = gather_file(pf);
  if (f->real->pMethods->iVersion < 3 || !f->real->pMethods->xUnfetch) return SQLITE_OK;
  return f->real->pMethods->xUnfetch(f->real, off, p);
}

const sqlite3_io_methods* gather_methods() {
  static const sqlite3_io_methods methods = [] {
    sqlite3_io_methods m{};
    m.iVersion = 3;
    m.xClose = gather_close;
    m.xRead = gather_read;
    m.xWrite = gather_write;
    m.xTruncate = gather_truncate;
    m.xSync = gather_sync;
    m.xFileSize = gather_file_size;
    m.xLock = gather_lock;
    m.xUnlock = gather_unlock;
    m.xCheckReservedLock = gather_check_reserved;
    m.xFileControl = gather_file_control;
    m.xSectorSize = gather_sector_size;
    m.xDeviceCharacteristics = gather_device;
    m.xShmMap = gather_shm_map;
    m.xShmLock = gather_shm_lock;
    m.xShmBarrier = gather_shm_barrier;
    m.xShmUnmap = gather_shm_unmap;
    m.xFetch = gather_fetch;
    m.xUnfetch = gather_unfetch;
    return m;
  }();
  return &methods;
}

int gather_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* pf, int flags, int* out_flags) {
  auto* parent = static_cast<sqlite3_vfs*>(vfs->pAppData);
  auto* f = gather_file(pf);
  f->base.pMethods = nullptr;
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  f->pending = nullptr;
  f->pending_at = 0;
  f->mirror = nullptr;
  f->path = nullptr;
  const int rc = parent->xOpen(parent, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK || !f->real->pMethods) return rc;
  if (flags & SQLITE_OPEN_WAL) {
    f->pending = new std::string();
    f->path = new std::string(name ? name : "");
    f->mirror = open_mirror(*f->path);
  }
  f->base.pMethods = gather_methods();
  return SQLITE_OK;
}

// The VFS the store's connections open the file through: SQLite's
// "unix-excl" where the default is plain "unix". It takes one exclusive lock
// on the file for the whole process at the first access and keeps the WAL
// index in the process's memory, so the connections of this process (the
// writer and the checkpointer) share the file without a lock call per
// transaction, and no other process can open it while the server runs. Any
// other default (a test's fault-injecting VFS) is used as it is.
sqlite3_vfs* store_base_vfs() {
  sqlite3_vfs* vfs = sqlite3_vfs_find(nullptr);
  if (vfs && std::string_view(vfs->zName) == "unix") {
    if (sqlite3_vfs* excl = sqlite3_vfs_find("unix-excl")) return excl;
  }
  return vfs;
}

// The gathering VFS stacked on store_base_vfs() (registered once per parent:
// a test may make another VFS the default between two stores).
const char* gather_vfs() {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<std::pair<sqlite3_vfs, std::string>>> made;
  std::lock_guard lock(mutex);
  sqlite3_vfs* parent = store_base_vfs();
  if (!parent) return nullptr;
  if (parent->xOpen == gather_open) return parent->zName;
  for (auto& v : made) {
    if (v->first.pAppData == parent) return v->first.zName;
  }
  auto v = std::make_unique<std::pair<sqlite3_vfs, std::string>>();
  v->second = std::string("casa-gather-") + parent->zName;
  sqlite3_vfs& g = v->first;
  g = *parent;
  g.zName = v->second.c_str();
  g.szOsFile = static_cast<int>(sizeof(GatherFile)) + parent->szOsFile;
  g.pNext = nullptr;
  g.pAppData = parent;
  g.xOpen = gather_open;
  // The rest (delete, access, full path names, randomness, time...) are the
  // parent's own, called with the parent: they do not look at pAppData.
  g.xDelete = [](sqlite3_vfs* self, const char* name, int sync_dir) {
    auto* p = static_cast<sqlite3_vfs*>(self->pAppData);
    return p->xDelete(p, name, sync_dir);
  };
  g.xAccess = [](sqlite3_vfs* self, const char* name, int flags, int* out) {
    auto* p = static_cast<sqlite3_vfs*>(self->pAppData);
    return p->xAccess(p, name, flags, out);
  };
  g.xFullPathname = [](sqlite3_vfs* self, const char* name, int n, char* out) {
    auto* p = static_cast<sqlite3_vfs*>(self->pAppData);
    return p->xFullPathname(p, name, n, out);
  };
  if (sqlite3_vfs_register(&g, 0) != SQLITE_OK) return nullptr;
  made.push_back(std::move(v));
  return made.back()->first.zName;
}

}  // namespace

// ---- Store ------------------------------------------------------------------

Store::Store(const std::string& path, Durability durability, WalLimits wal) : wal_limits_(wal) {
  // SQLite with synchronous=FULL: the WAL's writes are gathered until the
  // commit's fsync (see gather_vfs above).
  const bool sqlite = !Db::is_postgres_url(path);
  const char* vfs = nullptr;
  if (sqlite) vfs = durability == Durability::full ? gather_vfs() : store_base_vfs()->zName;
  writer_ = std::make_unique<Db>(path, false, vfs);
  postgres_ = writer_->postgres();
  if (postgres_) {
    // PostgreSQL: every session runs with synchronous_commit = on (store_pg.cpp),
    // so COMMIT returns once its record is flushed. That promise is only as good
    // as the server's fsync, which must stay on (docs/server.md).
    auto& fsync = writer_->prepare("SELECT current_setting('fsync')");
    if (fsync.step() && fsync.text_at(0) != "on") {
      spdlog::warn("store: the PostgreSQL server runs with fsync = {}: a commit may be lost "
                   "when its machine loses power",
                   fsync.text_at(0));
    }
    fsync.run();
  } else {
    // The file is held by this process alone (store_base_vfs): no lock is
    // taken or released per commit. Reads and the backup go through this
    // connection (reading(), backup()); checkpoints through their own.
    writer_->exec("PRAGMA journal_mode=WAL");
    // FULL: COMMIT fsyncs the WAL before it returns (one fsync per group commit).
    // NORMAL: the WAL is fsync'd only at checkpoints.
    synchronous_ = durability == Durability::full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL";
    writer_->exec(synchronous_);
    if (const char* file = sqlite3_db_filename(writer_->handle(), "main")) wal_file_ = std::string(file) + "-wal";
    // The WAL's file cut back to keep_pages when it starts over (WalLimits);
    // a WAL frame is a 4 KB page and its 24-byte header.
    writer_->exec("PRAGMA journal_size_limit=" + std::to_string(std::int64_t{wal_limits_.keep_pages} * 4120));
    // 16 MiB of pages (SQLite's default is 2 MiB): the pages that every
    // table's moves, new tables and finished games touch stay in memory
    // instead of being read back from the file (a pread each).
    writer_->exec("PRAGMA cache_size=-16384");
    writer_->exec("PRAGMA foreign_keys=ON");
    // No checkpoint inside a COMMIT: SQLite's auto-checkpoint is itself a wal
    // hook, which this one replaces. It only notes the WAL's length; the
    // writer checkpoints between group commits (maybe_checkpoint).
    sqlite3_wal_hook(
        writer_->handle(),
        [](void* self, sqlite3*, const char*, int pages) {
          auto* store = static_cast<Store*>(self);
          if (pages < store->wal_pages_) ++store->wal_generation_;  // the WAL started over
          store->wal_pages_ = pages;
          return SQLITE_OK;
        },
        this);
  }
  migrate();
  if (postgres_) reader_ = Db::open(path, true);
  if (!postgres_) {
    // Moves a previous run left in the log are folded before any table is
    // read: a table's moves are then found by their key alone.
    auto& rows = writer_->prepare("SELECT COUNT(*) FROM action_log");
    log_rows_ = rows.step() ? rows.int_at(0) : 0;
    rows.run();
    if (log_rows_ > 0) fold_action_log();
  }
  if (!postgres_) {
    // The checkpointer's connection: the same file, VFS and synchronous
    // setting (a checkpoint fsyncs as its connection is set to).
    checkpointer_ = std::make_unique<Db>(path, false, vfs);
    checkpointer_->exec(synchronous_);
    // A first read opens its view of the WAL, which a checkpoint needs.
    checkpointer_->exec("SELECT COUNT(*) FROM sqlite_master");
    checkpoint_thread_ = std::thread([this] { run_checkpoints(); });
  }
  thread_ = std::thread([this] { run(); });
  if (!postgres_) {
    backup_socket_ = backup_socket_path(path);
    backup_listener_ = listen_for_backups(backup_socket_);
    if (backup_listener_ >= 0) backup_thread_ = std::thread([this] { serve_backups(); });
  }
}

void Store::migrate() {
  // Nodes sharing one PostgreSQL database may start together: one migrates at
  // a time (a session-level advisory lock, released at the end).
  if (postgres_) writer_->exec("SELECT pg_advisory_lock(7405321)");
  try {
    writer_->exec(postgres_ ? "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY "
                              "KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
                            : "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY "
                              "KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
    for (const auto& m : postgres_ ? embedded_postgres_migrations() : embedded_migrations()) {
      auto& q = writer_->prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
      q.bind(1, std::int64_t{m.version});
      const bool applied = q.step();
      q.run();
      if (applied) continue;
      writer_->exec("BEGIN");
      try {
        writer_->exec(m.sql);
        writer_->prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)")
            .bind(1, std::int64_t{m.version})
            .bind(2, std::string(m.name))
            .bind(3, now_seconds())
            .run();
        writer_->exec("COMMIT");
      } catch (...) {
        writer_->exec("ROLLBACK");
        throw;
      }
    }
  } catch (...) {
    if (postgres_ && !writer_->broken()) writer_->exec("SELECT pg_advisory_unlock(7405321)");
    throw;
  }
  if (postgres_) writer_->exec("SELECT pg_advisory_unlock(7405321)");
}

Store::~Store() {
  if (backup_listener_ >= 0) {
    ::shutdown(backup_listener_, SHUT_RDWR);  // accept() returns
    backup_thread_.join();
    ::close(backup_listener_);
    ::unlink(backup_socket_.c_str());
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (checkpoint_thread_.joinable()) {
    {
      std::lock_guard lock(checkpoint_wake_mutex_);
      checkpoint_stopping_ = true;
    }
    checkpoint_wake_.notify_all();
    checkpoint_thread_.join();
  }
}

void Store::write(Job job, Done done, std::optional<Strand> on) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) first_queued_ = std::chrono::steady_clock::now();
    queue_.push_back({std::move(job), std::move(done), std::move(on)});
  }
  wake_.notify_one();
}

void Store::deliver(Batch& batch, const std::vector<bool>& ok) {
  // One post per io_context for the whole batch: each post from this thread
  // may wake that loop's thread out of epoll_wait, and a batch holds the
  // moves of many tables on a few loops. The loop then enters each table's
  // strand in turn (dispatch: at once when the strand is idle, else behind
  // what it already holds), so a table's outcomes keep their order and run
  // on its strand.
  struct Outcome {
    Strand on;
    Done done;
    bool ok;
  };
  struct Handover {
    boost::asio::io_context* loop;
    std::vector<Outcome> outcomes;
  };
  std::vector<Handover> handovers;  // usually one per network thread, or none
  for (std::size_t i = 0; i < batch.size(); ++i) {
    auto& job = batch[i];
    if (!job.done) continue;
    if (!job.on) {
      job.done(ok[i]);
      continue;
    }
    auto* loop = &job.on->get_inner_executor().context();
    auto it = std::find_if(handovers.begin(), handovers.end(), [&](const Handover& h) { return h.loop == loop; });
    if (it == handovers.end()) it = handovers.insert(handovers.end(), Handover{loop, {}});
    it->outcomes.push_back({std::move(*job.on), std::move(job.done), ok[i]});
  }
  for (auto& h : handovers) {
    boost::asio::post(*h.loop, [outcomes = std::move(h.outcomes)]() mutable {
      for (auto& o : outcomes) {
        boost::asio::dispatch(o.on, [done = std::move(o.done), ok = o.ok] { done(ok); });
      }
    });
  }
}

std::size_t Store::queue_depth() {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void Store::run() {
  // SQLite: where the store thread shares a core with the network threads,
  // it gives way to them (nice kStoreNice): a group commit waits while moves
  // are still being read and answered, then takes them all, so a busy core
  // spends one commit and one fsync on many more moves. On a core of its own,
  // or an idle one, it runs at once as before. (PostgreSQL's commit waits on
  // the database server instead, and is left as it is.)
  if (!postgres_) ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kStoreNice);
  Batch batch;
  std::vector<bool> ok;
  for (;;) {
    bool last = false;
    bool fold = false;  // the store was idle with moves in the log
    std::chrono::steady_clock::time_point queued_at;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] { return stopping_ || !queue_.empty() || query_only_change_ >= 0; };
      if (in_doubt_) {
        wake_.wait_for(lock, kDoubtRetry, ready);
      } else if (!postgres_ && log_rows_ > 0 && std::chrono::steady_clock::now() >= next_idle_fold_) {
        fold = !wake_.wait_for(lock, kFoldIdle, ready);
      } else {
        wake_.wait(lock, ready);
      }
      if (query_only_change_ >= 0) {
        // PostgreSQL: each transaction starts read-only instead (begin()).
        if (!postgres_) {
          std::lock_guard conn(conn_mutex_);
          writer_->exec(query_only_change_ ? "PRAGMA query_only = 1" : "PRAGMA query_only = 0");
        }
        query_only_ = query_only_change_ == 1;
        query_only_change_ = -1;
      }
      if (queue_.empty() && stopping_) {
        if (!in_doubt_) return;
        last = true;  // one more try to settle the doubt before closing
      } else if (queue_.empty() && !in_doubt_) {
        if (!fold) continue;
      }
      if (fold && queue_.empty()) {
        batch.clear();
      } else {
        fold = false;
        batch.swap(queue_);
        queued_at = first_queued_;
      }
    }
    if (fold) {
      // Idle for kFoldIdle with moves in the log: a fold now holds nobody.
      std::lock_guard conn(conn_mutex_);
      if (!fold_action_log()) next_idle_fold_ = std::chrono::steady_clock::now() + kFoldRetry;
      continue;
    }
    bool committed = false;
    {
      std::lock_guard conn(conn_mutex_);
      committed = commit_batch(batch, ok);
    }
    if (committed && !batch.empty()) metrics().commit_latency.observe(std::chrono::steady_clock::now() - queued_at);
    // Health is updated before anyone hears the outcome, so a client told
    // storage_unavailable finds /healthz saying so too.
    bool any_failed = !committed || in_doubt_;
    for (std::size_t i = 0; i < batch.size(); ++i) any_failed = any_failed || !ok[i];
    healthy_ = !any_failed;
    if (!committed) ok.assign(batch.size(), false);
    deliver(batch, ok);
    batch.clear();
    if (last) return;
    if (!postgres_ && log_rows_ >= fold_at_ && !in_doubt_) {
      std::lock_guard conn(conn_mutex_);
      fold_action_log();
    }
    if (!postgres_ && wal_pages_ >= wal_limits_.checkpoint_pages) maybe_checkpoint();
  }
}

// Between two group commits, on the store thread. The WAL starts over only
// at a commit that finds every page of it copied into the database file, so
// checkpoints copy the bulk of the WAL on the checkpoint thread while commits
// go on, and the last few pages that came meanwhile here, between two
// commits (see the invariants in store.h).
void Store::maybe_checkpoint() {
  const int wal = wal_pages_;
  if (wal < std::max(wal_limits_.checkpoint_pages, checkpoint_retry_at_.load())) return;
  bool running = false;
  int copied = 0;  // by the last background checkpoint of this WAL, if any
  {
    std::lock_guard lock(checkpoint_wake_mutex_);
    running = checkpoint_wanted_ || checkpoint_running_;
    if (background_generation_ == wal_generation_) copied = background_copied_;
  }
  if (wal >= std::max(wal_limits_.force_pages, checkpoint_retry_at_.load())) {
    // The checkpoint thread falls behind (or failed): the whole WAL here,
    // commits held, so that the WAL stays bounded whatever the load.
    checkpoint_here();
  } else if (running) {
    return;
  } else if (copied > 0 && wal - copied <= wal_limits_.catch_up_pages) {
    checkpoint_here();
  } else {
    {
      std::lock_guard lock(checkpoint_wake_mutex_);
      checkpoint_wanted_ = true;
    }
    checkpoint_wake_.notify_one();
  }
}

std::size_t Store::wal_copy_bytes() const {
  return wal_file_.empty() ? 0 : mirror_capacity(wal_file_);
}

void Store::checkpoint_here() {
  if (checkpoint(true) > 0) {
    ++checkpoints_on_store_thread_;
    ++checkpoints_;
  }
}

// The checkpoint thread: a PASSIVE checkpoint whenever the store thread asks.
// It runs at the lowest priority (SCHED_IDLE): on a busy core the network
// threads and the store thread run first; a checkpoint that cannot get a
// core then leaves the WAL to grow until the store thread copies it itself.
void Store::run_checkpoints() {
  sched_param idle{};
  pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
  std::unique_lock lock(checkpoint_wake_mutex_);
  for (;;) {
    checkpoint_wake_.wait(lock, [&] { return checkpoint_stopping_ || checkpoint_wanted_; });
    if (checkpoint_stopping_) return;
    checkpoint_wanted_ = false;
    checkpoint_running_ = true;
    // The WAL can start over while this one ends (once it copied the last
    // page), so its count is kept with the WAL it was taken from.
    const int generation = wal_generation_;
    lock.unlock();
    const int copied = checkpoint(false);
    lock.lock();
    checkpoint_running_ = false;
    background_copied_ = copied;
    background_generation_ = generation;
    // Counted once the store thread can see the outcome (tests wait on it).
    if (copied > 0) {
      ++checkpoints_in_background_;
      ++checkpoints_;
    }
  }
}

int Store::checkpoint(bool on_store_thread) {
  std::lock_guard hold(checkpoint_mutex_);
  const auto began = std::chrono::steady_clock::now();
  int wal = 0, copied = 0;
  // PASSIVE: it copies every page that no reader still needs from the WAL
  // (the writer's reads are short; nothing else reads this file). With FULL
  // or NORMAL it fsyncs the WAL first and the database file after.
  int rc = sqlite3_wal_checkpoint_v2(checkpointer_->handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, &wal, &copied);
  if (rc == SQLITE_OK && !on_store_thread && copied > 0) {
    // In the background: SQLite fsyncs the database file only when no commit
    // came during the copy, which under load is almost never: the pages
    // copied here would then all be flushed by the catch-up on the store
    // thread, commits held. Flushed here instead, the catch-up has only its
    // own pages to flush. (The catch-up keeps SQLite's own fsyncs: SQLite
    // marks the WAL copied only once the database file's fsync succeeded,
    // so a failing disk can never let the WAL start over too early.)
    sqlite3_file* file = nullptr;
    if (sqlite3_file_control(checkpointer_->handle(), "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK &&
        file && file->pMethods) {
      rc = file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
    }
  }
  (on_store_thread ? metrics().checkpoint_latency : metrics().background_checkpoint_latency)
      .observe(std::chrono::steady_clock::now() - began);
  if (rc == SQLITE_OK && copied == wal) {
    checkpoint_retry_at_ = 0;
    return copied;
  }
  // A full or failing disk: the WAL keeps every commit (nothing is lost),
  // and the next try waits until it grew by another checkpoint_pages.
  spdlog::warn("store: a checkpoint failed ({} of {} WAL pages copied): {}", copied, wal,
               sqlite3_errmsg(checkpointer_->handle()));
  checkpoint_retry_at_ = wal_pages_ + wal_limits_.checkpoint_pages;
  return 0;
}

bool Store::commit_batch(Batch& batch, std::vector<bool>& ok) {
  ok.assign(batch.size(), false);
  // PostgreSQL: a connection lost before connects again here, outside any
  // transaction; while the server cannot be reached, every job is refused.
  if (postgres_ && !writer_->recover()) return false;
  bool committing = false;
  append_to_log_ = batch.size() >= kLogBatch;
  try {
    begin();
    // The common case: every job succeeds, and no savepoint is needed. When
    // one fails, the whole transaction is rolled back and run again with a
    // savepoint per job, so the failure spoils only its own job (a job only
    // writes through Db, so running it twice is the same as running it once).
    bool all_ok = true;
    for (std::size_t i = 0; i < batch.size() && all_ok; ++i) {
      try {
        batch[i].job(*writer_);
        ok[i] = true;
      } catch (const std::exception&) {
        all_ok = false;
      }
    }
    if (!all_ok) {
      ok.assign(batch.size(), false);
      try {
        writer_->prepare("ROLLBACK").run();
      } catch (const std::exception&) {
        // SQLite already rolled back (an I/O error or a full disk does).
      }
      begin();
      for (std::size_t i = 0; i < batch.size(); ++i) {
        writer_->prepare("SAVEPOINT job").run();
        auto seq_changes = seq_changes_;  // what a refused job noted is undone with it
        const auto log_rows = log_rows_pending_;
        try {
          batch[i].job(*writer_);
          writer_->prepare("RELEASE job").run();
          ok[i] = true;
        } catch (const std::exception& e) {
          seq_changes_ = std::move(seq_changes);
          log_rows_pending_ = log_rows;
          spdlog::warn("store: a write was refused: {}", e.what());
          try {
            writer_->prepare("ROLLBACK TO job").run();
            writer_->prepare("RELEASE job").run();
          } catch (const std::exception&) {
          }
        }
      }
    }
    committing = true;
    writer_->prepare("COMMIT").run();
    ++commits_;
    in_doubt_ = false;
    for (auto& [table, seq] : seq_changes_) {
      if (seq < 0) {
        last_seq_.erase(table);
      } else {
        last_seq_[table] = seq;
      }
    }
    seq_changes_.clear();
    log_rows_ += log_rows_pending_;
    log_rows_pending_ = 0;
    return true;
  } catch (const std::exception& e) {
    spdlog::warn("store: a transaction failed: {}", e.what());
    if (postgres_) {
      // The connection was lost while COMMIT was on its way: it may have
      // committed or not. The answer is the transaction id's status once the
      // server is back; until then nobody is told (see resolve_commit).
      if (committing && writer_->broken() && xid_ > 0) {
        const bool committed = resolve_commit(xid_);
        if (committed) ++commits_;
        return committed;
      }
    } else if (committing) {
      // A failed COMMIT may have reached the WAL (its fsync failed, say): the
      // outcome stays in doubt until a later commit lands.
      in_doubt_ = true;
    }
    try {
      if (!writer_->broken()) writer_->prepare("ROLLBACK").run();
    } catch (const std::exception&) {
    }
    return false;
  }
}

void Store::begin() {
  if (!postgres_) {
    seq_changes_.clear();
    log_rows_pending_ = 0;
    writer_->prepare("BEGIN IMMEDIATE").run();
    settle_doubt();
    return;
  }
  writer_->prepare("BEGIN").run();
  // A read-only transaction refuses every write, as SQLite's query_only does.
  if (query_only_) writer_->prepare("SET TRANSACTION READ ONLY").run();
  // The transaction's id, asked for again if its COMMIT is in doubt.
  auto& x = writer_->prepare("SELECT txid_current()");
  xid_ = x.step() ? x.int_at(0) : 0;
  x.run();
}

bool Store::resolve_commit(std::int64_t xid) {
  // Every job queued meanwhile is refused at once (done(false): the server
  // answers storage_unavailable); the jobs of the batch in doubt wait for the
  // answer, so nobody is ever told that a committed action failed, or the
  // reverse. The server is asked every kDoubtRetry until it answers.
  in_doubt_ = true;
  healthy_ = false;
  for (;;) {
    Batch refused;
    bool stop = false;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, kDoubtRetry, [&] { return stopping_ || !queue_.empty(); });
      refused.swap(queue_);
      stop = stopping_;
    }
    deliver(refused, std::vector<bool>(refused.size(), false));
    if (writer_->recover()) {
      try {
        auto& q = writer_->prepare("SELECT txid_status(?)");
        q.bind(1, xid);
        const std::string status = q.step() ? q.text_at(0) : std::string();
        q.run();
        if (status != "in progress") {
          in_doubt_ = false;
          return status == "committed";
        }
      } catch (const std::exception&) {
        // An id the server never logged ("in the future" after a crash) was
        // never committed; a lost connection asks again.
        if (!writer_->broken()) {
          in_doubt_ = false;
          return false;
        }
      }
    }
    if (stop) {
      // Closing with the outcome unknown: the database holds the truth, and
      // the next start reads it.
      in_doubt_ = false;
      return false;
    }
  }
}

void Store::settle_doubt() {
  if (!in_doubt_) return;
  // A COMMIT failed after writing its frames to the WAL: a restart could
  // still find it there. This transaction writes at least one page (the
  // header's user_version, which nothing else uses), so its frames start
  // where the failed ones did and a recovery stops before them: once it
  // commits, the failed transaction is gone for good, as this process
  // already believes.
  auto& q = writer_->prepare("PRAGMA user_version");
  const std::int64_t version = q.step() ? q.int_at(0) : 0;
  q.run();
  writer_->exec("PRAGMA user_version = " + std::to_string((version + 1) & 0x7fffffff));
}

void Store::expect_next_seq(Db& db, const std::string& table, std::int64_t seq) {
  std::int64_t last = 0;
  const auto change = seq_changes_.find(table);
  const auto known = last_seq_.find(table);
  if (change != seq_changes_.end() && change->second >= 0) {
    last = change->second;
  } else if (change == seq_changes_.end() && known != last_seq_.end()) {
    last = known->second;
  } else {
    // Once per table and process: a table this process did not create, or
    // whose moves it forgot.
    auto& q = db.prepare(
        "SELECT MAX(m) FROM (SELECT MAX(seq) AS m FROM actions_by_table WHERE table_id = ?1 UNION ALL "
        "SELECT MAX(seq) FROM action_log WHERE table_id = ?1)");
    q.bind(1, table);
    last = q.step() ? q.int_at(0) : 0;
    q.run();
  }
  if (seq != last + 1) {
    throw std::runtime_error("table " + table + ": an action at seq " + std::to_string(seq) +
                             " after seq " + std::to_string(last));
  }
  seq_changes_[table] = seq;
}

void Store::forget_seq(const std::string& table) { seq_changes_[table] = -1; }

// Between two group commits, on the store thread (holding conn_mutex_), or at
// start: the log's rows go to actions_by_table sorted by table, so each
// table's page is written once for all of its moves in the log, instead of
// once a move. One transaction: a failure moves nothing, and the view
// `actions` reads the same rows before, during and after.
bool Store::fold_action_log() {
  bool committing = false;
  try {
    begin();
    writer_
        ->prepare(
            "INSERT INTO actions_by_table (table_id, seq, seat, action, created_at, auto, node_id, "
            "lease_epoch) SELECT table_id, seq, seat, action, created_at, auto, node_id, lease_epoch "
            "FROM action_log ORDER BY table_id, seq")
        .run();
    writer_->prepare("DELETE FROM action_log").run();
    committing = true;
    writer_->prepare("COMMIT").run();
  } catch (const std::exception& e) {
    spdlog::warn("store: folding the move log failed (tried again later): {}", e.what());
    // As for a group commit (commit_batch): a failed COMMIT may still be
    // found by a restart until a later commit lands.
    if (committing) in_doubt_ = true;
    try {
      if (!writer_->broken()) writer_->prepare("ROLLBACK").run();
    } catch (const std::exception&) {
    }
    fold_at_ = log_rows_ + kFoldRows;
    return false;
  }
  ++commits_;
  ++folds_;
  log_rows_ = 0;
  fold_at_ = kFoldRows;
  return true;
}

void Store::set_query_only(bool on) {
  // Outside any transaction: query_only cannot change inside one.
  std::lock_guard lock(mutex_);
  query_only_change_ = on ? 1 : 0;
  wake_.notify_one();
}

void Store::save_player(const StoredPlayer& p, Done done) {
  write(
      [p](Db& db) {
        const std::int64_t at = now_seconds();
        db.prepare("INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)")
            .bind(1, p.id)
            .bind_text(2, p.name)
            .bind(3, p.token_hash)
            .bind(4, at)
            .run();
        // The guest's first session (docs/accounts.md): its token resumes them.
        db.prepare("INSERT INTO sessions (token_hash, player_id, label, created_at, last_used_at) "
                   "VALUES (?, ?, 'first device', ?, ?)")
            .bind(1, p.token_hash)
            .bind(2, p.id)
            .bind(3, at)
            .bind(4, at)
            .run();
      },
      std::move(done));
}

namespace {
void write_seat(Db& db, const std::string& table, int seat, const StoredSeat& who) {
  db.prepare("INSERT INTO seats (table_id, seat, player_id, bot, left_game) VALUES (?, ?, ?, ?, ?) "
             "ON CONFLICT (table_id, seat) DO UPDATE SET player_id = excluded.player_id, "
             "bot = excluded.bot, left_game = excluded.left_game")
      .bind(1, table)
      .bind(2, std::int64_t{seat})
      .bind(3, who.player_id)
      .bind(4, who.bot)
      .bind(5, std::int64_t{who.left_game})
      .run();
}
}  // namespace

void Store::save_table(const StoredTable& t, Done done, std::optional<Strand> on) {
  write(
      [this, t](Db& db) {
        fence(db, t.id);
        db.prepare(
              "INSERT INTO tables (id, game, players, options, seed, private, invite, creator, "
              "move_timeout_seconds, status, created_at, grace_seconds, takeover, deal_salt, deal_commitment, "
              "correspondence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(1, t.id)
            .bind(2, t.game)
            .bind(3, std::int64_t{t.players})
            .bind_text(4, t.options)
            .bind(5, static_cast<std::int64_t>(t.seed))
            .bind(6, std::int64_t{t.is_private})
            .bind(7, t.invite)
            .bind_text(8, t.creator)
            .bind(9, std::int64_t{t.move_timeout_seconds})
            .bind(10, t.status)
            .bind(11, now_seconds())
            .bind(12, std::int64_t{t.grace_seconds})
            .bind_text(13, t.takeover)
            .bind(14, t.deal_salt)
            .bind(15, t.deal_commitment)
            .bind(16, std::int64_t{t.correspondence})
            .run();
        if (!postgres_) seq_changes_[t.id] = 0;  // a new table: no move yet
        if (t.rated) {
          db.prepare("UPDATE tables SET rated = ? WHERE id = ?").bind(1, std::int64_t{*t.rated}).bind(2, t.id).run();
        }
        for (std::size_t s = 0; s < t.seats.size(); ++s) {
          if (!t.seats[s].player_id.empty() || !t.seats[s].bot.empty()) {
            write_seat(db, t.id, static_cast<int>(s), t.seats[s]);
          }
        }
      },
      std::move(done), std::move(on));
}

void Store::save_seat(const std::string& table, int seat, const StoredSeat& who, Done done,
                      std::optional<Strand> on) {
  write(
      [this, table, seat, who](Db& db) {
        fence(db, table);
        if (who.player_id.empty() && who.bot.empty()) {
          db.prepare("DELETE FROM seats WHERE table_id = ? AND seat = ?")
              .bind(1, table)
              .bind(2, std::int64_t{seat})
              .run();
        } else {
          write_seat(db, table, seat, who);
        }
      },
      std::move(done), std::move(on));
}

void Store::delete_table(const std::string& table, Done done) {
  write(
      [this, table](Db& db) {
        fence(db, table);
        db.prepare("DELETE FROM tables WHERE id = ?").bind(1, table).run();
        if (!postgres_) forget_seq(table);
      },
        std::move(done));
}

void Store::save_clock(const std::string& table, const StoredClock& clock, Done done, std::optional<Strand> on) {
  write(
      [this, table, clock](Db& db) {
        fence(db, table);
        clock_rows::save(db, table, clock);
      },
      std::move(done), std::move(on));
}

void Store::close_table(const std::string& table, Done done) {
  write(
      [this, table](Db& db) {
        fence(db, table);
        db.prepare("UPDATE tables SET status = 'closed', finished_at = ? WHERE id = ?")
            .bind(1, now_seconds())
            .bind(2, table)
            .run();
        if (!postgres_) forget_seq(table);
      },
      std::move(done));
}

void Store::append_action(const std::string& table, const StoredAction& a,
                          std::vector<StoredRound> rounds, std::optional<StoredResult> result,
                          Done done, std::optional<Strand> on) {
  write(
      [this, table, a, rounds = std::move(rounds), result = std::move(result)](Db& db) {
        const auto epoch = fence(db, table);
        // SQLite: a commit of many moves appends them to action_log, a few
        // dozen to a page, and a commit of few writes them in their table's
        // place (migrations/0016_action_log.sql). The seq is checked here,
        // since the log has no key on it. PostgreSQL writes `actions`.
        if (!postgres_) expect_next_seq(db, table, a.seq);
        const bool to_log = !postgres_ && append_to_log_;
        if (to_log) ++log_rows_pending_;
        // The writer's node and lease epoch (NULL, NULL on a one-node server):
        // the stored proof that no node wrote after losing its lease.
        auto& insert = db.prepare(
            postgres_ ? "INSERT INTO actions (table_id, seq, seat, action, created_at, auto, node_id, lease_epoch) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            : to_log  ? "INSERT INTO action_log (table_id, seq, seat, action, created_at, auto, node_id, "
                        "lease_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                      : "INSERT INTO actions_by_table (table_id, seq, seat, action, created_at, auto, "
                        "node_id, lease_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, table)
            .bind(2, a.seq)
            .bind(3, std::int64_t{a.seat})
            .bind_text(4, a.action)
            .bind(5, now_seconds())
            .bind(6, a.auto_by);
        if (epoch) insert.bind_text(7, fence_node_).bind(8, *epoch);
        insert.run();
        if (a.seq == 1) {
          db.prepare("UPDATE tables SET status = 'playing' WHERE id = ?").bind(1, table).run();
        }
        for (const auto& r : rounds) {
          db.prepare(
                "INSERT INTO round_scores (table_id, round, seq, scores, summary) VALUES (?1, "
                "(SELECT COUNT(*) + 1 FROM round_scores WHERE table_id = ?1), ?2, ?3, ?4)")
              .bind(1, table)
              .bind(2, a.seq)
              .bind_text(3, r.scores)
              .bind_text(4, r.summary)
              .run();
        }
        if (!result) return;
        if (!postgres_) forget_seq(table);
        db.prepare(
              "UPDATE tables SET status = 'over', scores = ?, winners = ?, finished_at = ? WHERE "
              "id = ?")
            .bind_text(1, nlohmann::json(result->scores).dump())
            .bind_text(2, nlohmann::json(result->winners).dump())
            .bind(3, now_seconds())
            .bind(4, table)
            .run();
        for (std::size_t s = 0; s < result->seats.size(); ++s) {
          bool won = false;
          for (int w : result->winners) won = won || w == static_cast<int>(s);
          db.prepare(
                "INSERT INTO results (table_id, seat, player_id, bot, score, winner) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET "
                "player_id = excluded.player_id, bot = excluded.bot, score = excluded.score, "
                "winner = excluded.winner")
              .bind(1, table)
              .bind(2, static_cast<std::int64_t>(s))
              .bind(3, result->seats[s].player_id)
              .bind(4, result->seats[s].bot)
              .bind(5, std::int64_t{s < result->scores.size() ? result->scores[s] : 0})
              .bind(6, std::int64_t{won})
              .run();
        }
        if (!result->teams.empty()) {
          db.prepare("UPDATE tables SET teams = ? WHERE id = ?")
              .bind_text(1, nlohmann::json(result->teams).dump())
              .bind(2, table)
              .run();
        }
        db.prepare("INSERT INTO finished_games (table_id) VALUES (?) ON CONFLICT DO NOTHING")
            .bind(1, table)
            .run();
        rate_finished_game(db, table);
      },
      std::move(done), std::move(on));
}

void Store::append_chat(const std::string& table, const StoredChat& c,
                        std::function<void(bool, std::int64_t)> done, std::optional<Strand> on) {
  auto line = std::make_shared<std::int64_t>(0);
  write(
      [this, table, c, line](Db& db) {
        fence(db, table);
        auto& next = db.prepare("SELECT COALESCE(MAX(line), 0) + 1 FROM chat WHERE table_id = ?");
        next.bind(1, table);
        *line = next.step() ? next.int_at(0) : 1;
        next.run();
        db.prepare(
              "INSERT INTO chat (table_id, line, player_id, seat, team, text, created_at) VALUES "
              "(?, ?, ?, ?, ?, ?, ?)")
            .bind(1, table)
            .bind(2, *line)
            .bind_text(3, c.player_id)
            .bind(4, std::int64_t{c.seat})
            .bind(5, std::int64_t{c.team})
            .bind_text(6, c.text)
            .bind(7, now_seconds())
            .run();
      },
      [line, done = std::move(done)](bool ok) {
        if (done) done(ok, *line);
      },
      std::move(on));
}

std::int64_t Store::now() { return now_seconds(); }

Store::Reading Store::reading() {
  if (postgres_) {
    std::unique_lock lock(read_mutex_);
    reader_->recover();
    return {std::move(lock), *reader_};
  }
  return {std::unique_lock(conn_mutex_), *writer_};
}

std::vector<StoredPlayer> Store::load_players() {
  auto r = reading();
  std::vector<StoredPlayer> out;
  auto& q = r.db.prepare("SELECT id, name, token_hash FROM players");
  while (q.step()) out.push_back({q.text_at(0), q.text_at(1), q.text_at(2)});
  return out;
}

void Store::fill_table(Db& db, StoredTable& t) {
  t.seats.assign(static_cast<std::size_t>(t.players), {});
  auto& seats = db.prepare("SELECT seat, player_id, bot, left_game FROM seats WHERE table_id = ?");
  seats.bind(1, t.id);
  while (seats.step()) {
    const auto s = seats.int_at(0);
    if (s >= 0 && s < t.players) {
      t.seats[static_cast<std::size_t>(s)] = {seats.text_at(1), seats.text_at(2), seats.int_at(3) != 0};
    }
  }
  auto& log = db.prepare(
      postgres_ ? "SELECT seq, seat, action, auto FROM actions WHERE table_id = ?1 ORDER BY seq"
                : "SELECT seq, seat, action, auto FROM actions_by_table WHERE table_id = ?1 UNION ALL "
                  "SELECT seq, seat, action, auto FROM action_log WHERE table_id = ?1 ORDER BY seq");
  log.bind(1, t.id);
  while (log.step()) {
    t.actions.push_back({log.int_at(0), static_cast<int>(log.int_at(1)), log.text_at(2), log.text_at(3)});
  }
  auto& chat = db.prepare(
      "SELECT line, player_id, seat, team, text FROM chat WHERE table_id = ? ORDER BY line DESC "
      "LIMIT ?");
  chat.bind(1, t.id).bind(2, static_cast<std::int64_t>(kChatKept));
  while (chat.step()) {
    t.chat.push_back({chat.int_at(0), chat.text_at(1), static_cast<int>(chat.int_at(2)),
                      chat.int_at(3) != 0, chat.text_at(4)});
  }
  std::reverse(t.chat.begin(), t.chat.end());
  if (t.correspondence) t.clock = clock_rows::load(db, t.id);
}

namespace {
constexpr const char* kTableColumns =
    "SELECT id, game, players, options, seed, private, invite, creator, move_timeout_seconds, "
    "status, scores, winners, grace_seconds, takeover, rated, finished_at, deal_salt, deal_commitment, "
    "correspondence FROM tables ";

StoredTable table_from_row(const Db::Stmt& q) {
  StoredTable t;
  t.id = q.text_at(0);
  t.game = q.text_at(1);
  t.players = static_cast<int>(q.int_at(2));
  t.options = q.text_at(3);
  t.seed = static_cast<std::uint64_t>(q.int_at(4));
  t.is_private = q.int_at(5) != 0;
  t.invite = q.text_at(6);
  t.creator = q.text_at(7);
  t.move_timeout_seconds = static_cast<int>(q.int_at(8));
  t.status = q.text_at(9);
  t.scores = q.text_at(10);
  t.winners = q.text_at(11);
  t.grace_seconds = static_cast<int>(q.int_at(12));
  t.takeover = q.text_at(13);
  if (!q.null_at(14)) t.rated = q.int_at(14) != 0;
  t.finished_at = q.int_at(15);
  t.deal_salt = q.text_at(16);
  t.deal_commitment = q.text_at(17);
  t.correspondence = q.int_at(18) != 0;
  return t;
}
}  // namespace

std::vector<StoredTable> Store::load_live_tables(std::int64_t finished_since) {
  auto r = reading();
  std::vector<StoredTable> out;
  auto& q = r.db.prepare(std::string(kTableColumns) +
                             "WHERE status NOT IN ('over', 'closed') OR (status = 'over' AND "
                             "finished_at >= ?) ORDER BY created_at");
  q.bind(1, finished_since);
  while (q.step()) out.push_back(table_from_row(q));
  for (auto& t : out) fill_table(r.db, t);
  return out;
}

std::optional<StoredTable> Store::load_table(const std::string& id) {
  auto reader = reading();
  Db& db = reader.db;
  auto& q = db.prepare(std::string(kTableColumns) + "WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  StoredTable t = table_from_row(q);
  q.run();
  fill_table(db, t);
  auto& r = db.prepare("SELECT scores, summary FROM round_scores WHERE table_id = ? ORDER BY round");
  r.bind(1, id);
  while (r.step()) t.rounds.push_back({r.text_at(0), r.text_at(1)});
  return t;
}

std::optional<std::string> Store::backup(const std::string& out) {
  if (postgres_) return std::string("a PostgreSQL database is backed up with its own tools");
  return backup_connection(writer_->handle(), conn_mutex_, out);
}

void Store::serve_backups() {
  for (;;) {
    const int connection = ::accept4(backup_listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;  // shut down by ~Store
    }
    answer_backup(connection, [this](const std::string& out) { return backup(out); });
  }
}

void Store::read(const std::function<void(Db&)>& query) {
  auto r = reading();
  query(r.db);
}

std::vector<Store::Standing> Store::leaderboard(const std::string& game, int limit) {
  auto r = reading();
  auto& q = r.db.prepare(
      std::string("SELECT r.player_id, ") + kPlayerDisplayName +
      ", COUNT(*) AS games, SUM(r.winner) AS wins FROM results r "
      "JOIN players p ON p.id = r.player_id JOIN tables t ON t.id = r.table_id "
      "WHERE r.player_id IS NOT NULL AND t.game = COALESCE(?1, t.game) "
      "GROUP BY r.player_id, p.id ORDER BY wins DESC, games ASC, p.name ASC LIMIT ?2");
  q.bind(1, game).bind(2, std::int64_t{limit});
  std::vector<Standing> out;
  while (q.step()) {
    out.push_back({q.text_at(0), q.text_at(1), static_cast<int>(q.int_at(2)), static_cast<int>(q.int_at(3))});
  }
  return out;
}

}  // namespace casa::server
