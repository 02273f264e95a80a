// SPDX-License-Identifier: AGPL-3.0-or-later
// Server bots: players the engine can supply for an empty seat. They see only
// what their seat's view holds (and the legal list), like any other client.
//
//  * "random": uniform over the legal actions.
//  * "robot": a simple rule-following player, one per game (La Casa: the
//    Robot's rules of LC-8.4 extended to hands).
//  * "strong": a search (engine/strong.h). It needs time, so it is not played
//    here: a caller with a search budget (the server's bot pool) calls
//    strong_action(); choose_bot_action() plays the robot's choice for it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"

namespace casa {

std::vector<std::string> bot_names();
bool is_bot_name(std::string_view name);
// Whether the bot searches (and should think away from the caller's thread).
bool is_search_bot(std::string_view name);

// The bot's choice for `seat`, which must be among the seats to act.
Action choose_bot_action(const Game& game, Seat seat, std::string_view bot, Rng& rng);

// The "robot" of the game called `game_name` (nullptr if it has none), for callers
// that ask it many times, such as the strong bot's rollouts.
using RuleBot = Action (*)(const Game& game, Seat seat, Rng& rng);
RuleBot rule_bot_for(std::string_view game_name);

}  // namespace casa
