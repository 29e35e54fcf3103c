/* ops_pipe.c - the inter-core pipe (FIFO) rows (ir/ops_pipe.def) and the cores they join.
 *
 * When a module uses FIFO ops, the entry's func.call of a cube kernel function starts one core and
 * its call of a vector kernel function starts two (its sub-blocks, get_subblock_idx 0 and 1, each
 * with its own UB); the last of a run of such calls runs them all as coroutines (exec.c,
 * interp_run_cores): each core runs until it returns or waits on a FIFO (a pop with no filled slot,
 * a push with no free slot), then the next one runs. Every slot carries the data the simulator's
 * TPUSH writes for each consumer lane (pto-isa cpu/TPush.hpp: TPush_c2v, TPush_v2c), as linear
 * row-major elements; TPOP places the consumer's tile on its slot of the consumer's reserved buffer
 * and copies the lane's elements into its valid region with the tile's own row stride
 * (CopyLinearToTile). docs/execution.md describes the model and its limits. */
#include "interp_impl.h"

#include <stdlib.h>
#include <string.h>

static bool block_uses_pipes(const Block *b) {
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        if (op_sig_style(op_info(o->code)) == SIG_PIPE || op_sig_style(op_info(o->code)) == SIG_PIPE_INIT) return true;
        for (int r = 0; r < o->n_regions; r++)
            if (block_uses_pipes(o->regions[r].block)) return true;
    }
    return false;
}

bool module_uses_pipes(const Module *m) {
    for (int i = 0; i < m->n_funcs; i++)
        if (block_uses_pipes(m->funcs[i]->body.block)) return true;
    return false;
}

void pipe_runtime_free(Interp *ip) {
    PipeRuntime *pr = ip->pipes;
    if (!pr) return;
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < PIPE_MAX_SLOTS; s++)
            for (int l = 0; l < PIPE_VECTOR_SUBBLOCKS; l++) free(pr->fifo[d].lane[s][l]);
    for (int i = 0; i < pr->n_cores; i++) free(pr->cores[i].ub);
    free(pr);
    ip->pipes = NULL;
}

/* ---- kernel calls -------------------------------------------------------------------------------- */

int32_t exec_spawn_kernel(Interp *ip, const Instr *in, int32_t pc) {
    const CallInfo *ci = in->extra;
    if (!ip->pipes && !(ip->pipes = calloc(1, sizeof *ip->pipes))) return rt_error(ip, in, "out of host memory");
    PipeRuntime *pr = ip->pipes;
    if (pr->running) return rt_error(ip, in, "calls a kernel function from inside a core; pto-run starts cores from the entry only");
    bool vector = in->b & 1;
    int n = vector ? PIPE_VECTOR_SUBBLOCKS : 1;
    for (int s = 0; s < n; s++) {
        if (pr->n_cores == PIPE_MAX_CORES)
            return rt_error(ip, in, "starts more than %d cores (cube functions and vector sub-blocks)", PIPE_MAX_CORES);
        Frame *callee = call_frame_push(ip, in, pc);
        if (!callee) return PC_ERROR;
        callee->core_root = true;
        PipeCore *c = &pr->cores[pr->n_cores++];
        memset(c, 0, sizeof *c);
        c->frame = callee;
        c->pc = ip->funcs[ci->callee].entry_pc;
        c->depth = ip->depth + 1;
        c->vector = vector;
        c->subblock = s;
        c->call = in;
        if (s > 0 && !(c->ub = calloc(1, (size_t)ip->buf_size[LOC_VEC])))
            return rt_error(ip, in, "out of host memory for the UB of vector sub-block %d", s);
    }
    if ((in->b & 2) && !interp_run_cores(ip, in)) return PC_ERROR;
    return pc + 1;
}

/* ---- buffers and initialisation ------------------------------------------------------------------- */

/* The byte offset of a reserve_buffer's region in its memory: `base`, or for `auto = true` the top
 * of the memory (pto-run places auto tiles outside the on-chip buffers, so that region collides
 * only with manually placed tiles there), 512-byte aligned. */
