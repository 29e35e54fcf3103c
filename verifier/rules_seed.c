/* rules_seed.c - the rules of four seed instructions (shared/seeds/): one named rule per
 * constraint and target for TROWEXPANDMUL, TROWEXPANDSUB, TROWPROD and TEXPANDS (TMULS is a member
 * of the tile-scalar family, rules_family.c, whose rules are its seed's). Where a
 * valid dimension is dynamic (`?`) only what is known statically is checked. docs/rules.md lists
 * every ID with the seed sentence behind it. */
#include "vctx.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------------------------ */
/* TROWEXPANDMUL / TROWEXPANDSUB                                                               */
/* ------------------------------------------------------------------------------------------ */


/* Whether two tiles have the same valid shape: statically different wins over unknown. */
static ShapeMatch valid_shape_match(const TileType *a, const TileType *b) {
    ShapeMatch m = SHAPE_SAME;
    for (int dim = 0; dim < 2; dim++) {
        int64_t x = valid_dim(a, dim), y = valid_dim(b, dim);
        if (!dim_known(x) || !dim_known(y))
            m = SHAPE_UNKNOWN;
        else if (x != y)
            return SHAPE_DIFFERENT;
    }
    return m;
}

static const char *valid_text(VerifyCtx *ctx, const TileType *t) {
    return arena_printf(ctx->arena, "%sx%s", dim_text(ctx, t->valid_rows), dim_text(ctx, t->valid_cols));
}

/* True when t is one 32-byte block of dst's element type wide (Mode 2 shape): its valid cols, or
 * its physical cols when the valid ones are dynamic. */
static bool is_block_wide(const TileType *t, const TileType *dst) {
    size_t size = dtype_size(dst->dtype);
    int64_t cols = dim_known(t->valid_cols) ? t->valid_cols : t->cols;
    return size && cols == 32 / (int64_t)size;
}

/* Picks the full-size and the expanded operand (row_expand_full_operand: "exactly one of src0 or
 * src1 must have the same valid shape as dst"; a col_major operand can only be the expanded one).
 * False when no consistent choice exists (reported). */
static bool pick_row_expand_roles(VerifyCtx *ctx, const Op *op, TileArg *src0, TileArg *src1, const TileArg *dst,
                                  TileArg **full, TileArg **expanded) {
    const char *rule = op_rule(ctx, op, "full-operand");
    const ShapeMatch match[2] = {valid_shape_match(src0->tile, dst->tile), valid_shape_match(src1->tile, dst->tile)};
    const bool col[2] = {src0->tile->blayout == BL_COL_MAJOR, src1->tile->blayout == BL_COL_MAJOR};
    const bool block[2] = {is_block_wide(src0->tile, dst->tile), is_block_wide(src1->tile, dst->tile)};
    int which = row_expand_full_operand(match, col, block);
    if (which == ROW_EXPAND_BOTH_FULL) /* the ISA's formula src0(r, c mod Cv0) OP src1(r, c mod Cv1): elementwise */
        return false;
    if (which == ROW_EXPAND_NO_FULL) {
        vreport(ctx, op, src1->loc, SEV_ERROR, rule,
                "expects exactly one of src0 and src1 to have the valid shape of dst (%s), got src0 %s and src1 %s",
                valid_text(ctx, dst->tile), valid_text(ctx, src0->tile), valid_text(ctx, src1->tile));
        return false;
    }
    *full = which == 0 ? src0 : src1;
    *expanded = *full == src0 ? src1 : src0;
    if (valid_shape_match((*full)->tile, dst->tile) == SHAPE_DIFFERENT) {
        vreport(ctx, op, (*full)->loc, SEV_ERROR, rule,
                "expects exactly one of src0 and src1 to have the valid shape of dst (%s); the full-size operand %s "
                "(%s) has %s",
                valid_text(ctx, dst->tile), (*full)->name, blayout_name((*full)->tile->blayout),
                valid_text(ctx, (*full)->tile));
    }
    if ((*full)->tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, (*full)->loc, SEV_ERROR, op_rule(ctx, op, "full-layout"),
                "expects the full-size operand %s to use row-major layout, got blayout=%s (%s)", (*full)->name,
                blayout_name((*full)->tile->blayout), type_text(ctx, (*full)->type));
    return true;
}

/* Mode 1 (col_major, one value per row) or Mode 2 (row_major, a 32-byte block per row) shape of
 * the expanded operand. */
