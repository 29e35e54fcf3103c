/* test_printer.c - the DPS and SSA printers: exact canonical text, and the round-trip property
 * (printing, re-parsing and printing again gives identical text and the same IR). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

static Arena *arena;

static void setup(void) {
    arena = arena_new();
}

static void teardown(void) {
    arena_free(arena);
    arena = NULL;
}

TestSuite(printer, .init = setup, .fini = teardown);

static Module *parse_clean(const char *text, const char *what) {
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *f = source_file_from_string(arena, what, text, strlen(text));
    Module *m = parse_module(arena, f, &diags);
    cr_assert_eq(diags.count, 0, "%s: %u:%u: %s\n--- text ---\n%s", what, diags.count ? diags.items[0].loc.line : 0,
                 diags.count ? diags.items[0].loc.col : 0, diags.count ? diags.items[0].message : "", text);
    return m;
}

static const char *print(const char *text, PrintForm form) {
    Module *m = parse_clean(text, "input");
    char *s = module_to_string(arena, m, form);
    cr_assert_not_null(s);
    return s;
}

/* ---- IR fingerprint: everything the printer must preserve, as text --------------------------- */

typedef struct Buf {
    char *data;
    size_t len, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = arena_vprintf(arena, fmt, ap);
    va_end(ap);
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n + 1) cap *= 2;
        char *d = arena_alloc(arena, cap);
        if (b->len) memcpy(d, b->data, b->len);
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

static void put_operand(Buf *b, const Operand *o) {
    const Type *t = o->kind == OPD_VALUE && o->value ? o->value->type : o->type;
    if (o->kind == OPD_VALUE) put(b, " %%%s", o->value ? o->value->name : "?");
    else put(b, " %s", o->text ? o->text : "?");
    put(b, ":%s", t ? type_to_string(arena, t, true) : "-");
}

static void put_block(Buf *b, const Block *blk, int depth) {
    for (int i = 0; i < blk->n_args; i++)
        put(b, "%*sarg %%%s:%s\n", depth * 2, "", blk->args[i]->name, type_to_string(arena, blk->args[i]->type, true));
    for (const Op *op = blk->first; op; op = op->next) {
        put(b, "%*s%s", depth * 2, "", op_info(op->code)->name);
        if (op->predicate) put(b, " pred=%s", op->predicate);
        if (op->callee) put(b, " callee=%s", op->callee);
        put(b, " ins(");
        for (int i = 0; i < op->ins.count; i++) put_operand(b, &op->ins.items[i]);
        put(b, ") outs(");
        for (int i = 0; i < op->outs.count; i++) put_operand(b, &op->outs.items[i]);
        put(b, ")");
        for (int k = 0; k < op->n_kwargs; k++) {
            put(b, " %s=[", op->kwargs[k].key);
            for (int i = 0; i < op->kwargs[k].list.count; i++) put_operand(b, &op->kwargs[k].list.items[i]);
            put(b, "]");
        }
        for (int i = 0; i < op->attrs.count; i++) put(b, " {%s}", op->attrs.items[i].key);
        for (int i = 0; i < op->attr_args.count; i++) put(b, " <%s>", op->attr_args.items[i].text);
        for (int i = 0; i < op->n_results; i++)
            put(b, " -> %%%s:%s", op->results[i]->name, type_to_string(arena, op->results[i]->type, true));
        for (int i = 0; i < op->n_result_types; i++) put(b, " rt:%s", type_to_string(arena, op->result_types[i], true));
        put(b, "\n");
        for (int r = 0; r < op->n_regions; r++) {
            put(b, "%*sregion %d\n", depth * 2, "", r);
            put_block(b, op->regions[r].block, depth + 1);
        }
    }
}

static const char *fingerprint(const Module *m) {
    Buf b = {0};
    put(&b, "target %d attrs %d\n", m->file_target, m->attrs.count);
    for (int i = 0; i < m->n_funcs; i++) {
        const Func *f = m->funcs[i];
        put(&b, "func @%s private=%d entry=%d args=%d results=%d\n", f->name, f->is_private, f->is_entry, f->n_args,
            f->n_results);
        for (int a = 0; a < f->n_args; a++) put(&b, "  arg %%%s:%s\n", f->args[a]->name, type_to_string(arena, f->args[a]->type, true));
        put_block(&b, f->body.block, 1);
    }
    return b.data;
}

