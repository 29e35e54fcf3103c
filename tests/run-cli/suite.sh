#!/bin/sh
# pto-run command-line tests: sh tests/run-cli/suite.sh BUILD_DIR
# Each case runs build/pto-run from this directory and checks its exit status and, as listed,
#   out=FILE     stdout equals expected/FILE exactly
#   out~TEXT     stdout contains TEXT            err~TEXT   stderr contains TEXT
#   same=A:B     file A (in the scratch directory) has the bytes of B
#   size=A:N     file A has N bytes              absent=A   file A does not exist
# Scratch files live in a temporary directory, named $T in arguments.
# Data files come from gen.py (numpy); expected/*.out were checked by hand against SPEC 5 and the
# TPRINT layout of the ISA's CPU simulator.
# Prints "PASS run-cli/NAME" or "FAIL run-cli/NAME" (with details) per case.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
run="$build/pto-run"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$here" || exit 1

# invoke ARGS...: runs pto-run, keeping status, stdout and stderr
invoke() {
    rm -f "$T/out" "$T/err"
    "$run" "$@" >"$T/out" 2>"$T/err"
    status=$?
    cmdline="pto-run $*"
}

# expect NAME STATUS CHECKS...
expect() {
    name=$1 want=$2
    shift 2
    problems=""
    if [ ! -x "$run" ]; then
        echo "FAIL run-cli/$name"
        echo "    $run: not built"
        return
    fi
    [ "$status" -eq "$want" ] || problems="$problems|exit status $status, expected $want"
    for c in "$@"; do
        case $c in
        out=*)
            cmp -s "$T/out" "expected/${c#out=}" || problems="$problems|stdout differs from expected/${c#out=}" ;;
        out~*)
            grep -qF -- "${c#out~}" "$T/out" || problems="$problems|stdout lacks: ${c#out~}" ;;
        err~*)
            grep -qF -- "${c#err~}" "$T/err" || problems="$problems|stderr lacks: ${c#err~}" ;;
        same=*)
            spec=${c#same=}
            cmp -s "$T/${spec%%:*}" "${spec#*:}" || problems="$problems|$T/${spec%%:*} differs from ${spec#*:}" ;;
        size=*)
            spec=${c#size=}
            got=$(wc -c <"$T/${spec%%:*}" 2>/dev/null | tr -d ' ')
            [ "$got" = "${spec#*:}" ] || problems="$problems|${spec%%:*} has ${got:-no} bytes, expected ${spec#*:}" ;;
        absent=*)
            [ ! -e "$T/${c#absent=}" ] || problems="$problems|${c#absent=} was written" ;;
        esac
    done
    if [ -z "$problems" ]; then
        echo "PASS run-cli/$name"
    else
        echo "FAIL run-cli/$name"
        echo "    $cmdline"
        printf '%s\n' "$problems" | tr '|' '\n' | sed -e '/^$/d' -e 's/^/    /'
        sed -e 's/^/    out: /' "$T/out" | head -n 20
        sed -e 's/^/    err: /' "$T/err" | head -n 20
    fi
}

# ---- informational options ------------------------------------------------------------------
invoke --help
expect help 0 "out~Usage: pto-run [OPTIONS] FILE" "out~--expect NAME=PATH" "out~--max-steps N" "out~--blocks N"
invoke --version
expect version 0 "out~pto-run $(cat "$root/VERSION" 2>/dev/null)"

