/* ops_gather.c - lowering and execution of the gather/scatter and quantisation rows
 * (ir/ops_gather.def), after the ISA's CPU simulator (TGather.hpp, TGatherB.hpp, TScatter.hpp,
 * TQuant.hpp, TDeQuant.hpp). Lowering fixes the form, the mask pattern, the element sizes and the
 * index signedness; the executors check at run time what the simulator would read or write
 * outside a tile (it does not check) and report it as an error with the element's position. */
#include "interp_impl.h"

#include <math.h>
#include <string.h>

/* ---- shared ------------------------------------------------------------------------------- */

/* Byte address of element (r, c) of a tile view (none_box layouts: row- or column-major). */
static inline uint8_t *elem_at(const TileRef *t, const TileView *v, int64_t r, int64_t c, size_t es) {
    return v->base + (size_t)(r * t->rs + c * t->cs) * es;
}

/* An integer element (1, 2 or 4 bytes, signed or not) widened to int64. */
static inline int64_t load_int(const uint8_t *p, int size, bool is_signed) {
    switch (size) {
    case 1: return is_signed ? (int64_t)(int8_t)p[0] : (int64_t)p[0];
    case 2: {
        uint16_t u;
        memcpy(&u, p, 2);
        return is_signed ? (int64_t)(int16_t)u : (int64_t)u;
    }
    default: {
        uint32_t u;
        memcpy(&u, p, 4);
        return is_signed ? (int64_t)(int32_t)u : (int64_t)u;
    }
    }
}

/* The destination (outs[0]) of a DPS op that writes only part of it: the result form is refused. */
static bool dps_dst(LowerCtx *ctx, const Op *op, TileRef *dst, bool *emitted) {
    bool defines;
    if (!lower_dst(ctx, op, dst, &defines)) return false;
    if (defines) return lower_error(ctx, op, (SrcLoc){0}, "writes only part of its destination: use the DPS form (outs)");
    if (boxed(dst)) {
        *emitted = unsupported_boxed(ctx, op, dst);
        return false;
    }
    return true;
}

/* ---- exact footprints (--check-sync, --check-init) ------------------------------------------ */

/* The kernels below touch elements their index tiles name, so their footprints (Instr.footprint)
 * walk the indices as they are when the checker asks, with the kernels' own addressing and bounds:
 * one run per element, adjacent ones joined. The walks allocate nothing. */

/* The current view of a tile operand, or NULL while it is undefined (the op reports that). */
static const TileView *defined_tile(const Interp *ip, const TileRef *t) {
    const TileView *v = &ip->frame->vals[t->slot].tile;
    return v->base && (v->flags & VIEW_DEFINED) ? v : NULL;
}

/* The value of operand i of a list (NULL when it is not a value). */
static const Value *operand_value(const OperandList *l, int i) {
    return i < l->count && l->items[i].kind == OPD_VALUE ? l->items[i].value : NULL;
}

/* Byte runs joined while adjacent, then passed on to fn. */
typedef struct RunJoin {
    TileRunFn fn;
    void *ctx;
    const uint8_t *p;
    int64_t n;
} RunJoin;

/* Adds n bytes at p; false when fn asked to stop. */
static bool run_add(RunJoin *j, const uint8_t *p, int64_t n) {
    if (j->n && p == j->p + j->n) {
        j->n += n;
        return true;
    }
    if (j->n && !j->fn(j->ctx, j->p, j->n)) {
        j->n = 0;
        return false;
    }
    j->p = p, j->n = n;
    return true;
}

/* Passes on the pending run. */
static void run_flush(RunJoin *j) {
    if (j->n) j->fn(j->ctx, j->p, j->n);
    j->n = 0;
}

/* A window of a tile operand; `sized_by` as in TileWindowAccess. */
static TileWindowAccess window_access(const Value *v, int32_t rows, int32_t cols, bool write, const char *sized_by) {
    return (TileWindowAccess){.value = v, .rows = rows, .cols = cols, .write = write, .sized_by = sized_by};
}

/* A data-dependent access of a tile operand, its bytes walked by fn. */
static TileWindowAccess walked_access(const Value *v, bool write, FootprintWalkFn fn) {
    return (TileWindowAccess){.value = v, .write = write, .walk = fn};
}

/* ---- TGATHER: index form ------------------------------------------------------------------ */

/* dst(r,c) = src[flat idx(r,c)] over dst's valid region, src addressed row-major over its physical
 * Rows x Cols (flat / Cols, flat % Cols through src's layout); an index < 0 or >= Rows*Cols gives 0.
 * Instr.a: element size; Instr.b: 1 when the indices are unsigned. */
static inline int32_t gather_index_rows(Interp *ip, const Instr *in, TileView *d, TileView *s, TileView *ix, size_t es) {
    const TileRef *td = &in->t[0], *ts = &in->t[1], *ti = &in->t[2];
    const int64_t n = (int64_t)ts->rows * ts->cols, cols = ts->cols;
    const bool is_unsigned = in->b != 0;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            uint32_t u;
            memcpy(&u, elem_at(ti, ix, r, c, 4), 4);
            int64_t raw = is_unsigned ? (int64_t)u : (int64_t)(int32_t)u;
            uint8_t *dp = elem_at(td, d, r, c, es);
            if (raw < 0 || raw >= n) memset(dp, 0, es);
            else memcpy(dp, elem_at(ts, s, raw / cols, raw % cols, es), es);
        }
    (void)ip;
    return 0;
}

/* The src elements an index-form tgather reads: those its indices over dst's valid region name
 * (gather_index_rows' addressing; an index outside src's Rows*Cols reads nothing). */
static void gather_index_src_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileRef *ts = &in->t[1], *ti = &in->t[2];
    const TileView *d = defined_tile(ip, &in->t[0]), *s = defined_tile(ip, ts), *ix = defined_tile(ip, ti);
    if (!d || !s || !ix) return;
    const int64_t n = (int64_t)ts->rows * ts->cols, cols = ts->cols;
    const size_t es = (size_t)in->a;
    RunJoin j = {fn, ctx, NULL, 0};
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            uint32_t u;
            memcpy(&u, elem_at(ti, ix, r, c, 4), 4);
            int64_t raw = in->b ? (int64_t)u : (int64_t)(int32_t)u;
            if (raw >= 0 && raw < n && !run_add(&j, elem_at(ts, s, raw / cols, raw % cols, es), (int64_t)es)) return;
        }
    run_flush(&j);
}

/* Index form: reads the indices over dst's valid region and the src elements they name, writes
 * tmp (scratch of the NPU implementation, a2a3/TGather.hpp) and dst's valid region. */
