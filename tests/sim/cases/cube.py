# The cube (ir/ops_cube.def): TMATMUL, TMATMUL_ACC (in place, as every kernel writes it),
# TMATMUL_BIAS, TGEMV, and TMOV mat -> left / right, on boxed tiles: left Zz on A2/A3 and Nz on A5
# (PTOAS's parser rule), right Zn, acc Nz with the 16x16 box (fractal 1024), mat Nz. Random float
# data (normal, sd 3), not the ISA's small integers, so that the k order of each fmaf chain shows;
# valid regions smaller than the boxes; f32 shapes after the ISA's 40x50x60 experiment.


import struct

import numpy as np


def qword(scale, offset=0, signed=True, shift=0):
    """A quantisation word as SET_QUANT_SCALAR builds it: the f32 scale in bits 0..31, the unsigned
    9-bit offset in bits 37..45, bit 46 for a signed 8-bit result, the i16 shift - 1 in bits 32..35."""
    return struct.unpack("<I", struct.pack("<f", scale))[0] | (offset << 37) | (int(signed) << 46) | (shift << 32)


def cases(T, case, G=None):
    def left(dt, r, c, valid=None, target="a2a3", data="rand"):
        return T(dt, r, c, valid, col_major=target == "a5", loc="left", slayout="row_major", data=data)

    def right(dt, r, c, valid=None, data="rand"):
        return T(dt, r, c, valid, loc="right", slayout="col_major", data=data)

    def acc(dt, r, c, valid=None, data="rand"):
        return T(dt, r, c, valid, col_major=True, loc="acc", slayout="row_major", fractal=1024, data=data)

    out = []
    for target in ("a2a3", "a5"):
        sfx = "" if target == "a2a3" else "_a5"
        # f16 x f16 -> f32 and bf16, full boxes; f32 with valid m, k, n = 40, 50, 60 inside 48x56x64
        for dt in ("f16", "bf16"):
            out.append(case("tmatmul_%s_16x32x16%s" % (dt, sfx), "tmatmul",
                            dict(a=left(dt, 16, 32, target=target), b=right(dt, 32, 16), d=acc("f32", 16, 16)),
                            ["a", "b"], ["d"], "TMATMUL(d, a, b);", target,
                            desc="TMATMUL %s: one fmaf chain per element, k in order, from +0" % dt))
        out.append(case("tmatmul_f32_40x50x60%s" % sfx, "tmatmul",
                        dict(a=left("f32", 48, 56, (40, 50), target), b=right("f32", 56, 64, (50, 60)),
                             d=acc("f32", 48, 64, (40, 60))),
                        ["a", "b"], ["d"], "TMATMUL(d, a, b);", target,
                        desc="TMATMUL f32: fmaf is needed (an unfused a*b+acc differs); dst outside 40x60 untouched"))
        out.append(case("tmatmul_i8_33x100x40%s" % sfx, "tmatmul",
                        dict(a=left("i8", 48, 128, (33, 100), target), b=right("i8", 128, 48, (100, 40)),
                             d=acc("i32", 48, 48, (33, 40))),
                        ["a", "b"], ["d"], "TMATMUL(d, a, b);", target, desc="TMATMUL i8 x i8 -> i32"))
        out.append(case("tmatmul_acc_f32_32x64x32%s" % sfx, "tmatmul.acc",
                        dict(a=left("f32", 32, 64, target=target), b=right("f32", 64, 32), d=acc("f32", 32, 32)),
                        ["d", "a", "b"], ["d"], "TMATMUL_ACC(d, d, a, b);", target,
                        desc="TMATMUL_ACC in place: d = d + (chain from +0), a second rounding"))
        out.append(case("tmatmul_bias_f16_16x64x32%s" % sfx, "tmatmul.bias",
                        dict(a=left("f16", 16, 64, target=target), b=right("f16", 64, 32, (64, 24)),
                             z=T("f32", 1, 32, loc="bias"), d=acc("f32", 16, 32)),
                        ["a", "b", "z"], ["d"], "TMATMUL_BIAS(d, a, b, z);", target,
                        desc="TMATMUL_BIAS: the bias is added over dst's whole valid region, past n = 24 too"))
        out.append(case("tgemv_f16_1x64x32%s" % sfx, "tgemv",
                        dict(a=left("f16", 16, 64, (1, 64), target), b=right("f16", 64, 32), d=acc("f32", 16, 32, (1, 32))),
                        ["a", "b"], ["d"], "TGEMV(d, a, b);", target, desc="TGEMV: TMATMUL with one valid lhs row"))
        out.append(case("tgemv_acc_f32_1x64x32%s" % sfx, "tgemv.acc",
                        dict(a=left("f32", 16, 64, (1, 64), target), b=right("f32", 64, 32),
                             d=acc("f32", 16, 32, (1, 32))),
                        ["d", "a", "b"], ["d"], "TGEMV_ACC(d, d, a, b);", target,
                        desc="TGEMV_ACC in place: one valid lhs row, d = d + (chain from +0)"))
        out.append(case("tgemv_bias_bf16_1x32x48%s" % sfx, "tgemv.bias",
                        dict(a=left("bf16", 16, 32, (1, 32), target), b=right("bf16", 32, 48),
                             z=T("f32", 1, 48, loc="bias"), d=acc("f32", 16, 48, (1, 48))),
                        ["a", "b", "z"], ["d"], "TGEMV_BIAS(d, a, b, z);", target,
                        desc="TGEMV_BIAS bf16: the bias row added to the one valid row"))
        out.append(case("tmatmul_f16_17x33x17_box_edges%s" % sfx, "tmatmul",
                        dict(a=left("f16", 32, 48, (17, 33), target), b=right("f16", 48, 32, (33, 17)),
                             d=acc("f32", 32, 32, (17, 17))),
                        ["a", "b"], ["d"], "TMATMUL(d, a, b);", target,
                        desc="TMATMUL f16 with m, k, n one past a box edge (17, 33, 17)"))
        out.append(case("tmatmul_f32_k1%s" % sfx, "tmatmul",
                        dict(a=left("f32", 16, 8, (16, 1), target), b=right("f32", 8, 16, (1, 16)),
                             d=acc("f32", 16, 16)),
                        ["a", "b"], ["d"], "TMATMUL(d, a, b);", target,
                        desc="TMATMUL f32 with k = 1: each element is one fmaf from +0"))
        if target == "a2a3":  # NaNs (both signs), infinities, zeros, subnormals and max: which NaN an
            # fmaf chain, the .acc add and the .bias add keep where two meet
            out.append(case("tmatmul_f32_16x32x16_special", "tmatmul",
                            dict(a=left("f32", 16, 32, data="special"), b=right("f32", 32, 16, data="special"),
                                 d=acc("f32", 16, 16)),
                            ["a", "b"], ["d"], "TMATMUL(d, a, b);", target,
                            desc="TMATMUL f32 on special values: the NaN each fmaf chain keeps",
                            compiler_dependent="which of two NaNs meeting in the chain or the add is kept: the simulator built by clang++-19 keeps the other one in some elements"))
            out.append(case("tmatmul_acc_f32_16x32x16_special", "tmatmul.acc",
                            dict(a=left("f32", 16, 32, data="special"), b=right("f32", 32, 16),
                                 d=acc("f32", 16, 16, data="special")),
                            ["d", "a", "b"], ["d"], "TMATMUL_ACC(d, d, a, b);", target,
                            desc="TMATMUL_ACC f32 on special values: acc_in's NaN against the chain's"))
            out.append(case("tmatmul_bias_f32_16x32x16_special", "tmatmul.bias",
                            dict(a=left("f32", 16, 32, data="special"), b=right("f32", 32, 16),
                                 z=T("f32", 1, 16, loc="bias", data="special"), d=acc("f32", 16, 16)),
                            ["a", "b", "z"], ["d"], "TMATMUL_BIAS(d, a, b, z);", target,
                            desc="TMATMUL_BIAS f32 on special values: the product's NaN against the bias's",
                            compiler_dependent="which of two NaNs meeting in the chain or the add is kept: the simulator built by clang++-19 keeps the other one in some elements"))
        out.append(case("tmov_mat_left_f16_32x64%s" % sfx, "tmov",
                        dict(m=T("f16", 32, 64, col_major=True, loc="mat", slayout="row_major"),
                             a=left("f16", 32, 64, target=target)),
                        ["m"], ["a"], "TMOV(a, m);", target, desc="TMOV mat (Nz) -> left"))
        out.append(case("tmov_mat_right_f32_32x48%s" % sfx, "tmov",
                        dict(m=T("f32", 32, 48, col_major=True, loc="mat", slayout="row_major"), b=right("f32", 32, 48)),
                        ["m"], ["b"], "TMOV(b, m);", target, desc="TMOV mat (Nz) -> right (Zn)"))
        # TMOV mat -> left / right copies element bits: signalling NaNs keep their quiet bit clear
        for dt in ("f16", "bf16", "f32"):
            out.append(case("tmov_mat_left_%s_32x64_snan%s" % (dt, sfx), "tmov",
                            dict(m=T(dt, 32, 64, col_major=True, loc="mat", slayout="row_major", data="snan"),
                                 a=left(dt, 32, 64, target=target)),
                            ["m"], ["a"], "TMOV(a, m);", target, desc="TMOV mat (Nz) -> left %s: NaN bits as they are" % dt))
        out.append(case("tmov_mat_right_f16_32x48_snan%s" % sfx, "tmov",
                        dict(m=T("f16", 32, 48, col_major=True, loc="mat", slayout="row_major", data="snan"),
                             b=right("f16", 32, 48)),
                        ["m"], ["b"], "TMOV(b, m);", target, desc="TMOV mat (Nz) -> right (Zn) f16: NaN bits as they are"))
        # TMOV acc -> vec: plain (f32 -> f16 to nearest even) and relu (after the cast: -0, NaN stay)
        for dd, relu in (("f16", False), ("f32", True), ("f16", True)):
            attrs = "{reluPreMode = #pto<relu_pre_mode normal_relu>}" if relu else ""
            cpp = ("TMOV<decltype(v), decltype(c), ReluPreMode::NormalRelu>(v, c);" if relu else "TMOV(v, c);")
            out.append(case("tmov_acc_vec_f32_%s%s_16x32%s" % (dd, "_relu" if relu else "", sfx), "tmov",
                            dict(c=acc("f32", 16, 32, data="special"), v=T(dd, 16, 32)), ["c"], ["v"], cpp, target,
                            attrs=attrs, desc="TMOV acc -> vec %s%s" % (dd, " with relu" if relu else "")))
        # TMOV acc -> vec with accToVecMode: the simulator ignores the mode (one vector core's plain or relu copy)
        for mode, cmode, relu in (("dual_mode_split_m", "DualModeSplitM", False), ("single_mode_vec1", "SingleModeVec1", True)):
            attrs = "{accToVecMode = #pto.acc_to_vec_mode<%s>%s}" % (
                mode, ", reluPreMode = #pto<relu_pre_mode normal_relu>" if relu else "")
            cpp = "TMOV<decltype(v), decltype(c), AccToVecMode::%s%s>(v, c);" % (cmode, ", ReluPreMode::NormalRelu" if relu else "")
            out.append(case("tmov_acc_vec_f32_f16_%s%s_16x32%s" % (mode, "_relu" if relu else "", sfx), "tmov",
                            dict(c=acc("f32", 16, 32, data="special"), v=T("f16", 16, 32)), ["c"], ["v"], cpp, target,
                            attrs=attrs, desc="TMOV acc -> vec f16 with accToVecMode %s%s: the mode is ignored" %
                            (mode, " and relu" if relu else "")))
        # TEXTRACT mat (Nz) -> left / right at an offset: the ISA's 8/16 offsets on boxed tiles
        out.append(case("textract_mat_left_f16_32x64_at_16_32%s" % sfx, "textract",
                        dict(m=T("f16", 32, 64, col_major=True, loc="mat", slayout="row_major"),
                             a=left("f16", 16, 32, target=target)),
                        ["m", ("s", 16, "index"), ("s", 32, "index")], ["a"], "TEXTRACT(a, m, 16, 32);", target,
                        desc="TEXTRACT mat -> left: a(r, c) = m(r + 16, c + 32)"))
        out.append(case("textract_mat_right_f32_64x48_at_8_16%s" % sfx, "textract",
                        dict(m=T("f32", 64, 48, col_major=True, loc="mat", slayout="row_major"), b=right("f32", 32, 32)),
                        ["m", ("s", 8, "index"), ("s", 16, "index")], ["b"], "TEXTRACT(b, m, 8, 16);", target,
                        desc="TEXTRACT mat -> right (Zn) at (8, 16)"))
        # TSTORE acc -> GM with preQuantScalar (GetScalarPreQuantMode): f32 -> i8 (QF322B8_PRE), i32 -> i8
        # (REQ8), i32 -> f16 (DEQF16) on both targets; A5 adds f32 -> f16 / bf16 (clamped scaling),
        # f32 -> f32 (no mode: the word is ignored) and i32 -> bf16 (no mode: a plain cast)
        pq = [("f32", "i8", ("range", -400.0, 400.0), qword(0.7), False, "", "QF322B8_PRE signed: x*0.7 rounded to even, saturating"),
              ("f32", "i8", ("range", -300.0, 300.0), qword(1.25, 100, signed=False), False, "_unsigned_off100",
               "QF322B8_PRE unsigned, offset 100: clamp to [0, 255], then the cast to int8 wraps"),
              ("f32", "i8", "special", qword(0.5), True, "_relu_special", "QF322B8_PRE with relu: NaN and negatives -> 0"),
              ("i32", "i8", "rand", qword(2.0 ** -23), False, "", "REQ8: float(v) * 2^-23, rounded, saturating"),
              ("i32", "f16", "rand", qword(2.0 ** -12), False, "", "DEQF16: float(v) * 2^-12 clamped to +-65504")]
        if target == "a5":
            pq += [("f32", "f16", "special", qword(3.5), False, "_special", "QF322F16_PRE: finite values clamped to +-65504, inf and NaN pass"),
                   ("f32", "f16", ("range", -30000.0, 30000.0), qword(3.0), True, "_relu", "QF322F16_PRE with relu"),
                   ("f32", "bf16", "special", qword(-1.5), False, "_special", "QF322BF16_PRE: scaled, then to bf16"),
                   ("f32", "f32", "rand", qword(0.25), False, "", "f32 -> f32: no quantisation mode, the word is ignored"),
                   ("i32", "bf16", "rand", qword(0.5), False, "", "i32 -> bf16: no quantisation mode, a plain cast")]
        for sd, dd, kind, w, relu, tag, what in pq:
            name = "tstore_prequant_%s_%s%s_20x27%s" % (sd, dd, tag, sfx)
            attrs = "{reluPreMode = #pto<relu_pre_mode normal_relu>}" if relu else ""
            cpp = "TSTORE<decltype(c), decltype(g), AtomicType::AtomicNone, ReluPreMode::%s>(g, c, (uint64_t)%dull);" % (
                "NormalRelu" if relu else "NoRelu", w)
            out.append(case(name, "tstore", dict(c=acc(sd, 32, 32, (20, 27), data=kind)), ["c", ("s", w, "i64")], ["g"], cpp,
                            target, attrs=attrs, gm=dict(g=G(dd, 20, 27)),
                            desc="TSTORE acc %s -> GM %s with preQuantScalar: %s" % (sd, dd, what)))
        # TMOV with preQuantScalar: the simulator ignores the word (a plain or relu copy, the cast truncating
        # and wrapping f32 -> i8 as g++ does)
        w = qword(0.5)
        out.append(case("tmov_prequant_acc_vec_f32_i8_16x32%s" % sfx, "tmov",
                        dict(c=acc("f32", 16, 32, data=("range", -300.0, 300.0)), v=T("i8", 16, 32)), ["c", ("s", w, "i64")],
                        ["v"], "TMOV<decltype(v), decltype(c), ReluPreMode::NoRelu>(v, c, (uint64_t)%dull);" % w, target,
                        desc="TMOV acc f32 -> vec i8 with preQuantScalar: the word is ignored, a C++ cast (wraps)"))
        out.append(case("tmov_prequant_acc_mat_f32_f16_relu_32x32%s" % sfx, "tmov",
                        dict(c=acc("f32", 32, 32, (20, 27), data="special"),
                             m=T("f16", 32, 32, (20, 27), col_major=True, loc="mat", slayout="row_major")),
                        ["c", ("s", w, "i64")], ["m"],
                        "TMOV<decltype(m), decltype(c), ReluPreMode::NormalRelu>(m, c, (uint64_t)%dull);" % w, target,
                        attrs="{reluPreMode = #pto<relu_pre_mode normal_relu>}",
                        desc="TMOV acc f32 -> mat f16 with preQuantScalar and relu: the word is ignored, relu after the cast"))
        # the fp (vector-quantisation) forms: a word per column from a scaling tile (u64), the scale's 13 low
        # mantissa bits dropped (19-bit float), GetVectorPreQuantMode (f32 -> i8 VQF322B8_PRE, i32 -> i8 VREQ8,
        # i32 -> f16 VDEQF16, i32 -> i16 VSHIFTS322S16; other pairs a plain cast)
        def words(n, seed, lo=0.02, hi=1.5, shift=False):
            rng = np.random.default_rng(seed)
            return [qword(float(rng.uniform(lo, hi)) * (-1 if i % 7 == 3 else 1), int(rng.integers(0, 40)) if i % 3 == 0 else 0,
                          signed=i % 5 != 2, shift=int(rng.integers(0, 16)) if shift else 0) for i in range(n)]

        def fp(n, seed, **kw):
            return T("ui64", 1, n, loc="scaling", data=("values", words(n, seed, **kw)))

        def mat(dt, r, c, valid=None):
            return T(dt, r, c, valid, col_major=True, loc="mat", slayout="row_major", data="zero")

        fpc = [("textract_fp", "f32", "i8", 32, 64, (32, 64), (16, 32), (8, 16), 64, ("range", -400.0, 400.0), {}),
               ("tinsert_fp", "i32", "f16", 16, 16, (10, 13), (32, 32), (16, 16), 16, "rand", dict(lo=2.0 ** -20, hi=2.0 ** -10)),
               ("tmov.fp", "i32", "i8", 32, 32, (32, 32), (32, 32), None, 32, "rand", dict(lo=2.0 ** -26, hi=2.0 ** -22))]
        if target == "a2a3":  # i32 -> i16 is an A2/A3 pair only
            fpc.append(("textract_fp", "i32", "i16", 32, 32, (32, 32), (16, 16), (16, 0), 32, "rand", dict(shift=True)))
        if target == "a5":
            fpc += [("textract_fp", "f32", "f16", 32, 32, (32, 32), (16, 16), (16, 16), 32, "special", {}),
                    ("tinsert_fp", "i32", "bf16", 16, 16, (16, 16), (32, 32), (0, 16), 16, "rand", {})]
        for opn, sd, dd, sr, sc_, sv, dsh, idx, nfp, kind, kw in fpc:
            c = acc(sd, sr, sc_, sv, data=kind)
            m = mat(dd, dsh[0], dsh[1])
            ins = ["c", "q"] + ([("s", idx[0], "index"), ("s", idx[1], "index")] if idx else [])
            C = {"textract_fp": "TEXTRACT_FP", "tinsert_fp": "TINSERT_FP", "tmov.fp": "TMOV_FP"}[opn]
            call = "%s(m, c, q%s);" % (C, ", %d, %d" % idx if idx else "")
            name = "%s_%s_%s%s%s" % (opn.replace(".", "_"), sd, dd, "_at_%d_%d" % idx if idx else "", sfx)
            out.append(case(name, opn, dict(c=c, q=fp(nfp, len(name) * 31 + nfp, **kw), m=m), ins, ["m"], call, target,
                            desc="%s acc %s -> mat %s with a word per src column from the scaling tile" % (C, sd, dd)))
        # TMOV with an fp tile (PTOAS's `ins(%src : T, %fp : F)`, the same op as the pre-quantisation form):
        # TEXTRACT_FP at (0, 0), acc -> vec (with accToVecMode and relu) and acc -> mat, a word per column
        out.append(case("tmov_fp_acc_vec_f32_i8_relu_16x32%s" % sfx, "tmov",
                        dict(c=acc("f32", 16, 32, data=("range", -400.0, 400.0)), q=fp(32, 91), v=T("i8", 16, 32)), ["c", "q"],
                        ["v"], "TMOV<decltype(v), decltype(c), decltype(q), AccToVecMode::SingleModeVec0, "
                        "ReluPreMode::NormalRelu>(v, c, q);", target,
                        attrs="{accToVecMode = #pto.acc_to_vec_mode<single_mode_vec0>, reluPreMode = #pto<relu_pre_mode normal_relu>}",
                        desc="TMOV acc f32 -> vec i8 with an fp tile and relu: VQF322B8_PRE, word per column"))
        out.append(case("tmov_fp_acc_mat_i32_f16_20x27%s" % sfx, "tmov",
                        dict(c=acc("i32", 32, 32, (20, 27)), q=fp(32, 92, lo=2.0 ** -20, hi=2.0 ** -10),
                             m=T("f16", 32, 32, (20, 27), col_major=True, loc="mat", slayout="row_major", data="zero")),
                        ["c", "q"], ["m"], "TMOV_FP<decltype(m), decltype(c), decltype(q), ReluPreMode::NoRelu>(m, c, q);",
                        target, desc="TMOV acc i32 -> mat f16 with an fp tile (VDEQF16) over a 20x27 valid region"))
        # an f32 fp tile: the simulator converts each value to its uint64_t word (not its bits)
        fw = [float(qword(sc_, off, signed=sg)) for sc_, off, sg in
              ((0.5, 0, True), (0.25, 3, True), (1.5, 0, False), (0.75, 17, True), (2.0, 0, True), (0.125, 40, False))]
        out.append(case("tmov_fp_acc_vec_f32_i8_f32_words_16x32%s" % sfx, "tmov",
                        dict(c=acc("f32", 16, 32, data=("range", -300.0, 300.0)),
                             q=T("f32", 1, 32, loc="scaling", data=("values", fw)), v=T("i8", 16, 32)), ["c", "q"], ["v"],
                        "TMOV<decltype(v), decltype(c), decltype(q), AccToVecMode::SingleModeVec0, ReluPreMode::NoRelu>(v, c, q);",
                        target, attrs="{accToVecMode = #pto.acc_to_vec_mode<single_mode_vec0>}",
                        desc="TMOV acc f32 -> vec i8 with an f32 fp tile: each word is the value converted to uint64_t"))
        # TINSERT acc -> mat converting f32 -> f16 / bf16 (A2/A3's only tinsert form): a C++ cast, to nearest even
        for dd in ("f16", "bf16"):
            out.append(case("tinsert_acc_mat_f32_%s_v10x13_at_16_16%s" % (dd, sfx), "tinsert",
                            dict(c=acc("f32", 16, 16, (10, 13), data="special"), m=mat(dd, 32, 32)),
                            ["c", ("s", 16, "index"), ("s", 16, "index")], ["m"], "TINSERT(m, c, 16, 16);", target,
                            desc="TINSERT acc f32 -> mat %s at (16, 16): each value cast, to nearest even" % dd))
        # TSTORE_FP: the simulator indexes the words by the ROW of a col-major (acc) src
        out.append(case("tstore_fp_f32_i8_20x40_word_per_row%s" % sfx, "tstore_fp",
                        dict(c=acc("f32", 32, 48, (20, 40), data=("range", -300.0, 300.0)), q=fp(24, 77)), ["c", "q"], ["g"],
                        "TSTORE_FP<decltype(c), decltype(g), decltype(q), AtomicType::AtomicNone, ReluPreMode::NoRelu>(g, c, q);",
                        target, gm=dict(g=G("i8", 20, 40)),
                        desc="TSTORE_FP acc f32 -> GM i8: element (r, c) uses word r (scalars[isRowMajor ? col : row])"))
        out.append(case("tstore_fp_i32_f16_16x16%s" % sfx, "tstore_fp",
                        dict(c=acc("i32", 16, 16, data="rand"), q=fp(16, 78, lo=2.0 ** -20, hi=2.0 ** -10)), ["c", "q"], ["g"],
                        "TSTORE_FP<decltype(c), decltype(g), decltype(q), AtomicType::AtomicNone, ReluPreMode::NoRelu>(g, c, q);",
                        target, gm=dict(g=G("f16", 16, 16)),
                        desc="TSTORE_FP acc i32 -> GM f16 (VDEQF16), a word per row"))
        # TSTORE_FP with a float fp tile: each word is the value converted to uint64_t, as for TMOV above
        out.append(case("tstore_fp_f32_i8_f32_words_16x32%s" % sfx, "tstore_fp",
                        dict(c=acc("f32", 16, 32, data=("range", -300.0, 300.0)),
                             q=T("f32", 1, 32, loc="scaling", data=("values", (fw * 6)[:16] + [0.0] * 16))), ["c", "q"], ["g"],
                        "TSTORE_FP<decltype(c), decltype(g), decltype(q), AtomicType::AtomicNone, ReluPreMode::NoRelu>(g, c, q);",
                        target, gm=dict(g=G("i8", 16, 32)),
                        desc="TSTORE_FP acc f32 -> GM i8 with an f32 fp tile: word r is value r converted to uint64_t"))
        # a bf16 fp tile: unsigned words whose set bits span at most 8, so bf16 holds them exactly
        bw = [float(qword(sc_, signed=False)) for sc_ in (0.5, 0.25, 2.0, 1.5, 0.75, 0.125, 4.0, 0.375)] * 2
        out.append(case("tstore_fp_f32_i8_bf16_words_16x16%s" % sfx, "tstore_fp",
                        dict(c=acc("f32", 16, 16, data=("range", -200.0, 200.0)),
                             q=T("bf16", 1, 16, loc="scaling", data=("values", bw))), ["c", "q"], ["g"],
                        "TSTORE_FP<decltype(c), decltype(g), decltype(q), AtomicType::AtomicNone, ReluPreMode::NoRelu>(g, c, q);",
                        target, gm=dict(g=G("i8", 16, 16)),
                        desc="TSTORE_FP acc f32 -> GM i8 with a bf16 fp tile: unsigned words (0..255 results), one per row"))
        # the atomic form: GM += the quantised value, in the GM type (i8 wraps)
        w = qword(0.5)
        out.append(case("tstore_prequant_atomic_f32_i8_16x48%s" % sfx, "tstore",
                        dict(c=acc("f32", 16, 48, data=("range", -300.0, 300.0))), ["c", ("s", w, "i64")], ["g"],
                        "TSTORE<decltype(c), decltype(g), AtomicType::AtomicAdd, ReluPreMode::NoRelu>(g, c, (uint64_t)%dull);" % w,
                        target, attrs="{atomicType = #pto<atomic_type atomic_add>}", gm=dict(g=G("i8", 16, 48, data="rand")),
                        desc="TSTORE acc f32 -> GM i8 quantised and atomic_add: the i8 sum wraps"))
    return out
