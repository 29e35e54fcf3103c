/* ops_move.c - lowering and execution of TEXTRACT, TINSERT, TCONCAT (vec -> vec) and TRESHAPE
 * (ir/ops_move.def; TEXTRACT and TINSERT also between cube tiles), as the ISA's CPU simulator computes them (TExtract.hpp, TInsert.hpp,
 * TConcat.hpp, TReshape.hpp):
 *   TEXTRACT  dst(r, c) = src(r + indexRow, c + indexCol) over dst's valid region;
 *   TINSERT   dst(r + indexRow, c + indexCol) = src(r, c) over src's valid region;
 *   TCONCAT   per dst valid row: src0's valid columns, then src1's, from column 0;
 *   TRESHAPE  a new view of src's bytes with the result's type (no copy).
 * Nothing else of dst is written. Element types are equal (the verifier's rule), so a move is a
 * copy of element bits; lowering picks the copy kernel for the element size and layouts. A copy
 * whose source and destination bytes overlap runs element by element in the simulator's order. */
#include "interp_impl.h"

#include <string.h>

/* Copies a rows x cols rectangle of elements (strides in elements). */
typedef void (*MoveRect)(uint8_t *d, int64_t drs, int64_t dcs, const uint8_t *s, int64_t srs, int64_t scs, int64_t rows,
                         int64_t cols);

/* What lowering decided (Instr.extra): the kernels for the element size. `exact` is for tiles
 * whose bytes overlap: the simulator's element order, column-major over the rectangle (TEXTRACT,
 * TINSERT; TCONCAT calls it one row at a time, which is its row-major order). */
typedef struct MovePlan {
    MoveRect exact;
    MoveRect strided;        /* disjoint tiles, one of them column-major */
    bool row_major;          /* both row-major: disjoint copies take one memcpy per row */
    bool boxed;              /* a boxed (fractal) tile: through the offset tables (move_boxed) */
    TileOffsets doff, soff;  /* boxed: the destination's and the source's */
    size_t es;               /* element size in bytes */
} MovePlan;

/* rows x cols elements between tiles walked through their offset tables: d(dr0 + r, dc0 + c) =
 * s(sr0 + r, sc0 + c); a row at a time, or, when the tiles' bytes overlap, element by element in
 * the simulator's column-by-column order. */
static void move_boxed(const MovePlan *p, bool overlap, uint8_t *d, int64_t dr0, int64_t dc0, const uint8_t *s, int64_t sr0,
                       int64_t sc0, int64_t rows, int64_t cols) {
    const int64_t *dr = p->doff.rows + dr0, *dc = p->doff.cols + dc0, *sr = p->soff.rows + sr0, *sc = p->soff.cols + sc0;
    size_t es = p->es;
    if (!overlap) {
        for (int64_t r = 0; r < rows; r++) copy_elems(d + (size_t)dr[r] * es, dc, s + (size_t)sr[r] * es, sc, cols, es);
        return;
    }
    for (int64_t c = 0; c < cols; c++)
        for (int64_t r = 0; r < rows; r++) memmove(d + (size_t)(dr[r] + dc[c]) * es, s + (size_t)(sr[r] + sc[c]) * es, es);
}

#define MOVE_KERNELS(N)                                                                                              \
    static void rect_exact_##N(uint8_t *d, int64_t drs, int64_t dcs, const uint8_t *s, int64_t srs, int64_t scs,    \
                               int64_t rows, int64_t cols) {                                                         \
        for (int64_t c = 0; c < cols; c++)                                                                           \
            for (int64_t r = 0; r < rows; r++) memmove(d + (size_t)(r * drs + c * dcs) * N, s + (size_t)(r * srs + c * scs) * N, N); \
    }                                                                                                                \
    static void rect_strided_##N(uint8_t *d, int64_t drs, int64_t dcs, const uint8_t *s, int64_t srs, int64_t scs,  \
                                 int64_t rows, int64_t cols) {                                                       \
        for (int64_t r = 0; r < rows; r++) {                                                                         \
            uint8_t *dp = d + (size_t)(r * drs) * N;                                                                 \
            const uint8_t *sp = s + (size_t)(r * srs) * N;                                                           \
            for (int64_t c = 0; c < cols; c++) memcpy(dp + (size_t)(c * dcs) * N, sp + (size_t)(c * scs) * N, N);    \
        }                                                                                                            \
    }
MOVE_KERNELS(1)
MOVE_KERNELS(2)
MOVE_KERNELS(4)
MOVE_KERNELS(8)

/* Both tiles row-major: one memcpy of `bytes` per row (row strides in bytes). */
static void rect_rows(uint8_t *d, int64_t drs, const uint8_t *s, int64_t srs, int64_t rows, int64_t bytes) {
    for (int64_t r = 0; r < rows; r++) memcpy(d + (size_t)(r * drs), s + (size_t)(r * srs), (size_t)bytes);
}

