/* kernels_tmpl.h - the seed kernels of one element type (TMULS is an elementwise-family kernel now), instantiated by kernels_isa.h once per
 * type (no include guard on purpose). Parameters, undefined again at the end:
 *   KT_NAME    suffix of the functions (f32, i16, ...)
 *   KT_T       storage type; KT_ES its size (for #if)
 *   KT_KIND    KT_FLOAT: computed in native f32 vectors (nvf, NL lanes) with KT_LOADN(p) and
 *              KT_STOREN(p, vp) (NL stored elements <-> the nvf at vp), KT_ROUNDN(vp) (*vp
 *              rounded to the type) and KT_LD(x) / KT_ST(x) (scalar widen / round)
 *              KT_INT: computed in native vectors KT_V of unsigned lanes KT_VE, scalars in KT_CT
 *   KT_GROUPS  (optional) TROWPROD: groups of NL rows whose product chains advance together
 *   KT_SCALAR_TAIL_ROWS (optional) TROWPROD: rows left after the groups go one by one (where an
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
/* a OP b on vectors or scalars alike. */
#define VOP(a, b, op) ((op) == KOP_SUB ? (a) - (b) : (a) * (b))

/* ---- TEXPANDS ------------------------------------------------------------------------------- */

static void KT_FN(fill)(KTile d, KScalar k, int64_t rows, int64_t cols) {
    const KT_T v = ST(SCALAR(k));
    fill_tile(d, &v, sizeof v, rows, cols);
}

/* ---- TROWPROD ------------------------------------------------------------------------------- */

#if KT_KIND == KT_INT && KT_ES <= 4
/* NL elements zero-extended to 32-bit lanes (only the low KT_ES bytes of a product matter). */
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

#if KT_KIND == KT_FLOAT || KT_ES <= 4
/* Rows r0 .. r0 + n - 1 of s (n <= NL * G) as G groups of NL lanes, one row per lane. Each NL x NL
 * block is transposed so that one vector holds one column of NL rows. Floats multiply the columns
 * left to right with a rounding after every product: per lane exactly the sequential order, and
 * the G chains advance in step so that their latencies overlap. Integers (up to 32 bits, widened
 * to 32-bit lanes) multiply modulo 2^32, where any order gives the same low bits: the rows
 * accumulate their column blocks first and the NL accumulators are transposed once at the end.
 * With `clamp` (the last, partial group) lanes past n repeat row n - 1 and are not stored. */
KINLINE void KT_FN(rowprod_group)(KTile d, KTile s, int64_t r0, int64_t n, int64_t cols, int G, bool clamp) {
    const KT_T *base = (const KT_T *)s.p + r0 * s.rs;
    const int64_t rs = s.rs;
#define GROW(j) (base + (clamp && (j) >= n ? n - 1 : (j)) * rs)
    int64_t c = 0;
#if KT_KIND == KT_FLOAT
    nvf p[KT_GROUPS];
#pragma GCC unroll 4
    for (int g = 0; g < G; g++) p[g] = SPLAT(1.0f);
    for (; c + NL <= cols; c += NL) {
        nvu x[KT_GROUPS][NL];
#pragma GCC unroll 4
        for (int g = 0; g < G; g++) {
#pragma GCC unroll 8
            for (int j = 0; j < NL; j++) x[g][j] = (nvu)VLD(GROW(NL * g + j) + c);
            transpose_nv(x[g]);
        }
#pragma GCC unroll 8
        for (int j = 0; j < NL; j++)
#pragma GCC unroll 4
            for (int g = 0; g < G; g++) {
                const nvf prod = p[g] * (nvf)x[g][j];
                p[g] = VROUND(&prod);
            }
    }
#else
    nvu p[KT_GROUPS];
#pragma GCC unroll 4
    for (int g = 0; g < G; g++) {
        nvu acc[NL];
#pragma GCC unroll 8
        for (int j = 0; j < NL; j++) acc[j] = (nvu){0} + 1u;
        for (c = 0; c + NL <= cols; c += NL)
#pragma GCC unroll 8
            for (int j = 0; j < NL; j++) acc[j] *= KT_FN(loadw)(GROW(NL * g + j) + c);
        transpose_nv(acc);
        p[g] = acc[0];
#pragma GCC unroll 8
        for (int j = 1; j < NL; j++) p[g] *= acc[j];
    }
#endif
#if KT_KIND == KT_FLOAT || KT_ES == 4
    if (c == cols) { /* no tail columns: store NL lanes at once where the destination allows */
        for (int g = 0; g < G; g++) {
            KT_T out[NL];
            const bool direct = d.rs == 1 && n >= NL * (g + 1); /* DN destination: rows side by side */
            KT_T *to = direct ? (KT_T *)d.p + r0 + NL * g : out;
            VST(to, p[g]);
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
            CT q = lane[j];
            const KT_T *rp = GROW(NL * g + j);
            for (int64_t cc = c; cc < cols; cc++) q = ROUND(q * LD(rp[cc]));
            ELEM(d, r0 + NL * g + j, 0) = ST(q);
        }
    }
#undef GROW
}
#endif