static int tgather_index_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const TileView *d = defined_tile(ip, &in->t[0]);
    if (!d || !defined_tile(ip, &in->t[1]) || !defined_tile(ip, &in->t[2]) || d->vc != in->t[0].cols ||
        d->vr > in->t[2].rows || d->vc > in->t[2].cols)
        return -1; /* refused when it runs */
    int n = 0;
    acc[n++] = window_access(operand_value(&op->ins, 1), d->vr, d->vc, false, "dst's valid region");
    acc[n++] = walked_access(operand_value(&op->ins, 0), false, gather_index_src_walk);
    const Value *tmp = operand_value(&op->ins, 2);
    if (tmp && tmp->type && tmp->type->kind == TY_TILE && (ip->frame->vals[tmp->id].tile.flags & VIEW_DEFINED))
        acc[n++] = window_access(tmp, (int32_t)tmp->type->tile.rows, (int32_t)tmp->type->tile.cols, true, NULL);
    acc[n++] = window_access(operand_value(&op->outs, 0), d->vr, d->vc, true, NULL);
    return n;
}

static int32_t exec_tgather_index(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *ix = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!ix) return PC_ERROR;
    if (d->vc != in->t[0].cols)
        return rt_rule_error(ip, in, "dst-valid-cols", "expects dst valid_shape[1] to equal dst cols (%d and %d)", d->vc,
                             in->t[0].cols);
    if (d->vr > in->t[2].rows || d->vc > in->t[2].cols)
        return rt_error(ip, in, "reads indices outside its %dx%d tile: dst's valid region is %dx%d", in->t[2].rows,
                        in->t[2].cols, d->vr, d->vc);
    switch (in->a) {
    case 1: gather_index_rows(ip, in, d, s, ix, 1); break;
    case 2: gather_index_rows(ip, in, d, s, ix, 2); break;
    default: gather_index_rows(ip, in, d, s, ix, 4); break;
    }
    return pc + 1;
}

/* ---- TGATHER: mask form ------------------------------------------------------------------- */

/* Row mode (the only one PTOAS spells): the selected columns of every valid src row, as one packed
 * stream from dst's first element. Instr.a: element size; Instr.b: first column | step << 8. */
static inline void gather_mask_rows(const Instr *in, TileView *d, TileView *s, size_t es) {
    const TileRef *ts = &in->t[1];
    const int64_t start = in->b & 0xff, step = in->b >> 8;
    uint8_t *out = d->base;
    for (int64_t r = 0; r < s->vr; r++)
        for (int64_t c = start; c < s->vc; c += step, out += es) memcpy(out, elem_at(ts, s, r, c, es), es);
}

/* The src elements a mask-form tgather reads: the selected columns of src's valid rows. */
static void gather_mask_src_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileRef *ts = &in->t[1];
    const TileView *s = defined_tile(ip, ts);
    if (!s) return;
    const int64_t start = in->b & 0xff, step = in->b >> 8;
    const size_t es = (size_t)in->a;
    RunJoin j = {fn, ctx, NULL, 0};
    for (int64_t r = 0; r < s->vr; r++)
        for (int64_t c = start; c < s->vc; c += step)
            if (!run_add(&j, elem_at(ts, s, r, c, es), (int64_t)es)) return;
    run_flush(&j);
}

/* The number of elements a mask-form tgather selects from src (-1 when src is undefined). */
static int64_t gather_mask_count(const Instr *in, const TileView *s) {
    if (!s) return -1;
    const int64_t start = in->b & 0xff, step = in->b >> 8;
    return (s->vc > start ? (s->vc - start + step - 1) / step : 0) * s->vr;
}

/* The dst bytes it writes: one packed stream of the selected elements from dst's first element. */
static void gather_mask_dst_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileView *d = defined_tile(ip, &in->t[0]);
    int64_t total = gather_mask_count(in, defined_tile(ip, &in->t[1]));
    if (d && total > 0) fn(ctx, d->base, total * in->a);
}

/* Mask form: reads src's selected elements, writes the packed stream into dst. */
static int tgather_mask_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const TileView *d = defined_tile(ip, &in->t[0]);
    int64_t total = gather_mask_count(in, defined_tile(ip, &in->t[1]));
    if (!d || total < 0 || d->vc != in->t[0].cols || total > (int64_t)in->t[0].rows * in->t[0].cols)
        return -1; /* refused when it runs */
    acc[0] = walked_access(operand_value(&in->op->ins, 0), false, gather_mask_src_walk);
    acc[1] = walked_access(operand_value(&in->op->outs, 0), true, gather_mask_dst_walk);
    return 2;
}

static int32_t exec_tgather_mask(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    if (!s) return PC_ERROR;
    if (d->vc != in->t[0].cols)
        return rt_rule_error(ip, in, "dst-valid-cols", "expects dst valid_shape[1] to equal dst cols (%d and %d)", d->vc,
                             in->t[0].cols);
    const int64_t start = in->b & 0xff, step = in->b >> 8;
    int64_t per_row = s->vc > start ? (s->vc - start + step - 1) / step : 0;
    int64_t total = per_row * s->vr, room = (int64_t)in->t[0].rows * in->t[0].cols;
    if (total > room)
        return rt_error(ip, in, "writes %lld selected elements (%d valid rows x %lld) into dst, which holds %lld", (long long)total,
                        s->vr, (long long)per_row, (long long)room);
    switch (in->a) {
    case 1: gather_mask_rows(in, d, s, 1); break;
    case 2: gather_mask_rows(in, d, s, 2); break;
    default: gather_mask_rows(in, d, s, 4); break;
    }
    return pc + 1;
}

/* First selected column and step of each mask pattern (attrs.c order: P0101 P1010 P0001 P0010
 * P0100 P1000 P1111). */
static const uint8_t mask_start[7] = {0, 1, 0, 1, 2, 3, 0};
static const uint8_t mask_step[7] = {2, 2, 4, 4, 4, 4, 1};

