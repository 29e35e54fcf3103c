/* fuzz_run.c - libFuzzer harness (b): executes every program the verifier accepts.
 *
 * The input is .pto text. When it parses and verifies, pto-run's steps follow: interp_create with
 * a small step budget (FUZZ_MAX_STEPS), a small memory budget (FUZZ_MAX_MEMORY) and the trace on;
 * bindings for the entry's arguments (pointer %arg0: a fixed 4096-element --in buffer; other
 * pointers grow on demand; scalars: 3); --in data for the first top-level pto.alloc_tile result
 * (its static valid size, or rows x cols for a dynamic valid shape); interp_run; then
 * interp_fetch, compare and print of every argument and of that tile, as --out, --expect and
 * --print would. Run-time errors are fine; a crash, a leak, a sanitizer report or a hang is not. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "interp.h"
#include "parser.h"
#include "verifier.h"

#define FUZZ_MAX_STEPS 10000
#define FUZZ_GM_ELEMS 4096
#define FUZZ_MAX_MEMORY ((int64_t)64 << 20) /* GM buffers + frames; the real default is 4 GiB */

/* A deterministic array of `count` elements whose bytes cover interesting values. */
static bool make_input(DataArray *a, DType dt, int64_t count) {
    char err[256];
    if (!data_array_alloc(a, dt, count, -1, err, sizeof err)) return false;
    uint8_t *p = a->data;
    size_t n = (size_t)count * dtype_size(dt);
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 37u + 11u);
    return true;
}

/* The first result of a top-level pto.alloc_tile in `f`, or NULL; *count: its static valid
 * element count, or for a dynamic valid shape rows * cols (the run then checks the real one). */
static const Value *first_alloc(const Func *f, int64_t *count) {
    if (!f->body.block) return NULL;
    for (const Op *op = f->body.block->first; op; op = op->next) {
        if (op->code != OP_ALLOC_TILE || op->n_results < 1 || !op->results[0] || !op->results[0]->type) continue;
        const TileType *t = &op->results[0]->type->tile;
        if (op->results[0]->type->kind != TY_TILE) continue;
        bool dynamic = t->valid_rows == DIM_DYNAMIC || t->valid_cols == DIM_DYNAMIC;
        int64_t r = dynamic ? t->rows : t->valid_rows, c = dynamic ? t->cols : t->valid_cols;
        if (r < 0 || c < 0 || r > (1 << 16) || c > (1 << 16) || r * c > (1 << 20)) continue;
        *count = r * c;
        return op->results[0];
    }
    return NULL;
}

static void fetch_and_drop(const Interp *ip, FILE *sink, const InterpBinding *b) {
    DataArray got;
    char err[256];
    if (interp_fetch(ip, b, &got, err, sizeof err)) {
        data_array_print(sink, b->display, &got);
        CompareOptions co = {0};
        data_array_compare(sink, b->display, &got, &got, &co, err, sizeof err);
        data_array_free(&got);
    }
}

static void run_module(const Module *m, Target target, FILE *sink, DiagList *diags) {
    InterpOptions io = {.target = target, .entry = NULL, .max_steps = FUZZ_MAX_STEPS,
                      .max_memory = FUZZ_MAX_MEMORY, .trace = true, .out = sink};
    Interp *ip = interp_create(m, &io, diags);
    if (!ip) return;
    const Func *e = module_entry(m, NULL);
    char err[256];
    InterpBinding b;
    for (int a = 0; e && a < e->n_args; a++) {
        char name[32];
        snprintf(name, sizeof name, "arg%d", a);
        if (!interp_lookup(ip, name, &b, err, sizeof err)) continue;
        if (b.kind == BIND_SCALAR) {
            interp_bind_scalar(ip, &b, "3", err, sizeof err);
        } else if (b.kind == BIND_GM && a == 0) {
            DataArray d;
            if (make_input(&d, b.dtype, FUZZ_GM_ELEMS)) {
                interp_bind_gm(ip, &b, &d, err, sizeof err);
                data_array_free(&d);
            }
        }
    }
    int64_t tile_count = 0;
    const Value *tile = e ? first_alloc(e, &tile_count) : NULL;
    InterpBinding tb;
    bool have_tile = tile && interp_lookup(ip, tile->name, &tb, err, sizeof err) && tb.kind == BIND_TILE;
    if (have_tile) {
        DataArray d;
        if (make_input(&d, tb.dtype, tile_count)) {
            interp_bind_tile(ip, &tb, &d, err, sizeof err);
            data_array_free(&d);
        }
    }
    bool ok = interp_run(ip);
    if (ok) {
        for (int a = 0; e && a < e->n_args; a++) {
            char name[32];
            snprintf(name, sizeof name, "arg%d", a);
            if (interp_lookup(ip, name, &b, err, sizeof err)) fetch_and_drop(ip, sink, &b);
        }
        if (have_tile) fetch_and_drop(ip, sink, &tb);
    }
    interp_destroy(ip);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FILE *sink = fuzz_sink();
    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *sf = source_file_from_string(arena, "<fuzz>", (const char *)data, size);
    Module *m = parse_module(arena, sf, &diags);
    if (m && diags.errors == 0) {
        VerifyOptions vo = {.target = TARGET_A2A3, .target_given = false, .entry = NULL};
        if (verify_module(m, &vo, &diags) && diags.errors == 0) run_module(m, verify_effective_target(m, &vo), sink, &diags);
    }
    fuzz_print_diags(sink, &diags);
    arena_free(arena);
    fclose(sink);
    return 0;
}
