// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/value_json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

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

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const auto cont = [&](std::size_t k) { return k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(i);
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

namespace {

// The bytes a JSON string holds as they are: printable ASCII but `"` and `\`.
constexpr auto kPlain = [] {
  std::array<bool, 256> plain{};
  for (int b = 0x20; b < 0x80; ++b) plain[static_cast<std::size_t>(b)] = b != '"' && b != '\\';
  return plain;
}();

bool plain_byte(char c) { return kPlain[static_cast<unsigned char>(c)]; }

// `before` "text" `after` in one append when the text needs no escape and is
// short (keys, card ids, names: nearly every string of a message); false, and
// nothing written, otherwise.
bool append_plain(std::string& out, char before, std::string_view text, char after) {
  char buffer[64];
  if (text.size() + 4 > sizeof buffer) return false;
  char* p = buffer;
  if (before) *p++ = before;
  *p++ = '"';
  for (const char c : text) {
    if (!plain_byte(c)) return false;
  }
  std::memcpy(p, text.data(), text.size());
  p += text.size();
  *p++ = '"';
  if (after) *p++ = after;
  out.append(buffer, static_cast<std::size_t>(p - buffer));
  return true;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  if (append_plain(out, 0, text, 0)) return;
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const std::size_t n = utf8_length(text, i)) {
        i += n;
        continue;
      }
    }
    out.append(text.data() + run, i - run);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          out.append(esc, 6);
        } else {
          out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
        }
    }
    run = ++i;
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

void append_json_int(std::string& out, std::int64_t number) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, number).ptr;
  out.append(digits, end);
}

void append_json(std::string& out, const Value& value) {
  if (value.is_null()) {
    out += "null";
  } else if (value.is_bool()) {
    out += value.as_bool() ? "true" : "false";
  } else if (value.is_int()) {
    append_json_int(out, value.as_int());
  } else if (value.is_string()) {
    append_json_string(out, value.as_string());
  } else if (value.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& item : value.as_array()) {
      if (!first) out += ',';
      first = false;
      append_json(out, item);
    }
    out += ']';
  } else {
    out += '{';
    bool first = true;
    for (const auto& [key, item] : value.as_object()) {
      // `,"key":` in one piece when it can be.
      if (!append_plain(out, first ? 0 : ',', key, ':')) {
        if (!first) out += ',';
        append_json_string(out, key);
        out += ':';
      }
      first = false;
      append_json(out, item);
    }
    out += '}';
  }
}

void append_json_sorted(std::string& out, const Value& value) {
  if (value.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& item : value.as_array()) {
      if (!first) out += ',';
      first = false;
      append_json_sorted(out, item);
    }
    out += ']';
    return;
  }
  if (!value.is_object()) {
    append_json(out, value);
    return;
  }
  // An action or a score line: a handful of members, ordered in place.
  const auto& members = value.as_object();
  std::vector<const Value::Member*> order;
  order.reserve(members.size());
  for (const auto& m : members) order.push_back(&m);
  std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (order[i]->first == order[i - 1]->first) {
      // A key given twice (to_json keeps the last one): rare enough for the tree.
      out += to_json(value).dump();
      return;
    }
  }
  out += '{';
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, order[i]->first);
    out += ':';
    append_json_sorted(out, order[i]->second);
  }
  out += '}';
}

JsonViewWriter::JsonViewWriter(std::string& out) : out_(out) {
  const std::size_t used = out_.size();
  out_.resize(used + 2048);
  p_ = out_.data() + used;
  end_ = out_.data() + out_.size();
}

void JsonViewWriter::finish() {
  out_.resize(static_cast<std::size_t>(p_ - out_.data()));
  p_ = end_ = out_.data() + out_.size();
}

void JsonViewWriter::grow(std::size_t n) {
  const std::size_t used = static_cast<std::size_t>(p_ - out_.data());
  out_.resize(std::max(out_.size() * 2, used + n + 256));
  p_ = out_.data() + used;
  end_ = out_.data() + out_.size();
}

