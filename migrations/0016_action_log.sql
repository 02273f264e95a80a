-- SPDX-License-Identifier: AGPL-3.0-or-later
-- A log for moves stored in bursts (docs/server.md#the-store). `actions` was
-- keyed (table_id, seq): with many tables playing at once, each move of a
-- commit lands in a database page of its own. When a commit holds many moves
-- the server now appends them to action_log instead, a few dozen to a page,
-- and folds the log into actions_by_table (the former `actions`, same key)
-- in bulk, each table's moves together: once the log holds a few thousand
-- rows, when the store has been idle a second, and at start. A commit of few
-- moves still writes actions_by_table directly. The server checks each move's
-- seq before storing it, wherever it goes.
--
-- `actions` stays the name to read: a view of both, with the same columns.

ALTER TABLE actions RENAME TO actions_by_table;

CREATE TABLE action_log (
  id          INTEGER PRIMARY KEY,       -- the order the moves were stored in
  table_id    TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  seat        INTEGER NOT NULL,
  action      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  auto        TEXT,
  node_id     TEXT,
  lease_epoch INTEGER
);

CREATE VIEW actions AS
  SELECT table_id, seq, seat, action, created_at, auto, node_id, lease_epoch FROM actions_by_table
  UNION ALL
  SELECT table_id, seq, seat, action, created_at, auto, node_id, lease_epoch FROM action_log;
