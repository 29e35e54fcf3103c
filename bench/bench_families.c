/* bench_families.c - the `families` section (bench/README.md): the rows of the op table that have an
 * element function (elementwise, tile-scalar, unary, and the reductions and expands), timed in
 * pto-run's interpreter against a same-run memcpy and, side by side, in pto-isa's CPU simulator
 * compiled at bench time with g++ -O2 and -O3 -march=native.
 *
 * Which rows: the cases come from the op table itself (op_info), not from a list of ops. A row
 * qualifies when it is a DPS tile op with one tile dst and ins that are tiles and scalars (plus a
 * "tmp" scratch tile). Its form is the first of the operand shapes in `forms` the verifier accepts
 * for it (a probe program per row): a row reduction (src RxC -> dst Rx1), a column reduction
 * (-> 1xC), a row or column broadcast (Rx1 or 1xC -> RxC), a row or column expand (src0 RxC with
 * src1 Rx1 or 1xC), or, for rows with an element function, every tile of the same shape; its family
 * is then the form's, or for the same-shape form the pattern of its ins (T = tile source,
 * S = scalar): T unary, TT binary, TTT ternary, TS tile-scalar, TST tile-scalar-tile. Rx1 tiles are
 * col-major (DN), as PTOAS's kernels and the simulator's tests declare them.
 *
 * Our side is the seed-op method (bench_run.h): @op_loop minus @empty_loop, interp_run timed.
 * The simulator side is one generated C++ file with one function per case calling the pto-isa
 * instruction (NAME(dst, ins...)) on Tile<TileType::Vec, T, R, C, BLayout::RowMajor or ColMajor,
 * -1, -1> tiles placed by TASSIGN, timed in a calibrated loop (median of the samples). */
#define _GNU_SOURCE
#include "bench_run.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- rows --------------------------------------------------------------------------------------- */

enum { MAX_INS = 4 };

/* The shape of one operand in a case of shape RxC: the whole tile, an Rx1 column (col-major), or
 * a 1xC row. */
typedef enum GeoKind { G_FULL, G_COLUMN, G_ROW } GeoKind;

/* An operand shape set a row can be measured on; `family` NULL: every tile RxC (the family then
 * comes from the pattern). The shaped forms come in pairs, row then column (probe_form). */
typedef struct Form {
    const char *family;
    const char *pattern;        /* the sources it applies to (NULL: any) */
    GeoKind src[2], dst;
    bool chained;               /* a fold: its time grows with the chain lengths, not the elements, so
                                 * the 16x16 intercept is no fixed cost (not counted in that goal) */
} Form;

static const Form forms[] = {
    {"row-broadcast", "T", {G_COLUMN}, G_FULL, false},
    {"col-broadcast", "T", {G_ROW}, G_FULL, false},
    {"row-reduce", "T", {G_FULL}, G_COLUMN, true},
    {"col-reduce", "T", {G_FULL}, G_ROW, true},
    {"row-expand", "TT", {G_FULL, G_COLUMN}, G_FULL, false},
    {"col-expand", "TT", {G_FULL, G_ROW}, G_FULL, false},
    {NULL, NULL, {G_FULL, G_FULL}, G_FULL, false},
};
#define N_FORMS ((int)(sizeof forms / sizeof *forms))
#define FORM_SAME (N_FORMS - 1)

typedef struct FamRow {
    OpCode code;
    const OpInfo *info;
    char pattern[MAX_INS + 1];  /* "TT", "TS", ... (sources only, tmp excluded) */
    const char *family;         /* "binary", "row-reduce", ... */
    int form;                   /* index in forms */
    const char *names[MAX_INS]; /* the source positions' names ("src0", "scalar") */
    int n_src;                  /* positions in pattern */
    bool tmp;                   /* a required tmp follows the sources */
    bool representative;        /* first row of its family in table order */
} FamRow;

static const struct {
    const char *pattern, *family;
} pattern_families[] = {
    {"TT", "binary"}, {"TTT", "ternary"}, {"T", "unary"}, {"TS", "tile-scalar"}, {"TST", "tile-scalar-tile"},
};
#define N_PATTERN_FAMILIES ((int)(sizeof pattern_families / sizeof *pattern_families))

/* Classifies an op row from its operand specs (its form is probed later); false when it is not a
 * DPS tile op of tile and scalar sources. */
static bool classify_row(OpCode code, FamRow *r) {
    const OpInfo *in = op_info(code);
    memset(r, 0, sizeof *r);
    if (in->cls != CLS_TILE || !(in->flags & OPF_DPS) || OPF_PIPE_RULE(in->flags) == PR_CUBE || !in->asm_name)
        return false;
    if (opspec_count(in->outs, 2) != 1 || in->outs[0].kinds != K_TILE) return false;
    for (int a = 0; a < ATTRSPEC_MAX && in->attrs[a].name; a++)
        if (in->attrs[a].flags & ATTR_REQUIRED) return false;
    int n = opspec_count(in->ins, OPSPEC_MAX);
    bool have_tile = false;
    for (int i = 0; i < n; i++) {
        const OperandSpec *s = &in->ins[i];
        if (s->flags & SPEC_VARIADIC) return false;
        if (s->flags & SPEC_TMP) {
            if (s->kinds != K_TILE || i != n - 1) return false;
            r->tmp = !(s->flags & SPEC_OPTIONAL); /* an optional tmp is left out */
            continue;
        }
        if (r->n_src >= MAX_INS || (s->kinds & ~(unsigned)(K_TILE | K_SCALAR)) || !s->kinds) return false;
        if (s->flags & SPEC_OPTIONAL) return false;
        /* one kind per position: a tile unless only a scalar is taken, or (a position taking both,
         * TDIVS's reversible order) a tile is already placed: the tile-first order */
        bool tile = (s->kinds & K_TILE) && (!(s->kinds & K_SCALAR) || !have_tile);
        have_tile |= tile;
        r->names[r->n_src] = s->name;
        r->pattern[r->n_src++] = tile ? 'T' : 'S';
    }
    r->family = NULL;
    for (int f = 0; f < N_PATTERN_FAMILIES; f++)
        if (!strcmp(r->pattern, pattern_families[f].pattern)) r->family = pattern_families[f].family;
    if (!r->family) return false;
    r->code = code;
    r->info = in;
    r->form = FORM_SAME;
    return true;
}

/* ---- cases ---------------------------------------------------------------------------------------- */

typedef struct FShape {
    int rows, cols;
} FShape;

