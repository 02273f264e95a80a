// SPDX-License-Identifier: AGPL-3.0-or-later
// casa_test_server: casa-server with the test game fake-trick added, for the
// tests that need a real process (kill -9 recovery).
#include <cstdio>
#include <exception>

#include <spdlog/spdlog.h>

#include "server/net/server.h"
#include "tests/server/fake_game.h"

int main(int argc, char** argv) {
  casa::server::Config config;
  bool help = false;
  if (auto err = casa::server::parse_config(argc, argv, config, help)) {
    std::fprintf(stderr, "casa_test_server: %s\n", err->c_str());
    return 2;
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  try {
    casa::server::Server server(config, &casa::testing::create_test_game, casa::testing::test_game_names());
    server.start();
    std::printf("listening %u\n", static_cast<unsigned>(server.port()));
    std::fflush(stdout);
    server.wait();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "casa_test_server: %s\n", e.what());
    return 1;
  }
  return 0;
}
