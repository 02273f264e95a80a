// SPDX-License-Identifier: AGPL-3.0-or-later
#include "clients/cli/account.h"

#include <ctime>
#include <ostream>

#include <nlohmann/json.hpp>

#include "clients/cli/client.h"

namespace casa::cli {
namespace {


std::string when(const Json& seconds) {
  if (!seconds.is_number_integer()) return "-";
  const std::time_t t = seconds.get<std::int64_t>();
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return "-";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
  return text;
}

std::string text_of(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// One request; on anything but 200 says why on `err` and sets `exit`.
struct Call {
  const HttpCall& http;
  std::ostream& err;
  int exit = kExitOk;
  bool unauthorized = false;

  Json operator()(const std::string& method, const std::string& target, const Json& body,
                  const std::string& bearer) {
    const HttpAnswer answer = http(method, target, body.is_null() ? std::string() : body.dump(), bearer);
    if (answer.status == 0) {
      err << "casa: cannot reach the server: " << answer.body << "\n";
      exit = kExitConnection;
      return nullptr;
    }
    const Json reply = Json::parse(answer.body, nullptr, false);
    if (answer.status == 200 && reply.is_object()) return reply;
    exit = kExitServerError;
    const std::string code = reply.is_object() ? text_of(reply, "error") : std::string();
    const std::string message = reply.is_object() ? text_of(reply, "message") : std::string();
    if (answer.status == 401 && code == "unauthorized") unauthorized = true;
    if (code.empty()) {
      err << "casa: the server answered " << answer.status << "\n";
    } else {
      err << "casa: " << (message.empty() ? code : message) << " (" << code << ")\n";
    }
    if (code == "rate_limited") err << "Too many attempts from here: wait a little and try again.\n";
    if (unauthorized)
      err << "This machine's token is unknown to the server or was signed out: sign in again "
             "(casa account signin HANDLE, or casa account link CODE).\n";
    return nullptr;
  }
};

void describe(const Json& me, std::ostream& out) {
  const std::string name = text_of(me, "name");
  const std::string id = text_of(me, "player_id");
  if (me.value("guest", true)) {
    out << "Guest " << name << " (" << id << "): this machine only.\n"
        << "Claim the name to play from other devices too: casa account claim HANDLE\n";
    return;
  }
  out << "Account " << text_of(me, "handle") << " (" << id << ")"
      << (me.value("is_bot", false) ? ", a bot" : "") << "\n"
      << "  password: " << (me.value("has_password", false) ? "set" : "none") << "\n"
      << "  since:    " << when(me.value("created_at", Json())) << "\n";
}

}  // namespace

AccountOutcome run_account(const AccountArgs& args, const std::string& token, const HttpCall& http,
                           const ReadSecret& read_secret, std::ostream& out, std::ostream& err) {
  AccountOutcome outcome;
  Call call{http, err};
  const bool needs_token = args.action != "signin" && args.action != "link";
  if (needs_token && token.empty()) {
    err << "casa: this machine has no token yet: play once (casa play), or sign in "
           "(casa account signin HANDLE, casa account link CODE)\n";
    outcome.exit = kExitServerError;
    return outcome;
  }
  auto finish = [&] {
    outcome.exit = call.exit;
    return outcome;
  };

  if (args.action == "show") {
    const Json me = call("GET", "/api/account", nullptr, token);
    if (me.is_null()) return finish();
    if (args.as_json) {
      out << me.dump(2) << "\n";
    } else {
      describe(me, out);
    }
    return finish();
  }

  if (args.action == "claim") {
    Json body{{"handle", args.handle}};
    if (!args.no_password) {
      const std::string password = read_secret("Password for " + args.handle + ": ");
      if (password.empty()) {
        err << "casa: no password given (claim with --no-password to set none)\n";
        outcome.exit = kExitUsage;
        return outcome;
      }
      if (read_secret("The same password again: ") != password) {
        err << "casa: the two passwords differ; nothing was changed\n";
        outcome.exit = kExitUsage;
        return outcome;
      }
      body["password"] = password;
    }
    const Json me = call("POST", "/api/account/claim", body, token);
    if (me.is_null()) return finish();
    out << "Claimed: you are " << text_of(me, "handle") << " on every device you sign in on.\n";
    return finish();
  }

  if (args.action == "password") {
    const Json me = call("GET", "/api/account", nullptr, token);
    if (me.is_null()) return finish();
    Json body = Json::object();
    if (me.value("has_password", false)) body["old_password"] = read_secret("Current password: ");
    const std::string password = read_secret("New password: ");
    if (password.empty() || read_secret("The same password again: ") != password) {
      err << "casa: " << (password.empty() ? "no password given" : "the two passwords differ")
          << "; nothing was changed\n";
      outcome.exit = kExitUsage;
      return outcome;
    }
    body["password"] = password;
    if (call("POST", "/api/account/password", body, token).is_null()) return finish();
    out << "Password set.\n";
    return finish();
  }

  if (args.action == "signin" || args.action == "link") {
    Json body{{"label", args.label}};
    std::string target;
    if (args.action == "signin") {
      const std::string password = read_secret("Password for " + args.handle + ": ");
      if (password.empty()) {
        err << "casa: no password given\n";
        outcome.exit = kExitUsage;
        return outcome;
      }
      body["handle"] = args.handle;
      body["password"] = password;
      target = "/api/account/signin";
    } else {
      body["code"] = args.code;
      target = "/api/account/device-codes/redeem";
    }
    const Json session = call("POST", target, body, "");
    if (session.is_null()) return finish();
    outcome.new_token = text_of(session, "token");
    if (outcome.new_token.empty()) {
      err << "casa: the server's answer has no token\n";
      outcome.exit = kExitServerError;
      return outcome;
    }
    out << "Signed in as " << text_of(session, "name") << " (" << text_of(session, "player_id")
        << "). casa resume shows your tables.\n";
    return finish();
  }

  if (args.action == "code") {
    const Json code = call("POST", "/api/account/device-codes", Json::object(), token);
    if (code.is_null()) return finish();
    const int minutes = (code.value("expires_in", 0) + 59) / 60;
    out << "Code: " << text_of(code, "code") << "\n"
        << "On the other device: casa account link " << text_of(code, "code")
        << ", or the page's \"Sign in with a code\".\n"
        << "It works once and expires in " << minutes << (minutes == 1 ? " minute" : " minutes")
        << ".\n";
    return finish();
  }

  if (args.action == "sessions") {
    const Json list = call("GET", "/api/account/sessions", nullptr, token);
    if (list.is_null()) return finish();
    if (args.as_json) {
      out << list.dump(2) << "\n";
      return finish();
    }
    for (const Json& s : list.value("sessions", Json::array())) {
      out << (s.value("current", false) ? "* " : "  ") << text_of(s, "id") << "  "
          << text_of(s, "label") << "\n"
          << "    signed in " << when(s.value("created_at", Json())) << ", last seen "
          << when(s.value("last_used_at", Json()))
          << (s.value("connected", false) ? ", connected now" : "") << "\n";
    }
    out << "(* this machine) casa account revoke ID signs a session out.\n";
    return finish();
  }

  if (args.action == "revoke") {
    if (call("DELETE", "/api/account/sessions/" + args.session, nullptr, token).is_null())
      return finish();
    out << "Session " << args.session << " signed out.\n";
    return finish();
  }

  if (args.action == "signout") {
    if (call("POST", "/api/account/signout", Json::object(), token).is_null()) {
      // A token the server no longer knows is signed out already.
      if (call.unauthorized) outcome.forget_token = true;
      return finish();
    }
    outcome.forget_token = true;
    out << "Signed out: this machine's token is forgotten.\n";
    return finish();
  }

  err << "casa: unknown account command " << args.action << "\n";
  outcome.exit = kExitUsage;
  return outcome;
}

}  // namespace casa::cli
