/* rules_gather.c - the rules of the gather/scatter and quantisation rows (ir/ops_gather.def):
 * TGATHER (index, mask and compare forms), TGATHERB, TSCATTER, TQUANT and TDEQUANT. The checks and
 * their words follow PTOAS's verifiers (PTO.cpp); PTOAS checks integer element types by width, so
 * the sets below name widths. Rule IDs are OP.suffix; docs/rules.md lists them. */
#include "vctx.h"

#include <string.h>

#define G_W8 (DTBIT(DT_I8) | DTBIT(DT_U8))
#define G_W16 (DTBIT(DT_I16) | DTBIT(DT_U16))
#define G_W32 (DTBIT(DT_I32) | DTBIT(DT_U32))
#define G_F (DTBIT(DT_F16) | DTBIT(DT_F32))

/* True when the operand is written (and typed) as a scalar rather than a tile. */
static bool is_scalar_operand(const Operand *opd) {
    const Type *t = opd ? operand_type(opd) : NULL;
    return t && t->kind == TY_SCALAR;
}

/* Reports `rule` unless both tiles have the same element size. */
static void check_same_elem_size(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, const char *rule,
                                 const char *msg) {
    if (a->tile && b->tile && dtype_size(a->tile->dtype) != dtype_size(b->tile->dtype))
        vreport(ctx, op, b->loc, SEV_ERROR, rule, "%s, got %s and %s", msg, dtype_name(a->tile->dtype),
                dtype_name(b->tile->dtype));
}

/* Reports `rule` when t's static valid cols differ from its cols ("expects NAME valid_shape[1] to
 * equal NAME cols"). */
static void check_full_cols(VerifyCtx *ctx, const Op *op, const TileArg *t, const char *rule) {
    if (!t->tile || !dim_known(t->tile->valid_cols) || t->tile->valid_cols == t->tile->cols) return;
    vreport(ctx, op, t->loc, SEV_ERROR, rule, "expects %s valid_shape[1] to equal %s cols (%lld and %lld)", t->name,
            t->name, (long long)t->tile->valid_cols, (long long)t->tile->cols);
}

/* Reports `rule` unless the tile's dtype is in `allowed`, with PTOAS's message `msg`. */
static bool check_in(VerifyCtx *ctx, const Op *op, const TileArg *t, uint32_t allowed, const char *rule, const char *msg) {
    if (!t->tile || (DTBIT(t->tile->dtype) & allowed)) return true;
    vreport(ctx, op, t->loc, SEV_ERROR, rule, "%s, got %s (%s)", msg, dtype_name(t->tile->dtype), t->name);
    return false;
}

/* The DPS ops here write into an existing tile; the result form is refused. */
static void check_dps(VerifyCtx *ctx, const Op *op) {
    if (op->n_results > 0)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "dst-form"),
                "needs the DPS form with outs(...): it writes only part of its destination");
}

/* ---- TGATHER -------------------------------------------------------------------------------- */

static void verify_tgather_mask(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *dst) {
    const char *loc_rule = op_rule(ctx, op, "loc");
    if (src->tile && src->tile->loc != LOC_VEC)
        vreport(ctx, op, src->loc, SEV_ERROR, loc_rule, "expects src and dst to be in the vec address space");
    else if (dst->tile && dst->tile->loc != LOC_VEC)
        vreport(ctx, op, dst->loc, SEV_ERROR, loc_rule, "expects src and dst to be in the vec address space");
    if ((src->tile && src->tile->blayout != BL_ROW_MAJOR) || (dst->tile && dst->tile->blayout != BL_ROW_MAJOR))
        vreport(ctx, op, (src->tile && src->tile->blayout != BL_ROW_MAJOR) ? src->loc : dst->loc, SEV_ERROR,
                op_rule(ctx, op, "layout"), "expects src and dst to use row-major layout");
    check_same_elem_size(ctx, op, src, dst, op_rule(ctx, op, "elem-size"), "expects src and dst element sizes to match");
    check_full_cols(ctx, op, dst, op_rule(ctx, op, "dst-valid-cols"));
    const char *dt_rule = op_rule(ctx, op, "dtype");
    if (ctx->target == TARGET_A2A3) {
        check_in(ctx, op, src, G_W16 | G_W32 | G_F | DTBIT(DT_BF16), dt_rule,
                 "expects A2/A3 mask-pattern gather element size to be 2 or 4 bytes");
    } else {
        uint32_t a5 = G_W8 | G_W16 | G_W32 | G_F | DTBIT(DT_BF16) | DTSET_F8; /* PTOAS: any 8-bit float */
        const char *msg = "expects A5 mask-pattern gather src/dst element type to be i8/i16/i32/f16/bf16/f32/fp8-like";
        if (check_in(ctx, op, src, a5, dt_rule, msg)) check_in(ctx, op, dst, a5, dt_rule, msg);
    }
}

