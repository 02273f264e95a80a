// SPDX-License-Identifier: AGPL-3.0-or-later
#include "tests/powercut/powercut_vfs.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <functional>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace casa::powercut {
namespace {

// One undo journal per file path, shared by every handle open on that path
// (an fsync covers the file, whichever handle made it).
struct Journal {
  int fd = -1;
  int users = 0;
  std::mutex mutex;
};

std::mutex journals_mutex;
std::map<std::string, std::unique_ptr<Journal>> journals;

std::atomic<std::uint64_t> syncs[2];
std::atomic<std::uint64_t> writes[2];
std::atomic<std::uint64_t> locks{0};
std::atomic<int> failing_syncs[2];
std::mutex gates_mutex;
std::function<void()> sync_gates[2];

// An entry: what to put back to undo one write or truncate.
struct EntryHead {
  std::uint64_t magic;
  std::uint64_t offset;    // where the replaced bytes start
  std::uint64_t length;    // how many bytes follow the head
  std::uint64_t old_size;  // the file's size before the change
};
constexpr std::uint64_t kMagic = 0x43415341'554e444fULL;  // "CASAUNDO"

std::string journal_path(const std::string& path) { return path + "-undo"; }

Journal* open_journal(const std::string& path) {
  std::lock_guard lock(journals_mutex);
  auto& j = journals[path];
  if (!j) {
    j = std::make_unique<Journal>();
    j->fd = ::open(journal_path(path).c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  ++j->users;
  return j.get();
}

void close_journal(const std::string& path) {
  std::lock_guard lock(journals_mutex);
  auto it = journals.find(path);
  if (it == journals.end()) return;
  if (--it->second->users > 0) return;
  if (it->second->fd >= 0) ::close(it->second->fd);
  journals.erase(it);
}

bool write_all(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

struct File {
  sqlite3_file base;
  sqlite3_file* real;
  Journal* journal;  // null: not a file whose durability is modelled
  int kind;          // FileKind, for main db and WAL; -1 otherwise
  std::string* path;
};

sqlite3_vfs* real_vfs = nullptr;
sqlite3_vfs powercut_vfs;
sqlite3_io_methods methods;

File* as_file(sqlite3_file* f) { return reinterpret_cast<File*>(f); }

// Saves the bytes [offset, offset + length) the file holds now (clipped to its
// size) and its size, before they are replaced.
int remember(File* f, sqlite3_int64 offset, sqlite3_int64 length) {
  sqlite3_int64 size = 0;
  int rc = f->real->pMethods->xFileSize(f->real, &size);
  if (rc != SQLITE_OK) return rc;
  const sqlite3_int64 kept = std::max<sqlite3_int64>(0, std::min(length, size - offset));
  std::vector<char> entry(sizeof(EntryHead) + static_cast<std::size_t>(kept));
  EntryHead head{kMagic, static_cast<std::uint64_t>(offset), static_cast<std::uint64_t>(kept),
                 static_cast<std::uint64_t>(size)};
  std::memcpy(entry.data(), &head, sizeof head);
  if (kept > 0) {
    rc = f->real->pMethods->xRead(f->real, entry.data() + sizeof head, static_cast<int>(kept),
                                  offset);
    if (rc != SQLITE_OK) return rc;
  }
  return write_all(f->journal->fd, entry.data(), entry.size()) ? SQLITE_OK : SQLITE_IOERR_WRITE;
}

int x_close(sqlite3_file* pf) {
  File* f = as_file(pf);
  const int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
  if (f->journal) close_journal(*f->path);
  delete f->path;
  f->path = nullptr;
  return rc;
}
int x_read(sqlite3_file* pf, void* buf, int amt, sqlite3_int64 off) {
  File* f = as_file(pf);
  return f->real->pMethods->xRead(f->real, buf, amt, off);
}
int x_write(sqlite3_file* pf, const void* buf, int amt, sqlite3_int64 off) {
  File* f = as_file(pf);
  if (f->kind >= 0) ++writes[f->kind];
  if (f->journal) {
    std::lock_guard lock(f->journal->mutex);
    if (const int rc = remember(f, off, amt); rc != SQLITE_OK) return rc;
    return f->real->pMethods->xWrite(f->real, buf, amt, off);
  }
  return f->real->pMethods->xWrite(f->real, buf, amt, off);
}
int x_truncate(sqlite3_file* pf, sqlite3_int64 size) {
  File* f = as_file(pf);
  if (f->journal) {
    std::lock_guard lock(f->journal->mutex);
    if (const int rc = remember(f, size, INT64_MAX / 2); rc != SQLITE_OK) return rc;
    return f->real->pMethods->xTruncate(f->real, size);
  }
  return f->real->pMethods->xTruncate(f->real, size);
}
int x_sync(sqlite3_file* pf, int flags) {
  File* f = as_file(pf);
  if (f->kind >= 0) {
    std::function<void()> gate;
    {
      std::lock_guard lock(gates_mutex);
      gate = sync_gates[f->kind];
    }
    if (gate) gate();
  }
  if (!f->journal) return f->real->pMethods->xSync(f->real, flags);
  std::lock_guard lock(f->journal->mutex);
  const int rc = f->real->pMethods->xSync(f->real, flags);
  if (rc != SQLITE_OK) return rc;
  // Everything written so far is on disk: nothing left to undo.
  if (::ftruncate(f->journal->fd, 0) != 0) return SQLITE_IOERR_FSYNC;
  if (f->kind >= 0) {
    ++syncs[f->kind];
    int n = failing_syncs[f->kind].load();
    while (n > 0 && !failing_syncs[f->kind].compare_exchange_weak(n, n - 1)) {
    }
    if (n > 0) return SQLITE_IOERR_FSYNC;
  }
  return SQLITE_OK;
}
int x_file_size(sqlite3_file* pf, sqlite3_int64* size) {
  File* f = as_file(pf);
  return f->real->pMethods->xFileSize(f->real, size);
}
int x_lock(sqlite3_file* pf, int level) {
  return as_file(pf)->real->pMethods->xLock(as_file(pf)->real, level);
}
int x_unlock(sqlite3_file* pf, int level) {
  return as_file(pf)->real->pMethods->xUnlock(as_file(pf)->real, level);
}
int x_check_reserved_lock(sqlite3_file* pf, int* out) {
  return as_file(pf)->real->pMethods->xCheckReservedLock(as_file(pf)->real, out);
}
int x_file_control(sqlite3_file* pf, int op, void* arg) {
  return as_file(pf)->real->pMethods->xFileControl(as_file(pf)->real, op, arg);
}
int x_sector_size(sqlite3_file* pf) {
  return as_file(pf)->real->pMethods->xSectorSize(as_file(pf)->real);
}
int x_device_characteristics(sqlite3_file* pf) {
  return as_file(pf)->real->pMethods->xDeviceCharacteristics(as_file(pf)->real);
}
int x_shm_map(sqlite3_file* pf, int page, int size, int extend, void volatile** out) {
  return as_file(pf)->real->pMethods->xShmMap(as_file(pf)->real, page, size, extend, out);
}
int x_shm_lock(sqlite3_file* pf, int offset, int n, int flags) {
  return as_file(pf)->real->pMethods->xShmLock(as_file(pf)->real, offset, n, flags);
}
void x_shm_barrier(sqlite3_file* pf) {
  as_file(pf)->real->pMethods->xShmBarrier(as_file(pf)->real);
}
int x_shm_unmap(sqlite3_file* pf, int del) {
  return as_file(pf)->real->pMethods->xShmUnmap(as_file(pf)->real, del);
}
// No memory-mapped I/O: every byte goes through x_read and x_write.
int x_fetch(sqlite3_file*, sqlite3_int64, int, void** out) {
  *out = nullptr;
  return SQLITE_OK;
}
int x_unfetch(sqlite3_file*, sqlite3_int64, void*) { return SQLITE_OK; }

int x_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* pf, int flags, int* out_flags) {
  File* f = as_file(pf);
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  f->journal = nullptr;
  f->kind = -1;
  f->path = nullptr;
  f->base.pMethods = nullptr;
  const int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK || !f->real->pMethods) return rc;
  f->path = new std::string(name ? name : "");
  if (name && (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL))) {
    f->journal = open_journal(*f->path);
    if (f->journal->fd < 0) {
      close_journal(*f->path);
      f->journal = nullptr;
      f->real->pMethods->xClose(f->real);
      delete f->path;
      return SQLITE_CANTOPEN;
    }
    if (flags & SQLITE_OPEN_MAIN_DB) f->kind = static_cast<int>(FileKind::main_db);
    if (flags & SQLITE_OPEN_WAL) f->kind = static_cast<int>(FileKind::wal);
  }
  f->base.pMethods = &methods;
  return SQLITE_OK;
}

int x_delete(sqlite3_vfs*, const char* name, int sync_dir) {
  const int rc = real_vfs->xDelete(real_vfs, name, sync_dir);
  if (rc == SQLITE_OK) ::unlink(journal_path(name).c_str());
  return rc;
}
int x_access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return real_vfs->xAccess(real_vfs, name, flags, out);
}
int x_full_pathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return real_vfs->xFullPathname(real_vfs, name, n, out);
}

