/* api.c - the stable C API of libpto.so (api/pto.h) over the parser, verifier and interpreter.
 * Every handle owns its memory; nothing here is global or mutable. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "pto.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "parser.h"
#include "verifier.h"

#ifndef PTO_VERSION
#define PTO_VERSION "0.0.0"
#endif

struct pto_diags {
    Arena *arena;           /* owned: messages and a copy of the source (NULL when borrowed) */
    DiagList list;
    char *text;             /* pto_diags_text's rendering (malloc'd), or NULL */
};

struct pto_module {
    Arena *arena;           /* the IR and the source */
    Module *ir;
    Target target;
    const char *entry;      /* the compile's entry, or NULL */
};

struct pto_run {
    const pto_module *module;
    Arena *arena;           /* run diagnostics */
    pto_diags diags;        /* borrows `arena` */
    Interp *ip;             /* NULL when lowering failed */
    const Func *entry;
    const Value **bound;    /* values given an input or a value so far */
    int n_bound, bound_cap;
    bool executed, succeeded;
    FILE *out;              /* open_memstream over output/output_len */
    char *output;
    size_t output_len;
    char message[512];
};

/* ---- dtypes ----------------------------------------------------------------------------------- */

static const DType dtype_of_public[] = {
    [PTO_DTYPE_NONE] = DT_NONE, [PTO_F16] = DT_F16, [PTO_BF16] = DT_BF16, [PTO_F32] = DT_F32, [PTO_I8] = DT_I8,
    [PTO_U8] = DT_U8, [PTO_I16] = DT_I16, [PTO_U16] = DT_U16, [PTO_I32] = DT_I32, [PTO_U32] = DT_U32,
    [PTO_I64] = DT_I64, [PTO_U64] = DT_U64, [PTO_I1] = DT_I1, [PTO_INDEX] = DT_INDEX,
    [PTO_F8E4M3FN] = DT_F8E4M3FN, [PTO_F8E4M3] = DT_F8E4M3, [PTO_F8E5M2] = DT_F8E5M2, [PTO_F8E8M0FNU] = DT_F8E8M0FNU,
    [PTO_F8E4M3FNUZ] = DT_F8E4M3FNUZ, [PTO_F8E4M3B11FNUZ] = DT_F8E4M3B11FNUZ, [PTO_F8E5M2FNUZ] = DT_F8E5M2FNUZ,
};
#define N_PUBLIC_DTYPES ((int)(sizeof dtype_of_public / sizeof *dtype_of_public))

/* The internal dtype of a public one, or DT_NONE. */
static DType internal_dtype(int dtype) {
    return dtype > 0 && dtype < N_PUBLIC_DTYPES ? dtype_of_public[dtype] : DT_NONE;
}

/* The public dtype of an internal one. */
static int public_dtype(DType dt) {
    for (int i = 1; i < N_PUBLIC_DTYPES; i++)
        if (dtype_of_public[i] == dt) return i;
    return PTO_DTYPE_NONE;
}

const char *pto_version(void) { return PTO_VERSION; }

int pto_api_version(void) { return PTO_API_VERSION; }

const char *pto_status_name(int status) {
    switch (status) {
    case PTO_OK: return "ok";
    case PTO_ERR_COMPILE: return "compile error";
    case PTO_ERR_RUN: return "run-time error";
    case PTO_ERR_BINDING: return "binding error";
    case PTO_ERR_ARGUMENT: return "bad argument";
    case PTO_ERR_IO: return "I/O error";
    case PTO_ERR_STATE: return "wrong state";
    case PTO_ERR_MEMORY: return "out of memory";
    }
    return "unknown status";
}

const char *pto_dtype_name(int dtype) {
    DType dt = internal_dtype(dtype);
    return dt == DT_NONE ? "?" : dtype_name(dt);
}

size_t pto_dtype_size(int dtype) {
    DType dt = internal_dtype(dtype);
    return dt == DT_NONE ? 0 : dtype_size(dt);
}

