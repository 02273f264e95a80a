// SPDX-License-Identifier: AGPL-3.0-or-later
// The lobby: players (by id and by session token hash), their open connections
// (one per session: a player may be connected from several devices at once),
// the open tables (by id and by invite code), and the dispatch of every client
// message. Its maps are guarded
// by one mutex held only for lookups and inserts, never across I/O or a table's
// work. Everything game-related is posted to the table concerned.
#pragma once

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <chrono>
#include <optional>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.h"
#include "protocol/crypto.h"
#include "protocol/messages.h"
#include "protocol/protocol.h"
#include "server/table/bot_pool.h"
#include "server/net/client.h"
#include "server/ops/buckets.h"
#include "server/ops/config.h"
#include "server/store/store.h"
#include "server/lobby/cluster_port.h"
#include "server/table/host.h"
#include "server/tournaments/host.h"

namespace casa::server {

class Friends;
class Tournaments;
class Notifier;
class Table;
struct TableSetup;

// The lobby's lock. It counts the times it was taken (casa_lobby_locks_total
// in /metrics: a move takes it not once) and the times a thread found it held
// by another (casa_lobby_lock_waits_total): how much the network threads
// contend for the lobby.
class LobbyMutex {
 public:
  void lock();
  bool try_lock();
  void unlock() { mutex_.unlock(); }

 private:
  std::mutex mutex_;
};

using GameFactory =
    std::function<CreateResult(std::string_view game, int players, const Value& options, std::uint64_t seed)>;

class Lobby : public TournamentHost {
 public:
  // `shards`: the network threads' io_contexts (at least one). The lobby's own
  // work (its timers, store completions) runs on the first; each new table
  // lives on one of them, dealt round robin.
  Lobby(std::vector<boost::asio::io_context*> shards, Store& store, const Config& config, GameFactory factory,
        std::vector<std::string> games);
  ~Lobby();

  // Loads players and rebuilds from its log every unfinished table, and every
  // game that ended (over, not closed) less than --finished-table-ttl-seconds
  // ago (for the rest of that time, as if the server had not restarted).
  void recover();

  // One text frame from `client`. `resume` is called (from any thread) when the
  // connection may read its next frame.
  void handle(const std::shared_ptr<Client>& client, std::string_view text, std::function<void()> resume);
  void disconnected(const std::shared_ptr<Client>& client);

  // The node drains: from now on every message is answered with the error
  // `draining`, and every table is frozen (Table::freeze). `idle` runs on the
  // io_context once no table has a commit in flight any more and what those
  // commits acknowledged has been handed to the connections. (With several
  // nodes, this is where the tables' leases are handed over.)
  void drain(std::function<void()> idle);
  bool draining() const { return draining_.load(); }

  // ---- for tables (TableHost, server/table/host.h) ----
  // To every open connection of the player.
  void send_to_player(const std::string& player_id, const Frame& frame) override;
  // The player's open connections now (one per session).
  std::vector<std::shared_ptr<Client>> connections_of(const std::string& player_id) override;
  // True while any connection of the player is open.
  bool is_connected(const std::string& player_id);
  // When the player's last connection went (the server's start for players not
  // seen since); nullopt while connected.
  std::optional<std::chrono::steady_clock::time_point> away_since(const std::string& player_id) override;
  std::string name_of(const std::string& player_id) override;
  void seat_changed(const std::string& player_id, const std::string& table, bool seated) override;
  void table_started(const std::string& table) override;
  // The table ended (over or closed): it is forgotten after
  // --finished-table-ttl-seconds. `owed`: players still owed its game_over,
  // whose list of tables keeps it until then.
  void table_finished(const std::shared_ptr<Table>& table, std::vector<std::string> owed) override;
  void forget_table(const std::string& table) override;
  // A rematch: a new table like `old`, with `seats` pre-filled. Calls `done`
  // with the new table (null on failure) once stored. Refused at once (and
  // `done` not called) when `by` has too many unfinished tables.
  std::optional<protocol::Refusal> create_rematch(const TableSetup& old, const std::string& by,
                                                  std::vector<StoredSeat> seats,
                                                  std::function<void(std::shared_ptr<Table>)> done) override;
  CreateResult make_game(const TableSetup& setup) const override;
  bool deal_withheld(const std::string& table) override;
  // Why a table of setup.game with setup.options may not be created here
  // (unknown game, an option for test servers only, a server setting given as
  // an option), or nullopt.
  std::optional<protocol::Refusal> check_options(const TableSetup& setup) const override;
  // Refused (too_many_tables) when `player` would have more than
  // --max-tables-per-player unfinished tables with `more` new ones: every path
  // that opens a table for a player asks here first.
  std::optional<protocol::Refusal> table_limit(const std::string& player_id, int more = 1);
  // The same check, and on success `count` tables counted against the player
  // at once (a duplicate event's first tables, before they are stored).
  std::optional<protocol::Refusal> reserve_tables(const std::string& player_id, int count) override;
  void release_tables(const std::string& player_id, int count) override;

