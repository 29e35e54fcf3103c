/* exec.c - the interpreter object: creation (buffers, GM arguments, lowering), frames, the execution
 * loop with its step bound, run-time errors, the trace, and the public binding / fetching API. */
#include "interp_impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- errors ---------------------------------------------------------------------------------- */

static int32_t rt_verror(Interp *ip, const Instr *in, SrcLoc loc, const char *rule, const char *fmt, va_list ap) {
    char *msg = arena_vprintf(ip->diags->arena, fmt, ap);
    SrcLoc at = loc.line ? loc : in ? in->loc : ip->entry ? ip->entry->loc : (SrcLoc){0};
    diag_report(ip->diags, ip->file, SEV_ERROR, at, rule, "'%s' op %s", in ? in->opname : "func.func", msg);
    return PC_ERROR;
}

int32_t rt_error(Interp *ip, const Instr *in, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rt_verror(ip, in, (SrcLoc){0}, NULL, fmt, ap);
    va_end(ap);
    return PC_ERROR;
}

int32_t rt_rule_error(Interp *ip, const Instr *in, const char *rule_suffix, const char *fmt, ...) {
    /* the verifier's rule ID for the same check: "pto.trowprod" + "valid-rows" -> TROWPROD.valid-rows */
    char *rule = rule_id(ip->diags->arena, in->opname, rule_suffix);
    va_list ap;
    va_start(ap, fmt);
    rt_verror(ip, in, (SrcLoc){0}, rule, fmt, ap);
    va_end(ap);
    return PC_ERROR;
}

