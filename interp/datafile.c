/* datafile.c - data files (SPEC 7): raw little-endian `.bin` and numpy `.npy` v1.0-3.0 (C order),
 * atomic writes (temporary file + rename), element-wise comparison for --expect and printing in the
 * TPRINT layout. The host is assumed little-endian (x86-64, AArch64): elements are copied as bytes. */
#define _XOPEN_SOURCE 700 /* POSIX 2008 + realpath */
#include "kernels.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void data_array_free(DataArray *a) {
    if (!a) return;
    free(a->data);
    a->data = NULL;
    a->count = 0;
}

bool data_array_alloc(DataArray *a, DType dtype, int64_t rows, int64_t cols, char *err, size_t errlen) {
    memset(a, 0, sizeof *a);
    a->dtype = dtype;
    int64_t count = rows, bytes;
    if (cols >= 0) {
        a->rank = 2;
        a->shape[0] = rows;
        a->shape[1] = cols;
        if (!checked_mul_i64(rows, cols, &count)) count = -1;
    } else {
        a->rank = 1;
        a->shape[0] = rows;
    }
    if (count < 0 || !checked_mul_i64(count, (int64_t)dtype_size(dtype), &bytes) || (uint64_t)bytes > SIZE_MAX) {
        set_err(err, errlen, "array of %lld x %lld %s elements is too large", (long long)rows, (long long)cols,
                dtype_name(dtype));
        return false;
    }
    a->count = count;
    a->data = calloc(bytes ? (size_t)bytes : 1, 1);
    if (!a->data) {
        set_err(err, errlen, "out of host memory for %lld bytes", (long long)bytes);
        return false;
    }
    return true;
}

const char *npy_descr_for(DType dtype) {
    switch (dtype) {
    case DT_F16: return "<f2";
    case DT_BF16: return "<u2";
    case DT_F32: return "<f4";
    case DT_I8: return "|i1";
    case DT_U8: return "|u1";
    case DT_I16: return "<i2";
    case DT_U16: return "<u2";
    case DT_I32: return "<i4";
    case DT_U32: return "<u4";
    case DT_I64: return "<i8";
    case DT_U64: return "<u8";
    default: return NULL;
    }
}

/* The element type a `.npy` descriptor names (kind letter + size), ignoring the byte-order mark. */
static const char *npy_kind_of(DType dtype) {
    const char *d = npy_descr_for(dtype);
    return d ? d + 1 : NULL;
}

/* Reads a whole file into memory. */
static bool read_whole_file(const char *path, uint8_t **out, size_t *out_len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > DATA_FILE_MAX_BYTES) {
        fclose(f);
        set_err(err, errlen, "'%s' has %lld bytes, more than the limit of %zu bytes for data files", path,
                (long long)st.st_size, DATA_FILE_MAX_BYTES);
        return false;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        set_err(err, errlen, "out of host memory reading '%s'", path);
        return false;
    }
    for (;;) {
        if (len == cap) {
            if (cap >= DATA_FILE_MAX_BYTES) { /* a stream (pipe, /dev/zero) that does not end */
                free(buf);
                fclose(f);
                set_err(err, errlen, "'%s' holds more than the limit of %zu bytes for data files", path,
                        DATA_FILE_MAX_BYTES);
                return false;
            }
            if (cap > SIZE_MAX / 2) break;
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown) break;
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    bool failed = ferror(f) || !feof(f);
    int saved = errno;
    fclose(f);
    if (failed) {
        free(buf);
        set_err(err, errlen, "cannot read '%s': %s", path, saved ? strerror(saved) : "out of memory");
        return false;
    }
    *out = buf;
    *out_len = len;
    return true;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- .npy header parsing: a Python dict literal {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), } ------------------------------------------------------------------------ */

typedef struct NpyHeader {
    char descr[16];
    bool have_descr, have_order, have_shape;
    bool fortran_order;
    int rank;
    int64_t shape[DATA_MAX_RANK];
} NpyHeader;

typedef struct HeaderScanner {
    const char *p, *end;
} HeaderScanner;