bool JsonViewWriter::plain_string(std::string_view text) {
  const char* s = text.data();
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!plain_byte(s[i])) return false;
  }
  ensure(n + 4);  // , " text " and : at most
  char* p = p_;
  *p = ',';
  p += after_item_;
  *p++ = '"';
  std::memcpy(p, s, n);
  p += n;
  *p++ = '"';
  p_ = p;
  return true;
}

void JsonViewWriter::begin_object(std::size_t) {
  ensure(2);
  separate();
  *p_++ = '{';
  after_item_ = false;
}

void JsonViewWriter::end_object() {
  ensure(1);
  *p_++ = '}';
  after_item_ = true;
}

void JsonViewWriter::begin_array(std::size_t) {
  ensure(2);
  separate();
  *p_++ = '[';
  after_item_ = false;
}

void JsonViewWriter::end_array() {
  ensure(1);
  *p_++ = ']';
  after_item_ = true;
}

void JsonViewWriter::key(std::string_view name) {
  if (plain_string(name)) {
    *p_++ = ':';
  } else {
    ensure(1);
    separate();
    finish();
    append_json_string(out_, name);
    out_ += ':';
    p_ = end_ = out_.data() + out_.size();
  }
  after_item_ = false;
}

void JsonViewWriter::null() {
  ensure(5);
  separate();
  std::memcpy(p_, "null", 4);
  p_ += 4;
  after_item_ = true;
}

void JsonViewWriter::boolean(bool b) {
  ensure(6);
  separate();
  if (b) {
    std::memcpy(p_, "true", 4);
    p_ += 4;
  } else {
    std::memcpy(p_, "false", 5);
    p_ += 5;
  }
  after_item_ = true;
}

void JsonViewWriter::integer(std::int64_t n) {
  ensure(24);
  separate();
  if (n >= 0 && n < 10) {
    *p_++ = static_cast<char>('0' + n);
  } else {
    p_ = std::to_chars(p_, end_, n).ptr;
  }
  after_item_ = true;
}

void JsonViewWriter::string(std::string_view s) {
  if (!plain_string(s)) {
    ensure(1);
    separate();
    finish();
    append_json_string(out_, s);
    p_ = end_ = out_.data() + out_.size();
  }
  after_item_ = true;
}

void JsonViewWriter::value(const Value& v) {
  ensure(1);
  separate();
  finish();
  append_json(out_, v);
  p_ = end_ = out_.data() + out_.size();
  after_item_ = true;
}

}  // namespace casa

namespace casa {

namespace {

// Whether a merge patch carrying `v` as a member's value would lose part of
// it: a null member anywhere in its objects (arrays are taken whole).
bool loses_nulls(const Value& v) {
  if (v.is_null()) return true;
  if (!v.is_object()) return false;
  for (const auto& [key, item] : v.as_object()) {
    if (loses_nulls(item)) return true;
  }
  return false;
}

}  // namespace

bool make_merge_patch(const Value& from, const Value& to, Value& patch) {
  if (!from.is_object() || !to.is_object()) return false;
  patch = Value::object();
  auto& out = patch.as_object();
  for (const auto& [key, now] : to.as_object()) {
    const Value* before = from.find(key);
    if (before != nullptr && *before == now) continue;
    if (before != nullptr && before->is_object() && now.is_object()) {
      Value sub;
      if (!make_merge_patch(*before, now, sub)) return false;
      out.emplace_back(key, std::move(sub));
      continue;
    }
    if (loses_nulls(now)) return false;
    out.emplace_back(key, now);
  }
  for (const auto& [key, before] : from.as_object()) {
    if (to.find(key) == nullptr) out.emplace_back(key, Value());
  }
  return true;
}

void apply_merge_patch(Value& target, const Value& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = Value::object();
  for (const auto& [key, item] : patch.as_object()) {
    auto& members = target.as_object();
    if (item.is_null()) {
      for (auto it = members.begin(); it != members.end(); ++it) {
        if (it->first == key) {
          members.erase(it);
          break;
        }
      }
      continue;
    }
    Value* existing = nullptr;
    for (auto& [k, v] : members) {
      if (k == key) existing = &v;
    }
    if (existing == nullptr) existing = &target.set(key, Value());
    apply_merge_patch(*existing, item);
  }
}

}  // namespace casa
