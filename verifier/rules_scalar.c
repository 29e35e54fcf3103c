/* rules_scalar.c - type consistency of the scalar and control ops: arith.constant (value fits its
 * type), integer arith, cmpi, index_cast, select, scf.for/if/while/condition/yield, func.call,
 * return; and the names used by the synchronisation ops. Messages follow MLIR's verifiers. */
#include "vctx.h"

#include <math.h>
#include <string.h>

static const Type *result_type_at(const Op *op, int i) {
    return i < op->n_results && op->results[i] ? op->results[i]->type : NULL;
}

/* Where the type of result i is written (line 0 when it is not). */
static SrcLoc result_type_loc_at(const Op *op, int i) {
    return i < op->n_results && op->results[i] ? op->results[i]->type_loc : (SrcLoc){0};
}

static bool is_int_like(const Type *t) {
    return t && t->kind == TY_SCALAR && (dtype_is_int(t->dtype) || t->dtype == DT_INDEX || t->dtype == DT_I1);
}

static bool is_scalar_of(const Type *t, DType dt) { return t && t->kind == TY_SCALAR && t->dtype == dt; }

/* "(i32, index)": the types of an operand range, for messages. */
static const char *operand_types_text(VerifyCtx *ctx, const OperandList *list, int from) {
    const char *s = "(";
    for (int i = from; i < list->count; i++) {
        const Type *t = operand_type(&list->items[i]);
        s = arena_printf(ctx->arena, "%s%s%s", s, i > from ? ", " : "", t ? type_text(ctx, t) : "<literal>");
    }
    return arena_printf(ctx->arena, "%s)", s);
}

/* ------------------------------------------------------------------------------------------ */
/* arith                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void check_float_constant(VerifyCtx *ctx, const Op *op, const Operand *lit, DType dt) {
    if (lit->kind == OPD_INT && lit->hex) {
        ConstScalar v = const_scalar_of(lit, dt);
        int64_t max = dt == DT_F32 ? INT64_C(0xffffffff) : INT64_C(0xffff);
        if (lit->ival < 0 || lit->ival > max || !v.known)
            vreport(ctx, op, lit->loc, SEV_ERROR, "CONSTANT.range",
                    "expects the hexadecimal float literal %s to fit the %zu bits of %s", lit->text ? lit->text : "",
                    dtype_size(dt) * 8, dtype_name(dt));
        return;
    }
    if (lit->kind == OPD_BOOL) {
        vreport(ctx, op, lit->loc, SEV_ERROR, "CONSTANT.type", "expects a numeric literal for type %s, got %s",
                dtype_name(dt), lit->ival ? "true" : "false");
        return;
    }
    double v = lit->kind == OPD_FLOAT ? lit->fval : (double)lit->ival;
    if (!isinf(v) && isinf(round_to_float_dtype(v, dt)))
        vreport(ctx, op, lit->loc, SEV_ERROR, "CONSTANT.range", "expects the value %s to be representable in %s",
                lit->text ? lit->text : "", dtype_name(dt));
}

static void check_int_constant(VerifyCtx *ctx, const Op *op, const Operand *lit, DType dt) {
    if (lit->kind == OPD_FLOAT) {
        vreport(ctx, op, lit->loc, SEV_ERROR, "CONSTANT.type",
                "floating point value %s is not valid for integer type %s", lit->text ? lit->text : "", dtype_name(dt));
        return;
    }
    if (lit->kind == OPD_BOOL && dt != DT_I1) {
        vreport(ctx, op, lit->loc, SEV_ERROR, "CONSTANT.type", "expects an integer literal for type %s, got %s",
                dtype_name(dt), lit->ival ? "true" : "false");
        return;
    }
    if (lit->kind != OPD_INT || dt == DT_INDEX || dt == DT_I64 || dt == DT_U64) return;
    /* like MLIR: an iN literal may be written signed or unsigned, i.e. in [-2^(N-1), 2^N - 1] */
    int64_t min, max;
    bool max_is_u64;
    int_dtype_range(dt, &min, &max, &max_is_u64);
    int bits = dt == DT_I1 ? 1 : (int)dtype_size(dt) * 8;
    int64_t lo = dtype_is_unsigned(dt) ? 0 : dt == DT_I1 ? 0 : min;
    int64_t hi = (int64_t)((UINT64_C(1) << bits) - 1);
    if (lit->ival < lo || lit->ival > hi)
        vreport(ctx, op, lit->loc, SEV_ERROR, "CONSTANT.range", "integer constant %lld is out of range for %s",
                (long long)lit->ival, dtype_name(dt));
}

/* arith.constant: the literal fits its declared type. */
/* A vector constant: `dense<[e0, e1, ...]>` with one integer element per lane, or the splat
 * `dense<e>`, of a static integer vector type of at most 64 bits (what pto-run holds: tmrgsort's
 * vector<4xi16>); each element in the lane type's signed or unsigned range, as MLIR reads it. */
static void check_dense_constant(VerifyCtx *ctx, const Op *op, const Operand *lit, const Type *t) {
    const char *rule = "CONSTANT.dense";
    if (lit->kind != OPD_DENSE) {
        vreport(ctx, op, lit->loc, SEV_ERROR, rule, "expects a dense<...> value for the vector type %s", type_text(ctx, t));
        return;
    }
    if (t->kind != TY_VECTOR) {
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, rule, "expects a vector result type for %s, got %s",
                lit->text, type_text(ctx, t));
        return;
    }
    int64_t lanes = 1;
    for (int i = 0; i < t->rank; i++) lanes = t->dims[i] == DIM_DYNAMIC || lanes > 64 ? -1 : lanes * t->dims[i];
    int bits = dtype_is_int(t->dtype) ? (int)dtype_size(t->dtype) * 8 : 0;
    if (!bits || lanes < 1 || lanes * bits > 64) {
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, rule,
                "expects a static integer vector of at most 64 bits (such as vector<4xi16>), got %s", type_text(ctx, t));
        return;
    }
    int64_t vals[64];
    int n;
    if (!dense_int_elements(lit->text, vals, 64, &n)) {
        vreport(ctx, op, lit->loc, SEV_ERROR, rule, "expects integer elements, `dense<[1, 2, ...]>` or `dense<1>`, got %s",
                lit->text);
        return;
    }
    if (n != 1 && n != lanes) {
        vreport(ctx, op, lit->loc, SEV_ERROR, rule, "expects %lld elements (or one, a splat) for %s, got %d",
                (long long)lanes, type_text(ctx, t), n);
        return;
    }
    int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    for (int i = 0; i < n; i++)
        if (vals[i] < lo || (bits < 64 && vals[i] > (int64_t)((UINT64_C(1) << bits) - 1))) {
            vreport(ctx, op, lit->loc, SEV_ERROR, rule, "element %lld does not fit in %s", (long long)vals[i],
                    dtype_name(t->dtype));
            return;
        }
}

void verify_constant(VerifyCtx *ctx, const Op *op) {
    const Type *t = result_type_at(op, 0);
    if (op->ins.count < 1 || !t) return;
    const Operand *lit = &op->ins.items[0];
    if (lit->kind == OPD_DENSE || t->kind == TY_VECTOR) {
        check_dense_constant(ctx, op, lit, t);
        return;
    }
    if (t->kind != TY_SCALAR) {
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "CONSTANT.type", "expects a scalar result type, got %s",
                type_text(ctx, t));
        return;
    }
    if (dtype_is_float(t->dtype))
        check_float_constant(ctx, op, lit, t->dtype);
    else
        check_int_constant(ctx, op, lit, t->dtype);
}

