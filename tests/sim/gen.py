#!/usr/bin/python3
"""Golden data from the ISA's own CPU simulator (pto-isa, include/pto/cpu): for every case below,
a C++ harness places the case's tiles in the simulator's UB at the addresses the .pto program
uses, fills each whole tile (valid region or not) with the same seeded data, runs the instruction
and dumps every output tile whole. The .pto program binds the same data through full-tile aliases
and is checked with `pto-run --compare=bits`: bit for bit, outside the valid region too.

    /usr/bin/python3 tests/sim/gen.py [--cross-check] --pto-isa DIR   (DIR: a pto-isa tree with include/)

The cases: cases() below (the core list) and every tests/sim/cases/<family>.py, which defines
cases(T, case). It writes tests/sim/<case>/ (prog.pto, <tile>.bin inputs, <tile>.expect.bin
outputs) and tests/sim/cases.txt, deterministically. It fetches nothing; g++ builds the harness
with the ISA's test flags (-std=c++20 -O2, no -march: no FMA contraction), single-threaded. Cases
with a bf16 tile are built with Debian's clang++-19 instead (g++ 12 has no std::bfloat16_t, and
pto-isa then silently makes bf16 an alias of _Float16); --cross-check also builds every g++ case
with that clang and fails unless the outputs are the same bits (tests/sim/README.md).
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NP = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "i8": np.int8, "ui8": np.uint8, "i16": np.int16,
      "ui16": np.uint16, "i32": np.int32, "ui32": np.uint32}
CPP = {"f32": "float", "f16": "half", "bf16": "bfloat16_t", "i8": "int8_t", "ui8": "uint8_t", "i16": "int16_t",
       "ui16": "uint16_t", "i32": "int32_t", "ui32": "uint32_t"}
NP["ui64"], CPP["ui64"] = np.uint64, "uint64_t"  # quantisation words (scaling tiles)
# the 8-bit floats of the MX matmul: raw bytes here (data kind "rand": every bit pattern), the C++ type
# PTOAS emits for each spelling in the harness (pto-isa MXTypes.hpp)
for _f8, _cpp in (("f8E4M3FN", "float8_e4m3_t"), ("f8E4M3", "float8_e4m3_t"), ("f8E5M2", "float8_e5m2_t"),
                  ("f8E8M0FNU", "float8_e8m0_t"), ("f8E4M3FNUZ", "float8_e4m3_t"), ("f8E4M3B11FNUZ", "float8_e4m3_t"),
                  ("f8E5M2FNUZ", "float8_e5m2_t")):
    NP[_f8], CPP[_f8] = np.uint8, _cpp
for _w in ("8", "16", "32", "64"):  # PTOAS spells unsigned types both ui32 and u32
    NP["u" + _w], CPP["u" + _w] = NP["ui" + _w], CPP["ui" + _w]
PAD = {0: "Null", 1: "Zero", 2: "Max", 3: "Min"}


class T:
    """A tile: element type, shape, valid shape, layout, pad; and for the cube its location (vec,
    mat, left, right, acc, bias, scaling), its box layout (slayout "row_major" / "col_major") and
    fractal (512, or 1024 for the 16x16 acc box)."""

    LOCS = {"vec": "Vec", "mat": "Mat", "left": "Left", "right": "Right", "acc": "Acc", "bias": "Bias", "scaling": "Scaling"}

    def __init__(self, dt, rows, cols, valid=None, col_major=False, pad=0, data="rand", loc="vec", slayout=None,
                 fractal=512):
        self.dt, self.rows, self.cols = dt, rows, cols
        self.vr, self.vc = valid if valid else (rows, cols)
        self.col_major, self.pad, self.data = col_major, pad, data
        self.loc, self.slayout, self.fractal = loc, slayout, fractal

    def nbytes(self):
        return self.rows * self.cols * np.dtype(NP[self.dt]).itemsize

    def pto(self, whole=False):
        extra = "" if whole or (self.vr, self.vc) == (self.rows, self.cols) else ", valid=%dx%d" % (self.vr, self.vc)
        if self.col_major:
            extra += ", blayout=col_major"
        if self.slayout:
            extra += ", slayout=%s" % self.slayout
        if self.fractal != 512:
            extra += ", fractal=%d" % self.fractal
        if self.pad and not whole:
            extra += ", pad=%d" % self.pad
        return "!pto.tile_buf<%s, %dx%dx%s%s>" % (self.loc, self.rows, self.cols, self.dt, extra)

    def cpp(self):
        sl = {"row_major": "RowMajor", "col_major": "ColMajor", None: "NoneBox"}[self.slayout]
        return "Tile<TileType::%s, %s, %d, %d, BLayout::%s, -1, -1, SLayout::%s, %d, PadValue::%s>" % (
            self.LOCS[self.loc], CPP[self.dt], self.rows, self.cols, "ColMajor" if self.col_major else "RowMajor", sl,
            self.fractal, PAD[self.pad])

    def offsets(self):
        """The storage offset of every logical element, row-major order (the simulator's
        GetTileElementOffset; interp_impl.h tile_elem_offset)."""
        r, c = np.meshgrid(np.arange(self.rows), np.arange(self.cols), indexing="ij")
        if not self.slayout:
            return (c * self.rows + r if self.col_major else r * self.cols + c).reshape(-1)
        c0 = 32 // np.dtype(NP[self.dt]).itemsize
        box_col = self.slayout == "col_major"
        br_n, bc_n = (16, 16) if self.fractal == 1024 else ((c0, 16) if box_col else (16, c0))
        br, ir, bc, ic = r // br_n, r % br_n, c // bc_n, c % bc_n
        box = br_n * bc_n
        outer = bc * self.rows * bc_n + br * box if self.col_major else br * self.cols * br_n + bc * box
        inner = ic * br_n + ir if box_col else ir * bc_n + ic
        return (outer + inner).reshape(-1)


class G:
    """A global-memory (GM) matrix: element type, rows x cols, row-major (ND), data kind. The program
    takes it as a pointer argument of its function and views it whole (make_tensor_view,
    partition_view); the harness gives the simulator a GlobalTensor over the same bytes."""

    def __init__(self, dt, rows, cols, data="zero"):
        self.dt, self.rows, self.cols, self.data = dt, rows, cols, data
        self.vr, self.vc, self.col_major, self.slayout = rows, cols, False, None

    def nbytes(self):
        return self.rows * self.cols * np.dtype(NP[self.dt]).itemsize

    def pto(self, whole=False):
        return "!pto.partition_tensor_view<%dx%dx%s>" % (self.rows, self.cols, self.dt)

    def cpp(self):
        n = self.rows * self.cols
        return "GlobalTensor<%s, Shape<1, 1, 1, %d, %d>, Stride<%d, %d, %d, %d, 1>>" % (
            CPP[self.dt], self.rows, self.cols, n, n, n, self.cols)

    def offsets(self):
        return np.arange(self.rows * self.cols)


def case(name, op, tiles, ins, outs, cpp, target="a2a3", scalars=(), attrs="", attrs_at="end", line=None, desc="",
         gm=None, compiler_dependent=""):
    """ins: tile names or ("s", value, type) scalars in the op's order; cpp: the C++ call.
    attrs: the op's attr-dict, written after outs(...) or, with attrs_at="ins", inside ins(...) after
    the last operand (PTOAS's spelling for TGATHER's maskPattern, TCMP's cmpMode...). line: the op's
    whole text instead of the DPS form, with {ins}, {outs}, {in_types}, {out_types} filled in.
    desc: one line on what the case checks (the program's first comment). gm: {name: G(...)}, GM
    matrices named in ins / outs like tiles (the program becomes a function taking them as
    pointers; --in / --expect bind them by argument name). compiler_dependent: why the simulator's
    result is undefined or unspecified C++ (which of two NaNs a `+` keeps) that g++ and clang build
    differently (the golden is g++'s; --cross-check lists such a case apart instead of failing)."""
    return dict(name=name, op=op, tiles=tiles, ins=ins, outs=outs, cpp=cpp, target=target, attrs=attrs,
                attrs_at=attrs_at, line=line, desc=desc, gm=gm or {}, compiler_dependent=compiler_dependent)


def to_bf16_bits(v):
    """float values -> bf16 bit patterns, rounded to nearest even (NaNs stay NaN, payload's top bits kept)."""
    b = np.asarray(v, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(v, dtype=np.float32))
    r[nan] = ((b[nan] >> 16) | 0x40).astype(np.uint16)
    return r


def data(rng, t):
    """Whole-tile logical data for t. Kinds: rand, pos, small, special (floats: NaN with payloads, +-inf,
    +-0, subnormals, max), snan (special plus signalling NaNs), nonzero, shift (integers), zero, ("range", lo, hi) uniform in [lo, hi],
    ("values", [v...]) cycled over the tile."""
    n = t.rows * t.cols
    dt = NP[t.dt]
    kind = t.data
    if isinstance(kind, tuple) or kind == "zero":
        if kind == "zero":
            v = np.zeros(n)
        elif kind[0] == "values":
            v = np.array(kind[1], dtype=np.float64 if t.dt[0] in "fb" else np.int64)[np.arange(n) % len(kind[1])]
        elif t.dt[0] in "fb":
            v = rng.uniform(kind[1], kind[2], n)
        else:
            v = rng.integers(kind[1], kind[2], n, endpoint=True, dtype=np.int64)
        if t.dt == "bf16":
            return to_bf16_bits(v)
        return v.astype(dt) if t.dt[0] == "f" else v.astype(np.int64).astype(dt)  # integers wrap, as C casts do
    if kind == "snan":  # "special", then signalling NaNs (quiet bit clear, payloads kept) at other places
        v = data(rng, T(t.dt, t.rows, t.cols, data="special"))
        bits = {"f32": [0x7F800001, 0xFFA00000, 0x7FBFFFFF], "f16": [0x7C01, 0xFD00, 0x7DFF],
                "bf16": [0x7F81, 0xFFA0, 0x7FBF]}[t.dt]
        u = v.view(np.uint32 if t.dt == "f32" else np.uint16)
        idx = rng.choice(n, size=min(n, 4 * len(bits)), replace=False)
        u[idx] = np.array(bits, dtype=u.dtype)[np.arange(len(idx)) % len(bits)]
        return v
    if t.dt == "bf16":  # the f32 data rounded: its specials hold in bf16 too (the f32 subnormal is a bf16 one)
        return to_bf16_bits(data(rng, T("f32", t.rows, t.cols, data=kind)))
    if t.dt in ("f32", "f16"):
        if kind == "pos":
            v = rng.uniform(0.1, 4.0, n)
        elif kind == "small":
            v = rng.uniform(-2.0, 2.0, n)
        else:
            v = rng.normal(0, 3, n)
        v = v.astype(dt)
        if kind == "special":
            sp = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40 if t.dt == "f32" else 6e-8, 65504 if t.dt == "f16" else 3e38], dtype=np.float64)
            idx = rng.choice(n, size=min(n, 4 * len(sp)), replace=False)
            v[idx] = sp[np.arange(len(idx)) % len(sp)].astype(dt)
        return v
    info = np.iinfo(dt)
    if t.data == "nonzero":
        v = rng.integers(1, min(info.max, 100), n)
        if info.min < 0:
            v = v * np.where(rng.random(n) < 0.5, -1, 1)
        return v.astype(dt)
    if t.data == "shift":
        return rng.integers(0, 8 * np.dtype(dt).itemsize, n).astype(dt)
    if t.data == "small":
        return rng.integers(max(info.min, -9), min(info.max, 9) + 1, n).astype(dt)
    return rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64).astype(dt)


