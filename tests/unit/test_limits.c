/* test_limits.c - the robustness limits of issue #6 (docs/robustness.md) at the library level:
 * the diagnostic cap, pto-run's memory budget for frames and GM buffers (with a small
 * InterpOptions.max_memory), raw .bin data beginning with the .npy magic, float literals beyond
 * the double range, the function index and the lexer's one-pass classification of `%a, %b, ...`
 * lists (both were quadratic). The command-line side of each limit is in tests/errors/. */
#define _DEFAULT_SOURCE /* open_memstream, mkstemps */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interp.h"
#include "lexer.h"
#include "parser.h"
#include "verifier.h"

/* Prints a diagnostic list to a fresh malloc'd string. */
static char *diags_text(const DiagList *d) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    diag_print_text(f, d);
    fclose(f);
    return buf;
}

Test(limits, diagnostics_are_capped_and_counted) {
    Arena *a = arena_new();
    DiagList d;
    diag_init(&d, a);
    cr_assert_eq(d.max_errors, DIAG_MAX_ERRORS);
    SrcLoc loc = {1, 1, 0, 1};
    for (int i = 0; i < DIAG_MAX_ERRORS + 500; i++) diag_report(&d, NULL, SEV_ERROR, loc, NULL, "error %d", i);
    diag_report(&d, NULL, SEV_WARNING, loc, NULL, "a warning is still recorded");
    cr_assert_eq(d.count, (size_t)DIAG_MAX_ERRORS + 1);
    cr_assert_eq(d.errors, (size_t)DIAG_MAX_ERRORS + 500);
    char *text = diags_text(&d);
    const char *note = "note: 500 more errors not shown (at most 1000 are reported)\n";
    size_t n = strlen(text), m = strlen(note);
    cr_assert(n >= m && strcmp(text + n - m, note) == 0, "last line: %s", n >= 80 ? text + n - 80 : text);
    free(text);
    arena_free(a);
}

/* A line over DIAG_MAX_EXCERPT bytes is shown as a window around the column, cut with "...",
 * and the caret stays under the column (issue 13). */
Test(limits, long_lines_are_windowed_around_the_column) {
    Arena *a = arena_new();
    size_t len = 10000;
    char *src = malloc(len + 1);
    memset(src, 'x', len);
    src[len] = '\0';
    SourceFile *f = source_file_from_string(a, "long.pto", src, len);
    DiagList d;
    diag_init(&d, a);
    diag_report(&d, f, SEV_ERROR, (SrcLoc){1, 5000, 4999, 1}, NULL, "in the middle");
    char *text = diags_text(&d);
    /* the window starts DIAG_EXCERPT_WINDOW / 3 bytes before the column */
    size_t before = DIAG_EXCERPT_WINDOW / 3;
    char expected[1024];
    char window[DIAG_EXCERPT_WINDOW + 1];
    memset(window, 'x', DIAG_EXCERPT_WINDOW);
    window[DIAG_EXCERPT_WINDOW] = '\0';
    snprintf(expected, sizeof expected, "long.pto:1:5000: error: in the middle\n  ...%s...\n  %*s^\n", window,
             (int)(3 + before), "");
    cr_assert_str_eq(text, expected);
    free(text);
    free(src);
    arena_free(a);
}

/* The caret under a long line's excerpt points at the byte of the column, wherever it is on the
 * line (start, middle, end), and the excerpt is cut with "..." only where bytes are left out. */
Test(limits, long_line_caret_points_at_the_column) {
    size_t len = 3000;
    size_t cols[] = {1, 10, 70, 1500, 2990, 3000};
    for (size_t k = 0; k < sizeof cols / sizeof *cols; k++) {
        Arena *a = arena_new();
        char *src = malloc(len + 2);
        for (size_t i = 0; i < len; i++) src[i] = (char)('a' + i % 26);
        src[cols[k] - 1] = 'Y';
        src[len] = '\n';
        src[len + 1] = '\0';
        SourceFile *f = source_file_from_string(a, "long.pto", src, len + 1);
        DiagList d;
        diag_init(&d, a);
        diag_report(&d, f, SEV_ERROR, (SrcLoc){1, (uint32_t)cols[k], (uint32_t)cols[k] - 1, 1}, NULL, "here");
        char *text = diags_text(&d);
        char *excerpt = strchr(text, '\n') + 1, *caret_line = strchr(excerpt, '\n') + 1;
        size_t caret = strcspn(caret_line, "^");
        cr_assert(caret_line[caret] == '^', "no caret: %s", text);
        cr_assert_eq(excerpt[caret], 'Y', "column %zu: caret at '%c'\n%s", cols[k], excerpt[caret], text);
        size_t shown = (size_t)(caret_line - excerpt) - 1;
        cr_assert(shown <= DIAG_EXCERPT_WINDOW + 2 + 6, "column %zu: excerpt of %zu bytes", cols[k], shown);
        cr_assert_eq(strncmp(excerpt, "  ...", 5) == 0, cols[k] > DIAG_EXCERPT_WINDOW / 3 + 1, "column %zu: %.12s", cols[k],
                     excerpt);
        cr_assert_eq(strncmp(caret_line - 4, "...", 3) == 0, cols[k] < len - DIAG_EXCERPT_WINDOW, "column %zu", cols[k]);
        free(text);
        free(src);
        arena_free(a);
    }
}

