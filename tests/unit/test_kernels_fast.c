/* test_kernels_fast.c - the vectorised kernels (every instruction-set variant this CPU runs:
 * portable C vectors, AVX2 + F16C) against a plain element-by-element reference written here:
 *   - f16/bf16 vector conversions against the scalar ones, exhaustive for the 65536 16-bit
 *     patterns and over millions of f32 patterns (rounding boundaries, subnormals, NaN payloads);
 *   - the five kernels on thousands of random cases per element type: odd widths, valid regions
 *     smaller than the tile, row- and col-major tiles, Mode 1 / Mode 2 / full row-expand operands
 *     on either side, TROWPROD with ND and DN destinations (the multi-row path bit for bit
 *     against the sequential product), tall thin tiles, in-place and partially overlapping
 *     operands (which must give the sequential result). Whole buffers are compared, so anything
 *     written outside the valid region is caught too. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static uint32_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

static uint32_t rng_below(uint64_t *s, uint32_t n) { return rng_next(s) % n; }

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

/* The variants to test: every one this build has and this CPU runs. */
static int isas(KernelIsa out[KISA_COUNT]) {
    int n = 0;
    for (int i = 0; i < KISA_COUNT; i++)
        if (kernel_isa_available((KernelIsa)i)) out[n++] = (KernelIsa)i;
    return n;
}

Test(kernels_fast, variants_are_reported) {
    cr_assert(kernel_isa_available(KISA_PORTABLE));
    cr_assert(kernel_isa_available(kernel_isa_best()));
    for (int i = 0; i < KISA_COUNT; i++) cr_assert_not_null(kernel_isa_table((KernelIsa)i)->name);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"))
        cr_assert(kernel_isa_available(KISA_AVX2), "this CPU has AVX2 + F16C: the variant must be used");
    if (!getenv("PTO_RUN_KERNELS") && kernel_isa_available(KISA_AVX512) && __builtin_cpu_supports("avx512fp16"))
        cr_assert_eq(kernel_isa_best(), KISA_AVX512FP16, "this CPU has AVX512-FP16: its variant must be the best");
#endif
}

/* ---- conversions ---------------------------------------------------------------------------- */

/* The branch-free f16 rounding of a float (kernels.h) against the two conversions it replaces:
 * every f16 value's float, its neighbours, and the floats either side of every rounding boundary
 * (the midpoints between f16 values), of both signs; NaNs with payloads; Inf and overflow. */
Test(kernels_fast, branch_free_f16_rounding_matches_the_conversions) {
    int64_t checked = 0;
    for (uint32_t h = 0; h < 0x7c00u; h++) {
        const float lo = fp_f16_to_f32((uint16_t)h), hi = fp_f16_to_f32((uint16_t)(h + 1));
        const float mid = (float)(((double)lo + (double)hi) / 2); /* exact: f16 midpoints fit a float */
        const uint32_t pts[] = {fp_float_bits(lo), fp_float_bits(mid)};
        for (int p = 0; p < 2; p++)
            for (int d = -2; d <= 2; d++)
                for (int neg = 0; neg < 2; neg++) {
                    const uint32_t sign = neg ? 0x80000000u : 0u;
                    const uint32_t bits = ((pts[p] + (uint32_t)d) & 0x7fffffffu) | sign;
                    const float x = fp_bits_float(bits);
                    const float want = fp_f16_to_f32(fp_f32_to_f16(x)), got = fp_f32_round_f16(x);
                    cr_assert_eq(fp_float_bits(got), fp_float_bits(want), "x = 0x%08x: 0x%08x, want 0x%08x", bits,
                                 fp_float_bits(got), fp_float_bits(want));
                    checked++;
                }
    }
    const uint32_t special[] = {0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fbfffffu, 0x7f812345u, 0x7f7fffffu,
                                0x477ff000u, 0x477fefffu, 0x477fe000u, 0x47800000u, 0x00000001u, 0x33000000u,
                                0x33000001u, 0x32ffffffu, 0x387fc000u, 0x387fe000u};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++)
        for (int neg = 0; neg < 2; neg++) {
            const uint32_t sign = neg ? 0x80000000u : 0u;
            const float x = fp_bits_float(special[i] | sign);
            cr_assert_eq(fp_float_bits(fp_f32_round_f16(x)), fp_float_bits(fp_f16_to_f32(fp_f32_to_f16(x))),
                         "x = 0x%08x", special[i] | sign);
        }
    cr_assert_gt(checked, 500000);
}

/* Double -> f16/bf16 through round-to-odd (the branch-free fp_f64_to_f32_odd) against a direct
 * correct rounding of the double: quotients and square roots that are not floats, ties of the
 * narrow types, values beyond their range, NaN. */
static uint16_t f16_of_double_ref(double d) {
    if (d != d) return fp_f32_to_f16((float)d);
    const double ad = fabs(d);
    uint16_t best = 0;
    double err = INFINITY;
    for (uint32_t h = 0; h <= 0x7c00u; h++) { /* nearest, ties to the even code */
        const double e = fabs((double)fp_f16_to_f32((uint16_t)h) - ad);
        if (e < err || (e == err && !(h & 1u))) err = e, best = (uint16_t)h;
    }
    if (ad >= 65520.0) best = 0x7c00u;
    return (uint16_t)(best | (signbit(d) ? 0x8000u : 0));
}

