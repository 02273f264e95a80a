#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""WebSocket conformance of casa-server, at the protocol level (RFC 6455).

The case groups follow Autobahn|Testsuite's: 1 framing, 2 pings and pongs,
3 reserved bits, 4 opcodes, 5 fragmentation, 6 UTF-8, 7 close handling, 9
limits and performance (scaled down). The server is not an echo server: a
text message here is a JSON `ping` whose `pong` (same `id`) proves the
message arrived whole; `pad` fields carry the payload. Besides, the two
timers (no `hello`, an idle peer) must end with a close frame, and the
protocol details of docs/security.md#network are checked: invalid close
codes, a 64-bit length with its top bit set, frames sent together with the
upgrade request.

usage: ws_conformance.py PATH/TO/casa_test_server
Prints one line per case, then a summary; exits 1 on any failure.
"""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

SERVER = sys.argv[1] if len(sys.argv) > 1 else "build/tests/server/casa_test_server"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class Closed(Exception):
    pass


class Server:
    def __init__(self, *flags):
        self.dir = tempfile.mkdtemp(prefix="casa-conformance-")
        args = [SERVER, "--port", "0", "--address", "127.0.0.1", "--db", os.path.join(self.dir, "casa.db"),
                "--log-level", "error", "--durability", "normal", "--players-per-address-per-hour", "1000000", "--rate-per-second", "100000",
                "--rate-burst", "100000", "--max-frame-bytes", str(4 * 1024 * 1024)] + list(flags)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("listening "), line
        self.port = int(line.split()[1])

    def stop(self):
        self.proc.kill()
        self.proc.wait()


class Client:
    """A WebSocket client that sends any frame, valid or not."""

    def __init__(self, port, hello=True, early=b""):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(5)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode()
        self.sock.sendall(req + early)
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Closed("no upgrade answer")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise Closed(head.decode(errors="replace"))
        self.next_id = 1
        if hello:
            self.send_json({"type": "hello", "version": 1, "name": "conformance"})
            self.expect_json("welcome")

    # ---- sending
    @staticmethod
    def frame(opcode, payload=b"", fin=True, rsv=0, mask=True, length=None):
        b0 = (0x80 if fin else 0) | (rsv << 4) | opcode
        n = len(payload) if length is None else length
        if n <= 125:
            head = struct.pack("!BB", b0, (0x80 if mask else 0) | n)
        elif n <= 0xFFFF:
            head = struct.pack("!BBH", b0, (0x80 if mask else 0) | 126, n)
        else:
            head = struct.pack("!BBQ", b0, (0x80 if mask else 0) | 127, n)
        if not mask:
            return head + payload
        key = os.urandom(4)
        masked = bytes(c ^ key[i & 3] for i, c in enumerate(payload))
        return head + key + masked

    def send(self, opcode, payload=b"", chop=None, **kw):
        data = self.frame(opcode, payload, **kw)
        if chop:
            for i in range(0, len(data), chop):
                self.sock.sendall(data[i:i + chop])
                time.sleep(0.001)
        else:
            self.sock.sendall(data)

    def send_raw(self, data):
        self.sock.sendall(data)

    def ping_message(self, pad="", ident=None):
        """A JSON ping (text) and its id. `pad` is as many bytes of JSON
        whitespace after the object (the server refuses unknown fields);
        `ident` (at most 64 characters) goes as the id, in UTF-8 unescaped."""
        if ident is None:
            ident = self.next_id
            self.next_id += 1
            id_bytes = str(ident).encode()
        else:
            id_bytes = b'"' + ident.encode("utf-8") + b'"'
        return b'{"type":"ping","id":' + id_bytes + b"}" + b" " * len(pad), ident

    def send_json(self, obj):
        self.send(OP_TEXT, json.dumps(obj).encode())

    # ---- receiving
    def _need(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Closed("tcp closed")
            self.buf += chunk

    def recv_frame(self, timeout=5):
        self.sock.settimeout(timeout)
        self._need(2)
        b0, b1 = self.buf[0], self.buf[1]
        n = b1 & 0x7F
        at = 2
        if n == 126:
            self._need(4)
            n = struct.unpack("!H", self.buf[2:4])[0]
            at = 4
        elif n == 127:
            self._need(10)
            n = struct.unpack("!Q", self.buf[2:10])[0]
            at = 10
        if b1 & 0x80:
            raise AssertionError("the server masked a frame")
        self._need(at + n)
        payload = self.buf[at:at + n]
        self.buf = self.buf[at + n:]
        return bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 0x0F, payload

    def recv_message(self, timeout=5):
        """The next data message (pings answered, pongs skipped): (opcode, bytes)."""
        parts, first = [], None
        while True:
            fin, rsv, op, payload = self.recv_frame(timeout)
            assert rsv == 0, "the server set reserved bits"
            if op == OP_PING:
                self.send(OP_PONG, payload)
                continue
            if op == OP_PONG:
                continue
            if op == OP_CLOSE:
                raise Closed("close frame %r" % payload[:2])
            if first is None:
                first = op
            parts.append(payload)
            if fin:
                return first, b"".join(parts)

    def expect_json(self, type_, timeout=5):
        while True:
            op, data = self.recv_message(timeout)
            assert op == OP_TEXT, "a binary message from the server"
            msg = json.loads(data.decode("utf-8"))
            if msg.get("type") == type_:
                return msg
            if type_ != "error" and msg.get("type") == "error":
                raise AssertionError("error instead of %s: %s" % (type_, msg))

    def expect_pong_message(self, i, timeout=5):
        msg = self.expect_json("pong", timeout)
        assert msg.get("id") == i, "pong for %r, not %r" % (msg.get("id"), i)

    def expect_close(self, codes, timeout=5):
        """Frames until the server's close frame (its code in `codes`; None: no code),
        answered; then the server closes TCP."""
        while True:
            fin, rsv, op, payload = self.recv_frame(timeout)
            if op == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                assert code in codes, "close code %r, expected one of %r" % (code, codes)
                try:
                    self.send(OP_CLOSE, payload[:2])
                except OSError:
                    pass
                self.expect_tcp_close(timeout)
                return payload
            assert op in (OP_TEXT, OP_BINARY, OP_CONT, OP_PING, OP_PONG), "opcode %d" % op

    def expect_tcp_close(self, timeout=5):
        self.sock.settimeout(timeout)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
        except ConnectionResetError:
            return

    def still_open(self):
        """A JSON ping still gets its pong."""
        msg, i = self.ping_message()
        self.send(OP_TEXT, msg)
        self.expect_pong_message(i)

    def close(self):
        self.sock.close()


CASES = []


def case(name):
    def register(fn):
        CASES.append((name, fn))
        return fn
    return register


def text_roundtrip(c, pad, **kw):
    msg, i = c.ping_message(pad)
    c.send(OP_TEXT, msg, **kw)
    c.expect_pong_message(i)


# ---- 1 framing --------------------------------------------------------------------
for size in (0, 1, 60, 125 - 38, 126 - 38, 127 - 38, 128 - 38, 65535 - 38, 65536 - 38):
    @case("1.1 text message of %d padding bytes" % size)
    def _(port, size=size):
        c = Client(port)
        text_roundtrip(c, "*" * size)
        c.still_open()


@case("1.1.8 text message of 64 KB sent in 997-byte chunks")
def _(port):
    c = Client(port)
    text_roundtrip(c, "*" * 65000, chop=997)


@case("1.1 empty text message: an error answer, the connection stays")
def _(port):
    c = Client(port)
    c.send(OP_TEXT, b"")
    assert c.expect_json("error")["code"] == "malformed_json"
    c.still_open()


for size in (0, 125, 126, 65536):
    @case("1.2 binary message of %d bytes: refused with an error, not a close" % size)
    def _(port, size=size):
        c = Client(port)
        c.send(OP_BINARY, b"\xfe" * size)
        assert c.expect_json("error")["code"] == "malformed_json"
        c.still_open()


# ---- 2 pings and pongs -------------------------------------------------------------
for payload in (b"", b"Hello, world!", b"\x00\xff\xfe\xfd\xfc\xfb\x00\xff", b"*" * 125):
    @case("2.1-2.4 ping with %d bytes gets its pong" % len(payload))
    def _(port, payload=payload):
        c = Client(port)
        c.send(OP_PING, payload)
        fin, rsv, op, got = c.recv_frame()
        assert op == OP_PONG and got == payload, (op, got)


@case("2.5 ping of 126 bytes: close 1002")
def _(port):
    c = Client(port)
    c.send(OP_PING, b"*" * 126)
    c.expect_close({1002})


@case("2.6 ping of 125 bytes sent a byte at a time")
def _(port):
    c = Client(port)
    c.send(OP_PING, b"#" * 125, chop=1)
    fin, rsv, op, got = c.recv_frame()
    assert op == OP_PONG and got == b"#" * 125


@case("2.7/2.8 unsolicited pongs are ignored")
def _(port):
    c = Client(port)
    c.send(OP_PONG, b"")
    c.send(OP_PONG, b"unsolicited")
    c.still_open()


@case("2.9 an unsolicited pong, then a ping: its pong")
def _(port):
    c = Client(port)
    c.send(OP_PONG, b"unsolicited")
    c.send(OP_PING, b"solicited")
    fin, rsv, op, got = c.recv_frame()
    assert op == OP_PONG and got == b"solicited"


for chop in (None, 1):
    @case("2.10/2.11 ten pings%s: pongs in order, ending with the last one's" % (" sent slowly" if chop else ""))
    def _(port, chop=chop):
        c = Client(port)
        for i in range(10):
            c.send(OP_PING, b"payload-%d" % i, chop=chop)
        # RFC 6455 5.5.3: a pong may answer only the latest of several pings.
        last = -1
        while last != 9:
            fin, rsv, op, got = c.recv_frame()
            assert op == OP_PONG
            n = int(got.split(b"-")[1])
            assert n > last, "pongs out of order"
            last = n
        c.still_open()


@case("ping before hello: not answered, and the hello timer still runs")
def _(port):
    c = Client(port, hello=False)
    c.send(OP_PING, b"early")
    c.send_json({"type": "hello", "version": 1, "name": "late"})
    while True:
        fin, rsv, op, got = c.recv_frame()
        assert op != OP_PONG, "a pong for a ping before hello: %r" % got
        if op == OP_TEXT and json.loads(got).get("type") == "welcome":
            break
    c.send(OP_PING, b"after")
    fin, rsv, op, got = c.recv_frame()
    assert op == OP_PONG and got == b"after", "a pong for a ping before hello: %r" % got


# ---- 3 reserved bits ---------------------------------------------------------------
for rsv, op in ((1, OP_TEXT), (2, OP_TEXT), (3, OP_TEXT), (4, OP_TEXT), (5, OP_BINARY), (6, OP_PING), (7, OP_CLOSE)):
    @case("3 reserved bits %d on opcode %d: close 1002, earlier messages answered" % (rsv, op))
    def _(port, rsv=rsv, op=op):
        c = Client(port)
        msg, i = c.ping_message("before")
        c.send(OP_TEXT, msg)
        c.send(op, b"\x03\xe8" if op == OP_CLOSE else b"bad", rsv=rsv)
        c.send(OP_PING, b"after")
        c.expect_pong_message(i)
        c.expect_close({1002})


# ---- 4 opcodes -----------------------------------------------------------------------
for op in (3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF):
    @case("4 reserved opcode %d: close 1002" % op)
    def _(port, op=op):
        c = Client(port)
        msg, i = c.ping_message()
        c.send(OP_TEXT, msg)
        c.send(op, b"reserved")
        c.send(OP_PING, b"after")
        c.expect_pong_message(i)
        c.expect_close({1002})


# ---- 5 fragmentation -----------------------------------------------------------------
@case("5.1/5.2 a fragmented ping or pong: close 1002")
def _(port):
    for op in (OP_PING, OP_PONG):
        c = Client(port)
        c.send(op, b"frag", fin=False)
        c.send(OP_CONT, b"ment")
        c.expect_close({1002})


for chop in (None, 1):
    @case("5.3-5.5 a text message in two fragments%s" % (" sent a byte at a time" if chop else ""))
    def _(port, chop=chop):
        c = Client(port)
        msg, i = c.ping_message("fragments")
        c.send(OP_TEXT, msg[:10], fin=False, chop=chop)
        c.send(OP_CONT, msg[10:], chop=chop)
        c.expect_pong_message(i)


@case("5.6-5.8 a ping between two fragments: its pong, then the message's answer")
def _(port):
    c = Client(port)
    msg, i = c.ping_message("fragments")
    c.send(OP_TEXT, msg[:10], fin=False)
    c.send(OP_PING, b"between")
    c.send(OP_CONT, msg[10:])
    fin, rsv, op, got = c.recv_frame()
    assert op == OP_PONG and got == b"between"
    c.expect_pong_message(i)


@case("5.9-5.14 a continuation with nothing to continue: close 1002")
def _(port):
    for fin in (True, False):
        c = Client(port)
        c.send(OP_CONT, b"orphan", fin=fin)
        c.expect_close({1002})


@case("5.15-5.18 a new text message inside a fragmented one: close 1002")
def _(port):
    c = Client(port)
    c.send(OP_TEXT, b'{"type":', fin=False)
    c.send(OP_TEXT, b'"ping"}')
    c.expect_close({1002})


@case("5.19/5.20 fragments with pings between, sent slowly")
def _(port):
    c = Client(port)
    msg, i = c.ping_message("x" * 50)
    pieces = [msg[k:k + 5] for k in range(0, len(msg), 5)]
    for k, piece in enumerate(pieces):
        c.send(OP_TEXT if k == 0 else OP_CONT, piece, fin=k == len(pieces) - 1)
        if k % 3 == 0:
            c.send(OP_PING, b"p%d" % k)
            fin, rsv, op, got = c.recv_frame()
            assert op == OP_PONG and got == b"p%d" % k
        time.sleep(0.002)
    c.expect_pong_message(i)


@case("5 empty fragments around a message")
def _(port):
    c = Client(port)
    msg, i = c.ping_message()
    c.send(OP_TEXT, b"", fin=False)
    c.send(OP_CONT, msg, fin=False)
    c.send(OP_CONT, b"")
    c.expect_pong_message(i)


# ---- 6 UTF-8 ---------------------------------------------------------------------------
VALID = ["κόσμε", "Hello-µ@ßöäüàá-UTF-8!!", "\u0080\u07ff\u0800\uffff", "\U00010000\U0010ffff", "\ufeff", "\ue000"]
for text in VALID:
    @case("6 valid UTF-8 %r: whole, and split in every place" % text)
    def _(port, text=text):
        c = Client(port)
        encoded = text.encode("utf-8")
        m, i = c.ping_message(ident=text)
        c.send(OP_TEXT, m)
        c.expect_pong_message(i)
        for cut in range(1, len(encoded)):
            m, i = c.ping_message(ident=text)
            at = m.index(encoded) + cut
            c.send(OP_TEXT, m[:at], fin=False)
            c.send(OP_CONT, m[at:])
            c.expect_pong_message(i)

INVALID = [b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80\x65\x64\x69\x74\x65\x64",  # 6.3 surrogate
           b"\x80", b"\xbf", b"\x80\xbf\x80", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",  # 6.6-6.17
           b"\xc1\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xfe", b"\xff",
           b"\xfe\xfe\xff\xff", b"\xc0", b"\xe0\x80", b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80",
           b"\xce\xba\xe1\xbd", b"\xef\xbf"]
for bad in INVALID:
    @case("6 invalid UTF-8 %s: close 1007" % bad.hex())
    def _(port, bad=bad):
        c = Client(port)
        c.send(OP_TEXT, b'{"type":"ping","pad":"' + bad + b'"}')
        c.expect_close({1007})


@case("6.4 invalid UTF-8 in the first of two fragments: close 1007 before the second")
def _(port):
    c = Client(port)
    c.send(OP_TEXT, b'{"pad":"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xf4\x90\x80\x80', fin=False)
    c.expect_close({1007})


@case("6 half a character at the end of a message: close 1007")
def _(port):
    c = Client(port)
    c.send(OP_TEXT, b'{"pad":"\xce', fin=False)
    c.send(OP_CONT, b"")
    c.expect_close({1007})


# ---- 7 close handling ----------------------------------------------------------------
@case("7.1.1 a close frame (1000) is answered with a close frame, then TCP closes")
def _(port):
    c = Client(port)
    c.send(OP_CLOSE, struct.pack("!H", 1000))
    _, _, op, payload = c.recv_frame()
    assert op == OP_CLOSE and payload[:2] == struct.pack("!H", 1000)
    c.expect_tcp_close()


@case("7.1.2-7.1.4 messages and pings after the close frame are not answered")
def _(port):
    c = Client(port)
    c.send(OP_CLOSE, struct.pack("!H", 1000))
    msg, i = c.ping_message()
    try:
        c.send(OP_TEXT, msg)
        c.send(OP_PING, b"late")
    except OSError:
        pass
    _, _, op, payload = c.recv_frame()
    assert op == OP_CLOSE
    try:
        while True:
            _, _, op, payload = c.recv_frame()
            raise AssertionError("a frame (%d) after the close frame" % op)
    except (Closed, ConnectionResetError):
        pass


@case("7.1.5 a close frame in the middle of a fragmented message")
def _(port):
    c = Client(port)
    c.send(OP_TEXT, b'{"type":', fin=False)
    c.send(OP_CLOSE, struct.pack("!H", 1000))
    c.expect_close({1000})


@case("7.3.1 an empty close frame: answered without an error")
def _(port):
    c = Client(port)
    c.send(OP_CLOSE, b"")
    c.expect_close({None, 1000})


@case("7.3.2 a close frame of 1 byte: close 1002")
def _(port):
    c = Client(port)
    c.send(OP_CLOSE, b"\x03")
    c.expect_close({1002})


for reason in (b"", b"Hello World!", b"*" * 123):
    @case("7.3.3-7.3.5 close 1000 with a reason of %d bytes: echoed" % len(reason))
    def _(port, reason=reason):
        c = Client(port)
        c.send(OP_CLOSE, struct.pack("!H", 1000) + reason)
        c.expect_close({1000})


@case("7.3.6 a close frame of 126 bytes: close 1002")
def _(port):
    c = Client(port)
    c.send(OP_CLOSE, struct.pack("!H", 1000) + b"*" * 124)
    c.expect_close({1002})


@case("7.5.1 a close reason that is not UTF-8: close 1002 or 1007")
def _(port):
    c = Client(port)
    c.send(OP_CLOSE, struct.pack("!H", 1000) + b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80")
    c.expect_close({1002, 1007})


for code in (1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999):
    @case("7.7 valid close code %d: echoed" % code)
    def _(port, code=code):
        c = Client(port)
        c.send(OP_CLOSE, struct.pack("!H", code))
        c.expect_close({code, 1000})

for code in (0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999, 5000, 65535):
    @case("7.9/7.13 invalid close code %d: close 1002, not echoed" % code)
    def _(port, code=code):
        c = Client(port)
        c.send(OP_CLOSE, struct.pack("!H", code))
        c.expect_close({1002})


# ---- 9 limits and performance (scaled down) ----------------------------------------------
for size in (64 * 1024, 256 * 1024, 1024 * 1024):
    @case("9.1 a text message of %d KB" % (size // 1024))
    def _(port, size=size):
        c = Client(port)
        text_roundtrip(c, "*" * size)

for chunk in (64, 256, 1024, 4096, 16384, 65536):
    @case("9.3 a 256 KB text message in fragments of %d bytes" % chunk)
    def _(port, chunk=chunk):
        c = Client(port)
        msg, i = c.ping_message("x" * (256 * 1024))
        pieces = [msg[k:k + chunk] for k in range(0, len(msg), chunk)]
        data = b"".join(c.frame(OP_TEXT if k == 0 else OP_CONT, p, fin=k == len(pieces) - 1)
                        for k, p in enumerate(pieces))
        c.send_raw(data)
        c.expect_pong_message(i)

for chop in (64, 1024, 65536):
    @case("9.5/9.6 a 256 KB text message written in %d-byte pieces" % chop)
    def _(port, chop=chop):
        c = Client(port)
        msg, i = c.ping_message("y" * (256 * 1024))
        data = c.frame(OP_TEXT, msg)
        for k in range(0, len(data), chop):
            c.send_raw(data[k:k + chop])
        c.expect_pong_message(i)

for size in (0, 16, 64, 256):
    @case("9.7/9.8 1000 messages of %d padding bytes in a row" % size)
    def _(port, size=size):
        c = Client(port)
        ids = []
        out = b""
        for _ in range(1000):
            msg, i = c.ping_message("z" * size)
            ids.append(i)
            out += c.frame(OP_TEXT, msg)
        c.send_raw(out)
        for i in ids:
            c.expect_pong_message(i)


@case("9 a message over --max-frame-bytes: close 1009")
def _(port):
    c = Client(port)
    c.send_raw(c.frame(OP_TEXT, b"a" * 100, fin=False))
    c.send_raw(c.frame(OP_CONT, b"a" * (4 * 1024 * 1024)))
    c.expect_close({1009}, timeout=10)


# ---- the protocol details of docs/security.md#network -------------------------------------
@case("a 64-bit length with its top bit set: close 1002 at once")
def _(port):
    c = Client(port)
    c.send_raw(struct.pack("!BBQ", 0x81, 0x80 | 127, 1 << 63) + b"\0\0\0\0")
    c.expect_close({1002})


@case("a frame 63 bits long: refused before its payload (1009)")
def _(port):
    c = Client(port)
    c.send_raw(struct.pack("!BBQ", 0x81, 0x80 | 127, (1 << 63) - 1) + b"\0\0\0\0" + b"a" * (4 * 1024 * 1024 + 1))
    c.expect_close({1009}, timeout=10)


@case("frames sent in the same segment as the upgrade request are read")
def _(port):
    hello = Client.frame(OP_TEXT, json.dumps({"type": "hello", "version": 1, "name": "eager"}).encode())
    ping = Client.frame(OP_PING, b"eager")
    c = Client(port, hello=False, early=hello + ping)
    c.expect_json("welcome")
    c.still_open()


CASES_TIMERS = []


def timer_case(name):
    def register(fn):
        CASES_TIMERS.append((name, fn))
        return fn
    return register


@timer_case("hello timer: a close frame (1008) before the TCP close")
def _(port):
    c = Client(port, hello=False)
    payload = c.expect_close({1008}, timeout=10)
    assert b"hello" in payload[2:], payload


@timer_case("idle timer: a peer that answers no ping gets a close frame (1001)")
def _(port):
    c = Client(port)
    while True:
        fin, rsv, op, payload = c.recv_frame(timeout=10)
        if op == OP_CLOSE:
            code = struct.unpack("!H", payload[:2])[0]
            assert code == 1001, code
            break
        # pings are not answered; anything else is read and dropped
    c.expect_tcp_close(10)


def run(cases, server):
    failures = 0
    for name, fn in cases:
        try:
            fn(server.port)
            print("ok    %s" % name)
        except Exception as e:  # noqa: BLE001 - every failure is reported
            failures += 1
            print("FAIL  %s: %s: %s" % (name, type(e).__name__, e))
    return failures


def main():
    server = Server()
    try:
        failures = run(CASES, server)
    finally:
        server.stop()
    timers = Server("--handshake-timeout-seconds", "1", "--idle-timeout-seconds", "2")
    try:
        failures += run(CASES_TIMERS, timers)
    finally:
        timers.stop()
    total = len(CASES) + len(CASES_TIMERS)
    print("%d cases, %d failures" % (total, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
