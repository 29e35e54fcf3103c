# Gather/scatter and quantisation (ir/ops_gather.def): TGATHER index and mask forms, TGATHERB,
# TSCATTER, TQUANT INT8 SYM/ASYM, TDEQUANT. Shapes after pto-isa's CPU STs (tgather
# case1_float_P0101 / P1111: src (4+5)x(64+32) with valid 4x64, dst 4x64). Every case is DPS:
# these ops write only part of their destination (pto-as refuses the result form).
# Format: see tests/sim/README.md (tile and scalar are predefined).

CASES = []


def add(**case):
    case.setdefault("form", "dps")
    CASES.append(case)


PATTERNS = ("P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111")

# ---- TGATHER mask form: the selected columns of every valid src row, packed from dst(0,0) --------
for pat in ("P0101", "P1111"):
    add(name=f"tgather_case1_float_{pat}", op="tgather",
        tiles=dict(s=tile("f32", 9, 96, valid=(4, 64)), d=tile("f32", 4, 64)),
        ins=["s"], outs=["d"], attrs=f"{{maskPattern = #pto.mask_pattern<{pat}>}}",
        cpp=f"TGATHER<decltype(d), decltype(s), MaskPattern::{pat}>(d, s);", specials=True,
        desc=f"TGATHER mask {pat}, the ISA's case1_float_{pat} shapes")
for pat, dt in zip(PATTERNS, ("i16", "f16", "u32", "i32", "f32", "u16", "bf16")):
    add(name=f"tgather_mask_{pat}_{dt}_6x24_in_8x32", op="tgather",
        tiles=dict(s=tile(dt, 8, 32, valid=(6, 24)), d=tile(dt, 8, 32)),
        ins=["s"], outs=["d"], attrs=f"{{maskPattern = #pto.mask_pattern<{pat}>}}",
        cpp=f"TGATHER<decltype(d), decltype(s), MaskPattern::{pat}>(d, s);", specials=True,
        desc=f"TGATHER mask {pat} {dt}, src valid 6x24: dst past the stream stays")

# ---- TGATHER index form: dst(r,c) = src[flat idx] over src's physical tile; out of range -> 0 ------
for dt in ("f32", "f16", "i16", "i32"):
    add(name=f"tgather_index_{dt}_8x32", op="tgather",
        tiles=dict(s=tile(dt, 8, 32), i=tile("i32", 8, 32), t=tile("i32", 8, 32), d=tile(dt, 8, 32)),
        ins=["s", "i", "t"], outs=["d"], data=dict(i=("range", -16, 271), t="zero"),
        cpp="TGATHER(d, s, i, t);", desc=f"TGATHER index form {dt}: indices in [-16, 271] over 256 elements")
add(name="tgather_index_f32_src_valid_5x20_dst_3x32", op="tgather",
    tiles=dict(s=tile("f32", 8, 32, valid=(5, 20)), i=tile("i32", 4, 32, valid=(3, 32)),
               t=tile("i32", 4, 32, valid=(3, 32)), d=tile("f32", 4, 32, valid=(3, 32))),
    ins=["s", "i", "t"], outs=["d"], data=dict(i=("range", 0, 255), t="zero"),
    cpp="TGATHER(d, s, i, t);", desc="TGATHER index form: src addressed physically past its valid 5x20; dst rows 3 of 4")
add(name="tgather_index_u32_f32", op="tgather",
    tiles=dict(s=tile("f32", 4, 16), i=tile("u32", 4, 16), t=tile("u32", 4, 16), d=tile("f32", 4, 16)),
    ins=["s", "i", "t"], outs=["d"], data=dict(i=("values", [0, 5, 63, 64, 4294967295, 2147483648]), t="zero"),
    cpp="TGATHER(d, s, i, t);", desc="TGATHER index form with unsigned indices (huge ones give 0)")

