#!/usr/bin/python3
"""Generates the golden-output cases of tests/golden:

    /usr/bin/python3 tests/golden/gen.py

writes, for every case, tests/golden/<case>/prog.pto with its input files and expected outputs
(computed by the numpy model of ptogen.py, never by the interpreter), and the manifest cases.txt:
one line per case, `NAME ARGS...`, ARGS being pto-run's arguments relative to tests/golden.
Cases named neg_* are negative controls (a deliberately wrong expected file): pto-run must fail.
Deterministic: every case draws from its own generator seeded by the case name.

Shapes follow the ISA's own test tables (research digest section 8); the three op spellings, both
program styles, both tile_buf spellings, both targets, manual placement (in place, overlapping)
and untouched surroundings are spread over the cases.
"""
import os
import shutil
import sys
import zlib

import numpy as np

sys.dont_write_bytecode = True   # keep the tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ptogen import DT, S, TT, Prog, f32exact, rand  # noqa: E402

CASES = []


def add(name, family, desc, module=False, a5=False, check_order=False, **params):
    CASES.append((name, family, desc, dict(module=module, a5=a5, check_order=check_order), params))


def round_up(n, m):
    return (n + m - 1) // m * m


def surround(p, rng, tt, addr):
    """A full-valid tile aliasing tt at addr, pre-filled with random data; checking it at the end
    shows that everything outside the op's region stayed as it was."""
    full = tt.like(valid=(tt.rows, tt.cols), dyn=False)
    return p.input('whole', full, rand(rng, full.dt, (tt.rows, tt.cols)), addr=addr)


def odd_ints(rng, dt, shape):
    """Small odd integers (-3..7): row products overflow and wrap without collapsing to 0."""
    return (2 * rng.integers(-2, 4, size=shape) + 1).astype(dt.np)


# ---- families --------------------------------------------------------------------------------
def tmuls(p, rng, dt, shape, s, form='dps', spell='c', dcols=None, addrs=(None, None), how='tassign',
          data=None, fmt='bin', inplace_outs=False, tile=None):
    """dst = src * scalar over dst's valid region. dcols: dst tile wider than src (valid = src).
    addrs: manual (src, dst) addresses; a dst address with dcols or tile checks what lies beyond.
    tile: both tiles are tile x ?x?, src allocated with valid = shape, dst allocated full and
    narrowed with set_validshape."""
    R, C = shape
    if tile:
        st = TT(dt, *tile, valid=shape, dyn=True, spell=spell)
        dtt = st.like(valid=tile)
    else:
        st = TT(dt, R, C, spell=spell)
        dtt = TT(dt, R, dcols or C, valid=(R, C), spell=spell)
    a_src, a_dst = addrs
    whole = surround(p, rng, dtt, a_dst) if (dcols or tile) and a_dst is not None else None
    src = p.input('src', st, rand(rng, st.dt, shape) if data is None else data, a_src, how, fmt)
    dst = src if inplace_outs else p.dst('dst', dtt, form, a_dst, how)
    if tile:
        p.set_validshape(dst, R, C)
    p.tmuls(dst, src, s, form)
    if whole:
        p.output(whole, fmt)
    elif dcols and p.module:   # strided store into a pre-filled GM buffer of the dst tile's width
        p.output(dst, fmt, prefill=rand(rng, dtt.dt, (R, dcols)), shape=(R, C), strides=(dcols, 1))
    else:
        p.output(dst, fmt)
    if a_src is not None and dst is not src and a_dst is not None:
        p.output(src, fmt)     # manual placement: the source's bytes are checked as well


def texpands(p, rng, dt, tile, s, valid=None, form='dps', spell='c', dyn=False, addr=None,
             how='tassign', fmt='bin', gm_prefill=False, cm=False, narrow=None):
    """dst(i, j) = scalar over dst's valid region; with addr, a pre-filled alias checks the rest.
    cm: col-major tile (A2A3 only); narrow: set_validshape of the ?x? dst before the op."""
    tt = TT(dt, *tile, valid=valid, dyn=dyn, spell=spell, cm=cm)
    whole = surround(p, rng, tt, addr) if addr is not None else None
    if whole and p.module:     # PTOAS-style rebinding: a second handle on the whole tile's bytes
        p.tile('t', tt)
        p.emit(f'%dst = pto.tassign %t, {p.const(addr, "i64")} : {tt} -> {tt}')
        dst = p._place('dst', tt, addr)
    else:
        dst = p.dst('dst', tt, form, addr, how)
    if narrow:
        p.set_validshape(dst, *narrow)
    p.texpands(dst, s, form)
    prefill = rand(rng, tt.dt, (tt.vr * tt.vc,)) if gm_prefill else None
    p.output(whole or dst, fmt, prefill=prefill)


