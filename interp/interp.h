/* interp.h - the execution stage: lowers a verified module to a flat instruction array and runs it
 * on simulated memory (SPEC 2, 5); reads and writes data files (SPEC 7); compares results.
 *
 * Typical use (tools/pto-run.c):
 *   Interp *ip = interp_create(module, &opts, &diags);       // lowering; NULL + diagnostics on error
 *   interp_lookup(ip, "arg0", &b, ...);                       // resolve command-line names
 *   interp_bind_gm(ip, &b, &array, ...);                      // --in, --set
 *   interp_run(ip);                                           // run-time errors go to `diags`
 *   interp_fetch(ip, &b, &array, ...);                        // --out, --print, --expect
 *   interp_destroy(ip);
 *
 * All state lives in the Interp object; nothing here uses global mutable state. */
#ifndef PTO_INTERP_H
#define PTO_INTERP_H

#include "ir.h"

/* ------------------------------------------------------------------------------------------ */
/* Numeric helpers (exact, portable C; used by kernels, data files and printing)               */
/* ------------------------------------------------------------------------------------------ */

/* Rounds an f32 value to f16 bits, round to nearest even; NaN stays NaN, overflow gives Inf. */
uint16_t f32_to_f16_bits(float value);
/* Widens f16 bits to f32 exactly (denormals, Inf and NaN included). */
float f16_bits_to_f32(uint16_t bits);
/* Rounds an f32 value to bf16 bits, round to nearest even; NaN stays NaN. */
uint16_t f32_to_bf16_bits(float value);
/* Widens bf16 bits to f32 exactly. */
float bf16_bits_to_f32(uint16_t bits);
/* Rounds a double to f16 bits with a single rounding (round to nearest even). */
uint16_t f64_to_f16_bits(double value);
/* Rounds a double to bf16 bits with a single rounding (round to nearest even). */
uint16_t f64_to_bf16_bits(double value);

/* ------------------------------------------------------------------------------------------ */
/* Arrays and data files (SPEC 7)                                                              */
/* ------------------------------------------------------------------------------------------ */

#define DATA_MAX_RANK 8
/* Largest data file datafile_read accepts (bytes); a larger file or stream is refused unread. */
#define DATA_FILE_MAX_BYTES ((size_t)4 << 30)

/* A host array of little-endian elements (what a data file holds). */
typedef struct DataArray {
    DType dtype;
    int rank;                        /* 1..DATA_MAX_RANK */
    int64_t shape[DATA_MAX_RANK];
    int64_t count;                   /* product of shape */
    void *data;                      /* count * dtype_size(dtype) bytes: malloc'd, or inside `map` */
    void *map;                       /* a private file mapping holding data (datafile_read), or NULL */
    size_t map_len;
} DataArray;

/* Frees the elements of an array (the struct itself is the caller's). */
void data_array_free(DataArray *a);
/* Allocates a zero-filled array of `count` elements shaped rows x cols (cols < 0: 1-D). */
bool data_array_alloc(DataArray *a, DType dtype, int64_t rows, int64_t cols, char *err, size_t errlen);
/* The numpy descriptor used for a dtype ("<f4", "|i1", "<u2" for bf16), or NULL. */
const char *npy_descr_for(DType dtype);
/* Reads a `.npy` (v1.0-3.0) or raw little-endian `.bin` file of elements of `dtype` into `out`.
 * A `.npy` dtype must match (`<u2` for bf16); a `.bin` size must be a multiple of the element size.
 * A name ending in `.bin` is always raw; another name is `.npy` when it starts with the magic.
 * On failure writes a one-line reason naming the file and both sides to `err`. */
bool datafile_read(const char *path, DType dtype, DataArray *out, char *err, size_t errlen);
/* Writes `a` as `.npy` (when the path ends in .npy, using a's shape) or raw `.bin`, whole or not
 * at all (temporary file in the same directory, then rename). */
bool datafile_write(const char *path, const DataArray *a, char *err, size_t errlen);

/* Tolerances of a comparison (SPEC 5 --expect). */
typedef struct CompareOptions {
    double atol, rtol;       /* used when `given`, else the dtype defaults */
    bool atol_given, rtol_given;
    bool bits;               /* compare bit patterns (NaN payloads and -0 included); no tolerance */
    int max_report;          /* first mismatches listed (0 = 10, negative = none: --show 0) */
    /* --compare=isa (pto-isa's ResultCmp, docs/execution.md): an element fails when its absolute
     * and its relative difference (to the expected value) both exceed eps, or exactly one side is
     * NaN; the buffer passes while at most floor(count * frac) elements fail and at most
     * zero_limit elements are ~0 where the expected value is not. */
    bool isa;
    double eps, frac;        /* eps (default 1e-3); frac (default eps) */
    bool eps_given, frac_given;
    int64_t zero_limit;      /* default 1000 (ResultCmp's zeroCountThreshold) */
    bool zero_limit_given;
} CompareOptions;