/* print(parse(x)) re-parses; printing again gives the same text and the same IR. */
static void expect_round_trip(const char *text, PrintForm form) {
    const char *p1 = module_to_string(arena, parse_clean(text, "input"), form);
    Module *m1 = parse_clean(p1, "first print");
    const char *p2 = module_to_string(arena, m1, form);
    cr_assert_str_eq(p1, p2, "printing is not idempotent");
    Module *m2 = parse_clean(p2, "second print");
    cr_assert_str_eq(fingerprint(m1), fingerprint(m2), "re-parsing gives a different IR");
}

#define T16 "!pto.tile<vec, 16x16xf32>"
#define TB16 "!pto.tile_buf<vec, 16x16xf32>"
#define TBCOL "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"

/* ---- exact text ------------------------------------------------------------------------------- */

Test(printer, dps_of_an_ssa_program) {
    const char *s = print("%c = arith.constant 2.0 : f32\n"
                          "%src = pto.texpands %c : f32 -> !pto.tile<f32, 16, 16>\n"
                          "pto.tassign %dst, @tile(0x2000)\n"
                          "%dst = pto.tmuls %src, %c : (" T16 ", f32) -> " T16 "\n",
                          PRINT_DPS);
    cr_assert_str_eq(s, "module {\n"
                        "  func.func @main() {\n"
                        "    %c = arith.constant 2.0 : f32\n"
                        /* %dst is placed by hand, so the automatic %src gets an address of its own */
                        "    %c0_i64 = arith.constant 0 : i64\n"
                        "    %src = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<vec, 16x16xf32>\n"
                        "    pto.texpands ins(%c : f32) outs(%src : !pto.tile_buf<vec, 16x16xf32>)\n"
                        "    %c8192_i64 = arith.constant 8192 : i64\n"
                        "    %dst = pto.alloc_tile addr = %c8192_i64 : !pto.tile_buf<vec, 16x16xf32>\n"
                        "    pto.tmuls ins(%src, %c : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%dst : "
                        "!pto.tile_buf<vec, 16x16xf32>)\n"
                        "    return\n"
                        "  }\n"
                        "}\n");
}

Test(printer, ssa_of_a_dps_program) {
    const char *s = print("%c = arith.constant 2.0 : f32\n"
                          "%a = pto.alloc_tile : " TB16 "\n"
                          "%b = pto.alloc_tile : " TBCOL "\n"
                          "pto.trowexpandmul ins(%a, %b : " TB16 ", " TBCOL ") outs(%a : " TB16 ")\n"
                          "%d = trowexpandmul %a, %b : " TB16 ", " TBCOL " -> " TB16 "\n",
                          PRINT_SSA);
    cr_assert_str_eq(s, "%c = arith.constant 2.0 : f32\n"
                        "%a = pto.alloc_tile : !pto.tile<vec, 16x16xf32>\n"
                        "%b = pto.alloc_tile : !pto.tile<vec, 16x1xf32, blayout=col_major>\n"
                        "pto.trowexpandmul %a, %b, %a : !pto.tile<vec, 16x16xf32>, !pto.tile<vec, 16x1xf32, blayout=col_major>, "
                        "!pto.tile<vec, 16x16xf32>\n"
                        "%d = pto.trowexpandmul %a, %b : (!pto.tile<vec, 16x16xf32>, !pto.tile<vec, 16x1xf32, "
                        "blayout=col_major>) -> !pto.tile<vec, 16x16xf32>\n");
}

Test(printer, immediates_are_hoisted_in_dps) {
    const char *s = print("%s = pto.alloc_tile : " TB16 "\n"
                          "%a = pto.tmuls %s, 2.5 : " T16 "\n"
                          "%b = pto.tmuls %s, 7 : " T16 "\n"
                          "%c = pto.tmuls %s, 0x3F800000 : " T16 "\n",
                          PRINT_DPS);
    cr_assert(strstr(s, "    %cst = arith.constant 2.5 : f32\n"), "%s", s);
    cr_assert(strstr(s, "    %cst_1 = arith.constant 7.0 : f32\n"), "%s", s); /* an integer for a float tile */
    cr_assert(strstr(s, "    %cst_2 = arith.constant 0x3F800000 : f32\n"), "%s", s); /* a bit pattern */
    cr_assert(strstr(s, "pto.tmuls ins(%s, %cst_2 : !pto.tile_buf<vec, 16x16xf32>, f32)"), "%s", s);
    /* SSA keeps them inline */
    s = print("%s = pto.alloc_tile : " TB16 "\n%a = pto.tmuls %s, 2.5 : " T16 "\n", PRINT_SSA);
    cr_assert(strstr(s, "%a = pto.tmuls %s, 2.5 : (!pto.tile<vec, 16x16xf32>, f32) -> !pto.tile<vec, 16x16xf32>\n"), "%s", s);
}