Test(kernels_fast, double_results_round_once_to_f16) {
    const double xs[] = {1.0 / 3, -2.0 / 3, 65519.999, 65520.0, 65504.00001, 1e300, -1e-300, 5.960464477539063e-08,
                         2.9802322387695312e-08, 2.9802322387695316e-08, 1.0009765625 + 0x1p-40, 1.00048828125,
                         1.00048828125 + 0x1p-50, 1.00048828125 - 0x1p-50, 0.0, -0.0, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
        cr_assert_eq(fp_f64_to_f16(xs[i]), f16_of_double_ref(xs[i]), "%a: 0x%04x, want 0x%04x", xs[i],
                     fp_f64_to_f16(xs[i]), f16_of_double_ref(xs[i]));
    cr_assert_eq(fp_f64_to_f16(NAN) & 0x7e00u, 0x7e00u);
    for (uint32_t h = 0x3c00u; h < 0x3c00u + 64; h++) { /* 1/sqrt(x) of a few f16 values */
        const double d = 1.0 / sqrt((double)fp_f16_to_f32((uint16_t)h));
        cr_assert_eq(fp_f64_to_f16(d), f16_of_double_ref(d), "1/sqrt(0x%04x)", h);
    }
}

/* sqrtf rounded to f16 or bf16 is the simulator's sqrt in double rounded once (elemfn.h, TSQRT):
 * every f16 and bf16 input. */
Test(kernels_fast, float_sqrt_rounds_like_double_sqrt) {
    for (uint32_t h = 0; h < 65536u; h++) {
        const float x = fp_f16_to_f32((uint16_t)h), y = fp_bf16_to_f32((uint16_t)h);
        cr_assert_eq(fp_f32_to_f16(sqrtf(x)), fp_f64_to_f16(sqrt((double)x)), "f16 0x%04x", h);
        cr_assert_eq(fp_f32_to_bf16(sqrtf(y)), fp_f64_to_bf16(sqrt((double)y)), "bf16 0x%04x", h);
    }
    for (uint32_t u = 0; u < 0xffffffffu - 40009u; u += 40009u) {
        const float x = fp_bits_float(u);
        cr_assert_eq(fp_float_bits(sqrtf(x)), fp_float_bits((float)sqrt((double)x)), "f32 0x%08x", u);
    }
}

Test(kernels_fast, f16_and_bf16_widening_is_exhaustively_exact) {
    uint16_t *h = malloc(65536 * sizeof *h);
    float *f = malloc(65536 * sizeof *f);
    for (uint32_t i = 0; i < 65536; i++) h[i] = (uint16_t)i;
    KernelIsa v[KISA_COUNT];
    int nv = isas(v);
    for (int k = 0; k < nv; k++) {
        const KernelIsaTable *t = kernel_isa_table(v[k]);
        t->f16_to_f32(f, h, 65536);
        for (uint32_t i = 0; i < 65536; i++)
            cr_assert_eq(fbits(f[i]), fbits(fp_f16_to_f32(h[i])), "%s f16 0x%04x -> 0x%08x, scalar 0x%08x", t->name,
                         i, fbits(f[i]), fbits(fp_f16_to_f32(h[i])));
        t->bf16_to_f32(f, h, 65536);
        for (uint32_t i = 0; i < 65536; i++)
            cr_assert_eq(fbits(f[i]), fbits(fp_bf16_to_f32(h[i])), "%s bf16 0x%04x", t->name, i);
    }
    /* every f16 goes back to itself through f32 (NaN: made quiet, payload kept) */
    for (uint32_t i = 0; i < 65536; i++) {
        uint16_t back = fp_f32_to_f16(fp_f16_to_f32((uint16_t)i));
        bool nan = (i & 0x7C00) == 0x7C00 && (i & 0x03FF);
        cr_assert_eq(back, nan ? (uint16_t)(i | 0x0200) : (uint16_t)i, "0x%04x -> 0x%04x", i, back);
    }
    free(h);
    free(f);
}

/* Checks every variant's f32 -> f16 and f32 -> bf16 on n values against the scalar conversion. */
static void check_narrowing(const float *in, size_t n) {
    uint16_t *out = malloc(n * sizeof *out);
    float *rounded = malloc(n * sizeof *rounded);
    KernelIsa v[KISA_COUNT];
    int nv = isas(v);
    for (int k = 0; k < nv; k++) {
        const KernelIsaTable *t = kernel_isa_table(v[k]);
        t->f32_to_f16(out, in, (int64_t)n);
        for (size_t i = 0; i < n; i++)
            if (out[i] != fp_f32_to_f16(in[i]))
                cr_assert_fail("%s f32 0x%08x -> f16 0x%04x, scalar 0x%04x", t->name, fbits(in[i]), out[i],
                               fp_f32_to_f16(in[i]));
        t->f32_to_bf16(out, in, (int64_t)n);
        for (size_t i = 0; i < n; i++)
            if (out[i] != fp_f32_to_bf16(in[i]))
                cr_assert_fail("%s f32 0x%08x -> bf16 0x%04x, scalar 0x%04x", t->name, fbits(in[i]), out[i],
                               fp_f32_to_bf16(in[i]));
        /* the folds' vector rounding: the same value as narrowing and widening */
        t->round_f16(rounded, in, (int64_t)n);
        for (size_t i = 0; i < n; i++)
            if (fbits(rounded[i]) != fbits(fp_f16_to_f32(fp_f32_to_f16(in[i]))))
                cr_assert_fail("%s f32 0x%08x rounded to f16 0x%08x, scalar 0x%08x", t->name, fbits(in[i]),
                               fbits(rounded[i]), fbits(fp_f16_to_f32(fp_f32_to_f16(in[i]))));
        t->round_bf16(rounded, in, (int64_t)n);
        for (size_t i = 0; i < n; i++)
            if (fbits(rounded[i]) != fbits(fp_bf16_to_f32(fp_f32_to_bf16(in[i]))))
                cr_assert_fail("%s f32 0x%08x rounded to bf16 0x%08x, scalar 0x%08x", t->name, fbits(in[i]),
                               fbits(rounded[i]), fbits(fp_bf16_to_f32(fp_f32_to_bf16(in[i]))));
    }
    free(rounded);
    free(out);
}

Test(kernels_fast, narrowing_matches_the_scalar_conversion_on_millions_of_floats) {
    enum { N = 1 << 22 };
    float *in = malloc(N * sizeof *in);
    size_t n = 0;
    /* every sign/exponent/top-10-mantissa pattern with low 13 bits at and around the f16 rounding
     * point (and the bf16 one: bit 15 and neighbours) */
    static const uint32_t low[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x7FFF, 0x8000};
    for (uint32_t hi = 0; hi < (1u << 19) && n + 8 <= N; hi++)
        for (int j = 0; j < 8; j++) in[n++] = bitsf((hi << 13) | low[j]);
    check_narrowing(in, n);
    /* f16 subnormal range: for each exponent, the quotients around every rounding point */
    n = 0;
    for (uint32_t sign = 0; sign < 2; sign++)
        for (uint32_t e = 98; e <= 113; e++) {
            uint32_t shift = e < 113 ? 126 - e : 13; /* rounding position in the 24-bit significand */
            if (shift > 24) shift = 24;
            for (uint32_t q = 0; (q << shift) < (1u << 24) && n + 8 <= N; q++) {
                uint32_t base = (q << shift) & 0x7FFFFFu, half = 1u << (shift - 1);
                const uint32_t m[] = {base, base + 1, base + half - 1, base + half, base + half + 1,
                                      base + (1u << shift) - 1, base + 2, base + half + 2};
                for (int j = 0; j < 8; j++)
                    in[n++] = bitsf((sign << 31) | (e << 23) | (m[j] & 0x7FFFFFu));
            }
        }
    check_narrowing(in, n);
    /* a stride through all 2^32 patterns (NaNs with every payload shape included) */
    n = 0;
    for (uint64_t u = 0; u < (1ull << 32) && n < N; u += 1031) in[n++] = bitsf((uint32_t)u);
    check_narrowing(in, n);
    /* the special values */
    const uint32_t special[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000,
                                0x7F800001, 0x7FC00000, 0xFFFFFFFF, 0x7FBFFFFF, 0x477FE000, 0x477FEFFF,
                                0x477FF000, 0x47800000, 0x33000000, 0x33000001, 0x387FE000, 0x387FF000};
    check_narrowing((const float *)(const void *)special, sizeof special / sizeof *special);
    free(in);
}

/* ---- the reference kernels ------------------------------------------------------------------ */

static float ref_ldf(DType dt, const uint8_t *p) {
    uint16_t h;
    float f;
    switch (dt) {
    case DT_F16: memcpy(&h, p, 2); return fp_f16_to_f32(h);
    case DT_BF16: memcpy(&h, p, 2); return fp_bf16_to_f32(h);
    default: memcpy(&f, p, 4); return f;
    }
}

static void ref_stf(DType dt, uint8_t *p, float v) {
    uint16_t h;
    switch (dt) {
    case DT_F16: h = fp_f32_to_f16(v); memcpy(p, &h, 2); return;
    case DT_BF16: h = fp_f32_to_bf16(v); memcpy(p, &h, 2); return;
    default: memcpy(p, &v, 4); return;
    }
}

static uint64_t ref_ldi(size_t es, const uint8_t *p) {
    uint64_t u = 0;
    memcpy(&u, p, es); /* little-endian: the low bits; the rest does not matter modulo 2^width */
    return u;
}

static void ref_sti(size_t es, uint8_t *p, uint64_t v) { memcpy(p, &v, es); }

/* One element op: *d = a OP b (op 0 multiply, 1 subtract), in the element type's arithmetic. */
static void ref_op(DType dt, uint8_t *d, const uint8_t *a, const uint8_t *b, int op) {
    size_t es = dtype_size(dt);
    if (dtype_is_float(dt)) {
        float x = ref_ldf(dt, a), y = ref_ldf(dt, b);
        ref_stf(dt, d, op ? x - y : x * y);
    } else {
        uint64_t x = ref_ldi(es, a), y = ref_ldi(es, b);
        ref_sti(es, d, op ? x - y : x * y);
    }
}

static uint8_t *at(KTile t, size_t es, int64_t r, int64_t c) { return t.p + (size_t)(r * t.rs + c * t.cs) * es; }

static void scalar_bytes(DType dt, KScalar k, uint8_t out[8]) {
    memset(out, 0, 8);
    if (dtype_is_float(dt)) ref_stf(dt, out, k.f);
    else ref_sti(dtype_size(dt), out, k.u);
}

static void ref_tmuls(DType dt, KTile d, KTile s, KScalar k, int64_t rows, int64_t cols) {
    size_t es = dtype_size(dt);
    uint8_t kb[8];
    scalar_bytes(dt, k, kb);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) ref_op(dt, at(d, es, r, c), at(s, es, r, c), kb, 0);
}

static void ref_fill(DType dt, KTile d, KScalar k, int64_t rows, int64_t cols) {
    size_t es = dtype_size(dt);
    uint8_t kb[8];
    scalar_bytes(dt, k, kb);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) memcpy(at(d, es, r, c), kb, es);
}

static void ref_trowprod(DType dt, KTile d, KTile s, int64_t rows, int64_t cols) {
    size_t es = dtype_size(dt);
    for (int64_t r = 0; r < rows; r++) {
        uint8_t p[8] = {0};
        if (dtype_is_float(dt)) ref_stf(dt, p, 1.0f);
        else ref_sti(es, p, 1);
        for (int64_t c = 0; c < cols; c++) ref_op(dt, p, p, at(s, es, r, c), 0); /* rounded every step */
        memcpy(at(d, es, r, 0), p, es);
    }
}

/* A fold of rows (dst(r, 0), written row by row) or columns (dst(0, c), written after every element
 * is read) as ops_reduce.c describes it: products
 * rounded at every step, row sums in float rounded once, column sums rounded at every step,
 * max/min replace only on a strict improvement and copy the element's bits; integers wrap and
 * compare as their signed or unsigned type. */
