#!/usr/bin/env bash
# Builds the documentation of every library product (the modules an embedding program sees
# through `import OpScope`, DashboardUI, and the telemetry products), with DocC, warnings as errors: a broken ``Symbol`` link, a topic naming a
# symbol that is gone, a malformed catalog page fail the build.
#
#   bash scripts/build-docs.sh [OUTPUT_DIR]        # default: .build/docs
#
# Run `swift build` first: the symbol graphs are read from that build (scripts/symbol-graphs.py).
# Each module becomes an archive that may link to the ones before it (``/OperationBridge/OperationMonitor``
# from the OpScope catalog), as `swift package generate-documentation --target OpScope --target
# OperationBridge ... --enable-experimental-combined-documentation` does; the plugin is in
# Package.swift for that (and for previews), but it plans a build per module with every trait
# enabled, minutes here instead of seconds. The combined archive is OUTPUT_DIR/OpScope.doccarchive
# (`docc preview` or any static host serves it).
set -euo pipefail
cd "$(dirname "$0")/.."

output=${1:-.build/docs}
# In dependency order: each module links to the modules before it.
modules=(OperationEvents TerminalKit EventCoding OperationBridge DashboardModel GraphExport DashboardUI DashboardSession
    OpScopeAgent OpScopeRecording OpScopeTelemetry OpScopeOTLP OpScope)

docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
[[ -x $docc ]] || docc=$(command -v docc)

rm -rf "$output"
mkdir -p "$output/symbol-graphs" "$output/archives"
python3 scripts/symbol-graphs.py "$output/symbol-graphs" "${modules[@]}"

dependencies=()
for module in "${modules[@]}"; do
    graphs="$output/symbol-graphs/$module"
    mkdir -p "$graphs"
    mv "$output/symbol-graphs/$module.symbols.json" "$graphs/"
    for extension in "$output/symbol-graphs/$module@"*.symbols.json; do
        [[ -e $extension ]] && mv "$extension" "$graphs/"
    done
    catalog=()
    [[ -d Sources/$module/$module.docc ]] && catalog=("Sources/$module/$module.docc")
    archive="$output/archives/$module.doccarchive"
    "$docc" convert "${catalog[@]}" --warnings-as-errors --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" --additional-symbol-graph-dir "$graphs" \
        --enable-experimental-external-link-support "${dependencies[@]}" --output-path "$archive" \
        >"$output/$module.log" 2>&1 || { cat "$output/$module.log"; echo "build-docs: $module failed"; exit 1; }
    dependencies+=(--dependency "$archive")
done

"$docc" merge "$output"/archives/*.doccarchive --synthesized-landing-page-name OpScope \
    --synthesized-landing-page-kind Package --output-path "$output/OpScope.doccarchive" >"$output/merge.log" 2>&1 \
    || { cat "$output/merge.log"; echo "build-docs: merging the archives failed"; exit 1; }
echo "documentation: ${#modules[@]} modules, no warnings: $output/OpScope.doccarchive"