/* ---- diagnostics ------------------------------------------------------------------------------ */

/* A fresh, empty list with its own arena, or NULL when out of memory. */
static pto_diags *diags_new(void) {
    pto_diags *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->arena = arena_new();
    if (!d->arena) {
        free(d);
        return NULL;
    }
    diag_init(&d->list, d->arena);
    return d;
}

/* Copies the diagnostics of `from` (and the one source file they point at) into `to`'s arena. */
static void diags_copy(pto_diags *to, const DiagList *from, const SourceFile *file) {
    const SourceFile *copy = NULL;
    for (size_t i = 0; i < from->count; i++) {
        const Diag *d = &from->items[i];
        const SourceFile *f = d->file;
        if (f && f == file) {
            if (!copy) copy = source_file_from_string(to->arena, file->path, file->text, file->len);
            f = copy;
        } else if (f) { /* not expected: keep the name, drop the text */
            f = source_file_from_string(to->arena, f->path, "", 0);
        }
        diag_report(&to->list, f, d->severity, d->loc, d->rule, "%s", d->message);
    }
    size_t recorded = 0;
    for (size_t i = 0; i < from->count; i++) recorded += from->items[i].severity == SEV_ERROR;
    to->list.errors += from->errors - recorded;
    diag_sort(&to->list);
}

/* A list of one unlocated error about `path`. */
static pto_diags *diags_single(const char *path, const char *message) {
    pto_diags *d = diags_new();
    if (!d) return NULL;
    const SourceFile *f = path ? source_file_from_string(d->arena, path, "", 0) : NULL;
    diag_report(&d->list, f, SEV_ERROR, (SrcLoc){0, 0, 0, 0}, NULL, "%s", message);
    return d;
}

size_t pto_diags_count(const pto_diags *d) { return d ? d->list.count : 0; }

size_t pto_diags_errors(const pto_diags *d) { return d ? d->list.errors : 0; }

pto_status pto_diags_get(const pto_diags *d, size_t i, pto_diagnostic *out) {
    if (!d || !out || i >= d->list.count) return PTO_ERR_ARGUMENT;
    const Diag *g = &d->list.items[i];
    out->file = g->file && g->file->path ? g->file->path : "";
    out->rule = g->rule ? g->rule : "";
    out->message = g->message ? g->message : "";
    out->severity = g->severity == SEV_ERROR ? PTO_SEV_ERROR : g->severity == SEV_WARNING ? PTO_SEV_WARNING : PTO_SEV_NOTE;
    out->line = g->loc.line;
    out->column = g->loc.col;
    out->end_line = g->loc.line;
    out->end_column = g->loc.col;
    if (g->loc.line && g->loc.len && g->file && g->file->text && (size_t)g->loc.offset + g->loc.len <= g->file->len) {
        /* walk the located span: a construct may cross lines */
        for (size_t k = g->loc.offset; k < (size_t)g->loc.offset + g->loc.len; k++) {
            if (g->file->text[k] == '\n') {
                out->end_line++;
                out->end_column = 1;
            } else {
                out->end_column++;
            }
        }
    }
    return PTO_OK;
}

const char *pto_diags_text(const pto_diags *cd) {
    if (!cd) return "";
    pto_diags *d = (pto_diags *)cd; /* the rendering is a cache: the list itself does not change */
    if (d->text) return d->text;
    size_t len = 0;
    FILE *f = open_memstream(&d->text, &len);
    if (!f) return "";
    diag_print_text(f, &d->list);
    fclose(f);
    return d->text ? d->text : "";
}

void pto_diags_free(pto_diags *d) {
    if (!d) return;
    free(d->text);
    arena_free(d->arena);
    free(d);
}

/* ---- compiling -------------------------------------------------------------------------------- */

