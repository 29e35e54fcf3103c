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
    # TMRGSORT (the simulator's TMrgSort.hpp): lists of 8-byte records (f32: value, index; f16: value,
    # 0, index, 0) merged by value, descending; ties and NaN heads keep the lowest-numbered list's
    # record. The multi-list forms write at most dst's valid records, stopping with exhausted = true
    # when the first list runs out; dst starts with random bits, so what the merge leaves is compared
    # too, and tmp (the NPU's staging buffer, which the simulator leaves) is an output. The counts
    # in `executed` are checked by tests/run-cli (the simulator's harness has no tile for them).
    # Shapes: the ISA's CPU tests (4 lists of 128, 2 of 64 and 3 of 256 with exhausted, the single
    # list 256..2048 with blockLen 64 and 256), plus lists of one record, unequal and partial valid
    # lengths, dst shorter than the lists, ties across lists, NaN and -0 heads.
    def recs(dt, n, lst, kind="sorted", cols=None):
        """Element values of a list of n records (then zero records up to cols elements)."""
        import random
        r = random.Random(1000 * lst + n + (7 if dt == "f16" else 0))
        if kind == "ties":
            vals = [float(8 - i // 3) for i in range(n)]
        elif kind == "nan":
            vals = sorted((r.choice([2.5, 1.0, 0.0, -0.0, -1.5]) for _ in range(n)), reverse=True)
            vals[min(lst, n - 1)] = float("nan")  # NaN at the head of list 0, later in the others
        else:
            vals = sorted((round(r.uniform(-50, 50), 2) for _ in range(n)), reverse=True)
        per = 2 if dt == "f32" else 4
        out_vals = []
        for i, v in enumerate(vals):
            idx = float(lst * (1000 if dt == "f32" else 100) + i)
            out_vals += [v, idx] if dt == "f32" else [v, 0.0, idx, 0.0]
        out_vals += [0.0] * max(0, (cols or n * per) - len(out_vals))
        return ("values", out_vals)

    def mrg(name, dt, lists, dst_cols, exhausted, kind="sorted", dst_valid=None, desc=""):
        """lists: (cols, valid cols) per source."""
        tiles, ins = {}, []
        for k, (cols, vc) in enumerate(lists):
            per = 2 if dt == "f32" else 4
            tiles["s%d" % k] = T(dt, 1, cols, valid=(1, vc), data=recs(dt, vc // per, k, kind, cols))
            ins.append("s%d" % k)
        dst = T(dt, 1, dst_cols, valid=(1, dst_valid or dst_cols))
        tiles["t"] = T(dt, 1, dst_cols, data="zero")
        tiles["d"] = dst
        ins.append("t")
        ex = "true" if exhausted else "false"
        cpp = "{ MrgSortExecutedNumList ex{}; TMRGSORT<%s, %s, %s%s>(d, ex, t, %s); }" % (
            dst.cpp(), tiles["t"].cpp(), ", ".join(tiles["s%d" % k].cpp() for k in range(len(lists))),
            ", " + ex, ", ".join("s%d" % k for k in range(len(lists))))
        line = ("%%ex = arith.constant dense<0> : vector<4xi16>\n"
                "pto.tmrgsort ins({ins} {{exhausted = %s}} : {in_types}) outs(%%d, %%ex : %s, vector<4xi16>)" % (ex, dst.pto()))
        out.append(case(name, "tmrgsort", tiles, ins, ["d", "t"], cpp, line=line, desc=desc))

    def single(name, dt, cols, bl, valid=None, desc=""):
        vc = valid or cols
        per = 2 if dt == "f32" else 4
        data = []
        for b in range(cols // bl):  # each block of bl elements a sorted list of its own
            data += recs(dt, bl // per, b, "sorted", bl)[1]
        s = T(dt, 1, cols, valid=(1, vc), data=("values", data))
        d = T(dt, 1, cols, valid=(1, vc))
        out.append(case(name, "tmrgsort", {"s": s, "d": d}, ["s", ("s", bl, "i32")], ["d"], "TMRGSORT(d, s, %du);" % bl,
                        desc=desc))

    mrg("tmrgsort_f32_4x128", "f32", [(128, 128)] * 4, 512, False, desc="TMRGSORT f32, 4 lists of 64 records (the ISA's CPU test)")
    mrg("tmrgsort_f16_4x128", "f16", [(128, 128)] * 4, 512, False, desc="TMRGSORT f16, 4 lists of 32 records (the ISA's CPU test)")
    mrg("tmrgsort_f32_exhausted_2x64", "f32", [(64, 64)] * 2, 128, True,
        desc="TMRGSORT f32 exhausted, 2 lists of 32 (the ISA's CPU test): stops when one runs out")
    mrg("tmrgsort_f16_exhausted_3x256", "f16", [(256, 256)] * 3, 768, True,
        desc="TMRGSORT f16 exhausted, 3 lists of 64 (the ISA's CPU test)")
    mrg("tmrgsort_f32_3_lists", "f32", [(64, 64), (32, 32), (96, 96)], 192, False, desc="TMRGSORT f32, 3 lists of unequal length")
    mrg("tmrgsort_f32_one_record", "f32", [(8, 2), (8, 2)], 8, False,
        desc="TMRGSORT f32, lists of one record each (valid 1x2 of 1x8): dst's last 2 records stay")
    mrg("tmrgsort_f32_exhausted_unequal", "f32", [(32, 32), (128, 128), (64, 64), (16, 16)], 240, True,
        desc="TMRGSORT f32 exhausted, 4 lists of 16, 64, 32, 8 records: a partial dst")
    mrg("tmrgsort_f32_valid_cap", "f32", [(64, 40), (64, 24)], 128, False, dst_valid=40,
        desc="TMRGSORT f32, sources' valid 1x40 and 1x24, dst's valid 1x40: the merge stops after 20 records")
    mrg("tmrgsort_f32_ties_4x32", "f32", [(32, 32)] * 4, 128, False, kind="ties",
        desc="TMRGSORT f32, equal values in every list: the lowest-numbered list first")
    mrg("tmrgsort_f16_ties_exhausted_2x64", "f16", [(64, 64)] * 2, 128, True, kind="ties",
        desc="TMRGSORT f16 exhausted with ties: list 0 runs out first")
    mrg("tmrgsort_f32_nan_3x32", "f32", [(32, 32)] * 3, 96, False, kind="nan",
        desc="TMRGSORT f32 with NaN and -0 values: a NaN head is taken only when it is the first head looked at")
    mrg("tmrgsort_f16_nan_2x64", "f16", [(64, 64)] * 2, 128, False, kind="nan", desc="TMRGSORT f16 with NaN heads")
    single("tmrgsort_single_f32_1x256_bl64", "f32", 256, 64, desc="TMRGSORT single list f32 1x256, blockLen 64 (the ISA's CPU test)")
    single("tmrgsort_single_f32_1x512_bl64", "f32", 512, 64, desc="TMRGSORT single list f32 1x512: two groups")
    single("tmrgsort_single_f16_1x256_bl64", "f16", 256, 64, desc="TMRGSORT single list f16 1x256 (the ISA's CPU test)")
    single("tmrgsort_single_f16_1x512_bl64", "f16", 512, 64, desc="TMRGSORT single list f16 1x512")
    single("tmrgsort_single_f16_1x1024_bl256", "f16", 1024, 256, desc="TMRGSORT single list f16 1x1024, blockLen 256")
    single("tmrgsort_single_f32_1x2048_bl64", "f32", 2048, 64, desc="TMRGSORT single list f32 1x2048: 8 groups")
    single("tmrgsort_single_f32_valid_256_of_512", "f32", 512, 64, valid=256,
           desc="TMRGSORT single list over valid 1x256 of 1x512: the rest of dst stays")
    return out