static int64_t ref_int_value(DType dt, const uint8_t *p) {
    size_t es = dtype_size(dt);
    uint64_t u = ref_ldi(es, p);
    if (!dtype_is_unsigned(dt) && es < 8 && (u >> (8 * es - 1)) & 1u) u |= ~0ull << (8 * es);
    return (int64_t)u;
}

static bool ref_better(DType dt, const uint8_t *x, const uint8_t *best, int fold) {
    if (dtype_is_float(dt)) {
        float v = ref_ldf(dt, x), b = ref_ldf(dt, best);
        return fold == KFOLD_MAX ? b < v : v < b;
    }
    if (dtype_is_unsigned(dt)) {
        uint64_t v = ref_ldi(dtype_size(dt), x), b = ref_ldi(dtype_size(dt), best);
        return fold == KFOLD_MAX ? b < v : v < b;
    }
    int64_t v = ref_int_value(dt, x), b = ref_int_value(dt, best);
    return fold == KFOLD_MAX ? b < v : v < b;
}

static void ref_fold(DType dt, int fold, bool columns, KTile d, KTile s, int64_t rows, int64_t cols) {
    size_t es = dtype_size(dt);
    int64_t lines = columns ? cols : rows, len = columns ? rows : cols;
    uint8_t *out = malloc((size_t)lines * es);
    for (int64_t l = 0; l < lines; l++) {
        uint8_t *q = out + l * es;
#define ELT(i) (columns ? at(s, es, (i), l) : at(s, es, l, (i)))
        if (fold == KFOLD_MAX || fold == KFOLD_MIN) {
            memcpy(q, ELT(0), es);
            for (int64_t i = 1; i < len; i++)
                if (ref_better(dt, ELT(i), q, fold)) memcpy(q, ELT(i), es);
        } else if (dtype_is_float(dt) && fold == KFOLD_SUM && !columns) {
            float acc = 0.0f;
            for (int64_t i = 0; i < len; i++) acc += ref_ldf(dt, ELT(i));
            ref_stf(dt, q, acc);
        } else if (dtype_is_float(dt)) { /* rounded at every step */
            ref_stf(dt, q, fold == KFOLD_PROD ? 1.0f : 0.0f);
            for (int64_t i = 0; i < len; i++) ref_stf(dt, q, fold == KFOLD_PROD ? ref_ldf(dt, q) * ref_ldf(dt, ELT(i))
                                                                              : ref_ldf(dt, q) + ref_ldf(dt, ELT(i)));
        } else {
            uint64_t acc = fold == KFOLD_PROD ? 1 : 0;
            for (int64_t i = 0; i < len; i++)
                acc = fold == KFOLD_PROD ? acc * ref_ldi(es, ELT(i)) : acc + ref_ldi(es, ELT(i));
            ref_sti(es, q, acc);
        }
#undef ELT
        if (!columns) memcpy(at(d, es, l, 0), q, es); /* each row's result before the next row is read */
    }
    for (int64_t l = 0; columns && l < lines; l++) memcpy(at(d, es, 0, l), out + l * es, es); /* columns: all read first */
    free(out);
}

/* TROWEXPAND / TCOLEXPAND: element bits, in row order (a dst over src sees earlier writes). */
static void ref_broadcast(DType dt, bool columns, KTile d, KTile s, int64_t rows, int64_t cols) {
    size_t es = dtype_size(dt);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) memmove(at(d, es, r, c), columns ? at(s, es, 0, c) : at(s, es, r, 0), es);
}

static void ref_rowexpand(DType dt, int op, KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma,
                          int64_t mb) {
    size_t es = dtype_size(dt);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            uint8_t x[8], y[8];
            memcpy(x, at(a, es, r, c % ma), es); /* read both before the write (the simulator's order) */
            memcpy(y, at(b, es, r, c % mb), es);
            ref_op(dt, at(d, es, r, c), x, y, op);
        }
}

/* ---- random cases --------------------------------------------------------------------------- */

/* The kernels the random cases run: the KernelSet's, and TMULS through its family kernel. */
enum {
    K_TMULS, K_FILL, K_ROWEXPAND_MUL, K_ROWEXPAND_SUB, K_ROW_FOLD, /* + KFOLD_*: TROWSUM .. TROWPROD */
    K_COL_FOLD = K_ROW_FOLD + KFOLD_COUNT, /* + KFOLD_*: TCOLSUM .. TCOLPROD */
    K_BROADCAST_ROWS = K_COL_FOLD + KFOLD_COUNT, K_BROADCAST_COLS, K_COUNT
};

enum { BUF = 1 << 17 };

typedef struct Case {
    DType dt;
    int op;                 /* K_* below */
    KTile d, a, b;          /* offsets (in elements) in p; strides */
    int64_t rows, cols, ma, mb;
    int side_mode;          /* row-expand through KernelSet.rowexpand_side: -1 no, 0 Mode 1, 1 Mode 2 */
    bool side_left;         /* ... with src0 (a) the expanded operand */
    KScalar k;
    int64_t end;            /* elements of the buffer the tiles reach (plus a margin) */
} Case;

/* A tile of pr x pc elements at element offset `off`, row- or col-major; p holds the offset until
 * resolve() turns it into an address in a buffer. `end` grows to the tile's last element + 1. */
static KTile tile_at(int64_t off, int64_t pr, int64_t pc, bool col_major, int64_t *end) {
    KTile t = {(uint8_t *)(uintptr_t)off, col_major ? 1 : pc, col_major ? pr : 1};
    if (off + pr * pc > *end) *end = off + pr * pc;
    return t;
}

static KTile resolve(KTile t, uint8_t *buf, size_t es) {
    t.p = buf + (uintptr_t)t.p * es;
    return t;
}

/* Random element bits: special values, values near 1 (long products stay finite and round at every
 * step), or any bits. */
static void fill_random(uint8_t *buf, size_t n, DType dt, uint64_t *s, int style) {
    size_t es = dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = buf + i * es;
        uint64_t bits = ((uint64_t)rng_next(s) << 32) | rng_next(s);
        if (dtype_is_float(dt) && style == 1) {
            float f = 0.5f + (float)(rng_next(s) & 0xFFFFFF) / 16777216.0f * 1.5f;
            if (rng_below(s, 2)) f = -f;
            ref_stf(dt, p, f);
        } else if (dtype_is_float(dt) && style == 2 && rng_below(s, 4) == 0) {
            static const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-45f, 65504.0f, 65520.0f,
                                       6e-8f, 3e38f, 1.0f};
            ref_stf(dt, p, sp[rng_below(s, sizeof sp / sizeof *sp)]);
            if (rng_below(s, 8) == 0) memcpy(p, &bits, es); /* NaNs with payloads, sNaNs */
        } else {
            memcpy(p, &bits, es);
        }
    }
}

/* Element-wise comparison of two buffers of dt: bit-exact, except that any NaN equals any NaN
 * (when both operands of one product are NaN, which one's payload survives is the compiler's
 * choice, in the ISA's simulator as here). */
static bool same_elements(DType dt, const uint8_t *x, const uint8_t *y, size_t n, size_t *where) {
    size_t es = dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        if (memcmp(x + i * es, y + i * es, es) == 0) continue;
        if (dtype_is_float(dt) && isnan(ref_ldf(dt, x + i * es)) && isnan(ref_ldf(dt, y + i * es))) continue;
        *where = i;
        return false;
    }
    return true;
}

/* TMULS through its elementwise-family kernel (kernels_elem.h) in variant `isa`. */
static void tmuls_kernel(KernelIsa isa, DType dt, KTile d, KTile s, KScalar k, int64_t rows, int64_t cols) {
    KernelElem kern = kernel_isa_table(isa)->elem[OP_TMULS][dt];
    cr_assert_not_null(kern);
    cr_assert_eq(kern(d, &s, k, rows, cols), 0);
}