int32_t rt_error_at(Interp *ip, const Instr *in, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rt_verror(ip, in, loc, NULL, fmt, ap);
    va_end(ap);
    return PC_ERROR;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- creation ------------------------------------------------------------------------------ */

/* Zero-filled memory whose first byte is aligned to ZALLOC_ALIGN (calloc: fresh pages come zeroed
 * from the system, so a large simulated buffer costs nothing until it is touched). A simulated
 * address that is a multiple of 64 is then a host address on a cache-line boundary: vector loads
 * and stores of aligned tiles never split a line (a large calloc block is 16 bytes past a page
 * boundary, which made every other 32-byte access split one and halved the kernels' speed). The
 * block is freed with zfree. */
#define ZALLOC_ALIGN 64
static void *zalloc(size_t size) {
    const size_t pad = ZALLOC_ALIGN + sizeof(void *);
    if (size > SIZE_MAX - pad) return NULL;
    uint8_t *raw = calloc(size + pad, 1);
    if (!raw) return NULL;
    uintptr_t p = ((uintptr_t)raw + sizeof(void *) + ZALLOC_ALIGN - 1) & ~(uintptr_t)(ZALLOC_ALIGN - 1);
    memcpy((void *)(p - sizeof(void *)), &raw, sizeof raw);
    return (void *)p;
}

/* Frees a GM buffer's elements (malloc'd or mapped). */
static void gm_release_data(GmBuffer *g) {
    if (g->map) munmap(g->map, g->map_len);
    else free(g->data);
    g->data = NULL;
    g->map = NULL;
    g->map_len = 0;
}

/* Frees a block from zalloc (NULL: nothing). */
static void zfree(void *p) {
    if (!p) return;
    void *raw;
    memcpy(&raw, (uint8_t *)p - sizeof(void *), sizeof raw);
    free(raw);
}

static void create_error(Interp *ip, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void create_error(Interp *ip, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(ip->diags->arena, fmt, ap);
    va_end(ap);
    diag_report(ip->diags, ip->file, SEV_ERROR, loc, NULL, "%s", msg);
}

Interp *interp_create(const Module *m, const InterpOptions *opts, DiagList *diags) {
    Interp *ip = calloc(1, sizeof *ip);
    if (!ip) return NULL;
    ip->module = m;
    ip->file = m->file;
    ip->diags = diags;
    ip->arena = arena_new();
    ip->opts = *opts;
    ip->isa = kernel_isa_best();
    ip->out = opts->out ? opts->out : stdout;
    ip->max_steps = opts->max_steps ? opts->max_steps : INTERP_DEFAULT_MAX_STEPS;
    ip->max_memory = opts->max_memory > 0 ? opts->max_memory : INTERP_DEFAULT_MAX_MEMORY;
    SrcLoc top = {1, 1, 0, 0};
    if (opts->check_sync && !(ip->sync = sync_checker_new(opts->target, opts->check_sync == 2))) {
        create_error(ip, top, "out of host memory for the synchronisation checker");
        interp_destroy(ip);
        return NULL;
    }
    if (opts->check_init && !(ip->init = init_checker_new())) {
        create_error(ip, top, "out of host memory for the initialisation checker");
        interp_destroy(ip);
        return NULL;
    }
    ip->entry = module_entry(m, opts->entry);
    if (!ip->entry) {
        if (opts->entry) create_error(ip, top, "no function named @%s to run (--entry)", opts->entry);
        else create_error(ip, top, "cannot choose the function to run: mark one with attributes {pto.entry} or pass "
                          "--entry NAME");
        interp_destroy(ip);
        return NULL;
    }
    if (ip->entry->is_declaration) {
        create_error(ip, ip->entry->loc, "@%s has no body to run", ip->entry->name);
        interp_destroy(ip);
        return NULL;
    }
    if (ip->entry->n_results > 0) {
        create_error(ip, ip->entry->loc, "PTO entry functions must return void (@%s returns %d values)",
                     ip->entry->name, ip->entry->n_results);
        interp_destroy(ip);
        return NULL;
    }
    for (int l = 0; l < LOC_COUNT; l++) {
        ip->buf_size[l] = buffer_capacity_bytes(opts->target, (TileLoc)l);
        ip->buf[l] = zalloc((size_t)ip->buf_size[l]);
        if (!ip->buf[l]) {
            create_error(ip, top, "out of host memory for the simulated buffers");
            interp_destroy(ip);
            return NULL;
        }
    }
    ip->n_funcs = m->n_funcs;
    ip->funcs = arena_alloc_array(ip->arena, m->n_funcs ? (size_t)m->n_funcs : 1, sizeof *ip->funcs);
    ip->free_frames = arena_alloc_array(ip->arena, m->n_funcs ? (size_t)m->n_funcs : 1, sizeof *ip->free_frames);
    for (int i = 0; i < m->n_funcs; i++)
        if (m->funcs[i] == ip->entry) ip->entry_index = i;
    const Func *e = ip->entry;
    size_t nargs = e->n_args ? (size_t)e->n_args : 1;
    ip->gm_of_arg = arena_alloc_array(ip->arena, nargs, sizeof *ip->gm_of_arg);
    ip->gm = arena_alloc_array(ip->arena, nargs, sizeof *ip->gm);
    ip->scalar_arg = arena_alloc_array(ip->arena, nargs, sizeof *ip->scalar_arg);
    ip->scalar_bound = arena_alloc_array(ip->arena, nargs, sizeof *ip->scalar_bound);
    for (int a = 0; a < e->n_args; a++) {
        const Value *v = e->args[a];
        ip->gm_of_arg[a] = -1;
        if (v->type && v->type->kind == TY_PTR) {
            GmBuffer *b = &ip->gm[ip->n_gm];
            b->arg = v;
            b->dtype = v->type->dtype;
            b->elem_size = dtype_size(b->dtype);
            if (!npy_descr_for(b->dtype)) {
                create_error(ip, v->loc, "pointer argument %%%s has element type %s, which pto-run cannot hold",
                             v->name, dtype_name(b->dtype));
                interp_destroy(ip);
                return NULL;
            }
            ip->gm_of_arg[a] = ip->n_gm++;
        }
        if (v->type && v->type->kind == TY_EVENTID_ARRAY) {
            create_error(ip, v->loc, "argument %%%s of @%s is an event-id array, which pto-run cannot pass to a kernel; "
                         "declare it inside (pto.declare_eventid_array)", v->name, e->name);
            interp_destroy(ip);
            return NULL;
        }
    }
    ip->tile_input = arena_alloc_array(ip->arena, e->n_values ? e->n_values : 1, sizeof *ip->tile_input);
    if (!interp_lower_module(ip)) {
        interp_destroy(ip);
        return NULL;
    }
    return ip;
}

void interp_destroy(Interp *ip) {
    if (!ip) return;
    sync_checker_free(ip->sync);
    free(ip->watches);
    init_checker_free(ip->init);
    pipe_runtime_free(ip);
    for (int l = 0; l < LOC_COUNT; l++) zfree(ip->buf[l]);
    for (int i = 0; i < ip->n_gm; i++) {
        gm_release_data(&ip->gm[i]);
        free(ip->gm[i].written);
    }
    Frame *f = ip->all_frames;
    while (f) {
        Frame *next = f->next_all;
        free(f->vals);
        zfree(f->auto_mem);
        free(f);
        f = next;
    }
    if (ip->tile_input && ip->entry)
        for (uint32_t i = 0; i < ip->entry->n_values; i++)
            if (ip->tile_input[i]) {
                data_array_free(ip->tile_input[i]);
                free(ip->tile_input[i]);
            }
    free(ip->code);
    free(ip->xfer);
    free(ip->scratch);
    arena_free(ip->arena);
    free(ip);
}

/* ---- frames ---------------------------------------------------------------------------------- */

void tile_window_runs(const TileRef *t, const uint8_t *base, int r0, int c0, int rows, int cols, TileRunFn fn, void *ctx) {
    int64_t es = (int64_t)dtype_size(t->dtype);
    if (rows <= 0 || cols <= 0 || r0 < 0 || c0 < 0) return;
    bool plain = t->box_r == 1 && t->box_c == 1;
    if (plain) base += (r0 * t->rs + c0 * t->cs) * es;
    if (plain && t->cs == 1) { /* row-major: a row per run, one run when the rows are whole */
        if ((c0 == 0 && cols == t->cols) || rows == 1) {
            fn(ctx, base, ((int64_t)(rows - 1) * t->rs + cols) * es);
            return;
        }
        for (int r = 0; r < rows; r++)
            if (!fn(ctx, base + r * t->rs * es, cols * es)) return;
    } else if (plain && t->rs == 1) { /* col-major: a column per run */
        if ((r0 == 0 && rows == t->rows) || cols == 1) {
            fn(ctx, base, ((int64_t)(cols - 1) * t->cs + rows) * es);
            return;
        }
        for (int k = 0; k < cols; k++)
            if (!fn(ctx, base + k * t->cs * es, rows * es)) return;
    } else {
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < cols; k++)
                if (!fn(ctx, base + tile_elem_offset(t, r0 + r, c0 + k) * es, es)) return;
    }
}

void tile_byte_runs(const TileRef *t, const uint8_t *base, int rows, int cols, TileRunFn fn, void *ctx) {
    tile_window_runs(t, base, 0, 0, rows, cols, fn, ctx);
}

void tile_elem_at(const TileRef *t, int64_t e, int *row, int *col) {
    *row = *col = -1;
    if (t->box_r == 1 && t->box_c == 1) {
        int64_t major = t->cs == 1 ? t->rs : t->cs;
        int64_t hi = major > 0 ? e / major : 0, lo = major > 0 ? e % major : e;
        *row = (int)(t->cs == 1 ? hi : lo), *col = (int)(t->cs == 1 ? lo : hi);
        return;
    }
    for (int r = 0; r < t->rows; r++)
        for (int k = 0; k < t->cols; k++)
            if (tile_elem_offset(t, r, k) == e) {
                *row = r, *col = k;
                return;
            }
}

bool interp_memory_of(const Interp *ip, const uint8_t *p, const uint8_t **base, int64_t *bytes, bool *gm) {
    *gm = false;
    for (int l = 0; l < LOC_COUNT; l++)
        if (ip->buf[l] && p >= ip->buf[l] && p < ip->buf[l] + ip->buf_size[l]) {
            *base = ip->buf[l], *bytes = ip->buf_size[l];
            return true;
        }
    for (int g = 0; g < ip->n_gm; g++) {
        const GmBuffer *b = &ip->gm[g];
        if (b->data && p >= b->data && p < b->data + (size_t)b->count * b->elem_size) {
            *base = b->data, *bytes = b->count * (int64_t)b->elem_size, *gm = true;
            return true;
        }
    }
    for (const Frame *f = ip->all_frames; f; f = f->next_all)
        if (f->auto_mem && p >= f->auto_mem && p < f->auto_mem + f->fn->auto_bytes) {
            *base = f->auto_mem, *bytes = f->fn->auto_bytes;
            return true;
        }
    return false;
}

bool interp_reserve_memory(Interp *ip, int64_t delta) {
    int64_t total;
    if (!checked_add_i64(ip->memory_used, delta, &total) || total > ip->max_memory) return false;
    ip->memory_used = total;
    return true;
}

Frame *frame_push(Interp *ip, const Instr *in, int fn_index) {
    const FuncCode *fc = &ip->funcs[fn_index];
    Frame *f = ip->free_frames[fn_index];
    bool reused = f != NULL;
    if (f) {
        ip->free_frames[fn_index] = f->next_free;
    } else {
        int64_t bytes = (int64_t)(fc->n_slots ? fc->n_slots : 1) * (int64_t)sizeof(RtValue) + fc->auto_bytes;
        if (!interp_reserve_memory(ip, bytes)) {
            rt_error(ip, in, "a frame of @%s needs %lld more bytes, over pto-run's memory limit of %lld bytes for GM "
                     "buffers and frames", fc->func->name, (long long)bytes, (long long)ip->max_memory);
            return NULL;
        }
        f = calloc(1, sizeof *f);
        if (f) {
            f->vals = malloc((size_t)(fc->n_slots ? fc->n_slots : 1) * sizeof *f->vals);
            f->auto_mem = zalloc((size_t)fc->auto_bytes);
        }
        if (!f || !f->vals || !f->auto_mem) {
            if (f) {
                free(f->vals);
                zfree(f->auto_mem);
                free(f);
            }
            interp_reserve_memory(ip, -bytes);
            rt_error(ip, in, "out of host memory for a frame of @%s (%lld bytes of auto tiles)", fc->func->name,
                     (long long)fc->auto_bytes);
            return NULL;
        }
        f->next_all = ip->all_frames;
        ip->all_frames = f;
    }
    memcpy(f->vals, fc->slot_init, (size_t)fc->n_slots * sizeof *f->vals);
    if (reused && fc->auto_bytes) memset(f->auto_mem, 0, (size_t)fc->auto_bytes); /* a new one is zeroed already */
    f->fn = fc;
    if (ip->init && fc->auto_bytes) init_checker_forget(ip, ip->init, f->auto_mem, fc->auto_bytes);
    f->fn_index = fn_index;
    if (++ip->next_serial == 0) ip->next_serial = 1;
    f->serial = ip->next_serial;
    f->caller = NULL;
    f->call = NULL;
    f->return_pc = -1;
    f->next_free = NULL;
    f->core_root = false;
    return f;
}

void frame_release(Interp *ip, Frame *f) {
    f->next_free = ip->free_frames[f->fn_index];
    ip->free_frames[f->fn_index] = f;
}

/* ---- trace ----------------------------------------------------------------------------------- */

/* Shortest text that reads back as the same value of float type `dt`. */
static void format_float(char *buf, size_t len, double v, DType dt) {
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (isnan(v) || scalar_round_float(strtod(buf, NULL), dt) == v) return;
    }
}

