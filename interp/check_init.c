/* check_init.c - pto-run --check-init: reads of on-chip bytes that no instruction wrote (issue
 * #14 point 5; docs/execution.md "Uninitialised reads").
 *
 * pto-run zero-fills its simulated memories, and TLOAD without a pad value zero-fills the bytes
 * of its tile outside the valid region, as the simulator does; the hardware does neither, so a
 * kernel that reads such bytes works here and in the simulator and fails on the board. The
 * checker keeps one state byte per byte of every on-chip memory (UB, L1, L0A/B/C, BT, FB and the
 * frames' automatic tile storage; GM is data from files and is not tracked): never written,
 * written, or zero-filled only by the simulator's semantics of a TLOAD with no pad value (which
 * TLOAD, kept in a small site table). Before a tile instruction runs, the valid region of each
 * tile it reads is checked; after it ran, the valid region of its destination is marked written,
 * or the whole footprint for OPF_PAD_FILL rows with a pad value. Tmp operands are scratch (marked
 * written, or with the op's site when SPEC_GARBAGE: the board leaves its own data there), named
 * operands (SPEC_NAMED: tassign, treshape) are not accessed. Reports are per (site, tile), with a
 * count of executions. */
#include "interp_impl.h"

#include <stdlib.h>
#include <string.h>

enum { ST_UNSET = 0, ST_SET = 1, ST_PAD0 = 2 /* + index of the site: a null-pad TLOAD, a hidden scratch write, or an op's
                                               * SPEC_GARBAGE scratch operand */ };
enum { MAX_PAD_SITES = 256 - ST_PAD0 };

typedef struct InitRegion {
    const uint8_t *base;
    int64_t bytes;
    uint8_t *state;             /* one byte per memory byte (calloc: never written) */
} InitRegion;

typedef struct InitReport {
    const Op *site;             /* the reading instruction */
    const Value *value;         /* the tile it read */
    const Op *pad_site;         /* the TLOAD whose zero fill it read, or NULL */
    const char *sized_by;       /* INIT.outside: what sized the window read past the valid region */
    int win_rows, win_cols, vr, vc; /* INIT.outside: the window and the valid shape */
    int64_t lo, hi;             /* first occurrence: bytes from the tile's start */
    int row, col;               /* its first element */
    int64_t count;
    uint64_t last_step;
    struct InitReport *next;
} InitReport;

struct InitChecker {
    InitRegion *regions;
    int n_regions, cap_regions;
    const Op *pad_sites[MAX_PAD_SITES];
    int n_pad_sites;
    InitReport *reports;
    int64_t n_reports;
    uint64_t step;
};

InitChecker *init_checker_new(void) { return calloc(1, sizeof(InitChecker)); }

void init_checker_free(InitChecker *c) {
    if (!c) return;
    for (int i = 0; i < c->n_regions; i++) free(c->regions[i].state);
    free(c->regions);
    for (InitReport *r = c->reports, *n; r; r = n) n = r->next, free(r);
    free(c);
}

void init_checker_new_block(InitChecker *c) {
    for (int i = 0; i < c->n_regions; i++) memset(c->regions[i].state, ST_UNSET, (size_t)c->regions[i].bytes);
}

/* The state bytes of the memory holding p (NULL: GM or unknown), made on first touch. */
static uint8_t *state_of(Interp *ip, InitChecker *c, const uint8_t *p, int64_t *avail) {
    InitRegion *r = NULL;
    for (int i = 0; i < c->n_regions && !r; i++)
        if (p >= c->regions[i].base && p < c->regions[i].base + c->regions[i].bytes) r = &c->regions[i];
    if (!r) {
        const uint8_t *base;
        int64_t bytes;
        bool gm;
        if (!interp_memory_of(ip, p, &base, &bytes, &gm) || gm) return NULL;
        if (c->n_regions == c->cap_regions) {
            int cap = c->cap_regions ? 2 * c->cap_regions : 16;
            InitRegion *g = realloc(c->regions, (size_t)cap * sizeof *g);
            if (!g) return NULL;
            c->regions = g, c->cap_regions = cap;
        }
        uint8_t *state = calloc((size_t)bytes, 1);
        if (!state) return NULL;
        r = &c->regions[c->n_regions++];
        *r = (InitRegion){base, bytes, state};
    }
    *avail = r->base + r->bytes - p;
    return r->state + (p - r->base);
}

