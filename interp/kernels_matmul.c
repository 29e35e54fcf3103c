/* kernels_matmul.c - the f32 matmul row kernel (interp/ops_cube.c): row[j] = the fmaf chain over
 * k of a_row[k] * b[k][j], from +0, k in order. The portable kernel calls fmaf per element; on
 * x86-64 CPUs with FMA the same chains run 8 columns at a time with vfmadd (one rounding per step,
 * exactly fmaf), so the vectorisation goes across output columns and never reorders a chain. The
 * rows kernel runs two rows of the product together (AVX-512: four rows of 64 columns), sharing each
 * load of b. Where NaNs meet, every path keeps the simulator's: a step keeps a's NaN, else b's, else
 * the accumulator's (fma_step). Which one a vfmadd or a call of fmaf keeps depends on the order
 * of its operands, which the compiler may swap (it treats the two factors as commutative), so
 * the vector paths compute a NaN output again with fma_step, and the portable kernel calls it. */
#include "kernels.h"

#include <math.h>
#include <string.h>

/* One step of the chain, acc + a * b in one rounding: a NaN factor is kept as such, a's before
 * b's (quieted, as the FMA unit does), as the simulator's std::fma(a, b, acc) keeps it built by g++
 * (tests/sim tmatmul_f32_16x32x16_special); fmaf then sees no NaN factor, and keeps a NaN
 * accumulator or makes the default NaN of an invalid product (inf * 0) or sum (inf - inf). */
static inline float fma_step(float a, float b, float acc) {
    if (a != a) return a + a;
    if (b != b) return b + b;
    return fmaf(a, b, acc);
}

#if KERNELS_HAVE_AVX2
#include <immintrin.h>

/* Outputs j0 .. j1 - 1 of a row that a vector path made NaN, again by fma_step (NaNs are rare). */
static __attribute__((noinline, cold)) void redo_nan_outputs(const float *a_row, const float *b, int64_t K, int64_t N,
                                                             int64_t j0, int64_t j1, float *row) {
    for (int64_t j = j0; j < j1; j++) {
        if (row[j] == row[j]) continue;
        float s = 0.0f;
        for (int64_t k = 0; k < K; k++) s = fma_step(a_row[k], b[k * N + j], s);
        row[j] = s;
    }
}

/* Whether any of row[j0 .. j1 - 1] is a NaN (a loop the compiler vectorises). */
static inline bool any_nan(const float *row, int64_t j0, int64_t j1) {
    int nan = 0;
    for (int64_t j = j0; j < j1; j++) nan |= row[j] != row[j];
    return nan;
}

static inline void fix_nan_outputs(const float *a_row, const float *b, int64_t K, int64_t N, int64_t j0, int64_t j1,
                                   float *row) {
    if (any_nan(row, j0, j1)) redo_nan_outputs(a_row, b, K, N, j0, j1, row);
}

#pragma GCC push_options
#pragma GCC target("avx2,fma")
/* Columns j0.. N-1 of one row (b's rows are N floats apart): 32, then 8 at a time, then one. */
static void chain_cols_fma(const float *a_row, const float *b, int64_t K, int64_t N, int64_t j0, float *row) {
    int64_t j = j0;
    for (; j + 32 <= N; j += 32) { /* four vectors of accumulators in registers across the k loop */
        __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
        for (int64_t k = 0; k < K; k++) {
            const __m256 x = _mm256_set1_ps(a_row[k]);
            const float *bk = b + k * N + j;
            s0 = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk), s0);
            s1 = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk + 8), s1);
            s2 = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk + 16), s2);
            s3 = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk + 24), s3);
        }
        _mm256_storeu_ps(row + j, s0);
        _mm256_storeu_ps(row + j + 8, s1);
        _mm256_storeu_ps(row + j + 16, s2);
        _mm256_storeu_ps(row + j + 24, s3);
    }
    for (; j + 8 <= N; j += 8) {
        __m256 s = _mm256_setzero_ps();
        for (int64_t k = 0; k < K; k++) s = _mm256_fmadd_ps(_mm256_set1_ps(a_row[k]), _mm256_loadu_ps(b + k * N + j), s);
        _mm256_storeu_ps(row + j, s);
    }
    for (; j < N; j++) {
        float s = 0.0f;
        for (int64_t k = 0; k < K; k++) s = fmaf(a_row[k], b[k * N + j], s);
        row[j] = s;
    }
    fix_nan_outputs(a_row, b, K, N, j0, N, row);
}

