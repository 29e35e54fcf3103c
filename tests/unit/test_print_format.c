/* test_print_format.c - pto.print's format taken apart (ir/print_format.c): the literal text
 * around the one conversion (escapes decoded, %% folded) and the printf spec rebuilt from checked
 * parts, which is all pto-run ever hands to printf. */
#include <criterion/criterion.h>
#include <string.h>

#include "ir.h"

static Arena *A;
static void setup(void) { A = arena_new(); }
static void teardown(void) { arena_free(A); }
TestSuite(print_format, .init = setup, .fini = teardown);

static PrintOpFormat ok(const char *raw, DType dt) {
    PrintOpFormat pf;
    const char *err = NULL;
    cr_assert(print_op_format_parse(A, raw, dt, &pf, &err), "%s: %s", raw, err ? err : "");
    return pf;
}

Test(print_format, pieces_and_rebuilt_spec) {
    PrintOpFormat pf = ok("x = %+08.3f\\n", DT_F32);
    cr_assert_eq(pf.prefix_len, 4);
    cr_assert_str_eq(pf.prefix, "x = ");
    cr_assert_str_eq(pf.suffix, "\n");
    cr_assert_str_eq(pf.spec, "%+08.3f");
    cr_assert_eq(pf.arg, PF_ARG_FLOAT);

    pf = ok("100%% \\22%-5hhx\\22\\t%%", DT_I32);
    cr_assert_str_eq(pf.prefix, "100% \"");
    cr_assert_str_eq(pf.suffix, "\"\t%");
    cr_assert_str_eq(pf.spec, "%-5llx"); /* the value is cast to 8 bits first, then printed as long long */
    cr_assert_eq(pf.arg, PF_ARG_INT);
    cr_assert_eq(pf.int_bits, 8);
    cr_assert(pf.is_unsigned);

    pf = ok("%ld", DT_I64);
    cr_assert_str_eq(pf.spec, "%lld");
    cr_assert_eq(pf.int_bits, 64);
    cr_assert(!pf.is_unsigned);
    pf = ok("%--++  ##00.f", DT_F16); /* repeated flags collapse; "%.f" is precision 0 */
    cr_assert_str_eq(pf.spec, "%-+ #0.0f");
    pf = ok("%lg", DT_BF16);
    cr_assert_str_eq(pf.spec, "%g");
    pf = ok("%512.512e", DT_F32);
    cr_assert_str_eq(pf.spec, "%512.512e");
    pf = ok("%d", DT_I1);
    cr_assert_eq(pf.int_bits, 32);
}

Test(print_format, rejections) {
    static const struct {
        const char *raw;
        DType dt;
        const char *why;
    } bad[] = {
        {"", DT_I32, "empty"},
        {"%%", DT_I32, "no conversion"},
        {"%d%d", DT_I32, "more than one"},
        {"%n", DT_I32, "writes to memory"},
        {"%s", DT_I32, "reads a string"},
        {"%*d", DT_I32, "'*'"},
        {"%.*d", DT_I32, "'*'"},
        {"%2$d", DT_I32, "positional"},
        {"%513d", DT_I32, "over 512"},
        {"%.4294967296f", DT_F32, "over 512"},
        {"%", DT_I32, "ends inside"},
        {"%l", DT_I64, "ends inside"},
        {"%d", DT_F32, "prints an integer"},
        {"%f", DT_I8, "prints a floating-point"},
        {"%d", DT_I64, "does not take a i64"},
        {"%lld", DT_I16, "does not take a i16"},
        {"%Lf", DT_F32, "length modifier"},
        {"%jf", DT_F32, "length modifier"},
        {"\\x%d", DT_I32, "escape"},
        {"%d\\", DT_I32, "escape"},
        {"%d\\0", DT_I32, "escape"},
        {"%d\\00", DT_I32, "NUL"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        PrintOpFormat pf;
        const char *err = NULL;
        cr_expect(!print_op_format_parse(A, bad[i].raw, bad[i].dt, &pf, &err), "%s accepted", bad[i].raw);
        cr_expect(err && strstr(err, bad[i].why), "%s: '%s' lacks '%s'", bad[i].raw, err ? err : "", bad[i].why);
    }
}
