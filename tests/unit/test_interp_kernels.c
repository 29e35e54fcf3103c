/* test_interp_kernels.c - f16/bf16 conversions, scalar conversions and the seed-op tile kernels,
 * checked against hand-derived values and numpy-computed bit patterns (numpy float16 rounds each
 * operation to nearest even, like the ISA's CPU simulator). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "kernels.h"

/* The kernels of `dt` in the variant the interpreter would choose. */
static const KernelSet *best(DType dt) { return kernel_set(dt, kernel_isa_best()); }

/* TMULS's elementwise-family kernel, in the variant the interpreter uses. */
static void tmuls_best(DType dt, KTile d, KTile s, KScalar k, int64_t rows, int64_t cols) {
    KernelElem kern = kernel_isa_table(kernel_isa_best())->elem[OP_TMULS][dt];
    cr_assert_not_null(kern);
    cr_assert_eq(kern(d, &s, k, rows, cols), 0);
}

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- f16 --------------------------------------------------------------------------------- */

Test(f16, known_values) {
    cr_assert_eq(f32_to_f16_bits(1.0f), 0x3C00);
    cr_assert_eq(f32_to_f16_bits(-2.0f), 0xC000);
    cr_assert_eq(f32_to_f16_bits(65504.0f), 0x7BFF);
    cr_assert_eq(f32_to_f16_bits(65519.0f), 0x7BFF);        /* below the halfway point to 65536 */
    cr_assert_eq(f32_to_f16_bits(65520.0f), 0x7C00);        /* the tie rounds to even = Inf */
    cr_assert_eq(f32_to_f16_bits(1e6f), 0x7C00);
    cr_assert_eq(f32_to_f16_bits(-1e6f), 0xFC00);
    cr_assert_eq(f32_to_f16_bits(0.1f), 0x2E66);
    cr_assert_eq(f32_to_f16_bits(-0.0f), 0x8000);
    cr_assert_eq(f32_to_f16_bits(INFINITY), 0x7C00);
}

Test(f16, round_to_nearest_even_ties) {
    /* 1 + 2^-11 lies halfway between 0x3C00 and 0x3C01: even wins */
    cr_assert_eq(f32_to_f16_bits(1.0f + ldexpf(1, -11)), 0x3C00);
    /* 1 + 3*2^-11 lies halfway between 0x3C01 and 0x3C02: even wins */
    cr_assert_eq(f32_to_f16_bits(1.0f + 3 * ldexpf(1, -11)), 0x3C02);
    /* just above the first tie rounds up */
    cr_assert_eq(f32_to_f16_bits(nextafterf(1.0f + ldexpf(1, -11), 2.0f)), 0x3C01);
}

Test(f16, denormals) {
    cr_assert_eq(f32_to_f16_bits(ldexpf(1, -24)), 0x0001);  /* smallest f16 denormal */
    cr_assert_eq(f32_to_f16_bits(ldexpf(1, -25)), 0x0000);  /* tie between 0 and 1: even */
    cr_assert_eq(f32_to_f16_bits(ldexpf(3, -25)), 0x0002);  /* tie between 1 and 2: even */
    cr_assert_eq(f32_to_f16_bits(nextafterf(ldexpf(1, -25), 1.0f)), 0x0001);
    cr_assert_eq(f32_to_f16_bits(ldexpf(1, -14)), 0x0400);  /* smallest normal */
    cr_assert_eq(f32_to_f16_bits(ldexpf(1023, -24)), 0x03FF);
    cr_assert_eq(f32_to_f16_bits(ldexpf(2047, -25)), 0x0400); /* rounds up into the normal range */
    cr_assert_eq(f32_to_f16_bits(1e-30f), 0x0000);
    cr_assert_eq(f32_to_f16_bits(-1e-30f), 0x8000);
    cr_assert_eq(f32_to_f16_bits(bitsf(0x00000001u)), 0x0000); /* f32 denormal */
    cr_assert_float_eq(f16_bits_to_f32(0x0001), ldexpf(1, -24), 0.0f);
    cr_assert_float_eq(f16_bits_to_f32(0x8200), -ldexpf(512, -24), 0.0f);
}