static void verify_tgather_index(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *dst) {
    TileArg idx = tile_in(op, 1), tmp = tile_in(op, 2);
    check_same_dtype(ctx, op, src, dst, dst, op_rule(ctx, op, "dtype-match"));
    const char *dt_rule = op_rule(ctx, op, "dtype");
    if (ctx->target == TARGET_A5)
        check_in(ctx, op, src, G_W8 | G_W16 | G_W32 | G_F, dt_rule, "expects A5 gather src/dst element type to be i8/i16/i32/f16/f32");
    else
        check_in(ctx, op, src, G_W16 | G_W32 | G_F, dt_rule, "expects gather src/dst element type to be i16/i32/f16/f32");
    if (idx.tile) {
        const char *ir = op_rule(ctx, op, "indices-dtype");
        if (!dtype_is_int(idx.tile->dtype))
            vreport(ctx, op, idx.loc, SEV_ERROR, ir, "indices element type must be integer, got %s", dtype_name(idx.tile->dtype));
        else if (ctx->target == TARGET_A5)
            check_in(ctx, op, &idx, G_W16 | G_W32, ir, "expects indices element type to be i32 or i16");
        else
            check_in(ctx, op, &idx, G_W32, ir, "expects indices element type to be i32");
    }
    check_full_cols(ctx, op, dst, op_rule(ctx, op, "dst-valid-cols"));
    check_full_cols(ctx, op, &idx, op_rule(ctx, op, "indices-valid-cols"));
    if (ctx->target == TARGET_A2A3 && idx.tile && tmp.tile) {
        if (tmp.tile->dtype != idx.tile->dtype)
            vreport(ctx, op, tmp.loc, SEV_ERROR, op_rule(ctx, op, "tmp-dtype"),
                    "expects tmp and indices to have the same element type, got %s and %s", dtype_name(tmp.tile->dtype),
                    dtype_name(idx.tile->dtype));
        const char *vr = op_rule(ctx, op, "tmp-valid-shape");
        for (int dim = 0; dim < 2; dim++) check_same_valid_dim(ctx, op, &idx, &tmp, dim, vr);
    }
}

