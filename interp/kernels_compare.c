/* kernels_compare.c - kernels of the compare and select, generators family (kernels_compare.h).
 * The row compare kernels are instantiated per element type and compare mode, so the mode is
 * chosen once at lowering and never tested per element. Built with -O3 (Makefile). */
#include "kernels_compare.h"

#include <math.h>
#include <string.h>

/* ---- element loads: the value each element type compares as ------------------------------ */
#define KC_S_f32 float
#define KC_S_f16 uint16_t
#define KC_S_bf16 uint16_t
#define KC_S_i8 int8_t
#define KC_S_u8 uint8_t
#define KC_S_i16 int16_t
#define KC_S_u16 uint16_t
#define KC_S_i32 int32_t
#define KC_S_u32 uint32_t
#define KC_V_f32 float
#define KC_V_f16 float
#define KC_V_bf16 float
#define KC_V_i8 int8_t
#define KC_V_u8 uint8_t
#define KC_V_i16 int16_t
#define KC_V_u16 uint16_t
#define KC_V_i32 int32_t
#define KC_V_u32 uint32_t
#define KC_LD_f32(x) (x)
#define KC_LD_f16(x) fp_f16_to_f32(x)
#define KC_LD_bf16(x) fp_bf16_to_f32(x)
#define KC_LD_i8(x) (x)
#define KC_LD_u8(x) (x)
#define KC_LD_i16(x) (x)
#define KC_LD_u16(x) (x)
#define KC_LD_i32(x) (x)
#define KC_LD_u32(x) (x)
/* the TCMPS scalar, converted to the element type at lowering */
#define KC_K_f32(k) ((k).f)
#define KC_K_f16(k) ((k).f)
#define KC_K_bf16(k) ((k).f)
#define KC_K_i8(k) ((int8_t)(k).u)
#define KC_K_u8(k) ((uint8_t)(k).u)
#define KC_K_i16(k) ((int16_t)(k).u)
#define KC_K_u16(k) ((uint16_t)(k).u)
#define KC_K_i32(k) ((int32_t)(k).u)
#define KC_K_u32(k) ((uint32_t)(k).u)

/* TCMP: exact compares (TCmp.h CmpResult) */
#define KC_EXACT_eq(a, b) ((a) == (b))
#define KC_EXACT_ne(a, b) ((a) != (b))
#define KC_EXACT_lt(a, b) ((a) < (b))
#define KC_EXACT_le(a, b) ((a) <= (b))
#define KC_EXACT_gt(a, b) ((a) > (b))
#define KC_EXACT_ge(a, b) ((a) >= (b))
/* TCMPS: EQ and NE on the double difference with a 1e-9 tolerance, NE true when either is NaN
 * (TCmps.hpp CmpCall); the others exact */
#define KC_TOL_eq(a, b) (fabs((double)(a) - (double)(b)) < 1e-9)
#define KC_TOL_ne(a, b) (((a) != (a) || (b) != (b)) ? 1 : (fabs((double)(a) - (double)(b)) > 1e-9))
#define KC_TOL_lt KC_EXACT_lt
#define KC_TOL_le KC_EXACT_le
#define KC_TOL_gt KC_EXACT_gt
#define KC_TOL_ge KC_EXACT_ge

