-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Operators' decisions (the admin API, docs/operations.md#admin-api).
--
-- bans: players whose hello is refused with the error code `banned` until an
-- operator lifts the ban. reason: the operator's words; banned_at: unix seconds.
-- tables.closed_reason: why an operator closed a table (its table_closed
-- message carried the same text); NULL for tables the server closed itself.

CREATE TABLE bans (
  player_id  TEXT PRIMARY KEY,
  reason     TEXT NOT NULL,
  banned_at  INTEGER NOT NULL
);

ALTER TABLE tables ADD COLUMN closed_reason TEXT;
