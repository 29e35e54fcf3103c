/* kernels.h - private to interp/ and its unit tests: tile kernels (one function per op and dtype,
 * chosen once when an instruction is lowered) and the scalar conversions they rely on.
 *
 * A kernel gets element pointers with per-tile strides and the iteration extents, already proven
 * to lie inside every tile's footprint; it never checks bounds itself. Operands may overlap the
 * destination in any way: the result is always that of the element-by-element sequential order
 * (the ISA CPU simulator's). The kernels exist in bit-identical variants (portable, AVX2 + F16C;
 * interp/kernels_isa.h explains how they work). */
#ifndef PTO_INTERP_KERNELS_H
#define PTO_INTERP_KERNELS_H

#include "interp.h"

#include <math.h>
#include <string.h>

/* The DType of a kernel template's type token (f32, i16, ...): KDT(f32) is DT_F32. */
#define KDT(T) KDT_##T
#define KDT_f32 DT_F32
#define KDT_f16 DT_F16
#define KDT_bf16 DT_BF16
#define KDT_i8 DT_I8
#define KDT_u8 DT_U8
#define KDT_i16 DT_I16
#define KDT_u16 DT_U16
#define KDT_i32 DT_I32
#define KDT_u32 DT_U32
#define KDT_i64 DT_I64
#define KDT_u64 DT_U64

/* The AVX2 + F16C and AVX-512 kernel variants (kernels_avx2.c, kernels_avx512.c) exist on x86-64
 * with GCC. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define KERNELS_HAVE_AVX2 1
#else
#define KERNELS_HAVE_AVX2 0
#endif

/* Inline f16/bf16 conversions for the kernels' inner loops (the public f32_to_f16_bits & co. wrap
 * these). Exact round to nearest even; NaN stays NaN (quiet), overflow gives Inf. */
static inline uint32_t fp_float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float fp_bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint16_t fp_f32_to_f16(float value) {
    uint32_t x = fp_float_bits(value);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) {                       /* Inf or NaN */
        if (ax == 0x7f800000u) return sign | 0x7c00u;
        return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x03ffu)); /* quiet NaN, payload kept */
    }
    uint32_t exp = ax >> 23;                       /* biased f32 exponent */
    uint32_t mant = ax & 0x007fffffu;
    if (exp >= 113) {                              /* |value| >= 2^-14: normal f16 (or overflow) */
        if (exp > 142) return sign | 0x7c00u;      /* >= 2^16: certainly Inf */
        uint32_t h = ((exp - 112) << 10) | (mant >> 13);
        uint32_t rest = mant & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++; /* carries into exponent; 0x7c00 = Inf */
        return (uint16_t)(sign | h);
    }
    /* f16 subnormal or zero: result = round(|value| / 2^-24). */
    if (exp == 0) return sign;                     /* f32 zero/subnormal: far below 2^-25 */
    uint32_t full = mant | 0x00800000u;            /* value = full * 2^(exp-150) */
    uint32_t shift = 126 - exp;                    /* >= 14 */
    if (shift > 24) return sign;                   /* < 2^-25: rounds to zero */
    uint32_t q = full >> shift;
    uint32_t rest = full & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (q & 1u))) q++;
    return (uint16_t)(sign | q);
}

