/* rules_family.c - the rules of the elementwise families of ops.def (BINARY_OP, TERNARY_OP,
 * UNARY_OP, TILE_SCALAR_OP, TILE_SCALAR_TILE_OP), written once for every member: locations,
 * element types per target (the row's DTYPES), layouts, valid shapes and scalar operands. Rule
 * IDs carry the member's name (TADD.dtype); docs/rules.md lists them with their sources. */
#include "vctx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Shared by the families                                                                      */
/* ------------------------------------------------------------------------------------------ */

bool check_op_dtype(VerifyCtx *ctx, const Op *op, const TileArg *arg) {
    const OpInfo *info = op_info(op->code);
    const char *what = arena_printf(ctx->arena, "%s element type", info->asm_name ? info->asm_name : info->name);
    return check_dtype_in(ctx, op, arg, op_rule(ctx, op, "dtype"), what, op_dtypes(info, ctx->target));
}

/* The scalar as written; with `explain`, also the value it was read as when that differs (a bit
 * pattern 0x43800000 is 256.0; 2147483647.0 : f32 is 2147483648, out of i32's range). */
static const char *scalar_text(VerifyCtx *ctx, const ConstScalar *v, bool explain) {
    if (!v->text) return v->is_float ? arena_printf(ctx->arena, "%.9g", v->f) : arena_printf(ctx->arena, "%lld", (long long)v->i);
    if (explain && v->is_float && !isnan(v->f) && strtod(v->text, NULL) != v->f)
        return arena_printf(ctx->arena, "%s, read as %.17g", v->text, v->f);
    return v->text;
}

void check_tile_scalar(VerifyCtx *ctx, const Op *op, int index, const TileArg *tile) {
    const Operand *opd = index < op->ins.count ? &op->ins.items[index] : NULL;
    if (!opd || !tile->tile) return;
    const char *name = op_info(op->code)->ins[index].name;
    const Type *t = operand_type(opd);
    if (t && (t->kind != TY_SCALAR || (!dtype_is_int(t->dtype) && !dtype_is_float(t->dtype)))) {
        vreport(ctx, op, operand_type_loc(op, opd), SEV_ERROR, op_rule(ctx, op, "scalar-type"),
                "expects %s to be an integer or float scalar, got %s", name, type_text(ctx, t));
        return;
    }
    DType dt = tile->tile->dtype;
    if (!dtype_is_int(dt) && !dtype_is_float(dt)) return;
    ConstScalar v = const_scalar_of(opd, dt);
    if (!v.known) return;
    double converted;
    ScalarFit fit = scalar_fit(&v, dt, &converted);
    if (fit == FIT_OUT_OF_RANGE)
        vreport(ctx, op, opd->loc, SEV_ERROR, op_rule(ctx, op, "scalar-range"),
                "expects %s (%s) to be representable in the %s element type %s", name, scalar_text(ctx, &v, true), tile->name,
                dtype_name(dt));
    else if (fit == FIT_LOSSY)
        vreport(ctx, op, opd->loc, SEV_WARNING, op_rule(ctx, op, "scalar-lossy"),
                "%s (%s) changes to %.9g when converted to the %s element type %s", name, scalar_text(ctx, &v, false),
                converted, tile->name, dtype_name(dt));
}

/* The tile operands of an elementwise op in table order: its sources (tiles other than tmp) and
 * its tmp, if any. */
typedef struct ElemOperands {
    TileArg src[3];
    int n_src;
    TileArg tmp;
    TileArg dst;
} ElemOperands;

static ElemOperands elem_operands(const Op *op) {
    ElemOperands e = {.n_src = 0};
    const OpInfo *info = op_info(op->code);
    for (int i = 0; i < op->ins.count && i < OPSPEC_MAX && info->ins[i].name; i++) {
        TileArg a = tile_in(op, i);
        if (!a.tile) continue;
        if (info->ins[i].flags & SPEC_TMP) e.tmp = a;
        else if (e.n_src < 3) e.src[e.n_src++] = a;
    }
    e.dst = tile_out(op, 0);
    return e;
}

/* ------------------------------------------------------------------------------------------ */
/* Elementwise: BINARY_OP, TERNARY_OP, UNARY_OP                                                */
/* ------------------------------------------------------------------------------------------ */

/* Every tile in vec; sources of dst's element type, which the row lists for the target; sources
 * with dst's valid shape; row-major operands for the multi-source ops (PTOAS: "expects src0,
 * src1, and dst to use row-major layout"); a tmp in vec. */