bool lower_tgather(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tgather_index);
    if (op->outs.count > 1 || (op->ins.count > 1 && op->ins.items[1].value && op->ins.items[1].value->type &&
                               op->ins.items[1].value->type->kind != TY_TILE) ||
        (op->ins.count > 1 && op->ins.items[1].kind != OPD_VALUE))
        return emit_unsupported(ctx, op, "compare form (outs(dst, cdst), a scalar kValue) has no reference semantics: the "
                                "ISA's CPU simulator does not implement it, so pto-run cannot execute it");
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted)) return emitted;
    size_t es = dtype_size(in.t[0].dtype);
    if (dtype_size(in.t[1].dtype) != es || (es != 1 && es != 2 && es != 4))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src and dst elements of one size (1, 2 or 4 bytes)");
    in.a = (int32_t)es;
    int64_t pat = op_attr_value(op, "maskPattern", AK_MASK_PATTERN, -1);
    if (attr_find(&op->attrs, "maskPattern")) {
        if (pat < 0 || pat > 6) return lower_error(ctx, op, (SrcLoc){0}, "has an unknown maskPattern");
        if (in.t[0].blayout != BL_ROW_MAJOR || in.t[1].blayout != BL_ROW_MAJOR)
            return lower_error(ctx, op, (SrcLoc){0}, "expects src and dst to use row-major layout");
        in.exec = exec_tgather_mask;
        in.footprint = tgather_mask_footprint;
        in.b = mask_start[pat] | mask_step[pat] << 8;
        emit(ctx, &in);
        return true;
    }
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "index-form tgather expects both indices and tmp");
    if (!lower_tile_in(ctx, op, 1, &in.t[2], &emitted)) return emitted;
    if (in.t[0].dtype != in.t[1].dtype) return same_dtype(ctx, op, &in.t[1], &in.t[0], "src");
    if (in.t[2].dtype != DT_I32 && in.t[2].dtype != DT_U32)
        return emit_unsupported(ctx, op, "has no reference semantics for %s indices: the ISA's CPU simulator requires "
                                "32-bit indices", dtype_name(in.t[2].dtype));
    in.b = in.t[2].dtype == DT_U32;
    in.footprint = tgather_index_footprint;
    emit(ctx, &in);
    return true;
}

/* ---- TGATHERB ----------------------------------------------------------------------------- */

/* Row r, block c of dst (32 bytes at byte (r*Cols + c*block) of dst) is copied from src's bytes at
 * the offset held in element r*Cols + c of the offsets tile (its raw storage, as the simulator
 * reads it); a block that would end past src's storage leaves dst unchanged. Instr.a: offsets'
 * element size; Instr.b: 1 when signed. */
static int32_t exec_tgatherb(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *o = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!o) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *to = &in->t[2];
    const size_t des = dtype_size(td->dtype);
    const int64_t blk = 32 / (int64_t)des, nblk = d->vc / blk, src_bytes = ts->footprint;
    const int64_t off_n = (int64_t)to->rows * to->cols;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < nblk; c++) {
            int64_t k = r * to->cols + c;
            if (k >= off_n)
                return rt_error(ip, in, "reads offsets element %lld (dst row %lld, block %lld) outside its %dx%d tile",
                                (long long)k, (long long)r, (long long)c, to->rows, to->cols);
            uint32_t off = (uint32_t)load_int(o->base + (size_t)k * (size_t)in->a, in->a, in->b != 0);
            if ((int64_t)off + 32 > src_bytes) continue;
            memcpy(d->base + (size_t)(r * td->cols + c * blk) * des, s->base + off, 32);
        }
    return pc + 1;
}

/* The blocks of a tgatherb: fn(ctx, src block or NULL when its offset is out of range, dst block),
 * in exec_tgatherb's order; false when fn stopped. */
typedef bool (*GatherBlockFn)(void *ctx, const uint8_t *src, const uint8_t *dst);
static void gatherb_blocks(const Interp *ip, const Instr *in, GatherBlockFn fn, void *ctx) {
    const TileRef *td = &in->t[0], *ts = &in->t[1], *to = &in->t[2];
    const TileView *d = defined_tile(ip, td), *s = defined_tile(ip, ts), *o = defined_tile(ip, to);
    if (!d || !s || !o) return;
    const size_t des = dtype_size(td->dtype);
    const int64_t blk = 32 / (int64_t)des, nblk = d->vc / blk, src_bytes = ts->footprint;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < nblk; c++) {
            uint32_t off = (uint32_t)load_int(o->base + (size_t)(r * to->cols + c) * (size_t)in->a, in->a, in->b != 0);
            const uint8_t *from = (int64_t)off + 32 > src_bytes ? NULL : s->base + off;
            if (!fn(ctx, from, d->base + (size_t)(r * td->cols + c * blk) * des)) return;
        }
}

static bool gatherb_src_block(void *ctx, const uint8_t *src, const uint8_t *dst) {
    (void)dst;
    return !src || run_add(ctx, src, 32);
}
static bool gatherb_dst_block(void *ctx, const uint8_t *src, const uint8_t *dst) {
    return !src || run_add(ctx, dst, 32);
}

/* The src blocks a tgatherb reads: 32 bytes at each offset that ends inside src's storage. */
static void gatherb_src_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    RunJoin j = {fn, ctx, NULL, 0};
    gatherb_blocks(ip, in, gatherb_src_block, &j);
    run_flush(&j);
}

/* The dst blocks it writes: those whose offset is in range (the others keep their bytes). */
static void gatherb_dst_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    RunJoin j = {fn, ctx, NULL, 0};
    gatherb_blocks(ip, in, gatherb_dst_block, &j);
    run_flush(&j);
}

/* The offsets elements it reads: raw element r*Cols + c for dst row r, block c (the storage order
 * of a row-major tile; the walk below for another layout). */
static void gatherb_offsets_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileRef *to = &in->t[2];
    const TileView *d = defined_tile(ip, &in->t[0]), *o = defined_tile(ip, to);
    if (!d || !o) return;
    const int64_t nblk = d->vc / (32 / (int64_t)dtype_size(in->t[0].dtype));
    RunJoin j = {fn, ctx, NULL, 0};
    for (int64_t r = 0; r < d->vr; r++)
        if (nblk > 0 && !run_add(&j, o->base + (size_t)(r * to->cols) * (size_t)in->a, nblk * in->a)) return;
    run_flush(&j);
}

/* tgatherb: reads the offsets of dst's valid rows x 32-byte blocks and the src blocks they name,
 * writes the dst blocks whose offset is in range. */
static int tgatherb_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const TileRef *to = &in->t[2];
    const TileView *d = defined_tile(ip, &in->t[0]);
    if (!d || !defined_tile(ip, &in->t[1]) || !defined_tile(ip, to)) return -1;
    const int64_t nblk = d->vc / (32 / (int64_t)dtype_size(in->t[0].dtype));
    if (d->vr > 0 && nblk > 0 && (int64_t)(d->vr - 1) * to->cols + nblk > (int64_t)to->rows * to->cols)
        return -1; /* refused when it runs */
    const Value *offsets = operand_value(&op->ins, 1);
    int n = 0;
    if (to->box_r == 1 && to->box_c == 1 && to->cs == 1 && nblk <= to->cols)
        acc[n++] = window_access(offsets, d->vr, (int32_t)nblk, false, "dst's valid region in 32-byte blocks");
    else
        acc[n++] = walked_access(offsets, false, gatherb_offsets_walk);
    acc[n++] = walked_access(operand_value(&op->ins, 0), false, gatherb_src_walk);
    acc[n++] = walked_access(operand_value(&op->outs, 0), true, gatherb_dst_walk);
    return n;
}

