// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/protocol.h"

#include <atomic>
#include <array>

#include "protocol/schema.h"
#include "protocol/value_json.h"

namespace casa::protocol {

namespace {

constexpr std::array kClientTypes = {"hello",    "create_table", "list_tables", "join",
                                     "leave",    "spectate",     "add_bot",     "action",
                                     "chat",     "rematch",      "resync",      "ping",
                                     "create_event", "accept_invitation", "decline_invitation"};

constexpr int kMaxDepth = 32;

}  // namespace

bool is_client_type(std::string_view type) {
  for (const auto* t : kClientTypes) {
    if (type == t) return true;
  }
  return false;
}

// Deeply nested JSON is never a valid message; refusing it early keeps the
// recursive parts (Value conversion, destruction) off thin ice.
static bool too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

std::optional<Refusal> parse_client(std::string_view text, Incoming& out) {
  out = Incoming{};
  if (too_deep(text)) return Refusal{"malformed_json", "The message is nested too deeply."};
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    return Refusal{"malformed_json", "A message must be one JSON object."};
  }
  if (const auto id = body.find("id"); id != body.end()) {
    if ((id->is_string() && id->get_ref<const std::string&>().size() <= 64) ||
        id->is_number_integer()) {
      out.id = *id;
    }
  }
  const auto type = body.find("type");
  if (type == body.end() || !type->is_string()) {
    return Refusal{"bad_field", "Every message needs a string field \"type\"."};
  }
  const std::string name = type->get<std::string>();
  if (!is_client_type(name)) return Refusal{"unknown_type", "There is no message type '" + name + "'."};
  if (auto why = protocol_schemas().validate("client/" + name + ".json", body)) {
    return Refusal{"bad_field", "Bad " + name + " message: " + *why};
  }
  out.type = name;
  out.body = std::move(body);
  return std::nullopt;
}

