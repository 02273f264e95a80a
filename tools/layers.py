#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""The layers of server/: which folder may include which.

Each folder of server/ is a unit, except net/server.{h,cpp} (the listener and
the sessions, which hand frames to the lobby), which is the unit "sessions".
The units, lowest first:

    ops < store, net, accounts < table < tournaments < lobby < cluster < http < sessions < app

A unit includes only units below it (store, net and accounts are side by side and do
not include each other): where a lower unit must call a higher one, it declares the
interface it needs (table/host.h, tournaments/host.h, lobby/cluster_port.h) and
the higher one implements it. The check fails on any include that goes upward
or sideways, on a cycle of includes between headers, on a file outside the
folders and on an include of a header that does not exist.

SQL belongs in store/: the check also fails on a file elsewhere that prepares
or executes a statement (the store's repositories, store/*_rows.h, take and
give plain rows).

    layers.py [ROOT]      checks ROOT (default: the checkout this file is in)
    layers.py --graph     prints the units' include graph
Standard library only.
"""
import os
import re
import sys

RANK = {
    "ops": 0,
    "store": 1,
    "net": 1,
    "accounts": 1,
    "table": 2,
    "tournaments": 3,
    "lobby": 4,
    "cluster": 5,
    "http": 6,
    "sessions": 7,
    "app": 8,
}

STATEMENT = re.compile(r"\bdb\.prepare\(|\.exec\(")

INCLUDE = re.compile(r'^\s*#\s*include\s+"(server/[^"]+)"', re.M)


def unit_of(path):
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "server":
        return None
    if parts[1] == "net" and parts[2] in ("server.h", "server.cpp"):
        return "sessions"
    return parts[1]


def sources(root):
    out = []
    for folder, _, files in os.walk(os.path.join(root, "server")):
        for name in files:
            if name.endswith((".h", ".cpp", ".cpp.in")):
                full = os.path.join(folder, name)
                out.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return sorted(out)


def check(root):
    errors = []
    edges = set()
    headers = {}
    for path in sources(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        unit = unit_of(path)
        if unit not in RANK:
            errors.append(f"{path}: server/ files live in one of the folders {sorted(RANK)}")
            continue
        if unit != "store" and path.endswith(".cpp"):
            count = len(STATEMENT.findall(text))
            if count:
                errors.append(f"{path}: prepares {count} SQL statements: SQL belongs in server/store/")
        included = INCLUDE.findall(text)
        if path.endswith(".h"):
            headers[path] = included
        for header in included:
            if not os.path.exists(os.path.join(root, header)):
                errors.append(f"{path}: includes {header}, which does not exist")
                continue
            target = unit_of(header)
            if target == unit or target not in RANK:
                continue
            edges.add((unit, target))
            if RANK[target] >= RANK[unit]:
                errors.append(f"{path}: {unit} may not include {header} ({target} is not below {unit})")
    # No cycle between headers (a header that includes itself through others).
    state = {}

    def visit(header, stack):
        state[header] = "open"
        for child in headers.get(header, []):
            if state.get(child) == "open":
                cycle = stack[stack.index(child):] + [child] if child in stack else [header, child]
                errors.append("include cycle: " + " -> ".join(cycle))
            elif child not in state:
                visit(child, stack + [child])
        state[header] = "done"

    for header in sorted(headers):
        if header not in state:
            visit(header, [header])
    return errors, edges


def main():
    args = sys.argv[1:]
    graph = "--graph" in args
    args = [a for a in args if a != "--graph"]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    errors, edges = check(root)
    if graph:
        for unit, target in sorted(edges, key=lambda e: (RANK[e[0]], e[0], RANK[e[1]], e[1])):
            mark = "  (upward)" if RANK[target] >= RANK[unit] else ""
            print(f"{unit} -> {target}{mark}")
    for error in errors:
        print(error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
