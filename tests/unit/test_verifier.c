/* test_verifier.c - the verifier's rules, one case per rule and target (a failing program and its
 * passing neighbour), the helpers behind them (scalar conversion, constants), the memory plan,
 * defensive re-checks on IR that did not come from the parser, and robustness on odd input. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "parser.h"
#include "vctx.h"
#include "verifier.h"

typedef struct Run {
    Arena *arena;
    DiagList diags;
    SourceFile *file;
    Module *module;
} Run;

static Run run;

static void run_free(void) {
    arena_free(run.arena);
    memset(&run, 0, sizeof run);
}

/* Parses `text` (which must parse without a diagnostic) into run.module. */
static void parse_text(const char *text) {
    run_free();
    run.arena = arena_new();
    diag_init(&run.diags, run.arena);
    run.file = source_file_from_string(run.arena, "v.pto", text, strlen(text));
    run.module = parse_module(run.arena, run.file, &run.diags);
    cr_assert_not_null(run.module);
    cr_assert_eq(run.diags.count, 0, "parse diagnostic: %s\n%s", run.diags.count ? run.diags.items[0].message : "",
                 text);
}

static bool verify_as(Target target) {
    VerifyOptions opts = {.target = target, .target_given = true};
    return verify_module(run.module, &opts, &run.diags);
}

/* Parses and verifies `text` for `target`. */
static void check_text(const char *text, Target target) {
    parse_text(text);
    verify_as(target);
}

static size_t count_rule(const char *rule, Severity sev) {
    size_t n = 0;
    for (size_t i = 0; i < run.diags.count; i++) {
        const Diag *d = &run.diags.items[i];
        if (d->severity == sev && d->rule && strcmp(d->rule, rule) == 0) n++;
    }
    return n;
}

static const Diag *find_rule(const char *rule) {
    for (size_t i = 0; i < run.diags.count; i++)
        if (run.diags.items[i].rule && strcmp(run.diags.items[i].rule, rule) == 0) return &run.diags.items[i];
    return NULL;
}

/* Errors plus warnings (notes excluded). */
static size_t count_findings(void) { return run.diags.errors + run.diags.warnings; }

static const char *all_messages(void) {
    const char *s = "";
    for (size_t i = 0; i < run.diags.count; i++)
        s = arena_printf(run.arena, "%s\n  %s [%s]", s, run.diags.items[i].message,
                         run.diags.items[i].rule ? run.diags.items[i].rule : "-");
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* Program builders                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Each builder allocates every tile with its own type and writes one DPS op (text in a static
 * arena that lives until the next builder call of the same test). */
static Arena *text_arena;

static void text_arena_reset(void) {
    arena_free(text_arena);
    text_arena = arena_new();
}

static const char *rowexpand(const char *op, const char *t0, const char *t1, const char *tmp, const char *td) {
    if (!tmp)
        return arena_printf(text_arena,
                            "%%s0 = pto.alloc_tile : %s\n%%s1 = pto.alloc_tile : %s\n%%d = pto.alloc_tile : %s\n"
                            "pto.%s ins(%%s0, %%s1 : %s, %s) outs(%%d : %s)\n",
                            t0, t1, td, op, t0, t1, td);
    return arena_printf(text_arena,
                        "%%s0 = pto.alloc_tile : %s\n%%s1 = pto.alloc_tile : %s\n%%t = pto.alloc_tile : %s\n"
                        "%%d = pto.alloc_tile : %s\npto.%s ins(%%s0, %%s1, %%t : %s, %s, %s) outs(%%d : %s)\n",
                        t0, t1, tmp, td, op, t0, t1, tmp, td);
}

static const char *trowprod(const char *ts, const char *tmp, const char *td) {
    return arena_printf(text_arena,
                        "%%s = pto.alloc_tile : %s\n%%t = pto.alloc_tile : %s\n%%d = pto.alloc_tile : %s\n"
                        "pto.trowprod ins(%%s, %%t : %s, %s) outs(%%d : %s)\n",
                        ts, tmp, td, ts, tmp, td);
}

static const char *tmuls(const char *ts, const char *scalar, const char *stype, const char *td) {
    return arena_printf(text_arena,
                        "%%s = pto.alloc_tile : %s\n%%d = pto.alloc_tile : %s\n"
                        "pto.tmuls ins(%%s, %s : %s, %s) outs(%%d : %s)\n",
                        ts, td, scalar, ts, stype, td);
}

static const char *texpands(const char *scalar, const char *stype, const char *td) {
    return arena_printf(text_arena, "%%d = pto.alloc_tile : %s\npto.texpands ins(%s : %s) outs(%%d : %s)\n", td, scalar,
                        stype, td);
}

#define T16x32 "!pto.tile_buf<vec, 16x32xf32>"
#define COL16 "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"
#define BLK16 "!pto.tile_buf<vec, 16x8xf32>"
#define TMP512 "!pto.tile_buf<vec, 1x128xf32>"
#define S16 "!pto.tile_buf<vec, 16x16xf32>"
#define DN16 "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"

/* One rule case: `rule` is reported `count` times with severity `sev`, and nothing else is. */
typedef struct RuleCase {
    const char *what;
    Target target;
    const char *text;
    const char *rule;
    Severity sev;
    size_t count;
} RuleCase;

static void expect_cases(const RuleCase *cases, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const RuleCase *c = &cases[i];
        check_text(c->text, c->target);
        size_t got = c->rule ? count_rule(c->rule, c->sev) : 0;
        cr_expect_eq(got, c->count, "%s (%s): %s reported %zu times, want %zu;%s", c->what, target_name(c->target),
                     c->rule ? c->rule : "-", got, c->count, all_messages());
        cr_expect_eq(count_findings(), c->count, "%s (%s): %zu findings, want %zu;%s", c->what, target_name(c->target),
                     count_findings(), c->count, all_messages());
    }
}

#define A2 TARGET_A2A3
#define A5 TARGET_A5

TestSuite(verifier, .init = text_arena_reset, .fini = run_free);

/* ------------------------------------------------------------------------------------------ */
/* Targets                                                                                     */
/* ------------------------------------------------------------------------------------------ */

Test(verifier, effective_target) {
    parse_text("module attributes {pto.target_arch = \"a5\"} {\n func.func @f() {\n return\n }\n}\n");
    VerifyOptions none = {0};
    cr_expect_eq(verify_effective_target(run.module, &none), TARGET_A5);
    VerifyOptions given = {.target = TARGET_A2A3, .target_given = true};
    cr_expect_eq(verify_effective_target(run.module, &given), TARGET_A2A3, "--target wins over the module");
    parse_text("func.func @f() {\n return\n}\n");
    cr_expect_eq(verify_effective_target(run.module, &none), TARGET_A2A3, "A2A3 is the default");
    cr_expect_eq(verify_effective_target(run.module, NULL), TARGET_A2A3);
}

