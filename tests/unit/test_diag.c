/* test_diag.c - diagnostics a tool can read (issue 13): notes and fix-its on a Diag, end
 * positions, the JSON document, PARSE.* rule IDs of parse errors, one error per bad type
 * (poisoned spellings), functions with parse errors skipped by the verifier while the others are
 * verified, and the entry choice with private helpers. The command-line side is tests/as-cli. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "verifier.h"

typedef struct Run {
    Arena *arena;
    DiagList diags;
    SourceFile *file;
    Module *m;
} Run;

static Run R;

static void teardown(void) {
    arena_free(R.arena);
    memset(&R, 0, sizeof R);
}

TestSuite(diag, .fini = teardown);

/* Parses `text`; with `verify`, verifies it for A2A3 as pto-as does (also after parse errors). */
static void run(const char *text, bool verify) {
    teardown();
    R.arena = arena_new();
    diag_init(&R.diags, R.arena);
    R.file = source_file_from_string(R.arena, "t.pto", text, strlen(text));
    R.m = parse_module(R.arena, R.file, &R.diags);
    cr_assert_not_null(R.m);
    if (verify) {
        VerifyOptions vo = {.target = TARGET_A2A3, .target_given = true};
        verify_module(R.m, &vo, &R.diags);
    }
    diag_sort(&R.diags);
}

static char *print_to_string(void (*print)(FILE *, const DiagList *), const DiagList *d) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    print(f, d);
    fclose(f);
    return buf;
}

static const char *all_messages(void) {
    const char *out = "";
    for (size_t i = 0; i < R.diags.count; i++)
        out = arena_printf(R.arena, "%s\n  %u:%u %s [%s]", out, R.diags.items[i].loc.line, R.diags.items[i].loc.col,
                           R.diags.items[i].message, R.diags.items[i].rule ? R.diags.items[i].rule : "-");
    return out;
}

/* ---- the Diag record ------------------------------------------------------------------------- */

Test(diag, notes_and_fixits_attach_to_the_last_report) {
    Arena *a = arena_new();
    SourceFile *f = source_file_from_string(a, "n.pto", "abc def\nghi\n", 12);
    DiagList d;
    diag_init(&d, a);
    diag_add_note(&d, (SrcLoc){1, 1, 0, 3}, "nothing to attach to");
    cr_assert_eq(d.count, 0);
    diag_report(&d, f, SEV_ERROR, (SrcLoc){1, 5, 4, 3}, "X.rule", "bad %s", "def");
    diag_add_note(&d, (SrcLoc){2, 1, 8, 3}, "see %s", "ghi");
    diag_add_fixit(&d, (SrcLoc){1, 5, 4, 3}, "DEF");
    diag_add_fixit(&d, (SrcLoc){1, 1, 0, 0}, "// ");
    cr_assert_eq(d.items[0].n_notes, 1);
    cr_assert_str_eq(d.items[0].notes[0].message, "see ghi");
    cr_assert_eq(d.items[0].n_fixits, 2);
    cr_assert_str_eq(d.items[0].fixits[1].replacement, "// ");
    char *text = print_to_string(diag_print_text, &d);
    cr_assert_str_eq(text, "n.pto:1:5: error: bad def [X.rule]\n"
                           "  abc def\n"
                           "      ^~~\n"
                           "n.pto:2:1: note: see ghi\n"
                           "  ghi\n"
                           "  ^~~\n"
                           "n.pto:1:5: fix-it: replace 'def' with 'DEF'\n"
                           "n.pto:1:1: fix-it: insert '// '\n");
    free(text);
    /* diag_copy keeps them */
    DiagList copy;
    diag_init(&copy, a);
    diag_copy(&copy, &d.items[0]);
    cr_assert_eq(copy.errors, 1);
    cr_assert_eq(copy.items[0].n_notes, 1);
    cr_assert_eq(copy.items[0].n_fixits, 2);
    cr_assert_str_eq(copy.items[0].rule, "X.rule");
    /* over the error cap: the report is only counted and its notes go nowhere */
    copy.max_errors = 1;
    diag_report(&copy, f, SEV_ERROR, (SrcLoc){2, 1, 8, 3}, NULL, "dropped");
    diag_add_note(&copy, (SrcLoc){2, 1, 8, 3}, "dropped too");
    cr_assert_eq(copy.count, 1);
    cr_assert_eq(copy.errors, 2);
    cr_assert_eq(copy.items[0].n_notes, 1);
    arena_free(a);
}

