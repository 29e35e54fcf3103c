/* rules_sort.c - the rules of the sort rows (ir/ops_sort.def): TSORT32. PTOAS's TSort32Op::verify
 * checks vec tiles, src and dst of one element type f16/f32 and a u32 idx; the rest follows
 * pto-isa: the NPU code (a2a3/TSort32.hpp: row-major tiles, whole 32-column blocks without tmp,
 * 8-byte records in dst) and the CPU simulator (TSort32.hpp: idx's valid shape equal to src's,
 * one row stride for src and idx). Rule IDs are TSORT32.suffix; docs/rules.md lists them. */
#include "vctx.h"

/* Bytes of dst's row that the NPU writes for `valid_cols` sorted values: one 8-byte record per
 * value of each whole 32-column block, and a whole block for a tail (padded with -inf through tmp). */
static int64_t sort32_row_bytes(int64_t valid_cols, bool has_tmp) {
    int64_t blocks = has_tmp ? (valid_cols + 31) / 32 : valid_cols / 32;
    return blocks * 32 * 8;
}

void verify_tsort32(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), idx = tile_in(op, 1), tmp = tile_in(op, 2), dst = tile_out(op, 0);
    if (!src.tile || !idx.tile || !dst.tile) return;
    const TileArg *all[4] = {&src, &idx, &dst, &tmp};
    bool ok = true;
    for (int i = 0; i < 4; i++)
        if (all[i]->tile) ok = check_loc_in(ctx, op, all[i], LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc")) && ok;
    if (!ok) return;
    for (int i = 0; i < 4; i++) {
        if (!all[i]->tile) continue;
        ok = check_row_major(ctx, op, all[i], op_rule(ctx, op, "layout")) && ok;
        if (ok && all[i]->tile->slayout != SL_NONE_BOX) {
            vreport(ctx, op, all[i]->loc, SEV_ERROR, op_rule(ctx, op, "layout"),
                    "expects %s to use slayout=none_box, got slayout=%s (%s)", all[i]->name,
                    slayout_name(all[i]->tile->slayout), type_text(ctx, all[i]->type));
            ok = false;
        }
    }
    if (!ok) return;
    if (src.tile->dtype != dst.tile->dtype || (tmp.tile && tmp.tile->dtype != src.tile->dtype)) {
        const TileArg *bad = src.tile->dtype != dst.tile->dtype ? &dst : &tmp;
        vreport(ctx, op, bad->loc, SEV_ERROR, op_rule(ctx, op, "dtype-match"),
                "expects src and %s to have the same element type, got %s and %s", bad->name, dtype_name(src.tile->dtype),
                dtype_name(bad->tile->dtype));
        return;
    }
    if (!check_op_dtype(ctx, op, &src)) return;
    if (idx.tile->dtype != DT_U32) {
        vreport(ctx, op, idx.loc, SEV_ERROR, op_rule(ctx, op, "idx-dtype"), "expects idx element type to be u32, got %s",
                dtype_name(idx.tile->dtype));
        return;
    }
    if (src.tile->cols != idx.tile->cols) /* row-major: the row stride is the column count */
        vreport(ctx, op, idx.loc, SEV_ERROR, op_rule(ctx, op, "idx-stride"),
                "expects idx to have src's row stride (%lld columns), got %lld (the simulator's static_assert)",
                (long long)src.tile->cols, (long long)idx.tile->cols);
    for (int dim = 0; dim < 2; dim++) /* the simulator sorts nothing when they differ */
        check_same_valid_dim(ctx, op, &src, &idx, dim, op_rule(ctx, op, "valid-shape"));
    /* the simulator sorts src's valid rows, the NPU dst's */
    check_same_valid_dim(ctx, op, &src, &dst, 0, op_rule(ctx, op, "valid-shape"));
    int64_t vc = src.tile->valid_cols;
    if (!dim_known(vc)) return;
    if (!tmp.tile && vc % 32 != 0)
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "tail"),
                "expects src's valid columns to be whole 32-column blocks without a tmp operand, got %lld: the NPU "
                "leaves the last %lld unsorted (pass a tmp to sort the tail block)", (long long)vc, (long long)(vc % 32));
    int64_t need = sort32_row_bytes(vc, tmp.tile != NULL), es = (int64_t)dtype_size(dst.tile->dtype);
    if (dst.tile->cols * es < need)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dst-size"),
                "expects dst rows of at least %lld columns (8-byte value-index records for %lld sorted columns%s), "
                "got %lld", (long long)(need / es), (long long)vc, tmp.tile && vc % 32 ? ", the tail block padded to 32" : "",
                (long long)dst.tile->cols);
    if (tmp.tile && vc % 32 != 0) {
        /* the NPU's tail path copies src's whole row into tmp (A2/A3: up to 8160 elements; A5: up to
         * 8160 bytes), padded to whole blocks; a longer row copies its tail block only */
        int64_t row_limit = ctx->target == TARGET_A5 ? 8160 / es : 8160;
        int64_t tmp_need = vc <= row_limit ? (vc + 31) / 32 * 32 : 32;
        if (tmp.tile->rows * tmp.tile->cols < tmp_need)
            vreport(ctx, op, tmp.loc, SEV_ERROR, op_rule(ctx, op, "tmp-size"),
                    "expects tmp to hold at least %lld elements (%s's padded copy of %s), got %lldx%lld", (long long)tmp_need,
                    target_label(ctx->target), vc <= row_limit ? "src's row" : "the tail block",
                    (long long)tmp.tile->rows, (long long)tmp.tile->cols);
    }
}

