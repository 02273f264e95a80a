// SPDX-License-Identifier: AGPL-3.0-or-later
// A small structured value: null, bool, integer, string, array or object.
//
// The engine describes views, events, options and actions with Value so that it
// never depends on a JSON library; protocol/ converts Value to and from JSON.
// Objects keep their keys in insertion order (views read naturally) and compare
// equal regardless of key order.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace casa {

class Value {
 public:
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Object = std::vector<Member>;

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : data_(b) {}
  Value(int i) : data_(static_cast<std::int64_t>(i)) {}
  Value(unsigned i) : data_(static_cast<std::int64_t>(i)) {}
  Value(long i) : data_(static_cast<std::int64_t>(i)) {}
  Value(long long i) : data_(static_cast<std::int64_t>(i)) {}
  Value(unsigned long i) : data_(static_cast<std::int64_t>(i)) {}
  Value(unsigned long long i) : data_(static_cast<std::int64_t>(i)) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(std::string_view s) : data_(std::string(s)) {}
  Value(Array a) : data_(std::move(a)) {}
  Value(Object o) : data_(std::move(o)) {}

  static Value array() { return Value(Array{}); }
  static Value object() { return Value(Object{}); }
  // Empty, with room for `n` items or members (a view built member by member
  // then grows without moving what it holds).
  static Value array(std::size_t n) {
    Array a;
    a.reserve(n);
    return Value(std::move(a));
  }
  static Value object(std::size_t n) {
    Object o;
    o.reserve(n);
    return Value(std::move(o));
  }
  // Builds an object from key/value pairs: Value::obj({{"type", "play"}, {"card", "G5"}}).
  static Value obj(std::initializer_list<Member> members) { return Value(Object(members)); }

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(data_); }
  bool is_bool() const { return std::holds_alternative<bool>(data_); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(data_); }
  bool is_string() const { return std::holds_alternative<std::string>(data_); }
  bool is_array() const { return std::holds_alternative<Array>(data_); }
  bool is_object() const { return std::holds_alternative<Object>(data_); }

  // Accessors assume the kind was checked; they throw std::bad_variant_access otherwise.
  bool as_bool() const { return std::get<bool>(data_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Array& as_array() const { return std::get<Array>(data_); }
  Array& as_array() { return std::get<Array>(data_); }
  const Object& as_object() const { return std::get<Object>(data_); }
  Object& as_object() { return std::get<Object>(data_); }

  // Object member lookup; nullptr when absent or when this is not an object.
  const Value* find(std::string_view key) const;
  // Sets (or replaces) an object member; turns a null Value into an object first.
  Value& set(std::string key, Value v);
  // Appends a member that the object does not have yet (the caller knows it:
  // building an object from distinct keys), without looking for it first.
  Value& add(std::string key, Value v);
  // Appends to an array; turns a null Value into an array first.
  Value& push(Value v);
  std::size_t size() const;

  // Convenience readers with a default when the member is missing or of another kind.
  std::int64_t get_int(std::string_view key, std::int64_t fallback) const;
  std::string get_string(std::string_view key, std::string fallback) const;
  bool get_bool(std::string_view key, bool fallback) const;

  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

  // Compact JSON-like text for diagnostics and test messages (protocol/ does real JSON).
  std::string debug_string() const;

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, std::string, Array, Object> data_;
};

}  // namespace casa