/* Fills the plan for copies between tiles a and b (none_box, one element type). */
static void move_plan(MovePlan *p, const TileRef *a, const TileRef *b) {
    p->es = dtype_size(a->dtype);
    switch (p->es) {
    case 1: p->exact = rect_exact_1; p->strided = rect_strided_1; break;
    case 2: p->exact = rect_exact_2; p->strided = rect_strided_2; break;
    case 4: p->exact = rect_exact_4; p->strided = rect_strided_4; break;
    default: p->exact = rect_exact_8; p->strided = rect_strided_8; break;
    }
    p->row_major = a->cs == 1 && b->cs == 1;
}

/* Runs a plan: rows x cols elements from s (strides srs, scs) to d (drs, dcs). `overlap`: the
 * tiles' bytes may overlap, so the exact order is kept. */
static void move_run(const MovePlan *p, bool overlap, uint8_t *d, int64_t drs, int64_t dcs, const uint8_t *s, int64_t srs,
                     int64_t scs, int64_t rows, int64_t cols) {
    if (rows <= 0 || cols <= 0) return;
    if (overlap) p->exact(d, drs, dcs, s, srs, scs, rows, cols);
    else if (p->row_major) rect_rows(d, drs * (int64_t)p->es, s, srs * (int64_t)p->es, rows, cols * (int64_t)p->es);
    else p->strided(d, drs, dcs, s, srs, scs, rows, cols);
}

/* True when the footprints of two tile views share a byte. */
static bool views_overlap(const TileRef *a, const TileView *va, const TileRef *b, const TileView *vb) {
    uintptr_t a0 = (uintptr_t)va->base, a1 = a0 + (uintptr_t)a->footprint;
    uintptr_t b0 = (uintptr_t)vb->base, b1 = b0 + (uintptr_t)b->footprint;
    return a0 < b1 && b0 < a1;
}

static inline uint8_t *elem_ptr(const TileRef *t, const TileView *v, int64_t r, int64_t c) {
    return v->base + (size_t)(r * t->rs + c * t->cs) * dtype_size(t->dtype);
}

/* Shared lowering checks of the DPS moves: the DPS form, none_box vec tiles unless `cube` (TEXTRACT
 * and TINSERT also move between cube tiles, boxed ones included, where the verifier allows it),
 * equal element types. Returns false with *emitted set when an "unsupported" instruction was
 * emitted instead (the caller returns *emitted). */
static bool move_tile(LowerCtx *ctx, const Op *op, const TileRef *t, bool cube, bool *emitted) {
    if (cube) return true;
    if (t->loc != LOC_VEC) {
        *emitted = emit_unsupported(ctx, op,
                                    "tile %%%s is in loc=%s: pto-run executes only the vec -> vec form of this op (the "
                                    "cube forms are not supported yet)", t->name, tile_loc_name(t->loc));
        return false;
    }
    if (boxed(t)) {
        *emitted = unsupported_boxed(ctx, op, t);
        return false;
    }
    return true;
}

static bool move_dst(LowerCtx *ctx, const Op *op, TileRef *dst) {
    bool defines;
    if (!lower_dst(ctx, op, dst, &defines)) return false;
    if (defines) return lower_error(ctx, op, (SrcLoc){0}, "writes into an existing tile: use the DPS form (outs)");
    return true;
}

/* ---- TEXTRACT / TINSERT ----------------------------------------------------------------------- */

/* The offsets (sc[0], sc[1]) at run time, checked against PTOAS's bound `index + inner <= outer`
 * per dimension (inner: dst's shape for TEXTRACT, src's valid shape for TINSERT). */
static bool move_offsets(Interp *ip, const Instr *in, int64_t inner_r, int64_t inner_c, int64_t outer_r, int64_t outer_c,
                         const char *inner, const char *outer, int64_t *r0, int64_t *c0) {
    *r0 = read_int(ip->frame, &in->sc[0]);
    *c0 = read_int(ip->frame, &in->sc[1]);
    if (*r0 < 0 || *c0 < 0) {
        rt_rule_error(ip, in, "index", "expects indexRow and indexCol to be non-negative, got (%lld, %lld)", (long long)*r0,
                      (long long)*c0);
        return false;
    }
    if (*r0 > 65535 || *c0 > 65535) { /* the ISA's uint16_t offsets (the simulator would wrap them) */
        rt_rule_error(ip, in, "index-range", "expects indexRow and indexCol to fit the ISA's uint16_t offset (at most 65535), "
                      "got (%lld, %lld)", (long long)*r0, (long long)*c0);
        return false;
    }
    if (*r0 > outer_r - inner_r) {
        rt_rule_error(ip, in, "bounds", "expects indexRow + %s.rows <= %s.rows, got %lld + %lld > %lld", inner, outer,
                      (long long)*r0, (long long)inner_r, (long long)outer_r);
        return false;
    }
    if (*c0 > outer_c - inner_c) {
        rt_rule_error(ip, in, "bounds", "expects indexCol + %s.cols <= %s.cols, got %lld + %lld > %lld", inner, outer,
                      (long long)*c0, (long long)inner_c, (long long)outer_c);
        return false;
    }
    return true;
}

