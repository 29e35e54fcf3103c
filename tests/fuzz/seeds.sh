#!/bin/sh
# Regenerates the committed seed corpora (tests/fuzz/corpus/) from the repository's own programs
# and data files. Run from anywhere, after `make`: sh tests/fuzz/seeds.sh [BUILD_DIR] (default build)
# corpus/roundtrip, corpus/run:
#   - every .pto under samples/ and tests/ (outside tests/fuzz/), named after its path with / as _
#     (samples_..., tests_...): all of them, no selection: with the inputs of `make fuzz-merge`
#     and the derived seeds below that is about 2,400 seeds per harness (2.7 MB), and
#     `make fuzz-regress` runs them all in about 17 s on 2 cores (7 s with the 1,200 seeds
#     before), so no reduction is needed;
#   - ssa_<path>, asm_<path>, generic_<path>: programs of the repository printed in the SSA form,
#     in the assembly spelling and in MLIR's generic form, which few of them are written in
#     (seeds_asm.py: a small set, chosen greedily, whose assembly spellings use every mnemonic).
#     Needs BUILD_DIR/pto-as.
#   Copies whose program is gone and the derived seeds are removed first; every other file (the
#   SHA-1-named inputs that `make fuzz-merge` added after fuzzing) is kept. Programs that trip a
#   known bug in a harness are left out of that harness's seeds (known_bug below).
# corpus/datafile: one byte (bits 0-3 and 5: element type index of fuzz_datafile.c, bit 4: .npy name)
# followed by a data file: the repository's .bin/.npy files plus hand-made .npy headers (seeds.py).
# The unit tests fuzz_corpus/* (tests/unit/test_fuzz_corpus.c) fail when an op spelling of the op
# table is in no seed of corpus/roundtrip or corpus/run, or not a word of pto.dict: add a test
# program that uses it, run this script, and /usr/bin/python3 tests/fuzz/dict_ops.py.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
build=${1:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac
if [ ! -x "$build/pto-as" ]; then
    echo "seeds.sh: $build/pto-as not built (run make first)" >&2
    exit 1
fi
# Known bugs: programs a harness fails on, left out of its seeds until the bug is fixed (a seed
# that fails makes `make fuzz-regress` fail). Remove the line with the fix.
known_bug() { # HARNESS PATH: true when PATH is left out of HARNESS's seeds (a known bug it trips)
    case $1:$2 in
        # none now; the last two (tgather's SSA print, integer tmatmul's NULL + 0) are fixed and
        # their programs are seeds again. Form: HARNESS:PATH-GLOB) return 0 ;;
        none:none) return 0 ;;
    esac
    return 1
}
programs=$(find samples tests -name '*.pto' ! -path 'tests/fuzz/*' | LC_ALL=C sort)
for h in roundtrip run; do
    mkdir -p "$here/corpus/$h"
    rm -f "$here/corpus/$h"/samples_* "$here/corpus/$h"/tests_* "$here/corpus/$h"/asm_* "$here/corpus/$h"/ssa_* "$here/corpus/$h"/generic_*
    for f in $programs; do
        known_bug "$h" "$f" && continue
        cp "$f" "$here/corpus/$h/$(printf '%s' "$f" | tr '/' '_')"
    done
done
printf '%s\n' $programs | /usr/bin/python3 "$here/seeds_asm.py" "$root" "$build/pto-as" \
    "$here/corpus/roundtrip" "$here/corpus/run"
/usr/bin/python3 "$here/seeds.py" "$root" "$here/corpus/datafile"
