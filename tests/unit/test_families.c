/* test_families.c - the elementwise families end to end (parser, verifier, lowering, kernels):
 * values worked out by hand from the simulator's C++, run-time rule checks on dynamic shapes,
 * faults, the partial family's union rule. Bit-exact goldens from the simulator itself are the
 * tests/sim suite. */
#include "prog.h"

#include <math.h>

#define T8 "!pto.tile_buf<vec, 4x8xf32>"

static float at_f32(const DataArray *a, int64_t i) { return ((const float *)a->data)[i]; }

Test(families, tdivs_takes_the_scalar_on_either_side) {
    Prog p;
    prog_load(&p,
              "%x = pto.texpands 4.0 : f32, " T8 "\n"
              "%a = pto.tdivs %x, 2.0 : (" T8 ", f32) -> " T8 "\n"
              "%b = pto.tdivs 2.0, %x : (f32, " T8 ") -> " T8 "\n",
              TARGET_A2A3);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray a = prog_fetch(&p, "a"), b = prog_fetch(&p, "b");
    for (int i = 0; i < 32; i++) {
        cr_assert_eq(at_f32(&a, i), 2.0f);
        cr_assert_eq(at_f32(&b, i), 0.5f);
    }
    data_array_free(&a);
    data_array_free(&b);
    prog_unload(&p);
}

Test(families, integer_division_by_zero_is_a_located_run_time_error) {
    Prog p;
    prog_load(&p,
              "%x = pto.texpands 7 : i32, !pto.tile_buf<vec, 2x8xi32>\n"
              "%z = pto.texpands 0 : i32, !pto.tile_buf<vec, 2x8xi32>\n"
              "%q = pto.tdiv %x, %z : !pto.tile_buf<vec, 2x8xi32>\n",
              TARGET_A5);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "t.pto:3:6: error: 'pto.tdiv' op integer division by zero"), "%s", prog_diags(&p));
    prog_unload(&p);
}

Test(families, dynamic_valid_shapes_are_checked_at_run_time) {
    Prog p;
    prog_load(&p,
              "%r = arith.constant 3 : index\n"
              "%c = arith.constant 8 : index\n"
              "%a = pto.alloc_tile valid_row = %r valid_col = %c : !pto.tile_buf<vec, 4x8xf32, valid=?x?>\n"
              "%b = pto.alloc_tile : " T8 "\n"
              "%d = pto.alloc_tile : " T8 "\n"
              "pto.tadd ins(%a, %b : !pto.tile_buf<vec, 4x8xf32, valid=?x?>, " T8 ") outs(%d : " T8 ")\n",
              TARGET_A2A3);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "expects src0 to have dst's valid shape 4x8, got 3x8 [TADD.valid-shape]"), "%s",
              prog_diags(&p));
    prog_unload(&p);
}

Test(families, partial_ops_combine_where_both_cover_copy_where_one_does_zero_elsewhere) {
    Prog p;
    prog_load(&p,
              "%a = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32, valid=3x8>\n"
              "%b = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32, valid=4x5>\n"
              "pto.texpands ins(2.0 : f32) outs(%a : !pto.tile_buf<vec, 4x8xf32, valid=3x8>)\n"
              "pto.texpands ins(3.0 : f32) outs(%b : !pto.tile_buf<vec, 4x8xf32, valid=4x5>)\n"
              "%d = pto.texpands 9.0 : f32, " T8 "\n"
              "pto.tpartmul ins(%a, %b : !pto.tile_buf<vec, 4x8xf32, valid=3x8>, !pto.tile_buf<vec, 4x8xf32, valid=4x5>) "
              "outs(%d : " T8 ")\n",
              TARGET_A5);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d");
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) {
            bool in_a = r < 3, in_b = c < 5;
            float want = in_a && in_b ? 6.0f : in_a ? 2.0f : in_b ? 3.0f : 0.0f;
            cr_assert_eq(at_f32(&d, r * 8 + c), want, "(%d, %d)", r, c);
        }
    data_array_free(&d);
    prog_unload(&p);
}

Test(families, tile_scalar_a5_rows_may_differ_but_not_exceed_src) {
    Prog p;
    prog_load(&p,
              "%s = pto.texpands 1.5 : f32, !pto.tile_buf<vec, 4x8xf32, valid=2x8>\n"
              "%d = pto.texpands 0.0 : f32, " T8 "\n"
              "pto.tadds ins(%s, 1.0 : !pto.tile_buf<vec, 4x8xf32, valid=2x8>, f32) outs(%d : " T8 ")\n",
              TARGET_A5);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d");
    /* A5 iterates dst's 4 valid rows and reads src rows 2 and 3 (outside src's valid region, inside its tile) */
    for (int i = 0; i < 16; i++) cr_assert_eq(at_f32(&d, i), 2.5f);
    data_array_free(&d);
    prog_unload(&p);
}

