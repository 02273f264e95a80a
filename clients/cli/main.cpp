// SPDX-License-Identifier: AGPL-3.0-or-later
// casa: the reference client of the table protocol (docs/protocol.md, docs/cli.md).
//
//   casa play   --game G --players N [--options JSON] [--fill BOT] [--bot random|first]
//   casa create --game G --players N [--options JSON] [--private]
//   casa join CODE [--seat N] [--bot random|first]
//   casa resume [TABLE | --all | --list]
//   casa rematch [TABLE]
//   casa watch CODE
//   casa list [--game G]
//   casa verify TABLE [--url URL] [--commitment HASH] [--invite CODE]
//   casa review TABLE|FILE [--seat N]... [--iterations N] [--seed N] [--json] [--bench]
//   casa event create --game G --players N --side SPEC... [--boards B] [--options JSON]
//   casa event join EVENT [--bot random|first]
//   casa event standings EVENT [--follow] [--json]
//
// This file owns the command line, the resume token file and the WebSocket
// transport (Boost.Beast, ws:// and wss://); the protocol itself is client.cpp.
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "clients/cli/account.h"
#include "clients/cli/client.h"
#include "clients/cli/event.h"
#include "cmdline/cmdline.h"
#include "protocol/crypto.h"
#include "review/review.h"
#include "review/robot_replay.h"
#include "verify/verify.h"
#include "versioninfo/version.h"

namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using tcp = boost::asio::ip::tcp;
using casa::cli::Client;
using casa::cli::ClientOptions;
using casa::cli::Command;
using casa::cli::Json;

constexpr int kReconnectAttempts = 5;
// The server answers messages over its budget (by default 20 a second, bursts of
// 40) with rate_limited and drops them; a bot answering at once would get there.
// Sending at most this many a second keeps well inside it.
constexpr double kSendPerSecond = 15;
constexpr double kSendBurst = 20;
// After the welcome of a resumed token the server sends each unfinished table's
// state, one table after the other, with no end marker: this much quiet ends it.
constexpr std::chrono::milliseconds kSettle{600};

struct Url {
  bool tls = false;
  std::string host;
  std::string port;
  std::string path;
};

struct Args {
  ClientOptions client;
  std::string url;
  std::string token_file;
  bool use_token = true;
  bool insecure = false;
  std::string options_text;        // --options, checked once parsed
  std::vector<std::string> sides;  // --side of casa event create, each checked once parsed
};

// The usage lines of the whole program, after the commands CLI11 lists (casa --help).
constexpr const char* kUsage =
    "usage: casa play   --game G --players N [--options JSON] [--fill robot|random|strong|none]\n"
    "                   [--bot random|first] [--private] [--seed S] [--verbose]\n"
    "       casa create --game G --players N [--options JSON] [--private] [--fill BOT]\n"
    "       casa join CODE [--seat N] [--bot random|first]\n"
    "       casa resume [TABLE | --all | --list] [--bot random|first]\n"
    "       casa rematch [TABLE] [--bot random|first]\n"
    "       casa watch CODE\n"
    "       casa list [--game G]\n"
    "       casa verify TABLE [--url URL] [--commitment HASH] [--invite CODE]\n"
    "       casa review TABLE|FILE [--seat N]... [--iterations N] [--seed N] [--json]\n"
    "       casa review --bench [TABLE|FILE] [--runs N]\n"
    "       casa event create|join|standings ...   (casa event --help)\n"
    "       casa account [claim HANDLE | signin HANDLE | code | link CODE | sessions |\n"
    "                     revoke ID | password | signout]   (casa account --help)\n"
    "       casa --version\n"
    "play/create: [--grace SECONDS] [--takeover robot|strong|none|forfeit] [--move-timeout SECONDS]\n"
    "             [--correspondence]   (a time per move of up to 14 days: --move-timeout 86400)\n"
    "common: [--url ws://HOST:PORT/ws] [--name NAME] [--token-file PATH] [--no-token]\n"
    "        [--insecure]   (wss:// without checking the certificate)\n"
    "Each command answers --help. Exit status: 0 done, 1 refused by the server, 2 bad\n"
    "command line, 3 no connection. See docs/cli.md.";

// casa event --help, after the commands CLI11 lists.
constexpr const char* kEventUsage =
    "usage: casa event create --game G --players N --side SPEC --side SPEC ... [--boards B]\n"
    "                         [--options JSON]\n"
    "       casa event join EVENT [--bot random|first] [--verbose]\n"
    "       casa event standings EVENT [--follow] [--every SECONDS] [--json]\n"
    "\n"
    "A duplicate event: every side plays the same deals (boards) once from each\n"
    "side's seats, at one table per side, and is scored against the field.\n"
    "  create     open the event; --side once per side of the game, in seat order:\n"
    "             [NAME=]MEMBER,MEMBER... one member per seat of the side, each one\n"
    "             me, a player id (p… as casa prints it: \"Connected as NAME (p…)\")\n"
    "             or a server bot (robot, random, strong); MEMBERS/MEMBERS names the\n"
    "             side's members at each table in turn. Prints the event's id.\n"
    "  join       play your seats of the event: each table where you sit, board after\n"
    "             board, as casa play does (you choose, or --bot plays for you);\n"
    "             ends with the standings once your tables are played. Players are\n"
    "             named by the creator: join takes up the seats you were given.\n"
    "  standings  the standings against the field; --follow prints them again each\n"
    "             time they change, until the event is over (or Ctrl-C); --json\n"
    "             prints the server's answer (GET /api/events/EVENT) instead.\n"
    "common: [--url ws://HOST:PORT/ws] [--name NAME] [--token-file PATH] [--insecure]\n"
    "Exit status: 0 done, 1 refused by the server (unknown event, not one of its\n"
    "players, a bad side, too many tables), 2 bad command line, 3 no connection.\n"
    "See docs/cli.md and docs/events.md.";

