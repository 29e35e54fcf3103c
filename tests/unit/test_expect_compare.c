/* test_expect_compare.c - --expect comparison modes (interp/compare.c): pto-isa's ResultCmp
 * (isa), the report's statistics and indices, and printing regions in other formats. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* got/want as f32 arrays of `rows` x `cols` (cols < 0: 1-D). */
static void f32_pair(DataArray *g, DataArray *w, const float *got, const float *want, int64_t rows, int64_t cols) {
    char err[256];
    cr_assert(data_array_alloc(g, DT_F32, rows, cols, err, sizeof err));
    cr_assert(data_array_alloc(w, DT_F32, rows, cols, err, sizeof err));
    memcpy(g->data, got, (size_t)g->count * 4);
    memcpy(w->data, want, (size_t)w->count * 4);
}

static CompareResult check(const float *got, const float *want, int64_t n, const CompareOptions *o) {
    DataArray g, w;
    CompareResult r;
    char err[256];
    f32_pair(&g, &w, got, want, n, -1);
    cr_assert(data_array_check(&g, &w, o, &r, err, sizeof err), "%s", err);
    data_array_free(&g);
    data_array_free(&w);
    return r;
}

Test(isa_compare, element_fails_only_when_both_differences_exceed_eps) {
    CompareOptions o = {.isa = true, .eps = 1e-3, .eps_given = true, .frac = 1.0, .frac_given = true};
    /* abs 0.002 and rel 0.002: fails; abs 0.5 but rel 5e-4: passes; abs 1e-4 (rel 1): passes */
    float want[3] = {1.0f, 1000.0f, 1e-4f}, got[3] = {1.002f, 1000.5f, 2e-4f};
    CompareResult r = check(got, want, 3, &o);
    cr_assert_eq(r.mismatches, 1);
    cr_assert(r.passed); /* frac 1: every element may fail */
    cr_assert_eq(r.max_abs_at, 1);
    cr_assert_eq(r.max_rel_at, 2);
    cr_assert_float_eq(r.max_rel, 1.0, 1e-6);
}

Test(isa_compare, comparisons_are_strict) {
    CompareOptions o = {.isa = true, .eps = 0.5, .eps_given = true, .frac = 0, .frac_given = true};
    float want[1] = {1.0f}, got[1] = {1.5f}; /* diff 0.5, ratio 0.5: not greater than eps */
    cr_assert(check(got, want, 1, &o).passed);
    got[0] = 1.5000001f;
    CompareResult r = check(got, want, 1, &o);
    cr_assert_eq(r.mismatches, 1);
    cr_assert_not(r.passed);
}

Test(isa_compare, nan_and_zero_expected_values) {
    CompareOptions o = {.isa = true, .eps = 1e-3, .eps_given = true, .frac = 1.0, .frac_given = true};
    /* 0 vs 0: ratio NaN, never exceeds; NaN vs NaN passes; NaN vs 1 fails either way round;
     * Inf expected vs 1: diff Inf but ratio Inf/Inf = NaN, so ResultCmp lets it pass */
    float want[5] = {0.0f, NAN, NAN, 1.0f, INFINITY}, got[5] = {0.0f, NAN, 1.0f, NAN, 1.0f};
    CompareResult r = check(got, want, 5, &o);
    cr_assert_eq(r.mismatches, 2);
    /* 0 expected, 1 got: ratio Inf > eps and diff 1 > eps: fails */
    float w2[1] = {0.0f}, g2[1] = {1.0f};
    cr_assert_eq(check(g2, w2, 1, &o).mismatches, 1);
}

Test(isa_compare, failing_fraction_limit_defaults_to_eps) {
    enum { N = 2000 };
    static float want[N], got[N];
    for (int i = 0; i < N; i++) want[i] = got[i] = (float)i + 1.0f;
    CompareOptions o = {.isa = true, .eps = 1e-3, .eps_given = true};
    got[5] = 100000.0f;
    got[7] = 100000.0f;
    CompareResult r = check(got, want, N, &o);
    cr_assert_eq(r.limit, 2); /* floor(2000 * 0.001) */
    cr_assert_eq(r.mismatches, 2);
    cr_assert(r.passed, "2 failing elements are allowed");
    got[9] = 100000.0f;
    r = check(got, want, N, &o);
    cr_assert_eq(r.mismatches, 3);
    cr_assert_not(r.passed);
    o.frac = 0.002, o.frac_given = true; /* 4 allowed */
    cr_assert(check(got, want, N, &o).passed);
}

Test(isa_compare, too_many_zero_results_fail_the_rest) {
    /* eps 10: no element fails on its differences; results 0 where 1 is expected count as zeros,
     * and each element after the count passed zeros= fails (ResultCmp's running zeroCount) */
    float want[5] = {1, 1, 1, 1, 1}, got[5] = {0, 0, 0, 1, 1};
    CompareOptions o = {.isa = true, .eps = 10, .eps_given = true, .frac = 1, .frac_given = true,
                        .zero_limit = 2, .zero_limit_given = true};
    CompareResult r = check(got, want, 5, &o);
    cr_assert_eq(r.zeros, 3);
    cr_assert_eq(r.mismatches, 3); /* elements 2, 3 and 4 */
    cr_assert_not(r.passed);
    o.zero_limit = 3;
    r = check(got, want, 5, &o);
    cr_assert_eq(r.mismatches, 0);
    cr_assert(r.passed);
}

