// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/action_fields.h"

#include <string>

namespace casa {

namespace {

bool lists(std::string_view keys, std::string_view key) {
  while (!keys.empty()) {
    const std::size_t end = keys.find(' ');
    if (keys.substr(0, end) == key) return true;
    if (end == std::string_view::npos) break;
    keys.remove_prefix(end + 1);
  }
  return false;
}

}  // namespace

std::optional<Error> check_action_fields(const Value& action, ActionFields fields) {
  if (!action.is_object()) return std::nullopt;
  const Value* type = action.find("type");
  if (!type || !type->is_string()) return std::nullopt;
  for (const auto& [name, keys] : fields) {
    if (name != type->as_string()) continue;
    for (const auto& [key, item] : action.as_object()) {
      if (key == "type" || lists(keys, key)) continue;
      return Error{"malformed_action",
                   "A " + std::string(name) + " action has no \"" + key + "\"."};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace casa
