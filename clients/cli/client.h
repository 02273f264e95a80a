// SPDX-License-Identifier: AGPL-3.0-or-later
// The client side of the table protocol (docs/protocol.md), without any socket:
// it takes the server's messages and the user's lines, and says what to send and
// what to print. The transport (main.cpp) feeds it; tests feed it transcripts.
//
// It knows no game rule: when a request comes, it offers the request's `legal`
// list by number (or lets a client-side bot pick from it) and echoes the chosen
// value verbatim with the request's `seq`.
//
// One run follows the tables it is about (the one it created, joined, watches or
// resumed); a resumed token also brings the state of the player's other unfinished
// tables, which are kept aside (and named once) but neither shown nor played. When
// several tables are followed (`casa resume --all`) every line names its table.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clients/cli/render.h"

namespace casa::cli {

enum class Command { kPlay, kJoin, kWatch, kList, kResume, kRematch, kEventCreate, kEventJoin };

struct ClientOptions {
  Command command = Command::kPlay;
  std::string name;   // player name sent in hello ("" = server's choice)
  std::string token;  // resume token from an earlier welcome ("" = new player)
  // kPlay: the table to create.
  std::string game = "la-casa";
  int players = 4;
  Json options = Json::object();
  bool private_table = false;
  std::string fill;  // server bot for the other seats ("" = wait for people)
  // kJoin / kWatch: the invite code or table id; kJoin: the wanted seat (-1 = any).
  std::string invite;
  int seat = -1;
  // kPlay: the seat's fate when its player disconnects (`disconnect_policy`, null =
  // the server's default) and the move timer (-1 = the server's default).
  Json disconnect_policy;
  int move_timeout_seconds = -1;
  bool correspondence = false;  // a table played at one's own pace (days per move)
  // kList: only this game ("" = all).
  std::string list_game;
  // kResume: the table (id or invite) to follow ("" = list them and ask), or all of
  // them; `list_only` prints the list and ends.
  std::string resume_table;
  bool follow_all = false;
  bool list_only = false;
  // kRematch: the finished table to play again.
  std::string rematch_table;
  // kEventCreate: the event's sides (create_event's `sides`, a member {"me": true}
  // being this player) and boards (0 = the server's default); game, players and
  // options as for kPlay.
  Json event_sides = Json::array();
  int event_boards = 0;
  // kEventJoin: the event, as GET /api/events/{event} gave it before connecting,
  // and how to ask for it again (null = it could not be had). The run plays every
  // table of the event where this player sits, board after board.
  std::string event;
  Json event_info;
  std::function<Json()> fetch_event;
  // Who answers requests: "" = the person at the keyboard; "random" or "first".
  std::string bot;
  std::uint64_t seed = 0;  // the client bot's randomness
  bool verbose = false;    // print views and events even when a bot plays
};

// Exit statuses of the casa command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitServerError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitConnection = 3;

class Client {
 public:
  // `out` gets results (the final scores line, the table list, views when a person
  // plays); `log` gets progress and diagnostics.
  Client(ClientOptions options, std::ostream& out, std::ostream& log);

  // The first message on every connection (also after a reconnect).
  Json hello();
  void on_message(const Json& message);
  // A line the person typed: a number answers the oldest pending request (or the
  // next one, when typed ahead); "say TEXT", "team TEXT" chat; "quit" ends.
  void on_line(const std::string& line);
  // The person's input ended: a request left without an answer ends the run.
  void on_input_closed();
  // The server has been quiet for a moment since the welcome (the transport calls it
  // while wants_settle()): by then it has sent the state of every unfinished table
  // of the token, so `casa resume` can list them.
  bool wants_settle() const;
  void on_settled();
  // Milliseconds from any fixed point (tests set it; default: the steady clock).
  void set_clock(std::function<std::int64_t()> now_ms) { now_ms_ = std::move(now_ms); }
  // The last table whose game ended in this run ("" = none), for `casa rematch`.
  const std::string& finished_table() const { return finished_table_; }

  // Messages to send, oldest first; empties the queue.
  std::deque<Json> take_outgoing();
  // The token of the latest welcome (to save for later runs), once it changed.
  std::optional<std::string> take_new_token();

  bool done() const { return exit_code_.has_value(); }
  int exit_code() const { return exit_code_.value_or(kExitOk); }
  // After the server's `reconnect` (it drains): how long to wait before
  // connecting again, once; nullopt when the server said nothing.
  std::optional<int> take_reconnect_after_ms() {
    auto out = reconnect_after_ms_;
    reconnect_after_ms_.reset();
    return out;
  }

