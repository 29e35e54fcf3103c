/* kernels_tmpl.h - the seed kernels of one element type (TMULS is an elementwise-family kernel now), instantiated by kernels_isa.h once per
 * type (no include guard on purpose). Parameters, undefined again at the end:
 *   KT_NAME    suffix of the functions (f32, i16, ...)
 *   KT_T       storage type; KT_ES its size (for #if)
 *   KT_KIND    KT_FLOAT: computed in native f32 vectors (nvf, NL lanes) with KT_LOADN(p) and
 *              KT_STOREN(p, vp) (NL stored elements <-> the nvf at vp), KT_ROUNDN(vp) (*vp
 *              rounded to the type) and KT_LD(x) / KT_ST(x) (scalar widen / round)
 *              KT_INT: computed in native vectors KT_V of unsigned lanes KT_VE, scalars in KT_CT
 *   KT_MINMAX  (integers up to 32 bits) the lanes' suffix for KISA_VMAX / KISA_VMIN (epi8 ... epu32),
 *              where the variant has them
 *   KT_ROW16   (optional, f16) KT_ROW16(d, x, e, op, left): 16 elements of a row OP a float, wider
 *              than the native vectors (row-expand Mode 1)
 *   KT_PRODUCTS4 (optional, f16) KT_PRODUCTS4(out, row, n, cols): the products of 4 rows (n of them
 *              distinct) in native f16 arithmetic into float out[4], or false where the CPU lacks it
 *   KT_GROUPS  (optional) row folds (TROWPROD, TROWSUM...): groups of NL rows whose chains advance together
 *   KT_SCALAR_TAIL_ROWS (optional) row folds: rows left after the groups go one by one (where an
 *              NL-lane rounding costs more than NL scalar ones); else they form one last group */

#define KT_CAT2(a, b) a##_##b
#define KT_CAT(a, b) KT_CAT2(a, b)
#define KT_FN(name) KT_CAT(name, KT_NAME)

#if KT_KIND == KT_FLOAT
#define CT float                    /* scalar compute type */
#define VT nvf                      /* vector compute type */
#define LANES NL
#define LD(x) KT_LD(x)
#define ST(x) KT_ST(x)
#define ROUND(x) KT_LD(KT_ST(x))
#define VLD(p) KT_LOADN(p)
#define VST(p, v)                                                                                  \
    do {                                                                                           \
        const VT vst_ = (v);                                                                       \
        KT_STOREN((p), &vst_);                                                                     \
    } while (0)
#define VROUND(vp) KT_ROUNDN(vp)
#define SPLAT(x) splat_f(x)
#define SCALAR(k) ((k).f)
#else
#define CT KT_CT
#define VT KT_V
#define LANES (KISA_NATIVE_BYTES / KT_ES)
#define LD(x) ((CT)(x))
#define ST(x) ((KT_T)(x))           /* keeps the low bits (GCC/Clang two's complement) */
#define ROUND(x) (x)
#define VLD(p) KT_FN(vload)(p)
#define VST(p, v)                                                                                  \
    do {                                                                                           \
        const VT vst_ = (v);                                                                       \
        memcpy((p), &vst_, sizeof vst_);                                                           \
    } while (0)
#define VROUND(vp) (*(vp))
#define SPLAT(x) ((VT){0} + (KT_VE)(x))
#define SCALAR(k) ((CT)(k).u)

KINLINE VT KT_FN(vload)(const KT_T *p) {
    VT v;
    memcpy(&v, p, sizeof v);
    return v;
}

