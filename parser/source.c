/* source.c - reading source files (or standard input) into the arena, with a size limit. */
#define _POSIX_C_SOURCE 200809L
#include "parser.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

SourceFile *source_file_from_string(Arena *arena, const char *path, const char *text, size_t len) {
    SourceFile *f = arena_alloc(arena, sizeof *f);
    f->path = arena_strdup(arena, path);
    f->text = arena_strndup(arena, text, len);
    f->len = len;
    return f;
}

/* Reads all of `in` into the arena; false when it exceeds the limit or a read fails. */
static bool read_stream(Arena *arena, FILE *in, const char *shown, SourceFile *out, char *err, size_t err_size) {
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(err, err_size, "%s: out of memory", shown);
        return false;
    }
    for (;;) {
        if (len == cap) {
            if (cap > SOURCE_FILE_MAX_BYTES) {
                free(buf);
                snprintf(err, err_size, "%s: file is larger than the limit of %zu MiB", shown, SOURCE_FILE_MAX_BYTES >> 20);
                return false;
            }
            size_t new_cap = cap * 2;
            char *grown = realloc(buf, new_cap);
            if (!grown) {
                free(buf);
                snprintf(err, err_size, "%s: out of memory", shown);
                return false;
            }
            buf = grown;
            cap = new_cap;
        }
        size_t n = fread(buf + len, 1, cap - len, in);
        len += n;
        if (n == 0) break;
    }
    if (ferror(in)) {
        snprintf(err, err_size, "%s: read error: %s", shown, strerror(errno));
        free(buf);
        return false;
    }
    if (len > SOURCE_FILE_MAX_BYTES) {
        free(buf);
        snprintf(err, err_size, "%s: file is larger than the limit of %zu MiB", shown, SOURCE_FILE_MAX_BYTES >> 20);
        return false;
    }
    out->text = arena_strndup(arena, buf, len);
    out->len = len;
    free(buf);
    return true;
}

/* Reads a regular file of `size` bytes straight into the arena (no second copy). Returns false,
 * with the file rewound, when its size changed meanwhile or a read failed: the caller then reads
 * it as a stream. */
static bool read_regular(Arena *arena, FILE *in, size_t size, SourceFile *out) {
    char *text = arena_alloc(arena, size + 1); /* zeroed: text[size] is the terminating NUL */
    size_t len = fread(text, 1, size + 1, in);
    if (len == size && !ferror(in)) {
        out->text = text;
        out->len = len;
        return true;
    }
    clearerr(in);
    rewind(in);
    return false;
}

bool source_file_read(Arena *arena, const char *path, SourceFile *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0) {
        out->path = "<stdin>";
        return read_stream(arena, stdin, "<stdin>", out, err, err_size);
    }
    out->path = arena_strdup(arena, path);
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fileno(in), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fclose(in);
            snprintf(err, err_size, "%s: is a directory", path);
            return false;
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > SOURCE_FILE_MAX_BYTES) {
            fclose(in);
            snprintf(err, err_size, "%s: file is larger than the limit of %zu MiB", path, SOURCE_FILE_MAX_BYTES >> 20);
            return false;
        }
        if (S_ISREG(st.st_mode) && read_regular(arena, in, (size_t)st.st_size, out)) {
            fclose(in);
            return true;
        }
    }
    bool ok = read_stream(arena, in, path, out, err, err_size);
    fclose(in);
    return ok;
}
