// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/lobby/lobby.h"

#include "server/store/clock_rows.h"
#include "server/lobby/notifier.h"
#include "server/store/event_rows.h"
#include "server/store/account_rows.h"
#include "server/store/player_rows.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>
#include <tuple>
#include <cctype>
#include <stdexcept>

#include "engine/bots.h"
#include "engine/registry.h"
#include "protocol/deal_commitment.h"
#include "protocol/protocol.h"
#include "server/lobby/friends.h"
#include "server/store/ratings.h"
#include "server/tournaments/tournaments.h"
#include "server/ops/log.h"
#include "server/ops/metrics.h"
#include "server/ops/handles.h"
#include "server/ops/names.h"
#include "server/table/table.h"

namespace casa::server {

namespace asio = boost::asio;
using nlohmann::json;
using protocol::Refusal;

namespace {

// Invite codes: 10 of 32 characters, 2^50 codes (the arithmetic against the
// guess throttle is in docs/security.md).
constexpr std::size_t kInviteLength = 10;

// Letters and digits that cannot be mistaken for each other when read aloud.
std::string random_code(const char* alphabet, std::size_t alphabet_size, std::size_t length) {
  unsigned char bytes[32];
  random_bytes(bytes, length);
  std::string out;
  for (std::size_t i = 0; i < length; ++i) out += alphabet[bytes[i] % alphabet_size];
  return out;
}

// A message that needs the database while too many calls already wait for it
// (cluster mode): nothing was done; the client may send it again.
// The time per move (docs/protocol.md, "Correspondence tables").
constexpr int kMoveTimeoutMaxSeconds = 3600;
constexpr int kCorrespondenceMinSeconds = 60;
constexpr int kCorrespondenceMaxSeconds = 14 * 24 * 3600;

Refusal busy_refusal() {
  return {"busy", "The server is busy; send it again in a moment."};
}
}  // namespace


void LobbyMutex::lock() {
  metrics().lobby_locks.fetch_add(1, std::memory_order_relaxed);
  if (mutex_.try_lock()) return;
  metrics().lobby_lock_waits.fetch_add(1, std::memory_order_relaxed);
  mutex_.lock();
}

bool LobbyMutex::try_lock() {
  if (!mutex_.try_lock()) return false;
  metrics().lobby_locks.fetch_add(1, std::memory_order_relaxed);
  return true;
}

Lobby::Lobby(std::vector<asio::io_context*> shards, Store& store, const Config& config, GameFactory factory,
             std::vector<std::string> games)
    : io_(*shards.at(0)),
      shards_(std::move(shards)),
      store_(store),
      config_(config),
      factory_(std::move(factory)),
      games_(std::move(games)),
      new_players_(std::max(1, config.players_per_address_per_hour), config.players_per_address_per_hour / 3600.0),
      invite_guesses_(std::max(1, config.invite_guesses_per_minute), config.invite_guesses_per_minute / 60.0),
      tournaments_(std::make_unique<Tournaments>(*this)),
      friends_(std::make_unique<Friends>(*this)) {
  if (config_.bot_threads > 0)
    bot_pool_ = std::make_unique<BotPool>(config_.bot_threads, static_cast<std::size_t>(config_.bot_queue));
  notifier_ = std::make_unique<Notifier>(config_, store_, [this](const std::string& id) { return name_of(id); });
}

Lobby::~Lobby() { stop_notifications(); }

Notices* Lobby::notices() { return notifier_.get(); }

void Lobby::notify(const std::string& player_id, const std::string& kind, nlohmann::json about) {
  notifier_->notify(player_id, kind, std::move(about));
}

void Lobby::stop_notifications() {
  if (notifier_) notifier_->stop();
}

std::optional<std::string> Lobby::player_of_token(const std::string& token) {
  if (token.empty() || token.size() > 256) return std::nullopt;
  const std::string hash = sha256_hex(token);
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_token_.find(hash); it != by_token_.end()) return it->second;
  }
  if (cluster_ && load_player("token_hash", hash)) {
    std::lock_guard lock(mutex_);
    if (auto it = by_token_.find(hash); it != by_token_.end()) return it->second;
  }
  return std::nullopt;
}

Store::Done Lobby::on_io(std::function<void(bool)> f) {
  return [this, f = std::move(f)](bool ok) { asio::post(io_, [f, ok] { f(ok); }); };
}

CreateResult Lobby::make_game(const TableSetup& setup) const {
  return factory_(setup.game, setup.players, protocol::json_to_value(setup.options), setup.seed);
}

bool Lobby::deal_withheld(const std::string& table) { return tournaments_->withheld(table); }

// ---- recovery ------------------------------------------------------------------

void Lobby::recover() {
  std::size_t players = 0;
  for (auto& p : store_.load_players()) {
    std::lock_guard lock(mutex_);
    players_[p.id] = Player{p.id, p.name, p.token_hash, {}, {}, std::chrono::steady_clock::now(), 0};
    ++players;
  }
  {
    // Every live session's token resumes its player (docs/accounts.md).
    std::vector<std::pair<std::string, std::string>> sessions;
    store_.read([&](Db& db) { sessions = account_rows::all_sessions(db); });
    std::lock_guard lock(mutex_);
    for (auto& [hash, pid] : sessions) by_token_[hash] = pid;
  }
  std::size_t tables = 0, finished = 0;
  if (cluster_) {
    // Tables come with the leases this node claims (Cluster::takeover).
    load_bans();
    spdlog::info("recovered {} players; tables are claimed from the cluster", players);
    // Running duplicate events, as a single node reloads them (their tables come
    // with the leases; a board that finished while no node knew moves on). Once
    // the io_context runs: the cluster has started and takes new tables' leases.
    asio::post(io_, [this] { tournaments_->recover(); });
    return;
  }
  const std::int64_t now = Store::now();
  for (const auto& stored : store_.load_live_tables(now - config_.finished_table_ttl_seconds)) {
    if (!adopt_table(stored)) continue;
    ++(stored.status == "over" ? finished : tables);
  }
  load_bans();
  spdlog::info("recovered {} players, {} unfinished tables and {} recently finished", players,
               tables, finished);
  tournaments_->recover();
}

