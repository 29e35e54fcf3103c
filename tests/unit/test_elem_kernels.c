/* test_elem_kernels.c - the elementwise-family kernels (kernels_elem.h), for every op row and element
 * type: each instruction-set variant gives the same bits as the portable one (NaN payloads, -0,
 * subnormals and infinities included), on contiguous and strided tiles, in place and with a
 * destination partly overlapping a source (the sequential result); and a few element functions
 * against values worked out by hand from the simulator's C++ (comments quote the rule). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "elemfn.h"

static uint32_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* Random bits of element size `es`, with a share of special values for float types. */
static void fill_random(uint8_t *p, size_t n, DType dt, uint64_t *s) {
    static const uint32_t f32_special[] = {0x7fc00001u, 0xffc12345u, 0x7f800001u, 0x7f800000u, 0xff800000u,
                                           0x80000000u, 0x00000000u, 0x00000001u, 0x807fffffu, 0x3f800000u};
    static const uint16_t h_special[] = {0x7e01u, 0xfe23u, 0x7c01u, 0x7c00u, 0xfc00u, 0x8000u, 0x0000u, 0x0001u, 0x83ffu, 0x3c00u};
    size_t es = dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rng_next(s);
        uint8_t *e = p + i * es;
        if (dt == DT_F32) {
            uint32_t v = (r & 7) == 0 ? f32_special[rng_next(s) % 10] : (r & 0x8000ffffu) | (0x3e000000u + (rng_next(s) & 0x01ff0000u));
            memcpy(e, &v, 4);
        } else if (dt == DT_F16 || dt == DT_BF16) {
            uint16_t v = (r & 7) == 0 ? h_special[rng_next(s) % 10] : (uint16_t)(rng_next(s) & 0xffffu);
            if (dt == DT_BF16 && (r & 7) == 0) v = (uint16_t)(f32_special[rng_next(s) % 10] >> 16);
            memcpy(e, &v, 2);
        } else {
            uint64_t v = ((uint64_t)rng_next(s) << 32) | rng_next(s);
            if ((r & 3) == 0) v &= 7; /* small values: shift counts, divisors */
            memcpy(e, &v, es);
        }
    }
}

/* One elementwise kernel of the walk of next_elem_kernel: every available variant, both tables (the
 * scalar-first one too), every op and element type with a kernel. Start with {.dt = -1}. */
typedef struct ElemKernelIter {
    int isa, table, op, dt;
    const KernelIsaTable *tab;
    KernelElem k;
} ElemKernelIter;
static bool next_elem_kernel(ElemKernelIter *it) {
    for (;;) {
        if (++it->dt == DT_COUNT) {
            it->dt = 0;
            if (++it->op == OP_COUNT) {
                it->op = 0;
                if (++it->table == 2) {
                    it->table = 0;
                    if (++it->isa == KISA_COUNT) return false;
                }
            }
        }
        if (!kernel_isa_available((KernelIsa)it->isa)) continue;
        it->tab = kernel_isa_table((KernelIsa)it->isa);
        it->k = (it->table ? it->tab->elem_rev : it->tab->elem)[it->op][it->dt];
        if (it->k) return true;
    }
}

enum { ROWS = 5, COLS = 37, STRIDE = 40, BUF = ROWS * STRIDE + 64 };

/* Runs kernel k on three fresh source buffers and a destination; `mode` 0: strided row-major tiles,
 * 1: the destination is source 0 (in place), 2: the destination overlaps source 0 one row later. */
static int run(KernelElem k, DType dt, int mode, uint64_t seed, uint8_t *out) {
    size_t es = dtype_size(dt);
    uint8_t *src[3], *dst = calloc(BUF * 2, es);
    uint64_t s = seed;
    for (int i = 0; i < 3; i++) {
        src[i] = malloc(BUF * es);
        fill_random(src[i], BUF, dt, &s);
    }
    fill_random(dst, BUF * 2, dt, &s);
    KTile d = {dst, STRIDE, 1}, t[3];
    for (int i = 0; i < 3; i++) t[i] = (KTile){src[i], STRIDE, 1};
    if (mode == 1) d = t[0];
    if (mode == 2) d = (KTile){src[0] + (size_t)STRIDE * es, STRIDE, 1};
    KScalar ks = {0};
    uint64_t kb = rng_next(&s);
    if (dtype_is_float(dt)) ks.f = (float)((int)(kb % 7) - 3) * 0.75f;
    else ks.u = kb % 5 + 1;
    int fault = k(d, t, ks, ROWS, COLS);
    memcpy(out, mode ? src[0] : dst, BUF * es);
    for (int i = 0; i < 3; i++) free(src[i]);
    free(dst);
    return fault;
}

Test(elem_kernels, every_variant_matches_the_portable_bits) {
    const KernelIsaTable *base = kernel_isa_table(KISA_PORTABLE);
    int checked = 0;
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (isa == KISA_PORTABLE || !kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *other = kernel_isa_table((KernelIsa)isa);
        for (int table = 0; table < 2; table++)
            for (int op = 0; op < OP_COUNT; op++)
                for (int dt = 0; dt < DT_COUNT; dt++) {
                    KernelElem a = (table ? base->elem_rev : base->elem)[op][dt];
                    KernelElem b = (table ? other->elem_rev : other->elem)[op][dt];
                    cr_assert_eq(a == NULL, b == NULL, "%s %s: kernel in one variant only", op_info(op)->name, dtype_name(dt));
                    if (!a) continue;
                    size_t es = dtype_size((DType)dt);
                    uint8_t *x = malloc(BUF * 2 * es), *y = malloc(BUF * 2 * es);
                    for (int mode = 0; mode < 3; mode++)
                        for (uint64_t seed = 1; seed <= 4; seed++) {
                            int fa = run(a, (DType)dt, mode, seed * 977 + (uint64_t)op, x);
                            int fb = run(b, (DType)dt, mode, seed * 977 + (uint64_t)op, y);
                            cr_assert_eq(fa, fb, "%s %s mode %d: faults %d and %d", op_info(op)->name, dtype_name(dt), mode, fa, fb);
                            if (fa) continue; /* the rest of a faulting tile is unspecified */
                            if (memcmp(x, y, BUF * es) != 0)
                                for (size_t e = 0; e < BUF; e++)
                                    if (memcmp(x + e * es, y + e * es, es) != 0) {
                                        uint64_t xb = 0, yb = 0;
                                        memcpy(&xb, x + e * es, es);
                                        memcpy(&yb, y + e * es, es);
                                        cr_log_error("element %zu: portable 0x%llx, other 0x%llx", e, (unsigned long long)xb,
                                                     (unsigned long long)yb);
                                        break;
                                    }
                            cr_assert(memcmp(x, y, BUF * es) == 0, "%s%s %s mode %d seed %llu: %s differs from portable",
                                      op_info(op)->name, table ? " (scalar first)" : "", dtype_name(dt), mode,
                                      (unsigned long long)seed, other->name);
                            checked++;
                        }
                    free(x);
                    free(y);
                }
    }
    if (kernel_isa_available(KISA_AVX2)) cr_assert_gt(checked, 1000);
}

/* The native f16 kernels (the avx512fp16 variant: _Float16 arithmetic, elemfn.h's EHN_NAME) give the
 * portable kernels' bits for every f16 value: one run of all 65536 as source 0 (plus a tail of 45,
 * the partial register), source 1 and 2 the same values shuffled, and every op with a native
 * kernel once per scalar, NaN scalars included (a quiet payload, f32's signalling one, the
 * default NaN), as a whole run, in place, over rows of 37 at stride 40, and over contiguous rows
 * of 16 and 8 against one row of source 1 (the column expand's packed path). */
Test(elem_kernels, native_f16_kernels_match_on_every_value, .timeout = 120) {
    if (!kernel_isa_available(KISA_AVX512FP16)) cr_skip_test("this CPU has no AVX512-FP16");
    enum { N = 65536 + 45 };
    static const uint32_t scalars[] = {0x3f400000u /* 0.75 */, 0x80000000u, 0x7fc02000u, 0x7f800001u, 0xffc00000u,
                                       0x7f800000u, 0x477fe000u /* 65504 */, 0x33800000u /* 2^-24 */, 0xc0400000u};
    const KernelIsaTable *base = kernel_isa_table(KISA_PORTABLE), *mid = kernel_isa_table(KISA_AVX512),
                         *nat = kernel_isa_table(KISA_AVX512FP16);
    uint16_t *src[3], *x = malloc(N * 2), *y = malloc(N * 2);
    uint64_t s = 12345;
    for (int i = 0; i < 3; i++) {
        src[i] = malloc(N * 2);
        for (uint32_t e = 0; e < N; e++) src[i][e] = (uint16_t)(e < 65536 ? e : rng_next(&s));
        for (uint32_t e = 65535; i > 0 && e > 0; e--) { /* Fisher-Yates */
            const uint32_t j = rng_next(&s) % (e + 1);
            const uint16_t t = src[i][e];
            src[i][e] = src[i][j], src[i][j] = t;
        }
    }
    int natives = 0;
    for (int table = 0; table < 2; table++)
        for (int op = 0; op < OP_COUNT; op++) {
            KernelElem a = (table ? base->elem_rev : base->elem)[op][DT_F16];
            KernelElem b = (table ? nat->elem_rev : nat->elem)[op][DT_F16];
            if (!a || b == (table ? mid->elem_rev : mid->elem)[op][DT_F16]) continue; /* no native kernel */
            natives++;
            for (size_t k = 0; k < sizeof scalars / sizeof *scalars; k++) {
                KScalar ks = {0};
                memcpy(&ks.f, &scalars[k], 4);
                for (int layout = 0; layout < 5; layout++) {
                    /* 0: one run; 1: in place; 2: rows of 37 at stride 40; 3, 4: contiguous rows of 16
                     * and 8 with source 1 one row at row stride 0 (a column expand's) */
                    static const int64_t lrows[] = {1, 1, N / 40, 65536 / 16, 65536 / 8}, lcols[] = {N, N, 37, 16, 8},
                                         lrs[] = {N, N, 40, 16, 8};
                    const int64_t rows = lrows[layout], cols = lcols[layout], rs = lrs[layout];
                    uint16_t *out[2] = {x, y};
                    KernelElem kern[2] = {a, b};
                    for (int v = 0; v < 2; v++) {
                        uint16_t *in0 = layout == 1 ? out[v] : src[0];
                        if (layout == 1) memcpy(out[v], src[0], N * 2);
                        else memset(out[v], 0x5a, N * 2);
                        KTile t[3] = {{(uint8_t *)in0, rs, 1}, {(uint8_t *)src[1], layout >= 3 ? 0 : rs, 1},
                                      {(uint8_t *)src[2], rs, 1}};
                        cr_assert_eq(kern[v]((KTile){(uint8_t *)out[v], rs, 1}, t, ks, rows, cols), 0);
                    }
                    for (uint32_t e = 0; memcmp(x, y, N * 2) != 0 && e < N; e++)
                        cr_assert_eq(x[e], y[e],
                                     "%s%s f16 scalar 0x%08x layout %d element %u (0x%04x, 0x%04x, 0x%04x): portable 0x%04x, "
                                     "native 0x%04x",
                                     op_info(op)->name, table ? " (scalar first)" : "", scalars[k], layout, e, src[0][e],
                                     src[1][e], src[2][e], x[e], y[e]);
                }
            }
        }
    cr_assert_geq(natives, 30, "%d ops with a native f16 kernel", natives);
    for (int i = 0; i < 3; i++) free(src[i]);
    free(x), free(y);
}

