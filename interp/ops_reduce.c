/* ops_reduce.c - the reduction family (ir/ops_reduce.def), as the simulator's TRowSum/TRowMax/
 * TRowMin/TColSum/TColMax/TColMin/TColProd compute them. The folds themselves are kernels of each
 * element type and variant (interp/kernels_tmpl.h, KernelSet.row_fold and col_fold):
 *   - row sums accumulate in float for f16/bf16 and in the element type otherwise, column by
 *     column, and round once; column sums and products accumulate in the element type, rounding
 *     after every step, row by row (each column's order kept, the columns side by side);
 *   - max/min keep the first of equal values and let a NaN win only as the first element
 *     (std::max / `>`), and copy the chosen element's bits;
 *   - integers wrap.
 * One kernel per fold, element type and direction, chosen at lowering. This file also holds the
 * arg reductions (TROWARGMAX ...). */
#include "interp_impl.h"

#include <string.h>

#define AT(T, t, r, c) (((T *)(t).p)[(r) * (int64_t)(t).rs + (c) * (int64_t)(t).cs])
#define LD_f32(x) (x)
#define LD_f16(x) fp_f16_to_f32(x)
#define LD_bf16(x) fp_bf16_to_f32(x)

/* The fold an element name of ir/ops_reduce.def names (KernelFold), or -1. */
static int fold_of(const char *elem) {
    static const char *const names[KFOLD_COUNT] = {[KFOLD_SUM] = "sum", [KFOLD_MAX] = "max", [KFOLD_MIN] = "min",
                                                   [KFOLD_PROD] = "prod"};
    for (int i = 0; i < KFOLD_COUNT; i++)
        if (strcmp(elem, names[i]) == 0) return i;
    return -1;
}

/* Instr.a: 1 for a column reduction */
static int32_t exec_reduce(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0], *st = &in->t[1];
    TileView *s = use_tile(ip, in, st);
    if (!s) return PC_ERROR;
    bool columns = in->a != 0;
    if (in->defines_dst && !define_tile(ip, in, dt, columns ? 1 : s->vr, columns ? s->vc : 1)) return PC_ERROR;
    TileView *d = use_tile(ip, in, dt);
    if (!d) return PC_ERROR;
    if (columns ? s->vc > dt->cols : s->vr > dt->rows)
        return rt_rule_error(ip, in, columns ? "valid-cols" : "valid-rows",
                             "src has %d valid %s but dst only %d", columns ? s->vc : s->vr, columns ? "cols" : "rows",
                             columns ? dt->cols : dt->rows);
    if (s->vr == 0 || s->vc == 0) return pc + 1;
    in->k.row_reduce(ktile(dt, d), ktile(st, s), s->vr, s->vc);
    return pc + 1;
}

bool lower_reduce(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_reduce);
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a src operand");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (!same_dtype(ctx, op, &in.t[1], &in.t[0], "src")) return false;
    for (int i = 0; i < 2; i++)
        if (boxed(&in.t[i])) return unsupported_boxed(ctx, op, &in.t[i]);
    const OpInfo *info = op_info(op->code);
    in.a = (info->flags & OPF_COLUMNS) ? 1 : 0;
    int fold = fold_of(info->elem);
    const KernelSet *ks = kernel_set(in.t[0].dtype, ctx->ip->isa);
    KernelRowReduce k = fold < 0 || !ks ? NULL : in.a ? ks->col_fold[fold] : ks->row_fold[fold];
    if (!k) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[0].dtype));
    in.k.row_reduce = k;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* ---- arg reductions (TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN) ------------------------------
 * The simulator's TRowReduceIdxImpl/TColReduceIdxImpl: start from element 0 and move to a later
 * element only when it compares strictly better (`>` for max, `<` for min), so ties keep the lowest
 * index and a NaN wins only at index 0 (every compare with it is false). f16/bf16 compare as float
 * (exact). The index is below 2^31, so i32 and ui32 dsts get the same bits. A row form with zero
 * valid cols (column form: zero valid rows) still writes index 0, as the simulator does. Columns
 * run side by side, a chunk at a time, with selects the compiler can vectorise. */
typedef void (*KernelArgReduce)(KTile d, KTile s, int64_t rows, int64_t cols);

enum { ARG_CHUNK = 1024 };
#define LD_int(x) (x)

