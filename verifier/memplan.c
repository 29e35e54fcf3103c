/* memplan.c - memory rules (SPEC 2.1, 3): constant placements aligned and inside the loc's
 * buffer; per function and buffer, the peak bytes of auto-placed tiles live at once against the
 * target's capacity; on A2A3, manual tiles overlapping the hidden row-expand scratch. */
#include "vctx.h"

#include <stdlib.h>

/* A2A3 TMP_UB_OFFSET (184 KiB) and its 8 KiB length: the Mode 1 row-expand broadcast buffer. */
enum { SCRATCH_BEGIN = 0x2E000, SCRATCH_END = 0x30000 };

/* ------------------------------------------------------------------------------------------ */
/* Facts                                                                                       */
/* ------------------------------------------------------------------------------------------ */

void facts_release(FuncFacts *facts) {
    free(facts->placements.items);
    free(facts->manual_tiles.items);
    free(facts->auto_candidates.items);
    free(facts->ffts_operands.items);
    facts->ffts_operands = (PtrVec){0};
    free(facts->region_end);
    facts->placements = facts->manual_tiles = facts->auto_candidates = (PtrVec){0};
    facts->region_end = NULL;
    facts->n_order = facts->n_region_ops = facts->region_cap = 0;
}

void record_manual_tile(VerifyCtx *ctx, const Value *tile_value) {
    if (ctx->facts && tile_value) heap_vec_push(&ctx->facts->manual_tiles, (void *)tile_value);
}

void record_auto_candidate(VerifyCtx *ctx, const Value *tile_value) {
    if (ctx->facts && tile_value) heap_vec_push(&ctx->facts->auto_candidates, (void *)tile_value);
}

void record_scratch_user(VerifyCtx *ctx, const Op *op) {
    if (ctx->facts && !ctx->facts->scratch_user) ctx->facts->scratch_user = op;
}

