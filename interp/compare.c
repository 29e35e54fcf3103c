/* compare.c - element-wise comparison of a result with its expected data (pto-run --expect) in three
 * modes (allclose, bits, and pto-isa's ResultCmp), its text and JSON reports, and printing arrays
 * (the TPRINT layout, %g, %a, hex; a region of a 2-D view). */
#include "kernels.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- elements ------------------------------------------------------------------------------ */

/* Exact integer value of element i (integer dtypes). */
static bool element_int(const DataArray *a, int64_t i, int64_t *s, uint64_t *u) {
    const uint8_t *p = (const uint8_t *)a->data + (size_t)i * dtype_size(a->dtype);
    switch (a->dtype) {
    case DT_I8: { int8_t x; memcpy(&x, p, 1); *s = x; *u = 0; return true; }
    case DT_I16: { int16_t x; memcpy(&x, p, 2); *s = x; *u = 0; return true; }
    case DT_I32: { int32_t x; memcpy(&x, p, 4); *s = x; *u = 0; return true; }
    case DT_I64: { int64_t x; memcpy(&x, p, 8); *s = x; *u = 0; return true; }
    case DT_U8: { uint8_t x; memcpy(&x, p, 1); *s = 0; *u = x; return true; }
    case DT_U16: { uint16_t x; memcpy(&x, p, 2); *s = 0; *u = x; return true; }
    case DT_U32: { uint32_t x; memcpy(&x, p, 4); *s = 0; *u = x; return true; }
    case DT_U64: { uint64_t x; memcpy(&x, p, 8); *s = 0; *u = x; return true; }
    default: return false;
    }
}

/* Writes element i exactly as text (shortest float text that reads back to the same value). */
static void element_text(const DataArray *a, int64_t i, char *buf, size_t len) {
    int64_t s;
    uint64_t u;
    if (element_int(a, i, &s, &u)) {
        if (dtype_is_unsigned(a->dtype)) snprintf(buf, len, "%llu", (unsigned long long)u);
        else snprintf(buf, len, "%lld", (long long)s);
        return;
    }
    double v = element_as_double(a->data, i, a->dtype);
    int first = 1; /* at least the integer digits below 1e17: 70, not 7e+01 */
    for (double m = fabs(v); m >= 10.0 && m < 1e17 && first < 17; m /= 10.0) first++;
    for (int prec = first; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (isnan(v) || scalar_round_float(strtod(buf, NULL), a->dtype) == v) return;
    }
}

/* The bit pattern of element i. */
static uint64_t element_bits(const DataArray *a, int64_t i) {
    size_t es = dtype_size(a->dtype);
    uint64_t b = 0;
    memcpy(&b, (const uint8_t *)a->data + (size_t)i * es, es);
    return b;
}

