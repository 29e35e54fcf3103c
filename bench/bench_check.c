/* bench_check.c - the checkers' section: what --check-sync and --check-init cost against a plain
 * run of the same kernel (issue #14: "at most 3x slower than a plain run"), bench/README.md.
 *
 * The kernel is a correctly synchronised load / compute / store pipeline over GM, in an scf.for of
 * %n iterations: tload (MTE2) -> flag -> tadd, tmuls (V) -> flag -> tstore (MTE3) -> flag back to
 * MTE2 for the next iteration's load. Every mode runs the same program and must finish without a
 * report; each figure is the median of --samples runs of interp_run alone (lowering and binding
 * excluded), with a fresh Interp per run. */
#include "bench_run.h"

#include <stdlib.h>
#include <string.h>

static void gen_pipeline(Text *t, int rows, int cols) {
    const char *tile = "!pto.tile_buf<vec, %dx%dxf32>";
    char ty[64], pv[96];
    bench_fmt(ty, sizeof ty, tile, rows, cols);
    bench_fmt(pv, sizeof pv, "!pto.partition_tensor_view<%dx%dxf32>", rows, cols);
    text_printf(t,
                "module {\n"
                "  func.func @op_loop(%%a: !pto.ptr<f32>, %%o: !pto.ptr<f32>, %%n: index) attributes {pto.entry} {\n"
                "    %%c0 = arith.constant 0 : index\n"
                "    %%c1 = arith.constant 1 : index\n"
                "    %%r = arith.constant %d : index\n"
                "    %%c = arith.constant %d : index\n"
                "    %%k = arith.constant 0.5 : f32\n"
                "    %%va = pto.make_tensor_view %%a, shape = [%%r, %%c], strides = [%%c, %%c1] : !pto.tensor_view<?x?xf32>\n"
                "    %%vo = pto.make_tensor_view %%o, shape = [%%r, %%c], strides = [%%c, %%c1] : !pto.tensor_view<?x?xf32>\n"
                "    %%pa = pto.partition_view %%va, offsets = [%%c0, %%c0], sizes = [%%r, %%c] : !pto.tensor_view<?x?xf32> -> %s\n"
                "    %%po = pto.partition_view %%vo, offsets = [%%c0, %%c0], sizes = [%%r, %%c] : !pto.tensor_view<?x?xf32> -> %s\n"
                "    %%t = pto.alloc_tile : %s\n"
                "    %%d = pto.alloc_tile : %s\n"
                "    %%e = pto.alloc_tile : %s\n"
                "    pto.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]\n"
                "    scf.for %%i = %%c0 to %%n step %%c1 {\n"
                "      pto.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]\n"
                "      pto.tload ins(%%pa : %s) outs(%%t : %s)\n"
                "      pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
                "      pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
                "      pto.tadd ins(%%t, %%t : %s, %s) outs(%%d : %s)\n"
                "      pto.barrier <PIPE_V>\n"
                "      pto.tmuls ins(%%d, %%k : %s, f32) outs(%%e : %s)\n"
                "      pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
                "      pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
                "      pto.tstore ins(%%e : %s) outs(%%po : %s)\n"
                "      pto.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]\n"
                "    }\n"
                "    pto.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]\n"
                "    return\n"
                "  }\n"
                "}\n",
                rows, cols, pv, pv, ty, ty, ty, pv, ty, ty, ty, ty, ty, ty, ty, pv);
}

