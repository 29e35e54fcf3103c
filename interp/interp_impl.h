/* interp_impl.h - private to interp/: run-time values, frames, the flat instruction format, the
 * lowering context and the helpers shared by the lowering files (lower.c: framework, scalars and
 * control flow; lower_tile.c: tile and GM instructions) and the executor (exec.c).
 *
 * Memory model (docs/execution.md):
 *   - one zero-filled host buffer per on-chip memory (UB, L1, L0A, L0B, L0C, BT, FB), sized by target;
 *     manually placed tiles (tassign, alloc_tile addr =) are views into them;
 *   - auto-placed tiles live in their function activation's own "auto" block of host memory, one
 *     disjoint region per tile value, so they alias nothing;
 *   - one GM buffer per !pto.ptr argument of the entry function.
 * Every tile view's footprint lies inside its buffer (checked when placed), and every valid
 * region inside its footprint (checked when set), so kernels never check bounds. */
#ifndef PTO_INTERP_IMPL_H
#define PTO_INTERP_IMPL_H

#include "kernels.h"

#define INTERP_MAX_RANK 8
#define INTERP_MAX_CALL_DEPTH 256
#define INTERP_MAX_TILE_BYTES ((int64_t)1 << 30)   /* a single tile's footprint */
#define INTERP_MAX_AUTO_BYTES ((int64_t)1 << 31)   /* auto tiles of one function activation */
#define INTERP_MAX_GM_BYTES ((int64_t)1 << 32)     /* one GM buffer */

/* ------------------------------------------------------------------------------------------ */
/* Run-time values                                                                             */
/* ------------------------------------------------------------------------------------------ */

enum { VIEW_PLACED = 1u, VIEW_DEFINED = 2u };

/* A tile value: where its footprint starts and its current valid region. Static facts (dtype,
 * shape, layout) come from the value's type, resolved into TileRef at lowering. */
typedef struct TileView {
    uint8_t *base;          /* first byte of the footprint (NULL until placed or defined) */
    int32_t vr, vc;         /* valid rows / cols */
    int32_t auto_slot;      /* auto-storage index in the owning frame, or -1 */
    uint32_t frame_serial;  /* activation owning that auto storage (0: none) */
    uint32_t flags;         /* VIEW_PLACED (bound by a seed tassign), VIEW_DEFINED */
    int32_t reserved;
} TileView;

/* A tensor or partition view on a GM buffer (elements, not bytes). */
typedef struct GmView {
    int32_t buffer;         /* index into Interp.gm */
    int32_t rank;
    int64_t offset;
    int64_t shape[INTERP_MAX_RANK];
    int64_t strides[INTERP_MAX_RANK];
} GmView;

/* An event-id array (pto.declare_eventid_array): `size` ids of int32_t, as PTOAS's C++ helper
 * holds them, in the declaring activation's auto storage (NULL until the declaration ran). */
typedef struct EventIdArray {
    int32_t *ids;
    int64_t size;
} EventIdArray;

/* One frame slot: scalars (ScalarValue convention), a GM pointer (buffer index in `i`), a tile
 * view, a GM view or an event-id array, depending on the value's static type. */
typedef union RtValue {
    int64_t i;
    double f;
    TileView tile;
    GmView view;
    EventIdArray evarr;
} RtValue;

typedef struct GmBuffer {
    const Value *arg;       /* the entry function's !pto.ptr argument */
    DType dtype;
    size_t elem_size;
    uint8_t *data;          /* count * elem_size bytes (NULL while empty): malloc'd, or inside `map` */
    void *map;              /* the private file mapping of --in data (interp_bind_gm_move), or NULL */
    size_t map_len;
    int64_t count;
    bool fixed;             /* size set by --in: views must fit; else grows to the largest reach */
    int shape_rank;         /* shape of the first contiguous view made on it (0: none) */
    int64_t shape[INTERP_MAX_RANK];
    bool bound;             /* has its data from interp_bind_gm (--in) */
    uint8_t *written;       /* require_inputs, unbound buffers: one byte per element, 1 once stored */
} GmBuffer;

/* ------------------------------------------------------------------------------------------ */
/* Instructions                                                                                */
/* ------------------------------------------------------------------------------------------ */

typedef struct Interp Interp;
typedef struct Instr Instr;

enum { STAGE_BYTES = 16 * 1024 };
enum { PC_ERROR = -1, PC_HALT = -2, PC_YIELD = -3 /* a core waits on a FIFO (ops_pipe.c): ip->yield_pc retries */ };

/* Executes one instruction; returns the next pc, PC_ERROR after a located error, PC_HALT at the
 * end of the entry function. */
typedef int32_t (*ExecFn)(Interp *ip, const Instr *in, int32_t pc);

/* One contiguous run of a tile region's bytes: n bytes at p; return false to stop the walk. */
typedef bool (*TileRunFn)(void *ctx, const uint8_t *p, int64_t n);
/* Walks the bytes of a data-dependent access of an instruction as it runs now (elements chosen by
 * an index tile's current values), in runs of adjacent bytes, through fn; stops when fn returns
 * false. */
