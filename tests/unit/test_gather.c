/* test_gather.c - TGATHER (index and mask forms), TGATHERB, TSCATTER, TQUANT and TDEQUANT end to
 * end: values worked out by hand from the simulator's C++ (TGather.hpp, TGatherB.hpp,
 * TScatter.hpp, TQuant.hpp, TDeQuant.hpp), out-of-range indices, valid sub-regions, rounding
 * ties and clamps, and the forms pto-run refuses. */
#include "prog.h"

#include <math.h>

static float f32_at(const DataArray *a, int64_t i) { return ((const float *)a->data)[i]; }

#define F28 "!pto.tile_buf<vec, 2x8xf32>"
#define I28 "!pto.tile_buf<vec, 2x8xi32>"

/* ---- TGATHER index form ---------------------------------------------------------------------- */

Test(gather, index_form_reads_src_physically_and_zeroes_out_of_range) {
    Prog p;
    /* src is addressed over its physical 2x8: index 12 is row 1, col 4 */
    prog_load(&p,
              "%idx = pto.alloc_tile : " I28 "\n"
              "%tmp = pto.alloc_tile : " I28 "\n"
              "%dst = pto.alloc_tile : " F28 "\n"
              "pto.texpands ins(7.0 : f32) outs(%dst : " F28 ")\n"
              "%full = pto.alloc_tile : " F28 "\n"
              "pto.tgather ins(%full, %idx, %tmp : " F28 ", " I28 ", " I28 ") outs(%dst : " F28 ")\n",
              TARGET_A2A3);
    float src[16];
    for (int i = 0; i < 16; i++) src[i] = 100.0f + (float)i;
    int32_t idx[16] = {0, 15, 3, 12, -1, 16, 1000, 7, 8, 9, 10, 11, 1, 2, 3, 2147483647};
    prog_bind_tile(&p, "full", DT_F32, 2, 8, src);
    prog_bind_tile(&p, "idx", DT_I32, 2, 8, idx);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    for (int i = 0; i < 16; i++) {
        float want = idx[i] < 0 || idx[i] >= 16 ? 0.0f : src[idx[i]];
        cr_assert_eq(f32_at(&d, i), want, "element %d: got %g want %g", i, f32_at(&d, i), want);
    }
    data_array_free(&d);
    prog_unload(&p);
}

Test(gather, index_form_writes_only_dst_valid_rows) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : " F28 "\n"
              "%idx = pto.alloc_tile : " I28 "\n"
              "%tmp = pto.alloc_tile : " I28 "\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32, valid=1x8>\n"
              "pto.tgather ins(%src, %idx, %tmp : " F28 ", " I28 ", " I28 ") outs(%dst : !pto.tile_buf<vec, 2x8xf32, valid=1x8>)\n",
              TARGET_A5);
    float src[16];
    for (int i = 0; i < 16; i++) src[i] = (float)i;
    int32_t idx[16];
    for (int i = 0; i < 16; i++) idx[i] = 15 - i;
    prog_bind_tile(&p, "src", DT_F32, 2, 8, src);
    prog_bind_tile(&p, "idx", DT_I32, 2, 8, idx);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    cr_assert_eq(d.count, 8);
    for (int i = 0; i < 8; i++) cr_assert_eq(f32_at(&d, i), (float)(15 - i));
    data_array_free(&d);
    prog_unload(&p);
}

/* ---- TGATHER mask form ----------------------------------------------------------------------- */

