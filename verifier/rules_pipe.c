/* rules_pipe.c - the rules of the inter-core pipe (FIFO) rows (ir/ops_pipe.def), after PTOAS's
 * verifiers (PTO.cpp: verifyFrontendInitCommon, verifyFrontendSplitOp, verifyFrontendPopOp,
 * ReserveBufferOp::verify, ImportReservedBufferOp::verify) and its frontend lowering pass
 * (PTOLowerFrontendPipeOps: A2/A3 pipes go through a GM slot buffer). The tile-location rules are
 * pto-as's own: they name the only producer and consumer tiles the CPU simulator moves through a
 * FIFO (pto-isa cpu/TPush.hpp). The lowered forms (initialize_l2l_pipe, initialize_l2g2l_pipe and
 * tpush / tpop / tfree on their !pto.pipe handle) follow PTO.cpp's InitializeL2G2LPipeOp::verify,
 * InitializeL2LPipeOp::verify, TPushOp::verify, TPopOp::verify, TFreeOp::verify, and the module
 * checks of PTOInferValidatePipeInit and PTOResolveReservedBuffers. Rule IDs are OP.suffix;
 * docs/rules.md lists them. */
#include "vctx.h"

#include <string.h>

/* The function verified now. */
static const Func *current_func(const VerifyCtx *ctx) {
    return ctx->func_index >= 0 && ctx->func_index < ctx->module->n_funcs ? ctx->module->funcs[ctx->func_index] : NULL;
}

/* Ops of code `code` in block b and its nested regions (name: the reserve_buffer name to match, or NULL). */
static int count_ops(const Block *b, OpCode code, const char *name) {
    int n = 0;
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        if (o->code == code) {
            const Attr *a = name ? attr_find(&o->attrs, "name") : NULL;
            if (!name || (a && a->kind == ATTR_STRING && a->text && strcmp(a->text, name) == 0)) n++;
        }
        for (int r = 0; r < o->n_regions; r++) n += count_ops(o->regions[r].block, code, name);
    }
    return n;
}

static int count_in_func(const Func *f, OpCode code, const char *name) {
    return f ? count_ops(f->body.block, code, name) : 0;
}

/* The op must sit in a function of the kernel kind its row names (ELEM: cube or vector). */
static bool check_kernel_kind(VerifyCtx *ctx, const Op *op) {
    const char *want = op_info(op->code)->elem;
    const char *have = func_kernel_kind(current_func(ctx));
    if (have && strcmp(have, want) == 0) return true;
    vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "kernel"),
            "must be inside a %s kernel function (attributes {pto.kernel_kind = #pto.kernel_kind<%s>})", want, want);
    return false;
}

static void check_split(VerifyCtx *ctx, const Op *op) {
    int64_t split = op_attr_value(op, "split", AK_INT, 0);
    if (split < 0 || split > 2)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "split"),
                "expects 'split' to be 0, 1, or 2 (no split, up-down, left-right), got %lld", (long long)split);
}

/* A keyword operand's type must be i32 (the consumer buffer addresses). */
static void check_i32_kwarg(VerifyCtx *ctx, const Op *op, const char *key) {
    for (int k = 0; k < op->n_kwargs; k++) {
        const KeywordArg *kw = &op->kwargs[k];
        if (strcmp(kw->key, key) != 0 || kw->list.count != 1) continue;
        const Type *t = operand_type(&kw->list.items[0]);
        if (t && !(t->kind == TY_SCALAR && t->dtype == DT_I32))
            vreport(ctx, op, kw->list.items[0].loc, SEV_ERROR, op_rule(ctx, op, "type"), "expects '%s' to be i32, got %s",
                    key, type_text(ctx, t));
    }
}

static bool has_kwarg(const Op *op, const char *key) {
    for (int k = 0; k < op->n_kwargs; k++)
        if (strcmp(op->kwargs[k].key, key) == 0) return true;
    return false;
}

static bool is_pipe_init(OpCode code) {
    return code == OP_AIC_INITIALIZE_PIPE || code == OP_AIV_INITIALIZE_PIPE || code == OP_INITIALIZE_L2L_PIPE ||
           code == OP_INITIALIZE_L2G2L_PIPE;
}

