/* rules_async.c - the rules of the asynchronous GM transfer rows (ir/ops_async.def), after PTOAS's
 * verifiers (PTO.cpp: BuildAsyncSessionOp::verify, verifyAsyncTransferOp and
 * verifyAsyncFlatContiguous1DGMViewLike) and the attribute constraints of its op definitions
 * (PTOOps.td: I32Attr sync_id and queue_num, I64Attr block_bytes, comm_block_offset and
 * channel_group_idx). Rule IDs are OP.suffix; docs/rules.md lists them. */
#include "vctx.h"

#include <stdint.h>
#include <string.h>

/* The result's type must be `want` (a !pto.async_* kind, or an i1 scalar when want is TY_SCALAR). */
static void check_result(VerifyCtx *ctx, const Op *op, TypeKind want, const char *want_text) {
    const Value *res = op->n_results ? op->results[0] : NULL;
    if (!res || !res->type || res->type->kind == TY_INVALID) return;
    bool ok = want == TY_SCALAR ? res->type->kind == TY_SCALAR && res->type->dtype == DT_I1 : res->type->kind == want;
    if (!ok)
        vreport(ctx, op, res->type_loc.line ? res->type_loc : op->loc, SEV_ERROR, op_rule(ctx, op, "result"),
                "expects the result to be %s, got %s", want_text, type_text(ctx, res->type));
}

/* An integer attribute of PTOAS's width (32: I32Attr, written `N : i32`; 64: I64Attr, written `N` or
 * `N : i64`); false (reported) when it is written with another type or does not fit. */
static bool attr_int_of_width(VerifyCtx *ctx, const Op *op, const Attr *a, int width, int64_t *v) {
    if (!attr_value(a, AK_INT, v)) return false; /* OP.attr-value already said so */
    DType want = width == 32 ? DT_I32 : DT_I64;
    bool typed_ok = a->type ? a->type->kind == TY_SCALAR && a->type->dtype == want : width == 64;
    if (!typed_ok) {
        vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "attr-type"),
                "expects attribute '%s' to be a %d-bit signless integer attribute (write `%lld : i%d`), got %s", a->key,
                width, (long long)*v, width, a->type ? type_text(ctx, a->type) : "an i64 integer");
        return false;
    }
    if (width == 32 && (*v < INT32_MIN || *v > INT32_MAX)) {
        vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "attr-type"), "attribute '%s' = %lld does not fit in i32",
                a->key, (long long)*v);
        return false;
    }
    return true;
}

/* pto.build_async_session: scratch a static vec tile of at least 8 bytes, workspace a pointer to
 * 8-bit integers, the configuration attributes in their ranges. */
void verify_build_async_session(VerifyCtx *ctx, const Op *op) {
    check_result(ctx, op, TY_ASYNC_SESSION, "!pto.async_session");
    TileArg scratch = tile_in(op, 0);
    if (scratch.tile) {
        int64_t bytes = 0;
        if (scratch.tile->loc != LOC_VEC)
            vreport(ctx, op, scratch.loc, SEV_ERROR, op_rule(ctx, op, "scratch"),
                    "expects scratch to be in vec address space, got loc=%s (%s)", tile_loc_name(scratch.tile->loc),
                    type_text(ctx, scratch.type));
        else if (tile_footprint_bytes(scratch.tile, &bytes) && bytes < 8)
            vreport(ctx, op, scratch.loc, SEV_ERROR, op_rule(ctx, op, "scratch"),
                    "expects scratch to provide at least 8 bytes, got %lld (%s)", (long long)bytes,
                    type_text(ctx, scratch.type));
    }
    const Type *ws = op->ins.count > 1 ? operand_type(&op->ins.items[1]) : NULL;
    if (ws && ws->kind == TY_PTR && ws->dtype != DT_I8 && ws->dtype != DT_U8)
        vreport(ctx, op, operand_type_loc(op, &op->ins.items[1]), SEV_ERROR, op_rule(ctx, op, "workspace"),
                "expects workspace element type to be an 8-bit integer, got %s", type_text(ctx, ws));
    static const struct {
        const char *key, *rule;
        int width;
        int64_t lo, hi;
        const char *range;
    } limits[] = {
        {"sync_id", "sync-id", 32, 0, 7, "in range [0, 7]"},
        {"block_bytes", "block-bytes", 64, 1, INT64_MAX, "greater than 0"},
        {"comm_block_offset", "comm-block-offset", 64, 0, INT64_MAX, "non-negative"},
        {"queue_num", "queue-num", 32, 1, INT32_MAX, "greater than 0"},
        {"channel_group_idx", "channel-group-idx", 64, 0, UINT32_MAX, "non-negative and to fit in uint32"},
    };
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        const Attr *a = attr_find(&op->attrs, limits[i].key);
        int64_t v;
        if (!a || !attr_int_of_width(ctx, op, a, limits[i].width, &v)) continue;
        if (v < limits[i].lo || v > limits[i].hi)
            vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, limits[i].rule), "expects %s to be %s, got %lld",
                    limits[i].key, limits[i].range, (long long)v);
    }
}

