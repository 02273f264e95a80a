#!/bin/sh
# SPDX-License-Identifier: AGPL-3.0-or-later
# casa-arena with a fixed seed prints the same summary however many threads play
# the games, and an external JSON-lines bot (the example Python bot) takes part.
# usage: arena_determinism.sh CASA_ARENA SOURCE_DIR
set -eu
arena=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { "$arena" --quiet --no-timing "$@"; }

run --game la-casa --players 4 --a strong:iterations=40 --b robot --deals 3 --seed 7 --jobs 1 > "$tmp/one"
run --game la-casa --players 4 --a strong:iterations=40 --b robot --deals 3 --seed 7 --jobs 2 > "$tmp/two"
cmp "$tmp/one" "$tmp/two" || { echo "summaries differ with --jobs"; diff "$tmp/one" "$tmp/two"; exit 1; }
grep -q '"games": 6' "$tmp/one" || { echo "expected 6 games (3 deals x 2 sides)"; cat "$tmp/one"; exit 1; }
run --game la-casa --players 4 --a strong:iterations=40 --b robot --deals 3 --seed 8 --jobs 1 > "$tmp/other"
if cmp -s "$tmp/one" "$tmp/other"; then echo "another seed gave the same summary"; exit 1; fi

# Solo: each deal is played once by each bot in the human's seat.
run --game la-casa --players 1 --a strong:iterations=20 --b robot --deals 2 --seed 3 > "$tmp/solo"
grep -q '"mode": "solo"' "$tmp/solo" || { cat "$tmp/solo"; exit 1; }

# An external bot: the same seeds give the same match (one job: the bot process
# keeps its own random state from game to game).
bot="python3 $src/clients/bots/random_bot.py --stdio --seed 5"
run --game casino --players 2 --a "exec:$bot" --b random --deals 2 --seed 1 > "$tmp/ext1"
run --game casino --players 2 --a "exec:$bot" --b random --deals 2 --seed 1 > "$tmp/ext2"
cmp "$tmp/ext1" "$tmp/ext2" || { echo "external bot matches differ"; exit 1; }
grep -q '"games": 4' "$tmp/ext1" || { cat "$tmp/ext1"; exit 1; }

# A bot that answers nonsense stops the match with a clear error.
if "$arena" --quiet --game casino --players 2 --a "exec:echo nonsense" --b random --deals 1 \
    2> "$tmp/err" > /dev/null; then
  echo "a broken external bot was accepted"; exit 1
fi
grep -q "external bot" "$tmp/err" || { cat "$tmp/err"; exit 1; }
echo "arena determinism: ok"
