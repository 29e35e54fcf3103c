/* elemfn.h - the element functions named in the ELEM column of ops.def: what one element of a
 * compute-family op computes, exactly as the ISA's CPU simulator computes it (docs/execution.md,
 * "Element functions"). Private to the kernel skeletons (kernels_elem.h).
 *
 * Each function NAME has:
 *   EFDOM_NAME          the element types it has kernels for: FI (float and integer), F or I;
 *   EF_NAME(T, a, b, c) (float types) a, b, c are the operands widened to float (exact for f16
 *                       and bf16); the result is a float or a double expression, rounded to the
 *                       element type T (f32, f16, bf16) once by the store. RND(T, x) rounds an
 *                       intermediate to T where the simulator rounds one (an f16 `+=`);
 *   EI_NAME(T, a, b, c) (integer types) a, b, c are the operands in T's C type; the result is
 *                       computed as C++ computes it (promoted, wrapping: through uint64_t where C
 *                       would overflow a signed type) and truncated to T by the store;
 *   EC_NAME(T, a, b)    (integer types) 0, or the EFAULT_* code of an input the simulator would
 *                       crash on (x86 traps integer division by zero).
 * Unary functions ignore b and c; binary ones ignore c. Tile-scalar ops pass the scalar, already
 * converted to the element type, as b (the reversed order of TDIVS passes it as a). */
#ifndef PTO_ELEMFN_H
#define PTO_ELEMFN_H

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { EFAULT_NONE = 0, EFAULT_DIV_ZERO = 1, EFAULT_DIV_OVERFLOW = 2, EFAULT_SHIFT = 3 };

/* The smallest value of a signed type of `bits` bits that is not promoted (int, int64): the
 * division INT_MIN / -1 traps there; narrower types divide in int and wrap on the store. */
#define EI_MIN32 ((int64_t)INT32_MIN)
#define EI_DIV_TRAPS(T, a, b) (EI_SIGNED_WIDE_##T && (b) == -1 && (int64_t)(a) == EI_MIN_##T)
#define EI_SIGNED_WIDE_i8 0
#define EI_SIGNED_WIDE_u8 0
#define EI_SIGNED_WIDE_i16 0
#define EI_SIGNED_WIDE_u16 0
#define EI_SIGNED_WIDE_i32 1
#define EI_SIGNED_WIDE_u32 0
#define EI_SIGNED_WIDE_i64 1
#define EI_SIGNED_WIDE_u64 0
#define EI_MIN_i8 0
#define EI_MIN_u8 0
#define EI_MIN_i16 0
#define EI_MIN_u16 0
#define EI_MIN_i32 EI_MIN32
#define EI_MIN_u32 0
#define EI_MIN_i64 INT64_MIN
#define EI_MIN_u64 0

/* C's usual arithmetic conversions of T: the type an expression of two T values has. */
#define EI_PROMO_i8 int32_t
#define EI_PROMO_u8 int32_t
#define EI_PROMO_i16 int32_t
#define EI_PROMO_u16 int32_t
#define EI_PROMO_i32 int32_t
#define EI_PROMO_u32 uint32_t
#define EI_PROMO_i64 int64_t
#define EI_PROMO_u64 uint64_t
#define EI_P(T, x) ((EI_PROMO_##T)(x))
/* the unsigned type of the promoted width (shifts without signed overflow) */
#define EI_UPROMO_i8 uint32_t
#define EI_UPROMO_u8 uint32_t
#define EI_UPROMO_i16 uint32_t
#define EI_UPROMO_u16 uint32_t
#define EI_UPROMO_i32 uint32_t
#define EI_UPROMO_u32 uint32_t
#define EI_UPROMO_i64 uint64_t
#define EI_UPROMO_u64 uint64_t
#define EI_WRAP(x) ((uint64_t)(x)) /* where a promoted signed result could overflow */

/* Integer quotient truncated toward zero, as C divides. Up to 32 bits it is computed in double:
 * exact, since |a|, |b| < 2^32 make the double quotient's error (below 2^-21 / |b|) smaller than
 * the distance 1 / |b| from a true quotient to the next integer, and it vectorises where the
 * integer divide does not. Divisors of 0 and INT_MIN / -1 never get here (EC_DIVISOR). */
#define EI_QUOT_DOUBLE(T, a, b) ((EI_PROMO_##T)((double)(a) / (double)(b)))
/* The same quotient through float, exact when |a| < 2^24 (any b): with |b| < 2^24 too both convert
 * exactly and the quotient's rounding error, at most 2^-24 |a / b| < 1 / |b|, stays short of the
 * distance from a true quotient to the next integer (at least 1 / |b|), and an integer quotient
 * is a float; with |b| >= 2^24 the quotient rounds to at most 1 - 2^-24 and truncates to 0. Twice
 * as many lanes as the double's, and a faster divider. Every 8- and 16-bit type takes it; 32-bit
 * ones where a row's dividends allow it (EI_WIDE, the kernels' ESQ forms). */
#define EI_QUOT_FLOAT(T, a, b) ((EI_PROMO_##T)((float)(a) / (float)(b)))
#define EI_REMAINDER_FLOAT(T, a, b) ((EI_PROMO_##T)(EI_P(T, a) - (EI_PROMO_##T)EI_QUOT_FLOAT(T, a, b) * EI_P(T, b)))
/* TREM's floor modulo from the float quotient: for |a| < 2^24 the rounding of (float)a / (float)b
 * cannot cross an integer (as for the truncation), so its floor is floor(a/b), and a - q b in the
 * wrapping unsigned type is the floor modulo (the result lies between 0 and b), no sign fix-up */