Test(printer, fresh_names_avoid_existing_ones) {
    const char *s = print("%cst = arith.constant 1.0 : f32\n%s = pto.alloc_tile : " TB16 "\n%a = pto.tmuls %s, 2.5 : " T16 "\n",
                          PRINT_DPS);
    cr_assert(strstr(s, "%cst_1 = arith.constant 2.5 : f32"), "%s", s);
}

Test(printer, control_flow_text) {
    const char *s = print("module attributes {\"pto.target_arch\" = \"a5\", \"pto.device-spec\" = \"Ascend950\"} {\n"
                          "  func.func @k(%n: index) attributes {pto.entry} {\n"
                          "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
                          "    %t = arith.constant true\n"
                          "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (index) {\n"
                          "      %y = arith.addi %x, %i : index\n      scf.yield %y : index\n    }\n"
                          "    %p:2 = scf.if %t -> (index, index) {\n      scf.yield %r, %c0 : index, index\n"
                          "    } else {\n      scf.yield %c0, %r : index, index\n    }\n"
                          "    %lt = arith.cmpi slt, %p#0, %p#1 : index\n"
                          "    return\n  }\n}\n",
                          PRINT_DPS);
    cr_assert_str_eq(s, "module attributes {pto.target_arch = \"a5\", \"pto.device-spec\" = \"Ascend950\"} {\n"
                        "  func.func @k(%n: index) attributes {pto.entry} {\n"
                        "    %c0 = arith.constant 0 : index\n"
                        "    %c1 = arith.constant 1 : index\n"
                        "    %t = arith.constant true\n"
                        "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (index) {\n"
                        "      %y = arith.addi %x, %i : index\n"
                        "      scf.yield %y : index\n"
                        "    }\n"
                        "    %p:2 = scf.if %t -> (index, index) {\n"
                        "      scf.yield %r, %c0 : index, index\n"
                        "    } else {\n"
                        "      scf.yield %c0, %r : index, index\n"
                        "    }\n"
                        "    %lt = arith.cmpi slt, %p#0, %p#1 : index\n"
                        "    return\n"
                        "  }\n"
                        "}\n");
}

Test(printer, module_print_matches_module_to_string) {
    Module *m = parse_clean("%c = arith.constant 1 : index\n", "input");
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert(module_print(f, m, PRINT_SSA));
    rewind(f);
    char buf[256] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    cr_assert_eq(n, strlen("%c = arith.constant 1 : index\n"));
    cr_assert_str_eq(buf, module_to_string(arena, m, PRINT_SSA));
}

/* ---- round trips ------------------------------------------------------------------------------ */

