/* ops_gather.c - lowering and execution of the gather/scatter and quantisation rows
 * (ir/ops_gather.def), after the ISA's CPU simulator (TGather.hpp, TGatherB.hpp, TScatter.hpp,
 * TQuant.hpp, TDeQuant.hpp). Lowering fixes the form, the mask pattern, the element sizes and the
 * index signedness; the executors check at run time what the simulator would read or write
 * outside a tile (it does not check) and report it as an error with the element's position. */
#include "interp_impl.h"

#include <math.h>
#include <string.h>

/* ---- shared ------------------------------------------------------------------------------- */

/* Byte address of element (r, c) of a tile view (none_box layouts: row- or column-major). */
static inline uint8_t *elem_at(const TileRef *t, const TileView *v, int64_t r, int64_t c, size_t es) {
    return v->base + (size_t)(r * t->rs + c * t->cs) * es;
}

/* An integer element (1, 2 or 4 bytes, signed or not) widened to int64. */
static inline int64_t load_int(const uint8_t *p, int size, bool is_signed) {
    switch (size) {
    case 1: return is_signed ? (int64_t)(int8_t)p[0] : (int64_t)p[0];
    case 2: {
        uint16_t u;
        memcpy(&u, p, 2);
        return is_signed ? (int64_t)(int16_t)u : (int64_t)u;
    }
    default: {
        uint32_t u;
        memcpy(&u, p, 4);
        return is_signed ? (int64_t)(int32_t)u : (int64_t)u;
    }
    }
}

/* The destination (outs[0]) of a DPS op that writes only part of it: the result form is refused. */
static bool dps_dst(LowerCtx *ctx, const Op *op, TileRef *dst, bool *emitted) {
    bool defines;
    if (!lower_dst(ctx, op, dst, &defines)) return false;
    if (defines) return lower_error(ctx, op, (SrcLoc){0}, "writes only part of its destination: use the DPS form (outs)");
    if (boxed(dst)) {
        *emitted = unsupported_boxed(ctx, op, dst);
        return false;
    }
    return true;
}

/* ---- TGATHER: index form ------------------------------------------------------------------ */

/* dst(r,c) = src[flat idx(r,c)] over dst's valid region, src addressed row-major over its physical
 * Rows x Cols (flat / Cols, flat % Cols through src's layout); an index < 0 or >= Rows*Cols gives 0.
 * Instr.a: element size; Instr.b: 1 when the indices are unsigned. */
static inline int32_t gather_index_rows(Interp *ip, const Instr *in, TileView *d, TileView *s, TileView *ix, size_t es) {
    const TileRef *td = &in->t[0], *ts = &in->t[1], *ti = &in->t[2];
    const int64_t n = (int64_t)ts->rows * ts->cols, cols = ts->cols;
    const bool is_unsigned = in->b != 0;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            uint32_t u;
            memcpy(&u, elem_at(ti, ix, r, c, 4), 4);
            int64_t raw = is_unsigned ? (int64_t)u : (int64_t)(int32_t)u;
            uint8_t *dp = elem_at(td, d, r, c, es);
            if (raw < 0 || raw >= n) memset(dp, 0, es);
            else memcpy(dp, elem_at(ts, s, raw / cols, raw % cols, es), es);
        }
    (void)ip;
    return 0;
}

static int32_t exec_tgather_index(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *ix = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!ix) return PC_ERROR;
    if (d->vc != in->t[0].cols)
        return rt_rule_error(ip, in, "dst-valid-cols", "expects dst valid_shape[1] to equal dst cols (%d and %d)", d->vc,
                             in->t[0].cols);
    if (d->vr > in->t[2].rows || d->vc > in->t[2].cols)
        return rt_error(ip, in, "reads indices outside its %dx%d tile: dst's valid region is %dx%d", in->t[2].rows,
                        in->t[2].cols, d->vr, d->vc);
    switch (in->a) {
    case 1: gather_index_rows(ip, in, d, s, ix, 1); break;
    case 2: gather_index_rows(ip, in, d, s, ix, 2); break;
    default: gather_index_rows(ip, in, d, s, ix, 4); break;
    }
    return pc + 1;
}