Test(isa_compare, integers_are_compared_as_float) {
    DataArray g, w;
    char err[256];
    cr_assert(data_array_alloc(&g, DT_I32, 2, -1, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_I32, 2, -1, err, sizeof err));
    int32_t gv[2] = {100, 16777217}, wv[2] = {101, 16777216}; /* 2^24 + 1 rounds to 2^24 in float */
    memcpy(g.data, gv, 8);
    memcpy(w.data, wv, 8);
    CompareOptions o = {.isa = true, .eps = 1e-3, .eps_given = true, .frac = 1, .frac_given = true};
    CompareResult r;
    cr_assert(data_array_check(&g, &w, &o, &r, err, sizeof err));
    cr_assert_eq(r.mismatches, 1);
    cr_assert_eq(r.max_abs_at, 0);
    data_array_free(&g);
    data_array_free(&w);
}

static char *report(const DataArray *g, const DataArray *w, const CompareOptions *o, bool json) {
    CompareResult r;
    char err[256];
    cr_assert(data_array_check(g, w, o, &r, err, sizeof err));
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (json) compare_print_json(out, "%x", "x.bin", g, w, o, &r);
    else compare_print_text(out, "%x", g, w, o, &r);
    fclose(out);
    return buf;
}

Test(expect_report, indices_fraction_and_failing_rows_and_cols) {
    float want[24], got[24];
    for (int i = 0; i < 24; i++) want[i] = got[i] = (float)i;
    got[7] = 70.0f;   /* (1, 1) of 4x6 */
    got[9] = 9.5f;    /* (1, 3) */
    got[20] = 21.0f;  /* (3, 2) */
    DataArray g, w;
    f32_pair(&g, &w, got, want, 4, 6);
    CompareOptions o = {.max_report = 2};
    char *text = report(&g, &w, &o, false);
    cr_assert_not_null(strstr(text, "%x: 24 elements, 3 mismatches (12.5%), max abs err 63 at (1, 1), max rel err 9 at (1, 1)"), "%s", text);
    cr_assert_not_null(strstr(text, "  mismatch at (1, 1): got 70, want 7 (abs err 63, rel err 9)\n"), "%s", text);
    cr_assert_not_null(strstr(text, "  mismatch at (1, 3): got 9.5, want 9"), "%s", text);
    cr_assert_null(strstr(text, "mismatch at (3, 2)"), "--show 2 lists two: %s", text);
    cr_assert_not_null(strstr(text, "  ... 1 more mismatch\n"), "%s", text);
    cr_assert_not_null(strstr(text, "  failing rows: 1, 3 (2 of 4); cols: 1-3 (3 of 6)\n"), "%s", text);
    cr_assert_not_null(strstr(text, "    ......\n    .#.#..\n    ......\n    ..#...\n"), "%s", text);
    free(text);
    text = report(&g, &w, &o, true);
    cr_assert_not_null(strstr(text, "\"mode\": \"allclose\", \"passed\": false, \"elements\": 24, \"mismatches\": 3"), "%s", text);
    cr_assert_not_null(strstr(text, "\"max_abs_err\": 63, \"max_abs_at\": [1, 1]"), "%s", text);
    cr_assert_not_null(strstr(text, "\"first_mismatches\": [{\"at\": [1, 1], \"got\": \"70\", \"want\": \"7\""), "%s", text);
    free(text);
    o.max_report = -1; /* --show 0 */
    text = report(&g, &w, &o, false);
    cr_assert_null(strstr(text, "mismatch at"), "%s", text);
    cr_assert_not_null(strstr(text, "  ... 3 more mismatches\n"), "%s", text);
    free(text);
    data_array_free(&g);
    data_array_free(&w);
}

Test(expect_report, isa_summary_names_the_verdict) {
    float want[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, 5.5f};
    DataArray g, w;
    f32_pair(&g, &w, got, want, 4, -1);
    CompareOptions o = {.isa = true, .eps = 0.25, .eps_given = true};
    char *text = report(&g, &w, &o, false);
    cr_assert_not_null(strstr(text, "1 mismatch (25%), max abs err 1.5 at [3], max rel err 0.375 at [3] (isa eps 0.25, frac 0.25: at most 1 may fail): pass\n"), "%s", text);
    cr_assert_not_null(strstr(text, "  failing elements: 3 (1 of 4)\n"), "%s", text);
    free(text);
    data_array_free(&g);
    data_array_free(&w);
}

Test(print_region, formats_and_region) {
    DataArray a;
    char err[256];
    cr_assert(data_array_alloc(&a, DT_F32, 3, 4, err, sizeof err));
    float v[12] = {0, 1, 2, 3, 4, 0.1f, 6, 7, 8, 9, -10, 11};
    memcpy(a.data, v, sizeof v);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    PrintRegion r = {1, 3, 1, 3};
    cr_assert(data_array_print_region(out, "t", &a, PRINT_G, &r, err, sizeof err));
    cr_assert(data_array_print_region(out, "h", &a, PRINT_HEX, &(PrintRegion){2, -1, 2, 3}, err, sizeof err));
    cr_assert(data_array_print_region(out, "a", &a, PRINT_A, &(PrintRegion){1, 2, 1, 2}, err, sizeof err));
    cr_assert_not(data_array_print_region(out, "x", &a, PRINT_G, &(PrintRegion){0, 4, 0, 1}, err, sizeof err));
    fclose(out);
    cr_assert_str_eq(buf, "t\n         0.1            6\n           9          -10\n"
                          "h\n  0xc1200000\n"
                          "a\n0x1.99999ap-4\n");
    cr_assert_not_null(strstr(err, "outside the 3x4 data"), "%s", err);
    free(buf);
    data_array_free(&a);
}
