#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# `casa event` end to end: the real casa against a real casa-server on loopback
# (ephemeral port, temp database), docs/cli.md and docs/events.md.
#   events_cli.sh CASA_SERVER CASA play     two players: ann creates a two-board
#       event naming bob, both take their seats with `casa event join --bot`, every
#       board is played, and the standings casa prints (once, with --follow, and
#       at the end of each join) are the server's (GET /api/events/{id}).
#   events_cli.sh CASA_SERVER CASA errors   unknown event, a player the event does
#       not name, bad sides and options, no server: the exit status, the message,
#       and no event stored by a refused command.
set -uo pipefail
server_bin=$1 casa=$2 mode=$3
tmp=$(mktemp -d)
server=
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  [ -n "$server" ] && kill "$server" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok   $*"; }

. "$(dirname "$0")/start_server.sh"
start_server
export CASA_URL=$url

# A player of the server: its token saved in $tmp/NAME, its id printed.
player() {
  CASA_TOKEN_FILE="$tmp/$1" "$casa" list --name "$1" >/dev/null 2>"$tmp/$1.hello" || { bad "casa list as $1"; return; }
  grep -o 'Connected as [a-z]* (p[0-9a-f]*)' "$tmp/$1.hello" | grep -o 'p[0-9a-f]*' | head -1
}
as() { local who=$1; shift; CASA_TOKEN_FILE="$tmp/$who" "$casa" "$@"; }
api() { python3 -c "import json,sys,urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/api/events/'+sys.argv[1]).read().decode())" "$1"; }
# (The running server holds its database for itself: its log says what it created.)
events_stored() { grep -c 'event e[0-9a-f]* created' "$tmp/server.log"; }

# Compares the standings block(s) casa printed with the server's JSON: every side's
# rank, name, total, points and hands, and the header's status.
# check_standings TEXT_FILE JSON_FILE [last]: the last block of the file (or the only one).
check_standings() {
  python3 - "$1" "$2" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
event = json.load(open(sys.argv[2]))
blocks = [b for b in re.split(r"\n(?=Event e)", text) if b.startswith("Event ") or "\nEvent " in b]
block = text[text.rindex("Event " + event["event"]):]
head = block.splitlines()[0]
assert head.endswith("· " + event["status"]), head
assert f"· {event['boards']} boards" in head or f"· {event['boards']} board " in head, head
rows = []
for line in block.splitlines():
    m = re.match(r"^\s*(\d+)\s{2}(.*?)\s+([+-]?\d+)\s+(\d+)\s+(\d+)$", line)
    if m:
        rows.append({"rank": int(m[1]), "name": m[2].strip(), "total": int(m[3]), "points": int(m[4]), "hands": int(m[5])})
want = [{k: r[k] for k in ("rank", "name", "total", "points", "hands")} for r in event["standings"]]
assert rows == want, (rows, want)
PY
}

if [ "$mode" = play ]; then
  ann=$(player ann)
  bob=$(player bob)
  [ -n "$ann" ] && [ -n "$bob" ] || { bad "no player ids: '$ann' '$bob'"; exit 1; }
  as ann event create --game casino --players 2 --options '{"target":5}' \
     --boards 2 --side "Ann=me" --side "Bob=$bob" >"$tmp/created" 2>"$tmp/create.err"
  rc=$?
  [ "$rc" = 0 ] || { bad "event create: rc $rc $(cat "$tmp/create.err")"; exit 1; }
  event=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['rotations']==2 and len(r['tables'])==2, r; print(r['event'])" "$tmp/created") \
    || { bad "event create printed: $(cat "$tmp/created")"; exit 1; }
  grep -q "casa event join $event" "$tmp/create.err" || bad "create does not say how to play: $(cat "$tmp/create.err")"
  ok "event create: $(cat "$tmp/created")"
  api "$event" >"$tmp/start.json"
  python3 -c "
