// SPDX-License-Identifier: AGPL-3.0-or-later
// The PostgreSQL side of Db (server/store/store.h), over libpq.
//
//  * A statement's `?` and `?N` placeholders become `$N` once, when it is first
//    prepared; it then runs as a named prepared statement (PQprepare once,
//    PQexecPrepared on every run).
//  * Values travel as text: integers in decimal, doubles with 17 significant
//    digits (the exact double back), and results are read with
//    extra_float_digits = 3, so a double stored and read again is the same double.
//  * Every session runs with synchronous_commit = on: COMMIT returns only once
//    the commit record is flushed to the server's disk (docs/server.md).
//  * A connection that breaks stays broken until recover() (called by the store
//    outside any transaction) connects again; prepared statements then prepare
//    themselves again on their next run. Nothing reconnects in the middle of a
//    transaction, so the half of one never lands on its own.
#include <libpq-fe.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "server/store/pg.h"
#include "server/store/store.h"

namespace casa::server {

namespace {

std::string message_of(PGconn* conn) {
  std::string msg = conn ? PQerrorMessage(conn) : "out of memory";
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  return msg;
}

struct Result {
  PGresult* r = nullptr;
  Result() = default;
  explicit Result(PGresult* p) : r(p) {}
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&& o) noexcept {
    if (this != &o) {
      PQclear(r);
      r = o.r;
      o.r = nullptr;
    }
    return *this;
  }
  ~Result() { PQclear(r); }
  bool ok() const {
    const auto st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
  }
};

// SQLite's placeholders in PostgreSQL's spelling: `?N` is $N and a bare `?` is
// one more than the largest number given so far. Quoted text is left alone.
std::string rewrite_placeholders(const std::string& sql, int& count) {
  std::string out;
  out.reserve(sql.size() + 8);
  int largest = 0;
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote) {
      out += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      continue;
    }
    if (c != '?') {
      out += c;
      continue;
    }
    std::size_t j = i + 1;
    int n = 0;
    while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
    if (j == i + 1) n = largest + 1;
    largest = std::max(largest, n);
    out += '$';
    out += std::to_string(n);
    i = j - 1;
  }
  count = largest;
  return out;
}

class PgDb;

// The server ended the session (57P01 admin_shutdown and its kin) or the
// connection failed (class 08), rather than the statement.
bool connection_gone(const Result& r) {
  if (!r.r) return true;
  const char* state = PQresultErrorField(r.r, PG_DIAG_SQLSTATE);
  if (!state) return true;  // no answer from the server at all
  return std::strncmp(state, "57P", 3) == 0 || std::strncmp(state, "08", 2) == 0;
}

class PgStmt final : public Db::Stmt {
 public:
  PgStmt(PgDb& db, std::string sql, std::string name, int params)
      : db_(db), sql_(std::move(sql)), name_(std::move(name)), values_(static_cast<std::size_t>(params)) {}

  Stmt& bind(int index, std::int64_t v) override { return set(index, std::to_string(v)); }
  Stmt& bind(int index, const std::string& v) override {
    if (v.empty()) return set(index, std::nullopt);
    return set(index, v);
  }
  Stmt& bind_text(int index, const std::string& v) override { return set(index, v); }
  Stmt& bind_real(int index, double v) override {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return set(index, std::string(buf));
  }
  bool step() override;
  void run() override {
    while (step()) {
    }
    result_ = Result();
    executed_ = false;
  }
  std::int64_t int_at(int col) const override {
    if (null_at(col)) return 0;
    const char* v = PQgetvalue(result_.r, row_, col);
    if (v[0] == 't' && v[1] == 0) return 1;  // a boolean
    if (v[0] == 'f' && v[1] == 0) return 0;
    return std::strtoll(v, nullptr, 10);
  }
  std::string text_at(int col) const override {
    if (null_at(col)) return {};
    return std::string(PQgetvalue(result_.r, row_, col),
                       static_cast<std::size_t>(PQgetlength(result_.r, row_, col)));
  }
  double real_at(int col) const override {
    if (null_at(col)) return 0;
    return std::strtod(PQgetvalue(result_.r, row_, col), nullptr);
  }
  bool null_at(int col) const override {
    return !result_.r || row_ < 0 || row_ >= PQntuples(result_.r) || col >= PQnfields(result_.r) ||
           PQgetisnull(result_.r, row_, col);
  }