static int64_t reserve_offset(const Op *op, Target target) {
    int64_t size = op_attr_value(op, "size", AK_INT, 0);
    if (!op_attr_value(op, "auto", AK_BOOL, 1)) return op_attr_value(op, "base", AK_INT, 0);
    TileLoc loc = op_attr_value(op, "location", AK_ADDRESS_SPACE, 0) == 1 ? LOC_MAT : LOC_VEC;
    int64_t off = buffer_capacity_bytes(target, loc) - size;
    return off < 0 ? 0 : off & ~(int64_t)511;
}

static const Op *find_reserve(const Block *b, const char *name) {
    for (const Op *o = b ? b->first : NULL; o; o = o->next) {
        if (o->code == OP_RESERVE_BUFFER) {
            const Attr *a = attr_find(&o->attrs, "name");
            if (a && a->kind == ATTR_STRING && a->text && strcmp(a->text, name) == 0) return o;
        }
        for (int r = 0; r < o->n_regions; r++) {
            const Op *f = find_reserve(o->regions[r].block, name);
            if (f) return f;
        }
    }
    return NULL;
}

static int32_t exec_set_i32(Interp *ip, const Instr *in, int32_t pc) {
    ip->frame->vals[in->dst_slot].i = in->a;
    return pc + 1;
}

static bool lower_i32_result(LowerCtx *ctx, const Op *op, int64_t value) {
    const Value *r = op->n_results ? op->results[0] : NULL;
    if (!r || r->id >= ctx->func->n_values) return lower_error(ctx, op, (SrcLoc){0}, "has no result");
    if (value < 0 || value > INT32_MAX) return lower_error(ctx, op, (SrcLoc){0}, "address %lld does not fit i32", (long long)value);
    Instr in = instr_for(op, exec_set_i32);
    in.dst_slot = (int32_t)r->id;
    in.a = (int32_t)value;
    emit(ctx, &in);
    return true;
}

bool lower_reserve_buffer(LowerCtx *ctx, const Op *op) {
    return lower_i32_result(ctx, op, reserve_offset(op, ctx->ip->module->file_target));
}

bool lower_import_reserved_buffer(LowerCtx *ctx, const Op *op) {
    const Attr *peer = attr_find(&op->attrs, "peer_func"), *name = attr_find(&op->attrs, "name");
    const Func *f = peer && peer->text && peer->text[0] == '@' ? module_find_func(ctx->ip->module, peer->text + 1) : NULL;
    const Op *res = f && name && name->kind == ATTR_STRING ? find_reserve(f->body.block, name->text) : NULL;
    if (!res) return lower_error(ctx, op, (SrcLoc){0}, "names no reserve_buffer of its peer function");
    return lower_i32_result(ctx, op, reserve_offset(res, ctx->ip->module->file_target));
}

/* The core running now; NULL (reported) outside a kernel group. */
static PipeCore *running_core(Interp *ip, const Instr *in) {
    PipeCore *c = ip->pipes ? ip->pipes->running : NULL;
    if (!c)
        rt_error(ip, in, "runs outside a cube or vector kernel function started by the entry's func.call; pto-run runs "
                         "FIFO operations only in kernel functions the entry calls (docs/execution.md)");
    return c;
}

/* in.a of an init: dir_mask (bits 0..3), slot_num (bits 4..11), PIPE_INIT_GM: the slots pass through
 * the GM buffer the pointer in slot in.dst_slot names. */
enum { PIPE_INIT_GM = 1 << 12 };

