// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/bots.h"

#include "engine/registry.h"

namespace casa {

std::vector<std::string> bot_names() { return {"random", "robot", "strong"}; }

bool is_bot_name(std::string_view name) {
  return name == "random" || name == "robot" || name == "strong";
}

bool is_search_bot(std::string_view name) { return name == "strong"; }

RuleBot rule_bot_for(std::string_view game_name) {
  const GameInfo* game = find_game(game_name);
  return game ? game->rule_bot : nullptr;
}

Action choose_bot_action(const Game& game, Seat seat, std::string_view bot, Rng& rng) {
  if (bot == "robot" || bot == "strong") {
    if (const RuleBot robot = rule_bot_for(game.name())) return robot(game, seat, rng);
  }
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  return legal.at(rng.below(static_cast<std::uint32_t>(legal.size())));
}

}  // namespace casa
