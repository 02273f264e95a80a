#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# The cost of --durability full against normal, measured in the same run.
#
#   bench/durability.sh
#
# For each of ROUNDS rounds, and for each setting (the order alternates between
# rounds so that a change in the machine's load hits both), it starts a fresh
# server pinned to CPU 0 (--threads 1) and measures with casa-loadgen on CPU 1:
#   * saturation: TABLES tables, closed loop, DURATION s -> moves/s;
#   * fixed load: RATE_TABLES tables, open loop at RATE moves/s, DURATION s
#     after 3 s of warm-up -> move->event latency p50/p99/p99.9.
# Then, once per setting, the fsyncs: a saturation run with the server under
# `strace -f -c` (fsync and fdatasync only; not timed) -> fsyncs per move.
# Each run prints a JSON line (also in $OUT/durability.jsonl); the summary gives
# min/median/max per setting and the ratio of the medians.
# On a busy machine the server gets only part of its core: compare moves per
# server CPU-second (moves/s divided by the server's CPU share) as well.
# Environment: BUILD (build) SERVER PORT (18080) GAME (la-casa) OPTIONS ({})
#   ROUNDS (3) DURATION (8) TABLES (250) RATE (2500) RATE_TABLES (2000)
#   SUMMARY_ONLY=1: print the summary of the results already in $OUT
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build="${BUILD:-build}"
server_bin="${SERVER:-$build/server/casa-server}"
loadgen="$build/bench/casa-loadgen"
port="${PORT:-18080}"
game="${GAME:-la-casa}"
options="${OPTIONS:-{\}}"
rounds="${ROUNDS:-3}"
duration="${DURATION:-8}"
tables="${TABLES:-250}"
rate="${RATE:-2500}"
rate_tables="${RATE_TABLES:-2000}"
out="${OUT:-$build/figures}"
mkdir -p "$out"
results="$out/durability.jsonl"
summary() {
  echo "--- summary (min / median / max per setting; load average $(cut -d' ' -f1-3 /proc/loadavg) now)"
  jq -rs '
    def med: sort | .[(length / 2 | floor)];
    def mmm(f): [.[] | f] | "\(min | round) / \(med | round) / \(max | round)";
    def by_setting(step; f): map(select(.step == step)) | group_by(.setting)
      | map({key: .[0].setting, value: f}) | from_entries;
    by_setting("saturation"; mmm(.moves_per_s)) as $sat
    | by_setting("saturation"; mmm(.moves_per_s / .server_cpu_share)) as $cpu
    | by_setting("saturation"; [.[].moves_per_s] | med) as $satmed
    | by_setting("saturation"; [.[] | .moves_per_s / .server_cpu_share] | med) as $cpumed
    | by_setting("fixed_rate"; {p50: mmm(.p50_us), p99: mmm(.p99_us), p999: mmm(.p999_us),
                                achieved: mmm(.moves_per_s)}) as $lat
    | "saturation moves/s          normal \($sat.normal)   full \($sat.full)   full/normal (medians) \(($satmed.full / $satmed.normal * 100 | round) / 100)",
      "  per server CPU-second     normal \($cpu.normal)   full \($cpu.full)   full/normal (medians) \(($cpumed.full / $cpumed.normal * 100 | round) / 100)",
      "fixed rate achieved moves/s normal \($lat.normal.achieved)   full \($lat.full.achieved)",
      "fixed rate p50 us           normal \($lat.normal.p50)   full \($lat.full.p50)",
      "fixed rate p99 us           normal \($lat.normal.p99)   full \($lat.full.p99)",
      "fixed rate p99.9 us         normal \($lat.normal.p999)   full \($lat.full.p999)",
      (map(select(.step == "fsyncs")) | .[] | "fsyncs \(.setting): \(.fsyncs) for \(.moves) moves = \(.fsyncs_per_move * 1000 | round / 1000) per move")
  ' "$results"
}
if [ -n "${SUMMARY_ONLY:-}" ]; then summary; exit 0; fi
: >"$results"

ulimit -n "$(ulimit -Hn)"
server_flags=(--address 127.0.0.1 --port "$port" --threads 1 --rate-per-second 1000000 --rate-burst 1000000
  --max-connections-per-address 100000 --max-tables-per-player 100000 --max-write-queue 100000 --log-level warn
  --players-per-address-per-hour 1000000)

server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap stop_server EXIT

# start_server SETTING [PREFIX...]: a fresh database, pinned to CPU 0.
start_server() {
  local setting="$1"; shift
  rm -f "$out"/durability.db*
  taskset -c 0 "$@" "$server_bin" "${server_flags[@]}" --db "$out/durability.db" --durability "$setting" \
    >"$out/durability-server.log" 2>&1 &
  server_pid=$!
  wait_healthz "$port" && return 0
  echo "server did not start; see $out/durability-server.log" >&2
  return 1
}

gen() { taskset -c 1 "$loadgen" --quiet --url "ws://127.0.0.1:$port/ws" --game "$game" --options "$options" "$@"; }

record() {  # record SETTING STEP JSON
  jq -c --arg setting "$1" --arg step "$2" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
    '{setting: $setting, step: $step, load: $load, moves_per_s, server_cpu_share, generator_cpu_share,
      p50_us: .latency_us.p50, p99_us: .latency_us.p99, p999_us: .latency_us["p99.9"], errors, pacing_misses}' \
    <<<"$3" | tee -a "$results"
}

for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order=(normal full); else order=(full normal); fi
  for setting in "${order[@]}"; do
    start_server "$setting"
    record "$setting" saturation "$(gen --tables "$tables" --duration "$duration" --warmup 1 --server-pid "$server_pid")"
    stop_server
    start_server "$setting"
    record "$setting" fixed_rate "$(gen --tables "$rate_tables" --rate "$rate" --duration "$duration" --warmup 3 \
      --server-pid "$server_pid")"
    stop_server
  done
done

# fsyncs per move: strace counts the calls of the whole server process.
for setting in normal full; do
  rm -f "$out"/durability.db*
  taskset -c 0 strace -f --seccomp-bpf -c -e trace=fsync,fdatasync -o "$out/durability-strace-$setting.txt" \
    "$server_bin" "${server_flags[@]}" --db "$out/durability.db" --durability "$setting" \
    >"$out/durability-server.log" 2>&1 &
  server_pid=$!
  wait_healthz "$port" || true
  moves=$(gen --tables "$tables" --duration "$duration" --warmup 0 | jq .moves)
  # Stop the server itself (strace's child); strace then writes its count.
  kill -TERM "$(pgrep -P "$server_pid" | head -1)"; wait "$server_pid" 2>/dev/null || true; server_pid=""
  syncs=$(awk '$NF=="fsync"||$NF=="fdatasync"{n+=$4} END{print n+0}' "$out/durability-strace-$setting.txt")
  jq -cn --arg setting "$setting" --argjson moves "$moves" --argjson syncs "$syncs" \
    '{setting: $setting, step: "fsyncs", moves: $moves, fsyncs: $syncs, fsyncs_per_move: ($syncs / $moves)}' |
    tee -a "$results"
done

summary