typedef void (*FootprintWalkFn)(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx);

/* One tile access of an instruction as it runs now: the operand, the window of its storage it
 * touches (rows [r0, r0 + rows) x cols [c0, c0 + cols)), read or written. `sized_by` is set on a
 * read whose window the op sizes from another operand, so that reading past the operand's own
 * valid region there is a mismatch of valid shapes (--check-init: INIT.outside); NULL when the
 * op's semantics bound the window by the tile's physical shape (textract). */
typedef struct TileWindowAccess {
    const Value *value;
    int32_t r0, c0, rows, cols;
    bool write;
    const char *sized_by;
    const uint8_t *raw;     /* else a byte range no operand names: an implementation's hidden scratch,
                             * raw_bytes at raw, `value` a typeless stand-in whose name says what it is */
    int64_t raw_bytes;
    FootprintWalkFn walk;   /* else, when set: the bytes of `value` it touches are walk's runs, not the
                             * window (gather/scatter: the elements its indices name now) */
} TileWindowAccess;
enum { MAX_WINDOW_ACCESSES = 8 };
/* The exact tile accesses of an instruction whose kernel does not touch each source's valid region
 * and its destination's valid region (set by the family's lowering; the checkers' default model
 * otherwise); returns how many it wrote into acc (at most MAX_WINDOW_ACCESSES), -1 when the
 * operands are not all placed (the instruction reports that when it runs). */
typedef int (*FootprintFn)(const Interp *ip, const Instr *in, TileWindowAccess *acc);

/* A tile operand resolved at lowering: its frame slot and its type's static facts. */
typedef struct TileRef {
    int32_t slot;
    int32_t auto_index;     /* auto storage used when this instruction defines the tile, or -1 */
    DType dtype;
    TileLoc loc;
    BLayout blayout;
    SLayout slayout;
    int32_t rows, cols;
    int64_t rs, cs;         /* element strides: row-major (cols, 1), col-major (1, rows) */
    int32_t box_r, box_c;   /* inner box (fractal) rows and cols: 1x1 for none_box */
    bool box_col;           /* the inner box is column-major (Zn, Nn) */
    int64_t footprint;      /* rows * cols * sizeof(dtype) bytes */
    int32_t static_vr, static_vc; /* -1 when dynamic */
    int pad;                /* pad value code of the type */
    const char *name;       /* value name (without %) for messages */
} TileRef;

/* A scalar or index operand: a frame slot, or an immediate already in ScalarValue form. */
typedef struct ScalarRef {
    int32_t slot;           /* -1 for an immediate */
    DType type;             /* the scalar's own type */
    ScalarValue imm;
} ScalarRef;

/* A parallel copy of values between frame slots (yields, loop entry/exit, call results). Tiles
 * whose storage would be reused while the copy is alive are copied into `dst_auto` storage. */
typedef struct Transfer {
    int n;
    int32_t *src;           /* source slots */
    int32_t *dst;           /* destination slots */
    int32_t *dst_auto;      /* per entry: auto index for a tile copy, or -1 (pass the view) */
    int64_t *footprint;     /* per entry: tile footprint in bytes (0 for non-tiles) */
    int32_t lo, hi;         /* auto indices (destination frame) re-defined while the copy lives */
} Transfer;

/* A function call site. */
typedef struct CallInfo {
    int callee;             /* index into Interp.funcs */
    Transfer args;          /* caller slots -> callee argument slots (views passed) */
    int n_results;
    int32_t *result_slots;  /* caller slots */
    int32_t *result_auto;   /* caller auto storage for tile results, or -1 */
    int64_t *result_footprint;
    int32_t result_lo, result_hi;
} CallInfo;

/* Operands of make_tensor_view (shape, strides) and partition_view (offsets, sizes). */
typedef struct ViewInfo {
    int rank;
    ScalarRef a[INTERP_MAX_RANK];   /* shape / offsets */
    ScalarRef b[INTERP_MAX_RANK];   /* strides / sizes */
    int64_t static_dims[INTERP_MAX_RANK]; /* result type dims (DIM_DYNAMIC when ?) */
} ViewInfo;

/* Element functions of the scalar families of ops.def (their ELEM column, interp/ops_scalar.c):
 * integer (*r = x OP y, m masks the result type's bits; false for a zero divisor), float (in
 * double, rounded by the caller), conversion, block query. */
typedef bool (*ScalarIntFn)(int64_t x, int64_t y, uint64_t m, int64_t *r);
typedef double (*ScalarFloatFn)(double x, double y);
typedef void (*ScalarCastFn)(RtValue *dst, ScalarValue v, DType from, DType to);
typedef int64_t (*BlockQueryFn)(const Interp *ip);

