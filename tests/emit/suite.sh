#!/bin/sh
# Emit suite: sh tests/emit/suite.sh BUILD_DIR
# Every tests/emit/NAME.pto is printed with the flags of its first line (`// pto-as: FLAGS`, e.g.
# `--emit=dps`; default --emit=dps); the output must equal NAME.expected byte for byte, and must
# re-parse and print the same again (the printed text is canonical). Prints PASS/FAIL lines
# (tests/run.sh). To refresh an expectation after a deliberate change:
#   build/pto-as FLAGS tests/emit/NAME.pto > tests/emit/NAME.expected   (then review the diff)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
as="$build/pto-as"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for file in "$here"/*.pto; do
    name="emit/$(basename "$file" .pto)"
    expected="${file%.pto}.expected"
    flags=$(sed -n '1s|^// pto-as: ||p' "$file")
    [ -n "$flags" ] || flags=--emit=dps
    # shellcheck disable=SC2086 # FLAGS are split on purpose
    if ! "$as" $flags "$file" > "$tmp/out.pto" 2> "$tmp/err"; then
        echo "FAIL $name (pto-as $flags failed)"
        sed 's/^/    /' "$tmp/err" | head -5
        status=1
        continue
    fi
    if [ ! -f "$expected" ] || ! cmp -s "$tmp/out.pto" "$expected"; then
        echo "FAIL $name (output differs from $(basename "$expected"))"
        diff "$expected" "$tmp/out.pto" 2>&1 | head -12 | sed 's/^/    /'
        status=1
        continue
    fi
    form=$(printf '%s\n' "$flags" | sed -n 's/.*--emit=\([a-z]*\).*/\1/p')
    if ! "$as" --emit="$form" "$tmp/out.pto" > "$tmp/again.pto" 2> "$tmp/err" || ! cmp -s "$tmp/out.pto" "$tmp/again.pto"; then
        echo "FAIL $name (the output does not re-parse to itself)"
        sed 's/^/    /' "$tmp/err" | head -5
        diff "$tmp/out.pto" "$tmp/again.pto" 2>&1 | head -8 | sed 's/^/    /'
        status=1
        continue
    fi
    echo "PASS $name"
done
exit $status
