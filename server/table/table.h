// SPDX-License-Identifier: AGPL-3.0-or-later
// One table: its seats, its game, its action log. A table is an actor: every
// public method posts to the table's strand, so its state needs no lock (the
// summary snapshot, read by list_tables from any thread, has its own mutex).
//
// Invariants:
//  * seq_ == log_.size(); the engine state is the seed + options + log_.
//  * An action is told to anyone (accepted, events, requests) only after the
//    store committed it; while a commit is in flight, further work waits in
//    deferred_ so actions stay strictly ordered.
//  * An event goes only to the seats in its audience, and to spectators only
//    when the engine marks it for them.
//  * A chat line is shown to anyone only after the store committed it, and a
//    team line only ever to the seats of the speaker's team (live or in the
//    history table_state carries), never to the other team or a spectator.
//  * A finished game's game_over reaches every seated player: those away when
//    it ended (and, after a restart, every seated player) are owed it, and get
//    it with the table_state when they come back.
//  * A seat's `connections` are its player's open connections (one per device)
//    as the lobby last said: read from the host when the player sits down, and
//    again whenever the lobby tells the table (player_connection,
//    refresh_connections) that they changed. The move path sends through them
//    and asks the host nothing, so a move takes no lock shared with other
//    tables. Every frame for a seat goes to each of its connections, in the
//    table's order; only the table_state (and request) a resuming connection
//    needs goes to that connection alone.
//  * A seat's `away` follows the lobby's view of its player's connection; a
//    bot plays for an away seat (`played_by`) only once its grace period ran
//    out, only while some human of the table is still connected, and never
//    after the player is back.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.h"
#include "engine/rng.h"
#include "server/net/client.h"
#include "server/store/store.h"
#include "server/table/host.h"

namespace casa::server {

struct TableSetup {
  std::string id;
  std::string game;
  int players = 0;
  nlohmann::json options = nlohmann::json::object();  // as given to the engine
  std::uint64_t seed = 0;
  bool is_private = false;
  std::string invite;
  std::string creator;  // player id
  int move_timeout_seconds = 0;
  // A correspondence table (docs/protocol.md, "Correspondence tables"): played
  // at the players' own pace, never closed for being empty; its move deadline
  // is stored, and when it runs out for an away player the disconnect policy
  // applies.
  bool correspondence = false;
  // The disconnect policy: after grace_seconds away, a bot plays the seat until
  // its player returns ("robot" or "strong"), or the seat waits ("none"). The
  // same bot makes the move of a seat whose move timer runs out ("none": the robot).
  int grace_seconds = 60;
  std::string takeover = "robot";
  // "forfeit": a seat whose move timer runs out forfeits the game (the table
  // closes with reason "forfeit"); an away seat waits, as with "none".
  bool takes_over() const { return takeover == "robot" || takeover == "strong"; }
  bool forfeits() const { return takeover == "forfeit"; }
  const char* timer_bot() const { return takeover == "strong" ? "strong" : "robot"; }
  // Whether the result moves ratings; unset: rated when every seat holds a
  // person at the end (docs/ratings.md).
  std::optional<bool> rated;
  // The deal commitment (docs/fair-play.md): a salt drawn afresh for every new
  // table when it is opened, and the published SHA-256 over salt and seed. Empty
  // for tables stored before commitments existed.
  std::string deal_salt;
  std::string deal_commitment;
};

class Table : public std::enable_shared_from_this<Table> {
 public:
  using Reply = std::optional<nlohmann::json>;  // a request id to echo

  Table(TableHost& host, boost::asio::io_context& io, TableSetup setup, std::unique_ptr<Game> game);

  const std::string& id() const { return setup_.id; }
  const TableSetup& setup() const { return setup_; }
  // The network thread's event loop this table's strand and timers live on.
  boost::asio::io_context& io() const { return io_; }
  // Whether the lobby holds this table under its id: set by the lobby, under
  // its lock, when it registers and forgets the table. A connection's next
  // action finds its table without that lock while this holds.
  bool registered() const { return registered_.load(std::memory_order_acquire); }
  void set_registered(bool on) { registered_.store(on, std::memory_order_release); }

