// SPDX-License-Identifier: AGPL-3.0-or-later
// Online backup of the SQLite database (docs/operations.md#backup-and-restore):
// SQLite's backup API copies the database into a new file beside a running
// server. The server's store holds its database file for itself (server/store/store.h),
// so a running server makes the copy through its own connection: it answers on
// a Unix socket beside the database (`<db>-backup.sock`, owner only), which
// `casa-server backup` finds; with no server running, the file is copied
// directly.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>

struct sqlite3;

namespace casa::server {

// Copies the database at `source` into the new file `out` (which must not
// exist): first into `out`.partial, checked with PRAGMA integrity_check, then
// renamed, so `out` is only ever a whole, checked copy. Asks the server running
// on `source` when there is one. Returns an error sentence, or nullopt. A
// PostgreSQL URL is refused with a sentence naming pg_dump: that database is
// backed up with PostgreSQL's own tools.
std::optional<std::string> backup_database(const std::string& source, const std::string& out);

// The same from an open connection: `lock` is held during each step of the
// copy (a few pages), so the connection's owner goes on between steps; its
// commits meanwhile are copied too (the copy is the database as of its end).
std::optional<std::string> backup_connection(sqlite3* source, std::mutex& lock, const std::string& out);

// The socket a server running on the database `db` answers backups on.
std::string backup_socket_path(const std::string& db);
// Listens there (replacing a socket a dead server left), owner only. Returns
// the listening descriptor, or -1 (logged) when it cannot.
int listen_for_backups(const std::string& socket_path);
// One request on an accepted connection: reads the output path, runs
// `backup(path)`, answers "ok" or "error: ...", closes the connection.
void answer_backup(int connection, const std::function<std::optional<std::string>(const std::string&)>& backup);

}  // namespace casa::server
