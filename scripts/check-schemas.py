#!/usr/bin/env python3
"""Validates OpScope's JSON output against the schemas in schemas/.

    python3 scripts/check-schemas.py report FILE...      # each FILE one JSON report
    python3 scripts/check-schemas.py stream FILE...      # each FILE an event stream (JSON Lines)

Options:
  --open                 validate as a reader does: fields and line kinds the schema does not
                         list are allowed (the format's promise, docs/EVENT-FORMAT.md). Without
                         it, as OpScope's tests do: every object that lists its fields is closed
                         (`unevaluatedProperties: false`) and every line kind must be known, so
                         a field OpScope writes but the schema does not describe (a renamed one)
                         fails as surely as a required one that is missing.
  --expect-invalid       succeed only if every FILE fails validation (negative checks).
  --require-kinds K,...  (stream) fail unless lines of each kind K appear in the FILEs together.
  --require-every-change (stream) fail unless every change the schema lists appears.

Exit status: 0 valid, 1 invalid (each problem named: file, line, JSON path), 2 usage,
3 the jsonschema package is missing (`python3 -m pip install jsonschema`).
"""
import copy
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = {"report": "report.schema.json", "stream": "stream.schema.json"}
# Where a subschema describes a value of its own (an object that may be closed), as opposed to
# the in-place applicators (allOf, if/then, $ref...), whose schemas describe the same object.
VALUE_LISTS = ("prefixItems",)
VALUE_MAPS = ("properties", "patternProperties")
VALUE_SINGLE = ("items", "additionalProperties", "contains")
IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
IN_PLACE_SINGLE = ("if", "then", "else", "not")

try:
    import jsonschema
except ImportError:
    sys.stderr.write("check-schemas: the jsonschema package is missing: python3 -m pip install jsonschema\n")
    sys.exit(3)


def resolve(root, schema):
    """The schema a `$ref` within the same document points at (or the schema itself)."""
    while isinstance(schema, dict) and "properties" not in schema and schema.get("$ref", "").startswith("#/"):
        node = root
        for part in schema["$ref"][2:].split("/"):
            node = node[part]
        schema = node
    return schema


def close(root):
    """A copy of `root` in which every value that lists its properties admits no others."""
    root = copy.deepcopy(root)

    def visit(schema, is_value):
        if not isinstance(schema, dict):
            return
        if is_value and isinstance(resolve(root, schema), dict) and "properties" in resolve(root, schema):
            schema["unevaluatedProperties"] = False
        for key in VALUE_MAPS:
            for child in schema.get(key, {}).values():
                visit(child, True)
        for key in VALUE_LISTS:
            for child in schema.get(key, []):
                visit(child, True)
        for key in VALUE_SINGLE:
            visit(schema.get(key), True)
        for key in IN_PLACE_LISTS:
            for child in schema.get(key, []):
                visit(child, False)
        for key in IN_PLACE_SINGLE:
            visit(schema.get(key), False)
        for child in schema.get("$defs", {}).values():
            visit(child, False)

    visit(root, True)
    return root


def line_kinds(schema):
    return [branch["if"]["properties"]["kind"]["const"] for branch in schema.get("allOf", [])]


def problems(validator, document, where):
    errors = list(validator.iter_errors(document))
    # A field that fails inside a branch (`then`) makes every field of that branch count as
    # unevaluated where the object is closed: that report only repeats the real one, below it.
    paths = [tuple(e.absolute_path) for e in errors if e.validator != "unevaluatedProperties"]

    def repeats(error):
        at = tuple(error.absolute_path)
        return error.validator == "unevaluatedProperties" and any(path[:len(at)] == at for path in paths)

    for error in sorted((e for e in errors if not repeats(e)), key=lambda e: [str(p) for p in e.absolute_path]):
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(the whole document)"
        yield f"{where}: {path}: {error.message}"


def check_file(kind, path, validator, schema, closed, seen_kinds, seen_changes):
    found = []
    if kind == "report":
        try:
            document = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError) as error:
            return [f"{path}: not JSON: {error}"]
        return list(problems(validator, document, path))
    known = line_kinds(schema)
    for number, text in enumerate(open(path, encoding="utf-8"), 1):
        if not text.strip():
            continue
        where = f"{path}:{number}"
        try:
            line = json.loads(text)
        except ValueError as error:
            found.append(f"{where}: not JSON: {error}")
            continue
        found += problems(validator, line, where)
        if isinstance(line, dict):
            seen_kinds.add(line.get("kind"))
            if line.get("kind") == "event":
                seen_changes.add(line.get("change"))
            if closed and line.get("kind") not in known:
                found.append(f"{where}: a line of kind {line.get('kind')!r}, which the schema does not describe")
    return found


def main():
    arguments = sys.argv[1:]
    if not arguments or arguments[0] not in SCHEMAS:
        sys.stderr.write(__doc__)
        return 2
    kind, arguments = arguments[0], arguments[1:]
    closed = "--open" not in arguments
    expect_invalid = "--expect-invalid" in arguments
    every_change = "--require-every-change" in arguments
    required_kinds = []
    files = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--require-kinds" and index + 1 < len(arguments):
            required_kinds = arguments[index + 1].split(",")
            index += 2
            continue
        if not argument.startswith("--"):
            files.append(argument)
        index += 1
    if not files:
        sys.stderr.write("check-schemas: no file given\n")
        return 2
    schema = json.load(open(os.path.join(ROOT, "schemas", SCHEMAS[kind]), encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(close(schema) if closed else schema)
    seen_kinds, seen_changes = set(), set()
    failures = 0
    for path in files:
        found = check_file(kind, path, validator, schema, closed, seen_kinds, seen_changes)
        if expect_invalid:
            if found:
                print(f"{path}: invalid, as expected: {found[0]}")
            else:
                print(f"{path}: valid, but it was expected to fail validation")
                failures += 1
            continue
        for problem in found:
            print(problem)
        failures += bool(found)
    if not expect_invalid and kind == "stream":
        missing = [k for k in required_kinds if k not in seen_kinds]
        if missing:
            print(f"check-schemas: no line of kind {', '.join(missing)} in {', '.join(files)}")
            failures += 1
        if every_change:
            changes = schema["$defs"]["event"]["properties"]["change"]["enum"]
            absent = [c for c in changes if c not in seen_changes]
            if absent:
                print(f"check-schemas: no event with change {', '.join(absent)} in {', '.join(files)}")
                failures += 1
    if failures:
        return 1
    print(f"check-schemas: {len(files)} {kind} file(s) {'invalid, as expected' if expect_invalid else 'valid'}"
          f" ({'open' if not closed else 'closed'} schema)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