static const char *const programs[] = {
    /* seed ops in every spelling */
    "%c = arith.constant 2.0 : f32\n%src = pto.alloc_tile : " TB16 "\n%dst = pto.alloc_tile : " TB16 "\n"
    "pto.tmuls ins(%src, %c : " TB16 ", f32) outs(%dst : " TB16 ")\n"
    "%d1 = pto.tmuls %src, %c : (" T16 ", f32) -> " T16 "\n%d2 = tmuls %src, 3 : " T16 ", f32\n"
    "%e = texpands 0x40490FDB : f32, " T16 "\n%e2 = pto.texpands -1.5 : f32 -> " T16 "\n",

    "%a = pto.alloc_tile : " TB16 "\n%b = pto.alloc_tile : " TBCOL "\n%t = pto.alloc_tile : " TB16 "\n"
    "pto.trowexpandsub ins(%a, %b, %t : " TB16 ", " TBCOL ", " TB16 ") outs(%a : " TB16 ")\n"
    "%x = trowexpandmul %a, %b : " TB16 ", " TBCOL " -> " TB16 "\n"
    "%p = trowprod %a : " TB16 " -> " TBCOL "\n%q = pto.trowprod %a, %t : (" TB16 ", " TB16 ") -> " TBCOL "\n",

    /* manual placement, forward references, dynamic valid shapes */
    "pto.tassign %d, @tile(0x1000)\n%r = arith.constant 8 : index\n"
    "%d = pto.alloc_tile valid_row = %r valid_col = %r : !pto.tile_buf<vec, 16x16xf16, valid=?x?>\n"
    "pto.set_validshape %d, %r, %r : !pto.tile_buf<vec, 16x16xf16, valid=?x?>\n"
    "%a = arith.constant 4096 : i64\n%e = pto.alloc_tile addr = %a : " TB16 "\n"
    "%e2 = pto.tassign %e, %a : " TB16 " -> " TB16 "\n",

    /* GM views, loads, stores, attributes */
    "module {\n  func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>) {\n"
    "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c32 = arith.constant 32 : index\n"
    "    %v = pto.make_tensor_view %arg0, shape = [%c32, %c32], strides = [%c32, %c1] {layout = #pto.layout<nd>} : "
    "!pto.tensor_view<?x?xf32>\n"
    "    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c32, %c32] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<32x32xf32>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, "
    "slayout=none_box, fractal=512, pad=0>\n"
    "    pto.tload ins(%p : !pto.partition_tensor_view<32x32xf32>) outs(%t : !pto.tile_buf<vec, 32x32xf32>)\n"
    "    pto.tprint ins(%t : !pto.tile_buf<vec, 32x32xf32>)\n"
    "    pto.tstore ins(%t : !pto.tile_buf<vec, 32x32xf32>) outs(%p : !pto.partition_tensor_view<32x32xf32>) "
    "{stPhase = #pto<st_phase final>}\n"
    "    return\n  }\n}\n",

    /* scalars, control flow, calls, sync */
    "module attributes {pto.target_arch = \"a2a3\"} {\n"
    "  func.func private @inc(%x: index) -> index {\n    %c1 = arith.constant 1 : index\n"
    "    %y = arith.addi %x, %c1 : index\n    return %y : index\n  }\n"
    "  func.func @main(%n: i32) attributes {pto.entry} {\n"
    "    %i = arith.index_cast %n : i32 to index\n    %t = arith.constant true\n    %f = arith.constant false\n"
    "    %c0 = arith.constant 0 : index\n    %c4 = arith.constant 4 : index\n"
    "    %r = scf.for %k = %c0 to %c4 step %i iter_args(%acc = %c0) -> (index) {\n"
    "      %nx = func.call @inc(%acc) : (index) -> index\n      scf.yield %nx : index\n    }\n"
    "    %w:2 = scf.while (%a = %c0, %go = %t) : (index, i1) -> (index, i1) {\n"
    "      %lt = arith.cmpi slt, %a, %c4 : index\n      %g = arith.andi %lt, %go : i1\n"
    "      scf.condition(%g) %a, %go : index, i1\n    } do {\n    ^bb0(%a2: index, %go2: i1):\n"
    "      %a3 = func.call @inc(%a2) : (index) -> (index)\n      scf.yield %a3, %go2 : index, i1\n    }\n"
    "    %s = arith.select %f, %r, %w#0 : index\n"
    "    scf.if %f {\n      pto.barrier <PIPE_ALL>\n    }\n"
    "    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
    "    pto.record_event [#pto.pipe_event_type<TLOAD>, #pto.event<EVENT_ID0>]\n"
    "    return\n  }\n}\n",
};

Test(printer, round_trip_dps) {
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) expect_round_trip(programs[i], PRINT_DPS);
}

Test(printer, round_trip_ssa) {
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) expect_round_trip(programs[i], PRINT_SSA);
}

Test(printer, dps_and_ssa_prints_describe_the_same_program) {
    /* printing one form from the other's output converges to the same text */
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        const char *dps = module_to_string(arena, parse_clean(programs[i], "input"), PRINT_DPS);
        const char *ssa_of_dps = module_to_string(arena, parse_clean(dps, "dps"), PRINT_SSA);
        const char *dps_again = module_to_string(arena, parse_clean(ssa_of_dps, "ssa"), PRINT_DPS);
        cr_assert_str_eq(dps, dps_again, "program %zu", i);
    }
}