Test(families, a_nan_in_src0_wins_over_one_in_src1) {
    Prog p;
    prog_load(&p,
              "%a = pto.texpands 0x7fc00001 : f32, " T8 "\n"
              "%b = pto.texpands 0xffc00002 : f32, " T8 "\n"
              "%d = pto.tmul %a, %b : " T8 "\n"
              "%e = pto.tmul %b, %a : " T8 "\n",
              TARGET_A2A3);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d"), e = prog_fetch(&p, "e");
    for (int i = 0; i < 32; i++) {
        uint32_t db, eb;
        memcpy(&db, (const uint8_t *)d.data + 4 * i, 4);
        memcpy(&eb, (const uint8_t *)e.data + 4 * i, 4);
        cr_assert_eq(db, 0x7fc00001u);
        cr_assert_eq(eb, 0xffc00002u);
    }
    data_array_free(&d);
    data_array_free(&e);
    prog_unload(&p);
}

/* A row-expand member's Mode 1 (one operand an N x 1 column) runs its elementwise kernel on whole
 * rows, the column broadcast into a staging buffer (ops_tile.c, row_expand_staged) a block of rows
 * at a time, and a row longer than the buffer in pieces: rows of 5000 f32 (20000 bytes), 600 rows
 * of 8 (more rows than one block holds), the column on either side. */
Test(families, row_expand_members_over_long_rows_and_many_rows) {
    enum { LONG = 5000, MANY = 600 };
    static float x[3 * LONG], c3[3], y[MANY * 8], c600[MANY];
    for (int i = 0; i < 3 * LONG; i++) x[i] = (float)(i % 97) * 0.25f - 7.0f;
    for (int i = 0; i < MANY * 8; i++) y[i] = (float)(i % 89) * 0.5f - 20.0f;
    for (int r = 0; r < 3; r++) c3[r] = 1.0f + (float)r * 0.125f;
    for (int r = 0; r < MANY; r++) c600[r] = (float)(r % 41) - 20.0f;
    Prog p;
    prog_load(&p,
              "%x = pto.alloc_tile : !pto.tile_buf<vec, 3x5000xf32>\n"
              "%c = pto.alloc_tile : !pto.tile_buf<vec, 8x1xf32, valid=3x1, blayout=col_major>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<vec, 3x5000xf32>\n"
              "pto.trowexpandadd ins(%x, %c : !pto.tile_buf<vec, 3x5000xf32>, "
              "!pto.tile_buf<vec, 8x1xf32, valid=3x1, blayout=col_major>) outs(%d : !pto.tile_buf<vec, 3x5000xf32>)\n"
              "%y = pto.alloc_tile : !pto.tile_buf<vec, 600x8xf32>\n"
              "%k = pto.alloc_tile : !pto.tile_buf<vec, 600x1xf32, blayout=col_major>\n"
              "%e = pto.alloc_tile : !pto.tile_buf<vec, 600x8xf32>\n"
              "pto.trowexpandmin ins(%k, %y : !pto.tile_buf<vec, 600x1xf32, blayout=col_major>, "
              "!pto.tile_buf<vec, 600x8xf32>) outs(%e : !pto.tile_buf<vec, 600x8xf32>)\n",
              TARGET_A2A3);
    prog_bind_tile(&p, "x", DT_F32, 3, LONG, x);
    prog_bind_tile(&p, "c", DT_F32, 3, 1, c3);
    prog_bind_tile(&p, "y", DT_F32, MANY, 8, y);
    prog_bind_tile(&p, "k", DT_F32, MANY, 1, c600);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d"), e = prog_fetch(&p, "e");
    for (int i = 0; i < 3 * LONG; i++)
        cr_assert_eq(at_f32(&d, i), x[i] + c3[i / LONG], "d[%d] = %g, want %g", i, (double)at_f32(&d, i), (double)(x[i] + c3[i / LONG]));
    for (int i = 0; i < MANY * 8; i++) {
        float want = y[i] < c600[i / 8] ? y[i] : c600[i / 8]; /* std::min(src0, src1): src1 when smaller */
        cr_assert_eq(at_f32(&e, i), want, "e[%d] = %g, want %g", i, (double)at_f32(&e, i), (double)want);
    }
    data_array_free(&d);
    data_array_free(&e);
    prog_unload(&p);
}
