/* ops_cube.c - the cube family (ir/ops_cube.def): tmatmul, tgemv and their .acc / .bias forms, as
 * the simulator's TMatmul.hpp computes them. Each product element is one fused multiply-add chain
 * over k in order, from +0 (f32 accumulators: fmaf on the operands widened to float, which is
 * exact for f16/bf16; i32 accumulators: i8 x i8 products added with wrap-around); the .acc form
 * then adds acc_in(i, j) once more, the .bias form adds bias(0, c) over dst's valid region.
 *
 * Execution gathers lhs (M x K) and rhs (K x N) out of their boxed layouts into dense row-major
 * staging, then runs i, k, j: row i's N accumulators advance one k at a time, which keeps every
 * element's chain in k order and leaves the j loop free to vectorise (the f32 kernel takes a few
 * rows i per pass over k, kernels_matmul.c). The A5 MX rows (pto-isa TMatmulMX: fp8 operands and
 * scale tiles) are at the end: one element at a time, in the simulator's order. */
#include "interp_impl.h"

#include <math.h>
#include <string.h>

/* What lowering decided for one matmul instruction (Instr.extra): staging sized for the tiles'
 * full shapes (the valid ones can only be smaller). */
typedef struct MatmulPlan {
    int form;        /* MM_* */
    bool integer;    /* i8 x i8 -> i32 */
    float *a, *b;    /* float staging: lhs M x K, rhs K x N, row-major */
    float *rows;     /* the M x N products (row-major) */
    MatmulRowsF chain_f; /* the f32 chain kernel for the interpreter's kernel variant */
    int32_t *ia, *ib, *irow;
    TileOffsets off[4];  /* per operand, tabulated once: t[0..3] = dst, lhs, rhs, acc_in/bias */
} MatmulPlan;


/* Gathers the rows x cols top-left block of a float-like tile (f32, f16, bf16) into dense
 * row-major floats, through the tabulated offsets. */
static void gather_f(const TileRef *t, const TileView *v, const int64_t *ro, const int64_t *co, int64_t rows, int64_t cols,
                     float *out) {
    for (int64_t r = 0; r < rows; r++) {
        float *o = out + r * cols;
        if (t->dtype == DT_F32) {
            const float *p = (const float *)v->base + ro[r];
            for (int64_t c = 0; c < cols; c++) o[c] = p[co[c]];
        } else {
            const uint16_t *p = (const uint16_t *)v->base + ro[r];
            if (t->dtype == DT_F16)
                for (int64_t c = 0; c < cols; c++) o[c] = fp_f16_to_f32(p[co[c]]);
            else
                for (int64_t c = 0; c < cols; c++) o[c] = fp_bf16_to_f32(p[co[c]]);
        }
    }
}

/* gather_f through the column runs of the offset tables (Zz, Nz, ND: rows of boxes are contiguous):
 * each run converted as one contiguous stretch. */
static void gather_f_runs(const TileRef *t, const TileView *v, const TileOffsets *off, int64_t rows, int64_t cols,
                          float *out) {
    for (int64_t r = 0; r < rows; r++) {
        float *o = out + r * cols;
        for (int64_t c = 0; c < cols;) {
            int64_t n = off->col_run[c] < cols - c ? off->col_run[c] : cols - c;
            int64_t at = off->rows[r] + off->cols[c];
            if (t->dtype == DT_F32) {
                memcpy(o + c, (const float *)v->base + at, (size_t)n * sizeof(float));
            } else {
                const uint16_t *p = (const uint16_t *)v->base + at;
                if (t->dtype == DT_F16)
                    for (int64_t j = 0; j < n; j++) o[c + j] = fp_f16_to_f32(p[j]);
                else
                    for (int64_t j = 0; j < n; j++) o[c + j] = fp_bf16_to_f32(p[j]);
            }
            c += n;
        }
    }
}

