/* diag.c - diagnostics: collection, ordering, text output with source line and caret, JSON. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

void diag_init(DiagList *list, Arena *arena) {
    memset(list, 0, sizeof *list);
    list->arena = arena;
    list->max_errors = DIAG_MAX_ERRORS;
}

const char *severity_name(Severity sev) {
    switch (sev) {
    case SEV_ERROR: return "error";
    case SEV_WARNING: return "warning";
    case SEV_NOTE: return "note";
    }
    return "error";
}

void diag_vreport(DiagList *list, const SourceFile *file, Severity sev, SrcLoc loc, const char *rule,
                  const char *fmt, va_list ap) {
    if (sev == SEV_WARNING && list->warnings_as_errors) sev = SEV_ERROR;
    if (sev == SEV_ERROR && list->max_errors && list->errors >= list->max_errors) {
        list->errors++;
        return;
    }
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        Diag *items = arena_alloc_array(list->arena, cap, sizeof *items);
        if (list->count) memcpy(items, list->items, list->count * sizeof *items);
        list->items = items;
        list->cap = cap;
    }
    Diag *d = &list->items[list->count];
    d->severity = sev;
    d->file = file;
    d->loc = loc;
    d->rule = rule ? arena_strdup(list->arena, rule) : NULL;
    d->message = arena_vprintf(list->arena, fmt, ap);
    d->seq = list->count;
    list->count++;
    if (sev == SEV_ERROR) list->errors++;
    else if (sev == SEV_WARNING) list->warnings++;
}

void diag_report(DiagList *list, const SourceFile *file, Severity sev, SrcLoc loc, const char *rule,
                 const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(list, file, sev, loc, rule, fmt, ap);
    va_end(ap);
}

static int compare_diags(const void *pa, const void *pb) {
    const Diag *a = pa, *b = pb;
    const char *fa = a->file ? a->file->path : "", *fb = b->file ? b->file->path : "";
    if (a->file != b->file) {
        int c = strcmp(fa, fb);
        if (c) return c;
    }
    if (a->loc.line != b->loc.line) return a->loc.line < b->loc.line ? -1 : 1;
    if (a->loc.col != b->loc.col) return a->loc.col < b->loc.col ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void diag_sort(DiagList *list) {
    if (list->count > 1) qsort(list->items, list->count, sizeof *list->items, compare_diags);
}

/* Writes the source line containing `loc` and a caret line under the located span. */
static void print_source_excerpt(FILE *out, const SourceFile *file, SrcLoc loc) {
    if (!file || !file->text || loc.line == 0 || loc.offset > file->len) return;
    /* do not echo giant lines; scan at most DIAG_MAX_EXCERPT bytes each way, so printing many
     * diagnostics on one long line stays linear */
    size_t start = loc.offset;
    while (start > 0 && file->text[start - 1] != '\n') {
        if (loc.offset - start > DIAG_MAX_EXCERPT) return;
        start--;
    }
    size_t end = loc.offset;
    while (end < file->len && file->text[end] != '\n' && file->text[end] != '\r') {
        if (end - start > DIAG_MAX_EXCERPT) return;
        end++;
    }
    if (end - start > DIAG_MAX_EXCERPT) return;
    fprintf(out, "  %.*s\n  ", (int)(end - start), file->text + start);
    for (size_t i = start; i < loc.offset; i++) fputc(file->text[i] == '\t' ? '\t' : ' ', out);
    fputc('^', out);
    size_t span = loc.len;
    if (span > 1) {
        if (loc.offset + span > end) span = end - loc.offset;
        for (size_t i = 1; i < span; i++) fputc('~', out);
    }
    fputc('\n', out);
}

void diag_print_text(FILE *out, const DiagList *list) {
    for (size_t i = 0; i < list->count; i++) {
        const Diag *d = &list->items[i];
        const char *path = d->file ? d->file->path : "<input>";
        if (d->loc.line)
            fprintf(out, "%s:%u:%u: %s: %s", path, d->loc.line, d->loc.col, severity_name(d->severity), d->message);
        else
            fprintf(out, "%s: %s: %s", path, severity_name(d->severity), d->message);
        if (d->rule) fprintf(out, " [%s]", d->rule);
        fputc('\n', out);
        print_source_excerpt(out, d->file, d->loc);
    }
    size_t shown = 0;
    for (size_t i = 0; i < list->count; i++) shown += list->items[i].severity == SEV_ERROR;
    if (list->errors > shown)
        fprintf(out, "note: %zu more errors not shown (at most %zu are reported)\n", list->errors - shown,
                list->max_errors);
}

static void print_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

void diag_print_json(FILE *out, const DiagList *list) {
    fputc('[', out);
    for (size_t i = 0; i < list->count; i++) {
        const Diag *d = &list->items[i];
        fputs(i ? ",\n {" : "\n {", out);
        fputs("\"file\": ", out);
        print_json_string(out, d->file ? d->file->path : "");
        fprintf(out, ", \"line\": %u, \"column\": %u, \"severity\": ", d->loc.line, d->loc.col);
        print_json_string(out, severity_name(d->severity));
        fputs(", \"rule\": ", out);
        if (d->rule) print_json_string(out, d->rule);
        else fputs("null", out);
        fputs(", \"message\": ", out);
        print_json_string(out, d->message);
        fputc('}', out);
    }
    fputs(list->count ? "\n]\n" : "]\n", out);
}
