/* ops_scalar.c - arith.constant, the integer/index arith ops (wrap-around in 64-bit unsigned
 * arithmetic, then to the result type's width), arith.cmpi, arith.index_cast, arith.select, and the
 * synchronisation ops (no effect on an in-order host run). */
#include "interp_impl.h"

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

static int32_t exec_int_binary(Interp *ip, const Instr *in, int32_t pc) {
    Frame *f = ip->frame;
    int64_t x = read_int(f, &in->sc[0]), y = read_int(f, &in->sc[1]);
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    int64_t r;
    switch ((OpCode)in->a) {
    case OP_ADDI: r = (int64_t)(ux + uy); break;
    case OP_SUBI: r = (int64_t)(ux - uy); break;
    case OP_MULI: r = (int64_t)(ux * uy); break;
    case OP_DIVSI:
        if (y == 0) return rt_error(ip, in, "division by zero (%lld / 0)", (long long)x);
        r = (x == INT64_MIN && y == -1) ? INT64_MIN : x / y;
        break;
    case OP_REMSI:
        if (y == 0) return rt_error(ip, in, "division by zero (%lld %% 0)", (long long)x);
        r = (y == -1) ? 0 : x % y;
        break;
    case OP_MINSI: r = x < y ? x : y; break;
    case OP_MAXSI: r = x > y ? x : y; break;
    case OP_ANDI: r = (int64_t)(ux & uy); break;
    case OP_ORI: r = (int64_t)(ux | uy); break;
    case OP_XORI: r = (int64_t)(ux ^ uy); break;
    default: return rt_error(ip, in, "is not an integer binary operation");
    }
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
    in.a = (int32_t)op->code;
    in.dst_slot = slot;
    in.dst_type = rt->dtype;
    emit(ctx, &in);
    return true;
}

/* ---- arith.cmpi ------------------------------------------------------------------------------ */

enum { CMP_EQ, CMP_NE, CMP_SLT, CMP_SLE, CMP_SGT, CMP_SGE, CMP_ULT, CMP_ULE, CMP_UGT, CMP_UGE };

static uint64_t width_mask(DType t) {
    switch (t) {
    case DT_I1: return 1u;
    case DT_I8: case DT_U8: return 0xffu;
    case DT_I16: case DT_U16: return 0xffffu;
    case DT_I32: case DT_U32: return 0xffffffffu;
    default: return UINT64_MAX;
    }
}

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