/* One element through the kernel of `op` for dt = f16 (bits in, bits out). */
/* The kernels walk the rows of a padded tile in pieces of their own: the float ones pack short rows
 * into whole chunks (kernels_elem.h, ke_rows_OP_T: rows of 1, 2 or 4 native vectors with a
 * conversion of constant length, any other width of at most half a chunk generically, longer rows
 * a piece at a time), the f32 and integer ones walk rows of 32 to 128 bytes at a constant width
 * (ke_rowwalk_OP_T, ke_irowwalk_OP_T). Each such tile, separate and in place, with source 1 a full
 * tile or one row read at row stride 0 (a column expand's, whose kernels plan for it: shape CE),
 * that row also inside the destination (row 2 of it: the rows after it read its new values, the
 * sequential result), must give what the kernel gives one row at a time (one run each), and leave
 * the padding alone. An integer tile that faults is left to integer_faults_are_reported_not_executed. */
Test(elem_kernels, padded_rows_match_one_row_at_a_time, .timeout = 300) {
    static const int64_t widths[] = {1, 3, 4, 8, 16, 32, 37, 64, 128, 129, 300};
    enum { R = 40, PAD = 5, MAXN = R * (300 + PAD) + 16 };
    int checked = 0;
    for (ElemKernelIter it = {.dt = -1}; next_elem_kernel(&it);) {
        const KernelIsaTable *tab = it.tab;
        const int op = it.op, dt = it.dt, table = it.table;
        const KernelElem k = it.k;
        const size_t es = dtype_size((DType)dt);
        const bool is_float = dtype_is_float((DType)dt);
        uint8_t *src[3], *whole = malloc(MAXN * es), *byrow = malloc(MAXN * es), *keep = malloc(MAXN * es);
        for (int i = 0; i < 3; i++) src[i] = malloc(MAXN * es);
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (int variant = 0; variant < 8; variant++) {
                /* row0: source 1 at row stride 0; in_dst: and it is row 2 of dst */
                const bool in_place = variant & 1, row0 = variant & 2, in_dst = variant & 4;
                if (in_dst && !row0) continue;
                const int64_t cols = widths[w], rs = cols + PAD;
                uint64_t s = (uint64_t)(op * 131 + dt * 7) + (uint64_t)w;
                for (int i = 0; i < 3; i++) fill_random(src[i], MAXN, (DType)dt, &s);
                fill_random(whole, MAXN, (DType)dt, &s);
                memcpy(byrow, whole, MAXN * es);
                const KScalar ks = is_float ? (KScalar){.f = 0.75f} : (KScalar){.u = 3};
                memcpy(keep, src[0], MAXN * es);
                uint8_t *one_row = in_dst ? (in_place ? src[0] : whole) + (size_t)(2 * rs) * es : src[1];
                KTile t[3] = {{src[0], rs, 1}, {one_row, row0 ? 0 : rs, 1}, {src[2], rs, 1}};
                const int fault = k((KTile){in_place ? src[0] : whole, rs, 1}, t, ks, R, cols);
                if (is_float) cr_assert_eq(fault, 0);
                if (fault) continue;
                if (in_place) memcpy(whole, src[0], MAXN * es), memcpy(src[0], keep, MAXN * es);
                for (int64_t r = 0; r < R; r++) {
                    KTile tr[3];
                    for (int i = 0; i < 3; i++)
                        tr[i] = (KTile){src[i] + (size_t)(i == 1 && row0 ? 0 : r * rs) * es, cols, 1};
                    if (in_dst) tr[1].p = (in_place ? src[0] : byrow) + (size_t)(2 * rs) * es;
                    uint8_t *drow = (in_place ? src[0] : byrow) + (size_t)(r * rs) * es;
                    cr_assert_eq(k((KTile){drow, cols, 1}, tr, ks, 1, cols), 0);
                }
                if (in_place) memcpy(byrow, src[0], MAXN * es);
                cr_assert(memcmp(whole, byrow, MAXN * es) == 0,
                          "%s%s %s (%s) rows of %lld%s%s%s: differs from one row at a time", op_info(op)->name,
                          table ? " (scalar first)" : "", dtype_name(dt), tab->name, (long long)cols,
                          in_place ? ", in place" : "", row0 ? ", source 1 at row stride 0" : "",
                          in_dst ? " inside dst" : "");
                checked++;
            }
        for (int i = 0; i < 3; i++) free(src[i]);
        free(whole), free(byrow), free(keep);
    }
    cr_assert_gt(checked, 5000);
}

/* The contiguous paths (one run, whole vectors; for a tile-scalar op whose scalar is not NaN, the
 * form without the NaN pin for it: elemfn.h, ECS_NAME) against the element function itself, which
 * a tile of column stride 2 runs (the strided walk): every float op and type, on every variant, with
 * sources full of NaN payloads of both signs, infinities, zeros and subnormals, and scalars that are
 * ordinary, zero, infinite and NaN (quiet with payloads, signalling). */
Test(elem_kernels, contiguous_float_rows_match_the_element_function) {
    static const uint32_t scalars[] = {0x3fc00000u, 0xbf400000u, 0x00000000u, 0x80000000u, 0x7f800000u,
                                       0xff800000u, 0x7fc00001u, 0xffc12345u, 0x7f800001u, 0x00000001u};
    enum { R = 7, C = 45, N = R * C };
    int checked = 0, clean = 0;
    for (ElemKernelIter it = {.dt = -1}; next_elem_kernel(&it);) {
        const KernelIsaTable *tab = it.tab;
        const int op = it.op, dt = it.dt, table = it.table;
        const KernelElem k = it.k;
        if (!dtype_is_float((DType)dt)) continue;
        const size_t es = dtype_size((DType)dt);
        uint8_t *src[3], *wide[3], *d = malloc(N * es), *dw = calloc(2 * N, es);
        uint64_t s = (uint64_t)(op * 31 + dt) * 2654435761u;
        for (int i = 0; i < 3; i++) {
            src[i] = malloc(N * es), wide[i] = calloc(2 * N, es);
            fill_random(src[i], N, (DType)dt, &s);
            for (size_t e = 0; e < N; e++) memcpy(wide[i] + 2 * e * es, src[i] + e * es, es);
        }
        for (size_t j = 0; j < sizeof scalars / sizeof *scalars; j++) {
            KScalar ks = {0};
            memcpy(&ks.f, &scalars[j], sizeof ks.f);
            KTile t[3], tw[3];
            for (int i = 0; i < 3; i++) t[i] = (KTile){src[i], C, 1}, tw[i] = (KTile){wide[i], 2 * C, 2};
            cr_assert_eq(k((KTile){d, C, 1}, t, ks, R, C), 0);
            cr_assert_eq(k((KTile){dw, 2 * C, 2}, tw, ks, R, C), 0);
            for (size_t e = 0; e < N; e++)
                if (memcmp(d + e * es, dw + 2 * e * es, es) != 0) {
                    uint32_t a = 0, b = 0, x = 0;
                    memcpy(&a, d + e * es, es), memcpy(&b, dw + 2 * e * es, es), memcpy(&x, src[0] + e * es, es);
                    cr_assert_fail("%s%s %s (%s), scalar 0x%08x, element %zu (src0 0x%x): contiguous 0x%x, "
                                   "element function 0x%x",
                                   op_info(op)->name, table ? " (scalar first)" : "", dtype_name(dt), tab->name,
                                   scalars[j], e, x, a, b);
                }
            checked++;
            clean += scalars[j] == 0x3fc00000u;
        }
        for (int i = 0; i < 3; i++) free(src[i]), free(wide[i]);
        free(d), free(dw);
    }
    cr_assert_gt(clean, 100);
    cr_assert_gt(checked, 1000);
}

/* The simulator's integer_pow casts a u64 exponent to int64_t (TPow.hpp): from 2^63 on it is
 * negative, and the power is 0, 1 for a base of 1, and +-1 by the exponent's parity for
 * UINT64_MAX (== -1 in C++). TPOW is not legal on u64, but its kernel is in the table: the row
 * form (one contiguous run) and the element form (a strided walk) must both say so. */
Test(elem_kernels, u64_pow_exponents_from_2_63_are_negative) {
    enum { N = 7 };
    const uint64_t big = 1ull << 63;
    const uint64_t base[N] = {2, UINT64_MAX, UINT64_MAX, 1, 3, 0, 3}, ex[N] = {big, big + 1, big + 2, big + 5, 5, big, big + 3};
    const uint64_t want[N] = {0, UINT64_MAX, 1, 1, 243, 0, 0};
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        KernelElem k = kernel_isa_table((KernelIsa)isa)->elem[OP_TPOW][DT_U64];
        cr_assert_not_null(k);
        for (int cs = 1; cs <= 2; cs++) { /* 1: the row form; 2: the strided element loop */
            uint64_t a[2 * N] = {0}, e[2 * N] = {0}, d[2 * N] = {0};
            for (int i = 0; i < N; i++) a[i * cs] = base[i], e[i * cs] = ex[i];
            KTile t[2] = {{(uint8_t *)a, 2 * N, cs}, {(uint8_t *)e, 2 * N, cs}};
            cr_assert_eq(k((KTile){(uint8_t *)d, 2 * N, cs}, t, (KScalar){0}, 1, N), 0);
            for (int i = 0; i < N; i++)
                cr_assert_eq(d[i * cs], want[i], "%s cs %d: %llu ^ %llu = %llu, want %llu", kernel_isa_table((KernelIsa)isa)->name,
                             cs, (unsigned long long)base[i], (unsigned long long)ex[i], (unsigned long long)d[i * cs],
                             (unsigned long long)want[i]);
        }
    }
}

static uint16_t one_f16(OpCode op, uint16_t a, uint16_t b, float scalar) {
    KernelElem k = kernel_isa_table(kernel_isa_best())->elem[op][DT_F16];
    cr_assert_not_null(k);
    uint16_t s0[16] = {a}, s1[16] = {b}, s2[16] = {b}, d[16] = {0};
    KTile t[3] = {{(uint8_t *)s0, 16, 1}, {(uint8_t *)s1, 16, 1}, {(uint8_t *)s2, 16, 1}};
    KScalar ks = {.f = scalar};
    cr_assert_eq(k((KTile){(uint8_t *)d, 16, 1}, t, ks, 1, 1), 0);
    return d[0];
}

/* The float activations and TABS against their definitions, written out here with NaNs by their
 * bits (a quieted NaN is its pattern with the quiet bit set): every pair of special values
 * (quiet and signalling NaNs of both signs, infinities, zeros, subnormals, 1, the largest) through
 * every variant, as one contiguous tile (the vector loops) and as a tile of column stride 2 (the
 * element walk); TLRELU with each special as its scalar. elemfn.h computes TPRELU/TLRELU as
 * a <= 0 ? a * b : a + 0, TSUBRELU's difference without a pin and TABS as -a > a ? -a : a. */
