// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/teams.h"

namespace casa {

Sides read_sides(const Game& game, Seat viewer) {
  Sides sides;
  const int n = game.players();
  for (Seat s = 0; s < n; ++s) sides.side_of[static_cast<std::size_t>(s)] = s;
  sides.count = n;
  const Value view = game.view(viewer);
  const Value* teams = view.is_object() ? view.find("teams") : nullptr;
  if (!teams || !teams->is_array() || teams->size() == 0) return sides;
  int side = 0;
  for (const Value& members : teams->as_array()) {
    if (!members.is_array()) return sides;
    for (const Value& m : members.as_array())
      if (m.is_int() && m.as_int() >= 0 && m.as_int() < n)
        sides.side_of[static_cast<std::size_t>(m.as_int())] = side;
    ++side;
  }
  sides.count = side;
  return sides;
}

}  // namespace casa
