/* acc_quant.c - the conversion of values leaving an acc tile (tstore to GM, textract / tinsert
 * acc -> mat), as the ISA's CPU simulator computes it (common.hpp: ConvertStoreValue,
 * quantize_element, GetScalarPreQuantMode, GetVectorPreQuantMode):
 *   without a quantisation mode, relu `(v > 0) ? v : 0` in the acc type, then a C++ cast;
 *   with one, x = float(v) * scale, the mode's rounding and clamping, relu, then the cast.
 * The quantisation word (u64): the scale in bits 0..31 (an f32; the vector form keeps its top 19
 * bits, decoded as sign, 8-bit exponent and 10-bit mantissa), an unsigned 9-bit offset in bits
 * 37..45, bit 46 set for a signed 8-bit result, a 4-bit shift minus one in bits 32..35. Lowering
 * picks the mode from the element types; the loops below run one mode each. */
#include "interp_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

bool acc_convert_plan(AccConvert *cv, DType from, DType to, AccQuantForm form, bool relu) {
    cv->from = from;
    cv->to = to;
    cv->relu = relu;
    cv->vector = form == AQF_VECTOR;
    cv->mode = AQ_CAST;
    if (form != AQF_NONE) {
        bool b8 = to == DT_I8 || to == DT_U8;
        if (from == DT_F32) {
            if (b8) cv->mode = AQ_B8;
            else if (form == AQF_SCALAR && to == DT_F16) cv->mode = AQ_F16;
            else if (form == AQF_SCALAR && to == DT_BF16) cv->mode = AQ_BF16;
        } else if (from == DT_I32) {
            if (b8) cv->mode = AQ_B8;
            else if (to == DT_F16) cv->mode = AQ_DEQF16;
            else if (to == DT_I16) cv->mode = AQ_SHIFT16;
        }
    }
    if (from == DT_F32 && dtype_is_f8(to) && form == AQF_VECTOR) { /* A5 fp forms: no mode, MXType(double) */
        char f = dtype_f8_format(to);
        cv->mode = AQ_F8;
        cv->f8_exp = f == 'e' ? 4 : f == 'm' ? 5 : 8;
        cv->f8_man = f == 'e' ? 3 : f == 'm' ? 2 : 0;
        cv->f8_bias = f == 'e' ? 7 : f == 'm' ? 15 : 127;
        return true;
    }
    if (cv->mode != AQ_CAST) return true;
    /* the plain casts pto-run makes (relu in the acc type first) */
    if (from == DT_F32) return to == DT_F32 || to == DT_F16 || to == DT_BF16;
    if (from == DT_I32) return to == DT_I32 || to == DT_BF16;
    return false;
}

/* The scale of a word: scalar form, the f32 in bits 0..31; vector form, the 19-bit float in bits
 * 13..31 (an exponent of 0 with a zero mantissa is 0, any other is 2^(e - 127), no subnormals). */
static float word_scale(uint64_t w, bool vector) {
    if (!vector) {
        uint32_t bits = (uint32_t)w;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    uint32_t m1 = (uint32_t)((w >> 13) & 0x7FFFFu);
    uint32_t e = (m1 >> 10) & 0xFFu, mant = m1 & 0x3FFu;
    if (e == 0 && mant == 0) return 0.0f;
    float sign = (m1 >> 18) & 1u ? -1.0f : 1.0f;
    float m = 1.0f + (float)mant / 1024.0f;
    return sign * m * ldexpf(1.0f, (int)e - 127);
}

void acc_quant_word(const AccConvert *cv, uint64_t w, AccQuantWord *q) {
    q->scale = word_scale(w, cv->vector);
    q->offset = (float)(uint32_t)((w >> 37) & 0x1FFu);
    bool sign = (w >> 46) & 1u;
    q->lo = sign ? -128.0f : 0.0f;
    q->hi = sign ? 127.0f : 255.0f;
    q->shift = (int)((w >> 32) & 0xFu) + 1;
}

/* std::clamp(v, lo, hi): a NaN stays NaN. */
static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : hi < v ? hi : v; }
static inline float relu_f(float v) { return v > 0.0f ? v : 0.0f; }

/* The word of fp element `at` (a storage offset) as the simulator reads it, `uint64_t w = fp.data()[i]`:
 * the bits of a 64-bit integer type; a float converted by value, truncated toward zero, which C++
 * defines only for values in (-1, 2^64): others are a run-time error. False then. */
bool acc_fp_word(const uint8_t *base, int64_t at, DType dt, uint64_t *w) {
    if (dt == DT_U64 || dt == DT_I64) {
        memcpy(w, base + (size_t)at * 8, 8);
        return true;
    }
    double v;
    if (dt == DT_F32) {
        float f;
        memcpy(&f, base + (size_t)at * 4, 4);
        v = f;
    } else {
        uint16_t h;
        memcpy(&h, base + (size_t)at * 2, 2);
        v = dt == DT_BF16 ? (double)fp_bf16_to_f32(h) : (double)fp_f16_to_f32(h);
    }
    if (!(v > -1.0 && v < 18446744073709551616.0)) return false;
    *w = (uint64_t)v;
    return true;
}

