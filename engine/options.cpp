// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/options.h"

#include <algorithm>

namespace casa {

Error unknown_option(std::string_view pattern, std::string_view name) {
  const auto at = pattern.find("{}");
  if (at == std::string_view::npos) return bad_option(std::string(pattern));
  std::string message(pattern.substr(0, at));
  message += name;
  message += pattern.substr(at + 2);
  return bad_option(std::move(message));
}

std::vector<std::string_view> option_choices(const OptionSpec& spec, int players) {
  if (spec.choices_for) return spec.choices_for(players);
  return {spec.choices.begin(), spec.choices.end()};
}

bool option_value_fits(const OptionSpec& spec, const Value& value, int players) {
  if (spec.invalid.empty()) return true;
  switch (spec.type) {
    case OptionType::kInteger: {
      if (!value.is_int()) return false;
      const std::int64_t high = spec.max_seat ? std::min<std::int64_t>(spec.max, players - 1) : spec.max;
      return value.as_int() >= spec.min && value.as_int() <= high;
    }
    case OptionType::kBoolean: return value.is_bool();
    case OptionType::kSwitch:
      return value.is_bool() || (value.is_string() && (value.as_string() == "on" || value.as_string() == "off"));
    case OptionType::kChoice: {
      if (!value.is_string()) return false;
      const auto choices = option_choices(spec, players);
      return std::find(choices.begin(), choices.end(), value.as_string()) != choices.end();
    }
    case OptionType::kCards:
    case OptionType::kOther: return true;
  }
  return true;
}

}  // namespace casa