KINLINE KT_VHALF KT_FN(hload)(const KT_T *p) {
    KT_VHALF v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Half a vector at c when at least that many elements remain: dp[c..] = EXPR, an expression of
 * `hx` (the half vector at xp + c). */
#define HALF_STEP(dp, xp, c, cols, EXPR)                                                           \
    do {                                                                                           \
        if ((c) + LANES / 2 <= (cols)) {                                                           \
            const KT_VHALF hx = KT_FN(hload)((xp) + (c));                                           \
            const KT_VHALF h_ = (EXPR);                                                            \
            memcpy((dp) + (c), &h_, sizeof h_);                                                    \
            (c) += LANES / 2;                                                                      \
        }                                                                                          \
    } while (0)
#endif

#ifndef KT_GROUPS
#define KT_GROUPS 2
#endif

/* Elements of one 32-byte Mode-2 block, and native vectors per block. */
#define BLOCK (32 / KT_ES)
#define NBLK (BLOCK / LANES)
/* Element (r, c) of a tile, for the sequential reference loops. */
#define ELEM(t, r, c) (((KT_T *)(t).p)[(r) * (t).rs + (c) * (t).cs])
#if KT_KIND == KT_FLOAT
/* a OP b on vectors (VOP) or scalars (SOP). A product keeps a NaN a (EF_NAN_FIRST: the simulator's
 * `src0 * src1` returns its first NaN operand on x86; the commutative * leaves the operand order
 * to the compiler, which had kept the other NaN on the AVX2 path); a difference has its order. */
KINLINE nvf KT_FN(vop)(nvf a, nvf b, int op) {
    if (op == KOP_SUB) return a - b;
    const nvf p = a * b;
    return (nvf)nsel((nvi)(a != a), (nvu)(a + a), (nvu)p);
}
KINLINE float KT_FN(sop)(float a, float b, int op) { return op == KOP_SUB ? a - b : EF_NAN_FIRST(a, a * b); }
#define VOP(a, b, op) KT_FN(vop)(a, b, op)
#define SOP(a, b, op) KT_FN(sop)(a, b, op)
/* Whether a product with the expanded value(s) e needs the pinned order: only when e holds a NaN
 * (with one NaN operand the result is that NaN whatever the order), so rows without one run the
 * plain product (VOPU), at full speed. */
#define PIN_SCALAR(op, e) ((op) == KOP_MUL && (e) != (e))
#define PIN_VECTOR(op, v) ((op) == KOP_MUL && nv_any((nvi)((v) != (v))))
#else
/* a OP b on vectors or scalars alike. */
#define VOP(a, b, op) ((op) == KOP_SUB ? (a) - (b) : (a) * (b))
#define SOP(a, b, op) VOP(a, b, op)
#define PIN_SCALAR(op, e) ((void)(e), false)
#define PIN_VECTOR(op, v) ((void)(v), false)
#endif
#define VOPU(a, b, op) ((op) == KOP_SUB ? (a) - (b) : (a) * (b)) /* unpinned: no NaN in the expanded operand */

/* ---- TEXPANDS ------------------------------------------------------------------------------- */

static void KT_FN(fill)(KTile d, KScalar k, int64_t rows, int64_t cols) {
    const KT_T v = ST(SCALAR(k));
    fill_tile(d, &v, sizeof v, rows, cols);
}

/* ---- folds: TROWPROD, TROWSUM/TROWMAX/TROWMIN, TCOLSUM/TCOLMAX/TCOLMIN/TCOLPROD -------------- *
 * One step of a fold as the simulator computes it: products rounded to the type at every step;
 * row sums accumulated in f32 (f16/bf16 too) and rounded once at the end, column sums rounded at
 * every step (KFOLD_SUM_ROUNDED); max and min keep the accumulator unless the element is strictly
 * greater (smaller), so that the first of equal values stays and a NaN wins only as the first
 * element. Integers wrap, and compare as their own signed or unsigned type. */
#define KFOLD_SUM_ROUNDED KFOLD_COUNT
#define KT_SIGNED ((KT_T)-1 < (KT_T)1)

#if KT_KIND == KT_FLOAT
KINLINE nvf KT_FN(vfold)(nvf p, nvf x, int fold) {
    if (fold == KFOLD_PROD) {
        const nvf t = p * x;
        return VROUND(&t);
    }
    if (fold == KFOLD_SUM_ROUNDED) {
        const nvf t = p + x;
        return VROUND(&t);
    }
    if (fold == KFOLD_SUM) return p + x;
    if (fold == KFOLD_MAX) return (nvf)nsel(p < x, (nvu)x, (nvu)p);
    return (nvf)nsel(x < p, (nvu)x, (nvu)p);
}
/* The scalar step keeps a NaN accumulator (EF_NAN_FIRST: the simulator's `sum += x`, `prod * x`
 * put it first, and x86 returns the first NaN operand); the vector step leaves the order of its
 * commutative + and * to the compiler (a pinned step would lengthen the chain), so a NaN result
 * of a vector path is computed again with this one (fold_line). */
KINLINE CT KT_FN(sfold)(CT p, CT x, int fold) {
    if (fold == KFOLD_PROD) return ROUND(EF_NAN_FIRST(p, p * x));
    if (fold == KFOLD_SUM_ROUNDED) return ROUND(EF_NAN_FIRST(p, p + x));
    if (fold == KFOLD_SUM) return EF_NAN_FIRST(p, p + x);
    if (fold == KFOLD_MAX) return p < x ? x : p;
    return x < p ? x : p;
}
#else
KINLINE CT KT_FN(sfold)(CT p, CT x, int fold) {
    if (fold == KFOLD_PROD) return p * x;
    if (fold == KFOLD_SUM || fold == KFOLD_SUM_ROUNDED) return p + x;
    if (fold == KFOLD_MAX) return (KT_T)p < (KT_T)x ? x : p;
    return (KT_T)x < (KT_T)p ? x : p;
}
/* Lanes of the storage type itself (signed for a signed type), for max and min. */
typedef KT_T KT_FN(vlanes) __attribute__((vector_size(sizeof(VT))));
/* Max and min on vectors of lanes of the type's width, compared as the type (one vpmaxsd for i32). */
KINLINE VT KT_FN(vfold)(VT p, VT x, int fold) {
    if (fold == KFOLD_PROD) return p * x;
    if (fold == KFOLD_SUM || fold == KFOLD_SUM_ROUNDED) return p + x;
#if defined(KISA_VMAX) && defined(KT_MINMAX)
    return fold == KFOLD_MAX ? KISA_VMAX(KT_MINMAX, p, x) : KISA_VMIN(KT_MINMAX, p, x);
#endif
    const KT_FN(vlanes) sp = (KT_FN(vlanes))p, sx = (KT_FN(vlanes))x;
    const VT m = (VT)(fold == KFOLD_MAX ? sp < sx : sx < sp);
    return (m & x) | (~m & p);
}
#endif
/* The fold's first accumulator: 1 for products, 0 for sums; max and min start from element 0. */
#define FOLD_INIT(fold) ((fold) == KFOLD_PROD ? 1 : 0)
#define FOLD_FROM_FIRST(fold) ((fold) == KFOLD_MAX || (fold) == KFOLD_MIN)

/* The fold's result q stored as the type: an f16/bf16 max or min that is a NaN (element 0 was
 * one) keeps element 0's bits, which the conversion would have made quiet. */
KINLINE KT_T KT_FN(fold_out)(CT q, const KT_T *first, int fold) {
#if KT_KIND == KT_FLOAT && KT_ES == 2
    if (FOLD_FROM_FIRST(fold) && q != q) return *first;
#else
    (void)first, (void)fold;
#endif
    return ST(q);
}

/* The fold of n elements at p, p + step, ... in the sequential order, as stored. */
static inline KT_T KT_FN(fold_line)(const KT_T *p, int64_t step, int64_t n, int fold) {
    CT q = FOLD_FROM_FIRST(fold) ? LD(p[0]) : (CT)FOLD_INIT(fold);
    for (int64_t i = FOLD_FROM_FIRST(fold); i < n; i++) q = KT_FN(sfold)(q, LD(p[i * step]), fold);
    return KT_FN(fold_out)(q, p, fold);
}

#if KT_KIND == KT_FLOAT
/* The NaN lanes of fold_fix_lanes's v, out of line (NaNs are rare). */
static __attribute__((noinline, cold)) void KT_FN(fold_fix_nan_lanes)(nvf v, KT_T *to, int64_t step, int64_t k, const KT_T *s,
                                                                    int64_t line_step, int64_t elem_step, int64_t len, int fold) {
    float lane[NL];
    memcpy(lane, &v, sizeof lane);
    for (int64_t j = 0; j < k; j++) {
        if (lane[j] == lane[j]) continue;
        const KT_T *line = s + j * line_step;
        to[j * step] = FOLD_FROM_FIRST(fold) ? line[0] : KT_FN(fold_line)(line, elem_step, len, fold);
    }
}
#endif

/* A vector path's results v, k <= NL of them, just stored at to[0], to[step], ... (line j of s,
 * its len elements elem_step apart, starts at s + j * line_step): a NaN lane is made the
 * sequential fold's. A sum or product is computed again (the vector step may have kept the other
 * of two NaNs); an f16/bf16 max or min takes element 0's bits (fold_out). One compare per vector. */
KINLINE void KT_FN(fold_fix_lanes)(VT v, KT_T *to, int64_t step, int64_t k, const KT_T *s, int64_t line_step, int64_t elem_step,
                                   int64_t len, int fold) {
#if KT_KIND == KT_FLOAT
    if (FOLD_FROM_FIRST(fold) && KT_ES == 4) return; /* the selections keep f32 NaNs exactly */
    if (nv_any((nvi)(v != v))) KT_FN(fold_fix_nan_lanes)(v, to, step, k, s, line_step, elem_step, len, fold);
#else
    (void)v, (void)to, (void)step, (void)k, (void)s, (void)line_step, (void)elem_step, (void)len, (void)fold;
#endif
}

/* The sequential reference: each row (or column) left to right (top to bottom), every element
 * read before any result is written (columns a chunk at a time). */
static void KT_FN(fold_reference)(KTile d, KTile s, int64_t rows, int64_t cols, int fold, bool columns) {
    if (!columns) {
        for (int64_t r = 0; r < rows; r++) {
            CT q = FOLD_FROM_FIRST(fold) ? LD(ELEM(s, r, 0)) : (CT)FOLD_INIT(fold);
            for (int64_t c = FOLD_FROM_FIRST(fold); c < cols; c++) q = KT_FN(sfold)(q, LD(ELEM(s, r, c)), fold);
            ELEM(d, r, 0) = KT_FN(fold_out)(q, &ELEM(s, r, 0), fold);
        }
        return;
    }
    for (int64_t c0 = 0; c0 < cols; c0 += FOLD_REF_CHUNK) {
        const int64_t n = cols - c0 < FOLD_REF_CHUNK ? cols - c0 : FOLD_REF_CHUNK;
        CT q[FOLD_REF_CHUNK];
        for (int64_t j = 0; j < n; j++) q[j] = FOLD_FROM_FIRST(fold) ? LD(ELEM(s, 0, c0 + j)) : (CT)FOLD_INIT(fold);
        for (int64_t r = FOLD_FROM_FIRST(fold); r < rows; r++)
            for (int64_t j = 0; j < n; j++) q[j] = KT_FN(sfold)(q[j], LD(ELEM(s, r, c0 + j)), fold);
        KT_T out[FOLD_REF_CHUNK]; /* every result before any is written (fold_out may read src) */
        for (int64_t j = 0; j < n; j++) out[j] = KT_FN(fold_out)(q[j], &ELEM(s, 0, c0 + j), fold);
        for (int64_t j = 0; j < n; j++) ELEM(d, 0, c0 + j) = out[j];
    }
}

#if KT_KIND == KT_INT && KT_ES <= 4
/* NL elements zero-extended to 32-bit lanes (only the low KT_ES bytes of a product or sum matter). */
KINLINE nvu KT_FN(loadw)(const KT_T *p) {
#if KT_ES == 4
    nvu v;
    memcpy(&v, p, sizeof v);
    return v;
#elif KT_ES == 2
    return KISA_WIDEN_U16(load_nvh((const uint16_t *)p));
#else
    nvb b;
    memcpy(&b, p, sizeof b);
    return __builtin_convertvector(b, nvu);
#endif
}
#endif

#if KT_KIND == KT_INT && KT_ES <= 4
/* Max and min of narrow signed types compare their zero-extended lanes as unsigned numbers, with
 * the sign bit flipped (WFOLD_BIAS, undone on the way out); 32-bit lanes compare as the type. */
#define WFOLD_BIAS(fold) (FOLD_FROM_FIRST(fold) && KT_SIGNED && KT_ES < 4 ? 1u << (8 * KT_ES - 1) : 0u)
/* A fold step on 32-bit lanes holding zero-extended (max, min: biased) elements. */
KINLINE nvu KT_FN(wfold)(nvu p, nvu x, int fold) {
    if (fold == KFOLD_PROD) return p * x;
    if (fold == KFOLD_SUM || fold == KFOLD_SUM_ROUNDED) return p + x;
#ifdef KISA_VMAX
    if (KT_ES == 4 && KT_SIGNED) return fold == KFOLD_MAX ? KISA_VMAX(epi32, p, x) : KISA_VMIN(epi32, p, x);
    return fold == KFOLD_MAX ? KISA_VMAX(epu32, p, x) : KISA_VMIN(epu32, p, x);
#endif
    if (KT_ES == 4 && KT_SIGNED) return nsel(fold == KFOLD_MAX ? (nvi)p < (nvi)x : (nvi)x < (nvi)p, x, p);
    return nsel(fold == KFOLD_MAX ? p < x : x < p, x, p);
}
#endif

#if KT_KIND == KT_FLOAT || KT_ES <= 4
/* Rows r0 .. r0 + n - 1 of s (n <= NL * G) as G groups of NL lanes, one row per lane. Each NL x NL
 * block is transposed so that one vector holds one column of NL rows. Floats fold the columns
 * left to right: per lane exactly the sequential order, and the G chains advance in step so that
 * their latencies overlap. Integers (up to 32 bits, widened to 32-bit lanes) fold in any order:
 * products and sums modulo 2^32 keep the same low bits, max and min the same element; the rows
 * accumulate their column blocks first and the NL accumulators are transposed once at the end.
 * With `clamp` (the last, partial group) lanes past n repeat row n - 1 and are not stored. */
KINLINE void KT_FN(rowfold_group)(KTile d, KTile s, int64_t r0, int64_t n, int64_t cols, int G, bool clamp, int fold) {
    const KT_T *base = (const KT_T *)s.p + r0 * s.rs;
    const int64_t rs = s.rs;
#define GROW(j) (base + (clamp && (j) >= n ? n - 1 : (j)) * rs)
    int64_t c = 0;
#if KT_KIND == KT_FLOAT
    nvf p[KT_GROUPS];
#pragma GCC unroll 4
    for (int g = 0; g < G; g++) p[g] = SPLAT((float)FOLD_INIT(fold));
    for (; c + NL <= cols; c += NL) {
        nvu x[KT_GROUPS][NL];
#pragma GCC unroll 4
        for (int g = 0; g < G; g++) {
#pragma GCC unroll 8
            for (int j = 0; j < NL; j++) x[g][j] = (nvu)VLD(GROW(NL * g + j) + c);
            transpose_nv(x[g]);
            if (FOLD_FROM_FIRST(fold) && c == 0) p[g] = (nvf)x[g][0];
        }
#pragma GCC unroll 8
        for (int j = 0; j < NL; j++)
#pragma GCC unroll 4
            for (int g = 0; g < G; g++) p[g] = KT_FN(vfold)(p[g], (nvf)x[g][j], fold);
    }
#else
    /* max (min) starts below (above) every element as wfold compares them: the least 32-bit lane,
     * unsigned or signed (i32); narrow signed lanes are biased */
    const uint32_t bias = WFOLD_BIAS(fold), least = KT_ES == 4 && KT_SIGNED ? 0x80000000u : 0u;
    const uint32_t init = fold == KFOLD_MAX ? least : fold == KFOLD_MIN ? least - 1u : (uint32_t)FOLD_INIT(fold);
    nvu p[KT_GROUPS];
#pragma GCC unroll 4
    for (int g = 0; g < G; g++) {
        nvu acc[NL];
#pragma GCC unroll 8
        for (int j = 0; j < NL; j++) acc[j] = (nvu){0} + init;
        for (c = 0; c + NL <= cols; c += NL)
#pragma GCC unroll 8
            for (int j = 0; j < NL; j++) acc[j] = KT_FN(wfold)(acc[j], KT_FN(loadw)(GROW(NL * g + j) + c) ^ bias, fold);
        transpose_nv(acc);
        p[g] = acc[0];
#pragma GCC unroll 8
        for (int j = 1; j < NL; j++) p[g] = KT_FN(wfold)(p[g], acc[j], fold);
        p[g] ^= bias;
    }
#endif
#if KT_KIND == KT_FLOAT || KT_ES == 4
    if (c == cols) { /* no tail columns: NL lanes at once where the destination allows */
        for (int g = 0; g < G; g++) {
            KT_T out[NL];
            const bool direct = d.rs == 1 && n >= NL * (g + 1); /* DN destination: rows side by side */
            KT_T *to = direct ? (KT_T *)d.p + r0 + NL * g : out;
            VST(to, p[g]);
            KT_FN(fold_fix_lanes)(p[g], to, 1, n - NL * g < NL ? n - NL * g : NL, base + NL * g * rs, rs, 1, cols, fold);
            if (direct) continue;
#pragma GCC unroll 8
            for (int j = 0; j < NL; j++)
                if (NL * g + j < n) ELEM(d, r0 + NL * g + j, 0) = out[j];
        }
        return;
    }
#endif
    for (int g = 0; g < G; g++) { /* tail columns: each lane goes on alone, still left to right */
        CT lane[NL];
        memcpy(lane, &p[g], sizeof lane);
        for (int j = 0; j < NL && NL * g + j < n; j++) {
            const KT_T *rp = GROW(NL * g + j);
            CT q = FOLD_FROM_FIRST(fold) && c == 0 ? LD(rp[0]) : (CT)lane[j];
            for (int64_t cc = c; cc < cols; cc++) q = KT_FN(sfold)(q, LD(rp[cc]), fold);
#if KT_KIND == KT_FLOAT
            if (q != q && !FOLD_FROM_FIRST(fold)) { /* the lane's vector steps may have kept the other NaN */
                ELEM(d, r0 + NL * g + j, 0) = KT_FN(fold_line)(rp, 1, cols, fold);
                continue;
            }
#endif
            ELEM(d, r0 + NL * g + j, 0) = KT_FN(fold_out)(q, rp, fold);
        }
    }
#undef GROW
}
#endif

#ifdef KT_ROUND4
/* Rows r0 .. r0 + n - 1 (n <= 4) of a product fold as one chain of 4-lane vectors, one row per
 * lane (lanes past n repeat row n - 1 and are not stored), each 4 x 4 block transposed so that a
 * vector holds one column (one row: its elements broadcast): per lane exactly the sequential
 * order. A product chain is bound by its latency. For f16, the 16-byte conversion pair of the
 * rounding is shorter than the NL-lane group's 32-byte one (on the development machine a step of
 * 9 cycles against 14); for f32, the steps are the same, but the group's transposes took ports from
 * the chain (5% on one row of 16384). A NaN result is computed again in the sequential order, as
 * after the groups (fold_fix_lanes). Where the variant has native f16 products (KT_PRODUCTS4, asked
 * per call) they take the f16 rows instead. */
KINLINE void KT_FN(rowprod4_chain)(float lane[4], const KT_T *const row[4], int64_t n, int64_t cols) {
    nvf4 p = {1.0f, 1.0f, 1.0f, 1.0f};
    int64_t c = 0;
    if (n == 1)
        for (; c + 4 <= cols; c += 4) {
            const nvu4 x = (nvu4)KT_LOAD4(row[0] + c);
            p = KT_ROUND4(p * (nvf4)KSHUF4(x, x, 0, 0, 0, 0));
            p = KT_ROUND4(p * (nvf4)KSHUF4(x, x, 1, 1, 1, 1));
            p = KT_ROUND4(p * (nvf4)KSHUF4(x, x, 2, 2, 2, 2));
            p = KT_ROUND4(p * (nvf4)KSHUF4(x, x, 3, 3, 3, 3));
        }
    for (; c + 4 <= cols; c += 4) {
        const nvu4 x0 = (nvu4)KT_LOAD4(row[0] + c), x1 = (nvu4)KT_LOAD4(row[1] + c);
        const nvu4 x2 = (nvu4)KT_LOAD4(row[2] + c), x3 = (nvu4)KT_LOAD4(row[3] + c);
        const nvu4 t0 = KSHUF4(x0, x1, 0, 4, 1, 5), t1 = KSHUF4(x0, x1, 2, 6, 3, 7);
        const nvu4 t2 = KSHUF4(x2, x3, 0, 4, 1, 5), t3 = KSHUF4(x2, x3, 2, 6, 3, 7);
        p = KT_ROUND4(p * (nvf4)KSHUF4(t0, t2, 0, 1, 4, 5));
        p = KT_ROUND4(p * (nvf4)KSHUF4(t0, t2, 2, 3, 6, 7));
        p = KT_ROUND4(p * (nvf4)KSHUF4(t1, t3, 0, 1, 4, 5));
        p = KT_ROUND4(p * (nvf4)KSHUF4(t1, t3, 2, 3, 6, 7));
    }
    for (; c < cols; c++) {
        const nvf4 x = {LD(row[0][c]), LD(row[1][c]), LD(row[2][c]), LD(row[3][c])};
        p = KT_ROUND4(p * x);
    }
    memcpy(lane, &p, sizeof(float[4]));
}

KINLINE void KT_FN(rowprod_narrow)(KTile d, KTile s, int64_t r0, int64_t n, int64_t cols) {
    const KT_T *row[4];
    for (int j = 0; j < 4; j++) row[j] = (const KT_T *)s.p + (r0 + (j < n ? j : n - 1)) * s.rs;
    float lane[4];
#ifdef KT_PRODUCTS4
    if (!KT_PRODUCTS4(lane, row, n, cols))
#endif
        KT_FN(rowprod4_chain)(lane, row, n, cols);
    for (int j = 0; j < n; j++)
        ELEM(d, r0 + j, 0) = lane[j] == lane[j] ? ST(lane[j]) : KT_FN(fold_line)(row[j], 1, cols, KFOLD_PROD);
}
#endif

/* The fold of the n elements at p in any order (for an order-free fold): four vector accumulators
 * from a0, then their lanes, then the tail. */
KINLINE CT KT_FN(row_fold_from)(const KT_T *p, int64_t n, int fold, VT a0) {
    VT a1 = a0, a2 = a0, a3 = a0;
    int64_t c = 0;
    for (; c + 4 * LANES <= n; c += 4 * LANES) {
        a0 = KT_FN(vfold)(a0, VLD(p + c), fold);
        a1 = KT_FN(vfold)(a1, VLD(p + c + LANES), fold);
        a2 = KT_FN(vfold)(a2, VLD(p + c + 2 * LANES), fold);
        a3 = KT_FN(vfold)(a3, VLD(p + c + 3 * LANES), fold);
    }
    for (; c + LANES <= n; c += LANES) a0 = KT_FN(vfold)(a0, VLD(p + c), fold);
    a0 = KT_FN(vfold)(KT_FN(vfold)(a0, a1, fold), KT_FN(vfold)(a2, a3, fold), fold);
    __typeof__(a0[0]) lane[LANES];
    memcpy(lane, &a0, sizeof lane);
    CT q = lane[0];
    for (int i = 1; i < LANES; i++) q = KT_FN(sfold)(q, lane[i], fold);
    for (; c < n; c++) q = KT_FN(sfold)(q, LD(p[c]), fold);
    return q;
}

#if KT_KIND == KT_INT
/* The fold of n elements of an integer row (any order gives the same value). */
KINLINE CT KT_FN(row_fold)(const KT_T *p, int64_t n, int fold) {
    return KT_FN(row_fold_from)(p, n, fold, SPLAT(FOLD_FROM_FIRST(fold) ? (KT_VE)p[0] : (KT_VE)FOLD_INIT(fold)));
}
#endif

#if KT_KIND == KT_FLOAT
/* The max (min) of n >= 1 elements of a float row as the sequential fold selects it, computed in
 * any order: the first element equal to the largest (smallest) value that is not a NaN, or element
 * 0 if it is a NaN (nothing compares greater than a NaN accumulator, and a NaN element never
 * compares greater). The value decides the element's bits, except for a zero extreme (+0 == -0):
 * the sequential fold then finds the first zero's sign. The accumulators start at element 0,
 * which is not a NaN, so they never hold one. */
KINLINE KT_T KT_FN(row_extreme)(const KT_T *p, int64_t n, int fold) {
    const CT x0 = LD(p[0]);
    if (x0 != x0) return p[0];
    const CT q = KT_FN(row_fold_from)(p, n, fold, SPLAT(x0));
    return q == 0 ? KT_FN(fold_line)(p, 1, n, fold) : ST(q);
}

/* Whether m rows of a float max or min fold faster one at a time across their columns
 * (row_extreme) than as the lanes of a group, whose chains take about 4 cycles per column
 * whatever m (the latency of a compare and a select); a row costs its vectors and about 32
 * cycles of reduction across the lanes. */
#define ROWS_EXTREME_PAY(m, cols) ((m) * ((cols) / NL + 32) < 4 * (cols))
#endif

/* dst(r, 0) = the fold of src(r, 0 .. cols - 1), r < rows. */
KINLINE void KT_FN(trowfold)(KTile d, KTile s, int64_t rows, int64_t cols, int fold) {
    if (rows <= 0 || cols <= 0) return;
    if (s.cs != 1 || !spans_disjoint(d, rows, 1, s, rows, cols, KT_ES)) {
        KT_FN(fold_reference)(d, s, rows, cols, fold, false);
        return;
    }
    int64_t r = 0;
#if KT_KIND == KT_FLOAT
    if (FOLD_FROM_FIRST(fold) && ROWS_EXTREME_PAY(rows < NL * KT_GROUPS ? rows : NL * KT_GROUPS, cols)) {
        for (; r < rows; r++) ELEM(d, r, 0) = KT_FN(row_extreme)((const KT_T *)s.p + r * s.rs, cols, fold);
        return;
    }
#endif
#if KT_KIND == KT_FLOAT || KT_ES <= 4
    for (; rows - r >= NL * KT_GROUPS; r += NL * KT_GROUPS)
        KT_FN(rowfold_group)(d, s, r, NL * KT_GROUPS, cols, KT_GROUPS, false, fold);
    for (; rows - r >= NL; r += NL) KT_FN(rowfold_group)(d, s, r, NL, cols, 1, false, fold);
#endif
#if KT_KIND == KT_FLOAT && KISA_NATIVE_BYTES >= 32 && !defined(KT_SCALAR_TAIL_ROWS)
#ifdef KT_ROUND4
    if (fold == KFOLD_PROD && r < rows && rows - r <= 4) {
        KT_FN(rowprod_narrow)(d, s, r, rows - r, cols);
        return;
    }
#endif
    if (r < rows) KT_FN(rowfold_group)(d, s, r, rows - r, cols, 1, true, fold);
#elif KT_KIND == KT_FLOAT
    if (r < rows) KT_FN(fold_reference)(ktile_at(d, r, 0, KT_ES), ktile_at(s, r, 0, KT_ES), rows - r, cols, fold, false);
#else
    for (; r < rows; r++) ELEM(d, r, 0) = ST(KT_FN(row_fold)((const KT_T *)s.p + r * s.rs, cols, fold));
#endif
}

/* dst(0, c) = the fold of src(0 .. rows - 1, c), c < cols: the columns side by side, four
 * vectors of them at a time, each column top to bottom (the order of every column's chain is the
 * sequential one). */
KINLINE void KT_FN(tcolfold)(KTile d, KTile s, int64_t rows, int64_t cols, int fold) {
    if (rows <= 0 || cols <= 0) return;
    if (s.cs != 1 || d.cs != 1 || !spans_disjoint(d, 1, cols, s, rows, cols, KT_ES)) {
        KT_FN(fold_reference)(d, s, rows, cols, fold, true);
        return;
    }
    const int from = FOLD_FROM_FIRST(fold);
    KT_T *dp = (KT_T *)d.p;
    int64_t c = 0;
    for (; c + 4 * LANES <= cols; c += 4 * LANES) {
        const KT_T *sp = (const KT_T *)s.p + c;
        VT a[4];
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++) a[q] = from ? VLD(sp + q * LANES) : SPLAT(FOLD_INIT(fold));
        for (int64_t r = from; r < rows; r++)
#pragma GCC unroll 4
            for (int q = 0; q < 4; q++) a[q] = KT_FN(vfold)(a[q], VLD(sp + r * s.rs + q * LANES), fold);
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++) {
            VST(dp + c + q * LANES, a[q]);
            KT_FN(fold_fix_lanes)(a[q], dp + c + q * LANES, 1, LANES, sp + q * LANES, 1, s.rs, rows, fold);
        }
    }
    for (; c + LANES <= cols; c += LANES) {
        const KT_T *sp = (const KT_T *)s.p + c;
        VT a = from ? VLD(sp) : SPLAT(FOLD_INIT(fold));
        for (int64_t r = from; r < rows; r++) a = KT_FN(vfold)(a, VLD(sp + r * s.rs), fold);
        VST(dp + c, a);
        KT_FN(fold_fix_lanes)(a, dp + c, 1, LANES, sp, 1, s.rs, rows, fold);
    }
    if (c < cols) KT_FN(fold_reference)(ktile_at(d, 0, c, KT_ES), ktile_at(s, 0, c, KT_ES), rows, cols - c, fold, true);
}

