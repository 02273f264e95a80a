-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Ratings: Glicko-2 per player and game (docs/ratings.md).
--
-- tables.rated: 1 rated, 0 unrated, NULL the default (rated when every seat
-- holds a person at the end). tables.teams: the sides as the engine's view
-- told them ([[0,2],[1,3]]), stored with the result; NULL for games finished
-- before this migration, which stay unrated.
--
-- finished_games: the order in which games ended (n grows with each result).
-- Ratings are a function of the stored results taken in this order, so
-- `casa-server --rebuild-ratings` recomputes `ratings` to the same numbers.
--
-- ratings: the current rating of a player (a player id, or `bot:<kind>` for a
-- server bot) in one game; rating_changes: what each rated game did to it.

ALTER TABLE tables ADD COLUMN rated INTEGER;
ALTER TABLE tables ADD COLUMN teams TEXT;

CREATE TABLE finished_games (
  n         INTEGER PRIMARY KEY AUTOINCREMENT,
  table_id  TEXT NOT NULL UNIQUE REFERENCES tables(id) ON DELETE CASCADE
);
INSERT INTO finished_games (table_id)
  SELECT id FROM tables WHERE status = 'over' ORDER BY finished_at, rowid;

CREATE TABLE ratings (
  player      TEXT NOT NULL,             -- a player id, or bot:<kind>
  game        TEXT NOT NULL,
  rating      REAL NOT NULL,
  deviation   REAL NOT NULL,
  volatility  REAL NOT NULL,
  games       INTEGER NOT NULL,
  PRIMARY KEY (player, game)
) WITHOUT ROWID;
CREATE INDEX ratings_game ON ratings(game, rating);

CREATE TABLE rating_changes (
  table_id  TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  player    TEXT NOT NULL,
  before    REAL NOT NULL,
  after     REAL NOT NULL,
  deviation REAL NOT NULL,                -- after the game
  PRIMARY KEY (table_id, player)
) WITHOUT ROWID;

CREATE INDEX players_name ON players(name, created_at);