static uint32_t fbits_of(float f);
static float float_of(uint32_t u);
static uint32_t act_quiet(uint32_t x) { return x | 0x00400000u; }
static bool act_nan(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
static uint32_t act_prelu(uint32_t a, uint32_t b) {
    const float fa = float_of(a), fb = float_of(b);
    if (act_nan(a)) return act_quiet(a);
    if (fa > 0.0f) return a;
    if (act_nan(b)) return act_quiet(b);
    return fbits_of(fa * fb);
}
static uint32_t act_subrelu(uint32_t a, uint32_t b) {
    if (act_nan(a) || act_nan(b)) return 0; /* ReLU of a NaN difference: +0 */
    const float v = float_of(a) - float_of(b);
    return v > 0.0f ? fbits_of(v) : 0;
}
static uint32_t act_abs(uint32_t a, uint32_t b) {
    (void)b;
    return !act_nan(a) && float_of(a) < 0.0f ? a ^ 0x80000000u : a; /* NaN and -0 as they are */
}
Test(elem_kernels, activations_match_their_definitions_on_special_pairs) {
    static const uint32_t sp[] = {0x7fc00001u, 0xffc12345u, 0x7f800001u, 0xff812345u, 0x7f800000u, 0xff800000u, 0x00000000u,
                                  0x80000000u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu};
    enum { K = sizeof sp / sizeof *sp, N = K * K };
    static const struct { OpCode op; uint32_t (*ref)(uint32_t, uint32_t); bool scalar; } cases[] = {
        {OP_TPRELU, act_prelu, false}, {OP_TLRELU, act_prelu, true}, {OP_TSUBRELU, act_subrelu, false},
        {OP_TABS, act_abs, false}};
    float a[N], b[N], aw[2 * N], bw[2 * N], d[N], dw[2 * N];
    for (int i = 0; i < N; i++) a[i] = float_of(sp[i / K]), b[i] = float_of(sp[i % K]), aw[2 * i] = a[i], bw[2 * i] = b[i];
    int checked = 0;
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
            KernelElem k = kernel_isa_table((KernelIsa)isa)->elem[cases[c].op][DT_F32];
            cr_assert_not_null(k);
            for (int j = 0; j < (cases[c].scalar ? K : 1); j++) {
                const KScalar ks = {.f = float_of(sp[j])};
                uint8_t *pa = (uint8_t *)a, *pb = (uint8_t *)b, *paw = (uint8_t *)aw, *pbw = (uint8_t *)bw;
                KTile t[3] = {{pa, N, 1}, {pb, N, 1}, {pb, N, 1}}, tw[3] = {{paw, 2 * N, 2}, {pbw, 2 * N, 2}, {pbw, 2 * N, 2}};
                cr_assert_eq(k((KTile){(uint8_t *)d, N, 1}, t, ks, 1, N), 0);
                cr_assert_eq(k((KTile){(uint8_t *)dw, 2 * N, 2}, tw, ks, 1, N), 0);
                for (int i = 0; i < N; i++) {
                    const uint32_t x = fbits_of(a[i]), y = cases[c].scalar ? sp[j] : fbits_of(b[i]);
                    const uint32_t want = cases[c].ref(x, y);
                    cr_assert_eq(fbits_of(d[i]), want, "%s (%s) 0x%08x, 0x%08x: contiguous 0x%08x, want 0x%08x",
                                 op_info(cases[c].op)->name, kernel_isa_table((KernelIsa)isa)->name, x, y, fbits_of(d[i]), want);
                    cr_assert_eq(fbits_of(dw[2 * i]), want, "%s (%s) 0x%08x, 0x%08x: strided 0x%08x, want 0x%08x",
                                 op_info(cases[c].op)->name, kernel_isa_table((KernelIsa)isa)->name, x, y, fbits_of(dw[2 * i]),
                                 want);
                    checked++;
                }
            }
        }
    }
    cr_assert_gt(checked, 4 * N);
}

Test(elem_kernels, f16_rules_of_the_simulator) {
    /* TADDC is one C++ expression src0 + src1 + src2, rounded to half after each + (g++ builds the
     * simulator): 1 + 2^-11 rounds to 1 (tie to even), then + 2^-11 rounds to 1 again */
    cr_assert_eq(one_f16(OP_TADDC, 0x3c00, 0x1000, 0), 0x3c00);
    /* TMAX is std::max(a, b) = a < b ? b : a: a NaN in src0 stays, one in src1 is dropped */
    cr_assert_eq(one_f16(OP_TMAX, 0x7e01, 0x3c00, 0), 0x7e01);
    cr_assert_eq(one_f16(OP_TMAX, 0x3c00, 0x7e01, 0), 0x3c00);
    /* TRELU is std::max(x, 0): -0 stays -0, NaN stays */
    cr_assert_eq(one_f16(OP_TRELU, 0x8000, 0, 0), 0x8000);
    /* TABS is x < 0 ? -x : x: -0 is not < 0 */
    cr_assert_eq(one_f16(OP_TABS, 0x8000, 0, 0), 0x8000);
    /* TREM -7 % 2: fmod gives -1, signs differ, so -1 + 2 = 1 (floor modulo) */
    cr_assert_eq(one_f16(OP_TREM, 0xc700, 0x4000, 0), 0x3c00);
    /* TEXP f16 is expf then one rounding to half: exp(1) = 2.71875 in f16 (0x4170) */
    cr_assert_eq(one_f16(OP_TEXP, 0x3c00, 0, 0), 0x4170);
    /* TLRELU x * slope for x <= 0: -2 * 0.5 = -1 */
    cr_assert_eq(one_f16(OP_TLRELU, 0xc000, 0, 0.5f), 0xbc00);
}

Test(elem_kernels, integer_faults_are_reported_not_executed) {
    KernelElem div = kernel_isa_table(kernel_isa_best())->elem[OP_TDIV][DT_I32];
    int32_t a[8] = {7, INT32_MIN}, b[8] = {0, -1}, d[8];
    KTile t[3] = {{(uint8_t *)a, 8, 1}, {(uint8_t *)b, 8, 1}, {(uint8_t *)b, 8, 1}};
    KScalar ks = {0};
    cr_assert_eq(div((KTile){(uint8_t *)d, 8, 1}, t, ks, 1, 1), 1, "7 / 0 is a division by zero");
    cr_assert_eq(div((KTile){(uint8_t *)d, 8, 1}, (KTile[3]){t[0], {(uint8_t *)(b + 1), 8, 1}, t[2]}, ks, 1, 1), 0);
    int32_t m[8] = {INT32_MIN};
    KTile u[3] = {{(uint8_t *)m, 8, 1}, {(uint8_t *)(b + 1), 8, 1}, {(uint8_t *)b, 8, 1}};
    cr_assert_eq(div((KTile){(uint8_t *)d, 8, 1}, u, ks, 1, 1), 2, "INT32_MIN / -1 overflows");
    /* i16 divides in int: -32768 / -1 = 32768 wraps to -32768, no fault */
    KernelElem div16 = kernel_isa_table(kernel_isa_best())->elem[OP_TDIV][DT_I16];
    int16_t p[16] = {INT16_MIN}, q[16] = {-1}, r[16];
    KTile v[3] = {{(uint8_t *)p, 16, 1}, {(uint8_t *)q, 16, 1}, {(uint8_t *)q, 16, 1}};
    cr_assert_eq(div16((KTile){(uint8_t *)r, 16, 1}, v, ks, 1, 1), 0);
    cr_assert_eq(r[0], INT16_MIN);
    /* shifts: a count outside [0, 32) after promotion is undefined */
    KernelElem shl = kernel_isa_table(kernel_isa_best())->elem[OP_TSHL][DT_I16];
    int16_t one[16] = {1}, big[16] = {32}, sh[16];
    KTile w[3] = {{(uint8_t *)one, 16, 1}, {(uint8_t *)big, 16, 1}, {(uint8_t *)big, 16, 1}};
    cr_assert_eq(shl((KTile){(uint8_t *)sh, 16, 1}, w, ks, 1, 1), 3);
    big[0] = 17; /* 1 << 17 in int, truncated to 16 bits: 0 */
    cr_assert_eq(shl((KTile){(uint8_t *)sh, 16, 1}, w, ks, 1, 1), 0);
    cr_assert_eq(sh[0], 0);
}

/* TSHRS / TSHLS check their scalar count once per call (elemfn.h's ECB_shr): a count outside
 * [0, 32) faults before any element is written, in every variant and on either path (contiguous
 * and strided); an empty tile does not fault; a legal count shifts every element. */
Test(elem_kernels, tile_scalar_shift_checks_the_count_once) {
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *tab = kernel_isa_table((KernelIsa)isa);
        for (int op = 0; op < 2; op++) {
            KernelElem k = tab->elem[op ? OP_TSHLS : OP_TSHRS][DT_I32];
            cr_assert_not_null(k);
            for (int strided = 0; strided < 2; strided++) {
                int32_t a[64], d[64];
                for (int i = 0; i < 64; i++) a[i] = -1000 * i, d[i] = 7;
                KTile src[3] = {{(uint8_t *)a, 8, strided ? 2 : 1}}, dst = {(uint8_t *)d, 8, strided ? 2 : 1};
                const int64_t cols = strided ? 4 : 8;
                static const int64_t bad[] = {-1, 32, 40, (int64_t)INT32_MIN};
                for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
                    KScalar ks = {.u = (uint64_t)bad[b]};
                    cr_assert_eq(k(dst, src, ks, 8, cols), EFAULT_SHIFT, "%s count %lld", tab->name, (long long)bad[b]);
                    for (int i = 0; i < 64; i++) cr_assert_eq(d[i], 7, "%s: element %d written before the fault", tab->name, i);
                    cr_assert_eq(k(dst, src, ks, 0, cols), 0, "an empty tile has no element to fault on");
                }
                KScalar ks = {.u = 3};
                cr_assert_eq(k(dst, src, ks, 8, cols), 0);
                for (int64_t r = 0; r < 8; r++)
                    for (int64_t c = 0; c < cols; c++) {
                        const int64_t at = r * 8 + c * (strided ? 2 : 1);
                        cr_assert_eq(d[at], op ? (int32_t)((uint32_t)a[at] << 3) : a[at] >> 3, "%s element %lld", tab->name, (long long)at);
                    }
            }
        }
    }
}

Test(elem_kernels, every_listed_dtype_has_a_kernel) {
    /* what a row's DTYPES column lets the verifier accept, the interpreter must run */
    const KernelIsaTable *t = kernel_isa_table(KISA_PORTABLE);
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *info = op_info(op);
        bool has_any = false; /* an op of the elementwise families: it has kernels in this table */
        for (int dt = 0; dt < DT_COUNT; dt++) has_any = has_any || t->elem[op][dt];
        if (!has_any) continue;
        uint32_t all = info->dtypes[0] | info->dtypes[1];
        for (int dt = 0; dt < DT_COUNT; dt++)
            if (all & DTBIT(dt)) cr_assert_not_null(t->elem[op][dt], "%s %s has no kernel", info->name, dtype_name(dt));
    }
}

#include "elemfn.h"

/* Integer division up to 32 bits runs through double (EI_QUOT), and the remainder from that
 * quotient (EI_REMAINDER, behind TREM, TFMOD and their scalar forms): both must be C's `/` and `%`
 * for every pair the fault check lets through; edge values (also as i16 and u8) and 2 million
 * random pairs. */
