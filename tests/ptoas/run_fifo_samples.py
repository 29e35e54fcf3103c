#!/usr/bin/python3
"""Runs PTOAS's TPushTPop samples (cube and vector kernels joined by FIFOs) in pto-run and checks
what each sample's host program (main.cpp) checks or announces. These samples have no golden
script: main.cpp fills the inputs, and either compares the output with a golden it computes
(test4, test5) or prints what the kernel's TPRINT output should be (the others). This script
builds the same inputs, computes the same expectations with numpy, and compares.

    run_fifo_samples.py PTO_RUN SAMPLES_DIR

pto-run runs a vector kernel function as two sub-blocks (get_subblock_idx 0 and 1), as the
hardware and the CPU simulator do; with split = 0 the second sub-block's tpop_from_aic gives a
zero-filled tile (pto-isa cpu/TPop.hpp: the inactive no-split lane), so those samples print one
more block of zeros than main.cpp mentions. test5 places its 32 KiB f32 rhs_mat at byte 0 of L1
and its lhs_mat at byte 16384, inside it: the rhs tload overwrites lhs before the tmov reads it,
so the sample cannot match main.cpp's golden (pto-run shows the clobbered result, checked here
to differ); the kernel with lhs_mat moved to byte 32768 is checked against the golden.
Prints PASS/FAIL lines."""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def bf16_bits(x):
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def tprint_blocks(text):
    """The TPRINT blocks of pto-run's output, as float arrays."""
    blocks, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"TPRINT (\d+)x(\d+)$", lines[i].strip())
        if not m:
            i += 1
            continue
        rows, cols = int(m.group(1)), int(m.group(2))
        vals = [[float(v) for v in lines[i + 1 + r].split()] for r in range(rows)]
        blocks.append(np.array(vals, np.float32).reshape(rows, cols))
        i += 1 + rows
    return blocks


class Runner:
    def __init__(self, pto_run, samples, tmp):
        self.pto_run, self.samples, self.tmp, self.failed = pto_run, samples, tmp, False

    def data(self, name, array):
        path = os.path.join(self.tmp, name)
        array.tofile(path)
        return path

    def run(self, kernel, target, args):
        r = subprocess.run([self.pto_run, "--target", target, kernel] + args, capture_output=True, text=True)
        return r.returncode, r.stdout, r.stderr

    def report(self, name, ok, detail=""):
        print("%s ptoas/TPushTPop/%s%s" % ("PASS" if ok else "FAIL", name, "" if ok else ": " + detail))
        self.failed |= not ok

    def prints(self, name, sample, target, ins, want):
        """Runs a printing sample; `want` is the list of blocks expected, in pto-run's order."""
        args = []
        for k, v in ins.items():
            args += ["--in", "%s=%s" % (k, self.data("%s_%s.bin" % (name.replace("/", "_"), k), v))]
        rc, out, err = self.run(os.path.join(self.samples, sample, "kernel.pto"), target, args)
        if rc != 0:
            return self.report(name, False, "exit %d\n%s" % (rc, err[-2000:]))
        got = tprint_blocks(out)
        if len(got) != len(want):
            return self.report(name, False, "%d TPRINT blocks, expected %d" % (len(got), len(want)))
        for i, (g, w) in enumerate(zip(got, want)):
            if g.shape != w.shape or not np.array_equal(g, w):
                return self.report(name, False, "TPRINT block %d is\n%s\nexpected\n%s" % (i, g, w))
        self.report(name, True)

    def golden(self, name, kernel, target, ins, out_name, want, expect_match=True):
        args = ["--out", "%s=%s" % (out_name, os.path.join(self.tmp, name + "_out.bin"))]
        for k, v in ins.items():
            args += ["--in", "%s=%s" % (k, self.data("%s_%s.bin" % (name, k), v))]
        rc, out, err = self.run(kernel, target, args)
        if rc != 0:
            return self.report(name, False, "exit %d\n%s" % (rc, err[-2000:]))
        got = np.fromfile(os.path.join(self.tmp, name + "_out.bin"), np.float32).reshape(want.shape)
        match = bool(np.all(np.abs(got - want) <= 1e-5))  # main.cpp: |out - golden| > 1e-5 fails
        if match != expect_match:
            bad = np.argwhere(np.abs(got - want) > 1e-5)
            return self.report(name, False, "matches the golden: %s (expected %s); first mismatch %s" %
                               (match, expect_match, bad[0] if len(bad) else None))
        self.report(name, True)