Test(verifier, module_attribute_selects_rules) {
    const char *body = "%%u = pto.alloc_tile : !pto.tile_buf<vec, 16x16xui16>\n"
                       "pto.tmuls ins(%%u, 3 : !pto.tile_buf<vec, 16x16xui16>, i32) outs(%%u : "
                       "!pto.tile_buf<vec, 16x16xui16>)\n";
    const char *text = arena_printf(
        text_arena, "module attributes {pto.target_arch = \"a5\"} {\n func.func @f() {\n%s return\n }\n}\n",
        arena_printf(text_arena, body));
    parse_text(text);
    VerifyOptions none = {0};
    cr_expect(verify_module(run.module, &none, &run.diags), "%s", all_messages());
    parse_text(text);
    VerifyOptions a2 = {.target = TARGET_A2A3, .target_given = true};
    cr_expect_not(verify_module(run.module, &a2, &run.diags));
    cr_expect_eq(count_rule("TMULS.dtype", SEV_ERROR), 1);
}

Test(verifier, buffer_capacities) {
    cr_expect_eq(buffer_capacity_bytes(TARGET_A2A3, LOC_VEC), 196608);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A5, LOC_VEC), 262144);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A2A3, LOC_MAT), 524288);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A5, LOC_LEFT), 65536);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A2A3, LOC_ACC), 131072);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A5, LOC_ACC), 262144);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A2A3, LOC_BIAS), 1024);
    cr_expect_eq(buffer_capacity_bytes(TARGET_A5, LOC_SCALING), 4096);
}

/* ------------------------------------------------------------------------------------------ */
/* Seed rules                                                                                  */
/* ------------------------------------------------------------------------------------------ */