/* gather_f for a 16-bit tile whose 16-element runs go down its columns (Zn: the right operand) and
 * whose gathered rows x cols are whole 16x16 boxes: a box transposed at a time into row-major
 * order, then widened a row of 16 at a time; false (nothing done) for any other tile. */
static bool gather_f16_boxes(KernelIsa isa, const TileRef *t, const TileView *v, const TileOffsets *off, int64_t rows,
                             int64_t cols, float *out) {
    if (t->dtype == DT_F32 || rows % 16 != 0 || cols % 16 != 0) return false;
    for (int64_t r = 0; r < rows; r += 16)
        if (off->row_run[r] < 16) return false;
    const uint8_t *src[16];
    for (int64_t r0 = 0; r0 < rows; r0 += 16)
        for (int64_t c0 = 0; c0 < cols; c0 += 16) {
            for (int j = 0; j < 16; j++) src[j] = v->base + (size_t)(off->rows[r0] + off->cols[c0 + j]) * 2;
            transpose16_widen(isa, t->dtype, src, out + r0 * cols + c0, cols);
        }
    return true;
}

/* The same for an i8 tile, as int32. */
static void gather_i(const TileView *v, const int64_t *ro, const int64_t *co, int64_t rows, int64_t cols, int32_t *out) {
    for (int64_t r = 0; r < rows; r++) {
        const int8_t *p = (const int8_t *)v->base + ro[r];
        for (int64_t c = 0; c < cols; c++) out[r * cols + c] = p[co[c]];
    }
}


static void chain_row_i(const int32_t *a_row, const int32_t *b, int64_t K, int64_t N, int32_t *row) {
    for (int64_t j = 0; j < N; j++) row[j] = 0;
    for (int64_t k = 0; k < K; k++) {
        const uint32_t x = (uint32_t)a_row[k];
        const int32_t *bk = b + k * N;
        for (int64_t j = 0; j < N; j++) row[j] = (int32_t)((uint32_t)row[j] + x * (uint32_t)bk[j]);
    }
}

/* What a matmul touches: lhs's valid region (M x K), rhs's K x N (K is lhs's valid columns),
 * acc_in's M x N, and dst's M x N written; the bias form then reads bias(0, c) and adds it over
 * dst's whole valid region, reading the part of it the product did not write. */
static int matmul_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const MatmulPlan *p = in->extra;
    const Op *op = in->op;
    int first = p->form == MM_ACC ? 1 : 0;
    const Value *lhs = op->ins.items[first].value, *rhs = op->ins.items[first + 1].value, *dst = op->outs.items[0].value;
    const Value *x = p->form == MM_ACC ? op->ins.items[0].value : p->form == MM_BIAS ? op->ins.items[2].value : NULL;
    const TileView *a = &ip->frame->vals[lhs->id].tile, *b = &ip->frame->vals[rhs->id].tile, *d = &ip->frame->vals[dst->id].tile;
    if (!(a->flags & b->flags & d->flags & VIEW_DEFINED) || (x && !(ip->frame->vals[x->id].tile.flags & VIEW_DEFINED)))
        return -1;
    int32_t M = a->vr, K = a->vc, N = b->vc;
    if (M > in->t[0].rows || N > in->t[0].cols || K > in->t[2].rows) return -1; /* refused when it runs */
    int n = 0;
    acc[n++] = (TileWindowAccess){lhs, 0, 0, M, K, false, NULL, NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){rhs, 0, 0, K, N, false, "K (lhs's valid columns)", NULL, 0, NULL};
    if (p->form == MM_ACC) acc[n++] = (TileWindowAccess){x, 0, 0, M, N, false, "M x N (lhs's valid rows by rhs's valid columns)", NULL, 0, NULL};
    if (p->form == MM_BIAS) {
        acc[n++] = (TileWindowAccess){x, 0, 0, 1, d->vc, false, "dst's valid columns", NULL, 0, NULL};
        if (d->vr > M) acc[n++] = (TileWindowAccess){dst, M, 0, d->vr - M, d->vc, false, NULL, NULL, 0, NULL};
        if (d->vc > N) acc[n++] = (TileWindowAccess){dst, 0, N, M < d->vr ? M : d->vr, d->vc - N, false, NULL, NULL, 0, NULL};
        acc[n++] = (TileWindowAccess){dst, 0, 0, d->vr, d->vc, true, NULL, NULL, 0, NULL};
    }
    acc[n++] = (TileWindowAccess){dst, 0, 0, M, N, true, NULL, NULL, 0, NULL};
    return n;
}

