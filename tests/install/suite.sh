#!/bin/sh
# `make install` into a scratch DESTDIR (issue 13): sh tests/install/suite.sh BUILD_DIR
# Lists what got installed and checks it: both tools (executable), both man pages (readable by
# man(1) when it is there), and nothing that belongs to the tests (unit-test binaries, test or fuzz
# libraries, static libraries, benchmarks); `make uninstall` removes what install put there.
# Prints "PASS install/NAME" or "FAIL install/NAME" (protocol of tests/run.sh).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
dest="$T/dest"
if ! make -C "$root" --no-print-directory -s BUILD="$build" DESTDIR="$dest" PREFIX=/usr/local install >"$T/log" 2>&1; then
    echo "FAIL install/make_install"
    sed 's/^/    /' "$T/log" | tail -n 10
    exit 1
fi
echo "PASS install/make_install"
(cd "$dest" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$T/list"

check() { # NAME CONDITION-TEXT (result in $ok)
    if [ "$ok" = yes ]; then echo "PASS install/$1"; else echo "FAIL install/$1"; echo "    $2"; sed 's/^/    installed: /' "$T/list"; fi
}

ok=yes
for f in usr/local/bin/pto-as usr/local/bin/pto-run; do
    [ -x "$dest/$f" ] || ok=no
done
check tools "usr/local/bin/pto-as and pto-run must be installed and executable"

ok=yes
for f in usr/local/share/man/man1/pto-as.1 usr/local/share/man/man1/pto-run.1; do
    [ -r "$dest/$f" ] || ok=no
    if [ "$ok" = yes ] && command -v man >/dev/null 2>&1; then
        MANWIDTH=80 man -l "$dest/$f" 2>/dev/null | grep -q "^NAME" || ok=no
    fi
done
check man_pages "share/man/man1/pto-as.1 and pto-run.1 must be installed (and render with man -l)"

ok=yes
grep -Ei '(test|fuzz|bench|criterion)|\.a$|\.o$' "$T/list" >"$T/bad" && ok=no
check no_test_files "nothing of the tests may be installed: $(tr '\n' ' ' <"$T/bad")"

ok=yes
make -C "$root" --no-print-directory -s BUILD="$build" DESTDIR="$dest" PREFIX=/usr/local uninstall >"$T/log" 2>&1 || ok=no
[ -z "$(cd "$dest" && find . -type f)" ] || ok=no
check uninstall "make uninstall must remove every installed file"
