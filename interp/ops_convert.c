/* ops_convert.c - the conversion family (ir/ops_convert.def): TCVT and vec-to-vec TMOV, as the
 * simulator's TCvt.hpp / TMov.hpp compute them. A conversion is composed at lowering from one
 * loader per source type, one storer per destination type, the round mode and the saturation
 * bounds; it runs over src's valid region a chunk of a row at a time through a double buffer
 * (every source value is exact in a double, as the simulator's own `static_cast<double>` path),
 * so no choice is made per element. Integer-to-integer conversions go through int64 instead. */
#include "interp_impl.h"

#include <math.h>
#include <string.h>

/* round modes (ir/attrs.c AK_ROUND_MODE order) */
enum { RM_NONE, RM_RINT, RM_ROUND, RM_FLOOR, RM_CEIL, RM_TRUNC, RM_ODD, RM_CAST_RINT };
enum { SAT_ON, SAT_OFF }; /* AK_SAT_MODE order */
enum { CVT_CHUNK = 64 };

typedef void (*CvtLoad)(double *out, const uint8_t *p, int64_t stride, int64_t n);
typedef void (*CvtStore)(uint8_t *p, int64_t stride, const double *in, int64_t n);
typedef void (*CvtLoadInt)(int64_t *out, const uint8_t *p, int64_t stride, int64_t n);
typedef void (*CvtStoreInt)(uint8_t *p, int64_t stride, const int64_t *in, int64_t n);
typedef void (*CvtBack)(double *v, int64_t n);

/* What lowering decided for one conversion instruction (Instr.extra). */
typedef struct CvtPlan {
    CvtLoad load;            /* source -> double (float-like or integer sources) */
    CvtStore store;          /* double -> destination */
    CvtLoadInt load_int;     /* integer -> integer: source -> int64 */
    CvtStoreInt store_int;   /*                      int64 -> destination (truncating) */
    CvtBack back;            /* saturation: the clamped value back in the source type */
    int mode;                /* RM_*: applied when a float-like source meets an integer destination */
    bool saturate;
    double lo, hi;           /* saturation bounds, in the source domain */
    int64_t ilo, ihi;        /* the same for integer -> integer */
    bool staged;             /* a boxed tile or relu: rows go through a staging buffer (below) */
    bool copy;               /* one element type, no relu, no saturation (TMOV; TCVT f32 -> f32): the
                              * simulator's `dst.SetElement(r, c, src.GetElement(r, c))` and
                              * `static_cast<T>(T)` copy the bits */
    bool relu;               /* TMOV reluPreMode = normal_relu */
    DType dst_dtype;
    TileOffsets doff, soff;  /* staged or copy: the tiles' offset tables */
} CvtPlan;

/* ---- x86's truncating conversions, which the simulator's casts compile to (C leaves an out-of-
 * range or NaN conversion undefined; the build that made the goldens gives these) ------------- */
static inline int32_t cvtt32(double d) { return d > -2147483649.0 && d < 2147483648.0 ? (int32_t)d : INT32_MIN; }
static inline int64_t cvtt64(double d) {
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (int64_t)d : INT64_MIN;
}

/* ---- loaders and storers per element type ---------------------------------------------------- */
#define CVT_LOAD(name, T, EXPR)                                                                    \
    static void name(double *o, const uint8_t *p, int64_t s, int64_t n) {                          \
        const T *q = (const T *)p;                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T x = q[i * s];                                                                  \
            o[i] = (EXPR);                                                                         \
        }                                                                                          \
    }
CVT_LOAD(ld_f32, float, (double)x)
CVT_LOAD(ld_f16, uint16_t, (double)fp_f16_to_f32(x))
CVT_LOAD(ld_bf16, uint16_t, (double)fp_bf16_to_f32(x))
CVT_LOAD(ld_i8, int8_t, (double)x)
CVT_LOAD(ld_u8, uint8_t, (double)x)
CVT_LOAD(ld_i16, int16_t, (double)x)
CVT_LOAD(ld_u16, uint16_t, (double)x)
CVT_LOAD(ld_i32, int32_t, (double)x)
CVT_LOAD(ld_u32, uint32_t, (double)x)
CVT_LOAD(ld_i64, int64_t, (double)x)