// casa account --help, after the commands CLI11 lists.
constexpr const char* kAccountUsage =
    "usage: casa account                      who this machine plays as\n"
    "       casa account claim HANDLE [--no-password]\n"
    "       casa account signin HANDLE [--label TEXT]\n"
    "       casa account code\n"
    "       casa account link CODE [--label TEXT]\n"
    "       casa account sessions [--json]\n"
    "       casa account revoke ID\n"
    "       casa account password\n"
    "       casa account signout\n"
    "\n"
    "A guest plays from one machine: its token (--token-file) is who it is. Claim\n"
    "the name as an account to play as the same player on every device: sign in\n"
    "elsewhere with the password, or with a one-time code that `casa account code`\n"
    "(or the web page) shows on a device already signed in. Signing in keeps the\n"
    "previous token of this machine in TOKEN-FILE.previous. Passwords are read from\n"
    "the terminal without echo, or one per line from standard input.\n"
    "common: [--url ws://HOST:PORT/ws] [--token-file PATH] [--insecure]\n"
    "Exit status: 0 done, 1 refused by the server (wrong password, unknown code,\n"
    "handle taken, too many attempts), 2 bad command line, 3 no connection.\n"
    "See docs/cli.md and docs/accounts.md.";

[[noreturn]] void account_usage(const std::string& why) {
  std::cerr << "casa: " << why << "\n"
            << "Run 'casa account --help' for its usage.\n";
  std::exit(casa::cli::kExitUsage);
}

// A mistake on the command line found once it is parsed (exit 2).
[[noreturn]] void usage(const std::string& why) {
  std::cerr << "casa: " << why << "\n"
            << "Run 'casa --help' for its usage.\n";
  std::exit(casa::cli::kExitUsage);
}

[[noreturn]] void event_usage(const std::string& why) {
  std::cerr << "casa: " << why << "\n"
            << "Run 'casa event --help' for its usage.\n";
  std::exit(casa::cli::kExitUsage);
}

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

Url parse_url(const std::string& text) {
  Url url;
  std::string rest;
  if (text.rfind("ws://", 0) == 0) {
    rest = text.substr(5);
  } else if (text.rfind("wss://", 0) == 0) {
    url.tls = true;
    rest = text.substr(6);
  } else {
    usage("--url must start with ws:// or wss://");
  }
  const auto slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  url.path = slash == std::string::npos ? "/ws" : rest.substr(slash);
  const auto colon = authority.rfind(':');
  if (colon == std::string::npos || authority.back() == ']') {
    url.host = authority;
    url.port = url.tls ? "443" : "80";
  } else {
    url.host = authority.substr(0, colon);
    url.port = authority.substr(colon + 1);
  }
  if (url.host.size() > 2 && url.host.front() == '[')
    url.host = url.host.substr(1, url.host.size() - 2);
  if (url.host.empty() || url.port.empty()) usage("bad --url " + text);
  return url;
}

// casa verify TABLE: what to fetch and check.
struct VerifyArgs {
  std::string table;
  std::string url;
  std::optional<std::string> published;
  std::string invite;  // a private table's code
  bool insecure = false;
};

// casa review TABLE|FILE: what to fetch (or read) and review, and how.
struct ReviewArgs {
  std::string source;  // a table id, or a replay file
  std::string url;
  std::string invite;
  bool insecure = false;
  std::vector<int> seats;
  int iterations = casa::kReviewDefaultIterations;
  std::uint64_t seed = casa::kReviewDefaultSeed;
  bool as_json = false;
  bool bench = false;
  int runs = 3;
};

// casa event standings EVENT.
struct StandingsArgs {
  std::string event;
  std::string url;
  bool follow = false;
  bool as_json = false;
  bool insecure = false;
  double every = 2;
};

// The whole command line: which of the three ways casa runs, and its arguments.
struct CommandLine {
  enum class Run { kClient, kVerify, kReview, kStandings, kAccount } run = Run::kClient;
  Args args;
  casa::cli::AccountArgs account;
  VerifyArgs verify;
  ReviewArgs review;
  StandingsArgs standings;
};

