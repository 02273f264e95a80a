// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/pg.h"

#include <libpq-fe.h>

#include <memory>
#include <stdexcept>

namespace casa::server {

const char* const kPgSessionSetup =
    "SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3; "
    "SET idle_in_transaction_session_timeout = '5s'";

pg_conn* pg_connect(const std::string& conninfo) {
  // Defaults first: the conninfo's own settings (expand_dbname) come later and win.
  const char* keys[] = {"connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval",
                        "keepalives_count", "tcp_user_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {"5", "1", "2", "1", "3", "5000", "casa-server", conninfo.c_str(), nullptr};
  return PQconnectdbParams(keys, values, 1);
}

PgConn::PgConn(const std::string& conninfo) : conn_(pg_connect(conninfo)) {
  if (conn_ == nullptr) throw std::runtime_error("postgres: out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string why = PQerrorMessage(conn_);
    PQfinish(conn_);
    conn_ = nullptr;
    throw std::runtime_error("postgres: cannot connect: " + why);
  }
  // Coordination must see the committed state at once and commit for good.
  exec("SET synchronous_commit = on");
  exec("SET client_min_messages = warning");
  std::unique_ptr<PGresult, decltype(&PQclear)> setup(PQexec(conn_, kPgSessionSetup), &PQclear);
  if (!setup || PQresultStatus(setup.get()) != PGRES_COMMAND_OK) {
    std::string why = PQerrorMessage(conn_);
    PQfinish(conn_);
    conn_ = nullptr;
    throw std::runtime_error("postgres: cannot set the session up: " + why);
  }
}

PgConn::~PgConn() {
  if (conn_ != nullptr) PQfinish(conn_);
}

std::vector<PgRow> PgConn::exec(const std::string& sql, const std::vector<std::string>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  std::unique_ptr<PGresult, decltype(&PQclear)> res(
      PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                   nullptr, 0),
      &PQclear);
  const auto status = res ? PQresultStatus(res.get()) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw std::runtime_error("postgres: " + std::string(PQerrorMessage(conn_)));
  }
  std::vector<PgRow> rows;
  const int n = PQntuples(res.get());
  const int cols = PQnfields(res.get());
  rows.reserve(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    PgRow row;
    row.reserve(static_cast<std::size_t>(cols));
    for (int c = 0; c < cols; ++c) {
      if (PQgetisnull(res.get(), r, c)) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(std::string(PQgetvalue(res.get(), r, c), static_cast<std::size_t>(PQgetlength(res.get(), r, c))));
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

int PgConn::socket() const { return PQsocket(conn_); }

bool PgConn::consume() { return PQconsumeInput(conn_) == 1 && PQstatus(conn_) == CONNECTION_OK; }

std::optional<std::pair<std::string, std::string>> PgConn::next_notification() {
  PGnotify* n = PQnotifies(conn_);
  if (n == nullptr) return std::nullopt;
  std::pair<std::string, std::string> out{n->relname, n->extra};
  PQfreemem(n);
  return out;
}

bool PgConn::ok() const { return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK; }

std::string pg_quote_ident(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

}  // namespace casa::server
