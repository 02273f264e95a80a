#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
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
# Then the network partitions (PostgreSQL mode, as root, with iptables and
# setpriv; without them they are skipped and the script says so loudly): each node and PostgreSQL have
# a loopback address of their own (nodes 127.0.0.11-13, PostgreSQL 127.0.0.20,
# HAProxy connects to the nodes from 127.0.0.30), and while another round of
# games runs, iptables DROPs the packets (so connections hang, as on a real
# network, instead of being refused) between one node and PostgreSQL for past
# its lease and again for less, then between HAProxy and one node, long and
# short; each time healed after. Checked: every game finishes and no
# acknowledged move is lost (casa_cluster_play); the node cut from PostgreSQL
# dropped its tables before the database expired their leases (its log's
# self-fence line against the rows' expires_at, one clock); nothing it logged
# after the heal on a table taken over meanwhile carries its lost epoch; the
# rows' epoch checks again over every row; and after each heal the cluster is
# whole (every node's /healthz 200 and heartbeat fresh). Every rule carries
# this run's comment and is removed on exit, failure included. Their time is
# printed (a budget of a few minutes); CASA_CLUSTER_PARTITIONS=0 leaves them out.
#
# How a node gets its own address: it listens on it (--address); libpq cannot
# choose a source address, so each node runs under a uid of its own (setpriv)
# and an iptables SNAT rule gives its connections to PostgreSQL the node's
# address (PostgreSQL sees 127.0.0.11-13 in pg_stat_activity). A cut drops the
# node's packets to PostgreSQL by that uid (filter OUTPUT sees them before
# SNAT) and PostgreSQL's packets to the node's address. HAProxy is given its
# source address by its `source` setting.
#
# A casa-server built without PostgreSQL (--db takes only a SQLite path) runs
# the same faults against ONE node on SQLite behind the same HAProxy, each
# fault followed by a restart of that node; there is no lease to fence then.
# The mode is printed.
#
#   scripts/test-cluster.sh            (builds what it needs in build/)
# CASA_CLUSTER_GAMES (default 200, and as many again during the partitions),
# CASA_CLUSTER_PARALLEL (default 16).
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
# Every iptables rule of this run carries this comment; rules_clear removes them.
tag="casa-cluster-$$"
# The partitions need root, iptables and setpriv (scripts/deps.sh cluster);
# CASA_CLUSTER_PARTITIONS=0 leaves them out.
partitions=0
why_not=""
if [ "${CASA_CLUSTER_PARTITIONS:-1}" = 0 ]; then
  why_not="CASA_CLUSTER_PARTITIONS=0"
elif [ "$(id -u)" -ne 0 ]; then
  why_not="not root"
elif ! command -v iptables >/dev/null || ! command -v setpriv >/dev/null; then
  why_not="no iptables or setpriv (scripts/deps.sh cluster)"
elif ! iptables -S OUTPUT >/dev/null 2>&1; then
  why_not="iptables cannot read its rules here (no netfilter, or no CAP_NET_ADMIN)"
else
  partitions=1
