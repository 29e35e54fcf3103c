/* ops_compare.c - lowering and execution of the compare and select, generators family
 * (ir/ops_compare.def: TCMP, TCMPS, TSEL, TSELS, TCI, TTRI). Lowering resolves the operands once,
 * picks the row compare kernel for the element type and compare mode (kernels_compare.h) and reads
 * the enum attributes; execution checks the run-time valid shapes with the verifier's rule IDs
 * and calls the kernel. docs/execution.md describes the packing of each op. */
#include "interp_impl.h"

#include "kernels_compare.h"

#include <string.h>

/* The Instr fields this file uses:
 *   t[0] dst, t[1..3] the tile operands in table order (tmp not resolved: the simulator ignores it);
 *   sc[0] the scalar (TCMPS, TSELS, TCI, TTRI), ks its conversion when immediate;
 *   extra: CompareInfo. */
typedef struct CompareInfo {
    CmpRowFn cmp;           /* TCMP */
    CmpsRowFn cmps;         /* TCMPS */
    uint8_t *scratch;       /* one source row of 0/1 results (TCMP, TCMPS) */
    bool flag;              /* TCI descending, TTRI upper */
    uint64_t one_bits;      /* TTRI: the element pattern of 1 */
} CompareInfo;

/* dst (outs[0] or the result) into in->t[0]; false on failure, with *emitted set when a boxed layout
 * got an "unsupported" instruction instead (as lower_tile_in). */
static bool dst_ref(LowerCtx *ctx, const Op *op, Instr *in, bool *emitted) {
    bool defines;
    if (!lower_dst(ctx, op, &in->t[0], &defines)) return false;
    in->defines_dst = defines;
    if (boxed(&in->t[0])) {
        *emitted = unsupported_boxed(ctx, op, &in->t[0]);
        return false;
    }
    return true;
}

static CompareInfo *new_info(LowerCtx *ctx, int64_t scratch_bytes) {
    CompareInfo *ci = arena_alloc_array(ctx->ip->arena, 1, sizeof *ci);
    memset(ci, 0, sizeof *ci);
    if (scratch_bytes > 0) ci->scratch = arena_alloc_array(ctx->ip->arena, (size_t)scratch_bytes, 1);
    return ci;
}

/* ---- TCMP ----------------------------------------------------------------------------------- */

static int32_t exec_tcmp(Interp *ip, const Instr *in, int32_t pc) {
    TileView *a = use_tile(ip, in, &in->t[1]), *b = a ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!b) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], a->vr, in->t[0].cols)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    if (a->vr != b->vr)
        return rt_rule_error(ip, in, "valid-shape", "expects src0 and src1 to have the same valid row, got %d and %d", a->vr, b->vr);
    if (a->vc != b->vc)
        return rt_rule_error(ip, in, "valid-shape", "expects src0 and src1 to have the same valid column, got %d and %d", a->vc,
                             b->vc);
    if (a->vr != d->vr)
        return rt_rule_error(ip, in, "valid-shape", "expects src0 valid row to equal dst valid row, got %d and %d", a->vr, d->vr);
    const CompareInfo *ci = in->extra;
    kernel_tcmp(ktile(&in->t[0], d), (int)dtype_size(in->t[0].dtype), in->t[0].footprint, d->vc, ktile(&in->t[1], a),
                ktile(&in->t[2], b), (int)dtype_size(in->t[1].dtype), a->vr, a->vc, ci->cmp, ci->scratch);
    return pc + 1;
}

bool lower_tcmp(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tcmp);
    bool emitted = false;
    if (!lower_tile_in(ctx, op, 0, &in.t[1], &emitted)) return emitted;
    if (!lower_tile_in(ctx, op, 1, &in.t[2], &emitted)) return emitted;
    if (!dst_ref(ctx, op, &in, &emitted)) return emitted;
    if (!same_dtype(ctx, op, &in.t[2], &in.t[1], "src1")) return false;
    size_t ws = dtype_size(in.t[0].dtype);
    if (!dtype_is_int(in.t[0].dtype) || (ws != 1 && ws != 4))
        return emit_unsupported(ctx, op, "has no kernel for dst element type %s (a mask of 8-bit or 32-bit words)",
                                dtype_name(in.t[0].dtype));
    int mode = (int)op_attr_value(op, "cmpMode", AK_CMP_MODE, CMP_EQ);
    CmpRowFn f = cmp_row_kernel(in.t[1].dtype, mode);
    if (!f) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[1].dtype));
    CompareInfo *ci = new_info(ctx, in.t[1].cols);
    ci->cmp = f;
    in.extra = ci;
    emit(ctx, &in);
    return true;
}

/* ---- TCMPS ---------------------------------------------------------------------------------- */