# ---- the cases -------------------------------------------------------------------------------------
def t3(dt, r, c, valid=None, d1="rand", d2="rand"):
    return {"a": T(dt, r, c, valid, data=d1), "b": T(dt, r, c, valid, data=d2), "d": T(dt, r, c, valid)}


def cases():
    out = []
    # elementwise tile-tile: ISA CPU test shapes (f32 64x64, f16 16x256, i16/i32 64x64) and a valid region
    binary = [("tadd", "TADD", "fi"), ("tsub", "TSUB", "fi"), ("tmul", "TMUL", "fi"), ("tdiv", "TDIV", "f"),
              ("tmax", "TMAX", "fi"), ("tmin", "TMIN", "fi"), ("tfmod", "TFMOD", "f"), ("tsubrelu", "TSUBRELU", "fi")]
    for op, C, dom in binary:
        out.append(case("%s_f32_64x64" % op, op, t3("f32", 64, 64, d1="special"), ["a", "b"], ["d"], "%s(d, a, b);" % C))
        out.append(case("%s_f16_16x256" % op, op, t3("f16", 16, 256, d1="special"), ["a", "b"], ["d"], "%s(d, a, b);" % C))
        out.append(case("%s_f32_valid_60x61" % op, op, t3("f32", 64, 64, (60, 61)), ["a", "b"], ["d"], "%s(d, a, b);" % C))
        if "i" in dom:
            out.append(case("%s_i32_64x64" % op, op, t3("i32", 64, 64), ["a", "b"], ["d"], "%s(d, a, b);" % C))
            out.append(case("%s_i16_16x64" % op, op, t3("i16", 16, 64), ["a", "b"], ["d"], "%s(d, a, b);" % C))
    out.append(case("tdiv_i32_64x64_a5", "tdiv", t3("i32", 64, 64, d2="nonzero"), ["a", "b"], ["d"], "TDIV(d, a, b);", "a5"))
    for dt in ("f32", "i32"):
        tl = t3(dt, 32, 64, d2="nonzero" if dt == "i32" else "rand")
        tl["tmp"] = T(dt, 32, 64)
        out.append(case("trem_%s_32x64" % dt, "trem", tl, ["a", "b", "tmp"], ["d"], "TREM(d, a, b, tmp);"))
    tl = t3("f32", 16, 64, d1="pos", d2="small")
    tl["tmp"] = T("f32", 16, 64)
    out.append(case("tpow_f32_16x64", "tpow", tl, ["a", "b", "tmp"], ["d"], "TPOW(d, a, b, tmp);"))
    for op, C in [("tand", "TAND"), ("tor", "TOR")]:
        out.append(case("%s_i16_16x64" % op, op, t3("i16", 16, 64), ["a", "b"], ["d"], "%s(d, a, b);" % C))
    tl = t3("i16", 16, 64)
    tl["tmp"] = T("i16", 16, 64)
    out.append(case("txor_i16_16x64", "txor", tl, ["a", "b", "tmp"], ["d"], "TXOR(d, a, b, tmp);"))
    for op, C in [("tshl", "TSHL"), ("tshr", "TSHR")]:
        out.append(case("%s_i32_16x64" % op, op, t3("i32", 16, 64, d2="shift"), ["a", "b"], ["d"], "%s(d, a, b);" % C))
    for dt in ("f32", "f16"):
        w = 64 if dt == "f32" else 128
        tl = t3(dt, 16, w, d1="special")
        tl["tmp"] = T(dt, 16, w)
        out.append(case("tprelu_%s_16x%d" % (dt, w), "tprelu", tl, ["a", "b", "tmp"], ["d"], "TPRELU(d, a, b, tmp);"))
        tl = t3(dt, 16, w, d1="special")
        tl["c"] = T(dt, 16, w)
        out.append(case("taddc_%s_16x%d" % (dt, w), "taddc", tl, ["a", "b", "c"], ["d"], "TADDC(d, a, b, c);"))
        out.append(case("tsubc_%s_16x%d" % (dt, w), "tsubc", dict(tl), ["a", "b", "c"], ["d"], "TSUBC(d, a, b, c);"))
    # one tile
    unary = [("texp", "TEXP", "small"), ("tlog", "TLOG", "pos"), ("tsqrt", "TSQRT", "pos"), ("trsqrt", "TRSQRT", "pos"),
             ("trecip", "TRECIP", "special"), ("tabs", "TABS", "special"), ("tneg", "TNEG", "special"),
             ("trelu", "TRELU", "special")]
    for op, C, kind in unary:
        out.append(case("%s_f32_32x16" % op, op, {"a": T("f32", 32, 16, data=kind), "d": T("f32", 32, 16)}, ["a"], ["d"], "%s(d, a);" % C))
        out.append(case("%s_f16_64x64" % op, op, {"a": T("f16", 64, 64, data=kind), "d": T("f16", 64, 64)}, ["a"], ["d"], "%s(d, a);" % C))
    out.append(case("tneg_i32_16x64", "tneg", {"a": T("i32", 16, 64), "d": T("i32", 16, 64)}, ["a"], ["d"], "TNEG(d, a);"))
    out.append(case("tnot_i16_16x64", "tnot", {"a": T("i16", 16, 64), "d": T("i16", 16, 64)}, ["a"], ["d"], "TNOT(d, a);"))
    # tile and scalar
    ts = [("tadds", "TADDS", 1.5), ("tsubs", "TSUBS", -2.25), ("tmuls", "TMULS", 0.1), ("tdivs", "TDIVS", 3.0),
          ("tmaxs", "TMAXS", 0.5), ("tmins", "TMINS", 0.5), ("tlrelu", "TLRELU", 0.2)]
    for op, C, k in ts:
        for dt, r, c in (("f32", 32, 64), ("f16", 16, 256)):
            tl = {"a": T(dt, r, c, data="special"), "d": T(dt, r, c)}
            out.append(case("%s_%s_%dx%d" % (op, dt, r, c), op, tl, ["a", ("s", k, "f32")], ["d"],
                            "%s(d, a, (%s)%r);" % (C, CPP[dt], k)))
    out.append(case("tdivs_rev_f32_32x64", "tdivs", {"a": T("f32", 32, 64, data="special"), "d": T("f32", 32, 64)},
                    [("s", 2.0, "f32"), "a"], ["d"], "TDIVS(d, (float)2.0, a);"))
    for op, C, k in [("tadds", "TADDS", 7), ("tmuls", "TMULS", -3), ("tmaxs", "TMAXS", 5)]:
        out.append(case("%s_i32_32x64" % op, op, {"a": T("i32", 32, 64), "d": T("i32", 32, 64)}, ["a", ("s", k, "i32")], ["d"],
                        "%s(d, a, (int32_t)%d);" % (C, k)))
    out.append(case("tshls_i16_16x64", "tshls", {"a": T("i16", 16, 64), "d": T("i16", 16, 64)}, ["a", ("s", 3, "i16")], ["d"],
                    "TSHLS(d, a, (int16_t)3);"))
    for dt in ("f32", "f16"):
        tl = {"a": T(dt, 16, 64 if dt == "f32" else 128, data="special"), "b": T(dt, 16, 64 if dt == "f32" else 128),
              "d": T(dt, 16, 64 if dt == "f32" else 128)}
        out.append(case("taddsc_%s" % dt, "taddsc", tl, ["a", ("s", 1.25, "f32"), "b"], ["d"], "TADDSC(d, a, (%s)1.25, b);" % CPP[dt]))
        tl = {"a": T(dt, 16, 64 if dt == "f32" else 128), "d": T(dt, 16, 64 if dt == "f32" else 128)}
        out.append(case("taxpy_%s" % dt, "taxpy", tl, ["a", ("s", 0.75, "f32")], ["d"], "TAXPY(d, a, (%s)0.75);" % CPP[dt]))
    # reductions: TROWSUM f16 16x256 (float accumulator), TROWMAX f32 32x16 into a valid 32x1, TCOLSUM f16
    for op, C in [("trowsum", "TROWSUM"), ("trowmax", "TROWMAX"), ("trowmin", "TROWMIN")]:
        for dt, r, c in (("f32", 32, 16), ("f16", 16, 256), ("i32", 16, 64)):
            if dt == "i32" and op != "trowsum":
                continue
            tl = {"a": T(dt, r, c, (r - 3, c - 5), data="special" if dt != "i32" else "rand"),
                  "tmp": T(dt, r, c), "d": T(dt, r, 1, (r - 3, 1), col_major=True)}
            out.append(case("%s_%s_%dx%d" % (op, dt, r, c), op, tl, ["a", "tmp"], ["d"], "%s(d, a, tmp);" % C))
    for op, C in [("tcolsum", "TCOLSUM"), ("tcolmax", "TCOLMAX"), ("tcolmin", "TCOLMIN"), ("tcolprod", "TCOLPROD")]:
        for dt, r, c in (("f32", 16, 64), ("f16", 16, 256)):
            tl = {"a": T(dt, r, c, (r - 2, c - 7), data="small" if op == "tcolprod" else "special"), "d": T(dt, 1, c, (1, c - 7))}
            out.append(case("%s_%s_%dx%d" % (op, dt, r, c), op, tl, ["a"], ["d"], "%s(d, a);" % C))
    # expands: row/col expand-op f32 valid 16x16 in 32x32, f16 16x256
    for op, C in [("tcolexpandadd", "TCOLEXPANDADD"), ("tcolexpandsub", "TCOLEXPANDSUB"), ("tcolexpandmul", "TCOLEXPANDMUL"),
                  ("tcolexpanddiv", "TCOLEXPANDDIV"), ("tcolexpandmax", "TCOLEXPANDMAX"), ("tcolexpandmin", "TCOLEXPANDMIN"),
                  ("tcolexpandexpdif", "TCOLEXPANDEXPDIF")]:
        for dt, r, c, v in (("f32", 32, 32, (16, 16)), ("f16", 16, 256, None)):
            vv = v or (r, c)
            tl = {"a": T(dt, r, c, v, data="small"), "b": T(dt, 1, c, (1, vv[1]), data="small"), "d": T(dt, r, c, v)}
            out.append(case("%s_%s_%dx%d" % (op, dt, r, c), op, tl, ["a", "b"], ["d"], "%s(d, a, b);" % C))
    for op, C in [("trowexpandadd", "TROWEXPANDADD"), ("trowexpanddiv", "TROWEXPANDDIV"), ("trowexpandmax", "TROWEXPANDMAX"),
                  ("trowexpandmin", "TROWEXPANDMIN"), ("trowexpandexpdif", "TROWEXPANDEXPDIF"), ("trowexpandmul", "TROWEXPANDMUL"),
                  ("trowexpandsub", "TROWEXPANDSUB")]:
        for dt, r, c in (("f32", 32, 32), ("f16", 16, 256)):
            tl = {"a": T(dt, r, c, (16, c - 8) if dt == "f32" else None, data="small"),
                  "b": T(dt, r, 1, (16 if dt == "f32" else r, 1), col_major=True, data="small"),
                  "d": T(dt, r, c, (16, c - 8) if dt == "f32" else None)}
            out.append(case("%s_%s_%dx%d" % (op, dt, r, c), op, tl, ["a", "b"], ["d"], "%s(d, a, b);" % C))
    out.append(case("trowexpand_f32_32x32", "trowexpand", {"a": T("f32", 32, 1, col_major=True), "d": T("f32", 32, 32, (32, 20))},
                    ["a"], ["d"], "TROWEXPAND(d, a);"))
    out.append(case("tcolexpand_f16_16x64", "tcolexpand", {"a": T("f16", 1, 64, (1, 50)), "d": T("f16", 16, 64, (11, 50))},
                    ["a"], ["d"], "TCOLEXPAND(d, a);"))
    # partial ops: union of the two valid regions
    for op, C in [("tpartadd", "TPARTADD"), ("tpartmax", "TPARTMAX"), ("tpartmin", "TPARTMIN")]:
        tl = {"a": T("f32", 32, 64, (32, 40)), "b": T("f32", 32, 64, (20, 64)), "d": T("f32", 32, 64)}
        out.append(case("%s_f32_32x64" % op, op, tl, ["a", "b"], ["d"], "%s(d, a, b);" % C, "a5"))
    # conversions: ISA CPU cases (f32->i32 RINT, f32->f16, f16->u8, f32->u8 sat ON) and every round mode
    modes = ["NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "CAST_RINT"]
    for m in modes:
        tl = {"a": T("f32", 16, 64, data="special"), "d": T("i32", 16, 64)}
        out.append(case("tcvt_f32_i32_%s" % m.lower(), "tcvt", tl, ["a"], ["d"], "TCVT(d, a, RoundMode::CAST_%s);" % (
            m if m != "CAST_RINT" else "RINT"), attrs="{rmode = #pto<round_mode %s>}" % m))
    for sd, dd, r, c, m, sat in [("f32", "f16", 64, 64, "RINT", False), ("f16", "f32", 16, 64, "RINT", False),
                                 ("f16", "ui8", 64, 64, "RINT", False), ("f32", "i16", 16, 64, "TRUNC", True),
                                 ("f16", "i8", 16, 64, "ROUND", True), ("i32", "f32", 16, 64, "RINT", False),
                                 ("i32", "i16", 16, 64, "RINT", True), ("i16", "f16", 16, 64, "RINT", False),
                                 ("f16", "i32", 16, 64, "FLOOR", False)]:
        tl = {"a": T(sd, r, c, data="special" if sd[0] == "f" else "rand"), "d": T(dd, r, c)}
        call = "TCVT(d, a, RoundMode::CAST_%s%s);" % (m, ", SaturationMode::ON" if sat else "")
        attrs = "{rmode = #pto<round_mode %s>%s}" % (m, ", sat_mode = #pto<saturation_mode ON>" if sat else "")
        out.append(case("tcvt_%s_%s_%s%s" % (sd, dd, m.lower(), "_sat" if sat else ""), "tcvt", tl, ["a"], ["d"], call, attrs=attrs))
    # fill and pad: GM-like 128x127 valid in 128x160 (pad max), u16 min
    out.append(case("tfillpad_f32_max", "tfillpad", {"a": T("f32", 32, 64, (20, 47)), "d": T("f32", 32, 64, pad=2)},
                    ["a"], ["d"], "TFILLPAD(d, a);"))
    out.append(case("tfillpad_u16_min", "tfillpad", {"a": T("ui16", 32, 32, (26, 7)), "d": T("ui16", 32, 32, pad=3)},
                    ["a"], ["d"], "TFILLPAD(d, a);"))
    out.append(case("tfillpad_expand_f16_zero", "tfillpad_expand", {"a": T("f16", 16, 32, (16, 30)), "d": T("f16", 32, 64, pad=1)},
                    ["a"], ["d"], "TFILLPAD_EXPAND(d, a);"))
    return out


# ---- generation ----------------------------------------------------------------------------------
def place(c):
    """Byte addresses, each memory filled from 0 on its own. The simulator keeps scaling and bias
    tiles in its UB buffer (NPUMemoryModel: every location but mat, left, right and acc), so those
    share one count with vec: a vec tile never aliases them there."""
    addr, out = {}, {}
    for name, t in c["tiles"].items():
        mem = "vec" if t.loc in ("scaling", "bias") else t.loc
        out[name] = addr.get(mem, 0)
        addr[mem] = out[name] + (t.nbytes() + 255) // 256 * 256
    return out, addr


def physical(t, logical):
    """Whole-tile logical (rows x cols) data -> the tile's memory order."""
    out = np.empty_like(logical)
    out[t.offsets()] = logical
    return out


def logical_of(t, phys):
    return phys[t.offsets()]


def scalar_text(v, ty):
    return ("%r" % float(v) if ty[0] in "fb" else "%d" % v), ty


def arg(c, name):
    """A case's tile or GM matrix of that name."""
    return c["tiles"][name] if name in c["tiles"] else c["gm"][name]


def gm_prelude(c):
    """The function header and views of a case with GM matrices: %NAME is the pointer argument,
    %NAME_p the whole matrix's partition view (what ins / outs name)."""
    args = ", ".join("%%%s: !pto.ptr<%s>" % (n, g.dt) for n, g in c["gm"].items())
    lines = ["func.func @k(%s) attributes {pto.entry} {" % args, "%c0 = arith.constant 0 : index",
             "%c1 = arith.constant 1 : index"]
    dims = sorted(set(d for g in c["gm"].values() for d in (g.rows, g.cols)))
    lines += ["%%c%d_d = arith.constant %d : index" % (d, d) for d in dims]
    for n, g in c["gm"].items():
        tv = "!pto.tensor_view<?x?x%s>" % g.dt
        lines.append("%%%s_v = pto.make_tensor_view %%%s, shape = [%%c%d_d, %%c%d_d], strides = [%%c%d_d, %%c1] : %s" % (
            n, n, g.rows, g.cols, g.cols, tv))
        lines.append("%%%s_p = pto.partition_view %%%s_v, offsets = [%%c0, %%c0], sizes = [%%c%d_d, %%c%d_d] : %s -> %s" % (
            n, n, g.rows, g.cols, tv, g.pto()))
    return lines


def write_prog(c, addrs, path):
    lines = ["// %s: generated by tests/sim/gen.py%s; expected outputs by pto-isa's CPU simulator." % (
        c["name"], " from cases/" + c["module"] if "module" in c else "")]
    if c["desc"]:
        lines.append("// " + c["desc"])
    head = len(lines)
    for name, t in c["tiles"].items():
        lines.append("pto.tassign %%%s_w, @tile(0x%x)" % (name, addrs[name]))
        lines.append("%%%s_w = pto.alloc_tile : %s" % (name, t.pto(whole=True)))
        lines.append("pto.tassign %%%s, @tile(0x%x)" % (name, addrs[name]))
        lines.append("%%%s = pto.alloc_tile : %s" % (name, t.pto()))
    ins, types = [], []
    for x in c["ins"]:
        if isinstance(x, tuple):
            text, ty = scalar_text(x[1], x[2])
            lines.append("%%k%d = arith.constant %s : %s" % (len(ins), text, ty))
            ins.append("%%k%d" % len(ins))
            types.append(ty)
        else:
            ins.append("%" + x + ("_p" if x in c["gm"] else ""))
            types.append(arg(c, x).pto())
    outs = ["%" + o + ("_p" if o in c["gm"] else "") for o in c["outs"]]
    otypes = [arg(c, o).pto() for o in c["outs"]]
    if c["line"]:
        lines.append(c["line"].format(ins=", ".join(ins), outs=", ".join(outs), in_types=", ".join(types),
                                      out_types=", ".join(otypes)))
    elif c["attrs"] and c["attrs_at"] == "ins":
        lines.append("pto.%s ins(%s %s : %s) outs(%s : %s)" % (c["op"], ", ".join(ins), c["attrs"], ", ".join(types),
                                                           ", ".join(outs), ", ".join(otypes)))
    else:
        attrs = " " + c["attrs"] if c["attrs"] else ""
        lines.append("pto.%s ins(%s : %s) outs(%s : %s)%s" % (c["op"], ", ".join(ins), ", ".join(types), ", ".join(outs),
                                                             ", ".join(otypes), attrs))
    if c["gm"]:  # a function over the GM pointers: the views first, then the tiles and the op
        body = gm_prelude(c) + lines[head:]
        lines = lines[:head] + [body[0]] + ["  " + l for l in body[1:]] + ["  return", "}"]
    open(path, "w").write("\n".join(lines) + "\n")


def harness(cs, idx, tmp, out_tag=""):
    src = ["#include <cstdint>", "#include <cstdio>", "#include <pto/pto-inst.hpp>", "using namespace pto;",
           "static void rd(void *p, size_t n, const char *f) { FILE *h = fopen(f, \"rb\"); if (!h || fread(p, 1, n, h) != n) { fprintf(stderr, \"read %s\\n\", f); } if (h) fclose(h); }",
           "static void wr(const void *p, size_t n, const char *f) { FILE *h = fopen(f, \"wb\"); fwrite(p, 1, n, h); fclose(h); }"]
    for i in idx:
        c = cs[i]
        addrs, _ = place(c)
        body = []
        for name, t in c["tiles"].items():
            body.append("  %s %s(%d, %d); TASSIGN(%s, 0x%x);" % (t.cpp(), name, t.vr, t.vc, name, addrs[name]))
            body.append('  rd(%s.data(), %d, "%s/%d_%s.in");' % (name, t.nbytes(), tmp, i, name))
        for name, g in c["gm"].items():
            body.append("  static %s %s_buf[%d]; %s %s(%s_buf);" % (CPP[g.dt], name, g.rows * g.cols, g.cpp(), name, name))
            body.append('  rd(%s_buf, %d, "%s/%d_%s.in");' % (name, g.nbytes(), tmp, i, name))
        body.append("  " + c["cpp"])
        for o in c["outs"]:
            buf = o + "_buf" if o in c["gm"] else o + ".data()"
            body.append('  wr(%s, %d, "%s/%d_%s.out%s");' % (buf, arg(c, o).nbytes(), tmp, i, o, out_tag))
        src.append("static void case_%d() {\n%s\n}" % (i, "\n".join(body)))
    src.append("int main() {\n%s\n  return 0;\n}" % "\n".join("  case_%d();" % i for i in idx))
    return "\n".join(src) + "\n"


def module_cases():
    """The cases of every tests/sim/cases/<family>.py: each defines cases(T, case) -> [case, ...]."""
    out = []
    folder = os.path.join(HERE, "cases")
    for fn in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not fn.endswith(".py"):
            continue
        spec = importlib.util.spec_from_file_location("simcases_" + fn[:-3], os.path.join(folder, fn))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        got = mod.cases(T, case, G) if mod.cases.__code__.co_argcount > 2 else mod.cases(T, case)
        for c in got:
            c["module"] = fn
        out += got
    return out


def compile_and_run(cs, idx, inc, overlay, tmp, bf16, out_tag=""):
    """Builds one harness over the cases idx and runs it. g++ with the ISA's test flags; cases with a
    bf16 tile need a real std::bfloat16_t, which g++ 12 lacks: clang++-19 in C++23 then, with a
    <stdfloat> that names __bf16 (libstdc++ 12 has none), no bf16 or f16 excess precision (each
    operation rounds, as g++ 12 rounds each _Float16 operation in C++) and compiler-rt's bf16
    helpers."""
    if not idx:
        return
    tag = ("bf16" if bf16 else "std") + out_tag
    cpp = os.path.join(tmp, "h_%s.cpp" % tag)
    open(cpp, "w").write(harness(cs, idx, tmp, out_tag))
    exe = os.path.join(tmp, "h_%s" % tag)
    common = ["-O2", "-DNDEBUG", "-D__CPU_SIM", "-DPTO_CPU_MAX_THREADS=1", "-I", overlay, "-I", inc, cpp, "-o", exe]
    if bf16:
        shim = os.path.join(tmp, "shim")
        os.makedirs(shim, exist_ok=True)
        open(os.path.join(shim, "stdfloat"), "w").write("#pragma once\nnamespace std { using bfloat16_t = __bf16; }\n")
        cmd = ["clang++-19", "-std=c++23", "-isystem", shim, "-D__STDCPP_BFLOAT16_T__=1", "-DPTO_CPU_SIM_ENABLE_BF16",
               "-Xclang", "-fbfloat16-excess-precision=none", "-Xclang", "-ffloat16-excess-precision=none", "--rtlib=compiler-rt", "-unwindlib=libgcc"] + common
    else:
        cmd = ["g++", "-std=c++20"] + common
    subprocess.run(cmd, check=True)
    subprocess.run([exe], check=True)


def cross_check(cs, idx, inc, overlay, tmp):
    """Builds the g++ cases again with the bf16 route's clang++-19 and compares every output bit for
    bit: a difference means clang's vectorisation reordered a float fold (or rounded differently),
    so its bf16 goldens could not be trusted for the ops concerned."""
    compile_and_run(cs, idx, inc, overlay, tmp, True, ".clang")
    bad, known = [], []
    for i in idx:
        differs = False
        for o in cs[i]["outs"]:
            a = open(os.path.join(tmp, "%d_%s.out" % (i, o)), "rb").read()
            b = open(os.path.join(tmp, "%d_%s.out.clang" % (i, o)), "rb").read()
            differs = differs or a != b
        if differs:
            (known if cs[i].get("compiler_dependent") else bad).append(cs[i]["name"])
    print("cross-check: %d of %d g++ cases give the same bits with clang++-19%s%s" % (
        len(idx) - len(bad) - len(known), len(idx), (": differ: " + ", ".join(bad)) if bad else "",
        ("; differ as expected (undefined or unspecified C++, golden from g++): " + ", ".join(known)) if known else ""))
    return not bad


def main(argv):
    check = "--cross-check" in argv
    argv = [a for a in argv if a != "--cross-check"]
    if len(argv) != 3 or argv[1] != "--pto-isa":
        print(__doc__)
        return 2
    inc = os.path.join(os.path.abspath(argv[2]), "include")
    core = cases()
    cs = core + module_cases()
    names = [c["name"] for c in cs]
    dup = sorted(set(n for n in names if names.count(n) > 1))
    if dup:
        sys.exit("gen.py: duplicate case names: %s" % ", ".join(dup))
    tmp = tempfile.mkdtemp(prefix="ptosim_")
    overlay = os.path.join(tmp, "overlay")
    # g++ 12 rejects static_assert(false) in templates that are never instantiated (C++23 allows it)
    subprocess.run("cd '%s' && grep -rl 'static_assert(false' pto | while read f; do mkdir -p '%s'/$(dirname $f); "
                   "sed 's/static_assert(false,/static_assert(true,/' $f > '%s'/$f; done" % (inc, overlay, overlay),
                   shell=True, check=True)
    inputs = {}
    for i, c in enumerate(cs):
        # module cases are seeded by name alone, so adding a case elsewhere never changes their data
        seed = sum(map(ord, c["name"])) * 7919 + i if i < len(core) else zlib.crc32(c["name"].encode())
        rng = np.random.default_rng(seed)
        inputs[i] = {}
        for name, t in list(c["tiles"].items()) + list(c["gm"].items()):
            logical = data(rng, t)
            inputs[i][name] = logical
            physical(t, logical).tofile(os.path.join(tmp, "%d_%s.in" % (i, name)))
    has_bf16 = [any(t.dt == "bf16" for t in list(c["tiles"].values()) + list(c["gm"].values())) for c in cs]
    compile_and_run(cs, [i for i in range(len(cs)) if not has_bf16[i]], inc, overlay, tmp, False)
    compile_and_run(cs, [i for i in range(len(cs)) if has_bf16[i]], inc, overlay, tmp, True)
    if check and not cross_check(cs, [i for i in range(len(cs)) if not has_bf16[i]], inc, overlay, tmp):
        shutil.rmtree(tmp)
        return 1
    lines = ["# Generated by gen.py: NAME then pto-run arguments (relative to tests/sim); suite.sh adds --compare=bits."]
    for i, c in enumerate(cs):
        d = os.path.join(HERE, c["name"])
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        addrs, _ = place(c)
        write_prog(c, addrs, os.path.join(d, "prog.pto"))
        args = ["%s/prog.pto" % c["name"]] + (["--target=a5"] if c["target"] == "a5" else [])
        for name, t in list(c["tiles"].items()) + list(c["gm"].items()):
            inputs[i][name].tofile(os.path.join(d, "%s.bin" % name))
            args += ["--in", "%s%s=%s/%s.bin" % (name, "" if name in c["gm"] else "_w", c["name"], name)]
        for o in c["outs"]:
            t = arg(c, o)
            phys = np.fromfile(os.path.join(tmp, "%d_%s.out" % (i, o)), dtype=NP[t.dt])
            logical_of(t, phys).tofile(os.path.join(d, "%s.expect.bin" % o))
            args += ["--expect", "%s%s=%s/%s.expect.bin" % (o, "" if o in c["gm"] else "_w", c["name"], o)]
        lines.append("%s %s" % (c["name"], " ".join(args)))
    # a case that left the list leaves no folder behind
    for d in os.listdir(HERE):
        if os.path.isfile(os.path.join(HERE, d, "prog.pto")) and d not in names and not d.startswith("neg_"):
            shutil.rmtree(os.path.join(HERE, d))
    # negative control: one bit of one expected element flipped (NaN payload bit of a special): must fail
    src = os.path.join(HERE, "tadd_f32_64x64")
    neg = os.path.join(HERE, "neg_tadd_f32_one_bit")
    shutil.rmtree(neg, ignore_errors=True)
    shutil.copytree(src, neg)
    want = np.fromfile(os.path.join(neg, "d.expect.bin"), dtype=np.uint32)
    want[int(np.flatnonzero(np.isnan(want.view(np.float32)))[0])] ^= 1
    want.tofile(os.path.join(neg, "d.expect.bin"))
    base = [l for l in lines if l.startswith("tadd_f32_64x64 ")][0]
    lines.append(base.replace("tadd_f32_64x64", "neg_tadd_f32_one_bit"))
    open(os.path.join(HERE, "cases.txt"), "w").write("\n".join(lines) + "\n")
    shutil.rmtree(tmp)
    print("%d cases" % len(cs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
