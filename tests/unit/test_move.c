/* test_move.c - TEXTRACT, TINSERT, TCONCAT and TRESHAPE end to end: values worked out from the
 * simulator's loops (TExtract.hpp, TInsert.hpp, TConcat.hpp, TReshape.hpp), the run-time bound and
 * valid-row checks for dynamic operands, aliasing through treshape (overlapping copies keep the
 * simulator's element order), and the cube forms pto-run refuses. */
#include "prog.h"

static float f32_at(const DataArray *a, int64_t i) { return ((const float *)a->data)[i]; }

#define S "!pto.tile_buf<vec, 16x16xf32>"
#define D "!pto.tile_buf<vec, 4x8xf32, valid=3x5>"

Test(move, textract_dynamic_offset_past_src_is_a_run_time_error) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : " S "\n"
              "%dst = pto.alloc_tile : " D "\n"
              "%c6 = arith.constant 6 : index\n"
              "%c4 = arith.constant 4 : index\n"
              "%r = arith.addi %c6, %c6 : index\n" /* 12: 12 + 4 rows <= 16 */
              "%c = arith.addi %c4, %c4 : index\n" /* 8: 8 + 8 cols <= 16 */
              "pto.textract ins(%src, %r, %c : " S ", index, index) outs(%dst : " D ")\n"
              "%bad = arith.addi %c, %c4 : index\n" /* 12: 12 + 8 > 16 */
              "pto.textract ins(%src, %r, %bad : " S ", index, index) outs(%dst : " D ")\n",
              TARGET_A5);
    float src[256];
    for (int i = 0; i < 256; i++) src[i] = (float)i;
    prog_bind_tile(&p, "src", DT_F32, 16, 16, src);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "expects indexCol + dst.cols <= src.cols, got 12 + 8 > 16 [TEXTRACT.bounds]"), "%s",
              prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst"); /* the first textract ran: dst(r, c) = src(12 + r, 8 + c) */
    cr_assert_eq(d.count, 15);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++) cr_assert_eq(f32_at(&d, r * 5 + c), (float)((12 + r) * 16 + 8 + c));
    data_array_free(&d);
    prog_unload(&p);
}

Test(move, tinsert_writes_only_the_window_and_checks_dynamic_offsets) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 2x8xi32, valid=2x3>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi32>\n"
              "pto.texpands ins(-1 : i32) outs(%dst : !pto.tile_buf<vec, 4x8xi32>)\n"
              "%c1 = arith.constant 1 : index\n"
              "%c5 = arith.constant 5 : index\n"
              "pto.tinsert ins(%src, %c1, %c5 : !pto.tile_buf<vec, 2x8xi32, valid=2x3>, index, index) "
              "outs(%dst : !pto.tile_buf<vec, 4x8xi32>)\n"
              "%c6 = arith.addi %c5, %c1 : index\n"
              "pto.tinsert ins(%src, %c1, %c6 : !pto.tile_buf<vec, 2x8xi32, valid=2x3>, index, index) "
              "outs(%dst : !pto.tile_buf<vec, 4x8xi32>)\n",
              TARGET_A5);
    int32_t src[6] = {10, 11, 12, 20, 21, 22};
    prog_bind_tile(&p, "src", DT_I32, 2, 3, src);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "expects indexCol + src.cols <= dst.cols, got 6 + 3 > 8 [TINSERT.bounds]"), "%s",
              prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    const int32_t *v = d.data;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) {
            int32_t want = (r >= 1 && r < 3 && c >= 5) ? src[(r - 1) * 3 + (c - 5)] : -1;
            cr_assert_eq(v[r * 8 + c], want, "(%d, %d): %d", r, c, v[r * 8 + c]);
        }
    data_array_free(&d);
    prog_unload(&p);
}

/* %v views %src's bytes as 8x32 (valid 4x8 written by texpands, seen through %src); %dst is placed
 * at %src's address, so the extraction from %src into it overlaps, and the simulator's order (columns
 * outer, rows inner, one element at a time) decides what is read after it was written. */
Test(move, treshape_aliases_and_an_overlapping_textract_keeps_the_simulator_order) {
    Prog p;
    prog_load(&p,
              "pto.tassign %src, @tile(0x0)\n"
              "%src = pto.alloc_tile : " S "\n"
              "pto.tassign %dst, @tile(0x0)\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>\n"
              "%c0 = arith.constant 0 : index\n"
              "%c2 = arith.constant 2 : index\n"
              "pto.textract ins(%src, %c0, %c2 : " S ", index, index) outs(%dst : !pto.tile_buf<vec, 4x8xf32>)\n"
              "%w = pto.treshape %src : " S " -> !pto.tile_buf<vec, 8x32xf32, valid=7x8>\n"
              "pto.texpands ins(-2.0 : f32) outs(%w : !pto.tile_buf<vec, 8x32xf32, valid=7x8>)\n",
              TARGET_A5);
    float src[256], want[256];
    for (int i = 0; i < 256; i++) src[i] = want[i] = (float)i;
    /* TExtract_Impl's loop on the shared bytes, dst (r, c) = flat r*8 + c: dst(0, 6) reads flat 8 after
     * dst(1, 0) wrote it (a row-by-row copy would read it before) */
    for (int c = 0; c < 8; c++)
        for (int r = 0; r < 4; r++) want[r * 8 + c] = want[r * 16 + c + 2];
    cr_assert_eq(want[6], 18.0f);
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 8; c++) want[r * 32 + c] = -2.0f;
    prog_bind_tile(&p, "src", DT_F32, 16, 16, src);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "src");
    for (int i = 0; i < 256; i++) cr_assert_eq(f32_at(&d, i), want[i], "element %d: %g vs %g", i, f32_at(&d, i), want[i]);
    data_array_free(&d);
    prog_unload(&p);
}

