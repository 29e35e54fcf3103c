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
    list->last_recorded = false;
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
    d->notes = NULL;
    d->fixits = NULL;
    d->n_notes = d->n_fixits = 0;
    list->count++;
    list->last_recorded = true;
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

/* Grows an arena array of `count` elements by one (a copy: diagnostics have few notes). */
static void *grow_by_one(Arena *arena, const void *items, uint32_t count, size_t elem_size) {
    void *bigger = arena_alloc_array(arena, (size_t)count + 1, elem_size);
    if (count) memcpy(bigger, items, count * elem_size);
    return bigger;
}

void diag_add_note(DiagList *list, SrcLoc loc, const char *fmt, ...) {
    if (!list->last_recorded || list->count == 0) return;
    Diag *d = &list->items[list->count - 1];
    DiagNote *notes = grow_by_one(list->arena, d->notes, d->n_notes, sizeof *notes);
    va_list ap;
    va_start(ap, fmt);
    notes[d->n_notes].message = arena_vprintf(list->arena, fmt, ap);
    va_end(ap);
    notes[d->n_notes].loc = loc;
    d->notes = notes;
    d->n_notes++;
}

void diag_add_fixit(DiagList *list, SrcLoc loc, const char *replacement) {
    if (!list->last_recorded || list->count == 0) return;
    Diag *d = &list->items[list->count - 1];
    DiagFixit *fixits = grow_by_one(list->arena, d->fixits, d->n_fixits, sizeof *fixits);
    fixits[d->n_fixits].loc = loc;
    fixits[d->n_fixits].replacement = arena_strdup(list->arena, replacement ? replacement : "");
    d->fixits = fixits;
    d->n_fixits++;
}

void diag_copy(DiagList *list, const Diag *d) {
    diag_report(list, d->file, d->severity, d->loc, d->rule, "%s", d->message);
    for (uint32_t i = 0; i < d->n_notes; i++) diag_add_note(list, d->notes[i].loc, "%s", d->notes[i].message);
    for (uint32_t i = 0; i < d->n_fixits; i++) diag_add_fixit(list, d->fixits[i].loc, d->fixits[i].replacement);
}

void diag_end_position(const SourceFile *file, SrcLoc loc, uint32_t *end_line, uint32_t *end_col) {
    *end_line = loc.line;
    *end_col = loc.col;
    if (!file || !file->text || loc.line == 0 || loc.len == 0) return;
    size_t end = (size_t)loc.offset + loc.len;
    if (loc.offset > file->len || end > file->len) return;
    uint32_t line = loc.line, col = loc.col;
    for (size_t i = loc.offset; i < end; i++) {
        if (file->text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    *end_line = line;
    *end_col = col;
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

static bool is_utf8_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* Writes the source line containing `loc` and a caret line under the located span. A line longer
 * than DIAG_MAX_EXCERPT bytes is shown as a window of DIAG_EXCERPT_WINDOW bytes around the column,
 * with "..." where it is cut; scanning stays within DIAG_MAX_EXCERPT bytes each way, so printing
 * many diagnostics on one long line stays linear. */
static void print_source_excerpt(FILE *out, const SourceFile *file, SrcLoc loc) {
    if (!file || !file->text || loc.line == 0 || loc.offset > file->len) return;
    const char *text = file->text;
    size_t limit = DIAG_MAX_EXCERPT + 1;
    size_t start = loc.offset;
    while (start > 0 && text[start - 1] != '\n' && loc.offset - start < limit) start--;
    bool start_is_line_start = start == 0 || text[start - 1] == '\n';
    size_t end = loc.offset;
    while (end < file->len && text[end] != '\n' && text[end] != '\r' && end - loc.offset < limit) end++;
    bool end_is_line_end = end == file->len || text[end] == '\n' || text[end] == '\r';
    size_t from = start, to = end;
    if (!start_is_line_start || !end_is_line_end || end - start > DIAG_MAX_EXCERPT) {
        size_t before = DIAG_EXCERPT_WINDOW / 3;
        from = loc.offset - start > before ? loc.offset - before : start;
        to = end - from > DIAG_EXCERPT_WINDOW ? from + DIAG_EXCERPT_WINDOW : end;
        /* cut between characters, not inside a UTF-8 sequence */
        while (from < loc.offset && is_utf8_continuation(text[from])) from++;
        while (to > loc.offset && to < end && is_utf8_continuation(text[to])) to--;
    }
    bool cut_before = from > start || !start_is_line_start;
    bool cut_after = to < end || !end_is_line_end;
    fprintf(out, "  %s%.*s%s\n  ", cut_before ? "..." : "", (int)(to - from), text + from, cut_after ? "..." : "");
    if (cut_before) fputs("   ", out);
    for (size_t i = from; i < loc.offset; i++) fputc(text[i] == '\t' ? '\t' : ' ', out);
    fputc('^', out);
    size_t span = loc.len;
    if (span > 1) {
        if (loc.offset + span > to) span = to > loc.offset ? to - loc.offset : 1;
        for (size_t i = 1; i < span; i++) fputc('~', out);
    }
    fputc('\n', out);
}

/* The located bytes of `loc` for a message (at most 60, one line), or "" when unknown. */
static void print_span_text(FILE *out, const SourceFile *file, SrcLoc loc) {
    if (!file || !file->text || (size_t)loc.offset + loc.len > file->len) return;
    size_t n = 0;
    while (n < loc.len && n < 60 && file->text[loc.offset + n] != '\n') n++;
    fprintf(out, "%.*s%s", (int)n, file->text + loc.offset, n < loc.len ? "..." : "");
}

/* Writes `s` with line breaks and tabs as \\n and \\t (a fix-it's replacement on one line). */
static void print_escaped(FILE *out, const char *s) {
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", out);
        else if (*s == '\t') fputs("\\t", out);
        else fputc(*s, out);
    }
}

void diag_print_text(FILE *out, const DiagList *list) {
    for (size_t i = 0; i < list->count; i++) {
        const Diag *d = &list->items[i];
        const char *path = d->file ? d->file->path : "<input>";
        if (d->loc.line)
            fprintf(out, "%s:%u:%u: %s: %s", path, d->loc.line, d->loc.col, severity_name(d->severity), d->message);
        else
            fprintf(out, "%s: %s: %s", path, severity_name(d->severity), d->message);
        /* parse errors' rule IDs (PARSE.*) are categories for tools (JSON); the message says it all */
        if (d->rule && strncmp(d->rule, "PARSE.", 6) != 0) fprintf(out, " [%s]", d->rule);
        fputc('\n', out);
        print_source_excerpt(out, d->file, d->loc);
        for (uint32_t k = 0; k < d->n_notes; k++) {
            const DiagNote *n = &d->notes[k];
            if (n->loc.line) fprintf(out, "%s:%u:%u: note: %s\n", path, n->loc.line, n->loc.col, n->message);
            else fprintf(out, "%s: note: %s\n", path, n->message);
            if (n->loc.offset != d->loc.offset || n->loc.line != d->loc.line) print_source_excerpt(out, d->file, n->loc);
        }
        for (uint32_t k = 0; k < d->n_fixits; k++) {
            const DiagFixit *f = &d->fixits[k];
            fprintf(out, "%s:%u:%u: fix-it: ", path, f->loc.line, f->loc.col);
            if (f->loc.len) {
                fputs("replace '", out);
                print_span_text(out, d->file, f->loc);
                fputs("' with '", out);
            } else {
                fputs("insert '", out);
            }
            print_escaped(out, f->replacement);
            fputs("'\n", out);
        }
    }
    size_t shown = 0;
    for (size_t i = 0; i < list->count; i++) shown += list->items[i].severity == SEV_ERROR;
    if (list->errors > shown)
        fprintf(out, "note: %zu more errors not shown (at most %zu are reported)\n", list->errors - shown,
                list->max_errors);
}

/* Bytes of the well-formed UTF-8 sequence at p (1 for ASCII), or 0 when it is not one. */
static int utf8_length(const unsigned char *p) {
    int n = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
            : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    if (n == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0))) return 0; /* overlong, surrogate */
    if (n == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))) return 0;
    return n;
}

