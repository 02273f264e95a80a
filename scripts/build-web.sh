#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds the browser client into clients/web/dist (which casa-server serves) when
# any of its sources (or a protocol schema, its message types come from them) is
# newer than the last build. Needs Node.js 18 or newer (Debian
# 12's) and npm (scripts/deps.sh node), and for the replay checks' WebAssembly module
# (scripts/build-wasm.sh, built first into clients/web/src/wasm/) clang 14 for
# wasm32-wasi (scripts/deps.sh wasm). Fails when it cannot build the page.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "build-web: Node.js or npm is missing (scripts/deps.sh node installs them): cannot build the web client" >&2
  exit 1
fi
scripts/build-wasm.sh
cd clients/web
stamp=dist/index.html
if [ -f "$stamp" ] && [ -z "$(find src index.html package-lock.json vite.config.ts scripts/gen-types.mjs ../../protocol/schemas -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error
npm run build --silent