/* Parses and verifies `file` (in `arena`, which the module takes over on success). */
static pto_status compile_source(Arena *arena, const SourceFile *file, const char *target, const char *entry,
                                 unsigned flags, pto_module **out, pto_diags **diags) {
    Target t = TARGET_A2A3;
    bool target_given = target != NULL;
    if (target && !target_from_name(target, &t)) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown target '%.64s' (expected a2a3 or a5)", target);
        if (diags) *diags = diags_single(NULL, msg);
        arena_free(arena);
        return PTO_ERR_ARGUMENT;
    }
    if (entry && entry[0] == '@') entry++;
    DiagList list;
    diag_init(&list, arena);
    list.warnings_as_errors = (flags & PTO_COMPILE_WERROR) != 0;
    Module *m = parse_module(arena, file, &list);
    pto_status status = PTO_OK;
    if (!m || list.errors) status = PTO_ERR_COMPILE;
    if (status == PTO_OK && entry && !module_find_func(m, entry)) {
        diag_report(&list, file, SEV_ERROR, (SrcLoc){0, 0, 0, 0}, NULL, "%s has no function @%s", file->path, entry);
        status = PTO_ERR_COMPILE;
    }
    VerifyOptions vopts = {.target = t, .target_given = target_given, .entry = entry};
    if (status == PTO_OK && (!verify_module(m, &vopts, &list) || list.errors)) status = PTO_ERR_COMPILE;
    if (diags) {
        *diags = diags_new();
        if (*diags) diags_copy(*diags, &list, file);
    }
    if (status != PTO_OK) {
        arena_free(arena);
        return status;
    }
    pto_module *pm = calloc(1, sizeof *pm);
    if (!pm) {
        arena_free(arena);
        return PTO_ERR_MEMORY;
    }
    pm->arena = arena;
    pm->ir = m;
    pm->target = verify_effective_target(m, &vopts);
    pm->entry = entry ? arena_strdup(arena, entry) : NULL;
    *out = pm;
    return PTO_OK;
}

pto_status pto_compile(const char *text, size_t len, const char *name, const char *target, const char *entry,
                       unsigned flags, pto_module **out, pto_diags **diags) {
    if (diags) *diags = NULL;
    if (!out || (!text && len)) return PTO_ERR_ARGUMENT;
    *out = NULL;
    if (len > SOURCE_FILE_MAX_BYTES) {
        if (diags) *diags = diags_single(name, "the program text is larger than 64 MiB");
        return PTO_ERR_ARGUMENT;
    }
    Arena *arena = arena_new();
    const SourceFile *file = source_file_from_string(arena, name ? name : "<string>", text ? text : "", len);
    return compile_source(arena, file, target, entry, flags, out, diags);
}

pto_status pto_compile_file(const char *path, const char *target, const char *entry, unsigned flags, pto_module **out,
                            pto_diags **diags) {
    if (diags) *diags = NULL;
    if (!out || !path) return PTO_ERR_ARGUMENT;
    *out = NULL;
    Arena *arena = arena_new();
    SourceFile *file = arena_alloc(arena, sizeof *file);
    char err[512];
    if (!source_file_read(arena, path, file, err, sizeof err)) {
        if (diags) *diags = diags_single(path, err);
        arena_free(arena);
        return PTO_ERR_IO;
    }
    return compile_source(arena, file, target, entry, flags, out, diags);
}

void pto_module_free(pto_module *m) {
    if (!m) return;
    arena_free(m->arena);
    free(m);
}

const char *pto_module_target(const pto_module *m) { return m ? target_name(m->target) : ""; }

/* ---- functions and arguments ------------------------------------------------------------------ */

/* Function `i` among those with a body, or NULL. */
static const Func *defined_func(const pto_module *m, int i) {
    if (!m || i < 0) return NULL;
    for (int k = 0; k < m->ir->n_funcs; k++) {
        const Func *f = m->ir->funcs[k];
        if (f->is_declaration) continue;
        if (i-- == 0) return f;
    }
    return NULL;
}

