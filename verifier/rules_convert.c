/* rules_convert.c - the rules of the conversion family (ir/ops_convert.def: TCVT, vec-to-vec TMOV):
 * locations, element types, the legal (source, destination) pairs of TCVT per target, shapes. */
#include "vctx.h"

/* TCVT's destinations per source type and target, from docs/isa/TCVT.md "Supported Conversions"
 * (the types this toolchain has: no fp8/fp4/int4/hifloat8). A `FP32 (round-only)` entry is f32 to
 * f32. */
typedef struct CvtPairs {
    DType src;
    uint32_t a2a3, a5;
} CvtPairs;

static const CvtPairs cvt_pairs[] = {
    {DT_F32, DTBIT(DT_F16) | DTBIT(DT_F32) | DTBIT(DT_BF16) | DTBIT(DT_I16) | DTBIT(DT_I32) | DTBIT(DT_I64),
     DTBIT(DT_F16) | DTBIT(DT_F32) | DTBIT(DT_BF16) | DTBIT(DT_I16) | DTBIT(DT_I32) | DTBIT(DT_I64)},
    {DT_F16, DTBIT(DT_F32) | DTBIT(DT_I32) | DTBIT(DT_I16) | DTBIT(DT_I8) | DTBIT(DT_U8),
     DTBIT(DT_F32) | DTBIT(DT_I32) | DTBIT(DT_I16) | DTBIT(DT_I8) | DTBIT(DT_U8)},
    {DT_BF16, DTBIT(DT_F32) | DTBIT(DT_I32), DTBIT(DT_F32) | DTBIT(DT_I32) | DTBIT(DT_F16)},
    {DT_I16, DTBIT(DT_F16) | DTBIT(DT_F32), DTBIT(DT_U8) | DTBIT(DT_F16) | DTBIT(DT_F32) | DTBIT(DT_U32) | DTBIT(DT_I32)},
    {DT_I32, DTBIT(DT_F32) | DTBIT(DT_I16) | DTBIT(DT_I64) | DTBIT(DT_F16),
     DTBIT(DT_F32) | DTBIT(DT_I16) | DTBIT(DT_U16) | DTBIT(DT_I64) | DTBIT(DT_U8)},
    {DT_I64, DTBIT(DT_F32) | DTBIT(DT_I32), DTBIT(DT_F32) | DTBIT(DT_I32)},
    {DT_U8, DTBIT(DT_F16), DTBIT(DT_F16) | DTBIT(DT_U16)},
    {DT_I8, DTBIT(DT_F16), DTBIT(DT_F16) | DTBIT(DT_I16) | DTBIT(DT_I32)},
    {DT_U32, 0, DTBIT(DT_U8) | DTBIT(DT_U16) | DTBIT(DT_I16)},
};

/* The destinations TCVT takes from `src` on the context's target. */
static uint32_t cvt_destinations(const VerifyCtx *ctx, DType src) {
    for (size_t i = 0; i < sizeof cvt_pairs / sizeof *cvt_pairs; i++)
        if (cvt_pairs[i].src == src) return ctx->target == TARGET_A5 ? cvt_pairs[i].a5 : cvt_pairs[i].a2a3;
    return 0;
}

/* vec tiles (the cube forms of TMOV are not executed yet), element types of the row, TCVT's pair
 * table, and PTOAS's shape rules: equal physical shapes (TCVT; TMOV on A2/A3) and equal valid
 * shapes (the simulator iterates src's valid region and asserts dst's is the same). */
/* The locations a TMOV from `from` may write (PTOAS TMovOp::verify): mat -> left, right, bias,
 * scaling; vec -> vec (A5: and mat); acc -> mat, vec. */
static unsigned tmov_destinations(Target target, TileLoc from) {
    switch (from) {
    case LOC_MAT: return LOCBIT(LOC_LEFT) | LOCBIT(LOC_RIGHT) | LOCBIT(LOC_BIAS) | LOCBIT(LOC_SCALING);
    case LOC_VEC: return LOCBIT(LOC_VEC) | (target == TARGET_A5 ? LOCBIT(LOC_MAT) : 0);
    case LOC_ACC: return LOCBIT(LOC_MAT) | LOCBIT(LOC_VEC);
    default: return 0;
    }
}

/* tmov's fp form (PTOAS TMovOp::verify with `$fp`): fp a scaling tile, src an acc tile of f32 or
 * i32 with col_major/row_major boxes (the move pair and accToVecMode are checked with the others). */
static void verify_tmov_fp_operand(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *fp) {
    check_loc_in(ctx, op, fp, LOCBIT(LOC_SCALING), "scaling", op_rule(ctx, op, "fp-loc"));
    if (src->tile->loc != LOC_ACC) {
        vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "fp-src"), "expects fp form to use loc=acc src, got loc=%s",
                tile_loc_name(src->tile->loc));
        return;
    }
    DType se = src->tile->dtype;
    if (se != DT_F32 && se != DT_I32 && se != DT_U32)
        vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "fp-src"), "expects fp form src to have element type f32, i32, "
                "got %s", dtype_name(se));
    if (src->tile->blayout != BL_COL_MAJOR || src->tile->slayout != SL_ROW_MAJOR)
        vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "fp-src"), "expects acc-source fp tmov src to use "
                "blayout=col_major and slayout=row_major, got blayout=%s, slayout=%s", blayout_name(src->tile->blayout),
                slayout_name(src->tile->slayout));
}

