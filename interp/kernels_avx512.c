/* kernels_avx512.c - the x86-64 AVX-512 kernel variant: the same kernels as the portable one
 * (kernels_isa.h) compiled for AVX-512 (F, VL, BW, DQ) with F16C. The hand-vectorised kernels keep
 * 32-byte native vectors (as in kernels_avx2.c); the loops the compiler vectorises (the
 * elementwise families of kernels_elem.h) use 64-byte registers ("prefer-vector-width=512"),
 * which doubles their throughput on CPUs with a full-width AVX-512 data path. "fma" serves the
 * explicit multiply-adds only: -ffp-contract=off keeps the compiler from fusing any other. kernels.c selects this variant only on a CPU that has
 * all of these extensions (the binary still runs anywhere); elsewhere this file is empty. The file
 * also makes the "avx512fp16" variant's table: the same kernels but for the f16 elementwise ones,
 * which compute in native f16 arithmetic (KISA_F16_NATIVE), chosen on CPUs with AVX512-FP16. */
#include "kernels.h"

#if KERNELS_HAVE_AVX2
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c,prefer-vector-width=512")

#define KISA_NATIVE_BYTES 32
#define KISA_WIDEN_U16(h) ((nvu)_mm256_cvtepu16_epi32((__m128i)(h)))
#define KISA_F16_WIDEN(h) ((nvf)_mm256_cvtph_ps((__m128i)(h)))
#define KISA_F16_NARROW(vp) ((nvh)_mm256_cvtps_ph((__m256)*(vp), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
/* 4 f16 <-> 4 floats in 16-byte registers: the short-latency pair for a product fold's last rows */
#define KISA_F16_WIDEN4(p) ((nvf4)_mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#define KISA_F16_ROUND4(v) ((nvf4)_mm_cvtph_ps(_mm_cvtps_ph((__m128)(v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)))
#define KISA_IN_REGISTER(v) __asm__("" : "+x"(v))
/* Lane-wise max and min of two 32-byte integer vectors; sfx names the lanes (epi8 ... epu32). */
#define KISA_VMAX(sfx, a, b) KISA_VMINMAX_(max, sfx, a, b)
#define KISA_VMIN(sfx, a, b) KISA_VMINMAX_(min, sfx, a, b)
#define KISA_VMINMAX_(op, sfx, a, b) ((__typeof__(a))_mm256_##op##_##sfx((__m256i)(a), (__m256i)(b)))
#define KISA_ANY(m) (!_mm256_testz_si256((__m256i)(m), (__m256i)(m)))
/* 16 f16 -> 16 floats in one 512-bit conversion */
#define KISA_F16_WIDEN_16(d, s) _mm512_storeu_ps((d), _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(s))))
/* 16 floats -> 16 f16 (RNE) in one 512-bit conversion, kept in a register before the store */
#define KISA_F16_NARROW_16(d, s)                                                                   \
    do {                                                                                           \
        __m256i h_ = _mm512_cvtps_ph(_mm512_loadu_ps(s), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); \
        KISA_IN_REGISTER(h_);                                                                      \
        _mm256_storeu_si256((__m256i *)(void *)(d), h_);                                           \
    } while (0)
/* The products of 4 f16 rows (a product fold's last n rows; row[] repeats the last where n < 4,
 * and n = 1 runs one chain), each the sequential chain in native f16 arithmetic (vmulsh): the exact product of two f16
 * values, rounded once to f16, which is what the f32 product (exact: 22 significant bits) rounded
 * to f16 gives, overflow and subnormals included. One multiply per step where the conversions
 * took three; NaN results are the caller's to redo (rowprod_narrow). For CPUs with AVX512-FP16
 * only (KISA_F16_PRODUCTS4 asks the CPU; an f32 chain serves the others). */
__attribute__((target("avx512fp16,avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c"))) static void
f16_row_products_native(float out[4], const uint16_t *const row[4], int64_t n, int64_t cols) {
    _Float16 q0 = 1, q1 = 1, q2 = 1, q3 = 1;
    if (n == 1) { /* one chain, not four copies of it */
        for (int64_t c = 0; c < cols; c++) {
            _Float16 x;
            memcpy(&x, row[0] + c, 2);
            q0 *= x;
        }
        out[0] = out[1] = out[2] = out[3] = (float)q0;
        return;
    }
    for (int64_t c = 0; c < cols; c++) {
        _Float16 x[4];
        memcpy(&x[0], row[0] + c, 2);
        memcpy(&x[1], row[1] + c, 2);
        memcpy(&x[2], row[2] + c, 2);
        memcpy(&x[3], row[3] + c, 2);
        q0 *= x[0], q1 *= x[1], q2 *= x[2], q3 *= x[3];
    }
    out[0] = (float)q0, out[1] = (float)q1, out[2] = (float)q2, out[3] = (float)q3;
}
#define KISA_F16_PRODUCTS4(out, row, n, cols)                                                      \
    (__builtin_cpu_supports("avx512fp16") ? (f16_row_products_native((out), (row), (n), (cols)), true) : false)
/* 16 f16 of a row at x OP the float e (e OP x when left; OP a product or a difference), rounded
 * to f16 (RNE) at d: one 512-bit widening, operation and narrowing where the 32-byte vectors took
 * two of each (row-expand Mode 1 on f16 rows; a product only where e is not a NaN). */
#define KISA_F16_ROW16(d, x, e, op, left)                                                          \
    do {                                                                                           \
        const __m512 x_ = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(x))); \
        const __m512 e_ = _mm512_set1_ps(e);                                                       \
        const __m512 r_ = (op) == KOP_SUB ? ((left) ? _mm512_sub_ps(e_, x_) : _mm512_sub_ps(x_, e_)) : _mm512_mul_ps(x_, e_); \
        _mm256_storeu_si256((__m256i *)(void *)(d), _mm512_cvtps_ph(r_, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)); \
    } while (0)
/* The second table, "avx512fp16", for CPUs that also have AVX512-FP16: the f16 elementwise kernels
 * in native f16 arithmetic (kernels_elem.h, elemfn.h's EHN_NAME), compiled with this target */
#define KISA_F16_NATIVE                                                                            \
    __attribute__((target("avx512fp16,avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c,prefer-vector-width=512")))
/* the first m (< 8) f16 at p into the 8 at t, the rest zero; the first m at t to p */
#define KISA_F16N_LOAD_PART(t, p, m)                                                               \
    _mm_storeu_si128((__m128i *)(void *)(t), _mm_maskz_loadu_epi16((__mmask8)((1u << (m)) - 1), (const void *)(p)))
#define KISA_F16N_STORE_PART(p, t, m)                                                              \
    _mm_mask_storeu_epi16((void *)(p), (__mmask8)((1u << (m)) - 1), _mm_loadu_si128((const __m128i *)(const void *)(t)))
#define KISA_TABLE kernels_avx512
#define KISA_NAME "avx512"
#define KISA_TABLE_F16N kernels_avx512fp16
#define KISA_NAME_F16N "avx512fp16"
#include "kernels_isa.h"

#pragma GCC pop_options
#else
typedef int kernels_avx512_unused; /* ISO C: a translation unit must not be empty */
#endif
