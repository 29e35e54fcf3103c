/* kernels_elem.h - the skeletons of the elementwise families (ops.def: BINARY_OP, TERNARY_OP,
 * UNARY_OP, TILE_SCALAR_OP, TILE_SCALAR_TILE_OP), instantiated for every member row and element
 * type from the row's element function (elemfn.h). Included by kernels_isa.h once per
 * instruction-set variant, after the conversions and walk helpers it defines.
 *
 * One skeleton per kind of element type:
 *   f32 and integers: a loop over each row's contiguous run, which the compiler vectorises where
 *     the element function allows (the file is built with -O3; no FMA, no reassociation);
 *   f16 and bf16: chunks of the rows (short rows packed together) are widened to f32 with the
 *     variant's vector conversions, the
 *     function is computed in f32 (or double, for libm functions), and the result is rounded back
 *     once per element, as the simulator rounds its `_Float16` / bfloat16 results;
 *   col-major float operands (all of them) go column by column (no float function faults); any other
 *     layout, and a destination that overlaps a source other than in place: the
 *     sequential reference loop (row-major order, element by element, the simulator's order).
 * Integer functions with a fault check (division, shifts) test each element before computing it
 * and return the fault; every other kernel returns EFAULT_NONE.
 * The fast loops read each source element once into a local before the element function sees it:
 * the functions are macros that name an operand several times (`a < 0 ? -a : a`), and after
 * if-conversion the vectoriser emits one load per mention (a third more loads in TABS). */

#include "elemfn.h"

/* ---- element types: storage, widening, rounding ------------------------------------------ */

#define KE_STORE_f32 float
#define KE_STORE_f16 uint16_t
#define KE_STORE_bf16 uint16_t
#define KE_STORE_i8 int8_t
#define KE_STORE_u8 uint8_t
#define KE_STORE_i16 int16_t
#define KE_STORE_u16 uint16_t
#define KE_STORE_i32 int32_t
#define KE_STORE_u32 uint32_t
#define KE_STORE_i64 int64_t
#define KE_STORE_u64 uint64_t

/* how the skeleton treats the type: F32, HALF (f16, bf16: widened in chunks) or INT */
#define KE_KIND_f32 F32
#define KE_KIND_f16 HALF
#define KE_KIND_bf16 HALF
#define KE_KIND_i8 INT
#define KE_KIND_u8 INT
#define KE_KIND_i16 INT
#define KE_KIND_u16 INT
#define KE_KIND_i32 INT
#define KE_KIND_u32 INT
#define KE_KIND_i64 INT
#define KE_KIND_u64 INT

/* element -> f32 (exact) */
#define KE_LD_f32(x) (x)
#define KE_LD_f16(x) fp_f16_to_f32(x)
#define KE_LD_bf16(x) fp_bf16_to_f32(x)
/* f32 or double -> storage, one rounding (nearest even) */
#define KE_ST_f32(x) ((float)(x))
#define KE_ST_f16(x) _Generic((x), double: fp_f64_to_f16, default: fp_f32_to_f16)(x)
#define KE_ST_bf16(x) _Generic((x), double: fp_f64_to_bf16, default: fp_f32_to_bf16)(x)
/* an intermediate result rounded to the element type, as a float (elemfn.h's RND). A float is
 * rounded to f16 without a branch (fp_f32_round_f16: the loop vectorises, where the conversions to
 * bits and back branch per element); a double through fp_f64_to_f16 (one rounding). */
#define RND(T, x) KE_RND_##T(x)
#define KE_RND_f32(x) ((float)(x))
#define KE_RND_bf16(x) KE_LD_bf16(KE_ST_bf16(x))
#define KE_RND_f16(x) _Generic((x), double: KE_LD_f16(fp_f64_to_f16(x)), default: fp_f32_round_f16(x))
/* a result as the float that the variant's narrowing (RNE) turns into the element type's correct
 * rounding: a float as it is, a double rounded to odd first (one rounding in all, as KE_ST) */
KINLINE float ke_float_id(float x) { return x; }
#define KE_NARROWABLE(x) _Generic((x), double: fp_f64_to_f32_odd, default: ke_float_id)(x)
#define KE_WIDEN_f16 cvt_f16_to_f32 /* kernels_isa.h */
#define KE_WIDEN_bf16 cvt_bf16_to_f32
#define KE_NARROW_f16 cvt_f32_to_f16
#define KE_NARROW_bf16 cvt_f32_to_bf16
/* the scalar of a tile-scalar op (converted to the element type at lowering) */
#define KE_SCALAR_F(k) ((k).f)
#define KE_SCALAR_INT(T, k) ((KE_STORE_##T)(k).u)

/* TREM for each float type: fmod in double rounded to T, then `dst += src1` in T */
#define KE_DEF_REM(T)                                                                              \
    KINLINE float ef_rem_##T(float a, float b) {                                                   \
        float r = RND(T, fmod((double)a, (double)b));                                              \
        if ((a >= 0.0f) != (b >= 0.0f) && r != 0.0f) r = RND(T, r + b);                           \
        return r;                                                                                  \
    }
KE_DEF_REM(f32)
KE_DEF_REM(f16)
KE_DEF_REM(bf16)
/* ef_rem_T on fmod's fast form (elemfn.h, ef_fmod_fast): NaN where that does not apply */
#define KE_DEF_REM_FAST(T)                                                                         \
    KINLINE double ef_rem_fast_##T(float a, float b) {                                             \
        const double m = ef_fmod_fast((double)a, (double)b);                                       \
        float r = RND(T, (float)m); /* exact: the remainder of two T values is one */              \
        r = (a >= 0.0f) != (b >= 0.0f) && r != 0.0f ? RND(T, r + b) : r;                           \
        return m == m ? (double)r : NAN;                                                           \
    }
KE_DEF_REM_FAST(f32)
KE_DEF_REM_FAST(f16)
KE_DEF_REM_FAST(bf16)
/* TREM for each integer type: C's % in the promoted type (EI_REMAINDER), stored, then `dst += src1` */
#define KE_DEF_IREM(T)                                                                             \
    KINLINE KE_STORE_##T ei_rem_##T(KE_STORE_##T a, KE_STORE_##T b) {                              \
        KE_STORE_##T r = (KE_STORE_##T)EI_REMAINDER(T, a, b);                                      \
        if ((a >= 0) != (b >= 0) && r != 0) r = (KE_STORE_##T)(EI_WRAP(r) + EI_WRAP(b));           \
        return r;                                                                                  \
    }                                                                                              \
    /* the same with a divisor fixed per call (elemfn.h, EI_QUOT_RECIP; types up to 32 bits, whose \
     * wrapped sum is that of the promoted width's unsigned type: 32-bit lanes, no 64-bit ones) */ \
    KINLINE KE_STORE_##T ei_rem_recip_##T(KE_STORE_##T a, KE_STORE_##T b, double rb) {             \
        const KE_STORE_##T r = (KE_STORE_##T)EI_REMAINDER_RECIP(T, a, b, rb);                      \
        const EI_UPROMO_##T add = (a >= 0) != (b >= 0) && r != 0 ? (EI_UPROMO_##T)b : 0;            \
        return (KE_STORE_##T)((EI_UPROMO_##T)r + add);                                             \
    }                                                                                              \
    /* where the float reciprocal applies (dividends inside (-2^21, 2^21)), the floor of the float  \
     * quotient instead (EI_FLOORMOD_FLOAT): a divide and no sign fix-up beat the multiply and the \
     * fix-up (the floor of a product by a reciprocal rounded away from zero is not the floor of   \
     * the quotient) */                                                                            \
    KINLINE KE_STORE_##T ei_rem_recipf_##T(KE_STORE_##T a, KE_STORE_##T b, float rb) {             \
        (void)rb;                                                                                  \
        return (KE_STORE_##T)EI_FLOORMOD_FLOAT(T, a, b);                                           \
    }                                                                                              \
    /* the same from the floor of the float quotient (elemfn.h, EI_FLOORMOD_FLOAT: dividends inside \
     * (-2^24, 2^24)) */                                                                          \
    KINLINE KE_STORE_##T ei_rem_float_##T(KE_STORE_##T a, KE_STORE_##T b) {                        \
        return (KE_STORE_##T)EI_FLOORMOD_FLOAT(T, a, b);                                           \
    }
KE_DEF_IREM(i8)
KE_DEF_IREM(u8)
KE_DEF_IREM(i16)
KE_DEF_IREM(u16)
KE_DEF_IREM(i32)
KE_DEF_IREM(u32)
KE_DEF_IREM(i64)
KE_DEF_IREM(u64)

/* TPOW for a row of each integer type: ei_pow (the simulator's integer_pow) with the bit loop
 * outside the element loop, so that the element loop vectorises. For each chunk: exponent bit k of
 * every element multiplies its result by its base^(2^k) (square-and-multiply from the low bit, the
 * same products as ei_pow, in the unsigned type of the promoted width, whose low bits are those
 * of ei_pow's 64-bit products); the chunk stops after the highest bit any exponent has. Negative
 * exponents then take ei_pow's answers (0; 1 for a base of 1; +-1 for -1 in a signed type), and
 * exponent 0 or base 1 give 1 from the loop itself. Reads element i of both sources before writing
 * element i only: in place is safe. */
/* 1 when x, a value of integer type T, is negative (never for the unsigned types): its sign bit, in
 * T's width (a `< 0` on a 64-bit copy made the vectoriser use 64-bit lanes) */
#define KE_NEGATIVE(T, x) (EI_MINUS_ONE_##T && (((EI_UPROMO_##T)(EI_PROMO_##T)(x) >> (8 * sizeof(x) - 1)) & 1))
/* One chunk of KE_DEF_POW_ROW whose exponents are all below 2^NB (NB a constant: the bit loop
 * unrolls, and no square past the chunk's highest bit is computed); NEG 0 when none is negative */
