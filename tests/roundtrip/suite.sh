#!/bin/sh
# Round-trip suite: for every .pto under samples/ (recursively) and tests/roundtrip/, in each of the three
# output forms F (dps, generic, ssa): p1 = pto-as --emit=F FILE; p2 = pto-as --emit=F p1; p1 must equal p2
# (printing is idempotent and the printed program re-parses). A file whose first line reads
# `// pto-as: FLAGS` gets FLAGS (e.g. --target=a5) for the first print only: p1 must carry what the
# flags decided (the target) so that it re-parses and verifies alone. Prints PASS/FAIL lines (tests/run.sh).
# Usage: sh tests/roundtrip/suite.sh BUILD_DIR
build=${1:-build}
as="$build/pto-as"
if [ ! -x "$as" ]; then
    echo "FAIL roundtrip: $as not built"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for file in $(find samples tests/roundtrip -name '*.pto' 2>/dev/null | sort); do
    for form in dps generic ssa; do
        name="roundtrip-$form $file"
        flags=$(sed -n '1s|^// pto-as: ||p' "$file")
        # shellcheck disable=SC2086 # FLAGS are split on purpose
        if ! "$as" -q $flags --emit=$form "$file" > "$tmp/p1.pto" 2> "$tmp/err1"; then
            echo "FAIL $name (first print failed)"
            sed 's/^/    /' "$tmp/err1" | head -5
            status=1
            continue
        fi
        if ! "$as" -q --emit=$form "$tmp/p1.pto" > "$tmp/p2.pto" 2> "$tmp/err2"; then
            echo "FAIL $name (printed program does not re-parse)"
            sed 's/^/    /' "$tmp/err2" | head -5
            status=1
            continue
        fi
        if ! cmp -s "$tmp/p1.pto" "$tmp/p2.pto"; then
            echo "FAIL $name (second print differs)"
            diff "$tmp/p1.pto" "$tmp/p2.pto" | head -8 | sed 's/^/    /'
            status=1
            continue
        fi
        echo "PASS $name"
    done
done
exit $status
