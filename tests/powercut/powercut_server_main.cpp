// SPDX-License-Identifier: AGPL-3.0-or-later
// casa_powercut_server: casa-server with the power-cut VFS as SQLite's default
// VFS, so every database and WAL write not yet covered by an fsync is kept in
// an undo journal beside its file. After the process is killed, the test
// applies those journals (powercut::power_cut) to get what a power cut would
// have left on disk, and starts this server again on it. Test-only: the
// journals double the writes.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>

#include "server/net/server.h"
#include "tests/powercut/powercut_vfs.h"

int main(int argc, char** argv) {
  casa::server::Config config;
  bool help = false;
  if (auto err = casa::server::parse_config(argc, argv, config, help)) {
    std::fprintf(stderr, "casa_powercut_server: %s\n%s", err->c_str(),
                 casa::server::config_usage().c_str());
    return 2;
  }
  if (help) {
    std::fputs(casa::server::config_usage().c_str(), stdout);
    return 0;
  }
  if (!casa::powercut::register_vfs(true)) {
    std::fprintf(stderr, "casa_powercut_server: cannot register the power-cut VFS\n");
    return 1;
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  try {
    casa::server::Server server(config);
    server.start();
    spdlog::info("casa_powercut_server listening on port {} (database {}, durability {})",
                 server.port(), config.db, config.durability);
    server.wait();
  } catch (const std::exception& e) {
    spdlog::critical("casa_powercut_server: {}", e.what());
    return 1;
  }
  return 0;
}