Test(elem_fn, integer_quotient_and_remainder_through_double_are_exact) {
    static const int32_t edge[] = {INT32_MIN, INT32_MIN + 1, -65536, -65535, -3, -2, -1, 1, 2, 3, 7,
                                   65535, 65536, 46341, INT32_MAX - 1, INT32_MAX};
    size_t n = sizeof edge / sizeof *edge;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            int32_t a = edge[i], b = edge[j];
            uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
            if (!(a == INT32_MIN && b == -1)) { /* EFAULT_DIV_OVERFLOW */
                cr_assert_eq(EI_QUOT(i32, a, b), a / b, "%d / %d", a, b);
                cr_assert_eq(EI_REMAINDER(i32, a, b), a % b, "%d %% %d", a, b);
            }
            cr_assert_eq(EI_QUOT(u32, ua, ub), ua / ub, "%u / %u", ua, ub);
            cr_assert_eq(EI_REMAINDER(u32, ua, ub), ua % ub, "%u %% %u", ua, ub);
            int16_t a16 = (int16_t)a, b16 = (int16_t)b;
            if (b16) cr_assert_eq((int16_t)EI_REMAINDER(i16, a16, b16), (int16_t)(a16 % b16), "%d %% %d", a16, b16);
            uint8_t a8 = (uint8_t)a, b8 = (uint8_t)(b | 1);
            cr_assert_eq((uint8_t)EI_REMAINDER(u8, a8, b8), (uint8_t)(a8 % b8), "%u %% %u", a8, b8);
        }
    uint64_t s = 42;
    for (int k = 0; k < 2000000; k++) {
        int32_t a = (int32_t)rng_next(&s), b = (int32_t)rng_next(&s) >> (rng_next(&s) % 31);
        if (b == 0 || (a == INT32_MIN && b == -1)) continue;
        cr_assert_eq(EI_QUOT(i32, a, b), a / b, "%d / %d", a, b);
        cr_assert_eq(EI_QUOT(u32, (uint32_t)a, (uint32_t)b), (uint32_t)a / (uint32_t)b);
        cr_assert_eq(EI_REMAINDER(i32, a, b), a % b, "%d %% %d", a, b);
        cr_assert_eq(EI_REMAINDER(u32, (uint32_t)a, (uint32_t)b), (uint32_t)a % (uint32_t)b);
    }
}

/* A tile-scalar op divides by one scalar b: the kernels multiply by ei_recip_away(b) instead
 * (elemfn.h, EI_QUOT_RECIP). Against C's / and % for every divisor in [-3000, 3000], the edges and
 * random ones, with dividends at and beside exact multiples of b (the case a reciprocal rounded
 * the wrong way gets wrong), the type's limits and random ones, for i32 and u32; then TDIVS,
 * TFMODS and TREMS i32 kernels of every variant on a row of such dividends. */
static void check_recip_i32(int32_t a, int32_t b) {
    if (b == 0 || (a == INT32_MIN && b == -1)) return;
    const double rb = ei_recip_away((double)b);
    cr_assert_eq(EI_QUOT_RECIP(i32, a, rb), a / b, "%d / %d", a, b);
    cr_assert_eq(EI_REMAINDER_RECIP(i32, a, b, rb), a % b, "%d %% %d", a, b);
}

static void check_recip_u32(uint32_t a, uint32_t b) {
    if (b == 0) return;
    const double rb = ei_recip_away((double)b);
    cr_assert_eq(EI_QUOT_RECIP(u32, a, rb), a / b, "%u / %u", a, b);
    cr_assert_eq(EI_REMAINDER_RECIP(u32, a, b, rb), a % b, "%u %% %u", a, b);
}

static void check_recip_divisor(int32_t b, uint64_t *s) {
    if (b == 0) return; /* EFAULT_DIV_ZERO: the kernels check the scalar first */
    static const int32_t fixed[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        check_recip_i32(fixed[i], b);
        check_recip_u32((uint32_t)fixed[i], (uint32_t)b);
    }
    const int64_t mb = b < 0 ? -(int64_t)b : b, umb = (uint32_t)b;
    for (int k = 0; k < 24; k++) { /* q * b - 1, q * b, q * b + 1 for small, large and random q */
        int64_t q = k < 8 ? k : k < 16 ? INT32_MAX / mb - (k - 8) : (int64_t)(rng_next(s) % (uint32_t)(INT32_MAX / mb + 1));
        for (int sign = -1; sign <= 1; sign += 2)
            for (int d = -1; d <= 1; d++) {
                int64_t a = sign * q * mb + d;
                if (a >= INT32_MIN && a <= INT32_MAX) check_recip_i32((int32_t)a, b);
            }
        int64_t uq = k < 8 ? k : k < 16 ? (int64_t)(UINT32_MAX / umb) - (k - 8) : (int64_t)(rng_next(s) % (UINT32_MAX / umb + 1));
        for (int d = -1; d <= 1; d++) {
            int64_t a = uq * umb + d;
            if (a >= 0 && a <= UINT32_MAX) check_recip_u32((uint32_t)a, (uint32_t)b);
        }
    }
    for (int k = 0; k < 16; k++) {
        uint32_t r = rng_next(s);
        check_recip_i32((int32_t)r, b);
        check_recip_u32(r, (uint32_t)b);
    }
}

Test(elem_fn, quotient_by_a_fixed_divisor_through_its_reciprocal_is_exact, .timeout = 120) {
    uint64_t s = 7;
    for (int32_t b = -3000; b <= 3000; b++) check_recip_divisor(b, &s);
    for (int e = 11; e < 32; e++) /* +-2^e and its neighbours */
        for (int d = -1; d <= 1; d++) {
            int64_t p = ((int64_t)1 << e) + d;
            if (p <= INT32_MAX) check_recip_divisor((int32_t)p, &s);
            check_recip_divisor((int32_t)-p, &s);
            check_recip_divisor((int32_t)(uint32_t)(((uint64_t)1 << e) + (uint64_t)d), &s);
        }
    static const int32_t edge[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 46341, -46341, 65535, 65537, 3 * 7 * 11 * 13 * 17 * 19};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) check_recip_divisor(edge[i], &s);
    for (int k = 0; k < 4000; k++) {
        int32_t b = (int32_t)rng_next(&s) >> (rng_next(&s) % 31);
        check_recip_divisor(b, &s);
    }
    /* the kernels: dst = src op b over a row of dividends, in every variant */
    enum { N = 96 };
    static const int32_t divisors[] = {3, -3, 7, -1, 1, 10, -10, 46341, INT32_MIN, INT32_MAX, 65536, -65537};
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *t = kernel_isa_table((KernelIsa)isa);
        for (size_t j = 0; j < sizeof divisors / sizeof *divisors; j++) {
            const int32_t b = divisors[j];
            int32_t src[N], dst[N];
            for (int i = 0; i < N; i++)
                src[i] = i < 6 ? (int32_t[]){INT32_MIN + (b == -1), INT32_MIN + 1, INT32_MAX, 0, -1, 1}[i]
                       : i < 48 ? (int32_t)((int64_t)(i - 27) * (b == INT32_MIN ? 1 : b) + (i % 3) - 1) : (int32_t)rng_next(&s);
            if (b == -1) src[0] = INT32_MIN + 1; /* INT_MIN / -1 faults (tested above) */
            const OpCode ops[] = {OP_TDIVS, OP_TFMODS, OP_TREMS};
            for (size_t o = 0; o < 3; o++) {
                KernelElem k = t->elem[ops[o]][DT_I32];
                cr_assert_not_null(k);
                KTile sk = {(uint8_t *)src, N, 1};
                KScalar ks = {.u = (uint64_t)(int64_t)b};
                cr_assert_eq(k((KTile){(uint8_t *)dst, N, 1}, &sk, ks, 1, N), 0);
                for (int i = 0; i < N; i++) {
                    int32_t a = src[i], want = o == 0 ? a / b : a % b;
                    if (o == 2 && (a >= 0) != (b >= 0) && want != 0) want = (int32_t)((uint32_t)want + (uint32_t)b);
                    cr_assert_eq(dst[i], want, "%s %s: %d, %d gives %d, not %d", t->name, op_info(ops[o])->name, a, b,
                                 dst[i], want);
                }
            }
        }
    }
}

/* The float quotient (EI_QUOT_FLOAT: every 8- and 16-bit type, and 32-bit rows whose dividends lie
 * inside (-2^24, 2^24)) against C's `/`, and TREM's floor modulo from its floor (EI_FLOORMOD_FLOAT)
 * against `%` with the sign fix-up: every 16-bit dividend by the edge divisors, dividends at and
 * beside multiples of every divisor in [-3000, 3000] and of large ones, and 2 million random
 * pairs; then the TDIV, TFMOD, TREM, TDIVS (scalar first) i32 and u32 kernels of every variant on
 * rows that take the float path, and on the same rows with one wide dividend (the double path). */
/* TREM's floor modulo of two i32 values, as the simulator computes it: C's %, then + b when the
 * signs differ and the remainder is not 0 */
static int32_t floor_mod_i32(int32_t a, int32_t b) {
    const int32_t r = a % b;
    return r != 0 && (a >= 0) != (b >= 0) ? (int32_t)((uint32_t)r + (uint32_t)b) : r;
}

