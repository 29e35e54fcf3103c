/* ops_tile.c - tile and GM instructions: four seed ops (TMULS is in ops_family.c) (kernel chosen per op and dtype at
 * lowering, valid regions checked once per instruction), alloc_tile, tassign (both forms),
 * set_validshape, tload / tstore / tprint, make_tensor_view, partition_view. */
#include "interp_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ------------------------------------------------------------------------ */

static const char *loc_name(TileLoc loc) { return tile_loc_name(loc); }

bool check_placement(Interp *ip, const Instr *in, SrcLoc loc, TileLoc tloc, int64_t addr, int64_t footprint,
                     const char *what) {
    int64_t size = ip->buf_size[tloc], end;
    if (addr < 0) {
        rt_error_at(ip, in, loc, "%s address %lld is negative", what, (long long)addr);
        return false;
    }
    if (addr % 32 != 0) {
        rt_error_at(ip, in, loc, "%s address 0x%llx is not a multiple of 32 bytes", what, (unsigned long long)addr);
        return false;
    }
    if (!checked_add_i64(addr, footprint, &end) || end > size) {
        rt_error_at(ip, in, loc, "%s of %lld bytes at 0x%llx ends past the end of %s (%s, %lld bytes on %s)", what,
                    (long long)footprint, (unsigned long long)addr, loc_name(tloc), buffer_name(tloc),
                    (long long)size, target_name(ip->opts.target));
        return false;
    }
    return true;
}

bool define_tile(Interp *ip, const Instr *in, const TileRef *t, int64_t vr, int64_t vc) {
    Frame *f = ip->frame;
    TileView *v = &f->vals[t->slot].tile;
    if (!(v->flags & VIEW_PLACED)) {
        v->base = f->auto_mem + f->fn->auto_offset[t->auto_index];
        v->auto_slot = t->auto_index;
        v->frame_serial = f->serial;
    }
    if (t->static_vr >= 0) vr = t->static_vr;
    if (t->static_vc >= 0) vc = t->static_vc;
    if (vr < 0 || vr > t->rows || vc < 0 || vc > t->cols) {
        rt_error(ip, in, "result %%%s would get valid shape %lldx%lld, beyond its %dx%d shape", t->name, (long long)vr,
                 (long long)vc, t->rows, t->cols);
        return false;
    }
    v->vr = (int32_t)vr;
    v->vc = (int32_t)vc;
    v->flags |= VIEW_DEFINED;
    return true;
}

/* The scalar operand converted to element type `dt`. */
KScalar kernel_scalar(const Interp *ip, const Instr *in, DType dt) {
    if (in->sc[0].slot < 0) return in->ks;
    return scalar_to_kernel(read_scalar(ip->frame, &in->sc[0]), in->sc[0].type, dt);
}

/* The destination tile of a tile op: outs[0] in the DPS form; in the result form the same value is
 * also the op's result, and this instruction defines it (auto storage reserved here). */
bool lower_dst(LowerCtx *ctx, const Op *op, TileRef *dst, bool *defines) {
    *defines = false;
    const Operand *o = op->outs.count > 0 ? &op->outs.items[0] : NULL;
    Operand synth;
    if (!o) {
        if (op->n_results < 1 || !op->results[0]) return lower_error(ctx, op, (SrcLoc){0}, "has no destination tile");
        memset(&synth, 0, sizeof synth);
        synth.kind = OPD_VALUE;
        synth.value = op->results[0];
        synth.loc = op->results[0]->loc;
        o = &synth;
    }
    if (!tile_ref(ctx, op, o, dst)) return false;
    for (int i = 0; i < op->n_results; i++)
        if (op->results[i] == o->value) *defines = true;
    if (*defines) {
        dst->auto_index = new_auto(ctx, op, dst->footprint);
        if (dst->auto_index < 0) return false;
        ctx->auto_of_value[dst->slot] = dst->auto_index;
    }
    return true;
}

bool boxed(const TileRef *t) { return t->slayout != SL_NONE_BOX; }

void tile_offsets(Arena *a, const TileRef *t, TileOffsets *out) {
    out->rows = arena_alloc_array(a, (size_t)t->rows, sizeof *out->rows);
    out->cols = arena_alloc_array(a, (size_t)t->cols, sizeof *out->cols);
    out->row_run = arena_alloc_array(a, (size_t)t->rows, sizeof *out->row_run);
    out->col_run = arena_alloc_array(a, (size_t)t->cols, sizeof *out->col_run);
    for (int64_t r = 0; r < t->rows; r++) out->rows[r] = tile_elem_offset(t, r, 0);
    for (int64_t c = 0; c < t->cols; c++) out->cols[c] = tile_elem_offset(t, 0, c);
    for (int64_t r = t->rows - 1; r >= 0; r--)
        out->row_run[r] = r + 1 < t->rows && out->rows[r + 1] == out->rows[r] + 1 ? out->row_run[r + 1] + 1 : 1;
    for (int64_t c = t->cols - 1; c >= 0; c--)
        out->col_run[c] = c + 1 < t->cols && out->cols[c + 1] == out->cols[c] + 1 ? out->col_run[c + 1] + 1 : 1;
}

/* memcpy of a run of n bytes; the fractal boxes' row of 32 bytes (and 16, 64) as fixed-size copies
 * the compiler inlines. */
static inline void copy_run(uint8_t *d, const uint8_t *s, size_t n) {
    switch (n) {
    case 16: memcpy(d, s, 16); break;
    case 32: memcpy(d, s, 32); break;
    case 64: memcpy(d, s, 64); break;
    default: memcpy(d, s, n); break;
    }
}

static inline int64_t min_i64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Whether every run of `run` that starts at a multiple of 16 below n is 16 long at least. */
static bool runs_of_16(const int32_t *run, int64_t n) {
    if (n % 16 != 0) return false;
    for (int64_t i = 0; i < n; i += 16)
        if (run[i] < 16) return false;
    return true;
}

/* 16-bit elements between layouts whose runs cross (Nz <-> Zn: one tile's 16-element runs go along
 * rows, the other's along columns): a 16x16 box transposed at a time; false when the region is not
 * made of such boxes. */
static bool copy_boxes_transposed(uint8_t *d, const TileOffsets *doff, const uint8_t *s, const TileOffsets *soff,
                                  int64_t rows, int64_t cols, KernelIsa isa) {
    bool rows_to_cols = runs_of_16(soff->col_run, cols) && runs_of_16(doff->row_run, rows);
    bool cols_to_rows = runs_of_16(soff->row_run, rows) && runs_of_16(doff->col_run, cols);
    if (!rows_to_cols && !cols_to_rows) return false;
    const uint8_t *src[16];
    uint8_t *dst[16];
    for (int64_t r0 = 0; r0 < rows; r0 += 16)
        for (int64_t c0 = 0; c0 < cols; c0 += 16) {
            for (int i = 0; i < 16; i++) {
                if (rows_to_cols) { /* src rows of the box -> dst columns */
                    src[i] = s + (size_t)(soff->rows[r0 + i] + soff->cols[c0]) * 2;
                    dst[i] = d + (size_t)(doff->cols[c0 + i] + doff->rows[r0]) * 2;
                } else { /* src columns of the box -> dst rows */
                    src[i] = s + (size_t)(soff->cols[c0 + i] + soff->rows[r0]) * 2;
                    dst[i] = d + (size_t)(doff->rows[r0 + i] + doff->cols[c0]) * 2;
                }
            }
            transpose16_u16(isa, src, dst);
        }
    return true;
}

void copy_tile_region(uint8_t *d, const TileOffsets *doff, const uint8_t *s, const TileOffsets *soff, int64_t rows,
                      int64_t cols, size_t es, KernelIsa isa) {
    if (rows <= 0 || cols <= 0) return;
    /* walk along the direction whose runs are longer in both tiles (Nz -> Zz: rows; Nz -> Zn: columns) */
    int64_t along_cols = min_i64(doff->col_run[0], soff->col_run[0]), along_rows = min_i64(doff->row_run[0], soff->row_run[0]);
    if (es == 2 && along_cols < 16 && along_rows < 16 && copy_boxes_transposed(d, doff, s, soff, rows, cols, isa)) return;
    if (along_cols >= along_rows) {
        for (int64_t r = 0; r < rows; r++) {
            uint8_t *dr = d + (size_t)doff->rows[r] * es;
            const uint8_t *sr = s + (size_t)soff->rows[r] * es;
            if (along_cols == 1) { /* no runs: element by element through the tables */
                copy_elems(dr, doff->cols, sr, soff->cols, cols, es);
                continue;
            }
            for (int64_t c = 0; c < cols;) {
                int64_t n = min_i64(min_i64(doff->col_run[c], soff->col_run[c]), cols - c);
                copy_run(dr + (size_t)doff->cols[c] * es, sr + (size_t)soff->cols[c] * es, (size_t)n * es);
                c += n;
            }
        }
        return;
    }
    for (int64_t c = 0; c < cols; c++) {
        uint8_t *dc = d + (size_t)doff->cols[c] * es;
        const uint8_t *sc = s + (size_t)soff->cols[c] * es;
        for (int64_t r = 0; r < rows;) {
            int64_t n = min_i64(min_i64(doff->row_run[r], soff->row_run[r]), rows - r);
            copy_run(dc + (size_t)doff->rows[r] * es, sc + (size_t)soff->rows[r] * es, (size_t)n * es);
            r += n;
        }
    }
}

/* One element type's copy loop: the table lookups are the only work per element. */
#define COPY_ELEMS(T)                                                                                      \
    do {                                                                                                   \
        T *dt = (T *)d;                                                                                    \
        const T *st = (const T *)s;                                                                        \
        if (!dcols)                                                                                        \
            for (int64_t j = 0; j < n; j++) dt[j] = st[scols[j]];                                          \
        else if (!scols)                                                                                   \
            for (int64_t j = 0; j < n; j++) dt[dcols[j]] = st[j];                                          \
        else                                                                                               \
            for (int64_t j = 0; j < n; j++) dt[dcols[j]] = st[scols[j]];                                   \
    } while (0)

void copy_elems(uint8_t *d, const int64_t *dcols, const uint8_t *s, const int64_t *scols, int64_t n, size_t es) {
    if (!dcols && !scols) {
        memcpy(d, s, (size_t)n * es);
        return;
    }
    switch (es) {
    case 1: COPY_ELEMS(uint8_t); break;
    case 2: COPY_ELEMS(uint16_t); break;
    case 4: COPY_ELEMS(uint32_t); break;
    default: COPY_ELEMS(uint64_t); break;
    }
}
#undef COPY_ELEMS

/* Resolves ins[i] as a tile into *out; false when it cannot, with *emitted set when a boxed layout
 * got an "unsupported" instruction instead (the caller then returns *emitted). */
bool lower_tile_in(LowerCtx *ctx, const Op *op, int i, TileRef *out, bool *emitted) {
    if (i >= op->ins.count) return lower_error(ctx, op, (SrcLoc){0}, "expects a tile operand at position %d", i);
    if (!tile_ref(ctx, op, &op->ins.items[i], out)) return false;
    if (boxed(out)) {
        *emitted = unsupported_boxed(ctx, op, out);
        return false;
    }
    return true;
}

/* Emits the "not supported" instruction for boxed (fractal) layouts. */
bool unsupported_boxed(LowerCtx *ctx, const Op *op, const TileRef *t) {
    return emit_unsupported(ctx, op, "tile %%%s uses the boxed layout slayout=%s, which pto-run does not execute yet "
                            "(only none_box tiles)", t->name, slayout_name(t->slayout));
}

/* Element type check shared by the compute ops (kernels read every operand as dst's type). */
bool same_dtype(LowerCtx *ctx, const Op *op, const TileRef *a, const TileRef *dst, const char *aname) {
    if (a->dtype == dst->dtype) return true;
    return lower_error(ctx, op, (SrcLoc){0}, "expects %s and dst to have the same element type (%s vs %s)", aname,
                       dtype_name(a->dtype), dtype_name(dst->dtype));
}