bool lower_tgatherb(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tgatherb);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    size_t des = dtype_size(in.t[0].dtype), oes = dtype_size(in.t[2].dtype);
    if (des != 1 && des != 2 && des != 4) return lower_error(ctx, op, (SrcLoc){0}, "expects dst element size to be 1, 2, or 4 bytes");
    if (in.t[0].blayout != BL_ROW_MAJOR)
        return emit_unsupported(ctx, op, "has no reference semantics for a column-major dst: the ISA's CPU simulator "
                                "requires a row-major one");
    if (!dtype_is_int(in.t[2].dtype) || oes > 4)
        return lower_error(ctx, op, (SrcLoc){0}, "expects offsets to hold 8-, 16- or 32-bit integer byte offsets");
    in.a = (int32_t)oes;
    in.b = !dtype_is_unsigned(in.t[2].dtype);
    in.footprint = tgatherb_footprint;
    emit(ctx, &in);
    return true;
}

/* ---- TSCATTER ----------------------------------------------------------------------------- */

/* Over the indexes' valid region: dst's raw element idx(i,j) = src(i,j). The simulator does not
 * bound the index; an index outside dst's Rows*Cols elements is a run-time error here. Instr.a:
 * data element size; Instr.b: index size | 0x100 when signed. */
static int32_t exec_tscatter(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *ix = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!ix) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *ti = &in->t[2];
    if (ix->vr > ts->rows || ix->vc > ts->cols)
        return rt_error(ip, in, "reads src (%dx%d tile) over the indexes' valid region %dx%d, outside its storage", ts->rows,
                        ts->cols, ix->vr, ix->vc);
    const size_t es = (size_t)in->a;
    const int isz = in->b & 0xff;
    const bool sgn = (in->b & 0x100) != 0;
    const int64_t n = (int64_t)td->rows * td->cols;
    for (int64_t i = 0; i < ix->vr; i++)
        for (int64_t j = 0; j < ix->vc; j++) {
            int64_t raw = load_int(elem_at(ti, ix, i, j, (size_t)isz), isz, sgn);
            uint32_t u = (uint32_t)raw; /* static_cast<unsigned> */
            if ((int64_t)u >= n)
                return rt_error(ip, in,
                                "index %lld at indexes (%lld, %lld) is outside dst's %lld elements (%dx%d): the ISA's CPU "
                                "simulator would write outside the tile",
                                (long long)raw, (long long)i, (long long)j, (long long)n, td->rows, td->cols);
            memcpy(d->base + (size_t)u * es, elem_at(ts, s, i, j, es), es);
        }
    return pc + 1;
}

/* The dst elements a tscatter writes: raw element idx(i, j) over the indexes' valid region
 * (exec_tscatter's addressing; an index outside dst's Rows*Cols stops the run there). */
static void scatter_dst_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileRef *td = &in->t[0], *ti = &in->t[2];
    const TileView *d = defined_tile(ip, td), *ix = defined_tile(ip, ti);
    if (!d || !ix) return;
    const size_t es = (size_t)in->a;
    const int isz = in->b & 0xff;
    const bool sgn = (in->b & 0x100) != 0;
    const int64_t n = (int64_t)td->rows * td->cols;
    RunJoin j = {fn, ctx, NULL, 0};
    bool in_range = true;
    for (int64_t i = 0; i < ix->vr && in_range; i++)
        for (int64_t k = 0; k < ix->vc && in_range; k++) {
            uint32_t u = (uint32_t)load_int(elem_at(ti, ix, i, k, (size_t)isz), isz, sgn);
            if ((int64_t)u >= n) in_range = false;
            else if (!run_add(&j, d->base + (size_t)u * es, (int64_t)es)) return;
        }
    run_flush(&j);
}

/* tscatter: reads the indexes' valid region and src over it, writes only the dst elements the
 * indexes name; dst is not read. */
static int tscatter_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const TileView *ix = defined_tile(ip, &in->t[2]);
    if (!ix || !defined_tile(ip, &in->t[0]) || !defined_tile(ip, &in->t[1]) || ix->vr > in->t[1].rows ||
        ix->vc > in->t[1].cols)
        return -1; /* refused when it runs */
    acc[0] = window_access(operand_value(&op->ins, 1), ix->vr, ix->vc, false, NULL);
    acc[1] = window_access(operand_value(&op->ins, 0), ix->vr, ix->vc, false, "the indexes' valid region");
    acc[2] = walked_access(operand_value(&op->outs, 0), true, scatter_dst_walk);
    return 3;
}

bool lower_tscatter(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tscatter);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    if (in.t[0].dtype != in.t[1].dtype) return same_dtype(ctx, op, &in.t[1], &in.t[0], "src");
    size_t isz = dtype_size(in.t[2].dtype);
    if (!dtype_is_int(in.t[2].dtype) || (isz != 2 && isz != 4))
        return lower_error(ctx, op, (SrcLoc){0}, "expects indexes element type to be i16/i32");
    in.a = (int32_t)dtype_size(in.t[0].dtype);
    in.b = (int32_t)isz | (dtype_is_unsigned(in.t[2].dtype) ? 0 : 0x100);
    in.footprint = tscatter_footprint;
    emit(ctx, &in);
    return true;
}

/* ---- TQUANT ------------------------------------------------------------------------------- */

/* float -> int8 as the simulator's ClampInt8 / ClampUint8: nearbyint (ties to even in the default
 * rounding mode), clamped in float; NaN gives 0 (what the x86 conversion of the simulator yields). */
static inline int64_t quant_round(float v, float lo, float hi) {
    float r = nearbyintf(v);
    if (r != r) return 0;
    return (int64_t)(r < lo ? lo : r > hi ? hi : r);
}

/* Over src's valid region: SYM d = clamp(rint(s * fp(r', 0)), -128, 127); ASYM d = clamp(rint(s *
 * fp(r', 0) + off(r', 0)), 0, 255), r' = min(r, valid rows - 1), in float. Instr.a: 1 for ASYM. */