static int32_t exec_matmul(Interp *ip, const Instr *in, int32_t pc) {
    const MatmulPlan *p = in->extra;
    const TileRef *dt = &in->t[0], *at = &in->t[1], *bt = &in->t[2], *xt = &in->t[3];
    TileView *dv = use_tile(ip, in, dt), *av = use_tile(ip, in, at), *bv = use_tile(ip, in, bt);
    TileView *xv = p->form == MM_PLAIN ? NULL : use_tile(ip, in, xt);
    if (!dv || !av || !bv || (p->form != MM_PLAIN && !xv)) return PC_ERROR;
    int64_t M = av->vr, K = av->vc, N = bv->vc;
    if (M > dt->rows || N > dt->cols || K > bt->rows)
        return rt_error(ip, in, "an %lldx%lld by %lldx%lld product does not fit: rhs has %d rows, dst is %dx%d",
                        (long long)M, (long long)K, (long long)K, (long long)N, bt->rows, dt->rows, dt->cols);
    if (p->integer) {
        gather_i(av, p->off[1].rows, p->off[1].cols, M, K, p->ia);
        gather_i(bv, p->off[2].rows, p->off[2].cols, K, N, p->ib);
    } else {
        if (p->off[1].col_run[0] >= 8) gather_f_runs(at, av, &p->off[1], M, K, p->a);
        else gather_f(at, av, p->off[1].rows, p->off[1].cols, M, K, p->a);
        if (!gather_f16_boxes(ip->isa, bt, bv, &p->off[2], K, N, p->b))
            gather_f(bt, bv, p->off[2].rows, p->off[2].cols, K, N, p->b);
    }
    if (!p->integer) p->chain_f(p->a, M, p->b, K, N, p->rows);
    /* .acc reads acc_in(i, j) before writing dst(i, j): they may be one tile */
    for (int64_t i = 0; i < M; i++) {
        const float *row = p->integer ? NULL : p->rows + i * N; /* no offset on NULL (UB) */
        if (p->integer) chain_row_i(p->ia + i * K, p->ib, K, N, p->irow);
        /* dst and acc_in are 4-byte (f32 or i32) tiles */
        uint32_t *d = (uint32_t *)dv->base + p->off[0].rows[i];
        const int64_t *dc = p->off[0].cols;
        if (p->form == MM_ACC) {
            const uint32_t *x = (const uint32_t *)xv->base + p->off[3].rows[i];
            const int64_t *xc = p->off[3].cols;
            if (p->integer) {
                for (int64_t j = 0; j < N; j++) d[dc[j]] = x[xc[j]] + (uint32_t)p->irow[j];
            } else {
                for (int64_t j = 0; j < N; j++) {
                    float c, r;
                    memcpy(&c, &x[xc[j]], 4);
                    /* where both are NaN, the product's: the simulator's `acc + mul_acc` built by g++ keeps
                     * it (tests/sim tmatmul_acc_f32_16x32x16_special); pinned, as the compiler may swap a + */
                    r = row[j] != row[j] ? row[j] + row[j] : c + row[j];
                    memcpy(&d[dc[j]], &r, 4);
                }
            }
        } else if (p->integer) {
            for (int64_t j = 0; j < N; j++) d[dc[j]] = (uint32_t)p->irow[j];
        } else {
            for (int64_t j = 0; j < N; j++) memcpy(&d[dc[j]], &row[j], 4);
        }
    }
    if (p->form == MM_BIAS) { /* bias(0, c) over dst's whole valid region, after the product */
        const uint32_t *bias = (const uint32_t *)xv->base + p->off[3].rows[0];
        for (int64_t r = 0; r < dv->vr; r++) {
            uint32_t *d = (uint32_t *)dv->base + p->off[0].rows[r];
            const int64_t *dc = p->off[0].cols, *bc = p->off[3].cols;
            if (p->integer) {
                for (int64_t c = 0; c < dv->vc; c++) d[dc[c]] += bias[bc[c]];
            } else {
                for (int64_t c = 0; c < dv->vc; c++) {
                    float x, y;
                    memcpy(&x, &d[dc[c]], 4);
                    memcpy(&y, &bias[bc[c]], 4);
                    x = y != y ? y + y : x + y; /* the bias's NaN first, as the simulator's `dst += bias` by g++ */
                    memcpy(&d[dc[c]], &x, 4);
                }
            }
        }
    }
    return pc + 1;
}

