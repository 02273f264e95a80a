#include <vector>

#include "engine/games/conference/conference.h"

namespace casa::conference {

// Until this game has its own rule-following bot, the robot plays the first legal action.
Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  return legal.at(0);
}

}  // namespace casa::conference
