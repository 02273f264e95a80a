-- SPDX-License-Identifier: AGPL-3.0-or-later
-- SQLite's 0016 adds a log for moves stored in bursts beside `actions`
-- (migrations/0016_action_log.sql). PostgreSQL keeps `actions` as it is: its
-- tables already store rows in the order they come. Nothing changes here.
SELECT 1;
