/* test_datafile.c - .bin / .npy reading and writing, dtype and size checks, corrupt headers, atomic
 * writes, --expect comparison and TPRINT-style printing. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels.h"

static char tmpdir[256];

static void make_tmpdir(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pto-datafile-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void) {
    DIR *d = opendir(tmpdir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(tmpdir);
}

TestSuite(datafile, .init = make_tmpdir, .fini = remove_tmpdir);

static const char *tmp_path(const char *name) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void write_bytes(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

static size_t read_bytes(const char *path, uint8_t *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* np.save(np.arange(6, dtype='<i2').reshape(2, 3)), verbatim */
static const char numpy_i16_2x3[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          \n"
    "\x00\x00\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00";

Test(datafile, reads_a_numpy_written_file) {
    const char *p = tmp_path("a.npy");
    write_bytes(p, numpy_i16_2x3, sizeof numpy_i16_2x3 - 1);
    DataArray a;
    char err[256] = "";
    cr_assert(datafile_read(p, DT_I16, &a, err, sizeof err), "%s", err);
    cr_assert_eq(a.rank, 2);
    cr_assert_eq(a.shape[0], 2);
    cr_assert_eq(a.shape[1], 3);
    cr_assert_eq(a.count, 6);
    for (int i = 0; i < 6; i++) cr_assert_eq(((int16_t *)a.data)[i], i);
    data_array_free(&a);
}

Test(datafile, npy_round_trip_and_header_layout) {
    DataArray a;
    char err[256] = "";
    cr_assert(data_array_alloc(&a, DT_F32, 2, 3, err, sizeof err));
    for (int i = 0; i < 6; i++) ((float *)a.data)[i] = (float)i * 1.5f - 2.0f;
    const char *p = tmp_path("rt.npy");
    cr_assert(datafile_write(p, &a, err, sizeof err), "%s", err);
    uint8_t buf[512];
    size_t n = read_bytes(p, buf, sizeof buf);
    cr_assert_eq(memcmp(buf, "\x93NUMPY\x01\x00", 8), 0);
    size_t hlen = buf[8] | (size_t)buf[9] << 8;
    cr_assert_eq((10 + hlen) % 64, 0);
    cr_assert_eq(buf[10 + hlen - 1], '\n');
    cr_assert_eq(n, 10 + hlen + 24);
    cr_assert_not_null(strstr((char *)buf + 10, "'descr': '<f4'"));
    cr_assert_not_null(strstr((char *)buf + 10, "'shape': (2, 3)"));
    DataArray b;
    cr_assert(datafile_read(p, DT_F32, &b, err, sizeof err), "%s", err);
    cr_assert_eq(b.count, 6);
    cr_assert_eq(memcmp(a.data, b.data, 24), 0);
    data_array_free(&a);
    data_array_free(&b);
}

Test(datafile, one_dimensional_shape_keeps_the_tuple_comma) {
    DataArray a;
    char err[256];
    cr_assert(data_array_alloc(&a, DT_U8, 5, -1, err, sizeof err));
    const char *p = tmp_path("u8.npy");
    cr_assert(datafile_write(p, &a, err, sizeof err), "%s", err);
    uint8_t buf[256];
    read_bytes(p, buf, sizeof buf);
    cr_assert_not_null(strstr((char *)buf + 10, "'descr': '|u1'"));
    cr_assert_not_null(strstr((char *)buf + 10, "'shape': (5,)"));
    data_array_free(&a);
}

Test(datafile, versions_2_and_3_are_read) {
    const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    for (int v = 2; v <= 3; v++) {
        uint8_t buf[256];
        size_t dl = strlen(dict);
        memcpy(buf, "\x93NUMPY", 6);
        buf[6] = (uint8_t)v;
        buf[7] = 0;
        uint32_t hl = (uint32_t)dl + 1;
        buf[8] = (uint8_t)hl;
        buf[9] = (uint8_t)(hl >> 8);
        buf[10] = buf[11] = 0;
        memcpy(buf + 12, dict, dl);
        buf[12 + dl] = '\n';
        float vals[2] = {1.5f, -2.25f};
        memcpy(buf + 13 + dl, vals, 8);
        const char *p = tmp_path("v.npy");
        write_bytes(p, buf, 13 + dl + 8);
        DataArray a;
        char err[256] = "";
        cr_assert(datafile_read(p, DT_F32, &a, err, sizeof err), "v%d: %s", v, err);
        cr_assert_float_eq(((float *)a.data)[1], -2.25f, 0.0f);
        data_array_free(&a);
    }
}

Test(datafile, dtype_mismatch_names_both_sides) {
    const char *p = tmp_path("i16.npy");
    write_bytes(p, numpy_i16_2x3, sizeof numpy_i16_2x3 - 1);
    DataArray a;
    char err[256] = "";
    cr_assert_not(datafile_read(p, DT_F32, &a, err, sizeof err));
    cr_assert_not_null(strstr(err, "'<i2'"), "%s", err);
    cr_assert_not_null(strstr(err, "f32"), "%s", err);
    cr_assert_not_null(strstr(err, "'<f4'"), "%s", err);
}

Test(datafile, bf16_travels_as_u2) {
    DataArray a;
    char err[256] = "";
    cr_assert(data_array_alloc(&a, DT_BF16, 1, 4, err, sizeof err));
    ((uint16_t *)a.data)[0] = 0x3F80;
    const char *p = tmp_path("bf.npy");
    cr_assert(datafile_write(p, &a, err, sizeof err));
    DataArray b;
    cr_assert(datafile_read(p, DT_BF16, &b, err, sizeof err), "%s", err);
    cr_assert_eq(((uint16_t *)b.data)[0], 0x3F80);
    data_array_free(&b);
    cr_assert_not(datafile_read(p, DT_F16, &b, err, sizeof err)); /* '<u2' is not f16's '<f2' */
    cr_assert_not_null(strstr(err, "'<f2'"), "%s", err);
    data_array_free(&a);
}

/* the fp8 types travel as raw bytes ('|u1', as bf16's '<u2'): every bit pattern, NaN encodings
 * included, comes back unchanged, in .npy and in .bin */
Test(datafile, f8_travels_as_u1) {
    const DType types[] = {DT_F8E4M3FN, DT_F8E4M3, DT_F8E5M2, DT_F8E8M0FNU, DT_F8E4M3FNUZ, DT_F8E4M3B11FNUZ, DT_F8E5M2FNUZ};
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        DataArray a;
        char err[256] = "";
        cr_assert(data_array_alloc(&a, types[t], 16, 16, err, sizeof err));
        for (int i = 0; i < 256; i++) ((uint8_t *)a.data)[i] = (uint8_t)i;
        cr_assert_str_eq(npy_descr_for(types[t]), "|u1");
        const char *names[] = {"f8.npy", "f8.bin"};
        for (int n = 0; n < 2; n++) {
            const char *p = tmp_path(names[n]);
            cr_assert(datafile_write(p, &a, err, sizeof err), "%s", err);
            DataArray b;
            cr_assert(datafile_read(p, types[t], &b, err, sizeof err), "%s", err);
            cr_assert_eq(b.count, 256);
            cr_assert_eq(memcmp(a.data, b.data, 256), 0, "%s of %s", names[n], dtype_name(types[t]));
            data_array_free(&b);
        }
        DataArray c;
        cr_assert_not(datafile_read(tmp_path("f8.npy"), DT_I8, &c, err, sizeof err)); /* '|u1' is not i8's '|i1' */
        data_array_free(&a);
    }
}

