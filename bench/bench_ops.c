/* bench_ops.c - the seed-op table and the loop-dispatch figure (bench/README.md).
 *
 * Every case is a generated .pto module with two functions that allocate the same tiles:
 *   @op_loop(%n: index)     scf.for %i = 0 to %n { <the op> }
 *   @empty_loop(%n: index)  scf.for %i = 0 to %n { }
 * It is parsed and verified once (parse_module, verify_module); each sample then goes through
 * interp_create (lowering), binds %n and the input tiles, and times interp_run alone. The op's cost
 * is (median op_loop time - median empty_loop time) / N: loop overhead, frame set-up and input
 * filling are the same in both and cancel. A fresh Interp is needed per sample because
 * interp_run refuses to run twice. */
#define _GNU_SOURCE
#include "bench.h"

#include <math.h>
#include <strings.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "parser.h"
#include "verifier.h"
#include "bench_run.h"

/* ---- cases ---------------------------------------------------------------------------------------- */

typedef enum OpKind { K_TMULS, K_TEXPANDS, K_TROWPROD, K_TROWEXPANDMUL, K_TROWEXPANDSUB, K_COUNT } OpKind;

static const char *const op_names[K_COUNT] = {"TMULS", "TEXPANDS", "TROWPROD", "TROWEXPANDMUL", "TROWEXPANDSUB"};
static const char *const op_mnemonics[K_COUNT] = {"tmuls", "texpands", "trowprod", "trowexpandmul",
                                                  "trowexpandsub"};

typedef struct Shape {
    int rows, cols;
} Shape;

static const Shape shapes[] = {{16, 16}, {64, 64}, {1, 16384}, {2048, 8}, {63, 64}};
static const DType dtypes[] = {DT_F32, DT_F16, DT_I32, DT_I16};

#define N_SHAPES ((int)(sizeof shapes / sizeof *shapes))
#define N_DTYPES ((int)(sizeof dtypes / sizeof *dtypes))

/* The seeds' dtype lists (verifier/rules_seed.c): TROWEXPANDSUB takes only f16 and f32 on both
 * targets, so its integer cases cannot run anywhere; every other combination is legal on A2A3. */
static bool legal_on_a2a3(OpKind k, DType dt) { return !(k == K_TROWEXPANDSUB && dtype_is_int(dt)); }

static bool uses_src(OpKind k) { return k != K_TEXPANDS; }
static bool uses_dst(OpKind k) { return k != K_TROWPROD; }
static bool uses_col(OpKind k) { return k == K_TROWPROD || k == K_TROWEXPANDMUL || k == K_TROWEXPANDSUB; }
static bool uses_scalar(OpKind k) { return k == K_TMULS || k == K_TEXPANDS; }

static int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/* A row-major tile holding `r` x `c` valid elements: columns padded to 32 bytes per row (the
 * none_box rule), valid= given when padded (f16 / i16 2048x8 lives in a 2048x16 tile). */
static void full_type(char *buf, size_t len, DType dt, int r, int c) {
    int64_t per = 32 / (int64_t)dtype_size(dt), pc = round_up(c, per);
    if (pc == c) snprintf(buf, len, "!pto.tile_buf<vec, %dx%dx%s>", r, c, dtype_name(dt));
    else snprintf(buf, len, "!pto.tile_buf<vec, %dx%lldx%s, valid=%dx%d>", r, (long long)pc, dtype_name(dt), r, c);
}

/* A col_major r x 1 tile (one value per row), rows padded to 32 bytes. */
static void col_type(char *buf, size_t len, DType dt, int r) {
    int64_t per = 32 / (int64_t)dtype_size(dt), pr = round_up(r, per);
    if (pr == r) snprintf(buf, len, "!pto.tile_buf<vec, %dx1x%s, blayout=col_major>", r, dtype_name(dt));
    else snprintf(buf, len, "!pto.tile_buf<vec, %lldx1x%s, blayout=col_major, valid=%dx1>", (long long)pr,
                  dtype_name(dt), r);
}

