#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Past one machine, measured on this one (BENCHMARKS.md, "Several nodes"):
#
#   bench/cluster.sh                 RUNS (3) DURATION (10) TABLES (100) GAME (casino) PLAYERS (2)
#
# For each arrangement, RUNS saturation runs of casa-loadgen (closed loop: every
# player answers at once) printing moves/s and the p99 move -> acknowledgement
# latency (the acknowledgement and the move's events leave in the same write):
#   sqlite1          one node on SQLite (durability full), direct
#   sqlite1-haproxy  the same node through HAProxy: what the proxy costs
#   pg1              one node on PostgreSQL (synchronous_commit on), direct
#   pg2-haproxy      two nodes on that PostgreSQL behind HAProxy
# then min / median / max per arrangement and the ratio of each median to
# sqlite1's median of the same invocation. The PostgreSQL arrangements need a
# casa-server built with PostgreSQL (--db postgres://...); without it they print
# "skipped". Then the ceilings of the design, on this disk:
#   pgbench commits/s (synchronous_commit=on; 1 and 8 clients, one-row updates)
#   NOTIFY commits/s (pgbench with a script of one pg_notify of a 200-byte payload)
# Everything listens on 127.0.0.1; PostgreSQL is the tests' throwaway server
# (scripts/pg-test-cluster.sh: a temporary directory, a free port, run as a
# non-root user, fsync and synchronous_commit on). JSON lines go to stdout and
# $OUT (default build/cluster-bench/).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD:-build}"
server="$build/server/casa-server"
loadgen="$build/bench/casa-loadgen"
runs="${RUNS:-3}"
duration="${DURATION:-10}"
tables="${TABLES:-100}"
game="${GAME:-casino}"
players="${PLAYERS:-2}"
out="${OUT:-$build/cluster-bench}"
mkdir -p "$out"
scripts/deps.sh cluster >/dev/null
[ -x "$server" ] && [ -x "$loadgen" ] || cmake --build "$build" --target casa-server casa-loadgen >/dev/null

area=$(mktemp -d /tmp/casa-bench-cluster.XXXXXX)
chmod 755 "$area"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  scripts/pg-test-cluster.sh stop "$area/pg" >/dev/null 2>&1 || true
  wait 2>/dev/null || true
  rm -rf "$area"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
flags=(--address 127.0.0.1 --web-dir off --log-level warn --rate-per-second 1000000 --rate-burst 1000000
  --max-connections-per-address 100000 --max-tables-per-player 100000 --max-write-queue 100000
  --players-per-address-per-hour 1000000 --trusted-proxies 127.0.0.1)

