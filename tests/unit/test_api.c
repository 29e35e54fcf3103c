/* test_api.c - the stable C API of libpto.so (api/pto.h): compile, diagnostics, functions and
 * arguments, runs bound from memory, scalars, blocks, fetch and ownership. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto.h"

/* arg1 = arg0 * FACTOR on a 2x8 tile of DT (FACTOR: a literal, or %s for a scalar argument). */
static char *scale_text(const char *dt, const char *dst_dt, const char *factor, bool scalar_arg) {
    static const char fmt[] =
        "module {\n"
        "  func.func @scale(%%arg0: !pto.ptr<%s>, %%arg1: !pto.ptr<%s>%s%s) attributes {pto.entry} {\n"
        "    %%c0 = arith.constant 0 : index\n"
        "    %%c1 = arith.constant 1 : index\n"
        "    %%c2 = arith.constant 2 : index\n"
        "    %%c8 = arith.constant 8 : index\n"
        "    %%f = arith.constant %s : %s\n"
        "    %%in = pto.make_tensor_view %%arg0, shape = [%%c2, %%c8], strides = [%%c8, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "    %%out = pto.make_tensor_view %%arg1, shape = [%%c2, %%c8], strides = [%%c8, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "    %%pin = pto.partition_view %%in, offsets = [%%c0, %%c0], sizes = [%%c2, %%c8] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<2x8x%s>\n"
        "    %%pout = pto.partition_view %%out, offsets = [%%c0, %%c0], sizes = [%%c2, %%c8] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<2x8x%s>\n"
        "    %%a = pto.alloc_tile : !pto.tile_buf<vec, 2x8x%s>\n"
        "    %%b = pto.alloc_tile : !pto.tile_buf<vec, 2x8x%s>\n"
        "    pto.tload ins(%%pin : !pto.partition_tensor_view<2x8x%s>) outs(%%a : !pto.tile_buf<vec, 2x8x%s>)\n"
        "    pto.tmuls ins(%%a, %s : !pto.tile_buf<vec, 2x8x%s>, %s) outs(%%b : !pto.tile_buf<vec, 2x8x%s>)\n"
        "    pto.tstore ins(%%b : !pto.tile_buf<vec, 2x8x%s>) outs(%%pout : !pto.partition_tensor_view<2x8x%s>)\n"
        "    return\n"
        "  }\n"
        "}\n";
    char *text = malloc(4096);
    cr_assert_not_null(text);
    snprintf(text, 4096, fmt, dt, dst_dt, scalar_arg ? ", %s: " : "", scalar_arg ? dt : "", scalar_arg ? "1.0" : factor,
             dt, dt, dst_dt, dt, dt, dst_dt, dst_dt, dt, dst_dt, dt, dt, scalar_arg ? "%s" : "%f", dt, dt, dst_dt,
             dst_dt, dst_dt);
    return text;
}

static pto_module *compile_ok(const char *text, const char *target) {
    pto_module *m = NULL;
    pto_diags *d = NULL;
    pto_status s = pto_compile(text, strlen(text), "k.pto", target, NULL, 0, &m, &d);
    cr_assert_eq(s, PTO_OK, "compile failed: %s", pto_diags_text(d));
    cr_assert_not_null(m);
    pto_diags_free(d);
    return m;
}

Test(api, version_and_names) {
    cr_assert_eq(pto_api_version(), PTO_API_VERSION);
    cr_assert_str_eq(pto_version(), PTO_VERSION);
    cr_assert_str_eq(pto_dtype_name(PTO_BF16), "bf16");
    cr_assert_str_eq(pto_dtype_name(PTO_U8), "ui8");
    cr_assert_str_eq(pto_dtype_name(99), "?");
    cr_assert_eq(pto_dtype_size(PTO_F16), 2);
    cr_assert_eq(pto_dtype_size(PTO_INDEX), 8);
    cr_assert_str_eq(pto_dtype_name(PTO_F8E4M3FN), "f8E4M3FN"); /* the 8-bit floats: one byte each */
    cr_assert_str_eq(pto_dtype_name(PTO_F8E8M0FNU), "f8E8M0FNU");
    cr_assert_str_eq(pto_dtype_name(PTO_F8E5M2FNUZ), "f8E5M2FNUZ");
    cr_assert_eq(pto_dtype_size(PTO_F8E5M2), 1);
    cr_assert_eq(pto_dtype_size(0), 0);
    cr_assert_str_eq(pto_status_name(PTO_ERR_RUN), "run-time error");
}

Test(api, compile_lists_functions_and_arguments) {
    char *text = scale_text("f32", "f32", "%s", true);
    pto_module *m = compile_ok(text, "a5");
    cr_assert_str_eq(pto_module_target(m), "a5");
    cr_assert_eq(pto_module_func_count(m), 1);
    cr_assert_str_eq(pto_module_func_name(m, 0), "scale");
    cr_assert_null(pto_module_func_name(m, 1));
    cr_assert_str_eq(pto_module_default_entry(m), "scale");
    cr_assert_eq(pto_module_arg_count(m, NULL), 3);
    cr_assert_eq(pto_module_arg_count(m, "@scale"), 3);
    cr_assert_eq(pto_module_arg_count(m, "nosuch"), -1);
    pto_arg a;
    cr_assert_eq(pto_module_arg(m, NULL, 0, &a), PTO_OK);
    cr_assert_str_eq(a.name, "arg0");
    cr_assert_eq(a.kind, PTO_ARG_GM);
    cr_assert_eq(a.dtype, PTO_F32);
    cr_assert_eq(pto_module_arg(m, NULL, 2, &a), PTO_OK);
    cr_assert_str_eq(a.name, "s");
    cr_assert_eq(a.kind, PTO_ARG_SCALAR);
    cr_assert_eq(pto_module_arg(m, NULL, 3, &a), PTO_ERR_ARGUMENT);
    pto_module_free(m);
    free(text);
}

Test(api, compile_error_has_rule_location_and_end_column) {
    char *text = scale_text("f32", "i32", "2.0", false);
    pto_module *m = (pto_module *)1;
    pto_diags *d = NULL;
    cr_assert_eq(pto_compile(text, strlen(text), "bad.pto", NULL, NULL, 0, &m, &d), PTO_ERR_COMPILE);
    cr_assert_null(m);
    cr_assert_eq(pto_diags_count(d), 1, "%s", pto_diags_text(d));
    cr_assert_eq(pto_diags_errors(d), 1);
    pto_diagnostic g;
    cr_assert_eq(pto_diags_get(d, 0, &g), PTO_OK);
    cr_assert_str_eq(g.file, "bad.pto");
    cr_assert_str_eq(g.rule, "TMULS.dtype-match");
    cr_assert_eq(g.severity, PTO_SEV_ERROR);
    cr_assert_eq(g.line, 15);
    cr_assert_eq(g.end_line, 15);
    cr_assert_gt(g.end_column, g.column);
    cr_assert_not_null(strstr(pto_diags_text(d), "bad.pto:15:"));
    cr_assert_eq(pto_diags_get(d, 1, &g), PTO_ERR_ARGUMENT);
    pto_diags_free(d);
    free(text);
}

Test(api, compile_bad_target_and_missing_file) {
    pto_module *m;
    pto_diags *d;
    cr_assert_eq(pto_compile("", 0, NULL, "a9", NULL, 0, &m, &d), PTO_ERR_ARGUMENT);
    pto_diagnostic g;
    cr_assert_eq(pto_diags_get(d, 0, &g), PTO_OK);
    cr_assert_not_null(strstr(g.message, "unknown target 'a9'"));
    pto_diags_free(d);
    cr_assert_eq(pto_compile_file("/nonexistent/k.pto", NULL, NULL, 0, &m, &d), PTO_ERR_IO);
    cr_assert_null(m);
    cr_assert_eq(pto_diags_get(d, 0, &g), PTO_OK);
    cr_assert_str_eq(g.file, "/nonexistent/k.pto");
    cr_assert_eq(g.line, 0);
    pto_diags_free(d);
    cr_assert_eq(pto_compile("x", 1, NULL, NULL, NULL, 0, NULL, NULL), PTO_ERR_ARGUMENT);
    pto_diags_free(NULL);
    pto_module_free(NULL);
}

Test(api, compile_file_runs_sample_bit_exactly) {
    pto_module *m;
    cr_assert_eq(pto_compile_file("samples/tmuls_f32.pto", NULL, NULL, 0, &m, NULL), PTO_OK);
    float in[1024], want[1024];
    FILE *f = fopen("samples/data/tmuls_f32.in.bin", "rb");
    cr_assert_not_null(f);
    cr_assert_eq(fread(in, sizeof in, 1, f), 1);
    fclose(f);
    f = fopen("samples/data/tmuls_f32.expect.bin", "rb");
    cr_assert_not_null(f);
    cr_assert_eq(fread(want, sizeof want, 1, f), 1);
    fclose(f);
    pto_run *r;
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, 0, &r), PTO_OK);
    int64_t shape[2] = {32, 32};
    cr_assert_eq(pto_run_bind(r, "arg0", in, sizeof in, PTO_F32, 2, shape), PTO_OK);
    memset(in, 0, sizeof in); /* bound inputs are copies */
    pto_array out;
    cr_assert_eq(pto_run_fetch(r, "arg1", &out), PTO_ERR_STATE);
    cr_assert_eq(pto_run_execute(r), PTO_OK, "%s", pto_run_message(r));
    cr_assert_eq(pto_run_execute(r), PTO_ERR_STATE);
    cr_assert_gt(pto_run_steps(r), 0);
    cr_assert_eq(pto_run_fetch(r, "arg1", &out), PTO_OK);
    cr_assert_eq(out.dtype, PTO_F32);
    cr_assert_eq(out.rank, 2);
    cr_assert_eq(out.shape[0], 32);
    cr_assert_eq(out.nbytes, sizeof want);
    cr_assert_eq(memcmp(out.data, want, sizeof want), 0);
    pto_array_free(&out);
    cr_assert_null(out.data);
    pto_run_free(r);
    pto_module_free(m);
}