/* Footprint in bytes of every tile a case allocates (must fit the UB). */
static int64_t case_footprint(OpKind k, DType dt, Shape s) {
    int64_t es = (int64_t)dtype_size(dt), per = 32 / es;
    int64_t full = s.rows * round_up(s.cols, per) * es, col = round_up(s.rows, per) * es;
    return (uses_src(k) ? full : 0) + (uses_dst(k) ? full : 0) + (uses_col(k) ? col : 0);
}

/* Bytes read + written over the valid region by one execution. */
static int64_t bytes_touched(OpKind k, DType dt, Shape s) {
    int64_t es = (int64_t)dtype_size(dt), area = (int64_t)s.rows * s.cols * es, col = (int64_t)s.rows * es;
    switch (k) {
    case K_TMULS: return 2 * area;
    case K_TEXPANDS: return area;
    case K_TROWPROD: return area + col;
    default: return 2 * area + col;
    }
}

/* Appends one function: allocations, then the loop with or without the op. */
static void gen_function(Text *t, OpKind k, DType dt, Shape s, const char *name, bool with_op) {
    char full[128], col[128];
    full_type(full, sizeof full, dt, s.rows, s.cols);
    col_type(col, sizeof col, dt, s.rows);
    const char *sty = dtype_is_float(dt) ? "f32" : "i32";
    text_printf(t, "  func.func @%s(%%n: index) {\n", name);
    text_printf(t, "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n");
    if (uses_scalar(k)) text_printf(t, "    %%s = arith.constant %s : %s\n", dtype_is_float(dt) ? "1.5" : "3", sty);
    if (uses_src(k)) text_printf(t, "    %%src = pto.alloc_tile : %s\n", full);
    if (uses_col(k)) text_printf(t, "    %%col = pto.alloc_tile : %s\n", col);
    if (uses_dst(k)) text_printf(t, "    %%dst = pto.alloc_tile : %s\n", full);
    text_printf(t, "    scf.for %%i = %%c0 to %%n step %%c1 {\n");
    if (with_op) {
        const char *m = op_mnemonics[k];
        switch (k) {
        case K_TMULS:
            text_printf(t, "      pto.%s ins(%%src, %%s : %s, %s) outs(%%dst : %s)\n", m, full, sty, full);
            break;
        case K_TEXPANDS: text_printf(t, "      pto.%s ins(%%s : %s) outs(%%dst : %s)\n", m, sty, full); break;
        case K_TROWPROD: text_printf(t, "      pto.%s ins(%%src : %s) outs(%%col : %s)\n", m, full, col); break;
        default:
            text_printf(t, "      pto.%s ins(%%src, %%col : %s, %s) outs(%%dst : %s)\n", m, full, col, full);
            break;
        }
    }
    text_printf(t, "    }\n    return\n  }\n");
}

static void gen_case_program(Text *t, OpKind k, DType dt, Shape s) {
    text_printf(t, "// pto-bench: %s %s %dx%d\nmodule {\n", op_names[k], dtype_name(dt), s.rows, s.cols);
    gen_function(t, k, dt, s, "op_loop", true);
    gen_function(t, k, dt, s, "empty_loop", false);
    text_printf(t, "}\n");
}

/* ---- input data -------------------------------------------------------------------------------------- */

/* Values near 1 (floats) or in 1..9 (integers): no denormals, Inf or NaN even in a 16384-long
 * product, so timings measure the normal path. */
static bool fill_array(DataArray *a, DType dt, int rows, int cols) {
    char err[256];
    if (!data_array_alloc(a, dt, rows, cols, err, sizeof err)) {
        fprintf(stderr, "pto-bench: %s\n", err);
        return false;
    }
    for (int64_t i = 0; i < a->count; i++) {
        float f = 1.0f + (float)((i * 37) % 64 - 32) / 1024.0f;
        int32_t v = (int32_t)((i * 7) % 9 + 1);
        switch (dt) {
        case DT_F32: ((float *)a->data)[i] = f; break;
        case DT_F16: ((uint16_t *)a->data)[i] = f32_to_f16_bits(f); break;
        case DT_I32: ((int32_t *)a->data)[i] = v; break;
        case DT_I16: ((int16_t *)a->data)[i] = (int16_t)v; break;
        default: return false;
        }
    }
    return true;
}

