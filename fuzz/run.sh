#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     (default 60 s each, every target)
#
# The committed seed corpus fuzz/corpus/<target>/ is copied to a scratch
# corpus under the build dir, so a run never modifies the repository. Crash
# reproducers are written to build-fuzz/artifacts/<target>/; reproduce one with
#   build-fuzz/fuzz/<target> build-fuzz/artifacts/<target>/crash-...
# Exit status: 0 when no target crashed, 1 otherwise. Prints exec/s per target.
#
# Environment: BUILD_DIR (default build-fuzz), JOBS (default 2),
#              FUZZ_RSS_MB (default 2048), FUZZ_TIMEOUT (per input, default 10 s),
#              FUZZ_SEED and FUZZ_RUNS (a fixed seed and number of inputs instead of
#              a time limit: the same build then explores the same inputs, as in CI).
# Every reproducer kept in fuzz/regressions/<target>/ is replayed first.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then targets=(fuzz_engine fuzz_protocol); fi
build="${BUILD_DIR:-build-fuzz}"

if ! command -v clang++ >/dev/null; then
  echo "fuzz/run.sh: clang++ is required (apt-get install clang)" >&2
  exit 2
fi

# Warnings stay on but are not errors here: clang warns about things gcc
# does not, and a fuzz run should not fail on a style warning.
cmake -S . -B "$build" -G Ninja -DCASA_FUZZ=ON -DCASA_WERROR=OFF \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]}"

status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  cp -n fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  log="$build/$target.log"
  regressions=(fuzz/regressions/"$target"/*)
  if [ -e "${regressions[0]}" ]; then
    if ! "$build/fuzz/$target" "${regressions[@]}" >"$build/$target.regressions.log" 2>&1; then
      status=1
      echo "== $target: a kept reproducer fails again (log: $build/$target.regressions.log)"
      continue
    fi
    echo "== $target: ${#regressions[@]} kept reproducers pass"
  fi
  limit=(-max_total_time="$seconds")
  if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); fi
  if [ -n "${FUZZ_SEED:-}" ]; then limit+=(-seed="$FUZZ_SEED"); fi
  echo "== $target: ${limit[*]}"
  if "$build/fuzz/$target" "$corpus" "${limit[@]}" -print_final_stats=1 \
      -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -timeout="${FUZZ_TIMEOUT:-10}" \
      -artifact_prefix="$artifacts/" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    echo "   ok: $runs runs, $rate exec/s, $(grep -o 'cov: [0-9]*' "$log" | tail -1)"
  else
    status=1
    echo "   CRASH (log: $log, reproducer in $artifacts/):"
    grep -E 'broken promise|ERROR: |SUMMARY' "$log" | head -5 | sed 's/^/   /'
  fi
done
exit "$status"