static int32_t exec_tquant(Interp *ip, const Instr *in, int32_t pc) {
    const bool asym = in->a != 0;
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *fp = s ? use_tile(ip, in, &in->t[2]) : NULL, *off = NULL;
    if (!fp) return PC_ERROR;
    if (asym && !(off = use_tile(ip, in, &in->t[3]))) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *tf = &in->t[2], *to = &in->t[3];
    if (s->vr > td->rows || s->vc > td->cols)
        return rt_error(ip, in, "writes src's valid region %dx%d into dst, a %dx%d tile", s->vr, s->vc, td->rows, td->cols);
    if (s->vr == 0 || s->vc == 0) return pc + 1;
    if (fp->vr == 0 || fp->vc == 0 || (asym && (off->vr == 0 || off->vc == 0)))
        return rt_error(ip, in, "reads its per-row parameters from an empty valid region");
    for (int64_t r = 0; r < s->vr; r++) {
        int64_t pr = r < fp->vr - 1 ? r : fp->vr - 1;
        float inv = (float)element_as_double(elem_at(tf, fp, pr, 0, dtype_size(tf->dtype)), 0, tf->dtype);
        float zp = 0.0f;
        if (asym) {
            int64_t orow = r < off->vr - 1 ? r : off->vr - 1;
            zp = (float)element_as_double(elem_at(to, off, orow, 0, 4), 0, to->dtype);
        }
        for (int64_t c = 0; c < s->vc; c++) {
            float x;
            memcpy(&x, elem_at(ts, s, r, c, 4), 4);
            uint8_t *dp = elem_at(td, d, r, c, 1);
            if (asym) {
                float v = x * inv;
                v = v + zp;
                *dp = (uint8_t)quant_round(v, 0.0f, 255.0f);
            } else {
                *dp = (uint8_t)(int8_t)quant_round(x * inv, -128.0f, 127.0f);
            }
        }
    }
    return pc + 1;
}

bool lower_tquant(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tquant);
    int64_t q = op_attr_value(op, "quant_type", AK_QUANT_TYPE, -1);
    if (q < 0) return lower_error(ctx, op, (SrcLoc){0}, "expects quant_type = #pto<quant_type INT8_SYM> or INT8_ASYM");
    if (q > 1)
        return emit_unsupported(ctx, op, "quant_type %s is not supported yet (only INT8_SYM and INT8_ASYM)",
                                attr_enum_name(AK_QUANT_TYPE, q));
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    in.a = q == 1;
    if (in.a && !lower_tile_in(ctx, op, 2, &in.t[3], &emitted)) return emitted;
    if (in.t[1].dtype != DT_F32) return lower_error(ctx, op, (SrcLoc){0}, "expects src to have element type f32");
    if (in.t[0].dtype != (in.a ? DT_U8 : DT_I8))
        return lower_error(ctx, op, (SrcLoc){0}, "expects dst element type %s", in.a ? "ui8 for INT8_ASYM" : "i8 for INT8_SYM");
    if (!dtype_is_float(in.t[2].dtype)) return lower_error(ctx, op, (SrcLoc){0}, "expects fp to have a float element type");
    if (in.a && in.t[3].dtype != DT_F32) return lower_error(ctx, op, (SrcLoc){0}, "expects offset to have element type f32");
    emit(ctx, &in);
    return true;
}

/* ---- TDEQUANT ----------------------------------------------------------------------------- */

/* Over dst's valid region: d = (float(s) - off) * scale, the parameters at row r, column
 * min(c, max(1, scale's valid cols) - 1), both read through scale's layout (the simulator's
 * TileDataPara). Instr.a: src element size (1 or 2). */
static int32_t exec_tdequant(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *sc = s ? use_tile(ip, in, &in->t[2]) : NULL, *of = sc ? use_tile(ip, in, &in->t[3]) : NULL;
    if (!of) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *tp = &in->t[2];
    if (d->vr > ts->rows || d->vc > ts->cols)
        return rt_error(ip, in, "reads src (a %dx%d tile) over dst's valid region %dx%d", ts->rows, ts->cols, d->vr, d->vc);
    if (d->vr > tp->rows)
        return rt_error(ip, in, "reads scale and offset row %d of a %d-row tile", d->vr - 1, tp->rows);
    const int64_t pc_max = (sc->vc > 1 ? sc->vc : 1) - 1;
    const int es = in->a;
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            int64_t p = c < pc_max ? c : pc_max;
            float scale, off, out;
            memcpy(&scale, elem_at(tp, sc, r, p, 4), 4);
            memcpy(&off, elem_at(tp, of, r, p, 4), 4);
            float x = (float)load_int(elem_at(ts, s, r, c, (size_t)es), es, true);
            out = x - off;
            out = out * scale;
            memcpy(elem_at(td, d, r, c, 4), &out, 4);
        }
    return pc + 1;
}

bool lower_tdequant(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_tdequant);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !lower_tile_in(ctx, op, 0, &in.t[1], &emitted) ||
        !lower_tile_in(ctx, op, 1, &in.t[2], &emitted) || !lower_tile_in(ctx, op, 2, &in.t[3], &emitted))
        return emitted;
    if (in.t[1].dtype != DT_I8 && in.t[1].dtype != DT_I16)
        return lower_error(ctx, op, (SrcLoc){0}, "expects src element type i8 or i16");
    for (int i = 0; i < 4; i++)
        if (i != 1 && in.t[i].dtype != DT_F32)
            return lower_error(ctx, op, (SrcLoc){0}, "expects dst, scale and offset element type f32");
    const TileRef *a = &in.t[2], *b = &in.t[3];
    if (a->rows != b->rows || a->cols != b->cols || a->blayout != b->blayout)
        return emit_unsupported(ctx, op, "has no reference semantics when scale (%dx%d) and offset (%dx%d) differ in shape or "
                                "layout: the ISA's CPU simulator addresses both through one tile type",
                                a->rows, a->cols, b->rows, b->cols);
    in.a = (int32_t)dtype_size(in.t[1].dtype);
    emit(ctx, &in);
    return true;
}

/* ---- MGATHER / MSCATTER: GM elements by index (A5) ------------------------------------------ */

/* The simulator's Coalesce::Elem form (MGather.hpp, MScatter.hpp), the one PTOAS's C++ call selects:
 * element (i, j) of the data tile's valid region (dst's for mgather, src's for mscatter) pairs with
 * the index at idx's storage offset of (i, j) (GetTileElementOffset over idx's own shape: an Rx1 idx
 * is read at i + j) and GM element base[index], base the view's first element, capacity the view's
 * element count. The index, an i32, becomes a size_t (negative ones wrap to huge values); the
 * out-of-bounds modes then bound it: clamp to capacity - 1, wrap modulo capacity, zero (mgather: the
 * element reads 0) or skip (mscatter: nothing is written) when >= capacity, and undefined leaves it
 * as it is: pto-run reads or writes that element when it lies in the GM buffer (a negative index
 * reaching before the view's first element included, as the simulator's pointer arithmetic does)
 * and reports a run-time error otherwise. Instr: t[0] the data tile, t[1] idx; a: the view's slot;
 * b: the bounding mode (gm_index_position) | atomic (scatterAtomicOp) << 4. */

enum { GM_OOB_UNDEFINED = 0, GM_OOB_CLAMP = 1, GM_OOB_WRAP = 2, GM_OOB_ZERO = 3 }; /* gatherOob values */
enum { GM_ATOMIC_NONE = 0, GM_ATOMIC_ADD = 1, GM_ATOMIC_MAX = 2, GM_ATOMIC_MIN = 3 };

