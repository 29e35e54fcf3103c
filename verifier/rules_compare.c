/* rules_compare.c - the rules of the compare and select, generators family (ops_compare.def:
 * TCMP, TCMPS, TSEL, TSELS, TCI, TTRI). Messages use PTOAS's words where PTOAS has the check; the
 * other rules keep the CPU simulator's indexing inside the tiles (mask sizes, shapes). Rule IDs
 * carry the op's name (TCMP.dtype); docs/rules.md lists them with their sources. */
#include "vctx.h"

#include <string.h>

/* ---- shared ------------------------------------------------------------------------------ */

/* Reports `rule` unless arg's element type is an integer type (a packed mask is read with shifts). */
static bool check_int_mask(VerifyCtx *ctx, const Op *op, const TileArg *arg, const char *rule) {
    if (!arg->tile || dtype_is_int(arg->tile->dtype)) return true;
    vreport(ctx, op, arg->loc, SEV_ERROR, rule, "expects %s element type to be an integer type, got %s (%s)", arg->name,
            dtype_name(arg->tile->dtype), type_text(ctx, arg->type));
    return false;
}

/* Reports `rule` unless a and b have the same physical shape. */
static bool check_same_shape(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, const char *what,
                             const char *rule) {
    if (!a->tile || !b->tile || (a->tile->rows == b->tile->rows && a->tile->cols == b->tile->cols)) return true;
    vreport(ctx, op, b->loc, SEV_ERROR, rule, "expects %s to have the same shape, got %lldx%lld (%s) and %lldx%lld (%s)",
            what, (long long)a->tile->rows, (long long)a->tile->cols, a->name, (long long)b->tile->rows,
            (long long)b->tile->cols, b->name);
    return false;
}

/* ---- TCMP ----------------------------------------------------------------------------------- */

/* vec tiles; src0 and src1 of one element type the target lists; dst 8-bit (A5 also ui32, the
 * docs' and the simulator's u32 mask); src0/src1 same valid shape; src0's valid rows dst's; on A5
 * one shape for all three (PTOAS). */
void verify_tcmp(VerifyCtx *ctx, const Op *op) {
    TileArg s0 = tile_in(op, 0), s1 = tile_in(op, 1), d = tile_out(op, 0);
    if (!s0.tile || !s1.tile || !d.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &s0, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &s1, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &d, LOCBIT(LOC_VEC), "vec", loc_rule);
    if (check_same_dtype(ctx, op, &s0, &s1, &s1, op_rule(ctx, op, "dtype-match")))
        check_dtype_in(ctx, op, &s0, op_rule(ctx, op, "dtype"), "tcmp input element type",
                       op_dtypes(op_info(op->code), ctx->target));
    DType dd = d.tile->dtype;
    bool dst_ok = dd == DT_I8 || dd == DT_U8 || (ctx->target == TARGET_A5 && dd == DT_U32);
    if (!dst_ok)
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "dst-dtype"), "expects dst element type to be %s, got %s (%s)",
                ctx->target == TARGET_A5 ? "i8 or ui32" : "i8", dtype_name(dd), type_text(ctx, d.type));
    const char *vs = op_rule(ctx, op, "valid-shape");
    int64_t r0 = s0.tile->valid_rows, r1 = s1.tile->valid_rows, c0 = s0.tile->valid_cols, c1 = s1.tile->valid_cols;
    if (dim_known(r0) && dim_known(r1) && r0 != r1)
        vreport(ctx, op, s1.loc, SEV_ERROR, vs, "expects src0 and src1 to have the same valid row, got %lld and %lld",
                (long long)r0, (long long)r1);
    if (dim_known(c0) && dim_known(c1) && c0 != c1)
        vreport(ctx, op, s1.loc, SEV_ERROR, vs, "expects src0 and src1 to have the same valid column, got %lld and %lld",
                (long long)c0, (long long)c1);
    if (dim_known(r0) && dim_known(d.tile->valid_rows) && r0 != d.tile->valid_rows)
        vreport(ctx, op, d.loc, SEV_ERROR, vs, "expects src0 valid row to equal dst valid row, got %lld and %lld",
                (long long)r0, (long long)d.tile->valid_rows);
    if (ctx->target == TARGET_A5) {
        const char *sh = op_rule(ctx, op, "shape");
        if (check_same_shape(ctx, op, &s0, &s1, "src0, src1, and dst", sh)) check_same_shape(ctx, op, &s0, &d, "src0, src1, and dst", sh);
    }
}

/* ---- TCMPS ---------------------------------------------------------------------------------- */

/* vec tiles; src of an element type the target lists; an integer or float scalar that converts
 * to it; src's valid rows dst's (PTOAS). */