Test(elem_fn, float_quotient_of_dividends_under_2_to_24_is_exact, .timeout = 120) {
    static const int32_t edge[] = {INT32_MIN, -16777215, -65536, -32768, -3, -2, -1, 1, 2, 3, 7, 255,
                                   32767, 65535, 46341, 16777215, 16777216, INT32_MAX};
    const size_t ne = sizeof edge / sizeof *edge;
    for (int32_t a = -65536; a <= 65536; a++)
        for (size_t j = 0; j < ne; j++) {
            cr_assert_eq(EI_QUOT_FLOAT(i32, a, edge[j]), a / edge[j], "%d / %d", a, edge[j]);
            cr_assert_eq(EI_FLOORMOD_FLOAT(i32, a, edge[j]), floor_mod_i32(a, edge[j]), "%d mod %d", a, edge[j]);
        }
    uint64_t s = 7;
    for (int32_t b = -3000; b <= 3000; b++) {
        if (!b) continue;
        for (int k = 0; k < 64; k++) {
            const int64_t m = (int64_t)(rng_next(&s) % (16777215u / (uint32_t)(b < 0 ? -b : b))) * b;
            for (int d = -1; d <= 1; d++) {
                const int64_t a = (k & 1 ? -m : m) + d;
                if (a <= -16777216 || a >= 16777216) continue;
                cr_assert_eq(EI_QUOT_FLOAT(i32, (int32_t)a, b), (int32_t)a / b, "%lld / %d", (long long)a, b);
                cr_assert_eq(EI_REMAINDER_FLOAT(i32, (int32_t)a, b), (int32_t)a % b);
                cr_assert_eq(EI_FLOORMOD_FLOAT(i32, (int32_t)a, b), floor_mod_i32((int32_t)a, b), "%lld mod %d", (long long)a, b);
            }
        }
    }
    for (int k = 0; k < 2000000; k++) {
        const int32_t a = (int32_t)(rng_next(&s) % 33554431u) - 16777215, b = (int32_t)rng_next(&s) >> (rng_next(&s) % 31);
        const uint32_t ua = rng_next(&s) % 16777216u, ub = rng_next(&s) >> (rng_next(&s) % 31);
        if (b) cr_assert_eq(EI_QUOT_FLOAT(i32, a, b), a / b, "%d / %d", a, b);
        if (ub) cr_assert_eq(EI_QUOT_FLOAT(u32, ua, ub), ua / ub, "%u / %u", ua, ub);
        if (b) cr_assert_eq(EI_FLOORMOD_FLOAT(i32, a, b), floor_mod_i32(a, b), "%d mod %d", a, b);
        if (ub) cr_assert_eq(EI_FLOORMOD_FLOAT(u32, ua, ub), ua % ub, "%u mod %u", ua, ub);
        cr_assert_eq(EI_WIDE_i32(a), 0);
        cr_assert_eq(EI_WIDE_u32(ua), 0);
    }
    cr_assert(EI_WIDE_i32(16777216) && EI_WIDE_i32(-16777216) && EI_WIDE_i32(INT32_MIN) && EI_WIDE_i32(INT32_MAX));
    cr_assert(!EI_WIDE_i32(16777215) && !EI_WIDE_i32(-16777215) && EI_WIDE_u32(16777216u) && !EI_WIDE_u32(16777215u));
    enum { N = 80 };
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *t = kernel_isa_table((KernelIsa)isa);
        for (int wide = 0; wide < 2; wide++) {
            int32_t a[N], b[N], dst[N];
            for (int i = 0; i < N; i++) {
                b[i] = i < 20 ? edge[i % ne] : (int32_t)rng_next(&s) >> (rng_next(&s) % 31);
                if (b[i] == 0 || b[i] == -1) b[i] = 3;
                const int32_t m = b[i] > -4096 && b[i] < 4096 ? b[i] * (int32_t)(rng_next(&s) % 4096) : 0;
                a[i] = (int32_t)(i % 3) - 1 + (i & 1 ? -m : m);
            }
            if (wide) a[N - 5] = INT32_MIN + 1, a[7] = 16777216;
            const OpCode ops[] = {OP_TDIV, OP_TFMOD, OP_TREM};
            for (size_t o = 0; o < 3; o++)
                for (int u = 0; u < 2; u++) {
                    KernelElem k = t->elem[ops[o]][u ? DT_U32 : DT_I32];
                    cr_assert_not_null(k);
                    KTile src[3] = {{(uint8_t *)a, N, 1}, {(uint8_t *)b, N, 1}, {(uint8_t *)a, N, 1}};
                    cr_assert_eq(k((KTile){(uint8_t *)dst, N, 1}, src, (KScalar){0}, 1, N), 0);
                    for (int i = 0; i < N; i++) {
                        int32_t want;
                        if (u) {
                            const uint32_t ua = (uint32_t)a[i], ub = (uint32_t)b[i];
                            want = (int32_t)(o == 0 ? ua / ub : ua % ub);
                        } else {
                            want = o == 0 ? a[i] / b[i] : a[i] % b[i];
                            if (o == 2 && (a[i] >= 0) != (b[i] >= 0) && want != 0) want = (int32_t)((uint32_t)want + (uint32_t)b[i]);
                        }
                        cr_assert_eq(dst[i], want, "%s %s %s: %d, %d gives %d, not %d", t->name, op_info(ops[o])->name,
                                     u ? "u32" : "i32", a[i], b[i], dst[i], want);
                    }
                }
            /* TDIVS with the scalar first: the scalar is every element's dividend */
            KernelElem rdiv = t->elem_rev[OP_TDIVS][DT_I32];
            cr_assert_not_null(rdiv);
            const int32_t k = wide ? INT32_MAX : 16777215;
            KTile src = {(uint8_t *)b, N, 1};
            cr_assert_eq(rdiv((KTile){(uint8_t *)dst, N, 1}, &src, (KScalar){.u = (uint64_t)(int64_t)k}, 1, N), 0);
            for (int i = 0; i < N; i++) cr_assert_eq(dst[i], k / b[i], "%s: %d / %d gives %d", t->name, k, b[i], dst[i]);
        }
    }
}

/* The first test of a chunk of TDIV, TFMOD and TREM i32/u32 (the smallest divisor and the largest
 * dividend key of 2048 elements, kernels_elem.h): one zero divisor, or INT32_MIN over -1, anywhere in
 * a row of three chunks stops the kernel with its fault, after every element before it is written
 * and none after; without it the row divides. Every variant. */
Test(elem_kernels, a_fault_anywhere_in_a_chunked_row_is_found) {
    enum { N = 4400 };
    static const int at[] = {0, 1, 15, 16, 511, 512, 2047, 2048, 2800, 4095, 4096, 4399};
    const OpCode ops[] = {OP_TDIV, OP_TFMOD, OP_TREM};
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *t = kernel_isa_table((KernelIsa)isa);
        for (size_t o = 0; o < 3; o++)
            for (int u = 0; u < 2; u++)
                for (size_t j = 0; j <= sizeof at / sizeof *at; j++)
                    for (int overflow = 0; overflow < 2 - u; overflow++) {
                        const int pos = j < sizeof at / sizeof *at ? at[j] : -1; /* -1: no fault */
                        static int32_t a[N], b[N], d[N];
                        for (int i = 0; i < N; i++) a[i] = 1000 + i, b[i] = 3 + i % 5, d[i] = -99;
                        if (pos >= 0 && overflow) a[pos] = INT32_MIN, b[pos] = -1;
                        else if (pos >= 0) b[pos] = 0;
                        KernelElem k = t->elem[ops[o]][u ? DT_U32 : DT_I32];
                        KTile src[3] = {{(uint8_t *)a, N, 1}, {(uint8_t *)b, N, 1}, {(uint8_t *)a, N, 1}};
                        const int fault = k((KTile){(uint8_t *)d, N, 1}, src, (KScalar){0}, 1, N);
                        const int want = pos < 0 ? EFAULT_NONE : overflow ? EFAULT_DIV_OVERFLOW : EFAULT_DIV_ZERO;
                        cr_assert_eq(fault, want, "%s %s %s, fault at %d: %d, not %d", t->name, op_info(ops[o])->name,
                                     u ? "u32" : "i32", pos, fault, want);
                        const int upto = pos < 0 ? N : pos;
                        for (int i = 0; i < N; i++) {
                            if (i < upto) /* positive operands: the three agree with C's / and % */
                                cr_assert_eq(d[i], o == 0 ? a[i] / b[i] : a[i] % b[i],
                                             "%s %s: element %d before the fault at %d", t->name, op_info(ops[o])->name, i, pos);
                            else cr_assert_eq(d[i], -99, "%s %s: element %d written past the fault", t->name,
                                              op_info(ops[o])->name, i);
                        }
                    }
    }
}

/* TSHL and TSHR find a count outside [0, width of the promoted type) by a running maximum of the
 * counts as unsigned (elemfn.h, ECM_shl): every integer type, every variant, the bad count at chunk
 * edges and elsewhere; the elements before it are those of a run without it, none after is written. */
Test(elem_kernels, a_bad_shift_count_anywhere_is_found) {
    enum { N = 4400 };
    static const int at[] = {0, 1, 63, 64, 2047, 2048, 4095, 4096, 4399};
    static const DType types[] = {DT_I8, DT_U8, DT_I16, DT_U16, DT_I32, DT_U32, DT_I64, DT_U64};
    static uint8_t a[N * 8], b[N * 8], clean[N * 8], d[N * 8];
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *t = kernel_isa_table((KernelIsa)isa);
        for (size_t ty = 0; ty < sizeof types / sizeof *types; ty++)
            for (int op = 0; op < 2; op++) {
                const DType dt = types[ty];
                const size_t es = dtype_size(dt);
                const int64_t width = es == 8 ? 64 : 32, top = (int64_t)((es == 8 ? INT64_MAX : (1ll << (8 * es - 1)) - 1));
                const int64_t bad[] = {width, width + 5, -1, top};
                KernelElem k = t->elem[op ? OP_TSHR : OP_TSHL][dt];
                cr_assert_not_null(k);
                for (int i = 0; i < N; i++) {
                    const int64_t av = (int64_t)(0x9E3779B97F4A7C15ull * (uint64_t)(i + 1)), bv = (i * 7) % width;
                    memcpy(a + i * es, &av, es); /* little-endian: the low bytes */
                    memcpy(b + i * es, &bv, es);
                }
                KTile src[3] = {{a, N, 1}, {b, N, 1}, {a, N, 1}};
                memset(clean, 0x5A, sizeof clean);
                cr_assert_eq(k((KTile){clean, N, 1}, src, (KScalar){0}, 1, N), EFAULT_NONE, "%s %s %s: no bad count",
                             t->name, op ? "tshr" : "tshl", dtype_name(dt));
                for (size_t j = 0; j < sizeof at / sizeof *at; j++)
                    for (size_t v = 0; v < sizeof bad / sizeof *bad; v++) {
                        uint8_t keep[8];
                        memcpy(keep, b + at[j] * es, es);
                        memcpy(b + at[j] * es, &bad[v], es);
                        memset(d, 0x5A, sizeof d);
                        const int fault = k((KTile){d, N, 1}, src, (KScalar){0}, 1, N);
                        memcpy(b + at[j] * es, keep, es);
                        cr_assert_eq(fault, EFAULT_SHIFT, "%s %s %s: count %lld at %d not found", t->name,
                                     op ? "tshr" : "tshl", dtype_name(dt), (long long)bad[v], at[j]);
                        cr_assert(memcmp(d, clean, (size_t)at[j] * es) == 0, "%s %s %s: elements before %d differ",
                                  t->name, op ? "tshr" : "tshl", dtype_name(dt), at[j]);
                        size_t i = (size_t)at[j] * es;
                        while (i < N * es && d[i] == 0x5A) i++;
                        cr_assert_eq(i, N * es, "%s %s %s: byte %zu written past the bad count at %d", t->name,
                                     op ? "tshr" : "tshl", dtype_name(dt), i, at[j]);
                    }
            }
    }
}

/* EI_RECIPF_TOTAL: where it holds, the float forms' quotients convert without overflow for every
 * dividend (the kernels run them before the wide test redoes a chunk in double): |a rbf| and the
 * floor of a / b under 2^31 for i32, a rbf under 2^32 and the floor (through int32_t) under 2^31
 * for u32. The divisors it leaves out (i32 +-1, u32 1 and 2) do overflow there. */
Test(elem_fn, float_reciprocal_forms_stay_in_range_where_total) {
    static const int32_t bs[] = {INT32_MIN, -2097152, -65537, -7, -3, -2, -1, 1, 2, 3, 4, 7, 1000, 2097151, INT32_MAX};
    static const int32_t as[] = {INT32_MIN, INT32_MIN + 1, -2147483520, -16777217, -2097152, 0, 2097152, 2147483520,
                                 INT32_MAX - 1, INT32_MAX};
    for (size_t j = 0; j < sizeof bs / sizeof *bs; j++) {
        const int32_t b = bs[j];
        const float rbf = ei_recipf_away((double)b);
        float worst = 0.0f, worst_floor = 0.0f;
        for (size_t i = 0; i < sizeof as / sizeof *as; i++) {
            worst = fmaxf(worst, fabsf((float)as[i] * rbf));
            worst_floor = fmaxf(worst_floor, fabsf(floorf((float)as[i] / (float)b)));
        }
        if (EI_RECIPF_TOTAL_i32(b)) cr_assert(worst < 2147483648.0f && worst_floor < 2147483648.0f, "i32 b = %d", b);
        else cr_assert(worst >= 2147483648.0f, "i32 b = %d is left out but stays in range", b);
    }
    static const uint32_t ubs[] = {1, 2, 3, 4, 5, 1000, 0x80000000u, 0xffffffffu};
    static const uint32_t uas[] = {0, 1, 2097152, 0x7fffffffu, 0x80000000u, 0xffffff7fu, 0xffffff80u, 0xffffffffu};
    for (size_t j = 0; j < sizeof ubs / sizeof *ubs; j++) {
        const uint32_t b = ubs[j];
        const float rbf = ei_recipf_away((double)b);
        float worst = 0.0f, worst_floor = 0.0f;
        for (size_t i = 0; i < sizeof uas / sizeof *uas; i++) {
            worst = fmaxf(worst, (float)uas[i] * rbf);
            worst_floor = fmaxf(worst_floor, floorf((float)uas[i] / (float)b));
        }
        if (EI_RECIPF_TOTAL_u32(b)) cr_assert(worst < 4294967296.0f && worst_floor < 2147483648.0f, "u32 b = %u", b);
        else cr_assert(worst >= 4294967296.0f || worst_floor >= 2147483648.0f, "u32 b = %u is left out but stays in range", b);
    }
}