static int32_t exec_textract(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    TileView *d = use_tile(ip, in, td), *s = d ? use_tile(ip, in, ts) : NULL;
    if (!s) return PC_ERROR;
    int64_t r0, c0;
    if (!move_offsets(ip, in, td->rows, td->cols, ts->rows, ts->cols, "dst", "src", &r0, &c0)) return PC_ERROR;
    const MovePlan *p = in->extra;
    if (p->boxed) {
        move_boxed(p, views_overlap(td, d, ts, s), d->base, 0, 0, s->base, r0, c0, d->vr, d->vc);
        return pc + 1;
    }
    move_run(in->extra, views_overlap(td, d, ts, s), d->base, td->rs, td->cs, elem_ptr(ts, s, r0, c0), ts->rs, ts->cs, d->vr,
             d->vc);
    return pc + 1;
}

static int32_t exec_tinsert(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    TileView *d = use_tile(ip, in, td), *s = d ? use_tile(ip, in, ts) : NULL;
    if (!s) return PC_ERROR;
    int64_t r0, c0;
    if (!move_offsets(ip, in, s->vr, s->vc, td->rows, td->cols, "src", "dst", &r0, &c0)) return PC_ERROR;
    const MovePlan *p = in->extra;
    if (p->boxed) {
        move_boxed(p, views_overlap(td, d, ts, s), d->base, r0, c0, s->base, 0, 0, s->vr, s->vc);
        return pc + 1;
    }
    move_run(in->extra, views_overlap(td, d, ts, s), elem_ptr(td, d, r0, c0), td->rs, td->cs, s->base, ts->rs, ts->cs, s->vr,
             s->vc);
    return pc + 1;
}

/* ---- what a window move touches (--check-sync, --check-init) ---------------------------------- */

/* A window move's accesses: an extract reads src's window at (r0, c0) the size of dst's valid
 * region (bounded by src's physical shape, so past src's valid region is allowed) and writes dst's
 * valid region; an insert reads src's valid region and writes dst's window at (r0, c0); the fp
 * form also reads the words of the source columns from row 0 of fp. -1 when an operand is not
 * defined or the offsets are out of range (the instruction reports that when it runs). */
static int window_move_accesses(const Interp *ip, const Instr *in, bool insert, bool indexed, const Value *fp,
                                TileWindowAccess *acc) {
    const Op *op = in->op;
    const Value *src = op->ins.items[0].value, *dst = op->outs.count ? op->outs.items[0].value : NULL;
    const TileView *s = defined_view(ip, src), *d = defined_view(ip, dst), *f = fp ? defined_view(ip, fp) : NULL;
    if (!s || !d || (fp && !f)) return -1;
    int64_t r0 = indexed ? read_int(ip->frame, &in->sc[0]) : 0, c0 = indexed ? read_int(ip->frame, &in->sc[1]) : 0;
    int rows = insert ? s->vr : d->vr, cols = insert ? s->vc : d->vc;
    const TileRef *outer = insert ? &in->t[0] : &in->t[1];
    if (r0 < 0 || c0 < 0 || r0 + rows > outer->rows || c0 + cols > outer->cols) return -1;
    int n = 0;
    acc[n++] = (TileWindowAccess){src, insert ? 0 : (int32_t)r0, insert ? 0 : (int32_t)c0, rows, cols, false, NULL, NULL, 0, NULL};
    if (fp) acc[n++] = (TileWindowAccess){fp, 0, insert ? 0 : (int32_t)c0, 1, cols, false, NULL, NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){dst, insert ? (int32_t)r0 : 0, insert ? (int32_t)c0 : 0, rows, cols, true, NULL, NULL, 0, NULL};
    return n;
}

static int textract_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    return window_move_accesses(ip, in, false, true, NULL, acc);
}
static int tinsert_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    return window_move_accesses(ip, in, true, true, NULL, acc);
}

static bool lower_acc_convert_move(LowerCtx *ctx, const Op *op, Instr *in);

