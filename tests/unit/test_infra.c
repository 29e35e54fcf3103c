/* test_infra.c - the non-tile operations around the tile instructions: float scalar arithmetic
 * (rounded to the scalar's type after each op), arith.cmpf with NaN, float <-> integer
 * conversions (x86 CVTTSD2SI behaviour out of range), pto.addptr, pto.get_tensor_view_dim,
 * pto.get_block_idx with several blocks (--blocks), synchronisation ops run in order, and
 * tstore with atomic_add. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "kernels.h"
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
} Prog;

static char diag_buf[4096];

static const char *diag_text(Prog *p) {
    FILE *f = fmemopen(diag_buf, sizeof diag_buf - 1, "w");
    diag_print_text(f, &p->diags);
    fclose(f);
    return diag_buf;
}

/* Parses, verifies and lowers `text` for `blocks` blocks; asserts that all of this succeeds. */
static void load(Prog *p, const char *text, int64_t blocks) {
    memset(p, 0, sizeof *p);
    p->arena = arena_new();
    diag_init(&p->diags, p->arena);
    SourceFile *file = source_file_from_string(p->arena, "t.pto", text, strlen(text));
    p->m = parse_module(p->arena, file, &p->diags);
    cr_assert(p->m && p->diags.errors == 0, "parse: %s", diag_text(p));
    VerifyOptions v = {.target = TARGET_A2A3, .target_given = true};
    cr_assert(verify_module(p->m, &v, &p->diags), "verify: %s", diag_text(p));
    p->outf = open_memstream(&p->out, &p->out_len);
    InterpOptions io = {.target = TARGET_A2A3, .out = p->outf, .blocks = blocks};
    p->ip = interp_create(p->m, &io, &p->diags);
    cr_assert_not_null(p->ip, "lower: %s", diag_text(p));
}

static void run_ok(Prog *p) {
    bool ok = interp_run(p->ip);
    fflush(p->outf);
    cr_assert(ok, "run: %s", diag_text(p));
}

static void unload(Prog *p) {
    interp_destroy(p->ip);
    fclose(p->outf);
    free(p->out);
    arena_free(p->arena);
}

static DataArray fetch(Prog *p, const char *name) {
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(p->ip, name, &b, err, sizeof err), "%s", err);
    DataArray a;
    cr_assert(interp_fetch(p->ip, &b, &a, err, sizeof err), "%s", err);
    return a;
}

/* Runs `body` (a bare program defining scalar %r of type `dt`), expands %r into a 32-byte tile and
 * returns element 0's bit pattern (zero-extended). */
static uint64_t scalar_bits(const char *body, const char *dt) {
    size_t es = !strcmp(dt, "f16") || !strcmp(dt, "bf16") || !strcmp(dt, "i16") ? 2 : 4;
    char tile[64], text[4096];
    snprintf(tile, sizeof tile, "!pto.tile_buf<vec, 1x%zux%s>", 32 / es, dt);
    snprintf(text, sizeof text, "%s%%t = pto.alloc_tile : %s\npto.texpands ins(%%r : %s) outs(%%t : %s)\n", body, tile,
             dt, tile);
    Prog p;
    load(&p, text, 1);
    run_ok(&p);
    DataArray a = fetch(&p, "t");
    uint64_t bits = 0;
    memcpy(&bits, a.data, es);
    data_array_free(&a);
    unload(&p);
    return bits;
}

static float f32_of(uint64_t bits) {
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int32_t i32_of(uint64_t bits) { return (int32_t)(uint32_t)bits; }

/* ---- float arithmetic rounds to the scalar's type --------------------------------------------- */

Test(infra, f32_ops_round_to_single) {
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant 16777216.0 : f32\n%b = arith.constant 1.0 : f32\n"
                                    "%r = arith.addf %a, %b : f32\n",
                                    "f32")),
                 16777216.0f);
    volatile float x = 0.1f, y = 3.0f;
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant 0.1 : f32\n%b = arith.constant 3.0 : f32\n"
                                    "%r = arith.mulf %a, %b : f32\n",
                                    "f32")),
                 x * y);
    volatile float one = 1.0f, three = 3.0f;
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant 1.0 : f32\n%b = arith.constant 3.0 : f32\n"
                                    "%r = arith.divf %a, %b : f32\n",
                                    "f32")),
                 one / three);
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant 1.5 : f32\n%r = arith.negf %a : f32\n", "f32")), -1.5f);
}