/* All operand types (where written or known) and the result type are one integer-like type. */
static void check_same_int_types(VerifyCtx *ctx, const Op *op, int from, const Type *want, SrcLoc want_loc) {
    const char *rule = "ARITH.operand-types";
    if (want && !is_int_like(want)) {
        vreport(ctx, op, want_loc, SEV_ERROR, rule, "expects an integer, index or i1 type, got %s",
                type_text(ctx, want));
        return;
    }
    for (int i = from; i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && want && !type_equal(t, want)) {
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, rule,
                    "requires the same type for all operands and results, got %s -> %s",
                    operand_types_text(ctx, &op->ins, from), type_text(ctx, want));
            return;
        }
    }
}

/* Integer arith ops (addi ... xori): one integer-like type for operands and result. */
void verify_int_binary(VerifyCtx *ctx, const Op *op) {
    check_same_int_types(ctx, op, 0, result_type_at(op, 0), result_type_loc_at(op, 0));
}

static const char *const cmpi_predicates[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};

/* arith.cmpi: known predicate, operands of one type, i1 result. */
void verify_cmpi(VerifyCtx *ctx, const Op *op) {
    bool known = false;
    for (size_t i = 0; op->predicate && i < sizeof cmpi_predicates / sizeof *cmpi_predicates; i++)
        known = known || strcmp(op->predicate, cmpi_predicates[i]) == 0;
    if (!known)
        vreport(ctx, op, op->loc, SEV_ERROR, "ARITH.cmpi-predicate",
                "expects a predicate among eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge, got '%s'",
                op->predicate ? op->predicate : "");
    const Type *lhs = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    const Type *rhs = op->ins.count > 1 ? operand_type(&op->ins.items[1]) : NULL;
    if (lhs && rhs && !type_equal(lhs, rhs))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, "ARITH.operand-types",
                "requires all operands to have the same type, got %s and %s", type_text(ctx, lhs), type_text(ctx, rhs));
    else if (lhs && !is_int_like(lhs))
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "ARITH.operand-types",
                "expects integer, index or i1 operands, got %s", type_text(ctx, lhs));
    const Type *res = result_type_at(op, 0);
    if (res && !is_scalar_of(res, DT_I1))
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "ARITH.cmpi-result", "expects result type i1, got %s",
                type_text(ctx, res));
}

static bool is_float_scalar(const Type *t) { return t && t->kind == TY_SCALAR && dtype_is_float(t->dtype); }

/* Float arith ops (addf ... minimumf, negf): one float type (f16, bf16, f32) for operands and result. */
void verify_float_binary(VerifyCtx *ctx, const Op *op) {
    const Type *want = result_type_at(op, 0);
    if (want && !is_float_scalar(want)) {
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "ARITH.float-types",
                "expects a floating-point type (f16, bf16, f32), got %s", type_text(ctx, want));
        return;
    }
    for (int i = 0; want && i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && !type_equal(t, want)) {
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, "ARITH.operand-types",
                    "requires the same type for all operands and results, got %s -> %s",
                    operand_types_text(ctx, &op->ins, 0), type_text(ctx, want));
            return;
        }
    }
}

static const char *const cmpf_predicates[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                              "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};

/* arith.cmpf: known predicate, float operands of one type, i1 result. */
void verify_cmpf(VerifyCtx *ctx, const Op *op) {
    bool known = false;
    for (size_t i = 0; op->predicate && i < sizeof cmpf_predicates / sizeof *cmpf_predicates; i++)
        known = known || strcmp(op->predicate, cmpf_predicates[i]) == 0;
    if (!known)
        vreport(ctx, op, op->loc, SEV_ERROR, "ARITH.cmpf-predicate",
                "expects a predicate among false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, "
                "true, got '%s'",
                op->predicate ? op->predicate : "");
    const Type *lhs = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    const Type *rhs = op->ins.count > 1 ? operand_type(&op->ins.items[1]) : NULL;
    if (lhs && rhs && !type_equal(lhs, rhs))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, "ARITH.operand-types",
                "requires all operands to have the same type, got %s and %s", type_text(ctx, lhs), type_text(ctx, rhs));
    else if (lhs && !is_float_scalar(lhs))
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "ARITH.float-types",
                "expects floating-point operands (f16, bf16, f32), got %s", type_text(ctx, lhs));
    const Type *res = result_type_at(op, 0);
    if (res && !is_scalar_of(res, DT_I1))
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "ARITH.cmpf-result", "expects result type i1, got %s",
                type_text(ctx, res));
}

/* Width in bits of a float or integer scalar type. */
static int scalar_bits(DType dt) { return (int)dtype_size(dt) * 8; }

/* arith.sitofp/uitofp (integer -> float), fptosi/fptoui (float -> integer), extf (float -> wider
 * float), truncf (float -> narrower float). As in MLIR, index is not accepted (index_cast first). */
void verify_float_cast(VerifyCtx *ctx, const Op *op) {
    const Type *in = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL, *out = result_type_at(op, 0);
    if (!in || !out) return;
    /* signless integers of any width, i1 included (MLIR); not index */
    bool in_int = in->kind == TY_SCALAR && (dtype_is_int(in->dtype) || in->dtype == DT_I1);
    bool out_int = out->kind == TY_SCALAR && (dtype_is_int(out->dtype) || out->dtype == DT_I1);
    bool in_f = is_float_scalar(in), out_f = is_float_scalar(out);
    bool ok;
    const char *want;
    uint64_t flags = op_info(op->code)->flags;
    if (flags & OPF_FROM_INT) {
        ok = in_int && out_f;
        want = "an integer operand and a floating-point result";
    } else if (flags & OPF_TO_INT) {
        ok = in_f && out_int;
        want = "a floating-point operand and an integer result";
    } else if (flags & OPF_WIDEN) {
        ok = in_f && out_f && scalar_bits(out->dtype) > scalar_bits(in->dtype);
        want = "a floating-point result wider than the operand";
    } else {
        ok = in_f && out_f && scalar_bits(out->dtype) < scalar_bits(in->dtype);
        want = "a floating-point result narrower than the operand";
    }
    if (!ok)
        vreport(ctx, op, op->loc, SEV_ERROR, "ARITH.cast-types",
                "operand type '%s' and result type '%s' are cast incompatible (expects %s)", type_text(ctx, in),
                type_text(ctx, out), want);
}

/* arith.index_cast: between index and an integer type. */
void verify_index_cast(VerifyCtx *ctx, const Op *op) {
    const Type *in = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL, *out = result_type_at(op, 0);
    if (!in || !out) return;
    bool in_index = is_scalar_of(in, DT_INDEX), out_index = is_scalar_of(out, DT_INDEX);
    bool in_int = in->kind == TY_SCALAR && dtype_is_int(in->dtype);
    bool out_int = out->kind == TY_SCALAR && dtype_is_int(out->dtype);
    if (!((in_index && out_int) || (in_int && out_index)))
        vreport(ctx, op, op->loc, SEV_ERROR, "ARITH.index-cast",
                "operand type '%s' and result type '%s' are cast "
                "incompatible (one must be index, the other an integer)",
                type_text(ctx, in), type_text(ctx, out));
}

/* arith.select: i1 condition, both values of the result type. */
void verify_select(VerifyCtx *ctx, const Op *op) {
    const Type *cond = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    if (cond && !is_scalar_of(cond, DT_I1))
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "ARITH.select-cond", "expects the condition to be i1, got %s",
                type_text(ctx, cond));
    const Type *res = result_type_at(op, 0);
    for (int i = 1; res && i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && !type_equal(t, res)) {
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, "ARITH.operand-types",
                    "expects the true and false values to have the result type %s, got %s", type_text(ctx, res),
                    type_text(ctx, t));
            return;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* pointers, views and runtime queries                                                         */