/* ---- memcpy reference ----------------------------------------------------------------------------- */

/* Called through a volatile pointer so the compiler can neither inline nor drop the copies. */
static void *(*volatile memcpy_fn)(void *, const void *, size_t) = memcpy;
static volatile unsigned memcpy_sink;

/* memcpy of `bytes` bytes between two warm, distinct, 64-byte aligned buffers; its samples are
 * taken between the interpreter's samples so both see the same machine conditions. */

static double memcpy_once(MemcpyRef *m, bool *clean) {
    long pre = bench_preemptions();
    int64_t t0 = bench_now_ns();
    for (int64_t r = 0; r < m->reps; r++) memcpy_fn(m->dst, m->src, m->bytes);
    double ns = (double)(bench_now_ns() - t0) / (double)m->reps;
    *clean = bench_preemptions() == pre;
    memcpy_sink += m->dst[m->bytes ? m->bytes - 1 : 0];
    return ns;
}

/* One memcpy sample not disturbed by preemption (bounded retries; the last one otherwise). */
static double memcpy_sample(MemcpyRef *m, int *noisy) {
    bool clean = false;
    double ns = 0.0;
    for (int attempt = 0; attempt < BENCH_RETRIES && !clean; attempt++) ns = memcpy_once(m, &clean);
    if (!clean) ++*noisy;
    return ns;
}

void memcpy_init(MemcpyRef *m, size_t bytes, double target_ms) {
    size_t cap = (bytes + 63) / 64 * 64;
    if (cap == 0) cap = 64;
    m->src = aligned_alloc(64, cap);
    m->dst = aligned_alloc(64, cap);
    if (!m->src || !m->dst) abort();
    for (size_t i = 0; i < cap; i++) m->src[i] = (unsigned char)(i * 131 + 7), m->dst[i] = (unsigned char)i;
    m->bytes = bytes;
    m->reps = 16;
    for (int round = 0; round < 2; round++) { /* warm-up + calibration */
        bool clean;
        double per = memcpy_once(m, &clean);
        double want = target_ms * 1e6 / (per > 1.0 ? per : 1.0);
        m->reps = want < 16 ? 16 : (int64_t)want;
    }
}

void memcpy_free(MemcpyRef *m) {
    free(m->src);
    free(m->dst);
}

/* ---- the bound of one product chain ------------------------------------------------------------------ */

/* SPEC 2.3: TROWPROD multiplies each row left to right, rounding after every step, so a row of n
 * elements is a chain of n dependent multiplies whatever the kernel does; only rows, not columns,
 * can run in parallel. For a single row the chain is the floor of the op's time: this times the
 * bare chain as plain C (one f32 multiply per step, no loads to wait for beyond the first pass,
 * factors near 1 so nothing goes subnormal), the fastest of `samples`. f16/bf16 also round each
 * step, so for them this is a lower bound too. */
static volatile float chain_sink;

static double chain_once(const float *x, int64_t n, int64_t reps, bool *clean) {
    long pre = bench_preemptions();
    int64_t t0 = bench_now_ns();
    float p = 1.0f;
    for (int64_t r = 0; r < reps; r++)
        for (int64_t i = 0; i < n; i++) p *= x[i]; /* -ffp-contract=off, no fast-math: stays a chain */
    double ns = (double)(bench_now_ns() - t0) / (double)reps;
    chain_sink = p;
    *clean = bench_preemptions() == pre;
    return ns;
}

