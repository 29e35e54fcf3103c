/* prog.h - shared by the unit tests that run whole programs: parse (and verify) a text, create the
 * interpreter, run it, fetch a value's data. Static functions: include it in one test file each. */
#ifndef PTO_TEST_PROG_H
#define PTO_TEST_PROG_H

#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "parser.h"
#include "verifier.h"

typedef struct Prog {
    Arena *arena;
    DiagList diags;
    Module *m;
    Interp *ip;
    char *out;
    size_t out_len;
    FILE *outf;
    char diag_buf[4096];
} Prog;

/* The diagnostics so far, as pto-run prints them. */
static const char *prog_diags(Prog *p) {
    FILE *f = fmemopen(p->diag_buf, sizeof p->diag_buf - 1, "w");
    diag_print_text(f, &p->diags);
    fclose(f);
    return p->diag_buf;
}

/* Parses and verifies `text` for `target` and creates the interpreter; asserts that this succeeds. */
static void prog_load(Prog *p, const char *text, Target target) {
    memset(p, 0, sizeof *p);
    p->arena = arena_new();
    diag_init(&p->diags, p->arena);
    SourceFile *file = source_file_from_string(p->arena, "t.pto", text, strlen(text));
    p->m = parse_module(p->arena, file, &p->diags);
    cr_assert(p->m && p->diags.errors == 0, "parse: %s", prog_diags(p));
    VerifyOptions v = {.target = target, .target_given = true};
    cr_assert(verify_module(p->m, &v, &p->diags), "verify: %s", prog_diags(p));
    p->outf = open_memstream(&p->out, &p->out_len);
    InterpOptions io = {.target = target, .out = p->outf};
    p->ip = interp_create(p->m, &io, &p->diags);
    cr_assert_not_null(p->ip, "lower: %s", prog_diags(p));
}

/* Runs the program; true on success (diagnostics in p->diags otherwise). */
static bool prog_run(Prog *p) {
    bool ok = interp_run(p->ip);
    fflush(p->outf);
    return ok;
}

/* The valid region of value `name` after the run, as a new array (data_array_free it). */
static DataArray prog_fetch(Prog *p, const char *name) {
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(p->ip, name, &b, err, sizeof err), "%s", err);
    DataArray a;
    cr_assert(interp_fetch(p->ip, &b, &a, err, sizeof err), "%s", err);
    return a;
}

/* Gives tile `name` its input: rows x cols elements of `dt` from `data` (row-major, its valid region). */
static inline void prog_bind_tile(Prog *p, const char *name, DType dt, int64_t rows, int64_t cols, const void *data) {
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(p->ip, name, &b, err, sizeof err), "%s", err);
    DataArray a;
    cr_assert(data_array_alloc(&a, dt, rows, cols, err, sizeof err), "%s", err);
    memcpy(a.data, data, (size_t)(rows * cols) * dtype_size(dt));
    cr_assert(interp_bind_tile(p->ip, &b, &a, err, sizeof err), "%s", err);
    data_array_free(&a);
}

/* Frees everything the program holds. */
static void prog_unload(Prog *p) {
    interp_destroy(p->ip);
    fclose(p->outf);
    free(p->out);
    arena_free(p->arena);
}

#endif
