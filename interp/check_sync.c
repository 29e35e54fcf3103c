/* check_sync.c - pto-run --check-sync: a happens-before checker over the executed path (issue
 * #14, first slice; docs/execution.md "Synchronisation checking").
 *
 * The NPU runs tile instructions on asynchronous pipes (MTE2 loads, V computes, M multiplies,
 * MTE1 moves L1 to L0, MTE3 and FIX store); only set_flag/wait_flag and barriers order them. Here
 * each pipe is a thread with a vector clock. An instruction on pipe p gets the timestamp
 * ++vc[p][p]; set_flag(P, Q, id) keeps a copy of vc[P] in the flag, wait_flag(P, Q, id) joins it
 * into vc[Q] (a wait on PIPE_S joins it into every pipe: the scalar unit issues everything);
 * pipe_barrier(P) orders P after itself, PIPE_ALL everything after everything. A pipe that does not
 * keep its own order (A2/A3 V, M, MTE1, FIX; MTE2 and MTE3 everywhere) orders two of its own
 * accesses only across a barrier. Memory has a shadow per 32-byte block (UB, L1, L0A/B/C, BT, FB,
 * the frames' automatic tile storage and every GM buffer, in pages allocated on first touch): the
 * last write (pipe, timestamp, site) and the last read per pipe. A read not ordered after the last
 * write, or a write not ordered after the last write and reads, is reported once per pair of sites
 * (with a count), with both source locations, the pipes, the memory and bytes, and a fix-it.
 *
 * The pipe of an instruction is its op-table row's pipe rule (ir.h PipeRule; research
 * sync-check.md 1.3): most rows follow their operands' memories (a GM source MTE2; a GM
 * destination MTE3, or FIX from an acc tile; mat into left/right/bias/scaling MTE1; an acc source
 * FIX; vec into mat FIX on A2/A3 and MTE3 on A5; otherwise V); the cube rows are M, tci is S,
 * texpands/tfillpad into mat MTE2, tscatter S on A2/A3. A row's InternalSync says what its
 * implementation synchronises inside itself (tprint's PIPE_ALL barrier on A2/A3, the V <-> S
 * EVENT_ID0 handshakes of A2/A3 trowargmax/min, A2/A3 scalar-path ttrans and A5 one-element
 * textract/tinsert, the PIPE_V barrier inside A2/A3 vector-path ttrans). The asynchronous GM
 * transfers copy on one more pipe, the DMA engine (P_DMA), which only the wait on a transfer's event
 * orders (async_op; A5's put copies on MTE2 and MTE3 instead: mte_put_handshake). Scalar and
 * control instructions touch no tile memory. */
#include "interp_impl.h"

#include <stdlib.h>
#include <string.h>

/* The core's pipes, then P_DMA: the DMA engine that runs the asynchronous GM transfers (tput_async,
 * tget_async) after they issue. No flag or barrier names it: a PIPE_ALL barrier does not wait for
 * it (barrier_all leaves its row alone), only a wait_async_event / test_async_event of a transfer's
 * event orders that transfer (and the earlier ones) before what follows (async_op). */
enum { P_S, P_V, P_M, P_MTE1, P_MTE2, P_MTE3, P_FIX, P_DMA, N_PIPES };
/* the checker's pipes as PTOAS's pipe enum (ir/sync.c), and back (-1: not modelled; N_PIPES: ALL) */
static const int8_t sync_of[N_PIPES] = {SYNC_PIPE_S, SYNC_PIPE_V, SYNC_PIPE_M, SYNC_PIPE_MTE1, SYNC_PIPE_MTE2,
                                        SYNC_PIPE_MTE3, SYNC_PIPE_FIX, -1};
static const int8_t pipe_of_sync[SYNC_PIPE_COUNT] = {
    [SYNC_PIPE_S] = P_S,       [SYNC_PIPE_V] = P_V,       [SYNC_PIPE_M] = P_M,       [SYNC_PIPE_MTE1] = P_MTE1,
    [SYNC_PIPE_MTE2] = P_MTE2, [SYNC_PIPE_MTE3] = P_MTE3, [SYNC_PIPE_ALL] = N_PIPES, [SYNC_PIPE_MTE4] = -1,
    [SYNC_PIPE_MTE5] = -1,     [SYNC_PIPE_V2] = -1,       [SYNC_PIPE_FIX] = P_FIX,   [SYNC_PIPE_L1A] = -1,
    [SYNC_PIPE_L1B] = -1};
static const char *pipe_text(int p) { return p == P_DMA ? "the DMA engine" : sync_pipe_name(sync_of[p]); }

/* Whether a pipe completes its own instructions in order, per target (sync-check.md 1.2). */
static inline bool self_ordered(Target target, int p) {
    if (p == P_S) return true;
    if (p == P_MTE2 || p == P_MTE3 || p == P_DMA) return false;
    return target == TARGET_A5;
}

enum { SHADOW_BLOCK = 32 };

typedef struct Shadow {
    const Op *wsite;        /* last write: site (NULL: never written by a tracked instruction) */
    uint32_t wtime;
    int8_t wpipe;
    int32_t wblock;                 /* the block (--blocks) that wrote */
    uint8_t rmask;                  /* bit q: pipe q has a read (its rtime, rsite and rblock mean something) */
    uint32_t rtime[N_PIPES];        /* last read per pipe */
    const Op *rsite[N_PIPES];
    int32_t rblock[N_PIPES];
} Shadow;

/* Records a read by pipe q at (own time t, site, block) in a history. */
static inline void shadow_read(Shadow *sh, int q, uint32_t t, const Op *site, int32_t block) {
    sh->rtime[q] = t, sh->rsite[q] = site, sh->rblock[q] = block;
    sh->rmask |= (uint8_t)(1u << q);
}

/* A run of blocks with one access history (block-aligned byte offsets in the region). */
typedef struct Seg {
    int64_t lo, hi;
    Shadow sh;
} Seg;

typedef struct MemRegion {
    const uint8_t *base;
    int64_t bytes;
    bool gm;                /* a GM buffer (kept across blocks) */
    Seg *segs;              /* the accessed bytes: sorted, disjoint [lo, hi) runs of one history */
    int64_t n_segs, cap_segs;
} MemRegion;

/* Where a decoded operand's last access was: its region's index and the run that covered it (a
 * guess, checked before use; an operand usually touches the same bytes each time it runs). */
typedef struct AccessHint {
    int32_t region;         /* -1: none yet */
    int64_t seg;
    /* The last access, when it covered exactly the run `seg`: while SyncChecker.gen stays `gen` (no
     * run list rebuilt since), the same bytes are that run again, with no search. */
    uint64_t gen;           /* 0: no such access */
    const uint8_t *p;       /* its bytes [p, p + n) */
    int64_t n;
    int32_t vr, vc;         /* a tile's valid shape that gave them (-1: not a tile's valid region) */
} AccessHint;

typedef struct Report {
    const Op *first, *second;
    int kind;               /* 0 RAW, 1 WAR, 2 WAW; + 3: ordered only by `internal` (a warning) */
    const Op *internal;     /* the op whose internal sync orders the pair (kinds 3..5) */
    int p1, p2;
    const Value *value;     /* the tile or the GM buffer's argument raced on */
    const char *mem;        /* its memory: "UB", "L1", ..., or "GM" */
    int64_t lo, hi;         /* bytes of the first occurrence, from the tile's or buffer's start */
    int64_t count;          /* executions of the second site that raced */
    uint64_t last_step;
    int32_t b1, b2;         /* the blocks of the two accesses (--blocks) */
    struct Report *next;
} Report;

/* The clocks pto-run keeps twice (sync-check.md 1.2): layer 0 with every ordering, layer 1 with the
 * program's own synchronisation only, without what op implementations do inside themselves (tprint's
 * PIPE_ALL barrier, the V <-> S handshakes): an access ordered in layer 0 but not in layer 1 is
 * ordered only by such an implementation detail (SYNC.internal-order). */
enum { N_LAYERS = 2 };
typedef struct Clocks {
    uint32_t vc[N_PIPES][N_PIPES];
    uint32_t barrier[N_PIPES];      /* own timestamp of the last barrier on the pipe */
    uint32_t done[N_PIPES];         /* own instructions a pipe knows complete (through flags) */
} Clocks;
typedef uint32_t Snapshot[N_LAYERS][N_PIPES]; /* one pipe's clock in both layers */

typedef struct FlagState {
    bool set;
    const Op *site;
    Snapshot clock;
    const Op *taken_by;     /* the op whose internal wait consumed the last set (SYNC.internal-key) */
} FlagState;

/* A buffer-id token (get_buf / rls_buf): who holds it, and the join of every release so far (an
 * acquire orders its pipe after them). */
enum { N_BUF_IDS = 32, N_CROSS_IDS = 32, CROSS_MAX_PENDING = 15 };
typedef struct BufToken {
    bool released;
    Snapshot clock;
    const Op *held[N_PIPES];        /* the get_buf holding it on each pipe, or NULL */
} BufToken;

/* A cross-core semaphore (sync.set / sync.wait): a counter of pending sets, oldest first, each
 * with the setting pipe's clock. */
typedef struct CrossSem {
    int n;
    const Op *site[CROSS_MAX_PENDING];
    Snapshot clock[CROSS_MAX_PENDING];
} CrossSem;

/* A token held or a semaphore raised when a block ended (reported at the end of the run). */
typedef struct Leftover {
    const Op *site;
    int pipe;               /* the holding pipe (tokens), -1 for a semaphore */
    int64_t id;
    int count;              /* pending sets of a semaphore */
    int32_t block;          /* the first block that left it */
    int64_t n_blocks;       /* how many blocks left it (one report per site) */
    struct Leftover *next;
} Leftover;


/* An asynchronous GM transfer session (build_async_session): its value (the step that built it,
 * interp/ops_async.c) and the configuration that decides its transfers' SDMA queues. */
typedef struct AsyncSessionRec {
    int64_t handle;
    int64_t queue_num, block_bytes;
    int64_t sync_id;        /* the event id of A5's put handshakes (mte_put_handshake) */
} AsyncSessionRec;

/* One executed transfer (tput_async, tget_async): its event's value (the step that issued it), its
 * session's value, the context that ran it (SyncChecker.block), its time on P_DMA and its bytes. */
typedef struct AsyncXfer {
    int64_t handle, session;
    int32_t block;
    uint32_t time;
    int64_t bytes;
    bool mte;               /* an A5 put: a copy on MTE2 / MTE3 done when the op returns, event handle 0 */
} AsyncXfer;

/* What an instruction means to the checker, decoded once: a tile instruction's pipe; a flag op's
 * pipes and event id (-1: _dyn, read at run time); a barrier's pipe (N_PIPES: PIPE_ALL). */
typedef struct OperandAccess {
    const Value *value;     /* a tile, or a GM view */
    bool view;
    bool whole;             /* a tile's whole footprint (tmp, pad fill), else its valid region */
    bool element;           /* only the element at the offset in the instruction's sc[1] (OPF_ONE_ELEMENT) */
    const TileRef *ref;     /* a tile's layout (static: its type's), made when decoded; NULL: look it up */
    const char *mem;        /* a tile's memory name ("UB", ...) */
    int32_t es;             /* a tile's element size in bytes */
    AccessHint hint;        /* updated as it runs */
} OperandAccess;

enum { D_OTHER, D_SYNC, D_TILE };
enum { MAX_ACCESSES = OPSPEC_MAX + 2 };
typedef struct Decoded {
    bool done;
    bool warned;            /* SYNC.key-overlap reported at this set */
    bool valid;             /* the arguments decoded (else the op is ignored: verified elsewhere) */
    bool early_writes;      /* D_TILE: its writes are known before it runs (no exact footprint, no
                             * destination it defines, no barrier between its own accesses), so
                             * sync_checker_step records them too and no _after call is needed */
    uint8_t role;           /* D_OTHER (no memory, no ordering), D_SYNC, D_TILE */
    int8_t pipe, src, dst, event;
    InternalSync internal;  /* the row's internal synchronisation (D_TILE) */
    uint64_t flags;         /* the op-table row's flags (OPF_*) */
    struct FlagState *flag; /* a set/wait's flag when its event id is static (else NULL: read at run time) */
    uint8_t n_reads, n_writes;
    OperandAccess *reads;   /* before the op runs: sources, and dst when it is read */
    OperandAccess *writes;  /* after it ran: tmp operands (whole), then destinations */
} Decoded;

/* A direct-mapped cache of the tile layouts of operand values (tile_ref_fill once per value). */
enum { TILE_REF_CACHE = 64 };
typedef struct TileRefCache {
    const Value *value;
    TileRef ref;
} TileRefCache;

/* The decoded accesses' tile layouts, a chunk at a time (their addresses stay put). */
enum { REF_CHUNK = 64 };
typedef struct RefChunk {
    struct RefChunk *next;
    int n;
    TileRef refs[REF_CHUNK];
} RefChunk;

/* The decoded instructions' operand accesses, a chunk at a time (each instruction's reads and
 * writes in one piece; Decoded stays small). */
enum { ACCESS_CHUNK = 256 };
typedef struct AccessChunk {
    struct AccessChunk *next;
    int n;
    OperandAccess items[ACCESS_CHUNK];
} AccessChunk;

/* One core's synchronisation state: the cores of a FIFO kernel group (ops_pipe.c) each have their
 * own pipes, flags and buffer tokens; a core's is kept here while another runs. */
typedef struct CoreState {
    bool started;
    Clocks clk[N_LAYERS];
    int layers;
    const Op *internal_site;
    FlagState flag[N_PIPES][N_PIPES][8];
    uint8_t flag_dsts[N_PIPES][8];
    BufToken buf[N_BUF_IDS];
    CrossSem sem[N_CROSS_IDS];
    Snapshot fifo_free[2][PIPE_MAX_SLOTS];
    int32_t block;
} CoreState;