static const char *const patterns[7] = {"P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};

Test(gather, mask_form_packs_selected_columns_of_valid_rows_from_dst_start) {
    for (int k = 0; k < 7; k++) {
        /* src 4x8 with valid 3x6: every pattern's columns of rows 0..2, cols 0..5, packed */
        char text[2048];
        snprintf(text, sizeof text,
                 "%%src = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32, valid=3x6>\n"
                 "%%dst = pto.alloc_tile : !pto.tile_buf<vec, 3x8xf32>\n"
                 "pto.texpands ins(-1.0 : f32) outs(%%dst : !pto.tile_buf<vec, 3x8xf32>)\n"
                 "pto.tgather ins(%%src, {maskPattern = #pto.mask_pattern<%s>} : !pto.tile_buf<vec, 4x8xf32, valid=3x6>) "
                 "outs(%%dst : !pto.tile_buf<vec, 3x8xf32>)\n",
                 patterns[k]);
        Prog p;
        prog_load(&p, text, k % 2 ? TARGET_A5 : TARGET_A2A3);
        float src[18];
        for (int i = 0; i < 18; i++) src[i] = (float)((i / 6) * 10 + i % 6);
        prog_bind_tile(&p, "src", DT_F32, 3, 6, src);
        cr_assert(prog_run(&p), "%s: %s", patterns[k], prog_diags(&p));
        DataArray d = prog_fetch(&p, "dst");
        int n = 0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 6; c++) {
                bool sel = k == 0 ? c % 2 == 0 : k == 1 ? c % 2 == 1 : k == 6 ? true : c % 4 == k - 2;
                if (sel) {
                    cr_assert_eq(f32_at(&d, n), (float)(r * 10 + c), "%s: element %d", patterns[k], n);
                    n++;
                }
            }
        for (int i = n; i < 24; i++) cr_assert_eq(f32_at(&d, i), -1.0f, "%s: element %d is past the stream", patterns[k], i);
        data_array_free(&d);
        prog_unload(&p);
    }
}

Test(gather, mask_form_bit_copies_and_overflow_is_a_run_time_error) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi16>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 1x16xi16>\n"
              "pto.tgather ins(%src, {maskPattern = #pto.mask_pattern<P0101>} : !pto.tile_buf<vec, 4x16xi16>) "
              "outs(%dst : !pto.tile_buf<vec, 1x16xi16>)\n",
              TARGET_A2A3);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "writes 32 selected elements (4 valid rows x 8) into dst, which holds 16"), "%s",
              prog_diags(&p));
    prog_unload(&p);
}

Test(gather, compare_form_verifies_but_has_no_reference_semantics) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 1x32xf16>\n"
              "%tmp = pto.alloc_tile : !pto.tile_buf<vec, 1x32xui8>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<vec, 1x32xi32>\n"
              "%cd = pto.alloc_tile : !pto.tile_buf<vec, 1x32xi32>\n"
              "%k = arith.constant 1.0 : f16\n"
              "pto.tgather ins(%src, %k, %tmp : !pto.tile_buf<vec, 1x32xf16>, f16, !pto.tile_buf<vec, 1x32xui8>) "
              "outs(%d, %cd : !pto.tile_buf<vec, 1x32xi32>, !pto.tile_buf<vec, 1x32xi32>) {cmpMode = #pto<cmp gt>}\n",
              TARGET_A2A3);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "has no reference semantics"), "%s", prog_diags(&p));
    prog_unload(&p);
}

/* ---- TGATHERB -------------------------------------------------------------------------------- */

Test(gather, tgatherb_copies_32_byte_blocks_and_skips_blocks_past_src) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>\n"
              "%off = pto.alloc_tile : " I28 "\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 2x16xf32>\n"
              "pto.texpands ins(-1.0 : f32) outs(%dst : !pto.tile_buf<vec, 2x16xf32>)\n"
              "pto.tgatherb ins(%src, %off : !pto.tile_buf<vec, 4x8xf32>, " I28 ") outs(%dst : !pto.tile_buf<vec, 2x16xf32>)\n",
              TARGET_A2A3);
    float src[32];
    for (int i = 0; i < 32; i++) src[i] = (float)i;
    /* row 0: bytes 32 and 4 (unaligned); row 1: byte 96, and 100 (ends past 128: skipped) */
    int32_t off[16] = {32, 4, 0, 0, 0, 0, 0, 0, 96, 100, 0, 0, 0, 0, 0, 0};
    prog_bind_tile(&p, "src", DT_F32, 4, 8, src);
    prog_bind_tile(&p, "off", DT_I32, 2, 8, off);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(f32_at(&d, i), (float)(8 + i));
        cr_assert_eq(f32_at(&d, 8 + i), (float)(1 + i));
        cr_assert_eq(f32_at(&d, 16 + i), (float)(24 + i));
        cr_assert_eq(f32_at(&d, 24 + i), -1.0f);
    }
    data_array_free(&d);
    prog_unload(&p);
}

