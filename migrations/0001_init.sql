-- SPDX-License-Identifier: AGPL-3.0-or-later
-- The first schema: players, tables and their seats, every table's action log,
-- and the results of finished games. The action log (with the seed and options on
-- the table row) is the truth: replaying it through the engine rebuilds a table.

CREATE TABLE players (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  token_hash  TEXT NOT NULL UNIQUE,      -- hex SHA-256 of the resume token
  created_at  INTEGER NOT NULL           -- unix seconds
);

CREATE TABLE tables (
  id                    TEXT PRIMARY KEY,
  game                  TEXT NOT NULL,
  players               INTEGER NOT NULL,
  options               TEXT NOT NULL,   -- JSON object given to the engine
  seed                  INTEGER NOT NULL,-- the engine seed (64 bits, stored signed)
  private               INTEGER NOT NULL,
  invite                TEXT NOT NULL UNIQUE,
  creator               TEXT NOT NULL,
  move_timeout_seconds  INTEGER NOT NULL DEFAULT 0,
  status                TEXT NOT NULL,   -- waiting | playing | over
  scores                TEXT,            -- JSON array, once over
  winners               TEXT,            -- JSON array, once over
  created_at            INTEGER NOT NULL,
  finished_at           INTEGER
);
CREATE INDEX tables_status ON tables(status);

CREATE TABLE seats (
  table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seat       INTEGER NOT NULL,
  player_id  TEXT,                       -- a human, or
  bot        TEXT,                       -- a server bot
  PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE TABLE actions (
  table_id    TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,          -- 1, 2, ...: the table seq after this action
  seat        INTEGER NOT NULL,
  action      TEXT NOT NULL,             -- the engine's encode_action, as JSON
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE results (
  table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seat       INTEGER NOT NULL,
  player_id  TEXT,
  bot        TEXT,
  score      INTEGER NOT NULL,
  winner     INTEGER NOT NULL,
  PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_player ON results(player_id);