/* Writes the index of flat element i for the array's shape: "[i]" for 1-D, "(i0, i1, ...)" else. */
static void index_text(const DataArray *a, int64_t i, char *buf, size_t len) {
    if (a->rank <= 1) {
        snprintf(buf, len, "[%lld]", (long long)i);
        return;
    }
    int64_t idx[DATA_MAX_RANK];
    int64_t rest = i;
    for (int d = a->rank - 1; d >= 0; d--) {
        int64_t n = a->shape[d] > 0 ? a->shape[d] : 1;
        idx[d] = rest % n;
        rest /= n;
    }
    size_t n = 0;
    buf[n++] = '(';
    for (int d = 0; d < a->rank && n < len; d++)
        n += (size_t)snprintf(buf + n, len - n, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (n + 2 <= len) {
        buf[n++] = ')';
        buf[n] = '\0';
    }
}

/* Columns of the 2-D view of an array: its last dimension (the whole array for 1-D). */
static int64_t view_cols(const DataArray *a) {
    int64_t cols = a->rank >= 2 ? a->shape[a->rank - 1] : a->count;
    return cols > 0 ? cols : 1;
}

/* ---- the element test of each mode ----------------------------------------------------------- */

/* State of one pass over the elements (the isa mode counts ~0 results as it goes, as ResultCmp). */
typedef struct Cmp {
    const DataArray *got, *want;
    bool bits, isa;
    double atol, rtol;
    float eps;
    int64_t zeros, zero_limit;
} Cmp;

/* allclose: true when element i fails |got - want| <= atol + rtol * |want| (NaN equals NaN; Inf only
 * equals itself). Integers are differenced exactly in 64 bits (a double holds only 53: 2^60 and
 * 2^60 + 100 would look equal), then held to the tolerances; *abs_err and *rel_err receive the
 * errors (0 when equal). */
static bool allclose_fails(const Cmp *c, int64_t i, double *abs_err, double *rel_err) {
    const DataArray *got = c->got, *want = c->want;
    DType dt = got->dtype;
    *abs_err = *rel_err = 0.0;
    int64_t gs, ws;
    uint64_t gu, wu;
    if (element_int(got, i, &gs, &gu) && element_int(want, i, &ws, &wu)) {
        uint64_t diff;
        double w;
        if (dtype_is_unsigned(dt)) {
            diff = gu >= wu ? gu - wu : wu - gu;
            w = (double)wu;
        } else {
            diff = gs >= ws ? (uint64_t)gs - (uint64_t)ws : (uint64_t)ws - (uint64_t)gs;
            w = (double)ws;
        }
        if (diff == 0) return false;
        *abs_err = (double)diff;
        *rel_err = w != 0.0 ? *abs_err / fabs(w) : INFINITY;
        return !(*abs_err <= c->atol + c->rtol * fabs(w));
    }
    double g = element_as_double(got->data, i, dt), w = element_as_double(want->data, i, dt);
    if (isnan(g) || isnan(w)) {
        bool bad = !(isnan(g) && isnan(w));
        if (bad) *abs_err = *rel_err = NAN;
        return bad;
    }
    if (g == w) return false;
    if (isinf(g) || isinf(w)) {
        *abs_err = *rel_err = INFINITY;
        return true;
    }
    *abs_err = fabs(g - w);
    *rel_err = w != 0.0 ? *abs_err / fabs(w) : INFINITY;
    return !(*abs_err <= c->atol + c->rtol * fabs(w));
}

/* isa: pto-isa's ResultCmp (tests/common/test_common.h). Both values are cast to float;
 * diff = |want - got| and ratio = |diff / want| in float; the element fails when diff > eps and
 * ratio > eps (strictly; a NaN difference or ratio never exceeds), when exactly one of the two is
 * NaN, or once more than zero_limit results were ~0 (|got| <= 1e-6 where |want| > 1e-6) up to and
 * including this element. */
static bool isa_fails(Cmp *c, int64_t i, double *abs_err, double *rel_err) {
    float w = (float)element_as_double(c->want->data, i, c->want->dtype);
    float g = (float)element_as_double(c->got->data, i, c->got->dtype);
    int64_t s;
    uint64_t u;
    if (element_int(c->want, i, &s, &u)) w = dtype_is_unsigned(c->want->dtype) ? (float)u : (float)s;
    if (element_int(c->got, i, &s, &u)) g = dtype_is_unsigned(c->got->dtype) ? (float)u : (float)s;
    float diff = fabsf(w - g);
    float ratio = fabsf(diff / w);
    *abs_err = diff;
    *rel_err = ratio;
    if ((double)fabsf(g) <= 1e-6 && (double)fabsf(w) > 1e-6) c->zeros++;
    return (diff > c->eps && ratio > c->eps) || c->zeros > c->zero_limit || (isnan(w) != isnan(g));
}

/* Whether element i fails in the comparison's mode, with its errors (NaN when not defined). */
static bool element_fails(Cmp *c, int64_t i, double *abs_err, double *rel_err) {
    if (c->isa) return isa_fails(c, i, abs_err, rel_err);
    bool bad = allclose_fails(c, i, abs_err, rel_err);
    if (!c->bits) return bad;
    return element_bits(c->got, i) != element_bits(c->want, i);
}

static Cmp cmp_start(const DataArray *got, const DataArray *want, const CompareResult *res, const CompareOptions *o) {
    Cmp c = {got, want, o && o->bits, o && o->isa, res->atol, res->rtol, (float)res->eps, 0, res->zero_limit};
    if (c.bits) c.atol = c.rtol = 0.0;
    return c;
}

bool data_array_check(const DataArray *got, const DataArray *want, const CompareOptions *opts, CompareResult *res,
                      char *err, size_t errlen) {
    memset(res, 0, sizeof *res);
    if (got->dtype != want->dtype) {
        set_err(err, errlen, "result is %s but the expected data is %s", dtype_name(got->dtype), dtype_name(want->dtype));
        return false;
    }
    if (got->count != want->count) {
        set_err(err, errlen, "result has %lld elements but the expected data has %lld", (long long)got->count,
                (long long)want->count);
        return false;
    }
    DType dt = got->dtype;
    double def = dt == DT_F32 ? 1e-5 : dtype_is_float(dt) || dtype_is_f8(dt) ? 1e-3 : 0.0;
    res->count = got->count;
    res->atol = opts && opts->atol_given ? opts->atol : def;
    res->rtol = opts && opts->rtol_given ? opts->rtol : def;
    res->eps = opts && opts->eps_given ? opts->eps : 1e-3;
    res->frac = opts && opts->frac_given ? opts->frac : res->eps;
    res->zero_limit = opts && opts->zero_limit_given ? opts->zero_limit : 1000;
    /* ResultCmp's threshold: static_cast<int>(size * eps), the product in float */
    float limit = (float)got->count * (float)res->frac;
    res->limit = limit >= 9.2e18f ? INT64_MAX : (int64_t)limit;
    res->max_abs_at = res->max_rel_at = -1;
    Cmp c = cmp_start(got, want, res, opts);
    double abs_err, rel_err;
    for (int64_t i = 0; i < got->count; i++) {
        if (element_fails(&c, i, &abs_err, &rel_err)) res->mismatches++;
        if (!isnan(abs_err) && abs_err > res->max_abs) {
            res->max_abs = abs_err;
            res->max_abs_at = i;
        }
        if (!isnan(rel_err) && rel_err > res->max_rel) {
            res->max_rel = rel_err;
            res->max_rel_at = i;
        }
    }
    res->zeros = c.zeros;
    if (opts && opts->isa) res->passed = res->mismatches <= res->limit && res->zeros <= res->zero_limit;
    else res->passed = res->mismatches == 0;
    return true;
}

/* ---- text report ------------------------------------------------------------------------------- */

static int report_count(const CompareOptions *opts) {
    if (!opts || opts->max_report == 0) return 10;
    return opts->max_report < 0 ? 0 : opts->max_report;
}

/* Prints the set bits of `fails` (n entries) as ranges "0-3, 7", at most 8 ranges. */
static void print_ranges(FILE *out, const uint8_t *fails, int64_t n) {
    int shown = 0;
    int64_t ranges = 0, set = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!fails[i]) continue;
        int64_t j = i;
        while (j + 1 < n && fails[j + 1]) j++;
        set += j - i + 1;
        if (shown < 8) {
            fprintf(out, "%s%lld", shown ? ", " : " ", (long long)i);
            if (j > i) fprintf(out, "-%lld", (long long)j);
            shown++;
        }
        ranges++;
        i = j;
    }
    if (ranges > shown) fprintf(out, ", ... (%lld ranges)", (long long)ranges);
    fprintf(out, " (%lld of %lld)", (long long)set, (long long)n);
}

