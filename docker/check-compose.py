#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Validates compose files against the Compose Specification's JSON Schema.

    docker/check-compose.py FILE...

The schema is the copy that Debian's docker-compose package ships
(compose/config/compose_spec.json); that copy predates the top-level `name`
key of today's specification, which is added here as a string. Exit 0 when every
file is valid, 1 otherwise (each error is printed with its path in the file).
"""
import json
import sys

import jsonschema
import yaml

SCHEMA = "/usr/lib/python3/dist-packages/compose/config/compose_spec.json"


def main(files):
    with open(SCHEMA) as f:
        schema = json.load(f)
    schema["properties"].setdefault("name", {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$"})
    validator = jsonschema.Draft201909Validator(schema)
    failed = False
    for path in files:
        with open(path) as f:
            doc = yaml.safe_load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(top level)"
            print(f"{path}: {where}: {e.message}")
        if errors:
            failed = True
        else:
            print(f"{path}: valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
