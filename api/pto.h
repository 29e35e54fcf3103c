/* pto.h - the stable C API of libpto.so: compile PTO-AS text, list a module's functions and
 * arguments, and run an entry on host memory (docs/python.md).
 *
 * Typical use:
 *   pto_module *m; pto_diags *d;
 *   if (pto_compile(text, len, "k.pto", "a2a3", NULL, 0, &m, &d) != PTO_OK) { ...read d... }
 *   pto_run *r; pto_run_new(m, NULL, 1, 0, 0, &r);
 *   pto_run_bind(r, "arg0", data, nbytes, PTO_F32, 2, shape);
 *   pto_run_execute(r);                       // run-time errors: pto_run_diagnostics(r)
 *   pto_array out; pto_run_fetch(r, "arg1", &out); ...; pto_array_free(&out);
 *   pto_run_free(r); pto_module_free(m); pto_diags_free(d);
 *
 * Rules:
 * - Handles are opaque; every function returns a pto_status (or a value documented otherwise).
 * - Strings returned by the library are owned by the handle they come from and stay valid until
 *   that handle is freed. Arrays filled by pto_run_fetch are the caller's: free them with
 *   pto_array_free. Input buffers are copied when bound; the caller may reuse them at once.
 * - A pto_run refers to its module: free every run of a module before the module.
 * - Handles are not shared between threads without locking; distinct handles are independent
 *   (the library has no global mutable state).
 * - Stability: within PTO_API_VERSION 1, functions, enum values and struct layouts are only
 *   added, never changed or removed. */
#ifndef PTO_API_H
#define PTO_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PTO_API __attribute__((visibility("default")))
#else
#define PTO_API
#endif

/* Version of this API (changes only when something is removed or changed incompatibly). */
#define PTO_API_VERSION 1
/* Largest rank of an array the API passes. */
#define PTO_MAX_RANK 8

/* What a call returned. */
typedef enum pto_status {
    PTO_OK = 0,
    PTO_ERR_COMPILE = 1,   /* the program has errors (diagnostics say which) */
    PTO_ERR_RUN = 2,       /* the run stopped with a located run-time error (pto_run_diagnostics) */
    PTO_ERR_BINDING = 3,   /* an input, scalar or result name does not fit the entry (pto_run_message) */
    PTO_ERR_ARGUMENT = 4,  /* a bad argument to the call: NULL, unknown target, unknown function */
    PTO_ERR_IO = 5,        /* a file could not be read */
    PTO_ERR_STATE = 6,     /* the call does not fit the handle's state (fetch before a run, ...) */
    PTO_ERR_MEMORY = 7     /* out of host memory or over the run's memory limit */
} pto_status;

/* Element types (stable numbering; not the internal one). */
typedef enum pto_dtype {
    PTO_DTYPE_NONE = 0,
    PTO_F16 = 1, PTO_BF16 = 2, PTO_F32 = 3,
    PTO_I8 = 4, PTO_U8 = 5, PTO_I16 = 6, PTO_U16 = 7, PTO_I32 = 8, PTO_U32 = 9, PTO_I64 = 10, PTO_U64 = 11,
    PTO_I1 = 12, PTO_INDEX = 13,
    /* 8-bit floats (A5 MX matmul operands and scales), bound and fetched as their raw bytes */
    PTO_F8E4M3FN = 14, PTO_F8E4M3 = 15, PTO_F8E5M2 = 16, PTO_F8E8M0FNU = 17, PTO_F8E4M3FNUZ = 18,
    PTO_F8E4M3B11FNUZ = 19, PTO_F8E5M2FNUZ = 20
} pto_dtype;

/* Severity of a diagnostic. */
typedef enum pto_severity { PTO_SEV_ERROR = 0, PTO_SEV_WARNING = 1, PTO_SEV_NOTE = 2 } pto_severity;

/* What an entry argument is. */
typedef enum pto_arg_kind {
    PTO_ARG_GM = 0,      /* !pto.ptr<T>: a GM buffer (bind an array; fetch it after the run) */
    PTO_ARG_TILE = 1,    /* a tile argument (bind its valid region) */
    PTO_ARG_SCALAR = 2,  /* a scalar (set it with pto_run_set_scalar_*) */
    PTO_ARG_OTHER = 3    /* a view or another type the API cannot bind */
} pto_arg_kind;

