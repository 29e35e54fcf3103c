/* rules_mem.c - rules of the companion ops that allocate, place, move and view data:
 * alloc_tile, tassign, tload, tstore, tprint, set_validshape, make_tensor_view, partition_view.
 * Messages follow PTOAS's verifiers where PTOAS checks the same thing. */
#include "vctx.h"

/* ------------------------------------------------------------------------------------------ */
/* alloc_tile                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* The single operand of a keyword group, or NULL. */
static const Operand *kw_operand(const Op *op, const char *key) {
    const KeywordArg *kw = op_kwarg(op, key);
    return kw && kw->list.count > 0 ? &kw->list.items[0] : NULL;
}

/* A constant valid_row / valid_col operand must lie in 0..static dim. */
static void check_valid_operand_range(VerifyCtx *ctx, const Op *op, const Operand *opd, const char *what, int64_t shape,
                                      const char *rule) {
    int64_t v;
    if (!opd || !const_int_of(opd, &v)) return;
    if (v < 0)
        vreport(ctx, op, opd->loc, SEV_ERROR, rule, "expects %s operand to be non-negative, got %lld", what,
                (long long)v);
    else if (v > shape)
        vreport(ctx, op, opd->loc, SEV_ERROR, rule, "expects %s operand <= shape dim (%lld), got %lld", what,
                (long long)shape, (long long)v);
}

/* alloc_tile: valid_row / valid_col operands iff the type has `?` valid dims, their range, addr placement. */
void verify_alloc_tile(VerifyCtx *ctx, const Op *op) {
    const Value *result = op->n_results > 0 ? op->results[0] : NULL;
    TileArg t = tile_of_value("result", result);
    if (!t.tile) return;
    static const char *const keys[2] = {"valid_row", "valid_col"};
    static const char *const dims[2] = {"v_row", "v_col"};
    for (int dim = 0; dim < 2; dim++) {
        const KeywordArg *kw = op_kwarg(op, keys[dim]);
        bool has = kw && kw->list.count > 0;
        int64_t v = valid_dim(t.tile, dim);
        bool need = !dim_known(v);
        if (has != need)
            vreport(ctx, op, kw ? kw->loc : t.loc, SEV_ERROR, op_rule(ctx, op, "valid-operands"),
                    "%s operand %s because result type %s is %s", keys[dim], need ? "is required" : "must be absent",
                    dims[dim], dim_text(ctx, v));
        if (has)
            check_valid_operand_range(ctx, op, &kw->list.items[0], keys[dim], dim == 0 ? t.tile->rows : t.tile->cols,
                                      op_rule(ctx, op, "valid-range"));
    }
    const Operand *addr = kw_operand(op, "addr");
    if (!addr) {
        record_auto_candidate(ctx, result);
        return;
    }
    record_manual_tile(ctx, result);
    check_and_record_placement(ctx, op, addr, t.tile);
}

/* ------------------------------------------------------------------------------------------ */
/* tassign                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* tassign (seed and PTOAS forms): result type, constant address placement; marks the tile manual. */
void verify_tassign(VerifyCtx *ctx, const Op *op) {
    TileArg t = tile_in(op, 0);
    const Operand *addr = op->ins.count > 1 ? &op->ins.items[1] : NULL;
    if (t.opd && t.opd->kind == OPD_VALUE) record_manual_tile(ctx, t.opd->value);
    const Value *result = op->n_results > 0 ? op->results[0] : NULL;
    if (result) {
        record_manual_tile(ctx, result);
        if (t.type && result->type && !type_equal(t.type, result->type))
            vreport(ctx, op, result->type_loc, SEV_ERROR, op_rule(ctx, op, "result-type"),
                    "result type must match tile operand type, got %s -> %s", type_text(ctx, t.type),
                    type_text(ctx, result->type));
    }
    if (t.tile && addr) check_and_record_placement(ctx, op, addr, t.tile);
}

