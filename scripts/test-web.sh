#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds and tests the browser client (clients/web): installs Chromium, Node.js and
# the wasm toolchain when missing (Node.js 20 for the test tools, see scripts/deps.sh
# web), the replay checks' and the review's WebAssembly modules (scripts/build-wasm.sh), npm ci, type
# check and build, the first-load size budget, the unit tests (Vitest), then the
# end-to-end tests in Debian's Chromium against a real casa-server that they start
# on a free loopback port with a temporary database.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/deps.sh web
# On a Node.js older than 20 (Debian 12's is 18), deps.sh put Node.js 20 here.
if [ -x .cache/node20/node_modules/.bin/node ] &&
  ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
  export PATH="$PWD/.cache/node20/node_modules/.bin:$PATH"
fi
echo "Node.js $(node --version), npm $(npm --version)"
# casa-server to play against, and casa, whose review the page's is compared with.
if [ ! -x build/server/casa-server ] || [ ! -x build/clients/cli/casa ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j"$(nproc)" --target casa-server casa
fi
scripts/build-wasm.sh
cd clients/web
npm ci --no-audit --no-fund --loglevel=error
npm run build
node scripts/size.mjs
npx vitest run
CASA_SERVER_BIN="$PWD/../../build/server/casa-server" node e2e/run.mjs
CASA_SERVER_BIN="$PWD/../../build/server/casa-server" node e2e/passkeys.mjs
echo "web client tests: $(($(date +%s) - start)) s"
