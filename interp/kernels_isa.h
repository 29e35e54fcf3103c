/* kernels_isa.h - private to kernels.c and kernels_avx2.c: the complete kernel set of one
 * instruction-set variant. Each of those files includes this header once, after choosing the
 * target (the AVX2 file under `#pragma GCC target("avx2,f16c")`), and gets a table named
 * KISA_TABLE; nothing else here is visible outside that file.
 *
 * The variant's file may define, before including this header:
 *   KISA_NATIVE_BYTES       width of its vector registers (default 16: SSE2, NEON, ...)
 *   KISA_F16_WIDEN(h)       nvh of f16 bits -> nvf (exact; NaN made quiet)   default: branch-free C
 *   KISA_F16_NARROW(vp)     the nvf at vp -> nvh of f16 bits (RNE)           default: branch-free C
 *   KISA_WIDEN_U16(h)       nvh -> nvu, zero-extending                       default: generic
 *   KISA_IN_REGISTER(v)     keeps v in a register (a store is not fused)     default: nothing
 *   KISA_ANY(m)             whether any lane of the nvi mask m is set        default: OR of its words
 *   KISA_F16_NARROW_16(d, s) 16 floats at s -> 16 f16 at d (RNE), when wider than NL  default: none
 *   KISA_F16_WIDEN_16(d, s)  16 f16 at s -> 16 floats at d (exact), when wider than NL  default: none
 *   KISA_F16_WIDEN4(p)      the 4 f16 at p -> nvf4 (exact; NaN made quiet)      default: none
 *   KISA_F16_ROUND4(v)      nvf4 v rounded to f16 and widened again (RNE)      default: none
 *                           (both or neither: an f16 product fold's last 1-4 rows then chain on
 *                           16-byte vectors, whose conversion pair has the shorter latency; f32's
 *                           do on vectors of 32 bytes or more)
 * The f16 conversions must be bit-identical to fp_f16_to_f32 / fp_f32_to_f16 (checked by
 * tests/unit/test_kernels_fast.c, exhaustively for f16 -> f32).
 *
 * How the kernels work (every op): the arithmetic is SPEC 2.3's (f16/bf16 computed in f32 and
 * rounded after every operation, integers wrap). A kernel first checks that no operand overlaps
 * the destination in a way the element-by-element order could observe (whole-tile byte spans are
 * disjoint, or an elementwise operand is the destination itself); if one does, or a layout has no
 * unit-stride axis, it runs the sequential reference loop (the ISA CPU simulator's order).
 * Otherwise it runs contiguous loops on native-width vectors (GCC vector extensions): rows merged
 * into one run when they are contiguous, an unrolled one-vector-per-row loop for rows exactly one
 * vector wide (2048x8), and TROWPROD on groups of NL rows transposed so that NL rows advance
 * together, still left to right in each row (its last 1-4 rows on 4-lane vectors: a product chain
 * is bound by its latency, shorter there for f16's rounding). */
#ifndef KISA_TABLE
#error "define KISA_TABLE before including kernels_isa.h"
#endif

#include "elemfn.h" /* EF_NAN_FIRST for the folds (kernels_tmpl.h); the element functions (kernels_elem.h) */
#include "kernels.h"

#define KINLINE static inline __attribute__((always_inline))

/* ---- vector types --------------------------------------------------------------------------- */

#ifndef KISA_NATIVE_BYTES
#define KISA_NATIVE_BYTES 16
#endif
#define NL (KISA_NATIVE_BYTES / 4) /* 32-bit lanes of a native vector */

/* Native vectors: all kernel loops use these (a vector wider than the CPU's would be split by GCC
 * through memory, and its comparisons into scalar code). */
#define VN __attribute__((vector_size(KISA_NATIVE_BYTES)))
typedef float nvf VN;
typedef uint32_t nvu VN;
typedef int32_t nvi VN;
typedef uint8_t nv8 VN;
typedef uint16_t nv16 VN;
typedef uint64_t nv64 VN;
typedef uint16_t nvh __attribute__((vector_size(KISA_NATIVE_BYTES / 2))); /* NL 16-bit lanes */
typedef uint8_t nvb __attribute__((vector_size(NL)));                     /* NL bytes */
typedef float nvf4 __attribute__((vector_size(16)));                      /* 4 floats, whatever NL */
typedef uint32_t nvu4 __attribute__((vector_size(16)));

