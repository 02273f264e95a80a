// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/ops/names.h"

#include <utf8proc.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/bots.h"

namespace casa::server {

namespace {

// Characters that reorder, hide or imitate the text around them.
bool invisible_or_control(utf8proc_int32_t c) {
  if (c < 0x20 || c == 0x7f) return true;                   // C0, DEL
  if (c >= 0x80 && c <= 0x9f) return true;                   // C1
  if (c >= 0x202a && c <= 0x202e) return true;               // bidi embeddings, overrides
  if (c >= 0x2066 && c <= 0x2069) return true;               // bidi isolates
  if (c == 0x200e || c == 0x200f || c == 0x061c) return true;  // bidi marks
  if (c >= 0x200b && c <= 0x200d) return true;               // zero width space, (non-)joiner
  if (c == 0x2060 || c == 0xfeff) return true;               // word joiner, BOM
  return false;
}

bool blank(utf8proc_int32_t c) {
  const auto category = utf8proc_category(c);
  return category == UTF8PROC_CATEGORY_ZS || c == 0x3164 || c == 0x115f || c == 0x1160;
}

protocol::Refusal bad(std::string message) { return {"bad_name", std::move(message)}; }

}  // namespace

bool reserved_name(std::string_view nfc_name) {
  std::string lower;
  for (char c : nfc_name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& bot : bot_names()) {
    if (lower == bot) return true;
  }
  for (const char* name : {"robot", "random", "strong", "bot", "system", "server", "admin", "casa"}) {
    if (lower == name) return true;
  }
  // "bot:robot" and the like: how ratings name the server's bots.
  return lower.rfind("bot:", 0) == 0;
}

CleanText clean_display_text(std::string_view raw, bool reserved_check) {
  CleanText out;
  // Decodes and checks every code point first: invalid UTF-8 cannot reach here
  // (the WebSocket layer refuses it), but the check costs nothing.
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(raw.data());
  utf8proc_ssize_t at = 0;
  const auto size = static_cast<utf8proc_ssize_t>(raw.size());
  while (at < size) {
    utf8proc_int32_t c = 0;
    const auto n = utf8proc_iterate(bytes + at, size - at, &c);
    if (n <= 0) {
      out.refusal = bad("The name is not valid UTF-8.");
      return out;
    }
    if (invisible_or_control(c)) {
      out.refusal = bad("The name holds a control, direction or invisible character.");
      return out;
    }
    at += n;
  }
  utf8proc_uint8_t* nfc = utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(std::string(raw).c_str()));
  if (!nfc) {
    out.refusal = bad("The name cannot be normalised.");
    return out;
  }
  std::string text(reinterpret_cast<const char*>(nfc));
  std::free(nfc);
  // Trims blanks (any Unicode space separator) at both ends.
  std::vector<std::pair<utf8proc_ssize_t, utf8proc_int32_t>> points;  // (offset, code point)
  at = 0;
  const auto* t = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto tsize = static_cast<utf8proc_ssize_t>(text.size());
  while (at < tsize) {
    utf8proc_int32_t c = 0;
    const auto n = utf8proc_iterate(t + at, tsize - at, &c);
    if (n <= 0) break;
    points.emplace_back(at, c);
    at += n;
  }
  std::size_t first = 0, last = points.size();
  while (first < last && blank(points[first].second)) ++first;
  while (last > first && blank(points[last - 1].second)) --last;
  if (first == last) {
    out.refusal = bad("The name is empty or only spaces.");
    return out;
  }
  const auto begin = static_cast<std::size_t>(points[first].first);
  const auto end = last < points.size() ? static_cast<std::size_t>(points[last].first) : text.size();
  out.text = text.substr(begin, end - begin);
  if (reserved_check && reserved_name(out.text)) {
    out.refusal = bad("The name '" + out.text + "' is kept for the server's bots and the system.");
    out.text.clear();
  }
  return out;
}

std::string log_quote(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

}  // namespace casa::server
