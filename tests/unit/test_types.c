/* test_types.c - type syntax: the four !pto.tile / !pto.tile_buf spellings and their defaults,
 * views, pointers, scalars, and every type error (which names the offending key or value). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

typedef struct TypeResult {
    Arena *arena;
    DiagList diags;
    const Type *type;
    SrcLoc type_loc;  /* where the type of %t is written */
    const char *text;
} TypeResult;

static TypeResult result;

static void teardown(void) {
    arena_free(result.arena);
    memset(&result, 0, sizeof result);
}

/* Parses `%t = pto.alloc_tile : TYPE` (any type is accepted syntactically) and returns the type
 * of %t; diagnostics land in result.diags. */
static const Type *parse_type(const char *type_text) {
    teardown();
    result.arena = arena_new();
    diag_init(&result.diags, result.arena);
    result.text = arena_printf(result.arena, "%%t = pto.alloc_tile : %s\n", type_text);
    SourceFile *f = source_file_from_string(result.arena, "t.pto", result.text, strlen(result.text));
    Module *m = parse_module(result.arena, f, &result.diags);
    cr_assert_not_null(m);
    cr_assert_eq(m->n_funcs, 1);
    const Op *op = m->funcs[0]->body.block->first;
    result.type = op && op->n_results ? op->results[0]->type : NULL;
    if (op && op->n_results) result.type_loc = op->results[0]->type_loc;
    return result.type;
}

static const Type *tile(const char *type_text) {
    const Type *t = parse_type(type_text);
    cr_assert_eq(result.diags.count, 0, "unexpected diagnostic for %s: %s", type_text,
                 result.diags.count ? result.diags.items[0].message : "");
    cr_assert_not_null(t);
    cr_assert_eq(t->kind, TY_TILE, "%s is not a tile", type_text);
    return t;
}

/* The type fails to parse with one error whose message contains `fragment`, located at the
 * column where `at` first occurs in the type text. */
static void type_error(const char *type_text, const char *fragment, const char *at) {
    parse_type(type_text);
    cr_assert_geq(result.diags.errors, 1, "no error for %s", type_text);
    const Diag *d = &result.diags.items[0];
    cr_assert(strstr(d->message, fragment), "message '%s' lacks '%s'", d->message, fragment);
    const char *where = strstr(result.text, at);
    cr_assert_not_null(where);
    cr_assert_eq(d->loc.line, 1);
    cr_assert_eq(d->loc.col, (uint32_t)(where - result.text) + 1, "error at col %u, expected %ld (%s)", d->loc.col,
                 (long)(where - result.text) + 1, d->message);
}

static void expect_tile(const TileType *t, TileLoc loc, DType dt, int64_t rows, int64_t cols, int64_t vr, int64_t vc,
                        BLayout bl, SLayout sl, int64_t fractal, int pad, int compact) {
    cr_assert_eq(t->loc, loc);
    cr_assert_eq(t->dtype, dt);
    cr_assert_eq(t->rows, rows);
    cr_assert_eq(t->cols, cols);
    cr_assert_eq(t->valid_rows, vr);
    cr_assert_eq(t->valid_cols, vc);
    cr_assert_eq(t->blayout, bl);
    cr_assert_eq(t->slayout, sl);
    cr_assert_eq(t->fractal, fractal);
    cr_assert_eq(t->pad, pad);
    cr_assert_eq(t->compact, compact);
}

TestSuite(types, .fini = teardown);

/* ---- the four spellings ------------------------------------------------------------------------ */

