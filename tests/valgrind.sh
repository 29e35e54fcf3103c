#!/bin/sh
# Memcheck of both tools: sh tests/valgrind.sh BUILD_DIR   (make check-valgrind)
#   - pto-as on every samples/**/*.pto and every tests/errors/*.pto (error paths too);
#   - pto-run on every `build/pto-run ...` command of samples/README.md (run from the repository
#     root) and on the pto-run cases of tests/errors/*.pto (run from tests/errors).
# A run passes when valgrind reports no error and no leak of any kind (definite, indirect,
# possible, still reachable) and the tool exits with the status it has without valgrind
# (0 for samples). Prints "PASS valgrind/..." or "FAIL valgrind/..." lines; exit 1 on a failure.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "FAIL valgrind (valgrind is not installed: apt-get install valgrind)"
    exit 1
fi
for t in pto-as pto-run; do
    if [ ! -x "$build/$t" ]; then
        echo "FAIL valgrind ($build/$t not built)"
        exit 1
    fi
done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
set -f   # command lines are split on blanks, never globbed

# vg NAME DIR WANT_STATUS TOOL ARGS...
vg() {
    name=$1 dir=$2 want=$3 tool=$4
    shift 4
    (cd "$dir" && valgrind --tool=memcheck --leak-check=full --show-leak-kinds=all \
        --errors-for-leak-kinds=all --error-exitcode=100 --log-file="$log" -q \
        "$build/$tool" "$@" >/dev/null 2>&1)
    got=$?
    if [ "$got" -ne 100 ] && [ "$got" -eq "$want" ] && [ ! -s "$log" ]; then
        echo "PASS valgrind/$name"
    else
        echo "FAIL valgrind/$name (exit $got, expected $want; cd $dir && $tool $*)"
        sed 's/^/    /' "$log" | head -n 40
        status=1
    fi
}

# pto-as on every sample (status 0) and every error case (its status without valgrind)
for f in $(cd "$root" && find samples -name '*.pto' | sort); do
    vg "pto-as/$f" "$root" 0 pto-as "$f"
done
for f in $(cd "$root/tests/errors" && find . -maxdepth 1 -name '*.pto' | sort); do
    f=${f#./}
    want=$("$build/pto-as" "$root/tests/errors/$f" >/dev/null 2>&1; echo $?)
    vg "pto-as/tests/errors/$f" "$root/tests/errors" "$want" pto-as "$f"
done

# pto-run: the sample commands of samples/README.md
grep '^build/pto-run ' "$root/samples/README.md" > "$log.cmds"
while read -r _ prog args; do
    # shellcheck disable=SC2086 # arguments are split on purpose
    vg "pto-run/$prog" "$root" 0 pto-run "$prog" $args </dev/null
done < "$log.cmds"

# pto-run: the run-time error cases of tests/errors (their RUN lines)
for f in $(cd "$root/tests/errors" && find . -maxdepth 1 -name '*.pto' | sort | xargs grep -l '^// RUN: pto-run '); do
    f=${f#./}
    args=$(sed -n 's|^// RUN: pto-run ||p' "$root/tests/errors/$f" | head -n 1 | sed "s|%s|$f|g")
    want=$(sed -n 's|^// EXIT: ||p' "$root/tests/errors/$f" | head -n 1)
    # shellcheck disable=SC2086
    vg "pto-run/tests/errors/$f" "$root/tests/errors" "$want" pto-run $args </dev/null
done
rm -f "$log.cmds"
exit $status