/* THISTOGRAM: A5 only; vec tiles; src ui16 and dst ui32 row-major, idx a col-major ui8 column;
 * idx's and dst's rows and valid rows src's; dst at least 256 columns and valid columns (PTOAS's
 * THistogramOp::verify, words kept). PTOAS also takes i16/i8/i32 (signless); the simulator's
 * THISTOGRAM takes uint16_t/uint8_t/uint32_t only. */
void verify_thistogram(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), idx = tile_in(op, 1), dst = tile_out(op, 0);
    if (ctx->target != TARGET_A5) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "target"), "thistogram is only supported on A5");
        return;
    }
    if (!src.tile || !idx.tile || !dst.tile) return;
    const TileArg *all[3] = {&src, &idx, &dst};
    bool ok = true;
    for (int i = 0; i < 3; i++) ok = check_loc_in(ctx, op, all[i], LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc")) && ok;
    if (!ok) return;
    const char *layout = op_rule(ctx, op, "layout");
    if (src.tile->blayout != BL_ROW_MAJOR || src.tile->slayout != SL_NONE_BOX) {
        vreport(ctx, op, src.loc, SEV_ERROR, layout, "expects src to use row_major + none_box layout");
        return;
    }
    if (dst.tile->blayout != BL_ROW_MAJOR || dst.tile->slayout != SL_NONE_BOX) {
        vreport(ctx, op, dst.loc, SEV_ERROR, layout, "expects dst to use row_major + none_box layout");
        return;
    }
    if (idx.tile->blayout != BL_COL_MAJOR || idx.tile->slayout != SL_NONE_BOX) {
        vreport(ctx, op, idx.loc, SEV_ERROR, layout, "expects idx to use DN layout (col_major + none_box)");
        return;
    }
    if (src.tile->dtype != DT_U16) {
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects src element type to be ui16, got %s",
                dtype_name(src.tile->dtype));
        return;
    }
    if (idx.tile->dtype != DT_U8 || dst.tile->dtype != DT_U32) {
        bool bad_idx = idx.tile->dtype != DT_U8;
        vreport(ctx, op, bad_idx ? idx.loc : dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects %s element type to be %s, got %s",
                bad_idx ? "idx" : "dst", bad_idx ? "ui8" : "ui32", dtype_name(bad_idx ? idx.tile->dtype : dst.tile->dtype));
        return;
    }
    const char *rows = op_rule(ctx, op, "rows");
    const TileArg *other[2] = {&idx, &dst};
    for (int i = 0; i < 2; i++) {
        int64_t vs = src.tile->valid_rows, vo = other[i]->tile->valid_rows;
        if (src.tile->rows != other[i]->tile->rows || (dim_known(vs) && dim_known(vo) && vs != vo)) {
            vreport(ctx, op, other[i]->loc, SEV_ERROR, rows, "expects %s rows and valid rows to match src", other[i]->name);
            return;
        }
    }
    if (idx.tile->cols != 1 || (dim_known(idx.tile->valid_cols) && idx.tile->valid_cols != 1))
        vreport(ctx, op, idx.loc, SEV_ERROR, op_rule(ctx, op, "idx-shape"), "expects idx to have exactly one column");
    if (dst.tile->cols < 256)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "bins"), "expects dst shape[1] to be at least 256");
    else if (dim_known(dst.tile->valid_cols) && dst.tile->valid_cols < 256)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "bins"), "expects dst valid_shape[1] to be at least 256");
}