Test(f16, nan_and_inf) {
    cr_assert(isnan(f16_bits_to_f32(0x7E00)));
    cr_assert(isnan(f16_bits_to_f32(0x7C01)));
    cr_assert(isinf(f16_bits_to_f32(0xFC00)) && f16_bits_to_f32(0xFC00) < 0);
    uint16_t h = f32_to_f16_bits(NAN);
    cr_assert_eq(h & 0x7C00, 0x7C00);
    cr_assert_neq(h & 0x03FF, 0);
    /* a signalling f32 NaN whose payload sits in the low bits still converts to a NaN */
    h = f32_to_f16_bits(bitsf(0x7F800001u));
    cr_assert_eq(h & 0x7C00, 0x7C00);
    cr_assert_neq(h & 0x03FF, 0);
}

Test(f16, every_f16_round_trips) {
    for (uint32_t b = 0; b < 0x10000u; b++) {
        float f = f16_bits_to_f32((uint16_t)b);
        uint16_t back = f32_to_f16_bits(f);
        if (isnan(f)) {
            cr_assert_eq(back & 0x7C00, 0x7C00);
            cr_assert_neq(back & 0x03FF, 0);
        } else {
            cr_assert_eq(back, b, "f16 0x%04x -> %g -> 0x%04x", b, (double)f, back);
        }
    }
}

/* Reference rounding to f16: pick the nearer of the two neighbouring f16 values in double (exact). */
static uint16_t reference_f16(float x) {
    double v = x;
    uint16_t best = 0;
    double best_err = INFINITY;
    /* candidates: every finite f16 of the same sign, found by bisection on the ordered magnitudes */
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(v);
    if (a >= 65520.0) return sign | 0x7C00;
    uint16_t lo = 0, hi = 0x7BFF;
    while (lo < hi) { /* largest magnitude <= a */
        uint16_t mid = (uint16_t)((lo + hi + 1) / 2);
        if (f16_bits_to_f32(mid) <= a) lo = mid;
        else hi = (uint16_t)(mid - 1);
    }
    for (uint16_t c = lo; c <= lo + 1 && c <= 0x7C00; c++) {
        double err = fabs((double)f16_bits_to_f32(c) - a);
        if (err < best_err || (err == best_err && (c & 1) == 0)) {
            best = c;
            best_err = err;
        }
    }
    return sign | best;
}

Test(f16, matches_reference_rounding_on_many_floats) {
    uint32_t state = 12345u;
    for (int n = 0; n < 200000; n++) {
        state = state * 1664525u + 1013904223u;
        /* exponents concentrated on the f16 range (2^-26 .. 2^17) */
        uint32_t exp = 101u + (state >> 8) % 44u;
        uint32_t u = (state & 0x80000000u) | (exp << 23) | ((state * 2654435761u) & 0x7FFFFFu);
        float x = bitsf(u);
        cr_assert_eq(f32_to_f16_bits(x), reference_f16(x), "x = %a", (double)x);
    }
}

Test(f16, double_conversion_rounds_once) {
    /* just above the tie 1 + 2^-11: a float intermediate would land on the tie and round to even */
    cr_assert_eq(f64_to_f16_bits(1.0 + ldexp(1, -11) + ldexp(1, -40)), 0x3C01);
    cr_assert_eq(f64_to_f16_bits(1.0 + ldexp(1, -11) - ldexp(1, -40)), 0x3C00);
    cr_assert_eq(f64_to_f16_bits(3.14), 0x4248);
    cr_assert_eq(f64_to_f16_bits(1e300), 0x7C00);
}

/* ---- bf16 -------------------------------------------------------------------------------- */

