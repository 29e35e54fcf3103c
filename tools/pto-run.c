/* pto-run - parses, verifies and executes a PTO-AS program (SPEC 5).
 * Exit status: 0 success; 1 verifier error, run-time error or --expect mismatch; 2 usage or I/O. */
#define _POSIX_C_SOURCE 200809L /* getline, open_memstream */
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
    "  --out NAME=PATH     after a successful run, write a GM buffer (whole), a tile's valid\n"
    "                      region or the GM elements a view covers; written whole or not at all\n"
    "  --expect NAME=PATH[:KEY=VALUE,...]\n"
    "                      after the run, compare a GM buffer or tile with the file and print\n"
    "                      its report: mismatch count and fraction, the largest absolute and\n"
    "                      relative errors with their indices, the first mismatches, and which\n"
    "                      rows and columns fail. KEYs override the global tolerances for this\n"
    "                      buffer: atol=, rtol= (allclose) or eps=, frac=, zeros= (isa)\n"
    "  --compare=MODE      how --expect compares: allclose (default: the tolerances below),\n"
    "                      bits (identical bit patterns: NaN payloads and -0 included), or\n"
    "                      isa[:eps=E,frac=F,zeros=N] (pto-isa's ResultCmp: an element fails\n"
    "                      when its absolute and relative differences both exceed E, default\n"
    "                      1e-3; the buffer passes while at most floor(count * F) elements fail,\n"
    "                      F defaulting to E, and at most N results are ~0 where the expected\n"
    "                      value is not, default 1000)\n"
    "  --atol A            absolute tolerance of every --expect (default 1e-5 for f32, 1e-3\n"
    "                      for f16/bf16, 0 for integers)\n"
    "  --rtol R            relative tolerance: an element fails when |got-want| > A + R*|want|\n"
    "  --show N            mismatches listed per --expect report (default 10; 0: none)\n"
    "  --zero-inputs       GM buffers without --in start as zeros; without it, reading (tload,\n"
    "                      tprint, an atomic tstore) an element of such a buffer that the run has\n"
    "                      not written is a run-time error\n"
    "  --print SPEC        print a tile, GM buffer, view or scalar: SPEC is [FUNC:]NAME[@LINE][[R0:R1,\n"
    "                      C0:C1]]. Without @LINE: the entry function's value after the run;\n"
    "                      with @LINE: every time the operation on that line has executed, the\n"
    "                      value in the function running it (FUNC: picks one); [R0:R1, C0:C1]\n"
    "                      limits the rows and columns printed (either may be empty: [2:4, :]);\n"
    "                      an event-id array's ids and a vector's lanes (tmrgsort's executed)\n"
    "                      print with @LINE only\n"
    "  --print-format=FMT  tprint (default: the TPRINT layout), %g (shortest exact decimal),\n"
    "                      %a (hex float) or hex (bit patterns)\n"
    "  --trace             print each executed operation: source line, operands with their\n"
    "                      placement and valid shapes, and an FNV-1a 64 checksum of each tile or\n"
    "                      GM view it wrote (docs/execution.md)\n"
    "  --diff-trace A B    compare two saved --trace outputs and print the first record where\n"
    "                      they differ (exit 0 same, 1 different, 2 unreadable); no FILE\n"
    "  --max-steps N       stop with an error after N executed steps (default 100000000)\n"
    "  --blocks N          run the entry N times, once per block index 0..N-1 in order\n"
    "                      (pto.get_block_idx / get_block_num), each with fresh zero-filled\n"
    "                      on-chip memories over the same GM buffers (default 1, at most 65536);\n"
    "                      --max-steps counts the steps of all blocks together; in a\n"
    "                      module with FIFO ops (tpush_to_aiv, tpush, ...) the entry's calls of\n"
    "                      cube and vector kernel functions run as cores (two vector\n"
    "                      sub-blocks), docs/execution.md\n"
    "  --check-sync[=auto|strict]\n"
    "                      check synchronisation on the executed path: accesses of one memory\n"
    "                      by instructions on pipes (MTE2, V, M, MTE1, MTE3, FIX) that no\n"
    "                      set_flag/wait_flag, barrier, get_buf/rls_buf or sync.set/sync.wait\n"
    "                      orders, and by the DMA engine of tput_async/tget_async, which only\n"
    "                      a wait on their event orders, are errors (SYNC.raw, SYNC.war,\n"
    "                      SYNC.waw) with both lines and a fix-it; also a wait with no set, a\n"
    "                      second set before its wait, flags left set, buffer ids misused,\n"
    "                      semaphore hangs. auto (the default): a kernel with no sync op at all\n"
    "                      gets one note listing what it needs (PTOAS inserts it; not the waits\n"
    "                      of async transfers, whose races stay errors); strict: errors there too\n"
    "  --sweep NAME=V1,V2,...\n"
    "                      run the whole program once per value of the scalar argument NAME\n"
    "                      (as --set NAME=V), e.g. a loop bound at 0,1,2,3 to expose zero-trip\n"
    "                      and odd/even races under --check-sync; a '== --sweep NAME=V' line\n"
    "                      before each run, a summary after; exit status: the worst run's.\n"
    "                      Not with --out or --diagnostics=json\n"
    "  --check-init        report reads of on-chip bytes no instruction wrote (INIT.read),\n"
    "                      reads of the bytes a tload with no pad value leaves outside its\n"
    "                      valid region (INIT.pad: zeros here and in the simulator, stale data\n"
    "                      on the hardware), reads past a valid region that another operand\n"
    "                      sized (INIT.outside: tmatmul's rhs rows = lhs's valid cols), and\n"
    "                      reads of bytes an op's hidden scratch overwrote (INIT.scratch)\n"
    "  -q                  quiet: no warnings, notes or reports of passing --expect buffers\n"
    "                      (errors, failing reports and what --print/--trace ask for remain)\n"
    "  --diagnostics=text|json\n"
    "                      json: standard output holds one JSON object: {\"tool\", \"status\",\n"
    "                      \"diagnostics\" (parse, verifier and run-time), \"errors\" (usage,\n"
    "                      I/O and data-file problems; a usage error is also printed on\n"
    "                      standard error), \"expect\" (one report per --expect)}; program\n"
    "                      output (pto.tprint, --print, --trace) then goes to standard error\n"
    "  -Werror             treat verifier warnings as errors\n"
    "  --help              show this help\n"
    "  --version           show the version\n"
    "\n"
    "Data files: .npy (v1.0-3.0, C order; bf16 as <u2, the fp8 types such as f8E4M3FN as |u1\n"
    "bytes) or raw little-endian .bin; an .npy\n"
    "--out keeps the result's shape (a GM buffer: its --in .npy shape, else the first\n"
    "contiguous make_tensor_view on it; a tile: its valid rows x cols).\n"
    "Exit status: 0 success; 1 verifier error, run-time error or --expect mismatch;\n"
    "2 usage or I/O problem (bad option, unreadable file, a data file whose dtype or size does\n"
    "not fit its binding, an --entry that names no function).\n";