static int32_t exec_pipe_init(Interp *ip, const Instr *in, int32_t pc) {
    PipeCore *c = running_core(ip, in);
    if (!c) return PC_ERROR;
    int dir_mask = in->a & 15;
    int64_t slot_size = in->b;
    int32_t slot_num = (in->a >> 4) & 255;
    PipeGm gm = {0};
    if (in->a & PIPE_INIT_GM) {
        const GmView *p = &ip->frame->vals[in->dst_slot].view;
        if (p->buffer < 0 || p->buffer >= ip->n_gm) return rt_error(ip, in, "GM slot buffer does not name a GM buffer");
        int64_t es = (int64_t)ip->gm[p->buffer].elem_size;
        if (p->offset < 0 || p->offset > INT64_MAX / es) return rt_error(ip, in, "GM slot buffer offset overflows 64 bits");
        gm = (PipeGm){true, p->buffer, p->offset * es};
    }
    for (int d = 0; d < 2; d++) {
        if (!(dir_mask & (1 << d))) continue;
        PipeFifo *q = &ip->pipes->fifo[d];
        if (q->slot_num && (q->slot_num != slot_num || q->slot_size != slot_size))
            return rt_error(ip, in, "sets up the %s pipe with %d slots of %lld bytes, but its peer set it up with %d slots of "
                                    "%lld bytes (dir_mask, slot_num and slot_size must agree)",
                            d ? "vector-to-cube" : "cube-to-vector", slot_num, (long long)slot_size, q->slot_num,
                            (long long)q->slot_size);
        q->slot_num = slot_num;
        q->slot_size = slot_size;
        bool consumer = d == 0 ? c->vector : !c->vector;
        const PipeGm *other = &q->gm[!consumer];
        if ((consumer ? q->producer_ready : q->consumer_ready) && other->on != gm.on)
            return rt_error(ip, in, "sets up the %s pipe %s GM slot buffer, but its peer set it up %s one (both sides pass the "
                                    "slots through GM, or neither)",
                            d ? "vector-to-cube" : "cube-to-vector", gm.on ? "with a" : "without a", gm.on ? "without" : "with");
        q->gm[consumer] = gm;
        if (consumer) {
            q->consumer_ready = true;
            q->consumer_offset[c->vector ? c->subblock : 0] = read_int(ip->frame, &in->sc[d]);
        } else {
            q->producer_ready = true;
        }
    }
    return pc + 1;
}

/* The frontend inits (aic/aiv_initialize_pipe: PTOAS's slot counts, 8 or 4 for dir_mask = 3; the
 * gm_slot_buffer used on A2/A3, where PTOAS lowers them to initialize_l2g2l_pipe) and the lowered
 * ones (initialize_l2l_pipe, initialize_l2g2l_pipe: slot_num as written; local_addr the c2v
 * consumer buffer, or v2c for dir_mask = 2, peer_local_addr the v2c one for dir_mask = 3). */
bool lower_pipe_init(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_pipe_init);
    int64_t dir = op_attr_value(op, "dir_mask", AK_INT, 0);
    bool frontend = op->code == OP_AIC_INITIALIZE_PIPE || op->code == OP_AIV_INITIALIZE_PIPE;
    int64_t slot_num = frontend ? (dir == 3 ? 4 : 8) : op_attr_value(op, "slot_num", AK_INT, 0);
    if (dir < 1 || dir > 3 || slot_num < 1 || slot_num > PIPE_MAX_SLOTS)
        return lower_error(ctx, op, (SrcLoc){0}, "has dir_mask %lld and %lld slots (1..3, 1..%d)", (long long)dir,
                           (long long)slot_num, PIPE_MAX_SLOTS);
    in.a = (int32_t)(dir | slot_num << 4);
    in.b = (int32_t)op_attr_value(op, "slot_size", AK_INT, 0);
    const Operand *gm = NULL, *bufs[2] = {NULL, NULL};
    if (frontend) {
        const char *keys[2] = {"c2v_consumer_buf", "v2c_consumer_buf"};
        for (int d = 0; d < 2; d++) {
            const KeywordArg *kw = op_kwarg(op, keys[d]);
            if (!kw || kw->list.count != 1) return lower_error(ctx, op, (SrcLoc){0}, "has no '%s'", keys[d]);
            bufs[d] = &kw->list.items[0];
        }
        const KeywordArg *g = op_kwarg(op, "gm_slot_buffer");
        if (g && g->list.count == 1 && ctx->ip->opts.target == TARGET_A2A3) gm = &g->list.items[0];
    } else {
        int first = op->code == OP_INITIALIZE_L2G2L_PIPE ? 1 : 0;
        if (op->ins.count <= first) return lower_error(ctx, op, (SrcLoc){0}, "has no local_addr");
        if (first) gm = &op->ins.items[0];
        bufs[dir == 2 ? 1 : 0] = &op->ins.items[first];
        if (dir == 3 && op->ins.count > first + 1) bufs[1] = &op->ins.items[first + 1];
    }
    for (int d = 0; d < 2; d++) {
        if (!bufs[d]) { /* not a consumer buffer of this pipe */
            in.sc[d] = (ScalarRef){.slot = -1, .type = DT_I32};
            continue;
        }
        if (!scalar_ref(ctx, op, bufs[d], DT_I32, &in.sc[d])) return false;
    }
    if (gm) {
        if (gm->kind != OPD_VALUE || !gm->value || !gm->value->type || gm->value->type->kind != TY_PTR)
            return emit_unsupported(ctx, op, "runs with a !pto.ptr GM slot buffer only (a memref one is IR after memref "
                                             "lowering)");
        in.dst_slot = value_slot(ctx, op, gm);
        if (in.dst_slot < 0) return false;
        in.a |= PIPE_INIT_GM;
    }
    emit(ctx, &in);
    return true;
}

