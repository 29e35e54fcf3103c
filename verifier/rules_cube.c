/* rules_cube.c - the rules of the cube family (ir/ops_cube.def): tmatmul, tgemv and their .acc
 * and .bias forms. PTOAS's verifyMatTileOperands (PTO.cpp): lhs in left, rhs in right, dst in acc,
 * static shapes [M, K] x [K, N] -> [M, N], static valid m, k, n in [1, 4095], the (dst, lhs, rhs)
 * type triple; gemv instead of the static shapes: one valid row in lhs and dst, lhs valid cols
 * == rhs valid rows, rhs valid cols == dst valid cols. The layouts are the
 * simulator's static checks (TMatmul.hpp), which hold on both targets: the boxes of lhs row-major
 * (Zz or Nz), rhs Zn, dst Nz; a bias tile is one row-major row of dst's type. PTOAS leaves the
 * triple of the .acc forms unchecked; the simulator does not compile them either way, so pto-as
 * checks them too (docs/rules.md). */
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

void verify_matmul(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    bool acc_form = matmul_form(op->code) == MM_ACC, bias_form = matmul_form(op->code) == MM_BIAS;
    int first = acc_form ? 1 : 0;
    TileArg lhs = tile_in(op, first), rhs = tile_in(op, first + 1), dst = tile_out(op, 0);
    TileArg acc_in = acc_form ? tile_in(op, 0) : (TileArg){0}, bias = bias_form ? tile_in(op, 2) : (TileArg){0};
    if (!lhs.tile || !rhs.tile || !dst.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    bool locs = check_loc_in(ctx, op, &lhs, LOCBIT(LOC_LEFT), "left", loc_rule);
    locs = check_loc_in(ctx, op, &rhs, LOCBIT(LOC_RIGHT), "right", loc_rule) && locs;
    locs = check_loc_in(ctx, op, &dst, LOCBIT(LOC_ACC), "acc", loc_rule) && locs;
    if (acc_in.tile) locs = check_loc_in(ctx, op, &acc_in, LOCBIT(LOC_ACC), "acc", loc_rule) && locs;
    if (bias.tile) locs = check_loc_in(ctx, op, &bias, LOCBIT(LOC_BIAS), "bias", loc_rule) && locs;
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
    /* static shapes [M, K] x [K, N] -> [M, N] (tgemv: its valid shapes instead, below) */
    bool gemv = (info->flags & OPF_GEMV) != 0;
    if (!gemv && (lhs.tile->rows != dst.tile->rows || lhs.tile->cols != rhs.tile->rows || rhs.tile->cols != dst.tile->cols))
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "shape"),
                "expects shapes [M, K] x [K, N] -> [M, N], got %lldx%lld x %lldx%lld -> %lldx%lld", (long long)lhs.tile->rows,
                (long long)lhs.tile->cols, (long long)rhs.tile->rows, (long long)rhs.tile->cols, (long long)dst.tile->rows,
                (long long)dst.tile->cols);
    check_mnk(ctx, op, &lhs, lhs.tile->valid_rows, "m (lhs rows)");
    check_mnk(ctx, op, &lhs, lhs.tile->valid_cols, "k (lhs cols)");
    check_mnk(ctx, op, &rhs, rhs.tile->valid_cols, "n (rhs cols)");
    if (gemv) { /* PTOAS verifyGemvTileOperands: one valid row in lhs and dst, k and n agreeing */
        if (dim_known(lhs.tile->valid_rows) && lhs.tile->valid_rows != 1)
            vreport(ctx, op, lhs.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects lhs to have one valid row, got %lld (%s)", (long long)lhs.tile->valid_rows,
                    type_text(ctx, lhs.type));
        if (dim_known(dst.tile->valid_rows) && dst.tile->valid_rows != 1)
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects dst to have one valid row, got %lld (%s)", (long long)dst.tile->valid_rows,
                    type_text(ctx, dst.type));
        if (dim_known(rhs.tile->valid_cols) && dim_known(dst.tile->valid_cols) &&
            rhs.tile->valid_cols != dst.tile->valid_cols)
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects rhs valid cols (%lld) to equal dst valid cols (%lld)", (long long)rhs.tile->valid_cols,
                    (long long)dst.tile->valid_cols);
        if (dim_known(lhs.tile->valid_cols) && dim_known(rhs.tile->valid_rows) &&
            lhs.tile->valid_cols != rhs.tile->valid_rows)
            vreport(ctx, op, rhs.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects lhs valid cols (%lld) to equal rhs valid rows (%lld)", (long long)lhs.tile->valid_cols,
                    (long long)rhs.tile->valid_rows);
    }
}