CommandLine parse_command_line(int argc, char** argv) {
  CommandLine line;
  Args& a = line.args;
  ClientOptions& c = a.client;
  const char* env_url = std::getenv("CASA_URL");
  a.url = env_url ? env_url : "ws://localhost:8080/ws";
  const char* env_token = std::getenv("CASA_TOKEN_FILE");
  const char* home = std::getenv("HOME");
  a.token_file = env_token ? env_token : std::string(home ? home : ".") + "/.config/casa/token";
  c.seed = std::random_device{}();
  line.verify.url = a.url;
  line.review.url = a.url;
  line.standings.url = a.url;

  casa::cmdline::App app{"The reference client of the casa table server.", "casa"};
  app.set_version_flag("--version", casa::version_line("casa"));
  app.footer(kUsage);
  // Where to connect and as whom: every command that opens a WebSocket.
  auto common = [&a](CLI::App* cmd, bool token) {
    cmd->add_option("--url", a.url, "the server, ws://HOST:PORT/ws or wss://... ($CASA_URL)");
    cmd->add_option("--name", a.client.name, "your name at the tables");
    cmd->add_option("--token-file", a.token_file,
                    "the resume token: who you are ($CASA_TOKEN_FILE, ~/.config/casa/token)");
    if (token)
      cmd->add_flag_function(
          "--no-token", [&a](std::int64_t) { a.use_token = false; },
          "neither read nor save a token: a new player");
    cmd->add_flag("--insecure", a.insecure, "wss:// without checking the certificate");
  };
  std::string bot;
  auto bots = [&](CLI::App* cmd) {
    cmd->add_option("--bot", bot, "play by itself: random or first");
    cmd->add_option("--seed", c.seed, "the bot's randomness");
    cmd->add_flag("-v,--verbose", c.verbose, "print every message");
  };
  std::string fill;
  int grace = -1;
  std::string takeover;
  auto table = [&](CLI::App* cmd, bool with_private) {
    cmd->add_option("--game", c.game, "the game (la-casa)");
    cmd->add_option("--players", c.players, "seats at the table (4)");
    cmd->add_option("--options", a.options_text, "the table's options, a JSON object");
    if (!with_private) return;
    cmd->add_option("--fill", fill,
                    "server bots for the empty seats: robot, random, strong or none");
    cmd->add_flag("--private", c.private_table, "joined only with its invite code");
    cmd->add_option("--grace", grace, "seconds a seat is kept for its player who left (60)");
    cmd->add_option("--takeover", takeover,
                    "who plays a seat whose grace is over: robot, strong or none");
    cmd->add_option("--move-timeout", c.move_timeout_seconds,
                    "seconds each seat has for a move before its takeover plays (none)");
    cmd->add_flag("--correspondence", c.correspondence,
                  "a table played at your own pace: --move-timeout of 60 s to 14 days, never closed for being empty");
  };

  CLI::App* play =
      app.add_subcommand("play", "open a table and play it (server bots fill it: robot)");
  table(play, true);
  bots(play);
  common(play, true);
  CLI::App* create = app.add_subcommand("create", "open a table for others to join by its code");
  table(create, true);
  bots(create);
  common(create, true);
  CLI::App* join = app.add_subcommand("join", "take a seat at a table by its invite code");
  join->add_option("CODE", c.invite, "the table's invite code");
  join->add_option("--seat", c.seat, "the seat to take (any)");
  bots(join);
  common(join, true);
  CLI::App* resume = app.add_subcommand("resume", "come back to unfinished tables");
  resume->add_option("TABLE", c.resume_table, "the table (else a pick)");
  resume->add_flag("--all", c.follow_all, "every unfinished table, one after the other");
  resume->add_flag("--list", c.list_only, "list them and exit");
  bots(resume);
  common(resume, true);
  CLI::App* rematch =
      app.add_subcommand("rematch", "a new game with the players of a finished one");
  rematch->add_option("TABLE", c.rematch_table, "the finished table (the last one played)");
  bots(rematch);
  common(rematch, true);
  CLI::App* watch = app.add_subcommand("watch", "follow a table as a spectator");
  watch->add_option("CODE", c.invite, "the table's invite code");
  common(watch, true);
  CLI::App* list = app.add_subcommand("list", "the tables waiting for players");
  list->add_option("--game", c.list_game, "only this game's");
  common(list, true);

  VerifyArgs& v = line.verify;
  CLI::App* verify =
      app.add_subcommand("verify", "check a finished game's replay against its commitment");
  verify->add_option("TABLE", v.table, "the finished table");
  verify->add_option("--url", v.url, "the server: its ws://, wss://, http:// or https:// address");
  std::string commitment;
  verify->add_option("--commitment", commitment, "the commitment published before the deal");
  verify->add_option("--invite", v.invite, "a private table's invite code");
  verify->add_flag("--insecure", v.insecure, "https:// without checking the certificate");

  ReviewArgs& r = line.review;
  CLI::App* review = app.add_subcommand(
      "review", "the strong bot's verdict on each decision of a finished game, computed here");
  review->add_option("TABLE", r.source, "the finished table, or a replay file (its JSON)");
  review->add_option("--seat", r.seats, "a seat to review (repeat it; default: every human seat)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  review->add_option("--iterations", r.iterations,
                     "search iterations per decision (" + std::to_string(casa::kReviewDefaultIterations) + ")");
  review->add_option("--seed", r.seed,
                     "the review's seed (" + std::to_string(casa::kReviewDefaultSeed) + ")");
  review->add_flag("--json", r.as_json, "the review as JSON (docs/review.md)");
  review->add_flag("--bench", r.bench,
                   "time the review (of a robots' 4-player La Casa game without TABLE)");
  review->add_option("--runs", r.runs, "reviews timed with --bench (3)");
  review->add_option("--url", r.url, "the server: its ws://, wss://, http:// or https:// address");
  review->add_option("--invite", r.invite, "a private table's invite code");
  review->add_flag("--insecure", r.insecure, "https:// without checking the certificate");

  CLI::App* event = app.add_subcommand("event", "duplicate events: create, join, standings");
  event->footer(kEventUsage);
  CLI::App* event_create = event->add_subcommand("create", "open a duplicate event; prints its id");
  table(event_create, false);
  event_create
      ->add_option("--side", a.sides, "[NAME=]MEMBER,MEMBER...: once per side, in seat order")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  event_create->add_option("--boards", c.event_boards, "the deals every side plays (the server's)");
  common(event_create, true);
  CLI::App* event_join = event->add_subcommand("join", "play your seats of an event");
  event_join->add_option("EVENT", c.event, "the event's id");
  bots(event_join);
  common(event_join, true);
  StandingsArgs& st = line.standings;
  CLI::App* standings =
      event->add_subcommand("standings", "an event's standings against the field");
  standings->add_option("EVENT", st.event, "the event's id");
  standings->add_flag("-f,--follow", st.follow, "print them again each time they change");
  standings->add_option("--every", st.every, "seconds between two looks with --follow (2)");
  standings->add_flag("--json", st.as_json, "the server's answer (GET /api/events/EVENT)");
  standings->add_option("--url", st.url, "the server ($CASA_URL)");
  standings->add_flag("--insecure", st.insecure, "wss:// without checking the certificate");

  casa::cli::AccountArgs& ac = line.account;
  CLI::App* account = app.add_subcommand("account", "your account: claim, sign in, devices, sessions");
  account->footer(kAccountUsage);
  auto account_common = [&a](CLI::App* cmd) {
    cmd->add_option("--url", a.url, "the server, ws://HOST:PORT/ws or wss://... ($CASA_URL)");
    cmd->add_option("--token-file", a.token_file,
                    "this machine's session token ($CASA_TOKEN_FILE, ~/.config/casa/token)");
    cmd->add_flag("--insecure", a.insecure, "wss:// without checking the certificate");
  };
  account->add_flag("--json", ac.as_json, "the server's answer (GET /api/account)");
  account_common(account);
  CLI::App* account_claim = account->add_subcommand("claim", "claim your name as an account");
  account_claim->add_option("HANDLE", ac.handle, "the handle (3-24 letters, digits, _ - .)");
  account_claim->add_flag("--no-password", ac.no_password, "set no password (sign in with codes)");
  account_common(account_claim);
  CLI::App* account_signin = account->add_subcommand("signin", "sign in on this machine with a password");
  account_signin->add_option("HANDLE", ac.handle, "your handle");
  account_signin->add_option("--label", ac.label, "this device's name in your sessions");
  account_common(account_signin);
  CLI::App* account_code =
      account->add_subcommand("code", "a one-time code to sign in on another device");
  account_common(account_code);
  CLI::App* account_link =
      account->add_subcommand("link", "sign in on this machine with a code from another device");
  account_link->add_option("CODE", ac.code, "the code, as shown (ABCD-EFGH)");
  account_link->add_option("--label", ac.label, "this device's name in your sessions");
  account_common(account_link);
  CLI::App* account_sessions = account->add_subcommand("sessions", "the devices signed in as you");
  account_sessions->add_flag("--json", ac.as_json, "the server's answer");
  account_common(account_sessions);
  CLI::App* account_revoke = account->add_subcommand("revoke", "sign a session out");
  account_revoke->add_option("ID", ac.session, "the session's id, as casa account sessions shows");
  account_common(account_revoke);
  CLI::App* account_password = account->add_subcommand("password", "set or change your password");
  account_common(account_password);
  CLI::App* account_signout = account->add_subcommand("signout", "sign this machine out");
  account_common(account_signout);

  // The words of older versions: casa version, casa help.
  CLI::App* version = app.add_subcommand("version")->group("");
  CLI::App* help = app.add_subcommand("help")->group("");

  casa::cmdline::parse(app, argc, argv, casa::cli::kExitUsage);
  if (version->parsed()) {
    std::cout << casa::version_line("casa") << "\n";
    std::exit(0);
  }
  if (help->parsed()) {
    std::cout << app.help() << "\n";
    std::exit(0);
  }
  if (verify->parsed()) {
    line.run = CommandLine::Run::kVerify;
    if (verify->count("--commitment") > 0) v.published = commitment;
    if (v.table.empty()) usage("verify needs the table of a finished game");
    for (const char ch : v.invite)
      if (!std::isalnum(static_cast<unsigned char>(ch))) usage("bad invite code " + v.invite);
    for (const char ch : v.table)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_')
        usage("bad table id " + v.table);
    return line;
  }
  if (review->parsed()) {
    line.run = CommandLine::Run::kReview;
    if (r.source.empty() && !r.bench) usage("review needs the table of a finished game, or a replay file");
    if (r.iterations < 1 || r.iterations > casa::kReviewMaxIterations)
      usage("--iterations takes 1 to " + std::to_string(casa::kReviewMaxIterations));
    if (r.runs < 1 || r.runs > 100) usage("--runs takes 1 to 100");
    for (const int s : r.seats)
      if (s < 0 || s >= casa::kMaxSeats) usage("bad seat " + std::to_string(s));
    for (const char ch : r.invite)
      if (!std::isalnum(static_cast<unsigned char>(ch))) usage("bad invite code " + r.invite);
    return line;
  }
  if (account->parsed()) {
    line.run = CommandLine::Run::kAccount;
    const std::pair<CLI::App*, const char*> actions[] = {
        {account_claim, "claim"}, {account_signin, "signin"},     {account_code, "code"},
        {account_link, "link"},   {account_sessions, "sessions"}, {account_revoke, "revoke"},
        {account_password, "password"}, {account_signout, "signout"}};
    for (const auto& [cmd, name] : actions)
      if (cmd->parsed()) ac.action = name;
    if ((ac.action == "claim" || ac.action == "signin") && ac.handle.empty())
      account_usage("account " + ac.action + " needs a handle");
    if (ac.action == "link" && ac.code.empty()) account_usage("account link needs the code");
    if (ac.action == "revoke" && !valid_id(ac.session))
      account_usage("account revoke needs a session's id");
    if (ac.handle.size() > 256 || ac.code.size() > 64 || ac.label.size() > 64)
      account_usage("too long: handles, codes and labels are short");
    if (ac.label.empty()) {
      char host[256] = {};
      ac.label = "casa on " + std::string(::gethostname(host, sizeof host - 1) == 0 && host[0] ? host : "a terminal");
      if (ac.label.size() > 64) ac.label.resize(64);
    }
    return line;
  }
  if (event->parsed()) {
    if (standings->parsed()) {
      line.run = CommandLine::Run::kStandings;
      if (st.event.empty()) event_usage("event standings needs the event's id");
      if (!valid_id(st.event)) event_usage("bad event id " + st.event);
      if (!(st.every >= 0.2 && st.every <= 3600)) event_usage("--every takes 0.2 to 3600 seconds");
      return line;
    }
    if (event_create->parsed()) {
      c.command = Command::kEventCreate;
      for (const auto& text : a.sides) {
        std::string why;
        const auto side = casa::cli::parse_side(text, why);
        if (!side) event_usage("bad --side: " + why);
        c.event_sides.push_back(*side);
      }
      if (c.event_boards < 1 && event_create->count("--boards") > 0)
        event_usage("--boards must be at least 1");
    } else if (event_join->parsed()) {
      c.command = Command::kEventJoin;
      if (c.event.empty()) event_usage("event join needs the event's id");
      if (!valid_id(c.event)) event_usage("bad event id " + c.event);
    } else {
      event_usage("event needs create, join or standings");
    }
  } else if (play->parsed()) {
    c.command = Command::kPlay;
    c.fill = "robot";
  } else if (create->parsed()) {
    c.command = Command::kPlay;
  } else if (join->parsed()) {
    c.command = Command::kJoin;
  } else if (watch->parsed()) {
    c.command = Command::kWatch;
  } else if (list->parsed()) {
    c.command = Command::kList;
  } else if (resume->parsed()) {
    c.command = Command::kResume;
  } else if (rematch->parsed()) {
    c.command = Command::kRematch;
  } else {
    usage("missing command");
  }
  if ((c.command == Command::kJoin || c.command == Command::kWatch) && c.invite.empty())
    usage(std::string(join->parsed() ? "join" : "watch") + " needs an invite code");
  if (!a.options_text.empty()) {
    c.options = Json::parse(a.options_text, nullptr, false);
    if (c.options.is_discarded() || !c.options.is_object())
      usage("--options must be a JSON object");
  }
  if (play->count("--fill") + create->count("--fill") > 0) c.fill = fill == "none" ? "" : fill;
  if (!bot.empty()) {
    if (bot != "random" && bot != "first") usage("--bot must be random or first");
    c.bot = bot;
  }
  if (!takeover.empty() && takeover != "robot" && takeover != "strong" && takeover != "none" &&
      takeover != "forfeit")
    usage("--takeover must be robot, strong, none or forfeit");
  if (c.players < 1) usage("--players must be at least 1");
  if (c.command == Command::kEventCreate && c.event_sides.size() < 2)
    event_usage("event create needs a --side for each side of the game (two or more)");
  if (grace > 3600) usage("--grace is at most 3600 seconds");
  if (c.correspondence) {
    if (c.move_timeout_seconds < 0) c.move_timeout_seconds = 86400;  // a day per move
    if (c.move_timeout_seconds > 1209600) usage("--move-timeout is at most 1209600 seconds (14 days)");
  } else if (c.move_timeout_seconds > 3600) {
    usage("--move-timeout is at most 3600 seconds (more with --correspondence)");
  }
  if (grace >= 0 || !takeover.empty())
    c.disconnect_policy = {{"grace_seconds", grace >= 0 ? grace : 60},
                           {"takeover", takeover.empty() ? "robot" : takeover}};
  if (!c.resume_table.empty() && c.follow_all) usage("resume takes a table or --all, not both");
  return line;
}