void verify_tcmps(VerifyCtx *ctx, const Op *op) {
    TileArg s = tile_in(op, 0), d = tile_out(op, 0);
    if (!s.tile || !d.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &s, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &d, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_dtype_in(ctx, op, &s, op_rule(ctx, op, "dtype"), "tcmps input element type",
                   op_dtypes(op_info(op->code), ctx->target));
    check_tile_scalar(ctx, op, 1, &s); /* converted to src's type (C++ argument) */
    int64_t rs = s.tile->valid_rows, rd = d.tile->valid_rows;
    if (dim_known(rs) && dim_known(rd) && rs != rd)
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "valid-rows"),
                "expects src and dst to have the same valid_shape[0], got %lld and %lld", (long long)rs, (long long)rd);
}

/* ---- TSEL ----------------------------------------------------------------------------------- */

/* vec tiles; src0, src1, dst of one element type the target lists, row-major, one shape (the
 * simulator's single C++ tile type: it indexes src0 and src1 at dst's offsets); an integer mask
 * big enough for the bit stream: ceil(R*C/8) elements walked over its valid columns, row by row,
 * within its rows. */
void verify_tsel(VerifyCtx *ctx, const Op *op) {
    TileArg m = tile_in(op, 0), s0 = tile_in(op, 1), s1 = tile_in(op, 2), tmp = tile_in(op, 3), d = tile_out(op, 0);
    if (!m.tile || !s0.tile || !s1.tile || !d.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    const TileArg *all[] = {&m, &s0, &s1, &d};
    for (int i = 0; i < 4; i++) check_loc_in(ctx, op, all[i], LOCBIT(LOC_VEC), "vec", loc_rule);
    if (tmp.tile) check_loc_in(ctx, op, &tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
    const char *dm = op_rule(ctx, op, "dtype-match");
    bool same = d.tile->dtype == s0.tile->dtype && d.tile->dtype == s1.tile->dtype;
    if (!same)
        vreport(ctx, op, d.loc, SEV_ERROR, dm, "expects src0, src1, and dst to have the same element type, got %s, %s and %s",
                dtype_name(s0.tile->dtype), dtype_name(s1.tile->dtype), dtype_name(d.tile->dtype));
    else
        check_dtype_in(ctx, op, &d, op_rule(ctx, op, "dtype"), "tsel src0, src1, and dst element type",
                       op_dtypes(op_info(op->code), ctx->target));
    const char *lay = op_rule(ctx, op, "layout");
    if (s0.tile->blayout != BL_ROW_MAJOR || s1.tile->blayout != BL_ROW_MAJOR || d.tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, d.loc, SEV_ERROR, lay, "expects src0, src1, and dst to use row-major layout");
    const char *sh = op_rule(ctx, op, "shape");
    if (check_same_shape(ctx, op, &d, &s0, "src0, src1, and dst", sh)) check_same_shape(ctx, op, &d, &s1, "src0, src1, and dst", sh);
    check_int_mask(ctx, op, &m, op_rule(ctx, op, "mask-dtype"));
    int64_t R = d.tile->valid_rows, C = d.tile->valid_cols, mvc = m.tile->valid_cols;
    if (dim_known(R) && dim_known(C) && dim_known(mvc) && R > 0 && C > 0) {
        int64_t need = (R * C + 7) / 8; /* mask elements the stream reads */
        if (mvc == 0 || (need - 1) / mvc >= m.tile->rows)
            vreport(ctx, op, m.loc, SEV_ERROR, op_rule(ctx, op, "mask-size"),
                    "expects mask to hold the %lld mask elements (8 bits each) of dst's %lldx%lld valid elements in rows of "
                    "its %lld valid columns, got %lld rows (%s)",
                    (long long)need, (long long)R, (long long)C, (long long)mvc, (long long)m.tile->rows,
                    type_text(ctx, m.type));
    }
}

/* ---- TSELS ---------------------------------------------------------------------------------- */

/* vec tiles; src and dst of one element type the target lists (signless integers, PTOAS), the
 * same valid shape, row-major; an integer mask with a row per dst valid row and
 * ceil(C / bits of its element) columns; the scalar converts to the element type. */
void verify_tsels(VerifyCtx *ctx, const Op *op) {
    TileArg m = tile_in(op, 0), s = tile_in(op, 1), tmp = tile_in(op, 2), d = tile_out(op, 0);
    if (!m.tile || !s.tile || !d.tile) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    check_loc_in(ctx, op, &m, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &s, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &d, LOCBIT(LOC_VEC), "vec", loc_rule);
    if (tmp.tile) check_loc_in(ctx, op, &tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
    if (check_same_dtype(ctx, op, &s, &d, &d, op_rule(ctx, op, "dtype-match")))
        check_dtype_in(ctx, op, &d, op_rule(ctx, op, "dtype"), "tsels src and dst element type",
                       op_dtypes(op_info(op->code), ctx->target));
    const char *vs = op_rule(ctx, op, "valid-shape");
    check_same_valid_dim(ctx, op, &s, &d, 0, vs);
    check_same_valid_dim(ctx, op, &s, &d, 1, vs);
    if (s.tile->blayout != BL_ROW_MAJOR || d.tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects src and dst to use row-major layout");
    if (check_int_mask(ctx, op, &m, op_rule(ctx, op, "mask-dtype"))) {
        int64_t R = d.tile->valid_rows, C = d.tile->valid_cols, bits = (int64_t)dtype_size(m.tile->dtype) * 8;
        if (dim_known(R) && dim_known(C) && R > 0 && C > 0 && (m.tile->rows < R || m.tile->cols < (C + bits - 1) / bits))
            vreport(ctx, op, m.loc, SEV_ERROR, op_rule(ctx, op, "mask-size"),
                    "expects mask to have at least %lld rows and %lld columns (%lld bits per %s element for dst's %lld "
                    "valid columns), got %lldx%lld",
                    (long long)R, (long long)((C + bits - 1) / bits), (long long)bits, dtype_name(m.tile->dtype),
                    (long long)C, (long long)m.tile->rows, (long long)m.tile->cols);
    }
    check_tile_scalar(ctx, op, 3, &d);
}

/* ---- TCI ------------------------------------------------------------------------------------ */

/* a vec dst of one row (the simulator's static_assert) with cols other than 1, of a 16- or 32-bit
 * integer type; S of exactly that type (PTOAS). */
void verify_tci(VerifyCtx *ctx, const Op *op) {
    TileArg d = tile_out(op, 0);
    if (!d.tile) return;
    check_loc_in(ctx, op, &d, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc"));
    DType dd = d.tile->dtype;
    if (!dtype_is_int(dd) || !(op_dtypes(op_info(op->code), ctx->target) & DTBIT(dd)))
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects dst element type to be i16/i32, got %s (%s)",
                dtype_name(dd), type_text(ctx, d.type));
    else if (op->ins.count >= 1) {
        const Operand *so = &op->ins.items[0];
        const Type *st = operand_type(so);
        if (st && (st->kind != TY_SCALAR || st->dtype != dd))
            vreport(ctx, op, operand_type_loc(op, so), SEV_ERROR, op_rule(ctx, op, "scalar-type"),
                    "expects S and dst element type to be exactly the same type, got %s and %s", type_text(ctx, st),
                    dtype_name(dd));
    }
    if (d.tile->cols == 1)
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "cols"), "expects dst cols to be different from 1 (%s)",
                type_text(ctx, d.type));
    if (d.tile->rows != 1)
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "rows"), "expects dst to have 1 row (TCI only supports 1 row tiles), got %lld (%s)",
                (long long)d.tile->rows, type_text(ctx, d.type));
}