static void hs_skip_space(HeaderScanner *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static bool hs_accept(HeaderScanner *s, char c) {
    hs_skip_space(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return true;
    }
    return false;
}

/* Reads a quoted Python string into buf (at most len-1 chars). */
static bool hs_string(HeaderScanner *s, char *buf, size_t len) {
    hs_skip_space(s);
    if (s->p >= s->end || (*s->p != '\'' && *s->p != '"')) return false;
    char q = *s->p++;
    size_t n = 0;
    while (s->p < s->end && *s->p != q) {
        if (n + 1 < len) buf[n++] = *s->p;
        else return false;
        s->p++;
    }
    if (s->p >= s->end) return false;
    s->p++;
    buf[n] = '\0';
    return true;
}

static bool hs_word(HeaderScanner *s, const char *word) {
    hs_skip_space(s);
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) >= n && memcmp(s->p, word, n) == 0) {
        s->p += n;
        return true;
    }
    return false;
}

static bool hs_int(HeaderScanner *s, int64_t *out) {
    hs_skip_space(s);
    int64_t v = 0;
    const char *start = s->p;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        if (!checked_mul_i64(v, 10, &v) || !checked_add_i64(v, *s->p - '0', &v)) return false;
        s->p++;
    }
    if (s->p == start) return false;
    if (s->p < s->end && (*s->p == 'L' || *s->p == 'l')) s->p++; /* Python 2 long suffix */
    *out = v;
    return true;
}

static bool parse_npy_header(const char *text, size_t len, NpyHeader *h, char *why, size_t whylen) {
    HeaderScanner s = {text, text + len};
    memset(h, 0, sizeof *h);
    if (!hs_accept(&s, '{')) {
        set_err(why, whylen, "header is not a dictionary");
        return false;
    }
    while (!hs_accept(&s, '}')) {
        char key[32];
        if (!hs_string(&s, key, sizeof key) || !hs_accept(&s, ':')) {
            set_err(why, whylen, "malformed header dictionary");
            return false;
        }
        if (strcmp(key, "descr") == 0) {
            if (!hs_string(&s, h->descr, sizeof h->descr)) {
                set_err(why, whylen, "'descr' is not a simple type string (structured dtypes are not supported)");
                return false;
            }
            h->have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (hs_word(&s, "True")) h->fortran_order = true;
            else if (hs_word(&s, "False")) h->fortran_order = false;
            else {
                set_err(why, whylen, "'fortran_order' is not True or False");
                return false;
            }
            h->have_order = true;
        } else if (strcmp(key, "shape") == 0) {
            if (!hs_accept(&s, '(')) {
                set_err(why, whylen, "'shape' is not a tuple");
                return false;
            }
            while (!hs_accept(&s, ')')) {
                int64_t d;
                if (h->rank >= DATA_MAX_RANK) {
                    set_err(why, whylen, "'shape' has more than %d dimensions", DATA_MAX_RANK);
                    return false;
                }
                if (!hs_int(&s, &d)) {
                    set_err(why, whylen, "'shape' holds something other than non-negative integers");
                    return false;
                }
                h->shape[h->rank++] = d;
                if (!hs_accept(&s, ',')) {
                    if (!hs_accept(&s, ')')) {
                        set_err(why, whylen, "malformed 'shape' tuple");
                        return false;
                    }
                    break;
                }
            }
            h->have_shape = true;
        } else {
            set_err(why, whylen, "unexpected key '%s' in header", key);
            return false;
        }
        if (!hs_accept(&s, ',')) {
            if (!hs_accept(&s, '}')) {
                set_err(why, whylen, "malformed header dictionary");
                return false;
            }
            break;
        }
    }
    if (!h->have_descr || !h->have_order || !h->have_shape) {
        set_err(why, whylen, "header lacks %s", !h->have_descr ? "'descr'" : !h->have_order ? "'fortran_order'" : "'shape'");
        return false;
    }
    return true;
}

