/* ir.h - the PTO-AS intermediate representation: arena, diagnostics, types, values, ops and the
 * op table. Every later stage (parser, verifier, interpreter, tools) works on these structures.
 *
 * Data flows one way: text -> tokens (lexer/) -> IR (parser/) -> diagnostics (verifier/) ->
 * execution (interp/). This header is the one contract between the stages. */
#ifndef PTO_IR_H
#define PTO_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------------------------------ */
/* Arena: every allocation of one compilation lives in one arena, freed at once.               */
/* ------------------------------------------------------------------------------------------ */

typedef struct Arena Arena;

/* Creates an empty arena. */
Arena *arena_new(void);
/* Frees the arena and everything allocated from it (NULL is allowed). */
void arena_free(Arena *arena);
/* Frees everything allocated from the arena but keeps its memory for what comes next. */
void arena_reset(Arena *arena);
/* Returns `size` zeroed bytes aligned to 16; aborts with a message if the host is out of memory. */
void *arena_alloc(Arena *arena, size_t size);
/* Returns zeroed storage for `count` elements of `elem_size` bytes, with an overflow check. */
void *arena_alloc_array(Arena *arena, size_t count, size_t elem_size);
/* Copies `len` bytes of `s` into the arena as a NUL-terminated string. */
char *arena_strndup(Arena *arena, const char *s, size_t len);
/* Copies a NUL-terminated string into the arena. */
char *arena_strdup(Arena *arena, const char *s);
/* printf into a fresh arena string. */
char *arena_printf(Arena *arena, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* vprintf into a fresh arena string. */
char *arena_vprintf(Arena *arena, const char *fmt, va_list ap);
/* Total bytes handed out so far, since the last arena_reset (for memory figures). */
size_t arena_bytes_used(const Arena *arena);

/* Growable array of pointers kept in an arena (amortised doubling). */
typedef struct PtrVec {
    void **items;
    size_t count, cap;
} PtrVec;
/* Appends `item`, growing the storage from `arena`. */
void ptrvec_push(Arena *arena, PtrVec *vec, void *item);
/* Appends `item` to a PtrVec whose storage is on the heap (free(vec->items) releases it). */
void heap_vec_push(PtrVec *vec, void *item);
/* calloc of `count` elements (at least one) that exits with a message when the host is out of memory. */
void *heap_calloc(size_t count, size_t size);
/* Prints "fatal: out of host memory" for a request of `size` bytes and exits with status 2. */
_Noreturn void host_out_of_memory(size_t size);

/* ------------------------------------------------------------------------------------------ */
/* Checked 64-bit arithmetic: sizes and addresses come from untrusted text.                    */
/* ------------------------------------------------------------------------------------------ */

/* *out = a + b; returns false on signed overflow. */
static inline bool checked_add_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
/* *out = a * b; returns false on signed overflow. */
static inline bool checked_mul_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }

/* ------------------------------------------------------------------------------------------ */
/* Source files, locations and diagnostics                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct SourceFile {
    const char *path;   /* as given on the command line; "<stdin>" for standard input */
    const char *text;   /* file contents, NUL-terminated (embedded NULs are reported by the lexer) */
    size_t len;         /* bytes in text, excluding the terminating NUL */
} SourceFile;

/* A position in a source file: 1-based line and column (column counts bytes), byte offset and
 * length of the token or construct it points at (len 0 = a point). */
typedef struct SrcLoc {
    uint32_t line, col;
    uint32_t offset, len;
} SrcLoc;

typedef enum Severity { SEV_ERROR, SEV_WARNING, SEV_NOTE } Severity;

/* A note attached to a diagnostic: more context at another (or the same) place, e.g. "previously
 * defined here" or "write blayout=col_major". line 0: no location (printed as a plain note). */
typedef struct DiagNote {
    SrcLoc loc;
    const char *message;
} DiagNote;

/* A fix-it hint: replace the bytes of `loc` (offset, len; len 0 = insert at offset) with
 * `replacement`. Applying every fix-it of a diagnostic gives text that no longer has the error. */
typedef struct DiagFixit {
    SrcLoc loc;
    const char *replacement;
} DiagFixit;

typedef struct Diag {
    Severity severity;
    const SourceFile *file;
    SrcLoc loc;
    const char *rule;     /* stable rule ID such as "TROWPROD.dst-valid-cols" or "PARSE.syntax" (docs/rules.md) */
    const char *message;  /* full message, e.g. "'pto.tmuls' op expects ..." */
    uint64_t seq;         /* report order, to keep sorting stable */
    DiagNote *notes;      /* diag_add_note, in order (same file as the diagnostic) */
    DiagFixit *fixits;    /* diag_add_fixit, in order */
    uint32_t n_notes, n_fixits;
} Diag;

/* Errors one DiagList records (diag_init's max_errors); later ones are only counted, and
 * diag_print_text ends with a note saying how many were not shown (issue #6: a file of garbage
 * must not produce millions of diagnostics). */
#define DIAG_MAX_ERRORS 1000
/* Source lines up to this many bytes are echoed whole under a diagnostic; longer ones are shown
 * as a window of DIAG_EXCERPT_WINDOW bytes around the column, with "..." where it is cut. */
#define DIAG_MAX_EXCERPT 400
#define DIAG_EXCERPT_WINDOW 160

typedef struct DiagList {
    Arena *arena;         /* where messages are stored */
    Diag *items;
    size_t count, cap;
    size_t errors, warnings;
    bool warnings_as_errors; /* -Werror: warnings are recorded as errors */
    size_t max_errors;    /* stop recording after this many errors (0 = unlimited; diag_init: DIAG_MAX_ERRORS) */
    bool last_recorded;   /* the last diag_report was recorded (diag_add_note / diag_add_fixit attach to it) */
} DiagList;

