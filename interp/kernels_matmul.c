/* kernels_matmul.c - the f32 matmul row kernel (interp/ops_cube.c): row[j] = the fmaf chain over
 * k of a_row[k] * b[k][j], from +0, k in order. The portable kernel calls fmaf per element; on
 * x86-64 CPUs with FMA the same chains run 8 columns at a time with vfmadd (one rounding per step,
 * exactly fmaf), so the vectorisation goes across output columns and never reorders a chain. */
#include "kernels.h"

#include <math.h>

#if KERNELS_HAVE_AVX2
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx2,fma")
static void chain_row_fma(const float *a_row, const float *b, int64_t K, int64_t N, float *row) {
    int64_t j = 0;
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
#pragma GCC pop_options
#endif

static void chain_row_portable(const float *a_row, const float *b, int64_t K, int64_t N, float *row) {
    for (int64_t j = 0; j < N; j++) row[j] = 0.0f;
    for (int64_t k = 0; k < K; k++) {
        const float x = a_row[k], *bk = b + k * N;
        for (int64_t j = 0; j < N; j++) row[j] = fmaf(x, bk[j], row[j]);
    }
}

MatmulRowF matmul_row_kernel(KernelIsa isa) {
#if KERNELS_HAVE_AVX2
    if ((isa == KISA_AVX2 || isa == KISA_AVX512) && __builtin_cpu_supports("fma")) return chain_row_fma;
#endif
    (void)isa;
    return chain_row_portable;
}
