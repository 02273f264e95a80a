// SPDX-License-Identifier: AGPL-3.0-or-later
#include "review/robot_replay.h"

#include <string>

#include "engine/bots.h"
#include "engine/rng.h"
#include "protocol/value_json.h"

namespace casa {

using nlohmann::json;

nlohmann::json robot_replay(std::string_view game, int players, const json& options,
                            std::uint64_t seed, const std::vector<ScriptedAction>& script,
                            std::uint64_t robot_seed, int max_actions) {
  CreateResult created = create_game(game, players, from_json(options), seed);
  if (!created.game)
    return {{"error", "create"}, {"why", created.error ? created.error->message : "no such game"}};
  Game& g = *created.game;
  json seats = json::array();
  for (int s = 0; s < players; ++s)
    seats.push_back({{"seat", s}, {"name", "Player " + std::to_string(s + 1)}});
  json replay = {{"table", "robots"},
                 {"game", std::string(game)},
                 {"players", players},
                 {"options", options},
                 {"seed", std::to_string(seed)},
                 {"seats", std::move(seats)},
                 {"initial_state", to_json(g.full_state())}};
  json log = json::array();
  Rng rng(robot_seed);
  int seq = 0;
  while (!g.is_over() && seq < max_actions) {
    Seat seat = 0;
    Action a;
    if (static_cast<std::size_t>(seq) < script.size()) {
      const ScriptedAction& next = script[static_cast<std::size_t>(seq)];
      seat = next.seat;
      if (const auto err = g.decode_action(from_json(next.action), a))
        return {{"error", "script"}, {"why", next.action.dump() + ": " + err->message}};
    } else {
      while (!(g.to_act() & seat_bit(seat))) ++seat;
      a = choose_bot_action(g, seat, "robot", rng);
    }
    json action = to_json(g.encode_action(a));
    if (const auto err = g.apply(seat, a, nullptr))
      return {{"error", "script"},
              {"why", action.dump() + " by seat " + std::to_string(seat) + ": " + err->message}};
    ++seq;
    log.push_back({{"seq", seq},
                   {"seat", seat},
                   {"action", std::move(action)},
                   {"state", to_json(g.full_state())}});
  }
  replay["log"] = std::move(log);
  replay["scores"] = g.scores();
  replay["winners"] = g.winners();
  replay["rounds"] = json::array();
  replay["final_state"] = to_json(g.full_state());
  return replay;
}

}  // namespace casa
