/* ops_scalar.c - arith.constant, the integer/index arith ops (wrap-around in 64-bit unsigned
 * arithmetic, then to the result type's width), arith.cmpi, arith.index_cast, arith.select, and the
 * synchronisation ops (no effect on an in-order host run). */
#include "interp_impl.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static int32_t result_slot(LowerCtx *ctx, const Op *op, int i, Type **type) {
    if (i >= op->n_results || !op->results[i] || op->results[i]->id >= ctx->func->n_values) {
        lower_error(ctx, op, (SrcLoc){0}, "result %d has no frame slot", i);
        return -1;
    }
    *type = op->results[i]->type;
    return (int32_t)op->results[i]->id;
}

/* ---- arith.constant ------------------------------------------------------------------------ */

static int32_t exec_constant(Interp *ip, const Instr *in, int32_t pc) {
    RtValue *v = &ip->frame->vals[in->dst_slot];
    if (dtype_is_float(in->dst_type)) v->f = in->sc[0].imm.f;
    else v->i = in->sc[0].imm.i;
    return pc + 1;
}

bool lower_constant(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (rt && rt->kind == TY_VECTOR && op->ins.count == 1 && op->ins.items[0].kind == OPD_DENSE) {
        /* a vector of at most 64 bits (the verifier's CONSTANT.dense): its lanes packed, lane 0 lowest */
        int64_t vals[64];
        int n, bits = (int)dtype_size(rt->dtype) * 8, lanes = 64 / (bits ? bits : 64);
        if (rt->rank == 1 && rt->dims[0] > 0 && rt->dims[0] <= lanes) lanes = (int)rt->dims[0];
        else return lower_error(ctx, op, (SrcLoc){0}, "vector constants of type %s cannot be executed", rt->text);
        if (!dense_int_elements(op->ins.items[0].text, vals, 64, &n) || (n != 1 && n != lanes))
            return lower_error(ctx, op, (SrcLoc){0}, "expects %d integer elements", lanes);
        uint64_t packed = 0, mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
        for (int i = 0; i < lanes; i++) packed |= ((uint64_t)vals[n == 1 ? 0 : i] & mask) << (bits * i);
        Instr in = instr_for(op, exec_constant);
        in.sc[0].slot = -1;
        in.sc[0].imm.i = (int64_t)packed;
        in.dst_slot = slot;
        in.dst_type = DT_I64;
        emit(ctx, &in);
        return true;
    }
    if (!rt || rt->kind != TY_SCALAR)
        return lower_error(ctx, op, (SrcLoc){0}, "constants of type %s cannot be executed",
                           type_to_string(ctx->ip->arena, rt, false));
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "has no value");
    const Operand *o = &op->ins.items[0];
    if (o->kind == OPD_VALUE) return lower_error(ctx, op, o->loc, "expects a literal value");
    Operand typed = *o;
    typed.type = rt; /* the literal is read as the result type: `0x40490FDB : f32` is a bit pattern */
    ScalarRef r;
    if (!scalar_ref(ctx, op, &typed, rt->dtype, &r)) return false;
    Instr in = instr_for(op, exec_constant);
    in.sc[0] = r;
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- integer binary ops -------------------------------------------------------------------- */

/* Mask of the low bits of an integer type (its unsigned reading). */
static uint64_t width_mask(DType t) {
    switch (t) {
    case DT_I1: return 1u;
    case DT_I8: case DT_U8: return 0xffu;
    case DT_I16: case DT_U16: return 0xffffu;
    case DT_I32: case DT_U32: return 0xffffffffu;
    default: return UINT64_MAX;
    }
}

/* The integer element functions (ScalarIntFn) named by the INT_BINARY_OP rows. */
#define SI_UNUSED (void)m
static bool si_addi(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = (int64_t)((uint64_t)x + (uint64_t)y); return true; }
static bool si_subi(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = (int64_t)((uint64_t)x - (uint64_t)y); return true; }
static bool si_muli(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = (int64_t)((uint64_t)x * (uint64_t)y); return true; }
static bool si_andi(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = (int64_t)((uint64_t)x & (uint64_t)y); return true; }
static bool si_ori(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = (int64_t)((uint64_t)x | (uint64_t)y); return true; }
static bool si_xori(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = (int64_t)((uint64_t)x ^ (uint64_t)y); return true; }
static bool si_minsi(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = x < y ? x : y; return true; }
static bool si_maxsi(int64_t x, int64_t y, uint64_t m, int64_t *r) { SI_UNUSED; *r = x > y ? x : y; return true; }
static bool si_minui(int64_t x, int64_t y, uint64_t m, int64_t *r) { *r = ((uint64_t)x & m) <= ((uint64_t)y & m) ? x : y; return true; }
static bool si_maxui(int64_t x, int64_t y, uint64_t m, int64_t *r) { *r = ((uint64_t)x & m) >= ((uint64_t)y & m) ? x : y; return true; }

