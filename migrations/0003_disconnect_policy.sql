-- SPDX-License-Identifier: AGPL-3.0-or-later
-- What happens to the seat of a player who disconnects, and which moves the
-- server made on a seat's behalf.
--
-- tables.grace_seconds / takeover: the table's disconnect policy. After
-- grace_seconds away, a seated player's decisions are taken by the `robot` bot
-- (takeover = 'robot') until they return, or simply wait (takeover = 'none').
-- Tables stored before this migration get the default policy.
--
-- actions.auto: NULL for a move its seat chose; else why the server chose it:
-- 'timer' (the move timer ran out), 'away' (the seat's player was away and the
-- robot played for them), 'left' (the player had left the started game).
--
-- seats.left_game: 1 when a bot holds the seat because its player left the
-- started game (so its moves are marked 'left', also after a restart).
--
-- tables.status gains the value 'closed': a dead table the server closed.

ALTER TABLE tables ADD COLUMN grace_seconds INTEGER NOT NULL DEFAULT 60;
ALTER TABLE tables ADD COLUMN takeover TEXT NOT NULL DEFAULT 'robot';
ALTER TABLE actions ADD COLUMN auto TEXT;
ALTER TABLE seats ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0;