#define KT_FOLD_FNS(fold, name)                                                                    \
    static void KT_FN(trow##name)(KTile d, KTile s, int64_t rows, int64_t cols) { KT_FN(trowfold)(d, s, rows, cols, fold); } \
    static void KT_FN(tcol##name)(KTile d, KTile s, int64_t rows, int64_t cols) {                  \
        KT_FN(tcolfold)(d, s, rows, cols, fold == KFOLD_SUM ? KFOLD_SUM_ROUNDED : fold);           \
    }
KT_FOLD_FNS(KFOLD_SUM, sum)
KT_FOLD_FNS(KFOLD_MAX, max)
KT_FOLD_FNS(KFOLD_MIN, min)
KT_FOLD_FNS(KFOLD_PROD, prod)
#undef KT_FOLD_FNS
#undef FOLD_INIT
#undef FOLD_FROM_FIRST
#undef KT_SIGNED
#undef KFOLD_SUM_ROUNDED
#undef ROWS_EXTREME_PAY
#undef WFOLD_BIAS

/* ---- TROWEXPAND / TCOLEXPAND: element bits copied ---------------------------------------- *
 * dst(r, c) = src(r, 0) or src(0, c); each element is read when it is written, in row order, so
 * that a dst overlapping src sees what an element-by-element copy gives. Rows of unit stride 16,
 * 32, 64, 128 or 256 bytes wide (a 16x16 or 2048x8 tile's) take a loop of that constant width, which
 * the compiler turns into whole-vector stores: the row loop is then the whole cost. */
#define BCAST_WIDTHS(W, BODY, OTHER)                                                               \
    do {                                                                                           \
        switch (cols * KT_ES) {                                                                    \
        case 16: { enum { W = 16 / KT_ES }; BODY; } return;                                   \
        case 32: { enum { W = 32 / KT_ES }; BODY; } return;                                   \
        case 64: { enum { W = 64 / KT_ES }; BODY; } return;                                   \
        case 128: { enum { W = 128 / KT_ES }; BODY; } return;                                 \
        case 256: { enum { W = 256 / KT_ES }; BODY; } return;                                 \
        default: { OTHER; } return;                                                                \
        }                                                                                          \
    } while (0)

/* dst rows o (stride drs elements) of w elements: row r all v(r) = s[r * srs]. */
#define BCAST_ROWS_LOOP(w)                                                                         \
    for (int64_t r = 0; r < rows; r++) {                                                           \
        const KT_T v = sp[r * srs];                                                                \
        KT_T *o = dp + r * drs;                                                                    \
        for (int64_t c = 0; c < (w); c++) o[c] = v;                                                \
    }

/* With AVX-512, contiguous dst rows of 32 bytes apart from src go two to a 64-byte register (a
 * 16x16 f16 tile in 8 stores, not 16: TROWEXPAND f16 16x16 11.5 -> 9.3 ns). Only there: with AVX2's
 * 32-byte registers the pairs were slower, and so were pairs of narrower rows. */
#if defined(__AVX512F__)
#define BCAST_ROWS_PAIRS(w)                                                                        \
    if ((w) * KT_ES == 32 && drs == (w) && rows > 0 && spans_disjoint(d, rows, cols, s, rows, 1, KT_ES)) { \
        int64_t r = 0;                                                                             \
        for (; r + 2 <= rows; r += 2) {                                                            \
            const KT_T a = sp[r * srs], b = sp[(r + 1) * srs];                                     \
            KT_T two[2 * (w)];                                                                     \
            for (int c = 0; c < 2 * (w); c++) two[c] = c < (w) ? a : b;                            \
            memcpy(dp + r * (w), two, sizeof two);                                                 \
        }                                                                                          \
        if (r < rows)                                                                              \
            for (int c = 0; c < (w); c++) dp[r * (w) + c] = sp[r * srs];                           \
        return;                                                                                    \
    }
#else
#define BCAST_ROWS_PAIRS(w)
#endif

static void KT_FN(broadcast_rows)(KTile d, KTile s, int64_t rows, int64_t cols) {
    const KT_T *sp = (const KT_T *)s.p;
    KT_T *dp = (KT_T *)d.p;
    const int64_t srs = s.rs, drs = d.rs;
    if (d.cs == 1) BCAST_WIDTHS(W, BCAST_ROWS_PAIRS(W) BCAST_ROWS_LOOP(W), BCAST_ROWS_LOOP(cols));
    for (int64_t r = 0; r < rows; r++) {
        const KT_T v = sp[r * srs];
        for (int64_t c = 0; c < cols; c++) dp[r * drs + c * d.cs] = v;
    }
}

/* dst rows of w elements (a constant), each a copy of the source row (which no dst element
 * overlaps) held in a local copy: in registers. */
#define BCAST_COLS_LOOP(w)                                                                         \
    KT_T row[w];                                                                                   \
    memcpy(row, sp, sizeof row);                                                                   \
    for (int64_t r = 0; r < rows; r++) memcpy(dp + r * drs, row, sizeof row);
#define BCAST_COLS_ANY(w)                                                                          \
    for (int64_t r = 0; r < rows; r++) memcpy(dp + r * drs, sp, (size_t)(w) * KT_ES);

static void KT_FN(broadcast_cols)(KTile d, KTile s, int64_t rows, int64_t cols) {
    const KT_T *sp = (const KT_T *)s.p;
    KT_T *dp = (KT_T *)d.p;
    const int64_t drs = d.rs;
    if (d.cs == 1 && s.cs == 1 && rows > 0 && cols > 0 && spans_disjoint(d, rows, cols, s, 1, cols, KT_ES))
        BCAST_WIDTHS(W, BCAST_COLS_LOOP(W), BCAST_COLS_ANY(cols));
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) dp[r * drs + c * d.cs] = sp[c * s.cs];
}
#undef BCAST_ROWS_LOOP
#undef BCAST_ROWS_PAIRS
#undef BCAST_COLS_LOOP
#undef BCAST_COLS_ANY