/* The !pto.pipe handle a lowered tpush / tpop / tfree names (its last operand), or NULL. */
static const Value *pipe_handle_of(const Op *o) {
    if (o->code != OP_TPUSH && o->code != OP_TPOP && o->code != OP_TFREE) return NULL;
    return o->ins.count ? o->ins.items[o->ins.count - 1].value : NULL;
}

/* Split usage of a logical pipe's push, pop and free ops: with handle NULL the frontend ones of
 * the function (one pipe per function), else the lowered ones on that handle (PTOAS classifies a
 * handle's users). Bit 0: some split = 0, bit 1: some split 1 or 2. */
static unsigned split_usage(const Block *b, const Value *handle) {
    unsigned u = 0;
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        bool counted;
        switch (o->code) {
        case OP_TPUSH_TO_AIV: case OP_TPUSH_TO_AIC: case OP_TPOP_FROM_AIC: case OP_TPOP_FROM_AIV:
        case OP_TFREE_FROM_AIC: case OP_TFREE_FROM_AIV:
            counted = handle == NULL;
            break;
        default:
            counted = handle && pipe_handle_of(o) == handle;
            break;
        }
        if (counted) u |= op_attr_value(o, "split", AK_INT, 0) == 0 ? 1u : 2u;
        for (int r = 0; r < o->n_regions; r++) u |= split_usage(o->regions[r].block, handle);
    }
    return u;
}

/* The split usage of an init op's logical pipe (see split_usage). */
static unsigned init_split_usage(const Func *f, const Op *init) {
    bool lowered = init->code == OP_INITIALIZE_L2L_PIPE || init->code == OP_INITIALIZE_L2G2L_PIPE;
    const Value *handle = lowered && init->n_results ? init->results[0] : NULL;
    if (lowered && !handle) return 0;
    return split_usage(f->body.block, handle);
}

/* The first initialize op (frontend or lowered) of a function, or NULL. */
static const Op *find_init(const Block *b) {
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        if (is_pipe_init(o->code)) return o;
        for (int r = 0; r < o->n_regions; r++) {
            const Op *f = find_init(o->regions[r].block);
            if (f) return f;
        }
    }
    return NULL;
}

/* The function an import_reserved_buffer of f names as its peer, or NULL. */
static const Func *imported_peer(const Module *m, const Block *b) {
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        if (o->code == OP_IMPORT_RESERVED_BUFFER) {
            const Attr *a = attr_find(&o->attrs, "peer_func");
            if (a && a->kind == ATTR_RAW && a->text && a->text[0] == '@') return module_find_func(m, a->text + 1);
        }
        for (int r = 0; r < o->n_regions; r++) {
            const Func *f = imported_peer(m, o->regions[r].block);
            if (f) return f;
        }
    }
    return NULL;
}

/* The peer kernel function of f: the one f imports a buffer from, else one importing from f. */
static const Func *peer_func_of(const Module *m, const Func *f) {
    const Func *p = imported_peer(m, f->body.block);
    for (int i = 0; !p && i < m->n_funcs; i++)
        if (m->funcs[i] != f && imported_peer(m, m->funcs[i]->body.block) == f) p = m->funcs[i];
    return p;
}

/* PTOAS's pipe split inference (PTOInferValidatePipeInit): one logical pipe either splits (1, 2)
 * or does not (0), on both sides, and an explicit nosplit must agree with that. */
static void check_split_usage(VerifyCtx *ctx, const Op *op, const Func *peer, const Op *peer_init) {
    const Func *f = current_func(ctx);
    if (!f) return;
    unsigned mine = init_split_usage(f, op);
    if (mine == 3) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "split-usage"),
                "cannot mix 'split = 0' with 'split = 1' or 'split = 2' on the same logical pipe");
        return;
    }
    unsigned theirs = peer_init ? init_split_usage(peer, peer_init) : 0;
    if (mine && theirs && theirs != 3 && mine != theirs)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "split-usage"),
                "conflicting pipe split usage across peer pipe init ops: this function uses split %s, @%s split %s",
                mine == 1 ? "0" : "1 or 2", peer->name, theirs == 1 ? "0" : "1 or 2");
    const Attr *ns = attr_find(&op->attrs, "nosplit"), *pns = peer_init ? attr_find(&peer_init->attrs, "nosplit") : NULL;
    int64_t v = op_attr_value(op, "nosplit", AK_BOOL, 0), pv = peer_init ? op_attr_value(peer_init, "nosplit", AK_BOOL, 0) : 0;
    if (ns && pns && v != pv)
        vreport(ctx, op, ns->loc, SEV_ERROR, op_rule(ctx, op, "nosplit"),
                "conflicting explicit 'nosplit' across peer pipe init ops (@%s says nosplit = %s)", peer->name,
                pv ? "true" : "false");
    unsigned used = mine ? mine : theirs == 3 ? 0 : theirs;
    if (ns && used && (used == 1) != (v != 0))
        vreport(ctx, op, ns->loc, SEV_ERROR, op_rule(ctx, op, "nosplit"),
                "explicit 'nosplit = %s' conflicts with downstream users that require split = %s", v ? "true" : "false",
                v ? "1 or split = 2" : "0");
}

