// SPDX-License-Identifier: AGPL-3.0-or-later
// casa account without a socket: the requests it makes (docs/accounts.md), what it
// prints, the token it hands back to be saved, and its exit statuses.
#include "clients/cli/account.h"

#include <doctest/doctest.h>

#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "clients/cli/client.h"

namespace {

using casa::cli::AccountArgs;
using casa::cli::HttpAnswer;
using Json = nlohmann::json;

struct Request {
  std::string method, target, body, bearer;
};

// A server that answers from a script and remembers what it was asked.
struct FakeServer {
  std::deque<HttpAnswer> answers;
  std::vector<Request> seen;
  casa::cli::HttpCall call() {
    return [this](const std::string& m, const std::string& t, const std::string& b, const std::string& bearer) {
      seen.push_back({m, t, b, bearer});
      REQUIRE_FALSE(answers.empty());
      HttpAnswer a = answers.front();
      answers.pop_front();
      return a;
    };
  }
};

struct Secrets {
  std::deque<std::string> lines;
  std::vector<std::string> prompts;
  casa::cli::ReadSecret read() {
    return [this](const std::string& prompt) {
      prompts.push_back(prompt);
      if (lines.empty()) return std::string();
      std::string s = lines.front();
      lines.pop_front();
      return s;
    };
  }
};

}  // namespace

TEST_CASE("casa account signin: the handle and password go to /api/account/signin, the new token comes back") {
  FakeServer server;
  server.answers.push_back({200, R"({"token":"ab12","player_id":"p1","name":"Anna"})"});
  Secrets secrets;
  secrets.lines = {"correct horse"};
  AccountArgs args;
  args.action = "signin";
  args.handle = "anna";
  args.label = "casa on box";
  std::ostringstream out, err;
  const auto outcome = casa::cli::run_account(args, "oldtoken", server.call(), secrets.read(), out, err);
  CHECK(outcome.exit == casa::cli::kExitOk);
  CHECK(outcome.new_token == "ab12");
  REQUIRE(server.seen.size() == 1);
  CHECK(server.seen[0].method == "POST");
  CHECK(server.seen[0].target == "/api/account/signin");
  CHECK(server.seen[0].bearer.empty());  // signing in needs no token
  const Json body = Json::parse(server.seen[0].body);
  CHECK(body == Json{{"handle", "anna"}, {"password", "correct horse"}, {"label", "casa on box"}});
  CHECK(out.str().find("Signed in as Anna (p1)") != std::string::npos);
  CHECK(err.str().empty());
}

TEST_CASE("casa account signin: a wrong password is the server's refusal, exit 1, no token") {
  FakeServer server;
  server.answers.push_back({401, R"({"error":"bad_credentials","message":"wrong handle or password"})"});
  Secrets secrets;
  secrets.lines = {"nope"};
  AccountArgs args;
  args.action = "signin";
  args.handle = "anna";
  std::ostringstream out, err;
  const auto outcome = casa::cli::run_account(args, "", server.call(), secrets.read(), out, err);
  CHECK(outcome.exit == casa::cli::kExitServerError);
  CHECK(outcome.new_token.empty());
  CHECK(err.str().find("wrong handle or password (bad_credentials)") != std::string::npos);
}

TEST_CASE("casa account signin: too many attempts say so") {
  FakeServer server;
  server.answers.push_back({429, R"({"error":"rate_limited","message":"too many sign-in attempts"})"});
  Secrets secrets;
  secrets.lines = {"pw"};
  AccountArgs args;
  args.action = "signin";
  args.handle = "anna";
  std::ostringstream out, err;
  CHECK(casa::cli::run_account(args, "", server.call(), secrets.read(), out, err).exit ==
        casa::cli::kExitServerError);
  CHECK(err.str().find("wait a little") != std::string::npos);
}

TEST_CASE("casa account claim: the password is asked twice; two different ones send nothing") {
  FakeServer server;
  Secrets secrets;
  secrets.lines = {"first password", "second password"};
  AccountArgs args;
  args.action = "claim";
  args.handle = "anna";
  std::ostringstream out, err;
  const auto outcome = casa::cli::run_account(args, "tok", server.call(), secrets.read(), out, err);
  CHECK(outcome.exit == casa::cli::kExitUsage);
  CHECK(server.seen.empty());
  CHECK(secrets.prompts.size() == 2);

  secrets.lines = {"same password", "same password"};
  server.answers.push_back({200, R"({"player_id":"p1","name":"anna","handle":"anna","guest":false})"});
  std::ostringstream out2, err2;
  CHECK(casa::cli::run_account(args, "tok", server.call(), secrets.read(), out2, err2).exit == casa::cli::kExitOk);
  REQUIRE(server.seen.size() == 1);
  CHECK(server.seen[0].target == "/api/account/claim");
  CHECK(server.seen[0].bearer == "tok");
  CHECK(Json::parse(server.seen[0].body) == Json{{"handle", "anna"}, {"password", "same password"}});
}

TEST_CASE("casa account claim --no-password sends the handle alone") {
  FakeServer server;
  server.answers.push_back({409, R"({"error":"handle_confusable","message":"looks like another handle"})"});
  Secrets secrets;
  AccountArgs args;
  args.action = "claim";
  args.handle = "аnna";  // a Cyrillic а: the server refuses the look-alike
  args.no_password = true;
  std::ostringstream out, err;
  CHECK(casa::cli::run_account(args, "tok", server.call(), secrets.read(), out, err).exit ==
        casa::cli::kExitServerError);
  CHECK(secrets.prompts.empty());
  CHECK(Json::parse(server.seen.at(0).body) == Json{{"handle", "аnna"}});
  CHECK(err.str().find("(handle_confusable)") != std::string::npos);
}

