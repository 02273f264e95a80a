#!/bin/sh
# A throwaway PostgreSQL for the cluster tests: `start DIR` initialises a
# cluster in DIR, listens on a free loopback port only (and a socket in DIR),
# creates the database `casa` and writes its URI to DIR/conninfo; `stop DIR`
# stops it and removes DIR. As root (CI) the server runs as the `postgres` user,
# since PostgreSQL refuses to run as root.
set -eu
cmd=$1
dir=$2
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bindir" ] || bindir=$(dirname "$(command -v initdb)")
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case $cmd in
  start)
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_pg "$bindir/initdb" -D "$dir/data" -U casa -A trust --no-sync >"$dir/initdb.log" 2>&1
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" start >/dev/null
    as_pg "$bindir/createdb" -h 127.0.0.1 -p "$port" -U casa casa
    echo "postgresql://casa@127.0.0.1:$port/casa" >"$dir/conninfo"
    ;;
  stop)
    [ -d "$dir/data" ] && as_pg "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
esac
