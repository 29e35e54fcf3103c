/* ops_family.c - lowering and execution of the elementwise families of ops.def (BINARY_OP,
 * TERNARY_OP, UNARY_OP, TILE_SCALAR_OP, TILE_SCALAR_TILE_OP): one lowering and one executor for
 * every member. Lowering resolves the operands, picks the member's kernel for the element type
 * and instruction-set variant (kernels_elem.h) and converts a constant scalar once; execution
 * checks the run-time valid shapes with the verifier's rule IDs and calls the kernel. */
#include "interp_impl.h"

#include "elemfn.h"

#include <string.h>

/* Instr.b flags */
enum { EW_TILE_SCALAR_RULES = 1 };

static const char *fault_message(int fault) {
    switch (fault) {
    case EFAULT_DIV_ZERO: return "integer division by zero (the ISA's CPU simulator traps here)";
    case EFAULT_DIV_OVERFLOW: return "integer division overflow: the most negative value divided by -1 (the ISA's CPU simulator traps here)";
    case EFAULT_SHIFT: return "shift count outside [0, bits of the promoted type): undefined in the ISA's C++ semantics";
    default: return "element fault";
    }
}

/* The valid-shape rules of the family, on the run-time shapes (the verifier checked the static
 * ones with the same IDs). */
static bool check_valid(Interp *ip, const Instr *in, const TileView *d, const TileView *s, const TileRef *st,
                        const char *role) {
    int64_t R = d->vr, C = d->vc;
    if (!(in->b & EW_TILE_SCALAR_RULES)) {
        if (s->vr == R && s->vc == C) return true;
        rt_rule_error(ip, in, "valid-shape", "expects %s to have dst's valid shape %lldx%lld, got %dx%d", role,
                      (long long)R, (long long)C, s->vr, s->vc);
        return false;
    }
    if (s->vc != C) {
        rt_rule_error(ip, in, "valid-cols", "expects %s and dst to have the same valid_shape[1], got %d and %lld",
                      role, s->vc, (long long)C);
        return false;
    }
    if (ip->opts.target == TARGET_A2A3 && s->vr != R) {
        rt_rule_error(ip, in, "valid-rows", "expects %s and dst to have the same valid_shape[0], got %d and %lld",
                      role, s->vr, (long long)R);
        return false;
    }
    if (R > st->rows) {
        rt_rule_error(ip, in, "src-rows",
                      "expects %s to have at least dst's %lld valid rows (the op reads %s row i for dst row i), got %d rows",
                      role, (long long)R, role, st->rows);
        return false;
    }
    return true;
}

/* The executor for n source tiles; exec_elementwise_1/2/3 instantiate it with a constant n, so that
 * the operand loops unroll (the 16x16 fixed cost: issue #11). */
static inline __attribute__((always_inline)) int32_t exec_elementwise_n(Interp *ip, const Instr *in, int32_t pc,
                                                                       const int n) {
    TileView *s[3];
    KTile ks[3];
    for (int i = 0; i < n; i++)
        if (!(s[i] = use_tile(ip, in, &in->t[1 + i]))) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], s[0]->vr, s[0]->vc)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    for (int i = 0; i < n; i++) {
        /* a source of dst's valid shape passes every rule; the rest take the full check */
        if ((s[i]->vr != d->vr || s[i]->vc != d->vc) &&
            !check_valid(ip, in, d, s[i], &in->t[1 + i], ((const char *const *)in->extra)[i]))
            return PC_ERROR;
        ks[i] = ktile(&in->t[1 + i], s[i]);
    }
    if (d->vr == 0 || d->vc == 0) return pc + 1;
    /* an immediate scalar (or none) was converted at lowering: no call for it */
    const KScalar scalar = in->sc[0].slot < 0 ? in->ks : kernel_scalar(ip, in, in->t[0].dtype);
    int fault = in->k.elem(ktile(&in->t[0], d), ks, scalar, d->vr, d->vc);
    if (fault) return rt_error(ip, in, "%s", fault_message(fault));
    return pc + 1;
}

static int32_t exec_elementwise_1(Interp *ip, const Instr *in, int32_t pc) { return exec_elementwise_n(ip, in, pc, 1); }
static int32_t exec_elementwise_2(Interp *ip, const Instr *in, int32_t pc) { return exec_elementwise_n(ip, in, pc, 2); }
static int32_t exec_elementwise_3(Interp *ip, const Instr *in, int32_t pc) { return exec_elementwise_n(ip, in, pc, 3); }

