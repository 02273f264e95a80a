// SPDX-License-Identifier: AGPL-3.0-or-later
// The store tests run every SQLite file through the power-cut VFS, which
// counts fsyncs and can fail them on purpose.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "tests/powercut/powercut_vfs.h"

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);
  if (!casa::powercut::register_vfs(true)) {
    std::fprintf(stderr, "cannot register the power-cut VFS\n");
    return 1;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