enum { MAP_ROWS = 16, MAP_COLS = 64 };

/* Prints which rows and columns of the 2-D view hold mismatches, and for more than one row a block
 * map: each character stands for a block of elements, '.' none fails, '+' some, '#' all. */
static void print_failure_map(FILE *out, Cmp *c) {
    const DataArray *a = c->got;
    int64_t cols = view_cols(a), rows = a->count / cols;
    uint8_t *row_fail = calloc((size_t)rows + 1, 1), *col_fail = calloc((size_t)cols + 1, 1);
    int64_t br = (rows + MAP_ROWS - 1) / MAP_ROWS, bc = (cols + MAP_COLS - 1) / MAP_COLS;
    if (br < 1) br = 1;
    if (bc < 1) bc = 1;
    int64_t map_rows = (rows + br - 1) / br, map_cols = (cols + bc - 1) / bc;
    int64_t *block = calloc((size_t)(map_rows * map_cols) + 1, sizeof *block);
    if (!row_fail || !col_fail || !block) {
        free(row_fail), free(col_fail), free(block);
        return;
    }
    double abs_err, rel_err;
    for (int64_t i = 0; i < a->count; i++) {
        if (!element_fails(c, i, &abs_err, &rel_err)) continue;
        int64_t r = i / cols, col = i % cols;
        row_fail[r] = col_fail[col] = 1;
        block[(r / br) * map_cols + col / bc]++;
    }
    if (a->rank >= 2) {
        fputs("  failing rows:", out);
        print_ranges(out, row_fail, rows);
        fputs("; cols:", out);
        print_ranges(out, col_fail, cols);
        fputc('\n', out);
    } else {
        fputs("  failing elements:", out);
        print_ranges(out, col_fail, cols);
        fputc('\n', out);
    }
    if (a->rank >= 2 && rows > 1) {
        fprintf(out, "  map (%lldx%lld, one character per %lldx%lld block: . none fails, + some, # all):\n",
                (long long)rows, (long long)cols, (long long)br, (long long)bc);
        for (int64_t mr = 0; mr < map_rows; mr++) {
            fputs("    ", out);
            for (int64_t mc = 0; mc < map_cols; mc++) {
                int64_t h = (mr + 1) * br <= rows ? br : rows - mr * br;
                int64_t w = (mc + 1) * bc <= cols ? bc : cols - mc * bc;
                int64_t n = block[mr * map_cols + mc];
                fputc(n == 0 ? '.' : n == h * w ? '#' : '+', out);
            }
            fputc('\n', out);
        }
    }
    free(row_fail), free(col_fail), free(block);
}