static uint16_t reference_bf16(float x) {
    uint32_t u = fbits(x);
    uint32_t t = u & 0xFFFF0000u;                 /* truncation toward zero */
    double lo = bitsf(t), hi = bitsf(t + 0x10000u);
    if (isinf(hi)) hi = copysign(ldexp(1, 128), (double)x); /* IEEE: round as if the exponent were unbounded */
    double err_lo = fabs((double)x - lo), err_hi = fabs(hi - (double)x);
    if (err_lo < err_hi) return (uint16_t)(t >> 16);
    if (err_hi < err_lo) return (uint16_t)((t + 0x10000u) >> 16);
    return (uint16_t)(((t >> 16) & 1u) ? (t + 0x10000u) >> 16 : t >> 16);
}

Test(bf16, known_values_and_ties) {
    cr_assert_eq(f32_to_bf16_bits(1.0f), 0x3F80);
    cr_assert_eq(f32_to_bf16_bits(3.140625f), 0x4049);
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x3F808000u)), 0x3F80); /* tie, even below */
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x3F818000u)), 0x3F82); /* tie, even above */
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x3F808001u)), 0x3F81);
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x7F7FFFFFu)), 0x7F80); /* FLT_MAX rounds to Inf */
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x00000001u)), 0x0000); /* denormal rounds to zero */
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x00008000u)), 0x0000); /* denormal tie, even */
    cr_assert_eq(f32_to_bf16_bits(bitsf(0x00018000u)), 0x0002);
    uint16_t n = f32_to_bf16_bits(bitsf(0x7F800001u));          /* NaN with a low payload */
    cr_assert_eq(n & 0x7F80, 0x7F80);
    cr_assert_neq(n & 0x007F, 0);
    cr_assert_float_eq(bf16_bits_to_f32(0xC040), -3.0f, 0.0f);
}

Test(bf16, matches_reference_rounding_on_many_floats) {
    uint32_t state = 777u;
    for (int n = 0; n < 200000; n++) {
        state = state * 1664525u + 1013904223u;
        uint32_t u = state ^ (state << 13);
        if ((u & 0x7F800000u) == 0x7F800000u) continue; /* NaN/Inf checked above */
        float x = bitsf(u);
        cr_assert_eq(f32_to_bf16_bits(x), reference_bf16(x), "x = %a", (double)x);
    }
}

/* ---- scalar conversions (C++ argument conversion) ---------------------------------------- */

static KScalar conv_f(double v, DType to) { return scalar_to_kernel((ScalarValue){0, v}, DT_F32, to); }
static KScalar conv_i(int64_t v, DType from, DType to) { return scalar_to_kernel((ScalarValue){v, 0}, from, to); }

Test(scalar, float_to_int_truncates_and_saturates) {
    cr_assert_eq((int32_t)conv_f(3.7, DT_I32).u, 3);
    cr_assert_eq((int32_t)conv_f(-3.7, DT_I32).u, -3);
    cr_assert_eq((int32_t)conv_f(NAN, DT_I32).u, 0);
    cr_assert_eq((int32_t)conv_f(1e10, DT_I32).u, INT32_MAX);
    cr_assert_eq((int32_t)conv_f(-1e10, DT_I32).u, INT32_MIN);
    cr_assert_eq((uint8_t)conv_f(300.5, DT_U8).u, 255);
    cr_assert_eq((uint8_t)conv_f(-1.0, DT_U8).u, 0);
    cr_assert_eq((int16_t)conv_f(-40000.0, DT_I16).u, INT16_MIN);
    cr_assert_eq((int64_t)conv_f(-1e30, DT_I64).u, INT64_MIN);
    cr_assert_eq(conv_f(1e30, DT_U64).u, UINT64_MAX);
}

