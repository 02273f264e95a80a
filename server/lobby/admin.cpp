// SPDX-License-Identifier: AGPL-3.0-or-later
// The admin API's work on the lobby and the tables (docs/operations.md#admin-api):
// listing tables, closing one, disconnecting and banning players, here or on
// the node that runs them. The HTTP side (the token, the routes) is in
// server/http/http.cpp; a table's own closing is Table::admin_close.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <future>

#include "protocol/protocol.h"
#include "server/lobby/lobby.h"
#include "server/ops/log.h"
#include "server/ops/handles.h"
#include "server/store/account_rows.h"
#include "server/store/admin_rows.h"
#include "server/table/table.h"
#include "server/store/write_and_wait.h"

namespace casa::server {

using nlohmann::json;

void Lobby::load_bans() {
  std::set<std::string> banned;
  std::vector<std::string> names, handles;
  store_.read([&](Db& db) {
    banned = admin_rows::banned_players(db);
    names = admin_rows::banned_name_skeletons(db);
    handles = account_rows::skeletons(db);
  });
  std::lock_guard lock(mutex_);
  banned_ = std::move(banned);
  reserved_names_.clear();
  reserved_names_.insert(names.begin(), names.end());
  reserved_names_.insert(handles.begin(), handles.end());
}

bool Lobby::is_banned(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  return banned_.count(player_id) > 0;
}

void Lobby::refresh_ban(const std::string& player_id) {
  bool banned = false;
  store_.read([&](Db& db) { banned = admin_rows::is_banned(db, player_id); });
  std::lock_guard lock(mutex_);
  if (banned) {
    banned_.insert(player_id);
  } else {
    banned_.erase(player_id);
  }
}

json Lobby::admin_local_tables() {
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
    // Run by the process that answers.
    row["local"] = true;
    if (cluster_) row["node"] = cluster_->node();
    list.push_back(std::move(row));
  }
  return list;
}

void Lobby::admin_tables(AdminAnswer done) {
  json list = admin_local_tables();
  if (!cluster_) {
    done(200, {{"tables", std::move(list)}});
    return;
  }
  // One cluster, one list: every other live node lists the tables it runs,
  // and the store the open ones no live node answered for (their node died:
  // another takes them over within the lease).
  cluster_->ask_all({{"op", "tables"}}, [this, list = std::move(list), done = std::move(done)](
                                            std::vector<std::tuple<std::string, int, json>> answers) mutable {
    std::set<std::string> seen;
    for (const auto& row : list) seen.insert(row.value("table", ""));
    json unanswered = json::array();
    for (auto& [node, status, body] : answers) {
      if (status != 200 || !body.contains("tables")) {
        unanswered.push_back(node);
        continue;
      }
      for (auto& row : body["tables"]) {
        row["local"] = false;
        seen.insert(row.value("table", ""));
        list.push_back(std::move(row));
      }
    }
    // The store's rows on the cluster's pool, the answer from this event loop.
    auto answer = std::make_shared<AdminAnswer>(std::move(done));
    auto gathered = std::make_shared<json>(std::move(list));
    auto others = std::make_shared<json>(std::move(unanswered));
    auto seen_ = std::make_shared<std::set<std::string>>(std::move(seen));
    const bool queued = cluster_->offload([this, answer, gathered, others, seen_] {
      std::optional<json> stored;
      try {
        stored = cluster_->remote_admin_tables();
      } catch (const std::exception& e) {
        spdlog::warn("admin: tables of the store not read: {}", e.what());
      }
      boost::asio::post(io_, [answer, gathered, others, seen_, stored = std::move(stored)]() mutable {
        if (!stored) {
          (*answer)(503, {{"error", "storage_unavailable"}});
          return;
        }
        for (auto& row : *stored) {
          if (!seen_->count(row.value("table", ""))) gathered->push_back(std::move(row));
        }
        json body = {{"tables", std::move(*gathered)}};
        if (!others->empty()) body["unanswered"] = std::move(*others);
        (*answer)(200, std::move(body));
      });
    });
    if (!queued) (*answer)(503, {{"error", "busy"}, {"message", ClusterPort::kPoolFull}});
  });
}

json Lobby::admin_close_here(const std::string& table, const std::string& reason, int& status) {
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
  const LogAbout about(table);
  spdlog::warn("admin: closing table {}: {}", table, reason);
  t->admin_close(reason);
  status = 202;  // closed on the table's strand, right after any move being committed
  return {{"table", table}, {"closing", true}, {"reason", reason}};
}