/* Initialises an empty list whose messages live in `arena`. */
void diag_init(DiagList *list, Arena *arena);
/* Records one diagnostic; `rule` may be NULL. */
void diag_report(DiagList *list, const SourceFile *file, Severity sev, SrcLoc loc, const char *rule,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* va_list flavour of diag_report. */
void diag_vreport(DiagList *list, const SourceFile *file, Severity sev, SrcLoc loc, const char *rule,
                  const char *fmt, va_list ap);
/* Attaches a note (at `loc`; line 0 for none) to the diagnostic reported last; nothing when that
 * one was not recorded (over max_errors). */
void diag_add_note(DiagList *list, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Attaches a fix-it (replace `loc`'s bytes with `replacement`) to the diagnostic reported last. */
void diag_add_fixit(DiagList *list, SrcLoc loc, const char *replacement);
/* Records a copy of `d` (its notes and fix-its included) in `list`, counted as usual. */
void diag_copy(DiagList *list, const Diag *d);
/* Where a location ends: the line and column (1-based, bytes) just past its last byte, computed
 * from the file text; the start itself for a point or when the text is unknown. */
void diag_end_position(const SourceFile *file, SrcLoc loc, uint32_t *end_line, uint32_t *end_col);
/* Sorts diagnostics by file, then source position, keeping report order for ties. */
void diag_sort(DiagList *list);
/* Prints "FILE:LINE:COL: error: MESSAGE [RULE]" ([RULE] left out for the PARSE.* categories), the
 * source line (windowed when long) and a caret, then its notes ("FILE:LINE:COL: note: ...") and fix-its ("FILE:LINE:COL: fix-it: replace 'A'
 * with 'B'"), for each entry. */
void diag_print_text(FILE *out, const DiagList *list);
/* Writes `s` as a JSON string literal (escaped; invalid UTF-8 bytes become U+FFFD). */
void json_print_string(FILE *out, const char *s);
/* Prints the diagnostics as ONE JSON document (docs/rules.md, "Diagnostics as JSON"):
 *   {"version": 1, "diagnostics": [{"file", "line", "column", "end_line", "end_column",
 *    "severity", "rule" (string or null), "message", "notes": [{"file", "line", "column",
 *    "end_line", "end_column", "message"}], "fixits": [{"file", "line", "column", "end_line",
 *    "end_column", "replacement"}]}, ...], "errors": N, "warnings": N, "errors_not_shown": N}
 * Columns count bytes from 1; end_line/end_column is the position just past the span. */
void diag_print_json(FILE *out, const DiagList *list);
/* Name of a severity ("error", "warning", "note"). */
const char *severity_name(Severity sev);

/* ------------------------------------------------------------------------------------------ */
/* Targets                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef enum Target { TARGET_A2A3, TARGET_A5 } Target;

/* Parses "a2a3", "a2", "a3" or "a5" (case-insensitive); false if unknown. */
bool target_from_name(const char *name, Target *out);
/* "a2a3" or "a5". */
const char *target_name(Target target);

/* ------------------------------------------------------------------------------------------ */
/* Element types                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef enum DType {
    DT_NONE = 0,
    DT_F16, DT_BF16, DT_F32,
    DT_I8, DT_U8, DT_I16, DT_U16, DT_I32, DT_U32, DT_I64, DT_U64,
    DT_I1,     /* scalar booleans (arith.cmpi results, scf.if conditions) */
    DT_INDEX,  /* scalar index (64-bit signed at run time) */
    /* the 8-bit float element types of the A5 MX (microscaling) matmul (ops_cube.def), MLIR's
     * spellings as PTOAS's tile_buf takes them; one byte each, no arithmetic outside the MX rows */
    DT_F8E4M3FN, /* 4 exponent bits (bias 7), 3 mantissa bits: an MX operand */
    DT_F8E4M3,   /* the same bits as f8E4M3FN for pto-isa's float8_e4m3_t (MLIR's IEEE-style variant) */
    DT_F8E5M2,   /* 5 exponent bits (bias 15), 2 mantissa bits: an MX operand */
    DT_F8E8M0FNU, /* 8 exponent bits (bias 127), no sign, no mantissa: an MX scale (power of two) */
    DT_F8E4M3FNUZ, DT_F8E4M3B11FNUZ, /* MLIR's other e4m3 spellings: PTOAS emits float8_e4m3_t for them */
    DT_F8E5M2FNUZ, /* MLIR's other e5m2 spelling: PTOAS emits float8_e5m2_t for it */
    DT_COUNT
} DType;

/* Size in bytes of one element (i1 and index: 1 and 8). */
size_t dtype_size(DType dt);
/* Canonical spelling: "f16", "bf16", "f32", "i8", "ui8", ... as printed in PTOAS (ui* for unsigned). */
const char *dtype_name(DType dt);
/* Parses a dtype spelling including the aliases of SPEC 1.4 (u8/ui8/si8, half, float, int32, ...). */
bool dtype_from_name(const char *s, size_t len, DType *out);
/* True for f16, bf16, f32. */
bool dtype_is_float(DType dt);
/* True for the signed and unsigned integer element types (not i1 or index). */
bool dtype_is_int(DType dt);
/* True for the unsigned integer element types. */
bool dtype_is_unsigned(DType dt);
/* True for the 8-bit float types (f8E4M3FN, f8E4M3, f8E5M2, f8E8M0FNU and the FNUZ spellings). */
bool dtype_is_f8(DType dt);
/* The pto-isa decoding of an 8-bit float type (PTOAS's C++ element type for it): 'e' for
 * float8_e4m3_t (f8E4M3FN, f8E4M3, f8E4M3FNUZ, f8E4M3B11FNUZ), 'm' for float8_e5m2_t (f8E5M2,
 * f8E5M2FNUZ), 's' for float8_e8m0_t (f8E8M0FNU), 0 for any other type. */
char dtype_f8_format(DType dt);
/* Why a float element type MLIR (and so PTOAS's tile_buf) spells but pto-as does not take is refused
 * ("f4E2M1FN": sub-byte, ...), or NULL when `s` is no such spelling. */
const char *dtype_unsupported_reason(const char *s, size_t len);

/* ------------------------------------------------------------------------------------------ */
/* Types                                                                                       */
/* ------------------------------------------------------------------------------------------ */

typedef enum TileLoc { LOC_VEC, LOC_MAT, LOC_LEFT, LOC_RIGHT, LOC_ACC, LOC_BIAS, LOC_SCALING, LOC_COUNT } TileLoc;
typedef enum BLayout { BL_ROW_MAJOR, BL_COL_MAJOR } BLayout;
typedef enum SLayout { SL_NONE_BOX, SL_ROW_MAJOR, SL_COL_MAJOR } SLayout;

/* "vec", "mat", ... */
const char *tile_loc_name(TileLoc loc);
/* "row_major" / "col_major". */
const char *blayout_name(BLayout b);
/* "none_box" / "row_major" / "col_major". */
const char *slayout_name(SLayout s);
/* Capacity in bytes of the on-chip buffer behind `loc` on `target` (SPEC 2.1). */
int64_t buffer_capacity_bytes(Target target, TileLoc loc);
/* Bytes of tmp the A2A3 Mode 1 row-expand broadcast writes for `valid_rows` rows (seed: ceil(R/8)
 * x 256 for R < 256, 30 x 256 = 7680 for R >= 256); verifier and interpreter check against it. */
int64_t row_expand_tmp_bytes(int64_t valid_rows);

/* How an operand's valid shape compares with dst's: different, equal, or not known statically. */
typedef enum ShapeMatch { SHAPE_DIFFERENT, SHAPE_SAME, SHAPE_UNKNOWN } ShapeMatch;
/* What row_expand_full_operand returns when no choice is consistent. */
enum { ROW_EXPAND_BOTH_FULL = -1, ROW_EXPAND_NO_FULL = -2 };
/* Which source of TROWEXPANDMUL/SUB is the full-size one (0 or 1; the other is expanded), from each
 * source's ShapeMatch with dst, its col_major flag and (used only when both matches are unknown)
 * whether it is one 32-byte block wide. The seed's "exactly one of src0 or src1 must have the same
 * valid shape as dst": ROW_EXPAND_BOTH_FULL when both do, ROW_EXPAND_NO_FULL when neither can. A
 * col_major source is the expanded one unless only it matches. The verifier calls it on static
 * shapes, the interpreter on run-time ones, so both pick the same roles. */
int row_expand_full_operand(const ShapeMatch match[2], const bool col_major[2], const bool block_wide[2]);
/* Rule ID "OP.suffix" for an op name ("pto.trowprod", "valid-rows" -> "TROWPROD.valid-rows"), in `arena`. */
char *rule_id(Arena *arena, const char *op_name, const char *suffix);
/* Name of the on-chip buffer behind `loc`: "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB". */
const char *buffer_name(TileLoc loc);

#define DIM_DYNAMIC ((int64_t)-1) /* a `?` (or -1) dimension */

/* One normalised tile type, whatever spelling it was written in (SPEC 1.4). */
typedef struct TileType {
    TileLoc loc;
    DType dtype;
    int64_t rows, cols;             /* physical shape (static, may be 0 or huge: verifier checks) */
    int64_t valid_rows, valid_cols; /* DIM_DYNAMIC when `?` */
    BLayout blayout;
    SLayout slayout;
    int64_t fractal;                /* 512 by default */
    int pad;                        /* 0 null, 1 zero, 2 max, 3 min */
    int compact;                    /* 0 null, 1 normal, 2 row_plus_one */
} TileType;

/* Fills a tile type with the SPEC 1.4 defaults for loc vec and the given dtype and shape. */
void tile_type_init(TileType *t, DType dtype, int64_t rows, int64_t cols);
/* Footprint rows * cols * sizeof(dtype) in bytes; false on overflow or negative dims. */
bool tile_footprint_bytes(const TileType *t, int64_t *out);
/* True when every field is equal. */
bool tile_type_equal(const TileType *a, const TileType *b);

typedef enum TypeKind {
    TY_INVALID = 0,
    TY_SCALAR,          /* f32, i32, index, i1, ... (dtype) */
    TY_TILE,            /* !pto.tile<...> or !pto.tile_buf<...> (tile) */
    TY_PTR,             /* !pto.ptr<T> (dtype) */
    TY_TENSOR_VIEW,     /* !pto.tensor_view<d0x...xT> (rank, dims, dtype) */
    TY_PARTITION_VIEW,  /* !pto.partition_tensor_view<d0x...xT> (rank, dims, dtype) */
    TY_OTHER,           /* any other type we only carry through (text) */
    TY_EVENTID_ARRAY,   /* !pto.eventid_array<N>: N event ids, a manual-sync local array (size) */
    TY_MEMREF,          /* memref<d0x...xT, ...>: only as pto.set_ffts's operand (rank, dims, dtype, text) */
    TY_VECTOR,          /* vector<d0x...xT> (rank, dims, dtype, text): tmrgsort's executed counts */
    TY_PIPE,            /* !pto.pipe: an inter-core pipe handle (initialize_l2l_pipe / initialize_l2g2l_pipe) */
    TY_ASYNC_SESSION,   /* !pto.async_session: an asynchronous GM transfer session (build_async_session) */
    TY_ASYNC_EVENT      /* !pto.async_event: the completion handle of one tput_async / tget_async */
} TypeKind;

typedef struct Type {
    TypeKind kind;
    DType dtype;          /* element / scalar type */
    TileType tile;        /* TY_TILE */
    bool tile_buf;        /* TY_TILE: spelled !pto.tile_buf (else !pto.tile) */
    int rank;             /* views */
    int64_t *dims;        /* views: rank entries, DIM_DYNAMIC for `?` */
    const char *text;     /* TY_OTHER, TY_MEMREF, TY_VECTOR: the spelling as written */
    int64_t size;         /* TY_EVENTID_ARRAY: how many ids it holds, as written (the verifier checks it) */
} Type;
/* Types are shared: the parser makes one Type per distinct spelling in a module and never changes
 * it afterwards. Where a type is written is recorded at each use (Operand.type_loc,
 * Value.type_loc, Op.result_type_locs, Func.result_type_locs). */

/* The integer elements of a dense literal's text (`dense<[1, -2, 3]>`, or a splat `dense<7>` giving
 * one element): up to `max` into vals, their number in *count; false when the text is not such a
 * literal or holds more than max. */
bool dense_int_elements(const char *text, int64_t *vals, int max, int *count);

/* Structural equality (ignores the tile/tile_buf spelling). */
bool type_equal(const Type *a, const Type *b);
/* Canonical text of a type: compact `!pto.tile_buf<vec, 16x16xf32, valid=16x1>` for tiles
 * (or `!pto.tile<...>` when `tile_buf` is false and `as_tile_buf` is false). */
char *type_to_string(Arena *arena, const Type *t, bool as_tile_buf);
/* Makes a scalar type. */
Type *type_new_scalar(Arena *arena, DType dt);

/* ------------------------------------------------------------------------------------------ */
/* Values, operands, attributes                                                                */
/* ------------------------------------------------------------------------------------------ */

struct Op;
struct Block;

typedef struct Value {
    const char *name;     /* as written without `%`, e.g. "arg0", "c32", "0"; group results "r#1" */
    Type *type;
    struct Op *def;       /* defining op; NULL for function and block arguments */
    struct Block *owner;  /* block argument: its block */
    uint32_t id;          /* dense index within its function (frame slot) */
    int result_index;     /* index among def's results */
    SrcLoc loc;           /* where it is defined */
    SrcLoc type_loc;      /* where its type was written (line 0: implied, e.g. an scf.for index) */
} Value;

typedef enum OperandKind {
    OPD_VALUE,      /* %name: `value` */
    OPD_INT,        /* integer literal (decimal or 0x hex): `ival`; `text` as written */
    OPD_FLOAT,      /* float literal: `fval`; `text` as written (convert from text for exactness) */
    OPD_BOOL,       /* true / false: `ival` 1 or 0 */
    OPD_TILE_ADDR,  /* @tile(0x1000) (seed tassign form): `ival` = byte address */
    OPD_DENSE       /* dense<[1, 2]> / dense<0> (arith.constant of a vector): `text` as written */
} OperandKind;

typedef struct Operand {
    Value *value;       /* OPD_VALUE, resolved by the parser (never NULL after a clean parse) */
    union {             /* one storage: read the member of the operand's kind */
        int64_t ival;   /* OPD_INT, OPD_BOOL, OPD_TILE_ADDR (0 for OPD_VALUE) */
        double fval;    /* OPD_FLOAT */
    };
    const char *text;   /* literal or value name as written */
    Type *type;         /* type written for this operand at this use (ins/outs lists, SSA signature); may be NULL */
    SrcLoc loc;
    SrcLoc type_loc;    /* where `type` is written for this use (line 0: not written here) */
    OperandKind kind;
    bool hex;           /* integer literal written in 0x form (a float bit pattern where a float is expected) */
} Operand;

typedef struct OperandList {
    Operand *items;
    int count;
} OperandList;

/* A keyword operand group: `addr = %a`, `shape = [%a, %b]`, `offsets = [...]`. */
typedef struct KeywordArg {
    const char *key;
    OperandList list;
    bool bracketed;     /* written as [ ... ] */
    SrcLoc loc;         /* location of the key */
} KeywordArg;

typedef enum AttrKind { ATTR_UNIT, ATTR_INT, ATTR_FLOAT, ATTR_BOOL, ATTR_STRING, ATTR_TYPE, ATTR_RAW } AttrKind;

typedef struct Attr {
    const char *key;
    AttrKind kind;
    int64_t ival;
    double fval;
    const char *text;   /* string contents (ATTR_STRING), spelling (ATTR_RAW: `#pto.layout<nd>`), literal text */
    Type *type;         /* ATTR_TYPE, or the `: type` of a typed literal */
    SrcLoc loc;
} Attr;

typedef struct AttrList {
    Attr *items;
    int count;
} AttrList;

/* Finds an attribute by key, or NULL. */
const Attr *attr_find(const AttrList *attrs, const char *key);

/* ------------------------------------------------------------------------------------------ */
/* The op table (rows in ir/ops.def)                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef enum OpCode {
#define OP(id, ...) OP_##id,
#include "ops.def"
#undef OP
    OP_COUNT
} OpCode;

/* What an operand position accepts (bit set). */
enum {
    K_TILE   = 1u << 0,  /* tile value */
    K_SCALAR = 1u << 1,  /* int/float scalar value or numeric immediate */
    K_INDEX  = 1u << 2,  /* index or integer value, or integer immediate */
    K_BOOL   = 1u << 3,  /* i1 value or true/false */
    K_PTR    = 1u << 4,  /* !pto.ptr value */
    K_TVIEW  = 1u << 5,  /* !pto.tensor_view value */
    K_PVIEW  = 1u << 6,  /* !pto.partition_tensor_view value */
    K_ADDR   = 1u << 7,  /* @tile(0x...) immediate */
    K_EVARR  = 1u << 8,  /* !pto.eventid_array value */
    K_MEMREF = 1u << 9,  /* memref value (pto.set_ffts) */
    K_VECTOR = 1u << 10, /* vector<...> value (tmrgsort's executed counts) */
    K_PIPE   = 1u << 11, /* !pto.pipe value (the lowered tpush / tpop / tfree) */
    K_ASYNC_SESSION = 1u << 12, /* !pto.async_session value */
    K_ASYNC_EVENT = 1u << 13,   /* !pto.async_event value */
    K_ANY    = 0xfffu | K_ASYNC_SESSION | K_ASYNC_EVENT
};

/* Flags of an operand position. */
enum {
    SPEC_OPTIONAL = 1u << 0,  /* may be absent (only trailing positions) */
    SPEC_VARIADIC = 1u << 1,  /* zero or more (last position only) */
    SPEC_FORWARD  = 1u << 2,  /* may name a value defined later in the function (seed tassign) */
    SPEC_TMP      = 1u << 3,  /* scratch the op may clobber: not an input, not an output */
    SPEC_NAMED    = 1u << 4,  /* a tile named but not accessed (tassign binds it, treshape views it) */
    SPEC_AFTER_DST = 1u << 5, /* in PTOAS's operand order (its generic form) this input and the ones
                               * after it come after the destination (tcvt's and trsqrt's tmp) */
    SPEC_WORD64   = 1u << 6,  /* an i64 bit word (a pre-quantisation scalar): a literal is an i64 */
    SPEC_GENERIC_ONLY = 1u << 7, /* PTOAS's custom form cannot spell this operand (tmov's
                               * preQuantScalar: its parser takes it for the fp tile), so DPS output
                               * writes the op in MLIR's generic form when it is present */
    SPEC_INDEX    = 1u << 8,  /* written in brackets right after the operand before it, `%arr[%i]`
                               * (a run of SPEC_INDEX positions: `%arr[%i, %j]`); the generic form
                               * lists it as a plain operand */
    SPEC_GARBAGE  = 1u << 9   /* (with SPEC_TMP) the hardware keeps its own working data there (the
                               * SDMA engine's control words), which pto-run does not write: a later
                               * read of those bytes is an INIT.scratch report under --check-init */
};

typedef struct OperandSpec {
    const char *name;   /* "src0", "scalar", ... ; NULL ends a list */
    unsigned kinds;     /* K_* bits */
    unsigned flags;     /* SPEC_* bits */
} OperandSpec;

#define OPSPEC_MAX 6

/* Element-type set: bit (1 << dtype). */
#define DTBIT(dt) (1u << (dt))
/* Every 8-bit float (PTOAS's `FloatType` of width 8, f8E8M0FNU included). */
#define DTSET_F8 (DTBIT(DT_F8E4M3FN) | DTBIT(DT_F8E4M3) | DTBIT(DT_F8E5M2) | DTBIT(DT_F8E8M0FNU) | DTBIT(DT_F8E4M3FNUZ) | \
                  DTBIT(DT_F8E4M3B11FNUZ) | DTBIT(DT_F8E5M2FNUZ))
/* The 8-bit floats PTOAS names one by one where it leaves out f8E8M0FNU (the e4m3 and e5m2 ones). */
#define DTSET_F8_E4M3_E5M2 (DTSET_F8 & ~DTBIT(DT_F8E8M0FNU))

/* What values an attribute of an op row takes (ATTRS column of ops.def). Enum kinds list their
 * spellings in ir/attrs.c; `#pto<cmp lt>`, `#pto.cmp<lt>`, "lt" and a bare word all name `lt`. */
typedef enum AttrValueKind {
    AK_LAYOUT,        /* nd dn nz (make_tensor_view) */
    AK_ATOMIC,        /* atomic_none atomic_add (tstore) */
    AK_CMP_MODE,      /* eq ne lt le gt ge */
    AK_ROUND_MODE,    /* NONE RINT ROUND FLOOR CEIL TRUNC ODD CAST_RINT */
    AK_SAT_MODE,      /* ON OFF */
    AK_MASK_PATTERN,  /* P0101 P1010 P0001 P0010 P0100 P1000 P1111 */
    AK_BOOL,          /* true / false */
    AK_INT,           /* an integer literal (`7 : i32`) */
    AK_QUANT_TYPE,    /* INT8_SYM INT8_ASYM MXFP8 MXFP4_E2M1 (tquant) */
    AK_RELU_PRE_MODE, /* no_relu normal_relu (tstore, tmov) */
    AK_ACC_TO_VEC_MODE, /* single_mode_vec0 single_mode_vec1 dual_mode_split_m dual_mode_split_n (tmov) */
    AK_GATHER_OOB,    /* undefined clamp wrap zero (mgather gatherOob) */
    AK_SCATTER_ATOMIC, /* none add max min (mscatter scatterAtomicOp) */
    AK_SCATTER_OOB,   /* undefined skip clamp wrap (mscatter scatterOob) */
    AK_STRING,        /* a string literal ("c2v_fifo": reserve_buffer's name) */
    AK_SYMBOL,        /* a function symbol (@kernel_vector: import_reserved_buffer's peer_func) */
    AK_ADDRESS_SPACE, /* vec mat (#pto.address_space<vec>: reserve_buffer's location) */
    AK_INT_ARRAY,     /* a list of integers, `[16, 8]` (subset's sizes) */
    AK_KIND_COUNT
} AttrValueKind;

enum {
    ATTR_REQUIRED = 1u << 0,
    ATTR_KEYWORD  = 1u << 1  /* PTOAS's custom form writes it as `NAME VALUE` after the operands, not in
                              * the attribute dictionary (subset's `sizes [16, 8]`) */
};

typedef struct AttrSpec {
    const char *name;   /* "cmpMode"; NULL ends the list */
    AttrValueKind kind;
    unsigned flags;     /* ATTR_* */
} AttrSpec;

#define ATTRSPEC_MAX 6

typedef enum OpClass {
    CLS_TILE,       /* tile compute instruction (seed ops and the vector ISA) */
    CLS_TILE_MEM,   /* alloc_tile, tassign, tload, tstore, tprint, set_validshape */
    CLS_GM,         /* make_tensor_view, partition_view */
    CLS_SCALAR,     /* arith.* */
    CLS_CONTROL,    /* scf.*, func.call, return */
    CLS_SYNC        /* synchronisation: parsed, no run-time effect */
} OpClass;

/* Op flags. */
enum {
    OPF_DPS        = 1u << 0,  /* written `ins(...) outs(...)`; the SSA form's result becomes outs[0] */
    OPF_TERMINATOR = 1u << 1,  /* ends a block (scf.yield, return) */
    OPF_REGIONS    = 1u << 2,  /* carries regions (scf.for, scf.if) */
    OPF_PURE_SYNC  = 1u << 3,  /* no effect at run time */
    OPF_VARIADIC_RESULTS = 1u << 4, /* any number of results (scf.if, scf.for, func.call) */
    OPF_OPTIONAL_RESULT  = 1u << 5, /* zero or one result (seed `pto.tassign %t, @tile(..)` vs PTOAS form) */
    OPF_PREDICATE  = 1u << 6,  /* a leading predicate keyword: `arith.cmpi slt, %a, %b` */
    OPF_LITERAL    = 1u << 7,  /* its operand is a literal written in place (arith.constant) */
    OPF_DST_READ   = 1u << 12, /* the destination is also an input (TAXPY: dst += src * scalar) */
    OPF_COLUMNS    = 1u << 13, /* a reduction over each column (TCOLSUM), not each row */
    OPF_RESULT_I64 = 1u << 14, /* its one result is i64 when no signature says otherwise (pto.get_block_idx) */
    OPF_ATTRS_IN_INS = 1u << 15, /* DPS: PTOAS writes the attr-dict inside ins(...) after the last operand */
    OPF_FROM_INT   = 1u << 16, /* a conversion from an integer (arith.sitofp) */
    OPF_TO_INT     = 1u << 17, /* a conversion to an integer (arith.fptosi) */
    OPF_WIDEN      = 1u << 18, /* a float conversion to a wider type (arith.extf) */
    OPF_SYNC_SET   = 1u << 19, /* raises an event flag (set_flag, record_event) */
    OPF_SYNC_WAIT  = 1u << 20, /* waits for an event flag and clears it (wait_flag, wait_event) */
    OPF_SYNC_BARRIER = 1u << 21, /* orders a pipe against itself (barrier, pipe_barrier) */
    OPF_GEMV       = 1u << 22, /* a matrix-vector product: lhs has one valid row (tgemv) */
    OPF_ONE_ELEMENT = 1u << 23, /* touches one element of its tile, at the linear storage offset its
                                 * lowering keeps in sc[1] (tsetval, tgetval): what pto-run's checkers see */
    OPF_PAD_FILL   = 1u << 24, /* fills dst's whole footprint with its pad value before writing the
                                * valid region (TLOAD, TFILLPAD; a null pad: the simulator writes
                                * zeros there, the hardware leaves those bytes as they were) */
    OPF_SYNC_BUF   = 1u << 25, /* a buffer-id token (get_buf: with OPF_SYNC_WAIT, rls_buf: with OPF_SYNC_SET) */
    OPF_SYNC_CROSS = 1u << 26, /* a cross-core semaphore (sync.set: with OPF_SYNC_SET, sync.wait: OPF_SYNC_WAIT) */
    OPF_TYPED_INS  = 1u << 27, /* DPS: PTOAS's assembly types each input in place, `ins(%a : Ta, %b : Tb)` */
    OPF_SCALAR_RESULT = 1u << 28, /* DPS without outs: its one result is a scalar, `%r = op ins(...) outs : T`
                                  * in PTOAS's form, `%r = op a, b : (A, B) -> T` in SSA form (tgetval) */
    OPF_OVERLOAD   = 1u << 29, /* one more row of the op named by the row before it (same name, adjacent
                                * rows: an overload set): name lookup finds the set's row without this
                                * flag, and the parser binds an op to the set's first row whose ins
                                * positions take the operands' kinds (tmov's second input: an fp tile
                                * or a pre-quantisation word). MLIR's generic form names the optional
                                * inputs after dst of every row of the set, in row order, in
                                * operandSegmentSizes */
    OPF_VALUE_FIRST = 1u << 30 /* the custom form writes the last input first, `%v, %ptr[%i]`, and its
                                * `: T, ...` signature skips the bracketed (SPEC_INDEX) inputs
                                * (PTOAS's store_scalar); the generic form keeps the row's order */
};
/* DPS: PTOAS's custom form leads ins(...) with a string literal, `ins("FMT", %v : T)`: the value of
 * the row's first AK_STRING attribute (pto.print's format); the generic form has it among the
 * attributes like any other. */
#define OPF_STRING_IN_INS ((uint64_t)1 << 38)
/* Another name of the op of the next row (SPEC 1.5's `pto.pipe_barrier` for PTOAS's `pto.barrier`):
 * name lookup yields the next row, so nothing past the parser sees this row. */
#define OPF_ALIAS ((uint64_t)1 << 42)

/* How a custom-syntax (non-DPS) op writes its `: signature` (stored in bits 8..11 of the flags). */
typedef enum SigStyle {
    SIG_DEFAULT,    /* `: (T0, ...) -> R` when it has results, else `: T0, T1, ...` */
    SIG_RESULT,     /* `: R` (a bool literal with an i1 result writes none) */
    SIG_OPERAND0,   /* `: T0` */
    SIG_ARROW,      /* `: T0 -> R`; without a result `: T0` when its type is known */
    SIG_TO,         /* `: T0 to R` */
    /* what SIG_DEFAULT / SIG_RESULT / SIG_ARROW resolve to for a given op (printer): */
    SIG_NONE,       /* nothing */
    SIG_OPERANDS,   /* `: T0, T1, ...` */
    SIG_FUNCTION,   /* `: (T0, ...) -> R` */
    SIG_ARROW_ONLY, /* `-> R` with no `:` and no operand types (pto.declare_eventid_array) */
    SIG_OPERAND0_INDEX, /* `: T0`, naming the first operand's type; the one result is index
                        * (pto.eventid_array_get) */
    SIG_PIPE,       /* PTOAS's pipe-op format (ops_pipe.def): `(%t : T)` or `(%r, %c)` for the
                     * operands, the attributes in braces, `(key = %v : T, ...)` for keyword
                     * operands, `-> R` for the result */
    SIG_PIPE_INIT,  /* PTOAS's lowered pipe init format (ops_pipe.def): the attributes in braces
                     * first, then each operand typed in place, `{...}(%a : A, %b : B) -> R` */
    SIG_PAREN,      /* `(%a, %b : A, B) {attrs} -> R`: every operand typed in the parentheses, the
                     * attribute dictionary after them (PTOAS's async GM transfer ops, ops_async.def) */
    SIG_OPERAND0_VIEW /* `: T0`, naming the first operand's type; the one result is a tile view whose
                     * type is inferred from the operands and attributes (view_result_tile; pto.subset),
                     * or written `: T0 -> R` */
} SigStyle;
#define OPF_SIG(style) ((unsigned)(style) << 8)

/* The pipe an instruction runs on (bits 32..34 of the 64-bit flags; read by pto-run --check-sync;
 * research sync-check.md 1.3, following the ISA's implementation where PTOAS differs). */
typedef enum PipeRule {
    PR_MEMORY,      /* from its operands' memories: a GM source MTE2; a GM destination MTE3 (FIX from
                     * acc); mat into left/right/bias/scaling MTE1; an acc source FIX; vec into mat
                     * FIX on A2/A3, MTE3 on A5; everything else V */
    PR_CUBE,        /* M: the matmul rows */
    PR_SCALAR,      /* S: a scalar loop over the tile (tci: PTOAS #735, #1532) */
    PR_FILL,        /* V, or MTE2 when dst is a mat tile (texpands, tfillpad: pto-isa *_MAT) */
    PR_SCATTER,     /* S on A2/A3 (a scalar loop over UB), V on A5 (tscatter) */
    PR_TRANSPOSE,   /* V; on A2/A3 S when a row stride rules out the vnchwconv path: dst's row stride
                     * not a multiple of 16 elements (32 for 1-byte types) or src's not a multiple of
                     * one 32-byte block (ttrans: pto-isa a2a3/TTrans.hpp TransTailTiles) */
    PR_FIFO_PUSH,   /* an inter-core FIFO push, on the pipe of its data move (pto-isa npu TPush): FIX
                     * from an acc tile, MTE3 from a vec tile */
    PR_FIFO_POP     /* a FIFO pop, on the pipe its wait orders (pto-isa npu TPop): MTE2 on A2/A3 (it
                     * loads the GM slot), on A5 V into a vec tile, MTE1 into a mat tile */
} PipeRule;
#define OPF_PIPE(rule) ((uint64_t)(rule) << 32)
#define OPF_PIPE_RULE(flags) ((PipeRule)(((flags) >> 32) & 7u))
/* A FIFO push or pop: it may wait on its FIFO and run again, so the checkers take it after it ran. */
#define OPF_PIPE_FIFO(flags) (OPF_PIPE_RULE(flags) == PR_FIFO_PUSH || OPF_PIPE_RULE(flags) == PR_FIFO_POP)

/* Synchronisation an implementation does inside itself (bits 35..37 of the flags; sync-check.md
 * 1.2): what pto-run --check-sync models besides the op's own pipe. */
typedef enum InternalSync {
    IS_NONE,
    IS_BARRIER_ALL_A2A3,   /* starts with pipe_barrier(PIPE_ALL) on A2/A3 (tprint) */
    IS_ROW_ARG_KEYS_A2A3,  /* A2/A3: set/wait (V -> S, EVENT_ID0) then (S -> V, EVENT_ID0) when a row
                            * spans more than one 256-byte repeat (trowargmax, trowargmin) */
    IS_SCALAR_COPY_KEYS_A5, /* A5: the same two handshakes when the vec -> vec window is one element
                            * (textract, tinsert) */
    IS_SCALAR_PATH_KEYS_A2A3, /* A2/A3: the same two handshakes around the op when its pipe rule puts it
                              * on S (ttrans's scalar fallback, pto-isa a2a3/TTrans.hpp); on V, a
                              * pipe_barrier(PIPE_V) between its src reads and its dst writes */
    IS_BARRIER_ALL_CONTRACT  /* both targets: pipe_barrier(PIPE_ALL) at the op's start, as part of what the
                              * op means (every earlier access of every pipe before it and everything
                              * after it: the async GM transfer ops, pto-isa comm/async/sdma) */
} InternalSync;
#define OPF_INTERNAL(x) ((uint64_t)(x) << 35)
#define OPF_INTERNAL_SYNC(flags) ((InternalSync)(((flags) >> 35) & 7u))

/* The part an asynchronous GM transfer row plays (bits 39..41 of the flags; ops_async.def), read
 * by pto-run --check-sync's model of the DMA engine (interp/check_sync.c async_op). */
typedef enum AsyncRole {
    AR_NONE,
    AR_SESSION,     /* build_async_session: a session and its queues */
    AR_PUT,         /* tput_async: a copy on the DMA engine; on A5 through UB on MTE2/MTE3 */
    AR_GET,         /* tget_async: a copy on the DMA engine */
    AR_WAIT         /* wait_async_event / test_async_event: orders its transfer and the earlier ones */
} AsyncRole;
#define OPF_ASYNC(role) ((uint64_t)(role) << 39)
#define OPF_ASYNC_ROLE(flags) ((AsyncRole)(((flags) >> 39) & 7u))

typedef struct OpInfo {
    const char *name;        /* full name, e.g. "pto.tmuls", "arith.addi", "scf.for" */
    const char *asm_name;    /* assembly-form mnemonic without `pto.` ("tmuls"), or NULL */
    OpClass cls;
    OperandSpec ins[OPSPEC_MAX];   /* positional operands (for DPS ops: the ins(...) list) */
    OperandSpec outs[2];           /* DPS outs(...) list */
    OperandSpec kw[4];             /* keyword operand groups; name is the key */
    int n_results;                 /* results of the non-DPS form (DPS: 0; SSA form: 1 = outs[0]) */
    uint64_t flags;           /* OPF_* bits, OPF_SIG, OPF_PIPE, OPF_INTERNAL */
    uint32_t dtypes[2];            /* element types taken on A2/A3 and on A5 (DTBIT sets; 0: none) */
    const char *elem;              /* element function of a compute family ("add"), else "none" */
    AttrSpec attrs[ATTRSPEC_MAX];  /* attributes the op accepts */
} OpInfo;

/* The signature style of an op row. */
static inline SigStyle op_sig_style(const OpInfo *info) { return (SigStyle)((info->flags >> 8) & 0xfu); }

/* The row for an opcode. */
const OpInfo *op_info(OpCode code);
/* The overload set of an op row (docs OPF_OVERLOAD): its first row in *first; the number of rows
 * (1 for a row in no set). */
int op_overload_set(OpCode code, OpCode *first);
/* Looks up an op by full name ("pto.tmuls") or assembly mnemonic ("tmuls"); false if unknown. */
bool op_lookup(const char *name, size_t len, OpCode *out);
/* Number of entries before the NULL terminator of a spec list. */
int opspec_count(const OperandSpec *specs, int max);
/* The element types an op takes on `target` (its row's DTYPES column). */
uint32_t op_dtypes(const OpInfo *info, Target target);
/* The row's spec of attribute `key`, or NULL when the op does not take it. */
const AttrSpec *op_attr_spec(const OpInfo *info, const char *key);
/* Checks an attribute's value against its kind; on success *value is the enum index (AK_BOOL:
 * 0/1, AK_INT: the integer). False when the value is not one the kind takes. */
bool attr_value(const Attr *a, AttrValueKind kind, int64_t *value);
/* The enum word of an attribute as written (no copy): the last word inside `<...>` of a raw
 * attribute (`#pto.pipe<PIPE_V>`, `<PIPE_V>`), a string's contents, or a bare word. */
bool attr_enum_word(const Attr *a, const char **word, size_t *len);
/* The integers of an AK_INT_ARRAY attribute as written (`[16, 8]`): up to `max` into vals, their
 * number in *count; false when the value is not such a list or holds more than max. */
bool attr_int_array(const Attr *a, int64_t *vals, int max, int *count);

/* Synchronisation arguments (ir/sync.c): pipes in PTOAS's enum order (PTOAttrs.td), so that
 * SYNC_PIPE_ALL is 6 and SYNC_PIPE_FIX 10, then the two virtual MTE2 pipes. */
enum {
    SYNC_PIPE_S, SYNC_PIPE_V, SYNC_PIPE_M, SYNC_PIPE_MTE1, SYNC_PIPE_MTE2, SYNC_PIPE_MTE3, SYNC_PIPE_ALL, SYNC_PIPE_MTE4,
    SYNC_PIPE_MTE5, SYNC_PIPE_V2, SYNC_PIPE_FIX, SYNC_PIPE_L1A, SYNC_PIPE_L1B, SYNC_PIPE_COUNT, SYNC_EVENT_IDS = 8
};
/* "PIPE_V" for SYNC_PIPE_V; "?" out of range. */
const char *sync_pipe_name(int pipe);
/* The pipe named by an argument word (PIPE_V), the pipe a sync op type stands for (TLOAD: MTE2,
 * PTOAS PTOSyncUtils.cpp), an EVENT_IDn's n; -1 when the word names none. */
int sync_pipe_named(const char *word, size_t len);
int sync_op_type_pipe(const char *word, size_t len);
int sync_event_named(const char *word, size_t len);
/* "lt", "RINT", ...: spelling `index` of an enum kind, or NULL. */
const char *attr_enum_name(AttrValueKind kind, int64_t index);
/* What a kind takes, for messages: "one of eq, ne, lt, le, gt, ge". */
const char *attr_kind_text(AttrValueKind kind);
/* What pto-as does with the module attribute (on_func false) or function attribute `key` PTOAS
 * defines, or NULL when PTOAS defines no such attribute (an error naming it: ATTR.unknown). */
const char *scope_attr_use(bool on_func, const char *key);
/* The attribute names scope_attr_use knows, for messages. */
const char *scope_attr_names(bool on_func);
/* What an attribute PTOAS defines on op `op_name` means, when pto-as does not implement it
 * (tmov's accToVecMode, tstore's stPhase, ...), else NULL. */
const char *ptoas_attr_unimplemented(const char *op_name, const char *key);

/* pto.print's format (ir/print_format.c): PTOAS lowers `pto.print ins("FMT", %v : T)` to a device
 * printf of (FMT, v). The format comes from untrusted text, so it is parsed into pieces and never
 * handed to printf as written: literal text before and after exactly one conversion (`%%` is a
 * literal '%'), and a C conversion spec rebuilt from checked parts (flags, width, precision) that
 * takes a long long (PF_ARG_INT: the value cast to `int_bits` bits first, signed or not as the
 * conversion says) or a double (PF_ARG_FLOAT). */
typedef enum PrintArgKind { PF_ARG_INT, PF_ARG_FLOAT } PrintArgKind;
typedef struct PrintOpFormat {
    const char *prefix, *suffix;  /* literal text (escapes decoded, `%%` folded), NUL-free */
    size_t prefix_len, suffix_len;
    char spec[40];                /* the conversion as passed to printf: "%+08.3f", "%-5llx" */
    PrintArgKind arg;
    int int_bits;                 /* PF_ARG_INT: 8, 16, 32 or 64 (hh, h, none, l/ll/j/z/t) */
    bool is_unsigned;             /* PF_ARG_INT: u, x, X, o */
} PrintOpFormat;
/* Largest width or precision a pto.print conversion may ask for. */
#define PRINT_FORMAT_MAX_FIELD 512
/* Parses pto.print's format `raw` (the string attribute as written, MLIR escapes \\ \" \n \t \XX
 * undecoded) for a scalar of type `scalar`; on failure *err says why (in `arena`). */
bool print_op_format_parse(Arena *arena, const char *raw, DType scalar, PrintOpFormat *out, const char **err);


/* ------------------------------------------------------------------------------------------ */
/* Ops, blocks, regions, functions, modules                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef enum OpSpelling {
    SPELL_DPS,      /* pto.OP ins(...) outs(...) */
    SPELL_SSA,      /* %d = pto.OP a, b : SIG */
    SPELL_ASM,      /* %d = OP a, b : SIG (no `pto.`) */
    SPELL_CUSTOM    /* the op's own syntax (alloc_tile, arith, scf, ...) */
} OpSpelling;