Test(infra, f16_ops_round_to_nearest_even) {
    /* f16 spacing at 2048 is 2: 2049 ties to 2048 (even), 2051 ties to 2052 (even) */
    cr_assert_eq(scalar_bits("%a = arith.constant 2048.0 : f16\n%b = arith.constant 1.0 : f16\n"
                             "%r = arith.addf %a, %b : f16\n",
                             "f16"),
                 f32_to_f16_bits(2048.0f));
    cr_assert_eq(scalar_bits("%a = arith.constant 2048.0 : f16\n%b = arith.constant 3.0 : f16\n"
                             "%r = arith.addf %a, %b : f16\n",
                             "f16"),
                 f32_to_f16_bits(2052.0f));
    /* 65504 + 16 is halfway to 65536: rounds to even, i.e. overflows to +inf */
    cr_assert_eq(scalar_bits("%a = arith.constant 65504.0 : f16\n%b = arith.constant 16.0 : f16\n"
                             "%r = arith.addf %a, %b : f16\n",
                             "f16"),
                 0x7c00u);
    cr_assert_eq(scalar_bits("%a = arith.constant 65504.0 : f16\n%b = arith.constant 15.0 : f16\n"
                             "%r = arith.addf %a, %b : f16\n",
                             "f16"),
                 0x7bffu);
    float h = f16_bits_to_f32(f32_to_f16_bits(0.1f));
    cr_assert_eq(scalar_bits("%a = arith.constant 0.1 : f16\n%r = arith.mulf %a, %a : f16\n", "f16"),
                 f32_to_f16_bits(h * h));
    /* a chain rounds after each op: (0.1 * 0.1) * 10 in f16, not 0.1 * 0.1 * 10 in f32 */
    float sq = f16_bits_to_f32(f32_to_f16_bits(h * h));
    cr_assert_eq(scalar_bits("%a = arith.constant 0.1 : f16\n%t10 = arith.constant 10.0 : f16\n"
                             "%s = arith.mulf %a, %a : f16\n%r = arith.mulf %s, %t10 : f16\n",
                             "f16"),
                 f32_to_f16_bits(sq * 10.0f));
    /* bf16 too */
    float hb = bf16_bits_to_f32(f32_to_bf16_bits(0.1f));
    cr_assert_eq(scalar_bits("%a = arith.constant 0.1 : bf16\n%r = arith.mulf %a, %a : bf16\n", "bf16"),
                 f32_to_bf16_bits(hb * hb));
}

Test(infra, max_min_and_casts_between_floats) {
    cr_assert_eq(f32_of(scalar_bits("%z = arith.constant 0.0 : f32\n%n = arith.divf %z, %z : f32\n"
                                    "%a = arith.constant 2.5 : f32\n%r = arith.maxnumf %n, %a : f32\n",
                                    "f32")),
                 2.5f);
    cr_assert(isnan(f32_of(scalar_bits("%z = arith.constant 0.0 : f32\n%n = arith.divf %z, %z : f32\n"
                                       "%a = arith.constant 2.5 : f32\n%r = arith.maximumf %n, %a : f32\n",
                                       "f32"))));
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant -1.0 : f32\n%b = arith.constant 4.0 : f32\n"
                                    "%r = arith.minnumf %a, %b : f32\n",
                                    "f32")),
                 -1.0f);
    /* truncf rounds once; extf is exact */
    cr_assert_eq(scalar_bits("%a = arith.constant 0.1 : f32\n%r = arith.truncf %a : f32 to f16\n", "f16"),
                 f32_to_f16_bits(0.1f));
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant 0.1 : f16\n%r = arith.extf %a : f16 to f32\n", "f32")),
                 f16_bits_to_f32(f32_to_f16_bits(0.1f)));
}

/* ---- cmpf: ordered predicates are false on NaN, unordered ones true ---------------------------- */

