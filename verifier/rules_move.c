/* rules_move.c - the rules of TEXTRACT, TINSERT, TCONCAT and TRESHAPE (ir/ops_move.def). The
 * checks, their order per target and their words follow PTOAS's verifiers (PTO.cpp TExtractOp,
 * TInsertOp, TConcatOp, TReshapeOp); PTOAS checks integer element types by width. TRESHAPE also
 * gets the simulator's element-kind rule (TReshape.hpp's static_assert), which PTOAS lacks.
 * pto-run executes every form these rules accept that keeps the element type (TEXTRACT mat ->
 * left/right/scaling included); a converting cube form is refused at run time. Rule IDs are OP.suffix; docs/rules.md lists them. */
#include "vctx.h"

#define MV_F (DTBIT(DT_F16) | DTBIT(DT_F32) | DTBIT(DT_BF16))
#define MV_W8 (DTBIT(DT_I8) | DTBIT(DT_U8))
#define MV_W32 (DTBIT(DT_I32) | DTBIT(DT_U32))

/* These ops write into an existing tile (TINSERT only part of it): the result form is refused. */
static bool check_dps_form(VerifyCtx *ctx, const Op *op) {
    if (op->n_results == 0) return true;
    vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "dst-form"),
            "needs the DPS form with outs(...): it writes into an existing destination tile");
    return false;
}

/* A tile's outer layout as PTOAS's parser reads it: a left tile's is fixed by the target (row_major
 * on A2/A3, col_major on A5) whatever the text says (PTOTypeDefs.cpp resolveTileBufBLayout). */
static BLayout outer_layout(const VerifyCtx *ctx, const TileType *t) {
    if (t->loc != LOC_LEFT) return t->blayout;
    return ctx->target == TARGET_A5 ? BL_COL_MAJOR : BL_ROW_MAJOR;
}

static bool is_nd(const TileType *t) { return t->blayout == BL_ROW_MAJOR && t->slayout == SL_NONE_BOX; }
static bool is_nz(const TileType *t) { return t->blayout != BL_ROW_MAJOR && t->slayout == SL_ROW_MAJOR; }

/* indexRow / indexCol (ins first and first + 1): `index` typed, in [0, 65535] when constant.
 * *row / *col get the constant values, or -1 when not known statically. */
static void check_indices_at(VerifyCtx *ctx, const Op *op, int first, int64_t *row, int64_t *col) {
    const char *names[2] = {"indexRow", "indexCol"};
    int64_t *out[2] = {row, col};
    for (int i = 0; i < 2; i++) {
        *out[i] = -1;
        if (op->ins.count <= first + i) continue;
        const Operand *opd = &op->ins.items[first + i];
        const Type *t = operand_type(opd);
        if (t && t->kind == TY_SCALAR && t->dtype != DT_INDEX) {
            vreport(ctx, op, operand_type_loc(op, opd), SEV_ERROR, op_rule(ctx, op, "index-type"),
                    "expects indexRow and indexCol to be index type, got %s for %s", dtype_name(t->dtype), names[i]);
            continue;
        }
        int64_t v;
        if (!const_int_of(opd, &v)) continue;
        if (v < 0) {
            vreport(ctx, op, opd->loc, SEV_ERROR, op_rule(ctx, op, "index"), "expects %s to be non-negative, got %lld",
                    names[i], (long long)v);
            continue;
        }
        if (v > 65535) { /* the ISA's C++ calls take uint16_t offsets: the simulator would wrap it */
            vreport(ctx, op, opd->loc, SEV_ERROR, op_rule(ctx, op, "index-range"),
                    "expects %s to fit the ISA's uint16_t offset (at most 65535), got %lld", names[i], (long long)v);
            continue;
        }
        *out[i] = v;
    }
}

/* indexRow / indexCol as ins 1 and 2 (textract, tinsert). */
static void check_indices(VerifyCtx *ctx, const Op *op, int64_t *row, int64_t *col) { check_indices_at(ctx, op, 1, row, col); }

/* PTOAS's static bound `index + inner <= outer` for one dimension (constants only). */
static void check_bound(VerifyCtx *ctx, const Op *op, const TileArg *at, int64_t index, int64_t inner, int64_t outer,
                        const char *what) {
    if (index < 0 || !dim_known(inner)) return;
    if (index > INT64_MAX - inner || index + inner > outer)
        vreport(ctx, op, at->loc, SEV_ERROR, op_rule(ctx, op, "bounds"), "expects %s, got %lld + %lld > %lld", what,
                (long long)index, (long long)inner, (long long)outer);
}

static bool same_elem(VerifyCtx *ctx, const Op *op, const TileArg *src, const TileArg *dst) {
    if (src->tile->dtype == dst->tile->dtype) return true;
    vreport(ctx, op, dst->loc, SEV_ERROR, op_rule(ctx, op, "dtype-match"),
            "expects src and dst to have the same element type, got %s and %s", dtype_name(src->tile->dtype),
            dtype_name(dst->tile->dtype));
    return false;
}