static void trace_value(Interp *ip, const Frame *f, FILE *out, const Value *v) {
    const Type *t = v->type;
    if (!t || v->id >= (uint32_t)f->fn->n_slots) {
        fprintf(out, "%%%s", v->name);
        return;
    }
    const RtValue *rv = &f->vals[v->id];
    char buf[64];
    switch (t->kind) {
    case TY_SCALAR:
        if (dtype_is_float(t->dtype)) {
            format_float(buf, sizeof buf, rv->f, t->dtype);
            fprintf(out, "%%%s=%s", v->name, buf);
        } else if (t->dtype == DT_U64) {
            fprintf(out, "%%%s=%llu", v->name, (unsigned long long)rv->i);
        } else {
            fprintf(out, "%%%s=%lld", v->name, (long long)rv->i);
        }
        return;
    case TY_TILE: {
        const TileView *tv = &rv->tile;
        fprintf(out, "%%%s", v->name);
        if (!tv->base) return;
        if (tv->auto_slot >= 0) { /* auto storage: name the function whose activation owns it */
            const Frame *owner = f;
            while (owner && owner->serial != tv->frame_serial) owner = owner->caller;
            fprintf(out, "@auto(%s)#%d", owner ? owner->fn->func->name : "?", tv->auto_slot);
        } else {
            for (int l = 0; l < LOC_COUNT; l++) {
                uintptr_t b = (uintptr_t)ip->buf[l], p = (uintptr_t)tv->base;
                if (p >= b && p < b + (uintptr_t)ip->buf_size[l]) {
                    fprintf(out, "@%s+0x%llx", tile_loc_name((TileLoc)l), (unsigned long long)(p - b));
                    break;
                }
            }
        }
        if (tv->flags & VIEW_DEFINED) fprintf(out, "[%dx%d]", tv->vr, tv->vc);
        return;
    }
    case TY_PTR:
        if (rv->view.buffer >= 0 && rv->view.buffer < ip->n_gm) {
            fprintf(out, "%%%s=gm:%%%s", v->name, ip->gm[rv->view.buffer].arg->name);
            if (rv->view.offset) fprintf(out, "+%lld", (long long)rv->view.offset);
        } else {
            fprintf(out, "%%%s", v->name);
        }
        return;
    case TY_TENSOR_VIEW:
    case TY_PARTITION_VIEW: {
        const GmView *gv = &rv->view;
        if (gv->buffer < 0 || gv->buffer >= ip->n_gm || gv->rank < 1 || gv->rank > INTERP_MAX_RANK) {
            fprintf(out, "%%%s", v->name);
            return;
        }
        fprintf(out, "%%%s@%%%s+%lld<", v->name, ip->gm[gv->buffer].arg->name, (long long)gv->offset);
        for (int i = 0; i < gv->rank; i++) fprintf(out, "%s%lld", i ? "x" : "", (long long)gv->shape[i]);
        fputc('>', out);
        return;
    }
    case TY_EVENTID_ARRAY: { /* its first ids */
        const EventIdArray *arr = &rv->evarr;
        fprintf(out, "%%%s", v->name);
        if (!arr->ids) return;
        for (int64_t i = 0; i < arr->size && i < 16; i++) fprintf(out, "%s%d", i ? ", " : "=[", arr->ids[i]);
        fputs(arr->size > 16 ? ", ...]" : "]", out);
        return;
    }
    default:
        fprintf(out, "%%%s", v->name);
        return;
    }
}

static void trace_operand(Interp *ip, const Frame *f, FILE *out, const char *name, const Operand *o) {
    fprintf(out, " %s=", name);
    if (o->kind == OPD_VALUE && o->value) trace_value(ip, f, out, o->value);
    else if (o->kind == OPD_TILE_ADDR) fprintf(out, "@tile(0x%llx)", (unsigned long long)o->ival);
    else fputs(o->text ? o->text : "?", out);
}

static const char *spec_name(const OperandSpec *specs, int max, int i) {
    int n = opspec_count(specs, max);
    if (n == 0) return "arg";
    return specs[i < n ? i : n - 1].name;
}

/* ---- checksums of what an instruction wrote (the trace's `=>` part) ----------------------------- */

enum { FNV_OFFSET = 0, FNV_PRIME = 1 };
static const uint64_t fnv_params[2] = {0xcbf29ce484222325ull, 0x100000001b3ull};

/* FNV-1a 64 of `n` bytes, continuing from hash `h`. */
static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= fnv_params[FNV_PRIME];
    }
    return h;
}

typedef struct GmHash {
    const GmBuffer *b;
    uint64_t h;
} GmHash;

static bool hash_gm_elem(void *state, int64_t i) {
    GmHash *g = state;
    if (i < g->b->count) g->h = fnv1a(g->h, g->b->data + (size_t)i * g->b->elem_size, g->b->elem_size);
    return true;
}

/* Appends " %name=fnv1a:HEX" for a tile (its valid region, logical row-major) or a GM view (its
 * elements, row-major) held by value v in frame f; nothing for other values or undefined tiles. */
static void trace_checksum(Interp *ip, const Frame *f, FILE *out, const Value *v) {
    if (!v || !v->type || v->id >= (uint32_t)f->fn->n_slots) return;
    const RtValue *rv = &f->vals[v->id];
    uint64_t h = fnv_params[FNV_OFFSET];
    if (v->type->kind == TY_TILE) {
        const TileView *tv = &rv->tile;
        if (!(tv->flags & VIEW_DEFINED) || !tv->base) return;
        TileRef t;
        tile_ref_fill(&v->type->tile, ip->opts.target, &t);
        size_t es = dtype_size(t.dtype);
        for (int64_t r = 0; r < tv->vr; r++)
            for (int64_t c = 0; c < tv->vc; c++) h = fnv1a(h, tv->base + (size_t)tile_elem_offset(&t, r, c) * es, es);
    } else if (v->type->kind == TY_TENSOR_VIEW || v->type->kind == TY_PARTITION_VIEW) {
        const GmView *gv = &rv->view;
        if (gv->buffer < 0 || gv->buffer >= ip->n_gm || gv->rank < 1) return;
        GmHash g = {&ip->gm[gv->buffer], h};
        gm_view_each(gv, hash_gm_elem, &g);
        h = g.h;
    } else {
        return;
    }
    fprintf(out, " %%%s=fnv1a:%016llx", v->name, (unsigned long long)h);
}

