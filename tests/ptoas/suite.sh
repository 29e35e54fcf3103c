#!/bin/sh
# PTOAS's own sample kernels against their own golden scripts: sh tests/ptoas/suite.sh BUILD_DIR
# Each line of samples.txt runs through run_sample.py, each line of pipelines.txt (the samples
# whose golden is in npu_validation/) through run_pipeline.py, and the TPushTPop samples (cube and
# vector kernels joined by FIFOs, checked against their main.cpp) through run_fifo_samples.py
# (PASS/FAIL lines), and the AsyncComm samples (asynchronous GM transfers) through
# run_async_samples.py. PTOAS's files are never
# committed here; the suite reads them from a PTOAS source tree:
#   $PTOAS_SRC                     a PTOAS checkout (its test/samples is used), or else
#   $PTOAS_MIRROR (a bare git repository of PTOAS; default: the local mirror this project's
#                 machines keep), exported once into BUILD_DIR/ptoas-src.
# Without either it prints one SKIP line (counted neither as passed nor as failed).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
mirror=${PTOAS_MIRROR:-/work/.mirror/hw-native-sys+PTOAS/repo}
if [ -n "$PTOAS_SRC" ] && [ -d "$PTOAS_SRC/test/samples" ]; then
    samples="$PTOAS_SRC/test/samples"
elif [ -d "$mirror" ]; then
    samples="$build/ptoas-src/test/samples"
    if [ ! -f "$samples/validation_runtime.py" ] || [ ! -f "$build/ptoas-src/include/PTO/IR/PTOOps.td" ]; then
        rm -rf "$build/ptoas-src" && mkdir -p "$build/ptoas-src" &&
            git --git-dir="$mirror" archive HEAD test/samples include/PTO/IR/PTOOps.td | tar -x -C "$build/ptoas-src" || {
            echo "FAIL ptoas (could not export test/samples from $mirror)"
            exit 1
        }
    fi
else
    echo "SKIP ptoas: no PTOAS source tree (set PTOAS_SRC to a PTOAS checkout)"
    exit 0
fi
grep -v -e '^#' -e '^[[:space:]]*$' "$here/samples.txt" | while read -r path flags; do
    # shellcheck disable=SC2086 # flags are split on purpose
    /usr/bin/python3 "$here/run_sample.py" "$build/pto-run" "$samples" "$samples/$path" $flags
done
grep -v -e '^#' -e '^[[:space:]]*$' "$here/pipelines.txt" | while read -r dir flags; do
    # shellcheck disable=SC2086 # flags are split on purpose
    /usr/bin/python3 "$here/run_pipeline.py" "$build/pto-run" "$samples/$dir" $flags
done
/usr/bin/python3 "$here/run_fifo_samples.py" "$build/pto-run" "$samples"
/usr/bin/python3 "$here/run_async_samples.py" "$build/pto-run" "$samples"