static bool lower_offset_move(LowerCtx *ctx, const Op *op, ExecFn exec) {
    Instr in = instr_for(op, exec);
    in.footprint = exec == exec_textract ? textract_footprint : tinsert_footprint;
    bool emitted = false;
    if (op->ins.count < 3) return lower_error(ctx, op, (SrcLoc){0}, "expects src, indexRow and indexCol");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !move_dst(ctx, op, &in.t[0])) return false;
    for (int i = 0; i < 2; i++)
        if (!move_tile(ctx, op, &in.t[i], true, &emitted)) return emitted;
    if (in.t[0].dtype != in.t[1].dtype && in.t[1].loc == LOC_ACC && exec == exec_tinsert)
        return lower_acc_convert_move(ctx, op, &in);
    if (in.t[0].dtype != in.t[1].dtype)
        return emit_unsupported(ctx, op, "converts %s to %s: pto-run moves only between tiles of one element type (and "
                                "converts tinsert's acc values)", dtype_name(in.t[1].dtype), dtype_name(in.t[0].dtype));
    for (int i = 0; i < 2; i++) {
        if (!scalar_ref(ctx, op, &op->ins.items[1 + i], DT_INDEX, &in.sc[i])) return false;
        if (dtype_is_float(in.sc[i].type))
            return lower_error(ctx, op, op->ins.items[1 + i].loc, "expects an integer (index) offset");
    }
    MovePlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    move_plan(p, &in.t[0], &in.t[1]);
    p->boxed = boxed(&in.t[0]) || boxed(&in.t[1]);
    if (p->boxed) {
        tile_offsets(ctx->ip->arena, &in.t[0], &p->doff);
        tile_offsets(ctx->ip->arena, &in.t[1], &p->soff);
    }
    in.extra = p;
    emit(ctx, &in);
    return true;
}

bool lower_textract(LowerCtx *ctx, const Op *op) { return lower_offset_move(ctx, op, exec_textract); }
bool lower_tinsert(LowerCtx *ctx, const Op *op) { return lower_offset_move(ctx, op, exec_tinsert); }

/* ---- TEXTRACT_FP / TINSERT_FP / TMOV_FP -------------------------------------------------------- */

/* What lowering decided for an fp move (Instr.extra): the conversion (acc_quant.c, vector form),
 * the offsets of dst (t[0]), src (t[1]) and fp (t[2]), and scratch rows. */
typedef struct FpMovePlan {
    AccConvert cv;
    bool insert;             /* TINSERT_FP: dst(r + r0, c + c0) = src(r, c); else dst(r, c) = src(r + r0, c + c0) */
    bool indexed;            /* indexRow / indexCol in sc[0], sc[1]; else (0, 0) */
    bool has_fp;             /* words from the fp tile t[2]; else a plain conversion (TINSERT acc -> mat) */
    DType fp_dtype;          /* u64/i64: the words' bits; a float type: each value converted (acc_fp_word) */
    TileOffsets doff, soff, foff;
    AccQuantWord *words;     /* fp's valid columns, decoded */
    uint8_t *row, *out;      /* one row of src values, and the same converted */
} FpMovePlan;

/* Each value is converted with the word of its source column, `scalars[c + indexCol]` (the
 * simulator's TExtract_Impl / TInsert_Impl); the column order of the simulator's loops does not
 * show, acc and mat being different memories. */
static int32_t exec_move_fp(Interp *ip, const Instr *in, int32_t pc) {
    const FpMovePlan *p = in->extra;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *tf = &in->t[2];
    TileView *d = use_tile(ip, in, td), *s = d ? use_tile(ip, in, ts) : NULL;
    TileView *fv = s && p->has_fp ? use_tile(ip, in, tf) : NULL;
    if (!s || (p->has_fp && !fv)) return PC_ERROR;
    int64_t r0 = 0, c0 = 0, rows = p->insert ? s->vr : d->vr, cols = p->insert ? s->vc : d->vc;
    if (p->indexed) {
        bool ok = p->insert ? move_offsets(ip, in, s->vr, s->vc, td->rows, td->cols, "src", "dst", &r0, &c0)
                            : move_offsets(ip, in, td->rows, td->cols, ts->rows, ts->cols, "dst", "src", &r0, &c0);
        if (!ok) return PC_ERROR;
    } else if (rows > s->vr || cols > s->vc) {
        return rt_error(ip, in, "expects dst's valid shape %lldx%lld within src's %dx%d", (long long)rows, (long long)cols,
                        s->vr, s->vc);
    }
    int64_t sr0 = p->insert ? 0 : r0, sc0 = p->insert ? 0 : c0, dr0 = p->insert ? r0 : 0, dc0 = p->insert ? c0 : 0;
    if (p->has_fp && sc0 + cols > fv->vc)
        return rt_rule_error(ip, in, "fp-cols", "expects fp %%%s to hold a word for each src column read (%lld), got %d valid "
                             "columns", tf->name, (long long)(sc0 + cols), fv->vc);
    for (int64_t i = 0; p->has_fp && i < cols; i++) {
        uint64_t w;
        if (!acc_fp_word(fv->base, p->foff.rows[0] + p->foff.cols[sc0 + i], p->fp_dtype, &w))
            return rt_rule_error(ip, in, "fp-word", "expects fp %%%s's %s value in column %lld to convert to a uint64 "
                                 "quantisation word (the simulator's cast is undefined outside (-1, 2^64))", tf->name,
                                 dtype_name(p->fp_dtype), (long long)(sc0 + i));
        acc_quant_word(&p->cv, w, &p->words[i]);
    }
    size_t des = dtype_size(td->dtype);
    for (int64_t r = 0; r < rows; r++) {
        copy_elems(p->row, NULL, s->base + (size_t)p->soff.rows[sr0 + r] * 4, p->soff.cols + sc0, cols, 4);
        acc_convert_run(&p->cv, p->words, 1, p->out, p->row, cols);
        copy_elems(d->base + (size_t)p->doff.rows[dr0 + r] * des, p->doff.cols + dc0, p->out, NULL, cols, des);
    }
    return pc + 1;
}