bool Lobby::adopt_table(const StoredTable& stored) {
  const std::int64_t now = Store::now();
  if (cluster_) {
    // Players registered on other nodes since this one started.
    for (const auto& seat : stored.seats) {
      if (!seat.player_id.empty() && !known_player(seat.player_id)) load_player("id", seat.player_id);
    }
    if (!known_player(stored.creator)) load_player("id", stored.creator);
    // An event created on another node since this one started, or a board of
    // it opened since: known before the table runs here.
    tournaments_->adopting(stored.id);
  }
  TableSetup setup;
  setup.id = stored.id;
  setup.game = stored.game;
  setup.players = stored.players;
  setup.options = json::parse(stored.options, nullptr, false);
  if (setup.options.is_discarded()) setup.options = json::object();
  setup.seed = stored.seed;
  setup.is_private = stored.is_private;
  setup.invite = stored.invite;
  setup.creator = stored.creator;
  setup.move_timeout_seconds = stored.move_timeout_seconds;
  setup.correspondence = stored.correspondence;
  setup.grace_seconds = stored.grace_seconds;
  setup.takeover = stored.takeover;
  setup.rated = stored.rated;
  setup.deal_salt = stored.deal_salt;
  setup.deal_commitment = stored.deal_commitment;
  auto created = make_game(setup);
  if (!created.game) {
    const LogAbout about(stored.id);
    spdlog::error("table {} cannot be rebuilt: {}", stored.id, created.error ? created.error->message : "?");
    return false;
  }
  auto table = register_table(setup, std::move(created.game), true);
  if (auto why = table->restore(stored)) {
    const LogAbout about(stored.id);
    spdlog::error("table {} does not replay: {}", stored.id, *why);
    forget_table(stored.id);
    return false;
  }
  if (stored.status == "over") {
    // Ended less than the TTL ago: kept for the rest of it. Every seated
    // player is owed its game_over (see Table::restore).
    std::vector<std::string> owed;
    {
      std::lock_guard lock(mutex_);
      for (const auto& seat : stored.seats) {
        auto it = players_.find(seat.player_id);
        if (it == players_.end()) continue;
        it->second.tables.insert(stored.id);
        owed.push_back(seat.player_id);
      }
    }
    const auto left =
        std::max<std::int64_t>(0, stored.finished_at + config_.finished_table_ttl_seconds - now);
    forget_later(stored.id, std::chrono::seconds(left), std::move(owed));
    return true;
  }
  {
    std::lock_guard lock(mutex_);
    for (const auto& seat : stored.seats) {
      if (auto it = players_.find(seat.player_id); it != players_.end()) it->second.tables.insert(stored.id);
    }
    if (auto it = players_.find(setup.creator); it != players_.end()) {
      ++it->second.open_created;
      it->second.tables.insert(stored.id);
    }
  }
  // Players already connected here (a table taken over from another node)
  // get its moves from now on; later reconnects tell the table themselves.
  table->refresh_connections();
  return true;
}

// ---- dispatch --------------------------------------------------------------------

void Lobby::handle(const std::shared_ptr<Client>& client, std::string_view text, std::function<void()> resume) {
  protocol::ClientFrame frame;
  if (auto refusal = protocol::parse_client(text, frame)) {
    client->send(protocol::error(*refusal, frame.id));
    resume();
    return;
  }
  Request r{client, std::move(frame.id), text, std::move(resume)};
  if (draining_) {
    // The connection is about to be told to reconnect; the node it reaches
    // next answers this message.
    client->send(protocol::error({"draining", "The server is shutting down; reconnect and send it again."}, r.id));
    r.resume();
    return;
  }
  if (client->player_id.empty() && !std::holds_alternative<protocol::Hello>(frame.message)) {
    client->send(protocol::error({"hello_required", "Say hello first."}, r.id));
    r.resume();
    return;
  }
  std::visit(
      [&](auto& m) {
        if constexpr (requires { m.at; }) {
          // A table-bound message: the table's lookup and its refusals are
          // the same for all of them. An action is the table's own to refuse
          // (only who sits there acts: not_seated), so it is not asked
          // whether the sender may reach a private table.
          constexpr bool admission = !std::is_same_v<std::decay_t<decltype(m)>, protocol::ActionMessage>;
          if (auto table = at_table(r, m.at, admission)) {
            on(r, *table, m);
            r.resume();
          }
        } else {
          on(r, m);
        }
      },
      frame.message);
}

std::shared_ptr<Table> Lobby::at_table(Request& r, const protocol::TableRef& at, bool admission) {
  const auto& client = r.client;
  std::optional<Refusal> refusal;
  bool missed = false;
  auto table = find_table(client, at, refusal, missed, admission);
  if (table) return table;
  if (refusal) {
    client->send(protocol::error(*refusal, r.id));
  } else if (cluster_) {
    // Perhaps run by another node: its owner answers. The connection reads
    // on once it is known (the database may be asked, off this thread).
    cluster_->forward(client, at.table, at.invite, r.text,
                      [this, client, id = r.id, missed, resume = std::move(r.resume)](ClusterPort::Forwarded f) {
                        if (f == ClusterPort::Forwarded::busy) {
                          client->send(protocol::error(busy_refusal(), id));
                        } else if (f == ClusterPort::Forwarded::none) {
                          if (missed) invite_guesses_.take(client->address());
                          client->send(protocol::error({"no_such_table", "There is no such table."}, id));
                        }
                        resume();
                      });
    return nullptr;
  } else {
    if (missed) invite_guesses_.take(client->address());
    client->send(protocol::error({"no_such_table", "There is no such table."}, r.id));
  }
  r.resume();
  return nullptr;
}

void Lobby::on(Request& r, const protocol::Hello& m) {
  if (!r.client->player_id.empty()) {
    r.client->send(protocol::error({"already_welcomed", "This connection already said hello."}, r.id));
    r.resume();
    return;
  }
  hello(r.client, m, r.id, std::move(r.resume));
}

void Lobby::on(Request& r, const protocol::Ping&) {
  r.client->send(protocol::reply("pong", json::object(), r.id));
  r.resume();
}

void Lobby::on(Request& r, protocol::CreateEvent& m) {
  tournaments_->create(r.client, m, r.id);
  r.resume();
}

void Lobby::on(Request& r, const protocol::AnswerInvitation& m) {
  tournaments_->answer(r.client, m.invitation, r.id, m.accept);
  r.resume();
}

void Lobby::on(Request& r, const protocol::DeclineTableInvitation& m) {
  friends_->decline(r.client, m.invitation, r.id);
  r.resume();
}

void Lobby::on(Request& r, Table& table, const protocol::InviteFriend& m) {
  friends_->invite(r.client, table, m.handle, r.id);
}

void Lobby::on(Request& r, Table& table, const protocol::Join& m) { table.join(r.client, m.seat, r.id); }

void Lobby::on(Request& r, Table& table, const protocol::Spectate& m) {
  // Watching another table of a running duplicate event would show its deals.
  if (!tournaments_->may_watch(table.id(), r.client->player_id)) {
    r.client->send(protocol::error({"event_table", "Only its players see a table of a running event."}, r.id));
    return;
  }
  table.spectate(r.client, r.id, m.history);
}