/* Parses, verifies and lowers `text` with a memory budget of `max_memory` bytes. */
typedef struct Loaded {
    Arena *arena;
    DiagList diags;
    Interp *ip;
} Loaded;

static void load(Loaded *l, const char *text, int64_t max_memory) {
    l->arena = arena_new();
    diag_init(&l->diags, l->arena);
    SourceFile *f = source_file_from_string(l->arena, "t.pto", text, strlen(text));
    Module *m = parse_module(l->arena, f, &l->diags);
    cr_assert(m && l->diags.errors == 0);
    VerifyOptions vo = {.target = TARGET_A2A3, .target_given = true};
    cr_assert(verify_module(m, &vo, &l->diags));
    InterpOptions io = {.target = TARGET_A2A3, .max_memory = max_memory};
    l->ip = interp_create(m, &io, &l->diags);
    cr_assert_not_null(l->ip);
}

static void unload(Loaded *l) {
    interp_destroy(l->ip);
    arena_free(l->arena);
}

Test(limits, frames_count_against_the_memory_budget) {
    /* one 64 KiB auto tile: the entry frame alone exceeds a 32 KiB budget */
    Loaded l;
    load(&l, "%t = pto.alloc_tile : !pto.tile_buf<vec, 128x128xf32>\n"
             "%c = arith.constant 1.0 : f32\n"
             "pto.texpands ins(%c : f32) outs(%t : !pto.tile_buf<vec, 128x128xf32>)\n",
         32 << 10);
    cr_assert_not(interp_run(l.ip));
    cr_assert_eq(l.diags.errors, 1);
    cr_assert(strstr(l.diags.items[0].message, "over pto-run's memory limit of 32768 bytes for GM buffers and frames"),
              "%s", l.diags.items[0].message);
    unload(&l);
}

static const char *gm_prog = "module {\n"
                             "  func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>) {\n"
                             "    %c1 = arith.constant 1 : index\n"
                             "    %n = arith.constant 4096 : index\n"
                             "    %v = pto.make_tensor_view %arg1, shape = [%c1, %n], strides = [%n, %c1] : "
                             "!pto.tensor_view<?x?xf32>\n"
                             "    return\n"
                             "  }\n"
                             "}\n";

Test(limits, gm_buffers_count_against_the_memory_budget) {
    /* --in data of 12 KiB plus a 16 KiB view: the view is refused under a 24 KiB budget ... */
    Loaded l;
    load(&l, gm_prog, 24 << 10);
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(l.ip, "arg0", &b, err, sizeof err), "%s", err);
    DataArray d;
    cr_assert(data_array_alloc(&d, DT_F32, 3072, -1, err, sizeof err));
    cr_assert(interp_bind_gm(l.ip, &b, &d, err, sizeof err), "%s", err);
    cr_assert_not(interp_run(l.ip));
    cr_assert(strstr(l.diags.items[0].message, "view on %arg1 reaches 4096 elements (16384 bytes), over pto-run's "
                                               "memory limit of 24576 bytes"),
              "%s", l.diags.items[0].message);
    unload(&l);
    /* ... and --in data larger than the whole budget is refused when it is bound */
    load(&l, gm_prog, 8 << 10);
    cr_assert(interp_lookup(l.ip, "arg0", &b, err, sizeof err), "%s", err);
    cr_assert_not(interp_bind_gm(l.ip, &b, &d, err, sizeof err));
    cr_assert_str_eq(err, "%arg0: 12288 bytes of data exceed pto-run's memory limit of 8192 bytes for GM buffers and "
                          "frames");
    data_array_free(&d);
    unload(&l);
    /* the same program runs under the default budget */
    load(&l, gm_prog, 0);
    cr_assert(interp_run(l.ip));
    unload(&l);
}

