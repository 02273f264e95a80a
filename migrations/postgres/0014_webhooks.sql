-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Webhooks players configure for themselves (docs/accounts.md, "Notifications";
-- /api/account/webhooks).
--
-- id: a random public id; player_id: whose notifications it receives; url: an
-- http(s) URL; format: 'json' (a JSON POST) or 'ntfy' (ntfy's publish API);
-- secret: the HMAC-SHA256 key every delivery is signed with (shown to the player
-- once, when the webhook is made; kept in clear because signing needs it);
-- created_at: unix seconds.

CREATE TABLE webhooks (
  id         TEXT PRIMARY KEY,
  player_id  TEXT NOT NULL,
  url        TEXT NOT NULL,
  format     TEXT NOT NULL,
  secret     TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE INDEX webhooks_by_player ON webhooks (player_id);