def trowexpand(p, rng, op, dt, tile, valid, mode, full=0, tmp=False, form='dps', spell='c',
               place=None, surround_dst=False, ints=None, fmt='bin'):
    """op(src0, src1) with one full operand (index `full`) and one expanded operand: Mode 1 a
    col-major Rx1 tile (rows rounded up to a 32-byte block), Mode 2 a row-major R x (32/size)
    tile. place: None (auto), 'outs' (DPS outs names the full operand), 'same' (dst tassigned
    onto the full operand), 'overlap' (dst 256 bytes below the full operand)."""
    d = DT[dt]
    R, C = valid
    ft = TT(d, *tile, valid=valid, spell=spell)
    et = (TT(d, round_up(R, d.block), 1, valid=(R, 1), cm=True, spell=spell) if mode == 1
          else TT(d, R, d.block, spell=spell))
    a_full, a_dst = {None: (None, 0 if surround_dst else None), 'outs': (None, None),
                     'same': (0, 0), 'overlap': (0x100, 0)}[place]
    a_exp = None if a_full is None else 0x10000
    whole = surround(p, rng, ft, a_dst) if surround_dst else None
    x = p.input('x', ft, rand(rng, d, valid, ints=ints), a_full, fmt=fmt)
    e = p.input('e', et, rand(rng, d, (R, et.vc), ints=ints), a_exp, fmt=fmt)
    t = p.tile('tmp', TT(d, 8, 256 * 4 // d.size, spell=spell)) if tmp else None   # 8 KiB scratch
    dst = x if place == 'outs' else p.dst('dst', ft, form, a_dst)
    src0, src1 = (x, e) if full == 0 else (e, x)
    p.trowexpand(op, dst, src0, src1, t, form)
    p.output(whole or dst, fmt)
    if place == 'overlap':
        p.output(x, fmt)


def trowprod(p, rng, dt, tile, valid, drows, nd=False, tmp=True, form='dps', spell='c', dyn=False,
             surround_dst=False, fmt='bin'):
    """dst(i, 0) = product of src row i over src's valid region, left to right. Destination: DN
    (col-major drows x 1) or ND (row-major drows x 16, valid R x 1). dyn: src and tmp have `?`
    valid dims, allocated full and narrowed with set_validshape (module: tload from a strided view
    of a full-size GM array)."""
    d = DT[dt]
    R, C = valid
    x = rand(rng, d, valid, 0.5, 1.5) if d.kind != 'i' else odd_ints(rng, d, valid)
    dtt = TT(d, drows, 16 if nd else 1, valid=(R, 1), cm=not nd, spell=spell)
    whole = surround(p, rng, dtt, 0x8000) if surround_dst else None
    if dyn:
        assert p.module, 'bare programs fill a tile at its definition: use a static valid region'
        st = TT(d, *tile, valid=(R, tile[1]), dyn=True, spell=spell)
        src = p.tile('src', st)
        p.set_validshape(src, R, C)
        full = np.zeros(tile, d.np)
        full[:R, :C] = x
        p.load(src, p.arg(d, full, fmt), shape=(R, C), strides=(tile[1], 1))
    else:
        st = TT(d, *tile, valid=valid, spell=spell)
        src = p.input('src', st, x, fmt=fmt)
    t = None
    if tmp:
        t = p.tile('tmp', st)
        if dyn:
            p.set_validshape(t, R, C)
    dst = p.dst('dst', dtt, form, 0x8000 if surround_dst else None)
    p.trowprod(dst, src, t, form)
    p.output(whole or dst, fmt)


def tmuls_window(p, rng, dt, s):
    """GM windows: a 16x64 block at offsets [8, 32] of a 40x128 input, stored at [4, 16] of a
    pre-filled 24x80 output (partition_view offsets, row strides of the whole tensors)."""
    tt = TT(dt, 16, 64)
    src, dst = p.tile('src', tt), p.tile('dst', tt)
    p.load(src, p.arg(dt, rand(rng, tt.dt, (40, 128))), (40, 128), (128, 1), (8, 32))
    p.tmuls(dst, src, s)
    out = p.arg(dt, rand(rng, tt.dt, (24, 80)))
    p.store(dst, out, (24, 80), (80, 1), (4, 16))
    p.expects.append((out, None, 'bin'))


def f32_special(rng):
    """f32 operands with infinities, NaN, the largest finite values, subnormals and signed zeros."""
    x = rand(rng, DT['f32'], (8, 16))
    x[0, :12] = np.array([np.inf, -np.inf, np.nan, 3.4028235e38, -3.4028235e38, 1e-45, -1e-45,
                          1.1754942e-38, 5e-39, 0.0, -0.0, 1.7014118e38], np.float32)
    return x


# ---- TMULS (digest 8.4) ----------------------------------------------------------------------
add('tmuls_f32_32x64', tmuls, 'TMULS f32 32x64 (CPU case 1), module, DPS, compact types',
    module=True, dt='f32', shape=(32, 64), s=S(f32exact(1.7)))
add('tmuls_f16_63x64', tmuls, 'TMULS f16 63x64 (CPU case 2), bare, SSA, keyed types, immediate scalar',
    dt='f16', shape=(63, 64), s=S(f32exact(-2.3), imm=True), form='ssa', spell='k')
add('tmuls_i32_31x128', tmuls, 'TMULS i32 31x128 (CPU case 3), module, assembly form, i32 constant, wrap',
    module=True, dt='i32', shape=(31, 128), s=S(-7, 'i32'), form='asm', spell='k')
add('tmuls_i16_15x192', tmuls, 'TMULS i16 15x192 (CPU case 4), bare, assembly form on !pto.tile, wrap',
    dt='i16', shape=(15, 192), s=S(-3.0, imm=True), form='asm', spell='t')
add('tmuls_f32_7x448', tmuls, 'TMULS f32 7x448 (CPU case 5), bare, DPS, keyed, seed-style tassign',
    dt='f32', shape=(7, 448), s=S(0.5), spell='k', addrs=(0x0, 0x4000))
add('tmuls_f32_256x16', tmuls, 'TMULS f32 256x16 (CPU case 6), module, SSA, alloc_tile addr =',
    module=True, dt='f32', shape=(256, 16), s=S(f32exact(3.14), hexbits=True), form='ssa',
    addrs=(0x0, 0x4000), how='addr')
for _dt, _s in (('u8', 5), ('u16', 3), ('u32', 7)):
    add(f'tmuls_{_dt}_32x64_a5', tmuls, f'TMULS {_dt} 32x64 (CPU cases 7-9) on A5, bare, wrap',
        a5=True, dt=_dt, shape=(32, 64), s=S(_s, 'i32'), form=('dps', 'ssa', 'asm')[_s % 3])
add('tmuls_f32_dstwide_32x128', tmuls, 'TMULS f32 32x64 into a 32x128 dst (A2A3 case 7), bare, SSA;\n'
    'dst pre-filled through an alias: columns 64..127 must stay', dt='f32', shape=(32, 64),
    s=S(-1.25), form='ssa', dcols=128, addrs=(None, 0x10000))
add('tmuls_f16_dstwide_63x128', tmuls, 'TMULS f16 63x64 into a 63x128 dst (A2A3 case 8), module, DPS;\n'
    'stored through a strided view into a pre-filled GM buffer', module=True, dt='f16',
    shape=(63, 64), s=S(0.75), dcols=128)
add('tmuls_i32_dstwide_31x256_a5', tmuls, 'TMULS i32 31x128 into a 31x256 dst (A5 case 3), module, DPS',
    module=True, a5=True, dt='i32', shape=(31, 128), s=S(5, 'i32'), spell='k', dcols=256)
add('tmuls_f32_dstwide_7x512', tmuls, 'TMULS f32 7x448 into a 7x512 dst (A2A3 case 11), bare, assembly',
    dt='f32', shape=(7, 448), s=S(2.0), form='asm', dcols=512, addrs=(0x0, 0x4000))
add('tmuls_f32_1x16_a5', tmuls, 'TMULS f32 1x16 into a 1x32 dst (A5 case 7), bare, SSA',
    a5=True, dt='f32', shape=(1, 16), s=S(f32exact(0.3)), form='ssa', dcols=32, addrs=(0x40, 0x80))
add('tmuls_f32_inplace_addr', tmuls, 'TMULS in place: src and dst tassigned to the same address, SSA;\n'
    'both names are checked', dt='f32', shape=(16, 64), s=S(f32exact(1.1)), form='ssa',
    addrs=(0x1000, 0x1000))
add('tmuls_f32_inplace_outs', tmuls, 'TMULS in place: DPS outs names the ins tile, module',
    module=True, dt='f32', shape=(16, 64), s=S(-0.5), inplace_outs=True)
add('tmuls_f32_overlap', tmuls, 'TMULS with dst 32 bytes below src (partial overlap), bare, DPS;\n'
    'expected by byte-level aliasing; the result does not depend on element order',
    check_order=True, dt='f32', shape=(16, 16), s=S(3.0), addrs=(0x40, 0x20))
add('tmuls_i32_trunc', tmuls, 'TMULS i32 with f32 scalar -2.75: converted like C++ (toward zero: -2)',
    dt='i32', shape=(16, 32), s=S(-2.75), form='dps')


def f16_special(rng):
    """f16 operands for scalar 1.5: random values (many products are ties) plus subnormal ties,
    overflow (43680 * 1.5 = 65520 ties to inf), signed zeros and the smallest normal."""
    x = rand(rng, DT['f16'], (32, 64))
    tiny = np.arange(1, 65, dtype=np.uint16).view(np.float16)        # subnormals k * 2^-24
    x[0, :] = tiny * np.float16(-1) ** np.arange(64)
    x[1, :8] = np.array([65504, -65504, 43680, 43648, 0.0, -0.0, 6.1035156e-05, 2049],
                        np.float16)
    return x


add('tmuls_f16_ties', tmuls, 'TMULS f16 x 1.5: round to nearest even on ties, subnormals, overflow',
    dt='f16', shape=(32, 64), s=S(1.5), form='ssa', data=f16_special(np.random.default_rng(7)))
add('tmuls_f16_scalar_round', tmuls, 'TMULS f16 with f32 scalar 0.1: the scalar rounds to f16 first',
    module=True, dt='f16', shape=(16, 64), s=S(f32exact(0.1)), spell='k')
add('tmuls_bf16_a5', tmuls, 'TMULS bf16 on A5 (.npy data, bf16 as <u2 bit patterns), module, DPS',
    module=True, a5=True, dt='bf16', shape=(16, 64), s=S(f32exact(1.2345)), fmt='npy')
add('tmuls_f32_setvalid', tmuls, 'TMULS on 32x64 ?x? tiles: src allocated 24x40, dst narrowed to\n'
    '24x40 by set_validshape; pre-filled alias checks the rest (npy data)', dt='f32', shape=(24, 40),
    tile=(32, 64), s=S(f32exact(-0.7)), addrs=(0x0, 0x2000), how='addr', fmt='npy')

add('tmuls_f32_window', tmuls_window, 'TMULS on GM windows: tload/tstore through partition offsets',
    module=True, dt='f32', s=S(f32exact(-1.3)))
add('tmuls_f32_specials', tmuls, 'TMULS f32 x 2.0 on inf, NaN, FLT_MAX (overflow), subnormals, +-0',
    dt='f32', shape=(8, 16), s=S(2.0), data=f32_special(np.random.default_rng(11)))
add('tmuls_f32_negzero', tmuls, 'TMULS f32 x -0.0: signs flip, inf * -0 is NaN', dt='f32',
    shape=(8, 16), s=S(-0.0, imm=True), form='asm', data=f32_special(np.random.default_rng(12)))
add('tmuls_i8_32x64_a5', tmuls, 'TMULS i8 32x64 on A5, wraps', a5=True, dt='i8', shape=(32, 64),
    s=S(-3, 'i32'), form='ssa')

# ---- TEXPANDS (digest 8.3) -------------------------------------------------------------------
add('texpands_f32_64x64', texpands, 'TEXPANDS f32 64x64, module, DPS, f32 constant 3.14',
    module=True, dt='f32', tile=(64, 64), s=S(f32exact(3.14)))
add('texpands_i32_64x64', texpands, 'TEXPANDS i32 64x64, bare, SSA, keyed, i32 constant',
    dt='i32', tile=(64, 64), s=S(-1698898192, 'i32'), form='ssa', spell='k')
add('texpands_i16_64x64', texpands, 'TEXPANDS i16 64x64, bare, assembly form (: f32, !pto.tile)',
    dt='i16', tile=(64, 64), s=S(-12345.0, imm=True), form='asm', spell='t')
add('texpands_f16_64x64', texpands, 'TEXPANDS f16 64x64, module, f32 scalar 0.1 rounded to f16',
    module=True, dt='f16', tile=(64, 64), s=S(f32exact(0.1)), spell='k')
add('texpands_f32_60x60_in_64x64', texpands, 'TEXPANDS f32 valid 60x60 (?x?) in a 64x64 tile, module;\n'
    'pre-filled whole tile loaded, re-bound with PTOAS tassign, whole tile stored',
    module=True, dt='f32', tile=(64, 64), valid=(60, 60), dyn=True, s=S(f32exact(-7.9)), addr=0x0)
add('texpands_i32_60x60_in_64x64', texpands, 'TEXPANDS i32 valid 60x60 in 64x64, bare, SSA, alias check',
    dt='i32', tile=(64, 64), valid=(60, 60), s=S(123456789, 'i32'), form='ssa', addr=0x2000)
add('texpands_f16_1x3600_in_2x4096', texpands, 'TEXPANDS f16 1x3600 in a 2x4096 tile, module, f16 '
    'constant 0x4100 (bit pattern);\nstored into a pre-filled GM buffer', module=True, dt='f16', tile=(2, 4096),
    valid=(1, 3600), s=S(2.5, 'f16', hexbits=True), gm_prefill=True)
add('texpands_i16_16x200_in_20x512', texpands, 'TEXPANDS i16 16x200 in 20x512, bare, DPS keyed, alias',
    dt='i16', tile=(20, 512), valid=(16, 200), s=S(-30000, 'i16'), spell='k', addr=0x0, how='addr')
add('texpands_i8_16x200_in_20x512', texpands, 'TEXPANDS i8 16x200 in 20x512 (A2A3), bare, SSA immediate',
    dt='i8', tile=(20, 512), valid=(16, 200), s=S(-7, 'i8', imm=True), form='ssa', addr=0x0)
add('texpands_bf16_64x64', texpands, 'TEXPANDS bf16 64x64 (A2A3 only), bare, f32 scalar rounded to bf16',
    dt='bf16', tile=(64, 64), s=S(f32exact(3.14159)), fmt='npy')
add('texpands_u32_a5', texpands, 'TEXPANDS u32 16x64 on A5, assembly form, scalar 4000000000.0',
    a5=True, dt='u32', tile=(16, 64), s=S(4000000000.0), form='asm')

add('texpands_f32_colmajor', texpands, 'TEXPANDS into a col_major 16x8 f32 tile, valid 12x5 (A2A3);\n'
    'the pre-filled full view is compared in logical row-major order', dt='f32', tile=(16, 8),
    valid=(12, 5), cm=True, s=S(f32exact(6.02)), addr=0x400)
add('texpands_i16_colmajor_module', texpands, 'TEXPANDS col_major 32x16 i16 valid 20x9, module: DN tload\n'
    'and tstore of the whole multi-column tile', module=True, dt='i16', tile=(32, 16), valid=(20, 9),
    cm=True, s=S(-2, 'i16'), addr=0x0)
add('texpands_f32_setvalid_zero', texpands, 'TEXPANDS on a ?x? tile narrowed to 0x16: writes nothing',
    dt='f32', tile=(16, 16), dyn=True, narrow=(0, 16), s=S(1.0), addr=0x100, how='addr')

# ---- TROWPROD (digest 8.2) -------------------------------------------------------------------
_A2A3_F32 = [((1, 8), (1, 8)), ((1, 16), (1, 16)), ((1, 128), (1, 128)), ((1, 8), (1, 5)),
             ((1, 16), (1, 11)), ((3, 8), (2, 8)), ((3, 24), (2, 16)), ((4, 16), (3, 9))]
for _i, (_tile, _valid) in enumerate(_A2A3_F32):
    _form = ('dps', 'ssa', 'asm', 'asm')[_i % 4]
    add(f'trowprod_f32_c{_i + 1}_{_tile[0]}x{_tile[1]}v{_valid[0]}x{_valid[1]}', trowprod,
        f'TROWPROD f32 (A2A3 case {_i + 1}) into a DN 8x1 dst, {_form}'
        + (', no tmp' if _i % 4 == 2 else ''), module=(_i == 2), dt='f32', tile=_tile,
        valid=_valid, drows=8, form=_form, tmp=(_i % 4 != 2), spell='ck'[_i % 2],
        surround_dst=(_i in (5, 7)))
add('trowprod_f16_c9_1x16', trowprod, 'TROWPROD f16 1x16 (A2A3 case 9), DN 16x1, SSA',
    dt='f16', tile=(1, 16), valid=(1, 16), drows=16, form='ssa')
add('trowprod_f16_c10_26x32v19x26', trowprod, 'TROWPROD f16 26x32 valid 19x26 into DN 32x1 (A2A3 case '
    '10);\nf16 rounding at every step, dst pre-filled (rows 19..31 must stay)',
    dt='f16', tile=(26, 32), valid=(19, 26), drows=32, surround_dst=True)
for _i, (_tile, _valid) in enumerate([((1, 128), (1, 128)), ((1, 8), (1, 5)), ((3, 24), (2, 16))]):
    add(f'trowprod_i32_{_tile[0]}x{_tile[1]}v{_valid[0]}x{_valid[1]}', trowprod,
        'TROWPROD i32 (A2A3 cases 13-15), odd factors, wraps', dt='i32', tile=_tile, valid=_valid,
        drows=8, form=('dps', 'asm', 'ssa')[_i], module=(_i == 1))
add('trowprod_i16_1x16', trowprod, 'TROWPROD i16 1x16 (A2A3 case 16), DN 16x1',
    dt='i16', tile=(1, 16), valid=(1, 16), drows=16, spell='k')
add('trowprod_i16_c17_26x32v19x32', trowprod, 'TROWPROD i16 26x32 valid 19x32 (A2A3 case 17): overflow wraps',
    dt='i16', tile=(26, 32), valid=(19, 32), drows=32, form='asm', tmp=False)
add('trowprod_f32_127x64v63_nd_a5', trowprod, 'TROWPROD f32 127x64 valid 127x63 (A5 case 1) into ND 127x16;\n'
    'dynamic valid (set_validshape), tload through a strided view', module=True, a5=True,
    dt='f32', tile=(127, 64), valid=(127, 63), drows=127, nd=True, dyn=True)
add('trowprod_f32_7x448v447_nd_a5', trowprod, 'TROWPROD f32 7x448 valid 7x447 (A5 case 5), ND 7x16 dst;\n'
    'pre-filled: columns 1..15 must stay', a5=True, dt='f32', tile=(7, 448), valid=(7, 447), drows=7,
    nd=True, form='ssa', spell='k', surround_dst=True)
add('trowprod_i32_31x128v127_nd_a5', trowprod, 'TROWPROD i32 31x128 valid 31x127 (A5 case 13), ND dst',
    module=True, a5=True, dt='i32', tile=(31, 128), valid=(31, 127), drows=31, nd=True, dyn=True)
add('trowprod_f16_256x16v15_nd_a5', trowprod, 'TROWPROD f16 256x16 valid 256x15 (A5 case 6), ND 256x16',
    a5=True, dt='f16', tile=(256, 16), valid=(256, 15), drows=256, nd=True, form='asm')
add('trowprod_i16_63x64_nd_a5', trowprod, 'TROWPROD i16 63x64 (A5 case 17), ND dst, wraps',
    a5=True, dt='i16', tile=(63, 64), valid=(63, 64), drows=63, nd=True, spell='k')
add('trowprod_f32_8x1024_dn_a5', trowprod, 'TROWPROD f32 8x1024 (A5 case 10) into DN 8x1, module, DN store',
    module=True, a5=True, dt='f32', tile=(8, 1024), valid=(8, 1024), drows=8)

# ---- TROWEXPANDMUL / TROWEXPANDSUB (digest 8.1) -----------------------------------------------
_SHAPES = {'16x16': ((16, 16), (16, 16)), '16x16in32x32': ((32, 32), (16, 16)),
           '1x16384': ((1, 16384), (1, 16384)), '2048x8v1': ((2048, 8), (2048, 1)),
           '2048x8': ((2048, 8), (2048, 8)),
           '16x32': ((16, 32), (16, 32)), '64x64': ((64, 64), (64, 64)), '16x256': ((16, 256), (16, 256)),
           '16x64': ((16, 64), (16, 64)), '24x64': ((24, 64), (24, 64))}


def rowexp(op, dt, shape, mode, desc, **kw):
    tile, valid = _SHAPES[shape]
    tags = [f'm{mode}'] + (['src1full' if op.endswith('mul') else 'src0exp'] if kw.get('full') else [])
    tags += ['tmp'] if kw.get('tmp') else []
    tags += [kw['place']] if kw.get('place') else []
    add(f'{op}_{dt}_{shape}_{"_".join(tags)}' + ('_a5' if kw.get('a5') else ''), trowexpand,
        f'{op.upper()} {dt} tile {tile[0]}x{tile[1]} valid {valid[0]}x{valid[1]}, Mode {mode}; {desc}',
        op=op, dt=dt, tile=tile, valid=valid, mode=mode, **kw)


for _op in ('trowexpandmul', 'trowexpandsub'):
    _n = 'MUL' if _op.endswith('mul') else 'SUB'
    rowexp(_op, 'f32', '16x16', 1, f'A2A3 {_n} case 1, bare, DPS in place (outs = src0)', place='outs')
    rowexp(_op, 'f32', '16x16in32x32', 1, f'A2A3 {_n} case 2, SSA, dst tassigned onto src0;\n'
           'whole 32x32 pre-filled, only 16x16 may change', form='ssa', place='same', surround_dst=True)
    rowexp(_op, 'f16', '16x16', 1, f'A2A3 {_n} case 3, assembly form, f16 rounding', form='asm')
    rowexp(_op, 'f32', '1x16384', 1, f'A2A3 {_n} case 5, module, DN load of the 1x1 operand',
           module=True)
    rowexp(_op, 'f32', '2048x8', 1, f'A2A3 {_n} case 6 with all 8 columns valid (2048x1 would make\n'
           'both operands match dst, which the seed forbids), SSA, keyed', form='ssa', spell='k',
           place='same')
    rowexp(_op, 'f32', '16x16', 2, f'A2A3 {_n} case 7, DPS, 16x8 row-major operand')
    rowexp(_op, 'f32', '16x16in32x32', 2, f'A2A3 {_n} case 8, assembly', form='asm')
    rowexp(_op, 'f16', '16x32', 2, 'f16 Mode 2 (16-wide block), module, keyed', module=True, spell='k')
    rowexp(_op, 'f32', '16x16', 1, f'A2A3 {_n} case 13: src0 is the expanded operand', full=1)
    rowexp(_op, 'f32', '16x16', 2, f'A2A3 {_n} case 14: src0 expanded, SSA', full=1, form='ssa')
    rowexp(_op, 'f32', '16x16in32x32', 1, f'A2A3 {_n} case 15, with an 8 KiB tmp', tmp=True)
    rowexp(_op, 'f16', '16x16', 1, f'A2A3 {_n} case 16, with tmp, SSA', tmp=True, form='ssa')
    rowexp(_op, 'f32', '64x64', 1, 'CPU table, module, DN 64x1 operand', module=True, spell='k')
rowexp('trowexpandmul', 'f32', '1x16384', 2, 'A2A3 MUL case 11, bare, 1x8 operand', place='same')
rowexp('trowexpandmul', 'f32', '2048x8v1', 2, 'A2A3 MUL case 12, 2048x8 row-major operand')
rowexp('trowexpandmul', 'f32', '2048x8', 1, 'A2A3 MUL case 18 (8 columns valid), with tmp, module',
       tmp=True, module=True)
rowexp('trowexpandmul', 'i32', '16x16', 1, 'A2A3 MUL case 19, full-range values wrap')
rowexp('trowexpandmul', 'i32', '16x16', 2, 'A2A3 MUL case 20, SSA', form='ssa')
rowexp('trowexpandmul', 'i16', '16x16', 1, 'A2A3 MUL case 21, wraps, module', module=True)
rowexp('trowexpandmul', 'i16', '16x32', 2, 'i16 Mode 2 (A2A3 case 22 widened to 32 columns)', form='asm')
rowexp('trowexpandmul', 'i16', '16x256', 1, 'CPU table, keyed', spell='k')
rowexp('trowexpandmul', 'i32', '64x64', 1, 'CPU table, SSA', form='ssa')
rowexp('trowexpandmul', 'u16', '16x64', 1, 'A5 table, wraps', a5=True)
rowexp('trowexpandmul', 'u32', '16x32', 1, 'A5 table, wraps, module', a5=True, module=True)
rowexp('trowexpandmul', 'f16', '16x64', 1, 'A5: src1 full (32x64 in the A5 table), SSA', a5=True,
       full=1, form='ssa')
rowexp('trowexpandmul', 'f32', '16x16', 1, 'dst 256 bytes below src0 (partial overlap), bare;\n'
       'expected by byte-level aliasing, element order does not matter', place='overlap',
       check_order=True)
rowexp('trowexpandsub', 'f16', '16x64', 2, 'A5 SUB: src0 expanded, dst = broadcast(src0) - src1',
       a5=True, full=1)
rowexp('trowexpandsub', 'f32', '24x64', 2, 'A5 SUB table, module', a5=True, module=True)
rowexp('trowexpandsub', 'f16', '16x256', 1, 'CPU table, f16 rounding, assembly', form='asm')

# ---- negative controls: one element of an expected file changed, pto-run must report it ------
NEGATIVES = [  # (base case, label, flat index, how)
    ('tmuls_f32_32x64', 'f32_1ulp', 100, 'ulp'),
    ('tmuls_f16_ties', 'f16_tie_1ulp', 70, 'ulp'),
    ('tmuls_bf16_a5', 'bf16_1ulp', 5, 'ulp'),
    ('trowprod_i16_c17_26x32v19x32', 'i16_off_by_one', 3, 'ulp'),
    ('texpands_f32_60x60_in_64x64', 'untouched_corner', 64 * 64 - 1, 'ulp'),
    ('trowexpandsub_f32_16x16_m1_src0exp', 'sub_order', None, 'negate'),
]


def negative(p, args, index, how):
    """A copy of a case whose first expected file is wrong in one element (or negated)."""
    i = next(k for k, a in enumerate(args) if a.startswith('--expect '))
    name, path = args[i][len('--expect '):].split('=', 1)
    obj = p.expects[0][1]
    want = np.array(p.gm[name] if obj is None else obj.valid())
    if how == 'negate':
        want = np.negative(want)
    else:
        bits = want.reshape(-1).view({1: np.uint8, 2: np.uint16, 4: np.uint32}[want.itemsize])
        bits[index] += 1
    stem, fmt = path.rsplit('.', 1)
    wrong = f'{stem}.wrong.{fmt}'
    if fmt == 'npy':
        np.save(os.path.join(HERE, wrong), want)
    else:
        want.tofile(os.path.join(HERE, wrong))
    return args[:i] + [f'--expect {name}={wrong}'] + args[i + 1:]


README = '''# Golden-output tests

Each directory holds one program (`prog.pto`), its inputs and its expected outputs
(`*.expect.bin` / `*.expect.npy`), all written by `gen.py`; the expected outputs come from the
numpy model in `ptogen.py` (documented semantics, byte-level UB aliasing), never from `pto-run`.
`cases.txt` lists each case with its `pto-run` arguments; `suite.sh BUILD_DIR` runs them (and the
commands of `samples/README.md`) with `--atol 0 --rtol 0`. Regenerate with
`/usr/bin/python3 tests/golden/gen.py` (deterministic).

Forms: dps `pto.OP ins(..) outs(..)`, ssa `%d = pto.OP ... : (..) -> T`, asm `%d = OP ... : ..`.
Types: c compact `!pto.tile_buf<vec, RxCxT, ...>`, k keyed `!pto.tile_buf<loc=vec, dtype=...>`,
t `!pto.tile<vec, RxCxT>`. Style: module (GM pointers, tload/tstore) or bare (tiles bound by name).

| case | style | target | form | types | what |
|---|---|---|---|---|---|
'''


def write_readme():
    rows = []
    for name, _, desc, popts, params in CASES:
        rows.append('| %s | %s | %s | %s | %s | %s |' % (
            name, 'module' if popts['module'] else 'bare', 'a5' if popts['a5'] else 'a2a3',
            params.get('form', 'dps'), params.get('spell', 'c'), desc.replace('\n', ' ')))
    negs = ['', 'Negative controls (must fail): ' + ', '.join(
        f'`neg_{label}` ({base}, {how})' for base, label, _, how in NEGATIVES) + '.']
    with open(os.path.join(HERE, 'README.md'), 'w') as f:
        f.write(README + '\n'.join(rows + negs) + '\n')


def main():
    manifest = ['# Generated by gen.py: NAME then pto-run arguments (relative to tests/golden).',
                '# suite.sh adds --atol 0 --rtol 0; neg_* cases must fail.']
    built = {}
    for old in os.listdir(HERE):       # directories of cases that no longer exist
        if os.path.isfile(os.path.join(HERE, old, 'prog.pto')) and old not in [c[0] for c in CASES]:
            shutil.rmtree(os.path.join(HERE, old))
    for name, family, desc, popts, params in CASES:
        shutil.rmtree(os.path.join(HERE, name), ignore_errors=True)
        p = Prog(f'{name}: {desc}\nGenerated by tests/golden/gen.py; expected outputs by numpy.',
                 **popts)
        family(p, np.random.default_rng(zlib.crc32(name.encode())), **params)
        args = p.write(HERE, f'{name}/prog.pto',
                       lambda n, role, only, c=name: f'{c}/{n}' + ('.expect' if role == 'expect' else ''))
        built[name] = (p, args)
        manifest.append(' '.join([name] + args))
    assert len(built) == len(CASES), 'duplicate case name'
    for base, label, index, how in NEGATIVES:
        manifest.append(' '.join([f'neg_{label}'] + negative(*built[base], index, how)))
    with open(os.path.join(HERE, 'cases.txt'), 'w') as f:
        f.write('\n'.join(manifest) + '\n')
    write_readme()
    print(f'{len(CASES)} cases, {len(NEGATIVES)} negative controls')


if __name__ == '__main__':
    main()