/* ---- TROWEXPANDMUL / TROWEXPANDSUB ---------------------------------------------------------- */

/* Mode 1 on nb <= 8 rows from dp, xp: dst(j, c) = x(j, c) OP ev[j] (or ev[j] OP x(j, c) when
 * `left`). `pinned` (a constant in each call): some ev[j] may need the pinned product (PIN_SCALAR);
 * without it the rows carry no per-row test, which at 16x16 is most of the row's cost. */
KINLINE void KT_FN(rowexpand_mode1_rows)(KT_T *dp, const KT_T *xp, int64_t drs, int64_t xrs, const CT *ev,
                                         int64_t nb, int64_t cols, int op, bool left, bool pinned) {
    if (cols == LANES && nb == 8) { /* tall thin: one vector per row, 8 rows unrolled */
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++, dp += drs, xp += xrs) {
            VT evec = SPLAT(ev[j]), xv = VLD(xp);
            VT r = left ? VOPU(evec, xv, op) : VOPU(xv, evec, op);
            if (pinned && PIN_SCALAR(op, ev[j])) r = left ? VOP(evec, xv, op) : VOP(xv, evec, op);
            VST(dp, r);
        }
        return;
    }
#if KT_KIND == KT_INT
    if (cols == LANES / 2 && nb == 8) { /* the same with half a vector per row */
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++, dp += drs, xp += xrs) {
            int64_t c = 0;
            const KT_VE es = (KT_VE)ev[j];
            HALF_STEP(dp, xp, c, cols, left ? VOP(es, hx, op) : VOP(hx, es, op));
        }
        return;
    }