static void verify_tgather_compare(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *dst) {
    TileArg cdst = tile_out(op, 1), tmp = tile_in(op, 2);
    const Operand *k = op->ins.count > 1 ? &op->ins.items[1] : NULL;
    if (dst->tile && dst->tile->dtype != DT_I32 && dst->tile->dtype != DT_U32)
        vreport(ctx, op, dst->loc, SEV_ERROR, op_rule(ctx, op, "cmp-dst-dtype"), "expects dst element type to be i32, got %s",
                dtype_name(dst->tile->dtype));
    if (cdst.tile && dst->tile && cdst.tile->dtype != dst->tile->dtype)
        vreport(ctx, op, cdst.loc, SEV_ERROR, op_rule(ctx, op, "cmp-dst-dtype"),
                "expects cdst to have the same element type as dst");
    const Type *kt = k ? operand_type(k) : NULL;
    if (kt && src->tile && kt->dtype != src->tile->dtype)
        vreport(ctx, op, operand_type_loc(op, k), SEV_ERROR, op_rule(ctx, op, "cmp-kvalue"),
                "expects kValue to have the same type as src element type (%s), got %s", dtype_name(src->tile->dtype),
                dtype_name(kt->dtype));
    int64_t mode = op_attr_value(op, "cmpMode", AK_CMP_MODE, 0);
    const char *mode_name = attr_enum_name(AK_CMP_MODE, mode);
    bool eq = mode_name && strcmp(mode_name, "eq") == 0, gt = mode_name && strcmp(mode_name, "gt") == 0;
    if (!eq && !gt)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "cmp-mode"), "expects compare-form tgather cmpMode to be eq or gt");
    if (src->tile) {
        DType s = src->tile->dtype;
        bool is32 = s == DT_I32 || s == DT_U32, is16 = s == DT_I16 || s == DT_U16;
        if (ctx->target == TARGET_A5 && !(s == DT_F16 || s == DT_F32 || is16 || is32))
            vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                    "expects A5 compare-form tgather src element type to be i16/i32/f16/f32, got %s", dtype_name(s));
        else if (ctx->target == TARGET_A2A3 && !(s == DT_F16 || s == DT_F32 || (is32 && eq)))
            vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                    "expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 when cmpMode=eq, got %s",
                    dtype_name(s));
    }
    const TileArg *all[4] = {src, dst, &cdst, &tmp};
    for (int i = 0; i < 4; i++) {
        if (!all[i]->tile) continue;
        if (all[i]->tile->loc != LOC_VEC)
            vreport(ctx, op, all[i]->loc, SEV_ERROR, op_rule(ctx, op, "loc"), "expects %s to be in the vec address space",
                    all[i]->name);
        else if (all[i]->tile->blayout != BL_ROW_MAJOR)
            vreport(ctx, op, all[i]->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects %s to use the row_major blayout",
                    all[i]->name);
    }
}

/* The form is fixed by the operands (PTOAS): maskPattern = mask form (src and dst only); a cdst
 * or a scalar second source = compare form (dst, cdst, kValue and tmp); else the index form
 * (indices and tmp). */
void verify_tgather(VerifyCtx *ctx, const Op *op) {
    check_dps(ctx, op);
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    const char *form_rule = op_rule(ctx, op, "form");
    bool has_cdst = op->outs.count > 1, has_k = op->ins.count > 1 && is_scalar_operand(&op->ins.items[1]);
    if (attr_find(&op->attrs, "maskPattern")) {
        if (op->ins.count > 1 || has_cdst) {
            vreport(ctx, op, op->loc, SEV_ERROR, form_rule, "mask-pattern tgather only allows src and dst operands");
            return;
        }
        verify_tgather_mask(ctx, op, &src, &dst);
        return;
    }
    if (has_cdst || has_k) {
        if (!has_cdst || !has_k || op->ins.count < 3) {
            vreport(ctx, op, op->loc, SEV_ERROR, form_rule, "compare-form tgather expects dst, cdst, kValue, and tmp");
            return;
        }
        verify_tgather_compare(ctx, op, &src, &dst);
        return;
    }
    if (attr_find(&op->attrs, "cmpMode") || attr_find(&op->attrs, "offset"))
        vreport(ctx, op, op->loc, SEV_ERROR, form_rule, "cmpMode and offset belong to the compare form (outs(%%dst, %%cdst))");
    if (op->ins.count < 3) {
        vreport(ctx, op, op->loc, SEV_ERROR, form_rule, "index-form tgather expects both indices and tmp");
        return;
    }
    verify_tgather_index(ctx, op, &src, &dst);
}

/* ---- TGATHERB ------------------------------------------------------------------------------- */

/* dst elements of 1, 2 or 4 bytes (PTOAS's element-size rule: the 8-bit floats too, on both
 * targets); on A2/A3 a row-major dst. */