struct Instr {
    ExecFn exec;
    const Op *op;           /* source op (trace); NULL for internal bookkeeping */
    const char *opname;     /* for messages: "pto.tmuls", "scf.for" */
    SrcLoc loc;             /* where run-time errors point */
    bool traced;            /* print a trace line after execution */
    bool defines_dst;       /* result form: this instruction defines t[0] */
    union {
        KernelFill fill;
        KernelRowReduce row_reduce;
        KernelRowReduce broadcast; /* (dst, src, rows, cols): TROWEXPAND, TCOLEXPAND (ops_family.c) */
        KernelRowExpand row_expand;
        KernelElem elem;
        ScalarIntFn scalar_int;
        ScalarFloatFn scalar_float;
        ScalarCastFn scalar_cast;
        BlockQueryFn block_query;
    } k;
    TileRef t[4];
    ScalarRef sc[4];
    KScalar ks;             /* sc[0] pre-converted to t[0]'s dtype when it is an immediate */
    int32_t dst_slot;       /* scalar / view results */
    DType dst_type;
    int32_t target;         /* jump target, or -1 */
    int32_t a, b;           /* op-specific: sub-opcode, slots, flags */
    SrcLoc aux_loc;         /* op-specific location (address operand, ...) */
    const void *extra;      /* op-specific arena data (Transfer, CallInfo, ViewInfo, text) */
    FootprintFn footprint;  /* the exact tile accesses (--check-sync, --check-init), or NULL */
};

/* ------------------------------------------------------------------------------------------ */
/* Functions, frames, the interpreter                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct FuncCode {
    const Func *func;
    bool lowered;
    int32_t entry_pc;
    int32_t n_slots;        /* values, then hidden slots */
    RtValue *slot_init;     /* initial frame contents (zero; constants in hidden slots) */
    int32_t n_auto;
    int64_t *auto_offset;   /* per auto index: byte offset in the frame's auto block */
    int64_t auto_bytes;
    int32_t *arg_auto;      /* per argument: auto index (tile arguments of an entry), or -1 */
    TileRef *arg_tile;      /* per argument: resolved tile type (slot -1 for non-tiles) */
} FuncCode;

typedef struct Frame {
    const FuncCode *fn;
    int fn_index;
    RtValue *vals;
    uint8_t *auto_mem;
    uint32_t serial;
    int32_t return_pc;
    const Instr *call;      /* the caller's CALL instruction */
    struct Frame *caller;
    struct Frame *next_free;
    struct Frame *next_all; /* every frame ever allocated, for interp_destroy */
    bool core_root;         /* the first frame of a cube or vector core (ops_pipe.c): its return ends the core */
} Frame;

/* A value printed each time the instruction at a source line executes (interp_watch). */
typedef struct Watch {
    int fn_index;           /* the function whose instructions and frame it watches */
    const Value *value;
    uint32_t line;
    PrintFormat fmt;
    PrintRegion region;
    bool has_region;
} Watch;

/* The happens-before checker of pto-run --check-sync (check_sync.c). */
typedef struct SyncChecker SyncChecker;
/* A checker for `target`; `strict`: races are errors in kernels without sync ops too (NULL when
 * the host is out of memory). */
SyncChecker *sync_checker_new(Target target, bool strict);
/* Frees the checker (NULL is allowed). */
void sync_checker_free(SyncChecker *s);
/* Resets the pipes, flags and local-memory shadows for the next block (GM shadows stay). */
void sync_checker_new_block(SyncChecker *s);
/* Accounts for instruction `in` (ip->code[pc]) about to execute: its pipe, the valid regions it
 * reads, its sync effect, and the writes known before it runs. True when sync_checker_after must
 * see the instruction once it ran (a tile instruction whose writes depend on its running). */
bool sync_checker_step(Interp *ip, SyncChecker *s, const Instr *in, int32_t pc);
/* Accounts for what the instruction that just executed wrote (its destinations' valid regions,
 * whole footprints for tmp operands and pad fills). */
void sync_checker_after(Interp *ip, SyncChecker *s, const Instr *in);
/* Reports the races found and the flags left set; false when there was a race. */
bool sync_checker_finish(Interp *ip, SyncChecker *s);
/* Makes core `core` of a FIFO kernel group (1 + its index; 0: the entry again) the running
 * context: its own pipes, flags and buffer tokens, fresh when it first runs; false when out of
 * host memory. */
bool sync_checker_enter_core(SyncChecker *s, int core);
/* Ends a FIFO kernel group: reports what each core left set or held, and runs the entry again. */
void sync_checker_end_cores(Interp *ip, SyncChecker *s);
/* Drops the history of the memory starting at base (a core's UB, freed: its address may come back
 * as other memory). */
void sync_checker_forget_memory(SyncChecker *s, const uint8_t *base);
/* A FIFO consumer frees slot `slot` of direction `dir` (0 cube to vector; `gm_slots`: the slots
 * are in GM): the free fires after the work its pop pipe issued so far. */
void sync_checker_fifo_free(SyncChecker *s, int dir, int slot, bool gm_slots);
/* A FIFO consumer pops slot `slot` again: ordered after that slot's last free (through the
 * producer's push, which waited for it). */
