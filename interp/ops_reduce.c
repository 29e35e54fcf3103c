/* ops_reduce.c - the reduction family (ir/ops_reduce.def), as the simulator's TRowSum/TRowMax/
 * TRowMin/TColSum/TColMax/TColMin/TColProd compute them:
 *   - row sums accumulate in float for f16/bf16 and in the element type otherwise, column by
 *     column, and round once; column sums and products accumulate in the element type, rounding
 *     after every step, row by row (each column's order kept, the columns side by side, which
 *     vectorises);
 *   - max/min keep the first of equal values and let a NaN win only as the first element
 *     (std::max / `>`), and copy the chosen element's bits;
 *   - integers wrap.
 * One kernel per fold, element type and direction, chosen at lowering. */
#include "interp_impl.h"

#include <string.h>

typedef void (*KernelReduce)(KTile d, KTile s, int64_t rows, int64_t cols);

#define AT(T, t, r, c) (((T *)(t).p)[(r) * (int64_t)(t).rs + (c) * (int64_t)(t).cs])
#define LD_f32(x) (x)
#define LD_f16(x) fp_f16_to_f32(x)
#define LD_bf16(x) fp_bf16_to_f32(x)
#define ST_f32(x) (x)
#define ST_f16(x) fp_f32_to_f16(x)
#define ST_bf16(x) fp_f32_to_bf16(x)
#define RND_f32(x) (x)
#define RND_f16(x) fp_f16_to_f32(fp_f32_to_f16(x))
#define RND_bf16(x) fp_bf16_to_f32(fp_f32_to_bf16(x))

enum { RED_MAX_COLS = 4096 }; /* column accumulators on the stack: a tile row is at most 2^30 bytes, checked */

/* ---- float-like types ------------------------------------------------------------------------ */
#define FLOAT_REDUCERS(N, T)                                                                       \
    static void row_sum_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            float acc = 0.0f;                                                                      \
            for (int64_t c = 0; c < cols; c++) acc += LD_##N(AT(T, s, r, c));                     \
            AT(T, d, r, 0) = ST_##N(acc);                                                          \
        }                                                                                          \
    }                                                                                              \
    /* std::max(acc, x) / std::min(acc, x): replace only on a strict improvement */                \
    static void row_max_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T best = AT(T, s, r, 0);                                                               \
            float bv = LD_##N(best);                                                               \
            for (int64_t c = 1; c < cols; c++) {                                                   \
                float v = LD_##N(AT(T, s, r, c));                                                  \
                if (bv < v) bv = v, best = AT(T, s, r, c);                                         \
            }                                                                                      \
            AT(T, d, r, 0) = best;                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void row_min_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T best = AT(T, s, r, 0);                                                               \
            float bv = LD_##N(best);                                                               \
            for (int64_t c = 1; c < cols; c++) {                                                   \
                float v = LD_##N(AT(T, s, r, c));                                                  \
                if (v < bv) bv = v, best = AT(T, s, r, c);                                         \
            }                                                                                      \
            AT(T, d, r, 0) = best;                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void col_sum_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t c0 = 0; c0 < cols; c0 += RED_MAX_COLS) {                                      \
            int64_t n = cols - c0 < RED_MAX_COLS ? cols - c0 : RED_MAX_COLS;                       \
            float acc[RED_MAX_COLS];                                                               \
            for (int64_t j = 0; j < n; j++) acc[j] = 0.0f;                                         \
            for (int64_t r = 0; r < rows; r++)                                                     \
                for (int64_t j = 0; j < n; j++) acc[j] = RND_##N(acc[j] + LD_##N(AT(T, s, r, c0 + j))); \
            for (int64_t j = 0; j < n; j++) AT(T, d, 0, c0 + j) = ST_##N(acc[j]);                 \
        }                                                                                          \
    }                                                                                              \
    static void col_prod_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                       \
        for (int64_t c0 = 0; c0 < cols; c0 += RED_MAX_COLS) {                                      \
            int64_t n = cols - c0 < RED_MAX_COLS ? cols - c0 : RED_MAX_COLS;                       \
            float acc[RED_MAX_COLS];                                                               \
            for (int64_t j = 0; j < n; j++) acc[j] = 1.0f;                                         \
            for (int64_t r = 0; r < rows; r++)                                                     \
                for (int64_t j = 0; j < n; j++) acc[j] = RND_##N(acc[j] * LD_##N(AT(T, s, r, c0 + j))); \
            for (int64_t j = 0; j < n; j++) AT(T, d, 0, c0 + j) = ST_##N(acc[j]);                 \
        }                                                                                          \
    }                                                                                              \
    /* `if (src > max) max = src` down each column (first of equals, NaN only first) */            \
    static void col_max_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t c = 0; c < cols; c++) {                                                       \
            T best = AT(T, s, 0, c);                                                               \
            float bv = LD_##N(best);                                                               \
            for (int64_t r = 1; r < rows; r++) {                                                   \
                float v = LD_##N(AT(T, s, r, c));                                                  \
                if (v > bv) bv = v, best = AT(T, s, r, c);                                         \
            }                                                                                      \
            AT(T, d, 0, c) = best;                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void col_min_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t c = 0; c < cols; c++) {                                                       \
            T best = AT(T, s, 0, c);                                                               \
            float bv = LD_##N(best);                                                               \
            for (int64_t r = 1; r < rows; r++) {                                                   \
                float v = LD_##N(AT(T, s, r, c));                                                  \
                if (v < bv) bv = v, best = AT(T, s, r, c);                                         \
            }                                                                                      \
            AT(T, d, 0, c) = best;                                                                 \
        }                                                                                          \
    }

