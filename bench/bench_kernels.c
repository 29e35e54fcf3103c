/* bench_kernels.c - the whole-kernel section (`--only kernels`, bench/README.md, issue #12): PTOAS
 * sample kernels run end to end by pto-run, beside the same kernel compiled by the real PTOAS
 * compiler (ptoas) to C++, built for pto-isa's CPU simulator with g++ -O2 and run.
 *
 * Per kernel: ptoas K.pto -o K.cpp; a first pto-run with zero-filled buffers (--out of every
 * pointer argument) gives each GM buffer's size; input files with a fixed fill are written; pto-run
 * is timed as a process (spawn to reap: parse + verify + run + read inputs) on them. The simulator
 * side is a generated main() that includes K.cpp, allocates the same buffers, fills them with the
 * same values, calls the kernel and exits: g++ -O2 is timed, then the binary as a process (one
 * call), and once more in process (the kernel call alone, median of the samples). Everything is
 * written under BUILD/pto-bench-kernels; nothing of PTOAS or pto-isa is committed. A kernel ptoas,
 * g++ or pto-run rejects is a row with the reason, not a harness error. */
#define _GNU_SOURCE
#include "bench.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The kernels: paths under PTOAS's test/samples that tests/ptoas/samples.txt runs, and the target.
 * The Qwen3 decode texts are level-3 kernels (explicit tile addresses), as PTOAS's runop.sh
 * compiles them; the A5 texts also take --pto-arch a5. */
typedef struct KernelSpec {
    const char *path;
    const char *target;     /* pto-run --target */
    const char *ptoas_flags;
    const char *sets;       /* scalar values other than the defaults: "arg4=64,arg5=4096" */
} KernelSpec;

static const KernelSpec kernel_specs[] = {
    {"Qwen3DecodeA3/qwen3_decode_incore_0.pto", "a2a3", "--pto-level=level3", NULL},
    {"Qwen3DecodeA3/qwen3_decode_incore_3.pto", "a2a3", "--pto-level=level3", NULL},
    /* incore_6 does nothing with ctx_blocks = 0: 64 blocks of a 4096-token context, group 0 */
    {"Qwen3DecodeA3/qwen3_decode_incore_6.pto", "a2a3", "--pto-level=level3", "arg4=64,arg5=4096"},
    {"Qwen3DecodeA3/qwen3_decode_incore_10.pto", "a2a3", "--pto-level=level3", NULL},
    {"Qwen3DecodeA3/qwen3_decode_incore_14.pto", "a2a3", "--pto-level=level3", NULL},
    {"Qwen3DecodeA3/qwen3_decode_incore_1.pto", "a2a3", "--pto-level=level3", NULL},
    {"Qwen3DecodeA3/qwen3_decode_incore_12.pto", "a2a3", "--pto-level=level3", NULL},
    {"Qwen3DecodeA5/qwen3_decode_incore_0.pto", "a5", "--pto-level=level3 --pto-arch=a5", NULL},
    {"Qwen3DecodeA5/qwen3_decode_incore_1.pto", "a5", "--pto-level=level3 --pto-arch=a5", NULL},
    {"Addc/addc.pto", "a2a3", "", NULL},
};
#define N_KERNELS (int)(sizeof kernel_specs / sizeof kernel_specs[0])

#define MAX_KARGS 24

/* Issue #12's goal: pto-run end to end at least this many times faster than the simulator's g++ + run. */
#define KERNELS_GOAL_X 500.0

/* One argument of the kernel's entry: a GM pointer (dtype) or a scalar (index / iN). */
typedef struct KArg {
    char name[32];
    char dtype[8];          /* pointers: f32, f16, bf16, i8, ... */
    bool is_ptr;
    bool is_index;
    long long elems;        /* pointers: elements of the GM buffer (from the sizing run) */
} KArg;

typedef struct KRow {
    char label[64];
    char entry[128];
    KArg args[MAX_KARGS];
    int n_args;
    double ptoas_ms, pto_run_ms, sync_ms, gxx_s, sim_proc_ms, sim_call_ms; /* sync_ms: pto-run --check-sync */
    double ours_delta, sim_delta;   /* change of the sum of every buffer element made by one run */
    bool has_bf16;
    char why[200];          /* non-empty: not measured, and why */
} KRow;

