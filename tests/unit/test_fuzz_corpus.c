/* test_fuzz_corpus.c - the committed fuzz seeds and dictionary keep up with the op table
 * (issue #11, docs/robustness.md "Seeds and dictionary").
 *
 * Every op spelling of the op table (ir/ops*.def through op_info: each row's full name, e.g.
 * "pto.tsub", and its assembly mnemonic, e.g. "tsub") must occur in at least one seed of
 * tests/fuzz/corpus/roundtrip and of tests/fuzz/corpus/run, and as a word of tests/fuzz/pto.dict.
 * A failure names each missing spelling; the fix is `sh tests/fuzz/seeds.sh` after adding a test
 * program that uses it, and `/usr/bin/python3 tests/fuzz/dict_ops.py`.
 *
 * A seed "contains" a spelling when the spelling is a whole bare word of the seed (not a `%value`,
 * `@symbol`, `!type`, `#attribute` or `^block` name, not inside a `//` or `# ` comment) or a whole
 * string literal (MLIR's generic form `"pto.tsub"(...)`), within the first FUZZ_SEED_MAX_LEN bytes:
 * tests/fuzz/run.sh runs the text harnesses with -max_len=16384 and libFuzzer cuts longer seeds
 * there. Paths are relative to the repository root, where `make test` runs the unit tests. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#define FUZZ_SEED_MAX_LEN 16384 /* tests/fuzz/run.sh: -max_len of the roundtrip and run harnesses */
#define MAX_SPELLINGS (2 * OP_COUNT)

typedef struct Spelling {
    const char *text;
    bool mnemonic; /* the assembly mnemonic (OpInfo.asm_name), else the full name */
    bool seen;
} Spelling;

typedef struct SpellingSet {
    Spelling items[MAX_SPELLINGS];
    int count;
} SpellingSet;

static int spelling_order(const void *a, const void *b) {
    return strcmp(((const Spelling *)a)->text, ((const Spelling *)b)->text);
}

/* Every distinct full name and assembly mnemonic of the op table, sorted, none seen. */
static void spellings_from_op_table(SpellingSet *set) {
    set->count = 0;
    for (int code = 0; code < OP_COUNT; code++) {
        const OpInfo *info = op_info((OpCode)code);
        const char *texts[2] = {info->name, info->asm_name};
        for (int k = 0; k < 2; k++) {
            if (!texts[k]) continue;
            bool dup = false;
            for (int i = 0; i < set->count && !dup; i++) dup = strcmp(set->items[i].text, texts[k]) == 0;
            if (dup) continue;
            cr_assert_lt(set->count, MAX_SPELLINGS);
            set->items[set->count++] = (Spelling){.text = texts[k], .mnemonic = k == 1, .seen = false};
        }
    }
    qsort(set->items, (size_t)set->count, sizeof set->items[0], spelling_order);
}

/* Marks the spelling equal to text[0..len) as seen, if there is one. */
static void mark_seen(SpellingSet *set, const char *text, size_t len) {
    int lo = 0, hi = set->count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strncmp(set->items[mid].text, text, len);
        if (c == 0 && set->items[mid].text[len] != '\0') c = 1;
        if (c == 0) {
            set->items[mid].seen = true;
            return;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
}

static bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_word_char(char c) { return is_word_start(c) || (c >= '0' && c <= '9') || c == '$' || c == '.'; }

/* Marks the spellings that occur in the .pto text s[0..n) (see the header for what counts). */
static void scan_text(SpellingSet *set, const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') i++;
        } else if (c == '#' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t' || s[i + 1] == '\n' || s[i + 1] == '\r')) {
            while (i < n && s[i] != '\n') i++;
        } else if (c == '"') {
            size_t start = ++i;
            while (i < n && s[i] != '"' && s[i] != '\n') i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
            mark_seen(set, s + start, (i < n ? i : n) - start);
            i++;
        } else if (is_word_char(c)) {
            size_t start = i;
            while (i < n && is_word_char(s[i])) i++;
            bool sigil = start > 0 && strchr("%@!#^", s[start - 1]) != NULL;
            if (is_word_start(c) && !sigil) mark_seen(set, s + start, i - start);
        } else {
            i++;
        }
    }
}