/* One diagnostic; strings live as long as the pto_diags it came from. */
typedef struct pto_diagnostic {
    const char *file;       /* source name, or "" */
    const char *rule;       /* rule ID ("TMULS.dtype"), or "" when the diagnostic has none */
    const char *message;    /* the message without location or rule */
    int severity;           /* pto_severity */
    uint32_t line, column;  /* 1-based; 0 when not located */
    uint32_t end_line, end_column; /* one past the last byte of the construct; equal to line/column for a point */
} pto_diagnostic;

/* One argument of a function; `name` lives as long as the module. */
typedef struct pto_arg {
    const char *name;       /* as written, without '%' ("arg0", "src") */
    int kind;               /* pto_arg_kind */
    int dtype;              /* element or scalar type (pto_dtype) */
    int rank;               /* dims known in `shape`: 2 for a tile (its valid shape), else 0 */
    int64_t shape[PTO_MAX_RANK]; /* -1 for a dynamic dimension */
} pto_arg;

/* An array the library filled (pto_run_fetch); free `data` with pto_array_free. */
typedef struct pto_array {
    void *data;             /* little-endian elements, C order; bf16 as its 16-bit pattern */
    size_t nbytes;
    int dtype;              /* pto_dtype */
    int rank;
    int64_t shape[PTO_MAX_RANK];
} pto_array;

typedef struct pto_module pto_module;
typedef struct pto_diags pto_diags;
typedef struct pto_run pto_run;

/* Flags of pto_compile. */
enum { PTO_COMPILE_WERROR = 1u << 0 /* warnings count as errors */ };
/* Flags of pto_run_new. */
enum {
    PTO_RUN_CHECK_SYNC = 1u << 0,        /* --check-sync (auto) */
    PTO_RUN_CHECK_SYNC_STRICT = 1u << 1, /* --check-sync=strict */
    PTO_RUN_TRACE = 1u << 2,             /* trace each executed op into pto_run_output */
    PTO_RUN_CHECK_INIT = 1u << 3         /* --check-init: reads of on-chip bytes nothing wrote */
};

/* ---- versions and names ------------------------------------------------------------------- */

/* The toolchain version ("0.13.0"), the one pto-as --version prints. */
PTO_API const char *pto_version(void);
/* PTO_API_VERSION of the library that is loaded. */
PTO_API int pto_api_version(void);
/* A short name of a status ("ok", "compile error", ...). */
PTO_API const char *pto_status_name(int status);
/* The PTO-AS spelling of a dtype ("f32", "bf16", "ui8"), or "?" for an unknown value. */
PTO_API const char *pto_dtype_name(int dtype);
/* Bytes of one element of a dtype (0 for PTO_DTYPE_NONE or an unknown value). */
PTO_API size_t pto_dtype_size(int dtype);

/* ---- compiling ---------------------------------------------------------------------------- */

/* Parses and verifies `len` bytes of program text named `name` (for diagnostics; NULL: "<string>")
 * for `target` ("a2a3", "a5"; NULL: the module's pto.target_arch, else a2a3) with entry `entry`
 * (NULL: SPEC 1.2's rule); on success *out is the module, else NULL. *diags (when not NULL) gets
 * every diagnostic, warnings included, on success and failure; the caller frees it. */
PTO_API pto_status pto_compile(const char *text, size_t len, const char *name, const char *target,
                               const char *entry, unsigned flags, pto_module **out, pto_diags **diags);
/* pto_compile on the contents of file `path`; an unreadable file gives PTO_ERR_IO with one
 * unlocated diagnostic saying why. */
PTO_API pto_status pto_compile_file(const char *path, const char *target, const char *entry, unsigned flags,
                                    pto_module **out, pto_diags **diags);
/* Frees a module (NULL is allowed); free its runs first. */
PTO_API void pto_module_free(pto_module *m);
/* The target a module was verified for ("a2a3" or "a5"). */
PTO_API const char *pto_module_target(const pto_module *m);

/* ---- diagnostics -------------------------------------------------------------------------- */

/* Number of diagnostics in a list (0 for NULL). */
PTO_API size_t pto_diags_count(const pto_diags *d);
/* Number of errors in a list, counting those beyond the recorded limit. */
PTO_API size_t pto_diags_errors(const pto_diags *d);
/* Fills *out with diagnostic `i` (in source order); PTO_ERR_ARGUMENT when out of range. */
PTO_API pto_status pto_diags_get(const pto_diags *d, size_t i, pto_diagnostic *out);
/* The list as text, the way pto-as prints it (excerpt and caret); owned by the list. */
PTO_API const char *pto_diags_text(const pto_diags *d);
/* Frees a list (NULL is allowed). */
PTO_API void pto_diags_free(pto_diags *d);