static void check_expanded_operand(VerifyCtx *ctx, const Op *op, const TileArg *e, const TileArg *dst) {
    const TileType *t = e->tile;
    bool mode1 = t->blayout == BL_COL_MAJOR;
    const char *mode = mode1 ? "Mode 1" : "Mode 2";
    const char *layout = blayout_name(t->blayout);
    int64_t rows = dst->tile->valid_rows;
    if (dim_known(t->valid_rows) && dim_known(rows) && t->valid_rows != rows)
        vreport(ctx, op, e->loc, SEV_ERROR, op_rule(ctx, op, mode1 ? "mode1-rows" : "mode2-rows"),
                "expects the %s expanded operand %s (%s) to have valid_shape[0] == dst valid_shape[0] (%lld), got "
                "%lld",
                mode, e->name, layout, (long long)rows, (long long)t->valid_rows);
    DType dt = dst->tile->dtype;
    int64_t block = dtype_size(dt) ? 32 / (int64_t)dtype_size(dt) : 0;
    if (mode1) {
        if (dim_known(t->valid_cols) && t->valid_cols != 1)
            vreport(ctx, op, e->loc, SEV_ERROR, op_rule(ctx, op, "mode1-cols"),
                    "expects the Mode 1 expanded operand %s (col_major) to have valid_shape[1] == 1, got %lld", e->name,
                    (long long)t->valid_cols);
        else if (ctx->target == TARGET_A5 && t->cols != 1)
            vreport(ctx, op, e->loc, SEV_WARNING, op_rule(ctx, op, "mode1-packed"),
                    "the Mode 1 expanded operand %s has %lld columns; the A5 kernel reads row i's value at element "
                    "i * cols, which is only the col_major (i, 0) element when cols == 1 (%s)",
                    e->name, (long long)t->cols, type_text(ctx, e->type));
        return;
    }
    if (dim_known(t->valid_cols) && t->valid_cols != block)
        vreport(ctx, op, e->loc, SEV_ERROR, op_rule(ctx, op, "mode2-cols"),
                "expects the Mode 2 expanded operand %s (row_major) to have valid_shape[1] == 32 / sizeof(%s) = %lld, "
                "got %lld",
                e->name, dtype_name(dt), (long long)block, (long long)t->valid_cols);
    else if (t->cols != block)
        vreport(ctx, op, e->loc, SEV_WARNING, op_rule(ctx, op, "mode2-packed"),
                "the Mode 2 expanded operand %s has %lld columns; the NPU kernels read one packed 32-byte block per "
                "row (cols == %lld), so results differ from this program on hardware (%s)",
                e->name, (long long)t->cols, (long long)block, type_text(ctx, e->type));
}

static void check_row_expand_tmp(VerifyCtx *ctx, const Op *op, const TileArg *tmp, const TileArg *dst, int mode) {
    if (mode == 2)
        vreport(ctx, op, tmp->loc, SEV_ERROR, op_rule(ctx, op, "tmp-mode"),
                "expects no tmp operand with a Mode 2 (row_major) expanded operand: the tmp form only supports Mode 1");
    check_same_dtype(ctx, op, tmp, dst, tmp, op_rule(ctx, op, "tmp-dtype"));
    check_loc_in(ctx, op, tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
    int64_t rows = dst->tile->valid_rows, have;
    if (ctx->target != TARGET_A2A3 || mode != 1 || !dim_known(rows) || rows < 0) return;
    if (!tile_footprint_bytes(tmp->tile, &have)) return;
    int64_t need = row_expand_tmp_bytes(rows);
    if (have < need)
        vreport(ctx, op, tmp->loc, SEV_ERROR, op_rule(ctx, op, "tmp-size"),
                "expects tmp to hold at least %lld bytes on A2/A3 (%s for %lld valid rows), got %lld bytes (%s)",
                (long long)need, rows < 256 ? "ceil(R / 8) * 256" : "30 * 256", (long long)rows, (long long)have,
                type_text(ctx, tmp->type));
}

void verify_row_expand(VerifyCtx *ctx, const Op *op) {
    TileArg src0 = tile_in(op, 0), src1 = tile_in(op, 1), tmp = tile_in(op, 2), dst = tile_out(op, 0);
    if (!src0.tile || !src1.tile || !dst.tile) return;
    /* types */
    check_same_dtype(ctx, op, &src0, &dst, &src0, op_rule(ctx, op, "dtype-match"));
    check_same_dtype(ctx, op, &src1, &dst, &src1, op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, &dst);
    /* layout */
    check_row_major(ctx, op, &dst, op_rule(ctx, op, "dst-layout"));
    /* shape / mode */
    TileArg *full = NULL, *expanded = NULL;
    int mode = 0;
    if (pick_row_expand_roles(ctx, op, &src0, &src1, &dst, &full, &expanded)) {
        check_expanded_operand(ctx, op, expanded, &dst);
        mode = expanded->tile->blayout == BL_COL_MAJOR ? 1 : 2;
    }
    if (tmp.tile)
        check_row_expand_tmp(ctx, op, &tmp, &dst, mode);
    else if (mode == 1 && ctx->target == TARGET_A2A3)
        record_scratch_user(ctx, op);
}

/* ------------------------------------------------------------------------------------------ */
/* TROWPROD                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void check_trowprod_layouts(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *dst) {
    const char *src_rule = op_rule(ctx, op, "src-layout"), *dst_rule = op_rule(ctx, op, "dst-layout");
    if (src->tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, src->loc, SEV_ERROR, src_rule, "expects src to use the row_major blayout, got %s (%s)",
                blayout_name(src->tile->blayout), type_text(ctx, src->type));
    if (src->tile->slayout != SL_NONE_BOX)
        vreport(ctx, op, src->loc, SEV_ERROR, src_rule, "expects src to use the none_box slayout, got %s (%s)",
                slayout_name(src->tile->slayout), type_text(ctx, src->type));
    if (dst->tile->slayout != SL_NONE_BOX)
        vreport(ctx, op, dst->loc, SEV_ERROR, dst_rule, "expects dst to use the none_box slayout, got %s (%s)",
                slayout_name(dst->tile->slayout), type_text(ctx, dst->type));
    else if (dst->tile->blayout == BL_COL_MAJOR && dst->tile->cols != 1)
        vreport(ctx, op, dst->loc, SEV_ERROR, dst_rule, "expects DN-style dst to have shape[1] == 1, got %lld (%s)",
                (long long)dst->tile->cols, type_text(ctx, dst->type));
}

static void check_trowprod_valid(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *dst) {
    for (int dim = 0; dim < 2; dim++)
        if (valid_dim(src->tile, dim) == 0)
            vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "src-valid-nonzero"),
                    "expects src valid_shape[%d] to be non-zero (%s)", dim, type_text(ctx, src->type));
    check_same_valid_dim(ctx, op, src, dst, 0, op_rule(ctx, op, "valid-rows"));
    int64_t cols = dst->tile->valid_cols;
    /* not a seed "must" (the seed accepts an ND dst; the op writes column 0 of each row): PTOAS
     * rejects it, so it is a warning in PTOAS's words (SPEC 3: errors are for what a seed requires) */
    if (dim_known(cols) && cols != 1)
        vreport(ctx, op, dst->loc, SEV_WARNING, op_rule(ctx, op, "dst-valid-cols"),
                "expects dst valid_shape[1] to be 1, got %lld (%s): only column 0 of each row is written, and PTOAS "
                "rejects this",
                (long long)cols, type_text(ctx, dst->type));
}

