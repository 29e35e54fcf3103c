/* vctx.h - internals shared by the verifier's rule files: the verification context, per-function
 * facts for the memory plan, operand accessors, reporting, dtype sets and constant scalars.
 * Not part of the public interface (see verifier.h). */
#ifndef PTO_VCTX_H
#define PTO_VCTX_H

#include "verifier.h"

/* ------------------------------------------------------------------------------------------ */
/* Context                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A tile bound to a constant byte address (tassign, alloc_tile addr =). */
typedef struct Placement {
    const Op *op;            /* the placing op */
    SrcLoc loc;              /* the address operand */
    const TileType *tile;    /* the placed tile's type */
    int64_t addr;            /* byte offset in the loc's buffer */
} Placement;

/* Facts gathered while the rules of one function run, consumed by the memory plan. The vectors
 * are heap memory, freed by facts_release. */
typedef struct FuncFacts {
    const Func *func;
    PtrVec placements;       /* Placement *: manual placements with a constant address */
    PtrVec manual_tiles;     /* Value *: tiles bound by tassign (either form) or alloc_tile addr = */
    PtrVec auto_candidates;  /* Value *: alloc_tile without addr, tile results of result-form ops */
    const Op *scratch_user;  /* first op relying on the A2A3 hidden row-expand scratch */
    PtrVec ffts_operands;    /* Value *: the memref operands of pto.set_ffts (and initialize_l2g2l_pipe's gm_addr) */
    const Op *first_cross_sync; /* the first pto.sync.set / pto.sync.wait */
    int64_t n_order;         /* ops met by the walk; an op's position is its pre-order number */
    int64_t *region_end;     /* for the k-th op with regions (pre-order): position of its last nested op */
    int64_t n_region_ops, region_cap;
    int depth, max_depth;    /* nesting of region-holding ops during the walk */
} FuncFacts;

/* A set of non-zero 64-bit keys (written type locations, Type addresses). */
typedef struct SeenSet {
    uint64_t *keys;          /* open addressing; 0 = empty slot */
    size_t count, cap;
} SeenSet;

/* The module's call graph: CSR edges and strongly connected components (callgraph.c). */
typedef struct CallGraph {
    int n;                   /* functions, in module order */
    const Func *const *funcs;
    int *slots;              /* name hash: function index or -1 */
    size_t slot_count;
    int64_t *edge_start;     /* edges of function i: edges[edge_start[i] .. edge_start[i + 1]) */
    int *edges;              /* callee indices */
    int *component;          /* strongly connected component of each function */
} CallGraph;

/* Rule IDs built by op_rule, cached per (op code, suffix) so that no rule allocates per op. */
typedef struct RuleId {
    OpCode code;
    const char *suffix;
    const char *id;          /* NULL = empty slot */
} RuleId;

typedef struct RuleCache {
    RuleId *slots;
    size_t count, cap;
    RuleId recent[64];       /* direct-mapped by (code, suffix address): most calls pass literals */
} RuleCache;

typedef struct VerifyCtx {
    const Module *module;
    Target target;
    DiagList *diags;
    Arena *arena;            /* for messages and per-function tables (the diagnostics' arena) */
    FuncFacts *facts;        /* facts of the function being verified */
    int func_index;          /* its index in the module (and the call graph) */
    CallGraph calls;         /* built on first use (verify_call_graph) */
    bool calls_built;
    SeenSet seen_types;      /* uses of ill-formed tile types already reported (by location) */
    SeenSet good_tile_types; /* tile Types found well-formed (by address) */
    SeenSet bad_tile_types;  /* tile Types found ill-formed (by address) */
    RuleCache rule_ids;
} VerifyCtx;

/* Every VERIFY function named in ops.def, declared from the table itself. */
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn, dts, elem, attrs) \
    void verify_fn(VerifyCtx *ctx, const Op *op);
#include "ops.def"
#undef OP