Test(types, keyed_legacy) {
    const Type *t = tile("!pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, "
                         "slayout=none_box, fractal=512, pad=0>");
    cr_assert(t->tile_buf);
    expect_tile(&t->tile, LOC_VEC, DT_F32, 32, 32, 32, 32, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
    t = tile("!pto.tile_buf<loc=mat, dtype=bf16, rows=16, cols=128, v_row=?, v_col=-1, blayout=col_major, slayout=row_major, "
             "fractal=1024, pad=3, compact=2>");
    expect_tile(&t->tile, LOC_MAT, DT_BF16, 16, 128, DIM_DYNAMIC, DIM_DYNAMIC, BL_COL_MAJOR, SL_ROW_MAJOR, 1024, 3, 2);
    /* keys in any order; only dtype, rows and cols are mandatory */
    t = tile("!pto.tile_buf<cols=8, dtype=i16, rows=4>");
    expect_tile(&t->tile, LOC_VEC, DT_I16, 4, 8, 4, 8, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
    /* multi-line types (101 PTOAS corpus files split them) */
    t = tile("!pto.tile_buf<loc=vec, dtype=f16,\n    rows=16, cols=16, v_row=16, v_col=1,\n    blayout=row_major, "
             "slayout=none_box, fractal=512, pad=0>");
    expect_tile(&t->tile, LOC_VEC, DT_F16, 16, 16, 16, 1, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
}

Test(types, compact) {
    const Type *t = tile("!pto.tile_buf<vec, 32x32xf32>");
    expect_tile(&t->tile, LOC_VEC, DT_F32, 32, 32, 32, 32, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
    t = tile("!pto.tile_buf<vec, 16x128xf32, valid=16x1, blayout=col_major>");
    expect_tile(&t->tile, LOC_VEC, DT_F32, 16, 128, 16, 1, BL_COL_MAJOR, SL_NONE_BOX, 512, 0, 0);
    t = tile("!pto.tile_buf<left, 16x32xi8, compact=1, pad=2, fractal=32, slayout=col_major, valid=?x?, blayout=row_major>");
    expect_tile(&t->tile, LOC_LEFT, DT_I8, 16, 32, DIM_DYNAMIC, DIM_DYNAMIC, BL_ROW_MAJOR, SL_COL_MAJOR, 32, 2, 1);
    t = tile("!pto.tile_buf<acc, 16x16xf32, valid=8x?>");
    expect_tile(&t->tile, LOC_ACC, DT_F32, 16, 16, 8, DIM_DYNAMIC, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
}

Test(types, positional) {
    const Type *t = tile("!pto.tile<f32, 16, 16>");
    cr_assert_not(t->tile_buf);
    expect_tile(&t->tile, LOC_VEC, DT_F32, 16, 16, 16, 16, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
    t = tile("!pto.tile<f32,16,16>");
    expect_tile(&t->tile, LOC_VEC, DT_F32, 16, 16, 16, 16, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
    t = tile("!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>");
    expect_tile(&t->tile, LOC_VEC, DT_F32, 16, 16, 16, 16, BL_ROW_MAJOR, SL_NONE_BOX, 512, 1, 0);
    t = tile("!pto.tile_buf<loc=mat, int8, 16, 32, ColMajor, RowMajor, 1024, Min>");
    expect_tile(&t->tile, LOC_MAT, DT_I8, 16, 32, 16, 32, BL_COL_MAJOR, SL_ROW_MAJOR, 1024, 3, 0);
    t = tile("!pto.tile<half, 16, 1, ColMajor>");
    expect_tile(&t->tile, LOC_VEC, DT_F16, 16, 1, 16, 1, BL_COL_MAJOR, SL_NONE_BOX, 512, 0, 0);
}

Test(types, shape) {
    const Type *t = tile("!pto.tile<16x16xf32>");
    expect_tile(&t->tile, LOC_VEC, DT_F32, 16, 16, 16, 16, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
    t = tile("!pto.tile<vec, 16x16xf16, valid=?x?>");
    expect_tile(&t->tile, LOC_VEC, DT_F16, 16, 16, DIM_DYNAMIC, DIM_DYNAMIC, BL_ROW_MAJOR, SL_NONE_BOX, 512, 0, 0);
}

Test(types, all_spellings_are_one_type) {
    static const char *const spellings[] = {
        "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, "
        "fractal=512, pad=0>",
        "!pto.tile_buf<vec, 16x16xf32>",
        "!pto.tile<f32, 16, 16>",
        "!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Null>",
        "!pto.tile<16x16xf32>",
        "!pto.tile<dtype=float, rows=16, cols=16>",
    };
    Type first = *tile(spellings[0]);
    for (size_t i = 1; i < sizeof spellings / sizeof *spellings; i++) {
        const Type *t = tile(spellings[i]);
        cr_assert(type_equal(&first, t), "%s differs", spellings[i]);
    }
}

Test(types, dtype_aliases) {
    static const struct { const char *name; DType dt; } names[] = {
        {"half", DT_F16}, {"float", DT_F32}, {"int32", DT_I32}, {"ui8", DT_U8}, {"u16", DT_U16},
        {"si16", DT_I16}, {"int8", DT_I8}, {"ui32", DT_U32}, {"bf16", DT_BF16}, {"i64", DT_I64}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "!pto.tile<%s, 8, 32>", names[i].name);
        cr_assert_eq(tile(buf)->tile.dtype, names[i].dt, "%s", names[i].name);
    }
}

Test(types, canonical_text) {
    const Type *t = tile("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128, v_row=16, v_col=1, blayout=col_major, "
                         "slayout=none_box, fractal=512, pad=0>");
    char *s = type_to_string(result.arena, t, true);
    cr_assert_str_eq(s, "!pto.tile_buf<vec, 16x128xf32, valid=16x1, blayout=col_major>");
}

/* ---- other types ------------------------------------------------------------------------------- */

Test(types, views_pointers_scalars) {
    const Type *t = parse_type("!pto.ptr<f32>");
    cr_assert_eq(t->kind, TY_PTR);
    cr_assert_eq(t->dtype, DT_F32);
    t = parse_type("!pto.tensor_view<?x?xbf16>");
    cr_assert_eq(t->kind, TY_TENSOR_VIEW);
    cr_assert_eq(t->rank, 2);
    cr_assert_eq(t->dims[0], DIM_DYNAMIC);
    cr_assert_eq(t->dtype, DT_BF16);
    t = parse_type("!pto.partition_tensor_view<1x1x16x1024x1024xf32>");
    cr_assert_eq(t->kind, TY_PARTITION_VIEW);
    cr_assert_eq(t->rank, 5);
    cr_assert_eq(t->dims[3], 1024);
    t = parse_type("index");
    cr_assert_eq(t->kind, TY_SCALAR);
    cr_assert_eq(t->dtype, DT_INDEX);
    t = parse_type("i1");
    cr_assert_eq(t->dtype, DT_I1);
    t = parse_type("vector<4xi16>");
    cr_assert_eq(t->kind, TY_VECTOR);
    cr_assert_str_eq(t->text, "vector<4xi16>");
    t = parse_type("f64");
    cr_assert_eq(t->kind, TY_OTHER);
    t = parse_type("!pto.pipe");
    cr_assert_eq(t->kind, TY_PIPE);
}

Test(types, type_location_is_recorded) {
    parse_type("!pto.tile_buf<vec, 16x16xf32>");
    cr_assert_eq(result.type_loc.line, 1);
    cr_assert_eq(result.type_loc.col, 23);
    cr_assert_eq(result.type_loc.len, strlen("!pto.tile_buf<vec, 16x16xf32>"));
}

/* ---- errors (each names the key or value) -------------------------------------------------------- */

Test(types, unknown_duplicate_missing_keys) {
    type_error("!pto.tile_buf<vec, 16x16xf32, bogus=3>", "unknown key 'bogus'", "bogus");
    type_error("!pto.tile_buf<loc=vec, dtype=f32, rows=16, rows=8, cols=16>", "duplicate key 'rows'", "rows=8");
    type_error("!pto.tile_buf<vec, 16x16xf32, valid=16x1, valid=8x1>", "duplicate key 'valid'", "valid=8x1");
    type_error("!pto.tile_buf<loc=vec, rows=16, cols=16>", "missing key 'dtype'", "!pto.tile_buf");
    type_error("!pto.tile_buf<loc=vec, dtype=f32, cols=16>", "missing key 'rows'", "!pto.tile_buf");
    type_error("!pto.tile_buf<loc=vec, dtype=f32, rows=16>", "missing key 'cols'", "!pto.tile_buf");
    type_error("!pto.tile_buf<vec, 16x16xf32, v_row=8, valid=8x8>", "'valid' in !pto.tile_buf parameters conflicts with "
               "'v_row'", "valid=8x8");
    type_error("!pto.tile<f32, 16, 16, rows=8>", "duplicate key 'rows' in !pto.tile parameters", "rows=8");
}

Test(types, impossible_values) {
    type_error("!pto.tile_buf<loc=gm, dtype=f32, rows=16, cols=16>", "unknown loc 'gm'", "loc=gm");
    type_error("!pto.tile_buf<loc=vec, dtype=f65, rows=16, cols=16>", "unknown dtype 'f65'", "dtype=f65");
    type_error("!pto.tile_buf<loc=vec, dtype=index, rows=16, cols=16>", "unknown dtype 'index'", "dtype=index");
    type_error("!pto.tile_buf<loc=vec, dtype=f32, rows=-16, cols=16>", "'rows' in !pto.tile_buf must be a non-negative "
               "integer, got '-16'", "rows=-16");
    type_error("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=x>", "'cols' in !pto.tile_buf must be a non-negative "
               "integer, got 'x'", "cols=x");
    type_error("!pto.tile_buf<vec, 16x16xf32, v_row=-2>", "'v_row' in !pto.tile_buf must be '?', -1 or a non-negative "
               "integer, got '-2'", "v_row=-2");
    type_error("!pto.tile_buf<vec, 16x16xf32, blayout=diagonal>", "unknown blayout 'diagonal'", "blayout=");
    type_error("!pto.tile_buf<vec, 16x16xf32, slayout=zigzag>", "unknown slayout 'zigzag'", "slayout=");
    type_error("!pto.tile_buf<vec, 16x16xf32, pad=7>", "unknown pad '7'", "pad=7");
    type_error("!pto.tile_buf<vec, 16x16xf32, compact=3>", "unknown compact '3'", "compact=3");
    type_error("!pto.tile_buf<vec, 16x16xf32, fractal=0>", "'fractal' in !pto.tile_buf must be a positive integer", "fractal=0");
    type_error("!pto.tile_buf<vec, 16x16xf32, valid=16x1x2>", "'valid' in !pto.tile_buf must have exactly two dims", "valid=");
    type_error("!pto.tile_buf<vec, 16x16xf32, valid=16>", "'valid' in !pto.tile_buf must be ROWSxCOLS", "valid=");
}

Test(types, shape_errors) {
    type_error("!pto.tile_buf<vec, ?x16xf32>", "shape must be static", "?x16");
    type_error("!pto.tile_buf<vec, 16x16x16xf32>", "shape must have exactly two dims", "16x16x16");
    type_error("!pto.tile_buf<vec, 16x16>", "expected ROWSxCOLSxDTYPE", "16x16");
    type_error("!pto.tile_buf<vec, 16x16xq8>", "unknown element type 'q8'", "q8");
    type_error("!pto.tile_buf<vec, 16x16xf32, row_major>", "unexpected parameter 'row_major' after the shape", "row_major");
    type_error("!pto.tile<f32, 16, 16, RowMajor, NoneBox, 512, Null, extra>", "too many positional parameters", "extra");
    type_error("!pto.tile<vec, 42>", "expected a dtype or ROWSxCOLSxDTYPE", "42");
    type_error("!pto.tile<99999999999999999999x16xf32>", "dimension '99999999999999999999' is out of the 64-bit range",
               "99999999999999999999");
    type_error("!pto.tile_buf<loc=vec, dtype=f32, rows=99999999999999999999, cols=1>", "integer literal "
               "'99999999999999999999' is out of the 64-bit range", "99999999999999999999");
    type_error("!pto.tile_buf", "needs parameters", "!pto.tile_buf");
}

Test(types, other_type_errors) {
    type_error("!pto.ptr<f32, gm>", "!pto.ptr expects one element type", "gm");
    type_error("!pto.ptr<q7>", "unknown element type 'q7' in !pto.ptr", "q7");
    type_error("!pto.tensor_view<f32>", "expects one DIMSxDTYPE parameter", "f32>");
    type_error("!pto.tensor_view<16x16>", "expects DIMSxDTYPE", "16x16");
    type_error("!pto.partition_tensor_view<16x16xfoo>", "unknown element type 'foo'", "foo");
    type_error("widget", "unknown type 'widget'", "widget");
}

/* vector<DIMSxT> (tmrgsort's executed counts): a TY_VECTOR with rank, dims and element type; a
 * malformed parameter is an error naming the expected spelling. */
Test(types, vector_type) {
    const Type *t = parse_type("vector<4xi16>");
    cr_assert_eq(result.diags.count, 0);
    cr_assert_eq(t->kind, TY_VECTOR);
    cr_assert_eq(t->rank, 1);
    cr_assert_eq(t->dims[0], 4);
    cr_assert_eq(t->dtype, DT_I16);
    cr_assert_str_eq(type_to_string(result.arena, t, false), "vector<4xi16>");
    type_error("vector<4>", "vector expects one DIMSxDTYPE parameter", "4>");
    type_error("vector<4x?>", "vector expects", "4x?");
    type_error("vector<4xi16, 2>", "vector expects one DIMSxDTYPE parameter", "vector");
}

/* The elements of a dense literal: a list, a splat, signs and hex; anything else (or too many) is
 * refused. */
Test(types, dense_int_elements) {
    int64_t v[4];
    int n;
    cr_assert(dense_int_elements("dense<[128, 64, 0, 0]>", v, 4, &n));
    cr_assert_eq(n, 4);
    cr_assert(v[0] == 128 && v[1] == 64 && v[2] == 0 && v[3] == 0);
    cr_assert(dense_int_elements("dense<[-2, 0x10]>", v, 4, &n));
    cr_assert(n == 2 && v[0] == -2 && v[1] == 16);
    cr_assert(dense_int_elements("dense<010>", v, 4, &n));
    cr_assert(n == 1 && v[0] == 10);
    cr_assert(dense_int_elements("dense<7>", v, 4, &n));
    cr_assert(n == 1 && v[0] == 7);
    cr_assert(!dense_int_elements("dense<[1, 2, 3, 4, 5]>", v, 4, &n));
    cr_assert(!dense_int_elements("dense<[1.5]>", v, 4, &n));
    cr_assert(!dense_int_elements("dense<[1 2]>", v, 4, &n));
    cr_assert(!dense_int_elements("dense<[1]", v, 4, &n));
    cr_assert(!dense_int_elements("array<i32: 1>", v, 4, &n));
}

/* ---- the MX matmul's 8-bit float element types (PTOAS's MLIR spellings) ----------------------- */

Test(types, f8_element_types) {
    static const struct {
        const char *name;
        DType dt;
    } f8[] = {{"f8E4M3FN", DT_F8E4M3FN},     {"f8E4M3", DT_F8E4M3},
              {"f8E5M2", DT_F8E5M2},         {"f8E8M0FNU", DT_F8E8M0FNU},
              {"f8E4M3FNUZ", DT_F8E4M3FNUZ}, {"f8E4M3B11FNUZ", DT_F8E4M3B11FNUZ},
              {"f8E5M2FNUZ", DT_F8E5M2FNUZ}};
    for (size_t i = 0; i < sizeof f8 / sizeof *f8; i++) {
        DType dt;
        cr_assert(dtype_from_name(f8[i].name, strlen(f8[i].name), &dt), "%s", f8[i].name);
        cr_assert_eq(dt, f8[i].dt);
        cr_assert_str_eq(dtype_name(dt), f8[i].name);
        cr_assert_eq(dtype_size(dt), 1);
        cr_assert(dtype_is_f8(dt) && !dtype_is_float(dt) && !dtype_is_int(dt));
        cr_assert_eq(dtype_f8_format(dt), f8[i].name[3] == '8' ? 's' : f8[i].name[3] == '5' ? 'm' : 'e', "%s", f8[i].name);
        char text[160];
        snprintf(text, sizeof text, "!pto.tile_buf<loc=left, dtype=%s, rows=16, cols=64>", f8[i].name);
        cr_assert_eq(tile(text)->tile.dtype, f8[i].dt);
        snprintf(text, sizeof text, "!pto.tile_buf<vec, 16x64x%s>", f8[i].name);
        cr_assert_eq(tile(text)->tile.dtype, f8[i].dt);
        int64_t bytes = 0;
        cr_assert(tile_footprint_bytes(&result.type->tile, &bytes));
        cr_assert_eq(bytes, 16 * 64, "one byte per element");
        snprintf(text, sizeof text, "!pto.ptr<%s>", f8[i].name);
        cr_assert_eq(parse_type(text)->dtype, f8[i].dt);
    }
    /* case matters, as in MLIR */
    type_error("!pto.tile_buf<loc=vec, dtype=f8e4m3fn, rows=16, cols=32>", "unknown dtype 'f8e4m3fn'", "dtype=");
}

Test(types, narrow_floats_refused_by_name) {
    type_error("!pto.tile_buf<loc=left, dtype=f4E2M1FN, rows=16, cols=64>", "dtype 'f4E2M1FN' in !pto.tile_buf is not "
               "supported: a 4-bit type", "dtype=f4E2M1FN");
    type_error("!pto.tile_buf<vec, 16x64xf4E2M1FN>", "element type 'f4E2M1FN' is not supported: a 4-bit type", "f4E2M1FN");
    type_error("!pto.tile_buf<vec, 16x64xf8E3M4>", "element type 'f8E3M4' is not supported", "f8E3M4");
    type_error("!pto.tile_buf<loc=vec, dtype=f6E3M2FN, rows=16, cols=32>", "a 6-bit type", "dtype=");
}
