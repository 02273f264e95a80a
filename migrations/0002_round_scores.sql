-- SPDX-License-Identifier: AGPL-3.0-or-later
-- The score sheet of every table: one row per finished round (La Casa, Casino)
-- or hand (Conference, Trophy Case), written in the same transaction as the
-- action that ended it. `scores` holds every seat's running total after that
-- round (the engine's scores()); `summary` is the public end-of-round event the
-- players saw (tricks, points, captures...), kept as JSON.

CREATE TABLE round_scores (
  table_id  TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  round     INTEGER NOT NULL,            -- 1, 2, ... in order of play
  seq       INTEGER NOT NULL,            -- the action that ended the round
  scores    TEXT NOT NULL,               -- JSON array, one running total per seat
  summary   TEXT NOT NULL,               -- JSON object: the round_end / hand_end event
  PRIMARY KEY (table_id, round)
) WITHOUT ROWID;
