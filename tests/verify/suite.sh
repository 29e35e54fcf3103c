#!/bin/sh
# Verifier annotation tests: runs `BUILD_DIR/pto-as --verify-diagnostics [FLAGS] FILE` on every
# tests/verify/*.pto. FLAGS come from the file's first line when it reads `// RUN: FLAGS`
# (e.g. `// RUN: --target=a5`). A file passes when pto-as exits 0: every `expected-error`,
# `expected-warning` and `expected-note` annotation was produced and nothing else was.
# Prints "PASS verify/NAME" or "FAIL verify/NAME" per file (protocol of tests/run.sh).
build=${1:-build}
dir=$(dirname "$0")
tool="$build/pto-as"
if [ ! -x "$tool" ]; then
    echo "FAIL verify/suite ($tool not built)"
    exit 1
fi
status=0
for file in "$dir"/*.pto; do
    [ -f "$file" ] || continue
    name="verify/$(basename "$file" .pto)"
    if ! grep -q 'expected-' "$file"; then
        echo "FAIL $name (no expected-* annotation; write expected-no-diagnostics for a clean file)"
        status=1
        continue
    fi
    flags=$(sed -n '1s|^// RUN:||p' "$file")
    # shellcheck disable=SC2086 # FLAGS are split on purpose
    out=$("$tool" --verify-diagnostics $flags "$file" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "PASS $name"
    else
        echo "FAIL $name (exit $rc)"
        printf '%s\n' "$out" | sed 's/^/    /'
        status=1
    fi
done
exit $status
