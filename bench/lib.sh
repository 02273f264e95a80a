# shellcheck shell=bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Sourced by the bench scripts.

# wait_healthz PORT [TRIES (5000)] [PAUSE (0.002 s)]: returns 0 as soon as
# GET /healthz on 127.0.0.1:PORT answers 2xx, 1 after TRIES tries.
wait_healthz() {
  local port="$1" tries="${2:-5000}" pause="${3:-0.002}"
  for _ in $(seq 1 "$tries"); do
    curl -sf -m 1 "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    sleep "$pause"
  done
  return 1
}
