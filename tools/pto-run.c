/* pto-run - parses, verifies and executes a PTO-AS program (SPEC 5).
 * Exit status: 0 success; 1 verifier error, run-time error or --expect mismatch; 2 usage or I/O. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "parser.h"
#include "verifier.h"

#ifndef PTO_VERSION
#define PTO_VERSION "0.0.0"
#endif

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_DONE = -1 /* --help, --version */ };

static const char usage_text[] =
    "Usage: pto-run [OPTIONS] FILE\n"
    "Parse, verify and execute a PTO-AS program (FILE, or - for standard input).\n"
    "Options may come before or after FILE; OPT=VALUE and OPT VALUE are both accepted;\n"
    "'--' ends the options (the next argument is FILE).\n"
    "\n"
    "  --target=a2a3|a5    target profile (memory sizes, rules); default: the module's\n"
    "                      pto.target_arch, else a2a3 (a2 and a3 are aliases)\n"
    "  --entry NAME        function to run (default: the pto.entry one, else the only one)\n"
    "  --in NAME=PATH      input data: a !pto.ptr argument (arg0 or %arg0, by name or position)\n"
    "                      becomes a GM buffer of the file's elements; a tile value (src0) gets\n"
    "                      its valid region filled, in row-major order, where pto.alloc_tile\n"
    "                      defines it\n"
    "  --set NAME=VALUE    value of a scalar argument (decimal; 0x bit patterns for floats);\n"
    "                      each value takes one --in or --set\n"
    "  --out NAME=PATH     after a successful run, write a GM buffer (whole) or a tile's valid\n"
    "                      region; written whole or not at all\n"
    "  --expect NAME=PATH  after the run, compare a GM buffer or tile with the file; prints a\n"
    "                      summary line and the first mismatches with their (row, col)\n"
    "  --compare=MODE      how --expect compares: allclose (default: the tolerances below)\n"
    "                      or bits (identical bit patterns: NaN payloads and -0 included)\n"
    "  --atol A            absolute tolerance of every --expect (default 1e-5 for f32, 1e-3\n"
    "                      for f16/bf16, 0 for integers)\n"
    "  --rtol R            relative tolerance: an element fails when |got-want| > A + R*|want|\n"
    "  --print NAME        print a tile or GM buffer after the run (TPRINT layout)\n"
    "  --trace             print each executed operation with its operands' placement\n"
    "  --max-steps N       stop with an error after N executed steps (default 100000000)\n"
    "  --blocks N          run the entry N times, once per block index 0..N-1 in order\n"
    "                      (pto.get_block_idx / get_block_num), each with fresh zero-filled\n"
    "                      on-chip memories over the same GM buffers (default 1, at most 65536);\n"
    "                      --max-steps counts the steps of all blocks together\n"
    "  --check-sync[=auto|strict]\n"
    "                      check synchronisation on the executed path: accesses of one memory\n"
    "                      by instructions on pipes (MTE2, V, M, MTE1, MTE3, FIX) that no\n"
    "                      set_flag/wait_flag or barrier orders are errors (SYNC.raw, SYNC.war,\n"
    "                      SYNC.waw) with both lines and a fix-it; also a wait with no set, a\n"
    "                      second set before its wait, flags left set. auto (the default): a\n"
    "                      kernel with no sync op at all gets one note listing what it needs\n"
    "                      (PTOAS inserts it); strict: errors there too\n"
    "  --check-init        report reads of on-chip bytes no instruction wrote (INIT.read), and\n"
    "                      reads of the bytes a tload with no pad value leaves outside its\n"
    "                      valid region (INIT.pad: zeros here and in the simulator, stale data\n"
    "                      on the hardware)\n"
    "  -Werror             treat verifier warnings as errors\n"
    "  --help              show this help\n"
    "  --version           show the version\n"
    "\n"
    "Data files: .npy (v1.0-3.0, C order; bf16 as <u2) or raw little-endian .bin.\n"
    "Exit status: 0 success; 1 verifier error, run-time error or --expect mismatch;\n"
    "2 usage or I/O problem (bad option, unreadable file, a data file whose dtype or size does\n"
    "not fit its binding, an --entry that names no function).\n";