Test(datafile, corrupt_headers_are_clear_errors) {
    struct {
        const char *name;
        const char *bytes;
        size_t len;
        const char *expect;
    } cases[] = {
        {"nomagic.npy", "NUMPY\x01\x00", 7, "magic"},
        {"short.npy", "\x93NUMPY\x01", 7, "truncated"},
        {"version.npy", "\x93NUMPY\x04\x00\x10\x00{}", 12, "version 4.0"},
        {"toolong.npy", "\x93NUMPY\x01\x00\xff\x00{'descr'", 18, "runs past"},
        {"nodict.npy", "\x93NUMPY\x01\x00\x04\x00" "abc\n", 14, "not a dictionary"},
        {"nokey.npy", "\x93NUMPY\x01\x00\x13\x00{'descr': '<f4', }\n", 29, "'fortran_order'"},
        {"fortran.npy", "\x93NUMPY\x01\x00\x39\x00{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", 67,
         "Fortran"},
        {"bigend.npy", "\x93NUMPY\x01\x00\x3a\x00{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n", 68,
         "big-endian"},
        {"count.npy", "\x93NUMPY\x01\x00\x3a\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n\0\0\0\0",
         72, "promises 2 elements"},
        {"shape.npy", "\x93NUMPY\x01\x00\x3a\x00{'descr': '<f4', 'fortran_order': False, 'shape': (x,), }\n", 68,
         "shape"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *p = tmp_path(cases[i].name);
        write_bytes(p, cases[i].bytes, cases[i].len);
        DataArray a = {0};
        char err[256] = "";
        cr_assert_not(datafile_read(p, DT_F32, &a, err, sizeof err), "%s accepted", cases[i].name);
        cr_assert_not_null(strstr(err, cases[i].expect), "%s: %s", cases[i].name, err);
        cr_assert_null(a.data);
    }
}

Test(datafile, bin_files_are_raw_elements) {
    float v[3] = {1.0f, 2.0f, -3.0f};
    const char *p = tmp_path("x.bin");
    write_bytes(p, v, sizeof v);
    DataArray a;
    char err[256] = "";
    cr_assert(datafile_read(p, DT_F32, &a, err, sizeof err), "%s", err);
    cr_assert_eq(a.count, 3);
    cr_assert_float_eq(((float *)a.data)[2], -3.0f, 0.0f);
    data_array_free(&a);
    write_bytes(p, v, 10);
    cr_assert_not(datafile_read(p, DT_F32, &a, err, sizeof err));
    cr_assert_not_null(strstr(err, "10 bytes"), "%s", err);
    cr_assert_not(datafile_read(tmp_path("missing.bin"), DT_F32, &a, err, sizeof err));
    cr_assert_not_null(strstr(err, "cannot open"), "%s", err);
}

/* Files of 1 MiB and more are mapped copy-on-write, not read (datafile.c): the same elements as a
 * read, in place in the mapping (after the .npy header), writable without touching the file, and
 * the same errors. */
Test(datafile, large_files_are_mapped_with_the_same_contents) {
    enum { N = 400000 }; /* 1.6 MB of f32 */
    DataArray a, b, c;
    char err[256] = "";
    cr_assert(data_array_alloc(&a, DT_F32, 800, 500, err, sizeof err));
    for (int i = 0; i < N; i++) ((float *)a.data)[i] = (float)i * 0.25f - 7.0f;
    const char *p = tmp_path("big.npy");
    cr_assert(datafile_write(p, &a, err, sizeof err), "%s", err);
    cr_assert(datafile_read(p, DT_F32, &b, err, sizeof err), "%s", err);
    cr_assert_not_null(b.map, "a 1.6 MB file is mapped");
    cr_assert_eq(b.count, N);
    cr_assert_eq(b.rank, 2);
    cr_assert_eq(b.shape[0], 800);
    cr_assert_eq((uint8_t *)b.data - (uint8_t *)b.map, 128, "the elements follow the 128-byte header");
    cr_assert_eq(memcmp(a.data, b.data, (size_t)N * 4), 0);
    ((float *)b.data)[0] = 42.0f; /* private: the file keeps its bytes */
    cr_assert(datafile_read(p, DT_F32, &c, err, sizeof err), "%s", err);
    cr_assert_float_eq(((float *)c.data)[0], -7.0f, 0.0f);
    data_array_free(&b);
    data_array_free(&c);
    cr_assert_null(c.map);
    cr_assert_not(datafile_read(p, DT_I32, &b, err, sizeof err), "the dtype check still applies");
    cr_assert_not_null(strstr(err, "'<f4'"), "%s", err);
    const char *q = tmp_path("big.bin");
    write_bytes(q, a.data, (size_t)N * 4);
    cr_assert(datafile_read(q, DT_F32, &b, err, sizeof err), "%s", err);
    cr_assert_not_null(b.map);
    cr_assert_eq(b.data, b.map);
    cr_assert_eq(b.count, N);
    cr_assert_eq(memcmp(a.data, b.data, (size_t)N * 4), 0);
    data_array_free(&b);
    write_bytes(q, a.data, (size_t)N * 4 - 2);
    cr_assert_not(datafile_read(q, DT_F32, &b, err, sizeof err));
    cr_assert_not_null(strstr(err, "not a whole number"), "%s", err);
    /* a hand-made header of 117 bytes puts the elements at offset 127: copied, so they stay aligned */
    const char *r = tmp_path("odd.npy");
    uint8_t *odd = malloc(127 + (size_t)N * 4);
    cr_assert_not_null(odd);
    memcpy(odd, "\x93NUMPY\x01\x00", 8);
    odd[8] = 117, odd[9] = 0;
    memset(odd + 10, ' ', 117);
    const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (400000,), }";
    memcpy(odd + 10, dict, sizeof dict - 1);
    odd[126] = '\n';
    memcpy(odd + 127, a.data, (size_t)N * 4);
    write_bytes(r, odd, 127 + (size_t)N * 4);
    free(odd);
    cr_assert(datafile_read(r, DT_F32, &b, err, sizeof err), "%s", err);
    cr_assert_null(b.map);
    cr_assert_eq((uintptr_t)b.data % 16, 0);
    cr_assert_eq(memcmp(a.data, b.data, (size_t)N * 4), 0);
    data_array_free(&b);
    data_array_free(&a);
}

