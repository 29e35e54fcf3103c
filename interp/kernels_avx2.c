/* kernels_avx2.c - the x86-64 AVX2 + F16C kernel variant: the same kernels as the portable one
 * (kernels_isa.h) compiled for AVX2, with f16 conversions done by F16C (vcvtph2ps / vcvtps2ph,
 * round to nearest even). "fma" is enabled for the explicit multiply-adds (the matmul chains'
 * fmaf, the fast forms' polynomials); -ffp-contract=off keeps the compiler from fusing any other.
 * kernels.c selects this variant only on a CPU that has AVX2, FMA and F16C (the binary still runs
 * anywhere); elsewhere this file is empty. */
#include "kernels.h"

#if KERNELS_HAVE_AVX2
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")

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
#define KISA_TABLE kernels_avx2
#define KISA_NAME "avx2"
#include "kernels_isa.h"

#pragma GCC pop_options
#else
typedef int kernels_avx2_unused; /* ISO C: a translation unit must not be empty */
#endif