/* ------------------------------------------------------------------------------------------ */

/* pto.addptr: a !pto.ptr plus an index offset in elements; the result has the pointer's type. */
void verify_addptr(VerifyCtx *ctx, const Op *op) {
    const Type *p = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    const Type *off = op->ins.count > 1 ? operand_type(&op->ins.items[1]) : NULL, *res = result_type_at(op, 0);
    if (p && p->kind != TY_PTR)
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "ADDPTR.ptr", "expects a !pto.ptr operand, got %s",
                type_text(ctx, p));
    if (off && !is_scalar_of(off, DT_INDEX))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, "ADDPTR.offset", "expects the offset to be index, got %s",
                type_text(ctx, off));
    if (p && res && !type_equal(p, res))
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "ADDPTR.result",
                "failed to verify that all of {ptr, result} have same type: %s vs %s", type_text(ctx, p),
                type_text(ctx, res));
    int64_t v;
    if (op->ins.count > 1 && const_int_of(&op->ins.items[1], &v) && v < 0)
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, "ADDPTR.offset", "expects a non-negative offset, got %lld",
                (long long)v);
}

/* pto.load_scalar / pto.store_scalar: PTOAS LoadScalarOp / StoreScalarOp::verify (a memref pointer
 * is not a pto-as type); the offset index, non-negative when constant. */
void verify_scalar_ptr(VerifyCtx *ctx, const Op *op) {
    bool load = op->n_results > 0;
    const Type *p = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    const Type *off = op->ins.count > 1 ? operand_type(&op->ins.items[1]) : NULL;
    const Type *val = load ? result_type_at(op, 0) : op->ins.count > 2 ? operand_type(&op->ins.items[2]) : NULL;
    if (p && p->kind != TY_PTR) {
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, op_rule(ctx, op, "ptr"), "expects ptr to be !pto.ptr or memref type, got %s",
                type_text(ctx, p));
        return;
    }
    if (off && !is_scalar_of(off, DT_INDEX))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, op_rule(ctx, op, "offset"), "expects the offset to be index, got %s",
                type_text(ctx, off));
    int64_t v;
    if (op->ins.count > 1 && const_int_of(&op->ins.items[1], &v) && v < 0)
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, op_rule(ctx, op, "offset"), "expects a non-negative offset, got %lld",
                (long long)v);
    if (p && val && (val->kind != TY_SCALAR || val->dtype != p->dtype))
        vreport(ctx, op, load ? result_type_loc_at(op, 0) : op->ins.items[2].loc, SEV_ERROR, op_rule(ctx, op, "type"),
                "expects %s type to match ptr element type (%s), got %s", load ? "result" : "value", dtype_name(p->dtype),
                type_text(ctx, val));
}

/* pto.get_tensor_view_dim: a tensor view and an index dimension in range; index result. */
void verify_get_tensor_view_dim(VerifyCtx *ctx, const Op *op) {
    const Type *tv = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    const Type *dim = op->ins.count > 1 ? operand_type(&op->ins.items[1]) : NULL, *res = result_type_at(op, 0);
    if (tv && tv->kind != TY_TENSOR_VIEW)
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "GET_TENSOR_VIEW_DIM.view",
                "expects a !pto.tensor_view operand, got %s", type_text(ctx, tv));
    if (dim && !is_scalar_of(dim, DT_INDEX))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, "GET_TENSOR_VIEW_DIM.dim",
                "expects the dimension index to be index, got %s", type_text(ctx, dim));
    int64_t d;
    if (tv && tv->kind == TY_TENSOR_VIEW && op->ins.count > 1 && const_int_of(&op->ins.items[1], &d) &&
        (d < 0 || d >= tv->rank))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, "GET_TENSOR_VIEW_DIM.dim",
                "dimension index %lld is out of range for a rank-%d view", (long long)d, tv->rank);
    if (res && !is_scalar_of(res, DT_INDEX))
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "GET_TENSOR_VIEW_DIM.result",
                "expects result type index, got %s", type_text(ctx, res));
}

/* pto.get_block_idx / get_block_num / get_subblock_idx / get_subblock_num: an i64 result. */
void verify_block_query(VerifyCtx *ctx, const Op *op) {
    const Type *res = result_type_at(op, 0);
    if (res && !is_scalar_of(res, DT_I64))
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, "BLOCK.result", "expects result type i64, got %s",
                type_text(ctx, res));
}

/* ------------------------------------------------------------------------------------------ */
/* scf                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Index of the variadic operand position named "init" (loop-carried values), or -1. */
static int init_position(const Op *op) {
    const OpInfo *info = op_info(op->code);
    for (int i = 0; i < OPSPEC_MAX && info->ins[i].name; i++)
        if (strcmp(info->ins[i].name, "init") == 0) return i;
    return -1;
}

/* The op whose region holds `op`, or NULL at function level. */
static const Op *parent_op(const Op *op) {
    return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}

/* Index of the region of `parent` that contains `op`'s block. */
static int region_index(const Op *parent, const Op *op) {
    for (int r = 0; r < parent->n_regions; r++)
        if (parent->regions[r].block == op->parent) return r;
    return -1;
}

static bool ends_with_terminator(const Block *b) {
    return b && b->last && (unsigned)b->last->code < OP_COUNT && (op_info(b->last->code)->flags & OPF_TERMINATOR);
}

/* Regions of an op with results must end with a terminator that yields them. */
static void check_regions_terminated(VerifyCtx *ctx, const Op *op, const char *rule) {
    if (op->n_results == 0) return;
    for (int r = 0; r < op->n_regions; r++)
        if (!ends_with_terminator(op->regions[r].block))
            vreport(ctx, op, op->loc, SEV_ERROR, rule,
                    "expects region #%d to end with a terminator yielding %d value(s)", r, op->n_results);
}

/* Compares a list of types (`got`, from operands) with the expected ones. */
static void check_types_match(VerifyCtx *ctx, const Op *op, const char *rule, const char *what, const OperandList *got,
                              int from, const Type *const *want, int n_want) {
    int n_got = got->count - from;
    bool ok = n_got == n_want;
    for (int i = 0; ok && i < n_want; i++) {
        const Type *t = operand_type(&got->items[from + i]);
        ok = !t || !want[i] || type_equal(t, want[i]);
    }
    if (ok) return;
    const char *want_text = "(";
    for (int i = 0; i < n_want; i++)
        want_text =
            arena_printf(ctx->arena, "%s%s%s", want_text, i ? ", " : "", want[i] ? type_text(ctx, want[i]) : "?");
    vreport(ctx, op, op->loc, SEV_ERROR, rule, "expects %s %s), got %s", what, want_text,
            operand_types_text(ctx, got, from));
}

static const Type **value_types(VerifyCtx *ctx, Value *const *values, int n) {
    const Type **types = arena_alloc_array(ctx->arena, (size_t)(n > 0 ? n : 1), sizeof *types);
    for (int i = 0; i < n; i++) types[i] = values[i] ? values[i]->type : NULL;
    return types;
}

static const Type **operand_types(VerifyCtx *ctx, const OperandList *list, int from) {
    int n = list->count - from;
    const Type **types = arena_alloc_array(ctx->arena, (size_t)(n > 0 ? n : 1), sizeof *types);
    for (int i = 0; i < n; i++) types[i] = operand_type(&list->items[from + i]);
    return types;
}

