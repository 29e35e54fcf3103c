/* kernels.c - the tile kernels, one function per op and element type, generated from one template
 * per op. Arithmetic per SPEC 2.3: f32 in IEEE single; f16/bf16 computed in f32 and rounded to the
 * element type (nearest even) after every operation; integers in unsigned arithmetic of their width
 * (wrap modulo 2^width, no undefined behaviour).
 *
 * Rows are processed in order. A row whose operands are contiguous and either identical to or
 * disjoint from the destination row takes an unrolled loop the compiler vectorises; any partial
 * overlap takes the element-by-element loop, which gives the sequential (CPU simulator) result. */
#include "kernels.h"

/* An 8-way unrolled loop over i in [0, n) that GCC vectorises at -O2; `ivdep` is sound because
 * callers only use it when the destination is identical to or disjoint from every source. */
#define ROW_LOOP(n, STMT)                                                                          \
    do {                                                                                           \
        int64_t c_ = 0;                                                                            \
        _Pragma("GCC ivdep") for (; c_ + 16 <= (n); c_ += 16) {                                    \
            { int64_t i = c_ + 0; STMT; } { int64_t i = c_ + 1; STMT; }                            \
            { int64_t i = c_ + 2; STMT; } { int64_t i = c_ + 3; STMT; }                            \
            { int64_t i = c_ + 4; STMT; } { int64_t i = c_ + 5; STMT; }                            \
            { int64_t i = c_ + 6; STMT; } { int64_t i = c_ + 7; STMT; }                            \
            { int64_t i = c_ + 8; STMT; } { int64_t i = c_ + 9; STMT; }                            \
            { int64_t i = c_ + 10; STMT; } { int64_t i = c_ + 11; STMT; }                          \
            { int64_t i = c_ + 12; STMT; } { int64_t i = c_ + 13; STMT; }                          \
            { int64_t i = c_ + 14; STMT; } { int64_t i = c_ + 15; STMT; }                          \
        }                                                                                          \
        _Pragma("GCC ivdep") for (; c_ + 8 <= (n); c_ += 8) {                                      \
            { int64_t i = c_ + 0; STMT; } { int64_t i = c_ + 1; STMT; }                            \
            { int64_t i = c_ + 2; STMT; } { int64_t i = c_ + 3; STMT; }                            \
            { int64_t i = c_ + 4; STMT; } { int64_t i = c_ + 5; STMT; }                            \
            { int64_t i = c_ + 6; STMT; } { int64_t i = c_ + 7; STMT; }                            \
        }                                                                                          \
        for (; c_ < (n); c_++) { int64_t i = c_; STMT; }                                           \
    } while (0)

/* True when a destination row [d, d+dlen) may be computed with the vectorised loop against a source
 * range [s, s+slen): the two are disjoint, or (for a full-width source) exactly the same bytes. */
static inline bool rows_independent(const void *d, size_t dlen, const void *s, size_t slen, bool full_width) {
    uintptr_t D = (uintptr_t)d, S = (uintptr_t)s;
    if (full_width && D == S && dlen == slen) return true;
    return D + dlen <= S || S + slen <= D;
}

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Element access: LD converts a stored element to the compute type CT, ST converts back. */
#define LD_SAME(x) (x)
#define ST_SAME(x) (x)
#define LD_F16(x) fp_f16_to_f32(x)
#define ST_F16(x) fp_f32_to_f16(x)
#define LD_BF16(x) fp_bf16_to_f32(x)
#define ST_BF16(x) fp_f32_to_bf16(x)
#define SC_FLOAT(k) ((k).f)
#define LD_U32(x) ((uint32_t)(x))
#define LD_U64(x) ((uint64_t)(x))

#define OP_MUL(a, b) ((a) * (b))
#define OP_SUB(a, b) ((a) - (b))

