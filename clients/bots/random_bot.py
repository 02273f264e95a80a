#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A casa bot in plain Python 3 (standard library only): it plays uniformly random
legal actions, knowing no rule of any game. See docs/bots.md.

    random_bot.py --url ws://localhost:8080/ws --game casino --players 2 --fill robot
    random_bot.py --url ws://localhost:8080/ws --join INVITE
    casa-arena --a exec:"random_bot.py --stdio --seed 1" --b robot ...

It prints the final scores as one JSON line and exits 0 when the game is over.
The WebSocket client below is the minimum the protocol needs (RFC 6455: the
upgrade, masked text frames out, text/ping/close frames in); it speaks ws:// only.
"""
import argparse
import base64
import json
import os
import random
import socket
import struct
import sys
import time
import urllib.parse

# The server drops messages over its budget (by default 20 a second, bursts of 40)
# with the error rate_limited; a bot that answers at once would get there.
SEND_PER_SECOND = 15
SEND_BURST = 20


class WebSocket:
    """A blocking WebSocket client connection, text messages only."""

    def __init__(self, url, timeout=60):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "ws":
            raise ValueError("only ws:// URLs are supported by this small client")
        host, port = parts.hostname, parts.port or 80
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer = b""
        self.tokens, self.refilled = SEND_BURST, time.monotonic()
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise ConnectionError("upgrade refused: " + status.decode(errors="replace"))

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def _take(self, n):
        while len(self.buffer) < n:
            self._fill()
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _send_frame(self, opcode, payload):
        # Client frames are always masked (RFC 6455 5.3).
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, message):
        # A token bucket below the server's: wait rather than be dropped.
        now = time.monotonic()
        self.tokens = min(SEND_BURST, self.tokens + (now - self.refilled) * SEND_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / SEND_PER_SECOND)
            self.tokens, self.refilled = 1, time.monotonic()
        self.tokens -= 1
        self._send_frame(0x1, json.dumps(message).encode())

    def receive(self):
        """The next message as a dict; answers pings on the way. None when closed."""
        message = b""
        while True:
            first, second = self._take(2)
            fin, opcode = first & 0x80, first & 0x0F
            n = second & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._take(8))[0]
            payload = self._take(n)  # server frames are never masked
            if opcode == 0x9:  # ping
                self._send_frame(0xA, payload)
            elif opcode == 0x8:  # close
                self._send_frame(0x8, payload[:2])
                return None
            elif opcode in (0x0, 0x1):  # continuation, text
                message += payload
                if fin:
                    return json.loads(message)

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        finally:
            self.sock.close()


def play(args):
    ws = WebSocket(args.url)
    rng = random.Random(args.seed)
    ws.send({"type": "hello", "version": 1, "name": args.name})
    table = None
    while True:
        m = ws.receive()
        if m is None:
            sys.exit("bot: the server closed the connection")
        kind = m["type"]
        if kind == "welcome":
            if args.join:
                ws.send({"type": "join", "invite": args.join})
            else:
                ws.send({"type": "create_table", "game": args.game, "players": args.players,
                         "options": json.loads(args.options)})
        elif kind == "table_created":
            table = m["table"]
            print(f"bot: table {table}, invite {m['invite']}", file=sys.stderr)
            if args.fill != "none":
                for seat in range(1, args.players):
                    ws.send({"type": "add_bot", "table": table, "seat": seat, "bot": args.fill})
        elif kind == "joined":
            table = m["table"]
        elif kind == "request":
            # The whole secret of a legal bot: pick one of `legal`, echo it with `seq`.
            choice = rng.choice(m["legal"])
            ws.send({"type": "action", "table": m["table"], "seq": m["seq"], "action": choice})
        elif kind == "game_over" and m["table"] == table:
            print(json.dumps({"table": table, "scores": m["scores"], "winners": m["winners"]}))
            ws.close()
            return
        elif kind == "error":
            # A stale seq only means a newer request is on its way.
            if m["code"] == "stale_seq":
                continue
            # A message was dropped (the error does not say which) or a move went
            # wrong: ask for the table again; the pending request comes with it.
            if m["code"] in ("rate_limited", "not_your_turn", "illegal_action") and table:
                ws.send({"type": "resync", "table": table})
                continue
            sys.exit(f"bot: server error {m['code']}: {m['message']}")


def play_stdio(args):
    """casa-arena's external bot contract (docs/arena.md): one JSON object per line
    on stdin; each "request" gets one answer line on stdout, other lines none."""
    rng = random.Random(args.seed)
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("type") == "request":
            print(json.dumps({"action": rng.choice(m["legal"])}), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="ws://localhost:8080/ws")
    p.add_argument("--name", default="pybot")
    p.add_argument("--game", default="la-casa")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--options", default="{}", help="engine options as a JSON object")
    p.add_argument("--fill", default="robot", help="server bot for the other seats, or none")
    p.add_argument("--join", metavar="INVITE", help="join this table instead of creating one")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--stdio", action="store_true",
                   help="play casa-arena's requests on stdin/stdout instead of a server")
    args = p.parse_args()
    play_stdio(args) if args.stdio else play(args)


if __name__ == "__main__":
    main()