/* ------------------------------------------------------------------------------------------ */
/* tload / tstore / tprint                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Product of a view's dims when all are static and positive (false otherwise or on overflow). */
static bool static_elem_count(const Type *t, int64_t *out) {
    int64_t n = 1;
    if (!t || (t->kind != TY_PARTITION_VIEW && t->kind != TY_TENSOR_VIEW) || t->rank < 1) return false;
    for (int i = 0; i < t->rank; i++)
        if (t->dims[i] <= 0 || !checked_mul_i64(n, t->dims[i], &n)) return false;
    *out = n;
    return true;
}

/* Valid rows * valid cols when both are static. */
static bool valid_elem_count(const TileType *t, int64_t *out) {
    if (!dim_known(t->valid_rows) || !dim_known(t->valid_cols)) return false;
    return checked_mul_i64(t->valid_rows, t->valid_cols, out);
}

/* Rows and cols of the tile-shaped region a view maps to (SPEC 2.1, D 5.2): ND (row-major tile):
 * cols = the last dim, rows = the product of the others; DN (col-major tile): rows = dim r-2,
 * cols = dim r-1 times dims 0..r-3 (rank 1: a column). Inputs are static and positive. */
static bool view_region(const Type *t, bool row_major, int64_t *rows, int64_t *cols) {
    int r = t->rank;
    *rows = *cols = 1;
    for (int i = 0; i < r; i++) {
        bool is_col = row_major ? i == r - 1 : (r == 1 ? false : i != r - 2);
        if (!checked_mul_i64(is_col ? *cols : *rows, t->dims[i], is_col ? cols : rows)) return false;
    }
    return true;
}

/* tload / tstore move exactly the tile's valid region: view elements == valid elements, and the
 * view's region has the valid shape. */
static void check_transfer_count(VerifyCtx *ctx, const Op *op, const Operand *view, const char *view_name,
                                 const TileArg *tile) {
    int64_t view_count, tile_count, rows, cols;
    const Type *vt = operand_type(view);
    if (!static_elem_count(vt, &view_count) || !valid_elem_count(tile->tile, &tile_count)) return;
    if (view_count != tile_count) {
        vreport(ctx, op, operand_type_loc(op, view), SEV_ERROR, op_rule(ctx, op, "element-count"),
                "expects %s static element count (%lld) to match %s valid_shape static element count (%lld) (%s vs %s)",
                view_name, (long long)view_count, tile->name, (long long)tile_count, type_text(ctx, vt),
                type_text(ctx, tile->type));
        return;
    }
    bool row_major = tile->tile->blayout == BL_ROW_MAJOR;
    if (tile->tile->slayout != SL_NONE_BOX || !view_region(vt, row_major, &rows, &cols)) return;
    if (rows != tile->tile->valid_rows || cols != tile->tile->valid_cols)
        vreport(ctx, op, operand_type_loc(op, view), SEV_ERROR, op_rule(ctx, op, "shape"),
                "expects the %s view %s to cover %s's valid shape %lldx%lld, but it maps to %lldx%lld (%s)",
                row_major ? "ND (row-major)" : "DN (col-major)", view_name, tile->name,
                (long long)tile->tile->valid_rows, (long long)tile->tile->valid_cols, (long long)rows, (long long)cols,
                row_major ? "rows = product of the leading dims, cols = the last dim"
                          : "rows = the second-to-last dim, cols = the product of the others");
}

static void check_transfer_width(VerifyCtx *ctx, const Op *op, const Operand *view, const TileArg *tile,
                                 const char *src_name, const char *dst_name) {
    const Type *vt = operand_type(view);
    if (!vt || !tile->tile || dtype_size(vt->dtype) == dtype_size(tile->tile->dtype)) return;
    bool view_is_src = view == &op->ins.items[0];
    vreport(ctx, op, tile->loc, SEV_ERROR, op_rule(ctx, op, "dtype-width"),
            "expects %s and %s element types to have the same bitwidth, got %s and %s", src_name, dst_name,
            dtype_name(view_is_src ? vt->dtype : tile->tile->dtype),
            dtype_name(view_is_src ? tile->tile->dtype : vt->dtype));
}