/* TMULS, TEXPANDS, TROWPROD for one element type. */
#define DEFINE_UNARY_KERNELS(NAME, T, CT, LD, ST, SC)                                              \
    static void tmuls_##NAME(KTile d, KTile s, KScalar k, int64_t rows, int64_t cols) {          \
        const CT kv = SC(k);                                                                       \
        if (d.cs == 1 && s.cs == 1 && d.rs == cols && s.rs == cols) { /* contiguous: one long row */ \
            cols *= rows;                                                                          \
            rows = 1;                                                                              \
        }                                                                                          \
        const size_t len = (size_t)cols * sizeof(T);                                               \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T *dp = (T *)d.p + r * d.rs;                                                           \
            const T *sp = (const T *)s.p + r * s.rs;                                               \
            if (d.cs == 1 && s.cs == 1 && rows_independent(dp, len, sp, len, true)) {              \
                ROW_LOOP(cols, dp[i] = ST(OP_MUL(LD(sp[i]), kv)));                                 \
            } else {                                                                               \
                for (int64_t c = 0; c < cols; c++) dp[c * d.cs] = ST(OP_MUL(LD(sp[c * s.cs]), kv)); \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void fill_##NAME(KTile d, KScalar k, int64_t rows, int64_t cols) {                     \
        const T v = ST(SC(k));                                                                     \
        if (d.cs == 1 && d.rs == cols) {                                                           \
            cols *= rows;                                                                          \
            rows = 1;                                                                              \
        }                                                                                          \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T *dp = (T *)d.p + r * d.rs;                                                           \
            if (d.cs == 1) ROW_LOOP(cols, dp[i] = v);                                              \
            else for (int64_t c = 0; c < cols; c++) dp[c * d.cs] = v;                              \
        }                                                                                          \
    }                                                                                              \
    static void trowprod_##NAME(KTile d, KTile s, int64_t rows, int64_t cols) {                   \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            const T *sp = (const T *)s.p + r * s.rs;                                               \
            CT p = (CT)1;                                                                          \
            for (int64_t c = 0; c < cols; c++) p = LD(ST(OP_MUL(p, LD(sp[c * s.cs]))));            \
            ((T *)d.p)[r * d.rs] = ST(p);                                                          \
        }                                                                                          \
    }

/* TROWEXPAND<OP> for one element type: dst(r,c) = src0(r, c mod m0) OP src1(r, c mod m1). */
#define DEFINE_ROWEXPAND_KERNEL(OPNAME, OP, NAME, T, CT, LD, ST)                                   \
    static void rowexpand_##OPNAME##_##NAME(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, \
                                            int64_t ma, int64_t mb) {                              \
        const size_t es = sizeof(T);                                                               \
        if (ma >= cols && mb >= cols && d.cs == 1 && a.cs == 1 && b.cs == 1 && d.rs == cols &&      \
            a.rs == cols && b.rs == cols) { /* elementwise over contiguous rows: one long row */   \
            cols *= rows;                                                                          \
            ma = mb = cols;                                                                        \
            rows = 1;                                                                              \
        }                                                                                          \
        const bool a_contig = ma == 1 || a.cs == 1, b_contig = mb == 1 || b.cs == 1;               \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            T *dp = (T *)d.p + r * d.rs;                                                           \
            const T *ap = (const T *)a.p + r * a.rs;                                               \
            const T *bp = (const T *)b.p + r * b.rs;                                               \
            if (d.cs == 1 && a_contig && b_contig &&                                               \
                rows_independent(dp, (size_t)cols * es, ap, (size_t)min64(ma, cols) * es, ma >= cols) && \
                rows_independent(dp, (size_t)cols * es, bp, (size_t)min64(mb, cols) * es, mb >= cols)) { \
                if (ma >= cols && mb >= cols) {                                                    \
                    ROW_LOOP(cols, dp[i] = ST(OP(LD(ap[i]), LD(bp[i]))));                          \
                    continue;                                                                      \
                }                                                                                  \
                if (ma >= cols && mb == 1) {                                                       \
                    const CT e = LD(bp[0]);                                                        \
                    ROW_LOOP(cols, dp[i] = ST(OP(LD(ap[i]), e)));                                  \
                    continue;                                                                      \
                }                                                                                  \
                if (ma == 1 && mb >= cols) {                                                       \
                    const CT e = LD(ap[0]);                                                        \
                    ROW_LOOP(cols, dp[i] = ST(OP(e, LD(bp[i]))));                                  \
                    continue;                                                                      \
                }                                                                                  \
                if (ma >= cols) {                                                                  \
                    for (int64_t c0 = 0; c0 < cols; c0 += mb) {                                    \
                        const int64_t n = min64(mb, cols - c0);                                    \
                        T *dq = dp + c0;                                                           \
                        const T *aq = ap + c0;                                                     \
                        ROW_LOOP(n, dq[i] = ST(OP(LD(aq[i]), LD(bp[i]))));                         \
                    }                                                                              \
                    continue;                                                                      \
                }                                                                                  \
                if (mb >= cols) {                                                                  \
                    for (int64_t c0 = 0; c0 < cols; c0 += ma) {                                    \
                        const int64_t n = min64(ma, cols - c0);                                    \
                        T *dq = dp + c0;                                                           \
                        const T *bq = bp + c0;                                                     \
                        ROW_LOOP(n, dq[i] = ST(OP(LD(ap[i]), LD(bq[i]))));                         \
                    }                                                                              \
                    continue;                                                                      \
                }                                                                                  \
            }                                                                                      \
            int64_t ca = 0, cb = 0;                                                                \
            for (int64_t c = 0; c < cols; c++) {                                                   \
                dp[c * d.cs] = ST(OP(LD(ap[ca * a.cs]), LD(bp[cb * b.cs])));                       \
                if (++ca == ma) ca = 0;                                                            \
                if (++cb == mb) cb = 0;                                                            \
            }                                                                                      \
        }                                                                                          \
    }