/* Element size and C++ type of a PTO dtype the kernels pass by pointer; 0 when unknown. */
static size_t elem_info(const char *dt, const char **cxx) {
    static const struct { const char *dt, *cxx; size_t size; } map[] = {
        {"f32", "float", 4},     {"f16", "half", 2},      {"bf16", "bfloat16_t", 2}, {"i8", "int8_t", 1},
        {"ui8", "uint8_t", 1},   {"u8", "uint8_t", 1},    {"i16", "int16_t", 2},    {"ui16", "uint16_t", 2},
        {"i32", "int32_t", 4},   {"ui32", "uint32_t", 4}, {"i64", "int64_t", 8},    {"ui64", "uint64_t", 8},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(dt, map[i].dt)) {
            if (cxx) *cxx = map[i].cxx;
            return map[i].size;
        }
    return 0;
}

static bool is_float_dtype(const char *dt) { return dt[0] == 'f' || !strcmp(dt, "bf16"); }

/* Reads a whole file into a malloc'ed, NUL-terminated buffer; NULL when it cannot. */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    Text t = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text_printf(&t, "%.*s", (int)n, buf);
    fclose(f);
    if (!t.s) text_printf(&t, "%s", "");
    return t.s;
}

/* The first function's name and arguments (`%a: !pto.ptr<f32>`, `%b: index`, `%c: i32`). */
static bool parse_signature(const char *text, KRow *r) {
    const char *p = strstr(text, "func.func @");
    if (!p) return bench_fmt(r->why, sizeof r->why, "no func.func"), false;
    p += strlen("func.func @");
    size_t nl = strcspn(p, "( \t");
    if (nl == 0 || nl >= sizeof r->entry || p[nl] != '(') return bench_fmt(r->why, sizeof r->why, "unreadable signature"), false;
    memcpy(r->entry, p, nl);
    r->entry[nl] = '\0';
    p += nl + 1;
    const char *end = strchr(p, ')');
    if (!end) return bench_fmt(r->why, sizeof r->why, "unreadable signature"), false;
    while (p < end) {
        const char *pc = memchr(p, '%', (size_t)(end - p));
        if (!pc) break;
        pc++;
        size_t l = strcspn(pc, ": \t");
        if (r->n_args >= MAX_KARGS || l == 0 || l >= sizeof r->args[0].name)
            return bench_fmt(r->why, sizeof r->why, "more than %d arguments or a long name", MAX_KARGS), false;
        KArg *a = &r->args[r->n_args++];
        memset(a, 0, sizeof *a);
        memcpy(a->name, pc, l);
        const char *ty = pc + l;
        while (*ty == ':' || *ty == ' ' || *ty == '\t') ty++;
        if (!strncmp(ty, "!pto.ptr<", 9)) {
            ty += 9;
            size_t dl = strcspn(ty, ",> ");
            if (dl == 0 || dl >= sizeof a->dtype) return bench_fmt(r->why, sizeof r->why, "unreadable pointer type"), false;
            memcpy(a->dtype, ty, dl);
            a->is_ptr = true;
            if (!elem_info(a->dtype, NULL)) return bench_fmt(r->why, sizeof r->why, "pointer to %s", a->dtype), false;
        } else if (!strncmp(ty, "index", 5)) {
            a->is_index = true;
        } else if (ty[0] != 'i' || !isdigit((unsigned char)ty[1])) {
            return bench_fmt(r->why, sizeof r->why, "argument %%%s: unsupported type", a->name), false;
        }
        p = strchr(pc, ',');
        if (!p || p > end) break;
    }
    return true;
}

/* Scalar values: the kernel's `sets` (NAME=VALUE,...), else as run_sample.py binds them by
 * default: index 0 (offsets of block 0), integers 1. */
static int scalar_value(const KernelSpec *k, const KArg *a) {
    size_t nl = strlen(a->name);
    for (const char *p = k->sets; p && *p;) {
        if (!strncmp(p, a->name, nl) && p[nl] == '=') return atoi(p + nl + 1);
        p = strchr(p, ',');
        if (p) p++;
    }
    return a->is_index ? 0 : 1;
}

