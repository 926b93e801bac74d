#!/usr/bin/env python3
"""Writes the public symbol graphs of library modules from the debug build that is already there.

    python3 scripts/symbol-graphs.py [--no-extension-blocks] OUTPUT_DIR MODULE...

`swift package generate-documentation` and `swift package dump-symbol-graph` get symbol graphs
too, but each asks SwiftPM to plan and check a build per module (about 13 s each here, and with
every trait enabled, which rebuilds the package with swift-otel). This runs
`swift-symbolgraph-extract` on the modules `swift build` compiled, with the search paths and
module maps that build used (read from its manifest, `.build/debug.yaml`): a second or two per
module. Run `swift build` (or `swift build --build-tests`) first.

The graphs are written as `swift-symbolgraph-extract` writes them: `MODULE.symbols.json`, plus
`MODULE@OTHER.symbols.json` for extensions of another module's types. Extensions are symbols of
their own, as DocC wants them, unless `--no-extension-blocks` (then a conformance declared in an
extension is the extended type's, as an API listing wants it). Used by
scripts/build-docs.sh (DocC) and scripts/check-api.py (the API baseline).
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, ".build", "debug.yaml")

# Compiler options that say where modules and headers are; everything else (code generation,
# outputs, diagnostics) does not matter to the extractor.
WITH_VALUE = {"-I", "-F", "-Xcc", "-module-cache-path", "-target", "-sdk"}


def compile_arguments(module):
    """The swiftc arguments the build manifest compiles `module` with."""
    if not os.path.exists(MANIFEST):
        sys.exit(f"symbol-graphs: {MANIFEST} is missing: run `swift build` first")
    text = open(MANIFEST, encoding="utf-8").read()
    # Each command is a YAML mapping whose `args:` line is a JSON array.
    for match in re.finditer(r'^\s+args: (\[.*\])$', text, re.M):
        args = json.loads(match.group(1))
        if "-module-name" in args and args[args.index("-module-name") + 1] == module and "-emit-module" in args:
            return args
    sys.exit(f"symbol-graphs: the build manifest has no compilation of module {module}")


def extractor_arguments(args):
    kept = []
    index = 1
    while index < len(args):
        arg = args[index]
        if arg in WITH_VALUE and index + 1 < len(args):
            kept += [arg, args[index + 1]]
            index += 2
            continue
        index += 1
    return kept


def extractor():
    swift = shutil.which("swift")
    if swift:
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-symbolgraph-extract")
        if os.path.exists(candidate):
            return candidate
    found = shutil.which("swift-symbolgraph-extract")
    if not found:
        sys.exit("symbol-graphs: swift-symbolgraph-extract not found beside swift")
    return found


def main():
    arguments = sys.argv[1:]
    blocks = ["-emit-extension-block-symbols"]
    if arguments and arguments[0] == "--no-extension-blocks":
        blocks = []
        arguments = arguments[1:]
    if len(arguments) < 2:
        sys.exit(__doc__)
    output, modules = arguments[0], arguments[1:]
    os.makedirs(output, exist_ok=True)
    tool = extractor()
    for module in modules:
        args = compile_arguments(module)
        # The extractor reads the compiled .swiftmodule: its API already reflects the build's
        # conditions (`-D`), so only the search paths are passed on.
        command = [tool, "-module-name", module, *extractor_arguments(args), "-minimum-access-level", "public",
                   *blocks, "-output-dir", output]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stdout + result.stderr)
            sys.exit(f"symbol-graphs: extracting {module} failed ({result.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