struct SyncChecker {
    Target target;
    bool strict;            /* --check-sync=strict: races are errors even in a kernel without sync ops */
    int64_t n_sync_ops;     /* set/wait/barrier instructions executed */
    Clocks clk[N_LAYERS];           /* every ordering; the program's own only (see Clocks) */
    int layers;                     /* layers kept: 1 until an op's internal sync first orders pipes
                                     * (until then layer 1 equals layer 0 everywhere), then 2 */
    const Op *internal_site;        /* the last op whose internal sync ordered pipes (NULL: none yet) */
    int64_t n_errors;               /* protocol errors reported (double set, wait without set) */
    FlagState flag[N_PIPES][N_PIPES][8];
    uint8_t flag_dsts[N_PIPES][8];  /* bit q of [p][id]: flag (p -> q, id) is set */
    BufToken buf[N_BUF_IDS];
    CrossSem sem[N_CROSS_IDS];
    Leftover *leftovers;            /* of finished blocks, newest first */
    MemRegion *regions;
    int n_regions, cap_regions;
    Report *reports;
    int64_t n_reports;
    TileRefCache refs[TILE_REF_CACHE];
    RefChunk *ref_chunks;   /* the layouts of decoded tile accesses, newest chunk first */
    AccessChunk *access_chunks; /* the decoded operand accesses, newest chunk first */
    struct Decoded *decoded; /* per instruction (index in ip->code), decoded on first execution */
    int32_t n_decoded;
    uint64_t gen;           /* bumped whenever a run list is rebuilt (AccessHint.gen) */
    Seg *mid;               /* scratch: the new runs of one access */
    int64_t cap_mid;
    uint64_t step;          /* instructions seen (a report counts once per execution) */
    int32_t block;          /* the block being run (--blocks); in a core of a FIFO kernel group,
                             * core_block(block, core) (negative) */
    int core;               /* 0: the entry; 1 + i: core i of the running FIFO kernel group */
    CoreState *cores;       /* [0]: the entry's state while a core runs; [1 + i]: core i's (NULL: none yet) */
    Snapshot fifo_free[2][PIPE_MAX_SLOTS]; /* per FIFO direction and slot: the consumer's pop pipe when
                                            * it last freed the slot (sync_checker_fifo_free) */
    AsyncSessionRec *sessions;      /* every build_async_session executed */
    int64_t n_sessions, cap_sessions;
    AsyncXfer *xfers;               /* every transfer executed, oldest first */
    int64_t n_xfers, cap_xfers;
    const AsyncXfer *cur_xfer;      /* the transfer running (its P_DMA accesses), or NULL */
    const Op *cur_op;       /* the tile instruction between sync_checker_step and _after */
    const struct Decoded *cur_decoded; /* its decoded form */
    int cur_pipe;           /* its pipe */
};

/* The block id of core `core` (1 + its index) of a FIFO kernel group started in block b of
 * --blocks: negative, one per core and block. */
static inline int32_t core_block(int32_t b, int core) { return -1 - (b * (PIPE_MAX_CORES + 1) + core); }

/* The --blocks index of a block id. */
static inline int32_t block_index(int32_t id) { return id >= 0 ? id : (-1 - id) / (PIPE_MAX_CORES + 1); }

SyncChecker *sync_checker_new(Target target, bool strict) {
    SyncChecker *s = calloc(1, sizeof *s);
    if (s) s->target = target, s->strict = strict, s->layers = 1, s->gen = 1;
    return s;
}

void sync_checker_free(SyncChecker *s) {
    if (!s) return;
    for (int i = 0; i < s->n_regions; i++) {
        free(s->regions[i].segs);
    }
    free(s->regions);
    free(s->mid);
    free(s->decoded);
    free(s->cores);
    free(s->sessions);
    free(s->xfers);
    for (RefChunk *c = s->ref_chunks, *n; c; c = n) n = c->next, free(c);
    for (AccessChunk *c = s->access_chunks, *n; c; c = n) n = c->next, free(c);
    for (Report *r = s->reports, *n; r; r = n) n = r->next, free(r);
    for (Leftover *l = s->leftovers, *n; l; l = n) n = l->next, free(l);
    free(s);
}

/* Records a leftover, once per (site, pipe, id) across blocks. */
static void add_leftover(SyncChecker *s, const Op *site, int pipe, int64_t id, int count) {
    for (Leftover *l = s->leftovers; l; l = l->next)
        if (l->site == site && l->pipe == pipe && l->id == id) {
            l->n_blocks++;
            return;
        }
    Leftover *l = calloc(1, sizeof *l);
    if (!l) return;
    *l = (Leftover){site, pipe, id, count, s->block, 1, s->leftovers};
    s->leftovers = l;
}

/* Keeps the tokens still held and the semaphores still raised at the end of a block, for
 * sync_checker_finish to report, and clears them. */
static void keep_leftovers(SyncChecker *s) {
    for (int b = 0; b < N_BUF_IDS; b++)
        for (int p = 0; p < N_PIPES; p++)
            if (s->buf[b].held[p]) add_leftover(s, s->buf[b].held[p], p, b, 0);
    /* A5 ids 16..31 are the second vector core's (AIV1), which pto-run does not run: nobody here
     * would wait them (a cube set on PIPE_FIX raises both id and id + 16 on the board) */
    for (int e = 0; e < N_CROSS_IDS; e++)
        if (s->sem[e].n && !(s->target == TARGET_A5 && e >= 16)) add_leftover(s, s->sem[e].site[0], -1, e, s->sem[e].n);
    memset(s->buf, 0, sizeof s->buf);
    memset(s->sem, 0, sizeof s->sem);
}

/* A new block (--blocks): fresh local memories and pipes, GM shadows kept. */
void sync_checker_new_block(SyncChecker *s) {
    keep_leftovers(s);
    s->block++;
    s->gen++;
    memset(s->clk, 0, sizeof s->clk);
    s->internal_site = NULL;
    memset(s->flag, 0, sizeof s->flag);
    memset(s->flag_dsts, 0, sizeof s->flag_dsts);
    for (int i = 0; i < s->n_regions; i++)
        if (!s->regions[i].gm)
            s->regions[i].n_segs = 0;
}

/* The fields a core's context has of its own (CoreState and SyncChecker name them alike). */
#define CORE_STATE_FIELDS(X) X(clk) X(layers) X(internal_site) X(flag) X(flag_dsts) X(buf) X(sem) X(fifo_free) X(block)
#define COPY_CORE_FIELD(f) memcpy(&to->f, &from->f, sizeof to->f);

/* Copies the running context's synchronisation state into `to`. */
static void save_core(const SyncChecker *from, CoreState *to) { CORE_STATE_FIELDS(COPY_CORE_FIELD) }

/* Makes `from` the running state. */
static void load_core(SyncChecker *to, const CoreState *from) { CORE_STATE_FIELDS(COPY_CORE_FIELD) }

bool sync_checker_enter_core(SyncChecker *s, int core) {
    if (core == s->core) return true;
    if (core < 0 || core > PIPE_MAX_CORES) return false;
    if (!s->cores && !(s->cores = calloc(PIPE_MAX_CORES + 1, sizeof *s->cores))) return false;
    save_core(s, &s->cores[s->core]);
    CoreState *c = &s->cores[core];
    if (core && !c->started) { /* a core starts with idle pipes, no flag set, no token held */
        memset(c, 0, sizeof *c);
        c->started = true;
        c->layers = 1;
        c->block = core_block(s->cores[0].block, core);
    }
    load_core(s, c);
    s->core = core;
    return true;
}

static void report_left_flags(Interp *ip, SyncChecker *s, const Op **seen, int *n_seen);

static void join_into(SyncChecker *s, int q, const Snapshot from);
static void take_clock(const SyncChecker *s, int p, Snapshot into);

/* The pipe of a FIFO consumer's pop and free (pto-isa npu TPush.hpp Consumer): MTE2 when the slots
 * are in GM (always on A2/A3), which it loads them from; on A5 otherwise V for a vector consumer
 * (dir 0), MTE1 for the cube (dir 1). */
static int fifo_consumer_pipe(const SyncChecker *s, int dir, bool gm_slots) {
    return s->target != TARGET_A5 || gm_slots ? P_MTE2 : dir == 0 ? P_V : P_MTE1;
}

void sync_checker_fifo_free(SyncChecker *s, int dir, int slot, bool gm_slots) {
    if (dir < 0 || dir > 1 || slot < 0 || slot >= PIPE_MAX_SLOTS) return;
    take_clock(s, fifo_consumer_pipe(s, dir, gm_slots), s->fifo_free[dir][slot]); /* after the pipe's work so far */
}

void sync_checker_fifo_pop(SyncChecker *s, int dir, int slot, bool gm_slots) {
    if (dir < 0 || dir > 1 || slot < 0 || slot >= PIPE_MAX_SLOTS) return;
    /* the producer's push into this slot waited for the free, the pop waits for the push: on A2/A3
     * wait_flag_dev holds the whole core, on A5 wait_intra_block the pop's pipe */
    if (s->target == TARGET_A5)
        join_into(s, fifo_consumer_pipe(s, dir, gm_slots), s->fifo_free[dir][slot]);
    else
        for (int q = 0; q < N_PIPES; q++) join_into(s, q, s->fifo_free[dir][slot]);
}

void sync_checker_forget_memory(SyncChecker *s, const uint8_t *base) {
    for (int i = 0; i < s->n_regions; i++)
        if (s->regions[i].base == base) s->regions[i].base = NULL, s->regions[i].bytes = 0, s->regions[i].n_segs = 0;
}

void sync_checker_end_cores(Interp *ip, SyncChecker *s) {
    if (!s->cores) return;
    enum { MAX_SEEN = N_PIPES * N_PIPES * 8 };
    const Op *seen[MAX_SEEN]; /* the sub-blocks of a vector kernel run the same code: one report per site */
    int n_seen = 0;
    for (int core = 1; core <= PIPE_MAX_CORES; core++) {
        if (!s->cores[core].started) continue;
        if (!sync_checker_enter_core(s, core)) break;
        report_left_flags(ip, s, seen, &n_seen);
        keep_leftovers(s);
    }
    sync_checker_enter_core(s, 0);
    for (int core = 1; core <= PIPE_MAX_CORES; core++) s->cores[core].started = false;
}

/* The memory holding [p, p + n): an on-chip buffer, a GM buffer or a frame's automatic storage. */
static MemRegion *region_of(Interp *ip, SyncChecker *s, const uint8_t *p, AccessHint *hint) {
    if (hint && hint->region >= 0 && hint->region < s->n_regions) {
        MemRegion *r = &s->regions[hint->region];
        if (p >= r->base && p < r->base + r->bytes) return r;
    }
    for (int i = 0; i < s->n_regions; i++)
        if (hint && p >= s->regions[i].base && p < s->regions[i].base + s->regions[i].bytes) {
            hint->region = i, hint->seg = -1;
            return &s->regions[i];
        }
    for (int i = 0; i < s->n_regions; i++)
        if (p >= s->regions[i].base && p < s->regions[i].base + s->regions[i].bytes) return &s->regions[i];
    const uint8_t *base;
    int64_t bytes;
    bool gm;
    if (!interp_memory_of(ip, p, &base, &bytes, &gm)) return NULL;
    if (s->n_regions == s->cap_regions) {
        int cap = s->cap_regions ? 2 * s->cap_regions : 16;
        MemRegion *g = realloc(s->regions, (size_t)cap * sizeof *g);
        if (!g) return NULL;
        s->regions = g, s->cap_regions = cap;
    }
    if (hint) hint->region = s->n_regions, hint->seg = -1;
    MemRegion *r = &s->regions[s->n_regions++];
    r->base = base, r->bytes = bytes, r->gm = gm;
    r->segs = NULL;
    r->n_segs = r->cap_segs = 0;
    return r;
}

static bool same_sdma_queue(const SyncChecker *s, uint32_t t);

/* Is an access at (pipe q, own time t) ordered before what pipe p does now, in layer c? */
static inline bool ordered_in(const SyncChecker *s, const Clocks *c, int q, uint32_t t, int p) {
    if (q == p && !self_ordered(s->target, p))
        return t <= c->barrier[p] || t <= c->done[p] || (p == P_DMA && same_sdma_queue(s, t));
    return t <= c->vc[p][q];
}

enum { ORDERED, RACE, INTERNAL_ORDER };
/* How an access at (pipe q, own time t) relates to what `op` on pipe p does now: ordered by the
 * program's synchronisation, a race, or ordered only by another op's internal synchronisation (an
 * op's own accesses may rely on its own). */
static inline int order_of(const SyncChecker *s, const Op *op, int q, uint32_t t, int p) {
    if (!ordered_in(s, &s->clk[0], q, t, p)) return RACE;
    return s->internal_site && s->internal_site != op && !ordered_in(s, &s->clk[1], q, t, p) ? INTERNAL_ORDER : ORDERED;
}

static __attribute__((noinline, cold)) void report(SyncChecker *s, int kind, const Op *first, int p1, int32_t b1,
                                                   const Op *second, int p2, const Value *value, const char *mem, int64_t lo,
                                                   int64_t hi) {
    for (Report *x = s->reports; x; x = x->next)
        if (x->first == first && x->second == second && x->kind == kind) {
            if (x->last_step != s->step) {
                x->count++, x->last_step = s->step;
            } else if (x->count == 1 && x->value == value) { /* more runs of the first occurrence */
                if (lo < x->lo) x->lo = lo;
                if (hi > x->hi) x->hi = hi;
            }
            return;
        }
    Report *x = calloc(1, sizeof *x);
    if (!x) return;
    *x = (Report){first, second, kind, kind >= 3 ? s->internal_site : NULL, p1, p2, value, mem, lo, hi, 1, s->step,
                  b1, s->block, s->reports};
    s->reports = x;
    if (kind < 3) s->n_reports++;
}

