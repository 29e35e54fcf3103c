/* lower.c - lowering framework: walks each function of a verified module, calls the LOWER function
 * of every op's table row (ops.def) and collects one flat instruction array for the whole module.
 * Also the operand resolution helpers shared by the per-op lowering files. */
#include "interp_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef bool (*LowerFn)(LowerCtx *, const Op *);

static const LowerFn lower_table[OP_COUNT] = {
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn, dts, elem, attrs) [OP_##id] = lower_fn,
#include "ops.def"
#undef OP
};

static const char *op_name(const Op *op) {
    const OpInfo *info = op ? op_info(op->code) : NULL;
    return info ? info->name : "return";
}

bool lower_error(LowerCtx *ctx, const Op *op, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(ctx->ip->arena, fmt, ap);
    va_end(ap);
    SrcLoc at = loc.line ? loc : op ? op->loc : ctx->func->loc;
    diag_report(ctx->ip->diags, ctx->ip->file, SEV_ERROR, at, NULL, "'%s' op %s", op_name(op), msg);
    ctx->failed = true;
    return false;
}

Instr instr_for(const Op *op, ExecFn exec) {
    Instr in;
    memset(&in, 0, sizeof in);
    in.exec = exec;
    in.op = op;
    in.opname = op_name(op);
    if (op) in.loc = op->loc;
    in.traced = op != NULL;
    in.dst_slot = -1;
    in.target = -1;
    for (int i = 0; i < 4; i++) {
        in.t[i].slot = -1;
        in.t[i].auto_index = -1;
        in.sc[i].slot = -1;
    }
    return in;
}

int32_t emit(LowerCtx *ctx, const Instr *in) {
    Interp *ip = ctx->ip;
    if (ip->n_code == ip->cap_code) {
        int32_t cap = ip->cap_code ? ip->cap_code * 2 : 256;
        Instr *grown = realloc(ip->code, (size_t)cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "fatal: out of host memory lowering the program\n");
            exit(2);
        }
        ip->code = grown;
        ip->cap_code = cap;
    }
    ip->code[ip->n_code] = *in;
    return ip->n_code++;
}

int32_t value_slot(LowerCtx *ctx, const Op *op, const Operand *opd) {
    if (!opd || opd->kind != OPD_VALUE || !opd->value) {
        lower_error(ctx, op, opd ? opd->loc : (SrcLoc){0}, "expects a value here, not the literal '%s'",
                    opd && opd->text ? opd->text : "?");
        return -1;
    }
    if (opd->value->id >= ctx->func->n_values) {
        lower_error(ctx, op, opd->loc, "value %%%s has no frame slot (id %u of %u)", opd->value->name,
                    opd->value->id, ctx->func->n_values);
        return -1;
    }
    return (int32_t)opd->value->id;
}

int32_t hidden_slot(LowerCtx *ctx, RtValue init) {
    if (ctx->n_slots == ctx->cap_init) {
        int32_t cap = ctx->cap_init * 2;
        RtValue *grown = arena_alloc_array(ctx->ip->arena, (size_t)cap, sizeof *grown);
        memcpy(grown, ctx->init, (size_t)ctx->n_slots * sizeof *grown);
        ctx->init = grown;
        ctx->cap_init = cap;
    }
    ctx->init[ctx->n_slots] = init;
    return ctx->n_slots++;
}

int32_t new_auto(LowerCtx *ctx, const Op *op, int64_t bytes) {
    if (ctx->n_auto == ctx->cap_auto) {
        int32_t cap = ctx->cap_auto ? ctx->cap_auto * 2 : 16;
        int64_t *grown = arena_alloc_array(ctx->ip->arena, (size_t)cap, sizeof *grown);
        if (ctx->n_auto) memcpy(grown, ctx->auto_offset, (size_t)ctx->n_auto * sizeof *grown);
        ctx->auto_offset = grown;
        ctx->cap_auto = cap;
    }
    int64_t rounded = (bytes + 63) / 64 * 64, end;
    if (!checked_add_i64(ctx->auto_bytes, rounded, &end) || end > INTERP_MAX_AUTO_BYTES) {
        lower_error(ctx, op, (SrcLoc){0}, "auto-placed tiles of @%s need more than %lld bytes of host memory",
                    ctx->func->name, (long long)INTERP_MAX_AUTO_BYTES);
        return -1;
    }
    ctx->auto_offset[ctx->n_auto] = ctx->auto_bytes;
    ctx->auto_bytes = end;
    return ctx->n_auto++;
}

