#!/bin/sh
# SPDX-License-Identifier: AGPL-3.0-or-later
# io_uring_refused.sh WITHOUT_IO_URING CASA_SERVER: casa-server (an io_uring
# build) run where io_uring_setup fails with EPERM exits with status 1 and a
# message naming io_uring, having created no database.
without="$1"
server="$2"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
timeout 20 "$without" "$server" --address 127.0.0.1 --port 0 --db "$dir/casa.db" >"$dir/out" 2>&1 || status=$?
cat "$dir/out"
fail() { echo "FAIL: $*"; exit 1; }
[ "$status" -eq 1 ] || fail "exit status $status, expected 1"
grep -q "refused io_uring_setup: Operation not permitted" "$dir/out" || fail "no message about io_uring_setup"
grep -q "without -DCASA_IO_URING=ON" "$dir/out" || fail "the message does not say what to run instead"
[ ! -e "$dir/casa.db" ] || fail "the database was created before the check"
# What needs no event loop still works there: --help.
"$without" "$server" --help >/dev/null || fail "--help failed without io_uring"
echo "ok: refused io_uring_setup is reported at start"