void check_and_record_placement(VerifyCtx *ctx, const Op *op, const Operand *addr_opd, const TileType *tile) {
    int64_t addr, bytes, end;
    if (!addr_opd || !const_int_of(addr_opd, &addr)) return; /* computed: checked at run time */
    SrcLoc loc = addr_opd->loc.line ? addr_opd->loc : op->loc;
    if (addr < 0) {
        vreport(ctx, op, loc, SEV_ERROR, "MEM.addr-range", "expects a non-negative tile address, got %lld",
                (long long)addr);
        return;
    }
    if (addr % 32 != 0)
        vreport(ctx, op, loc, SEV_ERROR, "MEM.addr-align",
                "expects the tile address to be a multiple of 32 bytes, got 0x%llx (%lld)", (unsigned long long)addr,
                (long long)addr);
    int64_t cap = buffer_capacity_bytes(ctx->target, tile->loc);
    if (!tile_footprint_bytes(tile, &bytes) || bytes > cap) return; /* TILE.capacity reports it */
    if (!checked_add_i64(addr, bytes, &end) || end > cap) {
        vreport(ctx, op, loc, SEV_ERROR, "MEM.addr-range",
                "expects the tile to lie inside the %lld-byte %s of %s, but 0x%llx + %lld bytes ends past it",
                (long long)cap, buffer_name(tile->loc), target_label(ctx->target), (unsigned long long)addr,
                (long long)bytes);
        return;
    }
    if (!ctx->facts) return;
    Placement *p = arena_alloc(ctx->arena, sizeof *p);
    *p = (Placement){.op = op, .loc = loc, .tile = tile, .addr = addr};
    heap_vec_push(&ctx->facts->placements, p);
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden scratch (A2A3)                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void check_scratch_overlaps(VerifyCtx *ctx, const FuncFacts *facts) {
    if (ctx->target != TARGET_A2A3 || !facts->scratch_user) return;
    for (size_t i = 0; i < facts->placements.count; i++) {
        const Placement *p = facts->placements.items[i];
        int64_t bytes;
        if (p->tile->loc != LOC_VEC || !tile_footprint_bytes(p->tile, &bytes)) continue;
        if (p->addr >= SCRATCH_END || p->addr + bytes <= SCRATCH_BEGIN) continue;
        const Op *user = facts->scratch_user;
        vreport(ctx, p->op, p->loc, SEV_WARNING, "MEM.scratch-overlap",
                "tile at [0x%llx, 0x%llx) overlaps the A2/A3 row-expand scratch [0x%x, 0x%x), which the Mode 1 '%s' "
                "without tmp at line %u overwrites",
                (unsigned long long)p->addr, (unsigned long long)(p->addr + bytes), (unsigned)SCRATCH_BEGIN,
                (unsigned)SCRATCH_END, op_info(user->code)->name, user->loc.line);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Liveness of auto-placed tiles                                                               */
/* ------------------------------------------------------------------------------------------ */

/* The ops of a function are numbered in pre-order (regions after their op), as the verifier's walk
 * meets them; region_end[k] is the position of the last op nested in the k-th op with regions
 * (FuncFacts). */
typedef struct Liveness {
    const int64_t *region_end;
    int64_t count;
    uint32_t n_values;
    int64_t *def; /* position of the defining op; -1: function argument or unseen */
    int64_t *last; /* last position the value is needed at */
    int64_t *stack; /* positions of the region-holding ancestors of the current op */
    int64_t *stack_k; /* and their numbers among ops with regions */
    int depth;
    bool *manual; /* by value id: tassigned or placed with addr = */
} Liveness;

static void note_use(Liveness *lv, const Operand *opd, const Op *op, int64_t pos) {
    if (opd->kind != OPD_VALUE || !opd->value || opd->value->def == op) return;
    uint32_t id = opd->value->id;
    if (id >= lv->n_values || lv->def[id] < 0 || lv->def[id] > pos) return;
    int64_t use = pos;
    /* a use inside a region that the definition encloses keeps the value alive to that op's end */
    for (int i = 0; i < lv->depth; i++)
        if (lv->stack[i] > lv->def[id]) {
            use = lv->region_end[lv->stack_k[i]];
            break;
        }
    if (use > lv->last[id]) lv->last[id] = use;
}

static void note_def(Liveness *lv, const Value *v, int64_t pos) {
    if (v && v->id < lv->n_values) lv->def[v->id] = lv->last[v->id] = pos;
}

static void scan_operands(Liveness *lv, const OperandList *list, const Op *op, int64_t pos) {
    for (int i = 0; i < list->count; i++) note_use(lv, &list->items[i], op, pos);
}

static void compute_liveness(Liveness *lv, const Block *b, int64_t *next, int64_t *next_k) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        int64_t pos = (*next)++;
        for (int i = 0; i < op->n_results; i++) note_def(lv, op->results[i], pos);
        for (int r = 0; r < op->n_regions; r++) {
            const Block *rb = op->regions[r].block;
            for (int i = 0; rb && i < rb->n_args; i++) note_def(lv, rb->args[i], pos);
        }
        scan_operands(lv, &op->ins, op, pos);
        scan_operands(lv, &op->outs, op, pos);
        for (int k = 0; k < op->n_kwargs; k++) scan_operands(lv, &op->kwargs[k].list, op, pos);
        if (op->n_regions == 0) continue;
        lv->stack[lv->depth] = pos;
        lv->stack_k[lv->depth++] = (*next_k)++;
        for (int r = 0; r < op->n_regions; r++) compute_liveness(lv, op->regions[r].block, next, next_k);
        lv->depth--;
    }
}

/* The op at pre-order position `pos` (counted down in *pos), or NULL. */
static const Op *op_at(const Block *b, int64_t *pos) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if ((*pos)-- == 0) return op;
        for (int r = 0; r < op->n_regions; r++) {
            const Op *found = op_at(op->regions[r].block, pos);
            if (found) return found;
        }
    }
    return NULL;
}

typedef struct AllocEvent {
    int64_t pos;
    int64_t delta; /* +bytes at the definition, -bytes after the last use */
} AllocEvent;

static int compare_events(const void *pa, const void *pb) {
    const AllocEvent *a = pa, *b = pb;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    return (a->delta > b->delta) - (a->delta < b->delta); /* frees before allocations */
}

