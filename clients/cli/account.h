// SPDX-License-Identifier: AGPL-3.0-or-later
// casa account: the player's account from the terminal (docs/accounts.md, docs/cli.md).
// Claim the name as a handle, sign in on this machine with a password or a device
// link code shown on another device, show a code for another device, list and
// revoke sessions, sign out. The requests go through a transport the caller gives
// (main.cpp's HTTP over Beast; the tests' fake), so this file needs no socket.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace casa::cli {

// One HTTP exchange: what the server answered. `status` 0: no connection (then
// `body` says why).
struct HttpAnswer {
  int status = 0;
  std::string body;
};

// method ("GET", "POST", "DELETE"), target ("/api/account/..."), the JSON body
// (empty: none) and the bearer token (empty: none).
using HttpCall = std::function<HttpAnswer(const std::string& method, const std::string& target,
                                          const std::string& body, const std::string& bearer)>;

// Reads a password without echoing it; `prompt` is written first. Empty at the
// end of the input.
using ReadSecret = std::function<std::string(const std::string& prompt)>;

struct AccountArgs {
  // show (default), claim, password, signin, code, link, sessions, revoke, signout.
  std::string action = "show";
  std::string handle;      // claim, signin
  std::string code;        // link
  std::string session;     // revoke
  std::string label;       // signin, link: the name of this device's session
  bool no_password = false;  // claim without a password (a passkey or a code later)
  bool as_json = false;      // show, sessions: the server's answer as it is
};

// What running the command did to the token of this machine.
struct AccountOutcome {
  int exit = 0;            // kExit* of client.h
  std::string new_token;   // signin, link: the new session's token, to save
  bool forget_token = false;  // signout (or a token the server no longer knows)
};

// Runs `args` with `token` (this machine's session token; may be empty) through
// `http`. Writes what a person reads to `out`, errors to `err`.
AccountOutcome run_account(const AccountArgs& args, const std::string& token, const HttpCall& http,
                           const ReadSecret& read_secret, std::ostream& out, std::ostream& err);

}  // namespace casa::cli
