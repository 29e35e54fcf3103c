/* pto-as - assembles and verifies .pto files (SPEC 4).
 *
 *   pto-as [OPTIONS] FILE...
 *
 * Each file is parsed (structural checks included) and verified against the target profile: the
 * functions that parsed without error are verified even when others did not. Diagnostics are printed sorted by position. Exit status: 0 valid (warnings
 * allowed), 1 errors in some file, 2 usage or I/O problem. */
#define _XOPEN_SOURCE 700 /* POSIX 2008 + realpath */
#include "ir.h"
#include "parser.h"
#include "verifier.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PTO_VERSION
#define PTO_VERSION "0.0.0"
#endif

enum { EXIT_VALID = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

typedef struct Options {
    bool target_given;
    Target target;
    bool werror;
    bool quiet;
    bool emit;
    PrintForm emit_form;
    const char *output;       /* -o FILE, or NULL for stdout */
    bool json;
    bool verify_diagnostics;
    const char *entry;
    const char **files;
    int n_files;
    char usage[512];          /* the last usage error, for the JSON document */
} Options;

static void print_help(FILE *out) {
    fputs("Usage: pto-as [OPTIONS] FILE...\n"
          "Parse and verify PTO assembly (.pto) files; prints nothing on success unless asked.\n"
          "FILE may be '-' for standard input (once); '--' ends the options.\n"
          "\n"
          "  --target=a2a3|a5        target profile (a2 and a3 are aliases of a2a3); overrides the\n"
          "                          module attribute pto.target_arch (default: a2a3)\n"
          "  --entry NAME            entry function (default: the one marked pto.entry, else the only\n"
          "                          public function definition, else the only definition)\n"
          "  -Werror                 treat warnings as errors\n"
          "  -q                      quiet: report errors only (warnings and notes of their own are\n"
          "                          left out, in text and JSON; an error keeps its attached notes)\n"
          "  --emit=dps|generic|ssa  write the verified program in canonical DPS (PTOAS-compatible,\n"
          "                          compact !pto.tile_buf types), in DPS with the tile and scalar ops\n"
          "                          in MLIR's generic form, or in SSA form; needs exactly one FILE;\n"
          "                          with --target, the output records it as pto.target_arch\n"
          "  -o FILE                 write --emit output to FILE (default: standard output); also\n"
          "                          -oFILE, -o=FILE\n"
          "  --diagnostics=text|json text (default): diagnostics on standard error, each with its\n"
          "                          source line, caret, notes and fix-its; json: ONE JSON document on\n"
          "                          standard output, {\"version\": 1, \"diagnostics\": [...],\n"
          "                          \"errors\": N, \"warnings\": N, \"errors_not_shown\": N}, each\n"
          "                          diagnostic with file, line, column, end_line, end_column,\n"
          "                          severity, rule, message, notes and fixits (docs/rules.md); a\n"
          "                          usage error is one diagnostic with rule USAGE (and the text on\n"
          "                          standard error); with --emit it needs -o FILE\n"
          "  --verify-diagnostics    check the diagnostics against the file's\n"
          "                          '// expected-error@+N {{text}}' annotations instead of printing them;\n"
          "                          exit 0 when they match exactly\n"
          "  --help                  show this help and exit\n"
          "  --version               show the version and exit\n"
          "\n"
          "A file with parse errors is still verified: every function that parsed is checked.\n"
          "Exit status: 0 valid (warnings allowed), 1 errors, 2 usage or I/O problem (including\n"
          "an --entry that names no function of a FILE).\n",
          out);
}

/* "pto-as: error: MESSAGE" and "Try 'pto-as --help'." on standard error, the message kept in
 * o->usage (main puts it in the JSON document); returns EXIT_USAGE. */
static int usage_error(Options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(Options *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->usage, sizeof o->usage, fmt, ap);
    va_end(ap);
    fprintf(stderr, "pto-as: error: %s\nTry 'pto-as --help'.\n", o->usage);
    return EXIT_USAGE;
}

/* Value of `--name=VALUE` or `--name VALUE`; NULL when `arg` is not that option. */
static const char *option_value(const char *arg, const char *name, int *i, int argc, char **argv, bool *missing) {
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* Parses the command line; returns -1 to continue, else an exit status. */
static int parse_options(int argc, char **argv, Options *o) {
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) /* JSON from the start: usage errors too */
        if (!strcmp(argv[i], "--diagnostics=json") ||
            (!strcmp(argv[i], "--diagnostics") && i + 1 < argc && !strcmp(argv[i + 1], "json")))
            o->json = true;
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files) return EXIT_USAGE;
    bool no_more_options = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        bool missing = false;
        if (no_more_options || a[0] != '-' || strcmp(a, "-") == 0) {
            o->files[o->n_files++] = a;
        } else if (strcmp(a, "--") == 0) {
            no_more_options = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help(stdout);
            return EXIT_VALID;
        } else if (strcmp(a, "--version") == 0) {
            printf("pto-as %s\n", PTO_VERSION);
            return EXIT_VALID;
        } else if (strcmp(a, "-Werror") == 0) {
            o->werror = true;
        } else if (strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (strcmp(a, "--verify-diagnostics") == 0) {
            o->verify_diagnostics = true;
        } else if ((v = option_value(a, "--target", &i, argc, argv, &missing)) || missing) {
            if (missing) return usage_error(o, "option %s needs a value (a2a3 or a5)", a);
            if (!target_from_name(v, &o->target)) return usage_error(o, "unknown target '%s' (expected a2a3 or a5)", v);
            o->target_given = true;
        } else if ((v = option_value(a, "--entry", &i, argc, argv, &missing)) || missing) {
            if (missing || !*v) return usage_error(o, "option %s needs a function name", a);
            o->entry = v[0] == '@' ? v + 1 : v;
        } else if ((v = option_value(a, "--emit", &i, argc, argv, &missing)) || missing) {
            if (missing) return usage_error(o, "option %s needs a value (dps or ssa)", a);
            if (strcmp(v, "dps") == 0) o->emit_form = PRINT_DPS;
            else if (strcmp(v, "ssa") == 0) o->emit_form = PRINT_SSA;
            else if (strcmp(v, "generic") == 0) o->emit_form = PRINT_GENERIC;
            else return usage_error(o, "unknown --emit form '%s' (expected dps, generic or ssa)", v);
            o->emit = true;
        } else if ((v = option_value(a, "--diagnostics", &i, argc, argv, &missing)) || missing) {
            if (missing) return usage_error(o, "option %s needs a value (text or json)", a);
            if (strcmp(v, "json") == 0) o->json = true;
            else if (strcmp(v, "text") != 0) return usage_error(o, "unknown --diagnostics format '%s' (expected text or json)", v);
        } else if (strcmp(a, "-o") == 0 || strncmp(a, "-o", 2) == 0) {
            if (a[2]) o->output = a + 2 + (a[2] == '='); /* -oFILE, -o=FILE */
            else if (i + 1 < argc) o->output = argv[++i];
            else return usage_error(o, "option %s needs a file name", a);
        } else {
            return usage_error(o, "unknown option '%s'", a);
        }
    }
    if (o->n_files == 0) return usage_error(o, "no input files");
    int from_stdin = 0;
    for (int i = 0; i < o->n_files; i++) from_stdin += strcmp(o->files[i], "-") == 0;
    if (from_stdin > 1) return usage_error(o, "standard input ('-') can be read only once");
    if (o->output && !*o->output) return usage_error(o, "option -o needs a file name");
    if (o->emit && o->n_files != 1) return usage_error(o, "--emit needs exactly one input file");
    if (o->output && !o->emit) return usage_error(o, "-o is only meaningful with --emit");
    if (o->json && o->emit && !o->output)
        return usage_error(o, "--diagnostics=json writes its document to standard output: give --emit an output file (-o FILE)");
    return -1;
}

