/* ops_control.c - control flow lowered to jumps and frames in the flat instruction array:
 * scf.for (iter_args), scf.if (results), scf.while / scf.condition, scf.yield, func.call, return.
 *
 *   scf.for:   FOR_INIT (bounds, inits -> iter args, zero-trip jump to EXIT) BODY... FOR_NEXT (yield ->
 *              iter args, iv += step, jump back) EXIT (iter args -> results)
 *   scf.if:    IF (jump to ELSE when false) THEN... YIELD+JUMP END  ELSE... YIELD  END
 *   scf.while: INIT (inits -> before args) BEFORE... CONDITION (-> after args, or -> results + jump
 *              END) AFTER... YIELD+JUMP BEFORE  END
 *   func.call: CALL (new frame, arguments, jump) ... RETURN (results -> caller, pop frame)
 *
 * Tiles are passed by view (aliasing as in the ISA). A tile yielded around a loop's back edge whose
 * storage belongs to an auto tile re-defined by the next iteration is copied into the loop-carried
 * value's own storage, so a carried tile never aliases a fresh one (same for call results). */
#include "interp_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- transfers ----------------------------------------------------------------------------- */

static bool grow_xfer(Interp *ip, size_t n) {
    if (ip->xfer_cap >= n) return true;
    size_t cap = ip->xfer_cap ? ip->xfer_cap : 16;
    while (cap < n) cap *= 2;
    RtValue *grown = realloc(ip->xfer, cap * sizeof *grown);
    if (!grown) return false;
    ip->xfer = grown;
    ip->xfer_cap = cap;
    return true;
}

static bool grow_scratch(Interp *ip, size_t n) {
    if (ip->scratch_cap >= n) return true;
    uint8_t *grown = realloc(ip->scratch, n);
    if (!grown) return false;
    ip->scratch = grown;
    ip->scratch_cap = n;
    return true;
}

bool transfer_values(Interp *ip, const Instr *in, const Transfer *t, Frame *src, Frame *dst) {
    int n = t->n;
    if (n == 0) return true;
    if (!grow_xfer(ip, (size_t)n)) {
        rt_error(ip, in, "out of host memory");
        return false;
    }
    RtValue *tmp = ip->xfer;
    for (int i = 0; i < n; i++) tmp[i] = src->vals[t->src[i]];
    int ncopy = 0;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        if (t->dst_auto[i] < 0) continue;
        TileView *v = &tmp[i].tile;
        bool reused = (v->frame_serial == dst->serial && v->auto_slot >= t->lo && v->auto_slot < t->hi) ||
                      (src != dst && v->frame_serial == src->serial && v->auto_slot >= 0);
        v->reserved = reused;
        if (reused) {
            ncopy++;
            total += (size_t)t->footprint[i];
        }
    }
    if (ncopy > 0) {
        bool staged = ncopy > 1;
        if (staged && !grow_scratch(ip, total)) {
            rt_error(ip, in, "out of host memory");
            return false;
        }
        size_t off = 0;
        for (int i = 0; i < n && staged; i++) {
            TileView *v = &tmp[i].tile;
            if (t->dst_auto[i] < 0 || !v->reserved) continue;
            memcpy(ip->scratch + off, v->base, (size_t)t->footprint[i]);
            off += (size_t)t->footprint[i];
        }
        off = 0;
        for (int i = 0; i < n; i++) {
            TileView *v = &tmp[i].tile;
            if (t->dst_auto[i] < 0 || !v->reserved) continue;
            uint8_t *dest = dst->auto_mem + dst->fn->auto_offset[t->dst_auto[i]];
            const uint8_t *from = staged ? ip->scratch + off : v->base;
            if (dest != from) memmove(dest, from, (size_t)t->footprint[i]);
            off += (size_t)t->footprint[i];
            v->base = dest;
            v->auto_slot = t->dst_auto[i];
            v->frame_serial = dst->serial;
            v->flags = VIEW_DEFINED;
            v->reserved = 0;
        }
    }
    for (int i = 0; i < n; i++) dst->vals[t->dst[i]] = tmp[i];
    return true;
}