#endif
#pragma GCC unroll 1 /* unrolled, each row kept its own pointers: spilled, and slower (f16 16x16) */
    for (int64_t j = 0; j < nb; j++, dp += drs, xp += xrs) {
        const CT es = ev[j];
        const VT evec = SPLAT(es);
        const bool pin = pinned && PIN_SCALAR(op, es);
        int64_t c = 0;
#ifdef KT_ROW16
        if (!pin && cols % 16 == 0) { /* (a 16-wide loop before the others drew a false -Waggressive-loop-optimizations) */
            for (int64_t c16 = 0; c16 < cols; c16 += 16) KT_ROW16(dp + c16, xp + c16, es, op, left);
            continue;
        }
#endif
#pragma GCC unroll 4
        for (; c + LANES <= cols; c += LANES) {
            VT xv = VLD(xp + c);
            VT r = left ? VOPU(evec, xv, op) : VOPU(xv, evec, op);
            if (pin) r = left ? VOP(evec, xv, op) : VOP(xv, evec, op);
            VST(dp + c, r);
        }
#if KT_KIND == KT_INT
        HALF_STEP(dp, xp, c, cols, left ? VOP((KT_VE)es, hx, op) : VOP(hx, (KT_VE)es, op));
#endif
        for (; c < cols; c++) dp[c] = ST(left ? SOP(es, LD(xp[c]), op) : SOP(LD(xp[c]), es, op));
    }
}