  // Before first use of a new table: seats it, stores it, then calls `after` on
  // the strand (ok = stored), and sends the creator its table_state.
  void open(std::vector<StoredSeat> seats, std::shared_ptr<Client> creator,
            std::function<void(bool ok)> after);
  // Before first use of a recovered table (not on the strand: nothing else runs
  // yet). Returns why the log does not replay, or nullopt.
  std::optional<std::string> restore(const StoredTable& stored);

  void join(std::shared_ptr<Client> client, std::optional<int> seat, Reply id);
  void leave(std::shared_ptr<Client> client, Reply id);
  // `history` (spectate, resync): a `history` message follows the table_state
  // (docs/protocol.md, "History").
  void spectate(std::shared_ptr<Client> client, Reply id, bool history = false);
  void add_bot(std::shared_ptr<Client> client, int seat, std::string bot, Reply id);
  void act(std::shared_ptr<Client> client, std::int64_t seq, Value action, Reply id);
  void chat(std::shared_ptr<Client> client, std::string text, bool team, Reply id);
  void resync(std::shared_ptr<Client> client, Reply id, bool history = false);
  void rematch(std::shared_ptr<Client> client, Reply id);
  // A seated player, or the creator, (re)connected or dropped. The table reads
  // the player's connections from the host again (on its strand, so the last of
  // several such calls sees the newest connections whatever their order).
  // `resumed`: the connection that came (it alone gets the table_state and
  // request); null: every connection of the player gets them.
  void player_connection(std::string player_id, bool connected, std::shared_ptr<Client> resumed = nullptr);
  // Reads every seat's connection from the host again, with no message to
  // anyone: after the lobby listed a recovered table among its players'
  // tables, or when a player's connection moved without a reconnect.
  void refresh_connections();
  // An operator closes the table (server/http/admin.cpp): everyone there gets
  // table_closed with reason "admin" and `message`, which is stored with it.
  // Nothing happens to a table that is already over or closed.
  void admin_close(std::string message);
  // The node drains (docs/server.md, "Stopping"): no further action is
  // committed here (a move that arrives is refused with `draining`, a bot or a
  // timer simply does not move). `idle` runs on the strand once the commit in
  // flight, if any, is done and told, so the log stops at an acknowledged
  // action that the next owner of the table replays.
  void freeze(std::function<void()> idle);
  // Cluster mode: this node lost the table to another (docs/cluster.md). It
  // stops playing at once, writes and tells nothing, and hands `done` the
  // connections of its seated players and spectators (on the strand).
  void abandon(std::function<void(std::vector<std::shared_ptr<Client>>)> done);

  // {table, game, players, private, status, seats, options, move_timeout_seconds,
  // disconnect_policy}.
  nlohmann::json summary() const;
  bool listed() const;  // public and waiting
  // A private table answers a message that names it by its id alone only for
  // these players: its creator, everyone ever seated at it (by its creator, a
  // rematch, an event, or by joining), and those who gave its invite code on
  // this node since it was loaded (Lobby::find_table). Thread-safe.
  bool admits(const std::string& player_id) const;
  void admit(const std::string& player_id);
  // The summary's status ("waiting", "playing", "over", "closed") without
  // copying the summary: /metrics counts every table by it.
  const char* summary_status() const;
  // The table as "Your games" lists it for `player_id` (docs/protocol.md,
  // "Your games"), or null when the player does not sit here or the game is
  // over or closed. Public facts only. Thread-safe.
  nlohmann::json brief(const std::string& player_id) const;

