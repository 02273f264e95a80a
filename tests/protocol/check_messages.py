#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Validates recorded protocol messages with a complete JSON Schema validator.

    check_messages.py SCHEMA_DIR MESSAGES.jsonl

MESSAGES.jsonl holds one JSON object per line, {"game": label, "from": "client"
or "server", "message": frame}, as the server tests write them with
CASA_MESSAGE_LOG set (record_messages in tests/server/support.h). Each client
frame must fit client.json and each server frame server.json, checked by
python3-jsonschema with the draft the schemas declare; every "$ref" resolves to
the files of SCHEMA_DIR (no network). Every game of the list below must be
there, with its game_over. Exit status 1 on any mismatch, 2 on bad input.
"""
import json
import pathlib
import sys

import jsonschema

# The whole games the server tests record: every game and La Casa format.
GAMES = ["la-casa/4p", "la-casa/2p", "la-casa/domination", "la-casa/solo", "casino", "conference",
         "trophy-case"]
BASE = "https://casa.invalid/schemas/"  # never fetched: only names the files


def load_schemas(schema_dir):
    """Every schema file by its URI (BASE + its "$id", a path in SCHEMA_DIR)."""
    store = {}
    for path in sorted(schema_dir.rglob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(schema_dir).as_posix()
        if schema.get("$id", rel) != rel:
            sys.exit(f"{path}: $id {schema.get('$id')!r} is not its path {rel!r}")
        store[BASE + rel] = schema
    drafts = {s.get("$schema") for s in store.values()}
    if len(drafts) != 1:
        sys.exit(f"the schemas declare several drafts: {sorted(map(str, drafts))}")
    return store, drafts.pop()


def validators(store, draft):
    """client.json and server.json validators whose $refs resolve in `store` only."""
    cls = jsonschema.validators.validator_for({"$schema": draft})
    for uri, schema in store.items():
        try:
            cls.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            sys.exit(f"{uri}: not a valid {draft} schema: {e.message}")
    # The $id of each file is relative: resolved against BASE, as its URI.
    with_ids = {uri: dict(schema, **{"$id": uri}) for uri, schema in store.items()}
    try:  # jsonschema 4.18 and later
        import referencing
        import referencing.jsonschema

        spec = referencing.jsonschema.specification_with(draft)

        def refuse(uri):
            raise referencing.exceptions.NoSuchResource(ref=uri)

        registry = referencing.Registry(retrieve=refuse).with_resources(
            (uri, spec.create_resource(schema)) for uri, schema in with_ids.items())
        return {name: cls(with_ids[BASE + name], registry=registry) for name in ("client.json", "server.json")}
    except ImportError:  # Debian 12's 4.10
        def make(name):
            resolver = jsonschema.RefResolver(BASE + name, with_ids[BASE + name], store=with_ids,
                                              handlers={"http": refuse_fetch, "https": refuse_fetch})
            return cls(with_ids[BASE + name], resolver=resolver)

        def refuse_fetch(uri):
            raise jsonschema.exceptions.RefResolutionError(f"no schema file for {uri}")

        return {name: make(name) for name in ("client.json", "server.json")}


def describe(error):
    where = "/" + "/".join(str(p) for p in error.absolute_path)
    # oneOf over message types: the branch whose "type" matched says most.
    branches = {}
    for e in error.context or []:
        branches.setdefault(e.relative_schema_path[0], []).append(e)
    typed = [errs for errs in branches.values() if not any(list(e.absolute_path) == ["type"] for e in errs)]
    candidates = typed[0] if len(typed) == 1 else (error.context or [error])
    deepest = max(candidates, key=lambda e: len(e.absolute_path))
    detail = "" if deepest is error else f" (e.g. {'/' + '/'.join(str(p) for p in deepest.absolute_path)}: {deepest.message})"
    message = f"fits none of {error.validator}" if error.validator in ("oneOf", "anyOf") else error.message
    return f"{where}: {message[:200]}{detail}"


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema_dir, messages = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    store, draft = load_schemas(schema_dir)
    check = validators(store, draft)
    counts, game_overs, failures = {}, {}, []
    with messages.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
                game, side, message = entry["game"], entry["from"], entry["message"]
                validator = check[{"client": "client.json", "server": "server.json"}[side]]
            except (ValueError, KeyError, TypeError) as e:
                print(f"{messages}:{number}: not a recorded message ({e})", file=sys.stderr)
                return 2
            counts[(game, side)] = counts.get((game, side), 0) + 1
            if side == "server" and isinstance(message, dict) and message.get("type") == "game_over":
                game_overs[game] = game_overs.get(game, 0) + 1
            errors = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
            if errors:
                failures.append(f"{messages}:{number}: {game} {side} message {json.dumps(message)[:300]}\n  "
                                + "\n  ".join(describe(e) for e in errors[:3]))
    for game in GAMES:
        for side in ("client", "server"):
            if counts.get((game, side), 0) == 0:
                failures.append(f"no {side} messages of {game} recorded")
        if game_overs.get(game, 0) == 0:
            failures.append(f"no game_over of {game} recorded: not a whole game")
    for (game, side), n in sorted(counts.items()):
        print(f"{game:20} {side:6} {n:6} messages")
    if failures:
        print(f"{len(failures)} failures ({draft}, jsonschema {jsonschema_version()}):", file=sys.stderr)
        for f in failures[:50]:
            print(f, file=sys.stderr)
        return 1
    print(f"every message fits the schemas ({draft}, jsonschema {jsonschema_version()})")
    return 0


def jsonschema_version():
    try:
        from importlib.metadata import version
        return version("jsonschema")
    except Exception:  # noqa: BLE001 (only for the report line)
        return "?"


if __name__ == "__main__":
    sys.exit(main())
