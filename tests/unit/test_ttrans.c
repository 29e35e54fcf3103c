/* test_ttrans.c - TTRANS paths the simulator goldens (tests/sim/cases/transpose.py, disjoint tiles)
 * do not reach: src and dst sharing bytes (in place, and through overlapping manual placements),
 * which the simulator's TTrans_Impl runs element by element, column by column over src's valid
 * region; a 1-byte transpose with a valid region of one column; the SSA form with a dynamic result. */
#include "prog.h"

#define T8 "!pto.tile_buf<vec, 8x8xf32>"

/* The simulator's loop on one buffer: for c < vc, for r < vr: d[c * dcols + r] = s[r * scols + c]
 * where d and s may be the same memory (row-major tiles, element offsets from d and s). */
static void sim_ttrans(float *d, int64_t dcols, const float *s, int64_t scols, int64_t vr, int64_t vc) {
    for (int64_t c = 0; c < vc; c++)
        for (int64_t r = 0; r < vr; r++) d[c * dcols + r] = s[r * scols + c];
}

Test(ttrans, in_place_keeps_the_simulators_element_order) {
    Prog p;
    prog_load(&p,
              "%t = pto.alloc_tile : " T8 "\n"
              "%tmp = pto.alloc_tile : " T8 "\n"
              "pto.ttrans ins(%t, %tmp : " T8 ", " T8 ") outs(%t : " T8 ")\n",
              TARGET_A2A3);
    float in[64], want[64];
    for (int i = 0; i < 64; i++) in[i] = want[i] = (float)i;
    prog_bind_tile(&p, "t", DT_F32, 8, 8, in);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    sim_ttrans(want, 8, want, 8, 8, 8); /* in place: the lower triangle ends up mirrored, not swapped */
    DataArray d = prog_fetch(&p, "t");
    cr_assert_eq(d.count, 64);
    for (int i = 0; i < 64; i++) cr_assert_eq(((const float *)d.data)[i], want[i], "element %d", i);
    cr_assert_eq(((const float *)d.data)[1], 8.0f); /* d(0, 1) = s(1, 0) */
    cr_assert_eq(((const float *)d.data)[8], 8.0f); /* d(1, 0) = s(0, 1), already overwritten */
    data_array_free(&d);
    prog_unload(&p);
}

Test(ttrans, overlapping_placements_copy_element_by_element) {
    /* src 8x8 at 0x0, dst 8x8 placed one row (32 bytes) later: the tiles share 7 rows */
    Prog p;
    prog_load(&p,
              "%big = pto.alloc_tile addr = 0x0 : !pto.tile_buf<vec, 9x8xf32>\n"
              "%s = pto.alloc_tile addr = 0x0 : " T8 "\n"
              "%d = pto.alloc_tile addr = 0x20 : " T8 "\n"
              "%tmp = pto.alloc_tile addr = 0x1000 : " T8 "\n"
              "pto.ttrans ins(%s, %tmp : " T8 ", " T8 ") outs(%d : " T8 ")\n",
              TARGET_A2A3);
    float in[72], want[72];
    for (int i = 0; i < 72; i++) in[i] = want[i] = (float)(100 + i);
    prog_bind_tile(&p, "big", DT_F32, 9, 8, in);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    sim_ttrans(want + 8, 8, want, 8, 8, 8);
    DataArray d = prog_fetch(&p, "big");
    cr_assert_eq(d.count, 72);
    for (int i = 0; i < 72; i++) cr_assert_eq(((const float *)d.data)[i], want[i], "element %d", i);
    data_array_free(&d);
    prog_unload(&p);
}

Test(ttrans, one_byte_one_valid_column_leaves_the_rest_of_dst) {
    Prog p;
    prog_load(&p,
              "%s = pto.alloc_tile : !pto.tile_buf<vec, 32x32xui8, valid=32x1>\n"
              "%tmp = pto.alloc_tile : !pto.tile_buf<vec, 32x32xui8>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<vec, 32x32xui8, valid=1x32>\n"
              "%w = pto.alloc_tile : !pto.tile_buf<vec, 32x32xui8>\n"
              "pto.ttrans ins(%s, %tmp : !pto.tile_buf<vec, 32x32xui8, valid=32x1>, !pto.tile_buf<vec, 32x32xui8>) "
              "outs(%d : !pto.tile_buf<vec, 32x32xui8, valid=1x32>)\n",
              TARGET_A5);
    uint8_t col[32], fill[1024];
    for (int i = 0; i < 32; i++) col[i] = (uint8_t)(200 + i);
    for (int i = 0; i < 1024; i++) fill[i] = 7;
    prog_bind_tile(&p, "s", DT_U8, 32, 1, col);
    prog_bind_tile(&p, "d", DT_U8, 1, 32, fill);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d");
    cr_assert_eq(d.count, 32);
    for (int c = 0; c < 32; c++) cr_assert_eq(((const uint8_t *)d.data)[c], 200 + c);
    data_array_free(&d);
    prog_unload(&p);
}

Test(ttrans, ssa_result_takes_src_valid_shape_mirrored) {
    /* src valid %r x %c (3 x 5 at run time): the SSA result, typed ?x?, gets 5 x 3 */
    Prog p;
    prog_load(&p,
              "%c3 = arith.constant 3 : index\n"
              "%c5 = arith.constant 5 : index\n"
              "%s = pto.alloc_tile valid_row = %c3 valid_col = %c5 : !pto.tile_buf<vec, 8x8xf32, valid=?x?>\n"
              "%tmp = pto.alloc_tile : " T8 "\n"
              "%e = pto.ttrans %s, %tmp : (!pto.tile_buf<vec, 8x8xf32, valid=?x?>, " T8 ") -> "
              "!pto.tile_buf<vec, 8x8xf32, valid=?x?>\n",
              TARGET_A2A3);
    float in[15];
    for (int i = 0; i < 15; i++) in[i] = (float)i;
    prog_bind_tile(&p, "s", DT_F32, 3, 5, in);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "e");
    cr_assert_eq(d.count, 15);
    cr_assert(d.rank == 2 && d.shape[0] == 5 && d.shape[1] == 3);
    for (int c = 0; c < 5; c++)
        for (int r = 0; r < 3; r++) cr_assert_eq(((const float *)d.data)[c * 3 + r], in[r * 5 + c]);
    data_array_free(&d);
    prog_unload(&p);
}