std::string load_token(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  if (in) std::getline(in, token);
  return token;
}

// The last table played to its end, for `casa rematch` without a table.
std::string last_table_file(const std::string& token_file) { return token_file + ".last-table"; }

void save_token(const std::string& path, const std::string& token) {
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  const mode_t old_mask = ::umask(077);  // the token is the account: owner only
  std::ofstream out(path, std::ios::trunc);
  ::umask(old_mask);
  if (out) out << token << "\n";
  if (!out) std::cerr << "casa: cannot save the resume token to " << path << "\n";
}

// One WebSocket connection driving the Client: reads, hands messages over, writes
// what the Client queued (one write at a time), closes when the Client is done.
template <class Ws>
class Connection {
 public:
  Connection(Ws& ws, Client& client, const Args& args)
      : ws_(ws),
        client_(client),
        args_(args),
        pace_timer_(ws.get_executor()),
        settle_timer_(ws.get_executor()) {}

  void start() {
    queue_.push_back(client_.hello().dump());
    read();
    flush();
  }

  void on_line(const std::string& line) {
    client_.on_line(line);
    flush();
  }

  void on_stdin_closed() {
    client_.on_input_closed();
    flush();
  }

  bool welcomed() const { return welcomed_; }

 private:
  void read() {
    ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
      if (ec) return stop();
      const Json message = Json::parse(beast::buffers_to_string(buffer_.data()), nullptr, false);
      buffer_.consume(buffer_.size());
      if (message.is_discarded()) {
        std::cerr << "casa: the server sent a frame that is not JSON\n";
      } else {
        if (message.value("type", "") == "welcome") welcomed_ = true;
        client_.on_message(message);
      }
      arm_settle();
      flush();
      if (!closing_) read();
    });
  }

  // `casa resume` lists the tables once the server has been quiet for a moment.
  void arm_settle() {
    if (!client_.wants_settle()) return;
    settle_timer_.expires_after(kSettle);
    settle_timer_.async_wait([this](beast::error_code ec) {
      if (ec || closing_ || !client_.wants_settle()) return;
      client_.on_settled();
      flush();
    });
  }

  void flush() {
    if (auto token = client_.take_new_token(); token && args_.use_token)
      save_token(args_.token_file, *token);
    for (auto& m : client_.take_outgoing()) queue_.push_back(m.dump());
    write_next();
  }

  void write_next() {
    if (writing_ || closing_) return;
    if (queue_.empty()) {
      if (client_.done()) close();
      return;
    }
    if (!take_send_token()) {
      // Wait until the budget has one message again.
      writing_ = true;
      pace_timer_.expires_after(
          std::chrono::milliseconds(static_cast<int>(1000 * (1 - tokens_) / kSendPerSecond) + 1));
      pace_timer_.async_wait([this](beast::error_code ec) {
        writing_ = false;
        if (!ec) write_next();
      });
      return;
    }
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()), [this](beast::error_code ec, std::size_t) {
      writing_ = false;
      if (ec) return stop();
      queue_.pop_front();
      write_next();
    });
  }

  bool take_send_token() {
    const auto now = std::chrono::steady_clock::now();
    const std::chrono::duration<double> elapsed = now - last_refill_;
    last_refill_ = now;
    tokens_ = std::min(kSendBurst, tokens_ + elapsed.count() * kSendPerSecond);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

  void close() {
    closing_ = true;
    ws_.async_close(websocket::close_code::normal, [this](beast::error_code) { stop(); });
  }

  // Closing the socket ends the pending read; run() returns once no handler is left,
  // so none outlives this object.
  void stop() {
    closing_ = true;
    pace_timer_.cancel();
    settle_timer_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  Ws& ws_;
  Client& client_;
  const Args& args_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool closing_ = false;
  bool welcomed_ = false;
  net::steady_timer pace_timer_;
  net::steady_timer settle_timer_;
  double tokens_ = kSendBurst;
  std::chrono::steady_clock::time_point last_refill_ = std::chrono::steady_clock::now();
};

// Lines typed by the person, handed to whichever connection is current.
struct Keyboard {
  std::function<void(std::string)> on_line;
  std::function<void()> on_closed;
};

// Connects once and runs until the Client is done or the connection drops.
// Returns whether the server welcomed us on this connection.
template <class Ws>
bool run_connection(net::io_context& ioc, Ws& ws, Client& client, const Args& args,
                    Keyboard& keyboard) {
  Connection<Ws> connection(ws, client, args);
  keyboard.on_line = [&](std::string line) { connection.on_line(line); };
  keyboard.on_closed = [&] { connection.on_stdin_closed(); };
  connection.start();
  ioc.restart();
  ioc.run();
  keyboard.on_line = nullptr;
  keyboard.on_closed = nullptr;
  return connection.welcomed();
}

void configure(auto& ws, const Url& url) {
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  ws.read_message_max(16 * 1024 * 1024);
  ws.handshake(url.host + ":" + url.port, url.path);
}

// Returns whether the server welcomed us; throws on a failed connect or handshake.
bool connect_and_run(net::io_context& ioc, const Url& url, Client& client, const Args& args,
                     Keyboard& keyboard) {
  tcp::resolver resolver(ioc);
  const auto endpoints = resolver.resolve(url.host, url.port);
  if (!url.tls) {
    websocket::stream<beast::tcp_stream> ws(ioc);
    beast::get_lowest_layer(ws).connect(endpoints);
    configure(ws, url);
    return run_connection(ioc, ws, client, args, keyboard);
  }
  ssl::context ctx(ssl::context::tls_client);
  ctx.set_default_verify_paths();
  ctx.set_verify_mode(args.insecure ? ssl::verify_none : ssl::verify_peer);
  if (!args.insecure) ctx.set_verify_callback(ssl::host_name_verification(url.host));
  websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws(ioc, ctx);
  if (!SSL_set_tlsext_host_name(ws.next_layer().native_handle(), url.host.c_str()))
    throw beast::system_error(
        beast::error_code(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category()));
  beast::get_lowest_layer(ws).connect(endpoints);
  ws.next_layer().handshake(ssl::stream_base::client);
  configure(ws, url);
  return run_connection(ioc, ws, client, args, keyboard);
}

// ---- casa verify -----------------------------------------------------------

// The exit status of a replay that does not match its commitment or the engine.
constexpr int kExitMismatch = 4;

// One HTTP request to the server of `url` (http or https): the status and body.
// `body` (JSON) is sent when not empty, `bearer` as the Authorization header.
std::pair<int, std::string> http_request(const Url& url, beast::http::verb method, const std::string& target,
                                         const std::string& body, const std::string& bearer, bool insecure) {
  namespace http = beast::http;
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  const auto endpoints = resolver.resolve(url.host, url.port);
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, url.host + ":" + url.port);
  req.set(http::field::accept, "application/json");
  if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::response<http::string_body> res;
  http::response_parser<http::string_body> parser;
  parser.body_limit(256 * 1024 * 1024);
  beast::flat_buffer buffer;
  if (!url.tls) {
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::seconds(60));
    stream.connect(endpoints);
    http::write(stream, req);
    http::read(stream, buffer, parser);
  } else {
    ssl::context ctx(ssl::context::tls_client);
    ctx.set_default_verify_paths();
    ctx.set_verify_mode(insecure ? ssl::verify_none : ssl::verify_peer);
    if (!insecure) ctx.set_verify_callback(ssl::host_name_verification(url.host));
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    if (!SSL_set_tlsext_host_name(stream.native_handle(), url.host.c_str()))
      throw beast::system_error(
          beast::error_code(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category()));
    beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(60));
    beast::get_lowest_layer(stream).connect(endpoints);
    stream.handshake(ssl::stream_base::client);
    http::write(stream, req);
    http::read(stream, buffer, parser);
  }
  res = parser.release();
  return {static_cast<int>(res.result_int()), res.body()};
}