void Lobby::on(Request& r, Table& table, const protocol::Leave&) { table.leave(r.client, r.id); }

void Lobby::on(Request& r, Table& table, const protocol::AddBot& m) { table.add_bot(r.client, m.seat, m.bot, r.id); }

void Lobby::on(Request& r, Table& table, protocol::ActionMessage& m) {
  table.act(r.client, m.seq, std::move(m.action), std::move(r.id));
}

void Lobby::on(Request& r, Table& table, protocol::Chat& m) {
  table.chat(r.client, std::move(m.text), m.team, r.id);
}

void Lobby::on(Request& r, Table& table, const protocol::Rematch&) { table.rematch(r.client, r.id); }

void Lobby::on(Request& r, Table& table, const protocol::Resync& m) {
  if (!tournaments_->may_watch(table.id(), r.client->player_id)) {
    r.client->send(protocol::error({"event_table", "Only its players see a table of a running event."}, r.id));
    return;
  }
  table.resync(r.client, r.id, m.history);
}

void Lobby::drain(std::function<void()> idle) {
  draining_ = true;
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  // The last table to go idle posts `idle`: each table's frames were queued on
  // its connections before it reported, so `idle` comes after all of them.
  auto left = std::make_shared<std::atomic<std::size_t>>(tables.size() + 1);
  auto one_done = [this, left, idle = std::make_shared<std::function<void()>>(std::move(idle))] {
    if (left->fetch_sub(1) != 1) return;
    asio::post(io_, [this, idle] {
      // Cluster mode: every table stopped at an acknowledged action, so its
      // lease goes now and another node claims it on its next round, before
      // the clients told to reconnect come back there.
      if (cluster_) {
        try {
          cluster_->release_all();
        } catch (const std::exception& e) {
          spdlog::warn("draining: leases not released ({}); they expire by themselves", e.what());
        }
      }
      (*idle)();
    });
  };
  for (auto& table : tables) table->freeze(one_done);
  one_done();
}

std::shared_ptr<Table> Lobby::find_table(const std::shared_ptr<Client>& client, const protocol::TableRef& at,
                                         std::optional<Refusal>& refusal, bool& missed, bool admission) {
  if (!at.invite.empty()) {
    // Codes are shown in capitals; people type them as they like.
    std::string code = at.invite;
    for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // With the address's bucket of wrong guesses empty, no code is looked up
    // (a right one neither: else the bucket would not slow a search down).
    if (!invite_guesses_.has(client->address())) {
      refusal = Refusal{"rate_limited", "Too many wrong invite codes from your address; wait a minute."};
      return nullptr;
    }
    std::string id;
    {
      std::lock_guard lock(mutex_);
      if (auto it = by_invite_.find(code); it != by_invite_.end()) id = it->second;
    }
    // A table id given with the code must be the code's table. Refused here
    // when that table runs here (in a cluster its owner is the node that
    // knows its code; forwarding from there would come back to it).
    if (!at.table.empty() && at.table != id) {
      if (!find_table(at.table)) {
        missed = true;  // unknown here: not ours to judge (Cluster::forward)
        return nullptr;
      }
      invite_guesses_.take(client->address());
      refusal = Refusal{"bad_invite", "That is not this table's invite code."};
      return nullptr;
    }
    if (id.empty()) {
      missed = true;
      return nullptr;
    }
    auto table = find_table(id);
    // The code lets its giver in by the id alone from then on (on this node,
    // while the table is in memory).
    if (table) table->admit(client->player_id);
    return table;
  }
  std::shared_ptr<Table> table;
  // The connection's last table, while the lobby still holds it under this
  // id: no lock. Not for another node's connection (Cluster), whose
  // messages may be handled side by side.
  if (!client->remote()) {
    if (auto last = std::static_pointer_cast<Table>(client->last_table.lock());
        last && last->registered() && last->id() == at.table) {
      table = std::move(last);
    }
  }
  if (!table) {
    table = find_table(at.table);
    if (table && !client->remote()) client->last_table = table;
  }
  // A private table by its id alone: only for its creator, its players and
  // those who gave its code. Refused here, by the node that runs the table,
  // so in a cluster the refusal goes back over the bus like any answer.
  // An event's tables are private only so as not to be listed: who may watch
  // them the event decides (event_table while it runs, anyone once it is over).
  if (table && admission && !table->admits(client->player_id) && !tournaments_->has_table(table->id())) {
    refusal = Refusal{"private_table", "This table is private: send its invite code."};
    return nullptr;
  }
  return table;
}

std::shared_ptr<Table> Lobby::find_table(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(id);
  return it == tables_.end() ? nullptr : it->second;
}

