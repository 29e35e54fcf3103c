/* fuzz_common.h - helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c).
 * Harnesses keep no state between inputs: every allocation is made and freed inside one call of
 * LLVMFuzzerTestOneInput, so a leak is a LeakSanitizer report. */
#ifndef PTO_FUZZ_COMMON_H
#define PTO_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "ir.h"

/* A sink for text the tools would print (diagnostics, traces); opened per input. Refuses a
 * /dev/null that is not the null device (it would fill the disk). */
static inline FILE *fuzz_sink(void) {
    struct stat st;
    FILE *f = fopen("/dev/null", "w");
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISCHR(st.st_mode)) {
        fprintf(stderr, "fuzz: /dev/null is missing or not a character device\n");
        abort();
    }
    return f;
}

/* Stops the fuzzer with a message: a property of the toolchain does not hold. */
#define FUZZ_CHECK(cond, ...)                                                         \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "fuzz: property violated: %s\n  ", #cond);               \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
            abort();                                                                 \
        }                                                                            \
    } while (0)

/* Prints every diagnostic both ways (exercises carets and JSON escaping on any location). */
static inline void fuzz_print_diags(FILE *sink, DiagList *diags) {
    diag_sort(diags);
    diag_print_text(sink, diags);
    diag_print_json(sink, diags);
}

#endif