#define EI_FLOORMOD_FLOAT(T, a, b)                                                                 \
    ((EI_PROMO_##T)((EI_UPROMO_##T)(a) -                                                           \
                    (EI_UPROMO_##T)(int32_t)floorf((float)(a) / (float)(b)) * (EI_UPROMO_##T)(b)))
/* 1 when a 32-bit dividend is outside (-2^24, 2^24), where EI_QUOT_FLOAT may be wrong (branch-free,
 * so that the scan vectorises) */
#define EI_WIDE_i32(a) (EI_WIDE_KEY_i32(a) > EI_WIDE_LIMIT_i32)
#define EI_WIDE_u32(a) (EI_WIDE_KEY_u32(a) > EI_WIDE_LIMIT_u32)
/* the same test as a key and a limit: a chunk's largest key decides for all its dividends (a
 * vector max per step, kernels_elem.h) */
#define EI_WIDE_KEY_i32(a) ((uint32_t)(a) + 0xffffffu)
#define EI_WIDE_LIMIT_i32 0x1fffffeu
#define EI_WIDE_KEY_u32(a) ((uint32_t)(a))
#define EI_WIDE_LIMIT_u32 0xffffffu
#define EI_SMALLQ_OK_i8 0 /* the narrower types always divide in float */
#define EI_SMALLQ_OK_u8 0
#define EI_SMALLQ_OK_i16 0
#define EI_SMALLQ_OK_u16 0
#define EI_SMALLQ_OK_i32 1
#define EI_SMALLQ_OK_u32 1
#define EI_SMALLQ_OK_i64 0
#define EI_SMALLQ_OK_u64 0
#define EI_WIDE_i8(a) 1
#define EI_WIDE_u8(a) 1
#define EI_WIDE_i16(a) 1
#define EI_WIDE_u16(a) 1
#define EI_WIDE_i64(a) 1
#define EI_WIDE_u64(a) 1
#define EI_QUOT_i8 EI_QUOT_FLOAT
#define EI_QUOT_u8 EI_QUOT_FLOAT
#define EI_QUOT_i16 EI_QUOT_FLOAT
#define EI_QUOT_u16 EI_QUOT_FLOAT
#define EI_QUOT_i32 EI_QUOT_DOUBLE
#define EI_QUOT_u32 EI_QUOT_DOUBLE
#define EI_QUOT_i64(T, a, b) (EI_P(T, a) / EI_P(T, b))
#define EI_QUOT_u64(T, a, b) (EI_P(T, a) / EI_P(T, b))
#define EI_QUOT(T, a, b) EI_QUOT_##T(T, a, b)
/* C's remainder (the dividend's sign): a - quotient * b from that exact quotient, which cannot
 * overflow (|quotient * b| <= |a|); vectorises like EI_QUOT, where `%` is one idiv per element. */
#define EI_REMAINDER(T, a, b) ((EI_PROMO_##T)(EI_P(T, a) - (EI_PROMO_##T)EI_QUOT(T, a, b) * EI_P(T, b)))

/* A divisor fixed for a whole call (a tile-scalar op's scalar b), up to 32 bits: the quotient is
 * trunc(a * rb), where rb is 1/b rounded to double and then moved one ulp away from zero
 * (ei_recip_away). Exact: rb lies in (1/|b|, (1/|b|)(1 + 2^-51.4)], so |a| rb rounded is at least
 * |a/b| (an integer quotient is a double and rounding is monotonic) and under |a/b| (1 + 2^-51),
 * short of the next integer (at least 1/|b| away, and |a| < 2^32). A multiply per element where the
 * divide took the divider (tests/unit/test_elem_kernels.c compares it with C's / and %). */
#define EI_RECIP_OK_i8 1
#define EI_RECIP_OK_u8 1
#define EI_RECIP_OK_i16 1
#define EI_RECIP_OK_u16 1
#define EI_RECIP_OK_i32 1
#define EI_RECIP_OK_u32 1
#define EI_RECIP_OK_i64 0
#define EI_RECIP_OK_u64 0
static inline double ei_recip_away(double b) {
    double r = 1.0 / b;
    uint64_t bits;
    memcpy(&bits, &r, sizeof bits);
    bits++; /* finite and nonzero: the next double away from zero */
    memcpy(&r, &bits, sizeof r);
    return r;
}
/* The same in float (rb a float from ei_recipf_away), exact when |a| < 2^21: rb lies in
 * (1/|b|, (1/|b|)(1 + 2^-22)], so |a| rb rounded is at least |a/b| and under |a/b| (1 + 2^-21.6),
 * short of the next integer (1/|b| away) while |a| < 2^21.6. Sixteen lanes where the double has
 * eight; every 8- and 16-bit type, and 32-bit rows whose dividends allow it (key <= limit below). */
static inline float ei_recipf_away(double b) {
    float r = (float)(1.0 / b); /* within 2^-24 (1 + 2^-29) of 1/b: the step away still passes it */
    uint32_t bits;
    memcpy(&bits, &r, sizeof bits);
    bits++;
    memcpy(&r, &bits, sizeof r);
    return r;
}
#define EI_QUOT_RECIP(T, a, rb) ((EI_PROMO_##T)(_Generic((rb), float: (float)(a), default: (double)(a)) * (rb)))
#define EI_WIDE_RECIPF_KEY_i32(a) ((uint32_t)(a) + 0x1fffffu) /* a in (-2^21, 2^21): key <= limit */
#define EI_WIDE_RECIPF_LIMIT_i32 0x3ffffeu
#define EI_WIDE_RECIPF_KEY_u32(a) ((uint32_t)(a))
#define EI_WIDE_RECIPF_LIMIT_u32 0x1fffffu
/* a - q b wrapping in the unsigned type of T's width: the same answer where it is right, and no
 * overflow where the float quotient of a dividend too wide for it is off (kernels_elem.h redoes it) */
#define EI_REMAINDER_RECIP(T, a, b, rb)                                                            \
    ((EI_PROMO_##T)((EI_UPROMO_##T)(a) - (EI_UPROMO_##T)EI_QUOT_RECIP(T, a, rb) * (EI_UPROMO_##T)(b)))
/* 1 when the float forms (EI_QUOT_RECIP with ei_recipf_away, EI_REMAINDER_RECIP, EI_FLOORMOD_FLOAT)
 * are defined for every dividend of a 32-bit T with divisor b: the float quotient's magnitude
 * stays under 2^31 (|b| >= 2; u32's floor converts through int32_t, so b >= 3), though past 2^21
 * it may be off. The kernels then compute a chunk's dividends without first zeroing wide ones. */
#define EI_RECIPF_TOTAL_i8(b) 1
#define EI_RECIPF_TOTAL_u8(b) 1
#define EI_RECIPF_TOTAL_i16(b) 1
#define EI_RECIPF_TOTAL_u16(b) 1
#define EI_RECIPF_TOTAL_i32(b) ((b) <= -2 || (b) >= 2)
#define EI_RECIPF_TOTAL_u32(b) ((b) >= 3u)
#define EI_RECIPF_TOTAL_i64(b) 0
#define EI_RECIPF_TOTAL_u64(b) 0
/* b is neither 0 nor the -1 that traps beside INT_MIN: no element divided by it faults */
#define EI_DIVISOR_SAFE(T, b) ((b) != 0 && !(EI_SIGNED_WIDE_##T && (int64_t)(b) == -1))

#define EC_OK(T, a, b) EFAULT_NONE
/* Branch-free (the two faults exclude each other: bits 0 and 1 are EFAULT_DIV_ZERO and
 * EFAULT_DIV_OVERFLOW), so that the kernels' scan for any fault vectorises; as a ternary it stayed
 * a scalar loop and took 60% of TDIV i32. */
#define EC_DIVISOR(T, a, b)                                                                        \
    (((b) == 0) | ((EI_SIGNED_WIDE_##T & ((int64_t)(b) == -1) & ((int64_t)(a) == EI_MIN_##T)) << 1))
_Static_assert(EFAULT_DIV_ZERO == 1 && EFAULT_DIV_OVERFLOW == 2, "EC_DIVISOR's bits");
/* Shift counts: the simulator shifts the promoted value; counts outside [0, width of the
 * promoted type) are undefined in C++ (and give different bits scalar and vectorised). */
#define EC_SHIFT(T, a, b) ((int64_t)(b) < 0 || (int64_t)(b) >= (int64_t)(8 * sizeof(EI_PROMO_##T)) ? EFAULT_SHIFT : EFAULT_NONE)
/* ECB_NAME defined (as `~, 1`): EC_NAME reads b only, so a tile-scalar kernel checks its scalar
 * once per call instead of once per element (kernels_elem.h, KE_CHECK_B_ONLY) */
#define ECB_shl ~, 1
#define ECB_shr ~, 1
/* ECM_NAME defined (as `~, 1`): EC_NAME faults exactly where ECM_KEY, b as the unsigned type of T's
 * width (a negative count becomes a large one), reaches ECM_LIMIT; a kernel's scan keeps the
 * running maximum of the keys, one vector max per step, where a flag per element took a compare,
 * a masked move and an OR (56% of TSHL i32 64x64) */
#define ECM_shl ~, 1
#define ECM_shr ~, 1
#define ECM_KEY(T, a, b) ((EI_UWIDTH_##T)(b))
#define ECM_LIMIT(T) (8 * sizeof(EI_PROMO_##T))
#define EI_UWIDTH_i8 uint8_t
#define EI_UWIDTH_u8 uint8_t
#define EI_UWIDTH_i16 uint16_t
#define EI_UWIDTH_u16 uint16_t
#define EI_UWIDTH_i32 uint32_t
#define EI_UWIDTH_u32 uint32_t
#define EI_UWIDTH_i64 uint64_t
#define EI_UWIDTH_u64 uint64_t

/* When both operands of a float + - * / are NaN, x86 returns the first source operand's NaN
 * (quieted); a compiler may swap the operands of a commutative operation, and does so differently
 * in scalar and vector code. EF_NAN_FIRST pins the result to the C order's first operand, as the
 * simulator's scalar code computes it, so every kernel variant gives the same payload. */
#define EF_NAN_FIRST(a, r) ((a) != (a) ? (a) + (a) : (r))
/* The pinned float + - * / as functions: an operand that is itself an expression (TADDC's
 * (a + b) + c) is evaluated once, where the macro would paste it three times and the vectoriser,
 * after if-conversion, computes each copy with its own masks (TADDSC f32 ran at 0.3x memcpy). */
static inline float ef_add_pin(float a, float b) { return EF_NAN_FIRST(a, a + b); }
static inline float ef_sub_pin(float a, float b) { return EF_NAN_FIRST(a, a - b); }
static inline float ef_mul_pin(float a, float b) { return EF_NAN_FIRST(a, a * b); }
static inline float ef_div_pin(float a, float b) { return EF_NAN_FIRST(a, a / b); }

/* ECS_NAME (`~, FORM`) and ECSF_NAME (`~, 1`): FORM(T, a, b, c) is EF_NAME's value whenever the
 * scalar operand of a tile-scalar shape (b for `ins(%t, %s)` and the scalar-tile-scalar forms, a
 * for the scalar-first order) is not NaN. A pinned + - * / of one NaN and one non-NaN operand
 * gives that NaN quieted in either operand order, so the form drops the pin where only the scalar
 * could have been the other NaN: one vector operation per element where the pin took three
 * (kernels_elem.h tests the scalar once per call; TMULS f32 64x64 ran at 0.47x memcpy). */
#define EFC_ADD(T, a, b, c) ((a) + (b))
#define EFC_SUB(T, a, b, c) ((a) - (b))
#define EFC_MUL(T, a, b, c) ((a) * (b))
#define EFC_DIV(T, a, b, c) ((a) / (b))
#define ECS_add ~, EFC_ADD
#define ECSF_add ~, 1
#define ECS_sub ~, EFC_SUB
#define ECSF_sub ~, 1
#define ECS_mul ~, EFC_MUL
#define ECSF_mul ~, 1
#define ECS_div ~, EFC_DIV
#define ECSF_div ~, 1

/* ---- arithmetic ------------------------------------------------------------------------------ */
#define EFDOM_add FI
#define EF_add(T, a, b, c) ef_add_pin((a), (b))
#define EI_add(T, a, b, c) (EI_WRAP(a) + EI_WRAP(b))
#define EC_add EC_OK

#define EFDOM_sub FI
#define EF_sub(T, a, b, c) ef_sub_pin((a), (b))
#define EI_sub(T, a, b, c) (EI_WRAP(a) - EI_WRAP(b))
#define EC_sub EC_OK

#define EFDOM_mul FI
#define EF_mul(T, a, b, c) ef_mul_pin((a), (b))
#define EI_mul(T, a, b, c) (EI_WRAP(a) * EI_WRAP(b))
#define EC_mul EC_OK

#define EFDOM_div FI
#define EF_div(T, a, b, c) ef_div_pin((a), (b))
#define EI_div(T, a, b, c) EI_QUOT(T, a, b)
#define EC_div EC_DIVISOR
/* ERB_NAME (`~, FORM`) and ERBF_NAME (`~, 1`): FORM(T, a, b, rb) is EI_NAME for a divisor b fixed
 * per call, rb = ei_recip_away(b) (kernels_elem.h runs it for tile-scalar ops on types with
 * EI_RECIP_OK) */
#define ERB_div ~, EIR_DIV
#define ERBF_div ~, 1
#define EIR_DIV(T, a, b, rb) EI_QUOT_RECIP(T, a, rb)
/* ESQ_NAME (`~, FORM`) and ESQF_NAME (`~, 1`): FORM(T, a, b, c) is EI_NAME with the float quotient,
 * for a row of a 32-bit type whose dividends a are all inside (-2^24, 2^24) (kernels_elem.h). An op
 * with these forms checks its elements with EC_DIVISOR, which for such a dividend faults only where
 * b is 0 (INT_MIN / -1 needs a wide INT_MIN): the cheaper first test of a chunk, as the smallest
 * ESQ_FAULT_KEY of its elements being 0. */
#define ESQ_FAULT_KEY(T, a, b) ((uint32_t)(b))
#define ESQ_div ~, EIS_DIV
#define ESQF_div ~, 1
#define EIS_DIV(T, a, b, c) EI_QUOT_FLOAT(T, a, b)

/* scalar / tile (TDIVS with the scalar first, TRECIP = 1 / x) */
#define EFDOM_rdiv FI
#define EF_rdiv(T, a, b, c) ef_div_pin((a), (b))
#define EI_rdiv(T, a, b, c) EI_QUOT(T, a, b)
#define EC_rdiv EC_DIVISOR
#define ESQ_rdiv ~, EIS_DIV
#define ESQF_rdiv ~, 1
#define ECS_rdiv ~, EFC_DIV
#define ECSF_rdiv ~, 1

/* std::max(a, b) keeps a unless a < b (a NaN in a stays, one in b is dropped); std::min likewise */
#define EFDOM_max FI
#define EF_max(T, a, b, c) ((a) < (b) ? (b) : (a))
#define EI_max(T, a, b, c) ((a) < (b) ? (b) : (a))
#define EC_max EC_OK

#define EFDOM_min FI
#define EF_min(T, a, b, c) ((b) < (a) ? (b) : (a))
#define EI_min(T, a, b, c) ((b) < (a) ? (b) : (a))
#define EC_min EC_OK

/* TREM: C's remainder (fmod in double for floats, rounded to T), then the divisor added when the
 * signs differ (tested with >= 0) and the remainder is not 0: a floor modulo, with the `+=` in T */
#define EFDOM_rem FI
#define EF_rem(T, a, b, c) ef_rem_##T((a), (b))
#define EI_rem(T, a, b, c) ei_rem_##T((a), (b))
#define EC_rem EC_DIVISOR
#define ERB_rem ~, EIR_REM
#define ERBF_rem ~, 1
#define EIR_REM(T, a, b, rb) _Generic((rb), float: ei_rem_recipf_##T, default: ei_rem_recip_##T)((a), (b), (rb))
#define ESQ_rem ~, EIS_REM
#define ESQF_rem ~, 1
#define EIS_REM(T, a, b, c) ei_rem_float_##T((a), (b))

/* TFMOD: C's remainder, sign of the dividend */
#define EFDOM_fmod FI
#define EF_fmod(T, a, b, c) fmod((double)(a), (double)(b))
#define EI_fmod(T, a, b, c) EI_REMAINDER(T, a, b)
#define EC_fmod EC_DIVISOR
#define ERB_fmod ~, EIR_FMOD
#define ERBF_fmod ~, 1
#define ESQ_fmod ~, EIS_FMOD
#define ESQF_fmod ~, 1
#define EIS_FMOD(T, a, b, c) EI_REMAINDER_FLOAT(T, a, b)
#define EIR_FMOD(T, a, b, rb) EI_REMAINDER_RECIP(T, a, b, rb)

/* TPOW: pow in double (f16 rounds through float); integers by squaring, wrapping */
#define EFDOM_pow FI
#define EF_pow(T, a, b, c) EF_POW_##T(a, b)
#define EF_POW_f32(a, b) pow((double)(a), (double)(b))
#define EF_POW_bf16(a, b) pow((double)(a), (double)(b))
#define EF_POW_f16(a, b) ((float)pow((double)(a), (double)(b)))
#define EI_pow(T, a, b, c) ei_pow((int64_t)(a), (int64_t)(b), EI_MINUS_ONE_##T)
/* EIP_NAME defined (as `~, 1`): the binary kernels run EI_NAME on whole rows in the bit-serial
 * form of ei_pow (kernels_elem.h, ke_pow_row), which vectorises; the per-element loop does not */
#define EIP_pow ~, 1
#define EC_pow EC_OK
/* TPOWS: pow in double, converted straight to T (one rounding, also for f16). Integers: the
 * double converted as the simulator's x86-64 code converts it (EI_F2I) */
#define EFDOM_pows FI
#define EF_pows(T, a, b, c) pow((double)(a), (double)(b))
#define EI_pows(T, a, b, c) EI_F2I_##T(pow((double)(a), (double)(b)))
/* double -> the promoted type of T as g++ compiles the simulator's cast for x86-64 without AVX-512
 * (CVTTSD2SI: 32-bit for types up to i32, 64-bit then truncated for u32, kernels.h's
 * scalar_float_to_int for u64), written with signed conversions only: an unsigned C cast becomes
 * the saturating vcvttsd2usi under AVX-512 and would change out-of-range results */
#define EI_F2I_i8(x) ((int32_t)(x))
#define EI_F2I_u8(x) ((int32_t)(x))
#define EI_F2I_i16(x) ((int32_t)(x))
#define EI_F2I_u16(x) ((int32_t)(x))
#define EI_F2I_i32(x) ((int32_t)(x))
#define EI_F2I_u32(x) ((uint32_t)(int64_t)(x))
#define EI_F2I_i64(x) ((int64_t)(x))
#define EI_F2I_u64(x) ((uint64_t)scalar_float_to_int((x), DT_U64, true))
#define EC_pows EC_OK
/* EIPS_NAME defined: tile-scalar kernels of the types whose EI_F2I is the 32-bit conversion (i8 to
 * i32) run EI_NAME on whole rows as a power by squaring (kernels_elem.h, ke_pows_row; exponents 0
 * to 31 in int32 below the base where the power reaches 2^31, the others in double):
 * exact while |a^b| < 2^53, where glibc's pow returns the exact power too (every pair whose power
 * is at most 2^32 in magnitude is compared with pow by tests/unit/test_elem_kernels.c), and a
 * power of 2^31 or more converts to INT32_MIN (CVTTSD2SI's out-of-range answer) either way;
 * negative exponents: 1 / a^-b, which truncates as pow's result does (0, +-1, or INT32_MIN for 0) */
#define EIPS_pows ~, 1
#define EI_POWS_ROW_i8 1
#define EI_POWS_ROW_u8 1
#define EI_POWS_ROW_i16 1
#define EI_POWS_ROW_u16 1
#define EI_POWS_ROW_i32 1
#define EI_POWS_ROW_u32 0
#define EI_POWS_ROW_i64 0
#define EI_POWS_ROW_u64 0

/* ---- bitwise (integers) ------------------------------------------------------------------- */
#define EFDOM_and I
#define EI_and(T, a, b, c) (EI_P(T, a) & EI_P(T, b))
#define EC_and EC_OK
#define EFDOM_or I
#define EI_or(T, a, b, c) (EI_P(T, a) | EI_P(T, b))
#define EC_or EC_OK
#define EFDOM_xor I
#define EI_xor(T, a, b, c) (EI_P(T, a) ^ EI_P(T, b))
#define EC_xor EC_OK
#define EFDOM_shl I
#define EI_shl(T, a, b, c) ((EI_UPROMO_##T)EI_P(T, a) << (EI_P(T, b) & (8 * sizeof(EI_PROMO_##T) - 1)))
#define EC_shl EC_SHIFT
#define EFDOM_shr I
#define EI_shr(T, a, b, c) (EI_P(T, a) >> (EI_P(T, b) & (8 * sizeof(EI_PROMO_##T) - 1)))
#define EC_shr EC_SHIFT
#define EFDOM_not I
#define EI_not(T, a, b, c) (~EI_P(T, a))
#define EC_not EC_OK

/* ---- activation --------------------------------------------------------------------------- */
/* TPRELU / TLRELU: a > 0 ? a : a * b */
#define EFDOM_prelu F
#define EF_prelu(T, a, b, c) ef_prelu((a), (b))
/* TLRELU's scalar b not NaN: a NaN a gives a * b = a quieted, ef_prelu's a + 0 */
#define ECS_prelu ~, EFC_PRELU
#define ECSF_prelu ~, 1
#define EFC_PRELU(T, a, b, c) ((a) > 0.0f ? (a) : (a) * (b))
/* TSUBRELU: ReLU(a - b), where the simulator's ReLU is v > 0 ? v : 0 (NaN and -0 give +0) */
#define EFDOM_subrelu FI
#define EF_subrelu(T, a, b, c) ef_relu0(RND(T, (a) - (b))) /* no pin: ReLU maps every NaN to +0 */
#define EI_subrelu(T, a, b, c) ((EI_PROMO_##T)EI_sub(T, a, b, c) > 0 ? EI_sub(T, a, b, c) : 0) /* on the promoted difference */
#define EC_subrelu EC_OK
#define EFDOM_relu FI
#define EF_relu(T, a, b, c) ((a) < 0.0f ? 0.0f : (a)) /* std::max(a, 0): NaN and -0 stay */
#define EI_relu(T, a, b, c) ((a) < 0 ? 0 : (a))
#define EC_relu EC_OK

/* ---- three operands ------------------------------------------------------------------------ */
/* TADDC (a + b) + c and TSUBC (a - b) + c: one C++ expression, which rounds per operation for
 * f16 and bf16 (as g++ builds the simulator) and twice in f32 */
#define EFDOM_addc FI
#define EF_addc(T, a, b, c) EF_add(T, RND(T, EF_add(T, a, b, c)), c, c)
#define EI_addc(T, a, b, c) (EI_WRAP(a) + EI_WRAP(b) + EI_WRAP(c))
#define EC_addc EC_OK
#define EFDOM_subc FI
#define EF_subc(T, a, b, c) EF_add(T, RND(T, EF_sub(T, a, b, c)), c, c)
#define EI_subc(T, a, b, c) (EI_WRAP(a) - EI_WRAP(b) + EI_WRAP(c))
#define EC_subc EC_OK
/* TADDSC, TSUBSC with the scalar b not NaN: the first operation's pin dropped (ECS_NAME) */
#define ECS_addc ~, EFC_ADDC
#define ECSF_addc ~, 1
#define EFC_ADDC(T, a, b, c) EF_add(T, RND(T, (a) + (b)), c, c)
#define ECS_subc ~, EFC_SUBC
#define ECSF_subc ~, 1
#define EFC_SUBC(T, a, b, c) EF_add(T, RND(T, (a) - (b)), c, c)

/* TAXPY: dst + src * scalar, the product rounded to T first (f16: `volatile` in the simulator) */
#define EFDOM_axpy F
#define EF_axpy(T, a, b, c) EF_add(T, c, RND(T, EF_mul(T, a, b, c)), c)
#define ECS_axpy ~, EFC_AXPY
#define ECSF_axpy ~, 1
#define EFC_AXPY(T, a, b, c) EF_add(T, c, RND(T, (a) * (b)), c)

/* TROWEXPANDEXPDIF / TCOLEXPANDEXPDIF: exp(double(a - b)), the difference taken in T first */
#define EFDOM_expdif F
#define EF_expdif(T, a, b, c) exp((double)RND(T, EF_sub(T, a, b, c)))

/* ---- one operand --------------------------------------------------------------------------- */
#define EFDOM_neg FI
#define EF_neg(T, a, b, c) (-(a))
#define EI_neg(T, a, b, c) (0 - EI_WRAP(a))
#define EC_neg EC_OK
/* TABS: x < 0 ? -x : x (-0 and NaN stay as they are), written as -x > x ? -x : x, the same value
 * for every x, which x86 computes as one max of -x and x (two vector operations; the compare and
 * masked move of the first spelling took three: TABS f32 64x64 ran at 0.41x memcpy) */
#define EFDOM_abs FI
#define EF_abs(T, a, b, c) (-(a) > (a) ? -(a) : (a))
#define EI_abs(T, a, b, c) ((a) < 0 ? 0 - EI_WRAP(a) : EI_WRAP(a))
#define EC_abs EC_OK
/* TEXP: expf for f16 (rounded from float), exp in double for f32 and bf16 */
#define EFDOM_exp F
#define EF_exp(T, a, b, c) EF_EXP_##T(a)
#define EF_EXP_f16(a) expf(a)
#define EF_EXP_f32(a) exp((double)(a))
#define EF_EXP_bf16(a) exp((double)(a))
#define EFDOM_log F
#define EF_log(T, a, b, c) log((double)(a))
#define EFDOM_sqrt F
/* TSQRT: the simulator's sqrt in double, rounded to T. sqrtf gives the same bits (and vectorises):
 * a square root correctly rounded to p' >= 2p + 2 bits, then to p bits, is the correct rounding
 * to p bits (f32 24 >= 2*11+2 and 2*8+2; double 53 >= 2*24+2), and NaN, -0 and negative inputs
 * give the same NaN or zero (tests/unit/test_kernels_fast.c checks all f16 and bf16 inputs) */
#define EF_sqrt(T, a, b, c) sqrtf(a)
#define EFDOM_rsqrt F
#define EF_rsqrt(T, a, b, c) (1.0 / sqrt((double)(a)))
/* TRECIP is TDIVS(dst, 1, src): 1 converted to T, divided by x in T */
#define EFDOM_recip FI
#define EF_recip(T, a, b, c) (1.0f / (a))
#define EI_recip(T, a, b, c) EI_QUOT_FLOAT(T, 1, a) /* a dividend of 1: exact on every type */
#define EC_recip(T, a, b) EC_DIVISOR(T, 1, a)

/* ---- approximate, then verify the rounding ------------------------------------------------- *
 * A float function whose exact form calls libm once per element (exp, log) may also have a fast
 * form the skeletons use on contiguous rows (kernels_elem.h, KE_DEF_APPROX):
 *   EFX_NAME   "~, FN": FN(T, a, b, c) is a double within a relative error e of EF_NAME's value
 *              before its rounding to T (a NaN where it does not apply);
 *   EFXM_NAME  "~, FNM": FNM(T) is a relative margin m, more than e plus the error of the libm
 *              call EF_NAME makes (glibc: exp, log under 1 ulp of double, expf under 1 ulp of
 *              float).
 * The skeleton rounds v*(1-m) and v*(1+m) to T. Rounding is monotonic, so when both give the
 * same value every number between them does too, the libm result among them: v's rounding is
 * then exactly what EF_NAME stores. Otherwise (a NaN, an input out of the fast range, or v within
 * m of a rounding boundary of T) the element is computed by EF_NAME itself. The answer is thus
 * EF_NAME's on every kernel path, bit for bit; only the time differs. The approximations were
 * checked on every float input against glibc (largest error 2^-51.1 for log, 2^-51.5 for exp;
 * with the fused multiply-adds of the AVX2 and AVX-512 variants, against expl/logl: 2^-51.45 and
 * 2^-51.27),
 * and tests/unit/test_kernels_fast.c checks them on a sample of all floats and the boundaries. */

/* the fast forms are inlined into the skeletons' loops, which vectorise only then */
#define EF_FAST_INLINE static inline __attribute__((always_inline))

/* c[0] x^(n-1) + ... + c[n-1] by Horner's rule (n is a constant: the loop unrolls); each step is
 * one fused multiply-add in the kernel variants that have FMA (one rounding, not two: the error
 * bounds below hold either way, and the verified results do not depend on it) */
EF_FAST_INLINE double ef_horner(double x, const double *c, size_t n) {
    double p = c[0];
#ifdef __FMA__
    for (size_t i = 1; i < n; i++) p = __builtin_fma(p, x, c[i]);
#else
    for (size_t i = 1; i < n; i++) p = p * x + c[i];
#endif
    return p;
}

/* exp(x) for x in [-110, 100] (clamped: below, exp rounds to +0 in every T; above, to +Inf),
 * x = k ln2 + r with |r| <= ln2/2 (Cody-Waite, ln2 in two parts: k ln2_hi exact), exp(r) by its
 * Taylor polynomial of degree 12 (remainder under 2^-52), 2^k from the bits of the rounding
 * constant. Relative error under 2^-51; a NaN stays NaN. */
EF_FAST_INLINE double ef_exp_approx(double x) {
    x = x < -110.0 ? -110.0 : x;
    x = x > 100.0 ? 100.0 : x;
    const double shift = 0x1.8p52; /* x/ln2 + shift: the nearest integer k in the low bits */
    const double t = x * 0x1.71547652b82fep0 + shift;
    const double k = t - shift;
    const double r = (x - k * 0x1.62e42feep-1) - k * 0x1.a39ef35793c76p-33;
    static const double taylor[] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
                                    1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,     1.0 / 120.0,
                                    1.0 / 24.0,        1.0 / 6.0,        0.5,             1.0,
                                    1.0}; /* 1/12! ... 1/0! */
    const double p = ef_horner(r, taylor, sizeof taylor / sizeof *taylor);
    uint64_t tb;
    memcpy(&tb, &t, sizeof tb);
    const uint64_t scale_bits = (tb - 0x4338000000000000ull + 1023u) << 52; /* 2^k, k in [-159, 145] */
    double scale;
    memcpy(&scale, &scale_bits, sizeof scale);
    return p * scale;
}

/* log(x) for finite x > 0 (else NaN): x = 2^e m with m in [sqrt(1/2), sqrt(2)), log m =
 * 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, by its series to s^21 (remainder under 2^-54), plus
 * e ln2 (ln2 in two parts, e ln2_hi exact). Relative error under 2^-51. */
EF_FAST_INLINE double ef_log_approx(double x) {
    uint64_t xb;
    memcpy(&xb, &x, sizeof xb);
    const uint64_t off = xb - 0x3fe6a09e667f3bcdull; /* the bits of sqrt(1/2) */
    const int64_t e = (int64_t)off >> 52;
    const uint64_t mb = xb - ((uint64_t)e << 52);
    double m;
    memcpy(&m, &mb, sizeof m);
    const uint64_t eb = 0x4338000000000000ull + (uint64_t)e; /* e as a double without a conversion */
    double ed;
    memcpy(&ed, &eb, sizeof ed);
    ed -= 0x1.8p52;
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double z = s * s;
    static const double series[] = {1.0 / 21.0, 1.0 / 19.0, 1.0 / 17.0, 1.0 / 15.0, 1.0 / 13.0,
                                    1.0 / 11.0, 1.0 / 9.0,  1.0 / 7.0,  1.0 / 5.0,  1.0 / 3.0};
    const double p = ef_horner(z, series, sizeof series / sizeof *series);
    const double v = ed * 0x1.62e42feep-1 + (ed * 0x1.a39ef35793c76p-33 + 2.0 * s * (1.0 + z * p));
    return x > 0.0 && x <= 0x1.fffffffffffffp1023 ? v : NAN;
}

/* fmod(a, b) of two floats (f32, or f16/bf16 widened), exact, when both are finite, b != 0 and
 * |a| < 2^29 |b|; else NaN. The quotient a/b rounded to double is truncated through int32: it is
 * trunc(a/b), since a quotient just below an integer k < 2^29 is at least 2^-24 below it (k b - a
 * is a nonzero multiple of b's ulp, at least |b| 2^-24), more than half a double ulp of k. Then
 * q*b has at most 29 + 24 bits and a - q*b is exact. The result takes a's sign, zero included,
 * as fmod's does. Same bits as glibc's fmod on 200 million random pairs (most on this path). */
EF_FAST_INLINE double ef_fmod_fast(double a, double b) {
    const double abs_a = fabs(a), abs_b = fabs(b);
    const int ok = abs_b > 0.0 && abs_a < 0x1p29 * abs_b && abs_b <= 0x1p128; /* NaN, Inf fail */
    const double quotient = a / b; /* then the select: no branch around the division */
    const double q = (double)(int32_t)(ok ? quotient : 0.0);
    return ok ? copysign(a - q * b, a) : NAN;
}

/* 1/sqrt(a) of a float, for a positive normal finite a (else NaN): the bits' halved exponent as a
 * first guess (3.5% off), three Newton steps y (3/2 - a/2 y^2) in float (a few ulps of float), one
 * in double. A scan of every positive normal float, portable and AVX-512 builds, found a largest
 * relative error of 2^-44.07 (at 0x0083ebc5) against 1.0 / sqrt((double)a), itself within 2^-51.9
 * of the true value; the margin 2^-40 leaves 44706 of the 2^31 - 2^24 inputs to the exact
 * function and rounds every other one as it does. TRSQRT f32 64x64 ran at 0.013x memcpy: a double
 * square root and division per element. */
EF_FAST_INLINE double ef_rsqrt_approx(float a) {
    uint32_t bits;
    memcpy(&bits, &a, sizeof bits);
    const int ok = bits - 0x00800000u < 0x7f000000u; /* [FLT_MIN, FLT_MAX]: not -, 0, subnormal, Inf, NaN */
    const uint32_t guess = 0x5f3759dfu - (bits >> 1);
    float y;
    memcpy(&y, &guess, sizeof y);
    const float half = 0.5f * a;
    y = y * (1.5f - half * y * y);
    y = y * (1.5f - half * y * y);
    y = y * (1.5f - half * y * y);
    const double yd = y, half_d = 0.5 * (double)a;
    const double r = yd * (1.5 - half_d * yd * yd);
    return ok ? r : NAN;
}
#define EFX_rsqrt ~, EFX_RSQRT
#define EFX_RSQRT(T, a, b, c) ef_rsqrt_approx(a)
#define EFXM_rsqrt ~, EFXM_RSQRT
#define EFXM_RSQRT(T) 0x1p-40

/* the margins: both approximations and glibc's exp and log are within 2^-51 of the true value;
 * f16 TEXP calls expf, within 2^-23 */
#define EFX_MARGIN_DOUBLE 0x1p-46
#define EFX_exp ~, EFX_EXP
#define EFX_EXP(T, a, b, c) ef_exp_approx((double)(a))
#define EFXM_exp ~, EFXM_EXP
#define EFXM_EXP(T) EFXM_EXP_##T
#define EFXM_EXP_f32 EFX_MARGIN_DOUBLE
#define EFXM_EXP_bf16 EFX_MARGIN_DOUBLE
#define EFXM_EXP_f16 0x1p-21
#define EFX_log ~, EFX_LOG
#define EFX_LOG(T, a, b, c) ef_log_approx((double)(a))
#define EFXM_log ~, EFXM_DOUBLE
#define EFXM_DOUBLE(T) EFX_MARGIN_DOUBLE
#define EFX_expdif ~, EFX_EXPDIF
#define EFX_EXPDIF(T, a, b, c) ef_exp_approx((double)RND(T, EF_sub(T, a, b, c)))
#define EFXM_expdif ~, EFXM_DOUBLE
/* pow(a, b) on f32 as exp(b log a) in double, for finite a > 0 (else NaN: libm): the product's
 * relative error is the log's (2^-51) times |b log a|, under about 2^-44 wherever the result is a
 * finite float (|b log a| < 104), and exp adds 2^-51; glibc's pow is within 2^-52. */
EF_FAST_INLINE double ef_pow_approx(double a, double b) { return ef_exp_approx(b * ef_log_approx(a)); }
#define EFX_pow ~, EFX_POW
#define EFX_POW(T, a, b, c) ef_pow_approx((double)(a), (double)(b))
#define EFXM_pow ~, EFXM_POW
#define EFXM_POW(T) EFXM_POW_##T
#define EFXM_POW_f32 0x1p-42
#define EFXM_POW_f16 0.0 /* through float: two roundings, not this form's one */
#define EFXM_POW_bf16 0.0
#define EFX_pows ~, EFX_POW
#define EFXM_pows ~, EFXM_POW

/* fmod and TREM's floor modulo are exact where they run fast: a margin only marks them. f32
 * only: the loop stays scalar (no vector int32 truncation of the quotient here), which beats the
 * libm call on f32 but not f16/bf16's own loop (their margin 0: no fast form) */
#define EFX_fmod ~, EFX_FMOD
#define EFX_FMOD(T, a, b, c) ef_fmod_fast((double)(a), (double)(b))
#define EFXM_fmod ~, EFXM_EXACT
#define EFXM_EXACT(T) EFXM_EXACT_##T
#define EFXM_EXACT_f32 0x1p-60
#define EFXM_EXACT_f16 0.0
#define EFXM_EXACT_bf16 0.0
#define EFX_rem ~, EFX_REM
#define EFX_REM(T, a, b, c) ef_rem_fast_##T((a), (b))
#define EFXM_rem ~, EFXM_EXACT

/* ---- helpers ------------------------------------------------------------------------------- */
/* TPRELU / TLRELU, a > 0 ? a : a * b with a NaN a quieted whatever b is (the pinned product's
 * value), as one test: a <= 0 ? a * b : a + 0. For a > 0, a + 0 is a; for a NaN a (a <= 0 false) it
 * is a quieted; otherwise a is not NaN, so a * b is the pinned product in either operand order.
 * (x + 0 is not folded to x: -0 + 0 is +0.) A compare, a multiply, an add and a blend, where the
 * pin's separate NaN test and blend took six operations (TPRELU f32 64x64: 0.47x memcpy). */
static inline float ef_prelu(float a, float b) { return a <= 0.0f ? a * b : a + 0.0f; }
static inline float ef_relu0(float v) { return v > 0.0f ? v : 0.0f; }

/* 1 where the simulator's integer_pow (exponent cast to int64_t) can see a negative exponent and a
 * base equal to -1: the signed types, and u64, whose exponents from 2^63 on cast to negative ones and
 * whose UINT64_MAX compares equal to -1 (a power of 0, or +-1 for that base: TPow.hpp) */
#define EI_MINUS_ONE_i8 1
#define EI_MINUS_ONE_i16 1
#define EI_MINUS_ONE_i32 1
#define EI_MINUS_ONE_i64 1
#define EI_MINUS_ONE_u8 0
#define EI_MINUS_ONE_u16 0
#define EI_MINUS_ONE_u32 0
#define EI_MINUS_ONE_u64 1

/* integer_pow of the simulator: base^exp by squaring in the element type (the low bits of a
 * 64-bit product are those of the narrower one); exp 0 or base 1 give 1, a negative exp gives 0
 * (+-1 for a base of -1 in a signed type). */
static inline uint64_t ei_pow(int64_t base, int64_t exp, int signed_type) {
    if (exp == 0 || base == 1) return 1;
    if (exp < 0) {
        if (signed_type && base == -1) return exp % 2 == 0 ? 1 : (uint64_t)-1;
        return 0;
    }
    uint64_t result = 1, b = (uint64_t)base, e = (uint64_t)exp;
    while (e > 0) {
        if (e & 1) result *= b;
        b *= b;
        e >>= 1;
    }
    return result;
}

/* ---- native f16 (CPUs with AVX512-FP16) --------------------------------------------------- *
 * EHN_NAME (`~, 1, FORM`): FORM(a, b, c) is EF_NAME's f16 result computed on _Float16 operands in
 * native f16 arithmetic, for the variant whose f16 kernels use it (kernels_avx512.c defines
 * KISA_F16_NATIVE). Each + - * rounds once to f16, which is the f32 operation
 * rounded to f16 (f32 keeps 24 bits, at least 2 x 11 + 2: the double rounding is innocuous, as for / and sqrt), so
 * the bits are EF_NAME's, overflow and subnormals included. NaNs: the f32 path widens every
 * operand, which quiets a signalling NaN, and pins a NaN first operand (EF_NAN_FIRST); the native
 * forms quiet and pin the same way (EFH_PIN, also on the selections: max, min, abs, neg, ReLU),
 * and an invalid operation gives f16's default NaN, 0xfe00, the f32 one narrowed.
 * EHNC_NAME (`~, FORM`): the same with the scalar operand known not to be NaN (ECS_NAME's case).
 * Division and square root have no native form: vdivph and vsqrtph on 32 lanes took 1.5-1.8x the
 * time of two vdivps/vsqrtps on 16 with their conversions (an Intel Xeon with AVX512-FP16: tdiv
 * f16 64x64 742 -> 1120 ns, tsqrt 850 -> 1563 ns). */
#ifdef KISA_F16_NATIVE
typedef _Float16 efh;
#define EFH_PIN(a, r) ((a) != (a) ? (a) + (a) : (r))
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_add(efh a, efh b) { return EFH_PIN(a, a + b); }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_sub(efh a, efh b) { return EFH_PIN(a, a - b); }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_mul(efh a, efh b) { return EFH_PIN(a, a * b); }
/* a selection returns an operand's bits: a NaN a (the only NaN it can return) quieted */
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_max(efh a, efh b) { return EFH_PIN(a, a < b ? b : a); }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_min(efh a, efh b) { return EFH_PIN(a, b < a ? b : a); }
/* (a NaN quieted by + 0, not by a + a: GCC turns -(a + a) into a * -2, which keeps the NaN's sign) */
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_neg(efh a) { return -(a != a ? a + (efh)0 : a); }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_abs(efh a) { return EFH_PIN(a, -a > a ? -a : a); }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_relu(efh a) { return EFH_PIN(a, a < 0 ? (efh)0 : a); }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_relu0(efh v) { return v > 0 ? v : (efh)0; }
KISA_F16_NATIVE static inline __attribute__((always_inline)) efh efh_prelu(efh a, efh b) { return a <= 0 ? a * b : a + (efh)0; }
#define EHN_add ~, 1, EFH_ADD
#define EHN_sub ~, 1, EFH_SUB
#define EHN_mul ~, 1, EFH_MUL
#define EHN_max ~, 1, EFH_MAX
#define EHN_min ~, 1, EFH_MIN
#define EHN_neg ~, 1, EFH_NEG
#define EHN_abs ~, 1, EFH_ABS
#define EHN_relu ~, 1, EFH_RELU
#define EHN_prelu ~, 1, EFH_PRELU
#define EHN_subrelu ~, 1, EFH_SUBRELU
#define EHN_addc ~, 1, EFH_ADDC
#define EHN_subc ~, 1, EFH_SUBC
#define EHN_axpy ~, 1, EFH_AXPY
#define EFH_ADD(a, b, c) efh_add((a), (b))
#define EFH_SUB(a, b, c) efh_sub((a), (b))
#define EFH_MUL(a, b, c) efh_mul((a), (b))
#define EFH_MAX(a, b, c) efh_max((a), (b))
#define EFH_MIN(a, b, c) efh_min((a), (b))
#define EFH_NEG(a, b, c) efh_neg(a)
#define EFH_ABS(a, b, c) efh_abs(a)
#define EFH_RELU(a, b, c) efh_relu(a)
#define EFH_PRELU(a, b, c) efh_prelu((a), (b))
#define EFH_SUBRELU(a, b, c) efh_relu0((efh)((a) - (b)))
#define EFH_ADDC(a, b, c) efh_add(efh_add((a), (b)), (c))
#define EFH_SUBC(a, b, c) efh_add(efh_sub((a), (b)), (c))
#define EFH_AXPY(a, b, c) efh_add((c), efh_mul((a), (b)))
/* the scalar not NaN: its operation's pin dropped, as ECS_NAME */
#define EHNC_add ~, EFHC_ADD
#define EHNC_sub ~, EFHC_SUB
#define EHNC_mul ~, EFHC_MUL
#define EHNC_addc ~, EFHC_ADDC
#define EHNC_subc ~, EFHC_SUBC
#define EHNC_axpy ~, EFHC_AXPY
#define EFHC_ADD(a, b, c) ((efh)((a) + (b)))
#define EFHC_SUB(a, b, c) ((efh)((a) - (b)))
#define EFHC_MUL(a, b, c) ((efh)((a) * (b)))
#define EFHC_ADDC(a, b, c) efh_add((efh)((a) + (b)), (c))
#define EFHC_SUBC(a, b, c) efh_add((efh)((a) - (b)), (c))
#define EFHC_AXPY(a, b, c) efh_add((c), (efh)((a) * (b)))
#endif

#endif