void trace_instr(Interp *ip, const Instr *in, const Frame *f) {
    const Op *op = in->op;
    const OpInfo *info = op_info(op->code);
    FILE *out = ip->out;
    fprintf(out, "[%llu] L%u %s", (unsigned long long)ip->steps, in->loc.line, info->name);
    const Value *dps_dst = op->outs.count > 0 ? op->outs.items[0].value : NULL;
    if (info->cls != CLS_CONTROL) {
        for (int i = 0; i < op->n_results; i++) {
            if (!op->results[i] || op->results[i] == dps_dst) continue;
            fputc(' ', out);
            trace_value(ip, f, out, op->results[i]);
        }
    }
    for (int i = 0; i < op->outs.count; i++) trace_operand(ip, f, out, spec_name(info->outs, 2, i), &op->outs.items[i]);
    for (int i = 0; i < op->ins.count; i++) trace_operand(ip, f, out, spec_name(info->ins, OPSPEC_MAX, i), &op->ins.items[i]);
    for (int k = 0; k < op->n_kwargs; k++) {
        const KeywordArg *kw = &op->kwargs[k];
        if (kw->bracketed) {
            fprintf(out, " %s=[", kw->key);
            for (int i = 0; i < kw->list.count; i++) {
                const Operand *o = &kw->list.items[i];
                if (i) fputs(", ", out);
                if (o->kind == OPD_VALUE && o->value) trace_value(ip, f, out, o->value);
                else fputs(o->text ? o->text : "?", out);
            }
            fputc(']', out);
        } else {
            for (int i = 0; i < kw->list.count; i++) trace_operand(ip, f, out, kw->key, &kw->list.items[i]);
        }
    }
    /* what it wrote: its tile or view destinations (outs) and tile results, as checksums */
    if (info->cls != CLS_CONTROL && op->code != OP_ALLOC_TILE) {
        bool any = false;
        for (int i = 0; i < op->outs.count + op->n_results; i++) {
            const Value *v = i < op->outs.count ? (op->outs.items[i].kind == OPD_VALUE ? op->outs.items[i].value : NULL)
                                                : op->results[i - op->outs.count];
            if (!v || !v->type || (i >= op->outs.count && v == dps_dst)) continue;
            TypeKind k = v->type->kind;
            if (k != TY_TILE && k != TY_TENSOR_VIEW && k != TY_PARTITION_VIEW) continue;
            if (i >= op->outs.count && k != TY_TILE) continue; /* a view result (make_tensor_view) writes nothing */
            if (!any) fputs(" =>", out);
            any = true;
            trace_checksum(ip, f, out, v);
        }
        /* a non-DPS op whose first input is its GM destination (tput_async, tget_async: `dst`) */
        const Value *d0 = !(info->flags & OPF_DPS) && op->ins.count && op->ins.items[0].kind == OPD_VALUE &&
                                  info->ins[0].name && strcmp(info->ins[0].name, "dst") == 0
                              ? op->ins.items[0].value
                              : NULL;
        if (d0 && d0->type && (d0->type->kind == TY_PARTITION_VIEW || d0->type->kind == TY_TENSOR_VIEW)) {
            if (!any) fputs(" =>", out);
            trace_checksum(ip, f, out, d0);
        }
    }
    fputc('\n', out);
}

/* ---- --print NAME@LINE ------------------------------------------------------------------------ */

static bool block_has_line(const Block *b, uint32_t line);

static bool op_has_line(const Op *op, uint32_t line) {
    if (op->loc.line == line) return true;
    for (int r = 0; r < op->n_regions; r++)
        if (block_has_line(op->regions[r].block, line)) return true;
    return false;
}

static bool block_has_line(const Block *b, uint32_t line) {
    if (!b) return false;
    for (const Op *op = b->first; op; op = op->next)
        if (op_has_line(op, line)) return true;
    return false;
}

static const Value *find_value_in_block(const Block *b, const char *name);

/* An argument or value of function `fn` named `name`, or NULL. */
static const Value *find_value_in_func(const Func *fn, const char *name) {
    for (int a = 0; a < fn->n_args; a++)
        if (fn->args[a] && strcmp(fn->args[a]->name, name) == 0) return fn->args[a];
    return find_value_in_block(fn->body.block, name);
}

bool interp_watch(Interp *ip, const char *func, const char *name, uint32_t line, PrintFormat fmt,
                  const PrintRegion *region, char *err, size_t errlen) {
    const char *n = name[0] == '%' ? name + 1 : name;
    const char *fname = func && func[0] == '@' ? func + 1 : func;
    bool func_found = false, has_name = false;
    int added = 0;
    for (int i = 0; i < ip->module->n_funcs; i++) {
        const Func *fn = ip->module->funcs[i];
        if (fn->is_declaration || (fname && strcmp(fn->name, fname) != 0)) continue;
        func_found = true;
        const Value *v = find_value_in_func(fn, n);
        if (!v) continue;
        has_name = true;
        if (!block_has_line(fn->body.block, line)) continue;
        Watch *grown = realloc(ip->watches, (size_t)(ip->n_watches + 1) * sizeof *grown);
        if (!grown) {
            set_err(err, errlen, "out of host memory");
            return false;
        }
        ip->watches = grown;
        Watch *w = &ip->watches[ip->n_watches++];
        memset(w, 0, sizeof *w);
        w->fn_index = i, w->value = v, w->line = line, w->fmt = fmt;
        if (region) {
            w->region = *region;
            w->has_region = true;
        }
        added++;
    }
    if (added) return true;
    if (fname && !func_found) set_err(err, errlen, "the program has no function @%s", fname);
    else if (!has_name) set_err(err, errlen, "no function%s%s has a value named '%s'", fname ? " @" : "", fname ? fname : "", n);
    else set_err(err, errlen, "no function that has a value named '%s' has an operation on line %u", n, line);
    return false;
}

/* The GM elements view v covers, in row-major order of its shape (an array of that rank and shape);
 * false when the view is not defined yet or reaches past its buffer's data. */
static bool view_to_array(const Interp *ip, const GmView *v, DataArray *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (v->buffer < 0 || v->buffer >= ip->n_gm || v->rank < 1 || v->rank > INTERP_MAX_RANK || v->rank > DATA_MAX_RANK) {
        set_err(err, errlen, "not defined yet");
        return false;
    }
    const GmBuffer *g = &ip->gm[v->buffer];
    int64_t count = 1;
    for (int d = 0; d < v->rank; d++)
        if (v->shape[d] < 0 || !checked_mul_i64(count, v->shape[d], &count)) {
            set_err(err, errlen, "not defined yet");
            return false;
        }
    if (!data_array_alloc(out, g->dtype, count, -1, err, errlen)) return false;
    out->rank = v->rank;
    memcpy(out->shape, v->shape, (size_t)v->rank * sizeof *out->shape);
    int64_t idx[INTERP_MAX_RANK] = {0};
    for (int64_t k = 0; k < count; k++) {
        int64_t at = v->offset;
        for (int d = 0; d < v->rank; d++) at += idx[d] * v->strides[d];
        if (at < 0 || at >= g->count) {
            set_err(err, errlen, "covers element %lld of %%%s, which holds %lld so far", (long long)at, g->arg->name,
                    (long long)g->count);
            data_array_free(out);
            return false;
        }
        memcpy((uint8_t *)out->data + (size_t)k * g->elem_size, g->data + (size_t)at * g->elem_size, g->elem_size);
        for (int d = v->rank - 1; d >= 0 && ++idx[d] == v->shape[d]; d--) idx[d] = 0;
    }
    return true;
}

