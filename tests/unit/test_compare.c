/* test_compare.c - execution of the compare and select, generators family (ops_compare.def)
 * through parser, verifier and interpreter: every compare mode, NaN, infinities and signed zeros,
 * TCMP's word packing (u8 and u32 words, odd widths, dst.Cv limits), TCMPS's byte stream over the
 * physical width, whole-dst zeroing, TSEL's continuous bit stream against TSELS's per-row masks,
 * valid sub-regions, TCI and TTRI, and the run-time valid-shape rules. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
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

/* Parses, verifies for `target` and lowers `text`. */
static void load(Prog *p, const char *text, Target target) {
    memset(p, 0, sizeof *p);
    p->arena = arena_new();
    diag_init(&p->diags, p->arena);
    SourceFile *file = source_file_from_string(p->arena, "t.pto", text, strlen(text));
    p->m = parse_module(p->arena, file, &p->diags);
    cr_assert(p->m && p->diags.errors == 0, "parse: %s", diag_text(p));
    VerifyOptions v = {.target = target, .target_given = true};
    cr_assert(verify_module(p->m, &v, &p->diags), "verify: %s", diag_text(p));
    p->outf = open_memstream(&p->out, &p->out_len);
    InterpOptions io = {.target = target, .out = p->outf};
    p->ip = interp_create(p->m, &io, &p->diags);
    cr_assert_not_null(p->ip, "lower: %s", diag_text(p));
}

static bool run(Prog *p) {
    bool ok = interp_run(p->ip);
    fflush(p->outf);
    return ok;
}

static void unload(Prog *p) {
    interp_destroy(p->ip);
    fclose(p->outf);
    free(p->out);
    arena_free(p->arena);
}

/* Gives tile `name` its input: rows x cols elements of `dt` from `data`. */
static void bind(Prog *p, const char *name, DType dt, int64_t rows, int64_t cols, const void *data) {
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(p->ip, name, &b, err, sizeof err), "%s", err);
    DataArray a;
    cr_assert(data_array_alloc(&a, dt, rows, cols, err, sizeof err), "%s", err);
    memcpy(a.data, data, (size_t)(rows * cols) * dtype_size(dt));
    cr_assert(interp_bind_tile(p->ip, &b, &a, err, sizeof err), "%s", err);
    data_array_free(&a);
}

static DataArray fetch(Prog *p, const char *name) {
    InterpBinding b;
    char err[256];
    cr_assert(interp_lookup(p->ip, name, &b, err, sizeof err), "%s", err);
    DataArray a;
    cr_assert(interp_fetch(p->ip, &b, &a, err, sizeof err), "%s", err);
    return a;
}

static bool ref_exact(float a, float b, int mode) {
    switch (mode) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

static const char *const modes[] = {"eq", "ne", "lt", "le", "gt", "ge"};

/* ---- TCMP ------------------------------------------------------------------------------------ */

#define T2X16F32 "!pto.tile_buf<vec, 2x16xf32>"
#define TM2X2 "!pto.tile_buf<vec, 2x32xui8, valid=2x2>"

Test(tcmp, every_mode_with_nan_inf_and_signed_zeros) {
    float a[32], b[32];
    const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 2.5f};
    for (int i = 0; i < 32; i++) {
        a[i] = vals[i % 8];
        b[i] = vals[(i / 8 + i) % 8];
    }
    for (int mode = 0; mode < 6; mode++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "%%a = pto.alloc_tile : " T2X16F32 "\n"
                 "%%b = pto.alloc_tile : " T2X16F32 "\n"
                 "%%m = pto.alloc_tile : " TM2X2 "\n"
                 "pto.tcmp ins(%%a, %%b {cmpMode = #pto<cmp %s>} : " T2X16F32 ", " T2X16F32 ") outs(%%m : " TM2X2 ")\n",
                 modes[mode]);
        Prog p;
        load(&p, text, TARGET_A2A3);
        bind(&p, "a", DT_F32, 2, 16, a);
        bind(&p, "b", DT_F32, 2, 16, b);
        cr_assert(run(&p), "%s", diag_text(&p));
        DataArray m = fetch(&p, "m");
        cr_assert_eq(m.count, 4);
        for (int r = 0; r < 2; r++)
            for (int w = 0; w < 2; w++) {
                uint8_t want = 0;
                for (int bit = 0; bit < 8; bit++) {
                    int i = r * 16 + w * 8 + bit;
                    want |= (uint8_t)(ref_exact(a[i], b[i], mode) << bit);
                }
                cr_assert_eq(((uint8_t *)m.data)[r * 2 + w], want, "mode %s row %d word %d: %#x, want %#x", modes[mode], r, w,
                             ((uint8_t *)m.data)[r * 2 + w], want);
            }
        data_array_free(&m);
        unload(&p);
    }
}