  // ---- for duplicate events ----
  Tournaments& tournaments() { return *tournaments_; }
  // ---- friends (server/lobby/friends.h) ----
  Friends& friends() { return *friends_; }
  // The tables the player sits at or created (and finished ones owed to them).
  std::vector<std::shared_ptr<Table>> tables_of(const std::string& player_id);
  bool known_player(const std::string& player_id) override;
  // A fresh table id (not yet registered).
  std::string reserve_table_id() override;
  // Registers and opens a table whose seats are all given (it starts at once).
  // `counted`: reserve_tables already counted it against its creator.
  void open_event_table(const TableSetup& setup, std::vector<StoredSeat> seats, bool counted = false) override;
  Store& store() override { return store_; }
  const Config& config() const override { return config_; }
  boost::asio::io_context& io() override { return io_; }
  // Where searching bots think (null when --bot-threads is 0).
  BotPool* bot_pool() override { return bot_pool_.get(); }
  // Runs `f(ok)` on the io_context after a store write.
  Store::Done on_io(std::function<void(bool)> f) override;
  Notices* notices() override;

  // ---- notifications outside the page (server/lobby/notifier.h) ----
  // Tells `player_id` through their webhooks and the operator's: `kind` is
  // "your_turn", "game_over" or "invitation"; `about` names the table and
  // game ({"table", "game"}, and "from": the inviter's name). Never waits.
  void notify(const std::string& player_id, const std::string& kind, nlohmann::json about);
  Notifier& notifier() { return *notifier_; }
  // Stops the deliveries (before the store goes away).
  void stop_notifications();
  // The player whose session token this is (HTTP's Authorization: Bearer), or
  // nullopt for an unknown or revoked one.
  std::optional<std::string> player_of_token(const std::string& token);

  // ---- cluster mode (docs/cluster.md; server/cluster/cluster.h) ----
  // Before recover(): tables are then claimed by the cluster, not all loaded.
  void set_cluster(ClusterPort* cluster) { cluster_ = cluster; }
  ClusterPort* cluster() { return cluster_; }
  bool clustered() const override { return cluster_ != nullptr; }
  // Registers and replays a stored table (the restart code path). False when
  // it does not replay.
  bool adopt_table(const StoredTable& stored);
  std::shared_ptr<Table> table(const std::string& id);
  // Forgets a table another node now runs (its lease stays theirs).
  void drop_table(const std::string& id);
  // A connection held by another node for one of its players: it becomes the
  // player's connection here unless one is live. False for an unknown player.
  bool attach_remote(const std::shared_ptr<Client>& client);

  // ---- sessions and accounts (docs/accounts.md; server/http/accounts.h) ----
  // The player whose live session has this token hash, or "".
  std::string player_of_session(const std::string& token_hash);
  // A session stored for `player_id`: `hello` with its token resumes them.
  void session_added(const std::string& token_hash, const std::string& player_id);
  // Sessions deleted from the store: their tokens stop working, and their open
  // connections get the error `code` and are closed.
  void sessions_revoked(const std::vector<std::string>& token_hashes, const protocol::Refusal& why);
  // Whether the session has an open connection here.
  bool session_connected(const std::string& token_hash);
  // The player claimed `handle` (stored): their name is the handle, and no
  // guest may take a name that looks like it (`skeleton`).
  void account_claimed(const std::string& player_id, const std::string& handle, const std::string& skeleton);
  // Whether a new guest may not take a name with this skeleton (a banned
  // player's name, or a claimed handle).
  bool name_reserved(const std::string& skeleton);