static int move_fp_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const FpMovePlan *p = in->extra;
    return window_move_accesses(ip, in, p->insert, p->indexed, p->has_fp ? in->op->ins.items[1].value : NULL, acc);
}

bool lower_move_fp(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_move_fp);
    in.footprint = move_fp_footprint;
    const OpInfo *info = op_info(op->code);
    FpMovePlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    p->has_fp = true;
    p->insert = info->flags & OPF_DST_READ;
    p->indexed = opspec_count(info->ins, OPSPEC_MAX) == 4;
    if (op->ins.count < (p->indexed ? 4 : 2)) return lower_error(ctx, op, (SrcLoc){0}, "expects src, fp%s", p->indexed ? ", indexRow and indexCol" : "");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &op->ins.items[1], &in.t[2]) ||
        !move_dst(ctx, op, &in.t[0]))
        return false;
    if (in.t[1].loc != LOC_ACC) return lower_error(ctx, op, (SrcLoc){0}, "expects an acc src");
    DType fdt = in.t[2].dtype;
    if (fdt != DT_U64 && fdt != DT_I64 && fdt != DT_F32 && fdt != DT_F16 && fdt != DT_BF16)
        return emit_unsupported(ctx, op, "reads its quantisation words from fp %%%s of %s: pto-run takes them from u64/i64 "
                                "tiles (bits) and f32/f16/bf16 tiles (values)", in.t[2].name, dtype_name(fdt));
    p->fp_dtype = fdt;
    bool relu = op_attr_value(op, "reluPreMode", AK_RELU_PRE_MODE, 0) == 1; /* tmov's fp form */
    if (!acc_convert_plan(&p->cv, in.t[1].dtype, in.t[0].dtype, AQF_VECTOR, relu))
        return emit_unsupported(ctx, op, "converts acc %s to %s: pto-run quantises f32 to i8/ui8 and i32 to i8/ui8/f16/i16, "
                                "and casts f32 to f32/f16/bf16/fp8 and i32 to i32/bf16", dtype_name(in.t[1].dtype),
                                dtype_name(in.t[0].dtype));
    for (int i = 0; p->indexed && i < 2; i++) {
        if (!scalar_ref(ctx, op, &op->ins.items[2 + i], DT_INDEX, &in.sc[i])) return false;
        if (dtype_is_float(in.sc[i].type))
            return lower_error(ctx, op, op->ins.items[2 + i].loc, "expects an integer (index) offset");
    }
    tile_offsets(ctx->ip->arena, &in.t[0], &p->doff);
    tile_offsets(ctx->ip->arena, &in.t[1], &p->soff);
    tile_offsets(ctx->ip->arena, &in.t[2], &p->foff);
    int64_t n = in.t[0].cols > in.t[1].cols ? in.t[0].cols : in.t[1].cols;
    p->words = arena_alloc_array(ctx->ip->arena, (size_t)n, sizeof *p->words);
    p->row = arena_alloc_array(ctx->ip->arena, (size_t)n, 4);
    p->out = arena_alloc_array(ctx->ip->arena, (size_t)n, 4);
    in.extra = p;
    emit(ctx, &in);
    return true;
}

/* TINSERT from an acc tile into a tile of another element type (A2/A3 acc f32 -> mat f16/bf16):
 * the simulator's TInsert_Impl without a quantisation mode, a C++ conversion of each value
 * (acc_quant.c AQ_CAST); `in` holds dst, src and the offsets already. */
static bool lower_acc_convert_move(LowerCtx *ctx, const Op *op, Instr *in) {
    FpMovePlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    p->insert = p->indexed = true;
    if (!acc_convert_plan(&p->cv, in->t[1].dtype, in->t[0].dtype, AQF_NONE, false))
        return emit_unsupported(ctx, op, "converts acc %s to %s: pto-run converts acc f32 to f32/f16/bf16 and i32 to "
                                "i32/bf16", dtype_name(in->t[1].dtype), dtype_name(in->t[0].dtype));
    for (int i = 0; i < 2; i++) {
        if (!scalar_ref(ctx, op, &op->ins.items[1 + i], DT_INDEX, &in->sc[i])) return false;
        if (dtype_is_float(in->sc[i].type))
            return lower_error(ctx, op, op->ins.items[1 + i].loc, "expects an integer (index) offset");
    }
    tile_offsets(ctx->ip->arena, &in->t[0], &p->doff);
    tile_offsets(ctx->ip->arena, &in->t[1], &p->soff);
    int64_t n = in->t[0].cols > in->t[1].cols ? in->t[0].cols : in->t[1].cols;
    p->row = arena_alloc_array(ctx->ip->arena, (size_t)n, 4);
    p->out = arena_alloc_array(ctx->ip->arena, (size_t)n, 4);
    in->exec = exec_move_fp;
    in->footprint = move_fp_footprint;
    in->extra = p;
    emit(ctx, in);
    return true;
}