#define ARG_KERNELS_CMP(N, T, CT, LD, EXT, BETTER)                                                 \
    static void row_arg##EXT##_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                 \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            CT best = LD(AT(T, s, r, 0));                                                          \
            uint32_t bi = 0;                                                                       \
            for (int64_t c = 1; c < cols; c++) {                                                   \
                CT v = LD(AT(T, s, r, c));                                                         \
                if (v BETTER best) best = v, bi = (uint32_t)c;                                     \
            }                                                                                      \
            AT(uint32_t, d, r, 0) = bi;                                                            \
        }                                                                                          \
    }                                                                                              \
    static void col_arg##EXT##_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                 \
        for (int64_t c0 = 0; c0 < cols; c0 += ARG_CHUNK) {                                         \
            int64_t n = cols - c0 < ARG_CHUNK ? cols - c0 : ARG_CHUNK;                             \
            CT best[ARG_CHUNK];                                                                    \
            uint32_t bi[ARG_CHUNK];                                                                \
            for (int64_t j = 0; j < n; j++) best[j] = LD(AT(T, s, 0, c0 + j)), bi[j] = 0;         \
            for (int64_t r = 1; r < rows; r++)                                                     \
                for (int64_t j = 0; j < n; j++) {                                                  \
                    CT v = LD(AT(T, s, r, c0 + j)), b = best[j];                                   \
                    uint32_t m = -(uint32_t)(v BETTER b); /* a mask, not a branch: it vectorises */ \
                    best[j] = v BETTER b ? v : b;                                                  \
                    bi[j] = ((uint32_t)r & m) | (bi[j] & ~m);                                      \
                }                                                                                  \
            for (int64_t j = 0; j < n; j++) AT(uint32_t, d, 0, c0 + j) = bi[j];                   \
        }                                                                                          \
    }
#define ARG_KERNELS(N, T, CT, LD) ARG_KERNELS_CMP(N, T, CT, LD, max, >) ARG_KERNELS_CMP(N, T, CT, LD, min, <)

ARG_KERNELS(f32, float, float, LD_f32)
ARG_KERNELS(f16, uint16_t, float, LD_f16)
ARG_KERNELS(bf16, uint16_t, float, LD_bf16)
ARG_KERNELS(i8, int8_t, int8_t, LD_int)
ARG_KERNELS(u8, uint8_t, uint8_t, LD_int)
ARG_KERNELS(i16, int16_t, int16_t, LD_int)
ARG_KERNELS(u16, uint16_t, uint16_t, LD_int)
ARG_KERNELS(i32, int32_t, int32_t, LD_int)
ARG_KERNELS(u32, uint32_t, uint32_t, LD_int)

#define TYPES(kind, fold)                                                                          \
    {[DT_F32] = kind##_##fold##_f32, [DT_F16] = kind##_##fold##_f16, [DT_BF16] = kind##_##fold##_bf16,                    \
     [DT_I8] = kind##_##fold##_i8, [DT_U8] = kind##_##fold##_u8, [DT_I16] = kind##_##fold##_i16, [DT_U16] = kind##_##fold##_u16, \
     [DT_I32] = kind##_##fold##_i32, [DT_U32] = kind##_##fold##_u32}
/* [columns][extreme: 0 max, 1 min][src dtype] */
static const KernelArgReduce arg_kernels[2][2][DT_COUNT] = {
    {TYPES(row, argmax), TYPES(row, argmin)}, {TYPES(col, argmax), TYPES(col, argmin)}};

/* Instr.a: 1 for a column form */
static int32_t exec_argreduce(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0], *st = &in->t[1];
    TileView *s = use_tile(ip, in, st);
    if (!s) return PC_ERROR;
    bool columns = in->a != 0;
    if (in->defines_dst && !define_tile(ip, in, dt, columns ? 1 : s->vr, columns ? s->vc : 1)) return PC_ERROR;
    TileView *d = use_tile(ip, in, dt);
    if (!d) return PC_ERROR;
    if (columns ? s->vc > dt->cols : s->vr > dt->rows)
        return rt_rule_error(ip, in, columns ? "valid-cols" : "valid-rows",
                             "src has %d valid %s but dst only %d", columns ? s->vc : s->vr, columns ? "cols" : "rows",
                             columns ? dt->cols : dt->rows);
    ((KernelArgReduce)in->extra)(ktile(dt, d), ktile(st, s), s->vr, s->vc);
    return pc + 1;
}

bool lower_argreduce(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_argreduce);
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a src operand");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (in.t[0].dtype != DT_I32 && in.t[0].dtype != DT_U32)
        return lower_error(ctx, op, (SrcLoc){0}, "expects dst element type to be i32 or ui32, got %s",
                           dtype_name(in.t[0].dtype));
    for (int i = 0; i < 2; i++)
        if (boxed(&in.t[i])) return unsupported_boxed(ctx, op, &in.t[i]);
    const OpInfo *info = op_info(op->code);
    in.a = (info->flags & OPF_COLUMNS) ? 1 : 0;
    int fold = fold_of(info->elem);
    KernelArgReduce k = fold == KFOLD_MAX || fold == KFOLD_MIN ? arg_kernels[in.a][fold == KFOLD_MIN][in.t[1].dtype] : NULL;
    if (!k) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[1].dtype));
    in.extra = (const void *)k;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}