/* What one comparison found (data_array_check). */
typedef struct CompareResult {
    int64_t count;           /* elements compared */
    int64_t mismatches;      /* failing elements */
    double max_abs, max_rel; /* largest finite errors (0 when none) */
    int64_t max_abs_at, max_rel_at; /* their flat indices, or -1 */
    double atol, rtol;       /* allclose: the tolerances used */
    double eps, frac;        /* isa: the parameters used */
    int64_t limit;           /* isa: failing elements allowed, floor(count * frac) */
    int64_t zeros, zero_limit; /* isa: elements ~0 where the expected value is not, and their limit */
    bool passed;
} CompareResult;

/* Compares `got` with `want` element by element (the mode and tolerances of `opts`, NULL for the
 * defaults) into `res`; false (with a message in `err`) when the element counts or dtypes differ. */
bool data_array_check(const DataArray *got, const DataArray *want, const CompareOptions *opts, CompareResult *res,
                      char *err, size_t errlen);
/* Prints the report of a comparison for `name`: a summary line (mismatch count and fraction, the
 * largest absolute and relative errors with their indices, the mode), the first mismatches, and
 * for failing buffers which rows and columns fail (ranges, and a block map for 2-D data). */
void compare_print_text(FILE *out, const char *name, const DataArray *got, const DataArray *want,
                        const CompareOptions *opts, const CompareResult *res);
/* Prints the same report as one JSON object (no trailing newline); `file` is the expected data's path. */
void compare_print_json(FILE *out, const char *name, const char *file, const DataArray *got, const DataArray *want,
                        const CompareOptions *opts, const CompareResult *res);
/* data_array_check + compare_print_text: returns 0 when the buffer passes, else the number of
 * mismatching elements (at least 1), or -1 (with a message in `err`) when the element counts or
 * dtypes differ. */
int64_t data_array_compare(FILE *out, const char *name, const DataArray *got, const DataArray *want,
                           const CompareOptions *opts, char *err, size_t errlen);
/* Prints an array in the TPRINT layout (`%8.4f` floats, `%8d` integers, one row per line) after a
 * header line `title`; a 1-D array prints as one row. */
void data_array_print(FILE *out, const char *title, const DataArray *a);

/* Element formats of data_array_print_region (pto-run --print-format). */
typedef enum PrintFormat {
    PRINT_TPRINT = 0,        /* the TPRINT layout (data_array_print) */
    PRINT_G,                 /* shortest round-trip decimal (%g style); integers in decimal */
    PRINT_A,                 /* C99 hex float (%a); integers in decimal */
    PRINT_HEX                /* the element's bit pattern in hex */
} PrintFormat;
/* A rectangle of a 2-D view of an array (rows = product of all but the last dim): rows r0..r1-1,
 * cols c0..c1-1; r1/c1 < 0 mean "to the end". */
typedef struct PrintRegion {
    int64_t r0, r1, c0, c1;
} PrintRegion;
/* Prints the region of `a` (NULL: all) in `fmt` after the header line `title`; returns false
 * (with a message in `err`, nothing printed) when the region lies outside the array. */
bool data_array_print_region(FILE *out, const char *title, const DataArray *a, PrintFormat fmt,
                             const PrintRegion *region, char *err, size_t errlen);

/* ------------------------------------------------------------------------------------------ */
/* The interpreter                                                                             */
/* ------------------------------------------------------------------------------------------ */

#define INTERP_DEFAULT_MAX_STEPS 100000000ull
/* Host memory one run may hold in GM buffers and frames (values and auto tiles) together; a
 * program needing more stops with a located error instead of allocating it (issue #6). */
#define INTERP_DEFAULT_MAX_MEMORY ((int64_t)4 << 30)