typedef struct Region Region;
typedef struct Block Block;

typedef struct Op {
    OpCode code;
    OpSpelling spelling;
    OperandList ins;          /* positional operands, in table order */
    OperandList outs;         /* DPS outs; for an SSA-form DPS op, outs[0].value == results[0] */
    KeywordArg *kwargs;
    Value **results;
    AttrList attrs;           /* {key = value} dictionary */
    AttrList attr_args;       /* positional attribute arguments: pto.set_flag[<A>, <B>], pto.barrier <PIPE_ALL> */
    const char *predicate;    /* arith.cmpi predicate ("slt", ...) or NULL */
    Type **result_types;      /* declared result types (scf.if -> (T), scf.for iter_args, func.call) */
    SrcLoc *result_type_locs; /* where each result type is written (n_result_types entries) */
    const char *callee;       /* func.call @callee (without @) */
    Region *regions;
    int n_kwargs;
    int n_results;
    int n_result_types;
    int n_regions;
    bool attr_args_bracketed; /* attr_args were written inside [ ] */
    SrcLoc loc;               /* location of the op name */
    SrcLoc sig_loc;           /* location of the `: SIG` part, if any */
    struct Op *next;
    struct Op *prev;
    Block *parent;
} Op;

struct Block {
    Value **args;             /* block arguments (scf.for induction variable + iter_args, ^bb args) */
    int n_args;
    Op *first, *last;
    Region *parent;
};