typedef struct NamedPath {
    const char *name;
    const char *path;
} NamedPath;

/* One --expect: the name, the data file and this buffer's comparison. */
typedef struct Expect {
    const char *name;       /* malloc'd */
    char *path;             /* malloc'd, without the :KEY=VALUE suffix */
    CompareOptions cmp;
    bool own_mode;          /* the suffix chose the mode (atol/rtol: allclose; eps/frac/zeros: isa) */
} Expect;

/* One --print: [FUNC:]NAME[@LINE][[R0:R1, C0:C1]]. */
typedef struct PrintSpec {
    char *func, *name;      /* malloc'd; func NULL when not given */
    uint32_t line;          /* 0: after the run */
    PrintRegion region;
    bool has_region;
    const char *text;       /* as given */
} PrintSpec;

typedef struct Options {
    const char *file;
    Target target;
    bool target_given;
    const char *entry;
    NamedPath *ins, *sets, *outs;
    int n_ins, n_sets, n_outs;
    Expect *expects;
    int n_expects;
    PrintSpec *prints;
    int n_prints;
    PrintFormat print_format;
    CompareOptions cmp;
    bool compare_given;     /* --compare was given */
    bool show_given;
    bool trace;
    bool werror;
    bool quiet;
    bool json;              /* --diagnostics=json */
    bool zero_inputs;
    const char *diff_a, *diff_b; /* --diff-trace A B */
    uint64_t max_steps;
    int64_t blocks;
    int check_sync;         /* 0 off, 1 auto, 2 strict */
    bool check_init;        /* --check-init */
    char *sweep_name;       /* --sweep NAME=V1,V2,...: the scalar argument, and its values */
    char **sweep_values;
    int n_sweep;
    /* JSON mode: messages that text mode prints as "pto-run: error: ..." */
    char **errors;
    int n_errors, cap_errors;
} Options;



/* Appends a message to the JSON document's "errors" (out of memory: dropped). */
static void record_error(Options *o, const char *msg) {
    if (o->n_errors == o->cap_errors) {
        int cap = o->cap_errors ? 2 * o->cap_errors : 8;
        char **grown = realloc(o->errors, (size_t)cap * sizeof *grown);
        if (!grown) return;
        o->errors = grown;
        o->cap_errors = cap;
    }
    char *copy = malloc(strlen(msg) + 1);
    if (!copy) return;
    strcpy(copy, msg);
    o->errors[o->n_errors++] = copy;
}

/* An I/O, data-file or name problem found after the options were read: "pto-run: error: ..." on
 * standard error, or an entry of the JSON document's "errors". */
static void io_error(Options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void io_error(Options *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (!o->json) {
        fputs("pto-run: error: ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
        return;
    }
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    record_error(o, buf);
}

/* "pto-run: error: MESSAGE" and "Try 'pto-run --help'." on standard error; in JSON mode the message
 * is also an entry of the document's "errors" (main prints the document). Returns EXIT_USAGE. */
static int usage_error(Options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(Options *o, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "pto-run: error: %s\nTry 'pto-run --help'.\n", buf);
    if (o->json) record_error(o, buf);
    return EXIT_USAGE;
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

static char *dup_range(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static bool parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0)) return false;
    *out = v;
    return true;
}

/* A non-negative decimal integer filling [s, end). */
static bool parse_count(const char *s, const char *end, int64_t *out) {
    if (s == end) return false;
    int64_t v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10) return false;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return true;
}

/* Applies "KEY=VALUE,KEY=VALUE" (atol rtol eps frac zeros) to `c`; *kinds gets bit 1 for an
 * allclose key and bit 2 for an isa key. Returns NULL, or a message naming what is wrong. */