  // Prepares the statement on the current connection (again after a reconnect).
  void prepare_on(PGconn* conn, std::uint64_t generation);

  void reset() override {
    result_ = Result();
    executed_ = false;
    for (auto& v : values_) v.reset();
  }

 private:
  Stmt& set(int index, std::optional<std::string> v) {
    if (index < 1 || index > static_cast<int>(values_.size())) {
      throw std::runtime_error("bind index " + std::to_string(index) + " out of range in " + sql_);
    }
    values_[static_cast<std::size_t>(index - 1)] = std::move(v);
    return *this;
  }

  PgDb& db_;
  std::string sql_;   // with $N placeholders
  std::string name_;  // the server-side name
  std::vector<std::optional<std::string>> values_;
  std::uint64_t prepared_generation_ = 0;  // the connection it was prepared on
  Result result_;
  bool executed_ = false;
  int row_ = -1;
};

class PgDb final : public Db::Backend {
 public:
  PgDb(std::string url, bool read_only) : url_(std::move(url)), read_only_(read_only) {
    if (!connect()) throw std::runtime_error("cannot open database " + redacted() + ": " + last_error_);
  }
  ~PgDb() override {
    if (conn_) PQfinish(conn_);
  }

  void exec(const std::string& sql) override {
    if (broken()) throw std::runtime_error("sql failed: the connection to the database was lost");
    Result r(PQexec(conn_, sql.c_str()));
    if (!r.ok()) fail_on(r, "sql failed");
  }

  bool postgres() const override { return true; }
  bool broken() const override { return !conn_ || PQstatus(conn_) != CONNECTION_OK; }

  // Drops the connection and opens a new one.
  bool reconnect() { return connect(); }

  bool recover() override {
    // A connection the server ended (a restart, pg_terminate_backend) says so
    // on its socket: read that without blocking before trusting it.
    if (!broken() && PQconsumeInput(conn_) == 1 && !broken()) return true;
    return connect();
  }

  PGconn* conn() const { return conn_; }
  std::uint64_t generation() const { return generation_; }

  [[noreturn]] void fail_on(const Result& r, const std::string& what) const {
    std::string msg = r.r ? PQresultErrorMessage(r.r) : "";
    if (msg.empty()) msg = message_of(conn_);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    throw std::runtime_error(what + ": " + msg);
  }

  std::unique_ptr<Db::Stmt> compile(const std::string& sql) override {
    int params = 0;
    std::string pg_sql = rewrite_placeholders(sql, params);
    auto stmt = std::make_unique<PgStmt>(*this, std::move(pg_sql), "casa_" + std::to_string(++named_),
                                         params);
    if (broken()) throw std::runtime_error("prepare " + sql + ": the connection to the database was lost");
    // As in PgStmt::step: outside a transaction, a connection the server ended
    // is replaced once.
    const bool idle = PQtransactionStatus(conn_) == PQTRANS_IDLE;
    try {
      stmt->prepare_on(conn_, generation_);
    } catch (const std::runtime_error&) {
      if (!idle || !broken() || !reconnect()) throw;
      stmt->prepare_on(conn_, generation_);
    }
    return stmt;
  }

