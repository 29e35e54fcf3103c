/* ops_async.c - the asynchronous GM transfer rows (ir/ops_async.def).
 *
 * pto-run runs one rank, so the "remote" GM of a put or a get is a GM buffer of the same run: a
 * transfer copies src's bytes to dst when it issues, and its event is complete from then on
 * (wait_async_event and test_async_event give true), as pto-isa's CPU simulator does (cpu/comm
 * TPut.hpp, TGet.hpp: Copy_Data, an AsyncEvent with handle 0). The NPU's SDMA path copies
 * srcElems * sizeof(T) contiguous bytes (comm/async_common TPutAsyncCommonDetail.hpp), which is the
 * simulator's copy for the flat contiguous 1-D views the verifier allows; a view whose run-time
 * strides are not contiguous is a run-time error, as is a src and dst that partly overlap (the
 * engine's chunk order is not specified). The session's scratch tile holds the engine's control
 * words on the NPU (SetValue/GetValue staging, sdma_async_detail_basic.hpp), never the data:
 * pto-run leaves its bytes as they were (docs/execution.md). A session's and an event's value is a
 * handle, the step that made it (nothing reads it but --check-sync, which tells sessions and
 * transfers apart by it: interp/check_sync.c async_op). Instr: a, b: dst and src view slots
 * (transfers), the scratch tile in t[0] (build); dst_slot: the result. */
#include "interp_impl.h"

#include <string.h>

/* %s = build_async_session: the scratch tile must be defined; the session's handle is this step. */
static int32_t exec_build_async_session(Interp *ip, const Instr *in, int32_t pc) {
    if (!use_tile(ip, in, &in->t[0])) return PC_ERROR;
    ip->frame->vals[in->dst_slot].i = (int64_t)ip->steps;
    return pc + 1;
}

bool lower_build_async_session(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 2 || op->n_results < 1 || !op->results[0])
        return lower_error(ctx, op, (SrcLoc){0}, "expects a scratch tile, a workspace pointer and a result");
    const Attr *offset = attr_find(&op->attrs, "comm_block_offset");
    if (offset && offset->ival != 0) /* pto-isa's SQEs add it to both addresses: not modelled */
        return lower_error(ctx, op, offset->loc,
                           "comm_block_offset = %lld is not modelled: pto-isa's SDMA transfers add it to both the "
                           "src and dst address, pto-run copies the views as written; only 0 runs",
                           (long long)offset->ival);
    Instr in = instr_for(op, exec_build_async_session);
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[0])) return false;
    in.dst_slot = (int32_t)op->results[0]->id;
    emit(ctx, &in);
    return true;
}

/* The element offset and count of a view that is one contiguous run (elements packed in order, a
 * dimension of extent 1 stepping nowhere); false when its strides leave gaps. */
static bool view_run(const GmView *v, int64_t *count) {
    int64_t packed = 1;
    for (int i = v->rank - 1; i >= 0; i--) {
        if (v->shape[i] == 0) {
            *count = 0;
            return true;
        }
        if (v->shape[i] != 1 && v->strides[i] != packed) return false;
        if (!checked_mul_i64(packed, v->shape[i], &packed)) return false;
    }
    *count = packed;
    return true;
}

/* tput_async / tget_async: dst's first n elements = src's n (n: src's element count); the event is
 * complete, its handle this step. */
static int32_t exec_async_transfer(Interp *ip, const Instr *in, int32_t pc) {
    const GmView *dst = &ip->frame->vals[in->a].view, *src = &ip->frame->vals[in->b].view;
    int64_t nd, ns;
    if (dst->buffer < 0 || dst->buffer >= ip->n_gm || src->buffer < 0 || src->buffer >= ip->n_gm)
        return rt_error(ip, in, "view does not name a GM buffer");
    if (!view_run(dst, &nd))
        return rt_rule_error(ip, in, "view", "expects dst to be a flat contiguous 1D GM view, but its strides leave gaps "
                             "(the SDMA engine copies one contiguous run)");
    if (!view_run(src, &ns))
        return rt_rule_error(ip, in, "view", "expects src to be a flat contiguous 1D GM view, but its strides leave gaps "
                             "(the SDMA engine copies one contiguous run)");
    if (nd < ns)
        return rt_error(ip, in, "dst holds %lld elements, fewer than src's %lld", (long long)nd, (long long)ns);
    if (ns == 0) {
        ip->frame->vals[in->dst_slot].i = (int64_t)ip->steps;
        return pc + 1;
    }
    GmBuffer *db = &ip->gm[dst->buffer], *sb = &ip->gm[src->buffer];
    if (dst->offset < 0 || dst->offset + ns > db->count || src->offset < 0 || src->offset + ns > sb->count)
        return rt_error(ip, in, "view lies outside its GM buffer");
    if (!gm_check_inputs(ip, in, src)) return PC_ERROR;
    size_t es = sb->elem_size, bytes = (size_t)ns * es;
    uint8_t *d = db->data + (size_t)dst->offset * db->elem_size;
    const uint8_t *s = sb->data + (size_t)src->offset * es;
    if (d != s && d < s + bytes && s < d + bytes)
        return rt_error(ip, in, "src (%%%s elements %lld..%lld) and dst (%%%s elements %lld..%lld) overlap: the order in which "
                        "the DMA engine copies is not specified",
                        sb->arg->name, (long long)src->offset, (long long)(src->offset + ns - 1), db->arg->name,
                        (long long)dst->offset, (long long)(dst->offset + ns - 1));
    if (d != s) memcpy(d, s, bytes);
    GmView written = *dst;
    written.rank = 1, written.shape[0] = ns, written.strides[0] = 1;
    gm_mark_written(ip, &written);
    ip->frame->vals[in->dst_slot].i = (int64_t)ip->steps;
    return pc + 1;
}

