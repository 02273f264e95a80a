#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Move latency at a fixed offered load against the fan-out echo's, in rounds
# that alternate the echo and one or more server settings, so that each
# setting's p99 is compared with the echo's of the same minute.
#
#   bench/latency_rounds.sh
#
# Each round: the fan-out echo (casa-echo-server --fanout, one frame in, one
# 360-byte write to each of four connections) at RATE round trips/s over
# TABLES/2 connections, then the game server once per entry of ARMS at RATE
# moves/s with TABLES live tables (two per connection), DURATION s after 3 s of
# warm-up, a fresh database on the disk each time. The server runs on CPU 0
# (--threads 1), the generator on CPU 1. Per run, the generator's p50, p99 and
# p99.9 move -> event, the p99's ratio to the round's echo, the bytes the
# server had written to the disk at the end (/proc/PID/io, set-up included)
# and its checkpoints (count and seconds, on the store thread and in the
# background). Raw reports in OUT.
#
# Knobs: BUILD (build-release) SERVER ($BUILD/server/casa-server) ROUNDS (3)
# RATE (2600) TABLES (5000) DURATION (8) OUT (build/latency-rounds) and ARMS: a
# space-separated list of server settings, each a comma-separated list of extra
# flags ("default" for none), e.g.
#   ARMS="default --wal-checkpoint-pages,8000 --durability,normal"
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build="${BUILD:-build-release}"
server_bin="${SERVER:-$build/server/casa-server}"
echo_bin="$build/bench/casa-echo-server"
loadgen="$build/bench/casa-loadgen"
rounds="${ROUNDS:-3}"
rate="${RATE:-2600}"
tables="${TABLES:-5000}"
duration="${DURATION:-8}"
out="${OUT:-build/latency-rounds}"
read -r -a arms <<<"${ARMS:-default}"
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)"

echo_port=18341
server_port=18342
flags=(--address 127.0.0.1 --port "$server_port" --threads 1 --rate-per-second 1000000 --rate-burst 1000000
  --max-connections-per-address 100000 --max-tables-per-player 100000 --max-write-queue 100000
  --players-per-address-per-hour 1000000 --log-level warn --web-dir off)

pid=""
stop() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  pid=""
}
trap 'stop; rm -f "$out"/run.db*' EXIT
wait_up() {
  wait_healthz "$1" && return 0
  echo "nothing answers on port $1" >&2
  return 1
}

for r in $(seq 1 "$rounds"); do
  taskset -c 0 "$echo_bin" --port "$echo_port" --fanout >/dev/null 2>&1 &
  pid=$!
  wait_up "$echo_port"
  taskset -c 1 "$loadgen" --quiet --echo --fanout 4 --message-size 360 --url "ws://127.0.0.1:$echo_port/ws" \
    --tables "$((tables / 2))" --rate "$rate" --duration "$duration" --warmup 3 --server-pid "$pid" >"$out/echo-$r.json"
  stop
  for i in "${!arms[@]}"; do
    extra=()
    [ "${arms[$i]}" != default ] && IFS=, read -r -a extra <<<"${arms[$i]}"
    rm -f "$out"/run.db*
    taskset -c 0 "$server_bin" "${flags[@]}" "${extra[@]}" --db "$out/run.db" >"$out/server-$i-$r.log" 2>&1 &
    pid=$!
    wait_up "$server_port"
    taskset -c 1 "$loadgen" --quiet --url "ws://127.0.0.1:$server_port/ws" --game la-casa --options '{}' \
      --tables "$tables" --tables-per-player 2 --rate "$rate" --duration "$duration" --warmup 3 --metrics \
      --server-pid "$pid" >"$out/server-$i-$r.json"
    awk '/^write_bytes/ {print $2}' "/proc/$pid/io" >"$out/disk-$i-$r.txt"
    curl -s "http://127.0.0.1:$server_port/metrics" |
      grep -E '^casa_store_checkpoint(_background)?_seconds_(count|sum)' >"$out/checkpoints-$i-$r.txt" || true
    stop
  done
  python3 - "$out" "$r" "${arms[@]}" <<'PY'
import json, sys
out, r, arms = sys.argv[1], sys.argv[2], sys.argv[3:]
def lat(path):
    l = json.load(open(path))["latency_us"]
    return l["p50"] / 1000, l["p99"] / 1000, l["p99.9"] / 1000
e = lat(f"{out}/echo-{r}.json")
print(json.dumps({"round": int(r), "arm": "fan-out echo", "p50_ms": round(e[0], 2), "p99_ms": round(e[1], 2),
                  "p999_ms": round(e[2], 2)}))
for i, arm in enumerate(arms):
    s = lat(f"{out}/server-{i}-{r}.json")
    ck = {}
    for line in open(f"{out}/checkpoints-{i}-{r}.txt"):
        name, value = line.split()
        ck[name.replace("casa_store_checkpoint_", "")] = round(float(value), 3)
    print(json.dumps({"round": int(r), "arm": arm, "p50_ms": round(s[0], 2), "p99_ms": round(s[1], 2),
                      "p999_ms": round(s[2], 2), "p99_over_echo": round(s[1] / e[1], 2),
                      "disk_mb": round(int(open(f"{out}/disk-{i}-{r}.txt").read()) / 1e6),
                      "checkpoints": ck}))
PY
done | tee "$out/rounds.jsonl"