/* static_cast of a float to an 8-bit integer as g++ on x86 does it: through a 32-bit truncation
 * (cvttss2si; NaN and out-of-range values give INT32_MIN), keeping the low byte. */
static inline uint8_t f32_to_byte(float v) {
    int32_t i = (isnan(v) || v >= 2147483648.0f || v < -2147483648.0f) ? INT32_MIN : (int32_t)v;
    return (uint8_t)(uint32_t)i;
}

/* pto-isa's MXType(double) constructor (MXTypes.hpp) on an f32 value, as the simulator built with
 * g++ -O2 on x86 computes it, for an 8-bit float of `ebits` exponent bits, `mbits` mantissa bits
 * and bias `bias`: zero (either sign) gives 0x00; the mantissa is truncated (no rounding); the
 * exponent is rebiased and wraps modulo 2^ebits (no saturation: infinity and NaN keep only their
 * top mantissa bits); the sign is bit ebits + mbits (dropped for e8m0). A value below the normal
 * range shifts (implicit one | mantissa) right by 1 - exponent: past 63 that C++ shift is
 * undefined, and the g++ build takes x86's count modulo 64 and, having assumed a shift of at least
 * 2, keeps all the shifted bits (no mantissa mask), so e4m3 2^-70 gives 0x08 (a clang build gives
 * 0x00 there). */
static inline uint8_t f32_to_mx8(float v, int ebits, int mbits, int bias) {
    double x = (double)v;
    if (x == 0.0) return 0;
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    uint64_t sign = (b >> 63) << (ebits + mbits), man = (b & ((1ull << 52) - 1)) >> (52 - mbits);
    int64_t exp = (int64_t)((b >> 52) & 0x7FF) + bias - 1023;
    if (exp < 0) return (uint8_t)(sign | ((man | (1ull << mbits)) >> ((uint64_t)(1 - exp) & 63)));
    return (uint8_t)(sign | (((uint64_t)exp & ((1ull << ebits) - 1)) << mbits) | (man & ((1ull << mbits) - 1)));
}

void acc_convert_run(const AccConvert *cv, const AccQuantWord *q, size_t qs, uint8_t *dst, const uint8_t *src, int64_t n) {
    bool relu = cv->relu;
    const float *sf = (const float *)(const void *)src;
    const int32_t *si = (const int32_t *)(const void *)src;
    bool fsrc = cv->from == DT_F32;
    switch (cv->mode) {
    case AQ_CAST:
        if (!fsrc) {
            for (int64_t i = 0; i < n; i++) {
                int32_t v = relu && si[i] <= 0 ? 0 : si[i];
                if (cv->to == DT_I32) memcpy(dst + 4 * i, &v, 4);
                else { /* i32 -> bf16: through float, as clang's __bf16 conversion */
                    uint16_t h = f32_to_bf16_bits((float)v);
                    memcpy(dst + 2 * i, &h, 2);
                }
            }
            return;
        }
        for (int64_t i = 0; i < n; i++) {
            float v = relu ? relu_f(sf[i]) : sf[i];
            if (cv->to == DT_F32) memcpy(dst + 4 * i, &v, 4);
            else {
                uint16_t h = cv->to == DT_F16 ? f32_to_f16_bits(v) : f32_to_bf16_bits(v);
                memcpy(dst + 2 * i, &h, 2);
            }
        }
        return;
    case AQ_B8:
        for (int64_t i = 0; i < n; i++) {
            const AccQuantWord *w = &q[(size_t)i * qs];
            float x = (fsrc ? sf[i] : (float)si[i]) * w->scale;
            x = clampf(nearbyintf(x + w->offset), w->lo, w->hi);
            if (relu) x = relu_f(x);
            dst[i] = f32_to_byte(x);
        }
        return;
    case AQ_F16:
    case AQ_BF16:
    case AQ_DEQF16:
        for (int64_t i = 0; i < n; i++) {
            const AccQuantWord *w = &q[(size_t)i * qs];
            float x = (fsrc ? sf[i] : (float)si[i]) * w->scale;
            if (cv->mode == AQ_DEQF16) x = clampf(x, -65504.0f, 65504.0f);
            else if (isfinite(x)) /* the saturation bit of the task cookie is 0: inf and NaN pass */
                x = cv->mode == AQ_F16 ? clampf(x, -65504.0f, 65504.0f) : clampf(x, -FLT_MAX, FLT_MAX);
            if (relu) x = relu_f(x);
            uint16_t h = cv->mode == AQ_BF16 ? f32_to_bf16_bits(x) : f32_to_f16_bits(x);
            memcpy(dst + 2 * i, &h, 2);
        }
        return;
    case AQ_F8:
        for (int64_t i = 0; i < n; i++)
            dst[i] = f32_to_mx8(relu ? relu_f(sf[i]) : sf[i], cv->f8_exp, cv->f8_man, cv->f8_bias);
        return;
    case AQ_SHIFT16:
        for (int64_t i = 0; i < n; i++) {
            int16_t s = (int16_t)(si[i] >> q[(size_t)i * qs].shift); /* wraps before the (no-op) clamp */
            float x = (float)s;
            if (relu) x = relu_f(x);
            int16_t v = (int16_t)x;
            memcpy(dst + 2 * i, &v, 2);
        }
        return;
    }
}