static void chain_row_fma(const float *a_row, const float *b, int64_t K, int64_t N, float *row) {
    chain_cols_fma(a_row, b, K, N, 0, row);
}

/* Two rows at a time: each b vector loaded once feeds both rows' chains, and the eight independent
 * accumulators keep the FMA units busy (one row's four wait on the FMA latency). */
static void chain_rows_fma(const float *a, int64_t M, const float *b, int64_t K, int64_t N, float *out) {
    int64_t i = 0;
    for (; i + 2 <= M; i += 2) {
        const float *a0 = a + i * K, *a1 = a0 + K;
        float *o0 = out + i * N, *o1 = o0 + N;
        int64_t j = 0;
        for (; j + 32 <= N; j += 32) {
            __m256 s00 = _mm256_setzero_ps(), s01 = s00, s02 = s00, s03 = s00, s10 = s00, s11 = s00, s12 = s00, s13 = s00;
            for (int64_t k = 0; k < K; k++) {
                const float *bk = b + k * N + j;
                const __m256 b0 = _mm256_loadu_ps(bk), b1 = _mm256_loadu_ps(bk + 8), b2 = _mm256_loadu_ps(bk + 16),
                             b3 = _mm256_loadu_ps(bk + 24);
                const __m256 x0 = _mm256_broadcast_ss(a0 + k), x1 = _mm256_broadcast_ss(a1 + k);
                s00 = _mm256_fmadd_ps(x0, b0, s00);
                s01 = _mm256_fmadd_ps(x0, b1, s01);
                s02 = _mm256_fmadd_ps(x0, b2, s02);
                s03 = _mm256_fmadd_ps(x0, b3, s03);
                s10 = _mm256_fmadd_ps(x1, b0, s10);
                s11 = _mm256_fmadd_ps(x1, b1, s11);
                s12 = _mm256_fmadd_ps(x1, b2, s12);
                s13 = _mm256_fmadd_ps(x1, b3, s13);
            }
            _mm256_storeu_ps(o0 + j, s00);
            _mm256_storeu_ps(o0 + j + 8, s01);
            _mm256_storeu_ps(o0 + j + 16, s02);
            _mm256_storeu_ps(o0 + j + 24, s03);
            _mm256_storeu_ps(o1 + j, s10);
            _mm256_storeu_ps(o1 + j + 8, s11);
            _mm256_storeu_ps(o1 + j + 16, s12);
            _mm256_storeu_ps(o1 + j + 24, s13);
        }
        fix_nan_outputs(a0, b, K, N, 0, j, o0);
        fix_nan_outputs(a1, b, K, N, 0, j, o1);
        chain_cols_fma(a0, b, K, N, j, o0);
        chain_cols_fma(a1, b, K, N, j, o1);
    }
    for (; i < M; i++) chain_cols_fma(a + i * K, b, K, N, 0, out + i * N);
}
#pragma GCC pop_options

/* Four rows x 64 columns at a time in AVX-512 registers (sixteen accumulators: every b vector
 * feeds four rows' chains); the rest of the columns and rows through chain_rows_fma's paths. */
