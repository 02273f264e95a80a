#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# The developer path: installs the Debian packages that are missing (Node.js and npm
# too), builds what is stale (casa-server, the casa client, the browser client) and
# runs the server in the foreground as the current user (default: port 8080,
# database ./casa.db, the web client at http://localhost:8080/). Stops with an error
# when the web client cannot be built. A host that keeps a server running installs
# the Debian package instead, a systemd service under its own user (docs/self-hosting.md).
# Extra arguments go to casa-server, e.g. scripts/server.sh --port 9000.
set -euo pipefail
cd "$(dirname "$0")/.."
# The server's packages, Node.js and npm, and the wasm toolchain for the web client's
# WebAssembly module (scripts/build-web.sh).
scripts/deps.sh node wasm
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target casa-server casa
scripts/build-web.sh
echo "server.sh: casa-server in the foreground as $(id -un), for development (Ctrl-C stops it); to host a server, install it as a service: docs/self-hosting.md"
exec build/server/casa-server "$@"