/* pto.aic_initialize_pipe / pto.aiv_initialize_pipe */
void verify_pipe_init(VerifyCtx *ctx, const Op *op) {
    if (!check_kernel_kind(ctx, op)) return;
    if (count_in_func(current_func(ctx), op->code, NULL) > 1)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "unique"),
                "requires at most one matching initialize_pipe op per function");
    int64_t dir = op_attr_value(op, "dir_mask", AK_INT, 0), slot = op_attr_value(op, "slot_size", AK_INT, 0);
    if (dir != 1 && dir != 2 && dir != 3)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "dir-mask"),
                "expects 'dir_mask' to be 1, 2, or 3 (cube to vector, vector to cube, both), got %lld", (long long)dir);
    if (slot <= 0)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "slot-size"),
                "expects 'slot_size' to be greater than 0, got %lld", (long long)slot);
    check_i32_kwarg(ctx, op, "c2v_consumer_buf");
    check_i32_kwarg(ctx, op, "v2c_consumer_buf");
    const Func *f = current_func(ctx), *peer = f ? peer_func_of(ctx->module, f) : NULL;
    check_split_usage(ctx, op, peer, peer ? find_init(peer->body.block) : NULL);
    if (ctx->target == TARGET_A2A3 && !has_kwarg(op, "gm_slot_buffer"))
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "gm-slot-buffer"),
                "requires 'gm_slot_buffer' on A2/A3, where the pipe's slots are in GM (PTOAS's frontend pipe lowering)");
}

/* The one tile operand of a push, or the result of a pop, must be in the location the simulator
 * moves through this FIFO: acc (cube producer) or vec (vector producer); vec (vector consumer) or
 * mat (cube consumer). */
static void check_pipe_tile_loc(VerifyCtx *ctx, const Op *op, const TileArg *t, TileLoc want) {
    if (t->tile && t->tile->loc != want)
        vreport(ctx, op, t->loc, SEV_ERROR, op_rule(ctx, op, "loc"), "expects %s to be a %s tile, got loc=%s (%s)", t->name,
                tile_loc_name(want), tile_loc_name(t->tile->loc), type_text(ctx, t->type));
}

/* tpush_to_aiv / tpush_to_aic / tfree_from_aic / tfree_from_aiv */
void verify_pipe_split(VerifyCtx *ctx, const Op *op) {
    if (!check_kernel_kind(ctx, op)) return;
    check_split(ctx, op);
    if (op->ins.count == 1) {
        TileArg t = tile_in(op, 0);
        check_pipe_tile_loc(ctx, op, &t, op->code == OP_TPUSH_TO_AIV ? LOC_ACC : LOC_VEC);
    }
}

