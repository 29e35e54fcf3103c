/* fuzz_roundtrip.c - libFuzzer harness (a): text -> lexer -> parser -> verifier -> printer -> re-parse.
 *
 * For any input: parsing, verifying (both target profiles), the `--verify-diagnostics` annotation
 * check and diagnostic printing must not crash, leak or touch foreign memory. For a program the
 * verifier accepts, in each printed form F (dps, generic, ssa) that module_check_printable allows (as
 * pto-as --emit does): p1 = print(F); p1 must parse and verify without errors; p2 =
 * print(parse(p1), F) must equal p1 byte for byte. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "parser.h"
#include "verifier.h"

/* Parses and verifies `text`; returns the module when there is no error (else NULL). */
static Module *parse_and_verify(Arena *arena, const char *name, const char *text, size_t len, const VerifyOptions *vo,
                                DiagList *diags, SourceFile **file_out) {
    SourceFile *sf = source_file_from_string(arena, name, text, len);
    *file_out = sf;
    Module *m = parse_module(arena, sf, diags);
    if (!m || diags->errors) return NULL;
    if (!verify_module(m, vo, diags) || diags->errors) return NULL;
    return m;
}

static void check_round_trip(FILE *sink, const Module *m, const VerifyOptions *vo, PrintForm form) {
    const char *form_name = form == PRINT_DPS ? "dps" : form == PRINT_GENERIC ? "generic" : "ssa";
    Arena *arena = arena_new();
    DiagList refused;
    diag_init(&refused, arena);
    if (!module_check_printable(m, form, &refused)) { /* pto-as reports these and prints nothing */
        fuzz_print_diags(sink, &refused);
        arena_free(arena);
        return;
    }
    char *p1 = module_to_string(arena, m, form);
    FUZZ_CHECK(p1 != NULL, "printing an accepted program (%s) failed", form_name);
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *sf;
    Module *m2 = parse_and_verify(arena, "<printed>", p1, strlen(p1), vo, &diags, &sf);
    if (!m2) {
        diag_sort(&diags);
        diag_print_text(stderr, &diags);
        FUZZ_CHECK(m2 != NULL, "the printed program (%s) does not parse and verify:\n%s", form_name, p1);
    }
    char *p2 = module_to_string(arena, m2, form);
    FUZZ_CHECK(p2 != NULL && strcmp(p1, p2) == 0, "printing is not idempotent (%s):\n--- first\n%s--- second\n%s",
               form_name, p1, p2 ? p2 : "(null)");
    fuzz_print_diags(sink, &diags);
    arena_free(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FILE *sink = fuzz_sink();
    Arena *arena = arena_new();
    DiagList diags;
    diag_init(&diags, arena);
    SourceFile *sf = source_file_from_string(arena, "<fuzz>", (const char *)data, size);
    Module *m = parse_module(arena, sf, &diags);
    if (!m || diags.errors) {
        verify_expected_diagnostics(sf, &diags, sink);
        fuzz_print_diags(sink, &diags);
    } else {
        /* 0: the file's own target (pto-as default); 1, 2: --target=a2a3 / --target=a5 */
        static const Target targets[] = {TARGET_A2A3, TARGET_A2A3, TARGET_A5};
        unsigned checked = 0; /* effective targets whose round trip was checked */
        for (int t = 0; t < 3; t++) {
            VerifyOptions vo = {.target = targets[t], .target_given = t != 0, .entry = NULL};
            DiagList vd;
            diag_init(&vd, arena);
            bool ok = verify_module(m, &vo, &vd) && vd.errors == 0;
            if (t == 0) verify_expected_diagnostics(sf, &vd, sink);
            fuzz_print_diags(sink, &vd);
            Target eff = verify_effective_target(m, &vo);
            if (ok && !(checked & (1u << eff))) {
                /* the printed program must pass under the profile the original passed under */
                VerifyOptions again = {.target = eff, .target_given = true, .entry = NULL};
                check_round_trip(sink, m, &again, PRINT_DPS);
                check_round_trip(sink, m, &again, PRINT_GENERIC);
                check_round_trip(sink, m, &again, PRINT_SSA);
                checked |= 1u << eff;
            }
        }
    }
    arena_free(arena);
    fclose(sink);
    return 0;
}
