#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# `casa account` end to end: the real casa against a real casa-server on loopback
# (docs/cli.md, docs/accounts.md). A guest plays a game on "laptop", claims its name
# with a password, shows a device code; "phone" links with it and is the same
# player with the same finished table; a used code is refused; sessions list both;
# the laptop revokes the phone, whose token is then refused; signing in with a wrong
# password is refused, with the right one accepted; signout forgets the token.
#   account_cli.sh CASA_SERVER CASA
set -uo pipefail
server_bin=$1 casa=$2
tmp=$(mktemp -d)
server=
cleanup() {
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
as() { local who=$1; shift; CASA_TOKEN_FILE="$tmp/$who" "$casa" "$@"; }
field() { python3 -c "import json,sys; v=json.load(sys.stdin)[sys.argv[1]]; print('' if v is None else v)" "$1"; }

# The laptop's guest plays a whole game of Casino against the robot.
as laptop play --name zoe --game casino --players 2 --bot first --seed 3 >"$tmp/play.out" 2>"$tmp/play.err" \
  || bad "casa play as a guest"
table=$(grep -o 'Table t[0-9a-z]*' "$tmp/play.err" | head -1 | cut -d' ' -f2)
[ -n "$table" ] && ok "the guest played table $table" || bad "no table in: $(head -5 "$tmp/play.err")"
guest_id=$(as laptop account --json | field player_id)
[ -n "$guest_id" ] && [ "$(as laptop account --json | field guest)" = True ] && ok "casa account: a guest ($guest_id)" \
  || bad "casa account as a guest"

# Claim: the password twice on standard input.
printf 'correct horse battery\ncorrect horse battery\n' | as laptop account claim Zoe >"$tmp/claim.out" 2>&1 \
  && grep -q 'Claimed: you are Zoe' "$tmp/claim.out" && ok "claim Zoe" || bad "claim: $(cat "$tmp/claim.out")"
[ "$(as laptop account --json | field player_id)" = "$guest_id" ] && ok "the claim keeps the player id" \
  || bad "the player id changed on claim"
# Another player may not take the handle in another case, nor a look-alike of it
# (a Cyrillic "о" and "е"): exit 1, nothing claimed.
CASA_TOKEN_FILE="$tmp/other" "$casa" list --name bob >/dev/null 2>&1 || bad "bob says hello"
for handle in zoe "Zое"; do
  printf 'another password\nanother password\n' | CASA_TOKEN_FILE="$tmp/other" "$casa" account claim "$handle" >"$tmp/conf.out" 2>&1
  [ $? -eq 1 ] && grep -Eq 'handle_taken|handle_confusable|bad_handle' "$tmp/conf.out" \
    && ok "another player's claim of $handle: exit 1 ($(tail -1 "$tmp/conf.out"))" \
    || bad "claim of $handle: $(cat "$tmp/conf.out")"
done
[ "$(CASA_TOKEN_FILE="$tmp/other" "$casa" account --json | field guest)" = True ] && ok "bob is still a guest" \
  || bad "bob claimed something"

# A code from the laptop signs the phone in.
as laptop account code >"$tmp/code.out" 2>&1 || bad "account code: $(cat "$tmp/code.out")"
code=$(grep -o '^Code: [A-Z0-9-]*' "$tmp/code.out" | cut -d' ' -f2)
[ -n "$code" ] && ok "a device code $code" || bad "no code in: $(cat "$tmp/code.out")"
as phone account link "$code" --label phone >"$tmp/link.out" 2>&1 && ok "link with the code" \
  || bad "link: $(cat "$tmp/link.out")"
[ "$(as phone account --json | field player_id)" = "$guest_id" ] && ok "the phone is the same player" \
  || bad "the phone is another player"
[ "$(as phone account --json | field handle)" = Zoe ] && ok "the phone's account is Zoe" || bad "handle on phone"
# The finished table is the phone's too: its replay opens with the phone's token.
status=$(python3 - "$port" "$table" "$(cat "$tmp/phone")" <<'PY'
import sys, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/api/tables/{sys.argv[2]}/replay",
                             headers={"Authorization": "Bearer " + sys.argv[3]})
print(urllib.request.urlopen(req).status)
PY
)
[ "$status" = 200 ] && ok "the phone reads the laptop's game" || bad "replay with the phone's token: $status"
as tablet account link "$code" >"$tmp/reuse.out" 2>&1
[ $? -eq 1 ] && ok "a used code is refused, exit 1" || bad "used code: $(cat "$tmp/reuse.out")"
[ ! -s "$tmp/tablet" ] && ok "no token saved for the refused code" || bad "a token saved for a refused code"

# Sessions: both, this one marked; the laptop revokes the phone's.
as laptop account sessions >"$tmp/sessions.out" 2>&1 || bad "sessions"
[ "$(grep -c '^[* ] [0-9a-f]\{16\}' "$tmp/sessions.out")" = 2 ] && ok "two sessions listed" \
  || bad "sessions: $(cat "$tmp/sessions.out")"
phone_id=$(grep '^  [0-9a-f]\{16\}  phone' "$tmp/sessions.out" | awk '{print $1}')
[ -n "$phone_id" ] && as laptop account revoke "$phone_id" >/dev/null 2>&1 && ok "revoke the phone ($phone_id)" \
  || bad "revoke: $(cat "$tmp/sessions.out")"
as phone account >"$tmp/revoked.out" 2>&1
[ $? -eq 1 ] && grep -q unauthorized "$tmp/revoked.out" && ok "the revoked phone is refused" \
  || bad "revoked phone: $(cat "$tmp/revoked.out")"

# Password sign-in: wrong, then right.
echo 'wrong password' | as phone account signin zoe >"$tmp/wrong.out" 2>&1
[ $? -eq 1 ] && grep -q bad_credentials "$tmp/wrong.out" && ok "a wrong password: exit 1, bad_credentials" \
  || bad "wrong password: $(cat "$tmp/wrong.out")"
echo 'correct horse battery' | as phone account signin zoe --label phone2 >"$tmp/right.out" 2>&1 \
  && [ "$(as phone account --json | field player_id)" = "$guest_id" ] && ok "sign in with the password (any case of the handle)" \
  || bad "sign in: $(cat "$tmp/right.out")"
[ -s "$tmp/phone.previous" ] && ok "the phone's previous token kept in .previous" || bad "no .previous"

as phone account signout >/dev/null 2>&1 && [ ! -e "$tmp/phone" ] && ok "signout forgets the token" \
  || bad "signout"
as phone account >"$tmp/none.out" 2>&1
[ $? -eq 1 ] && grep -q 'no token' "$tmp/none.out" && ok "no token: told how to sign in" || bad "after signout"

exit $fail
