// SPDX-License-Identifier: AGPL-3.0-or-later
#include "versioninfo/version.h"

#include <casa/version.h>  // generated at build time (cmake/version-header.cmake)

namespace casa {

const char* version() { return CASA_VERSION_STRING; }

const char* commit() { return CASA_COMMIT_STRING; }

std::string version_line(const std::string& program) {
  return program + " " + version() + " (" + commit() + ")";
}

}  // namespace casa
