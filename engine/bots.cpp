// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/bots.h"

#include "engine/games/casino/casino.h"
#include "engine/games/conference/conference.h"
#include "engine/games/la_casa/la_casa.h"
#include "engine/games/trophy_case/trophy_case.h"

namespace casa {

std::vector<std::string> bot_names() { return {"random", "robot", "strong"}; }

bool is_bot_name(std::string_view name) {
  return name == "random" || name == "robot" || name == "strong";
}

bool is_search_bot(std::string_view name) { return name == "strong"; }

RuleBot rule_bot_for(std::string_view game_name) {
  if (game_name == "la-casa") return la_casa::rule_bot_action;
  if (game_name == "casino") return casino::rule_bot_action;
  if (game_name == "conference") return conference::rule_bot_action;
  if (game_name == "trophy-case") return trophy_case::rule_bot_action;
  return nullptr;
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