/* " at INDEX" of the largest error, when there is one. */
static void print_at(FILE *out, const DataArray *a, int64_t at) {
    char idx[160];
    if (at < 0) return;
    index_text(a, at, idx, sizeof idx);
    fprintf(out, " at %s", idx);
}

void compare_print_text(FILE *out, const char *name, const DataArray *got, const DataArray *want,
                        const CompareOptions *opts, const CompareResult *res) {
    fprintf(out, "%s: %lld elements, %lld %s", name, (long long)res->count, (long long)res->mismatches,
            res->mismatches == 1 ? "mismatch" : "mismatches");
    if (res->mismatches > 0) fprintf(out, " (%.4g%%)", 100.0 * (double)res->mismatches / (double)res->count);
    fprintf(out, ", max abs err %g", res->max_abs);
    print_at(out, got, res->max_abs_at);
    fprintf(out, ", max rel err %g", res->max_rel);
    print_at(out, got, res->max_rel_at);
    if (opts && opts->bits) fputs(" (bit patterns)", out);
    else if (opts && opts->isa)
        fprintf(out, " (isa eps %g, frac %g: at most %lld may fail)", res->eps, res->frac, (long long)res->limit);
    else fprintf(out, " (atol %g, rtol %g)", res->atol, res->rtol);
    if (opts && opts->isa) {
        if (res->zeros) fprintf(out, ", %lld results ~0 where the expected value is not (at most %lld)",
                                (long long)res->zeros, (long long)res->zero_limit);
        fputs(res->passed ? ": pass" : ": FAIL", out);
    }
    fputc('\n', out);
    if (res->mismatches == 0) return;
    Cmp c = cmp_start(got, want, res, opts);
    int max_report = report_count(opts), reported = 0;
    size_t es = dtype_size(got->dtype);
    double abs_err, rel_err;
    for (int64_t i = 0; i < got->count && reported < max_report; i++) {
        if (!element_fails(&c, i, &abs_err, &rel_err)) continue;
        char idx[160], gt[40], wt[40];
        index_text(got, i, idx, sizeof idx);
        element_text(got, i, gt, sizeof gt);
        element_text(want, i, wt, sizeof wt);
        if (opts && opts->bits)
            fprintf(out, "  mismatch at %s: got %s (0x%0*llx), want %s (0x%0*llx)\n", idx, gt, (int)(2 * es),
                    (unsigned long long)element_bits(got, i), wt, (int)(2 * es), (unsigned long long)element_bits(want, i));
        else fprintf(out, "  mismatch at %s: got %s, want %s (abs err %g, rel err %g)\n", idx, gt, wt, abs_err, rel_err);
        reported++;
    }
    if (res->mismatches > reported)
        fprintf(out, "  ... %lld more %s\n", (long long)(res->mismatches - reported),
                res->mismatches - reported == 1 ? "mismatch" : "mismatches");
    c = cmp_start(got, want, res, opts);
    print_failure_map(out, &c);
}

