// Online backup of the SQLite database (docs/operations.md#backup-and-restore):
// SQLite's backup API copies the database as of one read transaction, beside a
// running server (WAL lets both go on), into a new file.
#pragma once

#include <optional>
#include <string>

namespace casa::server {

// Copies the database at `source` into the new file `out` (which must not
// exist): first into `out`.partial, checked with PRAGMA integrity_check, then
// renamed, so `out` is only ever a whole, checked copy. Returns an error
// sentence, or nullopt. A PostgreSQL URL is refused with a sentence naming
// pg_dump: that database is backed up with PostgreSQL's own tools.
std::optional<std::string> backup_database(const std::string& source, const std::string& out);

}  // namespace casa::server