void Lobby::hello(const std::shared_ptr<Client>& client, const protocol::Hello& m, const std::optional<json>& id,
                  std::function<void()> resume, bool looked_up) {
  if (m.version != protocol::kVersion) {
    client->send(protocol::error({"bad_version", "This server speaks protocol version 1."}, id));
    resume();
    return;
  }
  // Features (docs/protocol.md): the connection gets those it asked for that
  // this server knows; unknown names are ignored, and welcome lists the
  // granted ones only when hello asked for any, so v1 clients see no change.
  std::optional<json> granted;
  client->view_patch = false;
  if (m.features) {
    granted = json::array();
    for (const auto& f : *m.features) {
      if (f == "view_patch" && !client->view_patch) {
        client->view_patch = true;
        granted->push_back(f);
      }
    }
  }
  auto welcome = [this, id, granted](const Player& p, const std::string& token, bool resumed) {
    json body = {{"player_id", p.id}, {"token", token}, {"name", p.name},
                 {"version", protocol::kVersion}, {"resumed", resumed}, {"games", games_},
                 {"bots", bot_names()}};
    if (granted) body["features"] = *granted;
    return protocol::reply("welcome", std::move(body), id);
  };
  if (const auto& token = m.token) {
    const std::string hash = sha256_hex(*token);
    if (cluster_ && !looked_up) {
      // The store is read on the cluster's pool; this hello goes on from the
      // io_context once it was (the connection reads nothing meanwhile).
      const bool queued = cluster_->offload([this, client, m, id, resume, hash] {
        try {
          // Sessions are made and revoked on any node: the store says
          // whether this one lives (a player registered on another node is
          // loaded with it).
          if (!load_player("token_hash", hash)) {
            std::lock_guard lock(mutex_);
            by_token_.erase(hash);
          }
          // Banned or let in again on another node: the store says which.
          std::string pid;
          {
            std::lock_guard lock(mutex_);
            if (auto it = by_token_.find(hash); it != by_token_.end()) pid = it->second;
          }
          if (!pid.empty()) refresh_ban(pid);
        } catch (const std::exception& e) {
          spdlog::warn("hello: the store could not be read ({}); this node's players only", e.what());
        }
        asio::post(io_, [this, client, m, id, resume] { hello(client, m, id, resume, true); });
      });
      if (!queued) {
        client->send(protocol::error(busy_refusal(), id));
        resume();
      }
      return;
    }
    std::shared_ptr<Client> previous;
    std::vector<std::shared_ptr<Table>> seated;
    std::string frame;
    bool refused_ban = false;
    {
      std::lock_guard lock(mutex_);
      auto it = by_token_.find(hash);
      if (it == by_token_.end()) {
        frame = protocol::error({"bad_token", "This token is unknown."}, id);
      } else if (banned_.count(it->second)) {
        frame = protocol::error({"banned", "This player is banned from this server."}, id);
        refused_ban = true;
      } else {
        Player& p = players_[it->second];
        // One connection per session: the same token again replaces the
        // older connection; another session's connection stays beside it.
        std::erase_if(p.links, [](const Link& l) { return l.client.expired(); });
        bool linked = false;
        for (auto& l : p.links) {
          if (l.session != hash) continue;
          previous = l.client.lock();
          l.client = client;
          linked = true;
        }
        if (!linked) p.links.push_back({hash, client});
        client->player_id = p.id;
        client->session = hash;
        frame = welcome(p, *token, true);
        for (const auto& t : p.tables) {
          if (auto tt = tables_.find(t); tt != tables_.end()) seated.push_back(tt->second);
        }
      }
    }
    if (previous && previous != client) {
      previous->send(protocol::error({"replaced", "A newer connection took over this player."}, std::nullopt));
      previous->close();
    }
    client->send(frame);
    if (refused_ban) client->close();
    if (!client->player_id.empty()) {
      const LogAbout about({}, client->player_id);
      spdlog::info("player {} resumed from {}", client->player_id, client->address());
      // The session's last use, for the player's list of their devices.
      store_.write([hash, at = Store::now()](Db& db) { account_rows::touch_session(db, hash, at); }, [](bool) {});
      for (auto& t : seated) t->player_connection(client->player_id, true, client);
      if (cluster_) cluster_->resumed(client);
      // Invitations still waiting for their answer, again.
      tournaments_->welcomed(client);
      friends_->welcomed(client);
    }
    resume();
    return;
  }
  Player p;
  if (m.name) {
    auto name = clean_display_text(*m.name);
    if (name.refusal) {
      client->send(protocol::error(*name.refusal, id));
      resume();
      return;
    }
    p.name = std::move(name.text);
    // A banned player's name, or an account's handle, is not a new guest's
    // to take, nor a name that looks like it (docs/accounts.md).
    if (name_reserved(name_skeleton(p.name))) {
      client->send(protocol::error({"name_taken", "This name belongs to someone else; choose another."}, id));
      resume();
      return;
    }
  }
  if (!new_players_.take(client->address())) {
    client->send(protocol::error(
        {"rate_limited", "Too many new players from your address; come back with your token, or later."}, id));
    resume();
    return;
  }
  // Appended rather than "p" + ...: GCC 12 -O3 reports a false -Wrestrict there.
  p.id = std::string("p").append(random_token(), 0, 10);
  const std::string token = random_token();
  p.token_hash = sha256_hex(token);
  if (p.name.empty()) p.name = "player-" + p.id.substr(1, 4);
  store_.save_player({p.id, p.name, p.token_hash},
                     on_io([this, client, p, token, welcome, id, resume = std::move(resume)](bool ok) mutable {
                       if (!ok) {
                         client->send(protocol::error({"storage_unavailable", "Cannot register now."}, id));
                         resume();
                         return;
                       }
                       {
                         std::lock_guard lock(mutex_);
                         p.links.push_back({p.token_hash, client});
                         by_token_[p.token_hash] = p.id;
                         players_[p.id] = p;
                       }
                       client->player_id = p.id;
                       client->session = p.token_hash;
                       const LogAbout about({}, p.id);
                       spdlog::info("player {} ({}) joined from {}", p.id, log_quote(p.name), client->address());
                       client->send(welcome(p, token, false));
                       resume();
                     }));
}

void Lobby::disconnected(const std::shared_ptr<Client>& client) {
  if (client->player_id.empty()) return;
  if (cluster_) cluster_->disconnected(client);
  std::vector<std::shared_ptr<Table>> seated;
  bool others = false;
  {
    std::lock_guard lock(mutex_);
    auto it = players_.find(client->player_id);
    if (it == players_.end()) return;
    auto& links = it->second.links;
    const auto before = links.size();
    std::erase_if(links, [&](const Link& l) {
      const auto c = l.client.lock();
      return !c || c == client;
    });
    if (links.size() == before) return;  // replaced already
    others = !links.empty();
    if (!others) it->second.gone_since = std::chrono::steady_clock::now();
    for (const auto& t : it->second.tables) {
      if (auto tt = tables_.find(t); tt != tables_.end()) seated.push_back(tt->second);
    }
  }
  // Still connected from another device: the tables only forget this one.
  for (auto& t : seated) {
    if (others) {
      t->refresh_connections();
    } else {
      t->player_connection(client->player_id, false);
    }
  }
}

// ---- tables ------------------------------------------------------------------------

std::string Lobby::unique_table_id() {
  for (;;) {
    std::string id = std::string("t").append(random_code("abcdefghijkmnpqrstuvwxyz23456789", 32, 9));
    if (!tables_.count(id)) return id;
  }
}

