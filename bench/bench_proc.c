/* bench_proc.c - subprocess figures: pto-run end to end on the samples of samples/README.md, and
 * the peak RSS of pto-as on the generated front-end program (bench/README.md). */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_HELPER_ARGS 16

ProcResult bench_spawn(char *const argv[]) {
    ProcResult r = {.status = -1};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int64_t t0 = bench_now_ns();
    int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err) {
        fprintf(stderr, "pto-bench: cannot run %s: %s\n", argv[0], strerror(err));
        return r;
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t got;
    do got = wait4(pid, &status, 0, &ru);
    while (got < 0 && errno == EINTR);
    r.wall_ms = (double)(bench_now_ns() - t0) / 1e6;
    if (got != pid) return r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
    r.maxrss_kib = ru.ru_maxrss;
    r.cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return r;
}

/* ---- peak RSS through a small helper process ------------------------------------------------------------------ */

/* Linux carries the ru_maxrss of the address space a process had before execve into the new
 * program: a child posix_spawn'ed (vfork) from this large process would report this process's
 * peak. So the measured tool is started by a fresh, small helper (this binary run with
 * --rss-helper), which forks it and reports its wait4 figures on a pipe. */
int bench_rss_helper_main(int argc, char **argv) {
    if (argc < 3) return 2;
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int64_t t0 = bench_now_ns();
    pid_t got;
    do got = wait4(pid, &status, 0, &ru);
    while (got < 0 && errno == EINTR);
    double ms = (double)(bench_now_ns() - t0) / 1e6;
    int code = got != pid ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%d %ld %.3f\n", code, (long)ru.ru_maxrss, ms);
    return 0;
}

/* Runs argv (argv[0] a path) through the helper; the result's maxrss is the tool's own peak. */
static ProcResult spawn_measured(char *const argv[]) {
    ProcResult r = {.status = -1};
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return r;
    self[n] = '\0';
    char *hargv[MAX_HELPER_ARGS + 3];
    int k = 0;
    hargv[k++] = self;
    hargv[k++] = (char *)"--rss-helper";
    for (int i = 0; argv[i] && k < MAX_HELPER_ARGS + 2; i++) hargv[k++] = argv[i];
    hargv[k] = NULL;
    int fds[2];
    if (pipe(fds) != 0) return r;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int err = posix_spawn(&pid, self, &fa, NULL, hargv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err) {
        close(fds[0]);
        fprintf(stderr, "pto-bench: cannot run %s: %s\n", self, strerror(err));
        return r;
    }
    char buf[128] = "";
    size_t len = 0;
    for (;;) {
        ssize_t got = read(fds[0], buf + len, sizeof buf - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
        if (len >= sizeof buf - 1) break;
    }
    buf[len] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (sscanf(buf, "%d %ld %lf", &r.status, &r.maxrss_kib, &r.wall_ms) != 3) r.status = -1;
    return r;
}

/* ---- pto-run end to end ------------------------------------------------------------------------------ */

#define MAX_ARGS 64
#define MAX_SAMPLES 32

typedef struct SampleCmd {
    char name[64];
    char *argv[MAX_ARGS + 1];
    int argc;
    char *storage;          /* the command line, split in place */
} SampleCmd;

/* Reads the `build/pto-run ...` lines of samples/README.md (one per sample, under a `## name`
 * heading); the leading `build/` is replaced by --build. */
static int read_samples(const BenchOptions *o, SampleCmd *cmds, int max) {
    char path[4096];
    snprintf(path, sizeof path, "samples/README.md");
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "pto-bench: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[8192], heading[64] = "?";
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "## ", 3) == 0) {
            snprintf(heading, sizeof heading, "%.63s", line + 3);
            continue;
        }
        if (strncmp(line, "build/pto-run ", 14) != 0) continue;
        SampleCmd *c = &cmds[n];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%.63s", heading);
        size_t need = strlen(o->build) + strlen(line) + 2;
        c->storage = malloc(need);
        if (!c->storage) abort();
        snprintf(c->storage, need, "%s/%s", o->build, line + 6); /* "build/" dropped */
        char *save = NULL;
        for (char *tok = strtok_r(c->storage, " \t", &save); tok && c->argc < MAX_ARGS;
             tok = strtok_r(NULL, " \t", &save))
            c->argv[c->argc++] = tok;
        c->argv[c->argc] = NULL;
        n++;
    }
    fclose(f);
    return n;
}

