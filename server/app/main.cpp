// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-server: the table server. See docs/protocol.md and `casa-server --help`.
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "server/store/backup.h"
#include "server/ops/command_line.h"
#include "server/net/io_backend.h"
#include "server/ops/log.h"
#include "server/net/server.h"
#include "server/store/store.h"
#include "versioninfo/version.h"

namespace {

// casa-server backup OUT.db [--db PATH]: an online copy of the database (the
// server may be running), with --db taken from the flags, environment or
// configuration file as the server would.
int backup(const casa::server::Config& config, const std::string& out) {
  if (out.empty()) {
    std::fprintf(stderr,
                 "casa-server backup: needs the copy to write\n"
                 "usage: casa-server backup OUT.db [--db PATH] [--config FILE]\n");
    return 2;
  }
  if (auto err = casa::server::backup_database(config.db, out)) {
    std::fprintf(stderr, "casa-server backup: %s\n", err->c_str());
    return 1;
  }
  std::printf("backed up %s to %s (integrity_check ok)\n", config.db.c_str(), out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  casa::server::Config config;
  casa::server::ServerCommand command;
  if (auto err = casa::server::parse_command_line(argc, argv, config, command)) {
    std::fprintf(stderr, "casa-server%s: %s\nRun 'casa-server%s --help' for its usage.\n",
                 command.backup ? " backup" : "", err->c_str(), command.backup ? " backup" : "");
    return 2;
  }
  if (command.help) {
    std::fputs(command.help_text.c_str(), stdout);
    return 0;
  }
  if (command.version) {
    std::printf("%s\n", casa::version_line("casa-server").c_str());
    return 0;
  }
  if (command.backup) return backup(config, command.backup_out);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  casa::server::set_log_format(config.log_format);
  if (config.rebuild_ratings) {
    try {
      casa::server::Store store(config.db, config.durability == "normal" ? casa::server::Durability::normal
                                                                          : casa::server::Durability::full);
      const int rated = store.rebuild_ratings();
      if (rated < 0) {
        std::fprintf(stderr, "casa-server: the database refused the rebuild\n");
        return 1;
      }
      std::printf("ratings rebuilt from %d rated games in %s\n", rated,
                  casa::server::Db::redacted(config.db).c_str());
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "casa-server: %s\n", e.what());
      return 1;
    }
  }
  // Before the database is opened or a port is bound: a build whose network
  // backend this kernel (or container) refuses stops here and says why.
  if (auto why = casa::server::io_backend_unavailable()) {
    std::fprintf(stderr, "casa-server: %s\n", why->c_str());
    return 1;
  }
  spdlog::debug("network backend: {}", casa::server::io_backend());
  try {
    casa::server::Server server(config);
    server.start();
    spdlog::info("casa-server {} ({}) listening on port {} (database {}, durability {})", casa::version(),
                 casa::commit(), server.port(), casa::server::Db::redacted(config.db), config.durability);
    server.wait();
    spdlog::info("casa-server stopped");
  } catch (const std::exception& e) {
    spdlog::critical("casa-server: {}", e.what());
    return 1;
  }
  return 0;
}