static bool si_divsi(int64_t x, int64_t y, uint64_t m, int64_t *r) {
    SI_UNUSED;
    if (y == 0) return false;
    *r = (x == INT64_MIN && y == -1) ? INT64_MIN : x / y;
    return true;
}

static bool si_remsi(int64_t x, int64_t y, uint64_t m, int64_t *r) {
    SI_UNUSED;
    if (y == 0) return false;
    *r = (y == -1) ? 0 : x % y;
    return true;
}

/* The truncated quotient q of x / y (y != 0) and whether the true quotient lies below it. */
static int64_t trunc_quotient(int64_t x, int64_t y, bool *below) {
    if (x == INT64_MIN && y == -1) {
        *below = false;
        return INT64_MIN;
    }
    int64_t rem = x % y;
    *below = rem != 0 && ((rem < 0) != (y < 0));
    return x / y;
}

static bool si_floordivsi(int64_t x, int64_t y, uint64_t m, int64_t *r) {
    SI_UNUSED;
    if (y == 0) return false;
    bool below;
    int64_t q = trunc_quotient(x, y, &below);
    *r = below ? q - 1 : q;
    return true;
}

static bool si_ceildivsi(int64_t x, int64_t y, uint64_t m, int64_t *r) {
    SI_UNUSED;
    if (y == 0) return false;
    bool below;
    int64_t q = trunc_quotient(x, y, &below);
    *r = (!below && !(x == INT64_MIN && y == -1) && x % y != 0) ? q + 1 : q;
    return true;
}

static bool si_divui(int64_t x, int64_t y, uint64_t m, int64_t *r) {
    uint64_t a = (uint64_t)x & m, b = (uint64_t)y & m;
    if (b == 0) return false;
    *r = (int64_t)(a / b);
    return true;
}

static bool si_remui(int64_t x, int64_t y, uint64_t m, int64_t *r) {
    uint64_t a = (uint64_t)x & m, b = (uint64_t)y & m;
    if (b == 0) return false;
    *r = (int64_t)(a % b);
    return true;
}
#undef SI_UNUSED

/* [opcode] -> the row's integer element function (NULL: not an INT_BINARY_OP row). */
static const ScalarIntFn int_binary_fns[OP_COUNT] = {
#define OP(...)
#define INT_BINARY_OP(id, name, kinds, elem) [OP_##id] = si_##elem,
#include "../ir/ops.def"
#undef OP
};

static int32_t exec_int_binary(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    int64_t x = read_int(f, &in->sc[0]), y = read_int(f, &in->sc[1]), r;
    if (!in->k.scalar_int(x, y, width_mask(in->dst_type), &r))
        return rt_error(ip, in, "division by zero (%lld / 0)", (long long)x);
    f->vals[in->dst_slot].i = scalar_wrap_int(r, in->dst_type);
    return pc + 1;
}

/* Checks that a scalar operand has an integer-like type. */
static bool int_operand(LowerCtx *ctx, const Op *op, const Operand *o, DType def, ScalarRef *r) {
    if (!scalar_ref(ctx, op, o, def, r)) return false;
    if (dtype_is_float(r->type))
        return lower_error(ctx, op, o->loc, "expects an integer or index operand, got %s", dtype_name(r->type));
    return true;
}