/* ---- functions and arguments -------------------------------------------------------------- */

/* Number of functions with a body in the module. */
PTO_API int pto_module_func_count(const pto_module *m);
/* Name of function `i` (without '@'), or NULL when out of range. */
PTO_API const char *pto_module_func_name(const pto_module *m, int i);
/* The function a run uses when none is named (the compile's entry, pto.entry, else the only one),
 * or NULL when that is ambiguous. */
PTO_API const char *pto_module_default_entry(const pto_module *m);
/* Number of arguments of function `func` (NULL: the default entry), or -1 when there is none. */
PTO_API int pto_module_arg_count(const pto_module *m, const char *func);
/* Fills *out with argument `i` of function `func` (NULL: the default entry). */
PTO_API pto_status pto_module_arg(const pto_module *m, const char *func, int i, pto_arg *out);

/* ---- running ------------------------------------------------------------------------------ */

/* Prepares a run of `entry` (NULL: the default entry) with `blocks` block indices (0 or 1: one)
 * and a step limit (0: the default 100000000): lowers the program and allocates zero-filled
 * on-chip memories. *out is set whenever the handle could be made, also on failure (the reason is
 * in pto_run_message and pto_run_diagnostics); the caller frees it. */
PTO_API pto_status pto_run_new(const pto_module *m, const char *entry, int64_t blocks, uint64_t max_steps,
                               unsigned flags, pto_run **out);
/* Fills *out with what `name` binds to in the run's entry (arg0, %arg0, an argument's or a tile
 * value's name): kind, dtype, a tile's valid shape; PTO_ERR_BINDING when it names nothing. */
PTO_API pto_status pto_run_binding(pto_run *r, const char *name, pto_arg *out);
/* Gives GM argument or tile `name` (arg0, %arg0, a tile value name) its input: `nbytes` bytes at
 * `data` of `dtype` elements shaped `shape[0..rank)` (rank 0: 1-D). The dtype must be the
 * binding's, and nbytes the shape's element count times the element size; a GM buffer gets exactly
 * these elements, a tile's valid region must hold as many. Each name is bound at most once. */
PTO_API pto_status pto_run_bind(pto_run *r, const char *name, const void *data, size_t nbytes, int dtype, int rank,
                                const int64_t *shape);
/* Sets scalar argument `name` from an integer (a float argument gets the nearest value). */
PTO_API pto_status pto_run_set_scalar_i64(pto_run *r, const char *name, int64_t value);
/* Sets scalar argument `name` from a double, rounded once to the argument's float type; an integer
 * argument takes only a double that is a whole number. */
PTO_API pto_status pto_run_set_scalar_f64(pto_run *r, const char *name, double value);
/* Sets scalar argument `name` from text, as pto-run --set does (decimal; 0x bit patterns for floats). */
PTO_API pto_status pto_run_set_scalar_text(pto_run *r, const char *name, const char *text);
/* Runs the entry once per block; PTO_ERR_RUN with located diagnostics when it stops. Once per handle. */
PTO_API pto_status pto_run_execute(pto_run *r);
/* After a successful run, copies GM argument or tile `name` into *out (library-allocated; free it
 * with pto_array_free): a GM buffer whole, shaped like its bound input or its first contiguous
 * row-major view (else 1-D); a tile's valid region (rows x cols). */
PTO_API pto_status pto_run_fetch(pto_run *r, const char *name, pto_array *out);
/* The last error message of a call on this run ("" when none). */
PTO_API const char *pto_run_message(const pto_run *r);
/* The run's diagnostics: lowering and run-time errors, --check-sync findings (borrowed). */
PTO_API const pto_diags *pto_run_diagnostics(const pto_run *r);
/* What the run printed (pto.tprint, trace), NUL-terminated, owned by the run. */
PTO_API const char *pto_run_output(pto_run *r);
/* Steps executed by the run (all blocks). */
PTO_API uint64_t pto_run_steps(const pto_run *r);
/* Frees a run (NULL is allowed). */
PTO_API void pto_run_free(pto_run *r);
/* Frees the elements of an array filled by pto_run_fetch and clears it (NULL is allowed). */
PTO_API void pto_array_free(pto_array *a);

#ifdef __cplusplus
}
#endif

#endif
