/* numeric.c - f16/bf16 conversions (portable bit manipulation, exact round to nearest even) and the
 * scalar conversions of SPEC 2.3 (as C++ converts a function argument, with the cases C leaves
 * undefined given a defined result). */
#include "kernels.h"

#include <float.h>
#include <math.h>
#include <string.h>

uint16_t f32_to_f16_bits(float value) { return fp_f32_to_f16(value); }

float f16_bits_to_f32(uint16_t bits) { return fp_f16_to_f32(bits); }

uint16_t f32_to_bf16_bits(float value) { return fp_f32_to_bf16(value); }

float bf16_bits_to_f32(uint16_t bits) { return fp_bf16_to_f32(bits); }

static uint32_t float_bits(float f) { return fp_float_bits(f); }

static float bits_float(uint32_t u) { return fp_bits_float(u); }

/* Rounds a double to float with round-to-odd: truncate, then set the last bit if inexact. A
 * following rounding to a format at least two bits narrower is then a single correct rounding. */
static float f64_to_f32_round_odd(double d) {
    if (isnan(d)) return (float)d;
    float f = (float)d;
    if ((double)f == d) return f;
    if (isinf(f)) f = d > 0 ? FLT_MAX : -FLT_MAX;
    else if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
    return bits_float(float_bits(f) | 1u);
}

uint16_t f64_to_f16_bits(double value) { return f32_to_f16_bits(f64_to_f32_round_odd(value)); }

uint16_t f64_to_bf16_bits(double value) { return f32_to_bf16_bits(f64_to_f32_round_odd(value)); }

double scalar_round_float(double v, DType dt) {
    switch (dt) {
    case DT_F16: return f16_bits_to_f32(f64_to_f16_bits(v));
    case DT_BF16: return bf16_bits_to_f32(f64_to_bf16_bits(v));
    default: return (double)(float)v;
    }
}

int64_t scalar_wrap_int(int64_t v, DType dt) {
    uint64_t u = (uint64_t)v;
    switch (dt) {
    case DT_I1: return (int64_t)(u & 1u);
    case DT_I8: return (int8_t)(uint8_t)u;
    case DT_U8: return (int64_t)(uint8_t)u;
    case DT_I16: return (int16_t)(uint16_t)u;
    case DT_U16: return (int64_t)(uint16_t)u;
    case DT_I32: return (int32_t)(uint32_t)u;
    case DT_U32: return (int64_t)(uint32_t)u;
    default: return v;                             /* i64, u64 (bits), index */
    }
}

/* Rounds |u| to `bits` significant bits (nearest even) and returns it as an exact float. */
static float u64_round_to_float(uint64_t u, int bits) {
    if (u == 0) return 0.0f;
    int n = 64 - __builtin_clzll(u);
    if (n <= bits) return (float)u;
    int shift = n - bits;
    uint64_t q = u >> shift;
    uint64_t rest = u & ((1ull << shift) - 1u);
    uint64_t half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (q & 1u))) q++;
    return ldexpf((float)q, shift);
}

/* The float value an integer scalar converts to in float type `to` (single rounding). */
static float int_to_float_type(int64_t v, bool is_unsigned, DType to) {
    uint64_t mag;
    bool neg = false;
    if (is_unsigned) mag = (uint64_t)v;
    else if (v < 0) {
        neg = true;
        mag = 0u - (uint64_t)v;
    } else mag = (uint64_t)v;
    float r;
    switch (to) {
    case DT_BF16: r = bf16_bits_to_f32(f32_to_bf16_bits(u64_round_to_float(mag, 8))); break;
    case DT_F16: r = f16_bits_to_f32(f32_to_f16_bits(u64_round_to_float(mag, 11))); break;
    default: r = u64_round_to_float(mag, 24); break;
    }
    return neg ? -r : r;
}

/* float -> integer: truncate toward zero; NaN -> 0; beyond the type's range -> its min / max. */
static uint64_t float_to_int_bits(double d, DType to) {
    if (isnan(d)) return 0;
    d = trunc(d);
    switch (to) {
    case DT_I8: return (uint64_t)(int64_t)(d <= -128.0 ? -128 : d >= 127.0 ? 127 : (int64_t)d);
    case DT_U8: return d <= 0.0 ? 0 : d >= 255.0 ? 255 : (uint64_t)d;
    case DT_I16: return (uint64_t)(int64_t)(d <= -32768.0 ? -32768 : d >= 32767.0 ? 32767 : (int64_t)d);
    case DT_U16: return d <= 0.0 ? 0 : d >= 65535.0 ? 65535 : (uint64_t)d;
    case DT_I32:
        return (uint64_t)(int64_t)(d <= -2147483648.0 ? INT32_MIN : d >= 2147483647.0 ? INT32_MAX : (int64_t)d);
    case DT_U32: return d <= 0.0 ? 0 : d >= 4294967295.0 ? UINT32_MAX : (uint64_t)d;
    case DT_U64: return d <= 0.0 ? 0 : d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
    default: /* i64, index */
        return (uint64_t)(d <= -9223372036854775808.0 ? INT64_MIN
                          : d >= 9223372036854775808.0 ? INT64_MAX : (int64_t)d);
    }
}