#define CVT_STORE(name, T, EXPR)                                                                   \
    static void name(uint8_t *p, int64_t s, const double *v, int64_t n) {                          \
        T *q = (T *)p;                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const double x = v[i];                                                                 \
            q[i * s] = (T)(EXPR);                                                                  \
        }                                                                                          \
    }
CVT_STORE(st_f32, float, (float)x)
CVT_STORE(st_f16, uint16_t, fp_f64_to_f16(x))
CVT_STORE(st_bf16, uint16_t, fp_f64_to_bf16(x))
CVT_STORE(st_i8, int8_t, cvtt32(x))
CVT_STORE(st_u8, uint8_t, cvtt64(x)) /* the simulator casts through int64_t for u8 */
CVT_STORE(st_i16, int16_t, cvtt32(x))
CVT_STORE(st_u16, uint16_t, cvtt32(x))
CVT_STORE(st_i32, int32_t, cvtt32(x))
CVT_STORE(st_u32, uint32_t, cvtt64(x))
CVT_STORE(st_i64, int64_t, cvtt64(x))

#define CVT_LOAD_INT(name, T)                                                                      \
    static void name(int64_t *o, const uint8_t *p, int64_t s, int64_t n) {                         \
        const T *q = (const T *)p;                                                                 \
        for (int64_t i = 0; i < n; i++) o[i] = (int64_t)q[i * s];                                  \
    }
#define CVT_STORE_INT(name, T)                                                                     \
    static void name(uint8_t *p, int64_t s, const int64_t *v, int64_t n) {                         \
        T *q = (T *)p;                                                                             \
        for (int64_t i = 0; i < n; i++) q[i * s] = (T)(uint64_t)v[i];                              \
    }
CVT_LOAD_INT(ldi_i8, int8_t)
CVT_LOAD_INT(ldi_u8, uint8_t)
CVT_LOAD_INT(ldi_i16, int16_t)
CVT_LOAD_INT(ldi_u16, uint16_t)
CVT_LOAD_INT(ldi_i32, int32_t)
CVT_LOAD_INT(ldi_u32, uint32_t)
CVT_LOAD_INT(ldi_i64, int64_t)
CVT_STORE_INT(sti_i8, int8_t)
CVT_STORE_INT(sti_u8, uint8_t)
CVT_STORE_INT(sti_i16, int16_t)
CVT_STORE_INT(sti_u16, uint16_t)
CVT_STORE_INT(sti_i32, int32_t)
CVT_STORE_INT(sti_u32, uint32_t)
CVT_STORE_INT(sti_i64, int64_t)

/* saturation writes the clamped double back into the source type (`static_cast<S>(double)`) */
static void back_f32(double *v, int64_t n) {
    for (int64_t i = 0; i < n; i++) v[i] = (double)(float)v[i];
}
static void back_f16(double *v, int64_t n) {
    for (int64_t i = 0; i < n; i++) v[i] = (double)fp_f16_to_f32(fp_f64_to_f16(v[i]));
}
static void back_bf16(double *v, int64_t n) {
    for (int64_t i = 0; i < n; i++) v[i] = (double)fp_bf16_to_f32(fp_f64_to_bf16(v[i]));
}

typedef struct CvtType {
    CvtLoad load;
    CvtStore store;
    CvtLoadInt load_int;
    CvtStoreInt store_int;
    CvtBack back;            /* NULL: integers (the clamped value is exact) */
    double lo, hi;           /* SafeLimits: f16's are +-65504 */
} CvtType;

