#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Load-independent costs of a move: what the server does per move, counted
# rather than timed, so the figures hold whatever else the machine runs.
#
#   bench/counts.sh [TARGET...]     targets: echo server (default: both)
#
# For each target the same closed-loop load runs twice, with SMALL and LARGE
# moves (casa-loadgen, fixed --seed, fixed --tables, --warmup 0), once under
# each tool:
#   * valgrind --tool=callgrind: user-space instructions of the whole process
#     (every thread, SQLite included);
#   * strace -f -c: system calls by kind.
# A per-move figure is (LARGE run - SMALL run) / (moves of LARGE - moves of
# SMALL): start-up, connecting, creating tables and shutting down cancel out.
# For the game server the moves are the rows of its action log (every stored
# move, counted or not by the generator); for the echo server, round trips.
# Frames and bytes the generator received per move come from the generator's
# own report of the LARGE strace run.
#
# A server built on Asio's io_uring backend (-DCASA_IO_URING=ON) hands its
# socket operations to the kernel as submission queue entries, many per
# io_uring_enter call: strace sees only the io_uring_enter. For such a build
# (its strace run shows io_uring_setup) a third pair of runs under
# `perf record -e io_uring:io_uring_submit_req` counts the operations by
# opcode (SENDMSG, RECVMSG, POLL_ADD, ...): "uring_ops_per_move_by_opcode";
# socket writes per move then count the send operations too.
# Valgrind 3.19 does not count io_uring_enter among the calls that may block:
# a thread waiting in it keeps every other thread of the process from running,
# so the game server (a network thread, the store's writer) stalls under it.
# For an io_uring server (its binary links liburing) the callgrind runs are
# left out and instructions_per_move is null; the single-threaded echo server
# runs under callgrind either way.
#
# Output: one JSON line per target (also kept in $OUT), then a table.
# Knobs: BUILD (build)  SERVER ($BUILD/server/casa-server)  PORT (18085)
#   GAME (la-casa)  TABLES (16)  SMALL (400)  LARGE (1600)  SEED (1)
#   FEATURES (none): protocol features the generator's players ask for in
#   hello, e.g. FEATURES=view_patch (docs/protocol.md, Features)
#   TOOLS ("callgrind strace"): TOOLS=strace counts only the system calls
#   (minutes faster; the instruction figure is then left out)
# Needs valgrind and strace: scripts/deps.sh bench; perf for an io_uring build.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

build="${BUILD:-build}"
server_bin="${SERVER:-$build/server/casa-server}"
echo_bin="$build/bench/casa-echo-server"
loadgen="$build/bench/casa-loadgen"
port="${PORT:-18085}"
game="${GAME:-la-casa}"
tables="${TABLES:-16}"
small="${SMALL:-400}"
large="${LARGE:-1600}"
seed="${SEED:-1}"
features=()
[ -n "${FEATURES:-}" ] && features=(--features "$FEATURES")
out="${OUT:-$build/counts}"
mkdir -p "$out"
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(echo server)
for tool in valgrind strace python3 curl; do
  command -v "$tool" >/dev/null || { echo "counts.sh needs $tool (scripts/deps.sh bench)" >&2; exit 2; }
done
ulimit -n "$(ulimit -Hn)"

server_flags=(--address 127.0.0.1 --port "$port" --threads 1 --log-level warn --rate-per-second 1000000
  --rate-burst 1000000 --max-connections-per-address 100000 --max-tables-per-player 100000
  --max-write-queue 100000 --players-per-address-per-hour 1000000)

pid=""
stop() {
  # Under strace the server is strace's child: it gets the SIGTERM, stops
  # cleanly, and strace writes its summary as it ends.
  if [ -n "$pid" ]; then
    kill -TERM "$(pgrep -P "$pid" || echo "$pid")" 2>/dev/null || true
    # Valgrind delivers a signal only when the system call the thread waits in
    # returns, and it does not know io_uring_enter for one that blocks: an
    # io_uring build would wait there for ever. A request wakes it.
    curl -s -m 1 "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 || true
    wait "$pid" 2>/dev/null || true
  fi
  pid=""
}
trap stop EXIT