bool lower_matmul(LowerCtx *ctx, const Op *op) {
    int form = matmul_form(op->code);
    int first = form == MM_ACC ? 1 : 0;
    if (op->ins.count < first + 2 + (form == MM_BIAS) || op->outs.count < 1)
        return lower_error(ctx, op, (SrcLoc){0}, "expects %s operands", form == MM_PLAIN ? "lhs, rhs" : "three tile");
    Instr in = instr_for(op, exec_matmul);
    in.footprint = matmul_footprint;
    if (!tile_ref(ctx, op, &op->outs.items[0], &in.t[0]) || !tile_ref(ctx, op, &op->ins.items[first], &in.t[1]) ||
        !tile_ref(ctx, op, &op->ins.items[first + 1], &in.t[2]))
        return false;
    if (form != MM_PLAIN && !tile_ref(ctx, op, &op->ins.items[form == MM_ACC ? 0 : 2], &in.t[3])) return false;
    const TileRef *d = &in.t[0], *a = &in.t[1], *b = &in.t[2];
    bool integer = d->dtype == DT_I32;
    bool ok = integer ? a->dtype == DT_I8 && b->dtype == DT_I8
                      : d->dtype == DT_F32 && a->dtype == b->dtype &&
                            (a->dtype == DT_F32 || a->dtype == DT_F16 || a->dtype == DT_BF16);
    if (!ok || (form != MM_PLAIN && in.t[3].dtype != d->dtype))
        return emit_unsupported(ctx, op, "has no kernel for (dst, lhs, rhs) = (%s, %s, %s)", dtype_name(d->dtype),
                                dtype_name(a->dtype), dtype_name(b->dtype));
    MatmulPlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    p->form = form;
    p->integer = integer;
    p->chain_f = matmul_rows_kernel(ctx->ip->isa);
    size_t na = (size_t)a->rows * (size_t)a->cols, nb = (size_t)b->rows * (size_t)b->cols, nr = (size_t)b->cols;
    if (integer) {
        p->ia = arena_alloc_array(ctx->ip->arena, na, sizeof *p->ia);
        p->ib = arena_alloc_array(ctx->ip->arena, nb, sizeof *p->ib);
        p->irow = arena_alloc_array(ctx->ip->arena, nr, sizeof *p->irow);
    } else {
        p->a = arena_alloc_array(ctx->ip->arena, na, sizeof *p->a);
        p->b = arena_alloc_array(ctx->ip->arena, nb, sizeof *p->b);
        p->rows = arena_alloc_array(ctx->ip->arena, (size_t)a->rows * nr, sizeof *p->rows);
    }
    for (int i = 0; i < (form == MM_PLAIN ? 3 : 4); i++) tile_offsets(ctx->ip->arena, &in.t[i], &p->off[i]);
    in.extra = p;
    emit(ctx, &in);
    return true;
}

