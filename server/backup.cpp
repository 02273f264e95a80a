#include "server/backup.h"

#include <sqlite3.h>

#include <filesystem>
#include <memory>

#include "server/store.h"

namespace casa::server {

namespace fs = std::filesystem;

namespace {

struct Closer {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Handle = std::unique_ptr<sqlite3, Closer>;

std::string message_of(sqlite3* db) { return db ? sqlite3_errmsg(db) : "out of memory"; }

}  // namespace

std::optional<std::string> backup_database(const std::string& source, const std::string& out) {
  // PostgreSQL owns its data: its own tools copy it while the server runs.
  if (Db::is_postgres_url(source)) {
    return "the database is PostgreSQL (" + Db::redacted(source) +
           "): back it up with pg_dump (pg_dump -Fc -f casa.dump URL; restore with pg_restore) or "
           "pg_basebackup, not with casa-server backup (docs/operations.md#backup-and-restore-on-postgresql)";
  }
  std::error_code ec;
  if (!fs::exists(source, ec)) return "no database at " + source;
  if (fs::exists(out, ec)) return out + " exists already; give a new file";
  const std::string partial = out + ".partial";
  fs::remove(partial, ec);

  sqlite3* raw = nullptr;
  // Read-write, not read-only: a reader of a WAL database may need to set up
  // its shared-memory index. Nothing is written to the source.
  int rc = sqlite3_open_v2(source.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr);
  Handle src(raw);
  if (rc != SQLITE_OK) return "cannot open " + source + ": " + message_of(raw);
  sqlite3_busy_timeout(src.get(), 10000);
  raw = nullptr;
  rc = sqlite3_open_v2(partial.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  Handle dst(raw);
  if (rc != SQLITE_OK) return "cannot create " + partial + ": " + message_of(raw);

  // One step of every page: the copy is the database as of one read
  // transaction, taken beside the running server (WAL: the server's commits go
  // on meanwhile and are simply not in the copy). A copy made in several
  // steps would start over whenever the server commits between two of them.
  sqlite3_backup* backup = sqlite3_backup_init(dst.get(), "main", src.get(), "main");
  if (!backup) {
    const std::string why = message_of(dst.get());
    fs::remove(partial, ec);
    return "cannot start the backup: " + why;
  }
  for (int tries = 0;; ++tries) {
    rc = sqlite3_backup_step(backup, -1);
    if ((rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && tries < 100) {
      sqlite3_sleep(100);
      continue;
    }
    break;
  }
  const int finish = sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE || finish != SQLITE_OK) {
    const std::string why = message_of(dst.get());
    dst.reset();
    fs::remove(partial, ec);
    return "the backup failed: " + why;
  }
  // The copy must be whole before it takes the final name.
  std::string verdict;
  sqlite3_exec(
      dst.get(), "PRAGMA integrity_check",
      [](void* arg, int, char** values, char**) {
        auto* v = static_cast<std::string*>(arg);
        if (!v->empty()) *v += "; ";
        *v += values[0] ? values[0] : "?";
        return 0;
      },
      &verdict, nullptr);
  // A WAL copy keeps its pages in the main file once closed; checkpoint to be sure.
  sqlite3_exec(dst.get(), "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
  dst.reset();
  if (verdict != "ok") {
    fs::remove(partial, ec);
    return "the copy fails PRAGMA integrity_check: " + verdict;
  }
  fs::remove(partial + "-wal", ec);
  fs::remove(partial + "-shm", ec);
  fs::rename(partial, out, ec);
  if (ec) return "cannot rename " + partial + " to " + out + ": " + ec.message();
  return std::nullopt;
}

}  // namespace casa::server
