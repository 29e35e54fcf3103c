#!/bin/sh
# Regenerates the committed seed corpora (tests/fuzz/corpus/) and the dictionaries from the
# repository's own programs and data files. Run from anywhere: sh tests/fuzz/seeds.sh
# corpus/roundtrip, corpus/run: every .pto under samples/ and tests/ (named after its path);
# corpus/datafile: one byte (bits 0-3: element type index of fuzz_datafile.c, bit 4: .npy name)
# followed by a data file: the repository's .bin/.npy files plus hand-made .npy headers (seeds.py).
# After a fuzzing run, `make fuzz-merge` adds the found inputs that reach new code.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
for h in roundtrip run; do
    mkdir -p "$here/corpus/$h"
    find samples tests -name '*.pto' ! -path 'tests/fuzz/*' | sort | while read -r f; do
        cp "$f" "$here/corpus/$h/$(printf '%s' "$f" | tr '/' '_')"
    done
done
/usr/bin/python3 "$here/seeds.py" "$root" "$here/corpus/datafile"
