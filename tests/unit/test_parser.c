/* test_parser.c - the grammar and IR builder: every spelling of every seed op, module / bare
 * files, scf and func structure, normalisation rules, and every parse / structural error with its
 * exact line:column, several per file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

typedef struct Parsed {
    Arena *arena;
    DiagList diags;
    Module *m;
} Parsed;

static Parsed P;

static void teardown(void) {
    arena_free(P.arena);
    memset(&P, 0, sizeof P);
}

static Module *parse(const char *text) {
    teardown();
    P.arena = arena_new();
    diag_init(&P.diags, P.arena);
    SourceFile *f = source_file_from_string(P.arena, "t.pto", text, strlen(text));
    P.m = parse_module(P.arena, f, &P.diags);
    cr_assert_not_null(P.m);
    diag_sort(&P.diags);
    return P.m;
}

static Module *parse_ok(const char *text) {
    parse(text);
    cr_assert_eq(P.diags.count, 0, "unexpected diagnostic %u:%u: %s", P.diags.count ? P.diags.items[0].loc.line : 0,
                 P.diags.count ? P.diags.items[0].loc.col : 0, P.diags.count ? P.diags.items[0].message : "");
    return P.m;
}

/* The n-th op (0-based) of a function body. */
static const Op *nth_op(const Func *f, int n) {
    const Op *op = f->body.block->first;
    for (int i = 0; i < n && op; i++) op = op->next;
    cr_assert_not_null(op, "no op %d", n);
    return op;
}

static const Op *last_op(const Func *f) {
    cr_assert_not_null(f->body.block->last);
    return f->body.block->last;
}

typedef struct Expected {
    unsigned line;
    const char *at;      /* the diagnostic's column is where this text first occurs on that line; with a '|'
                          * the column is at the '|' (e.g. "outs(|%t") */
    const char *message; /* exact message */
} Expected;

/* 1-based column of the first occurrence of `needle` on line `line` of `text` (0 if absent);
 * a '|' in the needle marks the column inside the match. */
