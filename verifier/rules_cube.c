/* rules_cube.c - the rules of the cube family (ir/ops_cube.def): tmatmul, tgemv and their .acc
 * and .bias forms. PTOAS's verifyMatTileOperands (PTO.cpp): lhs in left, rhs in right, dst in acc,
 * static shapes [M, K] x [K, N] -> [M, N], static valid m, k, n in [1, 4095], the (dst, lhs, rhs)
 * type triple; gemv instead of the static shapes: one valid row in lhs and dst, lhs valid cols
 * == rhs valid rows, rhs valid cols == dst valid cols. The layouts are the
 * simulator's static checks (TMatmul.hpp), which hold on both targets: the boxes of lhs row-major
 * (Zz or Nz), rhs Zn, dst Nz; a bias tile is one row-major row of dst's type. PTOAS leaves the
 * triple of the .acc forms unchecked; the simulator does not compile them either way, so pto-as
 * checks them too (docs/rules.md). The A5 MX rows (tmatmul.mx*, tgemv.mx*) and tget_scale_addr:
 * verify_matmul_mx and verify_tget_scale_addr at the end. */
#include "vctx.h"

#include <string.h>

/* The legal (dst, lhs, rhs) element types: rhs always equals lhs. */
static bool legal_triple(DType d, DType a, DType b) {
    if (a != b) return false;
    if (d == DT_I32) return a == DT_I8;
    return d == DT_F32 && (a == DT_F16 || a == DT_BF16 || a == DT_F32);
}

/* A tile's storage in the cube's words: Nz, Zn, Zz, Nn or ND/DN. */
static const char *layout_word(const TileType *t) {
    if (t->slayout == SL_NONE_BOX) return t->blayout == BL_COL_MAJOR ? "DN" : "ND";
    if (t->slayout == SL_ROW_MAJOR) return t->blayout == BL_COL_MAJOR ? "Nz" : "Zz";
    return t->blayout == BL_COL_MAJOR ? "Nn" : "Zn";
}

static void check_layout(VerifyCtx *ctx, const Op *op, const TileArg *a, bool ok, const char *want) {
    if (a->tile && !ok)
        vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects %s to be %s, got %s (%s)", a->name, want,
                layout_word(a->tile), type_text(ctx, a->type));
}

static void check_mnk(VerifyCtx *ctx, const Op *op, const TileArg *a, int64_t v, const char *what) {
    if (dim_known(v) && (v < 1 || v > 4095))
        vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "valid-range"),
                "expects the valid %s to be in [1, 4095], got %lld (%s)", what, (long long)v, type_text(ctx, a->type));
}

/* The shapes of a matmul's lhs [M, K], rhs [K, N] and dst [M, N] (PTOAS verifyMatTileOperands;
 * gemv: verifyGemvTileOperands' valid shapes instead) and m, k, n in [1, 4095]. */
static void check_mm_shapes(VerifyCtx *ctx, const Op *op, const TileArg *lhs, const TileArg *rhs, const TileArg *dst,
                            bool gemv) {
    /* static shapes [M, K] x [K, N] -> [M, N] (tgemv: its valid shapes instead, below) */
    if (!gemv && (lhs->tile->rows != dst->tile->rows || lhs->tile->cols != rhs->tile->rows || rhs->tile->cols != dst->tile->cols))
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "shape"),
                "expects shapes [M, K] x [K, N] -> [M, N], got %lldx%lld x %lldx%lld -> %lldx%lld", (long long)lhs->tile->rows,
                (long long)lhs->tile->cols, (long long)rhs->tile->rows, (long long)rhs->tile->cols, (long long)dst->tile->rows,
                (long long)dst->tile->cols);
    check_mnk(ctx, op, lhs, lhs->tile->valid_rows, "m (lhs rows)");
    check_mnk(ctx, op, lhs, lhs->tile->valid_cols, "k (lhs cols)");
    check_mnk(ctx, op, rhs, rhs->tile->valid_cols, "n (rhs cols)");
    if (gemv) { /* PTOAS verifyGemvTileOperands: one valid row in lhs and dst, k and n agreeing */
        if (dim_known(lhs->tile->valid_rows) && lhs->tile->valid_rows != 1)
            vreport(ctx, op, lhs->loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects lhs to have one valid row, got %lld (%s)", (long long)lhs->tile->valid_rows,
                    type_text(ctx, lhs->type));
        if (dim_known(dst->tile->valid_rows) && dst->tile->valid_rows != 1)
            vreport(ctx, op, dst->loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects dst to have one valid row, got %lld (%s)", (long long)dst->tile->valid_rows,
                    type_text(ctx, dst->type));
        if (dim_known(rhs->tile->valid_cols) && dim_known(dst->tile->valid_cols) &&
            rhs->tile->valid_cols != dst->tile->valid_cols)
            vreport(ctx, op, dst->loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects rhs valid cols (%lld) to equal dst valid cols (%lld)", (long long)rhs->tile->valid_cols,
                    (long long)dst->tile->valid_cols);
        if (dim_known(lhs->tile->valid_cols) && dim_known(rhs->tile->valid_rows) &&
            lhs->tile->valid_cols != rhs->tile->valid_rows)
            vreport(ctx, op, rhs->loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects lhs valid cols (%lld) to equal rhs valid rows (%lld)", (long long)lhs->tile->valid_cols,
                    (long long)rhs->tile->valid_rows);
    }
}