#define KE_POW_ROW_SMALL(T, NB, NEG)                                                               \
    for (int64_t i = 0; i < m; i++) {                                                              \
        const U a = (U)(EI_PROMO_##T)pa[c0 + i], e = (U)(EI_PROMO_##T)pe[c0 + i];                  \
        const U x = (NEG) && KE_NEGATIVE(T, pe[c0 + i]) ? 0 : e;                                   \
        U b = a, r = x & 1 ? a : 1;                                                                \
        for (int k = 1; k < (NB); k++) {                                                           \
            b *= b;                                                                                \
            r = (x >> k) & 1 ? r * b : r;                                                          \
        }                                                                                          \
        const U neg = a == 1 ? 1 : EI_MINUS_ONE_##T && a == (U)-1 ? ((e & 1) == 0 ? 1 : (U)-1) : 0; \
        dp[c0 + i] = (ST)((NEG) && KE_NEGATIVE(T, pe[c0 + i]) ? neg : r);                          \
    }
/* Elements c0..c0+m-1 of KE_DEF_POW_ROW when eor, the OR of their exponents, is under 32: none
 * negative, as many bits as eor has */
#define KE_POW_ROW_UNSIGNED(T)                                                                     \
    if (eor < 2) KE_POW_ROW_SMALL(T, 1, 0)                                                         \
    else if (eor < 4) KE_POW_ROW_SMALL(T, 2, 0)                                                    \
    else if (eor < 8) KE_POW_ROW_SMALL(T, 3, 0)                                                    \
    else if (eor < 16) KE_POW_ROW_SMALL(T, 4, 0)                                                   \
    else KE_POW_ROW_SMALL(T, 5, 0)
#define KE_DEF_POW_ROW(T)                                                                          \
    KINLINE void ke_pow_row_##T(KE_STORE_##T *dp, const KE_STORE_##T *pa, const KE_STORE_##T *pe, int64_t n) { \
        typedef KE_STORE_##T ST;                                                                   \
        typedef EI_UPROMO_##T U;                                                                   \
        U res[KE_CHUNK], base[KE_CHUNK], ex[KE_CHUNK];                                             \
        U eor = 0; /* first the whole row at once when it qualifies (one scan, one pass) */        \
        for (int64_t i = 0; i < n; i++) eor |= (U)(EI_PROMO_##T)pe[i];                             \
        if (eor < 32) {                                                                            \
            const int64_t c0 = 0, m = n;                                                           \
            KE_POW_ROW_UNSIGNED(T)                                                                 \
            return;                                                                                \
        }                                                                                          \
        for (int64_t c0 = 0; c0 < n; c0 += KE_CHUNK) {                                             \
            const int64_t m = n - c0 < KE_CHUNK ? n - c0 : KE_CHUNK;                               \
            eor = 0;                                                                               \
            for (int64_t i = 0; i < m; i++) eor |= (U)(EI_PROMO_##T)pe[c0 + i];                    \
            if (eor < 32) {                                                                        \
                KE_POW_ROW_UNSIGNED(T)                                                             \
                continue;                                                                          \
            }                                                                                      \
            U emax = 0;                                                                            \
            for (int64_t i = 0; i < m; i++) emax |= KE_NEGATIVE(T, pe[c0 + i]) ? 0 : (U)pe[c0 + i]; \
            if (emax < 32) { /* five bits at most: one pass, the same products in registers */    \
                KE_POW_ROW_SMALL(T, 5, 1)                                                          \
                continue;                                                                          \
            }                                                                                      \
            emax = 0;                                                                              \
            for (int64_t i = 0; i < m; i++) {                                                      \
                const ST e = pe[c0 + i];                                                           \
                ex[i] = KE_NEGATIVE(T, e) ? 0 : (U)e;                                              \
                emax |= ex[i];                                                                     \
                base[i] = (U)(EI_PROMO_##T)pa[c0 + i];                                             \
                res[i] = 1;                                                                        \
            }                                                                                      \
            for (; emax; emax >>= 1)                                                               \
                for (int64_t i = 0; i < m; i++) {                                                  \
                    const U b = base[i], r = res[i];                                               \
                    res[i] = ex[i] & 1 ? r * b : r;                                                \
                    base[i] = b * b;                                                               \
                    ex[i] >>= 1;                                                                   \
                }                                                                                  \
            for (int64_t i = 0; i < m; i++) { /* in T's width: no 64-bit lanes */                  \
                const U a = (U)(EI_PROMO_##T)pa[c0 + i], e = (U)(EI_PROMO_##T)pe[c0 + i];          \
                const U neg = a == 1 ? 1 : EI_MINUS_ONE_##T && a == (U)-1 ? ((e & 1) == 0 ? 1 : (U)-1) : 0; \
                dp[c0 + i] = (ST)(KE_NEGATIVE(T, pe[c0 + i]) ? neg : res[i]);                      \
            }                                                                                      \
        }                                                                                          \
    }
/* TPOWS for a row of the types up to 32 bits with a scalar exponent (elemfn.h, EIPS_pows): the
 * power by squaring in double, one multiply pass per exponent bit over the chunk (the exponent is
 * the same for every element), then 1 / power for a negative exponent, converted as EI_F2I. */
/* b^m for m < 32 by squaring, the products in the order of the passes below (b, then each further
 * bit's square multiplied in where the bit is set); the squares past m's top bit are not used */
KINLINE double ke_pow_small(double b, uint64_t m) {
    double r = m & 1 ? b : 1.0;
    for (int k = 1; k < 5; k++) {
        b *= b;
        r = (m >> k) & 1 ? r * b : r;
    }
    return r;
}
/* The smallest t with t^m >= 2^31 (m in 1..31): a base of magnitude t or more has a power that
 * CVTTSD2SI turns into INT32_MIN, and every smaller one a power that fits int32 exactly */
static inline uint32_t ke_pow_overflow_base(uint64_t m) {
    uint32_t t = (uint32_t)pow(2.0, 31.0 / (double)m);
    if (t > 2) t -= 2; /* below the root; then up to the first t whose power reaches 2^31 */
    for (;; t++) {
        uint64_t p = 1;
        for (uint64_t k = 0; k < m && p < (1ull << 31); k++) p *= t;
        if (p >= (1ull << 31)) return t;
    }
}
/* a^m in 32-bit wrapping arithmetic for m < 2^NB by squaring (NB a constant: the bit loop unrolls),
 * and INT32_MIN where |a| >= big: the power in the int32 range is exact, and one at or past 2^31
 * in magnitude is what pow's conversion gives (INT32_MIN, which -2^31 itself is too) */
#define KE_POWS_I32_LOOP(T, NB)                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const uint32_t a = (uint32_t)(int32_t)(EI_PROMO_##T)pa[i];                                \
        const uint32_t mag = (int32_t)a < 0 ? 0u - a : a;                                          \
        uint32_t b = a, r = m & 1 ? a : 1u;                                                        \
        for (int k = 1; k < (NB); k++) {                                                           \
            b *= b;                                                                                \
            r = (m >> k) & 1 ? r * b : r;                                                          \
        }                                                                                          \
        dp[i] = (KE_STORE_##T)(int32_t)(mag >= big ? 0x80000000u : r);                            \
    }
#define KE_DEF_POWS_ROW(T)                                                                         \
    KINLINE void ke_pows_row_##T(KE_STORE_##T *dp, const KE_STORE_##T *pa, KE_STORE_##T k, int64_t n) { \
        const int64_t e = (int64_t)k;                                                              \
        const uint64_t m = e < 0 ? 0 - (uint64_t)e : (uint64_t)e;                                  \
        if (e >= 0 && m < 32) { /* in int32, exact below the bound that pow's conversion overflows */ \
            const uint32_t big = m ? ke_pow_overflow_base(m) : UINT32_MAX;                         \
            if (m < 2) KE_POWS_I32_LOOP(T, 1)                                                      \
            else if (m < 4) KE_POWS_I32_LOOP(T, 2)                                                 \
            else if (m < 8) KE_POWS_I32_LOOP(T, 3)                                                 \
            else if (m < 16) KE_POWS_I32_LOOP(T, 4)                                                \
            else KE_POWS_I32_LOOP(T, 5)                                                            \
            return;                                                                                \
        }                                                                                          \
        if (m < 32) { /* a negative exponent: 1 / a^m, the squares in registers */                  \
            for (int64_t i = 0; i < n; i++)                                                        \
                dp[i] = (KE_STORE_##T)EI_F2I_##T(1.0 / ke_pow_small((double)pa[i], m));           \
            return;                                                                                \
        }                                                                                          \
        double res[KE_CHUNK], base[KE_CHUNK];                                                      \
        for (int64_t c0 = 0; c0 < n; c0 += KE_CHUNK) {                                             \
            const int64_t len = n - c0 < KE_CHUNK ? n - c0 : KE_CHUNK;                             \
            for (int64_t i = 0; i < len; i++) {                                                    \
                base[i] = (double)pa[c0 + i];                                                      \
                res[i] = m & 1 ? base[i] : 1.0;                                                    \
            }                                                                                      \
            for (uint64_t bits = m >> 1; bits; bits >>= 1) { /* one pass per further bit */        \
                if (bits & 1)                                                                      \
                    for (int64_t i = 0; i < len; i++) {                                            \
                        const double b = base[i] * base[i];                                        \
                        base[i] = b;                                                               \
                        res[i] *= b;                                                               \
                    }                                                                              \
                else                                                                               \
                    for (int64_t i = 0; i < len; i++) base[i] *= base[i];                          \
            }                                                                                      \
            if (e < 0)                                                                             \
                for (int64_t i = 0; i < len; i++) res[i] = 1.0 / res[i];                           \
            for (int64_t i = 0; i < len; i++) dp[c0 + i] = (KE_STORE_##T)EI_F2I_##T(res[i]);       \
        }                                                                                          \
    }
#define KE_POWS_ROW_i8 ke_pows_row_i8
#define KE_POWS_ROW_u8 ke_pows_row_u8
#define KE_POWS_ROW_i16 ke_pows_row_i16
#define KE_POWS_ROW_u16 ke_pows_row_u16
#define KE_POWS_ROW_i32 ke_pows_row_i32
#define KE_POWS_ROW_u32(...) (void)0 /* EI_POWS_ROW_u32 is 0: never called */
#define KE_POWS_ROW_i64(...) (void)0
#define KE_POWS_ROW_u64(...) (void)0
#define KE_CHUNK 256
KE_DEF_POWS_ROW(i8)
KE_DEF_POWS_ROW(u8)
KE_DEF_POWS_ROW(i16)
KE_DEF_POWS_ROW(u16)
KE_DEF_POWS_ROW(i32)
KE_DEF_POW_ROW(i8)
KE_DEF_POW_ROW(u8)
KE_DEF_POW_ROW(i16)
KE_DEF_POW_ROW(u16)
KE_DEF_POW_ROW(i32)
KE_DEF_POW_ROW(u32)
KE_DEF_POW_ROW(i64)
KE_DEF_POW_ROW(u64)

/* ---- operand shapes: where a, b and c of the element function come from ------------------ */
/* x0, x1, x2 are the sources' elements, k the scalar. U unary, B binary, T ternary, S tile-scalar,
 * R scalar-tile (reversed), SC tile-scalar-tile, CE column expand (B, planned for a src1 of one
 * row read again for every row: row stride 0). NSRC: source tiles read. */
#define KE_NSRC_U 1
#define KE_NSRC_B 2
#define KE_NSRC_CE 2
#define KE_NSRC_T 3
#define KE_NSRC_S 1
#define KE_NSRC_R 1
#define KE_NSRC_SC 2
#define KE_ARGS_U(x0, x1, x2, k) x0, x0, x0
#define KE_ARGS_B(x0, x1, x2, k) x0, x1, x1
#define KE_ARGS_CE(x0, x1, x2, k) x0, x1, x1
#define KE_ARGS_T(x0, x1, x2, k) x0, x1, x2
#define KE_ARGS_S(x0, x1, x2, k) x0, k, k
#define KE_ARGS_R(x0, x1, x2, k) k, x0, x0
#define KE_ARGS_SC(x0, x1, x2, k) x0, k, x1
/* the fault check takes a and b */
#define KE_CHK_U(x0, x1, x2, k) x0, x0
#define KE_CHK_B(x0, x1, x2, k) x0, x1
#define KE_CHK_CE(x0, x1, x2, k) x0, x1
#define KE_CHK_T(x0, x1, x2, k) x0, x1
#define KE_CHK_S(x0, x1, x2, k) x0, k
#define KE_CHK_R(x0, x1, x2, k) k, x0
#define KE_CHK_SC(x0, x1, x2, k) x0, k

#define KE_CALL(m, ...) m(__VA_ARGS__)
/* 1 when elem's fault check reads only its b operand (elemfn.h's ECB_NAME), else 0 */
#define KE_SECOND_(x, y, ...) y
#define KE_SECOND(...) KE_SECOND_(__VA_ARGS__)
#define KE_CHECK_B_ONLY(elem) KE_SECOND(ECB_##elem, 0, ~)
#define KE_FAULT_MAX(elem) KE_SECOND(ECM_##elem, 0, ~)
/* elem's form for a divisor fixed per call (elemfn.h's ERB_NAME), and 1 when it has one on T */
#define KE_NO_RECIP(T, a, b, rb) ((void)(a), (void)(rb), 0)
#define KE_RECIP(elem) KE_SECOND(ERB_##elem, KE_NO_RECIP, ~)
#define KE_INT_RECIP(elem, T) (KE_SECOND(ERBF_##elem, 0, ~) && EI_RECIP_OK_##T)
/* elem's form with the float quotient (elemfn.h's ESQ_NAME), and 1 when it has one on T */
#define KE_NO_SMALLQ(T, a, b, c) ((void)(a), (void)(b), 0)
#define KE_SMALLQ(elem) KE_SECOND(ESQ_##elem, KE_NO_SMALLQ, ~)
#define KE_INT_SMALLQ(elem, T) (KE_SECOND(ESQF_##elem, 0, ~) && EI_SMALLQ_OK_##T)
#define KE_FIRST_(a, ...) a
#define KE_FIRST(...) KE_FIRST_(__VA_ARGS__)
/* elements per scan-then-compute chunk of the integer skeleton (a multiple of every vector width;
 * at 32 bits two sources and the destination take 24 KiB, read again from L1 by the pass after the
 * scan) */
#define KE_ICHUNK 2048
/* A 32-bit dividend is too wide for the float reciprocal (elemfn.h, EI_WIDE_RECIPF_KEY) when its key
 * exceeds T's limit: a chunk's test is then its largest key, kept with one vector max per step
 * where a flag per element took a compare, a mask move and an OR. Never below 32 bits (limit and
 * key 0), always at 64. */
#define KE_WIDE_KEY(T, a) KE_WIDE_KEY_##T(a)
#define KE_WIDE_LIMIT(T) KE_WIDE_LIMIT_##T
#define KE_WIDE_KEY_i8(a) 0u
#define KE_WIDE_KEY_u8(a) 0u
#define KE_WIDE_KEY_i16(a) 0u
#define KE_WIDE_KEY_u16(a) 0u
#define KE_WIDE_KEY_i32(a) EI_WIDE_RECIPF_KEY_i32(a)
#define KE_WIDE_KEY_u32(a) EI_WIDE_RECIPF_KEY_u32(a)
#define KE_WIDE_KEY_i64(a) 1u /* (no reciprocal form: always wide) */
#define KE_WIDE_KEY_u64(a) 1u
#define KE_WIDE_LIMIT_i8 0u
#define KE_WIDE_LIMIT_u8 0u
#define KE_WIDE_LIMIT_i16 0u
#define KE_WIDE_LIMIT_u16 0u
#define KE_WIDE_LIMIT_i32 EI_WIDE_RECIPF_LIMIT_i32
#define KE_WIDE_LIMIT_u32 EI_WIDE_RECIPF_LIMIT_u32
#define KE_WIDE_LIMIT_i64 0u
#define KE_WIDE_LIMIT_u64 0u
/* EI_WIDE_T as a key and a limit where the float quotient may apply (32 bits); else never asked */
#define KE_SQ_WIDE_KEY(T, a) KE_SQ_WIDE_KEY_##T(a)
#define KE_SQ_WIDE_LIMIT(T) KE_SQ_WIDE_LIMIT_##T
#define KE_SQ_WIDE_KEY_i32(a) EI_WIDE_KEY_i32(a)
#define KE_SQ_WIDE_KEY_u32(a) EI_WIDE_KEY_u32(a)
#define KE_SQ_WIDE_LIMIT_i32 EI_WIDE_LIMIT_i32
#define KE_SQ_WIDE_LIMIT_u32 EI_WIDE_LIMIT_u32
#define KE_SQ_WIDE_KEY_i8(a) 1u
#define KE_SQ_WIDE_KEY_u8(a) 1u
#define KE_SQ_WIDE_KEY_i16(a) 1u
#define KE_SQ_WIDE_KEY_u16(a) 1u
#define KE_SQ_WIDE_KEY_i64(a) 1u
#define KE_SQ_WIDE_KEY_u64(a) 1u
#define KE_SQ_WIDE_LIMIT_i8 0u
#define KE_SQ_WIDE_LIMIT_u8 0u
#define KE_SQ_WIDE_LIMIT_i16 0u
#define KE_SQ_WIDE_LIMIT_u16 0u
#define KE_SQ_WIDE_LIMIT_i64 0u
#define KE_SQ_WIDE_LIMIT_u64 0u
/* 1 when elem has a row form for two tile operands (elemfn.h's EIP_NAME), else 0 */
#define KE_INT_POW(elem) KE_SECOND(EIP_##elem, 0, ~)
/* 1 when elem has a row form for a tile and a scalar on type T (elemfn.h's EIPS_NAME) */
#define KE_INT_POWS(elem, T) (KE_SECOND(EIPS_##elem, 0, ~) && EI_POWS_ROW_##T)
/* 1 for the shapes whose b is the scalar */
#define KE_B_IS_SCALAR_U 0
#define KE_B_IS_SCALAR_B 0
#define KE_B_IS_SCALAR_CE 0
/* 1 for the column expand, whose src1 is one row when read at row stride 0 (its executor's
 * call; a kernel called with any other stride computes as the binary shape B) */
#define KE_ROW_SRC1_U 0
#define KE_ROW_SRC1_B 0
#define KE_ROW_SRC1_T 0
#define KE_ROW_SRC1_S 0
#define KE_ROW_SRC1_R 0
#define KE_ROW_SRC1_SC 0
#define KE_ROW_SRC1_CE 1
#define KE_B_IS_SCALAR_T 0
#define KE_B_IS_SCALAR_S 1
#define KE_B_IS_SCALAR_R 0
#define KE_B_IS_SCALAR_SC 1
#define KE_NAME(op, dt) ke_##op##_##dt
/* the f32 and integer row loops unrolled: a loop of two or three vector operations per store (TABS's
 * negate and max) was bound by its own loop overhead, 1.6 cycles per vector on an Intel Xeon with
 * AVX-512 where memcpy takes 0.8; two vectors per turn: TABS f32 64x64 156 -> 117 ns in a bare
 * loop. A scan of one load and one max per vector (KE_FAULT_MAX) takes four. */
#define KE_UNROLL2 _Pragma("GCC unroll 2")
#define KE_UNROLL4 _Pragma("GCC unroll 4")
/* 1 for the shapes with a scalar operand (b, or a for R): those that use elemfn.h's ECS_NAME form */
#define KE_HAS_SCALAR_U 0
#define KE_HAS_SCALAR_B 0
#define KE_HAS_SCALAR_CE 0
#define KE_HAS_SCALAR_T 0
#define KE_HAS_SCALAR_S 1
#define KE_HAS_SCALAR_R 1
#define KE_HAS_SCALAR_SC 1
/* elem's form for a scalar that is not NaN (elemfn.h's ECS_NAME), and 1 when shape uses one */
#define KE_NO_CLEAN(T, a, b, c) 0.0f
#define KE_CLEAN(elem) KE_SECOND(ECS_##elem, KE_NO_CLEAN, ~)
#define KE_HAS_CLEAN(elem, shape) (KE_SECOND(ECSF_##elem, 0, ~) && KE_HAS_SCALAR_##shape)

/* Element (r, c) of operand t as an lvalue of storage type S. */
#define KE_AT(S, t, r, c) (((S *)(t).p)[(r) * (int64_t)(t).rs + (c) * (int64_t)(t).cs])

/* True when the fast loops may run: dst and every source have unit column stride, and every
 * source is dst itself (the same walk) or shares no byte with it, so that any order gives the
 * sequential loop's result. Operands that all have unit row stride instead (col-major tiles, as
 * the N x 1 row statistics of a softmax) are walked column by column: rows and columns swap in
 * *rows, *cols and the tiles *d, *s0..*s2 (sources; copies of the first where unused),
 * when transpose_ok (not for functions that fault: the simulator's loop writes the elements
 * before a fault in row-major order); a single row or column has no stride to match. Makes one run of all rows (*cols = rows * cols,
 * *rows = 1) when every operand's rows follow each other; the overlap test is then one comparison
 * of byte ranges of the same length per source (the 16x16 fixed cost, issue #11: the general test
 * took about 130 instructions of an op's 370). On false nothing is changed. */
KINLINE bool ke_plan_rows(KTile d, KTile s0, KTile s1, KTile s2, int n, int64_t *rows, int64_t *cols, size_t es) {
    const int64_t R = *rows, C = *cols;
    const bool merge = R == 1 || (d.rs == C && s0.rs == C && (n < 2 || s1.rs == C) && (n < 3 || s2.rs == C));
    if (!merge)
        return elementwise_safe(d, s0, R, C, es) && (n < 2 || elementwise_safe(d, s1, R, C, es)) &&
               (n < 3 || elementwise_safe(d, s2, R, C, es));
    const uintptr_t bytes = (uintptr_t)(R * C) * es, dp = (uintptr_t)d.p, p0 = (uintptr_t)s0.p,
                    p1 = (uintptr_t)s1.p, p2 = (uintptr_t)s2.p;
    const bool safe = (p0 == dp || p0 + bytes <= dp || dp + bytes <= p0) &&
                      (n < 2 || p1 == dp || p1 + bytes <= dp || dp + bytes <= p1) &&
                      (n < 3 || p2 == dp || p2 + bytes <= dp || dp + bytes <= p2);
    if (!safe) return false;
    *cols = R * C;
    *rows = 1;
    return true;
}
KINLINE KTile ke_transposed(KTile t) { return (KTile){t.p, t.cs, 1}; }
KINLINE bool ke_plan_flat(KTile *d, KTile *s0, KTile *s1, KTile *s2, int n, int64_t *rows, int64_t *cols, size_t es,
                          bool transpose_ok) {
    if ((d->cs == 1 && s0->cs == 1 && s1->cs == 1 && s2->cs == 1) || *cols == 1)
        return ke_plan_rows(*d, *s0, *s1, *s2, n, rows, cols, es);
    if (!transpose_ok || !((d->rs == 1 && s0->rs == 1 && s1->rs == 1 && s2->rs == 1) || *rows == 1)) return false;
    KTile td = ke_transposed(*d), t0 = ke_transposed(*s0), t1 = ke_transposed(*s1), t2 = ke_transposed(*s2);
    int64_t R = *cols, C = *rows;
    if (!ke_plan_rows(td, t0, t1, t2, n, &R, &C, es)) return false;
    *d = td, *s0 = t0, *s1 = t1, *s2 = t2;
    *rows = R, *cols = C;
    return true;
}

/* The plan of a column expand (shape CE): true when dst and src0 are walked row by row with unit
 * column stride (any stride for one column), src0 is dst itself or shares no byte with it, and
 * src1's one row (cols elements at unit stride) shares no byte with dst; the rows then run in any
 * order. Two range tests where the general plan makes a test per source row stride (src1's is 0,
 * so that its rows never merge): the column expand's 16x16 fixed cost, issue #11. */
KINLINE bool ke_plan_colexp(KTile d, KTile s0, KTile s1, int64_t rows, int64_t cols, size_t es) {
    if (!((d.cs == 1 && s0.cs == 1 && s1.cs == 1) || cols == 1)) return false;
    const uintptr_t dp = (uintptr_t)d.p, dend = span_end(d, rows, cols, es), p1 = (uintptr_t)s1.p;
    return (p1 + (uintptr_t)cols * es <= dp || dend <= p1) &&
           ((s0.p == d.p && s0.rs == d.rs) || span_end(s0, rows, cols, es) <= dp || dend <= (uintptr_t)s0.p);
}

/* ---- approximate, then verify the rounding (elemfn.h: EFX_NAME, EFXM_NAME) ------------------ */
#define KE_NO_APX(T, a, b, c) 0.0
#define KE_NO_APX_MARGIN(T) 0.0
#define KE_APX(elem) KE_SECOND(EFX_##elem, KE_NO_APX, ~)
/* elem's margin on T; 0 when elem has no fast form (the skeletons test it at compile time) */
#define KE_APX_MARGIN(elem, T) KE_CALL(KE_SECOND(EFXM_##elem, KE_NO_APX_MARGIN, ~), T)

/* v rounded to T, as the float the skeleton stores (f32) or narrows exactly (f16, bf16); *unsure
 * when v is NaN or v*(1-margin) and v*(1+margin) round to different values of T. f16 and bf16
 * round in double by adding and taking away 2^(e + 53 - p) with v's sign (e: v's binade, at
 * least T's smallest normal one; p: T's precision): the sum's quantum is T's, and the addition
 * rounds to nearest even as T's own rounding does; a value past T's range rounds past its
 * largest finite value and the narrowing makes it Inf, as it does the libm result. */
KINLINE float ke_apx_round_f32(double v, double margin, bool *unsure) {
    *unsure = !(v == v) || (float)(v * (1.0 - margin)) != (float)(v * (1.0 + margin));
    return (float)v;
}
KINLINE double ke_apx_shift(double v, uint64_t min_binade, uint64_t spare_bits) {
    uint64_t vb;
    memcpy(&vb, &v, sizeof vb);
    uint64_t b = vb & 0x7ff0000000000000ull;
    b = (b < min_binade ? min_binade : b) + (spare_bits << 52);
    b |= vb & 0x8000000000000000ull;
    double shift;
    memcpy(&shift, &b, sizeof shift);
    return shift;
}
#define KE_DEF_APX_ROUND_HALF(T, min_exp, prec)                                                    \
    KINLINE float ke_apx_round_##T(double v, double margin, bool *unsure) {                        \
        const double shift = ke_apx_shift(v, (uint64_t)(1023 + (min_exp)) << 52, 53 - (prec));    \
        const double lo = (v * (1.0 - margin) + shift) - shift, hi = (v * (1.0 + margin) + shift) - shift; \
        *unsure = !(v == v) || lo != hi;                                                           \
        return (float)copysign((v + shift) - shift, v); /* x - x is +0: a zero keeps v's sign */  \
    }
KE_DEF_APX_ROUND_HALF(f16, -14, 11)
KE_DEF_APX_ROUND_HALF(bf16, -126, 8)

/* moving a row piece between a tile and the chunk buffers (f32 copied; f16, bf16 widened/narrowed) */
#define KE_APX_DIRECT_F32 1 /* a whole chunk of a row is read in place */
#define KE_APX_DIRECT_HALF 0
#define KE_APX_LOAD_F32(T, to, from, m) memcpy(to, from, (size_t)(m) * sizeof(float))
#define KE_APX_STORE_F32(T, to, from, m) memcpy(to, from, (size_t)(m) * sizeof(float))
#define KE_APX_LOAD_HALF(T, to, from, m) KE_WIDEN_##T(to, from, m)
#define KE_APX_STORE_HALF(T, to, from, m) KE_NARROW_##T(to, from, m)

/* ke_chunk_OP_T computes one chunk from float sources (x0, x1, x2 at p0, p1, p2; kv the scalar)
 * into fo, which may not overlap the sources; m <= KE_CHUNK. For an element function with a fast
 * form: that form, vectorised, with a flag per element whose rounding it cannot vouch for, then
 * EF_elem for the flagged ones (elemfn.h, "approximate, then verify"); else EF_elem on every element.
 * ke_rows_OP_T runs a contiguous, safe (in place or disjoint) region through it: the rows' pieces
 * are packed into whole chunks (short rows batched, so that the loop stays vectorised and a row
 * of 8 f16 does not pay a chunk's fixed cost), and a chunk is stored only after it is wholly
 * loaded. Used for every f16/bf16 region and for the f32 fast forms. */
/* ke_rows_OP_T's loop for rows of at most half a chunk: KE_CHUNK / w whole rows of w elements per chunk */
#define KE_SHORT_ROWS(op, shape, T, kind, w)                                                       \
    do {                                                                                           \
        const int64_t w_ = (w), per_ = KE_CHUNK / w_;                                              \
        const bool one_row_ = one_row && n > 1; /* src1's one row (a column expand's): loaded once */ \
        for (int64_t j = 0; one_row_ && j < per_ && j < rows; j++)                                 \
            KE_APX_LOAD_##kind(T, g1 + j * w_, (const ST *)s1.p, w_);                               \
        for (int64_t r0 = 0; r0 < rows; r0 += per_) {                                              \
            const int64_t nr = rows - r0 < per_ ? rows - r0 : per_;                                \
            for (int64_t j = 0; j < nr; j++) {                                                     \
                KE_APX_LOAD_##kind(T, g0 + j * w_, (const ST *)s0.p + (r0 + j) * s0.rs, w_);       \
                if (n > 1 && !one_row_)                                                            \
                    KE_APX_LOAD_##kind(T, g1 + j * w_, (const ST *)s1.p + (r0 + j) * s1.rs, w_);   \
                if (n > 2) KE_APX_LOAD_##kind(T, g2 + j * w_, (const ST *)s2.p + (r0 + j) * s2.rs, w_); \
            }                                                                                      \
            ke_chunk_##op##_##T(fo, g0, g1, g2, kv, nr * w_);                                      \
            for (int64_t j = 0; j < nr; j++)                                                       \
                KE_APX_STORE_##kind(T, (ST *)d.p + (r0 + j) * d.rs, fo + j * w_, w_);              \
        }                                                                                          \
    } while (0)
#define KE_DEF_CHUNKS(op, shape, elem, T, kind)                                                    \
    static __attribute__((noinline)) void ke_chunk_##op##_##T(float *fo, const float *p0, const float *p1, const float *p2, float kv, \
                                     int64_t m) {                                                  \
        const double margin = KE_APX_MARGIN(elem, T);                                              \
        (void)kv;                                                                                  \
        if (!(margin > 0.0) && KE_HAS_CLEAN(elem, shape) && kv == kv) { /* no pin for the scalar */ \
            for (int64_t i = 0; i < m; i++) {                                                      \
                const float x0 = p0[i], x1 = p1[i], x2 = p2[i];                                    \
                (void)x0, (void)x1, (void)x2; /* KE_NO_CLEAN uses none */                          \
                fo[i] = KE_OUT_##T(KE_CALL(KE_CLEAN(elem), T, KE_ARGS_##shape(x0, x1, x2, kv)));   \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        if (!(margin > 0.0)) { /* no fast form */                                                  \
            for (int64_t i = 0; i < m; i++) {                                                      \
                const float x0 = p0[i], x1 = p1[i], x2 = p2[i];                                    \
                (void)x1, (void)x2;                                                                \
                fo[i] = KE_OUT_##T(KE_CALL(EF_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv)));        \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        uint8_t unsure[KE_CHUNK];                                                                  \
        int any = 0;                                                                               \
        for (int64_t i = 0; i < m; i++) {                                                          \
            const float x0 = p0[i], x1 = p1[i], x2 = p2[i];                                        \
            (void)x0, (void)x1, (void)x2; /* used by the fast forms, not KE_NO_APX */              \
            bool bad;                                                                              \
            fo[i] = ke_apx_round_##T(KE_CALL(KE_APX(elem), T, KE_ARGS_##shape(x0, x1, x2, kv)), margin, &bad); \
            unsure[i] = bad;                                                                       \
            any |= bad;                                                                            \
        }                                                                                          \
        for (int64_t i = 0; any && i < m; i++)                                                     \
            if (unsure[i]) {                                                                       \
                const float x0 = p0[i], x1 = p1[i], x2 = p2[i];                                    \
                (void)x1, (void)x2;                                                                \
                fo[i] = KE_OUT_##T(KE_CALL(EF_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv)));        \
            }                                                                                      \
    }                                                                                              \
    KINLINE void ke_rows_##op##_##T(KTile d, KTile s0, KTile s1, KTile s2, int n, bool one_row, float kv, \
                                    int64_t rows, int64_t cols) {                                  \
        typedef KE_STORE_##T ST;                                                                   \
        float g0[KE_CHUNK], g1[KE_CHUNK], g2[KE_CHUNK], fo[KE_CHUNK];                              \
        if (rows == 1 && !KE_APX_DIRECT_##kind) { /* one run (merged rows): chunks of it */          \
            for (int64_t c0 = 0; c0 < cols; c0 += KE_CHUNK) {                                      \
                const int64_t m = cols - c0 < KE_CHUNK ? cols - c0 : KE_CHUNK;                     \
                KE_APX_LOAD_##kind(T, g0, (const ST *)s0.p + c0, m);                               \
                if (n > 1) KE_APX_LOAD_##kind(T, g1, (const ST *)s1.p + c0, m);                    \
                if (n > 2) KE_APX_LOAD_##kind(T, g2, (const ST *)s2.p + c0, m);                    \
                ke_chunk_##op##_##T(fo, g0, g1, g2, kv, m);                                        \
                KE_APX_STORE_##kind(T, (ST *)d.p + c0, fo, m);                                     \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        if (cols <= KE_CHUNK / 2) { /* short rows: whole rows per chunk (rows of NL elements, as  \
                                       * a 2048x8 tile's, and single elements, as an N x 1 tile's   \
                                       * in a padded one, with copies of a constant length) */     \
            if (cols == NL) KE_SHORT_ROWS(op, shape, T, kind, NL);                                        \
            else if (cols == 2 * NL) KE_SHORT_ROWS(op, shape, T, kind, 2 * NL);                           \
            else if (cols == 4 * NL) KE_SHORT_ROWS(op, shape, T, kind, 4 * NL);                           \
            else if (cols == 1) KE_SHORT_ROWS(op, shape, T, kind, 1);                                     \
            else KE_SHORT_ROWS(op, shape, T, kind, cols);                                                 \
            return;                                                                                \
        }                                                                                          \
        int64_t r = 0, c = 0, wr = 0, wc = 0; /* the next element to load, to store */             \
        while (r < rows) {                                                                         \
            if (KE_APX_DIRECT_##kind && c + KE_CHUNK <= cols) { /* a whole chunk of one row */      \
                const float *p0 = (const float *)s0.p + r * s0.rs + c, *p1 = (const float *)s1.p + r * s1.rs + c, \
                            *p2 = (const float *)s2.p + r * s2.rs + c;                             \
                ke_chunk_##op##_##T(fo, p0, p1, p2, kv, KE_CHUNK);                                 \
                memcpy((float *)d.p + r * d.rs + c, fo, sizeof fo);                                \
                c += KE_CHUNK, wc += KE_CHUNK;                                                     \
                if (c == cols) c = 0, r++, wc = 0, wr++;                                           \
                continue;                                                                          \
            }                                                                                      \
            int64_t fill = 0;                                                                      \
            while (r < rows && fill < KE_CHUNK) {                                                  \
                const int64_t take = cols - c < KE_CHUNK - fill ? cols - c : KE_CHUNK - fill;      \
                KE_APX_LOAD_##kind(T, g0 + fill, (const ST *)s0.p + r * s0.rs + c, take);          \
                if (n > 1) KE_APX_LOAD_##kind(T, g1 + fill, (const ST *)s1.p + r * s1.rs + c, take); \
                if (n > 2) KE_APX_LOAD_##kind(T, g2 + fill, (const ST *)s2.p + r * s2.rs + c, take); \
                fill += take, c += take;                                                           \
                if (c == cols) c = 0, r++;                                                         \
            }                                                                                      \
            ke_chunk_##op##_##T(fo, g0, g1, g2, kv, fill);                                         \
            for (int64_t off = 0; off < fill;) {                                                   \
                const int64_t take = cols - wc < fill - off ? cols - wc : fill - off;              \
                KE_APX_STORE_##kind(T, (ST *)d.p + wr * d.rs + wc, fo + off, take);                \
                off += take, wc += take;                                                           \
                if (wc == cols) wc = 0, wr++;                                                      \
            }                                                                                      \
        }                                                                                          \
    }
#define KE_OUT_f32(x) KE_ST_f32(x)
#define KE_OUT_f16(x) KE_NARROWABLE(x)
#define KE_OUT_bf16(x) KE_NARROWABLE(x)

/* ---- f32 ------------------------------------------------------------------------------------ */
/* row(dp, p0, p1, p2, kv, w) on each row of a walk (ke_rowwalk_OP_T's variables) */
#define KE_ROWWALK(row, w)                                                                         \
    for (; rows > 0; rows--, dp += drs, p0 += rs0, p1 += rs1, p2 += rs2) row(dp, p0, p1, p2, kv, w)
#define KE_DEF_F32(op, shape, elem, T)                                                             \
    KINLINE void ke_row_##op##_##T(float *restrict dp, const float *p0, const float *p1, const float *p2, \
                                   float kv, int64_t cols) {                                       \
        (void)p1, (void)p2, (void)kv;                                                              \
        if (KE_HAS_CLEAN(elem, shape) && kv == kv) { /* the scalar is not NaN: no pin for it */     \
            KE_UNROLL2 for (int64_t c = 0; c < cols; c++) {                                        \
                const float x0 = p0[c], x1 = p1[c], x2 = p2[c];                                    \
                (void)x0, (void)x1, (void)x2; /* KE_NO_CLEAN uses none */                          \
                dp[c] = KE_ST_f32(KE_CALL(KE_CLEAN(elem), T, KE_ARGS_##shape(x0, x1, x2, kv)));    \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        KE_UNROLL2 for (int64_t c = 0; c < cols; c++) {                                            \
            const float x0 = p0[c], x1 = p1[c], x2 = p2[c]; /* one load each (see above) */           \
            (void)x1, (void)x2;                                                                    \
            dp[c] = KE_ST_f32(KE_CALL(EF_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv)));             \
        }                                                                                          \
    }                                                                                              \
    /* rows of unit column stride one after another (a source read at row stride 0 for a column   \
     * expand, padded tiles): a function of its own, so that the walk's pointers and strides stay  \
     * in registers, with rows of 8, 16 or 32 elements at a constant width (whole vectors, no      \
     * remainder loops: the row loop is then the whole cost) */                                    \
    static __attribute__((noinline)) void ke_rowwalk_##op##_##T(float *dp, const float *p0, const float *p1, \
                                                                const float *p2, int64_t drs, int64_t rs0,   \
                                                                int64_t rs1, int64_t rs2, float kv,          \
                                                                int64_t rows, int64_t cols) {                \
        switch (cols) {                                                                            \
        case 8: KE_ROWWALK(ke_row_##op##_##T, 8); return;                                          \
        case 16: KE_ROWWALK(ke_row_##op##_##T, 16); return;                                        \
        case 32: KE_ROWWALK(ke_row_##op##_##T, 32); return;                                        \
        default: KE_ROWWALK(ke_row_##op##_##T, cols); return;                                      \
        }                                                                                          \
    }                                                                                              \
    /* the chunked and the strided walks out of line: their buffers and registers would cost every \
     * call of the kernel a 3 KB frame and spills at entry (the 16x16 fixed cost, issue #11) */     \
    static __attribute__((noinline)) void ke_rowsx_##op##_##T(KTile d, KTile s0, KTile s1, KTile s2, int n, \
                                                              bool one_row, float kv, int64_t rows, int64_t cols) { \
        ke_rows_##op##_##T(d, s0, s1, s2, n, one_row, kv, rows, cols);                             \
    }                                                                                              \
    /* (the sources by pointer: a copy of them for the call made the kernel load each whole at     \
     * entry, 16 bytes that the caller had just stored in two halves, with no store forwarding) */ \
    static __attribute__((noinline)) void ke_strided_##op##_##T(KTile d, const KTile *s, float kv, int64_t rows, \
                                                                int64_t cols) {                    \
        const int n = KE_NSRC_##shape;                                                             \
        const KTile s0 = s[0], s1 = n > 1 ? s[1] : s[0], s2 = n > 2 ? s[2] : s[0];                 \
        (void)kv;                                                                                  \
        for (int64_t r = 0; r < rows; r++)                                                         \
            for (int64_t c = 0; c < cols; c++) {                                                   \
                const float x0 = KE_AT(float, s0, r, c), x1 = KE_AT(float, s1, r, c), x2 = KE_AT(float, s2, r, c); \
                (void)x1, (void)x2;                                                                \
                KE_AT(float, d, r, c) = KE_ST_f32(KE_CALL(EF_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv))); \
            }                                                                                      \
    }                                                                                              \
    static int KE_NAME(op, T)(KTile d, const KTile *s, KScalar k, int64_t rows, int64_t cols) {    \
        const int n = KE_NSRC_##shape;                                                             \
        const float kv = KE_SCALAR_F(k);                                                           \
        (void)kv;                                                                                  \
        KTile s0 = s[0], s1 = n > 1 ? s[1] : s[0], s2 = n > 2 ? s[2] : s[0];                        \
        if (KE_ROW_SRC1_##shape && s1.rs == 0) { /* a column expand: its own plan, then its walk */ \
            if (!ke_plan_colexp(d, s0, s1, rows, cols, sizeof(float)))                             \
                ke_strided_##op##_##T(d, s, kv, rows, cols);                                       \
            else if (KE_APX_MARGIN(elem, T) > 0.0 || (cols == 1 && rows > 1))                      \
                ke_rowsx_##op##_##T(d, s0, s1, s2, n, true, kv, rows, cols);                       \
            else if (rows == 1)                                                                    \
                ke_row_##op##_##T((float *)d.p, (const float *)s0.p, (const float *)s1.p, (const float *)s1.p, kv, cols); \
            else                                                                                   \
                ke_rowwalk_##op##_##T((float *)d.p, (const float *)s0.p, (const float *)s1.p, (const float *)s1.p, \
                                      d.rs, s0.rs, 0, 0, kv, rows, cols);                          \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        if (ke_plan_flat(&d, &s0, &s1, &s2, n, &rows, &cols, sizeof(float), true)) {                                  \
            if (KE_APX_MARGIN(elem, T) > 0.0 || (cols == 1 && rows > 1)) {                         \
                /* a fast form, or one column (an N x 1 tile in a padded one, as a row reduction's  \
                 * result): through chunk buffers, where the loop is vectorised */                  \
                ke_rowsx_##op##_##T(d, s0, s1, s2, n, false, kv, rows, cols);                      \
                return EFAULT_NONE;                                                                \
            }                                                                                      \
            if (rows == 1) { /* one run (merged rows): no row loop around it */                  \
                ke_row_##op##_##T((float *)d.p, (const float *)s0.p, (const float *)s1.p,           \
                                  (const float *)s2.p, kv, cols);                                  \
                return EFAULT_NONE;                                                                \
            }                                                                                      \
            ke_rowwalk_##op##_##T((float *)d.p, (const float *)s0.p, (const float *)s1.p, (const float *)s2.p, d.rs, \
                                  s0.rs, s1.rs, s2.rs, kv, rows, cols);                            \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        ke_strided_##op##_##T(d, s, kv, rows, cols); /* s0..s2 unchanged: the plan said no */     \
        return EFAULT_NONE;                                                                        \
    }

/* ---- f16 and bf16 ---------------------------------------------------------------------------- */
#define KE_DEF_HALF(op, shape, elem, T)                                                            \
    static int KE_NAME(op, T)(KTile d, const KTile *s, KScalar k, int64_t rows, int64_t cols) {    \
        const int n = KE_NSRC_##shape;                                                             \
        const float kv = KE_SCALAR_F(k);                                                           \
        (void)kv;                                                                                  \
        KTile s0 = s[0], s1 = n > 1 ? s[1] : s[0], s2 = n > 2 ? s[2] : s[0];                        \
        /* chunks widened, computed, narrowed; a column expand's src1 row widened once */           \
        if (KE_ROW_SRC1_##shape && s1.rs == 0) {                                                   \
            if (ke_plan_colexp(d, s0, s1, rows, cols, sizeof(uint16_t))) {                         \
                ke_rows_##op##_##T(d, s0, s1, s2, n, true, kv, rows, cols);                        \
                return EFAULT_NONE;                                                                \
            }                                                                                      \
        } else if (ke_plan_flat(&d, &s0, &s1, &s2, n, &rows, &cols, sizeof(uint16_t), true)) {    \
            ke_rows_##op##_##T(d, s0, s1, s2, n, false, kv, rows, cols);                           \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        for (int64_t r = 0; r < rows; r++)                                                         \
            for (int64_t c = 0; c < cols; c++) {                                                   \
                const float x0 = KE_LD_##T(KE_AT(uint16_t, s0, r, c)), x1 = KE_LD_##T(KE_AT(uint16_t, s1, r, c)), \
                            x2 = KE_LD_##T(KE_AT(uint16_t, s2, r, c));                             \
                (void)x1, (void)x2;                                                                \
                KE_AT(uint16_t, d, r, c) = KE_ST_##T(KE_CALL(EF_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv))); \
            }                                                                                      \
        return EFAULT_NONE;                                                                        \
    }

/* ---- integers -------------------------------------------------------------------------------- */
/* row(dp, p0, p1, p2, kv, w) on each row of a walk (ke_irowwalk_OP_T's variables); returns a fault */
#define KE_IROWWALK(row, w)                                                                        \
    for (; rows > 0; rows--, dp += drs, p0 += rs0, p1 += rs1, p2 += rs2) {                         \
        const int fault = row(dp, p0, p1, p2, kv, w);                                              \
        if (fault) return fault;                                                                   \
    }
#define KE_DEF_INT(op, shape, elem, T)                                                             \
    /* one contiguous run of a row: the fast paths (EFAULT_* of the first fault, else 0) */        \
    KINLINE int ke_irow_##op##_##T(KE_STORE_##T *restrict dp, const KE_STORE_##T *p0, const KE_STORE_##T *p1, \
                                   const KE_STORE_##T *p2, KE_STORE_##T kv, int64_t cols) {        \
        typedef KE_STORE_##T ST;                                                                   \
        const int n = KE_NSRC_##shape;                                                             \
        const bool check_once = KE_B_IS_SCALAR_##shape && KE_CHECK_B_ONLY(elem);                   \
        (void)p1, (void)p2, (void)kv, (void)n;                                                     \
        if (KE_INT_POW(elem) && n == 2 && !KE_B_IS_SCALAR_##shape) {                               \
            ke_pow_row_##T(dp, p0, p1, cols);                                                      \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        if (KE_INT_POWS(elem, T) && n == 1 && KE_B_IS_SCALAR_##shape) {                            \
            KE_POWS_ROW_##T(dp, p0, kv, cols);                                                     \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        /* a vectorisable scan first where the function has a fault check or a float-quotient      \
         * form (KE_INT_SMALLQ): whether any element faults, whether every dividend allows         \
         * the float quotient; a chunk at a time, so that the pass after it reads from L1,         \
         * and the elements before a fault are written first, as the simulator's loop does */      \
        const bool scan = !check_once || KE_INT_SMALLQ(elem, T);                                   \
        const int64_t step = scan ? KE_ICHUNK : cols;                                              \
        for (int64_t c0 = 0; c0 < cols; c0 += step) {                                              \
            const int64_t m = cols - c0 < step ? cols - c0 : step;                                 \
            ST *restrict dq = dp + c0;                                                             \
            const ST *q0 = p0 + c0, *q1 = p1 + c0, *q2 = p2 + c0;                                  \
            (void)q1, (void)q2;                                                                    \
            int any = 0, wide = !KE_INT_SMALLQ(elem, T), suspect = 1;                              \
            if (KE_INT_SMALLQ(elem, T) && !check_once) { /* one cheap test first (elemfn.h,          \
                                                          * ESQ_FAULT_KEY, EI_WIDE_KEY): where it finds \
                                                          * nothing, no fault, no wide; a vector max and \
                                                          * min per step, where flags took six */      \
                uint32_t top = 0, low = UINT32_MAX;                                                \
                for (int64_t c = 0; c < m; c++) {                                                  \
                    const uint32_t key = KE_SQ_WIDE_KEY(T, KE_FIRST(KE_ARGS_##shape(q0[c], q1[c], q2[c], kv))); \
                    const uint32_t fk = KE_CALL(ESQ_FAULT_KEY, T, KE_CHK_##shape(q0[c], q1[c], q2[c], kv)); \
                    top = key > top ? key : top;                                                   \
                    low = fk < low ? fk : low;                                                     \
                }                                                                                  \
                suspect = top > KE_SQ_WIDE_LIMIT(T) || low == 0;                                   \
            } else if (KE_FAULT_MAX(elem) && !check_once) { /* faults where a key reaches a limit */ \
                EI_UWIDTH_##T top = 0;                                                             \
                KE_UNROLL4 for (int64_t c = 0; c < m; c++) {                                       \
                    const EI_UWIDTH_##T key = KE_CALL(ECM_KEY, T, KE_CHK_##shape(q0[c], q1[c], q2[c], kv)); \
                    top = key > top ? key : top;                                                   \
                }                                                                                  \
                any = top >= ECM_LIMIT(T), suspect = 0; /* the scan below only looked for faults */ \
            }                                                                                      \
            for (int64_t c = 0; scan && suspect && c < m; c++) {                                   \
                if (!check_once) any |= KE_CALL(EC_##elem, T, KE_CHK_##shape(q0[c], q1[c], q2[c], kv)); \
                if (KE_INT_SMALLQ(elem, T))                                                        \
                    wide |= EI_WIDE_##T(KE_FIRST(KE_ARGS_##shape(q0[c], q1[c], q2[c], kv)));       \
            }                                                                                      \
            for (int64_t c = 0; any && c < m; c++) {                                               \
                const int fault = KE_CALL(EC_##elem, T, KE_CHK_##shape(q0[c], q1[c], q2[c], kv));  \
                if (fault) return fault;                                                           \
                dq[c] = (ST)KE_CALL(EI_##elem, T, KE_ARGS_##shape(q0[c], q1[c], q2[c], kv));       \
            }                                                                                      \
            if (KE_INT_SMALLQ(elem, T) && !wide) {                                                 \
                for (int64_t c = 0; c < m; c++) {                                                  \
                    const ST x0 = q0[c], x1 = q1[c], x2 = q2[c];                                   \
                    (void)x1, (void)x2;                                                            \
                    dq[c] = (ST)KE_CALL(KE_SMALLQ(elem), T, KE_ARGS_##shape(x0, x1, x2, kv));      \
                }                                                                                  \
                continue;                                                                          \
            }                                                                                      \
            KE_UNROLL2 for (int64_t c = 0; c < m; c++) {                                           \
                const ST x0 = q0[c], x1 = q1[c], x2 = q2[c]; /* one load each (see above) */       \
                (void)x1, (void)x2;                                                                \
                dq[c] = (ST)KE_CALL(EI_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv));                \
            }                                                                                      \
        }                                                                                          \
        return EFAULT_NONE;                                                                        \
    }                                                                                              \
    /* the rows of a walk one after another, out of line (as ke_rowwalk_OP_T): the first fault */ \
    static __attribute__((noinline)) int ke_irowwalk_##op##_##T(KE_STORE_##T *dp, const KE_STORE_##T *p0,     \
                                                                const KE_STORE_##T *p1, const KE_STORE_##T *p2, \
                                                                int64_t drs, int64_t rs0, int64_t rs1,        \
                                                                int64_t rs2, KE_STORE_##T kv, int64_t rows,   \
                                                                int64_t cols) {                               \
        switch (cols * (int64_t)sizeof *dp) { /* rows of 32 or 64 bytes at a constant width */   \
        case 32: KE_IROWWALK(ke_irow_##op##_##T, 32 / (int64_t)sizeof *dp); break;               \
        case 64: KE_IROWWALK(ke_irow_##op##_##T, 64 / (int64_t)sizeof *dp); break;               \
        default: KE_IROWWALK(ke_irow_##op##_##T, cols); break;                                   \
        }                                                                                          \
        return EFAULT_NONE;                                                                        \
    }                                                                                              \
    static int KE_NAME(op, T)(KTile d, const KTile *s, KScalar k, int64_t rows, int64_t cols) {    \
        typedef KE_STORE_##T ST;                                                                   \
        const int n = KE_NSRC_##shape;                                                             \
        const ST kv = KE_SCALAR_INT(T, k);                                                         \
        (void)kv;                                                                                  \
        KTile s0 = s[0], s1 = n > 1 ? s[1] : s[0], s2 = n > 2 ? s[2] : s[0];                        \
        /* a check of the scalar alone: once, before any element is written */                     \
        const bool check_once = KE_B_IS_SCALAR_##shape && KE_CHECK_B_ONLY(elem);                   \
        if (check_once && rows > 0 && cols > 0) {                                                  \
            const int fault = KE_CALL(EC_##elem, T, (ST)0, kv);                                    \
            if (fault) return fault;                                                               \
        }                                                                                          \
        if (KE_ROW_SRC1_##shape && s1.rs == 0 ? ke_plan_colexp(d, s0, s1, rows, cols, sizeof(ST)) \
                                : ke_plan_flat(&d, &s0, &s1, &s2, n, &rows, &cols, sizeof(ST), false)) {                                     \
            if (KE_INT_RECIP(elem, T) && n == 1 && KE_B_IS_SCALAR_##shape && EI_DIVISOR_SAFE(T, kv)) { \
                /* a multiply per element, no fault: in float where every dividend of a chunk    \
                 * allows it (always, below 32 bits), else in double (elemfn.h, EI_QUOT_RECIP) */  \
                const double rb = ei_recip_away((double)kv);                                       \
                const float rbf = ei_recipf_away((double)kv);                                      \
                const int64_t step = EI_SMALLQ_OK_##T ? KE_ICHUNK : rows * cols;                   \
                const bool in_place = d.p == s0.p; /* else disjoint (ke_safe) */                   \
                /* every dividend's float form is defined (elemfn.h): no select for wide ones */    \
                const bool total = EI_RECIPF_TOTAL_##T(kv);                                        \
                for (int64_t r = 0; r < rows; r++) {                                               \
                    for (int64_t c0 = 0; c0 < cols; c0 += step) {                                  \
                        const int64_t m = cols - c0 < step ? cols - c0 : step;                     \
                        ST *restrict dq = (ST *)d.p + r * d.rs + c0;                               \
                        const ST *q0 = (const ST *)s0.p + r * s0.rs + c0;                          \
                        uint32_t top = 0; /* the chunk's largest KE_WIDE_KEY */                    \
                        if (!in_place && total) { /* float first, the same test alongside; double if it fails */ \
                            for (int64_t c = 0; c < m; c++) {                                      \
                                const ST x0 = q0[c];                                               \
                                const uint32_t key = KE_WIDE_KEY(T, x0);                           \
                                top = key > top ? key : top;                                       \
                                dq[c] = (ST)KE_CALL(KE_RECIP(elem), T, x0, kv, rbf);               \
                            }                                                                      \
                            if (top <= KE_WIDE_LIMIT(T)) continue;                                 \
                        } else if (!in_place) { /* i32 b = 1, u32 b = 1 or 2: a wide dividend     \
                                                 * computes as 0 (no overflow), its result redone */ \
                            for (int64_t c = 0; c < m; c++) {                                      \
                                const ST x0 = q0[c];                                               \
                                const uint32_t key = KE_WIDE_KEY(T, x0);                           \
                                top = key > top ? key : top;                                       \
                                dq[c] = (ST)KE_CALL(KE_RECIP(elem), T, key > KE_WIDE_LIMIT(T) ? (ST)0 : x0, kv, rbf); \
                            }                                                                      \
                            if (top <= KE_WIDE_LIMIT(T)) continue;                                 \
                        } else {                                                                   \
                            for (int64_t c = 0; EI_SMALLQ_OK_##T && c < m; c++) {                  \
                                const uint32_t key = KE_WIDE_KEY(T, q0[c]);                        \
                                top = key > top ? key : top;                                       \
                            }                                                                      \
                            if (top <= KE_WIDE_LIMIT(T)) {                                         \
                                for (int64_t c = 0; c < m; c++) {                                  \
                                    const ST x0 = q0[c];                                           \
                                    dq[c] = (ST)KE_CALL(KE_RECIP(elem), T, x0, kv, rbf);           \
                                }                                                                  \
                                continue;                                                          \
                            }                                                                      \
                        }                                                                          \
                        for (int64_t c = 0; c < m; c++) {                                          \
                            const ST x0 = q0[c];                                                   \
                            dq[c] = (ST)KE_CALL(KE_RECIP(elem), T, x0, kv, rb);                    \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                return EFAULT_NONE;                                                                \
            }                                                                                      \
            if (rows == 1) /* one run (merged rows): no row loop around it */                      \
                return ke_irow_##op##_##T((ST *)d.p, (const ST *)s0.p, (const ST *)s1.p, (const ST *)s2.p, kv, cols); \
            return ke_irowwalk_##op##_##T((ST *)d.p, (const ST *)s0.p, (const ST *)s1.p, (const ST *)s2.p, d.rs, \
                                          s0.rs, s1.rs, s2.rs, kv, rows, cols);                    \
        }                                                                                          \
        for (int64_t r = 0; r < rows; r++)                                                         \
            for (int64_t c = 0; c < cols; c++) {                                                   \
                const ST x0 = KE_AT(ST, s0, r, c), x1 = KE_AT(ST, s1, r, c), x2 = KE_AT(ST, s2, r, c); \
                (void)x1, (void)x2;                                                                \
                const int fault = KE_CALL(EC_##elem, T, KE_CHK_##shape(x0, x1, x2, kv));           \
                if (fault) return fault;                                                           \
                KE_AT(ST, d, r, c) = (ST)KE_CALL(EI_##elem, T, KE_ARGS_##shape(x0, x1, x2, kv));   \
            }                                                                                      \
        return EFAULT_NONE;                                                                        \
    }

/* ---- instantiation from the op table ------------------------------------------------------- */
#define KE_DEF_CHUNKS_F32 KE_DEF_CHUNKS
#define KE_DEF_CHUNKS_HALF KE_DEF_CHUNKS
#define KE_DEF_CHUNKS_INT(...)
#define KE_DEF__(op, shape, elem, T, kind) KE_DEF_CHUNKS_##kind(op, shape, elem, T, kind) KE_DEF_##kind(op, shape, elem, T)
#define KE_DEF_(op, shape, elem, T, kind) KE_DEF__(op, shape, elem, T, kind)
#define KE_DEF(op, shape, elem, T) KE_DEF_(op, shape, elem, T, KE_KIND_##T)
#define KE_TYPES_FI(m, ...) KE_TYPES_F(m, __VA_ARGS__) KE_TYPES_I(m, __VA_ARGS__)
#define KE_TYPES_F(m, ...) m(__VA_ARGS__, f32) m(__VA_ARGS__, f16) m(__VA_ARGS__, bf16)
#define KE_TYPES_I(m, ...)                                                                         \
    m(__VA_ARGS__, i8) m(__VA_ARGS__, u8) m(__VA_ARGS__, i16) m(__VA_ARGS__, u16) m(__VA_ARGS__, i32) m(__VA_ARGS__, u32) \
        m(__VA_ARGS__, i64) m(__VA_ARGS__, u64)
#define KE_TYPES_NONE(m, ...)
#define EFDOM_none NONE
#define KE_FOR_TYPES_(dom, m, ...) KE_TYPES_##dom(m, __VA_ARGS__)
#define KE_FOR_TYPES(dom, m, ...) KE_FOR_TYPES_(dom, m, __VA_ARGS__)
/* every kernel of one row: KE_ROW(ID, shape, elem) */
#define KE_ROW(id, shape, elem) KE_FOR_TYPES(EFDOM_##elem, KE_DEF, id, shape, elem)

#define OP(...)
#define BINARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_ROW(id, B, elem)
#define TERNARY_OP(id, name, a2a3, a5, elem, attrs) KE_ROW(id, T, elem)
#define UNARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_ROW(id, U, elem)
#define TILE_SCALAR_OP(id, name, tmp, a2a3, a5, elem, reversed, attrs) KE_ROW(id, S, elem) KE_ROW(id##_rev, R, reversed)
#define TILE_SCALAR_TILE_OP(id, name, a2a3, a5, elem, attrs) KE_ROW(id, SC, elem)
#define PART_OP(id, name, a2a3, a5, elem, attrs) KE_ROW(id, B, elem)
#define ACC_SCALAR_OP(id, name, a2a3, a5, elem, attrs) KE_ROW(id, SC, elem)
#define ROW_EXPAND_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_ROW(id, B, elem)
#define COL_EXPAND_OP(id, name, a2a3, a5, elem, attrs) KE_ROW(id, CE, elem)
#include "ops.def"

/* ---- native f16 (the variant whose CPU has AVX512-FP16) ------------------------------------ */
/* For a member whose element function has a native f16 form (elemfn.h's EHN_NAME): a kernel
 * that runs the planned region (contiguous rows, in place or disjoint, the column expand's src1
 * row at stride 0) on _Float16 in 32-lane registers, with no widening or narrowing, and hands any
 * other layout to the member's f16 kernel above. Same bits (elemfn.h): only the time differs. */
#ifdef KISA_F16_NATIVE
typedef _Float16 ke_h __attribute__((may_alias));
#define KE_IIF(c) KE_IIF_(c)
#define KE_IIF_(c) KE_IIF_##c
#define KE_IIF_0(t, f) f
#define KE_IIF_1(t, f) t
#define KE_HAS_NATIVE(elem) KE_SECOND(EHN_##elem, 0, ~)
#define KE_THIRD_(x, y, z, ...) z
#define KE_THIRD(...) KE_THIRD_(__VA_ARGS__)
#define KE_NATIVE(elem) KE_THIRD(EHN_##elem, ~)
#define KE_NATIVE_CLEAN(elem) KE_SECOND(EHNC_##elem, KE_NATIVE(elem), ~)
/* L elements of form at dq, q0, q1, q2 (L 32, 16 or 8: one register of 64, 32 or 16 bytes): a loop
 * of a constant count, which compiles to vector code only. Not unrolled: GCC would unroll the
 * loops of 16 and 8 before the vectoriser sees them and compile them as scalar code, with a
 * branch per NaN pin, and scalar _Float16 selections as a masked vmovsh that Debian 12's
 * assembler rejects. */
#define KE_NATIVE_BLOCK(form, shape, L, dq, q0, q1, q2)                                            \
    _Pragma("GCC unroll 1") for (int j = 0; j < (L); j++) {                                        \
        const ke_h x0 = (q0)[j], x1 = (q1)[j], x2 = (q2)[j];                                       \
        (void)x0, (void)x1, (void)x2;                                                              \
        (dq)[j] = KE_CALL(form, KE_ARGS_##shape(x0, x1, x2, kv));                                  \
    }
/* one row of w elements: whole registers (a row of 16, as a 16x16 column expand's, in one 32-byte
 * one), then the last 1..7 through a register's worth of buffers (the variant's masked loads and
 * store: no element outside the row is touched) */
#define KE_NATIVE_ROW(form, shape, w)                                                              \
    do {                                                                                           \
        int64_t c = 0;                                                                             \
        for (; c + 32 <= (w); c += 32) KE_NATIVE_BLOCK(form, shape, 32, dp + c, p0 + c, p1 + c, p2 + c) \
        if (c + 16 <= (w)) {                                                                       \
            KE_NATIVE_BLOCK(form, shape, 16, dp + c, p0 + c, p1 + c, p2 + c)                       \
            c += 16;                                                                               \
        }                                                                                          \
        if (c + 8 <= (w)) {                                                                        \
            KE_NATIVE_BLOCK(form, shape, 8, dp + c, p0 + c, p1 + c, p2 + c)                        \
            c += 8;                                                                                \
        }                                                                                          \
        if (c < (w)) {                                                                             \
            ke_h t0[8], t1[8], t2[8], to[8];                                                       \
            const int m = (int)((w) - c);                                                          \
            KISA_F16N_LOAD_PART(t0, p0 + c, m);                                                    \
            KISA_F16N_LOAD_PART(t1, p1 + c, m);                                                    \
            KISA_F16N_LOAD_PART(t2, p2 + c, m);                                                    \
            KE_NATIVE_BLOCK(form, shape, 8, to, t0, t1, t2)                                        \
            KISA_F16N_STORE_PART(dp + c, to, m);                                                   \
        }                                                                                          \
    } while (0)
#define KE_NATIVE_WALK(form, shape)                                                                \
    for (; rows > 0; rows--, dp += drs, p0 += rs0, p1 += rs1, p2 += rs2) KE_NATIVE_ROW(form, shape, cols);
#define KE_DEF_NATIVE(op, shape, elem)                                                             \
    KISA_F16_NATIVE static inline __attribute__((always_inline)) void ke_nwalk_##op(               \
        ke_h *restrict dp, const ke_h *p0, const ke_h *p1, const ke_h *p2, int64_t drs, int64_t rs0, \
        int64_t rs1, int64_t rs2, float kf, int64_t rows, int64_t cols) {                          \
        const ke_h kv = (ke_h)kf; /* the scalar, already an f16 value (or a NaN, narrowed as the f32 path's result is) */ \
        (void)kv;                                                                                  \
        if (KE_HAS_CLEAN(elem, shape) && kf == kf) KE_NATIVE_WALK(KE_NATIVE_CLEAN(elem), shape)    \
        else KE_NATIVE_WALK(KE_NATIVE(elem), shape)                                                \
    }                                                                                              \
    KISA_F16_NATIVE static int ke_native_##op(KTile d, const KTile *s, KScalar k, int64_t rows, int64_t cols) { \
        const int n = KE_NSRC_##shape;                                                             \
        const float kf = KE_SCALAR_F(k);                                                           \
        KTile s0 = s[0], s1 = n > 1 ? s[1] : s[0], s2 = n > 2 ? s[2] : s[0];                        \
        if (KE_HAS_SCALAR_##shape && kf == kf && (float)(ke_h)kf != kf) /* not an f16 value */     \
            return KE_NAME(op, f16)(d, s, k, rows, cols);                                          \
        if (KE_ROW_SRC1_##shape && s1.rs == 0 && (cols == 8 || cols == 16) && d.rs == cols && s0.rs == cols && \
            rows * cols % 32 == 0 && ke_plan_colexp(d, s0, s1, rows, cols, sizeof(uint16_t))) {      \
            /* a column expand on contiguous rows of 8 or 16: runs of 32 against src1's row         \
             * repeated (disjoint from dst, so a copy), 2 or 4 rows per register */                 \
            ke_h rep[32];                                                                          \
            if (cols == 16) memcpy(rep, s1.p, 32), memcpy(rep + 16, s1.p, 32);                     \
            else for (int j = 0; j < 32; j += 8) memcpy(rep + j, s1.p, 16);                        \
            /* rows * cols / 32 rows of a constant 32: one register each, no tail tests */          \
            ke_nwalk_##op((ke_h *)d.p, (const ke_h *)s0.p, rep, rep, 32, 32, 0, 0, kf,               \
                          cols == 16 ? rows >> 1 : rows >> 2, 32);                                 \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        if (KE_ROW_SRC1_##shape && s1.rs == 0 ? ke_plan_colexp(d, s0, s1, rows, cols, sizeof(uint16_t)) \
                                : ke_plan_flat(&d, &s0, &s1, &s2, n, &rows, &cols, sizeof(uint16_t), true)) { \
            ke_nwalk_##op((ke_h *)d.p, (const ke_h *)s0.p, (const ke_h *)s1.p, (const ke_h *)s2.p, d.rs, \
                          s0.rs, s1.rs, s2.rs, kf, rows, cols);                                    \
            return EFAULT_NONE;                                                                    \
        }                                                                                          \
        return KE_NAME(op, f16)(d, s, k, rows, cols); /* s unchanged: the plan said no */         \
    }
#define KE_NATIVE_NONE(...)
/* the native kernel of a member, where its element function has a native form on f16 */
#define KE_NATIVE_ROW_DEF(id, shape, elem) KE_IIF(KE_HAS_NATIVE(elem))(KE_DEF_NATIVE, KE_NATIVE_NONE)(id, shape, elem)
#define OP(...)
#define BINARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, B, elem)
#define TERNARY_OP(id, name, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, T, elem)
#define UNARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, U, elem)
#define TILE_SCALAR_OP(id, name, tmp, a2a3, a5, elem, reversed, attrs) KE_NATIVE_ROW_DEF(id, S, elem) KE_NATIVE_ROW_DEF(id##_rev, R, reversed)
#define TILE_SCALAR_TILE_OP(id, name, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, SC, elem)
#define PART_OP(id, name, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, B, elem)
#define ACC_SCALAR_OP(id, name, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, SC, elem)
#define ROW_EXPAND_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, B, elem)
#define COL_EXPAND_OP(id, name, a2a3, a5, elem, attrs) KE_NATIVE_ROW_DEF(id, CE, elem)
#include "ops.def"
/* a table entry: the native kernel for f16 where there is one, the member's kernel otherwise */
#define KE_NATIVE_F16_f16 ~, 1
#define KE_NATIVE_PICK(id, elem, T)                                                                \
    KE_IIF(KE_SECOND(KE_NATIVE_F16_##T, 0, ~))(KE_IIF(KE_HAS_NATIVE(elem))(ke_native_##id, KE_NAME(id, T)), KE_NAME(id, T))
#define KE_ENTRY_N(id, elem, T) [KDT(T)] = KE_NATIVE_PICK(id, elem, T),
#endif

/* the tables: [opcode][element type] */
#define KE_ENTRY(id, T) [KDT(T)] = KE_NAME(id, T),
#define KE_TABLE_ROW(id, elem) [OP_##id] = {KE_FOR_TYPES(EFDOM_##elem, KE_ENTRY, id)},
#define KE_TABLE_REV_ROW(id, elem) [OP_##id] = {KE_FOR_TYPES(EFDOM_##elem, KE_ENTRY, id##_rev)},

static const KernelElem ke_table[OP_COUNT][DT_COUNT] = {
#define OP(...)
#define BINARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define TERNARY_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define UNARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define TILE_SCALAR_OP(id, name, tmp, a2a3, a5, elem, reversed, attrs) KE_TABLE_ROW(id, elem)
#define TILE_SCALAR_TILE_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define PART_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define ACC_SCALAR_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define ROW_EXPAND_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#define COL_EXPAND_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW(id, elem)
#include "ops.def"
};

static const KernelElem ke_table_rev[OP_COUNT][DT_COUNT] = {
#define OP(...)
#define TILE_SCALAR_OP(id, name, tmp, a2a3, a5, elem, reversed, attrs) KE_TABLE_REV_ROW(id, reversed)
#include "ops.def"
};

#ifdef KISA_F16_NATIVE
/* the same tables with the native f16 kernels (the variant for CPUs with AVX512-FP16) */
#define KE_TABLE_ROW_N(id, elem) [OP_##id] = {KE_FOR_TYPES(EFDOM_##elem, KE_ENTRY_N, id, elem)},
static const KernelElem ke_table_f16n[OP_COUNT][DT_COUNT] = {
#define OP(...)
#define BINARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define TERNARY_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define UNARY_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define TILE_SCALAR_OP(id, name, tmp, a2a3, a5, elem, reversed, attrs) KE_TABLE_ROW_N(id, elem)
#define TILE_SCALAR_TILE_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define PART_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define ACC_SCALAR_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define ROW_EXPAND_OP(id, name, tmp, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#define COL_EXPAND_OP(id, name, a2a3, a5, elem, attrs) KE_TABLE_ROW_N(id, elem)
#include "ops.def"
};

static const KernelElem ke_table_rev_f16n[OP_COUNT][DT_COUNT] = {
#define OP(...)
#define TILE_SCALAR_OP(id, name, tmp, a2a3, a5, elem, reversed, attrs) [OP_##id] = {KE_FOR_TYPES(EFDOM_##reversed, KE_ENTRY_N, id##_rev, reversed)},
#include "ops.def"
};
#endif