bool tile_storage_equal(const TileType *a, const TileType *b) {
    return a->dtype == b->dtype && a->rows == b->rows && a->cols == b->cols && a->blayout == b->blayout &&
           a->slayout == b->slayout && a->loc == b->loc;
}

bool tile_ref_from_type(LowerCtx *ctx, const Op *op, SrcLoc loc, const TileType *tt, TileRef *out) {
    memset(out, 0, sizeof *out);
    out->slot = -1;
    out->auto_index = -1;
    if (!dtype_is_float(tt->dtype) && !dtype_is_int(tt->dtype) && !dtype_is_f8(tt->dtype))
        return lower_error(ctx, op, loc, "tiles of element type %s cannot be executed", dtype_name(tt->dtype));
    int64_t footprint;
    if (tt->rows < 1 || tt->cols < 1 || tt->rows > INT32_MAX || tt->cols > INT32_MAX ||
        !tile_footprint_bytes(tt, &footprint) || footprint > INTERP_MAX_TILE_BYTES)
        return lower_error(ctx, op, loc, "tile shape %lldx%lld of %s cannot be executed (1..2^31 rows and cols, at "
                           "most %lld bytes)", (long long)tt->rows, (long long)tt->cols, dtype_name(tt->dtype),
                           (long long)INTERP_MAX_TILE_BYTES);
    if ((tt->valid_rows != DIM_DYNAMIC && (tt->valid_rows < 0 || tt->valid_rows > tt->rows)) ||
        (tt->valid_cols != DIM_DYNAMIC && (tt->valid_cols < 0 || tt->valid_cols > tt->cols)))
        return lower_error(ctx, op, loc, "tile valid shape %lldx%lld exceeds its shape %lldx%lld",
                           (long long)tt->valid_rows, (long long)tt->valid_cols, (long long)tt->rows,
                           (long long)tt->cols);
    if ((unsigned)tt->loc >= LOC_COUNT) return lower_error(ctx, op, loc, "unknown tile location");
    tile_ref_fill(tt, ctx->ip->opts.target, out);
    if (out->slayout != SL_NONE_BOX) {
        if (tt->fractal != 512 && tt->fractal != 1024)
            return lower_error(ctx, op, loc, "tiles with fractal=%lld cannot be executed (512 or 1024)",
                               (long long)tt->fractal);
        bool rows_whole = out->rows % out->box_r == 0 ||
                          (out->rows == 1 && out->blayout == BL_COL_MAJOR && !out->box_col);
        if (!rows_whole || out->cols % out->box_c != 0)
            return lower_error(ctx, op, loc, "a %dx%d tile is not made of whole %dx%d boxes (slayout=%s, fractal=%lld)",
                               out->rows, out->cols, out->box_r, out->box_c, slayout_name(out->slayout),
                               (long long)tt->fractal);
    }
    return true;
}

void tile_ref_fill(const TileType *tt, Target target, TileRef *out) {
    memset(out, 0, sizeof *out);
    out->slot = -1;
    out->auto_index = -1;
    out->dtype = tt->dtype;
    out->loc = tt->loc;
    out->blayout = tt->blayout;
    out->slayout = tt->slayout;
    /* PTOAS's parser fixes a left tile's outer layout by target, whatever the text says: Zz on
     * A2/A3, Nz on A5 (PTOTypeDefs.cpp); the bytes in L0A follow it */
    if (tt->loc == LOC_LEFT && tt->slayout == SL_ROW_MAJOR)
        out->blayout = target == TARGET_A5 ? BL_COL_MAJOR : BL_ROW_MAJOR;
    out->rows = (int32_t)tt->rows;
    out->cols = (int32_t)tt->cols;
    if (out->blayout == BL_COL_MAJOR) {
        out->rs = 1;
        out->cs = tt->rows;
    } else {
        out->rs = tt->cols;
        out->cs = 1;
    }
    /* the inner box: 16x16 for fractal 1024 (Acc), 16xC0 (row-major box) or C0x16 (col-major box)
     * for 512, with C0 = 32 bytes of elements; 1x1 without a box */
    out->box_r = out->box_c = 1;
    out->box_col = tt->slayout == SL_COL_MAJOR;
    if (tt->slayout != SL_NONE_BOX) {
        int32_t c0 = (int32_t)(32 / dtype_size(tt->dtype));
        if (tt->fractal == 1024) out->box_r = out->box_c = 16;
        else if (out->box_col) out->box_r = c0, out->box_c = 16;
        else out->box_r = 16, out->box_c = c0;
    }
    tile_footprint_bytes(tt, &out->footprint);
    out->static_vr = tt->valid_rows == DIM_DYNAMIC ? -1 : (int32_t)tt->valid_rows;
    out->static_vc = tt->valid_cols == DIM_DYNAMIC ? -1 : (int32_t)tt->valid_cols;
    out->pad = tt->pad;
}