static const char *parse_tolerances(const char *text, CompareOptions *c, int *kinds) {
    static const char *const keys[] = {"atol", "rtol", "eps", "frac", "zeros"};
    *kinds = 0;
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq) return "expects KEY=VALUE";
        char value[64];
        size_t vn = (size_t)(end - eq - 1);
        if (vn == 0 || vn >= sizeof value) return "has an empty or overlong value";
        memcpy(value, eq + 1, vn);
        value[vn] = '\0';
        int k = -1;
        for (int i = 0; i < 5; i++)
            if ((size_t)(eq - p) == strlen(keys[i]) && !strncmp(p, keys[i], (size_t)(eq - p))) k = i;
        double d = 0;
        int64_t n = 0;
        if (k < 0) return "has an unknown key (expected atol, rtol, eps, frac or zeros)";
        if (k == 4 ? !parse_count(value, value + vn, &n) : !parse_double(value, &d))
            return k == 4 ? "needs a count >= 0 for zeros" : "needs a number >= 0";
        switch (k) {
        case 0: c->atol = d, c->atol_given = true; break;
        case 1: c->rtol = d, c->rtol_given = true; break;
        case 2: c->eps = d, c->eps_given = true; break;
        case 3: c->frac = d, c->frac_given = true; break;
        default: c->zero_limit = n, c->zero_limit_given = true; break;
        }
        *kinds |= k < 2 ? 1 : 2;
        p = comma ? comma + 1 : end;
        if (comma && !*p) return "ends with a comma";
    }
    return NULL;
}

/* True when `s` starts with one of the tolerance keys and '='. */
static bool starts_with_tolerance(const char *s) {
    static const char *const keys[] = {"atol=", "rtol=", "eps=", "frac=", "zeros="};
    for (int i = 0; i < 5; i++)
        if (!strncmp(s, keys[i], strlen(keys[i]))) return true;
    return false;
}

/* --expect NAME=PATH[:KEY=VALUE,...] */
static int parse_expect(Options *o, const char *arg, Expect *e) {
    NamedPath np;
    memset(e, 0, sizeof *e);
    if (!split_named(arg, &np)) return usage_error(o, "--expect expects NAME=PATH[:KEY=VALUE,...], got '%s'", arg);
    e->name = np.name;
    const char *colon = strrchr(np.path, ':');
    if (colon && starts_with_tolerance(colon + 1)) {
        int kinds;
        const char *why = parse_tolerances(colon + 1, &e->cmp, &kinds);
        if (why) return usage_error(o, "--expect %s: the tolerances '%s' %s", np.name, colon + 1, why);
        if (kinds == 3) return usage_error(o, "--expect %s: atol/rtol (allclose) and eps/frac/zeros (isa) do not mix", np.name);
        e->cmp.isa = kinds == 2;
        e->own_mode = true;
        e->path = dup_range(np.path, (size_t)(colon - np.path));
    } else {
        e->path = dup_range(np.path, strlen(np.path));
    }
    if (!e->path || !*e->path) return usage_error(o, "--expect %s: no data file given", np.name);
    return EXIT_OK;
}

/* Parses an index bound of a region ("" = open); false on junk. */
static bool parse_bound(const char *s, const char *end, int64_t *out, int64_t open) {
    while (s < end && *s == ' ') s++;
    while (end > s && end[-1] == ' ') end--;
    if (s == end) {
        *out = open;
        return true;
    }
    return parse_count(s, end, out);
}

/* "R0:R1" into r0/r1 (an empty side is open); false on junk. */
static bool parse_range(const char *s, const char *end, int64_t *lo, int64_t *hi) {
    const char *colon = memchr(s, ':', (size_t)(end - s));
    if (!colon) { /* one index: that row or column */
        if (!parse_bound(s, end, lo, 0)) return false;
        *hi = *lo + 1;
        return true;
    }
    return parse_bound(s, colon, lo, 0) && parse_bound(colon + 1, end, hi, -1);
}

/* --print [FUNC:]NAME[@LINE][[R0:R1, C0:C1]] */
static int parse_print(Options *o, const char *arg, PrintSpec *p) {
    memset(p, 0, sizeof *p);
    p->text = arg;
    const char *end = arg + strlen(arg);
    const char *bracket = strchr(arg, '[');
    if (bracket) {
        if (end[-1] != ']') return usage_error(o, "--print %s: a region is written [R0:R1, C0:C1]", arg);
        const char *inner = bracket + 1, *inner_end = end - 1;
        const char *comma = memchr(inner, ',', (size_t)(inner_end - inner));
        p->region.c0 = 0, p->region.c1 = -1;
        if (!parse_range(inner, comma ? comma : inner_end, &p->region.r0, &p->region.r1) ||
            (comma && !parse_range(comma + 1, inner_end, &p->region.c0, &p->region.c1)))
            return usage_error(o, "--print %s: a region is written [R0:R1, C0:C1] with indices >= 0", arg);
        p->has_region = true;
        end = bracket;
    }
    const char *at = memchr(arg, '@', (size_t)(end - arg));
    if (at == arg) at = memchr(arg + 1, '@', (size_t)(end - arg - 1)); /* @FUNC:NAME */
    if (at) {
        int64_t line;
        if (!parse_count(at + 1, end, &line) || line < 1 || line > UINT32_MAX)
            return usage_error(o, "--print %s: @LINE needs a source line number", arg);
        p->line = (uint32_t)line;
        end = at;
    }
    const char *colon = memchr(arg, ':', (size_t)(end - arg));
    const char *name = arg;
    if (colon) {
        const char *f = arg[0] == '@' ? arg + 1 : arg;
        if (colon == f) return usage_error(o, "--print %s: FUNC:NAME needs a function name", arg);
        p->func = dup_range(f, (size_t)(colon - f));
        name = colon + 1;
    }
    if (name == end) return usage_error(o, "--print needs a NAME, got '%s'", arg);
    p->name = dup_range(name, (size_t)(end - name));
    if (!p->name || (colon && !p->func)) return usage_error(o, "out of memory");
    return EXIT_OK;
}