static void report_layout(VerifyCtx *ctx, const Op *op, const TileArg *t, const char *msg) {
    vreport(ctx, op, t->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "%s, got blayout=%s, slayout=%s (%s)", msg,
            blayout_name(t->tile->blayout), slayout_name(t->tile->slayout), type_text(ctx, t->type));
}

/* ---- TEXTRACT ------------------------------------------------------------------------------- */

void verify_textract(VerifyCtx *ctx, const Op *op) {
    check_dps_form(ctx, op);
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    int64_t row, col;
    check_indices(ctx, op, &row, &col);
    if (!src.tile || !dst.tile) return;
    check_bound(ctx, op, &dst, row, dst.tile->rows, src.tile->rows, "indexRow + dst.rows <= src.rows");
    check_bound(ctx, op, &dst, col, dst.tile->cols, src.tile->cols, "indexCol + dst.cols <= src.cols");
    if (!same_elem(ctx, op, &src, &dst)) return;
    const char *loc_rule = op_rule(ctx, op, "loc");
    const BLayout sb = src.tile->blayout;
    const SLayout ss = src.tile->slayout;
    if (ctx->target == TARGET_A2A3) {
        if (!check_dtype_in(ctx, op, &dst, op_rule(ctx, op, "dtype"), "textract element type", MV_W8 | MV_F)) return;
        if (src.tile->loc != LOC_MAT) {
            vreport(ctx, op, src.loc, SEV_ERROR, loc_rule,
                    "expects A2/A3 textract src to use loc=mat, got loc=%s (vec -> vec textract is A5 only)",
                    tile_loc_name(src.tile->loc));
            return;
        }
        if (dst.tile->loc != LOC_LEFT && dst.tile->loc != LOC_RIGHT) {
            vreport(ctx, op, dst.loc, SEV_ERROR, loc_rule, "expects A2/A3 textract dst to use loc=left or loc=right, got loc=%s",
                    tile_loc_name(dst.tile->loc));
            return;
        }
        if (!(sb == BL_ROW_MAJOR || ss == SL_ROW_MAJOR)) {
            report_layout(ctx, op, &src, "expects A2/A3 textract src to use a supported mat blayout/slayout combination");
            return;
        }
        SLayout want = dst.tile->loc == LOC_LEFT ? SL_ROW_MAJOR : SL_COL_MAJOR;
        if (outer_layout(ctx, dst.tile) != BL_ROW_MAJOR || dst.tile->slayout != want)
            report_layout(ctx, op, &dst,
                          dst.tile->loc == LOC_LEFT ? "expects A2/A3 left dst to use row_major blayout and row_major slayout"
                                                    : "expects A2/A3 right dst to use row_major blayout and col_major slayout");
        return;
    }
    if (!(DTBIT(dst.tile->dtype) & (MV_W8 | MV_F | DTSET_F8))) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects A5 textract element type to be an fp8/f16/bf16/f32 or int8 family type, got %s (dst: %s)",
                dtype_name(dst.tile->dtype), type_text(ctx, dst.type));
        return;
    }
    TileLoc sl = src.tile->loc, dl = dst.tile->loc;
    bool ok = (sl == LOC_MAT && (dl == LOC_LEFT || dl == LOC_RIGHT || dl == LOC_SCALING)) ||
              (sl == LOC_VEC && (dl == LOC_MAT || dl == LOC_VEC));
    if (!ok) {
        vreport(ctx, op, dst.loc, SEV_ERROR, loc_rule,
                "expects A5 textract to use a supported src/dst loc pair (mat -> left/right/scaling, vec -> mat/vec), got "
                "%s -> %s", tile_loc_name(sl), tile_loc_name(dl));
        return;
    }
    if (sl == LOC_MAT) {
        bool rc = sb == BL_ROW_MAJOR && ss == SL_COL_MAJOR, cr = sb != BL_ROW_MAJOR && ss == SL_ROW_MAJOR;
        if (!(rc || cr || (dl == LOC_LEFT && sb == BL_ROW_MAJOR))) {
            report_layout(ctx, op, &src, "expects A5 textract src to use a supported mat blayout/slayout combination");
            return;
        }
        if (dl == LOC_LEFT && (outer_layout(ctx, dst.tile) != BL_COL_MAJOR || dst.tile->slayout != SL_ROW_MAJOR))
            report_layout(ctx, op, &dst, "expects A5 left dst to use col_major blayout and row_major slayout");
        else if (dl == LOC_RIGHT && (dst.tile->blayout != BL_ROW_MAJOR || dst.tile->slayout != SL_COL_MAJOR))
            report_layout(ctx, op, &dst, "expects A5 right dst to use row_major blayout and col_major slayout");
    } else if (dl == LOC_VEC) {
        const TileArg *bad = !is_nd(src.tile) ? &src : !is_nd(dst.tile) ? &dst : NULL;
        if (bad)
            report_layout(ctx, op, bad,
                          "expects A5 vec->vec textract src/dst to use ND layout (blayout=row_major, slayout=none_box)");
    }
}