void Lobby::admin_close_table(const std::string& table, const std::string& reason, AdminAnswer done) {
  int status = 404;
  if (!cluster_ || this->table(table)) {
    json body = admin_close_here(table, reason, status);
    if (cluster_) body["node"] = cluster_->node();
    done(status, std::move(body));
    return;
  }
  // Cluster mode, a table this node does not run: its owner closes it and
  // answers (over the bus), or no node runs it now. The lease row and the
  // table's row are read on the cluster's pool, not on this event loop.
  auto answer = std::make_shared<AdminAnswer>(std::move(done));
  const bool queued = cluster_->offload([this, table, reason, answer] {
    std::optional<ClusterPort::TableOwner> owner;
    std::optional<std::string> state;
    bool failed = false;
    try {
      owner = cluster_->owner(table);
      if (!(owner && owner->live && owner->node != cluster_->node())) {
        store_.read([&](Db& db) { state = admin_rows::table_status(db, table); });
      }
    } catch (const std::exception& e) {
      spdlog::warn("admin: table {} not read: {}", table, e.what());
      failed = true;
    }
    boost::asio::post(io_, [this, table, reason, answer, owner, state, failed] {
      auto& done = *answer;
      if (failed) {
        done(503, {{"error", "storage_unavailable"}});
      } else if (owner && owner->live && owner->node != cluster_->node()) {
        const LogAbout about(table);
        spdlog::warn("admin: asking node {} to close table {}: {}", owner->node, table, reason);
        cluster_->ask(owner->node, {{"op", "close"}, {"table", table}, {"reason", reason}}, std::move(done));
      } else if (!state) {
        done(404, {{"error", "no_such_table"}});
      } else if (*state == "over" || *state == "closed") {
        done(409, {{"error", "already_finished"}, {"status", *state}});
      } else {
        // Its node died (its lease is expiring) or it is being loaded: another
        // node runs it within the lease, and can close it then.
        done(503, {{"error", "owner_unavailable"},
                   {"node", owner ? json(owner->node) : json()},
                   {"message", "No node runs this table right now (a node is taking it over); try again in a few seconds."}});
      }
    });
  });
  if (!queued) (*answer)(503, {{"error", "busy"}, {"message", ClusterPort::kPoolFull}});
}

bool Lobby::kick_banned(const std::string& player_id) {
  std::vector<std::shared_ptr<Client>> connections;
  {
    std::lock_guard lock(mutex_);
    banned_.insert(player_id);
    if (auto it = players_.find(player_id); it != players_.end()) {
      connections = it->second.live();
      // Nobody new takes the banned player's name, nor one like it.
      if (auto skeleton = name_skeleton(it->second.name); !skeleton.empty()) reserved_names_.insert(skeleton);
    }
  }
  bool kicked = false;
  for (const auto& c : connections) {
    // A connection held for another node is that node's to close.
    if (c->remote()) continue;
    c->send(protocol::error({"banned", "This player is banned from this server."}, std::nullopt));
    c->close();
    kicked = true;
  }
  return kicked;
}

json Lobby::admin_disconnect_here(const std::string& player_id, int& status) {
  std::vector<std::shared_ptr<Client>> connections;
  {
    std::lock_guard lock(mutex_);
    auto it = players_.find(player_id);
    if (it == players_.end()) {
      status = 404;
      return {{"error", "no_such_player"}};
    }
    connections = it->second.live();
  }
  // A connection held for another node (cluster mode) is closed by that node.
  std::erase_if(connections, [](const auto& c) { return c->remote(); });
  if (!connections.empty()) {
    const LogAbout about({}, player_id);
    spdlog::warn("admin: disconnecting player {}", player_id);
    for (const auto& c : connections) c->close();
  }
  status = 200;
  return {{"player_id", player_id}, {"disconnected", !connections.empty()}};
}

void Lobby::admin_disconnect(const std::string& player_id, AdminAnswer done) {
  int status = 404;
  if (!cluster_) {
    json body = admin_disconnect_here(player_id, status);
    done(status, std::move(body));
    return;
  }
  // Cluster mode: every node closes the connections it holds of the player.
  if (!known_player(player_id) && !load_player("id", player_id)) {
    done(404, {{"error", "no_such_player"}});
    return;
  }
  const json here = admin_disconnect_here(player_id, status);
  json nodes = json::array();
  if (here.value("disconnected", false)) nodes.push_back(cluster_->node());
  cluster_->ask_all({{"op", "disconnect"}, {"player", player_id}},
                    [player_id, nodes, done = std::move(done)](std::vector<std::tuple<std::string, int, json>> answers) mutable {
                      json unanswered = json::array();
                      for (const auto& [node, st, body] : answers) {
                        if (st == 200 && body.value("disconnected", false)) {
                          nodes.push_back(node);
                        } else if (st != 200) {
                          unanswered.push_back(node);
                        }
                      }
                      json body = {{"player_id", player_id}, {"disconnected", !nodes.empty()}, {"nodes", nodes}};
                      if (!unanswered.empty()) body["unanswered"] = unanswered;
                      done(200, std::move(body));
                    });
}

