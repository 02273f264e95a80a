// casa-server: the table server. See docs/protocol.md and `casa-server --help`.
#include <csignal>
#include <cstdio>
#include <exception>

#include <spdlog/spdlog.h>

#include "server/server.h"
#include "server/store.h"

int main(int argc, char** argv) {
  casa::server::Config config;
  bool help = false;
  if (auto err = casa::server::parse_config(argc, argv, config, help)) {
    std::fprintf(stderr, "casa-server: %s\n%s", err->c_str(), casa::server::config_usage().c_str());
    return 2;
  }
  if (help) {
    std::fputs(casa::server::config_usage().c_str(), stdout);
    return 0;
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));
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
  try {
    casa::server::Server server(config);
    server.start();
    spdlog::info("casa-server listening on port {} (database {}, durability {})", server.port(),
                 casa::server::Db::redacted(config.db), config.durability);
    server.wait();
    spdlog::info("casa-server stopped");
  } catch (const std::exception& e) {
    spdlog::critical("casa-server: {}", e.what());
    return 1;
  }
  return 0;
}