/* TRANDOM: A5 only; a vec row-major dst of i32/ui32; six 32-bit integer words; rounds 7 or 10
 * (PTOAS's TRandomOp::verify, words kept; the simulator's static_asserts). */
void verify_trandom(VerifyCtx *ctx, const Op *op) {
    if (ctx->target != TARGET_A5) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "target"), "trandom is only supported for A5 targets");
        return;
    }
    TileArg dst = tile_out(op, 0);
    if (!dst.tile) return;
    if (!check_loc_in(ctx, op, &dst, LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc"))) return;
    if (dst.tile->blayout != BL_ROW_MAJOR || dst.tile->slayout != SL_NONE_BOX) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects dst to use row-major layout");
        return;
    }
    if (dst.tile->dtype != DT_I32 && dst.tile->dtype != DT_U32) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects dst element type to be i32 or ui32, got %s",
                dtype_name(dst.tile->dtype));
        return;
    }
    static const char *const words[6] = {"key0", "key1", "counter0", "counter1", "counter2", "counter3"};
    for (int i = 0; i < op->ins.count && i < 6; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && (t->kind != TY_SCALAR || !dtype_is_int(t->dtype) || dtype_size(t->dtype) != 4)) {
            vreport(ctx, op, operand_type_loc(op, &op->ins.items[i]), SEV_ERROR, op_rule(ctx, op, "word"),
                    "expects %s to be i32/ui32, got %s", words[i], type_text(ctx, t));
            return;
        }
    }
    int64_t rounds = op_attr_value(op, "rounds", AK_INT, 10);
    if (rounds != 7 && rounds != 10)
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "rounds"), "expects rounds to be 7 or 10, got %lld",
                (long long)rounds);
}

/* TMRGSORT: PTOAS's TMrgSortOp::verify (f16/f32, one element type for every tile, 1-row src and
 * dst, the single-list form's src and dst columns equal and a constant blockLen a positive multiple
 * of 64; the multi-list forms' dst and tmp of one shape and executed a vector<4xi16>) and pto-isa's
 * (vec, 1-row, row-major tiles; the NPU's asserts on blockLen groups; tmp holding every merged
 * record; whole 8-byte records). Rule IDs are TMRGSORT.suffix; docs/rules.md lists them. */