 private:
  enum class Status { waiting, playing, over, closed };
  using Clock = std::chrono::steady_clock;
  struct SeatState {
    std::string player_id;  // human
    std::string bot;        // or bot
    // The player's connections (see the invariants); none while away.
    std::vector<std::weak_ptr<Client>> connections;
    bool left_game = false; // the bot replaced a player who left the started game
    // Correspondence: the seat's move time ran out while its player was away;
    // the policy's bot plays it until the player comes back (stored).
    bool timed_out = false;
    // While the human is disconnected:
    bool away = false;
    Clock::time_point takeover_at{};  // set while the grace period runs
    std::string played_by;            // the bot playing for them
    bool owes_game_over = false;      // over, and its player has not been sent game_over
    // Its away player was told (your_turn) of the decision asked of them now;
    // cleared once the seat is not to act any more, or its player is back.
    bool turn_told = false;
    int resuming = 0;                 // connections of its player waiting for their table_state
    // The view one connection of this seat (the first that takes view
    // patches) holds from its last request: its next request says only what
    // changed. The seat's other connections get whole views.
    std::weak_ptr<Client> view_client;
    Value view_base;
    bool empty() const { return player_id.empty() && bot.empty(); }
  };
  struct Pending {  // the latest request of a seat
    std::int64_t seq = -1;
    std::vector<Value> legal;
  };
  struct LoggedAction {
    Seat seat;
    Action action;
    std::string auto_by;  // as the action's events said (`auto`)
  };

  template <class F>
  void on_strand(F&& f);
  // Runs f now, or after the commit in flight (f is then kept, as a
  // std::function, only in that case).
  template <class F>
  void when_idle(F&& f) {
    if (!committing_) {
      f();
    } else {
      defer(std::function<void()>(std::forward<F>(f)));
    }
  }
  void defer(std::function<void()> f);
  void drain_deferred();

  void send_to_seat(Seat seat, const Frame& frame);
  // To `only` when given, else to every connection of the player.
  void tell_player(const std::string& player_id, const std::shared_ptr<Client>& only, const Frame& frame);
  // Sets the seat's connections from the host (the lobby's lock; never on the move path).
  void look_up_connection(SeatState& seat);
  void send_to_all(const Frame& frame);  // seated humans and spectators
  void send_to_spectators(const Frame& frame);
  // `history`: a `history` message follows the table_state (once started).
  void send_state(const std::shared_ptr<Client>& client, Seat seat, bool history = false);
  // The seat's player sat down from `client`: their other devices get the
  // table_state (and request) too.
  void state_to_other_devices(Seat seat, const std::shared_ptr<Client>& client);
  // To every connection of the seat, or to `only`.
  void send_request(Seat seat, const std::shared_ptr<Client>& only = nullptr);
  // The seat's connection got a table_state (a whole view): its next request
  // carries the whole view again.
  void forget_view(Seat seat);
  void broadcast_update();  // refresh_summary() then send_update()
  void send_update();       // table_update to everyone at the table
  void refresh_summary();

  // chat_ lines `viewer` may see, as table_state's `chat` (null: none).
  nlohmann::json chat_json(Seat viewer) const;
  bool may_see(const StoredChat& line, Seat viewer) const;
  void chat_committed(bool ok, StoredChat line, const std::shared_ptr<Client>& client, Reply id);
  std::string game_over_frame() const;
  nlohmann::json seats_json() const;
  nlohmann::json table_state(Seat seat) const;
  // The `history` message for `viewer` (a seat, or kSpectator): the events of
  // the game so far that reached it live, as they were sent then, and every
  // round's summary among them. Replays the log on a fresh game.
  std::string history_frame(Seat viewer) const;
  Seat seat_of(const std::string& player_id) const;
  bool all_seated() const;
  const char* status_name() const;