static bool is_tmp(const Op *op, int index) {
    const OpInfo *info = op_info(op->code);
    return index < OPSPEC_MAX && info->ins[index].name && (info->ins[index].flags & SPEC_TMP);
}

static bool is_tile_operand(const Operand *opd) {
    const Type *t = opd->type ? opd->type : opd->kind == OPD_VALUE && opd->value ? opd->value->type : NULL;
    return t && t->kind == TY_TILE;
}

/* Resolves dst, the source tiles (not tmp) and the scalar, picks the kernel and emits. */
static bool lower_family(LowerCtx *ctx, const Op *op, unsigned flags) {
    Instr in = instr_for(op, exec_elementwise_1);
    bool defines, reversed = false;
    int n = 0;
    const char **roles = arena_alloc_array(ctx->ip->arena, 3, sizeof *roles); /* operand names, for messages */
    const Operand *scalar = NULL;
    for (int i = 0; i < op->ins.count; i++) {
        const Operand *opd = &op->ins.items[i];
        if (is_tmp(op, i)) continue;
        if (!is_tile_operand(opd)) {
            if (n == 0) reversed = true; /* TDIVS ins(%scalar, %tile) */
            scalar = opd;
            continue;
        }
        if (n == 3) return lower_error(ctx, op, opd->loc, "has more than three source tiles");
        if (!tile_ref(ctx, op, opd, &in.t[1 + n])) return false;
        roles[n++] = reversed ? "src" : op_info(op->code)->ins[i].name; /* TDIVS ins(%S, %src) */
    }
    if (n == 0) return lower_error(ctx, op, (SrcLoc){0}, "has no source tile");
    TileRef *dst = &in.t[0];
    if (!lower_dst(ctx, op, dst, &defines)) return false;
    if (op_info(op->code)->flags & OPF_DST_READ) { /* the accumulator is the last source */
        if (defines) return lower_error(ctx, op, (SrcLoc){0}, "reads its destination: write it in DPS form (outs)");
        in.t[1 + n] = *dst;
        roles[n++] = "dst";
    }
    for (int i = 0; i < n; i++) {
        if (!same_dtype(ctx, op, &in.t[1 + i], dst, in.t[1 + i].name)) return false;
        if (boxed(&in.t[1 + i])) return unsupported_boxed(ctx, op, &in.t[1 + i]);
    }
    if (boxed(dst)) return unsupported_boxed(ctx, op, dst);
    const KernelIsaTable *table = kernel_isa_table(ctx->ip->isa);
    KernelElem k = (reversed ? table->elem_rev : table->elem)[op->code][dst->dtype];
    if (!k)
        return emit_unsupported(ctx, op, "has no %s kernel for element type %s", reversed ? "scalar-first" : "",
                                dtype_name(dst->dtype));
    if (scalar) {
        if (!kernel_scalar_ref(ctx, op, scalar, dst->dtype, &in.sc[0])) return false;
        if (in.sc[0].slot < 0) in.ks = scalar_to_kernel(in.sc[0].imm, in.sc[0].type, dst->dtype);
    }
    in.k.elem = k;
    in.extra = roles;
    in.a = n;
    in.exec = n == 1 ? exec_elementwise_1 : n == 2 ? exec_elementwise_2 : exec_elementwise_3;
    in.b = (int32_t)flags;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

bool lower_elementwise(LowerCtx *ctx, const Op *op) { return lower_family(ctx, op, 0); }

bool lower_tile_scalar(LowerCtx *ctx, const Op *op) { return lower_family(ctx, op, EW_TILE_SCALAR_RULES); }

/* ---- partial elementwise (PART_OP) ------------------------------------------------------------ */

/* Copies n elements of es bytes from s to d, each tile walked along a row with its column stride. */
static void copy_row(KTile d, KTile s, int64_t n, size_t es) {
    if (d.cs == 1 && s.cs == 1) {
        memmove(d.p, s.p, (size_t)n * es);
        return;
    }
    for (int64_t c = 0; c < n; c++) memmove(d.p + (size_t)(c * d.cs) * es, s.p + (size_t)(c * s.cs) * es, es);
}

/* The tile at row r, column c of t (element size es). */
static KTile at(KTile t, int64_t r, int64_t c, size_t es) {
    t.p += (size_t)(r * t.rs + c * t.cs) * es;
    return t;
}

/* dst(i,j) over its valid region: ELEM(src0, src1) where both valid regions cover (i,j), the one
 * source that covers it, else 0 (the simulator's TPartInstr). The leading rows that both sources
 * cover in full take one kernel call (the same row-major walk as a call per row); every other row
 * one kernel call for the columns both cover, then copies and zeros. */
static int32_t exec_part(Interp *ip, const Instr *in, int32_t pc) {
    TileView *a = use_tile(ip, in, &in->t[1]), *b = a ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!b) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], a->vr > b->vr ? a->vr : b->vr, a->vc > b->vc ? a->vc : b->vc))
        return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    size_t es = dtype_size(in->t[0].dtype);
    KTile kd = ktile(&in->t[0], d), ka = ktile(&in->t[1], a), kb = ktile(&in->t[2], b);
    int64_t C = d->vc, r0 = 0;
    if (a->vc >= C && b->vc >= C && C > 0) {
        r0 = a->vr < b->vr ? a->vr : b->vr;
        if (r0 > d->vr) r0 = d->vr;
        if (r0 > 0) {
            KTile srcs[2] = {ka, kb};
            int fault = in->k.elem(kd, srcs, in->ks, r0, C);
            if (fault) return rt_error(ip, in, "%s", fault_message(fault));
        }
    }
    for (int64_t r = r0; r < d->vr; r++) {
        int64_t ea = r < a->vr ? (a->vc < C ? a->vc : C) : 0, eb = r < b->vr ? (b->vc < C ? b->vc : C) : 0;
        int64_t both = ea < eb ? ea : eb, end = ea > eb ? ea : eb;
        if (both > 0) {
            KTile srcs[2] = {at(ka, r, 0, es), at(kb, r, 0, es)};
            int fault = in->k.elem(at(kd, r, 0, es), srcs, in->ks, 1, both);
            if (fault) return rt_error(ip, in, "%s", fault_message(fault));
        }
        if (end > both) copy_row(at(kd, r, both, es), ea > eb ? at(ka, r, both, es) : at(kb, r, both, es), end - both, es);
        for (int64_t c = end; c < C; c++) memset(at(kd, r, c, es).p, 0, es);
    }
    return pc + 1;
}

