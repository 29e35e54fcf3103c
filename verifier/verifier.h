/* verifier.h - checks a parsed module against the ISA's dtype, layout, valid-shape and placement
 * rules for a target profile (SPEC 3). Structural checks (arity, operand kinds, undefined values)
 * are done by the parser; this stage adds types, layout, shape/valid-region and memory rules. */
#ifndef PTO_VERIFIER_H
#define PTO_VERIFIER_H

#include "ir.h"

typedef struct VerifyOptions {
    Target target;        /* profile to check against */
    bool target_given;    /* --target was given (wins over the module's pto.target_arch) */
    const char *entry;    /* --entry NAME, or NULL */
} VerifyOptions;

/* The profile a module is checked and run against: --target if given, else pto.target_arch. */
Target verify_effective_target(const Module *m, const VerifyOptions *opts);

/* Runs every rule on every function of a module that parsed without errors (a module with parse
 * errors is verified too: the functions with Func.parse_failed are skipped, as are calls into them); appends
 * diagnostics (rule IDs in docs/rules.md); returns true when no error was added. */
bool verify_module(const Module *m, const VerifyOptions *opts, DiagList *diags);


/* Compares the diagnostics of `file` with its `// expected-error@+N {{text}}` annotations
 * (SPEC 8); writes one line per missing or unexpected diagnostic to `report`; returns their count. */
int verify_expected_diagnostics(const SourceFile *file, const DiagList *actual, FILE *report);

#endif