/* True when a value of type `from` may flow into a slot of type `to`. */
static bool flow_compatible(const Type *from, const Type *to) {
    if (!from || !to) return from == to;
    if (from->kind != to->kind) return false;
    if (from->kind == TY_TILE) return tile_storage_equal(&from->tile, &to->tile);
    if (from->kind == TY_TENSOR_VIEW || from->kind == TY_PARTITION_VIEW) return from->rank == to->rank;
    return true;
}

/* Builds a Transfer from operands (values or literals) to the values `dsts` of function `dst_func`.
 * `copies`: tiles re-defined inside [lo, hi) are copied into the destination's auto storage. */
static Transfer *build_transfer(LowerCtx *ctx, const Op *op, const Operand *srcs, int n, Value *const *dsts,
                                int ndst, const Func *dst_func, const int32_t *dst_auto_of_value, bool copies,
                                const char *what) {
    if (n != ndst) {
        lower_error(ctx, op, (SrcLoc){0}, "%s %d values where %d are expected", what, n, ndst);
        return NULL;
    }
    Arena *a = ctx->ip->arena;
    Transfer *t = arena_alloc(a, sizeof *t);
    t->n = n;
    size_t cnt = n ? (size_t)n : 1;
    t->src = arena_alloc_array(a, cnt, sizeof *t->src);
    t->dst = arena_alloc_array(a, cnt, sizeof *t->dst);
    t->dst_auto = arena_alloc_array(a, cnt, sizeof *t->dst_auto);
    t->footprint = arena_alloc_array(a, cnt, sizeof *t->footprint);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        const Value *d = dsts[i];
        t->dst_auto[i] = -1;
        if (!d || d->id >= dst_func->n_values) {
            ok = lower_error(ctx, op, (SrcLoc){0}, "%s: destination %d has no frame slot", what, i);
            continue;
        }
        t->dst[i] = (int32_t)d->id;
        const Operand *s = &srcs[i];
        if (s->kind == OPD_VALUE) {
            int32_t slot = value_slot(ctx, op, s);
            if (slot < 0) {
                ok = false;
                continue;
            }
            if (s->value->type && s->value->type->kind == TY_EVENTID_ARRAY) {
                /* PTOAS copies the C++ array by value here; pto-run keeps one array per declaration */
                ok = lower_error(ctx, op, s->loc, "%s the event-id array %%%s: pto-run keeps an event-id array in the "
                                 "region and function that declare it (declare it where it is used)", what,
                                 s->value->name);
                continue;
            }
            if (!flow_compatible(s->value->type, d->type)) {
                ok = lower_error(ctx, op, s->loc, "%s %%%s of type %s where %s is expected", what, s->value->name,
                                 type_to_string(ctx->ip->arena, s->value->type, false),
                                 type_to_string(ctx->ip->arena, d->type, false));
                continue;
            }
            t->src[i] = slot;
        } else {
            ScalarRef r;
            if (!d->type || d->type->kind != TY_SCALAR || !scalar_ref(ctx, op, s, d->type->dtype, &r)) {
                ok = lower_error(ctx, op, s->loc, "%s: literal where a %s value is expected", what,
                                 type_to_string(ctx->ip->arena, d->type, false));
                continue;
            }
            RtValue init;
            memset(&init, 0, sizeof init);
            if (dtype_is_float(d->type->dtype)) init.f = dtype_is_float(r.type) ? r.imm.f : (double)r.imm.i;
            else init.i = dtype_is_float(r.type) ? (int64_t)r.imm.f : r.imm.i;
            t->src[i] = hidden_slot(ctx, init);
        }
        if (d->type && d->type->kind == TY_TILE) {
            int64_t fp;
            tile_footprint_bytes(&d->type->tile, &fp);
            t->footprint[i] = fp;
            if (copies && dst_auto_of_value) t->dst_auto[i] = dst_auto_of_value[d->id];
        }
    }
    return ok ? t : NULL;
}