/* TROWPROD: locs, ND src, ND/DN dst, dtypes, valid region, tmp. */
void verify_trowprod(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), tmp = tile_in(op, 1), dst = tile_out(op, 0);
    if (!src.tile || !dst.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_trowprod_layouts(ctx, op, &src, &dst);
    check_same_dtype(ctx, op, &src, &dst, &dst, op_rule(ctx, op, "dtype-match"));
    check_dtype_in(ctx, op, &src, op_rule(ctx, op, "dtype"), "trowprod element type",
                   op_dtypes(op_info(op->code), ctx->target));
    check_trowprod_valid(ctx, op, &src, &dst);
    if (!tmp.tile) return;
    check_same_dtype(ctx, op, &src, &tmp, &tmp, op_rule(ctx, op, "tmp-dtype"));
    check_loc_in(ctx, op, &tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
    int64_t bytes;
    if (ctx->target == TARGET_A2A3 && tile_footprint_bytes(tmp.tile, &bytes) && bytes < 32)
        vreport(ctx, op, tmp.loc, SEV_ERROR, op_rule(ctx, op, "tmp-size"),
                "expects tmp to hold at least one 32-byte block on A2/A3, got %lld bytes (%s)", (long long)bytes,
                type_text(ctx, tmp.type));
}

/* ------------------------------------------------------------------------------------------ */
/* TEXPANDS                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* TEXPANDS: vec/mat dst, per-target dtypes, A5 row-major vec, mat size, the scalar. */
void verify_texpands(VerifyCtx *ctx, const Op *op) {
    TileArg dst = tile_out(op, 0);
    if (!dst.tile) return;
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC) | LOCBIT(LOC_MAT), "vec or mat", op_rule(ctx, op, "loc"));
    check_dtype_in(ctx, op, &dst, op_rule(ctx, op, "dtype"), "texpands dst element type",
                   op_dtypes(op_info(op->code), ctx->target));
    if (ctx->target == TARGET_A5 && dst.tile->loc == LOC_VEC && dst.tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "a5-row-major"),
                "expects vec dst to use row-major layout on A5, got blayout=%s (%s)", blayout_name(dst.tile->blayout),
                type_text(ctx, dst.type));
    int64_t bytes;
    if (dst.tile->loc == LOC_MAT && tile_footprint_bytes(dst.tile, &bytes)) {
        int64_t blocks = bytes / 32;
        if (blocks < 1 || blocks > 32767)
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "mat-size"),
                    "expects a mat dst to have rows * cols * sizeof(%s) / 32 in [1, 32767], got %lld (%s)",
                    dtype_name(dst.tile->dtype), (long long)blocks, type_text(ctx, dst.type));
    }
    check_tile_scalar(ctx, op, 0, &dst);
}