static inline float fp_f16_to_f32(uint16_t bits) {
    uint32_t sign = (uint32_t)(bits & 0x8000u) << 16;
    uint32_t exp = (bits >> 10) & 0x1fu;
    uint32_t mant = bits & 0x03ffu;
    if (exp == 0x1f) /* Inf, or NaN made quiet (payload kept), as F16C's vcvtph2ps does */
        return fp_bits_float(sign | 0x7f800000u | (mant << 13) | (mant ? 0x00400000u : 0u));
    if (exp == 0) {
        float mag = (float)mant * 5.9604644775390625e-08f; /* mant * 2^-24, exact */
        return sign ? -mag : mag;
    }
    return fp_bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

/* fp_f16_to_f32(fp_f32_to_f16(x)) without a branch, so that loops over it vectorise: |x| plus
 * 2^(e+13), minus it again, rounds |x| (binade e, at least 2^-14) to the f16 quantum 2^(e-10) to
 * nearest even; beyond 65504 it is Inf, a NaN keeps its top 10 payload bits (made quiet). Checked
 * against the two conversions at every f16 rounding boundary (tests/unit/test_kernels_fast.c) and
 * once for all 2^32 floats. */
static inline float fp_f32_round_f16(float x) {
    uint32_t u = fp_float_bits(x), sign = u & 0x80000000u, ax = u & 0x7fffffffu;
    uint32_t e = ax & 0x7f800000u;
    e = e < (113u << 23) ? 113u << 23 : e > (143u << 23) ? 143u << 23 : e;
    float m = fp_bits_float(e + (13u << 23));
    float r = (fp_bits_float(ax) + m) - m;
    uint32_t ur = r > 65504.0f ? 0x7f800000u : fp_float_bits(r);
    ur = ax > 0x7f800000u ? (ax & 0x7fffe000u) | 0x00400000u : ur;
    return fp_bits_float(ur | sign);
}

static inline uint16_t fp_f32_to_bf16(float value) {
    uint32_t x = fp_float_bits(value);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x0040u); /* quiet NaN */
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;                            /* overflow carries into Inf correctly */
    return (uint16_t)(x >> 16);
}

static inline float fp_bf16_to_f32(uint16_t bits) { return fp_bits_float((uint32_t)bits << 16); }

/* double -> float rounded to odd (truncated, with the last bit set when inexact): rounding that to
 * any format of at most 22 significant bits (f16, bf16) gives the correctly rounded value of the
 * double, with no double-rounding error. NaN keeps its top payload bits; huge values stay huge. */
static inline float fp_f64_to_f32_odd(double d) {
    float f = (float)d;
    uint32_t u = fp_float_bits(f);
    u = fabs((double)f) > fabs(d) ? u - 1 : u; /* rounded away from zero: step back toward it */
    return d != d || (double)f == d ? f : fp_bits_float(u | 1u); /* selects: loops over it vectorise */
}

/* double -> f16 / bf16 bits with one rounding (nearest even), as a C++ cast from double does. */
static inline uint16_t fp_f64_to_f16(double d) { return fp_f32_to_f16(fp_f64_to_f32_odd(d)); }
static inline uint16_t fp_f64_to_bf16(double d) { return fp_f32_to_bf16(fp_f64_to_f32_odd(d)); }

/* One tile operand as a kernel sees it: element (r, c) is at ((T *)p)[r * rs + c * cs]. 16 bytes,
 * so that it is passed in two registers (strides fit: a tile is at most 2^30 bytes). */
typedef struct KTile {
    uint8_t *p;
    int32_t rs, cs;   /* row and column strides in elements (non-negative) */
} KTile;

/* t moved r rows and c columns on (elements of es bytes). */
static inline KTile ktile_at(KTile t, int64_t r, int64_t c, size_t es) {
    t.p += (size_t)(r * t.rs + c * t.cs) * es;
    return t;
}

/* A scalar converted to a tile's element type: `f` for f16/bf16/f32 (already rounded to the
 * element type), `u` for integers (the value modulo 2^64; kernels keep the low bits). */
typedef struct KScalar {
    float f;
    uint64_t u;
} KScalar;

/* dst(r,c) = s for r < rows, c < cols (TEXPANDS). */
typedef void (*KernelFill)(KTile dst, KScalar s, int64_t rows, int64_t cols);
/* dst(r,0) = reduction over c < cols of src(r,c), for r < rows (TROWPROD); the same signature
 * serves the column folds and the broadcasts (dst, src, rows, cols). */
typedef void (*KernelRowReduce)(KTile dst, KTile src, int64_t rows, int64_t cols);
/* dst(r,c) = src0(r, c mod m0) OP src1(r, c mod m1) for r < rows, c < cols (TROWEXPAND*):
 * m = cols for a full operand, 1 for a Mode-1 operand, 32/sizeof(T) for a Mode-2 operand. */
typedef void (*KernelRowExpand)(KTile dst, KTile src0, KTile src1, int64_t rows, int64_t cols,
                                int64_t m0, int64_t m1);
/* KernelRowExpand with the roles fixed: dst(r,c) = x(r,c) OP e(r, c mod m), or e(r, c mod m) OP
 * x(r,c) in a KernelSet's `left` entries, m = 1 (Mode 1) or 32/sizeof(T) (Mode 2); the instruction
 * picks one when lowering has decided the roles, and the kernel keeps only the overlap tests. */
