# The MX (microscaling) matmul on A5 (ir/ops_cube.def MX_MATMUL_OP): TMATMUL_MX, its .acc and .bias
# forms and TGEMV_MX*, as pto-isa's TMatmulMX computes them: each term (a * b) * (sa * sb) in double,
# the k chain a float rounded after every term. Tiles in PTOAS's shapes (a scale tile has its
# operand's shape and valid shape; the simulator reads scale(i, k / 32) and scale(k / 32, j) of it):
# lhs Nz, rhs Zn, dst Nz, scales row-major. The operands are random bytes, so every encoding shows,
# the all-ones exponents (e4m3 0x7F = 480, e5m2 0x7C = 65536: pto-isa decodes no NaN or infinity)
# and the subnormals included. Scales: e8m0 bytes near the bias, plus edge cases where the
# simulator reads them: 0x00 (2^-127), 0xFF (2^128: the float chain overflows to +-inf and stays
# there, as a term in double is never infinite), 0x7F (1.0), 0xFE, 0x01, 0x80. NaN comes only from
# acc_in (the .acc case's holds NaNs with payloads, infinities and -0). Shapes after the ISA's CPU
# test case8 (16x64 by 64x32, valid m, k, n = 16, 32, 16) and case9 (valid 10, 50, 54,
# here n = 30: pto-as's A5 scaling buffer holds 4 KiB), sized to fit the scaling buffer.

import numpy as np


