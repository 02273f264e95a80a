#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds the libFuzzer targets with clang and runs each for a bounded time.
#
#   fuzz/run.sh [SECONDS] [TARGET...]          (default 60 s each, every target)
#   fuzz/run.sh --grow [SECONDS] [TARGET...]   a campaign that grows the corpus
#
# The committed corpus fuzz/corpus/<target>/ (merged and minimised: each file
# adds coverage the others lack) is copied to a scratch corpus under the build
# dir, so a test run starts where the last campaign ended and never modifies the
# repository. With --grow (default 480 s each), the targets run one after the
# other, a single process each, and what they found is merged back into
# fuzz/corpus/<target>/ with libFuzzer's -merge=1: the committed corpus becomes
# the smallest set of inputs that covers everything the old corpus and the run
# reached. Commit it afterwards. Each target prints its covered edges at the
# start (the corpus loaded) and at the end of the run. Crash
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

grow=0
if [ "${1:-}" = "--grow" ]; then
  grow=1
  shift
fi
seconds="${1:-$([ "$grow" = 1 ] && echo 480 || echo 60)}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then targets=(fuzz_engine fuzz_protocol fuzz_frames fuzz_webauthn); fi
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
  if [ "$grow" = 1 ]; then
    # A fresh scratch corpus: exactly the committed one, so the edges printed
    # at the start are those of the repository's corpus.
    rm -rf "$corpus"
  fi
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
    start_cov=$(grep -m1 -o 'INITED cov: [0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    end_cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo '?')
    echo "   ok: $runs runs, $rate exec/s, covered edges $start_cov at the start, $end_cov at the end"
    if [ "$grow" = 1 ]; then
      merged="$build/merged/$target"
      rm -rf "$merged"
      mkdir -p "$merged"
      "$build/fuzz/$target" -merge=1 "$merged" fuzz/corpus/"$target" "$corpus" \
        >"$build/$target.merge.log" 2>&1
      rm -rf fuzz/corpus/"$target"
      mkdir -p fuzz/corpus/"$target"
      cp "$merged"/* fuzz/corpus/"$target"/
      echo "   fuzz/corpus/$target: $(ls fuzz/corpus/"$target" | wc -l) files," \
        "$(du -sk --apparent-size fuzz/corpus/"$target" | cut -f1) KB after the merge"
    fi
  else
    status=1
    echo "   CRASH (log: $log, reproducer in $artifacts/):"
    grep -E 'broken promise|ERROR: |SUMMARY' "$log" | head -5 | sed 's/^/   /'
  fi
done
exit "$status"