/* The scalar operand of TMULS / TEXPANDS. A value defined by arith.constant is resolved to its
 * literal here (an SSA constant never changes), so the instruction converts it to the element type
 * once, at lowering, instead of at every execution. */
bool kernel_scalar_ref(LowerCtx *ctx, const Op *op, const Operand *opd, DType dt, ScalarRef *out) {
    const Value *v = opd->kind == OPD_VALUE ? opd->value : NULL;
    const Op *def = v ? v->def : NULL;
    if (def && def->code == OP_CONSTANT && def->ins.count >= 1 && def->ins.items[0].kind != OPD_VALUE &&
        v->type && v->type->kind == TY_SCALAR) {
        Operand typed = def->ins.items[0];
        typed.type = v->type; /* as lower_constant reads it: the literal has the result's type */
        return scalar_ref(ctx, op, &typed, v->type->dtype, out);
    }
    return scalar_ref(ctx, op, opd, dt, out);
}

/* ---- TEXPANDS ------------------------------------------------------------------------------ */

static int32_t exec_texpands(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0];
    if (in->defines_dst && !define_tile(ip, in, dt, dt->rows, dt->cols)) return PC_ERROR;
    TileView *dst = use_tile(ip, in, dt);
    if (!dst) return PC_ERROR;
    /* Vec tiles: the valid region; Mat tiles: the whole Rows x Cols (seed TEXPANDS constraints) */
    int64_t R = dt->loc == LOC_MAT ? dt->rows : dst->vr, C = dt->loc == LOC_MAT ? dt->cols : dst->vc;
    in->k.fill(ktile(dt, dst), kernel_scalar(ip, in, dt->dtype), R, C);
    return pc + 1;
}

bool lower_texpands(LowerCtx *ctx, const Op *op) {
    TileRef dst;
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a scalar operand");
    if (!lower_dst(ctx, op, &dst, &defines)) return false;
    if (boxed(&dst)) return unsupported_boxed(ctx, op, &dst);
    Instr in = instr_for(op, exec_texpands);
    if (!kernel_scalar_ref(ctx, op, &op->ins.items[0], dst.dtype, &in.sc[0])) return false;
    const KernelSet *ks = kernel_set(dst.dtype, ctx->ip->isa);
    if (!ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(dst.dtype));
    in.k.fill = ks->fill;
    in.t[0] = dst;
    in.defines_dst = defines;
    if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, dst.dtype);
    emit(ctx, &in);
    return true;
}

/* ---- TROWPROD ------------------------------------------------------------------------------ */

static int32_t exec_trowprod(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0], *st = &in->t[1];
    TileView *src = use_tile(ip, in, st);
    if (!src) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, dt, src->vr, 1)) return PC_ERROR;
    TileView *dst = use_tile(ip, in, dt);
    if (!dst) return PC_ERROR;
    /* the seed's run-time valid-region checks; the iteration domain is the source valid region */
    if (src->vr == 0 || src->vc == 0)
        return rt_rule_error(ip, in, "src-valid-nonzero", "expects src valid_shape[%d] to be non-zero (valid shape %dx%d)",
                             src->vr == 0 ? 0 : 1, src->vr, src->vc);
    if (src->vr != dst->vr)
        return rt_rule_error(ip, in, "valid-rows", "expects src and dst to have the same valid_shape[0], got %d and %d",
                             src->vr, dst->vr);
    in->k.row_reduce(ktile(dt, dst), ktile(st, src), src->vr, src->vc);
    return pc + 1;
}

bool lower_trowprod(LowerCtx *ctx, const Op *op) {
    TileRef dst, src;
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a src operand");
    if (!tile_ref(ctx, op, &op->ins.items[0], &src) || !lower_dst(ctx, op, &dst, &defines)) return false;
    if (!same_dtype(ctx, op, &src, &dst, "src")) return false;
    if (boxed(&src)) return unsupported_boxed(ctx, op, &src);
    if (boxed(&dst)) return unsupported_boxed(ctx, op, &dst);
    Instr in = instr_for(op, exec_trowprod);
    const KernelSet *ks = kernel_set(dst.dtype, ctx->ip->isa);
    if (!ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(dst.dtype));
    in.k.row_reduce = ks->row_fold[KFOLD_PROD];
    in.t[0] = dst;
    in.t[1] = src;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* ---- TROWEXPANDMUL / TROWEXPANDSUB ----------------------------------------------------------- */

/* The seed's operand rules, on the run-time valid shapes (the verifier checked what was static,
 * with the same rule IDs and the same choice of roles): exactly one of src0 / src1 has dst's valid
 * shape and is row-major (the full operand); the other is the expanded one, Mode 1 (col_major,
 * R x 1) or Mode 2 (row_major, R x one 32-byte block). *expanded_out is 0 or 1 (src0 / src1), -1
 * when both have dst's valid shape. With ip NULL (lowering, on the static valid shapes) a broken
 * rule only returns false; run time reports it. */
static bool check_row_expand_roles(Interp *ip, const Instr *in, const TileView *dst, const TileView *s[2],
                                   int *expanded_out) {
    const TileRef *t[2] = {&in->t[1], &in->t[2]};
    int64_t R = dst->vr, C = dst->vc;
    bool same[2], col[2];
    ShapeMatch match[2];
    for (int i = 0; i < 2; i++) {
        same[i] = s[i]->vr == R && s[i]->vc == C;
        match[i] = same[i] ? SHAPE_SAME : SHAPE_DIFFERENT;
        col[i] = t[i]->blayout == BL_COL_MAJOR;
    }
    const bool unused_block_wide[2] = {false, false}; /* run-time shapes are never unknown */
    int full = row_expand_full_operand(match, col, unused_block_wide);
    if (full == ROW_EXPAND_BOTH_FULL) { /* both have dst's valid shape: elementwise (the ISA's formula) */
        *expanded_out = -1;
        return true;
    }
    if (full == ROW_EXPAND_NO_FULL) {
        if (ip) rt_rule_error(ip, in, "full-operand",
                      "expects exactly one of src0 and src1 to have the valid shape of dst (%lldx%lld), got src0 %dx%d "
                      "and src1 %dx%d",
                      (long long)R, (long long)C, s[0]->vr, s[0]->vc, s[1]->vr, s[1]->vc);
        return false;
    }
    int e = 1 - full;
    const char *fname = full ? "src1" : "src0", *ename = e ? "src1" : "src0";
    if (!same[full]) {
        if (ip) rt_rule_error(ip, in, "full-operand",
                      "expects exactly one of src0 and src1 to have the valid shape of dst (%lldx%lld); the full-size "
                      "operand %s (%s) has %dx%d",
                      (long long)R, (long long)C, fname, col[full] ? "col_major" : "row_major", s[full]->vr, s[full]->vc);
        return false;
    }
    if (col[full]) {
        if (ip) rt_rule_error(ip, in, "full-layout", "expects the full-size operand %s to use row-major layout, got blayout=col_major",
                      fname);
        return false;
    }
    const char *mode = col[e] ? "Mode 1" : "Mode 2", *layout = col[e] ? "col_major" : "row_major";
    if (s[e]->vr != R) {
        if (ip) rt_rule_error(ip, in, col[e] ? "mode1-rows" : "mode2-rows",
                      "expects the %s expanded operand %s (%s) to have valid_shape[0] == dst valid_shape[0] (%lld), got %d",
                      mode, ename, layout, (long long)R, s[e]->vr);
        return false;
    }
    int64_t block = 32 / (int64_t)dtype_size(in->t[0].dtype);
    if (col[e] && s[e]->vc != 1) {
        if (ip) rt_rule_error(ip, in, "mode1-cols",
                      "expects the Mode 1 expanded operand %s (col_major) to have valid_shape[1] == 1, got %d", ename,
                      s[e]->vc);
        return false;
    }
    if (!col[e] && s[e]->vc != block) {
        if (ip) rt_rule_error(ip, in, "mode2-cols",
                      "expects the Mode 2 expanded operand %s (row_major) to have valid_shape[1] == 32 / sizeof(%s) = "
                      "%lld, got %d",
                      ename, dtype_name(in->t[0].dtype), (long long)block, s[e]->vc);
        return false;
    }
    *expanded_out = e;
    return true;
}

/* Whether dst's R x C region and the expanded operand's R x 1 column share a byte. */
static bool row_expand_overlaps(KTile d, KTile x, int64_t R, int64_t C, size_t es) {
    const uint8_t *d_end = d.p + (size_t)((R - 1) * d.rs + (C - 1) * d.cs + 1) * es, *x_end = x.p + (size_t)((R - 1) * x.rs + 1) * es;
    return d.p < x_end && x.p < d_end;
}

/* Mode 1 of a member (dst(r,c) = ELEM(.., src_e(r,0), ..)) through its elementwise kernel on whole
 * rows: src_e's values are broadcast into ip->stage (KernelSet.broadcast_rows), as many rows at a
 * time as it holds (a row longer than the stage in pieces, one row at a time), so that every
 * operand the kernel sees has unit column stride. Rows stay in order, so a fault stops where the
 * sequential loop stops. False after reporting a fault. */
static bool row_expand_staged(Interp *ip, const Instr *in, KTile d, const KTile src[2], int e, int64_t R, int64_t C) {
    const size_t es = dtype_size(in->t[0].dtype);
    const int64_t w = C * (int64_t)es <= STAGE_BYTES ? C : STAGE_BYTES / (int64_t)es;
    const int64_t B = STAGE_BYTES / (w * (int64_t)es);
    const KernelRowReduce broadcast = (KernelRowReduce)in->extra; /* KernelSet.broadcast_rows, set at lowering */
    for (int64_t r0 = 0; r0 < R; r0 += B) {
        const int64_t b = R - r0 < B ? R - r0 : B;
        for (int64_t c0 = 0; c0 < C; c0 += w) {
            const int64_t n = C - c0 < w ? C - c0 : w;
            const KTile stage = ktile_of(ip->stage, (int32_t)n, 1);
            broadcast(stage, ktile_at(src[e], r0, 0, es), b, n);
            KTile part[2];
            part[e] = stage;
            part[1 - e] = ktile_at(src[1 - e], r0, c0, es);
            if (in->k.elem(ktile_at(d, r0, c0, es), part, in->ks, b, n)) {
                rt_error(ip, in, "element fault");
                return false;
            }
        }
    }
    return true;
}

static int32_t exec_trowexpand(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0], *t0 = &in->t[1], *t1 = &in->t[2];
    TileView *s0 = use_tile(ip, in, t0), *s1 = s0 ? use_tile(ip, in, t1) : NULL;
    if (!s1) return PC_ERROR;
    if (in->defines_dst) {
        const TileView *wide = s1->vc > s0->vc ? s1 : s0;
        if (!define_tile(ip, in, dt, wide->vr, wide->vc)) return PC_ERROR;
    }
    TileView *dst = use_tile(ip, in, dt);
    if (!dst) return PC_ERROR;
    int64_t R = dst->vr, C = dst->vc;
    const TileView *s[2] = {s0, s1};
    int e;
    const bool fixed = in->a && dst->vr == dt->static_vr && dst->vc == dt->static_vc && s0->vr == t0->static_vr &&
                       s0->vc == t0->static_vc && s1->vr == t1->static_vr && s1->vc == t1->static_vc;
    if (fixed) e = in->a - 2; /* the roles lowering decided for these valid shapes */
    else if (!check_row_expand_roles(ip, in, dst, s, &e))
        return PC_ERROR;
    bool has_tmp = in->t[3].footprint > 0; /* t[3] is zero when the op has no tmp */
    if (has_tmp && e >= 0 && ip->opts.target == TARGET_A2A3 && in->t[1 + e].blayout == BL_COL_MAJOR &&
        in->t[3].footprint < row_expand_tmp_bytes(R))
        return rt_rule_error(ip, in, "tmp-size",
                             "expects tmp to hold at least %lld bytes on A2/A3 (%s for %lld valid rows), got %lld bytes",
                             (long long)row_expand_tmp_bytes(R), R < 256 ? "ceil(R / 8) * 256" : "30 * 256", (long long)R,
                             (long long)in->t[3].footprint);
    if (R == 0 || C == 0) return pc + 1;
    int64_t m0 = e == 0 ? s0->vc : C, m1 = e == 1 ? s1->vc : C;
    if (!in->b) { /* a seed op's own kernel: with the roles lowering fixed, the one for them */
        if (fixed && in->extra)
            ((KernelRowExpandSide)in->extra)(ktile(dt, dst), e ? ktile(t0, s0) : ktile(t1, s1),
                                              e ? ktile(t1, s1) : ktile(t0, s0), R, C);
        else in->k.row_expand(ktile(dt, dst), ktile(t0, s0), ktile(t1, s1), R, C, m0, m1);
        return pc + 1;
    }
    /* another member: its elementwise kernel, the expanded operand read with a zero column stride
     * (Mode 1) or again for every block of its width (Mode 2) */
    KernelElem k = in->k.elem;
    KTile d = ktile(dt, dst), src[2] = {ktile(t0, s0), ktile(t1, s1)};
    size_t es = dtype_size(dt->dtype);
    int64_t period = e < 0 ? C : e == 0 ? m0 : m1;
    if (period == 1 && C > 1 && !row_expand_overlaps(d, src[e], R, C, es))
        return row_expand_staged(ip, in, d, src, e, R, C) ? pc + 1 : PC_ERROR;
    if (period == 1) src[e] = ktile_of(src[e].p, src[e].rs, 0);
    if (e < 0 || period == 1) return k(d, src, in->ks, R, C) ? rt_error(ip, in, "element fault") : pc + 1;
    for (int64_t c0 = 0; c0 < C; c0 += period) {
        int64_t n = C - c0 < period ? C - c0 : period;
        KTile dd = d, part[2] = {src[0], src[1]};
        dd.p += (size_t)(c0 * d.cs) * es;
        part[1 - e].p += (size_t)(c0 * part[1 - e].cs) * es;
        if (k(dd, part, in->ks, R, n)) return rt_error(ip, in, "element fault");
    }
    return pc + 1;
}

