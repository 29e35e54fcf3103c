/* expected.c - LLVM -verify style checking of diagnostics against annotations in the source:
 *   // expected-error {{text}}        a diagnostic on this line
 *   // expected-warning@+1 {{text}}   on the next line (@-N: N lines up, @N: line N)
 *   // expected-note@-2 2 {{text}}    twice, two lines up
 *   // expected-no-diagnostics        nothing at all is expected
 * A diagnostic matches when its severity and line agree and "MESSAGE [RULE]" contains the text; an
 * expected-note may also match a note attached to a diagnostic (Diag.notes), at the note's line.
 * Every expected diagnostic must appear; every actual error and warning must be expected. */
#include "verifier.h"

#include <stdlib.h>
#include <string.h>

typedef struct Expectation {
    Severity severity;
    long line; /* where the diagnostic must be */
    uint32_t annot_line; /* where the annotation is written */
    const char *text; /* points into the file text */
    size_t text_len;
    long count;
} Expectation;

typedef struct ExpectList {
    Expectation *items;
    size_t count, cap;
    int malformed; /* annotations that could not be read (reported) */
    bool no_diagnostics;
} ExpectList;

static void expect_push(ExpectList *list, Expectation e) {
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        Expectation *items = realloc(list->items, cap * sizeof *items);
        if (!items) {
            fprintf(stderr, "fatal: out of host memory\n");
            exit(2);
        }
        list->items = items;
        list->cap = cap;
    }
    list->items[list->count++] = e;
}