/* The function named `name` (NULL: the default entry), or NULL. */
static const Func *find_func(const pto_module *m, const char *name) {
    if (!m) return NULL;
    if (!name) return module_entry(m->ir, m->entry);
    if (name[0] == '@') name++;
    const Func *f = module_find_func(m->ir, name);
    return f && !f->is_declaration ? f : NULL;
}

int pto_module_func_count(const pto_module *m) {
    int n = 0;
    while (defined_func(m, n)) n++;
    return n;
}

const char *pto_module_func_name(const pto_module *m, int i) {
    const Func *f = defined_func(m, i);
    return f ? f->name : NULL;
}

const char *pto_module_default_entry(const pto_module *m) {
    const Func *f = find_func(m, NULL);
    return f ? f->name : NULL;
}

int pto_module_arg_count(const pto_module *m, const char *func) {
    const Func *f = find_func(m, func);
    return f ? f->n_args : -1;
}

pto_status pto_module_arg(const pto_module *m, const char *func, int i, pto_arg *out) {
    const Func *f = find_func(m, func);
    if (!f || !out || i < 0 || i >= f->n_args) return PTO_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    const Value *v = f->args[i];
    const Type *t = v->type;
    out->name = v->name;
    out->kind = PTO_ARG_OTHER;
    if (!t) return PTO_OK;
    switch (t->kind) {
    case TY_PTR:
        out->kind = PTO_ARG_GM;
        out->dtype = public_dtype(t->dtype);
        break;
    case TY_SCALAR:
        out->kind = PTO_ARG_SCALAR;
        out->dtype = public_dtype(t->dtype);
        break;
    case TY_TILE:
        out->kind = PTO_ARG_TILE;
        out->dtype = public_dtype(t->tile.dtype);
        out->rank = 2;
        out->shape[0] = t->tile.valid_rows == DIM_DYNAMIC ? -1 : t->tile.valid_rows;
        out->shape[1] = t->tile.valid_cols == DIM_DYNAMIC ? -1 : t->tile.valid_cols;
        break;
    default:
        out->dtype = public_dtype(t->dtype);
        break;
    }
    return PTO_OK;
}

/* ---- running ---------------------------------------------------------------------------------- */