/* Mode 1: dst(r, c) = x(r, c) OP e(r) (or e(r) OP x(r, c) when `left`), rows of unit stride. The
 * per-row values are read 8 at a time (vector conversions for f16/bf16), and one test of the 8
 * decides whether any of them needs the pinned product. */
KINLINE void KT_FN(rowexpand_mode1_w)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols, int op, bool left) {
    for (int64_t r0 = 0; r0 < rows; r0 += 8) {
        const int64_t nb = rows - r0 < 8 ? rows - r0 : 8;
        const KT_T *ep = (const KT_T *)e.p + r0 * e.rs;
        CT ev[8] = {0}; /* (filled below; GCC 12 cannot tell once the rows branch on a NaN) */
#if KT_KIND == KT_FLOAT
        if (e.rs == 1 && nb == 8) {
            for (int q = 0; q < 8; q += LANES) {
                VT v = VLD(ep + q);
                memcpy(ev + q, &v, sizeof v);
            }
        } else
#endif
        {
            for (int64_t j = 0; j < nb; j++) ev[j] = LD(ep[j * e.rs]);
        }
        bool pinned = false; /* ev[nb..7] are 0: no NaN */
#if KT_KIND == KT_FLOAT
        for (int q = 0; q < 8; q += LANES) { /* a vector test (eight scalar ones cost f16 16x16 2 ns) */
            VT v;
            memcpy(&v, ev + q, sizeof v);
            pinned |= PIN_VECTOR(op, v);
        }
#endif
        KT_T *dp = (KT_T *)d.p + r0 * d.rs;
        const KT_T *xp = (const KT_T *)x.p + r0 * x.rs;
        if (pinned) KT_FN(rowexpand_mode1_rows)(dp, xp, d.rs, x.rs, ev, nb, cols, op, left, true);
        else KT_FN(rowexpand_mode1_rows)(dp, xp, d.rs, x.rs, ev, nb, cols, op, left, false);
    }
}

