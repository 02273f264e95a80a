#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds the replay checks of `casa verify` with the rules engine (verify/) and the
# game review of `casa review` with the strong bot (review/) to WebAssembly, for the
# web client's replay page: clients/web/src/wasm/casa-verify.wasm and
# casa-review.wasm, which the web build bundles (the review's only when a player
# asks for a review). Debian's clang 14 for wasm32-wasi (scripts/deps.sh
# wasm installs it), in build-wasm/, through ccache like the native build. Only
# what is stale is rebuilt; the file is replaced only when its bytes change.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++-14 >/dev/null || [ ! -f /usr/lib/wasm32-wasi/libc.a ] ||
  [ ! -d /usr/lib/llvm-14/include/wasm32-wasi/c++ ]; then
  echo "build-wasm: clang 14 for wasm32-wasi is missing; scripts/deps.sh wasm installs it" >&2
  exit 1
fi
cmake --no-warn-unused-cli -S . -B build-wasm -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/wasm32-wasi.cmake -DCASA_WASM=ON \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm -j"${CASA_JOBS:-$(nproc)}" --target casa_verify_wasm casa_review_wasm
mkdir -p clients/web/src/wasm
cmp -s build-wasm/verify/casa-verify.wasm clients/web/src/wasm/casa-verify.wasm ||
  cp build-wasm/verify/casa-verify.wasm clients/web/src/wasm/casa-verify.wasm
cmp -s build-wasm/review/casa-review.wasm clients/web/src/wasm/casa-review.wasm ||
  cp build-wasm/review/casa-review.wasm clients/web/src/wasm/casa-review.wasm