void verify_convert(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0), tmp = tile_in(op, 1);
    if (!src.tile || !dst.tile) return;
    const OpInfo *info = op_info(op->code);
    bool is_tcvt = op_attr_spec(info, "rmode") != NULL; /* TCVT has round modes; TMOV copies */
    const char *loc_rule = op_rule(ctx, op, "loc");
    if (is_tcvt) {
        check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", loc_rule);
        check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    } else if (src.tile->loc < LOC_COUNT && !(tmov_destinations(ctx->target, src.tile->loc) & LOCBIT(dst.tile->loc))) {
        vreport(ctx, op, dst.loc, SEV_ERROR, loc_rule,
                "expects a move %s supports: mat to left, right, bias or scaling; vec to vec%s; acc to mat or vec; got "
                "%s to %s", target_label(ctx->target), ctx->target == TARGET_A5 ? " or mat" : "",
                tile_loc_name(src.tile->loc), tile_loc_name(dst.tile->loc));
    }
    bool types_ok = check_op_dtype(ctx, op, &src);
    types_ok = check_op_dtype(ctx, op, &dst) && types_ok;
    /* an 8-bit float moves as it is (pto-isa has no fp8 conversion in TMOV; PTOAS checks no type) */
    if (types_ok && !is_tcvt && (dtype_is_f8(src.tile->dtype) || dtype_is_f8(dst.tile->dtype)) &&
        (src.tile->dtype != dst.tile->dtype || op->ins.count > 1 || attr_find(&op->attrs, "reluPreMode")))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "f8-pair"),
                "expects an fp8 tmov to copy its element type as it is (same src and dst type, no fp tile, "
                "preQuantScalar or relu), got %s to %s", dtype_name(src.tile->dtype), dtype_name(dst.tile->dtype));
    if (is_tcvt && types_ok && !(cvt_destinations(ctx, src.tile->dtype) & DTBIT(dst.tile->dtype)))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "pair"),
                "expects a conversion from %s that %s supports (to %s), got %s (docs/isa/TCVT.md)",
                dtype_name(src.tile->dtype), target_label(ctx->target),
                cvt_destinations(ctx, src.tile->dtype) ? dtype_set_text(ctx, cvt_destinations(ctx, src.tile->dtype)) : "nothing",
                dtype_name(dst.tile->dtype));
    if ((is_tcvt || ctx->target == TARGET_A2A3 || src.tile->loc == LOC_MAT) &&
        (src.tile->rows != dst.tile->rows || src.tile->cols != dst.tile->cols))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "shape"),
                "expects src and dst to have compatible shapes, got %lldx%lld and %lldx%lld", (long long)src.tile->rows,
                (long long)src.tile->cols, (long long)dst.tile->rows, (long long)dst.tile->cols);
    for (int dim = 0; dim < 2; dim++) check_same_valid_dim(ctx, op, &src, &dst, dim, op_rule(ctx, op, "valid-shape"));
    /* tmov's second input: an fp tile (the row's position takes tiles: PTOAS's `$fp`) or preQuantScalar */
    bool fp_form = !is_tcvt && (info->ins[1].kinds & K_TILE);
    if (tmp.tile && !fp_form) check_loc_in(ctx, op, &tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
    if (fp_form && tmp.tile) verify_tmov_fp_operand(ctx, op, &src, &tmp);
    const Operand *q = !is_tcvt && op->ins.count > 1 ? &op->ins.items[1] : NULL; /* preQuantScalar or fp */
    const Type *qt = q ? operand_type(q) : NULL;
    if (!fp_form && qt && qt->kind == TY_SCALAR && qt->dtype != DT_I64)
        vreport(ctx, op, q->loc, SEV_ERROR, op_rule(ctx, op, "prequant-type"),
                "expects preQuantScalar to be an i64 quantisation word, got %s", dtype_name(qt->dtype));
    if (q && !fp_form && src.tile->loc != LOC_ACC)
        vreport(ctx, op, q->loc, SEV_ERROR, op_rule(ctx, op, "prequant-loc"),
                "expects preQuantScalar only with an acc src, got loc=%s", tile_loc_name(src.tile->loc));
    const Attr *relu = attr_find(&op->attrs, "reluPreMode");
    if (relu && src.tile->loc != LOC_ACC)
        vreport(ctx, op, relu->loc, SEV_ERROR, op_rule(ctx, op, "relu"), "expects reluPreMode only with an acc src, got loc=%s",
                tile_loc_name(src.tile->loc));
    /* accToVecMode (PTOAS TMovOp::verify): acc -> vec only; with a pre-quantisation word, one vector core */
    const Attr *mode = attr_find(&op->attrs, "accToVecMode");
    int64_t m;
    if (mode && (src.tile->loc != LOC_ACC || dst.tile->loc != LOC_VEC))
        vreport(ctx, op, mode->loc, SEV_ERROR, op_rule(ctx, op, "acc-to-vec-mode"),
                "expects accToVecMode to be used only for acc-to-vec tmov, got loc=%s -> loc=%s",
                tile_loc_name(src.tile->loc), tile_loc_name(dst.tile->loc));
    else if (mode && q && attr_value(mode, AK_ACC_TO_VEC_MODE, &m) && m >= 2)
        vreport(ctx, op, mode->loc, SEV_ERROR, op_rule(ctx, op, "acc-to-vec-mode"),
                "expects fp/preQuantScalar acc-to-vec forms to use single-mode accToVecMode, got %s",
                m == 2 ? "dual_mode_split_m" : "dual_mode_split_n");
}
