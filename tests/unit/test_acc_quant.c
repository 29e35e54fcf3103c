/* test_acc_quant.c - the acc conversion of interp/acc_quant.c (the simulator's quantize_element):
 * the word's fields, the vector form's 19-bit scale, and the edge values the goldens of tests/sim
 * reach only by chance (NaN into int8, a vector exponent of 0, the i16 shift wrapping). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "interp_impl.h"

static uint64_t word(float scale, unsigned offset, bool sign, unsigned shift) {
    uint32_t bits;
    memcpy(&bits, &scale, 4);
    return bits | ((uint64_t)offset << 37) | ((uint64_t)sign << 46) | ((uint64_t)shift << 32);
}

Test(acc_quant, modes_follow_the_simulator_tables) {
    AccConvert cv;
    cr_assert(acc_convert_plan(&cv, DT_F32, DT_I8, AQF_SCALAR, false));
    cr_assert_eq(cv.mode, AQ_B8);
    cr_assert(acc_convert_plan(&cv, DT_F32, DT_F16, AQF_SCALAR, false));
    cr_assert_eq(cv.mode, AQ_F16);
    cr_assert(acc_convert_plan(&cv, DT_F32, DT_F16, AQF_VECTOR, false)); /* no vector mode: a cast */
    cr_assert_eq(cv.mode, AQ_CAST);
    cr_assert(acc_convert_plan(&cv, DT_I32, DT_I16, AQF_VECTOR, false));
    cr_assert_eq(cv.mode, AQ_SHIFT16);
    cr_assert(acc_convert_plan(&cv, DT_F32, DT_F32, AQF_SCALAR, false)); /* the word is ignored */
    cr_assert_eq(cv.mode, AQ_CAST);
    cr_assert_not(acc_convert_plan(&cv, DT_F32, DT_I16, AQF_SCALAR, false));
}

Test(acc_quant, int8_saturates_wraps_and_nan_is_zero) {
    AccConvert cv;
    AccQuantWord q;
    cr_assert(acc_convert_plan(&cv, DT_F32, DT_I8, AQF_SCALAR, false));
    float in[6] = {1000.0f, -1000.0f, 2.5f, 3.5f, NAN, -0.6f};
    int8_t out[6];
    acc_quant_word(&cv, word(1.0f, 0, true, 0), &q);
    acc_convert_run(&cv, &q, 0, (uint8_t *)out, (const uint8_t *)in, 6);
    int8_t want[6] = {127, -128, 2, 4, 0, -1}; /* ties to even; NaN survives the clamp, the cast gives 0 */
    cr_assert_arr_eq(out, want, sizeof want);
    acc_quant_word(&cv, word(1.0f, 100, false, 0), &q); /* unsigned with offset 100: [0, 255], then wraps */
    acc_convert_run(&cv, &q, 0, (uint8_t *)out, (const uint8_t *)in, 6);
    int8_t want_u[6] = {-1, 0, 102, 104, 0, 99};
    cr_assert_arr_eq(out, want_u, sizeof want_u);
}

Test(acc_quant, vector_scale_is_the_19_bit_float) {
    AccConvert cv;
    AccQuantWord q;
    cr_assert(acc_convert_plan(&cv, DT_F32, DT_I8, AQF_VECTOR, false));
    acc_quant_word(&cv, word(1.0f + 1.0f / 4096.0f, 0, true, 0), &q); /* mantissa bit 11: dropped */
    cr_assert_eq(q.scale, 1.0f);
    acc_quant_word(&cv, word(0.0f, 0, true, 0) | ((uint64_t)1 << 13), &q); /* exponent 0: no subnormal */
    cr_assert_eq(q.scale, (1.0f + 1.0f / 1024.0f) * ldexpf(1.0f, -127));
    acc_quant_word(&cv, word(-0.0f, 0, true, 0), &q); /* a zero field is +0, its sign dropped */
    cr_assert_eq(q.scale, 0.0f);
    cr_assert_not(signbit(q.scale));
}