# run TARGET TOOL MOVES NAME: one run; leaves $out/NAME.{json,tool,db}.
run() {
  local target="$1" tool="$2" moves="$3" name="$4"
  local prefix=() cmd=() gen=()
  rm -f "$out/$name".*
  case "$tool" in
  callgrind) prefix=(valgrind --tool=callgrind --callgrind-out-file="$out/$name.tool" --dump-instr=no) ;;
  strace) prefix=(strace -f -c -o "$out/$name.tool") ;;
  uring) prefix=(perf record -q -e io_uring:io_uring_submit_req -o "$out/$name.perf") ;;
  esac
  if [ "$target" = echo ]; then
    cmd=("$echo_bin" --port "$port")
    gen=(--echo)
  else
    cmd=("$server_bin" "${server_flags[@]}" --db "$out/$name.db")
    gen=(--game "$game" "${features[@]}")
  fi
  "${prefix[@]}" "${cmd[@]}" >"$out/$name.log" 2>&1 &
  pid=$!
  wait_healthz "$port" 1200 0.1 || true
  "$loadgen" --quiet --url "ws://127.0.0.1:$port/ws" "${gen[@]}" --tables "$tables" --seed "$seed" \
    --warmup 0 --duration 600 --max-moves "$moves" >"$out/$name.json"
  stop
}

# moves NAME TARGET: the moves of one run (see the header).
moves_of() {
  if [ "$2" = echo ]; then
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["moves"])' "$out/$1.json"
  else
    python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM actions").fetchone()[0])' \
      "$out/$1.db"
  fi
}

for target in "${targets[@]}"; do
  case "$target" in echo | server) ;; *) echo "unknown target $target" >&2; exit 2 ;; esac
  bin="$server_bin"; [ "$target" = echo ] && bin="$echo_bin"
  for tool in ${TOOLS:-callgrind strace} uring; do
    if [ "$tool" = callgrind ] && [ "$target" = server ] && ldd "$bin" | grep -q liburing; then
      echo "counts.sh: $bin runs on io_uring: no callgrind runs (see the header)" >&2
      rm -f "$out/$target-callgrind-"*
      continue
    fi
    if [ "$tool" = uring ]; then
      [ -f "$out/$target-strace-small.tool" ] && grep -qw io_uring_setup "$out/$target-strace-small.tool" || continue
      command -v perf >/dev/null || { echo "counts.sh needs perf for an io_uring build" >&2; exit 2; }
    fi
    for size in small large; do
      n=$small; [ "$size" = large ] && n=$large
      run "$target" "$tool" "$n" "$target-$tool-$size"
      moves_of "$target-$tool-$size" "$target" >"$out/$target-$tool-$size.moves"
      # io_uring operations by opcode, from the trace's "opcode NAME" field.
      if [ "$tool" = uring ]; then
        perf script -i "$out/$target-$tool-$size.perf" -F trace 2>/dev/null |
          grep -o 'opcode [A-Z_0-9]*' | awk '{n[$2]++} END {for (k in n) print k, n[k]}' >"$out/$target-$tool-$size.tool"
      fi
    done
  done
  python3 - "$out" "$target" "$tables" <<'EOF' | tee "$out/$target.json"
import json, os, re, sys
out, target, tables = sys.argv[1], sys.argv[2], int(sys.argv[3])
def moves(name): return int(open(f"{out}/{name}.moves").read())
def instructions(name):
    import os
    if not os.path.exists(f"{out}/{name}.tool") or not os.path.exists(f"{out}/{name}.moves"):
        return None
    for line in open(f"{out}/{name}.tool"):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"no callgrind summary in {name}")
def syscalls(name):
    calls = {}
    for line in open(f"{out}/{name}.tool"):
        f = line.split()
        # % time, seconds, usecs/call, calls, [errors,] syscall
        if len(f) >= 5 and re.fullmatch(r"[\d.]+", f[0]) and f[-1] != "total":
            calls[f[-1]] = int(f[3])
    return calls
c_s, c_l = f"{target}-callgrind-small", f"{target}-callgrind-large"
s_s, s_l = f"{target}-strace-small", f"{target}-strace-large"
counted = os.path.exists(f"{out}/{c_l}.moves") and instructions(c_l) is not None and instructions(c_s) is not None
dm_c = moves(c_l) - moves(c_s) if counted else None
# TOOLS=callgrind: no strace runs, so no system call figures.
traced = os.path.exists(f"{out}/{s_l}.moves")
dm_s = moves(s_l) - moves(s_s) if traced else None
small, large = (syscalls(s_s), syscalls(s_l)) if traced else ({}, {})
per_kind = {k: round((large.get(k, 0) - small.get(k, 0)) / dm_s, 3) for k in set(small) | set(large)}
per_kind = {k: v for k, v in sorted(per_kind.items(), key=lambda kv: -kv[1]) if abs(v) >= 0.005}
socket_writes = sum(per_kind.get(k, 0) for k in ("sendmsg", "sendto", "writev"))
# io_uring operations (an io_uring build only): per move by opcode.
u_s, u_l = f"{target}-uring-small", f"{target}-uring-large"
uring_ops = None
if os.path.exists(f"{out}/{u_l}.tool"):
    def ops(name): return {k: int(v) for k, v in (l.split() for l in open(f"{out}/{name}.tool") if l.strip())}
    dm_u = moves(u_l) - moves(u_s)
    o_s, o_l = ops(u_s), ops(u_l)
    uring_ops = {k: round((o_l.get(k, 0) - o_s.get(k, 0)) / dm_u, 3) for k in set(o_s) | set(o_l)}
    uring_ops = {k: v for k, v in sorted(uring_ops.items(), key=lambda kv: -kv[1]) if abs(v) >= 0.005}
    socket_writes += sum(uring_ops.get(k, 0) for k in ("SENDMSG", "SEND", "WRITEV", "WRITE", "SEND_ZC", "SENDMSG_ZC"))