/* Writes `text` to `path` through a temporary file in the same directory and a rename, so a
 * failure never leaves a half-written output. */
static bool write_file_atomically(const char *path, const char *text, size_t len) {
    struct stat st;
    if (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        /* a device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a
         * temporary file over it would replace the device node itself */
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(text, 1, len, f) == len;
        int saved = errno;
        if (f && fclose(f) != 0 && ok) {
            ok = false;
            saved = errno;
        }
        if (!ok) fprintf(stderr, "pto-as: error: cannot write %s: %s\n", path, strerror(saved));
        return ok;
    }
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* a symbolic link: write its target (atomically, next to it) and keep the link */
        char *target = realpath(path, NULL);
        if (target) {
            bool ok = write_file_atomically(target, text, len);
            free(target);
            return ok;
        }
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) return false;
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "pto-as: error: cannot create a temporary file next to %s: %s\n", path, strerror(errno));
        free(tmp);
        return false;
    }
    mode_t mask = umask(0); /* mkstemp makes the file 0600; give it the usual 0666 & ~umask */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f) ok = (fclose(f) == 0) && ok;
    else close(fd);
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "pto-as: error: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok;
}

/* Copies the diagnostics of one file into the combined list (notes and fix-its included; the
 * messages live in the same arena); with `quiet`, only the errors. */