/* Records the message of a failing call and returns `status`. */
static pto_status fail(pto_run *r, pto_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static pto_status fail(pto_run *r, pto_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    return status;
}

pto_status pto_run_new(const pto_module *m, const char *entry, int64_t blocks, uint64_t max_steps, unsigned flags,
                       pto_run **out) {
    if (!out) return PTO_ERR_ARGUMENT;
    *out = NULL;
    if (!m) return PTO_ERR_ARGUMENT;
    pto_run *r = calloc(1, sizeof *r);
    if (!r) return PTO_ERR_MEMORY;
    *out = r;
    r->module = m;
    r->arena = arena_new();
    diag_init(&r->diags.list, r->arena);
    r->out = open_memstream(&r->output, &r->output_len);
    if (!r->out) return fail(r, PTO_ERR_MEMORY, "cannot open the output buffer");
    if (blocks < 0 || blocks > 65536) return fail(r, PTO_ERR_ARGUMENT, "blocks must be from 1 to 65536, got %lld", (long long)blocks);
    r->entry = find_func(m, entry);
    if (!r->entry) {
        if (entry) return fail(r, PTO_ERR_ARGUMENT, "the module has no function @%s", entry[0] == '@' ? entry + 1 : entry);
        return fail(r, PTO_ERR_ARGUMENT, "the module has several functions and none is marked pto.entry: name the entry");
    }
    InterpOptions iopts = {.target = m->target,
                           .entry = r->entry->name,
                           .max_steps = max_steps,
                           .blocks = blocks,
                           .check_sync = (flags & PTO_RUN_CHECK_SYNC_STRICT) ? 2 : (flags & PTO_RUN_CHECK_SYNC) ? 1 : 0,
                           .trace = (flags & PTO_RUN_TRACE) != 0,
                           .check_init = (flags & PTO_RUN_CHECK_INIT) != 0,
                           .out = r->out};
    r->ip = interp_create(m->ir, &iopts, &r->diags.list);
    if (!r->ip) {
        diag_sort(&r->diags.list);
        return fail(r, PTO_ERR_COMPILE, "@%s cannot be lowered for execution (see the diagnostics)", r->entry->name);
    }
    return PTO_OK;
}

pto_status pto_run_binding(pto_run *r, const char *name, pto_arg *out) {
    if (!r) return PTO_ERR_ARGUMENT;
    if (!name || !out) return fail(r, PTO_ERR_ARGUMENT, "bad arguments to pto_run_binding");
    if (!r->ip) return fail(r, PTO_ERR_STATE, "the run could not be prepared");
    InterpBinding b;
    char err[256];
    if (!interp_lookup(r->ip, name, &b, err, sizeof err)) return fail(r, PTO_ERR_BINDING, "%s", err);
    if (b.kind == BIND_VIEW)
        return fail(r, PTO_ERR_BINDING, "%s is a view, not an argument or a tile (its elements can be read after the run)",
                    b.display);
    memset(out, 0, sizeof *out);
    out->name = b.value->name;
    out->kind = b.kind == BIND_GM ? PTO_ARG_GM : b.kind == BIND_TILE ? PTO_ARG_TILE : PTO_ARG_SCALAR;
    out->dtype = public_dtype(b.dtype);
    if (b.kind == BIND_TILE) {
        const TileType *t = &b.value->type->tile;
        out->rank = 2;
        out->shape[0] = t->valid_rows == DIM_DYNAMIC ? -1 : t->valid_rows;
        out->shape[1] = t->valid_cols == DIM_DYNAMIC ? -1 : t->valid_cols;
    }
    return PTO_OK;
}

/* Resolves `name` for a bind or set call before the run; records a message on failure. */
static pto_status lookup_for_input(pto_run *r, const char *name, InterpBinding *b) {
    if (!r->ip) return fail(r, PTO_ERR_STATE, "the run could not be prepared");
    if (r->executed) return fail(r, PTO_ERR_STATE, "inputs are given before the run");
    char err[256];
    if (!interp_lookup(r->ip, name, b, err, sizeof err)) return fail(r, PTO_ERR_BINDING, "%s", err);
    /* tile values defined inside the body can be bound too, at most one input per value */
    for (int k = 0; k < r->n_bound; k++)
        if (r->bound[k] == b->value) return fail(r, PTO_ERR_BINDING, "%s already has its input", b->display);
    if (r->n_bound == r->bound_cap) {
        int cap = r->bound_cap ? r->bound_cap * 2 : 8;
        const Value **grown = realloc(r->bound, (size_t)cap * sizeof *grown);
        if (!grown) return fail(r, PTO_ERR_MEMORY, "out of host memory");
        r->bound = grown;
        r->bound_cap = cap;
    }
    return PTO_OK;
}

pto_status pto_run_bind(pto_run *r, const char *name, const void *data, size_t nbytes, int dtype, int rank,
                        const int64_t *shape) {
    if (!r) return PTO_ERR_ARGUMENT;
    if (!name || (!data && nbytes) || rank < 0 || rank > PTO_MAX_RANK || (rank && !shape))
        return fail(r, PTO_ERR_ARGUMENT, "bad arguments to pto_run_bind");
    InterpBinding b;
    pto_status s = lookup_for_input(r, name, &b);
    if (s != PTO_OK) return s;
    if (b.kind == BIND_SCALAR)
        return fail(r, PTO_ERR_BINDING, "%s is a scalar argument: give it a value, not an array", b.display);
    if (b.kind == BIND_VIEW)
        return fail(r, PTO_ERR_BINDING, "%s is a view: bind the data to the pointer argument it views", b.display);
    DType dt = internal_dtype(dtype);
    if (dt != b.dtype)
        return fail(r, PTO_ERR_BINDING, "%s holds %s elements but the array is %s", b.display, dtype_name(b.dtype),
                    dt == DT_NONE ? "of an unknown dtype" : dtype_name(dt));
    int64_t count = 1;
    for (int i = 0; i < rank; i++)
        if (shape[i] < 0 || !checked_mul_i64(count, shape[i], &count))
            return fail(r, PTO_ERR_ARGUMENT, "bad shape for %s", b.display);
    size_t esize = dtype_size(dt);
    if (rank == 0) {
        if (nbytes % esize) return fail(r, PTO_ERR_BINDING, "%zu bytes are not a whole number of %s elements", nbytes, dtype_name(dt));
        count = (int64_t)(nbytes / esize);
    } else if ((uint64_t)count > SIZE_MAX / esize || (size_t)count * esize != nbytes) {
        return fail(r, PTO_ERR_BINDING, "%zu bytes do not hold the %lld %s elements of the shape", nbytes,
                    (long long)count, dtype_name(dt));
    }
    /* the interpreter copies the elements, so the array can point at the caller's memory */
    DataArray a = {.dtype = dt, .rank = rank ? rank : 1, .count = count, .data = (void *)data};
    if (rank) memcpy(a.shape, shape, (size_t)rank * sizeof *shape);
    else a.shape[0] = count;
    char err[256];
    bool ok = b.kind == BIND_GM ? interp_bind_gm(r->ip, &b, &a, err, sizeof err)
                                : interp_bind_tile(r->ip, &b, &a, err, sizeof err);
    if (!ok) return fail(r, strstr(err, "memory") ? PTO_ERR_MEMORY : PTO_ERR_BINDING, "%s", err);
    r->bound[r->n_bound++] = b.value;
    return PTO_OK;
}

pto_status pto_run_set_scalar_text(pto_run *r, const char *name, const char *text) {
    if (!r) return PTO_ERR_ARGUMENT;
    if (!name || !text) return fail(r, PTO_ERR_ARGUMENT, "bad arguments to pto_run_set_scalar_text");
    InterpBinding b;
    pto_status s = lookup_for_input(r, name, &b);
    if (s != PTO_OK) return s;
    if (b.kind != BIND_SCALAR)
        return fail(r, PTO_ERR_BINDING, "%s is not a scalar argument: bind an array to it", b.display);
    char err[256];
    if (!interp_bind_scalar(r->ip, &b, text, err, sizeof err)) return fail(r, PTO_ERR_BINDING, "%s", err);
    r->bound[r->n_bound++] = b.value;
    return PTO_OK;
}

/* The dtype of scalar argument `name` (DT_NONE, with a message, when it names none). */
static DType scalar_dtype(pto_run *r, const char *name) {
    InterpBinding b;
    char err[256];
    if (!r->ip || !name) return DT_NONE;
    if (!interp_lookup(r->ip, name, &b, err, sizeof err)) {
        fail(r, PTO_ERR_BINDING, "%s", err);
        return DT_NONE;
    }
    return b.kind == BIND_SCALAR ? b.dtype : DT_NONE;
}

/* Text for a float scalar of type `dt` holding `value` rounded once: its bit pattern in hex. */
static void float_text(DType dt, double value, char *text, size_t len) {
    if (dt == DT_F32) {
        float f = (float)value;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        snprintf(text, len, "0x%08x", (unsigned)bits);
    } else {
        unsigned bits = dt == DT_F16 ? f64_to_f16_bits(value) : f64_to_bf16_bits(value);
        snprintf(text, len, "0x%04x", bits);
    }
}

pto_status pto_run_set_scalar_i64(pto_run *r, const char *name, int64_t value) {
    if (!r) return PTO_ERR_ARGUMENT;
    char text[64];
    DType dt = scalar_dtype(r, name);
    if (dtype_is_float(dt)) float_text(dt, (double)value, text, sizeof text);
    else snprintf(text, sizeof text, "%lld", (long long)value);
    return pto_run_set_scalar_text(r, name, text);
}

pto_status pto_run_set_scalar_f64(pto_run *r, const char *name, double value) {
    if (!r) return PTO_ERR_ARGUMENT;
    char text[64];
    DType dt = scalar_dtype(r, name);
    if (dtype_is_float(dt)) {
        float_text(dt, value, text, sizeof text);
    } else if (dt != DT_NONE) {
        if (!(value == floor(value)) || fabs(value) >= 0x1p63)
            return fail(r, PTO_ERR_BINDING, "%%%s is %s: %.17g is not a whole number in its range", name[0] == '%' ? name + 1 : name,
                        dtype_name(dt), value);
        snprintf(text, sizeof text, "%lld", (long long)value);
    } else {
        snprintf(text, sizeof text, "%.17g", value); /* not a scalar: set_scalar_text says so */
    }
    return pto_run_set_scalar_text(r, name, text);
}

pto_status pto_run_execute(pto_run *r) {
    if (!r) return PTO_ERR_ARGUMENT;
    if (!r->ip) return fail(r, PTO_ERR_STATE, "the run could not be prepared");
    if (r->executed) return fail(r, PTO_ERR_STATE, "a run handle runs once; make a new one");
    r->executed = true;
    r->succeeded = interp_run(r->ip);
    fflush(r->out);
    diag_sort(&r->diags.list);
    if (!r->succeeded) return fail(r, PTO_ERR_RUN, "@%s stopped with a run-time error (see the diagnostics)", r->entry->name);
    r->message[0] = '\0';
    return PTO_OK;
}

pto_status pto_run_fetch(pto_run *r, const char *name, pto_array *out) {
    if (!r) return PTO_ERR_ARGUMENT;
    if (!name || !out) return fail(r, PTO_ERR_ARGUMENT, "bad arguments to pto_run_fetch");
    memset(out, 0, sizeof *out);
    if (!r->succeeded) return fail(r, PTO_ERR_STATE, "results are fetched after a successful run");
    InterpBinding b;
    char err[256];
    if (!interp_lookup(r->ip, name, &b, err, sizeof err)) return fail(r, PTO_ERR_BINDING, "%s", err);
    DataArray a;
    if (!interp_fetch(r->ip, &b, &a, err, sizeof err)) return fail(r, PTO_ERR_BINDING, "%s", err);
    if (a.rank > PTO_MAX_RANK) {
        data_array_free(&a);
        return fail(r, PTO_ERR_BINDING, "%s has more than %d dimensions", b.display, PTO_MAX_RANK);
    }
    out->data = a.data; /* malloc'd by data_array_alloc: pto_array_free frees it */
    out->nbytes = (size_t)a.count * dtype_size(a.dtype);
    out->dtype = public_dtype(a.dtype);
    out->rank = a.rank;
    memcpy(out->shape, a.shape, (size_t)a.rank * sizeof *out->shape);
    return PTO_OK;
}

const char *pto_run_message(const pto_run *r) { return r ? r->message : ""; }

const pto_diags *pto_run_diagnostics(const pto_run *r) { return r ? &r->diags : NULL; }

const char *pto_run_output(pto_run *r) {
    if (!r || !r->out) return "";
    fflush(r->out);
    return r->output ? r->output : "";
}

uint64_t pto_run_steps(const pto_run *r) { return r && r->ip && r->executed ? interp_steps(r->ip) : 0; }

void pto_run_free(pto_run *r) {
    if (!r) return;
    interp_destroy(r->ip);
    if (r->out) fclose(r->out);
    free(r->output);
    free(r->diags.text);
    free(r->bound);
    arena_free(r->arena);
    free(r);
}

void pto_array_free(pto_array *a) {
    if (!a) return;
    free(a->data);
    memset(a, 0, sizeof *a);
}