static double chain_ns(int64_t n, double target_ms, int samples) {
    float *x = malloc((size_t)n * sizeof *x);
    double *t = calloc((size_t)samples, sizeof *t);
    if (!x || !t) abort();
    for (int64_t i = 0; i < n; i++) x[i] = (i & 1) ? 1.0000001f : 0.9999999f;
    bool clean;
    int64_t reps = 1;
    for (int round = 0; round < 2; round++) { /* warm-up + calibration */
        double per = chain_once(x, n, reps, &clean);
        double want = target_ms * 1e6 / (per > 1.0 ? per : 1.0);
        reps = want < 1 ? 1 : (int64_t)want;
    }
    for (int i = 0; i < samples; i++) {
        clean = false;
        for (int attempt = 0; attempt < BENCH_RETRIES && !clean; attempt++) t[i] = chain_once(x, n, reps, &clean);
    }
    double fastest = t[0]; /* a floor: the fastest sample, not the median (noise only adds time) */
    for (int i = 1; i < samples; i++)
        if (t[i] < fastest) fastest = t[i];
    free(t);
    free(x);
    return fastest;
}

/* ---- running a compiled case ------------------------------------------------------------------------ */


static void print_diag_list(DiagList *d) {
    diag_sort(d);
    diag_print_text(stderr, d);
}

/* Parses and verifies `text`; false (diagnostics printed) when the program is rejected. Warnings
 * count as rejection too: a benchmark program must be clean. */
bool compile_program(Compiled *c, const char *text, size_t len, const char *what, Target target, bool verbose) {
    return compile_program_ex(c, text, len, what, target, verbose, false);
}

bool compile_program_ex(Compiled *c, const char *text, size_t len, const char *what, Target target, bool verbose,
                        bool quiet) {
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    diag_init(&c->diags, c->arena);
    c->target = target;
    SourceFile *f = source_file_from_string(c->arena, what, text, len);
    c->module = parse_module(c->arena, f, &c->diags);
    if (c->module && !c->diags.errors) {
        VerifyOptions vo = {.target = target, .target_given = true, .entry = "op_loop"};
        verify_module(c->module, &vo, &c->diags);
    }
    if (!c->module || c->diags.errors || c->diags.warnings) {
        if (quiet) return false;
        fprintf(stderr, "pto-bench: the generated program %s was rejected:\n", what);
        print_diag_list(&c->diags);
        if (verbose) fprintf(stderr, "---- program ----\n%.*s\n", (int)len, text);
        return false;
    }
    return true;
}

void compiled_free(Compiled *c) {
    data_array_free(&c->src);
    data_array_free(&c->col);
    for (int i = 0; i < c->n_extra; i++) data_array_free(&c->extra[i]);
    arena_free(c->arena);
    c->arena = NULL;
}

static int64_t thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double last_cpu_ns; /* thread CPU time of the last timed interp_run */

/* One run of `entry` with %n = n: lowering and binding untimed, interp_run timed. *clean (when
 * given) tells whether the run went without involuntary context switches. */
static bool run_once(Compiled *c, const char *entry, int64_t n, double *ns, uint64_t *steps, bool *clean) {
    InterpOptions io = {.target = c->target, .entry = entry, .max_steps = UINT64_C(1) << 60, .out = stdout};
    c->diags.count = c->diags.errors = c->diags.warnings = 0;
    Interp *ip = interp_create(c->module, &io, &c->diags);
    if (!ip) {
        print_diag_list(&c->diags);
        return false;
    }
    char err[256], num[32];
    InterpBinding b;
    bool ok = interp_lookup(ip, "n", &b, err, sizeof err);
    snprintf(num, sizeof num, "%lld", (long long)n);
    ok = ok && interp_bind_scalar(ip, &b, num, err, sizeof err);
    if (ok && c->has_src) ok = interp_lookup(ip, "src", &b, err, sizeof err) && interp_bind_tile(ip, &b, &c->src, err, sizeof err);
    if (ok && c->has_col) ok = interp_lookup(ip, "col", &b, err, sizeof err) && interp_bind_tile(ip, &b, &c->col, err, sizeof err);
    for (int i = 0; ok && i < c->n_extra; i++)
        ok = interp_lookup(ip, c->extra_name[i], &b, err, sizeof err) && interp_bind_tile(ip, &b, &c->extra[i], err, sizeof err);
    if (!ok) {
        fprintf(stderr, "pto-bench: binding inputs of @%s: %s\n", entry, err);
        interp_destroy(ip);
        return false;
    }
    long pre = bench_preemptions();
    int64_t c0 = thread_cpu_ns(), t0 = bench_now_ns();
    ok = interp_run(ip);
    int64_t t1 = bench_now_ns(), c1 = thread_cpu_ns();
    last_cpu_ns = (double)(c1 - c0);
    if (clean) *clean = bench_preemptions() == pre;
    if (!ok) print_diag_list(&c->diags);
    *ns = (double)(t1 - t0);
    if (steps) *steps = interp_steps(ip);
    interp_destroy(ip);
    return ok;
}


