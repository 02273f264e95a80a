// SPDX-License-Identifier: AGPL-3.0-or-later
// The "teams" field every view carries: an array of arrays of seats, one per
// side. The server reads it for team chat and table listings, so it needs no
// rule of any game to know who plays with whom.
#pragma once

#include <array>

#include "engine/game.h"
#include "engine/value.h"
#include "engine/view_writer.h"

namespace casa {

// Seats grouped by side_of(seat), sides numbered 0..sides-1.
template <typename SideOf>
Value teams_value(int players, int sides, SideOf side_of) {
  Value teams = Value::array();
  for (int side = 0; side < sides; ++side) {
    Value members = Value::array();
    for (Seat s = 0; s < players; ++s) {
      if (side_of(s) == side) members.push(s);
    }
    teams.push(std::move(members));
  }
  return teams;
}

// The same array written through a ViewWriter.
template <typename SideOf>
void write_teams(ViewWriter& out, int players, int sides, SideOf side_of) {
  out.begin_array(static_cast<std::size_t>(sides));
  for (int side = 0; side < sides; ++side) {
    out.begin_array(static_cast<std::size_t>(players));
    for (Seat s = 0; s < players; ++s) {
      if (side_of(s) == side) out.integer(s);
    }
    out.end_array();
  }
  out.end_array();
}

// Who plays with whom, read back from the "teams" field of `viewer`'s view
// (the search and the review, which see a game only through the Game
// interface): side_of[seat] numbers the sides in the field's order. Without
// the field each seat is its own side.
struct Sides {
  std::array<int, kMaxSeats> side_of{};
  int count = 0;
};
Sides read_sides(const Game& game, Seat viewer);

}  // namespace casa
