// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-fsync-floor: how long this disk takes to make an appended write
// durable, the floor under every acknowledged move with --durability full.
//
//   casa-fsync-floor [--dir DIR] [--count N] [--bytes B]
//
// Appends B bytes (default 8192: a small group commit's WAL write) N times
// (default 2000) to a new file in DIR (default the current directory), each
// followed by fdatasync as SQLite's WAL commit does, and prints one JSON line
// with the distribution of the write + fdatasync time in milliseconds. Run it
// in the directory that holds the server's database: another file system
// (tmpfs, a different disk) gives another floor.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cmdline/cmdline.h"

int main(int argc, char** argv) {
  std::string dir = ".";
  long count = 2000;
  long bytes = 8192;
  casa::cmdline::App app{
      "How long this disk takes to make an appended write durable (one JSON line).",
      "casa-fsync-floor"};
  app.add_option("--dir", dir, "where to write the test file (.)");
  app.add_option("--count", count, "writes to time (2000)");
  app.add_option("--bytes", bytes, "bytes of each write (8192)");
  casa::cmdline::parse(app, argc, argv, 2);
  if (count < 1 || bytes < 1) {
    std::fprintf(stderr, "casa-fsync-floor: --count and --bytes must be positive\n");
    return 2;
  }
  const std::string path = dir + "/casa-fsync-floor.tmp";
  const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    return 1;
  }
  const std::vector<char> block(static_cast<std::size_t>(bytes), 'x');
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(count));
  off_t at = 0;
  for (long i = 0; i < count; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (::pwrite(fd, block.data(), block.size(), at) != static_cast<ssize_t>(block.size()) || ::fdatasync(fd) != 0) {
      std::perror("write or fdatasync");
      ::close(fd);
      ::unlink(path.c_str());
      return 1;
    }
    at += static_cast<off_t>(block.size());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  ::close(fd);
  ::unlink(path.c_str());
  std::sort(ms.begin(), ms.end());
  const auto at_q = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * ms.size()))]; };
  std::printf(
      "{\"mode\":\"fsync-floor\",\"dir\":\"%s\",\"count\":%ld,\"bytes\":%ld,\"ms\":{\"min\":%.3f,\"p50\":%.3f,"
      "\"p90\":%.3f,\"p99\":%.3f,\"p99.9\":%.3f,\"max\":%.3f}}\n",
      dir.c_str(), count, bytes, ms.front(), at_q(0.5), at_q(0.9), at_q(0.99), at_q(0.999), ms.back());
  return 0;
}