Test(scalar, int_to_int_wraps) {
    cr_assert_eq((int16_t)conv_i(70000, DT_I32, DT_I16).u, 4464);
    cr_assert_eq((uint8_t)conv_i(-1, DT_I32, DT_U8).u, 255);
    cr_assert_eq((int8_t)conv_i(200, DT_I32, DT_I8).u, -56);
    cr_assert_eq(scalar_wrap_int(0x1FFFF, DT_I16), -1);
    cr_assert_eq(scalar_wrap_int(-1, DT_U16), 65535);
    cr_assert_eq(scalar_wrap_int(3, DT_I1), 1);
}

Test(scalar, int_to_float_rounds_once) {
    cr_assert_float_eq(conv_i(2049, DT_I32, DT_F16).f, 2048.0f, 0.0f); /* tie, even */
    cr_assert_float_eq(conv_i(2051, DT_I32, DT_F16).f, 2052.0f, 0.0f);
    cr_assert_float_eq(conv_i(257, DT_I32, DT_BF16).f, 256.0f, 0.0f);  /* tie, even */
    cr_assert_float_eq(conv_i(259, DT_I32, DT_BF16).f, 260.0f, 0.0f);
    cr_assert_float_eq(conv_i(-259, DT_I32, DT_BF16).f, -260.0f, 0.0f);
    cr_assert(isinf(conv_i(70000, DT_I32, DT_F16).f) && conv_i(70000, DT_I32, DT_F16).f > 0);
    cr_assert_float_eq(conv_i(16777217, DT_I32, DT_F32).f, 16777216.0f, 0.0f);
    /* 2^24 + 2^16 + 1 is just above a bf16 tie: a float intermediate (2^24 + 2^16) would be the tie */
    cr_assert_float_eq(conv_i((1 << 24) + (1 << 16) + 1, DT_I32, DT_BF16).f, (float)((1 << 24) + (1 << 17)), 0.0f);
    cr_assert_float_eq(conv_i(4294967295LL, DT_U32, DT_F32).f, 4294967296.0f, 0.0f); /* u32 all ones */
}

Test(scalar, float_to_narrow_float_rounds) {
    cr_assert_float_eq(conv_f(0.1, DT_F16).f, f16_bits_to_f32(0x2E66), 0.0f);
    cr_assert_float_eq(conv_f((double)3.14f, DT_BF16).f, bf16_bits_to_f32(0x4049), 0.0f);
}

/* ---- kernels ----------------------------------------------------------------------------- */

#define SENTINEL_F32 -777.0f

static void fill_f32(float *p, size_t n, float v) {
    for (size_t i = 0; i < n; i++) p[i] = v;
}

Test(tmuls, f32_differing_shapes_leaves_outside_untouched) {
    /* src 4x8 (row-major), dst physical 8x16, valid region 4x8 */
    float src[4 * 8], dst[8 * 16];
    for (int i = 0; i < 32; i++) src[i] = (float)i - 10.5f;
    fill_f32(dst, 128, SENTINEL_F32);
    KScalar k = {2.5f, 0};
    tmuls_best(DT_F32, (KTile){(uint8_t *)dst, 16, 1}, (KTile){(uint8_t *)src, 8, 1}, k, 4, 8);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 16; c++) {
            float want = (r < 4 && c < 8) ? src[r * 8 + c] * 2.5f : SENTINEL_F32;
            cr_assert_float_eq(dst[r * 16 + c], want, 0.0f, "(%d,%d)", r, c);
        }
}

Test(tmuls, f32_in_place_and_partial_overlap_are_sequential) {
    float buf[40];
    for (int i = 0; i < 40; i++) buf[i] = (float)(i + 1);
    KScalar k = {2.0f, 0};
    tmuls_best(DT_F32, (KTile){(uint8_t *)buf, 20, 1}, (KTile){(uint8_t *)buf, 20, 1}, k, 2, 20);
    for (int i = 0; i < 40; i++) cr_assert_float_eq(buf[i], 2.0f * (float)(i + 1), 0.0f);
    /* dst starts one element after src: the sequential order feeds each product into the next */
    float b2[12];
    for (int i = 0; i < 12; i++) b2[i] = 1.0f;
    tmuls_best(DT_F32, (KTile){(uint8_t *)(b2 + 1), 11, 1}, (KTile){(uint8_t *)b2, 11, 1}, k, 1, 11);
    for (int i = 0; i < 12; i++) cr_assert_float_eq(b2[i], ldexpf(1, i), 0.0f, "element %d", i);
}

