#include <vector>

#include "engine/games/trophy_case/trophy_case.h"

namespace casa::trophy_case {

// Until this game has its own rule-following bot, the robot plays the first legal action.
Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  return legal.at(0);
}

}  // namespace casa::trophy_case