static void run_case(KernelIsa isa, const KernelSet *ks, const Case *c, uint8_t *buf, size_t es, bool reference) {
    KTile d = resolve(c->d, buf, es), a = resolve(c->a, buf, es), b = resolve(c->b, buf, es);
    if (c->op == K_TMULS) {
        if (reference) ref_tmuls(c->dt, d, a, c->k, c->rows, c->cols);
        else tmuls_kernel(isa, c->dt, d, a, c->k, c->rows, c->cols);
    } else if (c->op == K_FILL) {
        if (reference) ref_fill(c->dt, d, c->k, c->rows, c->cols);
        else ks->fill(d, c->k, c->rows, c->cols);
    } else if (c->op == K_ROWEXPAND_MUL || c->op == K_ROWEXPAND_SUB) {
        bool sub = c->op == K_ROWEXPAND_SUB;
        if (reference) ref_rowexpand(c->dt, sub, d, a, b, c->rows, c->cols, c->ma, c->mb);
        else if (c->side_mode >= 0) /* the kernel an instruction with fixed roles calls */
            ks->rowexpand_side[sub][c->side_mode][c->side_left](d, c->side_left ? b : a, c->side_left ? a : b, c->rows,
                                                                c->cols);
        else (sub ? ks->trowexpandsub : ks->trowexpandmul)(d, a, b, c->rows, c->cols, c->ma, c->mb);
    } else if (c->op < K_BROADCAST_ROWS) {
        bool columns = c->op >= K_COL_FOLD;
        int fold = c->op - (columns ? K_COL_FOLD : K_ROW_FOLD);
        if (reference) ref_fold(c->dt, fold, columns, d, a, c->rows, c->cols);
        else (columns ? ks->col_fold : ks->row_fold)[fold](d, a, c->rows, c->cols);
    } else {
        bool columns = c->op == K_BROADCAST_COLS;
        if (reference) ref_broadcast(c->dt, columns, d, a, c->rows, c->cols);
        else (columns ? ks->broadcast_cols : ks->broadcast_rows)(d, a, c->rows, c->cols);
    }
}

static const char *op_name(int op) {
    static const char *const n[K_COUNT] = {"tmuls", "fill", "trowexpandmul", "trowexpandsub", "trowsum", "trowmax",
                                            "trowmin", "trowprod", "tcolsum", "tcolmax", "tcolmin", "tcolprod",
                                            "trowexpand", "tcolexpand"};
    return n[op];
}

/* A random case of `op` whose tiles lie in a buffer of BUF bytes; false when the draw does not fit
 * (the caller draws again). One case in six lets tiles land on each other anywhere (most such
 * cases take the sequential path); otherwise they are disjoint or dst is the source (in place). */
static bool random_case(Case *c, DType dt, int op, uint64_t *s) {
    const size_t es = dtype_size(dt);
    const int64_t block = 32 / (int64_t)es;
    memset(c, 0, sizeof *c);
    c->side_mode = -1;
    c->dt = dt;
    c->op = op;
    int shape = (int)rng_below(s, 10);
    int64_t rows, cols;
    if (shape == 0) { rows = 100 + rng_below(s, 400); cols = 1 + rng_below(s, 16); }        /* tall thin */
    else if (shape == 1) { rows = 1 + rng_below(s, 3); cols = 200 + rng_below(s, 2000); }   /* long rows */
    else if (shape == 2) { rows = 8 * (1 + rng_below(s, 8)); cols = 8 * (1 + rng_below(s, 8)); }
    else { rows = 1 + rng_below(s, 40); cols = 1 + rng_below(s, 70); }
    c->rows = rows;
    c->cols = cols;
    int64_t pr = rows + (rng_below(s, 3) ? 0 : rng_below(s, 5));
    int64_t pc = cols + (rng_below(s, 3) ? 0 : rng_below(s, 9));
    bool dcm = rng_below(s, 8) == 0, acm = rng_below(s, 8) == 0;
    bool overlap = rng_below(s, 6) == 0;
    int64_t span = pr * pc, end = 0;
    /* disjoint slots: dst, a, b, each after a random gap */
    int64_t off_d = rng_below(s, 64), off_a = off_d + span + 1 + rng_below(s, 64);
    int64_t off_b = off_a + span + 1 + rng_below(s, 64);
    if (overlap) {
        off_a = off_d + (int64_t)rng_below(s, (uint32_t)(2 * span + 2)) - span / 2;
        off_b = off_d + (int64_t)rng_below(s, (uint32_t)(2 * span + 2)) - span / 2;
        if (off_a < 0) off_a = 0;
        if (off_b < 0) off_b = 0;
    }
    c->d = tile_at(off_d, pr, pc, dcm, &end);
    c->a = tile_at(off_a, pr, pc, acm, &end);
    if (op != K_FILL && rng_below(s, 8) == 0) c->a = c->d; /* in place */
    c->k.u = ((uint64_t)rng_next(s) << 32) | rng_next(s);
    if (dtype_is_float(dt)) { /* the scalar already has the element type's value */
        float kf = rng_below(s, 10) ? (float)((int32_t)rng_below(s, 2001) - 1000) / 64.0f : bitsf(rng_next(s));
        uint8_t tmp[4];
        ref_stf(dt, tmp, kf);
        c->k.f = ref_ldf(dt, tmp);
    }
    if (op >= K_ROW_FOLD && op < K_COL_FOLD) { /* a row fold: dst ND (pr x dc) or DN (col-major pr x 1) */
        bool dn = rng_below(s, 2);
        int64_t dc = 1 + rng_below(s, 9);
        int64_t at = overlap ? off_a + (int64_t)rng_below(s, (uint32_t)span) : off_b;
        c->d = dn ? tile_at(at, pr, 1, true, &end) : tile_at(at, pr, dc, false, &end);
    }
    if (op >= K_COL_FOLD && op < K_BROADCAST_ROWS) { /* a column fold: dst a row (dr x pc), or col-major */
        int64_t dr = 1 + rng_below(s, 3);
        int64_t at = overlap ? off_a + (int64_t)rng_below(s, (uint32_t)span) : off_b;
        c->d = tile_at(at, dr, pc, rng_below(s, 8) == 0, &end);
    }
    if (op == K_BROADCAST_ROWS || op == K_BROADCAST_COLS) { /* src an N x 1 column (often DN) or a 1 x N row */
        int64_t at = overlap ? off_d + (int64_t)rng_below(s, (uint32_t)span) : off_a;
        if (op == K_BROADCAST_ROWS) c->a = tile_at(at, pr, 1 + rng_below(s, 3), rng_below(s, 2), &end);
        else c->a = tile_at(at, 1 + rng_below(s, 3), pc, rng_below(s, 8) == 0, &end);
    }
    if (op == K_ROWEXPAND_MUL || op == K_ROWEXPAND_SUB) { /* row-expand: one full operand; the other full, Mode 1 or Mode 2; either side */
        int mode = (int)rng_below(s, 4); /* 0 both full, 1 Mode 1 col-major, 2 Mode 1 row-major, 3 Mode 2 */
        KTile full = c->a, e;
        int64_t m;
        if (mode == 0) { e = tile_at(off_b, pr, pc, rng_below(s, 8) == 0, &end); m = cols; }
        else if (mode == 1) { e = tile_at(off_b, pr, 1, true, &end); m = 1; }
        else if (mode == 2) { e = tile_at(off_b, pr, 1 + rng_below(s, 8), false, &end); m = 1; }
        else { e = tile_at(off_b, pr, block * (1 + rng_below(s, 2)), false, &end); m = block < cols ? block : cols; }
        const bool e_first = rng_below(s, 2) == 0;
        if (!e_first) { c->a = full; c->b = e; c->ma = cols; c->mb = m; }
        else { c->a = e; c->b = full; c->ma = m; c->mb = cols; }
        if (mode != 0 && rng_below(s, 2)) { /* half the expanded cases through the side kernels */
            c->side_mode = mode == 3;
            c->side_left = e_first;
        }
    }
    c->end = end + 64;
    return c->end * (int64_t)es <= BUF;
}

/* Runs `n` random cases of every op for one element type against every variant. */
static void check_type(DType dt, int n, uint64_t seed) {
    const size_t es = dtype_size(dt);
    uint8_t *orig = malloc(BUF + 64), *want = malloc(BUF + 64), *got = malloc(BUF + 64);
    KernelIsa v[KISA_COUNT];
    int nv = isas(v);
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        Case c;
        int op = i % K_COUNT;
        while (!random_case(&c, dt, op, &s)) {}
        const size_t n_el = (size_t)c.end;
        fill_random(orig, n_el, dt, &s, (int)rng_below(&s, 3));
        memcpy(want, orig, n_el * es);
        run_case(KISA_PORTABLE, NULL, &c, want, es, true);
        for (int k = 0; k < nv; k++) {
            const KernelSet *ks = kernel_set(dt, v[k]);
            cr_assert_not_null(ks);
            memcpy(got, orig, n_el * es);
            run_case(v[k], ks, &c, got, es, false);
            size_t where = 0;
            if (!same_elements(dt, want, got, n_el, &where))
                cr_assert_fail("%s %s %s case %d: %lldx%lld (m %lld/%lld), d@%lld rs %lld cs %lld, a@%lld rs %lld cs "
                               "%lld, b@%lld rs %lld cs %lld: element %zu differs",
                               kernel_isa_table(v[k])->name, dtype_name(dt), op_name(op), i, (long long)c.rows,
                               (long long)c.cols, (long long)c.ma, (long long)c.mb, (long long)(uintptr_t)c.d.p,
                               (long long)c.d.rs, (long long)c.d.cs, (long long)(uintptr_t)c.a.p, (long long)c.a.rs,
                               (long long)c.a.cs, (long long)(uintptr_t)c.b.p, (long long)c.b.rs, (long long)c.b.cs,
                               where);
        }
    }
    free(orig);
    free(want);
    free(got);
}

