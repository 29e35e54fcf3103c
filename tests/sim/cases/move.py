# Data movement (ir/ops_move.def): TEXTRACT, TINSERT, TCONCAT (vec -> vec) and TRESHAPE, against the
# simulator's TExtract.hpp, TInsert.hpp, TConcat.hpp and TReshape.hpp; and the 8-bit floats in the
# movers PTOAS lets them through (TEXTRACT / TINSERT on A5, the cube forms and the fp forms, TFILLPAD). Every tile is dumped whole, so
# what the op leaves (or writes) outside dst's valid region is compared too.
#
# TEXTRACT and TINSERT vec -> vec exist on A5 only (PTOAS: A2/A3 has only the cube forms) and need ND
# (row-major none_box) tiles. TCONCAT runs on both targets; A2/A3 also takes col-major tiles.
# Shapes: the ISA's CPU tests (tconcat's case table; tinsert's Vec_Vec 32x32 / 128x96 with an 8x16
# source; textract's 128x96 source with valid 125x93 at offset (8, 16)) plus valid regions, one row,
# one valid column and tall-thin tiles, bf16 (built with clang, tests/sim/README.md); float data carries NaN payloads, infinities, -0 and subnormals.


# f32 values at the edges of the 8-bit floats' conversion (pto-isa's MXType(double)); below the normal
# range its mantissa shift passes 63 bits, undefined in C++: g++ and clang build that differently
EDGE_UB = "MXType(double) shifts a uint64_t by 64 or more for tiny values (g++: count mod 64, no mask)"
EDGES = [1.5 * 2.0 ** -72, 2.0 ** -71, 1.75 * 2.0 ** -70, 1.25 * 2.0 ** -73, 1.5 * 2.0 ** -80, 1.75 * 2.0 ** -79,
         2.0 ** -78, 1.25 * 2.0 ** -81, 1e-40, -3e-39, 2.0 ** -9, 1.875 * 2.0 ** -7, 2.0 ** -6, 2.0 ** -15, 2.0 ** -16,
         1.5 * 2.0 ** -17, 448.0, 480.0, 500.0, -464.0, 57344.0, 61440.0, 65536.0, 1e6, -1e9, 3.4e38, float("inf"),
         float("-inf"), float("nan"), -0.0, 0.0, 1.0, -1.0, 0.1, -7.3, 1.0 + 2.0 ** -4]