/* One side of a transfer: a GM view of static shape whose leading dimensions are 1 (PTOAS: "a
 * static flat contiguous logical 1D GM view"); false (reported) otherwise. */
static bool check_flat_view(VerifyCtx *ctx, const Op *op, int index, const char *name) {
    const Operand *opd = &op->ins.items[index];
    const Type *t = operand_type(opd);
    if (!t || (t->kind != TY_TENSOR_VIEW && t->kind != TY_PARTITION_VIEW)) return false;
    SrcLoc loc = operand_type_loc(op, opd);
    if (t->rank < 1) {
        vreport(ctx, op, loc, SEV_ERROR, op_rule(ctx, op, "view"), "expects %s to have rank >= 1", name);
        return false;
    }
    for (int i = 0; i < t->rank; i++)
        if (!dim_known(t->dims[i])) {
            vreport(ctx, op, loc, SEV_ERROR, op_rule(ctx, op, "view"), "expects %s to have a static shape, got %s", name,
                    type_text(ctx, t));
            return false;
        }
    for (int i = 0; i + 1 < t->rank; i++)
        if (t->dims[i] != 1) {
            vreport(ctx, op, loc, SEV_ERROR, op_rule(ctx, op, "view"),
                    "expects %s to be a static flat contiguous logical 1D GM view (every dimension but the last 1), got %s",
                    name, type_text(ctx, t));
            return false;
        }
    return true;
}

/* pto.tput_async / pto.tget_async: dst and src of one element type, each a static logical 1-D
 * view, of the same shape. */
void verify_async_transfer(VerifyCtx *ctx, const Op *op) {
    check_result(ctx, op, TY_ASYNC_EVENT, "!pto.async_event");
    if (op->ins.count < 2) return;
    const Type *dst = operand_type(&op->ins.items[0]), *src = operand_type(&op->ins.items[1]);
    if (!dst || !src || dst->kind == TY_INVALID || src->kind == TY_INVALID) return;
    if (dst->dtype != src->dtype) {
        vreport(ctx, op, operand_type_loc(op, &op->ins.items[1]), SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects src and dst to have the same element type, got %s and %s", dtype_name(src->dtype),
                dtype_name(dst->dtype));
        return;
    }
    if (!check_flat_view(ctx, op, 0, "dst") || !check_flat_view(ctx, op, 1, "src")) return;
    bool same = dst->rank == src->rank;
    for (int i = 0; same && i < dst->rank; i++) same = dst->dims[i] == src->dims[i];
    if (!same)
        vreport(ctx, op, operand_type_loc(op, &op->ins.items[1]), SEV_ERROR, op_rule(ctx, op, "shape"),
                "expects src and dst to have the same static shape, got %s and %s", type_text(ctx, src), type_text(ctx, dst));
}

/* pto.wait_async_event / pto.test_async_event: an i1 result. */
void verify_async_event(VerifyCtx *ctx, const Op *op) { check_result(ctx, op, TY_SCALAR, "i1"); }