typedef struct NamedPath {
    const char *name;
    const char *path;
} NamedPath;

typedef struct Options {
    const char *file;
    Target target;
    bool target_given;
    const char *entry;
    NamedPath *ins, *sets, *outs, *expects;
    int n_ins, n_sets, n_outs, n_expects;
    const char **prints;
    int n_prints;
    CompareOptions cmp;
    bool compare_given;     /* --compare was given */
    bool trace;
    bool werror;
    uint64_t max_steps;
    int64_t blocks;
    int check_sync;         /* 0 off, 1 auto, 2 strict */
    bool check_init;        /* --check-init */
} Options;

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("pto-run: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n(pto-run --help lists the options)\n", stderr);
    return EXIT_USAGE;
}

static void io_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void io_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("pto-run: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Splits NAME=PATH; false if there is no '=' or either side is empty. */
static bool split_named(const char *arg, NamedPath *out) {
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) return false;
    size_t n = (size_t)(eq - arg);
    char *name = malloc(n + 1);
    if (!name) return false;
    memcpy(name, arg, n);
    name[n] = '\0';
    out->name = name;
    out->path = eq + 1;
    return true;
}

static bool parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0)) return false;
    *out = v;
    return true;
}

/* If argv[*i] is `--name=VALUE` or `--name VALUE`, stores VALUE and advances; returns 1 when it
 * matched, 0 when it is another option, -1 when the value is missing. */
static int option_value(int argc, char **argv, int *i, const char *name, const char **value) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0') return 0;
    if (*i + 1 >= argc) return -1;
    *value = argv[++*i];
    return 1;
}