bool lower_int_binary(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (!rt || rt->kind != TY_SCALAR || dtype_is_float(rt->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "result must be an integer or index scalar");
    if (op->ins.count != 2) return lower_error(ctx, op, (SrcLoc){0}, "expects two operands");
    Instr in = instr_for(op, exec_int_binary);
    if (!int_operand(ctx, op, &op->ins.items[0], rt->dtype, &in.sc[0]) ||
        !int_operand(ctx, op, &op->ins.items[1], rt->dtype, &in.sc[1]))
        return false;
    in.k.scalar_int = int_binary_fns[op->code];
    if (!in.k.scalar_int) return lower_error(ctx, op, (SrcLoc){0}, "has no integer element function");
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- arith.cmpi ------------------------------------------------------------------------------ */

enum { CMP_EQ, CMP_NE, CMP_SLT, CMP_SLE, CMP_SGT, CMP_SGE, CMP_ULT, CMP_ULE, CMP_UGT, CMP_UGE };

static int32_t exec_cmpi(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    int64_t x = read_int(f, &in->sc[0]), y = read_int(f, &in->sc[1]);
    uint64_t mask = width_mask(in->sc[0].type);
    uint64_t ux = (uint64_t)x & mask, uy = (uint64_t)y & mask;
    bool r;
    switch (in->a) {
    case CMP_EQ: r = ux == uy; break;
    case CMP_NE: r = ux != uy; break;
    case CMP_SLT: r = x < y; break;
    case CMP_SLE: r = x <= y; break;
    case CMP_SGT: r = x > y; break;
    case CMP_SGE: r = x >= y; break;
    case CMP_ULT: r = ux < uy; break;
    case CMP_ULE: r = ux <= uy; break;
    case CMP_UGT: r = ux > uy; break;
    default: r = ux >= uy; break;
    }
    f->vals[in->dst_slot].i = r;
    return pc + 1;
}

bool lower_cmpi(LowerCtx *ctx, const Op *op) {
    static const char *const names[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    int pred = -1;
    for (int i = 0; i < 10 && op->predicate; i++)
        if (strcmp(op->predicate, names[i]) == 0) pred = i;
    if (pred < 0)
        return lower_error(ctx, op, (SrcLoc){0}, "unknown predicate '%s'", op->predicate ? op->predicate : "");
    if (op->ins.count != 2) return lower_error(ctx, op, (SrcLoc){0}, "expects two operands");
    Instr in = instr_for(op, exec_cmpi);
    DType def = op->ins.items[0].kind == OPD_VALUE && op->ins.items[0].value && op->ins.items[0].value->type
                    ? op->ins.items[0].value->type->dtype
                    : DT_INDEX;
    if (!int_operand(ctx, op, &op->ins.items[0], def, &in.sc[0]) ||
        !int_operand(ctx, op, &op->ins.items[1], in.sc[0].type, &in.sc[1]))
        return false;
    in.a = pred;
    in.dst_slot = slot;
    in.dst_type = DT_I1;
    emit(ctx, &in);
    return true;
}

/* ---- float arith ---------------------------------------------------------------------------- */

/* maxnum/minnum (NaN-ignoring) and maximum/minimum (NaN-propagating); -0 orders below +0 in all. */
static double float_max(double x, double y, bool propagate_nan) {
    if (isnan(x) || isnan(y)) return propagate_nan ? (isnan(x) ? x : y) : (isnan(x) ? y : x);
    if (x == y) return signbit(x) ? y : x;
    return x > y ? x : y;
}

static double float_min(double x, double y, bool propagate_nan) {
    if (isnan(x) || isnan(y)) return propagate_nan ? (isnan(x) ? x : y) : (isnan(x) ? y : x);
    if (x == y) return signbit(x) ? x : y;
    return x < y ? x : y;
}

/* The float element functions (ScalarFloatFn) named by the FLOAT_BINARY_OP / FLOAT_UNARY_OP rows. */
static double sf_addf(double x, double y) { return x + y; }
static double sf_subf(double x, double y) { return x - y; }
static double sf_mulf(double x, double y) { return x * y; }
static double sf_divf(double x, double y) { return x / y; }
static double sf_maxnumf(double x, double y) { return float_max(x, y, false); }
static double sf_minnumf(double x, double y) { return float_min(x, y, false); }
static double sf_maximumf(double x, double y) { return float_max(x, y, true); }
static double sf_minimumf(double x, double y) { return float_min(x, y, true); }
static double sf_negf(double x, double y) { (void)y; return -x; }

static const ScalarFloatFn float_fns[OP_COUNT] = {
#define OP(...)
#define FLOAT_BINARY_OP(id, name, elem) [OP_##id] = sf_##elem,
#define FLOAT_UNARY_OP(id, name, elem) [OP_##id] = sf_##elem,
#include "../ir/ops.def"
#undef OP
};

static int32_t exec_float_binary(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    double x = read_scalar(f, &in->sc[0]).f, y = in->b ? read_scalar(f, &in->sc[1]).f : 0.0;
    f->vals[in->dst_slot].f = scalar_round_float(in->k.scalar_float(x, y), in->dst_type);
    return pc + 1;
}

/* Checks that a scalar operand has a float type. */
static bool float_operand(LowerCtx *ctx, const Op *op, const Operand *o, DType def, ScalarRef *r) {
    if (!scalar_ref(ctx, op, o, def, r)) return false;
    if (!dtype_is_float(r->type))
        return lower_error(ctx, op, o->loc, "expects a floating-point operand, got %s", dtype_name(r->type));
    return true;
}

bool lower_float_binary(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (!rt || rt->kind != TY_SCALAR || !dtype_is_float(rt->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "result must be a floating-point scalar");
    const OpInfo *info = op_info(op->code);
    int n = info->ins[1].name ? 2 : 1;
    if (op->ins.count != n) return lower_error(ctx, op, (SrcLoc){0}, "expects %d operand(s)", n);
    Instr in = instr_for(op, exec_float_binary);
    for (int i = 0; i < n; i++)
        if (!float_operand(ctx, op, &op->ins.items[i], rt->dtype, &in.sc[i])) return false;
    in.k.scalar_float = float_fns[op->code];
    if (!in.k.scalar_float) return lower_error(ctx, op, (SrcLoc){0}, "has no float element function");
    in.b = n == 2;
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- arith.cmpf ------------------------------------------------------------------------------- */

/* Predicates in MLIR's order (arith::CmpFPredicate): bit 0 "less", bit 1 "equal", bit 2 "greater",
 * bit 3 "unordered" of the outcomes for which the predicate holds. */
static const char *const cmpf_names[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                         "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};
static const uint8_t cmpf_outcomes[] = {0x0, 0x2, 0x4, 0x6, 0x1, 0x3, 0x5, 0x7, 0xa, 0xc, 0xe, 0x9, 0xb, 0xd, 0x8, 0xf};

static int32_t exec_cmpf(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    double x = read_scalar(f, &in->sc[0]).f, y = read_scalar(f, &in->sc[1]).f;
    unsigned outcome = (isnan(x) || isnan(y)) ? 0x8u : x < y ? 0x1u : x == y ? 0x2u : 0x4u;
    f->vals[in->dst_slot].i = (in->a & (int32_t)outcome) != 0;
    return pc + 1;
}

bool lower_cmpf(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    int pred = -1;
    for (int i = 0; i < 16 && op->predicate; i++)
        if (strcmp(op->predicate, cmpf_names[i]) == 0) pred = i;
    if (pred < 0)
        return lower_error(ctx, op, (SrcLoc){0}, "unknown predicate '%s'", op->predicate ? op->predicate : "");
    if (op->ins.count != 2) return lower_error(ctx, op, (SrcLoc){0}, "expects two operands");
    Instr in = instr_for(op, exec_cmpf);
    const Operand *o0 = &op->ins.items[0], *o1 = &op->ins.items[1];
    DType def = o0->kind == OPD_VALUE && o0->value && o0->value->type ? o0->value->type->dtype
                : o1->kind == OPD_VALUE && o1->value && o1->value->type ? o1->value->type->dtype
                                                                        : DT_F32;
    if (!float_operand(ctx, op, o0, def, &in.sc[0]) || !float_operand(ctx, op, o1, in.sc[0].type, &in.sc[1]))
        return false;
    in.a = cmpf_outcomes[pred];
    in.dst_slot = slot;
    in.dst_type = DT_I1;
    emit(ctx, &in);
    return true;
}

/* ---- arith.sitofp / uitofp / fptosi / fptoui / extf / truncf ---------------------------------- */

/* x86-64 CVTTSD2SI with a 32-bit destination: truncation toward zero; NaN and values outside the
 * int32 range give the "integer indefinite" INT32_MIN. */
static int64_t cvtt32(double x) {
    if (!(x > -2147483649.0 && x < 2147483648.0)) return INT32_MIN;
    return (int64_t)(int32_t)x;
}

/* The same with a 64-bit destination (INT64_MIN for NaN and out of range). */
static int64_t cvtt64(double x) {
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)x;
}

int64_t scalar_float_to_int(double x, DType to, bool is_unsigned) {
    size_t bytes = to == DT_INDEX ? 8 : dtype_size(to);
    if (bytes == 8) {
        if (is_unsigned && x >= 9223372036854775808.0) /* GCC's (uint64_t)x: subtract 2^63, convert, flip the top bit */
            return (int64_t)((uint64_t)cvtt64(x - 9223372036854775808.0) ^ (UINT64_C(1) << 63));
        return cvtt64(x);
    }
    if (bytes == 4 && is_unsigned) return scalar_wrap_int(cvtt64(x), to); /* (uint32_t)x: 64-bit convert, low half */
    return scalar_wrap_int(cvtt32(x), to);                                 /* 8, 16 bits and signed 32 bits */
}

double scalar_int_to_float(uint64_t magnitude, bool negative, DType to) {
    double m;
    if (magnitude < (UINT64_C(1) << 53)) {
        m = (double)magnitude;
    } else { /* round to odd at 53 bits: the later single rounding to `to` is then correct */
        int shift = 0;
        while ((magnitude >> shift) >= (UINT64_C(1) << 53)) shift++;
        uint64_t kept = magnitude >> shift;
        if (magnitude & ((UINT64_C(1) << shift) - 1)) kept |= 1u;
        m = ldexp((double)kept, shift);
    }
    return scalar_round_float(negative ? -m : m, to);
}

/* The conversion functions (ScalarCastFn) named by the FLOAT_CAST_OP rows. */
static void sc_sitofp(RtValue *d, ScalarValue v, DType from, DType to) {
    int64_t x = scalar_wrap_int(v.i, from);
    if (dtype_is_unsigned(from)) x = (int64_t)((uint64_t)x << (64 - dtype_size(from) * 8)) >> (64 - dtype_size(from) * 8);
    if (from == DT_I1) x = -x; /* a signed 1-bit integer: true is -1 */
    uint64_t mag = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    d->f = scalar_int_to_float(mag, x < 0, to);
}
static void sc_uitofp(RtValue *d, ScalarValue v, DType from, DType to) {
    d->f = scalar_int_to_float((uint64_t)v.i & width_mask(from), false, to);
}
static void sc_fptosi(RtValue *d, ScalarValue v, DType from, DType to) { (void)from; d->i = scalar_float_to_int(v.f, to, false); }
static void sc_fptoui(RtValue *d, ScalarValue v, DType from, DType to) { (void)from; d->i = scalar_float_to_int(v.f, to, true); }
/* extf (exact) and truncf (rounded to nearest even) */
static void sc_fround(RtValue *d, ScalarValue v, DType from, DType to) { (void)from; d->f = scalar_round_float(v.f, to); }

static const ScalarCastFn cast_fns[OP_COUNT] = {
#define OP(...)
#define FLOAT_CAST_OP(id, name, in, flags, elem) [OP_##id] = sc_##elem,
#include "../ir/ops.def"
#undef OP
};

static int32_t exec_float_cast(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    in->k.scalar_cast(&f->vals[in->dst_slot], read_scalar(f, &in->sc[0]), in->sc[0].type, in->dst_type);
    return pc + 1;
}

bool lower_float_cast(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (op->ins.count != 1) return lower_error(ctx, op, (SrcLoc){0}, "expects one operand");
    uint64_t flags = op_info(op->code)->flags;
    bool from_float = !(flags & OPF_FROM_INT), to_float = !(flags & OPF_TO_INT);
    if (!rt || rt->kind != TY_SCALAR || dtype_is_float(rt->dtype) != to_float || rt->dtype == DT_INDEX)
        return lower_error(ctx, op, (SrcLoc){0}, "result must be a%s scalar", to_float ? " floating-point" : "n integer");
    Instr in = instr_for(op, exec_float_cast);
    const Operand *o = &op->ins.items[0];
    if (from_float) {
        if (!float_operand(ctx, op, o, DT_F32, &in.sc[0])) return false;
    } else {
        if (!scalar_ref(ctx, op, o, DT_I32, &in.sc[0])) return false;
        if (dtype_is_float(in.sc[0].type) || in.sc[0].type == DT_INDEX)
            return lower_error(ctx, op, o->loc, "expects an integer operand, got %s", dtype_name(in.sc[0].type));
    }
    in.k.scalar_cast = cast_fns[op->code];
    if (!in.k.scalar_cast) return lower_error(ctx, op, (SrcLoc){0}, "has no conversion function");
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- arith.index_cast ------------------------------------------------------------------------ */

static int32_t exec_index_cast(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    f->vals[in->dst_slot].i = scalar_wrap_int(read_int(f, &in->sc[0]), in->dst_type);
    return pc + 1;
}

bool lower_index_cast(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (!rt || rt->kind != TY_SCALAR || dtype_is_float(rt->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "result must be an integer or index scalar");
    if (op->ins.count != 1) return lower_error(ctx, op, (SrcLoc){0}, "expects one operand");
    Instr in = instr_for(op, exec_index_cast);
    if (!int_operand(ctx, op, &op->ins.items[0], DT_INDEX, &in.sc[0])) return false;
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- arith.select ---------------------------------------------------------------------------- */

static int32_t exec_select(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    int which = (read_int(f, &in->sc[0]) & 1) ? 1 : 2;
    if (in->a) { /* non-scalar: copy the whole value (tile view, GM view, pointer) */
        f->vals[in->dst_slot] = f->vals[in->sc[which].slot];
        return pc + 1;
    }
    ScalarValue v = read_scalar(f, &in->sc[which]);
    if (dtype_is_float(in->dst_type)) f->vals[in->dst_slot].f = v.f;
    else f->vals[in->dst_slot].i = v.i;
    return pc + 1;
}

bool lower_select(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0 || !rt) return false;
    if (op->ins.count != 3) return lower_error(ctx, op, (SrcLoc){0}, "expects three operands");
    Instr in = instr_for(op, exec_select);
    if (!scalar_ref(ctx, op, &op->ins.items[0], DT_I1, &in.sc[0])) return false;
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    if (rt->kind == TY_SCALAR) {
        for (int i = 1; i <= 2; i++) {
            if (!scalar_ref(ctx, op, &op->ins.items[i], rt->dtype, &in.sc[i])) return false;
            if (dtype_is_float(in.sc[i].type) != dtype_is_float(rt->dtype))
                return lower_error(ctx, op, op->ins.items[i].loc, "operand type %s does not match the result type %s",
                                   dtype_name(in.sc[i].type), dtype_name(rt->dtype));
        }
    } else if (rt->kind == TY_EVENTID_ARRAY) { /* C++ would copy the chosen array; pto-run keeps one per declaration */
        return lower_error(ctx, op, (SrcLoc){0}, "cannot choose between event-id arrays: pto-run keeps one array per "
                           "declaration (select the index or the id instead)");
    } else {
        in.a = 1;
        for (int i = 1; i <= 2; i++) {
            const Operand *o = &op->ins.items[i];
            int32_t s = value_slot(ctx, op, o);
            if (s < 0) return false;
            const Type *ot = o->value->type;
            bool ok = ot && ot->kind == rt->kind &&
                      (rt->kind != TY_TILE || tile_storage_equal(&ot->tile, &rt->tile)) &&
                      ((rt->kind != TY_TENSOR_VIEW && rt->kind != TY_PARTITION_VIEW) || ot->rank == rt->rank);
            if (!ok)
                return lower_error(ctx, op, o->loc, "operand %%%s of type %s does not match the result type %s",
                                   o->value->name, type_to_string(ctx->ip->arena, ot, false),
                                   type_to_string(ctx->ip->arena, rt, false));
            in.sc[i].slot = s;
        }
    }
    emit(ctx, &in);
    return true;
}

/* ---- pto.addptr, pto.get_tensor_view_dim, block queries ------------------------------------- */

static int32_t exec_addptr(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    GmView v = f->vals[in->a].view;
    int64_t off = read_int(f, &in->sc[0]);
    if (off < 0) return rt_error(ip, in, "offset %lld is negative", (long long)off);
    if (!checked_add_i64(v.offset, off, &v.offset)) return rt_error(ip, in, "pointer offset overflows 64 bits");
    f->vals[in->dst_slot].view = v;
    return pc + 1;
}

bool lower_addptr(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (op->ins.count != 2) return lower_error(ctx, op, (SrcLoc){0}, "expects two operands");
    int32_t ptr = value_slot(ctx, op, &op->ins.items[0]);
    if (ptr < 0) return false;
    const Type *pt = op->ins.items[0].value->type;
    if (!pt || pt->kind != TY_PTR) return lower_error(ctx, op, op->ins.items[0].loc, "expects a !pto.ptr operand");
    Instr in = instr_for(op, exec_addptr);
    if (!int_operand(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[0])) return false;
    in.a = ptr;
    in.dst_slot = slot;
    emit(ctx, &in);
    return true;
}

static int32_t exec_get_tensor_view_dim(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    const GmView *v = &f->vals[in->a].view;
    int64_t d = read_int(f, &in->sc[0]);
    if (d < 0 || d >= v->rank)
        return rt_error(ip, in, "dimension index %lld is out of range for a rank-%d view", (long long)d, v->rank);
    f->vals[in->dst_slot].i = v->shape[d];
    return pc + 1;
}

bool lower_get_tensor_view_dim(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (op->ins.count != 2) return lower_error(ctx, op, (SrcLoc){0}, "expects two operands");
    int32_t view = value_slot(ctx, op, &op->ins.items[0]);
    if (view < 0) return false;
    const Type *vt = op->ins.items[0].value->type;
    if (!vt || vt->kind != TY_TENSOR_VIEW)
        return lower_error(ctx, op, op->ins.items[0].loc, "expects a !pto.tensor_view operand");
    Instr in = instr_for(op, exec_get_tensor_view_dim);
    if (!int_operand(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[0])) return false;
    in.a = view;
    in.dst_slot = slot;
    emit(ctx, &in);
    return true;
}

/* The block queries (BlockQueryFn) named by the BLOCK_QUERY_OP rows; one vector core per block. */
static int64_t bq_block_idx(const Interp *ip) { return ip->block_idx; }
static int64_t bq_block_num(const Interp *ip) { return ip->block_num; }
static int64_t bq_subblock_idx(const Interp *ip) { return ip->subblock_idx; }
static int64_t bq_subblock_num(const Interp *ip) { return ip->subblock_num > 0 ? ip->subblock_num : 1; }

static const BlockQueryFn block_query_fns[OP_COUNT] = {
#define OP(...)
#define BLOCK_QUERY_OP(id, name, elem) [OP_##id] = bq_##elem,
#include "../ir/ops.def"
#undef OP
};

static int32_t exec_block_query(Interp *ip, const Instr *in, int32_t pc) {
    ip->frame->vals[in->dst_slot].i = scalar_wrap_int(in->k.block_query(ip), in->dst_type);
    return pc + 1;
}

bool lower_block_query(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (!rt || rt->kind != TY_SCALAR || dtype_is_float(rt->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "result must be an integer scalar");
    Instr in = instr_for(op, exec_block_query);
    in.k.block_query = block_query_fns[op->code];
    if (!in.k.block_query) return lower_error(ctx, op, (SrcLoc){0}, "has no block query function");
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- synchronisation --------------------------------------------------------------------------- */

static int32_t exec_sync(Interp *ip, const Instr *in, int32_t pc) {
    (void)ip;
    (void)in;
    return pc + 1;
}

bool lower_sync(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_sync);
    emit(ctx, &in);
    return true;
}

/* set_flag_dyn / wait_flag_dyn: the event id must be 0..7 when the op runs. */
static int32_t exec_sync_dyn(Interp *ip, const Instr *in, int32_t pc) {
    int64_t e = read_int(ip->frame, &in->sc[0]);
    if (e >= 0 && e <= 7) return pc + 1;
    rt_rule_error(ip, in, "event", "event id %lld is out of range 0..7", (long long)e);
    const Value *v = in->op && in->op->ins.count == 1 ? in->op->ins.items[0].value : NULL;
    if (v && v->def) /* where the id was made: an event-id array's get, arithmetic on the loop index, ... */
        diag_add_note(ip->diags, v->def->loc, "the id %%%s comes from this '%s'", v->name, op_info(v->def->code)->name);
    return PC_ERROR;
}

/* sync.set / sync.wait: the id (static in `a`, else the index operand) must name one of the
 * target's cross-core semaphores (`b` of them) when the op runs. */
enum { SYNC_ID_OPERAND = INT32_MIN }; /* Instr.a of a sync.set/sync.wait whose id is its operand */

static int32_t exec_sync_cross(Interp *ip, const Instr *in, int32_t pc) {
    int64_t e = in->a != SYNC_ID_OPERAND ? in->a : read_int(ip->frame, &in->sc[0]);
    if (e < 0 || e >= in->b) {
        /* the rule pto-as gives the same id: "pto.sync.set" -> SYNC_SET.event-range */
        char *rule = arena_printf(ip->diags->arena, "%s.event-range", in->opname + 4);
        for (char *c = rule; *c && c < rule + strlen(in->opname + 4); c++) *c = *c == '.' ? '_' : (char)toupper((unsigned char)*c);
        diag_report(ip->diags, ip->file, SEV_ERROR, in->loc, rule,
                    "'%s' op event id %lld is out of range 0..%d (the cross-core semaphores of %s)", in->opname,
                    (long long)e, (int)in->b - 1, ip->opts.target == TARGET_A5 ? "A5" : "A2/A3");
        return PC_ERROR;
    }
    return pc + 1;
}

bool lower_sync_cross(LowerCtx *ctx, const Op *op) {
    int pipe;
    int64_t id;
    if (!sync_cross_args(op, &pipe, &id) || pipe < 0) return lower_error(ctx, op, (SrcLoc){0}, "expects `<PIPE>, ID` or `<PIPE>, %%id`");
    Instr in = instr_for(op, exec_sync_cross);
    in.b = sync_cross_ids(ctx->ip->opts.target);
    in.a = op->ins.count ? SYNC_ID_OPERAND : id < 0 ? -1 : id > INT32_MAX ? INT32_MAX : (int32_t)id;
    if (op->ins.count == 1 && !int_operand(ctx, op, &op->ins.items[0], DT_INDEX, &in.sc[0])) return false;
    emit(ctx, &in);
    return true;
}

bool lower_sync_dyn(LowerCtx *ctx, const Op *op) {
    if (op->ins.count != 1) return lower_error(ctx, op, (SrcLoc){0}, "expects one event id operand");
    Instr in = instr_for(op, exec_sync_dyn);
    if (!int_operand(ctx, op, &op->ins.items[0], DT_INDEX, &in.sc[0])) return false;
    emit(ctx, &in);
    return true;
}

/* ---- event-id arrays --------------------------------------------------------------------------- */

/* Host memory one activation may give its event-id arrays (their share of INTERP_MAX_AUTO_BYTES). */
#define EVENTID_ARRAY_MAX_IDS (INTERP_MAX_AUTO_BYTES / (int64_t)sizeof(int32_t))

/* pto.declare_eventid_array: the array's `b` ids, zero each time the declaration runs (PTOAS's
 * helper value-initialises its `int32_t data[N] = {}`), in auto storage `a` of the frame. */
static int32_t exec_declare_eventid_array(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    EventIdArray *arr = &f->vals[in->dst_slot].evarr;
    arr->ids = (int32_t *)(void *)(f->auto_mem + f->fn->auto_offset[in->a]);
    arr->size = in->b;
    memset(arr->ids, 0, (size_t)arr->size * sizeof *arr->ids);
    return pc + 1;
}

bool lower_declare_eventid_array(LowerCtx *ctx, const Op *op) {
    Type *rt;
    int32_t slot = result_slot(ctx, op, 0, &rt);
    if (slot < 0) return false;
    if (!rt || rt->kind != TY_EVENTID_ARRAY || rt->size < 1)
        return lower_error(ctx, op, (SrcLoc){0}, "result must be a !pto.eventid_array<N> with N >= 1");
    if (rt->size > EVENTID_ARRAY_MAX_IDS)
        return lower_error(ctx, op, (SrcLoc){0}, "an event-id array of %lld ids needs more than the %lld bytes of host "
                           "memory pto-run gives one function activation", (long long)rt->size,
                           (long long)INTERP_MAX_AUTO_BYTES);
    Instr in = instr_for(op, exec_declare_eventid_array);
    in.a = new_auto(ctx, op, rt->size * (int64_t)sizeof(int32_t));
    if (in.a < 0) return false;
    in.dst_slot = slot;
    in.b = (int32_t)rt->size; /* at most EVENTID_ARRAY_MAX_IDS */
    emit(ctx, &in);
    return true;
}

/* The element of an event-id array an access names: the array in slot `a`, the index in sc[0];
 * NULL after reporting an index outside the array (rule <OP>.index-range, as pto-as). */
static int32_t *eventid_array_elem(Interp *ip, const Instr *in) {
    const EventIdArray *arr = &ip->frame->vals[in->a].evarr;
    int64_t i = read_int(ip->frame, &in->sc[0]);
    if (!arr->ids) {
        rt_error(ip, in, "uses event-id array %%%s before its pto.declare_eventid_array ran", (const char *)in->extra);
        return NULL;
    }
    if (i < 0 || i >= arr->size) {
        rt_rule_error(ip, in, "index-range", "index %lld is out of range 0..%lld of %%%s (!pto.eventid_array<%lld>)",
                      (long long)i, (long long)arr->size - 1, (const char *)in->extra, (long long)arr->size);
        return NULL;
    }
    return &arr->ids[i];
}

/* eventid_array_get: the id, an int32_t widened to index (PTOAS: `int32_t v = arr[i]`). */
static int32_t exec_eventid_array_get(Interp *ip, const Instr *in, int32_t pc) {
    const int32_t *e = eventid_array_elem(ip, in);
    if (!e) return PC_ERROR;
    ip->frame->vals[in->dst_slot].i = *e;
    return pc + 1;
}

/* eventid_array_set: the value stored as int32_t (the C++ assignment keeps its low 32 bits); its range is
 * checked where a flag takes it (set_flag_dyn / wait_flag_dyn). */
static int32_t exec_eventid_array_set(Interp *ip, const Instr *in, int32_t pc) {
    int32_t *e = eventid_array_elem(ip, in);
    if (!e) return PC_ERROR;
    *e = (int32_t)(uint32_t)read_int(ip->frame, &in->sc[1]);
    return pc + 1;
}

bool lower_eventid_array_access(LowerCtx *ctx, const Op *op) {
    bool get = op_info(op->code)->n_results == 1; /* the row: eventid_array_get has a result, _set none */
    if (op->ins.count != (get ? 2 : 3))
        return lower_error(ctx, op, (SrcLoc){0}, "expects %s", get ? "%array[%index]" : "%array[%index], %value");
    const Operand *a = &op->ins.items[0];
    int32_t arr = value_slot(ctx, op, a);
    if (arr < 0) return false;
    if (!a->value->type || a->value->type->kind != TY_EVENTID_ARRAY)
        return lower_error(ctx, op, a->loc, "expects a !pto.eventid_array operand");
    Instr in = instr_for(op, get ? exec_eventid_array_get : exec_eventid_array_set);
    in.a = arr;
    in.extra = a->value->name;
    if (!int_operand(ctx, op, &op->ins.items[1], DT_INDEX, &in.sc[0])) return false;
    if (!get && !int_operand(ctx, op, &op->ins.items[2], DT_INDEX, &in.sc[1])) return false;
    if (get) {
        Type *rt;
        in.dst_slot = result_slot(ctx, op, 0, &rt);
        if (in.dst_slot < 0) return false;
        if (!rt || rt->kind != TY_SCALAR || dtype_is_float(rt->dtype))
            return lower_error(ctx, op, (SrcLoc){0}, "result must be index");
        in.dst_type = rt->dtype;
    }
    emit(ctx, &in);
    return true;
}