Test(kernels_fast, f32_random_cases) { check_type(DT_F32, 3000, 1); }
Test(kernels_fast, f16_random_cases) { check_type(DT_F16, 3000, 2); }
Test(kernels_fast, bf16_random_cases) { check_type(DT_BF16, 2000, 3); }
Test(kernels_fast, i8_u8_random_cases) {
    check_type(DT_I8, 1000, 4);
    check_type(DT_U8, 1000, 5);
}
Test(kernels_fast, i16_u16_random_cases) {
    check_type(DT_I16, 1500, 6);
    check_type(DT_U16, 1000, 7);
}
Test(kernels_fast, i32_u32_random_cases) {
    check_type(DT_I32, 2000, 8);
    check_type(DT_U32, 1000, 9);
}
Test(kernels_fast, i64_u64_random_cases) {
    check_type(DT_I64, 1000, 10);
    check_type(DT_U64, 1000, 11);
}

/* ---- targeted cases ------------------------------------------------------------------------- */

/* TMULS f16 over all 65536 inputs with scalars that round, overflow, underflow and keep NaNs. */
Test(kernels_fast, f16_tmuls_every_input) {
    uint16_t *src = malloc(65536 * 2), *dst = malloc(65536 * 2);
    for (uint32_t i = 0; i < 65536; i++) src[i] = (uint16_t)i;
    const float ks[] = {1.5f, -3.0f, fp_f16_to_f32(0x2E66) /* 0.1 */, 65504.0f, 0x1p-24f, 0.0f, -1.0f, 1.0f};
    KernelIsa v[KISA_COUNT];
    int nv = isas(v);
    for (int k = 0; k < nv; k++)
        for (size_t j = 0; j < sizeof ks / sizeof *ks; j++) {
            tmuls_kernel(v[k], DT_F16, (KTile){(uint8_t *)dst, 256, 1}, (KTile){(uint8_t *)src, 256, 1},
                         (KScalar){ks[j], 0}, 256, 256);
            for (uint32_t i = 0; i < 65536; i++) {
                uint16_t want = fp_f32_to_f16(fp_f16_to_f32(src[i]) * ks[j]);
                bool both_nan = isnan(fp_f16_to_f32(want)) && isnan(fp_f16_to_f32(dst[i]));
                cr_assert(dst[i] == want || both_nan, "%s 0x%04x * %g = 0x%04x, want 0x%04x",
                          kernel_isa_table(v[k])->name, i, (double)ks[j], dst[i], want);
            }
        }
    free(src);
    free(dst);
}

/* The multi-row TROWPROD path against the sequential product, on data where rounding at every step
 * matters (a single rounding at the end gives different bits for most rows): 45 rows (groups of
 * rows, then 5 rows in one clamped group), and 1 to 4 rows left after the groups or alone (the f16
 * 16-byte chain of the AVX2 and AVX-512 variants, with 37 columns: 4 x 4 blocks and a tail). */
Test(kernels_fast, trowprod_multirow_is_the_sequential_product) {
    enum { R = 45, C = 37 };
    static uint16_t h[R * C], hd[R];
    static float f[R * C], fd[R];
    const int row_counts[] = {R, 1, 2, 3, 4, 8 + 1, 32 + 4, 40 + 3};
    uint64_t s = 99;
    for (int i = 0; i < R * C; i++) {
        f[i] = 1.0f + (float)(rng_next(&s) & 0xFFFF) / 65536.0f * 0.1f;
        h[i] = fp_f32_to_f16(f[i]);
    }
    int differs_from_one_rounding = 0;
    KernelIsa v[KISA_COUNT];
    int nv = isas(v);
    for (int k = 0; k < nv; k++)
        for (size_t rc = 0; rc < sizeof row_counts / sizeof *row_counts; rc++) {
            const int rows = row_counts[rc];
            memset(hd, 0, sizeof hd);
            memset(fd, 0, sizeof fd);
            kernel_set(DT_F16, v[k])->row_fold[KFOLD_PROD]((KTile){(uint8_t *)hd, 1, R}, (KTile){(uint8_t *)h, C, 1}, rows, C);
            kernel_set(DT_F32, v[k])->row_fold[KFOLD_PROD]((KTile){(uint8_t *)fd, 1, R}, (KTile){(uint8_t *)f, C, 1}, rows, C);
            for (int r = 0; r < R; r++) {
                if (r >= rows) { /* not written */
                    cr_assert(hd[r] == 0 && fd[r] == 0.0f, "%s %d rows: row %d written", kernel_isa_table(v[k])->name, rows, r);
                    continue;
                }
                float p = 1.0f, pf = 1.0f, exact = 1.0f;
                for (int c = 0; c < C; c++) {
                    p = fp_f16_to_f32(fp_f32_to_f16(p * fp_f16_to_f32(h[r * C + c])));
                    pf = pf * f[r * C + c];
                    exact = exact * fp_f16_to_f32(h[r * C + c]);
                }
                cr_assert_eq(hd[r], fp_f32_to_f16(p), "%s f16 %d rows: row %d", kernel_isa_table(v[k])->name, rows, r);
                cr_assert_eq(fbits(fd[r]), fbits(pf), "%s f32 %d rows: row %d", kernel_isa_table(v[k])->name, rows, r);
                differs_from_one_rounding += fp_f32_to_f16(exact) != hd[r];
            }
        }
    cr_assert_gt(differs_from_one_rounding, 0, "the data must make per-step rounding observable");
}

/* Sums and products in which two NaNs meet keep the first one's bits, as the simulator's `sum += x`
 * and `prod * x` do on x86 (the first NaN operand wins), on every variant and path, whichever order
 * the compiler gives a vector + or * (tests/sim's trowsum NaN cases flipped sign with the kernels
 * built at -O1). Lines with one NaN keep that one. Max and min let a NaN win only as element 0, and
 * keep its bits (a signalling NaN stays one). Rows and columns of 19 x 37 (vector groups, clamped
 * lanes, scalar tails) and 21 x 32 (rows stored a vector at a time), row results side by side or
 * two elements apart. */
Test(kernels_fast, folds_keep_the_first_nan) {
    enum { MAXR = 21, MAXC = 37 };
    static uint8_t src[MAXR * MAXC * 4], dst[2 * MAXC * 4];
    const int shapes[][2] = {{19, 37}, {21, 32}};
    const DType types[] = {DT_F32, DT_F16, DT_BF16};
    const uint32_t first[] = {0x7fc00123u, 0x7e23u, 0x7fc1u}, second[] = {0xffc00456u, 0xfe45u, 0xffc2u};
    const uint32_t signalling[] = {0x7f800123u, 0x7d23u, 0x7f81u};
    const uint32_t half[] = {0x3f000000u, 0x3800u, 0x3f00u}, one[] = {0x3f800000u, 0x3c00u, 0x3f80u};
    KernelIsa v[KISA_COUNT];
    int nv = isas(v), checked = 0;
    for (int sh = 0; sh < 2; sh++)
        for (int t = 0; t < 3; t++)
            for (int fold = 0; fold < KFOLD_COUNT; fold++)
                for (int way = 0; way < 3; way++) { /* columns; rows side by side; rows two apart */
                    const int R = shapes[sh][0], C = shapes[sh][1], columns = way == 0, dstep = way == 2 ? 2 : 1;
                    const bool selects = fold == KFOLD_MAX || fold == KFOLD_MIN;
                    const size_t es = dtype_size(types[t]);
                    const int lines = columns ? C : R, len = columns ? R : C;
                    const uint32_t fill = fold == KFOLD_PROD ? one[t] : half[t];
                    for (int i = 0; i < R * C; i++) memcpy(src + i * es, &fill, es);
                    for (int l = 0; l < lines; l++) {
                        const int i1 = selects ? 0 : l % (len / 2), i2 = len / 2 + (l * 7) % (len - len / 2);
                        const int e1 = columns ? i1 * C + l : l * C + i1, e2 = columns ? i2 * C + l : l * C + i2;
                        if (l % 3 != 2) memcpy(src + e1 * es, selects ? &signalling[t] : &first[t], es);
                        memcpy(src + e2 * es, &second[t], es);
                    }
                    for (int k = 0; k < nv; k++) {
                        const KernelSet *ks = kernel_set(types[t], v[k]);
                        memset(dst, 0, sizeof dst);
                        if (columns) ks->col_fold[fold]((KTile){dst, C, 1}, (KTile){src, C, 1}, R, C);
                        else ks->row_fold[fold]((KTile){dst, dstep, R}, (KTile){src, C, 1}, R, C);
                        for (int l = 0; l < lines; l++) {
                            uint32_t got = 0;
                            memcpy(&got, dst + (size_t)l * dstep * es, es);
                            const uint32_t want = l % 3 != 2 ? (selects ? signalling[t] : first[t]) : selects ? fill : second[t];
                            cr_assert_eq(got, want, "%s %s %dx%d %s fold %d line %d: 0x%x, want 0x%x", kernel_isa_table(v[k])->name,
                                         dtype_name(types[t]), R, C, columns ? "column" : dstep == 1 ? "row" : "row (dst 2 apart)",
                                         fold, l, got, want);
                            checked++;
                        }
                    }
                }
    cr_assert_gt(checked, 0);
}

