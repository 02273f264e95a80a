// SPDX-License-Identifier: AGPL-3.0-or-later
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

// Opens a libpq session as every PostgreSQL connection of the server does (the
// store's and the cluster's): `conninfo`'s own settings win over these defaults,
// which bound how long a silent network can keep a call waiting. A peer whose
// packets are dropped (a partition, a pulled cable) sends no RST: without them a
// call would wait for the kernel's retransmissions, a quarter of an hour.
//  * connect_timeout 5 s: a connect whose SYN goes unanswered;
//  * tcp_user_timeout 5 s: data sent and not acknowledged (a query, a COMMIT);
//  * keepalives after 2 s idle, every 1 s, 3 lost: a connection waiting for an
//    answer, or listening, that the other end can no longer reach.
// Then the server's side of the session: keepalives alike for the backend, and
// idle_in_transaction_session_timeout 5 s, so that a transaction whose client
// fell silent is ended by the server and lets go of its row locks (a fenced
// write's lock on a lease row would otherwise keep every node from claiming
// that table until the server's own keepalive, two hours, found the client gone).
// Returns the connection (check PQstatus); nullptr only when out of memory.
pg_conn* pg_connect(const std::string& conninfo);
// The statement that sets the server's side of a session up (run by pg_connect's
// callers once connected).
extern const char* const kPgSessionSetup;

// `s` quoted as an SQL identifier (for LISTEN, which takes no parameter).
std::string pg_quote_ident(const std::string& s);

}  // namespace casa::server