/* The A2/A3 row-expand path for a col-major (Mode 1) expanded operand without tmp broadcasts it
 * through a fixed UB scratch, TMP_UB_OFFSET = 184 KiB, 8 KiB long (pto-isa a2a3
 * TRowExpandBinOp.hpp): a V write the checkers see beside the operands' valid regions. */
enum { ROW_EXPAND_SCRATCH_AT = 184 * 1024, ROW_EXPAND_SCRATCH_BYTES = 8 * 1024 };
static const Value row_expand_scratch = {.name = "the A2/A3 row-expand scratch UB[0x2e000, 0x30000)"};

static int row_expand_scratch_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    int n = 0;
    for (int i = 0; i < 2; i++) {
        const Value *v = op->ins.items[i].value;
        const TileView *tv = &ip->frame->vals[v->id].tile;
        if (!(tv->flags & VIEW_DEFINED)) return -1;
        acc[n++] = (TileWindowAccess){.value = v, .rows = tv->vr, .cols = tv->vc};
    }
    if (op->outs.count > 0) {
        const Value *d = op->outs.items[0].value;
        const TileView *tv = &ip->frame->vals[d->id].tile;
        if (!(tv->flags & VIEW_DEFINED)) return -1;
        acc[n++] = (TileWindowAccess){.value = d, .rows = tv->vr, .cols = tv->vc, .write = true};
    }
    const uint8_t *ub = ip->buf[LOC_VEC];
    if (ub && ip->buf_size[LOC_VEC] >= ROW_EXPAND_SCRATCH_AT + ROW_EXPAND_SCRATCH_BYTES)
        acc[n++] = (TileWindowAccess){.value = &row_expand_scratch, .write = true, .raw = ub + ROW_EXPAND_SCRATCH_AT,
                                      .raw_bytes = ROW_EXPAND_SCRATCH_BYTES};
    return n;
}

static bool lower_trowexpand(LowerCtx *ctx, const Op *op, bool sub, bool member) {
    TileRef dst, s0, s1;
    bool defines;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src0 and src1 operands");
    if (!tile_ref(ctx, op, &op->ins.items[0], &s0) || !tile_ref(ctx, op, &op->ins.items[1], &s1) ||
        !lower_dst(ctx, op, &dst, &defines))
        return false;
    if (!same_dtype(ctx, op, &s0, &dst, "src0") || !same_dtype(ctx, op, &s1, &dst, "src1")) return false;
    if (boxed(&s0)) return unsupported_boxed(ctx, op, &s0);
    if (boxed(&s1)) return unsupported_boxed(ctx, op, &s1);
    if (boxed(&dst)) return unsupported_boxed(ctx, op, &dst);
    /* tmp (ins[2]) never changes the result (the simulator ignores it and so does pto-run); only
     * its size is checked at run time, on A2A3, when dst's valid rows were dynamic */
    Instr in = instr_for(op, exec_trowexpand);
    if (op->ins.count >= 3 && !tile_ref(ctx, op, &op->ins.items[2], &in.t[3])) return false;
    if (member) { /* a member without a seed kernel: its elementwise kernel */
        in.k.elem = kernel_isa_table(ctx->ip->isa)->elem[op->code][dst.dtype];
        const KernelSet *ks = kernel_set(dst.dtype, ctx->ip->isa);
        if (!in.k.elem || !ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(dst.dtype));
        in.extra = (const void *)ks->broadcast_rows; /* row_expand_staged */
        if (!ctx->ip->stage) ctx->ip->stage = arena_alloc(ctx->ip->arena, STAGE_BYTES);
        in.b = 1;
    } else {
        const KernelSet *ks = kernel_set(dst.dtype, ctx->ip->isa);
        if (!ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(dst.dtype));
        in.k.row_expand = sub ? ks->trowexpandsub : ks->trowexpandmul;
    }
    in.t[0] = dst;
    in.t[1] = s0;
    in.t[2] = s1;
    in.defines_dst = defines;
    if (dst.static_vr >= 0 && dst.static_vc >= 0 && s0.static_vr >= 0 && s0.static_vc >= 0 && s1.static_vr >= 0 &&
        s1.static_vc >= 0) { /* static valid shapes: the roles once, here (Instr.a = expanded + 2) */
        const TileView vd = {.vr = dst.static_vr, .vc = dst.static_vc}, v0 = {.vr = s0.static_vr, .vc = s0.static_vc},
                       v1 = {.vr = s1.static_vr, .vc = s1.static_vc};
        const TileView *vs[2] = {&v0, &v1};
        int e;
        if (check_row_expand_roles(NULL, &in, &vd, vs, &e)) in.a = e + 2;
        const KernelSet *ks = kernel_set(dst.dtype, ctx->ip->isa);
        if (in.a >= 2 && !member) /* Mode 1 when the expanded operand is col-major, else Mode 2 */
            in.extra = (const void *)ks->rowexpand_side[sub][(e ? s1 : s0).blayout != BL_COL_MAJOR][e == 0];
    }
    if (ctx->ip->opts.target == TARGET_A2A3 && op->ins.count < 3 &&
        (s0.blayout == BL_COL_MAJOR || s1.blayout == BL_COL_MAJOR))
        in.footprint = row_expand_scratch_footprint;
    emit(ctx, &in);
    return true;
}

bool lower_trowexpandmul(LowerCtx *ctx, const Op *op) { return lower_trowexpand(ctx, op, false, false); }

bool lower_trowexpandsub(LowerCtx *ctx, const Op *op) { return lower_trowexpand(ctx, op, true, false); }

bool lower_row_expand(LowerCtx *ctx, const Op *op) { return lower_trowexpand(ctx, op, false, true); }

/* ---- alloc_tile, tassign, set_validshape ----------------------------------------------------- */

void tile_fill_from_array(const TileRef *t, const TileView *v, const DataArray *a) {
    size_t es = dtype_size(t->dtype);
    const uint8_t *src = a->data;
    for (int64_t r = 0; r < v->vr; r++)
        for (int64_t c = 0; c < v->vc; c++)
            memcpy(v->base + (size_t)tile_elem_offset(t, r, c) * es, src + (size_t)(r * v->vc + c) * es, es);
}

bool tile_to_array(const TileRef *t, const TileView *v, DataArray *out, char *err, size_t errlen) {
    if (!data_array_alloc(out, t->dtype, v->vr, v->vc, err, errlen)) return false;
    size_t es = dtype_size(t->dtype);
    uint8_t *dst = out->data;
    for (int64_t r = 0; r < v->vr; r++)
        for (int64_t c = 0; c < v->vc; c++)
            memcpy(dst + (size_t)(r * v->vc + c) * es, v->base + (size_t)tile_elem_offset(t, r, c) * es, es);
    return true;
}

/* Fills a tile's valid region from its --in data, if the tile has one and is in the entry frame. */
static bool apply_tile_input(Interp *ip, const Instr *in, const TileRef *t, const TileView *v) {
    if (ip->frame != ip->entry_frame || !ip->tile_input || !ip->tile_input[t->slot]) return true;
    const DataArray *a = ip->tile_input[t->slot];
    if (a->count != (int64_t)v->vr * v->vc) {
        rt_error(ip, in, "--in %s: the data holds %lld elements but the valid region of %%%s is %dx%d", t->name,
                 (long long)a->count, t->name, v->vr, v->vc);
        return false;
    }
    tile_fill_from_array(t, v, a);
    if (ip->init) init_checker_mark_valid(ip, ip->init, t, v);
    return true;
}

enum { ALLOC_ADDR = 1, ALLOC_VALID_ROW = 2, ALLOC_VALID_COL = 4 };

static int32_t exec_alloc_tile(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const TileRef *t = &in->t[0];
    TileView *v = &f->vals[t->slot].tile;
    if (in->a & ALLOC_ADDR) {
        int64_t addr = read_int(f, &in->sc[0]);
        if (!check_placement(ip, in, in->aux_loc, t->loc, addr, t->footprint, "alloc_tile")) return PC_ERROR;
        v->base = ip->buf[t->loc] + addr;
        v->auto_slot = -1;
        v->frame_serial = 0;
    } else if (!(v->flags & VIEW_PLACED)) {
        v->base = f->auto_mem + f->fn->auto_offset[t->auto_index];
        v->auto_slot = t->auto_index;
        v->frame_serial = f->serial;
    }
    int64_t vr = t->static_vr >= 0 ? t->static_vr : t->rows, vc = t->static_vc >= 0 ? t->static_vc : t->cols;
    if (in->a & ALLOC_VALID_ROW) vr = read_int(f, &in->sc[1]);
    if (in->a & ALLOC_VALID_COL) vc = read_int(f, &in->sc[2]);
    if (in->a & (ALLOC_VALID_ROW | ALLOC_VALID_COL)) {
        if (vr < 0 || vr > t->rows)
            return rt_error(ip, in, "valid_row %lld is outside [0, %d] for %%%s", (long long)vr, t->rows, t->name);
        if (vc < 0 || vc > t->cols)
            return rt_error(ip, in, "valid_col %lld is outside [0, %d] for %%%s", (long long)vc, t->cols, t->name);
    }
    v->vr = (int32_t)vr;
    v->vc = (int32_t)vc;
    v->flags |= VIEW_DEFINED;
    if (!apply_tile_input(ip, in, t, v)) return PC_ERROR;
    return pc + 1;
}