/* ---- push, pop, free --------------------------------------------------------------------------- */

static int32_t wait_here(Interp *ip, int32_t pc) {
    ip->yield_pc = pc;
    return PC_YIELD;
}

/* The bytes [off, off + n) of a GM slot buffer, the buffer grown to hold them (as a view reaching
 * them would); a write marks their elements written. NULL after a run-time error. */
static uint8_t *gm_slot_bytes(Interp *ip, const Instr *in, const PipeGm *g, int64_t off, int64_t n, bool write) {
    GmBuffer *b = &ip->gm[g->buffer];
    int64_t es = (int64_t)b->elem_size, end;
    if (!checked_add_i64(g->byte, off + n, &end) || end > INT64_MAX - es) {
        rt_error(ip, in, "GM slot offset overflows 64 bits");
        return NULL;
    }
    if (!gm_ensure(ip, in, g->buffer, (end + es - 1) / es)) return NULL;
    if (write && b->written)
        for (int64_t e = (g->byte + off) / es; e < (end + es - 1) / es; e++) b->written[e] = 1;
    return b->data + g->byte + off;
}

/* The simulator's GM slot layout (pto-isa cpu/TPush.hpp TPush_gm, TPop.hpp popTileFromGMFiFo): the
 * byte offset in slot s of the first element a lane writes or reads, and its row stride in
 * elements. split = 0: the producer's valid region, linear (stride: its valid columns). Otherwise
 * the producer's tile as a row-major image of its rows x cols: C2V the cube's whole tile, the vector
 * lanes reading rows [l*R, (l+1)*R) (up-down) or columns [l*C, (l+1)*C) (left-right) of it; V2C
 * vector lane l writing its R x C tile at row l*R (up-down, stride C) or column l*C (left-right,
 * stride 2C) of the cube's image. R x C: the lane's own tile. */
static int64_t gm_lane_offset(bool vector_side, int split, int64_t lane, int64_t rows, int64_t cols, size_t es,
                              int64_t *stride) {
    *stride = vector_side && split == 2 ? 2 * cols : cols;
    if (!vector_side || split == 0) return 0;
    return split == 1 ? lane * rows * *stride * (int64_t)es : lane * cols * (int64_t)es;
}

/* Whether every producer lane of slot s has pushed its part. */
static bool slot_complete(const PipeFifo *q, int d, int s) {
    uint8_t need = d == 1 && q->split[s] != 0 ? 3 : 1;
    return q->pushed[s] != 0 && (q->pushed[s] & need) == need;
}

/* in.b of a push, pop or free: its direction (0 C2V, 1 V2C), or PIPE_DIR_OF_CORE for the lowered
 * forms, whose direction is the core's (a cube core pushes C2V and pops V2C, a vector core the
 * opposite; pto-isa cpu/TPush.hpp picks it by the tile's location, which the verifier ties to the core). */
