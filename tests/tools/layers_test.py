#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""tools/layers.py on the checkout and on small made-up trees: the checkout
passes; a downward include passes; an upward include, a header cycle, a file
outside the folders, an include of a missing header and SQL outside the store
each fail with a line
that names the file.

    layers_test.py PATH/TO/layers.py ROOT
"""
import importlib.util
import os
import sys
import tempfile

spec = importlib.util.spec_from_file_location("layers", sys.argv[1])
layers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(layers)
ROOT = sys.argv[2]
failures = []


def expect(name, condition):
    if not condition:
        failures.append(name)
        print("FAIL:", name)


errors, edges = layers.check(ROOT)
for e in errors:
    print("checkout:", e)
expect("the checkout keeps its layers", not errors)
expect("the checkout's graph has the store below the table", ("table", "store") in edges)


def tree(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    return layers.check(root)[0]


base = {
    "server/ops/log.h": "#pragma once\n",
    "server/store/store.h": '#pragma once\n#include "server/ops/log.h"\n',
    "server/table/table.h": '#pragma once\n#include "server/store/store.h"\n',
    "server/lobby/lobby.h": '#pragma once\n#include "server/table/table.h"\n',
}
expect("downward includes pass", tree(base) == [])

up = dict(base, **{"server/table/table.cpp": '#include "server/lobby/lobby.h"\n'})
errs = tree(up)
expect("an upward include fails", any("server/table/table.cpp" in e and "lobby" in e for e in errs))

side = dict(base, **{"server/net/io.cpp": '#include "server/store/store.h"\n'})
expect("store and net do not include each other", any("server/net/io.cpp" in e for e in tree(side)))

cycle = dict(base, **{
    "server/ops/a.h": '#pragma once\n#include "server/ops/b.h"\n',
    "server/ops/b.h": '#pragma once\n#include "server/ops/a.h"\n',
})
expect("a header cycle fails", any(e.startswith("include cycle") for e in tree(cycle)))

stray = dict(base, **{"server/stray.cpp": "int x;\n"})
expect("a file outside the folders fails", any("server/stray.cpp" in e for e in tree(stray)))

sql = dict(base, **{"server/table/table.cpp": 'void f(Db& db) { db.prepare("SELECT 1"); }\n'})
expect("SQL outside the store fails", any("server/table/table.cpp" in e and "SQL" in e for e in tree(sql)))
in_store = dict(base, **{"server/store/rows.cpp": 'void f(Db& db) { db.prepare("SELECT 1"); }\n'})
expect("SQL in the store passes", tree(in_store) == [])

missing = dict(base, **{"server/ops/x.cpp": '#include "server/ops/gone.h"\n'})
expect("an include of a missing header fails", any("gone.h" in e for e in tree(missing)))

print("layers_test:", "FAILED " + ", ".join(failures) if failures else "ok")
sys.exit(1 if failures else 0)
