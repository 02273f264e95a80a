-- SPDX-License-Identifier: AGPL-3.0-or-later
-- Passkeys (WebAuthn credentials) a player signs in with (docs/accounts.md#passkeys).
--
-- passkeys: one row a credential. credential_id: the authenticator's id for it,
-- base64url; public_key: its COSE_Key, base64url of the CBOR bytes, with its
-- COSE algorithm; sign_count: the last counter an accepted sign-in carried
-- (a sign-in whose counter does not go up is refused); label: the player's
-- name for it; times in unix seconds, last_used_at 0 until the first sign-in.
-- passkey_challenges: the challenges handed out and not yet used, kept as the
-- hex SHA-256 of their bytes. purpose 'register' (player_id: who registers)
-- or 'signin' (player_id empty). Used once: the row is deleted when read.

CREATE TABLE passkeys (
  credential_id  TEXT PRIMARY KEY,
  player_id      TEXT NOT NULL REFERENCES players(id),
  public_key     TEXT NOT NULL,
  algorithm      INTEGER NOT NULL,
  sign_count     INTEGER NOT NULL,
  label          TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  last_used_at   INTEGER NOT NULL
);
CREATE INDEX passkeys_player ON passkeys(player_id);

CREATE TABLE passkey_challenges (
  challenge_hash  TEXT PRIMARY KEY,
  purpose         TEXT NOT NULL,
  player_id       TEXT NOT NULL,
  expires_at      INTEGER NOT NULL
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges(expires_at);