bool bench_end_to_end(const BenchOptions *o, GoalResult *goals) {
    printf("== pto-run end to end (subprocess: parse + verify + run + compare; samples/README.md) ==\n");
    SampleCmd cmds[MAX_SAMPLES];
    int n = read_samples(o, cmds, MAX_SAMPLES);
    if (n <= 0) {
        printf("ERROR: no samples found (see stderr)\n\n");
        if (n == 0) fprintf(stderr, "pto-bench: no `build/pto-run` lines in samples/README.md\n");
        return false;
    }
    printf("  %-22s %10s %10s %10s %10s  %s\n", "sample", "median ms", "min ms", "max ms", "cpu ms", "goal <= 15 ms");
    bool ok = true;
    double worst = 0.0;
    char worst_name[64] = "";
    int met = 0, measured = 0;
    int samples = o->samples;
    double *v = calloc((size_t)samples, sizeof *v), *cpu = calloc((size_t)samples, sizeof *cpu);
    if (!v || !cpu) abort();
    for (int i = 0; i < n; i++) {
        SampleCmd *c = &cmds[i];
        ProcResult r = bench_spawn(c->argv); /* warm-up: page cache, dynamic loader */
        bool failed = r.status != 0;
        for (int s = 0; s < samples && !failed; s++) {
            r = bench_spawn(c->argv);
            failed = r.status != 0;
            v[s] = r.wall_ms;
            cpu[s] = r.cpu_ms;
        }
        if (failed) {
            printf("  %-22s FAILED (exit status %d): %s ...\n", c->name, r.status, c->argv[0]);
            ok = false;
            free(c->storage);
            continue;
        }
        double lo = v[0], hi = v[0];
        for (int s = 1; s < samples; s++) lo = v[s] < lo ? v[s] : lo, hi = v[s] > hi ? v[s] : hi;
        double med = bench_median(v, samples), med_cpu = bench_median(cpu, samples);
        bool good = med <= 15.0;
        measured++;
        met += good;
        if (med > worst) worst = med, snprintf(worst_name, sizeof worst_name, "%s", c->name);
        printf("  %-22s %10.2f %10.2f %10.2f %10.2f  %s\n", c->name, med, lo, hi, med_cpu, goal_mark(good));
        free(c->storage);
    }
    free(v);
    free(cpu);
    printf("  wall time from posix_spawn to wait4 (output to /dev/null), median of %d after one warm-up run;\n"
           "  cpu ms = the child's user + system time (wait4), median\n\n", samples);
    if (measured) {
        GoalResult *g = &goals[GOAL_E2E];
        g->measured = ok;
        g->met = met == measured;
        snprintf(g->figure, sizeof g->figure, "worst %.2f ms (%s); %d of %d samples met", worst, worst_name, met,
                 measured);
    }
    return ok;
}

/* ---- pto-as peak RSS ------------------------------------------------------------------------------------ */

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

bool bench_peak_rss(const BenchOptions *o, GoalResult *goals, const char *program_path) {
    printf("== pto-as peak memory (subprocess, ru_maxrss from wait4) ==\n");
    char tool[4096], tiny[4096];
    snprintf(tool, sizeof tool, "%s/pto-as", o->build);
    snprintf(tiny, sizeof tiny, "samples/tmuls_f32.pto");
    long size = file_size(program_path);
    if (size <= 0) {
        printf("ERROR: no generated program\n\n");
        return false;
    }
    char *argv_big[] = {tool, (char *)program_path, NULL};
    char *argv_tiny[] = {tool, tiny, NULL};
    ProcResult tiny_r = spawn_measured(argv_tiny);
    ProcResult big_r = spawn_measured(argv_big);
    if (big_r.status != 0 || tiny_r.status != 0) {
        printf("ERROR: pto-as exited with status %d (generated program) / %d (%s)\n\n", big_r.status, tiny_r.status,
               tiny);
        return false;
    }
    double rss = (double)big_r.maxrss_kib * 1024.0, ratio = rss / (double)size;
    double growth = (double)(big_r.maxrss_kib - tiny_r.maxrss_kib) * 1024.0 / (double)size;
    bool met = ratio <= 10.0;
    printf("  %-44s %10.1f MB\n", "generated program (front-end section, 1x)", (double)size / 1e6);
    printf("  %-44s %10.1f MB  (%.2fx the file)  [goal <= 10x: %s]\n", "peak RSS of pto-as on it", rss / 1e6, ratio,
           goal_mark(met));
    printf("  %-44s %10.1f MB\n", "peak RSS of pto-as on samples/tmuls_f32.pto", (double)tiny_r.maxrss_kib * 1024.0 / 1e6);
    printf("  %-44s %10.2fx the file\n", "growth over the tiny program", growth);
    printf("  (pto-as is started by a small helper process: a child of this large process would inherit\n"
           "  its ru_maxrss through execve)\n");
    printf("  pto-as wall time on the program: %.0f ms\n\n", big_r.wall_ms);
    GoalResult *g = &goals[GOAL_RSS];
    g->measured = true;
    g->met = met;
    snprintf(g->figure, sizeof g->figure, "%.1f MB peak for a %.1f MB file: %.2fx", rss / 1e6, (double)size / 1e6,
             ratio);
    return true;
}
