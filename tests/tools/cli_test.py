#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""The command lines of the programs: --help, unknown flags, and real parses.

usage: cli_test.py casa|casa-sim|casa-arena|casa-echo-server|casa-loadgen|casa-fsync-floor|casa-chaos|casa_cluster_play PATH/TO/PROGRAM
       cli_test.py casa-server PATH/TO/casa-server SOURCE_DIR

For the program and every one of its commands: --help and -h exit 0 with the
usage on stdout, naming every option the docs list for it (docs/cli.md,
docs/engine-cli.md, docs/arena.md; casa-server: every setting of
docs/casa-server.example.toml); an unknown flag exits with the usage status
(2) and a message on stderr that names it. Then a few real command lines whose
result is known: values, repeated flags, numbers out of range.
"""
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

COMMON = ["--url", "--name", "--token-file", "--no-token", "--insecure"]
BOT = ["--bot", "--seed", "--verbose"]
ACCOUNT = ["--url", "--token-file", "--insecure"]
TABLE = ["--game", "--players", "--options", "--fill", "--private", "--grace", "--takeover",
         "--move-timeout", "--correspondence"]

# Each command, and the options its help must name.
COMMANDS = {
    "casa": {
        (): ["--version", "play", "create", "join", "resume", "rematch", "watch", "list", "verify",
             "review", "event", "account"],
        ("play",): TABLE + BOT + COMMON,
        ("create",): TABLE + BOT + COMMON,
        ("join",): ["CODE", "--seat"] + BOT + COMMON,
        ("resume",): ["TABLE", "--all", "--list"] + BOT + COMMON,
        ("rematch",): ["TABLE"] + BOT + COMMON,
        ("watch",): ["CODE"] + COMMON,
        ("list",): ["--game"] + COMMON,
        ("verify",): ["TABLE", "--url", "--commitment", "--invite", "--insecure"],
        ("review",): ["TABLE", "--seat", "--iterations", "--seed", "--json", "--bench", "--runs", "--url",
                      "--invite", "--insecure"],
        ("event",): ["create", "join", "standings", "casa event join", "casa event standings"],
        ("event", "create"): ["--game", "--players", "--options", "--side", "--boards"] + COMMON,
        ("event", "join"): ["EVENT"] + BOT + COMMON,
        ("event", "standings"): ["EVENT", "--follow", "--every", "--json", "--url", "--insecure"],
        ("account",): ["claim", "signin", "code", "link", "sessions", "revoke", "password", "signout",
                       "--json"] + ACCOUNT,
        ("account", "claim"): ["HANDLE", "--no-password"] + ACCOUNT,
        ("account", "signin"): ["HANDLE", "--label"] + ACCOUNT,
        ("account", "code"): ACCOUNT,
        ("account", "link"): ["CODE", "--label"] + ACCOUNT,
        ("account", "sessions"): ["--json"] + ACCOUNT,
        ("account", "revoke"): ["ID"] + ACCOUNT,
        ("account", "password"): ACCOUNT,
        ("account", "signout"): ACCOUNT,
    },
    "casa-sim": {
        (): ["--version", "play", "bench"],
        ("play",): ["--game", "--players", "--options", "--seed", "--deck", "--dealer",
                    "--challenge", "--rounds", "--no-views", "--auto"],
        ("bench",): ["--game", "--players", "--options", "--games", "--seed"],
    },
    "casa-server": {
        (): ["--config", "--version", "backup"],  # and the settings of the example file
        ("backup",): ["OUT"],
    },
    "casa-echo-server": {(): ["--port", "--address", "--fanout"]},
    "casa-loadgen": {
        (): ["--url", "--tables", "--players-per-table", "--tables-per-player", "--game", "--options",
             "--rate", "--duration", "--warmup", "--max-moves", "--connections-only", "--server-pid",
             "--echo", "--message-size", "--fanout", "--connect-parallel", "--setup-seconds", "--seed",
             "--features", "--metrics", "--quiet"],
    },
    "casa-fsync-floor": {(): ["--dir", "--count", "--bytes"]},
    "casa-chaos": {
        (): ["--server", "--tables", "--players", "--game", "--options", "--kills", "--seed",
             "--think-ms", "--time-limit", "--keep", "--power-cut", "--expect-loss", "--game-end-cuts",
             "--chat-every", "--server-arg", "--mix"],
    },
    "casa_cluster_play": {
        (): ["--port", "--games", "--parallel", "--game", "--players", "--options", "--minutes", "--acked"],
    },
    "casa-arena": {
        (): ["--version", "--game", "--players", "--options", "--a", "--b", "--deals", "--seed",
             "--jobs", "--json", "--quiet", "--no-timing"],
    },
}

# What `casa-sim play --game trophy-case --players 3 --options '{"target":5}' --seed 5
# --auto --no-views` printed before its command line was CLI11's.
SIM_PLAY_SHA256 = "3af3dbf595d19cdb87dc2c939125e974cd4167abfe33c91493312cfeb7522add"

failures = 0


def run(program, args, stdin="", env=None):
    return subprocess.run([program] + list(args), input=stdin, capture_output=True, text=True,
                          timeout=120, env=env)


def check(ok, what, got=None):
    global failures
    if ok:
        print("ok   " + what, flush=True)
    else:
        failures += 1
        print("FAIL " + what, flush=True)
        if got is not None:
            print("     exit %d\n     stdout: %s\n     stderr: %s" %
                  (got.returncode, got.stdout[-2000:], got.stderr[-2000:]), flush=True)


def expect(program, args, status, stderr_has, what):
    got = run(program, args)
    check(got.returncode == status and stderr_has in got.stderr,
          "%s (exit %d, stderr names '%s')" % (what, status, stderr_has), got)
    return got


def help_and_unknown(name, program):
    for command, options in COMMANDS[name].items():
        label = " ".join((name,) + command)
        for flag in ("--help", "-h"):
            got = run(program, list(command) + [flag])
            missing = [o for o in options if o not in got.stdout]
            check(got.returncode == 0 and not missing and "Usage:" in got.stdout,
                  "%s %s: exit 0, names %s" % (label, flag, " ".join(options)), got)
        got = run(program, list(command) + ["--no-such-flag"])
        check(got.returncode == 2 and "--no-such-flag" in got.stderr and got.stdout == "",
              "%s --no-such-flag: exit 2, named on stderr" % label, got)


def casa_parses(casa):
    nowhere = ["--url", "ws://127.0.0.1:1/ws", "--no-token"]
    expect(casa, [], 2, "missing command", "casa alone")
    expect(casa, ["frobnicate"], 2, "unknown command frobnicate", "an unknown command")
    expect(casa, ["play", "--players", "0"], 2, "--players must be at least 1", "a number out of range")
    expect(casa, ["play", "--players", "four"], 2, "--players", "a value that is no number")
    expect(casa, ["play", "--grace", "4000"], 2, "--grace is at most 3600 seconds", "--grace out of range")
    expect(casa, ["play", "--move-timeout", "86400"], 2, "more with --correspondence",
           "a day per move without --correspondence")
    expect(casa, ["play", "--correspondence", "--move-timeout", "1209601"], 2, "at most 1209600 seconds",
           "more than 14 days per move")
    expect(casa, ["play", "--bot", "clever"], 2, "--bot must be random or first", "a bad --bot")
    expect(casa, ["play", "--takeover", "nobody"], 2, "--takeover must be robot, strong, none or forfeit",
           "a bad --takeover")
    expect(casa, ["play", "--options", "[1]"], 2, "--options must be a JSON object", "bad --options")
    expect(casa, ["play", "--game"], 2, "--game", "a value flag without its value")
    expect(casa, ["play", "--url", "http://x"], 2, "--url must start with ws:// or wss://", "a bad --url")
    expect(casa, ["join"], 2, "join needs an invite code", "join without a code")
    expect(casa, ["resume", "t1", "--all"], 2, "resume takes a table or --all, not both",
           "resume with a table and --all")
    expect(casa, ["play", "--side", "me"], 2, "--side", "a flag of another command")
    # The values reach the client: with no server, these parse and then fail to connect (3).
    expect(casa, ["play", "--game", "casino", "--players", "2", "--options", '{"target":11}', "--fill",
                  "none", "--bot", "first", "--seed", "7", "--grace", "30", "--takeover", "strong",
                  "--move-timeout", "20", "-v"] + nowhere, 3, "cannot reach ws://127.0.0.1:1/ws",
           "casa play with every value flag")
    expect(casa, ["list", "--game", "casino"] + nowhere, 3, "cannot reach", "casa list --game")
    # --side is repeated, once per side; fewer than two is refused.
    expect(casa, ["event", "create", "--players", "2", "--side", "me"] + nowhere, 2,
           "needs a --side for each side", "one --side")
    expect(casa, ["event", "create", "--players", "2", "--side", "me", "--side", "robot"] + nowhere,
           3, "cannot reach", "two --side flags")
    expect(casa, ["event", "create", "--players", "2", "--side", "me", "--side", "=x"] + nowhere, 2,
           "bad --side", "a bad --side")
    expect(casa, ["event", "create", "--players", "2", "--boards", "0", "--side", "me", "--side",
                  "robot"], 2, "--boards must be at least 1", "zero boards")
    expect(casa, ["event", "create", "--players", "2", "--side", "me", "--side", "robot", "--fill",
                  "robot"], 2, "unknown flag --fill for event create", "--fill on event create")
    expect(casa, ["event"], 2, "event needs create, join or standings", "event alone")
    expect(casa, ["event", "frobnicate"], 2, "unknown event command frobnicate", "an unknown event command")
    expect(casa, ["event", "join", "--bot", "first"], 2, "event join needs the event's id",
           "event join without an event")
    expect(casa, ["event", "standings", "e1", "--every", "0.1"], 2, "--every takes 0.2 to 3600 seconds",
           "--every out of range")
    expect(casa, ["verify"], 2, "verify needs the table of a finished game", "verify without a table")
    expect(casa, ["verify", "t1", "--invite", "a-b"], 2, "bad invite code a-b", "a bad invite code")
    expect(casa, ["verify", "t1", "--url", "http://127.0.0.1:1", "--commitment", "ab"], 3, "",
           "verify parses --url and --commitment, then finds no server")
    expect(casa, ["review"], 2, "review needs the table of a finished game, or a replay file",
           "review without a table")
    expect(casa, ["review", "t1", "--iterations", "0"], 2, "--iterations takes 1 to 1000000",
           "review with no iterations")
    expect(casa, ["review", "t1", "--seat", "9"], 2, "bad seat 9", "review of a seat that cannot be")
    expect(casa, ["review", "no/such.json"], 2, "no file no/such.json, and it is not a table id",
           "review of a file that is not there")
    expect(casa, ["review", "t1", "--url", "http://127.0.0.1:1", "--seat", "1", "--seat", "2"], 3, "",
           "review parses --url and --seat twice, then finds no server")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "replay.json")
        with open(path, "w") as f:
            f.write('{"game": "la-casa", "players": 4, "seed": "1", "log": []}')
        expect(casa, ["review", path], 4, "", "review of a replay that does not hold together")
        got = run(casa, ["review", path, "--json"])
        check(got.returncode == 4 and json.loads(got.stdout or "{}").get("error") == "replay",
              "review --json of a replay that does not hold together: the error JSON", got)
    # The robots' 4-player La Casa game, timed once on a tiny budget.
    got = run(casa, ["review", "--bench", "--runs", "1", "--iterations", "4"])
    check(got.returncode == 0 and "decisions reviewed, 4 iterations each" in got.stdout,
          "review --bench times the robots' game", got)


def sim_parses(sim):
    expect(sim, [], 2, "missing command", "casa-sim alone")
    expect(sim, ["frobnicate"], 2, "unknown command frobnicate", "an unknown command")
    expect(sim, ["bench", "--games", "x"], 2, "--games", "a number that is no number")
    expect(sim, ["play", "--options", "[]"], 2, "--options must be a JSON object", "bad --options")
    # The same figures as the parser before CLI11 gave for these values.
    got = run(sim, ["bench", "--game", "casino", "--players", "2", "--games", "3", "--seed", "7"])
    out = json.loads(got.stdout) if got.returncode == 0 else {}
    check(out.get("games") == 3 and out.get("actions") == 585 and
          out.get("checksum") == 2989031162995186552, "casa-sim bench: --games, --seed as before", got)
    got = run(sim, ["bench", "--game=casino", "--players=2", "--games=3", "--seed=7"])
    out2 = json.loads(got.stdout) if got.returncode == 0 else {}
    check(out2.get("checksum") == out.get("checksum"), "--flag=value is the same as --flag value", got)
    got = run(sim, ["play", "--game", "trophy-case", "--players", "3", "--options", '{"target":5}',
                    "--seed", "5", "--auto", "--no-views"])
    lines = got.stdout.splitlines()
    check(got.returncode == 0 and lines and json.loads(lines[-1])["type"] == "over" and
          all('"view' not in line for line in lines) and
          hashlib.sha256(got.stdout.encode()).hexdigest() == SIM_PLAY_SHA256,
          "casa-sim play --auto --no-views: the same game as before", got)


def arena_parses(arena):
    expect(arena, ["--deals", "0"], 2, "--deals must be at least 1", "zero deals")
    expect(arena, ["--jobs", "300"], 2, "--jobs must be from 1 to 256", "--jobs out of range")
    expect(arena, ["--jobs", "two"], 2, "--jobs", "a number that is no number")
    expect(arena, ["--a", "genius"], 2, "unknown bot 'genius'", "an unknown bot")
    got = run(arena, ["--game", "casino", "--players", "2", "--a", "random", "--b", "robot", "--deals",
                      "2", "--seed", "3", "--no-timing", "--quiet"])
    out = json.loads(got.stdout) if got.returncode == 0 else {}
    check(out.get("a") == "random" and out.get("b") == "robot" and out.get("games") == 4 and
          out.get("actions") == 633 and out.get("seed") == 3 and "a_ms_per_decision" not in out and
          got.stderr == "", "casa-arena: the same match as before", got)


def server_parses(server):
    expect(server, ["--port", "eighty"], 2, "bad value for --port: eighty", "a value that is no number")
    expect(server, ["--strong-ms", "0"], 2, "--strong-ms must be from 1 to 60000", "a number out of range")
    expect(server, ["--durability", "sometimes"], 2, "bad value for --durability: sometimes",
           "a value not among the choices")
    expect(server, ["--port"], 2, "--port", "a flag without its value")
    expect(server, ["serve"], 2, "unexpected argument serve", "a word that is no command")
    expect(server, ["backup"], 2, "backup", "backup without the copy to write")
    got = run(server, ["--version"])
    check(got.returncode == 0 and got.stdout.startswith("casa-server "), "casa-server --version", got)
    # Which database backup copies shows where each setting came from: the file is
    # the lowest, then the environment (CASA_DB), then the flag; a later flag wins.
    with tempfile.TemporaryDirectory() as tmp:
        dbs = {}
        for name in ("file", "env", "flag", "last"):
            dbs[name] = os.path.join(tmp, name + ".db")
            with sqlite3.connect(dbs[name]) as db:
                db.execute("CREATE TABLE t (x)")
        conf = os.path.join(tmp, "casa.toml")
        with open(conf, "w") as f:
            f.write('db = "%s"\n' % dbs["file"])
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASA_")}
        out = os.path.join(tmp, "out%d.db")
        cases = [
            ("the file", ["--config", conf], {}, "file"),
            ("the file named by CASA_CONFIG", [], {"CASA_CONFIG": conf}, "file"),
            ("the environment over the file", ["--config=" + conf], {"CASA_DB": dbs["env"]}, "env"),
            ("the flag over both", ["--db", dbs["flag"], "--config", conf], {"CASA_DB": dbs["env"]},
             "flag"),
            ("the last of two flags", ["--db", dbs["flag"], "--db", dbs["last"]], {}, "last"),
        ]
        for i, (what, args, extra, want) in enumerate(cases):
            got = run(server, ["backup", out % i] + args, env=dict(env, **extra))
            check(got.returncode == 0 and ("backed up %s to" % dbs[want]) in got.stdout,
                  "casa-server backup: --db from %s" % what, got)
        with open(conf, "a") as f:
            f.write("no-such-setting = 1\n")
        expect(server, ["--config", conf], 2, "unknown setting 'no-such-setting'",
               "a configuration file with an unknown setting")


def bench_parses(name, program):
    if name == "casa-fsync-floor":
        expect(program, ["--count", "0"], 2, "--count and --bytes must be positive", "zero writes")
        with tempfile.TemporaryDirectory() as tmp:
            got = run(program, ["--dir", tmp, "--count", "3", "--bytes", "512"])
            out = json.loads(got.stdout) if got.returncode == 0 else {}
            check(out.get("dir") == tmp and out.get("count") == 3 and out.get("bytes") == 512,
                  "casa-fsync-floor: --dir, --count, --bytes reach the run", got)
    elif name == "casa-loadgen":
        expect(program, ["--duration", "0"], 2, "--duration must be in (0, 600]", "--duration out of range")
        expect(program, ["--tables", "3", "--tables-per-player", "2"], 2,
               "--tables must be a multiple of --tables-per-player", "tables not a multiple")
        expect(program, ["--url", "ws://192.0.2.1:1/ws"], 2, "refusing non-loopback host",
               "a host off loopback")
    elif name == "casa-echo-server":
        expect(program, ["--port", "http"], 2, "--port", "a port that is no number")
    elif name == "casa-chaos":
        expect(program, [], 2, "--server is required", "casa-chaos without --server")
        expect(program, ["--server", "x", "--mix", "conference"], 2, "--mix wants GAME:JSON", "a bad --mix")
        expect(program, ["--server", "x", "--tables", "0"], 2, "tables 1..2000", "--tables out of range")
        expect(program, ["--server", "x", "--kills", "many"], 2, "--kills", "a count that is no number")
    elif name == "casa_cluster_play":
        expect(program, [], 2, "needs --port", "casa_cluster_play without --port")
        expect(program, ["--port", "1", "--options", "{"], 2, "--options must be JSON", "bad --options")


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in COMMANDS:
        print(__doc__)
        return 2
    name, program = sys.argv[1], sys.argv[2]
    if name == "casa-server":
        with open(os.path.join(sys.argv[3], "docs", "casa-server.example.toml")) as f:
            settings = re.findall(r"(?m)^#? ?([a-z-]+) = ", f.read())
        COMMANDS[name][()] += ["--" + s for s in settings]
    help_and_unknown(name, program)
    parses = {"casa": casa_parses, "casa-sim": sim_parses, "casa-arena": arena_parses,
              "casa-server": server_parses}
    if name in parses:
        parses[name](program)
    else:
        bench_parses(name, program)
    if failures:
        print("%d failed" % failures)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
