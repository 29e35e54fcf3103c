# Gather/scatter and quantisation (ir/ops_gather.def): TGATHER index and mask forms, TGATHERB,
# TSCATTER, TQUANT INT8, TDEQUANT. Shapes after pto-isa's CPU STs (tgather case1_float_P0101 /
# P1111: src (4+5)x(64+32) with valid 4x64, dst 4x64). Loaded by tests/sim/gen.py.

PATTERNS = ("P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111")
TIES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, 127.5, 128.0, -127.5, -128.5, -129.0, 300.0, -300.0, 3.25, -7.75]


def cases(T, case):
    out = []
    # TGATHER mask form: the selected columns of every valid src row, packed from dst(0,0)
    for pat in ("P0101", "P1111"):
        out.append(case("tgather_case1_float_%s" % pat, "tgather",
                        dict(s=T("f32", 9, 96, valid=(4, 64), data="special"), d=T("f32", 4, 64)), ["s"], ["d"],
                        "TGATHER<decltype(d), decltype(s), MaskPattern::%s>(d, s);" % pat,
                        attrs="{maskPattern = #pto.mask_pattern<%s>}" % pat, attrs_at="ins",
                        desc="TGATHER mask %s, the ISA's case1_float_%s shapes" % (pat, pat)))
    for pat, dt in zip(PATTERNS, ("i16", "f16", "u32", "i32", "f32", "u16", "bf16")):
        out.append(case("tgather_mask_%s_%s_6x24_in_8x32" % (pat, dt), "tgather",
                        dict(s=T(dt, 8, 32, valid=(6, 24), data="special" if dt[0] in "fb" else "rand"), d=T(dt, 8, 32)),
                        ["s"], ["d"], "TGATHER<decltype(d), decltype(s), MaskPattern::%s>(d, s);" % pat,
                        attrs="{maskPattern = #pto.mask_pattern<%s>}" % pat, attrs_at="ins",
                        desc="TGATHER mask %s %s, src valid 6x24: dst past the stream stays" % (pat, dt)))
    # the 8-bit floats (A5 mask form, PTOAS: any 8-bit float): random bytes, every encoding kept as it is
    out.append(case("tgather_case1_f8E4M3FN_P0101_a5", "tgather",
                    dict(s=T("f8E4M3FN", 9, 96, valid=(4, 64)), d=T("f8E4M3FN", 4, 64)), ["s"], ["d"],
                    "TGATHER<decltype(d), decltype(s), MaskPattern::P0101>(d, s);",
                    target="a5", attrs="{maskPattern = #pto.mask_pattern<P0101>}", attrs_at="ins",
                    desc="TGATHER mask P0101 f8E4M3FN in the ISA's case1 shapes"))
    for pat, dt in (("P1111", "f8E5M2"), ("P1000", "f8E8M0FNU"), ("P0010", "f8E4M3B11FNUZ")):
        out.append(case("tgather_mask_%s_%s_6x48_in_8x64_a5" % (pat, dt), "tgather",
                        dict(s=T(dt, 8, 64, valid=(6, 48)), d=T(dt, 8, 64)),
                        ["s"], ["d"], "TGATHER<decltype(d), decltype(s), MaskPattern::%s>(d, s);" % pat,
                        target="a5", attrs="{maskPattern = #pto.mask_pattern<%s>}" % pat, attrs_at="ins",
                        desc="TGATHER mask %s %s, src valid 6x48: dst past the stream stays" % (pat, dt)))
    # TGATHER index form: dst(r,c) = src[flat idx] over src's physical tile; out of range -> 0
    for dt in ("f32", "f16", "i16", "i32"):
        out.append(case("tgather_index_%s_8x32" % dt, "tgather",
                        dict(s=T(dt, 8, 32, data="special" if dt[0] == "f" else "rand"), i=T("i32", 8, 32, data=("range", -16, 271)),
                             t=T("i32", 8, 32, data="zero"), d=T(dt, 8, 32)),
                        ["s", "i", "t"], ["d"], "TGATHER(d, s, i, t);",
                        desc="TGATHER index form %s: indices in [-16, 271] over 256 elements" % dt))
    out.append(case("tgather_index_f32_src_valid_5x20_dst_3x32", "tgather",
                    dict(s=T("f32", 8, 32, valid=(5, 20)), i=T("i32", 4, 32, valid=(3, 32), data=("range", 0, 255)),
                         t=T("i32", 4, 32, valid=(3, 32), data="zero"), d=T("f32", 4, 32, valid=(3, 32))),
                    ["s", "i", "t"], ["d"], "TGATHER(d, s, i, t);",
                    desc="TGATHER index form: src addressed physically past its valid 5x20; dst rows 3 of 4"))
    out.append(case("tgather_index_u32_f32", "tgather",
                    dict(s=T("f32", 4, 16), i=T("u32", 4, 16, data=("values", [0, 5, 63, 64, 4294967295, 2147483648])),
                         t=T("u32", 4, 16, data="zero"), d=T("f32", 4, 16)),
                    ["s", "i", "t"], ["d"], "TGATHER(d, s, i, t);",
                    desc="TGATHER index form with unsigned indices (huge ones give 0)"))
    # TGATHERB: 32-byte blocks from byte offsets; a block past src's end leaves dst alone
    for dt in ("f32", "f16", "i8"):
        w = {"f32": 4, "f16": 2, "i8": 1}[dt]
        out.append(case("tgatherb_%s_8x64_bytes" % dt, "tgatherb",
                        dict(s=T(dt, 8, 1024 // 8 // w), o=T("u32", 8, 8, data=("range", 0, 1000)), d=T(dt, 8, 128 // w)),
                        ["s", "o"], ["d"], "TGATHERB(d, s, o);",
                        desc="TGATHERB %s: 4 blocks per row, offsets in [0, 1000] of 1024 bytes" % dt))
    for dt, target in (("f8E4M3FN", "a2a3"), ("f8E5M2", "a5")):  # PTOAS: 1-byte elements on both targets
        out.append(case("tgatherb_%s_8x128_bytes_%s" % (dt, target), "tgatherb",
                        dict(s=T(dt, 8, 128), o=T("u32", 8, 8, data=("range", 0, 1000)), d=T(dt, 8, 128)),
                        ["s", "o"], ["d"], "TGATHERB(d, s, o);", target=target,
                        desc="TGATHERB %s: 4 blocks per row, offsets in [0, 1000] of 1024 bytes" % dt))
    # TSCATTER: dst raw element idx(i,j) = src(i,j); the rest of dst stays
    out.append(case("tscatter_case_float_2x32_1x32", "tscatter",
                    dict(s=T("f32", 2, 32), i=T("i32", 1, 32, data=("range", 0, 63)), d=T("f32", 2, 32)),
                    ["s", "i"], ["d"], "TSCATTER(d, s, i);",
                    desc="TSCATTER f32, 1x32 indexes into 2x32 (the ISA's case_float_uint16_2x32_1x32 shapes, i32 indexes)"))
    for dt, it in (("f16", "i16"), ("i32", "u32"), ("i8", "u16"), ("bf16", "i16")):
        out.append(case("tscatter_%s_%s_4x32" % (dt, it), "tscatter",
                        dict(s=T(dt, 4, 32), i=T(it, 4, 32, valid=(3, 32), data=("range", 0, 255)), d=T(dt, 4, 64)),
                        ["s", "i"], ["d"], "TSCATTER(d, s, i);",
                        desc="TSCATTER %s with %s indexes (valid 3x32) into 4x64" % (dt, it)))
    # TQUANT INT8: rint (ties to even) of s * fp(r, 0) [+ off(r, 0)], clamped
    out.append(case("tquant_int8_sym_ties", "tquant",
                    dict(s=T("f32", 4, 32, data=("values", TIES)), f=T("f32", 4, 8, valid=(4, 1), data=("values", [1.0, 0.5, 2.0])),
                         d=T("i8", 4, 32)),
                    ["s", "f"], ["d"], "TQUANT<QuantType::INT8_SYM>(d, s, f);",
                    attrs="{quant_type = #pto<quant_type INT8_SYM>}", desc="TQUANT INT8_SYM: ties to even, clamps at -128/127"))
    out.append(case("tquant_int8_sym_random", "tquant",
                    dict(s=T("f32", 8, 64, valid=(7, 50)), f=T("f32", 8, 8, valid=(3, 1), data=("range", 0.5, 40.0)),
                         d=T("i8", 8, 64)),
                    ["s", "f"], ["d"], "TQUANT<QuantType::INT8_SYM>(d, s, f);",
                    attrs="{quant_type = #pto<quant_type INT8_SYM>}", desc="TQUANT INT8_SYM: fp rows past its valid 3 reuse row 2"))
    out.append(case("tquant_int8_asym_ties", "tquant",
                    dict(s=T("f32", 4, 32, data=("values", TIES)), f=T("f32", 4, 8, valid=(4, 1), data=("values", [1.0, 0.5])),
                         o=T("f32", 4, 8, valid=(4, 1), data=("values", [0.0, 128.0, 127.5])), d=T("u8", 4, 32)),
                    ["s", "f", "o"], ["d"], "TQUANT<QuantType::INT8_ASYM>(d, s, f, &o);",
                    attrs="{quant_type = #pto<quant_type INT8_ASYM>}",
                    desc="TQUANT INT8_ASYM: s * fp + off, ties to even, clamps at 0/255"))
    # TDEQUANT: (float(s) - off) * scale, parameter column min(c, scale valid cols - 1)
    for dt in ("i8", "i16"):
        out.append(case("tdequant_%s_4x32" % dt, "tdequant",
                        dict(s=T(dt, 4, 32), c=T("f32", 4, 8, valid=(4, 3)), o=T("f32", 4, 8, valid=(4, 3)), d=T("f32", 4, 32)),
                        ["s", "c", "o"], ["d"], "TDEQUANT(d, s, c, o);",
                        desc="TDEQUANT %s: columns past 2 use parameter column 2" % dt))
    return out