/* scf.for: index bounds, positive constant step, iter_args matching the results. */
void verify_scf_for(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    for (int i = 0; i < 3 && i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && !is_scalar_of(t, DT_INDEX))
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, "SCF.for-bounds", "expects %s to be index, got %s",
                    info->ins[i].name, type_text(ctx, t));
    }
    int64_t step;
    if (op->ins.count > 2 && const_int_of(&op->ins.items[2], &step) && step <= 0)
        vreport(ctx, op, op->ins.items[2].loc, SEV_ERROR, "SCF.for-step",
                "constant step operand must be positive, got %lld", (long long)step);
    int from = init_position(op);
    if (from < 0 || from > op->ins.count) return;
    const Type **inits = operand_types(ctx, &op->ins, from);
    int n_inits = op->ins.count - from;
    if (op->n_results != n_inits)
        vreport(ctx, op, op->loc, SEV_ERROR, "SCF.for-iter-args", "expects %d result(s) for %d iter_args, got %d",
                n_inits, n_inits, op->n_results);
    else {
        for (int i = 0; i < n_inits; i++) {
            const Type *r = result_type_at(op, i);
            if (inits[i] && r && !type_equal(inits[i], r))
                vreport(ctx, op, op->ins.items[from + i].loc, SEV_ERROR, "SCF.for-iter-args",
                        "expects iter_arg %d (%s) to have the result type %s", i, type_text(ctx, inits[i]),
                        type_text(ctx, r));
        }
    }
    check_regions_terminated(ctx, op, "SCF.yield-missing");
}

/* scf.if: i1 condition; with results, an else region and terminated regions. */
void verify_scf_if(VerifyCtx *ctx, const Op *op) {
    const Type *cond = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    if (cond && !is_scalar_of(cond, DT_I1))
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "SCF.if-cond", "expects the condition to be i1, got %s",
                type_text(ctx, cond));
    if (op->n_results > 0 && (op->n_regions < 2 || !op->regions[1].block))
        vreport(ctx, op, op->loc, SEV_ERROR, "SCF.if-else", "must have an else block if defining values");
    check_regions_terminated(ctx, op, "SCF.yield-missing");
}

/* scf.while: initial values match the before region, after-region arguments the results. */
void verify_scf_while(VerifyCtx *ctx, const Op *op) {
    if (op->n_regions < 1 || !op->regions[0].block) return;
    const Block *before = op->regions[0].block;
    const Type **args = value_types(ctx, before->args, before->n_args);
    check_types_match(ctx, op, "SCF.while-types", "the initial values to match the before region's arguments", &op->ins,
                      0, args, before->n_args);
    if (op->n_regions < 2 || !op->regions[1].block) return;
    const Block *after = op->regions[1].block;
    for (int i = 0; i < after->n_args && i < op->n_results; i++) {
        const Type *a = after->args[i] ? after->args[i]->type : NULL, *r = result_type_at(op, i);
        if (a && r && !type_equal(a, r))
            vreport(ctx, op, after->args[i]->loc, SEV_ERROR, "SCF.while-types",
                    "expects the after region's argument %d (%s) to have the result type %s", i, type_text(ctx, a),
                    type_text(ctx, r));
    }
}

/* scf.condition: i1 condition, forwarded values matching the scf.while results. */
void verify_scf_condition(VerifyCtx *ctx, const Op *op) {
    const Type *cond = op->ins.count > 0 ? operand_type(&op->ins.items[0]) : NULL;
    if (cond && !is_scalar_of(cond, DT_I1))
        vreport(ctx, op, op->ins.items[0].loc, SEV_ERROR, "SCF.condition-cond",
                "expects the condition to be i1, got %s", type_text(ctx, cond));
    const Op *parent = parent_op(op);
    if (!parent) return;
    const Type **results = value_types(ctx, parent->results, parent->n_results);
    check_types_match(ctx, op, "SCF.condition-types", "the forwarded values to match the parent's results", &op->ins, 1,
                      results, parent->n_results);
}

/* scf.yield: yielded types match what the parent region expects. */
void verify_scf_yield(VerifyCtx *ctx, const Op *op) {
    const Op *parent = parent_op(op);
    if (!parent) {
        vreport(ctx, op, op->loc, SEV_ERROR, "SCF.yield-parent", "expects to be the terminator of an scf region");
        return;
    }
    /* loop-carried values go back to the iter_args / before-region arguments; otherwise the
     * yielded values are the parent's results */
    int init = init_position(parent);
    const Type **want;
    int n_want;
    if (init >= 0 && (region_index(parent, op) > 0 || parent->n_regions == 1)) {
        want = operand_types(ctx, &parent->ins, init);
        n_want = parent->ins.count - init;
    } else {
        want = value_types(ctx, parent->results, parent->n_results);
        n_want = parent->n_results;
    }
    check_types_match(ctx, op, "SCF.yield-types", "the yielded values to match the parent's types", &op->ins, 0, want,
                      n_want);
}

/* ------------------------------------------------------------------------------------------ */
/* func.call / return                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* func.call: the callee exists, is not recursive, and its signature matches. */
void verify_call(VerifyCtx *ctx, const Op *op) {
    const Func *callee = op->callee ? module_find_func(ctx->module, op->callee) : NULL;
    if (!callee) {
        vreport(ctx, op, op->loc, SEV_ERROR, "CALL.callee", "'%s' does not reference a valid function",
                op->callee ? op->callee : "");
        return;
    }
    if (callee->parse_failed) return; /* its signature may be incomplete: the parser reported it */
    const CallGraph *calls = verify_call_graph(ctx);
    int target = callgraph_func_index(calls, callee->name);
    if (target >= 0 && calls->component && calls->component[target] == calls->component[ctx->func_index]) {
        const char *caller = calls->funcs[ctx->func_index]->name;
        if (target == ctx->func_index)
            vreport(ctx, op, op->loc, SEV_ERROR, "CALL.recursive",
                    "recursive function calls are not supported: @%s calls itself", caller);
        else
            vreport(ctx, op, op->loc, SEV_ERROR, "CALL.recursive",
                    "recursive function calls are not supported: @%s calls @%s, which leads back to @%s", caller,
                    callee->name, caller);
    }
    if (op->ins.count != callee->n_args) {
        vreport(ctx, op, op->loc, SEV_ERROR, "CALL.operands",
                "incorrect number of operands for callee @%s: expected %d, got %d", callee->name, callee->n_args,
                op->ins.count);
    } else {
        for (int i = 0; i < op->ins.count; i++) {
            const Type *got = operand_type(&op->ins.items[i]), *want = callee->args[i] ? callee->args[i]->type : NULL;
            if (got && want && !type_equal(got, want))
                vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, "CALL.operands",
                        "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d",
                        type_text(ctx, want), type_text(ctx, got), i);
        }
    }
    if (op->n_results != callee->n_results) {
        vreport(ctx, op, op->loc, SEV_ERROR, "CALL.results",
                "incorrect number of results for callee @%s: expected %d, got %d", callee->name, callee->n_results,
                op->n_results);
        return;
    }
    for (int i = 0; i < op->n_results; i++) {
        const Type *got = result_type_at(op, i), *want = callee->result_types[i];
        if (got && want && !type_equal(got, want))
            vreport(ctx, op, op->loc, SEV_ERROR, "CALL.results",
                    "result type mismatch at index %d: expected %s, got %s", i, type_text(ctx, want),
                    type_text(ctx, got));
    }
}

