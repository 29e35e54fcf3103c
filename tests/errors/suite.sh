#!/bin/sh
# Error-case suite (issue #6): sh tests/errors/suite.sh BUILD_DIR
# Every bad-input class has one case; a case passes when the tool exits with the expected status,
# the FIRST line of its standard error equals the expected text literally, and the extra checks
# hold. Commands run in tests/errors/ with `pto-as` / `pto-run` replaced by BUILD_DIR's tools.
#
# 1. tests/errors/*.pto carry their case in header comments:
#      // RUN: pto-as %s                 command (%s = this file's name); once
#      // EXIT: 1                        expected exit status
#      // STDERR: text                   expected first line of stderr
#      // STDERR-LAST: text              (optional) expected last line of stderr
# 2. tests/errors/cases.txt holds the cases whose input cannot carry a header (data files, missing
#    files, output paths, generated inputs), as blocks separated by blank lines:
#      case NAME
#      setup SHELL-COMMAND               (0 or more) run first, e.g. to generate a big input
#      run pto-run prog/copy_f32.pto --in arg0=data/f32_8.bin
#      exit 2
#      stderr text                       (or `stderr-empty`: nothing may be written to stderr)
#      stderr-last text                  (optional)
#      empty $TMP                        (optional) the scratch directory must stay empty
#      absent PATH                       (optional) PATH must not exist afterwards
#      fifo PATH                         (optional) PATH must still be a named pipe afterwards
#      symlink PATH                      (optional) PATH must still be a symbolic link afterwards
#      size PATH N                       (optional) PATH must hold N bytes afterwards
#      timeout SECONDS                   (optional) the tool is killed after that long (exit 124)
#    $TMP is a fresh scratch directory per case (in setup, run, stderr and checks).
# Prints "PASS errors/NAME" or "FAIL errors/NAME" with details (protocol of tests/run.sh).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$here" || exit 1
status=0

# check NAME: runs $run_cmd (with $setup_cmds first) in a fresh $TMP and compares; uses want_exit,
# want_first, want_last, empty_dirs, absent_paths.
check() {
    name=$1
    TMP="$scratch/$name"
    rm -rf "$TMP"
    mkdir -p "$TMP"
    subst() { printf '%s' "$1" | sed "s|\\\$TMP|$TMP|g"; }
    problems=""
    if [ -n "$setup_cmds" ]; then
        if ! (TMP="$TMP"; eval "$setup_cmds") >"$TMP.setup" 2>&1; then
            problems="setup failed: $(cat "$TMP.setup")"
        fi
    fi
    cmd=$(subst "$run_cmd")
    case $cmd in
        pto-as\ *|pto-run\ *) cmd="$build/$cmd" ;;
        *) problems="$problems; RUN must start with pto-as or pto-run" ;;
    esac
    [ -n "$time_limit" ] && cmd="timeout $time_limit $cmd"
    # shellcheck disable=SC2086 # the command line is split on purpose (no globbing: set -f)
    (set -f; exec $cmd) >"$TMP.out" 2>"$TMP.err" </dev/null
    got=$?
    first=$(head -n 1 "$TMP.err")
    last=$(tail -n 1 "$TMP.err")
    want_first_s=$(subst "$want_first")
    want_last_s=$(subst "$want_last")
    if [ "$got" = 124 ] && [ -n "$time_limit" ]; then
        problems="$problems; killed after $time_limit s (a hang or quadratic behaviour)"
    fi
    [ "$got" = "$want_exit" ] || problems="$problems; exit $got, expected $want_exit"
    [ "$first" = "$want_first_s" ] || problems="$problems; first stderr line differs:
      got:      $first
      expected: $want_first_s"
    if [ -n "$want_last" ] && [ "$last" != "$want_last_s" ]; then
        problems="$problems; last stderr line differs:
      got:      $last
      expected: $want_last_s"
    fi
    if grep -q -e 'AddressSanitizer' -e 'runtime error:' -e 'LeakSanitizer' "$TMP.err"; then
        problems="$problems; sanitizer report on stderr"
    fi
    for d in $empty_dirs; do
        d=$(subst "$d")
        [ -z "$(ls -A "$d" 2>/dev/null)" ] || problems="$problems; $d is not empty: $(ls -A "$d" | tr '\n' ' ')"
    done
    for p in $absent_paths; do
        p=$(subst "$p")
        [ ! -e "$p" ] || problems="$problems; $p exists"
    done
    for p in $fifo_paths; do
        p=$(subst "$p")
        [ -p "$p" ] || problems="$problems; $p is no longer a named pipe (replaced by a rename?)"
    done
    for p in $symlink_paths; do
        p=$(subst "$p")
        [ -L "$p" ] || problems="$problems; $p is no longer a symbolic link (replaced by a rename?)"
    done
    printf '%s' "$size_checks" | while read -r p n; do
        [ -n "$p" ] || continue
        p=$(subst "$p")
        got_size=$(wc -c < "$p" 2>/dev/null | tr -d ' ')
        [ "$got_size" = "$n" ] || echo "size of $p is ${got_size:-?}, expected $n"
    done > "$TMP.size"
    [ -s "$TMP.size" ] && problems="$problems; $(cat "$TMP.size")"
    if [ -n "$want_empty" ] && [ -s "$TMP.err" ]; then
        problems="$problems; stderr is not empty"
    fi
    if [ -z "$problems" ]; then
        echo "PASS errors/$name"
    else
        echo "FAIL errors/$name"
        echo "    $(printf '%s' "$run_cmd" | sed "s|%s|$name|")${problems}" | sed 's/; /\n    /g'
        sed -n '1,6s/^/    | /p' "$TMP.err"
        status=1
    fi
}

