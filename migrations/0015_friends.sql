-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Friends (docs/accounts.md#friends): a player with an account adds another
-- account by its handle. A row says "player_id added friend_id"; two players
-- are friends once each added the other (a row each way). Only then does
-- either see the other online and at a public table, and invite them to one.
-- created_at: unix seconds.

CREATE TABLE friends (
  player_id   TEXT NOT NULL REFERENCES players(id),
  friend_id   TEXT NOT NULL REFERENCES players(id),
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (player_id, friend_id)
);
CREATE INDEX friends_by_friend ON friends(friend_id);