static int cmpf(const char *pred, const char *lhs, const char *rhs) {
    char body[1024];
    snprintf(body, sizeof body,
             "%%z = arith.constant 0.0 : f32\n%%nan = arith.divf %%z, %%z : f32\n"
             "%%one = arith.constant 1.0 : f32\n%%two = arith.constant 2.0 : f32\n"
             "%%p = arith.cmpf %s, %s, %s : f32\n"
             "%%i1 = arith.constant 1 : i32\n%%i0 = arith.constant 0 : i32\n"
             "%%r = arith.select %%p, %%i1, %%i0 : i32\n",
             pred, lhs, rhs);
    return i32_of(scalar_bits(body, "i32"));
}

Test(infra, cmpf_predicates_with_nan) {
    static const char *const ordered[] = {"oeq", "ogt", "oge", "olt", "ole", "one", "ord"};
    static const char *const unordered[] = {"ueq", "ugt", "uge", "ult", "ule", "une", "uno"};
    for (size_t i = 0; i < 7; i++) {
        cr_assert_eq(cmpf(ordered[i], "%nan", "%one"), 0, "%s with NaN", ordered[i]);
        cr_assert_eq(cmpf(ordered[i], "%one", "%nan"), 0, "%s with NaN", ordered[i]);
        cr_assert_eq(cmpf(unordered[i], "%nan", "%one"), 1, "%s with NaN", unordered[i]);
        cr_assert_eq(cmpf(unordered[i], "%nan", "%nan"), 1, "%s with NaN", unordered[i]);
    }
    cr_assert_eq(cmpf("true", "%nan", "%nan"), 1);
    cr_assert_eq(cmpf("false", "%one", "%one"), 0);
    /* ordered operands: 1 < 2 */
    cr_assert_eq(cmpf("olt", "%one", "%two"), 1);
    cr_assert_eq(cmpf("ult", "%one", "%two"), 1);
    cr_assert_eq(cmpf("ogt", "%one", "%two"), 0);
    cr_assert_eq(cmpf("one", "%one", "%two"), 1);
    cr_assert_eq(cmpf("une", "%one", "%two"), 1);
    cr_assert_eq(cmpf("oeq", "%one", "%one"), 1);
    cr_assert_eq(cmpf("ord", "%one", "%two"), 1);
    cr_assert_eq(cmpf("uno", "%one", "%two"), 0);
}

/* ---- float <-> integer ------------------------------------------------------------------------ */

static int32_t fptosi_i32(const char *value) {
    char body[512];
    snprintf(body, sizeof body, "%%a = arith.constant %s : f32\n%%r = arith.fptosi %%a : f32 to i32\n", value);
    return i32_of(scalar_bits(body, "i32"));
}

Test(infra, fptosi_truncates_and_gives_int_min_out_of_range) {
    cr_assert_eq(fptosi_i32("3.7"), 3);
    cr_assert_eq(fptosi_i32("-3.7"), -3);
    cr_assert_eq(fptosi_i32("-0.5"), 0);
    cr_assert_eq(fptosi_i32("2147483520.0"), 2147483520); /* largest f32 below 2^31 */
    cr_assert_eq(fptosi_i32("3.0e9"), INT32_MIN);          /* out of range: x86's integer indefinite */
    cr_assert_eq(fptosi_i32("-3.0e9"), INT32_MIN);
    cr_assert_eq(i32_of(scalar_bits("%z = arith.constant 0.0 : f32\n%n = arith.divf %z, %z : f32\n"
                                    "%r = arith.fptosi %n : f32 to i32\n",
                                    "i32")),
                 INT32_MIN);
    /* i16: the 32-bit conversion, then the low 16 bits (40000 -> -25536) */
    cr_assert_eq((int16_t)scalar_bits("%a = arith.constant 40000.0 : f32\n%r = arith.fptosi %a : f32 to i16\n", "i16"),
                 -25536);
    /* fptoui to 32 bits: a 64-bit conversion, low half (-1.0 -> 0xffffffff; 3e9 exact) */
    cr_assert_eq((uint32_t)scalar_bits("%a = arith.constant -1.0 : f32\n%r = arith.fptoui %a : f32 to i32\n", "i32"),
                 0xffffffffu);
    cr_assert_eq((uint32_t)scalar_bits("%a = arith.constant 3.0e9 : f32\n%r = arith.fptoui %a : f32 to i32\n", "i32"),
                 3000000000u);
    /* the helper directly: 64-bit results */
    cr_assert_eq(scalar_float_to_int(1e19, DT_I64, false), INT64_MIN);
    cr_assert_eq((uint64_t)scalar_float_to_int(1e19, DT_U64, true), UINT64_C(10000000000000000000));
    cr_assert_eq(scalar_float_to_int(NAN, DT_I64, false), INT64_MIN);
}