/* Scans the first FUZZ_SEED_MAX_LEN bytes of every regular file of `dir`; the number of files. */
static int scan_corpus(SpellingSet *set, const char *dir) {
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s (run the unit tests from the repository root)", dir);
    char *buf = malloc(FUZZ_SEED_MAX_LEN);
    cr_assert(buf);
    int files = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        size_t n = fread(buf, 1, FUZZ_SEED_MAX_LEN, f);
        fclose(f);
        scan_text(set, buf, n);
        files++;
    }
    closedir(d);
    free(buf);
    return files;
}

/* Reports every spelling not seen as "WHERE: the op|mnemonic `X` WHAT"; the number reported. */
static int report_missing(const SpellingSet *set, const char *where, const char *what) {
    int missing = 0;
    for (int i = 0; i < set->count; i++) {
        if (set->items[i].seen) continue;
        fprintf(stderr, "%s: the %s `%s` %s\n", where, set->items[i].mnemonic ? "mnemonic" : "op", set->items[i].text, what);
        missing++;
    }
    return missing;
}

static void check_corpus(const char *dir) {
    SpellingSet *set = malloc(sizeof *set);
    cr_assert(set);
    spellings_from_op_table(set);
    cr_assert_gt(set->count, 100, "the op table yields only %d spellings", set->count);
    int files = scan_corpus(set, dir);
    cr_assert_gt(files, 0, "%s has no seeds", dir);
    int missing = report_missing(set, dir, "is in no seed");
    free(set);
    cr_assert_eq(missing, 0, "%d op spellings occur in no seed of %s (listed above); "
                             "regenerate it: sh tests/fuzz/seeds.sh", missing, dir);
}

Test(fuzz_corpus, roundtrip_seeds_contain_every_op_spelling) { check_corpus("tests/fuzz/corpus/roundtrip"); }

Test(fuzz_corpus, run_seeds_contain_every_op_spelling) { check_corpus("tests/fuzz/corpus/run"); }

Test(fuzz_corpus, dictionary_has_every_op_name_and_mnemonic) {
    SpellingSet *set = malloc(sizeof *set);
    cr_assert(set);
    spellings_from_op_table(set);
    FILE *f = fopen("tests/fuzz/pto.dict", "r");
    cr_assert(f, "cannot open tests/fuzz/pto.dict (run the unit tests from the repository root)");
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        /* a dictionary entry: optional `name=`, then "word" (libFuzzer's format); `#` lines are comments */
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#') continue;
        char *open = strchr(p, '"'), *close = open ? strrchr(open + 1, '"') : NULL;
        if (close) mark_seen(set, open + 1, (size_t)(close - open - 1));
    }
    fclose(f);
    int missing = report_missing(set, "tests/fuzz/pto.dict", "is not a word of it");
    free(set);
    cr_assert_eq(missing, 0, "%d op spellings are not words of tests/fuzz/pto.dict (listed above); "
                             "regenerate it: /usr/bin/python3 tests/fuzz/dict_ops.py", missing);
}

/* The scanner itself: what counts as containing a spelling. */
Test(fuzz_corpus, scanner_counts_bare_words_and_generic_names_only) {
    SpellingSet *set = malloc(sizeof *set);
    cr_assert(set);
    spellings_from_op_table(set);
    const char *text = "// pto.tsub in a comment\n"
                       "# pto.tlog in a comment\n"
                       "%tcmp = pto.tadd %tdiv, %b : T\n"
                       "%x = \"pto.tmul\"(%a) : () -> ()\n"
                       "%y = tsubs %a, %c : T, f32 // tneg\n"
                       "@tmax #tmin !trem ^tor pto.tabsx\n";
    scan_text(set, text, strlen(text));
    const char *want_seen[] = {"pto.tadd", "pto.tmul", "tsubs"};
    const char *want_unseen[] = {"pto.tsub", "pto.tlog", "tcmp", "tdiv", "tneg", "tmax", "tmin", "trem", "tor", "pto.tabs", "tadd"};
    int found = 0;
    for (int i = 0; i < set->count; i++) {
        for (size_t k = 0; k < sizeof want_seen / sizeof want_seen[0]; k++)
            if (strcmp(set->items[i].text, want_seen[k]) == 0) {
                cr_expect(set->items[i].seen, "%s not seen", want_seen[k]);
                found++;
            }
        for (size_t k = 0; k < sizeof want_unseen / sizeof want_unseen[0]; k++)
            if (strcmp(set->items[i].text, want_unseen[k]) == 0) {
                cr_expect(!set->items[i].seen, "%s seen", want_unseen[k]);
                found++;
            }
    }
    cr_expect_eq(found, 14, "the example spellings are op table spellings (found %d of 14)", found);
    free(set);
}