/* The fill of element i: floats 1 + (i % 64) / 64 (exact in f16 and bf16), integers (7i % 9) + 1.
 * The file is built in memory and written with one fwrite, as numpy's tofile writes the inputs of
 * PTOAS's golden scripts: the page cache then holds it in large folios where the file system has
 * them (ext4 on Linux 6.x), which pto-run's private mapping maps a 2 MiB page at a time; written
 * 4 KiB at a time it stays in 4 KiB pages, each mapped on its own (bench/README.md). False when the
 * file cannot be written. */
static bool write_fill(const char *path, const KArg *a) {
    size_t size = elem_info(a->dtype, NULL);
    unsigned char *buf = malloc(a->elems > 0 ? (size_t)a->elems * size : 1);
    if (!buf) return false;
    for (long long i = 0; i < a->elems; i++) {
        unsigned k = (unsigned)(i % 64);
        unsigned char *b = buf + (size_t)i * size;
        if (!strcmp(a->dtype, "f32")) {
            uint32_t bits = 0x3F800000u | (k << 17);
            memcpy(b, &bits, 4);
        } else if (!strcmp(a->dtype, "f16")) {
            uint16_t bits = (uint16_t)(0x3C00u | (k << 4));
            memcpy(b, &bits, 2);
        } else if (!strcmp(a->dtype, "bf16")) {
            uint16_t bits = (uint16_t)(0x3F80u | (k << 1));
            memcpy(b, &bits, 2);
        } else {
            int64_t v = (i * 7) % 9 + 1;
            memcpy(b, &v, size); /* little-endian: the low bytes */
        }
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(buf, size, (size_t)a->elems, f) == (size_t)a->elems;
    if (f && fclose(f) != 0) ok = false;
    free(buf);
    return ok;
}

static double half_to_double(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

/* Sum of the elements of a raw buffer file of dtype `dt` (in index order, in double); NAN when it cannot be read. */
static double file_sum(const char *path, const char *dt) {
    FILE *f = fopen(path, "rb");
    if (!f) return NAN;
    size_t size = elem_info(dt, NULL);
    unsigned char b[8];
    double sum = 0.0;
    bool is_signed = dt[0] == 'i';
    while (size && fread(b, 1, size, f) == size) {
        if (!strcmp(dt, "f32")) {
            float v;
            memcpy(&v, b, 4);
            sum += v;
        } else if (!strcmp(dt, "f16")) {
            sum += half_to_double((uint16_t)(b[0] | b[1] << 8));
        } else if (!strcmp(dt, "bf16")) {
            uint32_t bits = (uint32_t)(b[0] | b[1] << 8) << 16;
            float v;
            memcpy(&v, &bits, 4);
            sum += v;
        } else {
            uint64_t u = 0;
            for (size_t i = 0; i < size; i++) u |= (uint64_t)b[i] << (8 * i);
            if (is_signed && size < 8 && (u >> (8 * size - 1)) & 1) u |= ~0ull << (8 * size);
            sum += is_signed ? (double)(int64_t)u : (double)u;
        }
    }
    fclose(f);
    return sum;
}

/* First line of `path` containing `needle` (else its first line) into buf, trimmed. */
static void first_line(const char *path, const char *needle, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (!f) return;
    char line[1024];
    char first[1024] = "";
    while (fgets(line, sizeof line, f)) {
        if (!first[0]) snprintf(first, sizeof first, "%s", line);
        if (strstr(line, needle)) {
            snprintf(first, sizeof first, "%s", line);
            break;
        }
    }
    fclose(f);
    first[strcspn(first, "\n")] = '\0';
    const char *s = first;
    const char *e = strstr(first, needle);
    if (e && e - first > 40) s = e; /* drop a long location prefix */
    snprintf(buf, len, "%s", s);
}

static bool file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

static long long file_size(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (long long)st.st_size : -1;
}

/* The ptoas binary: --ptoas, $PTOAS_BIN, else the cache `make check-ptoas` builds into. */
static const char *find_ptoas(const BenchOptions *o, char *buf, size_t len) {
    const char *p = o->ptoas ? o->ptoas : getenv("PTOAS_BIN");
    if (p && *p) return snprintf(buf, len, "%s", p), buf;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) bench_fmt(buf, len, "%s/pto-as/ptoas-build/tools/ptoas/ptoas", xdg);
    else bench_fmt(buf, len, "%s/.cache/pto-as/ptoas-build/tools/ptoas/ptoas", home ? home : "");
    return buf;
}

/* PTOAS's test/samples: $PTOAS_SRC/test/samples, else exported from the mirror as tests/ptoas/suite.sh does. */
static bool find_samples(const BenchOptions *o, char *buf, size_t len, char *note, size_t note_len) {
    const char *src = getenv("PTOAS_SRC");
    if (src && *src) {
        bench_fmt(buf, len, "%s/test/samples", src);
        if (file_exists(buf)) return true;
        bench_fmt(note, note_len, "no test/samples under $PTOAS_SRC (%s)", src);
        return false;
    }
    bench_fmt(buf, len, "%s/ptoas-src/test/samples", o->build);
    char probe[4200];
    bench_fmt(probe, sizeof probe, "%s/%s", buf, kernel_specs[0].path);
    if (file_exists(probe)) return true;
    const char *mirror = getenv("PTOAS_MIRROR");
    if (!mirror || !*mirror) mirror = "/work/.mirror/hw-native-sys+PTOAS/repo";
    if (!file_exists(mirror)) {
        bench_fmt(note, note_len, "no PTOAS samples: set PTOAS_SRC (mirror %s absent)", mirror);
        return false;
    }
    char cmd[8192];
    bench_fmt(cmd, sizeof cmd, "mkdir -p '%s/ptoas-src' && git --git-dir='%s' archive HEAD test/samples include/PTO/IR/PTOOps.td | tar -x -C '%s/ptoas-src'",
              o->build, mirror, o->build);
    if (bench_run_shell(cmd) != 0 || !file_exists(buf)) {
        bench_fmt(note, note_len, "exporting PTOAS samples from %s failed", mirror);
        return false;
    }
    return true;
}

/* The pto-run argv of a kernel: FILE --target=T, the pointers as --in in_ARG.bin (mode 1; mode 3:
 * the same with --check-sync), as --out size_ARG.bin (mode 0: the sizing run, on zero-filled
 * buffers: --zero-inputs) or both, --out to out_ARG.bin (mode 2), and the scalars as --set. */
static void pto_run_argv(const BenchOptions *o, const KernelSpec *k, const KRow *r, const char *pto, const char *dir,
                         int mode, char store[][4200], char **argv) {
    int n = 0, s = 0;
    bench_fmt(store[s], sizeof store[0], "%s/pto-run", o->build);
    argv[n++] = store[s++];
    argv[n++] = (char *)pto;
    bench_fmt(store[s], sizeof store[0], "--target=%s", k->target);
    argv[n++] = store[s++];
    if (mode == 0) argv[n++] = "--zero-inputs"; /* the sizing run has no input files yet */
    if (mode == 3) argv[n++] = "--check-sync";
    if (mode == 3) mode = 1;
    for (int i = 0; i < r->n_args; i++) {
        const KArg *a = &r->args[i];
        if (!a->is_ptr) {
            argv[n++] = "--set";
            bench_fmt(store[s], sizeof store[0], "%s=%d", a->name, scalar_value(k, a));
            argv[n++] = store[s++];
            continue;
        }
        if (mode != 0) {
            argv[n++] = "--in";
            bench_fmt(store[s], sizeof store[0], "%s=%s/in_%s.bin", a->name, dir, a->name);
            argv[n++] = store[s++];
        }
        if (mode != 1) {
            argv[n++] = "--out";
            bench_fmt(store[s], sizeof store[0], "%s=%s/%s_%s.bin", a->name, dir, mode ? "out" : "size", a->name);
            argv[n++] = store[s++];
        }
    }
    argv[n] = NULL;
}

/* The simulator harness: the ptoas output, then main([reps]) filling the buffers and calling the
 * kernel once; it prints "D <change of the sum of every buffer element made by that call>", then
 * with reps > 0 times reps more calls ("K <median ms of one call>"), and ends by printing the sum
 * of every buffer, so the compiler cannot drop the kernel's stores as dead. */
static void sim_main(Text *t, const KernelSpec *k, const KRow *r, const char *kernel_cpp) {
    text_printf(t, "// Generated by pto-bench (bench/bench_kernels.c): %s on pto-isa's CPU simulator.\n"
                   "#include <cstdint>\n#include \"%s\"\n#include <algorithm>\n#include <chrono>\n#include <cstdio>\n"
                   "#include <cstdlib>\n#include <vector>\n"
                   "int main(int argc, char **argv) {\n  long reps = argc > 1 ? std::atol(argv[1]) : 0;\n",
                r->label, kernel_cpp);
    for (int i = 0; i < r->n_args; i++) {
        const KArg *a = &r->args[i];
        if (!a->is_ptr) continue;
        const char *cxx = "";
        elem_info(a->dtype, &cxx);
        text_printf(t, "  %s *b%d = new %s[%lld];\n", cxx, i, cxx, a->elems);
        if (is_float_dtype(a->dtype))
            text_printf(t, "  for (long long i = 0; i < %lld; i++) b%d[i] = (%s)(1.0f + (float)(i %% 64) / 64.0f);\n", a->elems, i, cxx);
        else text_printf(t, "  for (long long i = 0; i < %lld; i++) b%d[i] = (%s)((i * 7) %% 9 + 1);\n", a->elems, i, cxx);
    }
    Text call = {0}, sums = {0};
    for (int i = 0; i < r->n_args; i++)
        if (r->args[i].is_ptr)
            text_printf(&sums, "  for (long long i = 0; i < %lld; i++) sum += (double)b%d[i];\n", r->args[i].elems, i);
    text_printf(&call, "%s(", r->entry);
    for (int i = 0; i < r->n_args; i++) {
        if (r->args[i].is_ptr) text_printf(&call, "%sb%d", i ? ", " : "", i);
        else text_printf(&call, "%s%d", i ? ", " : "", scalar_value(k, &r->args[i]));
    }
    text_printf(&call, ")");
    text_printf(t, "  double sum = 0.0;\n%s  const double sum0 = sum;\n  %s;\n  sum = 0.0;\n%s"
                   "  std::printf(\"D %%.17g\\n\", sum - sum0);\n", sums.s, call.s, sums.s);
    text_printf(t, "  if (reps > 0) {\n    std::vector<double> v;\n    for (long k = 0; k < reps; k++) {\n"
                   "      auto t0 = std::chrono::steady_clock::now();\n      %s;\n"
                   "      v.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());\n"
                   "    }\n    std::sort(v.begin(), v.end());\n    std::printf(\"K %%.4f\\n\", v[v.size() / 2]);\n  }\n"
                   "  sum = 0.0;\n%s  std::printf(\"C %%g\\n\", sum);\n  return 0;\n}\n",
                call.s, sums.s);
    text_free(&sums);
    text_free(&call);
}

/* Median wall ms of `samples` runs of argv after one warm-up; a negative status on failure. */
static double time_process(char *const argv[], int samples, int *status) {
    ProcResult w = bench_spawn(argv);
    *status = w.status;
    if (w.status != 0) return 0.0;
    double v[1000];
    for (int s = 0; s < samples; s++) {
        ProcResult p = bench_spawn(argv);
        if (p.status != 0) {
            *status = p.status;
            return 0.0;
        }
        v[s] = p.wall_ms;
    }
    return bench_median(v, samples);
}

static void run_kernel(const BenchOptions *o, const KernelSpec *k, const char *samples_dir, const char *ptoas,
                       const char *inc, const char *overlay, KRow *r) {
    char pto[4096], dir[4096], cpp[4096], main_cpp[4096], bin[4096], err[4096], cmd[16384];
    bench_fmt(pto, sizeof pto, "%s/%s", samples_dir, k->path);
    /* label: Dir/file.pto -> Dir/file (target) */
    bench_fmt(r->label, sizeof r->label, "%.*s %s", (int)(strlen(k->path) - 4), k->path, k->target);
    char slug[128];
    snprintf(slug, sizeof slug, "%.*s_%s", (int)(strlen(k->path) - 4), k->path, k->target);
    for (char *c = slug; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_') *c = '_';
    bench_fmt(dir, sizeof dir, "%s/pto-bench-kernels/%s", o->build, slug);
    bench_fmt(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (bench_run_shell(cmd) != 0) return bench_fmt(r->why, sizeof r->why, "cannot create %s", dir);
    char *text = read_text(pto);
    if (!text) return bench_fmt(r->why, sizeof r->why, "cannot read %s", pto);
    bool sig = parse_signature(text, r);
    free(text);
    if (!sig) return;

    /* ptoas: .pto -> C++ */
    bench_fmt(cpp, sizeof cpp, "%s/kernel.cpp", dir);
    bench_fmt(err, sizeof err, "%s/ptoas.err", dir);
    bench_fmt(cmd, sizeof cmd, "'%s' %s '%s' -o '%s' >/dev/null 2>'%s'", ptoas, k->ptoas_flags, pto, cpp, err);
    int64_t t0 = bench_now_ns();
    int st = bench_run_shell(cmd);
    r->ptoas_ms = (double)(bench_now_ns() - t0) / 1e6;
    if (st != 0) {
        char line[160];
        first_line(err, "error", line, sizeof line);
        if (!line[0]) bench_fmt(line, sizeof line, "exit status %d, no message", st);
        return bench_fmt(r->why, sizeof r->why, "ptoas rejected: %s", line);
    }

    /* buffer sizes from a sizing run on zero-filled buffers, then the input files */
    char store[2 * MAX_KARGS + 4][4200];
    char *argv[4 * MAX_KARGS + 8];
    pto_run_argv(o, k, r, pto, dir, 0, store, argv);
    ProcResult sz = bench_spawn(argv);
    if (sz.status != 0) return bench_fmt(r->why, sizeof r->why, "pto-run sizing run exit %d", sz.status);
    for (int i = 0; i < r->n_args; i++) {
        KArg *a = &r->args[i];
        if (!a->is_ptr) continue;
        char path[4200];
        bench_fmt(path, sizeof path, "%s/size_%s.bin", dir, a->name);
        long long bytes = file_size(path);
        if (bytes <= 0) return bench_fmt(r->why, sizeof r->why, "no size for %%%s", a->name);
        a->elems = bytes / (long long)elem_info(a->dtype, NULL);
        unlink(path);
        bench_fmt(path, sizeof path, "%s/in_%s.bin", dir, a->name);
        unlink(path); /* a new file: none of the old one's pages stay in the page cache */
        if (!write_fill(path, a)) return bench_fmt(r->why, sizeof r->why, "cannot write %s", path);
    }

    /* pto-run end to end */
    pto_run_argv(o, k, r, pto, dir, 1, store, argv);
    r->pto_run_ms = time_process(argv, o->samples, &st);
    if (st != 0) return bench_fmt(r->why, sizeof r->why, "pto-run exit %d", st);
    /* the same with the happens-before checker (issue #14): a report would be a failing exit */
    pto_run_argv(o, k, r, pto, dir, 3, store, argv);
    r->sync_ms = time_process(argv, o->samples, &st);
    if (st != 0) return bench_fmt(r->why, sizeof r->why, "pto-run --check-sync exit %d", st);
    /* one more run writing every buffer: the change it made, to compare with the simulator's */
    pto_run_argv(o, k, r, pto, dir, 2, store, argv);
    ProcResult chk = bench_spawn(argv);
    if (chk.status != 0) return bench_fmt(r->why, sizeof r->why, "pto-run (writing outputs) exit %d", chk.status);
    r->ours_delta = 0.0;
    for (int i = 0; i < r->n_args; i++) {
        const KArg *a = &r->args[i];
        if (!a->is_ptr) continue;
        char in[4200], out[4200];
        bench_fmt(in, sizeof in, "%s/in_%s.bin", dir, a->name);
        bench_fmt(out, sizeof out, "%s/out_%s.bin", dir, a->name);
        r->ours_delta += file_sum(out, a->dtype) - file_sum(in, a->dtype);
        r->has_bf16 |= !strcmp(a->dtype, "bf16");
    }
    if (!inc) return; /* no simulator: the pto-run figure only */

    /* the simulator: generated main, g++ -O2, the binary as a process, then in process */
    Text t = {0};
    sim_main(&t, k, r, cpp);
    bench_fmt(main_cpp, sizeof main_cpp, "%s/sim_main.cpp", dir);
    bool wrote = bench_write_file(main_cpp, t.s, t.len);
    text_free(&t);
    if (!wrote) return bench_fmt(r->why, sizeof r->why, "cannot write %s", main_cpp);
    bench_fmt(bin, sizeof bin, "%s/sim", dir);
    bench_fmt(err, sizeof err, "%s/g++.err", dir);
    bench_fmt(cmd, sizeof cmd, "g++ -std=c++20 -O2 -D__CPU_SIM -DPTO_CPU_MAX_THREADS=1 -I'%s' -I'%s' '%s' -o '%s' 2>'%s'",
              overlay, inc, main_cpp, bin, err);
    t0 = bench_now_ns();
    st = bench_run_shell(cmd);
    r->gxx_s = (double)(bench_now_ns() - t0) / 1e9;
    if (st != 0) {
        char line[160];
        first_line(err, "error", line, sizeof line);
        if (!line[0]) bench_fmt(line, sizeof line, "exit status %d, no message", st);
        r->gxx_s = 0.0;
        return bench_fmt(r->why, sizeof r->why, "g++ rejected: %s", line);
    }
    char *sargv[] = {bin, NULL};
    r->sim_proc_ms = time_process(sargv, o->samples, &st);
    if (st != 0) return bench_fmt(r->why, sizeof r->why, "simulator binary exit %d", st);
    bench_fmt(cmd, sizeof cmd, "'%s' %d", bin, o->samples);
    FILE *p = popen(cmd, "r");
    char line[256];
    r->sim_call_ms = -1.0;
    r->sim_delta = NAN;
    while (p && fgets(line, sizeof line, p)) {
        double v;
        if (sscanf(line, "K %lf", &v) == 1) r->sim_call_ms = v;
        if (sscanf(line, "D %lf", &v) == 1) r->sim_delta = v;
    }
    if (!p || pclose(p) != 0 || r->sim_call_ms < 0) bench_fmt(r->why, sizeof r->why, "simulator timing run failed");
}

bool bench_kernels(const BenchOptions *o, GoalResult *goals) {
    printf("\n== Whole kernels: pto-run end to end beside ptoas -> C++ -> g++ -O2 -> pto-isa CPU simulator ==\n");
    char ptoas[4096], samples[4096], note[512] = "", sim_note[512] = "";
    find_ptoas(o, ptoas, sizeof ptoas);
    if (access(ptoas, X_OK) != 0) {
        printf("  skipped: no ptoas at %s (build it with `make check-ptoas`, or give --ptoas PATH / $PTOAS_BIN)\n", ptoas);
        return true;
    }
    if (!find_samples(o, samples, sizeof samples, note, sizeof note)) {
        printf("  skipped: %s\n", note);
        return true;
    }
    const char *inc = o->no_sim ? NULL : bench_find_pto_isa(o, sim_note, sizeof sim_note);
    char overlay[4096] = "";
    if (o->no_sim) snprintf(sim_note, sizeof sim_note, "--no-sim given");
    if (inc && !bench_sim_overlay(o, inc, overlay, sizeof overlay)) {
        snprintf(sim_note, sizeof sim_note, "could not write the header overlay %s", overlay);
        inc = NULL;
    }
    if (!inc) {
        printf("  skipped: no pto-isa tree for the simulator (%s)\n", sim_note);
        return true;
    }
    BenchOptions ko = *o; /* the matmul kernels take about a second a run: at most 3 samples */
    if (ko.samples > 3) ko.samples = 3;
    o = &ko;
    static KRow rows[N_KERNELS];
    memset(rows, 0, sizeof rows);
    printf("%-44s %8s | %9s %15s | %7s %8s %9s | %9s %7s | %8s\n", "kernel (target)", "ptoas ms", "pto-run ms",
           "--check-sync ms", "g++ s", "run ms", "call ms", "sim ms", "x", "sum diff");
    int measured = 0, met = 0, rejected = 0, n_disagree = 0;
    double worst = 0.0;
    char worst_label[64] = "";
    bool any_bf16 = false;
    for (int i = 0; i < N_KERNELS; i++) {
        if (o->op_filter && !strcasestr(kernel_specs[i].path, o->op_filter)) continue;
        KRow *r = &rows[i];
        run_kernel(o, &kernel_specs[i], samples, ptoas, inc, overlay, r);
        for (int a = 0; a < r->n_args; a++) any_bf16 |= r->args[a].is_ptr && !strcmp(r->args[a].dtype, "bf16");
        if (r->why[0]) {
            rejected++;
            if (r->pto_run_ms > 0)
                printf("%-44s %8.1f | %9.2f | %s\n", r->label, r->ptoas_ms, r->pto_run_ms, r->why);
            else printf("%-44s %8s | %9s | %s\n", r->label, "-", "-", r->why);
            continue;
        }
        double sim_total = r->gxx_s * 1e3 + r->sim_proc_ms;
        double x = sim_total / r->pto_run_ms;
        /* relative difference of the change one run made to the sum of every buffer element */
        double diff = fabs(r->sim_delta - r->ours_delta) / fmax(fabs(r->ours_delta), 1.0);
        bool agree = r->has_bf16 || diff <= 1e-4; /* bf16: the simulator computes in f16 here, not judged */
        printf("%-44s %8.1f | %9.2f %8.2f %5.2fx | %7.2f %8.2f %9.3f | %9.0f %6.0fx | %7.0e%s\n", r->label, r->ptoas_ms,
               r->pto_run_ms, r->sync_ms, r->sync_ms / r->pto_run_ms, r->gxx_s, r->sim_proc_ms, r->sim_call_ms, sim_total, x,
               diff, r->has_bf16 ? "~" : agree ? " " : "!");
        if (!agree) n_disagree++;
        measured++;
        met += x >= KERNELS_GOAL_X;
        if (worst == 0.0 || x < worst) worst = x, snprintf(worst_label, sizeof worst_label, "%s", r->label);
    }
    printf("  pto-run ms: %s/pto-run FILE --in ... --set ..., spawn to exit (parse + verify + run + read inputs), median "
           "of %d after a warm-up; --check-sync ms: the same with --check-sync (no report allowed), and its ratio to "
           "pto-run ms\n",
           o->build, o->samples);
    printf("  g++ s: g++ -std=c++20 -O2 -D__CPU_SIM -DPTO_CPU_MAX_THREADS=1 of the ptoas C++ and a generated main; "
           "run ms: that binary spawn to exit (fill + one kernel call); call ms: the kernel call alone, in process\n");
    printf("  sim ms = g++ + run (ptoas not included); x = sim ms / pto-run ms; generated files: %s/pto-bench-kernels; "
           "pto-isa headers: %s\n",
           o->build, inc);
    printf("  sum diff: one pto-run (--out of every buffer) and the simulator's first call each change the sum of "
           "all buffer elements; |sim - ours| / max(|ours|, 1); `!` above 1e-4: %d kernel(s); `~` bf16 buffers, not "
           "judged (see the note below)\n",
           n_disagree);
    if (any_bf16)
        printf("  note: g++ 12 has no std::bfloat16_t, so pto-isa's simulator builds bf16 as its _Float16 placeholder: "
               "bf16 kernels run with f16 arithmetic there (timing comparable, values not)\n");
    GoalResult *g = &goals[GOAL_KERNELS];
    if (measured > 0) {
        g->measured = true;
        g->met = met == measured;
        snprintf(g->figure, sizeof g->figure, "worst %.0fx (%s); %d of %d kernels%s", worst, worst_label, met, measured,
                 rejected ? ", some rows not measured" : "");
    }
    return true;
}