static bool same_history(const Shadow *x, const Shadow *y) {
    if (x->wsite != y->wsite || x->wtime != y->wtime || x->wpipe != y->wpipe || x->wblock != y->wblock ||
        x->rmask != y->rmask)
        return false;
    for (unsigned m = x->rmask; m; m &= m - 1) { /* a pipe's read time, site and block mean something only with its bit */
        int q = __builtin_ctz(m);
        if (x->rtime[q] != y->rtime[q] || x->rsite[q] != y->rsite[q] || x->rblock[q] != y->rblock[q]) return false;
    }
    return true;
}

static bool reserve_segs(Seg **v, int64_t *cap, int64_t need) {
    if (need <= *cap) return true;
    int64_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    Seg *g = realloc(*v, (size_t)c * sizeof *g);
    if (!g) return false;
    *v = g, *cap = c;
    return true;
}

/* Appends a run to the scratch list, merged into the previous one when adjacent with one history. */
static bool push_mid(SyncChecker *s, int64_t *n, int64_t lo, int64_t hi, const Shadow *sh) {
    if (lo >= hi) return true;
    if (*n && s->mid[*n - 1].hi == lo && same_history(&s->mid[*n - 1].sh, sh)) {
        s->mid[*n - 1].hi = hi;
        return true;
    }
    if (!reserve_segs(&s->mid, &s->cap_mid, *n + 1)) return false;
    s->mid[*n] = (Seg){lo, hi, *sh};
    (*n)++;
    return true;
}

/* How an access made in another context (block id `other`) relates to the running one: another
 * block of --blocks is never ordered; another core of the same block's FIFO kernel group, or its
 * entry, is not compared, since the cores' cross-core order (the FIFO's handshakes) is not
 * modelled (docs/sync.md). */
static inline int other_context_order(const SyncChecker *s, int32_t other) {
    return block_index(other) != block_index(s->block) ? RACE : ORDERED;
}

/* Checks an access by `op` on pipe `pipe` at own time `now` against one run's history: its last
 * write, and for a write its last reads (reported on bytes [rep_lo, rep_hi) of `value` in `mem`). */
static inline __attribute__((always_inline)) void check_run(SyncChecker *s, const Shadow *sh, const Op *op, int pipe, uint32_t now, bool write,
                             const Value *value, const char *mem, int64_t rep_lo, int64_t rep_hi) {
    bool self = sh->wsite == op && sh->wpipe == pipe && sh->wtime == now && sh->wblock == s->block; /* this execution */
    if (sh->wsite && !self) {
        int o = sh->wblock != s->block ? other_context_order(s, sh->wblock) : order_of(s, op, sh->wpipe, sh->wtime, pipe);
        if (o != ORDERED)
            report(s, (write ? 2 : 0) + (o == INTERNAL_ORDER ? 3 : 0), sh->wsite, sh->wpipe, sh->wblock, op, pipe, value, mem,
                   rep_lo, rep_hi);
    }
    if (write)
        for (unsigned m = sh->rmask; m; m &= m - 1) { /* the pipes that read, lowest first */
            int q = __builtin_ctz(m);
            if (sh->rsite[q] == op && q == pipe && sh->rtime[q] == now && sh->rblock[q] == s->block) continue;
            int o = sh->rblock[q] != s->block ? other_context_order(s, sh->rblock[q]) : order_of(s, op, q, sh->rtime[q], pipe);
            if (o != ORDERED)
                report(s, 1 + (o == INTERNAL_ORDER ? 3 : 0), sh->rsite[q], q, sh->rblock[q], op, pipe, value, mem, rep_lo,
                       rep_hi);
        }
}

/* Checks an access against one run's history (check_run) and records it there. */
static inline __attribute__((always_inline)) void touch_run(SyncChecker *s, Shadow *sh, const Op *op, int pipe, bool write,
                                                            const Value *value, const char *mem, int64_t rep_lo,
                                                            int64_t rep_hi) {
    uint32_t now = s->clk[0].vc[pipe][pipe];
    check_run(s, sh, op, pipe, now, write, value, mem, rep_lo, rep_hi);
    if (write) { /* the reads go (a read counts only with its bit in rmask) */
        sh->rmask = 0;
        sh->wsite = op, sh->wtime = now, sh->wpipe = (int8_t)pipe, sh->wblock = s->block;
    } else {
        shadow_read(sh, pipe, now, op, s->block);
    }
}

/* An access of bytes [p, p + n) by `op` on pipe `pipe`, within `value` (a tile, or a GM buffer's
 * argument) in memory `mem`, whose bytes count from `origin` in reports. The region's history is a
 * sorted list of runs of whole 32-byte blocks: the overlapped runs are checked, then replaced by
 * the access's result (one run for a write; for a read, each piece with this pipe's read added). */
static __attribute__((noinline)) void access_slow(Interp *ip, SyncChecker *s, const Op *op, int pipe, const uint8_t *p,
                                                  int64_t n, bool write, const Value *value, const char *mem,
                                                  const uint8_t *origin, AccessHint *hint) {
    MemRegion *r = region_of(ip, s, p, hint);
    if (!r) return;
    int64_t a = (p - r->base) / SHADOW_BLOCK * SHADOW_BLOCK, b = p - r->base + n;
    b = (b + SHADOW_BLOCK - 1) / SHADOW_BLOCK * SHADOW_BLOCK;
    uint32_t now = s->clk[0].vc[pipe][pipe];
    int64_t lo = 0, hi = r->n_segs; /* first run ending after a */
    if (hint && hint->seg >= 0 && hint->seg < hi && r->segs[hint->seg].hi > a &&
        (hint->seg == 0 || r->segs[hint->seg - 1].hi <= a)) {
        lo = hint->seg; /* the last access's first run is still the first one ending after a */
    } else {
        while (lo < hi) {
            int64_t m = lo + (hi - lo) / 2;
            if (r->segs[m].hi <= a) lo = m + 1;
            else hi = m;
        }
    }
    if (hint) hint->seg = lo; /* where the rewritten runs start */
    int64_t first = lo, end = lo;
    int64_t rep_lo = p - origin, rep_hi = p - origin + n;
    if (first < r->n_segs && r->segs[first].lo == a && r->segs[first].hi == b) { /* the same range again */
        touch_run(s, &r->segs[first].sh, op, pipe, write, value, mem, rep_lo, rep_hi);
        return;
    }
    s->gen++; /* the run list changes shape */
    for (; end < r->n_segs && r->segs[end].lo < b; end++)
        check_run(s, &r->segs[end].sh, op, pipe, now, write, value, mem, rep_lo, rep_hi);
    /* the new runs from min(a, first run's lo) to max(b, last run's hi) */
    int64_t nm = 0;
    bool ok = true;
    if (first < end && r->segs[first].lo < a) ok = push_mid(s, &nm, r->segs[first].lo, a, &r->segs[first].sh);
    if (write) {
        Shadow w = {0};
        w.wsite = op, w.wtime = now, w.wpipe = (int8_t)pipe, w.wblock = s->block;
        ok = ok && push_mid(s, &nm, a, b, &w);
    } else {
        int64_t at = a;
        for (int64_t i = first; i < end && ok; i++) {
            Shadow none = {0};
            shadow_read(&none, pipe, now, op, s->block);
            if (r->segs[i].lo > at) ok = push_mid(s, &nm, at, r->segs[i].lo, &none); /* a gap: never accessed */
            Shadow sh = r->segs[i].sh;
            shadow_read(&sh, pipe, now, op, s->block);
            int64_t from = r->segs[i].lo > a ? r->segs[i].lo : a, to = r->segs[i].hi < b ? r->segs[i].hi : b;
            ok = ok && push_mid(s, &nm, from, to, &sh);
            at = to;
        }
        Shadow none = {0};
        shadow_read(&none, pipe, now, op, s->block);
        ok = ok && push_mid(s, &nm, at, b, &none);
    }
    if (ok && end > first && r->segs[end - 1].hi > b) ok = push_mid(s, &nm, b, r->segs[end - 1].hi, &r->segs[end - 1].sh);
    if (!ok || !reserve_segs(&r->segs, &r->cap_segs, r->n_segs - (end - first) + nm)) return; /* out of memory: no record */
    if (nm != end - first) memmove(r->segs + first + nm, r->segs + end, (size_t)(r->n_segs - end) * sizeof *r->segs);
    memcpy(r->segs + first, s->mid, (size_t)nm * sizeof *r->segs);
    r->n_segs += nm - (end - first);
}

/* access_slow, with the common case first: the hint's run is exactly the access's blocks (an
 * operand touching the same bytes as last time), so that run alone is checked and updated. */
static inline void access(Interp *ip, SyncChecker *s, const Op *op, int pipe, const uint8_t *p, int64_t n, bool write,
                          const Value *value, const char *mem, const uint8_t *origin, AccessHint *hint) {
    if (n <= 0) return;
    if (!hint) {
        access_slow(ip, s, op, pipe, p, n, write, value, mem, origin, NULL);
        return;
    }
    if (hint->gen == s->gen && hint->p == p && hint->n == n) { /* the same bytes, the same run list */
        touch_run(s, &s->regions[hint->region].segs[hint->seg].sh, op, pipe, write, value, mem, p - origin, p - origin + n);
        return;
    }
    hint->gen = 0, hint->vr = hint->vc = -1;
    if (hint->region >= 0 && hint->seg >= 0) {
        MemRegion *r = &s->regions[hint->region];
        uintptr_t off = (uintptr_t)p - (uintptr_t)r->base; /* inside the region: below its size */
        if (off < (uintptr_t)r->bytes && hint->seg < r->n_segs) {
            Seg *g = &r->segs[hint->seg];
            int64_t a = (int64_t)off & ~(int64_t)(SHADOW_BLOCK - 1);
            int64_t b = ((int64_t)off + n + SHADOW_BLOCK - 1) & ~(int64_t)(SHADOW_BLOCK - 1);
            if (g->lo == a && g->hi == b) { /* the runs are sorted and disjoint: this is the only one overlapped */
                touch_run(s, &g->sh, op, pipe, write, value, mem, p - origin, p - origin + n);
                hint->gen = s->gen, hint->p = p, hint->n = n;
                return;
            }
        }
    }
    access_slow(ip, s, op, pipe, p, n, write, value, mem, origin, hint);
    if (hint->region >= 0 && hint->seg >= 0 && hint->seg < s->regions[hint->region].n_segs) { /* exactly one run now? */
        const MemRegion *r = &s->regions[hint->region];
        int64_t off = p - r->base;
        const Seg *g = &r->segs[hint->seg];
        if (g->lo == (off & ~(int64_t)(SHADOW_BLOCK - 1)) && g->hi == ((off + n + SHADOW_BLOCK - 1) & ~(int64_t)(SHADOW_BLOCK - 1)))
            hint->gen = s->gen, hint->p = p, hint->n = n;
    }
}

/* The bytes of a GM view, one contiguous run per row of its last dimension. */
static void access_view(Interp *ip, SyncChecker *s, const Op *op, int pipe, const GmView *v, bool write, AccessHint *hint) {
    if (v->buffer < 0 || v->buffer >= ip->n_gm || !ip->gm[v->buffer].data || v->rank < 1) return;
    const GmBuffer *b = &ip->gm[v->buffer];
    int r = v->rank;
    for (int i = 0; i < r; i++)
        if (v->shape[i] <= 0) return;
    int64_t last = v->shape[r - 1], ls = v->strides[r - 1], es = (int64_t)b->elem_size;
    int64_t packed = 1; /* a view whose elements are packed in order is one run (the common case) */
    for (int i = r - 1; i >= 0 && packed > 0; i--) packed = v->shape[i] == 1 || v->strides[i] == packed ? packed * v->shape[i] : 0;
    if (packed > 0) {
        access(ip, s, op, pipe, b->data + (size_t)v->offset * b->elem_size, packed * es, write, b->arg, "GM", b->data, hint);
        return;
    }
    int64_t idx[INTERP_MAX_RANK] = {0};
    const uint8_t *run = NULL; /* the pending contiguous run: adjacent rows join it */
    int64_t run_len = 0;
    for (;;) {
        int64_t off = v->offset;
        for (int i = 0; i < r - 1; i++) off += idx[i] * v->strides[i];
        for (int64_t c = 0; c < (ls == 1 ? 1 : last); c++) {
            const uint8_t *at = b->data + (size_t)(off + c * ls) * b->elem_size;
            int64_t len = (ls == 1 ? last : 1) * es;
            if (run && at == run + run_len) {
                run_len += len;
                continue;
            }
            if (run) access(ip, s, op, pipe, run, run_len, write, b->arg, "GM", b->data, NULL);
            run = at, run_len = len;
        }
        int i = r - 2;
        while (i >= 0 && ++idx[i] == v->shape[i]) idx[i--] = 0;
        if (i < 0) break;
    }
    if (run) access(ip, s, op, pipe, run, run_len, write, b->arg, "GM", b->data, NULL);
}

static const Value *typed_operand(const OperandList *l, int i);

/* PR_TRANSPOSE: V, or on A2/A3 S when a row stride rules out the vnchwconv path (pto-isa
 * a2a3/TTrans.hpp TTransOperation: dst's row stride a multiple of 16 elements, 32 for 1-byte types,
 * and src's of one 32-byte block; else TransTailTiles, a scalar loop). Static: the strides are the
 * types'. */
static int transpose_pipe(const SyncChecker *s, const Op *op) {
    const Value *src = op->ins.count ? typed_operand(&op->ins, 0) : NULL;
    const Value *dst = op->outs.count ? typed_operand(&op->outs, 0) : op->n_results > 0 ? op->results[0] : NULL;
    if (s->target == TARGET_A5 || !src || !dst || src->type->kind != TY_TILE || !dst->type || dst->type->kind != TY_TILE)
        return P_V;
    const TileType *a = &src->type->tile, *b = &dst->type->tile;
    int64_t es = (int64_t)dtype_size(a->dtype);
    if (es <= 0 || es > 32) return P_V;
    int64_t src_stride = a->blayout == BL_ROW_MAJOR ? a->cols : 1, dst_stride = b->blayout == BL_ROW_MAJOR ? b->cols : 1;
    return dst_stride % (es == 1 ? 32 : 16) != 0 || src_stride % (32 / es) != 0 ? P_S : P_V;
}

