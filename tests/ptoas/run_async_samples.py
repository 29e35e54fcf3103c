#!/usr/bin/python3
"""Runs PTOAS's AsyncComm samples (asynchronous GM transfers: build_async_session, tput_async,
tget_async, wait_async_event, test_async_event) in pto-run and checks the GM buffers they leave.
These samples have no golden script and no host program; their kernels say what they move:

- async_comm.py: with nranks > 1, a put of src's 128 floats into dst, then a get of dst back into
  src; with nranks <= 1 nothing.
- tput_async_kernel_impl_like.py: the root rank (my_rank == root_rank) puts src's 256 floats into
  the destination buffer of every other rank below nranks (dst_from_rank1..3); other ranks and an
  invalid elem_offset/elem_count move nothing.
- tget_async_kernel_impl_like.py: the root rank gets src_rankK into dst_from_rankK for every other
  rank K below nranks.

pto-run runs one rank: every "remote" buffer is a GM buffer of the same run (docs/execution.md).
Each case builds the kernel with the stand-in bindings (tests/ptoas/mock), runs it with
--check-sync, and compares every buffer with what the kernel's control flow says it holds.

    run_async_samples.py PTO_RUN SAMPLES_DIR

Prints PASS/FAIL lines."""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def build(samples, name):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(HERE, "mock")
    env["PTOAS_OPS_TD"] = os.path.join(samples, "..", "..", "include", "PTO", "IR", "PTOOps.td")
    r = subprocess.run([sys.executable, os.path.join(samples, "AsyncComm", name)], env=env, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 and "func.func" in r.stdout else None


def run_case(pto_run, tmp, text, label, inputs, scalars, expect):
    """inputs: argument -> array; scalars: argument -> int; expect: argument -> array after the run."""
    prog = os.path.join(tmp, "k.pto")
    with open(prog, "w", encoding="utf-8") as f:
        f.write(text)
    cmd = [pto_run, prog, "--check-sync", "--target", "a2a3"]
    for arg, a in inputs.items():
        path = os.path.join(tmp, arg + ".in")
        a.tofile(path)
        cmd += ["--in", "%s=%s" % (arg, path)]
    for arg, v in scalars.items():
        cmd += ["--set", "%s=%d" % (arg, v)]
    for arg in expect:
        cmd += ["--out", "%s=%s" % (arg, os.path.join(tmp, arg + ".out"))]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL ptoas/AsyncComm/%s: pto-run exited %d\n%s" % (label, r.returncode, (r.stdout + r.stderr)[-1500:]))
        return False
    for arg, want in expect.items():
        got = np.fromfile(os.path.join(tmp, arg + ".out"), dtype=want.dtype)
        if got.shape != want.shape or not np.array_equal(got, want):
            print("FAIL ptoas/AsyncComm/%s: %s differs from what the kernel moves" % (label, arg))
            return False
    print("PASS ptoas/AsyncComm/%s" % label)
    return True


def built(samples, name):
    """The text a sample's builder script prints, or None (reported) when the script fails."""
    text = build(samples, name)
    if text is None:
        print("FAIL ptoas/AsyncComm/%s: the builder script failed" % name)
    return text


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    pto_run, samples = argv[1], argv[2]
    ok = True
    rng = np.random.default_rng(13)
    ws = np.zeros(1024, np.int8)
    with tempfile.TemporaryDirectory() as tmp:
        text = built(samples, "async_comm.py")
        ok &= text is not None
        if text is not None:
            src = rng.standard_normal(128).astype(np.float32)
            dst = np.full(128, -1, np.float32)
            ok &= run_case(pto_run, tmp, text, "async_comm.py nranks=2", {"arg0": dst, "arg1": src, "arg2": ws}, {"arg3": 2},
                           {"arg0": src, "arg1": src})
            ok &= run_case(pto_run, tmp, text, "async_comm.py nranks=1", {"arg0": dst, "arg1": src, "arg2": ws}, {"arg3": 1},
                           {"arg0": dst, "arg1": src})
        text = built(samples, "tput_async_kernel_impl_like.py")
        ok &= text is not None
        if text is not None:
            src = rng.standard_normal(256).astype(np.float32)
            dsts = [np.full(256, float(-k), np.float32) for k in (1, 2, 3)]
            ins = {"arg0": dsts[0], "arg1": dsts[1], "arg2": dsts[2], "arg3": src, "arg4": ws}
            for label, nranks, root, me, off, count, moved in [
                    ("root of 4", 4, 0, 0, 0, 256, (1, 2, 3)), ("root of 3", 3, 0, 0, 0, 256, (1, 2)),
                    ("root 2 of 4", 4, 2, 2, 0, 256, (1, 3)), ("not the root", 4, 0, 1, 0, 256, ()),
                    ("count past the end", 4, 0, 0, 8, 256, ())]:
                expect = {"arg%d" % (k - 1): src if k in moved else dsts[k - 1] for k in (1, 2, 3)}
                expect["arg3"] = src
                ok &= run_case(pto_run, tmp, text, "tput_async_kernel_impl_like.py %s" % label, ins,
                               {"arg5": nranks, "arg6": root, "arg7": me, "arg8": off, "arg9": count}, expect)
        text = built(samples, "tget_async_kernel_impl_like.py")
        ok &= text is not None
        if text is not None:
            srcs = [rng.standard_normal(256).astype(np.float32) for _ in range(3)]
            dsts = [np.full(256, float(-k), np.float32) for k in (1, 2, 3)]
            ins = {"arg%d" % i: a for i, a in enumerate(dsts + srcs)}
            ins["arg6"] = ws
            for label, nranks, root, me, moved in [("root of 4", 4, 0, 0, (1, 2, 3)), ("root 3 of 4", 4, 3, 3, (1, 2)),
                                                   ("not the root", 4, 0, 2, ())]:
                expect = {"arg%d" % (k - 1): srcs[k - 1] if k in moved else dsts[k - 1] for k in (1, 2, 3)}
                ok &= run_case(pto_run, tmp, text, "tget_async_kernel_impl_like.py %s" % label, ins,
                               {"arg7": nranks, "arg8": root, "arg9": me, "arg10": 0, "arg11": 256}, expect)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
