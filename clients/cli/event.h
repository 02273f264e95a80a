// SPDX-License-Identifier: AGPL-3.0-or-later
// Duplicate events (docs/events.md) for the casa command: the `--side` notation of
// `casa event create`, the standings in words, and which tables of an event a
// player sits at. Like the rest of the client it knows no rule: the sides, the
// scores and the ranks all come from the server.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clients/cli/render.h"

namespace casa::cli {

// One `--side` of `casa event create`, as a create_event side:
//   [NAME=]MEMBERS[/MEMBERS...]
// MEMBERS are the side's seats, comma-separated: `me` (the player running casa,
// {"me": true} until the welcome names them), a player id (`p` and ten hex
// digits) or a server bot's name (`robot`, `random`, `strong`, ...). One list
// sits at every table (`members`); several, split by `/`, are the side's
// members at each table in turn (`tables`). nullopt and `error` on a bad spec.
std::optional<Json> parse_side(const std::string& spec, std::string& error);

// The sides with every {"me": true} member replaced by the player's id.
Json sides_for(const Json& sides, const std::string& player_id);

// GET /api/events/{event} in words: a header line, the revealed boards, then the
// standings, one side a line (rank, name, total against the field, points, hands).
std::vector<std::string> render_standings(const Json& event);

// What of the event changes the standings as printed (status, ranks, totals,
// revealed boards): two answers with the same key print the same lines.
std::string standings_key(const Json& event);

// The rotations (tables per board) at which `player_id` sits for some side.
std::set<int> rotations_of(const Json& event, const std::string& player_id);

// The tables of those rotations that the event has opened and that are neither
// over nor closed (by the event's word, or in `over`, what this run saw end).
std::vector<std::string> open_tables(const Json& event, const std::set<int>& rotations,
                                     const std::set<std::string>& over);

// Whether some table of those rotations is still to be played: none is when the
// event is over, and a rotation is done once its last board is over or one of
// its tables was closed (the event plays no more boards there).
bool more_to_play(const Json& event, const std::set<int>& rotations,
                  const std::set<std::string>& over);

}  // namespace casa::cli
