// SPDX-License-Identifier: AGPL-3.0-or-later
// The strong bot's option text (parse_strong_options), apart from the search so
// that the search builds where floating-point std::from_chars is missing
// (wasm32's libc++ 14): the WebAssembly build leaves this file out.
#include <charconv>
#include <string>

#include "engine/strong.h"

namespace casa {

namespace {

std::optional<Error> bad(std::string message) { return Error{"bad_option", std::move(message)}; }

template <typename T>
bool parse_number(std::string_view text, T& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<Error> parse_strong_options(std::string_view spec, StrongOptions& out) {
  StrongOptions o = out;
  while (!spec.empty()) {
    const std::size_t comma = spec.find(',');
    const std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) return bad("Strong bot options are key=value pairs.");
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (key == "iterations") {
      if (!parse_number(value, o.iterations) || o.iterations < 0 || o.iterations > 10'000'000)
        return bad("iterations must be a whole number from 0 to 10000000.");
    } else if (key == "ms") {
      std::int64_t ms = 0;
      if (!parse_number(value, ms) || ms < 1 || ms > 600'000)
        return bad("ms must be a whole number of milliseconds from 1 to 600000.");
      o.time_us = ms * 1000;
    } else if (key == "search") {
      if (value == "ismcts")
        o.search = SearchKind::kIsmcts;
      else if (value == "flat")
        o.search = SearchKind::kFlat;
      else
        return bad("search must be ismcts or flat.");
    } else if (key == "rollout") {
      if (value == "robot")
        o.rollout = RolloutPolicy::kRobot;
      else if (value == "random")
        o.rollout = RolloutPolicy::kRandom;
      else
        return bad("rollout must be robot or random.");
    } else if (key == "horizon") {
      if (value == "round")
        o.horizon = Horizon::kRound;
      else if (value == "game")
        o.horizon = Horizon::kGame;
      else
        return bad("horizon must be round or game.");
    } else if (key == "root") {
      if (value == "ucb")
        o.root = RootShare::kUcb;
      else if (value == "even")
        o.root = RootShare::kEven;
      else
        return bad("root must be ucb or even.");
    } else if (key == "c") {
      // from_chars for double is in libstdc++ 11+.
      if (!parse_number(value, o.exploration) || !(o.exploration >= 0) || o.exploration > 100)
        return bad("c must be a number from 0 to 100.");
    } else if (key == "seed") {
      if (!parse_number(value, o.seed)) return bad("seed must be a whole number.");
    } else {
      return bad("The strong bot has no option '" + std::string(key) + "'.");
    }
  }
  out = o;
  return std::nullopt;
}

}  // namespace casa