/* --compare=allclose|bits|isa[:eps=E,frac=F,zeros=N] */
static int parse_compare(Options *o, const char *v, CompareOptions *c) {
    if (!strcmp(v, "allclose")) return EXIT_OK;
    if (!strcmp(v, "bits")) {
        c->bits = true;
        return EXIT_OK;
    }
    if (!strncmp(v, "isa", 3) && (v[3] == '\0' || v[3] == ':')) {
        c->isa = true;
        if (v[3] == '\0') return EXIT_OK;
        int kinds;
        const char *why = parse_tolerances(v + 4, c, &kinds);
        if (why) return usage_error(o, "--compare=%s: '%s' %s", v, v + 4, why);
        if (kinds & 1) return usage_error(o, "--compare=isa takes eps=, frac= and zeros=, not atol/rtol");
        return EXIT_OK;
    }
    return usage_error(o, "--compare expects allclose, bits or isa[:eps=E,frac=F], got '%s'", v);
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
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) /* JSON from the start: usage errors too */
        if (!strcmp(argv[i], "--diagnostics=json") ||
            (!strcmp(argv[i], "--diagnostics") && i + 1 < argc && !strcmp(argv[i + 1], "json")))
            o->json = true;
    size_t cap = (size_t)argc + 1;
    o->ins = calloc(cap, sizeof *o->ins);
    o->sets = calloc(cap, sizeof *o->sets);
    o->outs = calloc(cap, sizeof *o->outs);
    o->expects = calloc(cap, sizeof *o->expects);
    o->prints = calloc(cap, sizeof *o->prints);
    if (!o->ins || !o->sets || !o->outs || !o->expects || !o->prints) return usage_error(o, "out of memory");
    bool no_more_options = false;
    int status;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int r;
        if (!no_more_options && !strcmp(a, "--")) {
            no_more_options = true;
            continue;
        }
        if (no_more_options) {
            if (o->file) return usage_error(o, "more than one program file ('%s' and '%s')", o->file, a);
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
        if (!strcmp(a, "-q")) {
            o->quiet = true;
            continue;
        }
        if (!strcmp(a, "--zero-inputs")) {
            o->zero_inputs = true;
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
        if ((r = option_value(argc, argv, &i, "--sweep", &v))) {
            if (o->sweep_name) return usage_error(o, "--sweep is given twice (one scalar argument per run)");
            const char *eq = r > 0 ? strchr(v, '=') : NULL;
            if (!eq || eq == v || !eq[1]) return usage_error(o, "--sweep expects NAME=V1,V2,..., got '%s'", r > 0 ? v : "");
            o->sweep_name = strndup(v, (size_t)(eq - v));
            size_t n = 1;
            for (const char *p = eq + 1; *p; p++) n += *p == ',';
            if (n > 1000) return usage_error(o, "--sweep takes at most 1000 values, got %zu", n);
            o->sweep_values = calloc(n, sizeof *o->sweep_values);
            if (!o->sweep_name || !o->sweep_values) return usage_error(o, "out of memory");
            for (const char *p = eq + 1;; p++) {
                const char *end = strchr(p, ',');
                size_t len = end ? (size_t)(end - p) : strlen(p);
                if (len == 0) return usage_error(o, "--sweep %s: an empty value in '%s'", o->sweep_name, eq + 1);
                if (!(o->sweep_values[o->n_sweep++] = strndup(p, len))) return usage_error(o, "out of memory");
                if (!end) break;
                p = end;
            }
            continue;
        }
        if (!strncmp(a, "--check-sync=", 13)) return usage_error(o, "--check-sync takes auto or strict, got '%s'", a + 13);
        if (!strcmp(a, "-Werror")) {
            o->werror = true;
            continue;
        }
        if (!strcmp(a, "--diff-trace")) {
            if (i + 2 >= argc) return usage_error(o, "--diff-trace needs two trace files");
            o->diff_a = argv[++i];
            o->diff_b = argv[++i];
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--diagnostics", &v))) {
            if (r < 0 || (strcmp(v, "text") != 0 && strcmp(v, "json") != 0))
                return usage_error(o, "--diagnostics expects text or json, got '%s'", r < 0 ? "" : v);
            o->json = !strcmp(v, "json");
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--target", &v))) {
            if (r < 0) return usage_error(o, "--target needs a value (a2a3 or a5)");
            if (!target_from_name(v, &o->target)) return usage_error(o, "unknown target '%s' (expected a2a3 or a5)", v);
            o->target_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--entry", &v))) {
            if (r < 0 || !*v) return usage_error(o, "--entry needs a function name");
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
        };
        bool matched = false;
        for (size_t k = 0; k < sizeof named / sizeof *named && !matched; k++) {
            if (!(r = option_value(argc, argv, &i, named[k].opt, &v))) continue;
            matched = true;
            if (r < 0 || !split_named(v, &named[k].list[*named[k].count]))
                return usage_error(o, "%s expects %s, got '%s'", named[k].opt, named[k].what, r < 0 ? "" : v);
            (*named[k].count)++;
        }
        if (matched) continue;
        if ((r = option_value(argc, argv, &i, "--expect", &v))) {
            if (r < 0) return usage_error(o, "--expect expects NAME=PATH[:KEY=VALUE,...], got ''");
            status = parse_expect(o, v, &o->expects[o->n_expects]);
            o->n_expects++; /* freed whatever happened */
            if (status != EXIT_OK) return status;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--print-format", &v))) {
            if (r > 0 && !strcmp(v, "tprint")) o->print_format = PRINT_TPRINT;
            else if (r > 0 && !strcmp(v, "%g")) o->print_format = PRINT_G;
            else if (r > 0 && !strcmp(v, "%a")) o->print_format = PRINT_A;
            else if (r > 0 && !strcmp(v, "hex")) o->print_format = PRINT_HEX;
            else return usage_error(o, "--print-format expects tprint, %%g, %%a or hex, got '%s'", r < 0 ? "" : v);
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--print", &v))) {
            if (r < 0 || !*v) return usage_error(o, "--print needs a NAME");
            status = parse_print(o, v, &o->prints[o->n_prints]);
            o->n_prints++;
            if (status != EXIT_OK) return status;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--compare", &v))) {
            if (r < 0) return usage_error(o, "--compare expects allclose, bits or isa[:eps=E,frac=F], got ''");
            o->cmp.bits = o->cmp.isa = false;
            if ((status = parse_compare(o, v, &o->cmp)) != EXIT_OK) return status;
            o->compare_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--atol", &v))) {
            if (r < 0 || !parse_double(v, &o->cmp.atol)) return usage_error(o, "--atol expects a number >= 0");
            o->cmp.atol_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--rtol", &v))) {
            if (r < 0 || !parse_double(v, &o->cmp.rtol)) return usage_error(o, "--rtol expects a number >= 0");
            o->cmp.rtol_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--show", &v))) {
            int64_t n = 0;
            if (r < 0 || !parse_count(v, v + strlen(v), &n) || n > 1000000)
                return usage_error(o, "--show expects a count from 0 to 1000000, got '%s'", r < 0 ? "" : v);
            o->cmp.max_report = n == 0 ? -1 : (int)n;
            o->show_given = true;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--max-steps", &v))) {
            char *end;
            errno = 0;
            unsigned long long n = r > 0 ? strtoull(v, &end, 10) : 0;
            if (r < 0 || end == v || *end || errno || n == 0 || v[0] == '-')
                return usage_error(o, "--max-steps expects a positive integer");
            o->max_steps = n;
            continue;
        }
        if ((r = option_value(argc, argv, &i, "--blocks", &v))) {
            char *end = NULL;
            errno = 0;
            long long n = r > 0 ? strtoll(v, &end, 10) : 0;
            if (r < 0 || end == v || *end || errno || n < 1 || n > 65536)
                return usage_error(o, "--blocks expects an integer from 1 to 65536, got '%s'", r < 0 ? "" : v);
            o->blocks = n;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') return usage_error(o, "unknown option '%s'", a);
        if (o->file) return usage_error(o, "more than one program file ('%s' and '%s')", o->file, a);
        o->file = a;
    }
    if (o->diff_a) {
        if (o->file) return usage_error(o, "--diff-trace compares two trace files and takes no program ('%s')", o->file);
        return EXIT_OK;
    }
    if (!o->file) return usage_error(o, "no program file given");
    if (o->sweep_name) {
        for (int i = 0; i < o->n_sets; i++)
            if (!strcmp(o->sets[i].name, o->sweep_name))
                return usage_error(o, "--sweep %s and --set %s both give its value", o->sweep_name, o->sets[i].name);
        if (o->n_outs) return usage_error(o, "--out writes one run's result; --sweep runs the kernel once per value");
        if (o->json) return usage_error(o, "--diagnostics=json writes one document; --sweep runs the kernel once per value");
    }
    if ((o->compare_given || o->cmp.atol_given || o->cmp.rtol_given || o->show_given) && o->n_expects == 0)
        return usage_error(o, "--compare, --atol, --rtol and --show apply to --expect, and none is given");
    if (o->cmp.bits && (o->cmp.atol_given || o->cmp.rtol_given))
        return usage_error(o, "--compare=bits takes no tolerance (--atol/--rtol)");
    if (o->cmp.isa && (o->cmp.atol_given || o->cmp.rtol_given))
        return usage_error(o, "--compare=isa takes eps= and frac= (--compare=isa:eps=E,frac=F), not --atol/--rtol");
    /* each --expect: the global comparison, with its own KEY=VALUE on top */
    for (int i = 0; i < o->n_expects; i++) {
        Expect *e = &o->expects[i];
        CompareOptions own = e->cmp, c = o->cmp;
        if (e->own_mode) {
            if (c.bits) return usage_error(o, "--expect %s: --compare=bits takes no tolerance", e->name);
            c.isa = own.isa;
        }
        if (own.atol_given) c.atol = own.atol, c.atol_given = true;
        if (own.rtol_given) c.rtol = own.rtol, c.rtol_given = true;
        if (own.eps_given) c.eps = own.eps, c.eps_given = true;
        if (own.frac_given) c.frac = own.frac, c.frac_given = true;
        if (own.zero_limit_given) c.zero_limit = own.zero_limit, c.zero_limit_given = true;
        e->cmp = c;
    }
    return EXIT_OK;
}

/* Resolves a command-line name; prints the problem and returns false when it names nothing. */
static bool lookup(Options *o, const Interp *ip, const char *opt, const char *name, InterpBinding *b) {
    char err[256];
    if (interp_lookup(ip, name, b, err, sizeof err)) return true;
    io_error(o, "%s %s: %s", opt, name, err);
    return false;
}

/* One value given its input on the command line, and by which option. */
typedef struct BoundInput {
    const Value *value;
    const char *opt, *name;
} BoundInput;

/* Records that `b` gets its input from `opt NAME`; false (reported) when an earlier option already
 * gave it one (`--in arg0=a --in %arg0=b` is a mistake, not an override). */
static bool bind_once(Options *o, BoundInput *bound, int *n, const InterpBinding *b, const char *opt, const char *name) {
    for (int k = 0; k < *n; k++)
        if (bound[k].value == b->value) {
            io_error(o, "%s %s: %s already has its input from %s %s", opt, name, b->display, bound[k].opt, bound[k].name);
            return false;
        }
    bound[(*n)++] = (BoundInput){b->value, opt, name};
    return true;
}

/* -q: drops warnings, and notes unless there is an error they may belong to. */
static void drop_quiet(DiagList *diags) {
    size_t kept = 0;
    for (size_t i = 0; i < diags->count; i++) {
        Severity s = diags->items[i].severity;
        if (s == SEV_WARNING || (s == SEV_NOTE && diags->errors == 0)) continue;
        diags->items[kept++] = diags->items[i];
    }
    diags->count = kept;
    diags->warnings = 0;
}

/* Text mode: prints the diagnostics so far and empties the list; JSON mode keeps them for the
 * document. */
static void print_diags(const Options *o, DiagList *diags) {
    if (o->json) return;
    if (o->quiet) drop_quiet(diags);
    if (diags->count) {
        fflush(stdout);
        diag_sort(diags);
        diag_print_text(stderr, diags);
    }
    diags->count = diags->errors = diags->warnings = 0;
}

/* JSON mode: the document on standard output (the expect reports were collected in `expect_json`). */
static void print_json_document(Options *o, DiagList *diags, int status, const char *expect_json) {
    if (o->quiet) drop_quiet(diags);
    diag_sort(diags);
    printf("{\"tool\": \"pto-run\", \"status\": %d,\n\"diagnostics\": ", status);
    diag_print_json(stdout, diags);
    fputs(",\n\"errors\": [", stdout);
    for (int i = 0; i < o->n_errors; i++) {
        if (i) fputs(", ", stdout);
        json_print_string(stdout, o->errors[i]);
    }
    printf("],\n\"expect\": [%s]}\n", expect_json ? expect_json : "");
}

static void free_options(Options *o) {
    NamedPath *lists[] = {o->ins, o->sets, o->outs};
    int counts[] = {o->n_ins, o->n_sets, o->n_outs};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < counts[k] && lists[k]; i++) free((char *)lists[k][i].name);
        free(lists[k]);
    }
    for (int i = 0; i < o->n_expects && o->expects; i++) {
        free((char *)o->expects[i].name);
        free(o->expects[i].path);
    }
    free(o->expects);
    for (int i = 0; i < o->n_prints && o->prints; i++) {
        free(o->prints[i].func);
        free(o->prints[i].name);
    }
    free(o->prints);
    for (int i = 0; i < o->n_errors; i++) free(o->errors[i]);
    free(o->errors);
    for (int i = 0; i < o->n_sweep; i++) free(o->sweep_values[i]);
    free(o->sweep_values);
    free(o->sweep_name);
}

