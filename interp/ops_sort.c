/* ops_sort.c - lowering and kernel of the sort rows (ir/ops_sort.def): TSORT32, as pto-isa's CPU
 * simulator computes it (TSort32.hpp).
 *
 * For every valid row of src and every block of 32 columns from column j, the n = min(32, valid
 * cols - j) values with their u32 indices are sorted by std::stable_sort with the comparison "value
 * greater, or equal values and index smaller", and written from dst column 2*j on as 8-byte
 * records: f32 [value, index]; f16 [value, 0, index]. An f16 block's 32 records span 128 halves
 * while the next block starts 64 halves on, so it overwrites the second half of the one before
 * (the simulator's layout; the NPU's stride is 128 halves). A tail block sorts its n values only.
 *
 * The comparison is no strict weak order when a NaN is among the values (NaN compares neither
 * greater nor equal), so the order then depends on the sorting algorithm's sequence of comparisons:
 * sort_block replays libstdc++'s stable_sort step for step (a merge sort on halves with a buffer of
 * half the length, insertion sort on chunks of 7), which gives the simulator's order for every input. */
#include "interp_impl.h"
#include "kernels.h"

#include <string.h>

enum { SORT_BLOCK = 32, SORT_CHUNK = 7 };

/* A value to sort: its comparison key (f16 widened exactly), its bits as stored, its index. */
typedef struct SortRec {
    float key;
    uint32_t bits;
    uint32_t index;
} SortRec;

/* The simulator's comparison: a before b. */
static inline bool rec_before(const SortRec *a, const SortRec *b) {
    if (a->key != b->key) return a->key > b->key;
    return a->index < b->index;
}

/* Insertion sort of [f, l) as libstdc++'s __insertion_sort (a new first element moves to the
 * front; otherwise an unguarded linear insert). */
static void insertion_sort(SortRec *f, SortRec *l) {
    if (f == l) return;
    for (SortRec *i = f + 1; i < l; i++) {
        SortRec v = *i;
        if (rec_before(&v, f)) {
            memmove(f + 1, f, (size_t)(i - f) * sizeof *f);
            *f = v;
        } else {
            SortRec *last = i, *next = i - 1;
            while (rec_before(&v, next)) *last = *next, last = next--;
            *last = v;
        }
    }
}

/* Merges [f1, l1) and [f2, l2) into out, taking from the second only when it is strictly before
 * (libstdc++'s __move_merge); returns the end of the output. */
static SortRec *move_merge(const SortRec *f1, const SortRec *l1, const SortRec *f2, const SortRec *l2, SortRec *out) {
    while (f1 != l1 && f2 != l2) *out++ = rec_before(f2, f1) ? *f2++ : *f1++;
    while (f1 != l1) *out++ = *f1++;
    while (f2 != l2) *out++ = *f2++;
    return out;
}

/* One pass of merges of adjacent runs of `step` from [f, l) into out (__merge_sort_loop). */
static void merge_sort_loop(const SortRec *f, const SortRec *l, SortRec *out, ptrdiff_t step) {
    while (l - f >= 2 * step) {
        out = move_merge(f, f + step, f + step, f + 2 * step, out);
        f += 2 * step;
    }
    ptrdiff_t mid = l - f < step ? l - f : step;
    move_merge(f, f + mid, f + mid, l, out);
}

/* __merge_sort_with_buffer: insertion-sorted chunks of 7, then merge passes through buf and back. */
static void merge_sort_with_buffer(SortRec *f, SortRec *l, SortRec *buf) {
    ptrdiff_t len = l - f, step = SORT_CHUNK;
    SortRec *c = f;
    for (; l - c >= step; c += step) insertion_sort(c, c + step);
    insertion_sort(c, l);
    while (step < len) {
        merge_sort_loop(f, l, buf, step);
        step *= 2;
        merge_sort_loop(buf, buf + len, f, step);
        step *= 2;
    }
}

/* std::stable_sort of a[0..n) (n <= 32) with a buffer of (n + 1) / 2 records: both halves sorted,
 * then __merge_adaptive, forward when the halves are equal, else backward from the shorter second. */