/* Mode 1 with rows of 32, 64 or 128 bytes at a constant width (whole vectors per row). */
KINLINE void KT_FN(rowexpand_mode1)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols, int op, bool left) {
    switch (cols * KT_ES) {
    case 32: KT_FN(rowexpand_mode1_w)(d, x, e, rows, 32 / KT_ES, op, left); return;
    case 64: KT_FN(rowexpand_mode1_w)(d, x, e, rows, 64 / KT_ES, op, left); return;
    case 128: KT_FN(rowexpand_mode1_w)(d, x, e, rows, 128 / KT_ES, op, left); return;
    default: KT_FN(rowexpand_mode1_w)(d, x, e, rows, cols, op, left); return;
    }
}

/* Mode 2: dst(r, c) = x(r, c) OP e(r, c mod BLOCK) (or the other order): the row's block is
 * loaded once and applied to every BLOCK-wide piece of the row. */
KINLINE void KT_FN(rowexpand_mode2)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols, int op, bool left) {
    for (int64_t r = 0; r < rows; r++) {
        KT_T *dp = (KT_T *)d.p + r * d.rs;
        const KT_T *xp = (const KT_T *)x.p + r * x.rs, *ep = (const KT_T *)e.p + r * e.rs;
        VT blk[NBLK];
        bool pin = false;
        for (int q = 0; q < NBLK; q++) {
            blk[q] = VLD(ep + q * LANES);
            pin |= PIN_VECTOR(op, blk[q]);
        }
        int64_t c = 0;
#pragma GCC unroll 2
        for (; c + BLOCK <= cols; c += BLOCK)
#pragma GCC unroll 4
            for (int q = 0; q < NBLK; q++) {
                VT xv = VLD(xp + c + q * LANES);
                VT r = left ? VOPU(blk[q], xv, op) : VOPU(xv, blk[q], op);
                if (pin) r = left ? VOP(blk[q], xv, op) : VOP(xv, blk[q], op);
                VST(dp + c + q * LANES, r);
            }
        for (int64_t i = 0; c < cols; c++, i++) {
            CT ev = LD(ep[i]), xv = LD(xp[c]);
            dp[c] = ST(left ? SOP(ev, xv, op) : SOP(xv, ev, op));
        }
    }
}

/* dst(r, c) = a(r, c) OP b(r, c) over planned runs (both operands full). */
KINLINE void KT_FN(rowexpand_full)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int op) {
    KT_T *dp = (KT_T *)d.p;
    const KT_T *ap = (const KT_T *)a.p, *bp = (const KT_T *)b.p;
    for (int64_t r = 0; r < rows; r++, dp += d.rs, ap += a.rs, bp += b.rs) {
        int64_t c = 0;
#pragma GCC unroll 4
        for (; c + LANES <= cols; c += LANES) VST(dp + c, VOP(VLD(ap + c), VLD(bp + c), op));
        for (; c < cols; c++) dp[c] = ST(SOP(LD(ap[c]), LD(bp[c]), op));
    }
}

