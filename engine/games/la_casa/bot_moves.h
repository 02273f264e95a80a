// SPDX-License-Identifier: AGPL-3.0-or-later
// The rule-following robot's moves that more than one decision uses (bot.cpp):
// the Challenges' files (challenges/) build their phases' choices from them
// (ExtraPhase::bot, Challenge::solo_bot).
#pragma once

#include <cstdint>
#include <span>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"

namespace casa::la_casa {

class LaCasaGame;

// The lowest-valued card of `cards` (equal values: the lowest card index); -1 if none.
int lowest_card(CardSet cards);
// An action of `kind` naming `card`.
Action card_action(std::uint16_t kind, int card);
// LC-8.4 rules 1-3 for a hand in the table game: the card `seat` plays to the trick.
int robot_trick_card(const LaCasaGame& g, Seat seat);
// The first listed pass, no-elimination or no-steal; else the first listed action
// (keep everything, take nothing, bid nothing).
Action decline(std::span<const Action> legal);
// The first listed action with its family (arg) set to the family `hand` holds
// most cards of among those listed (family_cards, ties: the first listed).
Action family_held_most(std::span<const Action> legal, CardSet hand);
// Among the listed actions of `kind`, the one whose family `hand` holds most of,
// the Mangia-Cake counted as it would be once that family rules (ties: the first
// listed); the first listed action when none is of `kind`.
Action strongest_family(std::span<const Action> legal, std::uint16_t kind, CardSet hand);

}  // namespace casa::la_casa
