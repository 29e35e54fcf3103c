#!/usr/bin/python3
"""Runs a PTOAS sample whose golden lives in npu_validation/ (FlashAttention, GQA, FFN, ...):
    run_pipeline.py PTO_RUN SAMPLE_DIR [--target a2a3|a5] [--fused KERNEL.pto]
Its main.cpp is the contract: it reads inputs vK.bin into device buffers (ReadFile), launches
kernels on those buffers in order (LaunchX(bufs..., scalars..., stream)), and writes the dst
buffers to output files (WriteFile). This script does the same with pto-run: golden.py makes the
inputs and golden files in a temporary directory, each launch runs the .pto function named by the
launch (in SAMPLE_DIR) with every pointer argument bound to its buffer's file and written back
after the run (buffers persist between launches, as device memory does), then compare.py judges
the output files. With --fused, the one function of KERNEL.pto (the sample's single-kernel form,
e.g. flash_attention-pto-new.pto) runs instead of the launches, its pointer arguments bound in
order to main.cpp's files v1.bin, v2.bin, ... and its scalar arguments to main.cpp's scalars in
order. Prints one PASS or FAIL line. Nothing of PTOAS is copied; the files are read
in place."""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def parse_main(text):
    sizes = {}
    for name, expr in re.findall(r"size_t\s+(\w+)\s*=\s*([^;]+);", text):
        expr = re.sub(r"sizeof\((\w+)\)", lambda m: {"float": "4", "half": "2", "int32_t": "4", "int8_t": "1",
                                                     "uint16_t": "2", "int16_t": "2", "bfloat16_t": "2"}.get(m.group(1), "4"), expr)
        expr = re.sub(r"\b[a-zA-Z_]\w*\b", lambda m: str(sizes.get(m.group(0), m.group(0))), expr)
        try:
            sizes[name] = int(eval(expr, {"__builtins__": {}}))
        except Exception:
            pass
    reads = {}   # device buffer -> (file, bytes)
    for f, size, host in re.findall(r'ReadFile\("\./(\w+\.bin)",\s*(\w+),\s*(\w+)', text):
        reads[host.replace("Host", "Device")] = (f, sizes.get(size))
    writes = {}
    for f, host, size in re.findall(r'WriteFile\("\./(\w+\.bin)",\s*(\w+),\s*(\w+)', text):
        writes[host.replace("Host", "Device")] = (f, sizes.get(size))
    scalars = dict(re.findall(r"\b(?:int32_t|int64_t|float|uint32_t)\s+(v\d+)\s*=\s*([-\w.]+);", text))
    launches = []
    for name, args in re.findall(r"^\s*Launch(\w+)\(([^)]*)\);", text, re.M):
        args = [a.strip() for a in args.split(",")]
        if args and args[-1] == "stream":
            args = args[:-1]
        launches.append((name[0].lower() + name[1:], args))
    return reads, writes, scalars, launches


def find_kernel(sample_dir, func, only=None):
    """The .pto of SAMPLE_DIR defining @func (`only`: that file): the one named after it first."""
    cands = [only] if only else sorted(f for f in os.listdir(sample_dir) if f.endswith(".pto"))
    base = re.sub(r"_block$", "", func)
    cands.sort(key=lambda f: (os.path.splitext(f)[0] != base, f))
    for f in cands:
        text = open(os.path.join(sample_dir, f), encoding="utf-8").read()
        m = re.search(r"func\.func\s+@%s\s*\(([^)]*)\)" % re.escape(func), text)
        if m:
            params = re.findall(r"(%[\w]+)\s*:\s*([^,]+(?:<[^>]*>)?)", m.group(1))
            return os.path.join(sample_dir, f), [(p, "!pto.ptr" in t) for p, t in params]
    return None, None


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    pto_run, sample_dir = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    target = argv[argv.index("--target") + 1] if "--target" in argv else None
    val = os.path.join(sample_dir, "npu_validation")
    fused = argv[argv.index("--fused") + 1] if "--fused" in argv else None
    name = "%s%s (%s)" % (os.path.basename(sample_dir), "/" + fused if fused else "", target or "default")
    main_cpp = open(os.path.join(val, "main.cpp"), encoding="utf-8").read()
    reads, writes, scalars, launches = parse_main(main_cpp)
    if fused:  # one kernel over every buffer: main.cpp's files in vK order, then its scalars in order
        text = open(os.path.join(sample_dir, fused), encoding="utf-8").read()
        funcs = re.findall(r"func\.func\s+@(\w+)", text)
        if len(funcs) != 1:
            print("FAIL ptoas/%s: expects one function in %s" % (name, fused))
            return 1
        bufs = sorted(list(reads.items()) + [w for w in writes.items() if w[0] not in reads],
                      key=lambda kv: int(re.sub(r"\D", "", kv[1][0])))
        launches = [(funcs[0], [b for b, _ in bufs] + list(scalars))]
    if not launches:
        print("FAIL ptoas/%s: no launches found in main.cpp" % name)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if target == "a5":
            env["SOC_VERSION"] = "a5"
        g = subprocess.run([sys.executable, os.path.join(val, "golden.py")], cwd=tmp, env=env, capture_output=True, text=True)
        if g.returncode != 0:
            print("FAIL ptoas/%s: golden.py failed\n%s" % (name, (g.stdout + g.stderr)[-2000:]))
            return 1
        dev = {}
        for buf, (f, size) in reads.items():
            dev[buf] = os.path.join(tmp, "dev_" + buf + ".bin")
            shutil.copyfile(os.path.join(tmp, f), dev[buf])
        for buf, (f, size) in writes.items():
            if buf not in dev:
                dev[buf] = os.path.join(tmp, "dev_" + buf + ".bin")
                open(dev[buf], "wb").write(bytes(size or 0))
        for func, args in launches:
            kernel, params = find_kernel(sample_dir, func, fused)
            if not kernel:
                print("FAIL ptoas/%s: no .pto defines @%s" % (name, func))
                return 1
            if len(params) != len(args):
                print("FAIL ptoas/%s: @%s takes %d arguments, main.cpp passes %d" % (name, func, len(params), len(args)))
                return 1
            cmd = [pto_run, kernel, "--entry", func, "--check-sync"] + (["--target=" + target] if target else [])
            for (p, is_ptr), a in zip(params, args):
                if is_ptr:
                    if a not in dev:
                        print("FAIL ptoas/%s: @%s's %s is %s, which main.cpp never fills" % (name, func, p, a))
                        return 1
                    cmd += ["--in", "%s=%s" % (p, dev[a]), "--out", "%s=%s" % (p, dev[a])]
                else:
                    cmd += ["--set", "%s=%s" % (p, scalars.get(a, a))]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL ptoas/%s: pto-run @%s exit %d\n%s" % (name, func, r.returncode, (r.stdout + r.stderr)[-3000:]))
                return 1
        for buf, (f, size) in writes.items():
            shutil.copyfile(dev[buf], os.path.join(tmp, f))
        c = subprocess.run([sys.executable, os.path.join(val, "compare.py")], cwd=tmp, env=env, capture_output=True, text=True)
        if c.returncode != 0:
            print("FAIL ptoas/%s: compare.py says\n%s" % (name, (c.stdout + c.stderr)[-2000:]))
            return 1
    print("PASS ptoas/%s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