typedef struct InterpOptions {
    Target target;           /* memory sizes and target-dependent run-time checks */
    const char *entry;       /* --entry NAME, or NULL for SPEC 1.2's rule */
    uint64_t max_steps;      /* 0 = INTERP_DEFAULT_MAX_STEPS */
    int64_t max_memory;      /* bytes of GM buffers + frames; 0 = INTERP_DEFAULT_MAX_MEMORY */
    bool trace;              /* print each executed op to `out` */
    FILE *out;               /* trace and pto.tprint output; NULL = stdout */
    int64_t blocks;          /* run the entry once per block index 0 .. blocks - 1 (0 = 1) */
    int check_sync;          /* pto-run --check-sync: 0 off, 1 auto, 2 strict (check_sync.c) */
    bool require_inputs;     /* a GM buffer without bound data (interp_bind_gm) that a tload or a
                                tprint reads before the run wrote the element is a run-time error
                                (pto-run without --zero-inputs); false: such buffers read as zeros */
    bool check_init;         /* pto-run --check-init: reads of unwritten on-chip bytes (check_init.c) */
} InterpOptions;

typedef struct Interp Interp;

/* Lowers every function of a verified module and allocates the target's zero-filled on-chip
 * buffers; returns NULL (with located diagnostics in `diags`) when the program cannot be lowered. */
Interp *interp_create(const Module *m, const InterpOptions *opts, DiagList *diags);
/* Frees the interpreter, its buffers and every frame (NULL is allowed). */
void interp_destroy(Interp *ip);

typedef enum InterpBindingKind {
    BIND_GM,       /* a !pto.ptr argument of the entry function: a GM buffer */
    BIND_SCALAR,   /* a scalar argument of the entry function */
    BIND_TILE,     /* a tile value of the entry function (an argument or a value defined in it) */
    BIND_VIEW      /* a tensor or partition view value: interp_fetch reads the GM elements it covers */
} InterpBindingKind;

typedef struct InterpBinding {
    InterpBindingKind kind;
    DType dtype;            /* element or scalar type */
    const Value *value;     /* the argument or value */
    int arg_index;          /* entry argument position, or -1 */
    char display[64];       /* "%arg0" for messages */
} InterpBinding;

/* Resolves a command-line name in the entry function: `arg0`/`%arg0` (argument by name, else by
 * position), or any value name (`src0`); false with a reason in `err` when there is none. */
bool interp_lookup(const Interp *ip, const char *name, InterpBinding *out, char *err, size_t errlen);
/* Gives a GM argument its initial contents (--in): the buffer gets exactly `data`'s elements and
 * keeps that size; `data` must have the pointer's element type. */
bool interp_bind_gm(Interp *ip, const InterpBinding *b, const DataArray *data, char *err, size_t errlen);
/* interp_bind_gm without the copy: on success the buffer takes data's storage (malloc'd or mapped)
 * and *data is left empty; on failure *data is unchanged. */
bool interp_bind_gm_move(Interp *ip, const InterpBinding *b, DataArray *data, char *err, size_t errlen);
/* Gives a scalar argument its value (--set) parsed from `text` for the argument's type
 * (integers: decimal or 0x; floats: decimal, or a 0x bit pattern). */
bool interp_bind_scalar(Interp *ip, const InterpBinding *b, const char *text, char *err, size_t errlen);
/* Gives a tile its input (--in for a tile): the valid region is filled from `data` (logical
 * row-major order) each time the tile is defined by pto.alloc_tile or on entry (tile argument). */
bool interp_bind_tile(Interp *ip, const InterpBinding *b, const DataArray *data, char *err, size_t errlen);
/* Runs the entry function; returns false after a located run-time error (in `diags`). Every scalar
 * argument must be bound first (else false with a message in `diags`). */
bool interp_run(Interp *ip);
/* Copies a result out after a run: a GM buffer (whole; shaped like its --in .npy data or the first
 * contiguous row-major view made on it, else 1-D) or a tile's valid region (rows x cols, logical
 * row-major). */
bool interp_fetch(const Interp *ip, const InterpBinding *b, DataArray *out, char *err, size_t errlen);
/* Prints a value each time the instruction at source line `line` has executed (pto-run
 * --print NAME@LINE): `name` (with or without %) is looked up in the function that instruction
 * belongs to, or only in @`func` when func is not NULL; the value (a tile's valid region, a GM
 * pointer's whole buffer, a scalar) goes to InterpOptions.out in `fmt`, limited to `region` (may
 * be NULL). False with a reason in `err` when no function has both the name and an op on that line. */
bool interp_watch(Interp *ip, const char *func, const char *name, uint32_t line, PrintFormat fmt,
                  const PrintRegion *region, char *err, size_t errlen);
/* The name (without @) of the function interp_run runs. */
const char *interp_entry_name(const Interp *ip);
/* Executed steps of the last run. */
uint64_t interp_steps(const Interp *ip);

#endif