/* Operands naming the values `vals` (for transfers whose sources are block arguments). */
static Operand *operands_of_values(LowerCtx *ctx, Value *const *vals, int n) {
    Operand *o = arena_alloc_array(ctx->ip->arena, n ? (size_t)n : 1, sizeof *o);
    for (int i = 0; i < n; i++) {
        o[i].kind = OPD_VALUE;
        o[i].value = vals[i];
        o[i].text = vals[i] ? vals[i]->name : "";
        o[i].loc = vals[i] ? vals[i]->loc : (SrcLoc){0};
    }
    return o;
}

/* ---- exec ------------------------------------------------------------------------------------ */

static int32_t exec_transfer(Interp *ip, const Instr *in, int32_t pc) {
    if (!transfer_values(ip, in, in->extra, ip->frame, ip->frame)) return PC_ERROR;
    return in->target >= 0 ? in->target : pc + 1;
}

static int32_t exec_for_init(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    int64_t lb = read_int(f, &in->sc[0]), ub = read_int(f, &in->sc[1]), step = read_int(f, &in->sc[2]);
    if (step <= 0) return rt_error(ip, in, "step must be positive, got %lld", (long long)step);
    if (!transfer_values(ip, in, in->extra, f, f)) return PC_ERROR;
    f->vals[in->a].i = lb;
    return lb < ub ? pc + 1 : in->target;
}

static int32_t exec_for_next(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    if (!transfer_values(ip, in, in->extra, f, f)) return PC_ERROR;
    int64_t next;
    if (!checked_add_i64(f->vals[in->a].i, read_int(f, &in->sc[2]), &next)) return pc + 1;
    f->vals[in->a].i = next;
    return next < read_int(f, &in->sc[1]) ? in->target : pc + 1;
}

static int32_t exec_if(Interp *ip, const Instr *in, int32_t pc) {
    return (read_int(ip->frame, &in->sc[0]) & 1) ? pc + 1 : in->target;
}

typedef struct CondInfo {
    Transfer *to_after, *to_results;
} CondInfo;

static int32_t exec_condition(Interp *ip, const Instr *in, int32_t pc) {
    const CondInfo *ci = in->extra;
    Frame *f = ip->frame;
    if (read_int(f, &in->sc[0]) & 1) {
        if (!transfer_values(ip, in, ci->to_after, f, f)) return PC_ERROR;
        return pc + 1;
    }
    if (!transfer_values(ip, in, ci->to_results, f, f)) return PC_ERROR;
    return in->target;
}

Frame *call_frame_push(Interp *ip, const Instr *in, int32_t pc) {
    const CallInfo *ci = in->extra;
    Frame *caller = ip->frame;
    Frame *callee = frame_push(ip, in, ci->callee);
    if (!callee) return NULL;
    if (!transfer_values(ip, in, &ci->args, caller, callee)) {
        frame_release(ip, callee);
        return NULL;
    }
    callee->caller = caller;
    callee->return_pc = pc + 1;
    callee->call = in;
    return callee;
}

static int32_t exec_call(Interp *ip, const Instr *in, int32_t pc) {
    const CallInfo *ci = in->extra;
    if (ip->depth >= INTERP_MAX_CALL_DEPTH)
        return rt_error(ip, in, "call depth exceeds %d (unbounded recursion?)", INTERP_MAX_CALL_DEPTH);
    Frame *callee = call_frame_push(ip, in, pc);
    if (!callee) return PC_ERROR;
    ip->frame = callee;
    ip->depth++;
    return ip->funcs[ci->callee].entry_pc;
}

