/* test_pipe.c - the inter-core pipe (FIFO) ops in the IR: PTOAS's custom format read into
 * attributes, keyword operands and results (ir/ops_pipe.def), the attribute kinds they use
 * (ir/attrs.c: string, symbol, address space) and func_kernel_kind. */
#include <criterion/criterion.h>
#include <string.h>

#include "parser.h"

static Arena *arena;

static void setup(void) { arena = arena_new(); }

static void teardown(void) {
    arena_free(arena);
    arena = NULL;
}

TestSuite(pipe, .init = setup, .fini = teardown);

static const char *const text =
    "module {\n"
    "  func.func private @vec() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "    %z = arith.constant 0 : i32\n"
    "    %b = pto.reserve_buffer {name = \"fifo\", size = 4096, location = <mat>, auto = false, base = 512} -> i32\n"
    "    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024, nosplit = true} (c2v_consumer_buf = %b : i32, "
    "v2c_consumer_buf = %z : i32)\n"
    "    %r = arith.constant 8 : index\n"
    "    %t = pto.tpop_from_aic(%r, %r) {split = 2} -> !pto.tile_buf<vec, 8x16xf32, valid=?x?>\n"
    "    pto.tfree_from_aic {split = 2}\n"
    "    return\n"
    "  }\n"
    "  func.func private @cube() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
    "    %i = pto.import_reserved_buffer {name = \"fifo\", peer_func = @vec} -> i32\n"
    "    return\n"
    "  }\n"
    "}\n";

static Module *parse_clean(void) {
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *f = source_file_from_string(arena, "pipe.pto", text, strlen(text));
    Module *m = parse_module(arena, f, &diags);
    cr_assert_eq(diags.count, 0, "%s", diags.count ? diags.items[0].message : "");
    return m;
}

static const Op *nth_op(const Func *f, int n) {
    const Op *op = f->body.block->first;
    while (op && n--) op = op->next;
    cr_assert_not_null(op);
    return op;
}

Test(pipe, custom_format_reads_into_attributes_and_keyword_operands) {
    Module *m = parse_clean();
    const Func *vec = module_find_func(m, "vec"), *cube = module_find_func(m, "cube");
    cr_assert_str_eq(func_kernel_kind(vec), "vector");
    cr_assert_str_eq(func_kernel_kind(cube), "cube");

    const Op *reserve = nth_op(vec, 1);
    cr_assert_eq(reserve->code, OP_RESERVE_BUFFER);
    int64_t v = -1;
    cr_assert(attr_value(attr_find(&reserve->attrs, "name"), AK_STRING, &v));
    cr_assert_str_eq(attr_find(&reserve->attrs, "name")->text, "fifo");
    cr_assert(attr_value(attr_find(&reserve->attrs, "location"), AK_ADDRESS_SPACE, &v)); /* `<mat>` */
    cr_assert_str_eq(attr_enum_name(AK_ADDRESS_SPACE, v), "mat");
    cr_assert_eq(op_attr_value(reserve, "base", AK_INT, -1), 512);
    cr_assert_eq(op_attr_value(reserve, "auto", AK_BOOL, -1), 0);
    cr_assert(!attr_value(attr_find(&reserve->attrs, "name"), AK_SYMBOL, &v)); /* a string is no symbol */
    cr_assert_eq(reserve->results[0]->type->kind, TY_SCALAR);
    cr_assert_eq(reserve->results[0]->type->dtype, DT_I32);

    const Op *init = nth_op(vec, 2);
    cr_assert_eq(init->code, OP_AIV_INITIALIZE_PIPE);
    cr_assert_eq(init->n_kwargs, 2);
    cr_assert_str_eq(init->kwargs[0].key, "c2v_consumer_buf");
    cr_assert_eq(init->kwargs[0].list.items[0].value, reserve->results[0]);
    cr_assert_eq(init->kwargs[0].list.items[0].type->dtype, DT_I32); /* the `: i32` written in place */
    cr_assert_eq(op_attr_value(init, "nosplit", AK_BOOL, -1), 1);

    const Op *pop = nth_op(vec, 4);
    cr_assert_eq(pop->code, OP_TPOP_FROM_AIC);
    cr_assert_eq(pop->ins.count, 2); /* (valid_row, valid_col) */
    cr_assert_eq(pop->n_results, 1);
    cr_assert_eq(pop->results[0]->type->kind, TY_TILE);
    cr_assert_eq(op_attr_value(pop, "split", AK_INT, -1), 2);

    const Op *import = cube->body.block->first;
    cr_assert_eq(import->code, OP_IMPORT_RESERVED_BUFFER);
    cr_assert(attr_value(attr_find(&import->attrs, "peer_func"), AK_SYMBOL, &v));
    cr_assert_str_eq(attr_find(&import->attrs, "peer_func")->text, "@vec");
}