/* Copies the value a watch names out of frame f (tile: valid region; GM pointer: its buffer;
 * view: the elements it covers; scalar: one element). */
static bool watch_fetch(const Interp *ip, const Frame *f, const Value *v, DataArray *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    const Type *t = v->type;
    const RtValue *rv = &f->vals[v->id];
    if (t->kind == TY_TILE) {
        if (!(rv->tile.flags & VIEW_DEFINED) || !rv->tile.base) {
            set_err(err, errlen, "not defined yet");
            return false;
        }
        TileRef tr;
        tile_ref_fill(&t->tile, ip->opts.target, &tr);
        return tile_to_array(&tr, &rv->tile, out, err, errlen);
    }
    if (t->kind == TY_PTR && rv->view.buffer >= 0 && rv->view.buffer < ip->n_gm) {
        const GmBuffer *g = &ip->gm[rv->view.buffer];
        InterpBinding b = {.kind = BIND_GM, .arg_index = -1};
        for (int a = 0; a < ip->entry->n_args; a++)
            if (ip->gm_of_arg[a] == rv->view.buffer) b.arg_index = a;
        if (b.arg_index >= 0) return interp_fetch(ip, &b, out, err, errlen); /* shaped as --out */
        if (!data_array_alloc(out, g->dtype, g->count, -1, err, errlen)) return false;
        if (g->count) memcpy(out->data, g->data, (size_t)g->count * g->elem_size);
        return true;
    }
    if (t->kind == TY_SCALAR && npy_descr_for(t->dtype)) {
        if (!data_array_alloc(out, t->dtype, 1, -1, err, errlen)) return false;
        RtValue copy = *rv;
        if (dtype_is_float(t->dtype)) {
            float x = (float)copy.f;
            if (t->dtype == DT_F32) memcpy(out->data, &x, 4);
            else {
                uint16_t h = t->dtype == DT_F16 ? f32_to_f16_bits(x) : f32_to_bf16_bits(x);
                memcpy(out->data, &h, 2);
            }
        } else {
            memcpy(out->data, &copy.i, dtype_size(t->dtype)); /* little-endian low bytes */
        }
        return true;
    }
    if (t->kind == TY_TENSOR_VIEW || t->kind == TY_PARTITION_VIEW) return view_to_array(ip, &rv->view, out, err, errlen);
    if (t->kind == TY_VECTOR && t->rank == 1 && dtype_is_int(t->dtype) && t->dims[0] > 0 &&
        t->dims[0] * (int64_t)dtype_size(t->dtype) <= 8) { /* its lanes, packed in one slot, lane 0 lowest */
        if (!data_array_alloc(out, t->dtype, t->dims[0], -1, err, errlen)) return false;
        uint64_t bits = (uint64_t)rv->i;
        memcpy(out->data, &bits, (size_t)t->dims[0] * dtype_size(t->dtype)); /* little-endian host */
        return true;
    }
    if (t->kind == TY_EVENTID_ARRAY) { /* its ids, as the int32_t elements PTOAS's helper holds */
        if (!rv->evarr.ids) {
            set_err(err, errlen, "not declared yet");
            return false;
        }
        if (!data_array_alloc(out, DT_I32, rv->evarr.size, -1, err, errlen)) return false;
        memcpy(out->data, rv->evarr.ids, (size_t)rv->evarr.size * sizeof *rv->evarr.ids);
        return true;
    }
    set_err(err, errlen, "only tiles, GM pointers, views, scalars, event-id arrays and vectors of up to 64 bits can be printed");
    return false;
}

/* After an instruction ran in frame f: prints the watches on its line. */
static void watch_after(Interp *ip, const Instr *in, const Frame *f) {
    if (!in->op || !in->traced || !f) return;
    for (int i = 0; i < ip->n_watches; i++) {
        const Watch *w = &ip->watches[i];
        if (w->line != in->loc.line || w->fn_index != f->fn_index) continue;
        char title[256], err[256];
        DataArray a;
        int len = snprintf(title, sizeof title, "%%%s @%u in @%s (step %llu", w->value->name, w->line,
                           f->fn->func->name, (unsigned long long)ip->steps);
        if (ip->block_num > 1 && len > 0 && (size_t)len < sizeof title)
            len += snprintf(title + len, sizeof title - (size_t)len, ", block %lld", (long long)ip->block_idx);
        if (!watch_fetch(ip, f, w->value, &a, err, sizeof err)) {
            fprintf(ip->out, "%s): %s\n", title, err);
            continue;
        }
        if (len > 0 && (size_t)len < sizeof title) {
            int64_t rows = 1; /* all but the last dim */
            for (int d = 0; d + 1 < a.rank; d++) rows *= a.shape[d];
            if (a.rank >= 2)
                snprintf(title + len, sizeof title - (size_t)len, "): %lldx%lld %s", (long long)rows,
                         (long long)a.shape[a.rank - 1], dtype_name(a.dtype));
            else
                snprintf(title + len, sizeof title - (size_t)len, "): %lld %s", (long long)a.count, dtype_name(a.dtype));
        }
        if (!data_array_print_region(ip->out, title, &a, w->fmt, w->has_region ? &w->region : NULL, err, sizeof err))
            fprintf(ip->out, "%s: %s\n", title, err);
        data_array_free(&a);
    }
}

/* ---- running ----------------------------------------------------------------------------------- */

/* The execution loop; `checked` (a constant in each caller, so each gets its own copy) adds the
  * checkers' steps (--check-sync, --check-init) and the watches (--print NAME@LINE), which keeps
 * the plain loop free of them. */
static inline __attribute__((always_inline)) bool run_loop_impl(Interp *ip, int32_t pc, bool checked) {
    const Instr *code = ip->code;
    const uint64_t max = ip->max_steps;
    const bool trace = ip->opts.trace;
    while (pc >= 0) {
        const Instr *in = &code[pc];
        if (++ip->steps > max) {
            ip->steps--;
            rt_error(ip, in, "exceeds the limit of %llu executed steps (--max-steps)", (unsigned long long)max);
            return false;
        }
        const Frame *before = ip->frame; /* call and return switch frames: trace the op's own */
        bool sync_after = false;
        if (checked) {
            if (ip->sync) sync_after = sync_checker_step(ip, ip->sync, in, pc);
            if (ip->init) init_checker_before(ip, ip->init, in);
        }
        pc = in->exec(ip, in, pc);
        if (pc == PC_YIELD) { /* a core waits on a FIFO: not a step; interp_run_cores resumes it at yield_pc */
            ip->steps--;
            return false;
        }
        if (checked && pc != PC_ERROR && (sync_after || ip->init)) {
            Frame *now = ip->frame;
            ip->frame = (Frame *)before; /* a tile op's operands live in the frame it ran in */
            if (sync_after) sync_checker_after(ip, ip->sync, in);
            if (ip->init) init_checker_after(ip, ip->init, in);
            ip->frame = now;
        }
        if (trace && pc != PC_ERROR && in->traced) trace_instr(ip, in, before);
        if (checked && ip->n_watches && pc != PC_ERROR) watch_after(ip, in, before);
    }
    return pc == PC_HALT;
}