Test(diag, end_positions_follow_the_span) {
    Arena *a = arena_new();
    SourceFile *f = source_file_from_string(a, "e.pto", "ab\ncdef\ng", 9);
    uint32_t line, col;
    diag_end_position(f, (SrcLoc){1, 2, 1, 4}, &line, &col); /* "b\ncd" */
    cr_assert_eq(line, 2);
    cr_assert_eq(col, 3);
    diag_end_position(f, (SrcLoc){2, 1, 3, 4}, &line, &col); /* "cdef" */
    cr_assert_eq(line, 2);
    cr_assert_eq(col, 5);
    diag_end_position(f, (SrcLoc){2, 2, 4, 0}, &line, &col); /* a point */
    cr_assert_eq(line, 2);
    cr_assert_eq(col, 2);
    diag_end_position(f, (SrcLoc){3, 1, 8, 50}, &line, &col); /* past the end: the start */
    cr_assert_eq(line, 3);
    cr_assert_eq(col, 1);
    diag_end_position(NULL, (SrcLoc){4, 7, 0, 3}, &line, &col);
    cr_assert_eq(line, 4);
    cr_assert_eq(col, 7);
    arena_free(a);
}

Test(diag, json_is_one_document_with_valid_strings) {
    Arena *a = arena_new();
    SourceFile *f = source_file_from_string(a, "bad\xff name.pto", "x\n", 2);
    DiagList d;
    diag_init(&d, a);
    char *empty = print_to_string(diag_print_json, &d);
    cr_assert_str_eq(empty, "{\"version\": 1, \"diagnostics\": [], \"errors\": 0, \"warnings\": 0, \"errors_not_shown\": 0}\n");
    free(empty);
    diag_report(&d, f, SEV_WARNING, (SrcLoc){1, 1, 0, 1}, NULL, "tab\there \"q\" caf\xc3\xa9 \x01");
    diag_add_fixit(&d, (SrcLoc){1, 1, 0, 1}, "y\n");
    char *json = print_to_string(diag_print_json, &d);
    cr_assert(strstr(json, "\"file\": \"bad\\ufffd name.pto\""), "%s", json);
    cr_assert(strstr(json, "\"message\": \"tab\\there \\\"q\\\" caf\xc3\xa9 \\u0001\""), "%s", json);
    cr_assert(strstr(json, "\"rule\": null"), "%s", json);
    cr_assert(strstr(json, "\"end_line\": 1, \"end_column\": 2"), "%s", json);
    cr_assert(strstr(json, "\"replacement\": \"y\\n\""), "%s", json);
    cr_assert(strstr(json, "\"errors\": 0, \"warnings\": 1, \"errors_not_shown\": 0}\n"), "%s", json);
    free(json);
    arena_free(a);
}

/* ---- rule IDs of parse errors ------------------------------------------------------------------ */

/* The rule of the only diagnostic of `text` (parse only). */
static const char *only_rule(const char *text) {
    run(text, false);
    cr_assert_eq(R.diags.count, 1, "%s", all_messages());
    cr_assert_not_null(R.diags.items[0].rule, "%s", all_messages());
    return R.diags.items[0].rule;
}

Test(diag, parse_errors_have_rule_ids) {
    cr_expect_str_eq(only_rule("%a = arith.constant 1 : index ;\n"), "PARSE.token");
    cr_expect_str_eq(only_rule("%a = arith.constant 1 : index\n%b %a\n"), "PARSE.syntax");
    cr_expect_str_eq(only_rule("%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf99>\n"), "PARSE.type");
    cr_expect_str_eq(only_rule("%a = arith.constant 99999999999999999999 : index\n"), "PARSE.literal");
    cr_expect_str_eq(only_rule("%a = arith.constant 1 : index\n%b = arith.addi %a : index\n"), "PARSE.op");
    cr_expect_str_eq(only_rule("%c = arith.constant 1 : index\n%b = arith.addi %a, %c : index\n"), "PARSE.value");
    cr_expect_str_eq(only_rule("scf.for %i = 0 to 4 step 1 {\n  %x = arith.constant 1 : index\n  scf.yield %x : index\n}\n"),
                     "PARSE.region");
    cr_expect_str_eq(only_rule("func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n"), "PARSE.func");
}

/* ---- one error per bad type ------------------------------------------------------------------- */

Test(diag, a_bad_type_spelling_reports_once) {
    run("module {\n"
        "  func.func @k(%p: !pto.ptr<f32>) {\n"
        "    %s = pto.alloc_tile : !pto.tile<...>\n"
        "    %d = pto.alloc_tile : !pto.tile<...>\n"
        "    %c = arith.constant 2.0 : f32\n"
        "    pto.tmuls ins(%s, %c : !pto.tile<...>, f32) outs(%d : !pto.tile<...>)\n"
        "    %e = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf64>\n"
        "    pto.tmuls ins(%e, %c : !pto.tile_buf<vec, 16x16xf64>, f32) outs(%e : !pto.tile_buf<vec, 16x16xf64>)\n"
        "    return\n"
        "  }\n"
        "}\n",
        true);
    cr_assert_eq(R.diags.count, 2, "%s", all_messages());
    cr_assert_eq(R.diags.items[0].loc.line, 3);
    cr_assert(strstr(R.diags.items[0].message, "placeholder"), "%s", all_messages());
    cr_assert_eq(R.diags.items[1].loc.line, 7);
    cr_assert_str_eq(R.diags.items[1].message, "unknown element type 'f64'");
    cr_assert_eq(R.diags.items[1].n_notes, 1);
    cr_assert(strstr(R.diags.items[1].notes[0].message, "f16, bf16, f32, i8"), "%s", R.diags.items[1].notes[0].message);
    cr_assert(R.m->funcs[0]->parse_failed);
}

