// The one bridge between the engine's Value and JSON (nlohmann_json).
#pragma once

#include <nlohmann/json.hpp>

#include "engine/value.h"

namespace casa {

nlohmann::json to_json(const Value& value);
// Numbers that are not integers become null: the engine has no use for them.
Value from_json(const nlohmann::json& json);

}  // namespace casa