/* ---- MX matmul (ops_cube.def MX_MATMUL_OP): pto-isa TMatmulMX ------------------------------- */

/* An 8-bit float's value as pto-isa's MXType<EXP, MAN, BIAS>::operator double decodes it (the
 * format is dtype_f8_format's letter): exponent field 0 is a subnormal (a zero for e8m0, whose
 * field 0 is 2^-127 since it has no mantissa), every other field a normal number, the all-ones
 * field included (no NaN or infinity: e4m3 0x7F is 480, e5m2 0x7C is 65536, e8m0 0xFF 2^128), and
 * the negative zero pattern +0. */
static double f8_decode(uint8_t bits, char format) {
    int man = format == 'e' ? 3 : format == 'm' ? 2 : 0, exp = format == 'e' ? 4 : format == 'm' ? 5 : 8;
    int bias = format == 'e' ? 7 : format == 'm' ? 15 : 127;
    uint64_t mantissa = bits & ((1u << man) - 1), exponent = (bits >> man) & ((1u << exp) - 1);
    uint64_t sign = exp + man < 8 ? (bits >> (man + exp)) & 1u : 0, out;
    if (exponent > 0 || man == 0) {
        out = sign << 63 | (exponent + 1023 - (uint64_t)bias) << 52 | mantissa << (52 - man);
    } else if (mantissa == 0) {
        return 0.0;
    } else { /* subnormal: the leading one of the mantissa becomes the implicit bit */
        int i = man - 1;
        while (i >= 0 && !((mantissa >> i) & 1u)) i--;
        out = sign << 63 | (uint64_t)(1023 - bias + 1 + (i - man)) << 52 | (mantissa & ((1u << i) - 1)) << (52 - i);
    }
    double v;
    memcpy(&v, &out, sizeof v);
    return v;
}

/* The 256 values of each decoding, built once per instruction at lowering. */
typedef struct MxPlan {
    int form;             /* MM_* */
    DType scale_dt;       /* both scale tiles' element type */
    TileRef scale[2];     /* lhs_scale, rhs_scale (t[0..3]: dst, lhs, rhs, acc_in / bias) */
    double lut[3][256];   /* lhs, rhs, e8m0 scale decodings */
    TileOffsets off[6];   /* dst, lhs, rhs, acc_in / bias, lhs_scale, rhs_scale */
} MxPlan;

/* The scale element types pto-run multiplies as the simulator's `scale0(i, k / 32) * scale1(k /
 * 32, j)` does for the C++ type PTOAS emits: f8E8M0FNU (float8_e8m0_t: each decoded to double, the
 * product in double), f16 and bf16 (the product rounded to the type, as each _Float16 / __bf16
 * operation rounds; the float product of two such values is exact, so rounding it once is the
 * type's own product), i8 and ui8 (an int product). */
static bool mx_scale_dtype(DType dt) {
    return dt == DT_F8E8M0FNU || dt == DT_F16 || dt == DT_BF16 || dt == DT_I8 || dt == DT_U8;
}

/* One scale element at (r, c) as raw bits. */
static inline uint32_t scale_at(const TileView *v, const TileOffsets *o, DType dt, int64_t r, int64_t c) {
    int64_t at = o->rows[r] + o->cols[c];
    if (dt == DT_F16 || dt == DT_BF16) {
        uint16_t h;
        memcpy(&h, v->base + at * 2, 2);
        return h;
    }
    return v->base[at];
}

/* The product of two scales (raw bits) as the simulator's double scaleFactor. */
static inline double scale_product(const MxPlan *p, uint32_t x, uint32_t y) {
    switch (p->scale_dt) {
    case DT_F16: return fp_f16_to_f32(fp_f32_to_f16(fp_f16_to_f32((uint16_t)x) * fp_f16_to_f32((uint16_t)y)));
    case DT_BF16: return fp_bf16_to_f32(fp_f32_to_bf16(fp_bf16_to_f32((uint16_t)x) * fp_bf16_to_f32((uint16_t)y)));
    case DT_I8: return (double)((int)(int8_t)x * (int)(int8_t)y);
    case DT_U8: return (double)((int)x * (int)y);
    default: return p->lut[2][x] * p->lut[2][y];
    }
}