int32_t exec_return(Interp *ip, const Instr *in, int32_t pc) {
    (void)pc;
    Frame *f = ip->frame;
    if (f == ip->entry_frame || f->core_root) return PC_HALT; /* the entry, or a core (ops_pipe.c), ends */
    Frame *caller = f->caller;
    const CallInfo *ci = f->call->extra;
    if (in->a != ci->n_results)
        return rt_error(ip, in, "returns %d values but the call expects %d", in->a, ci->n_results);
    Transfer t = {in->a, (int32_t *)in->extra, ci->result_slots, ci->result_auto, ci->result_footprint,
                  ci->result_lo, ci->result_hi};
    if (!transfer_values(ip, in, &t, f, caller)) return PC_ERROR;
    int32_t ret = f->return_pc;
    ip->frame = caller;
    ip->depth--;
    frame_release(ip, f);
    return ret;
}

/* ---- lowering ------------------------------------------------------------------------------ */

static Block *region_block(const Op *op, int i) {
    return i < op->n_regions && op->regions ? op->regions[i].block : NULL;
}

/* Auto storage for the tile-typed values `vals` (loop-carried values, call results). */
static void reserve_carry_storage(LowerCtx *ctx, const Op *op, Value *const *vals, int n) {
    for (int i = 0; i < n; i++) {
        const Value *v = vals[i];
        if (!v || v->id >= ctx->func->n_values || !v->type || v->type->kind != TY_TILE) continue;
        TileRef t;
        if (!tile_ref_from_type(ctx, op, v->loc, &v->type->tile, &t)) continue;
        ctx->auto_of_value[v->id] = new_auto(ctx, op, t.footprint);
    }
}

/* Lowers a region's block with `rc` as the innermost region; adds the implicit terminator. */
static void emit_terminator(LowerCtx *ctx, RegionCtx *rc, const Op *yield, const Operand *vals, int n);

static void lower_region(LowerCtx *ctx, RegionCtx *rc, const Block *block) {
    rc->outer = ctx->region;
    ctx->region = rc;
    lower_block(ctx, block);
    if (!rc->terminated) emit_terminator(ctx, rc, NULL, NULL, 0);
    ctx->region = rc->outer;
}

static void emit_terminator(LowerCtx *ctx, RegionCtx *rc, const Op *yield, const Operand *vals, int n) {
    rc->terminated = true;
    const Op *owner = rc->owner;
    const Op *at = yield ? yield : owner;
    switch (rc->kind) {
    case RK_FOR: {
        Block *body = region_block(owner, 0);
        Transfer *t = build_transfer(ctx, at, vals, n, body->args + 1, body->n_args - 1, ctx->func,
                                     ctx->auto_of_value, true, "scf.yield passes");
        if (!t) return;
        t->lo = rc->auto_lo;
        t->hi = ctx->n_auto;
        Instr in = instr_for(at, exec_for_next);
        in.traced = yield != NULL;
        in.extra = t;
        in.a = rc->iv_slot;
        in.sc[1] = rc->upper;
        in.sc[2] = rc->step;
        in.target = rc->loop_pc;
        emit(ctx, &in);
        return;
    }
    case RK_IF_THEN:
    case RK_IF_ELSE: {
        Transfer *t = build_transfer(ctx, at, vals, n, owner->results, owner->n_results, ctx->func, NULL, false,
                                     "scf.yield passes");
        if (!t) return;
        Instr in = instr_for(at, exec_transfer);
        in.traced = yield != NULL;
        in.extra = t;
        int32_t pc = emit(ctx, &in);
        if (rc->kind == RK_IF_THEN) rc->patch = pc;
        return;
    }
    case RK_WHILE_BEFORE:
        lower_error(ctx, owner, (SrcLoc){0}, "the 'before' region of scf.while must end with scf.condition");
        return;
    case RK_WHILE_AFTER: {
        Block *before = region_block(owner, 0);
        Transfer *t = build_transfer(ctx, at, vals, n, before->args, before->n_args, ctx->func, ctx->auto_of_value,
                                     true, "scf.yield passes");
        if (!t) return;
        t->lo = rc->auto_lo;
        t->hi = ctx->n_auto;
        Instr in = instr_for(at, exec_transfer);
        in.traced = yield != NULL;
        in.extra = t;
        in.target = rc->loop_pc;
        emit(ctx, &in);
        return;
    }
    }
}