/* One clean timed run (bounded retries; the last one otherwise, counted in *noisy). */
static bool run_sample(Compiled *c, const char *entry, int64_t n, double *ns, uint64_t *steps, int *noisy) {
    bool clean = false;
    for (int attempt = 0; attempt < BENCH_RETRIES && !clean; attempt++)
        if (!run_once(c, entry, n, ns, steps, &clean)) return false;
    if (!clean) ++*noisy;
    return true;
}

/* Times op_loop and empty_loop at `n` iterations (n <= 0: calibrated so one op_loop run takes
 * about target_ms). Samples alternate between the two functions and, when `mc` is given, a memcpy
 * sample (median in *mc_ns). */
bool time_loops(Compiled *c, int64_t n, double target_ms, int samples, MemcpyRef *mc, double *mc_ns,
                       LoopTiming *out) {
    double ns;
    uint64_t steps_op = 0, steps_base = 0;
    if (n <= 0) {
        /* warm-up and calibration: two rounds, the second at about the target */
        int64_t trial = 32;
        for (int round = 0; round < 2; round++) {
            if (!run_once(c, "op_loop", trial, &ns, NULL, NULL)) return false;
            double per = ns / (double)trial;
            double want = target_ms * 1e6 / (per > 1.0 ? per : 1.0);
            trial = want < 16 ? 16 : want > 2e7 ? 20000000 : (int64_t)want;
        }
        n = trial;
    } else if (!run_once(c, "op_loop", n, &ns, NULL, NULL)) { /* warm-up */
        return false;
    }
    double *op = calloc((size_t)samples, sizeof *op), *base = calloc((size_t)samples, sizeof *base);
    double *copy = calloc((size_t)samples, sizeof *copy), *cpu = calloc((size_t)samples, sizeof *cpu);
    if (!op || !base || !copy || !cpu) abort();
    bool ok = true;
    int noisy = 0;
    for (int s = 0; s < samples && ok; s++) {
        ok = run_sample(c, "op_loop", n, &op[s], &steps_op, &noisy);
        cpu[s] = last_cpu_ns;
        ok = ok && run_sample(c, "empty_loop", n, &base[s], &steps_base, &noisy);
        if (mc) copy[s] = memcpy_sample(mc, &noisy);
    }
    if (mc) *mc_ns = bench_median(copy, samples);
    free(copy);
    if (ok && steps_op != steps_base + (uint64_t)n) {
        fprintf(stderr, "pto-bench: @op_loop executed %llu steps, @empty_loop %llu, expected a difference of %lld\n",
                (unsigned long long)steps_op, (unsigned long long)steps_base, (long long)n);
        ok = false;
    }
    if (ok) {
        out->n = n;
        out->op_ns = bench_median(op, samples);
        out->base_ns = bench_median(base, samples);
        out->per_op_ns = (out->op_ns - out->base_ns) / (double)n;
        out->per_iter_ns = out->op_ns / (double)n;
        out->base_iter_ns = out->base_ns / (double)n;
        out->noisy = noisy;
        out->op_cpu_ns = bench_median(cpu, samples);
    }
    free(cpu);
    free(op);
    free(base);
    return ok;
}

/* ---- goals per case ------------------------------------------------------------------------------------ */

/* The ratio a case must reach and the goal line it counts for; 0 when no goal applies. Where
 * several goals cover a case the lowest threshold (the more specific relaxation) applies. */