static bool run_loop(Interp *ip, int32_t pc) { return run_loop_impl(ip, pc, false); }
static bool run_loop_checked(Interp *ip, int32_t pc) { return run_loop_impl(ip, pc, true); }

static bool run_block(Interp *ip);

/* Releases a core's frames, from the innermost up to its first. */
static void release_core_frames(Interp *ip, Frame *f) {
    while (f) {
        Frame *caller = f->core_root ? NULL : f->caller;
        frame_release(ip, f);
        f = caller;
    }
}

bool interp_run_cores(Interp *ip, const Instr *at) {
    PipeRuntime *pr = ip->pipes;
    Frame *entry_frame = ip->frame;
    int depth = ip->depth;
    uint8_t *ub0 = ip->buf[LOC_VEC];
    bool checked = ip->sync || ip->init || ip->n_watches;
    bool ok = true;
    for (;;) {
        bool all_done = true, progress = false;
        for (int i = 0; i < pr->n_cores && ok; i++) {
            PipeCore *c = &pr->cores[i];
            if (c->done) continue;
            all_done = false;
            ip->frame = c->frame;
            ip->depth = c->depth;
            ip->buf[LOC_VEC] = c->ub ? c->ub : ub0;
            ip->subblock_idx = c->subblock;
            ip->subblock_num = c->vector ? PIPE_VECTOR_SUBBLOCKS : 1;
            pr->running = c;
            if (ip->sync && !sync_checker_enter_core(ip->sync, 1 + i)) { /* the core's own pipes and flags */
                rt_error(ip, at, "out of host memory for the sync checker");
                ok = false;
                break;
            }
            if (ip->opts.trace)
                fprintf(ip->out, "-- core @%s%s\n", ip->funcs[c->frame->fn_index].func->name,
                        c->vector ? (c->subblock ? " sub-block 1" : " sub-block 0") : "");
            uint64_t steps = ip->steps;
            ip->yield_pc = -1;
            bool halted = checked ? run_loop_checked(ip, c->pc) : run_loop(ip, c->pc);
            c->frame = ip->frame;
            c->depth = ip->depth;
            if (halted) {
                release_core_frames(ip, c->frame);
                c->frame = NULL;
                c->done = true;
                progress = true;
            } else if (ip->yield_pc < 0) {
                ok = false;
            } else {
                c->pc = ip->yield_pc;
                if (ip->steps != steps) progress = true;
            }
        }
        if (!ok || all_done) break;
        if (!progress) { /* every core waits on a FIFO */
            char what[512];
            size_t used = 0;
            for (int i = 0; i < pr->n_cores && used < sizeof what; i++) {
                const PipeCore *c = &pr->cores[i];
                if (c->done) continue;
                const Instr *w = &ip->code[c->pc];
                int k = snprintf(what + used, sizeof what - used, "%s@%s%s at line %u (%s)", used ? ", " : "",
                                 ip->funcs[c->frame->fn_index].func->name,
                                 c->vector ? (c->subblock ? " sub-block 1" : " sub-block 0") : "", w->loc.line, w->opname);
                if (k > 0) used += (size_t)k;
            }
            ip->frame = entry_frame;
            rt_error(ip, at, "the cube and vector kernels it started deadlock: each waits on a FIFO that no other core will "
                             "fill or free: %s", what);
            ok = false;
        }
        if (!ok) break;
    }
    if (ip->sync) sync_checker_end_cores(ip, ip->sync);
    for (int i = 0; i < pr->n_cores; i++) {
        PipeCore *c = &pr->cores[i];
        if (!c->done && c->frame) release_core_frames(ip, c->frame);
        if (c->ub && ip->sync) sync_checker_forget_memory(ip->sync, c->ub);
        if (c->ub && ip->init) init_checker_forget_memory(ip->init, c->ub);
        free(c->ub);
    }
    for (int d = 0; d < 2; d++) /* the next block starts with empty FIFOs */
        for (int sl = 0; sl < PIPE_MAX_SLOTS; sl++)
            for (int l = 0; l < PIPE_VECTOR_SUBBLOCKS; l++) free(pr->fifo[d].lane[sl][l]);
    memset(pr, 0, sizeof *pr);
    ip->frame = entry_frame;
    ip->depth = depth;
    ip->buf[LOC_VEC] = ub0;
    ip->subblock_idx = 0;
    ip->subblock_num = 1;
    return ok;
}

bool interp_run(Interp *ip) {
    const Func *e = ip->entry;
    if (ip->ran) {
        create_error(ip, e->loc, "the program was already run");
        return false;
    }
    ip->ran = true;
    bool ok = true;
    for (int a = 0; a < e->n_args; a++) {
        const Value *v = e->args[a];
        if (v->type && v->type->kind == TY_SCALAR && !ip->scalar_bound[a]) {
            create_error(ip, v->loc, "scalar argument %%%s of @%s has no value; pass --set %s=VALUE", v->name, e->name,
                         v->name);
            ok = false;
        }
    }
    if (!ok) return false;
    ip->block_num = ip->opts.blocks > 0 ? ip->opts.blocks : 1;
    for (ip->block_idx = 0; ip->block_idx < ip->block_num; ip->block_idx++) {
        if (ip->block_idx > 0) { /* a fresh core: zero-filled on-chip memories, same GM */
            for (int l = 0; l < LOC_COUNT; l++)
                if (ip->buf[l]) memset(ip->buf[l], 0, (size_t)ip->buf_size[l]);
            if (ip->entry_frame) frame_release(ip, ip->entry_frame);
            ip->entry_frame = NULL;
            if (ip->sync) sync_checker_new_block(ip->sync);
            if (ip->init) init_checker_new_block(ip->init);
        }
        if (ip->opts.trace && ip->block_num > 1)
            fprintf(ip->out, "-- block %lld of %lld\n", (long long)ip->block_idx, (long long)ip->block_num);
        if (!run_block(ip)) { /* what the checkers saw before the error */
            if (ip->sync) sync_checker_finish(ip, ip->sync);
            if (ip->init) init_checker_finish(ip, ip->init);
            return false;
        }
    }
    bool synced = ip->sync ? sync_checker_finish(ip, ip->sync) : true;
    return (ip->init ? init_checker_finish(ip, ip->init) : true) && synced;
}