static int parse_args(int argc, char **argv, Options *o) {
    memset(o, 0, sizeof *o);
    size_t cap = (size_t)argc + 1;
    o->ins = calloc(cap, sizeof *o->ins);
    o->sets = calloc(cap, sizeof *o->sets);
    o->outs = calloc(cap, sizeof *o->outs);
    o->expects = calloc(cap, sizeof *o->expects);
    o->prints = calloc(cap, sizeof *o->prints);
    if (!o->ins || !o->sets || !o->outs || !o->expects || !o->prints) return usage_error("out of memory");
    bool no_more_options = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int r;
        if (!no_more_options && !strcmp(a, "--")) {
            no_more_options = true;
            continue;
        }
        if (no_more_options) {
            if (o->file) return usage_error("more than one program file ('%s' and '%s')", o->file, a);
            o->file = a;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return EXIT_DONE;
        }
        if (!strcmp(a, "--version")) {
            printf("pto-run %s\n", PTO_VERSION);
            return EXIT_DONE;
        }
        if (!strcmp(a, "--trace")) {
            o->trace = true;
            continue;
        }
        if (!strcmp(a, "--check-sync") || !strcmp(a, "--check-sync=auto")) {
            o->check_sync = 1;
            continue;
        }
        if (!strcmp(a, "--check-sync=strict")) {
            o->check_sync = 2;
            continue;
        }
        if (!strcmp(a, "--check-init")) {
            o->check_init = true;
            continue;
        }
        if (!strncmp(a, "--check-sync=", 13)) return usage_error("--check-sync takes auto or strict, got '%s'", a + 13);
        if (!strcmp(a, "-Werror")) {
            o->werror = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--target", &v))) {
            if (r < 0) return usage_error("--target needs a value (a2a3 or a5)");
            if (!target_from_name(v, &o->target)) return usage_error("unknown target '%s' (expected a2a3 or a5)", v);
            o->target_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--entry", &v))) {
            if (r < 0 || !*v) return usage_error("--entry needs a function name");
            o->entry = v[0] == '@' ? v + 1 : v;
            continue;
        }
        struct {
            const char *opt;
            NamedPath *list;
            int *count;
            const char *what;
        } named[] = {
            {"--in", o->ins, &o->n_ins, "NAME=PATH"},
            {"--set", o->sets, &o->n_sets, "NAME=VALUE"},
            {"--out", o->outs, &o->n_outs, "NAME=PATH"},
            {"--expect", o->expects, &o->n_expects, "NAME=PATH"},
        };
        bool matched = false;
        for (size_t k = 0; k < sizeof named / sizeof *named && !matched; k++) {
            if (!(r = option_value(argc, argv, &i, named[k].opt, &v))) continue;
            matched = true;
            if (r < 0 || !split_named(v, &named[k].list[*named[k].count]))
                return usage_error("%s expects %s, got '%s'", named[k].opt, named[k].what, r < 0 ? "" : v);
            (*named[k].count)++;
        }
        if (matched) continue;
        if ((r = option_value(argc, argv, &i, "--print", &v))) {
            if (r < 0 || !*v) return usage_error("--print needs a NAME");
            o->prints[o->n_prints++] = v;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--compare", &v))) {
            if (r < 0 || (strcmp(v, "bits") != 0 && strcmp(v, "allclose") != 0))
                return usage_error("--compare expects bits or allclose, got '%s'", r < 0 ? "" : v);
            o->cmp.bits = strcmp(v, "bits") == 0;
            o->compare_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--atol", &v))) {
            if (r < 0 || !parse_double(v, &o->cmp.atol)) return usage_error("--atol expects a number >= 0");
            o->cmp.atol_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--rtol", &v))) {
            if (r < 0 || !parse_double(v, &o->cmp.rtol)) return usage_error("--rtol expects a number >= 0");
            o->cmp.rtol_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--max-steps", &v))) {
            char *end;
            errno = 0;
            unsigned long long n = r > 0 ? strtoull(v, &end, 10) : 0;
            if (r < 0 || end == v || *end || errno || n == 0 || v[0] == '-')
                return usage_error("--max-steps expects a positive integer");
            o->max_steps = n;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--blocks", &v))) {
            char *end = NULL;
            errno = 0;
            long long n = r > 0 ? strtoll(v, &end, 10) : 0;
            if (r < 0 || end == v || *end || errno || n < 1 || n > 65536)
                return usage_error("--blocks expects an integer from 1 to 65536, got '%s'", r < 0 ? "" : v);
            o->blocks = n;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') return usage_error("unknown option '%s'", a);
        if (o->file) return usage_error("more than one program file ('%s' and '%s')", o->file, a);
        o->file = a;
    }
    if (!o->file) return usage_error("no program file given");
    if ((o->compare_given || o->cmp.atol_given || o->cmp.rtol_given) && o->n_expects == 0)
        return usage_error("--compare, --atol and --rtol apply to --expect, and none is given");
    if (o->cmp.bits && (o->cmp.atol_given || o->cmp.rtol_given))
        return usage_error("--compare=bits takes no tolerance (--atol/--rtol)");
    return EXIT_OK;
}

/* Resolves a command-line name; prints the problem and returns false when it names nothing. */
static bool lookup(const Interp *ip, const char *opt, const char *name, InterpBinding *b) {
    char err[256];
    if (interp_lookup(ip, name, b, err, sizeof err)) return true;
    io_error("%s %s: %s", opt, name, err);
    return false;
}

/* One value given its input on the command line, and by which option. */
typedef struct BoundInput {
    const Value *value;
    const char *opt, *name;
} BoundInput;

/* Records that `b` gets its input from `opt NAME`; false (reported) when an earlier option already
 * gave it one (`--in arg0=a --in %arg0=b` is a mistake, not an override). */
static bool bind_once(BoundInput *bound, int *n, const InterpBinding *b, const char *opt, const char *name) {
    for (int k = 0; k < *n; k++)
        if (bound[k].value == b->value) {
            io_error("%s %s: %s already has its input from %s %s", opt, name, b->display, bound[k].opt, bound[k].name);
            return false;
        }
    bound[(*n)++] = (BoundInput){b->value, opt, name};
    return true;
}

static void print_diags(DiagList *diags) {
    fflush(stdout);
    diag_sort(diags);
    diag_print_text(stderr, diags);
}