static const Value *typed_operand(const OperandList *l, int i);

/* The pipe of a tile instruction: its row's pipe rule (ir.h PipeRule), from its operands' memories. */
static int pipe_of(const SyncChecker *s, const Op *op) {
    /* a transfer's bytes move on the DMA engine (pto-isa comm/async/sdma: SQEs the op posts), after
     * its PIPE_ALL barrier; but an A5 put is a copy through UB on the core's MTE2 and MTE3
     * (mte_put_handshake), which reads src on MTE2 */
    const AsyncRole role = OPF_ASYNC_ROLE(op_info(op->code)->flags);
    if (role == AR_PUT) return s->target == TARGET_A5 ? P_MTE2 : P_DMA;
    if (role == AR_GET) return P_DMA;
    PipeRule rule = OPF_PIPE_RULE(op_info(op->code)->flags);
    if (rule == PR_TRANSPOSE) return transpose_pipe(s, op);
    if (rule == PR_CUBE) return P_M;
    if (rule == PR_SCALAR) return P_S;
    if (rule == PR_SCATTER) return s->target == TARGET_A5 ? P_V : P_S;
    if (rule == PR_FIFO_PUSH || rule == PR_FIFO_POP) { /* the tile: a push's operand, a pop's result or operand */
        const Value *t = op->n_results ? op->results[0] : op->ins.count ? typed_operand(&op->ins, 0) : NULL;
        int loc = t && t->type && t->type->kind == TY_TILE ? (int)t->type->tile.loc : -1;
        if (rule == PR_FIFO_PUSH) return loc == LOC_ACC ? P_FIX : P_MTE3;
        /* a handle from initialize_l2g2l_pipe: the slots are in GM on A5 too, and the pop loads them */
        const Value *h = op->ins.count > 1 ? typed_operand(&op->ins, 1) : NULL;
        bool gm_slots = h && h->type->kind == TY_PIPE && h->def && h->def->code == OP_INITIALIZE_L2G2L_PIPE;
        return s->target != TARGET_A5 || gm_slots ? P_MTE2 : loc == LOC_MAT ? P_MTE1 : P_V;
    }
    bool gm_in = false, gm_out = false;
    int src_loc = -1, dst_loc = -1;
    for (int i = 0; i < op->ins.count; i++) {
        const Value *v = op->ins.items[i].kind == OPD_VALUE ? op->ins.items[i].value : NULL;
        if (!v || !v->type) continue;
        if (v->type->kind == TY_PARTITION_VIEW || v->type->kind == TY_TENSOR_VIEW) gm_in = true;
        if (v->type->kind == TY_TILE && src_loc < 0) src_loc = v->type->tile.loc;
    }
    for (int i = 0; i < op->outs.count; i++) {
        const Value *v = op->outs.items[i].kind == OPD_VALUE ? op->outs.items[i].value : NULL;
        if (!v || !v->type) continue;
        if (v->type->kind == TY_PARTITION_VIEW || v->type->kind == TY_TENSOR_VIEW) gm_out = true;
        if (v->type->kind == TY_TILE && dst_loc < 0) dst_loc = v->type->tile.loc;
    }
    if (rule == PR_FILL) return dst_loc == LOC_MAT ? P_MTE2 : P_V;
    if (gm_in) return P_MTE2;
    if (gm_out) return src_loc == LOC_ACC ? P_FIX : P_MTE3;
    if (src_loc == LOC_MAT && (dst_loc == LOC_LEFT || dst_loc == LOC_RIGHT || dst_loc == LOC_BIAS || dst_loc == LOC_SCALING))
        return P_MTE1;
    if (src_loc == LOC_ACC) return P_FIX;
    if (src_loc == LOC_VEC && dst_loc == LOC_MAT) return s->target == TARGET_A5 ? P_MTE3 : P_FIX;
    return P_V;
}

static void join(uint32_t *into, const uint32_t *from) {
    for (int q = 0; q < N_PIPES; q++) into[q] = from[q] > into[q] ? from[q] : into[q];
}

/* Pipe q learns `from` (a flag's clock, both layers): what it orders after, and which of its own
 * instructions are known complete (the flag's setter saw them done). */
static void join_into(SyncChecker *s, int q, const Snapshot from) {
    for (int k = 0; k < s->layers; k++) {
        Clocks *c = &s->clk[k];
        join(c->vc[q], from[k]);
        if (from[k][q] > c->done[q]) c->done[q] = from[k][q];
    }
}

/* `into` = pipe p's clock now, in both layers (a set fires after all earlier p work). */
static void take_clock(const SyncChecker *s, int p, Snapshot into) {
    for (int k = 0; k < s->layers; k++) memcpy(into[k], s->clk[k].vc[p], sizeof into[k]);
}

/* Starts keeping layer 1 apart, before an op's internal sync first orders pipes in layer 0 only:
 * until then every layer-1 clock (the pipes', the flags', the buffer tokens' and the semaphores')
 * equals its layer-0 twin, so it is copied from it now. */
static void split_layers(SyncChecker *s) {
    if (s->layers == N_LAYERS) return;
    s->layers = N_LAYERS;
    s->clk[1] = s->clk[0];
    for (int p = 0; p < N_PIPES; p++)
        for (int q = 0; q < N_PIPES; q++)
            for (int e = 0; e < SYNC_EVENT_IDS; e++) {
                FlagState *f = &s->flag[p][q][e];
                memcpy(f->clock[1], f->clock[0], sizeof f->clock[1]);
            }
    for (int b = 0; b < N_BUF_IDS; b++) memcpy(s->buf[b].clock[1], s->buf[b].clock[0], sizeof s->buf[b].clock[1]);
    for (int c = 0; c < N_CROSS_IDS; c++)
        for (int i = 0; i < s->sem[c].n; i++) memcpy(s->sem[c].clock[i][1], s->sem[c].clock[i][0], sizeof s->sem[c].clock[i][1]);
}

/* Every pipe of the core after every pipe of the core (PIPE_ALL), in one layer. The DMA engine is
 * no pipe of the core: the barrier neither waits for its transfers nor orders them. */
static void barrier_all(Clocks *c) {
    uint32_t all[N_PIPES] = {0};
    for (int q = 0; q < P_DMA; q++) join(all, c->vc[q]);
    for (int q = 0; q < P_DMA; q++) memcpy(c->vc[q], all, sizeof all), c->barrier[q] = c->done[q] = c->vc[q][q];
}

static int pipe_of(const SyncChecker *s, const Op *op);

/* The operand `i` of list `l` as a value with a type, or NULL. */
static const Value *typed_operand(const OperandList *l, int i) {
    const Value *v = l->items[i].kind == OPD_VALUE ? l->items[i].value : NULL;
    return v && v->type ? v : NULL;
}

static bool is_view(const Value *v) { return v->type->kind == TY_PARTITION_VIEW || v->type->kind == TY_TENSOR_VIEW; }

/* The decoded form of the instruction `in` (made on its first execution); NULL when the host is out
 * of memory. */
static Decoded *decode(Interp *ip, SyncChecker *s, const Instr *in, int32_t pc);
static inline const Decoded *decoded(Interp *ip, SyncChecker *s, const Instr *in, int32_t pc) {
    if (pc >= 0 && pc < s->n_decoded && s->decoded[pc].done) return &s->decoded[pc];
    return decode(ip, s, in, pc);
}

/* Room for n operand accesses of one instruction, in one piece (NULL: none, or out of memory). */
static OperandAccess *keep_accesses(SyncChecker *s, int n) {
    if (n == 0) return NULL;
    if (!s->access_chunks || s->access_chunks->n + n > ACCESS_CHUNK) {
        AccessChunk *c = malloc(sizeof *c);
        if (!c) return NULL;
        c->next = s->access_chunks, c->n = 0;
        s->access_chunks = c;
    }
    OperandAccess *a = &s->access_chunks->items[s->access_chunks->n];
    s->access_chunks->n += n;
    return a;
}

/* Appends an operand access to a decoded list, unless the list has the same access already (tadd
 * %t, %t reads %t once: a second identical access finds and leaves the same history). */
static void add_access(OperandAccess *list, uint8_t *n, OperandAccess a) {
    for (int i = 0; i < *n; i++)
        if (list[i].value == a.value && list[i].view == a.view && list[i].whole == a.whole && list[i].element == a.element)
            return;
    list[(*n)++] = a;
}

/* A tile access's layout and memory name, made once when its instruction is decoded (the layout
 * stays NULL when the host is out of memory: access_tile then looks it up each time). */
static void resolve_layout(SyncChecker *s, OperandAccess *a) {
    a->hint.region = -1;
    a->hint.vr = a->hint.vc = -1;
    if (a->view) return;
    const TileType *tt = &a->value->type->tile;
    a->mem = buffer_name(tt->loc);
    a->es = (int32_t)dtype_size(tt->dtype);
    if (!s->ref_chunks || s->ref_chunks->n == REF_CHUNK) {
        RefChunk *c = malloc(sizeof *c);
        if (!c) return;
        c->next = s->ref_chunks, c->n = 0;
        s->ref_chunks = c;
    }
    TileRef *t = &s->ref_chunks->refs[s->ref_chunks->n++];
    tile_ref_fill(tt, s->target, t);
    a->ref = t;
}

static Decoded *decode(Interp *ip, SyncChecker *s, const Instr *in, int32_t pc) {
    if (!s->decoded) {
        s->decoded = calloc((size_t)(ip->n_code > 0 ? ip->n_code : 1), sizeof *s->decoded);
        if (!s->decoded) return NULL;
        s->n_decoded = ip->n_code;
    }
    if (pc < 0 || pc >= s->n_decoded || in != &ip->code[pc]) return NULL; /* an instruction outside the program (none today) */
    Decoded *d = &s->decoded[pc];
    if (d->done) return d;
    d->done = true;
    d->role = D_SYNC;
    const Op *op = in->op;
    const OpInfo *info = NULL;
    const char *w;
    size_t n;
    int ssrc, sdst, event;
    if (!op || (unsigned)op->code >= OP_COUNT || (info = op_info(op->code), info->cls != CLS_SYNC && info->cls != CLS_TILE &&
                                                    info->cls != CLS_TILE_MEM)) {
        d->role = D_OTHER;
    } else if (info->cls != CLS_SYNC) {
        d->role = D_TILE;
        d->pipe = (int8_t)pipe_of(s, op), d->valid = true;
        d->internal = OPF_INTERNAL_SYNC(info->flags);
        d->early_writes = !in->footprint && !in->defines_dst && d->internal != IS_SCALAR_PATH_KEYS_A2A3;
        OperandAccess reads[MAX_ACCESSES], writes[MAX_ACCESSES];
        uint8_t nr = 0, nw = 0;
        for (int i = 0; i < op->ins.count && nr < MAX_ACCESSES; i++) { /* the sources' valid regions */
            const Value *v = typed_operand(&op->ins, i);
            if (!v || (i < OPSPEC_MAX && (info->ins[i].flags & (SPEC_NAMED | SPEC_TMP)))) continue;
            if (v->type->kind == TY_TILE || is_view(v))
                add_access(reads, &nr,
                           (OperandAccess){.value = v, .view = is_view(v), .element = (info->flags & OPF_ONE_ELEMENT) != 0});
        }
        if (info->flags & OPF_DST_READ)
            for (int i = 0; i < op->outs.count && nr < MAX_ACCESSES; i++) {
                const Value *v = typed_operand(&op->outs, i);
                if (v && v->type->kind == TY_TILE) add_access(reads, &nr, (OperandAccess){.value = v});
            }
        for (int i = 0; i < op->ins.count && i < OPSPEC_MAX && nw < MAX_ACCESSES; i++) { /* tmp: scratch */
            const Value *v = typed_operand(&op->ins, i);
            if (v && v->type->kind == TY_TILE && (info->ins[i].flags & SPEC_TMP))
                writes[nw++] = (OperandAccess){.value = v, .whole = true};
        }
        for (int i = 0; i < op->outs.count && nw < MAX_ACCESSES; i++) { /* as the op left them */
            const Value *v = typed_operand(&op->outs, i);
            if (v && (v->type->kind == TY_TILE || is_view(v)))
                writes[nw++] = (OperandAccess){.value = v,
                                               .view = is_view(v),
                                               .whole = !is_view(v) && (info->flags & OPF_PAD_FILL),
                                               .element = (info->flags & OPF_ONE_ELEMENT) != 0};
        }
        OperandAccess *kept = keep_accesses(s, nr + nw); /* NULL when out of memory: nothing recorded */
        if (kept) {
            memcpy(kept, reads, nr * sizeof *kept);
            memcpy(kept + nr, writes, nw * sizeof *kept);
            d->reads = kept, d->writes = kept + nr, d->n_reads = nr, d->n_writes = nw;
            for (int i = 0; i < nr + nw; i++) resolve_layout(s, &kept[i]);
        }
    } else if (info->flags & OPF_SYNC_BARRIER) {
        int sp = op->attr_args.count >= 1 && attr_enum_word(&op->attr_args.items[0], &w, &n) ? sync_pipe_named(w, n) : -1;
        d->pipe = (int8_t)(sp >= 0 ? pipe_of_sync[sp] : -1), d->valid = d->pipe >= 0;
    } else if (info->flags & (OPF_SYNC_BUF | OPF_SYNC_CROSS)) { /* pipe, and the buffer or semaphore id */
        int sp;
        int64_t id;
        bool ok = (info->flags & OPF_SYNC_BUF) ? sync_buf_args(op, &sp, &id) : sync_cross_args(op, &sp, &id);
        d->pipe = (int8_t)(ok ? pipe_of_sync[sp] : -1);
        d->event = (int8_t)(id >= 0 && id < N_BUF_IDS ? id : -1);
        d->valid = ok && d->pipe >= 0 && d->pipe < N_PIPES && (id >= 0 ? id < N_BUF_IDS : op->ins.count == 1);
    } else if ((info->flags & (OPF_SYNC_SET | OPF_SYNC_WAIT)) && sync_flag_args(op, &ssrc, &sdst, &event)) {
        d->src = pipe_of_sync[ssrc], d->dst = pipe_of_sync[sdst], d->event = (int8_t)event;
        d->valid = d->src >= 0 && d->dst >= 0 && d->src < N_PIPES && d->dst < N_PIPES;
        if (d->valid && event >= 0 && event < SYNC_EVENT_IDS) d->flag = &s->flag[d->src][d->dst][event];
    }
    if (info) d->flags = info->flags;
    return d;
}

