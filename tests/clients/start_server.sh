# SPDX-License-Identifier: AGPL-3.0-or-later
# Sourced by the end-to-end client tests: start_server runs $server_bin on an
# ephemeral loopback port with a database in $tmp, sets $server (its pid),
# $port and $url, and exits 1 with the server's log when it does not start.
start_server() {
  # Emptied here, before the server starts: a restart must not find the port
  # the previous run wrote (the server's own redirection empties the file only
  # once its process runs, which may come after the first look below).
  : >"$tmp/server.log"
  "$server_bin" --port 0 --address 127.0.0.1 --db "$tmp/casa.db" --log-level info --testing \
    --players-per-address-per-hour 1000000 >"$tmp/server.log" 2>&1 &
  server=$!
  port=
  for _ in $(seq 1 100); do
    port=$(grep -o 'listening on port [0-9]*' "$tmp/server.log" | grep -o '[0-9]*$' | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$tmp/server.log"; echo "FAIL: the server did not start"; exit 1; }
  url="ws://127.0.0.1:$port/ws"
}
