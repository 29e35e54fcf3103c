#!/usr/bin/python3
"""Generates the sample programs samples/*.pto, their data samples/data/* (inputs and expected
outputs computed with numpy by tests/golden/ptogen.py) and samples/README.md, whose
`build/pto-run ...` lines are the commands tests/golden/suite.sh runs.

    /usr/bin/python3 samples/gen.py
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True   # keep the tree free of __pycache__
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'golden'))
from ptogen import DT, S, TT, Prog, arith, rand  # noqa: E402

SAMPLES = []   # (name, title, builder)


def sample(name, title):
    def register(fn):
        SAMPLES.append((name, title, fn))
        return fn
    return register


@sample('tmuls_f32', 'TMULS in a PTOAS-style kernel: load a 32x32 f32 tile from GM argument 0, '
        'multiply by 2.5, store to GM argument 1 (DPS form). `make demo` runs it.')
def tmuls_f32(rng):
    p = Prog('Kernel: arg1 = arg0 * 2.5 on a 32x32 f32 tensor (DPS form, compact tile_buf types).',
             module=True)
    tt = TT('f32', 32, 32)
    src = p.input('src', tt, rand(rng, tt.dt, (32, 32), -3, 3))
    dst = p.tile('dst', tt)
    p.tmuls(dst, src, S(2.5))
    p.output(dst)
    return p


@sample('trowexpandmul_f32', 'TROWEXPANDMUL, bare program: each row of a 16x32 tile times one '
        'value per row from a 16x1 col_major tile (Mode 1). Tiles are bound by name with --in.')
def trowexpandmul_f32(rng):
    p = Prog('dst[i][j] = src0[i][j] * src1[i][0]: Mode 1 row-broadcast multiply (DPS form).\n'
             'Run with --in src0=FILE --in src1=FILE; --expect dst=FILE checks the result.')
    src0 = p.input('src0', TT('f32', 16, 32), rand(rng, DT['f32'], (16, 32), -2, 2))
    src1 = p.input('src1', TT('f32', 16, 1, cm=True), rand(rng, DT['f32'], (16, 1), 1, 2))
    dst = p.tile('dst', TT('f32', 16, 32))
    p.trowexpand('trowexpandmul', dst, src0, src1)
    p.output(dst)
    return p


@sample('trowexpandsub_f16', 'TROWEXPANDSUB in a kernel with three f16 GM pointers: subtract a '
        'per-row value (loaded through a DN view into a col_major tile) from a 16x64 tile; SSA form; '
        'f16 results rounded to nearest even.')
def trowexpandsub_f16(rng):
    p = Prog('Kernel: arg2[i][j] = arg0[i][j] - arg1[i] in f16 (SSA form, keyed tile_buf types).',
             module=True)
    x = p.input('x', TT('f16', 16, 64, spell='k'), rand(rng, DT['f16'], (16, 64)))
    b = p.input('b', TT('f16', 16, 1, cm=True, spell='k'), rand(rng, DT['f16'], (16, 1)))
    dst = p.result('dst', TT('f16', 16, 64, spell='k'))
    p.trowexpand('trowexpandsub', dst, x, b, form='ssa')
    p.output(dst)
    return p


@sample('trowprod_f32', 'TROWPROD in assembly form (no tmp operand): the product of each row of '
        'an 8x64 tile, left to right, into an 8x1 col_major (DN) tile.')
def trowprod_f32(rng):
    p = Prog('dst[i][0] = src[i][0] * src[i][1] * ... * src[i][63] (assembly form, f32).')
    src = p.input('src', TT('f32', 8, 64), rand(rng, DT['f32'], (8, 64), 0.8, 1.25))
    dst = p.result('dst', TT('f32', 8, 1, cm=True))
    p.trowprod(dst, src, form='asm')
    p.output(dst)
    return p


@sample('texpands_i32', 'TEXPANDS with seed-style manual placement (pto.tassign ... @tile(...)): '
        'fill the 12x24 valid region of a 16x32 i32 tile with 7; a second, full view of the same '
        'bytes shows that the rest of the tile stays zero.')
def texpands_i32(rng):
    p = Prog('Manual mode: dst and whole share address 0x1000; texpands writes only dst\'s 12x24\n'
             'valid region, so whole (the full 16x32 view) is 7 there and 0 elsewhere.')
    whole = p.tile('whole', TT('i32', 16, 32), addr=0x1000)
    dst = p.result('dst', TT('i32', 16, 32, valid=(12, 24)), addr=0x1000)
    p.texpands(dst, S(7, 'i32'), form='ssa')
    p.output(dst)
    p.output(whole)
    return p


@sample('chain_f16', 'Three ops in a row on f16 tiles (bare program, mixed spellings): '
        'y = x - rowvalue (TROWEXPANDSUB), z = y * 0.5 (TMULS), p = row products of z (TROWPROD); '
        'every step rounds to f16.')
def chain_f16(rng):
    p = Prog('x: 16x32 f16, r: one value per row. y = x - r; z = y * 0.5; prod[i] = z[i][0] * ...\n'
             'The three spellings: DPS, SSA and assembly form.')
    x = p.input('x', TT('f16', 16, 32), rand(rng, DT['f16'], (16, 32), 1.5, 3.5))
    r = p.input('r', TT('f16', 16, 1, cm=True), rand(rng, DT['f16'], (16, 1), 0, 1))
    y = p.tile('y', TT('f16', 16, 32))
    p.trowexpand('trowexpandsub', y, x, r)
    z = p.result('z', TT('f16', 16, 32))
    p.tmuls(z, y, S(0.5), form='ssa')
    tmp = p.tile('tmp', TT('f16', 16, 32))
    prod = p.result('prod', TT('f16', 16, 1, cm=True))
    p.trowprod(prod, z, tmp, form='asm')
    p.output(z)
    p.output(prod)
    return p


LOOP = '''module {{
  func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %scale = arith.constant {scale} : f32
    %in = pto.make_tensor_view %arg0, shape = [%c64, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %out = pto.make_tensor_view %arg1, shape = [%c64, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %a = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
    %b = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
    scf.for %row = %c0 to %c64 step %c16 {{
      %pin = pto.partition_view %in, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
      %pout = pto.partition_view %out, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
      pto.tload ins(%pin : !pto.partition_tensor_view<16x64xf32>) outs(%a : !pto.tile_buf<vec, 16x64xf32>)
      pto.tmuls ins(%a, %scale : !pto.tile_buf<vec, 16x64xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x64xf32>)
      pto.tstore ins(%b : !pto.tile_buf<vec, 16x64xf32>) outs(%pout : !pto.partition_tensor_view<16x64xf32>)
    }}
    return
  }}
}}'''


@sample('tiled_loop_f32', 'A tiled kernel: scf.for walks a 64x64 f32 tensor in four 16x64 row '
        'blocks (partition_view offsets computed by the loop), tload, tmuls by -0.75, tstore.')
def tiled_loop_f32(rng):
    p = Prog('Kernel: arg1 = arg0 * -0.75 on 64x64 f32, one 16-row block per scf.for iteration.',
             module=True)
    x = rand(rng, DT['f32'], (64, 64))
    s = S(-0.75)
    p.arg('f32', x)
    out = p.arg('f32')
    p.verbatim = LOOP.format(scale=s.literal())
    p.gm[out] = arith(np.multiply, x, s.convert(DT['f32']), DT['f32']).ravel()
    p.expects.append((out, None, 'bin'))
    return p


README_HEAD = '''# Sample programs

Small PTO-AS programs with input data and expected outputs. Every expected output in `data/` was
computed with numpy from the documented semantics of the instructions (`samples/gen.py`, using
the model in `tests/golden/ptogen.py`), not by `pto-run`. Run them from the repository root after
`make`; `pto-run` exits 0 and prints a summary when the result matches.

Module programs (`module { func.func @kernel(%arg0: !pto.ptr<f32>, ...) }`) take one data file per
GM pointer argument: `--in argN=FILE` binds an input, `--expect argN=FILE` compares the buffer after
the run. Bare programs (top-level statements) bind tiles by name: `--in src0=FILE` fills the tile's
valid region where it is defined, `--expect dst=FILE` compares a tile's valid region. Data files are
raw little-endian arrays of the element type (`.bin`), in row-major order of the valid region.

Add `--atol 0 --rtol 0` to compare bit-exactly (the test suite does), `--print NAME` to see a tile
or buffer, `--trace` to follow each operation.

'''


def main():
    lines = [README_HEAD]
    for name, title, build in SAMPLES:
        p = build(np.random.default_rng(2025))
        args = p.write(ROOT, f'samples/{name}.pto', lambda n, role, only, s=name:
                       f'samples/data/{s}' + ('' if only else f'.{n}') + f'.{role}')
        lines += [f'## {name}', '', title, '', '```sh', ' '.join(['build/pto-run'] + args), '```', '']
    with open(os.path.join(ROOT, 'samples', 'README.md'), 'w') as f:
        f.write('\n'.join(lines).rstrip('\n') + '\n\nRegenerate everything with '
                '`/usr/bin/python3 samples/gen.py`.\n')
    print(f'{len(SAMPLES)} samples')


if __name__ == '__main__':
    main()