bool lower_scf_yield(LowerCtx *ctx, const Op *op) {
    RegionCtx *rc = ctx->region;
    if (!rc || rc->kind == RK_WHILE_BEFORE)
        return lower_error(ctx, op, (SrcLoc){0}, "is not the terminator of an scf.for, scf.if or scf.while 'do' region");
    emit_terminator(ctx, rc, op, op->ins.items, op->ins.count);
    return true;
}

bool lower_scf_for(LowerCtx *ctx, const Op *op) {
    Block *body = region_block(op, 0);
    int n_init = op->ins.count - 3;
    if (op->ins.count < 3 || !body || body->n_args != 1 + n_init || op->n_results != n_init)
        return lower_error(ctx, op, (SrcLoc){0}, "has an unexpected structure (bounds, iter_args, results)");
    ScalarRef lb, ub, step;
    if (!scalar_ref(ctx, op, &op->ins.items[0], DT_INDEX, &lb) || !scalar_ref(ctx, op, &op->ins.items[1], DT_INDEX, &ub) ||
        !scalar_ref(ctx, op, &op->ins.items[2], DT_INDEX, &step))
        return false;
    const Value *iv = body->args[0];
    if (!iv || iv->id >= ctx->func->n_values) return lower_error(ctx, op, (SrcLoc){0}, "induction variable has no slot");
    int32_t auto_lo = ctx->n_auto;
    reserve_carry_storage(ctx, op, body->args + 1, n_init);
    Transfer *init = build_transfer(ctx, op, op->ins.items + 3, n_init, body->args + 1, n_init, ctx->func, NULL, false,
                                    "iter_args pass");
    if (!init) return false;
    Instr in = instr_for(op, exec_for_init);
    in.sc[0] = lb;
    in.sc[1] = ub;
    in.sc[2] = step;
    in.a = (int32_t)iv->id;
    in.extra = init;
    int32_t init_pc = emit(ctx, &in);
    RegionCtx rc = {.kind = RK_FOR, .owner = op, .auto_lo = auto_lo, .loop_pc = init_pc + 1,
                    .iv_slot = (int32_t)iv->id, .upper = ub, .step = step};
    lower_region(ctx, &rc, body);
    Transfer *exit = build_transfer(ctx, op, operands_of_values(ctx, body->args + 1, n_init), n_init, op->results,
                                    op->n_results, ctx->func, NULL, false, "scf.for results take");
    if (!exit) return false;
    Instr out = instr_for(op, exec_transfer);
    out.traced = false;
    out.extra = exit;
    int32_t exit_pc = emit(ctx, &out);
    ctx->ip->code[init_pc].target = exit_pc;
    return true;
}

bool lower_scf_if(LowerCtx *ctx, const Op *op) {
    Block *then_b = region_block(op, 0), *else_b = region_block(op, 1);
    if (!then_b) return lower_error(ctx, op, (SrcLoc){0}, "has no 'then' region");
    if (op->n_results > 0 && !else_b)
        return lower_error(ctx, op, (SrcLoc){0}, "has results but no 'else' region");
    ScalarRef cond;
    if (op->ins.count < 1 || !scalar_ref(ctx, op, &op->ins.items[0], DT_I1, &cond)) return false;
    Instr in = instr_for(op, exec_if);
    in.sc[0] = cond;
    int32_t if_pc = emit(ctx, &in);
    RegionCtx then_rc = {.kind = RK_IF_THEN, .owner = op, .patch = -1};
    lower_region(ctx, &then_rc, then_b);
    ctx->ip->code[if_pc].target = ctx->ip->n_code;
    if (else_b) {
        RegionCtx else_rc = {.kind = RK_IF_ELSE, .owner = op, .patch = -1};
        lower_region(ctx, &else_rc, else_b);
    }
    if (then_rc.patch >= 0) ctx->ip->code[then_rc.patch].target = ctx->ip->n_code;
    return true;
}