/* A JSON string: escapes as RFC 8259 requires; a byte that is not part of well-formed UTF-8 (a
 * path or quoted source text may hold any byte) becomes U+FFFD, so the document stays valid. */
void json_print_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20) {
                fprintf(out, "\\u%04x", *p);
            } else if (*p < 0x80) {
                fputc(*p, out);
            } else {
                int n = utf8_length(p);
                if (n == 0) {
                    fputs("\\ufffd", out);
                } else {
                    fwrite(p, 1, (size_t)n, out);
                    p += n - 1;
                }
            }
        }
    }
    fputc('"', out);
}

/* "file": ..., "line": L, "column": C, "end_line": EL, "end_column": EC (no braces) */
static void print_json_location(FILE *out, const SourceFile *file, SrcLoc loc) {
    uint32_t end_line, end_col;
    diag_end_position(file, loc, &end_line, &end_col);
    fputs("\"file\": ", out);
    json_print_string(out, file ? file->path : "");
    fprintf(out, ", \"line\": %u, \"column\": %u, \"end_line\": %u, \"end_column\": %u", loc.line, loc.col, end_line,
            end_col);
}

void diag_print_json(FILE *out, const DiagList *list) {
    fputs("{\"version\": 1, \"diagnostics\": [", out);
    size_t shown = 0;
    for (size_t i = 0; i < list->count; i++) {
        const Diag *d = &list->items[i];
        shown += d->severity == SEV_ERROR;
        fputs(i ? ",\n  {" : "\n  {", out);
        print_json_location(out, d->file, d->loc);
        fputs(", \"severity\": ", out);
        json_print_string(out, severity_name(d->severity));
        fputs(", \"rule\": ", out);
        if (d->rule) json_print_string(out, d->rule);
        else fputs("null", out);
        fputs(", \"message\": ", out);
        json_print_string(out, d->message);
        fputs(", \"notes\": [", out);
        for (uint32_t k = 0; k < d->n_notes; k++) {
            fputs(k ? ", {" : "{", out);
            print_json_location(out, d->file, d->notes[k].loc);
            fputs(", \"message\": ", out);
            json_print_string(out, d->notes[k].message);
            fputc('}', out);
        }
        fputs("], \"fixits\": [", out);
        for (uint32_t k = 0; k < d->n_fixits; k++) {
            fputs(k ? ", {" : "{", out);
            print_json_location(out, d->file, d->fixits[k].loc);
            fputs(", \"replacement\": ", out);
            json_print_string(out, d->fixits[k].replacement);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fprintf(out, "%s], \"errors\": %zu, \"warnings\": %zu, \"errors_not_shown\": %zu}\n", list->count ? "\n" : "",
            list->errors, list->warnings, list->errors > shown ? list->errors - shown : 0);
}