bool tile_ref(LowerCtx *ctx, const Op *op, const Operand *opd, TileRef *out) {
    int32_t slot = value_slot(ctx, op, opd);
    if (slot < 0) return false;
    const Type *ty = opd->value->type;
    if (!ty || ty->kind != TY_TILE)
        return lower_error(ctx, op, opd->loc, "expects %%%s to be a tile", opd->value->name);
    if (!tile_ref_from_type(ctx, op, opd->loc, &ty->tile, out)) return false;
    out->slot = slot;
    out->name = opd->value->name;
    return true;
}

/* The bits of a float type's pattern as its exact value. */
static double float_from_bits(uint64_t bits, DType t) {
    switch (t) {
    case DT_F16: return f16_bits_to_f32((uint16_t)bits);
    case DT_BF16: return bf16_bits_to_f32((uint16_t)bits);
    default: {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    }
}

/* Value of a literal operand read as type `t` (float text converted with a single rounding). */
static bool literal_value(LowerCtx *ctx, const Op *op, const Operand *opd, DType t, ScalarValue *out) {
    out->i = 0;
    out->f = 0.0;
    bool is_float = dtype_is_float(t);
    switch (opd->kind) {
    case OPD_INT:
    case OPD_TILE_ADDR:
        if (is_float) {
            if (opd->hex) out->f = float_from_bits((uint64_t)opd->ival, t);
            else out->f = scalar_round_float((double)opd->ival, t);
        } else {
            out->i = scalar_wrap_int(opd->ival, t);
        }
        return true;
    case OPD_BOOL:
        if (is_float) out->f = (double)(opd->ival != 0);
        else out->i = opd->ival != 0;
        return true;
    case OPD_FLOAT: {
        if (!is_float)
            return lower_error(ctx, op, opd->loc, "float literal '%s' where an integer of type %s is expected",
                               opd->text ? opd->text : "?", dtype_name(t));
        if (opd->text) {
            char *end = NULL;
            if (t == DT_F32) {
                float f = strtof(opd->text, &end);
                out->f = f;
            } else {
                double d = strtod(opd->text, &end);
                out->f = scalar_round_float(d, t);
            }
            if (end == opd->text) out->f = scalar_round_float(opd->fval, t);
        } else {
            out->f = scalar_round_float(opd->fval, t);
        }
        return true;
    }
    default:
        return lower_error(ctx, op, opd->loc, "expects a literal");
    }
}

bool scalar_ref(LowerCtx *ctx, const Op *op, const Operand *opd, DType default_type, ScalarRef *out) {
    memset(out, 0, sizeof *out);
    out->slot = -1;
    if (!opd) return lower_error(ctx, op, (SrcLoc){0}, "missing scalar operand");
    if (opd->kind == OPD_VALUE) {
        int32_t slot = value_slot(ctx, op, opd);
        if (slot < 0) return false;
        const Type *ty = opd->value->type;
        if (!ty || ty->kind != TY_SCALAR)
            return lower_error(ctx, op, opd->loc, "expects %%%s to be a scalar", opd->value->name);
        out->slot = slot;
        out->type = ty->dtype;
        return true;
    }
    DType t;
    if (opd->type && opd->type->kind == TY_SCALAR) t = opd->type->dtype;
    else if (opd->kind == OPD_FLOAT) t = dtype_is_float(default_type) ? default_type : DT_F32;
    else if (opd->kind == OPD_BOOL) t = DT_I1;
    else if (opd->kind == OPD_INT && !opd->hex && dtype_is_float(default_type)) t = DT_I64;
    else t = default_type;
    if (opd->kind == OPD_FLOAT && !dtype_is_float(t)) t = DT_F32; /* `2.5 : i32`: C++ converts float -> int */
    out->type = t;
    return literal_value(ctx, op, opd, t, &out->imm);
}

/* Error instruction: reports its message when executed. */
static int32_t exec_unsupported(Interp *ip, const Instr *in, int32_t pc) {
    (void)pc;
    return rt_error(ip, in, "%s", (const char *)in->extra);
}

bool emit_unsupported(LowerCtx *ctx, const Op *op, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(ctx->ip->arena, fmt, ap);
    va_end(ap);
    Instr in = instr_for(op, exec_unsupported);
    in.traced = false;
    in.extra = msg;
    emit(ctx, &in);
    return true;
}

bool lower_block(LowerCtx *ctx, const Block *block) {
    bool ok = true;
    for (const Op *op = block ? block->first : NULL; op; op = op->next) {
        const OpInfo *info = op_info(op->code);
        LowerFn fn = (unsigned)op->code < OP_COUNT ? lower_table[op->code] : NULL;
        if (!info || !fn) {
            ok = lower_error(ctx, op, (SrcLoc){0}, "has no execution semantics");
            continue;
        }
        if ((info->flags & OPF_TERMINATOR) && op->next) {
            ok = lower_error(ctx, op->next, (SrcLoc){0}, "follows the block's terminator '%s'", info->name);
            continue;
        }
        if (!fn(ctx, op)) ok = false;
    }
    return ok;
}

/* Lowers one function definition into ip->code. */
static bool lower_function(Interp *ip, int index) {
    const Func *f = ip->module->funcs[index];
    FuncCode *fc = &ip->funcs[index];
    fc->func = f;
    if (f->is_declaration) return true;
    LowerCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.ip = ip;
    ctx.func_index = index;
    ctx.func = f;
    ctx.fc = fc;
    ctx.n_slots = (int32_t)f->n_values;
    ctx.cap_init = ctx.n_slots + 16;
    ctx.init = arena_alloc_array(ip->arena, (size_t)ctx.cap_init, sizeof *ctx.init);
    ctx.auto_of_value = arena_alloc_array(ip->arena, f->n_values ? f->n_values : 1, sizeof *ctx.auto_of_value);
    for (uint32_t i = 0; i < f->n_values; i++) ctx.auto_of_value[i] = -1;
    fc->arg_auto = arena_alloc_array(ip->arena, (size_t)(f->n_args ? f->n_args : 1), sizeof *fc->arg_auto);
    fc->arg_tile = arena_alloc_array(ip->arena, (size_t)(f->n_args ? f->n_args : 1), sizeof *fc->arg_tile);
    for (int a = 0; a < f->n_args; a++) {
        fc->arg_auto[a] = -1;
        fc->arg_tile[a].slot = -1;
        const Value *v = f->args[a];
        if (v->id >= f->n_values) {
            lower_error(&ctx, NULL, v->loc, "argument %%%s has no frame slot", v->name);
            continue;
        }
        if (v->type && v->type->kind == TY_TILE) {
            TileRef t;
            if (tile_ref_from_type(&ctx, NULL, v->loc, &v->type->tile, &t)) {
                fc->arg_auto[a] = new_auto(&ctx, NULL, t.footprint);
                ctx.auto_of_value[v->id] = fc->arg_auto[a];
                t.slot = (int32_t)v->id;
                t.auto_index = fc->arg_auto[a];
                t.name = v->name;
                fc->arg_tile[a] = t;
            }
        }
    }
    fc->entry_pc = ip->n_code;
    lower_block(&ctx, f->body.block);
    const Op *last = f->body.block ? f->body.block->last : NULL;
    if (!last || last->code != OP_RETURN) {
        if (f->n_results > 0)
            lower_error(&ctx, NULL, f->loc, "function @%s returns %d values but its body does not end with 'return'",
                        f->name, f->n_results);
        Instr ret = instr_for(NULL, exec_return);
        ret.loc = f->loc;
        ret.opname = "return";
        ret.traced = false;
        ret.a = 0;
        emit(&ctx, &ret);
    }
    fc->n_slots = ctx.n_slots;
    fc->slot_init = ctx.init;
    fc->n_auto = ctx.n_auto;
    fc->auto_offset = ctx.auto_offset;
    fc->auto_bytes = ctx.auto_bytes;
    fc->lowered = !ctx.failed;
    return !ctx.failed;
}

bool interp_lower_module(Interp *ip) {
    bool ok = true;
    for (int i = 0; i < ip->n_funcs; i++)
        if (!lower_function(ip, i)) ok = false;
    return ok;
}