/* The contiguous run of view slot `slot`'s first n elements (n: the src's count), when it lies in
 * its buffer (else the instruction reports the error when it runs). */
static void transfer_runs(const Interp *ip, const Instr *in, int32_t slot, TileRunFn fn, void *ctx) {
    const GmView *v = &ip->frame->vals[slot].view, *src = &ip->frame->vals[in->b].view;
    int64_t n, nv;
    if (v->buffer < 0 || v->buffer >= ip->n_gm || !view_run(src, &n) || !view_run(v, &nv) || n <= 0 || nv < n) return;
    const GmBuffer *b = &ip->gm[v->buffer];
    if (b->data && v->offset >= 0 && v->offset + n <= b->count)
        fn(ctx, b->data + (size_t)v->offset * b->elem_size, n * (int64_t)b->elem_size);
}

static void transfer_src_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    transfer_runs(ip, in, in->b, fn, ctx);
}
static void transfer_dst_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    transfer_runs(ip, in, in->a, fn, ctx);
}

/* A transfer reads src's run and writes dst's (--check-sync: on S, after the op's PIPE_ALL barrier). */
static int async_transfer_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    (void)ip;
    acc[0] = (TileWindowAccess){.value = in->op->ins.items[1].value, .write = false, .walk = transfer_src_walk};
    acc[1] = (TileWindowAccess){.value = in->op->ins.items[0].value, .write = true, .walk = transfer_dst_walk};
    return 2;
}

/* A GM view operand's slot, or -1 (reported). */
static int32_t view_slot(LowerCtx *ctx, const Op *op, int i) {
    int32_t slot = value_slot(ctx, op, &op->ins.items[i]);
    if (slot < 0) return -1;
    const Type *t = op->ins.items[i].value->type;
    if (!t || (t->kind != TY_PARTITION_VIEW && t->kind != TY_TENSOR_VIEW)) {
        lower_error(ctx, op, op->ins.items[i].loc, "expects a GM view operand");
        return -1;
    }
    return slot;
}

bool lower_async_transfer(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 3 || op->n_results < 1 || !op->results[0])
        return lower_error(ctx, op, (SrcLoc){0}, "expects dst, src, a session and a result");
    Instr in = instr_for(op, exec_async_transfer);
    in.a = view_slot(ctx, op, 0);
    in.b = view_slot(ctx, op, 1);
    if (in.a < 0 || in.b < 0 || value_slot(ctx, op, &op->ins.items[2]) < 0) return false;
    const Type *dt = op->ins.items[0].value->type, *st = op->ins.items[1].value->type;
    if (dtype_size(dt->dtype) != dtype_size(st->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src (%s) and dst (%s) elements of the same size",
                           dtype_name(st->dtype), dtype_name(dt->dtype));
    in.dst_slot = (int32_t)op->results[0]->id;
    in.footprint = async_transfer_footprint;
    emit(ctx, &in);
    return true;
}

/* wait_async_event / test_async_event: every event is complete once its transfer issued: true. */
static int32_t exec_async_event(Interp *ip, const Instr *in, int32_t pc) {
    ip->frame->vals[in->dst_slot].i = 1;
    return pc + 1;
}

bool lower_async_event(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 2 || op->n_results < 1 || !op->results[0])
        return lower_error(ctx, op, (SrcLoc){0}, "expects an event, a session and a result");
    if (value_slot(ctx, op, &op->ins.items[0]) < 0 || value_slot(ctx, op, &op->ins.items[1]) < 0) return false;
    Instr in = instr_for(op, exec_async_event);
    in.dst_slot = (int32_t)op->results[0]->id;
    emit(ctx, &in);
    return true;
}