/* return: operands match the enclosing function's result types. */
void verify_return(VerifyCtx *ctx, const Op *op) {
    const Func *f = ctx->facts ? ctx->facts->func : NULL;
    if (!f || parent_op(op)) return;
    if (op->ins.count != f->n_results) {
        vreport(ctx, op, op->loc, SEV_ERROR, "RETURN.types", "has %d operands, but enclosing function (@%s) returns %d",
                op->ins.count, f->name, f->n_results);
        return;
    }
    for (int i = 0; i < op->ins.count; i++) {
        const Type *got = operand_type(&op->ins.items[i]), *want = f->result_types[i];
        if (got && want && !type_equal(got, want))
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, "RETURN.types",
                    "type of return operand %d (%s) doesn't match function result type (%s) in function @%s", i,
                    type_text(ctx, got), type_text(ctx, want), f->name);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* synchronisation                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Splits an attribute argument into its prefix and bare enumerator: `<PIPE_V>` -> ("", PIPE_V),
 * `#pto.pipe<PIPE_V>` -> ("#pto.pipe", PIPE_V), `PIPE_V` -> ("", PIPE_V). */
static const char *attr_word(VerifyCtx *ctx, const Attr *a, const char **prefix) {
    const char *s = a->text ? a->text : a->key ? a->key : "";
    const char *lt = strchr(s, '<');
    *prefix = lt ? arena_strndup(ctx->arena, s, (size_t)(lt - s)) : "";
    if (lt) s = lt + 1;
    size_t n = strcspn(s, "> \t");
    return arena_strndup(ctx->arena, s, n);
}

/* What a synchronisation op takes in its brackets (its row's ELEM column: P a pipe, E an event,
 * O a sync op type) and how many index operands (the _dyn forms' event id); false for none. */
static bool sync_shape(OpCode code, const char **args, int *n_operands) {
    const OpInfo *info = op_info(code);
    *args = info->elem;
    *n_operands = info->ins[0].name && !(info->ins[0].flags & SPEC_VARIADIC) ? 1 : 0;
    return strcmp(*args, "none") != 0;
}

/* A sync rule id: the op's name after `pto.` with its dots as underscores (SYNC_SET.args), so that
 * the rules of pto.sync.set stay apart from pto-run's SYNC.* reports. */
static const char *sync_rule(VerifyCtx *ctx, const char *opn, const char *suffix) {
    char *name = arena_printf(ctx->arena, "%s", opn);
    for (char *c = strchr(name, '.') ? strchr(name, '.') + 1 : name; *c; c++)
        if (*c == '.') *c = '_';
    return rule_id(ctx->arena, name, suffix);
}

/* One bracketed argument of kind P, E or O. */
static void check_sync_arg(VerifyCtx *ctx, const Op *op, const Attr *a, char kind) {
    const char *opn = op_info(op->code)->name, *prefix;
    const char *w = attr_word(ctx, a, &prefix);
    const char *want_prefix = kind == 'P' ? "#pto.pipe" : kind == 'E' ? "#pto.event" : NULL;
    bool prefix_ok = !*prefix || (want_prefix && !strcmp(prefix, want_prefix)) ||
                     (kind == 'O' && (!strcmp(prefix, "#pto.pipe_event_type") || !strcmp(prefix, "#pto.sync_op_type")));
    const char *what = kind == 'P' ? "a pipe" : kind == 'E' ? "an event id" : "a sync op type";
    if (!prefix_ok) {
        vreport(ctx, op, a->loc, SEV_ERROR, sync_rule(ctx, opn, "args"), "expects %s here, got %s", what,
                a->text ? a->text : "");
        return;
    }
    if (kind == 'P' && sync_pipe_named(w, strlen(w)) < 0)
        vreport(ctx, op, a->loc, SEV_ERROR, sync_rule(ctx, opn, "pipe"),
                "expects a pipe among PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1..5, PIPE_V2, PIPE_FIX, PIPE_ALL, "
                "VIRTUAL_PIPE_MTE2_L1A/B, got %s",
                w);
    else if (kind == 'E' && sync_event_named(w, strlen(w)) < 0)
        vreport(ctx, op, a->loc, SEV_ERROR, sync_rule(ctx, opn, "event"),
                "expects an event among EVENT_ID0..EVENT_ID7, got %s", w);
    else if (kind == 'O' && sync_op_type_pipe(w, strlen(w)) < 0)
        vreport(ctx, op, a->loc, SEV_ERROR, sync_rule(ctx, opn, "op-type"),
                "expects a sync op type among TLOAD, TSTORE_ACC, TSTORE_VEC, TMOV_M2L, TMOV_M2S, TMOV_M2B, TMOV_M2V, "
                "TMOV_V2M, TMATMUL, TVEC, TVECWAIT_EVENT, got %s",
                w);
}

/* ---- legal pipe pairs, and the straight-line flag protocol -------------------------------------- */

/* The hardware event pairs (AscendC HardEvent): bit d of pipe_pairs[s] when s -> d exists. */
#define PB(p) (1u << SYNC_PIPE_##p)
static const uint16_t pipe_pairs[SYNC_PIPE_COUNT] = {
    [SYNC_PIPE_S] = PB(V) | PB(MTE2) | PB(MTE3),
    [SYNC_PIPE_V] = PB(V) | PB(MTE2) | PB(MTE3) | PB(M) | PB(MTE1) | PB(S),
    [SYNC_PIPE_M] = PB(MTE1) | PB(V) | PB(MTE2) | PB(FIX) | PB(S),
    [SYNC_PIPE_MTE1] = PB(MTE2) | PB(M) | PB(MTE3) | PB(V),
    [SYNC_PIPE_MTE2] = PB(MTE1) | PB(V) | PB(M) | PB(MTE3) | PB(S) | PB(FIX),
    [SYNC_PIPE_MTE3] = PB(V) | PB(MTE1) | PB(MTE2) | PB(S),
    [SYNC_PIPE_FIX] = PB(M) | PB(MTE2) | PB(S) | PB(MTE3),
};
#undef PB

/* A set/wait op's flag (sync_flag_args), a _dyn form's constant event id included (-1: dynamic). */
static bool sync_flag_of(const Op *op, int *src, int *dst, int *event) {
    if (!sync_flag_args(op, src, dst, event)) return false;
    int64_t e;
    if (*event < 0 && op->ins.count == 1 && const_int_of(&op->ins.items[0], &e) && e >= 0 && e < SYNC_EVENT_IDS)
        *event = (int)e;
    return true;
}

/* set/wait pairs: PIPE_ALL is not a flag endpoint, and a pair the hardware has no event for is
 * suspicious; a barrier on PIPE_S is a hardware error (AscendC PipeBarrier). */
static void check_sync_pipes(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    const char *w;
    size_t n;
    if ((info->flags & OPF_SYNC_BARRIER) && op->attr_args.count == 1 && attr_enum_word(&op->attr_args.items[0], &w, &n) &&
        sync_pipe_named(w, n) == SYNC_PIPE_S)
        vreport(ctx, op, op->attr_args.items[0].loc, SEV_ERROR, rule_id(ctx->arena, info->name, "pipe-s"),
                "a barrier on PIPE_S is a hardware error: the scalar pipe is always in order");
    int src, dst, event;
    if (!(info->flags & (OPF_SYNC_SET | OPF_SYNC_WAIT)) || !sync_flag_of(op, &src, &dst, &event)) return;
    bool judged_src = src <= SYNC_PIPE_MTE3 || src == SYNC_PIPE_FIX, judged_dst = dst <= SYNC_PIPE_MTE3 || dst == SYNC_PIPE_FIX;
    if (src == SYNC_PIPE_ALL || dst == SYNC_PIPE_ALL)
        vreport(ctx, op, op->attr_args.items[src == SYNC_PIPE_ALL ? 0 : 1].loc, SEV_ERROR,
                rule_id(ctx->arena, info->name, "pipe-all"), "PIPE_ALL cannot be a flag's pipe; use pto.barrier <PIPE_ALL>");
    else if (judged_src && judged_dst && !(pipe_pairs[src] & (1u << dst))) /* virtual, MTE4/5 and V2 are not judged */
        vreport(ctx, op, op->loc, SEV_WARNING, rule_id(ctx->arena, info->name, "pipe-pair"),
                "the hardware has no event from %s to %s (AscendC HardEvent); this flag orders nothing it can",
                sync_pipe_name(src), sync_pipe_name(dst));
}

/* pto.get_buf / pto.rls_buf `[op_type, buf_id] {mode = N}` (PTOAS verifyBufSyncOp: buf_id 0..31,
 * mode >= 0; taken on every target, as PTOAS's verifier does). */
static void verify_sync_buf(VerifyCtx *ctx, const Op *op) {
    const char *opn = op_info(op->code)->name;
    int64_t v;
    if (op->attr_args.count != 2 || op->ins.count || !op->attr_args_bracketed) {
        vreport(ctx, op, op->loc, SEV_ERROR, sync_rule(ctx, opn, "args"),
                "expects [op_type, buf_id], e.g. %s[#pto.pipe_event_type<TLOAD>, 0], got %d argument(s)", opn,
                op->attr_args.count + op->ins.count);
        return;
    }
    check_sync_arg(ctx, op, &op->attr_args.items[0], 'O');
    const Attr *id = &op->attr_args.items[1];
    if (!sync_int_arg(id, &v))
        vreport(ctx, op, id->loc, SEV_ERROR, sync_rule(ctx, opn, "args"), "expects an integer buffer id, got %s",
                id->text ? id->text : "");
    else if (v < 0 || v > 31)
        vreport(ctx, op, id->loc, SEV_ERROR, sync_rule(ctx, opn, "buf-id"), "buffer id %lld is out of range 0..31",
                (long long)v);
    const Attr *mode = attr_find(&op->attrs, "mode");
    if (mode && attr_value(mode, AK_INT, &v) && v < 0)
        vreport(ctx, op, mode->loc, SEV_ERROR, sync_rule(ctx, opn, "mode"), "expects mode to be non-negative, got %lld",
                (long long)v);
}

/* pto.sync.set / pto.sync.wait `<PIPE>, ID` or `<PIPE>, %id` (PTOAS SyncSetOp/SyncWaitOp::verify:
 * one id form, ffts_mode 0..2, the A5 pipes). PTOAS checks no id range; the hardware has 16
 * semaphores on A2/A3 and 32 on A5: a warning here, an error when pto-run executes it. An A5
 * PIPE_FIX set at 16 or more is a warning too: PTOAS also raises id + 16. */
static void verify_sync_cross(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    const char *opn = info->name;
    bool set = (info->flags & OPF_SYNC_SET) != 0;
    if (op->attr_args.count < 1 || op->attr_args.count + op->ins.count != 2 || op->attr_args_bracketed) {
        vreport(ctx, op, op->loc, SEV_ERROR, sync_rule(ctx, opn, "args"),
                "expects exactly one event-id form: `%s <PIPE>, ID` (a static integer) or `%s <PIPE>, %%id` (an "
                "index value)", opn, opn);
        return;
    }
    check_sync_arg(ctx, op, &op->attr_args.items[0], 'P');
    const char *w;
    size_t n;
    int pipe = attr_enum_word(&op->attr_args.items[0], &w, &n) ? sync_pipe_named(w, n) : -1;
    int64_t id = -1;
    bool known = true; /* the id is a static integer or a constant operand */
    SrcLoc id_loc = op->ins.count ? op->ins.items[0].loc : op->attr_args.items[1].loc;
    if (op->ins.count) {
        const Type *t = operand_type(&op->ins.items[0]);
        if (t && !is_scalar_of(t, DT_INDEX))
            vreport(ctx, op, id_loc, SEV_ERROR, sync_rule(ctx, opn, "event"), "expects the event id to be index, got %s",
                    type_text(ctx, t));
        known = const_int_of(&op->ins.items[0], &id);
    } else if (!sync_int_arg(&op->attr_args.items[1], &id)) {
        vreport(ctx, op, id_loc, SEV_ERROR, sync_rule(ctx, opn, "args"), "expects an integer event id, got %s",
                op->attr_args.items[1].text ? op->attr_args.items[1].text : "");
        return;
    }
    int ids = sync_cross_ids(ctx->target), top = ctx->target == TARGET_A5 && set && pipe == SYNC_PIPE_FIX ? 16 : ids;
    if (known && (id < 0 || id >= ids))
        vreport(ctx, op, id_loc, SEV_WARNING, sync_rule(ctx, opn, "event-range"),
                "event id %lld is outside 0..%d, the cross-core semaphores %s has (PTOAS does not check it; pto-run "
                "refuses it)", (long long)id, ids - 1, target_label(ctx->target));
    else if (known && id >= top)
        vreport(ctx, op, id_loc, SEV_WARNING, sync_rule(ctx, opn, "event-range"),
                "event id %lld is outside 0..15: an A5 PIPE_FIX set also raises id + 16 (PTOAS lowers it to "
                "set_intra_block of both), %lld, which A5 does not have", (long long)id, (long long)id + 16);
    const Attr *mode = attr_find(&op->attrs, "ffts_mode");
    int64_t m;
    if (mode && attr_value(mode, AK_INT, &m) && (m < 0 || m > 2))
        vreport(ctx, op, mode->loc, SEV_ERROR, sync_rule(ctx, opn, "ffts-mode"),
                "requires ffts_mode in range [0, 2], but got %lld", (long long)m);
    if (ctx->target != TARGET_A5 || pipe < 0) return;
    bool ok = set ? pipe == SYNC_PIPE_FIX || pipe == SYNC_PIPE_MTE3
                  : pipe == SYNC_PIPE_FIX || pipe == SYNC_PIPE_MTE1 || pipe == SYNC_PIPE_MTE2 || pipe == SYNC_PIPE_MTE3 ||
                        pipe == SYNC_PIPE_V;
    if (!ok)
        vreport(ctx, op, op->attr_args.items[0].loc, SEV_ERROR, sync_rule(ctx, opn, "a5-pipe"),
                "A5 %s expects pipe to be one of %s, got %s", opn + 4,
                set ? "<PIPE_FIX>, <PIPE_MTE3>" : "<PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, <PIPE_MTE3>, <PIPE_V>",
                sync_pipe_name(pipe));
}

void verify_sync(VerifyCtx *ctx, const Op *op) {
    const char *opn = op_info(op->code)->name, *args;
    int n_operands;
    if (op_info(op->code)->flags & OPF_SYNC_BUF) return verify_sync_buf(ctx, op);
    if (op_info(op->code)->flags & OPF_SYNC_CROSS) {
        if (ctx->facts && !ctx->facts->first_cross_sync) ctx->facts->first_cross_sync = op;
        return verify_sync_cross(ctx, op);
    }
    if (!sync_shape(op->code, &args, &n_operands)) return; /* pto.tsync: operands only */
    check_sync_pipes(ctx, op);
    int n_args = (int)strlen(args);
    if (op->attr_args.count != n_args) {
        static const char *const kind_text[] = {['P'] = "pipe", ['E'] = "event", ['O'] = "op_type"};
        const char *list = "";
        for (int i = 0; i < n_args; i++)
            list = arena_printf(ctx->arena, "%s%s<%s>", list, i ? ", " : "", kind_text[(unsigned char)args[i]]);
        if (n_operands) list = arena_printf(ctx->arena, "%s, %%event_id", list);
        vreport(ctx, op, op->loc, SEV_ERROR, rule_id(ctx->arena, opn, "args"), "expects %d argument(s) [%s], got %d",
                n_args + n_operands, list, op->attr_args.count + op->ins.count);
        return;
    }
    for (int i = 0; i < n_args; i++) check_sync_arg(ctx, op, &op->attr_args.items[i], args[i]);
    if (op->ins.count != n_operands) {
        vreport(ctx, op, op->ins.count ? op->ins.items[0].loc : op->loc, SEV_ERROR, rule_id(ctx->arena, opn, "args"),
                "expects %d operand(s), got %d", n_operands, op->ins.count);
        return;
    }
    for (int i = 0; i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && !is_scalar_of(t, DT_INDEX))
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, rule_id(ctx->arena, opn, "event"),
                    "expects the event id to be index, got %s", type_text(ctx, t));
        int64_t e;
        if (const_int_of(&op->ins.items[i], &e) && (e < 0 || e > 7))
            vreport(ctx, op, op->ins.items[i].loc, SEV_ERROR, rule_id(ctx->arena, opn, "event"),
                    "event id %lld is out of range 0..7", (long long)e);
    }
}