int64_t data_array_compare(FILE *out, const char *name, const DataArray *got, const DataArray *want,
                           const CompareOptions *opts, char *err, size_t errlen) {
    CompareResult res;
    if (!data_array_check(got, want, opts, &res, err, errlen)) {
        char why[256];
        snprintf(why, sizeof why, "%s", err ? err : "");
        set_err(err, errlen, "%s: %s", name, why);
        return -1;
    }
    compare_print_text(out, name, got, want, opts, &res);
    if (res.passed) return 0;
    return res.mismatches > 0 ? res.mismatches : 1;
}

/* ---- JSON report ------------------------------------------------------------------------------- */

/* A JSON number, or null for NaN and Inf (JSON has neither). */
static void json_number(FILE *out, double v) {
    if (isfinite(v)) fprintf(out, "%.17g", v);
    else fputs("null", out);
}

/* The index of flat element i as a JSON array (one entry per dimension). */
static void json_index(FILE *out, const DataArray *a, int64_t i) {
    if (i < 0) {
        fputs("null", out);
        return;
    }
    int64_t idx[DATA_MAX_RANK];
    int rank = a->rank >= 1 ? a->rank : 1;
    int64_t rest = i;
    for (int d = rank - 1; d >= 0; d--) {
        int64_t n = a->rank >= 1 && a->shape[d] > 0 ? a->shape[d] : 1;
        idx[d] = d == 0 ? rest : rest % n;
        rest /= n;
    }
    fputc('[', out);
    for (int d = 0; d < rank; d++) fprintf(out, "%s%lld", d ? ", " : "", (long long)idx[d]);
    fputc(']', out);
}

void compare_print_json(FILE *out, const char *name, const char *file, const DataArray *got, const DataArray *want,
                        const CompareOptions *opts, const CompareResult *res) {
    const char *mode = opts && opts->bits ? "bits" : opts && opts->isa ? "isa" : "allclose";
    fputs("{\"name\": ", out);
    json_print_string(out, name);
    fputs(", \"file\": ", out);
    json_print_string(out, file ? file : "");
    fprintf(out, ", \"mode\": \"%s\", \"passed\": %s, \"elements\": %lld, \"mismatches\": %lld, \"fraction\": ", mode,
            res->passed ? "true" : "false", (long long)res->count, (long long)res->mismatches);
    json_number(out, res->count ? (double)res->mismatches / (double)res->count : 0.0);
    fputs(", \"max_abs_err\": ", out);
    json_number(out, res->max_abs);
    fputs(", \"max_abs_at\": ", out);
    json_index(out, got, res->max_abs_at);
    fputs(", \"max_rel_err\": ", out);
    json_number(out, res->max_rel);
    fputs(", \"max_rel_at\": ", out);
    json_index(out, got, res->max_rel_at);
    if (opts && opts->isa) {
        fputs(", \"eps\": ", out);
        json_number(out, res->eps);
        fputs(", \"frac\": ", out);
        json_number(out, res->frac);
        fprintf(out, ", \"limit\": %lld, \"zeros\": %lld, \"zero_limit\": %lld", (long long)res->limit,
                (long long)res->zeros, (long long)res->zero_limit);
    } else if (!(opts && opts->bits)) {
        fputs(", \"atol\": ", out);
        json_number(out, res->atol);
        fputs(", \"rtol\": ", out);
        json_number(out, res->rtol);
    }
    fputs(", \"first_mismatches\": [", out);
    Cmp c = cmp_start(got, want, res, opts);
    int max_report = report_count(opts), reported = 0;
    double abs_err, rel_err;
    for (int64_t i = 0; i < got->count && reported < max_report && res->mismatches; i++) {
        if (!element_fails(&c, i, &abs_err, &rel_err)) continue;
        char gt[40], wt[40];
        element_text(got, i, gt, sizeof gt);
        element_text(want, i, wt, sizeof wt);
        fputs(reported ? ", {\"at\": " : "{\"at\": ", out);
        json_index(out, got, i);
        fputs(", \"got\": ", out);
        json_print_string(out, gt);
        fputs(", \"want\": ", out);
        json_print_string(out, wt);
        fputs(", \"abs_err\": ", out);
        json_number(out, abs_err);
        fputs(", \"rel_err\": ", out);
        json_number(out, rel_err);
        fputc('}', out);
        reported++;
    }
    fputs("]}", out);
}