Test(infra, integer_to_float_rounds_once) {
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant -7 : i32\n%r = arith.sitofp %a : i32 to f32\n", "f32")),
                 -7.0f);
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant -1 : i32\n%r = arith.uitofp %a : i32 to f32\n", "f32")),
                 4294967296.0f);
    /* 2^53 + 2^29 + 1 lies just above the midpoint of two floats: one rounding goes up, rounding
     * through double first (to 2^53 + 2^29, a tie) would go down to 2^53 */
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant 9007199791611905 : i64\n%r = arith.sitofp %a : i64 to f32\n",
                                    "f32")),
                 9007200328482816.0f);
    cr_assert_eq(scalar_bits("%a = arith.constant 2049 : i32\n%r = arith.sitofp %a : i32 to f16\n", "f16"),
                 f32_to_f16_bits(2048.0f));
}

Test(infra, i1_casts_and_float_select) {
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant true\n%r = arith.sitofp %a : i1 to f32\n", "f32")), -1.0f);
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant true\n%r = arith.uitofp %a : i1 to f32\n", "f32")), 1.0f);
    cr_assert_eq(scalar_bits("%a = arith.constant 1.5 : f16\n%b = arith.constant -2.0 : f16\n"
                             "%p = arith.cmpf ogt, %a, %b : f16\n%r = arith.select %p, %b, %a : f16\n",
                             "f16"),
                 f32_to_f16_bits(-2.0f));
}

/* ---- integer extras ---------------------------------------------------------------------------- */

Test(infra, ceildiv_floordiv_and_unsigned_ops) {
    cr_assert_eq(i32_of(scalar_bits("%a = arith.constant 7 : i32\n%b = arith.constant -2 : i32\n"
                                    "%r = arith.ceildivsi %a, %b : i32\n",
                                    "i32")),
                 -3);
    cr_assert_eq(i32_of(scalar_bits("%a = arith.constant 7 : i32\n%b = arith.constant 2 : i32\n"
                                    "%r = arith.ceildivsi %a, %b : i32\n",
                                    "i32")),
                 4);
    cr_assert_eq(i32_of(scalar_bits("%a = arith.constant -7 : i32\n%b = arith.constant 2 : i32\n"
                                    "%r = arith.floordivsi %a, %b : i32\n",
                                    "i32")),
                 -4);
    cr_assert_eq(i32_of(scalar_bits("%a = arith.constant -1 : i32\n%b = arith.constant 10 : i32\n"
                                    "%r = arith.remui %a, %b : i32\n",
                                    "i32")),
                 (int32_t)(0xffffffffu % 10u));
    cr_assert_eq(i32_of(scalar_bits("%a = arith.constant -1 : i32\n%b = arith.constant 10 : i32\n"
                                    "%r = arith.minui %a, %b : i32\n",
                                    "i32")),
                 10);
}

/* Every INT_BINARY_OP element function on its edges: exact and inexact quotients of both signs,
 * the one overflowing quotient (INT_MIN / -1 wraps), unsigned readings of negative values. */
static int32_t int_op(const char *op, int32_t a, int32_t b) {
    char body[256];
    snprintf(body, sizeof body, "%%a = arith.constant %d : i32\n%%b = arith.constant %d : i32\n%%r = arith.%s %%a, %%b : i32\n",
             a, b, op);
    return i32_of(scalar_bits(body, "i32"));
}