import json,sys
e=json.load(open(sys.argv[1]))
assert e['status']=='running' and e['boards']==2 and e['rotations']==2, e
assert [s['name'] for s in e['sides']]==['Ann','Bob'], e['sides']
assert e['sides'][0]['tables']==[[{'player_id':'$ann'}]]*2 and e['sides'][1]['tables']==[[{'player_id':'$bob'}]]*2, e['sides']
" "$tmp/start.json" || bad "the stored event is not the one asked for: $(cat "$tmp/start.json")"

  # Followed from before anyone plays (the event's tables wait for their players)
  # to the end.
  "$casa" event standings "$event" --follow --every 0.2 >"$tmp/follow" 2>"$tmp/follow.err" &
  follow=$!
  pids+=("$follow")
  as ann event join "$event" --bot first >"$tmp/ann.out" 2>"$tmp/ann.err" &
  a=$!
  pids+=("$a")
  as bob event join "$event" --bot random --seed 5 >"$tmp/bob.out" 2>"$tmp/bob.err" &
  b=$!
  pids+=("$b")
  for _ in $(seq 1 1200); do
    kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null || kill -0 "$follow" 2>/dev/null || break
    sleep 0.25
  done
  wait "$a"; rc_a=$?
  wait "$b"; rc_b=$?
  wait "$follow"; rc_f=$?
  pids=()
  api "$event" >"$tmp/end.json"
  [ "$rc_a" = 0 ] || bad "ann's join: rc $rc_a $(tail -5 "$tmp/ann.err")"
  [ "$rc_b" = 0 ] || bad "bob's join: rc $rc_b $(tail -5 "$tmp/bob.err")"
  [ "$rc_f" = 0 ] || bad "standings --follow: rc $rc_f $(cat "$tmp/follow.err")"
  # Every table of the event was played by both joins (each sits at both rotations).
  python3 - "$tmp/end.json" "$tmp/ann.out" "$tmp/bob.out" <<'PY' || bad "the joins did not play the event's tables"
import json, sys
e = json.load(open(sys.argv[1]))
assert e["status"] == "over", e["status"]
tables = sorted(t["table"] for t in e["tables"])
assert len(tables) == 4 and all(t["status"] == "over" for t in e["tables"]), e["tables"]
results = {r["table"]: r["scores"] for b in e["results"] for r in b["results"]}
for out in sys.argv[2:]:
    lines = [json.loads(l) for l in open(out) if l.strip()]
    assert sorted(l["table"] for l in lines) == tables, (out, lines, tables)
    for l in lines:
        assert l["scores"] == results[l["table"]], (l, results)
assert sum(s["total"] for s in e["standings"]) == 0, e["standings"]
assert all(s["hands"] == 4 for s in e["standings"]), e["standings"]
PY
  ok "both players played the 2 boards at both tables: $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['standings'])" "$tmp/end.json")"
  # What --follow printed: first the running event, last the final standings.
  blocks=$(grep -c "^Event $event" "$tmp/follow")
  [ "$blocks" -ge 2 ] || bad "--follow printed $blocks standings: $(cat "$tmp/follow")"
  head -1 "$tmp/follow" | grep -q "· running$" || bad "--follow did not start with the running event: $(head -1 "$tmp/follow")"
  check_standings "$tmp/follow" "$tmp/end.json" || bad "--follow's last standings are not the server's: $(cat "$tmp/follow")"
  ok "standings --follow: $blocks prints, the last one the server's"
  "$casa" event standings "$event" >"$tmp/once" 2>"$tmp/once.err" || bad "standings: $(cat "$tmp/once.err")"
  check_standings "$tmp/once" "$tmp/end.json" || bad "standings are not the server's: $(cat "$tmp/once")"
  "$casa" event standings "$event" --json --url "http://127.0.0.1:$port" >"$tmp/json" || bad "standings --json"
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))==json.load(open(sys.argv[2]))" "$tmp/json" "$tmp/end.json" \
    || bad "standings --json is not the server's answer"
  for who in ann bob; do
    grep -q "are all played; the event is over" "$tmp/$who.err" || bad "$who's join did not end with the standings"
    check_standings "$tmp/$who.err" "$tmp/end.json" || bad "$who's final standings are not the server's"
  done
  ok "standings (text, --json, and at the end of each join) match GET /api/events/$event"
  # A join after the end: nothing to play, the standings, exit 0.
  as bob event join "$event" --bot first >/dev/null 2>"$tmp/again.err"
  rc=$?
  { [ "$rc" = 0 ] && grep -q "are all played; the event is over" "$tmp/again.err"; } || bad "join after the end: rc $rc $(cat "$tmp/again.err")"
  exit "$fail"
