// Crash recovery with a real process: kill -9 the server mid-game, restart it on
// the same database, resume with tokens, finish; no acknowledged action is lost.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

struct Child {
  pid_t pid = -1;
  unsigned short port = 0;
  FILE* out = nullptr;  // kept open: the child may still write to it
};

// Starts casa_test_server and reads the port it prints.
Child spawn(const std::string& db) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(CASA_TEST_SERVER_PATH, CASA_TEST_SERVER_PATH, "--port", "0", "--address", "127.0.0.1", "--db",
          db.c_str(), "--log-level", "error", "--testing", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  FILE* out = fdopen(fds[0], "r");
  unsigned port = 0;
  const int got = std::fscanf(out, "listening %u", &port);
  REQUIRE(got == 1);
  return {pid, static_cast<unsigned short>(port), out};
}

void kill9(const Child& c) {
  kill(c.pid, SIGKILL);
  int status = 0;
  waitpid(c.pid, &status, 0);
  std::fclose(c.out);
}

}  // namespace

TEST_CASE("kill -9 mid-game: restart on the same database, resume with tokens, nothing acknowledged lost") {
  const auto dir = temp_dir("kill");
  const std::string db = (dir / "casa.db").string();
  Child server = spawn(db);
  std::string table, token_a, token_b;
  std::vector<json> acknowledged;  // (seq, seat, action) of every `accepted`
  {
    WsClient a(server.port), b(server.port);
    a.hello("ann");
    b.hello("bob");
    token_a = a.token();
    token_b = b.token();
    table = a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 5}}}})["table"];
    b.call({{"type", "join"}, {"table", table}});
    // Play six actions, each acknowledged, then die without warning.
    WsClient* seats[2] = {&a, &b};
    int played = 0;
    while (played < 6) {
      for (int s = 0; s < 2 && played < 6; ++s) {
        auto m = seats[s]->recv(std::chrono::milliseconds(5));
        if (!m || (*m)["type"] != "request") continue;
        const json action = (*m)["legal"][0];
        const json r = seats[s]->call({{"type", "action"}, {"table", table}, {"seq", (*m)["seq"]}, {"action", action}});
        REQUIRE(r["type"] == "accepted");
        acknowledged.push_back({{"seq", r["seq"]}, {"seat", s}, {"action", action}});
        ++played;
      }
    }
    kill9(server);
  }
  server = spawn(db);
  {
    WsClient a(server.port), b(server.port);
    CHECK(a.hello("", token_a)["resumed"] == true);
    CHECK(b.hello("", token_b)["resumed"] == true);
    CHECK(a.expect("table_state")["seq"] == 6);
    play_out({&a, &b}, table);
    const json replay = get_json(server.port, "/api/games/" + table, 200);
    REQUIRE(replay["log"].size() == 12);
    for (const auto& ack : acknowledged) {
      const json& logged = replay["log"][ack["seq"].get<int>() - 1];
      CHECK(logged["seat"] == ack["seat"]);
      CHECK(logged["action"] == ack["action"]);
    }
    check_schemas(a);
    check_schemas(b);
  }
  kill9(server);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
