#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""tools/spdx.py on a small made-up tree (not a git checkout, so it walks the tree):
--check lists exactly the files without their line and exits 1; --fix puts the
line in each file's comment syntax, after what must stay first, keeps the file's
mode, and afterwards --check passes. Standard library only.

    spdx_test.py PATH/TO/spdx.py
"""
import os
import stat
import subprocess
import sys
import tempfile

AGPL = "SPDX-License-Identifier: AGPL-3.0-or-later"
MIT = "SPDX-License-Identifier: MIT"

# path -> (content before, the line --fix must put at this 0-based index, as it must read)
CASES = {
    "server/a.cpp": ("#include <x>\n", 0, "// " + AGPL),
    "server/b.h": ("#pragma once\n", 0, "// " + AGPL),
    "clients/web/src/c.tsx": ("export {};\n", 0, "// " + AGPL),
    "clients/web/src/d.css": ("body {}\n", 0, "/* " + AGPL + " */"),
    "clients/web/index.html": ("<!doctype html>\n<html></html>\n", 1, "<!-- " + AGPL + " -->"),
    "scripts/e.sh": ("#!/usr/bin/env bash\necho hi\n", 1, "# " + AGPL),
    "tools/f.py": ("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nprint(1)\n", 2, "# " + AGPL),
    "migrations/0001_g.sql": ("CREATE TABLE g (x);\n", 0, "-- " + AGPL),
    "CMakeLists.txt": ("project(x)\n", 0, "# " + AGPL),
    "cmake/h.cmake": ("set(X 1)\n", 0, "# " + AGPL),
    "server/i.cpp.in": ("// Generated: do not edit.\n", 0, "// " + AGPL),
    "Dockerfile": ("# syntax=docker/dockerfile:1\nFROM debian:12\n", 1, "# " + AGPL),
    "docker/j.Dockerfile": ("FROM debian:12\n", 0, "# " + AGPL),
    "clients/bots/k.py": ("#!/usr/bin/env python3\nprint(2)\n", 1, "# " + MIT),
    "clients/bots/l.mjs": ("console.log(3);\n", 0, "// " + MIT),
    # A wrong licence is corrected in place.
    "clients/bots/m.py": ("# " + AGPL + "\nprint(4)\n", 0, "# " + MIT),
}
# Files that are fine as they are, or not checked at all.
UNTOUCHED = {
    "server/ok.cpp": "// " + AGPL + "\nint x;\n",
    "scripts/ok.sh": "#!/bin/sh\n# " + AGPL + "\n",
    "clients/bots/ok.py": "#!/usr/bin/env python3\n# " + MIT + "\n",
    "docs/readme.md": "# Not source\n",
    "clients/web/package.json": "{}\n",
    "clients/web/package-lock.json": "{}\n",
    "clients/web/node_modules/dep/index.js": "module.exports = 1;\n",
    "clients/web/dist/assets/index.js": "console.log(1);\n",
    "build/gen.cpp": "int generated;\n",
    "fuzz/corpus/fuzz_engine/0a1b": "\x01\x02",
}


def run(spdx, mode, root):
    return subprocess.run([sys.executable, spdx, mode, "--root", root], capture_output=True, text=True)


def main():
    spdx = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for path, text in list((p, c[0]) for p, c in CASES.items()) + list(UNTOUCHED.items()):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        os.chmod(os.path.join(root, "scripts/e.sh"), 0o755)

        checked = run(spdx, "--check", root)
        if checked.returncode != 1:
            failures.append("--check exited %d, not 1" % checked.returncode)
        listed = {line.split(":")[0] for line in checked.stdout.splitlines()}
        if listed != set(CASES):
            failures.append("--check listed %s, expected %s" % (sorted(listed), sorted(CASES)))

        fixed = run(spdx, "--fix", root)
        if fixed.returncode != 0:
            failures.append("--fix exited %d: %s" % (fixed.returncode, fixed.stdout + fixed.stderr))
        for path, (before, at, line) in CASES.items():
            with open(os.path.join(root, path), encoding="utf-8") as f:
                after = f.read().splitlines()
            lines = before.splitlines()
            # m.py: the wrong line is replaced, every other case gains one line.
            expected = lines[:at] + [line] + (lines[at + 1:] if path.endswith("m.py") else lines[at:])
            if after != expected:
                failures.append("%s after --fix: %r, expected %r" % (path, after, expected))
        for path, text in UNTOUCHED.items():
            with open(os.path.join(root, path), encoding="utf-8") as f:
                if f.read() != text:
                    failures.append("%s was changed" % path)
        if not os.stat(os.path.join(root, "scripts/e.sh")).st_mode & stat.S_IXUSR:
            failures.append("scripts/e.sh lost its executable bit")

        again = run(spdx, "--check", root)
        if again.returncode != 0 or again.stdout:
            failures.append("--check after --fix: exit %d, %r" % (again.returncode, again.stdout))

    for f in failures:
        print("FAIL:", f)
    print("spdx_test: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
