#!/usr/bin/env bash
# Installs the Debian packages the build needs, if any is missing. Safe to re-run.
#   scripts/deps.sh          what the server and its tests need
#   scripts/deps.sh fuzz     also clang and its runtimes, for the libFuzzer targets
#   scripts/deps.sh image    also podman (runc, overlay storage), mmdebstrap for base
#                            images made from Debian packages, and the compose schema
#                            check's tools, for scripts/test-image.sh
#   scripts/deps.sh web      also Chromium and a font for the web client's browser tests,
#                            and Node.js with npm when no node is installed
#   scripts/deps.sh charts   also matplotlib, for scripts/arena_chart.py (BENCHMARKS.md)
#   scripts/deps.sh bench    also valgrind (callgrind), strace and curl, for bench/counts.sh
#   scripts/deps.sh cluster  also PostgreSQL (server and pgbench), HAProxy, curl and
#                            util-linux (setpriv, to run PostgreSQL as a non-root user)
#                            for scripts/test-cluster.sh and bench/cluster.sh
set -euo pipefail
packages=(g++ cmake ninja-build ccache pkg-config libboost1.81-dev nlohmann-json3-dev
  libspdlog-dev doctest-dev libsqlite3-dev libssl-dev libpq-dev openssl python3)
if [ "${1:-}" = "fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi
if [ "${1:-}" = "image" ]; then
  packages+=(podman runc crun fuse-overlayfs slirp4netns uidmap containernetworking-plugins
    iptables mmdebstrap docker-compose python3-jsonschema python3-yaml curl)
fi
if [ "${1:-}" = "web" ]; then
  packages+=(chromium fonts-dejavu-core)
  # A node that is already there (for example a newer one) is kept.
  command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
fi
if [ "${1:-}" = "charts" ]; then packages+=(python3-matplotlib); fi
if [ "${1:-}" = "bench" ]; then packages+=(valgrind strace curl); fi
if [ "${1:-}" = "cluster" ]; then packages+=(postgresql postgresql-contrib haproxy curl util-linux); fi
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