/* tload: dst loc, element width, and a view that covers exactly dst's valid region. */
void verify_tload(VerifyCtx *ctx, const Op *op) {
    TileArg dst = tile_out(op, 0);
    const Operand *src = op->ins.count > 0 ? &op->ins.items[0] : NULL;
    if (!dst.tile || !src) return;
    if (dst.tile->loc != LOC_VEC && dst.tile->loc != LOC_MAT)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "loc"),
                "expects %s tload dst to use loc=vec or loc=mat, got loc=%s (%s)", target_label(ctx->target),
                tile_loc_name(dst.tile->loc), type_text(ctx, dst.type));
    check_transfer_width(ctx, op, src, &dst, "src", "dst");
    check_transfer_count(ctx, op, src, "src", &dst);
    /* PTOAS TLoadOp: A2/A3 loads integers, f16, bf16 and f32 only; A5 any 1/2/4/8-byte type (fp8 too) */
    if (ctx->target == TARGET_A2A3 && dtype_is_f8(dst.tile->dtype))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects A2/A3 tload dst element type to be i8/i16/i32/i64/u64/f16/bf16/f32, got %s (%s)",
                dtype_name(dst.tile->dtype), type_text(ctx, dst.type));
}

/* The (acc, GM) element type pairs of tstore's preQuantScalar form (PTOAS TStoreOp::verify:
 * A2/A3 i32 -> i8/f16 and f32 -> i8; A5 adds i32 -> bf16 and f32 -> f16/bf16/f32; i8 is the
 * signless one). */
static uint32_t prequant_store_dsts(Target target, DType acc) {
    bool a5 = target == TARGET_A5;
    if (acc == DT_I32) return DTBIT(DT_I8) | DTBIT(DT_F16) | (a5 ? DTBIT(DT_BF16) : 0);
    if (acc == DT_F32) return DTBIT(DT_I8) | (a5 ? DTBIT(DT_F16) | DTBIT(DT_BF16) | DTBIT(DT_F32) : 0);
    return 0;
}

/* A pre-quantisation scalar (ins[1]): an i64 word, an acc src, and a legal (acc, GM) type pair. */
static void check_prequant_store(VerifyCtx *ctx, const Op *op, const TileArg *src, const Type *view) {
    const Operand *q = &op->ins.items[1];
    const Type *qt = operand_type(q);
    if (qt && qt->kind == TY_SCALAR && qt->dtype != DT_I64)
        vreport(ctx, op, q->loc, SEV_ERROR, op_rule(ctx, op, "prequant-type"),
                "expects preQuantScalar to be an i64 quantisation word, got %s", dtype_name(qt->dtype));
    if (src->tile->loc != LOC_ACC) {
        vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "prequant-loc"),
                "expects preQuantScalar form to use loc=acc src, got loc=%s (%s)", tile_loc_name(src->tile->loc),
                type_text(ctx, src->type));
        return;
    }
    if (!view) return;
    uint32_t dsts = prequant_store_dsts(ctx->target, src->tile->dtype);
    if (!(dsts & DTBIT(view->dtype)))
        vreport(ctx, op, operand_type_loc(op, &op->outs.items[0]), SEV_ERROR, op_rule(ctx, op, "prequant-dtype"),
                "expects %s acc preQuantScalar tstore from %s to store %s, got %s", target_label(ctx->target),
                dtype_name(src->tile->dtype), dsts ? dtype_set_text(ctx, dsts) : "nothing (acc is i32 or f32)",
                dtype_name(view->dtype));
}

