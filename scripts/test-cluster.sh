#!/usr/bin/env bash
# The cluster proof, on loopback: PostgreSQL in a temporary directory (run as a
# non-root user), HAProxy (docker/haproxy.cfg) and three casa-server nodes;
# hundreds of games played by casa_cluster_play through HAProxy while one node
# is killed (kill -9), another drained (SIGTERM: it must exit 0) and a third
# paused past its lease (SIGSTOP, then SIGCONT). Then: every game finished,
# every move a client saw acknowledged is in the stored log at its seq, no seat
# or spectator received a hidden card (casa_cluster_play checks these three),
# and every stored log replays. Then, from the database's rows alone (every
# logged action names the node and the lease epoch it was written under,
# docs/cluster.md "Who wrote a row"): along each table's seq the epochs never go
# down and each epoch is one node's, and on every table the paused node held
# and lost while paused, no action logged after SIGCONT was written by it under
# its old epoch. The PostgreSQL log must show no deadlock. The counts covered
# are printed, and how many of the paused node's writes were refused, and by what.
#
# A casa-server built without PostgreSQL (--db takes only a SQLite path) runs
# the same faults against ONE node on SQLite behind the same HAProxy, each
# fault followed by a restart of that node; there is no lease to fence then.
# The mode is printed.
#
#   scripts/test-cluster.sh            (builds what it needs in build/)
# CASA_CLUSTER_GAMES (default 200), CASA_CLUSTER_PARALLEL (default 16).
# Prints its elapsed time; exits non-zero on failure; stops everything it
# started, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
say() { printf '== [cluster %4ds] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

scripts/deps.sh cluster >/dev/null
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target casa-server casa_cluster_play >/dev/null
server=build/server/casa-server
driver=build/tests/server/casa_cluster_play
games=${CASA_CLUSTER_GAMES:-200}
parallel=${CASA_CLUSTER_PARALLEL:-16}

area=$(mktemp -d /tmp/casa-cluster.XXXXXX)
chmod 755 "$area"
pids=()
pg_dir=""
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do
    kill -CONT "$pid" 2>/dev/null || true
    kill -KILL "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  if [ -n "$pg_dir" ]; then
    [ "$rc" -ne 0 ] && [ -f "$pg_dir/log" ] && cp "$(cat "$pg_dir/log")" "$area/postgres.log" 2>/dev/null
    scripts/pg-test-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true
  fi
  if [ "$rc" -ne 0 ]; then
    say "logs kept in $area"
  else
    rm -rf "$area"
  fi
  say "elapsed $(( $(date +%s) - t0 )) s"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

if "$server" --help | grep -qi postgres; then mode=postgres; else mode=sqlite; fi
say "mode: $mode"

# ---- PostgreSQL (only with a server that speaks it) ----
db_for() { echo "$area/casa.db"; }
if [ "$mode" = postgres ]; then
  pg_dir="$area/pg"
  scripts/pg-test-cluster.sh start "$pg_dir" >/dev/null
  db_url=$(cat "$pg_dir/url")
  db_for() { echo "$db_url"; }
  sql() { psql "$db_url" -v ON_ERROR_STOP=1 -Atqc "$1"; }
  say "PostgreSQL at $db_url"
fi

# ---- the nodes ----
nodes=3
[ "$mode" = sqlite ] && nodes=1
lease=4  # seconds: the pause below lasts well past it
# Past the lease and its takeover (at most lease + 1 s), yet shorter than the
# 15 s after which a client of the paused node gives up on its connection: the
# paused node wakes with its clients' moves for the tables it lost waiting on
# their sockets, and its fence must refuse them.
pause=9
ports=()
node_pid=()
start_node() {  # index
  local i=$1
  local cluster_flags=()
  [ "$mode" = postgres ] && cluster_flags=(--node-id "node$i" --lease-seconds "$lease")
  "$server" --address 127.0.0.1 --port "${ports[$i]}" --db "$(db_for)" "${cluster_flags[@]}" --web-dir off --log-level warn \
    --trusted-proxies 127.0.0.1 --rate-per-second 1000 --rate-burst 1000 --max-connections-per-address 100000 \
    --players-per-address-per-hour 1000000 \
    --drain-seconds 10 --durability normal >>"$area/node$i.log" 2>&1 &
  node_pid[$i]=$!
  pids+=("$!")
  for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:${ports[$i]}/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "node $i did not start (log: $area/node$i.log)"
}
for i in $(seq 0 $((nodes - 1))); do ports[$i]=$(free_port); start_node "$i"; done
say "nodes on ports ${ports[*]}"

# ---- HAProxy ----
proxy_port=$(free_port)
node_addr() { if [ "$1" -lt "$nodes" ]; then echo "127.0.0.1:${ports[$1]}"; else echo "127.0.0.1:1"; fi; }
CASA_LISTEN="127.0.0.1:$proxy_port" CASA_NODE1=$(node_addr 0) CASA_NODE2=$(node_addr 1) CASA_NODE3=$(node_addr 2) \
  haproxy -db -f docker/haproxy.cfg >"$area/haproxy.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$proxy_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
say "HAProxy on 127.0.0.1:$proxy_port"

# ---- the games, and the faults while they run ----
"$driver" --port "$proxy_port" --games "$games" --parallel "$parallel" --game casino --players 2 \
  --minutes 3 --acked "$area/acked.jsonl" >"$area/result.json" 2>"$area/driver.err" &
driver_pid=$!
pids+=("$driver_pid")

victim() { echo $(( $1 % nodes )); }  # with one node, every fault hits it
sleep 6
k=$(victim 0)
say "kill -9 node $k"
kill -KILL "${node_pid[$k]}"; wait "${node_pid[$k]}" 2>/dev/null || true
[ "$mode" = sqlite ] && start_node "$k"
sleep 6
d=$(victim 1)
say "SIGTERM node $d (drain)"
kill -TERM "${node_pid[$d]}"
drain_rc=0
wait "${node_pid[$d]}" || drain_rc=$?
[ "$drain_rc" = 0 ] || fail "the drained node exited with $drain_rc"
say "node $d drained and exited 0"
start_node "$d"
[ "$mode" = postgres ] && start_node "$k"  # the killed node comes back too
sleep 6
p=$(victim 2)
if [ "$mode" = postgres ]; then
  # The node running the most unfinished games: the pause must catch some.
  busiest=$(sql "SELECT substr(l.node_id, 5) FROM table_leases l JOIN tables t ON t.id = l.table_id
                 WHERE t.status IN ('waiting', 'playing') GROUP BY l.node_id ORDER BY count(*) DESC LIMIT 1")
  [ -n "$busiest" ] && p=$busiest
fi
say "SIGSTOP node $p for $pause s (past its $lease s lease)"
kill -STOP "${node_pid[$p]}"
if [ "$mode" = postgres ]; then
  # The tables the paused node holds, with their epochs, and whether their
  # games were still on.
  sql "CREATE SCHEMA fence_check;
       CREATE TABLE fence_check.paused AS SELECT l.table_id, l.epoch, t.status IN ('waiting', 'playing') AS live
       FROM table_leases l JOIN tables t ON t.id = l.table_id WHERE l.node_id = 'node$p'"
fi
sleep "$pause"
paused_log_lines=$(wc -l <"$area/node$p.log")
if [ "$mode" = postgres ]; then
  # Just before it runs again: who holds each of them now (no row: taken
  # over, finished and forgotten), and the last seq logged so far.
  sql "CREATE TABLE fence_check.resumed AS
       SELECT p.table_id, p.epoch AS paused_epoch, p.live, l.node_id, l.epoch,
              (SELECT COALESCE(max(seq), 0) FROM actions a WHERE a.table_id = p.table_id) AS seq
       FROM fence_check.paused p LEFT JOIN table_leases l USING (table_id)"
fi
kill -CONT "${node_pid[$p]}"
say "SIGCONT node $p"

driver_rc=0
wait "$driver_pid" || driver_rc=$?
cat "$area/result.json"
head -20 "$area/driver.err" >&2 || true
[ "$driver_rc" = 0 ] || fail "the games did not all pass their checks (driver exit $driver_rc)"

# ---- the fencing, from the rows ----
if [ "$mode" = postgres ]; then
  # Every action of a node in cluster mode names its writer.
  read -r tables rows unnamed <<<"$(sql "SELECT count(DISTINCT table_id), count(*),
      count(*) FILTER (WHERE node_id IS NULL OR lease_epoch IS NULL) FROM actions" | tr '|' ' ')"
  [ "$unnamed" = 0 ] || fail "fencing: $unnamed action rows name no writer"
  # Along seq, an epoch never goes down; each epoch is one node's.
  down=$(sql "SELECT count(*) FROM (SELECT lease_epoch, lag(lease_epoch) OVER (PARTITION BY table_id ORDER BY seq)
              AS before FROM actions) r WHERE lease_epoch < before")
  [ "$down" = 0 ] || fail "fencing: $down action rows carry an epoch older than the row before them:
$(sql "SELECT table_id, seq, node_id, lease_epoch FROM (SELECT *, lag(lease_epoch) OVER (PARTITION BY table_id
       ORDER BY seq) AS before FROM actions) r WHERE lease_epoch < before LIMIT 10")"
  shared=$(sql "SELECT count(*) FROM (SELECT 1 FROM actions GROUP BY table_id, lease_epoch
                HAVING count(DISTINCT node_id) > 1) e")
  [ "$shared" = 0 ] || fail "fencing: $shared epochs of a table were written by two nodes"
  # The paused node's tables taken over while it was stopped: nothing it
  # logged after SIGCONT may carry the epoch it held (or an older one). A
  # table still under its epoch at SIGCONT (a commit of it in flight at
  # SIGSTOP keeps the claims off the row) is not counted as taken over.
  read -r held taken after stale <<<"$(sql "SELECT
      (SELECT count(*) FROM fence_check.resumed WHERE live),
      (SELECT count(*) FROM fence_check.resumed WHERE live AND (node_id IS NULL OR epoch > paused_epoch)),
      (SELECT count(*) FROM actions a JOIN fence_check.resumed r USING (table_id)
        WHERE (r.node_id IS NULL OR r.epoch > r.paused_epoch) AND a.seq > r.seq),
      (SELECT count(*) FROM actions a JOIN fence_check.resumed r USING (table_id)
        WHERE (r.node_id IS NULL OR r.epoch > r.paused_epoch) AND a.seq > r.seq
          AND a.lease_epoch <= r.paused_epoch)" | tr '|' ' ')"
  [ "$stale" = 0 ] || fail "fencing: node $p wrote $stale actions after SIGCONT under the epoch it had lost:
$(sql "SELECT a.table_id, a.seq, a.node_id, a.lease_epoch, r.epoch AS epoch_at_sigcont FROM actions a
       JOIN fence_check.resumed r USING (table_id) WHERE (r.node_id IS NULL OR r.epoch > r.paused_epoch)
       AND a.seq > r.seq AND a.lease_epoch <= r.paused_epoch ORDER BY 1, 2 LIMIT 10")"
  woke_log=$(tail -n +"$((paused_log_lines + 1))" "$area/node$p.log")
  refused=$(grep -c 'a write was refused' <<<"$woke_log" || true)
  fenced=$(grep 'a write was refused' <<<"$woke_log" | grep -c 'lease lost\|is not run by node' || true)
  say "fencing: $rows actions of $tables tables checked: epochs never go down along seq, each is one node's"
  say "fencing: node $p ran $held unfinished games at SIGSTOP, $taken taken over before SIGCONT; of the" \
    "$after actions logged on those after SIGCONT none is its own under its lost epoch;" \
    "$refused of its writes were refused then, $fenced of them by its fence"
  # No action after SIGCONT is fine (the games went on and ended during the
  # pause): the paused node wrote none either. No game taken over is not.
  [ "$taken" -gt 0 ] || fail "fencing: the pause caught no game that went on elsewhere"
  # Locks: the lease round and the group commits must never deadlock.
  deadlocks=$(grep -c 'deadlock detected' "$(cat "$pg_dir/log")" || true)
  [ "$deadlocks" = 0 ] || fail "PostgreSQL detected $deadlocks deadlocks:
$(grep -A3 'deadlock detected' "$(cat "$pg_dir/log")" | head -20)"
  say "locks: no deadlock in the PostgreSQL log"
else
  say "fencing: one node on SQLite has no lease"
fi
say "every check passed ($mode)"