std::string Lobby::unique_invite() {
  for (;;) {
      std::string code = random_code("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 32, kInviteLength);
    if (!by_invite_.count(code)) return code;
  }
}

std::shared_ptr<Table> Lobby::register_table(TableSetup setup, std::unique_ptr<Game> game, bool claimed) {
  std::shared_ptr<Table> table;
  {
    std::lock_guard lock(mutex_);
    if (setup.id.empty()) setup.id = unique_table_id();
    if (setup.invite.empty()) setup.invite = unique_invite();
    // Its strand and timers live on one network thread; sessions on the
    // others post to it like any other strand.
    auto& shard = *shards_[next_shard_.fetch_add(1, std::memory_order_relaxed) % shards_.size()];
    table = std::make_shared<Table>(*this, shard, setup, std::move(game));
    tables_[setup.id] = table;
    by_invite_[setup.invite] = setup.id;
    table->set_registered(true);
    // Registered while drain() froze the others (a create_table read just before).
    if (draining_) table->freeze([] {});
  }
  // Cluster mode: a new table is this node's from its first write on. Without
  // its lease the fence refuses its writes (and its creator hears so).
  if (cluster_ && !claimed) cluster_->acquire(table->id());
  return table;
}

void Lobby::forget_table(const std::string& id) { forget(id, true); }

void Lobby::forget(const std::string& id, bool release_lease) {
  {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(id);
    if (it == tables_.end()) return;
    by_invite_.erase(it->second->setup().invite);
    it->second->set_registered(false);
    tables_.erase(it);
  }
  if (release_lease && cluster_) cluster_->forgotten(id);
}

void Lobby::drop_table(const std::string& id) {
  auto dropped = table(id);
  // An unfinished table counts against its creator's limit on the node that
  // runs it: from now on that is another node (which counts it on adopting it).
  const std::string state = dropped ? dropped->summary().value("status", "") : "";
  const bool unfinished = state == "waiting" || state == "playing";
  forget(id, false);
  std::lock_guard lock(mutex_);
  for (auto& [pid, p] : players_) p.tables.erase(id);
  if (unfinished) {
    if (auto it = players_.find(dropped->setup().creator); it != players_.end() && it->second.open_created > 0) {
      --it->second.open_created;
    }
  }
}

std::shared_ptr<Table> Lobby::table(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(id);
  return it == tables_.end() ? nullptr : it->second;
}

bool Lobby::load_player(const std::string& column, const std::string& value) {
  std::optional<StoredPlayer> found;
  const auto key = column == "id" ? player_rows::Key::id : player_rows::Key::token_hash;
  store_.read([&](Db& db) { found = player_rows::find(db, key, value); });
  if (!found) return false;
  std::lock_guard lock(mutex_);
  if (key == player_rows::Key::token_hash) by_token_[value] = found->id;
  if (players_.count(found->id)) return true;
  players_[found->id] = Player{found->id, found->name, found->token_hash, {}, {}, std::chrono::steady_clock::now(), 0};
  return true;
}

bool Lobby::attach_remote(const std::shared_ptr<Client>& client) {
  const std::string& pid = client->player_id;
  if (!known_player(pid) && !load_player("id", pid)) return false;
  std::vector<std::shared_ptr<Table>> seated;
  bool moved = false;
  {
    std::lock_guard lock(mutex_);
    Player& p = players_[pid];
    std::erase_if(p.links, [](const Link& l) { return l.client.expired(); });
    for (const auto& l : p.links) {
      if (l.client.lock() == client) return true;
    }
    // Each connection held for another node is a device of its own.
    moved = !p.links.empty();
    p.links.push_back({"remote:" + client->address(), client});
    for (const auto& t : p.tables) {
      if (auto tt = tables_.find(t); tt != tables_.end()) seated.push_back(tt->second);
    }
  }
  for (auto& t : seated) {
    if (moved) {
      t->refresh_connections();
    } else {
      t->player_connection(pid, true);
    }
  }
  return true;
}

void Lobby::on(Request& r, protocol::CreateTable& m) {
  const auto& client = r.client;
  const auto& id = r.id;
  auto& resume = r.resume;
  auto refuse = [&](std::string code, std::string message) {
    client->send(protocol::error({std::move(code), std::move(message)}, id));
    resume();
  };
  TableSetup setup;
  setup.game = std::move(m.game);
  setup.players = m.players;
  setup.options = std::move(m.options);
  setup.is_private = m.is_private;
  if (m.rated) setup.rated = *m.rated;
  setup.creator = client->player_id;
  setup.move_timeout_seconds = m.move_timeout_seconds;
  setup.correspondence = m.correspondence;
  if (const auto& policy = m.disconnect_policy) {
    setup.grace_seconds = policy->grace_seconds.value_or(setup.grace_seconds);
    // The schema allows only "robot", "strong", "none" and "forfeit".
    setup.takeover = policy->takeover.value_or("robot");
  }
  // The time per move: up to an hour, or minutes to days at a correspondence
  // table (seconds on test servers, for short test clocks).
  if (setup.correspondence) {
    const int least = config_.testing ? 1 : kCorrespondenceMinSeconds;
    if (setup.move_timeout_seconds < least || setup.move_timeout_seconds > kCorrespondenceMaxSeconds) {
      return refuse("bad_option", "A correspondence table needs a time per move (move_timeout_seconds) from " +
                                      std::to_string(least) + " to " + std::to_string(kCorrespondenceMaxSeconds) +
                                      " seconds.");
    }
  } else if (setup.move_timeout_seconds > kMoveTimeoutMaxSeconds) {
    return refuse("bad_option", "move_timeout_seconds is at most 3600, except at a correspondence table.");
  }
  if (auto refusal = check_options(setup)) return refuse(refusal->code, refusal->message);
  if (m.seed) {
    if (!config_.testing) return refuse("bad_option", "A fixed seed is for test servers only.");
    setup.seed = *m.seed;
  } else {
    setup.seed = random_seed();
  }
  const int seat = m.seat;
  if (seat >= setup.players) return refuse("bad_seat", "There is no such seat at this table.");
  if (auto refusal = table_limit(client->player_id)) return refuse(refusal->code, refusal->message);
  auto created = make_game(setup);
  if (!created.game) {
    const std::string code = created.error ? created.error->code : "bad_option";
    const std::string message = created.error ? created.error->message : "The engine refused the table.";
    return refuse(code == "unknown_game" ? "no_such_game" : (code == "bad_players" ? code : "bad_option"), message);
  }
  std::vector<StoredSeat> seats(static_cast<std::size_t>(setup.players));
  if (seat >= 0) seats[static_cast<std::size_t>(seat)].player_id = client->player_id;
  if (!cluster_) {
    auto table = register_table(std::move(setup), std::move(created.game));
    {
      std::lock_guard lock(mutex_);
      ++players_[client->player_id].open_created;
    }
    open_created_table(client, table, std::move(seats), seat, id);
    resume();
    return;
  }
  // Cluster mode: the new table's lease is taken on the cluster's pool (the
  // database is not waited for here); the table is counted against the
  // creator's limit meanwhile, and the connection reads on once it is open.
  if (auto refusal = reserve_tables(client->player_id, 1)) return refuse(refusal->code, refusal->message);
  setup.id = reserve_table_id();
  auto game = std::make_shared<std::unique_ptr<Game>>(std::move(created.game));
  auto opened = [this, client, setup, game, seats, seat, id, resume](bool ok) mutable {
    if (!ok) {
      release_tables(client->player_id, 1);
      client->send(protocol::error({"storage_unavailable", "The table could not be stored."}, id));
      resume();
      return;
    }
    auto table = register_table(std::move(setup), std::move(*game), true);
    open_created_table(client, table, std::move(seats), seat, id);
    resume();
  };
  if (!cluster_->acquire_async(setup.id, std::move(opened))) {
    release_tables(client->player_id, 1);
    return refuse(busy_refusal().code, busy_refusal().message);
  }
}

void Lobby::open_created_table(const std::shared_ptr<Client>& client, const std::shared_ptr<Table>& table,
                               std::vector<StoredSeat> seats, int seat, const std::optional<json>& id) {
  // table_created goes out from `after`, before the creator's table_state.
  table->open(std::move(seats), seat >= 0 ? client : nullptr,
              [this, client, table, seat, id](bool ok) {
                if (!ok) {
                  std::lock_guard lock(mutex_);
                  --players_[client->player_id].open_created;
                  client->send(protocol::error({"storage_unavailable", "The table could not be stored."}, id));
                  return;
                }
                {
                  const LogAbout about(table->id(), client->player_id);
                  spdlog::info("table {} created by {}: {} for {}", table->id(), client->player_id,
                               table->setup().game, table->setup().players);
                }
                client->send(protocol::reply(
                    "table_created", {{"table", table->id()}, {"invite", table->setup().invite}, {"seat", seat}}, id));
              });
}

std::optional<Refusal> Lobby::check_options(const TableSetup& setup) const {
  // Server settings are fields of create_table, never engine options.
  for (const char* field : {"move_timeout_seconds", "correspondence", "disconnect_policy", "seed", "rated"}) {
    if (setup.options.contains(field)) {
      return Refusal{"bad_option", std::string(field) + " is a field of create_table, not an option."};
    }
  }
  if (std::find(games_.begin(), games_.end(), setup.game) == games_.end()) {
    return Refusal{"no_such_game", "This server does not run '" + setup.game + "'."};
  }
  // Options that fix the deal or cut a game short are for test servers only:
  // each game's declaration of its options marks them (docs/games/ says "testing").
  if (!config_.testing) {
    for (const auto& option : testing_options(setup.game)) {
      if (setup.options.contains(option)) {
        return Refusal{"bad_option", "The option '" + option + "' is for test servers only."};
      }
    }
  }
  return std::nullopt;
}

std::optional<Refusal> Lobby::table_limit(const std::string& player_id, int more) {
  std::lock_guard lock(mutex_);
  if (players_[player_id].open_created + more > config_.max_tables_per_player) {
    return Refusal{"too_many_tables", "You have too many unfinished tables (at most " +
                                          std::to_string(config_.max_tables_per_player) + ", events and rematches included)."};
  }
  return std::nullopt;
}

std::optional<Refusal> Lobby::reserve_tables(const std::string& player_id, int count) {
  if (auto refusal = table_limit(player_id, count)) return refusal;
  std::lock_guard lock(mutex_);
  players_[player_id].open_created += count;
  return std::nullopt;
}

void Lobby::release_tables(const std::string& player_id, int count) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  if (it != players_.end()) it->second.open_created = std::max(0, it->second.open_created - count);
}

