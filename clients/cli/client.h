// The client side of the table protocol (docs/protocol.md), without any socket:
// it takes the server's messages and the user's lines, and says what to send and
// what to print. The transport (main.cpp) feeds it; tests feed it transcripts.
//
// It knows no game rule: when a request comes, it offers the request's `legal`
// list by number (or lets a client-side bot pick from it) and echoes the chosen
// value verbatim with the request's `seq`.
#pragma once

#include <cstdint>
#include <deque>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include "clients/cli/render.h"

namespace casa::cli {

enum class Command { kPlay, kJoin, kWatch, kList };

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
  // kList: only this game ("" = all).
  std::string list_game;
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

  // Messages to send, oldest first; empties the queue.
  std::deque<Json> take_outgoing();
  // The token of the latest welcome (to save for later runs), once it changed.
  std::optional<std::string> take_new_token();

  bool done() const { return exit_code_.has_value(); }
  int exit_code() const { return exit_code_.value_or(kExitOk); }

 private:
  struct PendingRequest {
    std::int64_t seq = 0;
    Json legal;
    Json view;
  };

  void on_welcome(const Json& m);
  void on_request(const Json& m);
  void on_error(const Json& m);
  void on_game_over(const Json& m);
  void answer(const std::string& table, std::size_t choice);
  void prompt();
  void use_typed();
  void finish(int code, const std::string& message = "");
  void send(Json message);
  bool interactive() const { return options_.bot.empty(); }
  bool chatty() const { return interactive() || options_.verbose; }
  std::ostream& screen() { return interactive() ? out_ : log_; }
  std::string game_of(const std::string& table) const;

  ClientOptions options_;
  std::ostream& out_;
  std::ostream& log_;
  std::deque<Json> outgoing_;
  std::optional<std::string> new_token_;
  std::optional<int> exit_code_;
  bool hello_had_token_ = false;
  bool started_ = false;                           // the command's first step was sent
  std::string table_;                              // the table this run is about
  std::map<std::string, std::string> games_;       // table id -> game name
  std::map<std::string, PendingRequest> pending_;  // table id -> unanswered request
  std::deque<std::string> typed_;                  // typed choices waiting for a request
  bool input_closed_ = false;
  std::uint64_t rng_state_;
};

}  // namespace casa::cli