static void sort_block(SortRec *a, ptrdiff_t n) {
    if (n == 0) return;
    SortRec buf[SORT_BLOCK / 2 + 1];
    ptrdiff_t len1 = (n + 1) / 2, len2 = n - len1;
    SortRec *mid = a + len1, *last = a + n;
    merge_sort_with_buffer(a, mid, buf);
    merge_sort_with_buffer(mid, last, buf);
    if (len1 <= len2) { /* __move_merge_adaptive: the first half from the buffer, forward */
        memcpy(buf, a, (size_t)len1 * sizeof *a);
        const SortRec *f1 = buf, *l1 = buf + len1, *f2 = mid;
        SortRec *out = a;
        while (f1 != l1 && f2 != last) *out++ = rec_before(f2, f1) ? *f2++ : *f1++;
        while (f1 != l1) *out++ = *f1++;
        return;
    }
    if (len2 == 0) return;
    /* __move_merge_adaptive_backward: the second half from the buffer, from the ends */
    memcpy(buf, mid, (size_t)len2 * sizeof *a);
    SortRec *l1 = mid - 1, *l2 = buf + len2 - 1, *out = last;
    for (;;) {
        if (rec_before(l2, l1)) {
            *--out = *l1;
            if (l1 == a) { /* the rest of the buffer goes before it */
                ptrdiff_t rest = l2 - buf + 1;
                memcpy(out - rest, buf, (size_t)rest * sizeof *buf);
                return;
            }
            l1--;
        } else {
            *--out = *l2;
            if (l2 == buf) return;
            l2--;
        }
    }
}

/* The dst bytes of a row that the simulator writes for `vc` sorted columns of es-byte values: each
 * block's records from byte 2*j*es; the last block's end. */
static int64_t sort32_written_bytes(int64_t vc, int64_t es) {
    if (vc <= 0) return 0;
    int64_t last_j = (vc - 1) / SORT_BLOCK * SORT_BLOCK;
    return 2 * last_j * es + (vc - last_j) * 8;
}

/* Instr.t: [0] dst, [1] src, [2] idx, [3] tmp (or slot -1). */
static bool sort32_views(Interp *ip, const Instr *in, TileView **d, TileView **s, TileView **x) {
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    *s = use_tile(ip, in, ts);
    *x = *s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!*x) return false;
    if (in->defines_dst && !define_tile(ip, in, td, (*s)->vr, td->cols)) return false;
    *d = use_tile(ip, in, td);
    return *d != NULL;
}

static int32_t exec_tsort32(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d, *s, *x;
    if (!sort32_views(ip, in, &d, &s, &x)) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1], *tx = &in->t[2];
    if (x->vr != s->vr || x->vc != s->vc) /* the simulator returns without sorting; the NPU broadcasts a 1-row idx */
        return rt_rule_error(ip, in, "valid-shape", "expects idx's valid shape %dx%d to equal src's %dx%d", x->vr, x->vc,
                             s->vr, s->vc);
    if (d->vr != s->vr) /* the simulator sorts src's valid rows, the NPU dst's */
        return rt_rule_error(ip, in, "valid-shape", "expects dst's valid rows (%d) to equal src's (%d)", d->vr, s->vr);
    const int64_t es = (int64_t)dtype_size(ts->dtype), need = sort32_written_bytes(s->vc, es);
    if (need > (int64_t)td->cols * es)
        return rt_rule_error(ip, in, "dst-size", "writes %lld bytes of each dst row for %d sorted columns, past its %d columns",
                             (long long)need, s->vc, td->cols);
    const bool half = es == 2;
    SortRec recs[SORT_BLOCK];
    for (int64_t r = 0; r < s->vr; r++) {
        const uint8_t *srow = s->base + (size_t)(r * ts->cols * es);
        const uint32_t *xrow = (const uint32_t *)(x->base + (size_t)(r * tx->cols) * 4);
        uint8_t *drow = d->base + (size_t)(r * td->cols * es);
        for (int64_t j = 0; j < s->vc; j += SORT_BLOCK) {
            int64_t n = s->vc - j < SORT_BLOCK ? s->vc - j : SORT_BLOCK;
            for (int64_t k = 0; k < n; k++) {
                uint32_t bits;
                if (half) {
                    uint16_t h;
                    memcpy(&h, srow + (j + k) * 2, 2);
                    bits = h, recs[k].key = fp_f16_to_f32(h);
                } else {
                    memcpy(&bits, srow + (j + k) * 4, 4);
                    recs[k].key = fp_bits_float(bits);
                }
                recs[k].bits = bits;
                memcpy(&recs[k].index, xrow + j + k, 4);
            }
            sort_block(recs, (ptrdiff_t)n);
            uint8_t *out = drow + 2 * j * es;
            for (int64_t k = 0; k < n; k++, out += 8) {
                uint32_t lo = half ? recs[k].bits & 0xffffu : recs[k].bits; /* f16: value, then a zero half */
                memcpy(out, &lo, 4);
                memcpy(out + 4, &recs[k].index, 4);
            }
        }
    }
    return pc + 1;
}

