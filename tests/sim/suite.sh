#!/bin/sh
# Bit-exact goldens from the ISA's CPU simulator: sh tests/sim/suite.sh BUILD_DIR
# Every case of tests/sim/cases.txt (written by gen.py) runs with --compare=bits: results must equal
# the simulator's bit for bit, NaN payloads and -0 included, over whole tiles (valid region or not).
# Cases named neg_* carry a deliberately wrong expected bit and pass only when pto-run reports it.
# Each case runs once with every kernel variant this CPU has (PTO_RUN_KERNELS=portable, avx2,
# avx512, avx512fp16; interp/kernels.c): the variants must agree with the simulator end to end, not only with
# each other. Prints "PASS sim/<case>@<variant>" or "FAIL sim/<case>@<variant>" with pto-run's output.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
run="$build/pto-run"
set -f
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
variants=portable
if has avx2 && has f16c; then
    variants="$variants avx2"
    if has avx512f && has avx512vl && has avx512bw && has avx512dq; then
        variants="$variants avx512"
        if has avx512_fp16; then variants="$variants avx512fp16"; fi
    fi
fi
for variant in $variants; do
    grep -v -e '^#' -e '^[[:space:]]*$' "$here/cases.txt" | while read -r name args; do
        out=$(cd "$here" && PTO_RUN_KERNELS=$variant "$run" $args --compare=bits 2>&1)
        status=$?
        want=0
        case $name in neg_*) want=1 ;; esac # negative controls: a deliberately wrong bit must be caught
        if [ "$status" -eq "$want" ]; then
            echo "PASS sim/$name@$variant"
        else
            echo "FAIL sim/$name@$variant"
            echo "    (cd $here && PTO_RUN_KERNELS=$variant $run $args --compare=bits): exit $status"
            printf '%s\n' "$out" | head -n 12 | sed 's/^/    /'
        fi
    done
done