/* The buffers of a matmul's operands (`loc`): lhs in L0A (left), rhs in L0B (right), dst and an
 * acc_in in L0C (acc), a bias in BT; acc_in and bias only where their tile is set. */
static bool check_matmul_locs(VerifyCtx *ctx, const Op *op, const TileArg *lhs, const TileArg *rhs, const TileArg *dst,
                              const TileArg *acc_in, const TileArg *bias) {
    const char *loc_rule = op_rule(ctx, op, "loc");
    bool locs = check_loc_in(ctx, op, lhs, LOCBIT(LOC_LEFT), "left", loc_rule);
    locs = check_loc_in(ctx, op, rhs, LOCBIT(LOC_RIGHT), "right", loc_rule) && locs;
    locs = check_loc_in(ctx, op, dst, LOCBIT(LOC_ACC), "acc", loc_rule) && locs;
    if (acc_in->tile) locs = check_loc_in(ctx, op, acc_in, LOCBIT(LOC_ACC), "acc", loc_rule) && locs;
    if (bias->tile) locs = check_loc_in(ctx, op, bias, LOCBIT(LOC_BIAS), "bias", loc_rule) && locs;
    return locs;
}

void verify_matmul(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    bool acc_form = matmul_form(op->code) == MM_ACC, bias_form = matmul_form(op->code) == MM_BIAS;
    int first = acc_form ? 1 : 0;
    TileArg lhs = tile_in(op, first), rhs = tile_in(op, first + 1), dst = tile_out(op, 0);
    TileArg acc_in = acc_form ? tile_in(op, 0) : (TileArg){0}, bias = bias_form ? tile_in(op, 2) : (TileArg){0};
    if (!lhs.tile || !rhs.tile || !dst.tile) return;
    bool locs = check_matmul_locs(ctx, op, &lhs, &rhs, &dst, &acc_in, &bias);
    DType d = dst.tile->dtype, a = lhs.tile->dtype, b = rhs.tile->dtype;
    if (!legal_triple(d, a, b))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects (dst, lhs, rhs) element types (i32, i8, i8), (f32, f16, f16), (f32, bf16, bf16) or (f32, f32, f32), "
                "got (%s, %s, %s)", dtype_name(d), dtype_name(a), dtype_name(b));
    if (acc_in.tile && acc_in.tile->dtype != d)
        vreport(ctx, op, acc_in.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects acc_in and dst to have the same element type, got %s and %s", dtype_name(acc_in.tile->dtype),
                dtype_name(d));
    if (bias.tile) {
        if (bias.tile->dtype != d || bias.tile->rows != 1 || bias.tile->blayout != BL_ROW_MAJOR ||
            bias.tile->slayout != SL_NONE_BOX)
            vreport(ctx, op, bias.loc, SEV_ERROR, op_rule(ctx, op, "bias"),
                    "expects bias to be one row-major row (1xN, none_box) of dst's element type %s (%s)", dtype_name(d),
                    type_text(ctx, bias.type));
    }
    if (!locs) return;
    /* layouts: the simulator's static checks (the left tile's outer layout follows the target) */
    check_layout(ctx, op, &lhs, lhs.tile->slayout == SL_ROW_MAJOR, "a tile of row-major boxes (Zz or Nz)");
    check_layout(ctx, op, &rhs, rhs.tile->slayout == SL_COL_MAJOR && rhs.tile->blayout == BL_ROW_MAJOR, "Zn");
    check_layout(ctx, op, &dst, dst.tile->slayout == SL_ROW_MAJOR && dst.tile->blayout == BL_COL_MAJOR, "Nz");
    if (acc_in.tile)
        check_layout(ctx, op, &acc_in, acc_in.tile->slayout == SL_ROW_MAJOR && acc_in.tile->blayout == BL_COL_MAJOR, "Nz");
    check_mm_shapes(ctx, op, &lhs, &rhs, &dst, (info->flags & OPF_GEMV) != 0);
}

