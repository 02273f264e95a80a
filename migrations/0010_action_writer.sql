-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Which node wrote each logged action, and under which lease epoch
-- (docs/cluster.md, "Who wrote a row"). In cluster mode every action is
-- written after the lease fence passed, and these are the node id and epoch
-- that fence checked: read along seq they prove that a node which lost a
-- table's lease wrote nothing more to it. A one-node server (SQLite, or
-- PostgreSQL without --node-id) has no lease: it leaves both NULL, as are the
-- rows logged before this migration.

ALTER TABLE actions ADD COLUMN node_id TEXT;
ALTER TABLE actions ADD COLUMN lease_epoch INTEGER;
