// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/value.h"

#include <algorithm>
#include <cassert>

namespace casa {

const Value* Value::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : as_object()) {
    if (k == key) return &v;
  }
  return nullptr;
}

Value& Value::set(std::string key, Value v) {
  if (is_null()) data_ = Object{};
  auto& members = as_object();
  for (auto& [k, existing] : members) {
    if (k == key) {
      existing = std::move(v);
      return existing;
    }
  }
  members.emplace_back(std::move(key), std::move(v));
  return members.back().second;
}

Value& Value::add(std::string key, Value v) {
  if (is_null()) data_ = Object{};
  auto& members = as_object();
  assert(std::none_of(members.begin(), members.end(), [&](const Member& m) { return m.first == key; }));
  members.emplace_back(std::move(key), std::move(v));
  return members.back().second;
}

Value& Value::push(Value v) {
  if (is_null()) data_ = Array{};
  auto& items = as_array();
  items.push_back(std::move(v));
  return items.back();
}

std::size_t Value::size() const {
  if (is_array()) return as_array().size();
  if (is_object()) return as_object().size();
  return 0;
}

std::int64_t Value::get_int(std::string_view key, std::int64_t fallback) const {
  const Value* v = find(key);
  return v && v->is_int() ? v->as_int() : fallback;
}

std::string Value::get_string(std::string_view key, std::string fallback) const {
  const Value* v = find(key);
  return v && v->is_string() ? v->as_string() : fallback;
}

bool Value::get_bool(std::string_view key, bool fallback) const {
  const Value* v = find(key);
  return v && v->is_bool() ? v->as_bool() : fallback;
}

bool operator==(const Value& a, const Value& b) {
  if (a.is_object() && b.is_object()) {
    const auto& ao = a.as_object();
    const auto& bo = b.as_object();
    if (ao.size() != bo.size()) return false;
    return std::all_of(ao.begin(), ao.end(), [&](const Value::Member& m) {
      const Value* other = b.find(m.first);
      return other && *other == m.second;
    });
  }
  return a.data_ == b.data_;
}

namespace {
void append_escaped(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

void append(std::string& out, const Value& v) {
  if (v.is_null()) {
    out += "null";
  } else if (v.is_bool()) {
    out += v.as_bool() ? "true" : "false";
  } else if (v.is_int()) {
    out += std::to_string(v.as_int());
  } else if (v.is_string()) {
    append_escaped(out, v.as_string());
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& item : v.as_array()) {
      if (!first) out += ',';
      first = false;
      append(out, item);
    }
    out += ']';
  } else {
    out += '{';
    bool first = true;
    for (const auto& [k, item] : v.as_object()) {
      if (!first) out += ',';
      first = false;
      append_escaped(out, k);
      out += ':';
      append(out, item);
    }
    out += '}';
  }
}
}  // namespace

std::string Value::debug_string() const {
  std::string out;
  append(out, *this);
  return out;
}

}  // namespace casa
