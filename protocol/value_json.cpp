#include "protocol/value_json.h"

namespace casa {

nlohmann::json to_json(const Value& value) {
  if (value.is_null()) return nullptr;
  if (value.is_bool()) return value.as_bool();
  if (value.is_int()) return value.as_int();
  if (value.is_string()) return value.as_string();
  if (value.is_array()) {
    auto out = nlohmann::json::array();
    for (const auto& item : value.as_array()) out.push_back(to_json(item));
    return out;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, item] : value.as_object()) out[key] = to_json(item);
  return out;
}

Value from_json(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::boolean:
      return Value(json.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return Value(json.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      const auto u = json.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(INT64_MAX)) return Value();
      return Value(static_cast<std::int64_t>(u));
    }
    case nlohmann::json::value_t::string:
      return Value(json.get<std::string>());
    case nlohmann::json::value_t::array: {
      Value out = Value::array();
      for (const auto& item : json) out.push(from_json(item));
      return out;
    }
    case nlohmann::json::value_t::object: {
      Value out = Value::object();
      for (const auto& [key, item] : json.items()) out.set(key, from_json(item));
      return out;
    }
    default:
      return Value();
  }
}

}  // namespace casa