Test(infra, int_binary_family_edges) {
    cr_assert_eq(int_op("ceildivsi", 6, 3), 2);
    cr_assert_eq(int_op("ceildivsi", -6, 3), -2);
    cr_assert_eq(int_op("ceildivsi", -7, -2), 4);
    cr_assert_eq(int_op("ceildivsi", -7, 2), -3);
    cr_assert_eq(int_op("floordivsi", 7, -2), -4);
    cr_assert_eq(int_op("floordivsi", -6, 3), -2);
    cr_assert_eq(int_op("floordivsi", 7, 2), 3);
    cr_assert_eq(int_op("divsi", -7, 2), -3);
    cr_assert_eq(int_op("remsi", -7, 2), -1);
    cr_assert_eq(int_op("divsi", INT32_MIN, -1), INT32_MIN);
    cr_assert_eq(int_op("divui", -2, 2), 0x7fffffff);
    cr_assert_eq(int_op("maxui", -1, 10), -1);
    cr_assert_eq(int_op("minsi", -1, 10), -1);
    cr_assert_eq(int_op("maxsi", -1, 10), 10);
    cr_assert_eq(int_op("muli", 65536, 65536), 0);
    cr_assert_eq(int_op("subi", INT32_MIN, 1), INT32_MAX);
    cr_assert_eq(int_op("xori", 0x0ff0, 0x00ff), 0x0f0f);
    cr_assert_eq(int_op("andi", 0x0ff0, 0x00ff), 0x00f0);
    cr_assert_eq(int_op("ori", 0x0ff0, 0x00ff), 0x0fff);
    cr_assert_eq(f32_of(scalar_bits("%a = arith.constant -2.5 : f32\n%r = arith.negf %a : f32\n", "f32")), 2.5f);
    cr_assert_eq(i32_of(scalar_bits("%a = arith.constant 3.9e9 : f32\n%r = arith.fptoui %a : f32 to i32\n", "i32")),
                 (int32_t)3900000000u);
}

/* ---- blocks, pointers, views, sync --------------------------------------------------------------- */

/* Each block writes (block index + 1) into its own 8x8 region of %arg0 through pto.addptr. */
static const char *const blocks_prog =
    "module {\n"
    "  func.func @k(%arg0: !pto.ptr<f32>) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %b = pto.get_block_idx\n"
    "    %n = pto.get_block_num\n"
    "    %bi = arith.index_cast %b : i64 to index\n"
    "    %off = arith.muli %bi, %c64 : index\n"
    "    %p = pto.addptr %arg0, %off : <f32> -> <f32>\n"
    "    %tv = pto.make_tensor_view %p, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "    %d0 = pto.get_tensor_view_dim %tv, %c0 : !pto.tensor_view<?x?xf32> -> index\n"
    "    %pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%d0, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x8xf32>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>\n"
    "    %u = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 8x8xf32>\n"
    "    pto.tload ins(%pv : !pto.partition_tensor_view<8x8xf32>) outs(%u : !pto.tile_buf<vec, 8x8xf32>)\n"
    "    %bf = arith.sitofp %b : i64 to f32\n"
    "    %nf = arith.sitofp %n : i64 to f32\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    %v = arith.addf %bf, %one : f32\n"
    "    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
    "    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
    "    pto.section.vector {\n"
    "      pto.texpands ins(%v : f32) outs(%t : !pto.tile_buf<vec, 8x8xf32>)\n"
    "    }\n"
    "    pto.barrier <PIPE_ALL>\n"
    "    pto.tstore ins(%t : !pto.tile_buf<vec, 8x8xf32>) outs(%pv : !pto.partition_tensor_view<8x8xf32>)\n"
    "    return\n"
    "  }\n"
    "}\n";

Test(infra, blocks_write_their_own_gm_regions) {
    Prog p;
    load(&p, blocks_prog, 4);
    run_ok(&p);
    DataArray a = fetch(&p, "arg0");
    cr_assert_eq(a.count, 256);
    const float *d = a.data;
    for (int i = 0; i < 256; i++) cr_assert_eq(d[i], (float)(i / 64 + 1), "element %d is %g", i, d[i]);
    data_array_free(&a);
    unload(&p);
}

Test(infra, one_block_by_default) {
    Prog p;
    load(&p, blocks_prog, 0);
    run_ok(&p);
    DataArray a = fetch(&p, "arg0");
    cr_assert_eq(a.count, 64);
    cr_assert_eq(((const float *)a.data)[63], 1.0f);
    data_array_free(&a);
    unload(&p);
}

/* Every block starts with zero-filled on-chip memory: a tile at UB address 0 that a block reads
 * before writing it holds zeros, whatever the previous block left there. */