#if KT_KIND == KT_INT
/* The product of n elements modulo 2^width (any order): four vector accumulators, then the lanes. */
KINLINE CT KT_FN(row_product)(const KT_T *p, int64_t n) {
    VT a0 = SPLAT(1), a1 = a0, a2 = a0, a3 = a0;
    int64_t c = 0;
    for (; c + 4 * LANES <= n; c += 4 * LANES) {
        a0 *= VLD(p + c);
        a1 *= VLD(p + c + LANES);
        a2 *= VLD(p + c + 2 * LANES);
        a3 *= VLD(p + c + 3 * LANES);
    }
    for (; c + LANES <= n; c += LANES) a0 *= VLD(p + c);
    a0 = (a0 * a1) * (a2 * a3);
    KT_VE lane[LANES];
    memcpy(lane, &a0, sizeof lane);
    CT q = 1;
    for (int i = 0; i < LANES; i++) q *= lane[i];
    for (; c < n; c++) q *= LD(p[c]);
    return q;
}
#endif

static void KT_FN(trowprod)(KTile d, KTile s, int64_t rows, int64_t cols) {
    if (rows <= 0 || cols <= 0) return;
    if (s.cs != 1 || !spans_disjoint(d, rows, 1, s, rows, cols, KT_ES)) {
        for (int64_t r = 0; r < rows; r++) {
            CT p = 1;
            for (int64_t c = 0; c < cols; c++) p = ROUND(p * LD(ELEM(s, r, c)));
            ELEM(d, r, 0) = ST(p);
        }
        return;
    }
    int64_t r = 0;
#if KT_KIND == KT_FLOAT || KT_ES <= 4
    for (; rows - r >= NL * KT_GROUPS; r += NL * KT_GROUPS)
        KT_FN(rowprod_group)(d, s, r, NL * KT_GROUPS, cols, KT_GROUPS, false);
    for (; rows - r >= NL; r += NL) KT_FN(rowprod_group)(d, s, r, NL, cols, 1, false);
#endif
#if KT_KIND == KT_FLOAT && KISA_NATIVE_BYTES >= 32 && !defined(KT_SCALAR_TAIL_ROWS)
    if (r < rows) KT_FN(rowprod_group)(d, s, r, rows - r, cols, 1, true);
#elif KT_KIND == KT_FLOAT
    for (; r < rows; r++) { /* under NL rows left, where a group gains nothing: one row at a time */
        const KT_T *rp = (const KT_T *)s.p + r * s.rs;
        CT p = 1;
        for (int64_t c = 0; c < cols; c++) p = ROUND(p * LD(rp[c]));
        ELEM(d, r, 0) = ST(p);
    }
#else
    for (; r < rows; r++) ELEM(d, r, 0) = ST(KT_FN(row_product)((const KT_T *)s.p + r * s.rs, cols));
#endif
}

/* ---- TROWEXPANDMUL / TROWEXPANDSUB ---------------------------------------------------------- */

/* Mode 1: dst(r, c) = x(r, c) OP e(r) (or e(r) OP x(r, c) when `left`), rows of unit stride. The
 * per-row values are read 8 at a time (vector conversions for f16/bf16). */
KINLINE void KT_FN(rowexpand_mode1)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols, int op, bool left) {
    for (int64_t r0 = 0; r0 < rows; r0 += 8) {
        const int64_t nb = rows - r0 < 8 ? rows - r0 : 8;
        const KT_T *ep = (const KT_T *)e.p + r0 * e.rs;
        CT ev[8];
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
        KT_T *dp = (KT_T *)d.p + r0 * d.rs;
        const KT_T *xp = (const KT_T *)x.p + r0 * x.rs;
        if (cols == LANES && nb == 8) { /* tall thin: one vector per row, 8 rows unrolled */
#pragma GCC unroll 8
            for (int j = 0; j < 8; j++, dp += d.rs, xp += x.rs) {
                VT evec = SPLAT(ev[j]), xv = VLD(xp);
                VST(dp, left ? VOP(evec, xv, op) : VOP(xv, evec, op));
            }
            continue;
        }
#if KT_KIND == KT_INT
        if (cols == LANES / 2 && nb == 8) { /* the same with half a vector per row */
#pragma GCC unroll 8
            for (int j = 0; j < 8; j++, dp += d.rs, xp += x.rs) {
                int64_t c = 0;
                const KT_VE es = (KT_VE)ev[j];
                HALF_STEP(dp, xp, c, cols, left ? VOP(es, hx, op) : VOP(hx, es, op));
            }
            continue;
        }
#endif
        for (int64_t j = 0; j < nb; j++, dp += d.rs, xp += x.rs) {
            const CT es = ev[j];
            const VT evec = SPLAT(es);
            int64_t c = 0;
#pragma GCC unroll 4
            for (; c + LANES <= cols; c += LANES) {
                VT xv = VLD(xp + c);
                VST(dp + c, left ? VOP(evec, xv, op) : VOP(xv, evec, op));
            }
#if KT_KIND == KT_INT
            HALF_STEP(dp, xp, c, cols, left ? VOP((KT_VE)es, hx, op) : VOP(hx, (KT_VE)es, op));
#endif
            for (; c < cols; c++) dp[c] = ST(left ? VOP(es, LD(xp[c]), op) : VOP(LD(xp[c]), es, op));
        }
    }
}

