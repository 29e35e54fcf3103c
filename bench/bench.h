/* bench.h - shared pieces of the benchmark harness (`make bench`, bench/README.md): timing,
 * statistics, a growable text buffer, the goal table and the sections of the report.
 *
 * The harness is one process and one run: bench_main.c parses the options, runs every section in
 * order (seed ops, families beside the pto-isa simulator, loop dispatch, pto-run end to end, front end, pto-as peak memory, whole kernels beside ptoas + g++ + the simulator) and ends with
 * the goal summary. Nothing here is used by the tools or the tests. */
#ifndef PTO_BENCH_H
#define PTO_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- options ----------------------------------------------------------------------------------- */

typedef struct BenchOptions {
    const char *build;      /* directory holding pto-as and pto-run (default "build") */
    const char *root;       /* repository root: samples/README.md is read from here (default ".") */
    int samples;            /* timed samples per figure (median reported) */
    double target_ms;       /* wall time of one timed sample of a seed-op case */
    bool sections[16];      /* which sections run (BENCH_SEC_*, BENCH_SEC_COUNT of them) */
    const char *op_filter;  /* run only seed-op cases whose op name contains this (NULL: all) */
    bool verbose;           /* print diagnostics of generated programs */
    const char *write_front;    /* --write-front FILE */
    long front_ops;             /* operations of the 1x front-end program */
    const char *write_case[4];  /* --write-case OP DTYPE RxC FILE */
    const char *families;   /* --families LIST: families section, these families only (NULL: all) */
    bool all_shapes;        /* --all-shapes: every family member on every shape */
    bool no_sim;            /* --no-sim: no simulator columns */
    const char *pto_isa;    /* --pto-isa DIR: a pto-isa checkout (else $PTO_ISA_SRC, else the mirror) */
    const char *ptoas;      /* --ptoas PATH: the PTOAS compiler (else $PTOAS_BIN, else the check-ptoas cache) */
} BenchOptions;

enum { BENCH_SEC_OPS, BENCH_SEC_FAMILIES, BENCH_SEC_DISPATCH, BENCH_SEC_E2E, BENCH_SEC_FRONT, BENCH_SEC_RSS, BENCH_SEC_MATMUL,
       BENCH_SEC_CHECK, BENCH_SEC_KERNELS, BENCH_SEC_COUNT };

/* ---- timing and statistics ---------------------------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t bench_now_ns(void);
/* Involuntary context switches of the calling thread so far (a sample during which this changes
 * was preempted by another process and is taken again, up to BENCH_RETRIES attempts). */
long bench_preemptions(void);
#define BENCH_RETRIES 8
/* Median of `n` values (sorts the array in place); 0 when n == 0. */
double bench_median(double *v, int n);

/* ---- growable text ------------------------------------------------------------------------------ */

typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

/* Appends printf-formatted text; aborts when the host is out of memory. */
void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void text_free(Text *t);

/* ---- goals ------------------------------------------------------------------------------------- */

/* One line of the final summary: a goal, the measured figure and whether it is met. */
typedef struct GoalResult {
    const char *goal;       /* "seed ops, f32/i32 tiles >= 16 KiB: >= 0.5x memcpy" */
    char figure[160];       /* "worst 0.41x (TROWPROD f32 1x16384); 12 of 14 cases met" */
    bool measured;          /* false: the section did not run or failed */
    bool met;
} GoalResult;

enum {
    GOAL_OPS_32BIT, GOAL_OPS_F16, GOAL_OPS_2048X8, GOAL_TROWPROD_64, GOAL_DISPATCH, GOAL_E2E, GOAL_FRONT_MBS,
    GOAL_FRONT_SCALING, GOAL_RSS, GOAL_FAM_MEMCPY, GOAL_FAM_SIM, GOAL_FAM_SHAPED_O3, GOAL_FAM_FIXED, GOAL_MATMUL_SIM, GOAL_CHECK_SYNC, GOAL_KERNELS, GOAL_COUNT
};

/* "PASS" or "MISS". */
static inline const char *goal_mark(bool met) { return met ? "PASS" : "MISS"; }

/* ---- sections (each prints its own table and fills its goals; false on a harness error) ------------ */

bool bench_seed_ops(const BenchOptions *o, GoalResult *goals);
/* The families section (bench_families.c). */
/* snprintf through a va_list (paths bounded by their buffers; truncation only shortens a note). */
void bench_fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
/* system(cmd)'s exit status, -1 when it did not exit normally. */
int bench_run_shell(const char *cmd);
/* Finds (or exports) the pto-isa include tree; NULL, with the reason in note, when there is none. */
const char *bench_find_pto_isa(const BenchOptions *o, char *note, size_t note_len);
/* Writes BUILD/pto-isa-overlay (the headers g++ 12 rejects, made acceptable) into overlay. */
bool bench_sim_overlay(const BenchOptions *o, const char *inc, char *overlay, size_t len);
/* The matmul section (bench_matmul.c): tmatmul against the simulator at -O2 and -O3 -march=native. */
bool bench_matmul(const BenchOptions *o, GoalResult *goals);
/* The checkers section (bench_check.c): --check-sync and --check-init against a plain run. */
bool bench_checkers(const BenchOptions *o, GoalResult *goals);
/* The whole-kernel section (bench_kernels.c): pto-run end to end beside ptoas -> g++ -> simulator. */
bool bench_kernels(const BenchOptions *o, GoalResult *goals);
bool bench_families(const BenchOptions *o, GoalResult *goals);
bool bench_dispatch(const BenchOptions *o, GoalResult *goals);
bool bench_end_to_end(const BenchOptions *o, GoalResult *goals);
/* Front end in process; also writes the 1x program to `program_path` for bench_peak_rss. */
bool bench_front_end(const BenchOptions *o, GoalResult *goals, char *program_path, size_t path_len);
/* Peak RSS of pto-as on `program_path` (generated by bench_front_end when empty). */
bool bench_peak_rss(const BenchOptions *o, GoalResult *goals, const char *program_path);

/* --write-front / --write-case: writes a generated program to a file (bench_ops.c). */
bool bench_write_program(const BenchOptions *o);
/* Writes `len` bytes to `path`; false with a message on stderr. */
bool bench_write_file(const char *path, const char *text, size_t len);

/* ---- subprocesses (bench_proc.c) ------------------------------------------------------------------ */

typedef struct ProcResult {
    int status;             /* exit status, or 128 + signal, or -1 when it could not start */
    double wall_ms;         /* spawn to reap */
    double cpu_ms;          /* user + system time of the child */
    long maxrss_kib;        /* ru_maxrss of the child */
} ProcResult;

/* `pto-bench --rss-helper TOOL ARGS...`: forks TOOL, waits, prints "status maxrss_kib wall_ms". */
int bench_rss_helper_main(int argc, char **argv);
/* Runs argv[0] (a path) with stdout and stderr sent to /dev/null; waits with wait4. */
ProcResult bench_spawn(char *const argv[]);

/* ---- the generated front-end program (bench_front.c) --------------------------------------------- */

/* Appends a PTOAS-style kernel of about `n_ops` operations (10 per tiled-loop unit, every seed op,
 * DPS, SSA and assembly spellings) to `t`; returns the exact number of operations written. */
long bench_gen_front_program(Text *t, long n_ops);

#endif
