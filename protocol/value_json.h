// SPDX-License-Identifier: AGPL-3.0-or-later
// The one bridge between the engine's Value and JSON (nlohmann_json), and the
// direct writer of JSON text the hot server messages use (no JSON tree).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/value.h"
#include "engine/view_writer.h"

namespace casa {

nlohmann::json to_json(const Value& value);
// Numbers that are not integers become null: the engine has no use for them.
Value from_json(const nlohmann::json& json);

// Appends `value` as compact JSON text to `out`. Object members keep the
// Value's order (insertion order); JSON does not give object order a meaning.
void append_json(std::string& out, const Value& value);
// Appends a JSON string literal: quotes, `"` `\` and control characters
// escaped as nlohmann_json escapes them, other UTF-8 as is. A byte that is not
// part of valid UTF-8 becomes U+FFFD, so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view text);
// Appends `value` as compact JSON text with every object's members in key
// order: the bytes to_json(value).dump() gives (nlohmann_json keeps objects
// sorted), without building the JSON tree. For text stored or hashed in that
// form, such as the action log's rows.
void append_json_sorted(std::string& out, const Value& value);
void append_json_int(std::string& out, std::int64_t number);

// Writes what a ViewWriter is told as compact JSON text appended to `out`: the
// same bytes append_json gives for the Value a ValueWriter would build from
// the same calls (a game's view written straight into a message). It writes
// through a cursor into room it makes at the end of `out`; the text is
// complete, and `out` its right length, once finish() is called or the writer
// is destroyed. Leave `out` alone until then.
class JsonViewWriter final : public ViewWriter {
 public:
  explicit JsonViewWriter(std::string& out);
  ~JsonViewWriter() override { finish(); }
  JsonViewWriter(const JsonViewWriter&) = delete;
  JsonViewWriter& operator=(const JsonViewWriter&) = delete;

  void begin_object(std::size_t size_hint) override;
  void end_object() override;
  void begin_array(std::size_t size_hint) override;
  void end_array() override;
  void key(std::string_view name) override;
  void null() override;
  void boolean(bool b) override;
  void integer(std::int64_t n) override;
  void string(std::string_view s) override;
  void value(const Value& v) override;

  // Cuts `out` to the text written so far.
  void finish();

 private:
  // Room for `n` more bytes at the cursor.
  void ensure(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(n);
  }
  void grow(std::size_t n);
  // A value or a closed object/array was just written: the next item or
  // member needs a comma first.
  void separate() {
    if (after_item_) *p_++ = ',';
  }
  // `text` as a JSON string when it needs no escape; false (nothing written) otherwise.
  bool plain_string(std::string_view text);

  std::string& out_;
  char* p_ = nullptr;    // the cursor, inside out_
  char* end_ = nullptr;  // the end of out_'s room
  bool after_item_ = false;
};

}  // namespace casa

namespace casa {

// A JSON merge patch (RFC 7386) that turns object `from` into object `to`:
// changed members only, nested objects patched member by member, arrays whole,
// removed members as null. Everything in it comes from `to`. False (and
// `patch` unspecified) when `from` or `to` is not an object or when no merge
// patch can say it: a null member in `to` that the patch would have to carry
// (a merge patch reads null as "remove").
bool make_merge_patch(const Value& from, const Value& to, Value& patch);
// Applies a merge patch as RFC 7386 says (for tests and clients).
void apply_merge_patch(Value& target, const Value& patch);

}  // namespace casa