/* Runs the entry function once (one block). */
static bool run_block(Interp *ip) {
    const Func *e = ip->entry;
    const FuncCode *fc = &ip->funcs[ip->entry_index];
    Instr entry_instr = instr_for(NULL, NULL);
    entry_instr.loc = e->loc;
    entry_instr.opname = "func.func";
    Frame *f = frame_push(ip, &entry_instr, ip->entry_index);
    if (!f) return false;
    ip->entry_frame = f;
    ip->frame = f;
    for (int a = 0; a < e->n_args; a++) {
        const Value *v = e->args[a];
        RtValue *slot = &f->vals[v->id];
        if (!v->type) continue;
        switch (v->type->kind) {
        case TY_PTR:
            memset(&slot->view, 0, sizeof slot->view);
            slot->view.buffer = ip->gm_of_arg[a];
            break;
        case TY_SCALAR:
            if (dtype_is_float(v->type->dtype)) slot->f = ip->scalar_arg[a].f;
            else slot->i = ip->scalar_arg[a].i;
            break;
        case TY_TILE: {
            const TileRef *t = &fc->arg_tile[a];
            if (t->slot < 0) break;
            TileView *tv = &slot->tile;
            tv->base = f->auto_mem + fc->auto_offset[t->auto_index];
            tv->auto_slot = t->auto_index;
            tv->frame_serial = f->serial;
            tv->vr = t->static_vr >= 0 ? t->static_vr : t->rows;
            tv->vc = t->static_vc >= 0 ? t->static_vc : t->cols;
            tv->flags = VIEW_DEFINED;
            const DataArray *in = ip->tile_input[v->id];
            if (in) {
                if (in->count != (int64_t)tv->vr * tv->vc) {
                    create_error(ip, v->loc, "--in %s: the data holds %lld elements but the tile argument is %dx%d",
                                 v->name, (long long)in->count, tv->vr, tv->vc);
                    return false;
                }
                tile_fill_from_array(t, tv, in);
                if (ip->init) init_checker_mark_valid(ip, ip->init, t, tv);
            }
            break;
        }
        default:
            break;
        }
    }
    return ip->sync || ip->init || ip->n_watches ? run_loop_checked(ip, fc->entry_pc) : run_loop(ip, fc->entry_pc);
}

uint64_t interp_steps(const Interp *ip) { return ip->steps; }

const char *interp_entry_name(const Interp *ip) { return ip->entry->name; }

/* ---- names, bindings, results ---------------------------------------------------------------- */

static const Value *find_value_in_block(const Block *b, const char *name);

static const Value *find_value_in_op(const Op *op, const char *name) {
    for (int i = 0; i < op->n_results; i++)
        if (op->results[i] && strcmp(op->results[i]->name, name) == 0) return op->results[i];
    for (int r = 0; r < op->n_regions; r++) {
        const Value *v = find_value_in_block(op->regions[r].block, name);
        if (v) return v;
    }
    return NULL;
}

static const Value *find_value_in_block(const Block *b, const char *name) {
    if (!b) return NULL;
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i] && strcmp(b->args[i]->name, name) == 0) return b->args[i];
    for (const Op *op = b->first; op; op = op->next) {
        const Value *v = find_value_in_op(op, name);
        if (v) return v;
    }
    return NULL;
}

bool interp_lookup(const Interp *ip, const char *name, InterpBinding *out, char *err, size_t errlen) {
    const Func *e = ip->entry;
    const char *n = name[0] == '%' ? name + 1 : name;
    memset(out, 0, sizeof *out);
    out->arg_index = -1;
    int arg = -1;
    for (int a = 0; a < e->n_args && arg < 0; a++)
        if (strcmp(e->args[a]->name, n) == 0) arg = a;
    if (arg < 0 && strncmp(n, "arg", 3) == 0 && n[3] >= '0' && n[3] <= '9') {
        char *end;
        long k = strtol(n + 3, &end, 10);
        if (*end == '\0' && k >= 0 && k < e->n_args) arg = (int)k;
    }
    const Value *v = NULL;
    if (arg >= 0) {
        v = e->args[arg];
        out->arg_index = arg;
    } else {
        v = find_value_in_block(e->body.block, n);
    }
    if (!v) {
        set_err(err, errlen, "@%s has no argument or value named '%s'", e->name, name);
        return false;
    }
    out->value = v;
    snprintf(out->display, sizeof out->display, "%%%s", v->name);
    const Type *t = v->type;
    if (t && t->kind == TY_PTR && arg >= 0) {
        out->kind = BIND_GM;
        out->dtype = t->dtype;
    } else if (t && t->kind == TY_SCALAR && arg >= 0) {
        out->kind = BIND_SCALAR;
        out->dtype = t->dtype;
    } else if (t && t->kind == TY_TILE) {
        out->kind = BIND_TILE;
        out->dtype = t->tile.dtype;
    } else if (t && (t->kind == TY_TENSOR_VIEW || t->kind == TY_PARTITION_VIEW)) {
        out->kind = BIND_VIEW;
        out->dtype = t->dtype;
    } else if (t && t->kind == TY_EVENTID_ARRAY) {
        set_err(err, errlen, "'%s' names %%%s, an event-id array: it holds no data after the run; see its ids at a source "
                "line with --print %s@LINE, or in --trace", name, v->name, v->name);
        return false;
    } else {
        set_err(err, errlen, "'%s' names %%%s, which is not a pointer or scalar argument, a tile or a view", name, v->name);
        return false;
    }
    return true;
}

/* Binds `data` to GM argument b: a copy of its elements, or (move) its storage itself. */
static bool bind_gm(Interp *ip, const InterpBinding *b, DataArray *data, bool move, char *err, size_t errlen) {
    if (b->kind != BIND_GM || b->arg_index < 0 || ip->gm_of_arg[b->arg_index] < 0) {
        set_err(err, errlen, "%s is not a pointer argument", b->display);
        return false;
    }
    GmBuffer *g = &ip->gm[ip->gm_of_arg[b->arg_index]];
    if (data->dtype != g->dtype) {
        set_err(err, errlen, "%s holds %s elements but the data is %s", b->display, dtype_name(g->dtype),
                dtype_name(data->dtype));
        return false;
    }
    size_t bytes = (size_t)data->count * g->elem_size;
    if (!interp_reserve_memory(ip, (int64_t)bytes - g->count * (int64_t)g->elem_size)) {
        set_err(err, errlen, "%s: %zu bytes of data exceed pto-run's memory limit of %lld bytes for GM buffers and "
                "frames", b->display, bytes, (long long)ip->max_memory);
        return false;
    }
    uint8_t *storage = data->data;
    if (!move || !storage) {
        storage = malloc(bytes ? bytes : 1);
        if (!storage) {
            interp_reserve_memory(ip, g->count * (int64_t)g->elem_size - (int64_t)bytes);
            set_err(err, errlen, "out of host memory for %s", b->display);
            return false;
        }
        if (bytes) memcpy(storage, data->data, bytes);
    }
    gm_release_data(g);
    g->data = storage;
    if (move && data->data) {
        g->map = data->map;
        g->map_len = data->map_len;
        data->data = NULL;
        data->map = NULL;
        data->map_len = 0;
    }
    g->count = data->count;
    g->fixed = true;
    g->bound = true;
    free(g->written);
    g->written = NULL;
    g->shape_rank = 0;
    if (data->rank >= 2 && data->rank <= INTERP_MAX_RANK) {
        g->shape_rank = data->rank;
        memcpy(g->shape, data->shape, (size_t)data->rank * sizeof *g->shape);
    }
    return true;
}