typedef void (*KernelRowExpandSide)(KTile dst, KTile x, KTile e, int64_t rows, int64_t cols);

/* An elementwise-family kernel (kernels_elem.h): dst(r,c) = ELEM(sources at (r,c), k) for r < rows,
 * c < cols, where s[] holds the op's source tiles in table order and k its scalar converted to the
 * element type. Returns EFAULT_NONE (0), or the EFAULT_* code (elemfn.h) of the first element the
 * simulator would crash on (integer division by zero, ...), leaving the rest unwritten. */
typedef int (*KernelElem)(KTile d, const KTile *s, KScalar k, int64_t rows, int64_t cols);

/* Instruction-set variants of the kernels. Every variant computes bit-identical results; one is
 * chosen per interpreter when it is created (kernel_isa_best) and the lowering stores the chosen
 * variant's function pointers in each instruction. */
typedef enum KernelIsa {
    KISA_PORTABLE,   /* C with GCC vector extensions: any CPU the compiler targets */
    KISA_AVX2,       /* x86-64 AVX2 + FMA + F16C (hardware f16 conversions) */
    KISA_AVX512,     /* x86-64 AVX-512 F/VL/BW/DQ + F16C: compiler-vectorised loops 64 bytes wide */
    KISA_AVX512FP16, /* the same with AVX512-FP16: f16 elementwise kernels in native f16 arithmetic */
    KISA_COUNT
} KernelIsa;

/* The folds of the reduction family, in the order of its element names (ir/ops_reduce.def). */
typedef enum KernelFold { KFOLD_SUM, KFOLD_MAX, KFOLD_MIN, KFOLD_PROD, KFOLD_COUNT } KernelFold;

/* The kernels of one element type in one variant. */
typedef struct KernelSet {
    KernelFill fill;
    KernelRowReduce row_fold[KFOLD_COUNT]; /* dst(r,0) = src(r, 0..cols-1) folded left to right (TROWSUM, TROWPROD) */
    KernelRowReduce col_fold[KFOLD_COUNT]; /* dst(0,c) = src(0..rows-1, c) folded top to bottom (TCOLSUM) */
    KernelRowReduce broadcast_rows;        /* dst(r,c) = src(r,0), bits copied (TROWEXPAND) */
    KernelRowReduce broadcast_cols;        /* dst(r,c) = src(0,c), bits copied (TCOLEXPAND) */
    KernelRowExpand trowexpandmul, trowexpandsub;
    KernelRowExpandSide rowexpand_side[2][2][2]; /* [sub][Mode 2][left]: TROWEXPANDMUL/SUB, roles fixed */
} KernelSet;

/* n-element f16/bf16 <-> f32 conversions of one variant (exact, RNE; unit tests compare variants). */
typedef void (*KernelWiden)(float *dst, const uint16_t *src, int64_t n);
typedef void (*KernelNarrow)(uint16_t *dst, const float *src, int64_t n);
/* dst[i] = src[i] rounded to f16 or bf16 and widened back, as the vector fold steps round. */
typedef void (*KernelRound)(float *dst, const float *src, int64_t n);

/* Everything one variant provides, indexed by element type (members of a type without kernels
 * are NULL). */
typedef struct KernelIsaTable {
    const char *name;
    KernelSet set[DT_COUNT];
    const KernelElem (*elem)[DT_COUNT];     /* [opcode][dtype]: elementwise families, or NULL */
    const KernelElem (*elem_rev)[DT_COUNT]; /* [opcode][dtype]: scalar-first order (TDIVS), or NULL */
    KernelWiden f16_to_f32, bf16_to_f32;
    KernelNarrow f32_to_f16, f32_to_bf16;
    KernelRound round_f16, round_bf16; /* the folds' vector rounding, for the unit tests */
} KernelIsaTable;

/* The fastest variant this build has and this CPU runs; PTO_RUN_KERNELS=portable (or avx2) in the
 * environment forces that variant where the CPU runs it (to test each end to end). */