static const CvtType cvt_types[DT_COUNT] = {
    [DT_F32] = {ld_f32, st_f32, NULL, NULL, back_f32, -3.4028234663852886e38, 3.4028234663852886e38},
    [DT_F16] = {ld_f16, st_f16, NULL, NULL, back_f16, -65504.0, 65504.0},
    [DT_BF16] = {ld_bf16, st_bf16, NULL, NULL, back_bf16, -3.3895313892515355e38, 3.3895313892515355e38},
    [DT_I8] = {ld_i8, st_i8, ldi_i8, sti_i8, NULL, -128.0, 127.0},
    [DT_U8] = {ld_u8, st_u8, ldi_u8, sti_u8, NULL, 0.0, 255.0},
    [DT_I16] = {ld_i16, st_i16, ldi_i16, sti_i16, NULL, -32768.0, 32767.0},
    [DT_U16] = {ld_u16, st_u16, ldi_u16, sti_u16, NULL, 0.0, 65535.0},
    [DT_I32] = {ld_i32, st_i32, ldi_i32, sti_i32, NULL, -2147483648.0, 2147483647.0},
    [DT_U32] = {ld_u32, st_u32, ldi_u32, sti_u32, NULL, 0.0, 4294967295.0},
    [DT_I64] = {ld_i64, st_i64, ldi_i64, sti_i64, NULL, -9223372036854775808.0, 9223372036854775807.0},
};

/* ---- rounding to an integral value (applyRoundingToIntegral), one loop per mode -------------- */
static double round_odd(double v) {
    double f = floor(v), frac = v - f;
    if (frac > 0.5) return f + 1;
    if (frac < 0.5) return f;
    return ((long long)f & 1) ? f : f + 1;
}

static void apply_round(double *v, int64_t n, int mode) {
    switch (mode) {
    case RM_RINT:
    case RM_CAST_RINT:
        for (int64_t i = 0; i < n; i++) v[i] = rint(v[i]);
        break;
    case RM_ROUND:
        for (int64_t i = 0; i < n; i++) v[i] = round(v[i]);
        break;
    case RM_FLOOR:
        for (int64_t i = 0; i < n; i++) v[i] = floor(v[i]);
        break;
    case RM_CEIL:
        for (int64_t i = 0; i < n; i++) v[i] = ceil(v[i]);
        break;
    case RM_TRUNC:
        for (int64_t i = 0; i < n; i++) v[i] = trunc(v[i]);
        break;
    case RM_ODD:
        for (int64_t i = 0; i < n; i++) v[i] = round_odd(v[i]);
        break;
    default: /* RM_NONE: the cast truncates */
        break;
    }
}

/* clamp_value(v, lo, hi) = std::max(lo, std::min(hi, v)): NaN becomes hi */
static void clamp(double *v, int64_t n, double lo, double hi) {
    for (int64_t i = 0; i < n; i++) {
        double t = v[i] < hi ? v[i] : hi;
        v[i] = lo < t ? t : lo;
    }
}

/* ---- execution -------------------------------------------------------------------------------- */

/* One run of n elements: src at s (stride ss), dst at d (stride ds). */
static void convert_run(const CvtPlan *p, uint8_t *d, int64_t ds, const uint8_t *s, int64_t ss, int64_t n, size_t des,
                        size_t ses, int64_t chunk) {
    double buf[CVT_CHUNK];
    int64_t ibuf[CVT_CHUNK];
    for (int64_t c0 = 0; c0 < n; c0 += chunk) {
        int64_t m = n - c0 < chunk ? n - c0 : chunk;
        const uint8_t *sp = s + (size_t)(c0 * ss) * ses;
        uint8_t *dp = d + (size_t)(c0 * ds) * des;
        if (p->load_int) {
            p->load_int(ibuf, sp, ss, m);
            if (p->saturate)
                for (int64_t i = 0; i < m; i++) ibuf[i] = ibuf[i] < p->ilo ? p->ilo : ibuf[i] > p->ihi ? p->ihi : ibuf[i];
            p->store_int(dp, ds, ibuf, m);
            continue;
        }
        p->load(buf, sp, ss, m);
        if (p->saturate) {
            clamp(buf, m, p->lo, p->hi);
            if (p->back) p->back(buf, m);
        }
        apply_round(buf, m, p->mode);
        p->store(dp, ds, buf, m);
    }
}