/* MX reads: lhs M x K, rhs K x N, lhs_scale M x ceil(K / 32), rhs_scale ceil(K / 32) x N, then as
 * matmul_footprint (acc_in M x N; bias(0, c) and dst's whole valid region for the bias form). */
static int matmul_mx_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const MxPlan *p = in->extra;
    const Op *op = in->op;
    int first = p->form == MM_ACC ? 1 : 0;
    const Value *lhs = op->ins.items[first].value, *ls = op->ins.items[first + 1].value, *rhs = op->ins.items[first + 2].value,
                *rs = op->ins.items[first + 3].value, *dst = op->outs.items[0].value;
    const Value *x = p->form == MM_ACC ? op->ins.items[0].value : p->form == MM_BIAS ? op->ins.items[4].value : NULL;
    const TileView *a = defined_view(ip, lhs), *b = defined_view(ip, rhs), *d = defined_view(ip, dst);
    if (!a || !b || !d || !defined_view(ip, ls) || !defined_view(ip, rs) || (x && !defined_view(ip, x))) return -1;
    int32_t M = a->vr, K = a->vc, N = b->vc, KS = (K + 31) / 32;
    if (M > in->t[0].rows || N > in->t[0].cols || K > in->t[2].rows || M > p->scale[0].rows || KS > p->scale[0].cols ||
        KS > p->scale[1].rows || N > p->scale[1].cols)
        return -1; /* refused when it runs */
    int n = 0;
    acc[n++] = (TileWindowAccess){lhs, 0, 0, M, K, false, NULL, NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){rhs, 0, 0, K, N, false, "K (lhs's valid columns)", NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){ls, 0, 0, M, KS, false, "M x ceil(K / 32) (lhs's valid shape)", NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){rs, 0, 0, KS, N, false, "ceil(K / 32) x N (K: lhs's valid columns)", NULL, 0, NULL};
    if (p->form == MM_ACC) acc[n++] = (TileWindowAccess){x, 0, 0, M, N, false, "M x N (lhs's valid rows by rhs's valid columns)", NULL, 0, NULL};
    if (p->form == MM_BIAS) { /* dst's whole valid region is written: it covers the M x N product */
        acc[n++] = (TileWindowAccess){x, 0, 0, 1, d->vc, false, "dst's valid columns", NULL, 0, NULL};
        if (d->vr > M) acc[n++] = (TileWindowAccess){dst, M, 0, d->vr - M, d->vc, false, NULL, NULL, 0, NULL};
        if (d->vc > N) acc[n++] = (TileWindowAccess){dst, 0, N, M < d->vr ? M : d->vr, d->vc - N, false, NULL, NULL, 0, NULL};
        if (d->vr >= M && d->vc >= N) {
            acc[n++] = (TileWindowAccess){dst, 0, 0, d->vr, d->vc, true, NULL, NULL, 0, NULL};
            return n;
        }
        acc[n++] = (TileWindowAccess){dst, 0, 0, d->vr, d->vc, true, NULL, NULL, 0, NULL};
        if (n >= MAX_WINDOW_ACCESSES) return -1;
    }
    acc[n++] = (TileWindowAccess){dst, 0, 0, M, N, true, NULL, NULL, 0, NULL};
    return n;
}

/* a + b with the simulator's NaN: when both are NaN, x86 returns the first operand's (quieted), and
 * which operand is first is the compiler's choice for a commutative `+`, so it is pinned here to
 * the C++ order (`mul_acc += term`, `acc + mul_acc`): -O1 and -O2 builds then give the same bits
 * (a NaN scale product beside a NaN chain showed both signs). */