/* A `?` valid dim of the result takes src's current one (PTOAS binds the parent's valid dims); one
 * that does not fit the result's shape is a run-time error. */
Test(move, treshape_dynamic_valid_dims_come_from_src) {
    Prog p;
    prog_load(&p,
              "%c3 = arith.constant 3 : index\n"
              "%c5 = arith.constant 5 : index\n"
              "%c9 = arith.constant 9 : index\n"
              "%c40 = arith.constant 40 : index\n"
              "%s = pto.alloc_tile valid_row = %c5 valid_col = %c9 : !pto.tile_buf<vec, 8x32xi16, valid=?x?>\n"
              "%v = pto.treshape %s : !pto.tile_buf<vec, 8x32xi16, valid=?x?> -> !pto.tile_buf<vec, 16x16xui16, valid=?x?>\n"
              "%t = pto.alloc_tile valid_row = %c3 valid_col = %c40 : !pto.tile_buf<vec, 4x64xi16, valid=?x?>\n"
              "%w = pto.treshape %t : !pto.tile_buf<vec, 4x64xi16, valid=?x?> -> !pto.tile_buf<vec, 16x16xi16, valid=?x?>\n",
              TARGET_A2A3);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "valid shape 3x40 of %t does not fit the result's 16x16 shape"), "%s", prog_diags(&p));
    DataArray v = prog_fetch(&p, "v");
    cr_assert_eq(v.shape[0], 5);
    cr_assert_eq(v.shape[1], 9);
    data_array_free(&v);
    prog_unload(&p);
}

Test(move, tconcat_dynamic_valid_rows_must_match) {
    Prog p;
    prog_load(&p,
              "%c3 = arith.constant 3 : index\n"
              "%c4 = arith.constant 4 : index\n"
              "%c8 = arith.constant 8 : index\n"
              "%a = pto.alloc_tile valid_row = %c4 valid_col = %c3 : !pto.tile_buf<vec, 4x8xf32, valid=?x?>\n"
              "%b = pto.alloc_tile valid_row = %c3 valid_col = %c8 : !pto.tile_buf<vec, 4x8xf32, valid=?x?>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>\n"
              "pto.tconcat ins(%a, %b : !pto.tile_buf<vec, 4x8xf32, valid=?x?>, !pto.tile_buf<vec, 4x8xf32, valid=?x?>) "
              "outs(%d : !pto.tile_buf<vec, 4x16xf32>)\n",
              TARGET_A2A3);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "expects src1 valid row to match dst valid row, got 3 and 4 [TCONCAT.valid-rows]"), "%s",
              prog_diags(&p));
    prog_unload(&p);
}

Test(move, tconcat_rows_are_src0_then_src1_and_dst_past_the_sum_stays) {
    Prog p;
    prog_load(&p,
              "%a = pto.alloc_tile : !pto.tile_buf<vec, 2x16xi16, valid=2x3>\n"
              "%b = pto.alloc_tile : !pto.tile_buf<vec, 2x16xi16, valid=2x5>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<vec, 2x32xi16>\n"
              "pto.texpands ins(7 : i16) outs(%d : !pto.tile_buf<vec, 2x32xi16>)\n"
              "pto.tconcat ins(%a, %b : !pto.tile_buf<vec, 2x16xi16, valid=2x3>, !pto.tile_buf<vec, 2x16xi16, valid=2x5>) "
              "outs(%d : !pto.tile_buf<vec, 2x32xi16>)\n",
              TARGET_A5);
    int16_t a[6] = {1, 2, 3, 4, 5, 6}, b[10] = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    prog_bind_tile(&p, "a", DT_I16, 2, 3, a);
    prog_bind_tile(&p, "b", DT_I16, 2, 5, b);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d");
    const int16_t *v = d.data;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 32; c++) {
            int16_t want = c < 3 ? a[r * 3 + c] : c < 8 ? b[r * 5 + c - 3] : 7;
            cr_assert_eq(v[r * 32 + c], want, "(%d, %d): %d", r, c, v[r * 32 + c]);
        }
    data_array_free(&d);
    prog_unload(&p);
}

/* A5 vec -> mat TINSERT runs into the boxed (Nz) mat tile at its offset; the converting cube form
 * (acc f32 -> mat f16) casts each value to nearest even (the simulator goldens tinsert_acc_mat_*
 * check it bit for bit). */