FLOAT_REDUCERS(f32, float)
FLOAT_REDUCERS(f16, uint16_t)
FLOAT_REDUCERS(bf16, uint16_t)

/* ---- integers: sums and products wrap (modulo 2^width, whatever the order) -------------------- */
#define INT_REDUCERS(N, T)                                                                         \
    static void row_sum_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            uint64_t acc = 0;                                                                      \
            for (int64_t c = 0; c < cols; c++) acc += (uint64_t)AT(T, s, r, c);                    \
            AT(T, d, r, 0) = (T)acc;                                                               \
        }                                                                                          \
    }                                                                                              \
    static void row_max_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T best = AT(T, s, r, 0);                                                               \
            for (int64_t c = 1; c < cols; c++) best = best < AT(T, s, r, c) ? AT(T, s, r, c) : best; \
            AT(T, d, r, 0) = best;                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void row_min_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T best = AT(T, s, r, 0);                                                               \
            for (int64_t c = 1; c < cols; c++) best = AT(T, s, r, c) < best ? AT(T, s, r, c) : best; \
            AT(T, d, r, 0) = best;                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void col_sum_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t c = 0; c < cols; c++) {                                                       \
            uint64_t acc = 0;                                                                      \
            for (int64_t r = 0; r < rows; r++) acc += (uint64_t)AT(T, s, r, c);                    \
            AT(T, d, 0, c) = (T)acc;                                                               \
        }                                                                                          \
    }                                                                                              \
    static void col_prod_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                       \
        for (int64_t c = 0; c < cols; c++) {                                                       \
            uint64_t acc = 1;                                                                      \
            for (int64_t r = 0; r < rows; r++) acc *= (uint64_t)AT(T, s, r, c);                    \
            AT(T, d, 0, c) = (T)acc;                                                               \
        }                                                                                          \
    }                                                                                              \
    static void col_max_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t c = 0; c < cols; c++) {                                                       \
            T best = AT(T, s, 0, c);                                                               \
            for (int64_t r = 1; r < rows; r++) best = AT(T, s, r, c) > best ? AT(T, s, r, c) : best; \
            AT(T, d, 0, c) = best;                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void col_min_##N(KTile d, KTile s, int64_t rows, int64_t cols) {                        \
        for (int64_t c = 0; c < cols; c++) {                                                       \
            T best = AT(T, s, 0, c);                                                               \
            for (int64_t r = 1; r < rows; r++) best = AT(T, s, r, c) < best ? AT(T, s, r, c) : best; \
            AT(T, d, 0, c) = best;                                                                 \
        }                                                                                          \
    }

INT_REDUCERS(i8, int8_t)
INT_REDUCERS(u8, uint8_t)
INT_REDUCERS(i16, int16_t)
INT_REDUCERS(u16, uint16_t)
INT_REDUCERS(i32, int32_t)
INT_REDUCERS(u32, uint32_t)

/* [fold][dtype]: sum, max, min, prod; rows then columns (row products are TROWPROD's, a seed op) */
enum { FOLD_SUM, FOLD_MAX, FOLD_MIN, FOLD_PROD, FOLD_COUNT };
#define TYPES(kind, fold)                                                                          \
    {[DT_F32] = kind##_##fold##_f32, [DT_F16] = kind##_##fold##_f16, [DT_BF16] = kind##_##fold##_bf16,                    \
     [DT_I8] = kind##_##fold##_i8, [DT_U8] = kind##_##fold##_u8, [DT_I16] = kind##_##fold##_i16, [DT_U16] = kind##_##fold##_u16, \
     [DT_I32] = kind##_##fold##_i32, [DT_U32] = kind##_##fold##_u32}
static const KernelReduce row_kernels[FOLD_COUNT][DT_COUNT] = {
    [FOLD_SUM] = TYPES(row, sum), [FOLD_MAX] = TYPES(row, max), [FOLD_MIN] = TYPES(row, min)};
static const KernelReduce col_kernels[FOLD_COUNT][DT_COUNT] = {
    [FOLD_SUM] = TYPES(col, sum), [FOLD_MAX] = TYPES(col, max), [FOLD_MIN] = TYPES(col, min), [FOLD_PROD] = TYPES(col, prod)};

static int fold_of(const char *elem) {
    static const char *const names[FOLD_COUNT] = {"sum", "max", "min", "prod"};
    for (int i = 0; i < FOLD_COUNT; i++)
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
    ((KernelReduce)in->extra)(ktile(dt, d), ktile(st, s), s->vr, s->vc);
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
    KernelReduce k = fold < 0 ? NULL : (in.a ? col_kernels : row_kernels)[fold][in.t[0].dtype];
    if (!k) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[0].dtype));
    in.extra = (const void *)k;
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
    KernelArgReduce k = fold == FOLD_MAX || fold == FOLD_MIN ? arg_kernels[in.a][fold == FOLD_MIN][in.t[1].dtype] : NULL;
    if (!k) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[1].dtype));
    in.extra = (const void *)k;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}
