/* const.c - statically known scalars: integer constants for addresses, sizes and offsets; scalar
 * operands of tile-scalar ops as materialised in their own type; and how such a scalar converts to
 * a tile element type (exact, lossy, or not representable - SPEC 2.3). */
#include "vctx.h"

#include <math.h>
#include <string.h>

/* Depth limit when following arith.index_cast chains. */
enum { CONST_FOLD_DEPTH = 8 };

/* Bit width of an integer-like dtype (index: 64). */
static int int_bits(DType dt) { return dt == DT_INDEX ? 64 : dt == DT_I1 ? 1 : (int)dtype_size(dt) * 8; }

/* Wraps `v` to the width and signedness of an integer dtype (two's complement). */
static int64_t wrap_to_dtype(int64_t v, DType dt) {
    int bits = int_bits(dt);
    if (bits <= 0 || bits >= 64) return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    uint64_t u = (uint64_t)v & mask;
    if (dtype_is_unsigned(dt) || dt == DT_I1) return (int64_t)u;
    if (u & (UINT64_C(1) << (bits - 1))) return (int64_t)(u | ~mask);
    return (int64_t)u;
}

void int_dtype_range(DType dt, int64_t *min, int64_t *max, bool *max_is_u64) {
    int bits = int_bits(dt);
    *max_is_u64 = false;
    if (dt == DT_I1) {
        *min = 0, *max = 1;
    } else if (dtype_is_unsigned(dt)) {
        *min = 0;
        if (bits >= 64)
            *max = INT64_MAX, *max_is_u64 = true;
        else
            *max = (int64_t)((UINT64_C(1) << bits) - 1);
    } else if (bits >= 64) {
        *min = INT64_MIN, *max = INT64_MAX;
    } else {
        *max = (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
        *min = -*max - 1;
    }
}

/* The arith.constant defining `v`, or NULL. */
static const Op *constant_def(const Value *v) {
    if (!v || !v->def || v->def->code != OP_CONSTANT || v->def->ins.count < 1) return NULL;
    return v->def;
}

/* Declared element type of a constant op's result. */
static DType constant_dtype(const Op *def) {
    if (def->n_results > 0 && def->results[0] && def->results[0]->type) return def->results[0]->type->dtype;
    const Type *t = def->ins.items[0].type;
    return t ? t->dtype : DT_NONE;
}

static bool const_int_depth(const Operand *opd, int64_t *out, int depth) {
    if (!opd || depth > CONST_FOLD_DEPTH) return false;
    switch (opd->kind) {
    case OPD_INT:
    case OPD_BOOL:
    case OPD_TILE_ADDR: *out = opd->ival; return true;
    case OPD_VALUE: break;
    default: return false;
    }
    const Value *v = opd->value;
    if (!v || !v->def) return false;
    const Op *def = constant_def(v);
    if (def) {
        const Operand *lit = &def->ins.items[0];
        if (lit->kind != OPD_INT && lit->kind != OPD_BOOL) return false;
        DType dt = constant_dtype(def);
        *out = dtype_is_int(dt) || dt == DT_I1 ? wrap_to_dtype(lit->ival, dt) : lit->ival;
        return true;
    }
    if (v->def->code == OP_INDEX_CAST && v->def->ins.count >= 1) {
        int64_t inner;
        if (!const_int_depth(&v->def->ins.items[0], &inner, depth + 1)) return false;
        DType dt = v->type ? v->type->dtype : DT_INDEX;
        *out = dtype_is_int(dt) ? wrap_to_dtype(inner, dt) : inner;
        return true;
    }
    return false;
}

bool const_int_of(const Operand *opd, int64_t *out) { return const_int_depth(opd, out, 0); }

/* ------------------------------------------------------------------------------------------ */
/* Floating point formats                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef struct FloatFormat {
    int mant_bits; /* significand bits including the implicit one */
    int emin; /* exponent of the smallest normal */
    double max_finite;
} FloatFormat;

static bool float_format(DType dt, FloatFormat *f) {
    switch (dt) {
    case DT_F16: *f = (FloatFormat){11, -14, 65504.0}; return true;
    case DT_BF16: *f = (FloatFormat){8, -126, 0x1.fep127}; return true;
    case DT_F32: *f = (FloatFormat){24, -126, 0x1.fffffep127}; return true;
    default: return false;
    }
}

double round_to_float_dtype(double v, DType dt) {
    FloatFormat f;
    if (!float_format(dt, &f) || isnan(v) || isinf(v) || v == 0.0) return v;
    double a = fabs(v);
    int e;
    (void)frexp(a, &e);
    int lead = e - 1; /* a in [2^lead, 2^(lead+1)) */
    if (lead < f.emin) lead = f.emin;
    double quantum = ldexp(1.0, lead - (f.mant_bits - 1));
    double r = nearbyint(a / quantum) * quantum;
    if (r > f.max_finite) r = INFINITY;
    return copysign(r, v);
}