struct Region {
    Block *block;             /* regions here hold exactly one block */
    Op *parent;
};

/* Finds a keyword operand group by key, or NULL. */
const KeywordArg *op_kwarg(const Op *op, const char *key);
/* Appends `op` to the end of `block`. */
void block_append(Block *block, Op *op);
/* The value of op attribute `key` of `kind` (attr_value), or `fallback` when it is absent. */
int64_t op_attr_value(const Op *op, const char *key, AttrValueKind kind, int64_t fallback);

typedef struct Func {
    const char *name;         /* without @ */
    Value **args;
    int n_args;
    Type **result_types;
    SrcLoc *result_type_locs; /* where each result type is written (n_results entries) */
    int n_results;
    AttrList attrs;
    bool is_private;
    bool is_entry;            /* has the pto.entry (or hacc.entry) attribute */
    bool is_declaration;      /* no body */
    bool parse_failed;        /* the parser reported an error in it (head or body): the verifier skips it */
    Region body;
    uint32_t n_values;        /* values numbered 0..n_values-1 (Value.id) */
    SrcLoc loc;               /* location of the function name */
} Func;

/* "cube" or "vector" from a function's pto.kernel_kind attribute (#pto.kernel_kind<cube>), else NULL. */
const char *func_kernel_kind(const Func *f);