#define KC_DEF(T, m)                                                                                         \
    static void kc_cmp_##T##_##m(const uint8_t *a, int64_t as, const uint8_t *b, int64_t bs, int64_t n,      \
                                 uint8_t *out) {                                                             \
        const KC_S_##T *pa = (const KC_S_##T *)(const void *)a, *pb = (const KC_S_##T *)(const void *)b;     \
        for (int64_t c = 0; c < n; c++) {                                                                    \
            const KC_V_##T x = KC_LD_##T(pa[c * as]), y = KC_LD_##T(pb[c * bs]);                             \
            out[c] = (uint8_t)(KC_EXACT_##m(x, y) ? 1 : 0);                                                  \
        }                                                                                                    \
    }                                                                                                        \
    static void kc_cmps_##T##_##m(const uint8_t *a, int64_t as, KScalar k, int64_t n, uint8_t *out) {        \
        const KC_S_##T *pa = (const KC_S_##T *)(const void *)a;                                              \
        const KC_V_##T y = KC_K_##T(k);                                                                      \
        for (int64_t c = 0; c < n; c++) {                                                                    \
            const KC_V_##T x = KC_LD_##T(pa[c * as]);                                                        \
            out[c] = (uint8_t)(KC_TOL_##m(x, y) ? 1 : 0);                                                    \
        }                                                                                                    \
    }
#define KC_DEF_MODES(T) KC_DEF(T, eq) KC_DEF(T, ne) KC_DEF(T, lt) KC_DEF(T, le) KC_DEF(T, gt) KC_DEF(T, ge)
#define KC_FOR_TYPES(X) X(f32) X(f16) X(bf16) X(i8) X(u8) X(i16) X(u16) X(i32) X(u32)

/* integer NaN tests (a != a) are always false; the compiler may say so */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtautological-compare"
KC_FOR_TYPES(KC_DEF_MODES)
#pragma GCC diagnostic pop

#define KC_ROW(T) [KDT(T)] = {kc_cmp_##T##_eq, kc_cmp_##T##_ne, kc_cmp_##T##_lt, kc_cmp_##T##_le, kc_cmp_##T##_gt, kc_cmp_##T##_ge},
#define KC_ROWS(T) [KDT(T)] = {kc_cmps_##T##_eq, kc_cmps_##T##_ne, kc_cmps_##T##_lt, kc_cmps_##T##_le, kc_cmps_##T##_gt, kc_cmps_##T##_ge},

static const CmpRowFn cmp_table[DT_COUNT][CMP_MODE_COUNT] = {KC_FOR_TYPES(KC_ROW)};
static const CmpsRowFn cmps_table[DT_COUNT][CMP_MODE_COUNT] = {KC_FOR_TYPES(KC_ROWS)};

CmpRowFn cmp_row_kernel(DType dt, int mode) {
    if ((unsigned)dt >= DT_COUNT || mode < 0 || mode >= CMP_MODE_COUNT) return NULL;
    return cmp_table[dt][mode];
}

CmpsRowFn cmps_row_kernel(DType dt, int mode) {
    if ((unsigned)dt >= DT_COUNT || mode < 0 || mode >= CMP_MODE_COUNT) return NULL;
    return cmps_table[dt][mode];
}

/* ---- packing -------------------------------------------------------------------------------- */

void kernel_tcmp(KTile dst, int word_size, int64_t dst_bytes, int64_t dst_vc, KTile s0, KTile s1, int src_es,
                 int64_t rows, int64_t cols, CmpRowFn row, uint8_t *scratch) {
    memset(dst.p, 0, (size_t)dst_bytes);
    const int64_t K = 8 * (int64_t)word_size, words = (cols + K - 1) / K;
    const int64_t nw = words < dst_vc ? words : dst_vc;
    const int64_t n = nw * K < cols ? nw * K : cols; /* the elements whose bits land in written words */
    for (int64_t r = 0; r < rows; r++) {
        row(s0.p + r * s0.rs * src_es, s0.cs, s1.p + r * s1.rs * src_es, s1.cs, n, scratch);
        for (int64_t w = 0; w < nw; w++) {
            uint32_t word = 0;
            const int64_t base = w * K, m = n - base < K ? n - base : K;
            for (int64_t b = 0; b < m; b++) word |= (uint32_t)scratch[base + b] << b;
            uint8_t *at = dst.p + (r * dst.rs + w * dst.cs) * word_size;
            if (word_size == 4) memcpy(at, &word, 4);
            else *at = (uint8_t)word;
        }
    }
}

/* The element bit pattern of byte value v as type dt (as static_cast<DType>(uint8_t) does). */
static uint32_t byte_as(DType dt, uint8_t v) {
    switch (dt) {
    case DT_F32: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); return u; }
    case DT_F16: return fp_f32_to_f16((float)v);
    case DT_BF16: return fp_f32_to_bf16((float)v);
    default: return v; /* integers: zero-extended */
    }
}

void kernel_tcmps(KTile dst, int64_t dst_bytes, int64_t dst_numel, int64_t dvr, int64_t dvc, KTile src, int src_es,
                  int64_t H, int64_t W, int64_t svr, int64_t svc, KScalar k, CmpsRowFn row, DType dst_dtype,
                  uint8_t *scratch) {
    memset(dst.p, 0, (size_t)dst_bytes);
    if (dvc <= 0) return;
    const int64_t bpr = W / 8, total = H * bpr; /* packed bytes per physical row, in all */
    const int64_t des = (int64_t)dtype_size(dst_dtype);
    uint32_t pattern[256]; /* each byte value as a dst element, decided once per call */
    for (int v = 0; v < 256; v++) pattern[v] = byte_as(dst_dtype, (uint8_t)v);
    int64_t cached = -1;                           /* the source row whose results are in scratch */
    for (int64_t c = 0; c < total && c < dst_numel; c++) {
        const int64_t i = c / dvc, j = c % dvc;
        if (i >= dvr) break;
        const int64_t h = c / bpr, ib = c % bpr;
        if (h != cached) {
            memset(scratch, 0, (size_t)W);
            if (h < svr) row(src.p + h * src.rs * src_es, src.cs, k, svc, scratch);
            cached = h;
        }
        uint8_t byte = 0;
        for (int b = 0; b < 8; b++) byte |= (uint8_t)(scratch[ib * 8 + b] << b);
        memcpy(dst.p + (i * dst.rs + j * dst.cs) * des, &pattern[byte], (size_t)des); /* little-endian host */
    }
}

/* ---- selection -------------------------------------------------------------------------------- */