static bool starts_with(const char *p, const char *end, const char *word) {
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* Reads a decimal number at *p (advancing); false when there is none or it is absurdly large. */
static bool read_number(const char **p, const char *end, long *out) {
    long v = 0;
    const char *s = *p;
    while (s < end && *s >= '0' && *s <= '9' && v < 100000000) v = v * 10 + (*s++ - '0');
    if (s == *p || (s < end && *s >= '0' && *s <= '9')) return false;
    *p = s;
    *out = v;
    return true;
}

static void skip_blanks(const char **p, const char *end) {
    while (*p < end && (**p == ' ' || **p == '\t')) (*p)++;
}

static void report_malformed(ExpectList *list, const SourceFile *file, uint32_t line, const char *why, FILE *report) {
    fprintf(report, "%s:%u: error: malformed expected-diagnostic annotation: %s\n", file->path, line, why);
    list->malformed++;
}

/* Parses one annotation starting after "expected-" at p; returns where scanning continues. */
static const char *parse_annotation(ExpectList *list, const SourceFile *file, uint32_t line, const char *p,
                                    const char *end, FILE *report) {
    Expectation e = {.annot_line = line, .line = line, .count = 1};
    if (starts_with(p, end, "no-diagnostics")) {
        list->no_diagnostics = true;
        return p + strlen("no-diagnostics");
    }
    if (starts_with(p, end, "error"))
        e.severity = SEV_ERROR, p += 5;
    else if (starts_with(p, end, "warning"))
        e.severity = SEV_WARNING, p += 7;
    else if (starts_with(p, end, "note"))
        e.severity = SEV_NOTE, p += 4;
    else
        return p; /* "expected-" in prose */
    if (p < end && *p == '@') {
        p++;
        long n;
        int sign = 0;
        if (p < end && (*p == '+' || *p == '-')) sign = *p++ == '+' ? 1 : -1;
        if (!read_number(&p, end, &n)) {
            report_malformed(list, file, line, "expected a line offset after '@'", report);
            return p;
        }
        e.line = sign ? (long)line + sign * n : n;
    }
    skip_blanks(&p, end);
    if (p < end && *p >= '0' && *p <= '9' && !read_number(&p, end, &e.count)) {
        report_malformed(list, file, line, "bad repetition count", report);
        return p;
    }
    skip_blanks(&p, end);
    if (!starts_with(p, end, "{{")) {
        report_malformed(list, file, line, "expected '{{' after the annotation", report);
        return p;
    }
    p += 2;
    const char *close = p;
    while (close + 1 < end && !(close[0] == '}' && close[1] == '}')) close++;
    if (close + 1 >= end) {
        report_malformed(list, file, line, "missing '}}'", report);
        return end;
    }
    if (e.line < 1 || e.count < 1) {
        report_malformed(list, file, line, "the target line or count is out of range", report);
        return close + 2;
    }
    e.text = p;
    e.text_len = (size_t)(close - p);
    expect_push(list, e);
    return close + 2;
}

/* Finds the start of a comment on a line (`//`, or `#` followed by a blank), or NULL. */
static const char *comment_start(const char *p, const char *end) {
    for (; p < end; p++) {
        if (p + 1 < end && p[0] == '/' && p[1] == '/') return p;
        if (p[0] == '#' && (p + 1 == end || p[1] == ' ' || p[1] == '\t')) return p;
    }
    return NULL;
}

static void collect_expectations(ExpectList *list, const SourceFile *file, FILE *report) {
    const char *text = file->text, *end = file->text + file->len;
    uint32_t line = 1;
    for (const char *p = text; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *c = comment_start(p, eol);
        while (c && c < eol) {
            const char *hit = NULL;
            for (const char *s = c; s + 9 <= eol; s++)
                if (memcmp(s, "expected-", 9) == 0) {
                    hit = s;
                    break;
                }
            if (!hit) break;
            c = parse_annotation(list, file, line, hit + 9, eol, report);
        }
        p = eol + 1;
    }
}

static bool same_file(const Diag *d, const SourceFile *file) {
    if (d->file == file) return true;
    return d->file && d->file->path && file->path && strcmp(d->file->path, file->path) == 0;
}

static bool diag_matches(const Diag *d, const Expectation *e) {
    if (d->severity != e->severity || (long)d->loc.line != e->line) return false;
    char *needle = malloc(e->text_len + 1);
    if (!needle) return false;
    memcpy(needle, e->text, e->text_len);
    needle[e->text_len] = '\0';
    bool found = d->message && strstr(d->message, needle);
    if (!found && d->rule) {
        size_t n = strlen(d->rule);
        found = strcmp(d->rule, needle) == 0 || (e->text_len == n + 2 && needle[0] == '[' &&
                                                 memcmp(needle + 1, d->rule, n) == 0 && needle[n + 1] == ']');
    }
    free(needle);
    return found;
}

/* An attached note (Diag.notes) against an `expected-note`: its line (the diagnostic's line when
 * the note has none) and its text. */
static bool note_matches(const Diag *d, const DiagNote *n, const Expectation *e) {
    long line = n->loc.line ? (long)n->loc.line : (long)d->loc.line;
    if (e->severity != SEV_NOTE || line != e->line || !n->message) return false;
    for (const char *p = n->message; *p; p++)
        if (strncmp(p, e->text, e->text_len) == 0) return true;
    return e->text_len == 0;
}

/* Finds an unused attached note of `actual` matching `e` and marks it used (note_used is indexed
 * by the running count of notes over the diagnostics). */
static bool match_attached_note(const DiagList *actual, const SourceFile *file, const Expectation *e, bool *note_used) {
    size_t base = 0;
    for (size_t j = 0; j < actual->count; j++) {
        const Diag *d = &actual->items[j];
        for (uint32_t k = 0; k < d->n_notes; k++)
            if (!note_used[base + k] && same_file(d, file) && note_matches(d, &d->notes[k], e)) {
                note_used[base + k] = true;
                return true;
            }
        base += d->n_notes;
    }
    return false;
}

static void print_diag(FILE *report, const Diag *d, const char *prefix) {
    fprintf(report, "%s:%u:%u: %s%s: %s", d->file && d->file->path ? d->file->path : "<input>", d->loc.line, d->loc.col,
            prefix, severity_name(d->severity), d->message ? d->message : "");
    if (d->rule) fprintf(report, " [%s]", d->rule);
    fputc('\n', report);
}

int verify_expected_diagnostics(const SourceFile *file, const DiagList *actual, FILE *report) {
    ExpectList list = {0};
    collect_expectations(&list, file, report);
    int mismatches = list.malformed;
    bool *used = calloc(actual->count ? actual->count : 1, sizeof *used);
    size_t n_notes = 0;
    for (size_t j = 0; j < actual->count; j++) n_notes += actual->items[j].n_notes;
    bool *note_used = calloc(n_notes ? n_notes : 1, sizeof *note_used);
    if (!used || !note_used) {
        free(list.items);
        fprintf(stderr, "fatal: out of host memory\n");
        exit(2);
    }
    for (size_t i = 0; i < list.count; i++) {
        const Expectation *e = &list.items[i];
        for (long k = 0; k < e->count; k++) {
            size_t j = 0;
            while (j < actual->count &&
                   (used[j] || !same_file(&actual->items[j], file) || !diag_matches(&actual->items[j], e)))
                j++;
            if (j < actual->count) {
                used[j] = true;
                continue;
            }
            if (match_attached_note(actual, file, e, note_used)) continue;
            mismatches++;
            fprintf(report, "%s:%ld: error: expected %s {{%.*s}} was not produced\n", file->path, e->line,
                    severity_name(e->severity), (int)e->text_len, e->text);
            for (size_t d = 0; d < actual->count; d++)
                if (same_file(&actual->items[d], file) && (long)actual->items[d].loc.line == e->line)
                    print_diag(report, &actual->items[d], "note: seen on that line: ");
        }
    }
    for (size_t j = 0; j < actual->count; j++) {
        const Diag *d = &actual->items[j];
        if (used[j] || d->severity == SEV_NOTE || !same_file(d, file)) continue;
        mismatches++;
        print_diag(report, d, "unexpected ");
    }
    free(used);
    free(note_used);
    free(list.items);
    return mismatches;
}