/* The view's element count (the GlobalTensor's shape product); -1 past int64. */
static int64_t view_capacity(const GmView *v) {
    int64_t n = 1;
    for (int i = 0; i < v->rank; i++)
        if (!checked_mul_i64(n, v->shape[i], &n)) return -1;
    return n;
}

/* The GM element (from the view's first one) that index `raw` addresses under bounding mode
 * `bound` (0 none, 1 clamp, 2 wrap, 3 drop: mgather zero, mscatter skip); INT64_MIN when dropped. */
static inline int64_t gm_index_position(int bound, int32_t raw, int64_t cap) {
    uint64_t u = (uint64_t)(int64_t)raw; /* static_cast<size_t> of an int32 */
    switch (bound) {
    case 1: return u > (uint64_t)(cap - 1) ? cap - 1 : (int64_t)u;
    case 2: return (int64_t)(u % (uint64_t)cap);
    case 3: return u >= (uint64_t)cap ? INT64_MIN : (int64_t)u;
    default: return raw;
    }
}

/* The bounding mode of an instruction (gm_index_position's terms, set by its lowering). */
static inline int gm_bound_of(const Instr *in) { return in->b & 0xf; }

/* The index at idx's storage offset of (i, j) (the caller checked it lies in idx). */
static inline int32_t gm_index_at(const TileRef *ti, const TileView *ix, int64_t i, int64_t j) {
    int32_t raw;
    memcpy(&raw, ix->base + (size_t)tile_elem_offset(ti, i, j) * 4, 4);
    return raw;
}

/* What the run reads of idx and the view: checked before the loop (rows x cols of the data tile). */
static int32_t gm_indexed_check(Interp *ip, const Instr *in, const TileRef *ti, int64_t rows, int64_t cols, int64_t cap,
                                int bound) {
    int64_t last = tile_elem_offset(ti, rows - 1, cols - 1);
    if (last >= (int64_t)ti->rows * ti->cols)
        return rt_error(ip, in, "reads idx %%%s at storage offset %lld for element (%lld, %lld), past its %dx%d storage: "
                        "the ISA's CPU simulator reads index (i, j) at idx's own offset of (i, j)",
                        ti->name, (long long)last, (long long)rows - 1, (long long)cols - 1, ti->rows, ti->cols);
    if (cap < 0) return rt_error(ip, in, "views more elements than pto-run can count");
    if (cap == 0 && (bound == 1 || bound == 2))
        return rt_error(ip, in, "bounds its indices by a view of no elements (clamp and wrap need one)");
    return 0;
}

/* The GM element of index (i, j) as a flat position in the buffer, or INT64_MIN when the bound
 * drops it; *bad set when it lies outside the buffer (reported by the caller). */
static inline int64_t gm_target(const GmView *v, const GmBuffer *b, int bound, int32_t raw, int64_t cap, bool *bad) {
    int64_t pos = gm_index_position(bound, raw, cap);
    if (pos == INT64_MIN) return pos;
    int64_t at = v->offset + pos;
    if (at < 0 || at >= b->count) *bad = true;
    return at;
}

static int32_t gm_outside(Interp *ip, const Instr *in, const GmBuffer *b, const GmView *v, int32_t raw, int64_t at, int64_t i,
                          int64_t j) {
    const char *attr = in->op->code == OP_MSCATTER ? "scatterOob" : "gatherOob";
    if (gm_bound_of(in) == 0)
        return rt_error(ip, in, "index %d at idx (%lld, %lld) addresses element %lld of %%%s (view from element %lld), "
                        "outside its %lld elements: with %s = undefined the simulator would touch memory outside the GM "
                        "buffer (a bounding mode keeps it inside the view)",
                        raw, (long long)i, (long long)j, (long long)at, b->arg->name, (long long)v->offset,
                        (long long)b->count, attr);
    return rt_error(ip, in, "index %d at idx (%lld, %lld), bounded by %s to the view's element count, addresses element "
                    "%lld of %%%s, outside its %lld elements (the view's elements counted from its first run past the "
                    "buffer)", raw, (long long)i, (long long)j, attr, (long long)at, b->arg->name, (long long)b->count);
}

/* The GM written map to check reads against (require_inputs, a buffer without --in data), or NULL;
 * *none when there is nothing to read from at all. */
static const uint8_t *gm_reads_checked(const Interp *ip, const GmBuffer *b, bool *none) {
    *none = false;
    if (!ip->opts.require_inputs || b->bound) return NULL;
    if (!b->written) *none = true;
    return b->written;
}

static int32_t gm_unwritten(Interp *ip, const Instr *in, const GmBuffer *b, int64_t at) {
    return rt_error(ip, in, "reads element %lld of %%%s, which has no input data and was not written before: pass --in "
                    "%s=FILE, or --zero-inputs to run on zeros", (long long)at, b->arg->name, b->arg->name);
}

/* mgather over dst's valid region, for one bounding mode and element size (both constants where
 * it is called, so each combination is its own loop). */
static inline __attribute__((always_inline)) int32_t mgather_loop(Interp *ip, const Instr *in, TileView *d, const TileView *ix,
                                                                  const GmView *v, const GmBuffer *b, int64_t cap,
                                                                  const int bound, const size_t es) {
    const TileRef *td = &in->t[0], *ti = &in->t[1];
    bool none;
    const uint8_t *w = gm_reads_checked(ip, b, &none);
    for (int64_t i = 0; i < d->vr; i++) {
        for (int64_t j = 0; j < d->vc; j++) {
            int32_t raw = gm_index_at(ti, ix, i, j);
            bool bad = false;
            int64_t at = gm_target(v, b, bound, raw, cap, &bad);
            uint8_t *dp = elem_at(td, d, i, j, es);
            if (at == INT64_MIN) {
                memset(dp, 0, es);
                continue;
            }
            if (bad) return gm_outside(ip, in, b, v, raw, at, i, j);
            if (none || (w && !w[at])) return gm_unwritten(ip, in, b, at);
            memcpy(dp, b->data + (size_t)at * es, es);
        }
    }
    return 0;
}