static const FShape fshapes[] = {{16, 16}, {64, 64}, {1, 16384}, {2048, 8}};
static const DType fdtypes[] = {DT_F32, DT_F16, DT_I32, DT_BF16};
#define N_FSHAPES ((int)(sizeof fshapes / sizeof *fshapes))
#define N_FDTYPES ((int)(sizeof fdtypes / sizeof *fdtypes))

typedef enum CaseState { CS_PENDING, CS_DONE, CS_SKIPPED, CS_ERROR } CaseState;

typedef struct FamCase {
    const FamRow *row;
    DType dt;
    FShape s;
    Target target;
    int64_t bytes;          /* read + written over the valid region */
    CaseState state;
    char why[96];           /* skip reason */
    LoopTiming lt;
    double ours_ns, mc_ns;
    double sim_ns[2];       /* per flag set; < 0 when not measured */
    bool sim_rejected[2];   /* g++ rejected its instantiation with that flag set */
    bool sim_aborted[2];    /* the simulator stopped (an assertion) in this case with that flag set */
    int line_lo, line_hi;   /* lines of its function in the generated C++ */
} FamCase;

/* snprintf for paths and commands, truncating silently (buffers are sized for real paths). */
void bench_fmt(char *buf, size_t len, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, len, f, ap);
    va_end(ap);
}

