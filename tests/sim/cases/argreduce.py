# Arg reductions (ir/ops_reduce.def ROW_/COL_ARGREDUCE_OP): TROWARGMAX, TROWARGMIN, TCOLARGMAX,
# TCOLARGMIN into i32 or ui32 index tiles. Shapes after pto-isa's CPU ST targreduceop (f32 64x64 ->
# ui32, f16 16x256 -> i32, f32 16x16 valid in a 32x32 src with a 64x64 dst), plus valid regions,
# one row, one column, tall and thin, DN (col_major) dsts, ties (small integers) and specials
# (NaN, +-inf, +-0) on every float shape. Every output tile is compared whole: the simulator writes
# only column 0 of the src's valid rows (row forms) or row 0 of its valid cols (column forms).
# The "values" cases cycle 11 values (ties, +-0, a NaN) over 16-wide rows, so the NaN falls at index 0
# of some rows (columns) and later in others. tests/unit/test_argreduce.c pins the same by hand.
# No bf16: PTOAS (and so pto-as) rejects it for these ops, though the simulator would take it.

TIES = [float("nan"), 2.0, -1.0, 2.0, -0.0, 0.0, -1.0, 5.0, 5.0, -3.0, -3.0]

ROW = (("trowargmax", "TROWARGMAX"), ("trowargmin", "TROWARGMIN"))
COL = (("tcolargmax", "TCOLARGMAX"), ("tcolargmin", "TCOLARGMIN"))


def cases(T, case):
    out = []

    def row(name, op, C, dt, r, c, valid=None, idx="i32", dst_cols=1, col_major=False, data="special", target="a2a3"):
        vr, vc = valid or (r, c)
        tl = {"a": T(dt, r, c, valid, data=data), "tmp": T(dt, r, c, valid),
              "d": T(idx, r, dst_cols, (vr, 1), col_major=col_major)}
        out.append(case("%s_%s" % (op, name), op, tl, ["a", "tmp"], ["d"], "%s(d, a, tmp);" % C, target))

    def col(name, op, C, dt, r, c, valid=None, idx="i32", dst_rows=1, dst_cols=None, data="special", target="a2a3"):
        vr, vc = valid or (r, c)
        tl = {"a": T(dt, r, c, valid, data=data), "tmp": T(dt, r, c, valid),
              "d": T(idx, dst_rows, dst_cols or c, (1, vc))}
        out.append(case("%s_%s" % (op, name), op, tl, ["a", "tmp"], ["d"], "%s(d, a, tmp);" % C, target))

    for op, C in ROW:
        # the ISA's targreduceop shapes
        row("f32_ui32_64x64", op, C, "f32", 64, 64, idx="ui32", dst_cols=64)
        row("f16_i32_16x256", op, C, "f16", 16, 256, dst_cols=256)
        row("f32_ui32_16x16_in_32x32_dst_64x64", op, C, "f32", 32, 32, (16, 16), idx="ui32", dst_cols=64, data="rand")
        # valid regions, DN dst, degenerate and tall shapes, NaN-dense rows
        row("f32_valid_29x50_dn", op, C, "f32", 32, 64, (29, 50), col_major=True)
        row("f16_valid_13x200_dn_a5", op, C, "f16", 16, 256, (13, 200), col_major=True, target="a5")
        row("f32_1x64", op, C, "f32", 1, 64, dst_cols=8)
        row("f32_32x1_in_32x8", op, C, "f32", 32, 8, (32, 1), col_major=True)
        row("f32_256x8_tall", op, C, "f32", 256, 8, col_major=True)
        row("f32_32x4_in_32x8_nan", op, C, "f32", 32, 8, (32, 4), idx="ui32", col_major=True)
        row("f16_64x16_nan", op, C, "f16", 64, 16, col_major=True)
        # integers: ties everywhere with small values, full range otherwise
        row("i16_16x64_ties", op, C, "i16", 16, 64, col_major=True, data="small")
        row("i32_16x64_ties", op, C, "i32", 16, 64, (15, 60), idx="ui32", col_major=True, data="small")
        row("ui16_16x64", op, C, "ui16", 16, 64, col_major=True, data="rand")
        row("ui32_16x64_ties_a5", op, C, "ui32", 16, 64, col_major=True, data="small", target="a5")
        row("i32_8x128", op, C, "i32", 8, 128, dst_cols=8, data="rand")
        row("f32_16x16_ties_nan_values", op, C, "f32", 16, 16, col_major=True, data=("values", TIES))
        row("f16_16x16_ties_nan_values", op, C, "f16", 16, 16, idx="ui32", dst_cols=8, data=("values", TIES))
    for op, C in COL:
        col("f32_ui32_64x64", op, C, "f32", 64, 64, idx="ui32", dst_rows=64)
        col("f16_i32_16x256", op, C, "f16", 16, 256, dst_rows=16)
        col("f32_ui32_16x16_in_32x32_dst_64x64", op, C, "f32", 32, 32, (16, 16), idx="ui32", dst_rows=64, dst_cols=64,
            data="rand")
        col("f32_valid_29x50", op, C, "f32", 32, 64, (29, 50))
        col("f16_valid_13x200_a5", op, C, "f16", 16, 256, (13, 200), target="a5")
        col("f32_1x64", op, C, "f32", 1, 64)
        col("f32_32x1_in_32x8", op, C, "f32", 32, 8, (32, 1))
        col("f32_256x8_tall", op, C, "f32", 256, 8)
        col("f16_4x64_nan", op, C, "f16", 4, 64, idx="ui32")
        col("f32_3x1096_wide", op, C, "f32", 3, 1096, data="small")
        col("f32_16x16_ties_nan_values", op, C, "f32", 16, 16, data=("values", TIES))
        col("f16_16x16_ties_nan_values", op, C, "f16", 16, 16, idx="ui32", data=("values", TIES))
    return out