bool lower_part(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_part);
    bool defines;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src0 and src1");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &op->ins.items[1], &in.t[2]) ||
        !lower_dst(ctx, op, &in.t[0], &defines))
        return false;
    for (int i = 0; i < 3; i++) {
        if (i && !same_dtype(ctx, op, &in.t[i], &in.t[0], in.t[i].name)) return false;
        if (boxed(&in.t[i])) return unsupported_boxed(ctx, op, &in.t[i]);
    }
    in.k.elem = kernel_isa_table(ctx->ip->isa)->elem[op->code][in.t[0].dtype];
    if (!in.k.elem) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[0].dtype));
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* ---- column expand (COL_EXPAND_OP) and broadcasts (BROADCAST_OP) ---------------------------- */

/* dst(i,j) = ELEM(src0(i,j), src1(0,j)): the member's elementwise kernel with src1 read at a zero
 * row stride. */
static int32_t exec_col_expand(Interp *ip, const Instr *in, int32_t pc) {
    TileView *a = use_tile(ip, in, &in->t[1]), *b = a ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!b) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], a->vr, a->vc)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    if (a->vr != d->vr || a->vc != d->vc)
        return rt_rule_error(ip, in, "valid-shape", "expects src0 to have dst's valid shape %dx%d, got %dx%d", d->vr, d->vc,
                             a->vr, a->vc);
    if (b->vc != d->vc)
        return rt_rule_error(ip, in, "valid-cols", "expects src1 to have dst's %d valid cols, got %d", d->vc, b->vc);
    if (d->vr == 0 || d->vc == 0) return pc + 1;
    const KTile s[2] = {ktile(&in->t[1], a), ktile_of(b->base, 0, (int32_t)in->t[2].cs)}; /* src1 read again for every row */
    int fault = in->k.elem(ktile(&in->t[0], d), s, in->ks, d->vr, d->vc);
    if (fault) return rt_error(ip, in, "%s", fault_message(fault));
    return pc + 1;
}

