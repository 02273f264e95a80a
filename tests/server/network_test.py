#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""The upgrade request and TLS, from outside (docs/security.md#network).

* Origin: a browser page of another site is refused (403, a JSON body saying
  why); the server's own pages, the origins of --allowed-origins and clients
  without an Origin header (not browsers) are let in.
* Requests whose end is in doubt (Transfer-Encoding other than `chunked`) get
  400 and the connection closes; so does a Sec-WebSocket-Key that is not 16
  bytes of base64.
* TLS: Mozilla's intermediate profile (static RSA key exchange and CBC
  suites refused, ECDHE with AEAD and TLS 1.3 accepted), HSTS on every
  answer, and the certificate reloaded on SIGHUP while open connections go on.

usage: network_test.py PATH/TO/casa_test_server
"""
import base64
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import warnings

SERVER = sys.argv[1] if len(sys.argv) > 1 else "build/tests/server/casa_test_server"


class Server:
    def __init__(self, *flags):
        self.dir = tempfile.mkdtemp(prefix="casa-network-")
        args = [SERVER, "--port", "0", "--address", "127.0.0.1", "--db", os.path.join(self.dir, "casa.db"),
                "--log-level", "error", "--durability", "normal", "--players-per-address-per-hour", "1000000"] + list(flags)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("listening "), line
        self.port = int(line.split()[1])

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def request(port, head, body=b"", wrap=None):
    """Sends a raw request; returns (status line, headers, body, closed) where
    closed says the server closed the connection after answering."""
    s = socket.create_connection(("127.0.0.1", port))
    if wrap:
        s = wrap(s)
    s.settimeout(5)
    s.sendall(head.encode() + body)
    data = b""
    closed = False
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        head_bytes, _, rest = data.partition(b"\r\n\r\n")
        lines = head_bytes.decode().split("\r\n")
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        n = int(headers.get("content-length", "0"))
        while len(rest) < n:
            chunk = s.recv(4096)
            if not chunk:
                break
            rest += chunk
        if not headers.get("upgrade"):
            try:
                closed = s.recv(4096) == b""
            except (ConnectionResetError, ssl.SSLError):
                closed = True
            except socket.timeout:
                closed = False
    finally:
        s.close()
    return lines[0], headers, rest, closed


def upgrade(port, extra="", key=None, host=None):
    key = key if key is not None else base64.b64encode(os.urandom(16)).decode()
    host = host or "127.0.0.1:%d" % port
    return ("GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n" % (host, key, extra))


FAILURES = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILURES.append(what)


def origin_cases():
    server = Server()
    p = server.port
    try:
        status, _, _, _ = request(p, upgrade(p))
        check(status.startswith("HTTP/1.1 101"), "no Origin header (not a browser): upgraded")
        status, _, _, _ = request(p, upgrade(p, "Origin: http://127.0.0.1:%d\r\n" % p))
        check(status.startswith("HTTP/1.1 101"), "Origin of the server's own host and port: upgraded")
        status, _, _, _ = request(p, upgrade(p, "Origin: http://casa.example:80\r\n", host="casa.example"))
        check(status.startswith("HTTP/1.1 101"), "Origin with the scheme's default port, Host without: upgraded")
        for origin in ("https://evil.example", "http://127.0.0.1:%d" % (p + 1), "null", "http://127.0.0.1"):
            status, headers, body, closed = request(p, upgrade(p, "Origin: %s\r\n" % origin))
            ok = status.startswith("HTTP/1.1 403") and closed
            try:
                ok = ok and json.loads(body)["error"] == "origin_not_allowed" and "allowed-origins" in json.loads(body)["message"]
            except ValueError:
                ok = False
            check(ok, "Origin %s: 403 with a JSON reason, connection closed (%s %r)" % (origin, status, body[:80]))
    finally:
        server.stop()
    server = Server("--allowed-origins", "https://casa.example.org,https://friends.example")
    p = server.port
    try:
        status, _, _, _ = request(p, upgrade(p, "Origin: https://friends.example\r\n"))
        check(status.startswith("HTTP/1.1 101"), "an Origin of --allowed-origins: upgraded")
        status, _, _, _ = request(p, upgrade(p, "Origin: https://evil.example\r\n"))
        check(status.startswith("HTTP/1.1 403"), "an Origin not in --allowed-origins: 403")
    finally:
        server.stop()


def request_cases():
    server = Server()
    p = server.port
    try:
        for te in ("xchunked", "chunked, identity", "identity", "gzip, chunked"):
            smuggled = b"0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            head = "POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: %s\r\n\r\n" % te
            status, _, body, closed = request(p, head, smuggled)
            check(status.startswith("HTTP/1.1 400") and closed,
                  "Transfer-Encoding: %s: 400 and the connection closed (%s)" % (te, status))
        status, _, _, _ = request(p, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        check(status.startswith("HTTP/1.1 200"), "Transfer-Encoding: chunked alone is read as before")
        for key in ("c2hvcnQ=", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==", "!!!!!!!!!!!!!!!!!!!!!!==", "dGhlIHNhbXBsZSBub25jZQ"):
            status, _, body, _ = request(p, upgrade(p, key=key))
            check(status.startswith("HTTP/1.1 400") and b"Sec-WebSocket-Key" in body,
                  "Sec-WebSocket-Key %r: 400 (%s)" % (key, status))
        status, _, _, _ = request(p, upgrade(p, key="dGhlIHNhbXBsZSBub25jZQ=="))
        check(status.startswith("HTTP/1.1 101"), "a 16-byte key: upgraded")
    finally:
        server.stop()


def make_cert(directory, name):
    cert, key = os.path.join(directory, name + ".pem"), os.path.join(directory, name + ".key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    return cert, key


def tls_client(ciphers=None, tls13=True, cafile=None):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    if cafile:
        ctx.load_verify_locations(cafile)
    if ciphers:
        ctx.set_ciphers(ciphers + ":@SECLEVEL=0")
    if not tls13:
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    return ctx


def handshake(port, ctx):
    """The peer certificate (DER) and the cipher, or None when the handshake fails."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(5)
    try:
        t = ctx.wrap_socket(s, server_hostname="localhost")
        return t.getpeercert(binary_form=True), t.cipher()
    except (ssl.SSLError, ConnectionResetError):
        return None
    finally:
        s.close()


