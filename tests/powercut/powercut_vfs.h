// SPDX-License-Identifier: AGPL-3.0-or-later
// The power-cut VFS: a SQLite VFS that wraps the default one (unix-excl, as the
// store opens its file, where the default is unix) and keeps,
// for the main database and WAL files, an undo journal of every write that no
// xSync of that file has covered yet. It models what a power cut can leave: a
// write is on disk once an fsync of its file returned; before that the kernel
// may lose it, and the worst case is that it loses all of them.
//
//  * Before each xWrite or xTruncate, the bytes and size about to be replaced
//    are appended to `<file>-undo` (a plain write: it survives kill -9, which
//    does not empty the page cache, and it is written before the change it
//    undoes, so a kill between the two leaves a harmless entry).
//  * A successful xSync of the file empties its undo journal: everything
//    written so far is durable.
//  * After the process was killed, restore_synced_image(path) applies the
//    journal backwards, leaving the file exactly as it was at its last fsync.
//    The caller drops `-shm` (shared memory, never on disk after a power cut).
//
// It also counts xSync and xWrite calls per kind of file (the "one fsync per
// group commit" figure) and lock calls, and can make the next xSync calls fail
// after the data was written, as a disk that reports an error for a write that
// did land (the case that leaves a COMMIT in doubt).
//
// Not modelled: directory entries (file creation and deletion count as
// durable) and torn writes inside a sector.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace casa::powercut {

// Registers the "powercut" VFS, as the default one when make_default.
// Idempotent. Returns false if the default VFS cannot be found.
bool register_vfs(bool make_default);

enum class FileKind { main_db = 0, wal = 1 };

// xSync calls that reached the disk (successful or failed by fail_next_syncs)
// since the start of the process, per kind of file.
std::uint64_t sync_count(FileKind kind);

// xWrite calls on a file of `kind` since the start of the process.
std::uint64_t write_count(FileKind kind);

// File-lock system calls (fcntl F_SETLK, F_SETLKW, F_GETLK) that SQLite's
// unix VFS made since the start of the process.
std::uint64_t lock_count();

// `gate` runs at the start of every xSync of a file of `kind` (on the thread
// that syncs, before the sync), until replaced; an empty one removes it. A
// test holds a sync there to see what goes on meanwhile.
void set_sync_gate(FileKind kind, std::function<void()> gate);

// The next `n` xSync calls on a file of `kind` sync the data, then report
// SQLITE_IOERR_FSYNC.
void fail_next_syncs(FileKind kind, int n);

// Undoes every write to `path` that its undo journal holds (in reverse order)
// and removes the journal. Returns the number of writes undone, or -1 on an
// I/O error. A missing journal undoes nothing.
long restore_synced_image(const std::string& path);

// Restores the database and its WAL and removes the -shm file: what a restart
// after a power cut would find. Returns the writes undone, or -1.
long power_cut(const std::string& db_path);

}  // namespace casa::powercut