/* ---- --diff-trace ------------------------------------------------------------------------------ */

/* The next trace record of `f` ("[N] L..." or "-- block ..."), without its step number, into *line
 * (getline buffer) and its start into *rec; false at the end. */
static bool next_record(FILE *f, char **line, size_t *cap, const char **rec) {
    ssize_t n;
    while ((n = getline(line, cap, f)) >= 0) {
        char *s = *line;
        if (n > 0 && s[n - 1] == '\n') s[--n] = '\0';
        if (!strncmp(s, "-- block ", 9)) {
            *rec = s;
            return true;
        }
        if (s[0] != '[') continue;
        char *p = s + 1;
        while (*p >= '0' && *p <= '9') p++;
        if (p == s + 1 || p[0] != ']' || p[1] != ' ' || p[2] != 'L') continue;
        *rec = p + 2;
        return true;
    }
    return false;
}

/* The source line of a record ("L12 ..."), or 0. */
static unsigned record_line(const char *rec) {
    return rec[0] == 'L' ? (unsigned)strtoul(rec + 1, NULL, 10) : 0;
}

static int diff_traces(const char *pa, const char *pb) {
    FILE *fa = fopen(pa, "r"), *fb = fopen(pb, "r");
    if (!fa || !fb) {
        fprintf(stderr, "pto-run: error: cannot open '%s': %s\n", !fa ? pa : pb, strerror(errno));
        if (fa) fclose(fa);
        if (fb) fclose(fb);
        return EXIT_USAGE;
    }
    char *la = NULL, *lb = NULL;
    size_t ca = 0, cb = 0;
    const char *ra, *rb;
    long long n = 0;
    int status = EXIT_OK;
    for (;;) {
        bool ha = next_record(fa, &la, &ca, &ra), hb = next_record(fb, &lb, &cb, &rb);
        if (!ha && !hb) {
            printf("traces agree: %lld records\n", n);
            break;
        }
        n++;
        if (ha && hb && !strcmp(ra, rb)) continue;
        status = EXIT_FAIL;
        if (ha && hb) {
            printf("traces part ways at record %lld (line %u in %s, line %u in %s):\n", n, record_line(ra), pa,
                   record_line(rb), pb);
            printf("  %s: %s\n  %s: %s\n", pa, la, pb, lb);
        } else {
            const char *longer = ha ? pa : pb, *shorter = ha ? pb : pa, *rest = ha ? la : lb;
            printf("traces part ways at record %lld: %s ends after %lld records, %s goes on (line %u):\n", n, shorter,
                   n - 1, longer, record_line(ha ? ra : rb));
            printf("  %s: %s\n", longer, rest);
        }
        break;
    }
    free(la);
    free(lb);
    fclose(fa);
    fclose(fb);
    return status;
}