Test(printer, seed_samples_round_trip) {
    static const char *const names[] = {"tmuls", "texpands", "trowexpandmul", "trowexpandsub", "trowprod"};
    static const char *const forms[] = {"ssa", "dps", "asm"};
    static const char *const modes[] = {"auto", "manual"};
    int checked = 0;
    for (size_t n = 0; n < 5; n++)
        for (size_t f = 0; f < 3; f++)
            for (size_t m = 0; m < 2; m++) {
                char path[128];
                snprintf(path, sizeof path, "samples/seeds/%s_%s_%s.pto", names[n], forms[f], modes[m]);
                SourceFile sf;
                char err[256];
                cr_assert(source_file_read(arena, path, &sf, err, sizeof err), "%s (run from the repository root)", err);
                expect_round_trip(sf.text, PRINT_DPS);
                expect_round_trip(sf.text, PRINT_SSA);
                checked++;
            }
    cr_assert_eq(checked, 30);
}

Test(printer, dps_refuses_ssa_result_with_dynamic_valid_shape) {
    /* the one inside a region is found too; a static result type and DPS-written ops are fine; %a's
     * valid shape is set at run time, so the alloc_tile's operands do not hold it */
    Module *m = parse_clean("func.func @k(%r: index, %cond: i1) {\n"
                            "  %c8 = arith.constant 8 : index\n"
                            "  %a = pto.alloc_tile valid_row = %r valid_col = %c8 : !pto.tile_buf<vec, 8x8xf32, valid=?x?>\n"
                            "  pto.set_validshape %a, %c8, %r : !pto.tile_buf<vec, 8x8xf32, valid=?x?>\n"
                            "  %d = pto.tmuls %a, 2.0 : !pto.tile_buf<vec, 8x8xf32, valid=?x?> -> !pto.tile_buf<vec, 8x8xf32>\n"
                            "  pto.tmuls ins(%a, 2.0 : !pto.tile_buf<vec, 8x8xf32, valid=?x?>, f32) outs(%a : !pto.tile_buf<vec, 8x8xf32, valid=?x?>)\n"
                            "  scf.if %cond {\n"
                            "    %b = pto.tmuls %a, 2.0 : !pto.tile_buf<vec, 8x8xf32, valid=?x?>\n"
                            "  }\n"
                            "  return\n"
                            "}\n",
                            "input");
    DiagList d;
    diag_init(&d, arena);
    cr_assert(module_check_printable(m, PRINT_SSA, &d));
    cr_assert_eq(d.count, 0);
    cr_assert_not(module_check_printable(m, PRINT_DPS, &d));
    cr_assert_eq(d.count, 1);
    cr_assert_eq(d.items[0].loc.line, 8);
    cr_assert_str_eq(d.items[0].rule, "PRINT.dps-dynamic-valid");
    cr_assert(strstr(d.items[0].message, "result %b has a dynamic valid shape"), "%s", d.items[0].message);
}

Test(printer, eventid_arrays_in_every_form) {
    /* PTOAS's custom format (`-> T`, `%arr[%i]`) in dps and ssa, MLIR's generic form in generic;
     * a literal index is hoisted into a constant where PTOAS needs a value */
    const char *src = "func.func @k() {\n"
                      "  %arr = pto.declare_eventid_array -> !pto.eventid_array<2>\n"
                      "  %c1 = arith.constant 1 : index\n"
                      "  pto.eventid_array_set %arr[%c1], %c1 : !pto.eventid_array<2>\n"
                      "  %e = pto.eventid_array_get %arr[0] : !pto.eventid_array<2>\n"
                      "  return\n"
                      "}\n";
    cr_assert_str_eq(print(src, PRINT_DPS),
                     "module {\n"
                     "  func.func @k() {\n"
                     "    %arr = pto.declare_eventid_array -> !pto.eventid_array<2>\n"
                     "    %c1 = arith.constant 1 : index\n"
                     "    pto.eventid_array_set %arr[%c1], %c1 : !pto.eventid_array<2>\n"
                     "    %cst = arith.constant 0 : index\n"
                     "    %e = pto.eventid_array_get %arr[%cst] : !pto.eventid_array<2>\n"
                     "    return\n"
                     "  }\n"
                     "}\n");
    cr_assert_str_eq(print(src, PRINT_GENERIC),
                     "module {\n"
                     "  func.func @k() {\n"
                     "    %arr = \"pto.declare_eventid_array\"() : () -> !pto.eventid_array<2>\n"
                     "    %c1 = arith.constant 1 : index\n"
                     "    \"pto.eventid_array_set\"(%arr, %c1, %c1) : (!pto.eventid_array<2>, index, index) -> ()\n"
                     "    %cst = arith.constant 0 : index\n"
                     "    %e = \"pto.eventid_array_get\"(%arr, %cst) : (!pto.eventid_array<2>, index) -> index\n"
                     "    return\n"
                     "  }\n"
                     "}\n");
    expect_round_trip(src, PRINT_DPS);
    expect_round_trip(src, PRINT_GENERIC);
    expect_round_trip(src, PRINT_SSA);
}

