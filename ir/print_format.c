/* print_format.c - pto.print's format string, checked and taken apart (ir.h: PrintOpFormat).
 *
 * The text is untrusted: it is decoded (MLIR's string escapes), then split into the literal text
 * around exactly one conversion, and the conversion is rebuilt from parts checked one by one
 * (flags, width, precision, length, conversion letter) against the scalar's type. pto-run prints
 * the literal text as bytes and passes printf only the rebuilt spec. */
#include <string.h>

#include "ir.h"

/* Decodes MLIR's escapes (\\ \" \n \t \XX) of `raw` into arena storage; false with *err on an
 * escape MLIR does not take or on a NUL byte (a C format cannot hold one). */
static bool decode_escapes(Arena *arena, const char *raw, char **text, size_t *len, const char **err) {
    size_t n = strlen(raw);
    char *buf = arena_alloc(arena, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = raw[i];
        if (c != '\\') {
            buf[k++] = c;
            continue;
        }
        char e = i + 1 < n ? raw[i + 1] : '\0';
        if (e == '\\' || e == '"') {
            buf[k++] = e;
            i++;
        } else if (e == 'n') {
            buf[k++] = '\n';
            i++;
        } else if (e == 't') {
            buf[k++] = '\t';
            i++;
        } else {
            static const char hex[] = "0123456789abcdef0123456789ABCDEF";
            const char *h1 = e ? strchr(hex, e) : NULL, *h2 = i + 2 < n && raw[i + 2] ? strchr(hex, raw[i + 2]) : NULL;
            if (!h1 || !h2) {
                *err = arena_printf(arena, "the escape '\\%c' is not one MLIR strings take (\\\\, \\\", \\n, \\t or \\XX "
                                           "with two hex digits)", e ? e : ' ');
                return false;
            }
            int v = (int)((h1 - hex) % 16) * 16 + (int)((h2 - hex) % 16);
            if (v == 0) {
                *err = "the format holds a NUL byte (\\00), which ends a C format string";
                return false;
            }
            buf[k++] = (char)v;
            i += 2;
        }
    }
    buf[k] = '\0';
    *text = buf;
    *len = k;
    return true;
}

/* Copies text[0..n) with `%%` folded to '%' (the caller checked every '%' there is doubled). */
static const char *fold_percent(Arena *arena, const char *text, size_t n, size_t *out_len) {
    char *buf = arena_alloc(arena, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        buf[k++] = text[i];
        if (text[i] == '%') i++;
    }
    buf[k] = '\0';
    *out_len = k;
    return buf;
}

/* A decimal field of at most PRINT_FORMAT_MAX_FIELD at text[*i]; -1 when none is written, -2
 * when it is too large. */
static int read_field(const char *text, size_t n, size_t *i) {
    if (*i >= n || text[*i] < '0' || text[*i] > '9') return -1;
    int v = 0;
    bool big = false;
    while (*i < n && text[*i] >= '0' && text[*i] <= '9') {
        if (!big) v = v * 10 + (text[*i] - '0');
        if (v > PRINT_FORMAT_MAX_FIELD) big = true;
        (*i)++;
    }
    return big ? -2 : v;
}

/* True for the scalar types an integer conversion prints (signless, unsigned, i1, index). */
static bool int_scalar(DType dt) { return dtype_is_int(dt) || dt == DT_I1 || dt == DT_INDEX; }

