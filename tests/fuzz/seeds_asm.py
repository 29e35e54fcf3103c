#!/usr/bin/python3
"""Assembly-spelling seeds for the .pto text harnesses (called by seeds.sh).

Few repository programs use the assembly spelling (`%d = tsub %a, %b : ...`, docs/syntax.md), so
this derives it: each program that pto-as accepts (with the flags of its `// pto-as:` first line,
else as it is, else with --target=a5) is printed in SSA form (--emit=ssa, which records the
target), and every op head `pto.X` whose row has the assembly mnemonic X (ir/ops*.def, read by
dict_ops.op_names) is rewritten to X. A rewritten program that pto-as accepts again is a
candidate; the seeds are a small set of candidates, chosen greedily, that together use every mnemonic any
candidate uses (the largest number of new mnemonics first, the shorter program on a tie), written
as asm_<path with / as _>.

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
    """The assembly-spelled SSA print of `path` and the mnemonics it uses, or None."""
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
    used = set()

    def to_mnemonic(m):
        asm = mnemonic_of.get(m.group(2))
        if not asm:
            return m.group(0)
        used.add(asm)
        return m.group(1) + asm

    text = HEAD.sub(to_mnemonic, printed.decode("utf-8", "replace"))
    return (text, used) if used else None


def main():
    root, pto_as, outs = sys.argv[1], sys.argv[2], sys.argv[3:]
    mnemonic_of = {full: asm for full, asm in dict_ops.op_names() if asm}
    candidates = {}
    tmp = os.path.join(outs[0], ".asm_check.pto")
    for path in sys.stdin.read().split():
        got = derive(pto_as, os.path.join(root, path), mnemonic_of)
        if not got:
            continue
        with open(tmp, "w") as f:
            f.write(got[0])
        if accepted(pto_as, [tmp])[0]:
            candidates[path] = got
    os.remove(tmp)
    left = set().union(*(used for _, used in candidates.values()))
    picked = []
    while left:
        best = max(sorted(candidates), key=lambda p: (len(candidates[p][1] & left), -len(candidates[p][0])))
        picked.append(best)
        left -= candidates[best][1]
    for out in outs:
        for path in picked:
            with open(os.path.join(out, "asm_" + path.replace("/", "_")), "w") as f:
                f.write(candidates[path][0])
    covered = set().union(*(candidates[p][1] for p in picked)) if picked else set()
    missing = sorted(set(mnemonic_of.values()) - covered)
    print("seeds_asm.py: %d assembly-spelled seeds use %d of %d mnemonics%s" %
          (len(picked), len(covered), len(mnemonic_of), "; none uses " + " ".join(missing) if missing else ""))


if __name__ == "__main__":
    main()
