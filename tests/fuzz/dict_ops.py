#!/usr/bin/python3
"""Regenerates the op and attribute words of tests/fuzz/pto.dict from the op table (ir/ops*.def:
every op's full and assembly names, every attribute name) and ir/attrs.c (enum spellings), keeping
the dictionary's other lines. Run after adding an instruction: /usr/bin/python3 tests/fuzz/dict_ops.py"""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BEGIN, END = "# ---- op table words (dict_ops.py) ----", "# ---- end of op table words ----"


def op_names():
    """Every op row's (full name, assembly mnemonic or None), from ir/ops*.def."""
    out = set()
    for path in glob.glob(os.path.join(ROOT, "ir", "ops*.def")):
        text = open(path).read()
        for m in re.finditer(r'^\s*(?:OP\(\w+,\s*"([\w.]+)",\s*(?:"([\w.]+)"|NULL)|[A-Z_]+_OP\(\w+,\s*"([\w.]+)")', text, re.M):
            full, asm, member = m.groups()
            if full:
                out.add((full, asm))
            if member:  # a family row: the assembly name, and "pto." before it unless it is a full name
                out.add((member, None) if member.startswith(("arith.", "pto.")) else ("pto." + member, member))
    return sorted(out, key=lambda pair: pair[0])


def words():
    out = set()
    for full, asm in op_names():
        out.update(w for w in (full, asm) if w)
    for path in glob.glob(os.path.join(ROOT, "ir", "ops*.def")):
        out.update(re.findall(r'ATTR\("(\w+)"', open(path).read()))
    attrs = open(os.path.join(ROOT, "ir", "attrs.c")).read()
    for group in re.findall(r"\{([^{}]*NULL)\}", attrs):
        out.update(re.findall(r'"(\w+)"', group))
    return sorted(out)


def main():
    path = os.path.join(HERE, "pto.dict")
    lines = open(path).read().splitlines()
    if BEGIN in lines:
        lines = lines[:lines.index(BEGIN)] + lines[lines.index(END) + 1:]
    existing = set(lines)
    new = [BEGIN] + ['"%s"' % w for w in words() if '"%s"' % w not in existing] + [END]
    open(path, "w").write("\n".join(lines + new) + "\n")


if __name__ == "__main__":
    main()