/* ---- TGATHER: mask form ------------------------------------------------------------------- */

/* Row mode (the only one PTOAS spells): the selected columns of every valid src row, as one packed
 * stream from dst's first element. Instr.a: element size; Instr.b: first column | step << 8. */
static inline void gather_mask_rows(const Instr *in, TileView *d, TileView *s, size_t es) {
    const TileRef *ts = &in->t[1];
    const int64_t start = in->b & 0xff, step = in->b >> 8;
    uint8_t *out = d->base;
    for (int64_t r = 0; r < s->vr; r++)
        for (int64_t c = start; c < s->vc; c += step, out += es) memcpy(out, elem_at(ts, s, r, c, es), es);
}

static int32_t exec_tgather_mask(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    if (!s) return PC_ERROR;
    if (d->vc != in->t[0].cols)
        return rt_rule_error(ip, in, "dst-valid-cols", "expects dst valid_shape[1] to equal dst cols (%d and %d)", d->vc,
                             in->t[0].cols);
    const int64_t start = in->b & 0xff, step = in->b >> 8;
    int64_t per_row = s->vc > start ? (s->vc - start + step - 1) / step : 0;
    int64_t total = per_row * s->vr, room = (int64_t)in->t[0].rows * in->t[0].cols;
    if (total > room)
        return rt_error(ip, in, "writes %lld selected elements (%d valid rows x %lld) into dst, which holds %lld", (long long)total,
                        s->vr, (long long)per_row, (long long)room);
    switch (in->a) {
    case 1: gather_mask_rows(in, d, s, 1); break;
    case 2: gather_mask_rows(in, d, s, 2); break;
    default: gather_mask_rows(in, d, s, 4); break;
    }
    return pc + 1;
}

/* First selected column and step of each mask pattern (attrs.c order: P0101 P1010 P0001 P0010
 * P0100 P1000 P1111). */
static const uint8_t mask_start[7] = {0, 1, 0, 1, 2, 3, 0};
static const uint8_t mask_step[7] = {2, 2, 4, 4, 4, 4, 1};

bool lower_tgather(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tgather_index);
    if (op->outs.count > 1 || (op->ins.count > 1 && op->ins.items[1].value && op->ins.items[1].value->type &&
                               op->ins.items[1].value->type->kind != TY_TILE) ||
        (op->ins.count > 1 && op->ins.items[1].kind != OPD_VALUE))
        return emit_unsupported(ctx, op, "compare form (outs(dst, cdst), a scalar kValue) has no reference semantics: the "
                                "ISA's CPU simulator does not implement it, so pto-run cannot execute it");
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted)) return emitted;
    size_t es = dtype_size(in.t[0].dtype);
    if (dtype_size(in.t[1].dtype) != es || (es != 1 && es != 2 && es != 4))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src and dst elements of one size (1, 2 or 4 bytes)");
    in.a = (int32_t)es;
    int64_t pat = op_attr_value(op, "maskPattern", AK_MASK_PATTERN, -1);
    if (attr_find(&op->attrs, "maskPattern")) {
        if (pat < 0 || pat > 6) return lower_error(ctx, op, (SrcLoc){0}, "has an unknown maskPattern");
        if (in.t[0].blayout != BL_ROW_MAJOR || in.t[1].blayout != BL_ROW_MAJOR)
            return lower_error(ctx, op, (SrcLoc){0}, "expects src and dst to use row-major layout");
        in.exec = exec_tgather_mask;
        in.b = mask_start[pat] | mask_step[pat] << 8;
        emit(ctx, &in);
        return true;
    }
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "index-form tgather expects both indices and tmp");
    if (!lower_tile_in(ctx, op, 1, &in.t[2], &emitted)) return emitted;
    if (in.t[0].dtype != in.t[1].dtype) return same_dtype(ctx, op, &in.t[1], &in.t[0], "src");
    if (in.t[2].dtype != DT_I32 && in.t[2].dtype != DT_U32)
        return emit_unsupported(ctx, op, "has no reference semantics for %s indices: the ISA's CPU simulator requires "
                                "32-bit indices", dtype_name(in.t[2].dtype));
    in.b = in.t[2].dtype == DT_U32;
    emit(ctx, &in);
    return true;
}