/* ---- TINSERT -------------------------------------------------------------------------------- */

void verify_tinsert(VerifyCtx *ctx, const Op *op) {
    check_dps_form(ctx, op);
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    int64_t row, col;
    check_indices(ctx, op, &row, &col);
    if (!src.tile || !dst.tile) return;
    check_bound(ctx, op, &src, row, src.tile->valid_rows, dst.tile->rows, "indexRow + src.rows <= dst.rows");
    check_bound(ctx, op, &src, col, src.tile->valid_cols, dst.tile->cols, "indexCol + src.cols <= dst.cols");
    const char *loc_rule = op_rule(ctx, op, "loc"), *dt_rule = op_rule(ctx, op, "dtype");
    DType se = src.tile->dtype, de = dst.tile->dtype;
    TileLoc sl = src.tile->loc, dl = dst.tile->loc;
    if (ctx->target == TARGET_A2A3) {
        if (sl != LOC_ACC || dl != LOC_MAT) {
            vreport(ctx, op, sl != LOC_ACC ? src.loc : dst.loc, SEV_ERROR, loc_rule,
                    "expects A2/A3 tinsert src to use loc=acc and dst to use loc=mat, got %s -> %s (vec -> vec tinsert is "
                    "A5 only)", tile_loc_name(sl), tile_loc_name(dl));
            return;
        }
        if (!is_nz(src.tile)) {
            report_layout(ctx, op, &src, "expects A2/A3 tinsert src to use blayout=col_major and slayout=row_major");
            return;
        }
        if (!is_nz(dst.tile)) {
            report_layout(ctx, op, &dst, "expects A2/A3 tinsert dst to use blayout=col_major and slayout=row_major");
            return;
        }
        if (dst.tile->fractal != 512) {
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "fractal"),
                    "expects A2/A3 tinsert dst fractal size to be 512, got %lld", (long long)dst.tile->fractal);
            return;
        }
        if (!(se == DT_F32 && (de == DT_F16 || de == DT_BF16)))
            vreport(ctx, op, dst.loc, SEV_ERROR, dt_rule,
                    "expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16, got src=%s, dst=%s", dtype_name(se),
                    dtype_name(de));
        return;
    }
    if (sl == LOC_ACC && dl == LOC_MAT) {
        if (!is_nz(src.tile)) {
            report_layout(ctx, op, &src, "expects A5 acc->mat tinsert src to use blayout=col_major and slayout=row_major");
            return;
        }
        if (!is_nz(dst.tile)) {
            report_layout(ctx, op, &dst, "expects A5 acc->mat tinsert dst to use blayout=col_major and slayout=row_major");
            return;
        }
        bool ok = (se == DT_F32 && (de == DT_F16 || de == DT_BF16 || de == DT_F32)) ||
                  ((DTBIT(se) & MV_W32) && (DTBIT(de) & MV_W32));
        if (!ok)
            vreport(ctx, op, dst.loc, SEV_ERROR, dt_rule,
                    "expects A5 acc->mat tinsert element types to be (src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32), got "
                    "src=%s, dst=%s", dtype_name(se), dtype_name(de));
        return;
    }
    bool vec_mat = sl == LOC_VEC && dl == LOC_MAT, vec_vec = sl == LOC_VEC && dl == LOC_VEC;
    if (!vec_mat && !vec_vec) {
        vreport(ctx, op, dst.loc, SEV_ERROR, loc_rule,
                "expects A5 tinsert to use a supported src/dst loc pair: acc->mat, vec->mat, or vec->vec, got %s -> %s",
                tile_loc_name(sl), tile_loc_name(dl));
        return;
    }
    if (vec_mat) {
        if (!is_nz(dst.tile)) {
            report_layout(ctx, op, &dst, "expects A5 vec->mat tinsert dst to use blayout=col_major and slayout=row_major");
            return;
        }
        if (!is_nd(src.tile) && !is_nz(src.tile)) {
            report_layout(ctx, op, &src,
                          "expects A5 vec->mat tinsert src to use ND(row_major/none_box) or NZ(col_major/row_major) layout");
            return;
        }
    } else {
        const TileArg *bad = !is_nd(src.tile) ? &src : !is_nd(dst.tile) ? &dst : NULL;
        if (bad) {
            report_layout(ctx, op, bad,
                          "expects A5 vec->vec tinsert src/dst to use ND layout (blayout=row_major, slayout=none_box)");
            return;
        }
    }
    if (se != de)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype-match"),
                "expects A5 %s tinsert src/dst to have the same element type, got %s and %s", vec_vec ? "vec->vec" : "vec->mat",
                dtype_name(se), dtype_name(de));
    else if (!(DTBIT(se) & (MV_F | MV_W8 | MV_W32 | DTSET_F8)))
        vreport(ctx, op, dst.loc, SEV_ERROR, dt_rule,
                "expects A5 %s tinsert src/dst to have same supported dtype (fp8/f16/bf16/f32/i8/i32), got %s",
                vec_vec ? "vec->vec" : "vec->mat", dtype_name(se));
}

