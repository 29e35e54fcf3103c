# TSTORE from boxed tiles to GM (ND): acc (Nz, 16x16 boxes) plainly and with a C++ cast, and mat
# (Nz, A2/A3 only) - the copies pto-run makes a box row (a contiguous run) at a time. Valid regions
# that end inside a box, and full tiles several boxes wide.


def cases(T, case, G):
    def acc(dt, r, c, valid=None, data="special"):
        return T(dt, r, c, valid, col_major=True, loc="acc", slayout="row_major", fractal=1024, data=data)

    out = []
    for target in ("a2a3", "a5"):
        sfx = "" if target == "a2a3" else "_a5"
        out.append(case("tstore_acc_f32_20x27%s" % sfx, "tstore", dict(c=acc("f32", 32, 32, (20, 27))), ["c"], ["g"],
                        "TSTORE(g, c);", target, gm=dict(g=G("f32", 20, 27)),
                        desc="TSTORE acc f32 -> GM f32: the bits, a box row at a time, valid region inside the boxes"))
        out.append(case("tstore_acc_i32_64x80%s" % sfx, "tstore", dict(c=acc("i32", 64, 80, data="rand")), ["c"], ["g"],
                        "TSTORE(g, c);", target, gm=dict(g=G("i32", 64, 80)),
                        desc="TSTORE acc i32 -> GM i32, five boxes per row"))
        out.append(case("tstore_acc_f32_f16_48x40%s" % sfx, "tstore", dict(c=acc("f32", 48, 48, (48, 40))), ["c"], ["g"],
                        "TSTORE(g, c);", target, gm=dict(g=G("f16", 48, 40)),
                        desc="TSTORE acc f32 -> GM f16: a C++ cast of each value (to nearest even), gathered a run at a time"))
    out.append(case("tstore_mat_f16_32x80_valid_30x70", "tstore",
                    dict(m=T("f16", 32, 80, (30, 70), col_major=True, loc="mat", slayout="row_major", data="special")),
                    ["m"], ["g"], "TSTORE(g, m);", "a2a3", gm=dict(g=G("f16", 30, 70)),
                    desc="TSTORE mat (Nz, 16x16 f16 boxes) -> GM f16 (A2/A3)"))
    out.append(case("tstore_mat_i8_64x64", "tstore",
                    dict(m=T("i8", 64, 64, col_major=True, loc="mat", slayout="row_major", data="rand")),
                    ["m"], ["g"], "TSTORE(g, m);", "a2a3", gm=dict(g=G("i8", 64, 64)),
                    desc="TSTORE mat (Nz, 16x32 i8 boxes) -> GM i8 (A2/A3)"))
    return out