/* ---- TCONCAT ----------------------------------------------------------------------------------- */

static int32_t exec_tconcat(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *td = &in->t[0], *t0 = &in->t[1], *t1 = &in->t[2];
    TileView *d = use_tile(ip, in, td), *s0 = d ? use_tile(ip, in, t0) : NULL, *s1 = s0 ? use_tile(ip, in, t1) : NULL;
    if (!s1) return PC_ERROR;
    if (s0->vr != d->vr || s1->vr != d->vr)
        return rt_rule_error(ip, in, "valid-rows", "expects %s valid row to match dst valid row, got %d and %d",
                             s0->vr != d->vr ? "src0" : "src1", s0->vr != d->vr ? s0->vr : s1->vr, d->vr);
    if ((int64_t)s0->vc + s1->vc > td->cols)
        return rt_rule_error(ip, in, "cols", "expects src0.valid_col + src1.valid_col <= dst.cols, got %d + %d > %d", s0->vc,
                             s1->vc, td->cols);
    const MovePlan *p = in->extra;
    bool overlap = views_overlap(td, d, t0, s0) || views_overlap(td, d, t1, s1);
    if (!overlap) { /* the order does not matter: src0's block, then src1's */
        move_run(p, false, d->base, td->rs, td->cs, s0->base, t0->rs, t0->cs, d->vr, s0->vc);
        move_run(&p[1], false, elem_ptr(td, d, 0, s0->vc), td->rs, td->cs, s1->base, t1->rs, t1->cs,
                 d->vr, s1->vc);
        return pc + 1;
    }
    for (int64_t r = 0; r < d->vr; r++) { /* the simulator's order, row by row */
        move_run(p, true, elem_ptr(td, d, r, 0), td->rs, td->cs, elem_ptr(t0, s0, r, 0), t0->rs, t0->cs, 1, s0->vc);
        move_run(&p[1], true, elem_ptr(td, d, r, s0->vc), td->rs, td->cs, elem_ptr(t1, s1, r, 0), t1->rs, t1->cs, 1, s1->vc);
    }
    return pc + 1;
}

bool lower_tconcat(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tconcat);
    bool emitted = false;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src0 and src1");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &op->ins.items[1], &in.t[2]) ||
        !move_dst(ctx, op, &in.t[0]))
        return false;
    for (int i = 0; i < 3; i++)
        if (!move_tile(ctx, op, &in.t[i], false, &emitted)) return emitted;
    if (!same_dtype(ctx, op, &in.t[1], &in.t[0], "src0") || !same_dtype(ctx, op, &in.t[2], &in.t[0], "src1")) return false;
    MovePlan *p = arena_alloc(ctx->ip->arena, 2 * sizeof *p); /* dst <- src0, dst <- src1 */
    move_plan(&p[0], &in.t[0], &in.t[1]);
    move_plan(&p[1], &in.t[0], &in.t[2]);
    in.extra = p;
    emit(ctx, &in);
    return true;
}

/* ---- TRESHAPE ---------------------------------------------------------------------------------- */

/* The result views src's bytes: same base (and auto storage owner), the result type's static
 * valid dims, a dynamic one taken from src's current valid region (PTOAS binds the parent's). */
static int32_t exec_treshape(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    TileView *s = use_tile(ip, in, ts);
    if (!s) return PC_ERROR;
    int64_t vr = td->static_vr >= 0 ? td->static_vr : s->vr, vc = td->static_vc >= 0 ? td->static_vc : s->vc;
    if (vr > td->rows || vc > td->cols)
        return rt_error(ip, in, "valid shape %lldx%lld of %%%s does not fit the result's %dx%d shape", (long long)vr,
                        (long long)vc, ts->name, td->rows, td->cols);
    TileView *v = &ip->frame->vals[td->slot].tile;
    TileView view = *s;
    view.vr = (int32_t)vr;
    view.vc = (int32_t)vc;
    view.flags = VIEW_DEFINED;
    *v = view;
    return pc + 1;
}

/* An SSA view of src's bytes typed as the result (TRESHAPE: the same total bytes; pto.bitcast: no
 * more than src's, the verifier having checked the rest): exec_treshape's view. */