bool lower_alloc_tile(LowerCtx *ctx, const Op *op) {
    if (op->n_results < 1 || !op->results[0]) return lower_error(ctx, op, (SrcLoc){0}, "has no result");
    Operand res = {.kind = OPD_VALUE, .value = op->results[0], .loc = op->results[0]->loc};
    Instr in = instr_for(op, exec_alloc_tile);
    TileRef t;
    if (!tile_ref(ctx, op, &res, &t)) return false;
    const KeywordArg *addr = op_kwarg(op, "addr");
    const KeywordArg *vrow = op_kwarg(op, "valid_row"), *vcol = op_kwarg(op, "valid_col");
    if (addr && addr->list.count > 0) {
        if (!scalar_ref(ctx, op, &addr->list.items[0], DT_INDEX, &in.sc[0])) return false;
        in.aux_loc = addr->list.items[0].loc;
        in.a |= ALLOC_ADDR;
    } else {
        t.auto_index = new_auto(ctx, op, t.footprint);
        if (t.auto_index < 0) return false;
        ctx->auto_of_value[t.slot] = t.auto_index;
    }
    /* each dynamic valid dim has its operand (the verifier checks which ones a type needs) */
    if (vrow && vrow->list.count > 0) {
        if (!scalar_ref(ctx, op, &vrow->list.items[0], DT_INDEX, &in.sc[1])) return false;
        in.a |= ALLOC_VALID_ROW;
    }
    if (vcol && vcol->list.count > 0) {
        if (!scalar_ref(ctx, op, &vcol->list.items[0], DT_INDEX, &in.sc[2])) return false;
        in.a |= ALLOC_VALID_COL;
    }
    in.t[0] = t;
    emit(ctx, &in);
    return true;
}

static int32_t exec_tassign(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const TileRef *t = &in->t[0];
    int64_t addr = read_int(f, &in->sc[0]);
    if (!check_placement(ip, in, in->aux_loc, t->loc, addr, t->footprint, "tassign")) return PC_ERROR;
    TileView *v = &f->vals[t->slot].tile;
    if (in->defines_dst) { /* %t2 = pto.tassign %t, %addr : T -> T2 : a new handle on the same data layout */
        const TileRef *s = &in->t[1];
        TileView *src = &f->vals[s->slot].tile;
        if (!(src->flags & VIEW_DEFINED)) { /* a pto.declare_tile handle: its type's valid shape */
            src->vr = s->static_vr >= 0 ? s->static_vr : s->rows;
            src->vc = s->static_vc >= 0 ? s->static_vc : s->cols;
        }
        if (src->vr > t->rows || src->vc > t->cols)
            return rt_error(ip, in, "valid shape %dx%d of %%%s does not fit the result's %dx%d shape", src->vr, src->vc,
                            s->name, t->rows, t->cols);
        v->vr = src->vr;
        v->vc = src->vc;
        v->flags = VIEW_DEFINED;
    } else { /* seed form: binds the value's storage, before or after its definition */
        v->flags |= VIEW_PLACED;
    }
    v->base = ip->buf[t->loc] + addr;
    v->auto_slot = -1;
    v->frame_serial = 0;
    return pc + 1;
}

bool lower_tassign(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects a tile and an address");
    Instr in = instr_for(op, exec_tassign);
    TileRef src;
    if (!tile_ref(ctx, op, &op->ins.items[0], &src)) return false;
    const Operand *a = &op->ins.items[1];
    if (!scalar_ref(ctx, op, a, DT_INDEX, &in.sc[0])) return false;
    if (dtype_is_float(in.sc[0].type)) return lower_error(ctx, op, a->loc, "expects an integer address");
    in.aux_loc = a->loc;
    if (op->n_results >= 1 && op->results[0]) {
        Operand res = {.kind = OPD_VALUE, .value = op->results[0], .loc = op->results[0]->loc};
        if (!tile_ref(ctx, op, &res, &in.t[0])) return false;
        in.t[1] = src;
        in.defines_dst = true;
    } else {
        in.t[0] = src;
    }
    emit(ctx, &in);
    return true;
}

static int32_t exec_set_validshape(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const TileRef *t = &in->t[0];
    TileView *v = use_tile(ip, in, t);
    if (!v) return PC_ERROR;
    int64_t vr = read_int(f, &in->sc[0]), vc = read_int(f, &in->sc[1]);
    if (vr < 0 || vr > t->rows)
        return rt_error(ip, in, "valid rows %lld are outside [0, %d] for %%%s", (long long)vr, t->rows, t->name);
    if (vc < 0 || vc > t->cols)
        return rt_error(ip, in, "valid cols %lld are outside [0, %d] for %%%s", (long long)vc, t->cols, t->name);
    v->vr = (int32_t)vr;
    v->vc = (int32_t)vc;
    return pc + 1;
}

bool lower_set_validshape(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 3) return lower_error(ctx, op, (SrcLoc){0}, "expects a tile, valid rows and valid cols");
    Instr in = instr_for(op, exec_set_validshape);
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[0]) ||
        !scalar_ref(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[0]) ||
        !scalar_ref(ctx, op, &op->ins.items[2], DT_INDEX, &in.sc[1]))
        return false;
    emit(ctx, &in);
    return true;
}

/* ---- GM views ---------------------------------------------------------------------------- */

bool gm_ensure(Interp *ip, const Instr *in, int buffer, int64_t reach) {
    GmBuffer *b = &ip->gm[buffer];
    if (reach <= b->count) return true;
    if (b->fixed) {
        rt_error(ip, in, "view reaches %lld elements of %%%s, but its --in data holds only %lld", (long long)reach,
                 b->arg->name, (long long)b->count);
        return false;
    }
    int64_t bytes;
    if (!checked_mul_i64(reach, (int64_t)b->elem_size, &bytes) || bytes > INTERP_MAX_GM_BYTES) {
        rt_error(ip, in, "view on %%%s reaches %lld elements, more than pto-run allocates for one GM buffer (%lld bytes)",
                 b->arg->name, (long long)reach, (long long)INTERP_MAX_GM_BYTES);
        return false;
    }
    if (!interp_reserve_memory(ip, bytes - b->count * (int64_t)b->elem_size)) {
        rt_error(ip, in, "view on %%%s reaches %lld elements (%lld bytes), over pto-run's memory limit of %lld bytes "
                 "for GM buffers and frames", b->arg->name, (long long)reach, (long long)bytes, (long long)ip->max_memory);
        return false;
    }
    uint8_t *grown = realloc(b->data, (size_t)bytes);
    if (!grown) {
        interp_reserve_memory(ip, b->count * (int64_t)b->elem_size - bytes);
        rt_error(ip, in, "out of host memory for %lld bytes of %%%s", (long long)bytes, b->arg->name);
        return false;
    }
    memset(grown + (size_t)b->count * b->elem_size, 0, (size_t)bytes - (size_t)b->count * b->elem_size);
    b->data = grown;
    if (ip->opts.require_inputs && !b->bound) { /* the written map grows with it (zero: not written) */
        if (!interp_reserve_memory(ip, reach - b->count)) {
            rt_error(ip, in, "view on %%%s reaches %lld elements, over pto-run's memory limit of %lld bytes for GM "
                     "buffers and frames (with one byte per element recording what the run wrote)", b->arg->name,
                     (long long)reach, (long long)ip->max_memory);
            return false;
        }
        uint8_t *w = realloc(b->written, (size_t)reach);
        if (!w) {
            rt_error(ip, in, "out of host memory for %lld bytes of %%%s", (long long)reach, b->arg->name);
            return false;
        }
        memset(w + b->count, 0, (size_t)(reach - b->count));
        b->written = w;
    }
    b->count = reach;
    return true;
}

bool gm_view_each(const GmView *v, bool (*fn)(void *, int64_t), void *state) {
    int64_t idx[INTERP_MAX_RANK] = {0};
    for (int d = 0; d < v->rank; d++)
        if (v->shape[d] <= 0) return true;
    for (;;) {
        int64_t off = v->offset;
        for (int d = 0; d < v->rank; d++) off += idx[d] * v->strides[d];
        if (!fn(state, off)) return false;
        int d = v->rank - 1;
        while (d >= 0 && ++idx[d] == v->shape[d]) idx[d--] = 0;
        if (d < 0) return true;
    }
}

typedef struct WrittenScan {
    uint8_t *written;
    int64_t first_unwritten;
} WrittenScan;

static bool mark_one(void *state, int64_t i) {
    ((WrittenScan *)state)->written[i] = 1;
    return true;
}

static bool check_one(void *state, int64_t i) {
    WrittenScan *s = state;
    if (s->written[i]) return true;
    s->first_unwritten = i;
    return false;
}

void gm_mark_written(Interp *ip, const GmView *v) {
    GmBuffer *b = &ip->gm[v->buffer];
    if (!b->written) return;
    WrittenScan s = {b->written, -1};
    gm_view_each(v, mark_one, &s);
}

bool gm_check_inputs(Interp *ip, const Instr *in, const GmView *v) {
    GmBuffer *b = &ip->gm[v->buffer];
    if (!ip->opts.require_inputs || b->bound) return true;
    if (!b->written) { /* an empty buffer: a view of zero elements reads nothing */
        for (int d = 0; d < v->rank; d++)
            if (v->shape[d] == 0) return true;
    } else {
        WrittenScan s = {b->written, -1};
        if (gm_view_each(v, check_one, &s)) return true;
        rt_error(ip, in, "reads element %lld of %%%s, which has no input data and was not written before: pass --in "
                 "%s=FILE, or --zero-inputs to run on zeros", (long long)s.first_unwritten, b->arg->name, b->arg->name);
        return false;
    }
    rt_error(ip, in, "reads %%%s, which has no input data: pass --in %s=FILE, or --zero-inputs to run on zeros",
             b->arg->name, b->arg->name);
    return false;
}

/* 1 + sum (shape_i - 1) * stride_i (0 for an empty view); false on overflow. */
static bool view_reach(const GmView *v, int64_t *out) {
    int64_t reach = 1;
    for (int i = 0; i < v->rank; i++) {
        if (v->shape[i] == 0) {
            *out = 0;
            return true;
        }
    }
    for (int i = 0; i < v->rank; i++) {
        int64_t term;
        if (!checked_mul_i64(v->shape[i] - 1, v->strides[i], &term) || !checked_add_i64(reach, term, &reach))
            return false;
    }
    *out = reach;
    return true;
}

static int32_t exec_make_tensor_view(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const ViewInfo *vi = in->extra;
    GmView v;
    memset(&v, 0, sizeof v);
    v.buffer = f->vals[in->a].view.buffer; /* a pointer: buffer and element offset (pto.addptr) */
    v.offset = f->vals[in->a].view.offset;
    v.rank = vi->rank;
    if (v.buffer < 0 || v.buffer >= ip->n_gm) return rt_error(ip, in, "pointer does not name a GM buffer");
    for (int i = 0; i < vi->rank; i++) {
        v.shape[i] = read_int(f, &vi->a[i]);
        v.strides[i] = read_int(f, &vi->b[i]);
        if (v.shape[i] < 0) return rt_error(ip, in, "shape[%d] = %lld is negative", i, (long long)v.shape[i]);
        if (v.strides[i] < 0) return rt_error(ip, in, "strides[%d] = %lld is negative", i, (long long)v.strides[i]);
        if (vi->static_dims[i] != DIM_DYNAMIC && vi->static_dims[i] != v.shape[i])
            return rt_error(ip, in, "shape[%d] = %lld differs from the result type's %lld", i, (long long)v.shape[i],
                            (long long)vi->static_dims[i]);
    }
    int64_t reach;
    if (!view_reach(&v, &reach) || (reach > 0 && !checked_add_i64(reach, v.offset, &reach)))
        return rt_error(ip, in, "view reach overflows 64 bits");
    if (!gm_ensure(ip, in, v.buffer, reach)) return PC_ERROR;
    GmBuffer *b = &ip->gm[v.buffer];
    if (b->shape_rank == 0 && reach > 0) { /* remember the first row-major contiguous view as the buffer shape */
        /* row-major and dense: each stride is the product of the inner extents; a dimension of
         * extent 1 never steps, so its stride does not matter (PTOAS writes any value there) */
        bool contiguous = true;
        int64_t inner = 1;
        for (int i = v.rank - 1; i >= 0 && contiguous; i--) {
            if (v.shape[i] != 1 && v.strides[i] != inner) contiguous = false;
            else if (!checked_mul_i64(inner, v.shape[i], &inner)) contiguous = false;
        }
        if (contiguous) {
            b->shape_rank = v.rank;
            memcpy(b->shape, v.shape, sizeof v.shape);
        }
    }
    f->vals[in->dst_slot].view = v;
    return pc + 1;
}