void verify_tgatherb(VerifyCtx *ctx, const Op *op) {
    check_dps(ctx, op);
    TileArg dst = tile_out(op, 0), off = tile_in(op, 1);
    if (ctx->target == TARGET_A2A3 && dst.tile && dst.tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects dst to use row-major layout");
    check_in(ctx, op, &dst, G_W8 | G_W16 | G_W32 | G_F | DTBIT(DT_BF16) | DTSET_F8, op_rule(ctx, op, "dtype"),
             "expects dst element size to be 1, 2, or 4 bytes");
    if (off.tile && !dtype_is_int(off.tile->dtype))
        vreport(ctx, op, off.loc, SEV_ERROR, op_rule(ctx, op, "offsets-dtype"),
                "expects offsets to hold integer byte offsets, got %s", dtype_name(off.tile->dtype));
}

/* ---- TSCATTER ------------------------------------------------------------------------------- */

/* vec tiles; src and dst of one element type i8/i16/i32/f16/bf16/f32; indexes i16/i32 of the data
 * width (2 bytes for 1-byte data). */
void verify_tscatter(VerifyCtx *ctx, const Op *op) {
    check_dps(ctx, op);
    TileArg src = tile_in(op, 0), idx = tile_in(op, 1), dst = tile_out(op, 0);
    const TileArg *all[3] = {&src, &idx, &dst};
    for (int i = 0; i < 3; i++)
        if (all[i]->tile && all[i]->tile->loc != LOC_VEC)
            vreport(ctx, op, all[i]->loc, SEV_ERROR, op_rule(ctx, op, "loc"), "expects %s to be in the vec address space",
                    all[i]->name);
    if (!src.tile || !dst.tile || !idx.tile) return;
    if (!check_same_dtype(ctx, op, &src, &dst, &dst, op_rule(ctx, op, "dtype-match"))) return;
    if (!check_in(ctx, op, &src, G_W8 | G_W16 | G_W32 | G_F | DTBIT(DT_BF16), op_rule(ctx, op, "dtype"),
                  "expects src/dst element type to be i8/i16/i32/f16/bf16/f32"))
        return;
    if (!check_in(ctx, op, &idx, G_W16 | G_W32, op_rule(ctx, op, "indexes-dtype"), "expects indexes element type to be i16/i32"))
        return;
    size_t data = dtype_size(src.tile->dtype), want = data == 1 ? 2 : data;
    if (dtype_size(idx.tile->dtype) != want)
        vreport(ctx, op, idx.loc, SEV_ERROR, op_rule(ctx, op, "index-size"),
                "expects indexes element size to match the documented scatter rule (%zu-byte indexes for %s data, got %s)",
                want, dtype_name(src.tile->dtype), dtype_name(idx.tile->dtype));
}

/* ---- TQUANT / TDEQUANT ---------------------------------------------------------------------- */

/* INT8_SYM: i8 dst, no offset; INT8_ASYM: ui8 dst and an f32 offset; f32 src; row-major src and
 * dst on A2/A3. The MX quant types are not supported yet. */
void verify_tquant(VerifyCtx *ctx, const Op *op) {
    check_dps(ctx, op);
    TileArg src = tile_in(op, 0), fp = tile_in(op, 1), off = tile_in(op, 2), dst = tile_out(op, 0);
    const Attr *qa = attr_find(&op->attrs, "quant_type");
    int64_t q = op_attr_value(op, "quant_type", AK_QUANT_TYPE, -1);
    if (!qa || q < 0) return; /* missing or malformed: the attribute rules report it */
    const char *qname = attr_enum_name(AK_QUANT_TYPE, q);
    if (q > 1) {
        vreport(ctx, op, qa->loc, SEV_ERROR, op_rule(ctx, op, "mx"),
                "quant_type %s is not supported yet (only INT8_SYM and INT8_ASYM)", qname);
        return;
    }
    const char *dt_rule = op_rule(ctx, op, "dst-dtype"), *off_rule = op_rule(ctx, op, "offset");
    if (q == 0) {
        if (dst.tile && dst.tile->dtype != DT_I8)
            vreport(ctx, op, dst.loc, SEV_ERROR, dt_rule, "expects dst element type i8 for INT8_SYM quantization, got %s",
                    dtype_name(dst.tile->dtype));
        if (op->ins.count > 2)
            vreport(ctx, op, op->ins.items[2].loc, SEV_ERROR, off_rule, "INT8_SYM quantization must not have an offset operand");
    } else {
        if (dst.tile && dst.tile->dtype != DT_U8)
            vreport(ctx, op, dst.loc, SEV_ERROR, dt_rule, "expects dst element type ui8 for INT8_ASYM quantization, got %s",
                    dtype_name(dst.tile->dtype));
        if (op->ins.count < 3) vreport(ctx, op, op->loc, SEV_ERROR, off_rule, "INT8_ASYM quantization requires an offset operand");
    }
    if (src.tile && src.tile->dtype != DT_F32)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects src to have element type f32, got %s",
                dtype_name(src.tile->dtype));
    if (off.tile && off.tile->dtype != DT_F32)
        vreport(ctx, op, off.loc, SEV_ERROR, op_rule(ctx, op, "offset-dtype"), "expects offset to have element type f32, got %s",
                dtype_name(off.tile->dtype));
    if (fp.tile && !dtype_is_float(fp.tile->dtype))
        vreport(ctx, op, fp.loc, SEV_ERROR, op_rule(ctx, op, "fp-dtype"),
                "expects fp (the scaling) to have a float element type, got %s", dtype_name(fp.tile->dtype));
    if (ctx->target == TARGET_A2A3 &&
        ((src.tile && src.tile->blayout != BL_ROW_MAJOR) || (dst.tile && dst.tile->blayout != BL_ROW_MAJOR)))
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects A2/A3 src and dst to use row-major layout");
}