/* What TSORT32 touches: src's and idx's valid regions, the dst bytes it writes on each valid row,
 * and tmp whole (the NPU's scratch; the simulator leaves it). */
static int tsort32_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const Value *src = op->ins.items[0].value, *idx = op->ins.items[1].value, *dst = op->outs.items[0].value;
    const Value *tmp = op->ins.count > 2 ? op->ins.items[2].value : NULL;
    const TileView *s = defined_view(ip, src), *x = defined_view(ip, idx), *d = defined_view(ip, dst);
    if (!s || !x || x->vr != s->vr || x->vc != s->vc || (d && d->vr != s->vr)) return -1;
    const int64_t es = (int64_t)dtype_size(in->t[1].dtype), bytes = sort32_written_bytes(s->vc, es);
    if (bytes > (int64_t)in->t[0].cols * es) return -1;
    int n = 0;
    acc[n++] = (TileWindowAccess){src, 0, 0, s->vr, s->vc, false, NULL, NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){idx, 0, 0, x->vr, x->vc, false, NULL, NULL, 0, NULL};
    if (d) /* the SSA form defines dst when it runs: before that, only the reads */
        acc[n++] = (TileWindowAccess){dst, 0, 0, s->vr, (int32_t)(bytes / es), true, NULL, NULL, 0, NULL};
    if (tmp && in->t[3].slot >= 0) acc[n++] = (TileWindowAccess){tmp, 0, 0, in->t[3].rows, in->t[3].cols, true, NULL, NULL, 0, NULL};
    return n;
}

bool lower_tsort32(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tsort32);
    in.footprint = tsort32_footprint;
    bool defines, emitted = false;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src and idx");
    in.t[3].slot = -1;
    if (!lower_tile_in(ctx, op, 0, &in.t[1], &emitted) || !lower_tile_in(ctx, op, 1, &in.t[2], &emitted) ||
        (op->ins.count > 2 && !lower_tile_in(ctx, op, 2, &in.t[3], &emitted)))
        return emitted;
    if (!lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (boxed(&in.t[0])) return unsupported_boxed(ctx, op, &in.t[0]);
    for (int i = 0; i < 3; i++)
        if (in.t[i].blayout != BL_ROW_MAJOR)
            return emit_unsupported(ctx, op, "sorts row-major tiles only (the simulator's static_assert)");
    if (in.t[1].dtype != in.t[0].dtype || (in.t[1].dtype != DT_F32 && in.t[1].dtype != DT_F16))
        return lower_error(ctx, op, (SrcLoc){0}, "expects src and dst of one element type, f16 or f32");
    if (in.t[2].dtype != DT_U32) return lower_error(ctx, op, (SrcLoc){0}, "expects a u32 idx");
    in.defines_dst = defines;
    emit(ctx, &in);
    return true;
}

/* ---- THISTOGRAM ---------------------------------------------------------------------------- */

