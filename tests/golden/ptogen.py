"""ptogen - write a PTO-AS test program and compute its expected results with numpy.

A Prog collects the text of a program (a bare-statement program, or a module with one kernel taking
GM pointers) and, as each statement is added, executes the statement's documented semantics
(SPEC.md section 2, the seed documents, pto-isa-digest.md section 4) on a numpy model:

  * UB is one byte array; a manually placed tile (tassign / alloc_tile addr=) is a numpy view of it,
    so tiles that overlap alias byte for byte. An auto-placed tile gets private zeroed storage.
  * a GM pointer argument is a 1-D numpy array; views address it with element strides.
  * f16 / bf16 results are rounded to nearest even after each operation (computed in f32, which is
    exact or innocuous double rounding for a single mul/sub); integers wrap in their own width;
    scalars convert to the tile dtype like a C++ argument conversion (float -> int truncates).
  * an op reads all its operands, then writes the iterated region (TROWPROD: the source's valid
    rows, column 0); everything else is left untouched.

Nothing here runs pto-run: expected outputs come only from this model.
"""
import os
from decimal import Decimal

import numpy as np

UB_BYTES = 256 * 1024          # A5 UB; A2A3 programs keep their manual tiles below 192 KiB


class DType:
    def __init__(self, name, storage, kind):
        self.name, self.np, self.kind = name, np.dtype(storage).newbyteorder('<'), kind
        self.size = self.np.itemsize
        self.block = 32 // self.size             # elements in one 32-byte block (Mode 2 width)


DT = {n: DType(n, s, k) for n, s, k in [
    ('f32', np.float32, 'f'), ('f16', np.float16, 'f'), ('bf16', np.uint16, 'bf'),
    ('i8', np.int8, 'i'), ('u8', np.uint8, 'i'), ('i16', np.int16, 'i'), ('u16', np.uint16, 'i'),
    ('i32', np.int32, 'i'), ('u32', np.uint32, 'i')]}