# The store's calls come per commit, and how many moves a group commit holds
# depends on timing (strace slows every call): they are shown per commit, the
# network thread's per move.
store_kinds = ("pwrite64", "pread64", "fcntl", "fdatasync", "fsync")
commits = per_kind.get("fdatasync", 0) + per_kind.get("fsync", 0)
network = {k: v for k, v in per_kind.items() if k not in store_kinds and k != "futex"}
gen = json.load(open(f"{out}/{s_l if traced else c_l}.json"))
players = gen["players_per_table"] if target == "server" else 1
result = {
    "target": target,
    "tables": tables,
    "moves_counted": {"callgrind": dm_c, "strace": dm_s},
    "instructions_per_move": round((instructions(c_l) - instructions(c_s)) / dm_c) if counted else None,
    "syscalls_per_move": round(sum(per_kind.values()), 2) if traced else None,
    "syscalls_per_move_by_kind": per_kind,
    "socket_writes_per_move": round(socket_writes, 3) if traced else None,
    "network_syscalls_per_move": round(sum(network.values()), 2) if traced else None,
    "commits_per_move": round(commits, 3) if traced else None,
    "store_syscalls_per_commit": round(sum(per_kind.get(k, 0) for k in store_kinds) / commits, 2) if commits else None,
    "futex_per_move": per_kind.get("futex", 0),
    "io_uring_enter_per_move": per_kind.get("io_uring_enter", 0),
    "uring_ops_per_move": round(sum(uring_ops.values()), 2) if uring_ops is not None else None,
    "uring_ops_per_move_by_opcode": uring_ops,
    "socket_writes_per_connection_per_move": round(socket_writes / players, 3) if traced else None,
    "frames_out_per_move": round(gen["messages_in"] / gen["moves"], 3),
    "bytes_out_per_move": round(gen["bytes_in"] / gen["moves"], 1),
}
print(json.dumps(result))
EOF
done

python3 - "$out" "${targets[@]}" <<'EOF'
import json, sys
out, targets = sys.argv[1], sys.argv[2:]
rows = {t: json.load(open(f"{out}/{t}.json")) for t in targets}
keys = ["instructions_per_move", "syscalls_per_move", "network_syscalls_per_move", "socket_writes_per_move",
        "socket_writes_per_connection_per_move", "frames_out_per_move", "bytes_out_per_move"]
print(f"{'per move (echo: per round trip)':40}" + "".join(f"{t:>14}" for t in targets)
      + ("   server/echo" if len(targets) == 2 else ""))
for k in keys:
    vals = [rows[t][k] for t in targets]
    ratio = f"{vals[1] / vals[0]:>14.2f}" if len(vals) == 2 and vals[0] and vals[1] is not None else ""
    print(f"{k:40}" + "".join(f"{v:>14,}" if v is not None else f"{'-':>14}" for v in vals) + ratio)
if "server" in rows:
    r = rows["server"]
    print(f"server: {r['commits_per_move']} commits per move, {r['store_syscalls_per_commit']} store calls per commit, {r['futex_per_move']} futex per move")
for t in targets:
    print(f"{t} syscalls by kind: " + ", ".join(f"{k} {v}" for k, v in rows[t]["syscalls_per_move_by_kind"].items()))
    if rows[t].get("uring_ops_per_move_by_opcode") is not None:
        print(f"{t} io_uring operations by opcode ({rows[t]['uring_ops_per_move']} per move, "
              f"{rows[t]['io_uring_enter_per_move']} io_uring_enter): "
              + ", ".join(f"{k} {v}" for k, v in rows[t]["uring_ops_per_move_by_opcode"].items()))
EOF