# ---- usage and I/O problems: exit 2 -----------------------------------------------------------
invoke
expect no_file 2 "err~no program file given"
invoke scale.pto --frobnicate
expect unknown_option 2 "err~unknown option '--frobnicate'"
invoke scale.pto --in arg0
expect in_without_path 2 "err~--in expects NAME=PATH"
invoke scale.pto --target=a9
expect bad_target 2 "err~unknown target 'a9'"
invoke scale.pto --max-steps 0
expect bad_max_steps 2 "err~--max-steps expects a positive integer"
invoke missing.pto
expect missing_program 2 "err~missing.pto"
invoke scale.pto --in nosuch=data/in16.bin --set s=1
expect unknown_name 2 "err~--in nosuch: @scale has no argument or value named 'nosuch'"
invoke scale.pto --in arg0=data/missing.bin --set s=1
expect missing_data 2 "err~cannot open 'data/missing.bin'"
invoke scale.pto --in arg0=data/i32_16.npy --set s=1
expect missing_npy 2 "err~cannot open"
invoke scale.pto --in arg0=data/corrupt.npy --set s=1
expect corrupt_npy 2 "err~corrupt .npy header"
invoke two_funcs.pto --entry second --in arg0=data/in16.npy
expect npy_dtype_mismatch 2 "err~holds dtype '<f4' but the binding is i16 ('<i2')"
invoke scale.pto --in arg0=data/in16.bin --set s=two
expect bad_scalar 2 "err~'two' is not a valid f32 value for %s"
invoke scale.pto --in s=data/in16.bin
expect in_on_scalar 2 "err~%s is a scalar argument; give its value with --set s=VALUE"
invoke bare.pto --in src=data/in15.bin
expect tile_input_size 2 "err~the data holds 15 elements but the valid region of %src is 2x3 (6 elements)"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --out arg1=$T/no/such/dir/out.bin
expect out_unwritable 2 "err~cannot create a temporary file next to"

# ---- verifier and run-time errors: exit 1 ------------------------------------------------------
invoke misaligned.pto
expect verifier_error 1 "err~misaligned.pto:2:17: error: 'pto.tassign' op"
invoke divzero.pto --set n=0 --out arg0=$T/div.bin
expect runtime_error_located 1 "err~divzero.pto:8:10: error: 'arith.divsi' op division by zero (8 / 0)" \
    "err~%q = arith.divsi %c8, %n : index" absent=div.bin
invoke divzero.pto --set n=2 --out arg0=$T/div.bin
expect runtime_ok_writes_out 0 size=div.bin:32
invoke scale.pto --in arg0=data/in16.bin
expect unbound_scalar 1 "err~scalar argument %s of @scale has no value; pass --set s=VALUE"
invoke loop.pto --max-steps 100
expect max_steps 1 "err~loop.pto:6:8: error: 'arith.addi' op exceeds the limit of 100 executed steps (--max-steps)"
invoke loop.pto --max-steps 10000
expect max_steps_enough 0
invoke two_funcs.pto --in arg0=data/i16_16.bin
expect no_entry 1 "err~cannot choose the function to run: mark one with attributes {pto.entry} or pass --entry NAME"
invoke two_funcs.pto --entry third --in arg0=data/i16_16.bin
expect entry_unknown 2 "err~pto-run: error: --entry third: two_funcs.pto has no function @third"
invoke scale.pto --in arg0=data/in16.bin --in %arg0=data/in16.npy --set s=2.0
expect in_given_twice 2 "err~pto-run: error: --in %arg0: %arg0 already has its input from --in arg0"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --set %s=3.0
expect set_given_twice 2 "err~pto-run: error: --set %s: %s already has its input from --set s"
invoke --in arg0=data/in16.bin --set s=2.0 -- scale.pto
expect double_dash_ends_options 0
invoke -- scale.pto --in arg0=data/in16.bin
expect double_dash_then_option 2 "err~more than one program file ('scale.pto' and '--in')"
: > "$T/empty.pto"
invoke "$T/empty.pto"
expect empty_program_runs 0
invoke one_dynamic_dim.pto --print t --print r
expect one_dynamic_valid_dim 0 "out~%t: 8x5 f32" "out~%r: 3x16 f32"
invoke zero_cols.pto --print t
expect print_zero_columns 0 "out~TPRINT 3x0" "out~%t: 3x0 f32"