Test(tmuls, f16_rounds_each_product) {
    uint16_t src[8] = {0x3C01, 0x3555, 0x4248, 0xBC00, 0x7BFF, 0, 0, 0};
    uint16_t dst[8] = {0};
    KScalar k = {3.0f, 0};
    tmuls_best(DT_F16, (KTile){(uint8_t *)dst, 8, 1}, (KTile){(uint8_t *)src, 8, 1}, k, 1, 5);
    const uint16_t want[5] = {0x4202, 0x3C00, 0x48B6, 0xC200, 0x7C00}; /* numpy float16 */
    for (int i = 0; i < 5; i++) cr_assert_eq(dst[i], want[i], "element %d: 0x%04x", i, dst[i]);
}

Test(tmuls, integers_wrap) {
    int16_t s16[16] = {30000, -30000, 1, -1}, d16[16] = {0};
    tmuls_best(DT_I16, (KTile){(uint8_t *)d16, 16, 1}, (KTile){(uint8_t *)s16, 16, 1}, (KScalar){0, 3}, 1, 4);
    cr_assert_eq(d16[0], 24464);   /* 90000 mod 2^16 */
    cr_assert_eq(d16[1], -24464);
    cr_assert_eq(d16[2], 3);
    cr_assert_eq(d16[3], -3);
    int32_t s32[8] = {INT32_MIN, 1 << 30, 7}, d32[8] = {0};
    tmuls_best(DT_I32, (KTile){(uint8_t *)d32, 8, 1}, (KTile){(uint8_t *)s32, 8, 1},
                         (KScalar){0, (uint64_t)(int64_t)-1}, 1, 3);
    cr_assert_eq(d32[0], INT32_MIN);
    cr_assert_eq(d32[1], -(1 << 30));
    cr_assert_eq(d32[2], -7);
    uint8_t s8[32] = {200, 255, 3}, d8[32] = {0};
    tmuls_best(DT_U8, (KTile){d8, 32, 1}, (KTile){s8, 32, 1}, (KScalar){0, 2}, 1, 3);
    cr_assert_eq(d8[0], 144);
    cr_assert_eq(d8[1], 254);
    cr_assert_eq(d8[2], 6);
    int64_t s64[4] = {INT64_MAX, -4000000007LL}, d64[4] = {0};
    tmuls_best(DT_I64, (KTile){(uint8_t *)d64, 4, 1}, (KTile){(uint8_t *)s64, 4, 1}, (KScalar){0, 7}, 1, 2);
    cr_assert_eq(d64[0], (int64_t)((uint64_t)INT64_MAX * 7u));
    cr_assert_eq(d64[1], -28000000049LL);
}

Test(texpands, fills_only_the_region_in_any_layout) {
    float t[8 * 8];
    fill_f32(t, 64, SENTINEL_F32);
    best(DT_F32)->fill((KTile){(uint8_t *)t, 8, 1}, (KScalar){3.25f, 0}, 3, 5);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            cr_assert_float_eq(t[r * 8 + c], (r < 3 && c < 5) ? 3.25f : SENTINEL_F32, 0.0f);
    /* col-major 8x8: element (r,c) at c*8 + r */
    fill_f32(t, 64, SENTINEL_F32);
    best(DT_F32)->fill((KTile){(uint8_t *)t, 1, 8}, (KScalar){-1.0f, 0}, 2, 3);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            cr_assert_float_eq(t[c * 8 + r], (r < 2 && c < 3) ? -1.0f : SENTINEL_F32, 0.0f);
    int8_t b[32];
    memset(b, 0x55, sizeof b);
    best(DT_I8)->fill((KTile){(uint8_t *)b, 32, 1}, (KScalar){0, (uint64_t)(int64_t)-3}, 1, 31);
    for (int i = 0; i < 31; i++) cr_assert_eq(b[i], -3);
    cr_assert_eq(b[31], 0x55); /* no extra byte written past the region */
    uint16_t h[16] = {0};
    best(DT_BF16)->fill((KTile){(uint8_t *)h, 16, 1}, (KScalar){1.0f, 0}, 1, 16);
    cr_assert_eq(h[15], 0x3F80);
}

