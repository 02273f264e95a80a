#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""`casa` in a real 80x24 terminal (a pseudo-terminal) against a real casa-server.

    pty_test.py CASA_SERVER CASA

Proves, by typing as a person would:
  * each game's decision screen fits 80x24: no line over 80 columns, the screen
    from its header to the prompt at most 24 lines, so the header, scores, hand and
    choices are all on the terminal when the prompt waits;
  * the list of commands is named once, not at every decision;
  * one `casa play` follows one table although the token has another unfinished one;
  * `casa resume` lists the unfinished tables and follows the one picked;
    `--all` follows them all with every line naming its table;
  * `casa resume TABLE --bot first` plays to a readable end with the one JSON line
    on stdout, `casa rematch` plays the same table again, `leave` gives up a seat.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

SERVER, CASA = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp()
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


def columns(line):
    return len(line)  # str: one code point per column for every glyph casa prints


class Terminal:
    """One casa run in an 80x24 pseudo-terminal."""

    def __init__(self, args, token_file=None):
        self.args = args
        env = dict(os.environ)
        env["TERM"] = "xterm"
        if token_file:
            env["CASA_TOKEN_FILE"] = token_file
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.execve(CASA, [CASA] + args, env)
        self.text = ""
        self.status = None

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            return None
        self.text += data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "")
        return True

    def expect(self, pattern, timeout=30, start=0):
        deadline = time.time() + timeout
        while True:
            m = re.compile(pattern, re.M).search(self.text, start)
            if m:
                return m
            left = deadline - time.time()
            if left <= 0 or self.read(left) is None:
                m = re.compile(pattern, re.M).search(self.text, start)
                if m:
                    return m
                raise AssertionError(
                    "%s: no %r in:\n%s" % (" ".join(self.args), pattern, self.text[-3000:]))

    def type(self, line):
        os.write(self.fd, (line + "\n").encode())

    def wait(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self.read(0.05):
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            self.read(0.1)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError("%s did not end:\n%s" % (" ".join(self.args), self.text[-2000:]))


PROMPT = r"Your move \([^)]*\)> $"


def check_screen(term, label):
    """The decision screen now waiting: fits 80x24 and shows what a decision needs."""
    lines = term.text.split("\n")
    # What the terminal shows: its last 24 lines (the prompt is the last).
    shown = lines[-24:]
    for line in lines:
        if columns(line) > 80:
            fail("%s: a line of %d columns: %r" % (label, columns(line), line))
    headers = [i for i, l in enumerate(lines) if l.startswith("== ") or re.match(r"\[\w+\] == ", l)]
    if not headers:
        return fail("%s: no screen header in:\n%s" % (label, term.text[-2000:]))
    screen = lines[headers[-1]:]
    if len(screen) > 24:
        fail("%s: the decision screen takes %d lines:\n%s" % (label, len(screen), "\n".join(screen)))
    joined = "\n".join(shown)
    for part in ("Scores:", "Your choices:", "1) "):
        if part not in joined:
            fail("%s: %r is not on the terminal:\n%s" % (label, part, joined))
    if not any(l.startswith("== ") or re.match(r"\[\w+\] == ", l) for l in shown):
        fail("%s: the header scrolled off:\n%s" % (label, joined))


def start_server():
    log = open(os.path.join(tmp, "server.log"), "w")
    server = subprocess.Popen([SERVER, "--port", "0", "--address", "127.0.0.1", "--db",
                               os.path.join(tmp, "casa.db"), "--log-level", "info", "--testing"],
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(100):
        with open(os.path.join(tmp, "server.log")) as f:
            m = re.search(r"listening on port (\d+)", f.read())
        if m:
            return server, "ws://127.0.0.1:%s/ws" % m.group(1)
        time.sleep(0.1)
    server.kill()
    sys.exit("FAIL: the server did not start")


server, url = start_server()
try:
    # ---- Each game's decisions fit 80x24 (a new player each: --no-token) ----
    for game, players, options in [
        ("la-casa", 4, '{"format":"challenges","target":3}'),
        ("la-casa", 2, '{"format":"domination","target":2}'),
        ("la-casa", 1, '{"format":"solo","rounds":1}'),
        ("casino", 2, '{"target":5}'),
        ("casino", 4, '{"partners":true,"target":5}'),
        ("conference", 4, '{"hands":1}'),
        ("trophy-case", 4, '{"target":8}'),
        ("trophy-case", 5, '{"target":8}'),
    ]:
        label = "%s %d" % (game, players)
        term = Terminal(["play", "--url", url, "--no-token", "--game", game, "--players",
                         str(players), "--options", options])
        try:
            pos = 0
            for decision in range(4):
                m = term.expect(PROMPT, start=pos)
                check_screen(term, "%s, decision %d" % (label, decision + 1))
                pos = m.end()
                term.type("1")
            if term.text.count("say TEXT, team TEXT") != 1:
                fail("%s: the commands are named %d times" % (label, term.text.count("say TEXT, team TEXT")))
            term.type("quit")
            if term.wait() != 0:
                fail("%s: quit exited %s" % (label, term.status))
        except AssertionError as e:
            fail("%s: %s" % (label, e))
            os.kill(term.pid, signal.SIGKILL)
        print("ok   %s: screens fit 80x24" % label, flush=True)

    # ---- One table per invocation, then resume ----
    token = os.path.join(tmp, "token")
    first = Terminal(["play", "--url", url, "--game", "casino", "--players", "2", "--options",
                      '{"target":11}'], token)
    first.expect(PROMPT)
    table_a = first.expect(r"Table (\w+) created").group(1)
    first.type("1")
    first.expect(PROMPT, start=first.text.index("> ", first.text.index("Your move")) + 2)
    first.type("quit")
    first.wait()

    second = Terminal(["play", "--url", url, "--game", "trophy-case", "--players", "3",
                       "--options", '{"target":8}'], token)
    m = second.expect(PROMPT)
    table_b = second.expect(r"Table (\w+) created").group(1)
    check_screen(second, "second play")
    second.type("1")
    second.expect(PROMPT, start=m.end())
    time.sleep(0.5)
    second.type("quit")
    second.wait()
    naming = [l for l in second.text.split("\n") if table_a in l]
    if len(naming) != 1 or "casa resume " + table_a not in naming[0]:
        fail("one table per invocation: lines naming the other table: %r" % naming)
    if re.search("[\u2660\u2665\u2666\u2663]", second.text) or "== casino" in second.text:
        fail("one table per invocation: the casino table showed up:\n" + second.text[-2000:])
    if "== trophy-case" not in second.text:
        fail("one table per invocation: the new table is not shown")
    print("ok   one table followed: %s, not %s" % (table_b, table_a), flush=True)

    listing = subprocess.run([CASA, "resume", "--list", "--url", url, "--token-file", token],
                             capture_output=True, text=True, timeout=30)
    rows = re.findall(r"^  (\d+)\) (\w+) · (\S+) · playing", listing.stdout, re.M)
    if listing.returncode != 0 or sorted(t for _, t, _ in rows) != sorted([table_a, table_b]):
        fail("resume --list: rc %d, %r %r" % (listing.returncode, listing.stdout, listing.stderr))
    number_a = next((n for n, t, _ in rows if t == table_a), "1")

    picker = Terminal(["resume", "--url", url], token)
    picker.expect(r"Pick a table \(1-2\), 'all' to follow them all, or 'quit'> ")
    start = len(picker.text)
    picker.type(number_a)
    m = picker.expect(PROMPT, start=start)
    check_screen(picker, "resume, picked")
    picker.type("1")
    picker.expect(PROMPT, start=m.end())
    picker.type("quit")
    picker.wait()
    after = picker.text[start:]
    if "== casino" not in after or table_b in after or "== trophy-case" in after:
        fail("resume: the picked table is not the one followed:\n" + after[-2000:])
    print("ok   resume lists %s and %s and follows the one picked" % (table_a, table_b), flush=True)

    both = Terminal(["resume", "--all", "--url", url], token)
    m = both.expect(PROMPT)
    both.type("1")
    m = both.expect(PROMPT, start=m.end())
    both.type("1")
    m = both.expect(PROMPT, start=m.end())
    both.type("quit")
    both.wait()
    lines = [l for l in both.text.split("\n") if l.strip()]
    untagged = [l for l in lines if not re.match(r"\[(%s|%s)\] " % (table_a, table_b), l)
                and not l.startswith(("Connected as", "1", "Your move"))
                and "> " not in l[:3]]
    # (The echo of what was typed is the terminal's, not casa's.)
    untagged = [l for l in untagged if l not in ("1", "quit")]
    if untagged:
        fail("resume --all: lines without their table: %r" % untagged[:10])
    if not any(l.startswith("[%s] " % table_a) for l in lines) or \
            not any(l.startswith("[%s] " % table_b) for l in lines):
        fail("resume --all: not both tables followed:\n" + both.text[-2000:])
    print("ok   resume --all names the table on every line", flush=True)

    # ---- A readable end, rematch, leave ----
    end = subprocess.run([CASA, "resume", table_a, "--bot", "first", "--url", url, "--token-file",
                          token], capture_output=True, text=True, timeout=120)
    out_lines = [l for l in end.stdout.split("\n") if l]
    if end.returncode != 0 or len(out_lines) != 1 or json.loads(out_lines[0])["table"] != table_a:
        fail("resume TABLE --bot: rc %d, stdout %r, stderr %r" % (end.returncode, end.stdout, end.stderr[-800:]))
    elif "Game over at table " + table_a not in end.stderr or "Final scores: " not in end.stderr:
        fail("no readable end of game: %r" % end.stderr[-800:])
    print("ok   a readable end, then %s" % out_lines[:1], flush=True)

    again = subprocess.run([CASA, "rematch", "--bot", "first", "--url", url, "--token-file", token],
                           capture_output=True, text=True, timeout=120)
    out_lines = [l for l in again.stdout.split("\n") if l]
    if again.returncode != 0 or len(out_lines) != 1:
        fail("rematch: rc %d, %r %r" % (again.returncode, again.stdout, again.stderr[-800:]))
    else:
        result = json.loads(out_lines[0])
        if result["table"] == table_a or result["game"] != "casino":
            fail("rematch played %r" % result)
        print("ok   casa rematch played table %s" % result["table"], flush=True)

    leaver = Terminal(["resume", table_b, "--url", url], token)
    leaver.expect(PROMPT)
    leaver.type("leave")
    leaver.expect(r"You left table %s; the robot plays your seat from now on\." % table_b)
    if leaver.wait() != 0:
        fail("leave: exit %s" % leaver.status)
    listing = subprocess.run([CASA, "resume", "--list", "--url", url, "--token-file", token],
                             capture_output=True, text=True, timeout=30)
    if table_b in listing.stdout:
        fail("after leave the table is still the player's: %r" % listing.stdout)
    print("ok   leave hands the seat to the robot", flush=True)
except AssertionError as e:
    fail(str(e))
finally:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()

sys.exit(1 if failures else 0)