/* pto.section.cube / section.vector: one block without a terminator (the body runs in place). */
/* pto.trap: no operands, no attributes (the table checks both); nothing else to verify. */
void verify_trap(VerifyCtx *ctx, const Op *op) {
    (void)ctx, (void)op;
}

/* pto.print: the scalar is a signless integer or a float (PTOAS's ScalarType: not index, not
 * ui*), and the format holds exactly one conversion that type takes (ir/print_format.c). */
void verify_print(VerifyCtx *ctx, const Op *op) {
    if (op->ins.count != 1) return; /* the table's arity rule reports it */
    const Operand *o = &op->ins.items[0];
    const Type *t = operand_type(o);
    DType dt = o->kind == OPD_FLOAT ? DT_F32 : o->kind == OPD_BOOL ? DT_I1 : DT_I32;
    if (t) {
        if (t->kind != TY_SCALAR || t->dtype == DT_INDEX || dtype_is_unsigned(t->dtype)) {
            vreport(ctx, op, o->loc, SEV_ERROR, op_rule(ctx, op, "scalar"),
                    "expects a signless integer or float scalar (PTOAS's ScalarType), got %s%s", type_text(ctx, t),
                    t->kind == TY_SCALAR && t->dtype == DT_INDEX ? "; convert it with arith.index_cast" : "");
            return;
        }
        dt = t->dtype;
    }
    const Attr *fa = attr_find(&op->attrs, "format");
    if (!fa || fa->kind != ATTR_STRING) return; /* the attribute rules report it */
    PrintOpFormat pf;
    const char *err = NULL;
    if (!print_op_format_parse(ctx->arena, fa->text, dt, &pf, &err))
        vreport(ctx, op, fa->loc, SEV_ERROR, op_rule(ctx, op, "format"), "%s", err);
}