/* tpop_from_aic / tpop_from_aiv */
void verify_pipe_pop(VerifyCtx *ctx, const Op *op) {
    if (!check_kernel_kind(ctx, op)) return;
    check_split(ctx, op);
    if (op->ins.count == 1) {
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, op_rule(ctx, op, "valid"),
                "expects valid_row and valid_col operands to be provided together");
        return;
    }
    const Value *res = op->n_results ? op->results[0] : NULL;
    if (!res || !res->type || res->type->kind != TY_TILE) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "result"), "expects a tile result (-> !pto.tile_buf<...>)");
        return;
    }
    TileArg t = tile_of_value("result", res);
    check_pipe_tile_loc(ctx, op, &t, op->code == OP_TPOP_FROM_AIC ? LOC_VEC : LOC_MAT);
    bool dynamic = res->type->tile.valid_rows == DIM_DYNAMIC && res->type->tile.valid_cols == DIM_DYNAMIC;
    if (op->ins.count == 2 && !dynamic)
        vreport(ctx, op, t.loc, SEV_ERROR, op_rule(ctx, op, "valid"),
                "expects the result to have a dynamic valid shape (v_row=?, v_col=?) when valid_row/valid_col operands are "
                "provided, got %s", type_text(ctx, res->type));
    for (int i = 0; i < op->ins.count; i++) {
        int64_t v;
        if (const_int_of(&op->ins.items[i], &v) && (v < 0 || v > (i == 0 ? res->type->tile.rows : res->type->tile.cols)))
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, op_rule(ctx, op, "valid"),
                    "%s %lld is outside 0..%lld", i == 0 ? "valid_row" : "valid_col", (long long)v,
                    (long long)(i == 0 ? res->type->tile.rows : res->type->tile.cols));
    }
}

static void check_i32_result(VerifyCtx *ctx, const Op *op) {
    const Value *res = op->n_results ? op->results[0] : NULL;
    if (res && res->type && !(res->type->kind == TY_SCALAR && res->type->dtype == DT_I32))
        vreport(ctx, op, res->type_loc.line ? res->type_loc : op->loc, SEV_ERROR, op_rule(ctx, op, "type"),
                "expects an i32 result (the buffer's address), got %s", type_text(ctx, res->type));
}

/* pto.reserve_buffer */
void verify_reserve_buffer(VerifyCtx *ctx, const Op *op) {
    check_i32_result(ctx, op);
    int64_t size = op_attr_value(op, "size", AK_INT, 0);
    if (size <= 0)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "size"), "expects 'size' to be greater than 0, got %lld",
                (long long)size);
    const Attr *base = attr_find(&op->attrs, "base");
    if (!op_attr_value(op, "auto", AK_BOOL, 1) && !base)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "base"), "expects 'base' when 'auto' is false");
    int64_t b = op_attr_value(op, "base", AK_INT, 0);
    if (base && b < 0)
        vreport(ctx, op, base->loc, SEV_ERROR, op_rule(ctx, op, "base"),
                "expects 'base' to be non-negative when present, got %lld", (long long)b);
    int64_t loc = op_attr_value(op, "location", AK_ADDRESS_SPACE, 0);
    int64_t cap = buffer_capacity_bytes(ctx->target, loc == 1 ? LOC_MAT : LOC_VEC);
    if (size > 0 && b >= 0 && (b > cap || size > cap - b))
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "capacity"),
                "reserves bytes [%lld, %lld) of %s, which holds %lld bytes on %s", (long long)b, (long long)(b + size),
                loc == 1 ? "mat (L1)" : "vec (UB)", (long long)cap, target_label(ctx->target));
    if (count_in_func(current_func(ctx), OP_RESERVE_BUFFER, NULL) > 1)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "unique"), "expects at most one reserve_buffer in the function");
}

/* pto.import_reserved_buffer */
void verify_import_reserved_buffer(VerifyCtx *ctx, const Op *op) {
    check_i32_result(ctx, op);
    if (count_in_func(current_func(ctx), OP_IMPORT_RESERVED_BUFFER, NULL) > 1)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "unique"),
                "expects at most one import_reserved_buffer in the function");
    const Attr *peer = attr_find(&op->attrs, "peer_func"), *name = attr_find(&op->attrs, "name");
    if (!peer || !name || peer->kind != ATTR_RAW || !peer->text || peer->text[0] != '@' || name->kind != ATTR_STRING) return;
    const Func *f = module_find_func(ctx->module, peer->text + 1);
    if (!f) {
        vreport(ctx, op, peer->loc, SEV_ERROR, op_rule(ctx, op, "peer"),
                "expects 'peer_func' to reference an existing func.func, and %s is not defined", peer->text);
        return;
    }
    if (count_in_func(f, OP_RESERVE_BUFFER, name->text) == 0)
        vreport(ctx, op, peer->loc, SEV_ERROR, op_rule(ctx, op, "peer"),
                "expects a matching reserve_buffer {name = \"%s\"} in %s", name->text, peer->text);
}