static bool read_npy(const char *path, const uint8_t *buf, size_t len, DType dtype, DataArray *out, char *err,
                     size_t errlen) {
    if (len < 10) {
        set_err(err, errlen, "'%s': truncated .npy header", path);
        return false;
    }
    unsigned major = buf[6], minor = buf[7];
    size_t header_len, prefix;
    if (major == 1) {
        header_len = (size_t)buf[8] | (size_t)buf[9] << 8;
        prefix = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) {
            set_err(err, errlen, "'%s': truncated .npy header", path);
            return false;
        }
        header_len = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        prefix = 12;
    } else {
        set_err(err, errlen, "'%s': unsupported .npy format version %u.%u (1.0-3.0 are supported)", path, major, minor);
        return false;
    }
    if (header_len > len - prefix) {
        set_err(err, errlen, "'%s': .npy header length %zu runs past the end of the file", path, header_len);
        return false;
    }
    NpyHeader h;
    char why[160];
    if (!parse_npy_header((const char *)buf + prefix, header_len, &h, why, sizeof why)) {
        set_err(err, errlen, "'%s': corrupt .npy header: %s", path, why);
        return false;
    }
    if (h.fortran_order) {
        set_err(err, errlen, "'%s': Fortran-order arrays are not supported (write it with C order)", path);
        return false;
    }
    const char *want = npy_descr_for(dtype);
    const char *d = h.descr;
    bool order_ok = d[0] == '<' || d[0] == '|' || d[0] == '=';
    bool kind_ok = want && order_ok && strcmp(d + 1, npy_kind_of(dtype)) == 0;
    if (!kind_ok) {
        if (d[0] == '>' && want && strcmp(d + 1, npy_kind_of(dtype)) == 0)
            set_err(err, errlen, "'%s' holds big-endian '%s' elements; the binding needs little-endian '%s' (%s)", path, d,
                    want, dtype_name(dtype));
        else
            set_err(err, errlen, "'%s' holds dtype '%s' but the binding is %s ('%s')", path, d, dtype_name(dtype),
                    want ? want : "?");
        return false;
    }
    int64_t count = 1, bytes;
    for (int i = 0; i < h.rank; i++)
        if (!checked_mul_i64(count, h.shape[i], &count)) {
            set_err(err, errlen, "'%s': shape is too large", path);
            return false;
        }
    if (!checked_mul_i64(count, (int64_t)dtype_size(dtype), &bytes)) {
        set_err(err, errlen, "'%s': shape is too large", path);
        return false;
    }
    size_t data_off = prefix + header_len;
    size_t avail = len - data_off;
    if ((uint64_t)bytes != avail) {
        set_err(err, errlen, "'%s': header promises %lld elements (%lld bytes) but the file holds %zu data bytes", path,
                (long long)count, (long long)bytes, avail);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->dtype = dtype;
    out->rank = h.rank ? h.rank : 1;
    if (h.rank == 0) out->shape[0] = 1;
    for (int i = 0; i < h.rank; i++) out->shape[i] = h.shape[i];
    out->count = count;
    out->data = malloc(avail ? avail : 1);
    if (!out->data) {
        set_err(err, errlen, "out of host memory reading '%s'", path);
        return false;
    }
    if (avail) memcpy(out->data, buf + data_off, avail);
    return true;
}

bool datafile_read(const char *path, DType dtype, DataArray *out, char *err, size_t errlen) {
    size_t es = dtype_size(dtype);
    if (!npy_descr_for(dtype) || es == 0) {
        set_err(err, errlen, "'%s': elements of type %s cannot be read from a data file", path, dtype_name(dtype));
        return false;
    }
    uint8_t *buf;
    size_t len;
    if (!read_whole_file(path, &buf, &len, err, errlen)) return false;
    bool ok;
    /* a `.bin` file is raw whatever its first bytes are (its data may begin with the .npy magic) */
    bool npy_magic = len >= 6 && memcmp(buf, "\x93NUMPY", 6) == 0 && !ends_with(path, ".bin");
    if (npy_magic) {
        ok = read_npy(path, buf, len, dtype, out, err, errlen);
    } else if (ends_with(path, ".npy")) {
        set_err(err, errlen, "'%s' is not a .npy file (missing the \\x93NUMPY magic)", path);
        ok = false;
    } else if (len % es != 0) {
        set_err(err, errlen, "'%s' has %zu bytes, not a whole number of %zu-byte %s elements", path, len, es,
                dtype_name(dtype));
        ok = false;
    } else {
        memset(out, 0, sizeof *out);
        out->dtype = dtype;
        out->rank = 1;
        out->count = (int64_t)(len / es);
        out->shape[0] = out->count;
        out->data = buf;
        buf = NULL;
        ok = true;
    }
    free(buf);
    return ok;
}

/* Builds the .npy header (magic, version, length, dict padded to a multiple of 64 bytes). */
static size_t build_npy_header(const DataArray *a, char *out, size_t cap) {
    char shape[DATA_MAX_RANK * 24 + 8];
    size_t n = 0;
    shape[n++] = '(';
    for (int i = 0; i < a->rank; i++)
        n += (size_t)snprintf(shape + n, sizeof shape - n, "%lld,%s", (long long)a->shape[i], i + 1 < a->rank ? " " : "");
    if (a->rank > 1) n--; /* "(2, 3)" rather than "(2, 3,)"; a 1-tuple keeps its comma */
    shape[n++] = ')';
    shape[n] = '\0';
    char dict[DATA_MAX_RANK * 24 + 96];
    int dlen = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                        npy_descr_for(a->dtype), shape);
    size_t total = 10 + (size_t)dlen + 1;
    size_t padded = (total + 63) / 64 * 64;
    if (padded > cap) return 0;
    size_t hlen = padded - 10;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)(hlen & 0xff);
    out[9] = (char)(hlen >> 8);
    memcpy(out + 10, dict, (size_t)dlen);
    memset(out + 10 + dlen, ' ', padded - 10 - (size_t)dlen - 1);
    out[padded - 1] = '\n';
    return padded;
}