/* tstore: src loc per target, element width, and a view that covers exactly src's valid region. */
void verify_tstore(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0);
    const Operand *dst = op->outs.count > 0 ? &op->outs.items[0] : NULL;
    if (!src.tile || !dst) return;
    bool a5 = ctx->target == TARGET_A5;
    unsigned locs = LOCBIT(LOC_VEC) | LOCBIT(LOC_ACC) | (a5 ? 0 : LOCBIT(LOC_MAT));
    if (!(locs & LOCBIT(src.tile->loc)))
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "loc"),
                "expects %s tstore src to use %s, got loc=%s (%s)", target_label(ctx->target),
                a5 ? "loc=vec or loc=acc" : "loc=vec, loc=mat, or loc=acc", tile_loc_name(src.tile->loc),
                type_text(ctx, src.type));
    if (src.tile->loc != LOC_ACC) check_transfer_width(ctx, op, dst, &src, "src", "dst");
    /* PTOAS TStoreOp: a vec (or A2/A3 mat) src of integers, f16, bf16 or f32 (no fp8 on either target) */
    if (src.tile->loc != LOC_ACC && dtype_is_f8(src.tile->dtype))
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects %s vec tstore src element type to be i8/i16/i32/i64/u64/f16/bf16/f32, got %s (%s)",
                target_label(ctx->target), dtype_name(src.tile->dtype), type_text(ctx, src.type));
    check_transfer_count(ctx, op, dst, "dst", &src);
    if (op_attr_value(op, "reluPreMode", AK_RELU_PRE_MODE, 0) == 1 && src.tile->loc != LOC_ACC)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "relu"),
                "expects reluPreMode only with an acc src, got loc=%s (%s)", tile_loc_name(src.tile->loc),
                type_text(ctx, src.type));
    if (op->ins.count > 1) check_prequant_store(ctx, op, &src, operand_type(dst));
}

/* tstore_fp (PTOAS TStoreFPOp::verify): an acc src (f32 or i32 on A2/A3, whose cols and valid
 * cols are in [1, 4095]), an fp tile, and a view covering src's valid region as tstore's. */
void verify_tstore_fp(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), fp = tile_in(op, 1);
    const Operand *dst = op->outs.count > 0 ? &op->outs.items[0] : NULL;
    if (!src.tile || !fp.tile || !dst) return;
    if (!check_loc_in(ctx, op, &src, LOCBIT(LOC_ACC), "acc", op_rule(ctx, op, "loc"))) return;
    check_transfer_count(ctx, op, dst, "dst", &src);
    if (ctx->target != TARGET_A2A3) return;
    DType se = src.tile->dtype;
    if (se != DT_F32 && se != DT_I32 && se != DT_U32)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects src to have element type f32, i32, got %s",
                dtype_name(se));
    int64_t vc = src.tile->valid_cols;
    if (src.tile->cols < 1 || src.tile->cols > 4095 || (dim_known(vc) && (vc < 1 || vc > 4095)))
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "cols"),
                "expects src.cols and src.valid_shape[1] to be in the range [1, 4095], got %lld and %s",
                (long long)src.tile->cols, dim_text(ctx, vc));
}

/* PTOAS: f16, f32 and 8/16/32-bit integers are printable. */
static const uint32_t printable_dtypes = DTS_F16_F32 | DTS_8BIT | DTS_16BIT_INT | DTS_32BIT_INT;

/* tprint: printable element type and vec loc (PTOAS rules). */
void verify_tprint(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0);
    if (!src.tile) return;
    if (!(printable_dtypes & DTBIT(src.tile->dtype)))
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects printable tile element type (%s), got %s", dtype_set_text(ctx, printable_dtypes),
                dtype_name(src.tile->dtype));
    if (src.tile->loc != LOC_VEC)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "loc"),
                "expects printable tile_buf to be in vec address space, got loc=%s", tile_loc_name(src.tile->loc));
}

/* ------------------------------------------------------------------------------------------ */
/* tsetval                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The checks tsetval and tgetval share: the scalar `t` (the value, or the result) of the tile's
 * element type (an integer of the same width stands for an unsigned element type, which MLIR's
 * signless scalars cannot spell), reported at `at` as `<OP>.<type_rule>` ("expects <what> element
 * type ..."), and a constant `offset` inside the tile's storage (ours: the access would leave it). */