typedef struct Module {
    Arena *arena;
    const SourceFile *file;
    Func **funcs;
    int n_funcs;
    AttrList attrs;           /* module attributes {pto.target_arch = "a5", ...} */
    bool implicit;            /* bare statements formed an implicit @main */
    bool has_module_keyword;  /* written `module { ... }` */
    bool has_target_attr;     /* pto.target_arch given */
    Target file_target;       /* from pto.target_arch (A2A3 when absent) */
    int32_t *func_slots;      /* hash index of funcs by name (module_index_funcs), or NULL */
    size_t func_slot_count;   /* a power of two */
} Module;

/* Indexes m->funcs by name (in m->arena) so that lookups cost O(1); call again after changing
 * m->funcs. Without an index, lookups scan the functions (issue #6: a module with many functions
 * and calls must not take quadratic time). */
void module_index_funcs(Module *m);
/* Index in m->funcs of the (first) function named `name`, or -1. */
int module_func_index(const Module *m, const char *name);
/* Sets the module attribute pto.target_arch to `target` (added, or replacing the one written). */
void module_set_target(Module *m, Target target);
/* Finds a function by name, or NULL. */
Func *module_find_func(const Module *m, const char *name);
/* The entry function per SPEC 1.2: `name` when given, else the one marked `pto.entry`, else the
 * only definition, else the only public (not `private`) definition; NULL when none of these. */