 private:
  // A fresh session: the previous connection's prepared statements are gone,
  // so each statement prepares itself again on its next run.
  bool connect() {
    if (conn_) PQfinish(conn_);
    conn_ = nullptr;
    // Bounded waits on a silent network, and a transaction the server ends
    // when this client falls silent in it (cluster_pg.h, pg_connect).
    conn_ = pg_connect(url_);
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
      last_error_ = message_of(conn_);
      return false;
    }
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    // synchronous_commit: COMMIT returns once the commit record is on the
    // server's disk (and on synchronous standbys, when configured).
    // extra_float_digits: doubles read back exactly.
    std::string setup =
        "SET synchronous_commit = on; SET extra_float_digits = 3; "
        "SET client_min_messages = warning; SET TIME ZONE 'UTC'; " +
        std::string(kPgSessionSetup);
    if (read_only_) setup += "; SET default_transaction_read_only = on";
    Result r(PQexec(conn_, setup.c_str()));
    if (!r.ok()) {
      last_error_ = r.r ? PQresultErrorMessage(r.r) : message_of(conn_);
      PQfinish(conn_);
      conn_ = nullptr;
      return false;
    }
    ++generation_;
    return true;
  }

  std::string redacted() const { return Db::redacted(url_); }

  std::string url_;
  bool read_only_;
  PGconn* conn_ = nullptr;
  std::uint64_t generation_ = 0;
  std::uint64_t named_ = 0;
  std::string last_error_;
};

void PgStmt::prepare_on(PGconn* conn, std::uint64_t generation) {
  Result r(PQprepare(conn, name_.c_str(), sql_.c_str(), static_cast<int>(values_.size()), nullptr));
  if (!r.ok()) db_.fail_on(r, "prepare " + sql_);
  prepared_generation_ = generation;
}

bool PgStmt::step() {
  if (!executed_) {
    if (db_.broken()) throw std::runtime_error("sql step failed: the connection to the database was lost");
    std::vector<const char*> ptrs(values_.size());
    for (std::size_t i = 0; i < values_.size(); ++i) ptrs[i] = values_[i] ? values_[i]->c_str() : nullptr;
    // Outside a transaction, a statement that finds its connection ended by the
    // server (a restart, pg_terminate_backend) runs once more on a new one:
    // it is a read or a BEGIN (every write of the store runs inside BEGIN), so
    // running it again is safe. Inside a transaction nothing is run again.
    const bool idle = PQtransactionStatus(db_.conn()) == PQTRANS_IDLE;
    for (int attempt = 0;; ++attempt) {
      if (prepared_generation_ != db_.generation()) prepare_on(db_.conn(), db_.generation());
      result_ = Result(PQexecPrepared(db_.conn(), name_.c_str(), static_cast<int>(ptrs.size()),
                                      ptrs.data(), nullptr, nullptr, 0));
      if (result_.ok() || !idle || attempt > 0 || !connection_gone(result_) || !db_.reconnect()) break;
    }
    executed_ = true;
    row_ = -1;
    if (!result_.ok()) {
      Result failed;
      failed = std::move(result_);
      executed_ = false;
      db_.fail_on(failed, "sql step failed");
    }
    // COMMIT of a transaction that failed earlier answers ROLLBACK: that is a
    // failure too, never a commit.
    if (std::strcmp(PQcmdStatus(result_.r), "ROLLBACK") == 0 && sql_.rfind("COMMIT", 0) == 0) {
      result_ = Result();
      executed_ = false;
      throw std::runtime_error("sql step failed: the transaction was rolled back");
    }
  }
  if (!result_.r) return false;
  ++row_;
  return row_ < PQntuples(result_.r);
}

}  // namespace

std::string Db::redacted(const std::string& where) {
  if (!is_postgres_url(where)) return where;
  const auto scheme = where.find("://") + 3;
  const auto at = where.find('@', scheme);
  if (at == std::string::npos) return where;
  const auto colon = where.find(':', scheme);
  if (colon == std::string::npos || colon > at) return where;
  return where.substr(0, colon) + ":***" + where.substr(at);
}

std::unique_ptr<Db::Backend> open_postgres(const std::string& url, bool read_only) {
  return std::make_unique<PgDb>(url, read_only);
}

}  // namespace casa::server