/* After the simulator's ui16 THISTOGRAM_IMPL (THistogram.hpp): for every valid row of src, count
 * the high byte of each valid element (isMSB, Instr.a = 1), or the low byte of those whose high
 * byte equals idx(row, 0) (Instr.a = 0), into 256 bins; dst(row, b) = the count of bins 0..b.
 * Instr.t: [0] dst, [1] src, [2] idx. */
static int32_t exec_thistogram(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]), *s = d ? use_tile(ip, in, &in->t[1]) : NULL;
    TileView *x = s ? use_tile(ip, in, &in->t[2]) : NULL;
    if (!x) return PC_ERROR;
    const TileRef *td = &in->t[0], *ts = &in->t[1];
    if (d->vc < 256) /* the simulator's PTO_CPU_ASSERT */
        return rt_rule_error(ip, in, "bins", "expects dst valid_shape[1] to be at least 256, got %d", d->vc);
    if (s->vr > td->rows || s->vr > x->vr)
        return rt_rule_error(ip, in, "rows", "expects idx and dst valid rows to match src (%d), got %d and %d", s->vr,
                             x->vr, d->vr);
    const bool msb = in->a != 0;
    for (int64_t r = 0; r < s->vr; r++) {
        uint32_t counts[256] = {0};
        const uint16_t *row = (const uint16_t *)(s->base + (size_t)(r * ts->cols) * 2);
        if (msb) {
            for (int64_t c = 0; c < s->vc; c++) counts[row[c] >> 8]++;
        } else {
            const uint8_t want = x->base[r]; /* idx is an Rx1 column: element (r, 0) at r */
            for (int64_t c = 0; c < s->vc; c++)
                if ((row[c] >> 8) == want) counts[row[c] & 0xffu]++;
        }
        uint32_t *out = (uint32_t *)(d->base + (size_t)(r * td->cols) * 4), sum = 0;
        for (int b = 0; b < 256; b++) out[b] = sum += counts[b];
    }
    return pc + 1;
}

/* What THISTOGRAM touches: src's valid region, idx's element (r, 0) of each valid row, and dst's
 * first 256 columns of those rows. */
static int thistogram_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const Op *op = in->op;
    const Value *src = op->ins.items[0].value, *idx = op->ins.items[1].value, *dst = op->outs.items[0].value;
    const TileView *s = defined_view(ip, src), *x = defined_view(ip, idx), *d = defined_view(ip, dst);
    if (!s || !x || !d || s->vr > in->t[0].rows || s->vr > x->vr) return -1;
    int n = 0;
    acc[n++] = (TileWindowAccess){src, 0, 0, s->vr, s->vc, false, NULL, NULL, 0, NULL};
    if (in->a == 0) acc[n++] = (TileWindowAccess){idx, 0, 0, s->vr, 1, false, NULL, NULL, 0, NULL};
    acc[n++] = (TileWindowAccess){dst, 0, 0, s->vr, 256, true, NULL, NULL, 0, NULL};
    return n;
}