/* Reads the operand lists of a keyword group into ScalarRefs. */
static bool lower_index_list(LowerCtx *ctx, const Op *op, const char *key, int rank, ScalarRef *out) {
    const KeywordArg *kw = op_kwarg(op, key);
    int n = kw ? kw->list.count : 0;
    if (n != rank)
        return lower_error(ctx, op, kw ? kw->loc : (SrcLoc){0}, "expects %d '%s' operands (the view's rank), got %d",
                           rank, key, n);
    for (int i = 0; i < n; i++)
        if (!scalar_ref(ctx, op, &kw->list.items[i], DT_INDEX, &out[i])) return false;
    return true;
}

static const Type *view_result(LowerCtx *ctx, const Op *op, TypeKind kind, int32_t *slot) {
    if (op->n_results < 1 || !op->results[0] || op->results[0]->id >= ctx->func->n_values) {
        lower_error(ctx, op, (SrcLoc){0}, "has no result");
        return NULL;
    }
    const Type *t = op->results[0]->type;
    if (!t || t->kind != kind) {
        lower_error(ctx, op, (SrcLoc){0}, "result must be a %s", kind == TY_TENSOR_VIEW ? "!pto.tensor_view" : "!pto.partition_tensor_view");
        return NULL;
    }
    if (t->rank < 1 || t->rank > INTERP_MAX_RANK) {
        lower_error(ctx, op, (SrcLoc){0}, "views of rank %d cannot be executed (1..%d)", t->rank, INTERP_MAX_RANK);
        return NULL;
    }
    *slot = (int32_t)op->results[0]->id;
    return t;
}

