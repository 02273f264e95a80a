#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# A throwaway PostgreSQL server for the tests: initdb into a temporary directory,
# listening on a free loopback port only, run by the `postgres` user when
# started as root (the server refuses to run as root).
#   scripts/pg-test-cluster.sh start DIR   starts it; writes DIR/url (a postgres://
#                                          URL of database casa_test), DIR/ctl and
#                                          DIR/log (the path of the server's log)
#   scripts/pg-test-cluster.sh stop DIR    stops it and removes its files
#   DIR/ctl stop | start                   stops the server / starts it again on the
#                                          same port, data kept (the fault tests)
# CASA_PG_ADDRESS: the loopback address it listens on (default 127.0.0.1;
# scripts/test-cluster.sh gives it one of its own, to cut it off by address).
# Needs Debian's postgresql package: scripts/deps.sh postgres.
set -euo pipefail
cmd=${1:?start or stop}
address=${CASA_PG_ADDRESS:-127.0.0.1}
dir=${2:?directory}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "pg-test-cluster: no PostgreSQL server installed (scripts/deps.sh postgres)" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    if [ -f "$dir/datadir" ]; then "$0" stop "$dir"; fi
    data=$(mktemp -d /tmp/casa-pg-XXXXXX)
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$data"
    chmod 700 "$data"
    echo "$data" >"$dir/datadir"
    as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-sync --no-instructions >"$dir/initdb.log"
    # Clients from any loopback address (the cluster test gives each node its own).
    echo "host all all 127.0.0.0/8 trust" >>"$data/pg_hba.conf"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("'"$address"'", 0)); print(s.getsockname()[1])')
    # Loopback only; the socket lives in the data directory. fsync stays on:
    # the tests run the store as operators must (docs/server.md).
    cat >"$dir/ctl" <<EOF
#!/usr/bin/env bash
# Stops or starts the test PostgreSQL server (scripts/pg-test-cluster.sh).
set -euo pipefail
run() { if [ "\$(id -u)" -eq 0 ]; then runuser -u postgres -- "\$@"; else "\$@"; fi; }
case "\$1" in
  stop) run "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null ;;
  start) run "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 30 \\
    -o "-c listen_addresses=$address -p $port -k $data -c max_connections=200" start >/dev/null ;;
  *) echo "usage: \$0 stop|start" >&2; exit 2 ;;
esac
EOF
    chmod +x "$dir/ctl"
    "$dir/ctl" start
    as_owner "$bin/psql" -h "$address" -p "$port" -U postgres -q -c "CREATE DATABASE casa_test" postgres
    echo "postgres://postgres@$address:$port/casa_test" >"$dir/url"
    echo "$data/server.log" >"$dir/log"
    echo "PostgreSQL for the tests: $(cat "$dir/url")"
    ;;
  stop)
    [ -f "$dir/datadir" ] || exit 0
    data=$(cat "$dir/datadir")
    if [ -f "$data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null || true
    fi
    rm -rf "$data"
    rm -f "$dir/datadir" "$dir/url" "$dir/ctl" "$dir/log"
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