/* ---- TGATHERB ----------------------------------------------------------------------------- */

/* Row r, block c of dst (32 bytes at byte (r*Cols + c*block) of dst) is copied from src's bytes at
 * the offset held in element r*Cols + c of the offsets tile (its raw storage, as the simulator
 * reads it); a block that would end past src's storage leaves dst unchanged. Instr.a: offsets'
 * element size; Instr.b: 1 when signed. */
static int32_t exec_tgatherb(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *o = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!o) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *to = &in->t[2];
    const size_t des = dtype_size(td->dtype);
    const int64_t blk = 32 / (int64_t)des, nblk = d->vc / blk, src_bytes = ts->footprint;
    const int64_t off_n = (int64_t)to->rows * to->cols;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < nblk; c++) {
            int64_t k = r * to->cols + c;
            if (k >= off_n)
                return rt_error(ip, in, "reads offsets element %lld (dst row %lld, block %lld) outside its %dx%d tile",
                                (long long)k, (long long)r, (long long)c, to->rows, to->cols);
            uint32_t off = (uint32_t)load_int(o->base + (size_t)k * (size_t)in->a, in->a, in->b != 0);
            if ((int64_t)off + 32 > src_bytes) continue;
            memcpy(d->base + (size_t)(r * td->cols + c * blk) * des, s->base + off, 32);
        }
    return pc + 1;
}

bool lower_tgatherb(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tgatherb);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    size_t des = dtype_size(in.t[0].dtype), oes = dtype_size(in.t[2].dtype);
    if (des != 1 && des != 2 && des != 4) return lower_error(ctx, op, (SrcLoc){0}, "expects dst element size to be 1, 2, or 4 bytes");
    if (in.t[0].blayout != BL_ROW_MAJOR)
        return emit_unsupported(ctx, op, "has no reference semantics for a column-major dst: the ISA's CPU simulator "
                                "requires a row-major one");
    if (!dtype_is_int(in.t[2].dtype) || oes > 4)
        return lower_error(ctx, op, (SrcLoc){0}, "expects offsets to hold 8-, 16- or 32-bit integer byte offsets");
    in.a = (int32_t)oes;
    in.b = !dtype_is_unsigned(in.t[2].dtype);
    emit(ctx, &in);
    return true;
}

/* ---- TSCATTER ----------------------------------------------------------------------------- */

/* Over the indexes' valid region: dst's raw element idx(i,j) = src(i,j). The simulator does not
 * bound the index; an index outside dst's Rows*Cols elements is a run-time error here. Instr.a:
 * data element size; Instr.b: index size | 0x100 when signed. */
static int32_t exec_tscatter(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *ix = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!ix) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *ti = &in->t[2];
    if (ix->vr > ts->rows || ix->vc > ts->cols)
        return rt_error(ip, in, "reads src (%dx%d tile) over the indexes' valid region %dx%d, outside its storage", ts->rows,
                        ts->cols, ix->vr, ix->vc);
    const size_t es = (size_t)in->a;
    const int isz = in->b & 0xff;
    const bool sgn = (in->b & 0x100) != 0;
    const int64_t n = (int64_t)td->rows * td->cols;
    for (int64_t i = 0; i < ix->vr; i++)
        for (int64_t j = 0; j < ix->vc; j++) {
            int64_t raw = load_int(elem_at(ti, ix, i, j, (size_t)isz), isz, sgn);
            uint32_t u = (uint32_t)raw; /* static_cast<unsigned> */
            if ((int64_t)u >= n)
                return rt_error(ip, in,
                                "index %lld at indexes (%lld, %lld) is outside dst's %lld elements (%dx%d): the ISA's CPU "
                                "simulator would write outside the tile",
                                (long long)raw, (long long)i, (long long)j, (long long)n, td->rows, td->cols);
            memcpy(d->base + (size_t)u * es, elem_at(ts, s, i, j, es), es);
        }
    return pc + 1;
}