static int32_t exec_tcmps(Interp *ip, const Instr *in, int32_t pc) {
    TileView *s = use_tile(ip, in, &in->t[1]);
    if (!s) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], s->vr, in->t[0].cols)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    if (s->vr != d->vr)
        return rt_rule_error(ip, in, "valid-rows", "expects src and dst to have the same valid_shape[0], got %d and %d", s->vr,
                             d->vr);
    const CompareInfo *ci = in->extra;
    const TileRef *dt = &in->t[0], *st = &in->t[1];
    kernel_tcmps(ktile(dt, d), dt->footprint, (int64_t)dt->rows * dt->cols, d->vr, d->vc, ktile(st, s),
                 (int)dtype_size(st->dtype), st->rows, st->cols, s->vr, s->vc, kernel_scalar(ip, in, st->dtype), ci->cmps,
                 dt->dtype, ci->scratch);
    return pc + 1;
}

bool lower_tcmps(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tcmps);
    bool emitted = false;
    if (!lower_tile_in(ctx, op, 0, &in.t[1], &emitted)) return emitted;
    if (!dst_ref(ctx, op, &in, &emitted)) return emitted;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "has no scalar");
    DType et = in.t[1].dtype;
    if (!kernel_scalar_ref(ctx, op, &op->ins.items[1], et, &in.sc[0])) return false;
    if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, et);
    int mode = (int)op_attr_value(op, "cmpMode", AK_CMP_MODE, CMP_EQ);
    CmpsRowFn f = cmps_row_kernel(et, mode);
    if (!f) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(et));
    CompareInfo *ci = new_info(ctx, in.t[1].cols);
    ci->cmps = f;
    in.extra = ci;
    emit(ctx, &in);
    return true;
}

/* ---- TSEL ----------------------------------------------------------------------------------- */

/* The mask-size rule on run-time shapes: the stream's last mask element lies within the mask. */
static bool tsel_mask_fits(int64_t R, int64_t C, int64_t mvc, int64_t mask_rows) {
    if (R <= 0 || C <= 0) return true;
    int64_t need = (R * C + 7) / 8;
    return mvc > 0 && (need - 1) / mvc < mask_rows;
}

static int32_t exec_tsel(Interp *ip, const Instr *in, int32_t pc) {
    TileView *m = use_tile(ip, in, &in->t[1]), *a = m ? use_tile(ip, in, &in->t[2]) : NULL,
             *b = a ? use_tile(ip, in, &in->t[3]) : NULL;
    if (!b) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], a->vr, a->vc)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    if (!tsel_mask_fits(d->vr, d->vc, m->vc, in->t[1].rows))
        return rt_rule_error(ip, in, "mask-size",
                             "expects mask to hold the %lld mask elements (8 bits each) of dst's %dx%d valid elements in "
                             "rows of its %d valid columns, got %d rows",
                             (long long)(((int64_t)d->vr * d->vc + 7) / 8), d->vr, d->vc, m->vc, in->t[1].rows);
    kernel_tsel(ktile(&in->t[0], d), ktile(&in->t[1], m), ktile(&in->t[2], a), ktile(&in->t[3], b), d->vr, d->vc, m->vc,
                (int)dtype_size(in->t[0].dtype), (int)dtype_size(in->t[1].dtype));
    return pc + 1;
}

bool lower_tsel(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tsel);
    bool emitted = false;
    for (int i = 0; i < 3; i++)
        if (!lower_tile_in(ctx, op, i, &in.t[1 + i], &emitted)) return emitted;
    if (!dst_ref(ctx, op, &in, &emitted)) return emitted;
    if (!same_dtype(ctx, op, &in.t[2], &in.t[0], "src0") || !same_dtype(ctx, op, &in.t[3], &in.t[0], "src1")) return false;
    if (in.t[2].rows != in.t[0].rows || in.t[2].cols != in.t[0].cols || in.t[3].rows != in.t[0].rows ||
        in.t[3].cols != in.t[0].cols)
        return lower_error(ctx, op, (SrcLoc){0}, "expects src0, src1, and dst to have the same shape");
    if (!dtype_is_int(in.t[1].dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects mask element type to be an integer type, got %s",
                           dtype_name(in.t[1].dtype));
    emit(ctx, &in);
    return true;
}

/* ---- TSELS ---------------------------------------------------------------------------------- */

/* The element bit pattern of a kernel scalar of type dt. */
static uint64_t scalar_bits(KScalar k, DType dt) {
    uint32_t w;
    switch (dt) {
    case DT_F32: memcpy(&w, &k.f, 4); return w;
    case DT_F16: return fp_f32_to_f16(k.f);
    case DT_BF16: return fp_f32_to_bf16(k.f);
    default: return k.u;
    }
}