/* ---- TSCATTER -------------------------------------------------------------------------------- */

Test(gather, tscatter_writes_flat_offsets_and_keeps_the_rest) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : " F28 "\n"
              "%idx = pto.alloc_tile : !pto.tile_buf<vec, 2x8xi32, valid=1x8>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>\n"
              "pto.texpands ins(-1.0 : f32) outs(%dst : !pto.tile_buf<vec, 4x8xf32>)\n"
              "pto.tscatter ins(%src, %idx : " F28 ", !pto.tile_buf<vec, 2x8xi32, valid=1x8>) outs(%dst : !pto.tile_buf<vec, 4x8xf32>)\n",
              TARGET_A2A3);
    float src[16];
    for (int i = 0; i < 16; i++) src[i] = (float)(i + 1);
    int32_t idx[8] = {31, 0, 8, 9, 17, 17, 4, 30};
    prog_bind_tile(&p, "src", DT_F32, 2, 8, src);
    prog_bind_tile(&p, "idx", DT_I32, 1, 8, idx);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    float want[32];
    for (int i = 0; i < 32; i++) want[i] = -1.0f;
    for (int j = 0; j < 8; j++) want[idx[j]] = src[j]; /* in order: the later of two equal indices wins */
    for (int i = 0; i < 32; i++) cr_assert_eq(f32_at(&d, i), want[i], "element %d", i);
    data_array_free(&d);
    prog_unload(&p);
}

Test(gather, tscatter_out_of_range_index_is_a_run_time_error_with_its_position) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 2x16xf16>\n"
              "%idx = pto.alloc_tile : !pto.tile_buf<vec, 2x16xi16>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 2x16xf16>\n"
              "pto.tscatter ins(%src, %idx : !pto.tile_buf<vec, 2x16xf16>, !pto.tile_buf<vec, 2x16xi16>) "
              "outs(%dst : !pto.tile_buf<vec, 2x16xf16>)\n",
              TARGET_A5);
    int16_t idx[32] = {0};
    idx[16 + 5] = -1; /* static_cast<unsigned>(-1): far outside */
    prog_bind_tile(&p, "idx", DT_I16, 2, 16, idx);
    cr_assert_not(prog_run(&p));
    cr_assert(strstr(prog_diags(&p), "index -1 at indexes (1, 5) is outside dst's 32 elements (2x16)"), "%s", prog_diags(&p));
    prog_unload(&p);
}

/* ---- TQUANT / TDEQUANT ------------------------------------------------------------------------ */