void verify_tmrgsort(VerifyCtx *ctx, const Op *op) {
    const bool single = op->code == OP_TMRGSORT;
    const int nsrc = single ? 1 : op->ins.count - 1;
    if (nsrc < 1 || nsrc > 4) return; /* arity: reported by the parser */
    TileArg t[6];
    int n = 0;
    for (int l = 0; l < nsrc; l++) t[n++] = tile_in(op, l);
    TileArg dst = tile_out(op, 0), tmp = single ? (TileArg){0} : tile_in(op, nsrc);
    t[n++] = dst;
    if (!single) t[n++] = tmp;
    for (int i = 0; i < n; i++)
        if (!t[i].tile) return;
    bool ok = true;
    for (int i = 0; i < n; i++) ok = check_loc_in(ctx, op, &t[i], LOCBIT(LOC_VEC), "vec", op_rule(ctx, op, "loc")) && ok;
    if (!ok) return;
    for (int i = 0; i < n && ok; i++) {
        ok = check_row_major(ctx, op, &t[i], op_rule(ctx, op, "layout"));
        if (ok && t[i].tile->slayout != SL_NONE_BOX) {
            vreport(ctx, op, t[i].loc, SEV_ERROR, op_rule(ctx, op, "layout"),
                    "expects %s to use slayout=none_box, got slayout=%s (%s)", t[i].name,
                    slayout_name(t[i].tile->slayout), type_text(ctx, t[i].type));
            ok = false;
        }
    }
    for (int i = 0; i < n && ok; i++)
        if (t[i].tile->rows != 1) {
            vreport(ctx, op, t[i].loc, SEV_ERROR, op_rule(ctx, op, "rows"),
                    "expects %s to have 1 row (a list of records), got %lld", t[i].name, (long long)t[i].tile->rows);
            ok = false;
        }
    if (!ok) return;
    for (int i = 0; i < n; i++)
        if (t[i].tile->dtype != dst.tile->dtype) {
            vreport(ctx, op, t[i].loc, SEV_ERROR, op_rule(ctx, op, "dtype-match"),
                    "expects %s and dst to have the same element type, got %s and %s", t[i].name,
                    dtype_name(t[i].tile->dtype), dtype_name(dst.tile->dtype));
            return;
        }
    if (!check_op_dtype(ctx, op, &dst)) return;
    const int64_t per = dst.tile->dtype == DT_F16 ? 4 : 2; /* elements per 8-byte record */
    for (int i = 0; i < n; i++) {
        int64_t vc = t[i].tile->valid_cols;
        if (dim_known(vc) && vc % per != 0 && (single || &t[i] != &t[n - 1]))
            vreport(ctx, op, t[i].loc, SEV_ERROR, op_rule(ctx, op, "records"),
                    "expects %s's valid columns to be whole 8-byte records (a multiple of %lld %s elements), got %lld",
                    t[i].name, (long long)per, dtype_name(dst.tile->dtype), (long long)vc);
    }
    if (single) {
        const TileArg *src = &t[0];
        if (src->tile->cols != dst.tile->cols)
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "cols"),
                    "expects src and dst to have the same columns, got %lld and %lld", (long long)src->tile->cols,
                    (long long)dst.tile->cols);
        check_same_valid_dim(ctx, op, src, &dst, 1, op_rule(ctx, op, "valid-shape"));
        const Operand *bl = &op->ins.items[1];
        const Type *bt = operand_type(bl);
        if (bt && bt->kind == TY_SCALAR && bt->dtype == DT_INDEX)
            vreport(ctx, op, operand_type_loc(op, bl), SEV_ERROR, op_rule(ctx, op, "block-len"),
                    "expects blockLen to be an integer (i32), got index");
        int64_t v;
        if (!const_int_of(bl, &v)) return;
        if (v <= 0 || v % 64 != 0) {
            vreport(ctx, op, bl->loc, SEV_ERROR, op_rule(ctx, op, "block-len"),
                    "expects blockLen > 0 and multiple of 64, got %lld", (long long)v);
            return;
        }
        int64_t vc = src->tile->valid_cols;
        if (dim_known(vc) && (vc % 4 != 0 || vc / 4 < v || (vc / 4) % v != 0 || vc / 4 / v > 255)) /* no 4 * v: it may overflow */
            vreport(ctx, op, src->loc, SEV_ERROR, op_rule(ctx, op, "block-groups"),
                    "expects src's valid columns (%lld) to be 1 to 255 whole groups of 4 * blockLen (%lld) elements "
                    "(the NPU's repeat count)", (long long)vc, (long long)(v <= INT64_MAX / 4 ? 4 * v : INT64_MAX));
        return;
    }
    const Operand *ex = op->outs.count > 1 ? &op->outs.items[1] : NULL;
    const Type *et = ex ? operand_type(ex) : NULL;
    if (!ex) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "executed"),
                "expects outs(dst, executed): the multi-list form writes the records taken from each list into a "
                "vector<4xi16>");
        return;
    }
    if (et && (et->kind != TY_VECTOR || et->rank != 1 || et->dims[0] != 4 || et->dtype != DT_I16))
        vreport(ctx, op, operand_type_loc(op, ex), SEV_ERROR, op_rule(ctx, op, "executed"),
                "expects executed to be a vector<4xi16>, got %s", type_text(ctx, et));
    if (tmp.tile->rows != dst.tile->rows || tmp.tile->cols != dst.tile->cols)
        vreport(ctx, op, tmp.loc, SEV_ERROR, op_rule(ctx, op, "tmp-shape"),
                "expects dst and tmp to have the same shape, got %lldx%lld and %lldx%lld", (long long)dst.tile->rows,
                (long long)dst.tile->cols, (long long)tmp.tile->rows, (long long)tmp.tile->cols);
    int64_t total = 0;
    for (int l = 0; l < nsrc; l++) {
        if (!dim_known(t[l].tile->valid_cols)) return;
        total += t[l].tile->valid_cols;
    }
    if (tmp.tile->cols < total)
        vreport(ctx, op, tmp.loc, SEV_ERROR, op_rule(ctx, op, "tmp-size"),
                "expects tmp to hold every merged record (%lld columns, the sources' valid columns together), got %lld: "
                "the NPU merges all of them into tmp", (long long)total, (long long)tmp.tile->cols);
}