void init_checker_forget_memory(InitChecker *c, const uint8_t *base) {
    for (int i = 0; i < c->n_regions; i++)
        if (c->regions[i].base == base) {
            free(c->regions[i].state);
            c->regions[i] = (InitRegion){NULL, 0, NULL};
        }
}

void init_checker_forget(Interp *ip, InitChecker *c, const uint8_t *p, int64_t n) {
    int64_t avail;
    uint8_t *st = n > 0 ? state_of(ip, c, p, &avail) : NULL;
    if (st) memset(st, ST_UNSET, (size_t)(n < avail ? n : avail));
}

typedef struct ReadCtx {
    Interp *ip;
    InitChecker *c;
    const Instr *in;
    const Value *value;
    const uint8_t *origin;
    const TileRef *t;
} ReadCtx;

/* The report of (site, tile, kind) counted once more, or a new one (NULL when out of memory). */
static InitReport *report_at(InitChecker *c, const Op *site, const Value *value, bool outside) {
    for (InitReport *r = c->reports; r; r = r->next)
        if (r->site == site && r->value == value && (r->sized_by != NULL) == outside) {
            if (r->last_step != c->step) r->count++, r->last_step = c->step;
            return NULL;
        }
    InitReport *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    *r = (InitReport){.site = site, .value = value, .count = 1, .last_step = c->step, .next = c->reports};
    c->reports = r;
    c->n_reports++;
    return r;
}

static void report(InitChecker *c, const ReadCtx *x, const Op *pad_site, int64_t lo, int64_t hi, int row, int col) {
    InitReport *r = report_at(c, x->in->op, x->value, false);
    if (r) r->pad_site = pad_site, r->lo = lo, r->hi = hi, r->row = row, r->col = col;
}

/* Checks one run of a read; stops the tile's walk at its first unwritten byte (one report). */
/* The index of the first byte in st[0, n) that is not ST_SET, or n. The common answer (all set)
 * takes one memcmp of the run against itself one byte later (equal iff every byte is the first
 * one), which libc vectorises; otherwise eight bytes at a time, then bytes. */
static int64_t first_unset(const uint8_t *st, int64_t n) {
    if (n > 0 && st[0] == ST_SET && memcmp(st, st + 1, (size_t)(n - 1)) == 0) return n;
    const uint64_t all = UINT64_C(0x0101010101010101) * ST_SET;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, st + i, sizeof w);
        if (w != all) break;
    }
    while (i < n && st[i] == ST_SET) i++;
    return i;
}

static bool check_run(void *vctx, const uint8_t *p, int64_t n) {
    const ReadCtx *x = vctx;
    InitChecker *c = x->c;
    int64_t avail;
    const uint8_t *st = state_of(x->ip, c, p, &avail);
    if (!st) return true;
    if (n > avail) n = avail;
    int64_t i = first_unset(st, n);
    if (i == n) return true;
    int64_t es = (int64_t)dtype_size(x->t->dtype), lo = p + i - x->origin;
    int r, k;
    tile_elem_at(x->t, lo / es, &r, &k);
    report(c, x, st[i] >= ST_PAD0 ? c->pad_sites[st[i] - ST_PAD0] : NULL, lo - lo % es, lo - lo % es + es, r, k);
    return false;
}

/* The state byte naming site: a null-pad TLOAD (its zero fill), an op's hidden scratch write, or
 * its SPEC_GARBAGE scratch operand. */
static uint8_t site_state(InitChecker *c, const Op *site) {
    int k = 0;
    while (k < c->n_pad_sites && c->pad_sites[k] != site) k++;
    if (k == c->n_pad_sites && k < MAX_PAD_SITES) c->pad_sites[c->n_pad_sites++] = site;
    return (uint8_t)(ST_PAD0 + (k < MAX_PAD_SITES ? k : MAX_PAD_SITES - 1));
}