KScalar scalar_to_kernel(ScalarValue v, DType from, DType to) {
    KScalar k = {0.0f, 0};
    bool from_float = dtype_is_float(from);
    if (dtype_is_float(to)) {
        if (from_float) k.f = (float)scalar_round_float(v.f, to);
        else k.f = int_to_float_type(v.i, dtype_is_unsigned(from), to);
        return k;
    }
    if (from_float) k.u = float_to_int_bits(v.f, to);
    else k.u = (uint64_t)v.i;                      /* wraps: kernels keep the low bits */
    return k;
}

/* The value of an 8-bit float as MLIR (and numpy's ml_dtypes) define its type: exponent field 0 is
 * subnormal; f8E4M3 and f8E5M2 are IEEE-style (all-ones exponent: infinity or NaN); f8E4M3FN's only
 * NaN is S.1111.111; the FNUZ types have no infinity, no -0 and one NaN, 0x80; f8E8M0FNU is
 * 2^(bits - 127), 0xFF its NaN. (The MX matmul decodes its operands as pto-isa does instead.) */
double f8_value(uint8_t bits, DType dt) {
    int man = 3, bias = 7;
    switch (dt) {
    case DT_F8E8M0FNU: return bits == 0xff ? NAN : ldexp(1.0, bits - 127);
    case DT_F8E5M2: man = 2, bias = 15; break;
    case DT_F8E5M2FNUZ: man = 2, bias = 16; break;
    case DT_F8E4M3FNUZ: bias = 8; break;
    case DT_F8E4M3B11FNUZ: bias = 11; break;
    default: break; /* f8E4M3FN, f8E4M3 */
    }
    bool fnuz = dt == DT_F8E4M3FNUZ || dt == DT_F8E4M3B11FNUZ || dt == DT_F8E5M2FNUZ;
    unsigned mantissa = bits & ((1u << man) - 1), exponent = (bits & 0x7fu) >> man, all_ones = 0x7fu >> man;
    double sign = bits & 0x80u ? -1.0 : 1.0;
    if (fnuz && bits == 0x80) return NAN;
    if (dt == DT_F8E4M3FN && (bits & 0x7fu) == 0x7fu) return NAN;
    if ((dt == DT_F8E4M3 || dt == DT_F8E5M2) && exponent == all_ones) return mantissa ? NAN : sign * INFINITY;
    if (exponent == 0) return sign * ldexp((double)mantissa, 1 - bias - man);
    return sign * ldexp((double)(mantissa | 1u << man), (int)exponent - bias - man);
}

double element_as_double(const void *base, int64_t index, DType dt) {
    const uint8_t *p = (const uint8_t *)base + (size_t)index * dtype_size(dt);
    switch (dt) {
    case DT_F16: { uint16_t b; memcpy(&b, p, 2); return f16_bits_to_f32(b); }
    case DT_BF16: { uint16_t b; memcpy(&b, p, 2); return bf16_bits_to_f32(b); }
    case DT_F32: { float f; memcpy(&f, p, 4); return f; }
    case DT_I8: { int8_t x; memcpy(&x, p, 1); return x; }
    case DT_U8: case DT_I1: { uint8_t x; memcpy(&x, p, 1); return x; }
    case DT_I16: { int16_t x; memcpy(&x, p, 2); return x; }
    case DT_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
    case DT_I32: { int32_t x; memcpy(&x, p, 4); return x; }
    case DT_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
    case DT_I64: case DT_INDEX: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case DT_U64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
    case DT_F8E4M3FN: case DT_F8E4M3: case DT_F8E5M2: case DT_F8E8M0FNU:
    case DT_F8E4M3FNUZ: case DT_F8E4M3B11FNUZ: case DT_F8E5M2FNUZ: return f8_value(*p, dt);
    default: return 0.0;
    }
}

void element_format_tprint(char *buf, size_t len, const void *base, int64_t index, DType dt) {
    const uint8_t *p = (const uint8_t *)base + (size_t)index * dtype_size(dt);
    switch (dt) {
    case DT_F16: case DT_BF16: case DT_F32:
    case DT_F8E4M3FN: case DT_F8E4M3: case DT_F8E5M2: case DT_F8E8M0FNU:
    case DT_F8E4M3FNUZ: case DT_F8E4M3B11FNUZ: case DT_F8E5M2FNUZ:
        snprintf(buf, len, "%8.4f", element_as_double(base, index, dt));
        return;
    case DT_I64: case DT_INDEX: { int64_t x; memcpy(&x, p, 8); snprintf(buf, len, "%8lld", (long long)x); return; }
    case DT_U64: { uint64_t x; memcpy(&x, p, 8); snprintf(buf, len, "%8llu", (unsigned long long)x); return; }
    case DT_U32: { uint32_t x; memcpy(&x, p, 4); snprintf(buf, len, "%8u", x); return; }
    default:
        snprintf(buf, len, "%8lld", (long long)element_as_double(base, index, dt));
        return;
    }
}