/* ---- printing ------------------------------------------------------------------------------------ */

void data_array_print(FILE *out, const char *title, const DataArray *a) {
    data_array_print_region(out, title, a, PRINT_TPRINT, NULL, NULL, 0);
}

/* Writes element i in format `fmt`. */
static void element_format(char *buf, size_t len, const DataArray *a, int64_t i, PrintFormat fmt) {
    int64_t s;
    uint64_t u;
    switch (fmt) {
    case PRINT_TPRINT:
        element_format_tprint(buf, len, a->data, i, a->dtype);
        return;
    case PRINT_HEX:
        snprintf(buf, len, "0x%0*llx", (int)(2 * dtype_size(a->dtype)), (unsigned long long)element_bits(a, i));
        return;
    case PRINT_A:
        if (!element_int(a, i, &s, &u)) {
            snprintf(buf, len, "%a", element_as_double(a->data, i, a->dtype));
            return;
        }
        break;
    case PRINT_G:
        break;
    }
    element_text(a, i, buf, len);
}

bool data_array_print_region(FILE *out, const char *title, const DataArray *a, PrintFormat fmt,
                             const PrintRegion *region, char *err, size_t errlen) {
    int64_t cols = a->rank >= 2 ? a->shape[a->rank - 1] : a->count;
    int64_t rows = cols > 0 ? a->count / cols : (a->rank >= 2 ? a->count : 0);
    if (a->rank >= 2 && cols <= 0) { /* rows of zero columns: all but the last dim */
        rows = 1;
        for (int d = 0; d + 1 < a->rank; d++) rows *= a->shape[d];
    }
    int64_t r0 = 0, r1 = rows, c0 = 0, c1 = cols;
    if (region) {
        r0 = region->r0, c0 = region->c0;
        r1 = region->r1 < 0 ? rows : region->r1;
        c1 = region->c1 < 0 ? cols : region->c1;
        if (r0 < 0 || r0 > r1 || r1 > rows || c0 < 0 || c0 > c1 || c1 > cols) {
            set_err(err, errlen, "region [%lld:%lld, %lld:%lld] lies outside the %lldx%lld data", (long long)r0,
                    (long long)r1, (long long)c0, (long long)c1, (long long)rows, (long long)cols);
            return false;
        }
    }
    fprintf(out, "%s\n", title);
    if (cols <= 0) return true;
    char buf[64];
    for (int64_t r = r0; r < r1; r++) {
        for (int64_t c = c0; c < c1; c++) {
            element_format(buf, sizeof buf, a, r * cols + c, fmt);
            if (fmt == PRINT_TPRINT) fprintf(out, c > c0 ? " %s" : "%s", buf);
            else fprintf(out, c > c0 ? " %12s" : "%12s", buf);
        }
        fputc('\n', out);
    }
    return true;
}