Test(trowprod, f32_nd_and_dn_destinations) {
    /* src 3x8 valid 2x5 in a row-major 3x8 tile */
    float src[3 * 8];
    for (int i = 0; i < 24; i++) src[i] = (float)(i % 7) * 0.5f + 0.5f;
    float nd[3 * 8], dn[8];
    fill_f32(nd, 24, SENTINEL_F32);
    fill_f32(dn, 8, SENTINEL_F32);
    best(DT_F32)->row_fold[KFOLD_PROD]((KTile){(uint8_t *)nd, 8, 1}, (KTile){(uint8_t *)src, 8, 1}, 2, 5);
    best(DT_F32)->row_fold[KFOLD_PROD]((KTile){(uint8_t *)dn, 1, 8}, (KTile){(uint8_t *)src, 8, 1}, 2, 5);
    for (int r = 0; r < 2; r++) {
        float p = 1.0f;
        for (int c = 0; c < 5; c++) p = p * src[r * 8 + c];
        cr_assert_float_eq(nd[r * 8], p, 0.0f);
        cr_assert_float_eq(dn[r], p, 0.0f);
    }
    for (int i = 0; i < 24; i++)
        if (!(i == 0 || i == 8)) cr_assert_float_eq(nd[i], SENTINEL_F32, 0.0f, "nd[%d]", i);
    for (int i = 2; i < 8; i++) cr_assert_float_eq(dn[i], SENTINEL_F32, 0.0f);
}

Test(trowprod, f16_rounds_at_each_step) {
    uint16_t src[16] = {0x3C66, 0x3D33, 0x3ECD, 0x3F9A, 0x409A, 0x399A, 0x3C33, 0x3F9A};
    uint16_t dst[16] = {0};
    best(DT_F16)->row_fold[KFOLD_PROD]((KTile){(uint8_t *)dst, 16, 1}, (KTile){(uint8_t *)src, 16, 1}, 1, 8);
    /* numpy: sequential float16 products give 0x4b6d; one rounding at the end would give 0x4b6c */
    cr_assert_eq(dst[0], 0x4B6D, "got 0x%04x", dst[0]);
}

Test(trowprod, integers_wrap) {
    int16_t src[32];
    for (int i = 0; i < 32; i++) src[i] = 4;
    int16_t dst[16] = {0};
    best(DT_I16)->row_fold[KFOLD_PROD]((KTile){(uint8_t *)dst, 1, 16}, (KTile){(uint8_t *)src, 16, 1}, 2, 9);
    /* 4^9 = 262144 = 4 * 2^16 -> 0 mod 2^16 */
    cr_assert_eq(dst[0], 0);
    cr_assert_eq(dst[1], 0);
    best(DT_I16)->row_fold[KFOLD_PROD]((KTile){(uint8_t *)dst, 1, 16}, (KTile){(uint8_t *)src, 16, 1}, 1, 7);
    cr_assert_eq(dst[0], 16384);
    int32_t s32[8] = {-3, 5, 7};
    int32_t d32[8] = {0};
    best(DT_I32)->row_fold[KFOLD_PROD]((KTile){(uint8_t *)d32, 8, 1}, (KTile){(uint8_t *)s32, 8, 1}, 1, 3);
    cr_assert_eq(d32[0], -105);
}

