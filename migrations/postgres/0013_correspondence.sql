-- SPDX-License-Identifier: AGPL-3.0-or-later
-- PostgreSQL dialect of migrations/0013_correspondence.sql (BIGINT for INTEGER).
-- Correspondence tables (docs/protocol.md, "Correspondence tables"): games
-- played at one's own pace, with a time per move of minutes to days.
--
-- tables.correspondence: 1 for a correspondence table (never closed for being
-- empty; its move deadlines are stored), 0 for every other table.
-- move_clocks: the running move deadline of a correspondence table, so that a
-- restarted server (or the node that takes the table over) resumes the clock
-- where it was, and applies an expiry that fell while it was down.
--   seq: the table's seq when the decision was asked (the deadline holds only
--        while the table is still at that seq);
--   seats: JSON array of the seats the deadline runs for;
--   deadline_ms: unix milliseconds;
--   timed_out: JSON array of the seats whose time ran out and that the
--        disconnect policy's bot plays until their player comes back.

ALTER TABLE tables ADD COLUMN correspondence BIGINT NOT NULL DEFAULT 0;

CREATE TABLE move_clocks (
  table_id     TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
  seq          BIGINT NOT NULL,
  seats        TEXT NOT NULL,
  deadline_ms  BIGINT NOT NULL,
  timed_out    TEXT NOT NULL DEFAULT '[]'
);

-- "Your games" reads a player's seats (docs/protocol.md, "Your games").
CREATE INDEX seats_player ON seats(player_id);