bool lower_thistogram(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_thistogram);
    in.footprint = thistogram_footprint;
    bool emitted = false, defines;
    if (op->ins.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects src and idx");
    if (!lower_tile_in(ctx, op, 0, &in.t[1], &emitted) || !lower_tile_in(ctx, op, 1, &in.t[2], &emitted))
        return emitted;
    if (!lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (defines) return lower_error(ctx, op, (SrcLoc){0}, "writes only 256 columns of its destination: use the DPS form (outs)");
    if (in.t[1].dtype != DT_U16 || in.t[2].dtype != DT_U8 || in.t[0].dtype != DT_U32)
        return lower_error(ctx, op, (SrcLoc){0}, "expects a ui16 src, a ui8 idx and a ui32 dst");
    if (in.t[1].blayout != BL_ROW_MAJOR || in.t[0].blayout != BL_ROW_MAJOR || in.t[2].blayout != BL_COL_MAJOR ||
        in.t[2].cols != 1 || in.t[0].cols < 256)
        return lower_error(ctx, op, (SrcLoc){0}, "expects row-major src and dst (256 columns at least) and a col-major Rx1 idx");
    in.a = op_attr_value(op, "isMSB", AK_BOOL, 1) != 0;
    emit(ctx, &in);
    return true;
}

/* ---- TRANDOM ------------------------------------------------------------------------------- */

enum { RANDOM_REPEATS = 4, RANDOM_LANES = 64 }; /* 4 words per cipher call; 256 bytes of 4-byte lanes */

/* The counter (4 words, little-endian) plus v, carried across words. */
static void random_counter_add(uint32_t c[4], uint32_t v) {
    uint64_t carry = v;
    for (int i = 0; i < 4 && carry; i++) {
        carry += c[i];
        c[i] = (uint32_t)carry;
        carry >>= 32;
    }
}

/* `rounds` rounds of the simulator's Philox-4x32 cipher on counter c with key k; out = the words. */
static void random_rounds(const uint32_t c_in[4], const uint32_t k_in[2], int rounds, uint32_t out[4]) {
    uint32_t c0 = c_in[0], c1 = c_in[1], c2 = c_in[2], c3 = c_in[3], k0 = k_in[0], k1 = k_in[1];
    for (int i = 0; i < rounds; i++) {
        uint64_t m0 = (uint64_t)c0 * 0xD2511F53u, m1 = (uint64_t)c2 * 0xCD9E8D57u;
        uint32_t n0 = (uint32_t)(m1 >> 32) ^ c1 ^ k0, n1 = (uint32_t)m1, n2 = (uint32_t)(m0 >> 32) ^ c3 ^ k1, n3 = (uint32_t)m0;
        c0 = n0, c1 = n1, c2 = n2, c3 = n3;
        k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* After the simulator's TRANDOM_IMPL (TRandom.hpp): per valid row, in groups of 256 columns, lane l
 * of a group runs the cipher on the row counter + l and writes its 4 words to columns l, 64 + l,
 * 128 + l, 192 + l of the group (those inside the valid columns); after each group the row counter
 * advances by dst's row stride / 4. The counter carries across rows. Instr.a: rounds; Instr.extra:
 * the six word operands. */
static int32_t exec_trandom(Interp *ip, const Instr *in, int32_t pc) {
    TileView *d = use_tile(ip, in, &in->t[0]);
    if (!d) return PC_ERROR;
    const TileRef *td = &in->t[0];
    const ScalarRef *w = in->extra;
    uint32_t key[2], row_counter[4];
    for (int i = 0; i < 2; i++) key[i] = (uint32_t)read_scalar(ip->frame, &w[i]).i;
    for (int i = 0; i < 4; i++) row_counter[i] = (uint32_t)read_scalar(ip->frame, &w[2 + i]).i;
    const int64_t group = RANDOM_REPEATS * RANDOM_LANES, groups = (d->vc + group - 1) / group;
    const uint32_t advance = (uint32_t)(td->cols / RANDOM_REPEATS);
    for (int64_t r = 0; r < d->vr; r++) {
        uint32_t *row = (uint32_t *)(d->base + (size_t)(r * td->cols) * 4);
        for (int64_t g = 0; g < groups; g++) {
            for (uint32_t lane = 0; lane < RANDOM_LANES; lane++) {
                uint32_t c[4] = {row_counter[0], row_counter[1], row_counter[2], row_counter[3]}, out[4];
                random_counter_add(c, lane);
                random_rounds(c, key, in->a, out);
                for (int rep = 0; rep < RANDOM_REPEATS; rep++) {
                    int64_t col = g * group + rep * RANDOM_LANES + lane;
                    if (col < d->vc) row[col] = out[rep];
                }
            }
            random_counter_add(row_counter, advance);
        }
    }
    return pc + 1;
}

bool lower_trandom(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_trandom);
    bool emitted = false, defines;
    if (op->ins.count < 6) return lower_error(ctx, op, (SrcLoc){0}, "expects key0, key1 and counter0..counter3");
    if (!lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (defines) return lower_error(ctx, op, (SrcLoc){0}, "writes only dst's valid region: use the DPS form (outs)");
    if (boxed(&in.t[0])) return unsupported_boxed(ctx, op, &in.t[0]);
    (void)emitted;
    if ((in.t[0].dtype != DT_I32 && in.t[0].dtype != DT_U32) || in.t[0].blayout != BL_ROW_MAJOR)
        return lower_error(ctx, op, (SrcLoc){0}, "expects a row-major i32 or ui32 dst");
    ScalarRef *w = arena_alloc(ctx->ip->arena, 6 * sizeof *w);
    for (int i = 0; i < 6; i++)
        if (!scalar_ref(ctx, op, &op->ins.items[i], DT_I32, &w[i])) return false;
    in.a = (int32_t)op_attr_value(op, "rounds", AK_INT, 10);
    if (in.a != 7 && in.a != 10) return lower_error(ctx, op, (SrcLoc){0}, "expects rounds to be 7 or 10");
    in.extra = w;
    emit(ctx, &in);
    return true;
}

/* ---- TMRGSORT ------------------------------------------------------------------------------ */

/* After the simulator's TMrgSort.hpp. Records are 8 bytes: 2 f32 or 4 f16 elements, the first the
 * key. Multi-list form: while fewer than dst's valid records are out, take the head with the
 * greatest key among the lists not yet used up, the lowest-numbered list on ties and whenever the
 * comparison is false (a NaN head stays where it is: `v > NaN` and `NaN > v` are false); stop
 * when every list is used up, or, exhausted, right after the first list runs out. executed
 * receives the records taken from each list (u16 each, 0 for absent lists). Single-list form: for
 * each whole group of 4 * blockLen elements within dst's valid columns, the same merge of its four
 * blocks of blockLen elements; a partial group is left as it was. */

/* The lowering's facts of a multi-list TMRGSORT (Instr.extra); Instr.t[0] is dst. */
typedef struct MrgSortInfo {
    int lists;              /* 1: the single-list form (blockLen in Instr.sc[0]), else 2..4 */
    TileRef src[4];
    TileRef tmp;
    int32_t executed_slot;  /* frame slot of the vector<4xi16>, or -1 */
    bool exhausted;
} MrgSortInfo;

/* The key of record `i` of a list at p: its first element, widened exactly. */
static inline float mrg_key(const uint8_t *p, int64_t i, bool half) {
    if (half) {
        uint16_t h;
        memcpy(&h, p + i * 8, 2);
        return fp_f16_to_f32(h);
    }
    float f;
    memcpy(&f, p + i * 8, 4);
    return f;
}

/* The k-way merge of the simulator: lists[k] holds n[k] records; writes at most `cap` records to out
 * (NULL: counts only); taken[k] = records taken from list k; returns the records written. */
static int64_t mrg_merge(const uint8_t *const *lists, const int64_t *n, int k, bool half, bool exhausted, int64_t cap,
                         uint8_t *out, int64_t *taken) {
    for (int l = 0; l < 4; l++) taken[l] = 0;
    int64_t written = 0;
    while (written < cap) {
        int pick = -1;
        float best = 0;
        for (int l = 0; l < k; l++) {
            if (taken[l] >= n[l]) continue;
            float v = mrg_key(lists[l], taken[l], half);
            if (pick < 0 || v > best) pick = l, best = v;
        }
        if (pick < 0) break;
        if (out) memcpy(out + written * 8, lists[pick] + taken[pick] * 8, 8);
        written++;
        taken[pick]++;
        if (exhausted) {
            bool any_done = false;
            for (int l = 0; l < k; l++) any_done = any_done || taken[l] == n[l];
            if (any_done) break;
        }
    }
    return written;
}

/* The records of a tile's valid columns (whole records only, as the simulator divides). */
static inline int64_t mrg_records(int32_t vc, bool half) { return vc / (half ? 4 : 2); }

/* The single-list form's block length, checked as the NPU asserts it (the simulator writes nothing
 * for a length that is not whole records); 0 after reporting. */
static int64_t mrg_block_len(Interp *ip, const Instr *in, int32_t src_vc) {
    int64_t bl = read_int(ip->frame, &in->sc[0]);
    if (bl <= 0 || bl % 64 != 0) {
        rt_rule_error(ip, in, "block-len", "expects blockLen to be a positive multiple of 64, got %lld", (long long)bl);
        return 0;
    }
    if (bl > src_vc || src_vc % (4 * bl) != 0 || src_vc / (4 * bl) > 255) { /* bl <= src_vc: 4 * bl cannot overflow */
        rt_rule_error(ip, in, "block-groups", "expects src's valid columns (%d) to be 1 to 255 groups of 4 * blockLen (%lld)",
                      src_vc, (long long)(4 * bl));
        return 0;
    }
    return bl;
}

static int32_t exec_tmrgsort(Interp *ip, const Instr *in, int32_t pc) {
    const MrgSortInfo *mi = in->extra;
    const TileRef *td = &in->t[0];
    const bool half = td->dtype == DT_F16;
    TileView *s[4] = {NULL, NULL, NULL, NULL};
    const int nsrc = mi->lists == 1 ? 1 : mi->lists;
    for (int l = 0; l < nsrc; l++)
        if (!(s[l] = use_tile(ip, in, &mi->src[l]))) return PC_ERROR;
    if (mi->lists > 1 && !use_tile(ip, in, &mi->tmp)) return PC_ERROR;
    if (in->defines_dst) {
        int64_t vc = 0;
        for (int l = 0; l < nsrc; l++) vc += s[l]->vc;
        if (vc > td->cols) vc = td->cols;
        if (!define_tile(ip, in, td, 1, vc)) return PC_ERROR;
    }
    TileView *d = use_tile(ip, in, td);
    if (!d) return PC_ERROR;
    if (mi->lists == 1) {
        if (s[0]->vc != d->vc)
            return rt_rule_error(ip, in, "valid-shape", "expects src's and dst's valid columns to be equal, got %d and %d",
                                 s[0]->vc, d->vc);
        int64_t bl = mrg_block_len(ip, in, s[0]->vc);
        if (!bl) return PC_ERROR;
        const int64_t es = half ? 2 : 4, per = bl / (half ? 4 : 2), group = 4 * bl;
        for (int64_t c = 0; c + group <= d->vc; c += group) {
            const uint8_t *blocks[4];
            int64_t n[4] = {per, per, per, per}, taken[4];
            for (int b = 0; b < 4; b++) blocks[b] = s[0]->base + (c + b * bl) * es;
            /* in place, the simulator reads what it has just written: so does this */
            mrg_merge(blocks, n, 4, half, false, 4 * per, d->base + c * es, taken);
        }
        return pc + 1;
    }
    const uint8_t *lists[4];
    int64_t n[4] = {0, 0, 0, 0}, taken[4];
    for (int l = 0; l < mi->lists; l++) lists[l] = s[l]->base, n[l] = mrg_records(s[l]->vc, half);
    /* straight into dst, as the simulator writes (the NPU stages the records in tmp) */
    mrg_merge(lists, n, mi->lists, half, mi->exhausted, mrg_records(d->vc, half), d->base, taken);
    if (mi->executed_slot >= 0) {
        uint64_t packed = 0;
        for (int l = 0; l < 4; l++) packed |= (uint64_t)(uint16_t)taken[l] << (16 * l);
        ip->frame->vals[mi->executed_slot].i = (int64_t)packed;
    }
    return pc + 1;
}

/* What TMRGSORT touches: each source's valid region read (the NPU streams the lists), the records
 * it writes at the front of dst (and of tmp, the NPU's staging buffer), as the merge replayed now
 * finds them: a partial dst when a list runs out with exhausted or the lists hold fewer records
 * than dst's valid columns. */
static int tmrgsort_footprint(const Interp *ip, const Instr *in, TileWindowAccess *acc) {
    const MrgSortInfo *mi = in->extra;
    const Op *op = in->op;
    const bool half = in->t[0].dtype == DT_F16;
    const int nsrc = mi->lists;
    const TileView *s[4] = {NULL, NULL, NULL, NULL};
    for (int l = 0; l < nsrc; l++)
        if (!(s[l] = defined_view(ip, op->ins.items[l].value))) return -1;
    const Value *dst = op->outs.count ? op->outs.items[0].value : NULL;
    const TileView *d = defined_view(ip, dst);
    int n = 0;
    for (int l = 0; l < nsrc; l++)
        acc[n++] = (TileWindowAccess){op->ins.items[l].value, 0, 0, s[l]->vr, s[l]->vc, false, NULL, NULL, 0, NULL};
    if (!d) return n; /* the SSA form defines dst when it runs: before that, only the reads */
    int64_t cols;
    if (mi->lists == 1) {
        int64_t bl = read_int(ip->frame, &in->sc[0]);
        if (bl <= 0 || bl % 64 != 0 || bl > d->vc || s[0]->vc != d->vc) return -1;
        cols = d->vc / (4 * bl) * (4 * bl);
    } else {
        const uint8_t *lists[4];
        int64_t cnt[4] = {0, 0, 0, 0}, taken[4];
        for (int l = 0; l < nsrc; l++) lists[l] = s[l]->base, cnt[l] = mrg_records(s[l]->vc, half);
        cols = mrg_merge(lists, cnt, nsrc, half, mi->exhausted, mrg_records(d->vc, half), NULL, taken) * (half ? 4 : 2);
        const Value *tmp = op->ins.items[nsrc].value;
        if (cols > 0) acc[n++] = (TileWindowAccess){tmp, 0, 0, 1, (int32_t)cols, true, NULL, NULL, 0, NULL};
    }
    if (cols > 0) acc[n++] = (TileWindowAccess){dst, 0, 0, 1, (int32_t)cols, true, NULL, NULL, 0, NULL};
    return n;
}

bool lower_tmrgsort(LowerCtx *ctx, const Op *op) {
    Instr in = instr_for(op, exec_tmrgsort);
    in.footprint = tmrgsort_footprint;
    MrgSortInfo *mi = arena_alloc_array(ctx->ip->arena, 1, sizeof *mi);
    mi->lists = op->code == OP_TMRGSORT ? 1 : op->code == OP_TMRGSORT2 ? 2 : op->code == OP_TMRGSORT3 ? 3 : 4;
    mi->executed_slot = -1;
    const int nsrc = mi->lists;
    bool defines, emitted = false;
    if (op->ins.count != nsrc + 1) return lower_error(ctx, op, (SrcLoc){0}, "expects %d operands in ins", nsrc + 1);
    for (int l = 0; l < nsrc; l++)
        if (!lower_tile_in(ctx, op, l, &mi->src[l], &emitted)) return emitted;
    if (mi->lists == 1) {
        if (!scalar_ref(ctx, op, &op->ins.items[1], DT_I32, &in.sc[0])) return false;
    } else {
        if (!lower_tile_in(ctx, op, nsrc, &mi->tmp, &emitted)) return emitted;
        if (op->outs.count < 2) return lower_error(ctx, op, (SrcLoc){0}, "expects outs(dst, executed)");
        mi->executed_slot = value_slot(ctx, op, &op->outs.items[1]);
        if (mi->executed_slot < 0) return false;
        mi->exhausted = op_attr_value(op, "exhausted", AK_BOOL, 0) != 0;
    }
    if (!lower_dst(ctx, op, &in.t[0], &defines)) return false;
    if (boxed(&in.t[0])) return unsupported_boxed(ctx, op, &in.t[0]);
    const TileRef *all[6] = {&in.t[0], &mi->tmp, &mi->src[0], &mi->src[1], &mi->src[2], &mi->src[3]};
    for (int i = 0; i < 2 + nsrc; i++) {
        if (i == 1 && mi->lists == 1) continue;
        if (all[i]->blayout != BL_ROW_MAJOR || all[i]->rows != 1)
            return emit_unsupported(ctx, op, "merges 1-row row-major tiles only (the simulator's static_assert)");
        if (all[i]->dtype != in.t[0].dtype || (in.t[0].dtype != DT_F32 && in.t[0].dtype != DT_F16))
            return lower_error(ctx, op, (SrcLoc){0}, "expects every tile of one element type, f16 or f32");
    }
    in.defines_dst = defines;
    in.extra = mi;
    emit(ctx, &in);
    return true;
}
