// SPDX-License-Identifier: AGPL-3.0-or-later
// A view written piece by piece rather than built as a Value tree.
//
// A game describes what a seat sees by calling a ViewWriter: objects, arrays,
// member names and scalar values, in order. Whoever needs the view chooses
// the writer: ValueWriter builds the Value that Game::view() returns, and the
// protocol layer writes the same calls straight into a message's JSON text
// (no tree, no allocation per member). Both see the same calls, so both give
// the same view.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/value.h"

namespace casa {

class ViewWriter {
 public:
  virtual ~ViewWriter() = default;

  // `size_hint`: how many members or items are expected (0: unknown). Only a
  // hint for reserving room; any number may follow.
  virtual void begin_object(std::size_t size_hint) = 0;
  virtual void end_object() = 0;
  virtual void begin_array(std::size_t size_hint) = 0;
  virtual void end_array() = 0;
  // The name of the next member; inside an object, before each value.
  virtual void key(std::string_view name) = 0;
  virtual void null() = 0;
  virtual void boolean(bool b) = 0;
  virtual void integer(std::int64_t n) = 0;
  virtual void string(std::string_view s) = 0;
  // A whole Value; the default walks it with the calls above.
  virtual void value(const Value& v);

  // Shorthands for one member: `"name": value`.
  void member(std::string_view name, std::int64_t n) {
    key(name);
    integer(n);
  }
  void member(std::string_view name, int n) { member(name, static_cast<std::int64_t>(n)); }
  void member(std::string_view name, bool b) {
    key(name);
    boolean(b);
  }
  void member(std::string_view name, std::string_view s) {
    key(name);
    string(s);
  }
  void member(std::string_view name, const char* s) { member(name, std::string_view(s)); }
  void member(std::string_view name, const std::string& s) { member(name, std::string_view(s)); }
  void null_member(std::string_view name) {
    key(name);
    null();
  }
};

// Builds the Value the calls describe (what Game::view() returns).
class ValueWriter final : public ViewWriter {
 public:
  void begin_object(std::size_t size_hint) override;
  void end_object() override { close(); }
  void begin_array(std::size_t size_hint) override;
  void end_array() override { close(); }
  void key(std::string_view name) override { open_.back().key.assign(name); }
  void null() override { put(Value()); }
  void boolean(bool b) override { put(Value(b)); }
  void integer(std::int64_t n) override { put(Value(static_cast<long long>(n))); }
  void string(std::string_view s) override { put(Value(s)); }
  void value(const Value& v) override { put(v); }

  // The value written (once every object and array is closed).
  Value take() { return std::move(result_); }

 private:
  struct Open {
    Value value;      // the object or array being filled
    std::string key;  // the name given for its next member
  };
  void put(Value v);
  void close();

  std::vector<Open> open_;
  Value result_;
};

}  // namespace casa
