#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds the release binaries exactly as the image's build stage does.
#   docker/build.sh [SOURCE_DIR] [BUILD_DIR]     (defaults: . and build-release)
# CASA_JOBS sets the parallelism (default: every core).
set -euo pipefail
src=${1:-.}
build=${2:-build-release}
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASA_WERROR=OFF
cmake --build "$build" -j"${CASA_JOBS:-$(nproc)}" --target casa-server casa
