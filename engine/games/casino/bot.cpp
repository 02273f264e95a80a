#include <vector>

#include "engine/games/casino/casino.h"

namespace casa::casino {

// Until this game has its own rule-following bot, the robot plays the first legal action.
Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  return legal.at(0);
}

}  // namespace casa::casino