// SQLite's unix VFS makes its system calls through a table a test may
// change: fcntl is wrapped to count the file-lock calls that reach the kernel.
sqlite3_syscall_ptr real_fcntl = nullptr;
int counting_fcntl(int fd, int cmd, ...) {
  va_list args;
  va_start(args, cmd);
  void* arg = va_arg(args, void*);
  va_end(args);
  if (cmd == F_SETLK || cmd == F_SETLKW || cmd == F_GETLK) ++locks;
  return reinterpret_cast<int (*)(int, int, ...)>(real_fcntl)(fd, cmd, arg);
}

}  // namespace

bool register_vfs(bool make_default) {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    // Over unix-excl where the default is unix, as the store itself would
    // open its file (server/store/store.cpp, store_base_vfs).
    real_vfs = sqlite3_vfs_find(nullptr);
    if (real_vfs && std::string(real_vfs->zName) == "unix") {
      if (sqlite3_vfs* excl = sqlite3_vfs_find("unix-excl")) real_vfs = excl;
    }
    if (!real_vfs) return;
    if (real_vfs->iVersion >= 3 && real_vfs->xGetSystemCall && real_vfs->xSetSystemCall) {
      real_fcntl = real_vfs->xGetSystemCall(real_vfs, "fcntl");
      if (real_fcntl) {
        real_vfs->xSetSystemCall(real_vfs, "fcntl", reinterpret_cast<sqlite3_syscall_ptr>(counting_fcntl));
      }
    }
    powercut_vfs = *real_vfs;
    powercut_vfs.zName = "powercut";
    powercut_vfs.szOsFile = static_cast<int>(sizeof(File)) + real_vfs->szOsFile;
    powercut_vfs.pAppData = nullptr;
    powercut_vfs.pNext = nullptr;
    powercut_vfs.xOpen = x_open;
    powercut_vfs.xDelete = x_delete;
    powercut_vfs.xAccess = x_access;
    powercut_vfs.xFullPathname = x_full_pathname;
    methods = {};
    methods.iVersion = 3;
    methods.xClose = x_close;
    methods.xRead = x_read;
    methods.xWrite = x_write;
    methods.xTruncate = x_truncate;
    methods.xSync = x_sync;
    methods.xFileSize = x_file_size;
    methods.xLock = x_lock;
    methods.xUnlock = x_unlock;
    methods.xCheckReservedLock = x_check_reserved_lock;
    methods.xFileControl = x_file_control;
    methods.xSectorSize = x_sector_size;
    methods.xDeviceCharacteristics = x_device_characteristics;
    methods.xShmMap = x_shm_map;
    methods.xShmLock = x_shm_lock;
    methods.xShmBarrier = x_shm_barrier;
    methods.xShmUnmap = x_shm_unmap;
    methods.xFetch = x_fetch;
    methods.xUnfetch = x_unfetch;
    ok = true;
  });
  if (!ok) return false;
  return sqlite3_vfs_register(&powercut_vfs, make_default ? 1 : 0) == SQLITE_OK;
}