bool datafile_write(const char *path, const DataArray *a, char *err, size_t errlen) {
    if (!npy_descr_for(a->dtype)) {
        set_err(err, errlen, "'%s': elements of type %s cannot be written to a data file", path, dtype_name(a->dtype));
        return false;
    }
    char header[1024];
    size_t header_len = 0;
    if (ends_with(path, ".npy")) {
        header_len = build_npy_header(a, header, sizeof header);
        if (!header_len) {
            set_err(err, errlen, "'%s': .npy header too long", path);
            return false;
        }
    }
    size_t bytes = (size_t)a->count * dtype_size(a->dtype);
    struct stat st;
    if (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        /* a device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a
         * temporary file over it would replace the device node itself */
        FILE *f = fopen(path, "wb");
        bool ok = f && (header_len == 0 || fwrite(header, 1, header_len, f) == header_len) &&
                  (bytes == 0 || fwrite(a->data, 1, bytes, f) == bytes);
        int saved = errno;
        if (f && fclose(f) != 0 && ok) {
            ok = false;
            saved = errno;
        }
        if (!ok) set_err(err, errlen, "cannot write '%s': %s", path, strerror(saved));
        return ok;
    }
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* a symbolic link: write its target (atomically, next to it) and keep the link */
        char *target = realpath(path, NULL);
        if (target) {
            bool ok = datafile_write(target, a, err, errlen);
            free(target);
            return ok;
        }
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 48);
    if (!tmp) {
        set_err(err, errlen, "out of host memory");
        return false;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, plen + 48, "%s.tmp-%ld-%d", path, (long)getpid(), attempt);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        set_err(err, errlen, "cannot create a temporary file next to '%s': %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    bool ok = (header_len == 0 || fwrite(header, 1, header_len, f) == header_len) &&
              (bytes == 0 || fwrite(a->data, 1, bytes, f) == bytes);
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp);
        set_err(err, errlen, "cannot write '%s': %s", path, strerror(saved));
    }
    free(tmp);
    return ok;
}

/* ---- comparison and printing --------------------------------------------------------------- */

/* Row and column of flat element i for an array's shape (the last dimension is the column). */
static void flat_to_row_col(const DataArray *a, int64_t i, int64_t *row, int64_t *col) {
    int64_t cols = a->rank >= 2 ? a->shape[a->rank - 1] : a->count;
    if (cols <= 0) cols = 1;
    *row = i / cols;
    *col = i % cols;
}

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
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (isnan(v) || scalar_round_float(strtod(buf, NULL), a->dtype) == v) return;
    }
}

/* Compares element i of got and want: true when it fails |got - want| <= atol + rtol * |want| (NaN
 * equals NaN; Inf only equals itself). Integers are differenced exactly in 64 bits (a double holds
 * only 53: 2^60 and 2^60 + 100 would look equal), then held to the tolerances; *abs_err and
 * *rel_err receive the errors (0 when equal). */
static bool element_mismatch(const DataArray *got, const DataArray *want, int64_t i, double atol, double rtol,
                             double *abs_err, double *rel_err) {
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
        return !(*abs_err <= atol + rtol * fabs(w));
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
    return !(*abs_err <= atol + rtol * fabs(w));
}

/* True when element i of a and b differ in any bit. */
static bool element_bits_differ(const DataArray *a, const DataArray *b, int64_t i) {
    size_t es = dtype_size(a->dtype);
    return memcmp((const uint8_t *)a->data + (size_t)i * es, (const uint8_t *)b->data + (size_t)i * es, es) != 0;
}