fi

# ---- errors: each exits with its status and says why; none stores an event ----
ann=$(player ann)
carol=$(player carol)
expect() {  # expect RC PATTERN WHAT -- command...
  local want=$1 pattern=$2 what=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" = "$want" ] && grep -qE -- "$pattern" "$tmp/err" "$tmp/out"; then
    ok "$what: exit $rc, $(grep -hE -- "$pattern" "$tmp/err" "$tmp/out" | head -1)"
  else
    bad "$what: exit $rc (want $want), '$pattern' not in: $(cat "$tmp/out" "$tmp/err")"
  fi
}
expect 0 "casa event create" "event --help lists the commands" -- "$casa" event --help
grep -q "casa event join" "$tmp/out" && grep -q "casa event standings" "$tmp/out" || bad "event --help misses join or standings"
expect 2 "event needs create, join or standings" "event without a command" -- "$casa" event
expect 2 "unknown event command frobnicate" "unknown event command" -- "$casa" event frobnicate
expect 2 "needs a --side for each side" "one side" -- as ann event create --game la-casa --players 2 --side me
expect 2 "is not a member" "bad member" -- as ann event create --game la-casa --players 2 --side me --side "x=Rob Ot"
expect 2 "--boards must be at least 1" "zero boards" -- as ann event create --players 2 --boards 0 --side me --side robot
expect 2 "unknown flag --fill for event create" "a flag of another command" -- as ann event create --players 2 --side me --side robot --fill robot
expect 2 "event join needs the event's id" "join without an event" -- as ann event join --bot first
expect 2 "--every takes" "bad --every" -- "$casa" event standings e123 --every 0
expect 1 "sides must list 2" "three sides for two-player La Casa" -- as ann event create --game la-casa --players 2 --side me --side robot --side random
expect 1 "no bot called 'nobot'" "an unknown bot" -- as ann event create --game la-casa --players 2 --side me --side nobot
expect 1 "no_such_player.*There is no player p0123456789" "an unknown player id" -- as ann event create --game la-casa --players 2 --side me --side p0123456789
expect 1 "/boards: above maximum|boards must be from 1 to" "more boards than the server allows" -- as ann event create --game la-casa --players 2 --boards 99 --side me --side robot
expect 1 "no_such_game" "an unknown game" -- as ann event create --game no-such-game --players 2 --side me --side robot
expect 1 "sits twice at one table" "a player on both sides" -- as ann event create --game la-casa --players 2 --side me --side "$ann"
[ "$(events_stored)" = 0 ] || bad "a refused create_event stored an event"
expect 1 "there is no event enosuchevent" "standings of an unknown event" -- "$casa" event standings enosuchevent
expect 1 "there is no event enosuchevent" "join of an unknown event" -- as ann event join enosuchevent --bot first
expect 3 "cannot reach" "standings without a server" -- "$casa" event standings e123 --url ws://127.0.0.1:1/ws
expect 3 "cannot reach" "create without a server" -- as ann event create --url ws://127.0.0.1:1/ws --players 2 --side me --side robot
# An event's seats are given by its creator: one who is not named has none.
as ann event create --game casino --players 2 --options '{"target":5}' \
   --side me --side robot >"$tmp/created" 2>/dev/null || bad "event create for the join check"
event=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['event'])" "$tmp/created")
expect 1 "$carol\\) do not sit in event $event" "join by a player the event does not name" -- as carol event join "$event" --bot first
api "$event" >"$tmp/after.json"
python3 -c "import json,sys; e=json.load(open(sys.argv[1])); assert '$carol' not in json.dumps(e['sides']), e" "$tmp/after.json" \
  || bad "the refused join changed the event"
[ "$(events_stored)" = 1 ] || bad "events stored: $(events_stored), want 1"
exit "$fail"