Test(tcmp, zeroes_whole_dst_and_packs_odd_widths) {
    /* src valid 3x13: ceil(13/8) = 2 words per row, but dst.Cv = 1 keeps one; the rest of the
     * 4x32 dst is zeroed (seen through an alias of the same bytes) */
    const char *text =
        "%c0 = arith.constant 0 : index\n"
        "%full = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 4x32xui8>\n"
        "%a = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi32, valid=3x13>\n"
        "%m = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 4x32xui8, valid=3x1>\n"
        "pto.tcmp ins(%a, %a {cmpMode = #pto<cmp eq>} : !pto.tile_buf<vec, 4x16xi32, valid=3x13>, "
        "!pto.tile_buf<vec, 4x16xi32, valid=3x13>) outs(%m : !pto.tile_buf<vec, 4x32xui8, valid=3x1>)\n"
        ;
    Prog p;
    load(&p, text, TARGET_A2A3);
    uint8_t ff[128];
    memset(ff, 0xFF, sizeof ff);
    bind(&p, "full", DT_U8, 4, 32, ff);
    int32_t a[39] = {0};
    bind(&p, "a", DT_I32, 3, 13, a);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray f = fetch(&p, "full");
    for (int i = 0; i < 128; i++) {
        int r = i / 32, c = i % 32;
        uint8_t want = (r < 3 && c == 0) ? 0xFF : 0;
        cr_assert_eq(((uint8_t *)f.data)[i], want, "(%d,%d) = %#x", r, c, ((uint8_t *)f.data)[i]);
    }
    data_array_free(&f);
    unload(&p);

    /* with dst.Cv = 2 the second word holds bits 8..12 only (5 ones) */
    const char *text2 =
        "%a = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi32, valid=3x13>\n"
        "%m = pto.alloc_tile : !pto.tile_buf<vec, 4x32xui8, valid=3x2>\n"
        "pto.tcmp ins(%a, %a {cmpMode = #pto<cmp le>} : !pto.tile_buf<vec, 4x16xi32, valid=3x13>, "
        "!pto.tile_buf<vec, 4x16xi32, valid=3x13>) outs(%m : !pto.tile_buf<vec, 4x32xui8, valid=3x2>)\n";
    load(&p, text2, TARGET_A2A3);
    bind(&p, "a", DT_I32, 3, 13, a);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray m = fetch(&p, "m");
    for (int r = 0; r < 3; r++) {
        cr_assert_eq(((uint8_t *)m.data)[r * 2], 0xFF);
        cr_assert_eq(((uint8_t *)m.data)[r * 2 + 1], 0x1F);
    }
    data_array_free(&m);
    unload(&p);
}

Test(tcmp, u32_words_on_a5) {
    /* 40 valid columns: word 0 holds columns 0..31, word 1 columns 32..39 */
    const char *text =
        "%a = pto.alloc_tile : !pto.tile_buf<vec, 2x64xi32, valid=2x40>\n"
        "%b = pto.alloc_tile : !pto.tile_buf<vec, 2x64xi32, valid=2x40>\n"
        "%m = pto.alloc_tile : !pto.tile_buf<vec, 2x64xui32, valid=2x2>\n"
        "pto.tcmp ins(%a, %b {cmpMode = #pto<cmp lt>} : !pto.tile_buf<vec, 2x64xi32, valid=2x40>, "
        "!pto.tile_buf<vec, 2x64xi32, valid=2x40>) outs(%m : !pto.tile_buf<vec, 2x64xui32, valid=2x2>)\n";
    int32_t a[80], b[80];
    for (int i = 0; i < 80; i++) {
        a[i] = (i * 7919) % 13 - 6;
        b[i] = (i * 104729) % 11 - 5;
    }
    Prog p;
    load(&p, text, TARGET_A5);
    bind(&p, "a", DT_I32, 2, 40, a);
    bind(&p, "b", DT_I32, 2, 40, b);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray m = fetch(&p, "m");
    for (int r = 0; r < 2; r++)
        for (int w = 0; w < 2; w++) {
            uint32_t want = 0;
            for (int bit = 0; bit < 32 && w * 32 + bit < 40; bit++) {
                int i = r * 40 + w * 32 + bit;
                want |= (uint32_t)(a[i] < b[i]) << bit;
            }
            cr_assert_eq(((uint32_t *)m.data)[r * 2 + w], want, "row %d word %d", r, w);
        }
    data_array_free(&m);
    unload(&p);
}