/* ---- TCONCAT -------------------------------------------------------------------------------- */

/* `.dtype-match`: three tiles of one element type, reported at b (else c) when it differs from a's;
 * false when reported. */
static bool same_element_type3(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, const TileArg *c) {
    DType e = a->tile->dtype;
    if (e == b->tile->dtype && e == c->tile->dtype) return true;
    const TileArg *bad = e != b->tile->dtype ? b : c;
    vreport(ctx, op, bad->loc, SEV_ERROR, op_rule(ctx, op, "dtype-match"),
            "expects %s, %s, and %s to have the same element type, got %s, %s and %s", a->name, b->name, c->name,
            dtype_name(e), dtype_name(b->tile->dtype), dtype_name(c->tile->dtype));
    return false;
}

void verify_tconcat(VerifyCtx *ctx, const Op *op) {
    check_dps_form(ctx, op);
    TileArg s0 = tile_in(op, 0), s1 = tile_in(op, 1), dst = tile_out(op, 0);
    if (!s0.tile || !s1.tile || !dst.tile) return;
    if (!same_element_type3(ctx, op, &s0, &s1, &dst)) return;
    const char *vr_rule = op_rule(ctx, op, "valid-rows");
    const TileArg *srcs[2] = {&s0, &s1};
    for (int i = 0; i < 2; i++) {
        int64_t v = srcs[i]->tile->valid_rows, d = dst.tile->valid_rows;
        if (dim_known(v) && dim_known(d) && v != d)
            vreport(ctx, op, srcs[i]->loc, SEV_ERROR, vr_rule, "expects %s valid row to match dst valid row, got %lld and %lld",
                    srcs[i]->name, (long long)v, (long long)d);
    }
    int64_t c0 = s0.tile->valid_cols, c1 = s1.tile->valid_cols;
    if (dim_known(c0) && dim_known(c1) && c0 + c1 > dst.tile->cols)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "cols"),
                "expects src0.valid_col + src1.valid_col <= dst.cols, got %lld + %lld > %lld", (long long)c0, (long long)c1,
                (long long)dst.tile->cols);
    const TileArg *all[3] = {&s0, &s1, &dst};
    const char *loc_rule = op_rule(ctx, op, "loc");
    for (int i = 0; i < 3; i++)
        if (all[i]->tile->loc != LOC_VEC) {
            vreport(ctx, op, all[i]->loc, SEV_ERROR, loc_rule, "expects %s to use loc=vec, got loc=%s", all[i]->name,
                    tile_loc_name(all[i]->tile->loc));
            return;
        }
    if (ctx->target == TARGET_A5)
        for (int i = 0; i < 3; i++)
            if (all[i]->tile->blayout != BL_ROW_MAJOR) {
                vreport(ctx, op, all[i]->loc, SEV_ERROR, op_rule(ctx, op, "layout"),
                        "expects src0, src1, and dst to use row-major layout, got blayout=%s for %s",
                        blayout_name(all[i]->tile->blayout), all[i]->name);
                return;
            }
    if (!(DTBIT(s0.tile->dtype) & (MV_F | DTBIT(DT_I8) | DTBIT(DT_I16) | DTBIT(DT_I32))))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects element type to be i8, i16, i32, f16, f32, or bf16, got %s", dtype_name(s0.tile->dtype));
}

/* ---- TRESHAPE ------------------------------------------------------------------------------- */

void verify_treshape(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0);
    if (op->n_results < 1 || !op->results[0]) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "form"),
                "is an SSA view: write `%%v = pto.treshape %%src : Ts -> Td`");
        return;
    }
    TileArg dst = tile_of_value("dst", op->results[0]);
    if (!src.tile || !dst.tile) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "form"), "expects src/result to be !pto.tile_buf types");
        return;
    }
    if (src.tile->loc != dst.tile->loc) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "loc"),
                "expects src and dst to use the same loc, got %s and %s", tile_loc_name(src.tile->loc),
                tile_loc_name(dst.tile->loc));
        return;
    }
    int64_t sb, db;
    if (tile_footprint_bytes(src.tile, &sb) && tile_footprint_bytes(dst.tile, &db) && sb != db) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "size"),
                "expects src and dst to have the same total byte size, got %lld and %lld bytes", (long long)sb, (long long)db);
        return;
    }
    if ((src.tile->slayout != SL_NONE_BOX) != (dst.tile->slayout != SL_NONE_BOX)) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "box"),
                "cannot reshape between boxed and non-boxed tile layouts (slayout=%s -> %s)",
                slayout_name(src.tile->slayout), slayout_name(dst.tile->slayout));
        return;
    }
    DType se = src.tile->dtype, de = dst.tile->dtype;
    if (se != de && dtype_is_float(se) != dtype_is_float(de))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects compatible element types (the same, both floating-point or both integer; pto-isa's TRESHAPE "
                "static_assert), got %s -> %s", dtype_name(se), dtype_name(de));
}

/* pto.bitcast: PTOAS BitcastOp::verify. An SSA view (`%v = pto.bitcast %s : Ts -> Td`) of src's
 * storage with another element type and everything else equal, needing no more bytes than src's. */
