-- SPDX-License-Identifier: AGPL-3.0-or-later
-- PostgreSQL dialect of migrations/0007_deal_commitment.sql: BIGINT for INTEGER, DOUBLE PRECISION
-- for REAL (the exact 8-byte double), identity columns for AUTOINCREMENT.
--
-- The commitment every table publishes to its deal (docs/fair-play.md).
--
-- tables.deal_salt: the table's salt, 16 random bytes as lowercase hex, drawn
-- when the table is created and never shown before the game is over.
-- tables.deal_commitment: the lowercase hex SHA-256 of "<deal_salt>:<seed>" that
-- the table published to its seats and spectators, kept as published so that a
-- replay serves the very commitment the players saw.
-- Tables stored before this migration have neither (NULL): they publish no
-- commitment and their replays say so.

ALTER TABLE tables ADD COLUMN deal_salt TEXT;
ALTER TABLE tables ADD COLUMN deal_commitment TEXT;
