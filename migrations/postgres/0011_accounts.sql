-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Accounts, sessions per device and device link codes (docs/accounts.md).
--
-- accounts: a player who claimed a handle. The player row stays the identity:
-- a guest is a player without an accounts row. handle_key (NFKC, case-folded)
-- and skeleton (its UTS #39 confusable skeleton) are unique, so neither the
-- same handle in another case nor a look-alike can be claimed twice.
-- password_hash: libsodium's crypto_pwhash_str (Argon2id), NULL when none.
-- sessions: one row per signed-in device; token_hash is the hex SHA-256 of the
-- session's token. Every player's one token so far becomes their first session
-- (players.token_hash stays as it is, nothing reads it any more).
-- device_codes: one-time link codes, stored as the hex SHA-256 of the code.
-- bans.name_skeleton: the banned player's display name as a skeleton, which no
-- new guest may take.

CREATE TABLE accounts (
  player_id      TEXT PRIMARY KEY REFERENCES players(id),
  handle         TEXT NOT NULL,
  handle_key     TEXT NOT NULL UNIQUE,
  skeleton       TEXT NOT NULL UNIQUE,
  password_hash  TEXT,
  is_bot         BIGINT NOT NULL DEFAULT 0,
  created_at     BIGINT NOT NULL
);

CREATE TABLE sessions (
  token_hash    TEXT PRIMARY KEY,
  player_id     TEXT NOT NULL REFERENCES players(id),
  label         TEXT NOT NULL,
  created_at    BIGINT NOT NULL,
  last_used_at  BIGINT NOT NULL
);
CREATE INDEX sessions_player ON sessions(player_id);

INSERT INTO sessions (token_hash, player_id, label, created_at, last_used_at)
  SELECT token_hash, id, 'first device', created_at, created_at FROM players;

CREATE TABLE device_codes (
  code_hash   TEXT PRIMARY KEY,
  player_id   TEXT NOT NULL REFERENCES players(id),
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL,
  used_at     BIGINT
);
CREATE INDEX device_codes_expiry ON device_codes(expires_at);

ALTER TABLE bans ADD COLUMN name_skeleton TEXT;