/* A fixed divisor's float reciprocal (EI_QUOT_RECIP with ei_recipf_away: dividends inside
 * (-2^21, 2^21), and every type below 32 bits): TDIVS, TFMODS and TREMS i32 of every variant, out of
 * place and in place, for every divisor in [-3000, 3000] and large ones, on rows of dividends at and
 * beside its multiples and at +-(2^21 - 1); then with one dividend of 2^21 in the row (the double
 * path), and with the 32-bit limits as well (the float forms run on them before the double redo:
 * UBSan sees any overflow); u32 up to 2^32 - 1. Against C's / and %. */
Test(elem_fn, float_reciprocal_of_a_fixed_divisor_is_exact_under_2_to_21, .timeout = 120) {
    enum { N = 120 };
    uint64_t s = 11;
    int32_t divisors[6001 + 12];
    int nd = 0;
    for (int32_t b = -3000; b <= 3000; b++)
        if (b != 0 && b != -1) divisors[nd++] = b;
    static const int32_t big[] = {46341, -46341, 65536, -65537, 1048575, 2097151, 2097152, -2097153, 16777217,
                                  INT32_MAX, INT32_MIN, 1 << 30};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) divisors[nd++] = big[i];
    const OpCode ops[] = {OP_TDIVS, OP_TFMODS, OP_TREMS};
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *t = kernel_isa_table((KernelIsa)isa);
        for (int j = 0; j < nd; j += isa ? 7 : 1) { /* every divisor on the best variant */
            const int32_t b = divisors[j], ab = b < 0 ? (b == INT32_MIN ? INT32_MAX : -b) : b;
            int32_t src[N], dst[N], in_place[N];
            for (int i = 0; i < N; i++) {
                const int64_t m = ab < 2097151 ? (int64_t)(rng_next(&s) % (uint32_t)(2097151 / ab)) * ab : 0;
                src[i] = i == 0 ? 2097151 : i == 1 ? -2097151 : (int32_t)((i & 1 ? -m : m) + (i % 3) - 1);
            }
            for (int wide = 0; wide < 3; wide++) {
                if (wide) src[N / 2] = 2097152;
                if (wide == 2) { /* the 32-bit limits: the float forms' products stay defined */
                    static const int32_t ends[] = {INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1,
                                                   -2147483520, 2147483520, -16777217, 16777217};
                    for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) src[3 + 7 * e] = ends[e];
                }
                for (size_t o = 0; o < 3; o++) {
                    KernelElem k = t->elem[ops[o]][DT_I32];
                    KTile sk = {(uint8_t *)src, N, 1}, ik = {(uint8_t *)in_place, N, 1};
                    const KScalar ks = {.u = (uint64_t)(int64_t)b};
                    memcpy(in_place, src, sizeof src);
                    cr_assert_eq(k((KTile){(uint8_t *)dst, N, 1}, &sk, ks, 1, N), 0);
                    cr_assert_eq(k(ik, &ik, ks, 1, N), 0);
                    for (int i = 0; i < N; i++) {
                        const int32_t a = src[i];
                        int32_t want = o == 0 ? a / b : a % b;
                        if (o == 2 && (a >= 0) != (b >= 0) && want != 0) want = (int32_t)((uint32_t)want + (uint32_t)b);
                        cr_assert_eq(dst[i], want, "%s %s: %d, %d gives %d, not %d", t->name, op_info(ops[o])->name, a, b,
                                     dst[i], want);
                        cr_assert_eq(in_place[i], want, "%s %s in place: %d, %d", t->name, op_info(ops[o])->name, a, b);
                    }
                }
            }
        }
        /* past 2^21 the float product can reach the next integer: 6291458 * recipf(3) truncates to
         * 2097153; the row must take the double path */
        int32_t row[3] = {6291458, 1, -7}, out[3];
        KTile rk = {(uint8_t *)row, 3, 1};
        cr_assert_eq(t->elem[OP_TDIVS][DT_I32]((KTile){(uint8_t *)out, 3, 1}, &rk, (KScalar){.u = 3}, 1, 3), 0);
        cr_assert(out[0] == 2097152 && out[1] == 0 && out[2] == -2, "%s: %d %d %d", t->name, out[0], out[1], out[2]);
        /* the same past -2^21, and for u32 past 2^21 */
        row[0] = -6291458;
        cr_assert_eq(t->elem[OP_TDIVS][DT_I32]((KTile){(uint8_t *)out, 3, 1}, &rk, (KScalar){.u = 3}, 1, 3), 0);
        cr_assert(out[0] == -2097152 && out[1] == 0 && out[2] == -2, "%s: %d %d %d", t->name, out[0], out[1], out[2]);
        uint32_t urow[3] = {6291458u, 1u, 7u}, uout[3];
        KTile urk = {(uint8_t *)urow, 3, 1};
        cr_assert_eq(t->elem[OP_TDIVS][DT_U32]((KTile){(uint8_t *)uout, 3, 1}, &urk, (KScalar){.u = 3}, 1, 3), 0);
        cr_assert(uout[0] == 2097152u && uout[1] == 0u && uout[2] == 2u, "%s: %u %u %u", t->name, uout[0], uout[1], uout[2]);
        /* u32 rows with dividends up to 2^32 - 1 (where b >= 3, no select before the float forms) */
        static const uint32_t ubs[] = {1, 2, 3, 4, 5, 7, 1000, 2097151, 2097152, 0x7fffffffu, 0x80000000u,
                                       0xfffffffeu, 0xffffffffu};
        static const uint32_t uas[] = {0, 1, 2, 3, 2097151, 2097152, 6291458, 0x7fffffffu, 0x80000000u,
                                       0xffffff80u, 0xfffffffdu, 0xfffffffeu, 0xffffffffu, 12345, 999999};
        enum { NU = sizeof uas / sizeof *uas };
        for (size_t j = 0; j < sizeof ubs / sizeof *ubs; j++)
            for (size_t o = 0; o < 3; o++) {
                uint32_t ud[NU];
                KTile usk = {(uint8_t *)(uintptr_t)uas, NU, 1};
                cr_assert_eq(t->elem[ops[o]][DT_U32]((KTile){(uint8_t *)ud, NU, 1}, &usk, (KScalar){.u = ubs[j]}, 1, NU), 0);
                for (int i = 0; i < NU; i++)
                    cr_assert_eq(ud[i], o == 0 ? uas[i] / ubs[j] : uas[i] % ubs[j], "%s %s: %u, %u gives %u", t->name,
                                 op_info(ops[o])->name, uas[i], ubs[j], ud[i]);
            }
        /* 16-bit dividends always take it: every i16 dividend by a few divisors */
        static int16_t a16[65536], d16[65536];
        for (int i = 0; i < 65536; i++) a16[i] = (int16_t)(i - 32768);
        static const int16_t b16s[] = {3, -3, 7, 127, -128, 255, 32767, -32768, 1000, -999};
        for (size_t j = 0; j < sizeof b16s / sizeof *b16s; j++) {
            KTile sk = {(uint8_t *)a16, 65536, 1};
            cr_assert_eq(t->elem[OP_TDIVS][DT_I16]((KTile){(uint8_t *)d16, 65536, 1}, &sk,
                                                   (KScalar){.u = (uint64_t)(int64_t)b16s[j]}, 1, 65536), 0);
            for (int i = 0; i < 65536; i++)
                cr_assert_eq(d16[i], (int16_t)(a16[i] / b16s[j]), "%s: %d / %d", t->name, a16[i], b16s[j]);
        }
    }
}

/* TPOW on integers runs whole rows bit-serially (kernels_elem.h, ke_pow_row): every variant gives
 * ei_pow's answer (the simulator's integer_pow) for exponents 0, 1, large, negative and of every
 * bit length, bases 0, +-1, +-2 and random ones (wrapping), in place too, and with rows long
 * enough to span several chunks with different highest exponent bits; the chunk from element 512
 * has only exponents 0 to 15 (the one-pass form without the negative rules), the last two (from
 * 768) only exponents under 32, negative ones among them (the one-pass form with them); then rows
 * whose exponents are all under 2^k, k = 1..5 (one pass over the row, k bits). */
Test(elem_kernels, integer_pow_rows_match_the_element_function) {
    enum { N = 1100 };
    static const int64_t edge_base[] = {0, 1, -1, 2, -2, 3, -3, 7, 255, 65535, INT32_MAX, INT32_MIN};
    static const int64_t edge_exp[] = {0, 1, 2, 3, -1, -2, -3, 31, 32, 33, 63, INT32_MAX, INT32_MIN, 1000000};
    static const DType types[] = {DT_I8, DT_U8, DT_I16, DT_U16, DT_I32, DT_U32};
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *tab = kernel_isa_table((KernelIsa)isa);
        for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++) {
            DType dt = types[ti];
            KernelElem k = tab->elem[OP_TPOW][dt];
            if (!k) continue;
            size_t es = dtype_size(dt);
            uint8_t *a = malloc(N * es), *e = malloc(N * es), *d = malloc(N * es), *want = malloc(N * es);
            uint64_t s = 7 + (uint64_t)dt;
            /* mode 0: the mixed rows; mode 1..5: every exponent of the row under 2^mode and none
             * negative (the whole row in one pass, the bit loop cut to mode bits) */
            for (int mode = 0; mode < 6; mode++)
            for (int in_place = 0; in_place < 2; in_place++) {
                for (int i = 0; i < N; i++) {
                    int64_t av, ev;
                    if (mode) {
                        av = i < 12 ? edge_base[i] : (int32_t)rng_next(&s) >> (rng_next(&s) % 32);
                        ev = i == 5 ? (1 << mode) - 1 : (int64_t)(rng_next(&s) % (1u << mode));
                    } else if (i < 12 * 14) av = edge_base[i % 12], ev = edge_exp[i / 12];
                    else {
                        av = (int32_t)rng_next(&s) >> (rng_next(&s) % 32);
                        ev = i < 400 ? (int64_t)(rng_next(&s) % 12) : (int32_t)rng_next(&s) >> (rng_next(&s) % 32);
                        if (i >= 512) ev = (int64_t)(rng_next(&s) % 16); /* a chunk with no negative one */
                        if (i >= 768) ev = (int64_t)(rng_next(&s) % 40) - 8;
                    }
                    memcpy(a + i * es, &av, es); /* little-endian truncation to the element type */
                    memcpy(e + i * es, &ev, es);
                }
                for (int i = 0; i < N; i++) {
                    int64_t av = 0, ev = 0;
                    memcpy(&av, a + i * es, es);
                    memcpy(&ev, e + i * es, es);
                    if (dt == DT_I8 || dt == DT_I16 || dt == DT_I32) { /* sign-extend */
                        int sh = 64 - 8 * (int)es;
                        av = (int64_t)((uint64_t)av << sh) >> sh;
                        ev = (int64_t)((uint64_t)ev << sh) >> sh;
                    }
                    uint64_t r = ei_pow(av, ev, dt == DT_I8 || dt == DT_I16 || dt == DT_I32);
                    memcpy(want + i * es, &r, es);
                }
                KTile src[3] = {{a, N, 1}, {e, N, 1}, {e, N, 1}};
                KTile dst = {in_place ? a : d, N, 1};
                KScalar ks = {0};
                cr_assert_eq(k(dst, src, ks, 1, N), 0);
                uint8_t *got = in_place ? a : d;
                for (int i = 0; i < N; i++)
                    cr_assert(memcmp(got + i * es, want + i * es, es) == 0, "%s %s element %d differs from ei_pow",
                              tab->name, dtype_name(dt), i);
            }
            free(a), free(e), free(d), free(want);
        }
    }
}