void sync_checker_fifo_pop(SyncChecker *s, int dir, int slot, bool gm_slots);

/* The memory holding p: an on-chip buffer, a GM buffer (*gm) or a frame's automatic tile storage;
 * false when p is in none of them. */
bool interp_memory_of(const Interp *ip, const uint8_t *p, const uint8_t **base, int64_t *bytes, bool *gm);

/* Walks the rows x cols region at the top left of tile t stored at base in contiguous runs: one
 * for whole rows (row-major) or columns (col-major), else one per row or column; one per element
 * in boxed layouts. */
void tile_byte_runs(const TileRef *t, const uint8_t *base, int rows, int cols, TileRunFn fn, void *ctx);
/* The same for the rows x cols window whose top left element is (r0, c0). */
void tile_window_runs(const TileRef *t, const uint8_t *base, int r0, int c0, int rows, int cols, TileRunFn fn, void *ctx);
/* The (row, col) of the element at offset e (elements) in t's storage; -1, -1 when none is. */
void tile_elem_at(const TileRef *t, int64_t e, int *row, int *col);

/* The uninitialised-read checker of pto-run --check-init (check_init.c). */
typedef struct InitChecker InitChecker;
/* A checker with every on-chip byte unwritten (NULL when the host is out of memory). */
InitChecker *init_checker_new(void);
/* Frees the checker (NULL is allowed). */
void init_checker_free(InitChecker *c);
/* Marks every on-chip byte unwritten again (the next block's fresh core). */
void init_checker_new_block(InitChecker *c);
/* Marks [p, p + n) unwritten (a frame's automatic tile storage when the frame is entered). */
void init_checker_forget(Interp *ip, InitChecker *c, const uint8_t *p, int64_t n);
/* Drops the state of the memory starting at base (a core's UB, freed). */
void init_checker_forget_memory(InitChecker *c, const uint8_t *base);
/* Checks the valid regions an instruction about to execute reads. */
void init_checker_before(Interp *ip, InitChecker *c, const Instr *in);
/* Marks what an instruction that just executed wrote. */
void init_checker_after(Interp *ip, InitChecker *c, const Instr *in);
/* Marks a tile's valid region written (a tile filled from --in). */
void init_checker_mark_valid(Interp *ip, InitChecker *c, const TileRef *t, const TileView *tv);
/* Reports the unwritten reads found; false when there was one. */
bool init_checker_finish(Interp *ip, InitChecker *c);

struct Interp {
    const Module *module;
    const SourceFile *file;
    DiagList *diags;
    Arena *arena;           /* lowering data (instructions' extras, tables) */
    InterpOptions opts;
    KernelIsa isa;          /* kernel variant, chosen once when the interpreter is created */
    uint8_t *stage;         /* STAGE_BYTES (from the arena, at the first lowering that needs it): an
                             * operand staged for one instruction's kernel (row-expand members) */
    FILE *out;
    uint8_t *buf[LOC_COUNT];
    int64_t buf_size[LOC_COUNT];
    Instr *code;
    int32_t n_code, cap_code;
    FuncCode *funcs;        /* parallel to module->funcs */
    int n_funcs;
    int entry_index;
    const Func *entry;
    GmBuffer *gm;           /* one per !pto.ptr argument of the entry */
    int n_gm;
    int32_t *gm_of_arg;     /* entry argument index -> gm index or -1 */
    ScalarValue *scalar_arg;
    bool *scalar_bound;
    DataArray **tile_input; /* entry value id -> input data, or NULL */
    Frame *frame;           /* current activation */
    Frame *entry_frame;     /* kept after the run for --out / --print */
    Frame **free_frames;    /* per function: frames to reuse */
    Frame *all_frames;      /* every frame ever made (chained through next_free when live) */
    int depth;
    uint32_t next_serial;
    uint64_t steps, max_steps;
    int64_t memory_used;    /* bytes of GM buffers and frames held (against max_memory) */
    int64_t max_memory;
    RtValue *xfer;          /* scratch for parallel copies */
    size_t xfer_cap;
    uint8_t *scratch;       /* staging area for tile copies */
    size_t scratch_cap;
    bool ran;
    int64_t block_idx;      /* the block (core) being run: 0 .. block_num - 1 (pto-run --blocks) */
    int64_t block_num;
    SyncChecker *sync;      /* --check-sync, or NULL */
    Watch *watches;         /* --print NAME@LINE (malloc'd) */
    int n_watches;
    InitChecker *init;      /* --check-init, or NULL */
    int64_t subblock_idx;   /* the vector sub-block running (cube and vector kernels, ops_pipe.c) */
    int64_t subblock_num;
    struct PipeRuntime *pipes; /* the FIFOs and cores of the cube and vector kernels (ops_pipe.c), or NULL */
    int32_t yield_pc;       /* PC_YIELD: the instruction to run again when the core resumes */
};

/* ---- cube and vector kernels joined by FIFOs (ops_pipe.c) ----------------------------------------- */

