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
    void *data;                      /* malloc'd, count * dtype_size(dtype) bytes */
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
    int max_report;          /* first mismatches listed (0 = 10) */
} CompareOptions;

/* Compares `got` with `want` element by element, prints a one-line summary for `name` and the first
 * mismatches with their (row, col) to `out`; returns the number of mismatching elements, or -1
 * (with a message in `err`) when the element counts or dtypes differ. */
int64_t data_array_compare(FILE *out, const char *name, const DataArray *got, const DataArray *want,
                           const CompareOptions *opts, char *err, size_t errlen);
/* Prints an array in the TPRINT layout (`%8.4f` floats, `%8d` integers, one row per line) after a
 * header line `title`; a 1-D array prints as one row. */
void data_array_print(FILE *out, const char *title, const DataArray *a);

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
    BIND_TILE      /* a tile value of the entry function (an argument or a value defined in it) */
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
/* Executed steps of the last run. */
uint64_t interp_steps(const Interp *ip);

#endif