/* ---- the verifier after parse errors -------------------------------------------------------- */

Test(diag, functions_that_parsed_are_verified) {
    run("module {\n"
        "  func.func @broken() {\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>\n"
        "    %u = pto.nonsense %t\n"
        "    return\n"
        "  }\n"
        "  func.func @bad_head(%a: !pto.tile_buf<vec, 16x16xf77>) {\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>\n"
        "    return\n"
        "  }\n"
        "  func.func @good() {\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>\n"
        "    func.call @broken() : () -> ()\n"
        "    return\n"
        "  }\n"
        "}\n",
        true);
    cr_assert_eq(R.m->n_funcs, 3);
    cr_assert(R.m->funcs[0]->parse_failed);
    cr_assert(R.m->funcs[1]->parse_failed);
    cr_assert(!R.m->funcs[2]->parse_failed);
    /* the unsupported op, the bad element type, and the verifier's error in @good only */
    cr_assert_eq(R.diags.count, 3, "%s", all_messages());
    cr_assert_eq(R.diags.items[2].loc.line, 12, "%s", all_messages());
    cr_assert_str_eq(R.diags.items[2].rule, "TILE.alignment");
    cr_assert_eq(R.diags.items[2].n_notes, 1);
    cr_assert_eq(R.diags.items[2].n_fixits, 1);
    cr_assert_str_eq(R.diags.items[2].fixits[0].replacement, ", blayout=col_major");
}

Test(diag, a_bad_call_marks_its_caller) {
    run("module {\n"
        "  func.func @k() {\n"
        "    func.call @nowhere() : () -> ()\n"
        "    return\n"
        "  }\n"
        "}\n",
        true);
    cr_assert_eq(R.diags.count, 1, "%s", all_messages()); /* not again as the verifier's CALL.callee */
    cr_assert_str_eq(R.diags.items[0].rule, "PARSE.func");
    cr_assert(R.m->funcs[0]->parse_failed);
}

/* ---- return, ins/outs order, entry ----------------------------------------------------------- */

Test(diag, a_function_needs_its_return) {
    run("module {\n  func.func @k() {\n    %c = arith.constant 1 : index\n  }\n}\n", false);
    cr_assert_eq(R.diags.count, 1, "%s", all_messages());
    cr_assert_str_eq(R.diags.items[0].message, "'func.func' op body of @k must end with 'return'");
    cr_assert_eq(R.diags.items[0].n_fixits, 1);
    cr_assert_eq(R.diags.items[0].fixits[0].loc.line, 4);
    cr_assert_str_eq(R.diags.items[0].fixits[0].replacement, "    return\n");
    /* a bare program still gets its implicit return */
    run("%c = arith.constant 1 : index\n", false);
    cr_assert_eq(R.diags.count, 0, "%s", all_messages());
}

Test(diag, outs_before_ins_is_an_error_with_a_fixit) {
    run("%a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
        "pto.tabs outs(%a : !pto.tile_buf<vec, 16x16xf32>) ins(%a : !pto.tile_buf<vec, 16x16xf32>)\n",
        false);
    cr_assert_eq(R.diags.count, 1, "%s", all_messages());
    cr_assert_str_eq(R.diags.items[0].message, "'pto.tabs' op writes outs(...) before ins(...)");
    cr_assert_eq(R.diags.items[0].n_fixits, 1);
    cr_assert_str_eq(R.diags.items[0].fixits[0].replacement,
                     "ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)");
    cr_assert_eq(R.diags.items[0].fixits[0].loc.col, 10);
}

Test(diag, the_one_public_function_is_the_entry) {
    run("module {\n"
        "  func.func private @h(%a: index) -> index {\n    return %a : index\n  }\n"
        "  func.func @k() {\n    return\n  }\n"
        "}\n",
        false);
    cr_assert_eq(R.diags.count, 0, "%s", all_messages());
    cr_assert_eq(module_entry(R.m, NULL), R.m->funcs[1]);
    run("module {\n"
        "  func.func @a() {\n    return\n  }\n"
        "  func.func @b() {\n    return\n  }\n"
        "  func.func private @c() {\n    return\n  }\n"
        "}\n",
        false);
    cr_assert_null(module_entry(R.m, NULL));
    cr_assert_eq(module_entry(R.m, "c"), R.m->funcs[2]);
}