def cases(T, case, G):
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
    # the 8-bit floats (A5): random bytes, so every encoding (NaN, infinity, -0 patterns) moves as it is
    textract("textract_f8E4M3FN_128x96_v125x93_idx_8_16", T("f8E4M3FN", 128, 96, valid=(125, 93)), T("f8E4M3FN", 64, 64), 8, 16)
    textract("textract_f8E5M2_32x64_to_v13x27_idx_5_7", T("f8E5M2", 32, 64), T("f8E5M2", 16, 32, valid=(13, 27)), 5, 7)
    textract("textract_f8E8M0FNU_1x64_row_idx_0_32", T("f8E8M0FNU", 1, 64), T("f8E8M0FNU", 1, 32), 0, 32)
    textract("textract_f8E4M3FNUZ_src_valid_past_read", T("f8E4M3FNUZ", 32, 64, valid=(10, 10)), T("f8E4M3FNUZ", 16, 32), 4, 9)

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
    tinsert("tinsert_f8E4M3FN_8x32_into_32x64_idx_5_9", T("f8E4M3FN", 8, 32), T("f8E4M3FN", 32, 64), 5, 9)
    tinsert("tinsert_f8E5M2_v7x11_into_32x32_idx_20_17", T("f8E5M2", 8, 32, valid=(7, 11)), T("f8E5M2", 32, 32), 20, 17)
    tinsert("tinsert_f8E8M0FNU_8x32_into_128x96_idx_100_64", T("f8E8M0FNU", 8, 32), T("f8E8M0FNU", 128, 96), 100, 64)
    tinsert("tinsert_f8E5M2FNUZ_v6x13_past_dst_valid", T("f8E5M2FNUZ", 8, 32, valid=(6, 13)),
            T("f8E5M2FNUZ", 16, 32, valid=(10, 20)), 4, 10)

    # ---- the 8-bit floats between cube tiles (A5): TEXTRACT mat (Nz) -> left (Nz) / right (Zn) /
    # scaling, TINSERT vec (ND) -> mat (Nz), bytes as they are; and the fp forms acc f32 -> mat fp8,
    # which the simulator runs without a quantisation mode (GetVectorPreQuantMode has none for an
    # 8-bit float dst: the word is read and ignored), each value through MXType(double): mantissa
    # truncated, exponent rebiased modulo 2^E (no saturation), tiny values shifted out
    def mat(dt, r, c, valid=None, data="rand"):
        return T(dt, r, c, valid, col_major=True, loc="mat", slayout="row_major", data=data)

    def left(dt, r, c, valid=None):
        return T(dt, r, c, valid, col_major=True, loc="left", slayout="row_major")

    def right(dt, r, c, valid=None):
        return T(dt, r, c, valid, loc="right", slayout="col_major")

    out.append(case("textract_mat_left_f8E4M3FN_64x128_at_32_64_a5", "textract",
                    dict(m=mat("f8E4M3FN", 64, 128), a=left("f8E4M3FN", 32, 64)),
                    ["m", I(32), I(64)], ["a"], "TEXTRACT(a, m, 32, 64);", target="a5",
                    desc="TEXTRACT mat -> left f8E4M3FN at (32, 64): bytes as they are"))
    out.append(case("textract_mat_right_f8E5M2_64x64_at_32_32_a5", "textract",
                    dict(m=mat("f8E5M2", 64, 64), b=right("f8E5M2", 32, 32)),
                    ["m", I(32), I(32)], ["b"], "TEXTRACT(b, m, 32, 32);", target="a5",
                    desc="TEXTRACT mat (Nz) -> right (Zn) f8E5M2 at (32, 32)"))
    out.append(case("textract_mat_scaling_f8E8M0FNU_32x64_at_16_32_a5", "textract",
                    dict(m=mat("f8E8M0FNU", 32, 64), q=T("f8E8M0FNU", 16, 32, loc="scaling")),
                    ["m", I(16), I(32)], ["q"], "TEXTRACT(q, m, 16, 32);", target="a5",
                    desc="TEXTRACT mat (Nz) -> scaling f8E8M0FNU at (16, 32): MX scales as bytes"))
    out.append(case("tinsert_vec_mat_f8E4M3FN_v13x27_at_16_32_a5", "tinsert",
                    dict(s=T("f8E4M3FN", 16, 32, valid=(13, 27)), m=mat("f8E4M3FN", 64, 64)),
                    ["s", I(16), I(32)], ["m"], "TINSERT(m, s, 16, 32);", target="a5",
                    desc="TINSERT vec (ND) -> mat (Nz) f8E4M3FN, src valid 13x27 at (16, 32): the rest of mat stays"))

    def acc(r, c, valid=None, data="special"):
        return T("f32", r, c, valid, col_major=True, loc="acc", slayout="row_major", fractal=1024, data=data)

    def words(n):
        return T("ui64", 1, n, loc="scaling", data=("values", [0x3F800000 + 0x1000 * i for i in range(n)]))

    for opn, C, dd, data, sh, dsh, idx in (
            ("textract_fp", "TEXTRACT_FP", "f8E4M3FN", "special", (32, 64), (16, 32), (16, 32)),
            ("textract_fp", "TEXTRACT_FP", "f8E5M2", ("range", -70000.0, 70000.0), (32, 64), (32, 32), (0, 32)),
            ("tinsert_fp", "TINSERT_FP", "f8E8M0FNU", "special", (16, 32), (32, 64), (16, 32)),
            ("tinsert_fp", "TINSERT_FP", "f8E4M3", ("range", -600.0, 600.0), (16, 32), (32, 64), (0, 0)),
            ("tmov.fp", "TMOV_FP", "f8E5M2FNUZ", "special", (32, 32), (32, 32), None),
            # edges: below the normal range the mantissa shift count passes 63 (x86 takes it modulo 64),
            # the largest normals, values past them (the exponent wraps), infinities, NaN, -0
            ("textract_fp", "TEXTRACT_FP", "f8E4M3FN", ("values", EDGES), (32, 32), (16, 32), (16, 0)),
            ("textract_fp", "TEXTRACT_FP", "f8E5M2", ("values", EDGES), (32, 32), (16, 32), (0, 0))):
        src = acc(sh[0], sh[1], data=data)
        m = mat(dd, dsh[0], dsh[1], data="zero")
        ins = ["c", "q"] + ([I(idx[0]), I(idx[1])] if idx else [])
        call = "%s(m, c, q%s);" % (C, ", %d, %d" % idx if idx else "")
        name = "%s_f32_%s%s_a5" % (opn.replace(".", "_"), dd, "_at_%d_%d" % idx if idx else "")
        out.append(case(name, opn, dict(c=src, q=words(sh[1]), m=m), ins, ["m"], call, target="a5",
                        desc="%s acc f32 -> mat %s: MXType(double) of each value, the word ignored" % (C, dd),
                        compiler_dependent=EDGE_UB if data == ("values", EDGES) else ""))

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

    # TSTORE_FP acc f32 -> GM fp8 (PTOAS checks no GM element type): the same conversion, StoreElement's
    # ConvertStoreValue without a mode, a word per row read and ignored
    for dd, target, data in (("f8E4M3FN", "a5", ("values", EDGES)), ("f8E5M2", "a2a3", "special")):
        out.append(case("tstore_fp_f32_%s_20x40_%s" % (dd, target), "tstore_fp",
                        dict(c=acc(32, 48, (20, 40), data=data), q=words(24)), ["c", "q"], ["g"],
                        "TSTORE_FP<decltype(c), decltype(g), decltype(q), AtomicType::AtomicNone, ReluPreMode::NoRelu>(g, c, q);",
                        target=target, gm=dict(g=G(dd, 20, 40)),
                        desc="TSTORE_FP acc f32 -> GM %s: MXType(double) of each value, the words ignored" % dd,
                        compiler_dependent=EDGE_UB if data == ("values", EDGES) else ""))

    # ---- TFILLPAD of the 8-bit floats (PTOAS: by element size, both targets): src's bytes inside its
    # valid region, and the pad byte 0x00 outside whatever the pad kind (pto-isa's numeric_limits of its
    # MXType: no infinity, max() and min() of 0)
    out.append(case("tfillpad_f8E4M3FN_max_v20x47", "tfillpad",
                    {"a": T("f8E4M3FN", 32, 64, (20, 47)), "d": T("f8E4M3FN", 32, 64, pad=2)}, ["a"], ["d"],
                    "TFILLPAD(d, a);", desc="TFILLPAD f8E4M3FN pad max: 0x00 outside src's valid 20x47"))
    out.append(case("tfillpad_f8E5M2_min_v7x33_a5", "tfillpad",
                    {"a": T("f8E5M2", 16, 64, (7, 33)), "d": T("f8E5M2", 16, 64, pad=3)}, ["a"], ["d"],
                    "TFILLPAD(d, a);", target="a5", desc="TFILLPAD f8E5M2 pad min (A5): 0x00 outside src's valid 7x33"))
    out.append(case("tfillpad_expand_f8E8M0FNU_max", "tfillpad_expand",
                    {"a": T("f8E8M0FNU", 16, 32, (16, 30)), "d": T("f8E8M0FNU", 32, 64, pad=2)}, ["a"], ["d"],
                    "TFILLPAD_EXPAND(d, a);", desc="TFILLPAD_EXPAND f8E8M0FNU 16x32 (valid 16x30) into 32x64, pad max"))
    out.append(case("tfillpad_inplace_f8E4M3_zero_a5", "tfillpad_inplace",
                    {"a": T("f8E4M3", 32, 64, (10, 40)), "d": T("f8E4M3", 32, 64, pad=1)}, ["a"], ["d"],
                    "TFILLPAD_INPLACE(d, a);", target="a5", desc="TFILLPAD_INPLACE f8E4M3 pad zero"))

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