/* row-expand helpers: a 4x16 f32 full operand, a 4x1 col-major (Mode 1) and a 4x8 row-major (Mode 2) */
static void rowexpand_inputs(float *full, float *m1, float *m2) {
    for (int i = 0; i < 64; i++) full[i] = (float)(i % 11) - 3.0f;
    for (int r = 0; r < 4; r++) m1[r] = (float)(r + 2);
    for (int i = 0; i < 32; i++) m2[i] = (float)(i % 5) + 0.5f;
}

Test(trowexpand, mode1_mul_and_sub_with_src0_full) {
    float full[64], m1[4], m2[32], d[64];
    rowexpand_inputs(full, m1, m2);
    fill_f32(d, 64, SENTINEL_F32);
    /* dst valid 3x12 of a 4x16 tile; src1 = 4x1 col-major (rs 1) */
    best(DT_F32)->trowexpandmul((KTile){(uint8_t *)d, 16, 1}, (KTile){(uint8_t *)full, 16, 1},
                                 (KTile){(uint8_t *)m1, 1, 4}, 3, 12, 12, 1);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++)
            cr_assert_float_eq(d[r * 16 + c], (r < 3 && c < 12) ? full[r * 16 + c] * m1[r] : SENTINEL_F32, 0.0f);
    best(DT_F32)->trowexpandsub((KTile){(uint8_t *)d, 16, 1}, (KTile){(uint8_t *)full, 16, 1},
                                 (KTile){(uint8_t *)m1, 1, 4}, 3, 12, 12, 1);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 12; c++) cr_assert_float_eq(d[r * 16 + c], full[r * 16 + c] - m1[r], 0.0f);
}

Test(trowexpand, sub_keeps_operand_order_when_src0_is_expanded) {
    float full[64], m1[4], m2[32], d[64];
    rowexpand_inputs(full, m1, m2);
    fill_f32(d, 64, SENTINEL_F32);
    /* Mode 1 with src0 expanded: dst = broadcast(src0) - src1 */
    best(DT_F32)->trowexpandsub((KTile){(uint8_t *)d, 16, 1}, (KTile){(uint8_t *)m1, 1, 4},
                                 (KTile){(uint8_t *)full, 16, 1}, 4, 16, 1, 16);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++) cr_assert_float_eq(d[r * 16 + c], m1[r] - full[r * 16 + c], 0.0f);
    /* Mode 2 with src0 expanded: dst(r,c) = src0(r, c mod 8) - src1(r,c) */
    best(DT_F32)->trowexpandsub((KTile){(uint8_t *)d, 16, 1}, (KTile){(uint8_t *)m2, 8, 1},
                                 (KTile){(uint8_t *)full, 16, 1}, 4, 16, 8, 16);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++)
            cr_assert_float_eq(d[r * 16 + c], m2[r * 8 + c % 8] - full[r * 16 + c], 0.0f);
}

Test(trowexpand, mode2_mul_repeats_the_32_byte_block) {
    float full[64], m1[4], m2[32], d[64];
    rowexpand_inputs(full, m1, m2);
    fill_f32(d, 64, SENTINEL_F32);
    best(DT_F32)->trowexpandmul((KTile){(uint8_t *)d, 16, 1}, (KTile){(uint8_t *)full, 16, 1},
                                 (KTile){(uint8_t *)m2, 8, 1}, 4, 13, 13, 8);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++)
            cr_assert_float_eq(d[r * 16 + c], c < 13 ? full[r * 16 + c] * m2[r * 8 + c % 8] : SENTINEL_F32, 0.0f);
}

Test(trowexpand, in_place_dst_equals_src0) {
    float full[64], m1[4], m2[32], orig[64];
    rowexpand_inputs(full, m1, m2);
    memcpy(orig, full, sizeof orig);
    best(DT_F32)->trowexpandmul((KTile){(uint8_t *)full, 16, 1}, (KTile){(uint8_t *)full, 16, 1},
                                 (KTile){(uint8_t *)m1, 1, 4}, 4, 16, 16, 1);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++) cr_assert_float_eq(full[r * 16 + c], orig[r * 16 + c] * m1[r], 0.0f);
}