bool lower_tscatter(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tscatter);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    if (in.t[0].dtype != in.t[1].dtype) return same_dtype(ctx, op, &in.t[1], &in.t[0], "src");
    size_t isz = dtype_size(in.t[2].dtype);
    if (!dtype_is_int(in.t[2].dtype) || (isz != 2 && isz != 4))
        return lower_error(ctx, op, (SrcLoc){0}, "expects indexes element type to be i16/i32");
    in.a = (int32_t)dtype_size(in.t[0].dtype);
    in.b = (int32_t)isz | (dtype_is_unsigned(in.t[2].dtype) ? 0 : 0x100);
    emit(ctx, &in);
    return true;
}

/* ---- TQUANT ------------------------------------------------------------------------------- */

/* float -> int8 as the simulator's ClampInt8 / ClampUint8: nearbyint (ties to even in the default
 * rounding mode), clamped in float; NaN gives 0 (what the x86 conversion of the simulator yields). */
static inline int64_t quant_round(float v, float lo, float hi) {
    float r = nearbyintf(v);
    if (r != r) return 0;
    return (int64_t)(r < lo ? lo : r > hi ? hi : r);
}

/* Over src's valid region: SYM d = clamp(rint(s * fp(r', 0)), -128, 127); ASYM d = clamp(rint(s *
 * fp(r', 0) + off(r', 0)), 0, 255), r' = min(r, valid rows - 1), in float. Instr.a: 1 for ASYM. */
static int32_t exec_tquant(Interp *ip, const Instr *in, int32_t pc) {
    const bool asym = in->a != 0;
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *fp = s ? use_tile(ip, in, &in->t[2]) : NULL, *off = NULL;
    if (!fp) return PC_ERROR;
    if (asym && !(off = use_tile(ip, in, &in->t[3]))) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *tf = &in->t[2], *to = &in->t[3];
    if (s->vr > td->rows || s->vc > td->cols)
        return rt_error(ip, in, "writes src's valid region %dx%d into dst, a %dx%d tile", s->vr, s->vc, td->rows, td->cols);
    if (s->vr == 0 || s->vc == 0) return pc + 1;
    if (fp->vr == 0 || fp->vc == 0 || (asym && (off->vr == 0 || off->vc == 0)))
        return rt_error(ip, in, "reads its per-row parameters from an empty valid region");
    for (int64_t r = 0; r < s->vr; r++) {
        int64_t pr = r < fp->vr - 1 ? r : fp->vr - 1;
        float inv = (float)element_as_double(elem_at(tf, fp, pr, 0, dtype_size(tf->dtype)), 0, tf->dtype);
        float zp = 0.0f;
        if (asym) {
            int64_t orow = r < off->vr - 1 ? r : off->vr - 1;
            zp = (float)element_as_double(elem_at(to, off, orow, 0, 4), 0, to->dtype);
        }
        for (int64_t c = 0; c < s->vc; c++) {
            float x;
            memcpy(&x, elem_at(ts, s, r, c, 4), 4);
            uint8_t *dp = elem_at(td, d, r, c, 1);
            if (asym) {
                float v = x * inv;
                v = v + zp;
                *dp = (uint8_t)quant_round(v, 0.0f, 255.0f);
            } else {
                *dp = (uint8_t)(int8_t)quant_round(x * inv, -128.0f, 127.0f);
            }
        }
    }
    return pc + 1;
}

