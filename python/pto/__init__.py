"""pto - the PTO-AS toolchain from Python, on numpy.

    import numpy as np, pto
    m = pto.compile("samples/tmuls_f32.pto")                  # text or a path; raises pto.CompileError
    out = m.run(inputs={"arg0": np.ones((32, 32), np.float32)})
    out["arg1"]                                               # float32 array, shape (32, 32)

A thin layer over libpto.so (api/pto.h) through ctypes; docs/python.md describes both.
"""
import ctypes
import os
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from . import _capi

_lib, library_path = _capi.load()
__version__ = _lib.pto_version().decode()

__all__ = ["compile", "verify", "Module", "Arg", "Diagnostic", "Result", "Error", "CompileError", "RunError",
           "BindingError", "numpy_dtype", "bf16_to_f32", "f32_to_bf16", "library_path", "__version__"]

try:  # bf16 arrays: ml_dtypes.bfloat16 when installed, else their 16-bit patterns as uint16
    import ml_dtypes as _ml_dtypes
    _BF16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:
    _BF16 = None

_NUMPY = {"f16": np.float16, "f32": np.float32, "i8": np.int8, "ui8": np.uint8, "i16": np.int16, "ui16": np.uint16,
          "i32": np.int32, "ui32": np.uint32, "i64": np.int64, "ui64": np.uint64, "i1": np.bool_, "index": np.int64}
# the 8-bit floats (A5 MX operands and scales) travel as their raw bytes
_NUMPY.update({name: np.uint8 for name in ("f8E4M3FN", "f8E4M3", "f8E5M2", "f8E8M0FNU", "f8E4M3FNUZ", "f8E4M3B11FNUZ",
                                          "f8E5M2FNUZ")})


def numpy_dtype(dtype: str, bf16_as_uint16: bool = False) -> np.dtype:
    """The numpy dtype holding a PTO-AS dtype ("f32" -> float32). bf16 is ml_dtypes.bfloat16 when
    ml_dtypes is importable (and bf16_as_uint16 is false), else uint16 holding the bit patterns; the
    8-bit floats (f8E4M3FN, f8E5M2, f8E8M0FNU, ...) are uint8 holding their bytes."""
    if dtype == "bf16":
        return _BF16 if (_BF16 is not None and not bf16_as_uint16) else np.dtype(np.uint16)
    if dtype not in _NUMPY:
        raise ValueError(f"unknown PTO-AS dtype '{dtype}'")
    return np.dtype(_NUMPY[dtype])


def bf16_to_f32(bits) -> np.ndarray:
    """Widens bf16 values (uint16 bit patterns or ml_dtypes.bfloat16) to float32, exactly."""
    a = np.ascontiguousarray(bits)
    u = a.view(np.uint16) if a.dtype.itemsize == 2 else a.astype(np.uint16)
    return (u.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values) -> np.ndarray:
    """Rounds float32 values to bf16 bit patterns (uint16), to nearest even; NaN stays NaN."""
    f = np.ascontiguousarray(values, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), rounded)


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of the parser, verifier or interpreter."""
    file: str
    line: int            # 1-based; 0 when not located
    column: int
    end_line: int        # one past the construct (equal to line/column for a point)
    end_column: int
    severity: str        # "error", "warning" or "note"
    rule: Optional[str]  # rule ID ("TMULS.dtype", docs/rules.md), None when the diagnostic has none
    message: str

    def __str__(self):
        where = f"{self.file}:{self.line}:{self.column}: " if self.line else (f"{self.file}: " if self.file else "")
        return f"{where}{self.severity}: {self.message}" + (f" [{self.rule}]" if self.rule else "")


@dataclass(frozen=True)
class Arg:
    """An argument of a function: kind "gm" (a !pto.ptr buffer), "tile", "scalar" or "other"."""
    name: str
    kind: str
    dtype: Optional[str]
    shape: Optional[Tuple[int, ...]]  # a tile's valid shape (-1 dynamic); None for the other kinds


class Error(Exception):
    """Base class of the package's errors; `diagnostics` lists the located ones (may be empty)."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class CompileError(Error):
    """The program does not parse or verify (or an I/O problem reading it); see `diagnostics`."""