Test(trowexpand, dst_overlapping_the_scalar_column_is_sequential) {
    /* dst row 0 starts at the Mode-1 scalar itself: element 0 overwrites it, later elements see the
     * new value (the CPU simulator re-reads src1(r,0) for each element) */
    float buf[16];
    for (int i = 0; i < 16; i++) buf[i] = 2.0f;
    float src0[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    best(DT_F32)->trowexpandmul((KTile){(uint8_t *)buf, 8, 1}, (KTile){(uint8_t *)src0, 8, 1},
                                 (KTile){(uint8_t *)buf, 1, 8}, 1, 8, 8, 1);
    for (int i = 0; i < 8; i++) cr_assert_float_eq(buf[i], 2.0f, 0.0f);
    src0[0] = 3.0f;
    buf[0] = 2.0f;
    best(DT_F32)->trowexpandmul((KTile){(uint8_t *)buf, 8, 1}, (KTile){(uint8_t *)src0, 8, 1},
                                 (KTile){(uint8_t *)buf, 1, 8}, 1, 8, 8, 1);
    cr_assert_float_eq(buf[0], 6.0f, 0.0f);
    cr_assert_float_eq(buf[1], 6.0f, 0.0f); /* 1 * the rewritten scalar 6 */
}

Test(trowexpand, f16_and_integer_types) {
    uint16_t a[16] = {0x2E66, 0x3266, 0x34CD}, e[16] = {0x3555}, d[16] = {0};
    /* src0 expanded (1/3), src1 full: e - a */
    best(DT_F16)->trowexpandsub((KTile){(uint8_t *)d, 16, 1}, (KTile){(uint8_t *)e, 1, 16},
                                 (KTile){(uint8_t *)a, 16, 1}, 1, 3, 1, 3);
    cr_assert_eq(d[0], 0x3377);
    cr_assert_eq(d[1], 0x3044);
    cr_assert_eq(d[2], 0x2840);
    uint16_t u[16] = {1, 5, 65535}, s[16] = {2}, du[16] = {0};
    best(DT_U16)->trowexpandsub((KTile){(uint8_t *)du, 16, 1}, (KTile){(uint8_t *)u, 16, 1},
                                 (KTile){(uint8_t *)s, 1, 16}, 1, 3, 3, 1);
    cr_assert_eq(du[0], 65535);
    cr_assert_eq(du[1], 3);
    cr_assert_eq(du[2], 65533);
    int32_t i32[8] = {100000, -7}, f32s[8] = {100000}, d32[8] = {0};
    best(DT_I32)->trowexpandmul((KTile){(uint8_t *)d32, 8, 1}, (KTile){(uint8_t *)i32, 8, 1},
                                 (KTile){(uint8_t *)f32s, 1, 8}, 1, 2, 2, 1);
    cr_assert_eq(d32[0], (int32_t)(uint32_t)(100000u * 100000u));
    cr_assert_eq(d32[1], -700000);
}

Test(kernels, every_element_type_has_the_seed_kernels) {
    const DType all[] = {DT_F16, DT_BF16, DT_F32, DT_I8, DT_U8, DT_I16, DT_U16, DT_I32, DT_U32, DT_I64, DT_U64};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        const KernelSet *k = best(all[i]);
        cr_assert_not_null(k);
        cr_assert_not_null(kernel_isa_table(kernel_isa_best())->elem[OP_TMULS][all[i]]);
        cr_assert_not_null(k->fill);
        cr_assert_not_null(k->row_fold[KFOLD_PROD]);
        cr_assert_not_null(k->trowexpandmul);
        cr_assert_not_null(k->trowexpandsub);
    }
    cr_assert_null(best(DT_INDEX)); /* no kernels for index or i1 */
    cr_assert_null(best(DT_I1));
}
