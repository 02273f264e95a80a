// SPDX-License-Identifier: AGPL-3.0-or-later
// fuzz_protocol: arbitrary bytes as one client frame.
//
// With the protocol library (CASA_FUZZ_HAS_PROTOCOL, set by fuzz/CMakeLists.txt
// when protocol/protocol.h is built): the bytes go through
// protocol::parse_client, the server's entry point for every frame (JSON
// parsing, depth limit, schema validation, typed messages). It must never
// crash, must either accept or refuse with a code, must answer as the
// tree-only reader does (its shortcut for plain actions changes nothing), and
// an accepted `action` frame's action value goes on through every game's
// decode_action, as the server would.
//
// Always: the JSON <-> Value bridge (protocol/value_json.h) must not crash and
// a Value that came from JSON must survive a round trip unchanged.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/game.h"
#include "protocol/value_json.h"
#ifdef CASA_FUZZ_HAS_PROTOCOL
#include "protocol/messages.h"
#endif

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_protocol: broken promise: %s\n", what);
    std::abort();
  }
}

void check_bridge(const nlohmann::json& frame) {
  const casa::Value value = casa::from_json(frame);
  const casa::Value again = casa::from_json(casa::to_json(value));
  require(value == again, "Value -> JSON -> Value is the identity");
}

#ifdef CASA_FUZZ_HAS_PROTOCOL
// One game of each kind that exists (La Casa's Domination and Solo decode
// their own actions), for decode_action.
const std::vector<std::unique_ptr<casa::Game>>& games() {
  static const auto all = [] {
    std::vector<std::unique_ptr<casa::Game>> out;
    for (const auto& name : casa::game_names()) {
      for (int players : {4, 3, 2}) {
        auto created = casa::create_game(name, players, casa::Value::object(), 1);
        if (created.game) {
          out.push_back(std::move(created.game));
          break;
        }
      }
    }
    for (const auto& [players, format] : {std::pair{2, "domination"}, std::pair{1, "solo"}}) {
      auto created = casa::create_game(
          "la-casa", players, casa::Value::obj({{"format", format}}), 1);
      if (created.game) out.push_back(std::move(created.game));
    }
    return out;
  }();
  return all;
}

// An accepted action holds only keys of its encoding (or keys whose null or
// false value means the same as their absence): engine/action_fields.h.
bool only_known_keys(const casa::Value& action, const casa::Value& encoded) {
  if (!action.is_object()) return true;
  for (const auto& [key, item] : action.as_object()) {
    if (encoded.find(key)) continue;
    if (item.is_null() || (item.is_bool() && !item.as_bool())) continue;
    return false;
  }
  return true;
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
#ifdef CASA_FUZZ_HAS_PROTOCOL
  casa::protocol::ClientFrame incoming, tree;
  const auto refusal = casa::protocol::parse_client(text, incoming);
  const auto tree_refusal = casa::protocol::parse_client_tree(text, tree);
  require(refusal.has_value() == tree_refusal.has_value() && incoming.id == tree.id,
          "parse_client answers as parse_client_tree");
  if (refusal) {
    require(!refusal->code.empty(), "a refusal has a code");
    require(refusal->code == tree_refusal->code && refusal->message == tree_refusal->message,
            "the same refusal either way");
  } else {
    require(incoming.message == tree.message, "the same message either way");
    require(casa::protocol::is_client_type(casa::protocol::type_of(incoming.message)),
            "an accepted frame has a client type");
    if (const auto* message = std::get_if<casa::protocol::ActionMessage>(&incoming.message)) {
      const casa::Value& action = message->action;
      for (const auto& game : games()) {
        casa::Action decoded;
        if (!game->decode_action(action, decoded)) {
          // A decoded action encodes to something that decodes to it again.
          casa::Action again;
          require(!game->decode_action(game->encode_action(decoded), again) && again == decoded,
                  "decode(encode(decode(v))) == decode(v)");
          require(only_known_keys(action, game->encode_action(decoded)),
                  "an accepted action holds no unknown key");
        }
      }
    }
  }
#endif
  const auto frame = nlohmann::json::parse(text, nullptr, false);
  if (!frame.is_discarded()) check_bridge(frame);
  return 0;
}