 private:
  std::optional<int> reconnect_after_ms_;
  struct PendingRequest {
    std::int64_t seq = 0;
    Json legal;
    Json view;
    std::int64_t deadline_ms = -1;  // the request's timer, -1 = none
    std::int64_t received_ms = 0;
    bool timer_shown = false;
    std::uint64_t order = 0;  // arrival: the oldest decision is asked first
  };
  // What the run knows of one table, followed or not.
  struct TableInfo {
    int chat_line = 0;  // the highest numbered chat line shown
    std::string game;
    std::string status;
    std::string invite;
    int seat = -1;
    int players = 0;
    Json teams;
    Json options;
    Json disconnect_policy;  // null = not said (an older server)
    int move_timeout_seconds = 0;
    Json seats;  // the latest seat infos
    std::int64_t seats_ms = 0;
    Json view;     // the latest view
    Json request;  // the latest request not yet answered (null = none)
    Json clock;    // the latest clock message
    std::int64_t clock_ms = 0;
    bool shown = false;      // its roster was printed
    bool mentioned = false;  // named once as another table of the token
    bool over = false;
    std::string deal_commitment;  // the SHA-256 the table published (docs/fair-play.md)
  };

  void on_welcome(const Json& m);
  void on_table_state(const Json& m);
  void on_table_update(const Json& m);
  void on_event(const Json& m);
  void on_clock(const Json& m);
  void on_request(const Json& m);
  void on_error(const Json& m);
  void on_game_over(const Json& m);
  void on_table_closed(const Json& m);
  void on_left(const Json& m);
  void on_event_created(const Json& m);
  // casa event join: whether a table is one of the event's where we sit (asking
  // the server again when it is new), and what to do once no table is followed.
  bool event_table(const std::string& table);
  void event_next();
  void refresh_event();
  void follow(const std::string& table);
  void unfollow(const std::string& table);
  bool followed(const std::string& table) const { return followed_.count(table) > 0; }
  void mention(const std::string& table);
  void show_roster(const std::string& table);
  void show_chat(const std::string& table, const Json& m);  // a chat line, once
  void show_state(const std::string& table);
  void list_resumable();
  void on_pick(const std::string& line);
  void answer(const std::string& table, std::size_t choice);
  void prompt();
  void use_typed();
  bool command_line(const std::string& line);
  std::string current_table() const;
  // The followed table whose decision has waited longest ("" = none).
  std::string oldest_pending() const;
  void finish(int code, const std::string& message = "");
  void send(Json message);
  bool interactive() const { return options_.bot.empty(); }
  bool chatty() const { return interactive() || options_.verbose; }
  std::ostream& screen() { return interactive() ? out_ : log_; }
  // Prints a line about a table on the screen, naming the table when several are followed.
  void say(const std::string& table, const std::string& line);
  std::string tag(const std::string& table) const;
  std::string game_of(const std::string& table) const;
  Seating seating(const std::string& table) const;
  std::int64_t time_left_ms(const std::string& table) const;
  std::int64_t now() const { return now_ms_(); }

  ClientOptions options_;
  std::ostream& out_;
  std::ostream& log_;
  std::function<std::int64_t()> now_ms_;
  std::deque<Json> outgoing_;
  std::optional<std::string> new_token_;
  std::optional<int> exit_code_;
  bool hello_had_token_ = false;
  bool started_ = false;   // the command's first step was sent
  bool welcomed_ = false;  // a welcome came (settling may start)
  bool settled_ = false;
  bool picking_ = false;                // casa resume: waiting for the person to pick a table
  bool helped_ = false;                 // the commands were named once
  std::vector<std::string> resumable_;  // casa resume: the tables listed
  std::string table_;                   // the first table this run follows
  std::set<std::string> followed_;      // tables shown and played
  std::string finished_table_;
  bool joining_rematch_ = false;
  std::map<std::string, TableInfo> tables_;        // every table heard of
  std::map<std::string, PendingRequest> pending_;  // followed table -> unanswered request
  std::uint64_t requests_seen_ = 0;
  std::deque<std::string> typed_;  // typed choices waiting for a request
  std::string prompt_again_;       // the prompt line now waiting for input, or empty
  bool input_closed_ = false;
  std::uint64_t rng_state_;
  // casa event join: who we are, the rotations we sit at, the event's tables this
  // run saw end.
  std::string player_id_;
  std::set<int> event_rotations_;
  std::set<std::string> event_over_;
};

}  // namespace casa::cli