void verify_elementwise(VerifyCtx *ctx, const Op *op) {
    ElemOperands e = elem_operands(op);
    if (!e.dst.tile || e.n_src == 0) return;
    const char *loc_rule = op_rule(ctx, op, "loc"), *layout_rule = op_rule(ctx, op, "layout");
    for (int i = 0; i < e.n_src; i++) check_loc_in(ctx, op, &e.src[i], LOCBIT(LOC_VEC), "vec", loc_rule);
    check_loc_in(ctx, op, &e.dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    for (int i = 0; i < e.n_src; i++) check_same_dtype(ctx, op, &e.src[i], &e.dst, &e.src[i], op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, e.n_src ? &e.src[0] : &e.dst);
    if (e.n_src > 1) {
        for (int i = 0; i < e.n_src; i++) check_row_major(ctx, op, &e.src[i], layout_rule);
        check_row_major(ctx, op, &e.dst, layout_rule);
    }
    for (int i = 0; i < e.n_src; i++)
        for (int dim = 0; dim < 2; dim++) check_same_valid_dim(ctx, op, &e.dst, &e.src[i], dim, op_rule(ctx, op, "valid-shape"));
    if (e.tmp.tile) check_loc_in(ctx, op, &e.tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
}

/* ------------------------------------------------------------------------------------------ */
/* Tile and scalar: TILE_SCALAR_OP, TILE_SCALAR_TILE_OP (TMULS's seed rules, for the family)    */
/* ------------------------------------------------------------------------------------------ */

/* vec and row-major tiles of one element type the row lists for the target; dst's valid columns
 * those of each source; on A2/A3 its valid rows too, on A5 at most each source's rows (A5 reads
 * source row i for dst row i); the scalar converts to the element type. TDIVS may put the scalar
 * first (`ins(%S, %src)`). */
void verify_tile_scalar(VerifyCtx *ctx, const Op *op) {
    ElemOperands e = elem_operands(op);
    if (!e.dst.tile || e.n_src == 0) return;
    if ((op_info(op->code)->flags & OPF_DST_READ) && op->n_results > 0)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "dst-form"),
                "reads its destination (dst += ...), so it needs the DPS form with outs(...), not a result");
    const char *loc_rule = op_rule(ctx, op, "loc"), *layout_rule = op_rule(ctx, op, "layout");
    for (int i = 0; i < e.n_src; i++) {
        check_loc_in(ctx, op, &e.src[i], LOCBIT(LOC_VEC), "vec", loc_rule);
        check_row_major(ctx, op, &e.src[i], layout_rule);
    }
    check_loc_in(ctx, op, &e.dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_row_major(ctx, op, &e.dst, layout_rule);
    for (int i = 0; i < e.n_src; i++) check_same_dtype(ctx, op, &e.src[i], &e.dst, &e.dst, op_rule(ctx, op, "dtype-match"));
    check_op_dtype(ctx, op, &e.dst);
    for (int i = 0; i < e.n_src; i++) {
        const TileArg *src = &e.src[i];
        check_same_valid_dim(ctx, op, src, &e.dst, 1, op_rule(ctx, op, "valid-cols"));
        if (ctx->target == TARGET_A2A3) check_same_valid_dim(ctx, op, src, &e.dst, 0, op_rule(ctx, op, "valid-rows"));
        else if (dim_known(e.dst.tile->valid_rows) && e.dst.tile->valid_rows > src->tile->rows)
            vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "src-rows"),
                    "expects %s to have at least dst's %lld valid rows (the op reads %s row i for dst row i), got %lld "
                    "rows (%s)",
                    src->name, (long long)e.dst.tile->valid_rows, src->name, (long long)src->tile->rows,
                    type_text(ctx, src->type));
    }
    const OpInfo *info = op_info(op->code);
    for (int i = 0; i < op->ins.count && i < OPSPEC_MAX && info->ins[i].name; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (!t || t->kind != TY_TILE) check_tile_scalar(ctx, op, i, &e.dst);
    }
    if (e.tmp.tile) check_loc_in(ctx, op, &e.tmp, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "tmp-loc"));
}

/* ------------------------------------------------------------------------------------------ */
/* Partial elementwise: PART_OP (tpartadd tpartmul tpartmax tpartmin)                          */
/* ------------------------------------------------------------------------------------------ */

/* vec tiles of one element type the row lists; on A2/A3 (PTOAS's verifyPartialValidPattern) each
 * source's valid shape within dst's, and at least one of them equal to it. */
void verify_part(VerifyCtx *ctx, const Op *op) {
    ElemOperands e = elem_operands(op);
    if (!e.dst.tile || e.n_src != 2) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    for (int i = 0; i < 2; i++) {
        check_loc_in(ctx, op, &e.src[i], LOCBIT(LOC_VEC), "vec", loc_rule);
        check_same_dtype(ctx, op, &e.src[i], &e.dst, &e.src[i], op_rule(ctx, op, "dtype-match"));
    }
    check_loc_in(ctx, op, &e.dst, LOCBIT(LOC_VEC), "vec", loc_rule);
    check_op_dtype(ctx, op, &e.src[0]);
    if (ctx->target != TARGET_A2A3) return;
    bool equal[2] = {true, true};
    for (int i = 0; i < 2; i++)
        for (int dim = 0; dim < 2; dim++) {
            int64_t s = valid_dim(e.src[i].tile, dim), d = valid_dim(e.dst.tile, dim);
            if (!dim_known(s) || !dim_known(d)) continue;
            if (s > d)
                vreport(ctx, op, e.src[i].loc, SEV_ERROR, op_rule(ctx, op, "valid-bounds"),
                        "expects src0/src1 valid_shape to be less than or equal to dst valid_shape (%s valid_shape[%d] "
                        "is %lld, dst's %lld)",
                        e.src[i].name, dim, (long long)s, (long long)d);
            if (s != d) equal[i] = false;
        }
    if (!equal[0] && !equal[1])
        vreport(ctx, op, e.dst.loc, SEV_ERROR, op_rule(ctx, op, "valid-match"),
                "expects at least one of src0/src1 valid_shape to match dst valid_shape (%s)", type_text(ctx, e.dst.type));
}
