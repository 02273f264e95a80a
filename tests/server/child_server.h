// SPDX-License-Identifier: AGPL-3.0-or-later
// A real casa_test_server process (the engine's games plus fake-trick) on an
// ephemeral port, for the tests that kill -9 it and restart it on the same
// database. Needs CASA_TEST_SERVER_PATH (set by tests/server/CMakeLists.txt).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace casa::testing {

struct ChildServer {
  pid_t pid = -1;
  unsigned short port = 0;
  FILE* out = nullptr;  // kept open: the child may still write to it
};

// Starts casa_test_server on `db` and reads the port it prints. The message
// budget is lifted so that clients playing at full speed are never limited.
// `extra` flags go after the others (a cluster node's --node-id, say).
inline ChildServer spawn_server(const std::string& db, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {CASA_TEST_SERVER_PATH, "--port", "0", "--address", "127.0.0.1", "--db", db,
                                   "--log-level", "error", "--rate-per-second", "100000", "--rate-burst", "100000",
                                   "--players-per-address-per-hour", "1000000", "--testing"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv(CASA_TEST_SERVER_PATH, argv.data());
    _exit(127);
  }
  close(fds[1]);
  FILE* out = fdopen(fds[0], "r");
  unsigned port = 0;
  const int got = std::fscanf(out, "listening %u", &port);
  REQUIRE(got == 1);
  return {pid, static_cast<unsigned short>(port), out};
}

// Waits up to `limit` for the process to exit by itself (after a SIGTERM the
// caller sent). Returns its exit code, or -1 if it did not exit in time (it is
// then killed) or died of a signal.
inline int wait_exit(const ChildServer& c, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(c.pid, &status, WNOHANG);
    if (done == c.pid) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(c.pid, SIGKILL);
      waitpid(c.pid, &status, 0);
      std::fclose(c.out);
      return -1;
    }
    usleep(10 * 1000);
  }
  std::fclose(c.out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline void kill9(const ChildServer& c) {
  kill(c.pid, SIGKILL);
  int status = 0;
  waitpid(c.pid, &status, 0);
  std::fclose(c.out);
}

}  // namespace casa::testing