void verify_bitcast(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0);
    if (op->n_results < 1 || !op->results[0]) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "form"), "is an SSA view: write `%%v = pto.bitcast %%src : Ts -> Td`");
        return;
    }
    TileArg dst = tile_of_value("result", op->results[0]);
    if (!src.tile || !dst.tile) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "form"), "expects tile_buf src and tile_buf result");
        return;
    }
    const TileType *s = src.tile, *d = dst.tile;
    const char *rule = NULL, *what = NULL;
    if (s->loc != d->loc) rule = "loc", what = "expects src/result to have the same memorySpace";
    else if (s->dtype == d->dtype)
        rule = "dtype", what = "expects src/result to have different element types; use pto.treshape for shape/config changes";
    else if (s->rows != d->rows || s->cols != d->cols)
        rule = "shape", what = "expects src/result to have the same shape; use pto.treshape for shape changes";
    else if (s->valid_rows != d->valid_rows || s->valid_cols != d->valid_cols)
        rule = "valid-shape", what = "expects src/result to have the same validShape";
    else if (s->blayout != d->blayout || s->slayout != d->slayout || s->fractal != d->fractal || s->pad != d->pad ||
             s->compact != d->compact)
        rule = "config", what = "expects src/result to have the same tile config";
    else if (dtype_size(d->dtype) > dtype_size(s->dtype))
        rule = "size", what = "bitcast result requires more bytes than source storage";
    if (rule)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, rule), "%s (%s -> %s)", what, type_text(ctx, op->ins.items[0].value->type),
                type_text(ctx, op->results[0]->type));
}

/* ---- TEXTRACT_FP / TINSERT_FP / TMOV_FP -------------------------------------------------------- */

/* The (acc, dst) element types of the vector-quantisation moves (PTOAS isA2A3VectorPreQuantTypePair,
 * isA5VectorPreQuantTypePair; integer widths of either signedness; A5 f32 -> any 8-bit float). */
static uint32_t vector_quant_dsts(Target target, DType acc) {
    uint32_t i8 = DTBIT(DT_I8) | DTBIT(DT_U8), i16 = DTBIT(DT_I16) | DTBIT(DT_U16);
    if (target == TARGET_A5) {
        if (acc == DT_F32) return i8 | DTSET_F8 | DTBIT(DT_F16) | DTBIT(DT_BF16) | DTBIT(DT_F32);
        if (acc == DT_I32 || acc == DT_U32) return i8 | DTBIT(DT_F16) | DTBIT(DT_BF16);
        return 0;
    }
    if (acc == DT_F32) return i8;
    if (acc == DT_I32 || acc == DT_U32) return i8 | DTBIT(DT_F16) | i16;
    return 0;
}

/* vector_quant_dsts(acc) as text, the 8-bit floats named "fp8" after the 8-bit integers (PTOAS's
 * "i8/fp8/f16/bf16/f32"). */
static const char *quant_dsts_text(VerifyCtx *ctx, DType acc) {
    uint32_t set = vector_quant_dsts(ctx->target, acc), w8 = DTBIT(DT_I8) | DTBIT(DT_U8);
    if (!(set & DTSET_F8)) return dtype_set_text(ctx, set);
    return arena_printf(ctx->arena, "%s/fp8/%s", dtype_set_text(ctx, set & w8), dtype_set_text(ctx, set & ~w8 & ~DTSET_F8));
}

/* textract_fp / tinsert_fp (PTOAS TExtractFPOp / TInsertFPOp::verify) and tmov.fp (TMovFPOp):
 * src an acc tile (col_major, row_major boxes), fp a scaling tile, dst a mat tile (Nz; fractal 512
 * on A2/A3); the element pairs of the target; the static index bounds. tmov.fp on A5 checks only
 * the src and fp, and its src element type. */