/* The low byte of a little-endian mask element is its first byte. */
#define KS_DEF_TSEL(ES, S)                                                                                    \
    static void ks_tsel_##ES(KTile d, KTile m, KTile a, KTile b, int64_t rows, int64_t cols, int64_t mvc, int mes) { \
        int64_t mr = 0, mc = 0;                                                                               \
        int bit = 0;                                                                                          \
        for (int64_t r = 0; r < rows; r++)                                                                    \
            for (int64_t c = 0; c < cols; c++) {                                                              \
                const uint8_t mb = m.p[(mr * m.rs + mc * m.cs) * mes];                                        \
                const int set = (mb >> bit) & 1;                                                              \
                if (++bit == 8) {                                                                             \
                    bit = 0;                                                                                  \
                    if (++mc == mvc) mr++, mc = 0;                                                            \
                }                                                                                             \
                const int64_t od = r * d.rs + c * d.cs;                                                       \
                ((S *)(void *)d.p)[od] = set ? ((const S *)(const void *)a.p)[r * a.rs + c * a.cs]            \
                                             : ((const S *)(const void *)b.p)[r * b.rs + c * b.cs];           \
            }                                                                                                 \
    }
KS_DEF_TSEL(1, uint8_t)
KS_DEF_TSEL(2, uint16_t)
KS_DEF_TSEL(4, uint32_t)
KS_DEF_TSEL(8, uint64_t)

void kernel_tsel(KTile dst, KTile mask, KTile s0, KTile s1, int64_t rows, int64_t cols, int64_t mask_vc, int es,
                 int mes) {
    switch (es) {
    case 1: ks_tsel_1(dst, mask, s0, s1, rows, cols, mask_vc, mes); break;
    case 2: ks_tsel_2(dst, mask, s0, s1, rows, cols, mask_vc, mes); break;
    case 4: ks_tsel_4(dst, mask, s0, s1, rows, cols, mask_vc, mes); break;
    default: ks_tsel_8(dst, mask, s0, s1, rows, cols, mask_vc, mes); break;
    }
}

/* A mask element of `mes` bytes, zero-extended. */
static inline uint64_t load_mask(const uint8_t *p, int mes) {
    uint64_t v = 0;
    memcpy(&v, p, (size_t)mes); /* little-endian host */
    return v;
}

#define KS_DEF_TSELS(ES, S)                                                                                   \
    static void ks_tsels_##ES(KTile d, KTile m, KTile a, uint64_t kbits, int64_t rows, int64_t cols, int mes) { \
        const int64_t B = 8 * (int64_t)mes;                                                                   \
        const S k = (S)kbits;                                                                                 \
        for (int64_t r = 0; r < rows; r++)                                                                    \
            for (int64_t c = 0; c < cols; c++) {                                                              \
                const uint64_t mv = load_mask(m.p + (r * m.rs + (c / B) * m.cs) * mes, mes);                  \
                ((S *)(void *)d.p)[r * d.rs + c * d.cs] =                                                     \
                    ((mv >> (c % B)) & 1) ? ((const S *)(const void *)a.p)[r * a.rs + c * a.cs] : k;          \
            }                                                                                                 \
    }
KS_DEF_TSELS(1, uint8_t)
KS_DEF_TSELS(2, uint16_t)
KS_DEF_TSELS(4, uint32_t)
KS_DEF_TSELS(8, uint64_t)

void kernel_tsels(KTile dst, KTile mask, KTile src, uint64_t scalar_bits, int64_t rows, int64_t cols, int es,
                  int mes) {
    switch (es) {
    case 1: ks_tsels_1(dst, mask, src, scalar_bits, rows, cols, mes); break;
    case 2: ks_tsels_2(dst, mask, src, scalar_bits, rows, cols, mes); break;
    case 4: ks_tsels_4(dst, mask, src, scalar_bits, rows, cols, mes); break;
    default: ks_tsels_8(dst, mask, src, scalar_bits, rows, cols, mes); break;
    }
}

/* ---- generators ------------------------------------------------------------------------------ */

void kernel_tci(KTile dst, int64_t start, bool descending, int64_t cols, int es) {
    for (int64_t j = 0; j < cols; j++) {
        const uint64_t v = descending ? (uint64_t)start - (uint64_t)j : (uint64_t)start + (uint64_t)j; /* wraps */
        uint8_t *at = dst.p + j * dst.cs * es;
        if (es == 2) { uint16_t h = (uint16_t)v; memcpy(at, &h, 2); }
        else { uint32_t w = (uint32_t)v; memcpy(at, &w, 4); }
    }
}

void kernel_ttri(KTile dst, int64_t rows, int64_t cols, int32_t diag, bool upper, uint64_t one_bits, int es) {
    const uint64_t zero = 0;
    for (int64_t r = 0; r < rows; r++) {
        const int64_t edge = (int64_t)diag + r + (upper ? 0 : 1); /* columns below edge: lower 1, upper 0 */
        for (int64_t c = 0; c < cols; c++) {
            const bool one = upper ? c >= edge : c < edge;
            memcpy(dst.p + (r * dst.rs + c * dst.cs) * es, one ? &one_bits : &zero, (size_t)es);
        }
    }
}
