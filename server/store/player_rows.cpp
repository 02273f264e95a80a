// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/player_rows.h"

namespace casa::server::player_rows {

std::optional<StoredPlayer> find(Db& db, Key key, const std::string& value) {
  // By token: any live session's (docs/accounts.md); its hash comes back.
  auto& q = db.prepare(key == Key::id ? "SELECT id, name, token_hash FROM players WHERE id = ?"
                                      : "SELECT p.id, p.name, s.token_hash FROM sessions s "
                                        "JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?");
  q.bind_text(1, value);
  std::optional<StoredPlayer> found;
  if (q.step()) found = StoredPlayer{q.text_at(0), q.text_at(1), q.text_at(2)};
  q.run();
  return found;
}

}  // namespace casa::server::player_rows
