#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# The Docker image, proven with podman as root on a Debian 12 host that reaches
# Debian's archive but no image registry:
#  1. makes the debian:12 and debian:12-slim base images from Debian packages
#     (mmdebstrap, the host's apt sources), unless podman already has them;
#  2. builds the Dockerfile in Docker format (HEALTHCHECK kept), the compiler cache
#     in build-image/ccache; checks the image's HEALTHCHECK, user, size over
#     debian:12-slim and docker/runtime-packages.txt against `ldd`;
#  3. runs it as docs/self-hosting.md says (-p, a named volume on /data), checks
#     /healthz, the HEALTHCHECK, the non-root process; plays a La Casa game and a
#     Solo game through the published port with the casa client;
#  4. kill -9 mid-game, restart on the same volume: the game resumes and every move
#     the client saw acknowledged is in the replay;
#  5. upgrade: an image rebuilt after a small source change replaces the container
#     on the same volume; the finished games' replays are served unchanged;
#  6. validates docker/compose.yaml (+ the TLS overlay) and docker/compose.cluster.yaml
#     against the Compose schema, and docker/haproxy.cfg with `haproxy -c` when installed.
# Prints the figures (times, sizes) and its elapsed time; exits non-zero on failure.
#   scripts/test-image.sh            (uses build/clients/cli/casa, built if missing)
# CASA_IMAGE_BASE_REBUILD=1 makes the base images again even if podman has them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
t0=$(date +%s)
area=$root/build-image          # ccache, logs, upgrade context (ignored by .dockerignore)
mkdir -p "$area/ccache"
fail=0
say() { printf '== [%4ds] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
ok() { printf '  ok   %s\n' "$*"; }
bad() { printf '  FAIL %s\n' "$*"; fail=1; }
die() { printf '  FAIL %s\n' "$*"; exit 1; }

scripts/deps.sh
scripts/deps.sh image

. scripts/podman-env.sh
say "podman $(podman version --format '{{.Client.Version}}'), options: ${podman[*]:1} ${limits[*]}"

# ---- 1. base images from Debian packages ----
say "1. base images debian:12, debian:12-slim"
debian_base_images "$area"

# ---- 2. the image ----
# The labels: the version of CMakeLists.txt's project(), the commit, the origin.
version=$(sed -n 's/^project([^)]*VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
source_url=$(git remote get-url origin 2>/dev/null || echo unknown)
build() {  # build CONTEXT TAG LOG
  # --format docker keeps HEALTHCHECK; --pull=never: the base images are local.
  nice -n 10 "${podman[@]}" build --format docker --pull=never "${limits[@]}" \
    --build-arg CASA_VERSION="$version" --build-arg CASA_REVISION="$revision" --build-arg CASA_SOURCE="$source_url" \
    -v "$area/ccache:/ccache" --build-arg CCACHE_DIR=/ccache \
    -v /etc/ssl/certs/ca-certificates.crt:/host-ca.pem:ro --build-arg NPM_CAFILE=/host-ca.pem \
    -f "$root/Dockerfile" -t "$2" "$1" >"$3" 2>&1
}
say "2. podman build --format docker -t casa-server:test ."
tb=$(date +%s)
build "$root" casa-server:test "$area/build.log" || { tail -40 "$area/build.log"; die "the image build failed (log: $area/build.log)"; }
build_s=$(( $(date +%s) - tb ))
ok "built in $build_s s"

inspect() { "${podman[@]}" image inspect "$1"; }
inspect casa-server:test | python3 -c '
import json, sys
img = json.load(sys.stdin)[0]
hc = img.get("Healthcheck") or img.get("HealthCheck") or (img.get("Config") or {}).get("Healthcheck")
cfg = img["Config"]
assert hc and hc.get("Test") == ["CMD", "casa-healthcheck"], f"no HEALTHCHECK in the image: {hc}"
assert hc.get("Interval") == 30 * 10**9 and hc.get("Retries") == 3, hc
assert cfg.get("User") == "casa", cfg.get("User")
assert cfg.get("Entrypoint") == ["casa-server"], cfg.get("Entrypoint")
assert "/data" in (cfg.get("Volumes") or {}), cfg.get("Volumes")
assert "8080/tcp" in (cfg.get("ExposedPorts") or {}), cfg.get("ExposedPorts")
print("  ok   HEALTHCHECK", hc["Test"], "interval 30s, retries 3; USER casa; VOLUME /data; EXPOSE 8080")
' || bad "the image's configuration (HEALTHCHECK, USER, VOLUME, EXPOSE)"
inspect casa-server:test | python3 -c '
import json, sys
labels = json.load(sys.stdin)[0]["Config"].get("Labels") or {}
want = {"title": "casa-server", "version": sys.argv[1], "revision": sys.argv[2], "source": sys.argv[3],
        "licenses": "AGPL-3.0-or-later"}
for key, value in want.items():
    got = labels.get("org.opencontainers.image." + key)
    assert got == value, f"label org.opencontainers.image.{key} is {got!r}, not {value!r}"
assert labels.get("org.opencontainers.image.description"), "no description label"
print("  ok   OCI labels:", ", ".join(k + "=" + want[k] for k in want))
' "$version" "$revision" "$source_url" || bad "the image's OCI labels"

# Size over debian:12-slim, layer by layer.
slim_size=$(inspect docker.io/library/debian:12-slim | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Size"])')
image_size=$(inspect casa-server:test | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Size"])')
added=$(( image_size - slim_size ))
"${podman[@]}" history --format '{{.Size}}\t{{.CreatedBy}}' casa-server:test | cut -c1-150 >"$area/history.txt"
ok "size: debian:12-slim $((slim_size / 1000000)) MB, image $((image_size / 1000000)) MB, added $((added / 1000000)) MB (target < 80 MB); layers:"
sed 's/^/         /' "$area/history.txt"
# 80 MB: ICU (libicu72, about 36 MB with its data), which account handles need for
# their Unicode confusable skeletons, is most of what the server adds.
[ "$added" -lt 80000000 ] || bad "the project adds $((added / 1000000)) MB over debian:12-slim (target < 80 MB)"

# docker/runtime-packages.txt: its libraries are exactly what `ldd` of the binaries
# finds beyond debian:12-slim; its tools are the ones the image uses.
"${podman[@]}" run --rm "${limits[@]}" --no-healthcheck --user root --entrypoint sh casa-server:test -c '
  for lib in $(ldd /usr/local/bin/casa-server /usr/local/bin/casa | awk "\$3 ~ /^\\// {print \$3}" | sort -u); do
    real=$(readlink -f "$lib")
    for p in "$lib" "$real" "/usr$lib" "/usr$real" "${lib#/usr}" "${real#/usr}"; do
      o=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$o" ] && { echo "$o"; break; }
    done
  done | sort -u
  ldd /usr/local/bin/casa-server /usr/local/bin/casa | grep "not found" | sed "s/^/missing /" || true' \
  >"$area/needed-all.txt" || bad "ldd inside the image failed"
grep '^missing' "$area/needed-all.txt" && bad "unresolved libraries in the image"
grep -v '^missing' "$area/needed-all.txt" >"$area/needed.txt" || true
"${podman[@]}" run --rm "${limits[@]}" --no-healthcheck --entrypoint dpkg-query docker.io/library/debian:12-slim \
  -W -f '${Package}\n' | sed 's/:.*//' | sort -u >"$area/slim-packages.txt"
grep -v '^#' docker/runtime-packages.txt | grep -v '#tool' | awk 'NF {print $1}' | sort -u >"$area/listed-libs.txt"
comm -23 "$area/needed.txt" "$area/slim-packages.txt" >"$area/needed-beyond-slim.txt"
if diff -u "$area/needed-beyond-slim.txt" "$area/listed-libs.txt" >"$area/runtime-diff.txt"; then
  ok "runtime-packages.txt libraries = ldd beyond debian:12-slim: $(tr '\n' ' ' <"$area/listed-libs.txt")"
else
  bad "docker/runtime-packages.txt (+) differs from what ldd needs beyond debian:12-slim (-):"; cat "$area/runtime-diff.txt"
fi
for tool in $(grep -E "^[a-z0-9].*#tool" docker/runtime-packages.txt | awk '{print $1}'); do
  "${podman[@]}" run --rm "${limits[@]}" --no-healthcheck --entrypoint dpkg-query casa-server:test -W "$tool" >/dev/null 2>&1 \
    && ok "tool package $tool installed" || bad "tool package $tool missing from the image"
done

# ---- 3. run it as documented ----
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
name=casa-test-$$
volume=casa-test-data-$$
url="ws://127.0.0.1:$port/ws"
http="http://127.0.0.1:$port"
cleanup() {
  "${podman[@]}" rm -f -t 0 "$name" >/dev/null 2>&1 || true
  "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT
start_container() {  # start_container IMAGE
  # Without systemd podman cannot schedule the HEALTHCHECK timer and says so on
  # stderr (kept in podman.err); `podman healthcheck run` below runs the check.
  "${podman[@]}" run -d --name "$name" "${limits[@]}" -p "127.0.0.1:$port:8080" -v "$volume:/data" \
    -e CASA_LOG_LEVEL=info "$1" >/dev/null 2>>"$area/podman.err"
}
wait_healthz() {
  for _ in $(seq 1 100); do
    curl -fsS --max-time 2 "$http/healthz" 2>/dev/null && return 0
    sleep 0.2
  done
  "${podman[@]}" logs "$name" | tail -20
  return 1
}
say "3. podman run -d -p 127.0.0.1:$port:8080 -v $volume:/data casa-server:test"
"${podman[@]}" volume create "$volume" >/dev/null
start_container casa-server:test
body=$(wait_healthz) && ok "/healthz: $body" || die "/healthz never answered"
printf '%s' "$body" | grep -q '"status":"ok"' || bad "/healthz says $body"
if "${podman[@]}" healthcheck run "$name"; then
  status=$("${podman[@]}" inspect --format '{{.State.Health.Status}}' "$name" 2>/dev/null || echo ?)
  [ "$status" = healthy ] && ok "HEALTHCHECK: healthy" || bad "HEALTHCHECK status: $status"
else
  bad "the HEALTHCHECK command failed"
fi
uid=$("${podman[@]}" exec "$name" sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status; cat /proc/1/comm' | tr '\n' ' ')
[ "$uid" = "10001 casa-server " ] && ok "pid 1 is casa-server as uid 10001 (casa)" || bad "pid 1: uid/comm $uid"

if [ -f clients/web/package.json ]; then
  # The web client built by the image's web stage, served by the container at /.
  "${podman[@]}" exec "$name" test -f /usr/share/casa/web/index.html \
    && ok "the web client is in the image (/usr/share/casa/web)" || bad "no web client in the image"
  curl -fsS "$http/" | grep -qi '<html' && ok "GET / serves the web client" || bad "GET / does not serve the web client"
fi

casa=build/clients/cli/casa
[ -x "$casa" ] || { cmake -S . -B build -G Ninja >/dev/null && nice -n 5 cmake --build build --target casa >/dev/null; }
export CASA_TOKEN_FILE=$area/token
rm -f "$CASA_TOKEN_FILE"
finished=()
play() {  # play LABEL PLAYERS OPTIONS
  local out
  if out=$(timeout 180 "$casa" play --url "$url" --game la-casa --players "$2" --options "$3" \
             --fill robot --bot random --seed 11 </dev/null 2>"$area/casa.err"); then
    local t; t=$(printf '%s' "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert len(r["scores"])=='"$2"'; print(r["table"])') \
      && { ok "$1: $out"; finished+=("$t"); } || bad "$1: unexpected result $out"
  else
    bad "$1: casa failed: $(cat "$area/casa.err")"
  fi
}
play "La Casa (4 players, challenges)" 4 '{"format":"challenges","target":3}'
play "La Casa Solo" 1 '{"format":"solo"}'

# ---- 4. kill -9 mid-game, restart on the same volume ----
say "4. kill -9 mid-game, podman start on the same volume"
acked=$area/acked.jsonl
rm -f "$acked"
python3 docker/acked-play.py --url "$url" --game la-casa --players 4 \
  --options '{"format":"challenges","target":3}' --acked "$acked" --delay 0.1 \
  >"$area/acked.out" 2>"$area/acked.err" &
player=$!
acked_moves() { local n; n=$(grep -c '"accepted"' "$acked" 2>/dev/null) || true; echo "${n:-0}"; }
for _ in $(seq 1 300); do
  [ "$(acked_moves)" -ge 8 ] && break
  sleep 0.1
done
before=$(acked_moves)
[ "$before" -ge 1 ] || bad "no move acknowledged before the kill"
"${podman[@]}" kill -s KILL "$name" >/dev/null
state=$("${podman[@]}" inspect --format '{{.State.Status}} {{.State.ExitCode}}' "$name")
ok "killed with SIGKILL after $before acknowledged moves of ours (state: $state)"
sleep 1
"${podman[@]}" start "$name" >/dev/null 2>>"$area/podman.err"
wait_healthz >/dev/null && ok "started again" || bad "no /healthz after the restart"
if wait "$player"; then
  ok "the game went on to its end: $(cat "$area/acked.out")"
  table=$(head -1 "$acked" | python3 -c 'import json,sys; print(json.load(sys.stdin)["table"])')
  curl -fsS "$http/api/games/$table" >"$area/replay-killed.json" || bad "no replay for $table"
  python3 - "$acked" "$area/replay-killed.json" "$before" <<'PY' && finished+=("$table") || bad "acknowledged moves missing from the replay"
import json, sys
acked = [json.loads(l) for l in open(sys.argv[1])][1:]
replay = json.load(open(sys.argv[2]))
log = {e["seq"]: e for e in replay["log"]}
assert sorted(log) == list(range(1, len(log) + 1)), "the replay log has gaps"
moves = [a for a in acked if a["kind"] == "accepted"]
events = {a["seq"] for a in acked if a["kind"] == "event"}
assert len(moves) > int(sys.argv[3]), "no move of ours after the restart"
for a in moves:
    e = log.get(a["seq"])
    assert e is not None, f"acknowledged move at seq {a['seq']} is not in the replay"
    assert e["seat"] == 0 and e["action"] == a["action"], f"seq {a['seq']}: acknowledged {a['action']}, replay {e}"
missing = sorted(s for s in events if s not in log)
assert not missing, f"events seen at seqs {missing[:5]} are not in the replay"
print(f"  ok   all {len(moves)} acknowledged moves of ours ({sys.argv[3]} before the kill) and "
      f"{len(events)} seqs of events seen are in the replay (log of {len(log)} moves)")
PY
else
  bad "the game did not finish after the restart: $(tail -5 "$area/acked.err")"
fi
cat "$area/acked.err" | sed 's/^/         /'

# ---- 5. upgrade: a freshly built image on the same volume ----
say "5. upgrade: rebuild after a small source change, replace the container, same volume"
for t in "${finished[@]}"; do curl -fsS "$http/api/games/$t" >"$area/replay-$t.before.json" || bad "no replay for $t"; done
ctx=$area/upgrade-context
rm -rf "$ctx"; mkdir -p "$ctx"
git ls-files -z --cached --others --exclude-standard | tar -c --null -T - --ignore-failed-read 2>/dev/null | tar -x -C "$ctx"
note="casa-image-rebuild-$(date -u +%Y%m%dT%H%M%S)"
printf '\nnamespace { [[gnu::used]] const char image_rebuild_note[] = "%s"; }\n' "$note" >>"$ctx/server/app/main.cpp"
CCACHE_DIR=$area/ccache ccache -z >/dev/null 2>&1 || true
tb=$(date +%s)
if build "$ctx" casa-server:upgrade "$area/build-upgrade.log"; then
  rebuild_s=$(( $(date +%s) - tb ))
  ok "rebuilt in $rebuild_s s (compiler cache:$(CCACHE_DIR=$area/ccache ccache -s 2>/dev/null | grep -E '^ *(Hits|Misses):' | tr -s ' ' | tr '\n' ';'))"
  old_id=$(inspect casa-server:test | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Id"])')
  new_id=$(inspect casa-server:upgrade | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Id"])')
  [ "$old_id" != "$new_id" ] && ok "a new image ${new_id:0:12} (was ${old_id:0:12})" || bad "the rebuild gave the same image"
  "${podman[@]}" stop -t 20 "$name" >/dev/null
  "${podman[@]}" rm "$name" >/dev/null
  start_container casa-server:upgrade
  wait_healthz >/dev/null && ok "the new container answers /healthz" || bad "the upgraded container never answered"
  "${podman[@]}" exec "$name" grep -q "$note" /usr/local/bin/casa-server \
    && ok "and runs the rebuilt casa-server" || bad "the container does not run the rebuilt binary"
  for t in "${finished[@]}"; do
    if curl -fsS "$http/api/games/$t" >"$area/replay-$t.after.json" \
       && cmp -s "$area/replay-$t.before.json" "$area/replay-$t.after.json"; then
      ok "replay of $t served unchanged after the upgrade"
    else
      bad "replay of $t lost or changed by the upgrade"
    fi
  done
  [ "${#finished[@]}" -ge 3 ] || bad "only ${#finished[@]} finished games to check"
else
  tail -40 "$area/build-upgrade.log"; bad "the upgrade build failed (log: $area/build-upgrade.log)"
fi
rm -rf "$ctx"

# ---- 6. compose files ----
say "6. docker/compose.yaml against the Compose schema"
docker/check-compose.py docker/compose.yaml docker/compose.tls.yaml docker/compose.cluster.yaml | sed 's/^/  ok   /' \
  || bad "a compose file is invalid"
if command -v haproxy >/dev/null; then
  # The node names resolve only inside compose: loopback stand-ins for the check.
  CASA_NODE1=127.0.0.1:1 CASA_NODE2=127.0.0.1:2 CASA_NODE3=127.0.0.1:3 haproxy -c -q -f docker/haproxy.cfg \
    && ok "docker/haproxy.cfg (haproxy -c)" || bad "docker/haproxy.cfg is invalid"
fi
sed 's/^\(    \)restart:/\1restrat:/' docker/compose.yaml >"$area/compose-typo.yaml"
if docker/check-compose.py "$area/compose-typo.yaml" >/dev/null; then
  bad "the compose check accepts a misspelt key"
else
  ok "and it rejects a misspelt key"
fi

elapsed=$(( $(date +%s) - t0 ))
say "image phase: ${elapsed} s (first build ${build_s} s, rebuild ${rebuild_s:-?} s)"
if [ "$fail" = 0 ]; then say "image phase: every check passed"; else say "image phase: some checks FAILED"; fi
exit "$fail"
