#!/bin/sh
# Tries every PTOAS sample that has a golden script (SAMPLES_DIR: PTOAS's test/samples) with
# BUILD_DIR/pto-run, on each target given (default a2a3), and prints one PASS/FAIL line per sample
# and target with the first error: the list from which samples.txt is kept.
#   sh tests/ptoas/sweep.sh BUILD_DIR SAMPLES_DIR [a2a3] [a5]
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd) samples=$(cd "$2" && pwd)
shift 2
targets=${*:-a2a3}
cd "$samples" || exit 1
for f in */*.py */*/*.pto */*.pto; do
    case $f in *_golden.py|*_compare.py|*golden_lib.py|validation_runtime.py) continue ;; esac
    [ -f "${f%.*}_golden.py" ] || continue
    for t in $targets; do
        out=$(timeout 120 /usr/bin/python3 "$here/run_sample.py" "$build/pto-run" "$samples" "$samples/$f" --target "$t" 2>&1)
        first=$(printf '%s\n' "$out" | grep -m1 -o "error: .*\|unsupported operation '[^']*'\|says\|differ.*" | cut -c1-110)
        printf '%s [%s] %s\n' "$(printf '%s\n' "$out" | head -1 | cut -d: -f1 | cut -c1-70)" "$t" "$first"
    done
done
