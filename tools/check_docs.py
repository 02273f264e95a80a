#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Runs every casa-sim example of the engine docs and compares its output.

    check_docs.py --casa-sim PATH PAGE.md...

An example is a fenced code block whose first line starts with "$ ". Its command
lines are the lines starting with "$ " and the lines that continue them (after a
line ending in a backslash or a pipe); every other line of the block is output
the page shows. The commands of one block run together in bash, with "casa-sim"
found on PATH (the built binary), and their standard output must match the shown
lines:

  * a line that is only "…" stands for any number of output lines (none included);
  * inside a line, "…" stands for any text (a trimmed view or list);
  * every other character must be exactly what casa-sim prints, and the shown
    lines cover the output from its first line to its last.

A casa-sim command shown anywhere else in these pages (in a code span or a block
that is not an example) fails the check unless it is a synopsis (it contains
"[--"), so no command can be shown without being run. Pages under docs/games/
must also state how the first deal is reported, in the sentence FIRST_DEAL.

Exit status 0 when every example matches, 1 otherwise. Standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

ELLIPSIS = "\u2026"
FIRST_DEAL = ("The first deal happens when the game is created: no event reports it, and "
              "each seat finds its cards in its first view.")


def blocks(text):
    """(line number, list of lines) of each fenced block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            start = i + 1
            j = start
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((start + 1, lines[start:j]))
            i = j + 1
        else:
            i += 1
    return out


def split_example(lines):
    """[(commands, shown output)]: a "$ " line after output starts a new pair."""
    pairs = []
    commands, output = [], []
    continuing = False
    for line in lines:
        if line.startswith("$ ") and output and not continuing:
            pairs.append((commands, output))
            commands, output = [], []
        if not output and (line.startswith("$ ") or continuing):
            commands.append(line[2:] if line.startswith("$ ") and not continuing else line)
            continuing = line.rstrip().endswith("\\") or line.rstrip().endswith("|")
        else:
            output.append(line)
    pairs.append((commands, output))
    for _, shown in pairs:
        while shown and not shown[-1].strip():
            shown.pop()
    return pairs


def line_pattern(shown):
    return re.compile(".*".join(re.escape(part) for part in shown.split(ELLIPSIS)), re.S)


def matches(shown, actual):
    """None when the shown lines cover the actual lines (see the module comment),
    else the index of the first shown line that cannot follow the ones before it
    (len(shown) when the output goes on after the last shown line)."""
    # reachable[j]: the shown lines so far can cover actual[:j].
    reachable = [True] + [False] * len(actual)
    for index, line in enumerate(shown):
        nxt = [False] * (len(actual) + 1)
        if line.strip() == ELLIPSIS:
            seen = False
            for j in range(len(actual) + 1):
                seen = seen or reachable[j]
                nxt[j] = seen
        else:
            pattern = line_pattern(line)
            for j in range(len(actual)):
                if reachable[j] and pattern.fullmatch(actual[j]):
                    nxt[j + 1] = True
        reachable = nxt
        if not any(reachable):
            return index
    return None if reachable[len(actual)] else len(shown)


def unexecuted_commands(text, example_lines):
    """casa-sim invocations shown outside examples (synopses excepted)."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        if number in example_lines:
            continue
        for m in re.finditer(r"casa-sim (play|bench)\s+--", line):
            if "[--" in line:
                continue
            found.append((number, line.strip()))
            break
    return found


def run_example(commands, shown, casa_sim_dir):
    """None when the commands print the shown lines, else what went wrong."""
    script = "set -o pipefail\n" + "\n".join(commands) + "\n"
    env = dict(os.environ, PATH=casa_sim_dir + os.pathsep + os.environ.get("PATH", ""))
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                         timeout=120)
    actual = run.stdout.split("\n")
    if actual and actual[-1] == "":
        actual.pop()
    if run.returncode != 0 and not any('"type":"error"' in a for a in actual):
        return f"the command failed ({run.returncode}): {run.stderr.strip()[:300]}"
    bad = matches(shown, actual)
    if bad is None:
        return None
    where = (f"shown line {bad + 1} of the output does not follow from the ones "
             f"before it:\n    {shown[bad][:400]}" if bad < len(shown) else
             "the output goes on after the last shown line (end the block with "
             "a line \"…\")")
    return (f"casa-sim prints something else today: {where}\n  command: {commands[-1][:200]}"
            f"\n  first output lines:\n    " + "\n    ".join(a[:200] for a in actual[:4]))


def check_page(path, casa_sim_dir):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    failures = []
    examples = 0
    example_lines = set()
    for start, lines in blocks(text):
        if not lines or not lines[0].startswith("$ "):
            continue
        examples += 1
        example_lines.update(range(start, start + len(lines)))
        for commands, shown in split_example(lines):
            failure = run_example(commands, shown, casa_sim_dir)
            if failure:
                failures.append(f"{path}:{start}: {failure}")
    for number, line in unexecuted_commands(text, example_lines):
        failures.append(f"{path}:{number}: a casa-sim command shown outside an example "
                        f"(make it a block starting with \"$ \"): {line[:200]}")
    if os.path.basename(os.path.dirname(os.path.abspath(path))) == "games" and \
            FIRST_DEAL not in " ".join(text.split()):
        failures.append(f"{path}: does not say how the first deal is reported: "
                        f"\"{FIRST_DEAL}\"")
    return examples, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--casa-sim", required=True, help="the built casa-sim binary")
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    casa_sim_dir = os.path.dirname(os.path.abspath(args.casa_sim))
    total, failures = 0, []
    for page in args.pages:
        examples, page_failures = check_page(page, casa_sim_dir)
        total += examples
        failures += page_failures
        print(f"{page}: {examples} examples, {len(page_failures)} problems")
    for failure in failures:
        print(failure)
    print(f"{total} examples in {len(args.pages)} pages, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