typedef struct MarkCtx {
    Interp *ip;
    InitChecker *c;
    uint8_t state;
} MarkCtx;

static bool mark_run(void *vctx, const uint8_t *p, int64_t n) {
    const MarkCtx *m = vctx;
    int64_t avail;
    uint8_t *st = state_of(m->ip, m->c, p, &avail);
    if (st) memset(st, m->state, (size_t)(n < avail ? n : avail));
    return true;
}

/* The tile operands of an instruction's op, with their views: fn(value, TileRef, view, role)
 * where role is 0 read, 1 write, 2 scratch. */
static const TileView *tile_view_of(const Interp *ip, const Value *v) {
    const Frame *f = ip->frame;
    if (!v || !v->type || v->type->kind != TY_TILE || (int64_t)v->id >= f->fn->n_slots) return NULL;
    const TileView *tv = &f->vals[v->id].tile;
    return tv->base && (tv->flags & VIEW_DEFINED) ? tv : NULL;
}

static bool accesses_tiles(const Instr *in) {
    const Op *op = in->op;
    if (!op || (unsigned)op->code >= OP_COUNT) return false;
    const OpInfo *info = op_info(op->code);
    return info->cls == CLS_TILE || info->cls == CLS_TILE_MEM;
}

/* One read of an exact footprint (Instr.footprint): INIT.outside when a window the op sizes from
 * another operand runs past the tile's valid region, else INIT.read / INIT.pad over the window. */
static void check_window(Interp *ip, InitChecker *c, const Instr *in, const TileWindowAccess *a) {
    const TileView *tv = tile_view_of(ip, a->value);
    if (!tv) return;
    if (a->walk) { /* data-dependent: the bytes the walk gives */
        TileRef t;
        tile_ref_fill(&a->value->type->tile, ip->opts.target, &t);
        ReadCtx x = {ip, c, in, a->value, tv->base, &t};
        a->walk(ip, in, check_run, &x);
        return;
    }
    if (a->sized_by && (a->r0 + a->rows > tv->vr || a->c0 + a->cols > tv->vc)) {
        InitReport *r = report_at(c, in->op, a->value, true);
        if (r) r->sized_by = a->sized_by, r->win_rows = a->rows, r->win_cols = a->cols, r->vr = tv->vr, r->vc = tv->vc,
               r->row = a->r0 + a->rows > tv->vr ? tv->vr : a->r0, r->col = a->r0 + a->rows > tv->vr ? a->c0 : tv->vc;
        return;
    }
    TileRef t;
    tile_ref_fill(&a->value->type->tile, ip->opts.target, &t);
    ReadCtx x = {ip, c, in, a->value, tv->base, &t};
    tile_window_runs(&t, tv->base, a->r0, a->c0, a->rows, a->cols, check_run, &x);
}

/* True for an instruction that may wait and run again (a FIFO push or pop): checked after it ran. */
static bool may_run_again(const Instr *in) { return OPF_PIPE_FIFO(op_info(in->op->code)->flags); }

static void check_reads(Interp *ip, InitChecker *c, const Instr *in);

void init_checker_before(Interp *ip, InitChecker *c, const Instr *in) {
    if (!accesses_tiles(in) || may_run_again(in)) return;
    check_reads(ip, c, in);
}

