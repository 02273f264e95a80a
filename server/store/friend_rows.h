// SPDX-License-Identifier: AGPL-3.0-or-later
// The rows of friends (migration 0015, docs/accounts.md#friends): who added
// whom. Two players are friends when each added the other. Every function runs
// inside Store::read or Store::write (it is given the Db).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::friend_rows {

// One player of a list, with their account's handle and display name.
struct Entry {
  std::string player_id;
  std::string handle;  // empty if they hold no account (any more)
  std::string name;
  bool mutual = false;  // the other added this player too
  std::int64_t since = 0;
};

// `player_id` adds `friend_id` (nothing changes when it did already).
void add(Db& db, const std::string& player_id, const std::string& friend_id, std::int64_t now);
// Removes the row `player_id` -> `friend_id`; false when there was none.
bool remove(Db& db, const std::string& player_id, const std::string& friend_id);
// Whom `player_id` added, with `mutual` set for those who added them back.
std::vector<Entry> added_by(Db& db, const std::string& player_id);
// Who added `player_id` without being added back.
std::vector<Entry> requests_to(Db& db, const std::string& player_id);
// How many players `player_id` added.
std::int64_t count(Db& db, const std::string& player_id);
// Each of the two added the other.
bool mutual(Db& db, const std::string& a, const std::string& b);

}  // namespace casa::server::friend_rows