static int32_t exec_mgather(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *ix = d ? use_tile(ip, in, &in->t[1]) : NULL;
    if (!ix) return PC_ERROR;
    if (d->vr == 0 || d->vc == 0) return pc + 1;
    const GmView *v = &ip->frame->vals[in->a].view;
    const GmBuffer *b = &ip->gm[v->buffer];
    const int64_t cap = view_capacity(v);
    const int bound = gm_bound_of(in);
    if (gm_indexed_check(ip, in, &in->t[1], d->vr, d->vc, cap, bound) == PC_ERROR) return PC_ERROR;
    const size_t es = dtype_size(in->t[0].dtype);
    int32_t r = 0;
#define MGATHER_CASE(B)                                                                                                \
    case B:                                                                                                            \
        r = es == 1 ? mgather_loop(ip, in, d, ix, v, b, cap, B, 1)                                                     \
            : es == 2 ? mgather_loop(ip, in, d, ix, v, b, cap, B, 2)                                                   \
                      : mgather_loop(ip, in, d, ix, v, b, cap, B, 4);                                                  \
        break;
    switch (bound) {
        MGATHER_CASE(0)
        MGATHER_CASE(1)
        MGATHER_CASE(2)
        MGATHER_CASE(3)
    }
#undef MGATHER_CASE
    return r == PC_ERROR ? PC_ERROR : pc + 1;
}

/* One scatter store: GM element g (op)= s (f32: std::max / std::min's comparisons; f16: add only). */
static inline void scatter_store(uint8_t *g, const uint8_t *s, size_t es, int atomic, DType dt) {
    if (atomic == GM_ATOMIC_NONE) {
        memcpy(g, s, es);
    } else if (dt == DT_F32) {
        float a, x;
        memcpy(&a, g, 4), memcpy(&x, s, 4);
        float r = atomic == GM_ATOMIC_ADD ? a + x : atomic == GM_ATOMIC_MAX ? (a < x ? x : a) : (x < a ? x : a);
        memcpy(g, &r, 4);
    } else if (dt == DT_F16) { /* add only: the f16 sum, rounded once (exact in f32) */
        uint16_t a, x;
        memcpy(&a, g, 2), memcpy(&x, s, 2);
        a = f32_to_f16_bits(f16_bits_to_f32(a) + f16_bits_to_f32(x));
        memcpy(g, &a, 2);
    } else { /* i32: wrapping add, std::max / std::min */
        int32_t a, x;
        memcpy(&a, g, 4), memcpy(&x, s, 4);
        int32_t r = atomic == GM_ATOMIC_ADD ? (int32_t)((uint32_t)a + (uint32_t)x) : atomic == GM_ATOMIC_MAX ? (a < x ? x : a)
                                                                                                           : (x < a ? x : a);
        memcpy(g, &r, 4);
    }
}

/* mscatter over src's valid region in row-major order (a later element with the same index wins, or
 * accumulates), for one bounding mode, atomic op and element type. */
static inline __attribute__((always_inline)) int32_t mscatter_loop(Interp *ip, const Instr *in, const TileView *s,
                                                                   const TileView *ix, const GmView *v, GmBuffer *b,
                                                                   int64_t cap, const int bound, const int atomic,
                                                                   const size_t es, const DType dt) {
    const TileRef *ts = &in->t[0], *ti = &in->t[1];
    bool none;
    const uint8_t *w = atomic != GM_ATOMIC_NONE ? gm_reads_checked(ip, b, &none) : (none = false, NULL);
    for (int64_t i = 0; i < s->vr; i++) {
        for (int64_t j = 0; j < s->vc; j++) {
            int32_t raw = gm_index_at(ti, ix, i, j);
            bool bad = false;
            int64_t at = gm_target(v, b, bound, raw, cap, &bad);
            if (at == INT64_MIN) continue;
            if (bad) return gm_outside(ip, in, b, v, raw, at, i, j);
            if (none || (w && !w[at])) return gm_unwritten(ip, in, b, at);
            scatter_store(b->data + (size_t)at * es, elem_at(ts, s, i, j, es), es, atomic, dt);
            if (b->written) b->written[at] = 1;
        }
    }
    return 0;
}

static int32_t exec_mscatter(Interp *ip, const Instr *in, int32_t pc) {
    TileView *s = use_tile(ip, in, &in->t[0]), *ix = s ? use_tile(ip, in, &in->t[1]) : NULL;
    if (!ix) return PC_ERROR;
    if (s->vr == 0 || s->vc == 0) return pc + 1;
    const GmView *v = &ip->frame->vals[in->a].view;
    GmBuffer *b = &ip->gm[v->buffer];
    const int64_t cap = view_capacity(v);
    const int bound = gm_bound_of(in), atomic = (in->b >> 4) & 0xf;
    if (gm_indexed_check(ip, in, &in->t[1], s->vr, s->vc, cap, bound) == PC_ERROR) return PC_ERROR;
    const DType dt = in->t[0].dtype;
    const size_t es = dtype_size(dt);
    int32_t r = 0;
    if (atomic == GM_ATOMIC_NONE) {
#define MSCATTER_CASE(B)                                                                                               \
    case B:                                                                                                            \
        r = es == 1 ? mscatter_loop(ip, in, s, ix, v, b, cap, B, GM_ATOMIC_NONE, 1, DT_U8)                             \
            : es == 2 ? mscatter_loop(ip, in, s, ix, v, b, cap, B, GM_ATOMIC_NONE, 2, DT_U16)                          \
                      : mscatter_loop(ip, in, s, ix, v, b, cap, B, GM_ATOMIC_NONE, 4, DT_U32);                         \
        break;
        switch (bound) {
            MSCATTER_CASE(0)
            MSCATTER_CASE(1)
            MSCATTER_CASE(2)
            MSCATTER_CASE(3)
        }
#undef MSCATTER_CASE
    } else { /* the atomic forms (i32, f16 add, f32): one loop, the store chosen by constants per type */
        if (dt == DT_F32) r = mscatter_loop(ip, in, s, ix, v, b, cap, bound, atomic, 4, DT_F32);
        else if (dt == DT_F16) r = mscatter_loop(ip, in, s, ix, v, b, cap, bound, GM_ATOMIC_ADD, 2, DT_F16);
        else r = mscatter_loop(ip, in, s, ix, v, b, cap, bound, atomic, 4, DT_I32);
    }
    return r == PC_ERROR ? PC_ERROR : pc + 1;
}

/* The GM elements an mgather reads or an mscatter writes now (exec's addressing and bounds; a
 * dropped index touches nothing, an index outside the buffer stops the walk there). */
static void gm_indexed_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileView *d = defined_tile(ip, &in->t[0]), *ix = defined_tile(ip, &in->t[1]);
    if (!d || !ix || d->vr == 0 || d->vc == 0) return;
    const TileRef *ti = &in->t[1];
    const GmView *v = &ip->frame->vals[in->a].view;
    if (v->buffer < 0 || v->buffer >= ip->n_gm) return;
    const GmBuffer *b = &ip->gm[v->buffer];
    const int64_t cap = view_capacity(v);
    const int bound = gm_bound_of(in);
    if (!b->data || tile_elem_offset(ti, d->vr - 1, d->vc - 1) >= (int64_t)ti->rows * ti->cols || cap < 0 ||
        (cap == 0 && (bound == 1 || bound == 2)))
        return;
    const size_t es = dtype_size(in->t[0].dtype);
    RunJoin j = {fn, ctx, NULL, 0};
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            bool bad = false;
            int64_t at = gm_target(v, b, bound, gm_index_at(ti, ix, r, c), cap, &bad);
            if (at == INT64_MIN) continue;
            if (bad) {
                run_flush(&j);
                return;
            }
            if (!run_add(&j, b->data + (size_t)at * es, (int64_t)es)) return;
        }
    run_flush(&j);
}

