/* datafile.c - data files (SPEC 7): raw little-endian `.bin` and numpy `.npy` v1.0-3.0 (C order),
 * atomic writes (temporary file + rename). Comparison and printing of arrays: compare.c. The host is assumed little-endian (x86-64, AArch64): elements are copied as bytes. */
#define _XOPEN_SOURCE 700 /* POSIX 2008 + realpath */
#include "kernels.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
    if (a->map) munmap(a->map, a->map_len);
    else free(a->data);
    a->data = NULL;
    a->map = NULL;
    a->map_len = 0;
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
    case DT_F8E4M3FN: case DT_F8E4M3: case DT_F8E5M2: case DT_F8E8M0FNU: /* raw bits, as bf16's <u2 */
    case DT_F8E4M3FNUZ: case DT_F8E4M3B11FNUZ: case DT_F8E5M2FNUZ: return "|u1";
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

/* Files from this size on are mapped, not read: copy-on-write private pages, loaded when a
 * kernel first touches them (a 400 MB weight file of which a kernel reads one slice costs that
 * slice, not a 400 MB copy and a page fault per 4 KiB of fresh memory). */
#define DATA_MAP_MIN_BYTES ((size_t)1 << 16)

/* Maps a regular file of DATA_MAP_MIN_BYTES up to DATA_FILE_MAX_BYTES privately (readable and
 * writable, writes stay in this process). False when it is smaller, not a regular file or cannot
 * be mapped: the caller reads it instead. */
static bool map_whole_file(const char *path, uint8_t **out, size_t *out_len) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return false;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= DATA_MAP_MIN_BYTES &&
        (uint64_t)st.st_size <= DATA_FILE_MAX_BYTES)
        p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return false;
    *out = p;
    *out_len = (size_t)st.st_size;
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

static bool read_npy(const char *path, const uint8_t *buf, size_t len, DType dtype, DataArray *out,
                     size_t *data_offset, char *err, size_t errlen) {
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
    *data_offset = data_off;
    return true;
}

bool datafile_read(const char *path, DType dtype, DataArray *out, char *err, size_t errlen) {
    size_t es = dtype_size(dtype);
    if (!npy_descr_for(dtype) || es == 0) {
        set_err(err, errlen, "'%s': elements of type %s cannot be read from a data file", path, dtype_name(dtype));
        return false;
    }
    uint8_t *buf;
    size_t len, data_off = 0;
    bool mapped = map_whole_file(path, &buf, &len);
    if (!mapped && !read_whole_file(path, &buf, &len, err, errlen)) return false;
    bool ok;
    /* a `.bin` file is raw whatever its first bytes are (its data may begin with the .npy magic) */
    bool npy_magic = len >= 6 && memcmp(buf, "\x93NUMPY", 6) == 0 && !ends_with(path, ".bin");
    if (npy_magic) {
        ok = read_npy(path, buf, len, dtype, out, &data_off, err, errlen);
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
        ok = true;
    }
    if (!ok) {
        if (mapped) munmap(buf, len);
        else free(buf);
        return false;
    }
    if (mapped && data_off % 16 != 0) { /* a hand-made .npy header: copy, so elements stay aligned */
        uint8_t *copy = malloc(len - data_off ? len - data_off : 1);
        if (!copy) {
            munmap(buf, len);
            set_err(err, errlen, "out of host memory reading '%s'", path);
            return false;
        }
        memcpy(copy, buf + data_off, len - data_off);
        munmap(buf, len);
        out->data = copy;
    } else if (mapped) { /* the elements stay in the mapping */
        out->data = buf + data_off;
        out->map = buf;
        out->map_len = len;
    } else { /* the elements moved to the front of the buffer read */
        if (data_off) memmove(buf, buf + data_off, len - data_off);
        out->data = buf;
    }
    return true;
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
