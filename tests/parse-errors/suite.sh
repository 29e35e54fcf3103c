#!/bin/sh
# Parse-error suite: for every tests/parse-errors/NAME.pto, `pto-as NAME.pto` must exit 1 and its
# diagnostic lines ("FILE:LINE:COL: severity: message", without the source excerpts) must equal
# NAME.expected exactly. Prints PASS/FAIL lines (protocol of tests/run.sh).
# Usage: sh tests/parse-errors/suite.sh BUILD_DIR
build=${1:-build}
dir=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$build/pto-as" ]; then
    echo "FAIL parse-errors: $build/pto-as not built"
    exit 1
fi
as="$(cd "$build" && pwd)/pto-as"
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.err"' EXIT
status=0
for file in "$dir"/*.pto; do
    name="parse-errors/$(basename "$file" .pto)"
    expected="${file%.pto}.expected"
    # run from the suite's directory so that diagnostics name the file without a path
    rc=$(cd "$dir" && "$as" "$(basename "$file")" >/dev/null 2>"$tmp.err"; echo $?)
    grep -E '^[^ ].*:[0-9]+:[0-9]+: ' "$tmp.err" > "$tmp"
    if [ "$rc" -ne 1 ]; then
        echo "FAIL $name (exit $rc, expected 1)"
        status=1
    elif ! cmp -s "$tmp" "$expected"; then
        echo "FAIL $name (diagnostics differ)"
        diff "$expected" "$tmp" | head -10 | sed 's/^/    /'
        status=1
    else
        echo "PASS $name"
    fi
done
exit $status