  void start();
  // Brings every seat's away / takeover state up to date with the lobby and
  // arms the takeover timer; true when something visible changed.
  bool update_presence();
  // update_presence(), then tells everyone, lets bots act, checks for death.
  void refresh_presence();
  // The bot that decides for seat s now ("" = its human decides).
  std::string bot_for(Seat s) const;
  // Why a bot's move for seat s is made on the seat's behalf ("" = a bot seat).
  std::string auto_reason(Seat s) const;
  // Closes the table now if it is dead, else arms dead_timer_ for when it may be.
  void check_dead();
  // `seats`: the seats that forfeited (reason "forfeit").
  void close(const std::string& reason, const std::string& message, const std::vector<Seat>& seats = {});
  // The game stops (it is over or closed): every timer is cancelled and no
  // pending request can be answered any more.
  void stop_play();
  nlohmann::json clock_json() const;
  nlohmann::json policy_json() const;
  // {"seed", "salt"} once the game is over; null before, and for tables without a commitment.
  nlohmann::json deal_reveal() const;
  void issue_requests();
  // Tells seat s's away player that it is their turn (see table.cpp).
  void tell_turn(Seat s);
  void schedule_bots();
  // Starts a searching bot's think for seat s on the bot pool (the move comes
  // back on the strand if the state is still `at`); false if the pool is saturated.
  // `auto_by` says why the move is the server's (as submit's); "timer": the seat's
  // player may still answer first, a bot's seat must still be played by a bot.
  bool think_on_pool(Seat s, std::int64_t at, const std::string& auto_by);
  void arm_timer();
  // The move timer ran out for the seats it ran for.
  void time_out();
  // Correspondence: stores the running clock and the timed-out seats.
  void store_clock();
  // Seats whose time ran out (correspondence).
  std::vector<int> timed_out_seats() const;
  // Applies an action already validated by the engine; commits it; then tells.
  // `auto_by`: why the server chose the action for the seat ("" = it did not).
  void submit(Seat seat, const Action& action, std::shared_ptr<Client> actor, Reply id,
              const std::string& auto_by = {});
  void committed(bool ok, Seat seat, Action action, std::vector<Event> events,
                 std::shared_ptr<Client> actor, Reply id, std::string auto_by);
  void finish();
  void rebuild_game();
  StoredSeat stored_seat(Seat s) const;

  TableHost& host_;
  Notices* notices_;  // the host's, read once (null: no notifications)
  // While a recovered table issues its first requests: the players to act were
  // told before the restart, so they are not told again.
  bool quiet_turns_ = false;
  boost::asio::io_context& io_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::steady_timer move_timer_;
  bool frozen_ = false;  // freeze(): no more commits
  std::chrono::steady_clock::time_point move_deadline_{};
  std::int64_t move_deadline_ms_ = 0;  // the same deadline in unix milliseconds
  // Correspondence: the clock stored before a restart or a move to this node;
  // the first timer for the same decision keeps its deadline.
  std::optional<StoredClock> restored_clock_;
  std::uint64_t timer_generation_ = 0;
  std::vector<Seat> clock_seats_;  // whose move timer runs (empty: none)
  std::int64_t clock_seq_ = -1;    // the seq at which it started
  boost::asio::steady_timer takeover_timer_;
  std::uint64_t takeover_generation_ = 0;
  boost::asio::steady_timer dead_timer_;
  std::uint64_t dead_generation_ = 0;
  TableSetup setup_;
  std::unique_ptr<Game> game_;
  Status status_ = Status::waiting;
  std::vector<SeatState> seats_;
  std::vector<Pending> pending_;
  std::vector<LoggedAction> log_;
  std::int64_t seq_ = 0;
  std::vector<std::vector<int>> teams_;
  std::vector<std::pair<std::string, std::weak_ptr<Client>>> spectators_;
  bool committing_ = false;
  // When the player's action being committed came in (zero for the server's own).
  std::chrono::steady_clock::time_point action_received_{};
  bool abandoned_ = false;  // see abandon(): no more requests, bots or timers
  std::deque<std::function<void()>> deferred_;
  Rng bot_rng_;
  std::vector<Action> legal_buffer_;
  std::deque<StoredChat> chat_;  // the last kChatKept lines, oldest first
  std::string rematch_table_;
  std::string rematch_invite_;

  mutable std::mutex admitted_mutex_;
  std::set<std::string> admitted_;  // see admits()
  std::atomic<bool> registered_{false};  // see registered()

  mutable std::mutex summary_mutex_;
  nlohmann::json summary_;
  const char* summary_status_ = "waiting";
  std::vector<int> turn_;            // the seats whose players decide now
  std::int64_t turn_deadline_ms_ = 0;  // their deadline (unix ms), 0: none
  bool listed_ = false;
};

}  // namespace casa::server
