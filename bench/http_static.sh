#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Serving the web client: requests per second for a hashed asset (gzip and
# identity), a client route (index.html) and GET /api/games, one keep-alive
# connection, from a temporary web directory holding FILE (default: a ~100 KB
# minified JavaScript file) and its gzip -9 form.
#   bench/http_static.sh [build/server/casa-server] [FILE] [REQUESTS]
set -euo pipefail
server=${1:-build/server/casa-server}
file=${2:-/usr/lib/node_modules/npm/node_modules/tar/dist/commonjs/index.min.js}
n=${3:-2000}
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
mkdir -p "$dir/web/assets"
cp "$file" "$dir/web/assets/app-1.js"
gzip -9 -k "$dir/web/assets/app-1.js"
echo '<!doctype html><script type=module src=/assets/app-1.js></script>' > "$dir/web/index.html"
port=$((20000 + RANDOM % 20000))
"$server" --address 127.0.0.1 --port "$port" --db "$dir/casa.db" --web-dir "$dir/web" --log-level warn &
pid=$!
sleep 1
ls -l "$dir/web/assets"
python3 - "$port" "$n" <<'PY'
import http.client, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
def run(path, headers):
    c = http.client.HTTPConnection('127.0.0.1', port)
    t = time.perf_counter(); total = 0
    for _ in range(n):
        c.request('GET', path, headers=headers); r = c.getresponse(); total += len(r.read())
    dt = time.perf_counter() - t
    enc = headers.get('Accept-Encoding', 'identity')
    print(f"{path:18} {enc:9} {n/dt:7.0f} req/s {total/dt/1e6:7.1f} MB/s {dt/n*1e6:5.0f} us/request")
run('/assets/app-1.js', {'Accept-Encoding': 'gzip'})
run('/assets/app-1.js', {})
run('/join/ABC', {'Accept-Encoding': 'gzip'})
run('/api/games', {})
PY