/* f16 TROWPROD chains of 1 to 4 rows (the f16 chain of the AVX2 and AVX-512 variants, in native f16
 * arithmetic on CPUs with AVX512-FP16) round at every step, bit for bit as the f32 product rounded
 * to f16, where the products stay for thousands of steps in a band: deep in the subnormals, at the
 * normal/subnormal boundary, next to the largest f16, at the smallest subnormals (signs mixed;
 * each factor in about [0.4, 2.4]). Prefixes of 50 to 3000 columns. */
Test(kernels_fast, f16_product_chains_round_every_step_at_the_range_edges) {
    enum { R = 4, C = 3000 };
    static uint16_t h[R * C], got[R];
    const float lo[R] = {0x1p-22f, 0x1p-15f, 0x1p14f, 0x1p-23f}, hi[R] = {0x1p-18f, 0x1p-13f, 50000.0f, 0x1p-21f};
    const int lengths[] = {50, 500, 1500, 3000};
    uint16_t want[4][R];
    uint64_t s = 4242;
    for (int r = 0; r < R; r++) {
        float p = 1.0f;
        for (int c = 0; c < C; c++) {
            float m = 0.8f + 0.4f * (float)(rng_next(&s) & 0xFFFF) / 65536.0f;
            if (fabsf(p) < lo[r]) m *= 2.0f;
            else if (fabsf(p) > hi[r]) m *= 0.5f;
            if (rng_below(&s, 5) == 0) m = -m;
            h[r * C + c] = fp_f32_to_f16(m);
            p = fp_f16_to_f32(fp_f32_to_f16(p * fp_f16_to_f32(h[r * C + c])));
            for (int l = 0; l < 4; l++)
                if (c + 1 == lengths[l]) want[l][r] = fp_f32_to_f16(p);
        }
    }
    KernelIsa v[KISA_COUNT];
    const int nv = isas(v);
    for (int k = 0; k < nv; k++)
        for (int rows = 1; rows <= R; rows++)
            for (int l = 0; l < 4; l++) {
                memset(got, 0, sizeof got);
                kernel_set(DT_F16, v[k])->row_fold[KFOLD_PROD]((KTile){(uint8_t *)got, 1, R}, (KTile){(uint8_t *)h, C, 1}, rows,
                                                               lengths[l]);
                for (int r = 0; r < rows; r++)
                    cr_assert_eq(got[r], want[l][r], "%s %d rows of %d: row %d 0x%04x, want 0x%04x", kernel_isa_table(v[k])->name,
                                 rows, lengths[l], r, got[r], want[l][r]);
            }
    for (int r = 0; r < R; r++) /* the chains stayed in their bands: neither 0 nor inf */
        cr_assert(fp_f16_to_f32(want[3][r]) != 0.0f && isfinite(fp_f16_to_f32(want[3][r])), "row %d left its band", r);
}

/* One element of a long-row extreme case: pattern `pat` (see below), element i of n, for a max
 * (sgn 1) or a min (sgn -1), stored as dt. */
static void extreme_element(DType dt, uint8_t *p, int pat, int i, int n, float sgn, uint64_t *s) {
    static const uint32_t nans[] = {0x7fc00123u, 0xffc00456u, 0x7f800001u, 0xff812345u};
    static const uint16_t nans16[] = {0x7e23u, 0xfe45u, 0x7d01u, 0xff81u};
    const size_t es = dtype_size(dt);
    const float v = (float)((int)rng_below(s, 2001) - 1000) / 8.0f; /* many duplicates */
    const uint32_t k = rng_below(s, 4);
    bool nan = false;
    float f = v;
    switch (pat) {
    case 0: break;                                                                  /* finite, repeats */
    case 1: f = rng_below(s, 16) ? -sgn * (float)(1 + rng_below(s, 100)) : rng_below(s, 2) ? 0.0f : -0.0f; /* zero extreme */
        nan = rng_below(s, 9) == 0;
        break;
    case 2: nan = i == 0; break;                                                    /* element 0 a NaN */
    case 3: nan = i > 0 && (rng_below(s, 4) == 0 || i == n - 1); break;             /* NaNs after element 0 */
    case 4: nan = i > 0; break;                                                     /* only element 0 a number */
    case 5: { static const float sp[] = {INFINITY, -INFINITY, 1e-40f, -1e-45f, 0.0f, -0.0f, 3e38f, -3e38f, 6e-8f};
        f = rng_below(s, 3) ? sp[rng_below(s, sizeof sp / sizeof *sp)] : v;
        break; }
    default: f = rng_below(s, 2) ? 0.0f : -0.0f;                                    /* all zeros */
    }
    if (!nan) ref_stf(dt, p, f);
    else if (es == 4) memcpy(p, &nans[k], 4);
    else memcpy(p, &nans16[k], 2);
}

/* Float TROWMAX and TROWMIN of long rows (one row per pass across its columns, in any order, where
 * the lanes of a group would wait on their chains) select the very element the sequential fold
 * selects, bits included, on every variant: repeated values, a zero extreme whose first zero's sign
 * decides (+0 == -0), element 0 a NaN (kept, signalling or not), NaNs after element 0 (never
 * chosen), only element 0 a number, infinities and subnormals, all zeros. Rows of 70 to 4096
 * elements, 1 to 40 of them (the row-by-row path and, for 40 x 300 f16/bf16, the groups). */
Test(kernels_fast, long_row_extremes_select_the_sequential_element) {
    const int shapes[][2] = {{1, 2000}, {3, 517}, {40, 300}, {16, 4096}, {1, 70}, {2, 1023}};
    const DType types[] = {DT_F32, DT_F16, DT_BF16};
    const int folds[] = {KFOLD_MAX, KFOLD_MIN};
    KernelIsa v[KISA_COUNT];
    const int nv = isas(v);
    uint64_t seed = 77;
    int checked = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++)
        for (int t = 0; t < 3; t++)
            for (int f = 0; f < 2; f++)
                for (int pat = 0; pat < 7; pat++) {
                    const int R = shapes[sh][0], C = shapes[sh][1];
                    const size_t es = dtype_size(types[t]);
                    uint8_t *src = malloc((size_t)R * C * es), *want = calloc((size_t)R, es), *got = malloc((size_t)R * es);
                    for (int r = 0; r < R; r++)
                        for (int c = 0; c < C; c++)
                            extreme_element(types[t], src + ((size_t)r * C + c) * es, (r + pat) % 7, c, C,
                                            folds[f] == KFOLD_MAX ? 1.0f : -1.0f, &seed);
                    ref_fold(types[t], folds[f], false, (KTile){want, 1, R}, (KTile){src, C, 1}, R, C);
                    for (int k = 0; k < nv; k++) {
                        memset(got, 0xA5, (size_t)R * es);
                        kernel_set(types[t], v[k])->row_fold[folds[f]]((KTile){got, 1, R}, (KTile){src, C, 1}, R, C);
                        for (int r = 0; r < R; r++) {
                            uint32_t g = 0, w = 0;
                            memcpy(&g, got + r * es, es);
                            memcpy(&w, want + r * es, es);
                            cr_assert_eq(g, w, "%s %s %dx%d %s row %d (pattern %d): 0x%x, want 0x%x", kernel_isa_table(v[k])->name,
                                         dtype_name(types[t]), R, C, folds[f] == KFOLD_MAX ? "max" : "min", r, (r + pat) % 7, g, w);
                            checked++;
                        }
                    }
                    free(src);
                    free(want);
                    free(got);
                }
    cr_assert_gt(checked, 0);
}