enum { MODE_PLAIN, MODE_SYNC, MODE_INIT, MODE_BOTH, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = {"plain", "--check-sync", "--check-init", "both"};

/* One run of @op_loop in `mode`; false (diagnostics printed) when it fails or reports anything. */
static bool run_mode(Compiled *c, int mode, const DataArray *in, int64_t n, double *ns) {
    InterpOptions io = {.target = c->target, .entry = "op_loop", .max_steps = UINT64_C(1) << 60, .out = stdout,
                        .check_sync = mode == MODE_SYNC || mode == MODE_BOTH ? 1 : 0,
                        .check_init = mode == MODE_INIT || mode == MODE_BOTH};
    c->diags.count = c->diags.errors = c->diags.warnings = 0;
    Interp *ip = interp_create(c->module, &io, &c->diags);
    bool ok = ip != NULL;
    char err[256], num[32];
    InterpBinding b;
    snprintf(num, sizeof num, "%lld", (long long)n);
    ok = ok && interp_lookup(ip, "n", &b, err, sizeof err) && interp_bind_scalar(ip, &b, num, err, sizeof err);
    ok = ok && interp_lookup(ip, "a", &b, err, sizeof err) && interp_bind_gm(ip, &b, in, err, sizeof err);
    ok = ok && interp_lookup(ip, "o", &b, err, sizeof err) && interp_bind_gm(ip, &b, in, err, sizeof err);
    if (ip && ok) {
        int64_t t0 = bench_now_ns();
        ok = interp_run(ip) && c->diags.count == 0;
        *ns = (double)(bench_now_ns() - t0);
    }
    if (!ok) {
        fprintf(stderr, "pto-bench: checkers section, %s run failed\n", mode_names[mode]);
        diag_print_text(stderr, &c->diags);
    }
    interp_destroy(ip);
    return ok;
}

bool bench_checkers(const BenchOptions *o, GoalResult *goals) {
    printf("== Checkers: --check-sync and --check-init against a plain run (interp_run, same kernel) ==\n");
    printf("  kernel: scf.for of n iterations of tload -> tadd, tmuls -> tstore, f32, with set/wait flags\n");
    printf("  %-8s %6s %12s %14s %8s %14s %8s %10s\n", "tile", "n", "plain ms", "--check-sync", "ratio", "--check-init",
           "ratio", "both");
    static const int shapes[][2] = {{16, 16}, {64, 64}, {128, 128}};
    double worst = 0.0;
    char worst_at[32] = "";
    bool ok = true;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && ok; s++) {
        int rows = shapes[s][0], cols = shapes[s][1];
        Text prog = {0};
        gen_pipeline(&prog, rows, cols);
        Compiled c;
        char what[48];
        bench_fmt(what, sizeof what, "<bench checkers %dx%d>", rows, cols);
        ok = compile_program(&c, prog.s, prog.len, what, TARGET_A2A3, o->verbose);
        text_free(&prog);
        if (!ok) break;
        DataArray in;
        char err[128];
        ok = data_array_alloc(&in, DT_F32, rows, cols, err, sizeof err);
        for (int64_t i = 0; ok && i < in.count; i++) ((float *)in.data)[i] = (float)(i % 97) * 0.25f;
        /* about the same work per shape, a few ms a run: a run of about 1 ms (2M elements) let one
         * preemption move a 16x16 median by a third */
        int64_t n = (int64_t)(8000000 / ((int64_t)rows * cols)) + 200;
        double med[MODE_COUNT] = {0};
        int samples = o->samples < 7 ? o->samples : 7;
        double *v = calloc((size_t)samples, sizeof *v);
        if (!v) abort();
        for (int m = 0; m < MODE_COUNT && ok; m++) {
            double ns;
            ok = run_mode(&c, m, &in, n, &ns); /* warm-up */
            for (int k = 0; k < samples && ok; k++) ok = run_mode(&c, m, &in, n, &v[k]);
            if (ok) med[m] = bench_median(v, samples);
        }
        free(v);
        if (ok) {
            double rs = med[MODE_SYNC] / med[MODE_PLAIN], ri = med[MODE_INIT] / med[MODE_PLAIN];
            printf("  %3dx%-4d %6lld %12.2f %14.2f %7.2fx %14.2f %7.2fx %9.2fx\n", rows, cols, (long long)n,
                   med[MODE_PLAIN] / 1e6, med[MODE_SYNC] / 1e6, rs, med[MODE_INIT] / 1e6, ri,
                   med[MODE_BOTH] / med[MODE_PLAIN]);
            if (rs > worst) worst = rs, bench_fmt(worst_at, sizeof worst_at, "%dx%d", rows, cols);
        }
        data_array_free(&in);
        compiled_free(&c);
    }
    if (!ok) {
        printf("ERROR (see stderr)\n\n");
        return false;
    }
    printf("  (ms: median of %d runs of interp_run; ratio: against the plain run)\n\n", o->samples < 7 ? o->samples : 7);
    GoalResult *g = &goals[GOAL_CHECK_SYNC];
    g->measured = true;
    g->met = worst <= 3.0;
    snprintf(g->figure, sizeof g->figure, "worst %.2fx (%s)", worst, worst_at);
    return true;
}
