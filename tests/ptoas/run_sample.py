#!/usr/bin/python3
"""Runs one PTOAS sample kernel (.pto with a <case>_golden.py beside it) in pto-run and checks its
outputs against the golden the sample's own script computes, within the tolerance PTOAS's board
validation uses (npu_validation: np.allclose with atol = rtol = 1e-4 for f32, 1e-2 for f16, at most
1 ULP for bf16, exact for integers).

    run_sample.py PTO_RUN SAMPLES_DIR SAMPLE.pto|SAMPLE.py [--target a2a3|a5] [--set NAME=VALUE ...]

A SAMPLE.py is one of PTOAS's builder scripts: it runs against the stand-in MLIR bindings of
tests/ptoas/mock (Debian has no MLIR Python bindings), which print the kernel as PTO-AS text.

SAMPLES_DIR is PTOAS's test/samples (it holds validation_runtime.py). The golden script reads a
description of the kernel's buffers (the `main.cpp` and `outputs.txt` that PTOAS's harness would
generate); this script writes that description from the kernel's own text: one buffer vK per
!pto.ptr argument (K from 1), sized by the largest reach of the tensor views made on it, outputs
being those some tstore writes; `index` arguments are 0 and integer ones 1 unless --set gives a
value (the defaults of PTOAS's harness: offsets 0 for a single block). Views whose shape depends
on an argument are sized by a first pto-run on zero-filled buffers. When the sample has its own
<case>_compare.py it judges the outputs; otherwise the harness's default tolerances above do.
Prints PASS/FAIL lines; exit 0 on PASS."""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

NP_OF = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "i8": np.int8, "ui8": np.uint8,
         "u8": np.uint8, "i16": np.int16, "ui16": np.uint16, "i32": np.int32, "ui32": np.uint32,
         "i64": np.int64, "ui64": np.uint64}
CPP_OF = {"f32": "float", "f16": "half", "bf16": "bfloat16_t", "i8": "int8_t", "ui8": "uint8_t", "u8": "uint8_t",
          "i16": "int16_t", "ui16": "uint16_t", "i32": "int32_t", "ui32": "uint32_t", "i64": "int64_t",
          "ui64": "uint64_t"}
EPS = {"f32": 1e-4, "f16": 1e-2}


def parse_kernel(text):
    """The entry's arguments, the element count each pointer needs and the pointers stored to."""
    sig = re.search(r"func\.func\s+@(\w+)\s*\(([^)]*)\)", text)
    if not sig:
        raise ValueError("no func.func found")
    args = []
    for m in re.finditer(r"%(\w+)\s*:\s*(!pto\.ptr<(\w+)>|index|i\d+)", sig.group(2)):
        args.append((m.group(1), m.group(3) if m.group(3) else m.group(2), bool(m.group(3))))
    consts = {m.group(1): int(m.group(2)) for m in re.finditer(r"%([\w.$-]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:", text)}
    view_arg, reach = {}, {}
    for m in re.finditer(r"%([\w.$-]+)\s*=\s*pto\.make_tensor_view\s+%(\w+),\s*shape\s*=\s*\[([^\]]*)\],\s*strides\s*=\s*\[([^\]]*)\]", text):
        dims = [consts.get(x.strip().lstrip("%"), None) for x in m.group(3).split(",")]
        strides = [consts.get(x.strip().lstrip("%"), None) for x in m.group(4).split(",")]
        view_arg[m.group(1)] = m.group(2)
        view_arg[m.group(1)] = m.group(2)
        if None in dims or None in strides:
            reach[m.group(2)] = None  # sized by a first run
            continue
        n = 1 + sum((d - 1) * s for d, s in zip(dims, strides))
        if reach.get(m.group(2), 0) is not None:
            reach[m.group(2)] = max(reach.get(m.group(2), 0), n)
    pview = {m.group(1): m.group(2) for m in re.finditer(r"%([\w.$-]+)\s*=\s*pto\.partition_view\s+%([\w.$-]+)", text)}
    stored = set()
    for m in re.finditer(r"pto\.tstore\s+ins\([^)]*\)\s*outs\(%([\w.$-]+)", text):
        v = pview.get(m.group(1), m.group(1))
        if v in view_arg:
            stored.add(view_arg[v])
    return args, reach, stored


