#!/bin/sh
# Runs every file-based suite (tests/*/suite.sh BUILD_DIR) and prints one summary line.
# A suite prints "PASS <name>" or "FAIL <name>" per case (other lines are details).
build=${1:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for suite in tests/*/suite.sh; do
    [ -f "$suite" ] || continue
    sh "$suite" "$build" 2>&1 | tee -a "$log" | grep -v '^PASS ' || true
done
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