fi
rule() {  # table -A|-I|-D chain match... -j target...
  local table=$1 op=$2 chain=$3
  shift 3
  iptables -w -t "$table" "$op" "$chain" -m comment --comment "$tag" "$@"
}
rules_clear() {
  [ "$partitions" = 1 ] || return 0
  local t line
  for t in filter nat; do
    { iptables -w -t "$t" -S 2>/dev/null || true; } | { grep -F -- "--comment $tag " || true; } | while read -r line; do
      read -ra args <<<"${line/#-A /-D }"
      iptables -w -t "$t" "${args[@]}" || true
    done
  done
}
cleanup() {
  local rc=$?
  rules_clear
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

free_port() {  # [address]
  python3 -c 'import socket, sys; s=socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' \
    "${1:-127.0.0.1}"
}
# Each node's own loopback address and uid (the uid only to give its database
# connections that address, see above), PostgreSQL's, and HAProxy's towards the nodes.
node_ip=(127.0.0.11 127.0.0.12 127.0.0.13)
node_uid=(47011 47012 47013)
pg_ip=127.0.0.20
proxy_ip=127.0.0.30

# Not grep -q: it stops reading at the first match, and pipefail would see the
# server die of SIGPIPE.
if "$server" --help | grep -i postgres >/dev/null; then mode=postgres; else mode=sqlite; fi
say "mode: $mode"
[ "$mode" = postgres ] || partitions=0  # one node on SQLite: no lease, nothing to cut

# ---- PostgreSQL (only with a server that speaks it) ----
db_for() { echo "$area/casa.db"; }
if [ "$mode" = postgres ]; then
  pg_dir="$area/pg"
  CASA_PG_ADDRESS=$pg_ip scripts/pg-test-cluster.sh start "$pg_dir" >/dev/null
  db_url=$(cat "$pg_dir/url")
  pg_port=${db_url##*:}
  pg_port=${pg_port%%/*}
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
# The partitions: past the lease and its takeover, and well inside it.
long_cut=10
short_cut=1.5
ports=()
node_pid=()
start_node() {  # index
  local i=$1
  local cluster_flags=() as_node=()
  [ "$mode" = postgres ] && cluster_flags=(--node-id "node$i" --lease-seconds "$lease")
  [ "$partitions" = 1 ] && as_node=(setpriv --reuid="${node_uid[$i]}" --regid="${node_uid[$i]}" --clear-groups)
  "${as_node[@]}" "$server" --address "${node_ip[$i]}" --port "${ports[$i]}" --db "$(db_for)" "${cluster_flags[@]}" \
    --web-dir off --log-level warn \
    --trusted-proxies "$proxy_ip" --rate-per-second 1000 --rate-burst 1000 --max-connections-per-address 100000 \
    --players-per-address-per-hour 1000000 \
    --drain-seconds 10 --durability normal >>"$area/node$i.log" 2>&1 &
  node_pid[$i]=$!
  pids+=("$!")
  for _ in $(seq 100); do
    curl -fsS "http://${node_ip[$i]}:${ports[$i]}/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "node $i did not start (log: $area/node$i.log)"
}
if [ "$mode" = postgres ] && [ "$partitions" = 1 ]; then
  # Each node's connections to PostgreSQL leave from the node's own address.
  for i in 0 1 2; do
    rule nat -A POSTROUTING -o lo -m owner --uid-owner "${node_uid[$i]}" -d "$pg_ip" -p tcp --dport "$pg_port" \
      -j SNAT --to-source "${node_ip[$i]}"
  done
fi
for i in $(seq 0 $((nodes - 1))); do ports[$i]=$(free_port "${node_ip[$i]}"); start_node "$i"; done
say "nodes on $(for i in $(seq 0 $((nodes - 1))); do printf '%s:%s ' "${node_ip[$i]}" "${ports[$i]}"; done)"

# ---- HAProxy ----
proxy_port=$(free_port)
node_addr() { if [ "$1" -lt "$nodes" ]; then echo "${node_ip[$1]}:${ports[$1]}"; else echo "127.0.0.1:1"; fi; }
# docker/haproxy.cfg as is, but for the address it connects to the nodes from.
sed "s/^\( *default-server \)/\1source $proxy_ip /" docker/haproxy.cfg >"$area/haproxy.cfg"
grep -q "source $proxy_ip" "$area/haproxy.cfg" || fail "docker/haproxy.cfg has no default-server line"
CASA_LISTEN="127.0.0.1:$proxy_port" CASA_NODE1=$(node_addr 0) CASA_NODE2=$(node_addr 1) CASA_NODE3=$(node_addr 2) \
  haproxy -db -f "$area/haproxy.cfg" >"$area/haproxy.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$proxy_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
say "HAProxy on 127.0.0.1:$proxy_port"

# ---- the checks, as functions (each phase runs them) ----
# The node running the most unfinished games (the fault must catch some), or $1.
busiest_node() {
  local b
  b=$(sql "SELECT substr(l.node_id, 5) FROM table_leases l JOIN tables t ON t.id = l.table_id
           WHERE t.status IN ('waiting', 'playing') AND l.expires_at > clock_timestamp()
           GROUP BY l.node_id ORDER BY count(*) DESC LIMIT 1")
  echo "${b:-$1}"
}
metric() {  # node name: the value of an unlabelled metric of that node
  curl -fsS "http://${node_ip[$1]}:${ports[$1]}/metrics" | awk -v m="$2" '$1 == m { print $2 }'
}
wait_driver() {  # pid name: the games' own checks
  local rc=0
  wait "$1" || rc=$?
  cat "$area/$2.json"
  head -20 "$area/${2/result/driver}.err" >&2 || true
  [ "$rc" = 0 ] || fail "the games did not all pass their checks (driver exit $rc, $area/${2/result/driver}.err)"
}
# The cluster whole: every node answers /healthz 200 and beats in `nodes`.
wait_whole() {
  local i ok
  for _ in $(seq 150); do
    ok=1
    for i in $(seq 0 $((nodes - 1))); do
      curl -fsS "http://${node_ip[$i]}:${ports[$i]}/healthz" >/dev/null 2>&1 || ok=0
    done
    [ "$ok" = 1 ] && [ "$(sql "SELECT count(*) FROM nodes WHERE seen_at > clock_timestamp() - interval '$lease seconds'")" = "$nodes" ] &&
      return 0
    sleep 0.2
  done
  fail "the cluster is not whole again after 30 s"
}
# A node cut from PostgreSQL (-I) or healed (-D): its packets to PostgreSQL (by
# its uid: filter OUTPUT sees them before SNAT gives them its address) and
# PostgreSQL's packets to its address are dropped, not refused.
cut_pg() {  # node -I|-D
  rule filter "$2" OUTPUT -m owner --uid-owner "${node_uid[$1]}" -d "$pg_ip" -p tcp --dport "$pg_port" -j DROP
  rule filter "$2" OUTPUT -s "$pg_ip" -p tcp --sport "$pg_port" -d "${node_ip[$1]}" -j DROP
}
cut_proxy() {  # node -I|-D: HAProxy's packets to the node and back
  rule filter "$2" OUTPUT -s "$proxy_ip" -d "${node_ip[$1]}" -p tcp --dport "${ports[$1]}" -j DROP
  rule filter "$2" OUTPUT -s "${node_ip[$1]}" -p tcp --sport "${ports[$1]}" -d "$proxy_ip" -j DROP
}
# Every action of a node in cluster mode names its writer; along seq, an epoch
# never goes down; each epoch is one node's.
check_rows() {
  local tables rows unnamed down shared
  read -r tables rows unnamed <<<"$(sql "SELECT count(DISTINCT table_id), count(*),
      count(*) FILTER (WHERE node_id IS NULL OR lease_epoch IS NULL) FROM actions" | tr '|' ' ')"
  [ "$unnamed" = 0 ] || fail "fencing: $unnamed action rows name no writer"
  down=$(sql "SELECT count(*) FROM (SELECT lease_epoch, lag(lease_epoch) OVER (PARTITION BY table_id ORDER BY seq)
              AS before FROM actions) r WHERE lease_epoch < before")
  [ "$down" = 0 ] || fail "fencing: $down action rows carry an epoch older than the row before them:
$(sql "SELECT table_id, seq, node_id, lease_epoch FROM (SELECT *, lag(lease_epoch) OVER (PARTITION BY table_id
       ORDER BY seq) AS before FROM actions) r WHERE lease_epoch < before LIMIT 10")"
  shared=$(sql "SELECT count(*) FROM (SELECT 1 FROM actions GROUP BY table_id, lease_epoch
                HAVING count(DISTINCT node_id) > 1) e")
  [ "$shared" = 0 ] || fail "fencing: $shared epochs of a table were written by two nodes"
  say "fencing: $rows actions of $tables tables checked: epochs never go down along seq, each is one node's"
}
# A node about to be stopped or cut off: the tables it holds, with their
# epochs, and whether their games were still on.
fence_snapshot() {  # name node
  sql "SET client_min_messages = warning; CREATE SCHEMA IF NOT EXISTS fence_check;
       CREATE TABLE fence_check.$1 AS SELECT l.table_id, l.epoch, t.status IN ('waiting', 'playing') AS live
       FROM table_leases l JOIN tables t ON t.id = l.table_id WHERE l.node_id = 'node$2'"
}
# Just before it runs again (or is healed): who holds each of them now (no
# row: taken over, finished and forgotten), and the last seq logged so far.
fence_resumed() {  # name
  sql "CREATE TABLE fence_check.${1}_after AS
       SELECT p.table_id, p.epoch AS paused_epoch, p.live, l.node_id, l.epoch,
              (SELECT COALESCE(max(seq), 0) FROM actions a WHERE a.table_id = p.table_id) AS seq
       FROM fence_check.$1 p LEFT JOIN table_leases l USING (table_id)"
}
# The tables taken over while the node was away: nothing it logged after it
# came back may carry the epoch it held (or an older one). A table still under
# its epoch then (a commit of it in flight keeps the claims off the row) is not
# counted as taken over.
fence_verify() {  # name node log-lines-before what back
  local r="fence_check.${1}_after" held taken after stale woke refused fenced
  read -r held taken after stale <<<"$(sql "SELECT
      (SELECT count(*) FROM $r WHERE live),
      (SELECT count(*) FROM $r WHERE live AND (node_id IS NULL OR epoch > paused_epoch)),
      (SELECT count(*) FROM actions a JOIN $r r USING (table_id)
        WHERE (r.node_id IS NULL OR r.epoch > r.paused_epoch) AND a.seq > r.seq),
      (SELECT count(*) FROM actions a JOIN $r r USING (table_id)
        WHERE (r.node_id IS NULL OR r.epoch > r.paused_epoch) AND a.seq > r.seq
          AND a.lease_epoch <= r.paused_epoch)" | tr '|' ' ')"
  [ "$stale" = 0 ] || fail "fencing: node $2 wrote $stale actions after $5 under the epoch it had lost:
$(sql "SELECT a.table_id, a.seq, a.node_id, a.lease_epoch, r.epoch AS epoch_after FROM actions a
       JOIN $r r USING (table_id) WHERE (r.node_id IS NULL OR r.epoch > r.paused_epoch)
       AND a.seq > r.seq AND a.lease_epoch <= r.paused_epoch ORDER BY 1, 2 LIMIT 10")"
  woke=$(tail -n +"$(($3 + 1))" "$area/node$2.log")
  refused=$(grep -c 'a write was refused' <<<"$woke" || true)
  fenced=$(grep 'a write was refused' <<<"$woke" | grep -c 'lease lost\|is not run by node' || true)
  say "fencing: node $2 ran $held unfinished games when $4, $taken taken over before $5; of the" \
    "$after actions logged on those after $5 none is its own under its lost epoch;" \
    "$refused of its writes were refused then, $fenced of them by its fence"
  # No action after it came back is fine (the games went on and ended
  # meanwhile): it wrote none either. No game taken over is not.
  [ "$taken" -gt 0 ] || fail "fencing: no game node $2 ran $4 went on elsewhere"
}
# Locks: the lease round and the group commits must never deadlock.
check_deadlocks() {
  local deadlocks
  deadlocks=$(grep -c 'deadlock detected' "$(cat "$pg_dir/log")" || true)
  [ "$deadlocks" = 0 ] || fail "PostgreSQL detected $deadlocks deadlocks:
$(grep -A3 'deadlock detected' "$(cat "$pg_dir/log")" | head -20)"
  say "locks: no deadlock in the PostgreSQL log"
}

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
[ "$mode" = postgres ] && p=$(busiest_node "$p")
say "SIGSTOP node $p for $pause s (past its $lease s lease)"
kill -STOP "${node_pid[$p]}"
[ "$mode" = postgres ] && fence_snapshot paused "$p"
sleep "$pause"
paused_log_lines=$(wc -l <"$area/node$p.log")
[ "$mode" = postgres ] && fence_resumed paused
kill -CONT "${node_pid[$p]}"
say "SIGCONT node $p"

wait_driver "$driver_pid" result

# ---- the fencing, from the rows ----
if [ "$mode" = postgres ]; then
  check_rows
  fence_verify paused "$p" "$paused_log_lines" "at SIGSTOP" "SIGCONT"
  check_deadlocks
else
  say "fencing: one node on SQLite has no lease"
fi

# ---- network partitions ----
if [ "$mode" = postgres ] && [ "$partitions" = 0 ]; then
  say "************************************************************************"
  say "partitions: SKIPPED ($why_not): they need root, iptables and setpriv"
  say "************************************************************************"
fi
if [ "$mode" = postgres ] && [ "$partitions" = 1 ]; then
  t_partitions=$(date +%s)
  wait_whole
  "$driver" --port "$proxy_port" --games "$games" --parallel "$parallel" --game casino --players 2 \
    --minutes 3 --acked "$area/acked-partitions.jsonl" >"$area/result-partitions.json" 2>"$area/driver-partitions.err" &
  driver_pid=$!
  pids+=("$driver_pid")
  say "partitions: $games more games"
  sleep 5

  # 1. The busiest node cut from PostgreSQL for past its lease.
  c=$(busiest_node 0)
  fence_snapshot cut "$c"
  owned=$(metric "$c" casa_cluster_tables_owned)
  cut_log_lines=$(wc -l <"$area/node$c.log")
  cut_pg "$c" -I
  t_cut=$(date +%s.%N)
  # The last renewal that reached the database (none can now): when the
  # database expires this node's leases.
  expiry=$(sql "SELECT extract(epoch FROM min(expires_at)) FROM table_leases WHERE node_id = 'node$c'")
  say "partitions: node $c (running $owned tables) cut from PostgreSQL for $long_cut s (lease $lease s)"
  sleep "$long_cut"
  fence_resumed cut
  cut_metrics=$(curl -fsS "http://${node_ip[$c]}:${ports[$c]}/metrics")
  health=$(curl -sS -o /dev/null -w '%{http_code}' "http://${node_ip[$c]}:${ports[$c]}/healthz")
  cut_pg "$c" -D
  say "partitions: node $c healed"
  [ -n "$expiry" ] || fail "partitions: node $c held no lease when cut"
  # When the node dropped its tables: its self-fence line (spdlog's local
  # time, the clock the database's timestamps are read in here).
  line=$(tail -n +"$((cut_log_lines + 1))" "$area/node$c.log" | grep -m1 'no lease renewed' || true)
  [ -n "$line" ] || fail "partitions: node $c never dropped its tables while cut off (log: $area/node$c.log)"
  t_fence=$(date -d "$(sed 's/^\[\([^]]*\)\].*/\1/' <<<"$line")" +%s.%N)
  awk -v f="$t_fence" -v e="$expiry" 'BEGIN { exit !(f <= e) }' ||
    fail "partitions: node $c dropped its tables at $t_fence, after the database expired its leases ($expiry)"
  grep -q '^casa_cluster_tables_owned 0$' <<<"$cut_metrics" ||
    fail "partitions: node $c still ran tables after its lease, cut off: $(grep tables_owned <<<"$cut_metrics")"
  grep -q '^casa_cluster_cut_off 1$' <<<"$cut_metrics" || fail "partitions: node $c did not say it was cut off"
  [ "$health" = 503 ] || fail "partitions: node $c, cut off, answered /healthz $health"
  say "partitions: node $c dropped its $owned tables $(awk -v f="$t_fence" -v c="$t_cut" 'BEGIN { printf "%.2f", f - c }') s" \
    "after the cut, $(awk -v f="$t_fence" -v e="$expiry" 'BEGIN { printf "%.2f", e - f }') s before the database" \
    "expired its leases; /healthz answered 503 (cut_off)"
  wait_whole

  # 2. The same for less than the lease: its leases survive, or are lost and
  # taken over, never written by two nodes (the row checks below).
  c2=$(busiest_node 1)
  cut_pg "$c2" -I
  say "partitions: node $c2 cut from PostgreSQL for $short_cut s"
  sleep "$short_cut"
  cut_pg "$c2" -D
  say "partitions: node $c2 healed"
  wait_whole

  # 3. HAProxy cut from a node, past its health checks and for less: the
  # clients there are cut by HAProxy and resume elsewhere; the node keeps its
  # tables and serves them to clients of the other nodes.
  h=$(( (c + 1) % nodes ))
  cut_proxy "$h" -I
  say "partitions: HAProxy cut from node $h for $long_cut s"
  sleep "$long_cut"
  cut_proxy "$h" -D
  say "partitions: HAProxy and node $h healed"
  wait_whole
  h2=$(( (c + 2) % nodes ))
  cut_proxy "$h2" -I
  say "partitions: HAProxy cut from node $h2 for $short_cut s"
  sleep "$short_cut"
  cut_proxy "$h2" -D
  say "partitions: HAProxy and node $h2 healed"
  wait_whole

  wait_driver "$driver_pid" result-partitions
  check_rows
  fence_verify cut "$c" "$cut_log_lines" "when cut from PostgreSQL" "the heal"
  check_deadlocks
  say "partitions: the cluster is whole again: every node's /healthz 200, every heartbeat fresh"
  say "partitions: passed in $(( $(date +%s) - t_partitions )) s"
fi
say "every check passed ($mode)"