void verify_section(VerifyCtx *ctx, const Op *op) {
    const Block *b = op->n_regions ? op->regions[0].block : NULL;
    for (const Op *o = b ? b->first : NULL; o; o = o->next)
        if ((unsigned)o->code < OP_COUNT && (op_info(o->code)->flags & OPF_TERMINATOR))
            vreport(ctx, o, o->loc, SEV_ERROR, rule_id(ctx->arena, op_info(op->code)->name, "terminator"),
                    "'%s' may not end a %s region (it has no terminator)", op_info(o->code)->name,
                    op_info(op->code)->name);
}

/* ---- the straight-line flag protocol (issue #14, item 1) ------------------------------------------ */

enum { FLAG_UNKNOWN = 0, FLAG_CLEAR, FLAG_SET };
#define N_FLAG_KEYS (SYNC_PIPE_COUNT * SYNC_PIPE_COUNT * SYNC_EVENT_IDS)

#define N_BUF_KEYS (SYNC_PIPE_COUNT * 32) /* buffer-id tokens: (pipe, buf_id) */

typedef struct FlagWalk {
    VerifyCtx *ctx;
    uint8_t state[N_FLAG_KEYS];
    const Op *last[N_FLAG_KEYS]; /* the op that last set or waited the flag */
    uint8_t held[N_BUF_KEYS];    /* FLAG_SET: held (get_buf), FLAG_CLEAR: released */
    const Op *buf_last[N_BUF_KEYS];
} FlagWalk;

static const char *flag_text(VerifyCtx *ctx, int src, int dst, int event) {
    return arena_printf(ctx->arena, "(%s -> %s, EVENT_ID%d)", sync_pipe_name(src), sync_pipe_name(dst), event);
}

static void flag_reset(FlagWalk *w, uint8_t state) {
    memset(w->state, state, sizeof w->state);
    memset(w->last, 0, sizeof w->last);
    memset(w->held, state, sizeof w->held);
    memset(w->buf_last, 0, sizeof w->buf_last);
}

/* get_buf / rls_buf on the straight line: a second acquire on a pipe holding the id, a release on a
 * pipe not holding it. */
static void buf_walk_op(FlagWalk *w, const Op *op) {
    VerifyCtx *ctx = w->ctx;
    const OpInfo *info = op_info(op->code);
    int pipe;
    int64_t id;
    if (!sync_buf_args(op, &pipe, &id) || id < 0 || id >= 32) return;
    int k = pipe * 32 + (int)id;
    const Op *prev = w->buf_last[k];
    if ((info->flags & OPF_SYNC_WAIT) && w->held[k] == FLAG_SET)
        vreport(ctx, op, op->loc, SEV_ERROR, rule_id(ctx->arena, info->name, "double-get"),
                "acquires buffer id %lld on %s again while the get_buf at line %d still holds it: the second acquire "
                "waits for a release that comes after it", (long long)id, sync_pipe_name(pipe), prev ? prev->loc.line : 0);
    else if ((info->flags & OPF_SYNC_SET) && w->held[k] == FLAG_CLEAR)
        vreport(ctx, op, op->loc, SEV_ERROR, rule_id(ctx->arena, info->name, "not-held"),
                "releases buffer id %lld on %s, which no get_buf holds since %s", (long long)id, sync_pipe_name(pipe),
                prev ? arena_printf(ctx->arena, "the release at line %d", prev->loc.line) : "the kernel started");
    w->held[k] = (info->flags & OPF_SYNC_WAIT) ? FLAG_SET : FLAG_CLEAR;
    w->buf_last[k] = op;
}

/* Walks one block in program order. Flags are known only between region ops and calls: a region
 * (loop body, branch) starts with every flag unknown, and leaves them unknown after it. */
static void flag_walk_block(FlagWalk *w, const Block *b, uint8_t start) {
    VerifyCtx *ctx = w->ctx;
    flag_reset(w, start);
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if ((unsigned)op->code >= OP_COUNT) continue;
        const OpInfo *info = op_info(op->code);
        if (op->n_regions || op->callee) { /* a region, or a call that may set or wait anything */
            for (int r = 0; r < op->n_regions; r++) flag_walk_block(w, op->regions[r].block, FLAG_UNKNOWN);
            flag_reset(w, FLAG_UNKNOWN);
            continue;
        }
        if (info->flags & OPF_SYNC_BUF) {
            buf_walk_op(w, op);
            continue;
        }
        int src, dst, event;
        if (!(info->flags & (OPF_SYNC_SET | OPF_SYNC_WAIT)) || !sync_flag_of(op, &src, &dst, &event) ||
            src == SYNC_PIPE_ALL || dst == SYNC_PIPE_ALL)
            continue;
        int base = (src * SYNC_PIPE_COUNT + dst) * SYNC_EVENT_IDS;
        if (event < 0) { /* a dynamic id: any of the pair's flags may be the one */
            memset(&w->state[base], FLAG_UNKNOWN, SYNC_EVENT_IDS);
            continue;
        }
        int k = base + event;
        const Op *prev = w->last[k];
        if ((info->flags & OPF_SYNC_SET) && w->state[k] == FLAG_SET)
            vreport(ctx, op, op->loc, SEV_ERROR, rule_id(ctx->arena, info->name, "double-set"),
                    "sets flag %s again while the set at line %d is still pending: a flag is one bit, so the "
                    "hardware forbids a second set before a wait consumes the first",
                    flag_text(ctx, src, dst, event), prev ? prev->loc.line : 0);
        else if ((info->flags & OPF_SYNC_WAIT) && w->state[k] == FLAG_CLEAR)
            vreport(ctx, op, op->loc, SEV_ERROR, rule_id(ctx->arena, info->name, "never-set"),
                    "waits for flag %s, which nothing raised since %s: this wait blocks forever",
                    flag_text(ctx, src, dst, event),
                    prev ? arena_printf(ctx->arena, "the wait at line %d cleared it", prev->loc.line) : "the kernel started");
        w->state[k] = (info->flags & OPF_SYNC_SET) ? FLAG_SET : FLAG_CLEAR;
        w->last[k] = op;
    }
}

