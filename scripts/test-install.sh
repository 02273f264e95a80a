#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Installing, proven in clean Debian 12 containers (podman as root; the debian:12 base
# image made from Debian packages as scripts/test-image.sh makes it, see
# scripts/podman-env.sh):
#  a. fresh Debian: the repository as a clone has it (git archive of HEAD, no build
#     folder, no node_modules) in a clean debian:12 container that runs
#     `scripts/server.sh --port N` as root, as the README says; / and one asset that
#     the served index.html names must be the web client;
#  b. the package: the Debian package that scripts/test.sh builds
#     (build-release/casa-server_*.deb: Release, cpack -G DEB) installed with
#     `apt-get install ./casa-server_*.deb` in a clean debian:12 container with systemd
#     as PID 1; the unit is active, casa-server runs as casa (not root), /healthz and /
#     answer, a game plays to its end (casa, the package's client), the database is
#     in /var/lib/casa and not world-readable, `casa-server --version` works, and
#     `apt-get purge` removes the user and the state.
# Caches that keep a second run fast: the host's compiler cache (ccache keys paths
# relative to the source folder), the host's apt archive hard-linked into
# build-install-test/apt, and an npm cache in build-install-test/npm.
# Each check prints ok or FAIL; exits non-zero on any failure; prints its time.
#   scripts/test-install.sh [fresh] [package]     (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
t0=$(date +%s)
area=$root/build-install-test   # caches, logs, the exported source (ignored by git)
fail=0
say() { printf '== [%4ds] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
ok() { printf '  ok   %s\n' "$*"; }
bad() { printf '  FAIL %s\n' "$*"; fail=1; }
die() { printf '  FAIL %s\n' "$*"; exit 1; }
parts=("$@"); [ ${#parts[@]} -gt 0 ] || parts=(fresh package)

scripts/deps.sh image
. scripts/podman-env.sh
say "podman $(podman version --format '{{.Client.Version}}'), options: ${podman[*]:1} ${limits[*]}"
debian_base_images "$area"

mkdir -p "$area/apt/partial" "$area/npm"
# The host's downloaded packages, hard-linked (the container's apt may add to this
# copy; the host's own cache is never written).
find /var/cache/apt/archives -maxdepth 1 -name '*.deb' -exec cp -l -n -t "$area/apt/" {} + 2>/dev/null || true
ccache_dir=$(ccache -k cache_dir 2>/dev/null || echo "$area/ccache")
mkdir -p "$ccache_dir"
caches=(-v "$area/apt:/var/cache/apt/archives" -v "$ccache_dir:/ccache" -e CCACHE_DIR=/ccache
  -v "$area/npm:/root/.npm" -v /etc/ssl/certs/ca-certificates.crt:/host-ca.pem:ro
  -e NPM_CONFIG_CAFILE=/host-ca.pem)
# The base image deletes every downloaded package after apt runs (as the official
# image does); in these containers the packages stay, in the mounted cache.
keep_debs='rm -f /etc/apt/apt.conf.d/docker-clean'
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
names=()
cleanup() { for n in "${names[@]}"; do "${podman[@]}" rm -f -t 0 "$n" >/dev/null 2>&1 || true; done; }
trap cleanup EXIT

check_page() {  # check_page HTTP LABEL: / and the first script it names are the web client
  local page asset
  if ! page=$(curl -fsS --max-time 10 "$1/"); then bad "$2: GET / failed"; return; fi
  if printf '%s' "$page" | grep -qi 'not installed' || ! printf '%s' "$page" | grep -qi '<html'; then
    bad "$2: GET / is not the web client: $(printf '%s' "$page" | head -c 200)"; return
  fi
  asset=$(printf '%s' "$page" | grep -o '/assets/[^"]*\.js' | head -1)
  [ -n "$asset" ] || { bad "$2: the served index.html names no script under /assets/"; return; }
  ok "$2: GET / is the web client ($(printf '%s' "$page" | wc -c) bytes, names $asset)"
  local size
  if size=$(curl -fsS --max-time 10 "$1$asset" | wc -c) && [ "$size" -gt 1000 ]; then
    ok "$2: GET $asset: $size bytes of JavaScript"
  else
    bad "$2: GET $asset failed or is empty"
  fi
}

# ---- a. a fresh Debian 12 runs scripts/server.sh ----
fresh() {
  say "a. fresh debian:12: the repository at HEAD, scripts/server.sh --port N as root"
  local src=$area/src name=casa-install-fresh-$$ port ta
  rm -rf "$src"; mkdir -p "$src"
  git archive --format=tar HEAD | tar -x -C "$src"
  port=$(free_port)
  names+=("$name")
  ta=$(date +%s)
  # Nice: the container's build shares the machine with whatever else runs.
  nice -n 10 "${podman[@]}" run -d --name "$name" "${limits[@]}" -p "127.0.0.1:$port:$port" \
    -v "$src:/src" "${caches[@]}" -w /src docker.io/library/debian:12 \
    bash -c "$keep_debs && exec scripts/server.sh --port $port" >/dev/null
  local http=http://127.0.0.1:$port up=0
  # A cold build (no compiler cache) takes long on two cores; a warm one minutes.
  for _ in $(seq 1 720); do
    if curl -fsS --max-time 2 "$http/healthz" >/dev/null 2>&1; then up=1; break; fi
    [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] || break
    sleep 5
  done
  "${podman[@]}" logs "$name" >"$area/fresh.log" 2>&1 || true
  if [ "$up" = 1 ]; then
    ok "scripts/server.sh installed, built and serves /healthz after $(( $(date +%s) - ta )) s (log: $area/fresh.log)"
    grep -q "for development" "$area/fresh.log" && ok "it says it is the development path: $(grep 'for development' "$area/fresh.log")" \
      || bad "server.sh did not say that it is the development path"
    "${podman[@]}" exec "$name" sh -c 'echo "node $(node --version), npm $(npm --version)"; test -x build/clients/cli/casa && echo "casa built"' \
      | while read -r l; do ok "$l"; done
    "${podman[@]}" exec "$name" test -x build/clients/cli/casa || bad "server.sh did not build the casa client"
    check_page "$http" "fresh"
  else
    tail -40 "$area/fresh.log"
    bad "scripts/server.sh never served /healthz (log: $area/fresh.log)"
  fi
  "${podman[@]}" rm -f -t 0 "$name" >/dev/null 2>&1 || true
  # The container's build tree (1.4 GB) is made again from HEAD on every run: the
  # disk is given back before the next test needs it.
  rm -rf "$src"
  say "a. fresh debian:12: $(( $(date +%s) - ta )) s"
}

# ---- b. the Debian package, as a systemd service ----
unit_image=localhost/casa-install-systemd:12
package() {
  say "b. the Debian package in debian:12 with systemd as PID 1"
  local deb tb name=casa-install-pkg-$$ port
  deb=${CASA_DEB:-$(ls -t build-release/casa-server_*.deb 2>/dev/null | head -1 || true)}
  [ -n "$deb" ] || { bad "no build-release/casa-server_*.deb: scripts/test.sh builds it (Release, cpack -G DEB)"; return; }
  ok "package $(basename "$deb") ($(( $(stat -c %s "$deb") / 1000 )) kB): $(dpkg-deb -f "$deb" Depends)"
  tb=$(date +%s)
  if [ "${CASA_IMAGE_BASE_REBUILD:-0}" = 1 ] || ! "${podman[@]}" image exists "$unit_image"; then
    # debian:12 with systemd and curl, nothing of the project.
    "${podman[@]}" rm -f -t 0 casa-install-mk-$$ >/dev/null 2>&1 || true
    nice -n 10 "${podman[@]}" run --name casa-install-mk-$$ "${limits[@]}" "${caches[@]}" docker.io/library/debian:12 \
      bash -c "$keep_debs && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd systemd-sysv dbus curl ca-certificates >/dev/null && rm -rf /var/lib/apt/lists/*" \
      >"$area/unit-image.log" 2>&1 || { tail -20 "$area/unit-image.log"; bad "could not make $unit_image"; return; }
    "${podman[@]}" commit --quiet --change 'CMD ["/sbin/init"]' casa-install-mk-$$ "$unit_image" >/dev/null
    "${podman[@]}" rm casa-install-mk-$$ >/dev/null
    ok "made $unit_image (debian:12 + systemd) in $(( $(date +%s) - tb )) s"
  fi
  port=$(free_port)
  names+=("$name")
  mkdir -p "$area/pkg"; rm -f "$area/pkg"/*.deb; cp "$deb" "$area/pkg/"
  "${podman[@]}" run -d --systemd=always --name "$name" "${limits[@]}" -p "127.0.0.1:$port:8080" \
    -v "$area/pkg:/pkg:ro" -v "$area/apt:/var/cache/apt/archives" "$unit_image" /sbin/init >/dev/null
  local state=""
  for _ in $(seq 1 60); do
    state=$("${podman[@]}" exec "$name" systemctl is-system-running 2>/dev/null || true)
    case "$state" in running|degraded) break ;; esac
    sleep 1
  done
  case "$state" in
    running|degraded) ok "systemd is PID 1 in the container (system state: $state)" ;;
    *) "${podman[@]}" logs "$name" 2>&1 | tail -20; bad "systemd did not boot in the container (state: ${state:-none})"; return ;;
  esac
  if "${podman[@]}" exec "$name" bash -c "$keep_debs && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /pkg/$(basename "$deb")" \
       >"$area/package-install.log" 2>&1; then
    ok "apt-get install ./$(basename "$deb") (its dependencies from Debian's archive)"
  else
    tail -30 "$area/package-install.log"; bad "apt-get install of the package failed (log: $area/package-install.log)"; return
  fi
  local active=""
  for _ in $(seq 1 30); do
    active=$("${podman[@]}" exec "$name" systemctl is-active casa.service || true)
    [ "$active" = active ] && break
    sleep 1
  done
  [ "$active" = active ] && ok "casa.service is enabled and active: $("${podman[@]}" exec "$name" systemctl is-enabled casa.service)" \
    || { "${podman[@]}" exec "$name" journalctl -u casa.service --no-pager | tail -20; bad "casa.service is $active"; }
  local http=http://127.0.0.1:$port body
  for _ in $(seq 1 50); do body=$(curl -fsS --max-time 2 "$http/healthz" 2>/dev/null) && break; sleep 0.2; done
  [ -n "${body:-}" ] && ok "/healthz: $body" || bad "/healthz does not answer"
  check_page "$http" "package"
  local pid user
  pid=$("${podman[@]}" exec "$name" systemctl show -p MainPID --value casa.service)
  user=$("${podman[@]}" exec "$name" bash -c "getent passwd \$(awk '/^Uid:/ {print \$2}' /proc/$pid/status) | cut -d: -f1")
  [ "$user" = casa ] && ok "casa-server (pid $pid) runs as user casa" || bad "casa-server runs as '$user'"
  # The store's checkpoint thread runs at SCHED_IDLE (policy 5), which RestrictRealtime allows.
  # (Field 41 of a thread's stat is its policy; comm, field 2, is cut off first.)
  local policies
  policies=$("${podman[@]}" exec "$name" bash -c "for t in /proc/$pid/task/*; do sed 's/^.*) //' \$t/stat | cut -d' ' -f39; done" | tr '\n' ' ')
  case " $policies" in
    *" 5 "*) ok "a thread runs at SCHED_IDLE under RestrictRealtime=yes (thread policies: $policies)" ;;
    *) bad "no thread at SCHED_IDLE (thread policies: $policies)" ;;
  esac
  local db
  db=$("${podman[@]}" exec "$name" stat -c '%U %a %n' /var/lib/casa /var/lib/casa/casa.db 2>&1 | tr '\n' ';')
  if printf '%s' "$db" | grep -q '^casa 700 /var/lib/casa;casa 600 /var/lib/casa/casa.db;$'; then
    ok "database not world-readable: $db"
  else
    bad "database owner/mode: $db"
  fi
  # A whole game through the service: the moves are committed under the sandbox.
  local game
  if game=$("${podman[@]}" exec "$name" timeout 180 casa play --url ws://127.0.0.1:8080/ws --game la-casa --players 1 \
       --options '{"format":"solo"}' --fill robot --bot random --seed 11 </dev/null 2>"$area/casa-play.err") \
     && printf '%s' "$game" | grep -q '"scores"'; then
    ok "a La Casa Solo game played to its end on the service: $game"
  else
    bad "casa play on the service failed: $(tail -3 "$area/casa-play.err")"
  fi
  local v
  if v=$("${podman[@]}" exec "$name" casa-server --version 2>&1); then ok "casa-server --version: $v"; else bad "casa-server --version: $(printf '%s' "$v" | head -1)"; fi
  "${podman[@]}" exec "$name" systemd-analyze security casa.service --no-pager >"$area/security.txt" 2>&1 \
    && ok "systemd-analyze security: $(grep -i 'overall exposure' "$area/security.txt" | sed 's/^ *//')" \
    || bad "systemd-analyze security failed: $(tail -3 "$area/security.txt")"
  if "${podman[@]}" exec "$name" bash -c 'DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq casa-server' >"$area/package-purge.log" 2>&1; then
    local left
    left=$("${podman[@]}" exec "$name" bash -c 'getent passwd casa; getent group casa; ls -d /var/lib/casa /etc/casa 2>/dev/null; systemctl is-active casa.service 2>/dev/null' || true)
    [ "$left" = inactive ] && ok "apt-get purge: service stopped, user, group, /var/lib/casa and /etc/casa removed" \
      || bad "after purge: $(printf '%s' "$left" | tr '\n' ' ')"
  else
    bad "apt-get purge failed (log: $area/package-purge.log)"
  fi
  "${podman[@]}" rm -f -t 0 "$name" >/dev/null 2>&1 || true
  say "b. the package: $(( $(date +%s) - tb )) s"
}

for p in "${parts[@]}"; do
  case "$p" in fresh) fresh ;; package) package ;; *) die "unknown part $p (fresh, package)" ;; esac
done
elapsed=$(( $(date +%s) - t0 ))
if [ "$fail" = 0 ]; then say "install tests: every check passed in $elapsed s"; else say "install tests: some checks FAILED ($elapsed s)"; fi
exit "$fail"