/* Checks the reads of a tile instruction. */
static void check_reads(Interp *ip, InitChecker *c, const Instr *in) {
    c->step++;
    if (in->footprint) {
        TileWindowAccess acc[MAX_WINDOW_ACCESSES];
        int n = in->footprint(ip, in, acc);
        for (int i = 0; i < n; i++)
            if (!acc[i].write) check_window(ip, c, in, &acc[i]);
        return;
    }
    const Op *op = in->op;
    const OpInfo *info = op_info(op->code);
    for (int pass = 0; pass < 2; pass++) { /* ins, then outs that the op also reads */
        if (pass == 1 && !(info->flags & OPF_DST_READ)) break;
        const OperandList *l = pass == 0 ? &op->ins : &op->outs;
        for (int i = 0; i < l->count; i++) {
            if (pass == 0 && i < OPSPEC_MAX && (info->ins[i].flags & (SPEC_TMP | SPEC_NAMED))) continue;
            const Value *v = l->items[i].kind == OPD_VALUE ? l->items[i].value : NULL;
            const TileView *tv = tile_view_of(ip, v);
            if (!tv) continue;
            TileRef t;
            tile_ref_fill(&v->type->tile, ip->opts.target, &t);
            ReadCtx x = {ip, c, in, v, tv->base, &t};
            if (info->flags & OPF_ONE_ELEMENT) { /* tgetval: the one element at its offset */
                int64_t e = read_int(ip->frame, &in->sc[1]), es = (int64_t)dtype_size(t.dtype);
                if (e >= 0 && e < (int64_t)t.rows * t.cols) check_run(&x, tv->base + e * es, es);
                continue;
            }
            tile_byte_runs(&t, tv->base, tv->vr, tv->vc, check_run, &x);
        }
    }
}

void init_checker_after(Interp *ip, InitChecker *c, const Instr *in) {
    if (!accesses_tiles(in)) return;
    if (may_run_again(in)) check_reads(ip, c, in); /* it ran: its reads were not checked before */
    if (in->footprint) {
        TileWindowAccess acc[MAX_WINDOW_ACCESSES];
        int n = in->footprint(ip, in, acc);
        for (int i = 0; i < n; i++) {
            if (acc[i].write && acc[i].raw) { /* hidden scratch: the bytes there are the op's now */
                MarkCtx clobber = {ip, c, site_state(c, in->op)};
                mark_run(&clobber, acc[i].raw, acc[i].raw_bytes);
                continue;
            }
            const TileView *tv = acc[i].write ? tile_view_of(ip, acc[i].value) : NULL;
            if (!tv) continue;
            TileRef t;
            tile_ref_fill(&acc[i].value->type->tile, ip->opts.target, &t);
            MarkCtx set = {ip, c, ST_SET};
            if (acc[i].walk) acc[i].walk(ip, in, mark_run, &set);
            else tile_window_runs(&t, tv->base, acc[i].r0, acc[i].c0, acc[i].rows, acc[i].cols, mark_run, &set);
        }
        return;
    }
    const Op *op = in->op;
    const OpInfo *info = op_info(op->code);
    for (int pass = 0; pass < 2; pass++) { /* tmp operands (scratch, written), then outs */
        const OperandList *l = pass == 0 ? &op->ins : &op->outs;
        for (int i = 0; i < l->count; i++) {
            if (pass == 0 && !(i < OPSPEC_MAX && (info->ins[i].flags & SPEC_TMP))) continue;
            const Value *v = l->items[i].kind == OPD_VALUE ? l->items[i].value : NULL;
            const TileView *tv = tile_view_of(ip, v);
            if (!tv) continue;
            TileRef t;
            tile_ref_fill(&v->type->tile, ip->opts.target, &t);
            MarkCtx set = {ip, c, ST_SET};
            if (pass == 0 && (info->ins[i].flags & SPEC_GARBAGE)) set.state = site_state(c, op); /* the board's, not ours */
            if (pass == 1 && (info->flags & OPF_ONE_ELEMENT)) { /* tsetval: the one element at its offset */
                int64_t e = read_int(ip->frame, &in->sc[1]), es = (int64_t)dtype_size(t.dtype);
                if (e >= 0 && e < (int64_t)t.rows * t.cols) mark_run(&set, tv->base + e * es, es);
                continue;
            }
            if (pass == 1 && (info->flags & OPF_PAD_FILL)) { /* the footprint first, then the valid region */
                MarkCtx fill = {ip, c, ST_SET};
                if (t.pad == 0) fill.state = site_state(c, op);
                tile_byte_runs(&t, tv->base, t.rows, t.cols, mark_run, &fill);
            }
            tile_byte_runs(&t, tv->base, pass == 0 ? t.rows : tv->vr, pass == 0 ? t.cols : tv->vc, mark_run, &set);
        }
    }
}