def cases(T, case):
    def left(dt, r, c, valid=None):
        return T(dt, r, c, valid, col_major=True, loc="left", slayout="row_major")

    def right(dt, r, c, valid=None):
        return T(dt, r, c, valid, loc="right", slayout="col_major")

    def acc(r, c, valid=None, data="rand"):
        return T("f32", r, c, valid, col_major=True, loc="acc", slayout="row_major", fractal=1024, data=data)

    def scale(r, c, valid=None, seed=0, edges=()):
        """e8m0 scales near 1 (2^-7 .. 2^7); edges: (row, col, byte) placed where TMatmulMX reads
        (lhs_scale(i, k / 32), rhs_scale(k / 32, j))."""
        rng = np.random.default_rng(seed)
        v = [int(x) for x in rng.integers(120, 135, r * c)]
        for er, ec, b in edges:
            v[er * c + ec] = b
        return T("f8E8M0FNU", r, c, valid, loc="scaling", data=("values", v))

    out = []
    forms = (("tmatmul.mx", "TMATMUL_MX(d, a, sa, b, sb);", ["a", "sa", "b", "sb"]),
             ("tmatmul.mx.acc", "TMATMUL_MX(d, d, a, sa, b, sb);", ["d", "a", "sa", "b", "sb"]),
             ("tmatmul.mx.bias", "TMATMUL_MX(d, a, sa, b, sb, z);", ["a", "sa", "b", "sb", "z"]))
    for at, bt in (("f8E4M3FN", "f8E4M3FN"), ("f8E5M2", "f8E4M3"), ("f8E4M3", "f8E5M2")):
        for op, cpp, ins in forms:
            tl = dict(a=left(at, 16, 64, (16, 32)), sa=scale(16, 64, (16, 32), seed=1),
                      b=right(bt, 64, 32, (32, 16)), sb=scale(64, 32, (32, 16), seed=2), d=acc(16, 32, (16, 16)))
            if op.endswith("bias"):
                tl["z"] = T("f32", 1, 32, (1, 16), loc="bias")
            name = "%s_%s_%s_16x32x16_a5" % (op.replace(".", "_"), at, bt)
            out.append(case(name, op, tl, ins, ["d"], cpp, "a5",
                            desc="%s %s x %s, the ISA's case8 shape: valid m, k, n = 16, 32, 16" % (op.upper(), at, bt)))
    # case9's valid region (k = 50 across two scale groups), e4m3 x e4m3; the .acc form in place
    out.append(case("tmatmul_mx_f8E4M3FN_10x50x30_a5", "tmatmul.mx",
                    dict(a=left("f8E4M3FN", 16, 64, (10, 50)), sa=scale(16, 64, (10, 50), seed=3),
                         b=right("f8E4M3FN", 64, 32, (50, 30)), sb=scale(64, 32, (50, 30), seed=4), d=acc(16, 32, (10, 30))),
                    ["a", "sa", "b", "sb"], ["d"], "TMATMUL_MX(d, a, sa, b, sb);", "a5",
                    desc="TMATMUL_MX valid m, k, n = 10, 50, 30: k / 32 picks the second scale group from k = 32"))
    out.append(case("tmatmul_mx_acc_f8E5M2_10x50x30_a5", "tmatmul.mx.acc",
                    dict(a=left("f8E5M2", 16, 64, (10, 50)), sa=scale(16, 64, (10, 50), seed=5),
                         b=right("f8E5M2", 64, 32, (50, 30)), sb=scale(64, 32, (50, 30), seed=6),
                         d=acc(16, 32, (10, 30), data="special")),
                    ["d", "a", "sa", "b", "sb"], ["d"], "TMATMUL_MX(d, d, a, sa, b, sb);", "a5",
                    desc="TMATMUL_MX .acc in place: d = d + the float chain; acc_in holds NaNs, infinities, -0"))
    # scale edge cases: 2^-127, 2^128 (overflow to inf, NaN from inf - inf), 1.0 among random scales
    out.append(case("tmatmul_mx_f8E4M3FN_scale_edges_a5", "tmatmul.mx",
                    dict(a=left("f8E4M3FN", 16, 64),
                         sa=scale(16, 64, seed=7, edges=[(0, 0, 0xFF), (1, 1, 0xFF), (2, 0, 0x00), (3, 1, 0x00),
                                                         (4, 0, 0x7F), (5, 1, 0xFE), (6, 0, 0x01), (7, 1, 0x80)]),
                         b=right("f8E5M2", 64, 32),
                         sb=scale(64, 32, seed=8, edges=[(0, 3, 0xFF), (1, 4, 0xFF), (0, 5, 0x00), (1, 6, 0x7F),
                                                         (0, 0, 0xFF)]),
                         d=acc(16, 32)),
                    ["a", "sa", "b", "sb"], ["d"], "TMATMUL_MX(d, a, sa, b, sb);", "a5",
                    desc="TMATMUL_MX with e8m0 scales 0x00 (2^-127), 0xFF (2^128), 0x7F (1.0): infinite results"))
    # scale tiles of the other types PTOAS accepts and pto-run multiplies as the emitted C++ does
    # (PTOAS's own MX tests use f16 scales): f16 and bf16 products rounded to the type, i8 / ui8
    # products in int; 16x64 by 64x16 so that two 2-byte scale tiles fit the 4 KiB scaling buffer
    def f16_edges(r, c, lhs, seed):
        """f16 scales near 1 with NaN, +-inf, +-0, 65504 and a subnormal where TMatmulMX reads them
        (lhs: column 0 or 1 of each row; rhs: rows 0 and 1)."""
        rng = np.random.default_rng(seed)
        v = [float(x) for x in rng.uniform(-4.0, 4.0, r * c)]
        sp = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 65504.0, 6e-8, -2.0]
        at = [(i, i % 2) for i in range(len(sp))] if lhs else [(i % 2, 2 * i + 1) for i in range(len(sp))]
        for (er, ec), x in zip(at, sp):
            v[er * c + ec] = x
        return ("values", v)

    for sdt, kind in (("f16", "rand"), ("f16", "special"), ("bf16", "rand"), ("i8", "small"), ("ui8", "rand")):
        out.append(case("tmatmul_mx_f8E4M3FN_f8E5M2_%s_%s_scales_a5" % (sdt, kind), "tmatmul.mx",
                        dict(a=left("f8E4M3FN", 16, 64),
                             sa=T(sdt, 16, 64, loc="scaling", data=f16_edges(16, 64, True, 11) if kind == "special" else kind),
                             b=right("f8E5M2", 64, 16),
                             sb=T(sdt, 64, 16, loc="scaling", col_major=sdt in ("i8", "ui8"),
                                  data=f16_edges(64, 16, False, 12) if kind == "special" else kind),
                             d=acc(16, 16)),
                        ["a", "sa", "b", "sb"], ["d"], "TMATMUL_MX(d, a, sa, b, sb);", "a5",
                        desc="TMATMUL_MX with %s scale tiles (%s data): the C++ type's own product" % (sdt, kind),
                        # d(0, 3): the chain is +NaN (a NaN scale at k = 0) when k = 63 adds 0 * -inf,
                        # the default -NaN; x86 keeps the first operand's NaN, and which of the two
                        # `mul_acc += term` puts first is the compiler's choice (g++: the chain,
                        # clang++-19: the term). pto-run pins the C++ order (ops_cube.c).
                        compiler_dependent="two NaNs of opposite signs meet in the chain's `+`" if kind == "special" else ""))
    # TMOV mat (Nz) -> left / right of fp8 bytes (the MX operands' way into L0A / L0B): a copy
    out.append(case("tmov_mat_left_f8E4M3FN_32x64_a5", "tmov",
                    dict(m=T("f8E4M3FN", 32, 64, (20, 50), col_major=True, loc="mat", slayout="row_major"),
                         a=left("f8E4M3FN", 32, 64, (20, 50))),
                    ["m"], ["a"], "TMOV(a, m);", "a5", desc="TMOV mat (Nz) -> left f8E4M3FN, a 20x50 valid region"))
    out.append(case("tmov_mat_right_f8E5M2_64x32_a5", "tmov",
                    dict(m=T("f8E5M2", 64, 32, col_major=True, loc="mat", slayout="row_major"), b=right("f8E5M2", 64, 32)),
                    ["m"], ["b"], "TMOV(b, m);", "a5", desc="TMOV mat (Nz) -> right (Zn) f8E5M2"))
    # TGEMV_MX: one valid lhs row (the simulator forwards to TMATMUL_MX)
    for op, cpp, ins in (("tgemv.mx", "TGEMV_MX(d, a, sa, b, sb);", ["a", "sa", "b", "sb"]),
                         ("tgemv.mx.acc", "TGEMV_MX(d, d, a, sa, b, sb);", ["d", "a", "sa", "b", "sb"]),
                         ("tgemv.mx.bias", "TGEMV_MX(d, a, sa, b, sb, z);", ["a", "sa", "b", "sb", "z"])):
        tl = dict(a=left("f8E4M3", 16, 64, (1, 64)), sa=scale(16, 64, (1, 64), seed=9),
                  b=right("f8E5M2", 64, 32), sb=scale(64, 32, seed=10), d=acc(16, 32, (1, 32)))
        if op.endswith("bias"):
            tl["z"] = T("f32", 1, 32, loc="bias")
        out.append(case("%s_f8E4M3_f8E5M2_1x64x32_a5" % op.replace(".", "_"), op, tl, ins, ["d"], cpp, "a5",
                        desc="%s: one valid lhs row, k = 64 over two scale groups" % op.upper()))
    return out