static void append_diags(DiagList *all, const DiagList *one, bool quiet) {
    for (size_t i = 0; i < one->count; i++) {
        const Diag *d = &one->items[i];
        if (quiet && d->severity != SEV_ERROR) continue;
        diag_copy(all, d);
    }
    /* errors beyond the file's DIAG_MAX_ERRORS were only counted: keep counting them */
    size_t recorded = 0;
    for (size_t i = 0; i < one->count; i++) recorded += one->items[i].severity == SEV_ERROR;
    all->errors += one->errors - recorded;
}

int main(int argc, char **argv) {
    Options opt;
    int status = parse_options(argc, argv, &opt);
    if (status == EXIT_USAGE && opt.json) { /* the document still comes: one USAGE diagnostic */
        Arena *arena = arena_new();
        DiagList usage;
        diag_init(&usage, arena);
        diag_report(&usage, NULL, SEV_ERROR, (SrcLoc){0, 0, 0, 0}, "USAGE", "%s",
                    opt.usage[0] ? opt.usage : "out of memory reading the options");
        diag_print_json(stdout, &usage);
        arena_free(arena);
    }
    if (status >= 0) {
        free(opt.files);
        return status;
    }
    Arena *arena = arena_new();
    DiagList all;
    diag_init(&all, arena);
    bool io_error = false, any_error = false, mismatch = false;
    char *emitted = NULL;
    for (int i = 0; i < opt.n_files; i++) {
        SourceFile *sf = arena_alloc(arena, sizeof *sf);
        char err[512];
        if (!source_file_read(arena, opt.files[i], sf, err, sizeof err)) {
            fprintf(stderr, "pto-as: error: %s\n", err);
            if (opt.json) { /* the document lists it too, as a diagnostic of the file */
                sf->path = opt.files[i];
                diag_report(&all, sf, SEV_ERROR, (SrcLoc){0, 0, 0, 0}, "IO.read", "%s", err);
            }
            io_error = true;
            continue;
        }
        DiagList diags;
        diag_init(&diags, arena);
        diags.warnings_as_errors = opt.werror;
        Module *m = parse_module(arena, sf, &diags);
        bool no_entry = diags.errors == 0 && opt.entry && !module_find_func(m, opt.entry);
        if (no_entry) {
            /* the command line names what the file lacks: a usage problem, like a missing file */
            fprintf(stderr, "pto-as: error: --entry %s: %s has no function @%s\n", opt.entry, opt.files[i], opt.entry);
            io_error = true;
        }
        if (!no_entry) {
            /* with parse errors too: the functions that parsed are verified (the others are skipped) */
            VerifyOptions vopts = {.target = opt.target, .target_given = opt.target_given, .entry = opt.entry};
            verify_module(m, &vopts, &diags);
        }
        if (opt.verify_diagnostics) {
            if (verify_expected_diagnostics(sf, &diags, stderr) != 0) mismatch = true;
            continue;
        }
        if (diags.errors == 0 && !no_entry && opt.emit && module_check_printable(m, opt.emit_form, &diags)) {
            /* the program was verified for --target: say so in it, as PTOAS does for --pto-arch */
            if (opt.target_given) module_set_target(m, opt.target);
            emitted = module_to_string(arena, m, opt.emit_form);
        }
        if (diags.errors) any_error = true;
        append_diags(&all, &diags, opt.quiet);
    }
    diag_sort(&all);
    if (opt.json) {
        diag_print_json(stdout, &all);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "pto-as: error: cannot write standard output\n");
            io_error = true;
        }
    } else {
        diag_print_text(stderr, &all);
    }
    if (emitted && !any_error && !io_error) {
        size_t len = strlen(emitted);
        if (opt.output) {
            if (!write_file_atomically(opt.output, emitted, len)) io_error = true;
        } else if (fwrite(emitted, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "pto-as: error: cannot write standard output\n");
            io_error = true;
        }
    }
    arena_free(arena);
    free(opt.files);
    if (io_error) return EXIT_USAGE;
    if (opt.verify_diagnostics) return mismatch ? EXIT_ERRORS : EXIT_VALID;
    return any_error ? EXIT_ERRORS : EXIT_VALID;
}