def main():
    pto_run, samples = sys.argv[1], os.path.join(sys.argv[2], "TPushTPop")
    if not os.path.isdir(samples):
        print("SKIP ptoas/TPushTPop: no %s" % samples)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        r = Runner(pto_run, samples, tmp)
        eye = np.eye(16, dtype=np.float32)
        ones = np.ones((16, 16), np.float32)
        arange = np.arange(256, dtype=np.float32).reshape(16, 16)
        zeros = np.zeros((16, 16), np.float32)
        iters = np.concatenate([np.full((16, 16), i + 1, np.float32) for i in range(4)])  # main.cpp: iteration i holds i + 1

        # test1: A = I, B = ones; split up-down: each sub-block prints its 8x16 half, all 1.0
        r.prints("test1", "test1", "a5", {"gm_a": eye, "gm_b": ones}, [ones[:8], ones[8:]])
        # the same kernel with B = 0..255 tells the halves apart: sub-block s gets rows [8s, 8s + 8)
        r.prints("test1_halves", "test1", "a5", {"gm_a": eye, "gm_b": arange}, [arange[:8], arange[8:]])
        # test2: four iterations, B_i = i + 1: each sub-block prints its 8x16 half of each
        r.prints("test2", "test2", "a5", {"gm_a": eye, "gm_b_all": iters},
                 [np.full((8, 16), i + 1, np.float32) for i in range(4)] * 2)
        # test3: vector -> cube -> vector round trip of 0..255 (split 0: sub-block 1 prints zeros,
        # first, because sub-block 0 waits for the cube)
        r.prints("test3", "test3", "a5", {"gm_src": arange, "gm_identity": eye}, [zeros, arange])
        # a3/test1, a3/test2: split 0 (the A2/A3 pipe through gm_slot_buffer)
        slot = np.zeros(2048, np.float32)
        r.prints("a3/test1", "a3/test1", "a2a3", {"gm_a": eye, "gm_b": ones, "gm_slot_buffer": slot}, [ones, zeros])
        r.prints("a3/test2", "a3/test2", "a2a3", {"gm_a": eye, "gm_b_all": iters, "gm_slot_buffer": slot},
                 [np.full((16, 16), i + 1, np.float32) for i in range(4)] + [zeros] * 4)

        # test4: bf16 16x64 x 64x512 in four 128-column steps, split up-down, added to out = 1.0
        lhs = np.array([[((i * 17 + j * 29 + 3) % 7) - 3 for j in range(64)] for i in range(16)], np.float32)
        rhs = np.array([[((i * 13 + j * 19 + 5) % 9) - 4 for j in range(512)] for i in range(64)], np.float32)
        out = np.ones((16, 512), np.float32)
        want = (out + bf16_value(bf16_bits(lhs)) @ bf16_value(bf16_bits(rhs))).astype(np.float32)
        r.golden("test4", os.path.join(samples, "test4", "kernel.pto"), "a5",
                 {"gm_out": out, "gm_lhs": bf16_bits(lhs), "gm_rhs": bf16_bits(rhs)}, "gm_out", want)

        # test5: f32 16x64 x 64x128, split left-right, added to out = 1.0
        lhs = np.array([[((i * 17 + j * 29 + 3) % 11) - 5 for j in range(64)] for i in range(16)], np.float32)
        rhs = np.array([[((i * 13 + j * 19 + 7) % 13) - 6 for j in range(128)] for i in range(64)], np.float32)
        out = np.ones((16, 128), np.float32)
        want = (out + lhs @ rhs).astype(np.float32)
        ins = {"gm_out": out, "gm_lhs": lhs, "gm_rhs": rhs}
        kernel = os.path.join(samples, "test5", "kernel.pto")
        r.golden("test5_as_written_clobbers_lhs", kernel, "a5", ins, "gm_out", want, expect_match=False)
        with open(kernel) as f:
            text = f.read()
        fixed = text.replace("%lhs_mat = pto.alloc_tile addr = %c16384_i64", "%lhs_mat = pto.alloc_tile addr = %c32768_i64")
        fixed = fixed.replace("%c16384_i64 = arith.constant 16384 : i64",
                              "%c16384_i64 = arith.constant 16384 : i64\n    %c32768_i64 = arith.constant 32768 : i64")
        if fixed == text:
            r.report("test5_lhs_moved", False, "the sample's text changed: lhs_mat's placement was not found")
        else:
            path = os.path.join(tmp, "test5_lhs_moved.pto")
            with open(path, "w") as f:
                f.write(fixed)
            r.golden("test5_lhs_moved", path, "a5", ins, "gm_out", want)
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
