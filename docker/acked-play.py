#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Plays one seat of a game to its end, surviving server restarts, and records
every move the server acknowledged, to check that a crash loses none of them.

    acked-play.py --url ws://127.0.0.1:8080/ws --game la-casa --players 4 \
        --options '{"format":"challenges"}' --acked FILE [--delay 0.05]

Seat 0 plays uniformly random legal actions; the other seats are server bots.
FILE gets one JSON line per acknowledgement, flushed at once: {"table": ...} first,
then {"kind": "accepted", "seq", "action"} for each of our moves the server
answered `accepted`, and {"kind": "event", "seq"} for each `event` seen. When the
connection drops, it reconnects with its token (for up to --reconnect-seconds) and
goes on. At game over it prints {"table", "scores", "winners"} and exits 0.
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "bots"))
from random_bot import WebSocket  # noqa: E402  (the project's plain-Python client)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--game", default="la-casa")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--options", default="{}")
    p.add_argument("--acked", required=True)
    p.add_argument("--delay", type=float, default=0.05, help="seconds before each move")
    p.add_argument("--reconnect-seconds", type=float, default=90)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    out = open(args.acked, "w")

    def record(entry):
        out.write(json.dumps(entry) + "\n")
        out.flush()

    token, table, last_sent = None, None, None
    reconnects = 0
    while True:
        try:
            ws = WebSocket(args.url, timeout=30)
        except OSError as e:
            if table is None or reconnects * 0.5 > args.reconnect_seconds:
                sys.exit(f"acked-play: cannot connect: {e}")
            reconnects += 1
            time.sleep(0.5)
            continue
        hello = {"type": "hello", "version": 1, "name": "acked"}
        if token:
            hello["token"] = token
        ws.send(hello)
        try:
            while True:
                m = ws.receive()
                if m is None:
                    raise ConnectionError("closed")
                kind = m["type"]
                if kind == "welcome":
                    token = m["token"]
                    if table is None:
                        ws.send({"type": "create_table", "game": args.game, "players": args.players,
                                 "options": json.loads(args.options)})
                    else:
                        print(f"acked-play: reconnected (resumed={m.get('resumed')})", file=sys.stderr)
                elif kind == "table_created":
                    table = m["table"]
                    record({"table": table})
                    for seat in range(1, args.players):
                        ws.send({"type": "add_bot", "table": table, "seat": seat, "bot": "robot"})
                elif kind == "request" and m["table"] == table:
                    time.sleep(args.delay)
                    choice = rng.choice(m["legal"])
                    last_sent = choice
                    ws.send({"type": "action", "table": table, "seq": m["seq"], "action": choice})
                elif kind == "accepted" and m["table"] == table:
                    # The answer to our latest action (the next request waits for it);
                    # `seq` is the table's seq that the move got.
                    record({"kind": "accepted", "seq": m["seq"], "action": last_sent})
                elif kind == "event" and m["table"] == table:
                    record({"kind": "event", "seq": m["seq"]})
                elif kind == "game_over" and m["table"] == table:
                    print(json.dumps({"table": table, "scores": m["scores"], "winners": m["winners"]}))
                    ws.close()
                    return 0
                elif kind == "error":
                    if m["code"] == "stale_seq":
                        continue
                    if m["code"] in ("rate_limited", "not_your_turn", "illegal_action") and table:
                        ws.send({"type": "resync", "table": table})
                        continue
                    sys.exit(f"acked-play: server error {m['code']}: {m['message']}")
        except (ConnectionError, OSError) as e:
            if table is None:
                sys.exit(f"acked-play: connection lost before the table existed: {e}")
            print(f"acked-play: connection lost ({e}); reconnecting", file=sys.stderr)
            reconnects = 0
            time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