Test(acc_quant, shift16_wraps_before_the_clamp) {
    AccConvert cv;
    AccQuantWord q;
    cr_assert(acc_convert_plan(&cv, DT_I32, DT_I16, AQF_SCALAR, false));
    int32_t in[3] = {0x7fffffff, -8, 0x00030000};
    int16_t out[3];
    acc_quant_word(&cv, word(1.0f, 0, false, 0), &q); /* bits 32..35 = 0: shift by 1 */
    acc_convert_run(&cv, &q, 0, (uint8_t *)out, (const uint8_t *)in, 3);
    int16_t want[3] = {-1, -4, -32768}; /* 0x3fffffff and 0x18000 wrap to 16 bits */
    cr_assert_arr_eq(out, want, sizeof want);
    acc_quant_word(&cv, word(1.0f, 0, false, 3), &q); /* shift by 4 */
    acc_convert_run(&cv, &q, 0, (uint8_t *)out, (const uint8_t *)in, 3);
    int16_t want4[3] = {-1, -1, 0x3000};
    cr_assert_arr_eq(out, want4, sizeof want4);
    cr_assert(acc_convert_plan(&cv, DT_I32, DT_I16, AQF_SCALAR, true)); /* relu after the wrap */
    acc_quant_word(&cv, word(1.0f, 0, false, 0), &q);
    acc_convert_run(&cv, &q, 0, (uint8_t *)out, (const uint8_t *)in, 3);
    int16_t want_relu[3] = {0, 0, 0};
    cr_assert_arr_eq(out, want_relu, sizeof want_relu);
}

/* acc f32 -> an 8-bit float (the fp forms on A5): no quantisation mode, pto-isa's MXType(double)
 * constructor: truncation, the exponent wrapping (1000 in e4m3, infinities), NaN's top mantissa
 * bits, and 2^-70 in e4m3 where the g++-built simulator shifts by 64 modulo 64 and keeps the bits.
 * The expected bytes are the g++ -O2 build's of pto-isa's MXTypes.hpp. */
Test(acc_quant, f8_is_mxtype_of_the_value) {
    float in[13] = {1.0f, 448.0f, 1000.0f, INFINITY, -INFINITY, NAN, -0.0f, 0x1p-70f, 0x1p-9f, -3.0f, 65536.0f, -2.0f, 0x1p-130f};
    static const struct { DType dt; uint8_t want[13]; } cases[] = {
        {DT_F8E4M3FN, {0x38, 0x7e, 0x07, 0x38, 0xb8, 0x3c, 0x00, 0x08, 0x01, 0xc4, 0x38, 0xc0, 0x00}},
        {DT_F8E5M2, {0x3c, 0x5f, 0x63, 0x3c, 0xbc, 0x3e, 0x00, 0x00, 0x18, 0xc2, 0x7c, 0xc0, 0x00}},
        {DT_F8E8M0FNU, {0x7f, 0x87, 0x88, 0x7f, 0x7f, 0x7f, 0x00, 0x39, 0x76, 0x80, 0x8f, 0x80, 0x00}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        AccConvert cv;
        cr_assert(acc_convert_plan(&cv, DT_F32, cases[i].dt, AQF_VECTOR, false));
        cr_assert_eq(cv.mode, AQ_F8);
        uint8_t out[13];
        acc_convert_run(&cv, NULL, 0, out, (const uint8_t *)in, 13);
        cr_assert_arr_eq(out, cases[i].want, sizeof out, "%s", dtype_name(cases[i].dt));
    }
    AccConvert cv;
    cr_assert_not(acc_convert_plan(&cv, DT_I32, DT_F8E4M3FN, AQF_VECTOR, false)); /* PTOAS: f32 only */
    cr_assert_not(acc_convert_plan(&cv, DT_F32, DT_F8E4M3FN, AQF_SCALAR, false));
}