/* ---- the lowered forms ------------------------------------------------------------------------- */

/* The kernel kind an op runs under: its enclosing pto.section.cube / pto.section.vector, else its
 * function's pto.kernel_kind ("cube", "vector"), else NULL. */
static const char *enclosing_kernel_kind(const VerifyCtx *ctx, const Op *op) {
    for (const Block *b = op->parent; b && b->parent && b->parent->parent; b = b->parent->parent->parent) {
        const Op *owner = b->parent->parent;
        if (owner->code == OP_SECTION_CUBE) return "cube";
        if (owner->code == OP_SECTION_VECTOR) return "vector";
    }
    return func_kernel_kind(current_func(ctx));
}

/* The op that defines an operand's value (NULL for arguments and literals). */
static const Op *defining_op(const Operand *o) {
    return o && o->kind == OPD_VALUE && o->value ? o->value->def : NULL;
}

/* Whether a value is defined by a `code` op (reserve_buffer, import_reserved_buffer) named `name`. */
static bool is_named_buffer(const Value *v, OpCode code, const char *name) {
    const Op *d = v ? v->def : NULL;
    const Attr *a = d && d->code == code ? attr_find(&d->attrs, "name") : NULL;
    return a && a->kind == ATTR_STRING && a->text && strcmp(a->text, name) == 0;
}

/* The first pipe init op in b (and its regions) that takes a buffer of `code` named `name` as an
 * operand or keyword operand, or NULL. */
static const Op *init_using_buffer(const Block *b, OpCode code, const char *name) {
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        if (is_pipe_init(o->code)) {
            for (int i = 0; i < o->ins.count; i++)
                if (is_named_buffer(o->ins.items[i].value, code, name)) return o;
            for (int k = 0; k < o->n_kwargs; k++)
                for (size_t j = 0; j < (size_t)o->kwargs[k].list.count; j++)
                    if (is_named_buffer(o->kwargs[k].list.items[j].value, code, name)) return o;
        }
        for (int r = 0; r < o->n_regions; r++) {
            const Op *f = init_using_buffer(o->regions[r].block, code, name);
            if (f) return f;
        }
    }
    return NULL;
}

/* The other half of a lowered init's logical pipe (PTOAS keys it by the reserve_buffer's owner
 * and name): for a local address from `reserve_buffer {name = N}` the init of another function
 * that imports N from this one, for one from `import_reserved_buffer {name = N, peer_func = @g}`
 * the init of @g that takes its reserve_buffer N. *from_buffer tells whether an address comes
 * from either op; *peer_func is set with the result. */
static const Op *lowered_peer_init(VerifyCtx *ctx, const Op *op, int64_t dir, bool *from_buffer, const Func **peer_func) {
    const Func *f = current_func(ctx);
    const Module *m = ctx->module;
    *from_buffer = false;
    *peer_func = NULL;
    for (int i = op->code == OP_INITIALIZE_L2G2L_PIPE ? 1 : 0, n = 0; i < op->ins.count && n < (dir == 3 ? 2 : 1); i++, n++) {
        const Op *d = defining_op(&op->ins.items[i]);
        const Attr *name = d ? attr_find(&d->attrs, "name") : NULL;
        if (!d || !name || name->kind != ATTR_STRING || !name->text) continue;
        if (d->code == OP_RESERVE_BUFFER) {
            *from_buffer = true;
            for (int g = 0; g < m->n_funcs; g++) {
                const Func *h = m->funcs[g];
                const Op *init = h != f && imported_peer(m, h->body.block) == f
                                     ? init_using_buffer(h->body.block, OP_IMPORT_RESERVED_BUFFER, name->text) : NULL;
                if (init) return *peer_func = h, init;
            }
        } else if (d->code == OP_IMPORT_RESERVED_BUFFER) {
            *from_buffer = true;
            const Attr *peer = attr_find(&d->attrs, "peer_func");
            const Func *owner = peer && peer->kind == ATTR_RAW && peer->text && peer->text[0] == '@'
                                    ? module_find_func(m, peer->text + 1) : NULL;
            const Op *init = owner && owner != f ? init_using_buffer(owner->body.block, OP_RESERVE_BUFFER, name->text) : NULL;
            if (init) return *peer_func = owner, init;
        }
    }
    return NULL;
}