Test(api, binding_errors) {
    char *text = scale_text("f32", "f32", "2.0", false);
    pto_module *m = compile_ok(text, NULL);
    pto_run *r;
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, 0, &r), PTO_OK);
    double d[16] = {0};
    float x[16] = {0};
    int64_t shape[2] = {2, 8};
    cr_assert_eq(pto_run_bind(r, "arg0", d, sizeof d, PTO_I64, 2, shape), PTO_ERR_BINDING);
    cr_assert_not_null(strstr(pto_run_message(r), "holds f32 elements but the array is i64"), "%s", pto_run_message(r));
    cr_assert_eq(pto_run_bind(r, "arg0", x, sizeof x - 4, PTO_F32, 2, shape), PTO_ERR_BINDING);
    cr_assert_eq(pto_run_bind(r, "nosuch", x, sizeof x, PTO_F32, 2, shape), PTO_ERR_BINDING);
    cr_assert_not_null(strstr(pto_run_message(r), "nosuch"));
    cr_assert_eq(pto_run_bind(r, "arg0", x, sizeof x, PTO_F32, 2, shape), PTO_OK);
    cr_assert_eq(pto_run_bind(r, "%arg0", x, sizeof x, PTO_F32, 2, shape), PTO_ERR_BINDING);
    cr_assert_not_null(strstr(pto_run_message(r), "already has its input"));
    cr_assert_eq(pto_run_set_scalar_i64(r, "arg1", 3), PTO_ERR_BINDING);
    pto_arg a;
    cr_assert_eq(pto_run_binding(r, "b", &a), PTO_OK);
    cr_assert_eq(a.kind, PTO_ARG_TILE);
    cr_assert_eq(a.shape[0], 2);
    cr_assert_eq(a.shape[1], 8);
    cr_assert_eq(pto_run_binding(r, "nosuch", &a), PTO_ERR_BINDING);
    cr_assert_eq(pto_run_set_scalar_f64(r, "arg1", 1.0), PTO_ERR_BINDING);
    cr_assert_not_null(strstr(pto_run_message(r), "not a scalar argument"), "%s", pto_run_message(r));
    /* a tile's valid region comes back after the run, rows x cols */
    cr_assert_eq(pto_run_execute(r), PTO_OK, "%s", pto_run_message(r));
    pto_array t;
    cr_assert_eq(pto_run_fetch(r, "b", &t), PTO_OK);
    cr_assert_eq(t.rank, 2);
    cr_assert_eq(t.shape[0], 2);
    cr_assert_eq(t.shape[1], 8);
    cr_assert_eq(t.nbytes, 16 * sizeof(float));
    pto_array_free(&t);
    cr_assert_eq(pto_run_fetch(r, "nosuch", &t), PTO_ERR_BINDING);
    cr_assert_null(t.data);
    pto_run_free(r);
    cr_assert_eq(pto_run_new(m, "nosuch", 1, 0, 0, &r), PTO_ERR_ARGUMENT);
    cr_assert_not_null(strstr(pto_run_message(r), "no function @nosuch"));
    pto_run_free(r);
    cr_assert_eq(pto_run_new(m, NULL, 70000, 0, 0, &r), PTO_ERR_ARGUMENT);
    pto_run_free(r);
    pto_module_free(m);
    free(text);
}