static bool lower_tile_view(LowerCtx *ctx, const Op *op, bool same_bytes) {
    Instr in = instr_for(op, exec_treshape);
    if (op->ins.count < 1 || op->n_results < 1 || !op->results[0])
        return lower_error(ctx, op, (SrcLoc){0}, "expects `%%v = %s %%src : Ts -> Td`", op_info(op->code)->name);
    Operand res = {.kind = OPD_VALUE, .value = op->results[0], .loc = op->results[0]->loc};
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &res, &in.t[0])) return false;
    if (in.t[0].loc != in.t[1].loc || (same_bytes ? in.t[0].footprint != in.t[1].footprint : in.t[0].footprint > in.t[1].footprint))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src and result in one memory, the result's bytes %s src's",
                           same_bytes ? "equal to" : "within");
    in.defines_dst = true;
    emit(ctx, &in);
    return true;
}

bool lower_treshape(LowerCtx *ctx, const Op *op) { return lower_tile_view(ctx, op, true); }

/* pto.bitcast: the view with another element type, within src's bytes. */
bool lower_bitcast(LowerCtx *ctx, const Op *op) { return lower_tile_view(ctx, op, false); }

/* ---- SUBSET ------------------------------------------------------------------------------------ */

/* The result views the window of src at (rowOffset, colOffset) in place: a window that keeps src's
 * full rows (row-major: all columns; col-major: all rows) is contiguous in src's storage, rows
 * (columns) the same distance apart, so it is src's bytes from the window's first element on
 * (for a boxed tile, from its first whole inner box). Offsets are index values: checked here.
 * Instr.a: 1 when src is row-major (the window starts at element row0 * cols), 0 col-major. */
static int32_t exec_subset(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    TileView *s = use_tile(ip, in, ts);
    if (!s) return PC_ERROR;
    int64_t r0 = read_int(ip->frame, &in->sc[0]), c0 = read_int(ip->frame, &in->sc[1]);
    if (r0 < 0 || c0 < 0 || r0 > (int64_t)ts->rows - td->rows || c0 > (int64_t)ts->cols - td->cols)
        return rt_error(ip, in, "window at [%lld, %lld] of %dx%d lies outside %%%s's %dx%d shape", (long long)r0, (long long)c0,
                        td->rows, td->cols, ts->name, ts->rows, ts->cols);
    if ((in->a && r0 % ts->box_r != 0) || (!in->a && c0 % ts->box_c != 0))
        return rt_error(ip, in, "%s offset %lld is not a multiple of %%%s's inner box %s (%d)", in->a ? "row" : "col",
                        (long long)(in->a ? r0 : c0), ts->name, in->a ? "rows" : "cols", in->a ? ts->box_r : ts->box_c);
    int64_t first = in->a ? r0 * ts->cols : c0 * ts->rows; /* the other offset is 0: the window keeps that dim whole */
    TileView view = *s;
    view.base = s->base + first * (int64_t)dtype_size(ts->dtype);
    view.vr = (int32_t)(td->static_vr >= 0 ? td->static_vr : subset_valid_dim(td->rows, s->vr, r0));
    view.vc = (int32_t)(td->static_vc >= 0 ? td->static_vc : subset_valid_dim(td->cols, s->vc, c0));
    view.flags = VIEW_DEFINED;
    ip->frame->vals[td->slot].tile = view;
    return pc + 1;
}

/* pto.subset: the views that keep src's full rows run as exec_subset's alias; a column split
 * (row-major: fewer columns than src) is refused when it runs, since PTOAS's two readings of it
 * disagree on its row stride (docs/ptoas-compat.md). */
bool lower_subset(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_subset);
    if (op->ins.count < 3 || op->n_results < 1 || !op->results[0])
        return lower_error(ctx, op, (SrcLoc){0}, "expects `%%v = pto.subset %%src[%%row, %%col] sizes [R, C] : Ts`");
    Operand res = {.kind = OPD_VALUE, .value = op->results[0], .loc = op->results[0]->loc};
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &res, &in.t[0])) return false;
    for (int i = 0; i < 2; i++) {
        if (!scalar_ref(ctx, op, &op->ins.items[1 + i], DT_INDEX, &in.sc[i])) return false;
        if (dtype_is_float(in.sc[i].type)) return lower_error(ctx, op, op->ins.items[1 + i].loc, "expects an integer (index) offset");
    }
    const TileRef *td = &in.t[0], *ts = &in.t[1];
    in.a = ts->blayout == BL_ROW_MAJOR;
    bool full = in.a ? td->cols == ts->cols : td->rows == ts->rows;
    if (!full)
        return emit_unsupported(ctx, op, "takes a %dx%d window of the %s %dx%d tile %%%s that splits its %s: PTOAS's IR gives "
                                "such a view %%%s's %s stride (%d elements), the C++ PTOAS emits gives it its own (%d), and the two "
                                "readings disagree, so pto-run runs only windows that keep the parent's full %s "
                                "(docs/ptoas-compat.md)", td->rows, td->cols, in.a ? "row-major" : "col-major", ts->rows, ts->cols,
                                ts->name, in.a ? "rows" : "columns", ts->name, in.a ? "row" : "column", in.a ? ts->cols : ts->rows,
                                in.a ? td->cols : td->rows, in.a ? "rows" : "columns");
    in.defines_dst = true;
    emit(ctx, &in);
    return true;
}