static int32_t exec_tsels(Interp *ip, const Instr *in, int32_t pc) {
    TileView *m = use_tile(ip, in, &in->t[1]), *s = m ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!s) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], s->vr, s->vc)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    if (s->vr != d->vr || s->vc != d->vc)
        return rt_rule_error(ip, in, "valid-shape", "expects src to have dst's valid shape %dx%d, got %dx%d", d->vr, d->vc, s->vr,
                             s->vc);
    const int mes = (int)dtype_size(in->t[1].dtype);
    const int64_t bits = 8 * (int64_t)mes, need_cols = ((int64_t)d->vc + bits - 1) / bits;
    if (d->vr > 0 && d->vc > 0 && (in->t[1].rows < d->vr || in->t[1].cols < need_cols))
        return rt_rule_error(ip, in, "mask-size",
                             "expects mask to have at least %d rows and %lld columns (%lld bits per %s element for dst's %d "
                             "valid columns), got %dx%d",
                             d->vr, (long long)need_cols, (long long)bits, dtype_name(in->t[1].dtype), d->vc, in->t[1].rows,
                             in->t[1].cols);
    DType et = in->t[0].dtype;
    kernel_tsels(ktile(&in->t[0], d), ktile(&in->t[1], m), ktile(&in->t[2], s), scalar_bits(kernel_scalar(ip, in, et), et),
                 d->vr, d->vc, (int)dtype_size(et), mes);
    return pc + 1;
}

bool lower_tsels(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tsels);
    bool emitted = false;
    for (int i = 0; i < 2; i++)
        if (!lower_tile_in(ctx, op, i, &in.t[1 + i], &emitted)) return emitted;
    if (!dst_ref(ctx, op, &in, &emitted)) return emitted;
    if (!same_dtype(ctx, op, &in.t[2], &in.t[0], "src")) return false;
    if (!dtype_is_int(in.t[1].dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects mask element type to be an integer type, got %s",
                           dtype_name(in.t[1].dtype));
    if (op->ins.count < 4) return lower_error(ctx, op, (SrcLoc){0}, "has no scalar");
    DType et = in.t[0].dtype;
    if (!kernel_scalar_ref(ctx, op, &op->ins.items[3], et, &in.sc[0])) return false;
    if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, et);
    emit(ctx, &in);
    return true;
}

/* ---- TCI ------------------------------------------------------------------------------------ */

static int32_t exec_tci(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0];
    if (in->defines_dst && !define_tile(ip, in, dt, dt->rows, dt->cols)) return PC_ERROR;
    TileView *d = use_tile(ip, in, dt);
    if (!d) return PC_ERROR;
    const CompareInfo *ci = in->extra;
    if (d->vr > 0) kernel_tci(ktile(dt, d), (int64_t)kernel_scalar(ip, in, dt->dtype).u, ci->flag, d->vc, (int)dtype_size(dt->dtype));
    return pc + 1;
}

bool lower_tci(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tci);
    bool emitted = false;
    if (!dst_ref(ctx, op, &in, &emitted)) return emitted;
    DType et = in.t[0].dtype;
    size_t es = dtype_size(et);
    if (!dtype_is_int(et) || (es != 2 && es != 4))
        return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(et));
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "has no start value");
    if (!kernel_scalar_ref(ctx, op, &op->ins.items[0], et, &in.sc[0])) return false;
    if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, et);
    CompareInfo *ci = new_info(ctx, 0);
    ci->flag = op_attr_value(op, "descending", AK_BOOL, 0) != 0;
    in.extra = ci;
    emit(ctx, &in);
    return true;
}

/* ---- TTRI ----------------------------------------------------------------------------------- */

static int32_t exec_ttri(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0];
    if (in->defines_dst && !define_tile(ip, in, dt, dt->rows, dt->cols)) return PC_ERROR;
    TileView *d = use_tile(ip, in, dt);
    if (!d) return PC_ERROR;
    const CompareInfo *ci = in->extra;
    int32_t diag = (int32_t)(uint32_t)read_scalar(ip->frame, &in->sc[0]).i; /* the C++ `int diagonal` */
    kernel_ttri(ktile(dt, d), d->vr, d->vc, diag, ci->flag, ci->one_bits, (int)dtype_size(dt->dtype));
    return pc + 1;
}

bool lower_ttri(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_ttri);
    bool emitted = false;
    if (!dst_ref(ctx, op, &in, &emitted)) return emitted;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "has no diagonal");
    if (!kernel_scalar_ref(ctx, op, &op->ins.items[0], DT_I32, &in.sc[0])) return false;
    DType et = in.t[0].dtype;
    CompareInfo *ci = new_info(ctx, 0);
    int64_t ul = op_attr_value(op, "upperOrLower", AK_INT, 0);
    if (ul != 0 && ul != 1) return lower_error(ctx, op, (SrcLoc){0}, "expects upperOrLower to be 0 (lower) or 1 (upper)");
    ci->flag = ul == 1;
    ci->one_bits = et == DT_F32 ? 0x3F800000u : et == DT_F16 ? 0x3C00u : et == DT_BF16 ? 0x3F80u : 1u;
    in.extra = ci;
    emit(ctx, &in);
    return true;
}