Test(gather, tquant_sym_rounds_ties_to_even_and_clamps) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 3x16xf32>\n"
              "%fp = pto.alloc_tile : !pto.tile_buf<vec, 3x8xf32, valid=2x1>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 3x32xi8>\n"
              "pto.tquant ins(%src, %fp : !pto.tile_buf<vec, 3x16xf32>, !pto.tile_buf<vec, 3x8xf32, valid=2x1>) "
              "outs(%dst : !pto.tile_buf<vec, 3x32xi8>) {quant_type = #pto<quant_type INT8_SYM>}\n",
              TARGET_A2A3);
    float src[48] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 127.5f, 126.5f, -128.5f, -127.5f, 300.0f, -300.0f,
                     NAN, INFINITY, -INFINITY, 3.4999998f};
    for (int c = 0; c < 16; c++) {
        src[16 + c] = (float)c;
        src[32 + c] = (float)(2 * c + 1);
    }
    float fp[2] = {1.0f, 0.5f}; /* row 2 uses row min(2, 1) = 1 */
    prog_bind_tile(&p, "src", DT_F32, 3, 16, src);
    prog_bind_tile(&p, "fp", DT_F32, 2, 1, fp);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    const int8_t *o = d.data;
    int8_t want0[16] = {0, 2, 2, 0, -2, -2, 127, 126, -128, -128, 127, -128, 0, 127, -128, 3};
    for (int c = 0; c < 16; c++) cr_assert_eq(o[c], want0[c], "col %d: %d", c, o[c]);
    int8_t want1[16] = {0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7, 8};
    for (int c = 0; c < 16; c++) cr_assert_eq(o[32 + c], want1[c], "row 1 col %d: %d", c, o[32 + c]);
    for (int c = 0; c < 16; c++) cr_assert_eq(o[64 + c], c % 2 ? c + 1 : c, "row 2 col %d: %d", c, o[64 + c]);
    for (int c = 16; c < 32; c++) cr_assert_eq(o[c], 0, "col %d outside src's valid region", c);
    data_array_free(&d);
    prog_unload(&p);
}

Test(gather, tquant_asym_adds_the_zero_point_then_rounds_and_clamps) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>\n"
              "%fp = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32, valid=2x1>\n"
              "%off = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32, valid=2x1>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 2x32xui8>\n"
              "pto.tquant ins(%src, %fp, %off : !pto.tile_buf<vec, 2x8xf32>, !pto.tile_buf<vec, 2x8xf32, valid=2x1>, "
              "!pto.tile_buf<vec, 2x8xf32, valid=2x1>) outs(%dst : !pto.tile_buf<vec, 2x32xui8>) "
              "{quant_type = #pto<quant_type INT8_ASYM>}\n",
              TARGET_A5);
    float src[16] = {0.5f, 1.5f, -1.0f, 200.0f, 127.5f, 0.0f, -0.75f, 2.5f, 1, 2, 3, 4, 5, 6, 7, 8};
    float fp[2] = {1.0f, 100.0f}, off[2] = {0.0f, 128.5f};
    prog_bind_tile(&p, "src", DT_F32, 2, 8, src);
    prog_bind_tile(&p, "fp", DT_F32, 2, 1, fp);
    prog_bind_tile(&p, "off", DT_F32, 2, 1, off);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    const uint8_t *o = d.data;
    uint8_t want0[8] = {0, 2, 0, 200, 128, 0, 0, 2};
    for (int c = 0; c < 8; c++) cr_assert_eq(o[c], want0[c], "col %d: %d", c, o[c]);
    /* row 1: x * 100 + 128.5: 228.5 is a tie (to 228), the rest clamp at 255 */
    for (int c = 0; c < 8; c++) cr_assert_eq(o[32 + c], c ? 255 : 228, "row 1 col %d: %d", c, o[32 + c]);
    data_array_free(&d);
    prog_unload(&p);
}

Test(gather, tdequant_takes_the_parameter_at_min_of_col_and_last_valid_col) {
    Prog p;
    prog_load(&p,
              "%src = pto.alloc_tile : !pto.tile_buf<vec, 2x32xi8>\n"
              "%sc = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32, valid=2x2>\n"
              "%off = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32, valid=2x2>\n"
              "%dst = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>\n"
              "pto.tdequant ins(%src, %sc, %off : !pto.tile_buf<vec, 2x32xi8>, !pto.tile_buf<vec, 2x8xf32, valid=2x2>, "
              "!pto.tile_buf<vec, 2x8xf32, valid=2x2>) outs(%dst : !pto.tile_buf<vec, 2x8xf32>)\n",
              TARGET_A2A3);
    int8_t src[64];
    for (int i = 0; i < 64; i++) src[i] = (int8_t)(i % 32 - 4 - 100 * (i / 32));
    float sc[4] = {0.5f, 2.0f, 0.1f, 3.0f}, off[4] = {1.0f, -1.0f, 0.5f, 0.0f};
    prog_bind_tile(&p, "src", DT_I8, 2, 32, src);
    prog_bind_tile(&p, "sc", DT_F32, 2, 2, sc);
    prog_bind_tile(&p, "off", DT_F32, 2, 2, off);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 8; c++) {
            int pc = c < 1 ? c : 1;
            float x = (float)src[r * 32 + c];
            float want = (x - off[r * 2 + pc]) * sc[r * 2 + pc];
            cr_assert_eq(f32_at(&d, r * 8 + c), want, "(%d, %d)", r, c);
        }
    data_array_free(&d);
    prog_unload(&p);
}

