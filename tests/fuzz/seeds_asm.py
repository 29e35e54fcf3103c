#!/usr/bin/python3
"""Seeds in the SSA, assembly and generic spellings for the .pto text harnesses (called by seeds.sh).

Most repository programs are written in the DPS form; few use the SSA form (`%d = pto.tsub %a,
%b : ...`), the assembly spelling (`%d = tsub %a, %b : ...`, docs/syntax.md) or MLIR's generic
form (`"pto.tsub"(...)`). This derives them: each program that pto-as accepts (with the flags of its
`// pto-as:` first line, else as it is, else with --target=a5) is printed with --emit=ssa (which
records the target), and in that print every op head `pto.X` whose row has the assembly mnemonic
X (ir/ops*.def, read by dict_ops.op_names) is rewritten to X. A program whose SSA print and
assembly rewrite pto-as both accept again is a candidate; the picked programs are a small set of
candidates, chosen greedily, that together use every mnemonic any candidate uses (the largest
number of new mnemonics first, the shorter program on a tie). For each picked program PATH the
seeds are ssa_PATH, asm_PATH and, when pto-as accepts it again, generic_PATH (--emit=generic),
with / in PATH as _.

Usage: seeds_asm.py ROOT PTO_AS OUT_DIR... (the repository's .pto list on standard input)"""
import os
import re
import subprocess
import sys

import dict_ops

HEAD = re.compile(r'^(\s*(?:%[^=\n"]*=\s*)?)(pto\.[\w.]+)', re.M)


def accepted(pto_as, args):
    r = subprocess.run([pto_as, "-q"] + args, capture_output=True)
    return r.returncode == 0, r.stdout


def derive(pto_as, path, mnemonic_of):
    """(SSA print, its assembly rewrite, the mnemonics it uses, the flags it needed) of `path`, or None."""
    with open(path, "rb") as f:
        first = f.readline().decode("utf-8", "replace")
    given = first[len("// pto-as:"):].split() if first.startswith("// pto-as:") else []
    attempts = [given] if given else [[], ["--target=a5"]]
    for flags in attempts:
        ok, printed = accepted(pto_as, flags + ["--emit=ssa", path])
        if ok:
            break
    else:
        return None
    printed = printed.decode("utf-8", "replace")
    used = set()

    def to_mnemonic(m):
        asm = mnemonic_of.get(m.group(2))
        if not asm:
            return m.group(0)
        used.add(asm)
        return m.group(1) + asm

    text = HEAD.sub(to_mnemonic, printed)
    return (printed, text, used, flags) if used else None


def verifies(pto_as, text, tmp):
    with open(tmp, "w") as f:
        f.write(text)
    return accepted(pto_as, [tmp])[0]


def main():
    root, pto_as, outs = sys.argv[1], sys.argv[2], sys.argv[3:]
    mnemonic_of = {full: asm for full, asm in dict_ops.op_names() if asm}
    candidates = {}
    tmp = os.path.join(outs[0], ".seed_check.pto")
    for path in sys.stdin.read().split():
        got = derive(pto_as, os.path.join(root, path), mnemonic_of)
        if got and verifies(pto_as, got[0], tmp) and verifies(pto_as, got[1], tmp):
            candidates[path] = got
    left = set().union(*(got[2] for got in candidates.values()))
    picked = []
    while left:
        best = max(sorted(candidates), key=lambda p: (len(candidates[p][2] & left), -len(candidates[p][1])))
        picked.append(best)
        left -= candidates[best][2]
    seeds = {}
    for path in picked:
        ssa, asm, _, flags = candidates[path]
        name = path.replace("/", "_")
        seeds["ssa_" + name], seeds["asm_" + name] = ssa, asm
        ok, generic = accepted(pto_as, flags + ["--emit=generic", os.path.join(root, path)])
        if ok and verifies(pto_as, generic.decode("utf-8", "replace"), tmp):
            seeds["generic_" + name] = generic.decode("utf-8", "replace")
    os.remove(tmp)
    for out in outs:
        for name, text in seeds.items():
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
    covered = set().union(*(candidates[p][2] for p in picked)) if picked else set()
    missing = sorted(set(mnemonic_of.values()) - covered)
    print("seeds_asm.py: %d programs in SSA, assembly and generic spelling (%d seeds) use %d of %d mnemonics%s" %
          (len(picked), len(seeds), len(covered), len(mnemonic_of), "; none uses " + " ".join(missing) if missing else ""))


if __name__ == "__main__":
    main()