/* PTOResolveReservedBuffers: a local address from reserve_buffer / import_reserved_buffer makes the
 * init one half of a peer pair (the other function must hold the other init); without one the init
 * must say its flag_base. An explicit flag_base must agree with the peer init's. Then
 * PTOInferValidatePipeInit's split checks on the pair. */
static void check_peer_pair(VerifyCtx *ctx, const Op *op, int64_t dir) {
    bool from_buffer;
    const Func *peer;
    const Op *peer_init = lowered_peer_init(ctx, op, dir, &from_buffer, &peer);
    const Attr *flag = attr_find(&op->attrs, "flag_base");
    if (!from_buffer && !flag)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "flag-base"),
                "requires local_addr to come from pto.reserve_buffer or pto.import_reserved_buffer when 'flag_base' is "
                "not explicit");
    if (from_buffer && !peer_init)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "peer"),
                "requires a complete peer init pair when local_addr comes from pto.reserve_buffer or "
                "pto.import_reserved_buffer (no init of the peer function takes the matching buffer)");
    const Attr *peer_flag = peer_init ? attr_find(&peer_init->attrs, "flag_base") : NULL;
    int64_t mine = op_attr_value(op, "flag_base", AK_INT, 0), theirs = peer_init ? op_attr_value(peer_init, "flag_base", AK_INT, 0) : 0;
    if (flag && peer_flag && mine != theirs)
        vreport(ctx, op, flag->loc, SEV_ERROR, op_rule(ctx, op, "flag-base"),
                "conflicting explicit flag_base across peer pipe inits (@%s says flag_base = %lld)", peer->name,
                (long long)theirs);
    check_split_usage(ctx, op, peer, peer_init);
}

/* pto.initialize_l2g2l_pipe / pto.initialize_l2l_pipe */
void verify_pipe_handle_init(VerifyCtx *ctx, const Op *op) {
    int64_t dir = op_attr_value(op, "dir_mask", AK_INT, 0), slot_size = op_attr_value(op, "slot_size", AK_INT, 0);
    int64_t slot_num = op_attr_value(op, "slot_num", AK_INT, 0);
    bool shape_ok = true;
    if (dir != 1 && dir != 2 && dir != 3)
        shape_ok = false, vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "dir-mask"),
                                  "expects 'dir_mask' to be 1, 2, or 3 (cube to vector, vector to cube, both), got %lld",
                                  (long long)dir);
    if (slot_size <= 0)
        shape_ok = false, vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "slot-size"),
                                  "expects 'slot_size' to be greater than 0, got %lld", (long long)slot_size);
    if (slot_num != 4 && slot_num != 8)
        shape_ok = false, vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "slot-num"),
                                  "expects 'slot_num' to be 4 or 8, got %lld", (long long)slot_num);
    const Attr *flag = attr_find(&op->attrs, "flag_base");
    if (flag && op_attr_value(op, "flag_base", AK_INT, 0) < 0)
        shape_ok = false, vreport(ctx, op, flag->loc, SEV_ERROR, op_rule(ctx, op, "flag-base"),
                                  "expects 'flag_base' to be non-negative when present, got %lld",
                                  (long long)op_attr_value(op, "flag_base", AK_INT, 0));
    const Attr *local = attr_find(&op->attrs, "local_slot_num");
    int64_t lsn = op_attr_value(op, "local_slot_num", AK_INT, 0);
    if (local && lsn <= 0)
        vreport(ctx, op, local->loc, SEV_ERROR, op_rule(ctx, op, "local-slot-num"),
                "expects 'local_slot_num' to be greater than 0, got %lld", (long long)lsn);
    else if (local && lsn > slot_num)
        vreport(ctx, op, local->loc, SEV_ERROR, op_rule(ctx, op, "local-slot-num"),
                "expects 'local_slot_num' to be less than or equal to slot_num (%lld), got %lld", (long long)slot_num,
                (long long)lsn);
    int first_local = op->code == OP_INITIALIZE_L2G2L_PIPE ? 1 : 0;
    bool has_peer = op->ins.count > first_local + 1;
    if (dir == 3 && !has_peer)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "peer-local-addr"),
                "expects 'peer_local_addr' when dir_mask is 3 (the vector-to-cube consumer buffer)");
    if (dir != 3 && has_peer)
        vreport(ctx, op, op->ins.items[first_local + 1].loc, SEV_ERROR, op_rule(ctx, op, "peer-local-addr"),
                "'peer_local_addr' is only allowed when dir_mask is 3");
    for (int i = first_local; i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && !(t->kind == TY_SCALAR && t->dtype == DT_I32))
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, op_rule(ctx, op, "type"),
                    "expects '%s' to be i32 (a consumer buffer's address), got %s",
                    i == first_local ? "local_addr" : "peer_local_addr", type_text(ctx, t));
    }
    if (first_local && ctx->facts) { /* a memref GM slot buffer (PTOAS's tests pass one): a memref argument
                                      * pto-as reads, as set_ffts's operand (verifier.c, TYPE.memref) */
        const Operand *gm = &op->ins.items[0];
        const Type *t = operand_type(gm);
        if (t && t->kind == TY_MEMREF && gm->value && !gm->value->def) heap_vec_push(&ctx->facts->ffts_operands, gm->value);
    }
    if (!shape_ok) return; /* PTOAS stops at its shape checks before the module passes */
    check_peer_pair(ctx, op, dir);
}