bool interp_bind_gm(Interp *ip, const InterpBinding *b, const DataArray *data, char *err, size_t errlen) {
    DataArray view = *data; /* never moved from: only read */
    return bind_gm(ip, b, &view, false, err, errlen);
}

bool interp_bind_gm_move(Interp *ip, const InterpBinding *b, DataArray *data, char *err, size_t errlen) {
    return bind_gm(ip, b, data, true, err, errlen);
}

bool interp_bind_scalar(Interp *ip, const InterpBinding *b, const char *text, char *err, size_t errlen) {
    if (b->kind != BIND_SCALAR || b->arg_index < 0) {
        set_err(err, errlen, "%s is not a scalar argument", b->display);
        return false;
    }
    DType t = b->dtype;
    ScalarValue v = {0, 0.0};
    char *end = NULL;
    const char *p = text;
    bool neg = *p == '-';
    const char *digits = (*p == '-' || *p == '+') ? p + 1 : p;
    bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    errno = 0;
    if (dtype_is_float(t)) {
        if (hex && !neg) {
            unsigned long long bits = strtoull(text, &end, 16);
            uint64_t limit = t == DT_F32 ? 0xffffffffull : 0xffffull;
            if (*end || errno || bits > limit) goto bad;
            if (t == DT_F32) {
                uint32_t u = (uint32_t)bits;
                float f;
                memcpy(&f, &u, sizeof f);
                v.f = f;
            } else {
                v.f = t == DT_F16 ? f16_bits_to_f32((uint16_t)bits) : bf16_bits_to_f32((uint16_t)bits);
            }
        } else if (t == DT_F32) {
            v.f = strtof(text, &end);
            if (end == text || *end) goto bad;
        } else {
            double d = strtod(text, &end);
            if (end == text || *end) goto bad;
            v.f = scalar_round_float(d, t);
        }
    } else if (t == DT_I1 && (!strcmp(text, "true") || !strcmp(text, "false"))) {
        v.i = text[0] == 't';
    } else if (dtype_is_unsigned(t) && !neg) {
        unsigned long long u = strtoull(text, &end, hex ? 16 : 10);
        if (end == text || *end || errno) goto bad;
        v.i = scalar_wrap_int((int64_t)u, t);
        if (t != DT_U64 && (uint64_t)v.i != u) goto range;
    } else {
        long long s = strtoll(text, &end, hex ? 16 : 10);
        if (end == text || *end || errno) goto bad;
        v.i = scalar_wrap_int(s, t);
        if (v.i != s && t != DT_I64 && t != DT_INDEX) goto range;
    }
    ip->scalar_arg[b->arg_index] = v;
    ip->scalar_bound[b->arg_index] = true;
    return true;
bad:
    set_err(err, errlen, "'%s' is not a valid %s value for %s", text, dtype_name(t), b->display);
    return false;
range:
    set_err(err, errlen, "'%s' is out of range for %s (%s)", text, b->display, dtype_name(t));
    return false;
}

bool interp_bind_tile(Interp *ip, const InterpBinding *b, const DataArray *data, char *err, size_t errlen) {
    if (b->kind != BIND_TILE || !b->value || b->value->id >= ip->entry->n_values) {
        set_err(err, errlen, "%s is not a tile of @%s", b->display, ip->entry->name);
        return false;
    }
    const TileType *tt = &b->value->type->tile;
    if (data->dtype != tt->dtype) {
        set_err(err, errlen, "%s has %s elements but the data is %s", b->display, dtype_name(tt->dtype),
                dtype_name(data->dtype));
        return false;
    }
    int64_t want;
    if (tt->valid_rows != DIM_DYNAMIC && tt->valid_cols != DIM_DYNAMIC &&
        (!checked_mul_i64(tt->valid_rows, tt->valid_cols, &want) || data->count != want)) {
        set_err(err, errlen, "the data holds %lld elements but the valid region of %s is %lldx%lld (%lld elements)",
                (long long)data->count, b->display, (long long)tt->valid_rows, (long long)tt->valid_cols,
                (long long)want);
        return false;
    }
    const Value *def = b->value;
    bool defined_by_alloc = def->def ? def->def->code == OP_ALLOC_TILE : b->arg_index >= 0;
    if (!defined_by_alloc) {
        set_err(err, errlen, "%s is computed by '%s'; --in can only fill a tile created by pto.alloc_tile or a tile "
                "argument", b->display, def->def ? op_info(def->def->code)->name : "a region");
        return false;
    }
    DataArray *copy = calloc(1, sizeof *copy);
    if (!copy) {
        set_err(err, errlen, "out of host memory");
        return false;
    }
    *copy = *data;
    copy->map = NULL; /* the copy owns malloc'd elements, never the caller's file mapping */
    copy->map_len = 0;
    size_t bytes = (size_t)data->count * dtype_size(data->dtype);
    copy->data = malloc(bytes ? bytes : 1);
    if (!copy->data) {
        free(copy);
        set_err(err, errlen, "out of host memory");
        return false;
    }
    if (bytes) memcpy(copy->data, data->data, bytes);
    DataArray **slot = &ip->tile_input[b->value->id];
    if (*slot) {
        data_array_free(*slot);
        free(*slot);
    }
    *slot = copy;
    return true;
}

bool interp_fetch(const Interp *ip, const InterpBinding *b, DataArray *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (b->kind == BIND_GM) {
        const GmBuffer *g = &ip->gm[ip->gm_of_arg[b->arg_index]];
        int64_t product = 1;
        for (int i = 0; i < g->shape_rank; i++) product *= g->shape[i];
        bool shaped = g->shape_rank >= 1 && product == g->count;
        if (!data_array_alloc(out, g->dtype, g->count, -1, err, errlen)) return false;
        if (shaped) {
            out->rank = g->shape_rank;
            memcpy(out->shape, g->shape, (size_t)g->shape_rank * sizeof *out->shape);
        }
        if (g->count) memcpy(out->data, g->data, (size_t)g->count * g->elem_size);
        return true;
    }
    if (b->kind == BIND_TILE) {
        if (!ip->entry_frame || b->value->id >= (uint32_t)ip->entry_frame->fn->n_slots) {
            set_err(err, errlen, "%s has no value: the program did not run", b->display);
            return false;
        }
        const TileView *v = &ip->entry_frame->vals[b->value->id].tile;
        if (!(v->flags & VIEW_DEFINED) || !v->base) {
            set_err(err, errlen, "%s was never defined during the run", b->display);
            return false;
        }
        TileRef t;
        tile_ref_fill(&b->value->type->tile, ip->opts.target, &t);
        return tile_to_array(&t, v, out, err, errlen);
    }
    if (b->kind == BIND_VIEW) {
        if (!ip->entry_frame || b->value->id >= (uint32_t)ip->entry_frame->fn->n_slots) {
            set_err(err, errlen, "%s has no value: the program did not run", b->display);
            return false;
        }
        char why[200];
        if (view_to_array(ip, &ip->entry_frame->vals[b->value->id].view, out, why, sizeof why)) return true;
        set_err(err, errlen, "%s: %s", b->display, strcmp(why, "not defined yet") ? why : "was never defined during the run");
        return false;
    }
    set_err(err, errlen, "%s is a scalar argument; only GM buffers, views and tiles hold data", b->display);
    return false;
}