enum { PIPE_MAX_CORES = 8, PIPE_MAX_SLOTS = 8, PIPE_VECTOR_SUBBLOCKS = 2 };

/* One core of a kernel group: a cube function or one sub-block of a vector function, run as a
 * coroutine with its own frames, pc and (vector) UB. */
typedef struct PipeCore {
    Frame *frame;
    int32_t pc;
    int depth;
    bool vector, done;
    int64_t subblock;
    uint8_t *ub;            /* its UB (vector cores; sub-block 0 uses the interpreter's own) */
    const Instr *call;      /* the func.call that started it */
} PipeCore;

/* Where one side of a pipe direction keeps its slots in GM (an initialize_l2g2l_pipe's gm_addr, or
 * an A2/A3 frontend init's gm_slot_buffer): slot s at byte `byte + s * slot_size` of GM buffer
 * `buffer`. */
typedef struct PipeGm {
    bool on;
    int32_t buffer;
    int64_t byte;
} PipeGm;

/* One direction of the pipe (0: cube to vector, 1: vector to cube): a ring of slots. */
typedef struct PipeFifo {
    bool producer_ready, consumer_ready; /* the two initialize_pipe ops ran */
    PipeGm gm[2];           /* the producer's [0] and the consumer's [1] GM slot buffer (both or neither) */
    int32_t slot_num;
    int64_t slot_size;
    int64_t consumer_offset[PIPE_VECTOR_SUBBLOCKS]; /* per consumer lane: its slot buffer's byte offset */
    uint8_t *lane[PIPE_MAX_SLOTS][PIPE_VECTOR_SUBBLOCKS]; /* per slot and lane: slot_size bytes of linear data */
    int8_t split[PIPE_MAX_SLOTS];
    DType dtype[PIPE_MAX_SLOTS];
    uint8_t pushed[PIPE_MAX_SLOTS], freed[PIPE_MAX_SLOTS]; /* lane masks */
    int64_t head;           /* oldest entry not yet freed by every consumer lane */
    int64_t push_next[PIPE_VECTOR_SUBBLOCKS], pop_next[PIPE_VECTOR_SUBBLOCKS], free_next[PIPE_VECTOR_SUBBLOCKS];
} PipeFifo;

typedef struct PipeRuntime {
    PipeCore cores[PIPE_MAX_CORES];
    int n_cores;
    PipeCore *running;
    PipeFifo fifo[2];
} PipeRuntime;

/* Runs the cores started by the kernel calls before `at` until all return; false after an error
 * (a deadlock: every core waits on a FIFO). */
bool interp_run_cores(Interp *ip, const Instr *at);
/* Frees the FIFOs and cores (interp_destroy). */
void pipe_runtime_free(Interp *ip);
/* The func.call of a cube or vector kernel function when the module uses FIFOs: starts its
 * core(s); the last such call of a run of them runs them all (interp_run_cores). */
int32_t exec_spawn_kernel(Interp *ip, const Instr *in, int32_t pc);
/* True when the module has FIFO ops (so kernel calls start cores). */
bool module_uses_pipes(const Module *m);

/* ------------------------------------------------------------------------------------------ */
/* Lowering                                                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef enum RegionKind { RK_FOR, RK_IF_THEN, RK_IF_ELSE, RK_WHILE_BEFORE, RK_WHILE_AFTER } RegionKind;

/* The innermost region being lowered: what its terminator must do. */
typedef struct RegionCtx {
    RegionKind kind;
    const Op *owner;
    bool terminated;
    int32_t auto_lo;        /* RK_FOR, RK_WHILE_*: first auto index of the loop */
    int32_t loop_pc;        /* RK_FOR: body start; RK_WHILE_AFTER: before-region start */
    int32_t patch;          /* RK_IF_THEN: the jump to patch to the end; RK_WHILE_BEFORE: condition */
    int32_t iv_slot;        /* RK_FOR: induction variable */
    ScalarRef upper, step;  /* RK_FOR */
    struct RegionCtx *outer;
} RegionCtx;

typedef struct LowerCtx {
    Interp *ip;
    int func_index;
    const Func *func;
    FuncCode *fc;
    int32_t n_slots;
    int32_t *auto_of_value;  /* value id -> auto index, or -1 */
    int64_t *auto_offset;    /* growable */
    int32_t n_auto, cap_auto;
    int64_t auto_bytes;
    RtValue *init;           /* growable initial slot contents */
    int32_t cap_init;
    RegionCtx *region;
    bool failed;
} LowerCtx;

/* Every LOWER function named in ops.def, declared from the table itself. */
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn, dts, elem, attrs) \
    bool lower_fn(LowerCtx *ctx, const Op *op);
#include "ops.def"
#undef OP