#define DEFINE_ALL_KERNELS(NAME, T, CT, LD, ST, SC)                                                \
    DEFINE_UNARY_KERNELS(NAME, T, CT, LD, ST, SC)                                                  \
    DEFINE_ROWEXPAND_KERNEL(mul, OP_MUL, NAME, T, CT, LD, ST)                                      \
    DEFINE_ROWEXPAND_KERNEL(sub, OP_SUB, NAME, T, CT, LD, ST)

#define SC_U32(k) ((uint32_t)(k).u)
#define SC_U64(k) ((uint64_t)(k).u)
/* Narrowing an unsigned result to a signed element type keeps the low bits (two's complement, as
 * GCC and Clang define the conversion). */
#define ST_I8(x) ((int8_t)(x))
#define ST_U8(x) ((uint8_t)(x))
#define ST_I16(x) ((int16_t)(x))
#define ST_U16(x) ((uint16_t)(x))
#define ST_I32(x) ((int32_t)(x))
#define ST_U32(x) ((uint32_t)(x))
#define ST_I64(x) ((int64_t)(x))
#define ST_U64(x) ((uint64_t)(x))

DEFINE_ALL_KERNELS(f32, float, float, LD_SAME, ST_SAME, SC_FLOAT)
DEFINE_ALL_KERNELS(f16, uint16_t, float, LD_F16, ST_F16, SC_FLOAT)
DEFINE_ALL_KERNELS(bf16, uint16_t, float, LD_BF16, ST_BF16, SC_FLOAT)
DEFINE_ALL_KERNELS(i8, int8_t, uint32_t, LD_U32, ST_I8, SC_U32)
DEFINE_ALL_KERNELS(u8, uint8_t, uint32_t, LD_U32, ST_U8, SC_U32)
DEFINE_ALL_KERNELS(i16, int16_t, uint32_t, LD_U32, ST_I16, SC_U32)
DEFINE_ALL_KERNELS(u16, uint16_t, uint32_t, LD_U32, ST_U16, SC_U32)
DEFINE_ALL_KERNELS(i32, int32_t, uint32_t, LD_U32, ST_I32, SC_U32)
DEFINE_ALL_KERNELS(u32, uint32_t, uint32_t, LD_U32, ST_U32, SC_U32)
DEFINE_ALL_KERNELS(i64, int64_t, uint64_t, LD_U64, ST_I64, SC_U64)
DEFINE_ALL_KERNELS(u64, uint64_t, uint64_t, LD_U64, ST_U64, SC_U64)

/* Picks the kernel of PREFIX for an element type. */
#define KERNEL_SWITCH(PREFIX, dt)                                                                  \
    switch (dt) {                                                                                  \
    case DT_F32: return PREFIX##f32;                                                               \
    case DT_F16: return PREFIX##f16;                                                               \
    case DT_BF16: return PREFIX##bf16;                                                             \
    case DT_I8: return PREFIX##i8;                                                                 \
    case DT_U8: return PREFIX##u8;                                                                 \
    case DT_I16: return PREFIX##i16;                                                               \
    case DT_U16: return PREFIX##u16;                                                               \
    case DT_I32: return PREFIX##i32;                                                               \
    case DT_U32: return PREFIX##u32;                                                               \
    case DT_I64: return PREFIX##i64;                                                               \
    case DT_U64: return PREFIX##u64;                                                               \
    default: return NULL;                                                                          \
    }

KernelTileScalar kernel_tmuls(DType dt) { KERNEL_SWITCH(tmuls_, dt) }

KernelFill kernel_fill(DType dt) { KERNEL_SWITCH(fill_, dt) }

KernelRowReduce kernel_trowprod(DType dt) { KERNEL_SWITCH(trowprod_, dt) }

KernelRowExpand kernel_trowexpandmul(DType dt) { KERNEL_SWITCH(rowexpand_mul_, dt) }

KernelRowExpand kernel_trowexpandsub(DType dt) { KERNEL_SWITCH(rowexpand_sub_, dt) }