std::uint64_t sync_count(FileKind kind) { return syncs[static_cast<int>(kind)].load(); }

std::uint64_t write_count(FileKind kind) { return writes[static_cast<int>(kind)].load(); }

std::uint64_t lock_count() { return locks.load(); }

void set_sync_gate(FileKind kind, std::function<void()> gate) {
  std::lock_guard lock(gates_mutex);
  sync_gates[static_cast<int>(kind)] = std::move(gate);
}

void fail_next_syncs(FileKind kind, int n) { failing_syncs[static_cast<int>(kind)] = n; }

long restore_synced_image(const std::string& path) {
  const std::string undo = journal_path(path);
  const int jfd = ::open(undo.c_str(), O_RDONLY | O_CLOEXEC);
  if (jfd < 0) return errno == ENOENT ? 0 : -1;
  std::vector<char> bytes;
  char chunk[65536];
  for (;;) {
    const ssize_t r = ::read(jfd, chunk, sizeof chunk);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      ::close(jfd);
      return -1;
    }
    if (r == 0) break;
    bytes.insert(bytes.end(), chunk, chunk + r);
  }
  ::close(jfd);
  struct Entry {
    EntryHead head;
    std::size_t data;
  };
  std::vector<Entry> entries;
  std::size_t at = 0;
  while (at + sizeof(EntryHead) <= bytes.size()) {
    EntryHead head;
    std::memcpy(&head, bytes.data() + at, sizeof head);
    // A torn last entry: the kill came while it was being written, so the
    // write it guards never started.
    if (head.magic != kMagic || at + sizeof head + head.length > bytes.size()) break;
    entries.push_back({head, at + sizeof head});
    at += sizeof head + head.length;
  }
  long undone = 0;
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) return -1;
  } else {
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      if (::ftruncate(fd, static_cast<off_t>(it->head.old_size)) != 0) {
        ::close(fd);
        return -1;
      }
      std::size_t done = 0;
      while (done < it->head.length) {
        const ssize_t w = ::pwrite(fd, bytes.data() + it->data + done, it->head.length - done,
                                   static_cast<off_t>(it->head.offset + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          ::close(fd);
          return -1;
        }
        done += static_cast<std::size_t>(w);
      }
      ++undone;
    }
    ::fsync(fd);
    ::close(fd);
  }
  ::unlink(undo.c_str());
  return undone;
}

long power_cut(const std::string& db_path) {
  const long db = restore_synced_image(db_path);
  const long wal = restore_synced_image(db_path + "-wal");
  const long journal = restore_synced_image(db_path + "-journal");
  ::unlink((db_path + "-shm").c_str());
  if (db < 0 || wal < 0 || journal < 0) return -1;
  return db + wal + journal;
}

}  // namespace casa::powercut
