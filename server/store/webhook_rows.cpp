// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/store/webhook_rows.h"

namespace casa::server::webhook_rows {

std::vector<Webhook> of_player(Db& db, const std::string& player_id) {
  auto& q = db.prepare(
      "SELECT id, player_id, url, format, secret, created_at FROM webhooks WHERE player_id = ? "
      "ORDER BY created_at, id");
  q.bind_text(1, player_id);
  std::vector<Webhook> out;
  while (q.step()) out.push_back({q.text_at(0), q.text_at(1), q.text_at(2), q.text_at(3), q.text_at(4), q.int_at(5)});
  return out;
}

void insert(Db& db, const Webhook& hook) {
  db.prepare("INSERT INTO webhooks (id, player_id, url, format, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind_text(1, hook.id)
      .bind_text(2, hook.player_id)
      .bind_text(3, hook.url)
      .bind_text(4, hook.format)
      .bind_text(5, hook.secret)
      .bind(6, hook.created_at)
      .run();
}

void remove(Db& db, const std::string& player_id, const std::string& id) {
  db.prepare("DELETE FROM webhooks WHERE player_id = ? AND id = ?").bind_text(1, player_id).bind_text(2, id).run();
}

}  // namespace casa::server::webhook_rows
