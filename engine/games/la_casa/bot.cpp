#include <vector>

#include "engine/games/la_casa/la_casa.h"

namespace casa::la_casa {

// Until this game has its own rule-following bot, the robot plays the first legal action.
Action rule_bot_action(const Game& game, Seat seat, Rng&) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  return legal.at(0);
}

}  // namespace casa::la_casa