Test(limits, bin_file_starting_with_npy_magic_is_raw) {
    char path[] = "/tmp/pto-limits-XXXXXX.bin";
    int fd = mkstemps(path, 4);
    cr_assert(fd >= 0);
    close(fd);
    DataArray a;
    char err[256];
    cr_assert(data_array_alloc(&a, DT_U8, 64, -1, err, sizeof err));
    memcpy(a.data, "\x93NUMPY\x01\x00\x10\x00", 10);
    cr_assert(datafile_write(path, &a, err, sizeof err), "%s", err);
    DataArray back;
    cr_assert(datafile_read(path, DT_U8, &back, err, sizeof err), "%s", err);
    cr_assert_eq(back.count, 64);
    cr_assert_eq(memcmp(back.data, a.data, 64), 0);
    data_array_free(&back);
    data_array_free(&a);
    unlink(path);
}

Test(limits, float_literal_beyond_double_is_an_error) {
    Arena *a = arena_new();
    DiagList d;
    diag_init(&d, a);
    const char *text = "%a = arith.constant -1.0e400 : f32\n%b = arith.constant 1.0e-400 : f32\n";
    SourceFile *f = source_file_from_string(a, "t.pto", text, strlen(text));
    parse_module(a, f, &d);
    cr_assert_eq(d.errors, 1); /* underflow to zero is not an error */
    cr_assert_str_eq(d.items[0].message, "float literal '-1.0e400' is out of the 64-bit range");
    cr_assert_eq(d.items[0].loc.line, 1);
    cr_assert_eq(d.items[0].loc.col, 21);
    arena_free(a);
}

Test(limits, functions_are_found_through_the_index) {
    Arena *a = arena_new();
    DiagList d;
    diag_init(&d, a);
    const char *text = "module {\n"
                       "  func.func private @helper(%x: index)\n"
                       "  func.func @kernel() attributes {pto.entry} {\n"
                       "    %c = arith.constant 1 : index\n"
                       "    func.call @helper(%c) : (index) -> ()\n"
                       "    return\n"
                       "  }\n"
                       "}\n";
    SourceFile *f = source_file_from_string(a, "t.pto", text, strlen(text));
    Module *m = parse_module(a, f, &d);
    cr_assert(m && d.errors == 0);
    cr_assert_not_null(m->func_slots, "the parser indexes the functions");
    cr_assert_eq(module_func_index(m, "helper"), 0);
    cr_assert_eq(module_func_index(m, "kernel"), 1);
    cr_assert_eq(module_func_index(m, "missing"), -1);
    cr_assert_eq(module_find_func(m, "kernel"), m->funcs[1]);
    arena_free(a);
}

/* Kinds of the `%` tokens of `text`, as a string of 'D' (definition) and 'V' (use). */
static void value_kinds(const char *text, char *out, size_t len) {
    Arena *a = arena_new();
    SourceFile *f = source_file_from_string(a, "t.pto", text, strlen(text));
    Lexer lx;
    lexer_init(&lx, f);
    size_t n = 0;
    for (Token t = lexer_next(&lx); t.kind != TK_EOF && n + 1 < len; t = lexer_next(&lx))
        if (t.kind == TK_VALUE_DEF || t.kind == TK_VALUE) out[n++] = t.kind == TK_VALUE_DEF ? 'D' : 'V';
    out[n] = '\0';
    arena_free(a);
}

Test(limits, value_lists_are_classified_once) {
    char k[32];
    value_kinds("%a, %b, %c = f\n", k, sizeof k);
    cr_assert_str_eq(k, "DDD");
    value_kinds("g(%a, %b, %c)\n", k, sizeof k);
    cr_assert_str_eq(k, "VVV");
    value_kinds("%a,\n  %b = f %c, %d\n", k, sizeof k);
    cr_assert_str_eq(k, "DDVV");
    value_kinds("%a, %b == %c, 3\n", k, sizeof k);
    cr_assert_str_eq(k, "VVV");
    value_kinds("%a, %b, 7 = x\n", k, sizeof k);
    cr_assert_str_eq(k, "VV");
}