/* (int32_t) of a double as the simulator's x86-64 code converts it: CVTTSD2SI gives INT32_MIN
 * outside the range (and for NaN) */
static int32_t cvtt_i32(double x) { return x >= -2147483648.0 && x < 2147483648.0 ? (int32_t)x : INT32_MIN; }

/* TPOWS on i32, i16 and u16 runs whole rows as a power by squaring (kernels_elem.h, ke_pows_row:
 * in int32 with an overflow bound for exponents 0 to 31, in double for the others), not through
 * pow: for every exponent from 2 to 33 every base whose power is at most about 2^32 in magnitude (where the conversion's answer depends on the exact value, 2^31 and -2^31
 * included), and for exponents 0, 1, negative and huge a set of edge and random bases, every
 * variant gives (int32_t)pow(a, b) truncated to the type, as the simulator computes it. */
Test(elem_kernels, integer_pows_rows_match_libm_pow) {
    enum { MAXN = 140000 };
    int32_t *a = malloc(MAXN * sizeof *a), *d = malloc(MAXN * sizeof *d);
    int16_t *a16 = malloc(MAXN * sizeof *a16), *d16 = malloc(MAXN * sizeof *d16);
    static const int32_t other_exp[] = {0, 1, -1, -2, -3, -31, 34, 63, 64, 1000000, INT32_MAX, INT32_MIN, -1000001};
    int checked = 0;
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        const KernelIsaTable *tab = kernel_isa_table((KernelIsa)isa);
        KernelElem k32 = tab->elem[OP_TPOWS][DT_I32], k16 = tab->elem[OP_TPOWS][DT_I16], ku16 = tab->elem[OP_TPOWS][DT_U16];
        cr_assert_not_null(ku16);
        cr_assert_not_null(k32);
        cr_assert_not_null(k16);
        for (int ei = 0; ei < 32 + (int)(sizeof other_exp / sizeof *other_exp); ei++) {
            const int32_t e = ei < 32 ? ei + 2 : other_exp[ei - 32];
            int n = 0;
            if (ei < 32) { /* every base with |a|^e <= 2^32 (and one more on each side) */
                int32_t lim = 1;
                while (pow((double)lim + 1, e) <= 4294967296.0) lim++;
                for (int32_t x = -lim - 1; x <= lim + 1 && n < MAXN; x++) a[n++] = x;
            } else {
                static const int32_t edge[] = {0, 1, -1, 2, -2, 3, -3, 46340, 46341, -46341, 65536, INT32_MAX, INT32_MIN};
                for (size_t j = 0; j < sizeof edge / sizeof *edge; j++) a[n++] = edge[j];
                uint64_t s = 99 + (uint64_t)ei;
                for (int j = 0; j < 300; j++) a[n++] = (int32_t)rng_next(&s) >> (rng_next(&s) % 32);
            }
            KScalar ks = {.u = (uint64_t)(int64_t)e};
            KTile src[3] = {{(uint8_t *)a, n, 1}};
            cr_assert_eq(k32((KTile){(uint8_t *)d, n, 1}, src, ks, 1, n), 0);
            for (int j = 0; j < n; j++)
                cr_assert_eq(d[j], cvtt_i32(pow((double)a[j], (double)e)), "%s i32 %d ^ %d = %d, pow gives %d", tab->name, a[j], e,
                             d[j], cvtt_i32(pow((double)a[j], (double)e)));
            /* i16: the scalar is converted to i16 first; the bases are the i32 ones truncated */
            const int16_t e16 = (int16_t)e;
            for (int j = 0; j < n; j++) a16[j] = (int16_t)a[j];
            KScalar ks16 = {.u = (uint64_t)(int64_t)e16};
            KTile src16[3] = {{(uint8_t *)a16, n, 1}};
            cr_assert_eq(k16((KTile){(uint8_t *)d16, n, 1}, src16, ks16, 1, n), 0);
            for (int j = 0; j < n; j++)
                cr_assert_eq(d16[j], (int16_t)cvtt_i32(pow((double)a16[j], (double)e16)), "%s i16 %d ^ %d", tab->name, a16[j], e16);
            /* u16: the same bits unsigned (bases up to 65535, whose squares pass 2^31) */
            uint16_t *u16 = (uint16_t *)a16, *r16 = (uint16_t *)d16;
            KScalar ksu = {.u = (uint64_t)(uint16_t)e16};
            cr_assert_eq(ku16((KTile){(uint8_t *)d16, n, 1}, src16, ksu, 1, n), 0);
            for (int j = 0; j < n; j++)
                cr_assert_eq(r16[j], (uint16_t)cvtt_i32(pow((double)u16[j], (double)(uint16_t)e16)), "%s u16 %u ^ %u", tab->name,
                             u16[j], (uint16_t)e16);
            checked += n;
        }
    }
    cr_assert_gt(checked, 100000);
    free(a), free(d), free(a16), free(d16);
}

/* ---- the fast forms of exp and log (elemfn.h, "approximate, then verify") ----------------------
 * The contiguous kernels of TEXP, TLOG and TROWEXPANDEXPDIF compute a double approximation and
 * fall back to the libm call where its rounding to the element type is in doubt. Here every
 * variant's kernel is run on many inputs and compared, bit for bit, with the exact element
 * function (EF_*, the simulator's libm calls) rounded once to the element type. */
#define RND(T, x) REF_RND_##T(x)
#define REF_RND_f32(x) ((float)(x))
#define REF_RND_f16(x) fp_f32_round_f16((float)(x))
#define REF_RND_bf16(x) fp_bf16_to_f32(fp_f32_to_bf16((float)(x)))

