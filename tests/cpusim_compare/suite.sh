#!/bin/sh
# CPU-simulator outputs for the compare and select, generators family: sh tests/cpusim_compare/suite.sh BUILD_DIR
# Runs every case of cases.txt from this directory with --atol 0 --rtol 0; prints PASS/FAIL per case
# (protocol of tests/run.sh).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
run="$build/pto-run"
set -f    # arguments are split on blanks, never globbed
grep -v -e '^#' -e '^[[:space:]]*$' "$here/cases.txt" | while read -r name args; do
    if [ ! -x "$run" ]; then
        echo "FAIL cpusim/$name ($run not built)"
        continue
    fi
    # shellcheck disable=SC2086 # ARGS are split on purpose
    if out=$(cd "$here" && "$run" $args --atol 0 --rtol 0 2>&1); then
        echo "PASS cpusim/$name"
    else
        echo "FAIL cpusim/$name"
        printf '%s\n' "$out" | head -n 20 | sed 's/^/    /'
    fi
done
