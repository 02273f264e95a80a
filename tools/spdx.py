#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Checks, or adds, the SPDX licence line at the top of every source file.

    spdx.py --check [--root DIR]   list every file without the right line; exit 1 if any
    spdx.py --fix [--root DIR]     add the line where it is missing, correct a wrong one

The project is AGPL-3.0-or-later; the example bots under clients/bots/ are MIT, so
that bot authors may copy them into code of their own. A file has its line when
one of its first three lines holds "SPDX-License-Identifier: <its licence>".

Files checked: those git tracks (every file under the root, less build folders
and node_modules, when the root is not the top of a git checkout) whose name ends in .cpp
.h .hpp .in .ts .tsx .mjs .js .css .sh .py .cmake .sql .html, or is
CMakeLists.txt or a Dockerfile (Dockerfile, name.Dockerfile). Lock files, JSON,
Markdown and data files (fuzz corpora, screenshots) are not source and are left
alone, and so is anything under a dist/ folder or node_modules/ (build output).

The line goes in the file's own comment syntax (// for C++, TypeScript and
JavaScript; # for shell, Python, CMake and Dockerfiles; -- for SQL; /* */ for CSS;
<!-- --> for HTML), first in the file except after what has to come first: a
"#!" line, Python's coding line, a Dockerfile's parser directives
("# syntax=..."), an HTML <!doctype>. A template (name.cpp.in) takes the syntax of
the file it makes.

Standard library only; exit status 0 when every file has its line (or --fix
wrote them all), 1 otherwise, 2 on bad usage.
"""
import argparse
import os
import re
import subprocess
import sys

PROJECT_LICENCE = "AGPL-3.0-or-later"
# (folder prefix, licence): the first match wins.
FOLDER_LICENCES = [("clients/bots/", "MIT")]
TAG = "SPDX-License-Identifier:"
HEAD_LINES = 3

SLASHES = ("// ", "")
HASH = ("# ", "")
DASHES = ("-- ", "")
CSS = ("/* ", " */")
HTML = ("<!-- ", " -->")
BY_EXTENSION = {
    ".cpp": SLASHES, ".h": SLASHES, ".hpp": SLASHES,
    ".ts": SLASHES, ".tsx": SLASHES, ".mjs": SLASHES, ".js": SLASHES,
    ".css": CSS,
    ".sh": HASH, ".py": HASH, ".cmake": HASH,
    ".sql": DASHES,
    ".html": HTML,
}
SKIPPED_FOLDERS = {"node_modules", "dist", ".git"}
SKIPPED_NAMES = {"package-lock.json"}


def comment_style(path):
    """The (opening, closing) of a one-line comment for this file, or None when
    the file is not one of the sources checked."""
    name = os.path.basename(path)
    if name in SKIPPED_NAMES:
        return None
    if name == "CMakeLists.txt" or name == "Dockerfile" or name.endswith(".Dockerfile"):
        return HASH
    if name.endswith(".in"):
        inner = name[:-3]
        if inner == "CMakeLists.txt":
            return HASH
        return BY_EXTENSION.get(os.path.splitext(inner)[1], HASH)
    return BY_EXTENSION.get(os.path.splitext(name)[1])


def licence_of(path):
    for prefix, licence in FOLDER_LICENCES:
        if path.startswith(prefix):
            return licence
    return PROJECT_LICENCE


def skipped(path):
    parts = path.split("/")
    return any(p in SKIPPED_FOLDERS for p in parts[:-1])


def tracked_files(root):
    """Paths relative to root, with "/" separators."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], check=True,
                             capture_output=True, text=True).stdout.strip()
        if os.path.realpath(top) == os.path.realpath(root):
            out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                                 capture_output=True).stdout
            return [p for p in out.decode("utf-8").split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs
                   if d not in SKIPPED_FOLDERS and not (rel == "." and d.startswith("build"))]
        for f in files:
            found.append(f if rel == "." else os.path.join(rel, f).replace(os.sep, "/"))
    return found


def lines_to_keep_first(path, lines):
    """How many of the file's first lines must stay ahead of the SPDX line."""
    name = os.path.basename(path)
    n = 0
    if lines and lines[0].startswith("#!"):
        n = 1
    if name.endswith(".py") and n < len(lines) and n < 2 and re.match(
            r"^[ \t\f]*#.*?coding[:=]", lines[n]):
        n += 1
    if name == "Dockerfile" or name.endswith(".Dockerfile"):
        while n < len(lines) and re.match(r"^#\s*[A-Za-z]+\s*=", lines[n]):
            n += 1
    if name.endswith(".html") and lines and lines[0].lower().startswith("<!doctype"):
        n = 1
    return n


def spdx_value(line):
    at = line.find(TAG)
    if at < 0:
        return None
    value = line[at + len(TAG):].strip()
    for closing in ("*/", "-->"):
        if value.endswith(closing):
            value = value[: -len(closing)].strip()
    return value


def examine(root, path):
    """None when the file is fine, else (problem, new text or None)."""
    style = comment_style(path)
    if style is None or skipped(path):
        return None
    full = os.path.join(root, path)
    if os.path.islink(full) or not os.path.isfile(full):
        return None
    with open(full, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ("not UTF-8 text", None)
    expected = licence_of(path)
    wanted_line = style[0] + TAG + " " + expected + style[1]
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    for i, line in enumerate(lines[:HEAD_LINES]):
        value = spdx_value(line)
        if value is None:
            continue
        if value == expected:
            return None
        fixed = lines[:i] + [wanted_line + newline] + lines[i + 1:]
        return ("says %s, should say %s" % (value, expected), "".join(fixed))
    keep = lines_to_keep_first(path, lines)
    if keep > HEAD_LINES - 1:
        return ("no %s line, and no room for one in the first %d lines" % (TAG, HEAD_LINES), None)
    head = lines[:keep]
    if head and not head[-1].endswith(("\n", "\r")):
        head[-1] += newline
    fixed = head + [wanted_line + newline] + lines[keep:]
    return ("no %s %s line in the first %d lines" % (TAG, expected, HEAD_LINES), "".join(fixed))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="list files without the right line")
    mode.add_argument("--fix", action="store_true", help="add or correct the line in place")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the source folder (default: this file's project)")
    args = parser.parse_args(argv)
    root = os.path.normpath(args.root)

    problems = []
    fixed = 0
    for path in sorted(tracked_files(root)):
        found = examine(root, path)
        if found is None:
            continue
        problem, new_text = found
        if args.fix and new_text is not None:
            full = os.path.join(root, path)
            mode_bits = os.stat(full).st_mode
            with open(full, "w", encoding="utf-8", newline="") as f:
                f.write(new_text)
            os.chmod(full, mode_bits)
            fixed += 1
            continue
        problems.append((path, problem))

    for path, problem in problems:
        print("%s: %s" % (path, problem))
    if args.fix:
        print("spdx.py: %d file(s) fixed" % fixed, file=sys.stderr)
    if problems:
        print("spdx.py: %d file(s) without their SPDX line (tools/spdx.py --fix adds it)"
              % len(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