Test(infra, blocks_get_fresh_on_chip_memory) {
    Prog p;
    load(&p,
         "module {\n"
         "  func.func @k(%arg0: !pto.ptr<i32>) attributes {pto.entry} {\n"
         "    %c0 = arith.constant 0 : index\n"
         "    %c1 = arith.constant 1 : index\n"
         "    %c8 = arith.constant 8 : index\n"
         "    %b = pto.get_block_idx\n"
         "    %bi = arith.index_cast %b : i64 to index\n"
         "    %off = arith.muli %bi, %c8 : index\n"
         "    %p = pto.addptr %arg0, %off : !pto.ptr<i32> -> !pto.ptr<i32>\n"
         "    %tv = pto.make_tensor_view %p, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>\n"
         "    %pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<?x?xi32> -> "
         "!pto.partition_tensor_view<1x8xi32>\n"
         "    %t = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 1x8xi32>\n"
         "    pto.tstore ins(%t : !pto.tile_buf<vec, 1x8xi32>) outs(%pv : !pto.partition_tensor_view<1x8xi32>)\n"
         "    %seven = arith.constant 7 : i32\n"
         "    pto.texpands ins(%seven : i32) outs(%t : !pto.tile_buf<vec, 1x8xi32>)\n"
         "    return\n"
         "  }\n"
         "}\n",
         3);
    run_ok(&p);
    DataArray a = fetch(&p, "arg0");
    cr_assert_eq(a.count, 24);
    for (int i = 0; i < 24; i++) cr_assert_eq(((const int32_t *)a.data)[i], 0, "element %d", i);
    data_array_free(&a);
    unload(&p);
}

/* ---- tstore atomic_add ------------------------------------------------------------------------------ */

static DataArray atomic_run(const char *dt, const char *value, int64_t blocks, Prog *p) {
    char text[4096];
    snprintf(text, sizeof text,
             "module {\n"
             "  func.func @k(%%arg0: !pto.ptr<%1$s>) attributes {pto.entry} {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    %%c1 = arith.constant 1 : index\n"
             "    %%c16 = arith.constant 16 : index\n"
             "    %%tv = pto.make_tensor_view %%arg0, shape = [%%c1, %%c16], strides = [%%c16, %%c1] : "
             "!pto.tensor_view<?x?x%1$s>\n"
             "    %%pv = pto.partition_view %%tv, offsets = [%%c0, %%c0], sizes = [%%c1, %%c16] : "
             "!pto.tensor_view<?x?x%1$s> -> !pto.partition_tensor_view<1x16x%1$s>\n"
             "    %%t = pto.alloc_tile : !pto.tile_buf<vec, 1x16x%1$s>\n"
             "    %%v = arith.constant %2$s : %1$s\n"
             "    pto.texpands ins(%%v : %1$s) outs(%%t : !pto.tile_buf<vec, 1x16x%1$s>)\n"
             "    pto.tstore ins(%%t : !pto.tile_buf<vec, 1x16x%1$s>) outs(%%pv : !pto.partition_tensor_view<1x16x%1$s>) "
             "{atomicType = #pto<atomic_type atomic_add>}\n"
             "    return\n"
             "  }\n"
             "}\n",
             dt, value);
    load(p, text, blocks);
    run_ok(p);
    return fetch(p, "arg0");
}

Test(infra, atomic_add_accumulates_in_the_element_type) {
    Prog p;
    DataArray a = atomic_run("f16", "0.1", 3, &p);
    uint16_t h = f32_to_f16_bits(0.1f), acc = 0;
    for (int i = 0; i < 3; i++) acc = f32_to_f16_bits(f16_bits_to_f32(acc) + f16_bits_to_f32(h));
    for (int i = 0; i < 16; i++) cr_assert_eq(((const uint16_t *)a.data)[i], acc, "element %d", i);
    data_array_free(&a);
    unload(&p);

    a = atomic_run("i16", "30000", 2, &p); /* 60000 wraps to -5536 */
    for (int i = 0; i < 16; i++) cr_assert_eq(((const int16_t *)a.data)[i], -5536, "element %d", i);
    data_array_free(&a);
    unload(&p);

    a = atomic_run("f32", "0.1", 1, &p); /* one block onto a zero buffer: a plain store */
    cr_assert_eq(((const float *)a.data)[15], 0.1f);
    data_array_free(&a);
    unload(&p);
}

