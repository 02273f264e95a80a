#!/bin/sh
# SPDX-License-Identifier: AGPL-3.0-or-later
# Creates the cluster on first start (user casa, password $CASA_PG_PASSWORD,
# database casa; only password logins from the network), then runs PostgreSQL
# in the foreground. synchronous_commit stays on: a move is on disk before
# any node acknowledges it.
set -eu
data=/var/lib/casa-pg/data
bin=/usr/lib/postgresql/15/bin
if [ ! -s "$data/PG_VERSION" ]; then
  pw=$(mktemp)
  printf '%s\n' "${CASA_PG_PASSWORD:?set CASA_PG_PASSWORD}" >"$pw"
  "$bin/initdb" -D "$data" -U casa --pwfile="$pw" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$data/pg_hba.conf"
  "$bin/pg_ctl" -D "$data" -o "-c listen_addresses=''" -w start >/dev/null
  "$bin/createdb" -U casa casa
  "$bin/pg_ctl" -D "$data" -w stop >/dev/null
fi
exec "$bin/postgres" -D "$data" -c listen_addresses='*' -c max_connections=200
