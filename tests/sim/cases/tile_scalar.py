# The tile-scalar, partial and in-place fill members the core list of gen.py leaves out: bitwise and
# shift scalars, fmod/rem/pow with a scalar, TSUBSC, TPARTMUL, TFILLPAD_INPLACE.


def cases(T, case):
    out = []
    for op, C, dt, k in (("tands", "TANDS", "i16", 0x0F0F), ("tors", "TORS", "i16", -0x7F01), ("tands", "TANDS", "ui8", 0xA5),
                         ("tshrs", "TSHRS", "i32", 5), ("tshrs", "TSHRS", "i16", 15)):
        out.append(case("%s_%s_16x64" % (op, dt), op, dict(a=T(dt, 16, 64), d=T(dt, 16, 64)), ["a", ("s", k, dt)], ["d"],
                        "%s(d, a, (%s)%d);" % (C, {"i16": "int16_t", "i32": "int32_t", "ui8": "uint8_t"}[dt], k)))
    out.append(case("txors_i16_16x64", "txors", dict(a=T("i16", 16, 64), t=T("i16", 16, 64), d=T("i16", 16, 64)),
                    ["a", ("s", 0x5A5A, "i16"), "t"], ["d"], "TXORS(d, a, (int16_t)0x5A5A, t);"))
    for dt, r, c in (("f32", 32, 64), ("f16", 16, 128)):
        cpp = {"f32": "float", "f16": "half"}[dt]
        out.append(case("tfmods_%s_%dx%d" % (dt, r, c), "tfmods", dict(a=T(dt, r, c, data="special"), d=T(dt, r, c)),
                        ["a", ("s", 2.5, dt)], ["d"], "TFMODS(d, a, (%s)2.5);" % cpp, desc="TFMODS: fmod(a, 2.5)"))
        out.append(case("tpows_%s_%dx%d" % (dt, r, c), "tpows", dict(a=T(dt, r, c, data="pos"), t=T(dt, r, c), d=T(dt, r, c)),
                        ["a", ("s", 1.5, dt)], ["d"], "TPOWS(d, a, (%s)1.5, t);" % cpp))
        out.append(case("tsubsc_%s_%dx%d" % (dt, r, c), "tsubsc",
                        dict(a=T(dt, r, c, data="special"), b=T(dt, r, c), d=T(dt, r, c)),
                        ["a", ("s", 1.25, dt), "b"], ["d"], "TSUBSC(d, a, (%s)1.25, b);" % cpp,
                        desc="TSUBSC: (a - s) + b"))
    out.append(case("trems_f32_32x64", "trems", dict(a=T("f32", 32, 64, data="special"), t=T("f32", 32, 64), d=T("f32", 32, 64)),
                    ["a", ("s", 3.0, "f32"), "t"], ["d"], "TREMS(d, a, (float)3.0, t);"))
    out.append(case("trems_i32_32x64", "trems", dict(a=T("i32", 32, 64), t=T("i32", 32, 64), d=T("i32", 32, 64)),
                    ["a", ("s", -7, "i32"), "t"], ["d"], "TREMS(d, a, (int32_t)-7, t);"))
    out.append(case("tpartmul_f32_32x64", "tpartmul",
                    dict(a=T("f32", 32, 64, (32, 40), data="special"), b=T("f32", 32, 64, (20, 64)), d=T("f32", 32, 64)),
                    ["a", "b"], ["d"], "TPARTMUL(d, a, b);", "a5", desc="TPARTMUL: the product where both are valid, the other source elsewhere"))
    out.append(case("tpartmul_i16_1x64", "tpartmul",
                    dict(a=T("i16", 1, 64, (1, 64)), b=T("i16", 1, 64, (1, 33)), d=T("i16", 1, 64)),
                    ["a", "b"], ["d"], "TPARTMUL(d, a, b);", "a5", desc="TPARTMUL one row"))
    out.append(case("tfillpad_inplace_f32_min", "tfillpad_inplace",
                    dict(a=T("f32", 32, 64, (10, 40)), d=T("f32", 32, 64, pad=3)),
                    ["a"], ["d"], "TFILLPAD_INPLACE(d, a);", desc="TFILLPAD_INPLACE: dst whole = src inside its valid 10x40, -inf elsewhere"))
    return out
