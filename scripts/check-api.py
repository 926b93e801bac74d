#!/usr/bin/env python3
"""Compares the public API of the library modules with the committed baseline (api/*.baseline).

    python3 scripts/check-api.py            # fails, with a diff, when the API differs
    python3 scripts/check-api.py --update   # accepts the API as it is: rewrites the baselines

Each baseline lists one module's public declarations, one a line, sorted: the declaration as the
compiler states it (default values included), its deprecation, the conformances and superclass
of its types. A declaration that disappears or changes breaks code that uses it, so the check
fails and says which; one that is new fails too, until it is accepted, so that the baseline
always holds the whole API (and removing the new declaration later is noticed in turn).
Changing the API is a decision: run `--update` and commit the baselines with the change, saying
why in the commit (and in CHANGELOG.md for a removal or a change).

The modules are every library product: those an embedding program sees through `import OpScope`
(the products it re-exports), OpScope itself, DashboardUI, and the telemetry products
(OpScopeTelemetry; OpScopeOTLP as the default build, without the OTLP trait, has it: the trait
changes what its exporter does, not its declarations). Run `swift build` first: the symbol graphs come from that build
(scripts/symbol-graphs.py).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINES = os.path.join(ROOT, "api")
MODULES = ["OpScope", "OperationBridge", "OperationEvents", "DashboardModel", "DashboardSession", "EventCoding",
           "GraphExport", "OpScopeRecording", "OpScopeAgent", "TerminalKit", "DashboardUI", "OpScopeTelemetry",
           "OpScopeOTLP"]
# Conformances every type has, which the compiler adds or stops stating from one version to
# the next: not the package's decisions.
IMPLICIT = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype", "Swift.BitwiseCopyable"}


def text(fragments):
    return "".join(fragment["spelling"] for fragment in fragments or []).strip()


def constraints(symbol):
    found = symbol.get("swiftExtension", {}).get("constraints", [])
    if not found:
        return ""
    parts = [f"{c['lhs']} {':' if c['kind'] == 'conformance' else '=='} {c['rhs']}" if c["kind"] != "superclass"
             else f"{c['lhs']}: {c['rhs']}" for c in found]
    return " [in an extension where " + ", ".join(parts) + "]"


def deprecation(symbol):
    notes = []
    for availability in symbol.get("availability", []):
        if availability.get("isUnconditionallyDeprecated") or "deprecated" in availability:
            note = "deprecated"
            if availability.get("renamed"):
                note += f", renamed {availability['renamed']}"
            if availability.get("message"):
                note += f": {availability['message']}"
            notes.append(note)
        if availability.get("isUnconditionallyUnavailable"):
            notes.append("unavailable")
    return "".join(f" [{note}]" for note in notes)


def api_lines(directory, module):
    """The sorted lines of `module`'s public API from its symbol graphs in `directory`."""
    lines = set()
    files = sorted(name for name in os.listdir(directory)
                   if name == f"{module}.symbols.json" or name.startswith(f"{module}@"))
    for name in files:
        graph = json.load(open(os.path.join(directory, name), encoding="utf-8"))
        # Extensions of another module's types are named with that module.
        extended = name[len(module) + 1:-len(".symbols.json")] if "@" in name else None
        prefix = f"{extended}." if extended else ""
        paths = {}
        requirements = {r["source"] for r in graph["relationships"] if r["kind"] == "requirementOf"}
        for symbol in graph["symbols"]:
            identifier = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in identifier:
                continue  # default implementations that a conformance brings: the conformance is listed
            path = prefix + ".".join(symbol["pathComponents"])
            paths[identifier] = path
            requirement = " [requirement]" if identifier in requirements else ""
            lines.add(f"{path} :: {text(symbol['declarationFragments'])}{constraints(symbol)}{deprecation(symbol)}{requirement}")
        for relation in graph["relationships"]:
            if relation["kind"] not in ("conformsTo", "inheritsFrom") or relation["source"] not in paths:
                continue
            target = paths.get(relation["target"]) or relation.get("targetFallback") or relation["target"]
            if target in IMPLICIT:
                continue
            verb = "conforms to" if relation["kind"] == "conformsTo" else "inherits from"
            where = ""
            if relation.get("swiftConstraints"):
                where = " where " + ", ".join(f"{c['lhs']}: {c['rhs']}" for c in relation["swiftConstraints"])
            lines.add(f"{paths[relation['source']]} :: {verb} {target}{where}")
    return sorted(lines)


def main():
    update = "--update" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as graphs:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "symbol-graphs.py"), "--no-extension-blocks",
                        graphs, *MODULES], check=True)
        current = {module: api_lines(graphs, module) for module in MODULES}
    if update:
        os.makedirs(BASELINES, exist_ok=True)
        for module, lines in current.items():
            with open(os.path.join(BASELINES, f"{module}.baseline"), "w", encoding="utf-8") as file:
                file.write("".join(line + "\n" for line in lines))
        print(f"api: baselines written for {len(current)} modules ({sum(map(len, current.values()))} declarations)")
        return 0
    failed = False
    for module, lines in current.items():
        path = os.path.join(BASELINES, f"{module}.baseline")
        if not os.path.exists(path):
            print(f"api: {module} has no baseline ({os.path.relpath(path, ROOT)})")
            failed = True
            continue
        baseline = open(path, encoding="utf-8").read().splitlines()
        if baseline == lines:
            continue
        failed = True
        removed = sorted(set(baseline) - set(lines))
        added = sorted(set(lines) - set(baseline))
        print(f"api: {module}: {len(removed)} declaration(s) removed or changed, {len(added)} new or changed")
        for line in removed:
            print(f"  - {line}")
        for line in added:
            print(f"  + {line}")
    if failed:
        print("api: the public API differs from the baseline. A '-' line breaks code that uses it: restore it, or "
              "deprecate it instead; when the change is meant, accept it with `python3 scripts/check-api.py --update` "
              "and commit api/ with it.")
        return 1
    print(f"api: {len(MODULES)} modules match their baselines ({sum(map(len, current.values()))} declarations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