bool Lobby::known_player(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  return players_.count(player_id) > 0;
}

std::string Lobby::reserve_table_id() {
  std::lock_guard lock(mutex_);
  return unique_table_id();
}

void Lobby::open_event_table(const TableSetup& setup, std::vector<StoredSeat> seats, bool counted) {
  auto created = make_game(setup);
  if (!created.game) {
    const LogAbout about(setup.id);
    spdlog::error("event table {} cannot be created: {}", setup.id, created.error ? created.error->message : "?");
    if (counted) release_tables(setup.creator, 1);
    return;
  }
  auto table = register_table(setup, std::move(created.game));
  if (!counted) {
    std::lock_guard lock(mutex_);
    ++players_[setup.creator].open_created;
  }
  table->open(std::move(seats), nullptr, [this, table, creator = setup.creator](bool ok) {
    if (!ok) {
      std::lock_guard lock(mutex_);
      --players_[creator].open_created;
      const LogAbout about(table->id());
      spdlog::error("event table {} could not be stored", table->id());
    }
  });
}

std::optional<Refusal> Lobby::create_rematch(const TableSetup& old, const std::string& by,
                                             std::vector<StoredSeat> seats,
                                             std::function<void(std::shared_ptr<Table>)> done) {
  TableSetup setup = old;
  setup.id.clear();
  setup.invite.clear();
  setup.creator = by;
  setup.seed = random_seed();
  if (auto refusal = reserve_tables(by, 1)) return refusal;
  auto created = make_game(setup);
  if (!created.game) {
    release_tables(by, 1);
    done(nullptr);
    return std::nullopt;
  }
  auto table = register_table(std::move(setup), std::move(created.game));
  table->open(std::move(seats), nullptr, [this, table, by, done](bool ok) {
    if (!ok) {
      std::lock_guard lock(mutex_);
      --players_[by].open_created;
    }
    done(ok ? table : nullptr);
  });
  return std::nullopt;
}

void Lobby::on(Request& r, const protocol::ListTables& m) {
  const auto& client = r.client;
  const auto& id = r.id;
  auto& resume = r.resume;
  const std::string& game = m.game;
  std::vector<std::shared_ptr<Table>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [tid, t] : tables_) all.push_back(t);
  }
  json list = json::array();
  for (auto& t : all) {
    if (!t->listed() || (!game.empty() && t->setup().game != game)) continue;
    list.push_back(t->summary());
    if (list.size() >= 200) break;
  }
  if (cluster_ && list.size() < 200) {
    // One lobby: the open tables of the other nodes too, read from the store
    // off this thread; the connection reads on once they are sent.
    const std::size_t more = 200 - list.size();
    auto answer = [client, id, resume, list](json remote) mutable {
      for (auto& summary : remote) list.push_back(std::move(summary));
      client->send(protocol::reply("tables", {{"tables", std::move(list)}}, id));
      resume();
    };
    if (!cluster_->remote_listing(game, more, std::move(answer))) {
      client->send(protocol::error(busy_refusal(), id));
      resume();
    }
    return;
  }
  client->send(protocol::reply("tables", {{"tables", std::move(list)}}, id));
  resume();
}

void Lobby::table_finished(const std::shared_ptr<Table>& table, std::vector<std::string> owed) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = players_.find(table->setup().creator); it != players_.end() && it->second.open_created > 0) {
      --it->second.open_created;
    }
  }
  tournaments_->table_finished(table->id(), table->summary().value("status", "") == "over");
  friends_->table_ended(table->id());
  forget_later(table->id(), std::chrono::seconds(config_.finished_table_ttl_seconds),
               std::move(owed));
}

void Lobby::forget_later(const std::string& table, std::chrono::seconds after,
                         std::vector<std::string> owed) {
  // Kept a while for rematch, late spectators and players owed the game_over,
  // then dropped from memory.
  auto timer = std::make_shared<asio::steady_timer>(io_, after);
  timer->async_wait(
      [this, timer, table, owed = std::move(owed)](const boost::system::error_code& ec) {
        if (ec) return;
        forget_table(table);
        for (const auto& player : owed) seat_changed(player, table, false);
      });
}