/* ------------------------------------------------------------------------------------------ */
/* Reporting                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Reports "'OPNAME' op MESSAGE" under `rule` at `loc` (the op's location when loc.line is 0). */
void vreport(VerifyCtx *ctx, const Op *op, SrcLoc loc, Severity sev, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Builds the rule ID "PREFIX.suffix" where PREFIX is the op's mnemonic in capitals (TROWPROD);
 * `suffix` must not change while ctx lives (rule IDs are cached by its address): a literal. */
const char *op_rule(VerifyCtx *ctx, const Op *op, const char *suffix);
/* Canonical text of a type (as written: tile or tile_buf), for messages. */
const char *type_text(VerifyCtx *ctx, const Type *t);
/* "?" or the decimal value of a dimension. */
const char *dim_text(VerifyCtx *ctx, int64_t d);
/* "A2/A3" or "A5", as PTOAS names the targets in its messages. */
const char *target_label(Target t);

/* ------------------------------------------------------------------------------------------ */
/* Operands                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* A tile operand with its table name, its type at this use and where to point a caret. */
typedef struct TileArg {
    const char *name;        /* operand name from the op table ("src0", "dst", ...) */
    const Operand *opd;      /* NULL when absent */
    const Type *type;
    const TileType *tile;    /* NULL when absent or not a tile */
    SrcLoc loc;              /* where the operand's type is written, else the operand */
    bool implied;            /* a result whose type is implied by (is the same as) a source operand's,
                              * e.g. TMULS `%d = tmuls %s, 2.0 : T`: checks of the source cover it */
} TileArg;

/* The type of an operand at this use: the written one, else its value's type (NULL for bare literals). */
const Type *operand_type(const Operand *opd);
/* Where a caret for a problem with this operand's type goes (written type, operand, op). */
SrcLoc operand_type_loc(const Op *op, const Operand *opd);
/* ins[index] as a tile argument (tile == NULL when absent). */
TileArg tile_in(const Op *op, int index);
/* outs[index] as a tile argument (tile == NULL when absent). */
TileArg tile_out(const Op *op, int index);
/* A tile argument for a value's own type (alloc_tile results, function arguments). */
TileArg tile_of_value(const char *name, const Value *v);

/* True for a dimension that is known statically. */
static inline bool dim_known(int64_t d) { return d != DIM_DYNAMIC; }

/* ------------------------------------------------------------------------------------------ */
/* Element-type sets                                                                           */
/* ------------------------------------------------------------------------------------------ */


#define DTS_F16_F32 (DTBIT(DT_F16) | DTBIT(DT_F32))
#define DTS_I16_I32 (DTBIT(DT_I16) | DTBIT(DT_I32))
#define DTS_8BIT (DTBIT(DT_I8) | DTBIT(DT_U8))
#define DTS_16BIT_INT (DTBIT(DT_I16) | DTBIT(DT_U16))
#define DTS_32BIT_INT (DTBIT(DT_I32) | DTBIT(DT_U32))

/* A dtype list per target ("TileData::DType must be one of: ..."). */
typedef struct TargetDTypes {
    uint32_t a2a3, a5;
} TargetDTypes;

/* The set for the context's target. */
uint32_t dtypes_for_target(const VerifyCtx *ctx, const TargetDTypes *sets);
/* "i16/i32/f16/f32": the members of a set in a fixed order. */
const char *dtype_set_text(VerifyCtx *ctx, uint32_t set);
/* Reports `rule` unless arg's dtype is in `allowed`: "expects A2/A3 WHAT to be LIST, got T (NAME: TYPE)". */
bool check_dtype_in(VerifyCtx *ctx, const Op *op, const TileArg *arg, const char *rule, const char *what,
                    uint32_t allowed);
/* Reports `rule` at `at` unless a and b have the same dtype ("expects A and B to have the same element type"). */
bool check_same_dtype(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, const TileArg *at,
                      const char *rule);
/* Reports `rule` unless arg's loc is one of `locs` (bit set of TileLoc); `what` names the allowed set. */
bool check_loc_in(VerifyCtx *ctx, const Op *op, const TileArg *arg, unsigned locs, const char *what,
                  const char *rule);
/* Reports `rule` unless arg is row-major ("expects NAME to use row-major layout"). */
bool check_row_major(VerifyCtx *ctx, const Op *op, const TileArg *arg, const char *rule);
/* Reports `rule` when both valid dims at `dim` (0 rows, 1 cols) are static and differ. */
bool check_same_valid_dim(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, int dim,
                          const char *rule);
/* Reports OP.dtype unless arg's dtype is one the op's row lists for the target. */
bool check_op_dtype(VerifyCtx *ctx, const Op *op, const TileArg *arg);
/* Checks the scalar operand ins[index] of a tile-scalar op against `tile`'s element type: an
 * integer or float, representable (error), converted without change (else a warning). */
void check_tile_scalar(VerifyCtx *ctx, const Op *op, int index, const TileArg *tile);
/* Valid rows (dim 0) or valid cols (dim 1) of a tile. */
int64_t valid_dim(const TileType *t, int dim);

#define LOCBIT(loc) (1u << (loc))

/* ------------------------------------------------------------------------------------------ */
/* Constants and scalar conversion (const.c)                                                   */
/* ------------------------------------------------------------------------------------------ */

/* A statically known scalar. */
typedef struct ConstScalar {
    bool known;
    bool is_float;           /* f holds the value; else i */
    double f;
    int64_t i;
    const char *text;        /* the literal as written, for messages */
} ConstScalar;

typedef enum ScalarFit {
    FIT_EXACT,               /* converts without change (float rounding within range counts as exact) */
    FIT_LOSSY,               /* converts, but the value changes (3.14 -> 3, 1e-30 -> 0) */
    FIT_OUT_OF_RANGE         /* cannot be represented (300 -> i8, 1e6 -> f16, NaN -> i32) */
} ScalarFit;

/* The integer value of an operand when it is a literal, an @tile(addr) or an arith.constant
 * (possibly through arith.index_cast); false otherwise. */
bool const_int_of(const Operand *opd, int64_t *out);
/* The value of a scalar operand, as materialised in its own type; a typeless hex literal is read
 * as a bit pattern of `bits_type` when that is a float type. */
ConstScalar const_scalar_of(const Operand *opd, DType bits_type);
/* How a known scalar converts to a tile element type; *converted receives the new value. */
ScalarFit scalar_fit(const ConstScalar *v, DType dt, double *converted);
/* Rounds a double to the nearest f16 / bf16 / f32 value (round to nearest even, +-inf on overflow). */
double round_to_float_dtype(double v, DType dt);
/* Smallest and largest value of an integer dtype (as doubles and exactly as int64 where possible). */
void int_dtype_range(DType dt, int64_t *min, int64_t *max, bool *max_is_u64);

/* Builds the call graph of a module (arena memory). */
void callgraph_build(Arena *arena, const Module *m, CallGraph *g);
/* The module's call graph, built the first time it is needed. */
const CallGraph *verify_call_graph(VerifyCtx *ctx);
/* Index of the function called `name`, or -1. */
int callgraph_func_index(const CallGraph *g, const char *name);

/* ------------------------------------------------------------------------------------------ */
/* Memory plan (memplan.c)                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Checks a constant tile placement (32-byte alignment, inside the loc's buffer) and records it. */
void check_and_record_placement(VerifyCtx *ctx, const Op *op, const Operand *addr_opd, const TileType *tile);
/* Records a tile as manually placed (its address may be computed at run time). */
void record_manual_tile(VerifyCtx *ctx, const Value *tile_value);
/* Records a tile that the toolchain places automatically unless it is tassigned later. */
void record_auto_candidate(VerifyCtx *ctx, const Value *tile_value);
/* Records that `op` uses the A2A3 hidden row-expand scratch [0x2E000, 0x30000). */
void record_scratch_user(VerifyCtx *ctx, const Op *op);
/* Runs the end-of-function memory rules: peak auto bytes per buffer, scratch overlaps. */
void memplan_finish_function(VerifyCtx *ctx, const Func *f);
/* Frees the heap vectors of a function's facts. */
void facts_release(FuncFacts *facts);

/* The straight-line set/wait protocol of one function (rules_scalar.c): a second set before a
 * wait, a wait nothing raised, flags left set at the end of an entry. */
void verify_sync_protocol(VerifyCtx *ctx, const Func *f);

#endif