enum { PIPE_DIR_OF_CORE = -1 };

static int32_t exec_pipe_push(Interp *ip, const Instr *in, int32_t pc) {
    PipeCore *c = running_core(ip, in);
    if (!c) return PC_ERROR;
    int d = in->b == PIPE_DIR_OF_CORE ? c->vector : in->b, split = in->a;
    PipeFifo *q = &ip->pipes->fifo[d];
    if (!q->producer_ready)
        return rt_error(ip, in, "pushes before this core's initialize_pipe set up the %s direction (dir_mask bit %d)",
                        d ? "vector-to-cube" : "cube-to-vector", d + 1);
    int lane = d == 1 ? (int)c->subblock : 0;
    if (d == 1 && split == 0 && c->subblock != 0) return pc + 1; /* the simulator's inactive no-split lane */
    const TileRef *t = &in->t[0];
    TileView *v = use_tile(ip, in, t);
    if (!v) return PC_ERROR;
    int64_t n = q->push_next[lane];
    if (n - q->head >= q->slot_num) return wait_here(ip, pc); /* every slot is taken */
    int s = (int)(n % q->slot_num);
    size_t es = dtype_size(t->dtype);
    for (int l = 0; l < PIPE_VECTOR_SUBBLOCKS; l++)
        if (!q->lane[s][l] && !(q->lane[s][l] = calloc(1, (size_t)q->slot_size)))
            return rt_error(ip, in, "out of host memory for a FIFO slot");
    if (q->pushed[s] == 0) {
        q->split[s] = (int8_t)split;
        q->dtype[s] = t->dtype;
        if (d == 1 && split == 0) memset(q->lane[s][0], 0, (size_t)q->slot_size);
    } else if (q->split[s] != split || q->dtype[s] != t->dtype) {
        return rt_error(ip, in, "pushes split=%d %s data into a slot the other sub-block filled with split=%d %s", split,
                        dtype_name(t->dtype), q->split[s], dtype_name(q->dtype[s]));
    }
    if (q->gm[0].on) { /* TPush_gm: through the producer's GM slot buffer */
        int64_t stride, off = gm_lane_offset(d == 1, split, c->subblock, t->rows, t->cols, es, &stride);
        if (split == 0) stride = v->vc;
        int64_t extent = v->vr > 0 && v->vc > 0 ? off + ((v->vr - 1) * stride + v->vc) * (int64_t)es : 0;
        if (extent > q->slot_size)
            return rt_error(ip, in, "writes bytes [%lld, %lld) of its GM slot, more than slot_size %lld bytes (a %dx%d %s tile%s)",
                            (long long)off, (long long)extent, (long long)q->slot_size, t->rows, t->cols, dtype_name(t->dtype),
                            split ? ", whole in the slot" : "");
        uint8_t *base = extent ? gm_slot_bytes(ip, in, &q->gm[0], (int64_t)s * q->slot_size + off, extent - off, true) : NULL;
        if (extent && !base) return PC_ERROR;
        for (int64_t r = 0; r < v->vr && base; r++)
            for (int64_t cc = 0; cc < v->vc; cc++)
                memcpy(base + (size_t)(r * stride + cc) * es, v->base + tile_elem_offset(t, r, cc) * es, es);
        q->pushed[s] |= d == 0 ? 1u : (uint8_t)(1u << lane);
    } else if (d == 0) { /* TPush_c2v: each consumer lane's rows x cols window, linear */
        int lanes = split ? 2 : 1;
        int64_t rows = split == 0 ? v->vr : split == 1 ? t->rows / 2 : t->rows;
        int64_t cols = split == 0 ? v->vc : split == 2 ? t->cols / 2 : t->cols;
        if (rows * cols * (int64_t)es > q->slot_size)
            return rt_error(ip, in, "pushes %lldx%lld %s elements per consumer, more than slot_size %lld bytes",
                            (long long)rows, (long long)cols, dtype_name(t->dtype), (long long)q->slot_size);
        for (int l = 0; l < lanes; l++) {
            int64_t r0 = split == 1 ? l * rows : 0, c0 = split == 2 ? l * cols : 0;
            for (int64_t r = 0; r < rows; r++)
                for (int64_t cc = 0; cc < cols; cc++)
                    memcpy(q->lane[s][l] + (size_t)(r * cols + cc) * es, v->base + tile_elem_offset(t, r + r0, cc + c0) * es, es);
        }
        q->pushed[s] = 1;
    } else { /* TPush_v2c: the lane's tile into its part of one row-major consumer image */
        int64_t cons_rows = split == 1 ? 2 * (int64_t)t->rows : t->rows, cons_cols = split == 2 ? 2 * (int64_t)t->cols : t->cols;
        if (cons_rows * cons_cols * (int64_t)es > q->slot_size)
            return rt_error(ip, in, "pushes into a %lldx%lld %s slot image, more than slot_size %lld bytes",
                            (long long)cons_rows, (long long)cons_cols, dtype_name(t->dtype), (long long)q->slot_size);
        int64_t r0 = split == 1 ? c->subblock * t->rows : 0, c0 = split == 2 ? c->subblock * t->cols : 0;
        for (int64_t r = 0; r < v->vr; r++)
            for (int64_t cc = 0; cc < v->vc; cc++)
                memcpy(q->lane[s][0] + (size_t)((r + r0) * cons_cols + cc + c0) * es, v->base + tile_elem_offset(t, r, cc) * es, es);
        q->pushed[s] |= (uint8_t)(1u << lane);
    }
    q->push_next[lane]++;
    return pc + 1;
}