static void check_one_element(VerifyCtx *ctx, const Op *op, const TileArg *tile, const Type *t, SrcLoc at,
                              const char *type_rule, const char *what, const Operand *offset) {
    DType dt = tile->tile->dtype;
    if (t && (t->kind != TY_SCALAR || !(t->dtype == dt || (dtype_is_int(t->dtype) && dtype_is_int(dt) &&
                                                              dtype_size(t->dtype) == dtype_size(dt)))))
        vreport(ctx, op, at, SEV_ERROR, op_rule(ctx, op, type_rule), "expects %s element type %s, got %s", what,
                dtype_name(dt), type_text(ctx, t));
    int64_t off, n;
    if (offset && const_int_of(offset, &off) && tile->tile->rows > 0 && tile->tile->cols > 0 &&
        !__builtin_mul_overflow(tile->tile->rows, tile->tile->cols, &n) && (off < 0 || off >= n))
        vreport(ctx, op, offset->loc, SEV_ERROR, op_rule(ctx, op, "offset"),
                "expects offset inside %s's %lld elements (%lldx%lld), got %lld", tile->name, (long long)n,
                (long long)tile->tile->rows, (long long)tile->tile->cols, (long long)off);
}

/* tsetval: a vec dst (pto-isa's SetValue static_assert), a value of dst's element type (PTOAS's
 * verifier) and a constant offset inside dst (check_one_element). */
void verify_tsetval(VerifyCtx *ctx, const Op *op) {
    TileArg dst = tile_out(op, 0);
    if (!dst.tile) return;
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc"));
    const Operand *val = op->ins.count > 1 ? &op->ins.items[1] : NULL;
    check_one_element(ctx, op, &dst, val ? operand_type(val) : NULL, val ? operand_type_loc(op, val) : op->loc, "val-type",
                      "val type to match dst", op->ins.count > 0 ? &op->ins.items[0] : NULL);
}

/* tgetval: a vec src (PTOAS TGetValOp::verify, with its message for a mat tile), a result of src's
 * element type and a constant offset inside src (check_one_element). */