bool lower_tquant(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tquant);
    int64_t q = op_attr_value(op, "quant_type", AK_QUANT_TYPE, -1);
    if (q < 0) return lower_error(ctx, op, (SrcLoc){0}, "expects quant_type = #pto<quant_type INT8_SYM> or INT8_ASYM");
    if (q > 1)
        return emit_unsupported(ctx, op, "quant_type %s is not supported yet (only INT8_SYM and INT8_ASYM)",
                                attr_enum_name(AK_QUANT_TYPE, q));
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    in.a = q == 1;
    if (in.a && !lower_tile_in(ctx, op, 2, &in.t[3], &emitted)) return emitted;
    if (in.t[1].dtype != DT_F32) return lower_error(ctx, op, (SrcLoc){0}, "expects src to have element type f32");
    if (in.t[0].dtype != (in.a ? DT_U8 : DT_I8))
        return lower_error(ctx, op, (SrcLoc){0}, "expects dst element type %s", in.a ? "ui8 for INT8_ASYM" : "i8 for INT8_SYM");
    if (!dtype_is_float(in.t[2].dtype)) return lower_error(ctx, op, (SrcLoc){0}, "expects fp to have a float element type");
    if (in.a && in.t[3].dtype != DT_F32) return lower_error(ctx, op, (SrcLoc){0}, "expects offset to have element type f32");
    emit(ctx, &in);
    return true;
}

/* ---- TDEQUANT ----------------------------------------------------------------------------- */

/* Over dst's valid region: d = (float(s) - off) * scale, the parameters at row r, column
 * min(c, max(1, scale's valid cols) - 1), both read through scale's layout (the simulator's
 * TileDataPara). Instr.a: src element size (1 or 2). */
static int32_t exec_tdequant(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *sc = s ? use_tile(ip, in, &in->t[2]) : NULL, *of = sc ? use_tile(ip, in, &in->t[3]) : NULL;
    if (!of) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *tp = &in->t[2];
    if (d->vr > ts->rows || d->vc > ts->cols)
        return rt_error(ip, in, "reads src (a %dx%d tile) over dst's valid region %dx%d", ts->rows, ts->cols, d->vr, d->vc);
    if (d->vr > tp->rows)
        return rt_error(ip, in, "reads scale and offset row %d of a %d-row tile", d->vr - 1, tp->rows);
    const int64_t pc_max = (sc->vc > 1 ? sc->vc : 1) - 1;
    const int es = in->a;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            int64_t p = c < pc_max ? c : pc_max;
            float scale, off, out;
            memcpy(&scale, elem_at(tp, sc, r, p, 4), 4);
            memcpy(&off, elem_at(tp, of, r, p, 4), 4);
            float x = (float)load_int(elem_at(ts, s, r, c, (size_t)es), es, true);
            out = x - off;
            out = out * scale;
            memcpy(elem_at(td, d, r, c, 4), &out, 4);
        }
    return pc + 1;
}

bool lower_tdequant(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tdequant);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted) || !lower_tile_in(ctx, op, 2, &in.t[3], &emitted))
        return emitted;
    if (in.t[1].dtype != DT_I8 && in.t[1].dtype != DT_I16)
        return lower_error(ctx, op, (SrcLoc){0}, "expects src element type i8 or i16");
    for (int i = 0; i < 4; i++)
        if (i != 1 && in.t[i].dtype != DT_F32)
            return lower_error(ctx, op, (SrcLoc){0}, "expects dst, scale and offset element type f32");
    const TileRef *a = &in.t[2], *b = &in.t[3];
    if (a->rows != b->rows || a->cols != b->cols || a->blayout != b->blayout)
        return emit_unsupported(ctx, op, "has no reference semantics when scale (%dx%d) and offset (%dx%d) differ in shape or "
                                "layout: the ISA's CPU simulator addresses both through one tile type",
                                a->rows, a->cols, b->rows, b->cols);
    in.a = (int32_t)dtype_size(in.t[1].dtype);
    emit(ctx, &in);
    return true;
}