static int run(Options *o);

/* --sweep NAME=V1,V2,...: the whole run once per value, as with --set NAME=V; the worst status. */
static int run_sweep(Options *o) {
    int status = EXIT_OK, failed = 0;
    for (int k = 0; k < o->n_sweep; k++) {
        printf("== --sweep %s=%s\n", o->sweep_name, o->sweep_values[k]);
        fflush(stdout);
        o->sets[o->n_sets] = (NamedPath){o->sweep_name, o->sweep_values[k]};
        o->n_sets++;
        int s = run(o);
        o->n_sets--;
        o->sets[o->n_sets] = (NamedPath){NULL, NULL};
        fflush(stdout);
        if (s != EXIT_OK) {
            failed++;
            fprintf(stderr, "pto-run: --sweep %s=%s: exit status %d\n", o->sweep_name, o->sweep_values[k], s);
        }
        if (s > status) status = s;
        if (s == EXIT_USAGE) break; /* a bad value or file: every run would fail alike */
    }
    printf("== --sweep %s: %d value%s, %d failed\n", o->sweep_name, o->n_sweep, o->n_sweep == 1 ? "" : "s", failed);
    return status;
}

int main(int argc, char **argv) {
    Options o;
    int status = parse_args(argc, argv, &o);
    if (status == EXIT_USAGE && o.json) { /* the document still comes, with the usage error in "errors" */
        Arena *arena = arena_new();
        DiagList none;
        diag_init(&none, arena);
        print_json_document(&o, &none, status, NULL);
        arena_free(arena);
    }
    if (status == EXIT_OK) status = o.diff_a ? diff_traces(o.diff_a, o.diff_b) : o.sweep_name ? run_sweep(&o) : run(&o);
    free_options(&o);
    return status == EXIT_DONE ? EXIT_OK : status;
}

