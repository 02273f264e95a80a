// SPDX-License-Identifier: AGPL-3.0-or-later
// The server's log lines: spdlog's text lines (the default), or with
// --log-format json one JSON object per line (docs/operations.md, "Logs"):
//   {"time":"2026-01-02T03:04:05.678Z","level":"info","message":"...","table":"t...","player":"p..."}
// "table" and "player" are there when the line is about one: the code that
// writes such a line names them with a LogAbout around the spdlog call.
#pragma once

#include <string>
#include <string_view>

namespace casa::server {

// While it lives, the lines this thread logs are about `table` and/or
// `player` (an empty one: not about any). Scopes nest; the inner one wins
// and the outer one is back when it ends.
class LogAbout {
 public:
  explicit LogAbout(std::string_view table, std::string_view player = {});
  ~LogAbout();
  LogAbout(const LogAbout&) = delete;
  LogAbout& operator=(const LogAbout&) = delete;

 private:
  std::string previous_table_, previous_player_;
};

// "text" or "json": the format of every line from now on. Returns false (and
// changes nothing) for another name.
bool set_log_format(const std::string& format);

// One line in the JSON format, without its newline: what set_log_format("json")
// writes (for the tests). `unix_ms` is the line's time in ms since the epoch.
std::string json_log_line(long long unix_ms, std::string_view level, std::string_view message,
                          std::string_view table, std::string_view player);

}  // namespace casa::server
