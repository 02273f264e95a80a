// SPDX-License-Identifier: AGPL-3.0-or-later
// The trick of two players (LC-2 with one card each), as Solo (the human against
// the Robot, LC-8) and Domination (two seats, LC-9) play it: the trick in
// progress, what each player has won this round, and the last trick taken.
// A player is 0 or 1: Solo's human and Robot, Domination's seats.
//
// Plain data, so the games that hold one stay copyable; the full-state encoding
// is shared too, under each game's own name for "who played it".
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/la_casa/trick.h"

namespace casa::la_casa {

struct TwoSeatTrick {
  // The trick in progress, in play order.
  std::array<int, 2> cards{};
  std::array<int, 2> players{};  // who played each card
  int len = 0;
  int lead = kNoFamily;  // LC-2.3 the lead family so far
  int leader = 0;        // who leads (set by the game)
  // The round so far.
  int played = 0;                      // tricks taken
  std::array<int, 2> won{};            // tricks won by each player
  std::array<CardSet, 2> captured{};   // cards won by each player
  // The last trick taken (cards in play order), none before the first.
  std::array<int, 2> last{-1, -1};
  std::array<int, 2> last_players{};
  int last_winner = -1;

  // A new round: no trick yet, nothing won (the leader is the game's to set).
  void clear();
  // LC-2.3 the lead family the next card must follow: none while leading.
  int lead_now() const { return len == 0 ? kNoFamily : lead; }
  // LC-2.4 / LC-11.1 the cards of `holding` that may be played now.
  CardSet playable(CardSet holding, int ruling) const {
    return trick::playable(holding, lead_now(), ruling);
  }
  // `player` plays `card`; `ruling` is in force once it is played (LC-11.2).
  void play(int player, int card, int ruling);
  // LC-2.5 the complete trick goes to its winner (its cards captured, one more
  // trick won, it becomes the last trick); returns the winner.
  int take(int ruling, int cousins);

  // The full-state members, with `who` the game's key for a player.
  Value trick_state(std::string_view who) const;   // [{who: player, "card": id}, ...]
  Value captured_state() const;                    // [[ids], [ids]]
  Value last_state() const;                        // [id or null, id or null]
  Value last_players_state() const;                // [player, player]
};

}  // namespace casa::la_casa