# ---- numerics --------------------------------------------------------------------------------
def bf16_from_f32(x):
    """float32 -> bf16 bit patterns (uint16), round to nearest, ties to even (finite inputs)."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    half, one = np.uint64(16), np.uint64(1)
    return ((b + np.uint64(0x7FFF) + ((b >> half) & one)) >> half).astype(np.uint16)


def to_f32(a, dt):
    if dt.kind == 'bf':
        return np.left_shift(np.asarray(a).astype(np.uint32), np.uint32(16)).view(np.float32)
    return np.asarray(a).astype(np.float32)


def from_f32(x, dt):
    x = np.asarray(x, np.float32)
    with np.errstate(over='ignore'):               # f16 overflow to inf is the IEEE result
        return bf16_from_f32(x) if dt.kind == 'bf' else x.astype(dt.np)


def arith(fn, a, b, dt):
    """One primitive operation in dtype dt: floats via f32 then one rounding, integers wrap."""
    if dt.kind == 'i':
        return fn(np.asarray(a, dt.np), np.asarray(b, dt.np)).astype(dt.np)
    with np.errstate(over='ignore', invalid='ignore'):   # inf and NaN are the IEEE results
        return from_f32(fn(to_f32(a, dt), to_f32(b, dt)), dt)


def rand(rng, dt, shape, lo=-8.0, hi=8.0, ints=None):
    """Random data: floats uniform [lo, hi); integers uniform over `ints` (default: full range)."""
    if dt.kind == 'i':
        info = np.iinfo(dt.np)
        lo_i, hi_i = ints if ints else (int(info.min), int(info.max) + 1)
        return rng.integers(lo_i, hi_i, size=shape, dtype=np.int64).astype(dt.np)
    return from_f32(rng.uniform(lo, hi, size=shape).astype(np.float32), dt)


def bits_of(values, dt):
    return np.asarray(values, dt.np).view({1: np.uint8, 2: np.uint16, 4: np.uint32}[dt.size])


# ---- scalars ---------------------------------------------------------------------------------
class S:
    """A scalar operand: value as written, its type, and how it is spelled (constant or immediate)."""
    def __init__(self, value, ty='f32', imm=False, hexbits=False):
        self.value, self.ty, self.imm, self.hexbits = value, ty, imm, hexbits
        if DT[ty].kind != 'i':   # keep literals exact in their type: no parser-rounding questions
            assert float(DT[ty].np.type(value)) == float(value), f'{value} not exact in {ty}'

    def literal(self):
        dt = DT[self.ty]
        if dt.kind == 'i':
            return str(int(self.value))
        if self.hexbits:
            return '0x%0*X' % (2 * dt.size, int(bits_of(dt.np.type(self.value), dt)))
        s = format(Decimal(float(self.value)), 'f')
        return s if '.' in s else s + '.0'

    def convert(self, dt):
        """The scalar as TileData::DType (C++ argument conversion)."""
        if dt.kind == 'i':
            v = int(self.value) if DT[self.ty].kind == 'i' else int(np.trunc(float(self.value)))
            info = np.iinfo(dt.np)
            assert info.min <= v <= info.max, 'scalar out of range: C++ conversion undefined'
            return np.asarray(v).astype(dt.np)
        return from_f32(np.float32(self.value), dt)


def f32exact(x):
    """The float32 nearest to x, as a Python float (for writing exact literals)."""
    return float(np.float32(x))


# ---- tile types ------------------------------------------------------------------------------
class TT:
    """A tile type. spell: 'c' compact tile_buf, 'k' keyed tile_buf, 't' !pto.tile<compact>."""
    def __init__(self, dt, rows, cols, valid=None, cm=False, dyn=False, spell='c'):
        self.dt = DT[dt] if isinstance(dt, str) else dt
        self.rows, self.cols, self.cm, self.dyn, self.spell = rows, cols, cm, dyn, spell
        self.vr, self.vc = valid or (rows, cols)
        assert 0 < self.vr <= rows and 0 < self.vc <= cols
        major = rows if cm else cols
        assert major * self.dt.size % 32 == 0, f'illegal tile {self}: 32-byte rule'

    def like(self, **kw):
        a = dict(dt=self.dt, rows=self.rows, cols=self.cols, valid=(self.vr, self.vc), cm=self.cm,
                 dyn=self.dyn, spell=self.spell)
        a.update(kw)
        return TT(**a)

    @property
    def nbytes(self):
        return self.rows * self.cols * self.dt.size

    def __str__(self):
        d, layout = self.dt.name, 'col_major' if self.cm else 'row_major'
        if self.spell == 'k':
            vr, vc = ('?', '?') if self.dyn else (self.vr, self.vc)
            return (f'!pto.tile_buf<loc=vec, dtype={d}, rows={self.rows}, cols={self.cols}, '
                    f'v_row={vr}, v_col={vc}, blayout={layout}, slayout=none_box, fractal=512, pad=0>')
        items = [f'vec, {self.rows}x{self.cols}x{d}']
        if self.dyn:
            items.append('valid=?x?')
        elif (self.vr, self.vc) != (self.rows, self.cols):
            items.append(f'valid={self.vr}x{self.vc}')
        if self.cm:
            items.append('blayout=col_major')
        return '!pto.%s<%s>' % ('tile' if self.spell == 't' else 'tile_buf', ', '.join(items))


class Tile:
    def __init__(self, name, tt, view, addr):
        self.name, self.tt, self.view, self.addr = name, tt, view, addr
        self.vr, self.vc = tt.vr, tt.vc          # current valid region (set_validshape changes it)

    @property
    def dt(self):
        return self.tt.dt

    def valid(self):
        return self.view[:self.vr, :self.vc]


# ---- programs --------------------------------------------------------------------------------
class Prog:
    def __init__(self, desc, module=False, a5=False, check_order=False):
        self.desc, self.module, self.a5 = desc, module, a5
        self.check_order = check_order   # assert the result does not depend on element order
        self.lines, self.consts, self.counter = [], set(), 0
        self.ub = np.zeros(UB_BYTES, np.uint8)
        self.args, self.gm = [], {}          # GM pointer arguments: [(name, dt)], name -> array
        self.ins, self.expects = [], []      # [(name, array|None, fmt)]; expects filled at write
        self.verbatim = None                 # program text written by hand (model set by caller)

    # -- text helpers
    def emit(self, line):
        self.lines.append(line)

    def fresh(self, base):
        self.counter += 1
        return f'%{base}{self.counter}'

    def const(self, value, ty='index'):
        name = f'%c{value}' + ('' if ty == 'index' else f'_{ty}')
        if name not in self.consts:
            self.consts.add(name)
            self.emit(f'{name} = arith.constant {value} : {ty}')
        return name

    def scalar(self, s):
        if s.imm:
            return s.literal()
        name = self.fresh('cst')
        self.emit(f'{name} = arith.constant {s.literal()} : {s.ty}')
        return name

    # -- tiles
    def _place(self, name, tt, addr):
        if addr is None:
            buf, off = np.zeros(tt.nbytes, np.uint8), 0
        else:
            # A2A3: stay below the hidden row-expand scratch [0x2E000, 0x30000) of the A2A3 kernels
            assert addr % 32 == 0 and addr + tt.nbytes <= (UB_BYTES if self.a5 else 0x2E000)
            buf, off = self.ub, addr
        sz = tt.dt.size
        strides = (sz, tt.rows * sz) if tt.cm else (tt.cols * sz, sz)
        view = np.ndarray((tt.rows, tt.cols), dtype=tt.dt.np, buffer=buf, offset=off, strides=strides)
        return Tile(name, tt, view, addr)

    def tile(self, name, tt, addr=None, how='tassign', data=None, fmt='bin'):
        """%name = pto.alloc_tile; placed by a seed-style tassign written before it, or by `addr =`.
        In a bare program `data` is bound with --in NAME=file (fills the valid region)."""
        clauses = []
        if addr is not None and how == 'tassign':
            self.emit(f'pto.tassign %{name}, @tile(0x{addr:X})')
        elif addr is not None:
            clauses.append(f'addr = {self.const(addr, "i64")}')
        if tt.dyn:
            clauses += [f'valid_row = {self.const(tt.vr)}', f'valid_col = {self.const(tt.vc)}']
        self.emit(f'%{name} = pto.alloc_tile{"".join(" " + c for c in clauses)} : {tt}')
        t = self._place(name, tt, addr)
        if data is not None:
            assert not self.module
            t.valid()[...] = data
            self.ins.append((name, np.array(t.valid()), fmt))
        return t

    def result(self, name, tt, addr=None):
        """A tile defined by an SSA-form op (placed by a forward tassign when addr is given)."""
        if addr is not None:
            self.emit(f'pto.tassign %{name}, @tile(0x{addr:X})')
        return self._place(name, tt, addr)

    def dst(self, name, tt, form, addr=None, how='tassign'):
        return self.tile(name, tt, addr, how) if form == 'dps' else self.result(name, tt, addr)

    def set_validshape(self, t, vr, vc):
        assert t.tt.dyn and vr <= t.tt.rows and vc <= t.tt.cols
        self.emit(f'pto.set_validshape %{t.name}, {self.const(vr)}, {self.const(vc)} : {t.tt}')
        t.vr, t.vc = vr, vc

    # -- GM (module programs)
    def arg(self, dt, data=None, fmt='bin'):
        name = f'arg{len(self.args)}'
        self.args.append((name, DT[dt] if isinstance(dt, str) else dt))
        self.gm[name] = None
        if data is not None:
            self.gm[name] = np.array(data, self.args[-1][1].np).ravel()
            self.ins.append((name, self.gm[name].copy(), fmt))
        return name

    def _view(self, arg, t, shape, strides, offsets, dn):
        dt = t.dt
        reach = 1 + sum((n - 1) * s for n, s in zip(shape, strides))
        if self.gm[arg] is None:
            self.gm[arg] = np.zeros(reach, dt.np)       # created zero-filled, as large as the view
        assert reach <= self.gm[arg].size
        dims = ', '.join(self.const(n) for n in shape)
        strd = ', '.join(self.const(s) for s in strides)
        v, p = self.fresh('tv'), self.fresh('pv')
        attr = ' {layout = #pto.layout<dn>}' if dn else ''
        tv = f'!pto.tensor_view<?x?x{dt.name}>'
        self.emit(f'{v} = pto.make_tensor_view %{arg}, shape = [{dims}], strides = [{strd}]{attr} : {tv}')
        sizes = (t.vr, t.vc)
        pt = f'!pto.partition_tensor_view<{sizes[0]}x{sizes[1]}x{dt.name}>'
        offs = ', '.join(self.const(o) for o in offsets)
        self.emit(f'{p} = pto.partition_view {v}, offsets = [{offs}], sizes = '
                  f'[{self.const(sizes[0])}, {self.const(sizes[1])}] : {tv} -> {pt}')
        r, c = np.meshgrid(np.arange(sizes[0]), np.arange(sizes[1]), indexing='ij')
        index = (offsets[0] + r) * strides[0] + (offsets[1] + c) * strides[1]
        assert all(o + n <= d for o, n, d in zip(offsets, sizes, shape)), 'partition outside view'
        return p, pt, index

    def _gm_layout(self, t, shape, strides):
        """Default view: exactly the valid region, ND (row-major) or DN for a col-major tile."""
        shape = shape or (t.vr, t.vc)
        return shape, strides or ((1, shape[0]) if t.tt.cm else (shape[1], 1))

    def load(self, t, arg, shape=None, strides=None, offsets=(0, 0)):
        shape, strides = self._gm_layout(t, shape, strides)
        p, pt, index = self._view(arg, t, shape, strides, offsets, t.tt.cm)
        self.emit(f'pto.tload ins({p} : {pt}) outs(%{t.name} : {t.tt})')
        t.valid()[...] = self.gm[arg][index]

    def store(self, t, arg, shape=None, strides=None, offsets=(0, 0)):
        shape, strides = self._gm_layout(t, shape, strides)
        p, pt, index = self._view(arg, t, shape, strides, offsets, t.tt.cm)
        self.emit(f'pto.tstore ins(%{t.name} : {t.tt}) outs({p} : {pt})')
        self.gm[arg][index] = t.valid()

    # -- style-independent input / output
    def input(self, name, tt, data, addr=None, how='tassign', fmt='bin'):
        """A tile holding `data` in its valid region: --in NAME (bare) or GM argument + tload."""
        if not self.module:
            return self.tile(name, tt, addr, how, data=data, fmt=fmt)
        t = self.tile(name, tt, addr, how)
        self.load(t, self.arg(tt.dt, np.asarray(data, tt.dt.np), fmt), (tt.vr, tt.vc))
        return t

    def output(self, t, fmt='bin', prefill=None, **view):
        """Checks t's valid region at the end: --expect NAME (bare) or tstore to a GM argument."""
        if not self.module:
            self.expects.append((t.name, t, fmt))
            return
        arg = self.arg(t.dt, prefill, fmt)
        self.store(t, arg, **view)
        self.expects.append((arg, None, fmt))

    # -- the five seed ops (form: 'dps', 'ssa' or 'asm')
    def _write(self, dst, R, C, compute, col0=False):
        """Writes compute() into dst's region [0,R) x [0,C) (col0: column 0 only)."""
        region = (slice(0, R), slice(0, 1) if col0 else slice(0, C))
        if self.check_order and dst.addr is not None and not col0:
            saved = self.ub.copy()
            for i in range(R):               # element by element, row-major, reading memory live
                for j in range(C):
                    dst.view[i, j] = compute()[i, j]
            sequential = self.ub.copy()
            self.ub[...] = saved
        result = compute()
        dst.view[region] = result.reshape(R, 1 if col0 else C)
        if self.check_order and dst.addr is not None and not col0:
            assert (self.ub == sequential).all(), 'result depends on the element order'

    def _emit_op(self, op, form, dst, operands, types, scalar_first=False):
        vals, tys = ', '.join(operands), ', '.join(str(t) for t in types)
        if form == 'dps':
            self.emit(f'pto.{op} ins({vals} : {tys}) outs(%{dst.name} : {dst.tt})')
        elif form == 'ssa':
            sig = f'{tys} -> {dst.tt}' if scalar_first else f'({tys}) -> {dst.tt}'
            self.emit(f'%{dst.name} = pto.{op} {vals} : {sig}')
        else:
            self.emit(f'%{dst.name} = {op} {vals} : {tys} -> {dst.tt}')

    def tmuls(self, dst, src, s, form='dps'):
        c = self.scalar(s)
        if form == 'asm' and str(dst.tt) == str(src.tt):   # result type implied by the source
            self.emit(f'%{dst.name} = tmuls %{src.name}, {c} : {src.tt}, {s.ty}')
        else:
            self._emit_op('tmuls', form, dst, [f'%{src.name}', c], [src.tt, s.ty])
        R, C, v = dst.vr, dst.vc, s.convert(dst.dt)
        self._write(dst, R, C, lambda: arith(np.multiply, src.view[:R, :C], v, dst.dt))

    def texpands(self, dst, s, form='dps'):
        c = self.scalar(s)
        if form == 'asm':
            self.emit(f'%{dst.name} = texpands {c} : {s.ty}, {dst.tt}')
        else:
            self._emit_op('texpands', form, dst, [c], [s.ty], scalar_first=True)
        R, C, v = dst.vr, dst.vc, s.convert(dst.dt)
        self._write(dst, R, C, lambda: np.full((R, C), v, dst.dt.np))

    def trowexpand(self, op, dst, src0, src1, tmp=None, form='dps'):
        srcs = [src0, src1] + ([tmp] if tmp else [])
        self._emit_op(op, form, dst, [f'%{t.name}' for t in srcs], [t.tt for t in srcs])
        R, C, dt = dst.vr, dst.vc, dst.dt
        full = [(t.vr, t.vc) == (R, C) for t in (src0, src1)]
        assert sum(full) == 1, 'exactly one operand has the valid shape of dst'

        def operand(t):
            if (t.vr, t.vc) == (R, C):
                return t.view[:R, :C]
            assert t.vr == R
            if t.tt.cm:                                   # Mode 1: one value per row
                assert t.vc == 1
                return np.repeat(t.view[:R, :1], C, axis=1)
            assert t.vc == dt.block                       # Mode 2: a 32-byte block per row
            return t.view[:R, np.arange(C) % dt.block]

        fn = {'trowexpandmul': np.multiply, 'trowexpandsub': np.subtract}[op]
        self._write(dst, R, C, lambda: arith(fn, operand(src0), operand(src1), dt))

    def trowprod(self, dst, src, tmp=None, form='dps'):
        if form == 'asm' and tmp is None:
            self.emit(f'%{dst.name} = trowprod %{src.name} : {src.tt} -> {dst.tt}')
        else:
            self._emit_op('trowprod', form, dst, [f'%{src.name}', f'%{tmp.name}'], [src.tt, tmp.tt])
        R, C, dt = src.vr, src.vc, src.dt
        assert dst.vr == R and dst.vc == 1

        def product():
            p = from_f32(np.ones(R, np.float32), dt)
            for j in range(C):                            # left to right, rounding at each step
                p = arith(np.multiply, p, src.view[:R, j], dt)
            return p
        self._write(dst, R, 1, product, col0=True)

    # -- output
    def text(self):
        head = [f'// {line}' for line in self.desc.strip().splitlines()]
        if self.verbatim is not None:
            return '\n'.join(head + [self.verbatim.rstrip('\n')]) + '\n'
        if not self.module:
            return '\n'.join(head + self.lines) + '\n'
        attrs = ' attributes {pto.target_arch = "a5"}' if self.a5 else ''
        params = ', '.join(f'%{n}: !pto.ptr<{dt.name}>' for n, dt in self.args)
        body = ['    ' + line for line in self.lines]
        return '\n'.join(head + [f'module{attrs} {{', f'  func.func @kernel({params}) {{'] + body +
                         ['    return', '  }', '}']) + '\n'

    def write(self, root, prog_path, data_path):
        """Writes the program and its data files under root; returns the pto-run arguments
        (paths relative to root). data_path(name, role, only) names a file; role 'in'/'expect',
        only = it is the only file of that role."""
        def save(path, arr, fmt):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            arr = np.ascontiguousarray(arr)
            if fmt == 'npy':
                np.save(full, arr)
            else:
                arr.tofile(full)

        os.makedirs(os.path.dirname(os.path.join(root, prog_path)), exist_ok=True)
        with open(os.path.join(root, prog_path), 'w') as f:
            f.write(self.text())
        args = [prog_path] + (['--target=a5'] if self.a5 and not self.module else [])
        for role, items in (('in', self.ins), ('expect', self.expects)):
            for name, obj, fmt in items:
                path = data_path(name, role, len(items) == 1) + '.' + fmt
                if role == 'in':
                    arr = obj
                elif obj is None:
                    arr = self.gm[name]
                else:
                    arr = obj.valid()
                save(path, arr, fmt)
                args.append(f'--{role} {name}={path}')
        return args