/* Half-width integer vectors: a row's tail of at least half a vector (i16 x 8 with AVX2). */
#define HN __attribute__((vector_size(KISA_NATIVE_BYTES / 2)))
typedef uint8_t hv8 HN;
typedef uint16_t hv16 HN;
typedef uint32_t hv32 HN;
typedef uint64_t hv64 HN;

/* 32-byte vectors, for fill patterns only (two registers without AVX; never passed or returned). */
typedef uint8_t v32u8 __attribute__((vector_size(32)));
typedef uint64_t v4u64 __attribute__((vector_size(32)));

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define KSHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#define KSHUF4(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define KSHUF(a, b, ...) __builtin_shuffle(a, b, (nvu){__VA_ARGS__})
#define KSHUF4(a, b, ...) __builtin_shuffle(a, b, (nvu4){__VA_ARGS__}) /* on nvu4 */
#endif

/* Transposes an NL x NL block of 32-bit lanes: afterwards r[c] holds the old column c. */
KINLINE void transpose_nv(nvu r[NL]) {
#if NL == 8
    nvu t[8], u[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i += 2) {
        t[i] = KSHUF(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[i + 1] = KSHUF(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i += 4) {
        u[i] = KSHUF(t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        u[i + 1] = KSHUF(t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        u[i + 2] = KSHUF(t[i + 1], t[i + 3], 0, 1, 8, 9, 4, 5, 12, 13);
        u[i + 3] = KSHUF(t[i + 1], t[i + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
#pragma GCC unroll 8
    for (int i = 0; i < 4; i++) {
        r[i] = KSHUF(u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        r[i + 4] = KSHUF(u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
#elif NL == 4
    nvu t0 = KSHUF(r[0], r[1], 0, 4, 1, 5), t1 = KSHUF(r[0], r[1], 2, 6, 3, 7);
    nvu t2 = KSHUF(r[2], r[3], 0, 4, 1, 5), t3 = KSHUF(r[2], r[3], 2, 6, 3, 7);
    r[0] = KSHUF(t0, t2, 0, 1, 4, 5);
    r[1] = KSHUF(t0, t2, 2, 3, 6, 7);
    r[2] = KSHUF(t1, t3, 0, 1, 4, 5);
    r[3] = KSHUF(t1, t3, 2, 3, 6, 7);
#else
#error "KISA_NATIVE_BYTES must be 16 or 32"
#endif
}

/* ---- f16 and bf16 on native vectors --------------------------------------------------------- */

/* Comparisons are made on signed lanes holding non-negative values (SSE2 has no unsigned 32-bit
 * compare). Lanes of `m` all ones select `a`, all zeros select `b`. */
KINLINE nvu nsel(nvi m, nvu a, nvu b) { return ((nvu)m & a) | (~(nvu)m & b); }

/* f32 x in every lane, exactly (an addition would turn -0.0 into +0.0). */
KINLINE nvf splat_f(float x) { return (nvf)((nvu){0} + fp_float_bits(x)); }

/* NL 16-bit lanes zero-extended to 32 bits (a variant may name the instruction: GCC 12 splits the
 * generic conversion into halves with AVX2). */
#ifndef KISA_WIDEN_U16
#define KISA_WIDEN_U16(h) __builtin_convertvector((h), nvu)
#endif

KINLINE nvh load_nvh(const uint16_t *p) {
    nvh h;
    memcpy(&h, p, sizeof h);
    return h;
}

KINLINE void store_nvh(uint16_t *p, nvh h) { memcpy(p, &h, sizeof h); }

KINLINE nvf load_nvf(const float *p) {
    nvf v;
    memcpy(&v, p, sizeof v);
    return v;
}

KINLINE nvf4 load_nvf4(const float *p) {
    nvf4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* f16 bits -> f32, bit-identical to fp_f16_to_f32. */
KINLINE nvf f16_widen_soft(nvh h) {
    nvu x = KISA_WIDEN_U16(h);
    nvu sign = (x & 0x8000u) << 16, em = x & 0x7fffu;
    nvu normal = (em << 13) + (112u << 23);                          /* rebias 15 -> 127 */
    normal += (nvu)((nvi)em >= 0x7c00) & (112u << 23);               /* exponent 31 -> 255 */
    normal |= (nvu)((nvi)em > 0x7c00) & 0x00400000u;                 /* NaN: quiet */
    nvf sub = __builtin_convertvector((nvi)em, nvf) * 0x1p-24f;      /* subnormal: exact */
    return (nvf)(nsel((nvi)em < 0x0400, (nvu)sub, normal) | sign);
}

/* f32 -> f16 bits (RNE; overflow to Inf; NaN quiet with its payload's top bits), bit-identical to
 * fp_f32_to_f16. Normal range: integer rounding on the bits; below 2^-14 the sum |x| + 0.5 is
 * rounded by the FPU at the f16 subnormal quantum 2^-24 (exact RNE). */
KINLINE nvh f16_narrow_soft(const nvf *vp) {
    nvu x = (nvu)*vp;
    nvu sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    nvu normal = (ax - (112u << 23) + 0xfffu + ((ax >> 13) & 1u)) >> 13;
    nvu sub = (nvu)((nvf)ax + 0.5f) - 0x3f000000u;
    nvu big = 0x7c00u | ((nvu)((nvi)ax > 0x7f800000) & (0x0200u | ((ax >> 13) & 0x03ffu)));
    nvu r = nsel((nvi)ax < 0x38800000, sub, nsel((nvi)ax >= 0x47800000, big, normal)) | sign;
    return __builtin_convertvector(r, nvh);
}

#ifndef KISA_F16_WIDEN
#define KISA_F16_WIDEN(h) f16_widen_soft(h)
#define KISA_F16_NARROW(vp) f16_narrow_soft(vp)
#endif
#ifndef KISA_IN_REGISTER
#define KISA_IN_REGISTER(v) ((void)0)
#endif

/* Whether any lane of the mask m is set (a compare's result). */
#ifdef KISA_ANY
#define nv_any(m) KISA_ANY(m)
#else
KINLINE bool nv_any(nvi m) {
    uint64_t w[KISA_NATIVE_BYTES / 8], any = 0;
    memcpy(w, &m, sizeof w);
    for (int i = 0; i < KISA_NATIVE_BYTES / 8; i++) any |= w[i];
    return any != 0;
}
#endif

/* The narrowed f16 bits of the nvf at vp stored at p. KISA_IN_REGISTER keeps the conversion's
 * result in a register before the store: fused into vcvtps2ph's memory form, the narrowing ran at
 * a third of the speed on the measuring machine (AMD Zen; `perf` on 16x16 f16 tadd). */
KINLINE void store_narrowed_f16(uint16_t *p, const nvf *vp) {
    nvh h = KISA_F16_NARROW(vp);
    KISA_IN_REGISTER(h);
    store_nvh(p, h);
}

KINLINE nvf bf16_widen(nvh h) { return (nvf)(KISA_WIDEN_U16(h) << 16); }

/* f32 -> bf16 bits, bit-identical to fp_f32_to_bf16: RNE on the bits, NaN made quiet. */
KINLINE nvh bf16_narrow(const nvf *vp) {
    nvu x = (nvu)*vp;
    nvu rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    nvu r = nsel((nvi)(x & 0x7fffffffu) > 0x7f800000, (x >> 16) | 0x0040u, rounded);
    return __builtin_convertvector(r, nvh);
}

/* f32 -> the nearest bf16, as f32: bf16_widen(bf16_narrow(vp)) on the 32-bit lanes themselves (the
 * round trip through 16-bit lanes lengthened each step of a bf16 fold chain by its two shuffles). */
KINLINE nvf bf16_round(const nvf *vp) {
    nvu x = (nvu)*vp;
    nvu rounded = (x + 0x7fffu + ((x >> 16) & 1u)) & 0xffff0000u;
    return (nvf)nsel((nvi)(x & 0x7fffffffu) > 0x7f800000, (x | 0x00400000u) & 0xffff0000u, rounded);
}

/* n-element conversions (the table's f16_to_f32 & co., compared by the unit tests; inlined into the
 * elementwise kernels, kernels_elem.h). */
KINLINE void cvt_f16_to_f32(float *dst, const uint16_t *src, int64_t n) {
    int64_t i = 0;
#ifdef KISA_F16_WIDEN_16
    for (; i + 16 <= n; i += 16) KISA_F16_WIDEN_16(dst + i, src + i); /* a wider conversion first */
#endif
    for (; i + NL <= n; i += NL) {
        nvf v = KISA_F16_WIDEN(load_nvh(src + i));
        memcpy(dst + i, &v, sizeof v);
    }
    for (; i < n; i++) dst[i] = fp_f16_to_f32(src[i]);
}

KINLINE void cvt_f32_to_f16(uint16_t *dst, const float *src, int64_t n) {
    int64_t i = 0;
#ifdef KISA_F16_NARROW_16
    for (; i + 16 <= n; i += 16) KISA_F16_NARROW_16(dst + i, src + i); /* a wider conversion first */
#endif
    for (; i + NL <= n; i += NL) {
        nvf v = load_nvf(src + i);
        store_narrowed_f16(dst + i, &v);
    }
    for (; i < n; i++) dst[i] = fp_f32_to_f16(src[i]);
}

KINLINE void cvt_bf16_to_f32(float *dst, const uint16_t *src, int64_t n) {
    for (int64_t i = 0; i < n; i++) dst[i] = fp_bf16_to_f32(src[i]); /* the compiler's loop, as wide as it goes */
}

KINLINE void cvt_f32_to_bf16(uint16_t *dst, const float *src, int64_t n) {
    for (int64_t i = 0; i < n; i++) { /* the compiler's loop: as wide as the variant allows */
        const uint32_t x = fp_float_bits(src[i]);
        const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
        dst[i] = (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? (x >> 16) | 0x0040u : rounded);
    }
}

/* ---- walk planning and overlap checks (shared by every element type) ------------------------ */

/* One past the last byte of t's elements (r, c), r < rows, c < cols (rows, cols >= 1). */
KINLINE uintptr_t span_end(KTile t, int64_t rows, int64_t cols, size_t es) {
    return (uintptr_t)t.p + (uintptr_t)((rows - 1) * t.rs + (cols - 1) * t.cs + 1) * es;
}

/* True when the elements of a (ar x ac) and b (br x bc) share no byte. */
KINLINE bool spans_disjoint(KTile a, int64_t ar, int64_t ac, KTile b, int64_t br, int64_t bc, size_t es) {
    return span_end(a, ar, ac, es) <= (uintptr_t)b.p || span_end(b, br, bc, es) <= (uintptr_t)a.p;
}

/* True when an elementwise source may be read in any order while `d` is written: it is the same
 * walk as the destination (in place) or shares no byte with it. */
KINLINE bool elementwise_safe(KTile d, KTile s, int64_t rows, int64_t cols, size_t es) {
    return (d.p == s.p && d.rs == s.rs && d.cs == s.cs) || spans_disjoint(d, rows, cols, s, rows, cols, es);
}

/* Orients an elementwise walk over n operands so that the inner (column) axis has unit stride in
 * every operand (col-major tiles: rows and columns swap), and merges all rows into one run when
 * every operand's rows follow each other. False when no axis has unit stride everywhere. */
KINLINE bool plan_runs(KTile *t, int n, int64_t *rows, int64_t *cols) {
    bool by_row = true, by_col = true, merge = true;
    for (int i = 0; i < n; i++) {
        by_row = by_row && t[i].cs == 1;
        by_col = by_col && t[i].rs == 1;
    }
    if (!by_row) {
        if (!by_col) return false;
        int64_t tmp = *rows;
        *rows = *cols;
        *cols = tmp;
        for (int i = 0; i < n; i++) {
            t[i].rs = t[i].cs;
            t[i].cs = 1;
        }
    }
    for (int i = 0; i < n; i++) merge = merge && t[i].rs == *cols;
    if (merge) {
        *cols *= *rows;
        *rows = 1;
    }
    return true;
}

/* Stores n bytes of a repeating 32-byte pattern (n is a multiple of the element size, which
 * divides 32): whole vectors, then 16-, 8-, 4-, 2-, 1-byte pieces, each starting on an element. */
KINLINE void fill_bytes(uint8_t *p, const v32u8 *pat, size_t n) {
    for (; n >= 128; n -= 128, p += 128) {
        memcpy(p, pat, 32);
        memcpy(p + 32, pat, 32);
        memcpy(p + 64, pat, 32);
        memcpy(p + 96, pat, 32);
    }
    if (n & 64) memcpy(p, pat, 32), memcpy(p + 32, pat, 32), p += 64;
    if (n & 32) memcpy(p, pat, 32), p += 32;
    if (n & 16) memcpy(p, pat, 16), p += 16;
    if (n & 8) memcpy(p, pat, 8), p += 8;
    if (n & 4) memcpy(p, pat, 4), p += 4;
    if (n & 2) memcpy(p, pat, 2), p += 2;
    if (n & 1) memcpy(p, pat, 1);
}

/* TEXPANDS for any element type: `value` (es bytes) into the rows x cols region of d. */
static void fill_tile(KTile d, const void *value, size_t es, int64_t rows, int64_t cols) {
    if (rows <= 0 || cols <= 0) return;
    uint64_t bits = 0; /* the element repeated over 8 bytes, then over 32 (no narrow stores to reload) */
    memcpy(&bits, value, es);
    bits *= es == 1 ? 0x0101010101010101u : es == 2 ? 0x0001000100010001u : es == 4 ? 0x0000000100000001u : 1u;
    const v32u8 pat = (v32u8)((v4u64){0} + bits);
    if (!plan_runs(&d, 1, &rows, &cols)) {
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = 0; c < cols; c++) memcpy(d.p + (size_t)(r * d.rs + c * d.cs) * es, value, es);
        return;
    }
    const size_t row_bytes = (size_t)cols * es, stride = (size_t)d.rs * es;
    uint8_t *p = d.p;
    if (row_bytes == 16) { /* tall thin 16-bit x 8 and 32-bit x 4 */
#pragma GCC unroll 4
        for (int64_t r = 0; r < rows; r++, p += stride) memcpy(p, &pat, 16);
        return;
    }
    if (row_bytes == 32) {
#pragma GCC unroll 4
        for (int64_t r = 0; r < rows; r++, p += stride) memcpy(p, &pat, 32);
        return;
    }
    for (int64_t r = 0; r < rows; r++, p += stride) fill_bytes(p, &pat, row_bytes);
}

/* Columns a fold's sequential reference (kernels_tmpl.h) keeps in accumulators at once. */
enum { FOLD_REF_CHUNK = 4096 };

#define KOP_MUL 0
#define KOP_SUB 1

/* ---- the element types ---------------------------------------------------------------------- */

/* Float types: computed in f32 lanes, NL per native vector whatever the storage width. */
#define KT_FLOAT 1
#define KT_INT 0

#define KT_NAME f32
#define KT_T float
#define KT_KIND KT_FLOAT
#define KT_ES 4
#define KT_LOADN(p) load_nvf(p)
#define KT_STOREN(p, vp) memcpy((p), (vp), sizeof(nvf))
#define KT_ROUNDN(vp) (*(vp))
#define KT_LOAD4(p) load_nvf4(p)
#define KT_ROUND4(v) (v)
#define KT_LD(x) (x)
#define KT_ST(x) (x)
#include "kernels_tmpl.h"

#define KT_NAME f16
#define KT_T uint16_t
#define KT_KIND KT_FLOAT
#define KT_ES 2
#define KT_GROUPS 4
#define KT_LOADN(p) KISA_F16_WIDEN(load_nvh(p))
#define KT_STOREN(p, vp) store_narrowed_f16((p), (vp))
#define KT_ROUNDN(vp) KISA_F16_WIDEN(KISA_F16_NARROW(vp))
#ifdef KISA_F16_ROUND4
#define KT_LOAD4(p) KISA_F16_WIDEN4(p)
#define KT_ROUND4(v) KISA_F16_ROUND4(v)
#endif
#ifdef KISA_F16_ROW16
#define KT_ROW16(d, x, e, op, left) KISA_F16_ROW16(d, x, e, op, left)
#endif
#ifdef KISA_F16_PRODUCTS4
#define KT_PRODUCTS4(out, row, n, cols) KISA_F16_PRODUCTS4(out, row, n, cols)
#endif
#define KT_LD(x) fp_f16_to_f32(x)
#define KT_ST(x) fp_f32_to_f16(x)
#include "kernels_tmpl.h"

#define KT_NAME bf16
#define KT_T uint16_t
#define KT_KIND KT_FLOAT
#define KT_ES 2
#define KT_GROUPS 4
#define KT_SCALAR_TAIL_ROWS 1
#define KT_LOADN(p) bf16_widen(load_nvh(p))
#define KT_STOREN(p, vp) store_nvh((p), bf16_narrow(vp))
#define KT_ROUNDN(vp) bf16_round(vp)
#define KT_LD(x) fp_bf16_to_f32(x)
#define KT_ST(x) fp_f32_to_bf16(x)
#include "kernels_tmpl.h"

/* Integer types: computed in unsigned lanes of the element's width (wrap modulo 2^width); scalar
 * code computes in unsigned int of at least that width and keeps the low bits. */
#define KT_NAME i8
#define KT_MINMAX epi8
#define KT_T int8_t
#define KT_KIND KT_INT
#define KT_ES 1
#define KT_VE uint8_t
#define KT_V nv8
#define KT_VHALF hv8
#define KT_CT uint32_t
#include "kernels_tmpl.h"

#define KT_NAME u8
#define KT_MINMAX epu8
#define KT_T uint8_t
#define KT_KIND KT_INT
#define KT_ES 1
#define KT_VE uint8_t
#define KT_V nv8
#define KT_VHALF hv8
#define KT_CT uint32_t
#include "kernels_tmpl.h"

#define KT_NAME i16
#define KT_MINMAX epi16
#define KT_T int16_t
#define KT_KIND KT_INT
#define KT_ES 2
#define KT_VE uint16_t
#define KT_V nv16
#define KT_VHALF hv16
#define KT_CT uint32_t
#include "kernels_tmpl.h"

#define KT_NAME u16
#define KT_MINMAX epu16
#define KT_T uint16_t
#define KT_KIND KT_INT
#define KT_ES 2
#define KT_VE uint16_t
#define KT_V nv16
#define KT_VHALF hv16
#define KT_CT uint32_t
#include "kernels_tmpl.h"

#define KT_NAME i32
#define KT_MINMAX epi32
#define KT_T int32_t
#define KT_KIND KT_INT
#define KT_ES 4
#define KT_VE uint32_t
#define KT_V nvu
#define KT_VHALF hv32
#define KT_CT uint32_t
#include "kernels_tmpl.h"

#define KT_NAME u32
#define KT_MINMAX epu32
#define KT_T uint32_t
#define KT_KIND KT_INT
#define KT_ES 4
#define KT_VE uint32_t
#define KT_V nvu
#define KT_VHALF hv32
#define KT_CT uint32_t
#include "kernels_tmpl.h"

#define KT_NAME i64
#define KT_T int64_t
#define KT_KIND KT_INT
#define KT_ES 8
#define KT_VE uint64_t
#define KT_V nv64
#define KT_VHALF hv64
#define KT_CT uint64_t
#include "kernels_tmpl.h"

#define KT_NAME u64
#define KT_T uint64_t
#define KT_KIND KT_INT
#define KT_ES 8
#define KT_VE uint64_t
#define KT_V nv64
#define KT_VHALF hv64
#define KT_CT uint64_t
#include "kernels_tmpl.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtype-limits" /* one skeleton for signed and unsigned types */
#include "kernels_elem.h"
#pragma GCC diagnostic pop

#define KSET(NAME)                                                                                 \
    {fill_##NAME, {trowsum_##NAME, trowmax_##NAME, trowmin_##NAME, trowprod_##NAME},                   \
     {tcolsum_##NAME, tcolmax_##NAME, tcolmin_##NAME, tcolprod_##NAME}, broadcast_rows_##NAME,         \
     broadcast_cols_##NAME, rowexpand_mul_##NAME, rowexpand_sub_##NAME,                               \
     {{{rowexpand_m1_mul_r_##NAME, rowexpand_m1_mul_l_##NAME}, {rowexpand_m2_mul_r_##NAME, rowexpand_m2_mul_l_##NAME}}, \
      {{rowexpand_m1_sub_r_##NAME, rowexpand_m1_sub_l_##NAME}, {rowexpand_m2_sub_r_##NAME, rowexpand_m2_sub_l_##NAME}}}}


/* The vector fold steps' rounding (KT_ROUNDN of f16 and bf16) over n floats, the tail one by one. */
static void round_n_f16(float *dst, const float *src, int64_t n) {
    int64_t i = 0;
    for (; i + NL <= n; i += NL) {
        const nvf v = load_nvf(src + i), r = KISA_F16_WIDEN(KISA_F16_NARROW(&v));
        memcpy(dst + i, &r, sizeof r);
    }
    for (; i < n; i++) dst[i] = fp_f16_to_f32(fp_f32_to_f16(src[i]));
}

static void round_n_bf16(float *dst, const float *src, int64_t n) {
    int64_t i = 0;
    for (; i + NL <= n; i += NL) {
        const nvf v = load_nvf(src + i), r = bf16_round(&v);
        memcpy(dst + i, &r, sizeof r);
    }
    for (; i < n; i++) dst[i] = fp_bf16_to_f32(fp_f32_to_bf16(src[i]));
}

/* The variant's table; a variant with native f16 kernels (KISA_F16_NATIVE) also makes a second one,
 * KISA_TABLE_F16N, whose f16 elementwise kernels are those (everything else shared). */
#define KISA_TABLE_DEF(table, name_str, elem_table, elem_rev_table)                                  \
    const KernelIsaTable table = {                                                                 \
        .name = name_str,                                                                          \
        .set = {                                                                                   \
            [DT_F32] = KSET(f32), [DT_F16] = KSET(f16), [DT_BF16] = KSET(bf16),                    \
            [DT_I8] = KSET(i8), [DT_U8] = KSET(u8), [DT_I16] = KSET(i16), [DT_U16] = KSET(u16),    \
            [DT_I32] = KSET(i32), [DT_U32] = KSET(u32), [DT_I64] = KSET(i64), [DT_U64] = KSET(u64), \
        },                                                                                         \
        .elem = elem_table,                                                                        \
        .elem_rev = elem_rev_table,                                                                \
        .f16_to_f32 = cvt_f16_to_f32,                                                              \
        .bf16_to_f32 = cvt_bf16_to_f32,                                                            \
        .f32_to_f16 = cvt_f32_to_f16,                                                              \
        .f32_to_bf16 = cvt_f32_to_bf16,                                                            \
        .round_f16 = round_n_f16,                                                                  \
        .round_bf16 = round_n_bf16,                                                                \
    }
KISA_TABLE_DEF(KISA_TABLE, KISA_NAME, ke_table, ke_table_rev);
#ifdef KISA_F16_NATIVE
KISA_TABLE_DEF(KISA_TABLE_F16N, KISA_NAME_F16N, ke_table_f16n, ke_table_rev_f16n);
#endif
