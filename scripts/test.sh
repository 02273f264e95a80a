#!/usr/bin/env bash
# Builds everything that is stale and runs every test: the full suite in a
# release-with-debug-info build (with the large random-game property runs, a few
# minutes), then the engine tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer, then each libFuzzer target for a bounded time
# (CASA_FUZZ_SECONDS each, default 30; 0 skips them) after replaying every kept
# reproducer.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds="${CASA_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" -gt 0 ]; then scripts/deps.sh fuzz; else scripts/deps.sh; fi
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
# Both cores: the two halves of the property runs go side by side; the
# network suites are marked RUN_SERIAL and still run alone.
ctest --test-dir build --output-on-failure --timeout 600 -j"$jobs"
scripts/test-web.sh
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCASA_SANITIZE=ON \
  -DCASA_ENGINE_ONLY=ON >/dev/null
cmake --build build-sanitize -j"$jobs" --target casa_engine_tests
ctest --test-dir build-sanitize --output-on-failure --timeout 900 -R "^engine$"
if [ "$fuzz_seconds" -gt 0 ]; then
  # A fixed seed: the same build explores the same inputs on every run.
  FUZZ_SEED="${FUZZ_SEED:-1}" JOBS="$jobs" fuzz/run.sh "$fuzz_seconds"
fi
[ "${CASA_IMAGE_TEST:-1}" = 0 ] || scripts/test-image.sh  # the Docker image, with podman