Test(api, scalars_round_once_and_check_range) {
    char *text = scale_text("f32", "f32", "", true);
    pto_module *m = compile_ok(text, NULL);
    float x[16], want[16];
    for (int i = 0; i < 16; i++) x[i] = (float)i - 7.5f;
    int64_t shape[2] = {2, 8};
    pto_run *r;
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, 0, &r), PTO_OK);
    cr_assert_eq(pto_run_bind(r, "arg0", x, sizeof x, PTO_F32, 2, shape), PTO_OK);
    cr_assert_eq(pto_run_execute(r), PTO_ERR_RUN); /* the scalar was never set */
    pto_run_free(r);
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, 0, &r), PTO_OK);
    cr_assert_eq(pto_run_bind(r, "arg0", x, sizeof x, PTO_F32, 2, shape), PTO_OK);
    cr_assert_eq(pto_run_set_scalar_f64(r, "s", 0.1), PTO_OK);
    cr_assert_eq(pto_run_execute(r), PTO_OK, "%s", pto_run_message(r));
    pto_array out;
    cr_assert_eq(pto_run_fetch(r, "arg1", &out), PTO_OK);
    for (int i = 0; i < 16; i++) want[i] = x[i] * 0.1f;
    cr_assert_eq(memcmp(out.data, want, sizeof want), 0);
    pto_array_free(&out);
    pto_run_free(r);
    pto_module_free(m);
    free(text);

    /* an index scalar: whole numbers only */
    static const char idx[] = "module {\n  func.func @k(%arg0: !pto.ptr<i32>, %n: index) {\n    return\n  }\n}\n";
    m = compile_ok(idx, NULL);
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, 0, &r), PTO_OK);
    cr_assert_eq(pto_run_set_scalar_f64(r, "n", 2.5), PTO_ERR_BINDING);
    cr_assert_eq(pto_run_set_scalar_f64(r, "n", 4.0), PTO_OK);
    cr_assert_eq(pto_run_set_scalar_text(r, "n", "5"), PTO_ERR_BINDING); /* already set */
    pto_run_free(r);
    pto_module_free(m);
}