/* Mode 2: dst(r, c) = x(r, c) OP e(r, c mod BLOCK) (or the other order): the row's block is
 * loaded once and applied to every BLOCK-wide piece of the row. */
KINLINE void KT_FN(rowexpand_mode2)(KTile d, KTile x, KTile e, int64_t rows, int64_t cols, int op, bool left) {
    for (int64_t r = 0; r < rows; r++) {
        KT_T *dp = (KT_T *)d.p + r * d.rs;
        const KT_T *xp = (const KT_T *)x.p + r * x.rs, *ep = (const KT_T *)e.p + r * e.rs;
        VT blk[NBLK];
        for (int q = 0; q < NBLK; q++) blk[q] = VLD(ep + q * LANES);
        int64_t c = 0;
#pragma GCC unroll 2
        for (; c + BLOCK <= cols; c += BLOCK)
#pragma GCC unroll 4
            for (int q = 0; q < NBLK; q++) {
                VT xv = VLD(xp + c + q * LANES);
                VST(dp + c + q * LANES, left ? VOP(blk[q], xv, op) : VOP(xv, blk[q], op));
            }
        for (int64_t i = 0; c < cols; c++, i++) {
            CT ev = LD(ep[i]), xv = LD(xp[c]);
            dp[c] = ST(left ? VOP(ev, xv, op) : VOP(xv, ev, op));
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
        for (; c < cols; c++) dp[c] = ST(VOP(LD(ap[c]), LD(bp[c]), op));
    }
}

/* dst(r, c) = a(r, c mod ma) OP b(r, c mod mb): m = cols for a full operand, 1 (Mode 1) or BLOCK
 * (Mode 2) for the expanded one. */
KINLINE void KT_FN(rowexpand)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma, int64_t mb, int op) {
    if (rows <= 0 || cols <= 0) return;
    const bool fa = ma >= cols, fb = mb >= cols;
    const bool safe = (fa ? elementwise_safe(d, a, rows, cols, KT_ES) : spans_disjoint(d, rows, cols, a, rows, ma, KT_ES)) &&
                      (fb ? elementwise_safe(d, b, rows, cols, KT_ES) : spans_disjoint(d, rows, cols, b, rows, mb, KT_ES));
    if (safe && fa && fb) {
        KTile t[3] = {d, a, b};
        if (plan_runs(t, 3, &rows, &cols)) {
            KT_FN(rowexpand_full)(t[0], t[1], t[2], rows, cols, op);
            return;
        }
    } else if (safe && (fa || fb) && d.cs == 1 && (fa ? a : b).cs == 1) {
        const bool left = !fa; /* src0 is the expanded operand */
        const KTile x = fa ? a : b, e = fa ? b : a;
        const int64_t m = fa ? mb : ma;
        if (m == 1) {
            if (left) KT_FN(rowexpand_mode1)(d, x, e, rows, cols, op, true);
            else KT_FN(rowexpand_mode1)(d, x, e, rows, cols, op, false);
            return;
        }
        if (m == BLOCK && e.cs == 1) {
            if (left) KT_FN(rowexpand_mode2)(d, x, e, rows, cols, op, true);
            else KT_FN(rowexpand_mode2)(d, x, e, rows, cols, op, false);
            return;
        }
    }
    /* the sequential reference: the CPU simulator's formula, element by element */
    for (int64_t r = 0; r < rows; r++) {
        int64_t ca = 0, cb = 0;
        for (int64_t c = 0; c < cols; c++) {
            ELEM(d, r, c) = ST(VOP(LD(ELEM(a, r, ca)), LD(ELEM(b, r, cb)), op));
            if (++ca == ma) ca = 0;
            if (++cb == mb) cb = 0;
        }
    }
}

static void KT_FN(rowexpand_mul)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma, int64_t mb) {
    KT_FN(rowexpand)(d, a, b, rows, cols, ma, mb, KOP_MUL);
}

static void KT_FN(rowexpand_sub)(KTile d, KTile a, KTile b, int64_t rows, int64_t cols, int64_t ma, int64_t mb) {
    KT_FN(rowexpand)(d, a, b, rows, cols, ma, mb, KOP_SUB);
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
#undef KT_NAME
#undef KT_T
#undef KT_ES
#undef KT_KIND
#undef KT_LOADN
#undef KT_STOREN
#undef KT_ROUNDN
#undef KT_LD
#undef KT_ST
#undef KT_VE
#undef KT_V
#undef KT_CT
#undef KT_VHALF
#undef HALF_STEP
#undef KT_GROUPS
#undef KT_SCALAR_TAIL_ROWS