Test(gather, tquant_mx_types_are_rejected_as_not_supported_yet) {
    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags, arena);
    const char *text = "%src = pto.alloc_tile : !pto.tile_buf<vec, 1x32xf32>\n"
                       "%fp = pto.alloc_tile : !pto.tile_buf<vec, 1x32xf32>\n"
                       "%dst = pto.alloc_tile : !pto.tile_buf<vec, 1x32xi8>\n"
                       "pto.tquant ins(%src, %fp : !pto.tile_buf<vec, 1x32xf32>, !pto.tile_buf<vec, 1x32xf32>) "
                       "outs(%dst : !pto.tile_buf<vec, 1x32xi8>) {quant_type = #pto<quant_type MXFP8>}\n";
    SourceFile *file = source_file_from_string(arena, "t.pto", text, strlen(text));
    Module *m = parse_module(arena, file, &diags);
    cr_assert(m && diags.errors == 0);
    VerifyOptions v = {.target = TARGET_A5, .target_given = true};
    cr_assert_not(verify_module(m, &v, &diags));
    char buf[2048];
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    diag_print_text(f, &diags);
    fclose(f);
    cr_assert(strstr(buf, "quant_type MXFP8 is not supported yet") && strstr(buf, "[TQUANT.mx]"), "%s", buf);
    arena_free(arena);
}

/* The shapes of the ISA's CPU tests case1_float_P0101 / case1_float_P1111: a (4+5)x(64+32) src tile
 * with valid 4x64, a 4x64 dst; the golden is the selected columns of the 4 rows, flattened. */
Test(gather, isa_shapes_case1_float_p0101_and_p1111) {
    for (int k = 0; k < 2; k++) {
        const char *pat = k ? "P1111" : "P0101";
        char text[1024];
        snprintf(text, sizeof text,
                 "%%src = pto.alloc_tile : !pto.tile_buf<vec, 9x96xf32, valid=4x64>\n"
                 "%%dst = pto.alloc_tile : !pto.tile_buf<vec, 4x64xf32>\n"
                 "pto.tgather ins(%%src, {maskPattern = #pto.mask_pattern<%s>} : !pto.tile_buf<vec, 9x96xf32, valid=4x64>) "
                 "outs(%%dst : !pto.tile_buf<vec, 4x64xf32>)\n",
                 pat);
        Prog p;
        prog_load(&p, text, TARGET_A2A3);
        float src[256];
        unsigned seed = 19;
        for (int i = 0; i < 256; i++) {
            seed = seed * 1103515245u + 12345u;
            src[i] = (float)(1 + (seed >> 16) % 99);
        }
        prog_bind_tile(&p, "src", DT_F32, 4, 64, src);
        cr_assert(prog_run(&p), "%s", prog_diags(&p));
        DataArray d = prog_fetch(&p, "dst");
        int n = 0;
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 64; c += k ? 1 : 2, n++) cr_assert_eq(f32_at(&d, n), src[r * 64 + c], "%s element %d", pat, n);
        for (; n < 256; n++) cr_assert_eq(f32_at(&d, n), 0.0f);
        data_array_free(&d);
        prog_unload(&p);
    }
}