Test(api, blocks_and_run_time_errors) {
    pto_module *m;
    cr_assert_eq(pto_compile_file("tests/run-cli/blocks.pto", NULL, NULL, 0, &m, NULL), PTO_OK);
    pto_run *r;
    cr_assert_eq(pto_run_new(m, NULL, 3, 0, 0, &r), PTO_OK);
    cr_assert_eq(pto_run_execute(r), PTO_OK, "%s", pto_run_message(r));
    pto_array out;
    cr_assert_eq(pto_run_fetch(r, "arg0", &out), PTO_OK);
    cr_assert_eq(out.nbytes, 3 * 64 * sizeof(float));
    const float *v = out.data;
    for (int i = 0; i < 192; i++) cr_assert_eq(v[i], (float)(i / 64 + 1), "element %d", i);
    pto_array_free(&out);
    pto_run_free(r);
    pto_module_free(m);

    cr_assert_eq(pto_compile_file("tests/run-cli/divzero.pto", NULL, NULL, 0, &m, NULL), PTO_OK);
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, 0, &r), PTO_OK);
    cr_assert_eq(pto_run_set_scalar_i64(r, "n", 0), PTO_OK);
    cr_assert_eq(pto_run_execute(r), PTO_ERR_RUN);
    const pto_diags *d = pto_run_diagnostics(r);
    pto_diagnostic g;
    cr_assert_eq(pto_diags_get(d, 0, &g), PTO_OK);
    cr_assert_eq(g.line, 8);
    cr_assert_str_eq(g.file, "tests/run-cli/divzero.pto");
    cr_assert_not_null(strstr(pto_diags_text(d), "divzero.pto:8:"));
    cr_assert_eq(pto_run_fetch(r, "arg0", &out), PTO_ERR_STATE);
    pto_run_free(r);
    pto_module_free(m);
}

Test(api, trace_goes_to_run_output) {
    char *text = scale_text("f32", "f32", "2.0", false);
    pto_module *m = compile_ok(text, NULL);
    pto_run *r;
    cr_assert_eq(pto_run_new(m, NULL, 1, 0, PTO_RUN_TRACE, &r), PTO_OK);
    cr_assert_str_eq(pto_run_output(r), "");
    cr_assert_eq(pto_run_execute(r), PTO_OK);
    cr_assert_not_null(strstr(pto_run_output(r), "tmuls"));
    pto_run_free(r);
    pto_module_free(m);
    free(text);
}