__attribute__((target("avx512f,avx2,fma"))) static void chain_rows_avx512(const float *a, int64_t M, const float *b,
                                                                          int64_t K, int64_t N, float *out) {
    int64_t i = 0, n64 = N - N % 64;
    for (; i + 4 <= M && n64 > 0; i += 4) {
        const float *a0 = a + i * K, *a1 = a0 + K, *a2 = a1 + K, *a3 = a2 + K;
        for (int64_t j = 0; j < n64; j += 64) {
            __m512 s[4][4];
            for (int x = 0; x < 4; x++)
                for (int y = 0; y < 4; y++) s[x][y] = _mm512_setzero_ps();
            for (int64_t k = 0; k < K; k++) {
                const float *bk = b + k * N + j;
                const __m512 b0 = _mm512_loadu_ps(bk), b1 = _mm512_loadu_ps(bk + 16), b2 = _mm512_loadu_ps(bk + 32),
                             b3 = _mm512_loadu_ps(bk + 48);
                const __m512 x[4] = {_mm512_set1_ps(a0[k]), _mm512_set1_ps(a1[k]), _mm512_set1_ps(a2[k]),
                                     _mm512_set1_ps(a3[k])};
                for (int r = 0; r < 4; r++) {
                    s[r][0] = _mm512_fmadd_ps(x[r], b0, s[r][0]);
                    s[r][1] = _mm512_fmadd_ps(x[r], b1, s[r][1]);
                    s[r][2] = _mm512_fmadd_ps(x[r], b2, s[r][2]);
                    s[r][3] = _mm512_fmadd_ps(x[r], b3, s[r][3]);
                }
            }
            for (int r = 0; r < 4; r++)
                for (int y = 0; y < 4; y++) _mm512_storeu_ps(out + (i + r) * N + j + 16 * y, s[r][y]);
        }
        for (int r = 0; r < 4; r++) {
            fix_nan_outputs(a + (i + r) * K, b, K, N, 0, n64, out + (i + r) * N);
            chain_cols_fma(a + (i + r) * K, b, K, N, n64, out + (i + r) * N);
        }
    }
    if (i < M) chain_rows_fma(a + i * K, M - i, b, K, N, out + i * N);
}

/* transpose16_u16 with AVX2: four rounds of unpacks (16-, 32-, 64-bit, then 128-bit halves). */
__attribute__((target("avx2"))) static void transpose16_avx2(const uint8_t *const src[16], uint8_t *const dst[16]) {
    __m256i r[16], t[16];
    for (int i = 0; i < 16; i++) r[i] = _mm256_loadu_si256((const __m256i *)src[i]);
    for (int p = 0; p < 8; p++) { /* rows 2p, 2p+1 interleaved: columns 0-3 | 8-11, then 4-7 | 12-15 */
        t[2 * p] = _mm256_unpacklo_epi16(r[2 * p], r[2 * p + 1]);
        t[2 * p + 1] = _mm256_unpackhi_epi16(r[2 * p], r[2 * p + 1]);
    }
    for (int q = 0; q < 4; q++) { /* rows 4q..4q+3: columns (0,1), (2,3), (4,5), (6,7) | the same + 8 */
        r[4 * q] = _mm256_unpacklo_epi32(t[4 * q], t[4 * q + 2]);
        r[4 * q + 1] = _mm256_unpackhi_epi32(t[4 * q], t[4 * q + 2]);
        r[4 * q + 2] = _mm256_unpacklo_epi32(t[4 * q + 1], t[4 * q + 3]);
        r[4 * q + 3] = _mm256_unpackhi_epi32(t[4 * q + 1], t[4 * q + 3]);
    }
    for (int g = 0; g < 2; g++) /* rows 8g..8g+7: t[8g + c] holds column c | column c + 8 */
        for (int m = 0; m < 4; m++) {
            t[8 * g + 2 * m] = _mm256_unpacklo_epi64(r[8 * g + m], r[8 * g + 4 + m]);
            t[8 * g + 2 * m + 1] = _mm256_unpackhi_epi64(r[8 * g + m], r[8 * g + 4 + m]);
        }
    for (int c = 0; c < 8; c++) {
        _mm256_storeu_si256((__m256i *)dst[c], _mm256_permute2x128_si256(t[c], t[8 + c], 0x20));
        _mm256_storeu_si256((__m256i *)dst[c + 8], _mm256_permute2x128_si256(t[c], t[8 + c], 0x31));
    }
}

