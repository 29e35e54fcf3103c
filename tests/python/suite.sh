#!/bin/sh
# The Python package's pytest tests (python/tests, python/examples) against BUILD_DIR/libpto.so:
#   sh tests/python/suite.sh BUILD_DIR
# Prints "PASS python/TEST" or "FAIL python/TEST" per pytest test ("SKIP ..." for skipped ones, counted
# neither way); a pytest that cannot start at all is one FAIL line. The PTOAS golden example
# (python/examples) reads a PTOAS tree from $PTOAS_SRC, else from the copy tests/ptoas exported into
# BUILD_DIR/ptoas-src, and skips without either.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
lib="$build/libpto.so"
if [ ! -f "$lib" ]; then
    echo "FAIL python (no $lib: make lib)"
    exit 0
fi
if ! /usr/bin/python3 -c 'import pytest, numpy' 2>/dev/null; then
    echo "FAIL python (needs python3-pytest and python3-numpy: sh tools/ensure-deps.sh)"
    exit 0
fi
if [ -z "$PTOAS_SRC" ] && [ -d "$build/ptoas-src/test/samples" ]; then
    PTOAS_SRC="$build/ptoas-src"
    export PTOAS_SRC
fi
# a library built with sanitizers (make check-asan) needs their runtimes loaded first; Python's own
# allocations are not ours to leak-check
if readelf -d "$lib" 2>/dev/null | grep -q 'libasan'; then
    LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
    ASAN_OPTIONS=detect_leaks=0
    export LD_PRELOAD ASAN_OPTIONS
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cd "$root/python" || exit 1
PTO_LIBRARY="$lib" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -p no:cacheprovider -v -rN \
    tests examples >"$log" 2>&1
status=$?
sed -n 's/^\([^ ]*::[^ ]*\) PASSED.*/PASS python\/\1/p; s/^\([^ ]*::[^ ]*\) FAILED.*/FAIL python\/\1/p; s/^\([^ ]*::[^ ]*\) ERROR.*/FAIL python\/\1/p; s/^\([^ ]*::[^ ]*\) SKIPPED.*/SKIP python\/\1/p' "$log"
if [ "$status" -ne 0 ]; then
    grep -q '^FAIL\|FAILED\|ERROR' "$log" || echo "FAIL python (pytest exited with status $status)"
    # details of the failures
    sed -n '/^=* FAILURES =*$/,$p; /^=* ERRORS =*$/,$p' "$log" | head -80 | sed 's/^/    /'
fi
