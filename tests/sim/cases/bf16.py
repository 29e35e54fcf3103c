# Real bf16 (8-bit exponent) through the simulator built with clang++-19 (gen.py's bf16 route): the
# arithmetic, reductions, broadcasts and conversions PTOAS allows on bf16 (A5 rows of ir/*.def).
# Each bf16 operation rounds to nearest even; specials include bf16 subnormals and its max.


def cases(T, case):
    out = []
    for op, C in (("tadd", "TADD"), ("tpartadd", "TPARTADD"), ("tpartmul", "TPARTMUL"), ("tpartmax", "TPARTMAX")):
        part = op.startswith("tpart")
        tl = dict(a=T("bf16", 16, 64, (16, 40) if part else None, data="special"),
                  b=T("bf16", 16, 64, (10, 64) if part else None), d=T("bf16", 16, 64))
        out.append(case("%s_bf16_16x64" % op, op, tl, ["a", "b"], ["d"], "%s(d, a, b);" % C, "a5",
                        desc="%s bf16: one rounding per element%s" % (C, ", union of valid regions" if part else "")))
    for op, C, k in (("tadds", "TADDS", 1.5), ("tsubs", "TSUBS", -0.3), ("tmuls", "TMULS", 0.1), ("tmins", "TMINS", 0.5)):
        out.append(case("%s_bf16_32x64" % op, op, dict(a=T("bf16", 32, 64, data="special"), d=T("bf16", 32, 64)),
                        ["a", ("s", k, "bf16")], ["d"], "%s(d, a, (bfloat16_t)%r);" % (C, k), "a5"))
    out.append(case("tneg_bf16_16x64", "tneg", dict(a=T("bf16", 16, 64, data="special"), d=T("bf16", 16, 64)),
                    ["a"], ["d"], "TNEG(d, a);", "a5"))
    out.append(case("taxpy_bf16_16x128", "taxpy", dict(a=T("bf16", 16, 128), d=T("bf16", 16, 128)),
                    ["a", ("s", 0.75, "bf16")], ["d"], "TAXPY(d, a, (bfloat16_t)0.75);", "a5",
                    desc="TAXPY bf16: dst += src * s, rounded after the product and after the sum"))
    for op, C in (("tcolsum", "TCOLSUM"), ("tcolmax", "TCOLMAX"), ("tcolmin", "TCOLMIN"), ("tcolprod", "TCOLPROD")):
        tl = dict(a=T("bf16", 16, 128, (13, 121), data="small" if op == "tcolprod" else "special"),
                  d=T("bf16", 1, 128, (1, 121)))
        out.append(case("%s_bf16_16x128" % op, op, tl, ["a"], ["d"], "%s(d, a);" % C, "a5",
                        desc="%s bf16 over 13 valid rows, in row order" % C))
    out.append(case("trowexpand_bf16_16x64", "trowexpand", dict(a=T("bf16", 16, 1, col_major=True, data="special"),
                                                                d=T("bf16", 16, 64, (16, 50))),
                    ["a"], ["d"], "TROWEXPAND(d, a);", "a5"))
    out.append(case("tcolexpand_bf16_16x64", "tcolexpand", dict(a=T("bf16", 1, 64, (1, 50), data="special"),
                                                                d=T("bf16", 16, 64, (11, 50))),
                    ["a"], ["d"], "TCOLEXPAND(d, a);", "a5"))
    for m in ("RINT", "ROUND", "TRUNC", "FLOOR", "CEIL"):
        out.append(case("tcvt_f32_bf16_%s" % m.lower(), "tcvt", dict(a=T("f32", 16, 64, data="special"), d=T("bf16", 16, 64)),
                        ["a"], ["d"], "TCVT(d, a, RoundMode::CAST_%s);" % m, attrs="{rmode = #pto<round_mode %s>}" % m,
                        desc="TCVT f32 -> bf16, rmode %s" % m))
    for dd, m in (("f32", "RINT"), ("i32", "TRUNC")):
        out.append(case("tcvt_bf16_%s_%s" % (dd, m.lower()), "tcvt", dict(a=T("bf16", 16, 64, data="special"), d=T(dd, 16, 64)),
                        ["a"], ["d"], "TCVT(d, a, RoundMode::CAST_%s);" % m, attrs="{rmode = #pto<round_mode %s>}" % m))
    return out