/* Sweeps the live intervals of one buffer's auto tiles (ev: room for two events per tile); warns
 * at the first op past capacity. */
static void check_buffer_peak(VerifyCtx *ctx, const Liveness *lv, const FuncFacts *facts, TileLoc loc, AllocEvent *ev) {
    int64_t cap = buffer_capacity_bytes(ctx->target, loc);
    size_t n = facts->auto_candidates.count, m = 0;
    for (size_t i = 0; i < n; i++) {
        const Value *v = facts->auto_candidates.items[i];
        const Type *t = v->type;
        int64_t bytes;
        if (!t || t->kind != TY_TILE || t->tile.loc != loc || v->id >= lv->n_values || lv->def[v->id] < 0) continue;
        if (lv->manual[v->id] || !tile_footprint_bytes(&t->tile, &bytes) || bytes > cap) continue;
        ev[m++] = (AllocEvent){lv->def[v->id], bytes};
        ev[m++] = (AllocEvent){lv->last[v->id] + 1, -bytes};
    }
    qsort(ev, m, sizeof *ev, compare_events);
    int64_t live = 0, peak = 0, over_pos = -1;
    for (size_t i = 0; i < m; i++) {
        live += ev[i].delta; /* bounded: every tile <= cap <= 2^19, fewer than 2^32 tiles */
        if (live > peak) peak = live;
        if (live > cap && over_pos < 0) over_pos = ev[i].pos;
    }
    if (over_pos < 0 || over_pos >= lv->count) return;
    int64_t at = over_pos;
    const Op *op = op_at(facts->func->body.block, &at);
    if (!op) return;
    vreport(ctx, op, op->loc, SEV_WARNING, "MEM.auto-capacity",
            "auto-placed %s tiles live at once need up to %lld bytes of %s in @%s, more than the %lld bytes of %s",
            tile_loc_name(loc), (long long)peak, buffer_name(loc), facts->func->name, (long long)cap,
            target_label(ctx->target));
}

static void check_auto_peak(VerifyCtx *ctx, const Func *f, const FuncFacts *facts) {
    if (facts->auto_candidates.count == 0 || f->n_values == 0 || f->is_declaration) return;
    if (facts->n_order == 0) return;
    /* temporaries on the heap: freed before the next function */
    Liveness lv = {.region_end = facts->region_end, .count = facts->n_order, .n_values = f->n_values};
    lv.def = heap_calloc(f->n_values, sizeof *lv.def);
    lv.last = heap_calloc(f->n_values, sizeof *lv.last);
    lv.stack = heap_calloc((size_t)facts->max_depth + 1, sizeof *lv.stack);
    lv.stack_k = heap_calloc((size_t)facts->max_depth + 1, sizeof *lv.stack_k);
    lv.manual = heap_calloc(f->n_values, sizeof *lv.manual);
    for (uint32_t i = 0; i < f->n_values; i++) lv.def[i] = lv.last[i] = -1;
    for (size_t i = 0; i < facts->manual_tiles.count; i++) {
        const Value *v = facts->manual_tiles.items[i];
        if (v->id < f->n_values) lv.manual[v->id] = true;
    }
    int64_t next = 0, next_k = 0;
    compute_liveness(&lv, f->body.block, &next, &next_k);
    size_t n_events = facts->auto_candidates.count;
    if (n_events > (SIZE_MAX / sizeof(AllocEvent) - 1) / 2) host_out_of_memory(SIZE_MAX);
    AllocEvent *events = heap_calloc(n_events * 2 + 1, sizeof *events);
    for (int loc = 0; loc < LOC_COUNT; loc++) check_buffer_peak(ctx, &lv, facts, (TileLoc)loc, events);
    free(events);
    free(lv.def);
    free(lv.last);
    free(lv.stack);
    free(lv.stack_k);
    free(lv.manual);
}

void memplan_finish_function(VerifyCtx *ctx, const Func *f) {
    if (!ctx->facts) return;
    check_scratch_overlaps(ctx, ctx->facts);
    check_auto_peak(ctx, f, ctx->facts);
}