Func *module_entry(const Module *m, const char *name);

/* ------------------------------------------------------------------------------------------ */
/* Printer (ir/printer.c) -- added by the front end (issue #2)                                 */
/* ------------------------------------------------------------------------------------------ */

typedef enum PrintForm {
    PRINT_DPS,  /* canonical PTOAS-compatible DPS: module/func.func, ins(...)/outs(...), compact
                 * !pto.tile_buf types, immediates hoisted into arith.constant */
    PRINT_SSA,  /* SSA Level 1: `%d = pto.OP a, b : (T0, T1) -> R`, !pto.tile types, bare statements
                 * for an implicit @main */
    PRINT_GENERIC /* PRINT_DPS, but the tile ops and plain scalar ops in MLIR's generic form
                   * `"pto.tadd"(%a, %b, %d) : (A, B, D) -> ()` (operands in PTOAS's order) */
} PrintForm;

/* Why a PTOAS operation `name` (e.g. "pto.tmatmul.mx") is not in the op table, for its error;
 * NULL when it is not one PTOAS defines. */
const char *op_unimplemented_reason(const char *name, size_t len);
/* The form of a matmul row (ir/ops_cube.def, its ELEM column): what happens to the product. */
enum { MM_PLAIN, MM_ACC, MM_BIAS };
/* MM_PLAIN, MM_ACC (adds acc_in) or MM_BIAS (adds a bias row) for a matmul op; MM_PLAIN otherwise. */
int matmul_form(OpCode code);
/* The position of a DPS op's destination among its `n` operands in PTOAS's operand order (the
 * generic form): before the first input marked SPEC_AFTER_DST, else last. */
