# TSORT32 (ir/ops_sort.def) against the simulator's TSort32.hpp: each 32-column block of every valid
# src row, with its u32 indices, stable-sorted by value descending (equal values: smaller index
# first) into 8-byte records from dst column 2*j (f16 blocks overlap: the simulator's layout). dst
# starts with random bits, so what the op leaves is compared too; tmp (the NPU's scratch) is an
# output of the 4-operand cases, which the simulator leaves alone.
# Shapes: the ISA's CPU test (f32 1x32), NPU-like shapes (f32 and f16 rows of 64..256), a tail block
# through tmp, a valid region, one row, one column, a tall-thin tile; data with ties (equal values,
# equal indices, +0 and -0) and with NaNs, where the simulator's order is the one libstdc++'s
# stable_sort's comparisons give: blocks of every length 1..32 exercise its insertion-sort chunks and
# both of its final merges.

NAN_MIX = [float("nan"), 1.0, float("nan"), 2.0, float("-inf"), float("nan"), 0.0, -0.0, float("inf"), -3.5, 2.0,
           float("-nan"), 1.0]
TIES = [2.0, 1.0, 2.0, -0.0, 0.0, 1.0, 2.0, -1.0, 0.0, -0.0, 1.0]


def cases(T, case):
    out = []

    def sort32(name, src, idx, dst, tmp=None, desc=""):
        tiles = {"s": src, "i": idx, "d": dst}
        ins, outs, cpp, line = ["s", "i"], ["d"], "TSORT32(d, s, i);", None
        if tmp:  # tmp is compared after the run too, but the op's only out is dst
            tiles["t"] = tmp
            ins, outs, cpp = ["s", "i", "t"], ["d", "t"], "TSORT32(d, s, i, t);"
            line = "pto.tsort32 ins({ins} : {in_types}) outs(%%d : %s)" % dst.pto()
        out.append(case(name, "tsort32", tiles, ins, outs, cpp, desc=desc, line=line))

    def width(dt, vc, tail):  # dst columns the NPU writes: 8 bytes per value of each (padded) block
        blocks = (vc + 31) // 32 if tail else vc // 32
        return blocks * 32 * 8 // (4 if dt == "f32" else 2)

    # the ISA's CPU test shape, and NPU-like ones
    sort32("tsort32_f32_1x32", T("f32", 1, 32, data="special"), T("ui32", 1, 32), T("f32", 1, 64),
           desc="TSORT32 f32 1x32 (the ISA's CPU test) with NaN, inf, +-0 and subnormals")
    for dt, r, c in (("f32", 4, 64), ("f32", 2, 256), ("f16", 4, 64), ("f16", 2, 128)):
        sort32("tsort32_%s_%dx%d" % (dt, r, c), T(dt, r, c, data="special"), T("ui32", r, c),
               T(dt, r, width(dt, c, False)), desc="TSORT32 %s %dx%d: %d blocks a row" % (dt, r, c, c // 32))
    # ties: equal values (and +0 / -0) ordered by index, equal indices kept in place
    for dt in ("f32", "f16"):
        sort32("tsort32_%s_ties_4x64" % dt, T(dt, 4, 64, data=("values", TIES)), T("ui32", 4, 64, data=("range", 0, 5)),
               T(dt, 4, width(dt, 64, False)), desc="TSORT32 %s: repeated values and indices" % dt)
    # NaNs: every block length, so both final merges and the insertion-sort chunks run
    for vc in (1, 2, 3, 7, 8, 13, 14, 15, 16, 17, 21, 28, 29, 31, 32):
        sort32("tsort32_f32_nan_valid_4x%d" % vc, T("f32", 4, 32, valid=(4, vc), data=("values", NAN_MIX)),
               T("ui32", 4, 32, valid=(4, vc), data=("range", 0, 9)), T("f32", 4, 64, valid=(4, 64)),
               tmp=T("f32", 1, 32, data="zero"), desc="TSORT32 f32 with NaNs, a block of %d" % vc)
    sort32("tsort32_f16_nan_8x96", T("f16", 8, 96, data=("values", NAN_MIX)), T("ui32", 8, 96, data=("range", 0, 40)),
           T("f16", 8, width("f16", 96, False)), desc="TSORT32 f16 with NaNs, 3 blocks a row")
    # a tail block through tmp, a valid region, one row, one column, tall-thin
    sort32("tsort32_f32_tail_2x40", T("f32", 2, 40, data="special"), T("ui32", 2, 40), T("f32", 2, width("f32", 40, True)),
           tmp=T("f32", 1, 64, data="zero"), desc="TSORT32 f32 2x40 with tmp: a block of 32 and a tail of 8")
    sort32("tsort32_f16_tail_3x80", T("f16", 3, 80, data="special"), T("ui32", 3, 80), T("f16", 3, width("f16", 80, True)),
           tmp=T("f16", 1, 96, data="zero"), desc="TSORT32 f16 3x80 with tmp: the tail block overlaps the one before")
    sort32("tsort32_f32_valid_5x40_in_8x64", T("f32", 8, 64, valid=(5, 40), data="special"),
           T("ui32", 8, 64, valid=(5, 40)), T("f32", 8, 128, valid=(5, 128)), tmp=T("f32", 1, 64, data="zero"),
           desc="TSORT32 over src's valid 5x40 of 8x64: the other rows and columns of dst stay")
    sort32("tsort32_f32_one_col_16x8", T("f32", 16, 8, valid=(16, 1), data="special"), T("ui32", 16, 8, valid=(16, 1)),
           T("f32", 16, 64), tmp=T("f32", 1, 32, data="zero"), desc="TSORT32 with one valid column: one record a row")
    sort32("tsort32_f32_tall_128x32", T("f32", 128, 32), T("ui32", 128, 32), T("f32", 128, 64),
           desc="TSORT32 tall-thin: 128 rows of one block")
    # THISTOGRAM (A5): cumulative 256-bin counts of each valid row's high bytes (isMSB, the default),
    # or of the low bytes of the elements whose high byte is the row's idx byte; dst's other
    # columns and rows stay. idx is a col-major column (32 rows: the 32-byte rule for ui8).
    def hist(name, src, idx, dst, msb, desc):
        attrs = "" if msb else "{isMSB = false}"
        out.append(case(name, "thistogram", {"s": src, "i": idx, "d": dst}, ["s", "i"], ["d"],
                        "THISTOGRAM<HistByte::%s>(d, s, i);" % ("BYTE_1" if msb else "BYTE_0"), target="a5",
                        attrs=attrs, desc=desc))

    near = ("range", 0x1200, 0x14FF)  # high bytes 0x12..0x14: the low-byte pass finds matches
    hist("thistogram_msb_u16_32x128", T("ui16", 32, 128), T("ui8", 32, 1, col_major=True), T("ui32", 32, 256), True,
         "THISTOGRAM high bytes of random ui16")
    hist("thistogram_lsb_u16_32x128", T("ui16", 32, 128, data=near),
         T("ui8", 32, 1, col_major=True, data=("values", [0x12, 0x13, 0x14, 0x99])), T("ui32", 32, 256), False,
         "THISTOGRAM low bytes of the elements whose high byte is the row's idx (one idx matching none)")
    hist("thistogram_msb_valid_20x100_dst_32x320", T("ui16", 32, 128, valid=(20, 100)),
         T("ui8", 32, 1, valid=(20, 1), col_major=True), T("ui32", 32, 320, valid=(20, 320)), True,
         "THISTOGRAM over src's valid 20x100: dst columns 256.. and rows 20.. stay")
    hist("thistogram_lsb_one_row_1x64", T("ui16", 32, 64, valid=(1, 64), data=near),
         T("ui8", 32, 1, valid=(1, 1), col_major=True, data=("values", [0x13])), T("ui32", 32, 256, valid=(1, 256)),
         False, "THISTOGRAM low bytes, one valid row")
    # TRANDOM (A5): the simulator's Philox-4x32 words over dst's valid region; the rest of dst stays
    def rnd(name, dst, words, rounds, desc):
        cpp = "{ TRandomKey k = {%du, %du}; TRandomCounter c = {%du, %du, %du, %du}; TRANDOM<%d>(d, k, c); }" % (
            tuple(w & 0xFFFFFFFF for w in words) + (rounds,))
        attrs = "" if rounds == 10 else "{rounds = %d : i32}" % rounds
        out.append(case(name, "trandom", {"d": dst}, [("s", w if w < 2 ** 31 else w - 2 ** 32, "i32") for w in words],
                        ["d"], cpp, target="a5", attrs=attrs, attrs_at="ins", desc=desc))

    rnd("trandom_i32_4x256", T("i32", 4, 256), (305419896, 2596069104, 0, 1, 2, 3), 10,
        "TRANDOM i32 4x256, 10 rounds (PTOAS's test's key and counter)")
    rnd("trandom_u32_2x512_rounds7_carry", T("ui32", 2, 512), (7, 9, 0xFFFFFFC1, 0xFFFFFFFF, 5, 0), 7,
        "TRANDOM ui32, 7 rounds: lanes carry the counter across all its words")
    rnd("trandom_i32_valid_3x100_in_4x256", T("i32", 4, 256, valid=(3, 100)), (1, 2, 3, 4, 5, 6), 10,
        "TRANDOM over a valid 3x100 of 4x256: lanes past column 100 are dropped, the rest of dst stays")
    rnd("trandom_i32_1x1024", T("i32", 1, 1024), (0xDEADBEEF, 0x01234567, 10, 0, 0, 0x80000000), 10,
        "TRANDOM one row of four 256-column groups")
    rnd("trandom_u32_3x136", T("ui32", 3, 136), (11, 22, 33, 44, 55, 66), 7,
        "TRANDOM with a row stride of 136: the counter advances 34 a group")
    return out
