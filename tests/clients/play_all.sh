#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# End to end: a real casa-server on an ephemeral port with a temp database; for
# every game the engine offers, `casa play --fill robot --bot random` must play a
# whole game, exit 0 and print one JSON line of scores, and `casa verify` must
# find the finished game honest (and a game whose stored seed was changed not);
# `casa review` must review it, the same from the table as from its saved replay
# file. Also the Python example
# bot, and the client's error exits. Exit 77 (ctest: skipped) when no game exists yet.
#   play_all.sh CASA_SERVER CASA CASA_SIM SOURCE_DIR
set -uo pipefail
server_bin=$1 casa=$2 sim=$3 src=$4
tmp=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

. "$(dirname "$0")/start_server.sh"
start_server
export CASA_TOKEN_FILE="$tmp/token"

# game, players, options: one line per game the suite plays; small targets keep
# each game short (every player count and format of the engines is covered).
played=0
bot_game=
first_table=
while read -r game players options; do
  # (stdin from /dev/null: both would otherwise read the list of games below.)
  if ! "$sim" play --game "$game" --players "$players" --options "$options" --no-views \
       </dev/null >/dev/null 2>&1; then
    echo "skip $game: the engine does not run it yet"
    continue
  fi
  out=$(timeout 120 "$casa" play --url "$url" --game "$game" --players "$players" \
        --options "$options" --fill robot --bot random --seed 7 </dev/null 2>"$tmp/casa.err")
  rc=$?
  lines=$(printf '%s\n' "$out" | sed '/^$/d' | wc -l)
  if [ "$rc" != 0 ]; then bad "$game: casa exited $rc: $(cat "$tmp/casa.err")"; continue; fi
  if [ "$lines" != 1 ]; then bad "$game: expected one line on stdout, got: $out"; continue; fi
  if ! printf '%s' "$out" | python3 -c "
import json, sys
r = json.load(sys.stdin)
assert r['game'] == '$game', r
assert len(r['scores']) == $players, r
assert all(isinstance(s, int) for s in r['scores']), r
assert isinstance(r['winners'], list), r
"; then bad "$game: bad scores line: $out"; continue; fi
  echo "ok   $game $players $options: $out"
  table=$(printf '%s' "$out" | python3 -c "import json,sys; print(json.load(sys.stdin)['table'])")
  verdict=$("$casa" verify "$table" --url "$url" 2>&1)
  rc=$?
  if [ "$rc" != 0 ] || ! printf '%s' "$verdict" | grep -q "^VERIFIED: table $table"; then
    bad "$game: casa verify $table exited $rc: $verdict"
  fi
  # The review, locally: fetched by table, and from the replay saved to a file.
  if ! "$casa" review "$table" --url "$url" --iterations 8 --json >"$tmp/review.json" 2>"$tmp/err"; then
    bad "$game: casa review $table: $(cat "$tmp/err")"
  elif ! python3 - "$tmp/review.json" "$game" "http://127.0.0.1:$port/api/tables/$table/replay" \
      "$tmp/replay.json" <<'PY'
import json, sys, urllib.request
review = json.load(open(sys.argv[1]))
assert review["game"] == sys.argv[2], review
assert review["iterations"] == 8, review
assert len(review["seats"]) == 1 and review["decisions"], review  # the one human seat
for d in review["decisions"]:
    assert d["verdict"] in ("forced", "best", "good", "inaccuracy", "mistake", "blunder"), d
open(sys.argv[4], "wb").write(urllib.request.urlopen(sys.argv[3]).read())
PY
  then
    bad "$game: casa review $table --json: $(head -c 400 "$tmp/review.json")"
  elif ! "$casa" review "$tmp/replay.json" --iterations 8 --json | cmp -s - "$tmp/review.json"; then
    bad "$game: casa review of the saved replay differs from the table's"
  fi
  [ -z "$first_table" ] && first_table=$table
  [ -z "$bot_game" ] && bot_game="$game $players $options"
  [ "$game $players" = "la-casa 4" ] && bot_game="$game $players $options"
  played=$((played + 1))
done <<'GAMES'
la-casa 1 {"format":"solo","rounds":2}
la-casa 2 {"format":"challenges","target":2}
la-casa 2 {"format":"domination","target":2}
la-casa 4 {"format":"challenges","target":2}
la-casa 4 {"format":"classic","target":2}
casino 2 {"target":5}
casino 3 {"target":5}
casino 4 {"partners":true,"target":5}
conference 4 {"hands":1}
trophy-case 3 {"target":8}
trophy-case 4 {"target":8}
trophy-case 5 {"target":8}
GAMES

# The token of the first game was saved and is sent again (same player).
[ -s "$CASA_TOKEN_FILE" ] || bad "no resume token saved"

# Errors: a clear message and a non-zero exit.
"$casa" play --url "$url" --game no-such-game --players 2 --bot first >/dev/null 2>"$tmp/err"
rc=$?
{ [ "$rc" = 1 ] && grep -q 'server error' "$tmp/err"; } || bad "unknown game: rc $rc, $(cat "$tmp/err")"
"$casa" list --url "ws://127.0.0.1:1/ws" >/dev/null 2>"$tmp/err"
rc=$?
{ [ "$rc" = 3 ] && grep -q 'cannot reach' "$tmp/err"; } || bad "no server: rc $rc, $(cat "$tmp/err")"
"$casa" list --url "$url" >"$tmp/list" 2>"$tmp/err" || bad "list failed: $(cat "$tmp/err")"
"$casa" verify no-such-table --url "$url" >/dev/null 2>"$tmp/err"
rc=$?
{ [ "$rc" = 1 ] && grep -q 'no_such_table' "$tmp/err"; } || bad "verify of an unknown table: rc $rc, $(cat "$tmp/err")"

# A server that changed a finished game's seed after the fact (here: in its own
# database, between two runs: a running server holds its file for itself) is
# caught by the commitment it published: exit 4, the mismatch named.
if [ -n "$first_table" ]; then
  kill "$server"
  wait "$server" 2>/dev/null
  server=
  python3 - "$tmp/casa.db" "$first_table" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=10)
db.execute("UPDATE tables SET seed = seed + 1 WHERE id = ?", (sys.argv[2],))
db.commit()
PY
  start_server
  verdict=$("$casa" verify "$first_table" --url "http://127.0.0.1:$port" 2>&1)
  rc=$?
  if [ "$rc" = 4 ] && printf '%s' "$verdict" | grep -q "^NOT VERIFIED: table $first_table: commitment mismatch"; then
    echo "ok   casa verify rejects a changed seed: $verdict"
  else
    bad "casa verify of a changed seed: rc $rc, $verdict"
  fi
fi

if [ "$played" = 0 ]; then
  echo "no game is available in the engine yet"
  [ "$fail" = 0 ] && exit 77
  exit 1
fi

# The Python example bot (stdlib WebSocket) on a four-player La Casa game (or the
# first game that ran above).
read -r game players options <<<"$bot_game"
out=$(timeout 120 python3 "$src/clients/bots/random_bot.py" --url "$url" --game "$game" \
      --players "$players" --options "$options" --fill robot --seed 3 2>"$tmp/bot.err")
rc=$?
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c "import json,sys; assert len(json.load(sys.stdin)['scores']) == $players"; then
  echo "ok   python bot, $game: $out"
else
  bad "python bot on $game: rc $rc, $out $(cat "$tmp/bot.err")"
fi

kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
server=
exit "$fail"