bool lower_scf_while(LowerCtx *ctx, const Op *op) {
    Block *before = region_block(op, 0), *after = region_block(op, 1);
    int n_init = op->ins.count;
    if (!before || !after || before->n_args != n_init)
        return lower_error(ctx, op, (SrcLoc){0}, "has an unexpected structure (before/after regions, arguments)");
    int32_t auto_lo = ctx->n_auto;
    reserve_carry_storage(ctx, op, before->args, before->n_args);
    Transfer *init = build_transfer(ctx, op, op->ins.items, n_init, before->args, before->n_args, ctx->func, NULL,
                                    false, "scf.while passes");
    if (!init) return false;
    Instr in = instr_for(op, exec_transfer);
    in.extra = init;
    emit(ctx, &in);
    int32_t before_pc = ctx->ip->n_code;
    RegionCtx brc = {.kind = RK_WHILE_BEFORE, .owner = op, .auto_lo = auto_lo, .patch = -1};
    lower_region(ctx, &brc, before);
    RegionCtx arc = {.kind = RK_WHILE_AFTER, .owner = op, .auto_lo = auto_lo, .loop_pc = before_pc};
    lower_region(ctx, &arc, after);
    if (brc.patch >= 0) ctx->ip->code[brc.patch].target = ctx->ip->n_code;
    return true;
}

bool lower_scf_condition(LowerCtx *ctx, const Op *op) {
    RegionCtx *rc = ctx->region;
    if (!rc || rc->kind != RK_WHILE_BEFORE)
        return lower_error(ctx, op, (SrcLoc){0}, "is only valid as the terminator of scf.while's 'before' region");
    rc->terminated = true;
    const Op *owner = rc->owner;
    Block *after = region_block(owner, 1);
    ScalarRef cond;
    if (op->ins.count < 1 || !scalar_ref(ctx, op, &op->ins.items[0], DT_I1, &cond)) return false;
    CondInfo *ci = arena_alloc(ctx->ip->arena, sizeof *ci);
    int n = op->ins.count - 1;
    ci->to_after = build_transfer(ctx, op, op->ins.items + 1, n, after->args, after->n_args, ctx->func, NULL, false,
                                  "scf.condition passes");
    ci->to_results = build_transfer(ctx, op, op->ins.items + 1, n, owner->results, owner->n_results, ctx->func, NULL,
                                    false, "scf.condition passes");
    if (!ci->to_after || !ci->to_results) return false;
    Instr in = instr_for(op, exec_condition);
    in.sc[0] = cond;
    in.extra = ci;
    rc->patch = emit(ctx, &in);
    return true;
}