Test(pipe, other_ops_still_refuse_a_parenthesized_operand_list) {
    const char *bad = "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
                      "pto.tprint (%t : !pto.tile_buf<vec, 16x16xf32>)\n";
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *f = source_file_from_string(arena, "bad.pto", bad, strlen(bad));
    parse_module(arena, f, &diags);
    cr_assert_eq(diags.count, 1);
    cr_assert(strstr(diags.items[0].message, "does not take a parenthesized operand list"), "%s", diags.items[0].message);
}

/* The lowered forms: the init's attributes first and its operands typed in place (or as one list),
 * a !pto.pipe result (TY_PIPE) that tpush / tpop / tfree take as their last operand, and
 * pto.declare_tile's result a tile. */
Test(pipe, lowered_forms_read_into_operands_and_a_pipe_handle) {
    static const char *const lowered =
        "module {\n"
        "  func.func @k(%gm: !pto.ptr<f32>, %b: i32) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "    %p = pto.initialize_l2g2l_pipe {dir_mask = 3, slot_size = 1024, slot_num = 4, local_slot_num = 2, "
        "flag_base = 1}(%gm : !pto.ptr<f32>, %b : i32, %b : i32) -> !pto.pipe\n"
        "    %q = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 512, slot_num = 8, flag_base = 0}(%b : i32) -> !pto.pipe\n"
        "    %t = pto.declare_tile -> !pto.tile_buf<vec, 8x16xf32>\n"
        "    pto.tpop(%t, %p : !pto.tile_buf<vec, 8x16xf32>, !pto.pipe) {split = 1}\n"
        "    pto.tfree(%q : !pto.pipe) {split = 0}\n"
        "    return\n"
        "  }\n"
        "}\n";
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *f = source_file_from_string(arena, "lowered.pto", lowered, strlen(lowered));
    Module *m = parse_module(arena, f, &diags);
    cr_assert_eq(diags.count, 0, "%s", diags.count ? diags.items[0].message : "");
    const Func *k = module_find_func(m, "k");
    const Op *p = nth_op(k, 0), *q = nth_op(k, 1), *decl = nth_op(k, 2), *pop = nth_op(k, 3), *fr = nth_op(k, 4);
    cr_assert_eq(p->code, OP_INITIALIZE_L2G2L_PIPE);
    cr_assert_eq(p->ins.count, 3);
    cr_assert_eq(p->ins.items[0].value, k->args[0]);
    cr_assert_eq(p->ins.items[0].type->kind, TY_PTR); /* typed in place */
    cr_assert_eq(p->ins.items[2].type->dtype, DT_I32);
    cr_assert_eq(op_attr_value(p, "local_slot_num", AK_INT, -1), 2);
    cr_assert_eq(op_attr_value(p, "flag_base", AK_INT, -1), 1);
    cr_assert_eq(p->results[0]->type->kind, TY_PIPE);
    cr_assert_eq(q->code, OP_INITIALIZE_L2L_PIPE);
    cr_assert_eq(q->ins.count, 1);
    cr_assert_eq(decl->code, OP_DECLARE_TILE);
    cr_assert_eq(decl->results[0]->type->kind, TY_TILE);
    cr_assert_eq(pop->code, OP_TPOP);
    cr_assert_eq(pop->ins.items[0].value, decl->results[0]);
    cr_assert_eq(pop->ins.items[1].value, p->results[0]);
    cr_assert_eq(op_attr_value(pop, "split", AK_INT, -1), 1);
    cr_assert_eq(fr->code, OP_TFREE);
    cr_assert_eq(fr->ins.items[0].value, q->results[0]);
}