static inline double mx_add_nan_first(double a, double b) { return a != a ? a + a : a + b; }

/* One byte of an f8 tile at (r, c) through its offsets. */
static inline uint8_t f8_at(const TileView *v, const TileOffsets *o, int64_t r, int64_t c) {
    return v->base[o->rows[r] + o->cols[c]];
}

static int32_t exec_matmul_mx(Interp *ip, const Instr *in, int32_t pc) {
    const MxPlan *p = in->extra;
    const TileRef *dt = &in->t[0], *at = &in->t[1], *bt = &in->t[2], *xt = &in->t[3];
    TileView *dv = use_tile(ip, in, dt), *av = dv ? use_tile(ip, in, at) : NULL, *bv = av ? use_tile(ip, in, bt) : NULL;
    TileView *sa = bv ? use_tile(ip, in, &p->scale[0]) : NULL, *sb = sa ? use_tile(ip, in, &p->scale[1]) : NULL;
    TileView *xv = p->form == MM_PLAIN || !sb ? NULL : use_tile(ip, in, xt);
    if (!sb || (p->form != MM_PLAIN && !xv)) return PC_ERROR;
    int64_t M = av->vr, K = av->vc, N = bv->vc, KS = (K + 31) / 32;
    if (M > dt->rows || N > dt->cols || K > bt->rows)
        return rt_error(ip, in, "an %lldx%lld by %lldx%lld product does not fit: rhs has %d rows, dst is %dx%d",
                        (long long)M, (long long)K, (long long)K, (long long)N, bt->rows, dt->rows, dt->cols);
    if (M > p->scale[0].rows || KS > p->scale[0].cols || KS > p->scale[1].rows || N > p->scale[1].cols)
        return rt_error(ip, in, "the scales of an %lldx%lld by %lldx%lld product (%lldx%lld and %lldx%lld) do not fit "
                        "lhs_scale %dx%d and rhs_scale %dx%d", (long long)M, (long long)K, (long long)K, (long long)N,
                        (long long)M, (long long)KS, (long long)KS, (long long)N, p->scale[0].rows, p->scale[0].cols,
                        p->scale[1].rows, p->scale[1].cols);
    /* the simulator's loop: a float chain from 0, each term (a * b) * (sa * sb) in double, the sum
     * rounded to float after each k; .acc adds acc_in(i, j) in float */
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            float chain = 0.0f;
            for (int64_t kb = 0; kb < KS; kb++) { /* one scale product per 32 k, the same value each k takes */
                const double scale = scale_product(p, scale_at(sa, &p->off[4], p->scale_dt, i, kb),
                                                   scale_at(sb, &p->off[5], p->scale_dt, kb, j));
                const int64_t k_end = (kb + 1) * 32 < K ? (kb + 1) * 32 : K;
                for (int64_t k = kb * 32; k < k_end; k++) {
                    const double sum = chain, term = p->lut[0][f8_at(av, &p->off[1], i, k)] * p->lut[1][f8_at(bv, &p->off[2], k, j)] * scale;
                    chain = (float)mx_add_nan_first(sum, term);
                }
            }
            float *d = (float *)dv->base + p->off[0].rows[i] + p->off[0].cols[j];
            if (p->form == MM_ACC) {
                float c;
                memcpy(&c, (const float *)xv->base + p->off[3].rows[i] + p->off[3].cols[j], 4);
                chain = (float)mx_add_nan_first(c, chain);
            }
            memcpy(d, &chain, 4);
        }
    if (p->form == MM_BIAS) /* bias(0, c) over dst's whole valid region, after the product */
        for (int64_t r = 0; r < dv->vr; r++)
            for (int64_t c = 0; c < dv->vc; c++) {
                float x, y;
                float *d = (float *)dv->base + p->off[0].rows[r] + p->off[0].cols[c];
                memcpy(&x, d, 4);
                memcpy(&y, (const float *)xv->base + p->off[3].rows[0] + p->off[3].cols[c], 4);
                x = x + y;
                memcpy(d, &x, 4);
            }
    return pc + 1;
}

