#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Measures the "Server under load" figures of BENCHMARKS.md on this machine.
#
#   bench/figures.sh [STEP...]     steps: echo saturation half idle restart (default: all),
#                                  and echo4, split, curve, cores, syscalls and scrape (not
#                                  in the default list)
#
# The server runs pinned to CPU 0 (taskset -c 0, --threads 1) and the generator
# to CPU 1. Everything listens on and connects to 127.0.0.1 only. Each step is
# bounded in time; results are printed as JSON lines (one per step) and kept in
# $OUT (default build/figures/). Environment knobs:
#   BUILD (build)  SERVER ($BUILD/server/casa-server)  PORT (18080)  GAME (la-casa)  OPTIONS ({})  DURATION (10)  TABLES (250)
#   HALF_TABLES (5000)  IDLE (10000)  RESTART_TABLES (1000)
#   THREADS (1) and SERVER_CPUS (0): the server's --threads and taskset CPU list
#   DURABILITY (full): the server's --durability (normal: no fsync per commit)
#   SERVER_ARGS: more flags for the game server, split on spaces
#   FEATURES (none): protocol features the generator asks for in hello (e.g. view_patch)
#   curve: RATES ("500 1000 ..." offered moves/s, one run each, HALF_TABLES live
#   tables, DURATION s after a WARMUP (3) s warm-up); writes $OUT/curve.jsonl and, with
#   matplotlib (scripts/deps.sh charts), the latency-vs-offered-load chart
#   $OUT/latency-curve.png (bench/latency_chart.py; CHART=path to put it elsewhere).
#   Each line also holds what the server's own /metrics histograms saw during the
#   measurement (move -> event, commit; casa-loadgen --metrics). TABLES_PER_PLAYER
#   (1): each generator connection sits at that many tables, for more live tables
#   than the file descriptor limit (`ulimit -Hn`) allows connections.
#   split: user-space and kernel CPU per move (the server's /proc/PID/stat over 4 s
#   of a saturation run), for the fan-out echo and for SERVER.
#   echo4: the fan-out echo (casa-echo-server --fanout, casa-loadgen --echo
#   --fanout 4): per round trip, one frame in and one write to each of four
#   connections, the network part of a move at a table of four and nothing else.
#   syscalls: system calls per move at saturation (perf over WINDOW (4) s of a
#   saturation run; needs perf and tracepoint access), by name.
#   scrape: how long GET /metrics takes with HALF_TABLES live tables (20 scrapes
#   while the generator plays 200 moves/s; TABLES_PER_PLAYER as for curve).
#   cores: saturation with the server on one core (taskset -c 0, --threads 1)
#   and on two (taskset -c 0,1, --threads 2), ROUNDS (3) rounds alternating;
#   the generator stays on CPU 1, so on two cores it competes with the server.
#   Writes $OUT/cores.jsonl (one line per run, "server_threads" added).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build="${BUILD:-build}"
server_bin="${SERVER:-$build/server/casa-server}"
port="${PORT:-18080}"
echo_bin="$build/bench/casa-echo-server"
loadgen="$build/bench/casa-loadgen"
game="${GAME:-la-casa}"
options="${OPTIONS:-{\}}"
duration="${DURATION:-10}"
tables="${TABLES:-250}"
out="${OUT:-$build/figures}"
mkdir -p "$out"
steps=("$@")
[ "${#steps[@]}" -eq 0 ] && steps=(echo saturation half idle restart)

ulimit -n "$(ulimit -Hn)"
# Limits that would otherwise refuse a load generator on one address.
server_cpus="${SERVER_CPUS:-0}"
server_flags=(--address 127.0.0.1 --port "$port" --threads "${THREADS:-1}" --rate-per-second 1000000 --rate-burst 1000000
  --max-connections-per-address 100000 --max-tables-per-player 100000 --max-write-queue 100000
  --players-per-address-per-hour 1000000 --durability "${DURABILITY:-full}")
# SERVER_ARGS: more flags for the game server (e.g. "--wal-checkpoint-pages 8000").
read -r -a extra_server_args <<<"${SERVER_ARGS:-}"
server_flags+=("${extra_server_args[@]}")

server_pid=""
server_port=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap stop_server EXIT

# start_server LOG ARGS...: starts a pinned server and waits until it answers
# GET /healthz (both servers do) on $port.
start_server() {
  local log="$1"; shift
  taskset -c "$server_cpus" "$@" >"$log" 2>&1 &
  server_pid=$!
  server_port="$port"
  wait_healthz "$port" && return 0
  echo "server did not start; see $log" >&2
  return 1
}

features=()
[ -n "${FEATURES:-}" ] && features=(--features "$FEATURES")
gen() { taskset -c 1 "$loadgen" --quiet "${features[@]}" "$@"; }

