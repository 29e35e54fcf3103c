# GM gather/scatter by index (MGATHER, MSCATTER; A5) and TPREFETCH. PTOAS's pto.mgather / pto.mscatter
# call the simulator's Coalesce::Elem form (MGATHER(dst, mem, idx), MSCATTER(mem, src, idx) with the
# gatherOob / scatterAtomicOp / scatterOob template arguments): element (i, j) takes the index at
# idx's storage offset of (i, j), a flat element offset from the view's first element, bounded by
# the view's element count. Shapes after pto-isa's CPU STs (mgather / mscatter ELEM_TEST and
# ELEM2D_TEST: N indices into a table of TS elements; tprefetch 64x64 f32/i32/i16, 16x256 f16/bf16),
# plus valid regions, one row, one valid column, out-of-bounds
# indices under every bounding mode, and duplicate scatter indices (the last wins, or accumulates).
# Loaded by tests/sim/gen.py.

GOOB = {"undefined": "Undefined", "clamp": "Clamp", "wrap": "Wrap", "zero": "Zero"}
SOOB = {"undefined": "Undefined", "skip": "Skip", "clamp": "Clamp", "wrap": "Wrap"}
ATOM = {"none": "None", "add": "Add", "max": "Max", "min": "Min"}


def cases(T, case, G):
    out = []

    def mgather(name, dt, rows, cols, table, idx_range, oob="undefined", valid=None, idx_shape=None, data="rand", desc=""):
        ir, ic = idx_shape or (rows, cols)
        attrs = "" if oob == "undefined" else "{gatherOob = #pto<gather_oob %s>}" % oob
        cpp = "MGATHER(d, g, i);" if oob == "undefined" else "MGATHER<Coalesce::Elem, GatherOOB::%s>(d, g, i);" % GOOB[oob]
        out.append(case("mgather_" + name, "mgather",
                        dict(i=T("i32", ir, ic, data=("range",) + idx_range), d=T(dt, rows, cols, valid=valid)),
                        ["g", "i"], ["d"], cpp, "a5", attrs=attrs, gm=dict(g=G(dt, table[0], table[1], data=data)),
                        desc=desc))

    # the ISA's ELEM_TEST shapes: N indices (one row) into a table of TS elements
    mgather("elem_f32_64_128size", "f32", 1, 64, (1, 128), (0, 127), data="special", desc="MGATHER f32: 64 indices into 128 elements")
    mgather("elem_f16_64_128size", "f16", 1, 64, (1, 128), (0, 127), data="special", desc="MGATHER f16: 64 indices into 128 elements")
    mgather("elem_i32_32_64size", "i32", 1, 32, (1, 64), (0, 63), desc="MGATHER i32: 32 indices into 64 elements")
    mgather("elem_u8_64_128size", "u8", 1, 64, (1, 128), (0, 127), desc="MGATHER ui8: 64 indices into 128 elements")
    mgather("elem_i16_32_64size", "i16", 1, 32, (1, 64), (0, 63), desc="MGATHER i16: 32 indices into 64 elements")
    mgather("elem_bf16_32_64size", "bf16", 1, 32, (1, 64), (0, 63), data="special", desc="MGATHER bf16 (clang route)")
    mgather("elem_u32_1x32", "u32", 1, 32, (4, 16), (0, 63), desc="MGATHER ui32 from a 4x16 table")
    # out-of-bounds indices, negative ones included (they become huge size_t values)
    mgather("elem_f32_clamp_32_16size", "f32", 1, 32, (1, 16), (-40, 40), "clamp", desc="MGATHER clamp: indices in [-40, 40] over 16")
    mgather("elem_i32_wrap_32_16size", "i32", 1, 32, (1, 16), (-40, 40), "wrap", desc="MGATHER wrap: modulo 16 of the size_t index")
    mgather("elem_f16_zero_32_16size", "f16", 1, 32, (1, 16), (-40, 40), "zero", desc="MGATHER zero: out-of-range indices read 0")
    # the ISA's ELEM2D_TEST shapes: a 2-D idx into a flat table
    mgather("elem2d_f32_8x32_256size", "f32", 8, 32, (16, 16), (0, 255), desc="MGATHER 8x32 f32 from 256 elements")
    mgather("elem2d_i32_8x16_256size", "i32", 8, 16, (16, 16), (0, 255), desc="MGATHER 8x16 i32 from 256 elements")
    mgather("elem2d_f16_4x32_256size", "f16", 4, 32, (16, 16), (0, 255), desc="MGATHER 4x32 f16 from 256 elements")
    mgather("elem2d_i32_3x8_64size", "i32", 3, 8, (8, 8), (0, 63), desc="MGATHER 3x8 i32 from 64 elements (the ISA's unaligned case)")
    # valid regions: only dst's valid region is written, idx read by its storage offsets
    mgather("f32_valid_5x20_in_8x32_clamp", "f32", 8, 32, (16, 16), (-10, 300), "clamp", valid=(5, 20),
            desc="MGATHER dst valid 5x20 of 8x32: the rest of dst stays")
    mgather("f32_one_valid_col_16x8", "f32", 16, 8, (8, 8), (0, 63), valid=(16, 1), desc="MGATHER one valid column")
    mgather("i16_one_row_1x64_wrap", "i16", 1, 64, (2, 16), (-100, 100), "wrap", desc="MGATHER one row, wrap over 32")

    # the 8-bit floats (A5, the e4m3 / e5m2 family; random bytes: every encoding moves as it is)
    mgather("elem_f8E4M3FN_64_128size", "f8E4M3FN", 1, 64, (1, 128), (0, 127), desc="MGATHER f8E4M3FN: 64 indices into 128")
    mgather("elem2d_f8E5M2_8x32_256size", "f8E5M2", 8, 32, (16, 16), (0, 255), desc="MGATHER 8x32 f8E5M2 from 256 elements")
    mgather("f8E4M3_valid_5x20_in_8x32_clamp", "f8E4M3", 8, 32, (16, 16), (-10, 300), "clamp", valid=(5, 20),
            desc="MGATHER f8E4M3 dst valid 5x20 of 8x32: the rest of dst stays")
    # (gatherOob = zero: pto-isa's MGATHER does not compile for an 8-bit float, `cond ? base[idx] : 0` mixing
    # MXType and int; pto-run refuses that form by name)
    mgather("elem_f8E5M2FNUZ_wrap_32_16size", "f8E5M2FNUZ", 1, 32, (1, 16), (-40, 40), "wrap",
            desc="MGATHER wrap f8E5M2FNUZ: modulo 16 of the size_t index")

    def mscatter(name, dt, rows, cols, table, idx_range, atomic="none", oob="undefined", valid=None, data="rand",
                 gdata="rand", desc=""):
        attrs = []
        if atomic != "none":
            attrs.append("scatterAtomicOp = #pto<scatter_atomic_op %s>" % atomic)
        if oob != "undefined":
            attrs.append("scatterOob = #pto<scatter_oob %s>" % oob)
        cpp = "MSCATTER<Coalesce::Elem, ScatterAtomicOp::%s, ScatterOOB::%s>(g, s, i);" % (ATOM[atomic], SOOB[oob])
        out.append(case("mscatter_" + name, "mscatter",
                        dict(s=T(dt, rows, cols, valid=valid, data=data), i=T("i32", rows, cols, data=("range",) + idx_range)),
                        ["s", "i"], ["g"], cpp, "a5", attrs="{%s}" % ", ".join(attrs) if attrs else "",
                        gm=dict(g=G(dt, table[0], table[1], data=gdata)), desc=desc))

    mscatter("elem_f32_64_128size", "f32", 1, 64, (1, 128), (0, 127), data="special", desc="MSCATTER f32: 64 indices into 128")
    mscatter("elem_f16_64_128size", "f16", 1, 64, (1, 128), (0, 127), desc="MSCATTER f16: 64 indices into 128")
    mscatter("elem_i32_32_64size", "i32", 1, 32, (1, 64), (0, 63), desc="MSCATTER i32: 32 indices into 64")
    mscatter("elem_u8_64_128size", "u8", 1, 64, (1, 128), (0, 127), desc="MSCATTER ui8: 64 indices into 128")
    mscatter("elem_i16_32_64size", "i16", 1, 32, (1, 64), (0, 63), desc="MSCATTER i16: 32 indices into 64")
    mscatter("elem_bf16_32_64size", "bf16", 1, 32, (1, 64), (0, 63), desc="MSCATTER bf16 (clang route)")
    mscatter("elem_f32_same_64_8size", "f32", 1, 64, (1, 8), (0, 7), desc="MSCATTER duplicates: the last of each index stays")
    mscatter("elem_f32_atomicadd_32_32size", "f32", 1, 32, (1, 32), (0, 7), "add", desc="MSCATTER add f32 with duplicates: in order")
    mscatter("elem_i32_atomicadd_skip_32_16size", "i32", 1, 32, (1, 16), (-20, 30), "add", "skip",
             desc="MSCATTER add i32 (wrapping), out-of-range skipped")
    mscatter("elem_f16_atomicadd_32_16size", "f16", 1, 32, (1, 16), (0, 15), "add", data="small", gdata="small",
             desc="MSCATTER add f16: each sum rounded to f16")
    mscatter("elem_i32_atomicmax_32_32size", "i32", 1, 32, (1, 32), (0, 15), "max", desc="MSCATTER max i32")
    mscatter("elem_f32_atomicmin_32_32size", "f32", 1, 32, (1, 32), (0, 15), "min", data="special", gdata="special",
             desc="MSCATTER min f32 with NaN, inf, -0 (std::min keeps GM on NaN)")
    mscatter("elem_f32_atomicmax_nan_32_32size", "f32", 1, 32, (1, 32), (0, 15), "max", data="special", gdata="special",
             desc="MSCATTER max f32 with NaN, inf, -0")
    mscatter("elem_i32_atomicmin_clamp_32_16size", "i32", 1, 32, (1, 16), (-30, 30), "min", "clamp", desc="MSCATTER min i32, clamp")
    mscatter("elem_f32_skip_32_16size", "f32", 1, 32, (1, 16), (-20, 30), "none", "skip", desc="MSCATTER skip")
    mscatter("elem_i32_clamp_32_16size", "i32", 1, 32, (1, 16), (-20, 30), "none", "clamp", desc="MSCATTER clamp")
    mscatter("elem_f16_wrap_32_16size", "f16", 1, 32, (1, 16), (-40, 40), "none", "wrap", desc="MSCATTER wrap")
    mscatter("elem_u8_wrap_64_16size", "u8", 1, 64, (1, 16), (-40, 40), "none", "wrap", desc="MSCATTER ui8 wrap")
    mscatter("elem_i16_clamp_32_16size", "i16", 1, 32, (1, 16), (-20, 30), "none", "clamp", desc="MSCATTER i16 clamp")
    mscatter("elem2d_f32_8x32_256size", "f32", 8, 32, (16, 16), (0, 255), desc="MSCATTER 8x32 f32 into 256")
    mscatter("elem2d_i32_8x16_256size_add", "i32", 8, 16, (16, 16), (0, 255), "add", desc="MSCATTER add 8x16 i32 into 256")
    mscatter("f32_valid_5x20_in_8x32", "f32", 8, 32, (16, 16), (0, 255), valid=(5, 20), desc="MSCATTER src valid 5x20 only")
    mscatter("f32_one_valid_col_16x8_wrap", "f32", 16, 8, (1, 8), (-9, 20), "none", "wrap", valid=(16, 1),
             desc="MSCATTER one valid column, wrap")

    mscatter("elem_f8E4M3FN_64_128size", "f8E4M3FN", 1, 64, (1, 128), (0, 127), desc="MSCATTER f8E4M3FN: 64 indices into 128")
    mscatter("elem_f8E5M2_wrap_64_16size", "f8E5M2", 1, 64, (1, 16), (-40, 40), "none", "wrap", desc="MSCATTER f8E5M2 wrap")
    mscatter("f8E4M3B11FNUZ_valid_5x20_in_8x32", "f8E4M3B11FNUZ", 8, 32, (16, 16), (0, 255), valid=(5, 20),
             desc="MSCATTER f8E4M3B11FNUZ src valid 5x20 only")

    # TPREFETCH: dst storage element r * Cols + c = GM element r * Cols + c from the view's first
    for dt, r, c, target in (("f32", 64, 64, "a2a3"), ("i32", 64, 64, "a2a3"), ("i16", 64, 64, "a2a3"), ("f16", 16, 256, "a2a3"),
                             ("bf16", 16, 256, "a5")):
        out.append(case("tprefetch_%s_%dx%d" % (dt, r, c), "tprefetch", dict(d=T(dt, r, c)), ["g"], ["d"], "TPREFETCH(d, g);",
                        target, gm=dict(g=G(dt, r, c, data="special" if dt[0] in "fb" else "rand")),
                        desc="TPREFETCH %s %dx%d, the ISA's CPU test shape" % (dt, r, c)))
    out.append(case("tprefetch_f32_valid_5x10_in_8x16_from_8x32", "tprefetch", dict(d=T("f32", 8, 16, valid=(5, 10))), ["g"],
                    ["d"], "TPREFETCH(d, g);", gm=dict(g=G("f32", 8, 32)),
                    desc="TPREFETCH valid 5x10: row r from GM element r * 16 (dst's row stride, not the view's 32)"))
    out.append(case("tprefetch_i8_one_row_1x64", "tprefetch", dict(d=T("i8", 1, 64, valid=(1, 40))), ["g"], ["d"],
                    "TPREFETCH(d, g);", gm=dict(g=G("i8", 1, 64)), desc="TPREFETCH one row, valid 40 of 64"))
    out.append(case("tprefetch_f16_one_valid_col_16x16", "tprefetch", dict(d=T("f16", 16, 16, valid=(16, 1))), ["g"], ["d"],
                    "TPREFETCH(d, g);", "a5", gm=dict(g=G("f16", 16, 16)), desc="TPREFETCH one valid column"))
    return out
