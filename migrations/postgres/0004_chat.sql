-- SPDX-License-Identifier: AGPL-3.0-or-later
-- PostgreSQL dialect of migrations/0004_chat.sql: BIGINT for INTEGER, DOUBLE PRECISION
-- for REAL (the exact 8-byte double), identity columns for AUTOINCREMENT.
--
-- Table chat, stored like moves: a line is committed (in the same group commit
-- as the moves around it) before anyone sees it, and a returning player finds
-- the table's recent lines in table_state.
--
-- line: 1, 2, ... per table, in the order the lines were committed.
-- seat: the speaker's seat when they spoke (-1: a spectator).
-- team: 1 for a team line: only the seats of the team holding `seat` (as the
-- table's `teams` say) may ever be shown it; never the other team, never a
-- spectator.

CREATE TABLE chat (
  table_id    TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  line        BIGINT NOT NULL,
  player_id   TEXT NOT NULL,
  seat        BIGINT NOT NULL,
  team        BIGINT NOT NULL,
  text        TEXT NOT NULL,
  created_at  BIGINT NOT NULL,           -- unix seconds
  PRIMARY KEY (table_id, line)
);

-- A restart loads the tables that ended in the last --finished-table-ttl-seconds
-- as well as the unfinished ones (docs/server.md): found by finished_at.
CREATE INDEX tables_finished ON tables(finished_at);
