/* bench_front.c - front-end throughput (parse_module + verify_module in process) on a generated
 * PTOAS-style kernel of 100,000 operations and at 2x and 4x that size (bench/README.md). */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parser.h"
#include "verifier.h"

#define T_TILE "!pto.tile_buf<vec, 16x64xf32>"
#define T_COL "!pto.tile_buf<vec, 16x1xf32, blayout=col_major>"
#define T_TV "!pto.tensor_view<?x?xf32>"
#define T_PV "!pto.partition_tensor_view<16x64xf32>"

enum { PROLOGUE_OPS = 12, UNIT_OPS = 10 };

long bench_gen_front_program(Text *t, long n_ops) {
    long units = (n_ops - PROLOGUE_OPS) / UNIT_OPS;
    if (units < 1) units = 1;
    text_printf(t, "// pto-bench front-end program: %ld tiled-loop units of %d operations\n", units, UNIT_OPS);
    text_printf(t, "module {\n  func.func @kernel(%%arg0: !pto.ptr<f32>, %%arg1: !pto.ptr<f32>) attributes {pto.entry} {\n");
    text_printf(t, "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n");
    text_printf(t, "    %%c16 = arith.constant 16 : index\n    %%c64 = arith.constant 64 : index\n");
    text_printf(t, "    %%scale = arith.constant 0.5 : f32\n");
    text_printf(t, "    %%in = pto.make_tensor_view %%arg0, shape = [%%c64, %%c64], strides = [%%c64, %%c1] : " T_TV "\n");
    text_printf(t, "    %%out = pto.make_tensor_view %%arg1, shape = [%%c64, %%c64], strides = [%%c64, %%c1] : " T_TV "\n");
    text_printf(t, "    %%a = pto.alloc_tile : " T_TILE "\n    %%b = pto.alloc_tile : " T_TILE "\n");
    text_printf(t, "    %%tmp = pto.alloc_tile : " T_TILE "\n    %%r = pto.alloc_tile : " T_COL "\n");
    for (long u = 0; u < units; u++) {
        /* 10 operations: scf.for, 2 partition_view, tload, tstore and the five seed ops in DPS, SSA
         * (trowexpandsub) and assembly (texpands) spellings */
        text_printf(t, "    scf.for %%i%ld = %%c0 to %%c64 step %%c16 {\n", u);
        text_printf(t, "      %%p%ld = pto.partition_view %%in, offsets = [%%i%ld, %%c0], sizes = [%%c16, %%c64] : " T_TV
                       " -> " T_PV "\n", u, u);
        text_printf(t, "      pto.tload ins(%%p%ld : " T_PV ") outs(%%a : " T_TILE ")\n", u);
        text_printf(t, "      pto.tmuls ins(%%a, %%scale : " T_TILE ", f32) outs(%%b : " T_TILE ")\n");
        text_printf(t, "      pto.trowprod ins(%%b, %%tmp : " T_TILE ", " T_TILE ") outs(%%r : " T_COL ")\n");
        text_printf(t, "      pto.trowexpandmul ins(%%b, %%r : " T_TILE ", " T_COL ") outs(%%a : " T_TILE ")\n");
        text_printf(t, "      %%e%ld = texpands %%scale : f32 -> " T_TILE "\n", u);
        text_printf(t, "      %%y%ld = pto.trowexpandsub %%e%ld, %%r : (" T_TILE ", " T_COL ") -> " T_TILE "\n", u, u);
        text_printf(t, "      %%q%ld = pto.partition_view %%out, offsets = [%%i%ld, %%c0], sizes = [%%c16, %%c64] : " T_TV
                       " -> " T_PV "\n", u, u);
        text_printf(t, "      pto.tstore ins(%%y%ld : " T_TILE ") outs(%%q%ld : " T_PV ")\n    }\n", u, u);
    }
    text_printf(t, "    return\n  }\n}\n");
    return PROLOGUE_OPS + units * UNIT_OPS;
}