class RunError(Error):
    """The run stopped with a run-time error; `diagnostics` says where."""


class BindingError(Error, ValueError):
    """An input, scalar or output does not fit the entry (unknown name, wrong dtype or size)."""


def _diagnostics(handle):
    out = []
    d = _capi.Diagnostic_t()
    for i in range(_lib.pto_diags_count(handle)):
        _lib.pto_diags_get(handle, i, ctypes.byref(d))
        out.append(Diagnostic(d.file.decode(errors="replace"), d.line, d.column, d.end_line, d.end_column,
                              _capi.SEVERITIES.get(d.severity, "error"), d.rule.decode() or None,
                              d.message.decode(errors="replace")))
    return out


def _encode(s):
    return None if s is None else s.encode()


def _compile(source, target, entry, werror):
    """(module handle or None, status, diagnostics, diagnostics as text)."""
    mod, diags = ctypes.c_void_p(), ctypes.c_void_p()
    flags = _capi.COMPILE_WERROR if werror else 0
    is_path = isinstance(source, str) and "\n" not in source and (os.path.isfile(source) or source.endswith(".pto"))
    if isinstance(source, os.PathLike) or is_path:
        status = _lib.pto_compile_file(os.fsencode(source), _encode(target), _encode(entry), flags,
                                       ctypes.byref(mod), ctypes.byref(diags))
    else:
        text = source.encode() if isinstance(source, str) else bytes(source)
        status = _lib.pto_compile(text, len(text), b"<string>", _encode(target), _encode(entry), flags,
                                  ctypes.byref(mod), ctypes.byref(diags))
    try:
        found = _diagnostics(diags)
        text = (_lib.pto_diags_text(diags) or b"").decode(errors="replace")
    finally:
        _lib.pto_diags_free(diags)
    return (mod if status == _capi.OK else None), status, found, text


def verify(source, target: Optional[str] = None, entry: Optional[str] = None, werror: bool = False):
    """Parses and verifies a program (its text, or the path of a .pto file) for `target` ("a2a3",
    "a5"; None: the module's pto.target_arch, else a2a3); returns every diagnostic (an empty list
    for a clean program). Raises ValueError for an unknown target."""
    mod, status, found, _ = _compile(source, target, entry, werror)
    if status == _capi.ERR_ARGUMENT:
        raise ValueError(found[0].message if found else "bad argument")
    _lib.pto_module_free(mod)
    return found


def compile(source, target: Optional[str] = None, entry: Optional[str] = None, werror: bool = False) -> "Module":
    """Parses and verifies a program (its text, or the path of a .pto file; a str naming an
    existing file, or ending in .pto, without a newline is a path) and returns a Module. Raises CompileError, carrying
    the diagnostics, when it has errors or cannot be read, ValueError for an unknown target."""
    mod, status, found, text = _compile(source, target, entry, werror)
    if status == _capi.ERR_ARGUMENT:
        raise ValueError(found[0].message if found else "bad argument")
    if status != _capi.OK:
        errors = [d for d in found if d.severity == "error"]
        first = str(errors[0]) if errors else _lib.pto_status_name(status).decode()
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise CompileError(first + more, found)
    return Module(mod, [d for d in found if d.severity != "error"], text)


class Result(dict):
    """The outputs of a run, by name, plus what the run printed (`output`: pto.tprint, trace), its
    diagnostics (--check-sync notes and warnings) and its executed `steps`."""
    output: str = ""
    diagnostics: list = []
    steps: int = 0