bool lower_col_expand(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_col_expand);
    bool defines;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src0 and src1");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &op->ins.items[1], &in.t[2]) ||
        !lower_dst(ctx, op, &in.t[0], &defines))
        return false;
    for (int i = 0; i < 3; i++) {
        if (i && !same_dtype(ctx, op, &in.t[i], &in.t[0], in.t[i].name)) return false;
        if (boxed(&in.t[i])) return unsupported_boxed(ctx, op, &in.t[i]);
    }
    in.k.elem = kernel_isa_table(ctx->ip->isa)->elem[op->code][in.t[0].dtype];
    if (!in.k.elem) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[0].dtype));
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* TROWEXPAND dst(r,c) = src(r,0); TCOLEXPAND (Instr.a = 1) dst(r,c) = src(0,c): element bits copied
 * (KernelSet.broadcast_rows / broadcast_cols). */
static int32_t exec_broadcast(Interp *ip, const Instr *in, int32_t pc) {
    TileView *s = use_tile(ip, in, &in->t[1]);
    if (!s) return PC_ERROR;
    bool columns = in->a != 0;
    if (in->defines_dst && !define_tile(ip, in, &in->t[0], s->vr, s->vc)) return PC_ERROR;
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    if (columns ? s->vc != d->vc : s->vr != d->vr)
        return rt_rule_error(ip, in, columns ? "valid-cols" : "valid-rows", "expects src to have dst's %d valid %s, got %d",
                             columns ? d->vc : d->vr, columns ? "cols" : "rows", columns ? s->vc : s->vr);
    if (!columns && s->vc < 1 && d->vc > 0)
        return rt_error(ip, in, "expects src to have a valid column to expand, got %dx%d", s->vr, s->vc);
    if (columns && s->vr < 1 && d->vr > 0)
        return rt_error(ip, in, "expects src to have a valid row to expand, got %dx%d", s->vr, s->vc);
    in->k.broadcast(ktile(&in->t[0], d), ktile(&in->t[1], s), d->vr, d->vc);
    return pc + 1;
}

bool lower_broadcast(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_broadcast);
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a src operand");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (!same_dtype(ctx, op, &in.t[1], &in.t[0], "src")) return false;
    for (int i = 0; i < 2; i++)
        if (boxed(&in.t[i])) return unsupported_boxed(ctx, op, &in.t[i]);
    in.a = (op_info(op->code)->flags & OPF_COLUMNS) ? 1 : 0;
    const KernelSet *ks = kernel_set(in.t[0].dtype, ctx->ip->isa);
    if (!ks) return emit_unsupported(ctx, op, "has no kernel for element type %s", dtype_name(in.t[0].dtype));
    in.k.broadcast = in.a ? ks->broadcast_cols : ks->broadcast_rows;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* ---- fill and pad (FILLPAD_OP) --------------------------------------------------------------- */

static int32_t exec_fillpad(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *dt = &in->t[0], *st = &in->t[1];
    TileView *s = use_tile(ip, in, st);
    if (!s) return PC_ERROR;
    if (in->defines_dst && !define_tile(ip, in, dt, dt->rows, dt->cols)) return PC_ERROR;
    TileView *d = use_tile(ip, in, dt);
    if (!d) return PC_ERROR;
    if (d->vr == 0 || d->vc == 0) return pc + 1;
    if (s->vr > dt->rows || s->vc > dt->cols)
        return rt_error(ip, in, "src's valid shape %dx%d exceeds dst's %dx%d shape", s->vr, s->vc, dt->rows, dt->cols);
    size_t es = dtype_size(dt->dtype);
    uint64_t pad = pad_value_bits(dt->dtype, dt->pad);
    KTile kd = ktile(dt, d), ks = ktile(st, s);
    for (int64_t r = 0; r < dt->rows; r++)
        for (int64_t c = 0; c < dt->cols; c++) {
            uint8_t *e = kd.p + (size_t)(r * kd.rs + c * kd.cs) * es;
            if (r < s->vr && c < s->vc) memmove(e, ks.p + (size_t)(r * ks.rs + c * ks.cs) * es, es);
            else memcpy(e, &pad, es);
        }
    return pc + 1;
}

bool lower_fillpad(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_fillpad);
    bool defines;
    if (op->ins.count < 1) return lower_error(ctx, op, (SrcLoc){0}, "expects a src operand");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (!same_dtype(ctx, op, &in.t[1], &in.t[0], "src")) return false;
    for (int i = 0; i < 2; i++)
        if (boxed(&in.t[i])) return unsupported_boxed(ctx, op, &in.t[i]);
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}