static int64_t rup(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/* One tile of a case: its shape, valid shape and layout. */
typedef struct TileGeo {
    int rows, cols, vrows, vcols;
    bool col_major;
} TileGeo;

/* Slots of a case's tiles: the sources 0..n_src-1 (tiles only), then tmp, then dst. */
#define SLOT_TMP(r) ((r)->n_src)
#define SLOT_DST(r) ((r)->n_src + 1)

/* The tile in `slot` of case c: an RxC tile has rows padded to 32 bytes, an Rx1 column (col-major)
 * its rows. */
static TileGeo case_geo(const FamCase *c, int slot) {
    const Form *f = &forms[c->row->form];
    GeoKind k = slot == SLOT_DST(c->row) ? f->dst : slot < c->row->n_src && slot < 2 ? f->src[slot] : G_FULL;
    int per32 = 32 / dtype_size(c->dt);
    switch (k) {
    case G_COLUMN: return (TileGeo){(int)rup(c->s.rows, per32), 1, c->s.rows, 1, true};
    case G_ROW: return (TileGeo){1, (int)rup(c->s.cols, per32), 1, c->s.cols, false};
    default: return (TileGeo){c->s.rows, (int)rup(c->s.cols, per32), c->s.rows, c->s.cols, false};
    }
}

static bool slot_is_tile(const FamCase *c, int slot) {
    const FamRow *r = c->row;
    return slot < r->n_src ? r->pattern[slot] == 'T' : slot == SLOT_DST(r) || r->tmp;
}

static int64_t geo_bytes(TileGeo g, DType dt) { return (int64_t)g.rows * g.cols * dtype_size(dt); }

static void tile_type(char *buf, size_t len, DType dt, TileGeo g) {
    char valid[48] = "";
    if (g.vrows != g.rows || g.vcols != g.cols) snprintf(valid, sizeof valid, ", valid=%dx%d", g.vrows, g.vcols);
    snprintf(buf, len, "!pto.tile_buf<vec, %dx%dx%s%s%s>", g.rows, g.cols, dtype_name(dt), valid,
             g.col_major ? ", blayout=col_major" : "");
}

static const char *scalar_literal(DType dt) { return dtype_is_float(dt) ? "1.5" : "3"; }
static const char *scalar_type(DType dt) { return dtype_is_float(dt) ? "f32" : "i32"; }

static void gen_fn(Text *t, const FamCase *c, const char *name, bool with_op) {
    char ty[MAX_INS + 2][128];
    const FamRow *r = c->row;
    for (int slot = 0; slot <= SLOT_DST(r); slot++)
        if (slot_is_tile(c, slot)) tile_type(ty[slot], sizeof ty[slot], c->dt, case_geo(c, slot));
    text_printf(t, "  func.func @%s(%%n: index) {\n", name);
    text_printf(t, "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n");
    for (int i = 0; i < r->n_src; i++) {
        if (r->pattern[i] == 'S')
            text_printf(t, "    %%%s = arith.constant %s : %s\n", r->names[i], scalar_literal(c->dt), scalar_type(c->dt));
        else text_printf(t, "    %%%s = pto.alloc_tile : %s\n", r->names[i], ty[i]);
    }
    if (r->tmp) text_printf(t, "    %%tmp = pto.alloc_tile : %s\n", ty[SLOT_TMP(r)]);
    text_printf(t, "    %%dst = pto.alloc_tile : %s\n", ty[SLOT_DST(r)]);
    text_printf(t, "    scf.for %%i = %%c0 to %%n step %%c1 {\n");
    if (with_op) {
        text_printf(t, "      pto.%s ins(", r->info->asm_name);
        for (int i = 0; i < r->n_src; i++) text_printf(t, "%s%%%s", i ? ", " : "", r->names[i]);
        if (r->tmp) text_printf(t, ", %%tmp");
        text_printf(t, " : ");
        for (int i = 0; i < r->n_src; i++) text_printf(t, "%s%s", i ? ", " : "", r->pattern[i] == 'T' ? ty[i] : scalar_type(c->dt));
        if (r->tmp) text_printf(t, ", %s", ty[SLOT_TMP(r)]);
        text_printf(t, ") outs(%%dst : %s)\n", ty[SLOT_DST(r)]);
    }
    text_printf(t, "    }\n    return\n  }\n");
}

/* Parses and verifies the case's program (quiet: a probe, nothing printed on rejection). */
static bool compile_case(const BenchOptions *o, const FamCase *c, Compiled *cp, bool quiet) {
    Text prog = {0};
    text_printf(&prog, "// pto-bench families: %s %s %dx%d\nmodule {\n", c->row->info->asm_name, dtype_name(c->dt),
                c->s.rows, c->s.cols);
    gen_fn(&prog, c, "op_loop", true);
    gen_fn(&prog, c, "empty_loop", false);
    text_printf(&prog, "}\n");
    char what[96];
    snprintf(what, sizeof what, "<bench %s %s %dx%d>", c->row->info->asm_name, dtype_name(c->dt), c->s.rows, c->s.cols);
    bool ok = compile_program_ex(cp, prog.s, prog.len, what, c->target, o->verbose, quiet);
    text_free(&prog);
    return ok;
}

/* Whether the verifier accepts case c's program in form f. */
static bool form_accepted(const BenchOptions *o, FamCase *c, int f) {
    FamRow *r = (FamRow *)c->row;
    r->form = f;
    Compiled cp;
    bool ok = compile_case(o, c, &cp, true);
    compiled_free(&cp);
    return ok;
}

/* The row's form, probed on its 64x64 program in its first legal dtype: the first pair of `forms`
 * (row and column) of which the verifier accepts exactly one (a row taking both, a partial
 * elementwise op, is not a reduction or an expand); else, for a row with an element function, the
 * same-shape form. False: none fits. */
static bool probe_form(const BenchOptions *o, FamRow *r) {
    bool elementwise = r->info->elem && strcmp(r->info->elem, "none");
    FamCase c = {.row = r, .s = {64, 64}, .target = TARGET_A2A3};
    const DType *dt = NULL;
    for (int d = 0; d < N_FDTYPES && !dt; d++)
        if ((r->info->dtypes[0] | r->info->dtypes[1]) & DTBIT(fdtypes[d])) dt = &fdtypes[d];
    if (!dt) return false;
    c.dt = *dt;
    if (!(r->info->dtypes[0] & DTBIT(c.dt))) c.target = TARGET_A5;
    for (int f = 0; f + 1 < FORM_SAME; f += 2) {
        if (strcmp(forms[f].pattern, r->pattern)) continue;
        bool row = form_accepted(o, &c, f), col = form_accepted(o, &c, f + 1);
        if (row != col) {
            r->form = row ? f : f + 1;
            r->family = forms[r->form].family;
            return true;
        }
    }
    return elementwise && form_accepted(o, &c, FORM_SAME);
}

/* Input k of a case: floats near 1 (log, sqrt, rsqrt, recip, pow stay finite and normal), integers
 * 1..9 (divisors nonzero, shift counts small, 9^9 fits i32). The simulator harness uses the same
 * formulas. */
static float fill_f(int64_t i, int k) { return 1.0f + (float)(((i + 13 * k) * 37) % 64 - 32) / 1024.0f; }
static int32_t fill_i(int64_t i, int k) { return (int32_t)(((i + 5 * k) * 7) % 9 + 1); }

static bool fill_input(DataArray *a, DType dt, FShape s, int k) {
    char err[256];
    if (!data_array_alloc(a, dt, s.rows, s.cols, err, sizeof err)) {
        fprintf(stderr, "pto-bench: %s\n", err);
        return false;
    }
    for (int64_t i = 0; i < a->count; i++) {
        switch (dt) {
        case DT_F32: ((float *)a->data)[i] = fill_f(i, k); break;
        case DT_F16: ((uint16_t *)a->data)[i] = f32_to_f16_bits(fill_f(i, k)); break;
        case DT_BF16: ((uint16_t *)a->data)[i] = f32_to_bf16_bits(fill_f(i, k)); break;
        case DT_I32: ((int32_t *)a->data)[i] = fill_i(i, k); break;
        default: return false;
        }
    }
    return true;
}

/* Element functions that call libm once per element (interp/elemfn.h: on floats, and TPOWS on
 * integers too), exactly as the simulator does: memcpy speed is out of reach for them. */
static bool libm_bound(const FamCase *c) {
    static const char *const libm[] = {"exp", "log", "pow", "pows", "fmod", "rem", "expdif"};
    const char *elem = c->row->info->elem ? c->row->info->elem : "none";
    /* integers: TPOWS calls pow in double only for u32 and 64-bit types; i8..i32 square in double */
    if (!dtype_is_float(c->dt))
        return !strcmp(elem, "pows") && (c->dt == DT_U32 || dtype_size(c->dt) == 8);
    for (size_t i = 0; i < sizeof libm / sizeof *libm; i++)
        if (!strcmp(elem, libm[i])) return true;
    return false;
}

/* Integer element functions built on C's / or % (the simulator divides once per element; pto-run
 * divides exactly on vectors, in float or double: still bound by the divider). */
static bool idiv_bound(const FamCase *c) {
    static const char *const idiv[] = {"div", "rem", "fmod"};
    if (!dtype_is_int(c->dt) || !c->row->info->elem) return false;
    for (size_t i = 0; i < sizeof idiv / sizeof *idiv; i++)
        if (!strcmp(c->row->info->elem, idiv[i])) return true;
    return false;
}

/* A reduction whose work may be one chain of dependent steps (a float row fold of a single row; a
 * sum or product keeps its order, a max or min and any integer fold need not): both sides take the
 * same sequential chain, so their ratio sits at 1 (a tie, either side of it). */
static bool one_chain(const FamCase *c) {
    return forms[c->row->form].chained && forms[c->row->form].dst == G_COLUMN && c->s.rows == 1 && dtype_is_float(c->dt);
}

/* Times one case in the interpreter. */
static void measure_ours(const BenchOptions *o, FamCase *c) {
    Compiled cp;
    if (!compile_case(o, c, &cp, !o->verbose)) {
        compiled_free(&cp);
        c->state = CS_SKIPPED;
        snprintf(c->why, sizeof c->why, "the verifier rejects this dtype or shape in the row's form");
        return;
    }
    bool ok = true;
    int k = 0;
    for (int i = 0; i < c->row->n_src && ok; i++) {
        if (c->row->pattern[i] != 'T') continue;
        cp.extra_name[cp.n_extra] = c->row->names[i];
        TileGeo g = case_geo(c, i);
        ok = fill_input(&cp.extra[cp.n_extra++], c->dt, (FShape){g.vrows, g.vcols}, k++);
    }
    MemcpyRef mc;
    memcpy_init(&mc, (size_t)(c->bytes / 2), o->target_ms / 4);
    if (ok) ok = time_loops(&cp, 0, o->target_ms, o->samples, &mc, &c->mc_ns, &c->lt);
    memcpy_free(&mc);
    compiled_free(&cp);
    if (!ok) {
        c->state = CS_ERROR;
        return;
    }
    c->state = CS_DONE;
    c->ours_ns = c->lt.per_op_ns > 0.01 ? c->lt.per_op_ns : 0.01;
}

/* ---- the simulator side ----------------------------------------------------------------------------- */

static const char *const sim_flags[2] = {"-O2", "-O3 -march=native"};
#define NO_FP16 "-mno-avx512fp16"

static const char *cxx_type(DType dt) {
    switch (dt) {
    case DT_F32: return "float";
    case DT_F16: return "half";
    case DT_I32: return "int32_t";
    default: return NULL;
    }
}

static void upper(char *dst, size_t len, const char *s) {
    size_t i = 0;
    for (; s[i] && i + 1 < len; i++) dst[i] = (char)toupper((unsigned char)s[i]);
    dst[i] = '\0';
}

static int count_lines(const Text *t) {
    int n = 1;
    for (size_t i = 0; i < t->len; i++) n += t->s[i] == '\n';
    return n;
}

/* One .cpp with a function per case and a main that runs the cases named on its command line
 * (all when none) and prints "R <id> <ns per op>" per case. */
static void gen_sim_program(Text *t, FamCase *cases, int n, int samples, double target_ms) {
    text_printf(t,
                "// Generated by pto-bench (bench/bench_families.c): pto-isa CPU simulator timings.\n"
                "#include <cstdint>\n#include <cmath>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n"
                "#include <algorithm>\n#include <chrono>\n#include <vector>\n"
                "#include <pto/pto-inst.hpp>\nusing namespace pto;\n\n"
                "static const int kSamples = %d;\nstatic const double kTargetNs = %.1f;\n"
                "static double now_ns() {\n"
                "    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();\n}\n"
                "template <class F> static double time_op(F &&f) {\n"
                "    f(); asm volatile(\"\" ::: \"memory\");\n"
                "    long n = 1;\n"
                "    for (int round = 0; round < 2; round++) {\n"
                "        double t0 = now_ns();\n"
                "        for (long i = 0; i < n; i++) { f(); asm volatile(\"\" ::: \"memory\"); }\n"
                "        double per = (now_ns() - t0) / (double)n;\n"
                "        double want = kTargetNs / (per > 1.0 ? per : 1.0);\n"
                "        n = want < 1 ? 1 : want > 2e7 ? 20000000 : (long)want;\n"
                "    }\n"
                "    std::vector<double> v;\n"
                "    for (int s = 0; s < kSamples; s++) {\n"
                "        double t0 = now_ns();\n"
                "        for (long i = 0; i < n; i++) { f(); asm volatile(\"\" ::: \"memory\"); }\n"
                "        v.push_back((now_ns() - t0) / (double)n);\n"
                "    }\n"
                "    std::sort(v.begin(), v.end());\n"
                "    return kSamples %% 2 ? v[kSamples / 2] : (v[kSamples / 2 - 1] + v[kSamples / 2]) / 2;\n}\n"
                "template <class T> static void fill(T *p, long count, long cols, long vcols, int k, bool is_float) {\n"
                "    for (long j = 0; j < count; j++) {\n"
                "        long r = j / cols, c = j %% cols, i = r * vcols + (c < vcols ? c : 0);\n"
                "        if (is_float) p[j] = (T)(1.0f + (float)(((i + 13 * k) * 37) %% 64 - 32) / 1024.0f);\n"
                "        else p[j] = (T)(((i + 5 * k) * 7) %% 9 + 1);\n"
                "    }\n}\n\n",
                samples, target_ms * 1e6);
    /* one caller per instruction: the row's operands, or (when the C++ declaration also takes a
     * scratch tile the row has not, TPOW and TPOWS) the same plus a tmp; the simulator ignores tmp */
    for (int ci = 0; ci < n; ci++) {
        bool first = cases[ci].state == CS_DONE && cxx_type(cases[ci].dt);
        for (int cj = 0; cj < ci && first; cj++)
            if (cases[cj].row == cases[ci].row && cases[cj].state == CS_DONE && cxx_type(cases[cj].dt)) first = false;
        if (!first) continue;
        char NAME[32];
        upper(NAME, sizeof NAME, cases[ci].row->info->asm_name);
        text_printf(t,
                    "template <class D, class X, class... A> static inline void call_%s(D &d, X &tmp, A &...a) {\n"
                    "    if constexpr (requires { %s(d, a...); }) %s(d, a...);\n"
                    "    else %s(d, a..., tmp);\n}\n",
                    NAME, NAME, NAME, NAME);
    }
    text_printf(t, "\n");
    for (int ci = 0; ci < n; ci++) {
        FamCase *c = &cases[ci];
        c->line_lo = c->line_hi = 0;
        const char *T = cxx_type(c->dt);
        if (c->state != CS_DONE || !T) continue;
        const FamRow *r = c->row;
        char NAME[32];
        upper(NAME, sizeof NAME, r->info->asm_name);
        c->line_lo = count_lines(t);
        text_printf(t, "#ifndef SKIP_%d\nstatic double case_%d() { // %s %s %dx%d\n", ci, ci, NAME, dtype_name(c->dt),
                    c->s.rows, c->s.cols);
        int64_t addr = 0;
        int k = 0;
        for (int slot = 0; slot <= SLOT_DST(r); slot++) {
            const char *name = slot < r->n_src ? r->names[slot] : slot == SLOT_TMP(r) ? "tmp" : "dst";
            if (slot < r->n_src && r->pattern[slot] == 'S') {
                text_printf(t, "    %s %s = (%s)%s;\n", T, name, T, dtype_is_float(c->dt) ? "1.5f" : "3");
                continue;
            }
            if (!slot_is_tile(c, slot)) continue;
            TileGeo g = case_geo(c, slot);
            text_printf(t, "    Tile<TileType::Vec, %s, %d, %d, BLayout::%s, -1, -1> %s(%d, %d); TASSIGN(%s, 0x%llx);\n", T,
                        g.rows, g.cols, g.col_major ? "ColMajor" : "RowMajor", name, g.vrows, g.vcols, name,
                        (unsigned long long)addr);
            if (slot < r->n_src)
                text_printf(t, "    fill(%s.data(), %lld, %d, %d, %d, %s);\n", name, (long long)g.rows * g.cols, g.cols, g.vcols, k++,
                            dtype_is_float(c->dt) ? "true" : "false");
            addr += geo_bytes(g, c->dt);
        }
        text_printf(t, "    return time_op([&] { call_%s(dst, %s", NAME, r->tmp ? "tmp" : "dst");
        for (int i = 0; i < r->n_src; i++) text_printf(t, ", %s", r->names[i]);
        if (r->tmp) text_printf(t, ", tmp");
        text_printf(t, "); });\n}\n#endif\n");
        c->line_hi = count_lines(t);
    }
    /* argv[1]: the first case to run (after a case the simulator aborted in, run_sim starts
     * again behind it); "S n" before case n names the case an abort happened in */
    text_printf(t, "\nint main(int argc, char **argv) {\n    const int from = argc > 1 ? std::atoi(argv[1]) : 0;\n");
    for (int ci = 0; ci < n; ci++)
        if (cases[ci].line_lo)
            text_printf(t,
                        "#ifndef SKIP_%d\n    if (from <= %d) { std::printf(\"S %d\\n\"); std::fflush(stdout); "
                        "std::printf(\"R %d %%.3f\\n\", case_%d()); std::fflush(stdout); }\n#endif\n",
                        ci, ci, ci, ci, ci);
    text_printf(t, "    return 0;\n}\n");
}

/* Runs a shell command; its exit status (-1 when it could not run). */
int bench_run_shell(const char *cmd) {
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Finds (or exports) the pto-isa include tree. NULL: none (why in note). */
const char *bench_find_pto_isa(const BenchOptions *o, char *note, size_t note_len) {
    static char inc[4096];
    const char *src = o->pto_isa ? o->pto_isa : getenv("PTO_ISA_SRC");
    if (src && *src) {
        bench_fmt(inc, sizeof inc, "%s/include", src);
        if (is_dir(inc)) return inc;
        snprintf(note, note_len, "no include/ under %s", src);
        return NULL;
    }
    bench_fmt(inc, sizeof inc, "%s/pto-isa-src/include", o->build);
    if (is_dir(inc)) return inc;
    const char *mirror = "/work/.mirror/hw-native-sys+pto-isa/repo";
    if (!is_dir(mirror)) {
        snprintf(note, note_len, "no pto-isa tree: set PTO_ISA_SRC or --pto-isa DIR (mirror %s absent)", mirror);
        return NULL;
    }
    char cmd[8192];
    bench_fmt(cmd, sizeof cmd, "mkdir -p '%s/pto-isa-src' && git --git-dir=%s archive HEAD include | tar -x -C '%s/pto-isa-src'",
             o->build, mirror, o->build);
    if (bench_run_shell(cmd) != 0 || !is_dir(inc)) {
        snprintf(note, note_len, "exporting pto-isa from %s failed", mirror);
        return NULL;
    }
    return inc;
}

typedef struct SimRun {
    bool ok;
    double compile_s;
    int skipped;            /* cases whose instantiation g++ rejected */
    int aborted;            /* cases the simulator aborted in (run again from the next one) */
    char abort_msg[256];    /* the first abort's message (its assertion) */
    char note[256];
} SimRun;

/* Compiles the generated file with one flag set (retrying without the cases g++ rejects), runs it,
 * and stores its figures in cases[].sim_ns[f]. */
static void run_sim(const BenchOptions *o, const char *inc, const char *overlay, FamCase *cases, int n, int f,
                    SimRun *out) {
    memset(out, 0, sizeof *out);
    char cpp[4096], bin[4096], err[4096], defs[8192] = "", cmd[16384], flags[64];
    bench_fmt(flags, sizeof flags, "%s", sim_flags[f]);
    bench_fmt(cpp, sizeof cpp, "%s/pto-bench-sim.cpp", o->build);
    bench_fmt(bin, sizeof bin, "%s/pto-bench-sim-%d", o->build, f);
    bench_fmt(err, sizeof err, "%s/pto-bench-sim-%d.err", o->build, f);
    bool *skip = calloc((size_t)n, sizeof *skip);
    if (!skip) abort();
    int64_t t0 = bench_now_ns();
    for (int attempt = 0; attempt < 6; attempt++) {
        size_t dl = 0;
        defs[0] = '\0';
        for (int i = 0; i < n; i++)
            if (skip[i]) dl += (size_t)snprintf(defs + dl, dl < sizeof defs ? sizeof defs - dl : 0, " -DSKIP_%d", i);
        bench_fmt(cmd, sizeof cmd, "g++ -std=c++20 %s -D__CPU_SIM -DPTO_CPU_MAX_THREADS=1%s -I'%s' -I'%s' '%s' -o '%s' 2>'%s'", flags, defs,
                 overlay, inc, cpp, bin, err);
        if (bench_run_shell(cmd) == 0) {
            out->ok = true;
            break;
        }
        /* which cases did the errors come from? (lines of the generated file in the messages) */
        FILE *e = fopen(err, "r");
        bool found = false, assembler = false;
        char line[4096];
        while (e && fgets(line, sizeof line, e)) {
            assembler = assembler || strstr(line, "unsupported masking for `vmovsh'");
            char *p = strstr(line, "pto-bench-sim.cpp:");
            if (!p) continue;
            int ln = atoi(p + strlen("pto-bench-sim.cpp:"));
            for (int i = 0; i < n; i++)
                if (cases[i].line_lo && !skip[i] && ln >= cases[i].line_lo && ln < cases[i].line_hi) skip[i] = found = true;
        }
        if (e) fclose(e);
        if (!found && assembler && !strstr(flags, NO_FP16)) {
            /* GCC 12 writes AVX512-FP16 moves with masks that Debian 12's assembler rejects: on a CPU
             * with AVX512-FP16, -march=native builds only without it */
            bench_fmt(flags, sizeof flags, "%s %s", sim_flags[f], NO_FP16);
            bench_fmt(out->note, sizeof out->note, "built with %s: g++ 12's AVX512-FP16 code does not assemble", NO_FP16);
            continue;
        }
        if (!found) {
            bench_fmt(out->note, sizeof out->note, "g++ %s failed (see %s)", flags, err);
            break;
        }
    }
    out->compile_s = (double)(bench_now_ns() - t0) / 1e9;
    for (int i = 0; i < n; i++) out->skipped += skip[i], cases[i].sim_rejected[f] = skip[i];
    /* Runs the binary from case `from`; when it dies inside a case (the simulator asserts a shape
     * it cannot run), that case is marked and the run goes on from the next one. */
    for (int from = 0; out->ok && from < n;) {
        bench_fmt(cmd, sizeof cmd, "'%s' %d 2>'%s'", bin, from, err);
        FILE *p = popen(cmd, "r");
        char line[256];
        int started = -1;
        while (p && fgets(line, sizeof line, p)) {
            int id;
            double ns;
            if (sscanf(line, "R %d %lf", &id, &ns) == 2 && id >= 0 && id < n) cases[id].sim_ns[f] = ns, started = -1;
            else if (sscanf(line, "S %d", &id) == 1 && id >= 0 && id < n) started = id;
        }
        if (p && pclose(p) == 0) break;
        if (started < 0) {
            out->ok = false;
            bench_fmt(out->note, sizeof out->note, "the simulator binary %s failed (see %s)", bin, err);
            break;
        }
        cases[started].sim_aborted[f] = true;
        if (out->aborted++ == 0) { /* keep the assertion's text: "...Assertion `<cond> && "<msg>"' failed." */
            FILE *e = fopen(err, "r");
            static char eline[16384]; /* the assertion's line names the template arguments: long */
            while (e && fgets(eline, sizeof eline, e)) {
                char *a = strstr(eline, "Assertion");
                if (!a) continue;
                char *q = strstr(a, "&& \""), *end = q ? strchr(q + 4, '"') : NULL;
                char *file = strstr(eline, "include/pto/");
                size_t fl = file ? strcspn(file, ":") : 0;
                if (q && end) bench_fmt(out->abort_msg, sizeof out->abort_msg, "%.*s: %.*s", (int)fl, file ? file : "", (int)(end - q - 4), q + 4);
                else bench_fmt(out->abort_msg, sizeof out->abort_msg, "%.*s", (int)strcspn(a, "\n"), a);
                break;
            }
            if (e) fclose(e);
        }
        from = started + 1;
    }
    free(skip);
}

bool bench_sim_overlay(const BenchOptions *o, const char *inc, char *overlay, size_t len) {
    char cmd[16384];
    bench_fmt(overlay, len, "%s/pto-isa-overlay", o->build);
    /* g++ before 13 rejects static_assert(false, ...) in a template that is never instantiated
     * (C++23 P2593 allows it); the overlay holds copies of those headers with the assertion
     * made true, found before the tree (#include "pto/..." searches -I in order). */
    bench_fmt(cmd, sizeof cmd,
        "rm -rf '%s' && mkdir -p '%s' && cd '%s' && grep -rl 'static_assert(false' pto | while read f; do "
        "mkdir -p \"%s/$(dirname \"$f\")\" && sed 's/static_assert(false,/static_assert(true,/' \"$f\" > "
        "\"%s/$f\"; done",
        overlay, overlay, inc, overlay, overlay);
    return bench_run_shell(cmd) == 0;
}

/* ---- the section ------------------------------------------------------------------------------------- */

/* One ">= 1x the simulator" goal over the cases it counts. */
typedef struct SimGoal {
    const char *label, *mark; /* "sim -O2" in the MISS lines; "sim" in a row's goals column */
    int cases, met;
    double worst;
    char worst_case[64];
} SimGoal;

/* Counts case c (simulator time sim_ns) towards g; a MISS line into misses; its mark into goal
 * (len bytes). Returns the characters written to goal. */
static size_t sim_tally(SimGoal *g, const FamCase *c, double sim_ns, const char *shape, Text *misses, char *goal, size_t len) {
    double x = sim_ns / c->ours_ns;
    bool met = x >= 1.0;
    g->cases++, g->met += met;
    if (g->cases == 1 || x < g->worst) {
        g->worst = x;
        bench_fmt(g->worst_case, sizeof g->worst_case, "%s %s %s", c->row->info->asm_name, dtype_name(c->dt), shape);
    }
    if (!met)
        text_printf(misses, "  MISS >=1x %s: %s %s %s %.2fx%s\n", g->label, c->row->info->asm_name, dtype_name(c->dt), shape, x,
                    one_chain(c) ? " (one sequential fold chain, as the simulator)" : "");
    int n = snprintf(goal, len, "%s %s", g->mark, goal_mark(met));
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static void sim_goal(GoalResult *goal, const SimGoal *g) {
    if (!g->cases) return;
    goal->measured = true;
    goal->met = g->met == g->cases;
    bench_fmt(goal->figure, sizeof goal->figure, "%d of %d met; worst %.2fx (%s)", g->met, g->cases, g->worst, g->worst_case);
}

static bool family_selected(const BenchOptions *o, const char *fam) {
    if (!o->families) return true;
    const char *p = o->families;
    size_t fl = strlen(fam);
    while (*p) {
        size_t l = strcspn(p, ",");
        if (l == fl && !strncasecmp(p, fam, l)) return true;
        p += l + (p[l] == ',');
    }
    return false;
}

static bool op_selected(const BenchOptions *o, const char *asm_name, bool exact_exists) {
    if (!o->op_filter) return true;
    return exact_exists ? !strcasecmp(asm_name, o->op_filter) : strcasestr(asm_name, o->op_filter) != NULL;
}

bool bench_families(const BenchOptions *o, GoalResult *goals) {
    printf("== Families: the op table's elementwise, tile-scalar, unary, reduction and expand rows (interp_run: op "
           "loop minus empty loop; simulator: pto-isa CPU sim) ==\n");
    static FamRow rows[OP_COUNT];
    int n_rows = 0;
    const char *seen[OP_COUNT];
    int n_seen = 0;
    bool exact = false;
    Text unmeasured = {0};
    for (int code = 0; code < OP_COUNT; code++) {
        FamRow r;
        if (!classify_row((OpCode)code, &r)) continue;
        if (!probe_form(o, &r)) {
            /* a row with an element function that no form fits is named; others are not rows of a family */
            if (r.info->elem && strcmp(r.info->elem, "none"))
                text_printf(&unmeasured, "%s%s", unmeasured.len ? ", " : "", r.info->asm_name);
            continue;
        }
        r.representative = true;
        for (int f = 0; f < n_seen && r.representative; f++) r.representative = strcmp(seen[f], r.family) != 0;
        if (r.representative) seen[n_seen++] = r.family;
        if (o->op_filter && !strcasecmp(r.info->asm_name, o->op_filter)) exact = true;
        rows[n_rows++] = r;
    }
    /* the cases */
    int cap = n_rows * N_FDTYPES * N_FSHAPES, n = 0;
    FamCase *cases = calloc((size_t)cap, sizeof *cases);
    if (!cases) abort();
    bool all_shapes = o->all_shapes || o->op_filter;
    for (int ri = 0; ri < n_rows; ri++) {
        FamRow *r = &rows[ri];
        if (!family_selected(o, r->family) || !op_selected(o, r->info->asm_name, exact)) continue;
        for (int d = 0; d < N_FDTYPES; d++) {
            DType dt = fdtypes[d];
            Target tg;
            if (r->info->dtypes[0] & DTBIT(dt)) tg = TARGET_A2A3;
            else if (r->info->dtypes[1] & DTBIT(dt)) tg = TARGET_A5;
            else continue;
            for (int si = 0; si < N_FSHAPES; si++) {
                FShape s = fshapes[si];
                bool is64 = s.rows == 64 && s.cols == 64;
                if (!is64 && !all_shapes && !r->representative) continue;
                FamCase *c = &cases[n++];
                c->row = r, c->dt = dt, c->s = s, c->target = tg;
                c->sim_ns[0] = c->sim_ns[1] = -1.0;
                /* bytes: the sources' and dst's valid regions (dst twice where the row accumulates
                 * into it, TAXPY); foot: every tile whole */
                int64_t foot = 0, es = dtype_size(dt);
                int tiles = 0;
                c->bytes = 0;
                for (int slot = 0; slot <= SLOT_DST(r); slot++) {
                    if (!slot_is_tile(c, slot)) continue;
                    TileGeo g = case_geo(c, slot);
                    int64_t valid = (int64_t)g.vrows * g.vcols * es;
                    if (slot != SLOT_TMP(r)) c->bytes += valid;
                    if (slot == SLOT_DST(r) && (r->info->flags & OPF_DST_READ)) c->bytes += valid;
                    foot += geo_bytes(g, dt), tiles++;
                }
                if (foot > buffer_capacity_bytes(tg, LOC_VEC)) {
                    c->state = CS_SKIPPED;
                    bench_fmt(c->why, sizeof c->why, "%d tiles of %lld KiB in all exceed the %s UB", tiles,
                             (long long)(foot / 1024), tg == TARGET_A5 ? "a5" : "a2a3");
                }
            }
        }
    }
    printf("%d qualifying rows in the op table; %d cases (%s)\n", n_rows, n,
           all_shapes ? "every selected row on every shape"
                      : "every member on 64x64, the first row of each family on 16x16, 1x16384 and 2048x8");
    if (unmeasured.len)
        printf("rows with an element function that no form fits (not measured): %s\n", unmeasured.s);
    text_free(&unmeasured);
    /* our side */
    int64_t t_ours = bench_now_ns();
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (cases[i].state != CS_PENDING) continue;
        measure_ours(o, &cases[i]);
        if (cases[i].state == CS_ERROR) {
            printf("%-9s %-5s %dx%d  ERROR (see stderr)\n", cases[i].row->info->asm_name, dtype_name(cases[i].dt),
                   cases[i].s.rows, cases[i].s.cols);
            ok = false;
        }
    }
    double ours_s = (double)(bench_now_ns() - t_ours) / 1e9;
    /* the simulator side */
    char note[512] = "";
    SimRun sim[2];
    memset(sim, 0, sizeof sim);
    bool have_sim = false;
    if (o->no_sim) bench_fmt(note, sizeof note, "--no-sim given");
    else {
        const char *inc = bench_find_pto_isa(o, note, sizeof note);
        if (inc) {
            char overlay[4096];
            bool have_overlay = bench_sim_overlay(o, inc, overlay, sizeof overlay);
            Text cpp = {0};
            gen_sim_program(&cpp, cases, n, o->samples, o->target_ms);
            char path[4096];
            bench_fmt(path, sizeof path, "%s/pto-bench-sim.cpp", o->build);
            if (!have_overlay) bench_fmt(note, sizeof note, "could not write the header overlay %s", overlay);
            else if (bench_write_file(path, cpp.s, cpp.len)) {
                for (int f = 0; f < 2; f++) {
                    run_sim(o, inc, overlay, cases, n, f, &sim[f]);
                    have_sim |= sim[f].ok;
                }
                bench_fmt(note, sizeof note, "pto-isa headers: %s; generated harness: %s", inc, path);
            }
            text_free(&cpp);
        }
    }
    /* the table */
    printf("%-9s %-16s %-5s %-4s %-7s %6s %9s %8s %7s %7s %6s | %10s %6s | %10s %6s | %s\n", "op", "family", "dtype", "tgt",
           "shape", "bytes", "ns/op", "GB/s", "memcpy", "ratio", "fixed", "sim-O2 ns", "x-O2", "sim-O3n ns", "x-O3n",
           "goals");
    int g_mem_cases = 0, g_mem_met = 0, g_mem_libm = 0, g_mem_idiv = 0, g_fix_cases = 0, g_fix_met = 0;
    SimGoal g_sim = {.label = "sim -O2", .mark = "sim"}, g_o3 = {.label = "sim -O3 -march=native", .mark = " O3"};
    double fix_worst = 0.0;
    char fix_worst_case[64] = "", mem_worst_case[96] = "";
    double mem_worst = 1e9;
    Text misses = {0};
    int noisy_rows = 0;
    for (int i = 0; i < n; i++) {
        FamCase *c = &cases[i];
        char shape[24], bstr[16];
        bench_fmt(shape, sizeof shape, "%dx%d", c->s.rows, c->s.cols);
        const char *tg = c->target == TARGET_A5 ? "a5" : "a2a3";
        if (c->state == CS_SKIPPED) {
            printf("%-9s %-16s %-5s %-4s %-7s  skipped: %s\n", c->row->info->asm_name, c->row->family, dtype_name(c->dt), tg,
                   shape, c->why);
            continue;
        }
        if (c->state != CS_DONE) continue;
        double gbs = (double)c->bytes / c->ours_ns, mc_gbs = (double)c->bytes / c->mc_ns, ratio = c->mc_ns / c->ours_ns;
        fmt_bytes(bstr, sizeof bstr, c->bytes);
        char fixed[16] = "", simc[2][40], goal[96] = "";
        size_t gl = 0;
        if (c->s.rows == 16 && c->s.cols == 16) {
            /* the per-instruction fixed cost: intercept of t(elements) through 16x16 and 64x64 */
            const FamCase *big = NULL;
            for (int j = 0; j < n; j++)
                if (cases[j].row == c->row && cases[j].dt == c->dt && cases[j].s.rows == 64 && cases[j].s.cols == 64 &&
                    cases[j].state == CS_DONE)
                    big = &cases[j];
            if (big) {
                double per_elem = (big->ours_ns - c->ours_ns) / (4096.0 - 256.0);
                double fx = c->ours_ns - 256.0 * per_elem;
                if (fx < 0) fx = 0; /* noise: the element work dominates (libm-bound ops) */
                bench_fmt(fixed, sizeof fixed, "%.1f", fx);
                bool met = fx <= 10.0;
                if (!forms[c->row->form].chained) {
                    g_fix_cases++, g_fix_met += met;
                    if (fx > fix_worst || g_fix_cases == 1) {
                        fix_worst = fx;
                        bench_fmt(fix_worst_case, sizeof fix_worst_case, "%s %s", c->row->info->asm_name, dtype_name(c->dt));
                    }
                    gl += (size_t)snprintf(goal + gl, sizeof goal - gl, "fix<=10 %s ", goal_mark(met));
                }
            }
        }
        const bool shaped = c->row->form != FORM_SAME; /* a reduction or an expand */
        if (!shaped && (c->dt == DT_F32 || c->dt == DT_I32) && c->s.rows == 64 && c->s.cols == 64) {
            bool met = ratio >= 0.5;
            g_mem_cases++, g_mem_met += met;
            if (!met && libm_bound(c)) g_mem_libm++;
            if (ratio < mem_worst && !libm_bound(c) && !idiv_bound(c)) {
                mem_worst = ratio;
                bench_fmt(mem_worst_case, sizeof mem_worst_case, "%s %s %.2fx", c->row->info->asm_name, dtype_name(c->dt),
                         ratio);
            }
            if (!met)
                text_printf(&misses, "  MISS >=0.5x memcpy: %s %s 64x64 %.3fx%s\n", c->row->info->asm_name,
                            dtype_name(c->dt), ratio,
                            libm_bound(c) ? " (libm call per element, as the simulator)"
                            : idiv_bound(c) ? (strcmp(c->row->family, "tile-scalar") ? " (a division per element, as the simulator)"
                                                                                 : " (one scalar divisor: an exact multiply per element)")
                                            : "");
            gl += (size_t)snprintf(goal + gl, sizeof goal - gl, ">=0.5 %s%s ", goal_mark(met),
                                   met ? "" : libm_bound(c) ? "(libm)" : idiv_bound(c) ? "(idiv)" : "");
            if (!met && idiv_bound(c)) g_mem_idiv++;
        }
        for (int f = 0; f < 2; f++) {
            if (c->sim_ns[f] > 0) snprintf(simc[f], sizeof simc[f], "%10.1f %6.2f", c->sim_ns[f], c->sim_ns[f] / c->ours_ns);
            else snprintf(simc[f], sizeof simc[f], "%10s %6s", c->sim_rejected[f] ? "rejected" : c->sim_aborted[f] ? "aborted" : "-", "-");
        }
        if (c->sim_ns[0] > 0) gl += sim_tally(&g_sim, c, c->sim_ns[0], shape, &misses, goal + gl, sizeof goal - gl);
        if (shaped && c->sim_ns[1] > 0) gl += sim_tally(&g_o3, c, c->sim_ns[1], shape, &misses, goal + gl, sizeof goal - gl);
        noisy_rows += c->lt.noisy > 0;
        printf("%-9s %-16s %-5s %-4s %-7s %6s %9.1f %8.2f %7.2f %7.3f %6s | %s | %s | %s%s\n", c->row->info->asm_name,
               c->row->family, dtype_name(c->dt), tg, shape, bstr, c->ours_ns, gbs, mc_gbs, ratio, fixed, simc[0], simc[1],
               goal, c->lt.noisy ? " ~" : "");
    }
    printf("bytes = sources read (dst too where the op accumulates into it, TAXPY) + dst written over the valid\n"
           "region; ratio = memcpy time / op time (memcpy of bytes/2, same run); fixed (16x16 rows) = per-instruction\n"
           "cost, the intercept of ns/op through 16x16 and 64x64 (not a goal for the reductions, whose time follows\n"
           "their fold chains); >=0.5 (memcpy) applies to the same-shape families,\n"
           "O3 (>= 1x the simulator at -O3 -march=native) to the reductions and expands: a row-reduce dst and a\n"
           "row-expand or row-broadcast column are RxC -> Rx1 col-major (DN) tiles, a col-reduce dst and a col-expand\n"
           "or col-broadcast row 1xC;\n"
           "x-O2 / x-O3n = simulator ns / our ns (>= 1: pto-run is at least as fast as pto-isa's CPU simulator built with\n"
           "g++ -O2 / -O3 -march=native). tgt a5: the dtype is legal on A5 only. 2048x8 f16/bf16 sits in a 2048x16 tile.\n");
    printf("interpreter: %.1f s for %d cases.", ours_s, n);
    if (have_sim || sim[0].compile_s > 0 || sim[1].compile_s > 0) {
        for (int f = 0; f < 2; f++) {
            printf(" g++ %s: compile %.1f s", sim_flags[f], sim[f].compile_s);
            if (sim[f].note[0]) printf(" %s(%s)", sim[f].ok ? "" : "FAILED ", sim[f].note);
        }
        if (sim[0].skipped || sim[1].skipped)
            printf(" (%d/%d case(s) left out, shown as rejected: g++ rejects their instantiation)", sim[0].skipped, sim[1].skipped);
        for (int f = 0; f < 2; f++)
            if (sim[f].aborted)
                printf("\ng++ %s: %d case(s) shown as aborted: the simulator cannot run their shapes and stops (%s); "
                       "the other cases ran", sim_flags[f], sim[f].aborted, sim[f].abort_msg);
    }
    printf("\n");
    if (have_sim) printf("simulator: %s. bf16 has no simulator columns: it needs C++23 std::bfloat16_t, which g++ 12 lacks.\n", note);
    else printf("simulator columns absent: %s.\n", note);
    if (noisy_rows) printf("~ = %d row(s) kept a sample preempted on all %d attempts (busy machine).\n", noisy_rows, BENCH_RETRIES);
    if (misses.len) printf("%s", misses.s);
    printf("\n");
    text_free(&misses);
    /* goals */
    if (g_mem_cases) {
        GoalResult *g = &goals[GOAL_FAM_MEMCPY];
        g->measured = true;
        g->met = g_mem_met == g_mem_cases;
        bench_fmt(g->figure, sizeof g->figure, "%d of %d met; misses: %d libm call per element, %d integer division per "
            "element (both as the simulator); worst other %s", g_mem_met, g_mem_cases, g_mem_libm, g_mem_idiv,
            mem_worst_case[0] ? mem_worst_case : "-");
    }
    sim_goal(&goals[GOAL_FAM_SIM], &g_sim);
    sim_goal(&goals[GOAL_FAM_SHAPED_O3], &g_o3);
    if (g_fix_cases) {
        GoalResult *g = &goals[GOAL_FAM_FIXED];
        g->measured = true;
        g->met = g_fix_met == g_fix_cases;
        bench_fmt(g->figure, sizeof g->figure, "%d of %d met; worst %.1f ns (%s)", g_fix_met, g_fix_cases, fix_worst,
                 fix_worst_case);
    }
    free(cases);
    return ok;
}