Test(tcmp, runtime_valid_shape_rule) {
    const char *text =
        "%c2 = arith.constant 2 : index\n"
        "%c16 = arith.constant 16 : index\n"
        "%a = pto.alloc_tile valid_row = %c2 valid_col = %c16 : !pto.tile_buf<vec, 4x16xf32, valid=?x?>\n"
        "%b = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>\n"
        "%m = pto.alloc_tile : !pto.tile_buf<vec, 4x32xui8, valid=4x2>\n"
        "pto.tcmp ins(%a, %b {cmpMode = #pto<cmp lt>} : !pto.tile_buf<vec, 4x16xf32, valid=?x?>, "
        "!pto.tile_buf<vec, 4x16xf32>) outs(%m : !pto.tile_buf<vec, 4x32xui8, valid=4x2>)\n";
    Prog p;
    load(&p, text, TARGET_A2A3);
    cr_assert_not(run(&p));
    cr_assert_not_null(strstr(diag_text(&p), "expects src0 and src1 to have the same valid row, got 2 and 4 [TCMP.valid-shape]"),
                       "%s", diag_buf);
    unload(&p);
}

/* ---- TCMPS ----------------------------------------------------------------------------------- */

/* Runs `tcmps %s, S` on a 1x8 f32 tile and returns the one mask byte. */
static uint8_t tcmps8(const float *v, const char *scalar, const char *mode) {
    char text[1024];
    snprintf(text, sizeof text,
             "%%s = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>\n"
             "%%c = arith.constant %s : f32\n"
             "%%m = pto.alloc_tile : !pto.tile_buf<vec, 1x32xui8, valid=1x1>\n"
             "pto.tcmps ins(%%s, %%c {cmpMode = #pto<cmp %s>} : !pto.tile_buf<vec, 1x8xf32>, f32) outs(%%m : "
             "!pto.tile_buf<vec, 1x32xui8, valid=1x1>)\n",
             scalar, mode);
    Prog p;
    load(&p, text, TARGET_A2A3);
    bind(&p, "s", DT_F32, 1, 8, v);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray m = fetch(&p, "m");
    uint8_t byte = ((uint8_t *)m.data)[0];
    data_array_free(&m);
    unload(&p);
    return byte;
}

Test(tcmps, eq_ne_tolerance_nan_and_infinities) {
    /* against 0: 0, -0, 1e-10 (within 1e-9), 1e-8, NaN, +inf, -inf, -1 */
    const float v[8] = {0.0f, -0.0f, 1e-10f, 1e-8f, NAN, INFINITY, -INFINITY, -1.0f};
    cr_assert_eq(tcmps8(v, "0.0", "eq"), 0x07);
    cr_assert_eq(tcmps8(v, "0.0", "ne"), 0xF8); /* NaN: ne */
    cr_assert_eq(tcmps8(v, "0.0", "lt"), 0xC0);
    cr_assert_eq(tcmps8(v, "0.0", "le"), 0xC3);
    cr_assert_eq(tcmps8(v, "0.0", "gt"), 0x2C);
    cr_assert_eq(tcmps8(v, "0.0", "ge"), 0x2F);
    /* inf == inf is false (inf - inf is NaN), and so is inf != inf */
    const float inf[8] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY};
    cr_assert_eq(tcmps8(inf, "0x7F800000", "eq"), 0x00);
    cr_assert_eq(tcmps8(inf, "0x7F800000", "ne"), 0x00);
    cr_assert_eq(tcmps8(inf, "0x7F800000", "ge"), 0xFF);
}