static double case_goal(OpKind k, DType dt, Shape s, int *goal) {
    int64_t tile_bytes = (int64_t)s.rows * s.cols * (int64_t)dtype_size(dt);
    double g = 0.0;
    *goal = -1;
    if ((dt == DT_F32 || dt == DT_I32) && tile_bytes >= 16384) g = 0.5, *goal = GOAL_OPS_32BIT;
    if (dt == DT_F16 && tile_bytes >= 16384) g = 0.25, *goal = GOAL_OPS_F16;
    if (s.rows == 2048 && s.cols == 8 && (dt == DT_F32 || dt == DT_I32 || dt == DT_F16) && (g == 0.0 || g > 0.3))
        g = 0.3, *goal = GOAL_OPS_2048X8;
    if (k == K_TROWPROD && dt == DT_F32 && s.rows == 64 && s.cols == 64) g = 0.15, *goal = GOAL_TROWPROD_64;
    return g;
}

typedef struct GoalTally {
    int cases, met;
    double worst;
    char worst_case[96];
} GoalTally;

void fmt_bytes(char *buf, size_t len, int64_t b) {
    if (b >= 1024 && b % 1024 == 0) snprintf(buf, len, "%lldK", (long long)(b / 1024));
    else if (b >= 1024) snprintf(buf, len, "%.1fK", (double)b / 1024.0);
    else snprintf(buf, len, "%lld", (long long)b);
}