/* ---- TPACK ------------------------------------------------------------------------------------- */

/* pto.tpack: refused when it runs; pto-isa defines TPACK in no CPU simulator file (nor NPU code), so
 * there are no semantics to execute bit-exact. */
bool lower_tpack(LowerCtx *ctx, const Op *op) {
    return emit_unsupported(ctx, op, "pto-isa implements TPACK nowhere: no CPU simulator semantics, so pto-run cannot run it "
                            "(pto-as verifies it as PTOAS does)");
}

/* ---- TTRANS ------------------------------------------------------------------------------------ */

/* The transposition's plan (Instr.extra): both tiles' offset tables (any layout, boxed included)
 * and the kernel for the element size. */
typedef void (*TransRect)(uint8_t *d, const TileOffsets *dt, const uint8_t *s, const TileOffsets *st, int64_t vr,
                          int64_t vc);
typedef struct TransPlan {
    TileOffsets doff, soff;
    TransRect disjoint;
    size_t es;
} TransPlan;

/* dst(c, r) = src(r, c) for r < vr, c < vc between tiles that share no byte (any order). */
#define TRANS_KERNEL(N)                                                                                          \
    static void trans_##N(uint8_t *d, const TileOffsets *dt, const uint8_t *s, const TileOffsets *st, int64_t vr, \
                          int64_t vc) {                                                                          \
        const int64_t *drow = dt->rows, *dcol = dt->cols, *scol = st->cols;                                      \
        for (int64_t r = 0; r < vr; r++) {                                                                       \
            const uint8_t *sp = s + (size_t)st->rows[r] * N;                                                     \
            uint8_t *dp = d + (size_t)dcol[r] * N;                                                               \
            for (int64_t c = 0; c < vc; c++) memcpy(dp + (size_t)drow[c] * N, sp + (size_t)scol[c] * N, N);      \
        }                                                                                                        \
    }
TRANS_KERNEL(1)
TRANS_KERNEL(2)
TRANS_KERNEL(4)

/* TTRANS as the simulator's TTrans_Impl: over src's valid region, column by column, dst(c, r) =
 * src(r, c); nothing else of dst and nothing of tmp is written. A dst that shares bytes with src is
 * written element by element in that order. An SSA result gets src's valid shape mirrored. */
static int32_t exec_ttrans(Interp *ip, const Instr *in, int32_t pc) {
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    TileView *s, *d;
    if (!use_src_and_dst(ip, in, ts, td, true, &s, &d)) return PC_ERROR;
    if (s->vc > td->rows || s->vr > td->cols)
        return rt_rule_error(ip, in, "shape",
                             "expects dst (%dx%d) to hold src's valid region %dx%d transposed (%dx%d)", td->rows, td->cols,
                             s->vr, s->vc, s->vc, s->vr);
    const TransPlan *p = in->extra;
    if (!views_overlap(td, d, ts, s)) {
        p->disjoint(d->base, &p->doff, s->base, &p->soff, s->vr, s->vc);
        return pc + 1;
    }
    for (int64_t c = 0; c < s->vc; c++)
        for (int64_t r = 0; r < s->vr; r++)
            memmove(d->base + (size_t)(p->doff.rows[c] + p->doff.cols[r]) * p->es,
                    s->base + (size_t)(p->soff.rows[r] + p->soff.cols[c]) * p->es, p->es);
    return pc + 1;
}

bool lower_ttrans(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_ttrans);
    bool defines;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src and tmp");
    if (!tile_ref(ctx, op, &op->ins.items[0], &in.t[1]) || !tile_ref(ctx, op, &op->ins.items[1], &in.t[2]) ||
        !lower_dst(ctx, op, &in.t[0], &defines))
        return false;
    if (dtype_size(in.t[1].dtype) != dtype_size(in.t[0].dtype))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src and dst elements of one size");
    TransPlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    p->es = dtype_size(in.t[0].dtype);
    switch (p->es) {
    case 1: p->disjoint = trans_1; break;
    case 2: p->disjoint = trans_2; break;
    case 4: p->disjoint = trans_4; break;
    default: return emit_unsupported(ctx, op, "transposes 1-, 2- and 4-byte elements only, got %s", dtype_name(in.t[0].dtype));
    }
    tile_offsets(ctx->ip->arena, &in.t[0], &p->doff);
    tile_offsets(ctx->ip->arena, &in.t[1], &p->soff);
    in.extra = p;
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}
