-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Several nodes on one database (docs/cluster.md).
--
-- table_leases: which node runs a table, under which epoch, until when (by the
-- database's clock, never a node's). Every write of a table is fenced by its row.
-- nodes: one heartbeat row per node.
-- cluster_relay: frames too big for one notification (8000 bytes), read once by
-- their receiver; UNLOGGED: a frame lost with a crash of the database is
-- recovered by the client's resync.

CREATE TABLE table_leases (
  table_id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  epoch BIGINT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX table_leases_node ON table_leases(node_id);
CREATE INDEX table_leases_expiry ON table_leases(expires_at);

CREATE TABLE nodes (
  node_id TEXT PRIMARY KEY,
  started_at TIMESTAMPTZ NOT NULL,
  seen_at TIMESTAMPTZ NOT NULL
);

CREATE UNLOGGED TABLE cluster_relay (
  id BIGSERIAL PRIMARY KEY,
  payload TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
