#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds everything that is stale and runs every test: the full suite in a
# release-with-debug-info build (with the large random-game property runs, a few
# minutes), the browser client in Chromium, the cluster proof (PostgreSQL, HAProxy,
# three nodes, scripts/test-cluster.sh), then the engine tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer, each libFuzzer target for a
# bounded time (CASA_FUZZ_SECONDS each, default 30; 0 skips them) after replaying
# every kept reproducer, and last the Docker image with podman
# (CASA_IMAGE_TEST=0 skips it). Between them: casa-server and casa built again in
# Release (every documented build type builds, warnings as errors), the Debian
# package made from that build, and the install tests in clean Debian 12 containers
# (scripts/test-install.sh: the README's scripts/server.sh on a fresh system, the
# package as a systemd service; CASA_INSTALL_TEST=0 skips them). Each phase prints
# its time; the end lists them all.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
times=()
free_gb() { df -P -B1G . | awk 'NR == 2 { print $4 }'; }
echo "== $(free_gb) GB free at the start"
phase() {
  local name=$1 start=$SECONDS
  shift
  echo "== $name"
  "$@"
  local took=$((SECONDS - start))
  times+=("$(printf '%-28s %4d s   %4d GB free' "$name" "$took" "$(free_gb)")")
  echo "== $name: $took s ($(free_gb) GB free)"
}
quiet() { "$@" >/dev/null; }
fuzz_seconds="${CASA_FUZZ_SECONDS:-30}"
# postgres: the server suites run a second time on PostgreSQL (server_postgres,
# server_ratings_postgres in ctest).
if [ "$fuzz_seconds" -gt 0 ]; then phase "packages" scripts/deps.sh fuzz postgres package; else phase "packages" scripts/deps.sh postgres package; fi
jobs=$(nproc)
phase "configure" quiet cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCASA_WERROR=ON
phase "build" cmake --build build -j"$jobs"
# Both cores: the two halves of the property runs go side by side; the
# network suites are marked RUN_SERIAL and still run alone.
phase "ctest" ctest --test-dir build --output-on-failure --timeout 600 -j"$jobs"
phase "web client" scripts/test-web.sh
phase "cluster" scripts/test-cluster.sh  # PostgreSQL, HAProxy, three nodes: kill -9, drain, pause, partitions
# Release: what a user's build and the Debian package use; -O3-only warnings show here.
phase "release configure" quiet cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASA_WERROR=ON \
  -DCMAKE_INSTALL_PREFIX=/usr
phase "release build" cmake --build build-release -j"$jobs" --target casa-server casa
# The web client is built (scripts/test-web.sh); cmake/install.cmake packs its dist/.
phase "debian package" bash -c 'scripts/build-web.sh && cd build-release && rm -f casa-server_*.deb && cpack -G DEB >/dev/null && ls casa-server_*.deb'
phase "sanitizer configure" quiet cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCASA_SANITIZE=ON -DCASA_WERROR=ON \
  -DCASA_ENGINE_ONLY=ON
phase "sanitizer build" cmake --build build-sanitize -j"$jobs" --target casa_engine_tests
phase "sanitizer tests" ctest --test-dir build-sanitize --output-on-failure --timeout 900 -R "^engine$"
if [ "$fuzz_seconds" -gt 0 ]; then
  # A fixed seed: the same build explores the same inputs on every run.
  phase "fuzz" env FUZZ_SEED="${FUZZ_SEED:-1}" JOBS="$jobs" fuzz/run.sh "$fuzz_seconds"
fi
# The container tests add packages, builds and images to podman's storage: say so
# before they start if the disk looks too small for them, rather than let dpkg
# fail deep inside a container.
room() {  # room GB WHAT
  local free; free=$(free_gb)
  [ "$free" -ge "$1" ] || echo "== warning: $free GB free here; $2 needs about $1 GB"
}
[ "${CASA_INSTALL_TEST:-1}" = 0 ] || room 5 "the install test (a fresh Debian 12 container that builds everything)"
[ "${CASA_INSTALL_TEST:-1}" = 0 ] || phase "install" scripts/test-install.sh  # fresh Debian 12, the package as a service
[ "${CASA_IMAGE_TEST:-1}" = 0 ] || room 3 "the image test (two image builds)"
[ "${CASA_IMAGE_TEST:-1}" = 0 ] || phase "image" scripts/test-image.sh  # the Docker image, with podman
echo "== every test passed in $(($(date +%s) - t0)) s:"
printf '   %s\n' "${times[@]}"