Test(infra, atomic_add_adds_onto_input_data) {
    Prog p;
    memset(&p, 0, sizeof p);
    const char *text =
        "module {\n"
        "  func.func @k(%arg0: !pto.ptr<i32>) attributes {pto.entry} {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %c8 = arith.constant 8 : index\n"
        "    %tv = pto.make_tensor_view %arg0, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>\n"
        "    %pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<?x?xi32> -> "
        "!pto.partition_tensor_view<1x8xi32>\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xi32>\n"
        "    %v = arith.constant 5 : i32\n"
        "    pto.texpands ins(%v : i32) outs(%t : !pto.tile_buf<vec, 1x8xi32>)\n"
        "    pto.tstore ins(%t : !pto.tile_buf<vec, 1x8xi32>) outs(%pv : !pto.partition_tensor_view<1x8xi32>) "
        "{atomicType = #pto<atomic_type atomic_add>}\n"
        "    return\n"
        "  }\n"
        "}\n";
    load(&p, text, 1);
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(p.ip, "arg0", &b, err, sizeof err), "%s", err);
    DataArray in;
    cr_assert(data_array_alloc(&in, DT_I32, 1, 8, err, sizeof err));
    for (int i = 0; i < 8; i++) ((int32_t *)in.data)[i] = i == 7 ? INT32_MAX : i * 10;
    cr_assert(interp_bind_gm(p.ip, &b, &in, err, sizeof err), "%s", err);
    data_array_free(&in);
    run_ok(&p);
    DataArray a = fetch(&p, "arg0");
    for (int i = 0; i < 7; i++) cr_assert_eq(((const int32_t *)a.data)[i], i * 10 + 5);
    cr_assert_eq(((const int32_t *)a.data)[7], INT32_MIN + 4); /* wraps */
    data_array_free(&a);
    unload(&p);
}

Test(infra, set_flag_dyn_event_out_of_range_at_run_time) {
    Prog p;
    load(&p,
         "%c9 = arith.constant 9 : index\n"
         "%c2 = arith.constant 2 : index\n"
         "%e = arith.addi %c9, %c2 : index\n"
         "pto.set_flag_dyn[<PIPE_MTE2>, <PIPE_V>, %e]\n",
         1);
    cr_assert_not(interp_run(p.ip));
    cr_assert_not_null(strstr(diag_text(&p), "event id 11 is out of range 0..7 [SET_FLAG_DYN.event]"), "%s", diag_buf);
    unload(&p);
}

/* The op table's overload sets (OPF_OVERLOAD): adjacent rows sharing a name, exactly one of them
 * without the flag, which name lookup finds; tmov's set is its fp row then its plain row. */
Test(infra, overload_sets_have_one_base_row) {
    for (int c = 0; c < OP_COUNT; c++) {
        OpCode first;
        int rows = op_overload_set((OpCode)c, &first);
        cr_assert(first <= (OpCode)c && c < (int)first + rows, "%s", op_info((OpCode)c)->name);
        int bases = 0;
        for (int r = 0; r < rows; r++) bases += !(op_info((OpCode)(first + r))->flags & OPF_OVERLOAD);
        cr_assert_eq(bases, 1, "%s: %d rows without OPF_OVERLOAD", op_info((OpCode)c)->name, bases);
    }
    OpCode code, first;
    cr_assert(op_lookup("pto.tmov", 8, &code));
    cr_assert_eq(code, OP_TMOV);
    cr_assert_eq(op_overload_set(OP_TMOV, &first), 2);
    cr_assert_eq(first, OP_TMOV_WITH_FP);
}

/* ir/ops.c's table of PTOAS ops pto-as refuses names no op of the table: an implemented op left
 * there would be dead text that misleads a reader (it once listed the fp moves and set_ffts). */
Test(infra, unimplemented_table_names_no_implemented_op) {
    for (int c = 0; c < OP_COUNT; c++) {
        const char *name = op_info((OpCode)c)->name;
        cr_assert_null(op_unimplemented_reason(name, strlen(name)), "%s is implemented but listed as not", name);
    }
    const char *unimplemented = "pto.pointer_cast";
    cr_assert_not_null(op_unimplemented_reason(unimplemented, strlen(unimplemented)));
}
