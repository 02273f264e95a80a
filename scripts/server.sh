#!/usr/bin/env bash
# Builds what is stale (the server and the browser client) and runs the server
# (default: port 8080, database ./casa.db, the web client at http://localhost:8080/).
# Extra arguments go to casa-server, e.g. scripts/server.sh --port 9000.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/deps.sh wasm  # the web client's WebAssembly module (scripts/build-web.sh)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target casa-server
scripts/build-web.sh
exec build/server/casa-server "$@"