  // ---- for HTTP ----
  // A finished game's replay; status 200, 403 (not over, or a private table
  // asked for without its invite code or a seated player's token) or 404.
  nlohmann::json replay(const std::string& table, int& status, const std::string& invite = {},
                        const std::string& token = {});
  nlohmann::json leaderboard(const std::string& game);
  // "Your games" (docs/protocol.md): the player's unfinished tables, those
  // waiting for them first. In a cluster it reads the store (call it off the
  // event loops: Cluster::offload) for the tables other nodes run.
  nlohmann::json my_tables(const std::string& player_id);
  // The same for the player whose token is `token` (GET /api/my-tables);
  // status 200, or 401 with an unknown token.
  nlohmann::json my_tables_by_token(const std::string& token, int& status);
  // A player's public profile (docs/ratings.md); status 200 or 404.
  nlohmann::json player_profile(const std::string& id, int& status);
  std::size_t table_count();

  // ---- the admin API (server/http/admin.cpp, docs/operations.md#admin-api) ----
  // Each returns the JSON body and sets the HTTP status, or gives both to an
  // AdminAnswer (at once, or later when another node of a cluster answers).
  // In cluster mode every one of them acts on the whole cluster.
  using AdminAnswer = std::function<void(int status, nlohmann::json body)>;
  void admin_tables(AdminAnswer done);
  void admin_close_table(const std::string& table, const std::string& reason, AdminAnswer done);
  void admin_disconnect(const std::string& player_id, AdminAnswer done);
  nlohmann::json admin_ban(const std::string& player_id, const std::string& reason, int& status);
  nlohmann::json admin_unban(const std::string& player_id, int& status);
  nlohmann::json admin_bans();
  bool is_banned(const std::string& player_id);
  // An admin request another node passed on ({"op": "close", "table",
  // "reason"}, {"op": "disconnect", "player"}, {"op": "ban" | "unban",
  // "player"}): carried out on this node alone.
  nlohmann::json admin_here(const nlohmann::json& request, int& status);
  // What GET /metrics reads from the lobby at scrape time.
  struct Gauges {
    std::vector<std::pair<std::string, std::int64_t>> tables_by_state;
    std::int64_t players_connected = 0;
  };
  Gauges gauges();

 private:
  void load_bans();
  // Whether the replay of a private table may be given: its invite code, the
  // token of its creator or of a player seated there, or an event's table.
  bool may_replay(const StoredTable& stored, const std::string& invite, const std::string& token);
  // Cluster mode: the player's ban as the store has it now (set or lifted on
  // any node).
  void refresh_ban(const std::string& player_id);
  nlohmann::json admin_local_tables();  // the tables in this node's memory
  nlohmann::json admin_close_here(const std::string& table, const std::string& reason, int& status);
  nlohmann::json admin_disconnect_here(const std::string& player_id, int& status);
  // Tells the player's connection on this node (not one held for another
  // node) that they are banned, and closes it. True if there was one.
  bool kick_banned(const std::string& player_id);
  // A token bucket per client address (new players, wrong invite codes).
  using AddressBuckets = Buckets;
  // One open connection of a player, and the session it said hello with.
  struct Link {
    std::string session;  // token hash; "remote:…" for a connection held for another node
    std::weak_ptr<Client> client;
  };
  struct Player {
    std::string id;
    std::string name;
    std::string token_hash;  // of the session it was registered with
    std::vector<Link> links;  // open connections, one per session
    // Unfinished tables where they sit or that they created, and finished
    // ones whose game_over they are owed.
    std::set<std::string> tables;
    std::chrono::steady_clock::time_point gone_since{};  // while not connected
    int open_created = 0;          // unfinished tables they created
    bool connected() const;
    std::vector<std::shared_ptr<Client>> live() const;
  };