bool lower_call(LowerCtx *ctx, const Op *op) {
    const Module *m = ctx->ip->module;
    int callee = op->callee ? module_func_index(m, op->callee) : -1; /* hashed: many calls stay linear */
    if (callee < 0) return lower_error(ctx, op, (SrcLoc){0}, "calls @%s, which is not defined", op->callee ? op->callee : "?");
    const Func *f = m->funcs[callee];
    if (f->is_declaration) return emit_unsupported(ctx, op, "calls @%s, which has no body", f->name);
    if (op->n_results != f->n_results)
        return lower_error(ctx, op, (SrcLoc){0}, "expects %d results from @%s, which returns %d", op->n_results, f->name,
                           f->n_results);
    CallInfo *ci = arena_alloc(ctx->ip->arena, sizeof *ci);
    ci->callee = callee;
    Transfer *args = build_transfer(ctx, op, op->ins.items, op->ins.count, f->args, f->n_args, f, NULL, false,
                                    "passes");
    if (!args) return false;
    ci->args = *args;
    ci->n_results = op->n_results;
    size_t cnt = op->n_results ? (size_t)op->n_results : 1;
    ci->result_slots = arena_alloc_array(ctx->ip->arena, cnt, sizeof *ci->result_slots);
    ci->result_auto = arena_alloc_array(ctx->ip->arena, cnt, sizeof *ci->result_auto);
    ci->result_footprint = arena_alloc_array(ctx->ip->arena, cnt, sizeof *ci->result_footprint);
    ci->result_lo = ctx->n_auto;
    for (int i = 0; i < op->n_results; i++) {
        const Value *r = op->results[i];
        ci->result_auto[i] = -1;
        if (!r || r->id >= ctx->func->n_values) return lower_error(ctx, op, (SrcLoc){0}, "result %d has no slot", i);
        ci->result_slots[i] = (int32_t)r->id;
        if (!flow_compatible(f->result_types ? f->result_types[i] : NULL, r->type) && f->result_types)
            return lower_error(ctx, op, (SrcLoc){0}, "result %d has type %s but @%s returns %s", i,
                               type_to_string(ctx->ip->arena, r->type, false), f->name,
                               type_to_string(ctx->ip->arena, f->result_types[i], false));
        if (r->type && r->type->kind == TY_TILE) {
            TileRef t;
            if (!tile_ref_from_type(ctx, op, r->loc, &r->type->tile, &t)) return false;
            ci->result_auto[i] = new_auto(ctx, op, t.footprint);
            ci->result_footprint[i] = t.footprint;
        }
    }
    ci->result_hi = ctx->n_auto;
    Instr in = instr_for(op, exec_call);
    in.extra = ci;
    const char *kind = func_kernel_kind(f);
    if (kind && !ctx->region && module_uses_pipes(m)) {
        /* a cube or vector kernel joined by FIFOs: a core (two for a vector function's sub-blocks);
         * the last kernel call of a run of them runs the cores (ops_pipe.c) */
        if (op->n_results) return lower_error(ctx, op, (SrcLoc){0}, "calls kernel function @%s, which may not return values", f->name);
        const Op *next = op->next;
        const Func *nf = next && next->code == OP_CALL && next->callee ? module_find_func(m, next->callee) : NULL;
        in.exec = exec_spawn_kernel;
        in.b = (strcmp(kind, "vector") == 0 ? 1 : 0) | (nf && func_kernel_kind(nf) ? 0 : 2);
    }
    emit(ctx, &in);
    return true;
}

bool lower_return(LowerCtx *ctx, const Op *op) {
    const Func *f = ctx->func;
    if (ctx->region) return lower_error(ctx, op, (SrcLoc){0}, "is inside a region; use scf.yield");
    if (op->ins.count != f->n_results)
        return lower_error(ctx, op, (SrcLoc){0}, "returns %d values but @%s declares %d", op->ins.count, f->name,
                           f->n_results);
    int32_t *slots = arena_alloc_array(ctx->ip->arena, op->ins.count ? (size_t)op->ins.count : 1, sizeof *slots);
    for (int i = 0; i < op->ins.count; i++) {
        const Operand *o = &op->ins.items[i];
        if (o->kind != OPD_VALUE) {
            ScalarRef r;
            const Type *rt = f->result_types ? f->result_types[i] : NULL;
            if (!rt || rt->kind != TY_SCALAR || !scalar_ref(ctx, op, o, rt->dtype, &r)) return false;
            RtValue init;
            memset(&init, 0, sizeof init);
            if (dtype_is_float(rt->dtype)) init.f = dtype_is_float(r.type) ? r.imm.f : (double)r.imm.i;
            else init.i = r.imm.i;
            slots[i] = hidden_slot(ctx, init);
            continue;
        }
        slots[i] = value_slot(ctx, op, o);
        if (slots[i] < 0) return false;
        if (f->result_types && !flow_compatible(o->value->type, f->result_types[i]))
            return lower_error(ctx, op, o->loc, "returns %%%s of type %s but @%s declares %s", o->value->name,
                               type_to_string(ctx->ip->arena, o->value->type, false), f->name,
                               type_to_string(ctx->ip->arena, f->result_types[i], false));
    }
    Instr in = instr_for(op, exec_return);
    in.a = op->ins.count;
    in.extra = slots;
    emit(ctx, &in);
    return true;
}