/* The A5-only rows (MX matmul, tget_scale_addr): OP.target on A2/A3 (PTOAS refuses tgemv.mx* and
 * tget_scale_addr there; pto-isa has TMATMUL_MX only for A5, so pto-as refuses tmatmul.mx* too). */
static bool a5_only(VerifyCtx *ctx, const Op *op) {
    if (ctx->target == TARGET_A5) return true;
    vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "target"), "%s is only supported on A5 targets (pto-isa has no %s for %s)",
            op_info(op->code)->name, op_info(op->code)->name + 4, target_label(ctx->target));
    return false;
}

/* PTOAS verifyScaleTileMatchesOperand: a scale tile in the scaling space with its operand's shape
 * and valid shape (pto-isa reads scale(i, k / 32) and scale(k / 32, j): within that shape). */
static bool check_scale_tile(VerifyCtx *ctx, const Op *op, const TileArg *scale, const TileArg *of) {
    if (!scale->tile || !of->tile) return false;
    bool ok = check_loc_in(ctx, op, scale, LOCBIT(LOC_SCALING), "scaling", op_rule(ctx, op, "loc"));
    if (scale->tile->rows != of->tile->rows || scale->tile->cols != of->tile->cols) {
        vreport(ctx, op, scale->loc, SEV_ERROR, op_rule(ctx, op, "scale-shape"),
                "expects %s and %s to have the same shape, got %lldx%lld and %lldx%lld (%s)", scale->name, of->name,
                (long long)scale->tile->rows, (long long)scale->tile->cols, (long long)of->tile->rows, (long long)of->tile->cols,
                type_text(ctx, scale->type));
        ok = false;
    }
    for (int dim = 0; ok && dim < 2; dim++) {
        int64_t x = valid_dim(scale->tile, dim), y = valid_dim(of->tile, dim);
        if (dim_known(x) && dim_known(y) && x != y) {
            vreport(ctx, op, scale->loc, SEV_ERROR, op_rule(ctx, op, "scale-shape"),
                    "expects %s and %s to have the same valid_shape, got %s x %s and %s x %s (%s)", scale->name, of->name,
                    dim_text(ctx, valid_dim(scale->tile, 0)), dim_text(ctx, valid_dim(scale->tile, 1)),
                    dim_text(ctx, valid_dim(of->tile, 0)), dim_text(ctx, valid_dim(of->tile, 1)), type_text(ctx, scale->type));
            ok = false;
            break;
        }
    }
    return ok;
}

/* An MX operand type: an e4m3 or e5m2 spelling (pto-isa isSupportedFp8Combo takes any pair of
 * them; PTOAS any 8-bit float, f8E8M0FNU included, which pto-isa does not compile). */
static bool mx_operand_dtype(DType dt) { return dtype_f8_format(dt) == 'e' || dtype_f8_format(dt) == 'm'; }