bool lower_make_tensor_view(LowerCtx *ctx, const Op *op) {
    int32_t slot;
    const Type *rt = view_result(ctx, op, TY_TENSOR_VIEW, &slot);
    if (!rt) return false;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a pointer operand");
    int32_t ptr = value_slot(ctx, op, &op->ins.items[0]);
    if (ptr < 0) return false;
    const Type *pt = op->ins.items[0].value->type;
    if (!pt || pt->kind != TY_PTR) return lower_error(ctx, op, op->ins.items[0].loc, "expects a !pto.ptr operand");
    if (dtype_size(pt->dtype) != dtype_size(rt->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "view element type %s does not match the pointer's %s",
                           dtype_name(rt->dtype), dtype_name(pt->dtype));
    ViewInfo *vi = arena_alloc(ctx->ip->arena, sizeof *vi);
    vi->rank = rt->rank;
    if (!lower_index_list(ctx, op, "shape", rt->rank, vi->a) || !lower_index_list(ctx, op, "strides", rt->rank, vi->b))
        return false;
    for (int i = 0; i < rt->rank; i++) vi->static_dims[i] = rt->dims[i];
    Instr in = instr_for(op, exec_make_tensor_view);
    in.a = ptr;
    in.dst_slot = slot;
    in.extra = vi;
    emit(ctx, &in);
    return true;
}

static int32_t exec_partition_view(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const ViewInfo *vi = in->extra;
    const GmView *src = &f->vals[in->a].view;
    GmView v = *src;
    if (src->rank != vi->rank)
        return rt_error(ip, in, "source view has rank %d but %d offsets are given", src->rank, vi->rank);
    int64_t offset = src->offset;
    for (int i = 0; i < vi->rank; i++) {
        int64_t off = read_int(f, &vi->a[i]), size = read_int(f, &vi->b[i]), end, term;
        if (off < 0) return rt_error(ip, in, "offsets[%d] = %lld is negative", i, (long long)off);
        if (size < 0) return rt_error(ip, in, "sizes[%d] = %lld is negative", i, (long long)size);
        if (!checked_add_i64(off, size, &end) || end > src->shape[i])
            return rt_error(ip, in, "offsets[%d] + sizes[%d] = %lld + %lld exceeds the source dimension %lld", i, i,
                            (long long)off, (long long)size, (long long)src->shape[i]);
        if (vi->static_dims[i] != DIM_DYNAMIC && vi->static_dims[i] != size)
            return rt_error(ip, in, "sizes[%d] = %lld differs from the result type's %lld", i, (long long)size,
                            (long long)vi->static_dims[i]);
        if (size > 0 && (!checked_mul_i64(off, src->strides[i], &term) || !checked_add_i64(offset, term, &offset)))
            return rt_error(ip, in, "view offset overflows 64 bits");
        v.shape[i] = size;
    }
    v.offset = offset;
    f->vals[in->dst_slot].view = v;
    return pc + 1;
}

bool lower_partition_view(LowerCtx *ctx, const Op *op) {
    int32_t slot;
    const Type *rt = view_result(ctx, op, TY_PARTITION_VIEW, &slot);
    if (!rt) return false;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a source view");
    int32_t src = value_slot(ctx, op, &op->ins.items[0]);
    if (src < 0) return false;
    const Type *st = op->ins.items[0].value->type;
    if (!st || (st->kind != TY_TENSOR_VIEW && st->kind != TY_PARTITION_VIEW) || st->rank != rt->rank)
        return lower_error(ctx, op, op->ins.items[0].loc, "expects a source view of rank %d", rt->rank);
    ViewInfo *vi = arena_alloc(ctx->ip->arena, sizeof *vi);
    vi->rank = rt->rank;
    if (!lower_index_list(ctx, op, "offsets", rt->rank, vi->a) || !lower_index_list(ctx, op, "sizes", rt->rank, vi->b))
        return false;
    for (int i = 0; i < rt->rank; i++) vi->static_dims[i] = rt->dims[i];
    Instr in = instr_for(op, exec_partition_view);
    in.a = src;
    in.dst_slot = slot;
    in.extra = vi;
    emit(ctx, &in);
    return true;
}

/* ---- tload / tstore / tprint ------------------------------------------------------------------ */

/* How a tile's (row, col) map onto a view's dimensions. ND (row-major tiles): the column is the last
 * dimension and the row runs over the others (the second-to-last fastest). DN (col-major tiles): the
 * row is the second-to-last dimension and the column runs over the last, then the leading ones. */
typedef struct ViewMap {
    int row_dims[INTERP_MAX_RANK], n_row;   /* fastest first */
    int col_dims[INTERP_MAX_RANK], n_col;
    int64_t rows, cols;                     /* logical extents */
} ViewMap;

static void view_map(const GmView *v, bool nd, ViewMap *m) {
    m->n_row = m->n_col = 0;
    int r = v->rank;
    if (nd) {
        m->col_dims[m->n_col++] = r - 1;
        for (int i = r - 2; i >= 0; i--) m->row_dims[m->n_row++] = i;
    } else if (r == 1) {
        m->row_dims[m->n_row++] = 0;
    } else {
        m->row_dims[m->n_row++] = r - 2;
        m->col_dims[m->n_col++] = r - 1;
        for (int i = r - 3; i >= 0; i--) m->col_dims[m->n_col++] = i;
    }
    m->rows = 1;
    m->cols = 1;
    /* stride-0 dimensions allow huge shapes with a small reach: an overflowing extent is -1,
     * which matches no tile */
    for (int i = 0; i < m->n_row && m->rows >= 0; i++)
        if (!checked_mul_i64(m->rows, v->shape[m->row_dims[i]], &m->rows)) m->rows = -1;
    for (int i = 0; i < m->n_col && m->cols >= 0; i++)
        if (!checked_mul_i64(m->cols, v->shape[m->col_dims[i]], &m->cols)) m->cols = -1;
}

/* Element offset (from the view's start) of logical index `k` along an axis made of `dims`. */
static int64_t axis_offset(const GmView *v, const int *dims, int n, int64_t k) {
    if (n == 1 && k < v->shape[dims[0]]) return k * v->strides[dims[0]]; /* one dimension: no division */
    int64_t off = 0;
    for (int i = 0; i < n && k > 0; i++) {
        int64_t d = v->shape[dims[i]];
        off += (k % d) * v->strides[dims[i]];
        k /= d;
    }
    return off;
}

/* GM element `g` += tile element `t` in element type `dt`, as the CPU simulator's TSTORE with
 * AtomicAdd does (`dst[i] += value` in the GM type): floats rounded once to their type (f16/bf16
 * through f32, to nearest even), integers wrapping. */
static void atomic_add_elem(uint8_t *g, const uint8_t *t, DType dt) {
    switch (dt) {
    case DT_F32: {
        float a, b;
        memcpy(&a, g, 4);
        memcpy(&b, t, 4);
        a = a + b;
        memcpy(g, &a, 4);
        return;
    }
    case DT_F16:
    case DT_BF16: {
        uint16_t a, b;
        memcpy(&a, g, 2);
        memcpy(&b, t, 2);
        a = dt == DT_F16 ? f32_to_f16_bits(f16_bits_to_f32(a) + f16_bits_to_f32(b))
                         : f32_to_bf16_bits(bf16_bits_to_f32(a) + bf16_bits_to_f32(b));
        memcpy(g, &a, 2);
        return;
    }
    default: { /* integers: add modulo 2^width (little-endian bytes) */
        size_t es = dtype_size(dt);
        uint64_t a = 0, b = 0;
        memcpy(&a, g, es);
        memcpy(&b, t, es);
        a += b;
        memcpy(g, &a, es);
        return;
    }
    }
}

/* Stores (atomic: adds) one tile element into GM. */
static inline void store_elem(uint8_t *ge, const uint8_t *te, size_t es, DType atomic) {
    if (atomic != DT_NONE) atomic_add_elem(ge, te, atomic);
    else memcpy(ge, te, es);
}

/* Whether the view's rows (ND: the row dimensions of `m`) follow each other in GM with no gap, rows
 * of `cols` elements: row r then starts at element r * cols. */
static bool rows_packed(const GmView *v, const ViewMap *m, int64_t cols) {
    int64_t step = cols;
    for (int i = 0; i < m->n_row; i++) {
        int d = m->row_dims[i];
        if (v->shape[d] != 1 && v->strides[d] != step) return false;
        step *= v->shape[d];
    }
    return true;
}

/* Copies a boxed tile's R x C region from (to_tile) or to GM a contiguous run of the tile at a
 * time, line by line: GM rows against box rows (by_rows, ND views) or GM columns against box columns
 * (DN views, whose rows are contiguous in GM). */
static void boxed_line_copy(uint8_t *gm, const GmView *v, const ViewMap *m, const TileOffsets *off, uint8_t *tile,
                            int64_t R, int64_t C, size_t es, bool by_rows, bool to_tile) {
    const int64_t lines = by_rows ? R : C, len = by_rows ? C : R;
    const int64_t *line_off = by_rows ? off->rows : off->cols, *elem_off = by_rows ? off->cols : off->rows;
    const int32_t *run = by_rows ? off->col_run : off->row_run;
    for (int64_t l = 0; l < lines; l++) {
        uint8_t *g = gm + (size_t)axis_offset(v, by_rows ? m->row_dims : m->col_dims, by_rows ? m->n_row : m->n_col, l) * es;
        uint8_t *t = tile + (size_t)line_off[l] * es;
        for (int64_t i = 0; i < len;) {
            int64_t n = min_i64(run[i], len - i);
            if (to_tile) copy_run(t + (size_t)elem_off[i] * es, g + (size_t)i * es, (size_t)n * es);
            else copy_run(g + (size_t)i * es, t + (size_t)elem_off[i] * es, (size_t)n * es);
            i += n;
        }
    }
}

/* Copies a tile's valid region from (to_tile) or to the GM view; rows x cols = the valid region.
 * `atomic` (tstore only): DT_NONE to overwrite, else the element type in which GM += tile. */
static void gm_tile_copy(GmBuffer *b, const GmView *v, const ViewMap *m, const TileRef *t, const TileView *tv,
                         bool to_tile, bool nd, DType atomic, const TileOffsets *off) {
    size_t es = b->elem_size;
    int64_t R = tv->vr, C = tv->vc;
    if (R == 0 || C == 0) return;
    uint8_t *gm = b->data + (size_t)v->offset * es;
    if (off && to_tile && nd && v->strides[v->rank - 1] == 1) { /* ND -> a boxed tile: a box row at a time */
        enum { AHEAD = 64 }; /* GM rows are far apart (often a page or more): fetch a few rows ahead */
        size_t row_bytes = (size_t)C * es;
        for (int64_t r = 0; r < R; r++) {
            const uint8_t *grow = gm + (size_t)axis_offset(v, m->row_dims, m->n_row, r) * es;
            if (r + AHEAD < R) {
                const uint8_t *next = gm + (size_t)axis_offset(v, m->row_dims, m->n_row, r + AHEAD) * es;
                for (size_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(next + b);
            }
            uint8_t *trow = tv->base + (size_t)off->rows[r] * es;
            for (int64_t c = 0; c < C;) {
                int64_t n = min_i64(off->col_run[c], C - c);
                copy_run(trow + (size_t)off->cols[c] * es, grow + (size_t)c * es, (size_t)n * es);
                c += n;
            }
        }
        return;
    }
    if (off && atomic == DT_NONE && (nd ? !to_tile && v->strides[v->rank - 1] == 1 : v->strides[m->row_dims[0]] == 1)) {
        boxed_line_copy(gm, v, m, off, tv->base, R, C, es, nd, to_tile); /* ND <- tile, DN <-> tile */
        return;
    }
    if (off) { /* a boxed (fractal) tile: element by element, through its offset tables */
        for (int64_t r = 0; r < R; r++) {
            int64_t g_r = nd ? axis_offset(v, m->row_dims, m->n_row, r) : r * v->strides[m->row_dims[0]];
            uint8_t *trow = tv->base + (size_t)off->rows[r] * es;
            for (int64_t c = 0; c < C; c++) {
                int64_t g_c = nd ? c * v->strides[v->rank - 1] : axis_offset(v, m->col_dims, m->n_col, c);
                uint8_t *ge = gm + (size_t)(g_r + g_c) * es, *te = trow + (size_t)off->cols[c] * es;
                if (to_tile) memcpy(te, ge, es);
                else store_elem(ge, te, es, atomic);
            }
        }
        return;
    }
    if (nd) {
        int64_t cstride = v->strides[v->rank - 1];
        if (cstride == 1 && t->cs == 1 && t->rs == C && atomic == DT_NONE && rows_packed(v, m, C)) {
            size_t bytes = (size_t)(R * C) * es; /* both sides one run: a small tile costs one copy */
            if (to_tile) memcpy(tv->base, gm, bytes);
            else memcpy(gm, tv->base, bytes);
            return;
        }
        for (int64_t r = 0; r < R; r++) {
            uint8_t *g = gm + (size_t)axis_offset(v, m->row_dims, m->n_row, r) * es;
            uint8_t *tp = tv->base + (size_t)(r * t->rs) * es;
            if (cstride == 1 && t->cs == 1 && atomic == DT_NONE) {
                if (to_tile) memcpy(tp, g, (size_t)C * es);
                else memcpy(g, tp, (size_t)C * es);
                continue;
            }
            for (int64_t c = 0; c < C; c++) {
                uint8_t *ge = g + (size_t)(c * cstride) * es, *te = tp + (size_t)(c * t->cs) * es;
                if (to_tile) memcpy(te, ge, es);
                else store_elem(ge, te, es, atomic);
            }
        }
    } else {
        int64_t rstride = v->strides[m->row_dims[0]];
        for (int64_t c = 0; c < C; c++) {
            uint8_t *g = gm + (size_t)axis_offset(v, m->col_dims, m->n_col, c) * es;
            uint8_t *tp = tv->base + (size_t)(c * t->cs) * es;
            if (rstride == 1 && t->rs == 1 && atomic == DT_NONE) {
                if (to_tile) memcpy(tp, g, (size_t)R * es);
                else memcpy(g, tp, (size_t)R * es);
                continue;
            }
            for (int64_t r = 0; r < R; r++) {
                uint8_t *ge = g + (size_t)(r * rstride) * es, *te = tp + (size_t)(r * t->rs) * es;
                if (to_tile) memcpy(te, ge, es);
                else store_elem(ge, te, es, atomic);
            }
        }
    }
}

/* Whether a tile meets GM as ND (rows along the view's leading dimensions, columns along the last):
 * a row-major tile; a boxed tile whose boxes are row-major (Nz, Zz: loaded from ND; Zn from DN). */
static bool gm_nd(const TileRef *t) {
    return boxed(t) ? !t->box_col : t->blayout == BL_ROW_MAJOR;
}

/* The pad value's bytes for element type dt: 1 zero, 2 max (+inf for floats), 3 min (-inf for
 * floats, numeric_limits<T>::min() for integers: 0 for unsigned ones); 0 for the 8-bit floats
 * whatever the kind (pto-isa's MXType has no numeric_limits: no infinity, max() = min() = 0). */
uint64_t pad_value_bits(DType dt, int pad) {
    if (pad != 2 && pad != 3) return 0;
    bool max = pad == 2;
    switch (dt) {
    case DT_F32: return max ? 0x7f800000u : 0xff800000u;
    case DT_F16: return max ? 0x7c00u : 0xfc00u;
    case DT_BF16: return max ? 0x7f80u : 0xff80u;
    case DT_I8: return max ? 0x7fu : 0x80u;
    case DT_I16: return max ? 0x7fffu : 0x8000u;
    case DT_I32: return max ? 0x7fffffffu : 0x80000000u;
    case DT_U8: return max ? 0xffu : 0;
    case DT_U16: return max ? 0xffffu : 0;
    case DT_U32: return max ? 0xffffffffu : 0;
    default: return 0;
    }
}

/* Fills a whole tile footprint with its pad value (TLOAD: zero for pad = null or zero, as the
 * simulator's TLoad does; the hardware leaves a null pad's bytes as they were, which
 * --check-init reports when read). */
static void fill_pad(const Interp *ip, const TileRef *t, const TileView *v) {
    uint64_t bits = pad_value_bits(t->dtype, t->pad);
    KScalar k = {0.0f, bits};
    if (t->dtype == DT_F32) memcpy(&k.f, &bits, sizeof k.f);
    else if (t->dtype == DT_F16) k.f = f16_bits_to_f32((uint16_t)bits);
    else if (t->dtype == DT_BF16) k.f = bf16_bits_to_f32((uint16_t)bits);
    const KernelSet *ks = kernel_set(t->dtype, ip->isa);
    if (ks) ks->fill(ktile(t, v), k, t->rows, t->cols);
}

static int32_t exec_tload(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const TileRef *t = &in->t[0];
    const GmView *v = &f->vals[in->a].view;
    ViewMap m;
    view_map(v, gm_nd(t), &m);
    if (in->defines_dst && !define_tile(ip, in, t, m.rows, m.cols)) return PC_ERROR;
    TileView *tv = use_tile(ip, in, t);
    if (!tv) return PC_ERROR;
    if (m.rows != tv->vr || m.cols != tv->vc)
        return rt_error(ip, in, "expects the view's %lldx%lld elements to match dst %%%s's valid shape %dx%d",
                        (long long)m.rows, (long long)m.cols, t->name, tv->vr, tv->vc);
    if (!gm_check_inputs(ip, in, v)) return PC_ERROR;
    if (tv->vr < t->rows || tv->vc < t->cols) fill_pad(ip, t, tv); /* the copy writes the rest */
    gm_tile_copy(&ip->gm[v->buffer], v, &m, t, tv, true, gm_nd(t), DT_NONE, in->extra);
    return pc + 1;
}

bool lower_tload(LowerCtx *ctx, const Op *op) {
    TileRef dst;
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a source view");
    int32_t src = value_slot(ctx, op, &op->ins.items[0]);
    if (src < 0 || !lower_dst(ctx, op, &dst, &defines)) return false;
    const Type *vt = op->ins.items[0].value->type;
    if (!vt || (vt->kind != TY_PARTITION_VIEW && vt->kind != TY_TENSOR_VIEW))
        return lower_error(ctx, op, op->ins.items[0].loc, "expects a partition view operand");
    if (dtype_size(vt->dtype) != dtype_size(dst.dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src (%s) and dst (%s) elements of the same size",
                           dtype_name(vt->dtype), dtype_name(dst.dtype));
    Instr in = instr_for(op, exec_tload);
    if (boxed(&dst)) { /* Instr.extra: the tile's offset tables */
        TileOffsets *off = arena_alloc(ctx->ip->arena, sizeof *off);
        tile_offsets(ctx->ip->arena, &dst, off);
        in.extra = off;
    }
    in.t[0] = dst;
    in.a = src;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* TPREFETCH as the simulator's TPrefetch_Impl: over dst's valid region, storage element r * Cols + c
 * of dst = GM element r * Cols + c from the view's first one (dst's own row stride on both sides:
 * the view's strides and shape are not read; dst's layout is not looked at; no pad fill). An element
 * outside the GM buffer is a run-time error. Instr: t[0] dst; a: the view's slot. */
static int32_t exec_tprefetch(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *t = &in->t[0];
    TileView *tv = use_tile(ip, in, t);
    if (!tv) return PC_ERROR;
    if (tv->vr == 0 || tv->vc == 0) return pc + 1;
    const GmView *v = &ip->frame->vals[in->a].view;
    GmBuffer *b = &ip->gm[v->buffer];
    const int64_t cols = t->cols, reach = v->offset + (int64_t)(tv->vr - 1) * cols + tv->vc;
    if (v->offset < 0 || reach > b->count)
        return rt_error(ip, in, "reads elements %lld to %lld of %%%s (row r of dst from element r * %lld, dst's row stride, "
                        "as the simulator's TPREFETCH does), outside its %lld elements",
                        (long long)v->offset, (long long)reach - 1, b->arg->name, (long long)cols, (long long)b->count);
    const size_t es = b->elem_size;
    if (ip->opts.require_inputs && !b->bound)
        for (int64_t r = 0; r < tv->vr; r++)
            for (int64_t c = 0; c < tv->vc; c++) {
                int64_t at = v->offset + r * cols + c;
                if (!b->written || !b->written[at])
                    return rt_error(ip, in, "reads element %lld of %%%s, which has no input data and was not written "
                                    "before: pass --in %s=FILE, or --zero-inputs to run on zeros",
                                    (long long)at, b->arg->name, b->arg->name);
            }
    for (int64_t r = 0; r < tv->vr; r++)
        memcpy(tv->base + (size_t)(r * cols) * es, b->data + (size_t)(v->offset + r * cols) * es, (size_t)tv->vc * es);
    return pc + 1;
}

/* One row run per valid row at element r * Cols, in GM (`gm`) or in dst. */
static void prefetch_runs(const Interp *ip, const Instr *in, bool gm, TileRunFn fn, void *ctx) {
    const TileRef *t = &in->t[0];
    const TileView *tv = &ip->frame->vals[t->slot].tile;
    if (!tv->base || !(tv->flags & VIEW_DEFINED)) return;
    const GmView *v = &ip->frame->vals[in->a].view;
    if (v->buffer < 0 || v->buffer >= ip->n_gm) return;
    const GmBuffer *b = &ip->gm[v->buffer];
    const int64_t cols = t->cols;
    if (gm && (!b->data || v->offset < 0 || v->offset + (int64_t)(tv->vr - 1) * cols + tv->vc > b->count)) return;
    const size_t es = b->elem_size;
    const uint8_t *base = gm ? b->data + (size_t)v->offset * es : tv->base;
    if (tv->vc == cols) { /* whole rows: one run */
        if (tv->vr > 0) fn(ctx, base, (int64_t)tv->vr * cols * (int64_t)es);
        return;
    }
    for (int64_t r = 0; r < tv->vr; r++)
        if (!fn(ctx, base + (size_t)(r * cols) * es, (int64_t)tv->vc * (int64_t)es)) return;
}

static void prefetch_gm_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) { prefetch_runs(ip, in, true, fn, ctx); }
static void prefetch_dst_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) { prefetch_runs(ip, in, false, fn, ctx); }

/* tprefetch: reads the GM rows it copies, writes the same storage offsets of dst. */
static int tprefetch_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    if (!defined_view(ip, op->outs.items[0].value)) return -1;
    acc[0] = (TileWindowAccess){.value = op->ins.items[0].value, .write = false, .walk = prefetch_gm_walk};
    acc[1] = (TileWindowAccess){.value = op->outs.items[0].value, .write = true, .walk = prefetch_dst_walk};
    return 2;
}

