#!/usr/bin/env python3
"""Checks what the architecture promises (docs/ARCHITECTURE.md) and fails loudly when it breaks:

1. Layering: each module imports only the modules it may (the model never a view, only the
   backend ncurses, no Foundation where the module is meant to be free of it).
2. Concepts, not slices: a file holds one concept as long as it needs (at most 1,000 lines
   under Sources/ or Demos/, a sign that it holds several), and a type of ours is declared and
   extended in at most 3 files of its module: a type that needs more is several concepts, to
   be split into types of their own rather than sliced into `Type+Part.swift` files.
3. Documentation: at least 90% of the public declarations of each library module carry a
   `///` summary.

Run from the package root: `python3 scripts/check-structure.py`. Exit status 1 on any failure.
"""
import os
import re
import sys

# Our modules and what each may import (anything of ours not listed is forbidden; third-party
# and system modules must be listed too).
STD = {"Swift", "_Concurrency", "_StringProcessing", "Synchronization"}
POSIX = {"Glibc", "Darwin"}
ALLOWED = {
    "OperationEvents": STD | {"CacheHints"},
    "EventCoding": STD | POSIX | {"Foundation", "OperationEvents"},
    "OperationBridge": STD | POSIX | {"Foundation", "Dispatch", "OperationEvents", "DequeModule"},
    "DashboardModel": STD | {"OperationEvents", "DequeModule", "Histogram"},
    "TerminalKit": STD,
    "NcursesBackend": STD | POSIX | {"TerminalKit", "CNcurses", "TerminalGuard"},
    "DashboardUI": STD | {"DashboardModel", "OperationEvents", "TerminalKit"},
    "DashboardSession": STD | {"DashboardUI", "DashboardModel", "OperationEvents", "TerminalKit"},
    "DashboardConfig": STD | POSIX | {"DashboardSession", "DashboardUI", "TerminalKit", "TOMLKit"},
    "GraphExport": STD | {"DashboardModel", "OperationEvents"},
    "OpScopeRecording": STD | POSIX | {"Foundation", "OperationEvents", "EventCoding", "DashboardModel"},
    "OpScopeAgent": STD | POSIX | {"Foundation", "Dispatch", "OperationEvents", "EventCoding"},
    "OpScopeTelemetry": STD | POSIX | {"Foundation", "OperationEvents", "DashboardModel", "EventCoding", "OpScopeRecording",
                                       "CoreMetrics", "Prometheus"},
    # Empty unless built with the OTLP trait (then: swift-otel and the tracing API).
    "OpScopeOTLP": STD | POSIX | {"Foundation", "OperationEvents", "DashboardModel", "EventCoding", "OpScopeTelemetry", "OpScopeRecording",
                                  "OTel", "Tracing", "Instrumentation", "ServiceContextModule", "ServiceLifecycle",
                                  "CoreMetrics", "Metrics", "Logging"},
    "OpScope": None,  # the umbrella: anything of ours
}
# Library modules whose public API must be documented.
DOCUMENTED = [name for name in ALLOWED]
# Only this module may import the ncurses system module.
NCURSES = "CNcurses"

IMPORT = re.compile(r"^\s*(?:@_exported\s+|@_spi\(\w+\)\s+|@testable\s+)?(?:public\s+|package\s+|internal\s+)?import\s+(?:\w+\s+)?([A-Za-z_][\w.]*)")
DECL = re.compile(
    r"^\s*(?:@[\w().: ,\"]+\s+)*(?:(?:public|open)\s+)(?:(?:final|static|class|mutating|nonmutating|override|"
    r"indirect|convenience|required|nonisolated|lazy|dynamic|@inlinable|@discardableResult|consuming|borrowing)\s+)*"
    r"(func|var|let|struct|class|enum|protocol|typealias|init|subscript|case|actor|extension|associatedtype)\b")


def swift_files(root):
    for directory, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def module_of(path):
    parts = path.split(os.sep)
    return parts[1] if len(parts) > 2 and parts[0] == "Sources" else None