node_pids=()
start_node() {  # port db
  "$server" "${flags[@]}" --port "$1" --db "$2" >>"$area/node-$1.log" 2>&1 &
  node_pids+=("$!"); pids+=("$!")
  for _ in $(seq 500); do curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0; sleep 0.02; done
  echo "node on $1 did not start" >&2; return 1
}
stop_nodes() { for pid in "${node_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; node_pids=(); }
proxy_pid=""
start_proxy() {  # listen-port node-port...
  local listen=$1; shift
  local a=("${@}" 1 1 1)
  CASA_LISTEN="127.0.0.1:$listen" CASA_NODE1="127.0.0.1:${a[0]}" CASA_NODE2="127.0.0.1:${a[1]}" \
    CASA_NODE3="127.0.0.1:${a[2]}" haproxy -db -f docker/haproxy.cfg >"$area/haproxy.log" 2>&1 &
  proxy_pid=$!; pids+=("$!")
  for _ in $(seq 500); do curl -fsS "http://127.0.0.1:$listen/healthz" >/dev/null 2>&1 && break; sleep 0.02; done
  sleep 2.5  # both checks up (rise 2, inter 1s), so leastconn spreads over every node
}
stop_proxy() { [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null; wait "$proxy_pid" 2>/dev/null || true; proxy_pid=""; }

gen() {  # arrangement run port
  "$loadgen" --quiet --url "ws://127.0.0.1:$3/ws" --game "$game" --players-per-table "$players" \
    --tables "$tables" --duration "$duration" --warmup 2 |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print(json.dumps({"arrangement":sys.argv[1],"run":int(sys.argv[2]),
      "moves_per_s":round(r["moves_per_s"]),"p99_us":round(r["latency_us"]["p99"]),"p50_us":round(r["latency_us"]["p50"]),
      "errors":r["errors"],"disconnects":r["disconnects"]}))' "$1" "$2" | tee -a "$out/runs.jsonl"
}

has_pg=0
"$server" --help | grep -qi postgres && has_pg=1
scripts/pg-test-cluster.sh start "$area/pg" >/dev/null
pg_base=$(sed 's|/[^/]*$||' "$area/pg/url")  # postgres://user@host:port
pg_url() { echo "$pg_base/$1"; }
psql_do() { psql "$(pg_url postgres)" -Atqc "$1"; }

: >"$out/runs.jsonl"
for run in $(seq "$runs"); do
  p1=$(free_port); px=$(free_port)
  rm -f "$area"/s.db*
  start_node "$p1" "$area/s.db"
  gen sqlite1 "$run" "$p1"
  start_proxy "$px" "$p1"
  gen sqlite1-haproxy "$run" "$px"
  stop_proxy; stop_nodes
  if [ "$has_pg" = 1 ]; then
    psql_do "DROP DATABASE IF EXISTS b$run" && psql_do "CREATE DATABASE b$run"
    start_node "$p1" "$(pg_url "b$run")"
    gen pg1 "$run" "$p1"
    stop_nodes
    psql_do "DROP DATABASE b$run" && psql_do "CREATE DATABASE b$run"
    p2=$(free_port)
    start_node "$p1" "$(pg_url "b$run")"
    start_node "$p2" "$(pg_url "b$run")"
    start_proxy "$px" "$p1" "$p2"
    gen pg2-haproxy "$run" "$px"
    stop_proxy; stop_nodes
  else
    for a in pg1 pg2-haproxy; do echo "{\"arrangement\":\"$a\",\"run\":$run,\"skipped\":\"casa-server has no PostgreSQL store\"}"; done
  fi
done

# min / median / max, and each median over sqlite1's.
python3 - "$out/runs.jsonl" <<'EOF' | tee "$out/summary.jsonl"
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in runs:
    by.setdefault(r["arrangement"], []).append(r)
base = statistics.median(r["moves_per_s"] for r in by["sqlite1"])
base_p99 = statistics.median(r["p99_us"] for r in by["sqlite1"])
for name, rs in by.items():
    m = [r["moves_per_s"] for r in rs]; p = [r["p99_us"] for r in rs]
    print(json.dumps({"arrangement": name, "runs": len(rs),
                      "moves_per_s": {"min": min(m), "median": statistics.median(m), "max": max(m)},
                      "p99_us": {"min": min(p), "median": statistics.median(p), "max": max(p)},
                      "moves_ratio_to_sqlite1": round(statistics.median(m) / base, 2),
                      "p99_ratio_to_sqlite1": round(statistics.median(p) / base_p99, 2)}))
EOF

# ---- the database's ceilings ----
psql_do "CREATE DATABASE pgb" >/dev/null
pgb() { pgbench "$@" 2>&1; }
pgb -i -q -s 1 "$(pg_url pgb)" >/dev/null
for c in 1 8; do
  tps=$(pgb -n -N -c "$c" -j "$(( c < 2 ? 1 : 2 ))" -T "$duration" "$(pg_url pgb)" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
  echo "{\"measure\":\"pgbench commits/s\",\"synchronous_commit\":\"on\",\"clients\":$c,\"tps\":$tps}" | tee -a "$out/summary.jsonl"
done
echo "SELECT pg_notify('casa', repeat('x', 200));" >"$area/notify.sql"
for c in 1 8; do
  tps=$(pgb -n -f "$area/notify.sql" -c "$c" -j "$(( c < 2 ? 1 : 2 ))" -T "$duration" "$(pg_url pgb)" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
  echo "{\"measure\":\"NOTIFY commits/s\",\"payload_bytes\":200,\"clients\":$c,\"tps\":$tps}" | tee -a "$out/summary.jsonl"
done