typedef struct FrontTiming {
    long ops;
    size_t bytes;
    double ns;              /* median parse + verify, wall (CLOCK_MONOTONIC) */
    double cpu_ns;          /* median thread CPU time of the same runs (shows how busy the machine is) */
    double parse_ns;        /* median wall time of parse_module alone */
    size_t arena_bytes;     /* IR + diagnostics of one run */
    size_t warnings;
    double *wall, *cpu, *parse; /* samples */
    int n;
} FrontTiming;

static int64_t thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Parses and verifies `text` once into a fresh arena (copying the text in and freeing the arena
 * are not timed); appends a sample to `ft` unless `warm_up`. */
static bool front_once(const Text *text, bool warm_up, FrontTiming *ft) {
    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *f = source_file_from_string(arena, "<bench front end>", text->s, text->len);
    int64_t c0 = thread_cpu_ns(), t0 = bench_now_ns();
    Module *m = parse_module(arena, f, &diags);
    int64_t tp = bench_now_ns();
    if (m && !diags.errors) {
        VerifyOptions vo = {.target = TARGET_A2A3};
        verify_module(m, &vo, &diags);
    }
    int64_t t1 = bench_now_ns(), c1 = thread_cpu_ns();
    bool ok = m && !diags.errors;
    if (!ok) {
        fprintf(stderr, "pto-bench: the generated front-end program was rejected (%zu errors):\n", diags.errors);
        diag_sort(&diags);
        if (diags.count > 20) diags.count = 20;
        diag_print_text(stderr, &diags);
    } else if (!warm_up) {
        ft->wall[ft->n] = (double)(t1 - t0);
        ft->cpu[ft->n] = (double)(c1 - c0);
        ft->parse[ft->n] = (double)(tp - t0);
        ft->n++;
    }
    ft->arena_bytes = arena_bytes_used(arena);
    ft->warnings = diags.warnings;
    ft->bytes = text->len;
    arena_free(arena);
    return ok;
}

