# Data movement (ir/ops_move.def): TEXTRACT, TINSERT, TCONCAT (vec -> vec) and TRESHAPE, against the
# simulator's TExtract.hpp, TInsert.hpp, TConcat.hpp and TReshape.hpp. Every tile is dumped whole, so
# what the op leaves (or writes) outside dst's valid region is compared too.
#
# TEXTRACT and TINSERT vec -> vec exist on A5 only (PTOAS: A2/A3 has only the cube forms) and need ND
# (row-major none_box) tiles. TCONCAT runs on both targets; A2/A3 also takes col-major tiles.
# Shapes: the ISA's CPU tests (tconcat's case table; tinsert's Vec_Vec 32x32 / 128x96 with an 8x16
# source; textract's 128x96 source with valid 125x93 at offset (8, 16)) plus valid regions, one row,
# one valid column and tall-thin tiles, bf16 (built with clang, tests/sim/README.md); float data carries NaN payloads, infinities, -0 and subnormals.


def cases(T, case):
    out = []
    I = lambda v: ("s", v, "index")

    # ---- TEXTRACT: dst(r, c) = src(r + r0, c + c0) over dst's valid region ----------------------------
    def textract(name, src, dst, r0, c0):
        out.append(case(name, "textract", {"s": src, "d": dst}, ["s", I(r0), I(c0)], ["d"],
                        "TEXTRACT(d, s, %d, %d);" % (r0, c0), target="a5"))

    textract("textract_f32_128x96_v125x93_idx_8_16", T("f32", 128, 96, valid=(125, 93), data="special"),
             T("f32", 64, 64), 8, 16)
    textract("textract_f16_32x64_to_v13x27_idx_5_7", T("f16", 32, 64, data="special"), T("f16", 16, 32, valid=(13, 27)), 5, 7)
    textract("textract_f32_src_valid_past_read", T("f32", 32, 32, valid=(10, 10), data="special"),
             T("f32", 16, 16), 4, 9)
    textract("textract_i8_1x64_row_idx_0_32", T("i8", 1, 64), T("i8", 1, 32), 0, 32)
    textract("textract_ui8_8x128_idx_7_64", T("ui8", 8, 128), T("ui8", 1, 64), 7, 64)
    textract("textract_f32_one_valid_col_idx_3_8", T("f32", 32, 16, data="special"), T("f32", 16, 8, valid=(16, 1)), 3, 8)
    textract("textract_f32_tall_256x8_idx_100_0", T("f32", 256, 8, data="special"), T("f32", 64, 8), 100, 0)
    textract("textract_bf16_32x64_to_v9x20_idx_3_16", T("bf16", 32, 64, data="special"), T("bf16", 16, 32, valid=(9, 20)), 3, 16)
    textract("textract_f16_idx_0_0_full", T("f16", 16, 64, data="special"), T("f16", 16, 64), 0, 0)

    # ---- TINSERT: dst(r + r0, c + c0) = src(r, c) over src's valid region; the rest of dst stays ---------
    def tinsert(name, src, dst, r0, c0):
        out.append(case(name, "tinsert", {"s": src, "d": dst}, ["s", I(r0), I(c0)], ["d"],
                        "TINSERT(d, s, %d, %d);" % (r0, c0), target="a5"))

    tinsert("tinsert_f16_8x16_into_32x32_idx_0_0", T("f16", 8, 16, data="special"), T("f16", 32, 32), 0, 0)
    tinsert("tinsert_f16_8x16_into_32x32_idx_5_9", T("f16", 8, 16, data="special"), T("f16", 32, 32), 5, 9)
    tinsert("tinsert_f32_8x16_into_128x96_idx_100_72", T("f32", 8, 16, data="special"), T("f32", 128, 96), 100, 72)
    tinsert("tinsert_i32_v6x13_past_dst_valid", T("i32", 8, 16, valid=(6, 13)), T("i32", 16, 32, valid=(10, 20)), 4, 10)
    tinsert("tinsert_i8_1x32_into_4x64_idx_3_32", T("i8", 1, 32), T("i8", 4, 64), 3, 32)
    tinsert("tinsert_ui32_one_col_tall_idx_10_7", T("ui32", 64, 8, valid=(64, 1)), T("ui32", 128, 8), 10, 7)
    tinsert("tinsert_bf16_v7x11_into_32x32_idx_20_17", T("bf16", 8, 16, valid=(7, 11), data="special"), T("bf16", 32, 32), 20, 17)
    tinsert("tinsert_f32_16x16_into_16x16_idx_0_0", T("f32", 16, 16, data="special"), T("f32", 16, 16), 0, 0)

    # ---- TCONCAT: per dst valid row, src0's valid columns then src1's ------------------------------------
    def tconcat(name, a, b, d, target="a2a3"):
        out.append(case(name, "tconcat", {"a": a, "b": b, "d": d}, ["a", "b"], ["d"], "TCONCAT(d, a, b);", target=target))

    for dt, r, c in (("f32", 64, 64), ("i32", 64, 64), ("f16", 16, 128), ("f32", 16, 32), ("i16", 32, 128)):
        data = "special" if dt[0] == "f" else "rand"
        tconcat("tconcat_%s_%dx%d_%dx%d" % (dt, r, 2 * c, r, c), T(dt, r, c, data=data), T(dt, r, c, data=data),
                T(dt, r, 2 * c))
    for dt, r, c in (("f16", 16, 64), ("f32", 16, 32), ("i16", 32, 128)):
        data = "special" if dt[0] == "f" else "rand"
        tconcat("tconcat_%s_%dx%d_src0_v%d" % (dt, r, 2 * c, c - 1), T(dt, r, c, valid=(r, c - 1), data=data),
                T(dt, r, c, data=data), T(dt, r, 2 * c, valid=(r, 2 * c - 1)))
    tconcat("tconcat_bf16_16x128_src1_v50", T("bf16", 16, 64, data="special"), T("bf16", 16, 64, valid=(16, 50), data="special"),
            T("bf16", 16, 128, valid=(16, 114)))
    tconcat("tconcat_f32_a5_16x64", T("f32", 16, 32, data="special"), T("f32", 16, 32, data="special"),
            T("f32", 16, 64), target="a5")
    tconcat("tconcat_f32_past_dst_valid_cols", T("f32", 8, 32, valid=(8, 30), data="special"),
            T("f32", 8, 32, valid=(8, 20), data="special"), T("f32", 8, 64, valid=(8, 40)))
    tconcat("tconcat_f32_narrow_into_wide", T("f32", 5, 8, valid=(5, 3), data="special"),
            T("f32", 5, 16, valid=(5, 9), data="special"), T("f32", 5, 32, valid=(5, 12)))
    tconcat("tconcat_f32_col_major_tall", T("f32", 64, 4, valid=(40, 3), col_major=True, data="special"),
            T("f32", 64, 4, valid=(40, 1), col_major=True, data="special"), T("f32", 64, 8, valid=(40, 4), col_major=True))
    tconcat("tconcat_i8_1_row_a5", T("i8", 1, 64), T("i8", 1, 32), T("i8", 1, 128), target="a5")
    tconcat("tconcat_i8_one_col_each", T("i8", 4, 32, valid=(4, 1)), T("i8", 4, 32, valid=(4, 1)), T("i8", 4, 32, valid=(4, 2)))

    # ---- TRESHAPE: a view of src's bytes (no copy), read here by a second op -----------------------------
    def treshape(name, src, view, dst, then, then_cpp, target="a2a3"):
        line = ("%v = pto.treshape {ins} : {in_types} -> " + view.pto() + "\n" + then.replace("{v}", "%v").replace("{vt}", view.pto()))
        out.append(case(name, "treshape", {"s": src, "d": dst}, ["s"], ["d"],
                        "%s v(%d, %d); TRESHAPE(v, s); %s" % (view.cpp(), view.vr, view.vc, then_cpp), target=target,
                        line=line))

    concat = "pto.tconcat ins({v}, {v} : {vt}, {vt}) outs({outs} : {out_types})"
    treshape("treshape_i32_8x32_as_i16_16x32_v12x20_tconcat", T("i32", 8, 32), T("i16", 16, 32, valid=(12, 20)),
             T("i16", 16, 64, valid=(12, 40)), concat, "TCONCAT(d, v, v);")
    treshape("treshape_f32_8x16_as_16x8_v16x5_tconcat", T("f32", 8, 16, data="special"), T("f32", 16, 8, valid=(16, 5)),
             T("f32", 16, 16, valid=(16, 10)), concat, "TCONCAT(d, v, v);")
    treshape("treshape_f32_16x1_dn_as_1x16_textract_a5", T("f32", 16, 1, col_major=True, data="special"), T("f32", 1, 16),
             T("f32", 1, 8), "%c8 = arith.constant 8 : index\n%c0 = arith.constant 0 : index\n"
             "pto.textract ins({v}, %c0, %c8 : {vt}, index, index) outs({outs} : {out_types})", "TEXTRACT(d, v, 0, 8);",
             target="a5")
    return out
