-- SPDX-License-Identifier: AGPL-3.0-or-later
-- PostgreSQL dialect of migrations/0006_events.sql: BIGINT for INTEGER, DOUBLE PRECISION
-- for REAL (the exact 8-byte double), identity columns for AUTOINCREMENT.
--
-- Duplicate events: several tables of one game play the same deals (boards)
-- with the sides rotated between them (docs/events.md). Each table of an event
-- is an ordinary row of `tables` (its seed is the board's seed); the results
-- are those tables' rows of `results`, so standings are recomputed from them.
--
-- events.seeds: JSON array, one seed per board, as decimal strings.
-- events.sides: JSON array, per side its name and its members per table
--   (rotation): [{"name": "...", "tables": [[{"bot": "robot"} | {"player_id": "p…"}, …], …]}].
-- events.status: running | over.
-- event_tables: which table plays board `board` (1, 2, …) at rotation
--   `rotation` (0 … sides-1). A row is written before its table is stored; a
--   row whose table is missing after a crash is opened again with that id.

CREATE TABLE events (
  id          TEXT PRIMARY KEY,
  game        TEXT NOT NULL,
  players     BIGINT NOT NULL,
  options     TEXT NOT NULL,
  boards      BIGINT NOT NULL,
  seeds       TEXT NOT NULL,
  sides       TEXT NOT NULL,
  creator     TEXT NOT NULL,
  status      TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX events_status ON events(status);

CREATE TABLE event_tables (
  event_id  TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  board     BIGINT NOT NULL,
  rotation  BIGINT NOT NULL,
  table_id  TEXT NOT NULL UNIQUE,
  PRIMARY KEY (event_id, board, rotation)
);
