#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
# What an idle connection costs the server: starts SERVER on 127.0.0.1:PORT
# with a fresh database, opens N WebSocket connections that each say hello,
# get welcome, then stay silent, and prints the growth of the server's VmRSS
# per connection (20 connections are opened first, so the figure leaves out
# the server's own warm-up). Standard library only: raw sockets, one frame.
#
#   bench/idle_connections.py SERVER PORT N     (raise `ulimit -n` above N first)
import os, socket, struct, sys, time, subprocess, json, base64
server, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import tempfile
d = tempfile.mkdtemp(prefix="rp-idle-")
p = subprocess.Popen([server, "--address", "127.0.0.1", "--port", str(port), "--db", d + "/i.db", "--threads", "1",
                      "--log-level", "warn", "--max-connections-per-address", "100000", "--rate-per-second", "1000000",
                      "--rate-burst", "1000000", "--players-per-address-per-hour", "1000000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def rss():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1])
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", port)).close(); break
    except OSError: time.sleep(0.1)
def frame(text):
    b = text.encode(); key = b"\x01\x02\x03\x04"
    h = bytes([0x81, 0x80 | len(b)]) if len(b) < 126 else bytes([0x81, 0xFE]) + struct.pack(">H", len(b))
    return h + key + bytes(c ^ key[i % 4] for i, c in enumerate(b))
socks = []
def one(i):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              b"Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)) + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    buf = b""
    while b"\r\n\r\n" not in buf: buf += s.recv(4096)
    rest = buf.split(b"\r\n\r\n", 1)[1]
    s.sendall(frame(json.dumps({"type": "hello", "version": 1, "name": f"idle{i}"})))
    while b"welcome" not in rest: rest += s.recv(65536)
    return s
# a few first, so the baseline holds the server's warmed-up state
for i in range(20): socks.append(one(i))
time.sleep(0.5)
before = rss()
for i in range(20, 20 + n): socks.append(one(i))
time.sleep(2)
after = rss()
print(json.dumps({"server": server, "connections": n, "rss_kb_before": before, "rss_kb_after": after,
                  "bytes_per_connection": round((after - before) * 1024 / n)}))
p.terminate(); p.wait()
for s in socks: s.close()
subprocess.run(["rm", "-rf", d])