// GET `target` from the server of `url` (http or https); the status and body.
std::pair<int, std::string> http_get(const Url& url, const std::string& target, bool insecure) {
  return http_request(url, beast::http::verb::get, target, "", "", insecure);
}

// casa verify TABLE [--url URL] [--commitment HASH] [--invite CODE] [--insecure]: fetches the
// replay and checks it with verify_replay (verify/verify.h). The URL may be
// the server's ws:// or wss:// address (as for the other commands) or its
// http:// or https:// one; only host and port are used.
int run_verify(const VerifyArgs& args) {
  const std::string& table = args.table;
  const std::optional<std::string>& published = args.published;
  const std::string& invite = args.invite;
  const bool insecure = args.insecure;
  std::string url_text = args.url;
  if (url_text.rfind("http://", 0) == 0) url_text = "ws://" + url_text.substr(7);
  if (url_text.rfind("https://", 0) == 0) url_text = "wss://" + url_text.substr(8);
  const Url url = parse_url(url_text);
  // A private table's game is given with its invite code.
  const std::string target = "/api/tables/" + table + "/replay" + (invite.empty() ? "" : "?invite=" + invite);
  std::pair<int, std::string> got;
  try {
    got = http_get(url, target, insecure);
  } catch (const std::exception& e) {
    std::cerr << "casa: cannot fetch " << target << " from " << url.host << ":" << url.port << ": " << e.what()
              << "\n";
    return casa::cli::kExitConnection;
  }
  const Json replay = Json::parse(got.second, nullptr, false);
  if (got.first != 200) {
    const std::string code = replay.is_object() ? replay.value("error", "") : "";
    std::cerr << "casa: the server answered " << got.first << (code.empty() ? "" : " (" + code + ")")
              << (code == "not_over" ? ": the game is not over yet; its deal is revealed when it ends" : "")
              << (code == "private_table" ? ": the game was played at a private table; give its code with --invite" : "")
              << "\n";
    return casa::cli::kExitServerError;
  }
  // OpenSSL's SHA-256: sha256_hex, the function the server publishes the commitment
  // with. Without one the verdict says the commitment could not be checked.
  const casa::Sha256Hex sha256 = [](std::string_view text) -> std::optional<std::string> {
    try {
      return casa::sha256_hex(text);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  const auto verdict = casa::verify_replay(replay, sha256, published);
  if (!verdict.honest) {
    std::cout << "NOT VERIFIED: table " << table << ": " << verdict.mismatch << "\n";
    if (verdict.actions_checked > 0)
      std::cout << "(the first " << verdict.actions_checked << " actions matched)\n";
    return kExitMismatch;
  }
  std::cout << "VERIFIED: table " << table << " (" << replay.value("game", "") << ")\n"
            << "  commitment sha256 " << verdict.commitment << " matches the revealed salt and seed "
            << replay["deal"].value("seed", "") << "\n"
            << "  the deal, " << verdict.actions_checked
            << " logged actions (each legal), the final state, scores and winners match the engine\n";
  return casa::cli::kExitOk;
}

// ---- casa review -----------------------------------------------------------

// The replay to review: the file named `source` when there is one, else the
// finished table `source`'s, fetched from the server. Sets *exit on failure.
std::optional<Json> review_source(const ReviewArgs& args, int* exit) {
  const std::string& source = args.source;
  std::error_code not_a_file;
  std::ifstream file;
  if (std::filesystem::is_regular_file(source, not_a_file)) file.open(source);
  if (file.is_open()) {
    std::ostringstream text;
    text << file.rdbuf();
    Json replay = Json::parse(text.str(), nullptr, false);
    if (replay.is_discarded()) {
      std::cerr << "casa: " << source << " is not JSON (a replay: GET /api/tables/TABLE/replay)\n";
      *exit = casa::cli::kExitUsage;
      return std::nullopt;
    }
    return replay;
  }
  for (const char ch : source)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') {
      std::cerr << "casa: no file " << source << ", and it is not a table id\n";
      *exit = casa::cli::kExitUsage;
      return std::nullopt;
    }
  std::string url_text = args.url;
  if (url_text.rfind("http://", 0) == 0) url_text = "ws://" + url_text.substr(7);
  if (url_text.rfind("https://", 0) == 0) url_text = "wss://" + url_text.substr(8);
  const Url url = parse_url(url_text);
  const std::string target =
      "/api/tables/" + source + "/replay" + (args.invite.empty() ? "" : "?invite=" + args.invite);
  std::pair<int, std::string> got;
  try {
    got = http_get(url, target, args.insecure);
  } catch (const std::exception& e) {
    std::cerr << "casa: cannot fetch " << target << " from " << url.host << ":" << url.port << ": "
              << e.what() << "\n";
    *exit = casa::cli::kExitConnection;
    return std::nullopt;
  }
  Json replay = Json::parse(got.second, nullptr, false);
  if (got.first != 200) {
    const std::string code = replay.is_object() ? replay.value("error", "") : "";
    std::cerr << "casa: the server answered " << got.first << (code.empty() ? "" : " (" + code + ")")
              << (code == "not_over" ? ": the game is not over yet; it is reviewed once it ends" : "")
              << (code == "private_table" ? ": the game was played at a private table; give its code with --invite" : "")
              << "\n";
    *exit = casa::cli::kExitServerError;
    return std::nullopt;
  }
  return replay;
}

// casa review TABLE|FILE [--seat N]... [--iterations N] [--seed N] [--json]: the
// review runs here, on this machine's one thread (review/review.h); the server
// only serves the replay, as for any viewer. --bench times it instead.
int run_review(const ReviewArgs& args) {
  casa::ReviewOptions options;
  options.iterations = args.iterations;
  options.seed = args.seed;
  options.seats = args.seats;
  Json replay;
  if (!args.source.empty()) {
    int exit = 0;
    auto got = review_source(args, &exit);
    if (!got) return exit;
    replay = std::move(*got);
  } else {
    // The benchmark's game: the robots' 4-player La Casa from seed 1, every seat reviewed.
    replay = casa::robot_replay("la-casa", 4, Json::object(), 1);
  }
  if (args.bench) {
    // Wall time, and this process's CPU time (what the review itself cost when
    // other programs share the cores).
    std::vector<double> wall, cpu;
    Json review;
    for (int run = 0; run < args.runs; ++run) {
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      review = casa::review_replay(replay, options);
      cpu.push_back(static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      if (review.contains("error")) break;
      std::printf("run %d: %.2f s (CPU %.2f s)\n", run + 1, wall.back(), cpu.back());
    }
    if (review.contains("error")) {
      for (const auto& line : casa::cli::render_review(review)) std::cout << line << "\n";
      return kExitMismatch;
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf("%s, %d players, %zu decisions reviewed, %d iterations each, seed %s\n",
                review.value("game", std::string()).c_str(), replay.value("players", 0),
                review["decisions"].size(), options.iterations, review.value("seed", std::string()).c_str());
    std::printf("seconds: min %.2f / median %.2f / max %.2f of %d runs (one thread)\n", wall.front(),
                wall[wall.size() / 2], wall.back(), args.runs);
    std::printf("CPU seconds: min %.2f / median %.2f / max %.2f\n", cpu.front(), cpu[cpu.size() / 2],
                cpu.back());
    return casa::cli::kExitOk;
  }
  const Json review = casa::review_replay(replay, options);
  if (args.as_json) {
    std::cout << review.dump() << "\n";
  } else {
    for (const auto& line : casa::cli::render_review(review)) std::cout << line << "\n";
  }
  return review.contains("error") ? kExitMismatch : casa::cli::kExitOk;
}

// ---- casa event ------------------------------------------------------------

// The URL of the other commands (ws:// or wss://), or the server's http(s):// one.
Url http_url(std::string text) {
  if (text.rfind("http://", 0) == 0) text = "ws://" + text.substr(7);
  if (text.rfind("https://", 0) == 0) text = "wss://" + text.substr(8);
  return parse_url(text);
}

// GET /api/events/{event}: the answer, or an exit status with its reason said.
struct EventAnswer {
  Json event;
  int exit = casa::cli::kExitOk;
};

EventAnswer fetch_event(const Url& url, const std::string& event, bool insecure,
                        bool quiet = false) {
  const std::string target = "/api/events/" + event;
  std::pair<int, std::string> got;
  try {
    got = http_get(url, target, insecure);
  } catch (const beast::system_error& e) {
    if (!quiet)
      std::cerr << "casa: cannot reach " << url.host << ":" << url.port << " for " << target << ": "
                << e.code().message() << "\n";
    return {Json(), casa::cli::kExitConnection};
  } catch (const std::exception& e) {
    if (!quiet)
      std::cerr << "casa: cannot reach " << url.host << ":" << url.port << " for " << target << ": "
                << e.what() << "\n";
    return {Json(), casa::cli::kExitConnection};
  }
  const Json body = Json::parse(got.second, nullptr, false);
  if (got.first == 404) {
    std::cerr << "casa: there is no event " << event << " on this server\n";
    return {Json(), casa::cli::kExitServerError};
  }
  if (got.first != 200 || !body.is_object()) {
    const std::string code = body.is_object() ? body.value("error", "") : "";
    std::cerr << "casa: the server answered " << got.first
              << (code.empty() ? "" : " (" + code + ")") << " for " << target << "\n";
    return {Json(), casa::cli::kExitServerError};
  }
  return {body, casa::cli::kExitOk};
}

// casa event standings EVENT [--follow] [--every SECONDS] [--json] [--url URL] [--insecure]
int run_event_standings(const StandingsArgs& args) {
  const std::string& event = args.event;
  const std::string& url_text = args.url;
  const bool follow = args.follow, as_json = args.as_json, insecure = args.insecure;
  const double every = args.every;
  const Url url = http_url(url_text);
  std::string shown;
  int failures = 0;
  bool first = true;
  while (true) {
    EventAnswer got = fetch_event(url, event, insecure, !first);
    if (got.exit == casa::cli::kExitConnection && !first && ++failures <= kReconnectAttempts) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250 << failures));
      continue;
    }
    if (got.exit != casa::cli::kExitOk) {
      if (got.exit == casa::cli::kExitConnection && !first)
        std::cerr << "casa: giving up after " << kReconnectAttempts
                  << " attempts to reach the server\n";
      return got.exit;
    }
    failures = 0;
    const std::string key = as_json ? got.event.dump() : casa::cli::standings_key(got.event);
    if (key != shown) {
      if (as_json) {
        std::cout << got.event.dump() << "\n";
      } else {
        if (!first) std::cout << "\n";
        for (const auto& line : casa::cli::render_standings(got.event)) std::cout << line << "\n";
      }
      std::cout << std::flush;
      shown = key;
    }
    first = false;
    if (!follow || got.event.value("status", std::string()) == "over") return casa::cli::kExitOk;
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(every * 1000)));
  }
}