/* --compare=bits: counts elements whose bit patterns differ, prints the summary and the first ones. */
static int64_t compare_bits(FILE *out, const char *name, const DataArray *got, const DataArray *want, int max_report) {
    int64_t mismatches = 0;
    for (int64_t i = 0; i < got->count; i++) mismatches += element_bits_differ(got, want, i);
    fprintf(out, "%s: %lld elements, %lld %s (bit patterns)\n", name, (long long)got->count, (long long)mismatches,
            mismatches == 1 ? "mismatch" : "mismatches");
    int reported = 0;
    size_t es = dtype_size(got->dtype);
    for (int64_t i = 0; i < got->count && reported < max_report && mismatches; i++) {
        if (!element_bits_differ(got, want, i)) continue;
        int64_t r, c;
        uint64_t gb = 0, wb = 0;
        memcpy(&gb, (const uint8_t *)got->data + (size_t)i * es, es);
        memcpy(&wb, (const uint8_t *)want->data + (size_t)i * es, es);
        char gt[40], wt[40];
        flat_to_row_col(got, i, &r, &c);
        element_text(got, i, gt, sizeof gt);
        element_text(want, i, wt, sizeof wt);
        fprintf(out, "  mismatch at (%lld, %lld): got %s (0x%0*llx), want %s (0x%0*llx)\n", (long long)r, (long long)c, gt,
                (int)(2 * es), (unsigned long long)gb, wt, (int)(2 * es), (unsigned long long)wb);
        reported++;
    }
    if (mismatches > reported) fprintf(out, "  ... %lld more mismatches\n", (long long)(mismatches - reported));
    return mismatches;
}

int64_t data_array_compare(FILE *out, const char *name, const DataArray *got, const DataArray *want,
                           const CompareOptions *opts, char *err, size_t errlen) {
    if (got->dtype != want->dtype) {
        set_err(err, errlen, "%s: result is %s but the expected data is %s", name, dtype_name(got->dtype),
                dtype_name(want->dtype));
        return -1;
    }
    if (got->count != want->count) {
        set_err(err, errlen, "%s: result has %lld elements but the expected data has %lld", name,
                (long long)got->count, (long long)want->count);
        return -1;
    }
    DType dt = got->dtype;
    int max_report_bits = opts && opts->max_report > 0 ? opts->max_report : 10;
    if (opts && opts->bits) return compare_bits(out, name, got, want, max_report_bits);
    bool is_float = dtype_is_float(dt);
    double def = dt == DT_F32 ? 1e-5 : is_float ? 1e-3 : 0.0;
    double atol = opts && opts->atol_given ? opts->atol : def;
    double rtol = opts && opts->rtol_given ? opts->rtol : def;
    int max_report = opts && opts->max_report > 0 ? opts->max_report : 10;
    int64_t mismatches = 0;
    double max_abs = 0.0, max_rel = 0.0, abs_err, rel_err;
    /* first pass: statistics */
    for (int64_t i = 0; i < got->count; i++) {
        if (element_mismatch(got, want, i, atol, rtol, &abs_err, &rel_err)) mismatches++;
        if (!isnan(abs_err) && abs_err > max_abs) max_abs = abs_err;
        if (!isnan(rel_err) && rel_err > max_rel) max_rel = rel_err;
    }
    fprintf(out, "%s: %lld elements, %lld %s, max abs err %g, max rel err %g (atol %g, rtol %g)\n", name,
            (long long)got->count, (long long)mismatches, mismatches == 1 ? "mismatch" : "mismatches", max_abs, max_rel,
            atol, rtol);
    if (mismatches == 0) return 0;
    int reported = 0;
    for (int64_t i = 0; i < got->count && reported < max_report; i++) {
        if (!element_mismatch(got, want, i, atol, rtol, &abs_err, &rel_err)) continue;
        int64_t r, c;
        flat_to_row_col(got, i, &r, &c);
        char gt[40], wt[40];
        element_text(got, i, gt, sizeof gt);
        element_text(want, i, wt, sizeof wt);
        fprintf(out, "  mismatch at (%lld, %lld): got %s, want %s (abs err %g)\n", (long long)r, (long long)c, gt, wt,
                abs_err);
        reported++;
    }
    if (mismatches > reported) fprintf(out, "  ... %lld more mismatches\n", (long long)(mismatches - reported));
    return mismatches;
}

void data_array_print(FILE *out, const char *title, const DataArray *a) {
    fprintf(out, "%s\n", title);
    int64_t cols = a->rank >= 2 ? a->shape[a->rank - 1] : a->count;
    if (cols <= 0) return;
    int64_t rows = a->count / cols;
    char buf[48];
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t c = 0; c < cols; c++) {
            element_format_tprint(buf, sizeof buf, a->data, r * cols + c, a->dtype);
            fprintf(out, c ? " %s" : "%s", buf);
        }
        fputc('\n', out);
    }
}
