/* rules_reduce.c - the rules of the reduction family (ir/ops_reduce.def): row reductions write
 * one value per source row into column 0 of dst, column reductions one value per source column
 * into row 0. PTOAS's rules: vec tiles, the same element type (the simulator also widens f16 to
 * f32, which PTOAS rejects), the row's types per target, row-major none_box sources; a row
 * reduction's dst is row-major (ND) or a col_major Rx1 tile (DN). */
#include "vctx.h"

#include <string.h>

void verify_reduce(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0), tmp = tile_in(op, 1);
    if (!src.tile || !dst.tile) return;
    bool columns = (op_info(op->code)->flags & OPF_COLUMNS) != 0;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_same_dtype(ctx, op, &src, &dst, &dst, op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, &src);
    check_row_major(ctx, op, &src, op_rule(ctx, op, "src-layout"));
    if (src.tile->slayout != SL_NONE_BOX)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "src-layout"), "expects src to use the none_box slayout (%s)",
                type_text(ctx, src.type));
    if (columns) {
        check_row_major(ctx, op, &dst, op_rule(ctx, op, "dst-layout"));
        check_same_valid_dim(ctx, op, &src, &dst, 1, op_rule(ctx, op, "valid-cols"));
        if (dim_known(dst.tile->valid_rows) && dst.tile->valid_rows != 1)
            vreport(ctx, op, dst.loc, SEV_WARNING, op_rule(ctx, op, "dst-valid-rows"),
                    "expects dst valid_shape[0] to be 1, got %lld: only row 0 is written (%s)",
                    (long long)dst.tile->valid_rows, type_text(ctx, dst.type));
    } else {
        if (dst.tile->blayout == BL_COL_MAJOR && dst.tile->cols != 1)
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dst-layout"),
                    "expects a col_major (DN) dst to have shape[1] == 1, got %lld (%s)", (long long)dst.tile->cols,
                    type_text(ctx, dst.type));
        check_same_valid_dim(ctx, op, &src, &dst, 0, op_rule(ctx, op, "valid-rows"));
        if (dim_known(dst.tile->valid_cols) && dst.tile->valid_cols != 1)
            vreport(ctx, op, dst.loc, SEV_WARNING, op_rule(ctx, op, "dst-valid-cols"),
                    "expects dst valid_shape[1] to be 1, got %lld: only column 0 is written (%s)",
                    (long long)dst.tile->valid_cols, type_text(ctx, dst.type));
    }
    if (tmp.tile) {
        check_loc_in(ctx, op, &tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
        if (columns && !attr_find(&op->attrs, "isBinary"))
            vreport(ctx, op, tmp.loc, SEV_ERROR, op_rule(ctx, op, "tmp-binary"), "tmp operand requires isBinary attribute");
    } else if (columns && op_attr_value(op, "isBinary", AK_BOOL, 0)) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "tmp-binary"), "isBinary attribute requires tmp operand");
    }
}

/* The arg reductions (ROW_/COL_ARGREDUCE_OP): dst gets the i32 or ui32 index of each row's (column's)
 * first strict extreme. PTOAS's TRowArgMaxOp/TColArgMaxOp rules: a row-major none_box src whose
 * types the row lists (the same on both targets), a required tmp of src's element type and valid
 * shape, a non-zero src valid shape; a row form's dst is ND or a col_major Rx1 (DN) tile, a column
 * form's dst is ND. The simulator's static_asserts: vec tiles, non-fractal dst, index i32/u32. */
void verify_argreduce(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), tmp = tile_in(op, 1), dst = tile_out(op, 0);
    if (!src.tile || !dst.tile) return;
    bool columns = (op_info(op->code)->flags & OPF_COLUMNS) != 0;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &src, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_op_dtype(ctx, op, &src);
    check_dtype_in(ctx, op, &dst, op_rule(ctx, op, "dst-dtype"), "dst element type",
                   DTBIT(DT_I32) | DTBIT(DT_U32));
    const char *src_layout = op_rule(ctx, op, "src-layout");
    check_row_major(ctx, op, &src, src_layout);
    if (src.tile->slayout != SL_NONE_BOX)
        vreport(ctx, op, src.loc, SEV_ERROR, src_layout, "expects src to use the none_box slayout (%s)",
                type_text(ctx, src.type));
    const char *dst_layout = op_rule(ctx, op, "dst-layout");
    if (dst.tile->slayout != SL_NONE_BOX)
        vreport(ctx, op, dst.loc, SEV_ERROR, dst_layout, "expects dst to use the none_box slayout (%s)",
                type_text(ctx, dst.type));
    for (int dim = 0; dim < 2; dim++)
        if (dim_known(valid_dim(src.tile, dim)) && valid_dim(src.tile, dim) == 0)
            vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "src-valid-nonzero"),
                    "expects src valid_shape[%d] to be non-zero (%s)", dim, type_text(ctx, src.type));
    if (columns) {
        check_row_major(ctx, op, &dst, dst_layout);
        check_same_valid_dim(ctx, op, &src, &dst, 1, op_rule(ctx, op, "valid-cols"));
        if (dim_known(dst.tile->valid_rows) && dst.tile->valid_rows != 1)
            vreport(ctx, op, dst.loc, SEV_WARNING, op_rule(ctx, op, "dst-valid-rows"),
                    "expects dst valid_shape[0] to be 1, got %lld: only row 0 is written, and PTOAS rejects this (%s)",
                    (long long)dst.tile->valid_rows, type_text(ctx, dst.type));
    } else {
        if (dst.tile->blayout == BL_COL_MAJOR && dst.tile->cols != 1)
            vreport(ctx, op, dst.loc, SEV_ERROR, dst_layout,
                    "expects a col_major (DN) dst to have shape[1] == 1, got %lld (%s)", (long long)dst.tile->cols,
                    type_text(ctx, dst.type));
        check_same_valid_dim(ctx, op, &src, &dst, 0, op_rule(ctx, op, "valid-rows"));
        if (dim_known(dst.tile->valid_cols) && dst.tile->valid_cols != 1)
            vreport(ctx, op, dst.loc, SEV_WARNING, op_rule(ctx, op, "dst-valid-cols"),
                    "expects dst valid_shape[1] to be 1, got %lld: only column 0 is written, and PTOAS rejects this (%s)",
                    (long long)dst.tile->valid_cols, type_text(ctx, dst.type));
    }
    if (tmp.tile) {
        check_loc_in(ctx, op, &tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
        check_same_dtype(ctx, op, &src, &tmp, &tmp, op_rule(ctx, op, "tmp-dtype"));
        for (int dim = 0; dim < 2; dim++) check_same_valid_dim(ctx, op, &src, &tmp, dim, op_rule(ctx, op, "tmp-valid"));
    }
}