static void free_options(Options *o) {
    NamedPath *lists[] = {o->ins, o->sets, o->outs, o->expects};
    int counts[] = {o->n_ins, o->n_sets, o->n_outs, o->n_expects};
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < counts[k] && lists[k]; i++) free((char *)lists[k][i].name);
        free(lists[k]);
    }
    free(o->prints);
}

static int run(Options *o);

int main(int argc, char **argv) {
    Options o;
    int status = parse_args(argc, argv, &o);
    if (status == EXIT_OK) status = run(&o);
    free_options(&o);
    return status == EXIT_DONE ? EXIT_OK : status;
}

static int run(Options *opts) {
    Options o = *opts;
    int status;

    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags, arena);
    diags.warnings_as_errors = o.werror;
    SourceFile file;
    char err[512];
    if (!source_file_read(arena, o.file, &file, err, sizeof err)) {
        io_error("%s", err);
        arena_free(arena);
        return EXIT_USAGE;
    }
    Module *m = parse_module(arena, &file, &diags);
    if (!m || diags.errors) {
        print_diags(&diags);
        arena_free(arena);
        return EXIT_FAIL;
    }
    VerifyOptions vopts = {.target = o.target, .target_given = o.target_given, .entry = o.entry};
    bool verified = verify_module(m, &vopts, &diags);
    if (!verified || diags.errors) {
        print_diags(&diags);
        arena_free(arena);
        return EXIT_FAIL;
    }
    if (diags.count) print_diags(&diags); /* warnings */
    diags.count = diags.errors = diags.warnings = 0;

    if (o.entry && !module_find_func(m, o.entry)) {
        io_error("--entry %s: %s has no function @%s", o.entry, o.file, o.entry);
        arena_free(arena);
        return EXIT_USAGE;
    }
    InterpOptions iopts = {.target = verify_effective_target(m, &vopts),
                           .entry = o.entry,
                           .max_steps = o.max_steps,
                           .blocks = o.blocks,
                           .check_sync = o.check_sync,
                           .check_init = o.check_init,
                           .trace = o.trace,
                           .out = stdout};
    Interp *ip = interp_create(m, &iopts, &diags);
    if (!ip) {
        print_diags(&diags);
        arena_free(arena);
        return EXIT_FAIL;
    }
    status = EXIT_OK;
    InterpBinding b;
    BoundInput *bound = calloc((size_t)(o.n_ins + o.n_sets) + 1, sizeof *bound);
    int n_bound = 0;
    if (!bound) {
        io_error("out of memory");
        status = EXIT_USAGE;
    }
    /* inputs */
    for (int i = 0; i < o.n_ins && status == EXIT_OK; i++) {
        if (!lookup(ip, "--in", o.ins[i].name, &b)) {
            status = EXIT_USAGE;
            break;
        }
        if (!bind_once(bound, &n_bound, &b, "--in", o.ins[i].name)) {
            status = EXIT_USAGE;
            break;
        }
        if (b.kind == BIND_SCALAR) {
            io_error("--in %s: %s is a scalar argument; give its value with --set %s=VALUE", o.ins[i].name, b.display,
                     o.ins[i].name);
            status = EXIT_USAGE;
            break;
        }
        DataArray data;
        if (!datafile_read(o.ins[i].path, b.dtype, &data, err, sizeof err)) {
            io_error("--in %s: %s", o.ins[i].name, err);
            status = EXIT_USAGE;
            break;
        }
        bool ok = b.kind == BIND_GM ? interp_bind_gm(ip, &b, &data, err, sizeof err)
                                    : interp_bind_tile(ip, &b, &data, err, sizeof err);
        data_array_free(&data);
        if (!ok) {
            io_error("--in %s=%s: %s", o.ins[i].name, o.ins[i].path, err);
            status = EXIT_USAGE;
        }
    }
    for (int i = 0; i < o.n_sets && status == EXIT_OK; i++) {
        if (!lookup(ip, "--set", o.sets[i].name, &b)) {
            status = EXIT_USAGE;
            break;
        }
        if (!bind_once(bound, &n_bound, &b, "--set", o.sets[i].name)) {
            status = EXIT_USAGE;
            break;
        }
        if (!interp_bind_scalar(ip, &b, o.sets[i].path, err, sizeof err)) {
            io_error("--set %s: %s", o.sets[i].name, err);
            status = EXIT_USAGE;
        }
    }
    free(bound);
    /* every result name must exist before anything runs */
    for (int i = 0; i < o.n_outs && status == EXIT_OK; i++)
        if (!lookup(ip, "--out", o.outs[i].name, &b)) status = EXIT_USAGE;
    for (int i = 0; i < o.n_expects && status == EXIT_OK; i++)
        if (!lookup(ip, "--expect", o.expects[i].name, &b)) status = EXIT_USAGE;
    for (int i = 0; i < o.n_prints && status == EXIT_OK; i++)
        if (!lookup(ip, "--print", o.prints[i], &b)) status = EXIT_USAGE;

    if (status == EXIT_OK && !interp_run(ip)) {
        print_diags(&diags);
        status = EXIT_FAIL;
    } else if (status == EXIT_OK && diags.count) { /* --check-sync's notes and warnings after a good run */
        print_diags(&diags);
    }
    /* results, only after a successful run */
    for (int i = 0; i < o.n_prints && status == EXIT_OK; i++) {
        DataArray got;
        if (!lookup(ip, "--print", o.prints[i], &b)) continue;
        if (!interp_fetch(ip, &b, &got, err, sizeof err)) {
            io_error("--print %s: %s", o.prints[i], err);
            status = EXIT_FAIL;
            continue;
        }
        char title[160];
        int64_t rows = 1; /* all but the last dim, from the shape: a 3x0 region has count 0 */
        for (int d = 0; d + 1 < got.rank; d++) rows *= got.shape[d];
        if (got.rank >= 2)
            snprintf(title, sizeof title, "%s: %lldx%lld %s", b.display, (long long)rows,
                     (long long)got.shape[got.rank - 1], dtype_name(got.dtype));
        else
            snprintf(title, sizeof title, "%s: %lld %s", b.display, (long long)got.count, dtype_name(got.dtype));
        data_array_print(stdout, title, &got);
        data_array_free(&got);
    }
    for (int i = 0; i < o.n_outs && status == EXIT_OK; i++) {
        DataArray got;
        if (!lookup(ip, "--out", o.outs[i].name, &b)) continue;
        if (!interp_fetch(ip, &b, &got, err, sizeof err)) {
            io_error("--out %s: %s", o.outs[i].name, err);
            status = EXIT_FAIL;
            continue;
        }
        if (!datafile_write(o.outs[i].path, &got, err, sizeof err)) {
            io_error("--out %s: %s", o.outs[i].name, err);
            status = EXIT_USAGE;
        }
        data_array_free(&got);
    }
    bool mismatch = false;
    for (int i = 0; i < o.n_expects && status == EXIT_OK; i++) {
        DataArray got, want;
        if (!lookup(ip, "--expect", o.expects[i].name, &b)) continue;
        if (!interp_fetch(ip, &b, &got, err, sizeof err)) {
            io_error("--expect %s: %s", o.expects[i].name, err);
            status = EXIT_FAIL;
            continue;
        }
        if (!datafile_read(o.expects[i].path, b.dtype, &want, err, sizeof err)) {
            io_error("--expect %s: %s", o.expects[i].name, err);
            data_array_free(&got);
            status = EXIT_USAGE;
            continue;
        }
        int64_t bad = data_array_compare(stdout, b.display, &got, &want, &o.cmp, err, sizeof err);
        if (bad < 0) { /* the data file does not fit the result (dtype, size): a data-file problem */
            fflush(stdout);
            io_error("--expect %s=%s: %s", o.expects[i].name, o.expects[i].path, err);
            status = EXIT_USAGE;
        } else if (bad > 0) {
            mismatch = true;
        }
        data_array_free(&got);
        data_array_free(&want);
    }
    if (status == EXIT_OK && mismatch) status = EXIT_FAIL;
    fflush(stdout);
    interp_destroy(ip);
    arena_free(arena);
    return status;
}
