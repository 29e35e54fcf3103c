#!/bin/sh
# Bit-exact goldens from the ISA's CPU simulator: sh tests/sim/suite.sh BUILD_DIR
# Every case of tests/sim/cases.txt (written by gen.py) runs with --compare=bits: results must equal
# the simulator's bit for bit, NaN payloads and -0 included, over whole tiles (valid region or not).
# Cases named neg_* carry a deliberately wrong expected bit and pass only when pto-run reports it.
# Prints "PASS sim/<case>" or "FAIL sim/<case>" with pto-run's output.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
run="$build/pto-run"
set -f
grep -v -e '^#' -e '^[[:space:]]*$' "$here/cases.txt" | while read -r name args; do
    out=$(cd "$here" && "$run" $args --compare=bits 2>&1)
    status=$?
    want=0
    case $name in neg_*) want=1 ;; esac # negative controls: a deliberately wrong bit must be caught
    if [ "$status" -eq "$want" ]; then
        echo "PASS sim/$name"
    else
        echo "FAIL sim/$name"
        echo "    (cd $here && $run $args --compare=bits): exit $status"
        printf '%s\n' "$out" | head -n 12 | sed 's/^/    /'
    fi
done
