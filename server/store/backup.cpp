// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/backup.h"

#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "server/store/store.h"

namespace casa::server {

namespace fs = std::filesystem;

namespace {

struct Closer {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Handle = std::unique_ptr<sqlite3, Closer>;

std::string message_of(sqlite3* db) { return db ? sqlite3_errmsg(db) : "out of memory"; }

// Pages copied per step of an online copy: the source's owner waits at most
// this long (about 1 MB of pages) between two of its own commits.
constexpr int kPagesPerStep = 256;

bool socket_address(const std::string& path, sockaddr_un& addr) {
  addr = {};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) return false;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return true;
}

bool send_all(int fd, const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const ssize_t n = ::send(fd, text.data() + at, text.size() - at, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads until a newline, the end, or `limit` bytes.
std::string read_line(int fd, std::size_t limit) {
  std::string line;
  char c = 0;
  while (line.size() < limit) {
    const ssize_t n = ::recv(fd, &c, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || c == '\n') break;
    line.push_back(c);
  }
  return line;
}

// The copy through the server running on `source`: nullopt when no server
// answers there (none runs, or it left a stale socket), else its verdict
// ("" for success).
std::optional<std::string> ask_server(const std::string& source, const std::string& out) {
  sockaddr_un addr{};
  if (!socket_address(backup_socket_path(source), addr)) return std::nullopt;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  std::string verdict = "the server did not answer";
  if (send_all(fd, out + "\n")) {
    const std::string answer = read_line(fd, 4096);
    if (answer == "ok") {
      verdict.clear();
    } else if (answer.rfind("error: ", 0) == 0) {
      verdict = answer.substr(7);
    }
  }
  ::close(fd);
  return verdict;
}

std::optional<std::string> check_out(const std::string& out, std::string& partial) {
  std::error_code ec;
  if (fs::exists(out, ec)) return out + " exists already; give a new file";
  partial = out + ".partial";
  fs::remove(partial, ec);
  return std::nullopt;
}

// integrity_check on the copy, then the rename to `out`.
std::optional<std::string> finish_copy(Handle dst, const std::string& partial, const std::string& out) {
  std::error_code ec;
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

Handle open_partial(const std::string& partial, std::string& why) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(partial.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  Handle dst(raw);
  if (rc != SQLITE_OK) {
    why = "cannot create " + partial + ": " + message_of(raw);
    return nullptr;
  }
  return dst;
}

}  // namespace

std::string backup_socket_path(const std::string& db) { return db + "-backup.sock"; }

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
  // The server resolves the path from its own working directory.
  const std::string target = fs::absolute(out, ec).string();
  if (auto verdict = ask_server(source, ec ? out : target)) {
    if (verdict->empty()) return std::nullopt;
    return *verdict;
  }

  std::string partial;
  if (auto err = check_out(out, partial)) return err;
  sqlite3* raw = nullptr;
  // Read-write, not read-only: a reader of a WAL database may need to set up
  // its shared-memory index. Nothing is written to the source.
  int rc = sqlite3_open_v2(source.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr);
  Handle src(raw);
  if (rc != SQLITE_OK) return "cannot open " + source + ": " + message_of(raw);
  sqlite3_busy_timeout(src.get(), 10000);
  std::string why;
  Handle dst = open_partial(partial, why);
  if (!dst) return why;

  // No server runs on the file (it would have answered): one step of every
  // page, the database as of one read transaction.
  sqlite3_backup* backup = sqlite3_backup_init(dst.get(), "main", src.get(), "main");
  if (!backup) {
    why = message_of(dst.get());
    dst.reset();
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
    why = (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
              ? std::string("the database is held by a server that does not answer on ") +
                    backup_socket_path(source)
              : message_of(dst.get());
    dst.reset();
    fs::remove(partial, ec);
    return "the backup failed: " + why;
  }
  return finish_copy(std::move(dst), partial, out);
}

std::optional<std::string> backup_connection(sqlite3* source, std::mutex& lock, const std::string& out) {
  std::string partial;
  if (auto err = check_out(out, partial)) return err;
  std::string why;
  Handle dst = open_partial(partial, why);
  if (!dst) return why;
  std::error_code ec;
  sqlite3_backup* backup = nullptr;
  {
    std::lock_guard hold(lock);
    backup = sqlite3_backup_init(dst.get(), "main", source, "main");
  }
  if (!backup) {
    why = message_of(dst.get());
    dst.reset();
    fs::remove(partial, ec);
    return "cannot start the backup: " + why;
  }
  // A few pages a step; between two steps the connection's owner commits, and
  // SQLite copies the pages those commits change as they are written, so the
  // copy never starts over and ends as the database is at its last step.
  int rc = SQLITE_OK;
  for (;;) {
    {
      std::lock_guard hold(lock);
      rc = sqlite3_backup_step(backup, kPagesPerStep);
    }
    if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
      if (rc != SQLITE_OK) sqlite3_sleep(10);
      continue;
    }
    break;
  }
  int finish = SQLITE_OK;
  {
    std::lock_guard hold(lock);
    finish = sqlite3_backup_finish(backup);
  }
  if (rc != SQLITE_DONE || finish != SQLITE_OK) {
    why = message_of(dst.get());
    dst.reset();
    fs::remove(partial, ec);
    return "the backup failed: " + why;
  }
  return finish_copy(std::move(dst), partial, out);
}

int listen_for_backups(const std::string& socket_path) {
  sockaddr_un addr{};
  if (!socket_address(socket_path, addr)) {
    spdlog::warn("backup: {} is too long a path for a socket; `casa-server backup` cannot reach this server",
                 socket_path);
    return -1;
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  // The store holds the database's lock: a socket found here is a dead server's.
  ::unlink(socket_path.c_str());
  // Only the database's owner may ask for a copy: the socket is created 0600.
  const mode_t old_mask = ::umask(0177);
  const int bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  ::umask(old_mask);
  if (bound != 0 || ::listen(fd, 4) != 0) {
    spdlog::warn("backup: cannot listen on {}: {}; `casa-server backup` cannot reach this server", socket_path,
                 std::strerror(errno));
    ::close(fd);
    return -1;
  }
  return fd;
}

void answer_backup(int connection, const std::function<std::optional<std::string>(const std::string&)>& backup) {
  timeval timeout{10, 0};  // a client that says nothing does not hold the next one up
  ::setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  const std::string out = read_line(connection, 4096);
  std::optional<std::string> err;
  if (out.empty() || out.front() != '/') {
    err = "give the copy's absolute path";
  } else {
    err = backup(out);
  }
  if (err) {
    spdlog::warn("backup to {} failed: {}", out, *err);
  } else {
    spdlog::info("backed up the database to {}", out);
  }
  send_all(connection, err ? "error: " + *err + "\n" : std::string("ok\n"));
  ::close(connection);
}

}  // namespace casa::server
