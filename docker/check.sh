#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Checks the Docker image recipe on a Debian 12 machine without a Docker engine:
#  1. builds the two binaries with docker/build.sh (the build stage's own script)
#     in a fresh build directory;
#  2. checks that docker/runtime-packages.txt provides every shared library that
#     `ldd` finds in them (apart from what debian:12-slim already has), and that
#     every listed package exists in this machine's Debian archive;
#  3. starts the built server with the image's environment (database in a temp
#     dir) and runs the image's HEALTHCHECK script against it;
#  4. parses docker/compose.yaml (+ the TLS overlay) with `docker compose config`
#     when the compose plugin is installed (skipped otherwise).
# Usage: docker/check.sh [BUILD_DIR]   (default build-docker-check; kept for reuse)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-docker-check}
fail=0
say() { printf '== %s\n' "$*"; }
bad() { printf 'FAIL: %s\n' "$*"; fail=1; }

say "1. build (docker/build.sh . $build)"
mkdir -p "$build"
CASA_JOBS=${CASA_JOBS:-2} docker/build.sh . "$build" >"$build/check-build.log" 2>&1 || {
  tail -30 "$build/check-build.log"; bad "build failed (log: $build/check-build.log)"; exit 1; }
binaries=("$build/server/casa-server" "$build/clients/cli/casa")

say "2. runtime libraries"
# Packages every debian:12-slim image already holds (Priority: required).
base=(libc6 libgcc-s1 libstdc++6 zlib1g)
mapfile -t listed < <(sed 's/#.*//' docker/runtime-packages.txt | awk 'NF {print $1}')
owner() {  # the Debian package owning a library path (merged /usr aware)
  local p=$1 r
  r=$(readlink -f "$p")
  for candidate in "$p" "/usr$p" "${p#/usr}" "$r" "/usr$r" "${r#/usr}"; do
    dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1 && return 0
  done
  echo "?$p"
}
needed=()
for bin in "${binaries[@]}"; do
  if ldd "$bin" | grep -q 'not found'; then bad "$bin has unresolved libraries"; fi
  while read -r lib; do needed+=("$(owner "$lib")"); done < <(ldd "$bin" | awk '$3 ~ /^\// {print $3}')
done
mapfile -t needed < <(printf '%s\n' "${needed[@]}" | sort -u)
for pkg in "${needed[@]}"; do
  if printf '%s\n' "${base[@]}" "${listed[@]}" | grep -qx "$pkg"; then
    echo "  ok   $pkg"
  else
    bad "$pkg is needed at run time but not in docker/runtime-packages.txt"
  fi
done
for pkg in "${listed[@]}"; do
  apt-cache show "$pkg" >/dev/null 2>&1 || bad "$pkg (runtime-packages.txt) is not a Debian 12 package here"
done

say "3. the server with the image's environment, and the HEALTHCHECK"
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
CASA_ADDRESS=127.0.0.1 CASA_PORT=$port CASA_DB=$tmp/casa.db CASA_LOG_LEVEL=info \
  "$build/server/casa-server" >"$tmp/server.log" 2>&1 &
server=$!
healthy=0
for _ in $(seq 1 50); do
  if CASA_PORT=$port docker/healthcheck.sh; then healthy=1; break; fi
  sleep 0.2
done
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
if [ "$healthy" = 1 ]; then echo "  ok   /healthz answered on port $port"; else
  cat "$tmp/server.log"; bad "the healthcheck never passed"; fi
[ -f "$tmp/casa.db" ] && echo "  ok   database created at CASA_DB" || bad "no database at CASA_DB"
rm -rf "$tmp"

say "4. compose files"
if docker compose version >/dev/null 2>&1; then
  docker compose -f docker/compose.yaml config -q && echo "  ok   compose.yaml" || bad "compose.yaml"
  docker compose -f docker/compose.yaml -f docker/compose.tls.yaml config -q \
    && echo "  ok   compose.yaml + compose.tls.yaml" || bad "compose.tls.yaml"
  CASA_PG_PASSWORD=check docker compose -f docker/compose.cluster.yaml config -q \
    && echo "  ok   compose.cluster.yaml" || bad "compose.cluster.yaml"
else
  echo "  skipped: the docker compose plugin is not installed"
fi

[ "$fail" = 0 ] && say "all checks passed" || say "some checks FAILED"
exit "$fail"