Test(verifier, trowexpandmul_rules) {
    const char *m = "trowexpandmul";
    RuleCase cases[] = {
        {"mode 1", A2, rowexpand(m, T16x32, COL16, NULL, T16x32), NULL, SEV_ERROR, 0},
        {"mode 2", A2, rowexpand(m, T16x32, BLK16, NULL, T16x32), NULL, SEV_ERROR, 0},
        {"src0 expanded", A2, rowexpand(m, COL16, T16x32, NULL, T16x32), NULL, SEV_ERROR, 0},
        {"bf16", A2,
         rowexpand(m, "!pto.tile_buf<vec, 16x32xbf16>", "!pto.tile_buf<vec, 16x1xbf16, blayout=col_major>", NULL,
                   "!pto.tile_buf<vec, 16x32xbf16>"),
         "TROWEXPANDMUL.dtype", SEV_ERROR, 1},
        {"u32 on A2A3", A2,
         rowexpand(m, "!pto.tile_buf<vec, 16x32xui32>", "!pto.tile_buf<vec, 16x8xui32>", NULL,
                   "!pto.tile_buf<vec, 16x32xui32>"),
         "TROWEXPANDMUL.dtype", SEV_ERROR, 1},
        {"u32 on A5", A5,
         rowexpand(m, "!pto.tile_buf<vec, 16x32xui32>", "!pto.tile_buf<vec, 16x8xui32>", NULL,
                   "!pto.tile_buf<vec, 16x32xui32>"),
         NULL, SEV_ERROR, 0},
        {"dtype match", A2, rowexpand(m, T16x32, "!pto.tile_buf<vec, 16x1xf16, blayout=col_major>", NULL, T16x32),
         "TROWEXPANDMUL.dtype-match", SEV_ERROR, 1},
        {"dst col major", A2, rowexpand(m, T16x32, COL16, NULL, "!pto.tile_buf<vec, 16x32xf32, blayout=col_major>"),
         "TROWEXPANDMUL.dst-layout", SEV_ERROR, 1},
        {"both full", A2, rowexpand(m, T16x32, T16x32, NULL, T16x32), "TROWEXPANDMUL.full-operand", SEV_ERROR, 0},
        {"none full", A2, rowexpand(m, S16, BLK16, NULL, T16x32), "TROWEXPANDMUL.full-operand", SEV_ERROR, 1},
        {"full col major", A2, rowexpand(m, "!pto.tile_buf<vec, 16x32xf32, blayout=col_major>", BLK16, NULL, T16x32),
         "TROWEXPANDMUL.full-layout", SEV_ERROR, 1},
        {"mode 1 cols", A2, rowexpand(m, T16x32, "!pto.tile_buf<vec, 16x2xf32, blayout=col_major>", NULL, T16x32),
         "TROWEXPANDMUL.mode1-cols", SEV_ERROR, 1},
        {"mode 1 rows", A2, rowexpand(m, T16x32, "!pto.tile_buf<vec, 8x1xf32, blayout=col_major>", NULL, T16x32),
         "TROWEXPANDMUL.mode1-rows", SEV_ERROR, 1},
        {"mode 2 cols", A2, rowexpand(m, T16x32, S16, NULL, T16x32), "TROWEXPANDMUL.mode2-cols", SEV_ERROR, 1},
        {"mode 2 rows", A2, rowexpand(m, T16x32, "!pto.tile_buf<vec, 8x8xf32>", NULL, T16x32),
         "TROWEXPANDMUL.mode2-rows", SEV_ERROR, 1},
        {"mode 2 not packed", A2, rowexpand(m, T16x32, "!pto.tile_buf<vec, 16x16xf32, valid=16x8>", NULL, T16x32),
         "TROWEXPANDMUL.mode2-packed", SEV_WARNING, 1},
        {"mode 1 wide on A5", A5,
         rowexpand(m, T16x32, "!pto.tile_buf<vec, 16x8xf32, valid=16x1, blayout=col_major>", NULL, T16x32),
         "TROWEXPANDMUL.mode1-packed", SEV_WARNING, 1},
        {"mode 1 wide on A2A3", A2,
         rowexpand(m, T16x32, "!pto.tile_buf<vec, 16x8xf32, valid=16x1, blayout=col_major>", NULL, T16x32), NULL,
         SEV_WARNING, 0},
        {"tmp exactly big enough", A2, rowexpand(m, T16x32, COL16, TMP512, T16x32), NULL, SEV_ERROR, 0},
        {"tmp too small", A2, rowexpand(m, T16x32, COL16, "!pto.tile_buf<vec, 1x120xf32>", T16x32),
         "TROWEXPANDMUL.tmp-size", SEV_ERROR, 1},
        {"tmp size ignored on A5", A5, rowexpand(m, T16x32, COL16, "!pto.tile_buf<vec, 1x8xf32>", T16x32), NULL,
         SEV_ERROR, 0},
        {"tmp with mode 2", A2, rowexpand(m, T16x32, BLK16, TMP512, T16x32), "TROWEXPANDMUL.tmp-mode", SEV_ERROR, 1},
        {"tmp with mode 2 on A5", A5, rowexpand(m, T16x32, BLK16, TMP512, T16x32), "TROWEXPANDMUL.tmp-mode", SEV_ERROR,
         1},
        {"tmp dtype", A2, rowexpand(m, T16x32, COL16, "!pto.tile_buf<vec, 1x256xf16>", T16x32),
         "TROWEXPANDMUL.tmp-dtype", SEV_ERROR, 1},
        {"tmp loc", A2, rowexpand(m, T16x32, COL16, "!pto.tile_buf<mat, 1x128xf32>", T16x32), "TROWEXPANDMUL.tmp-loc",
         SEV_ERROR, 1},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

Test(verifier, trowexpandsub_rules) {
    const char *s = "trowexpandsub";
    RuleCase cases[] = {
        {"f16", A2,
         rowexpand(s, "!pto.tile_buf<vec, 16x32xf16>", "!pto.tile_buf<vec, 16x16xf16>", NULL,
                   "!pto.tile_buf<vec, 16x32xf16>"),
         NULL, SEV_ERROR, 0},
        {"i16 on A2A3", A2,
         rowexpand(s, "!pto.tile_buf<vec, 16x32xi16>", "!pto.tile_buf<vec, 16x1xi16, blayout=col_major>", NULL,
                   "!pto.tile_buf<vec, 16x32xi16>"),
         "TROWEXPANDSUB.dtype", SEV_ERROR, 1},
        {"i32 on A5", A5,
         rowexpand(s, "!pto.tile_buf<vec, 16x32xi32>", "!pto.tile_buf<vec, 16x1xi32, blayout=col_major>", NULL,
                   "!pto.tile_buf<vec, 16x32xi32>"),
         "TROWEXPANDSUB.dtype", SEV_ERROR, 1},
        {"mode 1 rows", A2, rowexpand(s, T16x32, "!pto.tile_buf<vec, 8x1xf32, blayout=col_major>", NULL, T16x32),
         "TROWEXPANDSUB.mode1-rows", SEV_ERROR, 1},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

Test(verifier, row_expand_rule_ids_carry_the_op) {
    check_text(rowexpand("trowexpandsub", T16x32, S16, NULL, T16x32), A2);
    const Diag *d = find_rule("TROWEXPANDSUB.mode2-cols");
    cr_assert_not_null(d, "%s", all_messages());
    cr_expect(strstr(d->message, "'pto.trowexpandsub' op ") == d->message, "%s", d->message);
    cr_expect_eq(d->severity, SEV_ERROR);
}

Test(verifier, trowprod_rules) {
    RuleCase cases[] = {
        {"DN dst", A2, trowprod(S16, S16, DN16), NULL, SEV_ERROR, 0},
        {"ND dst", A2, trowprod(S16, S16, "!pto.tile_buf<vec, 16x8xf32, valid=16x1>"), NULL, SEV_ERROR, 0},
        {"src in mat", A2, trowprod("!pto.tile_buf<mat, 16x16xf32>", S16, DN16), "TROWPROD.loc", SEV_ERROR, 1},
        {"dst in mat", A5, trowprod(S16, S16, "!pto.tile_buf<mat, 16x1xf32, blayout=col_major>"), "TROWPROD.loc",
         SEV_ERROR, 1},
        {"src col major", A2, trowprod("!pto.tile_buf<vec, 16x16xf32, blayout=col_major>", S16, DN16),
         "TROWPROD.src-layout", SEV_ERROR, 1},
        {"src boxed", A2, trowprod("!pto.tile_buf<vec, 16x16xf32, slayout=row_major>", S16, DN16),
         "TROWPROD.src-layout", SEV_ERROR, 1},
        {"DN dst two columns", A2, trowprod(S16, S16, "!pto.tile_buf<vec, 16x2xf32, valid=16x1, blayout=col_major>"),
         "TROWPROD.dst-layout", SEV_ERROR, 1},
        {"dtype match", A2, trowprod(S16, S16, "!pto.tile_buf<vec, 16x1xf16, blayout=col_major>"),
         "TROWPROD.dtype-match", SEV_ERROR, 1},
        {"bf16", A5,
         trowprod("!pto.tile_buf<vec, 16x16xbf16>", "!pto.tile_buf<vec, 16x16xbf16>",
                  "!pto.tile_buf<vec, 16x1xbf16, blayout=col_major>"),
         "TROWPROD.dtype", SEV_ERROR, 1},
        {"i16", A2,
         trowprod("!pto.tile_buf<vec, 16x16xi16>", "!pto.tile_buf<vec, 16x16xi16>",
                  "!pto.tile_buf<vec, 16x1xi16, blayout=col_major>"),
         NULL, SEV_ERROR, 0},
        {"valid rows", A2, trowprod("!pto.tile_buf<vec, 16x16xf32, valid=8x16>", S16, DN16), "TROWPROD.valid-rows",
         SEV_ERROR, 1},
        {"dst valid cols", A2, trowprod(S16, S16, "!pto.tile_buf<vec, 16x8xf32>"), "TROWPROD.dst-valid-cols", SEV_WARNING,
         1},
        {"empty src", A2,
         trowprod("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=0, blayout=row_major, "
                  "slayout=none_box, fractal=512, pad=0>",
                  S16, DN16),
         "TROWPROD.src-valid-nonzero", SEV_ERROR, 1},
        {"tmp dtype", A2, trowprod(S16, "!pto.tile_buf<vec, 16x16xf16>", DN16), "TROWPROD.tmp-dtype", SEV_ERROR, 1},
        {"tmp loc", A2, trowprod(S16, "!pto.tile_buf<mat, 16x16xf32>", DN16), "TROWPROD.tmp-loc", SEV_ERROR, 1},
        {"tmp 8 bytes on A2A3", A2, trowprod(S16, "!pto.tile_buf<vec, 1x2xf32, slayout=row_major, fractal=32>", DN16),
         "TROWPROD.tmp-size", SEV_ERROR, 1},
        {"tmp 8 bytes on A5", A5, trowprod(S16, "!pto.tile_buf<vec, 1x2xf32, slayout=row_major, fractal=32>", DN16),
         NULL, SEV_ERROR, 0},
        {"dynamic valid", A2,
         "%c16 = arith.constant 16 : index\n"
         "%s = pto.alloc_tile valid_row = %c16 valid_col = %c16 : !pto.tile_buf<vec, 16x16xf32, valid=?x?>\n"
         "%d = pto.alloc_tile : !pto.tile_buf<vec, 8x1xf32, blayout=col_major>\n"
         "%r = trowprod %s : !pto.tile_buf<vec, 16x16xf32, valid=?x?> -> !pto.tile_buf<vec, 16x1xf32, "
         "blayout=col_major>\n",
         NULL, SEV_ERROR, 0},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

Test(verifier, texpands_rules) {
    RuleCase cases[] = {
        {"f32", A2, texpands("1.0", "f32", "!pto.tile_buf<vec, 16x16xf32>"), NULL, SEV_ERROR, 0},
        {"bf16 on A2A3", A2, texpands("1.0", "f32", "!pto.tile_buf<vec, 16x16xbf16>"), NULL, SEV_ERROR, 0},
        {"bf16 on A5", A5, texpands("1.0", "f32", "!pto.tile_buf<vec, 16x16xbf16>"), "TEXPANDS.dtype", SEV_ERROR, 1},
        {"u64", A2, texpands("1", "i32", "!pto.tile_buf<vec, 4x4xui64>"), "TEXPANDS.dtype", SEV_ERROR, 1},
        {"acc", A2,
         texpands("1.0", "f32", "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"),
         "TEXPANDS.loc", SEV_ERROR, 1},
        {"col major vec on A5", A5, texpands("1.0", "f32", "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"),
         "TEXPANDS.a5-row-major", SEV_ERROR, 1},
        {"col major vec on A2A3", A2, texpands("1.0", "f32", "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"), NULL,
         SEV_ERROR, 0},
        {"col major mat on A5", A5, texpands("1.0", "f32", "!pto.tile_buf<mat, 16x1xf32, blayout=col_major>"), NULL,
         SEV_ERROR, 0},
        {"mat under one block", A2,
         texpands("1.0", "f32", "!pto.tile_buf<mat, 1x2xf32, slayout=row_major, fractal=32>"), "TEXPANDS.mat-size",
         SEV_ERROR, 1},
        {"scalar out of range", A2, texpands("40000", "i32", "!pto.tile_buf<vec, 16x16xi16>"), "TEXPANDS.scalar-range",
         SEV_ERROR, 1},
        {"scalar at the limit", A2, texpands("-32768", "i32", "!pto.tile_buf<vec, 16x16xi16>"), NULL, SEV_ERROR, 0},
        {"scalar lossy", A2, texpands("0.5", "f32", "!pto.tile_buf<vec, 16x16xi16>"), "TEXPANDS.scalar-lossy",
         SEV_WARNING, 1},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

Test(verifier, tmuls_rules) {
    const char *t = "!pto.tile_buf<vec, 32x64xf32>";
    RuleCase cases[] = {
        {"f32", A2, tmuls(t, "2.0", "f32", t), NULL, SEV_ERROR, 0},
        {"src in mat", A2, tmuls("!pto.tile_buf<mat, 32x64xf32>", "2.0", "f32", t), "TMULS.loc", SEV_ERROR, 1},
        {"src col major", A5, tmuls("!pto.tile_buf<vec, 32x64xf32, blayout=col_major>", "2.0", "f32", t),
         "TMULS.layout", SEV_ERROR, 1},
        {"dtype match", A2, tmuls(t, "2.0", "f32", "!pto.tile_buf<vec, 32x64xf16>"), "TMULS.dtype-match", SEV_ERROR, 1},
        {"i8 on A2A3", A2, tmuls("!pto.tile_buf<vec, 4x32xi8>", "2", "i32", "!pto.tile_buf<vec, 4x32xi8>"),
         "TMULS.dtype", SEV_ERROR, 1},
        {"i8 on A5", A5, tmuls("!pto.tile_buf<vec, 4x32xi8>", "2", "i32", "!pto.tile_buf<vec, 4x32xi8>"), NULL,
         SEV_ERROR, 0},
        {"bf16 on A5", A5, tmuls("!pto.tile_buf<vec, 16x16xbf16>", "2.0", "f32", "!pto.tile_buf<vec, 16x16xbf16>"),
         NULL, SEV_ERROR, 0},
        {"i64 on A5", A5, tmuls("!pto.tile_buf<vec, 4x4xi64>", "2", "i32", "!pto.tile_buf<vec, 4x4xi64>"),
         "TMULS.dtype", SEV_ERROR, 1},
        {"valid cols", A5, tmuls(t, "2.0", "f32", "!pto.tile_buf<vec, 32x64xf32, valid=32x63>"), "TMULS.valid-cols",
         SEV_ERROR, 1},
        {"valid rows on A2A3", A2, tmuls(t, "2.0", "f32", "!pto.tile_buf<vec, 32x64xf32, valid=31x64>"),
         "TMULS.valid-rows", SEV_ERROR, 1},
        {"valid rows on A5", A5, tmuls(t, "2.0", "f32", "!pto.tile_buf<vec, 32x64xf32, valid=31x64>"), NULL, SEV_ERROR,
         0},
        {"wider dst", A2, tmuls(t, "2.0", "f32", "!pto.tile_buf<vec, 32x128xf32, valid=32x64>"), NULL, SEV_ERROR, 0},
        {"float literal typed i32", A2,
         tmuls("!pto.tile_buf<vec, 8x8xi32>", "2.5", "i32", "!pto.tile_buf<vec, 8x8xi32>"), "TMULS.scalar-lossy",
         SEV_WARNING, 1},
        {"scalar nan into int", A2,
         tmuls("!pto.tile_buf<vec, 8x8xi32>", "0x7FC00000", "f32", "!pto.tile_buf<vec, 8x8xi32>"), "TMULS.scalar-range",
         SEV_ERROR, 1},
        {"scalar inf into f16", A2,
         tmuls("!pto.tile_buf<vec, 16x16xf16>", "0x7F800000", "f32", "!pto.tile_buf<vec, 16x16xf16>"), NULL, SEV_ERROR,
         0},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

/* ------------------------------------------------------------------------------------------ */
/* Tile types, placement, memory plan                                                          */
/* ------------------------------------------------------------------------------------------ */

Test(verifier, tile_type_rules) {
    RuleCase cases[] = {
        {"zero rows", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 0x8xf32>\n", "TILE.shape", SEV_ERROR, 1},
        {"valid beyond shape", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32, valid=8x9>\n",
         "TILE.valid-bounds", SEV_ERROR, 1},
        {"row major alignment", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x4xf32>\n", "TILE.alignment", SEV_ERROR,
         1},
        {"col major alignment", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32, blayout=col_major>\n",
         "TILE.alignment", SEV_ERROR, 1},
        {"col major aligned", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x3xf32, blayout=col_major>\n", NULL,
         SEV_ERROR, 0},
        {"fractal", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32, fractal=64>\n", "TILE.fractal", SEV_ERROR,
         1},
        {"fractal 32", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, fractal=32>\n", NULL, SEV_ERROR, 0},
        {"fractal 32 inner cols", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32, fractal=32>\n",
         "TILE.box-shape", SEV_ERROR, 1},
        {"fractal 1024 rows", A2, "%t = pto.alloc_tile : !pto.tile_buf<mat, 8x16xf32, fractal=1024>\n",
         "TILE.box-shape", SEV_ERROR, 1},
        {"fractal 1024 vec rows", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, fractal=1024>\n", NULL,
         SEV_ERROR, 0},
        {"box cols", A2, "%t = pto.alloc_tile : !pto.tile_buf<mat, 16x8xf16, slayout=row_major>\n", "TILE.box-shape",
         SEV_ERROR, 1},
        {"UB capacity A2A3", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 193x256xf32>\n", "TILE.capacity", SEV_ERROR,
         1},
        {"UB capacity A5", A5, "%t = pto.alloc_tile : !pto.tile_buf<vec, 193x256xf32>\n", NULL, SEV_ERROR, 0},
        {"overflow", A5, "%t = pto.alloc_tile : !pto.tile_buf<vec, 9223372036854775807x9223372036854775776xi8>\n",
         "TILE.capacity", SEV_ERROR, 1},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

Test(verifier, tile_type_reported_once_per_written_place) {
    check_text("func.func @f(%a: !pto.tile_buf<vec, 8x4xf32>) {\n"
               "  pto.tprint ins(%a : !pto.tile_buf<vec, 8x4xf32>)\n"
               "  pto.tprint ins(%a : !pto.tile_buf<vec, 8x4xf32>)\n"
               "  return\n"
               "}\n",
               A2);
    cr_expect_eq(count_rule("TILE.alignment", SEV_ERROR), 3, "%s", all_messages());
    for (size_t i = 0; i < run.diags.count; i++) cr_expect_eq(run.diags.items[i].loc.line, i + 1);
}

Test(verifier, placement_rules) {
    RuleCase cases[] = {
        {"aligned", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\npto.tassign %t, @tile(0x20)\n", NULL,
         SEV_ERROR, 0},
        {"misaligned", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\npto.tassign %t, @tile(0x21)\n",
         "MEM.addr-align", SEV_ERROR, 1},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
    RuleCase range[] = {
        {"ends at the end", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\npto.tassign %t, @tile(0x2FC00)\n",
         NULL, SEV_ERROR, 0},
        {"one block past", A2, "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\npto.tassign %t, @tile(0x2FC20)\n",
         "MEM.addr-range", SEV_ERROR, 1},
        {"A5 is larger", A5, "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\npto.tassign %t, @tile(0x2FC20)\n",
         NULL, SEV_ERROR, 0},
        {"huge address", A5,
         "%a = arith.constant 9223372036854775776 : i64\n%t = pto.alloc_tile addr = %a : !pto.tile_buf<vec, "
         "16x16xf32>\n",
         "MEM.addr-range", SEV_ERROR, 1},
        {"bias buffer", A2, "%t = pto.alloc_tile : !pto.tile_buf<bias, 1x64xf32>\npto.tassign %t, @tile(0x320)\n",
         "MEM.addr-range", SEV_ERROR, 1},
    };
    expect_cases(range, sizeof range / sizeof *range);
}

Test(verifier, scratch_overlap_warning) {
    const char *text = "%full = pto.alloc_tile : " T16x32 "\n%col = pto.alloc_tile : " COL16 "\n"
                       "pto.tassign %full, @tile(0x2F000)\n"
                       "pto.trowexpandmul ins(%full, %col : " T16x32 ", " COL16 ") outs(%full : " T16x32 ")\n";
    check_text(text, A2);
    cr_expect_eq(count_rule("MEM.scratch-overlap", SEV_WARNING), 1, "%s", all_messages());
    cr_expect_eq(count_findings(), 1, "%s", all_messages());
    check_text(text, A5);
    cr_expect_eq(count_findings(), 0, "%s", all_messages());
    /* -Werror: the warning is recorded as an error */
    parse_text(text);
    run.diags.warnings_as_errors = true;
    cr_expect_not(verify_as(A2));
    cr_expect_eq(count_rule("MEM.scratch-overlap", SEV_ERROR), 1);
}

Test(verifier, auto_capacity_peak) {
    const char *big = "!pto.tile_buf<vec, 128x128xf32>";
    const char *live3 = arena_printf(text_arena,
                                     "%%a = pto.alloc_tile : %s\n%%b = pto.alloc_tile : %s\n%%c = pto.alloc_tile : %s\n"
                                     "%%x = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>\n"
                                     "pto.tprint ins(%%x : !pto.tile_buf<vec, 1x8xf32>)\n"
                                     "pto.tmuls ins(%%a, 2.0 : %s, f32) outs(%%b : %s)\n"
                                     "pto.tmuls ins(%%b, 2.0 : %s, f32) outs(%%c : %s)\n",
                                     big, big, big, big, big, big, big);
    check_text(live3, A2);
    cr_expect_eq(count_rule("MEM.auto-capacity", SEV_WARNING), 1, "%s", all_messages());
    const Diag *d = find_rule("MEM.auto-capacity");
    cr_assert_not_null(d);
    cr_expect_eq(d->loc.line, 4, "reported where the peak first exceeds the UB");
    cr_expect(strstr(d->message, "196640 bytes"), "%s", d->message);
    check_text(live3, A5);
    cr_expect_eq(count_findings(), 0, "%s", all_messages());
    /* a tassign makes %x manual: no longer part of the plan */
    check_text(arena_printf(text_arena, "%spto.tassign %%x, @tile(0x0)\n", live3), A2);
    cr_expect_eq(count_findings(), 0, "%s", all_messages());
}

/* ------------------------------------------------------------------------------------------ */
/* Companion ops and scalars                                                                   */
/* ------------------------------------------------------------------------------------------ */

Test(verifier, companion_rules) {
    RuleCase cases[] = {
        {"valid_row missing", A2,
         "%c = arith.constant 4 : index\n%t = pto.alloc_tile valid_col = %c : !pto.tile_buf<vec, 8x8xf32, valid=?x?>\n",
         "ALLOC_TILE.valid-operands", SEV_ERROR, 1},
        {"valid_row range", A2,
         "%c = arith.constant 9 : index\n"
         "%t = pto.alloc_tile valid_row = %c valid_col = %c : !pto.tile_buf<vec, 8x16xf32, valid=?x?>\n",
         "ALLOC_TILE.valid-range", SEV_ERROR, 1},
        {"set_validshape static", A2,
         "%c = arith.constant 4 : index\n%t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>\n"
         "pto.set_validshape %t, %c, %c : !pto.tile_buf<vec, 8x8xf32>\n",
         "SET_VALIDSHAPE.dynamic", SEV_ERROR, 1},
        {"tprint bf16", A2,
         "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xbf16>\npto.tprint ins(%t : !pto.tile_buf<vec, 16x16xbf16>)\n",
         "TPRINT.dtype", SEV_ERROR, 1},
        {"tassign result type", A2,
         "%a = arith.constant 0 : i64\n%t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>\n"
         "%u = pto.tassign %t, %a : !pto.tile_buf<vec, 8x8xf32> -> !pto.tile_buf<vec, 16x8xf32>\n",
         "TASSIGN.result-type", SEV_ERROR, 1},
        {"constant range", A2, "%c = arith.constant 128 : ui8\n%d = arith.constant 256 : ui8\n", "CONSTANT.range",
         SEV_ERROR, 1},
        {"index cast", A2, "%c = arith.constant 1 : index\n%d = arith.index_cast %c : index to index\n",
         "ARITH.index-cast", SEV_ERROR, 1},
        {"for bounds", A2,
         "%a = arith.constant 0 : i32\n%b = arith.constant 4 : index\n%s = arith.constant 1 : index\n"
         "scf.for %i = %b to %b step %s {\n}\nscf.for %j = %a to %b step %s {\n}\n",
         "SCF.for-bounds", SEV_ERROR, 1},
    };
    expect_cases(cases, sizeof cases / sizeof *cases);
}

Test(verifier, five_mistakes_five_errors) {
    check_text("%a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
               "%b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>\n"
               "pto.tmuls ins(%a, 2.0 : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x16xf16>)\n"
               "pto.tassign %a, @tile(0x10)\n"
               "%c = pto.alloc_tile : !pto.tile_buf<vec, 16x12xf32>\n"
               "pto.texpands ins(1.0e10 : f32) outs(%b : !pto.tile_buf<vec, 16x16xf16>)\n"
               "%d = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32, blayout=col_major>\n"
               "pto.trowprod ins(%b, %b : !pto.tile_buf<vec, 16x16xf16>, !pto.tile_buf<vec, 16x16xf16>) outs(%d : "
               "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>)\n",
               A2);
    cr_expect_eq(run.diags.errors, 5, "%s", all_messages());
    const char *want[] = {"TMULS.dtype-match", "MEM.addr-align", "TILE.alignment", "TEXPANDS.scalar-range",
                          "TROWPROD.dtype-match"};
    for (size_t i = 0; i < 5; i++) cr_expect_not_null(find_rule(want[i]), "missing %s:%s", want[i], all_messages());
}

/* ------------------------------------------------------------------------------------------ */
/* Scalar conversion helpers                                                                   */
/* ------------------------------------------------------------------------------------------ */

Test(verifier, float_rounding) {
    cr_expect_eq(round_to_float_dtype(65504.0, DT_F16), 65504.0);
    cr_expect_eq(round_to_float_dtype(65519.0, DT_F16), 65504.0, "just below the f16 overflow threshold");
    cr_expect(isinf(round_to_float_dtype(65520.0, DT_F16)), "65520 rounds to +inf in f16");
    cr_expect_eq(round_to_float_dtype(0x1p-24, DT_F16), 0x1p-24, "smallest f16 subnormal");
    cr_expect_eq(round_to_float_dtype(0x1p-26, DT_F16), 0.0, "below half the smallest subnormal");
    cr_expect_eq(round_to_float_dtype(1.0 + 0x1p-11, DT_F16), 1.0, "tie to even");
    cr_expect_eq(round_to_float_dtype(1.0 + 3 * 0x1p-11, DT_F16), 1.0 + 0x1p-9, "tie to even, upwards");
    cr_expect_eq(round_to_float_dtype(3.14, DT_F32), (double)3.14f);
    cr_expect_eq(round_to_float_dtype(1.0 + 0x1p-8, DT_BF16), 1.0, "bf16 keeps 8 significant bits");
    cr_expect(isinf(round_to_float_dtype(-1e39, DT_F32)) && round_to_float_dtype(-1e39, DT_F32) < 0);
    cr_expect_eq(round_to_float_dtype(0x1.fep127, DT_BF16), 0x1.fep127, "largest bf16");
}

Test(verifier, scalar_fit) {
    double out;
    ConstScalar i300 = {.known = true, .i = 300};
    cr_expect_eq(scalar_fit(&i300, DT_I8, &out), FIT_OUT_OF_RANGE);
    cr_expect_eq(scalar_fit(&i300, DT_I16, &out), FIT_EXACT);
    ConstScalar neg = {.known = true, .i = -1};
    cr_expect_eq(scalar_fit(&neg, DT_U32, &out), FIT_OUT_OF_RANGE);
    cr_expect_eq(scalar_fit(&neg, DT_I64, &out), FIT_EXACT);
    ConstScalar pi = {.known = true, .is_float = true, .f = 3.14};
    cr_expect_eq(scalar_fit(&pi, DT_I32, &out), FIT_LOSSY);
    cr_expect_eq(out, 3.0);
    cr_expect_eq(scalar_fit(&pi, DT_F16, &out), FIT_EXACT, "rounding within range is not reported");
    ConstScalar mpi = {.known = true, .is_float = true, .f = -3.99};
    cr_expect_eq(scalar_fit(&mpi, DT_I8, &out), FIT_LOSSY);
    cr_expect_eq(out, -3.0, "float to int truncates toward zero");
    ConstScalar big = {.known = true, .is_float = true, .f = 4294967296.0};
    cr_expect_eq(scalar_fit(&big, DT_U32, &out), FIT_OUT_OF_RANGE);
    ConstScalar top = {.known = true, .is_float = true, .f = 4294967295.0};
    cr_expect_eq(scalar_fit(&top, DT_U32, &out), FIT_EXACT);
    ConstScalar t63 = {.known = true, .is_float = true, .f = 0x1p63};
    cr_expect_eq(scalar_fit(&t63, DT_I64, &out), FIT_OUT_OF_RANGE);
    cr_expect_eq(scalar_fit(&t63, DT_U64, &out), FIT_EXACT);
    ConstScalar nan = {.known = true, .is_float = true, .f = NAN};
    cr_expect_eq(scalar_fit(&nan, DT_I16, &out), FIT_OUT_OF_RANGE);
    cr_expect_eq(scalar_fit(&nan, DT_BF16, &out), FIT_EXACT);
    ConstScalar odd = {.known = true, .i = 16777217};
    cr_expect_eq(scalar_fit(&odd, DT_F32, &out), FIT_LOSSY);
    ConstScalar tiny = {.known = true, .is_float = true, .f = 1e-30};
    cr_expect_eq(scalar_fit(&tiny, DT_F16, &out), FIT_LOSSY, "underflow to zero");
    ConstScalar huge = {.known = true, .i = INT64_MAX};
    cr_expect_eq(scalar_fit(&huge, DT_F16, &out), FIT_OUT_OF_RANGE);
    cr_expect_eq(scalar_fit(&huge, DT_F32, &out), FIT_LOSSY);
}

Test(verifier, int_dtype_ranges) {
    int64_t min, max;
    bool u64;
    int_dtype_range(DT_I8, &min, &max, &u64);
    cr_expect(min == -128 && max == 127 && !u64);
    int_dtype_range(DT_U16, &min, &max, &u64);
    cr_expect(min == 0 && max == 65535 && !u64);
    int_dtype_range(DT_I64, &min, &max, &u64);
    cr_expect(min == INT64_MIN && max == INT64_MAX && !u64);
    int_dtype_range(DT_U64, &min, &max, &u64);
    cr_expect(min == 0 && u64);
}

Test(verifier, constants_feed_scalars) {
    parse_text("%a = arith.constant 4294967295 : i32\n%b = arith.index_cast %a : i32 to index\n"
               "%f = arith.constant 0x3FC00000 : f32\n%h = arith.constant 0x3C00 : f16\n");
    const Op *a = run.module->funcs[0]->body.block->first, *b = a->next, *f = b->next, *h = f->next;
    int64_t v;
    Operand use_a = {.kind = OPD_VALUE, .value = a->results[0]};
    Operand use_b = {.kind = OPD_VALUE, .value = b->results[0]};
    cr_expect(const_int_of(&use_a, &v) && v == -1, "an i32 constant wraps to its width");
    cr_expect(const_int_of(&use_b, &v) && v == -1, "through index_cast");
    Operand use_f = {.kind = OPD_VALUE, .value = f->results[0]};
    ConstScalar s = const_scalar_of(&use_f, DT_I32);
    cr_expect(s.known && s.is_float && s.f == 1.5, "a hex f32 constant is a bit pattern");
    Operand use_h = {.kind = OPD_VALUE, .value = h->results[0]};
    s = const_scalar_of(&use_h, DT_I32);
    cr_expect(s.known && s.is_float && s.f == 1.0, "a hex f16 constant is a bit pattern");
    Operand lit = {.kind = OPD_INT, .ival = 0x40490FDB, .hex = true};
    s = const_scalar_of(&lit, DT_F32);
    cr_expect(s.known && s.is_float && fabs(s.f - 3.14159265) < 1e-6, "typeless hex in a float position");
}

/* ------------------------------------------------------------------------------------------ */
/* Defensive checks on IR that did not come from the parser                                    */
/* ------------------------------------------------------------------------------------------ */

Test(verifier, rechecks_yield_call_return_and_entry) {
    parse_text(
        "module {\n"
        "  func.func private @g(%x: i32) -> i32 {\n    return %x : i32\n  }\n"
        "  func.func @main() attributes {pto.entry} {\n"
        "    %c = arith.constant 1 : i32\n"
        "    %t = arith.constant true\n"
        "    %r = func.call @g(%c) : (i32) -> i32\n"
        "    %y = scf.if %t -> (i32) {\n      scf.yield %c : i32\n    } else {\n      scf.yield %r : i32\n    }\n"
        "    return\n  }\n}\n");
    cr_assert(verify_as(A2), "clean:%s", all_messages());
    Type *index = type_new_scalar(run.arena, DT_INDEX);
    Func *main_fn = module_find_func(run.module, "main");
    Op *c = main_fn->body.block->first, *call = c->next->next, *sif = call->next, *ret = sif->next;
    /* a call operand, a yielded value and the function's results no longer agree */
    call->ins.items[0].type = index;
    sif->regions[0].block->last->ins.items[0].type = index;
    main_fn->result_types = &index;
    main_fn->n_results = 1;
    cr_expect_not(verify_as(A2));
    cr_expect_eq(count_rule("CALL.operands", SEV_ERROR), 1, "%s", all_messages());
    cr_expect_eq(count_rule("SCF.yield-types", SEV_ERROR), 1, "%s", all_messages());
    cr_expect_eq(count_rule("RETURN.types", SEV_ERROR), 1, "%s", all_messages());
    cr_expect_eq(count_rule("FUNC.entry-void", SEV_ERROR), 1, "%s", all_messages());
    (void)ret;
}

/* The op at `index` (0-based, in order) of the body of function `name`. */
static Op *nth_op(const char *name, int index) {
    Func *f = module_find_func(run.module, name);
    cr_assert_not_null(f);
    Op *op = f->body.block->first;
    for (int i = 0; op && i < index; i++) op = op->next;
    cr_assert_not_null(op);
    return op;
}

Test(verifier, rechecks_scalars_and_control_flow) {
    const char *text = "module {\n"
                       "  func.func @main() {\n"
                       "    %c0 = arith.constant 0 : index\n"
                       "    %c4 = arith.constant 4 : index\n"
                       "    %t = arith.constant true\n"
                       "    %p = arith.cmpi slt, %c0, %c4 : index\n"
                       "    %s = arith.select %t, %c0, %c4 : index\n"
                       "    %r = scf.for %i = %c0 to %c4 step %c4 iter_args(%a = %c0) -> (index) {\n"
                       "      scf.yield %a : index\n"
                       "    }\n"
                       "    %y = scf.if %p -> (index) {\n      scf.yield %c0 : index\n    } else {\n"
                       "      scf.yield %c4 : index\n    }\n"
                       "    %w = scf.while (%x = %c0) : (index) -> (index) {\n"
                       "      scf.condition(%t) %x : index\n"
                       "    } do {\n    ^bb0(%z: index):\n      scf.yield %z : index\n    }\n"
                       "    return\n"
                       "  }\n}\n";
    parse_text(text);
    cr_assert(verify_as(A2), "clean:%s", all_messages());
    Type *i32 = type_new_scalar(run.arena, DT_I32);
    Op *cmp = nth_op("main", 3), *sel = nth_op("main", 4), *loop = nth_op("main", 5), *sif = nth_op("main", 6),
       *swhile = nth_op("main", 7);
    cmp->predicate = "less";
    sel->ins.items[0].type = i32;
    loop->ins.items[3].type = i32; /* iter_arg no longer matches the result */
    loop->regions[0].block->last = NULL; /* no terminator */
    sif->ins.items[0].type = i32;
    sif->n_regions = 1; /* results but no else region */
    swhile->ins.items[0].type = i32; /* init vs before-region argument */
    Op *cond = swhile->regions[0].block->last;
    cond->ins.items[0].type = i32;
    cond->ins.items[1].type = i32;
    cr_expect_not(verify_as(A2));
    const char *want[] = {"ARITH.cmpi-predicate", "ARITH.select-cond",  "SCF.for-iter-args",
                          "SCF.yield-missing",    "SCF.if-cond",        "SCF.if-else",
                          "SCF.while-types",      "SCF.condition-cond", "SCF.condition-types"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(count_rule(want[i], SEV_ERROR), 1, "%s:%s", want[i], all_messages());
}

Test(verifier, rechecks_calls_entry_and_operand_kinds) {
    parse_text(
        "module {\n"
        "  func.func private @g() -> i32 {\n    %c = arith.constant 1 : i32\n    return %c : i32\n  }\n"
        "  func.func private @decl()\n"
        "  func.func @main() attributes {pto.entry} {\n"
        "    %r = func.call @g() : () -> i32\n"
        "    %q = func.call @g() : () -> i32\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
        "    pto.tmuls ins(%t, 2.0 : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%t : !pto.tile_buf<vec, 16x16xf32>)\n"
        "    pto.texpands ins(2.0 : f32) outs(%t : !pto.tile_buf<vec, 16x16xf32>)\n"
        "    return\n  }\n}\n");
    cr_assert(verify_as(A2), "clean:%s", all_messages());
    Type *index = type_new_scalar(run.arena, DT_INDEX);
    Op *call1 = nth_op("main", 0), *call2 = nth_op("main", 1), *alloc = nth_op("main", 2), *mul = alloc->next,
       *fill = mul->next;
    call1->callee = "missing";
    call2->results[0]->type = index;
    module_find_func(run.module, "decl")->is_entry = true;
    mul->ins.items[1].type = index;
    fill->ins.items[0].type = index;
    /* types are shared by every use of a spelling: give the alloc result its own, changed copy */
    Type *bad = arena_alloc(run.arena, sizeof *bad);
    *bad = *alloc->results[0]->type;
    bad->tile.dtype = DT_I1;
    alloc->results[0]->type = bad;
    cr_expect_not(verify_as(A2));
    const char *want[] = {"CALL.callee",       "CALL.results",         "FUNC.entry-definition",
                          "TMULS.scalar-type", "TEXPANDS.scalar-type", "TILE.dtype"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect_eq(count_rule(want[i], SEV_ERROR), 1, "%s:%s", want[i], all_messages());
    /* a yield outside any scf region */
    Op *ret = fill->next;
    ret->code = OP_SCF_YIELD;
    cr_expect_not(verify_as(A2));
    cr_expect_eq(count_rule("SCF.yield-parent", SEV_ERROR), 1, "%s", all_messages());
}

Test(verifier, recursion) {
    check_text("module {\n"
               "  func.func @a() {\n    func.call @b() : () -> ()\n    return\n  }\n"
               "  func.func @b() {\n    func.call @c() : () -> ()\n    return\n  }\n"
               "  func.func @c() {\n    func.call @a() : () -> ()\n    func.call @d() : () -> ()\n    return\n  }\n"
               "  func.func @d() {\n    return\n  }\n}\n",
               A2);
    cr_expect_eq(count_rule("CALL.recursive", SEV_ERROR), 3, "the a -> b -> c -> a cycle, not c -> d;%s",
                 all_messages());
}

Test(verifier, odd_ir_does_not_crash) {
    /* operands without types, an op missing its operands, a tile with an unknown loc */
    parse_text(
        "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
        "pto.tmuls ins(%t, 2.0 : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%t : !pto.tile_buf<vec, 16x16xf32>)\n");
    Op *mul = run.module->funcs[0]->body.block->first->next;
    mul->ins.items[0].type = NULL;
    mul->ins.items[0].value->type = NULL;
    mul->outs.count = 0;
    cr_expect(verify_as(A2), "%s", all_messages());
    mul->ins.count = 0;
    cr_expect(verify_as(A5), "%s", all_messages());
}

/* ------------------------------------------------------------------------------------------ */
/* verify_expected_diagnostics                                                                 */
/* ------------------------------------------------------------------------------------------ */

TestSuite(verifier_expected, .fini = run_free);

/* Runs the annotation checker on `text` with one actual diagnostic per (line, severity, message). */
typedef struct Actual {
    unsigned line;
    Severity sev;
    const char *message;
    const char *rule;
} Actual;

static int expectations(const char *text, const Actual *actual, size_t n, char *report, size_t report_size) {
    run_free();
    run.arena = arena_new();
    diag_init(&run.diags, run.arena);
    run.file = source_file_from_string(run.arena, "e.pto", text, strlen(text));
    for (size_t i = 0; i < n; i++)
        diag_report(&run.diags, run.file, actual[i].sev, (SrcLoc){actual[i].line, 3, 0, 1}, actual[i].rule, "%s",
                    actual[i].message);
    FILE *out = fmemopen(report, report_size, "w");
    cr_assert_not_null(out);
    int mismatches = verify_expected_diagnostics(run.file, &run.diags, out);
    fclose(out);
    return mismatches;
}

Test(verifier_expected, matches_lines_and_substrings) {
    char report[4096] = "";
    const char *text = "// expected-error@+1 {{bad dtype}}\nop one\nop two // expected-warning {{lossy}}\n"
                       "op three\n// expected-note@-1 {{here}}\n// expected-error@2 {{second}}\n";
    Actual ok[] = {{2, SEV_ERROR, "'pto.x' op bad dtype f64", NULL},
                   {3, SEV_WARNING, "value is lossy", NULL},
                   {4, SEV_NOTE, "declared here", NULL},
                   {2, SEV_ERROR, "a second error", NULL}};
    cr_expect_eq(expectations(text, ok, 4, report, sizeof report), 0, "%s", report);
}

Test(verifier_expected, reports_missing_and_unexpected) {
    char report[4096] = "";
    const char *text = "// expected-error@+1 {{bad dtype}}\nop one\nop two\n";
    Actual wrong[] = {{2, SEV_WARNING, "bad dtype", NULL}, {3, SEV_ERROR, "surprise", "X.rule"}};
    cr_expect_eq(expectations(text, wrong, 2, report, sizeof report), 3, "%s", report);
    cr_expect(strstr(report, "e.pto:2: error: expected error {{bad dtype}} was not produced"), "%s", report);
    cr_expect(strstr(report, "e.pto:2:3: unexpected warning: bad dtype"), "%s", report);
    cr_expect(strstr(report, "e.pto:3:3: unexpected error: surprise [X.rule]"), "%s", report);
}

Test(verifier_expected, counts_rules_and_notes) {
    char report[4096] = "";
    const char *text = "op // expected-error 2 {{twice}}\nop // expected-error {{[R.one]}}\nop\n";
    Actual two[] = {{1, SEV_ERROR, "twice", NULL},
                    {1, SEV_ERROR, "twice again", NULL},
                    {2, SEV_ERROR, "anything", "R.one"},
                    {3, SEV_NOTE, "notes need no annotation", NULL}};
    cr_expect_eq(expectations(text, two, 4, report, sizeof report), 0, "%s", report);
    Actual one[] = {{1, SEV_ERROR, "twice", NULL}, {2, SEV_ERROR, "anything", "R.two"}};
    cr_expect_eq(expectations(text, one, 2, report, sizeof report), 3, "one missing repetition, a rule mismatch;%s",
                 report);
}

Test(verifier_expected, malformed_and_no_diagnostics) {
    char report[4096] = "";
    cr_expect_eq(expectations("// expected-error@+x {{a}}\n// expected-error {{unclosed\n// expected-error no braces\n",
                              NULL, 0, report, sizeof report),
                 3, "%s", report);
    cr_expect(strstr(report, "malformed"), "%s", report);
    cr_expect_eq(expectations("// expected-no-diagnostics\nop\n", NULL, 0, report, sizeof report), 0, "%s", report);
    Actual w[] = {{2, SEV_WARNING, "w", NULL}};
    cr_expect_eq(expectations("// expected-no-diagnostics\nop\n", w, 1, report, sizeof report), 1, "%s", report);
    cr_expect_eq(expectations("# expected-error@-5 {{before the file}}\n", NULL, 0, report, sizeof report), 1, "%s",
                 report);
}

Test(verifier, implied_result_type_is_reported_where_written_once) {
    /* `%r = tmuls %u, 2 : T, i32`: dst's type is src's; a dst rule points at T (column 20), and a
     * layout mistake in T is one error (src's), not one per operand */
    check_text("%u = pto.alloc_tile : !pto.tile_buf<vec, 16x16xui16>\n"
               "%r = tmuls %u, 2 : !pto.tile_buf<vec, 16x16xui16>, i32\n"
               "%s = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32, blayout=col_major>\n"
               "%r2 = tmuls %s, 2.0 : !pto.tile_buf<vec, 16x16xf32, blayout=col_major>, f32\n",
               A2);
    const Diag *d = find_rule("TMULS.dtype");
    cr_assert_not_null(d, "%s", all_messages());
    cr_expect_eq(d->loc.line, 2);
    cr_expect_eq(d->loc.col, 20, "%s", all_messages());
    cr_expect_eq(count_rule("TMULS.layout", SEV_ERROR), 1, "%s", all_messages());
    cr_expect_eq(run.diags.errors, 2, "%s", all_messages());
}