/* The op type argument of a get_buf as written (for messages and fix-its). */
static const char *op_type_text(const Op *op) {
    return op->attr_args.count && op->attr_args.items[0].text ? op->attr_args.items[0].text : "?";
}

/* get_buf(P, b) orders P after every release of b so far; rls_buf(P, b) releases b after all of
 * P's earlier work. A second get on a pipe holding b, and a release on a pipe not holding it, are
 * errors (SYNC.buf-double-get, SYNC.buf-unheld). */
static void buf_op(Interp *ip, SyncChecker *s, const Op *op, int p, int b) {
    BufToken *t = &s->buf[b];
    const char *type = op_type_text(op);
    if (op_info(op->code)->flags & OPF_SYNC_WAIT) {
        if (t->held[p] && ++s->n_errors)
            diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.buf-double-get",
                        "acquires buffer id %d on %s again while %s still holds it: the second acquire waits for a "
                        "release that only comes after it (a hang on the board); fix: insert `pto.rls_buf[%s, %d]` "
                        "before line %d, after the ops the first acquire guards",
                        b, pipe_text(p),
                        t->held[p] == op ? "its acquire in an earlier loop iteration"
                                         : arena_printf(ip->arena, "the get_buf at line %d", t->held[p]->loc.line),
                        type, b, op->loc.line);
        t->held[p] = op;
        if (t->released) join_into(s, p, t->clock);
        return;
    }
    if (!t->held[p]) {
        s->n_errors++;
        diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.buf-unheld",
                    "releases buffer id %d on %s, which no get_buf on this pipe holds on this path: the release orders "
                    "nothing before it; fix: insert `pto.get_buf[%s, %d]` before the ops this release should guard",
                    b, pipe_text(p), type, b);
    }
    t->held[p] = NULL;
    for (int k = 0; k < s->layers; k++) join(t->clock[k], s->clk[k].vc[p]); /* fires after all earlier p work */
    t->released = true;
}

/* sync.set(P, id) raises semaphore id after all of P's earlier work; sync.wait(P, id) consumes the
 * oldest raise and orders P (A5 wait_intra_block) or, on A2/A3, the whole core (wait_flag_dev
 * blocks it) after it. Sections run in program order on one modelled core, so a wait before its
 * set is a hang (SYNC.cross-hang); more than 15 pending raises overflow the 4-bit counter. */
static void cross_op(Interp *ip, SyncChecker *s, const Op *op, int p, int64_t id) {
    CrossSem *c = &s->sem[id];
    if (op_info(op->code)->flags & OPF_SYNC_SET) {
        if (c->n == CROSS_MAX_PENDING) {
            s->n_errors++;
            diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.cross-overflow",
                        "raises cross-core semaphore %lld a %dth time with none of the earlier raises waited (the first at "
                        "line %d): the counter holds %d",
                        (long long)id, CROSS_MAX_PENDING + 1, c->site[0]->loc.line, CROSS_MAX_PENDING);
            return;
        }
        c->site[c->n] = op;
        take_clock(s, p, c->clock[c->n]);
        c->n++;
        return;
    }
    if (!c->n) {
        s->n_errors++;
        diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.cross-hang",
                    "waits on cross-core semaphore %lld, which no pto.sync.set raised before it on this path: the %s "
                    "blocks forever (pto-run runs pto.section.cube and pto.section.vector in program order, so the "
                    "set must come first in the text); fix: `pto.sync.set <PIPE>, %lld` in the producing section after "
                    "its last write",
                    (long long)id, s->target == TARGET_A5 ? "waiting pipe" : "core", (long long)id);
        return;
    }
    if (s->target == TARGET_A5)
        join_into(s, p, c->clock[0]);
    else
        for (int q = 0; q < N_PIPES; q++) join_into(s, q, c->clock[0]);
    c->n--;
    memmove(c->site, c->site + 1, (size_t)c->n * sizeof *c->site);
    memmove(c->clock, c->clock + 1, (size_t)c->n * sizeof *c->clock);
}

/* SYNC.double-set: flag (src -> dst, id) set again while `fl`'s set is pending. */
static __attribute__((noinline, cold)) void double_set(Interp *ip, SyncChecker *s, const Op *op, int src, int dst, int64_t id,
                                                       const FlagState *fl) {
    s->n_errors++;
    diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.double-set",
                "sets flag (%s -> %s, EVENT_ID%lld) again while the set at line %d is still pending: a flag is "
                "one bit, the hardware forbids a second set before a wait",
                pipe_text(src), pipe_text(dst), (long long)id, fl->site ? fl->site->loc.line : 0);
}

/* SYNC.key-overlap: flag (src -> dst, id) set while (src -> other, id) is pending. */
static __attribute__((noinline, cold)) void key_overlap(Interp *ip, SyncChecker *s, const Op *op, int src, int dst, int64_t id,
                                                        int other) {
    const Op *pending = s->flag[src][other][id].site;
    diag_report(ip->diags, ip->file, SEV_WARNING, op->loc, "SYNC.key-overlap",
                "sets flag (%s -> %s, EVENT_ID%lld) while flag (%s -> %s, EVENT_ID%lld) set at line %d is "
                "still pending: the hardware has been seen to confuse flags of one source pipe and id "
                "(PTOAS #823, a deadlock); use another event id for one of them",
                pipe_text(src), pipe_text(dst), (long long)id, pipe_text(src), pipe_text(other), (long long)id,
                pending ? pending->loc.line : 0);
}

/* SYNC.wait-unset: a wait for flag (src -> dst, id) with no set pending. */
static __attribute__((noinline, cold)) void wait_unset(Interp *ip, SyncChecker *s, const Op *op, int src, int dst, int64_t id) {
    s->n_errors++;
    diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.wait-unset",
                "waits for flag (%s -> %s, EVENT_ID%lld), which no set_flag raised on this path: %s",
                pipe_text(src), pipe_text(dst), (long long)id,
                dst == P_S ? "the scalar pipe stalls and the kernel hangs" : "the waiting pipe stalls forever");
}

/* set / wait / barrier ops: their effect on the clocks and the flag protocol. */
static void sync_op(Interp *ip, SyncChecker *s, const Instr *in, const Decoded *d) {
    const Op *op = in->op;
    if (!d->valid) return;
    const uint64_t flags = d->flags;
    if ((flags & OPF_SYNC_CROSS) && s->core) return; /* between cores of a FIFO group: not modelled (docs/sync.md) */
    if (flags & (OPF_SYNC_BUF | OPF_SYNC_CROSS)) {
        int64_t id = d->event >= 0 ? d->event : op->ins.count == 1 ? read_int(ip->frame, &in->sc[0]) : -1;
        int ids = (flags & OPF_SYNC_BUF) ? N_BUF_IDS : sync_cross_ids(s->target);
        if (id < 0 || id >= ids) return; /* refused when it runs */
        if (flags & OPF_SYNC_BUF) buf_op(ip, s, op, d->pipe, (int)id);
        else cross_op(ip, s, op, d->pipe, id);
        return;
    }
    if (flags & OPF_SYNC_BARRIER) {
        int p = d->pipe;
        for (int k = 0; k < s->layers; k++)
            if (p == N_PIPES) /* PIPE_ALL: every pipe after every pipe */
                barrier_all(&s->clk[k]);
            else
                s->clk[k].barrier[p] = s->clk[k].vc[p][p];
        return;
    }
    int64_t id = d->event >= 0 ? d->event : op->ins.count >= 1 ? read_int(ip->frame, &in->sc[0]) : -1; /* _dyn: at run time */
    int src = d->src, dst = d->dst;
    if (id < 0 || id >= SYNC_EVENT_IDS) return; /* verified elsewhere */
    FlagState *fl = d->flag ? d->flag : &s->flag[src][dst][id];
    if (flags & OPF_SYNC_SET) {
        if (fl->set) double_set(ip, s, op, src, dst, id, fl);
        unsigned others = s->flag_dsts[src][id] & ~(1u << dst); /* the set flags of this source pipe and id */
        if (others && !d->warned) { /* PTOAS #823: keyed by (src, id) on the board */
            ((Decoded *)d)->warned = true;
            key_overlap(ip, s, op, src, dst, id, __builtin_ctz(others)); /* the lowest such pipe */
        }
        fl->set = true;
        s->flag_dsts[src][id] |= (uint8_t)(1u << dst);
        fl->site = op;
        fl->taken_by = NULL;
        take_clock(s, src, fl->clock); /* fires after all earlier src-pipe work */
        return;
    }
    if (!fl->set && fl->taken_by) { /* its set went to an op's own wait (SYNC.internal-key there) */
        s->n_errors++;
        diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.wait-unset",
                    "waits for flag (%s -> %s, EVENT_ID%lld), whose set at line %d the internal wait of '%s' at line %d "
                    "consumed: %s; fix: use another event id than EVENT_ID%lld for this pair",
                    pipe_text(src), pipe_text(dst), (long long)id, fl->site ? fl->site->loc.line : 0,
                    op_info(fl->taken_by->code)->name, fl->taken_by->loc.line,
                    dst == P_S ? "the scalar pipe stalls and the kernel hangs" : "the waiting pipe stalls forever",
                    (long long)id);
        return;
    }
    if (!fl->set) {
        wait_unset(ip, s, op, src, dst, id);
        return;
    }
    fl->set = false;
    s->flag_dsts[src][id] &= (uint8_t)~(1u << dst);
    if (dst == P_S) /* the scalar unit issues everything: every later instruction is after the flag */
        for (int q = 0; q < N_PIPES; q++) join_into(s, q, fl->clock);
    else
        join_into(s, dst, fl->clock);
}

typedef struct TileAccess {
    Interp *ip;
    SyncChecker *s;
    const Op *op;
    const Value *value;
    const char *mem;
    const uint8_t *origin;
    bool write;
} TileAccess;

static bool access_run(void *ctx, const uint8_t *p, int64_t n) {
    const TileAccess *x = ctx;
    access(x->ip, x->s, x->op, x->s->cur_pipe, p, n, x->write, x->value, x->mem, x->origin, NULL);
    return true;
}

/* An access of a tile operand: its valid region, its whole footprint (`whole`), the one storage
 * element at `element` (>= 0; none when outside the tile: the instruction reports that), or, with
 * `win`, that window of it (an exact footprint, Instr.footprint). `dec`: the decoded operand (its
 * layout, memory name and hint), or NULL to look them up here. */
static void access_tile(Interp *ip, SyncChecker *s, const Op *op, const Value *v, bool write, bool whole, int64_t element,
                        const TileWindowAccess *win, const OperandAccess *dec) {
    const Frame *f = ip->frame;
    if ((int64_t)v->id >= f->fn->n_slots) return;
    const TileView *tv = &f->vals[v->id].tile;
    if (!tv->base || !(tv->flags & VIEW_DEFINED)) return;
    AccessHint *hint = dec ? (AccessHint *)&dec->hint : NULL;
    if (hint && hint->gen == s->gen && hint->p == tv->base && hint->vr == tv->vr && hint->vc == tv->vc && element < 0 &&
        !win) { /* the valid shape that gave those bytes: the same run again */
        touch_run(s, &s->regions[hint->region].segs[hint->seg].sh, op, s->cur_pipe, write, v, dec->mem, 0, hint->n);
        return;
    }
    const TileRef *t = dec ? dec->ref : NULL;
    const char *mem = dec ? dec->mem : NULL;
    if (!t) {
        TileRefCache *c = &s->refs[((uintptr_t)v >> 4) % TILE_REF_CACHE];
        if (c->value != v) { /* a tile's layout is static: made once per value while it stays cached */
            tile_ref_fill(&v->type->tile, s->target, &c->ref);
            c->value = v;
        }
        t = &c->ref;
    }
    if (!mem) mem = buffer_name(v->type->tile.loc);
    if (element >= 0) {
        int64_t es = (int64_t)dtype_size(t->dtype);
        if (element < (int64_t)t->rows * t->cols) access(ip, s, op, s->cur_pipe, tv->base + element * es, es, write, v, mem, tv->base, NULL);
        return;
    }
    if (win) {
        TileAccess x = {ip, s, op, v, mem, tv->base, write};
        tile_window_runs(t, tv->base, win->r0, win->c0, win->rows, win->cols, access_run, &x);
        return;
    }
    int rows = whole ? t->rows : tv->vr, cols = whole ? t->cols : tv->vc;
    if (rows > 0 && cols > 0 && t->box_r == 1 && t->box_c == 1) { /* one run, as tile_byte_runs makes it */
        int64_t es = dec && dec->ref ? dec->es : (int64_t)dtype_size(t->dtype);
        if (t->cs == 1 ? cols == t->cols || rows == 1 : t->rs == 1 && (rows == t->rows || cols == 1)) {
            int64_t n = t->cs == 1 ? (int64_t)(rows - 1) * t->rs + cols : (int64_t)(cols - 1) * t->cs + rows;
            access(ip, s, op, s->cur_pipe, tv->base, n * es, write, v, mem, tv->base, hint);
            if (hint && hint->gen == s->gen && hint->p == tv->base) hint->vr = tv->vr, hint->vc = tv->vc;
            return;
        }
    }
    TileAccess x = {ip, s, op, v, mem, tv->base, write};
    tile_byte_runs(t, tv->base, rows, cols, access_run, &x);
}

