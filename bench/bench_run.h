/* bench_run.h - the interpreter-timing pieces shared by the seed-op section (bench_ops.c) and the
 * families section (bench_families.c): compiling a generated program, timing an op loop against an
 * empty loop, and the same-run memcpy reference. bench/README.md describes the method. */
#ifndef PTO_BENCH_RUN_H
#define PTO_BENCH_RUN_H

#include "bench.h"
#include "interp.h"
#include "parser.h"
#include "verifier.h"

#define COMPILED_EXTRA_MAX 4

typedef struct Compiled {
    Arena *arena;
    DiagList diags;
    Module *module;
    Target target;
    DataArray src, col;     /* inputs bound to %src and %col (count 0 when unused) */
    bool has_src, has_col;
    DataArray extra[COMPILED_EXTRA_MAX];          /* further inputs, bound by name */
    const char *extra_name[COMPILED_EXTRA_MAX];   /* "src0", "src1", ... */
    int n_extra;
} Compiled;

typedef struct LoopTiming {
    int64_t n;              /* iterations */
    double op_ns;           /* median op_loop run */
    double base_ns;         /* median empty_loop run */
    double per_op_ns;       /* (op - base) / n */
    double per_iter_ns;     /* op / n: loop iteration including the op */
    double base_iter_ns;    /* base / n */
    int noisy;              /* samples that were preempted on every attempt */
    double op_cpu_ns;       /* median thread CPU time of the op_loop runs */
} LoopTiming;

typedef struct MemcpyRef {
    unsigned char *src, *dst;
    size_t bytes;
    int64_t reps;           /* copies per sample (about target_ms) */
} MemcpyRef;

/* Parses and verifies `text` (entry op_loop); false, diagnostics printed, when it is rejected or
 * warned about. */
bool compile_program(Compiled *c, const char *text, size_t len, const char *what, Target target, bool verbose);
/* The same; `quiet`: print nothing on rejection (a probe; the caller reports it). */
bool compile_program_ex(Compiled *c, const char *text, size_t len, const char *what, Target target, bool verbose,
                        bool quiet);
void compiled_free(Compiled *c);
/* Times @op_loop and @empty_loop (n <= 0: calibrated to about target_ms per op_loop run), with a
 * memcpy sample between them when `mc` is given (median in *mc_ns). */
bool time_loops(Compiled *c, int64_t n, double target_ms, int samples, MemcpyRef *mc, double *mc_ns,
                LoopTiming *out);
void memcpy_init(MemcpyRef *m, size_t bytes, double target_ms);
void memcpy_free(MemcpyRef *m);
/* "16K", "1.5K", "512". */
void fmt_bytes(char *buf, size_t len, int64_t b);

#endif