bool print_op_format_parse(Arena *arena, const char *raw, DType scalar, PrintOpFormat *out, const char **err) {
    memset(out, 0, sizeof *out);
    char *text;
    size_t n;
    if (!decode_escapes(arena, raw ? raw : "", &text, &n, err)) return false;
    if (n == 0) {
        *err = "the format is empty (it must hold one conversion for the scalar, such as %d or %f)";
        return false;
    }
    size_t conv_start = n, conv_end = n;
    for (size_t i = 0; i < n; i++) {
        if (text[i] != '%') continue;
        if (i + 1 < n && text[i + 1] == '%') {
            i++;
            continue;
        }
        if (conv_start != n) {
            *err = arena_printf(arena, "the format has more than one conversion (the second at byte %zu); pto.print "
                                       "prints one scalar (write %%%% for a literal '%%')", i + 1);
            return false;
        }
        conv_start = i;
        size_t j = i + 1;
        char flags[8];
        int n_flags = 0;
        while (j < n && strchr("-+ #0", text[j]) && text[j]) {
            if (!memchr(flags, text[j], (size_t)n_flags) && n_flags < 5) flags[n_flags++] = text[j];
            j++;
        }
        if (j < n && text[j] == '*') {
            *err = "a '*' width or precision takes an extra argument; pto.print passes only the scalar";
            return false;
        }
        int width = read_field(text, n, &j);
        if (j < n && text[j] == '$') {
            *err = "a positional argument ('%N$') is not allowed; pto.print has one argument";
            return false;
        }
        int prec = -1;
        if (j < n && text[j] == '.') {
            j++;
            if (j < n && text[j] == '*') {
                *err = "a '*' width or precision takes an extra argument; pto.print passes only the scalar";
                return false;
            }
            prec = read_field(text, n, &j);
            if (prec == -1) prec = 0; /* "%.f": precision 0, as C reads it */
        }
        if (width == -2 || prec == -2) {
            *err = arena_printf(arena, "a width or precision over %d is not allowed", PRINT_FORMAT_MAX_FIELD);
            return false;
        }
        int bits = 32; /* the length modifier: hh 8, h 16, none 32, l ll j z t 64; L: long double */
        bool len_written = false, long_double = false, len_l = false;
        if (j + 1 < n && text[j] == 'h' && text[j + 1] == 'h') bits = 8, j += 2, len_written = true;
        else if (j + 1 < n && text[j] == 'l' && text[j + 1] == 'l') bits = 64, j += 2, len_written = true;
        else if (j < n && text[j] == 'h') bits = 16, j++, len_written = true;
        else if (j < n && text[j] == 'l') bits = 64, j++, len_written = true, len_l = true;
        else if (j < n && strchr("jzt", text[j]) && text[j]) bits = 64, j++, len_written = true;
        else if (j < n && (text[j] == 'L' || text[j] == 'q')) long_double = true, j++, len_written = true;
        if (j >= n) {
            *err = "the format ends inside a conversion (write %% for a literal '%')";
            return false;
        }
        char c = text[j];
        conv_end = j + 1;
        if (strchr("diouxX", c) && c) {
            if (!int_scalar(scalar)) {
                *err = arena_printf(arena, "the conversion '%%%c' prints an integer, but the scalar is %s (write %%f, %%e, "
                                           "%%g or %%a)", c, dtype_name(scalar));
                return false;
            }
            bool wide = dtype_size(scalar) == 8;
            if (long_double || (wide && bits != 64) || (!wide && bits == 64)) {
                *err = arena_printf(arena, "the conversion '%.*s' does not take a %s scalar (%s)", (int)(conv_end - i),
                                    text + i, dtype_name(scalar),
                                    wide ? "a 64-bit scalar takes %ld, %lld, %lu, %lx, ..."
                                         : "a scalar of 32 bits or fewer takes %d, %u, %x, %hd, %hhx, ..., without l");
                return false;
            }
            out->arg = PF_ARG_INT;
            out->int_bits = bits;
            out->is_unsigned = c != 'd' && c != 'i';
        } else if (strchr("fFeEgGaA", c) && c) {
            if (!dtype_is_float(scalar)) {
                *err = arena_printf(arena, "the conversion '%%%c' prints a floating-point number, but the scalar is %s "
                                           "(write %%d, %%u, %%x, ...)", c, dtype_name(scalar));
                return false;
            }
            if (len_written && !len_l) {
                *err = arena_printf(arena, "the conversion '%.*s' has a length modifier a float does not take (a float "
                                           "is passed as a double: %%f, %%lf, %%e, %%g, %%a)", (int)(conv_end - i), text + i);
                return false;
            }
            out->arg = PF_ARG_FLOAT;
        } else {
            const char *why = c == 'n'   ? "'%n' writes to memory"
                              : c == 's' ? "'%s' reads a string"
                              : c == 'p' ? "'%p' prints a pointer"
                              : c == 'c' ? "'%c' prints a character"
                                         : "it is not a printf conversion pto.print takes";
            *err = arena_printf(arena, "the conversion '%.*s' is not allowed: %s (integers: %%d %%i %%u %%o %%x %%X; "
                                       "floats: %%f %%F %%e %%E %%g %%G %%a %%A; with flags -+ #0, a width and a "
                                       "precision up to %d)", (int)(conv_end - i), text + i, why, PRINT_FORMAT_MAX_FIELD);
            return false;
        }
        /* the spec handed to printf: '%', the checked flags, width, precision, ll for integers */
        int k = 0;
        out->spec[k++] = '%';
        for (int f = 0; f < n_flags; f++) out->spec[k++] = flags[f];
        char *end = out->spec + sizeof out->spec;
        char *w = out->spec + k;
        if (width >= 0) w += snprintf(w, (size_t)(end - w), "%d", width);
        if (prec >= 0) w += snprintf(w, (size_t)(end - w), ".%d", prec);
        snprintf(w, (size_t)(end - w), "%s%c", out->arg == PF_ARG_INT ? "ll" : "", c);
        i = j;
    }
    if (conv_start == n) {
        *err = "the format has no conversion for the scalar (write one, such as %d or %f; %% is a literal '%')";
        return false;
    }
    out->prefix = fold_percent(arena, text, conv_start, &out->prefix_len);
    out->suffix = fold_percent(arena, text + conv_end, n - conv_end, &out->suffix_len);
    return true;
}