  // ---- the dispatch (lobby.cpp): one handler per client message ----
  // A message being answered: who sent it, its request id, its text (passed
  // on unchanged to the node that runs its table, in a cluster), and
  // `resume`, to be called once the connection may read its next frame.
  struct Request {
    const std::shared_ptr<Client>& client;
    std::optional<nlohmann::json> id;
    std::string_view text;
    std::function<void()> resume;
  };
  // Each calls r.resume once it answered (at once, or after the database or
  // another node did their part).
  void on(Request& r, const protocol::Hello& m);
  void on(Request& r, const protocol::Ping& m);
  void on(Request& r, protocol::CreateTable& m);
  void on(Request& r, const protocol::ListTables& m);
  void on(Request& r, const protocol::MyTables& m);
  void on(Request& r, protocol::CreateEvent& m);
  void on(Request& r, const protocol::AnswerInvitation& m);
  void on(Request& r, const protocol::DeclineTableInvitation& m);
  // The messages bound to one table, once at_table found it here (r.resume
  // is called after them).
  void on(Request& r, Table& table, const protocol::Join& m);
  void on(Request& r, Table& table, const protocol::Spectate& m);
  void on(Request& r, Table& table, const protocol::Leave& m);
  void on(Request& r, Table& table, const protocol::AddBot& m);
  void on(Request& r, Table& table, protocol::ActionMessage& m);
  void on(Request& r, Table& table, protocol::Chat& m);
  void on(Request& r, Table& table, const protocol::Rematch& m);
  void on(Request& r, Table& table, const protocol::Resync& m);
  void on(Request& r, Table& table, const protocol::InviteFriend& m);
  // The table a table-bound message names, when it runs here and the sender
  // may reach it (`admission`: see find_table). Null when the message was
  // answered instead (an error, or passed on to the node that runs the table
  // in a cluster): then r.resume is called, or handed on.
  std::shared_ptr<Table> at_table(Request& r, const protocol::TableRef& at, bool admission);

  // `looked_up`: cluster mode, the token's player and ban were read from the
  // store already (on the cluster's pool, never on an event loop).
  void hello(const std::shared_ptr<Client>& client, const protocol::Hello& m,
             const std::optional<nlohmann::json>& id, std::function<void()> resume, bool looked_up = false);
  void open_created_table(const std::shared_ptr<Client>& client, const std::shared_ptr<Table>& table,
                          std::vector<StoredSeat> seats, int seat, const std::optional<nlohmann::json>& id);
  // The table a message names by "table" or "invite". A private table named by
  // its id is found only for its creator, its players and those who gave its
  // invite before; wrong invite codes spend the address's bucket, and with it
  // empty no invite is looked up. `refusal` says why when null comes back for
  // a reason other than an unknown table.
  // `missed`: set when an invite code was not found here (the caller counts it
  // as a wrong guess unless another node of a cluster knows it).
  // `admission` false: a private table by its id is found for anyone (an
  // action, which the table refuses itself to anyone not seated there).
  std::shared_ptr<Table> find_table(const std::shared_ptr<Client>& client, const protocol::TableRef& at,
                                    std::optional<protocol::Refusal>& refusal, bool& missed, bool admission);
  std::shared_ptr<Table> find_table(const std::string& id);
  void forget_later(const std::string& table, std::chrono::seconds after,
                    std::vector<std::string> owed);
  // `claimed`: its lease is already this node's (a takeover).
  std::shared_ptr<Table> register_table(TableSetup setup, std::unique_ptr<Game> game, bool claimed = false);
  std::string unique_table_id();
  std::string unique_invite();

  boost::asio::io_context& io_;  // shards_.front()
  std::vector<boost::asio::io_context*> shards_;
  std::atomic<std::size_t> next_shard_{0};
  Store& store_;
  Config config_;
  GameFactory factory_;
  std::vector<std::string> games_;

  std::atomic<bool> draining_{false};
  LobbyMutex mutex_;
  std::map<std::string, Player> players_;              // by id
  std::map<std::string, std::string> by_token_;        // session token hash -> id
  std::map<std::string, std::shared_ptr<Table>> tables_;  // by id
  std::map<std::string, std::string> by_invite_;       // invite -> id
  std::set<std::string> banned_;                       // player ids (table bans)
  std::set<std::string> reserved_names_;               // skeletons: banned names, claimed handles
  AddressBuckets new_players_;
  AddressBuckets invite_guesses_;
  std::unique_ptr<Tournaments> tournaments_;
  std::unique_ptr<Friends> friends_;
  ClusterPort* cluster_ = nullptr;
  // Cluster mode: a player registered on another node, from the store (by id
  // or by token hash); false when unknown there too.
  bool load_player(const std::string& column, const std::string& value);
  void forget(const std::string& id, bool release_lease);
  std::unique_ptr<Notifier> notifier_;
  // Last: destroyed first, so no search is running when the rest goes.
  std::unique_ptr<BotPool> bot_pool_;
};

// Resume tokens are stored as their SHA-256.
using casa::sha256_hex;

}  // namespace casa::server