/* The title line of a --print after the run. */
static void print_title(char *title, size_t len, const InterpBinding *b, const DataArray *got) {
    int64_t rows = 1; /* all but the last dim, from the shape: a 3x0 region has count 0 */
    for (int d = 0; d + 1 < got->rank; d++) rows *= got->shape[d];
    if (got->rank >= 2)
        snprintf(title, len, "%s: %lldx%lld %s", b->display, (long long)rows, (long long)got->shape[got->rank - 1],
                 dtype_name(got->dtype));
    else
        snprintf(title, len, "%s: %lld %s", b->display, (long long)got->count, dtype_name(got->dtype));
}

/* Binds --in and --set; false after reporting a problem. */
static bool bind_inputs(Options *o, Interp *ip) {
    InterpBinding b;
    char err[512];
    BoundInput *bound = calloc((size_t)(o->n_ins + o->n_sets) + 1, sizeof *bound);
    int n_bound = 0;
    if (!bound) {
        io_error(o, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; i < o->n_ins && ok; i++) {
        ok = lookup(o, ip, "--in", o->ins[i].name, &b) && bind_once(o, bound, &n_bound, &b, "--in", o->ins[i].name);
        if (!ok) break;
        if (b.kind == BIND_SCALAR) {
            io_error(o, "--in %s: %s is a scalar argument; give its value with --set %s=VALUE", o->ins[i].name,
                     b.display, o->ins[i].name);
            ok = false;
            break;
        }
        if (b.kind == BIND_VIEW) {
            io_error(o, "--in %s: %s is a view; give the data to the pointer argument it views", o->ins[i].name,
                     b.display);
            ok = false;
            break;
        }
        DataArray data;
        if (!datafile_read(o->ins[i].path, b.dtype, &data, err, sizeof err)) {
            io_error(o, "--in %s: %s", o->ins[i].name, err);
            ok = false;
            break;
        }
        ok = b.kind == BIND_GM ? interp_bind_gm_move(ip, &b, &data, err, sizeof err)
                               : interp_bind_tile(ip, &b, &data, err, sizeof err);
        data_array_free(&data);
        if (!ok) io_error(o, "--in %s=%s: %s", o->ins[i].name, o->ins[i].path, err);
    }
    for (int i = 0; i < o->n_sets && ok; i++) {
        ok = lookup(o, ip, "--set", o->sets[i].name, &b) && bind_once(o, bound, &n_bound, &b, "--set", o->sets[i].name);
        if (ok && !interp_bind_scalar(ip, &b, o->sets[i].path, err, sizeof err)) {
            io_error(o, "--set %s: %s", o->sets[i].name, err);
            ok = false;
        }
    }
    free(bound);
    return ok;
}

/* Checks every result name (--out, --expect, --print) and sets up the --print NAME@LINE watches;
 * false after reporting a problem. */
static bool check_results(Options *o, Interp *ip, const char *entry_name) {
    InterpBinding b;
    char err[512];
    for (int i = 0; i < o->n_outs; i++)
        if (!lookup(o, ip, "--out", o->outs[i].name, &b)) return false;
    for (int i = 0; i < o->n_expects; i++)
        if (!lookup(o, ip, "--expect", o->expects[i].name, &b)) return false;
    for (int i = 0; i < o->n_prints; i++) {
        PrintSpec *p = &o->prints[i];
        if (p->line) {
            if (!interp_watch(ip, p->func, p->name, p->line, o->print_format, p->has_region ? &p->region : NULL, err,
                              sizeof err)) {
                io_error(o, "--print %s: %s", p->text, err);
                return false;
            }
            continue;
        }
        const char *f = p->func && p->func[0] == '@' ? p->func + 1 : p->func;
        if (f && strcmp(f, entry_name) != 0) {
            io_error(o, "--print %s: only the entry function's values (@%s) exist after the run; add @LINE to print "
                     "a value of @%s while it runs", p->text, entry_name, f);
            return false;
        }
        if (!lookup(o, ip, "--print", p->name, &b)) return false;
    }
    return true;
}

static int run(Options *opts) {
    Options *o = opts;
    int status = EXIT_OK;
    char err[512];
    char *expect_json = NULL;
    size_t expect_json_len = 0;
    FILE *json_out = NULL;

    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags, arena);
    diags.warnings_as_errors = o->werror;
    SourceFile file;
    Interp *ip = NULL;
    if (!source_file_read(arena, o->file, &file, err, sizeof err)) {
        io_error(o, "%s", err);
        status = EXIT_USAGE;
        goto done;
    }
    Module *m = parse_module(arena, &file, &diags);
    if (!m || diags.errors) {
        status = EXIT_FAIL;
        goto done;
    }
    VerifyOptions vopts = {.target = o->target, .target_given = o->target_given, .entry = o->entry};
    bool verified = verify_module(m, &vopts, &diags);
    if (!verified || diags.errors) {
        status = EXIT_FAIL;
        goto done;
    }
    print_diags(o, &diags); /* warnings */

    if (o->entry && !module_find_func(m, o->entry)) {
        io_error(o, "--entry %s: %s has no function @%s", o->entry, o->file, o->entry);
        status = EXIT_USAGE;
        goto done;
    }
    InterpOptions iopts = {.target = verify_effective_target(m, &vopts),
                           .entry = o->entry,
                           .max_steps = o->max_steps,
                           .blocks = o->blocks,
                           .check_sync = o->check_sync,
                           .check_init = o->check_init,
                           .trace = o->trace,
                           .require_inputs = !o->zero_inputs,
                           .out = o->json ? stderr : stdout};
    FILE *out = iopts.out; /* program output: pto.tprint, --print, --trace */
    ip = interp_create(m, &iopts, &diags);
    if (!ip) {
        status = EXIT_FAIL;
        goto done;
    }
    const char *entry_name = interp_entry_name(ip);
    if (!bind_inputs(o, ip) || !check_results(o, ip, entry_name)) {
        status = EXIT_USAGE;
        goto done;
    }

    if (!interp_run(ip)) {
        status = EXIT_FAIL;
        goto done;
    }
    print_diags(o, &diags); /* --check-sync's notes and warnings after a good run */
    InterpBinding b;
    /* results, only after a successful run */
    for (int i = 0; i < o->n_prints && status == EXIT_OK; i++) {
        PrintSpec *p = &o->prints[i];
        DataArray got;
        if (p->line || !lookup(o, ip, "--print", p->name, &b)) continue;
        if (!interp_fetch(ip, &b, &got, err, sizeof err)) {
            io_error(o, "--print %s: %s", p->text, err);
            status = EXIT_FAIL;
            continue;
        }
        char title[160];
        print_title(title, sizeof title, &b, &got);
        if (!data_array_print_region(out, title, &got, o->print_format, p->has_region ? &p->region : NULL, err,
                                     sizeof err)) {
            io_error(o, "--print %s: %s", p->text, err);
            status = EXIT_USAGE;
        }
        data_array_free(&got);
    }
    for (int i = 0; i < o->n_outs && status == EXIT_OK; i++) {
        DataArray got;
        if (!lookup(o, ip, "--out", o->outs[i].name, &b)) continue;
        if (!interp_fetch(ip, &b, &got, err, sizeof err)) {
            io_error(o, "--out %s: %s", o->outs[i].name, err);
            status = EXIT_FAIL;
            continue;
        }
        if (!datafile_write(o->outs[i].path, &got, err, sizeof err)) {
            io_error(o, "--out %s: %s", o->outs[i].name, err);
            status = EXIT_USAGE;
        }
        data_array_free(&got);
    }
    bool mismatch = false;
    if (o->json) json_out = open_memstream(&expect_json, &expect_json_len);
    int n_json = 0;
    for (int i = 0; i < o->n_expects && status == EXIT_OK; i++) {
        Expect *e = &o->expects[i];
        DataArray got, want;
        if (!lookup(o, ip, "--expect", e->name, &b)) continue;
        if (!interp_fetch(ip, &b, &got, err, sizeof err)) {
            io_error(o, "--expect %s: %s", e->name, err);
            status = EXIT_FAIL;
            continue;
        }
        if (!datafile_read(e->path, b.dtype, &want, err, sizeof err)) {
            io_error(o, "--expect %s: %s", e->name, err);
            data_array_free(&got);
            status = EXIT_USAGE;
            continue;
        }
        CompareResult res;
        if (!data_array_check(&got, &want, &e->cmp, &res, err, sizeof err)) {
            /* the data file does not fit the result (dtype, size): a data-file problem */
            fflush(stdout);
            io_error(o, "--expect %s=%s: %s: %s", e->name, e->path, b.display, err);
            status = EXIT_USAGE;
        } else {
            if (!res.passed) mismatch = true;
            if (json_out) {
                if (n_json++) fputs(",\n ", json_out);
                compare_print_json(json_out, b.display, e->path, &got, &want, &e->cmp, &res);
            } else if (!o->quiet || !res.passed) {
                compare_print_text(stdout, b.display, &got, &want, &e->cmp, &res);
            }
        }
        data_array_free(&got);
        data_array_free(&want);
    }
    if (status == EXIT_OK && mismatch) status = EXIT_FAIL;
done:
    if (json_out) fclose(json_out);
    fflush(stdout);
    if (o->json) print_json_document(o, &diags, status, expect_json);
    else print_diags(o, &diags);
    free(expect_json);
    interp_destroy(ip);
    arena_free(arena);
    return status;
}