Test(tcmps, byte_stream_over_physical_width_into_u32_dst) {
    /* src 2x16 with valid 1x10: 2 bytes per physical row (bits of columns >= 10 and of row 1 are 0),
     * 4 bytes in all, laid over dst's valid 1x3: bytes 0..2 land in row 0, byte 3 falls past dst's
     * valid rows. Each byte takes one ui32 element; the rest of dst is zeroed. */
    /* valid rows must match (TCMPS.valid-rows), so use src valid 1x10 over a 2x16 tile */
    const char *text2 =
        "%c0 = arith.constant 0 : index\n"
        "%full = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 2x8xui32>\n"
        "%s = pto.alloc_tile : !pto.tile_buf<vec, 2x16xi32, valid=1x10>\n"
        "%m = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 2x8xui32, valid=1x3>\n"
        "%c = arith.constant 4 : i32\n"
        "pto.tcmps ins(%s, %c {cmpMode = #pto<cmp ge>} : !pto.tile_buf<vec, 2x16xi32, valid=1x10>, i32) outs(%m : "
        "!pto.tile_buf<vec, 2x8xui32, valid=1x3>)\n";
    Prog p;
    load(&p, text2, TARGET_A2A3);
    uint32_t ff[16];
    memset(ff, 0xFF, sizeof ff);
    bind(&p, "full", DT_U32, 2, 8, ff);
    int32_t s[10] = {0, 5, 4, 3, 9, 1, 4, 7, 8, 2}; /* >= 4: cols 1,2,4,6,7,8 */
    bind(&p, "s", DT_I32, 1, 10, s);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray f = fetch(&p, "full");
    uint32_t want[16] = {0};
    want[0] = 0xD6; /* cols 1,2,4,6,7 */
    want[1] = 0x01; /* col 8 */
    want[2] = 0x00; /* row 1 of src is outside its valid rows: zero bits */
    for (int i = 0; i < 16; i++) cr_assert_eq(((uint32_t *)f.data)[i], want[i], "[%d] = %#x", i, ((uint32_t *)f.data)[i]);
    data_array_free(&f);
    unload(&p);
}

Test(tcmps, f16_ge_rounds_the_scalar_to_f16) {
    /* 1.0004 rounds to 1.0 in f16 (spacing 2^-10), so GE holds for 1.0 (not for 1.0 against the f32 1.0004) */
    const char *text =
        "%s = pto.alloc_tile : !pto.tile_buf<vec, 1x16xf16>\n"
        "%c = arith.constant 1.0004 : f32\n"
        "%m = pto.alloc_tile : !pto.tile_buf<vec, 1x32xui8, valid=1x2>\n"
        "pto.tcmps ins(%s, %c {cmpMode = #pto<cmp ge>} : !pto.tile_buf<vec, 1x16xf16>, f32) outs(%m : "
        "!pto.tile_buf<vec, 1x32xui8, valid=1x2>)\n";
    Prog p;
    load(&p, text, TARGET_A2A3);
    uint16_t h[16] = {0};
    h[0] = 0x3C00; /* 1.0 */
    h[9] = 0x3C01; /* 1.000977 */
    h[10] = 0x3BFF; /* 0.99951 */
    bind(&p, "s", DT_F16, 1, 16, h);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray m = fetch(&p, "m");
    cr_assert_eq(((uint8_t *)m.data)[0], 0x01);
    cr_assert_eq(((uint8_t *)m.data)[1], 0x02);
    data_array_free(&m);
    unload(&p);
}

/* ---- TSEL and TSELS -------------------------------------------------------------------------- */

#define T2X12 "!pto.tile_buf<vec, 2x16xf32, valid=2x12>"
#define TMASK "!pto.tile_buf<vec, 2x32xui8, valid=2x2>"

