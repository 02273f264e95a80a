// SPDX-License-Identifier: AGPL-3.0-or-later
// The webhooks players configure (the `webhooks` table, migration 0014;
// docs/accounts.md, "Notifications"). Every function runs inside Store::read
// or Store::write (it is given the Db).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace casa::server::webhook_rows {

struct Webhook {
  std::string id;
  std::string player_id;
  std::string url;
  std::string format;  // "json" or "ntfy"
  std::string secret;  // the HMAC key, hex
  std::int64_t created_at = 0;
};

// The player's webhooks, oldest first.
std::vector<Webhook> of_player(Db& db, const std::string& player_id);
void insert(Db& db, const Webhook& hook);
// Deletes the player's webhook `id`; another player's is left alone.
void remove(Db& db, const std::string& player_id, const std::string& id);

}  // namespace casa::server::webhook_rows
