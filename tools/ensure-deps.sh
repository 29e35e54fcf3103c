#!/bin/sh
# Checks the build and test dependencies (re2c, bison, Criterion, python3-numpy, pytest, setuptools) and installs the missing ones with
# apt-get (through sudo when not root). If that is impossible it stops with the exact command.
missing=""
command -v re2c >/dev/null 2>&1 || missing="$missing re2c"
command -v bison >/dev/null 2>&1 || missing="$missing bison"
[ -f /usr/include/criterion/criterion.h ] || missing="$missing libcriterion-dev"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
# the PTOAS sample suite (tests/ptoas) runs the samples' numpy golden scripts
/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || missing="$missing python3-numpy"
# the Python package (python/, tests/python): pytest, setuptools and wheel for an offline pip install
/usr/bin/python3 -c 'import pytest' >/dev/null 2>&1 || missing="$missing python3-pytest"
/usr/bin/python3 -c 'import setuptools' >/dev/null 2>&1 || missing="$missing python3-setuptools"
/usr/bin/python3 -c 'import wheel' >/dev/null 2>&1 || missing="$missing python3-wheel"
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || missing="$missing python3-pip"
[ -z "$missing" ] && exit 0

cmd="apt-get install -y$missing"
echo "ensure-deps: missing build dependencies:$missing" >&2
if [ "$(id -u)" = 0 ]; then
    prefix=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    prefix="sudo "
else
    echo "ensure-deps: run this, then retry:  sudo apt-get update && sudo $cmd" >&2
    exit 1
fi
echo "ensure-deps: ${prefix}apt-get update && ${prefix}$cmd" >&2
if ! ${prefix}apt-get update -qq >&2 || ! DEBIAN_FRONTEND=noninteractive ${prefix}$cmd >&2; then
    echo "ensure-deps: installation failed; run:  sudo apt-get update && sudo $cmd" >&2
    exit 1
fi