Test(select, tsel_reads_one_stream_tsels_restarts_per_row) {
    const char *text =
        "%mask = pto.alloc_tile : " TMASK "\n"
        "%a = pto.alloc_tile : " T2X12 "\n"
        "%b = pto.alloc_tile : " T2X12 "\n"
        "%t = pto.alloc_tile : " T2X12 "\n"
        "%d = pto.alloc_tile : " T2X12 "\n"
        "%e = pto.alloc_tile : " T2X12 "\n"
        "%c = arith.constant -7.0 : f32\n"
        "pto.tsel ins(%mask, %a, %b, %t : " TMASK ", " T2X12 ", " T2X12 ", " T2X12 ") outs(%d : " T2X12 ")\n"
        "pto.tsels ins(%mask, %a, %t, %c : " TMASK ", " T2X12 ", " T2X12 ", f32) outs(%e : " T2X12 ")\n";
    Prog p;
    load(&p, text, TARGET_A2A3);
    const uint8_t mask[4] = {0xA5, 0x3C, 0x0F, 0x81};
    float a[24], b[24];
    for (int i = 0; i < 24; i++) a[i] = (float)(i + 1), b[i] = (float)(-i - 1);
    bind(&p, "mask", DT_U8, 2, 2, mask);
    bind(&p, "a", DT_F32, 2, 12, a);
    bind(&p, "b", DT_F32, 2, 12, b);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray d = fetch(&p, "d"), e = fetch(&p, "e");
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 12; c++) {
            int k = r * 12 + c; /* TSEL: bit k of the stream mask(0,0), mask(0,1), mask(1,0), ... */
            int bit = (mask[k / 8] >> (k % 8)) & 1;
            cr_assert_float_eq(((float *)d.data)[k], bit ? a[k] : b[k], 0.0f, "tsel (%d,%d)", r, c);
            int bit2 = (mask[r * 2 + c / 8] >> (c % 8)) & 1; /* TSELS: mask(r, c / 8) */
            cr_assert_float_eq(((float *)e.data)[k], bit2 ? a[k] : -7.0f, 0.0f, "tsels (%d,%d)", r, c);
        }
    data_array_free(&d);
    data_array_free(&e);
    unload(&p);
}

Test(select, tsel_writes_only_the_valid_region_and_tsels_reads_wide_masks) {
    const char *text =
        "%c0 = arith.constant 0 : index\n"
        "%full = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 4x16xi16>\n"
        "%d = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 4x16xi16, valid=2x5>\n"
        "%mask = pto.alloc_tile : !pto.tile_buf<vec, 4x16xui16, valid=2x1>\n"
        "%a = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi16, valid=2x5>\n"
        "%b = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi16, valid=2x5>\n"
        "%t = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi16>\n"
        "pto.tsel ins(%mask, %a, %b, %t : !pto.tile_buf<vec, 4x16xui16, valid=2x1>, !pto.tile_buf<vec, 4x16xi16, valid=2x5>, "
        "!pto.tile_buf<vec, 4x16xi16, valid=2x5>, !pto.tile_buf<vec, 4x16xi16>) outs(%d : !pto.tile_buf<vec, 4x16xi16, valid=2x5>)\n";
    Prog p;
    load(&p, text, TARGET_A2A3);
    int16_t full[64];
    for (int i = 0; i < 64; i++) full[i] = 99;
    bind(&p, "full", DT_I16, 4, 16, full);
    /* ui16 mask elements give TSEL 8 bits each (their low byte): 10 elements need mask(0,0), mask(1,0) */
    const uint16_t mask[2] = {0xFF55, 0xFF02};
    bind(&p, "mask", DT_U16, 2, 1, mask);
    int16_t a[10], b[10];
    for (int i = 0; i < 10; i++) a[i] = (int16_t)(i + 1), b[i] = (int16_t)(-i - 1);
    bind(&p, "a", DT_I16, 2, 5, a);
    bind(&p, "b", DT_I16, 2, 5, b);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray f = fetch(&p, "full");
    for (int i = 0; i < 64; i++) {
        int r = i / 16, c = i % 16;
        int16_t want = 99;
        if (r < 2 && c < 5) {
            int k = r * 5 + c, bit = ((mask[k / 8] & 0xFF) >> (k % 8)) & 1;
            want = bit ? a[k] : b[k];
        }
        cr_assert_eq(((int16_t *)f.data)[i], want, "(%d,%d) = %d, want %d", r, c, ((int16_t *)f.data)[i], want);
    }
    data_array_free(&f);
    unload(&p);
}