void verify_move_fp(VerifyCtx *ctx, const Op *op) {
    check_dps_form(ctx, op);
    const OpInfo *info = op_info(op->code);
    bool indexed = opspec_count(info->ins, OPSPEC_MAX) == 4, insert = info->flags & OPF_DST_READ;
    TileArg src = tile_in(op, 0), fp = tile_in(op, 1), dst = tile_out(op, 0);
    int64_t row = -1, col = -1;
    if (indexed) check_indices_at(ctx, op, 2, &row, &col);
    if (!src.tile || !fp.tile || !dst.tile) return;
    if (indexed && insert) {
        check_bound(ctx, op, &src, row, src.tile->valid_rows, dst.tile->rows, "indexRow + src.rows <= dst.rows");
        check_bound(ctx, op, &src, col, src.tile->valid_cols, dst.tile->cols, "indexCol + src.cols <= dst.cols");
    } else if (indexed) {
        check_bound(ctx, op, &dst, row, dst.tile->rows, src.tile->rows, "indexRow + dst.rows <= src.rows");
        check_bound(ctx, op, &dst, col, dst.tile->cols, src.tile->cols, "indexCol + dst.cols <= src.cols");
    }
    const char *loc_rule = op_rule(ctx, op, "loc");
    bool a5 = ctx->target == TARGET_A5, full = indexed || !a5; /* A5 tmov.fp: src and fp only */
    if (!check_loc_in(ctx, op, &src, LOCBIT(LOC_ACC), "acc", loc_rule)) return;
    if (!check_loc_in(ctx, op, &fp, LOCBIT(LOC_SCALING), "scaling", op_rule(ctx, op, "fp-loc"))) return;
    if (full && !check_loc_in(ctx, op, &dst, LOCBIT(LOC_MAT), "mat", loc_rule)) return;
    if (!is_nz(src.tile)) {
        report_layout(ctx, op, &src, "expects src to use blayout=col_major and slayout=row_major");
        return;
    }
    if (full && !is_nz(dst.tile)) {
        report_layout(ctx, op, &dst, "expects dst to use blayout=col_major and slayout=row_major");
        return;
    }
    if (full && !a5 && dst.tile->fractal != 512)
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "fractal"), "expects dst fractal size to be 512, got %lld (%s)",
                (long long)dst.tile->fractal, type_text(ctx, dst.type));
    DType se = src.tile->dtype, de = dst.tile->dtype;
    if (se != DT_F32 && se != DT_I32 && se != DT_U32) {
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects src to have element type f32, i32, got %s",
                dtype_name(se));
        return;
    }
    uint32_t dsts = vector_quant_dsts(ctx->target, se);
    if (indexed && !(dsts & DTBIT(de)))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "pair"),
                "expects %s %s element types to be (src=f32, dst=%s) or (src=i32, dst=%s), got (src=%s, dst=%s)",
                target_label(ctx->target), info->asm_name, quant_dsts_text(ctx, DT_F32), quant_dsts_text(ctx, DT_I32),
                dtype_name(se), dtype_name(de));
}

/* ---- TTRANS --------------------------------------------------------------------------------- */

/* Both dimensions static, positive and small enough for products in int64 (the tile checks report
 * the others). */
static bool small_dims(int64_t a, int64_t b) { return a > 0 && b > 0 && a <= (1 << 24) && b <= (1 << 24); }

/* TTRANS (PTOAS TTransOp::verify, the simulator's and pto-isa's TTrans.hpp): src, tmp and dst in
 * UB with one element type of 1, 2 or 4 bytes; src row-major; dst's valid shape src's mirrored
 * (the simulator's static_assert on the static valid shapes); A5: pto-isa's 16-bit gather/scatter
 * index range for 1- and 2-byte types (PTOAS's 32-byte major dimension is TILE.alignment); A2/A3: a warning when
 * tmp is smaller than what the vnchwconv path writes into it. */