void verify_matmul_mx(VerifyCtx *ctx, const Op *op) {
    if (!a5_only(ctx, op)) return;
    const OpInfo *info = op_info(op->code);
    int form = matmul_form(op->code), first = form == MM_ACC ? 1 : 0;
    TileArg lhs = tile_in(op, first), lhs_scale = tile_in(op, first + 1), rhs = tile_in(op, first + 2),
            rhs_scale = tile_in(op, first + 3), dst = tile_out(op, 0);
    TileArg acc_in = form == MM_ACC ? tile_in(op, 0) : (TileArg){0}, bias = form == MM_BIAS ? tile_in(op, 4) : (TileArg){0};
    if (!lhs.tile || !rhs.tile || !dst.tile || !lhs_scale.tile || !rhs_scale.tile) return;
    bool locs = check_matmul_locs(ctx, op, &lhs, &rhs, &dst, &acc_in, &bias);
    locs = check_scale_tile(ctx, op, &lhs_scale, &lhs) && locs;
    locs = check_scale_tile(ctx, op, &rhs_scale, &rhs) && locs;
    DType d = dst.tile->dtype, a = lhs.tile->dtype, b = rhs.tile->dtype;
    if (!mx_operand_dtype(a) || !mx_operand_dtype(b))
        vreport(ctx, op, mx_operand_dtype(a) ? rhs.loc : lhs.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects lhs and rhs to use 8-bit float element types (f8E4M3FN, f8E4M3, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E5M2 "
                "or f8E5M2FNUZ), got %s and %s", dtype_name(a), dtype_name(b));
    if (!(op_dtypes(info, ctx->target) & DTBIT(d)))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects dst to use element type f32, got %s",
                dtype_name(d));
    if (acc_in.tile) {
        if (acc_in.tile->dtype != d)
            vreport(ctx, op, acc_in.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                    "expects acc_in and dst to have the same element type, got %s and %s", dtype_name(acc_in.tile->dtype),
                    dtype_name(d));
        check_same_valid_dim(ctx, op, &dst, &acc_in, 0, op_rule(ctx, op, "valid-shape"));
        check_same_valid_dim(ctx, op, &dst, &acc_in, 1, op_rule(ctx, op, "valid-shape"));
    }
    if (bias.tile) { /* PTOAS verifyMatBiasTileA5 with requireFloatBias; pto-isa CheckBiasValid */
        if (bias.tile->dtype != DT_F32 || bias.tile->rows != 1 || bias.tile->blayout != BL_ROW_MAJOR)
            vreport(ctx, op, bias.loc, SEV_ERROR, op_rule(ctx, op, "bias"),
                    "expects bias to be one row-major row (1xN) of element type f32 (%s)", type_text(ctx, bias.type));
        if ((info->flags & OPF_GEMV) && bias.tile->cols != dst.tile->cols) /* PTOAS TGemvMxBiasOp */
            vreport(ctx, op, bias.loc, SEV_ERROR, op_rule(ctx, op, "bias"),
                    "expects bias and dst to have the same cols, got %lld and %lld", (long long)bias.tile->cols,
                    (long long)dst.tile->cols);
        else if (info->flags & OPF_GEMV) {
            check_same_valid_dim(ctx, op, &dst, &bias, 0, op_rule(ctx, op, "bias"));
            check_same_valid_dim(ctx, op, &dst, &bias, 1, op_rule(ctx, op, "bias"));
        }
    }
    if (!locs) return;
    /* the simulator's CheckMadMxValid: lhs Nz, rhs Zn, dst Nz, lhs cols a multiple of 64 */
    check_layout(ctx, op, &lhs, lhs.tile->slayout == SL_ROW_MAJOR && lhs.tile->blayout == BL_COL_MAJOR, "Nz");
    check_layout(ctx, op, &rhs, rhs.tile->slayout == SL_COL_MAJOR && rhs.tile->blayout == BL_ROW_MAJOR, "Zn");
    check_layout(ctx, op, &dst, dst.tile->slayout == SL_ROW_MAJOR && dst.tile->blayout == BL_COL_MAJOR, "Nz");
    if (acc_in.tile)
        check_layout(ctx, op, &acc_in, acc_in.tile->slayout == SL_ROW_MAJOR && acc_in.tile->blayout == BL_COL_MAJOR, "Nz");
    if (lhs.tile->cols % 64 != 0)
        vreport(ctx, op, lhs.loc, SEV_ERROR, op_rule(ctx, op, "k-align"),
                "expects lhs cols to be a multiple of 64 (pto-isa TMatmulMX's base K), got %lld (%s)", (long long)lhs.tile->cols,
                type_text(ctx, lhs.type));
    check_mm_shapes(ctx, op, &lhs, &rhs, &dst, (info->flags & OPF_GEMV) != 0);
}

void verify_tget_scale_addr(VerifyCtx *ctx, const Op *op) {
    if (!a5_only(ctx, op)) return;
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    if (!src.tile || !dst.tile) return;
    check_scale_tile(ctx, op, &dst, &src);
}
