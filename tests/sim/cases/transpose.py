# TTRANS (ir/ops_move.def) against the simulator's TTrans.hpp: dst(c, r) = src(r, c) over src's valid
# region, element bits copied; the rest of dst is left as it was and tmp is not touched (both are
# dumped whole and compared: tmp is an output of every case). dst's valid shape is src's mirrored (the simulator's static_assert).
# Shapes: the ISA's CPU test (f32 128x128) and its NPU tests' (f32 16x8, f16 16x16, f32 32x16 valid
# 31x15, f16 32x32 valid 31x31, f32 2x512, f32 64x128 valid 27x77, u8 32x32, u8 64x64 valid 22x63,
# f32 512x32 valid 512x2: dsts padded to 32-byte rows as those tests do), plus one row, one valid
# column, tall-thin 2048x8, a col-major dst, and every legal type (bf16 built with clang). A2/A3's
# scalar fallback (an f32 dst of 8 columns) gives the same values: the cases run on both targets.


def cases(T, case):
    out = []

    def ttrans(name, src, dst, tmp=None, target="a2a3"):
        # tmp: what A2/A3's vnchwconv path writes (dst's rows to a 32-byte block, its columns to 16
        # rows of the sub-tile, 32 for 1-byte types); the simulator ignores it
        es = 1 if src.dt in ("i8", "ui8") else 2 if src.dt in ("f16", "bf16", "i16", "ui16") else 4
        up = lambda n, m: (n + m - 1) // m * m
        tmp = tmp or T(src.dt, up(dst.rows, 32 // es), up(dst.cols, 32 if es == 1 else 16))
        # tmp is an output too, so that what the op leaves in it is compared (the simulator: nothing)
        line = "pto.ttrans ins({ins} : {in_types}) outs(%%d : %s)" % dst.pto()
        out.append(case(name, "ttrans", {"s": src, "tmp": tmp, "d": dst}, ["s", "tmp"], ["d", "tmp"], "TTRANS(d, s, tmp);",
                        target=target, line=line))

    def data(dt):
        return "special" if dt[0] in "fb" else "rand"

    def pad32(n, dt):  # columns of a row-major tile rounded up to 32 bytes
        per = 32 // {"i8": 1, "ui8": 1, "f16": 2, "bf16": 2, "i16": 2, "ui16": 2}.get(dt, 4)
        return (n + per - 1) // per * per

    # the ISA's CPU test
    ttrans("ttrans_f32_128x128", T("f32", 128, 128, data="special"), T("f32", 128, 128))
    # the ISA's NPU test shapes (src rows x cols, valid; dst rows = src valid cols, cols padded)
    for dt, r, c, vr, vc, target in (("f32", 16, 8, 16, 8, "a2a3"), ("f16", 16, 16, 16, 16, "a2a3"),
                                     ("f32", 32, 16, 31, 15, "a2a3"), ("f16", 32, 32, 31, 31, "a5"),
                                     ("f32", 2, 512, 2, 512, "a2a3"), ("f32", 64, 128, 27, 77, "a5"),
                                     ("ui8", 32, 32, 32, 32, "a2a3"), ("ui8", 64, 64, 22, 63, "a5"),
                                     ("f32", 512, 32, 512, 2, "a2a3"), ("f32", 8, 8, 8, 8, "a5")):
        valid = (vr, vc) if (vr, vc) != (r, c) else None
        dst = T(dt, max(vc, 1), pad32(vr, dt), valid=(vc, vr))
        tag = "%s_%dx%d%s" % (dt, r, c, "_v%dx%d" % (vr, vc) if valid else "")
        ttrans("ttrans_%s%s" % (tag, "_a5" if target == "a5" else ""), T(dt, r, c, valid=valid, data=data(dt)), dst,
               target=target)
    # every other legal type, on both targets
    for dt in ("f16", "bf16", "i16", "ui16", "i32", "ui32", "i8", "f32"):
        r, c = (32, 64) if dt in ("i8",) else (16, 32)
        for target in ("a2a3", "a5"):
            ttrans("ttrans_%s_%dx%d_%s" % (dt, r, c, target), T(dt, r, c, data=data(dt)), T(dt, c, pad32(r, dt)),
                   target=target)
    # one row, one valid column, tall-thin, a valid region of one element, a col-major dst
    ttrans("ttrans_f32_1x64_one_row", T("f32", 1, 64, data="special"), T("f32", 64, 8, valid=(64, 1)))
    ttrans("ttrans_f16_64x16_one_valid_col", T("f16", 64, 16, valid=(64, 1), data="special"), T("f16", 1, 64))
    ttrans("ttrans_f32_2048x8_tall_thin_a5", T("f32", 2048, 8, data="special"), T("f32", 8, 2048),
           tmp=T("f32", 8, 2048), target="a5")
    ttrans("ttrans_i32_16x8_valid_1x1", T("i32", 16, 8, valid=(1, 1)), T("i32", 8, 16, valid=(1, 1)))
    ttrans("ttrans_f32_16x8_col_major_dst", T("f32", 16, 8, data="special"), T("f32", 8, 16, col_major=True))
    return out