void verify_sync_protocol(VerifyCtx *ctx, const Func *f) {
    if (f->is_declaration || !f->body.block) return;
    FlagWalk *w = arena_alloc(ctx->arena, sizeof *w);
    w->ctx = ctx;
    /* an entry starts with every flag clear; another function may be called with flags raised */
    flag_walk_block(w, f->body.block, f->is_entry ? FLAG_CLEAR : FLAG_UNKNOWN);
    const Op *cross = ctx->facts ? ctx->facts->first_cross_sync : NULL;
    if (cross && ctx->target == TARGET_A2A3 && ctx->facts->ffts_operands.count == 0)
        vreport(ctx, cross, cross->loc, SEV_WARNING, sync_rule(ctx, op_info(cross->code)->name, "ffts"),
                "on A2/A3 a function with cross-core semaphores needs a pto.set_ffts (the FFTS address, a memref "
                "argument): PTOAS's A3 lowering refuses the function without one; pto-run runs it as written");
    if (!f->is_entry) return;
    for (int k = 0; k < N_BUF_KEYS; k++)
        if (w->held[k] == FLAG_SET && w->buf_last[k])
            vreport(ctx, w->buf_last[k], w->buf_last[k]->loc, SEV_WARNING,
                    rule_id(ctx->arena, op_info(w->buf_last[k]->code)->name, "held-at-end"),
                    "buffer id %d is still held on %s when the kernel ends: no pto.rls_buf releases it", k % 32,
                    sync_pipe_name(k / 32));
    for (int k = 0; k < N_FLAG_KEYS; k++)
        if (w->state[k] == FLAG_SET && w->last[k]) {
            int event = k % SYNC_EVENT_IDS, dst = k / SYNC_EVENT_IDS % SYNC_PIPE_COUNT, src = k / SYNC_EVENT_IDS / SYNC_PIPE_COUNT;
            vreport(ctx, w->last[k], w->last[k]->loc, SEV_WARNING,
                    rule_id(ctx->arena, op_info(w->last[k]->code)->name, "left-set"),
                    "flag %s is still set when the kernel ends: no wait consumes it, and on the board it stays "
                    "raised for the next kernel", flag_text(ctx, src, dst, event));
        }
}

/* ---- event-id arrays (PTOAS DeclareEventIdArrayOp, EventIdArrayGetOp, EventIdArraySetOp) ---------- */

/* `pto.set_ffts %ffts : memref<NxT>`: a memref of i64 or i8 (PTOAS SetFFTsOp::verify) that is a
 * function argument (pto-as reads no memref-producing op); the function's memref arguments are
 * checked against these operands at its end. */
void verify_set_ffts(VerifyCtx *ctx, const Op *op) {
    if (op->ins.count < 1) return; /* the parser reported it */
    const Operand *o = &op->ins.items[0];
    const Type *t = operand_type(o);
    if (!t || t->kind != TY_MEMREF) return; /* operand kinds: reported by the parser */
    if (t->dtype != DT_I64 && t->dtype != DT_I8)
        vreport(ctx, op, o->loc, SEV_ERROR, op_rule(ctx, op, "dtype"), "expects element type i64 (or i8), got %s",
                dtype_name(t->dtype));
    if (o->value && o->value->def)
        vreport(ctx, op, o->loc, SEV_ERROR, op_rule(ctx, op, "operand"),
                "expects a function argument (the FFTS address the runtime passes), got the result of '%s'",
                op_info(o->value->def->code)->name);
    if (ctx->facts && o->value) heap_vec_push(&ctx->facts->ffts_operands, o->value);
}

/* `%arr = pto.declare_eventid_array -> !pto.eventid_array<N>`: the result is an array of at least
 * one id (PTOAS's C++ helper PTOAS_EventIdArray<N> static_asserts N > 0). */
void verify_declare_eventid_array(VerifyCtx *ctx, const Op *op) {
    const Type *t = result_type_at(op, 0);
    if (!t || t->kind == TY_INVALID) return;
    if (t->kind != TY_EVENTID_ARRAY) {
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, op_rule(ctx, op, "result"),
                "expects its result to be a !pto.eventid_array<N>, got %s", type_text(ctx, t));
        return;
    }
    if (t->size < 1)
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, op_rule(ctx, op, "size"),
                "an event-id array holds at least one id, got size %lld (PTOAS's C++ helper requires N > 0)",
                (long long)t->size);
}

/* `pto.eventid_array_get %arr[%i] : T` and `pto.eventid_array_set %arr[%i], %v : T`: index-typed
 * index and value (PTOAS: Index), a static index inside the array, a static value among the event
 * ids a flag takes, and get's result index. */
void verify_eventid_array_access(VerifyCtx *ctx, const Op *op) {
    if (op->ins.count < 2) return; /* the parser reported the missing operands */
    const Type *arr = operand_type(&op->ins.items[0]);
    for (int i = 1; i < op->ins.count; i++) {
        const Operand *o = &op->ins.items[i];
        const Type *t = operand_type(o);
        if (t && t->kind != TY_INVALID && !is_scalar_of(t, DT_INDEX))
            vreport(ctx, op, o->loc, SEV_ERROR, op_rule(ctx, op, i == 1 ? "index-type" : "value-type"),
                    "expects the %s to be index, got %s", i == 1 ? "index" : "stored event id", type_text(ctx, t));
    }
    const Type *r = result_type_at(op, 0);
    if (op->n_results && r && r->kind != TY_INVALID && !is_scalar_of(r, DT_INDEX))
        vreport(ctx, op, result_type_loc_at(op, 0), SEV_ERROR, op_rule(ctx, op, "result"),
                "expects its result to be index, got %s", type_text(ctx, r));
    int64_t v;
    if (arr && arr->kind == TY_EVENTID_ARRAY && arr->size >= 1 && const_int_of(&op->ins.items[1], &v) &&
        (v < 0 || v >= arr->size))
        vreport(ctx, op, op->ins.items[1].loc, SEV_ERROR, op_rule(ctx, op, "index-range"),
                "index %lld is out of range 0..%lld of %s", (long long)v, (long long)arr->size - 1, type_text(ctx, arr));
    if (op->ins.count == 3 && const_int_of(&op->ins.items[2], &v) && (v < 0 || v >= SYNC_EVENT_IDS))
        vreport(ctx, op, op->ins.items[2].loc, SEV_ERROR, op_rule(ctx, op, "event"),
                "stores event id %lld, outside the event ids 0..%d a flag takes on %s: the set_flag_dyn or "
                "wait_flag_dyn that reads it fails",
                (long long)v, SYNC_EVENT_IDS - 1, target_label(ctx->target));
}