static unsigned column_of(const char *text, unsigned line, const char *needle) {
    char want[256];
    const char *bar = strchr(needle, '|');
    size_t skip = bar ? (size_t)(bar - needle) : 0;
    snprintf(want, sizeof want, "%.*s%s", (int)skip, needle, bar ? bar + 1 : needle + skip);
    const char *p = text;
    for (unsigned l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return 0;
    const char *end = strchr(p, '\n');
    size_t n = strlen(want);
    for (const char *q = p; q + n <= (end ? end : p + strlen(p)); q++)
        if (strncmp(q, want, n) == 0) return (unsigned)(q - p + skip) + 1;
    return 0;
}

/* The sorted diagnostics are exactly `want` (all errors). */
static void expect_diags(const char *text, const Expected *want, size_t n) {
    parse(text);
    for (size_t i = 0; i < P.diags.count && i < n; i++) {
        const Diag *d = &P.diags.items[i];
        unsigned col = column_of(text, want[i].line, want[i].at);
        cr_expect_neq(col, 0, "diag %zu: '%s' not on line %u", i, want[i].at, want[i].line);
        cr_expect_eq(d->severity, SEV_ERROR);
        cr_expect_eq(d->loc.line, want[i].line, "diag %zu '%s': line %u, expected %u", i, d->message, d->loc.line, want[i].line);
        cr_expect_eq(d->loc.col, col, "diag %zu '%s': col %u, expected %u", i, d->message, d->loc.col, col);
        cr_expect_str_eq(d->message, want[i].message, "diag %zu", i);
    }
    for (size_t i = n; i < P.diags.count; i++)
        cr_expect(0, "unexpected diagnostic %u:%u: %s", P.diags.items[i].loc.line, P.diags.items[i].loc.col,
                  P.diags.items[i].message);
    cr_assert_eq(P.diags.count, n, "got %zu diagnostics, expected %zu", P.diags.count, n);
}

#define EXPECT_DIAGS(text, ...)                                                                        \
    do {                                                                                               \
        static const Expected want_[] = {__VA_ARGS__};                                                 \
        expect_diags(text, want_, sizeof want_ / sizeof *want_);                                       \
    } while (0)

TestSuite(parser, .fini = teardown);

#define T16 "!pto.tile<vec, 16x16xf32>"
#define TB16 "!pto.tile_buf<vec, 16x16xf32>"
#define TCOL "!pto.tile<vec, 16x1xf32, blayout=col_major>"
#define TBCOL "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"

/* ---- seed ops: all spellings give the same IR ------------------------------------------------ */

/* op: ins = names (with `types` as written or defined), outs = [dst]. */
static void expect_dps_shape(const Op *op, OpCode code, const char *const *ins, int n_ins, const char *dst) {
    cr_assert_eq(op->code, code, "op %s", op_info(op->code)->name);
    cr_assert_eq(op->ins.count, n_ins);
    for (int i = 0; i < n_ins; i++) {
        if (ins[i][0] == '%') {
            cr_assert_eq(op->ins.items[i].kind, OPD_VALUE);
            cr_assert_not_null(op->ins.items[i].value);
            cr_assert_str_eq(op->ins.items[i].value->name, ins[i] + 1);
        } else {
            cr_assert_neq(op->ins.items[i].kind, OPD_VALUE);
            cr_assert_str_eq(op->ins.items[i].text, ins[i]);
        }
    }
    cr_assert_eq(op->outs.count, 1);
    cr_assert_not_null(op->outs.items[0].value);
    cr_assert_str_eq(op->outs.items[0].value->name, dst);
    cr_assert_not_null(op->outs.items[0].value->type);
    cr_assert_eq(op->outs.items[0].value->type->kind, TY_TILE);
}

Test(parser, tmuls_three_spellings) {
    static const char *const ins[] = {"%src", "%c"};
    Module *m = parse_ok("%c = arith.constant 2.0 : f32\n"
                         "%src = pto.alloc_tile : " TB16 "\n"
                         "%dst = pto.alloc_tile : " TB16 "\n"
                         "pto.tmuls ins(%src, %c : " TB16 ", f32) outs(%dst : " TB16 ")\n"
                         "%d1 = pto.tmuls %src, %c : (" T16 ", f32) -> " T16 "\n"
                         "%d2 = tmuls %src, %c : " T16 ", f32\n");
    cr_assert(m->implicit);
    const Func *f = m->funcs[0];
    const Op *dps = nth_op(f, 3), *ssa = nth_op(f, 4), *as = nth_op(f, 5);
    expect_dps_shape(dps, OP_TMULS, ins, 2, "dst");
    expect_dps_shape(ssa, OP_TMULS, ins, 2, "d1");
    expect_dps_shape(as, OP_TMULS, ins, 2, "d2");
    cr_assert_eq(dps->spelling, SPELL_DPS);
    cr_assert_eq(ssa->spelling, SPELL_SSA);
    cr_assert_eq(as->spelling, SPELL_ASM);
    cr_assert_eq(dps->n_results, 0);
    cr_assert_eq(ssa->n_results, 1);
    cr_assert_eq(ssa->outs.items[0].value, ssa->results[0]); /* the SSA result is also outs[0] */
    /* the assembly form's result type is implied: the source tile type */
    cr_assert(type_equal(as->results[0]->type, nth_op(f, 1)->results[0]->type));
    /* Operand.type is the type written at the use */
    cr_assert_eq(dps->ins.items[0].type->kind, TY_TILE);
    cr_assert(dps->ins.items[0].type->tile_buf);
    cr_assert_eq(ssa->ins.items[1].type->kind, TY_SCALAR);
    cr_assert_eq(ssa->ins.items[1].type->dtype, DT_F32);
    cr_assert_eq(dps->loc.line, 4);
    cr_assert_eq(dps->loc.col, 1);
    cr_assert_eq(ssa->sig_loc.line, 5);
}

Test(parser, texpands_three_spellings) {
    static const char *const ins[] = {"%s"};
    Module *m = parse_ok("%s = arith.constant 3.5 : f32\n"
                         "%d = pto.alloc_tile : " TB16 "\n"
                         "pto.texpands ins(%s : f32) outs(%d : " TB16 ")\n"
                         "%d1 = pto.texpands %s : f32 -> " T16 "\n"
                         "%d2 = texpands %s : f32, " T16 "\n");
    const Func *f = m->funcs[0];
    expect_dps_shape(nth_op(f, 2), OP_TEXPANDS, ins, 1, "d");
    expect_dps_shape(nth_op(f, 3), OP_TEXPANDS, ins, 1, "d1");
    expect_dps_shape(nth_op(f, 4), OP_TEXPANDS, ins, 1, "d2");
    /* `: f32, T` binds f32 to the operand and T to the result */
    cr_assert_eq(nth_op(f, 4)->ins.items[0].type->dtype, DT_F32);
    cr_assert_eq(nth_op(f, 4)->results[0]->type->kind, TY_TILE);
}

Test(parser, rowexpand_three_spellings) {
    static const char *const ins[] = {"%a", "%b"};
    static const char *const ins_tmp[] = {"%a", "%b", "%t"};
    Module *m = parse_ok("%a = pto.alloc_tile : " TB16 "\n"
                         "%b = pto.alloc_tile : " TBCOL "\n"
                         "%t = pto.alloc_tile : " TB16 "\n"
                         "%d = pto.alloc_tile : " TB16 "\n"
                         "pto.trowexpandmul ins(%a, %b : " TB16 ", " TBCOL ") outs(%d : " TB16 ")\n"
                         "pto.trowexpandsub ins(%a, %b, %t : " TB16 ", " TBCOL ", " TB16 ") outs(%d : " TB16 ")\n"
                         "%x = pto.trowexpandmul %a, %b : " T16 ", " TCOL " -> " T16 "\n"
                         "%y = pto.trowexpandsub %a, %b : (" T16 ", " TCOL ") -> " T16 "\n"
                         "%z = trowexpandsub %a, %b : " T16 ", " TCOL " -> " T16 "\n"
                         "%w = trowexpandmul %a, %b, %t : " T16 ", " TCOL ", " T16 " -> " T16 "\n");
    const Func *f = m->funcs[0];
    expect_dps_shape(nth_op(f, 4), OP_TROWEXPANDMUL, ins, 2, "d");
    expect_dps_shape(nth_op(f, 5), OP_TROWEXPANDSUB, ins_tmp, 3, "d");
    expect_dps_shape(nth_op(f, 6), OP_TROWEXPANDMUL, ins, 2, "x");
    expect_dps_shape(nth_op(f, 7), OP_TROWEXPANDSUB, ins, 2, "y");
    expect_dps_shape(nth_op(f, 8), OP_TROWEXPANDSUB, ins, 2, "z");
    expect_dps_shape(nth_op(f, 9), OP_TROWEXPANDMUL, ins_tmp, 3, "w");
}

Test(parser, trowprod_spellings_and_assembly_form_without_tmp) {
    static const char *const ins[] = {"%s", "%t"};
    static const char *const ins_no_tmp[] = {"%s"};
    Module *m = parse_ok("%s = pto.alloc_tile : " TB16 "\n"
                         "%t = pto.alloc_tile : " TB16 "\n"
                         "%d = pto.alloc_tile : " TBCOL "\n"
                         "pto.trowprod ins(%s, %t : " TB16 ", " TB16 ") outs(%d : " TBCOL ")\n"
                         "%d1 = pto.trowprod %s, %t : (" T16 ", " T16 ") -> " TCOL "\n"
                         "%d2 = trowprod %s : " T16 " -> " TCOL "\n");
    const Func *f = m->funcs[0];
    expect_dps_shape(nth_op(f, 3), OP_TROWPROD, ins, 2, "d");
    expect_dps_shape(nth_op(f, 4), OP_TROWPROD, ins, 2, "d1");
    expect_dps_shape(nth_op(f, 5), OP_TROWPROD, ins_no_tmp, 1, "d2");
    cr_assert_eq(nth_op(f, 5)->results[0]->type->tile.cols, 1);
}

Test(parser, immediates_in_scalar_positions) {
    Module *m = parse_ok("%s = pto.alloc_tile : " TB16 "\n"
                         "%a = pto.tmuls %s, 2.5 : " T16 "\n"
                         "%b = pto.tmuls %s, 7 : " T16 "\n"
                         "%c = tmuls %s, 0x3F800000 : " T16 ", f32\n"
                         "%d = pto.texpands -4.0e+00 : f32 -> " T16 "\n");
    const Func *f = m->funcs[0];
    const Operand *o = &nth_op(f, 1)->ins.items[1];
    cr_assert_eq(o->kind, OPD_FLOAT);
    cr_assert_float_eq(o->fval, 2.5, 0);
    cr_assert_str_eq(o->text, "2.5");
    o = &nth_op(f, 2)->ins.items[1];
    cr_assert_eq(o->kind, OPD_INT);
    cr_assert_eq(o->ival, 7);
    o = &nth_op(f, 3)->ins.items[1];
    cr_assert_eq(o->kind, OPD_INT);
    cr_assert(o->hex);
    cr_assert_eq(o->ival, 0x3F800000);
    cr_assert_eq(o->type->dtype, DT_F32);
    o = &nth_op(f, 4)->ins.items[0];
    cr_assert_eq(o->kind, OPD_FLOAT);
    cr_assert_float_eq(o->fval, -4.0, 0);
}

Test(parser, in_place_dps) {
    Module *m = parse_ok("%c = arith.constant 2.0 : f32\n%x = pto.alloc_tile : " TB16 "\n"
                         "pto.tmuls ins(%x, %c : " TB16 ", f32) outs(%x : " TB16 ")\n");
    const Op *op = nth_op(m->funcs[0], 2);
    cr_assert_eq(op->ins.items[0].value, op->outs.items[0].value);
}

Test(parser, positional_dps_without_result_fills_outs) {
    Module *m = parse_ok("%c = arith.constant 2.0 : f32\n%x = pto.alloc_tile : " TB16 "\n%y = pto.alloc_tile : " TB16 "\n"
                         "pto.tmuls %x, %c, %y : " T16 ", f32, " T16 "\n"
                         "%p = pto.alloc_tile : " TB16 "\n");
    const Op *op = nth_op(m->funcs[0], 3);
    cr_assert_eq(op->ins.count, 2);
    cr_assert_eq(op->outs.count, 1);
    cr_assert_str_eq(op->outs.items[0].value->name, "y");
    cr_assert_eq(op->n_results, 0);
}

/* ---- tiles, placement, GM views ------------------------------------------------------------ */

Test(parser, tassign_seed_form_forward_reference) {
    Module *m = parse_ok("pto.tassign %dst, @tile(0x1000)\n"
                         "%dst = pto.alloc_tile : " TB16 "\n");
    const Op *op = nth_op(m->funcs[0], 0);
    cr_assert_eq(op->code, OP_TASSIGN);
    cr_assert_eq(op->n_results, 0);
    cr_assert_eq(op->ins.count, 2);
    cr_assert_eq(op->ins.items[0].value, nth_op(m->funcs[0], 1)->results[0]);
    cr_assert_eq(op->ins.items[1].kind, OPD_TILE_ADDR);
    cr_assert_eq(op->ins.items[1].ival, 0x1000);
}

Test(parser, tassign_ptoas_form) {
    Module *m = parse_ok("%a = arith.constant 4096 : i64\n%t = pto.alloc_tile : " TB16 "\n"
                         "%t2 = pto.tassign %t, %a : " TB16 " -> " TB16 "\n");
    const Op *op = nth_op(m->funcs[0], 2);
    cr_assert_eq(op->n_results, 1);
    cr_assert_eq(op->ins.items[1].value->type->dtype, DT_I64);
    cr_assert_eq(op->results[0]->type->kind, TY_TILE);
}

Test(parser, alloc_tile_keywords) {
    Module *m = parse_ok("%a = arith.constant 4096 : i64\n%r = arith.constant 8 : index\n"
                         "%t = pto.alloc_tile addr = %a valid_row = %r valid_col = %r : !pto.tile_buf<vec, 16x16xf32, valid=?x?>\n");
    const Op *op = nth_op(m->funcs[0], 2);
    cr_assert_eq(op->n_kwargs, 3);
    const KeywordArg *k = op_kwarg(op, "valid_col");
    cr_assert_not_null(k);
    cr_assert_not(k->bracketed);
    cr_assert_eq(k->list.count, 1);
    cr_assert_str_eq(k->list.items[0].value->name, "r");
    const char *line = "%t = pto.alloc_tile addr = %a valid_row = %r valid_col = %r";
    cr_assert_eq(k->loc.col, (uint32_t)(strstr(line, "valid_col") - line) + 1); /* the key */
    cr_assert_eq(k->list.items[0].loc.col, (uint32_t)(strstr(line, "valid_col = ") - line) + 13);
}

Test(parser, gm_views) {
    Module *m = parse_ok("module {\n"
                         "  func.func @k(%arg0: !pto.ptr<f32>) {\n"
                         "    %c0 = arith.constant 0 : index\n"
                         "    %c1 = arith.constant 1 : index\n"
                         "    %c32 = arith.constant 32 : index\n"
                         "    %v = pto.make_tensor_view %arg0, shape = [%c32, %c32], strides = [%c32, %c1] "
                         "{layout = #pto.layout<nd>}: !pto.tensor_view<?x?xf32>\n"
                         "    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c32, %c32] : "
                         "!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x32xf32>\n"
                         "    %t = pto.alloc_tile : !pto.tile_buf<vec, 32x32xf32>\n"
                         "    pto.tload ins(%p : !pto.partition_tensor_view<32x32xf32>) outs(%t : !pto.tile_buf<vec, 32x32xf32>)\n"
                         "    pto.tstore ins(%t : !pto.tile_buf<vec, 32x32xf32>) outs(%p : !pto.partition_tensor_view<32x32xf32>)\n"
                         "    return\n"
                         "  }\n"
                         "}\n");
    cr_assert(m->has_module_keyword);
    cr_assert_not(m->implicit);
    const Func *f = m->funcs[0];
    cr_assert_str_eq(f->name, "k");
    cr_assert_eq(f->n_args, 1);
    cr_assert_eq(f->args[0]->type->kind, TY_PTR);
    const Op *mtv = nth_op(f, 3);
    cr_assert_eq(mtv->code, OP_MAKE_TENSOR_VIEW);
    cr_assert_eq(mtv->ins.items[0].value, f->args[0]);
    const KeywordArg *shape = op_kwarg(mtv, "shape");
    cr_assert(shape->bracketed);
    cr_assert_eq(shape->list.count, 2);
    const Attr *layout = attr_find(&mtv->attrs, "layout");
    cr_assert_not_null(layout);
    cr_assert_eq(layout->kind, ATTR_RAW);
    cr_assert_str_eq(layout->text, "#pto.layout<nd>");
    cr_assert_eq(mtv->results[0]->type->kind, TY_TENSOR_VIEW);
    const Op *pv = nth_op(f, 4);
    cr_assert_eq(pv->results[0]->type->kind, TY_PARTITION_VIEW);
    cr_assert_eq(pv->ins.items[0].type->kind, TY_TENSOR_VIEW);
    cr_assert_eq(nth_op(f, 6)->code, OP_TLOAD);
    cr_assert_eq(nth_op(f, 7)->code, OP_TSTORE);
    cr_assert_eq(last_op(f)->code, OP_RETURN);
}

/* ---- scalars and control ------------------------------------------------------------------- */

Test(parser, arith_forms) {
    Module *m = parse_ok("%f = arith.constant 1.0 : f32\n"
                         "%t = arith.constant true\n"
                         "%h = arith.constant 0x40490FDB : f32\n"
                         "%i = arith.constant 7 : i32\n"
                         "%x = arith.index_cast %i : i32 to index\n"
                         "%c4 = arith.constant 4 : index\n"
                         "%lt = arith.cmpi slt, %x, %c4 : index\n"
                         "%s = arith.addi %x, %c4 : index\n"
                         "%sel = arith.select %lt, %x, %s : index\n");
    const Func *f = m->funcs[0];
    cr_assert_eq(nth_op(f, 0)->results[0]->type->dtype, DT_F32);
    cr_assert_eq(nth_op(f, 0)->ins.items[0].type->dtype, DT_F32);
    cr_assert_eq(nth_op(f, 1)->results[0]->type->dtype, DT_I1);
    cr_assert_eq(nth_op(f, 1)->ins.items[0].kind, OPD_BOOL);
    cr_assert(nth_op(f, 2)->ins.items[0].hex);
    const Op *cast = nth_op(f, 4);
    cr_assert_eq(cast->ins.items[0].type->dtype, DT_I32);
    cr_assert_eq(cast->results[0]->type->dtype, DT_INDEX);
    const Op *cmp = nth_op(f, 6);
    cr_assert_str_eq(cmp->predicate, "slt");
    cr_assert_eq(cmp->ins.count, 2);
    cr_assert_eq(cmp->results[0]->type->dtype, DT_I1);
    cr_assert_eq(nth_op(f, 8)->results[0]->type->dtype, DT_INDEX);
}

Test(parser, scf_for_with_iter_args) {
    Module *m = parse_ok("%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n%c4 = arith.constant 4 : index\n"
                         "%true = arith.constant true\n"
                         "%r = scf.for %i = %c0 to %c4 step %c1\n"
                         "    iter_args(%alive = %true) -> (i1) {\n"
                         "  %lt = arith.cmpi slt, %i, %c1 : index\n"
                         "  %n = arith.andi %lt, %alive : i1\n"
                         "  scf.yield %n : i1\n"
                         "}\n"
                         "%x = arith.xori %r, %true : i1\n");
    const Func *f = m->funcs[0];
    const Op *loop = nth_op(f, 4);
    cr_assert_eq(loop->code, OP_SCF_FOR);
    cr_assert_eq(loop->ins.count, 4);
    cr_assert_str_eq(loop->ins.items[3].value->name, "true");
    cr_assert_eq(loop->n_regions, 1);
    const Block *body = loop->regions[0].block;
    cr_assert_eq(body->n_args, 2);
    cr_assert_str_eq(body->args[0]->name, "i");
    cr_assert_eq(body->args[0]->type->dtype, DT_INDEX);
    cr_assert_eq(body->args[0]->owner, body);
    cr_assert_str_eq(body->args[1]->name, "alive");
    cr_assert_eq(body->args[1]->type->dtype, DT_I1);
    cr_assert_eq(loop->n_results, 1);
    cr_assert_eq(loop->n_result_types, 1);
    cr_assert_eq(body->last->code, OP_SCF_YIELD);
    cr_assert_eq(body->first->ins.items[0].value, body->args[0]);
    cr_assert_eq(nth_op(f, 5)->ins.items[0].value, loop->results[0]);
    cr_assert_eq(body->parent->parent, loop);
}

Test(parser, scf_if_forms) {
    Module *m = parse_ok("%c = arith.constant true\n%a = arith.constant 1 : index\n%b = arith.constant 2 : index\n"
                         "scf.if %c {\n  %u = arith.addi %a, %b : index\n}\n"
                         "%r = scf.if %c -> (index) {\n  scf.yield %a : index\n} else {\n  scf.yield %b : index\n}\n"
                         "%v:2 = scf.if %c -> (index, index) {\n  scf.yield %a, %b : index, index\n} else {\n"
                         "  scf.yield %b, %a : index, index\n}\n"
                         "%w = arith.addi %v#0, %v#1 : index\n");
    const Func *f = m->funcs[0];
    const Op *plain = nth_op(f, 3);
    cr_assert_eq(plain->n_regions, 2);
    cr_assert_not_null(plain->regions[0].block->first);
    cr_assert_null(plain->regions[1].block->first); /* no else: an empty else block */
    const Op *with = nth_op(f, 4);
    cr_assert_eq(with->n_results, 1);
    cr_assert_eq(with->result_types[0]->dtype, DT_INDEX);
    cr_assert_eq(with->regions[1].block->last->code, OP_SCF_YIELD);
    const Op *group = nth_op(f, 5);
    cr_assert_eq(group->n_results, 2);
    cr_assert_str_eq(group->results[1]->name, "v#1");
    cr_assert_eq(nth_op(f, 6)->ins.items[1].value, group->results[1]);
}

Test(parser, scf_while) {
    Module *m = parse_ok("%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n%t = arith.constant true\n"
                         "%final:2 = scf.while (%i = %c0, %alive = %t)\n    : (index, i1) -> (index, i1) {\n"
                         "  %lt = arith.cmpi slt, %i, %c1 : index\n"
                         "  scf.condition(%lt) %i, %alive : index, i1\n"
                         "} do {\n"
                         "^bb0(%i2: index, %alive2: i1):\n"
                         "  %n = arith.addi %i2, %c1 : index\n"
                         "  scf.yield %n, %alive2 : index, i1\n"
                         "}\n");
    const Op *w = nth_op(m->funcs[0], 3);
    cr_assert_eq(w->code, OP_SCF_WHILE);
    cr_assert_eq(w->ins.count, 2);
    cr_assert_eq(w->n_regions, 2);
    cr_assert_eq(w->regions[0].block->n_args, 2);
    cr_assert_str_eq(w->regions[0].block->args[0]->name, "i");
    cr_assert_eq(w->regions[1].block->n_args, 2);
    cr_assert_str_eq(w->regions[1].block->args[1]->name, "alive2");
    const Op *cond = w->regions[0].block->last;
    cr_assert_eq(cond->code, OP_SCF_CONDITION);
    cr_assert_eq(cond->ins.count, 3);
    cr_assert_eq(w->n_results, 2);
}

Test(parser, functions_calls_and_entry) {
    Module *m = parse_ok("module attributes {\"pto.target_arch\" = \"a5\"} {\n"
                         "  func.func private @helper(%x: index) -> index {\n"
                         "    return %x : index\n"
                         "  }\n"
                         "  func.func @kernel(%arg0: index) attributes {pto.entry} {\n"
                         "    %r = func.call @helper(%arg0) : (index) -> (index)\n"
                         "    %q = func.call @helper(%r) : (index) -> index\n"
                         "    return\n"
                         "  }\n"
                         "}\n");
    cr_assert(m->has_target_attr);
    cr_assert_eq(m->file_target, TARGET_A5);
    cr_assert_eq(m->n_funcs, 2);
    cr_assert(m->funcs[0]->is_private);
    cr_assert_eq(m->funcs[0]->n_results, 1);
    cr_assert(m->funcs[1]->is_entry);
    cr_assert_eq(module_entry(m, NULL), m->funcs[1]);
    const Op *call = nth_op(m->funcs[1], 0);
    cr_assert_eq(call->code, OP_CALL);
    cr_assert_str_eq(call->callee, "helper");
    cr_assert_eq(call->n_results, 1);
    cr_assert_eq(call->n_result_types, 1);
    const Op *ret = last_op(m->funcs[0]);
    cr_assert_eq(ret->code, OP_RETURN);
    cr_assert_eq(ret->ins.count, 1);
}

Test(parser, target_attribute_values) {
    Module *m = parse_ok("module attributes {pto.target_arch = \"a2a3\"} {\n}\n");
    cr_assert(m->has_target_attr);
    cr_assert_eq(m->file_target, TARGET_A2A3);
    m = parse_ok("module {\n  func.func @f() {\n    return\n  }\n}\n");
    cr_assert_not(m->has_target_attr);
    cr_assert_eq(m->n_funcs, 1);
    cr_assert_eq(module_entry(m, NULL), m->funcs[0]);
}

Test(parser, pipe_barrier_is_the_barrier_op_under_its_spec_name) {
    Module *m = parse_ok("pto.pipe_barrier <PIPE_V>\npipe_barrier <PIPE_ALL>\npto.barrier <PIPE_MTE2>\n");
    const Func *f = m->funcs[0];
    for (int i = 0; i < 3; i++) cr_assert_eq(nth_op(f, i)->code, OP_BARRIER, "op %d", i);
    cr_assert_str_eq(nth_op(f, 0)->attr_args.items[0].text, "<PIPE_V>");
    OpCode code;
    cr_assert(op_lookup("pto.pipe_barrier", strlen("pto.pipe_barrier"), &code));
    cr_assert_eq(code, OP_BARRIER);
}

Test(parser, sync_ops_keep_attribute_arguments) {
    Module *m = parse_ok("pto.barrier <PIPE_ALL>\n"
                         "pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
                         "pto.record_event [#pto.pipe_event_type<TLOAD>, #pto.event<EVENT_ID0>]\n"
                         "pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n");
    const Func *f = m->funcs[0];
    const Op *b = nth_op(f, 0);
    cr_assert_eq(b->code, OP_BARRIER);
    cr_assert_eq(b->attr_args.count, 1);
    cr_assert_not(b->attr_args_bracketed);
    cr_assert_str_eq(b->attr_args.items[0].text, "<PIPE_ALL>");
    const Op *s = nth_op(f, 1);
    cr_assert(s->attr_args_bracketed);
    cr_assert_eq(s->attr_args.count, 3);
    cr_assert_str_eq(s->attr_args.items[2].text, "<EVENT_ID0>");
    cr_assert_str_eq(nth_op(f, 2)->attr_args.items[0].text, "#pto.pipe_event_type<TLOAD>");
}

Test(parser, cross_core_sync_keeps_a_static_id_as_an_argument) {
    /* PTOAS's custom form `pto.sync.set <PIPE>, ID` or `<PIPE>, %id`: a static id is an argument
     * (never a literal operand an --emit could hoist into a constant), a value one operand */
    Module *m = parse_ok("%e = arith.constant 2 : index\n"
                         "pto.sync.set <PIPE_FIX>, 3 {ffts_mode = 1 : i32}\n"
                         "pto.sync.wait #pto.pipe<PIPE_V>, %e\n"
                         "pto.get_buf[#pto.pipe_event_type<TLOAD>, 7] {mode = 1 : i32}\n");
    const Func *f = m->funcs[0];
    const Op *set = nth_op(f, 1), *wait = nth_op(f, 2), *get = nth_op(f, 3);
    int pipe;
    int64_t id;
    cr_assert_eq(set->code, OP_SYNC_SET);
    cr_assert_eq(set->attr_args.count, 2);
    cr_assert_eq(set->ins.count, 0);
    cr_assert(sync_cross_args(set, &pipe, &id));
    cr_assert_eq(pipe, SYNC_PIPE_FIX);
    cr_assert_eq(id, 3);
    cr_assert_not_null(attr_find(&set->attrs, "ffts_mode"));
    cr_assert_eq(wait->code, OP_SYNC_WAIT);
    cr_assert_eq(wait->attr_args.count, 1);
    cr_assert_eq(wait->ins.count, 1);
    cr_assert(sync_cross_args(wait, &pipe, &id));
    cr_assert_eq(pipe, SYNC_PIPE_V);
    cr_assert_eq(id, -1);
    cr_assert(sync_buf_args(get, &pipe, &id));
    cr_assert_eq(pipe, SYNC_PIPE_MTE2);
    cr_assert_eq(id, 7);
}

Test(parser, eventid_array_ops_take_their_index_in_brackets) {
    /* PTOAS's `%arr[%i]` and the generic form name the same operands: array, index (, value) */
    Module *m = parse_ok("%arr = pto.declare_eventid_array -> !pto.eventid_array<4>\n"
                         "%c0 = arith.constant 0 : index\n"
                         "%c2 = arith.constant 2 : index\n"
                         "pto.eventid_array_set %arr[%c0], %c2 : !pto.eventid_array<4>\n"
                         "%e = pto.eventid_array_get %arr[%c0] : !pto.eventid_array<4>\n"
                         "%g = \"pto.eventid_array_get\"(%arr, %c2) : (!pto.eventid_array<4>, index) -> index\n"
                         "%h = pto.eventid_array_get %arr [ %c2 ] : !pto.eventid_array<4>\n");
    const Func *f = m->funcs[0];
    const Op *decl = nth_op(f, 0), *set = nth_op(f, 3), *get = nth_op(f, 4), *gen = nth_op(f, 5);
    cr_assert_eq(decl->code, OP_DECLARE_EVENTID_ARRAY);
    cr_assert_eq(decl->n_results, 1);
    cr_assert_eq(decl->results[0]->type->kind, TY_EVENTID_ARRAY);
    cr_assert_eq(decl->results[0]->type->size, 4);
    cr_assert_eq(set->code, OP_EVENTID_ARRAY_SET);
    cr_assert_eq(set->ins.count, 3);
    cr_assert_str_eq(set->ins.items[0].value->name, "arr");
    cr_assert_str_eq(set->ins.items[1].value->name, "c0");
    cr_assert_str_eq(set->ins.items[2].value->name, "c2");
    cr_assert_eq(set->n_results, 0);
    cr_assert_eq(get->code, OP_EVENTID_ARRAY_GET);
    cr_assert_eq(get->ins.count, 2);
    cr_assert_eq(get->results[0]->type->kind, TY_SCALAR); /* `: !pto.eventid_array<4>` is the array's type */
    cr_assert_eq(get->results[0]->type->dtype, DT_INDEX);
    cr_assert_eq(gen->code, OP_EVENTID_ARRAY_GET);
    cr_assert_str_eq(gen->ins.items[1].value->name, "c2");
    cr_assert_eq(gen->results[0]->type->dtype, DT_INDEX);
    const Op *spaced = nth_op(f, 6); /* MLIR's custom format allows a space before '[' */
    cr_assert_eq(spaced->code, OP_EVENTID_ARRAY_GET);
    cr_assert_eq(spaced->ins.count, 2);
    cr_assert_str_eq(spaced->ins.items[1].value->name, "c2");
}

Test(parser, eventid_array_misuse_says_how_to_write_it) {
    EXPECT_DIAGS("%arr = pto.declare_eventid_array -> !pto.eventid_array<4>\n"
                 "%c0 = arith.constant 0 : index\n"
                 "%a = pto.eventid_array_get %arr, %c0 : !pto.eventid_array<4>\n"
                 "%b = pto.eventid_array_get %arr[%c0, %c0] : !pto.eventid_array<4>\n"
                 "pto.eventid_array_set %arr[%c0][%c0] : !pto.eventid_array<4>\n"
                 "%c = pto.eventid_array_get %c0[%c0] : index\n"
                 "%t = pto.alloc_tile : " TB16 "\n"
                 "%d = pto.tmuls %t[%c0], 2.0 : " TB16 "\n",
                 {3, "%arr", "'pto.eventid_array_get' op expects its operands as `%array[%index]`"},
                 {4, "%arr", "'pto.eventid_array_get' op expects its operands as `%array[%index]`"},
                 {5, "]|[", "'pto.eventid_array_set' op expects its operands as `%array[%index], %value`"},
                 {6, "%c0[", "'pto.eventid_array_get' op operand 'array' expects a !pto.eventid_array, got %c0 of type index"},
                 {8, "%t", "'pto.tmuls' op does not take an indexed operand '%t[...]' (`%v[%i]` indexes an event-id array, a "
                           "pointer or a tile, in pto.subset, pto.load_scalar, pto.store_scalar, pto.eventid_array_get and "
                           "pto.eventid_array_set)"});
}

Test(parser, store_scalar_writes_its_value_first) {
    /* PTOAS's `%v, %ptr[%off] : !pto.ptr<T>, T` and the generic form name the same operands: ptr, offset, value */
    Module *m = parse_ok("module {\n  func.func @k(%p: !pto.ptr<f32>) {\n"
                         "    %c4 = arith.constant 4 : index\n"
                         "    %v = pto.load_scalar %p[%c4] : !pto.ptr<f32> -> f32\n"
                         "    pto.store_scalar %v, %p[%c4] : !pto.ptr<f32>, f32\n"
                         "    \"pto.store_scalar\"(%p, %c4, %v) : (!pto.ptr<f32>, index, f32) -> ()\n"
                         "    return\n  }\n}\n");
    const Func *f = m->funcs[0];
    const Op *load = nth_op(f, 1);
    cr_assert_eq(load->code, OP_LOAD_SCALAR);
    cr_assert_eq(load->results[0]->type->dtype, DT_F32);
    for (int k = 2; k <= 3; k++) {
        const Op *st = nth_op(f, k);
        cr_assert_eq(st->code, OP_STORE_SCALAR);
        cr_assert_eq(st->ins.count, 3);
        cr_assert_str_eq(st->ins.items[0].value->name, "p");
        cr_assert_str_eq(st->ins.items[1].value->name, "c4");
        cr_assert_str_eq(st->ins.items[2].value->name, "v");
    }
}

Test(parser, store_scalar_misuse_says_how_to_write_it) {
    EXPECT_DIAGS("module {\n  func.func @k(%p: !pto.ptr<f32>, %v: f32) {\n"
                 "    %c4 = arith.constant 4 : index\n"
                 "    pto.store_scalar %p[%c4], %v : !pto.ptr<f32>, f32\n"
                 "    return\n  }\n}\n",
                 {4, "%p", "'pto.store_scalar' op expects its operands as `%value, %ptr[%offset]`"});
}

Test(parser, cross_core_sync_wants_its_pipe_first) {
    EXPECT_DIAGS("%e = arith.constant 2 : index\n"
                 "pto.sync.set 3, <PIPE_FIX>\n"
                 "pto.sync.wait %e, <PIPE_V>\n",
                 {2, "3", "'pto.sync.set' op expects its pipe first: `pto.sync.set <PIPE>, ID`"},
                 {3, "%e,", "'pto.sync.wait' op expects its pipe first: `pto.sync.wait <PIPE>, ID`"});
}

Test(parser, value_ids_are_dense) {
    Module *m = parse_ok("module {\n  func.func @f(%a: index, %b: index) {\n    %c = arith.addi %a, %b : index\n"
                         "    scf.for %i = %a to %b step %c {\n      %d = arith.addi %i, %c : index\n    }\n    return\n  }\n}\n");
    const Func *f = m->funcs[0];
    cr_assert_eq(f->n_values, 5);
    bool seen[5] = {false};
    seen[f->args[0]->id] = seen[f->args[1]->id] = true;
    const Op *add = nth_op(f, 0), *loop = nth_op(f, 1);
    seen[add->results[0]->id] = true;
    seen[loop->regions[0].block->args[0]->id] = true;
    seen[loop->regions[0].block->first->results[0]->id] = true;
    for (int i = 0; i < 5; i++) cr_assert(seen[i], "id %d unused", i);
}

Test(parser, comments_and_multiline_statements) {
    Module *m = parse_ok("// header\n# Auto mode: compiler-managed.\n"
                         "%s = arith.constant 2.0 : f32 // trailing\n"
                         "%t = pto.alloc_tile\n   : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16,\n"
                         "                   blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
                         "pto.tmuls ins(%t, %s\n  : " TB16 ",\n    f32)\n  outs(%t\n  : " TB16 ")\n");
    cr_assert_eq(nth_op(m->funcs[0], 2)->code, OP_TMULS);
}

Test(parser, nested_values_are_scoped) {
    /* the same name in sibling regions is fine; the outer scope does not see inner values */
    parse_ok("%c = arith.constant true\n%a = arith.constant 1 : index\n"
             "scf.if %c {\n  %x = arith.addi %a, %a : index\n} else {\n  %x = arith.addi %a, %a : index\n}\n");
    EXPECT_DIAGS("%c = arith.constant true\n%a = arith.constant 1 : index\n"
                 "scf.if %c {\n  %x = arith.addi %a, %a : index\n}\n%y = arith.addi %x, %a : index\n",
                 {6, "%x", "'arith.addi' op operand 'lhs' uses %x, which is not visible here (defined at line 4 inside "
                           "another region)"});
}

/* ---- unsupported ops ------------------------------------------------------------------------ */

Test(parser, unsupported_operations_are_reported_and_parsing_continues) {
    EXPECT_DIAGS("%t = pto.alloc_tile : " TB16 "\n"
                 "pto.pointer_cast ins(%t : " TB16 ") outs(%t : " TB16 ")\n"
                 "%u = pto.tscatters %t, 1.0 : " T16 ", f32\n"
                 "%v = pto.tmuls %u, 2.0 : " T16 "\n" /* %u is known (poisoned): no cascade */
                 "%w = tfoo %v : " T16 "\n"
                 "%z = pto.tmuls %nope, 2.0 : " T16 "\n",
                 {2, "pto.pointer_cast", "unsupported operation 'pto.pointer_cast': this PTOAS operation is not implemented"},
                 {3, "pto.tscatters", "unsupported operation 'pto.tscatters'"},
                 {5, "tfoo", "unsupported operation 'tfoo'"},
                 {6, "%nope", "'pto.tmuls' op operand 'src' uses undefined value %nope"});
}

Test(parser, generic_syntax_of_unknown_ops_parses) {
    /* PTOAS ops outside our table, in their own generic shapes: only "unsupported operation" */
    EXPECT_DIAGS("%t = pto.alloc_tile : " TB16 "\n"
                 "%f = pto.bind_tile {\n  name = \"fifo\",\n  peer_func = @vector_kernel,\n  size = 8192\n} -> i32\n"
                 "%s = pto.tscale_frob(%t, %f : " TB16 ", i32) {cap = 2} -> !pto.async_session\n"
                 "%p = pto.pointer_cast {dir_mask = 1}(%f : i32) -> !pto.pipe\n"
                 "%a = pto.declare_tile_memref -> !pto.tile_buf<vec, 16x16xf32>\n"
                 "pto.pointer_cast ins(%t {rmode = #pto<round_mode ROUND>} : " TB16 ") outs(%t : " TB16 ")\n"
                 "pto.unknown_region {\n  %u = pto.tmuls %t, 2.0 : " T16 "\n}\n",
                 {2, "pto.bind_tile", "unsupported operation 'pto.bind_tile': this PTOAS operation is not implemented"},
                 {7, "pto.tscale_frob", "unsupported operation 'pto.tscale_frob'"},
                 {8, "pto.pointer_cast", "unsupported operation 'pto.pointer_cast': this PTOAS operation is not implemented"},
                 {9, "pto.declare_tile_memref",
                  "unsupported operation 'pto.declare_tile_memref': this PTOAS operation is not implemented"},
                 {10, "pto.pointer_cast", "unsupported operation 'pto.pointer_cast': this PTOAS operation is not implemented"},
                 {11, "pto.unknown_region", "unsupported operation 'pto.unknown_region'"});
}

Test(parser, async_transfer_ops_parse_in_their_custom_form) {
    EXPECT_DIAGS("%t = pto.alloc_tile : " TB16 "\n"
                 "%s = pto.build_async_session(%t, %w : " TB16 ", !pto.ptr<i8>) {sync_id = 1 : i32} -> !pto.async_session\n"
                 "%e = pto.tput_async(%t, %t, %s : " TB16 ", " TB16 ", !pto.async_session) -> !pto.async_event\n"
                 "%x = pto.wait_async_event(%s, %s : !pto.async_session, !pto.async_session) -> i1\n"
                 "%y = pto.test_async_event(%q, %s : !pto.async_event<2>, !pto.async_session) -> i1\n"
                 "%z = pto.wait_async_event %e, %s : !pto.async_event, !pto.async_session -> i1\n",
                 {2, "%w", "'pto.build_async_session' op operand 'workspace' uses undefined value %w"},
                 {3, "%t", "'pto.tput_async' op operand 'dst' expects a !pto.partition_tensor_view, "
                           "got %t of type !pto.tile_buf<vec, 16x16xf32>"},
                 {3, "%t, %s", "'pto.tput_async' op operand 'src' expects a !pto.partition_tensor_view, "
                                "got %t of type !pto.tile_buf<vec, 16x16xf32>"},
                 {4, "%s", "'pto.wait_async_event' op operand 'event' expects a !pto.async_event, got %s of type "
                           "!pto.async_session"},
                 {5, "%q", "'pto.test_async_event' op operand 'event' uses undefined value %q"},
                 {5, "!pto.async_event<2>", "!pto.async_event takes no parameters"});
    const Op *s = nth_op(P.m->funcs[0], 1);
    cr_assert_eq(s->code, OP_BUILD_ASYNC_SESSION);
    cr_assert_eq(s->n_results, 1);
    cr_assert_eq(s->results[0]->type->kind, TY_ASYNC_SESSION);
    cr_assert_eq(s->attrs.count, 1);
    const Op *z = nth_op(P.m->funcs[0], 5); /* the operand list without parentheses is read too */
    cr_assert_eq(z->code, OP_WAIT_ASYNC_EVENT);
    cr_assert_eq(z->ins.count, 2);
}

Test(parser, generic_shapes_are_errors_for_known_ops) {
    EXPECT_DIAGS("%t = pto.alloc_tile : " TB16 "\n"
                 "%u = pto.tmuls(%t, 2.0 : " TB16 ", f32) -> " TB16 "\n"
                 "%v = pto.alloc_tile {align = 64} : " TB16 "\n"
                 "%w = pto.alloc_tile -> " TB16 "\n"
                 "pto.barrier {\n}\n",
                 {2, "(", "'pto.tmuls' op does not take a parenthesized operand list"},
                 {5, "pto.barrier", "'pto.barrier' op takes no region"});
    const Op *v = nth_op(P.m->funcs[0], 1);
    cr_assert_eq(v->attrs.count, 1);
    cr_assert_str_eq(v->attrs.items[0].key, "align");
    cr_assert_eq(nth_op(P.m->funcs[0], 2)->results[0]->type->kind, TY_TILE); /* `-> T` as the result type */
}

Test(parser, operand_attributes_are_the_ops_attributes) {
    /* PTOAS writes tcvt's and tcmp's attributes beside an operand: `ins(%t {rmode = ...} : T)` */
    EXPECT_DIAGS("%t = pto.alloc_tile : " TB16 "\n"
                 "pto.tmuls ins(%t {rmode = 1}, 2.0 {sat = 2} : " TB16 ", f32) outs(%t : " TB16 ") {x = 3}\n"
                 "pto.tmuls ins(%t {x = 1}, 2.0 : " TB16 ", f32) outs(%t : " TB16 ") {x = 3}\n",
                 {3, "x = 1}", "'pto.tmuls' op has the attribute 'x' twice"});
    const Op *op = nth_op(P.m->funcs[0], 1);
    cr_assert_eq(op->attrs.count, 3);
    cr_assert_str_eq(op->attrs.items[0].key, "x");
    cr_assert_str_eq(op->attrs.items[1].key, "rmode");
    cr_assert_str_eq(op->attrs.items[2].key, "sat");
}

/* ---- structural errors (exact line:col) -------------------------------------------------------- */

Test(parser, value_errors) {
    EXPECT_DIAGS("%a = arith.constant 1 : index\n"
                 "%a = arith.constant 2 : index\n"
                 "%b = arith.addi %a, %later : index\n"
                 "%later = arith.constant 3 : index\n"
                 "%c = arith.addi %a, %missing : index\n",
                 {2, "%a", "'arith.constant' op redefines value '%a' (previously defined at line 1)"},
                 {3, "%later", "'arith.addi' op operand 'rhs' uses %later before its definition at line 4"},
                 {5, "%missing", "'arith.addi' op operand 'rhs' uses undefined value %missing"});
}

Test(parser, arity_errors) {
    EXPECT_DIAGS("%c = arith.constant 2.0 : f32\n"
                 "%s = pto.alloc_tile : " TB16 "\n"
                 "%a = pto.tmuls %s : " T16 "\n"
                 "%b = pto.tmuls %s, %c, %c : " T16 "\n"
                 "pto.tmuls ins(%s, %c : " TB16 ", f32)\n"
                 "pto.tmuls %s, %c\n"
                 "pto.tmuls ins(%s, %c : " TB16 ", f32) outs(%s, %c : " TB16 ", f32)\n",
                 {3, "pto.tmuls", "'pto.tmuls' op missing operand 'scalar' (operands: src, scalar)"},
                 {4, "%c :", "'pto.tmuls' op has too many operands: expects at most 2 (src, scalar), got 3"},
                 {5, "pto.tmuls", "'pto.tmuls' op missing outs(...) operand 'dst'"},
                 {6, "pto.tmuls", "'pto.tmuls' op missing destination operand 'dst' (write '%dst = pto.tmuls ...' or outs(...))"},
                 {7, "outs(%s, |%c", "'pto.tmuls' op has too many outs operands: expects 1 (dst), got 2"});
}

Test(parser, keyword_and_result_errors) {
    EXPECT_DIAGS("%a = arith.constant 1 : index\n"
                 "%t = pto.alloc_tile addr = %a flavour = %a : " TB16 "\n"
                 "%u = pto.alloc_tile addr = %a addr = %a : " TB16 "\n"
                 "%v = pto.make_tensor_view %w, shape = %a, strides = [%a] : !pto.tensor_view<?xf32>\n"
                 "pto.alloc_tile : " TB16 "\n"
                 "%x = pto.tstore ins(%t : " TB16 ") outs(%t : " TB16 ")\n"
                 "%y, %z = arith.addi %a, %a : index\n",
                 {2, "flavour", "'pto.alloc_tile' op unexpected keyword argument 'flavour'"},
                 {3, "addr = %a :", "'pto.alloc_tile' op duplicate keyword argument 'addr'"},
                 {4, "%w", "'pto.make_tensor_view' op operand 'ptr' uses undefined value %w"},
                 {4, "%a,", "'pto.make_tensor_view' op keyword argument 'shape' expects a list '[...]'"},
                 {5, "pto.alloc_tile", "'pto.alloc_tile' op result must be named (write '%name = pto.alloc_tile ...')"},
                 {6, "%x", "'pto.tstore' op cannot have both a result and outs(...)"},
                 {6, "outs(|%t", "'pto.tstore' op operand 'dst' expects a !pto.partition_tensor_view, got %t of type "
                                      "!pto.tile_buf<vec, 16x16xf32>"},
                 {7, "%y", "'arith.addi' op produces 1 result, got 2 names"});
}

Test(parser, kind_and_use_type_errors) {
    EXPECT_DIAGS("%c = arith.constant 2.0 : f32\n"
                 "%s = pto.alloc_tile : " TB16 "\n"
                 "%a = pto.tmuls %c, %s : (f32, " T16 ") -> " T16 "\n"
                 "pto.tmuls ins(%s, %c : !pto.tile_buf<vec, 16x16xf16>, f32) outs(%s : " TB16 ")\n"
                 "%b = pto.tmuls %s, true : " T16 "\n"
                 "pto.tassign %s, 4096.0\n",
                 {3, "%c", "'pto.tmuls' op operand 'src' expects a tile, got %c of type f32"},
                 {3, "%s", "'pto.tmuls' op operand 'scalar' expects an integer or float scalar, got %s of type "
                           "!pto.tile_buf<vec, 16x16xf32>"},
                 {4, "!pto", "'pto.tmuls' op operand 'src' is written with type !pto.tile_buf<vec, 16x16xf16>, but %s was "
                             "defined with type !pto.tile_buf<vec, 16x16xf32>"},
                 {5, "true", "'pto.tmuls' op operand 'scalar' expects an integer or float scalar, got the boolean literal 'true'"},
                 {6, "4096.0", "'pto.tassign' op operand 'addr' expects an index or integer or an @tile(ADDRESS), got the "
                               "float literal '4096.0'"});
}

Test(parser, signature_errors) {
    EXPECT_DIAGS("%c = arith.constant 2.0 : f32\n"
                 "%s = pto.alloc_tile : " TB16 "\n"
                 "%a = pto.tmuls %s, %c : (" T16 ", f32, f32) -> " T16 "\n"
                 "%b = pto.tmuls %s, %c : f32, f32, f32, f32\n"
                 "%d = pto.texpands %c : f32\n"
                 "%e = pto.texpands %c\n"
                 "%i = arith.constant 1 : index\n"
                 "%f = arith.cmpi %i, %i : index\n"
                 "%g = arith.cmpi foo, %i, %i : index\n",
                 {3, "(", "'pto.tmuls' op signature lists 3 operand types, but the op has 2 operands"},
                 {4, "f32", "'pto.tmuls' op signature lists 4 types, but the op has 2 operands and 1 results"},
                 {5, "%d", "'pto.texpands' op operand 'dst' expects a tile, got %d of type f32"},
                 {6, "%e", "'pto.texpands' op cannot infer the type of result %e; write it in the signature (': ... -> TYPE')"},
                 {8, "arith.cmpi", "'arith.cmpi' op missing predicate (e.g. 'arith.cmpi slt, %a, %b : index')"},
                 {9, "foo", "'arith.cmpi' op unknown predicate 'foo' (expected eq, ne, slt, sle, sgt, sge, ult, ule, ugt or uge)"});
}

Test(parser, dps_form_errors) {
    EXPECT_DIAGS("%c = arith.constant 2.0 : f32\n"
                 "%s = pto.alloc_tile : " TB16 "\n"
                 "pto.tmuls %s ins(%c : f32) outs(%s : " TB16 ")\n"
                 "pto.tmuls ins(%s, %c : " TB16 ") outs(%s : " TB16 ")\n"
                 "pto.tmuls ins(%s, %c : " TB16 ", f32) outs(%s : " TB16 ") : f32\n"
                 "pto.tmuls ins(%s) ins(%c) outs(%s)\n"
                 "pto.tmuls ins(%s, %c : " TB16 ", f32) outs(%s : " TB16 ") [<PIPE_ALL>]\n"
                 "%x = arith.addi @sym, 2 : index\n"
                 "pto.tassign %s, @tilt(0x1000)\n",
                 {3, "%s", "'pto.tmuls' op mixes positional operands with ins(...)/outs(...)"},
                 {4, "ins", "'pto.tmuls' op ins(...) lists 2 operands but 1 types"},
                 {5, ") : |f32", "'pto.tmuls' op takes no ':' signature in the ins(...)/outs(...) form (the types go inside "
                                "the lists)"},
                 {6, "ins(%c", "'pto.tmuls' op has more than one ins(...) list"},
                 {7, "[", "'pto.tmuls' op does not take attribute arguments"},
                 {8, "@sym", "'arith.addi' op unexpected symbol '@sym'"},
                 {9, "@tilt", "'pto.tassign' op expects '@tile(ADDRESS)' with one integer address here"});
}

Test(parser, control_flow_errors) {
    EXPECT_DIAGS("%c = arith.constant true\n%a = arith.constant 1 : index\n"
                 "%r = scf.if %c -> (index) {\n  scf.yield %a : index\n}\n"
                 "%s = scf.if %c -> (index) {\n  scf.yield %a, %a : index, index\n} else {\n  scf.yield %c : i1\n}\n"
                 "scf.for %i = %a to %a step %a {\n  scf.yield %a : index\n}\n"
                 "scf.if %a {\n}\n"
                 "scf.if %c {\n  return\n}\n"
                 "return\n%z = arith.addi %a, %a : index\n",
                 {3, "scf.if", "'scf.if' op with results needs an 'else' region"},
                 {7, "scf.yield", "'scf.yield' op yields 2 values, but the enclosing 'scf.if' expects 1"},
                 {9, "%c", "'scf.yield' op value 0 has type i1, but the enclosing 'scf.if' expects index"},
                 {12, "scf.yield", "'scf.yield' op yields 1 value, but the enclosing 'scf.for' expects 0"},
                 {14, "%a", "'scf.if' op operand 'cond' expects an i1 value, got %a of type index"},
                 {17, "return", "'return' op must be directly inside a function body (use 'scf.yield' in regions)"},
                 {19, "return", "'return' op must be the last operation in its block"});
}

Test(parser, function_errors) {
    EXPECT_DIAGS("module {\n"
                 "  func.func @kernel(%a: i32) -> i32 {\n"
                 "    return\n"
                 "  }\n"
                 "  func.func @kernel(%a: i32, %a: i32) {\n"
                 "    %x = func.call @nowhere(%a) : (i32) -> ()\n"
                 "    func.call @kernel(%a, %a) : (i32, i32) -> i32\n"
                 "    return %a : i32\n"
                 "  }\n"
                 "  func.func private @decl() attributes {pto.entry}\n"
                 "}\n",
                 {3, "return", "'return' op has 0 operands, but enclosing function (@kernel) returns 1"},
                 {5, "@kernel", "redefinition of symbol '@kernel'"},
                 {5, "%a: i32)", "redefinition of value '%a' (previously defined at line 5)"},
                 {6, "%x", "'func.call' op produces 0 results, got 1 names"},
                 {6, "func.call", "'func.call' op '@nowhere' does not reference a valid function"},
                 {7, "func.call", "'func.call' op results must be named (it produces 1 value)"},
                 {7, "func.call", "'func.call' op incorrect number of operands for callee @kernel: expects 1, got 2"},
                 {8, "return", "'return' op has 1 operands, but enclosing function (@kernel) returns 0"},
                 {10, "@decl", "'func.func' op `pto.entry` is only valid on function definitions"});
}

Test(parser, entry_must_return_void) {
    EXPECT_DIAGS("module {\n  func.func @kernel(%arg0: i32) -> i32 attributes {pto.entry} {\n    return %arg0 : i32\n  }\n"
                 "  func.func @other() {\n    return\n  }\n}\n",
                 {2, "@kernel", "'func.func' op PTO entry functions must return void (@kernel returns 1 value)"});
    parse_ok("module {\n  func.func @lib(%arg0: i32) -> i32 {\n    return %arg0 : i32\n  }\n"
             "  func.func @kernel() attributes {pto.entry} {\n    return\n  }\n}\n");
}

Test(parser, mixing_bare_statements_and_functions) {
    EXPECT_DIAGS("%a = arith.constant 1 : index\nfunc.func @f() {\n  return\n}\n",
                 {2, "@f", "bare top-level statements cannot be mixed with 'module' or 'func.func'"});
}

/* ---- syntax errors and recovery -------------------------------------------------------------- */

Test(parser, syntax_errors_are_located_and_recovered) {
    EXPECT_DIAGS("%c = arith.constant 2.0 : f32\n"
                 "%s = pto.alloc_tile : " TB16 "\n"
                 "%a = pto.tmuls %s %c : " T16 ", f32\n"
                 "%b = pto.tmuls %s, %c :\n"
                 "%d = pto.tmuls %s, %c : " T16 ", f32\n"
                 "pto.tmuls ins(%s, %c : " TB16 " f32) outs(%s : " TB16 ")\n"
                 "%e = pto.tmuls %a, %c : " T16 ", f32\n"
                 "%f = pto.tmuls %b, %d : " T16 ", " T16 "\n",
                 {3, "%c", "syntax error: unexpected value '%c'"},
                 {5, "%d", "syntax error: unexpected value definition '%d', expected type name, identifier, keyword, '(' or '<'"},
                 {6, "> |f32", "syntax error: unexpected identifier 'f32', expected ')' or ','"},
                 {8, "%d", "'pto.tmuls' op operand 'scalar' expects an integer or float scalar, got %d of type "
                           "!pto.tile_buf<vec, 16x16xf32>"});
}

Test(parser, syntax_error_messages) {
    EXPECT_DIAGS("module {\n  func.func @f( {\n  }\n}\n", {2, "{", "syntax error: unexpected '{', expected value or ')'"});
    /* six tokens may follow (an op name, a generic form's "name", scf.for/if/while, func.call): too many to list */
    EXPECT_DIAGS("%x = \n", {2, "", "syntax error: unexpected end of file"});
    EXPECT_DIAGS("scf.for %i = %a to %b {\n}\n", {1, "{", "syntax error: unexpected '{', expected 'step'"});
    EXPECT_DIAGS("%t = pto.alloc_tile : !pto.tile_buf<vec 16x16xf32>\n",
                 {1, "16x16", "syntax error: unexpected shape '16x16xf32', expected ',', '<' or '>'"});
}

Test(parser, lexer_errors_are_reported_in_place) {
    static const char text[] = "%a = arith.constant 1 : index \xff\n%b = arith.addi %a, %a : index\n\0\n";
    teardown();
    P.arena = arena_new();
    diag_init(&P.diags, P.arena);
    SourceFile *f = source_file_from_string(P.arena, "t.pto", text, sizeof text - 1);
    P.m = parse_module(P.arena, f, &P.diags);
    diag_sort(&P.diags);
    cr_assert_eq(P.diags.count, 2);
    cr_assert_str_eq(P.diags.items[0].message, "invalid UTF-8 byte 0xFF");
    cr_assert_eq(P.diags.items[0].loc.col, 31);
    cr_assert_str_eq(P.diags.items[1].message, "NUL byte in source text");
    cr_assert_eq(P.diags.items[1].loc.line, 3);
    cr_assert_eq(P.m->funcs[0]->body.block->last->code, OP_ADDI);
}

/* ---- limits ---------------------------------------------------------------------------------- */

Test(parser, integer_limits) {
    EXPECT_DIAGS("%a = arith.constant 9223372036854775807 : i64\n"
                 "%b = arith.constant -9223372036854775808 : i64\n"
                 "%c = arith.constant 9223372036854775808 : i64\n"
                 "%d = arith.constant 0xFFFFFFFFFFFFFFFF : i64\n"
                 "%e = arith.constant 0x1FFFFFFFFFFFFFFFF : i64\n"
                 "%r:0 = arith.constant 1 : i64\n",
                 {3, "9223372036854775808", "integer literal '9223372036854775808' is out of the 64-bit range"},
                 {5, "0x1FFFFFFFFFFFFFFFF", "integer literal '0x1FFFFFFFFFFFFFFFF' is out of the 64-bit range"},
                 {6, "%r:0", "result group '%r:0' must have between 1 and 4096 results"});
    parse("%a = arith.constant -9223372036854775808 : i64\n%d = arith.constant 0xFFFFFFFFFFFFFFFF : i64\n");
    cr_assert_eq(nth_op(P.m->funcs[0], 0)->ins.items[0].ival, INT64_MIN);
    cr_assert_eq(nth_op(P.m->funcs[0], 1)->ins.items[0].ival, -1);
}

Test(parser, nesting_depth_limit) {
    size_t depth = 300, len = 0;
    char *text = malloc(depth * 24 + 64);
    len += (size_t)sprintf(text + len, "%%c = arith.constant true\n");
    for (size_t i = 0; i < depth; i++) len += (size_t)sprintf(text + len, "scf.if %%c {\n");
    for (size_t i = 0; i < depth; i++) len += (size_t)sprintf(text + len, "}\n");
    parse(text);
    free(text);
    cr_assert_eq(P.diags.count, 1);
    cr_assert_str_eq(P.diags.items[0].message, "regions are nested more than 256 levels deep");
    cr_assert_eq(P.diags.items[0].loc.line, 257);
}

Test(parser, pathological_nesting_does_not_crash) {
    size_t depth = 20000;
    char *text = malloc(depth * 2 + 64);
    size_t len = (size_t)sprintf(text, "%%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32> {a = ");
    for (size_t i = 0; i < depth; i++) text[len++] = '[';
    text[len] = '\0';
    parse(text);
    free(text);
    cr_assert_geq(P.diags.errors, 1);
}

Test(parser, set_ffts_takes_a_memref_argument) {
    /* memref<...> is read only for pto.set_ffts's FFTS address: its shape and element type kept */
    Module *m = parse_ok("func.func @k(%f: memref<256xi64>, %g: memref<2048xi8, #pto.address_space<gm>>) {\n"
                         "  pto.set_ffts %f : memref<256xi64>\n"
                         "  \"pto.set_ffts\"(%g) : (memref<2048xi8, #pto.address_space<gm>>) -> ()\n"
                         "  return\n"
                         "}\n");
    const Func *f = m->funcs[0];
    const Type *t = f->args[0]->type, *u = f->args[1]->type;
    cr_assert_eq(t->kind, TY_MEMREF);
    cr_assert_eq(t->dtype, DT_I64);
    cr_assert_eq(t->rank, 1);
    cr_assert_eq(t->dims[0], 256);
    cr_assert_str_eq(t->text, "memref<256xi64>");
    cr_assert_eq(u->kind, TY_MEMREF);
    cr_assert_eq(u->dtype, DT_I8);
    cr_assert_str_eq(u->text, "memref<2048xi8, #pto.address_space<gm>>");
    const Op *a = nth_op(f, 0), *b = nth_op(f, 1);
    cr_assert_eq(a->code, OP_SET_FFTS);
    cr_assert_eq(a->ins.count, 1);
    cr_assert_eq(a->ins.items[0].value, f->args[0]);
    cr_assert_eq(b->code, OP_SET_FFTS);
    cr_assert_eq(b->ins.items[0].value, f->args[1]);
}

/* ---- a string literal leading ins(...) (OPF_STRING_IN_INS: pto.print's format) ------------------- */

Test(parser, print_format_leads_ins_and_becomes_the_format_attribute) {
    Module *m = parse_ok("func.func @k(%x: f32, %n: i32) {\n"
                         "  pto.print ins(\"x = %f\\n\", %x : f32)\n"
                         "  pto.print ins(\"n = %d\", %n)\n"
                         "  \"pto.print\"(%n) <{format = \"g %d\"}> : (i32) -> ()\n"
                         "  pto.print ins(\"\", %n : i32) {note = 1}\n"
                         "  return\n"
                         "}\n");
    const Func *f = m->funcs[0];
    const char *want[] = {"x = %f\\n", "n = %d", "g %d", ""};
    for (int i = 0; i < 4; i++) {
        const Op *op = nth_op(f, i);
        cr_assert_eq(op->code, OP_PRINT, "op %d", i);
        cr_assert_eq(op->ins.count, 1, "op %d", i);
        cr_assert_eq(op->outs.count, 0, "op %d", i);
        const Attr *a = attr_find(&op->attrs, "format");
        cr_assert_not_null(a, "op %d", i);
        cr_assert_eq(a->kind, ATTR_STRING);
        cr_assert_str_eq(a->text, want[i], "op %d", i); /* escapes kept as written */
    }
    cr_assert_str_eq(nth_op(f, 0)->ins.items[0].value->name, "x");
    const Op *both = nth_op(f, 3); /* the string joins the dictionary's attributes */
    cr_assert_eq(both->attrs.count, 2);
    cr_assert_not_null(attr_find(&both->attrs, "note"));
    /* the format's location is the string literal's */
    cr_assert_eq(attr_find(&nth_op(f, 0)->attrs, "format")->loc.line, 2);
    cr_assert_eq(attr_find(&nth_op(f, 0)->attrs, "format")->loc.col, 17);
}

Test(parser, print_format_misplaced_or_missing) {
    EXPECT_DIAGS("func.func @k(%x: f32, %t: !pto.tile_buf<vec, 16x16xf32>) {\n"
                 "  pto.print ins(%x : f32)\n"
                 "  pto.tprint ins(\"x\", %t : !pto.tile_buf<vec, 16x16xf32>)\n"
                 "  pto.print ins(\"a %f\", %x : f32) {format = \"b %f\"}\n"
                 "  pto.print ins(\"a %f\", \"b\", %x : f32)\n"
                 "  pto.print ins(%x, \"a %f\" : f32)\n"
                 "  pto.print ins(\"a %f\")\n"
                 "  return\n"
                 "}\n",
                 {2, "ins", "'pto.print' op expects a string literal first in ins(...): `pto.print ins(\"...\", %v : T)`"},
                 {3, "\"x\"", "'pto.tprint' op takes no string literal in ins(...)"},
                 {4, "\"a %f\"", "'pto.print' op has the attribute 'format' twice"},
                 {5, "\"b\"", "syntax error: unexpected string '\"b\"', expected value, integer, float, 'true' or 'false'"},
                 {6, "\"a %f\"", "syntax error: unexpected string '\"a %f\"'"},
                 {7, ")", "syntax error: unexpected ')', expected ','"});
}

/* ---- results bound to a row's outs (N_RESULTS 2: tmrgsort's `%dst, %executed = ...`) ------------ */

#define MRG_A "!pto.tile_buf<vec, 1x128xf32>"
#define MRG_T "!pto.tile_buf<vec, 1x256xf32>"

Test(parser, tmrgsort_two_results_bind_both_outs) {
    Module *m = parse_ok("%a = pto.alloc_tile : " MRG_A "\n"
                         "%t = pto.alloc_tile : " MRG_T "\n"
                         "%d, %e = pto.tmrgsort %a, %a, %t {exhausted = true} : (" MRG_A ", " MRG_A ", " MRG_T ") -> (" MRG_T
                         ", vector<4xi16>)\n"
                         "%d3, %e3 = tmrgsort %a, %a, %a, %t : " MRG_A ", " MRG_A ", " MRG_A ", " MRG_T ", " MRG_T
                         ", vector<4xi16>\n");
    const Func *f = m->funcs[0];
    const Op *two = nth_op(f, 2), *three = nth_op(f, 3);
    cr_assert_eq(two->code, OP_TMRGSORT2);
    cr_assert_eq(two->spelling, SPELL_SSA);
    cr_assert_eq(two->ins.count, 3);
    cr_assert_eq(two->n_results, 2);
    cr_assert_eq(two->outs.count, 2);
    for (int i = 0; i < 2; i++) cr_assert_eq(two->outs.items[i].value, two->results[i], "outs[%d] is result %d", i, i);
    cr_assert_eq(two->results[0]->type->kind, TY_TILE);
    cr_assert_eq(two->results[0]->type->tile.cols, 256);
    cr_assert_eq(two->results[1]->type->kind, TY_VECTOR);
    cr_assert_not_null(attr_find(&two->attrs, "exhausted"));
    cr_assert_eq(three->code, OP_TMRGSORT3);
    cr_assert_eq(three->spelling, SPELL_ASM);
    cr_assert_eq(three->outs.count, 2);
    cr_assert_str_eq(three->outs.items[1].value->name, "e3");
    cr_assert_eq(three->results[1]->type->kind, TY_VECTOR);
}

Test(parser, tmrgsort_result_count_errors) {
    EXPECT_DIAGS("%a = pto.alloc_tile : " MRG_A "\n"
                 "%t = pto.alloc_tile : " MRG_T "\n"
                 "%d, %e, %f = pto.tmrgsort %a, %a, %t : (" MRG_A ", " MRG_A ", " MRG_T ") -> (" MRG_T ", vector<4xi16>, i32)\n"
                 "%g, %h = pto.tmrgsort %a, %a, %t\n"
                 "%c = arith.constant 64 : i32\n"
                 "%s, %x = pto.tmrgsort %a, %c : (" MRG_A ", i32) -> (" MRG_A ", vector<4xi16>)\n",
                 {3, "%d", "'pto.tmrgsort' op produces 2 results, got 3 names"},
                 {4, "%h", "'pto.tmrgsort' op cannot infer the type of result %h; write it in the signature (': ... -> TYPE')"},
                 {6, "%s", "'pto.tmrgsort' op produces 1 result, got 2 names"});
}

/* ---- pto.subset: the result type inferred as PTOAS infers it --------------------------------- */

Test(parser, subset_result_type_is_inferred) {
    Module *m = parse_ok("module {\n  func.func @k(%i: index) {\n"
                         "    %c8 = arith.constant 8 : index\n"
                         "    %c0 = arith.constant 0 : index\n"
                         "    %p = pto.alloc_tile : !pto.tile_buf<vec, 32x16xf16, valid=16x16, pad=1>\n"
                         "    %a = pto.subset %p[%c8, %c0] sizes [12, 16] : !pto.tile_buf<vec, 32x16xf16, valid=16x16, pad=1>\n"
                         "    %b = pto.subset %p[%i, %c0] sizes [16, 16] {} : !pto.tile_buf<vec, 32x16xf16, valid=16x16, pad=1>\n"
                         "    %c = pto.subset %p[16, 0] sizes [16, 16] : !pto.tile_buf<vec, 32x16xf16, valid=16x16, pad=1>\n"
                         "    return\n  }\n}\n");
    const Func *f = m->funcs[0];
    const TileType *a = &nth_op(f, 3)->results[0]->type->tile, *b = &nth_op(f, 4)->results[0]->type->tile,
                   *c = &nth_op(f, 5)->results[0]->type->tile;
    cr_assert_eq(nth_op(f, 3)->code, OP_SUBSET);
    cr_assert(a->rows == 12 && a->cols == 16 && a->dtype == DT_F16 && a->pad == 1);
    cr_assert_eq(a->valid_rows, 8);   /* 16 valid rows, offset 8: 8 left */
    cr_assert_eq(a->valid_cols, 16);
    cr_assert_eq(b->valid_rows, DIM_DYNAMIC); /* a run-time offset */
    cr_assert_eq(c->valid_rows, 16);  /* offset 16 mod 16 = 0: the next period, all 16 */
    EXPECT_DIAGS("%c0 = arith.constant 0 : index\n"
                 "%p = pto.alloc_tile : " TB16 "\n"
                 "%a = pto.subset %p[%c0, %c0] : " TB16 "\n"
                 "%b = pto.subset %p[%c0] sizes [8, 16] : " TB16 "\n"
                 "pto.tmuls %p[%c0, %c0] sizes [8, 16], 2.0 : " TB16 "\n",
                 {3, "pto.subset", "'pto.subset' op cannot infer the type of result %a: it needs a tile source and `sizes [R, C]` "
                                   "of two positive integers"},
                 {4, "%p[", "'pto.subset' op expects its operands as `%source[%rowOffset, %colOffset]`"},
                 {5, "%p[", "'pto.tmuls' op does not take an indexed operand '%p[...]' (`%v[%i]` indexes an event-id array, a "
                            "pointer or a tile, in pto.subset, pto.load_scalar, pto.store_scalar, pto.eventid_array_get and "
                            "pto.eventid_array_set)"},
                 {5, "sizes", "'pto.tmuls' op unexpected keyword 'sizes' (`KEY [...]` without '=' is an attribute of the ops "
                              "that take one: pto.subset's sizes)"});
}

Test(parser, int_array_attributes) {
    int64_t v[4];
    int n = -1;
    Attr a = {.kind = ATTR_RAW, .text = "[16, -8]"};
    cr_assert(attr_int_array(&a, v, 4, &n) && n == 2 && v[0] == 16 && v[1] == -8);
    a.text = "[]";
    cr_assert(attr_int_array(&a, v, 4, &n) && n == 0);
    const char *bad[] = {"[16, ]", "[16 8]", "[16, 8] x", "16, 8", "[99999999999999999999]", "[1, 2, 3, 4, 5]", "[a]"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        a.text = bad[i];
        cr_assert_not(attr_int_array(&a, v, 4, &n), "%s", bad[i]);
    }
    cr_assert_eq(subset_valid_dim(8, 16, 12), 4);
    cr_assert_eq(subset_valid_dim(8, 16, 16), 8);
    cr_assert_eq(subset_valid_dim(8, 0, 0), 0);
    cr_assert_eq(subset_valid_dim(8, 16, -4), 4); /* -4 mod 16 = 12 */
}