bool lower_matmul_mx(LowerCtx *ctx, const Op *op) {
    int form = matmul_form(op->code), first = form == MM_ACC ? 1 : 0;
    if (op->ins.count < first + 4 + (form == MM_BIAS) || op->outs.count < 1)
        return lower_error(ctx, op, (SrcLoc){0}, "expects lhs, lhs_scale, rhs, rhs_scale%s", form == MM_PLAIN ? "" : " and one more tile");
    Instr in = instr_for(op, exec_matmul_mx);
    in.footprint = matmul_mx_footprint;
    MxPlan *p = arena_alloc(ctx->ip->arena, sizeof *p);
    p->form = form;
    if (!tile_ref(ctx, op, &op->outs.items[0], &in.t[0]) || !tile_ref(ctx, op, &op->ins.items[first], &in.t[1]) ||
        !tile_ref(ctx, op, &op->ins.items[first + 1], &p->scale[0]) || !tile_ref(ctx, op, &op->ins.items[first + 2], &in.t[2]) ||
        !tile_ref(ctx, op, &op->ins.items[first + 3], &p->scale[1]))
        return false;
    if (form != MM_PLAIN && !tile_ref(ctx, op, &op->ins.items[form == MM_ACC ? 0 : 4], &in.t[3])) return false;
    const TileRef *d = &in.t[0], *a = &in.t[1], *b = &in.t[2];
    char fa = dtype_f8_format(a->dtype), fb = dtype_f8_format(b->dtype);
    if (fa == 0 || fa == 's' || fb == 0 || fb == 's' || d->dtype != DT_F32 || (form != MM_PLAIN && in.t[3].dtype != DT_F32))
        return emit_unsupported(ctx, op, "has no kernel for (dst, lhs, rhs) = (%s, %s, %s)", dtype_name(d->dtype),
                                dtype_name(a->dtype), dtype_name(b->dtype));
    p->scale_dt = p->scale[0].dtype;
    if (!mx_scale_dtype(p->scale_dt) || p->scale[1].dtype != p->scale_dt)
        return emit_unsupported(ctx, op, "has no kernel for (lhs_scale, rhs_scale) = (%s, %s): pto-run executes two scale "
                                "tiles of one type, f8E8M0FNU, f16, bf16, i8 or ui8", dtype_name(p->scale[0].dtype),
                                dtype_name(p->scale[1].dtype));
    for (int v = 0; v < 256; v++) {
        p->lut[0][v] = f8_decode((uint8_t)v, fa);
        p->lut[1][v] = f8_decode((uint8_t)v, fb);
        p->lut[2][v] = f8_decode((uint8_t)v, 's');
    }
    for (int i = 0; i < 4; i++)
        if (i < 3 || form != MM_PLAIN) tile_offsets(ctx->ip->arena, &in.t[i], &p->off[i]);
    tile_offsets(ctx->ip->arena, &p->scale[0], &p->off[4]);
    tile_offsets(ctx->ip->arena, &p->scale[1], &p->off[5]);
    in.extra = p;
    emit(ctx, &in);
    return true;
}

/* pto-isa's TGET_SCALE_ADDR rebinds dst's data pointer: the CPU simulator to src's own bytes, the
 * NPU to the MX scale buffer behind src's L0A / L0B address. pto-run keeps each buffer apart and
 * models neither, so the op verifies but does not run. */
bool lower_tget_scale_addr(LowerCtx *ctx, const Op *op) {
    return emit_unsupported(ctx, op, "is not executed: pto-isa rebinds dst to the MX scale storage behind src (the CPU "
                            "simulator to src's own bytes), and pto-run keeps the scaling buffer apart from L0A / L0B");
}
