// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/protocol.h"

#include <atomic>

#include "protocol/value_json.h"

namespace casa::protocol {

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