void verify_ttrans(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), tmp = tile_in(op, 1), dst = tile_out(op, 0);
    if (!src.tile || !tmp.tile || !dst.tile) return;
    const TileArg *all[3] = {&src, &tmp, &dst};
    for (int i = 0; i < 3; i++)
        if (all[i]->tile->loc != LOC_VEC) { /* PTOAS checks no loc; pto-isa's NPU code takes UB pointers */
            vreport(ctx, op, all[i]->loc, SEV_ERROR, op_rule(ctx, op, "loc"),
                    "expects %s to use loc=vec (pto-isa's TTRANS transposes in UB), got loc=%s", all[i]->name,
                    tile_loc_name(all[i]->tile->loc));
            return;
        }
    if (!same_element_type3(ctx, op, &src, &tmp, &dst)) return;
    if (!check_op_dtype(ctx, op, &src)) return;
    if (src.tile->blayout != BL_ROW_MAJOR) { /* PTOAS on A2/A3; pto-isa's static_assert on both targets */
        vreport(ctx, op, src.loc, SEV_ERROR, op_rule(ctx, op, "layout"),
                "expects %s transpose src to use the row_major blayout, got blayout=%s (%s)", target_label(ctx->target),
                blayout_name(src.tile->blayout), type_text(ctx, src.type));
        return;
    }
    int64_t es = (int64_t)dtype_size(src.tile->dtype);
    if (ctx->target == TARGET_A5) {
        /* PTOAS's 32-byte major dimension of src and dst is every vec tile's rule (TILE.alignment) */
        /* pto-isa a5/TTrans.hpp: 1- and 2-byte types gather (src) or scatter (dst, when src has fewer
         * rows than columns) through 16-bit element indices */
        const TileType *t = src.tile->rows < src.tile->cols ? dst.tile : src.tile;
        int64_t row_stride = t->blayout == BL_ROW_MAJOR ? t->cols : 1; /* its static_assert's (Rows-1)*RowStride + Cols-1 */
        int64_t last = !small_dims(t->rows, t->cols) ? 0 : (t->rows - 1) * row_stride + (t->cols - 1);
        if (es <= 2 && small_dims(t->rows, t->cols) && last > 0xFFFF)
            vreport(ctx, op, t == dst.tile ? dst.loc : src.loc, SEV_ERROR, op_rule(ctx, op, "index-range"),
                    "expects the last element of %s at index %lld to fit A5's 16-bit %s index for %lld-byte types "
                    "(pto-isa a5/TTrans.hpp)", t == dst.tile ? "dst" : "src", (long long)last,
                    t == dst.tile ? "scatter" : "gather", (long long)es);
    }
    for (int d = 0; d < 2; d++) { /* src valid rows <-> dst valid cols, src valid cols <-> dst valid rows */
        int64_t s = valid_dim(src.tile, d), m = valid_dim(dst.tile, 1 - d);
        if (dim_known(s) != dim_known(m) || (dim_known(s) && s != m)) {
            vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                    "expects dst's valid shape to mirror src's (valid %sx%s), got %sx%s (the simulator's "
                    "static_assert: src ValidRow == dst ValidCol and src ValidCol == dst ValidRow)",
                    dim_text(ctx, src.tile->valid_rows), dim_text(ctx, src.tile->valid_cols),
                    dim_text(ctx, dst.tile->valid_rows), dim_text(ctx, dst.tile->valid_cols));
            return;
        }
    }
    if (ctx->target != TARGET_A5 && small_dims(src.tile->valid_rows, src.tile->valid_cols) &&
        small_dims(tmp.tile->rows, tmp.tile->cols)) {
        /* A2/A3's vnchwconv path (aligned strides) transposes into tmp with a row stride of the valid
         * rows rounded up to 16 (32 for 1-byte types), block columns rounded up to 32 bytes */
        int64_t y = es == 1 ? 32 : 16, blk = 32 / es;
        bool vector_path = dst.tile->cols % y == 0 && src.tile->cols % blk == 0;
        int64_t need = (src.tile->valid_cols + blk - 1) / blk * blk * ((src.tile->valid_rows + y - 1) / y * y);
        int64_t have = (int64_t)tmp.tile->rows * tmp.tile->cols;
        if (vector_path && src.tile->valid_rows > 0 && src.tile->valid_cols > 0 && have < need)
            vreport(ctx, op, tmp.loc, SEV_WARNING, op_rule(ctx, op, "tmp-size"),
                    "tmp has %lld elements, but A2/A3's TTRANS writes %lld into it for a %lldx%lld valid src (pto-isa "
                    "a2a3/TTrans.hpp: %lld rows of %lld); the simulator ignores tmp, the board overruns it",
                    (long long)have, (long long)need, (long long)src.tile->valid_rows, (long long)src.tile->valid_cols,
                    (long long)((src.tile->valid_cols + blk - 1) / blk * blk), (long long)((src.tile->valid_rows + y - 1) / y * y));
    }
}

/* ---- SUBSET ------------------------------------------------------------------------------------ */

/* The inner box of a boxed layout (PTOAS's computeInnerShape): 16x16 for fractal 1024, 16x2 for 32,
 * and for 512 16 x 32 bytes (slayout row_major) or 32 bytes x 16 (col_major); false for none_box. */
static bool subset_inner_box(const TileType *t, int64_t *ir, int64_t *ic) {
    int64_t es = (int64_t)dtype_size(t->dtype);
    if (t->slayout == SL_NONE_BOX || es <= 0) return false;
    if (t->fractal == 1024) *ir = 16, *ic = 16;
    else if (t->fractal == 32) *ir = 16, *ic = 2;
    else if (t->slayout == SL_ROW_MAJOR) *ir = 16, *ic = 32 / es;
    else *ir = 32 / es, *ic = 16;
    return true;
}

/* pto.subset: PTOAS SubsetOp::verify and its inferred result type. An SSA view of an R x C window
 * of src: its result type is what PTOAS infers; a boxed src takes windows of whole inner boxes that
 * keep its full rows (row-major) or full columns (col-major), the other offset a static 0. */
