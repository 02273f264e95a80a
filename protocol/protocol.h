// SPDX-License-Identifier: AGPL-3.0-or-later
// Protocol v1 (docs/protocol.md): the builders of every server message (a
// client's messages are read in protocol/messages.h). The only place (with
// value_json.h) where engine Values become JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.h"

namespace casa::protocol {

inline constexpr int kVersion = 1;

using nlohmann::json;

// A refused frame or request: a machine-readable code and a sentence.
struct Refusal {
  std::string code;
  std::string message;
};

// The messages a client sends, and their parsing: protocol/messages.h.

// ---- builders: each returns the serialised frame ----------------------------

std::string error(const Refusal& refusal, const std::optional<json>& id,
                  const std::string& table = {}, std::optional<std::int64_t> seq = {});
// Called with the code of every error frame error() builds (the server counts
// them for /metrics). Null: none. Set it before any thread builds frames.
using ErrorHook = void (*)(const std::string& code);
void set_error_hook(ErrorHook hook);
// A direct reply: `body` gets "type" and the request id.
std::string reply(std::string_view type, json body, const std::optional<json>& id);
// A message that is not a reply.
std::string message(std::string_view type, json body);
// Tells a client to connect again after `after_ms` and resume (the server is
// draining; docs/protocol.md, `reconnect`).
std::string reconnect(std::string_view reason, int after_ms);

// {"type":"accepted","table","seq"[,"id"]}: the answer to an action.
std::string accepted(const std::string& table, std::int64_t seq, const std::optional<json>& id);
std::string request(const std::string& table, std::int64_t seq, Seat seat,
                    const std::vector<Value>& legal, const Value& view,
                    std::optional<std::int64_t> deadline_ms);
// A request with the whole `view`, or with `view_patch` (a JSON merge patch,
// RFC 7386, against the last view the connection got for the table) for a
// connection that negotiated the "view_patch" feature; one of them is given.
std::string request(const std::string& table, std::int64_t seq, Seat seat, const std::vector<Value>& legal,
                    const Value* view, const Value* view_patch, std::optional<std::int64_t> deadline_ms);
// A request whose "view" is `game`'s view for `seat`, written straight into
// the text (Game::write_view): the same bytes as the request given
// game.view(seat), without building it.
std::string request(const std::string& table, std::int64_t seq, Seat seat, const std::vector<Value>& legal,
                    const Game& game, std::optional<std::int64_t> deadline_ms);
// `auto_by`: "timer", "away" or "left" when the server chose the action that
// caused the event on the seat's behalf; empty otherwise.
std::string event(const std::string& table, std::int64_t seq, const Value& event,
                  const std::string& auto_by = {});
// `deal`: the revealed seed and salt of the table's deal commitment
// ({"seed": "…", "salt": "…"}, docs/fair-play.md); null for a table without one.
std::string game_over(const std::string& table, std::int64_t seq, const std::vector<int>& scores,
                      const std::vector<Seat>& winners, const json& deal = nullptr);

// Engine values in JSON form (views, actions, options).
json value_to_json(const Value& value);
Value json_to_value(const json& value);

}  // namespace casa::protocol