/* The idx elements read: the storage offset of each (i, j) of the data tile's valid region. */
static void gm_index_walk(const Interp *ip, const Instr *in, TileRunFn fn, void *ctx) {
    const TileView *d = defined_tile(ip, &in->t[0]), *ix = defined_tile(ip, &in->t[1]);
    if (!d || !ix || d->vr == 0 || d->vc == 0) return;
    const TileRef *ti = &in->t[1];
    const int64_t n = (int64_t)ti->rows * ti->cols;
    RunJoin j = {fn, ctx, NULL, 0};
    for (int64_t r = 0; r < d->vr; r++)
        for (int64_t c = 0; c < d->vc; c++) {
            int64_t e = tile_elem_offset(ti, r, c);
            if (e >= n) {
                run_flush(&j);
                return;
            }
            if (!run_add(&j, ix->base + (size_t)e * 4, 4)) return;
        }
    run_flush(&j);
}

/* mgather: reads the idx elements and the GM elements they name, writes dst's valid region. */
static int mgather_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const TileView *d = defined_tile(ip, &in->t[0]);
    if (!d || !defined_tile(ip, &in->t[1])) return -1;
    acc[0] = walked_access(operand_value(&op->ins, 1), false, gm_index_walk);
    acc[1] = walked_access(operand_value(&op->ins, 0), false, gm_indexed_walk);
    acc[2] = window_access(operand_value(&op->outs, 0), d->vr, d->vc, true, NULL);
    return 3;
}

/* mscatter: reads src's valid region and the idx elements, writes (atomic: reads and writes) the GM
 * elements they name. */
static int mscatter_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const TileView *s = defined_tile(ip, &in->t[0]);
    if (!s || !defined_tile(ip, &in->t[1])) return -1;
    int n = 0;
    acc[n++] = window_access(operand_value(&op->ins, 0), s->vr, s->vc, false, NULL);
    acc[n++] = walked_access(operand_value(&op->ins, 1), false, gm_index_walk);
    if ((in->b >> 4) & 0xf) acc[n++] = walked_access(operand_value(&op->outs, 0), false, gm_indexed_walk);
    acc[n++] = walked_access(operand_value(&op->outs, 0), true, gm_indexed_walk);
    return n;
}

/* The GM view operand (ins or outs `list`, position i) as a frame slot, checked against the data
 * tile's element type. */
static int32_t gm_view_operand(LowerCtx *ctx, const Op *op, const OperandList *list, int i, const TileRef *data) {
    if (i >= list->count) return lower_error(ctx, op, (SrcLoc){0}, "expects a GM view operand"), -1;
    int32_t slot = value_slot(ctx, op, &list->items[i]);
    if (slot < 0) return -1;
    const Type *vt = list->items[i].value->type;
    if (!vt || (vt->kind != TY_PARTITION_VIEW && vt->kind != TY_TENSOR_VIEW))
        return lower_error(ctx, op, list->items[i].loc, "expects a partition view operand"), -1;
    if (dtype_size(vt->dtype) != dtype_size(data->dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects mem (%s) and %s (%s) elements of the same size",
                           dtype_name(vt->dtype), data->name, dtype_name(data->dtype)), -1;
    return slot;
}

/* The idx operand: an i32 tile (the verifier's rule; checked again for what the kernel reads). */
static bool gm_index_tile(LowerCtx *ctx, const Op *op, TileRef *idx, bool *emitted) {
    if (!lower_tile_in(ctx, op, 1, idx, emitted)) return false;
    if (idx->dtype != DT_I32) return lower_error(ctx, op, (SrcLoc){0}, "expects idx element type to be signless i32");
    return true;
}

bool lower_mgather(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_mgather);
    if (!dps_dst(ctx, op, &in.t[0], &emitted) || !gm_index_tile(ctx, op, &in.t[1], &emitted)) return emitted;
    in.a = gm_view_operand(ctx, op, &op->ins, 0, &in.t[0]);
    if (in.a < 0) return false;
    in.b = (int32_t)op_attr_value(op, "gatherOob", AK_GATHER_OOB, GM_OOB_UNDEFINED); /* undefined clamp wrap zero: 0 1 2 3 */
    if (in.b == GM_OOB_ZERO && dtype_is_f8(in.t[0].dtype)) /* `ok ? base[idx] : 0`: MXType and int, no common type */
        return emit_unsupported(ctx, op, "gatherOob = zero on %s has no reference semantics: pto-isa's MGATHER does not "
                                "compile that form for an 8-bit float (MGather.hpp)", dtype_name(in.t[0].dtype));
    in.footprint = mgather_footprint;
    emit(ctx, &in);
    return true;
}

bool lower_mscatter(LowerCtx *ctx, const Op *op) {
    bool emitted = false;
    Instr in = instr_for(op, exec_mscatter);
    if (!lower_tile_in(ctx, op, 0, &in.t[0], &emitted) || !gm_index_tile(ctx, op, &in.t[1], &emitted)) return emitted;
    in.a = gm_view_operand(ctx, op, &op->outs, 0, &in.t[0]);
    if (in.a < 0) return false;
    int64_t atomic = op_attr_value(op, "scatterAtomicOp", AK_SCATTER_ATOMIC, GM_ATOMIC_NONE);
    DType dt = in.t[0].dtype;
    if (atomic != GM_ATOMIC_NONE && !(dt == DT_I32 || dt == DT_F32 || (dt == DT_F16 && atomic == GM_ATOMIC_ADD)))
        return lower_error(ctx, op, (SrcLoc){0}, "expects scatterAtomicOp %s on %s to be one the verifier allows",
                           attr_enum_name(AK_SCATTER_ATOMIC, atomic), dtype_name(dt));
    static const int32_t bound_of_oob[4] = {0, 3, 1, 2}; /* undefined skip clamp wrap -> none drop clamp wrap */
    int64_t oob = op_attr_value(op, "scatterOob", AK_SCATTER_OOB, 0);
    in.b = bound_of_oob[oob & 3] | (int32_t)(atomic << 4);
    in.footprint = mscatter_footprint;
    emit(ctx, &in);
    return true;
}