bool lower_tprefetch(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 1 || op->outs.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a source view and a dst tile");
    Instr in = instr_for(op, exec_tprefetch);
    if (!tile_ref(ctx, op, &op->outs.items[0], &in.t[0])) return false;
    in.a = value_slot(ctx, op, &op->ins.items[0]);
    if (in.a < 0) return false;
    const Type *vt = op->ins.items[0].value->type;
    if (!vt || (vt->kind != TY_PARTITION_VIEW && vt->kind != TY_TENSOR_VIEW))
        return lower_error(ctx, op, op->ins.items[0].loc, "expects a partition view operand");
    if (dtype_size(vt->dtype) != dtype_size(in.t[0].dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src (%s) and dst (%s) elements of the same size",
                           dtype_name(vt->dtype), dtype_name(in.t[0].dtype));
    in.footprint = tprefetch_footprint;
    emit(ctx, &in);
    return true;
}

/* What lowering decided for a TSTORE (Instr.extra; NULL for a plain none_box store): the tile's
 * offset tables (boxed tiles), and for a store from acc that converts, applies relu or quantises
 * the simulator's TStoreAcc through ConvertStoreValue (acc_quant.c): relu `(v > 0) ? v : 0` then a
 * C++ cast (-0 and NaN become +0), or with preQuantScalar (Instr.sc[0]) the quantisation its mode
 * (GetScalarPreQuantMode) computes. */
typedef struct StorePlan {
    TileOffsets off;
    bool boxed;
    bool cast;
    AccConvert cv;
    bool quant;              /* a preQuantScalar word in sc[0] */
    bool fp;                 /* tstore_fp: a word per element from the fp tile (t[1]) */
    bool by_row;             /* fp: the word of the element's row (the simulator's index for a
                              * col-major tile, `scalars[isRowMajor ? col : row]`), else its column */
    TileOffsets fpoff;       /* fp: the fp tile's offsets */
    AccQuantWord *words;     /* fp: the decoded words, fp's cols of them */
    uint8_t *row, *out;      /* cast: one row of acc values, and the same in the GM type */
} StorePlan;

/* The valid region of an acc tile into the GM view (ND), a row at a time through StorePlan. */
static void acc_store_copy(GmBuffer *b, const GmView *v, const ViewMap *m, const TileView *tv, const StorePlan *p,
                           const AccQuantWord *q, DType atomic) {
    size_t es = b->elem_size;
    int64_t cs = v->strides[v->rank - 1];
    uint8_t *gm = b->data + (size_t)v->offset * es;
    for (int64_t r = 0; r < tv->vr; r++) {
        const uint8_t *trow = tv->base + (size_t)p->off.rows[r] * 4;
        for (int64_t c = 0; c < tv->vc;) { /* the row's values, a contiguous run (a box row) at a time */
            int64_t n = min_i64(p->off.col_run[c], tv->vc - c);
            memcpy(p->row + (size_t)c * 4, trow + (size_t)p->off.cols[c] * 4, (size_t)n * 4);
            c += n;
        }
        if (p->fp) acc_convert_run(&p->cv, p->by_row ? &q[r] : q, p->by_row ? 0 : 1, p->out, p->row, tv->vc);
        else acc_convert_run(&p->cv, q, 0, p->out, p->row, tv->vc);
        uint8_t *g = gm + (size_t)axis_offset(v, m->row_dims, m->n_row, r) * es;
        if (cs == 1 && atomic == DT_NONE) memcpy(g, p->out, (size_t)tv->vc * es);
        else
            for (int64_t c = 0; c < tv->vc; c++) store_elem(g + (size_t)(c * cs) * es, p->out + (size_t)c * es, es, atomic);
    }
}

static int32_t exec_tstore(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const TileRef *t = &in->t[0];
    const GmView *v = &f->vals[in->a].view;
    TileView *tv = use_tile(ip, in, t);
    if (!tv) return PC_ERROR;
    ViewMap m;
    view_map(v, gm_nd(t), &m);
    if (m.rows != tv->vr || m.cols != tv->vc)
        return rt_error(ip, in, "expects the view's %lldx%lld elements to match src %%%s's valid shape %dx%d",
                        (long long)m.rows, (long long)m.cols, t->name, tv->vr, tv->vc);
    const StorePlan *p = in->extra;
    if ((DType)in->b != DT_NONE && !gm_check_inputs(ip, in, v)) return PC_ERROR; /* atomic add reads GM */
    if (ip->gm[v->buffer].written) gm_mark_written(ip, v);
    if (p && p->fp) { /* the words of fp's valid columns */
        TileView *fv = use_tile(ip, in, &in->t[1]);
        if (!fv) return PC_ERROR;
        int64_t need = p->by_row ? tv->vr : tv->vc;
        if (need > fv->vc)
            return rt_rule_error(ip, in, "fp-words", "expects fp %%%s to hold a word for each %s of src (%lld), got %d valid "
                                 "columns (the simulator's TSTORE_FP indexes its words by the %s of a %s src)", in->t[1].name,
                                 p->by_row ? "row" : "column", (long long)need, fv->vc, p->by_row ? "row" : "column",
                                 p->by_row ? "col-major" : "row-major");
        for (int64_t i = 0; i < need; i++) {
            uint64_t w;
            if (!acc_fp_word(fv->base, p->fpoff.rows[0] + p->fpoff.cols[i], in->t[1].dtype, &w))
                return rt_rule_error(ip, in, "fp-word", "expects fp %%%s's %s value in column %lld to convert to a uint64 "
                                     "quantisation word (the simulator's cast is undefined outside (-1, 2^64))",
                                     in->t[1].name, dtype_name(in->t[1].dtype), (long long)i);
            acc_quant_word(&p->cv, w, &p->words[i]);
        }
        acc_store_copy(&ip->gm[v->buffer], v, &m, tv, p, p->words, (DType)in->b);
    } else if (p && p->cast) {
        AccQuantWord q = {0};
        if (p->quant) acc_quant_word(&p->cv, (uint64_t)read_int(f, &in->sc[0]), &q);
        acc_store_copy(&ip->gm[v->buffer], v, &m, tv, p, &q, (DType)in->b);
    }
    else gm_tile_copy(&ip->gm[v->buffer], v, &m, t, tv, false, gm_nd(t), (DType)in->b, p && p->boxed ? &p->off : NULL);
    return pc + 1;
}

bool lower_tstore(LowerCtx *ctx, const Op *op) {
    TileRef src;
    if (op->ins.count < 1 || op->outs.count < 1)
        return lower_error(ctx, op, (SrcLoc){0}, "expects a source tile and a destination view");
    if (!tile_ref(ctx, op, &op->ins.items[0], &src)) return false;
    int32_t dst = value_slot(ctx, op, &op->outs.items[0]);
    if (dst < 0) return false;
    const Type *vt = op->outs.items[0].value->type;
    if (!vt || (vt->kind != TY_PARTITION_VIEW && vt->kind != TY_TENSOR_VIEW))
        return lower_error(ctx, op, op->outs.items[0].loc, "expects a partition view destination");
    bool relu = op_attr_value(op, "reluPreMode", AK_RELU_PRE_MODE, 0) == 1;
    const Attr *atomic = attr_find(&op->attrs, "atomicType");
    int64_t mode = 0;
    if (atomic && !attr_value(atomic, AK_ATOMIC, &mode))
        return lower_error(ctx, op, atomic->loc, "expects atomicType %s", attr_kind_text(AK_ATOMIC));
    Instr in = instr_for(op, exec_tstore);
    const OpInfo *info = op_info(op->code);
    bool fp = op->ins.count > 1 && (info->ins[1].kinds & K_TILE); /* tstore_fp's scaling tile */
    bool quant = op->ins.count > 1 && !fp;
    if (fp) {
        if (!tile_ref(ctx, op, &op->ins.items[1], &in.t[1])) return false;
        if (src.loc != LOC_ACC) return lower_error(ctx, op, (SrcLoc){0}, "expects an acc src");
        DType fdt = in.t[1].dtype;
        if (fdt != DT_U64 && fdt != DT_I64 && fdt != DT_F32 && fdt != DT_F16 && fdt != DT_BF16)
            return emit_unsupported(ctx, op, "reads its quantisation words from fp %%%s of %s: pto-run takes them from "
                                    "u64/i64 tiles (bits) and f32/f16/bf16 tiles (values)", in.t[1].name, dtype_name(fdt));
    }
    if (quant && src.loc != LOC_ACC) return lower_error(ctx, op, (SrcLoc){0}, "expects preQuantScalar only with an acc src");
    if (quant) {
        if (!scalar_ref(ctx, op, &op->ins.items[1], DT_I64, &in.sc[0])) return false;
        if (dtype_is_float(in.sc[0].type))
            return lower_error(ctx, op, op->ins.items[1].loc, "expects an i64 preQuantScalar word");
    }
    /* the acc store's cast, relu and quantisation */
    bool cast = src.loc == LOC_ACC && (relu || quant || fp || vt->dtype != src.dtype);
    AccConvert cv = {0};
    if (cast && !acc_convert_plan(&cv, src.dtype, vt->dtype, fp ? AQF_VECTOR : quant ? AQF_SCALAR : AQF_NONE, relu))
        return emit_unsupported(ctx, op, "stores acc %s into %s GM%s: pto-run casts acc f32 to f32/f16/bf16 and i32 to "
                                "i32/bf16 (with an fp tile also f32 to fp8), and quantises f32 to i8/ui8/f16/bf16 and "
                                "i32 to i8/ui8/f16/i16",
                                dtype_name(src.dtype), dtype_name(vt->dtype), quant ? " with preQuantScalar" : "");
    if (!cast && dtype_size(vt->dtype) != dtype_size(src.dtype)) {
        return lower_error(ctx, op, (SrcLoc){0}, "expects src (%s) and dst (%s) elements of the same size",
                           dtype_name(src.dtype), dtype_name(vt->dtype));
    } else if (!cast && relu) {
        return emit_unsupported(ctx, op, "reluPreMode applies to stores from acc tiles only");
    }
    if (cast || boxed(&src)) {
        StorePlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
        tile_offsets(ctx->ip->arena, &src, &p->off);
        p->boxed = boxed(&src);
        p->cast = cast;
        p->cv = cv;
        p->quant = quant;
        p->fp = fp;
        if (fp) {
            p->by_row = src.blayout != BL_ROW_MAJOR;
            tile_offsets(ctx->ip->arena, &in.t[1], &p->fpoff);
            p->words = arena_alloc_array(ctx->ip->arena, (size_t)(in.t[1].cols > src.rows ? in.t[1].cols : src.rows),
                                         sizeof *p->words);
        }
        if (cast) {
            p->row = arena_alloc_array(ctx->ip->arena, (size_t)src.cols, 4);
            p->out = arena_alloc_array(ctx->ip->arena, (size_t)src.cols, 4);
        }
        in.extra = p;
    }
    in.t[0] = src;
    in.a = dst;
    in.b = mode == 1 ? (int32_t)vt->dtype : (int32_t)DT_NONE; /* atomic_add: GM += tile in the GM type */
    emit(ctx, &in);
    return true;
}

static void print_row_sep(FILE *out, int64_t c) {
    if (c) fputc(' ', out);
}

static int32_t exec_tprint(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    FILE *out = ip->out;
    char buf[48];
    if (in->b) { /* a GM view, printed with the ND mapping */
        const GmView *v = &f->vals[in->a].view;
        const GmBuffer *b = &ip->gm[v->buffer];
        if (!gm_check_inputs(ip, in, v)) return PC_ERROR;
        ViewMap m;
        view_map(v, true, &m);
        int64_t elems;
        if (m.rows < 0 || m.cols < 0 || !checked_mul_i64(m.rows, m.cols, &elems) || elems > ((int64_t)1 << 24))
            return rt_error(ip, in, "view of %lldx%lld elements is too large to print", (long long)m.rows,
                            (long long)m.cols);
        fprintf(out, "TPRINT %lldx%lld\n", (long long)m.rows, (long long)m.cols);
        for (int64_t r = 0; r < m.rows; r++) {
            int64_t base = v->offset + axis_offset(v, m.row_dims, m.n_row, r);
            for (int64_t c = 0; c < m.cols; c++) {
                element_format_tprint(buf, sizeof buf, b->data, base + c * v->strides[v->rank - 1], b->dtype);
                print_row_sep(out, c);
                fputs(buf, out);
            }
            fputc('\n', out);
        }
        return pc + 1;
    }
    const TileRef *t = &in->t[0];
    TileView *tv = use_tile(ip, in, t);
    if (!tv) return PC_ERROR;
    fprintf(out, "TPRINT %dx%d\n", tv->vr, tv->vc);
    for (int64_t r = 0; r < tv->vr; r++) {
        for (int64_t c = 0; c < tv->vc; c++) {
            element_format_tprint(buf, sizeof buf, tv->base, r * t->rs + c * t->cs, t->dtype);
            print_row_sep(out, c);
            fputs(buf, out);
        }
        fputc('\n', out);
    }
    return pc + 1;
}

bool lower_tprint(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects an operand");
    const Operand *o = &op->ins.items[0];
    Instr in = instr_for(op, exec_tprint);
    int32_t slot = value_slot(ctx, op, o);
    if (slot < 0) return false;
    const Type *ty = o->value->type;
    if (ty && (ty->kind == TY_PARTITION_VIEW || ty->kind == TY_TENSOR_VIEW)) {
        in.a = slot;
        in.b = 1;
    } else {
        if (!tile_ref(ctx, op, o, &in.t[0])) return false;
        if (boxed(&in.t[0])) return unsupported_boxed(ctx, op, &in.t[0]);
    }
    emit(ctx, &in);
    return true;
}

/* ---- TSETVAL, TGETVAL ------------------------------------------------------------------------- */

/* The storage element at the linear offset sc[1] of tile t[0] (`verb` it: "writes", "reads"), or
 * NULL after a TSETVAL.offset / TGETVAL.offset error when the offset leaves the tile. */
static uint8_t *element_at(Interp *ip, const Instr *in, const char *verb) {
    const TileRef *t = &in->t[0];
    TileView *tv = use_tile(ip, in, t);
    if (!tv) return NULL;
    int64_t off = read_int(ip->frame, &in->sc[1]), n = (int64_t)t->rows * t->cols;
    if (off < 0 || off >= n) {
        rt_rule_error(ip, in, "offset", "%s element offset %lld of %%%s, which has %lld elements (%dx%d)", verb,
                      (long long)off, t->name, (long long)n, t->rows, t->cols);
        return NULL;
    }
    return tv->base + off * (int64_t)dtype_size(t->dtype);
}

/* dst's storage element at the linear offset sc[1] = the scalar sc[0] in dst's element type (the
 * simulator's Tile::SetValue: `*(ptr + offset) = val`, whatever the layout). */
static int32_t exec_tsetval(Interp *ip, const Instr *in, int32_t pc) {
    uint8_t *p = element_at(ip, in, "writes");
    if (!p) return PC_ERROR;
    KTile k = {p, 1, 1};
    in->k.fill(k, kernel_scalar(ip, in, in->t[0].dtype), 1, 1);
    return pc + 1;
}

bool lower_tsetval(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 2 || op->outs.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects an offset, a value and dst");
    Instr in = instr_for(op, exec_tsetval);
    if (!tile_ref(ctx, op, &op->outs.items[0], &in.t[0])) return false;
    if (!kernel_scalar_ref(ctx, op, &op->ins.items[1], in.t[0].dtype, &in.sc[0]) ||
        !scalar_ref(ctx, op, &op->ins.items[0], DT_INDEX, &in.sc[1]))
        return false;
    const KernelSet *ks = kernel_set(in.t[0].dtype, ctx->ip->isa);
    if (!ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[0].dtype));
    in.k.fill = ks->fill;
    if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, in.t[0].dtype);
    emit(ctx, &in);
    return true;
}