/* A data-dependent access of an exact footprint (TileWindowAccess.walk): the runs its walk gives. */
static void access_walk(Interp *ip, SyncChecker *s, const Instr *in, const TileWindowAccess *a) {
    const Value *v = a->value;
    if (!v || (int64_t)v->id >= ip->frame->fn->n_slots) return;
    if (v->type && (is_view(v) || v->type->kind == TY_PTR)) { /* GM elements the op picks (mgather, mscatter,
                                                                * tprefetch, load_scalar): runs in its buffer */
        const GmView *g = &ip->frame->vals[v->id].view;
        if (g->buffer < 0 || g->buffer >= ip->n_gm || !ip->gm[g->buffer].data) return;
        const GmBuffer *b = &ip->gm[g->buffer];
        TileAccess x = {ip, s, in->op, b->arg, "GM", b->data, a->write};
        a->walk(ip, in, access_run, &x);
        return;
    }
    const TileView *tv = &ip->frame->vals[v->id].tile;
    if (!tv->base || !(tv->flags & VIEW_DEFINED)) return;
    TileAccess x = {ip, s, in->op, v, buffer_name(v->type->tile.loc), tv->base, a->write};
    a->walk(ip, in, access_run, &x);
}

/* The tile reads (write false) or writes of an instruction with an exact footprint. */
static void access_footprint(Interp *ip, SyncChecker *s, const Instr *in, bool write) {
    TileWindowAccess acc[MAX_WINDOW_ACCESSES];
    int n = in->footprint(ip, in, acc);
    for (int i = 0; i < n; i++)
        if (acc[i].write != write) continue;
        else if (acc[i].raw) access(ip, s, in->op, s->cur_pipe, acc[i].raw, acc[i].raw_bytes, write, acc[i].value, "UB", acc[i].raw, NULL);
        else if (acc[i].walk) access_walk(ip, s, in, &acc[i]);
        else access_tile(ip, s, in->op, acc[i].value, write, false, -1, &acc[i], NULL);
}


/* Does the op's implementation run its InternalSync here (target, and the operands' shapes and
 * memories the implementation decides on)? */
static bool internal_sync_runs(const Interp *ip, const SyncChecker *s, const Op *op, InternalSync is) {
    const Value *src = op->ins.count ? typed_operand(&op->ins, 0) : NULL;
    const Value *dst = op->outs.count ? typed_operand(&op->outs, 0) : NULL;
    switch (is) {
    case IS_NONE: return false;
    case IS_BARRIER_ALL_A2A3: return s->target != TARGET_A5;
    case IS_BARRIER_ALL_CONTRACT: return true;
    case IS_ROW_ARG_KEYS_A2A3: { /* more valid columns than one 256-byte repeat (pto-isa TRowReduceIdxOps.hpp) */
        if (s->target == TARGET_A5 || !src || src->type->kind != TY_TILE || (int64_t)src->id >= ip->frame->fn->n_slots) return false;
        size_t size = dtype_size(src->type->tile.dtype);
        return size && ip->frame->vals[src->id].tile.vc > (int64_t)(256 / size);
    }
    case IS_SCALAR_PATH_KEYS_A2A3: /* the op runs its scalar path: its pipe rule put it on S (decoded) */
        return s->target != TARGET_A5 && s->cur_pipe == P_S;
    case IS_SCALAR_COPY_KEYS_A5: { /* vec -> vec with a static one-element window (pto-isa a5 TExtract/TInsert.hpp) */
        if (s->target != TARGET_A5 || !src || !dst || src->type->kind != TY_TILE || dst->type->kind != TY_TILE) return false;
        const TileType *a = &src->type->tile, *b = &dst->type->tile;
        return a->loc == LOC_VEC && b->loc == LOC_VEC && a->blayout == b->blayout &&
               ((a->valid_rows == 1 && a->valid_cols == 1) || (b->valid_rows == 1 && b->valid_cols == 1));
    }
    }
    return false;
}

/* An op that runs a scalar path between its own V -> S and S -> V handshakes is, from outside, the
 * V op it is documented as (PTOAS and pto-isa's event table: TTRANS on PIPE_V): in the program's own
 * clocks (layer 1) too, its S work is after what V has seen and later V work after it. Only the
 * S wait's ordering of every other pipe stays an accident of the implementation (layer 0 only). */
static void scalar_path_contract(SyncChecker *s) {
    Clocks *own = &s->clk[1];
    join(own->vc[P_S], own->vc[P_V]);
    join(own->vc[P_V], own->vc[P_S]);
}

/* Does the op run A2/A3 ttrans's vnchwconv path (its pipe rule kept it on V), whose
 * pipe_barrier(PIPE_V) sits between the transposes (src read, tmp written) and the final copy into
 * dst (a2a3/TTrans.hpp TTransOperation)? */
static bool transpose_barrier_runs(const SyncChecker *s, InternalSync is) {
    return is == IS_SCALAR_PATH_KEYS_A2A3 && s->target != TARGET_A5 && s->cur_pipe == P_V;
}

/* That barrier, between the op's tmp writes and its dst writes: every V access so far (the op's
 * own included) before what V does next, in layer 0 only (an implementation detail: what only it
 * orders is SYNC.internal-order); the copy into dst is the next V instruction. */
static void transpose_barrier(SyncChecker *s, const Op *op) {
    split_layers(s);
    s->internal_site = op;
    s->clk[0].barrier[P_V] = s->clk[0].vc[P_V][P_V];
    for (int k = 0; k < s->layers; k++) s->clk[k].vc[P_V][P_V]++;
}

/* The pto-isa implementation that does an InternalSync's handshakes, for messages. */
static const char *internal_sync_source(InternalSync is) {
    switch (is) {
    case IS_ROW_ARG_KEYS_A2A3: return "a2a3/TRowReduceIdxOps.hpp";
    case IS_SCALAR_PATH_KEYS_A2A3: return "a2a3/TTrans.hpp, TransTailTiles";
    default: return "a5/TExtract.hpp, TInsert.hpp";
    }
}

/* An op's internal synchronisation (layer 0; a scalar path's contract also in layer 1,
 * scalar_path_contract): tprint's PIPE_ALL barrier, or the V -> S and S -> V handshakes on
 * EVENT_ID0, which consume a user flag with the same key pending across the op (SYNC.internal-key). */
static void internal_sync(Interp *ip, SyncChecker *s, const Op *op, InternalSync is) {
    split_layers(s);
    s->internal_site = op;
    if (is == IS_BARRIER_ALL_A2A3) {
        barrier_all(&s->clk[0]);
        return;
    }
    static const int8_t keys[2][2] = {{P_V, P_S}, {P_S, P_V}};
    for (int i = 0; i < 2; i++) {
        FlagState *fl = &s->flag[keys[i][0]][keys[i][1]][0];
        if (!fl->set) continue;
        fl->set = false, fl->taken_by = op; /* the op's wait takes the one-bit flag: the user's wait hangs */
        s->n_errors++;
        diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.internal-key",
                    "flag (%s -> %s, EVENT_ID0) set at line %d is pending across '%s', whose %s implementation sets and "
                    "waits that flag itself here (pto-isa %s): its set repeats yours and its wait clears the flag, so "
                    "the wait_flag meant for yours finds nothing to wait for and hangs; fix: use another event id than "
                    "EVENT_ID0 for this pair",
                    pipe_text(keys[i][0]), pipe_text(keys[i][1]), fl->site ? fl->site->loc.line : 0,
                    op_info(op->code)->name, s->target == TARGET_A5 ? "A5" : "A2/A3",
                    internal_sync_source(is));
    }
    /* V -> S: the scalar unit (and so everything it issues later) after V's work so far; S -> V. */
    Clocks *c = &s->clk[0];
    uint32_t v[N_PIPES];
    memcpy(v, c->vc[P_V], sizeof v);
    for (int q = 0; q < N_PIPES; q++) {
        join(c->vc[q], v);
        if (v[q] > c->done[q]) c->done[q] = v[q];
    }
    join(c->vc[P_V], c->vc[P_S]);
    if (is == IS_SCALAR_PATH_KEYS_A2A3) scalar_path_contract(s);
}

/* The element offset of an OPF_ONE_ELEMENT instruction (its sc[1]; -1 when negative). */
static int64_t element_of(const Interp *ip, const Instr *in) {
    int64_t e = read_int(ip->frame, &in->sc[1]);
    return e >= 0 ? e : -1;
}

/* The writes of a decoded tile instruction (tmp operands, then destinations). */
static inline void write_accesses(Interp *ip, SyncChecker *s, const Instr *in, const Decoded *d) {
    const Op *op = in->op;
    bool barrier = transpose_barrier_runs(s, d->internal); /* before the first destination */
    for (int i = 0; i < d->n_writes; i++) {
        const OperandAccess *a = &d->writes[i];
        if (barrier && !a->whole) barrier = false, transpose_barrier(s, op);
        if (a->view) access_view(ip, s, op, s->cur_pipe, &ip->frame->vals[a->value->id].view, true, (AccessHint *)&a->hint);
        else access_tile(ip, s, op, a->value, true, a->whole, a->element ? element_of(ip, in) : -1, NULL, a);
    }
}

static bool tile_op_begin(Interp *ip, SyncChecker *s, const Instr *in, const Decoded *d);

/* The value of operand i of `op` in the running frame as an integer (a session's or an event's
 * handle, interp/ops_async.c), or -1. */
static int64_t handle_of(const Interp *ip, const Op *op, int i) {
    const Value *v = i < op->ins.count ? typed_operand(&op->ins, i) : NULL;
    if (!v || (int64_t)v->id >= ip->frame->fn->n_slots) return -1;
    return ip->frame->vals[v->id].i;
}

/* A positive integer attribute of `op`, or `dflt`. */
static int64_t positive_attr(const Op *op, const char *key, int64_t dflt) {
    const Attr *a = attr_find(&op->attrs, key);
    int64_t v;
    return a && attr_value(a, AK_INT, &v) && v > 0 ? v : dflt;
}

/* The bytes a transfer moves: its src view's elements (interp/ops_async.c), 0 when unknown. */
static int64_t transfer_bytes(const Interp *ip, const Op *op) {
    const Value *v = op->ins.count > 1 ? typed_operand(&op->ins, 1) : NULL;
    if (!v || !is_view(v) || (int64_t)v->id >= ip->frame->fn->n_slots) return 0;
    const GmView *g = &ip->frame->vals[v->id].view;
    if (g->buffer < 0 || g->buffer >= ip->n_gm) return 0;
    int64_t n = (int64_t)ip->gm[g->buffer].elem_size;
    for (int i = 0; i < g->rank; i++)
        if (g->shape[i] < 0 || !checked_mul_i64(n, g->shape[i], &n)) return 0;
    return n;
}

/* Do the earlier transfer at P_DMA time t (this context) and the running one share one SDMA queue,
 * which runs its SQEs in order? pto-isa's SdmaPostAsync (comm/async/sdma/sdma_async_detail_post.hpp)
 * posts a transfer's block_bytes chunks round-robin on its session's queue_num queues, chunk k on
 * queue k % queue_num, and then a flag SQE per queue whose landing is the transfer's completion: so
 * two transfers of one session share a queue, one after the other, when the session has one queue
 * or both are one chunk (queue 0). Other sessions use other channel groups' queues (pto-isa's
 * TPUT_ASYNC.md: isolated channel groups), which run at the same time. */
static bool same_sdma_queue(const SyncChecker *s, uint32_t t) {
    const AsyncXfer *now = s->cur_xfer, *then = NULL;
    if (!now) return false;
    for (int64_t i = s->n_xfers - 1; i >= 0 && !then; i--)
        if (s->xfers[i].block == s->block && s->xfers[i].time == t) then = &s->xfers[i];
    if (!then || then->session != now->session || now->session < 0) return false;
    for (int64_t i = s->n_sessions - 1; i >= 0; i--)
        if (s->sessions[i].handle == now->session) {
            const AsyncSessionRec *x = &s->sessions[i];
            return x->queue_num == 1 || (now->bytes <= x->block_bytes && then->bytes <= x->block_bytes);
        }
    return false;
}

/* `items`, an array of n `size`-byte items with room for *cap, with room for one more (grown, *cap
 * updated); NULL when out of memory (`items` unchanged). */
static void *grow_array(void *items, int64_t n, int64_t *cap, size_t size) {
    if (n < *cap) return items;
    int64_t c = *cap ? 2 * *cap : 16;
    void *g = realloc(items, (size_t)c * size);
    if (g) *cap = c;
    return g;
}

/* The asynchronous GM transfer ops, after their PIPE_ALL barrier (pto-isa comm/async/sdma; docs/sync.md):
 * build_async_session records its session's queues; a transfer starts the DMA engine after
 * everything the core issued before it (the barrier precedes the doorbell) and is recorded under
 * its event's handle; wait_async_event / test_async_event (true in pto-run) order that transfer and
 * every earlier one before everything after them (the post-done flags they poll land after the
 * transfer's chunks; pto-isa's quiet semantics), through their own barrier. */