reset_case() {
    setup_cmds="" run_cmd="" want_exit="" want_first="" want_last="" empty_dirs="" absent_paths="" fifo_paths=""
    symlink_paths="" size_checks="" time_limit=""
    want_empty=""
}

# 1. .pto files with header comments
for file in *.pto; do
    [ -f "$file" ] || continue
    reset_case
    run_cmd=$(sed -n 's|^// RUN: ||p' "$file" | head -n 1 | sed "s|%s|$file|g")
    want_exit=$(sed -n 's|^// EXIT: ||p' "$file" | head -n 1)
    want_first=$(sed -n 's|^// STDERR: ||p' "$file" | head -n 1)
    want_last=$(sed -n 's|^// STDERR-LAST: ||p' "$file" | head -n 1)
    if [ -z "$run_cmd" ] || [ -z "$want_exit" ] || [ -z "$want_first" ]; then
        echo "FAIL errors/${file%.pto} (needs // RUN:, // EXIT: and // STDERR: header lines)"
        status=1
        continue
    fi
    check "${file%.pto}"
done

# 2. cases.txt blocks
reset_case
name=""
finish_block() {
    [ -n "$name" ] || return 0
    if [ -z "$run_cmd" ] || [ -z "$want_exit" ] || { [ -z "$want_first" ] && [ -z "$want_empty" ]; }; then
        echo "FAIL errors/$name (cases.txt: needs run, exit and stderr lines)"
        status=1
    else
        check "$name"
    fi
    name=""
    reset_case
}
while IFS= read -r line || [ -n "$line" ]; do
    case $line in
        '#'*) ;;
        '') finish_block ;;
        'case '*) finish_block; name=${line#case } ;;
        'setup '*) setup_cmds="${setup_cmds}${setup_cmds:+
}${line#setup }" ;;
        'run '*) run_cmd=${line#run } ;;
        'exit '*) want_exit=${line#exit } ;;
        'stderr '*) want_first=${line#stderr } ;;
        'stderr-last '*) want_last=${line#stderr-last } ;;
        'stderr-empty') want_empty=1 ;;
        'fifo '*) fifo_paths="$fifo_paths ${line#fifo }" ;;
        'symlink '*) symlink_paths="$symlink_paths ${line#symlink }" ;;
        'timeout '*) time_limit=${line#timeout } ;;
        'size '*) size_checks="${size_checks}${line#size }
" ;;
        'empty '*) empty_dirs="$empty_dirs ${line#empty }" ;;
        'absent '*) absent_paths="$absent_paths ${line#absent }" ;;
        *) echo "FAIL errors/cases.txt (unknown line: $line)"; status=1 ;;
    esac
done < cases.txt
finish_block
exit $status