/* TROWEXPANDMUL and TROWEXPANDSUB where both operands are NaN keep src0's (the simulator's
 * `src0 * src1`, `src0 - src1`), whichever operand is expanded, on every variant and path: Mode 1
 * (one value per row), Mode 2 (a 32-byte block per row), both operands full; rows of one vector,
 * of whole vectors and with tails. The AVX2 path had kept the expanded operand's NaN. The NaN is
 * in every row of the expanded operand, or in one row only (the kernels decide per block of rows
 * whether a product needs the pinned order). */
Test(kernels_fast, row_expand_keeps_src0_nan) {
    enum { MAXR = 64, MAXC = 64 };
    static uint8_t x[MAXR * MAXC * 4], e[MAXR * MAXC * 4], dst[MAXR * MAXC * 4];
    const int shapes[][2] = {{16, 16}, {64, 64}, {16, 8}, {9, 40}, {16, 13}};
    const DType types[] = {DT_F32, DT_F16, DT_BF16};
    const uint32_t nan_a[] = {0x7fc00123u, 0x7e23u, 0x7fc1u}, nan_b[] = {0xffc00456u, 0xfe45u, 0xffc2u};
    KernelIsa v[KISA_COUNT];
    int nv = isas(v), checked = 0;
    for (int t = 0; t < 3; t++)
        for (int sh = 0; sh < 5; sh++)
            for (int mode = 0; mode < 3; mode++) /* Mode 1, Mode 2, both full */
                for (int left = 0; left < 2; left++) /* the expanded operand is src0 */
                    for (int sub = 0; sub < 2; sub++)
                        for (int only = -1; only < 2; only++) { /* NaN in every row of e, or in one */
                        const int R = shapes[sh][0], C = shapes[sh][1];
                        const size_t es = dtype_size(types[t]);
                        const int block = 32 / (int)es, m = mode == 0 ? 1 : mode == 1 ? block : C;
                        /* the one row: the last, or the second of the second block of 8 rows (a block
                         * whose other rows hold no NaN must still pin that row's product) */
                        const int nan_row = only < 0 ? -1 : only == 0 ? R - 1 : R > 9 ? 9 : R / 2;
                        if (C < m) continue;
                        const uint32_t src0 = left ? nan_b[t] : nan_a[t], src1 = left ? nan_a[t] : nan_b[t];
                        const uint32_t xnan = left ? src1 : src0, two = types[t] == DT_F32 ? 0x40000000u : 0x4000u;
                        for (int i = 0; i < R * C; i++) memcpy(x + i * es, &xnan, es);
                        for (int i = 0; i < R * m; i++) {
                            const int row = mode == 0 ? i : i / m; /* Mode 1's e is col-major */
                            memcpy(e + i * es, nan_row < 0 || row == nan_row ? (left ? &src0 : &src1) : &two, es);
                        }
                        const KTile xt = {x, C, 1}, et = mode == 0 ? (KTile){e, 1, R} : (KTile){e, m, 1};
                        for (int k = 0; k < nv; k++) {
                            const KernelSet *ks = kernel_set(types[t], v[k]);
                            const KernelRowExpand fn = sub ? ks->trowexpandsub : ks->trowexpandmul;
                            memset(dst, 0, sizeof dst);
                            if (left) fn((KTile){dst, C, 1}, et, xt, R, C, m, C);
                            else fn((KTile){dst, C, 1}, xt, et, R, C, C, m);
                            for (int i = 0; i < R * C; i++) {
                                uint32_t got = 0;
                                memcpy(&got, dst + i * es, es);
                                /* two NaNs: src0's; one (x's, where e's row is finite): that one */
                                const uint32_t want = nan_row < 0 || i / C == nan_row ? src0 : xnan;
                                cr_assert_eq(got, want, "%s %s %dx%d mode %d %s %s, NaN row %d: element %d is 0x%x, want 0x%x",
                                             kernel_isa_table(v[k])->name, dtype_name(types[t]), R, C, mode + 1,
                                             left ? "src0 expanded" : "src1 expanded", sub ? "sub" : "mul", nan_row, i, got,
                                             want);
                                checked++;
                            }
                        }
                    }
    cr_assert_gt(checked, 0);
}

/* 2048x8 shapes as the benchmarks run them, every variant against the reference. */
Test(kernels_fast, tall_thin_shapes) {
    enum { R = 2048, W = 16 };
    const DType types[] = {DT_F32, DT_F16, DT_I32, DT_I16};
    uint64_t s = 5;
    KernelIsa v[KISA_COUNT];
    int nv = isas(v);
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        DType dt = types[t];
        size_t es = dtype_size(dt);
        int64_t pc = es == 2 ? 16 : 8; /* f16/i16 2048x8 live in a 2048x16 tile */
        uint8_t *src = malloc(R * W * 8), *col = malloc(R * 8), *want = malloc(R * W * 8), *got = malloc(R * W * 8);
        fill_random(src, R * W, dt, &s, 1);
        fill_random(col, R, dt, &s, 1);
        KTile S = {src, pc, 1}, CM = {col, 1, R};
        for (int k = 0; k < nv; k++) {
            const KernelSet *ks = kernel_set(dt, v[k]);
            for (int op = 0; op < 5; op++) {
                memset(want, 0x5A, R * W * 8);
                memset(got, 0x5A, R * W * 8);
                KTile dw = {want, pc, 1}, dg = {got, pc, 1};
                KScalar kk = {1.25f, 3};
                switch (op) {
                case 0: ref_tmuls(dt, dw, S, kk, R, 8); tmuls_kernel(v[k], dt, dg, S, kk, R, 8); break;
                case 1: ref_fill(dt, dw, kk, R, 8); ks->fill(dg, kk, R, 8); break;
                case 2:
                    ref_trowprod(dt, (KTile){want, 1, R}, S, R, 8);
                    ks->row_fold[KFOLD_PROD]((KTile){got, 1, R}, S, R, 8);
                    break;
                default:
                    ref_rowexpand(dt, op - 3, dw, S, CM, R, 8, 8, 1);
                    (op == 3 ? ks->trowexpandmul : ks->trowexpandsub)(dg, S, CM, R, 8, 8, 1);
                    break;
                }
                size_t where = 0;
                cr_assert(same_elements(dt, want, got, R * W * 8 / es, &where), "%s %s %s 2048x8: element %zu",
                          kernel_isa_table(v[k])->name, dtype_name(dt), op_name(op), where);
            }
        }
        free(src);
        free(col);
        free(want);
        free(got);
    }
}

/* The 16x16 box transpose of 16-bit elements, portable and fastest variant, against its definition
 * dst[c][r] = src[r][c], with rows and columns scattered in memory and no byte outside them written. */
Test(kernels_fast, transpose16_u16_is_a_transpose) {
    static uint16_t in[16 * 40], out[16 * 48];
    for (int i = 0; i < 16 * 40; i++) in[i] = (uint16_t)(i * 40503u + 7u);
    const KernelIsa isas[] = {KISA_PORTABLE, kernel_isa_best()};
    for (int v = 0; v < 2; v++) {
        for (int i = 0; i < 16 * 48; i++) out[i] = 0xdead;
        const uint8_t *src[16];
        uint8_t *dst[16];
        for (int r = 0; r < 16; r++) src[r] = (const uint8_t *)(in + (15 - r) * 40 + 3); /* rows 40 apart, reversed */
        for (int c = 0; c < 16; c++) dst[c] = (uint8_t *)(out + c * 48 + 5);
        transpose16_u16(isas[v], src, dst);
        for (int c = 0; c < 16; c++)
            for (int x = 0; x < 48; x++) {
                uint16_t want = x >= 5 && x < 21 ? in[(15 - (x - 5)) * 40 + 3 + c] : 0xdead;
                cr_assert(out[c * 48 + x] == want, "%s: dst[%d] element %d: %#x, want %#x", kernel_isa_table(isas[v])->name,
                          c, x - 5, out[c * 48 + x], want);
            }
    }
}

/* transpose16_widen on every f16 and bf16 bit pattern (NaNs, subnormals, -0 included), portable and
 * fastest variant: the float of element (j, i) is fp_f16_to_f32 / fp_bf16_to_f32 of its bits. */