def build_from_script(script, samples_dir):
    """The kernel a PTOAS builder script prints, run against the stand-in MLIR bindings."""
    env = dict(os.environ)
    mock = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mock")
    env["PYTHONPATH"] = os.pathsep.join([mock, os.path.dirname(script)])
    env["PTOAS_OPS_TD"] = os.path.join(samples_dir, "..", "..", "include", "PTO", "IR", "PTOOps.td")
    r = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True)
    if r.returncode != 0 or "func.func" not in r.stdout:
        return "FAIL ptoas/%%s: the builder script failed\n%s" % (r.stdout + r.stderr)[-1500:].replace("%", "%%")
    return r.stdout


def bf16_ulp_ok(golden, out, max_ulp=1):
    g = golden.astype(np.int32)
    o = out.astype(np.int32)
    # map sign-magnitude bit patterns to a monotonic integer line
    g = np.where(g & 0x8000, 0x8000 - (g & 0x7FFF), g + 0x8000)
    o = np.where(o & 0x8000, 0x8000 - (o & 0x7FFF), o + 0x8000)
    bad = np.abs(g - o) > max_ulp
    return int(np.count_nonzero(bad))


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    pto_run, samples_dir, pto = argv[1], argv[2], os.path.abspath(argv[3])
    target, sets = None, {}
    rest = argv[4:]
    while rest:
        if rest[0] == "--target":
            target, rest = rest[1], rest[2:]
        elif rest[0] == "--set":
            k, v = rest[1].split("=", 1)
            sets[k], rest = int(v, 0), rest[2:]
        else:
            print("unknown option " + rest[0])
            return 2
    case = os.path.splitext(os.path.basename(pto))[0]
    golden_py = os.path.join(os.path.dirname(pto), case + "_golden.py")
    name = os.path.relpath(pto, samples_dir)
    if not os.path.isfile(golden_py):
        print("FAIL ptoas/%s: no %s" % (name, os.path.basename(golden_py)))
        return 1
    if pto.endswith(".py"):
        built = build_from_script(pto, samples_dir)
        if isinstance(built, str) and built.startswith("FAIL"):
            print(built % name)
            return 1
        pto_text = built
    else:
        pto_text = open(pto, encoding="utf-8").read()
    args, reach, stored = parse_kernel(pto_text)
    ptrs = [(a, t) for a, t, is_ptr in args if is_ptr]
    scalars = [(a, t) for a, t, is_ptr in args if not is_ptr]
    value = {a: sets.get(a, 0 if t == "index" else 1) for a, t in scalars}
    with tempfile.TemporaryDirectory() as tmp:
        if any(reach.get(a) is None for a, t in ptrs):
            kernel = os.path.join(tmp, case + ".pto")
            if pto.endswith(".py"):
                with open(kernel, "w") as f:
                    f.write(pto_text)
            else:
                kernel = pto
            # the sizing run is on zero-filled buffers by design: --zero-inputs
            cmd = [pto_run, kernel, "--zero-inputs"] + (["--target=" + target] if target else [])
            for a, t in ptrs:
                cmd += ["--out", "%s=%s" % (a, os.path.join(tmp, "size_%s.bin" % a))]
            for a, t in scalars:
                cmd += ["--set", "%s=%d" % (a, value[a])]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL ptoas/%s: sizing run failed\n%s" % (name, (r.stdout + r.stderr)[-3000:]))
                return 1
            for a, t in ptrs:
                reach[a] = os.path.getsize(os.path.join(tmp, "size_%s.bin" % a)) // np.dtype(NP_OF[t]).itemsize
        lines = []
        for k, (a, t) in enumerate(ptrs, 1):
            lines.append("    size_t elemCount_v%d = %d;" % (k, reach.get(a, 1)))
            lines.append("    size_t fileSize_v%d = elemCount_v%d * sizeof(%s);" % (k, k, CPP_OF[t]))
            lines.append('    ReadFile("./v%d.bin", fileSize_v%d, buf, fileSize_v%d);' % (k, k, k))
        for a, t in scalars:
            lines.append("    int32_t %s = %d;" % (a, value[a]))
        with open(os.path.join(tmp, "main.cpp"), "w") as f:
            f.write("\n".join(lines) + "\n")
        outputs = ["v%d" % k for k, (a, t) in enumerate(ptrs, 1) if a in stored]
        with open(os.path.join(tmp, "outputs.txt"), "w") as f:
            f.write("\n".join(outputs) + "\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(pto), samples_dir, env.get("PYTHONPATH", "")])
        if target == "a5":
            env["SOC_VERSION"] = "a5"
        g = subprocess.run([sys.executable, golden_py], cwd=tmp, env=env, capture_output=True, text=True)
        if g.returncode != 0:
            print("FAIL ptoas/%s: golden script failed\n%s" % (name, (g.stdout + g.stderr)[-2000:]))
            return 1
        if pto.endswith(".py"):
            kernel = os.path.join(tmp, case + ".pto")
            with open(kernel, "w") as f:
                f.write(pto_text)
        else:
            kernel = pto
        # --check-sync: a kernel with explicit sync must have no race on this path (issue #14); one
        # without gets a note only (PTOAS inserts its sync)
        cmd = [pto_run, kernel, "--check-sync"]
        if target:
            cmd.append("--target=" + target)
        for k, (a, t) in enumerate(ptrs, 1):
            cmd += ["--in", "%s=%s" % (a, os.path.join(tmp, "v%d.bin" % k))]
            if a in stored:
                cmd += ["--out", "%s=%s" % (a, os.path.join(tmp, "out_v%d.bin" % k))]
        for a, t in scalars:
            cmd += ["--set", "%s=%d" % (a, value[a])]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL ptoas/%s: pto-run exit %d\n%s" % (name, r.returncode, (r.stdout + r.stderr)[-3000:]))
            return 1
        compare_py = os.path.join(os.path.dirname(pto), case + "_compare.py")
        if os.path.isfile(compare_py):
            for k, (a, t) in enumerate(ptrs, 1):
                if a in stored:
                    os.replace(os.path.join(tmp, "out_v%d.bin" % k), os.path.join(tmp, "v%d.bin" % k))
            c = subprocess.run([sys.executable, compare_py], cwd=tmp, env=env, capture_output=True, text=True)
            if c.returncode != 0:
                print("FAIL ptoas/%s: %s says\n%s" % (name, os.path.basename(compare_py), (c.stdout + c.stderr)[-2000:]))
                return 1
            print("PASS ptoas/%s%s (%s)" % (name, " (" + target + ")" if target else "", os.path.basename(compare_py)))
            return 0
        failures = []
        for k, (a, t) in enumerate(ptrs, 1):
            if a not in stored:
                continue
            want = np.fromfile(os.path.join(tmp, "golden_v%d.bin" % k), dtype=NP_OF[t])
            got = np.fromfile(os.path.join(tmp, "out_v%d.bin" % k), dtype=NP_OF[t])
            if want.shape != got.shape:
                failures.append("v%d: %d elements, golden has %d" % (k, got.size, want.size))
                continue
            if t == "bf16":
                bad = bf16_ulp_ok(want, got)
                rule = "bf16 within 1 ULP"
            elif t in EPS:
                ok = np.isclose(got.astype(np.float64), want.astype(np.float64), atol=EPS[t], rtol=EPS[t], equal_nan=True)
                bad = int(np.count_nonzero(~ok))
                rule = "allclose atol=rtol=%g" % EPS[t]
            else:
                bad = int(np.count_nonzero(got != want))
                rule = "exact"
            if bad:
                failures.append("v%d (%s, %s): %d of %d elements differ" % (k, a, rule, bad, want.size))
        if failures:
            print("FAIL ptoas/%s: %s" % (name, "; ".join(failures)))
            return 1
        print("PASS ptoas/%s%s" % (name, " (" + target + ")" if target else ""))
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