// ---- for tables ----------------------------------------------------------------------

bool Lobby::Player::connected() const {
  return std::any_of(links.begin(), links.end(), [](const Link& l) { return !l.client.expired(); });
}

std::vector<std::shared_ptr<Client>> Lobby::Player::live() const {
  std::vector<std::shared_ptr<Client>> out;
  for (const auto& l : links) {
    if (auto c = l.client.lock()) out.push_back(std::move(c));
  }
  return out;
}

void Lobby::send_to_player(const std::string& player_id, const Frame& frame) {
  for (const auto& c : connections_of(player_id)) c->send(frame);
}

std::optional<std::chrono::steady_clock::time_point> Lobby::away_since(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  if (it == players_.end()) return std::chrono::steady_clock::time_point{};
  if (it->second.connected()) return std::nullopt;
  return it->second.gone_since;
}

std::vector<std::shared_ptr<Client>> Lobby::connections_of(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  if (it == players_.end()) return {};
  return it->second.live();
}

bool Lobby::is_connected(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  return it != players_.end() && it->second.connected();
}

std::string Lobby::name_of(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  return it == players_.end() ? player_id : it->second.name;
}

void Lobby::seat_changed(const std::string& player_id, const std::string& table, bool seated) {
  {
    std::lock_guard lock(mutex_);
    auto it = players_.find(player_id);
    if (it == players_.end()) return;
    if (seated) {
      it->second.tables.insert(table);
    } else {
      it->second.tables.erase(table);
    }
  }
  friends_->seat_changed(player_id, table, seated);
}

void Lobby::table_started(const std::string& table) { friends_->table_started(table); }

std::vector<std::shared_ptr<Table>> Lobby::tables_of(const std::string& player_id) {
  std::vector<std::shared_ptr<Table>> out;
  std::lock_guard lock(mutex_);
  auto it = players_.find(player_id);
  if (it == players_.end()) return out;
  for (const auto& t : it->second.tables) {
    if (auto tt = tables_.find(t); tt != tables_.end()) out.push_back(tt->second);
  }
  return out;
}

std::size_t Lobby::table_count() {
  std::lock_guard lock(mutex_);
  return tables_.size();
}

// ---- HTTP ----------------------------------------------------------------------------

json Lobby::replay(const std::string& table, int& status, const std::string& invite, const std::string& token) {
  auto stored = store_.load_table(table);
  if (!stored) {
    status = 404;
    return {{"error", "no_such_table"}};
  }
  if (stored->is_private && !may_replay(*stored, invite, token)) {
    status = 403;
    return {{"error", "private_table"},
            {"message", "This game was played at a private table: give its invite code (?invite=), or your "
                        "token (Authorization: Bearer) if you sat there."}};
  }
  if (stored->status != "over") {
    status = 403;
    return {{"error", "not_over"}};
  }
  // A finished board of a running event would show other tables its deal.
  if (tournaments_->withheld(table)) {
    status = 403;
    return {{"error", "event_running"}};
  }
  TableSetup setup;
  setup.game = stored->game;
  setup.players = stored->players;
  setup.options = json::parse(stored->options, nullptr, false);
  setup.seed = stored->seed;
  auto created = make_game(setup);
  json log = json::array();
  // Every entry carries the full state after its action (every hand visible), so a
  // replay viewer steps through the game without knowing its rules.
  json initial_state = created.game ? protocol::value_to_json(created.game->full_state()) : json();
  for (const auto& a : stored->actions) {
    json action = json::parse(a.action, nullptr, false);
    json entry = {{"seq", a.seq}, {"seat", a.seat}, {"action", std::move(action)}};
    if (created.game) {
      Action decoded;
      if (!created.game->decode_action(protocol::json_to_value(entry["action"]), decoded)) {
        created.game->apply(a.seat, decoded, nullptr);
      }
      entry["state"] = protocol::value_to_json(created.game->full_state());
    }
    if (!a.auto_by.empty()) entry["auto"] = a.auto_by;
    log.push_back(std::move(entry));
  }
  json seats = json::array();
  for (std::size_t s = 0; s < stored->seats.size(); ++s) {
    json info = {{"seat", s}};
    if (!stored->seats[s].player_id.empty()) {
      info["player_id"] = stored->seats[s].player_id;
      info["name"] = name_of(stored->seats[s].player_id);
    }
    if (!stored->seats[s].bot.empty()) info["bot"] = stored->seats[s].bot;
    seats.push_back(std::move(info));
  }
  json rounds = json::array();
  for (std::size_t i = 0; i < stored->rounds.size(); ++i) {
    rounds.push_back({{"round", i + 1},
                      {"scores", json::parse(stored->rounds[i].scores, nullptr, false)},
                      {"summary", json::parse(stored->rounds[i].summary, nullptr, false)}});
  }
  status = 200;
  json replay = {{"table", stored->id},
          {"game", stored->game},
          {"players", stored->players},
          {"options", setup.options},
          {"seed", std::to_string(stored->seed)},  // as text: above 2^53 a JSON number loses digits
          {"seats", std::move(seats)},
          {"scores", json::parse(stored->scores, nullptr, false)},
          {"winners", json::parse(stored->winners, nullptr, false)},
          {"rounds", std::move(rounds)},
          {"initial_state", std::move(initial_state)},
          {"log", std::move(log)},
          {"final_state", created.game ? protocol::value_to_json(created.game->full_state()) : json()}};
  // The commitment as published, and what it committed to (docs/fair-play.md).
  if (!stored->deal_commitment.empty()) {
    replay["deal_commitment"] = {{"algorithm", kDealCommitmentAlgorithm}, {"hash", stored->deal_commitment}};
    replay["deal"] = {{"seed", std::to_string(stored->seed)}, {"salt", stored->deal_salt}};
  }
  return replay;
}