/* The exact result of elem on (a, b) as the bits of dt. */
#define REF_BITS(elem, dt, a, b)                                                                   \
    ((dt) == DT_F32    ? fbits_of((float)EF_##elem(f32, a, b, b))                                  \
     : (dt) == DT_F16  ? (uint32_t)round_f16(EF_##elem(f16, a, b, b))                              \
                       : (uint32_t)round_bf16(EF_##elem(bf16, a, b, b)))
static uint32_t fbits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
#define round_f16(x) _Generic((x), double: fp_f64_to_f16, default: fp_f32_to_f16)(x)
#define round_bf16(x) _Generic((x), double: fp_f64_to_bf16, default: fp_f32_to_bf16)(x)

enum { FAST_N = 4096 };

/* Runs `op` on dt over n inputs (floats a, b, stored as dt; b only for binary ops) in every
 * variant, as one 1 x n tile and as n/8 rows of 8 in a wider tile (the batching of short rows),
 * and compares each element with want[]. Returns the number of elements compared. */
static int64_t fast_run(OpCode op, DType dt, const float *a, const float *b, const uint32_t *want, int n) {
    const size_t es = dtype_size(dt);
    uint8_t *sa = calloc(3 * FAST_N, es), *sb = calloc(3 * FAST_N, es), *d = calloc(2 * FAST_N, es);
    int64_t compared = 0;
    for (int i = 0; i < n; i++) { /* f16/bf16: the 16-bit pattern is the float's top half */
        const uint32_t ab = fbits_of(a[i]), bb = fbits_of(b[i]);
        const uint16_t ha = (uint16_t)(ab >> 16), hb = (uint16_t)(bb >> 16);
        memcpy(sa + (size_t)i * es, es == 4 ? (const void *)&ab : (const void *)&ha, es);
        memcpy(sb + (size_t)i * es, es == 4 ? (const void *)&bb : (const void *)&hb, es);
    }
    for (int isa = 0; isa < KISA_COUNT; isa++) {
        if (!kernel_isa_available((KernelIsa)isa)) continue;
        KernelElem k = kernel_isa_table((KernelIsa)isa)->elem[op][dt];
        cr_assert_not_null(k);
        for (int shape = 0; shape < 2; shape++) {
            uint8_t *ta = sa, *tb = sb;
            if (shape) { /* the same inputs as n/8 rows of 8 with a row stride of 16 */
                ta = sa + FAST_N * es, tb = sb + FAST_N * es;
                for (int i = 0; i < n; i++) {
                    memcpy(ta + ((size_t)(i / 8) * 16 + (size_t)(i % 8)) * es, sa + (size_t)i * es, es);
                    memcpy(tb + ((size_t)(i / 8) * 16 + (size_t)(i % 8)) * es, sb + (size_t)i * es, es);
                }
            }
            const int64_t rows = shape ? n / 8 : 1, cols = shape ? 8 : n, rs = shape ? 16 : n;
            memset(d, 0xa5, 2 * FAST_N * es);
            KTile src[3] = {{ta, rs, 1}, {tb, rs, 1}, {tb, rs, 1}};
            cr_assert_eq(k((KTile){d, rs, 1}, src, (KScalar){0}, rows, cols), 0);
            for (int i = 0; i < rows * cols; i++) {
                const size_t at = shape ? (size_t)(i / 8) * 16 + (size_t)(i % 8) : (size_t)i;
                uint32_t got = 0;
                memcpy(&got, d + at * es, es);
                cr_assert_eq(got, want[i], "%s %s (%s, %s): input 0x%08x 0x%08x gives 0x%x, want 0x%x", op_info(op)->name,
                             dtype_name(dt), kernel_isa_table((KernelIsa)isa)->name, shape ? "rows of 8" : "one row",
                             fbits_of(a[i]), fbits_of(b[i]), got, want[i]);
                compared++;
            }
        }
    }
    free(sa), free(sb), free(d);
    return compared;
}

/* The inputs of one check: f32 every 509th bit pattern plus the edges of the fast range, the
 * special values and inputs whose result lies within 2^-46 of a rounding boundary of f32 (the
 * fallback's inputs: a scan of all 2^32 floats finds 186 for exp and 690 for log; every 12th is
 * here); f16 and bf16 every bit pattern (as the float of its value). */
static int64_t fast_inputs(DType dt, int64_t index, float *out) {
    static const uint32_t edges[] = {
        0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0xffa12345u, 0x00000001u, 0x807fffffu,
        0x42b17218u, 0x42b17217u, 0x42b17219u, 0xc2ce8ed0u, 0xc2cff1b4u, 0xc2cff1b5u, 0xc2dc0000u, 0xc2dc0001u,
        0x42c80000u, 0x42c80001u, 0x3f800000u, 0x3f800001u, 0x3f7fffffu, 0x7f7fffffu, 0xc1200000u, 0x3f3504f3u,
        /* exp near a boundary */
        0x337ffffcu, 0x35a7fff9u, 0x387e3e07u, 0x3b8c972eu, 0x3e777fecu, 0x408b904bu, 0xb2fffffcu, 0xb3c00002u,
        0xb59c0006u, 0xb7f4c0eau, 0xb9d416fbu, 0xbbb70ee8u, 0xbda7d6c2u, 0xbefffee9u, 0xc069222du, 0xc236e4b4u,
        /* log near a boundary */
        0x0a400b68u, 0x13b591edu, 0x19a7260du, 0x21bb4ebfu, 0x2a8bb852u, 0x348411fdu, 0x3d13e105u, 0x44e04eacu,
        0x4c8ae471u, 0x5499aa08u, 0x5d800341u, 0x650ec1ecu, 0x6e64ebb1u, 0x79e7ec37u,
        /* rsqrt: near a boundary (one in 5000 of the 44706 a scan finds), the largest error, the ends */
        0x008085c6u, 0x0eae7b6bu, 0x1cd2208fu, 0x2b044422u, 0x394021b0u, 0x4783fd98u, 0x55b18f7bu, 0x63d7aea0u,
        0x720bfcf9u, 0x0083ebc5u, 0x00800000u, 0x007fffffu, 0x7f7ffffeu, 0xbf800000u, 0x3e800000u};
    const int64_t n_edges = (int64_t)(sizeof edges / sizeof *edges);
    if (dt != DT_F32) {
        if (index >= 65536) return 0;
        const uint16_t h = (uint16_t)index;
        *out = dt == DT_F16 ? fp_f16_to_f32(h) : fp_bf16_to_f32(h);
        return 1;
    }
    if (index < n_edges) return *out = float_of(edges[index]), 1;
    const uint64_t bits = (uint64_t)(index - n_edges) * 509u;
    if (bits > 0xffffffffu) return 0;
    *out = float_of((uint32_t)bits);
    return 1;
}

/* The f16/bf16 inputs are handed over as floats whose top half is the pattern. */
static float as_carrier(DType dt, float value, int64_t index) {
    return dt == DT_F32 ? value : float_of((uint32_t)index << 16);
}

#define FAST_UNARY_CHECK(ELEM, OPC)                                                                \
    static int64_t fast_check_##ELEM(DType dt) {                                                   \
        float *a = malloc(FAST_N * sizeof(float)), *va = malloc(FAST_N * sizeof(float));           \
        uint32_t *want = malloc(FAST_N * sizeof(uint32_t));                                        \
        int64_t compared = 0, index = 0;                                                           \
        for (bool more = true; more;) {                                                            \
            int n = 0;                                                                             \
            for (; n < FAST_N && (more = fast_inputs(dt, index, &va[n]) != 0); n++, index++) {     \
                const float x = va[n];                                                             \
                a[n] = as_carrier(dt, x, index);                                                   \
                want[n] = REF_BITS(ELEM, dt, x, x);                                                \
            }                                                                                      \
            for (; n % 8; n++) /* the last batch padded to whole rows of 8 */                      \
                a[n] = a[n - 1], want[n] = want[n - 1];                                            \
            if (n) compared += fast_run(OPC, dt, a, a, want, n);                                   \
        }                                                                                          \
        free(a), free(va), free(want);                                                             \
        return compared;                                                                           \
    }
FAST_UNARY_CHECK(exp, OP_TEXP)
FAST_UNARY_CHECK(log, OP_TLOG)
FAST_UNARY_CHECK(rsqrt, OP_TRSQRT)

Test(elem_fast, trsqrt_matches_libm_bit_for_bit, .timeout = 120) {
    cr_assert_gt(fast_check_rsqrt(DT_F32), 8000000);
    cr_assert_gt(fast_check_rsqrt(DT_F16), 65536 * 2);
    cr_assert_gt(fast_check_rsqrt(DT_BF16), 65536 * 2);
}

Test(elem_fast, texp_matches_libm_bit_for_bit, .timeout = 120) {
    cr_assert_gt(fast_check_exp(DT_F32), 8000000);
    cr_assert_gt(fast_check_exp(DT_F16), 65536 * 2);
    cr_assert_gt(fast_check_exp(DT_BF16), 65536 * 2);
}

Test(elem_fast, tlog_matches_libm_bit_for_bit, .timeout = 120) {
    cr_assert_gt(fast_check_log(DT_F32), 8000000);
    cr_assert_gt(fast_check_log(DT_F16), 65536 * 2);
    cr_assert_gt(fast_check_log(DT_BF16), 65536 * 2);
}

/* TROWEXPANDEXPDIF on two full tiles: random pairs whose difference spans exp's range. */
Test(elem_fast, trowexpandexpdif_matches_libm_bit_for_bit, .timeout = 120) {
    const DType types[] = {DT_F32, DT_F16, DT_BF16};
    float a[FAST_N], b[FAST_N];
    uint32_t want[FAST_N];
    uint64_t s = 99;
    for (int t = 0; t < 3; t++)
        for (int round = 0; round < 64; round++) {
            const DType dt = types[t];
            for (int i = 0; i < FAST_N; i++) {
                float x, y;
                if (dt == DT_F32) {
                    x = (float)((int32_t)rng_next(&s)) / (float)(1u << 24); /* within +-128 */
                    y = (float)((int32_t)rng_next(&s)) / (float)(1u << 26);
                    if (i % 97 == 0) x = float_of(rng_next(&s)); /* any pattern: NaN, Inf, huge */
                    a[i] = x, b[i] = y;
                } else {
                    const uint16_t hx = (uint16_t)rng_next(&s), hy = (uint16_t)rng_next(&s);
                    x = dt == DT_F16 ? fp_f16_to_f32(hx) : fp_bf16_to_f32(hx);
                    y = dt == DT_F16 ? fp_f16_to_f32(hy) : fp_bf16_to_f32(hy);
                    a[i] = float_of((uint32_t)hx << 16), b[i] = float_of((uint32_t)hy << 16);
                }
                want[i] = REF_BITS(expdif, dt, x, y);
            }
            cr_assert_gt(fast_run(OP_TROWEXPANDEXPDIF, dt, a, b, want, FAST_N), 0);
        }
}

/* TREM's floor modulo as the simulator computes it: fmod in double rounded to T, then `+= b` in T
 * when the signs differ (>= 0 tests) and the remainder is not 0. */
static uint32_t ref_rem_bits(DType dt, float a, float b) {
    float r = dt == DT_F32 ? RND(f32, fmod((double)a, (double)b))
              : dt == DT_F16 ? RND(f16, fmod((double)a, (double)b)) : RND(bf16, fmod((double)a, (double)b));
    if ((a >= 0.0f) != (b >= 0.0f) && r != 0.0f) r = dt == DT_F32 ? RND(f32, r + b) : dt == DT_F16 ? RND(f16, r + b) : RND(bf16, r + b);
    return dt == DT_F32 ? fbits_of(r) : dt == DT_F16 ? fp_f32_to_f16(r) : fp_f32_to_bf16(r);
}

/* TFMOD and TREM (exact where their fast form runs: elemfn.h, ef_fmod_fast): random pairs with
 * nearby and distant exponents, zeros of both signs, infinities, NaNs and subnormals. */
Test(elem_fast, tfmod_trem_match_libm_bit_for_bit, .timeout = 120) {
    const DType types[] = {DT_F32, DT_F16, DT_BF16};
    static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                                       0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 0x4e800000u};
    float a[FAST_N], b[FAST_N];
    uint32_t want_fmod[FAST_N], want_rem[FAST_N];
    uint64_t s = 7;
    int64_t fast_path = 0;
    for (int t = 0; t < 3; t++)
        for (int round = 0; round < 48; round++) {
            const DType dt = types[t];
            for (int i = 0; i < FAST_N; i++) {
                uint32_t ua = rng_next(&s), ub = rng_next(&s);
                if (dt == DT_F32) {
                    if (i % 3 == 1) ub = (ua & 0xff800000u) - ((rng_next(&s) % 24) << 23) + (ub & 0x807fffffu) - (ua & 0x80000000u);
                    if (i % 3 == 2) ub = (ua & 0xff800000u) + (ub & 0x807fffffu) - (ua & 0x80000000u);
                    if (i % 5 == 0) { /* a next to an integer multiple k < 2^29 of b */
                        const float fb = float_of(ub & 0xbfffffffu), k = (float)(rng_next(&s) % (1u << 29));
                        const float ka = (float)((double)k * (double)fb);
                        ua = fbits_of(ka) + (rng_next(&s) % 3) - 1, ub = fbits_of(fb);
                    }
                    if (i % 31 == 0) ua = special[rng_next(&s) % 10];
                    if (i % 37 == 0) ub = special[rng_next(&s) % 10];
                } else {
                    ua = ua << 16, ub = ub << 16; /* any 16-bit patterns */
                    if (i % 2) ub = (ua & 0xff800000u) + (ub & 0x807f0000u) - (ua & 0x80000000u); /* nearby, bf16 */
                    if (i % 2 && dt == DT_F16) ub = (ua & 0xfc000000u) + (ub & 0x83ff0000u) - (ua & 0x80000000u);
                }
                a[i] = float_of(ua), b[i] = float_of(ub);
                const float x = dt == DT_F32 ? a[i] : dt == DT_F16 ? fp_f16_to_f32((uint16_t)(ua >> 16)) : fp_bf16_to_f32((uint16_t)(ua >> 16));
                const float y = dt == DT_F32 ? b[i] : dt == DT_F16 ? fp_f16_to_f32((uint16_t)(ub >> 16)) : fp_bf16_to_f32((uint16_t)(ub >> 16));
                want_fmod[i] = REF_BITS(fmod, dt, x, y);
                want_rem[i] = ref_rem_bits(dt, x, y);
                fast_path += ef_fmod_fast(x, y) == ef_fmod_fast(x, y);
            }
            cr_assert_gt(fast_run(OP_TFMOD, dt, a, b, want_fmod, FAST_N), 0);
            cr_assert_gt(fast_run(OP_TREM, dt, a, b, want_rem, FAST_N), 0);
        }
    cr_assert_gt(fast_path, 3 * 48 * FAST_N / 2, "most pairs take the fast path (%lld)", (long long)fast_path);
}

/* TPOW f32 (fast form exp(b log a), elemfn.h ef_pow_approx): random positive bases with exponents
 * of every size, and the special cases the fast form hands to libm (a <= 0, Inf, NaN, b = +-Inf,
 * a = 1, b = 0, negative bases with integer exponents). */
Test(elem_fast, tpow_f32_matches_libm_bit_for_bit, .timeout = 120) {
    static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0x3f800000u,
                                       0xbf800000u, 0xc0000000u, 0x40400000u, 0x00000001u, 0x7f7fffffu, 0x3f000000u};
    float a[FAST_N], b[FAST_N];
    uint32_t want[FAST_N];
    uint64_t s = 11;
    for (int round = 0; round < 96; round++) {
        for (int i = 0; i < FAST_N; i++) {
            uint32_t ua = rng_next(&s) & 0x7fffffffu, ub = rng_next(&s);
            if (i % 2) ub = (ub & 0x807fffffu) | ((110u + rng_next(&s) % 40u) << 23); /* |b| in [2^-17, 2^13) */
            if (i % 3 == 0) ua = (ua & 0x007fffffu) | ((120u + rng_next(&s) % 16u) << 23); /* a in [2^-7, 2^9) */
            if (i % 29 == 0) ua = special[rng_next(&s) % 12];
            if (i % 31 == 0) ub = special[rng_next(&s) % 12];
            if (i % 37 == 0) ua |= 0x80000000u, ub = fbits_of((float)((int)(rng_next(&s) % 9) - 4)); /* (-a)^k */
            a[i] = float_of(ua), b[i] = float_of(ub);
            want[i] = REF_BITS(pow, DT_F32, a[i], b[i]);
        }
        cr_assert_gt(fast_run(OP_TPOW, DT_F32, a, b, want, FAST_N), 0);
    }
}