Test(move, cube_forms_run_and_convert_from_acc) {
    Prog p;
    prog_load(&p,
              "%c0 = arith.constant 0 : index\n"
              "%c16 = arith.constant 16 : index\n"
              "%k = arith.constant 2.5 : f32\n"
              "%s = pto.alloc_tile : !pto.tile_buf<vec, 16x32xf32>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<mat, 32x64xf32, blayout=col_major, slayout=row_major>\n"
              "pto.texpands ins(%k : f32) outs(%s : !pto.tile_buf<vec, 16x32xf32>)\n"
              "pto.tinsert ins(%s, %c16, %c0 : !pto.tile_buf<vec, 16x32xf32>, index, index) "
              "outs(%d : !pto.tile_buf<mat, 32x64xf32, blayout=col_major, slayout=row_major>)\n",
              TARGET_A5);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d"); /* logical row-major 32x64 */
    cr_assert_eq(f32_at(&d, 16 * 64 + 0), 2.5f);
    cr_assert_eq(f32_at(&d, 31 * 64 + 31), 2.5f);
    cr_assert_eq(f32_at(&d, 15 * 64 + 0), 0.0f);
    cr_assert_eq(f32_at(&d, 16 * 64 + 32), 0.0f);
    data_array_free(&d);
    prog_unload(&p);
    prog_load(&p,
              "%c0 = arith.constant 0 : index\n"
              "%s = pto.alloc_tile : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<mat, 32x64xf16, blayout=col_major, slayout=row_major>\n"
              "pto.tinsert ins(%s, %c0, %c0 : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, "
              "index, index) outs(%d : !pto.tile_buf<mat, 32x64xf16, blayout=col_major, slayout=row_major>)\n",
              TARGET_A5);
    float acc[256];
    for (int k = 0; k < 256; k++) acc[k] = (float)k + 0.25f + (k == 5 ? 1e-3f : 0.0f); /* 5.251 rounds in f16 */
    prog_bind_tile(&p, "s", DT_F32, 16, 16, acc);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray h = prog_fetch(&p, "d"); /* logical row-major 32x64 f16 */
    const uint16_t *hb = h.data;
    cr_assert_eq(hb[0], f32_to_f16_bits(0.25f));
    cr_assert_eq(hb[5], f32_to_f16_bits(5.251f)); /* nearest even of the f32 value */
    cr_assert_eq(hb[15 * 64 + 15], f32_to_f16_bits(255.25f));
    cr_assert_eq(hb[16 * 64], 0); /* outside the inserted block: untouched */
    data_array_free(&h);
    prog_unload(&p);
}

#define FPA "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
#define FPQ "!pto.tile_buf<scaling, 1x16xf32>"
#define FPV "!pto.tile_buf<vec, 16x32xi8, valid=16x16>"

/* tmov with an fp tile of f32 values: each word is the value converted to uint64_t (the simulator's
 * `scalars[i] = fp.data()[i]`), the column's word quantises (VQF322B8_PRE); a value that cast leaves
 * undefined is a run-time error. */
Test(move, tmov_fp_tile_words_are_values_of_a_float_tile) {
    const char *text = "%a = pto.alloc_tile : " FPA "\n"
                       "%q = pto.alloc_tile : " FPQ "\n"
                       "%v = pto.alloc_tile : " FPV "\n"
                       "pto.tmov ins(%a : " FPA ", %q : " FPQ ") outs(%v : " FPV ")\n";
    float acc[256], words[16];
    for (int k = 0; k < 256; k++) acc[k] = (float)k - 100.0f;
    for (int c = 0; c < 16; c++) /* scale 0.5 (1.0 in column 3), signed result: bit 46 */
        words[c] = (float)(double)((c == 3 ? 0x3F800000ull : 0x3F000000ull) | (1ull << 46));
    Prog p;
    prog_load(&p, text, TARGET_A5);
    prog_bind_tile(&p, "a", DT_F32, 16, 16, acc);
    prog_bind_tile(&p, "q", DT_F32, 1, 16, words);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray v = prog_fetch(&p, "v");
    const int8_t *vb = v.data;
    cr_assert_eq(vb[0], -50);             /* -100 * 0.5 */
    cr_assert_eq(vb[1], -50);             /* -99 * 0.5 = -49.5: ties to even */
    cr_assert_eq(vb[3], -97);             /* column 3: scale 1.0 */
    cr_assert_eq(vb[15 * 16 + 15], 78);   /* 155 * 0.5 = 77.5 -> 78 */
    data_array_free(&v);
    prog_unload(&p);
    words[2] = -2.0f;
    prog_load(&p, text, TARGET_A5);
    prog_bind_tile(&p, "a", DT_F32, 16, 16, acc);
    prog_bind_tile(&p, "q", DT_F32, 1, 16, words);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "value in column 2 to convert to a uint64 quantisation word") &&
                  strstr(prog_diags(&p), "[TMOV.fp-word]"), "%s", prog_diags(&p));
    prog_unload(&p);
}