/* The checkers' view of a push: it reads the valid region of its tile, as the NPU's TPUSH stores
 * it (the simulator's split copy reads whole rows and columns; pto-run copies those), nothing in
 * an inactive vector lane. */
static int pipe_push_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Value *v = in->op && in->op->ins.count ? in->op->ins.items[0].value : NULL;
    const TileView *tv = v ? &ip->frame->vals[in->t[0].slot].tile : NULL;
    const PipeCore *c = ip->pipes ? ip->pipes->running : NULL;
    if (!tv || !(tv->flags & VIEW_DEFINED) || !c) return -1;
    int d = in->b == PIPE_DIR_OF_CORE ? c->vector : in->b, split = in->a;
    if (d == 1 && split == 0 && c->subblock != 0) return 0;
    acc[0] = (TileWindowAccess){.value = v, .rows = tv->vr, .cols = tv->vc};
    return 1;
}

/* the tile of tpush_to_aiv / tpush_to_aic / tpush: its first operand */
bool lower_pipe_push(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_pipe_push);
    in.footprint = pipe_push_footprint;
    if (op->ins.count < 1 || !tile_ref(ctx, op, &op->ins.items[0], &in.t[0])) return false;
    in.a = (int32_t)op_attr_value(op, "split", AK_INT, 0);
    in.b = op->code == OP_TPUSH ? PIPE_DIR_OF_CORE : op->code == OP_TPUSH_TO_AIC; /* 1: vector to cube */
    emit(ctx, &in);
    return true;
}

enum { POP_VALID = 16 };

