-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Several nodes on one database (docs/cluster.md). Cluster mode runs only on
-- PostgreSQL; these tables exist in SQLite too so that both dialects have the
-- same schema version, and stay empty there.
--
-- table_leases: which node runs a table, under which epoch, until when (the
-- database's clock). Every write of a table is fenced by its row.
-- nodes: one heartbeat row per node.
-- cluster_relay: frames too big for one notification, read once by their
-- receiver.

CREATE TABLE table_leases (
  table_id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  expires_at REAL NOT NULL
);
CREATE INDEX table_leases_node ON table_leases(node_id);
CREATE INDEX table_leases_expiry ON table_leases(expires_at);

CREATE TABLE nodes (
  node_id TEXT PRIMARY KEY,
  started_at REAL NOT NULL,
  seen_at REAL NOT NULL
);

CREATE TABLE cluster_relay (
  id INTEGER PRIMARY KEY,
  payload TEXT NOT NULL,
  created_at REAL NOT NULL
);