def check_layering(errors):
    ours = {d for d in os.listdir("Sources") if os.path.isdir(os.path.join("Sources", d))}
    ours |= {d for d in os.listdir("Demos") if os.path.isdir(os.path.join("Demos", d))}
    for root in ("Sources", "Demos", "Tests"):
        for path in swift_files(root):
            module = module_of(path)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = IMPORT.match(line)
                if not match:
                    continue
                imported = match.group(1).split(".")[0]
                if imported == NCURSES and module != "NcursesBackend":
                    errors.append(f"{path}:{number}: only NcursesBackend may import {NCURSES}")
                if module in ALLOWED and ALLOWED[module] is not None and imported not in ALLOWED[module]:
                    kind = "one of ours it must not use" if imported in ours else "not allowed here"
                    errors.append(f"{path}:{number}: {module} imports {imported} ({kind}; see docs/ARCHITECTURE.md)")


MAX_LINES = 1000
MAX_FILES_PER_TYPE = 3
TYPE_DECL = re.compile(r"^\s*(?:@[\w().: ,\"]+\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
                       r"(?:struct|class|enum|actor|protocol)\s+([A-Z]\w*)")
EXTENSION = re.compile(r"^\s*(?:(?:public|package|internal|fileprivate|private)\s+)?extension\s+([A-Z][\w.]*)")


def check_sizes(errors):
    for root in ("Sources", "Demos"):
        for path in swift_files(root):
            count = sum(1 for _ in open(path, encoding="utf-8"))
            if count > MAX_LINES:
                errors.append(f"{path}: {count} lines (at most {MAX_LINES}: it holds more than one concept; split them)")


def check_slicing(errors):
    """A top-level type's declaration and extensions, per module, in at most MAX_FILES_PER_TYPE files."""
    for root in ("Sources", "Demos"):
        for module in sorted(os.listdir(root)):
            directory = os.path.join(root, module)
            if not os.path.isdir(directory):
                continue
            declared, files = set(), {}
            for path in swift_files(directory):
                for line in open(path, encoding="utf-8"):
                    if line.startswith((" ", "\t")):
                        continue  # nested types and members: only top-level declarations count
                    declaration = TYPE_DECL.match(line)
                    if declaration:
                        declared.add(declaration.group(1))
                        files.setdefault(declaration.group(1), set()).add(path)
                    extension = EXTENSION.match(line)
                    if extension:
                        files.setdefault(extension.group(1).split(".")[0], set()).add(path)
            for name in sorted(declared):
                spread = sorted(files.get(name, ()))
                if len(spread) > MAX_FILES_PER_TYPE:
                    errors.append(f"{directory}: {name} is declared and extended in {len(spread)} files "
                                  f"(at most {MAX_FILES_PER_TYPE}: split it into types of its own): "
                                  + ", ".join(os.path.basename(path) for path in spread))


def documentation(module):
    documented = total = 0
    missing = []
    for path in swift_files(os.path.join("Sources", module)):
        lines = open(path, encoding="utf-8").read().split("\n")
        public_enums = []  # brace depths of public enums whose cases are public too
        depth = 0
        for index, line in enumerate(lines):
            stripped = line.strip()
            match = DECL.match(line)
            is_case = (stripped.startswith("case ") and public_enums and depth == public_enums[-1] + 1)
            if (match and match.group(1) != "extension") or is_case:
                total += 1
                previous = index - 1
                while previous >= 0 and lines[previous].strip().startswith("@"):
                    previous -= 1
                if previous >= 0 and lines[previous].strip().startswith("///"):
                    documented += 1
                else:
                    missing.append(f"{path}:{index + 1}: {stripped[:80]}")
            if match and match.group(1) == "enum":
                public_enums.append(depth)
            depth += line.count("{") - line.count("}")
            while public_enums and depth <= public_enums[-1]:
                public_enums.pop()
    return documented, total, missing


def check_documentation(errors, verbose):
    for module in DOCUMENTED:
        if not os.path.isdir(os.path.join("Sources", module)):
            continue
        documented, total, missing = documentation(module)
        share = documented / total if total else 1.0
        line = f"{module}: {documented}/{total} public declarations documented ({share:.0%})"
        print(line)
        if share < 0.9:
            errors.append(line + " — at least 90% needed")
        if verbose or share < 0.9:
            for item in missing:
                print("  missing: " + item)


def main():
    verbose = "--verbose" in sys.argv
    errors = []
    check_layering(errors)
    check_sizes(errors)
    check_slicing(errors)
    check_documentation(errors, verbose)
    for error in errors:
        print("error: " + error)
    if errors:
        print(f"{len(errors)} structure error(s)")
        return 1
    print("structure: layering, concepts per file and type, and documentation OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