static int32_t exec_pipe_pop(Interp *ip, const Instr *in, int32_t pc) {
    PipeCore *c = running_core(ip, in);
    if (!c) return PC_ERROR;
    int d = in->b == PIPE_DIR_OF_CORE ? !c->vector : in->b, split = in->a & 3;
    PipeFifo *q = &ip->pipes->fifo[d];
    if (!q->consumer_ready)
        return rt_error(ip, in, "pops before this core's initialize_pipe set up the %s direction (dir_mask bit %d)",
                        d ? "vector-to-cube" : "cube-to-vector", d + 1);
    int lane = d == 0 ? (int)c->subblock : 0;
    const TileRef *t = &in->t[0];
    Frame *f = ip->frame;
    int64_t vr = t->static_vr >= 0 ? t->static_vr : t->rows, vc = t->static_vc >= 0 ? t->static_vc : t->cols;
    if (in->a & POP_VALID) {
        vr = read_int(f, &in->sc[0]);
        vc = read_int(f, &in->sc[1]);
        if (vr < 0 || vr > t->rows || vc < 0 || vc > t->cols)
            return rt_error(ip, in, "valid shape %lldx%lld is outside the %dx%d tile", (long long)vr, (long long)vc, t->rows,
                            t->cols);
    }
    bool inactive = d == 0 && split == 0 && c->subblock != 0; /* zero-filled, no pop (TPOP_IMPL) */
    int64_t n = q->pop_next[lane];
    int64_t started = q->push_next[0] > q->push_next[1] ? q->push_next[0] : q->push_next[1];
    if (!inactive && (n >= started || !slot_complete(q, d, (int)(n % q->slot_num))))
        return wait_here(ip, pc); /* no filled slot yet */
    int s = (int)(n % q->slot_num);
    if (!inactive && (q->split[s] != split || q->dtype[s] != t->dtype))
        return rt_error(ip, in, "pops a split=%d %s tile from a slot pushed with split=%d as %s", split, dtype_name(t->dtype),
                        q->split[s], dtype_name(q->dtype[s]));
    if (ip->sync && !inactive && n >= q->slot_num) sync_checker_fifo_pop(ip->sync, d, s, q->gm[1].on); /* a slot used again */
    int64_t off = q->consumer_offset[lane] + (int64_t)s * q->slot_size;
    if (!check_placement(ip, in, in->op ? in->op->loc : in->loc, t->loc, off, t->footprint, "the popped tile")) return PC_ERROR;
    TileView *v = &f->vals[t->slot].tile;
    v->base = ip->buf[t->loc] + off;
    v->auto_slot = -1;
    v->frame_serial = 0;
    v->vr = (int32_t)vr;
    v->vc = (int32_t)vc;
    v->flags = VIEW_DEFINED;
    size_t es = dtype_size(t->dtype);
    const uint8_t *src = inactive ? NULL : q->lane[s][d == 0 ? lane : 0];
    int64_t stride = t->cols, gm_off = 0;
    if (q->gm[1].on && !inactive) /* popTileFromGMFiFo: from the consumer's GM slot buffer */
        gm_off = gm_lane_offset(d == 0, split, lane, t->rows, t->cols, es, &stride);
    int64_t extent = vr > 0 && vc > 0 ? gm_off + ((vr - 1) * stride + vc) * (int64_t)es : 0;
    if (extent > q->slot_size)
        return rt_error(ip, in, "reads %lldx%lld elements with a row stride of %lld from byte %lld of a slot of %lld bytes",
                        (long long)vr, (long long)vc, (long long)stride, (long long)gm_off, (long long)q->slot_size);
    if (q->gm[1].on && !inactive && extent &&
        !(src = gm_slot_bytes(ip, in, &q->gm[1], (int64_t)s * q->slot_size + gm_off, extent - gm_off, false)))
        return PC_ERROR;
    for (int64_t r = 0; r < vr; r++)
        for (int64_t cc = 0; cc < vc; cc++) {
            uint8_t *dst = v->base + tile_elem_offset(t, r, cc) * es;
            if (inactive) memset(dst, 0, es);
            else memcpy(dst, src + (size_t)(r * stride + cc) * es, es);
        }
    if (!inactive) q->pop_next[lane]++;
    return pc + 1;
}

/* The checkers' view of a pop: it writes the valid region of the tile it defines or binds (known
 * once it ran: the tile's slot and valid shape are the pop's). */
static int pipe_pop_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const Value *v = !op ? NULL : op->n_results ? op->results[0] : op->ins.count ? op->ins.items[0].value : NULL;
    const TileView *tv = v ? &ip->frame->vals[in->t[0].slot].tile : NULL;
    if (!tv || !(tv->flags & VIEW_DEFINED)) return 0;
    acc[0] = (TileWindowAccess){.value = v, .rows = tv->vr, .cols = tv->vc, .write = true};
    return 1;
}