TEST_CASE("casa account code and link: a code shown on one machine signs another in") {
  FakeServer server;
  server.answers.push_back({200, R"({"code":"ABCD-EFGH","expires_at":1000,"expires_in":300})"});
  Secrets secrets;
  AccountArgs code;
  code.action = "code";
  std::ostringstream out, err;
  CHECK(casa::cli::run_account(code, "tok", server.call(), secrets.read(), out, err).exit == casa::cli::kExitOk);
  CHECK(server.seen.at(0).target == "/api/account/device-codes");
  CHECK(server.seen.at(0).bearer == "tok");
  CHECK(out.str().find("casa account link ABCD-EFGH") != std::string::npos);
  CHECK(out.str().find("5 minutes") != std::string::npos);

  server.answers.push_back({200, R"({"token":"new","player_id":"p1","name":"anna"})"});
  AccountArgs link;
  link.action = "link";
  link.code = "abcd efgh";
  link.label = "laptop";
  std::ostringstream out2, err2;
  const auto outcome = casa::cli::run_account(link, "", server.call(), secrets.read(), out2, err2);
  CHECK(outcome.new_token == "new");
  CHECK(server.seen.at(1).target == "/api/account/device-codes/redeem");
  CHECK(server.seen.at(1).bearer.empty());
  CHECK(Json::parse(server.seen.at(1).body) == Json{{"code", "abcd efgh"}, {"label", "laptop"}});
}

TEST_CASE("casa account sessions lists them with the current one marked; revoke names the id") {
  FakeServer server;
  server.answers.push_back({200, R"({"sessions":[
      {"id":"0123456789abcdef","label":"phone","created_at":1764300000,"last_used_at":1764300060,"current":false,"connected":true},
      {"id":"fedcba9876543210","label":"casa on box","created_at":1764200000,"last_used_at":1764200000,"current":true,"connected":false}]})"});
  server.answers.push_back({200, R"({"id":"0123456789abcdef","revoked":true})"});
  Secrets secrets;
  AccountArgs list;
  list.action = "sessions";
  std::ostringstream out, err;
  CHECK(casa::cli::run_account(list, "tok", server.call(), secrets.read(), out, err).exit == casa::cli::kExitOk);
  CHECK(out.str().find("  0123456789abcdef  phone") != std::string::npos);
  CHECK(out.str().find("* fedcba9876543210  casa on box") != std::string::npos);
  CHECK(out.str().find("connected now") != std::string::npos);
  CHECK(out.str().find("2025-11-28 03:20 UTC") != std::string::npos);
  AccountArgs revoke;
  revoke.action = "revoke";
  revoke.session = "0123456789abcdef";
  std::ostringstream out2, err2;
  CHECK(casa::cli::run_account(revoke, "tok", server.call(), secrets.read(), out2, err2).exit == casa::cli::kExitOk);
  CHECK(server.seen.at(1).method == "DELETE");
  CHECK(server.seen.at(1).target == "/api/account/sessions/0123456789abcdef");
}

TEST_CASE("casa account: no token, no request; no server, exit 3; signout forgets the token") {
  FakeServer server;
  Secrets secrets;
  AccountArgs show;
  std::ostringstream out, err;
  CHECK(casa::cli::run_account(show, "", server.call(), secrets.read(), out, err).exit ==
        casa::cli::kExitServerError);
  CHECK(server.seen.empty());

  server.answers.push_back({0, "127.0.0.1:1: Connection refused"});
  std::ostringstream out2, err2;
  CHECK(casa::cli::run_account(show, "tok", server.call(), secrets.read(), out2, err2).exit ==
        casa::cli::kExitConnection);
  CHECK(err2.str().find("cannot reach the server") != std::string::npos);

  AccountArgs signout;
  signout.action = "signout";
  server.answers.push_back({200, R"({"revoked":true})"});
  std::ostringstream out3, err3;
  const auto done = casa::cli::run_account(signout, "tok", server.call(), secrets.read(), out3, err3);
  CHECK(done.exit == casa::cli::kExitOk);
  CHECK(done.forget_token);

  // A token the server no longer knows is already signed out: forgotten too.
  server.answers.push_back({401, R"({"error":"unauthorized","message":"unknown token"})"});
  std::ostringstream out4, err4;
  const auto stale = casa::cli::run_account(signout, "tok", server.call(), secrets.read(), out4, err4);
  CHECK(stale.exit == casa::cli::kExitServerError);
  CHECK(stale.forget_token);
}

TEST_CASE("casa account: a guest is told how to claim; an account shows its handle") {
  FakeServer server;
  server.answers.push_back({200, R"({"player_id":"p1","name":"ann","handle":null,"is_bot":false,"guest":true,"has_password":false,"created_at":1})"});
  server.answers.push_back({200, R"({"player_id":"p1","name":"ann","handle":"ann","is_bot":false,"guest":false,"has_password":true,"created_at":1764300000})"});
  Secrets secrets;
  AccountArgs show;
  std::ostringstream out, err;
  CHECK(casa::cli::run_account(show, "tok", server.call(), secrets.read(), out, err).exit == casa::cli::kExitOk);
  CHECK(out.str().find("Guest ann (p1)") != std::string::npos);
  CHECK(out.str().find("casa account claim") != std::string::npos);
  std::ostringstream out2;
  CHECK(casa::cli::run_account(show, "tok", server.call(), secrets.read(), out2, err).exit == casa::cli::kExitOk);
  CHECK(out2.str().find("Account ann (p1)") != std::string::npos);
  CHECK(out2.str().find("password: set") != std::string::npos);
}
