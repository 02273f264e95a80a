#include "protocol/protocol.h"

#include <array>

#include "protocol/schema.h"
#include "protocol/value_json.h"

namespace casa::protocol {

namespace {

constexpr std::array kClientTypes = {"hello",    "create_table", "list_tables", "join",
                                     "leave",    "spectate",     "add_bot",     "action",
                                     "chat",     "rematch",      "resync",      "ping",
                                     "create_event"};

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

std::string error(const Refusal& refusal, const std::optional<json>& id, const std::string& table,
                  std::optional<std::int64_t> seq) {
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

std::string reconnect(std::string_view reason, int after_ms) {
  return message("reconnect", {{"reason", reason}, {"after_ms", after_ms}});
}

std::string request(const std::string& table, std::int64_t seq, Seat seat,
                    const std::vector<Value>& legal, const Value& view,
                    std::optional<std::int64_t> deadline_ms) {
  json actions = json::array();
  for (const auto& a : legal) actions.push_back(to_json(a));
  json body = {{"type", "request"}, {"table", table}, {"seq", seq},
               {"seat", seat},      {"legal", std::move(actions)}, {"view", to_json(view)}};
  if (deadline_ms) body["deadline_ms"] = *deadline_ms;
  return body.dump();
}

std::string event(const std::string& table, std::int64_t seq, const Value& event, const std::string& auto_by) {
  json body = {{"type", "event"}, {"table", table}, {"seq", seq}, {"event", to_json(event)}};
  if (!auto_by.empty()) body["auto"] = auto_by;
  return body.dump();
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