static size_t count_dir_entries(const char *dir) {
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

Test(datafile, writes_are_atomic_and_leave_no_temporary) {
    DataArray a;
    char err[256];
    cr_assert(data_array_alloc(&a, DT_I32, 4, -1, err, sizeof err));
    ((int32_t *)a.data)[3] = 42;
    const char *p = tmp_path("out.bin");
    write_bytes(p, "old", 3);
    cr_assert(datafile_write(p, &a, err, sizeof err), "%s", err);
    uint8_t buf[64];
    cr_assert_eq(read_bytes(p, buf, sizeof buf), 16);
    int32_t v;
    memcpy(&v, buf + 12, 4);
    cr_assert_eq(v, 42);
    cr_assert_eq(count_dir_entries(tmpdir), 1);
    char bad[512];
    snprintf(bad, sizeof bad, "%s/no-such-dir/out.bin", tmpdir);
    cr_assert_not(datafile_write(bad, &a, err, sizeof err));
    cr_assert_not_null(strstr(err, "no-such-dir"), "%s", err);
    cr_assert_eq(count_dir_entries(tmpdir), 1);
    data_array_free(&a);
}

/* ---- comparison ---------------------------------------------------------------------------- */

static int64_t compare_f32(const float *got, const float *want, int n, const CompareOptions *o, char *text,
                           size_t len) {
    DataArray g, w;
    char err[256];
    cr_assert(data_array_alloc(&g, DT_F32, 2, n / 2, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_F32, n, -1, err, sizeof err));
    memcpy(g.data, got, (size_t)n * 4);
    memcpy(w.data, want, (size_t)n * 4);
    char *buf = NULL;
    size_t blen = 0;
    FILE *out = open_memstream(&buf, &blen);
    int64_t r = data_array_compare(out, "arg1", &g, &w, o, err, sizeof err);
    fclose(out);
    snprintf(text, len, "%s", buf);
    free(buf);
    data_array_free(&g);
    data_array_free(&w);
    return r;
}

Test(compare, f32_default_tolerance_nan_and_inf) {
    float want[8] = {1.0f, 2.0f, NAN, INFINITY, 0.0f, -5.0f, 100.0f, 7.0f};
    float got[8] = {1.0f + 1e-6f, 2.0f, NAN, INFINITY, 0.0f, -5.0f, 100.0f + 5e-4f, 7.0f};
    char text[1024];
    cr_assert_eq(compare_f32(got, want, 8, NULL, text, sizeof text), 0, "%s", text);
    cr_assert_not_null(strstr(text, "8 elements, 0 mismatches"), "%s", text);
    got[7] = 7.001f;        /* beyond 1e-5 + 1e-5 * 7 */
    got[2] = 1.0f;          /* NaN expected */
    got[3] = -INFINITY;
    cr_assert_eq(compare_f32(got, want, 8, NULL, text, sizeof text), 3, "%s", text);
    cr_assert_not_null(strstr(text, "3 mismatches"), "%s", text);
    cr_assert_not_null(strstr(text, "mismatch at (0, 2): got 1, want nan"), "%s", text);
    cr_assert_not_null(strstr(text, "mismatch at (0, 3)"), "%s", text);
    cr_assert_not_null(strstr(text, "mismatch at (1, 3): got 7.001"), "%s", text); /* 2x4 shape of `got` */
    CompareOptions loose = {.atol = 0.01, .atol_given = true};
    got[2] = NAN;
    got[3] = INFINITY;
    cr_assert_eq(compare_f32(got, want, 8, &loose, text, sizeof text), 0, "%s", text);
}

Test(compare, integers_exact_unless_a_tolerance_is_given) {
    DataArray g, w;
    char err[256];
    cr_assert(data_array_alloc(&g, DT_I64, 3, -1, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_I64, 3, -1, err, sizeof err));
    int64_t gv[3] = {(1LL << 60) + 1, 5, -7}, wv[3] = {1LL << 60, 5, -7};
    memcpy(g.data, gv, 24);
    memcpy(w.data, wv, 24);
    FILE *devnull = fopen("/dev/null", "w");
    cr_assert_eq(data_array_compare(devnull, "x", &g, &w, NULL, err, sizeof err), 1); /* beyond double precision */
    CompareOptions tol = {.atol = 2, .atol_given = true};
    cr_assert_eq(data_array_compare(devnull, "x", &g, &w, &tol, err, sizeof err), 0);
    DataArray short_w;
    cr_assert(data_array_alloc(&short_w, DT_I64, 2, -1, err, sizeof err));
    cr_assert_eq(data_array_compare(devnull, "x", &g, &short_w, NULL, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "3 elements"), "%s", err);
    cr_assert_not_null(strstr(err, "2"), "%s", err);
    fclose(devnull);
    data_array_free(&g);
    data_array_free(&w);
    data_array_free(&short_w);
}

Test(compare, wide_integers_are_differenced_exactly_under_a_tolerance) {
    /* 2^60 vs 2^60 + 100 are one double apart: the difference must still be 100, not 0 */
    DataArray g, w;
    char err[256];
    cr_assert(data_array_alloc(&g, DT_I64, 1, 3, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_I64, 1, 3, err, sizeof err));
    int64_t gv[3] = {1LL << 60, INT64_MIN, 9}, wv[3] = {(1LL << 60) + 100, INT64_MIN + 1, 9};
    memcpy(g.data, gv, 24);
    memcpy(w.data, wv, 24);
    char *buf = NULL;
    size_t blen = 0;
    FILE *out = open_memstream(&buf, &blen);
    CompareOptions tol = {.atol = 1, .atol_given = true};
    int64_t r = data_array_compare(out, "x", &g, &w, &tol, err, sizeof err);
    fclose(out);
    cr_expect_eq(r, 1, "%s", buf); /* 100 > 1; INT64_MIN vs INT64_MIN + 1 is within atol 1 */
    cr_expect_not_null(strstr(buf, "max abs err 100 at (0, 0),"), "%s", buf);
    cr_expect_not_null(strstr(buf, "got 1152921504606846976, want 1152921504606847076 (abs err 100, rel err "), "%s", buf);
    free(buf);
    data_array_free(&g);
    data_array_free(&w);
    /* unsigned: 2^64 - 1 vs 0 is 2^64 - 1 apart, not a wrapped 1 */
    cr_assert(data_array_alloc(&g, DT_U64, 1, 1, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_U64, 1, 1, err, sizeof err));
    uint64_t gu = UINT64_MAX, wu = 0;
    memcpy(g.data, &gu, 8);
    memcpy(w.data, &wu, 8);
    FILE *devnull = fopen("/dev/null", "w");
    CompareOptions big = {.atol = 2, .atol_given = true};
    cr_expect_eq(data_array_compare(devnull, "u", &g, &w, &big, err, sizeof err), 1);
    fclose(devnull);
    data_array_free(&g);
    data_array_free(&w);
}

Test(compare, f16_default_tolerance_is_1e_3) {
    DataArray g, w;
    char err[256];
    cr_assert(data_array_alloc(&g, DT_F16, 1, -1, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_F16, 1, -1, err, sizeof err));
    ((uint16_t *)g.data)[0] = 0x3C01; /* 1.0009765625 */
    ((uint16_t *)w.data)[0] = 0x3C00;
    FILE *devnull = fopen("/dev/null", "w");
    cr_assert_eq(data_array_compare(devnull, "h", &g, &w, NULL, err, sizeof err), 0); /* 9.8e-4 <= 2e-3 */
    ((uint16_t *)g.data)[0] = 0x3C03;
    cr_assert_eq(data_array_compare(devnull, "h", &g, &w, NULL, err, sizeof err), 1);
    fclose(devnull);
    data_array_free(&g);
    data_array_free(&w);
}

Test(print, tprint_layout) {
    DataArray a;
    char err[256];
    cr_assert(data_array_alloc(&a, DT_F32, 2, 3, err, sizeof err));
    float v[6] = {1.0f, -2.5f, 3.14159f, 0.0f, 100.0f, -0.125f};
    memcpy(a.data, v, sizeof v);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    data_array_print(out, "TPRINT 2x3", &a);
    fclose(out);
    cr_assert_str_eq(buf, "TPRINT 2x3\n  1.0000  -2.5000   3.1416\n  0.0000 100.0000  -0.1250\n");
    free(buf);
    data_array_free(&a);
    cr_assert(data_array_alloc(&a, DT_I8, 1, 3, err, sizeof err));
    int8_t iv[3] = {-128, 7, 127};
    memcpy(a.data, iv, 3);
    out = open_memstream(&buf, &len);
    data_array_print(out, "T", &a);
    fclose(out);
    cr_assert_str_eq(buf, "T\n    -128        7      127\n");
    free(buf);
    data_array_free(&a);
}

Test(compare, f8_values_are_those_of_mlir_and_ml_dtypes) {
    /* each type's edge encodings: smallest subnormal, smallest normal, largest finite, and its
     * NaN / infinity / -0 patterns as MLIR's APFloat semantics and ml_dtypes define them */
    struct { DType dt; uint8_t bits; double want; } cases[] = {
        {DT_F8E4M3FN, 0x01, 0x1p-9}, {DT_F8E4M3FN, 0x08, 0x1p-6}, {DT_F8E4M3FN, 0x7e, 448.0},
        {DT_F8E4M3FN, 0xfe, -448.0}, {DT_F8E4M3FN, 0x7f, NAN}, {DT_F8E4M3FN, 0xff, NAN}, {DT_F8E4M3FN, 0x38, 1.0},
        {DT_F8E4M3, 0x77, 240.0}, {DT_F8E4M3, 0x78, INFINITY}, {DT_F8E4M3, 0xf8, -INFINITY}, {DT_F8E4M3, 0x79, NAN},
        {DT_F8E4M3, 0x01, 0x1p-9},
        {DT_F8E5M2, 0x7b, 57344.0}, {DT_F8E5M2, 0x7c, INFINITY}, {DT_F8E5M2, 0x7d, NAN}, {DT_F8E5M2, 0x01, 0x1p-16},
        {DT_F8E5M2, 0x04, 0x1p-14}, {DT_F8E5M2, 0xbc, -1.0},
        {DT_F8E8M0FNU, 0x7f, 1.0}, {DT_F8E8M0FNU, 0x00, 0x1p-127}, {DT_F8E8M0FNU, 0xfe, 0x1p127}, {DT_F8E8M0FNU, 0xff, NAN},
        {DT_F8E4M3FNUZ, 0x7f, 240.0}, {DT_F8E4M3FNUZ, 0x80, NAN}, {DT_F8E4M3FNUZ, 0x01, 0x1p-10},
        {DT_F8E4M3FNUZ, 0xff, -240.0}, {DT_F8E4M3FNUZ, 0x40, 1.0},
        {DT_F8E4M3B11FNUZ, 0x7f, 30.0}, {DT_F8E4M3B11FNUZ, 0x80, NAN}, {DT_F8E4M3B11FNUZ, 0x01, 0x1p-13},
        {DT_F8E5M2FNUZ, 0x7f, 57344.0}, {DT_F8E5M2FNUZ, 0x80, NAN}, {DT_F8E5M2FNUZ, 0x01, 0x1p-17},
        {DT_F8E5M2FNUZ, 0x40, 1.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double got = element_as_double(&cases[i].bits, 0, cases[i].dt);
        if (isnan(cases[i].want)) cr_expect(isnan(got), "%s 0x%02x: %g", dtype_name(cases[i].dt), cases[i].bits, got);
        else cr_expect_eq(got, cases[i].want, "%s 0x%02x: %g, want %g", dtype_name(cases[i].dt), cases[i].bits, got, cases[i].want);
    }
    /* -0 of the types that have one */
    uint8_t nz = 0x80;
    cr_expect(signbit(element_as_double(&nz, 0, DT_F8E4M3FN)) && element_as_double(&nz, 0, DT_F8E4M3FN) == 0.0);
    /* --expect compares fp8 data by these values (it compared zeros before) */
    DataArray g, w;
    char err[256];
    cr_assert(data_array_alloc(&g, DT_F8E4M3FN, 4, -1, err, sizeof err));
    cr_assert(data_array_alloc(&w, DT_F8E4M3FN, 4, -1, err, sizeof err));
    memcpy(g.data, (uint8_t[]){0x38, 0x40, 0x7f, 0x01}, 4);
    memcpy(w.data, (uint8_t[]){0x38, 0x41, 0x7f, 0x01}, 4);
    FILE *devnull = fopen("/dev/null", "w");
    cr_assert_eq(data_array_compare(devnull, "x", &g, &w, NULL, err, sizeof err), 1); /* 2 vs 2.25; NaN = NaN */
    ((uint8_t *)w.data)[1] = 0x40;
    cr_assert_eq(data_array_compare(devnull, "x", &g, &w, NULL, err, sizeof err), 0);
    fclose(devnull);
    data_array_free(&g);
    data_array_free(&w);
}