static void async_op(Interp *ip, SyncChecker *s, const Op *op) {
    s->cur_xfer = NULL;
    const AsyncRole role = OPF_ASYNC_ROLE(op_info(op->code)->flags);
    bool mte_put = role == AR_PUT && s->target == TARGET_A5;
    const AsyncXfer *waited = NULL;
    if (role == AR_WAIT) {
        int64_t event = handle_of(ip, op, 0);
        for (int64_t i = s->n_xfers - 1; i >= 0 && !waited; i--)
            if (s->xfers[i].handle == event && s->xfers[i].block == s->block) waited = &s->xfers[i];
        if (waited && waited->mte) return; /* handle 0: AsyncEvent::Wait / Test return true at once */
    }
    if (!mte_put) /* the op's own PIPE_ALL barrier, in the program's clocks too */
        for (int k = 0; k < s->layers; k++) barrier_all(&s->clk[k]);
    if (role == AR_SESSION) {
        AsyncSessionRec *sessions = grow_array(s->sessions, s->n_sessions, &s->cap_sessions, sizeof *s->sessions);
        if (!sessions) return;
        s->sessions = sessions;
        const Attr *id = attr_find(&op->attrs, "sync_id");
        int64_t sync_id = 0;
        if (id && (!attr_value(id, AK_INT, &sync_id) || sync_id < 0 || sync_id >= SYNC_EVENT_IDS)) sync_id = 0;
        s->sessions[s->n_sessions++] = (AsyncSessionRec){(int64_t)ip->steps, positive_attr(op, "queue_num", 1),
                                                         positive_attr(op, "block_bytes", 32 * 1024), sync_id};
        return;
    }
    if (role == AR_PUT || role == AR_GET) {
        if (!mte_put)
            for (int k = 0; k < s->layers; k++) join(s->clk[k].vc[P_DMA], s->clk[k].vc[P_S]); /* after the barrier */
        AsyncXfer *xfers = grow_array(s->xfers, s->n_xfers, &s->cap_xfers, sizeof *s->xfers);
        if (!xfers) return;
        s->xfers = xfers;
        s->xfers[s->n_xfers] = (AsyncXfer){(int64_t)ip->steps, handle_of(ip, op, 2), s->block,
                                           s->clk[0].vc[P_DMA][P_DMA] + 1, transfer_bytes(ip, op), mte_put};
        s->cur_xfer = &s->xfers[s->n_xfers++];
        return;
    }
    /* an event of no recorded transfer: every transfer so far */
    uint32_t t = waited ? waited->time : s->clk[0].vc[P_DMA][P_DMA];
    for (int k = 0; k < s->layers; k++) {
        Clocks *c = &s->clk[k];
        for (int q = 0; q < N_PIPES; q++)
            if (c->vc[q][P_DMA] < t) c->vc[q][P_DMA] = t;
        if (c->done[P_DMA] < t) c->done[P_DMA] = t;
    }
}

/* A5's put (pto-isa a5/async/TPutAsync.hpp TPUT_ASYNC_MTE_FALLBACK: the SDMA engine does not do
 * puts there) copies each chunk GM -> UB scratch on MTE2, then set/wait (MTE2 -> MTE3, the session's
 * sync_id), UB -> GM on MTE3, then set/wait (MTE3 -> MTE2): its src reads are the op's MTE2
 * instruction, its dst writes an MTE3 one. The handshake from `from` to `to`, an implementation
 * detail (layer 0 only: what only it orders is SYNC.internal-order); a user flag of the same pipes
 * and id pending across it is SYNC.internal-key, as for the V <-> S handshakes (internal_sync). */
static void mte_put_handshake(Interp *ip, SyncChecker *s, const Op *op, int from, int to) {
    split_layers(s);
    s->internal_site = op;
    int64_t id = 0;
    const AsyncXfer *x = s->cur_xfer;
    for (int64_t i = s->n_sessions - 1; x && i >= 0; i--)
        if (s->sessions[i].handle == x->session) {
            id = s->sessions[i].sync_id;
            break;
        }
    FlagState *fl = &s->flag[from][to][id];
    if (fl->set) {
        fl->set = false, fl->taken_by = op; /* the put's wait takes the one-bit flag: the user's wait hangs */
        s->flag_dsts[from][id] &= (uint8_t)~(1u << to);
        s->n_errors++;
        diag_report(ip->diags, ip->file, SEV_ERROR, op->loc, "SYNC.internal-key",
                    "flag (%s -> %s, EVENT_ID%lld) set at line %d is pending across '%s', whose A5 implementation sets "
                    "and waits that flag itself here, with its session's sync_id (pto-isa a5/async/TPutAsync.hpp, "
                    "TPUT_ASYNC_MTE_FALLBACK): its set repeats yours and its wait clears the flag, so the wait_flag "
                    "meant for yours finds nothing to wait for and hangs; fix: use another event id than EVENT_ID%lld "
                    "for this pair, or another sync_id for the session",
                    pipe_text(from), pipe_text(to), (long long)id, fl->site ? fl->site->loc.line : 0,
                    op_info(op->code)->name, (long long)id);
    }
    Clocks *c = &s->clk[0];
    uint32_t snap[N_PIPES];
    memcpy(snap, c->vc[from], sizeof snap);
    join(c->vc[to], snap);
    if (snap[to] > c->done[to]) c->done[to] = snap[to];
}

/* Is `op` an A5 put (mte_put_handshake)? */
static inline bool is_mte_put(const SyncChecker *s, const Op *op) {
    return OPF_ASYNC_ROLE(op_info(op->code)->flags) == AR_PUT && s->target == TARGET_A5;
}

bool sync_checker_step(Interp *ip, SyncChecker *s, const Instr *in, int32_t pc) {
    s->cur_op = NULL;
    const Decoded *d = decoded(ip, s, in, pc);
    if (!d || d->role == D_OTHER) return false;
    if (d->role == D_SYNC) {
        s->n_sync_ops++;
        sync_op(ip, s, in, d);
        return false;
    }
    s->cur_op = in->op;
    s->cur_decoded = d;
    s->cur_pipe = d->pipe;
    if (OPF_PIPE_FIFO(d->flags)) return true; /* it may wait on its FIFO and run again: all in _after */
    return tile_op_begin(ip, s, in, d);
}

/* A tile instruction's start: its timestamp, its internal synchronisation and its reads (and the
 * writes known before it runs); true when the writes come after it ran. */
static bool tile_op_begin(Interp *ip, SyncChecker *s, const Instr *in, const Decoded *d) {
    const Op *op = in->op;
    s->step++;
    InternalSync is = d->internal;
    if (is == IS_BARRIER_ALL_A2A3 && internal_sync_runs(ip, s, op, is)) internal_sync(ip, s, op, is); /* at its start */
    if (is == IS_BARRIER_ALL_CONTRACT) async_op(ip, s, op); /* the async ops: their barrier, sessions and events */
    for (int k = 0; k < s->layers; k++) s->clk[k].vc[s->cur_pipe][s->cur_pipe]++;
    if (is != IS_NONE && is != IS_BARRIER_ALL_A2A3 && is != IS_BARRIER_ALL_CONTRACT && internal_sync_runs(ip, s, op, is))
        internal_sync(ip, s, op, is);
    if (in->footprint) {
        access_footprint(ip, s, in, false);
        return true;
    }
    for (int i = 0; i < d->n_reads; i++) {
        const OperandAccess *a = &d->reads[i];
        if (a->view) access_view(ip, s, op, s->cur_pipe, &ip->frame->vals[a->value->id].view, false, (AccessHint *)&a->hint);
        else access_tile(ip, s, op, a->value, false, false, a->element ? element_of(ip, in) : -1, NULL, a);
    }
    if (d->early_writes) {
        write_accesses(ip, s, in, d);
        s->cur_op = NULL;
        return false;
    }
    return true;
}

void sync_checker_after(Interp *ip, SyncChecker *s, const Instr *in) {
    const Op *op = s->cur_op;
    if (!op || op != in->op) return;
    if (OPF_PIPE_FIFO(s->cur_decoded->flags) && !tile_op_begin(ip, s, in, s->cur_decoded)) {
        s->cur_op = NULL;
        return;
    }
    s->cur_op = NULL;
    if (is_mte_put(s, op)) { /* the dst writes on MTE3, between the copy's two handshakes */
        mte_put_handshake(ip, s, op, P_MTE2, P_MTE3);
        s->cur_pipe = P_MTE3;
        for (int k = 0; k < s->layers; k++) s->clk[k].vc[P_MTE3][P_MTE3]++;
        access_footprint(ip, s, in, true);
        mte_put_handshake(ip, s, op, P_MTE3, P_MTE2);
        return;
    }
    if (in->footprint) {
        access_footprint(ip, s, in, true);
        return;
    }
    write_accesses(ip, s, in, s->cur_decoded); /* decoded by sync_checker_step */
}

static const char *const kind_text[3] = {"read-after-write", "write-after-read", "write-after-write"};

/* What a report's access touched: "tile %t", "buffer %arg" (GM), or an implementation's hidden
 * scratch (a footprint's raw range: a value without a type). */
static const char *accessed_text(Interp *ip, const Report *r) {
    if (r->value && !r->value->type) return r->value->name;
    return arena_printf(ip->arena, "%s %%%s", strcmp(r->mem, "GM") ? "tile" : "buffer", r->value ? r->value->name : "?");
}

/* The lowest event id that no set_flag/wait_flag of the program uses between pipes p1 and p2 (a
 * static scan of every lowered instruction, taken or not), or -1 when all are taken. */
static int free_event_id(const Interp *ip, int p1, int p2) {
    bool used[SYNC_EVENT_IDS] = {false};
    for (int32_t i = 0; i < ip->n_code; i++) {
        const Op *op = ip->code[i].op;
        int ssrc, sdst, event;
        if (!op || (unsigned)op->code >= OP_COUNT || !(op_info(op->code)->flags & (OPF_SYNC_SET | OPF_SYNC_WAIT)) ||
            !sync_flag_args(op, &ssrc, &sdst, &event))
            continue;
        if (pipe_of_sync[ssrc] == p1 && pipe_of_sync[sdst] == p2 && event >= 0 && event < SYNC_EVENT_IDS) used[event] = true;
    }
    for (int e = 0; e < SYNC_EVENT_IDS; e++)
        if (!used[e]) return e;
    return -1;
}

/* The fix-it of a race between two pipes: the set/wait pair, on an event id the program leaves free
 * between them. */
static const char *sync_pair_fix(Interp *ip, const Report *r, bool carried) {
    int id = free_event_id(ip, r->p1, r->p2);
    if (id < 0)
        return arena_printf(ip->arena,
                            "every event id between %s and %s is in use: insert `pto.barrier <PIPE_ALL>` before line %d, or "
                            "reuse an id after its wait",
                            pipe_text(r->p1), pipe_text(r->p2), r->second->loc.line);
    const char *pair = arena_printf(ip->arena,
                                    "insert `pto.set_flag[<%s>, <%s>, <EVENT_ID%d>]` after line %d and `pto.wait_flag[<%s>, "
                                    "<%s>, <EVENT_ID%d>]` before line %d (EVENT_ID%d is free between these pipes)",
                                    pipe_text(r->p1), pipe_text(r->p2), id, r->first->loc.line, pipe_text(r->p1),
                                    pipe_text(r->p2), id, r->second->loc.line, id);
    if (!carried) return pair;
    return arena_printf(ip->arena,
                        "%s, in the prime/steady/drain shape of a loop-carried edge: one more set_flag before the loop "
                        "(prime: the first iteration's wait has its set) and one more wait_flag after it (drain: the "
                        "last iteration's set is consumed)",
                        pair);
}

/* An asynchronous GM transfer (tput_async, tget_async): its copy runs on the DMA engine, so only
 * the wait on its event orders it before later accesses; the fix names that wait (before the second
 * access, or, when that is in a later loop iteration, right after the transfer). NULL otherwise. */
static const char *async_wait_fix(Interp *ip, const Report *r, bool carried) {
    const Op *t = r->first;
    if (r->p1 != P_DMA || OPF_INTERNAL_SYNC(op_info(t->code)->flags) != IS_BARRIER_ALL_CONTRACT || t->n_results != 1 ||
        !t->results[0] || !t->results[0]->type || t->results[0]->type->kind != TY_ASYNC_EVENT || t->ins.count < 3 || !t->ins.items[2].value)
        return NULL;
    return arena_printf(ip->arena,
                        "insert `%%done = pto.wait_async_event(%%%s, %%%s : !pto.async_event, !pto.async_session) -> i1` "
                        "%s line %d (the transfer runs on the DMA engine: a flag pair or a barrier does not order it, its "
                        "wait does)",
                        t->results[0]->name, t->ins.items[2].value->name, carried ? "after" : "before",
                        carried ? r->first->loc.line : r->second->loc.line);
}

/* A wait between the two sites that orders other pipes (the wrong-pipe class, PTOAS #664, #930):
 * a note naming it, the first one found. */
static void note_wrong_pair(Interp *ip, const Report *r) {
    for (int32_t i = 0; i < ip->n_code; i++) {
        const Op *op = ip->code[i].op;
        int ssrc, sdst, event;
        if (!op || (unsigned)op->code >= OP_COUNT || !(op_info(op->code)->flags & OPF_SYNC_WAIT) ||
            op->loc.line <= r->first->loc.line || op->loc.line >= r->second->loc.line || !sync_flag_args(op, &ssrc, &sdst, &event))
            continue;
        int src = pipe_of_sync[ssrc], dst = pipe_of_sync[sdst];
        if (src == r->p1 && dst == r->p2) continue;
        const Op *odd = src != r->p1 ? r->first : r->second; /* the side whose pipe the pair misses */
        diag_add_note(ip->diags, op->loc, "this wait orders %s -> %s, but the race is %s -> %s: '%s' runs on %s",
                      src >= 0 && src < N_PIPES ? pipe_text(src) : "?", dst >= 0 && dst < N_PIPES ? pipe_text(dst) : "?",
                      pipe_text(r->p1), pipe_text(r->p2), op_info(odd->code)->name, pipe_text(odd == r->first ? r->p1 : r->p2));
        return;
    }
}

/* The machine-applicable fix-it of a race inside one iteration: the barrier, or the set/wait pair
 * on a free event id, inserted right before the second access with its indentation (a set just
 * before the wait still fires after all the first pipe's earlier work). */