bool bench_front_end(const BenchOptions *o, GoalResult *goals, char *program_path, size_t path_len) {
    const long base_ops = o->front_ops;
    program_path[0] = '\0';
    Text text[3] = {{0}};
    long ops[3];
    static const int scale[3] = {1, 2, 4};
    /* the 2x and 4x programs are only needed for the timing table */
    int sizes = o->sections[BENCH_SEC_FRONT] ? 3 : 1;
    for (int i = 0; i < sizes; i++) ops[i] = bench_gen_front_program(&text[i], base_ops * scale[i]);

    /* the 1x program on disk for the peak-RSS section */
    const char *tmpdir = getenv("TMPDIR");
    snprintf(program_path, path_len, "%s/pto-bench-XXXXXX.pto", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemps(program_path, 4);
    bool ok = fd >= 0;
    if (ok) {
        size_t done = 0;
        while (done < text[0].len && ok) {
            ssize_t w = write(fd, text[0].s + done, text[0].len - done);
            if (w < 0 && errno == EINTR) continue;
            ok = w > 0;
            done += w > 0 ? (size_t)w : 0;
        }
        ok = (close(fd) == 0) && ok;
    }
    if (!ok) {
        fprintf(stderr, "pto-bench: cannot write %s: %s\n", program_path, strerror(errno));
        program_path[0] = '\0';
    }

    if (o->sections[BENCH_SEC_FRONT]) {
        printf("== Front end (parse_module + verify_module in process, generated PTOAS-style kernel) ==\n");
        printf("  %-6s %8s %6s %9s %9s %9s %7s %9s %8s %8s\n", "input", "ops", "MB", "ms", "parse", "cpu ms", "MB/s",
               "ops/s", "time/1x", "IR B/B");
        /* samples interleave the three sizes so that a change in machine load hits all of them */
        int samples = o->samples < 3 ? o->samples : 3;
        FrontTiming ft[3];
        memset(ft, 0, sizeof ft);
        bool timed = front_once(&text[0], true, &ft[0]); /* warm-up */
        for (int i = 0; i < 3; i++) {
            ft[i].ops = ops[i];
            ft[i].wall = calloc((size_t)samples, sizeof(double));
            ft[i].cpu = calloc((size_t)samples, sizeof(double));
            ft[i].parse = calloc((size_t)samples, sizeof(double));
            if (!ft[i].wall || !ft[i].cpu || !ft[i].parse) abort();
        }
        for (int s = 0; s < samples && timed; s++)
            for (int i = 0; i < 3 && timed; i++) timed = front_once(&text[i], false, &ft[i]);
        for (int i = 0; i < 3 && timed; i++) {
            ft[i].ns = bench_median(ft[i].wall, ft[i].n);
            ft[i].cpu_ns = bench_median(ft[i].cpu, ft[i].n);
            ft[i].parse_ns = bench_median(ft[i].parse, ft[i].n);
        }
        for (int i = 0; i < 3 && timed; i++) {
            double sec = ft[i].ns / 1e9;
            char label[8];
            snprintf(label, sizeof label, "%dx", scale[i]);
            printf("  %-6s %8ld %6.1f %9.1f %8.0f%% %9.1f %7.1f %9.0f %8.2f %8.1f\n", label, ft[i].ops,
                   (double)ft[i].bytes / 1e6, ft[i].ns / 1e6, 100.0 * ft[i].parse_ns / ft[i].ns, ft[i].cpu_ns / 1e6,
                   (double)ft[i].bytes / 1e6 / sec, (double)ft[i].ops / sec, ft[i].ns / ft[0].ns,
                   (double)ft[i].arena_bytes / (double)ft[i].bytes);
        }
        for (int i = 0; i < 3; i++) {
            free(ft[i].wall);
            free(ft[i].cpu);
            free(ft[i].parse);
        }
        if (timed) {
            double mbs = (double)ft[0].bytes / 1e6 / (ft[0].ns / 1e9);
            double r2 = ft[1].ns / ft[0].ns, r4 = ft[2].ns / ft[0].ns;
            double c2 = ft[1].cpu_ns / ft[0].cpu_ns, c4 = ft[2].cpu_ns / ft[0].cpu_ns;
            printf("  growth: 2x input -> %.2fx time, 4x input -> %.2fx time (linear = 2.00 / 4.00);"
                   " CPU time %.2fx / %.2fx\n", r2, r4, c2, c4);
            if (ft[0].warnings) printf("  note: the program draws %zu verifier warning(s)\n", ft[0].warnings);
            printf("  ms = wall time of parse + verify (CLOCK_MONOTONIC), median of %d interleaved runs after a warm-up;\n"
                   "  parse = parse_module's share of it; cpu ms = thread CPU time of the same runs (well below ms\n"
                   "  when the machine is busy); MB = 10^6 bytes; IR B/B = arena bytes per source byte\n\n", samples);
            GoalResult *g = &goals[GOAL_FRONT_MBS];
            g->measured = true;
            g->met = mbs >= 20.0;
            snprintf(g->figure, sizeof g->figure, "%.1f MB/s, %.0f ops/s (1x: %.1f MB, %ld ops)", mbs,
                     (double)ft[0].ops / (ft[0].ns / 1e9), (double)ft[0].bytes / 1e6, ft[0].ops);
            g = &goals[GOAL_FRONT_SCALING];
            g->measured = true;
            g->met = r4 <= 4.5;
            snprintf(g->figure, sizeof g->figure, "4x input: %.2fx time (2x: %.2fx); CPU time %.2fx", r4, r2, c4);
        } else {
            printf("ERROR (see stderr)\n\n");
            ok = false;
        }
    }
    for (int i = 0; i < 3; i++) text_free(&text[i]);
    return ok;
}