Test(printer, set_target_adds_or_replaces_the_attribute) {
    Module *m = parse_clean("%c = arith.constant 1 : index\n", "input");
    module_set_target(m, TARGET_A5);
    cr_assert_eq(m->file_target, TARGET_A5);
    cr_assert_str_eq(module_to_string(arena, m, PRINT_SSA),
                     "module attributes {pto.target_arch = \"a5\"} {\n"
                     "  func.func @main() {\n"
                     "    %c = arith.constant 1 : index\n"
                     "    return\n"
                     "  }\n"
                     "}\n");
    m = parse_clean("module attributes {\"pto.device-spec\" = \"Ascend950\", pto.target_arch = \"a5\"} {\n}\n", "input");
    module_set_target(m, TARGET_A2A3);
    cr_assert_eq(m->file_target, TARGET_A2A3);
    cr_assert_str_eq(module_to_string(arena, m, PRINT_DPS), "module attributes {\"pto.device-spec\" = \"Ascend950\", pto.target_arch = \"a2a3\"} {\n}\n");
}

Test(printer, empty_file_is_an_empty_main) {
    Module *m = parse_clean("// nothing but a comment\n", "input");
    cr_assert_eq(m->n_funcs, 1);
    cr_assert(m->implicit);
    cr_assert_str_eq(module_to_string(arena, m, PRINT_SSA), "");
    cr_assert_str_eq(module_to_string(arena, m, PRINT_DPS), "module {\n  func.func @main() {\n    return\n  }\n}\n");
}

Test(printer, automatic_tiles_beside_manual_ones_get_addresses_of_their_own) {
    /* a manual tile at 0 (1 KiB) and one in the middle of UB; the automatic ones go after the
     * first, around the second, never into the A2/A3 row-expand scratch, and a tile bound by a
     * result-form tassign gets that tassign's address on its alloc_tile */
    const char *s = print("%m = pto.alloc_tile addr = 0 : " TB16 "\n"
                          "%mid = pto.alloc_tile addr = 2048 : " TB16 "\n"
                          "%a = pto.alloc_tile : " TB16 "\n"
                          "%b = pto.alloc_tile : !pto.tile_buf<vec, 16x32xf32>\n"
                          "%c = pto.alloc_tile : " TB16 "\n"
                          "%at = arith.constant 4096 : i64\n"
                          "%t = pto.alloc_tile : " TB16 "\n"
                          "%u = pto.tassign %t, %at : " TB16 " -> " TB16 "\n",
                          PRINT_DPS);
    cr_assert(strstr(s, "%c1024_i64 = arith.constant 1024 : i64\n    %a = pto.alloc_tile addr = %c1024_i64"), "%s", s);
    /* %b (2 KiB) fits neither before %mid nor between %mid and %t (4096, bound by its tassign) */
    cr_assert(strstr(s, "%c5120_i64 = arith.constant 5120 : i64\n    %b = pto.alloc_tile addr = %c5120_i64"), "%s", s);
    cr_assert(strstr(s, "%c3072_i64 = arith.constant 3072 : i64\n    %c = pto.alloc_tile addr = %c3072_i64"), "%s", s);
    cr_assert(strstr(s, "%c4096_i64 = arith.constant 4096 : i64\n    %t = pto.alloc_tile addr = %c4096_i64"), "%s", s);
    /* all automatic: nothing placed */
    const char *all_auto = print("%a = pto.alloc_tile : " TB16 "\n%b = pto.alloc_tile : " TB16 "\n", PRINT_DPS);
    cr_assert_null(strstr(all_auto, "addr"), "%s", all_auto);
    /* a manual address known only at run time: nothing placed */
    const char *computed = print("func.func @k(%x: i64) {\n"
                                 "  %m = pto.alloc_tile addr = %x : " TB16 "\n"
                                 "  %a = pto.alloc_tile : " TB16 "\n"
                                 "  return\n}\n",
                                 PRINT_DPS);
    cr_assert(strstr(computed, "%a = pto.alloc_tile : "), "%s", computed);
}
