// SPDX-License-Identifier: AGPL-3.0-or-later
// The rows the admin API writes and reads (docs/operations.md#admin-api): the
// `bans` table, a closed table's reason, a stored table's status. Every
// function runs inside Store::read or Store::write (it is given the Db).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::admin_rows {

struct Ban {
  std::string player_id;
  std::string reason;
  std::int64_t banned_at = 0;
  std::string name_skeleton;  // the banned player's name as a UTS #39 skeleton ("" unknown)
};

std::set<std::string> banned_players(Db& db);
bool is_banned(Db& db, const std::string& player_id);
// The skeletons of banned players' names (no new guest takes such a name).
std::vector<std::string> banned_name_skeletons(Db& db);
// Bans the player, or renews their ban with a new reason and time.
void ban(Db& db, const Ban& ban);
void unban(Db& db, const std::string& player_id);
// Every ban, oldest first.
std::vector<Ban> bans(Db& db);

// Why an administrator closed the table (after its status was stored 'closed').
void set_closed_reason(Db& db, const std::string& table, const std::string& reason);
// The stored status of `table` ("waiting", "playing", "over", "closed"), if stored.
std::optional<std::string> table_status(Db& db, const std::string& table);

}  // namespace casa::server::admin_rows