void verify_tgetval(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0);
    if (!src.tile) return;
    if (src.tile->loc == LOC_MAT)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "loc"),
                "Ascend hardware does not support reading from Mat tile_buf to Scalar unit");
    else
        check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc"));
    check_one_element(ctx, op, &src, op->n_results && op->results[0] ? op->results[0]->type : NULL, op->loc,
                      "result-type", "dst type to match src", op->ins.count > 1 ? &op->ins.items[1] : NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* set_validshape                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* set_validshape: a `?`x`?` tile and constant dims within 0..shape. */
void verify_set_validshape(VerifyCtx *ctx, const Op *op) {
    TileArg t = tile_in(op, 0);
    if (!t.tile) return;
    if (dim_known(t.tile->valid_rows) || dim_known(t.tile->valid_cols))
        vreport(ctx, op, t.loc, SEV_ERROR, op_rule(ctx, op, "dynamic"),
                "expects source tile_buf to have dynamic validShape (?, ?), got valid=%sx%s (%s)",
                dim_text(ctx, t.tile->valid_rows), dim_text(ctx, t.tile->valid_cols), type_text(ctx, t.type));
    const char *rule = op_rule(ctx, op, "range");
    check_valid_operand_range(ctx, op, op->ins.count > 1 ? &op->ins.items[1] : NULL, "row", t.tile->rows, rule);
    check_valid_operand_range(ctx, op, op->ins.count > 2 ? &op->ins.items[2] : NULL, "col", t.tile->cols, rule);
}

/* ------------------------------------------------------------------------------------------ */
/* make_tensor_view / partition_view                                                           */
/* ------------------------------------------------------------------------------------------ */

static const Type *result_type(const Op *op) {
    return op->n_results > 0 && op->results[0] ? op->results[0]->type : NULL;
}

static SrcLoc result_type_loc(const Op *op) {
    const Value *v = op->n_results > 0 ? op->results[0] : NULL;
    return v && v->type && v->type_loc.line ? v->type_loc : op->loc;
}

/* Constant entries of a shape / strides group must be >= 0; shape entries must match static dims. */
static void check_view_operands(VerifyCtx *ctx, const Op *op, const KeywordArg *kw, const Type *view, bool is_shape) {
    for (int i = 0; kw && i < kw->list.count; i++) {
        const Operand *opd = &kw->list.items[i];
        int64_t v;
        if (!const_int_of(opd, &v)) continue;
        if (v < 0)
            vreport(ctx, op, opd->loc, SEV_ERROR, op_rule(ctx, op, "non-negative"),
                    "expects %s operand %d to be non-negative, got %lld", is_shape ? "shape" : "stride", i,
                    (long long)v);
        else if (is_shape && view && i < view->rank && dim_known(view->dims[i]) && view->dims[i] != v)
            vreport(ctx, op, opd->loc, SEV_ERROR, op_rule(ctx, op, "shape"),
                    "expects shape operand %d (%lld) to match the tensor_view's static dim %d (%lld)", i, (long long)v,
                    i, (long long)view->dims[i]);
    }
}

/* make_tensor_view: pointer / view dtypes, operand counts, constant shape and strides. */
void verify_make_tensor_view(VerifyCtx *ctx, const Op *op) {
    const Type *ptr = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    const Type *view = result_type(op);
    if (!view || view->kind != TY_TENSOR_VIEW) return;
    if (ptr && ptr->kind == TY_PTR && ptr->dtype != view->dtype)
        vreport(ctx, op, result_type_loc(op), SEV_ERROR, op_rule(ctx, op, "dtype"),
                "ptr element type must match tensor_view element type, but got ptr=%s view=%s", dtype_name(ptr->dtype),
                dtype_name(view->dtype));
    const KeywordArg *shape = op_kwarg(op, "shape"), *strides = op_kwarg(op, "strides");
    int n_shape = shape ? shape->list.count : 0, n_strides = strides ? strides->list.count : 0;
    if (n_shape != view->rank || n_strides != view->rank)
        vreport(ctx, op, shape ? shape->loc : op->loc, SEV_ERROR, op_rule(ctx, op, "rank"),
                "shape/strides operand counts must match tensor_view rank=%d, got %d shape and %d stride operands",
                view->rank, n_shape, n_strides);
    check_view_operands(ctx, op, shape, view, true);
    check_view_operands(ctx, op, strides, view, false);
}

/* Static extent of dim i of a tensor view: from its type, else from a constant `shape` operand of
 * the op that made it. */
static bool source_dim_bound(const Operand *src, int i, int64_t *out) {
    const Type *t = operand_type(src);
    if (t && i < t->rank && dim_known(t->dims[i])) {
        *out = t->dims[i];
        return true;
    }
    const Op *def = src->kind == OPD_VALUE && src->value ? src->value->def : NULL;
    const KeywordArg *shape = def ? op_kwarg(def, "shape") : NULL;
    return shape && i < shape->list.count && const_int_of(&shape->list.items[i], out) && *out >= 0;
}

static void check_partition_dim(VerifyCtx *ctx, const Op *op, const Operand *src, const Type *result, int i,
                                const Operand *off, const Operand *size) {
    int64_t o = 0, s = 0, bound = 0, end;
    bool has_o = off && const_int_of(off, &o), has_s = size && const_int_of(size, &s);
    if (has_o && o < 0)
        vreport(ctx, op, off->loc, SEV_ERROR, op_rule(ctx, op, "offset"),
                "offset at dim %d must be non-negative, got %lld", i, (long long)o);
    if (has_s && s <= 0)
        vreport(ctx, op, size->loc, SEV_ERROR, op_rule(ctx, op, "size"), "size at dim %d must be positive, got %lld", i,
                (long long)s);
    if (has_s && result && i < result->rank && dim_known(result->dims[i]) && s != result->dims[i])
        vreport(ctx, op, size->loc, SEV_ERROR, op_rule(ctx, op, "size-result"),
                "size/result mismatch at dim %d: size operand=%lld result type dim=%lld", i, (long long)s,
                (long long)result->dims[i]);
    if (!has_s || s <= 0 || !source_dim_bound(src, i, &bound)) return;
    if (s > bound)
        vreport(ctx, op, size->loc, SEV_ERROR, op_rule(ctx, op, "bounds"),
                "size at dim %d (%lld) exceeds static source dim (%lld)", i, (long long)s, (long long)bound);
    else if (has_o && o >= 0 && (!checked_add_i64(o, s, &end) || end > bound))
        vreport(ctx, op, off->loc, SEV_ERROR, op_rule(ctx, op, "bounds"),
                "offset+size at dim %d (%lld + %lld) exceeds static source dim (%lld)", i, (long long)o, (long long)s,
                (long long)bound);
}

/* partition_view: dtypes, ranks, constant offsets and sizes against the result and the source. */
void verify_partition_view(VerifyCtx *ctx, const Op *op) {
    const Operand *src = op->ins.count > 0 ? &op->ins.items[0] : NULL;
    const Type *st = src ? operand_type(src) : NULL, *rt = result_type(op);
    if (!st || st->kind != TY_TENSOR_VIEW || !rt || rt->kind != TY_PARTITION_VIEW) return;
    if (st->dtype != rt->dtype)
        vreport(ctx, op, result_type_loc(op), SEV_ERROR, op_rule(ctx, op, "dtype"),
                "element type mismatch between source and result: src=%s result=%s", dtype_name(st->dtype),
                dtype_name(rt->dtype));
    const KeywordArg *offsets = op_kwarg(op, "offsets"), *sizes = op_kwarg(op, "sizes");
    int n_off = offsets ? offsets->list.count : 0, n_size = sizes ? sizes->list.count : 0;
    bool ranks_ok = true;
    if (n_off != st->rank) {
        vreport(ctx, op, offsets ? offsets->loc : op->loc, SEV_ERROR, op_rule(ctx, op, "rank"),
                "offset count (%d) must match source rank (%d)", n_off, st->rank);
        ranks_ok = false;
    }
    if (n_size != st->rank) {
        vreport(ctx, op, sizes ? sizes->loc : op->loc, SEV_ERROR, op_rule(ctx, op, "rank"),
                "size count (%d) must match source rank (%d)", n_size, st->rank);
        ranks_ok = false;
    }
    if (!ranks_ok) return;
    const Type *same_rank_result = rt->rank == st->rank ? rt : NULL;
    for (int i = 0; i < st->rank; i++)
        check_partition_dim(ctx, op, src, same_rank_result, i, &offsets->list.items[i], &sizes->list.items[i]);
}

/* tprefetch (PTOAS TPrefetchOp::verify): positive static view dims, dst in vec or mat with positive
 * static valid dims, and src and dst elements of the same size. */
void verify_tprefetch(VerifyCtx *ctx, const Op *op) {
    TileArg dst = tile_out(op, 0);
    const Operand *src = op->ins.count > 0 ? &op->ins.items[0] : NULL;
    const Type *vt = src ? operand_type(src) : NULL;
    if (vt && vt->dims)
        for (int i = 0; i < vt->rank; i++)
            if (dim_known(vt->dims[i]) && vt->dims[i] <= 0) {
                vreport(ctx, op, operand_type_loc(op, src), SEV_ERROR, op_rule(ctx, op, "src-shape"),
                        "expects src shape[%d] to be positive, got %lld", i, (long long)vt->dims[i]);
                break;
            }
    if (!dst.tile) return;
    for (int d = 0; d < 2; d++) {
        int64_t v = valid_dim(dst.tile, d);
        if (dim_known(v) && v <= 0) {
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects dst valid_shape[%d] to be positive, got %lld", d, (long long)v);
            break;
        }
    }
    if (dst.tile->loc != LOC_VEC && dst.tile->loc != LOC_MAT)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "loc"), "expects dst to use loc=vec or loc=mat, got loc=%s (%s)",
                tile_loc_name(dst.tile->loc), type_text(ctx, dst.type));
    if (vt && dtype_size(vt->dtype) != dtype_size(dst.tile->dtype))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "elem-size"),
                "expects src and dst element types to have the same element size, got %s and %s", dtype_name(vt->dtype),
                dtype_name(dst.tile->dtype));
}
