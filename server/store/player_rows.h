// SPDX-License-Identifier: AGPL-3.0-or-later
// Single players read from the `players` table (a node of a cluster meets a
// player another node registered). Runs inside Store::read (it is given the Db).
#pragma once

#include <optional>
#include <string>

#include "server/store/store.h"

namespace casa::server::player_rows {

// Key::token_hash: the hash of any live session's token (table `sessions`).
enum class Key { id, token_hash };
std::optional<StoredPlayer> find(Db& db, Key key, const std::string& value);

}  // namespace casa::server::player_rows
