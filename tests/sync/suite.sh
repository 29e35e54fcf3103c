#!/bin/sh
# pto-run --check-sync scenarios: sh tests/sync/suite.sh BUILD_DIR
# Each NAME.pto says how to run it and what must come out, in comment lines:
#   // RUN: ARGS            pto-run arguments after the file (default: --check-sync)
#   // EXIT: N              the exit status (default 0)
#   // EXPECT: TEXT         a line of pto-run's output contains TEXT (one line per // EXPECT)
#   // COUNT: RULE N        exactly N diagnostics carry [RULE] (e.g. SYNC.raw 1; default: a rule
#                           not mentioned must not appear at all, for every SYNC.* rule)
# Prints "PASS sync/NAME" or "FAIL sync/NAME" with the output.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
run="$build/pto-run"
for f in "$here"/*.pto; do
    name=$(basename "$f" .pto)
    args=$(sed -n 's|^// RUN: ||p' "$f" | head -1)
    [ -n "$args" ] || args="--check-sync"
    want=$(sed -n 's|^// EXIT: ||p' "$f" | head -1)
    [ -n "$want" ] || want=0
    # the scenarios are about ordering, not data: GM buffers start as zeros (--zero-inputs)
    # shellcheck disable=SC2086 # args are split on purpose
    out=$(cd "$here" && "$run" "$f" --zero-inputs $args 2>&1)
    status=$?
    ok=1
    [ "$status" -eq "$want" ] || ok=0
    while IFS= read -r text; do
        [ -n "$text" ] || continue
        printf '%s\n' "$out" | grep -qF -- "$text" || { ok=0; echo "    missing: $text"; }
    done <<EOT
$(sed -n 's|^// EXPECT: ||p' "$f")
EOT
    for rule in SYNC.raw SYNC.war SYNC.waw SYNC.double-set SYNC.wait-unset SYNC.left-set SYNC.auto SYNC.key-overlap \
        SYNC.buf-double-get SYNC.buf-unheld SYNC.buf-held SYNC.cross-hang SYNC.cross-left SYNC.cross-overflow SYNC.internal-key \
        SYNC.internal-order INIT.read INIT.pad INIT.outside INIT.scratch; do
        n=$(sed -n "s|^// COUNT: $rule ||p" "$f" | head -1)
        [ -n "$n" ] || n=0
        got=$(printf '%s\n' "$out" | grep -cF "[$rule]")
        [ "$got" -eq "$n" ] || { ok=0; echo "    [$rule]: $got, expected $n"; }
    done
    if [ "$ok" -eq 1 ]; then
        echo "PASS sync/$name"
    else
        echo "FAIL sync/$name (exit $status, expected $want)"
        printf '%s\n' "$out" | head -n 12 | sed 's/^/    /'
    fi
done

# The fix-its of --check-sync do what they say: each kernel below, with every fix-it of its JSON
# report applied, runs clean (same-iteration races: a set/wait pair or a barrier inserted).
for name in raw_missing_mte2_v vv_a2a3_needs_barrier fix_free_event; do
    f="$here/$name.pto"
    args=$(sed -n 's|^// RUN: ||p' "$f" | head -1)
    [ -n "$args" ] || args="--check-sync"
    fixed=$(mktemp --suffix=.pto)
    # shellcheck disable=SC2086 # args are split on purpose
    (cd "$here" && "$run" "$f" --zero-inputs $args --diagnostics=json 2>/dev/null) | /usr/bin/python3 -c '
import json, sys
src = open(sys.argv[1], "rb").read()
starts = [0] + [i + 1 for i, b in enumerate(src) if b == 10]
def offset(line, col): return starts[line - 1] + col - 1
doc = json.load(sys.stdin)
edits = [(offset(f["line"], f["column"]), offset(f["end_line"], f["end_column"]), f["replacement"].encode())
         for x in doc["diagnostics"]["diagnostics"] for f in x["fixits"]]
if not edits: sys.exit("no fix-it in the report")
for a, b, text in sorted(edits, reverse=True):
    src = src[:a] + text + src[b:]
open(sys.argv[2], "wb").write(src)' "$f" "$fixed"
    # shellcheck disable=SC2086
    out=""
    if [ -s "$fixed" ] && out=$(cd "$here" && "$run" "$fixed" --zero-inputs $args 2>&1) && ! printf '%s\n' "$out" | grep -q 'SYNC\.'; then
        echo "PASS sync/fixit_applied_$name"
    else
        echo "FAIL sync/fixit_applied_$name"
        printf '%s\n' "$out" | head -n 8 | sed 's/^/    /'
    fi
    rm -f "$fixed"
done