/* The position of the op's SPEC_GARBAGE scratch operand, or -1. */
static int garbage_operand(const OpInfo *info) {
    for (int i = 0; i < OPSPEC_MAX && info->ins[i].name; i++)
        if (info->ins[i].flags & SPEC_GARBAGE) return i;
    return -1;
}

void init_checker_mark_valid(Interp *ip, InitChecker *c, const TileRef *t, const TileView *tv) {
    MarkCtx set = {ip, c, ST_SET};
    if (tv->base) tile_byte_runs(t, tv->base, tv->vr, tv->vc, mark_run, &set);
}

bool init_checker_finish(Interp *ip, InitChecker *c) {
    InitReport *rev = NULL; /* oldest first */
    for (InitReport *r = c->reports, *n; r; r = n) n = r->next, r->next = rev, rev = r;
    c->reports = rev;
    for (InitReport *r = c->reports; r; r = r->next) {
        const char *times = r->count > 1 ? arena_printf(ip->arena, " (%lld executions)", (long long)r->count) : "";
        const char *mem = buffer_name(r->value->type->tile.loc);
        if (r->sized_by)
            diag_report(ip->diags, ip->file, SEV_ERROR, r->site->loc, "INIT.outside",
                        "'%s' reads %dx%d elements of tile %%%s (%s), a window sized by %s, past its valid region %dx%d "
                        "(first at element (%d, %d))%s: the op's semantics take the tile's data from its valid region only; "
                        "the bytes past it are stale on the board and whatever pto-run last left there; fix: give the tiles "
                        "valid shapes that agree",
                        op_info(r->site->code)->name, r->win_rows, r->win_cols, r->value->name, mem, r->sized_by, r->vr,
                        r->vc, r->row, r->col, times);
        else {
            /* what was read: the first element and its bytes */
            const char *read = arena_printf(ip->arena, "'%s' reads tile %%%s (%s) at element (%d, %d), bytes %lld..%lld",
                                            op_info(r->site->code)->name, r->value->name, mem, r->row, r->col,
                                            (long long)r->lo, (long long)r->hi - 1);
            const int garbage = r->pad_site ? garbage_operand(op_info(r->pad_site->code)) : -1;
            if (garbage >= 0)
                diag_report(ip->diags, ip->file, SEV_ERROR, r->site->loc, "INIT.scratch",
                            "%s, which '%s' at line %d took as its scratch operand '%s'%s: the hardware keeps its own "
                            "working data there (the SDMA engine's control words), pto-run leaves the bytes as they were, "
                            "so the value here is the board's garbage; fix: keep data out of that scratch tile, or write "
                            "it again before reading it",
                            read, op_info(r->pad_site->code)->name, r->pad_site->loc.line,
                            op_info(r->pad_site->code)->ins[garbage].name, times);
            else if (r->pad_site && !(op_info(r->pad_site->code)->flags & OPF_PAD_FILL))
                diag_report(ip->diags, ip->file, SEV_ERROR, r->site->loc, "INIT.scratch",
                            "%s, which '%s' at line %d overwrote through its hidden scratch%s: the A2/A3 Mode 1 row-expand "
                            "without tmp broadcasts through UB [0x2e000, 0x30000) (pto-isa TMP_UB_OFFSET); pto-run, like "
                            "the simulator, does not, so the value here is the board's garbage; fix: give the row-expand a "
                            "tmp tile, or place this tile elsewhere",
                            read, op_info(r->pad_site->code)->name, r->pad_site->loc.line, times);
            else if (r->pad_site)
                diag_report(ip->diags, ip->file, SEV_ERROR, r->site->loc, "INIT.pad",
                            "%s, outside the valid region that 'tload' at line %d loaded%s: with no pad value the hardware "
                            "leaves those bytes as they were; pto-run and the simulator zero-fill them; fix: give the tile "
                            "type a pad value (pad=zero) or read only the valid region",
                            read, r->pad_site->loc.line, times);
            else
                diag_report(ip->diags, ip->file, SEV_ERROR, r->site->loc, "INIT.read",
                            "%s, which no instruction wrote%s: pto-run's memories start zeroed, the hardware's hold stale "
                            "data",
                            read, times);
        }
    }
    return c->n_reports == 0;
}