# ---- results -------------------------------------------------------------------------------------
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2.bin --print arg1
expect expect_and_print 0 out=expect_and_print.out
invoke --set s=2.0 --expect arg1=data/out16_x2.bin scale.pto --in %arg0=data/in16.bin --atol 0 --rtol 0
expect options_after_file 0 "out~%arg1: 16 elements, 0 mismatches"
invoke scale.pto --in arg0=data/in16.npy --set s=0x40000000 --expect arg1=data/out16_x2.npy
expect npy_and_hex_scalar 0 "out~%arg1: 16 elements, 0 mismatches"
invoke scale.pto --in arg0=data/in16.bin --set s=-0.0 --expect arg1=data/zero16.bin
expect compare_allclose_signed_zero 0 "out~%arg1: 16 elements, 0 mismatches"
invoke scale.pto --in arg0=data/in16.bin --set s=-0.0 --expect arg1=data/zero16.bin --compare=bits
expect compare_bits_signed_zero 1 "out~%arg1: 16 elements, 16 mismatches (100%), max abs err 0, max rel err 0 (bit patterns)" "out~got -0 (0x80000000), want 0 (0x00000000)"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2.bin --compare bits
expect compare_bits_equal 0 "out~%arg1: 16 elements, 0 mismatches, max abs err 0, max rel err 0 (bit patterns)"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2.bin --compare=bits --atol 0
expect compare_bits_with_tolerance 2 "err~--compare=bits takes no tolerance"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --compare=exact --expect arg1=data/out16_x2.bin
expect compare_unknown_mode 2 "err~--compare expects allclose, bits or isa[:eps=E,frac=F], got 'exact'" "err~Try 'pto-run --help'."
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --atol 0.1
expect atol_without_expect 2 "err~pto-run: error: --compare, --atol, --rtol and --show apply to --expect, and none is given" "err~Try 'pto-run --help'."
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2_wrong.bin
expect expect_mismatch 1 out=expect_mismatch.out
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/in15.bin
expect expect_count_mismatch 2 "err~result has 16 elements but the expected data has 15"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --out arg1=$T/o.bin --out arg1=$T/o.npy
expect out_bin_and_npy 0 same=o.bin:data/out16_x2.bin same=o.npy:data/out16_x2.npy
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2_wrong.bin --out arg1=$T/m.bin
expect out_despite_mismatch 1 same=m.bin:data/out16_x2.bin
cp data/i16_16.bin "$T/inout.bin"
invoke two_funcs.pto --entry second --in arg0=$T/inout.bin --out arg0=$T/inout.bin
expect in_out_same_file 0 same=inout.bin:data/i16_16_x3.bin
invoke grow.pto --out arg0=$T/g.bin
expect out_only_buffer_sized_by_reach 0 size=g.bin:112
invoke bare.pto --in src=data/src2x3.bin --trace --print dst --out dst=$T/dst.bin
expect trace_tprint_print 0 out=trace_tprint_print.out size=dst.bin:24
invoke --target a5 bare.pto --in src=data/src2x3.bin
expect tprint_only 0 out=tprint_only.out
invoke - <bare.pto
expect program_from_stdin 0 "out~TPRINT 2x3"
invoke calls.pto --trace
expect trace_calls_loops_if 0 out=calls_trace.out
invoke blocks.pto --blocks 3 --out arg0=$T/b.bin --print arg0
expect blocks_three 0 size=b.bin:768 "out~%arg0: 192 f32" "out~  3.0000"
invoke blocks.pto --out arg0=$T/b1.bin
expect blocks_default_one 0 size=b1.bin:256
invoke blocks.pto --blocks=2 --out arg0=$T/b2.bin
expect blocks_equals_form 0 size=b2.bin:512
invoke blocks.pto --blocks 0
expect blocks_zero 2 "err~--blocks expects an integer from 1 to 65536, got '0'"
invoke blocks.pto --blocks -3
expect blocks_negative 2 "err~--blocks expects an integer from 1 to 65536, got '-3'"
invoke blocks.pto --blocks two
expect blocks_not_a_number 2 "err~--blocks expects an integer from 1 to 65536, got 'two'"
invoke blocks.pto --blocks 4x
expect blocks_trailing_junk 2 "err~--blocks expects an integer from 1 to 65536, got '4x'"
invoke blocks.pto --blocks 65537
expect blocks_too_many 2 "err~--blocks expects an integer from 1 to 65536, got '65537'"
invoke blocks.pto --blocks
expect blocks_missing_value 2 "err~--blocks expects an integer from 1 to 65536"
invoke blocks.pto --blocks 2 --trace
expect blocks_trace 0 "out~-- block 1 of 2" "out~pto.addptr %p=gm:%arg0+64"
invoke acc_store.pto --out "gc=$T/c.bin" --out "gd=$T/d.bin"
expect acc_store_cast_relu 0 "same=c.bin:data/acc_store_f16.bin" "same=d.bin:data/acc_store_relu_bf16.bin"
invoke bare.pto --check-sync=sometimes
expect check_sync_bad_mode 2 "err~--check-sync takes auto or strict, got 'sometimes'"
invoke --help
expect help_check_sync 0 "out~--check-sync[=auto|strict]"