/* TMOV's relu (reluPreMode = normal_relu) on n converted values: a value below zero becomes zero
 * after the cast; -0 and NaN stay (the simulator's TMov relu form, unlike TSTORE's). */
#define RELU_RUN(T, NEG)                                                                                   \
    do {                                                                                                   \
        T *v = (T *)buf;                                                                                   \
        for (int64_t i = 0; i < n; i++)                                                                    \
            if (NEG) v[i] = 0;                                                                             \
    } while (0)
static void relu_run(uint8_t *buf, int64_t n, DType dt) {
    switch (dt) {
    case DT_F32: RELU_RUN(float, v[i] < 0.0f); break;
    case DT_F16: RELU_RUN(uint16_t, fp_f16_to_f32(v[i]) < 0.0f); break;
    case DT_BF16: RELU_RUN(uint16_t, fp_bf16_to_f32(v[i]) < 0.0f); break;
    case DT_I8: RELU_RUN(int8_t, v[i] < 0); break;
    case DT_I16: RELU_RUN(int16_t, v[i] < 0); break;
    case DT_I32: RELU_RUN(int32_t, v[i] < 0); break;
    case DT_I64: RELU_RUN(int64_t, v[i] < 0); break;
    default: break; /* unsigned: nothing is below zero */
    }
}
#undef RELU_RUN

/* The staged path: each row of the valid region a chunk at a time, gathered through the source's
 * offset table, converted (and relu'd) contiguously, scattered through the destination's. */
static void convert_staged(const CvtPlan *p, uint8_t *d, const uint8_t *s, int64_t rows, int64_t cols, size_t des,
                           size_t ses) {
    uint64_t sbuf[CVT_CHUNK], dbuf[CVT_CHUNK];
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c0 = 0; c0 < cols; c0 += CVT_CHUNK) {
            int64_t m = cols - c0 < CVT_CHUNK ? cols - c0 : CVT_CHUNK;
            copy_elems((uint8_t *)sbuf, NULL, s + (size_t)p->soff.rows[r] * ses, p->soff.cols + c0, m, ses);
            convert_run(p, (uint8_t *)dbuf, 1, (const uint8_t *)sbuf, 1, m, des, ses, CVT_CHUNK);
            if (p->relu) relu_run((uint8_t *)dbuf, m, p->dst_dtype);
            copy_elems(d + (size_t)p->doff.rows[r] * des, p->doff.cols + c0, (const uint8_t *)dbuf, NULL, m, des);
        }
}

