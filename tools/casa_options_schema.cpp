// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-options-schema: writes protocol/schemas/options/<game>.json from each
// game's declaration of its options (protocol/options_schema.h), or checks that
// the files there are the declarations (the options_schemas test).
//
//   casa-options-schema --write protocol/schemas/options
//   casa-options-schema --check protocol/schemas/options
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "cmdline/cmdline.h"
#include "engine/registry.h"
#include "protocol/options_schema.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  casa::cmdline::App app{"Writes or checks the option schemas of every game from their declarations.",
                         "casa-options-schema"};
  std::string dir;
  bool write = false;
  app.add_option("dir", dir, "the folder of the schemas (protocol/schemas/options)")->required();
  app.add_flag("--write", write, "write the files (default: check them and exit 1 when one differs)");
  bool check = false;
  app.add_flag("--check", check, "check the files (the default)");
  casa::cmdline::parse(app, argc, argv, 2);

  int stale = 0;
  std::set<std::string> expected;
  for (const casa::GameInfo& game : casa::all_games()) {
    const std::string file = std::string(game.name) + ".json";
    expected.insert(file);
    const fs::path path = fs::path(dir) / file;
    const auto schema = casa::protocol::options_schema(game);
    if (write) {
      std::ofstream(path) << schema.dump(2) << "\n";
      std::cout << "wrote " << path.string() << "\n";
      continue;
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const auto on_disk = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || on_disk.is_discarded() || on_disk != nlohmann::json::parse(schema.dump())) {
      std::cerr << path.string() << " differs from the declaration of " << game.name
                << "'s options: run casa-options-schema --write " << dir << "\n";
      ++stale;
    }
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json" && !expected.count(entry.path().filename().string())) {
      std::cerr << entry.path().string() << " describes no game the engine runs\n";
      ++stale;
    }
  }
  if (!write && stale == 0) std::cout << "the option schemas match the games' declarations\n";
  return stale == 0 ? 0 : 1;
}
