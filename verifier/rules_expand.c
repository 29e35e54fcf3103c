/* rules_expand.c - the rules of the column-expand and broadcast families (ir/ops_expand.def); the
 * row-expand members take the seed rules of TROWEXPANDMUL/SUB (rules_seed.c). */
#include "vctx.h"

/* PTOAS's verifyTColExpandBinaryLikeOp: vec, row-major tiles of one element type the row lists;
 * src0 with dst's shape and valid shape (the simulator reads src0(i, j) over dst's valid region),
 * src1's valid cols those of dst (it reads src1(0, j)). */
void verify_col_expand(VerifyCtx *ctx, const Op *op) {
    TileArg src0 = tile_in(op, 0), src1 = tile_in(op, 1), dst = tile_out(op, 0);
    if (!src0.tile || !src1.tile || !dst.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc"), *layout_rule = op_rule(ctx, op, "layout");
    const TileArg *all[3] = {&src0, &src1, &dst};
    for (int i = 0; i < 3; i++) {
        check_loc_in(ctx, op, all[i], LOCBIT(LOC_VEC), "vec", loc_rule);
        check_row_major(ctx, op, all[i], layout_rule);
    }
    check_same_dtype(ctx, op, &src0, &dst, &src0, op_rule(ctx, op, "dtype-match"));
    check_same_dtype(ctx, op, &src1, &dst, &src1, op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, &dst);
    if (src0.tile->rows != dst.tile->rows || src0.tile->cols != dst.tile->cols)
        vreport(ctx, op, src0.loc, SEV_ERROR, op_rule(ctx, op, "shape"),
                "expects src0 and dst to have the same shape, got %lldx%lld and %lldx%lld", (long long)src0.tile->rows,
                (long long)src0.tile->cols, (long long)dst.tile->rows, (long long)dst.tile->cols);
    for (int dim = 0; dim < 2; dim++) check_same_valid_dim(ctx, op, &dst, &src0, dim, op_rule(ctx, op, "valid-shape"));
    check_same_valid_dim(ctx, op, &dst, &src1, 1, op_rule(ctx, op, "valid-cols"));
}

/* TROWEXPAND (src's valid rows are dst's) and TCOLEXPAND (src's valid cols are dst's; row-major
 * tiles): vec tiles of one element type the row lists. */
void verify_broadcast(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    if (!src.tile || !dst.tile) return;
    bool columns = (op_info(op->code)->flags & OPF_COLUMNS) != 0;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_same_dtype(ctx, op, &src, &dst, &src, op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, &dst);
    if (columns) {
        check_row_major(ctx, op, &src, op_rule(ctx, op, "layout"));
        check_row_major(ctx, op, &dst, op_rule(ctx, op, "layout"));
    }
    check_same_valid_dim(ctx, op, &dst, &src, columns ? 1 : 0, op_rule(ctx, op, columns ? "valid-cols" : "valid-rows"));
}

/* TFILLPAD / _INPLACE / _EXPAND: vec tiles of one element type; dst's pad value is not null (it
 * is the fill); dst has src's shape, or at least src's shape for the expand form. */
void verify_fillpad(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    if (!src.tile || !dst.tile) return;
    bool expand = (op_info(op->code)->flags & OPF_COLUMNS) != 0;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_same_dtype(ctx, op, &src, &dst, &dst, op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, &dst);
    if (dst.tile->pad == 0)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "pad"),
                "expects dst to have a pad value (pad=1 zero, 2 max, 3 min): it is what fills dst outside src's valid "
                "region (%s)",
                type_text(ctx, dst.type));
    bool ok = expand ? dst.tile->rows >= src.tile->rows && dst.tile->cols >= src.tile->cols
                     : dst.tile->rows == src.tile->rows && dst.tile->cols == src.tile->cols;
    if (!ok)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "shape"), "expects dst to have %s src's shape %lldx%lld, got %lldx%lld",
                expand ? "at least" : "", (long long)src.tile->rows, (long long)src.tile->cols, (long long)dst.tile->rows,
                (long long)dst.tile->cols);
}
