/* test_argreduce.c - TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN end to end, with values worked
 * out by hand from the simulator's TReduceIdx.hpp: the first strict extreme wins (ties keep the
 * lowest index, +0 and -0 tie), a NaN wins only at index 0, i32 and ui32 index tiles. */
#include "prog.h"

#include "kernels.h"

#include <math.h>

/* Runs `op` on src (its type `st`, valid rows x cols of `data`) into dst (`dt`) and checks the n indexes. */
static void check(const char *op, const char *st, const char *dt, Target target, DType sdt, int64_t rows,
                  int64_t cols, const void *data, const uint32_t *want, int n) {
    char text[1024];
    snprintf(text, sizeof text,
             "%%src = pto.alloc_tile : %s\n%%tmp = pto.alloc_tile : %s\n%%dst = pto.alloc_tile : %s\n"
             "pto.%s ins(%%src, %%tmp : %s, %s) outs(%%dst : %s)\n",
             st, st, dt, op, st, st, dt);
    Prog p;
    prog_load(&p, text, target);
    prog_bind_tile(&p, "src", sdt, rows, cols, data);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "dst");
    cr_assert_eq(d.count, n, "%s: %lld indexes", op, (long long)d.count);
    for (int i = 0; i < n; i++)
        cr_assert_eq(((const uint32_t *)d.data)[i], want[i], "%s: index %d: got %u want %u", op, i,
                     ((const uint32_t *)d.data)[i], want[i]);
    data_array_free(&d);
    prog_unload(&p);
}

#define SRC_F32 "!pto.tile_buf<vec, 8x8xf32, valid=4x8>"
#define DST_DN "!pto.tile_buf<vec, 8x1xi32, valid=4x1, blayout=col_major>"
#define DST_ND_U "!pto.tile_buf<vec, 8x8xui32, valid=4x1>"

static const float rows_f32[4][8] = {
    {NAN, 1, 5, 5, -2, 0, 3, 5},               /* NaN first: it wins both ways */
    {1, NAN, 5, 2, 5, -3, -3, 0},              /* a later NaN is ignored; ties keep the first */
    {-0.0f, 0.0f, -0.0f, 0.0f, 0, 0, -0.0f, 0}, /* +0 and -0 tie */
    {1, INFINITY, 2, INFINITY, -INFINITY, 3, -INFINITY, 1},
};

Test(argreduce, row_forms_first_strict_extreme_nan_only_first) {
    static const uint32_t max[4] = {0, 2, 0, 1}, min[4] = {0, 5, 0, 4};
    check("trowargmax", SRC_F32, DST_DN, TARGET_A2A3, DT_F32, 4, 8, rows_f32, max, 4);
    check("trowargmin", SRC_F32, DST_ND_U, TARGET_A5, DT_F32, 4, 8, rows_f32, min, 4);
}

Test(argreduce, column_forms_first_strict_extreme_nan_only_first) {
    /* the transpose: column j of an 8x16 f16 tile (valid 8x4) is row j above */
    uint16_t h[8][4];
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 4; c++) h[r][c] = fp_f32_to_f16(rows_f32[c][r]);
    static const uint32_t max[4] = {0, 2, 0, 1}, min[4] = {0, 5, 0, 4};
    check("tcolargmax", "!pto.tile_buf<vec, 8x16xf16, valid=8x4>", "!pto.tile_buf<vec, 1x8xi32, valid=1x4>", TARGET_A2A3,
          DT_F16, 8, 4, h, max, 4);
    check("tcolargmin", "!pto.tile_buf<vec, 8x16xf16, valid=8x4>", "!pto.tile_buf<vec, 1x8xui32, valid=1x4>", TARGET_A5,
          DT_F16, 8, 4, h, min, 4);
}