void verify_subset(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0);
    if (op->n_results < 1 || !op->results[0]) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "form"),
                "is an SSA view: write `%%v = pto.subset %%src[%%row, %%col] sizes [R, C] : Ts`");
        return;
    }
    TileArg dst = tile_of_value("result", op->results[0]);
    if (!src.tile || !dst.tile) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "form"), "expects tile_buf src and tile_buf result");
        return;
    }
    int64_t rows, cols;
    if (!subset_sizes(op, &rows, &cols)) {
        const Attr *a = attr_find(&op->attrs, "sizes");
        if (a) /* (a missing one is OP.attr-missing) */
            vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "sizes"),
                    "expects sizes to be two integers [R, C] (rank-2 tiles), got %s", a->text ? a->text : "another value");
        return;
    }
    if (rows <= 0 || cols <= 0) {
        vreport(ctx, op, attr_find(&op->attrs, "sizes")->loc, SEV_ERROR, op_rule(ctx, op, "sizes"),
                "subset sizes must be positive, got [%lld, %lld]", (long long)rows, (long long)cols);
        return;
    }
    TileType inferred;
    if (view_result_tile(op, &inferred) && !tile_type_equal(&inferred, dst.tile)) {
        Type it = {.kind = TY_TILE, .dtype = inferred.dtype, .tile = inferred, .tile_buf = true};
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "result-type"),
                "result type %s differs from the type PTOAS infers, %s (sizes, src's element type, loc and config, "
                "valid dims from src's and the offsets)", type_text(ctx, op->results[0]->type), type_text(ctx, &it));
        return;
    }
    int64_t ir, ic;
    if (!subset_inner_box(src.tile, &ir, &ic)) return;
    SrcLoc sizes_loc = attr_find(&op->attrs, "sizes")->loc;
    if (rows % ir != 0 || cols % ic != 0) {
        vreport(ctx, op, sizes_loc, SEV_ERROR, op_rule(ctx, op, "box-size"),
                "boxed layout subset sizes must be multiples of inner shape %lldx%lld, got [%lld, %lld]", (long long)ir,
                (long long)ic, (long long)rows, (long long)cols);
        return;
    }
    int64_t off[2];
    bool known[2];
    for (int i = 0; i < 2; i++) {
        known[i] = 1 + i < op->ins.count && operand_const_int(&op->ins.items[1 + i], &off[i]);
        if (!known[i]) continue;
        const Operand *o = &op->ins.items[1 + i];
        if (off[i] < 0 || off[i] % (i ? ic : ir) != 0) {
            vreport(ctx, op, o->loc, SEV_ERROR, op_rule(ctx, op, "box-offset"),
                    "boxed layout subset %s offset %lld must be a non-negative multiple of the inner %s (%lld)",
                    i ? "col" : "row", (long long)off[i], i ? "cols" : "rows", (long long)(i ? ic : ir));
            return;
        }
    }
    bool row_major = src.tile->blayout == BL_ROW_MAJOR;
    int keep = row_major ? 1 : 0; /* the dim the window keeps whole, whose offset is a static 0 */
    if ((row_major ? cols != src.tile->cols : rows != src.tile->rows)) {
        vreport(ctx, op, sizes_loc, SEV_ERROR, op_rule(ctx, op, "box-full"),
                "boxed %s subset must keep full %s (%lld), got sizes [%lld, %lld]", row_major ? "RowMajor" : "ColMajor",
                row_major ? "cols" : "rows", (long long)(row_major ? src.tile->cols : src.tile->rows), (long long)rows,
                (long long)cols);
        return;
    }
    if (!known[keep] || off[keep] != 0)
        vreport(ctx, op, 1 + keep < op->ins.count ? op->ins.items[1 + keep].loc : op->loc, SEV_ERROR,
                op_rule(ctx, op, "box-static-offset"), "boxed %s subset requires static %s offset = 0",
                row_major ? "RowMajor" : "ColMajor", row_major ? "col" : "row");
}

/* ---- TPACK ------------------------------------------------------------------------------------- */

/* pto.tpack: PTOAS TPackOp::verify. A5 only; src and dst vec tiles in the row_major blayout with the
 * same valid shape, src's elements 4 -> 2, 4 -> 1 or 2 -> 1 bytes wide into dst's. */
void verify_tpack(VerifyCtx *ctx, const Op *op) {
    TileArg src = tile_in(op, 0), dst = tile_out(op, 0);
    if (!src.tile || !dst.tile) return;
    if (ctx->target != TARGET_A5) {
        vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "target"), "tpack is only supported on A5 targets");
        return;
    }
    const TileArg *both[2] = {&src, &dst};
    for (int i = 0; i < 2; i++) {
        if (both[i]->tile->loc != LOC_VEC) {
            vreport(ctx, op, both[i]->loc, SEV_ERROR, op_rule(ctx, op, "loc"), "expects %s to be in the vec address space, got loc=%s",
                    both[i]->name, tile_loc_name(both[i]->tile->loc));
            return;
        }
        if (both[i]->tile->blayout != BL_ROW_MAJOR) {
            vreport(ctx, op, both[i]->loc, SEV_ERROR, op_rule(ctx, op, "layout"), "expects %s to use the row_major blayout",
                    both[i]->name);
            return;
        }
    }
    if (src.tile->valid_rows != dst.tile->valid_rows || src.tile->valid_cols != dst.tile->valid_cols) {
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "valid-shape"),
                "expects src and dst to have the same valid_shape, got %sx%s and %sx%s", dim_text(ctx, src.tile->valid_rows),
                dim_text(ctx, src.tile->valid_cols), dim_text(ctx, dst.tile->valid_rows), dim_text(ctx, dst.tile->valid_cols));
        return;
    }
    size_t sb = dtype_size(src.tile->dtype), db = dtype_size(dst.tile->dtype);
    if (!((sb == 4 && db == 2) || (sb == 4 && db == 1) || (sb == 2 && db == 1)))
        vreport(ctx, op, dst.loc, SEV_ERROR, op_rule(ctx, op, "dtype"),
                "expects A5 tpack element-size pair to be 4->2, 4->1, or 2->1 bytes, got %s (%zu) -> %s (%zu)",
                dtype_name(src.tile->dtype), sb, dtype_name(dst.tile->dtype), db);
}