static void add_sync_fixit(Interp *ip, const Report *r) {
    SrcLoc at = r->second->loc;
    const SourceFile *f = ip->file;
    if (!f || !f->text || at.col < 1 || at.offset < at.col - 1 || at.offset > f->len) return;
    const char *indent = arena_printf(ip->arena, "%.*s", (int)(at.col - 1), f->text + at.offset - (at.col - 1));
    for (const char *c = indent; *c; c++)
        if (*c != ' ' && *c != '\t') return; /* the op does not start its line */
    at.len = 0;
    if (r->p1 == r->p2) {
        diag_add_fixit(ip->diags, at, arena_printf(ip->arena, "pto.barrier <%s>\n%s", pipe_text(r->p1), indent));
        return;
    }
    int id = free_event_id(ip, r->p1, r->p2);
    if (id < 0) return;
    diag_add_fixit(ip->diags, at,
                   arena_printf(ip->arena, "pto.set_flag[<%s>, <%s>, <EVENT_ID%d>]\n%spto.wait_flag[<%s>, <%s>, <EVENT_ID%d>]\n%s",
                                pipe_text(r->p1), pipe_text(r->p2), id, indent, pipe_text(r->p1), pipe_text(r->p2), id,
                                indent));
}

/* The pto.section.cube / pto.section.vector around an op, or NULL. */
static const Op *section_of(const Op *op) {
    for (const Op *o = op; o && o->parent && o->parent->parent; ) {
        o = o->parent->parent->parent;
        if (o && (o->code == OP_SECTION_CUBE || o->code == OP_SECTION_VECTOR)) return o;
    }
    return NULL;
}

/* The fix-it of a race between the cube and the vector section: a cross-core semaphore on the
 * lowest id no sync.set/sync.wait of the program uses. */
static const char *cross_section_fix(Interp *ip, SyncChecker *s, const Report *r) {
    bool used[N_CROSS_IDS] = {false};
    for (int32_t i = 0; i < ip->n_code; i++) {
        const Op *op = ip->code[i].op;
        int pipe;
        int64_t id;
        if (op && (unsigned)op->code < OP_COUNT && (op_info(op->code)->flags & OPF_SYNC_CROSS) &&
            sync_cross_args(op, &pipe, &id) && id >= 0 && id < N_CROSS_IDS)
            used[id] = true;
    }
    int id = 0;
    while (id < sync_cross_ids(s->target) - 1 && used[id]) id++;
    return arena_printf(ip->arena,
                        "order the sections with a cross-core semaphore: `pto.sync.set <%s>, %d` after line %d and "
                        "`pto.sync.wait <%s>, %d` before line %d (a set_flag/wait_flag pair does not cross cores)",
                        pipe_text(r->p1), id, r->first->loc.line, pipe_text(r->p2), id, r->second->loc.line);
}

/* Is a race report's first or second access an asynchronous GM transfer op's? */
static bool async_race(const Report *r) {
    return OPF_INTERNAL_SYNC(op_info(r->first->code)->flags) == IS_BARRIER_ALL_CONTRACT ||
           OPF_INTERNAL_SYNC(op_info(r->second->code)->flags) == IS_BARRIER_ALL_CONTRACT;
}

/* Prints the race reports (one per pair of sites) and the flags left set; false when any race was
 * an error. A kernel that executed no sync op at all relies on PTOAS's automatic synchronisation:
 * unless strict, its races become one note listing the orderings it needs. */
bool sync_checker_finish(Interp *ip, SyncChecker *s) {
    Report *rev = NULL; /* oldest first */
    for (Report *r = s->reports, *n; r; r = n) n = r->next, r->next = rev, rev = r;
    s->reports = rev;
    /* PTOAS's automatic synchronisation (InsertSync) does not know the asynchronous transfer ops: a
     * race with one of them stays an error in a kernel without sync ops */
    int64_t n_auto = 0, n_async = 0;
    for (Report *r = s->reports; r; r = r->next)
        if (r->kind < 3) {
            if (async_race(r)) n_async++;
            else n_auto++;
        }
    bool auto_sync = s->n_reports && !s->n_sync_ops && !s->strict;
    if (auto_sync && n_auto) {
        const char *list = "";
        int64_t pairs = 0; /* one per pipe pair and pair of lines (a RAW and a WAW of one pair are one ordering) */
        for (Report *r = s->reports; r; r = r->next) {
            if (r->kind >= 3 || async_race(r)) continue;
            bool seen = false;
            for (Report *q = s->reports; q != r && !seen; q = q->next)
                seen = q->kind < 3 && q->p1 == r->p1 && q->p2 == r->p2 && q->first->loc.line == r->first->loc.line &&
                       q->second->loc.line == r->second->loc.line;
            if (seen) continue;
            if (pairs++ < 12)
                list = arena_printf(ip->arena, "%s%s%s -> %s (line %d -> %d)", list, pairs > 1 ? ", " : "",
                                    pipe_text(r->p1), pipe_text(r->p2), r->first->loc.line, r->second->loc.line);
        }
        diag_report(ip->diags, ip->file, SEV_NOTE, ip->entry->loc, "SYNC.auto",
                    "@%s executes no set_flag, wait_flag or barrier, so it relies on PTOAS's automatic synchronisation; "
                    "a correct kernel orders %s: %s%s (--check-sync=strict reports each)", ip->entry->name,
                    pairs == 1 ? "this pair of accesses" : arena_printf(ip->arena, "these %lld pairs of accesses", (long long)pairs),
                    list, pairs > 12 ? ", ..." : "");
    }
    for (Report *r = s->reports; r; r = r->next) {
        if (auto_sync && (r->kind >= 3 || !async_race(r))) continue; /* in the note */
        if (r->kind >= 3) { /* ordered, but only by an op's internal synchronisation */
            const Op *by = r->internal;
            InternalSync is = by ? OPF_INTERNAL_SYNC(op_info(by->code)->flags) : IS_NONE;
            bool barrier = is == IS_BARRIER_ALL_A2A3, vbarrier = is == IS_SCALAR_PATH_KEYS_A2A3 && transpose_pipe(s, by) == P_V;
            bool mte_put = by && is_mte_put(s, by);
            diag_report(ip->diags, ip->file, SEV_WARNING, r->second->loc, "SYNC.internal-order",
                        "%s on %s (%s), bytes %lld..%lld: '%s' on %s (line %d) and '%s' on %s are ordered only by "
                        "the %s inside '%s' at line %d, an implementation detail that goes when that op goes (a debug "
                        "tprint) or changes shape; fix: %s",
                        kind_text[r->kind - 3], accessed_text(ip, r), r->mem, (long long)r->lo, (long long)r->hi - 1, op_info(r->first->code)->name, pipe_text(r->p1),
                        r->first->loc.line, op_info(r->second->code)->name, pipe_text(r->p2),
                        barrier    ? "pipe_barrier(PIPE_ALL)"
                        : vbarrier ? "pipe_barrier(PIPE_V) between its transposes and its copy into dst"
                        : mte_put  ? "MTE2 -> MTE3 and MTE3 -> MTE2 handshakes of its copy through UB (A5: pto-isa "
                                     "TPUT_ASYNC_MTE_FALLBACK)"
                                   : "V <-> S EVENT_ID0 handshake",
                        by ? op_info(by->code)->name : "?",
                        by ? by->loc.line : 0,
                        r->p1 == r->p2 ? arena_printf(ip->arena, "insert `pto.barrier <%s>` before line %d", pipe_text(r->p1),
                                                      r->second->loc.line)
                                       : sync_pair_fix(ip, r, false));
            continue;
        }
        bool cross = block_index(r->b1) != block_index(r->b2); /* two blocks: no flag or barrier orders them */
        /* loop-carried: the earlier access comes at or after the later one in the text (a previous
         * iteration of a loop around both) */
        bool carried = !cross && (r->first->loc.line > r->second->loc.line ||
                                  (r->first->loc.line == r->second->loc.line && r->first->loc.col >= r->second->loc.col));
        const Op *sec1 = section_of(r->first), *sec2 = section_of(r->second);
        bool sections = !cross && !carried && sec1 && sec2 && sec1->code != sec2->code; /* cube and vector */
        const char *async_fix = !cross ? async_wait_fix(ip, r, carried) : NULL;
        const char *fix = async_fix ? async_fix
                          : sections ? cross_section_fix(ip, s, r)
                          : cross ? arena_printf(ip->arena,
                                               "order the blocks with cross-core synchronisation (pto.sync.set after "
                                               "line %d in the writing block, pto.sync.wait before line %d in the other), "
                                               "or give each block its own GM range",
                                               r->first->loc.line, r->second->loc.line)
                          : r->p1 == r->p2
                              ? arena_printf(ip->arena, "insert `pto.barrier <%s>` before line %d%s", pipe_text(r->p1),
                                             r->second->loc.line, carried ? "" : arena_printf(ip->arena, " (after line %d)", r->first->loc.line))
                              : sync_pair_fix(ip, r, carried);
        const char *where1 = cross ? arena_printf(ip->arena, ", block %d", (int)block_index(r->b1))
                             : carried ? ", an earlier loop iteration" : "";
        const char *where2 = cross ? arena_printf(ip->arena, " (block %d)", (int)block_index(r->b2)) : "";
        diag_report(ip->diags, ip->file, SEV_ERROR, r->second->loc, r->kind == 0 ? "SYNC.raw" : r->kind == 1 ? "SYNC.war" : "SYNC.waw",
                    "%s race on %s (%s), bytes %lld..%lld: '%s' on %s (line %d%s) and '%s' on %s%s are not ordered%s; fix: %s",
                    kind_text[r->kind], accessed_text(ip, r), r->mem,
                    (long long)r->lo, (long long)r->hi - 1, op_info(r->first->code)->name,
                    pipe_text(r->p1), r->first->loc.line, where1,
                    op_info(r->second->code)->name, pipe_text(r->p2), where2,
                    r->count > 1 ? arena_printf(ip->arena, " (%lld executions)", (long long)r->count) : "", fix);
        diag_add_note(ip->diags, r->first->loc, "the %s: '%s' on %s%s", r->kind == 1 ? "earlier read" : "earlier write",
                      op_info(r->first->code)->name, pipe_text(r->p1), where1);
        if (sections && s->target == TARGET_A5)
            for (int32_t i = 0; i < ip->n_code; i++) { /* an A5 sync.wait between them on another pipe */
                const Op *op = ip->code[i].op;
                int pipe;
                int64_t id;
                if (!op || (unsigned)op->code >= OP_COUNT ||
                    (op_info(op->code)->flags & (OPF_SYNC_CROSS | OPF_SYNC_WAIT)) != (OPF_SYNC_CROSS | OPF_SYNC_WAIT) ||
                    op->loc.line <= r->first->loc.line || op->loc.line >= r->second->loc.line ||
                    !sync_cross_args(op, &pipe, &id) || pipe_of_sync[pipe] == r->p2)
                    continue;
                diag_add_note(ip->diags, op->loc, "on A5 this wait orders only %s, but '%s' runs on %s: wait on <%s>",
                              sync_pipe_name(pipe), op_info(r->second->code)->name, pipe_text(r->p2), pipe_text(r->p2));
                break;
            }
        if (!cross && !carried && !sections && !async_fix) {
            if (r->p1 != r->p2) note_wrong_pair(ip, r); /* a same-pipe race wants a barrier, not a pair */
            add_sync_fixit(ip, r);
        }
    }
    keep_leftovers(s);
    Leftover *lrev = NULL; /* oldest first */
    for (Leftover *l = s->leftovers, *n; l; l = n) n = l->next, l->next = lrev, lrev = l;
    s->leftovers = lrev;
    for (const Leftover *l = s->leftovers; l; l = l->next) {
        const char *in_block = !s->block          ? ""
                               : l->n_blocks == 1 ? arena_printf(ip->arena, " of block %d", (int)block_index(l->block))
                                                  : arena_printf(ip->arena, " of block %d and %lld more blocks",
                                                                 (int)block_index(l->block), (long long)l->n_blocks - 1);
        if (l->pipe >= 0) {
            s->n_errors++;
            diag_report(ip->diags, ip->file, SEV_ERROR, l->site->loc, "SYNC.buf-held",
                        "buffer id %lld acquired on %s here is still held at the end%s: the next acquirer waits "
                        "forever; fix: `pto.rls_buf[%s, %lld]` after the last op it guards",
                        (long long)l->id, pipe_text(l->pipe), in_block, op_type_text(l->site), (long long)l->id);
        } else {
            diag_report(ip->diags, ip->file, SEV_WARNING, l->site->loc, "SYNC.cross-left",
                        "cross-core semaphore %lld raised here is still raised at the end%s (%d pending): no pto.sync.wait "
                        "consumed it, and on the board it stays for the next kernel",
                        (long long)l->id, in_block, l->count);
        }
    }
    report_left_flags(ip, s, NULL, NULL);
    return (auto_sync ? n_async : s->n_reports) == 0 && s->n_errors == 0;
}

/* SYNC.left-set for each flag of the running context still set; `seen` (or NULL) holds the sites
 * already reported, and gets these. */
static void report_left_flags(Interp *ip, SyncChecker *s, const Op **seen, int *n_seen) {
    for (int a = 0; a < N_PIPES; a++)
        for (int b = 0; b < N_PIPES; b++)
            for (int e = 0; e < 8; e++) {
                const FlagState *fl = &s->flag[a][b][e];
                if (!fl->set) continue;
                bool again = false;
                for (int i = 0; seen && i < *n_seen && !again; i++) again = seen[i] == fl->site;
                if (again) continue;
                if (seen) seen[(*n_seen)++] = fl->site;
                diag_report(ip->diags, ip->file, SEV_WARNING, fl->site->loc, "SYNC.left-set",
                            "flag (%s -> %s, EVENT_ID%d) is still set when the %s ends: no wait consumed it",
                            pipe_text(a), pipe_text(b), e, seen ? "core" : "kernel");
            }
}