size_t ptoas_dst_index(OpCode code, size_t n);

/* Reports (as errors) the ops `form` cannot express (DPS: an SSA-form op whose tile result has a
 * dynamic valid shape); true when there are none. Check before printing. */
bool module_check_printable(const Module *m, PrintForm form, DiagList *diags);
/* Returns the module as text in `form` (a fresh arena string); see docs/syntax.md. */
char *module_to_string(Arena *arena, const Module *m, PrintForm form);
/* Writes the module as text in `form` to `out`; false on a write error. */
bool module_print(FILE *out, const Module *m, PrintForm form);

/* A set/wait op's flag from its bracket arguments (the row's ELEM column says their kinds: P pipe,
 * O op type, E event): source and destination pipes, and the event id, or -1 when the op takes it
 * as an operand (the _dyn forms). False when an argument is missing or names nothing. */
bool sync_flag_args(const Op *op, int *src, int *dst, int *event);
/* The integer an argument spells (`3`, `3 : i32`); false when it is not one. */
bool sync_int_arg(const Attr *a, int64_t *value);
/* A buffer-id op's (get_buf, rls_buf) pipe, from its sync op type, and buffer id (not range
 * checked). False when an argument is missing or names nothing. */
bool sync_buf_args(const Op *op, int *pipe, int64_t *buf_id);
/* A cross-core op's (sync.set, sync.wait) pipe and static id; *id = -1 when the id is its index
 * operand. False when the arguments are malformed. */