Test(select, tsels_u16_mask_uses_16_bits_per_element) {
    const char *text =
        "%mask = pto.alloc_tile : !pto.tile_buf<vec, 1x16xui16, valid=1x2>\n"
        "%s = pto.alloc_tile : !pto.tile_buf<vec, 1x32xi8>\n"
        "%t = pto.alloc_tile : !pto.tile_buf<vec, 1x32xi8>\n"
        "%c = arith.constant -1 : i32\n"
        "pto.tsels ins(%mask, %s, %t, %c : !pto.tile_buf<vec, 1x16xui16, valid=1x2>, !pto.tile_buf<vec, 1x32xi8>, "
        "!pto.tile_buf<vec, 1x32xi8>, i32) outs(%s : !pto.tile_buf<vec, 1x32xi8>)\n";
    Prog p;
    load(&p, text, TARGET_A5);
    const uint16_t mask[2] = {0x8001, 0x0100};
    bind(&p, "mask", DT_U16, 1, 2, mask);
    int8_t s[32];
    for (int i = 0; i < 32; i++) s[i] = (int8_t)i;
    bind(&p, "s", DT_I8, 1, 32, s);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray d = fetch(&p, "s");
    for (int c = 0; c < 32; c++) {
        int keep = c == 0 || c == 15 || c == 24;
        cr_assert_eq(((int8_t *)d.data)[c], keep ? c : -1, "col %d", c);
    }
    data_array_free(&d);
    unload(&p);
}

/* ---- generators ------------------------------------------------------------------------------ */

Test(generators, tci_ascending_descending_and_i16_wrap) {
    const char *text =
        "%s = arith.constant 32766 : i16\n"
        "%d = pto.alloc_tile : !pto.tile_buf<vec, 1x16xi16, valid=1x5>\n"
        "pto.tci ins(%s : i16) outs(%d : !pto.tile_buf<vec, 1x16xi16, valid=1x5>)\n"
        "%s2 = arith.constant -2 : i32\n"
        "%e = pto.alloc_tile : !pto.tile_buf<vec, 1x8xi32>\n"
        "pto.tci ins(%s2 {descending = true} : i32) outs(%e : !pto.tile_buf<vec, 1x8xi32>)\n";
    Prog p;
    load(&p, text, TARGET_A2A3);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray d = fetch(&p, "d"), e = fetch(&p, "e");
    const int16_t wd[5] = {32766, 32767, -32768, -32767, -32766};
    for (int j = 0; j < 5; j++) cr_assert_eq(((int16_t *)d.data)[j], wd[j], "d[%d]", j);
    for (int j = 0; j < 8; j++) cr_assert_eq(((int32_t *)e.data)[j], -2 - j, "e[%d]", j);
    data_array_free(&d);
    data_array_free(&e);
    unload(&p);
}

Test(generators, ttri_lower_and_upper) {
    const char *text =
        "%c0 = arith.constant 0 : index\n"
        "%full = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 4x16xf16>\n"
        "%d = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 4x16xf16, valid=3x6>\n"
        "%k = arith.constant -1 : i32\n"
        "pto.ttri ins(%k : i32) outs(%d : !pto.tile_buf<vec, 4x16xf16, valid=3x6>)\n"
        "%e = pto.alloc_tile : !pto.tile_buf<vec, 4x16xi32>\n"
        "%k2 = arith.constant 2 : i32\n"
        "pto.ttri ins(%k2 {upperOrLower = 1 : i32} : i32) outs(%e : !pto.tile_buf<vec, 4x16xi32>)\n";
    Prog p;
    load(&p, text, TARGET_A2A3);
    uint16_t full[64];
    for (int i = 0; i < 64; i++) full[i] = 0x7777;
    bind(&p, "full", DT_F16, 4, 16, full);
    cr_assert(run(&p), "%s", diag_text(&p));
    DataArray f = fetch(&p, "full"), e = fetch(&p, "e");
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++) {
            uint16_t want = (r < 3 && c < 6) ? (c < -1 + r + 1 ? 0x3C00 : 0) : 0x7777;
            cr_assert_eq(((uint16_t *)f.data)[r * 16 + c], want, "lower (%d,%d)", r, c);
            cr_assert_eq(((int32_t *)e.data)[r * 16 + c], c < 2 + r ? 0 : 1, "upper (%d,%d)", r, c);
        }
    data_array_free(&f);
    data_array_free(&e);
    unload(&p);
}