for step in "${steps[@]}"; do
  case "$step" in
  echo)
    start_server "$out/echo.log" "$echo_bin" --port "$port"
    gen --echo --url "ws://127.0.0.1:$server_port/ws" --tables "$tables" --duration "$duration" \
      --server-pid "$server_pid" | tee "$out/echo.json"
    stop_server ;;
  echo4)
    # The fan-out echo: a move's network traffic at a table of four (one frame
    # in, one write of FANOUT_BYTES (360) to each of four connections: about
    # the bytes a move sends) and nothing else. A "move" is a round trip here.
    start_server "$out/echo4.log" "$echo_bin" --port "$port" --fanout
    gen --echo --fanout 4 --message-size "${FANOUT_BYTES:-360}" --url "ws://127.0.0.1:$server_port/ws" \
      --tables "$tables" --duration "$duration" --server-pid "$server_pid" | tee "$out/echo4.json"
    stop_server ;;
  split)
    # Where a move's CPU goes, user space or kernel: the server's utime and
    # stime (/proc/PID/stat) over 4 s in the middle of a saturation run, for
    # the fan-out echo and for the game server, per round trip or move.
    : >"$out/split.jsonl"
    for who in echo4 server; do
      if [ "$who" = echo4 ]; then
        start_server "$out/split.log" "$echo_bin" --port "$port" --fanout
        gen --echo --fanout 4 --message-size "${FANOUT_BYTES:-360}" --url "ws://127.0.0.1:$server_port/ws" \
          --tables "$tables" --duration 8 >"$out/split-$who.json" &
      else
        start_server "$out/split.log" "$server_bin" "${server_flags[@]}" --db "$out/split.db" --log-level warn
        gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" --tables "$tables" \
          --duration 8 >"$out/split-$who.json" &
      fi
      gen_pid=$!
      sleep 4
      read -r u0 s0 < <(awk '{print $14, $15}' "/proc/$server_pid/stat")
      sleep 4
      read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$server_pid/stat")
      wait "$gen_pid"
      stop_server; rm -f "$out"/split.db*
      python3 - "$who" "$((u1 - u0))" "$((s1 - s0))" "$(getconf CLK_TCK)" "$out/split-$who.json" <<'PY' | tee -a "$out/split.jsonl"
import json, sys
who, user, system, hz, report = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
moves = json.load(open(report))["moves_per_s"] * 4  # the 4 s window, at the run's mean rate
print(json.dumps({"mode": "split", "server": who, "moves": round(moves),
                  "user_us_per_move": round(user / hz / moves * 1e6, 1),
                  "system_us_per_move": round(system / hz / moves * 1e6, 1),
                  "system_share": round(system / (user + system), 3) if user + system else None,
                  "moves_per_cpu_second": round(moves / ((user + system) / hz)) if user + system else None}))
PY
    done ;;
  saturation)
    start_server "$out/saturation.log" "$server_bin" "${server_flags[@]}" --db "$out/saturation.db" --log-level warn
    gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" --tables "$tables" \
      --duration "$duration" --server-pid "$server_pid" | tee "$out/saturation.json"
    stop_server; rm -f "$out"/saturation.db* ;;
  half)
    rate="${RATE:?set RATE to half the saturation moves/s}"
    start_server "$out/half.log" "$server_bin" "${server_flags[@]}" --db "$out/half.db" --log-level warn
    gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" \
      --tables "${HALF_TABLES:-5000}" --rate "$rate" --duration "$duration" --warmup 3 \
      --server-pid "$server_pid" | tee "$out/half.json"
    stop_server; rm -f "$out"/half.db* ;;
  curve)
    : >"$out/curve.jsonl"
    for rate in ${RATES:?set RATES to the offered moves/s to try, e.g. "500 1000 2000"}; do
      start_server "$out/curve.log" "$server_bin" "${server_flags[@]}" --db "$out/curve.db" --log-level warn
      gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" \
        --tables "${HALF_TABLES:-5000}" --tables-per-player "${TABLES_PER_PLAYER:-1}" --rate "$rate" \
        --duration "$duration" --warmup "${WARMUP:-3}" --metrics --server-pid "$server_pid" | tee -a "$out/curve.jsonl"
      stop_server; rm -f "$out"/curve.db*
    done
    # Debian's matplotlib belongs to Debian's python3, which another python3
    # first on PATH may hide.
    py=python3
    /usr/bin/python3 -c 'import matplotlib' 2>/dev/null && py=/usr/bin/python3
    "$py" bench/latency_chart.py --out "${CHART:-$out/latency-curve.png}" "$out/curve.jsonl" ;;
  cores)
    : >"$out/cores.jsonl"
    for round in $(seq 1 "${ROUNDS:-3}"); do
      for setup in "1 0" "2 0,1"; do
        read -r threads cpus <<<"$setup"
        server_cpus="$cpus"
        server_flags[5]="$threads"   # --threads
        start_server "$out/cores.log" "$server_bin" "${server_flags[@]}" --db "$out/cores.db" --log-level warn
        gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" --tables "$tables" \
          --duration "$duration" --metrics --server-pid "$server_pid" |
          sed "s/^{/{\"server_threads\":$threads,\"round\":$round,/" |
          tee -a "$out/cores.jsonl"
        stop_server; rm -f "$out"/cores.db*
      done
    done
    server_cpus="${SERVER_CPUS:-0}"; server_flags[5]="${THREADS:-1}" ;;
  syscalls)
    # System calls per move at saturation, by name: perf counts the server's
    # syscall entries (tracepoints, no ptrace, so the server keeps its speed)
    # over WINDOW (4) seconds in the middle of a saturation run, and the
    # server's own casa_moves_total gives the moves of the same window.
    command -v perf >/dev/null || { echo "figures.sh syscalls needs perf (linux-perf)" >&2; exit 2; }
    window="${WINDOW:-4}"
    start_server "$out/syscalls.log" "$server_bin" "${server_flags[@]}" --db "$out/syscalls.db" --log-level warn
    gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" --tables "$tables" \
      --duration "$((window + 4))" --server-pid "$server_pid" > "$out/syscalls-load.json" &
    load_pid=$!
    moves_now() { curl -s "http://127.0.0.1:$port/metrics" | awk '/^casa_moves_total/ {s += $2} END {print s + 0}'; }
    sleep 4  # setup and the warm-up of the generator
    m0=$(moves_now)
    perf stat -x, -e raw_syscalls:sys_enter,syscalls:sys_enter_sendmsg,syscalls:sys_enter_recvmsg,syscalls:sys_enter_recvfrom,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_futex,syscalls:sys_enter_pwrite64,syscalls:sys_enter_fdatasync,syscalls:sys_enter_pread64,syscalls:sys_enter_io_uring_enter \
      -p "$server_pid" -o "$out/syscalls.perf" -- sleep "$window"
    m1=$(moves_now)
    wait "$load_pid" || true
    python3 - "$out/syscalls.perf" "$((m1 - m0))" <<'PY' | tee "$out/syscalls.json"