/* The result = src's storage element at the linear offset sc[1] (the simulator's
 * Tile::GetValue: `return *(ptr + offset)`), as a scalar of the element type. */
static int32_t exec_tgetval(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *t = &in->t[0];
    const uint8_t *p = element_at(ip, in, "reads");
    if (!p) return PC_ERROR;
    RtValue *r = &ip->frame->vals[in->dst_slot];
    if (dtype_is_float(t->dtype)) { /* exact: f16, bf16 and f32 values are doubles */
        r->f = element_as_double(p, 0, t->dtype);
    } else { /* the element's bits, extended as its type, then as the result's */
        uint64_t bits = 0;
        size_t es = dtype_size(t->dtype);
        memcpy(&bits, p, es < sizeof bits ? es : sizeof bits); /* little-endian host */
        r->i = scalar_wrap_int(scalar_wrap_int((int64_t)bits, t->dtype), in->dst_type);
    }
    return pc + 1;
}

bool lower_tgetval(LowerCtx *ctx, const Op *op) {
    if (op->ins.count < 2 || op->n_results < 1 || !op->results[0]) return lower_error(ctx, op, (SrcLoc){0}, "expects src, an offset and a result");
    Instr in = instr_for(op, exec_tgetval);
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[0]) || !scalar_ref(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[1])) return false;
    in.dst_slot = (int32_t)op->results[0]->id;
    in.dst_type = op->results[0]->type->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- pto.load_scalar, pto.store_scalar -------------------------------------------------------- */

/* The GM element `ptr + offset` (a pointer is a buffer and an element offset, pto.addptr) in *at,
 * the buffer grown to hold it (as a view reaching it would); false after a run-time error. */
static bool scalar_ptr_element(Interp *ip, const Instr *in, int64_t *at) {
    const GmView *p = &ip->frame->vals[in->a].view;
    int64_t off = read_int(ip->frame, &in->sc[1]);
    if (p->buffer < 0 || p->buffer >= ip->n_gm) return rt_error(ip, in, "pointer does not name a GM buffer"), false;
    if (off < 0) return rt_rule_error(ip, in, "offset", "expects a non-negative offset, got %lld", (long long)off), false;
    if (!checked_add_i64(p->offset, off, at) || *at == INT64_MAX) return rt_error(ip, in, "pointer offset overflows 64 bits"), false;
    return gm_ensure(ip, in, p->buffer, *at + 1);
}

/* %v = GM element ptr[offset] (the ptr's element type; f16/bf16 exactly as doubles). A buffer with
 * no input data must have had that element written first (unless --zero-inputs), as for tload. */
static int32_t exec_load_scalar(Interp *ip, const Instr *in, int32_t pc) {
    int64_t at;
    if (!scalar_ptr_element(ip, in, &at)) return PC_ERROR;
    GmBuffer *b = &ip->gm[ip->frame->vals[in->a].view.buffer];
    if (ip->opts.require_inputs && !b->bound && (!b->written || !b->written[at]))
        return rt_error(ip, in, "reads element %lld of %%%s, which has no input data and was not written before: pass --in "
                        "%s=FILE, or --zero-inputs to run on zeros", (long long)at, b->arg->name, b->arg->name);
    const uint8_t *p = b->data + (size_t)at * b->elem_size;
    RtValue *r = &ip->frame->vals[in->dst_slot];
    if (dtype_is_float(b->dtype)) {
        r->f = element_as_double(p, 0, b->dtype);
    } else {
        uint64_t bits = 0;
        memcpy(&bits, p, b->elem_size < sizeof bits ? b->elem_size : sizeof bits); /* little-endian host */
        r->i = scalar_wrap_int(scalar_wrap_int((int64_t)bits, b->dtype), in->dst_type);
    }
    return pc + 1;
}

/* GM element ptr[offset] = the value (the ptr's element type: the verifier checked it). */
static int32_t exec_store_scalar(Interp *ip, const Instr *in, int32_t pc) {
    int64_t at;
    if (!scalar_ptr_element(ip, in, &at)) return PC_ERROR;
    GmBuffer *b = &ip->gm[ip->frame->vals[in->a].view.buffer];
    KTile k = {b->data + (size_t)at * b->elem_size, 1, 1};
    in->k.fill(k, kernel_scalar(ip, in, b->dtype), 1, 1);
    if (b->written) b->written[at] = 1;
    return pc + 1;
}

/* The GM element the instruction reads or writes, when it is inside the buffer now (else the
 * instruction reports the error when it runs). */
static void scalar_ptr_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const GmView *p = &ip->frame->vals[in->a].view;
    int64_t off = read_int(ip->frame, &in->sc[1]), at;
    if (p->buffer < 0 || p->buffer >= ip->n_gm || off < 0 || !checked_add_i64(p->offset, off, &at)) return;
    const GmBuffer *b = &ip->gm[p->buffer];
    if (b->data && at < b->count) fn(ctx, b->data + (size_t)at * b->elem_size, (int64_t)b->elem_size);
}

/* load_scalar reads, store_scalar writes, one GM element on PIPE_S (--check-sync). */
static int scalar_ptr_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    (void)ip;
    acc[0] = (TileWindowAccess){.value = in->op->ins.items[0].value, .write = in->op->n_results == 0, .walk = scalar_ptr_walk};
    return 1;
}

bool lower_scalar_ptr(LowerCtx *ctx, const Op *op) {
    bool load = op->n_results > 0;
    if (op->ins.count < (load ? 2 : 3) || (load && !op->results[0]))
        return lower_error(ctx, op, (SrcLoc){0}, "expects a pointer, an offset%s", load ? " and a result" : " and a value");
    Instr in = instr_for(op, load ? exec_load_scalar : exec_store_scalar);
    in.footprint = scalar_ptr_footprint;
    int32_t ptr = value_slot(ctx, op, &op->ins.items[0]);
    if (ptr < 0) return false;
    const Type *pt = op->ins.items[0].value->type;
    if (!pt || pt->kind != TY_PTR) return lower_error(ctx, op, op->ins.items[0].loc, "expects a !pto.ptr operand");
    in.a = ptr;
    if (!scalar_ref(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[1])) return false; /* sc[0]: the stored value */
    if (load) {
        in.dst_slot = (int32_t)op->results[0]->id;
        in.dst_type = op->results[0]->type->dtype;
    } else {
        const KernelSet *ks = kernel_set(pt->dtype, ctx->ip->isa);
        if (!ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(pt->dtype));
        in.k.fill = ks->fill;
        if (!kernel_scalar_ref(ctx, op, &op->ins.items[2], pt->dtype, &in.sc[0])) return false;
        if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, pt->dtype);
    }
    emit(ctx, &in);
    return true;
}
