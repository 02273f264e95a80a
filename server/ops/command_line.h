// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-server's command line: what it asks for besides the settings (server/ops/config.h).
#pragma once

#include <optional>
#include <string>

#include "server/ops/config.h"

namespace casa::server {

struct ServerCommand {
  bool help = false;      // --help: print help_text and exit 0
  std::string help_text;  // the usage of the command --help was given to (backup's, or the server's)
  bool version = false;   // --version
  bool backup = false;    // casa-server backup OUT.db
  std::string backup_out;
};

// Parses argv into `config` (the file, then the environment, then the flags, as
// parse_config does) and `command`. Returns an error sentence, or nullopt.
std::optional<std::string> parse_command_line(int argc, char** argv, Config& config,
                                              ServerCommand& command);

}  // namespace casa::server