json Lobby::admin_here(const json& request, int& status) {
  const std::string op = request.value("op", "");
  if (op == "close") {
    const std::string table = request.value("table", "");
    if (!this->table(table)) {
      // Moved while the request travelled.
      status = 503;
      return {{"error", "owner_unavailable"}, {"message", "The table moved to another node meanwhile; try again."}};
    }
    return admin_close_here(table, request.value("reason", ""), status);
  }
  if (op == "tables") {
    status = 200;
    return {{"tables", admin_local_tables()}};
  }
  if (op == "disconnect") {
    json body = admin_disconnect_here(request.value("player", ""), status);
    if (status == 404) {
      // Never seen here: not connected here either.
      status = 200;
      body = {{"player_id", request.value("player", "")}, {"disconnected", false}};
    }
    return body;
  }
  if (op == "ban") {
    const std::string player = request.value("player", "");
    const bool kicked = kick_banned(player);
    if (kicked) {
      const LogAbout about({}, player);
      spdlog::warn("admin: banned player {} (ban set on another node)", player);
    }
    status = 200;
    return {{"player_id", player}, {"disconnected", kicked}};
  }
  if (op == "unban") {
    std::lock_guard lock(mutex_);
    banned_.erase(request.value("player", ""));
    status = 200;
    return {{"player_id", request.value("player", "")}};
  }
  status = 400;
  return {{"error", "bad_request"}};
}

json Lobby::admin_ban(const std::string& player_id, const std::string& reason, int& status) {
  // Cluster mode: a player registered on any node.
  if (!known_player(player_id) && !(cluster_ && load_player("id", player_id))) {
    status = 404;
    return {{"error", "no_such_player"}};
  }
  const std::int64_t at = Store::now();
  // The ban is the player's, guest or account: all their sessions are refused
  // from now on, and their name (as a skeleton) is no new guest's to take.
  const std::string skeleton = name_skeleton(name_of(player_id));
  const bool ok = write_and_wait(store_, [ban = admin_rows::Ban{player_id, reason, at, skeleton}](Db& db) {
    admin_rows::ban(db, ban);
  });
  if (!ok) {
    status = 503;
    return {{"error", "storage_unavailable"}};
  }
  const LogAbout about({}, player_id);
  spdlog::warn("admin: banned player {}: {}", player_id, reason);
  kick_banned(player_id);
  // Stored: every node refuses the player's hello from now on (it reads the
  // ban from the store); the nodes they are connected to drop them now.
  if (cluster_) cluster_->tell_all({{"op", "ban"}, {"player", player_id}});
  status = 200;
  return {{"player_id", player_id}, {"banned", true}, {"reason", reason}, {"banned_at", at}};
}

json Lobby::admin_unban(const std::string& player_id, int& status) {
  // Cluster mode: the ban may have been set on another node.
  if (cluster_) refresh_ban(player_id);
  if (!is_banned(player_id)) {
    status = 404;
    return {{"error", "not_banned"}};
  }
  const bool ok = write_and_wait(store_, [player_id](Db& db) { admin_rows::unban(db, player_id); });
  if (!ok) {
    status = 503;
    return {{"error", "storage_unavailable"}};
  }
  {
    std::lock_guard lock(mutex_);
    banned_.erase(player_id);
  }
  load_bans();  // the names still reserved
  if (cluster_) cluster_->tell_all({{"op", "unban"}, {"player", player_id}});
  const LogAbout about({}, player_id);
  spdlog::warn("admin: lifted the ban of player {}", player_id);
  status = 200;
  return {{"player_id", player_id}, {"banned", false}};
}

json Lobby::admin_bans() {
  json list = json::array();
  std::vector<admin_rows::Ban> bans;
  store_.read([&](Db& db) { bans = admin_rows::bans(db); });
  for (const auto& b : bans) list.push_back({{"player_id", b.player_id}, {"reason", b.reason}, {"banned_at", b.banned_at}});
  return {{"bans", std::move(list)}};
}

Lobby::Gauges Lobby::gauges() {
  std::vector<std::shared_ptr<Table>> all;
  Gauges g;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, t] : tables_) all.push_back(t);
    for (const auto& [id, p] : players_) {
      if (p.connected()) ++g.players_connected;
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
