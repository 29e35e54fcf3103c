"""ctypes declarations of libpto.so's C API (api/pto.h) and how the library is found."""
import ctypes
import os

PTO_MAX_RANK = 8

# pto_status
OK, ERR_COMPILE, ERR_RUN, ERR_BINDING, ERR_ARGUMENT, ERR_IO, ERR_STATE, ERR_MEMORY = range(8)
# pto_arg_kind
ARG_KINDS = {0: "gm", 1: "tile", 2: "scalar", 3: "other"}
SEVERITIES = {0: "error", 1: "warning", 2: "note"}
# pto_compile / pto_run_new flags
COMPILE_WERROR = 1
RUN_CHECK_SYNC, RUN_CHECK_SYNC_STRICT, RUN_TRACE, RUN_CHECK_INIT = 1, 2, 4, 8
# pto_dtype numbering (stable, api/pto.h)
DTYPES = {1: "f16", 2: "bf16", 3: "f32", 4: "i8", 5: "ui8", 6: "i16", 7: "ui16", 8: "i32", 9: "ui32",
          10: "i64", 11: "ui64", 12: "i1", 13: "index", 14: "f8E4M3FN", 15: "f8E4M3", 16: "f8E5M2", 17: "f8E8M0FNU",
          18: "f8E4M3FNUZ", 19: "f8E4M3B11FNUZ", 20: "f8E5M2FNUZ"}
DTYPE_CODES = {name: code for code, name in DTYPES.items()}


class Diagnostic_t(ctypes.Structure):
    _fields_ = [("file", ctypes.c_char_p), ("rule", ctypes.c_char_p), ("message", ctypes.c_char_p),
                ("severity", ctypes.c_int), ("line", ctypes.c_uint32), ("column", ctypes.c_uint32),
                ("end_line", ctypes.c_uint32), ("end_column", ctypes.c_uint32)]


class Arg_t(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int), ("dtype", ctypes.c_int), ("rank", ctypes.c_int),
                ("shape", ctypes.c_int64 * PTO_MAX_RANK)]


class Array_t(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("nbytes", ctypes.c_size_t), ("dtype", ctypes.c_int), ("rank", ctypes.c_int),
                ("shape", ctypes.c_int64 * PTO_MAX_RANK)]


def _candidates():
    """Where libpto.so is looked for, in order."""
    env = os.environ.get("PTO_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.join(here, "libpto.so"),                             # installed with the package
            os.path.join(os.path.dirname(os.path.dirname(here)), "build", "libpto.so")]  # source tree


def _declare(lib):
    P = ctypes.c_void_p
    s, st, u, i, i64, u64 = ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_int, ctypes.c_int64, ctypes.c_uint64
    sz = ctypes.c_size_t
    table = {
        "pto_version": (s, []), "pto_api_version": (i, []), "pto_status_name": (s, [i]),
        "pto_compile": (st, [s, sz, s, s, s, u, ctypes.POINTER(P), ctypes.POINTER(P)]),
        "pto_compile_file": (st, [s, s, s, u, ctypes.POINTER(P), ctypes.POINTER(P)]),
        "pto_module_free": (None, [P]), "pto_module_target": (s, [P]),
        "pto_diags_count": (sz, [P]), "pto_diags_errors": (sz, [P]),
        "pto_diags_get": (st, [P, sz, ctypes.POINTER(Diagnostic_t)]), "pto_diags_text": (s, [P]),
        "pto_diags_free": (None, [P]),
        "pto_module_func_count": (i, [P]), "pto_module_func_name": (s, [P, i]),
        "pto_module_default_entry": (s, [P]), "pto_module_arg_count": (i, [P, s]),
        "pto_module_arg": (st, [P, s, i, ctypes.POINTER(Arg_t)]),
        "pto_run_new": (st, [P, s, i64, u64, u, ctypes.POINTER(P)]),
        "pto_run_binding": (st, [P, s, ctypes.POINTER(Arg_t)]),
        "pto_run_bind": (st, [P, s, P, sz, i, i, ctypes.POINTER(ctypes.c_int64)]),
        "pto_run_set_scalar_i64": (st, [P, s, i64]), "pto_run_set_scalar_f64": (st, [P, s, ctypes.c_double]),
        "pto_run_set_scalar_text": (st, [P, s, s]), "pto_run_execute": (st, [P]),
        "pto_run_fetch": (st, [P, s, ctypes.POINTER(Array_t)]), "pto_run_message": (s, [P]),
        "pto_run_diagnostics": (P, [P]), "pto_run_output": (s, [P]), "pto_run_steps": (u64, [P]),
        "pto_run_free": (None, [P]), "pto_array_free": (None, [ctypes.POINTER(Array_t)]),
    }
    for name, (res, args) in table.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


def load():
    """Loads libpto.so: $PTO_LIBRARY, else the copy inside the package, else ../build/libpto.so."""
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            lib = _declare(ctypes.CDLL(path))
            if lib.pto_api_version() != 1:
                raise ImportError(f"{path} has C API version {lib.pto_api_version()}, this package needs 1")
            return lib, path
        tried.append(path)
    raise ImportError("pto: libpto.so not found (tried " + ", ".join(tried) +
                      "); build it with `make lib` or set PTO_LIBRARY to its path")