/* Reports a lowering error "'OP' op MESSAGE" at `loc` (the op's location when loc.line is 0). */
bool lower_error(LowerCtx *ctx, const Op *op, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A zeroed instruction for `op` (exec set by the caller). */
Instr instr_for(const Op *op, ExecFn exec);
/* Appends an instruction; returns its pc. */
int32_t emit(LowerCtx *ctx, const Instr *in);
/* Frame slot of an operand naming a value, or -1 (reported) when it is not a value. */
int32_t value_slot(LowerCtx *ctx, const Op *op, const Operand *opd);
/* A new hidden frame slot, initialised to `init` in every new frame. */
int32_t hidden_slot(LowerCtx *ctx, RtValue init);
/* Reserves `bytes` of auto storage in the function's activation block; returns its index. */
int32_t new_auto(LowerCtx *ctx, const Op *op, int64_t bytes);
/* Resolves a scalar/index operand: a value of scalar type, or an immediate typed by its written
 * type, else by `default_type` (hex: a bit pattern of that type). */
bool scalar_ref(LowerCtx *ctx, const Op *op, const Operand *opd, DType default_type, ScalarRef *out);
/* Resolves a tile operand (value of tile type) into a TileRef. */
bool tile_ref(LowerCtx *ctx, const Op *op, const Operand *opd, TileRef *out);
/* Fills a TileRef's static facts from a tile type without checking it (slot, name: caller). */
void tile_ref_fill(const TileType *tt, Target target, TileRef *out);
/* Fills a TileRef from a tile type after checking it can be executed (slot, name: caller). */
bool tile_ref_from_type(LowerCtx *ctx, const Op *op, SrcLoc loc, const TileType *tt, TileRef *out);
/* True when two tile types have the same storage (dtype, shape, layout, loc). */
bool tile_storage_equal(const TileType *a, const TileType *b);
/* Lowers the ops of a block in order (terminators are handled by their own LOWER functions). */
bool lower_block(LowerCtx *ctx, const Block *block);
/* Lowers every function of ip->module; false after reporting errors. */
bool interp_lower_module(Interp *ip);
/* Emits an instruction that reports `message` as a run-time error if it is ever executed. */
bool emit_unsupported(LowerCtx *ctx, const Op *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------------------------------------ */
/* Execution helpers                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* Reports "'OP' op MESSAGE" at the instruction's location; returns PC_ERROR. */
int32_t rt_error(Interp *ip, const Instr *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports at an explicit location. */
int32_t rt_error_at(Interp *ip, const Instr *in, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* rt_error carrying the verifier's rule ID OPNAME.rule_suffix (a check the verifier makes on static
 * dims, made again at run time when they are dynamic); returns PC_ERROR. */
int32_t rt_rule_error(Interp *ip, const Instr *in, const char *rule_suffix, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Value of an integer/index operand. */
static inline int64_t read_int(const Frame *f, const ScalarRef *r) { return r->slot >= 0 ? f->vals[r->slot].i : r->imm.i; }
/* Value of a scalar operand in ScalarValue form. */
static inline ScalarValue read_scalar(const Frame *f, const ScalarRef *r) {
    if (r->slot < 0) return r->imm;
    ScalarValue v = {f->vals[r->slot].i, f->vals[r->slot].f};
    return v;
}

/* The view of a tile operand, or NULL (reported) when it has no value yet. */
static inline TileView *use_tile(Interp *ip, const Instr *in, const TileRef *t) {
    TileView *v = &ip->frame->vals[t->slot].tile;
    if (!(v->flags & VIEW_DEFINED)) {
        rt_error(ip, in, "uses tile %%%s before it is defined", t->name);
        return NULL;
    }
    return v;
}

/* The defined view of operand value v in the running frame, or NULL (for footprint functions). */
static inline const TileView *defined_view(const Interp *ip, const Value *v) {
    const TileView *tv = v ? &ip->frame->vals[v->id].tile : NULL;
    return tv && (tv->flags & VIEW_DEFINED) ? tv : NULL;
}

/* Element offset of (r, c) in a tile's storage: r*rs + c*cs for none_box tiles; for boxed ones
 * the boxes go along the outer layout (blayout) and the elements inside a box along its own
 * (slayout), as the simulator's GetTileElementOffset: Nz = col-major boxes of row-major 16xC0. */
static inline int64_t tile_elem_offset(const TileRef *t, int64_t r, int64_t c) {
    if (t->box_r == 1 && t->box_c == 1) return r * t->rs + c * t->cs;
    int64_t br = r / t->box_r, ir = r % t->box_r, bc = c / t->box_c, ic = c % t->box_c;
    int64_t box = (int64_t)t->box_r * t->box_c;
    int64_t outer = t->blayout == BL_COL_MAJOR ? bc * t->rows * t->box_c + br * box : br * t->cols * t->box_r + bc * box;
    return outer + (t->box_col ? ic * t->box_r + ir : ir * t->box_c + ic);
}

/* A tile's element offsets split in two, offset(r, c) = rows[r] + cols[c] (tile_elem_offset): it
 * holds for ND, DN and every boxed layout, so a boxed tile is walked with additions only. */
typedef struct TileOffsets {
    int64_t *rows, *cols;   /* t->rows and t->cols entries */
    int32_t *row_run, *col_run; /* run[i]: how many entries from i on step by one element (1 at least):
                                 * elements (r, c..c+col_run[c]-1) are contiguous in the tile */
} TileOffsets;
/* Tabulates t's offsets in arena memory (at lowering). */
void tile_offsets(Arena *a, const TileRef *t, TileOffsets *out);
/* n elements of es bytes: d[dcols[j]] = s[scols[j]] (element offsets from d and s; a NULL table
 * means contiguous: j). */
void copy_elems(uint8_t *d, const int64_t *dcols, const uint8_t *s, const int64_t *scols, int64_t n, size_t es);
/* The rows x cols top-left region of one tile into another of the same element size (es bytes), through
 * their offset tables, a contiguous run at a time (d(r, c) = s(r, c)), or for 16-bit boxes whose runs
 * cross (Nz <-> Zn) a box transposed at a time (`isa`'s kernel); the tiles' bytes must not overlap. */
void copy_tile_region(uint8_t *d, const TileOffsets *doff, const uint8_t *s, const TileOffsets *soff, int64_t rows,
                      int64_t cols, size_t es, KernelIsa isa);

_Static_assert(offsetof(KTile, cs) == offsetof(KTile, rs) + 4, "KTile strides side by side");
/* A kernel operand at p with strides rs, cs (elements, < 2^30: INTERP_MAX_TILE_BYTES). */
static inline KTile ktile_of(uint8_t *p, int32_t rs, int32_t cs) {
    /* The strides are written with one 8-byte store: a kernel reads an operand's two strides with
     * one 8-byte load, which has no store forwarding from two 4-byte stores and waits for them to
     * retire (0.4 ns of the 23 per 16x16 f32 TADD here; about 1 ns of the 27 per 16x16
     * TCOLEXPANDADD, whose executor had set one stride of a stored operand: issue #11). */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t strides = (uint32_t)rs | (uint64_t)(uint32_t)cs << 32;
#else
    const uint64_t strides = (uint64_t)(uint32_t)rs << 32 | (uint32_t)cs;
#endif
    KTile k;
    k.p = p;
    memcpy(&k.rs, &strides, sizeof strides);
    return k;
}
/* The kernel operand of tile t with view v. */
static inline KTile ktile(const TileRef *t, const TileView *v) { return ktile_of(v->base, (int32_t)t->rs, (int32_t)t->cs); }

/* The scalar operand sc[0] converted to element type `dt` (pre-converted in ks when immediate). */
KScalar kernel_scalar(const Interp *ip, const Instr *in, DType dt);
/* The destination tile of a tile op (outs[0], or the result of the SSA form, which this
 * instruction then defines: *defines, with auto storage reserved). */
bool lower_dst(LowerCtx *ctx, const Op *op, TileRef *dst, bool *defines);
/* The bits of pad value `pad` (a tile type's pad= code: 1 zero, 2 max: +inf for floats, 3 min:
 * -inf for floats, numeric_limits<T>::min() for integers, 0 for unsigned ones; 0 otherwise) for
 * element type dt. */
uint64_t pad_value_bits(DType dt, int pad);
/* True for a boxed (fractal) tile layout. */
bool boxed(const TileRef *t);
/* Resolves ins[i] as a tile refusing boxed layouts; false on failure, *emitted if "unsupported" was emitted. */
bool lower_tile_in(LowerCtx *ctx, const Op *op, int i, TileRef *out, bool *emitted);
/* Emits the "not supported" instruction for a boxed tile operand. */
bool unsupported_boxed(LowerCtx *ctx, const Op *op, const TileRef *t);
/* Lowering error unless a and dst have the same element type. */
bool same_dtype(LowerCtx *ctx, const Op *op, const TileRef *a, const TileRef *dst, const char *aname);
/* A scalar operand for a kernel: an arith.constant is resolved to its literal (converted once). */
bool kernel_scalar_ref(LowerCtx *ctx, const Op *op, const Operand *opd, DType dt, ScalarRef *out);

/* `return` (also the implicit one at the end of a body: a = value count, extra = slots). */
int32_t exec_return(Interp *ip, const Instr *in, int32_t pc);
/* A fresh activation of function `fn_index` (reused or allocated; auto storage zeroed), or NULL
 * after reporting that host memory ran out. */
Frame *frame_push(Interp *ip, const Instr *in, int fn_index);
/* Returns an activation to its function's free list. */
void frame_release(Interp *ip, Frame *f);
/* Performs a Transfer from `src` to `dst` frames (may be the same). */
bool transfer_values(Interp *ip, const Instr *in, const Transfer *t, Frame *src, Frame *dst);
/* A frame for the call `in` (Instr.extra: its CallInfo) from the running frame, its arguments
 * passed, returning to pc + 1; NULL after a run-time error. The caller makes it run. */
Frame *call_frame_push(Interp *ip, const Instr *in, int32_t pc);
/* Defines tile t (result form): keeps a seed-tassign placement, else its auto storage; sets the
 * valid region to the type's static dims, else to (vr, vc) (checked against the shape). */
bool define_tile(Interp *ip, const Instr *in, const TileRef *t, int64_t vr, int64_t vc);

/* The views of a one-source instruction: src's, then dst's, which an SSA form first defines with
 * src's valid shape (transposed: mirrored); false (reported) when either has no value. */
static inline bool use_src_and_dst(Interp *ip, const Instr *in, const TileRef *ts, const TileRef *td, bool transposed,
                                   TileView **s, TileView **d) {
    *s = use_tile(ip, in, ts);
    if (!*s) return false;
    if (in->defines_dst && !define_tile(ip, in, td, transposed ? (*s)->vc : (*s)->vr, transposed ? (*s)->vr : (*s)->vc))
        return false;
    *d = use_tile(ip, in, td);
    return *d != NULL;
}

/* Checks that a tile of `footprint` bytes may be placed at byte `addr` of `loc`'s buffer. */
bool check_placement(Interp *ip, const Instr *in, SrcLoc loc, TileLoc tloc, int64_t addr, int64_t footprint,
                     const char *what);
/* Fills a tile's valid region from an array in logical row-major order. */
void tile_fill_from_array(const TileRef *t, const TileView *v, const DataArray *a);
/* Copies a tile's valid region into a new array (rows x cols, logical row-major). */
bool tile_to_array(const TileRef *t, const TileView *v, DataArray *out, char *err, size_t errlen);
/* Accounts `delta` more bytes of GM buffers or frames; false (nothing accounted) when the run's
 * total would exceed ip->max_memory (InterpOptions.max_memory). */
bool interp_reserve_memory(Interp *ip, int64_t delta);
/* Makes sure a GM buffer holds `reach` elements (grows a non-fixed buffer, zero-filled). */
bool gm_ensure(Interp *ip, const Instr *in, int buffer, int64_t reach);
/* require_inputs: false (reported at `in`) when view `v` of an unbound GM buffer holds an element
 * that was never written. */
bool gm_check_inputs(Interp *ip, const Instr *in, const GmView *v);
/* Calls fn(state, flat element index in the buffer) for each element of a view, in row-major order
 * of its shape; false when fn stopped the walk by returning false. */
bool gm_view_each(const GmView *v, bool (*fn)(void *, int64_t), void *state);
/* require_inputs: marks the elements of view `v` of an unbound GM buffer as written. */
void gm_mark_written(Interp *ip, const GmView *v);
/* Writes the trace line of an executed instruction, reading operands in frame `f`. */
void trace_instr(Interp *ip, const Instr *in, const Frame *f);

/* ---- acc_quant.c: values leaving an acc tile (ConvertStoreValue) ----------------------------- */

/* Which form of the op: no quantisation word, one word for every element (preQuantScalar), or a
 * word per column (the fp / scaling-tile forms). */
typedef enum AccQuantForm { AQF_NONE, AQF_SCALAR, AQF_VECTOR } AccQuantForm;
/* The simulator's quantisation modes, grouped by computation; AQ_CAST: no mode (relu, cast);
 * AQ_F8: no mode either, f32 to an 8-bit float through pto-isa's MXType(double) constructor. */
typedef enum AccQuantMode { AQ_CAST, AQ_B8, AQ_F16, AQ_BF16, AQ_DEQF16, AQ_SHIFT16, AQ_F8 } AccQuantMode;
/* A conversion decided at lowering: acc type `from` (f32 / i32) to `to`. */
typedef struct AccConvert {
    DType from, to;
    AccQuantMode mode;
    bool relu, vector;
    int f8_exp, f8_man, f8_bias; /* AQ_F8: the 8-bit float's field widths and exponent bias */
} AccConvert;
/* One quantisation word, decoded (scale, offset, 8-bit range, i16 shift). */
typedef struct AccQuantWord {
    float scale, offset, lo, hi;
    int shift;
} AccQuantWord;
/* Fills *cv for a move from `from` to `to` (mode per GetScalarPreQuantMode /
 * GetVectorPreQuantMode); false when pto-run has no such conversion. */
bool acc_convert_plan(AccConvert *cv, DType from, DType to, AccQuantForm form, bool relu);
/* Decodes quantisation word w for cv's form. */
void acc_quant_word(const AccConvert *cv, uint64_t w, AccQuantWord *q);
/* The quantisation word of fp tile element `at` (a storage offset) of type dt, as the simulator
 * reads it (`uint64_t w = fp.data()[i]`): u64/i64 bits, a float's value truncated; false when
 * that value is outside (-1, 2^64), where the C++ cast is undefined. */
bool acc_fp_word(const uint8_t *base, int64_t at, DType dt, uint64_t *w);
/* Converts n contiguous acc values at src into n contiguous `to` values at dst; element i uses
 * q[i * qs] (qs = 0: one word for all; q is unused in AQ_CAST). */
void acc_convert_run(const AccConvert *cv, const AccQuantWord *q, size_t qs, uint8_t *dst, const uint8_t *src, int64_t n);

#endif