bool bench_seed_ops(const BenchOptions *o, GoalResult *goals) {
    printf("== Seed ops (target a2a3; interp_run of scf.for loops: op loop minus empty loop) ==\n");
    printf("%-14s %-5s %-8s %8s %9s %10s %8s %8s %7s  %s\n", "op", "dtype", "shape", "bytes", "N", "ns/op", "GB/s",
           "memcpy", "ratio", "goal");
    GoalTally tally[GOAL_COUNT];
    memset(tally, 0, sizeof tally);
    bool ok = true;
    int skipped = 0, noisy_rows = 0;
    char bounds[4][200]; /* one line per single-row TROWPROD case */
    int n_bounds = 0;
    for (int k = 0; k < K_COUNT; k++) {
        if (o->op_filter && !strcasestr(op_names[k], o->op_filter)) continue;
        for (int d = 0; d < N_DTYPES; d++) {
            DType dt = dtypes[d];
            if (!legal_on_a2a3((OpKind)k, dt)) {
                printf("%-14s %-5s %-8s  skipped: illegal on a2a3 and a5 (seed: f16 and f32 only)\n", op_names[k],
                       dtype_name(dt), "all");
                skipped++;
                continue;
            }
            for (int si = 0; si < N_SHAPES; si++) {
                Shape s = shapes[si];
                char shape[24];
                snprintf(shape, sizeof shape, "%dx%d", s.rows, s.cols);
                if (case_footprint((OpKind)k, dt, s) > buffer_capacity_bytes(TARGET_A2A3, LOC_VEC)) {
                    printf("%-14s %-5s %-8s  skipped: tiles exceed the a2a3 UB\n", op_names[k], dtype_name(dt), shape);
                    continue;
                }
                Text prog = {0};
                gen_case_program(&prog, (OpKind)k, dt, s);
                char what[64];
                snprintf(what, sizeof what, "<bench %s %s %s>", op_mnemonics[k], dtype_name(dt), shape);
                Compiled c;
                bool case_ok = compile_program(&c, prog.s, prog.len, what, TARGET_A2A3, o->verbose);
                text_free(&prog);
                if (case_ok && uses_src((OpKind)k)) {
                    case_ok = fill_array(&c.src, dt, s.rows, s.cols);
                    c.has_src = true;
                }
                if (case_ok && (k == K_TROWEXPANDMUL || k == K_TROWEXPANDSUB)) {
                    case_ok = fill_array(&c.col, dt, s.rows, 1);
                    c.has_col = true;
                }
                int64_t bytes = bytes_touched((OpKind)k, dt, s);
                LoopTiming lt;
                MemcpyRef mc;
                double mc_ns = 0.0;
                memcpy_init(&mc, (size_t)(bytes / 2), o->target_ms / 4);
                if (case_ok) case_ok = time_loops(&c, 0, o->target_ms, o->samples, &mc, &mc_ns, &lt);
                memcpy_free(&mc);
                compiled_free(&c);
                if (!case_ok) {
                    printf("%-14s %-5s %-8s  ERROR (see stderr)\n", op_names[k], dtype_name(dt), shape);
                    ok = false;
                    continue;
                }
                double per = lt.per_op_ns > 0.01 ? lt.per_op_ns : 0.01;
                double gbs = (double)bytes / per, mc_gbs = (double)bytes / mc_ns, ratio = mc_ns / per;
                int goal;
                double need = case_goal((OpKind)k, dt, s, &goal);
                char goal_text[32] = "-", bstr[32];
                double cap = 0.0; /* > 0: the ratio a single product chain allows */
                if (k == K_TROWPROD && s.rows == 1 && dtype_is_float(dt) && n_bounds < 4) {
                    double floor_ns = chain_ns(s.cols, o->target_ms, o->samples);
                    cap = mc_ns / floor_ns;
                    snprintf(bounds[n_bounds++], sizeof bounds[0],
                             "  TROWPROD %s %s: %d dependent multiplies, %.0f ns as bare C here -> at most %.3fx "
                             "memcpy (measured %.3fx)%s", dtype_name(dt), shape, s.cols, floor_ns, cap, ratio,
                             need > cap ? "; the goal is out of reach under SPEC 2.3" : "");
                }
                if (need > 0) {
                    bool met = ratio >= need;
                    snprintf(goal_text, sizeof goal_text, ">=%.2f %s", need, goal_mark(met));
                    GoalTally *g = &tally[goal];
                    if (g->cases == 0 || ratio / need < g->worst) {
                        g->worst = ratio / need;
                        snprintf(g->worst_case, sizeof g->worst_case, "%s %s %s: %.2fx%s", op_names[k], dtype_name(dt),
                                 shape, ratio, cap > 0.0 && cap < need ? " (chain bound below goal)" : "");
                    }
                    g->cases++;
                    g->met += met;
                }
                fmt_bytes(bstr, sizeof bstr, bytes);
                noisy_rows += lt.noisy > 0;
                printf("%-14s %-5s %-8s %8s %9lld %10.1f %8.2f %8.2f %7.3f  %s%s\n", op_names[k], dtype_name(dt), shape,
                       bstr, (long long)lt.n, lt.per_op_ns, gbs, mc_gbs, ratio, goal_text, lt.noisy ? "  ~" : "");
            }
        }
    }
    printf("bytes = read + written over the valid region per execution; GB/s = bytes / (ns/op); memcpy = GB/s of a\n"
           "memcpy of bytes/2 (same bytes touched) in this run; ratio = op GB/s / memcpy GB/s. f16/i16 2048x8 sits in a\n"
           "2048x16 tile (rows must be 32 bytes), 63-row and 1-row col_major operands are padded likewise.\n");
    if (skipped) printf("%d dtype row(s) skipped as illegal; i16 cases have no goal (reported only).\n", skipped);
    if (n_bounds) {
        printf("A one-row TROWPROD is one chain (SPEC 2.3: left to right, rounded at every step); its bare chain\n"
               "of f32 multiplies, timed in this run, bounds the ratio any kernel can reach (f16 also rounds per step):\n");
        for (int i = 0; i < n_bounds; i++) printf("%s\n", bounds[i]);
    }
    if (noisy_rows)
        printf("~ = %d row(s) kept a sample that was preempted on all %d attempts (busy machine): less reliable.\n",
               noisy_rows, BENCH_RETRIES);
    printf("\n");
    static const int ids[] = {GOAL_OPS_32BIT, GOAL_OPS_F16, GOAL_OPS_2048X8, GOAL_TROWPROD_64};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        GoalTally *g = &tally[ids[i]];
        GoalResult *r = &goals[ids[i]];
        if (!g->cases) continue;
        r->measured = true;
        r->met = g->met == g->cases;
        if (g->cases == 1) snprintf(r->figure, sizeof r->figure, "%s", g->worst_case);
        else snprintf(r->figure, sizeof r->figure, "%d of %d cases met; worst %s", g->met, g->cases, g->worst_case);
    }
    return ok;
}