namespace {

// A reader of the plain JSON subset parse_action takes. Every refusal means
// "not the plain form", never "malformed": parse_client has the last word.
class PlainReader {
 public:
  explicit PlainReader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool at_end() {
    skip_space();
    return p_ == end_;
  }
  bool take(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool peek(char c) {
    skip_space();
    return p_ != end_ && *p_ == c;
  }

  // A string of printable ASCII without escapes (JSON and UTF-8 need no check).
  bool string(std::string_view& out) {
    if (!take('"')) return false;
    const char* start = p_;
    while (p_ != end_ && *p_ != '"') {
      const auto c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c > 0x7E || c == '\\') return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }

  // An integer of at most 18 digits (so it fits in int64 whatever its sign),
  // no fraction or exponent, no leading zero.
  bool integer(std::int64_t& out) {
    skip_space();
    const bool negative = p_ != end_ && *p_ == '-';
    if (negative) ++p_;
    const char* start = p_;
    std::int64_t n = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') n = n * 10 + (*p_++ - '0');
    const auto digits = p_ - start;
    if (digits == 0 || digits > 18 || (digits > 1 && *start == '0')) return false;
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
    out = negative ? -n : n;
    return true;
  }

  bool literal(std::string_view word) {
    skip_space();
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  // Any value of the subset, as from_json would give it: object members in
  // key order (nlohmann_json keeps objects sorted), no duplicate key.
  bool value(Value& out, int depth) {
    if (depth > 8) return false;
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '"': {
        std::string_view s;
        if (!string(s)) return false;
        out = Value(s);
        return true;
      }
      case '{': {
        ++p_;
        out = Value::object();
        auto& members = out.as_object();
        if (take('}')) return true;
        do {
          std::string_view key;
          if (!string(key) || !take(':')) return false;
          Value item;
          if (!value(item, depth + 1)) return false;
          auto at = members.begin();
          while (at != members.end() && std::string_view(at->first) < key) ++at;
          if (at != members.end() && at->first == key) return false;
          members.emplace(at, std::string(key), std::move(item));
        } while (take(','));
        return take('}');
      }
      case '[': {
        ++p_;
        out = Value::array();
        if (take(']')) return true;
        do {
          Value item;
          if (!value(item, depth + 1)) return false;
          out.push(std::move(item));
        } while (take(','));
        return take(']');
      }
      case 't': out = Value(true); return literal("true");
      case 'f': out = Value(false); return literal("false");
      case 'n': out = Value(); return literal("null");
      default: {
        std::int64_t n = 0;
        if (!integer(n)) return false;
        out = Value(n);
        return true;
      }
    }
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace

// The members and limits below are those of client/action.json and the
// definitions it refers to (common.json: table_id, seq, engine_value, id);
// the protocol tests compare this reader with parse_client on the same texts.
bool parse_action(std::string_view text, ActionMessage& out) {
  PlainReader in(text);
  out.id.reset();
  if (!in.take('{')) return false;
  bool has_type = false, has_table = false, has_seq = false, has_action = false, has_id = false;
  do {
    std::string_view key;
    if (!in.string(key) || !in.take(':')) return false;
    if (key == "type") {
      std::string_view type;
      if (has_type || !in.string(type) || type != "action") return false;
      has_type = true;
    } else if (key == "table") {
      std::string_view table;
      if (has_table || !in.string(table) || table.empty() || table.size() > 32) return false;
      out.table.assign(table);
      has_table = true;
    } else if (key == "seq") {
      if (has_seq || !in.integer(out.seq) || out.seq < 0) return false;
      has_seq = true;
    } else if (key == "action") {
      if (has_action || !in.peek('{') || !in.value(out.action, 1)) return false;
      const Value* type = out.action.find("type");
      if (type == nullptr || !type->is_string()) return false;
      has_action = true;
    } else if (key == "id") {
      if (has_id) return false;
      if (in.peek('"')) {
        std::string_view id;
        if (!in.string(id) || id.size() > 64) return false;
        out.id = json(std::string(id));
      } else {
        // As nlohmann_json reads it: signed when written with a minus (even
        // -0), unsigned otherwise.
        const bool minus = in.peek('-');
        std::int64_t id = 0;
        if (!in.integer(id)) return false;
        out.id = minus ? json(id) : json(static_cast<std::uint64_t>(id));
      }
      has_id = true;
    } else {
      return false;
    }
  } while (in.take(','));
  return in.take('}') && in.at_end() && has_type && has_table && has_seq && has_action;
}

namespace {
std::atomic<ErrorHook> error_hook{nullptr};
}  // namespace

void set_error_hook(ErrorHook hook) { error_hook.store(hook, std::memory_order_release); }

std::string error(const Refusal& refusal, const std::optional<json>& id, const std::string& table,
                  std::optional<std::int64_t> seq) {
  if (const ErrorHook hook = error_hook.load(std::memory_order_acquire)) hook(refusal.code);
  json body = {{"type", "error"}, {"code", refusal.code}, {"message", refusal.message}};
  if (id) body["id"] = *id;
  if (!table.empty()) body["table"] = table;
  if (seq) body["seq"] = *seq;
  return body.dump();
}

std::string reply(std::string_view type, json body, const std::optional<json>& id) {
  json out = {{"type", type}};
  if (id) out["id"] = *id;
  for (auto& [key, value] : body.items()) out[key] = std::move(value);
  return out.dump();
}

std::string message(std::string_view type, json body) { return reply(type, std::move(body), {}); }

namespace {

// The hot messages (accepted, event, request) are written as text straight
// into a buffer the thread reuses: no JSON tree, no allocation but the
// returned string once the buffer has grown to the largest message.
std::string& scratch() {
  thread_local std::string buffer;
  buffer.clear();
  return buffer;
}

void append_key(std::string& out, std::string_view key) {
  out += ',';
  out += '"';
  out += key;
  out += "\":";
}

void append_id(std::string& out, const json& id) {
  if (id.is_number_integer()) {
    append_json_int(out, id.get<std::int64_t>());
  } else if (id.is_string()) {
    append_json_string(out, id.get_ref<const std::string&>());
  } else {
    out += id.dump();
  }
}

// {"type":TYPE,"table":TABLE,"seq":SEQ
void open_table_message(std::string& out, std::string_view type, const std::string& table, std::int64_t seq) {
  out += "{\"type\":\"";
  out += type;
  out += '"';
  append_key(out, "table");
  append_json_string(out, table);
  append_key(out, "seq");
  append_json_int(out, seq);
}

}  // namespace

std::string accepted(const std::string& table, std::int64_t seq, const std::optional<json>& id) {
  std::string& out = scratch();
  open_table_message(out, "accepted", table, seq);
  if (id) {
    append_key(out, "id");
    append_id(out, *id);
  }
  out += '}';
  return out;
}

std::string reconnect(std::string_view reason, int after_ms) {
  return message("reconnect", {{"reason", reason}, {"after_ms", after_ms}});
}

std::string request(const std::string& table, std::int64_t seq, Seat seat,
                    const std::vector<Value>& legal, const Value& view,
                    std::optional<std::int64_t> deadline_ms) {
  return request(table, seq, seat, legal, &view, nullptr, deadline_ms);
}

namespace {

// {"type":"request","table","seq","seat","legal"
void open_request(std::string& out, const std::string& table, std::int64_t seq, Seat seat,
                  const std::vector<Value>& legal) {
  open_table_message(out, "request", table, seq);
  append_key(out, "seat");
  append_json_int(out, seat);
  append_key(out, "legal");
  out += '[';
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (i) out += ',';
    append_json(out, legal[i]);
  }
  out += ']';
}

void close_request(std::string& out, std::optional<std::int64_t> deadline_ms) {
  if (deadline_ms) {
    append_key(out, "deadline_ms");
    append_json_int(out, *deadline_ms);
  }
  out += '}';
}

}  // namespace

std::string request(const std::string& table, std::int64_t seq, Seat seat, const std::vector<Value>& legal,
                    const Game& game, std::optional<std::int64_t> deadline_ms) {
  std::string& out = scratch();
  open_request(out, table, seq, seat, legal);
  append_key(out, "view");
  {
    JsonViewWriter writer(out);
    game.write_view(seat, writer);
  }
  close_request(out, deadline_ms);
  return out;
}

std::string request(const std::string& table, std::int64_t seq, Seat seat, const std::vector<Value>& legal,
                    const Value* view, const Value* view_patch, std::optional<std::int64_t> deadline_ms) {
  std::string& out = scratch();
  open_request(out, table, seq, seat, legal);
  if (view) {
    append_key(out, "view");
    append_json(out, *view);
  }
  if (view_patch) {
    append_key(out, "view_patch");
    append_json(out, *view_patch);
  }
  close_request(out, deadline_ms);
  return out;
}

std::string event(const std::string& table, std::int64_t seq, const Value& event, const std::string& auto_by) {
  std::string& out = scratch();
  open_table_message(out, "event", table, seq);
  append_key(out, "event");
  append_json(out, event);
  if (!auto_by.empty()) {
    append_key(out, "auto");
    append_json_string(out, auto_by);
  }
  out += '}';
  return out;
}

std::string game_over(const std::string& table, std::int64_t seq, const std::vector<int>& scores,
                      const std::vector<Seat>& winners, const json& deal) {
  json body{{"type", "game_over"}, {"table", table}, {"seq", seq}, {"scores", scores}, {"winners", winners}};
  if (!deal.is_null()) body["deal"] = deal;
  return body.dump();
}

json value_to_json(const Value& value) { return to_json(value); }
Value json_to_value(const json& value) { return from_json(value); }

}  // namespace casa::protocol