KernelIsa kernel_isa_best(void);
/* True when this build has variant `isa` and the CPU can run it. */
bool kernel_isa_available(KernelIsa isa);
/* The table of variant `isa`, or the portable table when `isa` is not available. */
const KernelIsaTable *kernel_isa_table(KernelIsa isa);
/* The kernels of element type `dt` in variant `isa`, or NULL when the type has none. */
const KernelSet *kernel_set(DType dt, KernelIsa isa);

/* A matmul row: row[j] = the fmaf chain over k < K of a_row[k] * b[k * N + j], from +0, k in order. */
typedef void (*MatmulRowF)(const float *a_row, const float *b, int64_t K, int64_t N, float *row);
/* The matmul row kernel for `isa` (vfmadd across columns where the CPU has FMA): bit-identical to fmaf. */
MatmulRowF matmul_row_kernel(KernelIsa isa);
/* M rows of a product: out[i * N + j] = the fmaf chain over k < K of a[i * K + k] * b[k * N + j],
 * from +0, k in order (each element's chain as MatmulRowF computes it). */
typedef void (*MatmulRowsF)(const float *a, int64_t M, const float *b, int64_t K, int64_t N, float *out);
/* The matmul rows kernel for `isa` (several rows per pass over b where the CPU has FMA): bit-identical to fmaf. */
MatmulRowsF matmul_rows_kernel(KernelIsa isa);
/* A 16x16 box of 16-bit elements transposed: dst[c] (16 elements) gets element c of each src[r],
 * r = 0..15, i.e. dst[c][r] = src[r][c]; the 32-byte rows must not overlap. AVX2 where `isa` has it. */
void transpose16_u16(KernelIsa isa, const uint8_t *const src[16], uint8_t *const dst[16]);
/* transpose16_u16 of f16 or bf16 (dt) elements, widened to floats: out[i * ld + j] = src[j][i]. */
void transpose16_widen(KernelIsa isa, DType dt, const uint8_t *const src[16], float *out, int64_t ld);

/* How a scalar is held at run time: integers (and i1, index) as int64 (sign-extended for signed and
 * signless types, zero-extended for unsigned ones), floats as the exact double of their value. */
typedef struct ScalarValue {
    int64_t i;
    double f;
} ScalarValue;

/* Converts a scalar of type `from` to the kernel scalar of element type `to`, as C++ converts a
 * function argument: float->int truncates toward zero (NaN gives 0, out-of-range saturates),
 * int->int wraps, to f16/bf16 rounds to nearest even once. */
KScalar scalar_to_kernel(ScalarValue v, DType from, DType to);
/* Wraps a 64-bit integer to the width and signedness of `dt` (index and i64: unchanged; i1: low bit). */
int64_t scalar_wrap_int(int64_t v, DType dt);
/* Rounds a double to the exact value of float type `dt` (f32, f16, bf16). */
double scalar_round_float(double v, DType dt);
/* Converts a float to integer type `to` as x86-64 GCC compiles the C cast (CVTTSD2SI): truncation
 * toward zero; NaN and out-of-range values give the instruction's "integer indefinite" (INT32_MIN
 * from a 32-bit, INT64_MIN from a 64-bit conversion), then wrap to `to`'s width. 8-, 16-bit and
 * signed 32-bit results use the 32-bit conversion; unsigned (`is_unsigned`, arith.fptoui) 32-bit
 * results the 64-bit one; 64-bit results the 64-bit one (unsigned: values >= 2^63 through 2^63
 * subtracted and the top bit flipped). */
int64_t scalar_float_to_int(double x, DType to, bool is_unsigned);
/* The float of type `to` nearest (ties to even) to the integer +-magnitude, rounded once. */
double scalar_int_to_float(uint64_t magnitude, bool negative, DType to);
/* The value of 8-bit float `bits` of type `dt` as MLIR and ml_dtypes define the type (NaN, inf, FNUZ). */
double f8_value(uint8_t bits, DType dt);
/* Reads element `index` of a buffer of `dt` as a double (integers exactly up to 2^53; fp8 by f8_value). */
double element_as_double(const void *base, int64_t index, DType dt);
/* Writes the numeric text of element `index` in the TPRINT style (%8.4f or %8d) into `buf`. */
void element_format_tprint(char *buf, size_t len, const void *base, int64_t index, DType dt);

#endif