Test(argreduce, integer_ties_and_unsigned_order) {
    static const int16_t s[2][8] = {{3, -7, 9, 9, -7, 1, 9, -7}, {-32768, 32767, -32768, 32767, 0, 0, 0, 0}};
    static const uint32_t smax[2] = {2, 1}, smin[2] = {1, 0};
    check("trowargmax", "!pto.tile_buf<vec, 8x16xi16, valid=2x8>", "!pto.tile_buf<vec, 8x1xi32, valid=2x1, blayout=col_major>",
          TARGET_A2A3, DT_I16, 2, 8, s, smax, 2);
    check("trowargmin", "!pto.tile_buf<vec, 8x16xi16, valid=2x8>", "!pto.tile_buf<vec, 8x1xi32, valid=2x1, blayout=col_major>",
          TARGET_A2A3, DT_I16, 2, 8, s, smin, 2);
    static const uint32_t u[1][8] = {{5, 0x80000000u, 7, 0xffffffffu, 0, 0xffffffffu, 0, 5}};
    static const uint32_t umax[1] = {3}, umin[1] = {4};
    check("trowargmax", "!pto.tile_buf<vec, 8x8xui32, valid=1x8>", "!pto.tile_buf<vec, 8x1xui32, valid=1x1, blayout=col_major>",
          TARGET_A5, DT_U32, 1, 8, u, umax, 1);
    check("trowargmin", "!pto.tile_buf<vec, 8x8xui32, valid=1x8>", "!pto.tile_buf<vec, 8x1xui32, valid=1x1, blayout=col_major>",
          TARGET_A5, DT_U32, 1, 8, u, umin, 1);
}

Test(argreduce, wide_columns_cross_the_kernel_chunk) {
    enum { R = 3, C = 2500 };
    static float s[R][C];
    static uint32_t max[C], min[C];
    for (int c = 0; c < C; c++) {
        int hi = c % 3, lo = (c / 3) % 3;
        for (int r = 0; r < R; r++) s[r][c] = 0;
        s[hi][c] = 2;
        if (lo != hi) s[lo][c] = -1;
        max[c] = (uint32_t)hi;
        min[c] = lo != hi ? (uint32_t)lo : (hi == 0 ? 1u : 0u);
    }
    check("tcolargmax", "!pto.tile_buf<vec, 3x2504xf32, valid=3x2500>", "!pto.tile_buf<vec, 1x2504xi32, valid=1x2500>",
          TARGET_A2A3, DT_F32, R, C, s, max, C);
    check("tcolargmin", "!pto.tile_buf<vec, 3x2504xf32, valid=3x2500>", "!pto.tile_buf<vec, 1x2504xi32, valid=1x2500>",
          TARGET_A2A3, DT_F32, R, C, s, min, C);
}

Test(argreduce, zero_valid_cols_at_run_time_still_write_index_0) {
    Prog p;
    prog_load(&p,
              "%c0 = arith.constant 0 : index\n%c3 = arith.constant 3 : index\n%k = arith.constant 7 : i32\n"
              "%s = pto.alloc_tile valid_row = %c3 valid_col = %c0 : !pto.tile_buf<vec, 4x8xf32, valid=?x?>\n"
              "%tmp = pto.alloc_tile valid_row = %c3 valid_col = %c0 : !pto.tile_buf<vec, 4x8xf32, valid=?x?>\n"
              "%d = pto.alloc_tile : !pto.tile_buf<vec, 8x1xi32, valid=3x1, blayout=col_major>\n"
              "pto.texpands ins(%k : i32) outs(%d : !pto.tile_buf<vec, 8x1xi32, valid=3x1, blayout=col_major>)\n"
              "pto.trowargmin ins(%s, %tmp : !pto.tile_buf<vec, 4x8xf32, valid=?x?>, !pto.tile_buf<vec, 4x8xf32, valid=?x?>) "
              "outs(%d : !pto.tile_buf<vec, 8x1xi32, valid=3x1, blayout=col_major>)\n",
              TARGET_A2A3);
    cr_assert(prog_run(&p), "%s", prog_diags(&p));
    DataArray d = prog_fetch(&p, "d");
    cr_assert_eq(d.count, 3);
    for (int i = 0; i < 3; i++) cr_assert_eq(((const int32_t *)d.data)[i], 0, "row %d", i);
    data_array_free(&d);
    prog_unload(&p);
}
