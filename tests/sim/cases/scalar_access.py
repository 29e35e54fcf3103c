# Scalar access to one tile element (ir/ops.def TSETVAL, TGETVAL) against the simulator's
# Tile::GetValue / Tile::SetValue (include/pto/common/pto_tile.hpp: `*(ptr + offset)`, the linear
# storage offset whatever the layout or valid region). Each case reads element `g` of src with
# tgetval and writes it into element `p` of dst with tsetval; dst is dumped whole, so the other
# elements must stay as they were. Offsets outside the valid region, the last element, one-row and
# col-major tiles, NaN payloads and -0 (special data), and integer sign extension are covered.


def cases(T, case):
    out = []

    def getset(name, src, dst, g, p, target="a2a3"):
        ty = src.dt
        line = ("%cg = arith.constant {g} : index\n%cp = arith.constant {p} : index\n"
                "%x = pto.tgetval ins({ins}, %cg : {in_types}, index) outs : {ty}\n"
                "pto.tsetval ins(%cp, %x : index, {ty}) outs({outs} : {out_types})").replace("{g}", str(g)).replace(
                    "{p}", str(p)).replace("{ty}", ty)
        out.append(case(name, "tgetval", {"s": src, "d": dst}, ["s"], ["d"], "d.SetValue(%d, s.GetValue(%d));" % (p, g),
                        target=target, line=line))

    getset("tgetval_tsetval_f32_16x16", T("f32", 16, 16, data="special"), T("f32", 16, 16), 17, 40)
    getset("tgetval_tsetval_f32_past_valid", T("f32", 8, 16, valid=(2, 3), data="special"),
           T("f32", 8, 16, valid=(1, 1)), 127, 100)
    getset("tgetval_tsetval_f16_1x64_last", T("f16", 1, 64, data="special"), T("f16", 1, 64), 63, 0)
    getset("tgetval_tsetval_f32_col_major_a5", T("f32", 16, 8, col_major=True, data="special"),
           T("f32", 16, 8, col_major=True), 9, 70, target="a5")
    getset("tgetval_tsetval_i16_8x16", T("i16", 8, 16), T("i16", 8, 16), 5, 77)
    getset("tgetval_tsetval_i32_4x8_a5", T("i32", 4, 8), T("i32", 4, 8), 31, 1, target="a5")
    return out