/* ---- loop dispatch --------------------------------------------------------------------------------- */

bool bench_dispatch(const BenchOptions *o, GoalResult *goals) {
    const int64_t n = 1000000;
    printf("== Loop dispatch (scf.for of %lld iterations, 16x16 f32 TMULS body, interp_run) ==\n", (long long)n);
    Shape s = {16, 16};
    Text prog = {0};
    gen_case_program(&prog, K_TMULS, DT_F32, s);
    Compiled c;
    bool ok = compile_program(&c, prog.s, prog.len, "<bench dispatch>", TARGET_A2A3, o->verbose);
    text_free(&prog);
    if (ok) {
        ok = fill_array(&c.src, DT_F32, s.rows, s.cols);
        c.has_src = true;
    }
    LoopTiming lt;
    int samples = o->samples < 5 ? o->samples : 5;
    if (ok) ok = time_loops(&c, n, 0, samples, NULL, NULL, &lt);
    compiled_free(&c);
    if (!ok) {
        printf("ERROR (see stderr)\n\n");
        return false;
    }
    bool met = lt.per_iter_ns <= 60.0;
    printf("  %-44s %8.1f ns  [goal <= 60: %s]\n", "per iteration (loop + TMULS 16x16 f32)", lt.per_iter_ns,
           goal_mark(met));
    printf("  %-44s %8.1f ns\n", "per iteration of the empty loop", lt.base_iter_ns);
    printf("  %-44s %8.1f ns\n", "TMULS 16x16 f32 alone (difference)", lt.per_op_ns);
    printf("  %-44s %8.1f ns  (thread CPU time, for comparison on a busy machine)\n", "per iteration, CPU time",
           lt.op_cpu_ns / (double)n);
    printf("  whole run: %.1f ms (empty loop %.1f ms), median of %d%s\n\n", lt.op_ns / 1e6, lt.base_ns / 1e6, samples,
           lt.noisy ? "; ~ some samples were preempted on every attempt" : "");
    goals[GOAL_DISPATCH].measured = true;
    goals[GOAL_DISPATCH].met = met;
    snprintf(goals[GOAL_DISPATCH].figure, sizeof goals[GOAL_DISPATCH].figure,
             "%.1f ns/iteration (empty loop %.1f, TMULS %.1f)", lt.per_iter_ns, lt.base_iter_ns, lt.per_op_ns);
    return true;
}

/* ---- writing programs for profiling ------------------------------------------------------------------- */

bool bench_write_file(const char *path, const char *text, size_t len) {
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "pto-bench: cannot write %s\n", path);
    return ok;
}

bool bench_write_program(const BenchOptions *o) {
    Text t = {0};
    bool ok = false;
    if (o->write_front) {
        bench_gen_front_program(&t, o->front_ops);
        ok = bench_write_file(o->write_front, t.s, t.len);
    } else {
        int k = -1;
        for (int i = 0; i < K_COUNT; i++)
            if (!strcasecmp(o->write_case[0], op_names[i])) k = i;
        DType dt = DT_NONE;
        Shape s = {0, 0};
        if (k < 0 || !dtype_from_name(o->write_case[1], strlen(o->write_case[1]), &dt) ||
            sscanf(o->write_case[2], "%dx%d", &s.rows, &s.cols) != 2 || s.rows < 1 || s.cols < 1) {
            fprintf(stderr, "pto-bench: --write-case expects OP DTYPE RxC FILE (e.g. tmuls f32 64x64 /tmp/c.pto)\n");
            return false;
        }
        gen_case_program(&t, (OpKind)k, dt, s);
        ok = bench_write_file(o->write_case[3], t.s, t.len);
    }
    text_free(&t);
    return ok;
}