/* pto.tpush / pto.tpop / pto.tfree on a !pto.pipe */
void verify_pipe_handle_op(VerifyCtx *ctx, const Op *op) {
    const char *kind = enclosing_kernel_kind(ctx, op);
    if (!kind) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "kernel"),
                "must be inside pto.section.cube/vector or a kernel_kind function");
        return;
    }
    const Operand *pipe = op->ins.count ? &op->ins.items[op->ins.count - 1] : NULL;
    const Op *init = defining_op(pipe);
    if (pipe && (!init || (init->code != OP_INITIALIZE_L2L_PIPE && init->code != OP_INITIALIZE_L2G2L_PIPE))) {
        vreport(ctx, op, pipe->loc, SEV_ERROR, op_rule(ctx, op, "pipe-handle"),
                "pipe_handle must be produced by pto.initialize_l2l_pipe or pto.initialize_l2g2l_pipe");
        return;
    }
    check_split(ctx, op);
    if (op->code == OP_TFREE || op->ins.count < 2) return;
    TileArg t = tile_in(op, 0);
    if (!t.tile) return;
    bool push = op->code == OP_TPUSH, cube = strcmp(kind, "cube") == 0;
    TileLoc loc = t.tile->loc;
    if (push ? loc != LOC_ACC && loc != LOC_VEC : loc != LOC_VEC && loc != LOC_MAT) {
        vreport(ctx, op, t.loc, SEV_ERROR, op_rule(ctx, op, "loc"), "%s, got loc=%s (%s)",
                push ? "tile type must map to a supported producer pipe (acc or vec)"
                     : "tile type and target arch must map to a supported consumer pipe (vec or mat)",
                tile_loc_name(loc), type_text(ctx, t.type));
        return;
    }
    /* pto-as's own: the only tiles the simulator moves from and into each kind of core */
    TileLoc want = push ? (cube ? LOC_ACC : LOC_VEC) : (cube ? LOC_MAT : LOC_VEC);
    if (loc != want)
        vreport(ctx, op, t.loc, SEV_ERROR, op_rule(ctx, op, "core-loc"),
                "expects tile to be a %s tile in a %s kernel (a %s core %s through the pipe), got loc=%s (%s)",
                tile_loc_name(want), kind, kind, push ? (cube ? "pushes acc tiles" : "pushes vec tiles")
                                                       : (cube ? "pops into mat tiles" : "pops into vec tiles"),
                tile_loc_name(loc), type_text(ctx, t.type));
}

/* pto.declare_tile: its result is a tile (PTOAS: a PTODpsType; pto-as reads no memref) */
void verify_declare_tile(VerifyCtx *ctx, const Op *op) {
    const Value *res = op->n_results ? op->results[0] : NULL;
    if (res && res->type && res->type->kind != TY_TILE && res->type->kind != TY_INVALID)
        vreport(ctx, op, res->type_loc.line ? res->type_loc : op->loc, SEV_ERROR, op_rule(ctx, op, "result"),
                "expects a tile result (-> !pto.tile_buf<...>), got %s", type_text(ctx, res->type));
}