/* Rows of 16 f16 / bf16 bit patterns widened to floats: F16C's vcvtph2ps (exact, NaN made quiet as
 * fp_f16_to_f32 does) or the bf16 bits moved up 16. */
__attribute__((target("avx2,f16c"))) static void widen16_avx2(bool f16, const uint16_t (*box)[16], float *out,
                                                               int64_t ld) {
    for (int i = 0; i < 16; i++) {
        const __m128i lo = _mm_loadu_si128((const __m128i *)box[i]), hi = _mm_loadu_si128((const __m128i *)(box[i] + 8));
        float *o = out + i * ld;
        if (f16) {
            _mm256_storeu_ps(o, _mm256_cvtph_ps(lo));
            _mm256_storeu_ps(o + 8, _mm256_cvtph_ps(hi));
        } else {
            _mm256_storeu_si256((__m256i *)o, _mm256_slli_epi32(_mm256_cvtepu16_epi32(lo), 16));
            _mm256_storeu_si256((__m256i *)(o + 8), _mm256_slli_epi32(_mm256_cvtepu16_epi32(hi), 16));
        }
    }
}
#endif

static void transpose16_portable(const uint8_t *const src[16], uint8_t *const dst[16]) {
    uint16_t box[16][16];
    for (int i = 0; i < 16; i++) memcpy(box[i], src[i], 32);
    for (int c = 0; c < 16; c++) {
        uint16_t col[16];
        for (int i = 0; i < 16; i++) col[i] = box[i][c];
        memcpy(dst[c], col, 32);
    }
}

void transpose16_u16(KernelIsa isa, const uint8_t *const src[16], uint8_t *const dst[16]) {
#if KERNELS_HAVE_AVX2
    if (isa != KISA_PORTABLE) {
        transpose16_avx2(src, dst);
        return;
    }
#endif
    (void)isa;
    transpose16_portable(src, dst);
}

void transpose16_widen(KernelIsa isa, DType dt, const uint8_t *const src[16], float *out, int64_t ld) {
    uint16_t box[16][16];
    uint8_t *rows[16];
    for (int i = 0; i < 16; i++) rows[i] = (uint8_t *)box[i];
    transpose16_u16(isa, src, rows);
#if KERNELS_HAVE_AVX2
    if (isa != KISA_PORTABLE) {
        widen16_avx2(dt == DT_F16, (const uint16_t (*)[16])box, out, ld);
        return;
    }
#endif
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) out[i * ld + j] = dt == DT_F16 ? fp_f16_to_f32(box[i][j]) : fp_bf16_to_f32(box[i][j]);
}

static void chain_row_portable(const float *a_row, const float *b, int64_t K, int64_t N, float *row) {
    for (int64_t j = 0; j < N; j++) row[j] = 0.0f;
    for (int64_t k = 0; k < K; k++) {
        const float x = a_row[k], *bk = b + k * N;
        for (int64_t j = 0; j < N; j++) row[j] = fma_step(x, bk[j], row[j]);
    }
}

static void chain_rows_portable(const float *a, int64_t M, const float *b, int64_t K, int64_t N, float *out) {
    for (int64_t i = 0; i < M; i++) chain_row_portable(a + i * K, b, K, N, out + i * N);
}

MatmulRowsF matmul_rows_kernel(KernelIsa isa) {
#if KERNELS_HAVE_AVX2
    const bool avx512 = isa == KISA_AVX512 || isa == KISA_AVX512FP16;
    if (avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return chain_rows_avx512;
    if ((isa == KISA_AVX2 || avx512) && __builtin_cpu_supports("fma")) return chain_rows_fma;
#endif
    (void)isa;
    return chain_rows_portable;
}

MatmulRowF matmul_row_kernel(KernelIsa isa) {
#if KERNELS_HAVE_AVX2
    if ((isa == KISA_AVX2 || isa == KISA_AVX512 || isa == KISA_AVX512FP16) && __builtin_cpu_supports("fma"))
        return chain_row_fma;
#endif
    (void)isa;
    return chain_row_portable;
}
