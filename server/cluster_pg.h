// A plain libpq connection for cluster coordination (docs/cluster.md): leases,
// node heartbeats and LISTEN/NOTIFY. It is deliberately not the store's Db: the
// bus must keep its own connection (its socket is watched for notifications) and
// lease renewals must not wait behind the store's group commit.
//
// Not thread-safe: one owner at a time. Errors throw std::runtime_error with
// libpq's message.
#pragma once

#include <optional>
#include <string>
#include <vector>

struct pg_conn;

namespace casa::server {

using PgRow = std::vector<std::optional<std::string>>;

class PgConn {
 public:
  // `conninfo`: a postgres:// or postgresql:// URI or a key=value string.
  explicit PgConn(const std::string& conninfo);
  ~PgConn();
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;

  // Runs one statement with $1.. text parameters; returns its rows (columns as
  // text, nullopt for NULL).
  std::vector<PgRow> exec(const std::string& sql, const std::vector<std::string>& params = {});
  // The connection's socket (to watch for notifications).
  int socket() const;
  // Reads what arrived on the socket; false when the connection is broken.
  bool consume();
  // The next notification read by consume(): {channel, payload}.
  std::optional<std::pair<std::string, std::string>> next_notification();
  bool ok() const;

 private:
  pg_conn* conn_ = nullptr;
};

// `s` quoted as an SQL identifier (for LISTEN, which takes no parameter).
std::string pg_quote_ident(const std::string& s);

}  // namespace casa::server