bool sync_cross_args(const Op *op, int *pipe, int64_t *id);
/* How many cross-core semaphore ids a target has (A2/A3 FFTS: 16; A5 intra-block: 32). */
int sync_cross_ids(Target target);

/* Tile views with an inferred result type (ir/views.c; rows with SIG_OPERAND0_VIEW: pto.subset). */
/* An integer operand's value where PTOAS sees a constant: an integer literal, or a value defined by
 * arith.constant with an integer literal; false otherwise. */
bool operand_const_int(const Operand *o, int64_t *out);
/* pto.subset's window: rows x cols (its `sizes`), or false when the attribute is not two integers. */
bool subset_sizes(const Op *op, int64_t *rows, int64_t *cols);
/* A subset's valid dim (PTOAS's rule, static and at run time): the window's size clipped to what
 * is left of the parent's valid dim `pv` past the offset taken modulo pv (an offset of pv, the
 * next ping/pong half, gives pv again); 0 when pv is not positive. */
int64_t subset_valid_dim(int64_t size, int64_t pv, int64_t offset);
/* The result type of a view op (PTOAS SubsetOp::inferReturnTypes): shape `sizes`, src's element
 * type, loc and config, each valid dim subset_valid_dim of src's static valid dim and a constant
 * offset, `?` (DIM_DYNAMIC) when either is not static. False when src has no tile type or the
 * sizes are not two positive integers. */
bool view_result_tile(const Op *op, TileType *out);

#endif