import json, sys
counts = {}
for line in open(sys.argv[1]):
    f = line.strip().split(",")
    if len(f) > 2 and f[0].replace(".", "").isdigit():
        counts[f[2].split(":")[-1].replace("sys_enter_", "")] = float(f[0])
moves = int(sys.argv[2])
per = {k: round(v / moves, 3) for k, v in counts.items() if k != "sys_enter"} if moves else {}
print(json.dumps({"mode": "syscalls", "moves": moves, "syscalls_per_move": round(counts.get("sys_enter", 0) / moves, 2) if moves else None,
                  "by_name": per}))
PY
    stop_server; rm -f "$out"/syscalls.db* ;;
  scrape)
    # How long GET /metrics takes with HALF_TABLES live tables (it runs on a
    # network thread, holding up that thread's connections and tables).
    start_server "$out/scrape.log" "$server_bin" "${server_flags[@]}" --db "$out/scrape.db" --log-level warn
    gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" \
      --tables "${HALF_TABLES:-5000}" --tables-per-player "${TABLES_PER_PLAYER:-1}" --rate 200 \
      --duration 120 --warmup 0 >/dev/null 2>&1 &
    gen_pid=$!
    playing=0
    for _ in $(seq 1 300); do
      playing=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^casa_tables\{state="playing"\}/ {print $2}')
      [ "${playing:-0}" -ge "${HALF_TABLES:-5000}" ] && break
      sleep 1
    done
    for _ in $(seq 1 20); do curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/metrics"; sleep 0.2; done |
      sort -n | awk -v t="$playing" '{a[NR] = $1} END {printf "{\"step\":\"scrape\",\"tables_playing\":%d,\"seconds_min\":%s,\"seconds_median\":%s,\"seconds_max\":%s}\n", t, a[1], a[int((NR + 1) / 2)], a[NR]}' |
      tee "$out/scrape.json"
    kill "$gen_pid" 2>/dev/null || true; wait "$gen_pid" 2>/dev/null || true
    stop_server; rm -f "$out"/scrape.db* ;;
  idle)
    start_server "$out/idle.log" "$server_bin" "${server_flags[@]}" --db "$out/idle.db" --log-level warn
    sleep 0.5
    gen --connections-only "${IDLE:-10000}" --url "ws://127.0.0.1:$server_port/ws" --duration 2 \
      --server-pid "$server_pid" | tee "$out/idle.json"
    stop_server; rm -f "$out"/idle.db* ;;
  restart)
    n="${RESTART_TABLES:-1000}"
    rm -f "$out"/restart.db*
    start_server "$out/restart-1.log" "$server_bin" "${server_flags[@]}" --db "$out/restart.db" --log-level warn
    # A few moves at every table, then stop: the tables stay unfinished.
    gen --url "ws://127.0.0.1:$server_port/ws" --game "$game" --options "$options" --tables "$n" \
      --warmup 0 --duration 30 --max-moves $((n * 5)) >"$out/restart-play.json"
    kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    began=$(date +%s.%N)
    start_server "$out/restart-2.log" "$server_bin" "${server_flags[@]}" --db "$out/restart.db" --log-level info
    ended=$(date +%s.%N)
    recovered=$(grep -m1 -o 'recovered .*' "$out/restart-2.log" || echo "no recovery line")
    printf '{"step":"restart","tables":%d,"seconds_to_healthz":%.3f,"log":"%s"}\n' \
      "$n" "$(echo "$ended - $began" | bc -l)" "$recovered" | tee "$out/restart.json"
    stop_server ;;
  *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