/* i8/i16 src; f32 dst, scale and offset; row-major src and dst on A2/A3. */
void verify_tdequant(VerifyCtx *ctx, const Op *op) {
    check_dps(ctx, op);
    TileArg src = tile_in(op, 0), scale = tile_in(op, 1), off = tile_in(op, 2), dst = tile_out(op, 0);
    if (src.tile && src.tile->dtype != DT_I8 && src.tile->dtype != DT_I16)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects src element type i8 or i16, got %s",
                dtype_name(src.tile->dtype));
    const TileArg *f32s[3] = {&dst, &scale, &off};
    for (int i = 0; i < 3; i++)
        if (f32s[i]->tile && f32s[i]->tile->dtype != DT_F32)
            vreport(ctx, op, f32s[i]->loc, SEV_ERROR, op_rule(ctx, op, "param-dtype"), "expects %s element type f32, got %s",
                    f32s[i]->name, dtype_name(f32s[i]->tile->dtype));
    if (ctx->target == TARGET_A2A3 &&
        ((src.tile && src.tile->blayout != BL_ROW_MAJOR) || (dst.tile && dst.tile->blayout != BL_ROW_MAJOR)))
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects A2/A3 src and dst to use row-major layout");
}

/* ---- MGATHER / MSCATTER (A5) ---------------------------------------------------------------- */