/* ---- TTRI ----------------------------------------------------------------------------------- */

/* a row-major vec dst of a type the target lists; an integer diagonal; upperOrLower 0 or 1. */
void verify_ttri(VerifyCtx *ctx, const Op *op) {
    TileArg d = tile_out(op, 0);
    if (!d.tile) return;
    check_loc_in(ctx, op, &d, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc"));
    uint32_t set = op_dtypes(op_info(op->code), ctx->target);
    if (!(set & DTBIT(d.tile->dtype)))
        vreport(ctx, op, d.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects %s dst element type to be %s, got %s (%s)",
                target_label(ctx->target), dtype_set_text(ctx, set), dtype_name(d.tile->dtype), type_text(ctx, d.type));
    check_row_major(ctx, op, &d, op_rule(ctx, op, "layout"));
    if (op->ins.count >= 1) {
        const Operand *so = &op->ins.items[0];
        const Type *st = operand_type(so);
        if (st && (st->kind != TY_SCALAR || !dtype_is_int(st->dtype)))
            vreport(ctx, op, operand_type_loc(op, so), SEV_ERROR, op_rule(ctx, op, "diagonal-type"),
                    "expects diagonal to be an integer operand, got %s", type_text(ctx, st));
    }
    const Attr *a = attr_find(&op->attrs, "upperOrLower");
    int64_t v;
    if (a && attr_value(a, AK_INT, &v) && v != 0 && v != 1)
        vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "upper-or-lower"),
                "expects upperOrLower to be 0 (lower) or 1 (upper), got %lld", (long long)v);
}