def tls_cases():
    work = tempfile.mkdtemp(prefix="casa-tls-")
    cert, key = make_cert(work, "first")
    live_cert, live_key = os.path.join(work, "live.pem"), os.path.join(work, "live.key")
    shutil.copy(cert, live_cert)
    shutil.copy(key, live_key)
    server = Server("--tls-cert", live_cert, "--tls-key", live_key)
    p = server.port
    try:
        for suite in ("AES128-SHA", "AES256-SHA256", "AES128-GCM-SHA256", "AES256-GCM-SHA384",
                      "ECDHE-RSA-AES128-SHA", "ECDHE-RSA-AES256-SHA384", "DHE-RSA-AES128-GCM-SHA256"):
            check(handshake(p, tls_client(suite, tls13=False)) is None,
                  "TLS 1.2 offering only %s: refused" % suite)
        for suite in ("ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305"):
            got = handshake(p, tls_client(suite, tls13=False))
            check(got is not None and got[1][0] == suite, "TLS 1.2 with %s: accepted" % suite)
        got = handshake(p, tls_client())
        check(got is not None and got[1][1] == "TLSv1.3", "TLS 1.3: accepted")
        ctx = tls_client("DEFAULT")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            ctx.maximum_version = ssl.TLSVersion.TLSv1_1
            ctx.minimum_version = ssl.TLSVersion.TLSv1
        check(handshake(p, ctx) is None, "TLS 1.1: refused")

        wrap = lambda s: tls_client().wrap_socket(s, server_hostname="localhost")  # noqa: E731
        status, headers, _, _ = request(p, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n", wrap=wrap)
        check(status.startswith("HTTP/1.1 200") and headers.get("strict-transport-security", "").startswith("max-age="),
              "HSTS on an https answer (%r)" % headers.get("strict-transport-security"))

        # A connection open across the reload goes on; new ones get the new certificate.
        first = handshake(p, tls_client())[0]
        open_conn = tls_client().wrap_socket(socket.create_connection(("127.0.0.1", p)), server_hostname="localhost")
        open_conn.settimeout(5)
        open_conn.sendall(upgrade(p).encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += open_conn.recv(4096)
        check(data.startswith(b"HTTP/1.1 101"), "wss upgrade before the reload")
        cert2, key2 = make_cert(work, "second")
        shutil.copy(cert2, live_cert)
        shutil.copy(key2, live_key)
        server.proc.send_signal(signal.SIGHUP)
        second = None
        for _ in range(200):  # the signal is handled on the server's own time
            got = handshake(p, tls_client())
            if got and got[0] != first:
                second = got[0]
                break
        with open(cert2) as f:
            expected = ssl.PEM_cert_to_DER_cert(f.read())
        check(second == expected, "after SIGHUP new handshakes get the new certificate")
        # The open connection: a masked JSON ping gets its pong.
        payload = json.dumps({"type": "hello", "version": 1, "name": "across"}).encode()
        mask = os.urandom(4)
        frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
        open_conn.sendall(frame)
        reply = open_conn.recv(4096)
        check(b"welcome" in reply, "the connection opened before the reload still works")
        open_conn.close()
        check(server.proc.poll() is None, "the server is still running after SIGHUP")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def main():
    for group in (origin_cases, request_cases, tls_cases):
        try:
            group()
        except Exception as e:  # noqa: BLE001 - a group that breaks is a failure, the others still run
            check(False, "%s: %s: %s" % (group.__name__, type(e).__name__, e))
    print("%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