# ---- TGATHERB: 32-byte blocks from byte offsets; a block past src's end leaves dst alone ------------
for dt in ("f32", "f16", "i8"):
    add(name=f"tgatherb_{dt}_8x64_bytes", op="tgatherb",
        tiles=dict(s=tile(dt, 8, 1024 // 8 // {"f32": 4, "f16": 2, "i8": 1}[dt]),
                   o=tile("u32", 8, 8), d=tile(dt, 8, 128 // {"f32": 4, "f16": 2, "i8": 1}[dt])),
        ins=["s", "o"], outs=["d"], data=dict(o=("range", 0, 1000)),
        cpp="TGATHERB(d, s, o);", desc=f"TGATHERB {dt}: 4 blocks per row, offsets in [0, 1000] of 1024 bytes")

# ---- TSCATTER: dst raw element idx(i,j) = src(i,j); the rest of dst stays ------------------------
add(name="tscatter_case_float_2x32_1x32", op="tscatter",
    tiles=dict(s=tile("f32", 2, 32), i=tile("i32", 1, 32), d=tile("f32", 2, 32)),
    ins=["s", "i"], outs=["d"], data=dict(i=("range", 0, 63)),
    cpp="TSCATTER(d, s, i);",
    desc="TSCATTER f32, 1x32 indexes into 2x32 (the ISA's case_float_uint16_2x32_1x32 shapes, i32 indexes as PTOAS requires)")
for dt, it in (("f16", "i16"), ("i32", "u32"), ("i8", "u16"), ("bf16", "i16")):
    add(name=f"tscatter_{dt}_{it}_4x32", op="tscatter",
        tiles=dict(s=tile(dt, 4, 32), i=tile(it, 4, 32, valid=(3, 32)), d=tile(dt, 4, 64)),
        ins=["s", "i"], outs=["d"], data=dict(i=("range", 0, 255)),
        cpp="TSCATTER(d, s, i);", desc=f"TSCATTER {dt} with {it} indexes (valid 3x32) into 4x64")

# ---- TQUANT INT8: rint (ties to even) of s * fp(r, 0) [+ off(r, 0)], clamped ------------------------
TIES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, 127.5, 128.0, -127.5, -128.5, -129.0, 300.0, -300.0, 3.25, -7.75]
add(name="tquant_int8_sym_ties", op="tquant",
    tiles=dict(s=tile("f32", 4, 32), f=tile("f32", 4, 8, valid=(4, 1)), d=tile("i8", 4, 32)),
    ins=["s", "f"], outs=["d"], attrs="{quant_type = #pto<quant_type INT8_SYM>}", attrs_at="end",
    data=dict(s=("values", TIES), f=("values", [1.0, 0.5, 2.0])),
    cpp="TQUANT<QuantType::INT8_SYM>(d, s, f);", desc="TQUANT INT8_SYM: ties to even, clamps at -128/127")
add(name="tquant_int8_sym_random", op="tquant",
    tiles=dict(s=tile("f32", 8, 64, valid=(7, 50)), f=tile("f32", 8, 8, valid=(3, 1)), d=tile("i8", 8, 64)),
    ins=["s", "f"], outs=["d"], attrs="{quant_type = #pto<quant_type INT8_SYM>}", attrs_at="end",
    data=dict(f=("range", 0.5, 40.0)),
    cpp="TQUANT<QuantType::INT8_SYM>(d, s, f);", desc="TQUANT INT8_SYM: fp rows past its valid 3 reuse row 2")
add(name="tquant_int8_asym_ties", op="tquant",
    tiles=dict(s=tile("f32", 4, 32), f=tile("f32", 4, 8, valid=(4, 1)), o=tile("f32", 4, 8, valid=(4, 1)),
               d=tile("u8", 4, 32)),
    ins=["s", "f", "o"], outs=["d"], attrs="{quant_type = #pto<quant_type INT8_ASYM>}", attrs_at="end",
    data=dict(s=("values", TIES), f=("values", [1.0, 0.5]), o=("values", [0.0, 128.0, 127.5])),
    cpp="TQUANT<QuantType::INT8_ASYM>(d, s, f, &o);", desc="TQUANT INT8_ASYM: s * fp + off, ties to even, clamps at 0/255")

# ---- TDEQUANT: (float(s) - off) * scale, parameter column min(c, scale valid cols - 1) ---------------
for dt in ("i8", "i16"):
    add(name=f"tdequant_{dt}_4x32", op="tdequant",
        tiles=dict(s=tile(dt, 4, 32), c=tile("f32", 4, 8, valid=(4, 3)), o=tile("f32", 4, 8, valid=(4, 3)),
                   d=tile("f32", 4, 32)),
        ins=["s", "c", "o"], outs=["d"],
        cpp="TDEQUANT(d, s, c, o);", desc=f"TDEQUANT {dt}: columns past 2 use parameter column 2")
