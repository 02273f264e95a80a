// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/ops/log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>

#include <nlohmann/json.hpp>
#include <spdlog/formatter.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

namespace casa::server {

namespace {

// What the lines of this thread are about (LogAbout). spdlog's sinks format a
// line on the thread that logs it (no async logger here), so the formatter
// reads the logging thread's own.
thread_local std::string about_table;
thread_local std::string about_player;

// RFC 3339 in UTC with milliseconds: 2026-01-02T03:04:05.678Z.
std::string rfc3339_ms(long long unix_ms) {
  long long whole = unix_ms / 1000, ms = unix_ms % 1000;
  if (ms < 0) {  // before 1970: the millisecond part still counts forward
    ms += 1000;
    whole -= 1;
  }
  const std::time_t seconds = static_cast<std::time_t>(whole);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char out[96];  // room for any int the compiler cannot rule out
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return out;
}

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const long long ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count();
    const auto level = spdlog::level::to_string_view(msg.level);
    const std::string line = json_log_line(ms, std::string_view(level.data(), level.size()),
                                           std::string_view(msg.payload.data(), msg.payload.size()),
                                           about_table, about_player);
    dest.append(line.data(), line.data() + line.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

}  // namespace

LogAbout::LogAbout(std::string_view table, std::string_view player)
    : previous_table_(std::move(about_table)), previous_player_(std::move(about_player)) {
  about_table.assign(table);
  about_player.assign(player);
}

LogAbout::~LogAbout() {
  about_table = std::move(previous_table_);
  about_player = std::move(previous_player_);
}

std::string json_log_line(long long unix_ms, std::string_view level, std::string_view message,
                          std::string_view table, std::string_view player) {
  // In this order for the reader: time, level, message, then what it is about.
  nlohmann::ordered_json line = {
      {"time", rfc3339_ms(unix_ms)}, {"level", level}, {"message", message}};
  if (!table.empty()) line["table"] = table;
  if (!player.empty()) line["player"] = player;
  // Escaped by the JSON writer: a name with a quote or a newline stays inside
  // its string; bytes that are not UTF-8 become U+FFFD.
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool set_log_format(const std::string& format) {
  if (format == "text") {
    spdlog::set_formatter(std::make_unique<spdlog::pattern_formatter>());
    return true;
  }
  if (format == "json") {
    spdlog::set_formatter(std::make_unique<JsonFormatter>());
    return true;
  }
  return false;
}

}  // namespace casa::server
