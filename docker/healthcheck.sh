#!/bin/sh
# SPDX-License-Identifier: AGPL-3.0-or-later
# The image's HEALTHCHECK: GET /healthz on the local server, over https when the
# server runs with a certificate (it then serves TLS only).
port=${CASA_PORT:-8080}
if [ -n "${CASA_TLS_CERT:-}" ]; then
  exec curl -fsSk --max-time 4 "https://127.0.0.1:${port}/healthz" -o /dev/null
fi
exec curl -fsS --max-time 4 "http://127.0.0.1:${port}/healthz" -o /dev/null
