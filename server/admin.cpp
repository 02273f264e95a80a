// The admin API's work on the lobby and the tables (docs/operations.md#admin-api):
// listing tables, closing one, disconnecting and banning players. The HTTP
// side (the token, the routes) is in server/http.cpp.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <future>

#include "protocol/protocol.h"
#include "server/lobby.h"
#include "server/table.h"

namespace casa::server {

using nlohmann::json;

namespace {

// Runs a write on the store and waits for its commit. Safe on an I/O thread:
// the store's thread never waits for the io_context.
bool write_and_wait(Store& store, Store::Job job) {
  auto promise = std::make_shared<std::promise<bool>>();
  auto future = promise->get_future();
  store.write(std::move(job), [promise](bool ok) { promise->set_value(ok); });
  return future.get();
}

}  // namespace

void Table::admin_close(std::string message) {
  boost::asio::post(strand_, [self = shared_from_this(), message = std::move(message)] {
    self->when_idle([self, message] {
      if (self->status_ == Status::over || self->status_ == Status::closed) return;
      self->close("admin", message);
      // After close()'s own write (status 'closed'), in the same order.
      self->lobby_.store().write(
          [id = self->setup_.id, message](Db& db) {
            db.prepare("UPDATE tables SET closed_reason = ? WHERE id = ?")
                .bind_text(1, message)
                .bind(2, id)
                .run();
          },
          nullptr);
    });
  });
}

void Lobby::load_bans() {
  std::set<std::string> banned;
  store_.read([&](Db& db) {
    auto& q = db.prepare("SELECT player_id FROM bans");
    while (q.step()) banned.insert(q.text_at(0));
  });
  std::lock_guard lock(mutex_);
  banned_ = std::move(banned);
}

bool Lobby::is_banned(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  return banned_.count(player_id) > 0;
}

json Lobby::admin_tables() {
  std::vector<std::shared_ptr<Table>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, t] : tables_) all.push_back(t);
  }
  json list = json::array();
  for (const auto& t : all) {
    json row = t->summary();
    row["invite"] = t->setup().invite;
    row["creator"] = t->setup().creator;
    // Run by this process: with several nodes, each lists its own.
    row["local"] = true;
    list.push_back(std::move(row));
  }
  return {{"tables", std::move(list)}};
}

json Lobby::admin_close_table(const std::string& table, const std::string& reason, int& status) {
  std::shared_ptr<Table> t;
  {
    std::lock_guard lock(mutex_);
    if (auto it = tables_.find(table); it != tables_.end()) t = it->second;
  }
  if (!t) {
    status = 404;
    return {{"error", "no_such_table"}};
  }
  const std::string state = t->summary().value("status", "");
  if (state == "over" || state == "closed") {
    status = 409;
    return {{"error", "already_finished"}, {"status", state}};
  }
  spdlog::warn("admin: closing table {}: {}", table, reason);
  t->admin_close(reason);
  status = 202;  // closed on the table's strand, right after any move being committed
  return {{"table", table}, {"closing", true}, {"reason", reason}};
}

json Lobby::admin_disconnect(const std::string& player_id, int& status) {
  std::shared_ptr<Client> c;
  {
    std::lock_guard lock(mutex_);
    auto it = players_.find(player_id);
    if (it == players_.end()) {
      status = 404;
      return {{"error", "no_such_player"}};
    }
    c = it->second.connection.lock();
  }
  if (c) {
    spdlog::warn("admin: disconnecting player {}", player_id);
    c->close();
  }
  status = 200;
  return {{"player_id", player_id}, {"disconnected", c != nullptr}};
}

json Lobby::admin_ban(const std::string& player_id, const std::string& reason, int& status) {
  if (!known_player(player_id)) {
    status = 404;
    return {{"error", "no_such_player"}};
  }
  const std::int64_t at = Store::now();
  const bool ok = write_and_wait(store_, [player_id, reason, at](Db& db) {
    db.prepare(
          "INSERT INTO bans (player_id, reason, banned_at) VALUES (?, ?, ?) "
          "ON CONFLICT (player_id) DO UPDATE SET reason = excluded.reason, banned_at = "
          "excluded.banned_at")
        .bind_text(1, player_id)
        .bind_text(2, reason)
        .bind(3, at)
        .run();
  });
  if (!ok) {
    status = 503;
    return {{"error", "storage_unavailable"}};
  }
  std::shared_ptr<Client> c;
  {
    std::lock_guard lock(mutex_);
    banned_.insert(player_id);
    c = players_[player_id].connection.lock();
  }
  spdlog::warn("admin: banned player {}: {}", player_id, reason);
  if (c) {
    c->send(protocol::error({"banned", "This player is banned from this server."}, std::nullopt));
    c->close();
  }
  status = 200;
  return {{"player_id", player_id}, {"banned", true}, {"reason", reason}, {"banned_at", at}};
}

json Lobby::admin_unban(const std::string& player_id, int& status) {
  if (!is_banned(player_id)) {
    status = 404;
    return {{"error", "not_banned"}};
  }
  const bool ok = write_and_wait(store_, [player_id](Db& db) {
    db.prepare("DELETE FROM bans WHERE player_id = ?").bind_text(1, player_id).run();
  });
  if (!ok) {
    status = 503;
    return {{"error", "storage_unavailable"}};
  }
  {
    std::lock_guard lock(mutex_);
    banned_.erase(player_id);
  }
  spdlog::warn("admin: lifted the ban of player {}", player_id);
  status = 200;
  return {{"player_id", player_id}, {"banned", false}};
}

json Lobby::admin_bans() {
  json list = json::array();
  store_.read([&](Db& db) {
    auto& q =
        db.prepare("SELECT player_id, reason, banned_at FROM bans ORDER BY banned_at, player_id");
    while (q.step()) {
      list.push_back(
          {{"player_id", q.text_at(0)}, {"reason", q.text_at(1)}, {"banned_at", q.int_at(2)}});
    }
  });
  return {{"bans", std::move(list)}};
}

Lobby::Gauges Lobby::gauges() {
  std::vector<std::shared_ptr<Table>> all;
  Gauges g;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, t] : tables_) all.push_back(t);
    for (const auto& [id, p] : players_) {
      if (!p.connection.expired()) ++g.players_connected;
    }
  }
  std::map<std::string, std::int64_t> states = {
      {"waiting", 0}, {"playing", 0}, {"over", 0}, {"closed", 0}};
  // Scraped every few seconds with thousands of tables, on a network thread:
  // no copy of each table's summary.
  for (const auto& t : all) ++states[t->summary_status()];
  for (const auto& [state, n] : states) g.tables_by_state.emplace_back(state, n);
  return g;
}

}  // namespace casa::server