// ---- casa account ----------------------------------------------------------

// A password: from the terminal without echo, or one line of standard input
// (a script's). Empty at the end of the input.
std::string read_secret(const std::string& prompt) {
  const bool tty = ::isatty(STDIN_FILENO) == 1;
  termios saved{};
  bool hidden = false;
  if (tty) {
    std::cerr << prompt << std::flush;
    if (::tcgetattr(STDIN_FILENO, &saved) == 0) {
      termios quiet = saved;
      quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
      hidden = ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0;
    }
  }
  std::string line;
  if (!std::getline(std::cin, line)) line.clear();
  if (hidden) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
  if (tty) std::cerr << "\n";
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

// casa account ...: the account's HTTP API (docs/accounts.md) with this machine's
// token; a sign-in saves the new session's token where the other commands read it.
int run_account_command(const CommandLine& line) {
  const Args& a = line.args;
  std::string url_text = a.url;
  if (url_text.rfind("http://", 0) == 0) url_text = "ws://" + url_text.substr(7);
  if (url_text.rfind("https://", 0) == 0) url_text = "wss://" + url_text.substr(8);
  const Url url = parse_url(url_text);
  const std::string token = load_token(a.token_file);
  const casa::cli::HttpCall http = [&](const std::string& method, const std::string& target,
                                       const std::string& body, const std::string& bearer) {
    namespace bh = beast::http;
    const bh::verb verb =
        method == "GET" ? bh::verb::get : method == "DELETE" ? bh::verb::delete_ : bh::verb::post;
    try {
      auto [status, text] = http_request(url, verb, target, body, bearer, a.insecure);
      return casa::cli::HttpAnswer{status, std::move(text)};
    } catch (const beast::system_error& e) {
      return casa::cli::HttpAnswer{0, url.host + ":" + url.port + ": " + e.code().message()};
    } catch (const std::exception& e) {
      return casa::cli::HttpAnswer{0, url.host + ":" + url.port + ": " + e.what()};
    }
  };
  const casa::cli::AccountOutcome outcome =
      casa::cli::run_account(line.account, token, http, read_secret, std::cout, std::cerr);
  if (!outcome.new_token.empty()) {
    // The guest (or the other account) this machine was stays on the server: its
    // token is kept beside the new one, so it can be resumed by hand.
    if (!token.empty() && token != outcome.new_token) save_token(a.token_file + ".previous", token);
    save_token(a.token_file, outcome.new_token);
  }
  if (outcome.forget_token) {
    std::error_code ec;
    std::filesystem::remove(a.token_file, ec);
  }
  return outcome.exit;
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine line = parse_command_line(argc, argv);
  if (line.run == CommandLine::Run::kVerify) return run_verify(line.verify);
  if (line.run == CommandLine::Run::kReview) return run_review(line.review);
  if (line.run == CommandLine::Run::kStandings) return run_event_standings(line.standings);
  if (line.run == CommandLine::Run::kAccount) return run_account_command(line);
  Args& args = line.args;
  const Url url = parse_url(args.url);
  if (args.use_token) args.client.token = load_token(args.token_file);
  if (args.client.command == Command::kRematch && args.client.rematch_table.empty()) {
    if (args.use_token) args.client.rematch_table = load_token(last_table_file(args.token_file));
    if (args.client.rematch_table.empty()) usage("rematch needs the table of the finished game");
  }
  if (args.client.command == Command::kEventJoin) {
    // Which tables are ours comes from the event; it is asked again as boards open.
    EventAnswer got = fetch_event(url, args.client.event, args.insecure);
    if (got.exit != casa::cli::kExitOk) std::_Exit(got.exit);
    args.client.event_info = std::move(got.event);
    args.client.fetch_event = [url, event = args.client.event, insecure = args.insecure] {
      return fetch_event(url, event, insecure, true).event;
    };
  }
  const bool interactive = args.client.bot.empty() && args.client.command != Command::kList &&
                           args.client.command != Command::kEventCreate && !args.client.list_only;
  Client client(args.client, std::cout, std::cerr);

  net::io_context ioc;
  Keyboard keyboard;
  if (interactive) {
    // getline blocks, so it gets its own thread; each line is handled on the I/O thread.
    std::thread([&ioc, &keyboard] {
      std::string line;
      while (std::getline(std::cin, line))
        net::post(ioc, [&keyboard, line] {
          if (keyboard.on_line) keyboard.on_line(line);
        });
      net::post(ioc, [&keyboard] {
        if (keyboard.on_closed) keyboard.on_closed();
      });
    }).detach();
  }

  int failures = 0;
  bool ever_welcomed = false;
  while (!client.done()) {
    try {
      if (connect_and_run(ioc, url, client, args, keyboard)) {
        failures = 0;
        ever_welcomed = true;
      }
    } catch (const beast::system_error& e) {
      std::cerr << "casa: cannot reach " << args.url << ": " << e.code().message() << "\n";
    }
    if (client.done()) break;
    if (const auto after = client.take_reconnect_after_ms(); after && ever_welcomed) {
      // A drain, not a failure: come back when asked, with the full budget of
      // attempts for the restart (or the other node) to take us.
      failures = 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(*after));
      continue;
    }
    if (!ever_welcomed) std::_Exit(casa::cli::kExitConnection);
    if (++failures > kReconnectAttempts) {
      std::cerr << "casa: giving up after " << kReconnectAttempts << " reconnection attempts\n";
      std::_Exit(casa::cli::kExitConnection);
    }
    std::cerr << "casa: connection lost; reconnecting\n";
    std::this_thread::sleep_for(std::chrono::milliseconds(250 << failures));
  }
  if (args.use_token && !client.finished_table().empty())
    save_token(last_table_file(args.token_file), client.finished_table());
  std::cout.flush();
  // The keyboard thread may still block in getline: leave without joining it.
  std::_Exit(client.exit_code());
}