Test(kernels_fast, transpose16_widen_every_pattern) {
    static uint16_t in[16][16];
    static float out[16][16];
    const KernelIsa isas[] = {KISA_PORTABLE, kernel_isa_best()};
    const DType dts[] = {DT_F16, DT_BF16};
    for (int v = 0; v < 2; v++)
        for (int t = 0; t < 2; t++)
            for (uint32_t base = 0; base < 65536; base += 256) {
                const uint8_t *src[16];
                for (int j = 0; j < 16; j++) {
                    for (int i = 0; i < 16; i++) in[j][i] = (uint16_t)(base + (uint32_t)j * 16 + (uint32_t)i);
                    src[j] = (const uint8_t *)in[j];
                }
                transpose16_widen(isas[v], dts[t], src, &out[0][0], 16);
                for (int i = 0; i < 16; i++)
                    for (int j = 0; j < 16; j++) {
                        float want = dts[t] == DT_F16 ? fp_f16_to_f32(in[j][i]) : fp_bf16_to_f32(in[j][i]);
                        cr_assert(fp_float_bits(out[i][j]) == fp_float_bits(want), "%s %s %#x: %#x, want %#x",
                                  kernel_isa_table(isas[v])->name, dtype_name(dts[t]), in[j][i], fp_float_bits(out[i][j]),
                                  fp_float_bits(want));
                    }
            }
}

/* The matmul rows kernel (two rows per pass over b with FMA) gives each row the portable fmaf chain's
 * bits: odd and even row counts, widths around the vector sizes, K up to 300. */
Test(kernels_fast, matmul_rows_equal_fmaf_chains) {
    MatmulRowsF fast = matmul_rows_kernel(kernel_isa_best());
    MatmulRowF portable = matmul_row_kernel(KISA_PORTABLE);
    enum { MMAX = 5, KMAX = 300, NMAX = 77 };
    static float a[MMAX * KMAX], b[KMAX * NMAX], r1[MMAX * NMAX], r2[NMAX];
    uint32_t seed = 777;
    for (int i = 0; i < KMAX * NMAX; i++) {
        seed = seed * 1664525u + 1013904223u;
        b[i] = (float)((int32_t)seed >> 8) * 0x1p-20f;
        if (i < MMAX * KMAX) a[i] = (float)((int32_t)(seed * 7u) >> 8) * 0x1p-21f;
    }
    const int ms[] = {1, 2, 3, 5}, ns[] = {1, 8, 31, 32, 33, 64, 77}, ks[] = {1, 17, 300};
    for (size_t w = 0; w < sizeof ms / sizeof *ms; w++)
        for (size_t x = 0; x < sizeof ns / sizeof *ns; x++)
            for (size_t y = 0; y < sizeof ks / sizeof *ks; y++) {
                int M = ms[w], N = ns[x], K = ks[y];
                fast(a, M, b, K, N, r1);
                for (int i = 0; i < M; i++) {
                    portable(a + i * K, b, K, N, r2);
                    cr_assert(memcmp(r1 + i * N, r2, (size_t)N * sizeof(float)) == 0, "M=%d N=%d K=%d: row %d differs", M, N,
                              K, i);
                }
            }
}

/* NaNs meeting in a matmul chain keep the simulator's: a step keeps a's NaN, else b's (quieted),
 * else the accumulator's, else fmaf makes its own (tests/sim tmatmul_f32_16x32x16_special holds the
 * simulator's bits). A vfmadd or a call of fmaf keeps one by the order of its operands, which the
 * compiler may swap: GCC built the portable rows kernel with a before b and its row kernel with b
 * before a, so these two disagreed. Every path must give the rule's bits: NaNs of distinct payloads
 * and signs in a, in b, and both at the same k, at the start, middle and end of the chains, in
 * the rows and columns of every path (AVX-512 blocks of 4 x 64, pairs of rows, 32, 8 and 1
 * columns), through the rows kernel and the row kernel of every variant. */
Test(kernels_fast, matmul_nan_a_then_b_then_acc) {
    enum { M = 6, K = 40, N = 77 };
    static float a[M * K], b[K * N], r1[M * N], r2[N], r3[N];
    uint32_t seed = 4242;
    for (int i = 0; i < K * N; i++) {
        seed = seed * 1664525u + 1013904223u;
        b[i] = (float)((int32_t)seed >> 8) * 0x1p-20f;
        if (i < M * K) a[i] = (float)((int32_t)(seed * 7u) >> 8) * 0x1p-21f;
    }
    const uint32_t nan_a[] = {0x7fc00011u, 0xffc00012u, 0x7fc00013u}, nan_b[] = {0x7fc00021u, 0xffc00022u, 0x7fc00023u};
    for (int i = 0; i < M; i++) { /* row i: NaNs of a at k = i, and (odd rows) again at k = 20 + i */
        a[i * K + i] = bitsf(nan_a[i % 3]);
        if (i % 2) a[i * K + 20 + i] = bitsf(nan_a[(i + 1) % 3]);
    }
    for (int j = 0; j < N; j += 5) { /* column j: NaNs of b at k = j % K, and at k = K - 1 - j % 7 */
        b[(j % K) * N + j] = bitsf(nan_b[j % 3]);
        b[(K - 1 - j % 7) * N + j] = bitsf(nan_b[(j + 1) % 3]);
    }
    /* a's and b's NaNs at the same k (row i's first NaN), in each path's columns: the AVX-512 block
     * (0, 0), the 8-column tail (3, 65), the one-column tail (1, 76), the pair of rows after the
     * blocks (4, 40) and (5, 70) */
    const int meet[][2] = {{3, 65}, {1, 76}, {4, 40}, {5, 70}};
    for (size_t m = 0; m < sizeof meet / sizeof *meet; m++)
        b[meet[m][0] * N + meet[m][1]] = bitsf(nan_b[m % 3]);
    KernelIsa v[KISA_COUNT];
    int nv = isas(v), nan_outputs = 0, kinds = 0;
    MatmulRowF portable = matmul_row_kernel(KISA_PORTABLE);
    for (int k = 0; k < nv; k++) { /* the portable variant among them */
        matmul_rows_kernel(v[k])(a, M, b, K, N, r1);
        for (int i = 0; i < M; i++) {
            portable(a + i * K, b, K, N, r2);
            matmul_row_kernel(v[k])(a + i * K, b, K, N, r3);
            for (int j = 0; j < N; j++) {
                float s = 0.0f; /* the rule, step by step */
                for (int kk = 0; kk < K; kk++) {
                    const float x = a[i * K + kk], y = b[kk * N + j];
                    s = x != x ? bitsf(fbits(x) | 0x00400000u) : y != y ? bitsf(fbits(y) | 0x00400000u) : fmaf(x, y, s);
                }
                cr_assert_eq(fbits(r2[j]), fbits(s), "portable row kernel: row %d col %d: %#x, want %#x", i, j,
                             fbits(r2[j]), fbits(s));
                cr_assert_eq(fbits(r1[i * N + j]), fbits(s), "%s rows kernel: row %d col %d: %#x, want %#x",
                             kernel_isa_table(v[k])->name, i, j, fbits(r1[i * N + j]), fbits(s));
                cr_assert_eq(fbits(r3[j]), fbits(s), "%s row kernel: row %d col %d: %#x, want %#x",
                             kernel_isa_table(v[k])->name, i, j, fbits(r3[j]), fbits(s));
                nan_outputs += s != s;
                kinds |= s != s ? 1 << (fbits(s) & 0x3f) % 31 : 0;
            }
        }
    }
    cr_assert_gt(nan_outputs, 0);
    cr_assert(__builtin_popcount((unsigned)kinds) >= 4, "NaN outputs of several payloads");
}

/* The FMA matmul row kernel (8 and 32 columns at a time) gives fmaf's bits on every column,
 * remainders included: random operands, widths around the vector sizes, K up to 300. */
Test(kernels_fast, matmul_row_fma_equals_fmaf_chain) {
    MatmulRowF fast = matmul_row_kernel(kernel_isa_best()), portable = matmul_row_kernel(KISA_PORTABLE);
    enum { KMAX = 300, NMAX = 77 };
    static float a[KMAX], b[KMAX * NMAX], r1[NMAX], r2[NMAX];
    uint32_t seed = 12345;
    for (int i = 0; i < KMAX * NMAX; i++) {
        seed = seed * 1664525u + 1013904223u;
        b[i] = (float)((int32_t)seed >> 8) * 0x1p-20f;
        if (i < KMAX) a[i] = (float)((int32_t)(seed * 7u) >> 8) * 0x1p-21f;
    }
    const int ns[] = {1, 7, 8, 9, 31, 32, 33, 64, 77}, ks[] = {1, 2, 17, 300};
    for (size_t x = 0; x < sizeof ns / sizeof *ns; x++)
        for (size_t y = 0; y < sizeof ks / sizeof *ks; y++) {
            fast(a, b, ks[y], ns[x], r1);
            portable(a, b, ks[y], ns[x], r2);
            cr_assert(memcmp(r1, r2, (size_t)ns[x] * sizeof(float)) == 0, "N=%d K=%d differ", ns[x], ks[y]);
        }
}