/* dst(r, c) = a(r, c mod ma) OP b(r, c mod mb) by the simulator's formula (both operands full, or
 * an operand that may overlap dst): planned runs where every operand is a full one that dst does
 * not overlap (or overlaps exactly), else element by element. */
static __attribute__((noinline)) void KT_FN(rowexpand_other)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols,
                                                             int64_t ma, int64_t mb, int op) {
    if (ma >= cols && mb >= cols && elementwise_safe(d, a, rows, cols, KT_ES) && elementwise_safe(d, b, rows, cols, KT_ES)) {
        KTile t[3] = {d, a, b};
        int64_t pr = rows, pc = cols;
        if (plan_runs(t, 3, &pr, &pc)) {
            if (op == KOP_MUL) KT_FN(rowexpand_full)(t[0], t[1], t[2], pr, pc, KOP_MUL);
            else KT_FN(rowexpand_full)(t[0], t[1], t[2], pr, pc, KOP_SUB);
            return;
        }
    }
    for (int64_t r = 0; r < rows; r++) {
        int64_t ca = 0, cb = 0;
        for (int64_t c = 0; c < cols; c++) {
            ELEM(d, r, c) = ST(SOP(LD(ELEM(a, r, ca)), LD(ELEM(b, r, cb)), op));
            if (++ca == ma) ca = 0;
            if (++cb == mb) cb = 0;
        }
    }
}

/* Mode 1 (m = 1) or Mode 2 (m = BLOCK) with the roles fixed: dst(r, c) = x(r, c) OP e(r, c mod m),
 * or e(r, c mod m) OP x(r, c) when `left`. The vector rows where the operands' columns have unit
 * stride and dst does not overlap e (nor x, unless it is x itself); else the simulator's formula. */
KINLINE void KT_FN(rowexpand_side)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols, int m, int op, bool left) {
    if (rows <= 0 || cols <= 0) return;
    if (d.cs == 1 && x.cs == 1 && (m == 1 || e.cs == 1) && elementwise_safe(d, x, rows, cols, KT_ES) &&
        spans_disjoint(d, rows, cols, e, rows, m, KT_ES)) {
        if (m == 1) KT_FN(rowexpand_mode1)(d, x, e, rows, cols, op, left);
        else KT_FN(rowexpand_mode2)(d, x, e, rows, cols, op, left);
    } else if (left) KT_FN(rowexpand_other)(d, e, x, rows, cols, m, cols, op);
    else KT_FN(rowexpand_other)(d, x, e, rows, cols, cols, m, op);
}

/* The KernelRowExpandSide kernels, one per op, mode and side (KernelSet.rowexpand_side); the
 * general kernels below call them too, so that their entry keeps only the role tests (inlined whole,
 * the kernel spilled its operands to a 32-byte-aligned frame on every call). */
#define KT_RE_SIDE(name, m, op, left)                                                                   \
    static void KT_FN(name)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols) {                  \
        KT_FN(rowexpand_side)(d, x, e, rows, cols, m, op, left);                                        \
    }
KT_RE_SIDE(rowexpand_m1_mul_l, 1, KOP_MUL, true)
KT_RE_SIDE(rowexpand_m1_mul_r, 1, KOP_MUL, false)
KT_RE_SIDE(rowexpand_m2_mul_l, BLOCK, KOP_MUL, true)
KT_RE_SIDE(rowexpand_m2_mul_r, BLOCK, KOP_MUL, false)
KT_RE_SIDE(rowexpand_m1_sub_l, 1, KOP_SUB, true)
KT_RE_SIDE(rowexpand_m1_sub_r, 1, KOP_SUB, false)
KT_RE_SIDE(rowexpand_m2_sub_l, BLOCK, KOP_SUB, true)
KT_RE_SIDE(rowexpand_m2_sub_r, BLOCK, KOP_SUB, false)
#undef KT_RE_SIDE

/* dst(r, c) = a(r, c mod ma) OP b(r, c mod mb): m = cols for a full operand, 1 (Mode 1) or BLOCK
 * (Mode 2) for the expanded one; m1r .. m2l: the op's side kernels. */
KINLINE void KT_FN(rowexpand)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma, int64_t mb, int op,
                              KernelRowExpandSide m1r, KernelRowExpandSide m1l, KernelRowExpandSide m2r,
                              KernelRowExpandSide m2l) {
    if (rows <= 0 || cols <= 0) return;
    const bool fa = ma >= cols, fb = mb >= cols;
    const int64_t m = fa ? mb : ma;
    if (fa != fb && (m == 1 || m == BLOCK)) { /* one full operand, one expanded */
        if (fa) (m == 1 ? m1r : m2r)(d, a, b, rows, cols);
        else (m == 1 ? m1l : m2l)(d, b, a, rows, cols);
        return;
    }
    KT_FN(rowexpand_other)(d, a, b, rows, cols, ma, mb, op);
}

static void KT_FN(rowexpand_mul)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma, int64_t mb) {
    KT_FN(rowexpand)(d, a, b, rows, cols, ma, mb, KOP_MUL, KT_FN(rowexpand_m1_mul_r), KT_FN(rowexpand_m1_mul_l),
                     KT_FN(rowexpand_m2_mul_r), KT_FN(rowexpand_m2_mul_l));
}

static void KT_FN(rowexpand_sub)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma, int64_t mb) {
    KT_FN(rowexpand)(d, a, b, rows, cols, ma, mb, KOP_SUB, KT_FN(rowexpand_m1_sub_r), KT_FN(rowexpand_m1_sub_l),
                     KT_FN(rowexpand_m2_sub_r), KT_FN(rowexpand_m2_sub_l));
}

#undef CT
#undef VT
#undef LANES
#undef LD
#undef ST
#undef ROUND
#undef VLD
#undef VST
#undef VROUND
#undef SPLAT
#undef SCALAR
#undef BLOCK
#undef NBLK
#undef ELEM
#undef VOP
#undef SOP
#undef VOPU
#undef PIN_SCALAR
#undef PIN_VECTOR
#undef KT_NAME
#undef KT_T
#undef KT_ES
#undef KT_KIND
#undef KT_LOADN
#undef KT_STOREN
#undef KT_ROUNDN
#undef KT_LOAD4
#undef KT_ROUND4
#undef KT_LD
#undef KT_ST
#undef KT_VE
#undef KT_V
#undef KT_CT
#undef KT_VHALF
#undef KT_MINMAX
#undef KT_PRODUCTS4
#undef KT_ROW16
#undef HALF_STEP
#undef KT_GROUPS
#undef KT_SCALAR_TAIL_ROWS
#undef BCAST_WIDTHS