/* PTOAS's verifyNDStyleVecTile: a vec tile, row-major, none_box; one report per operand. */
static void check_nd_vec_tile(VerifyCtx *ctx, const Op *op, const TileArg *t) {
    if (!t->tile) return;
    if (t->tile->loc != LOC_VEC)
        vreport(ctx, op, t->loc, SEV_ERROR, op_rule(ctx, op, "loc"), "expects %s to be in the vec address space", t->name);
    else if (t->tile->blayout != BL_ROW_MAJOR)
        vreport(ctx, op, t->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects %s to use the row_major blayout", t->name);
    else if (t->tile->slayout != SL_NONE_BOX)
        vreport(ctx, op, t->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects %s to use the none_box slayout", t->name);
}

/* The rules MGATHER and MSCATTER share (PTOAS MGatherOp / MScatterOp::verify): an A5 op; data and
 * idx ND vec tiles; the data element type (the row's A5 list: the e4m3 and e5m2 8-bit floats too,
 * not f8E8M0FNU), an i32 idx, a GM view of the data's element type; idx with data's static rows
 * and 1 or data's static cols. */
static bool verify_gm_indexed(VerifyCtx *ctx, const Op *op, const TileArg *data, const TileArg *idx, const Operand *mem) {
    const char *opname = op_info(op->code)->asm_name;
    if (ctx->target != TARGET_A5) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "target"), "pto.%s is only supported on A5 targets", opname);
        return false;
    }
    check_nd_vec_tile(ctx, op, data);
    check_nd_vec_tile(ctx, op, idx);
    if (!data->tile || !idx->tile) return false;
    if (!check_in(ctx, op, data, op_dtypes(op_info(op->code), ctx->target), op_rule(ctx, op, "dtype"),
                  arena_printf(ctx->arena, "expects %s element type to be i8/ui8/i16/ui16/i32/ui32/f16/bf16/f32 (and on "
                               "A5 targets also float8_e4m3/float8_e5m2 family types)", data->name)))
        return false;
    if (idx->tile->dtype != DT_I32) {
        vreport(ctx, op, idx->loc, SEV_ERROR, op_rule(ctx, op, "idx-dtype"), "expects idx element type to be signless i32, got %s",
                dtype_name(idx->tile->dtype));
        return false;
    }
    const Type *mt = mem ? operand_type(mem) : NULL;
    if (mt && mt->dtype != data->tile->dtype) {
        vreport(ctx, op, operand_type_loc(op, mem), SEV_ERROR, op_rule(ctx, op, "mem-dtype"),
                "expects mem element type to match %s element type, got %s and %s", data->name, dtype_name(mt->dtype),
                dtype_name(data->tile->dtype));
        return false;
    }
    const TileType *d = data->tile, *i = idx->tile;
    if (dim_known(d->rows) && dim_known(i->rows) && d->rows != i->rows) {
        vreport(ctx, op, idx->loc, SEV_ERROR, op_rule(ctx, op, "idx-rows"),
                "expects %s and idx static row dimensions to match, got %lld and %lld", data->name, (long long)d->rows,
                (long long)i->rows);
        return false;
    }
    if (dim_known(d->cols) && dim_known(i->cols) && i->cols != 1 && i->cols != d->cols) {
        vreport(ctx, op, idx->loc, SEV_ERROR, op_rule(ctx, op, "idx-cols"), "expects idx cols to be 1 or equal to %s cols, got %lld and %lld",
                data->name, (long long)i->cols, (long long)d->cols);
        return false;
    }
    return true;
}

void verify_mgather(VerifyCtx *ctx, const Op *op) {
    TileArg idx = tile_in(op, 1), dst = tile_out(op, 0);
    verify_gm_indexed(ctx, op, &dst, &idx, op->ins.count > 0 ? &op->ins.items[0] : NULL);
}

/* The atomic forms PTOAS allows per src element type: add on i32/f16/f32, max and min on i32/f32. */
void verify_mscatter(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), idx = tile_in(op, 1);
    if (!verify_gm_indexed(ctx, op, &src, &idx, op->outs.count > 0 ? &op->outs.items[0] : NULL)) return;
    int64_t atomic = op_attr_value(op, "scatterAtomicOp", AK_SCATTER_ATOMIC, 0);
    DType dt = src.tile->dtype;
    bool ok = atomic == 0 || (atomic == 1 ? dt == DT_I32 || dt == DT_F16 || dt == DT_F32 : dt == DT_I32 || dt == DT_F32);
    if (!ok)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "atomic-dtype"),
                "expects scatterAtomicOp-compatible src element type: add supports i32/f16/f32, max/min support i32/f32; "
                "got %s with %s", attr_enum_name(AK_SCATTER_ATOMIC, atomic), dtype_name(dt));
}