class Module:
    """A verified program. `target` is the profile it was verified for, `functions` the names of
    its functions, `entry` the default entry (None when the program has several and none is marked),
    `warnings` the compile's warnings."""

    def __init__(self, handle, warnings, text):
        self._h = handle
        self.warnings = warnings
        self._text = text
        self.target = _lib.pto_module_target(handle).decode()
        self.functions = [_lib.pto_module_func_name(handle, i).decode()
                          for i in range(_lib.pto_module_func_count(handle))]
        e = _lib.pto_module_default_entry(handle)
        self.entry = e.decode() if e else None

    def __del__(self):
        handle, self._h = getattr(self, "_h", None), None
        if handle and _lib is not None:  # at interpreter exit the module's globals may be gone
            _lib.pto_module_free(handle)

    def __repr__(self):
        return f"<pto.Module target={self.target} functions={self.functions}>"

    def args(self, entry: Optional[str] = None):
        """The arguments of `entry` (default: the module's entry) as Arg objects."""
        n = _lib.pto_module_arg_count(self._h, _encode(entry))
        if n < 0:
            raise BindingError(f"the module has no function @{entry}" if entry else
                               "the module has several functions and none is marked pto.entry: name the entry")
        out = []
        a = _capi.Arg_t()
        for i in range(n):
            _lib.pto_module_arg(self._h, _encode(entry), i, ctypes.byref(a))
            kind = _capi.ARG_KINDS.get(a.kind, "other")
            out.append(Arg(a.name.decode(), kind, _capi.DTYPES.get(a.dtype),
                           tuple(a.shape[k] for k in range(a.rank)) if kind == "tile" else None))
        return out

    def run(self, entry: Optional[str] = None, inputs=None, scalars=None, blocks: int = 1, outputs=None,
            max_steps: int = 0, check_sync=False, trace: bool = False, bf16_as_uint16: bool = False,
            check_init: bool = False) -> Result:
        """Runs `entry` (default: the module's entry) once per block index 0..blocks-1.

        inputs:  {name: ndarray} for GM pointer arguments (arg0 or its name; the buffer gets exactly
                 the array's elements and remembers its shape) and tiles (their valid region). The
                 array's dtype must be the argument's (bf16: uint16 bit patterns or
                 ml_dtypes.bfloat16); BindingError otherwise. A GM buffer without input starts as
                 zeros, sized by the views the kernel makes on it.
        scalars: {name: number} for every scalar argument (floats are rounded once to its type).
        outputs: names to return (GM pointer arguments, tiles, views); None returns every GM
            pointer argument of the entry.
        check_sync: False, True (auto) or "strict" (pto-run --check-sync); check_init: pto-run
                 --check-init. Their reports are in the Result's diagnostics; an error among them
                 raises RunError.
        Returns a Result: {name: ndarray} in the buffer's dtype (bf16 as numpy_dtype("bf16")) and
        shape (the input's shape, else the first contiguous view made on it, else 1-D; tiles: their
        valid region, rows x cols). Raises RunError on a run-time error."""
        arglist = self.args(entry)
        flags = (_capi.RUN_TRACE if trace else 0) | (_capi.RUN_CHECK_INIT if check_init else 0) | (
            _capi.RUN_CHECK_SYNC_STRICT if check_sync == "strict" else _capi.RUN_CHECK_SYNC if check_sync else 0)
        if not isinstance(blocks, (int, np.integer)) or not 1 <= blocks <= 65536:
            raise ValueError(f"blocks must be an integer from 1 to 65536, got {blocks!r}")
        inputs = dict(inputs or {})
        scalars = dict(scalars or {})
        missing = [a.name for a in arglist if a.kind == "scalar" and a.name not in scalars
                   and f"%{a.name}" not in scalars and f"arg{arglist.index(a)}" not in scalars]
        if missing:
            raise BindingError(f"scalar argument{'s' if len(missing) > 1 else ''} "
                               f"{', '.join('%' + n for n in missing)} need{'' if len(missing) > 1 else 's'} a value "
                               "(scalars={...})")
        run = ctypes.c_void_p()
        status = _lib.pto_run_new(self._h, _encode(entry), int(blocks), int(max_steps), flags, ctypes.byref(run))
        if not run:
            raise MemoryError("pto: cannot make a run")
        try:
            if status != _capi.OK:
                raise (BindingError if status == _capi.ERR_ARGUMENT else RunError)(
                    _lib.pto_run_message(run).decode(), _diagnostics(_lib.pto_run_diagnostics(run)))
            for name, value in inputs.items():
                self._bind(run, name, value)
            for name, value in scalars.items():
                self._set_scalar(run, name, value)
            if outputs is None:
                outputs = [a.name for a in arglist if a.kind == "gm"]
            status = _lib.pto_run_execute(run)
            diags = _diagnostics(_lib.pto_run_diagnostics(run))
            if status != _capi.OK:
                text = (_lib.pto_diags_text(_lib.pto_run_diagnostics(run)) or b"").decode(errors="replace")
                errors = [d for d in diags if d.severity == "error"]
                raise RunError(str(errors[0]) if errors else _lib.pto_run_message(run).decode(), diags) \
                    from (RuntimeError(text) if text else None)
            result = Result()
            for name in outputs:
                result[name] = self._fetch(run, name, bf16_as_uint16)
            result.output = (_lib.pto_run_output(run) or b"").decode(errors="replace")
            result.diagnostics = diags
            result.steps = _lib.pto_run_steps(run)
            return result
        finally:
            _lib.pto_run_free(run)

    @staticmethod
    def _bind(run, name, value):
        a = value if isinstance(value, np.ndarray) else None
        if a is None:
            raise BindingError(f"input '{name}' must be a numpy array, got {type(value).__name__}")
        b = _binding_of(run, name)
        want = b["dtype"]
        ok = a.dtype == numpy_dtype(want) or (want == "bf16" and (a.dtype == np.uint16 or a.dtype == _BF16))
        if not ok:
            hint = " (bf16: pass uint16 bit patterns, e.g. pto.f32_to_bf16(x), or ml_dtypes.bfloat16)" \
                if want == "bf16" else f" (convert it with .astype(np.{numpy_dtype(want).name}))"
            raise BindingError(f"input '{name}' is {want} but the array is {a.dtype}{hint}")
        a = np.ascontiguousarray(a)
        if a.ndim > _capi.PTO_MAX_RANK:
            raise BindingError(f"input '{name}' has {a.ndim} dimensions; at most {_capi.PTO_MAX_RANK}")
        shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape) if a.ndim else (ctypes.c_int64 * 1)(a.size)
        status = _lib.pto_run_bind(run, name.encode(), a.ctypes.data_as(ctypes.c_void_p), a.nbytes,
                                   _capi.DTYPE_CODES[want], max(a.ndim, 1), shape)
        if status != _capi.OK:
            raise BindingError(f"input '{name}': " + _lib.pto_run_message(run).decode())

    @staticmethod
    def _set_scalar(run, name, value):
        if isinstance(value, (bool, np.bool_)):
            status = _lib.pto_run_set_scalar_text(run, name.encode(), b"true" if value else b"false")
        elif isinstance(value, (int, np.integer)):
            status = _lib.pto_run_set_scalar_i64(run, name.encode(), int(value))
        elif isinstance(value, (float, np.floating)):
            status = _lib.pto_run_set_scalar_f64(run, name.encode(), float(value))
        else:
            raise BindingError(f"scalar '{name}' must be a number, got {type(value).__name__}")
        if status != _capi.OK:
            raise BindingError(f"scalar '{name}': " + _lib.pto_run_message(run).decode())

    @staticmethod
    def _fetch(run, name, bf16_as_uint16):
        arr = _capi.Array_t()
        if _lib.pto_run_fetch(run, name.encode(), ctypes.byref(arr)) != _capi.OK:
            raise BindingError(f"output '{name}': " + _lib.pto_run_message(run).decode())
        try:
            dtype = numpy_dtype(_capi.DTYPES[arr.dtype], bf16_as_uint16)
            shape = tuple(arr.shape[k] for k in range(arr.rank))
            raw = ctypes.string_at(arr.data, arr.nbytes) if arr.nbytes else b""
            return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
        finally:
            _lib.pto_array_free(ctypes.byref(arr))


def _binding_of(run, name):
    """What `name` binds to in the run's entry: {"kind", "dtype", "shape"}; BindingError when nothing."""
    a = _capi.Arg_t()
    if _lib.pto_run_binding(run, name.encode(), ctypes.byref(a)) != _capi.OK:
        raise BindingError(f"input '{name}': " + _lib.pto_run_message(run).decode())
    kind = _capi.ARG_KINDS.get(a.kind, "other")
    if kind == "scalar":
        raise BindingError(f"input '{name}' is a scalar argument: give it in scalars={{...}}")
    return {"kind": kind, "dtype": _capi.DTYPES.get(a.dtype), "shape": tuple(a.shape[k] for k in range(a.rank))}