/* ---- pto.section.cube / pto.section.vector ------------------------------------------------------ */

/* The body runs in place, on every core kind (pto-run models one core running both sections). */
/* pto.trap: the kernel stops here, as the hardware's trap does; the run fails at its line. */
static int32_t exec_trap(Interp *ip, const Instr *in, int32_t pc) {
    (void)pc;
    return rt_error(ip, in, "trapped: the kernel stops here (PTOAS's trap aborts it on the NPU)");
}

bool lower_trap(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_trap);
    emit(ctx, &in);
    return true;
}

/* pto.print: the format's text, then the scalar through the conversion spec rebuilt by
 * print_op_format_parse (never the text as written), then the rest of the text, on the program's
 * output stream in program order (docs/execution.md). */
static int32_t exec_print(Interp *ip, const Instr *in, int32_t pc) {
    const PrintOpFormat *pf = in->extra;
    ScalarValue v = read_scalar(ip->frame, &in->sc[0]);
    FILE *out = ip->out;
    fwrite(pf->prefix, 1, pf->prefix_len, out);
    if (pf->arg == PF_ARG_FLOAT) {
        fprintf(out, pf->spec, v.f);
    } else {
        uint64_t u = (uint64_t)v.i;
        long long s = (long long)v.i;
        switch (pf->int_bits) { /* the value as the length modifier's C type reads it */
        case 8: u = (uint8_t)u, s = (int8_t)(uint8_t)u; break;
        case 16: u = (uint16_t)u, s = (int16_t)(uint16_t)u; break;
        case 32: u = (uint32_t)u, s = (int32_t)(uint32_t)u; break;
        default: break;
        }
        if (pf->is_unsigned) fprintf(out, pf->spec, (unsigned long long)u);
        else fprintf(out, pf->spec, s);
    }
    fwrite(pf->suffix, 1, pf->suffix_len, out);
    /* --trace: every record starts a line (--diff-trace reads them), so an unended line ends here */
    if (ip->opts.trace && (pf->suffix_len == 0 || pf->suffix[pf->suffix_len - 1] != '\n')) fputc('\n', out);
    return pc + 1;
}

bool lower_print(LowerCtx *ctx, const Op *op) {
    const Attr *fa = attr_find(&op->attrs, "format");
    if (op->ins.count != 1 || !fa || fa->kind != ATTR_STRING)
        return lower_error(ctx, op, op->loc, "expects a format string and one scalar");
    Instr in = instr_for(op, exec_print);
    if (!scalar_ref(ctx, op, &op->ins.items[0], DT_I32, &in.sc[0])) return false;
    PrintOpFormat *pf = arena_alloc(ctx->ip->arena, sizeof *pf);
    const char *err = NULL;
    if (!print_op_format_parse(ctx->ip->arena, fa->text, in.sc[0].type, pf, &err))
        return lower_error(ctx, op, fa->loc, "%s", err);
    in.extra = pf;
    emit(ctx, &in);
    return true;
}

bool lower_section(LowerCtx *ctx, const Op *op) {
    Block *body = region_block(op, 0);
    return !body || lower_block(ctx, body);
}
