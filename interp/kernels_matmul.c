/* kernels_matmul.c - the f32 matmul row kernel (interp/ops_cube.c): row[j] = the fmaf chain over
 * k of a_row[k] * b[k][j], from +0, k in order. The portable kernel calls fmaf per element; on
 * x86-64 CPUs with FMA the same chains run 8 columns at a time with vfmadd (one rounding per step,
 * exactly fmaf), so the vectorisation goes across output columns and never reorders a chain. The
 * rows kernel runs two rows of the product together, sharing each load of b. */
#include "kernels.h"

#include <math.h>

#if KERNELS_HAVE_AVX2
#include <immintrin.h>

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
        chain_cols_fma(a0, b, K, N, j, o0);
        chain_cols_fma(a1, b, K, N, j, o1);
    }
    for (; i < M; i++) chain_cols_fma(a + i * K, b, K, N, 0, out + i * N);
}
#pragma GCC pop_options
#endif

static void chain_row_portable(const float *a_row, const float *b, int64_t K, int64_t N, float *row) {
    for (int64_t j = 0; j < N; j++) row[j] = 0.0f;
    for (int64_t k = 0; k < K; k++) {
        const float x = a_row[k], *bk = b + k * N;
        for (int64_t j = 0; j < N; j++) row[j] = fmaf(x, bk[j], row[j]);
    }
}

static void chain_rows_portable(const float *a, int64_t M, const float *b, int64_t K, int64_t N, float *out) {
    for (int64_t i = 0; i < M; i++) chain_row_portable(a + i * K, b, K, N, out + i * N);
}

MatmulRowsF matmul_rows_kernel(KernelIsa isa) {
#if KERNELS_HAVE_AVX2
    if ((isa == KISA_AVX2 || isa == KISA_AVX512) && __builtin_cpu_supports("fma")) return chain_rows_fma;
#endif
    (void)isa;
    return chain_rows_portable;
}

MatmulRowF matmul_row_kernel(KernelIsa isa) {
#if KERNELS_HAVE_AVX2
    if ((isa == KISA_AVX2 || isa == KISA_AVX512) && __builtin_cpu_supports("fma")) return chain_row_fma;
#endif
    (void)isa;
    return chain_row_portable;
}
