#!/usr/bin/env bash
# Writes docs/opscope.1, the man page of `opscope`, from its command-line help, with
# swift-argument-parser's generate-manual tool (the tool its GenerateManual plugin runs).
#
#   bash scripts/man-page.sh           # rewrite docs/opscope.1 (commit it with a changed option)
#   bash scripts/man-page.sh --check   # fail, with a diff, when docs/opscope.1 is not current
#   man ./docs/opscope.1               # read it
#
# Run `swift build` first: the page describes the debug build's opscope. The tool is called
# directly rather than through `swift package generate-manual`, which builds every product of
# the package and writes under .build/plugins; it takes the page's date from the committed page
# when checking, so that only a changed option or help text fails.
set -euo pipefail
cd "$(dirname "$0")/.."

page=docs/opscope.1
binary=.build/debug/opscope
[[ -x $binary ]] || { echo "man-page: $binary is missing: run swift build first" >&2; exit 2; }

swift build --product generate-manual >/dev/null
tool=$(swift build --product generate-manual --show-bin-path)/generate-manual

check=false
[[ ${1:-} == --check ]] && check=true

date=$(date -u +%Y-%m-%d)
if $check; then
    [[ -f $page ]] || { echo "man-page: $page is missing: run bash scripts/man-page.sh" >&2; exit 1; }
    # The page's .Dd line reads e.g. "December 4, 2026"; the tool takes yyyy-mm-dd.
    written=$(sed -n 's/^\.Dd //p' "$page" | head -n 1)
    date=$(date -u -d "$written" +%Y-%m-%d)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" "$binary" --date "$date" --output-directory "$work"

if $check; then
    if ! diff -u "$page" "$work/opscope.1"; then
        echo "man-page: $page is not what opscope's help gives now: run bash scripts/man-page.sh and commit it" >&2
        exit 1
    fi
    echo "man-page: $page is current"
else
    cp "$work/opscope.1" "$page"
    echo "man-page: wrote $page"
fi