/* Decodes a bit pattern of a float dtype; false when it does not fit the width. */
static bool decode_float_bits(int64_t bits, DType dt, double *out) {
    if (bits < 0) return false;
    if (dt == DT_F32) {
        if (bits > UINT32_MAX) return false;
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, sizeof f);
        *out = f;
        return true;
    }
    if (bits > UINT16_MAX) return false;
    uint32_t u = (uint32_t)bits;
    if (dt == DT_BF16) {
        uint32_t w = u << 16;
        float f;
        memcpy(&f, &w, sizeof f);
        *out = f;
        return true;
    }
    if (dt == DT_F16) {
        int sign = (u >> 15) & 1, exp = (u >> 10) & 0x1f, mant = u & 0x3ff;
        double mag;
        if (exp == 0)
            mag = ldexp(mant, -24);
        else if (exp == 31)
            mag = mant ? NAN : INFINITY;
        else
            mag = ldexp(mant + 1024, exp - 25);
        *out = sign ? -mag : mag;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------------------------ */
/* Scalars                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static ConstScalar scalar_int(int64_t v, const char *text) {
    return (ConstScalar){.known = true, .is_float = false, .i = v, .text = text};
}

static ConstScalar scalar_float(double v, const char *text) {
    return (ConstScalar){.known = true, .is_float = true, .f = v, .text = text};
}

/* `v` rounded to float type `dt`, except that a finite value too large for `dt` stays as it is, so
 * that the range check of its use (scalar_fit) reports it instead of seeing an infinity. */
static double keep_if_overflows(double v, DType dt) {
    double r = round_to_float_dtype(v, dt);
    return isinf(r) && !isinf(v) ? v : r;
}

/* A literal read in type `dt` (DT_NONE: untyped immediate, exact); hex literals of a float type
 * are bit patterns. */
static ConstScalar literal_in_type(const Operand *lit, DType dt, bool materialise_int) {
    ConstScalar none = {.known = false};
    const char *text = lit->text;
    if (lit->kind == OPD_BOOL) return scalar_int(lit->ival ? 1 : 0, text);
    if (lit->kind == OPD_INT) {
        if (dtype_is_float(dt)) {
            double v;
            if (lit->hex) return decode_float_bits(lit->ival, dt, &v) ? scalar_float(v, text) : none;
            return scalar_float(keep_if_overflows((double)lit->ival, dt), text);
        }
        if (materialise_int && (dtype_is_int(dt) || dt == DT_I1)) return scalar_int(wrap_to_dtype(lit->ival, dt), text);
        return scalar_int(lit->ival, text);
    }
    if (lit->kind == OPD_FLOAT) {
        if (dtype_is_float(dt)) return scalar_float(keep_if_overflows(lit->fval, dt), text);
        if (dt == DT_NONE) return scalar_float(lit->fval, text);
        return none; /* a float literal of an integer type: reported by the constant's own rule */
    }
    return none;
}

ConstScalar const_scalar_of(const Operand *opd, DType bits_type) {
    ConstScalar none = {.known = false};
    if (!opd) return none;
    if (opd->kind == OPD_VALUE) {
        const Op *def = constant_def(opd->value);
        if (def) {
            return literal_in_type(&def->ins.items[0], constant_dtype(def), true);
        }
        int64_t v;
        if (const_int_of(opd, &v)) return scalar_int(v, opd->text);
        return none;
    }
    /* immediates are read as the interpreter reads them: in their written type; a typeless hex
     * literal in a float position is a bit pattern of that type; a float literal goes through f32
     * on its way to an integer type (C++ converts the float argument) */
    DType written = opd->type && opd->type->kind == TY_SCALAR ? opd->type->dtype : DT_NONE;
    if (written == DT_NONE) {
        if (opd->kind == OPD_INT && opd->hex && dtype_is_float(bits_type))
            written = bits_type;
        else if (opd->kind == OPD_FLOAT && !dtype_is_float(bits_type))
            written = DT_F32;
    } else if (opd->kind == OPD_FLOAT && !dtype_is_float(written)) {
        written = DT_F32;
    }
    return literal_in_type(opd, written, false);
}

ScalarFit scalar_fit(const ConstScalar *v, DType dt, double *converted) {
    *converted = v->is_float ? v->f : (double)v->i;
    if (dtype_is_int(dt)) {
        int64_t min, max;
        bool max_is_u64;
        int_dtype_range(dt, &min, &max, &max_is_u64);
        if (!v->is_float) {
            bool fits = v->i >= min && (max_is_u64 || v->i <= max);
            return fits ? FIT_EXACT : FIT_OUT_OF_RANGE;
        }
        if (isnan(v->f) || isinf(v->f)) return FIT_OUT_OF_RANGE;
        double t = trunc(v->f);
        int bits = int_bits(dt);
        double hi_excl = ldexp(1.0, dtype_is_unsigned(dt) ? bits : bits - 1);
        if (t < (double)min || t >= hi_excl) return FIT_OUT_OF_RANGE;
        *converted = t + 0.0; /* -0.5 truncates to -0.0: an integer has no negative zero */
        return t == v->f ? FIT_EXACT : FIT_LOSSY;
    }
    if (dtype_is_float(dt)) {
        double src = v->is_float ? v->f : (double)v->i;
        double r = round_to_float_dtype(src, dt);
        *converted = r;
        if (isnan(src)) return FIT_EXACT;
        if (isinf(r) && !isinf(src)) return FIT_OUT_OF_RANGE;
        if (r == 0.0 && src != 0.0) return FIT_LOSSY;
        if (!v->is_float) {
            /* an integer must survive the conversion exactly */
            if (src >= 0x1p63 || src < -0x1p63 || (int64_t)src != v->i || r != src) return FIT_LOSSY;
        }
        return FIT_EXACT;
    }
    return FIT_EXACT;
}