/* tpop_from_aic / tpop_from_aiv define their result; tpop rebinds its tile operand (often a
 * pto.declare_tile) the same way */
bool lower_pipe_pop(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_pipe_pop);
    in.footprint = pipe_pop_footprint;
    if (op->code == OP_TPOP) {
        if (op->ins.count < 1 || !tile_ref(ctx, op, &op->ins.items[0], &in.t[0])) return false;
        in.a = (int32_t)op_attr_value(op, "split", AK_INT, 0) & 3;
        in.b = PIPE_DIR_OF_CORE;
        in.defines_dst = true;
        emit(ctx, &in);
        return true;
    }
    if (op->n_results < 1 || !op->results[0]) return lower_error(ctx, op, (SrcLoc){0}, "has no result");
    Operand res = {.kind = OPD_VALUE, .value = op->results[0], .loc = op->results[0]->loc};
    if (!tile_ref(ctx, op, &res, &in.t[0])) return false;
    in.a = (int32_t)op_attr_value(op, "split", AK_INT, 0) & 3;
    if (op->ins.count == 2) {
        if (!scalar_ref(ctx, op, &op->ins.items[0], DT_INDEX, &in.sc[0]) ||
            !scalar_ref(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[1]))
            return false;
        in.a |= POP_VALID;
    }
    in.b = op->code == OP_TPOP_FROM_AIV; /* 1: vector to cube */
    in.defines_dst = true;
    emit(ctx, &in);
    return true;
}

static int32_t exec_pipe_free(Interp *ip, const Instr *in, int32_t pc) {
    PipeCore *c = running_core(ip, in);
    if (!c) return PC_ERROR;
    int d = in->b == PIPE_DIR_OF_CORE ? !c->vector : in->b, split = in->a;
    PipeFifo *q = &ip->pipes->fifo[d];
    if (d == 0 && split == 0 && c->subblock != 0) return pc + 1; /* the inactive no-split lane frees nothing */
    int lane = d == 0 ? (int)c->subblock : 0;
    if (!q->slot_num || q->free_next[lane] >= q->pop_next[lane])
        return rt_error(ip, in, "frees a slot this core has not popped (each tfree gives back the oldest popped slot)");
    int s = (int)(q->free_next[lane]++ % q->slot_num);
    q->freed[s] |= (uint8_t)(1u << lane);
    if (ip->sync) sync_checker_fifo_free(ip->sync, d, s, q->gm[1].on);
    for (;;) { /* slots every consumer lane freed go back to the producer, oldest first */
        int h = (int)(q->head % q->slot_num);
        uint8_t need = d == 0 && q->split[h] != 0 ? 3 : 1;
        if (!slot_complete(q, d, h) || (q->freed[h] & need) != need) break;
        q->pushed[h] = q->freed[h] = 0;
        q->head++;
    }
    return pc + 1;
}

bool lower_pipe_free(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_pipe_free);
    in.a = (int32_t)op_attr_value(op, "split", AK_INT, 0);
    in.b = op->code == OP_TFREE ? PIPE_DIR_OF_CORE : op->code == OP_TFREE_FROM_AIV;
    emit(ctx, &in);
    return true;
}

/* pto.declare_tile: the handle has no storage until a tpop or a `%r = pto.tassign %t, %a` binds it
 * (a use before that is "uses tile before it is defined"). */
static int32_t exec_declare_tile(Interp *ip, const Instr *in, int32_t pc) {
    TileView *v = &ip->frame->vals[in->t[0].slot].tile;
    memset(v, 0, sizeof *v);
    v->auto_slot = -1;
    return pc + 1;
}

bool lower_declare_tile(LowerCtx *ctx, const Op *op) {
    if (op->n_results < 1 || !op->results[0]) return lower_error(ctx, op, (SrcLoc){0}, "has no result");
    Operand res = {.kind = OPD_VALUE, .value = op->results[0], .loc = op->results[0]->loc};
    Instr in = instr_for(op, exec_declare_tile);
    if (!tile_ref(ctx, op, &res, &in.t[0])) return false;
    emit(ctx, &in);
    return true;
}