static int32_t exec_convert(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0], *st = &in->t[1];
    TileView *s, *d;
    if (!use_src_and_dst(ip, in, st, dt, false, &s, &d)) return PC_ERROR;
    if (s->vr != d->vr || s->vc != d->vc)
        return rt_rule_error(ip, in, "valid-shape", "expects src and dst to have the same valid shape, got %dx%d and %dx%d",
                             s->vr, s->vc, d->vr, d->vc);
    const CvtPlan *p = in->extra;
    size_t des = dtype_size(dt->dtype), ses = dtype_size(st->dtype);
    KTile kd = ktile(dt, d), ks = ktile(st, s);
    /* a destination that shares bytes with the source other than element for element in place is
     * converted one element at a time (the simulator's order) */
    uintptr_t s0 = (uintptr_t)ks.p, s1 = s0 + (uintptr_t)st->footprint, d0 = (uintptr_t)kd.p,
              d1 = d0 + (uintptr_t)dt->footprint;
    bool same = kd.p == ks.p && des == ses && kd.rs == ks.rs && kd.cs == ks.cs;
    bool disjoint = d1 <= s0 || s1 <= d0;
    if (p->copy && disjoint) {
        copy_tile_region(kd.p, &p->doff, ks.p, &p->soff, s->vr, s->vc, des, ip->isa);
        return pc + 1;
    }
    if (p->copy) { /* overlapping: element by element in the simulator's order, bits kept */
        for (int64_t r = 0; r < s->vr; r++)
            for (int64_t c = 0; c < s->vc; c++)
                memmove(kd.p + (size_t)(p->doff.rows[r] + p->doff.cols[c]) * des,
                        ks.p + (size_t)(p->soff.rows[r] + p->soff.cols[c]) * ses, des);
        return pc + 1;
    }
    int64_t chunk = (disjoint || same) ? CVT_CHUNK : 1;
    if (p->staged) {
        convert_staged(p, kd.p, ks.p, s->vr, s->vc, des, ses);
        return pc + 1;
    }
    for (int64_t r = 0; r < s->vr; r++)
        convert_run(p, kd.p + (size_t)(r * kd.rs) * des, kd.cs, ks.p + (size_t)(r * ks.rs) * ses, ks.cs, s->vc, des, ses,
                    chunk);
    return pc + 1;
}

bool lower_convert(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_convert);
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a src operand");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !lower_dst(ctx, op, &in.t[0], &defines)) return false;

    DType sd = in.t[1].dtype, dd = in.t[0].dtype;
    const CvtType *S = &cvt_types[sd], *D = &cvt_types[dd];
    bool f8_copy = sd == dd && dtype_is_f8(sd) && op->ins.count == 1 && !attr_find(&op->attrs, "reluPreMode");
    if (!f8_copy && (!S->load || !D->store))
        return emit_unsupported(ctx, op, "has no conversion from %s to %s", dtype_name(sd), dtype_name(dd));
    CvtPlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    const OpInfo *info = op_info(op->code);
    bool is_tcvt = op_attr_spec(info, "rmode") != NULL;
    p->mode = is_tcvt ? (int)op_attr_value(op, "rmode", AK_ROUND_MODE, RM_CAST_RINT) : RM_NONE;
    p->saturate = is_tcvt && op_attr_value(op, "sat_mode", AK_SAT_MODE, SAT_OFF) == SAT_ON;
    p->lo = S->lo > D->lo ? S->lo : D->lo;
    p->hi = S->hi < D->hi ? S->hi : D->hi;
    if (S->load_int && D->store_int) { /* integer to integer: static_cast, through int64 */
        p->load_int = S->load_int;
        p->store_int = D->store_int;
        p->ilo = (int64_t)p->lo;
        p->ihi = p->hi >= 9223372036854775807.0 ? INT64_MAX : (int64_t)p->hi;
    } else {
        p->load = S->load;
        p->store = D->store;
        p->back = S->back;
        if (S->load_int || !D->store_int) p->mode = RM_NONE; /* rounding applies float-like -> integer only */
    }
    p->relu = op_attr_value(op, "reluPreMode", AK_RELU_PRE_MODE, 0) == 1;
    p->staged = p->relu || boxed(&in.t[0]) || boxed(&in.t[1]);
    p->dst_dtype = dd;
    /* one element type, no relu, no saturation: the simulator's static_cast<T>(T) is the identity
     * (TCVT f32 -> f32 keeps a signalling NaN's bits; through double it would be quietened) */
    p->copy = (!p->relu && !p->saturate && sd == dd) || f8_copy; /* an fp8 tmov: its bytes as they are */
    if (p->staged || p->copy) {
        tile_offsets(ctx->ip->arena, &in.t[0], &p->doff);
        tile_offsets(ctx->ip->arena, &in.t[1], &p->soff);
    }
    in.extra = p;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}