json Lobby::my_tables(const std::string& player_id) {
  std::vector<std::shared_ptr<Table>> here;
  {
    std::lock_guard lock(mutex_);
    if (auto p = players_.find(player_id); p != players_.end()) {
      for (const auto& id : p->second.tables) {
        if (auto t = tables_.find(id); t != tables_.end()) here.push_back(t->second);
      }
    }
  }
  std::vector<json> list;
  std::set<std::string> seen;
  for (const auto& t : here) {
    json entry = t->brief(player_id);
    if (entry.is_null()) continue;
    seen.insert(t->id());
    list.push_back(std::move(entry));
  }
  if (cluster_) {
    // The tables other nodes run, as the store knows them: a correspondence
    // table's stored clock says whose turn it is and until when.
    std::vector<clock_rows::PlayerTable> rows;
    store_.read([&](Db& db) { rows = clock_rows::player_tables(db, player_id); });
    for (const auto& row : rows) {
      if (seen.count(row.table)) continue;
      json entry = {{"table", row.table},
                    {"game", row.game},
                    {"players", row.players},
                    {"status", row.status},
                    {"seat", row.seat},
                    {"correspondence", row.correspondence},
                    {"move_timeout_seconds", row.move_timeout_seconds},
                    {"turn", json::array()},
                    {"your_turn", false}};
      if (row.status == "playing" && row.clock && row.clock->deadline_ms > 0) {
        entry["turn"] = row.clock->seats;
        entry["your_turn"] =
            std::find(row.clock->seats.begin(), row.clock->seats.end(), row.seat) != row.clock->seats.end();
        entry["deadline_ms"] = row.clock->deadline_ms;
      }
      list.push_back(std::move(entry));
    }
  }
  const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  for (auto& entry : list) {
    if (entry.contains("deadline_ms")) {
      entry["remaining_ms"] = std::max<std::int64_t>(0, entry["deadline_ms"].get<std::int64_t>() - now_ms);
    }
  }
  // Waiting for the player first, soonest deadline first; then the rest,
  // soonest deadline first, tables without a clock last.
  auto key = [](const json& e) {
    const std::int64_t deadline = e.value("deadline_ms", std::numeric_limits<std::int64_t>::max());
    return std::make_tuple(!e["your_turn"].get<bool>(), deadline, e["table"].get<std::string>());
  };
  std::sort(list.begin(), list.end(), [&](const json& a, const json& b) { return key(a) < key(b); });
  json out = json::array();
  for (auto& e : list) out.push_back(std::move(e));
  return out;
}

json Lobby::my_tables_by_token(const std::string& token, int& status) {
  const std::string pid = player_of_token(token).value_or("");
  if (pid.empty()) {
    status = 401;
    return {{"error", "unauthorized"}, {"message", "Send Authorization: Bearer <your token>."}};
  }
  status = 200;
  return {{"type", "my_tables"}, {"tables", my_tables(pid)}};
}

void Lobby::on(Request& r, const protocol::MyTables&) {
  auto answer = [this, client = r.client, id = r.id, resume = r.resume] {
    client->send(protocol::reply("my_tables", {{"tables", my_tables(client->player_id)}}, id));
    resume();
  };
  if (!cluster_) return answer();
  // The store is read: off the event loop.
  if (!cluster_->offload(answer)) {
    r.client->send(protocol::error(busy_refusal(), r.id));
    r.resume();
  }
}

bool Lobby::may_replay(const StoredTable& stored, const std::string& invite, const std::string& token) {
  if (!invite.empty()) {
    std::string code = invite;
    for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (!stored.invite.empty() && code == stored.invite) return true;
  }
  if (!token.empty()) {
    const std::string hash = sha256_hex(token);
    std::string pid;
    {
      std::lock_guard lock(mutex_);
      if (auto it = by_token_.find(hash); it != by_token_.end()) pid = it->second;
    }
    if (pid.empty() && cluster_ && load_player("token_hash", hash)) {
      std::lock_guard lock(mutex_);
      if (auto it = by_token_.find(hash); it != by_token_.end()) pid = it->second;
    }
    if (!pid.empty()) {
      if (pid == stored.creator) return true;
      for (const auto& seat : stored.seats) {
        if (seat.player_id == pid) return true;
      }
    }
  }
  // An event's tables are private so that they are not listed; once the
  // event is over its standings are public, and so are its games
  // (docs/events.md). While it runs, the replay is withheld below anyway.
  bool event_table = false;
  store_.read([&](Db& db) { event_table = event_rows::is_event_table(db, stored.id); });
  return event_table;
}

namespace {
json rating_json(const StoredRating& r) {
  return {{"player_id", r.player},
          {"name", r.name},
          {"bot", r.player.rfind("bot:", 0) == 0},
          {"rating", r.rating},
          {"deviation", r.deviation},
          {"volatility", r.volatility},
          {"games", r.games},
          {"provisional", r.deviation > ratings::kProvisionalDeviation}};
}

json solo_json(const SoloRecord& s) {
  json row = {{"game", s.game}, {"games", s.games}, {"wins", s.wins}, {"best_score", s.best_score},
              {"win_rate", s.games > 0 ? static_cast<double>(s.wins) / s.games : 0.0}};
  if (!s.player.empty()) {
    row["player_id"] = s.player;
    row["name"] = s.name;
  }
  return row;
}
}  // namespace

json Lobby::leaderboard(const std::string& game) {
  json rows = json::array();
  for (const auto& s : store_.leaderboard(game, 100)) {
    rows.push_back({{"player_id", s.player_id}, {"name", s.name}, {"games", s.games}, {"wins", s.wins}});
  }
  json out = {{"game", game.empty() ? json() : json(game)}, {"players", std::move(rows)}};
  if (game.empty()) return out;
  json rated = json::array();
  for (const auto& r : store_.rating_board(game, 100)) rated.push_back(rating_json(r));
  out["ratings"] = std::move(rated);
  json solo = json::array();
  for (const auto& s : store_.solo_board(game, 100)) solo.push_back(solo_json(s));
  out["solo"] = std::move(solo);
  return out;
}

json Lobby::player_profile(const std::string& id, int& status) {
  const auto profile = store_.player_profile(id, 20);
  if (!profile) {
    status = 404;
    return {{"error", "not_found"}};
  }
  status = 200;
  json ratings = json::array();
  for (const auto& r : profile->ratings) {
    json row = rating_json(r);
    row["game"] = r.game;
    ratings.push_back(std::move(row));
  }
  json solo = json::array();
  for (const auto& s : profile->solo) solo.push_back(solo_json(s));
  json recent = json::array();
  for (const auto& g : profile->recent) {
    json row = {{"table", g.table_id},
                {"game", g.game},
                {"players", g.players},
                {"seat", g.seat},
                {"score", g.score},
                {"winner", g.winner},
                {"rated", g.rated},
                {"finished_at", g.finished_at},
                {"replay", "/api/tables/" + g.table_id + "/replay"}};
    if (g.rated) {
      row["rating_before"] = g.rating_before;
      row["rating_after"] = g.rating_after;
    }
    recent.push_back(std::move(row));
  }
  return {{"player_id", profile->id},
          {"name", profile->name},
          {"bot", id.rfind("bot:", 0) == 0},
          {"ratings", std::move(ratings)},
          {"solo", std::move(solo)},
          {"recent", std::move(recent)}};
}

}  // namespace casa::server
